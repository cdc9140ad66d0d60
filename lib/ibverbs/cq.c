/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completion channels and CQs. A CQ is a ring of ibv_wc; polling it first drains the soft NIC
 * endpoints of the QPs that complete into it (sv_qp_drain moves each CQE into its QP's send or
 * receive CQ). req_notify_cq arms the CQ and those endpoints; the endpoint's notify callback
 * (any thread) queues the CQ on its channel and writes one byte to the channel's pipe.
 *
 * The channel's descriptor is an epoll set: the pipe, and the soft NIC's wait descriptor of
 * every endpoint whose QPs complete into one of its CQs (their doorbells: peers on this host
 * that published a message or consumed ours). An application sleeping on it is woken by the
 * peer itself; ibv_get_cq_event then does in its thread what the NIC's service thread would
 * have done (ep_serve), one thread hop less per wake-up.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibv_int.h"
#include "softhw/base/sdk_log.h"
#include "softhw/fabric/waitset.h"

SDK_LOG_REGISTER(IBV_CQ);

struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
	struct sv_chan *ch;
	int p[2], ep;

	if (context == NULL) {
		errno = EINVAL;
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) {
		free(ch);
		return NULL;
	}
	ep = softhw_waitset_create();
	if (ep < 0 || softhw_waitset_add(ep, p[0], NULL) != 0) { /* tag NULL: the pipe */
		int e = errno;

		if (ep >= 0)
			close(ep);
		close(p[0]);
		close(p[1]);
		free(ch);
		errno = e;
		return NULL;
	}
	ch->pub.context = context;
	ch->pub.fd = ep;
	ch->rfd = p[0];
	ch->wfd = p[1];
	return &ch->pub;
}

/* sv.lock held */
static void chan_watch(struct ibv_cq *cq, struct softhw_rnic_ep *ep, int wait_fd)
{
	if (cq == NULL || cq->channel == NULL || wait_fd < 0)
		return;
	if (softhw_waitset_add(cq->channel->fd, wait_fd, ep) != 0)
		SDK_LOG_ERR("completion channel: cannot watch a QP's doorbells (%s): its wake-ups take the "
			    "soft NIC's service thread", strerror(errno));
}

void sv_chan_watch(struct sv_qp *q)
{
	const struct softhw_rnic_ops *nic = sv_ctx_of(q->pub.context)->nic;
	int fd = nic->ep_wait_fd != NULL ? nic->ep_wait_fd(q->ep) : -1;

	chan_watch(q->pub.send_cq, q->ep, fd);
	if (q->pub.recv_cq != q->pub.send_cq)
		chan_watch(q->pub.recv_cq, q->ep, fd);
}

void sv_qp_sleep(struct sv_qp *q)
{
	const struct softhw_rnic_ops *nic = sv_ctx_of(q->pub.context)->nic;

	if ((q->pub.send_cq->channel != NULL || q->pub.recv_cq->channel != NULL) && nic->ep_owner_wait != NULL)
		nic->ep_owner_wait(q->ep);
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct sv_chan *ch = (struct sv_chan *)channel;

	if (ch == NULL)
		return EINVAL;
	if (ch->pub.refcnt > 0)
		return EBUSY;
	close(ch->pub.fd);
	close(ch->rfd);
	close(ch->wfd);
	free(ch);
	return 0;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel,
			     int comp_vector)
{
	struct sv_cq *cq;

	(void)comp_vector;
	cq = sv_cq_new(context, cqe, cq_context, channel);
	return cq != NULL ? &cq->pub : NULL;
}

struct sv_cq *sv_cq_new(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel)
{
	struct sv_cq *cq;

	if (context == NULL || cqe < 1 || cqe > 4194303) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (cq != NULL)
		cq->ring = calloc((size_t)cqe, sizeof(*cq->ring));
	if (cq == NULL || cq->ring == NULL) {
		free(cq);
		errno = ENOMEM;
		return NULL;
	}
	cq->cap = (uint32_t)cqe;
	cq->pub.context = context;
	cq->pub.channel = channel;
	cq->pub.cq_context = cq_context;
	cq->pub.cqe = cqe;
	pthread_mutex_init(&cq->pub.mutex, NULL);
	pthread_cond_init(&cq->pub.cond, NULL);
	pthread_mutex_init(&cq->poll_lock, NULL);
	pthread_mutex_lock(&sv.lock);
	if (channel != NULL)
		channel->refcnt++;
	cq->next = sv.cqs;
	sv.cqs = cq;
	pthread_mutex_unlock(&sv.lock);
	return cq;
}

int ibv_resize_cq(struct ibv_cq *cq, int cqe)
{
	struct sv_cq *c = (struct sv_cq *)cq;

	if (c == NULL || cqe < 1)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	if ((uint32_t)cqe < c->n) {
		pthread_mutex_unlock(&sv.lock);
		return EINVAL;
	}
	if ((uint32_t)cqe > c->cap) {
		struct ibv_wc *r = calloc((size_t)cqe, sizeof(*r));

		if (r == NULL) {
			pthread_mutex_unlock(&sv.lock);
			return ENOMEM;
		}
		for (uint32_t i = 0; i < c->n; i++)
			r[i] = c->ring[(c->head + i) % c->cap];
		free(c->ring);
		c->ring = r;
		c->head = 0;
		c->cap = (uint32_t)cqe;
	}
	c->pub.cqe = cqe;
	pthread_mutex_unlock(&sv.lock);
	return 0;
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
	struct sv_cq *c = (struct sv_cq *)cq;

	if (c == NULL)
		return EINVAL;
	if (pthread_mutex_trylock(&c->poll_lock) != 0) /* an ibv_start_poll without its end_poll */
		return EBUSY;
	pthread_mutex_unlock(&c->poll_lock);
	pthread_mutex_lock(&sv.lock);
	for (struct sv_qp *q = sv.qps; q != NULL; q = q->next)
		if (q->pub.send_cq == cq || q->pub.recv_cq == cq) {
			pthread_mutex_unlock(&sv.lock);
			return EBUSY;
		}
	for (struct sv_cq **pp = &sv.cqs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	if (c->pub.channel != NULL)
		c->pub.channel->refcnt--;
	sv_srq_forget_cq(c);
	pthread_mutex_unlock(&sv.lock);
	/* events still queued on the channel for this CQ are dropped */
	pthread_mutex_lock(&sv.ev_lock);
	if (c->pub.channel != NULL) {
		struct sv_chan *ch = (struct sv_chan *)c->pub.channel;

		for (uint32_t i = 0; i < ch->evq_n; i++)
			if (ch->evq[(ch->evq_head + i) % 64] == c)
				ch->evq[(ch->evq_head + i) % 64] = NULL;
	}
	pthread_mutex_unlock(&sv.ev_lock);
	pthread_cond_destroy(&c->pub.cond);
	pthread_mutex_destroy(&c->pub.mutex);
	pthread_mutex_destroy(&c->poll_lock);
	free(c->ring);
	free(c);
	return 0;
}

/* Under sv.lock. A full CQ grows rather than losing a completion (hardware would overrun). */
void sv_cq_push(struct sv_cq *cq, const struct ibv_wc *wc)
{
	if (cq->n == cq->cap) {
		uint32_t cap = cq->cap * 2;
		struct ibv_wc *r = calloc(cap, sizeof(*r));

		if (r == NULL) {
			SDK_LOG_ERR("CQ overrun: a completion is lost");
			return;
		}
		for (uint32_t i = 0; i < cq->n; i++)
			r[i] = cq->ring[(cq->head + i) % cq->cap];
		free(cq->ring);
		cq->ring = r;
		cq->head = 0;
		cq->cap = cap;
	}
	cq->ring[(cq->head + cq->n) % cq->cap] = *wc;
	cq->n++;
}

void sv_cq_clean(struct sv_cq *cq, uint32_t qp_num)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < cq->n; i++) {
		const struct ibv_wc *w = &cq->ring[(cq->head + i) % cq->cap];

		if (w->qp_num != qp_num)
			cq->ring[(cq->head + kept++) % cq->cap] = *w;
	}
	cq->n = kept;
}

int sv_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	struct sv_cq *c = (struct sv_cq *)cq;
	int k = 0;

	pthread_mutex_lock(&sv.lock);
	for (struct sv_qp *q = sv.qps; q != NULL; q = q->next)
		if (q->pub.send_cq == cq || q->pub.recv_cq == cq)
			sv_qp_drain(q);
	while (k < n && c->n > 0) {
		wc[k++] = c->ring[c->head];
		c->head = (c->head + 1) % c->cap;
		c->n--;
	}
	pthread_mutex_unlock(&sv.lock);
	return k;
}

/*
 * The channel ibv_get_cq_event of this thread is serving (chan_serve): an event it makes there
 * is taken by that same call, so it needs no byte in the pipe (a write and a read less per
 * wake-up of a thread that sleeps on its channel).
 */
static __thread struct sv_chan *serving;

/* Queues an event for cq on its channel (under ev_lock). */
void sv_cq_event(struct sv_cq *cq)
{
	struct sv_chan *ch = (struct sv_chan *)cq->pub.channel;
	char b = 1;

	if (!cq->armed || ch == NULL || ch->evq_n == 64)
		return;
	cq->armed = false;
	ch->evq[(ch->evq_head + ch->evq_n) % 64] = cq;
	ch->evq_n++;
	if (ch == serving)
		ch->unsignaled++;
	else if (write(ch->wfd, &b, 1) != 1)
		SDK_LOG_ERR("completion channel: could not signal an event");
}

void sv_ep_notify(void *arg)
{
	struct sv_qp *q = arg;

	pthread_mutex_lock(&sv.ev_lock);
	sv_cq_event((struct sv_cq *)q->pub.send_cq);
	if (q->pub.recv_cq != q->pub.send_cq)
		sv_cq_event((struct sv_cq *)q->pub.recv_cq);
	pthread_mutex_unlock(&sv.ev_lock);
}

int sv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	struct sv_cq *c = (struct sv_cq *)cq;
	struct sv_qp *ready = NULL;

	(void)solicited_only; /* every completion is an event (allowed: more events than asked) */
	pthread_mutex_lock(&sv.lock);
	pthread_mutex_lock(&sv.ev_lock);
	c->armed = true;
	pthread_mutex_unlock(&sv.ev_lock);
	for (struct sv_qp *q = sv.qps; q != NULL; q = q->next) {
		if (q->pub.send_cq != cq && q->pub.recv_cq != cq)
			continue;
		if (sv_ctx_of(q->pub.context)->nic->ep_arm(q->ep))
			ready = q;
		else if (cq->channel != NULL)
			sv_qp_sleep(q);
	}
	pthread_mutex_unlock(&sv.lock);
	if (ready != NULL)
		sv_qp_notify(ready);
	return 0;
}

/* sv.lock held: ep is a live endpoint of a QP or SRQ (an event may outlive its QP). */
static const struct softhw_rnic_ops *ep_nic(const struct softhw_rnic_ep *ep)
{
	for (struct sv_qp *q = sv.qps; q != NULL; q = q->next)
		if (q->ep == ep)
			return sv_ctx_of(q->pub.context)->nic;
	for (struct sv_srq *s = sv.srqs; s != NULL; s = s->next)
		if (s->ep == ep)
			return sv_ctx_of(s->pub.context)->nic;
	return NULL;
}

/*
 * Doorbells of the channel's endpoints rang: take what they announced, here (the CQEs raise
 * events as usual). A wake-up that completed nothing still makes an event for an armed CQ of
 * the channel: the descriptor was readable, and a caller that polled it first must not block.
 */
static bool chan_serve(struct sv_chan *ch)
{
	void *tags[16];
	bool served = false;
	int n = softhw_waitset_wait(ch->pub.fd, tags, 16, 0);

	if (n <= 0)
		return false;
	pthread_mutex_lock(&sv.lock);
	serving = ch;
	for (int i = 0; i < n; i++) {
		const struct softhw_rnic_ops *nic;

		if (tags[i] == NULL || (nic = ep_nic(tags[i])) == NULL)
			continue;
		nic->ep_serve(tags[i]);
		served = true;
	}
	if (served) {
		pthread_mutex_lock(&sv.ev_lock);
		if (ch->evq_n == 0)
			for (struct sv_cq *c = sv.cqs; c != NULL; c = c->next)
				if (c->pub.channel == &ch->pub && c->armed) {
					sv_cq_event(c);
					break;
				}
		pthread_mutex_unlock(&sv.ev_lock);
	}
	serving = NULL;
	pthread_mutex_unlock(&sv.lock);
	return served;
}

/*
 * Whether the pipe holds a byte: one per queued event that is not unsignaled (a writer counts
 * its event before it writes, so a byte never goes unseen; a write not done yet only costs a
 * read that finds nothing). The read of an empty pipe is saved on every wake-up by a doorbell.
 */
static bool chan_signaled(struct sv_chan *ch)
{
	bool b;

	pthread_mutex_lock(&sv.ev_lock);
	b = ch->evq_n > ch->unsignaled;
	pthread_mutex_unlock(&sv.ev_lock);
	return b;
}

/* An event chan_serve queued without a pipe byte (its caller takes it), or NULL. */
static struct sv_cq *chan_take_unsignaled(struct sv_chan *ch)
{
	struct sv_cq *c = NULL;

	pthread_mutex_lock(&sv.ev_lock);
	if (ch->unsignaled > 0 && ch->evq_n > 0) {
		c = ch->evq[ch->evq_head];
		ch->evq_head = (ch->evq_head + 1) % 64;
		ch->evq_n--;
		ch->unsignaled--;
	}
	pthread_mutex_unlock(&sv.ev_lock);
	return c;
}

int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
{
	struct sv_chan *ch = (struct sv_chan *)channel;
	struct sv_cq *c = NULL;
	char b;

	if (ch == NULL || cq == NULL || cq_context == NULL)
		return -1;
	while (c == NULL) {
		ssize_t r = -1;

		errno = EAGAIN;
		if (chan_signaled(ch))
			r = read(ch->rfd, &b, 1);
		if (r == 1) {
			pthread_mutex_lock(&sv.ev_lock);
			if (ch->evq_n > 0) {
				c = ch->evq[ch->evq_head];
				ch->evq_head = (ch->evq_head + 1) % 64;
				ch->evq_n--;
			}
			pthread_mutex_unlock(&sv.ev_lock);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno != EAGAIN)
			return -1;
		if (chan_serve(ch)) {
			c = chan_take_unsignaled(ch); /* (NULL: a CQ destroyed since, or another thread took it) */
			continue;
		}
		/* nothing yet: sleep on the set, unless the application made the channel non-blocking */
		int fl = fcntl(ch->pub.fd, F_GETFL);
		void *tag;

		if (fl >= 0 && (fl & O_NONBLOCK)) {
			errno = EAGAIN;
			return -1;
		}
		if (softhw_waitset_wait(ch->pub.fd, &tag, 1, -1) < 0)
			return -1;
	}
	*cq = &c->pub;
	*cq_context = c->pub.cq_context;
	return 0;
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	if (cq == NULL)
		return;
	pthread_mutex_lock(&cq->mutex);
	cq->comp_events_completed += nevents;
	pthread_cond_signal(&cq->cond);
	pthread_mutex_unlock(&cq->mutex);
}
