/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NIC: one service thread per process, started with the first ep and joined with the
 * last. It blocks in epoll_wait on the wake eventfd, the listeners, the accepted sockets
 * that have not said hello yet, and every qp's socket; its only timeouts are receiver-not-
 * ready retries and connect deadlines, so an idle process costs nothing.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "softhw/fabric/fabric.h"
#include "softhw/fabric/threads.h"
#include "softhw/rnic/rnic_int.h"

struct rnic_nic rnic_nic = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.epfd = -1,
	.wake_fd = -1,
	.oob_unix = {.fd = -1},
	.oob_tcp = {.fd = -1},
};

/* ep_create / ep_destroy of several owner threads: start and join never overlap. */
static pthread_mutex_t life_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Pending sockets (accepted, no hello yet) a listener keeps at most, per peer (its pid on
 * unix, its address on TCP, which the processes of a host share) and in all; they also expire
 * after RNIC_DIAL_TIMEOUT_MS. A dialer says hello as soon as it is connected.
 */
#define PEND_PER_PEER_MAX 64
#define PEND_MAX 512

/* An accepted socket that has not sent its hello yet (service thread only). */
struct rnic_pend {
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
static struct rnic_qp *timed;      /* service thread only */
static struct rnic_listener *paused; /* service thread only: listeners backing off */

static void pend_read(struct rnic_pend *p);

uint64_t rnic_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void rnic_nic_kick(void)
{
	uint64_t one = 1;

	if (rnic_nic.wake_fd >= 0 && write(rnic_nic.wake_fd, &one, sizeof(one)) < 0) {
		/* the counter cannot overflow: a wake-up is already pending */
	}
}

void rnic_nic_add_fd(int fd, void *ptr, unsigned tag, uint32_t events)
{
	struct epoll_event ev = {.events = events, .data.u64 = (uint64_t)(uintptr_t)ptr | tag};

	(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_ADD, fd, &ev);
}

void rnic_nic_del_fd(int fd)
{
	(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_DEL, fd, NULL);
}

void rnic_qp_update_events(struct rnic_qp *qp)
{
	uint32_t want = EPOLLRDHUP;
	struct epoll_event ev;

	if (qp->fd < 0)
		return;
	if (!qp->rx.stalled)
		want |= EPOLLIN;
	if (qp->out_head != NULL || qp->state == QP_DIALING)
		want |= EPOLLOUT;
	if (want == qp->events)
		return;
	ev.events = want;
	ev.data.u64 = (uint64_t)(uintptr_t)qp | RNIC_TAG_QP;
	if (epoll_ctl(rnic_nic.epfd, EPOLL_CTL_MOD, qp->fd, &ev) != 0)
		(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_ADD, qp->fd, &ev);
	qp->events = want;
}

void rnic_nic_timed_add(struct rnic_qp *qp)
{
	if (qp->timed)
		return;
	qp->timed = true;
	qp->next_timed = timed;
	timed = qp;
}

struct rnic_qp *rnic_qp_find(uint64_t id)
{
	for (struct rnic_qp *qp = rnic_nic.qps; qp != NULL; qp = qp->next_all)
		if (qp->id == id)
			return qp;
	return NULL;
}

/* ---- accepting ---- */

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

void rnic_listener_guard(struct rnic_listener *l, const char *what, const struct softhw_access *access)
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
	if (from.ss_family == AF_INET || from.ss_family == AF_INET6)
		rnic_tcp_tune(fd);
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		softhw_guard_release(&l->guard, peer);
		close(fd); /* the dialer sees the connection close and fails its qp */
		return;
	}
	p->fd = fd;
	p->l = l;
	p->peer = *peer;
	p->cm_ep = l->ep;
	p->from = from;
	p->deadline = rnic_now_ms() + RNIC_DIAL_TIMEOUT_MS;
	p->next = pends;
	pends = p;
	rnic_nic_add_fd(fd, p, RNIC_TAG_PEND, EPOLLIN | EPOLLRDHUP);
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
		rnic_nic_add_fd(l->fd, l, RNIC_TAG_LISTENER, EPOLLIN);
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
			rnic_accept_hello(fd, &hello, ep, &from);
	}
}

/* ---- the loop ---- */

static int next_timeout(uint64_t now)
{
	uint64_t first = UINT64_MAX;

	for (struct rnic_qp *qp = timed; qp != NULL; qp = qp->next_timed) {
		for (int i = 0; i < RNIC_PATH_COUNT; i++) {
			uint64_t t = rnic_paths[i]->next_time(qp);

			if (t < first)
				first = t;
		}
		if (qp->deadline != 0 && qp->deadline < first)
			first = qp->deadline;
	}
	for (struct rnic_pend *p = pends; p != NULL; p = p->next)
		if (p->deadline < first)
			first = p->deadline;
	for (struct rnic_listener *l = paused; l != NULL; l = l->next_paused)
		if (now + (uint64_t)softhw_guard_paused_ms(&l->guard) < first)
			first = now + (uint64_t)softhw_guard_paused_ms(&l->guard);
	if (first == UINT64_MAX)
		return -1;
	return first <= now ? 0 : (int)(first - now > 60000 ? 60000 : first - now);
}

/* Deadlines and retries; also re-tries stalled receives after a wake-up (a receive was posted). */
static void run_timers(bool woken)
{
	uint64_t now = rnic_now_ms();
	struct rnic_qp **pp = &timed;

	while (*pp != NULL) {
		struct rnic_qp *qp = *pp;

		pthread_mutex_lock(&qp->lock);
		if (!qp->dead) {
			RNIC_PATHS_EACH(timer, qp, now, woken);
			if (qp->deadline != 0 && qp->deadline <= now) {
				qp->deadline = 0;
				if (qp->state == QP_DIALING || qp->state == QP_HANDSHAKE)
					rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_TIME_OUT,
						     DOCA_ERROR_CONNECTION_ABORTED);
			}
		}
		if (qp->dead || (!rnic_qp_paths_timed(qp) && qp->deadline == 0)) {
			qp->timed = false;
			*pp = qp->next_timed;
		} else {
			pp = &qp->next_timed;
		}
		pthread_mutex_unlock(&qp->lock);
	}
	for (struct rnic_pend *p = pends, *next; p != NULL; p = next) {
		next = p->next;
		if (p->deadline <= now)
			pend_drop(p, true);
	}
	listeners_resume();
}

/* Frees what owners destroyed; they wait for reap_done. */
static void reap(void)
{
	struct rnic_qp *qps;
	struct rnic_listener *ls;
	uint64_t ticket;

	pthread_mutex_lock(&rnic_nic.lock);
	qps = rnic_nic.graveyard;
	ls = rnic_nic.dead_listeners;
	rnic_nic.graveyard = NULL;
	rnic_nic.dead_listeners = NULL;
	ticket = rnic_nic.reap_asked;
	pthread_mutex_unlock(&rnic_nic.lock);
	while (qps != NULL) {
		struct rnic_qp *qp = qps;

		qps = qp->next_ctl;
		for (struct rnic_qp **pp = &timed; *pp != NULL; pp = &(*pp)->next_timed)
			if (*pp == qp) {
				*pp = qp->next_timed;
				break;
			}
		rnic_qp_free(qp);
	}
	while (ls != NULL) {
		struct rnic_listener *l = ls;

		ls = l->next;
		listener_forget(l);
		if (!l->paused)
			rnic_nic_del_fd(l->fd);
		close(l->fd);
		free(l);
	}
	pthread_mutex_lock(&rnic_nic.lock);
	rnic_nic.reap_done = ticket;
	pthread_cond_broadcast(&rnic_nic.cond);
	pthread_mutex_unlock(&rnic_nic.lock);
}

static void take_dials(void)
{
	struct rnic_qp *qps;

	pthread_mutex_lock(&rnic_nic.lock);
	qps = rnic_nic.dials;
	rnic_nic.dials = NULL;
	pthread_mutex_unlock(&rnic_nic.lock);
	while (qps != NULL) {
		struct rnic_qp *qp = qps;

		qps = qp->next_ctl;
		pthread_mutex_lock(&qp->lock);
		rnic_qp_dial(qp);
		pthread_mutex_unlock(&qp->lock);
	}
}

static void qp_event(struct rnic_qp *qp, uint32_t events)
{
	bool alive = true;

	if (events & EPOLLOUT) {
		pthread_mutex_lock(&qp->lock);
		if (qp->state == QP_DIALING)
			rnic_qp_dial(qp); /* the connect finished (or failed) */
		else if (!qp->dead)
			rnic_out_flush(qp);
		pthread_mutex_unlock(&qp->lock);
	}
	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
		alive = rnic_rx_ready(qp);
	pthread_mutex_lock(&qp->lock);
	if (qp->dead) {
		pthread_mutex_unlock(&qp->lock);
		return;
	}
	if (alive && (qp->broken || (qp->close_asked && qp->out_head == NULL)) && qp->fd >= 0)
		alive = false;
	if (!alive && qp->fd >= 0)
		rnic_qp_hangup(qp);
	pthread_mutex_unlock(&qp->lock);
}

static void *nic_main(void *arg)
{
	struct epoll_event evs[64];

	(void)arg;
	for (;;) {
		int n = epoll_wait(rnic_nic.epfd, evs, 64, next_timeout(rnic_now_ms()));
		bool woken = false;

		if (n < 0) {
			if (errno != EINTR)
				(void)epoll_wait(rnic_nic.epfd, evs, 1, 100); /* back off instead of spinning */
			n = 0;
		}
		for (int i = 0; i < n; i++) {
			uint64_t v = evs[i].data.u64;
			void *ptr = (void *)(uintptr_t)(v & ~(uint64_t)RNIC_TAG_MASK);

			switch ((unsigned)(v & RNIC_TAG_MASK)) {
			case RNIC_TAG_WAKE: {
				uint64_t c;

				if (read(rnic_nic.wake_fd, &c, sizeof(c)) < 0) {
					/* EAGAIN: consumed already */
				}
				woken = true;
				break;
			}
			case RNIC_TAG_LISTENER:
				listener_accept(ptr);
				break;
			case RNIC_TAG_PEND:
				pend_read(ptr);
				break;
			case RNIC_TAG_PATH: {
				const struct rnic_path_link *link = ptr;

				rnic_paths[link->id]->event(link->qp, evs[i].events);
				break;
			}
			default:
				qp_event(ptr, evs[i].events);
				break;
			}
		}
		if (woken) {
			take_dials();
			/* qps whose owner asked for a close, or whose write failed */
			pthread_mutex_lock(&rnic_nic.lock);
			for (struct rnic_qp *qp = rnic_nic.qps; qp != NULL; qp = qp->next_all) {
				pthread_mutex_lock(&qp->lock);
				if (qp->fd >= 0 && !qp->dead &&
				    (qp->broken || (qp->close_asked && qp->out_head == NULL)))
					rnic_qp_hangup(qp);
				if (!qp->dead && rnic_qp_paths_timed(qp))
					rnic_nic_timed_add(qp); /* keep its time: no receive yet, or ACKs awaited */
				pthread_mutex_unlock(&qp->lock);
			}
			pthread_mutex_unlock(&rnic_nic.lock);
		}
		run_timers(woken);
		if (woken)
			reap();
		pthread_mutex_lock(&rnic_nic.lock);
		if (rnic_nic.stop) {
			pthread_mutex_unlock(&rnic_nic.lock);
			break;
		}
		pthread_mutex_unlock(&rnic_nic.lock);
	}
	while (pends != NULL)
		pend_drop(pends, true);
	timed = NULL;
	paused = NULL;
	return NULL;
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
	rnic_nic.oob_tcp.fd = fd;
	rnic_nic.tcp_family = AF_INET;
	memset(rnic_nic.tcp_ip, 0, sizeof(rnic_nic.tcp_ip));
	memcpy(rnic_nic.tcp_ip, &adv.s_addr, 4);
	rnic_nic.tcp_port = ntohs(sin.sin_port);
	/* Across hosts there is no uid: the qp's token in the hello is the capability (qp.c). */
	rnic_listener_guard(&rnic_nic.oob_tcp, "The RDMA listener (TCP) of this process", NULL);
	rnic_nic_add_fd(fd, &rnic_nic.oob_tcp, RNIC_TAG_LISTENER, EPOLLIN);
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
	rnic_nic.oob_unix.fd = fd;
	rnic_listener_guard(&rnic_nic.oob_unix, "The RDMA listener (unix) of this process", softhw_access_policy());
	rnic_nic_add_fd(fd, &rnic_nic.oob_unix, RNIC_TAG_LISTENER, EPOLLIN);
	return DOCA_SUCCESS;
}

doca_error_t rnic_nic_oob_ready(const struct softhw_function *fn)
{
	doca_error_t err = DOCA_SUCCESS;

	pthread_mutex_lock(&rnic_nic.lock);
	if (rnic_nic.oob_unix.fd < 0) {
		if (rnic_nic.instance[0] == '\0' && fn != NULL && fn->card != NULL)
			snprintf(rnic_nic.instance, sizeof(rnic_nic.instance), "%s", fn->card->instance);
		err = oob_unix_listen();
	}
	if (err == DOCA_SUCCESS && rnic_nic.oob_tcp.fd < 0)
		err = oob_tcp_listen(fn);
	pthread_mutex_unlock(&rnic_nic.lock);
	return err;
}

/* ---- life ---- */

static void nic_close_all(void)
{
	if (rnic_nic.oob_unix.fd >= 0)
		close(rnic_nic.oob_unix.fd);
	if (rnic_nic.oob_tcp.fd >= 0)
		close(rnic_nic.oob_tcp.fd);
	rnic_nic.oob_unix.fd = rnic_nic.oob_tcp.fd = -1;
	softhw_guard_fini(&rnic_nic.oob_unix.guard);
	softhw_guard_fini(&rnic_nic.oob_tcp.guard);
	if (rnic_nic.epfd >= 0)
		close(rnic_nic.epfd);
	if (rnic_nic.wake_fd >= 0)
		close(rnic_nic.wake_fd);
	rnic_nic.epfd = rnic_nic.wake_fd = -1;
	rnic_nic.instance[0] = '\0';
	rnic_nic.tcp_port = 0;
}

/*
 * A forked child has no service thread: it forgets the parent's NIC (its sockets must close,
 * or the parent's peers would not see the parent die) and starts afresh with its first ep.
 */
static void atfork_child(void)
{
	for (struct rnic_qp *qp = rnic_nic.qps; qp != NULL; qp = qp->next_all) {
		if (qp->fd >= 0)
			close(qp->fd);
		RNIC_PATHS_EACH(atfork, qp);
	}
	for (struct rnic_ep *ep = rnic_nic.eps; ep != NULL; ep = ep->next)
		for (struct rnic_listener *l = ep->listeners; l != NULL; l = l->next)
			close(l->fd);
	for (struct rnic_pend *p = pends; p != NULL; p = p->next)
		close(p->fd);
	pends = NULL;
	timed = NULL;
	paused = NULL;
	nic_close_all();
	/* the parent's objects are not ours to free: forget them */
	rnic_nic.eps = NULL;
	rnic_nic.qps = NULL;
	rnic_nic.dials = NULL;
	rnic_nic.graveyard = NULL;
	rnic_nic.dead_listeners = NULL;
	rnic_nic.running = false;
	rnic_nic.stop = false;
	pthread_mutex_init(&rnic_nic.lock, NULL);
	pthread_cond_init(&rnic_nic.cond, NULL);
	pthread_mutex_init(&life_lock, NULL);
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&life_lock);
	pthread_mutex_lock(&rnic_nic.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&rnic_nic.lock);
	pthread_mutex_unlock(&life_lock);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void register_atfork(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

static doca_error_t nic_start(void)
{
	sigset_t all, old;
	int rc;

	rnic_host_self(&rnic_nic.host);
	rnic_nic.epfd = epoll_create1(EPOLL_CLOEXEC);
	rnic_nic.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rnic_nic.epfd < 0 || rnic_nic.wake_fd < 0) {
		nic_close_all();
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	rnic_nic_add_fd(rnic_nic.wake_fd, NULL, RNIC_TAG_WAKE, EPOLLIN);
	rnic_nic.stop = false;
	/* The NIC takes no signals: they stay with the application's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = softhw_thread_create(&rnic_nic.thread, NULL, nic_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		nic_close_all();
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	rnic_nic.running = true;
	return DOCA_SUCCESS;
}

doca_error_t rnic_nic_ep_add(struct rnic_ep *ep)
{
	doca_error_t err = DOCA_SUCCESS;

	pthread_once(&atfork_once, register_atfork);
	pthread_mutex_lock(&life_lock);
	if (!rnic_nic.running)
		err = nic_start();
	if (err == DOCA_SUCCESS) {
		pthread_mutex_lock(&rnic_nic.lock);
		ep->next = rnic_nic.eps;
		rnic_nic.eps = ep;
		pthread_mutex_unlock(&rnic_nic.lock);
	}
	pthread_mutex_unlock(&life_lock);
	return err;
}

void rnic_nic_ep_remove(struct rnic_ep *ep)
{
	bool last;

	pthread_mutex_lock(&life_lock);
	pthread_mutex_lock(&rnic_nic.lock);
	for (struct rnic_ep **pp = &rnic_nic.eps; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ep) {
			*pp = ep->next;
			break;
		}
	last = rnic_nic.eps == NULL && rnic_nic.running;
	if (last)
		rnic_nic.stop = true;
	pthread_mutex_unlock(&rnic_nic.lock);
	if (last) {
		rnic_nic_kick();
		pthread_join(rnic_nic.thread, NULL);
		rnic_nic.running = false;
		/* qps were all reaped; nothing else refers to the sockets */
		nic_close_all();
	}
	pthread_mutex_unlock(&life_lock);
}

void rnic_nic_reap_wait(void)
{
	uint64_t ticket = ++rnic_nic.reap_asked;

	rnic_nic_kick();
	while (rnic_nic.running && rnic_nic.reap_done < ticket)
		pthread_cond_wait(&rnic_nic.cond, &rnic_nic.lock);
}
