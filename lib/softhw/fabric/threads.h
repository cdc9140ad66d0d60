/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw threads: which threads of this process are softdoca's own service threads.
 *
 * Moving exported pages onto shared memory (share.h) is safe only while no application
 * thread but the caller can store into them, nor another process on the same memory;
 * softdoca's own threads touch exported memory only under the export lock. Each service
 * thread of libdoca_common is started here.
 */
#ifndef SOFTHW_FABRIC_THREADS_H
#define SOFTHW_FABRIC_THREADS_H

#include <stdbool.h>
#include <sys/types.h>

#include <pthread.h>

/*
 * pthread_create() for a service thread: it is known here from before this returns until
 * its start routine returns.
 */
int softhw_thread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg);

/* Is the calling thread one of softdoca's service threads? */
bool softhw_thread_is_service(void);

/*
 * True when every thread of the process is the caller or an announced service thread.
 * False when unsure (a thread starting or ending, /proc unreadable).
 */
bool softhw_threads_only_caller(void);

/*
 * A process other than this one that runs on this process's memory (clone(CLONE_VM) without
 * CLONE_THREAD: it is not in /proc/self/task, and it stores as a thread would): its pid, 0
 * when there is none, -1 when unsure (*unsure says why). Costs a kcmp() per process, unless
 * no process was made since the last call that found none. Callers serialise (the export lock).
 */
pid_t softhw_threads_mm_sharer(const char **unsure);

#endif /* SOFTHW_FABRIC_THREADS_H */
