/* SPDX-License-Identifier: BSD-3-Clause */
/* The process's waker thread (see waker.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "softhw/fabric/threads.h"
#include "softhw/fabric/waker.h"

struct waker_entry {
	int fd;
	bool used;
	bool added; /* in the epoll set (after the first arm) */
	uint32_t gen;
	softhw_wake_fn fn;
	void *arg;
};

static struct {
	pthread_mutex_t lock;
	pid_t pid;       /* process that owns the thread (a forked child starts its own) */
	int epfd;
	struct waker_entry *entries;
	uint32_t count;
} waker = {.lock = PTHREAD_MUTEX_INITIALIZER, .epfd = -1};

static pthread_once_t waker_atfork_once = PTHREAD_ONCE_INIT;

static void waker_prepare(void)
{
	pthread_mutex_lock(&waker.lock);
}

static void waker_parent(void)
{
	pthread_mutex_unlock(&waker.lock);
}

/* The child has no service thread and must not share the parent's epoll set. */
static void waker_child(void)
{
	pthread_mutex_unlock(&waker.lock);
	if (waker.epfd >= 0)
		close(waker.epfd);
	waker.epfd = -1;
	waker.pid = 0;
	free(waker.entries);
	waker.entries = NULL;
	waker.count = 0;
}

static void waker_register_atfork(void)
{
	pthread_atfork(waker_prepare, waker_parent, waker_child);
}

static void *waker_main(void *unused)
{
	int epfd = waker.epfd;

	(void)unused;
	for (;;) {
		struct epoll_event ev[16];
		int n = epoll_wait(epfd, ev, 16, -1);

		if (n < 0)
			continue; /* EINTR */
		pthread_mutex_lock(&waker.lock);
		for (int i = 0; i < n; i++) {
			uint32_t idx = (uint32_t)ev[i].data.u64, gen = (uint32_t)(ev[i].data.u64 >> 32);

			/* A stale event of a deleted registration is ignored. */
			if (idx < waker.count && waker.entries[idx].used && waker.entries[idx].gen == gen)
				waker.entries[idx].fn(waker.entries[idx].arg);
		}
		pthread_mutex_unlock(&waker.lock);
	}
	return NULL;
}

/* Starts the thread on first use; called with the lock held. */
static doca_error_t waker_start_locked(void)
{
	pthread_t thread;
	pthread_attr_t attr;
	int rc;

	if (waker.epfd >= 0 && waker.pid == getpid())
		return DOCA_SUCCESS;
	waker.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (waker.epfd < 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	/* A known service thread: its presence must not keep exported pages off shared windows. */
	rc = softhw_thread_create(&thread, &attr, waker_main, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		close(waker.epfd);
		waker.epfd = -1;
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	waker.pid = getpid();
	return DOCA_SUCCESS;
}

doca_error_t softhw_waker_add(int fd, softhw_wake_fn fn, void *arg, uint32_t *id)
{
	doca_error_t err;
	uint32_t i;

	pthread_once(&waker_atfork_once, waker_register_atfork);
	pthread_mutex_lock(&waker.lock);
	err = waker_start_locked();
	if (err != DOCA_SUCCESS)
		goto out;
	for (i = 0; i < waker.count && waker.entries[i].used; i++)
		;
	if (i == waker.count) {
		struct waker_entry *grown = realloc(waker.entries, sizeof(*grown) * (waker.count + 8));

		if (grown == NULL) {
			err = DOCA_ERROR_NO_MEMORY;
			goto out;
		}
		memset(grown + waker.count, 0, sizeof(*grown) * 8);
		waker.entries = grown;
		waker.count += 8;
	}
	waker.entries[i].fd = fd;
	waker.entries[i].used = true;
	waker.entries[i].added = false;
	waker.entries[i].gen++;
	waker.entries[i].fn = fn;
	waker.entries[i].arg = arg;
	*id = i;
out:
	pthread_mutex_unlock(&waker.lock);
	return err;
}

doca_error_t softhw_waker_arm(uint32_t id)
{
	doca_error_t err = DOCA_SUCCESS;
	struct waker_entry *e;
	struct epoll_event ev;

	pthread_mutex_lock(&waker.lock);
	if (id >= waker.count || !waker.entries[id].used || waker.pid != getpid()) {
		err = DOCA_ERROR_NOT_FOUND;
		goto out;
	}
	e = &waker.entries[id];
	ev.events = EPOLLIN | EPOLLONESHOT;
	ev.data.u64 = (uint64_t)e->gen << 32 | id;
	if (epoll_ctl(waker.epfd, e->added ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, e->fd, &ev) != 0)
		err = DOCA_ERROR_OPERATING_SYSTEM;
	else
		e->added = true;
out:
	pthread_mutex_unlock(&waker.lock);
	return err;
}

void softhw_waker_del(uint32_t id)
{
	pthread_mutex_lock(&waker.lock);
	if (id < waker.count && waker.entries[id].used) {
		struct waker_entry *e = &waker.entries[id];

		if (e->added && waker.pid == getpid())
			epoll_ctl(waker.epfd, EPOLL_CTL_DEL, e->fd, NULL);
		e->used = false;
		e->added = false;
	}
	pthread_mutex_unlock(&waker.lock);
}
