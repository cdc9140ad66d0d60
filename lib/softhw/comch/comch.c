/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Comch transport (comch.h): ports, rendezvous and links, and its ops table.
 *
 * A port is what a started Comch server or client sleeps on: an epoll set of its links, its
 * listener and a timer, handed to the process's waker while the PE sleeps (a peer's death
 * closes its link, which wakes us). While the PE polls, libdoca_comch looks at the port no
 * more than once per service period, or at once when a peer hints through the ring that it
 * sent a control message: the messages themselves never come here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/comch/comch.h"
#include "softhw/fabric/fabric.h"
#include "softhw/fabric/waker.h"

SDK_LOG_REGISTER(COMCH_TRANSPORT);

_Static_assert(SOFTHW_COMCH_MAX_FDS == SOFTHW_FABRIC_MAX_FDS, "a control message carries the fabric's descriptors");

/* The rendezvous points of Comch servers: "comch/<host function PCI>/<name>". */
#define RENDEZVOUS_KIND "comch"
#define TAG_TIMER 0

struct softhw_comch_port {
	char label[160];     /* "Comch server 'name'", for log lines */
	int epfd;            /* links + listener + timer; what the waker watches while the PE sleeps */
	int timer_fd;        /* retries and deadlines while the PE sleeps */
	int listen_fd;
	const struct softhw_comch_admission *adm;
	struct softhw_guard guard; /* who may connect, how many: credentials, caps, backoff */
	bool accept_paused;  /* out of descriptors: the listener is not watched until the backoff ends */
	uint64_t period_ns;  /* of the timer as set; 0: off */
	uint64_t lib_period_ns; /* what the library asked for (a backoff may tick faster) */
	uint32_t waker_id;
	bool waker_added;
};

/* ---- port ---- */

static void port_unlisten(struct softhw_comch_port *port);

static void port_close(struct softhw_comch_port *port)
{
	if (port == NULL)
		return;
	port_unlisten(port);
	softhw_guard_fini(&port->guard);
	if (port->waker_added)
		softhw_waker_del(port->waker_id);
	if (port->timer_fd >= 0)
		close(port->timer_fd);
	if (port->epfd >= 0)
		close(port->epfd);
	free(port);
}

static doca_error_t port_open(const char *label, void (*wake)(void *arg), void *arg, struct softhw_comch_port **out)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = TAG_TIMER};
	struct softhw_comch_port *port = calloc(1, sizeof(*port));
	doca_error_t err;

	if (port == NULL) {
		SDK_LOG_ERR("Failed to start %s: out of memory", label);
		return DOCA_ERROR_NO_MEMORY;
	}
	snprintf(port->label, sizeof(port->label), "%s", label);
	port->listen_fd = -1;
	port->epfd = epoll_create1(EPOLL_CLOEXEC);
	port->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (port->epfd < 0 || port->timer_fd < 0 || epoll_ctl(port->epfd, EPOLL_CTL_ADD, port->timer_fd, &ev) != 0) {
		SDK_LOG_ERR("Failed to start %s: epoll/timerfd: %s", port->label, strerror(errno));
		port_close(port);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = softhw_waker_add(port->epfd, wake, arg, &port->waker_id);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start %s: cannot start the wake-up thread", port->label);
		port_close(port);
		return err;
	}
	port->waker_added = true;
	*out = port;
	return DOCA_SUCCESS;
}

static void port_watch(struct softhw_comch_port *port, int fd, uint64_t tag)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = tag};

	if (epoll_ctl(port->epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
		SDK_LOG_ERR("%s: cannot watch a socket (%s); a sleeping PE may miss its events", port->label,
			    strerror(errno));
}

static void port_unwatch(struct softhw_comch_port *port, int fd)
{
	if (fd >= 0)
		epoll_ctl(port->epfd, EPOLL_CTL_DEL, fd, NULL);
}

/* The backoff's tick while accepting is paused: the port looks at the guard again then. */
#define ACCEPT_RETRY_NS (SOFTHW_GUARD_BACKOFF_MIN_MS * 1000000ull)

static void timer_set(struct softhw_comch_port *port)
{
	struct itimerspec its = {0};
	uint64_t period_ns = port->lib_period_ns;

	if (port->accept_paused && (period_ns == 0 || period_ns > ACCEPT_RETRY_NS))
		period_ns = ACCEPT_RETRY_NS;
	if (period_ns == port->period_ns)
		return;
	its.it_value.tv_sec = (time_t)(period_ns / 1000000000ull);
	its.it_value.tv_nsec = (long)(period_ns % 1000000000ull);
	its.it_interval = its.it_value;
	timerfd_settime(port->timer_fd, 0, &its, NULL);
	port->period_ns = period_ns;
}

static void port_timer(struct softhw_comch_port *port, uint64_t period_ns)
{
	port->lib_period_ns = period_ns;
	timer_set(port);
}

/* The backoff is over: watch the listener again and say clients may wait there. */
static bool accept_resume(struct softhw_comch_port *port)
{
	if (!port->accept_paused || port->listen_fd < 0 || softhw_guard_paused_ms(&port->guard) > 0)
		return false;
	port->accept_paused = false;
	port_watch(port, port->listen_fd, SOFTHW_COMCH_TAG_LISTENER);
	timer_set(port);
	return true;
}

static int port_poll(struct softhw_comch_port *port, uint64_t *tags, int max)
{
	struct epoll_event ev[32];
	int n, got = 0;

	n = epoll_wait(port->epfd, ev, max < 32 ? max : 32, 0);
	for (int i = 0; i < n; i++) {
		if (ev[i].data.u64 == TAG_TIMER) {
			uint64_t ticks;

			if (read(port->timer_fd, &ticks, sizeof(ticks)) < 0) {
				/* EAGAIN: already read */
			}
			continue;
		}
		tags[got++] = ev[i].data.u64;
	}
	if (got < max && accept_resume(port))
		tags[got++] = SOFTHW_COMCH_TAG_LISTENER;
	return got;
}

static doca_error_t port_arm(struct softhw_comch_port *port)
{
	return softhw_waker_arm(port->waker_id);
}

/* ---- rendezvous ---- */

/* A refused client reads why (the library's REJECT) before its link closes. */
static void port_refuse(void *arg, int fd, doca_error_t why, const char *reason)
{
	struct softhw_comch_port *port = arg;
	char msg[512];
	size_t len = port->adm->reject_msg != NULL ? port->adm->reject_msg(msg, sizeof(msg), why, reason) : 0;

	if (len > 0)
		(void)softhw_fabric_send(fd, msg, len, NULL, 0);
}

static doca_error_t port_listen(struct softhw_comch_port *port, const struct softhw_card *card, const char *name,
				const struct softhw_comch_admission *adm)
{
	doca_error_t err = softhw_fabric_listen(card, RENDEZVOUS_KIND, name, &port->listen_fd);

	if (err != DOCA_SUCCESS) {
		port->listen_fd = -1;
		return err;
	}
	port->adm = adm;
	softhw_guard_fini(&port->guard);
	softhw_guard_init(&port->guard, port->label, card->access, adm->max_pending_per_peer, adm->max_links,
			  port_refuse, port);
	port->accept_paused = false;
	port_watch(port, port->listen_fd, SOFTHW_COMCH_TAG_LISTENER);
	return DOCA_SUCCESS;
}

static void port_unlisten(struct softhw_comch_port *port)
{
	if (port->listen_fd >= 0) {
		if (!port->accept_paused)
			port_unwatch(port, port->listen_fd);
		close(port->listen_fd);
		port->listen_fd = -1;
	}
	if (port->accept_paused) {
		port->accept_paused = false;
		timer_set(port);
	}
}

static doca_error_t port_accept(struct softhw_comch_port *port, int *link, struct softhw_peer *peer)
{
	if (port->listen_fd < 0 || port->accept_paused)
		return DOCA_ERROR_AGAIN;
	/* Bounded: refused connections are consumed here, and a flood does not starve the PE. */
	for (int i = 0; i < SOFTHW_GUARD_BATCH; i++) {
		doca_error_t err = softhw_guard_accept(&port->guard, port->listen_fd, link, peer);

		if (err == DOCA_SUCCESS)
			return DOCA_SUCCESS;
		if (err == DOCA_ERROR_AGAIN)
			break;
	}
	if (softhw_guard_paused_ms(&port->guard) > 0) {
		/* Out of descriptors: the listener stays readable; leave it alone, the tick brings us back. */
		port_unwatch(port, port->listen_fd);
		port->accept_paused = true;
		timer_set(port);
	}
	return DOCA_ERROR_AGAIN;
}

static void port_settle(struct softhw_comch_port *port, struct softhw_peer *peer)
{
	softhw_guard_settle(&port->guard, peer);
}

static void port_release(struct softhw_comch_port *port, const struct softhw_peer *peer)
{
	softhw_guard_release(&port->guard, peer);
}

static doca_error_t link_connect(const struct softhw_card *card, const char *name, int *link)
{
	return softhw_fabric_connect(card, RENDEZVOUS_KIND, name, link);
}

/* ---- links ---- */

static void fd_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

static int bell_ringer(const struct softhw_bell_name *name, int shared)
{
	static struct softhw_ratelimit rl;
	int fd = softhw_bell_ringer(name);

	if (fd >= 0)
		return fd;
	SOFTHW_LOG_LIMITED(&rl, SDK_LOG_WARN,
			   "Comch: cannot make a doorbell end of its own for a peer (%s); it gets the one its PE's other peers share, which it could silence for them",
			   strerror(errno));
	return fcntl(shared, F_DUPFD_CLOEXEC, 0);
}

const struct softhw_comch_ops softhw_comch_ops = {
	.port_open = port_open,
	.port_close = port_close,
	.port_watch = port_watch,
	.port_unwatch = port_unwatch,
	.port_timer = port_timer,
	.port_poll = port_poll,
	.port_arm = port_arm,
	.listen = port_listen,
	.unlisten = port_unlisten,
	.accept = port_accept,
	.settle = port_settle,
	.release = port_release,
	.connect = link_connect,
	.send = softhw_fabric_send,
	.recv = softhw_fabric_recv,
	.close = fd_close,
	.bell_ringer = bell_ringer,
	.chan_geom = softhw_chan_geom_make,
	.chan_create = softhw_chan_create,
	.chan_attach = softhw_chan_attach,
	.chan_close = softhw_chan_close,
};
