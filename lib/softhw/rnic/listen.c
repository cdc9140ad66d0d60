/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stream's listeners (stream.h): the process's out-of-band pair (unix, where same-host
 * dialers find us by pid; TCP, whose address descriptors carry), an RDMA-CM listener per
 * (ep, port), and the accepted sockets that have not said hello yet. All of it runs on the
 * service thread through the connection's process ops (path.h), except setting listeners up
 * and handing them back (owners, under nic.lock).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "softhw/fabric/fabric.h"
#include "softhw/fabric/peer.h"
#include "softhw/rnic/stream.h"

enum { KIND_LISTENER = 1, KIND_PEND = 2 };

struct rnic_listener {
	struct rnic_nic_link link; /* first: the epoll tag points here */
	struct rnic_listener *next;
	struct rnic_ep *ep;        /* CM listener of this ep; NULL: the process's OOB listener */
	uint16_t port;
	int fd;
	/* service thread only (set up before the listener is watched) */
	struct softhw_guard guard; /* who may connect (unix: credentials), pending sockets per peer and in all */
	bool paused;               /* out of descriptors: not watched until the guard's backoff ends */
	struct rnic_listener *next_paused;
};

/*
 * Pending sockets (accepted, no hello yet) a listener keeps at most, per peer (its pid on
 * unix, its address on TCP, which the processes of a host share) and in all; they also expire
 * after RNIC_DIAL_TIMEOUT_MS. A dialer says hello as soon as it is connected.
 */
#define PEND_PER_PEER_MAX 64
#define PEND_MAX 512

/* An accepted socket that has not sent its hello yet (service thread only). */
struct rnic_pend {
	struct rnic_nic_link link; /* first: the epoll tag points here */
	struct rnic_pend *next;
	int fd;
	struct rnic_listener *l;   /* accepted on it: its guard counts us */
	struct softhw_peer peer;
	struct rnic_ep *cm_ep; /* accepted on a CM listener of this ep */
	struct sockaddr_storage from;
	uint8_t buf[sizeof(struct rnic_hdr) + sizeof(struct rnic_hello)];
	size_t got;
	uint64_t deadline;
};

static struct rnic_pend *pends;    /* service thread only */
static struct rnic_listener *paused; /* service thread only: listeners backing off */
static struct rnic_listener *cm_listeners; /* nic.lock: RDMA-CM listeners of every ep (l->ep) */
static struct rnic_listener *dead_listeners; /* nic.lock: for the service thread to close */
static struct rnic_listener oob_unix = {.link = {RNIC_PATH_STREAM, KIND_LISTENER}, .fd = -1};
static struct rnic_listener oob_tcp = {.link = {RNIC_PATH_STREAM, KIND_LISTENER}, .fd = -1};
static uint8_t tcp_family;         /* where the TCP listener is reached (descriptors say it) */
static uint8_t tcp_ip[16];
static uint16_t tcp_port;

static void pend_read(struct rnic_pend *p);

static void pend_drop(struct rnic_pend *p, bool close_fd)
{
	for (struct rnic_pend **pp = &pends; *pp != NULL; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	rnic_nic_del_fd(p->fd);
	if (close_fd)
		close(p->fd);
	softhw_guard_release(&p->l->guard, &p->peer);
	free(p);
}

/* A dialer the guard refused (another user, too many pending sockets) learns why before it closes. */
static void listener_refuse(void *arg, int fd, doca_error_t why, const char *reason)
{
	struct rnic_hdr h = {.type = F_HELLO_ACK, .status = why, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION};
	struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};

	(void)reason;
	(void)sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void listener_guard(struct rnic_listener *l, const char *what, const struct softhw_access *access)
{
	softhw_guard_init(&l->guard, what, access, PEND_PER_PEER_MAX, PEND_MAX, listener_refuse, NULL);
	l->paused = false;
}

/* A socket the guard let in waits for its hello. */
static void listener_admit(void *arg, int fd, const struct softhw_peer *peer)
{
	struct rnic_listener *l = arg;
	struct sockaddr_storage from;
	socklen_t from_len = sizeof(from);
	struct rnic_pend *p;

	memset(&from, 0, sizeof(from));
	if (getpeername(fd, (struct sockaddr *)&from, &from_len) != 0)
		from.ss_family = (sa_family_t)peer->family;
	if (from.ss_family == AF_INET || from.ss_family == AF_INET6) {
		rnic_tcp_tune(fd, NULL);
		rnic_tcp_connected(fd);
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		softhw_guard_release(&l->guard, peer);
		close(fd); /* the dialer sees the connection close and fails its qp */
		return;
	}
	p->link = (struct rnic_nic_link){RNIC_PATH_STREAM, KIND_PEND};
	p->fd = fd;
	p->l = l;
	p->peer = *peer;
	p->cm_ep = l->ep;
	p->from = from;
	p->deadline = rnic_now_ms() + RNIC_DIAL_TIMEOUT_MS;
	p->next = pends;
	pends = p;
	rnic_nic_add_fd(fd, p, RNIC_TAG_NIC, EPOLLIN | EPOLLRDHUP);
	pend_read(p); /* its hello may be here already: then it stops counting as pending at once */
}

static void listener_accept(struct rnic_listener *l)
{
	if (softhw_guard_accept_all(&l->guard, l->fd, listener_admit, l) > 0 && !l->paused) {
		/* Out of descriptors: the listener stays readable; leave it alone until the backoff ends. */
		rnic_nic_del_fd(l->fd);
		l->paused = true;
		l->next_paused = paused;
		paused = l;
	}
}

/* Listeners whose backoff ended are watched again (and accept what waits). */
static void listeners_resume(void)
{
	for (struct rnic_listener **pp = &paused; *pp != NULL;) {
		struct rnic_listener *l = *pp;

		if (softhw_guard_paused_ms(&l->guard) > 0) {
			pp = &l->next_paused;
			continue;
		}
		*pp = l->next_paused;
		l->paused = false;
		rnic_nic_add_fd(l->fd, l, RNIC_TAG_NIC, EPOLLIN);
	}
}

/* A listener goes: its pending sockets with it, and out of the paused list. */
static void listener_forget(struct rnic_listener *l)
{
	for (struct rnic_pend *p = pends, *next; p != NULL; p = next) {
		next = p->next;
		if (p->l == l)
			pend_drop(p, true);
	}
	for (struct rnic_listener **pp = &paused; *pp != NULL; pp = &(*pp)->next_paused)
		if (*pp == l) {
			*pp = l->next_paused;
			break;
		}
	softhw_guard_fini(&l->guard);
}

/* A pending socket is readable: collect the hello frame, then hand the socket over. */
static void pend_read(struct rnic_pend *p)
{
	const struct rnic_hdr *h = (const struct rnic_hdr *)p->buf;
	struct rnic_hello hello;
	ssize_t n = recv(p->fd, p->buf + p->got, sizeof(p->buf) - p->got, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		pend_drop(p, true);
		return;
	}
	p->got += (size_t)n;
	if (p->got < sizeof(p->buf))
		return;
	memcpy(&hello, p->buf + sizeof(*h), sizeof(hello));
	if (h->type != F_HELLO || h->plen != sizeof(hello) || hello.magic != RNIC_HELLO_MAGIC ||
	    hello.version != RNIC_VERSION) {
		pend_drop(p, true); /* not one of us, or another version: hang up */
		return;
	}
	{
		int fd = p->fd;
		struct rnic_ep *ep = p->cm_ep;
		struct sockaddr_storage from = p->from;
		const struct rnic_path_ops *second = NULL;

		for (int i = 0; i < RNIC_PATH_COUNT && second == NULL; i++)
			if (rnic_paths[i]->hello_flag & h->flags) /* (h is in p: before p goes) */
				second = rnic_paths[i];
		pend_drop(p, false);
		if (second != NULL && ep == NULL && !hello.cm)
			second->attach(fd, &hello, &from); /* a path's own connection (the message socket) */
		else if (second != NULL)
			close(fd);
		else
			rnic_stream_accept(fd, &hello, ep, &from);
	}
}

/* ---- the process's OOB listeners ---- */

/* The address the TCP listener advertises: the device's IPv4, else the host's first non-loopback one. */
static void tcp_bind_addr(const struct softhw_function *fn, struct sockaddr_in *sin, struct in_addr *adv)
{
	struct ifaddrs *ifs = NULL;

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_ANY);
	adv->s_addr = htonl(INADDR_LOOPBACK);
	if (fn != NULL && fn->has_ipv4) {
		memcpy(&adv->s_addr, fn->ipv4, 4);
		sin->sin_addr = *adv;
		return;
	}
	if (getifaddrs(&ifs) != 0)
		return;
	for (struct ifaddrs *i = ifs; i != NULL; i = i->ifa_next) {
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET)
			continue;
		struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;

		if ((ntohl(a.s_addr) >> 24) != 127) {
			*adv = a;
			break;
		}
	}
	freeifaddrs(ifs);
}

static doca_error_t oob_tcp_listen(const struct softhw_function *fn)
{
	struct sockaddr_in sin;
	struct in_addr adv;
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	tcp_bind_addr(fn, &sin, &adv);
	/* The device's address may not be configured on this host: then every address. */
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0) {
		sin.sin_addr.s_addr = htonl(INADDR_ANY);
		if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0) {
			close(fd);
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
	}
	if (listen(fd, 128) != 0 || getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
		close(fd);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	oob_tcp.fd = fd;
	tcp_family = AF_INET;
	memset(tcp_ip, 0, sizeof(tcp_ip));
	memcpy(tcp_ip, &adv.s_addr, 4);
	tcp_port = ntohs(sin.sin_port);
	/* Across hosts there is no uid: the qp's token in the hello is the capability (qp.c). */
	listener_guard(&oob_tcp, "The RDMA listener (TCP) of this process", NULL);
	rnic_nic_add_fd(fd, &oob_tcp, RNIC_TAG_NIC, EPOLLIN);
	return DOCA_SUCCESS;
}

static doca_error_t oob_unix_listen(void)
{
	struct softhw_card card;
	struct sockaddr_un addr;
	socklen_t len;
	char name[24];
	int fd;

	memset(&card, 0, sizeof(card));
	snprintf(card.instance, sizeof(card.instance), "%s", rnic_nic.instance);
	snprintf(name, sizeof(name), "%d", (int)getpid());
	if (softhw_fabric_addr(&card, "rnic", name, &addr, &len) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	if (bind(fd, (struct sockaddr *)&addr, len) != 0 || listen(fd, 128) != 0) {
		doca_error_t err = errno == EADDRINUSE ? DOCA_ERROR_ALREADY_EXIST : DOCA_ERROR_OPERATING_SYSTEM;

		close(fd);
		return err;
	}
	oob_unix.fd = fd;
	listener_guard(&oob_unix, "The RDMA listener (unix) of this process", softhw_access_policy());
	rnic_nic_add_fd(fd, &oob_unix, RNIC_TAG_NIC, EPOLLIN);
	return DOCA_SUCCESS;
}

doca_error_t rnic_listen_oob(const struct softhw_function *fn)
{
	doca_error_t err = DOCA_SUCCESS;

	(void)fn;
	if (oob_unix.fd < 0)
		err = oob_unix_listen();
	if (err == DOCA_SUCCESS && oob_tcp.fd < 0)
		err = oob_tcp_listen(fn);
	return err;
}

void rnic_listen_describe(struct rnic_peer *p)
{
	p->family = tcp_family;
	memcpy(p->tcp_ip, tcp_ip, 16);
	p->tcp_port = tcp_port;
}

/* ---- RDMA-CM over TCP: a listener per (ep, port) on [::] (IPv4 too) ---- */

/* A dual-stack listener on every address, or IPv4 only where IPv6 is missing. */
static doca_error_t cm_socket(uint16_t port, int *out)
{
	struct sockaddr_in6 sin6 = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = in6addr_any};
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
	int zero = 0, one = 1;
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int rc;

	if (fd >= 0) {
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		rc = bind(fd, (struct sockaddr *)&sin6, sizeof(sin6));
		if (rc != 0 && errno != EADDRINUSE && errno != EACCES) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return DOCA_ERROR_OPERATING_SYSTEM;
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		rc = bind(fd, (struct sockaddr *)&sin, sizeof(sin));
	}
	if (rc != 0 || listen(fd, 128) != 0) {
		int e = errno;

		close(fd);
		return e == EADDRINUSE ? DOCA_ERROR_IN_USE : e == EACCES ? DOCA_ERROR_NOT_PERMITTED
								      : DOCA_ERROR_OPERATING_SYSTEM;
	}
	*out = fd;
	return DOCA_SUCCESS;
}

doca_error_t rnic_listen_cm(struct rnic_ep *ep, uint16_t port)
{
	struct rnic_listener *l;
	doca_error_t err;
	int fd;

	pthread_mutex_lock(&rnic_nic.lock);
	for (l = cm_listeners; l != NULL; l = l->next)
		if (l->ep == ep && l->port == port) {
			pthread_mutex_unlock(&rnic_nic.lock);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	pthread_mutex_unlock(&rnic_nic.lock);
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = cm_socket(port, &fd);
	if (err != DOCA_SUCCESS) {
		free(l);
		return err;
	}
	l->link = (struct rnic_nic_link){RNIC_PATH_STREAM, KIND_LISTENER};
	l->ep = ep;
	l->port = port;
	l->fd = fd;
	listener_guard(l, "An RDMA-CM listener of this process", NULL);
	pthread_mutex_lock(&rnic_nic.lock);
	l->next = cm_listeners;
	cm_listeners = l;
	pthread_mutex_unlock(&rnic_nic.lock);
	rnic_nic_add_fd(fd, l, RNIC_TAG_NIC, EPOLLIN);
	return DOCA_SUCCESS;
}

doca_error_t rnic_unlisten_cm(struct rnic_ep *ep, uint16_t port)
{
	pthread_mutex_lock(&rnic_nic.lock);
	for (struct rnic_listener **pp = &cm_listeners; *pp != NULL; pp = &(*pp)->next) {
		struct rnic_listener *l = *pp;

		if (l->ep != ep || l->port != port)
			continue;
		*pp = l->next;
		l->next = dead_listeners;
		dead_listeners = l;
		rnic_nic_reap_wait(); /* the service thread closes it */
		pthread_mutex_unlock(&rnic_nic.lock);
		return DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&rnic_nic.lock);
	return DOCA_ERROR_NOT_FOUND;
}

void rnic_listen_ep_gone(struct rnic_ep *ep)
{
	for (struct rnic_listener **pp = &cm_listeners; *pp != NULL;) {
		struct rnic_listener *l = *pp;

		if (l->ep != ep) {
			pp = &l->next;
			continue;
		}
		*pp = l->next;
		l->next = dead_listeners;
		dead_listeners = l;
	}
}

/* ---- the service thread ---- */

void rnic_listen_event(struct rnic_nic_link *link, uint32_t events)
{
	(void)events;
	if (link->kind == KIND_LISTENER)
		listener_accept((struct rnic_listener *)link);
	else
		pend_read((struct rnic_pend *)link);
}

uint64_t rnic_listen_next_time(uint64_t now)
{
	uint64_t first = UINT64_MAX;

	for (struct rnic_pend *p = pends; p != NULL; p = p->next)
		if (p->deadline < first)
			first = p->deadline;
	for (struct rnic_listener *l = paused; l != NULL; l = l->next_paused)
		if (now + (uint64_t)softhw_guard_paused_ms(&l->guard) < first)
			first = now + (uint64_t)softhw_guard_paused_ms(&l->guard);
	return first;
}

void rnic_listen_timer(uint64_t now)
{
	for (struct rnic_pend *p = pends, *next; p != NULL; p = next) {
		next = p->next;
		if (p->deadline <= now)
			pend_drop(p, true);
	}
	listeners_resume();
}

void rnic_listen_reap(void)
{
	struct rnic_listener *ls;

	pthread_mutex_lock(&rnic_nic.lock);
	ls = dead_listeners;
	dead_listeners = NULL;
	pthread_mutex_unlock(&rnic_nic.lock);
	while (ls != NULL) {
		struct rnic_listener *l = ls;

		ls = l->next;
		listener_forget(l);
		if (!l->paused)
			rnic_nic_del_fd(l->fd);
		close(l->fd);
		free(l);
	}
}

void rnic_listen_stop(void)
{
	while (pends != NULL)
		pend_drop(pends, true);
	paused = NULL;
	if (oob_unix.fd >= 0)
		close(oob_unix.fd);
	if (oob_tcp.fd >= 0)
		close(oob_tcp.fd);
	oob_unix.fd = oob_tcp.fd = -1;
	softhw_guard_fini(&oob_unix.guard);
	softhw_guard_fini(&oob_tcp.guard);
	tcp_port = 0;
}

void rnic_listen_atfork(void)
{
	for (struct rnic_listener *l = cm_listeners; l != NULL; l = l->next)
		close(l->fd);
	for (struct rnic_pend *p = pends; p != NULL; p = p->next)
		close(p->fd);
	pends = NULL;
	paused = NULL;
	cm_listeners = NULL;
	dead_listeners = NULL;
}
