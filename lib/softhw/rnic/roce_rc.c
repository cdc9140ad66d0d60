/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 RC transport engine (roce_rc.h): requester, completer and responder of one RC queue
 * pair, driven by the caller's datagrams and clock. docs/rocev2.md "RC engine" has the design.
 *
 * Requester: posted WRs sit in a ring (head = oldest not completed, cur = next to transmit,
 * tail = next free). A WR gets its PSN range when first sent; go-back-N moves cur back to the
 * oldest unacknowledged PSN (una) and sends again with the same PSNs.
 * Completer: ACKs are cumulative; a READ or atomic completes only on its own response, and an
 * acknowledgement that passes one whose response is missing starts a go-back-N from it.
 * Responder: executes in PSN order only; the past is answered from a small ring of READ and
 * atomic results (responder resources), never executed twice. A READ's responses go out at most
 * read_burst a turn (roce_rc_poll); the requests behind it wait, held, until they are all
 * out, as rxe's wait in its queue.
 */
#include <stdlib.h>
#include <string.h>

#include "softhw/rnic/roce_rc.h"

enum { IN_NONE, IN_SEND, IN_WRITE };

struct swr {
	struct roce_rc_wr wr;
	uint32_t first_psn, npsn; /* valid once sent */
	uint32_t got;             /* READ: response packets taken so far */
	bool sent;
};

/* A READ or atomic the responder executed, kept to answer its duplicates. */
struct resource {
	bool used, atomic;
	uint32_t psn, npsn;
	uint64_t va;
	uint32_t rkey, len;
	uint64_t orig;
	/* READ: responses still to send, packets k..n-1 of the run from s_psn (its execution's,
	 * or a duplicate's replay of a tail) */
	bool sending;
	uint32_t s_psn, s_len, s_k, s_n;
	uint64_t s_va;
};

/* A request that came in order behind a READ whose responses are not all out (a copy). */
struct held {
	struct held *next;
	size_t len;
	uint8_t buf[];
};

struct roce_rc_qp {
	struct roce_rc_cfg cfg;
	struct roce_rc_stats st;
	bool error;
	uint64_t timeout_ns; /* 0: no local ACK timer */

	/* requester / completer */
	struct swr *sq;
	uint32_t head, cur, tail; /* free-running ring counters */
	uint32_t una;             /* oldest PSN not acknowledged */
	uint32_t cur_psn;         /* next PSN to transmit */
	uint32_t next_psn;        /* first PSN no WR has */
	uint32_t hi_psn;          /* first PSN never transmitted (retransmit count) */
	uint32_t rd_out;          /* READ/atomic WRs sent and not completed */
	uint32_t since_ackreq;
	uint8_t retry_left, rnr_left;
	bool retried;             /* a go-back-N from una already started (NAK/response gap) */
	uint32_t cwnd;            /* PSNs in flight at most now: the window, halved by each go-back-N, regrown by ACKs */
	uint64_t rto_at, rnr_at;  /* ROCE_RC_NO_DEADLINE when off */

	/* responder */
	uint32_t epsn, msn;
	bool nak_sent;            /* sequence or RNR NAK sent for epsn: stay quiet until it comes */
	bool err_nak;             /* in error after NAKing the request at err_psn: its resends get it again */
	uint8_t err_code;
	uint32_t err_psn;
	int in;                   /* message in progress: IN_* */
	struct roce_rc_recv rq;
	bool rq_taken;
	uint32_t rq_off;
	uint64_t w_va;
	uint32_t w_rkey, w_left, w_len;
	struct resource *res;
	uint32_t res_next;
	uint32_t nsending;        /* resources with responses to send */
	uint32_t burst_left;      /* READ response packets this turn may still send */
	uint32_t hold_left;       /* held requests this turn may still run (read_burst a turn too) */
	struct held *hold_first, *hold_last; /* in PSN order */
	size_t held;              /* bytes they take (records included), at most cfg.hold_bytes */
	size_t pooled;            /* of which taken from cfg.hold_pool */
	uint32_t hold_psn;        /* while some are held: the PSN after the last held request */
	bool nak_owed;            /* a request behind them was dropped: sequence NAK once they ran */
	uint32_t ack_owed;
	bool ack_now;
	uint64_t ack_since;

	uint8_t tx[4096 + 128];
};

static bool is_rd_atomic(enum roce_rc_op op)
{
	return op == ROCE_RC_OP_READ || op == ROCE_RC_OP_CMP_SWAP || op == ROCE_RC_OP_FETCH_ADD;
}

static uint32_t psn_diff(uint32_t a, uint32_t b)
{
	return (a - b) & ROCE_PSN_MASK;
}

static uint32_t npkts(uint32_t len, uint32_t mtu)
{
	return len == 0 ? 1 : (uint32_t)(((uint64_t)len + mtu - 1) / mtu);
}

static struct swr *slot(struct roce_rc_qp *qp, uint32_t i)
{
	return &qp->sq[i % qp->cfg.sq_depth];
}

/*
 * Builds a packet where the caller's tx_buf says (else in qp->tx) and emits it. payload NULL
 * with plen > 0: a READ response, whose payload mem_read puts straight into the datagram. A
 * long payload from a WR's memory goes to emit_ref where the path has it: only the headers are
 * built, and the payload is sent from where it lies.
 */
static void emit_mem(struct roce_rc_qp *qp, struct roce_pkt *pkt, const void *payload, size_t plen,
	uint32_t rkey, uint64_t va)
{
	uint8_t *buf = qp->tx;
	size_t n, cap = sizeof(qp->tx);

	pkt->bth.pkey = qp->cfg.pkey;
	pkt->bth.dqpn = qp->cfg.dest_qpn;
	if (payload != NULL && plen >= ROCE_RC_REF_MIN && qp->cfg.ops->emit_ref != NULL) {
		uint8_t hdr[64]; /* BTH and the longest extension headers: 40 bytes */

		n = roce_pkt_build_hdr(hdr, sizeof(hdr), pkt, plen);
		if (n == 0)
			return; /* cannot happen: opcodes and sizes are ours */
		qp->st.tx_pkts++;
		qp->cfg.ops->emit_ref(qp->cfg.ctx, hdr, n, payload, plen);
		return;
	}
	if (qp->cfg.ops->tx_buf != NULL)
		buf = qp->cfg.ops->tx_buf(qp->cfg.ctx, &cap);
	n = roce_pkt_build(buf, cap, pkt, payload, plen);
	if (n == 0)
		return; /* cannot happen: opcodes and sizes are ours */
	if (payload == NULL && plen != 0)
		qp->cfg.ops->mem_read(qp->cfg.ctx, rkey, va,
			buf + n - ROCE_ICRC_LEN - roce_pad_len(plen) - plen, plen);
	qp->st.tx_pkts++;
	qp->cfg.ops->emit(qp->cfg.ctx, buf, n);
}

static void emit(struct roce_rc_qp *qp, struct roce_pkt *pkt, const void *payload, size_t plen)
{
	emit_mem(qp, pkt, payload, plen, 0, 0);
}

static void send_aeth(struct roce_rc_qp *qp, uint8_t opcode, uint8_t syndrome, uint32_t psn,
	uint64_t orig)
{
	struct roce_pkt pkt = { 0 };

	pkt.bth.opcode = opcode;
	pkt.bth.psn = psn;
	pkt.aeth.syndrome = syndrome;
	pkt.aeth.msn = qp->msn & ROCE_PSN_MASK;
	pkt.atomic_orig = orig;
	emit(qp, &pkt, NULL, 0);
}

static void complete(struct roce_rc_qp *qp, const struct roce_rc_cqe *cqe)
{
	qp->cfg.ops->complete(qp->cfg.ctx, cqe);
}

/* ---- completion and QP error ---- */

static void pop_head(struct roce_rc_qp *qp, enum roce_rc_status status)
{
	struct swr *s = slot(qp, qp->head);
	struct roce_rc_cqe cqe = {
		.wr_id = s->wr.wr_id, .status = status, .op = s->wr.op, .byte_len = s->wr.len,
	};

	if (s->sent && is_rd_atomic(s->wr.op))
		qp->rd_out--;
	qp->head++;
	if ((int32_t)(qp->cur - qp->head) < 0)
		qp->cur = qp->head;
	complete(qp, &cqe);
}

/* Takes cost more bytes to hold: the QP's own up to ROCE_RC_HOLD_OWN, then the pool's. */
static bool hold_charge(struct roce_rc_qp *qp, size_t cost)
{
	size_t over = qp->held + cost > ROCE_RC_HOLD_OWN ? qp->held + cost - ROCE_RC_HOLD_OWN : 0;
	struct roce_rc_hold_pool *pool = qp->cfg.hold_pool;

	if (qp->held + cost > qp->cfg.hold_bytes)
		return false;
	if (pool != NULL && over > qp->pooled) {
		size_t need = over - qp->pooled;

		if (__atomic_add_fetch(&pool->used, need, __ATOMIC_RELAXED) > pool->max) {
			__atomic_sub_fetch(&pool->used, need, __ATOMIC_RELAXED);
			return false;
		}
		qp->pooled += need;
	}
	qp->held += cost;
	if (qp->held > qp->st.hold_peak)
		qp->st.hold_peak = qp->held;
	return true;
}

/* Gives back cost bytes held: what the pool lent beyond the QP's own goes back to it. */
static void hold_release(struct roce_rc_qp *qp, size_t cost)
{
	size_t over;

	qp->held -= cost;
	over = qp->held > ROCE_RC_HOLD_OWN ? qp->held - ROCE_RC_HOLD_OWN : 0;
	if (qp->pooled > over) {
		__atomic_sub_fetch(&qp->cfg.hold_pool->used, qp->pooled - over, __ATOMIC_RELAXED);
		qp->pooled = over;
	}
}

/* The responder has READ responses to send, or requests held behind them to run. */
static bool responding(const struct roce_rc_qp *qp)
{
	return qp->nsending > 0 || qp->hold_first != NULL;
}

/* The oldest held request, taken off the list (its bytes given back): the caller frees it. */
static struct held *hold_pop(struct roce_rc_qp *qp)
{
	struct held *h = qp->hold_first;

	qp->hold_first = h->next;
	if (qp->hold_first == NULL)
		qp->hold_last = NULL;
	hold_release(qp, sizeof(*h) + h->len);
	return h;
}

/* The requests held behind READ responses are forgotten: the requester sends them again. */
static void drop_held(struct roce_rc_qp *qp)
{
	while (qp->hold_first != NULL)
		free(hold_pop(qp));
}

static void qp_error(struct roce_rc_qp *qp, int head_status)
{
	if (qp->error)
		return;
	qp->error = true;
	drop_held(qp);
	for (uint32_t i = 0; i < qp->cfg.max_dest_rd_atomic; i++)
		qp->res[i].sending = false;
	qp->nsending = 0;
	if (head_status >= 0 && qp->head != qp->tail)
		pop_head(qp, (enum roce_rc_status)head_status);
	while (qp->head != qp->tail)
		pop_head(qp, ROCE_RC_WC_WR_FLUSH_ERR);
	if (qp->rq_taken) {
		struct roce_rc_cqe cqe = {
			.wr_id = qp->rq.wr_id, .status = ROCE_RC_WC_WR_FLUSH_ERR, .op = ROCE_RC_OP_RECV,
			.recv = true,
		};

		qp->rq_taken = false;
		complete(qp, &cqe);
	}
	qp->rto_at = qp->rnr_at = ROCE_RC_NO_DEADLINE;
	qp->ack_owed = 0;
	qp->ack_now = false;
}

/* ---- requester ---- */

/* Next packets go out from psn (which lies in a sent WR, or is next_psn). */
static void rewind_to(struct roce_rc_qp *qp, uint32_t psn)
{
	qp->cur_psn = psn;
	qp->cur = qp->head;
	while (qp->cur != qp->tail) {
		struct swr *s = slot(qp, qp->cur);

		if (!s->sent || psn_diff(psn, s->first_psn) < s->npsn)
			break;
		qp->cur++;
	}
}

/* The responder has everything before psn: forward progress. */
static void advance_una(struct roce_rc_qp *qp, uint32_t psn, uint64_t now)
{
	if (roce_psn_cmp(psn, qp->una) <= 0)
		return;
	/* a PSN acknowledged lets one more go, up to the window (doubling a round trip) */
	qp->cwnd += psn_diff(psn, qp->una);
	if (qp->cwnd > qp->cfg.window)
		qp->cwnd = qp->cfg.window;
	qp->una = psn;
	qp->retry_left = qp->cfg.retry_cnt;
	qp->rnr_left = qp->cfg.rnr_retry;
	qp->retried = false;
	/* no local ACK timer while an RNR wait holds transmission back */
	if (qp->una == qp->next_psn || qp->timeout_ns == 0 || qp->rnr_at != ROCE_RC_NO_DEADLINE)
		qp->rto_at = ROCE_RC_NO_DEADLINE;
	else
		qp->rto_at = now + qp->timeout_ns;
	if (roce_psn_cmp(qp->cur_psn, qp->una) < 0)
		rewind_to(qp, qp->una);
}

static void complete_head_ok(struct roce_rc_qp *qp, uint64_t now)
{
	struct swr *s = slot(qp, qp->head);

	advance_una(qp, roce_psn_add(s->first_psn, s->npsn), now);
	pop_head(qp, ROCE_RC_WC_SUCCESS);
}

/* The responder executed every request PSN before psn: SENDs and WRITEs there complete. */
static void implicit_ack(struct roce_rc_qp *qp, uint32_t psn, uint64_t now)
{
	while (qp->head != qp->tail && !qp->error) {
		struct swr *s = slot(qp, qp->head);

		if (!s->sent || is_rd_atomic(s->wr.op))
			return;
		if (roce_psn_cmp(roce_psn_add(s->first_psn, s->npsn), psn) <= 0) {
			complete_head_ok(qp, now);
			continue;
		}
		if (roce_psn_cmp(s->first_psn, psn) < 0)
			advance_una(qp, psn, now);
		return;
	}
}

/* Go-back-N from una. counted: a NAK or timeout, which uses up a retry. */
static void go_back(struct roce_rc_qp *qp, uint64_t now, bool counted)
{
	if (counted) {
		if (qp->retry_left == 0) {
			qp_error(qp, ROCE_RC_WC_RETRY_EXC_ERR);
			return;
		}
		if (qp->cfg.retry_cnt != 7)
			qp->retry_left--;
	}
	qp->retried = true;
	/*
	 * Go-back-N resends everything from una: with a full window in flight on a lossy link each
	 * round loses a packet again, and nearly every packet sent was a resend (174 resends per new
	 * packet at 5 % loss, netns_rdma_roce_lossy). Fewer in flight until ACKs come back.
	 */
	qp->cwnd = qp->cwnd / 2 > ROCE_RC_MIN_CWND ? qp->cwnd / 2 : ROCE_RC_MIN_CWND;
	if (qp->cwnd > qp->cfg.window)
		qp->cwnd = qp->cfg.window;
	rewind_to(qp, qp->una);
	if (qp->timeout_ns != 0 && qp->rnr_at == ROCE_RC_NO_DEADLINE)
		qp->rto_at = now + qp->timeout_ns;
}

static uint8_t seg_opcode(const struct roce_rc_wr *wr, uint32_t i, uint32_t n)
{
	bool first = i == 0, last = i + 1 == n;
	bool send = wr->op == ROCE_RC_OP_SEND || wr->op == ROCE_RC_OP_SEND_IMM ||
		wr->op == ROCE_RC_OP_SEND_INV;

	if (first && last) {
		switch (wr->op) {
		case ROCE_RC_OP_SEND_IMM: return ROCE_RC_SEND_ONLY_IMM;
		case ROCE_RC_OP_SEND_INV: return ROCE_RC_SEND_ONLY_INV;
		case ROCE_RC_OP_WRITE_IMM: return ROCE_RC_WRITE_ONLY_IMM;
		default: return send ? ROCE_RC_SEND_ONLY : ROCE_RC_WRITE_ONLY;
		}
	}
	if (last) {
		switch (wr->op) {
		case ROCE_RC_OP_SEND_IMM: return ROCE_RC_SEND_LAST_IMM;
		case ROCE_RC_OP_SEND_INV: return ROCE_RC_SEND_LAST_INV;
		case ROCE_RC_OP_WRITE_IMM: return ROCE_RC_WRITE_LAST_IMM;
		default: return send ? ROCE_RC_SEND_LAST : ROCE_RC_WRITE_LAST;
		}
	}
	if (first)
		return send ? ROCE_RC_SEND_FIRST : ROCE_RC_WRITE_FIRST;
	return send ? ROCE_RC_SEND_MIDDLE : ROCE_RC_WRITE_MIDDLE;
}

/* Transmits the packet at cur_psn (a READ: the request for the rest of the data). */
static void send_one(struct roce_rc_qp *qp, uint64_t now)
{
	struct swr *s = slot(qp, qp->cur);
	const struct roce_rc_wr *wr = &s->wr;
	struct roce_pkt pkt = { 0 };
	uint32_t mtu = qp->cfg.mtu, i, span = 1;
	const uint8_t *data = NULL;
	size_t plen = 0;

	if (!s->sent) {
		s->sent = true;
		s->first_psn = qp->next_psn;
		s->npsn = is_rd_atomic(wr->op) && wr->op != ROCE_RC_OP_READ ? 1 : npkts(wr->len, mtu);
		s->got = 0;
		qp->next_psn = roce_psn_add(s->first_psn, s->npsn);
		if (is_rd_atomic(wr->op))
			qp->rd_out++;
	}
	i = psn_diff(qp->cur_psn, s->first_psn);
	pkt.bth.psn = qp->cur_psn;
	switch (wr->op) {
	case ROCE_RC_OP_READ:
		pkt.bth.opcode = ROCE_RC_READ_REQUEST;
		pkt.reth.va = wr->remote_va + (uint64_t)i * mtu;
		pkt.reth.rkey = wr->rkey;
		pkt.reth.len = wr->len - i * mtu;
		pkt.bth.ack_req = true;
		span = s->npsn - i;
		break;
	case ROCE_RC_OP_CMP_SWAP:
	case ROCE_RC_OP_FETCH_ADD:
		pkt.bth.opcode = wr->op == ROCE_RC_OP_CMP_SWAP ? ROCE_RC_CMP_SWAP : ROCE_RC_FETCH_ADD;
		pkt.atomic.va = wr->remote_va;
		pkt.atomic.rkey = wr->rkey;
		pkt.atomic.swap_add = wr->swap_add;
		pkt.atomic.compare = wr->compare;
		pkt.bth.ack_req = true;
		break;
	default:
		pkt.bth.opcode = seg_opcode(wr, i, s->npsn);
		pkt.bth.ack_req = i + 1 == s->npsn;
		pkt.bth.se = wr->solicited && i + 1 == s->npsn;
		pkt.reth.va = wr->remote_va;
		pkt.reth.rkey = wr->rkey;
		pkt.reth.len = wr->len;
		pkt.imm = wr->imm;
		pkt.ieth_rkey = wr->inv_rkey;
		plen = wr->len - i * mtu < mtu ? wr->len - i * mtu : mtu;
		if (plen != 0) /* a zero-length WR may have no buffer at all */
			data = (const uint8_t *)wr->local + (size_t)i * mtu;
		break;
	}
	/*
	 * Also the packet that fills what may be in flight: the requester waits for an ACK then,
	 * and rxe's responder ACKs AckReq packets only (a cwnd under ROCE_RC_ACKREQ_EVERY would
	 * otherwise wait for the ACK timeout each time)
	 */
	if (qp->since_ackreq >= ROCE_RC_ACKREQ_EVERY ||
	    psn_diff(roce_psn_add(qp->cur_psn, span), qp->una) >= qp->cwnd)
		pkt.bth.ack_req = true;
	qp->since_ackreq = pkt.bth.ack_req ? 0 : qp->since_ackreq + 1;
	if (roce_psn_cmp(qp->cur_psn, qp->hi_psn) < 0)
		qp->st.retransmits++;
	emit(qp, &pkt, data, plen);
	qp->cur_psn = roce_psn_add(qp->cur_psn, span);
	if (roce_psn_cmp(qp->cur_psn, qp->hi_psn) > 0)
		qp->hi_psn = qp->cur_psn;
	if (psn_diff(qp->cur_psn, s->first_psn) >= s->npsn)
		qp->cur++;
	if (qp->rto_at == ROCE_RC_NO_DEADLINE && qp->timeout_ns != 0)
		qp->rto_at = now + qp->timeout_ns;
}

static void send_requests(struct roce_rc_qp *qp, uint64_t now)
{
	while (!qp->error && qp->rnr_at == ROCE_RC_NO_DEADLINE && qp->cur != qp->tail &&
		psn_diff(qp->cur_psn, qp->una) < qp->cwnd) {
		struct swr *s = slot(qp, qp->cur);

		if (!s->sent && ((is_rd_atomic(s->wr.op) && qp->rd_out >= qp->cfg.max_rd_atomic) ||
			(s->wr.fence && qp->rd_out != 0)))
			return;
		send_one(qp, now);
	}
}

/* The sent WR whose PSN range holds psn, or NULL. */
static struct swr *find_wr(struct roce_rc_qp *qp, uint32_t psn)
{
	for (uint32_t i = qp->head; i != qp->tail; i++) {
		struct swr *s = slot(qp, i);

		if (!s->sent)
			return NULL;
		if (psn_diff(psn, s->first_psn) < s->npsn)
			return s;
	}
	return NULL;
}

static void on_nak(struct roce_rc_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t psn = pkt->bth.psn;
	uint8_t code = pkt->aeth.syndrome & ROCE_AETH_VALUE;

	implicit_ack(qp, psn, now);
	if (qp->error || qp->head == qp->tail)
		return;
	if ((pkt->aeth.syndrome & ROCE_AETH_KIND) == ROCE_AETH_RNR) {
		qp->st.rnr_rcvd++;
		if (qp->rnr_at != ROCE_RC_NO_DEADLINE)
			return; /* a duplicate of the RNR NAK we already wait on */
		if (qp->rnr_left == 0) {
			qp_error(qp, ROCE_RC_WC_RNR_RETRY_EXC_ERR);
			return;
		}
		if (qp->cfg.rnr_retry != 7)
			qp->rnr_left--;
		qp->rnr_at = now + (uint64_t)roce_rnr_timer_us(code) * 1000;
		qp->rto_at = ROCE_RC_NO_DEADLINE;
		rewind_to(qp, qp->una);
		return;
	}
	if (code == ROCE_NAK_PSN_SEQ) {
		qp->st.nak_seq_rcvd++;
		if (!qp->retried) {
			qp->st.fast_retries++;
			go_back(qp, now, true);
		}
		return;
	}
	qp->st.nak_err_rcvd++;
	qp_error(qp, code == ROCE_NAK_INVALID ? ROCE_RC_WC_REM_INV_REQ_ERR :
		code == ROCE_NAK_REM_ACCESS ? ROCE_RC_WC_REM_ACCESS_ERR : ROCE_RC_WC_REM_OP_ERR);
}

/* A READ response or atomic ACK for the WR holding its PSN. */
static void on_response(struct roce_rc_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t psn = pkt->bth.psn, mtu = qp->cfg.mtu;
	struct swr *s = find_wr(qp, psn);
	bool atomic_ack = pkt->bth.opcode == ROCE_RC_ATOMIC_ACK;
	uint32_t expect, plen;

	if (s == NULL || is_rd_atomic(s->wr.op) == false ||
		(s->wr.op == ROCE_RC_OP_READ) == atomic_ack) {
		qp->st.dup_responses++;
		return;
	}
	implicit_ack(qp, s->first_psn, now);
	if (qp->error)
		return;
	if (slot(qp, qp->head) != s) {
		/* an earlier READ/atomic never got its answer */
		if (!qp->retried) {
			qp->st.fast_retries++;
			go_back(qp, now, false);
		}
		return;
	}
	expect = roce_psn_add(s->first_psn, s->got);
	if (psn != expect) {
		if (roce_psn_cmp(psn, expect) < 0) {
			qp->st.dup_responses++;
		} else if (!qp->retried) {
			qp->st.fast_retries++;
			go_back(qp, now, false);
		}
		return;
	}
	if (atomic_ack) {
		if (s->wr.local != NULL)
			memcpy(s->wr.local, &pkt->atomic_orig, sizeof(pkt->atomic_orig));
		complete_head_ok(qp, now);
		return;
	}
	plen = s->wr.len - s->got * mtu < mtu ? s->wr.len - s->got * mtu : mtu;
	if (pkt->payload_len != plen) {
		qp->st.rx_dropped++;
		return;
	}
	if (plen != 0 && qp->cfg.ops->place != NULL)
		qp->cfg.ops->place(qp->cfg.ctx, (uint8_t *)s->wr.local + (size_t)s->got * mtu, pkt->payload, plen);
	else if (plen != 0)
		memcpy((uint8_t *)s->wr.local + (size_t)s->got * mtu, pkt->payload, plen);
	s->got++;
	if (s->got == s->npsn)
		complete_head_ok(qp, now);
	else
		advance_una(qp, roce_psn_add(psn, 1), now);
}

static void rx_response(struct roce_rc_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t psn = pkt->bth.psn;

	/* Nothing of ours lies at or past next_psn, or before una - 1. */
	if (roce_psn_cmp(psn, qp->next_psn) >= 0 ||
		roce_psn_cmp(psn, roce_psn_add(qp->una, ROCE_PSN_MASK)) < 0) {
		qp->st.dup_responses++;
		return;
	}
	if (pkt->bth.opcode != ROCE_RC_ACK) {
		on_response(qp, pkt, now);
		return;
	}
	if ((pkt->aeth.syndrome & 0x80) != 0 || (pkt->aeth.syndrome & ROCE_AETH_KIND) == 0x40) {
		qp->st.rx_dropped++; /* reserved syndromes */
		return;
	}
	if ((pkt->aeth.syndrome & ROCE_AETH_KIND) != ROCE_AETH_ACK) {
		if (roce_psn_cmp(psn, qp->una) >= 0)
			on_nak(qp, pkt, now); /* else a stale NAK */
		return;
	}
	/* Credits (the low five bits) are ignored: rxe sends "none" and ignores them too. */
	qp->st.acks_rcvd++;
	implicit_ack(qp, roce_psn_add(psn, 1), now);
	if (qp->error || qp->head == qp->tail)
		return;
	{
		struct swr *s = slot(qp, qp->head);

		/* Acknowledged past a READ/atomic whose answer we lack: ask again. */
		if (s->sent && is_rd_atomic(s->wr.op) && roce_psn_cmp(s->first_psn, psn) <= 0 &&
			!qp->retried) {
			qp->st.fast_retries++;
			go_back(qp, now, false);
		}
	}
}

/* ---- responder ---- */

static void owe_nothing(struct roce_rc_qp *qp)
{
	qp->ack_owed = 0;
	qp->ack_now = false;
}

/* The ACK of everything executed in order so far (PSN epsn - 1): what was owed is paid. */
static void ack_in_order(struct roce_rc_qp *qp)
{
	qp->st.acks_sent++;
	send_aeth(qp, ROCE_RC_ACK, ROCE_AETH_ACK | ROCE_AETH_VALUE, roce_psn_add(qp->epsn, ROCE_PSN_MASK), 0);
	owe_nothing(qp);
}

static void resp_fail(struct roce_rc_qp *qp, uint32_t psn, int nak, enum roce_rc_status rstatus)
{
	qp->st.nak_err_sent++;
	send_aeth(qp, ROCE_RC_ACK, (uint8_t)(ROCE_AETH_NAK | nak), psn, 0);
	if (!qp->error) {
		qp->err_nak = true;
		qp->err_code = (uint8_t)nak;
		qp->err_psn = psn;
	}
	if (qp->rq_taken) {
		struct roce_rc_cqe cqe = {
			.wr_id = qp->rq.wr_id, .status = rstatus, .op = ROCE_RC_OP_RECV, .recv = true,
		};

		qp->rq_taken = false;
		complete(qp, &cqe);
	}
	qp_error(qp, -1);
}

/* Starts (or restarts) r's responses: the run of len bytes from va, its first at psn. */
static void read_start(struct roce_rc_qp *qp, struct resource *r, uint32_t psn, uint64_t va, uint32_t len)
{
	r->s_psn = psn;
	r->s_va = va;
	r->s_len = len;
	r->s_k = 0;
	r->s_n = npkts(len, qp->cfg.mtu);
	if (!r->sending)
		qp->nsending++;
	r->sending = true;
}

/* Sends r's next responses, as many as the turn has left. */
static void read_responses(struct roce_rc_qp *qp, struct resource *r)
{
	uint32_t mtu = qp->cfg.mtu, n = r->s_n, k0 = r->s_k;

	for (; r->s_k < n && qp->burst_left > 0; r->s_k++, qp->burst_left--) {
		struct roce_pkt pkt = { 0 };
		uint32_t k = r->s_k, plen = r->s_len - k * mtu < mtu ? r->s_len - k * mtu : mtu;

		pkt.bth.opcode = n == 1 ? ROCE_RC_READ_RESP_ONLY : k == 0 ? ROCE_RC_READ_RESP_FIRST :
			k + 1 == n ? ROCE_RC_READ_RESP_LAST : ROCE_RC_READ_RESP_MIDDLE;
		pkt.bth.psn = roce_psn_add(r->s_psn, k);
		pkt.aeth.syndrome = ROCE_AETH_ACK | ROCE_AETH_VALUE;
		pkt.aeth.msn = qp->msn & ROCE_PSN_MASK;
		emit_mem(qp, &pkt, NULL, plen, r->rkey, r->s_va + (uint64_t)k * mtu);
	}
	/*
	 * The newest READ's last response acknowledges every request before it. Not a replay of an
	 * older one: requests after it (a duplicate WRITE behind it owes its ACK) are not.
	 */
	if (r->s_k != k0 && roce_psn_add(r->s_psn, r->s_k) == qp->epsn)
		owe_nothing(qp);
	if (r->s_k == n) {
		r->sending = false;
		qp->nsending--;
	}
}

static struct resource *new_resource(struct roce_rc_qp *qp)
{
	struct resource *r = &qp->res[qp->res_next++ % qp->cfg.max_dest_rd_atomic];

	memset(r, 0, sizeof(*r));
	r->used = true;
	return r;
}

/* A request whose PSN was already executed: re-ACK, or replay a READ/atomic answer. */
static void rx_duplicate(struct roce_rc_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t psn = pkt->bth.psn;
	uint8_t op = pkt->bth.opcode;

	qp->st.dup_requests++;
	if (op != ROCE_RC_READ_REQUEST && op != ROCE_RC_CMP_SWAP && op != ROCE_RC_FETCH_ADD) {
		qp->ack_now = true;
		return;
	}
	for (uint32_t i = 0; i < qp->cfg.max_dest_rd_atomic; i++) {
		struct resource *r = &qp->res[i];

		if (!r->used || psn_diff(psn, r->psn) >= r->npsn)
			continue;
		if (op != ROCE_RC_READ_REQUEST) {
			if (!r->atomic || psn != r->psn)
				continue;
			qp->st.atomic_replays++;
			send_aeth(qp, ROCE_RC_ATOMIC_ACK, ROCE_AETH_ACK | ROCE_AETH_VALUE, psn, r->orig);
			return;
		}
		/* A READ asked again, maybe only its tail: it must lie inside the original, in
		 * bytes and in PSNs. */
		if (r->atomic || pkt->reth.rkey != r->rkey || pkt->reth.va < r->va ||
			pkt->reth.len > r->len || pkt->reth.va - r->va > r->len - pkt->reth.len ||
			npkts(pkt->reth.len, qp->cfg.mtu) > r->npsn - psn_diff(psn, r->psn))
			continue;
		if (pkt->reth.len != 0 && qp->cfg.ops->rkey_check(qp->cfg.ctx, r->rkey,
			pkt->reth.va, pkt->reth.len, ROCE_RC_ACC_READ) != 0)
			return;
		/* Its responses still going out reach that PSN anyway: nothing to add. Else they go
		 * (again) from there, in the turns to come, the others' before or after by PSN. */
		if (r->sending && roce_psn_cmp(psn, roce_psn_add(r->s_psn, r->s_k)) >= 0 &&
			psn_diff(psn, r->s_psn) < r->s_n)
			return;
		qp->st.read_replays++;
		read_start(qp, r, psn, pkt->reth.va, pkt->reth.len);
		return;
	}
	/* No resource: dropped, the requester's timer will ask again (rxe does the same). */
}

static bool take_recv(struct roce_rc_qp *qp, uint32_t psn)
{
	if (qp->cfg.ops->recv_take(qp->cfg.ctx, &qp->rq)) {
		qp->rq_taken = true;
		qp->rq_off = 0;
		return true;
	}
	qp->st.rnr_sent++;
	qp->nak_sent = true;
	owe_nothing(qp);
	send_aeth(qp, ROCE_RC_ACK, (uint8_t)(ROCE_AETH_RNR | (qp->cfg.min_rnr_timer & 31)), psn, 0);
	return false;
}

static bool is_first(uint8_t op)
{
	return op == ROCE_RC_SEND_FIRST || op == ROCE_RC_WRITE_FIRST;
}

static bool is_last(uint8_t op)
{
	return op != ROCE_RC_SEND_FIRST && op != ROCE_RC_SEND_MIDDLE && op != ROCE_RC_WRITE_FIRST &&
		op != ROCE_RC_WRITE_MIDDLE;
}

static bool is_only(uint8_t op)
{
	return op == ROCE_RC_SEND_ONLY || op == ROCE_RC_SEND_ONLY_IMM || op == ROCE_RC_SEND_ONLY_INV ||
		op == ROCE_RC_WRITE_ONLY || op == ROCE_RC_WRITE_ONLY_IMM;
}

/* SEND packet in sequence. False if it was refused (NAK sent). */
static bool exec_send(struct roce_rc_qp *qp, const struct roce_pkt *pkt)
{
	uint8_t op = pkt->bth.opcode;

	if (is_first(op) || is_only(op)) {
		if (!take_recv(qp, pkt->bth.psn))
			return false;
		qp->in = IN_SEND;
	}
	if (pkt->payload_len > qp->rq.len - qp->rq_off) {
		resp_fail(qp, pkt->bth.psn, ROCE_NAK_INVALID, ROCE_RC_WC_LOC_LEN_ERR);
		return false;
	}
	if (pkt->payload_len != 0 && qp->cfg.ops->place != NULL)
		qp->cfg.ops->place(qp->cfg.ctx, (uint8_t *)qp->rq.buf + qp->rq_off, pkt->payload, pkt->payload_len);
	else if (pkt->payload_len != 0)
		memcpy((uint8_t *)qp->rq.buf + qp->rq_off, pkt->payload, pkt->payload_len);
	qp->rq_off += (uint32_t)pkt->payload_len;
	if (is_last(op)) {
		struct roce_rc_cqe cqe = {
			.wr_id = qp->rq.wr_id, .op = ROCE_RC_OP_RECV, .recv = true,
			.byte_len = qp->rq_off,
			.has_imm = (pkt->hdrs & ROCE_H_IMMDT) != 0, .imm = pkt->imm,
			.has_inv = (pkt->hdrs & ROCE_H_IETH) != 0, .inv_rkey = pkt->ieth_rkey,
			.solicited = pkt->bth.se,
		};

		qp->rq_taken = false;
		qp->in = IN_NONE;
		qp->msn++;
		complete(qp, &cqe);
	}
	return true;
}

/* WRITE packet in sequence. */
static bool exec_write(struct roce_rc_qp *qp, const struct roce_pkt *pkt)
{
	uint8_t op = pkt->bth.opcode;
	size_t plen = pkt->payload_len;
	bool imm = (pkt->hdrs & ROCE_H_IMMDT) != 0;
	uint32_t left = qp->w_left;

	if (is_first(op) || is_only(op)) {
		const struct roce_reth *r = &pkt->reth;
		int nak;

		if (r->len > ROCE_RC_MAX_MSG || (is_only(op) ? plen != r->len : r->len <= plen)) {
			resp_fail(qp, pkt->bth.psn, ROCE_NAK_INVALID, ROCE_RC_WC_REM_INV_REQ_ERR);
			return false;
		}
		nak = r->len == 0 ? 0 : qp->cfg.ops->rkey_check(qp->cfg.ctx, r->rkey, r->va, r->len,
			ROCE_RC_ACC_WRITE);
		if (nak != 0) {
			resp_fail(qp, pkt->bth.psn, nak, ROCE_RC_WC_REM_ACCESS_ERR);
			return false;
		}
		left = r->len;
	} else if (is_last(op) ? plen != left : plen >= left) {
		resp_fail(qp, pkt->bth.psn, ROCE_NAK_INVALID, ROCE_RC_WC_REM_INV_REQ_ERR);
		return false;
	}
	if (imm && !take_recv(qp, pkt->bth.psn))
		return false;
	if (is_first(op) || is_only(op)) {
		qp->w_va = pkt->reth.va;
		qp->w_rkey = pkt->reth.rkey;
		qp->w_len = pkt->reth.len;
		qp->in = IN_WRITE;
	}
	if (plen != 0)
		qp->cfg.ops->mem_write(qp->cfg.ctx, qp->w_rkey, qp->w_va, pkt->payload, plen);
	qp->w_va += plen;
	qp->w_left = left - (uint32_t)plen;
	if (is_last(op)) {
		qp->in = IN_NONE;
		qp->msn++;
		if (imm) {
			struct roce_rc_cqe cqe = {
				.wr_id = qp->rq.wr_id, .op = ROCE_RC_OP_RECV_WRITE_IMM, .recv = true,
				.byte_len = qp->w_len, .has_imm = true, .imm = pkt->imm,
				.solicited = pkt->bth.se,
			};

			qp->rq_taken = false;
			complete(qp, &cqe);
		}
	}
	return true;
}

/* READ request or atomic in sequence (READ responses: from now on, a burst a turn). */
static void exec_rd_atomic(struct roce_rc_qp *qp, const struct roce_pkt *pkt)
{
	uint32_t psn = pkt->bth.psn;
	struct resource *r;
	int nak;

	if (qp->cfg.max_dest_rd_atomic == 0) {
		resp_fail(qp, psn, ROCE_NAK_INVALID, ROCE_RC_WC_REM_INV_REQ_ERR);
		return;
	}
	if (pkt->bth.opcode == ROCE_RC_READ_REQUEST) {
		const struct roce_reth *q = &pkt->reth;

		if (q->len > ROCE_RC_MAX_MSG) {
			resp_fail(qp, psn, ROCE_NAK_INVALID, ROCE_RC_WC_REM_INV_REQ_ERR);
			return;
		}
		nak = q->len == 0 ? 0 : qp->cfg.ops->rkey_check(qp->cfg.ctx, q->rkey, q->va, q->len,
			ROCE_RC_ACC_READ);
		if (nak != 0) {
			resp_fail(qp, psn, nak, ROCE_RC_WC_REM_ACCESS_ERR);
			return;
		}
		r = new_resource(qp);
		r->psn = psn;
		r->npsn = npkts(q->len, qp->cfg.mtu);
		r->va = q->va;
		r->rkey = q->rkey;
		r->len = q->len;
		qp->epsn = roce_psn_add(psn, r->npsn);
		qp->msn++;
		owe_nothing(qp); /* its responses acknowledge what came before */
		read_start(qp, r, psn, q->va, q->len);
		return;
	}
	if (pkt->atomic.va & 7) {
		resp_fail(qp, psn, ROCE_NAK_INVALID, ROCE_RC_WC_REM_INV_REQ_ERR);
		return;
	}
	nak = qp->cfg.ops->rkey_check(qp->cfg.ctx, pkt->atomic.rkey, pkt->atomic.va, 8,
		ROCE_RC_ACC_ATOMIC);
	if (nak != 0) {
		resp_fail(qp, psn, nak, ROCE_RC_WC_REM_ACCESS_ERR);
		return;
	}
	r = new_resource(qp);
	r->atomic = true;
	r->psn = psn;
	r->npsn = 1;
	r->orig = qp->cfg.ops->atomic(qp->cfg.ctx, pkt->atomic.rkey, pkt->atomic.va,
		pkt->bth.opcode == ROCE_RC_CMP_SWAP, pkt->atomic.swap_add, pkt->atomic.compare);
	qp->epsn = roce_psn_add(psn, 1);
	qp->msn++;
	owe_nothing(qp);
	send_aeth(qp, ROCE_RC_ATOMIC_ACK, ROCE_AETH_ACK | ROCE_AETH_VALUE, psn, r->orig);
}

static bool is_send_op(uint8_t op)
{
	return op <= ROCE_RC_SEND_ONLY_IMM || op == ROCE_RC_SEND_LAST_INV ||
		op == ROCE_RC_SEND_ONLY_INV;
}

/* Sequence NAK for epsn, once until it comes (the ACK of what came in order first). */
static void seq_nak(struct roce_rc_qp *qp)
{
	qp->nak_sent = true;
	qp->st.nak_seq_sent++;
	/*
	 * What came in order since the last ACK is acknowledged first. The NAK acknowledges it
	 * too, implicitly, but Linux rxe's completer, once in a retry, ignores NAKs until an ACK
	 * completes something: without this one it would wait for its retransmit timer
	 * (docs/interop.md, nvme-netem).
	 */
	if (qp->ack_owed != 0 || qp->ack_now)
		ack_in_order(qp);
	send_aeth(qp, ROCE_RC_ACK, ROCE_AETH_NAK | ROCE_NAK_PSN_SEQ, qp->epsn, 0);
}

/* The request at epsn, executed. */
static void exec_request(struct roce_rc_qp *qp, const struct roce_pkt *pkt, uint64_t now)
{
	uint32_t psn = pkt->bth.psn;
	uint8_t op = pkt->bth.opcode;
	bool ok;

	qp->nak_sent = false;
	if (!roce_payload_ok(op, pkt->payload_len, qp->cfg.mtu)) {
		resp_fail(qp, psn, ROCE_NAK_INVALID, ROCE_RC_WC_REM_INV_REQ_ERR);
		return;
	}
	/* Opcode sequence: a message starts only when none is open and goes on in its kind. */
	if (is_first(op) || is_only(op) || op == ROCE_RC_READ_REQUEST || op == ROCE_RC_CMP_SWAP ||
		op == ROCE_RC_FETCH_ADD ? qp->in != IN_NONE :
		qp->in != (is_send_op(op) ? IN_SEND : IN_WRITE)) {
		resp_fail(qp, psn, ROCE_NAK_INVALID, ROCE_RC_WC_REM_INV_REQ_ERR);
		return;
	}
	if (op == ROCE_RC_READ_REQUEST || op == ROCE_RC_CMP_SWAP || op == ROCE_RC_FETCH_ADD) {
		exec_rd_atomic(qp, pkt);
		return;
	}
	ok = is_send_op(op) ? exec_send(qp, pkt) : exec_write(qp, pkt);
	if (!ok)
		return;
	qp->epsn = roce_psn_add(psn, 1);
	if (qp->ack_owed++ == 0)
		qp->ack_since = now;
	if (pkt->bth.ack_req)
		qp->ack_now = true;
}

/*
 * A request that comes while READ responses are still to go out: executed in PSN order, it
 * waits for them, held (rxe keeps it in its queue). Held already (a resend): dropped, it runs
 * in its turn. Out of order or no room: dropped, and the sequence NAK waits until the held ones
 * ran (sent now, it would acknowledge them before they ran).
 */
static void hold_request(struct roce_rc_qp *qp, const struct roce_pkt *pkt, const uint8_t *buf,
	size_t len)
{
	uint32_t psn = pkt->bth.psn, span = 1;
	int c = roce_psn_cmp(psn, qp->hold_first != NULL ? qp->hold_psn : qp->epsn);
	size_t cost = sizeof(struct held) + len;
	struct held *h = NULL;

	if (c < 0) {
		qp->st.dup_requests++;
		return;
	}
	if (c == 0 && hold_charge(qp, cost)) {
		h = malloc(cost);
		if (h == NULL)
			hold_release(qp, cost);
	}
	if (h == NULL) {
		qp->st.rx_dropped++;
		if (c == 0)
			qp->st.hold_dropped++;
		if (!qp->nak_sent)
			qp->nak_sent = qp->nak_owed = true;
		return;
	}
	h->next = NULL;
	h->len = len;
	memcpy(h->buf, buf, len);
	if (qp->hold_last != NULL)
		qp->hold_last->next = h;
	else
		qp->hold_first = h;
	qp->hold_last = h;
	if (pkt->bth.opcode == ROCE_RC_READ_REQUEST && pkt->reth.len <= ROCE_RC_MAX_MSG)
		span = npkts(pkt->reth.len, qp->cfg.mtu);
	qp->hold_psn = roce_psn_add(psn, span);
	qp->nak_sent = false;
}

/* The resource whose responses go out first: the oldest (the ring's order is PSN order). */
static struct resource *first_sending(struct roce_rc_qp *qp)
{
	for (uint32_t i = 0; i < qp->cfg.max_dest_rd_atomic; i++) {
		struct resource *r = &qp->res[(qp->res_next + i) % qp->cfg.max_dest_rd_atomic];

		if (r->used && r->sending)
			return r;
	}
	return NULL; /* cannot be while nsending > 0 */
}

/*
 * The responder's turn: READ responses, oldest first, as many as the turn has left; once they
 * are all out, the requests held behind them run, in order (a READ among them starts its own),
 * as many as the turn has left of its own count for them: thousands of small ones held must
 * not keep the thread from the other QPs either. (Counted apart from the responses, so a READ
 * held behind a READ starts as soon as the one before is out, as before.)
 */
static void respond(struct roce_rc_qp *qp, uint64_t now)
{
	while (!qp->error) {
		struct roce_pkt pkt;
		struct held *h;

		if (qp->nsending > 0) {
			struct resource *r = first_sending(qp);

			if (r == NULL)
				break;
			read_responses(qp, r);
			if (r->sending)
				return; /* the turn is over */
			continue;
		}
		if (qp->hold_first == NULL)
			break;
		if (qp->hold_left == 0)
			return; /* the turn is over */
		qp->hold_left--;
		h = hold_pop(qp);
		if (roce_pkt_parse(h->buf, h->len, &pkt) == ROCE_PARSE_OK) /* (it parsed when it came) */
			exec_request(qp, &pkt, now);
		free(h);
		if (qp->nak_sent) { /* refused (RNR): the requester sends it and what follows again */
			drop_held(qp);
			qp->nak_owed = false;
		}
	}
	if (qp->nak_owed && !qp->error) {
		qp->nak_owed = false;
		seq_nak(qp);
	}
}

static void rx_request(struct roce_rc_qp *qp, const struct roce_pkt *pkt, const uint8_t *buf,
	size_t len, uint64_t now)
{
	int c = roce_psn_cmp(pkt->bth.psn, qp->epsn);

	if (c < 0) {
		rx_duplicate(qp, pkt);
		return;
	}
	if (responding(qp)) {
		hold_request(qp, pkt, buf, len);
		return;
	}
	if (c > 0) {
		/* A gap: say so once, then drop until the expected PSN comes again. */
		qp->st.rx_dropped++;
		if (!qp->nak_sent)
			seq_nak(qp);
		return;
	}
	exec_request(qp, pkt, now);
}

/* ---- entry points ---- */

void roce_rc_rx(struct roce_rc_qp *qp, uint64_t now, const uint8_t *buf, size_t len)
{
	struct roce_pkt pkt;
	uint8_t op;
	bool request;

	qp->st.rx_pkts++;
	/* as rxe: the P_Key's low 15 bits must match and one side be a full member */
	if ((qp->error && !qp->err_nak) || roce_pkt_parse(buf, len, &pkt) != ROCE_PARSE_OK ||
		pkt.bth.dqpn != qp->cfg.qpn || ((pkt.bth.pkey ^ qp->cfg.pkey) & 0x7fff) != 0 ||
		((pkt.bth.pkey | qp->cfg.pkey) & 0x8000) == 0) {
		qp->st.rx_dropped++;
		return;
	}
	op = pkt.bth.opcode;
	request = op <= ROCE_RC_READ_REQUEST || op == ROCE_RC_CMP_SWAP || op == ROCE_RC_FETCH_ADD ||
		op == ROCE_RC_SEND_LAST_INV || op == ROCE_RC_SEND_ONLY_INV;
	if (qp->error) {
		/* The NAK may have been lost: a resend of the refused request gets it again, so the
		 * requester learns why instead of retrying until it gives up. Anything else: dropped. */
		if (request && pkt.bth.psn == qp->err_psn) {
			qp->st.nak_err_sent++;
			send_aeth(qp, ROCE_RC_ACK, (uint8_t)(ROCE_AETH_NAK | qp->err_code), qp->err_psn, 0);
		} else {
			qp->st.rx_dropped++;
		}
		return;
	}
	if (request) {
		rx_request(qp, &pkt, buf, len, now);
		if (responding(qp))
			respond(qp, now); /* what this turn has left */
	} else if (op >= ROCE_RC_READ_RESP_FIRST && op <= ROCE_RC_ATOMIC_ACK)
		rx_response(qp, &pkt, now);
	else
		qp->st.rx_dropped++;
}

uint64_t roce_rc_poll(struct roce_rc_qp *qp, uint64_t now)
{
	uint64_t next = ROCE_RC_NO_DEADLINE;

	if (qp->error)
		return next;
	/* responder: a new turn of READ responses (and the requests held behind them) */
	qp->burst_left = qp->hold_left = qp->cfg.read_burst;
	respond(qp, now);
	if (qp->error)
		return next;
	/*
	 * Owed ACK, one for the whole batch received since the last poll. Not while responses are
	 * still to go: they carry it, and an ACK past a READ not answered yet makes the requester
	 * ask again.
	 */
	if (roce_rc_acks_owed(qp)) {
		if (qp->ack_now || qp->ack_owed >= qp->cfg.ack_every ||
			now >= qp->ack_since + qp->cfg.ack_delay_ns) {
			ack_in_order(qp);
		} else {
			next = qp->ack_since + qp->cfg.ack_delay_ns;
		}
	}
	/* requester timers */
	if (qp->rnr_at <= now) {
		qp->rnr_at = ROCE_RC_NO_DEADLINE;
		rewind_to(qp, qp->una);
	}
	if (qp->rto_at <= now) {
		qp->rto_at = ROCE_RC_NO_DEADLINE;
		if (qp->una != qp->next_psn) {
			qp->st.timeouts++;
			go_back(qp, now, true);
		}
	}
	send_requests(qp, now);
	if (qp->error)
		return ROCE_RC_NO_DEADLINE;
	if (qp->rto_at < next)
		next = qp->rto_at;
	if (qp->rnr_at < next)
		next = qp->rnr_at;
	if (responding(qp))
		next = now; /* responses or held requests wait for the next turn */
	return next;
}

bool roce_rc_post(struct roce_rc_qp *qp, const struct roce_rc_wr *wr)
{
	struct swr *s;

	if (wr->op > ROCE_RC_OP_FETCH_ADD || wr->len > ROCE_RC_MAX_MSG)
		return false;
	if (qp->error) {
		struct roce_rc_cqe cqe = {
			.wr_id = wr->wr_id, .status = ROCE_RC_WC_WR_FLUSH_ERR, .op = wr->op,
		};

		complete(qp, &cqe);
		return true;
	}
	if (qp->tail - qp->head >= qp->cfg.sq_depth)
		return false;
	s = slot(qp, qp->tail);
	memset(s, 0, sizeof(*s));
	s->wr = *wr;
	if (is_rd_atomic(wr->op) && wr->op != ROCE_RC_OP_READ)
		s->wr.len = 8;
	qp->tail++;
	return true;
}

bool roce_rc_set_requester(struct roce_rc_qp *qp, uint32_t sq_psn, uint8_t timeout, uint8_t retry_cnt,
			   uint8_t rnr_retry, uint32_t max_rd_atomic)
{
	if (qp->tail != 0 || qp->error || timeout > 31 || retry_cnt > 7 || rnr_retry > 7 || max_rd_atomic == 0)
		return false;
	qp->cfg.sq_psn = sq_psn & ROCE_PSN_MASK;
	qp->cfg.timeout = timeout;
	qp->cfg.retry_cnt = retry_cnt;
	qp->cfg.rnr_retry = rnr_retry;
	qp->cfg.max_rd_atomic = max_rd_atomic;
	qp->timeout_ns = timeout == 0 ? 0 : 4096ull << timeout;
	qp->una = qp->cur_psn = qp->next_psn = qp->hi_psn = qp->cfg.sq_psn;
	qp->retry_left = retry_cnt;
	qp->rnr_left = rnr_retry;
	return true;
}

void roce_rc_set_error(struct roce_rc_qp *qp)
{
	/*
	 * What the responder delivered is acknowledged first, as a NIC's ACK leaves before the
	 * consumer sees the completion: a consumer that disconnects right after its receive must
	 * not leave the sender waiting for an ACK that was only owed (coalesced).
	 */
	if (roce_rc_acks_owed(qp))
		ack_in_order(qp);
	qp_error(qp, -1);
}

bool roce_rc_acks_owed(const struct roce_rc_qp *qp)
{
	return !qp->error && !responding(qp) && (qp->ack_owed != 0 || qp->ack_now);
}

bool roce_rc_unacked(const struct roce_rc_qp *qp)
{
	return !qp->error && (qp->una != qp->hi_psn || responding(qp));
}

bool roce_rc_in_error(const struct roce_rc_qp *qp)
{
	return qp->error;
}

const struct roce_rc_stats *roce_rc_get_stats(const struct roce_rc_qp *qp)
{
	return &qp->st;
}

struct roce_rc_qp *roce_rc_create(const struct roce_rc_cfg *cfg)
{
	struct roce_rc_qp *qp;
	uint32_t mtu = cfg->mtu;

	if (cfg->ops == NULL || cfg->sq_depth == 0 || cfg->max_rd_atomic == 0 || mtu < 256 ||
		mtu > 4096 || (mtu & (mtu - 1)) != 0 || cfg->retry_cnt > 7 || cfg->rnr_retry > 7 ||
		cfg->timeout > 31)
		return NULL;
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL)
		return NULL;
	qp->cfg = *cfg;
	qp->cfg.qpn &= ROCE_PSN_MASK;
	qp->cfg.dest_qpn &= ROCE_PSN_MASK;
	if (qp->cfg.pkey == 0)
		qp->cfg.pkey = ROCE_PKEY_DEFAULT;
	if (qp->cfg.window == 0 || qp->cfg.window >= ROCE_PSN_MASK / 2)
		qp->cfg.window = ROCE_RC_MAX_UNACKED;
	qp->cwnd = qp->cfg.window;
	if (qp->cfg.ack_every == 0)
		qp->cfg.ack_every = 16;
	if (qp->cfg.ack_delay_ns == 0)
		qp->cfg.ack_delay_ns = 100000;
	qp->sq = calloc(cfg->sq_depth, sizeof(*qp->sq));
	qp->res = calloc(cfg->max_dest_rd_atomic + 1, sizeof(*qp->res));
	if (qp->sq == NULL || qp->res == NULL) {
		roce_rc_destroy(qp);
		return NULL;
	}
	qp->timeout_ns = cfg->timeout == 0 ? 0 : 4096ull << cfg->timeout;
	qp->una = qp->cur_psn = qp->next_psn = qp->hi_psn = cfg->sq_psn & ROCE_PSN_MASK;
	qp->epsn = cfg->rq_psn & ROCE_PSN_MASK;
	qp->retry_left = cfg->retry_cnt;
	qp->rnr_left = cfg->rnr_retry;
	qp->rto_at = qp->rnr_at = ROCE_RC_NO_DEADLINE;
	if (qp->cfg.read_burst == 0)
		qp->cfg.read_burst = ROCE_RC_BURST;
	qp->burst_left = qp->hold_left = qp->cfg.read_burst;
	if (qp->cfg.hold_bytes == 0)
		qp->cfg.hold_bytes = ROCE_RC_HOLD_BYTES;
	return qp;
}

void roce_rc_destroy(struct roce_rc_qp *qp)
{
	if (qp == NULL)
		return;
	drop_held(qp);
	free(qp->sq);
	free(qp->res);
	free(qp);
}

const char *roce_rc_status_name(enum roce_rc_status status)
{
	static const char *const names[] = {
		"SUCCESS", "LOC_LEN_ERR", "LOC_QP_OP_ERR", "LOC_PROT_ERR", "WR_FLUSH_ERR",
		"REM_INV_REQ_ERR", "REM_ACCESS_ERR", "REM_OP_ERR", "RETRY_EXC_ERR", "RNR_RETRY_EXC_ERR",
	};

	return (unsigned int)status < sizeof(names) / sizeof(names[0]) ? names[status] : "?";
}
