/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A wait set: descriptors one thread sleeps on together (an epoll set). Its own descriptor is
 * pollable, so it can be handed to an application (a verbs completion channel's fd) or nested
 * in another set (a soft NIC endpoint's doorbells in a channel). Each member carries a tag.
 */
#ifndef SOFTHW_FABRIC_WAITSET_H
#define SOFTHW_FABRIC_WAITSET_H

/* A new empty set (close-on-exec); -1 with errno. */
int softhw_waitset_create(void);
/* Adds fd, readable -> ready with tag; already there is fine. 0, or -1 with errno. */
int softhw_waitset_add(int set, int fd, void *tag);
/* Takes fd out (not there is fine). 0, or -1 with errno. */
int softhw_waitset_del(int set, int fd);
/*
 * Up to max tags of readable members; sleeps up to timeout_ms (-1: for ever, 0: a look).
 * The count, 0 on time-out or EINTR, -1 with errno.
 */
int softhw_waitset_wait(int set, void **tags, int max, int timeout_ms);

#endif /* SOFTHW_FABRIC_WAITSET_H */
