/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA-CM over RoCEv2 (roce_cm.h): the IB CM exchange on QP1 as Linux rdma_cm does it.
 *
 * Active (doca_rdma_connect_to_addr): REQ (service ID of the RDMA-CM port, IP addressing header
 * in the private data), sent again every 4.6 s (2 x lifetime 16 + response timeout 20, as
 * Linux) up to 15 times or until the connection's own deadline; REP -> the qp starts, RTU;
 * REJ -> the connection fails; MRA -> wait the service timeout it names (once per message).
 * Passive (doca_rdma_start_listen_to_port): REQ -> a new qp and the connection request; the
 * owner's accept -> REP (its private data), RTU -> established; reject -> REJ 28 (consumer).
 * A REQ nobody on the address listens to -> REJ 8 (invalid service ID). Duplicate REQs are
 * answered with an MRA while the owner has not answered.
 * Disconnect: DREQ (sent again on timeouts), answered by DREP; a DREQ ends the connection at
 * once (disconnection callback), or as soon as the ACKs of what we sent have come (rxe may send
 * its DREQ ahead of them), CM_LINGER_MS at most. A record stays in time-wait a while to answer
 * duplicates.
 *
 * Starting PSNs as Linux's CM: each side's message carries the PSN it expects to receive first.
 * What ending a connection takes is also kept in the address's registry (cmc_publish), so that
 * if this process dies, the process that reclaims it sends the DREQ (or REJ) for it.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "softhw/base/sdk_log.h"
#include "softhw/fabric/peer.h"
#include "softhw/rnic/rnic_int.h"
#include "softhw/rnic/roce_cm.h"
#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"
#include "softhw/rnic/roce_port.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_ROCE_CM);

#define CM_RESPONSE_TIMEOUT 20 /* CMA_CM_RESPONSE_TIMEOUT: 4.3 s */
#define CM_PACKET_LIFETIME 16  /* RDMA-CM's on RoCE */
#define CM_MAX_RETRIES 15
#define CM_CA_ACK_DELAY 15      /* rxe's */
#define CM_RD_ATOMIC 16         /* what the path's engine serves (ROCE_RD_ATOMIC) */
#define CM_TIMEWAIT_MS 1000     /* answering duplicate DREQs after the end */
#define CM_LINGER_MS 100        /* a DREQ's hang-up waits this long at most for the ACKs of what we sent */
#define CM_HOP_LIMIT 64
/*
 * Requests a listening ep may hold unanswered (each is a qp and a socket): more are refused with REJ
 * "no resources", so a flood of REQs, which anyone on the network can send, cannot take the process's
 * descriptors or the address's QPNs. DOCA's and rdma_cm's own limits apply when the owner answers.
 */
#define ROCE_CM_PENDING_MAX 128

enum cmc_state {
	CMC_REQ_SENT,  /* active: waiting for REP / REJ */
	CMC_REQ_RCVD,  /* passive: the owner has the request */
	CMC_REP_SENT,  /* passive: waiting for RTU */
	CMC_ESTABLISHED,
	CMC_DREQ_SENT,
	CMC_TIMEWAIT,  /* ended: answers duplicates until the deadline */
};

struct cmc {
	struct cmc *next;
	struct rnic_qp *qp;            /* NULL once freed */
	struct rnic_qp *data;          /* librdmacm: the qp the messages describe (qp->cm_data); NULL: qp itself */
	const struct roce_cm_local *l;
	struct rnic_ep *listener;      /* passive: the listening ep the request went to */
	enum cmc_state state;
	bool active;
	bool remote_known;             /* remote_id is the peer's (passive: from the REQ; active: from the REP) */
	bool mra_seen;                 /* the message we wait on (REQ, REP) was MRAed once: later MRAs are dropped */
	uint32_t local_id, remote_id;
	uint64_t tid, dreq_tid;
	uint32_t peer_ip;
	uint32_t local_qpn, peer_qpn;
	uint32_t rq_psn, sq_psn;
	uint8_t mtu_log;
	uint32_t flow_label;           /* the REQ's primary path's: the RC QPs' UDP port follows from it */
	uint8_t peer_timeout;          /* passive: the REQ's local CM response timeout (its REP resend time) */
	uint8_t peer_retries;          /* passive: the REQ's max CM retries */
	uint8_t peer_rd;               /* the peer's responder resources (REQ or REP): our READs in flight */
	uint8_t peer_rnr;              /* the RNR retry count the peer's REQ / REP asks of our QP (as Linux's cm_init_qp_rts_attr) */
	uint8_t retries;               /* resends left */
	uint64_t deadline;             /* ms: resend or end time-wait; 0: none */
	uint64_t interval;             /* ms between resends */
	uint8_t mad[ROCE_MAD_LEN];     /* the last message that is resent on a timeout */
	uint8_t peer_pdata[ROCE_CM_REP_PDATA]; /* the REP's private data (active) */
};

struct cml {
	struct cml *next;
	const struct roce_cm_local *l;
	struct rnic_ep *ep;
	uint16_t port;
};

static struct {
	pthread_mutex_t lock;
	struct cmc *conns;
	struct cml *listeners;
	uint32_t psn;                  /* QP1's BTH PSN */
	struct cm_ending {
		struct rnic_qp *qp;
		uint64_t until;        /* ms: hung up then even if ACKs are still owed to it */
	} ending[64];                  /* service thread: ended by a DREQ, hung up after the batch (roce_cm_rx_done) */
	int nending;
	struct rnic_qp *est[16];       /* connections established by a packet on their data qp (COMM_EST), after the batch */
	int nest;
	struct roce_cm_stats st;
} cm = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Linux's approximation of a 5-bit time value in ms. */
static uint64_t conv_ms(uint8_t t)
{
	return 1ull << (t > 8 ? t - 8 : 0);
}

/* A peer's REQ asks its REP resend time, an MRA a wait: no more than 2^22 x 4.096 us (17 s), so
 * one peer cannot hold a connection for hours (31 would be 2.4 h a time) */
#define CM_PEER_TIMEOUT_MAX 22

/*
 * A peer's REQ also asks how often our REP is sent again (max CM retries, up to 15): at most 5,
 * so one REQ, whose source address anyone can write, has us send at most 6 REPs to that address
 * (16 before). Five resends at Linux's 4 s still cover 24 s of lost REPs (a lost RTU needs none:
 * the client's first packet establishes the connection).
 */
#define CM_PEER_RETRIES_MAX 5

static uint64_t peer_ms(uint8_t t)
{
	return conv_ms(t < CM_PEER_TIMEOUT_MAX ? t : CM_PEER_TIMEOUT_MAX);
}

/* Resends of our REQ, REP or DREQ: want, or fewer with SOFTDOCA_ROCE_CM_RETRIES (tests, and hosts
 * that would rather fail a dead peer's connection sooner than Linux's 15 x 4.3 s) */
static uint8_t cm_retries(uint8_t want)
{
	const char *v = getenv("SOFTDOCA_ROCE_CM_RETRIES");
	long n = v != NULL && *v != '\0' ? atol(v) : -1;

	return n >= 0 && n < want ? (uint8_t)n : want;
}

/* ---- sending (cm.lock may be held; takes the port's lock) ---- */

static void mad_send(const struct roce_cm_local *l, uint32_t ip, const uint8_t *mad)
{
	uint8_t dgram[ROCE_BTH_LEN + ROCE_DETH_LEN + ROCE_MAD_LEN + ROCE_ICRC_LEN];
	struct roce_pkt pkt = {0};
	struct roce_ip4 v4 = {.src = l->ip, .dst = ip, .id = 0, .frag = ROCE_IP4_DF};
	struct iovec iov;
	size_t n;

	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.bth.ack_req = true; /* QP1 keeps AckReq, as Linux's GSI QP */
	pkt.bth.psn = __atomic_fetch_add(&cm.psn, 1, __ATOMIC_RELAXED) & ROCE_PSN_MASK;
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	n = roce_pkt_build(dgram, sizeof(dgram), &pkt, mad, ROCE_MAD_LEN);
	if (n == 0)
		return;
	iov.iov_base = dgram;
	iov.iov_len = n;
	pthread_mutex_lock(l->lock);
	roce_icrc_store(dgram, n, roce_icrc_ip4(&v4, roce_port_qp_sport(l->port, 1), ROCE_UDP_PORT, dgram, n));
	/* a lost MAD is sent again on its timeout (or the peer's) */
	(void)roce_port_send(l->port, 1, ip, 0, &iov, 1);
	pthread_mutex_unlock(l->lock);
}

/* Sends c->mad and arms its resend (cm.lock held). */
static void cmc_send(struct cmc *c, uint64_t interval, uint8_t retries)
{
	mad_send(c->l, c->peer_ip, c->mad);
	c->interval = interval;
	c->retries = retries;
	c->deadline = interval != 0 ? rnic_now_ms() + interval : 0;
}

static void send_rej(const struct roce_cm_local *l, uint32_t ip, uint64_t tid, uint32_t local_id, uint32_t remote_id,
		     uint8_t msg, uint16_t reason)
{
	struct roce_cm_rej rej = {.local_comm_id = local_id, .remote_comm_id = remote_id, .msg_rejected = msg, .reason = reason};
	uint8_t mad[ROCE_MAD_LEN];

	if (reason == ROCE_CM_REJ_TIMEOUT) { /* Linux finds the connection by the CA GUID in the ARI */
		rej.ari_len = 8;
		roce_put64(rej.ari, roce_ca_guid(l->ip));
	}
	roce_cm_rej_put(mad, tid, &rej);
	mad_send(l, ip, mad);
	cm.st.rej_sent++;
}

static void send_simple(const struct cmc *c, uint16_t attr, uint64_t tid)
{
	struct roce_cm_rtu rtu = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id};
	uint8_t mad[ROCE_MAD_LEN];

	roce_cm_rtu_put(mad, attr, tid, &rtu);
	mad_send(c->l, c->peer_ip, mad);
}

static void cmc_publish(const struct cmc *c);

static void cmc_dreq(struct cmc *c)
{
	struct roce_cm_dreq dreq = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id, .remote_qpn = c->peer_qpn};

	c->dreq_tid = (uint64_t)(softhw_token_new() & 0xffffffffu) << 32 | c->local_id;
	roce_cm_dreq_put(c->mad, c->dreq_tid, &dreq);
	c->state = CMC_DREQ_SENT;
	c->mra_seen = false;
	cmc_publish(c);
	cmc_send(c, 2 * conv_ms(CM_PACKET_LIFETIME) + conv_ms(CM_RESPONSE_TIMEOUT), cm_retries(CM_MAX_RETRIES));
}

/*
 * cm.lock held, after a state change: the registry keeps what ending the connection takes,
 * so that if this process dies whoever reclaims it sends the DREQ (or REJ) our CM no longer can
 * (docs/rocev2.md, "Crash tolerance"). An active one is kept from its REQ on: the peer's REP
 * then gets REJ "timeout", as Linux's cm_destroy_id sends for an id in REQ_SENT.
 */
static void cmc_publish(const struct cmc *c)
{
	struct roce_reg_conn e = {.local_id = c->local_id, .remote_id = c->remote_id, .peer_qpn = c->peer_qpn,
				  .peer_ip = c->peer_ip, .peer_port = ROCE_UDP_PORT};

	switch (c->state) {
	case CMC_REQ_SENT:
		e.state = ROCE_REG_CONN_REQ;
		e.tid = c->tid;
		e.remote_id = 0; /* the REP will say */
		e.peer_qpn = 0;
		break;
	case CMC_REQ_RCVD:
		e.state = ROCE_REG_CONN_SETUP;
		e.tid = c->tid;
		break;
	case CMC_REP_SENT:
	case CMC_ESTABLISHED:
		e.state = ROCE_REG_CONN_UP;
		break;
	case CMC_DREQ_SENT:
		e.state = ROCE_REG_CONN_DREQ;
		e.tid = c->dreq_tid;
		break;
	default:
		break;
	}
	pthread_mutex_lock(c->l->lock);
	if (e.state != 0)
		(void)roce_port_conn_note(c->l->port, &e); /* full: only the crash case loses it */
	else
		roce_port_conn_forget(c->l->port, c->local_id);
	pthread_mutex_unlock(c->l->lock);
}

static void cmc_timewait(struct cmc *c)
{
	c->state = CMC_TIMEWAIT;
	c->deadline = rnic_now_ms() + CM_TIMEWAIT_MS;
	cmc_publish(c); /* forgotten: nothing is owed any more */
}

/* ---- records (cm.lock held) ---- */

static struct cmc *cmc_of_qp(const struct rnic_qp *qp)
{
	for (struct cmc *c = cm.conns; c != NULL; c = c->next)
		if (c->qp == qp)
			return c;
	return NULL;
}

static struct cmc *cmc_by_id(const struct roce_cm_local *l, uint32_t local_id)
{
	for (struct cmc *c = cm.conns; c != NULL; c = c->next)
		if (c->l == l && c->local_id == local_id)
			return c;
	return NULL;
}

/* Tries at a comm ID no connection of ours holds: 22 random bits make a second one rare. */
#define CM_ID_TRIES 16

/*
 * A new record with its comm ID: the owner bits name this process (the port routes replies by
 * them), the 22 others are random for each connection. A peer's replies carry the ID back, so
 * it must not be guessable: counted up from the last one, an off-path sender could predict the
 * next and complete a handshake it forged (a REQ claiming another address, then its RTU), or
 * end another's connection. Random also means a later process in the same registry slot does
 * not reuse the IDs of the one before (peers may still hold them in time-wait).
 */
static struct cmc *cmc_new(const struct roce_cm_local *l, struct rnic_qp *qp)
{
	struct cmc *c = calloc(1, sizeof(*c));
	int tries = 0;

	if (c == NULL)
		return NULL;
	c->l = l;
	c->qp = qp;
	for (;;) {
		bool used = false;

		pthread_mutex_lock(l->lock);
		c->local_id = roce_port_comm_id(l->port, (uint32_t)softhw_token_new());
		pthread_mutex_unlock(l->lock);
		for (const struct cmc *o = cm.conns; o != NULL && !used; o = o->next)
			used = o->local_id == c->local_id;
		if (!used)
			break;
		if (++tries == CM_ID_TRIES) { /* (4 million IDs: the process would run out of memory first) */
			free(c);
			return NULL;
		}
	}
	c->next = cm.conns;
	cm.conns = c;
	return c;
}

/* What a REQ / REP offers: what the owner asked (librdmacm's conn_param), at most what the engine serves. */
static uint8_t depth(const struct rnic_qp *qp, uint8_t asked)
{
	return qp->cm_depths && asked < CM_RD_ATOMIC ? asked : CM_RD_ATOMIC;
}

/* ---- active side ---- */

/* The RNR retry count our REQ / REP asks of the peer's QP: librdmacm's conn_param, else the context's. */
static uint8_t offered_rnr_retry(const struct rnic_qp *qp)
{
	if (qp->cm_counts)
		return qp->cm_rnr_retry;
	return qp->ep->attr.rnr_retry_count > 7 ? 7 : qp->ep->attr.rnr_retry_count;
}

void roce_cm_dial(struct rnic_qp *qp)
{
	const struct roce_cm_local *l = roce_path_cm_local(qp);
	const struct sockaddr_in *sin = (const struct sockaddr_in *)&qp->peer_addr;
	struct roce_cm_req req;
	struct roce_cma_hdr cma = {.cma_version = 0, .ip_version = 4};
	uint32_t ip;
	struct cmc *c;

	if (qp->peer_addr.ss_family != AF_INET) {
		SDK_LOG_ERR("RDMA-CM over RoCEv2: only IPv4 addresses are reachable (the card's GIDs are IPv4-mapped); connect to the peer's IPv4 address");
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_NOT_SUPPORTED, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	ip = ntohl(sin->sin_addr.s_addr);
	pthread_mutex_lock(&cm.lock);
	c = cmc_new(l, qp);
	if (c == NULL) {
		pthread_mutex_unlock(&cm.lock);
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_NO_MEMORY, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	c->active = true;
	c->peer_ip = ip;
	c->data = qp->cm_data;
	c->local_qpn = c->data != NULL ? roce_path_qpn(c->data) : qp->cm_qpn != 0 ? qp->cm_qpn : roce_path_qpn(qp);
	c->rq_psn = (uint32_t)softhw_token_new() & ROCE_PSN_MASK;
	/* the REQ's path MTU, as the qp it describes offers it */
	c->mtu_log = roce_mtu_log_offered(l->mtu_log, (c->data != NULL ? c->data : qp)->ep->attr.mtu_log);
	c->tid = (uint64_t)(softhw_token_new() & 0xffffffffu) << 32 | c->local_id;
	memset(&req, 0, sizeof(req));
	req.local_comm_id = c->local_id;
	req.service_id = roce_cm_service_id(ROCE_PS_TCP, ntohs(sin->sin_port));
	req.local_ca_guid = roce_ca_guid(l->ip);
	req.local_qpn = c->local_qpn;
	req.responder_resources = depth(qp, qp->cm_resp_res);
	req.initiator_depth = depth(qp, qp->cm_init_depth);
	req.remote_cm_timeout = CM_RESPONSE_TIMEOUT;
	req.transport = ROCE_CM_TRANSPORT_RC;
	req.starting_psn = c->rq_psn;
	req.local_cm_timeout = CM_RESPONSE_TIMEOUT;
	req.retry_count = qp->cm_counts ? qp->cm_retry : 7;
	req.pkey = ROCE_PKEY_DEFAULT;
	req.path_mtu = (uint8_t)(c->mtu_log - 7);
	req.rnr_retry_count = offered_rnr_retry(qp);
	req.max_cm_retries = CM_MAX_RETRIES;
	req.primary.local_lid = req.primary.remote_lid = 0xffff;
	roce_gid_from_ip4(req.primary.local_gid, l->ip);
	roce_gid_from_ip4(req.primary.remote_gid, ip);
	/* our RDMA-CM port: the owner's (librdmacm's id), else one made up as an ephemeral one */
	cma.src_port = qp->cm_src_port != 0 ? qp->cm_src_port : (uint16_t)(0x8000 | (c->local_id & 0x7fff));
	/* the flow label newer Linux puts in from the RDMA-CM ports; rxe's RC UDP port follows from it */
	req.primary.flow_label = ((uint32_t)cma.src_port * 31u + ntohs(sin->sin_port)) & 0xfffff;
	c->flow_label = req.primary.flow_label;
	req.primary.hop_limit = CM_HOP_LIMIT;
	req.primary.local_ack_timeout = roce_cm_ack_timeout(CM_CA_ACK_DELAY, CM_PACKET_LIFETIME);
	roce_put32(cma.src + 12, l->ip);
	roce_put32(cma.dst + 12, ip);
	roce_cma_hdr_put(req.private_data, &cma);
	memcpy(req.private_data + ROCE_CMA_HDR_LEN, qp->cm_pdata, qp->cm_pdata_len < ROCE_CMA_USER_PDATA ? qp->cm_pdata_len : ROCE_CMA_USER_PDATA);
	roce_cm_req_put(c->mad, c->tid, &req);
	c->state = CMC_REQ_SENT;
	cmc_publish(c); /* before it leaves: a REP may come back before we could note it */
	cmc_send(c, 2 * conv_ms(CM_PACKET_LIFETIME) + conv_ms(CM_RESPONSE_TIMEOUT), cm_retries(CM_MAX_RETRIES));
	pthread_mutex_unlock(&cm.lock);
	/*
	 * From here the REQ's resends decide how long the connection waits (nic_timer fails it with
	 * TIME_OUT once they are spent, about 77 s), as Linux rdma_cm's do: the connection request
	 * time-out (DOCA's, or the soft NIC's 5 s) bounds the resolve steps. A REP lost once comes
	 * again only after 4.1 s, and a server may accept late.
	 */
	qp->deadline = 0;
}

/* The DOCA status a REJ ends a connection attempt with (the stream's for the same cause). */
static doca_error_t rej_status(uint16_t reason)
{
	return reason == ROCE_CM_REJ_CONSUMER ? DOCA_ERROR_CONNECTION_RESET : DOCA_ERROR_NOT_CONNECTED;
}

/* qp lock held: what the peer's message said, for librdmacm (qp_cm_info). */
static void info_set(struct rnic_qp *qp, const uint8_t *pdata, uint8_t len, uint8_t resp_res, uint8_t init_depth,
		     uint8_t retry, uint8_t rnr_retry, uint16_t rej_reason, uint32_t qpn)
{
	struct softhw_rnic_cm_info *i = &qp->cm_info;

	memset(i->pdata, 0, sizeof(i->pdata));
	memcpy(i->pdata, pdata, len);
	i->pdata_len = len;
	i->responder_resources = resp_res;
	i->initiator_depth = init_depth;
	i->retry_count = retry;
	i->rnr_retry_count = rnr_retry;
	i->rej_reason = rej_reason;
	i->qpn = qpn;
	qp->has_cm_info = true;
}

/*
 * qp lock held: the engine starts on the qp the messages described. With a data qp (librdmacm)
 * that one carries the traffic, RTS at once (it is no RDMA-CM qp: no CQE); qp only reports.
 */
static bool cm_start(struct cmc *c, struct rnic_qp *qp, struct rnic_qp *data, bool established, bool service)
{
	bool ok;

	/* at least 1: a peer that serves no READ NAKs ours rather than our engine holding them */
	(data != NULL ? data : qp)->cm_rd_atomic = c->peer_rd > 0 ? c->peer_rd : 1;
	if (data != NULL) /* librdmacm's QP takes it as Linux's rdma_cm sets it; a DOCA context keeps its own */
		data->cm_peer_rnr = (uint8_t)((c->peer_rnr > 7 ? 7 : c->peer_rnr) + 1);
	if (data == NULL)
		return roce_path_cm_connect(qp, c->peer_ip, c->peer_qpn, c->sq_psn, c->rq_psn, c->mtu_log, c->flow_label,
					    established, service);
	softhw_bias_lock(&data->lock); /* order: connection qp -> data qp */
	__atomic_store_n(&data->cm_wait_rtu, !established, __ATOMIC_RELAXED); /* passive: its packets may say it */
	ok = !data->dead && data->state == QP_IDLE &&
	     roce_path_cm_connect(data, c->peer_ip, c->peer_qpn, c->sq_psn, c->rq_psn, c->mtu_log, c->flow_label, true,
				  service);
	softhw_bias_unlock(&data->lock);
	if (!ok)
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_INVALID_VALUE, DOCA_ERROR_CONNECTION_ABORTED);
	else if (established)
		rnic_qp_established(qp);
	return ok;
}

static void rx_rep(struct cmc *c, uint64_t tid, const uint8_t *mad)
{
	struct roce_cm_rep rep;
	struct rnic_qp *qp = c->qp, *data = c->data;
	bool ok;

	roce_cm_rep_get(mad, &rep);
	(void)tid;
	if (c->state == CMC_ESTABLISHED && rep.local_comm_id == c->remote_id) {
		send_simple(c, ROCE_CM_RTU, c->tid); /* our RTU was lost: the REP came again */
		return;
	}
	if (c->state == CMC_TIMEWAIT) { /* we gave up (or were destroyed): the server must not wait for an RTU */
		send_rej(c->l, c->peer_ip, c->tid, c->local_id, rep.local_comm_id, ROCE_CM_MSG_REP, ROCE_CM_REJ_STALE_CONN);
		return;
	}
	if (c->state != CMC_REQ_SENT || qp == NULL) {
		cm.st.drop_unknown++;
		return;
	}
	c->remote_id = rep.local_comm_id;
	c->remote_known = true;
	c->peer_qpn = rep.local_qpn;
	c->sq_psn = rep.starting_psn;
	c->peer_rd = rep.responder_resources;
	c->peer_rnr = rep.rnr_retry_count;
	memcpy(c->peer_pdata, rep.private_data, sizeof(c->peer_pdata));
	c->state = CMC_ESTABLISHED;
	c->deadline = 0;
	cmc_publish(c);
	pthread_mutex_unlock(&cm.lock);
	softhw_bias_lock(&qp->lock);
	ok = !qp->dead && qp->state == QP_DIALING;
	if (ok)
		info_set(qp, rep.private_data, ROCE_CM_REP_PDATA, rep.responder_resources, rep.initiator_depth, 0,
			 rep.rnr_retry_count, 0, rep.local_qpn);
	ok = ok && cm_start(c, qp, data, true, true);
	softhw_bias_unlock(&qp->lock);
	pthread_mutex_lock(&cm.lock);
	if (ok) {
		send_simple(c, ROCE_CM_RTU, c->tid);
	} else { /* timed out or failed meanwhile: the server must not keep a half connection */
		send_rej(c->l, c->peer_ip, c->tid, c->local_id, c->remote_id, ROCE_CM_MSG_REP, ROCE_CM_REJ_TIMEOUT);
		if (c->state == CMC_ESTABLISHED)
			cmc_timewait(c);
	}
}

/* ---- passive side ---- */

static struct cml *listener_of(const struct roce_cm_local *l, uint16_t port)
{
	for (struct cml *x = cm.listeners; x != NULL; x = x->next)
		if (x->l == l && x->port == port && x->ep != NULL)
			return x;
	return NULL;
}

/* cm.lock held: the requests to listening ep its application has not answered yet */
static unsigned pending_requests(const struct rnic_ep *ep)
{
	unsigned n = 0;

	for (const struct cmc *c = cm.conns; c != NULL; c = c->next)
		n += c->listener == ep && c->state == CMC_REQ_RCVD;
	return n;
}

static void rx_req(const struct roce_cm_local *l, const struct roce_port_msg *m, uint64_t tid, const uint8_t *mad)
{
	struct roce_cm_req req;
	struct roce_cma_hdr cma;
	uint16_t ps = 0, port = 0;
	uint32_t peer_ip = ntohl(m->from.sin_addr.s_addr), gid_ip = 0;
	struct sockaddr_storage from;
	struct sockaddr_in *sin = (struct sockaddr_in *)&from;
	struct rnic_hello h;
	struct rnic_ep *ep;
	struct rnic_qp *qp;
	struct cml *x;
	struct cmc *c;

	roce_cm_req_get(mad, &req);
	for (c = cm.conns; c != NULL; c = c->next)
		if (c->l == l && !c->active && c->remote_id == req.local_comm_id && c->peer_ip == peer_ip &&
		    c->peer_qpn == req.local_qpn) {
			if (c->state == CMC_REQ_RCVD) { /* the owner has not answered: ask for patience */
				struct roce_cm_mra mra = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id,
							  .msg_mraed = ROCE_CM_MSG_REQ, .service_timeout = 24};
				uint8_t out[ROCE_MAD_LEN];

				roce_cm_mra_put(out, c->tid, &mra);
				mad_send(l, peer_ip, out);
				cm.st.mra_sent++;
			} else if (c->state == CMC_TIMEWAIT) {
				send_rej(l, peer_ip, tid, c->local_id, req.local_comm_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_STALE_CONN);
			}
			return; /* after the REP: its own timer sends it again */
		}
	if (m->unclaimed || !roce_cm_service_parse(req.service_id, &ps, &port) || ps != ROCE_PS_TCP ||
	    (x = listener_of(l, port)) == NULL) {
		send_rej(l, peer_ip, tid, 0, req.local_comm_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_INVALID_SERVICE_ID);
		return;
	}
	if (!roce_gid_to_ip4(req.primary.remote_gid, &gid_ip) || gid_ip != l->ip) {
		send_rej(l, peer_ip, tid, 0, req.local_comm_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_INVALID_GID);
		return;
	}
	if (!roce_cma_hdr_get(req.private_data, &cma) || cma.ip_version != 4 || req.transport != ROCE_CM_TRANSPORT_RC ||
	    req.path_mtu < 1 || req.path_mtu > 5) {
		send_rej(l, peer_ip, tid, 0, req.local_comm_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_CONSUMER);
		return;
	}
	ep = x->ep;
	if (pending_requests(ep) >= ROCE_CM_PENDING_MAX) {
		static struct softhw_ratelimit rl;

		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_WARN,
				   "RDMA-CM over RoCEv2: %u connection requests to port %u wait for the application's "
				   "answer; the REQ from %u.%u.%u.%u is refused (no resources). Accept or reject "
				   "requests sooner (progress the PE)",
				   ROCE_CM_PENDING_MAX, port, peer_ip >> 24, (peer_ip >> 16) & 0xff,
				   (peer_ip >> 8) & 0xff, peer_ip & 0xff);
		cm.st.rej_busy++;
		send_rej(l, peer_ip, tid, 0, req.local_comm_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_NO_RESOURCES);
		return;
	}
	memset(&h, 0, sizeof(h));
	h.cm = 1;
	h.self.wire = 1;
	h.self.roce_ip = peer_ip;
	h.self.roce_qpn = req.local_qpn;
	h.self.roce_psn = req.starting_psn;
	h.self.roce_mtu_log = (uint8_t)(req.path_mtu + 7);
	h.self.rnr_retry = req.rnr_retry_count;
	memset(&from, 0, sizeof(from));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(cma.src_port);
	memcpy(&sin->sin_addr.s_addr, cma.src + 12, 4); /* the active side's RDMA-CM address */
	c = cmc_new(l, NULL);
	if (c == NULL) {
		send_rej(l, peer_ip, tid, 0, req.local_comm_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_NO_RESOURCES);
		return;
	}
	c->peer_ip = peer_ip;
	c->listener = ep;
	c->remote_id = req.local_comm_id;
	c->remote_known = true;
	c->tid = tid;
	c->peer_qpn = req.local_qpn;
	c->sq_psn = req.starting_psn;
	c->rq_psn = (uint32_t)softhw_token_new() & ROCE_PSN_MASK;
	c->mtu_log = (uint8_t)(req.path_mtu + 7) < l->mtu_log ? (uint8_t)(req.path_mtu + 7) : l->mtu_log;
	c->flow_label = req.primary.flow_label;
	c->peer_timeout = req.local_cm_timeout;
	c->peer_retries = req.max_cm_retries;
	c->peer_rd = req.responder_resources;
	c->peer_rnr = req.rnr_retry_count;
	c->state = CMC_REQ_RCVD;
	cmc_publish(c);
	pthread_mutex_unlock(&cm.lock);
	/* a new qp: its lock cannot be held by anyone (order qp -> cm kept) */
	qp = rnic_qp_requested(ep, &h, &from);
	pthread_mutex_lock(&cm.lock);
	if (qp == NULL) {
		send_rej(l, peer_ip, tid, c->local_id, req.local_comm_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_NO_RESOURCES);
		cmc_timewait(c);
		return;
	}
	c->qp = qp;
	c->local_qpn = roce_path_qpn(qp);
	info_set(qp, req.private_data + ROCE_CMA_HDR_LEN, ROCE_CMA_USER_PDATA, req.responder_resources, req.initiator_depth,
		 req.retry_count, req.rnr_retry_count, 0, req.local_qpn);
	sin = (struct sockaddr_in *)&qp->cm_info.local;
	memset(&qp->cm_info.local, 0, sizeof(qp->cm_info.local));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	memcpy(&sin->sin_addr.s_addr, cma.dst + 12, 4); /* the address the active side asked for */
	softhw_bias_unlock(&qp->lock);
}

void roce_cm_answer(struct rnic_qp *qp, doca_error_t status)
{
	struct cmc *c;
	struct roce_cm_rep rep;

	pthread_mutex_lock(&cm.lock);
	c = cmc_of_qp(qp);
	if (c == NULL || c->state != CMC_REQ_RCVD) {
		pthread_mutex_unlock(&cm.lock);
		return;
	}
	if (status != DOCA_SUCCESS) { /* rdma_reject: REJ "consumer defined" */
		struct roce_cm_rej rej = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id,
					  .msg_rejected = ROCE_CM_MSG_REQ, .reason = ROCE_CM_REJ_CONSUMER};

		memcpy(rej.private_data, qp->cm_pdata, qp->cm_pdata_len < ROCE_CM_REJ_PDATA ? qp->cm_pdata_len : ROCE_CM_REJ_PDATA);

		roce_cm_rej_put(c->mad, c->tid, &rej);
		mad_send(c->l, c->peer_ip, c->mad);
		cm.st.rej_sent++;
		cmc_timewait(c);
		pthread_mutex_unlock(&cm.lock);
		return;
	}
	if (qp->cm_data != NULL) { /* librdmacm: the REP describes the application's QP */
		c->data = qp->cm_data;
		c->local_qpn = roce_path_qpn(c->data);
	} else if (qp->cm_qpn != 0) { /* librdmacm without a QP: conn_param's qp_num */
		c->local_qpn = qp->cm_qpn;
	}
	memset(&rep, 0, sizeof(rep));
	rep.local_comm_id = c->local_id;
	rep.remote_comm_id = c->remote_id;
	rep.local_qpn = c->local_qpn;
	rep.starting_psn = c->rq_psn;
	rep.responder_resources = depth(qp, qp->cm_resp_res);
	rep.initiator_depth = depth(qp, qp->cm_init_depth);
	rep.target_ack_delay = CM_CA_ACK_DELAY;
	rep.rnr_retry_count = offered_rnr_retry(qp);
	rep.local_ca_guid = roce_ca_guid(c->l->ip);
	memcpy(rep.private_data, qp->cm_pdata, qp->cm_pdata_len);
	roce_cm_rep_put(c->mad, c->tid, &rep);
	c->state = CMC_REP_SENT;
	c->mra_seen = false; /* the REP's own MRA may come */
	cmc_publish(c);
	/* as Linux: the REQ's own timing, with fewer resends if it asks more than CM_PEER_RETRIES_MAX */
	cmc_send(c, peer_ms(c->peer_timeout),
		 cm_retries(c->peer_retries < CM_PEER_RETRIES_MAX ? c->peer_retries : CM_PEER_RETRIES_MAX));
	pthread_mutex_unlock(&cm.lock);
	/* the engine is up before the RTU (RTR): the active side may send right after it */
	if (cm_start(c, qp, c->data, false, false))
		qp->state = QP_HANDSHAKE; /* established on the RTU */
}

static void rx_rtu(struct cmc *c)
{
	struct rnic_qp *qp = c->qp;

	if (c->state != CMC_REP_SENT) {
		if (c->state != CMC_ESTABLISHED)
			cm.st.drop_unknown++;
		return;
	}
	c->state = CMC_ESTABLISHED;
	c->deadline = 0;
	if (c->data != NULL)
		__atomic_store_n(&c->data->cm_wait_rtu, false, __ATOMIC_RELAXED);
	if (qp == NULL)
		return;
	pthread_mutex_unlock(&cm.lock);
	softhw_bias_lock(&qp->lock);
	if (!qp->dead && qp->state == QP_HANDSHAKE)
		rnic_qp_established(qp);
	softhw_bias_unlock(&qp->lock);
	pthread_mutex_lock(&cm.lock);
}

/*
 * qp lock held: a packet from the peer on a passive connection still waiting for its RTU. The
 * RTU was lost (the active side sends once it has our REP): established now, as IB's
 * communication-established event (Linux: ib_cm_notify(IB_EVENT_COMM_EST)), not after our REP's
 * resend brings another RTU (seconds; seen with the guest's rdma_client under netem).
 */
void roce_cm_comm_est(struct rnic_qp *qp)
{
	struct cmc *c;

	pthread_mutex_lock(&cm.lock);
	c = cmc_of_qp(qp);
	if (c != NULL && c->state == CMC_REP_SENT) {
		c->state = CMC_ESTABLISHED;
		c->deadline = 0;
	}
	pthread_mutex_unlock(&cm.lock);
	if (!qp->dead && qp->state == QP_HANDSHAKE)
		rnic_qp_established(qp);
}

/*
 * data qp lock held: a packet on a librdmacm QP whose connection qp waits for the RTU (lost).
 * That qp's lock comes before this one: it is established after the batch (roce_cm_rx_done).
 */
void roce_cm_comm_est_data(struct rnic_qp *data)
{
	__atomic_store_n(&data->cm_wait_rtu, false, __ATOMIC_RELAXED);
	pthread_mutex_lock(&cm.lock);
	for (struct cmc *c = cm.conns; c != NULL; c = c->next)
		if (c->data == data && c->state == CMC_REP_SENT && c->qp != NULL &&
		    cm.nest < (int)(sizeof(cm.est) / sizeof(cm.est[0]))) {
			c->state = CMC_ESTABLISHED;
			c->deadline = 0;
			cm.est[cm.nest++] = c->qp;
		}
	pthread_mutex_unlock(&cm.lock);
}

/* ---- both sides ---- */

/* cm.lock held; dropped around the qp's lock. The peer ended or refused the connection. */
static void qp_end(struct cmc *c, bool failed, doca_error_t status, const struct roce_cm_rej *rej)
{
	struct rnic_qp *qp = c->qp;

	if (qp == NULL)
		return;
	pthread_mutex_unlock(&cm.lock);
	softhw_bias_lock(&qp->lock);
	if (rej != NULL)
		info_set(qp, rej->private_data, ROCE_CM_REJ_PDATA, 0, 0, 0, 0, rej->reason, 0);
	if (!qp->dead) {
		if (failed && (qp->state == QP_DIALING || qp->state == QP_HANDSHAKE || qp->state == QP_REQUEST))
			rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, status, DOCA_ERROR_CONNECTION_ABORTED);
		else if (qp->state == QP_RTS || qp->state == QP_HANDSHAKE)
			rnic_qp_hangup(qp); /* disconnection callback now, not after a silence */
	}
	softhw_bias_unlock(&qp->lock);
	pthread_mutex_lock(&cm.lock);
}

static void rx_rej(struct cmc *c, const uint8_t *mad)
{
	struct roce_cm_rej rej;
	char text[16];

	roce_cm_rej_get(mad, &rej);
	/*
	 * As Linux: a REJ of our REQ only while we wait for the REP, of our REP only while we wait
	 * for the RTU (a REJ "other" as before): a REJ of the REQ cannot end a connection that is past it.
	 */
	if ((rej.msg_rejected == ROCE_CM_MSG_REQ && c->state != CMC_REQ_SENT) ||
	    (rej.msg_rejected == ROCE_CM_MSG_REP && c->state != CMC_REP_SENT) ||
	    (c->state != CMC_REQ_SENT && c->state != CMC_REP_SENT && c->state != CMC_REQ_RCVD)) {
		cm.st.drop_unknown++;
		return;
	}
	snprintf(text, sizeof(text), "%u.%u.%u.%u", c->peer_ip >> 24, (c->peer_ip >> 16) & 0xff,
		 (c->peer_ip >> 8) & 0xff, c->peer_ip & 0xff);
	if (c->active)
		SDK_LOG_ERR("RDMA-CM over RoCEv2: %s rejected the connection (IB CM reason %u%s)", text, (unsigned)rej.reason,
			    rej.reason == ROCE_CM_REJ_INVALID_SERVICE_ID ? ": nobody listens on that port"
			    : rej.reason == ROCE_CM_REJ_CONSUMER ? ": the server's application refused it" : "");
	cmc_timewait(c);
	qp_end(c, true, rej_status(rej.reason), &rej);
}

static void rx_mra(struct cmc *c, const uint8_t *mad)
{
	struct roce_cm_mra mra;

	roce_cm_mra_get(mad, &mra);
	if ((c->state != CMC_REQ_SENT || mra.msg_mraed != ROCE_CM_MSG_REQ) &&
	    (c->state != CMC_REP_SENT || mra.msg_mraed != ROCE_CM_MSG_REP))
		return;
	/*
	 * One MRA per message, as Linux's MRA_REQ_RCVD / MRA_REP_RCVD: an MRA every few hundred ms
	 * (the peer's, or anyone's on its address before we know its comm ID) would otherwise put
	 * the resend off for ever, and the connection attempt never ends. Later ones are dropped;
	 * the resends (and their count) go on from the wait this one asked.
	 */
	if (c->mra_seen) {
		cm.st.drop_unknown++;
		return;
	}
	c->mra_seen = true;
	c->deadline = rnic_now_ms() + peer_ms(mra.service_timeout) + 2 * conv_ms(CM_PACKET_LIFETIME);
}

static void rx_dreq(struct cmc *c, uint64_t tid, const uint8_t *mad)
{
	struct roce_cm_dreq dreq;

	roce_cm_dreq_get(mad, &dreq);
	if (dreq.remote_qpn != c->local_qpn) { /* as Linux: a DREQ for another QP is dropped */
		cm.st.drop_unknown++;
		return;
	}
	send_simple(c, ROCE_CM_DREP, tid);
	if (c->state == CMC_TIMEWAIT)
		return; /* a duplicate: answered again */
	if (c->state != CMC_ESTABLISHED && c->state != CMC_REP_SENT && c->state != CMC_DREQ_SENT) {
		cm.st.drop_unknown++;
		return;
	}
	cmc_timewait(c);
	/*
	 * The peer's last ACKs may come after its DREQ: on another socket (the QP's), or later still
	 * (rxe's DREQ leaves from its GSI QP, independent of the data QP's responder). The hang-up
	 * waits until this batch of datagrams is read, and then while what we sent is unacknowledged
	 * (CM_LINGER_MS at most), so work the peer took does not fail here.
	 */
	if (c->qp != NULL && cm.nending < (int)(sizeof(cm.ending) / sizeof(cm.ending[0])))
		cm.ending[cm.nending++] = (struct cm_ending){.qp = c->qp, .until = rnic_now_ms() + CM_LINGER_MS};
	else
		qp_end(c, false, DOCA_SUCCESS, NULL);
}

/* Service thread (qps not freed meanwhile): the connection's data still waits for ACKs. */
static bool lingers(struct rnic_qp *qp)
{
	struct rnic_qp *data;
	struct cmc *c;
	bool unacked = false;

	pthread_mutex_lock(&cm.lock);
	c = cmc_of_qp(qp);
	data = c != NULL && c->data != NULL ? c->data : qp;
	pthread_mutex_unlock(&cm.lock);
	softhw_bias_lock(&data->lock);
	if (!data->dead && data->state == QP_RTS)
		unacked = roce_path_cm_unacked(data);
	softhw_bias_unlock(&data->lock);
	return unacked;
}

void roce_cm_rx_done(void)
{
	struct cm_ending q[sizeof(cm.ending) / sizeof(cm.ending[0])];
	struct rnic_qp *e[sizeof(cm.est) / sizeof(cm.est[0])];
	uint64_t now = rnic_now_ms();
	int n, ne;

	/*
	 * Only the service thread hangs up: it is the one that frees qps (reap), so a listed qp
	 * cannot go while it works. An owner draining the port while it polls leaves the list to it.
	 */
	if (!rnic_nic_on_thread()) {
		if (__atomic_load_n(&cm.nending, __ATOMIC_RELAXED) > 0 || __atomic_load_n(&cm.nest, __ATOMIC_RELAXED) > 0)
			rnic_nic_kick();
		return;
	}
	pthread_mutex_lock(&cm.lock);
	n = cm.nending;
	memcpy(q, cm.ending, (size_t)n * sizeof(q[0]));
	cm.nending = 0;
	ne = cm.nest;
	memcpy(e, cm.est, (size_t)ne * sizeof(e[0]));
	cm.nest = 0;
	pthread_mutex_unlock(&cm.lock);
	for (int i = 0; i < ne; i++) { /* COMM_EST of librdmacm's connections (service thread: not freed) */
		softhw_bias_lock(&e[i]->lock);
		if (!e[i]->dead && e[i]->state == QP_HANDSHAKE)
			rnic_qp_established(e[i]);
		softhw_bias_unlock(&e[i]->lock);
	}
	for (int i = 0; i < n; i++) { /* service thread: not freed meanwhile */
		struct rnic_qp *qp = q[i].qp;

		if (now < q[i].until && lingers(qp)) {
			bool kept = false;

			pthread_mutex_lock(&cm.lock); /* DREQs may have come meanwhile (an owner's drain) */
			if (cm.nending < (int)(sizeof(cm.ending) / sizeof(cm.ending[0]))) {
				cm.ending[cm.nending++] = q[i];
				kept = true;
			}
			pthread_mutex_unlock(&cm.lock);
			if (kept)
				continue;
		}
		softhw_bias_lock(&qp->lock);
		if (!qp->dead && (qp->state == QP_RTS || qp->state == QP_HANDSHAKE))
			rnic_qp_hangup(qp); /* disconnection callback now, not after a silence */
		softhw_bias_unlock(&qp->lock);
	}
}

void roce_cm_rx(const struct roce_cm_local *l, const struct roce_port_msg *m)
{
	struct roce_pkt pkt;
	struct roce_mad_hdr hdr;
	struct cmc *c;
	uint32_t remote_id;

	pthread_mutex_lock(&cm.lock);
	if (roce_pkt_parse(m->buf, m->len, &pkt) != ROCE_PARSE_OK || pkt.bth.opcode != ROCE_UD_SEND_ONLY ||
	    pkt.deth.qkey != ROCE_QP1_QKEY || !roce_cm_mad_check(pkt.payload, pkt.payload_len, &hdr)) {
		cm.st.drop_malformed++;
		pthread_mutex_unlock(&cm.lock);
		return;
	}
	cm.st.rx++;
	if (hdr.attr_id == ROCE_CM_REQ) {
		rx_req(l, m, hdr.tid, pkt.payload);
		pthread_mutex_unlock(&cm.lock);
		return;
	}
	/*
	 * Every other message names our comm ID second (the remote one, from the sender) and the
	 * sender's first. Both must be the connection's, as Linux's cm_acquire_id(local, remote):
	 * the address alone is anyone's on it (another port, another process), and a REJ or DREQ
	 * from there would end the connection. The peer's ID is not known before its REP (active)
	 * or REQ (passive): a REP, an MRA or a REJ of our REQ names it first.
	 */
	remote_id = roce_get32(pkt.payload + ROCE_MAD_HDR_LEN + 4);
	c = cmc_by_id(l, remote_id);
	if (c == NULL || c->peer_ip != ntohl(m->from.sin_addr.s_addr) ||
	    (c->remote_known && roce_get32(pkt.payload + ROCE_MAD_HDR_LEN) != c->remote_id)) {
		cm.st.drop_unknown++;
		pthread_mutex_unlock(&cm.lock);
		return;
	}
	switch (hdr.attr_id) {
	case ROCE_CM_REP:
		rx_rep(c, hdr.tid, pkt.payload);
		break;
	case ROCE_CM_REJ:
		rx_rej(c, pkt.payload);
		break;
	case ROCE_CM_MRA:
		rx_mra(c, pkt.payload);
		break;
	case ROCE_CM_RTU:
		rx_rtu(c);
		break;
	case ROCE_CM_DREQ:
		rx_dreq(c, hdr.tid, pkt.payload);
		break;
	case ROCE_CM_DREP:
		if (c->state == CMC_DREQ_SENT)
			cmc_timewait(c);
		break;
	default:
		cm.st.drop_malformed++; /* LAP, APR, SIDR: not served */
		break;
	}
	pthread_mutex_unlock(&cm.lock);
}

void roce_cm_bye(struct rnic_qp *qp)
{
	struct rnic_qp *data = NULL;
	struct cmc *c;

	/*
	 * The DREQ must not overtake the ACK of what the application just received: Linux flushes
	 * its QP on the DREQ, and a send of its not yet acknowledged would fail there. So what the
	 * engine owes leaves first (the data qp's lock after the connection's, as in rx_rep; it
	 * lives on: the application is disconnecting it, not destroying it).
	 */
	pthread_mutex_lock(&cm.lock);
	c = cmc_of_qp(qp);
	if (c != NULL && c->data != NULL && !__atomic_load_n(&c->data->dead, __ATOMIC_RELAXED))
		data = c->data;
	pthread_mutex_unlock(&cm.lock);
	if (data != NULL) {
		softhw_bias_lock(&data->lock);
		if (!data->dead)
			roce_path_cm_flush(data);
		softhw_bias_unlock(&data->lock);
	} else {
		roce_path_cm_flush(qp);
	}
	pthread_mutex_lock(&cm.lock);
	c = cmc_of_qp(qp);
	if (c != NULL && (c->state == CMC_ESTABLISHED || c->state == CMC_REP_SENT))
		cmc_dreq(c);
	pthread_mutex_unlock(&cm.lock);
}

void roce_cm_qp_gone(struct rnic_qp *qp)
{
	struct cmc *c;

	pthread_mutex_lock(&cm.lock);
	for (int i = 0; i < cm.nending; i++) /* a DREQ's hang-up that has not run: nothing to hang up */
		if (cm.ending[i].qp == qp)
			cm.ending[i--] = cm.ending[--cm.nending];
	for (int i = 0; i < cm.nest; i++)
		if (cm.est[i] == qp)
			cm.est[i--] = cm.est[--cm.nest];
	for (c = cm.conns; c != NULL; c = c->next)
		if (c->data == qp) /* the application's QP went before its connection */
			c->data = NULL;
	c = cmc_of_qp(qp);
	if (c != NULL) {
		c->qp = NULL;
		if (c->state == CMC_ESTABLISHED || c->state == CMC_REP_SENT) {
			cmc_dreq(c); /* destroyed without a disconnect: the peer still hears it */
		} else if (c->state == CMC_REQ_RCVD) {
			/* never answered (its listener went): REJ "consumer defined", as Linux's cm_destroy_id */
			send_rej(c->l, c->peer_ip, c->tid, c->local_id, c->remote_id, ROCE_CM_MSG_REQ, ROCE_CM_REJ_CONSUMER);
			cmc_timewait(c);
		} else if (c->state == CMC_REQ_SENT) {
			cmc_timewait(c);
		}
	}
	pthread_mutex_unlock(&cm.lock);
}

/* ---- listeners ---- */

doca_error_t roce_cm_listen(const struct roce_cm_local *l, struct rnic_ep *ep, uint16_t port)
{
	struct cml *x;
	doca_error_t err;

	pthread_mutex_lock(&cm.lock);
	if (listener_of(l, port) != NULL) {
		pthread_mutex_unlock(&cm.lock);
		return DOCA_ERROR_IN_USE;
	}
	x = calloc(1, sizeof(*x));
	if (x == NULL) {
		pthread_mutex_unlock(&cm.lock);
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_lock(l->lock);
	err = roce_port_listen(l->port, roce_cm_service_id(ROCE_PS_TCP, port));
	pthread_mutex_unlock(l->lock);
	if (err != DOCA_SUCCESS) {
		pthread_mutex_unlock(&cm.lock);
		free(x);
		SDK_LOG_ERR("RDMA-CM over RoCEv2: port %u is taken on this address by another process (%s)", (unsigned)port,
			    doca_error_get_name(err));
		return err;
	}
	x->l = l;
	x->ep = ep;
	x->port = port;
	x->next = cm.listeners;
	cm.listeners = x;
	pthread_mutex_unlock(&cm.lock);
	return DOCA_SUCCESS;
}

static void listener_drop(struct cml **pp)
{
	struct cml *x = *pp;

	*pp = x->next;
	pthread_mutex_lock(x->l->lock);
	roce_port_unlisten(x->l->port, roce_cm_service_id(ROCE_PS_TCP, x->port));
	pthread_mutex_unlock(x->l->lock);
	free(x);
}

doca_error_t roce_cm_unlisten(struct rnic_ep *ep, uint16_t port)
{
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	pthread_mutex_lock(&cm.lock);
	for (struct cml **pp = &cm.listeners; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->ep == ep && (*pp)->port == port) {
			listener_drop(pp);
			err = DOCA_SUCCESS;
			break;
		}
	pthread_mutex_unlock(&cm.lock);
	return err;
}

void roce_cm_ep_gone(struct rnic_ep *ep)
{
	pthread_mutex_lock(&cm.lock);
	for (struct cml **pp = &cm.listeners; *pp != NULL;)
		if ((*pp)->ep == ep)
			listener_drop(pp);
		else
			pp = &(*pp)->next;
	pthread_mutex_unlock(&cm.lock);
}

/* ---- time ---- */

uint64_t roce_cm_next_time(uint64_t now)
{
	uint64_t first = UINT64_MAX;

	(void)now;
	pthread_mutex_lock(&cm.lock);
	for (struct cmc *c = cm.conns; c != NULL; c = c->next)
		if (c->deadline != 0 && c->deadline < first)
			first = c->deadline;
	for (int i = 0; i < cm.nending; i++) /* a hang-up lingering for ACKs */
		if (cm.ending[i].until < first)
			first = cm.ending[i].until;
	pthread_mutex_unlock(&cm.lock);
	return first;
}

void roce_cm_timer(uint64_t now)
{
	struct rnic_qp *failed[16];
	int nfailed = 0;

	roce_cm_rx_done(); /* hang-ups an owner's drain left (it kicked us) */

	pthread_mutex_lock(&cm.lock);
	for (struct cmc **pp = &cm.conns; *pp != NULL;) {
		struct cmc *c = *pp;

		if (c->deadline == 0 || c->deadline > now) {
			pp = &c->next;
			continue;
		}
		if (c->state == CMC_TIMEWAIT) {
			if (c->qp == NULL) { /* gone on both counts */
				*pp = c->next;
				free(c);
				continue;
			}
			c->deadline = 0; /* freed after its qp (roce_cm_qp_gone keeps it in time-wait) */
		} else if (c->retries > 0) {
			cm.st.resent++;
			cmc_send(c, c->interval, (uint8_t)(c->retries - 1));
		} else if (c->state == CMC_DREQ_SENT) {
			cmc_timewait(c); /* as Linux: a DREQ that times out still ends the connection */
		} else if (c->qp != NULL && nfailed == (int)(sizeof(failed) / sizeof(failed[0]))) {
			/* more than a pass fails: this one stays due, and the next pass (at once) fails it */
		} else {
			/* REQ or REP unanswered: the connection fails */
			if (c->qp != NULL)
				failed[nfailed++] = c->qp;
			cmc_timewait(c);
		}
		pp = &c->next;
	}
	pthread_mutex_unlock(&cm.lock);
	for (int i = 0; i < nfailed; i++) { /* service thread: these qps are not freed meanwhile */
		struct rnic_qp *qp = failed[i];

		softhw_bias_lock(&qp->lock);
		if (!qp->dead && (qp->state == QP_DIALING || qp->state == QP_HANDSHAKE))
			rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_TIME_OUT, DOCA_ERROR_CONNECTION_ABORTED);
		softhw_bias_unlock(&qp->lock);
	}
}

void roce_cm_stop(void)
{
	char line[256];

	pthread_mutex_lock(&cm.lock);
	if (cm.st.rx + cm.st.drop_malformed + cm.st.drop_unknown > 0) { /* one line, as the path's per-qp counters */
		snprintf(line, sizeof(line),
			 "RoCEv2 CM stats: rx %llu drop_malformed %llu drop_unknown %llu rej_sent %llu resent %llu mra_sent %llu "
			 "rej_busy %llu",
			 (unsigned long long)cm.st.rx, (unsigned long long)cm.st.drop_malformed,
			 (unsigned long long)cm.st.drop_unknown, (unsigned long long)cm.st.rej_sent,
			 (unsigned long long)cm.st.resent, (unsigned long long)cm.st.mra_sent,
			 (unsigned long long)cm.st.rej_busy);
		SDK_LOG_DBG("%s", line);
		if (getenv("SOFTDOCA_ROCE_STATS") != NULL)
			fprintf(stderr, "softdoca: %s\n", line);
	}
	while (cm.conns != NULL) { /* their ports close now: nothing more is sent or heard */
		struct cmc *c = cm.conns;

		cm.conns = c->next;
		free(c);
	}
	while (cm.listeners != NULL) {
		struct cml *x = cm.listeners;

		cm.listeners = x->next;
		free(x);
	}
	cm.nending = 0;
	cm.nest = 0;
	pthread_mutex_unlock(&cm.lock);
}

void roce_cm_atfork(void)
{
	cm.conns = NULL; /* the parent's: not freed here */
	cm.listeners = NULL;
	cm.nending = 0;
	cm.nest = 0;
	pthread_mutex_init(&cm.lock, NULL);
}

void roce_cm_get_stats(struct roce_cm_stats *st)
{
	pthread_mutex_lock(&cm.lock);
	*st = cm.st;
	pthread_mutex_unlock(&cm.lock);
}
