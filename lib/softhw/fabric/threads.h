/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw threads: which threads of this process are softdoca's own service threads.
 *
 * Moving exported pages onto shared memory (share.h) is safe only while no application
 * thread but the caller can store into them; softdoca's own threads touch exported memory
 * only under the export lock. Each service thread of libdoca_common is started here.
 */
#ifndef SOFTHW_FABRIC_THREADS_H
#define SOFTHW_FABRIC_THREADS_H

#include <stdbool.h>

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

#endif /* SOFTHW_FABRIC_THREADS_H */
