/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An RDMA context whose datapath is on a DPA (doca_ctx_set_datapath_on_dpa, docs/dpa.md).
 *
 * Device code posts through the DPA's host callbacks, which find this context by its DPA
 * handle (the soft DPA's handle table) and call drdma_dpa_post on the EU. Completions of the
 * endpoint are not taken by a progress engine: the endpoint stays armed, and its notify
 * queues a poll job on the DPA's EUs, which moves every CQE into the DPA completion context
 * attached to the context (doca_rdma_dpa_completion_attach); that activates its DPA thread.
 * Nothing polls while nothing happens.
 *
 * The soft NIC expects one caller at a time per endpoint: `lock` serialises the EUs' posts,
 * the poll job and the host's export / connect / stop.
 *
 * Small sends and writes are inline: their payload (up to INLINE_MAX bytes) is copied into a
 * slot of the context when posted, as a NIC copies an inline send into its work queue, so the
 * source may change as soon as the post returns (NVIDIA's dpa_initiator_target counts on it).
 * The slot is free again when the work request completes; with none free, the NIC reads the
 * source later. An atomic's fetched value lands in a slot (the device call has no buffer).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_priv.h"
#include "common/priv/dpa_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(RDMA_DPA);

#define INLINE_MAX 64
#define INLINE_SLOTS 256 /* a power of two: slot = work request index % INLINE_SLOTS */

struct inline_slot {
	uint8_t data[INLINE_MAX];
	bool busy; /* under the lock */
};

struct drdma_dpa {
	struct softdoca_dpa_rdma base;   /* first: the object behind the DPA handle */
	struct softhw_dpa_job poll_job;  /* one poll of the endpoint on an EU */
	struct doca_rdma *rdma;
	pthread_mutex_t lock;            /* every NIC call of the endpoint (recursive) */
	uint64_t handle;                 /* 0: none yet */
	uint32_t active;                 /* atomic: the poll job is queued or running */
	uint32_t pending;                /* atomic: notified meanwhile */
	uint32_t stopping;               /* atomic: no more polls */
	uint32_t stopped;                /* flag: the last poll is over */
	uint32_t next_wr;                /* work request index */
	struct inline_slot *slots;       /* INLINE_SLOTS, allocated at start */
};

static const struct softhw_dpa_ops *hw_of(const struct doca_rdma *rdma)
{
	return softdoca_dpa_base(rdma->ctx.dpa)->dev->dpa;
}

static struct softhw_dpa *hwdpa_of(const struct doca_rdma *rdma)
{
	return softdoca_dpa_base(rdma->ctx.dpa)->hw;
}

/* wr_id of a send: connection id, flags, inline bit and index */
#define WR_INLINE (1U << 23)
static uint64_t send_wr_id(uint32_t conn_id, uint32_t flags, bool inl, uint32_t index)
{
	return ((uint64_t)conn_id << 32) | ((uint64_t)(flags & 0xff) << 24) | (inl ? WR_INLINE : 0) |
	       (index & 0x7fffff);
}

/* ---- completions: NIC CQE -> DPA completion element ---- */

/* Under the lock (the poll job holds it). */
static void push_cqe(struct doca_rdma *rdma, const struct softhw_rnic_cqe *cqe)
{
	struct softdoca_dpa_comp_base *comp = (struct softdoca_dpa_comp_base *)rdma->dpa_comp;
	struct softdoca_dpa_comp_elem e = {0};
	bool ok = cqe->status == DOCA_SUCCESS;

	if (cqe->op != SOFTHW_RNIC_OP_RECV && (cqe->wr_id & WR_INLINE))
		rdma->dpa->slots[(cqe->wr_id & 0x7fffff) % INLINE_SLOTS].busy = false;
	if (cqe->status == SOFTDOCA_FLUSH_STATUS)
		return; /* flushed by a stop (ours or the peer's): nobody waits for it */
	if (cqe->op == SOFTHW_RNIC_OP_RECV) {
		const struct doca_rdma_connection *c = cqe->qp_user;

		e.type = !ok ? SOFTDOCA_DPA_COMP_RECV_ERR :
			 cqe->recv_op == SOFTHW_RNIC_OP_SEND_IMM ? SOFTDOCA_DPA_COMP_RECV_SEND_IMM :
			 cqe->recv_op == SOFTHW_RNIC_OP_WRITE_IMM ? SOFTDOCA_DPA_COMP_RECV_RDMA_WRITE_IMM :
								    SOFTDOCA_DPA_COMP_RECV_SEND;
		e.user_data = c != NULL && drdma_conn_belongs(rdma, c) ? c->id : 0;
		e.imm = cqe->imm;
		e.bytes = (uint32_t)cqe->len;
		e.wr_index = (uint32_t)cqe->wr_id;
	} else {
		uint32_t flags = (uint32_t)(cqe->wr_id >> 24) & 0xff;

		/* a reported-optimised send completes silently unless it fails [inferred] */
		if (ok && (flags & SOFTDOCA_DPA_SUBMIT_OPTIMIZE_REPORTS))
			return;
		e.type = ok ? SOFTDOCA_DPA_COMP_SEND : SOFTDOCA_DPA_COMP_SEND_ERR;
		e.user_data = (uint32_t)(cqe->wr_id >> 32);
		e.wr_index = (uint32_t)cqe->wr_id & 0x7fffff;
		e.opcode = cqe->op;
	}
	e.syndrome = (uint32_t)cqe->status;
	if (!ok)
		SDK_LOG_ERR("RDMA work request of a DPA datapath failed: %s", doca_error_get_descr(cqe->status));
	comp->push(comp, &e);
}

/* ---- the poll job ---- */

static void poll_schedule(struct drdma_dpa *d);

static void poll_run(struct softhw_dpa_job *job, unsigned int rank)
{
	struct drdma_dpa *d = (struct drdma_dpa *)((char *)job - offsetof(struct drdma_dpa, poll_job));
	struct doca_rdma *rdma = d->rdma;
	const struct softhw_rnic_ops *nic = drdma_nic(rdma);
	struct softhw_rnic_cqe cqes[32];

	(void)rank;
	pthread_mutex_lock(&d->lock);
	while (rdma->ep != NULL && !__atomic_load_n(&d->stopping, __ATOMIC_SEQ_CST)) {
		int n = nic->ep_poll(rdma->ep, cqes, (int)(sizeof(cqes) / sizeof(cqes[0])));

		for (int i = 0; i < n; i++) {
			if (cqes[i].kind == SOFTHW_RNIC_CQE_WR)
				push_cqe(rdma, &cqes[i]);
			else
				drdma_conn_event(rdma, &cqes[i]);
		}
		/* armed with nothing waiting: the next CQE notifies (poll_notify) */
		if (n == 0 && !nic->ep_arm(rdma->ep))
			break;
	}
	pthread_mutex_unlock(&d->lock);
}

static void poll_done(struct softhw_dpa_job *job, doca_error_t status)
{
	struct drdma_dpa *d = (struct drdma_dpa *)((char *)job - offsetof(struct drdma_dpa, poll_job));

	(void)status;
	__atomic_store_n(&d->active, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&d->stopping, __ATOMIC_SEQ_CST)) {
		hw_of(d->rdma)->flag_raise(hwdpa_of(d->rdma), &d->stopped);
		return;
	}
	if (__atomic_exchange_n(&d->pending, 0, __ATOMIC_SEQ_CST))
		poll_schedule(d);
}

/* One poll job at a time; a notification meanwhile makes one more. */
static void poll_schedule(struct drdma_dpa *d)
{
	uint32_t idle = 0;

	__atomic_store_n(&d->pending, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&d->stopping, __ATOMIC_SEQ_CST) ||
	    !__atomic_compare_exchange_n(&d->active, &idle, 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	__atomic_store_n(&d->pending, 0, __ATOMIC_SEQ_CST);
	d->poll_job.run = poll_run;
	d->poll_job.done = poll_done;
	d->poll_job.num_ranks = 1;
	/* the DPA thread a completion activates runs next on this EU: no second wake-up */
	d->poll_job.hand_off = true;
	d->poll_job.wait_value = NULL;
	d->poll_job.comp_value = NULL;
	hw_of(d->rdma)->submit(hwdpa_of(d->rdma), &d->poll_job);
}

/* The endpoint's notify (any thread, possibly inside one of our own NIC calls): never blocks. */
static void poll_notify(void *arg)
{
	poll_schedule(arg);
}

/* ---- posting (on an EU, from the DPA's host callbacks) ---- */

static enum softhw_rnic_opcode rnic_op(uint32_t op)
{
	switch (op) {
	case SOFTDOCA_DPA_RDMA_SEND_IMM:
		return SOFTHW_RNIC_OP_SEND_IMM;
	case SOFTDOCA_DPA_RDMA_WRITE:
		return SOFTHW_RNIC_OP_WRITE;
	case SOFTDOCA_DPA_RDMA_WRITE_IMM:
		return SOFTHW_RNIC_OP_WRITE_IMM;
	case SOFTDOCA_DPA_RDMA_READ:
		return SOFTHW_RNIC_OP_READ;
	case SOFTDOCA_DPA_RDMA_FETCH_ADD:
		return SOFTHW_RNIC_OP_FETCH_ADD;
	case SOFTDOCA_DPA_RDMA_SIGNAL_SET:
		return SOFTHW_RNIC_OP_SE_SET;
	case SOFTDOCA_DPA_RDMA_SIGNAL_ADD:
		return SOFTHW_RNIC_OP_SE_ADD;
	}
	return SOFTHW_RNIC_OP_SEND;
}

/*
 * After a post, under the lock: arm again, so that the endpoint also watches what this post
 * started (a message waiting for its acknowledgement); if something is already there, poll.
 */
static void rearm(struct drdma_dpa *d)
{
	if (drdma_nic(d->rdma)->ep_arm(d->rdma->ep))
		poll_schedule(d);
}

static struct doca_rdma_connection *find_conn(struct doca_rdma *rdma, uint32_t id)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

static doca_error_t dpa_post(struct softdoca_dpa_rdma *r, const struct softdoca_dpa_rdma_wr *wr, char *why,
			     size_t why_len)
{
	struct drdma_dpa *d = (struct drdma_dpa *)r;
	struct doca_rdma *rdma = d->rdma;
	struct softhw_rnic_sge sge = {.addr = wr->local, .len = wr->length};
	struct softhw_rnic_wr nwr = {.sgl = &sge, .num_sge = 1};
	struct doca_rdma_connection *c;
	struct inline_slot *slot;
	uint32_t index;
	doca_error_t err;
	bool inl, no_local;

	pthread_mutex_lock(&d->lock);
	if (rdma->ep == NULL || __atomic_load_n(&d->stopping, __ATOMIC_SEQ_CST)) {
		pthread_mutex_unlock(&d->lock);
		snprintf(why, why_len, "the RDMA context is stopped");
		return DOCA_ERROR_BAD_STATE;
	}
	if (wr->op == SOFTDOCA_DPA_RDMA_RECV) {
		uint32_t index = d->next_wr++;

		err = drdma_nic(rdma)->ep_post_recv(rdma->ep, index, &sge, 1);
		rearm(d);
		pthread_mutex_unlock(&d->lock);
		if (err != DOCA_SUCCESS)
			snprintf(why, why_len, "the NIC could not post the receive: %s", doca_error_get_descr(err));
		return err;
	}
	c = find_conn(rdma, wr->connection_id);
	if (c == NULL || c->qp == NULL || c->state == DRDMA_CONN_FAILED || c->state == DRDMA_CONN_DISCONNECTED) {
		pthread_mutex_unlock(&d->lock);
		snprintf(why, why_len,
			 c == NULL ? "connection id %u is not a connection of this RDMA context "
				     "(doca_rdma_connection_get_id() of one it exported)" :
				     "connection %u is failed or disconnected",
			 wr->connection_id);
		return c == NULL ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_NOT_CONNECTED;
	}
	nwr.op = rnic_op(wr->op);
	nwr.imm = wr->imm;
	nwr.arg0 = wr->value;
	if (wr->op != SOFTDOCA_DPA_RDMA_SEND && wr->op != SOFTDOCA_DPA_RDMA_SEND_IMM)
		nwr.rkey = (struct softhw_rnic_rkey){.pid = wr->remote_pid, .id = wr->remote_id,
						     .token = wr->remote_token, .addr = wr->remote_addr,
						     .len = wr->length};
	index = d->next_wr++ & 0x7fffff;
	slot = &d->slots[index % INLINE_SLOTS];
	/*
	 * What the NIC reads from local memory is taken now; the old value an atomic (or a signal
	 * add) fetches lands in the slot: those device calls have no local buffer.
	 */
	no_local = wr->local == NULL;
	inl = !slot->busy && (no_local || (wr->op != SOFTDOCA_DPA_RDMA_READ && wr->length <= INLINE_MAX));
	if (inl) {
		if (!no_local)
			memcpy(slot->data, wr->local, wr->length);
		sge.addr = slot->data;
		slot->busy = true;
	} else if (no_local) {
		pthread_mutex_unlock(&d->lock);
		snprintf(why, why_len, "%u work requests are in flight on this RDMA context already", INLINE_SLOTS);
		return DOCA_ERROR_FULL;
	}
	if (wr->op == SOFTDOCA_DPA_RDMA_SIGNAL_SET)
		nwr.num_sge = 0; /* the value travels in the work request */
	nwr.wr_id = send_wr_id(c->id, wr->flags, inl, index);
	err = drdma_nic(rdma)->qp_post(c->qp, &nwr);
	if (err != DOCA_SUCCESS && inl)
		slot->busy = false;
	rearm(d);
	pthread_mutex_unlock(&d->lock);
	if (err != DOCA_SUCCESS)
		snprintf(why, why_len, "connection %u: the NIC refused the work request: %s", c->id,
			 doca_error_get_descr(err));
	return err;
}

/* ---- host API and the context's start / stop ---- */

doca_error_t drdma_dpa_start(struct doca_rdma *rdma, struct softhw_rnic_ep_attr *attr)
{
	struct drdma_dpa *d;

	if (rdma->dpa_comp == NULL) {
		SDK_LOG_ERR("Failed to start RDMA context: its datapath is on a DPA but no DPA completion context is "
			    "attached; call doca_rdma_dpa_completion_attach() before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!((struct softdoca_dpa_comp_base *)rdma->dpa_comp)->started || hwdpa_of(rdma) == NULL) {
		SDK_LOG_ERR("Failed to start RDMA context: %s; start them before doca_ctx_start()",
			    hwdpa_of(rdma) == NULL ? "its DPA context is not started" :
						     "its DPA completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		SDK_LOG_ERR("Failed to start RDMA context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	d->slots = calloc(INLINE_SLOTS, sizeof(*d->slots));
	if (d->slots == NULL) {
		free(d);
		SDK_LOG_ERR("Failed to start RDMA context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	d->base.dpa = rdma->ctx.dpa;
	d->base.post = dpa_post;
	d->rdma = rdma;
	{
		/* recursive: a connection callback the poll job runs may call export / disconnect */
		pthread_mutexattr_t attr;

		pthread_mutexattr_init(&attr);
		pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
		pthread_mutex_init(&d->lock, &attr);
		pthread_mutexattr_destroy(&attr);
	}
	rdma->dpa = d;
	attr->notify = poll_notify;
	attr->notify_arg = d;
	return DOCA_SUCCESS;
}

/* The endpoint exists: arm it (a CQE that came already is taken by a first poll). */
void drdma_dpa_started(struct doca_rdma *rdma)
{
	poll_schedule(rdma->dpa);
}

void drdma_dpa_stop(struct doca_rdma *rdma)
{
	struct drdma_dpa *d = rdma->dpa;
	uint32_t idle = 0;

	if (d == NULL)
		return;
	if (d->handle != 0)
		hw_of(rdma)->handle_remove(hwdpa_of(rdma), d->handle);
	__atomic_store_n(&d->stopping, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_compare_exchange_n(&d->active, &idle, 2, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		hw_of(rdma)->flag_wait(hwdpa_of(rdma), &d->stopped);
}

void drdma_dpa_free(struct doca_rdma *rdma)
{
	if (rdma->dpa == NULL)
		return;
	pthread_mutex_destroy(&rdma->dpa->lock);
	free(rdma->dpa->slots);
	free(rdma->dpa);
	rdma->dpa = NULL;
}

void drdma_dpa_lock(struct doca_rdma *rdma)
{
	if (rdma->dpa != NULL)
		pthread_mutex_lock(&rdma->dpa->lock);
}

void drdma_dpa_unlock(struct doca_rdma *rdma)
{
	if (rdma->dpa != NULL)
		pthread_mutex_unlock(&rdma->dpa->lock);
}

doca_error_t doca_rdma_get_dpa_handle(struct doca_rdma *rdma, doca_dpa_dev_rdma_t *dpa_rdma)
{
	doca_error_t err;

	if (rdma == NULL || dpa_rdma == NULL) {
		SDK_LOG_ERR("doca_rdma_get_dpa_handle: %s is NULL", rdma == NULL ? "rdma" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rdma->ctx.dpa == NULL) {
		SDK_LOG_ERR("doca_rdma_get_dpa_handle: the RDMA context's datapath is on the CPU; call "
			    "doca_ctx_set_datapath_on_dpa() before doca_ctx_start() to post from the DPA");
		return DOCA_ERROR_BAD_STATE;
	}
	if (rdma->ctx.state != DOCA_CTX_STATE_RUNNING || rdma->dpa == NULL) {
		SDK_LOG_ERR("doca_rdma_get_dpa_handle: the RDMA context is %s; start it first",
			    softdoca_ctx_state_name(rdma->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	if (rdma->dpa->handle == 0) {
		err = hw_of(rdma)->handle_add(hwdpa_of(rdma), SOFTDOCA_DPA_HANDLE_RDMA, &rdma->dpa->base,
					      &rdma->dpa->handle);
		if (err != DOCA_SUCCESS) {
			SDK_LOG_ERR("doca_rdma_get_dpa_handle: %s", doca_error_get_descr(err));
			return err;
		}
	}
	*dpa_rdma = rdma->dpa->handle;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_dpa_completion_attach(struct doca_rdma *rdma, struct doca_dpa_completion *dpa_comp)
{
	struct softdoca_dpa_comp_base *comp = (struct softdoca_dpa_comp_base *)dpa_comp;

	if (rdma == NULL || dpa_comp == NULL) {
		SDK_LOG_ERR("doca_rdma_dpa_completion_attach: %s is NULL", rdma == NULL ? "rdma" : "dpa_comp");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (drdma_not_idle(rdma, "doca_rdma_dpa_completion_attach"))
		return DOCA_ERROR_BAD_STATE;
	if (rdma->ctx.dpa == NULL) {
		SDK_LOG_ERR("doca_rdma_dpa_completion_attach: the RDMA context's datapath is on the CPU; call "
			    "doca_ctx_set_datapath_on_dpa() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (comp->dpa != rdma->ctx.dpa) {
		SDK_LOG_ERR("doca_rdma_dpa_completion_attach: the completion context belongs to another DPA context "
			    "than the RDMA datapath's; create it on the doca_dpa given to doca_ctx_set_datapath_on_dpa()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rdma->dpa_comp != NULL)
		__atomic_fetch_sub(&((struct softdoca_dpa_comp_base *)rdma->dpa_comp)->users, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&comp->users, 1, __ATOMIC_SEQ_CST);
	rdma->dpa_comp = dpa_comp;
	return DOCA_SUCCESS;
}

/* At destroy: the completion context may go too. */
void drdma_dpa_detach(struct doca_rdma *rdma)
{
	if (rdma->dpa_comp != NULL)
		__atomic_fetch_sub(&((struct softdoca_dpa_comp_base *)rdma->dpa_comp)->users, 1, __ATOMIC_SEQ_CST);
	rdma->dpa_comp = NULL;
}
