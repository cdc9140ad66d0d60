/* SPDX-License-Identifier: BSD-3-Clause */
/* Rendezvous and descriptor passing between the processes of a soft card (see fabric.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "softhw/fabric/fabric.h"
#include "softhw/fabric/peer.h"

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

doca_error_t softhw_fabric_addr(const struct softhw_card *card, const char *kind, const char *name,
				struct sockaddr_un *addr, socklen_t *addr_len)
{
	/* Abstract namespace: sun_path[0] == '\0', the rest is the name (not NUL-terminated). */
	char *path = addr->sun_path + 1;
	size_t room = sizeof(addr->sun_path) - 1;
	int n;

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	n = snprintf(path, room, "softdoca/%s/%s/%s", card->instance, kind, name);
	if (n < 0 || (size_t)n >= room) /* too long: a hash of the name keeps it unique */
		n = snprintf(path, room, "softdoca/%s/%s/#%016llx", card->instance, kind,
			     (unsigned long long)fnv1a(name));
	if (n < 0 || (size_t)n >= room)
		return DOCA_ERROR_INVALID_VALUE;
	*addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	return DOCA_SUCCESS;
}

static doca_error_t errno_to_doca(int err)
{
	switch (err) {
	case EADDRINUSE:
		return DOCA_ERROR_ALREADY_EXIST;
	case ECONNREFUSED:
	case ENOENT:
		return DOCA_ERROR_NOT_FOUND;
	case EAGAIN:
		return DOCA_ERROR_AGAIN;
	case EACCES:
	case EPERM:
		return DOCA_ERROR_NOT_PERMITTED;
	case ENOMEM:
	case ENOBUFS:
		return DOCA_ERROR_NO_MEMORY;
	default:
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
}

/* A non-blocking seqpacket socket at rendezvous point kind/name: bound and listening, or connected. */
static doca_error_t fabric_socket(const struct softhw_card *card, const char *kind, const char *name, bool listener,
				  int *fd)
{
	struct sockaddr_un addr;
	socklen_t len;
	doca_error_t err = softhw_fabric_addr(card, kind, name, &addr, &len);
	int s, rc;

	if (err != DOCA_SUCCESS)
		return err;
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0)
		return errno_to_doca(errno);
	/* Unix sockets connect at once or fail: there is no in-progress state to wait for. */
	if (listener)
		rc = bind(s, (struct sockaddr *)&addr, len) != 0 || listen(s, 64) != 0 ? -1 : 0;
	else
		rc = connect(s, (struct sockaddr *)&addr, len);
	if (rc != 0) {
		err = errno_to_doca(errno);
		close(s);
		return err;
	}
	if (!listener) {
		/* The name is no secret: whoever bound it first listens there. Is it someone we trust? */
		char what[sizeof(addr.sun_path) + 32];

		snprintf(what, sizeof(what), "The %s point '%s' of card instance %s", kind, name, card->instance);
		err = softhw_peer_check_listener(s, card->access, what, NULL);
		if (err != DOCA_SUCCESS) {
			close(s);
			return err;
		}
	}
	*fd = s;
	return DOCA_SUCCESS;
}

doca_error_t softhw_fabric_listen(const struct softhw_card *card, const char *kind, const char *name, int *fd)
{
	return fabric_socket(card, kind, name, true, fd);
}

doca_error_t softhw_fabric_connect(const struct softhw_card *card, const char *kind, const char *name, int *fd)
{
	return fabric_socket(card, kind, name, false, fd);
}

ssize_t softhw_fabric_send(int sock, const void *buf, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SOFTHW_FABRIC_MAX_FDS)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n;

	if (nfds > SOFTHW_FABRIC_MAX_FDS)
		return -EINVAL;
	if (nfds > 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
	}
	n = sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	return n < 0 ? -errno : n;
}

ssize_t softhw_fabric_recv(int sock, void *buf, size_t len, int *fds, int *nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SOFTHW_FABRIC_MAX_FDS)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf)};
	int room = nfds != NULL ? *nfds : 0, got = 0;
	ssize_t n = recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

	if (n < 0) {
		n = -errno;
		if (nfds != NULL)
			*nfds = 0;
		return n;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
		int count;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		for (int i = 0; i < count; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + (size_t)i * sizeof(int), sizeof(int));
			if (got < room)
				fds[got++] = fd;
			else
				close(fd); /* more than the caller expects: do not leak them */
		}
	}
	if (msg.msg_flags & MSG_TRUNC) {
		/* Longer than any message the caller expects: it is dropped, its descriptors with it. */
		for (int i = 0; i < got; i++)
			close(fds[i]);
		got = 0;
		n = -EMSGSIZE;
	}
	if (nfds != NULL)
		*nfds = got;
	return n;
}
