/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca's own service threads, and whether any other thread runs (see threads.h). */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <unistd.h>

#include "softhw/fabric/threads.h"

#define MAX_SERVICE_THREADS 16

static struct {
	pthread_mutex_t lock;
	pid_t tids[MAX_SERVICE_THREADS]; /* 0: free */
} reg = {.lock = PTHREAD_MUTEX_INITIALIZER};

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
/* (read on the owner's receive path: initial-exec, no __tls_get_addr call) */
static _Thread_local bool is_service __attribute__((tls_model("initial-exec")));

/* A fork() child has none of the parent's service threads. */
static void atfork_child(void)
{
	for (int i = 0; i < MAX_SERVICE_THREADS; i++)
		reg.tids[i] = 0;
	pthread_mutex_init(&reg.lock, NULL);
}

static void register_atfork(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

static void thread_enter(void)
{
	pid_t me = gettid();

	pthread_once(&atfork_once, register_atfork);
	pthread_mutex_lock(&reg.lock);
	for (int i = 0; i < MAX_SERVICE_THREADS; i++)
		if (reg.tids[i] == 0) {
			reg.tids[i] = me;
			break;
		}
	/* full: the thread stays unknown, and shared windows are refused (the safe side) */
	pthread_mutex_unlock(&reg.lock);
}

static void thread_leave(void)
{
	pid_t me = gettid();

	pthread_mutex_lock(&reg.lock);
	for (int i = 0; i < MAX_SERVICE_THREADS; i++)
		if (reg.tids[i] == me)
			reg.tids[i] = 0;
	pthread_mutex_unlock(&reg.lock);
}

struct start {
	void *(*fn)(void *);
	void *arg;
	sem_t known; /* posted once the thread is in the table */
};

static void *trampoline(void *p)
{
	struct start *st = p;
	void *(*fn)(void *) = st->fn;
	void *arg = st->arg, *ret;

	thread_enter();
	is_service = true;
	sem_post(&st->known); /* st lives on the creator's stack: not touched after this */
	ret = fn(arg);
	thread_leave();
	return ret;
}

int softhw_thread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	struct start st = {.fn = fn, .arg = arg};
	int rc;

	if (sem_init(&st.known, 0, 0) != 0)
		return errno;
	rc = pthread_create(thread, attr, trampoline, &st);
	if (rc == 0)
		while (sem_wait(&st.known) != 0 && errno == EINTR) {
		}
	sem_destroy(&st.known);
	return rc;
}

bool softhw_thread_is_service(void)
{
	return is_service;
}

static bool known(pid_t tid)
{
	for (int i = 0; i < MAX_SERVICE_THREADS; i++)
		if (reg.tids[i] == tid)
			return true;
	return false;
}

bool softhw_threads_only_caller(void)
{
	pid_t me = gettid();
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	bool only = d != NULL;

	if (d == NULL)
		return false;
	pthread_mutex_lock(&reg.lock);
	while (only && (de = readdir(d)) != NULL) {
		pid_t tid;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		tid = (pid_t)atoi(de->d_name);
		only = tid == me || known(tid);
	}
	pthread_mutex_unlock(&reg.lock);
	closedir(d);
	return only;
}
