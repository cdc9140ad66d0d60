/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca's own service threads, and whether any other thread runs (see threads.h). */
#include <dirent.h>
#include <errno.h>
#include <linux/kcmp.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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

/* Processes created since boot (/proc/stat "processes"), or 0 when it cannot be read. */
static unsigned long forks_since_boot(void)
{
	FILE *f = fopen("/proc/stat", "re");
	char *line = NULL;
	size_t cap = 0;
	unsigned long n = 0;

	while (f != NULL && getline(&line, &cap, f) > 0)
		if (strncmp(line, "processes ", 10) == 0) {
			n = strtoul(line + 10, NULL, 10);
			break;
		}
	free(line);
	if (f != NULL)
		fclose(f);
	return n;
}

/*
 * The last scan found no process on our memory when the system had made this many processes
 * (0: no such scan). While the count stays, none was made since, so none runs on our memory.
 * (A fork child's count differs: its own fork made one.)
 */
static unsigned long mm_scan_forks;

/* kcmp(KCMP_VM) against every process of /proc: the first on our memory, 0, or -1 (unsure). */
static pid_t mm_sharer_scan(const char **unsure)
{
	pid_t me = getpid(), found = 0;
	char self[32];
	ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);
	struct dirent *de;
	DIR *d;

	if (n <= 0 || (self[n] = '\0', atoi(self) != me)) {
		*unsure = "/proc does not show this process's pid namespace";
		return -1;
	}
	/*
	 * A process on our memory is as dumpable as we are (the flag belongs to the memory):
	 * while we are, kcmp() may inspect it. One it refuses (EPERM) is another user's, or one
	 * that changed its credentials after it was cloned (not detected).
	 */
	if (prctl(PR_GET_DUMPABLE) != 1) {
		*unsure = "the process is not dumpable, so kcmp() cannot compare it with others";
		return -1;
	}
	if (syscall(SYS_kcmp, me, me, KCMP_VM, 0, 0) != 0) {
		*unsure = "kcmp() is not available";
		return -1;
	}
	d = opendir("/proc");
	if (d == NULL) {
		*unsure = "cannot list /proc";
		return -1;
	}
	while (found == 0 && (de = readdir(d)) != NULL) {
		pid_t pid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = (pid_t)atoi(de->d_name);
		if (pid != me && syscall(SYS_kcmp, me, pid, KCMP_VM, 0, 0) == 0)
			found = pid;
	}
	closedir(d);
	return found;
}

pid_t softhw_threads_mm_sharer(const char **unsure)
{
	unsigned long forks = forks_since_boot();
	pid_t found;

	if (forks != 0 && forks == mm_scan_forks)
		return 0;
	found = mm_sharer_scan(unsure); /* (after reading the count: a process made meanwhile changes it) */
	mm_scan_forks = found == 0 ? forks : 0;
	return found;
}
