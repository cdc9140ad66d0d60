/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A queue pair: its life (descriptor, dial or wait, handshake, failure, disconnect) and its
 * send queue. Work requests complete in post order when the target's answer arrives; a
 * failure flushes the rest and closes the connection (the peer sees it go), as a verbs QP in
 * error would stop answering. How the connection is made and carried is the connection
 * path's (rnic_conn_of(), path.h); this file names no transport.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/rnic/rnic_int.h"

SDK_LOG_REGISTER(SOFTHW_RNIC);

struct rnic_qp *rnic_qp_new(struct rnic_ep *ep, void *user)
{
	struct rnic_qp *qp = calloc(1, sizeof(*qp));

	if (qp == NULL)
		return NULL;
	softhw_bias_lock_init(&qp->lock);
	qp->ep = ep;
	qp->user = user;
	qp->token = softhw_token_new(); /* a dialer must name it: across hosts, the only proof it holds our descriptor */
	qp->next_seq = 1;
	qp->conn = rnic_conn_choose(ep);
	if (!rnic_conn_of(qp)->open(qp)) {
		free(qp);
		return NULL;
	}
	pthread_mutex_lock(&rnic_nic.lock);
	qp->id = ++rnic_nic.last_qp_id;
	qp->next_all = rnic_nic.qps;
	rnic_nic.qps = qp;
	softhw_lock(&ep->qps_lock);
	qp->next_ep = ep->qps;
	ep->qps = qp;
	softhw_unlock(&ep->qps_lock);
	pthread_mutex_unlock(&rnic_nic.lock);
	return qp;
}

static void wr_release(struct rnic_wr *wr)
{
	if (wr->sgl != wr->sgl_inline)
		free(wr->sgl);
	wr->sgl = wr->sgl_inline;
	if (wr->out.iov != wr->out.iov_inline)
		free(wr->out.iov);
	wr->out.iov = wr->out.iov_inline;
}

void rnic_qp_free(struct rnic_qp *qp)
{
	struct rnic_wr *lists[2] = {qp->wq_head, qp->free_wrs};

	RNIC_PATHS_EACH(flush, qp); /* ACKs still held go before the peer sees the connection close */
	rnic_cma_drop(qp);
	RNIC_PATHS_EACH(free, qp);
	for (int i = 0; i < 2; i++)
		while (lists[i] != NULL) {
			struct rnic_wr *wr = lists[i];

			lists[i] = wr->next;
			wr_release(wr);
			free(wr);
		}
	free(qp);
}

void rnic_qp_push_cqe(struct rnic_qp *qp, enum softhw_rnic_cqe_kind kind, doca_error_t status)
{
	struct softhw_rnic_cqe c = {
		.kind = kind, .qp = (struct softhw_rnic_qp *)qp, .qp_user = qp->user, .status = status};

	if (qp->hidden)
		return; /* the connection's events are its visible half's */
	rnic_ep_push(qp->ep, &c);
}

/* Pops the oldest work request and queues its completion (owner: from qp_post). qp lock held. */
static void complete_head(struct rnic_qp *qp, doca_error_t status, uint64_t len, bool owner)
{
	struct rnic_wr *wr = qp->wq_head;
	struct softhw_rnic_cqe c = {
		.kind = SOFTHW_RNIC_CQE_WR,
		.qp = (struct softhw_rnic_qp *)qp,
		.qp_user = qp->user,
		.wr_id = wr->wr_id,
		.op = wr->op,
		.status = status,
		.len = len,
	};

	qp->wq_head = wr->next;
	if (qp->wq_head == NULL)
		qp->wq_tail = NULL;
	if (qp->wq_next == wr)
		qp->wq_next = wr->next;
	if (wr->sent && wr->path < RNIC_PATH_COUNT && qp->inflight[wr->path] > 0)
		qp->inflight[wr->path]--;
	wr_release(wr);
	wr->next = qp->free_wrs;
	qp->free_wrs = wr;
	if (owner)
		rnic_ep_push_owner(qp->ep, &c);
	else
		rnic_ep_push(qp->ep, &c);
}

/* Ends the connection's use: no more frames, queued work completes with `flush`. qp lock held. */
static void qp_shut(struct rnic_qp *qp, enum rnic_qp_state state, doca_error_t flush)
{
	qp->state = state;
	qp->flush = flush;
	qp->deadline = 0;
	while (qp->wq_head != NULL)
		complete_head(qp, flush, 0, false);
	qp->wq_next = NULL;
	RNIC_PATHS_EACH(off, qp);
	memset(qp->inflight, 0, sizeof(qp->inflight));
	rnic_conn_of(qp)->shut(qp, flush); /* the service thread closes the connection */
}

void rnic_qp_fail(struct rnic_qp *qp, enum softhw_rnic_cqe_kind kind, doca_error_t status, doca_error_t flush)
{
	if (qp->state == QP_ERROR || qp->state == QP_CLOSED)
		return;
	qp_shut(qp, kind == SOFTHW_RNIC_CQE_DISCONNECTED ? QP_CLOSED : QP_ERROR, flush);
	rnic_qp_push_cqe(qp, kind, status);
}

/*
 * A work request the card's faults fail (faults.rdma_error): it completes with the error of a
 * transport that gave up on it (retries exhausted), whatever its path did, and the qp fails as
 * it would then. As there, the peer may have executed it: what is lost may be its ACK.
 */
static doca_error_t doom(const struct rnic_qp *qp)
{
	const struct softhw_faults *f = qp->ep->faults;

	/* (no ordinal: a queued request completes after later ones were counted) */
	SDK_LOG_WARN("RDMA work request fails on purpose with CONNECTION_ABORTED, as when the transport gives up on "
		     "it (%s = %u in the device configuration: every Nth)",
		     softhw_fault_key(SOFTHW_FAULT_RDMA_ERROR), f->every[SOFTHW_FAULT_RDMA_ERROR]);
	return DOCA_ERROR_CONNECTION_ABORTED;
}

/*
 * The card's faults cut the connection before this work request leaves (faults.disconnect), in
 * its turn: once the work posted before it completed. The service thread hangs up, as when a
 * path breaks, so both ends see what they see when the other process ends; what is queued, this
 * request first, completes flushed with CONNECTION_ABORTED.
 */
static void cut(struct rnic_qp *qp)
{
	SDK_LOG_WARN("RDMA connection cut on purpose before a work request leaves (%s = %u in the device "
		     "configuration: every Nth); its work completes flushed with CONNECTION_ABORTED",
		     softhw_fault_key(SOFTHW_FAULT_DISCONNECT), qp->ep->faults->every[SOFTHW_FAULT_DISCONNECT]);
	qp->broken = true;
	rnic_nic_kick();
}

void rnic_qp_complete_head(struct rnic_qp *qp, doca_error_t status, uint64_t len)
{
	if (qp->wq_head == NULL)
		return;
	if (qp->wq_head->doomed && status == DOCA_SUCCESS) {
		status = doom(qp);
		len = 0;
	}
	complete_head(qp, status, len, false);
	if (status != DOCA_SUCCESS) /* as verbs: the qp moves to error */
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, status, DOCA_ERROR_SHUTDOWN);
	else
		rnic_qp_pump(qp);
}

void rnic_qp_hangup(struct rnic_qp *qp)
{
	/*
	 * What the peer did on the other paths before it went counts, as the connection's bytes
	 * before its end do: messages it consumed are ACKs, messages it published are delivered.
	 */
	if (qp->state == QP_RTS && !qp->broken)
		RNIC_PATHS_EACH(pump, qp);
	RNIC_PATHS_EACH(close, qp); /* the connection's too: it closes its transport */
	qp->broken = false;
	switch (qp->state) {
	case QP_RTS:
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_DISCONNECTED, DOCA_ERROR_CONNECTION_ABORTED,
			     DOCA_ERROR_CONNECTION_ABORTED);
		break;
	case QP_DIALING:
	case QP_HANDSHAKE:
	case QP_REQUEST:
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_CONNECTION_ABORTED, DOCA_ERROR_CONNECTION_ABORTED);
		break;
	default:
		break;
	}
}

/* ---- sending work ---- */

/* The path that carries this wr: the first in the registry that wants it, else the connection. */
static int path_for(const struct rnic_qp *qp, const struct rnic_wr *wr)
{
	for (int p = 0; p < RNIC_PATH_COUNT; p++)
		if (rnic_paths[p]->wants != NULL && rnic_paths[p]->wants(qp, wr))
			return p;
	return qp->conn;
}

/* Work in flight on a path other than p. */
static bool other_inflight(const struct rnic_qp *qp, int p)
{
	for (int i = 0; i < RNIC_PATH_COUNT; i++)
		if (i != p && qp->inflight[i] > 0)
			return true;
	return false;
}

/*
 * RC order across paths: a wr goes on its path only when nothing is outstanding on another
 * path; otherwise it waits (in post order) until the other drained.
 */
void rnic_qp_pump(struct rnic_qp *qp)
{
	while (qp->state == QP_RTS && !qp->broken && qp->wq_next != NULL) { /* (broken: the hang-up comes) */
		struct rnic_wr *wr = qp->wq_next;
		int p = path_for(qp, wr);
		const struct rnic_path_ops *ops = rnic_paths[p];

		if (wr->cut) {
			if (wr == qp->wq_head) /* its turn: what was posted before it completed */
				cut(qp);
			break; /* (else the head's completion pumps again) */
		}
		if (other_inflight(qp, p)) {
			/*
			 * Waits for the other path's answers, which its owner may never poll for: the
			 * service thread keeps that path's time (msock: takes its ACKs when overdue).
			 */
			if (!qp->timed && rnic_qp_paths_timed(qp))
				rnic_nic_timed_add(qp);
			break;
		}
		if (qp->inflight[p] >= RNIC_INFLIGHT_MAX)
			break; /* answers first (a completion pumps again): the peer's unread ones stay bounded */
		if (ops->can_post != NULL && !ops->can_post(qp, wr)) {
			if (qp->inflight[p] == 0) {
				/* no room with nothing in flight: the peer broke the path; hang up */
				qp->broken = true;
				rnic_nic_kick();
			}
			break;
		}
		qp->wq_next = wr->next;
		wr->sent = true;
		wr->path = (uint8_t)p;
		qp->inflight[p]++;
		ops->post(qp, wr);
	}
}

void rnic_qp_established(struct rnic_qp *qp)
{
	qp->state = QP_RTS;
	qp->deadline = 0;
	if (qp->cm)
		rnic_qp_push_cqe(qp, SOFTHW_RNIC_CQE_ESTABLISHED, DOCA_SUCCESS);
	rnic_qp_pump(qp);
}

static struct rnic_wr *wr_get(struct rnic_qp *qp, uint32_t num_sge)
{
	struct rnic_wr *wr = qp->free_wrs;

	if (wr != NULL) {
		qp->free_wrs = wr->next;
	} else {
		wr = calloc(1, sizeof(*wr));
		if (wr == NULL)
			return NULL;
		wr->sgl = wr->sgl_inline;
		wr->out.iov = wr->out.iov_inline;
	}
	if (num_sge > RNIC_INLINE_SGE) {
		wr->sgl = malloc(num_sge * sizeof(*wr->sgl));
		wr->out.iov = malloc((num_sge + 1) * sizeof(*wr->out.iov));
		if (wr->sgl == NULL || wr->out.iov == NULL) {
			wr_release(wr);
			wr->next = qp->free_wrs;
			qp->free_wrs = wr;
			return NULL;
		}
	}
	return wr;
}

/* A queued copy of `in` (qp lock held); NULL when out of memory. */
static struct rnic_wr *wr_from(struct rnic_qp *qp, const struct softhw_rnic_wr *in, uint64_t seq, uint64_t bytes)
{
	struct rnic_wr *wr = wr_get(qp, in->num_sge);

	if (wr == NULL)
		return NULL;
	wr->next = NULL;
	wr->wr_id = in->wr_id;
	wr->op = in->op;
	wr->rkey = in->rkey;
	wr->imm = in->imm;
	wr->arg0 = in->arg0;
	wr->arg1 = in->arg1;
	wr->seq = seq;
	wr->num_sge = in->num_sge;
	wr->bytes = bytes;
	wr->sent = false;
	wr->cma = false;
	wr->path = RNIC_PATH_NONE;
	for (uint32_t i = 0; i < in->num_sge; i++)
		wr->sgl[i] = in->sgl[i];
	return wr;
}

doca_error_t rnic_qp_post(struct softhw_rnic_qp *q, const struct softhw_rnic_wr *in)
{
	struct rnic_qp *qp = rnic_qp_of(q);
	doca_error_t status;
	struct rnic_wr *wr;
	uint64_t bytes = 0, seq;
	bool wr_done, doomed = false, cutting = false;

	softhw_bias_lock_claim(&qp->lock); /* the posting thread (the PE's) takes it without a locked instruction */
	if ((qp->state == QP_ERROR || qp->state == QP_CLOSED) && qp->flush != DOCA_SUCCESS && !qp->hidden &&
	    !in->refuse_in_error) {
		/*
		 * Failed or hung up, and the owner may not have polled that yet: as on hardware, the
		 * work completes flushed, behind the end's own completions (a ready failure would
		 * overtake them).
		 */
		struct softhw_rnic_cqe c = {.kind = SOFTHW_RNIC_CQE_WR, .qp = q, .qp_user = qp->user, .wr_id = in->wr_id,
					    .op = in->op, .status = qp->flush};

		rnic_ep_push(qp->ep, &c);
		softhw_bias_unlock(&qp->lock);
		return DOCA_SUCCESS;
	}
	if (qp->state == QP_ERROR || qp->state == QP_CLOSED || qp->state == QP_REQUEST) {
		softhw_bias_unlock(&qp->lock);
		return DOCA_ERROR_NOT_CONNECTED;
	}
	for (uint32_t i = 0; i < in->num_sge; i++)
		bytes += in->sgl[i].len;
	seq = qp->next_seq++;
	if (qp->ep->faults != NULL) {
		doomed = softhw_fault_hit(qp->ep->faults, SOFTHW_FAULT_RDMA_ERROR);
		cutting = softhw_fault_hit(qp->ep->faults, SOFTHW_FAULT_DISCONNECT);
		/* now, when nothing older is outstanding; else when the older work completed (pump) */
		if (cutting && qp->state == QP_RTS && qp->wq_head == NULL) {
			if (!qp->broken)
				cut(qp);
			cutting = false;
		}
	}
	wr_done = !qp->broken && rnic_cma_try(qp, in, bytes, &status);
	if (wr_done && status == DOCA_SUCCESS && doomed)
		status = doom(qp); /* done, but reported as the transport's failure: the branch below */
	if (wr_done && status == DOCA_SUCCESS) {
		/* done already (nothing was queued before it), and no work request to queue and free */
		if (in->done_at_post != NULL && rnic_ep_owner_lane_empty(qp->ep)) {
			*in->done_at_post = true; /* nothing older waits to be polled: no CQE at all */
		} else {
			struct softhw_rnic_cqe c = {
				.kind = SOFTHW_RNIC_CQE_WR,
				.qp = q,
				.qp_user = qp->user,
				.wr_id = in->wr_id,
				.op = in->op,
				.status = status,
				.len = bytes,
			};

			rnic_ep_push_owner(qp->ep, &c); /* the completion straight to the owner's lane */
		}
		softhw_bias_unlock(&qp->lock);
		return DOCA_SUCCESS;
	}
	wr = wr_from(qp, in, seq, bytes);
	if (wr == NULL) {
		softhw_bias_unlock(&qp->lock);
		return DOCA_ERROR_NO_MEMORY;
	}
	wr->doomed = doomed && !wr_done;
	wr->cut = cutting;
	if (wr_done) {
		/* the direct path failed: that fails the qp, behind this request's completion */
		wr->sent = wr->cma = true;
		qp->wq_head = qp->wq_tail = wr;
		rnic_qp_complete_head(qp, status, 0);
		softhw_bias_unlock(&qp->lock);
		return DOCA_SUCCESS;
	}
	if (qp->wq_tail != NULL)
		qp->wq_tail->next = wr;
	else
		qp->wq_head = wr;
	qp->wq_tail = wr;
	if (qp->wq_next == NULL)
		qp->wq_next = wr;
	if (qp->state == QP_RTS) {
		rnic_qp_pump(qp);
	} else if (qp->state == QP_WAITING && qp->deadline == 0 && (qp->wait_ms = rnic_wait_peer_ms()) != 0) {
		qp->deadline = rnic_now_ms() + qp->wait_ms; /* the peer that should dial us may never */
		rnic_nic_timed_add(qp);
	}
	softhw_bias_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

/* ---- connecting ---- */

doca_error_t rnic_qp_create(struct softhw_rnic_ep *e, void *user, struct softhw_rnic_qp **out)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	struct rnic_qp *qp;
	struct rnic_peer self;

	if (ep == NULL || out == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	qp = rnic_qp_new(ep, user);
	if (qp == NULL)
		return DOCA_ERROR_NO_MEMORY;
	qp->own = true;
	qp->next_own = ep->own_qps;
	ep->own_qps = qp;
	rnic_self_peer(ep, qp, &self);
	rnic_desc_encode(&self, qp->desc);
	*out = (struct softhw_rnic_qp *)qp;
	return DOCA_SUCCESS;
}

uint32_t rnic_qp_wire_num(struct softhw_rnic_qp *q)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	if (qp == NULL || rnic_conn_of(qp)->wire_qpn == NULL)
		return 0;
	return rnic_conn_of(qp)->wire_qpn(qp);
}

uint8_t rnic_port_mtu_log(const struct softhw_function *fn)
{
	for (int i = 0; i < RNIC_PATH_COUNT; i++) {
		uint8_t v = rnic_paths[i]->port_mtu_log != NULL ? rnic_paths[i]->port_mtu_log(fn) : 0;

		if (v != 0)
			return v;
	}
	return 10; /* 1024: what a 1500-byte Ethernet link gives (the soft NIC's own paths have no MTU) */
}

doca_error_t rnic_qp_wire_rtr(struct softhw_rnic_qp *q, const struct softhw_rnic_wire_rtr *a)
{
	struct rnic_qp *qp = rnic_qp_of(q);
	doca_error_t err;

	if (qp == NULL || a == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (rnic_conn_of(qp)->wire_rtr == NULL) {
		SDK_LOG_ERR("Failed to connect queue pair by address and QPN: the %s path has no addresses on the wire; give the card 'wire = rocev2' in the device configuration, or connect through RDMA-CM",
			    rnic_conn_of(qp)->name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	softhw_bias_lock(&qp->lock);
	if (qp->state != QP_IDLE || qp->cm || qp->has_desc || qp->has_peer) {
		softhw_bias_unlock(&qp->lock);
		SDK_LOG_ERR("Failed to connect queue pair by address and QPN: it is connected or connecting already");
		return DOCA_ERROR_BAD_STATE;
	}
	err = rnic_conn_of(qp)->wire_rtr(qp, a);
	softhw_bias_unlock(&qp->lock);
	return err;
}

doca_error_t rnic_qp_wire_rts(struct softhw_rnic_qp *q, const struct softhw_rnic_wire_rts *a)
{
	struct rnic_qp *qp = rnic_qp_of(q);
	doca_error_t err;

	if (qp == NULL || a == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (rnic_conn_of(qp)->wire_rts == NULL)
		return DOCA_ERROR_NOT_SUPPORTED;
	softhw_bias_lock(&qp->lock);
	err = rnic_conn_of(qp)->wire_rts(qp, a);
	softhw_bias_unlock(&qp->lock);
	return err;
}

doca_error_t rnic_qp_wire_reset(struct softhw_rnic_qp *q)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	if (qp == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (rnic_conn_of(qp)->wire_reset == NULL)
		return DOCA_ERROR_NOT_SUPPORTED;
	softhw_bias_lock(&qp->lock);
	if (qp->cm || qp->has_desc || qp->dead) {
		softhw_bias_unlock(&qp->lock);
		SDK_LOG_ERR("Failed to reset queue pair: it was connected through RDMA-CM or a descriptor, not by address and QPN");
		return DOCA_ERROR_BAD_STATE;
	}
	if (qp->state != QP_IDLE && qp->state != QP_ERROR && qp->state != QP_CLOSED)
		qp_shut(qp, QP_CLOSED, DOCA_ERROR_SHUTDOWN);
	RNIC_PATHS_EACH(close, qp); /* the engine goes, without a word to the peer (as a RESET on hardware) */
	rnic_conn_of(qp)->wire_reset(qp);
	qp->state = QP_IDLE;
	qp->has_peer = qp->local = qp->broken = false;
	qp->deadline = 0;
	memset(&qp->peer, 0, sizeof(qp->peer));
	qp->direct = 0;
	softhw_bias_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

doca_error_t rnic_qp_export(struct softhw_rnic_qp *q, const void **blob, size_t *len)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	if (qp == NULL || blob == NULL || len == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*blob = qp->desc;
	*len = sizeof(qp->desc);
	return DOCA_SUCCESS;
}


/* Which side dials an RC connection: the smaller (host, pid, qp id). */
static bool we_dial(const struct rnic_qp *qp)
{
	const struct rnic_host *me = &rnic_nic.host, *them = &qp->peer.host;
	int c = memcmp(me->boot_id, them->boot_id, sizeof(me->boot_id));

	if (qp->ep->attr.dc || qp->peer.dc)
		return true; /* DC: the connecting side always dials */
	if (c != 0)
		return c < 0;
	if (me->netns != them->netns)
		return me->netns < them->netns;
	if (getpid() != qp->peer.pid)
		return getpid() < qp->peer.pid;
	return qp->id < qp->peer.qp_id;
}

/*
 * A queue pair given its own descriptor: a loopback RC connection, which hardware allows
 * (NVIDIA's dpa_all_to_all connects every rank to itself). Its responder half is a hidden queue
 * pair of the same ep with the same user, so what arrives completes on the same connection; the
 * two connect as any two queue pairs of one process do, through the process's own listener.
 */
static doca_error_t connect_self(struct rnic_qp *qp)
{
	struct softhw_rnic_qp *m = NULL;
	struct rnic_qp *half;
	doca_error_t err;
	bool busy;

	softhw_bias_lock(&qp->lock);
	busy = qp->mirror != NULL || qp->has_desc || qp->has_peer || qp->cm || qp->state != QP_IDLE;
	softhw_bias_unlock(&qp->lock);
	if (busy)
		return DOCA_ERROR_BAD_STATE;
	err = rnic_qp_create((struct softhw_rnic_ep *)qp->ep, qp->user, &m);
	if (err != DOCA_SUCCESS)
		return err;
	half = rnic_qp_of(m);
	half->hidden = true;
	err = rnic_qp_connect(m, qp->desc, sizeof(qp->desc));
	if (err == DOCA_SUCCESS)
		err = rnic_qp_connect((struct softhw_rnic_qp *)qp, half->desc, sizeof(half->desc));
	if (err != DOCA_SUCCESS) {
		rnic_qp_destroy(m);
		return err;
	}
	qp->mirror = half;
	return DOCA_SUCCESS;
}

doca_error_t rnic_qp_connect(struct softhw_rnic_qp *q, const void *blob, size_t len)
{
	struct rnic_qp *qp = rnic_qp_of(q);
	struct rnic_peer peer;
	const char *why = "";
	doca_error_t err = rnic_desc_decode(blob, len, &peer, &why);
	bool dial;

	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to connect RDMA queue pair: the remote connection descriptor is invalid (%s); pass the bytes doca_rdma_export() returned on the peer, unchanged",
			    why);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (peer.wire != rnic_conn_of(qp)->wire) {
		SDK_LOG_ERR("Failed to connect RDMA queue pair: the remote connection descriptor is of a queue pair on the %s path, this one's card uses the %s path; give both cards the same 'wire =' in the device configuration",
			    rnic_wire_name(peer.wire), rnic_conn_of(qp)->name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (peer.qp_id == qp->id && peer.qp_token == qp->token && peer.pid == getpid() &&
	    rnic_same_host(&rnic_nic.host, &peer.host) && !rnic_conn_of(qp)->symmetric && !qp->ep->attr.dc)
		return connect_self(qp);
	softhw_bias_lock(&qp->lock);
	if (qp->has_desc || qp->cm) {
		softhw_bias_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	if (qp->has_peer) {
		/* the peer dialed in before we were given its descriptor: it must be the same one */
		bool ok = rnic_same_peer(&qp->peer, &peer);

		if (ok)
			qp->has_desc = true;
		softhw_bias_unlock(&qp->lock);
		if (!ok)
			SDK_LOG_ERR("Failed to connect RDMA queue pair: another peer is connected to it already; pass the descriptor of the peer that connected");
		return ok ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->state != QP_IDLE) {
		softhw_bias_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	qp->peer = peer;
	qp->has_peer = qp->has_desc = true;
	qp->local = rnic_same_host(&rnic_nic.host, &peer.host);
	dial = rnic_conn_of(qp)->symmetric || we_dial(qp);
	qp->dialer = dial;
	qp->state = dial ? QP_DIALING : QP_WAITING;
	if (dial)
		qp->deadline = rnic_now_ms() + RNIC_DIAL_TIMEOUT_MS;
	softhw_bias_unlock(&qp->lock);
	if (dial) {
		pthread_mutex_lock(&rnic_nic.lock);
		qp->next_ctl = rnic_nic.dials;
		rnic_nic.dials = qp;
		pthread_mutex_unlock(&rnic_nic.lock);
		rnic_nic_kick();
	}
	return DOCA_SUCCESS;
}

bool rnic_qp_answered(struct rnic_qp *qp, const struct rnic_peer *peer, uint16_t flags)
{
	qp->peer = *peer;
	qp->has_peer = true;
	qp->local = rnic_same_host(&rnic_nic.host, &peer->host);
	for (int p = 0; p < RNIC_PATH_COUNT; p++)
		if (rnic_paths[p]->join != NULL && !rnic_paths[p]->join(qp, flags))
			return false; /* the acceptor uses that path already: without it we cannot talk */
	rnic_qp_established(qp);
	if (qp->state == QP_RTS)
		RNIC_PATHS_EACH(dialed, qp); /* a path that opens a connection of its own */
	return true;
}

struct rnic_qp *rnic_qp_accepting(uint8_t conn, const struct rnic_hello *h, const struct sockaddr_storage *from,
				  doca_error_t *refusal)
{
	static struct softhw_ratelimit rl_unknown, rl_token, rl_failed;
	struct rnic_qp *qp;
	char who[80];
	bool ok;

	*refusal = DOCA_ERROR_NOT_PERMITTED; /* what an unknown qp or a wrong token gets: nothing more */
	pthread_mutex_lock(&rnic_nic.lock);
	qp = rnic_qp_find(h->want_id);
	if (qp == NULL) {
		pthread_mutex_unlock(&rnic_nic.lock);
		rnic_peer_name(from, h, who, sizeof(who));
		SOFTHW_LOG_LIMITED(&rl_unknown, SDK_LOG_WARN,
				   "RDMA: %s asked for queue pair %llu, which does not exist (destroyed?); connection dropped",
				   who, (unsigned long long)h->want_id);
		return NULL;
	}
	softhw_bias_lock(&qp->lock);
	pthread_mutex_unlock(&rnic_nic.lock);
	if (qp->token != h->want_token) {
		/* Only a holder of the qp's descriptor knows the token: anyone else gets nothing. */
		softhw_bias_unlock(&qp->lock);
		rnic_peer_name(from, h, who, sizeof(who));
		SOFTHW_LOG_LIMITED(&rl_token, SDK_LOG_ERR,
				   "RDMA: %s named queue pair %llu with a wrong token (it does not hold the qp's descriptor); connection dropped",
				   who, (unsigned long long)h->want_id);
		return NULL;
	}
	if (!qp->dead && !qp->cm && (qp->state == QP_ERROR || qp->state == QP_CLOSED)) {
		/* the holder of its descriptor came too late (it gave up waiting, or was disconnected) */
		softhw_bias_unlock(&qp->lock);
		rnic_peer_name(from, h, who, sizeof(who));
		SOFTHW_LOG_LIMITED(&rl_failed, SDK_LOG_ERR,
				   "RDMA: %s connected to queue pair %llu after it had failed or closed (waiting too long for "
				   "its peer?); refused: export and connect both sides again",
				   who, (unsigned long long)h->want_id);
		*refusal = DOCA_ERROR_CONNECTION_ABORTED;
		return NULL;
	}
	/* IDLE / WAITING: nobody is connected (an accepted dialer makes it RTS at once) */
	ok = !qp->dead && !qp->cm && qp->conn == conn && !rnic_conn_of(qp)->up(qp) &&
	     (qp->state == QP_IDLE || (qp->state == QP_WAITING && (qp->ep->attr.dc || rnic_same_peer(&qp->peer, &h->self))));
	if (!ok) {
		softhw_bias_unlock(&qp->lock);
		return NULL;
	}
	if (qp->state == QP_IDLE || qp->ep->attr.dc) {
		qp->peer = h->self;
		qp->has_peer = true;
	}
	qp->local = rnic_same_host(&rnic_nic.host, &h->self.host);
	qp->peer_addr = *from;
	return qp;
}

struct rnic_qp *rnic_qp_requested(struct rnic_ep *cm_ep, const struct rnic_hello *h, const struct sockaddr_storage *from)
{
	struct rnic_qp *qp = rnic_qp_new(cm_ep, NULL);

	if (qp == NULL)
		return NULL;
	softhw_bias_lock(&qp->lock);
	qp->cm = true;
	__atomic_fetch_add(&cm_ep->cm_qps, 1, __ATOMIC_RELEASE);
	qp->peer = h->self;
	qp->has_peer = true;
	qp->local = rnic_same_host(&rnic_nic.host, &h->self.host);
	qp->peer_addr = *from;
	qp->state = QP_REQUEST;
	rnic_qp_push_cqe(qp, SOFTHW_RNIC_CQE_REQUEST, DOCA_SUCCESS);
	return qp;
}

void rnic_qp_hangup_broken(struct rnic_qp *qp)
{
	if (qp->broken && rnic_conn_of(qp)->up(qp))
		rnic_qp_hangup(qp);
}

/* ---- ending ---- */

doca_error_t rnic_qp_disconnect(struct softhw_rnic_qp *q)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	if (qp->mirror != NULL)
		(void)rnic_qp_disconnect((struct softhw_rnic_qp *)qp->mirror);

	softhw_bias_lock(&qp->lock);
	if (qp->state == QP_RTS) {
		qp_shut(qp, QP_CLOSED, DOCA_ERROR_SHUTDOWN);
		rnic_conn_of(qp)->bye(qp); /* nothing if a frame was cut: the close says it */
	} else if (qp->state != QP_ERROR && qp->state != QP_CLOSED) {
		qp_shut(qp, QP_CLOSED, DOCA_ERROR_SHUTDOWN);
	}
	softhw_bias_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

void (*rnic_qp_destroy_hook)(struct rnic_ep *ep, const struct rnic_qp *freed);

void rnic_qp_destroy(struct softhw_rnic_qp *q)
{
	struct rnic_qp *qp = rnic_qp_of(q), *mirror;
	struct rnic_ep *ep;

	if (qp == NULL)
		return;
	ep = qp->ep;
	mirror = qp->mirror; /* (qp is the service thread's to free once it is in the graveyard) */
	for (struct rnic_qp **pp = &ep->own_qps; *pp != NULL; pp = &(*pp)->next_own)
		if (*pp == qp) {
			*pp = qp->next_own;
			break;
		}
	pthread_mutex_lock(&rnic_nic.lock);
	for (struct rnic_qp **pp = &rnic_nic.qps; *pp != NULL; pp = &(*pp)->next_all)
		if (*pp == qp) {
			*pp = qp->next_all;
			break;
		}
	softhw_lock(&ep->qps_lock);
	for (struct rnic_qp **pp = &ep->qps; *pp != NULL; pp = &(*pp)->next_ep)
		if (*pp == qp) {
			*pp = qp->next_ep;
			break;
		}
	/* after the unlisting, under qps_lock: a list built before it is built again before its next
	 * walk (rnic_ep_up_qps), and never holds it */
	rnic_ep_up_changed(ep);
	if (qp->cm)
		__atomic_fetch_sub(&ep->cm_qps, 1, __ATOMIC_RELEASE);
	softhw_unlock(&ep->qps_lock);
	softhw_bias_lock(&qp->lock);
	if (qp->state == QP_RTS)
		RNIC_PATHS_EACH(flush, qp); /* the ACKs of what we received count before the BYE or the close */
	if (qp->state == QP_RTS)
		rnic_conn_of(qp)->bye(qp); /* best effort: else the peer sees the connection close */
	qp->dead = true;
	softhw_bias_unlock(&qp->lock);
	/*
	 * Its CQEs go now, while its address is its own: once freed (by the service thread, which
	 * drops what it pushed meanwhile), the next qp may have it, and a walk after the free would
	 * drop that qp's CQEs (a new connection's request) too.
	 */
	rnic_ep_forget_qp(ep, qp);
	qp->next_ctl = rnic_nic.graveyard;
	rnic_nic.graveyard = qp;
	rnic_nic_reap_wait();
	pthread_mutex_unlock(&rnic_nic.lock);
	if (rnic_qp_destroy_hook != NULL) /* tests: qp is freed; a new one may have its address */
		rnic_qp_destroy_hook(ep, qp);
	if (mirror != NULL) /* after its visible half: whatever it says then is not heard */
		rnic_qp_destroy((struct softhw_rnic_qp *)mirror);
}

/*
 * A message found no posted receive: the first time, start the sender's retry clock (the
 * service thread keeps the time and retries on a posted receive); later, true once the
 * sender's retries are exhausted (NAK it). `stalled` and `deadline` belong to the path the
 * message waits on.
 */
bool rnic_rnr_exhausted(struct rnic_qp *qp, bool *stalled, uint64_t *deadline)
{
	uint64_t now = rnic_now_ms();

	if (!*stalled) {
		*stalled = true;
		*deadline = qp->peer.rnr_retry == RNIC_RNR_FOREVER
				    ? 0
				    : now + ((uint64_t)qp->peer.rnr_retry + 1) * RNIC_RNR_INTERVAL_MS;
		__atomic_fetch_add(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
		rnic_nic_kick();
		return false;
	}
	return *deadline != 0 && now >= *deadline;
}

void rnic_qp_log_broken_peer(const struct rnic_qp *qp, const char *path)
{
	SDK_LOG_ERR("RDMA connection to process %d dropped: the peer broke the rules of the connection's %s "
		    "(a corrupted record or counter); only this connection ends: check the peer process",
		    (int)qp->peer.pid, path);
}

void rnic_qp_log_unread(const struct rnic_qp *qp, const char *path)
{
	static struct softhw_ratelimit rl;

	SOFTHW_LOG_LIMITED(&rl, SDK_LOG_ERR,
			   "RDMA connection to process %d dropped: the peer keeps sending requests on the %s but does not "
			   "read their answers (%u wait); only this connection ends: check the peer process",
			   (int)qp->peer.pid, path, RNIC_ANSWERS_MAX);
}

void rnic_rnr_unstall(struct rnic_qp *qp, bool *stalled)
{
	if (*stalled) {
		*stalled = false;
		__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
	}
}

bool rnic_qp_paths_timed(const struct rnic_qp *qp)
{
	for (int p = 0; p < RNIC_PATH_COUNT; p++)
		if (rnic_paths[p]->timed(qp))
			return true;
	return false;
}
