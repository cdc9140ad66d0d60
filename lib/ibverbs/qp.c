/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RC queue pairs: each is one soft NIC endpoint (its receive queue is the QP's) with one soft
 * NIC qp, connected with the peer's descriptor that librdmacm carries (hooks below). Sends
 * take a slot (what the completion needs; inline data lives there until it is done).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/priv/dev_priv.h"
#include "ibv_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(IBV_QP);

static const struct softhw_rnic_ops *nic_of(const struct sv_qp *q)
{
	return sv_ctx_of(q->pub.context)->nic;
}

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	struct sv_ctx *c;
	struct sv_qp *q;
	struct softhw_rnic_ep_attr ea = {0};
	doca_error_t err;

	if (pd == NULL || a == NULL || a->send_cq == NULL || a->recv_cq == NULL) {
		errno = EINVAL;
		return NULL;
	}
	if (a->qp_type != IBV_QPT_RC) {
		SDK_LOG_ERR("ibv_create_qp: only RC QPs are supported (type %d)", a->qp_type);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (a->cap.max_send_wr > SV_MAX_WR || a->cap.max_recv_wr > SV_MAX_WR || a->cap.max_send_sge > SV_MAX_SGE ||
	    a->cap.max_recv_sge > SV_MAX_SGE || a->cap.max_inline_data > SV_MAX_INLINE) {
		errno = EINVAL;
		return NULL;
	}
	c = sv_ctx_of(pd->context);
	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	q->cap = a->cap;
	if (q->cap.max_send_wr == 0)
		q->cap.max_send_wr = 1;
	if (q->cap.max_inline_data == 0)
		q->cap.max_inline_data = 64; /* as mlx5 reports at least */
	q->nslots = q->cap.max_send_wr;
	q->slots = calloc(q->nslots, sizeof(*q->slots));
	if (q->slots == NULL) {
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	q->sq_sig_all = a->sq_sig_all != 0;
	q->pub.context = pd->context;
	q->pub.qp_context = a->qp_context;
	q->pub.pd = pd;
	q->pub.send_cq = a->send_cq;
	q->pub.recv_cq = a->recv_cq;
	q->pub.qp_type = IBV_QPT_RC;
	q->pub.state = IBV_QPS_RESET;
	pthread_mutex_init(&q->pub.mutex, NULL);
	pthread_cond_init(&q->pub.cond, NULL);
	ea.fn = c->dev->devinfo->fn;
	ea.access = DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	ea.max_qps = 1;
	ea.max_recv_sge = a->cap.max_recv_sge > 0 ? a->cap.max_recv_sge : 1;
	ea.max_send_sge = a->cap.max_send_sge > 0 ? a->cap.max_send_sge : 1;
	ea.max_msg_size = 1u << 31;
	ea.rnr_retry_count = 7;
	ea.notify = sv_ep_notify;
	ea.notify_arg = q;
	ea.owner_wakes = true; /* a channel's sleeper is woken by the peers (sv_chan_watch) */
	ea.polls_memory = true; /* ib_write_lat spins on its buffer for the peer's WRITE */
	q->srq = (struct sv_srq *)a->srq;
	q->pub.srq = a->srq;
	if (q->srq != NULL) { /* a qp on the SRQ's endpoint: its receives are the SRQ's */
		q->ep = q->srq->ep;
		err = c->nic->qp_create(q->ep, q, &q->nqp);
	} else {
		err = c->nic->ep_create(&ea, &q->ep);
		if (err == DOCA_SUCCESS) {
			err = c->nic->qp_create(q->ep, q, &q->nqp);
			if (err != DOCA_SUCCESS)
				c->nic->ep_destroy(q->ep);
		}
	}
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("ibv_create_qp: the soft NIC could not create a qp: %s", doca_error_get_descr(err));
		free(q->slots);
		free(q);
		errno = err == DOCA_ERROR_NO_MEMORY ? ENOMEM : EIO;
		return NULL;
	}
	a->cap = q->cap;
	pthread_mutex_lock(&sv.lock);
	/* on a RoCEv2 card the QPN on the wire, as rdma-core's (what the IB CM carries) */
	q->pub.qp_num = c->nic->qp_wire_num != NULL ? c->nic->qp_wire_num(q->nqp) : 0;
	if (q->pub.qp_num == 0)
		q->pub.qp_num = sv.next_key++ & 0xffffff;
	q->next = sv.qps;
	sv.qps = q;
	if (q->srq != NULL) {
		q->srq->nqps++;
		if (sv_srq_add_cq(q->srq, (struct sv_cq *)a->send_cq) != 0 ||
		    sv_srq_add_cq(q->srq, (struct sv_cq *)a->recv_cq) != 0)
			SDK_LOG_ERR("ibv_create_qp: the SRQ's QPs use more than %d CQs: events of this one may be missed",
				    SV_SRQ_CQS);
	}
	/* a CQ armed before the QP existed (rping does so) must hear of this QP's completions too */
	pthread_mutex_lock(&sv.ev_lock);
	bool armed = ((struct sv_cq *)a->send_cq)->armed || ((struct sv_cq *)a->recv_cq)->armed;
	pthread_mutex_unlock(&sv.ev_lock);
	sv_chan_watch(q);
	bool ready = armed && c->nic->ep_arm(q->ep);
	if (armed && !ready)
		sv_qp_sleep(q);
	pthread_mutex_unlock(&sv.lock);
	if (ready)
		sv_qp_notify(q);
	return &q->pub;
}

int ibv_destroy_qp(struct ibv_qp *qp)
{
	struct sv_qp *q = (struct sv_qp *)qp;

	if (q == NULL)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	for (struct sv_qp **pp = &sv.qps; *pp != NULL; pp = &(*pp)->next)
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	if (q->srq != NULL)
		q->srq->nqps--;
	/*
	 * Under sv.lock: on an SRQ's shared endpoint another thread's ibv_poll_cq drains CQEs that
	 * name q, so q goes from the soft NIC before that drain can find it freed. What the NIC
	 * completed for it reaches its CQs first (not a sibling's, as a receive whose QP is gone
	 * would), then leaves them, as rdma-core's mlx5 cleans a destroyed QP's CQEs.
	 */
	sv_qp_drain(q);
	nic_of(q)->qp_destroy(q->nqp);
	sv_cq_clean((struct sv_cq *)q->pub.send_cq, q->pub.qp_num);
	sv_cq_clean((struct sv_cq *)q->pub.recv_cq, q->pub.qp_num);
	pthread_mutex_unlock(&sv.lock);
	if (q->srq == NULL)
		nic_of(q)->ep_destroy(q->ep);
	pthread_cond_destroy(&q->pub.cond);
	pthread_mutex_destroy(&q->pub.mutex);
	sv_qp_free_ex(q);
	free(q->bad_recvs.ids);
	free(q->slots);
	free(q);
	return 0;
}

/* The IPv4 address of an IPv4-mapped GID (::ffff:a.b.c.d), host order; 0 for any other GID. */
static uint32_t gid_ip4(const union ibv_gid *g)
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (memcmp(g->raw, prefix, sizeof(prefix)) != 0)
		return 0;
	return (uint32_t)g->raw[12] << 24 | (uint32_t)g->raw[13] << 16 | (uint32_t)g->raw[14] << 8 | g->raw[15];
}

/* The first attribute of `need` that `mask` lacks (the kernel refuses such a transition), or NULL. */
static const char *missing_attr(int mask, int need)
{
	static const struct {
		int bit;
		const char *name;
	} names[] = {
		{IBV_QP_AV, "IBV_QP_AV"},
		{IBV_QP_PATH_MTU, "IBV_QP_PATH_MTU"},
		{IBV_QP_DEST_QPN, "IBV_QP_DEST_QPN"},
		{IBV_QP_RQ_PSN, "IBV_QP_RQ_PSN"},
		{IBV_QP_MAX_DEST_RD_ATOMIC, "IBV_QP_MAX_DEST_RD_ATOMIC"},
		{IBV_QP_MIN_RNR_TIMER, "IBV_QP_MIN_RNR_TIMER"},
		{IBV_QP_SQ_PSN, "IBV_QP_SQ_PSN"},
		{IBV_QP_TIMEOUT, "IBV_QP_TIMEOUT"},
		{IBV_QP_RETRY_CNT, "IBV_QP_RETRY_CNT"},
		{IBV_QP_RNR_RETRY, "IBV_QP_RNR_RETRY"},
		{IBV_QP_MAX_QP_RD_ATOMIC, "IBV_QP_MAX_QP_RD_ATOMIC"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((need & names[i].bit) && !(mask & names[i].bit))
			return names[i].name;
	return NULL;
}

static int nic_errno(doca_error_t err)
{
	switch (err) {
	case DOCA_SUCCESS: return 0;
	case DOCA_ERROR_NOT_SUPPORTED: return EOPNOTSUPP;
	case DOCA_ERROR_NO_MEMORY: return ENOMEM;
	default: return EINVAL;
	}
}

/* The remote rights of qp_access_flags, as the soft NIC names them. */
static uint32_t remote_rights(int access)
{
	return ((access & IBV_ACCESS_REMOTE_READ) ? DOCA_ACCESS_FLAG_RDMA_READ : 0) |
	       ((access & IBV_ACCESS_REMOTE_WRITE) ? DOCA_ACCESS_FLAG_RDMA_WRITE : 0) |
	       ((access & IBV_ACCESS_REMOTE_ATOMIC) ? DOCA_ACCESS_FLAG_RDMA_ATOMIC : 0);
}

/* An RC QP's state transitions the kernel allows (ib_modify_qp_is_ok), SQD and SQE aside. */
static bool transition_ok(enum ibv_qp_state cur, enum ibv_qp_state next)
{
	if (next == IBV_QPS_RESET || next == IBV_QPS_ERR)
		return true;
	switch (cur) {
	case IBV_QPS_RESET: return next == IBV_QPS_INIT;
	case IBV_QPS_INIT: return next == IBV_QPS_INIT || next == IBV_QPS_RTR;
	case IBV_QPS_RTR: return next == IBV_QPS_RTS;
	case IBV_QPS_RTS: return next == IBV_QPS_RTS;
	default: return false;
	}
}

static const char *state_name(enum ibv_qp_state st)
{
	static const char *const names[] = {"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"};

	return (unsigned)st < sizeof(names) / sizeof(names[0]) ? names[st] : "unknown";
}

/* sv.lock held: a QP connected by ibv_modify_qp takes new remote rights at once (its responder). */
static int set_rights(struct sv_qp *q, int access)
{
	struct softhw_rnic_wire_rts rts = {.access = remote_rights(access), .access_only = true};

	return nic_errno(nic_of(q)->qp_wire_rts(q->nqp, &rts));
}

/*
 * sv.lock held: a QP connected by ibv_modify_qp (or flushed) back to RESET, as on hardware: its
 * connection ends without a word to the peer, what it held (sends, receives) goes without a
 * completion, its completions leave its CQs (as rdma-core's mlx5 cleans them), and it keeps its
 * QPN for the next INIT -> RTR -> RTS.
 */
static int reset(struct sv_qp *q)
{
	doca_error_t err;

	sv_qp_drain(q); /* other QPs' completions on its endpoint (an SRQ's) reach their CQs */
	err = nic_of(q)->qp_wire_reset(q->nqp);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("ibv_modify_qp: QP %u cannot go back to RESET on this card (%s); destroy it and create another",
			    q->pub.qp_num, doca_error_get_descr(err));
		return nic_errno(err);
	}
	if (q->srq == NULL) /* (an SRQ's receives are its other QPs' too) */
		nic_of(q)->ep_flush_recv(q->ep, DOCA_ERROR_SHUTDOWN);
	q->resetting = true;
	sv_qp_drain(q);
	q->resetting = false;
	for (uint32_t i = 0; i < q->nslots; i++)
		q->slots[i].used = q->slots[i].held = q->slots[i].loc_err = false;
	q->slot_next = 0;
	q->bad_recvs.n = 0;
	q->bad_recvs.posted = q->bad_recvs.done = 0;
	/* as rdma-core's mlx5 (mlx5_cq_clean): what the QP completed before leaves its CQs too */
	sv_cq_clean((struct sv_cq *)q->pub.send_cq, q->pub.qp_num);
	sv_cq_clean((struct sv_cq *)q->pub.recv_cq, q->pub.qp_num);
	q->loc_err = q->by_modify = q->wire = q->flushed = q->failed = false;
	q->npeer_mrs = 0;
	return 0;
}

/*
 * sv.lock held. A QP no RDMA-CM id owns connects as on hardware: INIT -> RTR names the peer (its
 * GID, QPN and first PSN, which the application exchanged itself) and the QP receives; RTR -> RTS
 * gives its own first PSN and counts, and it sends. Only a RoCEv2 card can name a peer so.
 */
static int modify_connect(struct sv_qp *q, const struct ibv_qp_attr *attr, int mask)
{
	const int rtr_need = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			     IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	const int rts_need = IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_MAX_QP_RD_ATOMIC;
	const int access = (mask & IBV_QP_ACCESS_FLAGS) ? (int)attr->qp_access_flags : q->access;
	enum ibv_qp_state cur = q->flushed ? IBV_QPS_ERR : q->pub.state;
	const char *lack;

	if (attr->qp_state == IBV_QPS_SQD || attr->qp_state == IBV_QPS_SQE) {
		SDK_LOG_ERR("ibv_modify_qp: QP %u: the soft NIC's QPs have no %s state (no send queue drain)",
			    q->pub.qp_num, state_name(attr->qp_state));
		return EOPNOTSUPP;
	}
	if (!transition_ok(cur, attr->qp_state)) {
		SDK_LOG_ERR("ibv_modify_qp: QP %u cannot go from %s to %s (RESET -> INIT -> RTR -> RTS)", q->pub.qp_num,
			    state_name(cur), state_name(attr->qp_state));
		return EINVAL;
	}
	if (attr->qp_state == IBV_QPS_RESET && (q->by_modify || q->flushed))
		return reset(q);
	if (attr->qp_state == IBV_QPS_RTS && cur == IBV_QPS_RTS) /* its rights may change, nothing else */
		return (mask & IBV_QP_ACCESS_FLAGS) ? set_rights(q, access) : 0;
	if (attr->qp_state == IBV_QPS_RTR) {
		struct softhw_rnic_wire_rtr rtr = {0};

		lack = missing_attr(mask, rtr_need);
		if (lack != NULL) {
			SDK_LOG_ERR("ibv_modify_qp: QP %u to RTR needs %s in the attribute mask", q->pub.qp_num, lack);
			return EINVAL;
		}
		rtr.peer_ip = attr->ah_attr.is_global ? gid_ip4(&attr->ah_attr.grh.dgid) : 0;
		if (rtr.peer_ip == 0) {
			SDK_LOG_ERR("ibv_modify_qp: QP %u to RTR: RoCE names the peer by its GID: set ah_attr.is_global and ah_attr.grh.dgid to the peer's IPv4-mapped GID (GID index 0; ibv_rc_pingpong -g 0)",
				    q->pub.qp_num);
			return EINVAL;
		}
		if (attr->path_mtu < IBV_MTU_256 || attr->path_mtu > IBV_MTU_4096) {
			SDK_LOG_ERR("ibv_modify_qp: QP %u: path_mtu %d is no IBV_MTU_* value", q->pub.qp_num,
				    (int)attr->path_mtu);
			return EINVAL;
		}
		rtr.peer_qpn = attr->dest_qp_num;
		rtr.rq_psn = attr->rq_psn & 0xffffff;
		rtr.flow_label = attr->ah_attr.grh.flow_label;
		rtr.mtu_log = (uint8_t)(attr->path_mtu + 7);
		rtr.min_rnr_timer = attr->min_rnr_timer;
		rtr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
		rtr.access = remote_rights(access);
		int e = nic_errno(nic_of(q)->qp_wire_rtr(q->nqp, &rtr));

		if (e == 0) {
			q->by_modify = true;
			q->wire = true; /* R_Keys go on the wire as the peer gave them */
			q->npeer_mrs = 0;
		}
		return e;
	}
	if (attr->qp_state == IBV_QPS_RTS) {
		struct softhw_rnic_wire_rts rts = {.access = remote_rights(access)};

		lack = missing_attr(mask, rts_need);
		if (lack != NULL) {
			SDK_LOG_ERR("ibv_modify_qp: QP %u to RTS needs %s in the attribute mask", q->pub.qp_num, lack);
			return EINVAL;
		}
		rts.sq_psn = attr->sq_psn & 0xffffff;
		rts.timeout = attr->timeout;
		rts.retry_cnt = attr->retry_cnt;
		rts.rnr_retry = attr->rnr_retry;
		rts.max_rd_atomic = attr->max_rd_atomic;
		return nic_errno(nic_of(q)->qp_wire_rts(q->nqp, &rts));
	}
	return 0;
}

static void qp_disconnect(struct ibv_qp *qp);

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	struct sv_qp *q = (struct sv_qp *)qp;
	bool flush = false;
	int e = 0;

	if (q == NULL || attr == NULL)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	/* librdmacm connects its ids' QPs: for them the states are bookkeeping */
	if ((mask & IBV_QP_STATE) && !q->cm && (q->by_modify || !q->wire)) {
		e = modify_connect(q, attr, mask);
		flush = e == 0 && attr->qp_state == IBV_QPS_ERR && !q->flushed;
	} else if ((mask & IBV_QP_ACCESS_FLAGS) && q->by_modify && !q->flushed) {
		e = set_rights(q, (int)attr->qp_access_flags); /* the rights alone (no state) */
	}
	if (e != 0) {
		pthread_mutex_unlock(&sv.lock);
		return e;
	}
	if (mask & IBV_QP_ACCESS_FLAGS)
		q->access = (int)attr->qp_access_flags;
	if (mask & IBV_QP_PATH_MTU)
		q->attr.path_mtu = attr->path_mtu;
	if (mask & IBV_QP_DEST_QPN)
		q->attr.dest_qp_num = attr->dest_qp_num;
	if (mask & IBV_QP_AV)
		q->attr.ah_attr = attr->ah_attr;
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		q->attr.max_rd_atomic = attr->max_rd_atomic;
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		q->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IBV_QP_RQ_PSN)
		q->attr.rq_psn = attr->rq_psn;
	if (mask & IBV_QP_SQ_PSN)
		q->attr.sq_psn = attr->sq_psn;
	if (mask & IBV_QP_MIN_RNR_TIMER)
		q->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IBV_QP_TIMEOUT)
		q->attr.timeout = attr->timeout;
	if (mask & IBV_QP_RETRY_CNT)
		q->attr.retry_cnt = attr->retry_cnt;
	if (mask & IBV_QP_RNR_RETRY)
		q->attr.rnr_retry = attr->rnr_retry;
	if ((mask & IBV_QP_STATE) && !flush)
		q->pub.state = attr->qp_state;
	pthread_mutex_unlock(&sv.lock);
	if (flush)
		qp_disconnect(qp); /* as a QP moved to error: its work completes with WR_FLUSH_ERR */
	return 0;
}

int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask, struct ibv_qp_init_attr *init)
{
	struct sv_qp *q = (struct sv_qp *)qp;

	(void)mask;
	if (q == NULL || attr == NULL || init == NULL)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	*attr = q->attr;
	attr->qp_state = attr->cur_qp_state = q->pub.state;
	attr->qp_access_flags = (unsigned int)q->access;
	attr->cap = q->cap;
	attr->port_num = 1;
	if (!q->by_modify) { /* librdmacm's: what it connects with */
		attr->timeout = 14;
		attr->retry_cnt = 7;
		attr->rnr_retry = 7;
	}
	memset(init, 0, sizeof(*init));
	init->qp_context = q->pub.qp_context;
	init->send_cq = q->pub.send_cq;
	init->recv_cq = q->pub.recv_cq;
	init->cap = q->cap;
	init->qp_type = IBV_QPT_RC;
	init->srq = q->pub.srq;
	init->sq_sig_all = q->sq_sig_all;
	pthread_mutex_unlock(&sv.lock);
	return 0;
}

/*
 * Whether a reader may poll the last byte of a message instead of its completion: not here.
 * The soft NIC places a message's bytes with memcpy or process_vm_writev, whose store order
 * within one copy is not defined (glibc's vector copies store the tail early, x86's fast string
 * moves may store out of order). 0 is what a provider that cannot promise it answers.
 */
int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)
{
	(void)qp;
	(void)op;
	(void)flags;
	return 0;
}

/*
 * ECE (Enhanced Connection Establishment): vendor options a provider negotiates through the
 * CM. The soft NIC has none; EOPNOTSUPP, as rdma-core for a provider without ECE.
 */
int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	(void)qp;
	(void)ece;
	SDK_LOG_ERR("ibv_query_ece: the soft NIC has no ECE options");
	errno = EOPNOTSUPP;
	return EOPNOTSUPP;
}

int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)
{
	(void)qp;
	(void)ece;
	SDK_LOG_ERR("ibv_set_ece: the soft NIC has no ECE options");
	errno = EOPNOTSUPP;
	return EOPNOTSUPP;
}

static enum ibv_wc_status wc_status(doca_error_t e, bool recv, bool wire)
{
	switch (e) {
	case DOCA_SUCCESS: return IBV_WC_SUCCESS;
	case DOCA_ERROR_SHUTDOWN: return IBV_WC_WR_FLUSH_ERR;
	case DOCA_ERROR_INVALID_VALUE: /* RoCEv2: the responder's NAK "invalid request"; else an unknown rkey */
		return wire && !recv ? IBV_WC_REM_INV_REQ_ERR : IBV_WC_REM_ACCESS_ERR;
	case DOCA_ERROR_NOT_PERMITTED: return IBV_WC_REM_ACCESS_ERR;
	case DOCA_ERROR_TOO_BIG: return recv ? IBV_WC_LOC_LEN_ERR : IBV_WC_REM_INV_REQ_ERR;
	case DOCA_ERROR_AGAIN: return IBV_WC_RNR_RETRY_EXC_ERR;
	case DOCA_ERROR_CONNECTION_ABORTED: return IBV_WC_RETRY_EXC_ERR;
	default: return IBV_WC_GENERAL_ERR;
	}
}

/*
 * sv.lock held: the QP goes to error, as a QP moved there: its queued sends and posted receives
 * complete with WR_FLUSH_ERR (an SRQ's receives stay for its other QPs). False if it was already.
 */
bool sv_qp_flush(struct sv_qp *q)
{
	if (q->flushed)
		return false;
	(void)nic_of(q)->qp_disconnect(q->nqp);
	if (q->srq == NULL)
		nic_of(q)->ep_flush_recv(q->ep, DOCA_ERROR_SHUTDOWN);
	q->pub.state = IBV_QPS_ERR;
	q->flushed = true;
	return true;
}

static bool release_held(struct sv_qp *q);

/* Moves the endpoint's CQEs into the QP's CQs (under sv.lock). */
void sv_qp_drain(struct sv_qp *self)
{
	struct softhw_rnic_cqe cqes[32];
	int n;

	while ((n = nic_of(self)->ep_poll(self->ep, cqes, 32)) > 0)
		for (int i = 0; i < n; i++) {
			const struct softhw_rnic_cqe *e = &cqes[i];
			/* on an SRQ's endpoint the CQE may be another QP's */
			struct sv_qp *q = e->qp_user != NULL ? e->qp_user : self;
			struct ibv_wc wc = {.qp_num = q->pub.qp_num, .src_qp = q->attr.dest_qp_num};

			if (q->resetting) { /* (its slots and receive counts are cleared by the reset) */
				if (e->kind == SOFTHW_RNIC_CQE_WR && e->op == SOFTHW_RNIC_OP_RECV && q->srq != NULL &&
				    q->srq->bad_recvs.n > 0 && e->status != DOCA_SUCCESS)
					(void)sv_bad_recv_take(&q->srq->bad_recvs, e->wr_id);
				continue;
			}

			if (e->kind == SOFTHW_RNIC_CQE_FAILED || e->kind == SOFTHW_RNIC_CQE_DISCONNECTED) {
				/*
				 * In error. What it holds is flushed once the application acts (a post,
				 * rdma_disconnect, ERR), not here: a consumer that polls its receive CQ
				 * first would see those flushes before the failed WR's own error.
				 */
				q->pub.state = IBV_QPS_ERR;
				q->failed = true;
				continue;
			}
			if (e->kind != SOFTHW_RNIC_CQE_WR)
				continue;
			wc.status = wc_status(e->status, e->op == SOFTHW_RNIC_OP_RECV, q->wire);
			wc.vendor_err = e->status;
			if (e->op == SOFTHW_RNIC_OP_RECV) {
				/* one that failed its lkey check: a message with bytes found no room in it */
				if (q->srq == NULL) {
					struct sv_bad_recvs *br = &q->bad_recvs;
					uint64_t seq = br->done++;

					if (br->n > 0 && br->ids[0] == seq && sv_bad_recv_take(br, seq) &&
					    wc.status == IBV_WC_LOC_LEN_ERR)
						wc.status = IBV_WC_LOC_PROT_ERR;
				} else if (q->srq->bad_recvs.n > 0 && wc.status == IBV_WC_LOC_LEN_ERR &&
					   sv_bad_recv_take(&q->srq->bad_recvs, e->wr_id)) {
					wc.status = IBV_WC_LOC_PROT_ERR;
				}
				wc.wr_id = e->wr_id;
				wc.byte_len = (uint32_t)e->len;
				wc.opcode = e->recv_op == SOFTHW_RNIC_OP_WRITE_IMM ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV;
				if (e->recv_op == SOFTHW_RNIC_OP_SEND_INV) { /* the rkey the sender invalidated */
					wc.wc_flags = IBV_WC_WITH_INV;
					wc.invalidated_rkey = e->imm;
				} else if (e->recv_op != SOFTHW_RNIC_OP_SEND) {
					wc.wc_flags = IBV_WC_WITH_IMM;
					wc.imm_data = e->imm;
				}
				sv_cq_push((struct sv_cq *)q->pub.recv_cq, &wc);
				continue;
			}
			if (e->wr_id >= q->nslots || !q->slots[e->wr_id].used)
				continue;
			struct sv_slot *s = &q->slots[e->wr_id];

			s->used = false;
			if (!s->signaled && wc.status == IBV_WC_SUCCESS)
				continue;
			wc.wr_id = s->wr_id;
			wc.opcode = s->op;
			wc.byte_len = s->op == IBV_WC_RDMA_READ ? (uint32_t)e->len : s->len;
			if (s->op == IBV_WC_COMP_SWAP || s->op == IBV_WC_FETCH_ADD)
				wc.byte_len = 8;
			sv_cq_push((struct sv_cq *)q->pub.send_cq, &wc);
		}
	if (self->loc_err) /* what a local protection error held back comes up once the rest is done */
		(void)release_held(self);
}

static const struct sv_peer_mr *peer_mr(const struct sv_qp *q, uint32_t rkey)
{
	for (uint32_t i = 0; i < q->npeer_mrs; i++)
		if (q->peer_mrs[i].rkey == rkey)
			return &q->peer_mrs[i];
	return NULL;
}

/*
 * RoCEv2: the peer's R_Key goes in the RETH as it is; the path builds it from (id, token) as
 * id << 8 | token's low byte, so that is how it travels (top bit set: not carried, logged there).
 */
static void wire_rkey(struct softhw_rnic_rkey *k, uint32_t rkey)
{
	k->pid = 0;
	k->id = rkey >> 8;
	k->token = rkey & 0xff;
}

/* A send WR's opcode: the soft NIC's and its completion's. False: one the soft NIC has not. */
static bool send_op(enum ibv_wr_opcode op, enum softhw_rnic_opcode *nic, enum ibv_wc_opcode *wc)
{
	switch (op) {
	case IBV_WR_SEND: *nic = SOFTHW_RNIC_OP_SEND; *wc = IBV_WC_SEND; return true;
	case IBV_WR_SEND_WITH_IMM: *nic = SOFTHW_RNIC_OP_SEND_IMM; *wc = IBV_WC_SEND; return true;
	case IBV_WR_SEND_WITH_INV: *nic = SOFTHW_RNIC_OP_SEND_INV; *wc = IBV_WC_SEND; return true;
	case IBV_WR_RDMA_WRITE: *nic = SOFTHW_RNIC_OP_WRITE; *wc = IBV_WC_RDMA_WRITE; return true;
	case IBV_WR_RDMA_WRITE_WITH_IMM: *nic = SOFTHW_RNIC_OP_WRITE_IMM; *wc = IBV_WC_RDMA_WRITE; return true;
	case IBV_WR_RDMA_READ: *nic = SOFTHW_RNIC_OP_READ; *wc = IBV_WC_RDMA_READ; return true;
	case IBV_WR_ATOMIC_CMP_AND_SWP: *nic = SOFTHW_RNIC_OP_CMP_SWP; *wc = IBV_WC_COMP_SWAP; return true;
	case IBV_WR_ATOMIC_FETCH_AND_ADD: *nic = SOFTHW_RNIC_OP_FETCH_ADD; *wc = IBV_WC_FETCH_ADD; return true;
	default: return false;
	}
}

/*
 * sv.lock held: whether sge lies inside a memory region of pd registered under its lkey (and,
 * when the soft NIC writes it, with IBV_ACCESS_LOCAL_WRITE), as a NIC checks each SGE it reads or
 * writes. An empty SGE touches nothing.
 */
static bool sge_ok(const struct ibv_pd *pd, const struct ibv_sge *sge, bool written)
{
	const struct sv_mr *m;
	uint64_t start;

	if (sge->length == 0)
		return true;
	m = sv_mr_find(sge->lkey);
	if (m == NULL || m->pub.pd != pd || (written && !(m->access & IBV_ACCESS_LOCAL_WRITE)))
		return false;
	start = (uint64_t)(uintptr_t)m->pub.addr;
	return sge->addr >= start && sge->length <= m->pub.length && sge->addr - start <= m->pub.length - sge->length;
}

bool sv_recv_sges_ok(const struct ibv_pd *pd, const struct ibv_recv_wr *wr, uint32_t qp_num)
{
	for (int i = 0; i < wr->num_sge; i++) {
		const struct ibv_sge *g = &wr->sg_list[i];

		if (sge_ok(pd, g, true))
			continue;
		SDK_LOG_ERR("ibv_post_recv: QP %u, receive 0x%llx: SGE %d (%u bytes at 0x%llx, lkey 0x%x) is not inside "
			    "a memory region of the PD registered under that lkey with IBV_ACCESS_LOCAL_WRITE; a message "
			    "with bytes for it completes it with IBV_WC_LOC_PROT_ERR, writes nothing, and puts the QP in "
			    "error, as on hardware",
			    qp_num, (unsigned long long)wr->wr_id, i, g->length, (unsigned long long)g->addr, g->lkey);
		return false;
	}
	return true;
}

void sv_bad_recv_add(struct sv_bad_recvs *b, uint64_t wr_id)
{
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? b->cap * 2 : 8;
		uint64_t *ids = realloc(b->ids, cap * sizeof(*ids));

		if (ids == NULL)
			return; /* then it reports IBV_WC_LOC_LEN_ERR: still an error, still nothing written */
		b->ids = ids;
		b->cap = cap;
	}
	b->ids[b->n++] = wr_id;
}

/* Whether wr_id names a receive sv_bad_recv_add kept (the oldest such is forgotten). */
bool sv_bad_recv_take(struct sv_bad_recvs *b, uint64_t wr_id)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (b->ids[i] == wr_id) {
			memmove(&b->ids[i], &b->ids[i + 1], (b->n - i - 1) * sizeof(b->ids[0]));
			b->n--;
			return true;
		}
	return false;
}

/* The first SGE of wr that fails its lkey check (logged), or -1. written: the soft NIC writes them. */
static int bad_sge(const struct sv_qp *q, const struct ibv_send_wr *wr, bool written)
{
	for (int i = 0; i < wr->num_sge; i++) {
		const struct ibv_sge *g = &wr->sg_list[i];
		const struct sv_mr *m;

		if (sge_ok(q->pub.pd, g, written))
			continue;
		m = sv_mr_find(g->lkey); /* (again, only to say why) */
		SDK_LOG_ERR("ibv_post_send: QP %u, WR 0x%llx: SGE %d (%u bytes at 0x%llx, lkey 0x%x) is %s; the WR "
			    "completes with IBV_WC_LOC_PROT_ERR and the QP goes to error, as on hardware. Give the lkey of "
			    "an ibv_reg_mr() region of the QP's PD that holds the whole SGE%s",
			    q->pub.qp_num, (unsigned long long)wr->wr_id, i, g->length, (unsigned long long)g->addr, g->lkey,
			    m == NULL		    ? "under no registered memory region's lkey"
			    : m->pub.pd != q->pub.pd ? "in a memory region of another protection domain"
			    : written && !(m->access & IBV_ACCESS_LOCAL_WRITE)
				    ? "in a memory region without IBV_ACCESS_LOCAL_WRITE, and this WR writes it"
				    : "not inside its memory region",
			    written ? " (registered with IBV_ACCESS_LOCAL_WRITE: a READ or an atomic writes it)" : "");
		return i;
	}
	return -1;
}

/* sv.lock held: the slot keeps wr out of the soft NIC (sv_qp.loc_err), to complete in its turn. */
static void hold(struct sv_qp *q, struct sv_slot *s, uint32_t idx, const struct ibv_send_wr *wr, enum ibv_wc_opcode op,
		 bool loc_err)
{
	s->wr_id = wr->wr_id;
	s->op = op;
	s->used = s->held = true;
	s->loc_err = loc_err;
	s->order = q->held_next++;
	q->slot_next = idx + 1 < q->nslots ? idx + 1 : 0;
	q->loc_err = true;
}

/*
 * sv.lock held, a WR held: once nothing the soft NIC took is left in flight, the held WRs
 * complete in post order, the one that failed its lkey check with IBV_WC_LOC_PROT_ERR (flushed
 * if the QP went to error before it came up), those after it flushed, and the QP goes to error.
 * True if they did (the caller tells the CQ's sleepers).
 */
static bool release_held(struct sv_qp *q)
{
	bool before = q->flushed || q->failed;

	for (uint32_t i = 0; i < q->nslots; i++)
		if (q->slots[i].used && !q->slots[i].held)
			return false;
	for (;;) {
		struct sv_slot *first = NULL;

		for (uint32_t i = 0; i < q->nslots; i++)
			if (q->slots[i].held && (first == NULL || q->slots[i].order - first->order >= 1u << 31))
				first = &q->slots[i];
		if (first == NULL)
			break;
		struct ibv_wc wc = {
			.wr_id = first->wr_id, .opcode = first->op, .qp_num = q->pub.qp_num, .src_qp = q->attr.dest_qp_num,
			.status = first->loc_err && !before ? IBV_WC_LOC_PROT_ERR : IBV_WC_WR_FLUSH_ERR,
		};

		sv_cq_push((struct sv_cq *)q->pub.send_cq, &wc);
		first->used = first->held = first->loc_err = false;
	}
	q->loc_err = false;
	(void)sv_qp_flush(q); /* in error: its receives flush behind the error */
	return true;
}

static int post_one(struct sv_qp *q, const struct ibv_send_wr *wr)
{
	struct softhw_rnic_sge sgl[SV_MAX_SGE];
	struct softhw_rnic_wr w = {0};
	struct sv_slot *s = NULL;
	uint64_t total = 0;
	uint32_t idx = 0;
	doca_error_t err;
	bool inl;

	if (wr->num_sge < 0 || (uint32_t)wr->num_sge > SV_MAX_SGE)
		return EINVAL;
	for (uint32_t i = 0; i < q->nslots; i++) {
		idx = q->slot_next + i < q->nslots ? q->slot_next + i : q->slot_next + i - q->nslots;
		if (!q->slots[idx].used) {
			s = &q->slots[idx];
			break;
		}
	}
	if (s == NULL)
		return ENOMEM; /* send queue full */
	for (int i = 0; i < wr->num_sge; i++) {
		sgl[i].addr = (void *)(uintptr_t)wr->sg_list[i].addr;
		sgl[i].len = wr->sg_list[i].length;
		total += wr->sg_list[i].length;
	}
	if (total > 1ull << 31) /* max_msg_sz (ibv_query_port), refused at post as rxe does */
		return EINVAL;
	w.sgl = sgl;
	w.num_sge = (uint32_t)wr->num_sge;
	if (!send_op(wr->opcode, &w.op, &s->op)) {
		SDK_LOG_ERR("ibv_post_send: opcode %d is not supported", wr->opcode);
		return EINVAL;
	}
	inl = (wr->send_flags & IBV_SEND_INLINE) &&
	      (wr->opcode == IBV_WR_SEND || wr->opcode == IBV_WR_SEND_WITH_IMM || wr->opcode == IBV_WR_SEND_WITH_INV ||
	       wr->opcode == IBV_WR_RDMA_WRITE || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM);
	if (inl && (total > q->cap.max_inline_data || total > SV_MAX_INLINE))
		return EINVAL;
	/* behind a WR that failed its lkey check nothing reaches the soft NIC; inline data has no lkey */
	if (q->loc_err || (!inl && bad_sge(q, wr, w.op == SOFTHW_RNIC_OP_READ || w.op == SOFTHW_RNIC_OP_CMP_SWP ||
						      w.op == SOFTHW_RNIC_OP_FETCH_ADD) >= 0)) {
		hold(q, s, idx, wr, s->op, !q->loc_err);
		return 0;
	}
	if (inl) {
		/* the caller may reuse its buffer at once: the data moves into the slot */
		for (int i = 0, off = 0; i < wr->num_sge; off += (int)wr->sg_list[i].length, i++)
			memcpy(s->inl + off, (const void *)(uintptr_t)wr->sg_list[i].addr, wr->sg_list[i].length);
		sgl[0].addr = s->inl;
		sgl[0].len = total;
		w.num_sge = total > 0 ? 1 : 0;
	}
	if (w.op == SOFTHW_RNIC_OP_SEND_IMM || w.op == SOFTHW_RNIC_OP_WRITE_IMM)
		w.imm = wr->imm_data;
	if (w.op == SOFTHW_RNIC_OP_SEND_INV) /* no memory windows here: the receiver is told the rkey */
		w.imm = wr->invalidate_rkey;
	if (w.op == SOFTHW_RNIC_OP_WRITE || w.op == SOFTHW_RNIC_OP_WRITE_IMM || w.op == SOFTHW_RNIC_OP_READ) {
		const struct sv_peer_mr *m = q->wire ? NULL : peer_mr(q, wr->wr.rdma.rkey);

		w.rkey.addr = wr->wr.rdma.remote_addr;
		w.rkey.len = total;
		if (m != NULL) {
			w.rkey.pid = m->pid;
			w.rkey.id = m->id;
			w.rkey.token = m->token;
		} /* else an rkey the peer did not announce: the target refuses it (remote access error) */
		if (q->wire)
			wire_rkey(&w.rkey, wr->wr.rdma.rkey);
	}
	if (w.op == SOFTHW_RNIC_OP_CMP_SWP || w.op == SOFTHW_RNIC_OP_FETCH_ADD) {
		const struct sv_peer_mr *m = q->wire ? NULL : peer_mr(q, wr->wr.atomic.rkey);

		w.rkey.addr = wr->wr.atomic.remote_addr;
		w.rkey.len = 8;
		if (m != NULL) {
			w.rkey.pid = m->pid;
			w.rkey.id = m->id;
			w.rkey.token = m->token;
		}
		if (q->wire)
			wire_rkey(&w.rkey, wr->wr.atomic.rkey);
		w.arg0 = wr->wr.atomic.compare_add;
		w.arg1 = wr->wr.atomic.swap;
	}
	w.wr_id = idx;
	w.refuse_in_error = true; /* in error: sv_post_send flushes its receives, then this */
	s->wr_id = wr->wr_id;
	s->signaled = q->sq_sig_all || (wr->send_flags & IBV_SEND_SIGNALED);
	s->len = (uint32_t)total;
	s->used = true;
	q->slot_next = idx + 1 < q->nslots ? idx + 1 : 0;
	err = nic_of(q)->qp_post(q->nqp, &w);
	if (err != DOCA_SUCCESS) {
		s->used = false;
		return err == DOCA_ERROR_NOT_CONNECTED ? ENOTCONN : EIO; /* (ENOTCONN: sv_post_send decides) */
	}
	return 0;
}

/*
 * sv.lock held, the QP in error: as on hardware, work posted now completes flushed
 * (IBV_WC_WR_FLUSH_ERR, signaled or not), behind what the soft NIC flushed before it.
 */
static void flush_one(struct sv_qp *q, struct ibv_cq *cq, uint64_t wr_id, enum ibv_wc_opcode op)
{
	struct ibv_wc wc = {
		.wr_id = wr_id, .status = IBV_WC_WR_FLUSH_ERR, .opcode = op, .qp_num = q->pub.qp_num,
		.src_qp = q->attr.dest_qp_num,
	};

	sv_cq_push((struct sv_cq *)cq, &wc);
}

/*
 * sv.lock held: the QP is in error (moved there, disconnected, or failed by the soft NIC), and
 * what was in it is flushed now if it was not yet (as hardware flushes a QP in error: receives
 * posted before a failure too), ahead of the work being posted. A librdmacm QP moved to ERR by
 * ibv_modify_qp alone stays connected (its states are bookkeeping): not in error here.
 */
static bool in_error(struct sv_qp *q)
{
	if (!q->flushed && !q->failed)
		return false;
	(void)sv_qp_flush(q);
	sv_qp_drain(q); /* what the soft NIC completed or flushed comes first */
	return true;
}

/* sv.lock held, the QP in error: each send WR completes flushed (or the list is refused at wr). */
static int flush_sends(struct sv_qp *q, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	for (; wr != NULL; wr = wr->next) {
		enum softhw_rnic_opcode nop;
		enum ibv_wc_opcode op;

		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > SV_MAX_SGE || !send_op(wr->opcode, &nop, &op)) {
			if (bad != NULL)
				*bad = wr;
			return EINVAL; /* refused as in any state */
		}
		flush_one(q, q->pub.send_cq, wr->wr_id, op);
	}
	return 0;
}

int sv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	struct sv_qp *q = (struct sv_qp *)qp;
	bool held;
	int e = 0;

	pthread_mutex_lock(&sv.lock);
	if (in_error(q))
		goto flushed;
	/* as rxe: a QP no RDMA-CM id connects sends only once ibv_modify_qp made it RTS */
	if (!q->cm && q->pub.state != IBV_QPS_RTS) {
		pthread_mutex_unlock(&sv.lock);
		if (bad != NULL)
			*bad = wr;
		return EINVAL;
	}
	for (; wr != NULL && e == 0; wr = e == 0 ? wr->next : wr) {
		e = post_one(q, wr);
		if (e == ENOTCONN) {
			/* the soft NIC failed the QP and its CQE is not taken yet: in error now */
			sv_qp_drain(q);
			if (in_error(q))
				goto flushed;
			e = EINVAL;
		}
		if (e != 0 && bad != NULL)
			*bad = wr;
		if (e != 0)
			break;
	}
	held = q->loc_err && release_held(q); /* (nothing in flight: its error comes now) */
	pthread_mutex_unlock(&sv.lock);
	if (held)
		sv_qp_notify(q);
	return e;
flushed: /* this WR and the rest complete flushed */
	e = flush_sends(q, wr, bad);
	pthread_mutex_unlock(&sv.lock);
	sv_qp_notify(q);
	return e;
}

int sv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct sv_qp *q = (struct sv_qp *)qp;
	int e = 0;

	pthread_mutex_lock(&sv.lock);
	if (q->srq == NULL && in_error(q)) {
		for (; wr != NULL; wr = wr->next) {
			if (wr->num_sge < 0 || (uint32_t)wr->num_sge > SV_MAX_SGE) {
				e = EINVAL;
				if (bad != NULL)
					*bad = wr;
				break;
			}
			flush_one(q, q->pub.recv_cq, wr->wr_id, IBV_WC_RECV);
		}
		pthread_mutex_unlock(&sv.lock);
		sv_qp_notify(q);
		return e;
	}
	if (!q->cm && q->pub.state == IBV_QPS_RESET) { /* as rxe: receives from INIT on */
		pthread_mutex_unlock(&sv.lock);
		if (bad != NULL)
			*bad = wr;
		return EINVAL;
	}
	for (; wr != NULL; wr = wr->next) {
		struct softhw_rnic_sge sgl[SV_MAX_SGE];

		if (wr->num_sge < 0 || (uint32_t)wr->num_sge > SV_MAX_SGE) {
			e = EINVAL;
		} else {
			bool ok = sv_recv_sges_ok(q->pub.pd, wr, q->pub.qp_num);

			for (int i = 0; i < wr->num_sge; i++) {
				sgl[i].addr = (void *)(uintptr_t)wr->sg_list[i].addr;
				sgl[i].len = wr->sg_list[i].length;
			}
			if (nic_of(q)->ep_post_recv(q->ep, wr->wr_id, sgl, ok ? (uint32_t)wr->num_sge : 0) != DOCA_SUCCESS)
				e = ENOMEM;
			else if (!ok)
				sv_bad_recv_add(&q->bad_recvs, q->bad_recvs.posted++);
			else
				q->bad_recvs.posted++;
		}
		if (e != 0) {
			if (bad != NULL)
				*bad = wr;
			break;
		}
	}
	pthread_mutex_unlock(&sv.lock);
	return e;
}

/* ---- what librdmacm calls (soft_ibv.h) ---- */

struct info_hdr {
	uint32_t desc_len;
	uint32_t nmrs;
};

static int qp_info(struct ibv_qp *qp, void *buf, size_t cap, size_t *len)
{
	struct sv_qp *q = (struct sv_qp *)qp;
	struct info_hdr h;
	const void *blob;
	size_t blen;
	struct sv_peer_mr mrs[SOFT_IBV_PEER_MRS];

	if (nic_of(q)->qp_export(q->nqp, &blob, &blen) != DOCA_SUCCESS)
		return EIO;
	pthread_mutex_lock(&sv.lock);
	h.nmrs = sv_mr_table(q->pub.pd, mrs, SOFT_IBV_PEER_MRS);
	pthread_mutex_unlock(&sv.lock);
	h.desc_len = (uint32_t)blen;
	*len = sizeof(h) + blen + h.nmrs * sizeof(mrs[0]);
	if (*len > cap)
		return ENOSPC;
	memcpy(buf, &h, sizeof(h));
	memcpy((char *)buf + sizeof(h), blob, blen);
	memcpy((char *)buf + sizeof(h) + blen, mrs, h.nmrs * sizeof(mrs[0]));
	return 0;
}

static int qp_connect(struct ibv_qp *qp, const void *info, size_t len)
{
	struct sv_qp *q = (struct sv_qp *)qp;
	struct info_hdr h;
	doca_error_t err;

	if (len < sizeof(h))
		return EINVAL;
	memcpy(&h, info, sizeof(h));
	if (h.nmrs > SOFT_IBV_PEER_MRS || len != sizeof(h) + h.desc_len + h.nmrs * sizeof(struct sv_peer_mr))
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	memcpy(q->peer_mrs, (const char *)info + sizeof(h) + h.desc_len, h.nmrs * sizeof(struct sv_peer_mr));
	q->npeer_mrs = h.nmrs;
	err = nic_of(q)->qp_connect(q->nqp, (const char *)info + sizeof(h), h.desc_len);
	if (err == DOCA_SUCCESS)
		q->pub.state = IBV_QPS_RTS;
	pthread_mutex_unlock(&sv.lock);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("librdmacm: the soft NIC could not connect QP %u: %s", q->pub.qp_num,
			    doca_error_get_descr(err));
	return err == DOCA_SUCCESS ? 0 : EINVAL;
}

static void qp_disconnect(struct ibv_qp *qp)
{
	struct sv_qp *q = (struct sv_qp *)qp;

	bool flushed = false;

	pthread_mutex_lock(&sv.lock);
	flushed = sv_qp_flush(q);
	pthread_mutex_unlock(&sv.lock);
	if (flushed)
		sv_qp_notify(q); /* a CQ waiting in ibv_get_cq_event hears of the flush */
}

static struct softhw_rnic_qp *qp_wire(struct ibv_qp *qp)
{
	struct sv_qp *q = (struct sv_qp *)qp;

	pthread_mutex_lock(&sv.lock);
	q->wire = true;
	q->npeer_mrs = 0;
	pthread_mutex_unlock(&sv.lock);
	return q->nqp;
}

static void qp_cm(struct ibv_qp *qp)
{
	struct sv_qp *q = (struct sv_qp *)qp;

	pthread_mutex_lock(&sv.lock);
	q->cm = true;
	pthread_mutex_unlock(&sv.lock);
}

static void qp_up(struct ibv_qp *qp, uint32_t dest_qpn)
{
	struct sv_qp *q = (struct sv_qp *)qp;

	pthread_mutex_lock(&sv.lock);
	q->attr.dest_qp_num = dest_qpn; /* completions' src_qp, ibv_query_qp */
	if (!q->flushed)
		q->pub.state = IBV_QPS_RTS;
	pthread_mutex_unlock(&sv.lock);
}

const struct soft_ibv_hooks sv_hooks = {
	.dev_of = sv_dev_of,
	.qp_info = qp_info,
	.qp_connect = qp_connect,
	.qp_disconnect = qp_disconnect,
	.qp_wire = qp_wire,
	.qp_up = qp_up,
	.qp_cm = qp_cm,
	.qp_enable_ex = sv_qp_enable_ex,
};

const struct ibv_context_ops sv_ops = {
	.poll_cq = sv_poll_cq,
	.req_notify_cq = sv_req_notify_cq,
	.post_srq_recv = sv_post_srq_recv,
	.post_send = sv_post_send,
	.post_recv = sv_post_recv,
};

