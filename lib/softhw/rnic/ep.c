/* SPDX-License-Identifier: BSD-3-Clause */
/* An endpoint: its completion queue and its shared receive queue (see rnic.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "softhw/fabric/waitset.h"
#include "softhw/rnic/rnic_int.h"

doca_error_t rnic_ep_create(const struct softhw_rnic_ep_attr *attr, struct softhw_rnic_ep **out)
{
	struct rnic_ep *ep;
	doca_error_t err;

	if (attr == NULL || out == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	ep = calloc(1, sizeof(*ep));
	if (ep == NULL)
		return DOCA_ERROR_NO_MEMORY;
	ep->attr = *attr;
	ep->faults = attr->fn != NULL ? attr->fn->card->faults : NULL;
	if (ep->attr.cm_timeout_ms == 0)
		ep->attr.cm_timeout_ms = RNIC_DIAL_TIMEOUT_MS;
	softhw_lock_init(&ep->lock);
	softhw_lock_init(&ep->qps_lock);
	ep->wait_fd = attr->owner_wakes ? softhw_waitset_create() : -1;
	if (attr->owner_wakes && ep->wait_fd < 0) {
		free(ep);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = rnic_nic_ep_add(ep);
	if (err == DOCA_SUCCESS)
		err = rnic_nic_oob_ready(attr->fn);
	if (err != DOCA_SUCCESS) {
		if (err != DOCA_ERROR_OPERATING_SYSTEM || rnic_nic.running)
			rnic_nic_ep_remove(ep);
		if (ep->wait_fd >= 0)
			close(ep->wait_fd);
		free(ep);
		return err;
	}
	*out = (struct softhw_rnic_ep *)ep;
	return DOCA_SUCCESS;
}

static void recv_free_list(struct rnic_recv *r)
{
	while (r != NULL) {
		struct rnic_recv *next = r->next;

		if (r->sgl != r->sgl_inline)
			free(r->sgl);
		free(r);
		r = next;
	}
}

void rnic_ep_destroy(struct softhw_rnic_ep *e)
{
	struct rnic_ep *ep = rnic_ep_of(e);

	if (ep == NULL)
		return;
	/* Every qp and listener goes to the service thread, which frees them. */
	ep->own_qps = NULL;
	pthread_mutex_lock(&rnic_nic.lock);
	while (ep->qps != NULL) {
		struct rnic_qp *qp = ep->qps;

		softhw_lock(&ep->qps_lock);
		ep->qps = qp->next_ep;
		softhw_unlock(&ep->qps_lock);
		for (struct rnic_qp **pp = &rnic_nic.qps; *pp != NULL; pp = &(*pp)->next_all)
			if (*pp == qp) {
				*pp = qp->next_all;
				break;
			}
		softhw_bias_lock(&qp->lock);
		qp->dead = true;
		softhw_bias_unlock(&qp->lock);
		qp->next_ctl = rnic_nic.graveyard;
		rnic_nic.graveyard = qp;
	}
	RNIC_PATHS_EACH(ep_gone, ep);
	rnic_nic_reap_wait();
	pthread_mutex_unlock(&rnic_nic.lock);
	rnic_nic_ep_remove(ep);
	recv_free_list(ep->rq_head);
	recv_free_list(ep->free_recvs);
	free(ep->cq);
	if (ep->wait_fd >= 0)
		close(ep->wait_fd);
	free(ep);
}

/* ep lock held */
static bool cq_grow(struct rnic_ep *ep)
{
	uint32_t cap = ep->cq_cap ? 2 * ep->cq_cap : 64;
	struct softhw_rnic_cqe *cq = malloc(cap * sizeof(*cq));

	if (cq == NULL)
		return false;
	for (uint32_t i = 0; i < ep->cq_count; i++)
		cq[i] = ep->cq[(ep->cq_head + i) % ep->cq_cap];
	free(ep->cq);
	ep->cq = cq;
	ep->cq_cap = cap;
	ep->cq_head = 0;
	return true;
}

/* The ep whose owner's ep_poll takes its rings and message sockets now: what it completes is its own. */
static _Thread_local struct rnic_ep *owner_polling __attribute__((tls_model("initial-exec")));

static void push_shared(struct rnic_ep *ep, const struct softhw_rnic_cqe *cqe)
{
	bool notify = false;

	softhw_lock(&ep->lock);
	if (ep->cq_count == ep->cq_cap && !cq_grow(ep)) {
		softhw_unlock(&ep->lock);
		return; /* out of memory: the completion is lost, as on a CQ overrun */
	}
	ep->cq[(ep->cq_head + ep->cq_count) % ep->cq_cap] = *cqe;
	ep->cq_count++;
	__atomic_store_n(&ep->cq_avail, ep->cq_count, __ATOMIC_RELEASE);
	if (ep->armed) {
		__atomic_store_n(&ep->armed, false, __ATOMIC_RELEASE);
		notify = ep->attr.notify != NULL;
	}
	softhw_unlock(&ep->lock);
	if (notify)
		ep->attr.notify(ep->attr.notify_arg);
}

void rnic_ep_push(struct rnic_ep *ep, const struct softhw_rnic_cqe *cqe)
{
	if (owner_polling == ep)
		rnic_ep_push_owner(ep, cqe);
	else
		push_shared(ep, cqe);
}

/* Nothing waits in the locked CQ and the owner is not asleep: its own lane may take the next. */
static bool shared_quiet(const struct rnic_ep *ep)
{
	return __atomic_load_n(&ep->cq_avail, __ATOMIC_ACQUIRE) == 0 && !__atomic_load_n(&ep->armed, __ATOMIC_ACQUIRE);
}

void rnic_path_up(struct rnic_qp *qp, enum rnic_path_id p, bool up)
{
	if (up) {
		__atomic_fetch_or(&qp->up_mask, (uint8_t)(1u << p), __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&qp->ep->path_qps[p], 1, __ATOMIC_SEQ_CST);
	} else {
		__atomic_fetch_and(&qp->up_mask, (uint8_t)~(1u << p), __ATOMIC_SEQ_CST);
		__atomic_fetch_sub(&qp->ep->path_qps[p], 1, __ATOMIC_SEQ_CST);
	}
	rnic_ep_up_changed(qp->ep); /* after the bit: a rebuild that missed it sees the new generation */
}

void rnic_ep_up_changed(struct rnic_ep *ep)
{
	__atomic_fetch_add(&ep->up_gen, 1, __ATOMIC_SEQ_CST);
}

void rnic_ep_up_build(struct rnic_ep *ep, uint32_t gen, bool locked)
{
	ep->up_seen = gen;
	for (int i = 0; i < RNIC_PATH_COUNT; i++)
		ep->up[i] = NULL;
	if (!locked)
		softhw_lock(&ep->qps_lock); /* the service thread lists RDMA-CM qps */
	for (struct rnic_qp *qp = ep->qps; qp != NULL; qp = qp->next_ep) {
		uint8_t mask = __atomic_load_n(&qp->up_mask, __ATOMIC_SEQ_CST);

		for (int i = 0; i < RNIC_PATH_COUNT; i++)
			if ((mask & (1u << i)) && (qp->own || rnic_paths[i]->owner_polls_cm)) {
				qp->next_up[i] = ep->up[i];
				ep->up[i] = qp;
			}
	}
	if (!locked)
		softhw_unlock(&ep->qps_lock);
}

bool rnic_ep_owner_lane_empty(const struct rnic_ep *ep)
{
	return ep->own_count == 0 && shared_quiet(ep);
}

void rnic_ep_push_owner(struct rnic_ep *ep, const struct softhw_rnic_cqe *cqe)
{
	if (ep->own_count == RNIC_OWN_CQ || !shared_quiet(ep)) {
		push_shared(ep, cqe); /* behind what waits there, or with the owner's wake-up */
		return;
	}
	ep->own[(ep->own_head + ep->own_count) % RNIC_OWN_CQ] = *cqe;
	ep->own_count++;
}

/* The owner slept on ep->wait_fd and is awake: the service thread watches the doorbells again. */
static void owner_awake(struct rnic_ep *ep)
{
	softhw_lock(&ep->qps_lock);
	if (ep->owner_waits) {
		__atomic_store_n(&ep->owner_waits, false, __ATOMIC_RELEASE);
		__atomic_fetch_add(&ep->owner_woke, 1, __ATOMIC_RELAXED);
		RNIC_PATHS_EACH(owner_wait, ep, false);
	}
	softhw_unlock(&ep->qps_lock);
}

/*
 * The paths ep_poll calls: those with a poll and a qp up, taken again only when up_gen moved
 * (rnic_path_up counts before it moves the generation, so a new mask sees the new counts), so
 * an idle poll costs one load, not one per path.
 */
_Static_assert(RNIC_PATH_COUNT <= 8, "poll_mask holds a bit per path");

static unsigned poll_mask(struct rnic_ep *ep)
{
	uint32_t gen = __atomic_load_n(&ep->up_gen, __ATOMIC_SEQ_CST);

	if (gen != ep->poll_seen) { /* (0 at first: no path came up yet, the mask 0 is right) */
		unsigned m = 0;

		for (int p = 0; p < RNIC_PATH_COUNT; p++)
			if (rnic_paths[p]->poll != NULL && __atomic_load_n(&ep->path_qps[p], __ATOMIC_SEQ_CST) != 0)
				m |= 1u << p;
		ep->poll_seen = gen;
		ep->poll_mask = (uint8_t)m;
	}
	return ep->poll_mask;
}

/* The CQEs waiting: the owner's own lane first (its completions are the oldest), then the locked CQ. */
static int __attribute__((noinline)) take_cqes(struct rnic_ep *ep, struct softhw_rnic_cqe *cqes, int max)
{
	int n = 0;

	while (n < max && ep->own_count > 0) {
		cqes[n] = ep->own[ep->own_head];
		ep->own_head = (ep->own_head + 1) % RNIC_OWN_CQ;
		ep->own_count--;
		if (cqes[n++].kind != SOFTHW_RNIC_CQE_WR)
			return n; /* as below */
	}
	if (__atomic_load_n(&ep->cq_avail, __ATOMIC_ACQUIRE) == 0 || max <= n)
		return n;
	softhw_lock(&ep->lock);
	while (n < max && ep->cq_count > 0) {
		cqes[n] = ep->cq[ep->cq_head];
		ep->cq_head = (ep->cq_head + 1) % ep->cq_cap;
		ep->cq_count--;
		if (cqes[n++].kind != SOFTHW_RNIC_CQE_WR)
			break; /* its callback may destroy qps whose CQEs follow (rnic_ep_forget_qp) */
	}
	__atomic_store_n(&ep->cq_avail, ep->cq_count, __ATOMIC_RELEASE);
	softhw_unlock(&ep->lock);
	return n;
}

int rnic_ep_poll(struct softhw_rnic_ep *e, struct softhw_rnic_cqe *cqes, int max)
{
	struct rnic_ep *ep = rnic_ep_of(e);

	/* awake again once the wake-up came (the poll right after arming is still the sleeper's) */
	if (__atomic_load_n(&ep->owner_waits, __ATOMIC_ACQUIRE) && !__atomic_load_n(&ep->armed, __ATOMIC_ACQUIRE))
		owner_awake(ep);
	/*
	 * Paths the owner polls (same-host rings, TCP message sockets): messages and ACKs are taken
	 * here, by the owner, with no thread hop; their completions go to the owner's lane when they can.
	 */
	owner_polling = ep;
	for (unsigned m = poll_mask(ep); m != 0; m &= m - 1)
		rnic_paths[__builtin_ctz(m)]->poll(ep);
	owner_polling = NULL;
	if (ep->own_count == 0 && __atomic_load_n(&ep->cq_avail, __ATOMIC_ACQUIRE) == 0)
		return 0; /* an idle poll: no frame for the copies below */
	return take_cqes(ep, cqes, max);
}

bool rnic_ep_arm(struct softhw_rnic_ep *e)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	bool waiting;

	softhw_lock(&ep->lock);
	waiting = ep->cq_count > 0 || ep->own_count > 0;
	__atomic_store_n(&ep->armed, !waiting, __ATOMIC_SEQ_CST); /* pairs with ring.c ring_on() */
	softhw_unlock(&ep->lock);
	/* the paths the owner polls: the service thread takes their traffic while we sleep */
	for (int p = 0; p < RNIC_PATH_COUNT && !waiting; p++)
		if (rnic_paths[p]->arm != NULL && __atomic_load_n(&ep->path_qps[p], __ATOMIC_SEQ_CST) != 0 &&
		    rnic_paths[p]->arm(ep))
			waiting = true;
	return waiting;
}

int rnic_ep_wait_fd(struct softhw_rnic_ep *e)
{
	return rnic_ep_of(e)->wait_fd;
}

void rnic_ep_owner_wait(struct softhw_rnic_ep *e)
{
	struct rnic_ep *ep = rnic_ep_of(e);

	if (ep->wait_fd < 0)
		return;
	softhw_lock(&ep->qps_lock);
	if (!ep->owner_waits) {
		__atomic_store_n(&ep->owner_waits, true, __ATOMIC_RELEASE);
		RNIC_PATHS_EACH(owner_wait, ep, true);
	}
	softhw_unlock(&ep->qps_lock);
}

void rnic_ep_serve(struct softhw_rnic_ep *e)
{
	struct rnic_ep *ep = rnic_ep_of(e);

	if (ep->wait_fd < 0)
		return;
	RNIC_PATHS_EACH(serve, ep);
	if (__atomic_load_n(&ep->owner_waits, __ATOMIC_ACQUIRE))
		owner_awake(ep); /* the owner is up: its next poll takes what comes */
}

/* Copies a receive's work request into r (whose sgl has room for num_sge). */
static void recv_set(struct rnic_recv *r, uint64_t wr_id, const struct softhw_rnic_sge *sgl, uint32_t num_sge)
{
	r->next = NULL;
	r->wr_id = wr_id;
	r->num_sge = num_sge;
	r->bytes = 0;
	for (uint32_t i = 0; i < num_sge; i++) {
		r->sgl[i] = sgl[i];
		r->bytes += sgl[i].len;
	}
}

/* ep lock held */
static void recv_append(struct rnic_ep *ep, struct rnic_recv *r)
{
	if (ep->rq_tail != NULL)
		ep->rq_tail->next = r;
	else
		ep->rq_head = r;
	ep->rq_tail = r;
}

doca_error_t rnic_ep_post_recv(struct softhw_rnic_ep *e, uint64_t wr_id, const struct softhw_rnic_sge *sgl,
				 uint32_t num_sge)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	struct rnic_recv *r;
	bool queued = false;

	/*
	 * The usual case, under one lock: a receive off the free list (its gather list back inline,
	 * rnic_ep_recv_done) with a gather list that fits there. A receive reposted per message
	 * (an NVMe-oF host's response, a target's capsule) takes the lock once, not twice.
	 */
	softhw_lock(&ep->lock);
	r = ep->free_recvs;
	if (r != NULL)
		ep->free_recvs = r->next;
	if (r != NULL && num_sge <= RNIC_INLINE_SGE) {
		recv_set(r, wr_id, sgl, num_sge);
		recv_append(ep, r);
		queued = true;
	}
	softhw_unlock(&ep->lock);
	if (!queued) {
		if (r == NULL) {
			r = calloc(1, sizeof(*r));
			if (r == NULL)
				return DOCA_ERROR_NO_MEMORY;
			r->sgl = r->sgl_inline;
		}
		if (num_sge > RNIC_INLINE_SGE) {
			struct softhw_rnic_sge *heap = malloc(num_sge * sizeof(*heap));

			if (heap == NULL) {
				free(r); /* (off every list; its gather list is the inline one) */
				return DOCA_ERROR_NO_MEMORY;
			}
			r->sgl = heap;
		}
		recv_set(r, wr_id, sgl, num_sge);
		softhw_lock(&ep->lock);
		recv_append(ep, r);
		softhw_unlock(&ep->lock);
	}
	/* A message waiting for a receive (receiver not ready) can go on now. */
	if (__atomic_load_n(&ep->rnr_waiting, __ATOMIC_ACQUIRE) != 0) {
		rnic_nic_kick();
		RNIC_PATHS_EACH(recv_posted, ep);
	}
	return DOCA_SUCCESS;
}

struct rnic_recv *rnic_ep_take_recv(struct rnic_ep *ep)
{
	struct rnic_recv *r;

	softhw_lock(&ep->lock);
	r = ep->rq_head;
	if (r != NULL) {
		ep->rq_head = r->next;
		if (ep->rq_head == NULL)
			ep->rq_tail = NULL;
	}
	softhw_unlock(&ep->lock);
	return r;
}

void rnic_ep_recv_done(struct rnic_ep *ep, struct rnic_qp *qp, struct rnic_recv *r, doca_error_t status,
		       enum softhw_rnic_opcode recv_op, uint64_t len, uint32_t imm)
{
	struct softhw_rnic_cqe c = {
		.kind = SOFTHW_RNIC_CQE_WR,
		.qp = (struct softhw_rnic_qp *)qp,
		.qp_user = qp != NULL ? qp->user : NULL,
		.wr_id = r->wr_id,
		.op = SOFTHW_RNIC_OP_RECV,
		.recv_op = recv_op,
		.status = status,
		.len = len,
		.imm = imm,
	};

	rnic_ep_push(ep, &c);
	if (r->sgl != r->sgl_inline)
		free(r->sgl);
	r->sgl = r->sgl_inline;
	softhw_lock(&ep->lock); /* (the free list: the service thread takes from it too) */
	r->next = ep->free_recvs;
	ep->free_recvs = r;
	softhw_unlock(&ep->lock);
}

void rnic_ep_flush_recv(struct softhw_rnic_ep *e, doca_error_t status)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	struct rnic_recv *r;

	while ((r = rnic_ep_take_recv(ep)) != NULL)
		rnic_ep_recv_done(ep, NULL, r, status, SOFTHW_RNIC_OP_SEND, 0, 0);
}

/*
 * Drops the CQEs of qp from the ring q[head .. head + count) (cap slots), in place and in
 * order; returns how many stay. A receive stays the owner's to complete: only its qp is gone.
 */
static uint32_t cq_forget(struct softhw_rnic_cqe *q, uint32_t head, uint32_t count, uint32_t cap,
			  const struct rnic_qp *qp)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < count; i++) {
		struct softhw_rnic_cqe c = q[(head + i) % cap];

		if (c.qp == (const struct softhw_rnic_qp *)qp) {
			if (c.op != SOFTHW_RNIC_OP_RECV || c.kind != SOFTHW_RNIC_CQE_WR)
				continue;
			c.qp = NULL;
			c.qp_user = NULL;
		}
		q[(head + kept++) % cap] = c;
	}
	return kept;
}

void rnic_ep_forget_shared(struct rnic_ep *ep, const struct rnic_qp *qp)
{
	softhw_lock(&ep->lock);
	ep->cq_count = cq_forget(ep->cq, ep->cq_head, ep->cq_count, ep->cq_cap, qp);
	__atomic_store_n(&ep->cq_avail, ep->cq_count, __ATOMIC_RELEASE);
	softhw_unlock(&ep->lock);
}

void rnic_ep_forget_qp(struct rnic_ep *ep, const struct rnic_qp *qp)
{
	/* the owner's lane (the owner calls this), then the locked CQ */
	ep->own_count = cq_forget(ep->own, ep->own_head, ep->own_count, RNIC_OWN_CQ, qp);
	rnic_ep_forget_shared(ep, qp);
}
