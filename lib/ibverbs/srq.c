/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared receive queues: an SRQ is one soft NIC endpoint whose receive queue its QPs share
 * (each QP is a soft NIC qp on that endpoint). Its notify callback raises an event on the
 * CQs of its QPs, which it keeps (under sv.ev_lock: the callback may run on any thread).
 */
#include <errno.h>
#include <stdlib.h>

#include "common/priv/dev_priv.h"
#include "doca_types.h"
#include "ibv_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(IBV_SRQ);

static void srq_notify(void *arg)
{
	struct sv_srq *s = arg;

	pthread_mutex_lock(&sv.ev_lock);
	for (uint32_t i = 0; i < s->ncqs; i++)
		sv_cq_event(s->cqs[i]);
	pthread_mutex_unlock(&sv.ev_lock);
}

void sv_qp_notify(struct sv_qp *q)
{
	if (q->srq != NULL)
		srq_notify(q->srq);
	else
		sv_ep_notify(q);
}

/* A QP of the SRQ completes into cq (under sv.lock). */
int sv_srq_add_cq(struct sv_srq *s, struct sv_cq *cq)
{
	int e = 0;

	pthread_mutex_lock(&sv.ev_lock);
	uint32_t i = 0;

	while (i < s->ncqs && s->cqs[i] != cq)
		i++;
	if (i == s->ncqs) {
		if (s->ncqs < SV_SRQ_CQS)
			s->cqs[s->ncqs++] = cq;
		else
			e = ENOMEM;
	}
	pthread_mutex_unlock(&sv.ev_lock);
	return e;
}

/* A CQ is destroyed: no SRQ may signal it any more (under sv.lock). */
void sv_srq_forget_cq(struct sv_cq *cq)
{
	pthread_mutex_lock(&sv.ev_lock);
	for (struct sv_srq *s = sv.srqs; s != NULL; s = s->next)
		for (uint32_t i = 0; i < s->ncqs; i++)
			if (s->cqs[i] == cq)
				s->cqs[i--] = s->cqs[--s->ncqs];
	pthread_mutex_unlock(&sv.ev_lock);
}

struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *a)
{
	struct softhw_rnic_ep_attr ea = {0};
	struct sv_ctx *c;
	struct sv_srq *s;
	doca_error_t err;

	if (pd == NULL || a == NULL || a->attr.max_wr > SV_MAX_WR || a->attr.max_sge > SV_MAX_SGE) {
		errno = EINVAL;
		return NULL;
	}
	c = sv_ctx_of(pd->context);
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	s->pub.context = pd->context;
	s->pub.srq_context = a->srq_context;
	s->pub.pd = pd;
	pthread_mutex_init(&s->pub.mutex, NULL);
	pthread_cond_init(&s->pub.cond, NULL);
	s->attr = a->attr;
	ea.fn = c->dev->devinfo->fn;
	ea.access = DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	ea.max_qps = 4096;
	ea.max_recv_sge = a->attr.max_sge > 0 ? a->attr.max_sge : 1;
	ea.max_send_sge = SV_MAX_SGE;
	ea.max_msg_size = 1u << 31;
	ea.rnr_retry_count = 7;
	ea.notify = srq_notify;
	ea.notify_arg = s;
	ea.owner_wakes = true; /* as a QP's (cq.c) */
	ea.polls_memory = true; /* ib_write_lat spins on its buffer for the peer's WRITE */
	err = c->nic->ep_create(&ea, &s->ep);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("ibv_create_srq: the soft NIC could not create an endpoint: %s", doca_error_get_descr(err));
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&sv.lock);
	s->next = sv.srqs;
	sv.srqs = s;
	pthread_mutex_unlock(&sv.lock);
	return &s->pub;
}

int ibv_destroy_srq(struct ibv_srq *srq)
{
	struct sv_srq *s = (struct sv_srq *)srq;

	if (s == NULL)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	if (s->nqps > 0) {
		pthread_mutex_unlock(&sv.lock);
		return EBUSY;
	}
	for (struct sv_srq **pp = &sv.srqs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&sv.lock);
	sv_ctx_of(s->pub.context)->nic->ep_destroy(s->ep);
	pthread_cond_destroy(&s->pub.cond);
	pthread_mutex_destroy(&s->pub.mutex);
	free(s->bad_recvs.ids);
	free(s);
	return 0;
}

int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask)
{
	struct sv_srq *s = (struct sv_srq *)srq;

	if (s == NULL || attr == NULL || (mask & IBV_SRQ_MAX_WR))
		return EINVAL; /* no resizing */
	pthread_mutex_lock(&sv.lock);
	if (mask & IBV_SRQ_LIMIT)
		s->attr.srq_limit = attr->srq_limit; /* recorded: no limit event (no async events) */
	pthread_mutex_unlock(&sv.lock);
	return 0;
}

int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr)
{
	struct sv_srq *s = (struct sv_srq *)srq;

	if (s == NULL || attr == NULL)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	*attr = s->attr;
	pthread_mutex_unlock(&sv.lock);
	return 0;
}

int sv_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct sv_srq *s = (struct sv_srq *)srq;
	int e = 0;

	pthread_mutex_lock(&sv.lock);
	for (; wr != NULL && e == 0; wr = wr->next) {
		struct softhw_rnic_sge sgl[SV_MAX_SGE];

		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > SV_MAX_SGE) {
			e = EINVAL;
		} else {
			bool ok = sv_recv_sges_ok(s->pub.pd, wr, 0);

			for (int i = 0; i < wr->num_sge; i++) {
				sgl[i].addr = (void *)(uintptr_t)wr->sg_list[i].addr;
				sgl[i].len = wr->sg_list[i].length;
			}
			if (sv_ctx_of(s->pub.context)->nic->ep_post_recv(s->ep, wr->wr_id, sgl,
										 ok ? (uint32_t)wr->num_sge : 0) != DOCA_SUCCESS)
				e = ENOMEM;
			else if (!ok)
				sv_bad_recv_add(&s->bad_recvs, wr->wr_id);
		}
		if (e != 0 && bad != NULL)
			*bad = wr;
	}
	pthread_mutex_unlock(&sv.lock);
	return e;
}
