/* SPDX-License-Identifier: BSD-3-Clause */
/* Wait sets (waitset.h): epoll, level-triggered, so a member stays ready until it is read. */
#include <errno.h>
#include <stddef.h>
#include <sys/epoll.h>

#include "softhw/fabric/waitset.h"

int softhw_waitset_create(void)
{
	return epoll_create1(EPOLL_CLOEXEC);
}

int softhw_waitset_add(int set, int fd, void *tag)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = tag};

	if (epoll_ctl(set, EPOLL_CTL_ADD, fd, &ev) == 0 || errno == EEXIST)
		return 0;
	return -1;
}

int softhw_waitset_del(int set, int fd)
{
	return epoll_ctl(set, EPOLL_CTL_DEL, fd, NULL) == 0 || errno == ENOENT ? 0 : -1;
}

int softhw_waitset_wait(int set, void **tags, int max, int timeout_ms)
{
	struct epoll_event evs[16];
	int n;

	if (max > 16)
		max = 16;
	n = epoll_wait(set, evs, max, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	for (int i = 0; i < n; i++)
		tags[i] = evs[i].data.ptr;
	return n;
}
