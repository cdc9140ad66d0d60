/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Event channels: a real file descriptor (an eventfd) applications poll, select or make
 * non-blocking; events queued per channel; rdma_get_cm_event / rdma_ack_cm_event.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "rdmacm_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMACM_CHANNEL);

struct cm_lib g = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.fd_lock = PTHREAD_MUTEX_INITIALIZER,
	.wake_fd = -1,
};

int cm_fail(int err)
{
	errno = err;
	return -1;
}

static void fd_add(int fd)
{
	uint64_t one = 1;

	if (fd >= 0)
		(void)!write(fd, &one, sizeof(one));
}

/* Empties an eventfd without blocking, whatever O_NONBLOCK the application set on it. */
static void fd_drain(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	uint64_t v;

	if (poll(&p, 1, 0) == 1 && (p.revents & POLLIN))
		(void)!read(fd, &v, sizeof(v));
}

void cm_ring(struct cm_chan *ch)
{
	fd_add(ch->pub.fd);
}

/* NIC notify (any thread): some endpoint has CQEs; whoever waits pumps them. */
void cm_ring_all(void)
{
	pthread_mutex_lock(&g.fd_lock);
	fd_add(g.wake_fd);
	for (struct cm_chan *ch = g.chans; ch != NULL; ch = ch->next)
		fd_add(ch->pub.fd);
	pthread_mutex_unlock(&g.fd_lock);
}

struct rdma_event_channel *rdma_create_event_channel(void)
{
	struct cm_chan *ch = calloc(1, sizeof(*ch));

	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	ch->pub.fd = eventfd(0, EFD_CLOEXEC);
	ch->wait_fd = ch->pub.fd < 0 ? -1 : fcntl(ch->pub.fd, F_DUPFD_CLOEXEC, 0);
	if (ch->wait_fd < 0) {
		int e = errno;

		SDK_LOG_ERR("rdma_create_event_channel: eventfd or its dup failed: %s", strerror(e));
		if (ch->pub.fd >= 0)
			close(ch->pub.fd);
		free(ch);
		errno = e;
		return NULL;
	}
	pthread_mutex_lock(&g.lock);
	pthread_mutex_lock(&g.fd_lock);
	ch->next = g.chans;
	g.chans = ch;
	pthread_mutex_unlock(&g.fd_lock);
	pthread_mutex_unlock(&g.lock);
	return &ch->pub;
}

static void chan_free(struct cm_chan *ch)
{
	close(ch->wait_fd);
	free(ch);
}

static bool chan_known(const struct cm_chan *ch)
{
	for (const struct cm_chan *c = g.chans; c != NULL; c = c->next)
		if (c == ch)
			return true;
	return false;
}

void rdma_destroy_event_channel(struct rdma_event_channel *channel)
{
	struct cm_chan *ch = (struct cm_chan *)channel;
	bool waited;

	if (ch == NULL)
		return;
	pthread_mutex_lock(&g.lock);
	if (!chan_known(ch)) {
		pthread_mutex_unlock(&g.lock);
		SDK_LOG_ERR("rdma_destroy_event_channel: %p is not an event channel (destroyed twice?)", (void *)ch);
		return;
	}
	for (struct cm_id *id = g.ids; id != NULL; id = id->next)
		if (id->pub.channel == channel) {
			SDK_LOG_WARN("rdma_destroy_event_channel: id %p still uses the channel; destroy ids first "
				     "(its events are dropped from now on)", (void *)id);
			id->pub.channel = NULL;
			if (id->sync_chan == channel) /* the library's own, destroyed by the program */
				id->sync_chan = NULL;
		}
	pthread_mutex_lock(&g.fd_lock);
	for (struct cm_chan **pp = &g.chans; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ch) {
			*pp = ch->next;
			break;
		}
	pthread_mutex_unlock(&g.fd_lock);
	while (ch->head != NULL) {
		struct cm_event *ev = ch->head;

		ch->head = ev->next;
		free(ev);
	}
	/* Given, never acked: valid until acked, as librdmacm's events (which its channel does not
	 * own); their ids no longer count them, so destroying an id does not wait for them. */
	if (ch->given != NULL)
		SDK_LOG_WARN("rdma_destroy_event_channel: events it gave were not acked; they stay valid until "
			     "rdma_ack_cm_event (ack every event before destroying its channel)");
	while (ch->given != NULL) {
		struct cm_event *ev = ch->given;

		ch->given = ev->next;
		if (ev->counted != NULL)
			ev->counted->unacked--;
		ev->counted = NULL;
		ev->next = g.stray;
		g.stray = ev;
	}
	/*
	 * As closing Linux's rdma_cm fd: a thread blocked on it stays blocked until a signal
	 * interrupts its wait; the last one frees the channel. Its read (of wait_fd's eventfd, which
	 * it holds) goes on; wait_fd's number becomes a descriptor that cannot be read, so the
	 * kernel itself answers as Linux: a handler without SA_RESTART ends the read with EINTR, one
	 * with SA_RESTART restarts it on that number, which fails with EBADF (so does a ptrace stop's
	 * restart). Without such a descriptor, the wake-up moves the readers to a wait that any
	 * signal ends with EBADF, each passing it on to the next (chan_gone).
	 */
	close(ch->pub.fd);
	ch->pub.fd = -1; /* the number may be reused: a late cm_ring must not write there */
	waited = ch->destroyed = ch->waiters > 0;
	if (ch->readers > 0) {
		int unreadable = open("/", O_PATH | O_CLOEXEC);

		ch->unreadable = unreadable >= 0 && dup3(unreadable, ch->wait_fd, O_CLOEXEC) == ch->wait_fd;
		if (unreadable >= 0)
			close(unreadable);
		if (!ch->unreadable)
			fd_add(ch->wait_fd);
	}
	pthread_mutex_unlock(&g.lock);
	if (!waited) /* else a waiter may free ch as soon as the lock is dropped */
		chan_free(ch);
}

struct cm_event *cm_event_new(struct cm_id *id, enum rdma_cm_event_type type, int status)
{
	struct cm_event *ev = calloc(1, sizeof(*ev));

	if (ev == NULL)
		return NULL;
	ev->pub.id = &id->pub;
	ev->pub.event = type;
	ev->pub.status = status;
	ev->counted = id;
	return ev;
}

/* Queues on the id's channel (under g.lock) and makes its fd readable. */
void cm_event_queue(struct cm_event *ev)
{
	struct cm_chan *ch = (struct cm_chan *)ev->pub.id->channel;
	struct cm_id *id = (struct cm_id *)ev->pub.id;

	if (ch == NULL || id->dying) {
		/* its channel was destroyed under it (rdma_destroy_event_channel said so), or the id is
		 * being destroyed; a request nobody will see is rejected as the listener's death is */
		if (ev->pub.event == RDMA_CM_EVENT_CONNECT_REQUEST && !id->dying)
			id->orphan = true;
		free(ev);
		return;
	}
	if (ev->pub.param.conn.private_data_len > 0)
		ev->pub.param.conn.private_data = ev->pdata;
	ev->next = NULL;
	if (ch->tail != NULL)
		ch->tail->next = ev;
	else
		ch->head = ev;
	ch->tail = ev;
	cm_ring(ch);
}

/* Takes every CQE of every endpoint (under g.lock). */
void cm_pump(void)
{
	struct softhw_rnic_cqe cqes[16];

	for (struct cm_ep *ep = g.eps; ep != NULL; ep = ep->next) {
		int n;

		while ((n = g.nic->ep_poll(ep->ep, cqes, 16)) > 0)
			for (int i = 0; i < n; i++)
				cm_cqe(ep, &cqes[i]);
	}
}

/* Arms every endpoint; if one has CQEs already, pumps and tries again (under g.lock). */
void cm_arm_all_or_pump(void)
{
	for (;;) {
		bool waiting = false;

		for (struct cm_ep *ep = g.eps; ep != NULL; ep = ep->next)
			waiting |= g.nic->ep_arm(ep->ep);
		if (!waiting)
			return;
		cm_pump();
	}
}

struct cm_wait {
	struct cm_chan *ch;
	bool reading;
};

/* A waiter cancelled in its wait (a cancellation point) is counted out, as it would have been. */
static void wait_cancelled(void *arg)
{
	struct cm_wait *w = arg;
	struct cm_chan *ch = w->ch;

	pthread_mutex_lock(&g.lock);
	if (w->reading)
		ch->readers--;
	if (ch->destroyed && ch->readers > 0 && !ch->unreadable)
		fd_add(ch->wait_fd); /* it may have taken the destroy's wake-up: pass it on */
	if (--ch->waiters == 0 && ch->destroyed)
		chan_free(ch);
	pthread_mutex_unlock(&g.lock);
}

/*
 * Waits for wait_fd (called and back under g.lock, ch counted in waiters): the result, errno in
 * *e. A live channel's waiter sleeps in read(), as on Linux's rdma_cm fd, so that signals act on
 * it as there: a handler installed with SA_RESTART restarts the wait, one without fails it
 * (EINTR). The read takes the wake-up it wakes for; a waiter that finds more events rings again
 * for the next. A destroyed channel's waiter sleeps in a poll of nothing, which only a signal
 * ends (poll is never restarted after a handler: any signal brings it back).
 */
static int chan_wait(struct cm_chan *ch, int *e, int cancel)
{
	struct cm_wait w = {.ch = ch, .reading = !ch->destroyed};
	uint64_t v;
	int r, err;

	if (w.reading)
		ch->readers++;
	pthread_mutex_unlock(&g.lock);
	pthread_cleanup_push(wait_cancelled, &w);
	/* the wait is the one cancellation point: never a write or read made under g.lock */
	pthread_setcancelstate(cancel, NULL);
	r = w.reading ? (int)read(ch->wait_fd, &v, sizeof(v)) : poll(NULL, 0, -1);
	err = errno;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	pthread_cleanup_pop(0);
	pthread_mutex_lock(&g.lock);
	if (w.reading)
		ch->readers--;
	if (e != NULL)
		*e = err;
	return r;
}

/*
 * Back from chan_wait (under g.lock): 0 while the channel lives; once it was destroyed under the
 * waiter, the error the waiter fails with, as Linux's blocked read of the closed rdma_cm fd does.
 * Interrupted in its read by a handler without SA_RESTART: EINTR. Woken instead (by the destroy,
 * or a wake-up written before it and read after: no reason to return, the events went with the
 * ids), it passes the wake-up on to a waiter still reading, then waits for a signal, after which
 * Linux's restarted read fails: EBADF. (A ptrace stop, as LeakSanitizer's at exit, restarts the
 * wait: we block on, where Linux's restart would fail.) The last waiter frees the channel.
 */
static int chan_gone(struct cm_chan *ch, int r, int e, int cancel)
{
	int err = r < 0 && e == EINTR ? EINTR : EBADF;

	if (ch->destroyed && r >= 0) {
		if (ch->readers > 0 && !ch->unreadable)
			fd_add(ch->wait_fd);
		(void)chan_wait(ch, NULL, cancel);
		err = EBADF;
	}
	ch->waiters--;
	if (!ch->destroyed)
		return 0;
	if (ch->waiters == 0)
		chan_free(ch);
	return err;
}

/* rdma_get_cm_event with cancellation disabled but in the wait itself (cancel: the caller's state). */
static int get_cm_event(struct cm_chan *ch, struct rdma_cm_event **event, int cancel)
{
	if (ch == NULL || event == NULL)
		return cm_fail(EINVAL);
	pthread_mutex_lock(&g.lock);
	if (!chan_known(ch)) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	for (;;) {
		int flags, r, e, gone;

		if (g.nic != NULL)
			cm_pump();
		fd_drain(ch->pub.fd);
		if (g.nic != NULL) {
			cm_arm_all_or_pump();
			cm_reap_orphans();
		}
		if (ch->head != NULL) {
			struct cm_event *ev = ch->head;

			ch->head = ev->next;
			if (ch->head == NULL)
				ch->tail = NULL;
			else
				cm_ring(ch); /* more to take: stay readable */
			ev->next = ch->given;
			ch->given = ev;
			((struct cm_id *)ev->pub.id)->known = true;
			if (ev->counted != NULL)
				ev->counted->unacked++;
			*event = &ev->pub;
			pthread_mutex_unlock(&g.lock);
			return 0;
		}
		flags = fcntl(ch->pub.fd, F_GETFL);
		if (flags >= 0 && (flags & O_NONBLOCK)) {
			pthread_mutex_unlock(&g.lock);
			return cm_fail(EAGAIN);
		}
		/* rdma_destroy_event_channel may run while we wait: the count keeps ch alive. */
		ch->waiters++;
		r = chan_wait(ch, &e, cancel);
		gone = chan_gone(ch, r, e, cancel);
		if (gone != 0) {
			pthread_mutex_unlock(&g.lock);
			return cm_fail(gone);
		}
		if (r < 0) { /* EINTR: a signal whose handler has no SA_RESTART, as on Linux */
			pthread_mutex_unlock(&g.lock);
			return cm_fail(e);
		}
	}
}

/* Acks ev (under g.lock): false when it is no event awaiting its ack. */
static bool ack_from(struct cm_event **list, struct cm_event *ev)
{
	for (struct cm_event **pp = list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ev) {
			*pp = ev->next;
			if (ev->counted != NULL)
				ev->counted->unacked--;
			free(ev);
			return true;
		}
	return false;
}

bool cm_ack_locked(struct cm_event *ev)
{
	for (struct cm_chan *ch = g.chans; ch != NULL; ch = ch->next)
		if (ack_from(&ch->given, ev))
			return true;
	return ack_from(&g.stray, ev);
}

int rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)
{
	int cancel, r, e;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
	r = get_cm_event((struct cm_chan *)channel, event, cancel);
	e = errno;
	pthread_setcancelstate(cancel, NULL);
	errno = e;
	return r;
}

int rdma_ack_cm_event(struct rdma_cm_event *event)
{
	bool acked;

	if (event == NULL)
		return cm_fail(EINVAL);
	pthread_mutex_lock(&g.lock);
	acked = cm_ack_locked((struct cm_event *)event);
	pthread_mutex_unlock(&g.lock);
	if (acked)
		return 0;
	SDK_LOG_ERR("rdma_ack_cm_event: %p is not an event awaiting its ack (acked twice?)", (void *)event);
	return cm_fail(EINVAL);
}
