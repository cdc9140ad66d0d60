/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Doorbells: datagram sockets. The receiving end is watched (epoll) and drained by its owner
 * alone; a ringing end goes to whoever may wake it, other processes included.
 *
 * Not an eventfd: a descriptor passed to another process shares its open file description,
 * flags included, so a peer holding our eventfd could clear O_NONBLOCK on it and saturate its
 * counter, and our next read or write would block for good. A socket's send and recv take
 * MSG_DONTWAIT per call, whatever the flags, and the peer never holds the end we read: ringing
 * and draining never block. A full receive queue (a peer ringing on and on) only keeps the
 * receiving end readable, which is what a ring means.
 *
 * A socket passed to a peer is the peer's to connect elsewhere or shut down, so the ringing end
 * a peer gets is never the one its owner rings with (softhw_bell_open), nor one another peer
 * got (softhw_bell_ringer): a peer can silence only its own rings.
 */
#ifndef SOFTHW_BASE_BELL_H
#define SOFTHW_BASE_BELL_H

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>

/*
 * A doorbell whose receiving end takes rings from two senders: `local`, for the owner alone,
 * and `shared`, for peers. The receiving end is bound to a name in a fresh 0700 directory
 * under $TMPDIR (else /tmp), which goes as soon as both senders are connected: no other socket
 * can ever ring it. Where no such directory can be made, it takes an abstract name of the
 * kernel's choosing instead (a process of the network namespace that finds it in
 * /proc/net/unix could ring it: a wake-up with nothing to find, never a block).
 * 0, or -1 with errno (nothing left open).
 */
int softhw_bell_open(int *recv_fd, int *local_fd, int *shared_fd);

/* Where a named doorbell's receiving end is bound, kept to connect more ringing ends to it. */
struct softhw_bell_name {
	struct sockaddr_un addr;
	socklen_t len;
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* its 0700 directory; "" when abstract */
	pid_t owner; /* the process that removes it (not a fork child) */
};

/*
 * A doorbell for many peers: as softhw_bell_open, but the receiving end keeps its name (in its
 * 0700 directory: no other user can connect to it; without a usable temporary directory, an
 * abstract name, which any process of the network namespace can ring) until
 * softhw_bell_unname, and each peer gets an end of its own from softhw_bell_ringer. Names left
 * by processes that are gone are removed first (by the first doorbell of each process, named
 * or not). 0, or -1 with errno (nothing left open).
 */
int softhw_bell_open_named(int *recv_fd, int *local_fd, struct softhw_bell_name *name);
/* A new ringing end for one peer (to pass, then close): -1 with errno when none can be made. */
int softhw_bell_ringer(const struct softhw_bell_name *name);
/* Removes the name (its owner only; a no-op on an abstract or removed one). */
void softhw_bell_unname(struct softhw_bell_name *name);

/* Rings (never blocks; a ring that finds the queue full is not needed: it is readable). */
static inline void softhw_bell_ring(int fd)
{
	const char one = 1;

	if (fd >= 0 && send(fd, &one, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		/* EAGAIN (full), EPIPE/ECONNREFUSED (the other end closed): nothing to do */
	}
}

/*
 * Takes the rings that came (at most `max`): how many, or -1 on an error other than "none
 * left", or when the receiving end was shut down. A ring is never empty, so recv's 0 means
 * that; but a datagram socket shut down for reading answers EAGAIN while poll calls it readable
 * for ever (a peer holding the end did it): a drain that found nothing looks for that.
 */
static inline int softhw_bell_drain(int fd, int max)
{
	char buf[64];
	int n = 0;

	while (n < max) {
		ssize_t k = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (k > 0) {
			n++;
		} else if (k == 0) {
			return -1;
		} else if (errno != EINTR) {
			struct pollfd p = {.fd = fd, .events = POLLRDHUP};

			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
			if (n == 0 && poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
				return -1;
			return n;
		}
	}
	return n;
}

/*
 * Is fd (received from a peer) a datagram socket, that softhw_bell_ring rings without blocking
 * and softhw_bell_drain empties one ring per call? Not a listener (readable for ever, nothing to
 * receive) nor a stream (a peer's one write would cost us a recv per 64 bytes).
 */
static inline bool softhw_bell_usable(int fd)
{
	struct stat st;
	int type = 0;
	socklen_t len = sizeof(type);

	return fd >= 0 && fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) &&
	       getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_DGRAM;
}

#endif /* SOFTHW_BASE_BELL_H */
