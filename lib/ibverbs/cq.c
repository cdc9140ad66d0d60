/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completion channels and CQs. A CQ is a ring of ibv_wc; polling it first drains the soft NIC
 * endpoints of the QPs that complete into it (sv_qp_drain moves each CQE into its QP's send or
 * receive CQ). req_notify_cq arms the CQ and those endpoints; the endpoint's notify callback
 * (any thread) queues the CQ on its channel and writes one byte to the channel's pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibv_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(IBV_CQ);

struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
{
	struct sv_chan *ch;
	int p[2];

	if (context == NULL) {
		errno = EINVAL;
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (ch == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	if (pipe2(p, O_CLOEXEC) != 0) {
		free(ch);
		return NULL;
	}
	ch->pub.context = context;
	ch->pub.fd = p[0];
	ch->wfd = p[1];
	return &ch->pub;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
{
	struct sv_chan *ch = (struct sv_chan *)channel;

	if (ch == NULL)
		return EINVAL;
	if (ch->pub.refcnt > 0)
		return EBUSY;
	close(ch->pub.fd);
	close(ch->wfd);
	free(ch);
	return 0;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel,
			     int comp_vector)
{
	struct sv_cq *cq;

	(void)comp_vector;
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
	pthread_mutex_lock(&sv.lock);
	if (channel != NULL)
		channel->refcnt++;
	cq->next = sv.cqs;
	sv.cqs = cq;
	pthread_mutex_unlock(&sv.lock);
	return &cq->pub;
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
	if (write(ch->wfd, &b, 1) != 1)
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
	for (struct sv_qp *q = sv.qps; q != NULL; q = q->next)
		if ((q->pub.send_cq == cq || q->pub.recv_cq == cq) && ((struct sv_ctx *)q->pub.context)->nic->ep_arm(q->ep))
			ready = q;
	pthread_mutex_unlock(&sv.lock);
	if (ready != NULL)
		sv_qp_notify(ready);
	return 0;
}

int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
{
	struct sv_chan *ch = (struct sv_chan *)channel;
	struct sv_cq *c = NULL;
	char b;

	if (ch == NULL || cq == NULL || cq_context == NULL)
		return -1;
	while (c == NULL) {
		ssize_t r = read(ch->pub.fd, &b, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1)
			return -1; /* EAGAIN on a non-blocking channel */
		pthread_mutex_lock(&sv.ev_lock);
		if (ch->evq_n > 0) {
			c = ch->evq[ch->evq_head];
			ch->evq_head = (ch->evq_head + 1) % 64;
			ch->evq_n--;
		}
		pthread_mutex_unlock(&sv.ev_lock);
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
