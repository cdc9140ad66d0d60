/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RC transport engine (lib/softhw/rnic/roce_rc.c): two engines back to back through an
 * in-memory channel with simulated time (loss, duplication, reordering from a seeded PRNG),
 * every opcode at every path MTU, RNR, retry exhaustion, NAKs, replayed READs and atomics, PSN
 * wraparound; then hand-built frames in the style of Linux rxe fed to one responder.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "softhw/rnic/roce_rc.h"
#include "test.h"

#define MEM_SZ (4u << 20)
#define MEM_VA 0x10000000ull
#define MAXW 64

struct side {
	struct roce_rc_qp *qp;
	int id;
	uint8_t *mem;   /* remote-accessible memory, rkey 0x100 + id at MEM_VA */
	uint8_t *local; /* the side's own WR buffers */
	uint8_t *rbuf;  /* receive buffers */
	unsigned int access;
	struct roce_rc_recv rq[256];
	unsigned int rq_head, rq_tail;
	struct roce_rc_cqe *scq, *rcq; /* send and receive completions */
	unsigned int nscq, nrcq;
	uint64_t atomic_calls;
};

struct ev {
	uint64_t at, seq;
	int to;
	size_t len;
	uint8_t buf[4200];
};

static struct side sides[2];
static uint64_t now;
static uint64_t rng_state;

/* channel */
static struct ev *evs[8192];
static unsigned int nevs;
static uint64_t ev_seq;
static unsigned int loss_pct, dup_pct, reorder_pct;
static bool cut[2];            /* drop everything sent by side i */
static unsigned int drop_next[2]; /* drop this many of the next frames sent by side i */
static int reorder_only = -1;  /* >= 0: only that side's packets are reordered */
static uint8_t cap_op = 0xff;  /* keep a copy of the last frame of this opcode from side 0 */
static uint8_t cap_buf[4200];
static size_t cap_len;
static bool saw_psn_lo, saw_psn_hi;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned int rnd_pct(void)
{
	return (unsigned int)(rnd() % 100);
}

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

static void enqueue(int to, const uint8_t *buf, size_t len, uint64_t delay)
{
	struct ev *e;

	if (nevs == sizeof(evs) / sizeof(evs[0]))
		return; /* a full wire drops */
	e = malloc(sizeof(*e));
	if (e == NULL)
		return;
	e->at = now + delay;
	e->seq = ev_seq++;
	e->to = to;
	e->len = len;
	memcpy(e->buf, buf, len);
	evs[nevs++] = e;
}

static void emit_cb(void *ctx, const uint8_t *buf, size_t len)
{
	struct side *s = ctx;
	uint64_t delay = 5000;
	uint32_t psn = roce_get24(buf + 9);

	if (psn < 0x100)
		saw_psn_lo = true;
	if (psn > 0xffff00)
		saw_psn_hi = true;
	if (s->id == 0 && buf[0] == cap_op) {
		memcpy(cap_buf, buf, len);
		cap_len = len;
	}
	if (drop_next[s->id] > 0) {
		drop_next[s->id]--;
		return;
	}
	if (cut[s->id] || rnd_pct() < loss_pct)
		return;
	if (rnd_pct() < reorder_pct && (reorder_only < 0 || reorder_only == s->id))
		delay += 1000 + rnd() % 30000;
	enqueue(1 - s->id, buf, len, delay);
	if (rnd_pct() < dup_pct)
		enqueue(1 - s->id, buf, len, delay + rnd() % 20000);
}

static int rkey_check_cb(void *ctx, uint32_t rkey, uint64_t va, uint64_t len, unsigned int acc)
{
	struct side *s = ctx;

	if (rkey != 0x100u + (uint32_t)s->id || va < MEM_VA || len > MEM_SZ ||
		va - MEM_VA > MEM_SZ - len || (acc & s->access) != acc)
		return ROCE_NAK_REM_ACCESS;
	return 0;
}

static void mem_write_cb(void *ctx, uint32_t rkey, uint64_t va, const void *src, size_t len)
{
	struct side *s = ctx;

	memcpy(s->mem + (va - MEM_VA), src, len);
}

static void mem_read_cb(void *ctx, uint32_t rkey, uint64_t va, void *dst, size_t len)
{
	struct side *s = ctx;

	memcpy(dst, s->mem + (va - MEM_VA), len);
}

static uint64_t atomic_cb(void *ctx, uint32_t rkey, uint64_t va, bool cmp_swap, uint64_t swap_add,
	uint64_t compare)
{
	struct side *s = ctx;
	uint64_t v;

	s->atomic_calls++;
	memcpy(&v, s->mem + (va - MEM_VA), 8);
	if (!cmp_swap) {
		uint64_t n = v + swap_add;

		memcpy(s->mem + (va - MEM_VA), &n, 8);
	} else if (v == compare) {
		memcpy(s->mem + (va - MEM_VA), &swap_add, 8);
	}
	return v;
}

static bool recv_take_cb(void *ctx, struct roce_rc_recv *out)
{
	struct side *s = ctx;

	if (s->rq_head == s->rq_tail)
		return false;
	*out = s->rq[s->rq_head++ % 256];
	return true;
}

static void complete_cb(void *ctx, const struct roce_rc_cqe *cqe)
{
	struct side *s = ctx;

	if (cqe->recv)
		s->rcq[s->nrcq++ % 4096] = *cqe;
	else
		s->scq[s->nscq++ % 4096] = *cqe;
}

static const struct roce_rc_ops test_ops = {
	.emit = emit_cb, .rkey_check = rkey_check_cb, .mem_write = mem_write_cb,
	.mem_read = mem_read_cb, .atomic = atomic_cb, .recv_take = recv_take_cb,
	.complete = complete_cb,
};
static const struct roce_rc_ops *setup_ops = &test_ops;
static uint8_t setup_min_rnr = 1; /* RNR timer code: 10 us */
static uint32_t setup_window;      /* the requester window (0: the engine's default, 128) */
static uint32_t setup_ack_every;   /* the responder's ACK coalescing (0: default); rxe-like: only AckReq */
static uint64_t setup_ack_delay;

static void post_recv(struct side *s, uint64_t wr_id, uint32_t off, uint32_t len)
{
	s->rq[s->rq_tail++ % 256] = (struct roce_rc_recv){ .wr_id = wr_id, .buf = s->rbuf + off,
		.len = len };
}

static void clear_wire(void)
{
	for (unsigned int i = 0; i < nevs; i++)
		free(evs[i]);
	nevs = 0;
}

/* Two connected QPs: cfg fields given for side 0, mirrored for side 1. */
static void pair_setup(uint32_t mtu, uint32_t psn0, uint32_t psn1, uint8_t retry, uint8_t rnr,
	uint64_t seed)
{
	rng_state = seed;
	now = 1000000;
	loss_pct = dup_pct = reorder_pct = 0;
	cut[0] = cut[1] = false;
	drop_next[0] = drop_next[1] = 0;
	reorder_only = -1;
	cap_op = 0xff;
	saw_psn_lo = saw_psn_hi = false;
	clear_wire();
	for (int i = 0; i < 2; i++) {
		struct side *s = &sides[i];
		struct roce_rc_cfg cfg = {
			.qpn = 0x11u + (uint32_t)i, .dest_qpn = 0x12u - (uint32_t)i,
			.sq_psn = i == 0 ? psn0 : psn1, .rq_psn = i == 0 ? psn1 : psn0,
			.mtu = mtu, .timeout = 10, .retry_cnt = retry, .rnr_retry = rnr,
			.min_rnr_timer = setup_min_rnr, .max_rd_atomic = 4, .max_dest_rd_atomic = 4, .window = setup_window,
			.ack_every = setup_ack_every, .ack_delay_ns = setup_ack_delay,
			.sq_depth = MAXW, .ops = setup_ops, .ctx = s,
		};

		roce_rc_destroy(s->qp);
		s->id = i;
		if (s->mem == NULL) {
			s->mem = calloc(1, MEM_SZ);
			s->local = calloc(1, MEM_SZ);
			s->rbuf = calloc(1, MEM_SZ);
			s->scq = calloc(4096, sizeof(*s->scq));
			s->rcq = calloc(4096, sizeof(*s->rcq));
		}
		s->access = ROCE_RC_ACC_WRITE | ROCE_RC_ACC_READ | ROCE_RC_ACC_ATOMIC;
		s->rq_head = s->rq_tail = 0;
		s->nscq = s->nrcq = 0;
		s->atomic_calls = 0;
		s->qp = roce_rc_create(&cfg);
	}
}

static struct ev *pop_due(void)
{
	unsigned int best = nevs;

	for (unsigned int i = 0; i < nevs; i++)
		if (evs[i]->at <= now && (best == nevs || evs[i]->at < evs[best]->at ||
			(evs[i]->at == evs[best]->at && evs[i]->seq < evs[best]->seq)))
			best = i;
	if (best == nevs)
		return NULL;
	{
		struct ev *e = evs[best];

		evs[best] = evs[--nevs];
		return e;
	}
}

/* Runs the simulation until done() or nothing is left to do or limit ns of simulated time. */
static bool run(bool (*done)(void), uint64_t limit)
{
	uint64_t end = now + limit;

	for (long iter = 0; iter < 5000000; iter++) {
		struct ev *e;
		uint64_t next = ROCE_RC_NO_DEADLINE, d;

		if (done != NULL && done())
			return true;
		while ((e = pop_due()) != NULL) {
			roce_rc_rx(sides[e->to].qp, now, e->buf, e->len);
			free(e);
		}
		for (int i = 0; i < 2; i++) {
			d = roce_rc_poll(sides[i].qp, now);
			if (d < next)
				next = d;
		}
		for (unsigned int i = 0; i < nevs; i++)
			if (evs[i]->at < next)
				next = evs[i]->at;
		if (next == ROCE_RC_NO_DEADLINE)
			return done == NULL || done(); /* quiet: nothing in flight, no timer */
		if (next > end)
			return done != NULL && done();
		if (next > now)
			now = next;
	}
	return false;
}

/* ---- a batch of random WRs from one side to the other, and its check ---- */

struct plan {
	struct side *src, *dst;
	int n;
	struct roce_rc_wr wr[MAXW];
	uint32_t roff[MAXW]; /* dst memory (WRITE, READ) or receive buffer (SEND) offset */
	uint64_t expect_orig[MAXW];
	int nrecv;
	unsigned int scq0, rcq0;
};

static struct plan plans[2];

static uint32_t pick_len(uint32_t mtu)
{
	switch (rnd() % 9) {
	case 0: return 0;
	case 1: return 1;
	case 2: return mtu - 1;
	case 3: return mtu;
	case 4: return mtu + 1;
	case 5: return 2 * mtu;
	case 6: return 3 * mtu + 5;
	case 7: return rnd() % 2 ? 10000 : 150 * mtu + 7; /* longer than the 128-PSN window */
	default: return (uint32_t)(rnd() % (5 * mtu));
	}
}

/* ops: a fixed op for every WR, or -1 for random ones. */
static void plan_make(struct plan *p, struct side *src, struct side *dst, int n, uint32_t mtu,
	int op)
{
	uint32_t loff = 0, roff = 64, rboff = 0;
	uint64_t fa, cs;

	memset(p, 0, sizeof(*p));
	p->src = src;
	p->dst = dst;
	p->n = n;
	p->scq0 = src->nscq;
	p->rcq0 = dst->nrcq;
	memcpy(&fa, dst->mem, 8);
	memcpy(&cs, dst->mem + 8, 8);
	for (int i = 0; i < n; i++) {
		struct roce_rc_wr *w = &p->wr[i];
		uint32_t len = pick_len(mtu);

		if (len > 20000 && (loff > MEM_SZ / 2 || roff > MEM_SZ / 2 || rboff > MEM_SZ / 2))
			len = 1; /* keep every buffer inside its pool */

		w->wr_id = 1000u + (uint64_t)i;
		w->solicited = rnd() % 2;
		w->op = (enum roce_rc_op)(op >= 0 ? op : (int)(rnd() % 8));
		w->rkey = 0x100u + (uint32_t)dst->id;
		w->len = len;
		w->local = src->local + loff;
		fill(src->local + loff, len);
		loff += (len + 8 + 7) & ~7u;
		switch (w->op) {
		case ROCE_RC_OP_SEND:
		case ROCE_RC_OP_SEND_IMM:
		case ROCE_RC_OP_SEND_INV:
			w->imm = (uint32_t)rnd();
			w->inv_rkey = (uint32_t)rnd();
			p->roff[i] = rboff;
			post_recv(dst, 5000u + (uint64_t)i, rboff, len + (uint32_t)(rnd() % 3));
			rboff += (len + 8 + 7) & ~7u;
			p->nrecv++;
			break;
		case ROCE_RC_OP_WRITE:
		case ROCE_RC_OP_WRITE_IMM:
		case ROCE_RC_OP_READ:
			p->roff[i] = roff;
			w->remote_va = MEM_VA + roff;
			w->imm = (uint32_t)rnd();
			fill(dst->mem + roff, len);
			roff += (len + 8 + 7) & ~7u;
			if (w->op == ROCE_RC_OP_WRITE_IMM) {
				post_recv(dst, 5000u + (uint64_t)i, rboff, 0);
				p->nrecv++;
			}
			break;
		case ROCE_RC_OP_FETCH_ADD:
			w->remote_va = MEM_VA;
			w->swap_add = 1;
			p->expect_orig[i] = fa++;
			break;
		case ROCE_RC_OP_CMP_SWAP:
			/* every other one compares against a wrong value and must leave memory alone */
			w->remote_va = MEM_VA + 8;
			w->compare = rnd() % 2 ? cs : cs + 1;
			w->swap_add = rnd();
			p->expect_orig[i] = cs;
			if (w->compare == cs)
				cs = w->swap_add;
			break;
		default:
			break;
		}
	}
	for (int i = 0; i < n; i++)
		CHECK(roce_rc_post(src->qp, &p->wr[i]));
}

static bool plans_done(void)
{
	for (int i = 0; i < 2; i++) {
		const struct plan *p = &plans[i];

		if (p->src != NULL && (p->src->nscq - p->scq0 < (unsigned int)p->n ||
			p->dst->nrcq - p->rcq0 < (unsigned int)p->nrecv))
			return false;
	}
	return true;
}

static void plan_check(const struct plan *p)
{
	unsigned int r = p->rcq0;

	CHECK(p->src->nscq - p->scq0 == (unsigned int)p->n);
	CHECK(p->dst->nrcq - p->rcq0 == (unsigned int)p->nrecv);
	for (int i = 0; i < p->n; i++) {
		const struct roce_rc_wr *w = &p->wr[i];
		const struct roce_rc_cqe *c = &p->src->scq[(p->scq0 + (unsigned int)i) % 4096];
		const uint8_t *local = w->local;
		uint64_t orig;
		bool good = c->wr_id == w->wr_id && c->status == ROCE_RC_WC_SUCCESS && c->op == w->op;

		if (!good)
			fprintf(stderr, "wr %d op %d: got wr_id %llu status %s\n", i, w->op,
				(unsigned long long)c->wr_id, roce_rc_status_name(c->status));
		CHECK(good);
		switch (w->op) {
		case ROCE_RC_OP_SEND:
		case ROCE_RC_OP_SEND_IMM:
		case ROCE_RC_OP_SEND_INV: {
			const struct roce_rc_cqe *rc = &p->dst->rcq[r++ % 4096];

			CHECK(rc->wr_id == 5000u + (uint64_t)i && rc->status == ROCE_RC_WC_SUCCESS);
			CHECK(rc->op == ROCE_RC_OP_RECV && rc->byte_len == w->len);
			CHECK(rc->has_imm == (w->op == ROCE_RC_OP_SEND_IMM));
			CHECK(rc->has_inv == (w->op == ROCE_RC_OP_SEND_INV));
			CHECK(rc->solicited == w->solicited);
			if (rc->has_imm)
				CHECK(rc->imm == w->imm);
			if (rc->has_inv)
				CHECK(rc->inv_rkey == w->inv_rkey);
			CHECK(memcmp(p->dst->rbuf + p->roff[i], local, w->len) == 0);
			break;
		}
		case ROCE_RC_OP_WRITE_IMM: {
			const struct roce_rc_cqe *rc = &p->dst->rcq[r++ % 4096];

			CHECK(rc->wr_id == 5000u + (uint64_t)i && rc->op == ROCE_RC_OP_RECV_WRITE_IMM);
			CHECK(rc->has_imm && rc->imm == w->imm && rc->byte_len == w->len);
			CHECK(rc->solicited == w->solicited);
		}
			/* fall through */
		case ROCE_RC_OP_WRITE:
		case ROCE_RC_OP_READ:
			CHECK(memcmp(p->dst->mem + p->roff[i], local, w->len) == 0);
			break;
		case ROCE_RC_OP_FETCH_ADD:
		case ROCE_RC_OP_CMP_SWAP:
			memcpy(&orig, local, 8);
			CHECK(orig == p->expect_orig[i]);
			break;
		default:
			break;
		}
	}
}

static void print_stats(const char *what, const struct roce_rc_stats *s)
{
	fprintf(stderr, "  %s: tx %llu rx %llu drop %llu retrans %llu timeouts %llu fast %llu "
		"nakseq %llu/%llu rnr %llu/%llu dupreq %llu replays r%llu a%llu dupresp %llu "
		"acks %llu/%llu\n", what,
		(unsigned long long)s->tx_pkts, (unsigned long long)s->rx_pkts,
		(unsigned long long)s->rx_dropped, (unsigned long long)s->retransmits,
		(unsigned long long)s->timeouts, (unsigned long long)s->fast_retries,
		(unsigned long long)s->nak_seq_sent, (unsigned long long)s->nak_seq_rcvd,
		(unsigned long long)s->rnr_sent, (unsigned long long)s->rnr_rcvd,
		(unsigned long long)s->dup_requests, (unsigned long long)s->read_replays,
		(unsigned long long)s->atomic_replays, (unsigned long long)s->dup_responses,
		(unsigned long long)s->acks_sent, (unsigned long long)s->acks_rcvd);
}

static const uint32_t mtus[] = { 256, 512, 1024, 2048, 4096 };

/* Every opcode at every path MTU, both directions at once, on a clean wire. */
static void test_all_ops_clean(void)
{
	for (unsigned int m = 0; m < 5; m++) {
		pair_setup(mtus[m], 0x100, 0x200000, 6, 6, 0x1234 + m);
		for (int op = 0; op <= ROCE_RC_OP_FETCH_ADD; op++) {
			plan_make(&plans[0], &sides[0], &sides[1], 12, mtus[m], op);
			plan_make(&plans[1], &sides[1], &sides[0], 12, mtus[m], op);
			CHECK(run(plans_done, 10000000000ull));
			plan_check(&plans[0]);
			plan_check(&plans[1]);
		}
		CHECK(roce_rc_get_stats(sides[0].qp)->retransmits == 0);
		CHECK(roce_rc_get_stats(sides[0].qp)->timeouts == 0);
	}
}

/* Random mixes under 10% loss, 10% duplication, 10% reordering, each way. */
static void lossy_rounds(uint32_t mtu, uint32_t psn0, uint32_t psn1, int rounds, uint64_t seed)
{
	uint64_t fa0;

	pair_setup(mtu, psn0, psn1, 6, 6, seed);
	loss_pct = dup_pct = reorder_pct = 10;
	for (int r = 0; r < rounds; r++) {
		memcpy(&fa0, sides[1].mem, 8);
		plan_make(&plans[0], &sides[0], &sides[1], 40, mtu, -1);
		plan_make(&plans[1], &sides[1], &sides[0], 40, mtu, -1);
		CHECK(run(plans_done, 100000000000ull));
		/* let late duplicates and timers play out: no WR may complete a second time */
		run(NULL, 50000000ull);
		plan_check(&plans[0]);
		plan_check(&plans[1]);
		CHECK(!roce_rc_in_error(sides[0].qp) && !roce_rc_in_error(sides[1].qp));
		{
			/* each FETCH_ADD executed exactly once, duplicates notwithstanding */
			uint64_t fa1, adds = 0;

			for (int i = 0; i < 40; i++)
				adds += plans[0].wr[i].op == ROCE_RC_OP_FETCH_ADD;
			memcpy(&fa1, sides[1].mem, 8);
			CHECK(fa1 - fa0 == adds);
		}
	}
}

static void test_lossy(void)
{
	for (unsigned int m = 0; m < 5; m++) {
		const struct roce_rc_stats *a, *b;

		lossy_rounds(mtus[m], 0x777, 0x123456, 8, 0xfeed0000u + m);
		a = roce_rc_get_stats(sides[0].qp);
		b = roce_rc_get_stats(sides[1].qp);
		fprintf(stderr, " mtu %u, 10%% loss/dup/reorder, 8 x 40 WRs each way, %.1f ms simulated\n",
			mtus[m], (double)(now - 1000000) / 1e6);
		print_stats("A", a);
		print_stats("B", b);
		CHECK(a->retransmits > 0 && b->retransmits > 0);
		CHECK(a->dup_requests + b->dup_requests > 0);
	}
}

/*
 * Go-back-N on a lossy link with a wide window (the path's is up to 1024 PSNs): each loss
 * resends everything from it, so with the window full nearly every packet sent was a resend
 * (174 per new packet in netns_rdma_roce_lossy). The engine halves what it keeps in flight at
 * each go-back-N and regrows it with ACKs. 6 x 40 WRITEs of up to 151 packets, MTU 1024,
 * window 512, 5 % loss both ways: 1.46 resends per new packet (12.9 with the full window kept
 * in flight); at most 4 passes.
 */
static void window_under_loss(bool rxe_acks)
{
	const struct roce_rc_stats *a;
	double ratio;

	setup_window = 512;
	if (rxe_acks) { /* a responder that ACKs AckReq packets only, as rxe's */
		setup_ack_every = 1u << 30;
		setup_ack_delay = 1000000000000ull;
	}
	pair_setup(1024, 0x10, 0x20, 7, 7, 0x5eed1234u);
	setup_window = 0;
	setup_ack_every = 0;
	setup_ack_delay = 0;
	loss_pct = 5;
	for (int r = 0; r < 6; r++) {
		plan_make(&plans[0], &sides[0], &sides[1], 40, 1024, ROCE_RC_OP_WRITE);
		plan_make(&plans[1], &sides[1], &sides[0], 0, 1024, ROCE_RC_OP_WRITE);
		CHECK(run(plans_done, 100000000000ull));
		plan_check(&plans[0]);
	}
	a = roce_rc_get_stats(sides[0].qp);
	ratio = (double)a->retransmits / (double)(a->tx_pkts - a->retransmits);
	fprintf(stderr, " %s: A sent %llu packets, %llu of them resends: %.2f resends per new packet, %llu ACK timeouts, "
		"%.1f ms simulated\n", rxe_acks ? "responder ACKing AckReq only (rxe)" : "our responder",
		(unsigned long long)a->tx_pkts, (unsigned long long)a->retransmits, ratio,
		(unsigned long long)a->timeouts, (double)(now - 1000000) / 1e6);
	CHECK(a->retransmits > 0 && ratio <= 4.0);
	/* a flight smaller than the AckReq interval still asks for its ACK: no timeout waits on it */
	CHECK(!rxe_acks || a->timeouts <= 20);
}

static void test_window_under_loss(void)
{
	window_under_loss(false);
	window_under_loss(true);
}

/*
 * emit_ref: a payload from a WR's memory, sent from where it lies. The datagram is put back
 * together as a path's send would (headers, the payload, zero pad and ICRC) and goes on the
 * wire as emit's. Counted; each payload must be long enough and inside the side's WR memory.
 */
static unsigned long refs, refs_bad;

static void ref_emit_cb(void *ctx, const uint8_t *hdr, size_t hlen, const void *payload, size_t plen)
{
	struct side *s = ctx;
	uint8_t d[4200] = { 0 };
	size_t len = hlen + plen + roce_pad_len(plen) + ROCE_ICRC_LEN;
	const uint8_t *p = payload;

	refs++;
	if (plen < ROCE_RC_REF_MIN || len > sizeof(d) || p < s->local || p + plen > s->local + MEM_SZ ||
	    ((hdr[1] >> 4) & 3) != roce_pad_len(plen)) {
		refs_bad++;
		return;
	}
	memcpy(d, hdr, hlen);
	memcpy(d + hlen, payload, plen);
	emit_cb(ctx, d, len);
}

static const struct roce_rc_ops ref_ops = {
	.emit = emit_cb, .emit_ref = ref_emit_cb, .rkey_check = rkey_check_cb, .mem_write = mem_write_cb,
	.mem_read = mem_read_cb, .atomic = atomic_cb, .recv_take = recv_take_cb,
	.complete = complete_cb,
};

/* The same random mixes under loss with the payloads sent from where they lie: every byte intact. */
static void test_emit_ref(void)
{
	setup_ops = &ref_ops;
	for (unsigned int m = 2; m < 5; m++) {
		refs = refs_bad = 0;
		lossy_rounds(mtus[m], 0x999, 0x4321, 4, 0xbeef0000u + m);
		fprintf(stderr, " mtu %u: %lu payloads sent from where they lie\n", mtus[m], refs);
		CHECK(refs > 0 && refs_bad == 0);
	}
	setup_ops = &test_ops;
}

static void test_psn_wrap(void)
{
	lossy_rounds(1024, 0xfffff0, 0xffffc0, 3, 0xabc);
	CHECK(saw_psn_lo && saw_psn_hi);
	lossy_rounds(256, ROCE_PSN_MASK, 0xffff80, 2, 0xabd);
	CHECK(saw_psn_lo && saw_psn_hi);
}

static bool a_has_completion(void)
{
	return sides[0].nscq > 0;
}

static bool a_rnr_3(void)
{
	return roce_rc_get_stats(sides[0].qp)->rnr_rcvd >= 3;
}

static bool a_has_4(void)
{
	return sides[0].nscq >= 4;
}

static void test_rnr(void)
{
	struct roce_rc_wr w = { .wr_id = 1, .op = ROCE_RC_OP_SEND, .len = 3000 };

	/* infinite RNR retry; the receiver posts late */
	pair_setup(1024, 10, 20, 6, 7, 1);
	w.local = sides[0].local;
	fill(sides[0].local, 3000);
	CHECK(roce_rc_post(sides[0].qp, &w));
	CHECK(run(a_rnr_3, 1000000000ull));
	CHECK(sides[0].nscq == 0);
	post_recv(&sides[1], 77, 0, 4096);
	CHECK(run(a_has_completion, 1000000000ull));
	CHECK(sides[0].scq[0].status == ROCE_RC_WC_SUCCESS);
	CHECK(sides[1].nrcq == 1 && sides[1].rcq[0].byte_len == 3000);
	CHECK(memcmp(sides[1].rbuf, sides[0].local, 3000) == 0);
	CHECK(roce_rc_get_stats(sides[1].qp)->rnr_sent >= 3);

	/*
	 * RNR timer code 0 (655.36 ms, what Linux CM programs) against a 4 ms local ACK timeout
	 * and retry_cnt 1: the wait must not count as ACK timeouts. A READ goes first and its
	 * responses are often reordered behind the RNR NAK, so progress happens during the wait.
	 */
	for (uint64_t seed = 30; seed < 40; seed++) {
		struct roce_rc_wr rd = { .wr_id = 1, .op = ROCE_RC_OP_READ, .len = 3000,
			.rkey = 0x101, .remote_va = MEM_VA };

		setup_min_rnr = 0;
		pair_setup(1024, 10, 20, 1, 7, seed);
		setup_min_rnr = 1;
		reorder_pct = 50;
		reorder_only = 1; /* B's answers only: A's requests arrive in order */
		rd.local = sides[0].local + 8192;
		w.local = sides[0].local;
		w.wr_id = 2;
		CHECK(roce_rc_post(sides[0].qp, &rd));
		CHECK(roce_rc_post(sides[0].qp, &w));
		/* a READ response dropped as out of order waits for the next resend, which the RNR
		 * wait holds back too (as in rxe): allow a few RNR periods */
		CHECK(run(a_has_completion, 5000000000ull));
		CHECK(run(NULL, 500000000ull) == false); /* still waiting: the RNR timer runs */
		CHECK(sides[0].nscq == 1 && sides[0].scq[0].status == ROCE_RC_WC_SUCCESS);
		post_recv(&sides[1], 81, 4096, 4096);
		CHECK(run(NULL, 10000000000ull));
		CHECK(sides[0].nscq == 2 && sides[0].scq[1].status == ROCE_RC_WC_SUCCESS);
		CHECK(roce_rc_get_stats(sides[0].qp)->timeouts == 0);
		CHECK(sides[1].nrcq == 1 && sides[1].rcq[0].wr_id == 81);
	}

	/* rnr_retry 2: three RNR NAKs, then the WR fails and the next one is flushed */
	pair_setup(1024, 10, 20, 6, 2, 2);
	w.local = sides[0].local;
	w.wr_id = 1;
	CHECK(roce_rc_post(sides[0].qp, &w));
	w.wr_id = 2;
	CHECK(roce_rc_post(sides[0].qp, &w));
	CHECK(run(NULL, 1000000000ull));
	CHECK(sides[0].nscq == 2);
	CHECK(sides[0].scq[0].wr_id == 1 && sides[0].scq[0].status == ROCE_RC_WC_RNR_RETRY_EXC_ERR);
	CHECK(sides[0].scq[1].wr_id == 2 && sides[0].scq[1].status == ROCE_RC_WC_WR_FLUSH_ERR);
	CHECK(roce_rc_get_stats(sides[0].qp)->rnr_rcvd == 3);
	CHECK(roce_rc_in_error(sides[0].qp));
	/* a WR posted to a QP in error is flushed at once */
	w.wr_id = 3;
	CHECK(roce_rc_post(sides[0].qp, &w));
	CHECK(sides[0].nscq == 3 && sides[0].scq[2].status == ROCE_RC_WC_WR_FLUSH_ERR);
}

static void test_retry_exhausted(void)
{
	struct roce_rc_wr w = { .op = ROCE_RC_OP_WRITE, .len = 5000, .rkey = 0x101,
		.remote_va = MEM_VA };

	pair_setup(1024, 0, 0, 3, 7, 3);
	cut[0] = true;
	w.local = sides[0].local;
	for (int i = 0; i < 3; i++) {
		w.wr_id = 10u + (uint64_t)i;
		CHECK(roce_rc_post(sides[0].qp, &w));
	}
	CHECK(run(NULL, 10000000000ull));
	CHECK(sides[0].nscq == 3);
	CHECK(sides[0].scq[0].wr_id == 10 && sides[0].scq[0].status == ROCE_RC_WC_RETRY_EXC_ERR);
	CHECK(sides[0].scq[1].status == ROCE_RC_WC_WR_FLUSH_ERR);
	CHECK(sides[0].scq[2].status == ROCE_RC_WC_WR_FLUSH_ERR);
	CHECK(roce_rc_get_stats(sides[0].qp)->timeouts == 4);
	/* 15 packets first, then three go-back-N rounds of 15 */
	CHECK(roce_rc_get_stats(sides[0].qp)->retransmits == 45);
	CHECK(roce_rc_in_error(sides[0].qp));
}

/* One WR that the responder refuses, one behind it. */
static void expect_remote_error(const struct roce_rc_wr *bad, enum roce_rc_status want)
{
	struct roce_rc_wr next = { .wr_id = 99, .op = ROCE_RC_OP_SEND, .len = 0 };

	CHECK(roce_rc_post(sides[0].qp, bad));
	CHECK(roce_rc_post(sides[0].qp, &next));
	CHECK(run(NULL, 10000000000ull));
	CHECK(sides[0].nscq == 2);
	CHECK(sides[0].scq[0].wr_id == bad->wr_id && sides[0].scq[0].status == want);
	CHECK(sides[0].scq[1].wr_id == 99 && sides[0].scq[1].status == ROCE_RC_WC_WR_FLUSH_ERR);
	CHECK(roce_rc_in_error(sides[0].qp) && roce_rc_in_error(sides[1].qp));
	CHECK(roce_rc_get_stats(sides[1].qp)->nak_err_sent == 1);
}

static void test_remote_errors(void)
{
	struct roce_rc_wr w = { .wr_id = 1, .op = ROCE_RC_OP_WRITE, .len = 3000, .rkey = 0x999,
		.remote_va = MEM_VA };

	pair_setup(1024, 5, 6, 6, 6, 4); /* bad rkey */
	w.local = sides[0].local;
	expect_remote_error(&w, ROCE_RC_WC_REM_ACCESS_ERR);

	pair_setup(1024, 5, 6, 6, 6, 5); /* READ past the end */
	w.op = ROCE_RC_OP_READ;
	w.rkey = 0x101;
	w.remote_va = MEM_VA + MEM_SZ - 100;
	w.local = sides[0].local;
	expect_remote_error(&w, ROCE_RC_WC_REM_ACCESS_ERR);

	pair_setup(1024, 5, 6, 6, 6, 6); /* atomic without the atomic right */
	sides[1].access = ROCE_RC_ACC_READ | ROCE_RC_ACC_WRITE;
	w.op = ROCE_RC_OP_FETCH_ADD;
	w.remote_va = MEM_VA;
	w.local = sides[0].local;
	expect_remote_error(&w, ROCE_RC_WC_REM_ACCESS_ERR);
	CHECK(sides[1].atomic_calls == 0);

	pair_setup(1024, 5, 6, 6, 6, 7); /* misaligned atomic: invalid request */
	w.remote_va = MEM_VA + 4;
	w.local = sides[0].local;
	expect_remote_error(&w, ROCE_RC_WC_REM_INV_REQ_ERR);

	pair_setup(512, 5, 6, 6, 6, 8); /* a SEND longer than the receive buffer */
	w.op = ROCE_RC_OP_SEND;
	w.len = 1500;
	w.local = sides[0].local;
	post_recv(&sides[1], 42, 0, 1000);
	expect_remote_error(&w, ROCE_RC_WC_REM_INV_REQ_ERR);
	CHECK(sides[1].nrcq == 1 && sides[1].rcq[0].wr_id == 42 &&
		sides[1].rcq[0].status == ROCE_RC_WC_LOC_LEN_ERR);
}

/*
 * The remote access NAK is lost: the requester's timer sends the WRITE again (with the good one
 * before it, whose ACK the NAK carried), and the responder, in error since, NAKs it again: the
 * requester ends with the access error, not retrying for ever (retry count 7).
 */
static void test_remote_error_nak_lost(void)
{
	struct roce_rc_wr good = { .wr_id = 1, .op = ROCE_RC_OP_WRITE, .len = 2000, .rkey = 0x101,
		.remote_va = MEM_VA };
	struct roce_rc_wr bad = { .wr_id = 2, .op = ROCE_RC_OP_WRITE, .len = 64, .rkey = 0x101,
		.remote_va = MEM_VA };
	struct roce_rc_wr next = { .wr_id = 99, .op = ROCE_RC_OP_SEND, .len = 0 };

	/* the WRITE alone; its NAK lost once, twice, three times */
	for (unsigned int lost = 1; lost <= 3; lost++) {
		pair_setup(1024, 5, 6, 7, 7, 20 + lost);
		sides[1].access = ROCE_RC_ACC_READ; /* read-only: the WRITEs are refused */
		good.local = bad.local = sides[0].local;
		CHECK(roce_rc_post(sides[0].qp, &bad));
		CHECK(roce_rc_post(sides[0].qp, &next));
		drop_next[1] = lost; /* the NAK, then the NAKs of the resends */
		CHECK(run(NULL, 10000000000ull));
		CHECK(sides[0].nscq == 2);
		CHECK(sides[0].scq[0].wr_id == 2 && sides[0].scq[0].status == ROCE_RC_WC_REM_ACCESS_ERR);
		CHECK(sides[0].scq[1].wr_id == 99 && sides[0].scq[1].status == ROCE_RC_WC_WR_FLUSH_ERR);
		CHECK(roce_rc_get_stats(sides[0].qp)->timeouts == lost);
		CHECK(roce_rc_get_stats(sides[1].qp)->nak_err_sent == lost + 1);
		CHECK(roce_rc_in_error(sides[0].qp) && roce_rc_in_error(sides[1].qp));
	}

	/* a good WRITE first: its ACK is the lost NAK's PSN; the resends start before the bad one */
	pair_setup(1024, 5, 6, 7, 7, 30);
	good.local = bad.local = sides[0].local;
	bad.rkey = 0x999; /* an R_Key the responder does not know */
	CHECK(roce_rc_post(sides[0].qp, &good));
	CHECK(roce_rc_post(sides[0].qp, &bad));
	CHECK(roce_rc_post(sides[0].qp, &next));
	drop_next[1] = 1;
	CHECK(run(NULL, 10000000000ull));
	CHECK(sides[0].nscq == 3);
	CHECK(sides[0].scq[0].wr_id == 1 && sides[0].scq[0].status == ROCE_RC_WC_SUCCESS);
	CHECK(sides[0].scq[1].wr_id == 2 && sides[0].scq[1].status == ROCE_RC_WC_REM_ACCESS_ERR);
	CHECK(sides[0].scq[2].wr_id == 99 && sides[0].scq[2].status == ROCE_RC_WC_WR_FLUSH_ERR);
	CHECK(roce_rc_get_stats(sides[0].qp)->timeouts == 1);
	CHECK(roce_rc_get_stats(sides[1].qp)->nak_err_sent == 2);
}

/* A request frame delivered again after it completed: answered, not executed again. */
static void test_replay(void)
{
	struct roce_rc_wr w = { .wr_id = 1, .op = ROCE_RC_OP_FETCH_ADD, .rkey = 0x101,
		.remote_va = MEM_VA, .swap_add = 5 };
	const struct roce_rc_stats *a, *b;
	uint64_t v, orig;

	pair_setup(1024, 100, 200, 6, 6, 9);
	a = roce_rc_get_stats(sides[0].qp);
	b = roce_rc_get_stats(sides[1].qp);
	cap_op = ROCE_RC_FETCH_ADD;
	memset(sides[1].mem, 0, 8); /* earlier tests left their counter there */
	w.local = &orig;
	CHECK(roce_rc_post(sides[0].qp, &w));
	CHECK(run(a_has_completion, 1000000000ull));
	CHECK(orig == 0 && sides[1].atomic_calls == 1);
	CHECK(cap_len > 0);
	for (int i = 0; i < 3; i++)
		roce_rc_rx(sides[1].qp, now, cap_buf, cap_len);
	CHECK(run(NULL, 1000000000ull));
	memcpy(&v, sides[1].mem, 8);
	CHECK(v == 5 && sides[1].atomic_calls == 1);
	CHECK(b->atomic_replays == 3 && b->dup_requests == 3);
	CHECK(a->dup_responses == 3 && sides[0].nscq == 1);

	/* READ of 5 packets asked again: five responses replayed, ignored by the requester */
	cap_op = ROCE_RC_READ_REQUEST;
	fill(sides[1].mem + 64, 5000);
	w = (struct roce_rc_wr){ .wr_id = 2, .op = ROCE_RC_OP_READ, .len = 5000, .rkey = 0x101,
		.remote_va = MEM_VA + 64, .local = sides[0].local };
	CHECK(roce_rc_post(sides[0].qp, &w));
	CHECK(run(NULL, 1000000000ull));
	CHECK(sides[0].nscq == 2 && sides[0].scq[1].status == ROCE_RC_WC_SUCCESS);
	roce_rc_rx(sides[1].qp, now, cap_buf, cap_len);
	CHECK(run(NULL, 1000000000ull));
	CHECK(b->read_replays == 1 && a->dup_responses == 3 + 5 && sides[0].nscq == 2);
	CHECK(memcmp(sides[0].local, sides[1].mem + 64, 5000) == 0);
	CHECK(!roce_rc_in_error(sides[0].qp) && !roce_rc_in_error(sides[1].qp));
}

/* A fenced WR waits for the READ before it; without the fence it goes out at once. */
static void test_fence(void)
{
	for (int fence = 0; fence < 2; fence++) {
		struct roce_rc_wr rd = { .wr_id = 1, .op = ROCE_RC_OP_READ, .len = 100, .rkey = 0x101,
			.remote_va = MEM_VA };
		struct roce_rc_wr wr = { .wr_id = 2, .op = ROCE_RC_OP_WRITE, .len = 100, .rkey = 0x101,
			.remote_va = MEM_VA + 4096, .fence = fence };

		pair_setup(1024, 0, 0, 6, 6, 11);
		rd.local = sides[0].local;
		wr.local = sides[0].local + 4096;
		CHECK(roce_rc_post(sides[0].qp, &rd) && roce_rc_post(sides[0].qp, &wr));
		roce_rc_poll(sides[0].qp, now);
		CHECK(roce_rc_get_stats(sides[0].qp)->tx_pkts == (fence ? 1u : 2u));
		CHECK(run(NULL, 1000000000ull));
		CHECK(sides[0].nscq == 2 && sides[0].scq[0].wr_id == 1 && sides[0].scq[1].wr_id == 2);
		CHECK(sides[0].scq[1].status == ROCE_RC_WC_SUCCESS);
	}
}

/* ---- frames in the style of Linux rxe into one responder ---- */

static uint8_t out[16][4200];
static size_t out_len[16];
static unsigned int nout;

static void lone_emit(void *ctx, const uint8_t *buf, size_t len)
{
	if (nout < 16) {
		memcpy(out[nout], buf, len);
		out_len[nout] = len;
	}
	nout++;
}

static const struct roce_rc_ops lone_ops = {
	.emit = lone_emit, .rkey_check = rkey_check_cb, .mem_write = mem_write_cb,
	.mem_read = mem_read_cb, .atomic = atomic_cb, .recv_take = recv_take_cb,
	.complete = complete_cb,
};

static void feed(struct roce_rc_qp *qp, uint8_t opcode, uint32_t psn, bool ack_req, size_t plen)
{
	struct roce_pkt pkt = { 0 };
	uint8_t buf[4200], payload[4096] = { 0 };
	size_t n;

	pkt.bth.opcode = opcode;
	pkt.bth.pkey = 0xffff;
	pkt.bth.dqpn = 0x11;
	pkt.bth.psn = psn;
	pkt.bth.ack_req = ack_req;
	pkt.reth.va = MEM_VA;
	pkt.reth.rkey = 0x100;
	pkt.reth.len = (uint32_t)plen;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, payload, plen);
	CHECK(n > 0);
	roce_rc_rx(qp, now, buf, n);
}

static void feed_read(struct roce_rc_qp *qp, uint32_t psn, uint64_t va, uint32_t len)
{
	struct roce_pkt pkt = { 0 };
	uint8_t buf[64];
	size_t n;

	pkt.bth = (struct roce_bth){ .opcode = ROCE_RC_READ_REQUEST, .pkey = 0xffff, .dqpn = 0x11,
		.psn = psn, .ack_req = true };
	pkt.reth = (struct roce_reth){ .va = va, .rkey = 0x100, .len = len };
	n = roce_pkt_build(buf, sizeof(buf), &pkt, NULL, 0);
	roce_rc_rx(qp, now, buf, n);
}

/* The n-th frame the responder sent is an ACK-type frame with this syndrome and PSN. */
static bool sent_aeth(unsigned int i, uint8_t opcode, uint8_t syndrome, uint32_t psn)
{
	struct roce_pkt pkt;

	if (i >= nout || roce_pkt_parse(out[i], out_len[i], &pkt) != ROCE_PARSE_OK)
		return false;
	return pkt.bth.opcode == opcode && pkt.aeth.syndrome == syndrome && pkt.bth.psn == psn &&
		pkt.bth.dqpn == 0x22;
}

static struct roce_rc_qp *lone_qp(uint32_t epsn)
{
	struct roce_rc_cfg cfg = {
		.qpn = 0x11, .dest_qpn = 0x22, .sq_psn = 0, .rq_psn = epsn, .mtu = 1024,
		.timeout = 17, .retry_cnt = 7, .rnr_retry = 7, .min_rnr_timer = 0,
		.max_rd_atomic = 1, .max_dest_rd_atomic = 4, .sq_depth = 4, .ops = &lone_ops,
		.ctx = &sides[0],
	};

	nout = 0;
	sides[0].rq_head = sides[0].rq_tail = 0;
	sides[0].nrcq = sides[0].nscq = 0;
	return roce_rc_create(&cfg);
}

static void test_rxe_frames(void)
{
	struct roce_rc_qp *qp;

	pair_setup(1024, 0, 0, 6, 6, 10); /* only for the memory of side 0 */
	qp = lone_qp(0xfffffe);
	CHECK(qp != NULL);
	post_recv(&sides[0], 1, 0, 4096);
	post_recv(&sides[0], 2, 0, 4096);
	post_recv(&sides[0], 3, 0, 4096);
	/* SEND_ONLY with AckReq: ACK, syndrome 0x1f (no credits), PSN of the packet */
	feed(qp, ROCE_RC_SEND_ONLY, 0xfffffe, true, 10);
	CHECK(nout == 0); /* ACKs go out at poll, one per batch */
	roce_rc_poll(qp, now);
	CHECK(nout == 1 && sent_aeth(0, ROCE_RC_ACK, 0x1f, 0xfffffe));
	/* a gap: NAK PSN sequence error with the expected PSN, once */
	feed(qp, ROCE_RC_SEND_ONLY, 0, true, 10);
	feed(qp, ROCE_RC_SEND_ONLY, 1, true, 10);
	roce_rc_poll(qp, now);
	CHECK(nout == 2 && sent_aeth(1, ROCE_RC_ACK, 0x60, 0xffffff));
	/* a duplicate: re-ACK of the last PSN executed */
	feed(qp, ROCE_RC_SEND_ONLY, 0xfffffe, true, 10);
	roce_rc_poll(qp, now);
	CHECK(nout == 3 && sent_aeth(2, ROCE_RC_ACK, 0x1f, 0xfffffe));
	CHECK(sides[0].nrcq == 1);
	/* without AckReq: the ACK waits for the delay (or 16 packets) */
	feed(qp, ROCE_RC_SEND_ONLY, 0xffffff, false, 10);
	feed(qp, ROCE_RC_SEND_ONLY, 0, false, 0);
	CHECK(roce_rc_poll(qp, now) == now + 100000 && nout == 3);
	now += 100000;
	roce_rc_poll(qp, now);
	CHECK(nout == 4 && sent_aeth(3, ROCE_RC_ACK, 0x1f, 0));
	CHECK(sides[0].nrcq == 3); /* the three receives are used up... */
	/* ...and no receive is left: RNR NAK with the QP's timer code (0, as Linux CM sets) */
	feed(qp, ROCE_RC_SEND_ONLY, 1, true, 10);
	CHECK(nout == 5 && sent_aeth(4, ROCE_RC_ACK, 0x20, 1));
	CHECK(sides[0].nrcq == 3);
	/* WRITE_FIRST whose payload is not the path MTU: NAK invalid request, QP to error */
	feed(qp, ROCE_RC_WRITE_FIRST, 1, false, 1000);
	CHECK(nout == 6 && sent_aeth(5, ROCE_RC_ACK, 0x61, 1));
	CHECK(roce_rc_in_error(qp));
	roce_rc_destroy(qp);

	/* MIDDLE without FIRST: invalid request (after a frame with a foreign P_Key, dropped) */
	qp = lone_qp(50);
	{
		struct roce_pkt pkt = { 0 };
		uint8_t buf[64];
		size_t n;

		pkt.bth = (struct roce_bth){ .opcode = ROCE_RC_SEND_ONLY, .pkey = 0x7ffe, .dqpn = 0x11,
			.psn = 50, .ack_req = true };
		n = roce_pkt_build(buf, sizeof(buf), &pkt, NULL, 0);
		roce_rc_rx(qp, now, buf, n);
		roce_rc_poll(qp, now);
		CHECK(nout == 0 && roce_rc_get_stats(qp)->rx_dropped == 1);
	}
	roce_rc_destroy(qp);

	qp = lone_qp(50);
	feed(qp, ROCE_RC_WRITE_MIDDLE, 50, false, 1024);
	CHECK(nout == 1 && sent_aeth(0, ROCE_RC_ACK, 0x61, 50));
	roce_rc_destroy(qp);

	/* READ request: responses FIRST/MIDDLE/LAST with AETH on FIRST and LAST, MSN 1 */
	qp = lone_qp(7);
	feed(qp, ROCE_RC_READ_REQUEST, 7, true, 0);
	CHECK(nout == 1 && sent_aeth(0, ROCE_RC_READ_RESP_ONLY, 0x1f, 7));
	{
		struct roce_pkt pkt = { 0 };
		uint8_t buf[256];
		size_t n;

		pkt.bth.opcode = ROCE_RC_READ_REQUEST;
		pkt.bth.pkey = 0xffff;
		pkt.bth.dqpn = 0x11;
		pkt.bth.psn = 8;
		pkt.bth.ack_req = true;
		pkt.reth = (struct roce_reth){ .va = MEM_VA, .rkey = 0x100, .len = 2500 };
		n = roce_pkt_build(buf, sizeof(buf), &pkt, NULL, 0);
		roce_rc_rx(qp, now, buf, n);
		CHECK(nout == 4);
		CHECK(sent_aeth(1, ROCE_RC_READ_RESP_FIRST, 0x1f, 8));
		CHECK(out[2][0] == ROCE_RC_READ_RESP_MIDDLE && roce_get24(out[2] + 9) == 9);
		CHECK(sent_aeth(3, ROCE_RC_READ_RESP_LAST, 0x1f, 10));
		CHECK(roce_pkt_parse(out[3], out_len[3], &pkt) == ROCE_PARSE_OK &&
			pkt.aeth.msn == 2 && pkt.payload_len == 2500 - 2048);
	}
	/* its tail asked again (rxe's requester does so after losing a response): replayed from
	 * that PSN; a "tail" larger than the original, or one PSN too far, is not answered */
	feed_read(qp, 9, MEM_VA + 1024, 2500 - 1024);
	CHECK(nout == 6 && sent_aeth(4, ROCE_RC_READ_RESP_FIRST, 0x1f, 9) &&
		sent_aeth(5, ROCE_RC_READ_RESP_LAST, 0x1f, 10));
	feed_read(qp, 9, MEM_VA + 1024, 2500);
	feed_read(qp, 10, MEM_VA + 1024, 2500 - 1024);
	CHECK(nout == 6 && roce_rc_get_stats(qp)->read_replays == 1);
	nout = 4;
	/* the next request is expected at 11: the READ used three PSNs */
	feed(qp, ROCE_RC_WRITE_ONLY, 11, true, 0);
	roce_rc_poll(qp, now);
	CHECK(nout == 5 && sent_aeth(4, ROCE_RC_ACK, 0x1f, 11));
	roce_rc_destroy(qp);
}


/* ---- a long READ answered a burst a turn ---- */

#define TURN_MAX 8192
#define TURN_BURST 64 /* the responders' read_burst: 16 turns for the 1024 responses */

/* What the responders sent, in order: each frame's QP (dest QPN), opcode, PSN, syndrome. */
static struct turn_rec {
	uint32_t dqpn, psn;
	uint8_t op, syndrome;
} turn_recs[TURN_MAX];
static unsigned int nturn;
static uint8_t *turn_data; /* the READ responses to QP 0x22 put together by PSN (MTU 1024) */

static void turn_emit(void *ctx, const uint8_t *buf, size_t len)
{
	struct roce_pkt pkt;

	(void)ctx;
	CHECK(roce_pkt_parse(buf, len, &pkt) == ROCE_PARSE_OK);
	if (nturn < TURN_MAX)
		turn_recs[nturn] = (struct turn_rec){ pkt.bth.dqpn, pkt.bth.psn, pkt.bth.opcode,
			pkt.aeth.syndrome };
	nturn++;
	if (pkt.bth.dqpn == 0x22 && pkt.bth.opcode >= ROCE_RC_READ_RESP_FIRST &&
	    pkt.bth.opcode <= ROCE_RC_READ_RESP_ONLY && pkt.bth.psn < 1024)
		memcpy(turn_data + (size_t)pkt.bth.psn * 1024, pkt.payload, pkt.payload_len);
}

static const struct roce_rc_ops turn_ops = {
	.emit = turn_emit, .rkey_check = rkey_check_cb, .mem_write = mem_write_cb,
	.mem_read = mem_read_cb, .atomic = atomic_cb, .recv_take = recv_take_cb,
	.complete = complete_cb,
};

static struct roce_rc_qp *turn_qp(uint32_t qpn, uint32_t dest_qpn)
{
	struct roce_rc_cfg cfg = {
		.qpn = qpn, .dest_qpn = dest_qpn, .rq_psn = 0, .mtu = 1024, .timeout = 17,
		.retry_cnt = 7, .rnr_retry = 7, .max_rd_atomic = 1, .max_dest_rd_atomic = 4,
		.sq_depth = 4, .read_burst = TURN_BURST, .ops = &turn_ops, .ctx = &sides[0],
	};

	return roce_rc_create(&cfg);
}

static void turn_feed(struct roce_rc_qp *qp, uint32_t qpn, uint8_t opcode, uint32_t psn, uint64_t va,
	uint32_t len, const void *payload)
{
	struct roce_pkt pkt = { 0 };
	uint8_t buf[4200];
	size_t n;

	pkt.bth = (struct roce_bth){ .opcode = opcode, .pkey = 0xffff, .dqpn = qpn, .psn = psn,
		.ack_req = true };
	pkt.reth = (struct roce_reth){ .va = va, .rkey = 0x100, .len = len };
	n = roce_pkt_build(buf, sizeof(buf), &pkt, payload, opcode == ROCE_RC_READ_REQUEST ? 0 : len);
	CHECK(n > 0);
	roce_rc_rx(qp, now, buf, n);
}

/* The first frame from i on sent to dqpn with this opcode (and PSN, unless ~0u), or nturn. */
static unsigned int turn_find(unsigned int i, uint32_t dqpn, uint8_t op, uint32_t psn)
{
	for (; i < nturn && i < TURN_MAX; i++)
		if (turn_recs[i].dqpn == dqpn && turn_recs[i].op == op && (psn == ~0u || turn_recs[i].psn == psn))
			return i;
	return nturn;
}

/*
 * One thread serves every QP of a process (the path's service thread): a READ of 1 MiB on one
 * QP must not keep it from the others until its 1024 responses are out. The responder sends
 * read_burst (TURN_BURST) of them a turn (roce_rc_rx, then each roce_rc_poll, which asks to be polled
 * again at once), so a READ on a second QP right behind it, its QPs polled in turn as the
 * service thread does, is answered before the long READ's last response. The requests behind
 * the READ on its QP wait for it (PSN order: the WRITE must not change what the READ returns);
 * a duplicate of its tail does not start it again, one of what went out already resends from
 * there; the data arrive whole.
 */
static void test_read_turns(void)
{
	const uint32_t len = 1u << 20;
	uint8_t wdata[1024], *orig;
	struct roce_rc_qp *a, *b;
	unsigned int turns = 0, at_b, at_last, per_turn_max = 0;
	uint64_t due;

	pair_setup(1024, 0, 0, 6, 6, 14); /* only for side 0's memory */
	orig = malloc(len);
	turn_data = calloc(1, len);
	CHECK(orig != NULL && turn_data != NULL);
	if (orig == NULL || turn_data == NULL)
		return;
	fill(sides[0].mem, len);
	memcpy(orig, sides[0].mem, len);
	fill(wdata, sizeof(wdata));
	nturn = 0;
	a = turn_qp(0x11, 0x22);
	b = turn_qp(0x12, 0x33);
	CHECK(a != NULL && b != NULL);

	turn_feed(a, 0x11, ROCE_RC_READ_REQUEST, 0, MEM_VA, len, NULL);
	CHECK(nturn == TURN_BURST); /* one burst, not all 1024 */
	/* behind it on its QP: a WRITE over the READ's last KiB, and one PSN too far (a gap) */
	turn_feed(a, 0x11, ROCE_RC_WRITE_ONLY, 1024, MEM_VA + len - 1024, 1024, wdata);
	turn_feed(a, 0x11, ROCE_RC_WRITE_ONLY, 1026, MEM_VA, 0, NULL);
	CHECK(memcmp(sides[0].mem + len - 1024, orig + len - 1024, 1024) == 0); /* it waits */
	/* its tail asked again before it went: no new start */
	turn_feed(a, 0x11, ROCE_RC_READ_REQUEST, 512, MEM_VA + 512 * 1024, len - 512 * 1024, NULL);
	CHECK(roce_rc_get_stats(a)->read_replays == 0 && nturn == TURN_BURST);
	/* the other QP's READ, one packet */
	turn_feed(b, 0x12, ROCE_RC_READ_REQUEST, 0, MEM_VA, 100, NULL);
	at_b = turn_find(0, 0x33, ROCE_RC_READ_RESP_ONLY, 0);
	CHECK(at_b < nturn);

	for (;;) {
		unsigned int before = nturn;

		due = roce_rc_poll(a, now);
		per_turn_max = nturn - before > per_turn_max ? nturn - before : per_turn_max;
		roce_rc_poll(b, now);
		if (++turns == 3) /* what went out already asked again (lost): sent again from there */
			turn_feed(a, 0x11, ROCE_RC_READ_REQUEST, 10, MEM_VA + 10 * 1024, len - 10 * 1024, NULL);
		if (due != now || turns > 100)
			break;
		now += 1000;
	}
	CHECK(turns > 1024 / TURN_BURST && turns <= 100);
	CHECK(per_turn_max <= TURN_BURST);
	CHECK(roce_rc_get_stats(a)->read_replays == 1);
	/* the other QP's answer left before the long READ's last response */
	at_last = turn_find(0, 0x22, ROCE_RC_READ_RESP_LAST, 1023);
	CHECK(at_last < nturn && at_b < at_last);
	/* every byte as it was before the WRITE behind the READ ran */
	CHECK(memcmp(turn_data, orig, len) == 0);
	/* then the WRITE ran, its ACK after the last response, and the NAK for the gap (1025) */
	CHECK(memcmp(sides[0].mem + len - 1024, wdata, 1024) == 0);
	{
		unsigned int ack = turn_find(at_last, 0x22, ROCE_RC_ACK, 1024);
		unsigned int nak = turn_find(at_last, 0x22, ROCE_RC_ACK, 1025);

		CHECK(ack < nturn && turn_recs[ack].syndrome == 0x1f);
		CHECK(nak < nturn && turn_recs[nak].syndrome == 0x60 && ack < nak);
	}
	CHECK(roce_rc_poll(a, now) == ROCE_RC_NO_DEADLINE && !roce_rc_in_error(a));
	fprintf(stderr, " READ of 1 MiB: %u turns, %u packets a turn at most; the other QP answered after %u "
		"frames, the READ's last after %u\n", turns, per_turn_max, at_b, at_last);
	roce_rc_destroy(a);
	roce_rc_destroy(b);
	free(orig);
	free(turn_data);
}

/*
 * A requester that pipelines within its own window: two READs of 256 packets each, then two
 * WRITEs of 256 packets, all posted at once. The first READ's responses take the responder's
 * turn; the second READ's wait for the next one, and the WRITEs behind it are held meanwhile:
 * as many packets as the requester's window has left (up to window - 1). Returns B's stats.
 */
static const struct roce_rc_stats *read_pipeline(uint32_t mtu, uint32_t window, uint64_t seed)
{
	const uint32_t len = 256 * mtu;
	struct roce_rc_wr wr = { 0 };

	setup_window = window;
	pair_setup(mtu, 0x40, 0x50, 7, 7, seed);
	setup_window = 0;
	fill(sides[0].local, MEM_SZ);
	fill(sides[1].mem, MEM_SZ);
	for (uint32_t i = 0; i < 4; i++) {
		wr.wr_id = i;
		wr.op = i < 2 ? ROCE_RC_OP_READ : ROCE_RC_OP_WRITE;
		wr.local = sides[0].local + (size_t)i * len;
		wr.len = len;
		wr.remote_va = MEM_VA + (uint64_t)i * len;
		wr.rkey = 0x101;
		CHECK(roce_rc_post(sides[0].qp, &wr));
	}
	CHECK(run(a_has_4, 10000000000ull));
	CHECK(memcmp(sides[0].local, sides[1].mem, 4 * (size_t)len) == 0);
	for (unsigned int i = 0; i < 4 && i < sides[0].nscq; i++)
		CHECK(sides[0].scq[i].wr_id == i && sides[0].scq[i].status == ROCE_RC_WC_SUCCESS);
	return roce_rc_get_stats(sides[1].qp);
}

/*
 * softdoca's requester window is up to 1024 PSNs (roce_path.c, ROCE_WINDOW_MAX; 1024 at MTU 1024
 * with a 4 MiB receive buffer): with READs pipelined ahead of WRITEs, up to 1023 packets may
 * wait behind READ responses. Holding them costs no retransmission and no NAK.
 */
static void test_read_pipeline(void)
{
	static const uint32_t windows[] = { 128, 256, 455, 1024 };

	for (unsigned int m = 2; m < 5; m += 2)
		for (unsigned int w = 0; w < 4; w++) {
			const struct roce_rc_stats *b = read_pipeline(mtus[m], windows[w], 0x9e11u + w);
			const struct roce_rc_stats *a = roce_rc_get_stats(sides[0].qp);

			fprintf(stderr, " mtu %u window %u: B held %llu bytes at most, dropped %llu, NAK-seq %llu; "
				"A retransmitted %llu, %llu timeouts, %.2f ms simulated\n", mtus[m], windows[w],
				(unsigned long long)b->hold_peak, (unsigned long long)b->rx_dropped,
				(unsigned long long)b->nak_seq_sent, (unsigned long long)a->retransmits,
				(unsigned long long)a->timeouts, (double)(now - 1000000) / 1e6);
			CHECK(b->rx_dropped == 0 && b->nak_seq_sent == 0 && b->hold_dropped == 0);
			CHECK(a->retransmits == 0 && a->timeouts == 0);
			/* the widest window has the WRITEs wait: 512 packets, more than the 256 of old */
			CHECK(windows[w] != 1024 || b->hold_peak > 512 * (size_t)mtus[m]);
		}
}

/*
 * A peer that floods a QP behind a long READ: 200 000 zero-length WRITEs in PSN order (48 bytes
 * each held, the cheapest to send). The responder holds ROCE_RC_HOLD_BYTES of them at most,
 * drops the rest, runs the held ones once the READ's responses are out, a turn's worth at a
 * time, and NAKs the first it dropped, once. With a pool (a port's) of 1 MiB shared by two QPs, the first takes it all
 * beyond its own ROCE_RC_HOLD_OWN, the second holds only its own, and the pool is whole again
 * once their held requests ran.
 */
static struct roce_rc_qp *flood_qp(uint32_t qpn, struct roce_rc_hold_pool *pool)
{
	struct roce_rc_cfg cfg = {
		.qpn = qpn, .dest_qpn = 0x44, .mtu = 1024, .timeout = 17, .retry_cnt = 7, .rnr_retry = 7,
		.max_rd_atomic = 1, .max_dest_rd_atomic = 4, .sq_depth = 4, .read_burst = TURN_BURST,
		.hold_pool = pool, .ops = &turn_ops, .ctx = &sides[0],
	};

	return roce_rc_create(&cfg);
}

/* A READ of 1 MiB at PSN 0, then n zero-length WRITEs behind it; then its turns, to the end. */
static const struct roce_rc_stats *flood(struct roce_rc_qp *qp, uint32_t qpn, uint32_t n)
{
	turn_feed(qp, qpn, ROCE_RC_READ_REQUEST, 0, MEM_VA, 1u << 20, NULL);
	for (uint32_t i = 0; i < n; i++)
		turn_feed(qp, qpn, ROCE_RC_WRITE_ONLY, 1024 + i, MEM_VA, 0, NULL);
	return roce_rc_get_stats(qp);
}

/* Polls qp until nothing waits for a turn; returns how many turns that took. */
static unsigned int drain(struct roce_rc_qp *qp)
{
	unsigned int turns = 1;

	for (; turns < 100000 && roce_rc_poll(qp, now) == now; turns++)
		now += 1000;
	return turns;
}

static void test_hold_flood(void)
{
	const uint32_t n = 200000;
	struct roce_rc_hold_pool pool = { .max = 1u << 20 };
	const struct roce_rc_stats *st;
	struct roce_rc_qp *a, *b, *c;
	uint64_t held, peak_a;
	unsigned int turns;

	pair_setup(1024, 0, 0, 6, 6, 15); /* only for side 0's memory */
	nturn = 0;
	a = flood_qp(0x11, NULL);
	CHECK(a != NULL);
	if (a == NULL)
		return;
	st = flood(a, 0x11, n);
	held = n - st->rx_dropped;
	fprintf(stderr, " %u WRITEs behind a READ: %llu held (%llu bytes at most), %llu dropped\n", n,
		(unsigned long long)held, (unsigned long long)st->hold_peak,
		(unsigned long long)st->rx_dropped);
	CHECK(st->hold_peak <= ROCE_RC_HOLD_BYTES && st->hold_peak > ROCE_RC_HOLD_BYTES - 64);
	CHECK(st->hold_dropped == 1 && st->rx_dropped > n / 2 && st->nak_seq_sent == 0);
	turns = drain(a);
	/* the held ones ran, read_burst of them a turn at most, one ACK for them, then the NAK for
	 * the first dropped, once */
	fprintf(stderr, " they ran in %u turns\n", turns);
	CHECK(turns >= held / TURN_BURST);
	CHECK(st->nak_seq_sent == 1 && !roce_rc_in_error(a));
	CHECK(turn_find(0, 0x44, ROCE_RC_ACK, 1024 + (uint32_t)held) < nturn || nturn > TURN_MAX);
	CHECK(roce_rc_poll(a, now) == ROCE_RC_NO_DEADLINE);
	roce_rc_destroy(a);

	/* two QPs of a port, its pool 1 MiB */
	a = flood_qp(0x11, &pool);
	b = flood_qp(0x12, &pool);
	CHECK(a != NULL && b != NULL);
	if (a == NULL || b == NULL)
		return;
	peak_a = flood(a, 0x11, n)->hold_peak;
	CHECK(peak_a <= ROCE_RC_HOLD_OWN + pool.max && peak_a > ROCE_RC_HOLD_OWN + pool.max - 64);
	CHECK(pool.used <= pool.max && pool.used > pool.max - 64);
	st = flood(b, 0x12, n);
	CHECK(st->hold_peak <= ROCE_RC_HOLD_OWN && st->hold_peak > ROCE_RC_HOLD_OWN - 64);
	fprintf(stderr, " two QPs, a pool of %zu bytes: the first held %llu bytes, the second %llu\n",
		pool.max, (unsigned long long)peak_a, (unsigned long long)st->hold_peak);
	drain(a);
	drain(b);
	CHECK(pool.used == 0);
	CHECK(!roce_rc_in_error(a) && !roce_rc_in_error(b));
	roce_rc_destroy(a);
	roce_rc_destroy(b);
	/* a QP destroyed with requests held gives their bytes back too */
	c = flood_qp(0x13, &pool);
	CHECK(c != NULL);
	if (c == NULL)
		return;
	flood(c, 0x13, 30000);
	CHECK(pool.used > 0);
	roce_rc_destroy(c);
	CHECK(pool.used == 0);
}

/*
 * Go-back-N after a READ X and a WRITE W behind it: X asked again from PSN 10 (a replay longer
 * than a turn), then W again. W's duplicate owes its ACK; the replay's responses (PSNs below W)
 * do not acknowledge it, so the ACK goes once the replay is out, instead of the requester
 * waiting for its ACK timeout.
 */
static void test_read_replay_keeps_ack(void)
{
	const uint32_t len = 200 * 1024; /* 200 responses at MTU 1024 */
	uint8_t wdata[64];
	struct roce_rc_qp *a;
	unsigned int mark;

	pair_setup(1024, 0, 0, 6, 6, 14);
	fill(sides[0].mem, len + sizeof(wdata));
	fill(wdata, sizeof(wdata));
	turn_data = calloc(1, 1u << 20);
	CHECK(turn_data != NULL);
	if (turn_data == NULL)
		return;
	nturn = 0;
	a = turn_qp(0x11, 0x22);
	CHECK(a != NULL);
	turn_feed(a, 0x11, ROCE_RC_READ_REQUEST, 0, MEM_VA, len, NULL);
	turn_feed(a, 0x11, ROCE_RC_WRITE_ONLY, 200, MEM_VA + len, sizeof(wdata), wdata);
	for (int i = 0; i < 10 && roce_rc_poll(a, now) == now; i++)
		now += 1000;
	now += 1000000; /* past the ACK delay */
	roce_rc_poll(a, now);
	CHECK(turn_find(0, 0x22, ROCE_RC_ACK, 200) < nturn); /* W acknowledged */
	/* the requester goes back: X from PSN 10, then W */
	turn_feed(a, 0x11, ROCE_RC_READ_REQUEST, 10, MEM_VA + 10 * 1024, len - 10 * 1024, NULL);
	mark = nturn;
	turn_feed(a, 0x11, ROCE_RC_WRITE_ONLY, 200, MEM_VA + len, sizeof(wdata), wdata);
	for (int i = 0; i < 10 && roce_rc_poll(a, now) == now; i++)
		now += 1000;
	CHECK(roce_rc_get_stats(a)->read_replays == 1);
	CHECK(turn_find(mark, 0x22, ROCE_RC_READ_RESP_LAST, 199) < nturn); /* the replay went out whole */
	CHECK(turn_find(turn_find(mark, 0x22, ROCE_RC_READ_RESP_LAST, 199), 0x22, ROCE_RC_ACK, 200) < nturn);
	roce_rc_destroy(a);
	free(turn_data);
}


/*
 * A gap right after requests whose ACK is still owed: the ACK of the last one in order goes
 * first, then the sequence NAK (rxe in a retry acts on a NAK only after an ACK that completes
 * something). With nothing owed, the NAK alone, once.
 */
static void test_ack_before_nak(void)
{
	struct roce_rc_qp *qp;

	pair_setup(1024, 0, 0, 6, 6, 10);
	qp = lone_qp(100);
	for (int i = 1; i <= 4; i++)
		post_recv(&sides[0], (uint64_t)i, 0, 4096);
	feed(qp, ROCE_RC_SEND_ONLY, 100, false, 10); /* in order, its ACK owed (delayed) */
	feed(qp, ROCE_RC_SEND_ONLY, 101, true, 10);  /* in order, AckReq: owed until the poll */
	CHECK(nout == 0);
	feed(qp, ROCE_RC_SEND_ONLY, 103, true, 10); /* 102 lost */
	CHECK(nout == 2 && sent_aeth(0, ROCE_RC_ACK, 0x1f, 101) && sent_aeth(1, ROCE_RC_ACK, 0x60, 102));
	feed(qp, ROCE_RC_SEND_ONLY, 104, true, 10); /* more of the gap: dropped, said once */
	roce_rc_poll(qp, now);
	CHECK(nout == 2 && sides[0].nrcq == 2);
	CHECK(roce_rc_get_stats(qp)->acks_sent == 1 && roce_rc_get_stats(qp)->nak_seq_sent == 1);
	/* the resend: executed and acknowledged; then a gap with nothing owed: the NAK alone */
	feed(qp, ROCE_RC_SEND_ONLY, 102, true, 10);
	roce_rc_poll(qp, now);
	CHECK(nout == 3 && sent_aeth(2, ROCE_RC_ACK, 0x1f, 102));
	feed(qp, ROCE_RC_SEND_ONLY, 104, true, 10);
	CHECK(nout == 4 && sent_aeth(3, ROCE_RC_ACK, 0x60, 103));
	CHECK(sides[0].nrcq == 3);
	roce_rc_destroy(qp);
}

static void feed_resp(struct roce_rc_qp *qp, uint8_t opcode, uint32_t psn, uint8_t syndrome,
	const void *payload, size_t plen, uint64_t orig)
{
	struct roce_pkt pkt = { 0 };
	uint8_t buf[4200];
	size_t n;

	pkt.bth = (struct roce_bth){ .opcode = opcode, .pkey = 0xffff, .dqpn = 0x11, .psn = psn };
	pkt.aeth = (struct roce_aeth){ .syndrome = syndrome, .msn = 1 };
	pkt.atomic_orig = orig;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, payload, plen);
	CHECK(n > 0);
	roce_rc_rx(qp, now, buf, n);
}

/* The requester side answered as rxe (or a hardware NIC, with credits in its ACKs) answers. */
static void test_rxe_answers(void)
{
	struct roce_rc_qp *qp;
	struct roce_rc_wr w;
	uint8_t data[2000];
	uint64_t orig = 0;
	struct roce_pkt pkt;

	pair_setup(1024, 0, 0, 6, 6, 12); /* only for side 0's buffers */
	qp = lone_qp(0);
	fill(sides[0].local, 3000);
	fill(data, sizeof(data));
	w = (struct roce_rc_wr){ .wr_id = 1, .op = ROCE_RC_OP_SEND, .len = 3000,
		.local = sides[0].local };
	CHECK(roce_rc_post(qp, &w));
	w = (struct roce_rc_wr){ .wr_id = 2, .op = ROCE_RC_OP_READ, .len = 2000, .rkey = 0x77,
		.remote_va = 0x5000, .local = sides[0].local + 4096 };
	CHECK(roce_rc_post(qp, &w));
	w = (struct roce_rc_wr){ .wr_id = 3, .op = ROCE_RC_OP_FETCH_ADD, .rkey = 0x77,
		.remote_va = 0x6000, .swap_add = 1, .local = &orig };
	CHECK(roce_rc_post(qp, &w));
	roce_rc_poll(qp, now);
	/* SEND FIRST, MIDDLE, LAST (AckReq only there), READ request; the atomic waits
	 * (max_rd_atomic 1) */
	CHECK(nout == 4);
	CHECK(out[0][0] == ROCE_RC_SEND_FIRST && out[1][0] == ROCE_RC_SEND_MIDDLE &&
		out[2][0] == ROCE_RC_SEND_LAST && out[3][0] == ROCE_RC_READ_REQUEST);
	CHECK(!(out[1][8] & 0x80) && (out[2][8] & 0x80) && (out[3][8] & 0x80));
	CHECK(roce_pkt_parse(out[3], out_len[3], &pkt) == ROCE_PARSE_OK && pkt.bth.psn == 3 &&
		pkt.reth.va == 0x5000 && pkt.reth.rkey == 0x77 && pkt.reth.len == 2000);
	/* an ACK with a credit code (a hardware NIC's), for the SEND's last PSN */
	feed_resp(qp, ROCE_RC_ACK, 2, 0x0a, NULL, 0, 0);
	CHECK(sides[0].nscq == 1 && sides[0].scq[0].wr_id == 1);
	feed_resp(qp, ROCE_RC_READ_RESP_FIRST, 3, 0x1f, data, 1024, 0);
	feed_resp(qp, ROCE_RC_READ_RESP_LAST, 4, 0x1f, data + 1024, 976, 0);
	CHECK(sides[0].nscq == 2 && sides[0].scq[1].wr_id == 2);
	CHECK(memcmp(sides[0].local + 4096, data, 2000) == 0);
	roce_rc_poll(qp, now);
	CHECK(nout == 5 && out[4][0] == ROCE_RC_FETCH_ADD && roce_get24(out[4] + 9) == 5);
	feed_resp(qp, ROCE_RC_ATOMIC_ACK, 5, 0x1f, NULL, 0, 42);
	CHECK(sides[0].nscq == 3 && sides[0].scq[2].wr_id == 3 && orig == 42);
	feed_resp(qp, ROCE_RC_ACK, 2, 0x1f, NULL, 0, 0); /* stale */
	CHECK(sides[0].nscq == 3);
	/* RNR NAK with code 0 (rxe under Linux CM): nothing for 655.36 ms, then the resend */
	w = (struct roce_rc_wr){ .wr_id = 4, .op = ROCE_RC_OP_SEND, .len = 10,
		.local = sides[0].local };
	CHECK(roce_rc_post(qp, &w));
	roce_rc_poll(qp, now);
	CHECK(nout == 6 && out[5][0] == ROCE_RC_SEND_ONLY && roce_get24(out[5] + 9) == 6);
	feed_resp(qp, ROCE_RC_ACK, 6, 0x20, NULL, 0, 0);
	CHECK(roce_rc_poll(qp, now) == now + 655360000ull && nout == 6);
	now += 655360000ull;
	roce_rc_poll(qp, now);
	CHECK(nout == 7 && out[6][0] == ROCE_RC_SEND_ONLY && roce_get24(out[6] + 9) == 6);
	/* a sequence NAK for it: sent again at once */
	feed_resp(qp, ROCE_RC_ACK, 6, 0x60, NULL, 0, 0);
	roce_rc_poll(qp, now);
	CHECK(nout == 8 && roce_get24(out[7] + 9) == 6);
	feed_resp(qp, ROCE_RC_ACK, 6, 0x1f, NULL, 0, 0);
	CHECK(sides[0].nscq == 4 && sides[0].scq[3].status == ROCE_RC_WC_SUCCESS);
	CHECK(roce_rc_poll(qp, now) == ROCE_RC_NO_DEADLINE);
	roce_rc_destroy(qp);
}

/*
 * Hostile input: random frames of every RC opcode, PSNs near both ends' windows, random
 * lengths, keys and syndromes, into one QP that also has WRs and receives posted. Nothing
 * may be read or written out of bounds (run under ASan), nothing completes twice.
 */
static void test_garbage(void)
{
	static const uint8_t opcodes[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17,
		0x64 };
	unsigned int frames = 0, errors = 0;

	pair_setup(1024, 0, 0, 6, 6, 0x6a7ba6e);
	for (int round = 0; round < 1000; round++) {
		uint32_t epsn = (uint32_t)rnd() & ROCE_PSN_MASK;
		struct roce_rc_qp *qp = lone_qp(epsn);
		unsigned int posted = 0, recvs = 0;
		uint8_t seen[MAXW] = { 0 };
		bool twice = false;

		for (int i = 0; i < 6; i++) {
			struct roce_rc_wr w = { .wr_id = (uint64_t)i, .op = (enum roce_rc_op)(rnd() % 8),
				.local = sides[0].local + i * 8192, .len = (uint32_t)(rnd() % 8000),
				.rkey = 0x100, .remote_va = MEM_VA + 8 * (rnd() % 64) };

			posted += roce_rc_post(qp, &w);
			post_recv(&sides[0], 100u + (uint64_t)i, (uint32_t)i * 8192,
				(uint32_t)(rnd() % 8192));
			recvs++;
		}
		roce_rc_poll(qp, now);
		for (int k = 0; k < 400 && !roce_rc_in_error(qp); k++) {
			struct roce_pkt pkt = { 0 };
			uint8_t buf[4200], payload[1100];
			size_t n, plen;
			bool req;

			pkt.bth.opcode = opcodes[rnd() % sizeof(opcodes)];
			req = pkt.bth.opcode <= 0x0c || pkt.bth.opcode >= 0x13;
			pkt.bth.pkey = rnd() % 50 ? 0xffff : (uint16_t)rnd();
			pkt.bth.dqpn = rnd() % 50 ? 0x11 : (uint32_t)rnd() & ROCE_PSN_MASK;
			pkt.bth.ack_req = rnd() % 2;
			pkt.bth.psn = roce_psn_add(req ? epsn : 0, (uint32_t)(rnd() % 24)) - 4;
			pkt.bth.psn &= ROCE_PSN_MASK;
			pkt.reth.va = MEM_VA + (rnd() % 20 ? rnd() % (MEM_SZ / 2) :
				rnd() % (MEM_SZ + 4096) - 2048);
			pkt.reth.rkey = rnd() % 20 ? 0x100 : (uint32_t)rnd();
			pkt.reth.len = rnd() % 20 ? (uint32_t)(rnd() % 10000) : (uint32_t)rnd();
			pkt.atomic.va = pkt.reth.va & ~(uint64_t)(rnd() % 20 ? 7 : 0);
			pkt.atomic.rkey = pkt.reth.rkey;
			pkt.aeth.syndrome = rnd() % 3 ? 0x1f : (uint8_t)rnd() & 0x7f;
			/* mostly lengths the opcode allows, so that QPs live long enough to get deep */
			switch (rnd() % 10 ? roce_opcode_payload(pkt.bth.opcode) : 9) {
			case ROCE_PL_MIDDLE: plen = 1024; break;
			case ROCE_PL_LAST: plen = rnd() % 1024 + 1; break;
			case ROCE_PL_ONLY: plen = rnd() % 1025; break;
			default: plen = rnd() % 1100; break;
			}
			if (roce_opcode_payload(pkt.bth.opcode) == ROCE_PL_NONE)
				plen = 0;
			fill(payload, plen);
			n = roce_pkt_build(buf, sizeof(buf), &pkt, payload, plen);
			if (n == 0)
				continue;
			if (rnd() % 20 == 0)
				buf[rnd() % n] ^= (uint8_t)(1u << (rnd() % 8));
			roce_rc_rx(qp, now, buf, n);
			frames++;
			if (rnd() % 8 == 0) {
				now += rnd() % 10000000;
				roce_rc_poll(qp, now);
			}
		}
		errors += roce_rc_in_error(qp);
		roce_rc_destroy(qp);
		/* every send WR completes at most once, with one of its own ids */
		CHECK(sides[0].nscq <= posted);
		for (unsigned int i = 0; i < sides[0].nscq; i++) {
			uint64_t id = sides[0].scq[i].wr_id;

			if (id >= MAXW || seen[id]++)
				twice = true;
		}
		CHECK(!twice);
		CHECK(sides[0].nrcq <= recvs);
	}
	fprintf(stderr, "  %u random frames, %u of 1000 QPs driven to error\n", frames, errors);
	CHECK(errors > 0);
}

/* ---- what the engine costs: a FIFO wire, wall-clock time (printed, not asserted) ---- */

#define FIFO_N 1024
static uint8_t (*fifo_buf)[4200];
static size_t fifo_len[FIFO_N];
static int fifo_to[FIFO_N];
static unsigned int fifo_head, fifo_tail;

static void fifo_emit(void *ctx, const uint8_t *buf, size_t len)
{
	const struct side *s = ctx;

	if (fifo_tail - fifo_head == FIFO_N)
		return;
	memcpy(fifo_buf[fifo_tail % FIFO_N], buf, len);
	fifo_len[fifo_tail % FIFO_N] = len;
	fifo_to[fifo_tail++ % FIFO_N] = 1 - s->id;
}

static const struct roce_rc_ops fifo_ops = {
	.emit = fifo_emit, .rkey_check = rkey_check_cb, .mem_write = mem_write_cb,
	.mem_read = mem_read_cb, .atomic = atomic_cb, .recv_take = recv_take_cb,
	.complete = complete_cb,
};

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench_one(uint32_t mtu, enum roce_rc_op op)
{
	const uint32_t len = 256 * 1024, total = 256;
	uint32_t posted = 0;
	uint64_t pkts;
	double t0, t;
	bool ok = true;

	setup_ops = &fifo_ops;
	pair_setup(mtu, 0, 0, 6, 6, 42);
	setup_ops = &test_ops;
	fifo_head = fifo_tail = 0;
	t0 = wall();
	while (sides[0].nscq < total && now < 10000000000000ull) {
		while (posted < total && posted - sides[0].nscq < 16) {
			struct roce_rc_wr w = { .wr_id = posted, .op = op, .len = len, .rkey = 0x101,
				.remote_va = MEM_VA + (posted % 8) * len,
				.local = sides[0].local + (posted % 8) * len };

			posted += roce_rc_post(sides[0].qp, &w);
		}
		roce_rc_poll(sides[0].qp, now);
		roce_rc_poll(sides[1].qp, now);
		while (fifo_head != fifo_tail) {
			unsigned int i = fifo_head++ % FIFO_N;

			roce_rc_rx(sides[fifo_to[i]].qp, now, fifo_buf[i], fifo_len[i]);
		}
		now += 1000;
	}
	t = wall() - t0;
	for (uint32_t i = 0; i < sides[0].nscq; i++)
		ok = ok && sides[0].scq[i].status == ROCE_RC_WC_SUCCESS;
	CHECK(sides[0].nscq == total && ok);
	CHECK(roce_rc_get_stats(sides[0].qp)->retransmits == 0);
	pkts = roce_rc_get_stats(sides[0].qp)->tx_pkts + roce_rc_get_stats(sides[1].qp)->tx_pkts;
	fprintf(stderr, "  %s 64 MiB in 256 KiB WRs, MTU %4u: %6.2f Gb/s, %4.0f ns per packet "
		"(both ends, one thread, %llu packets)\n", op == ROCE_RC_OP_READ ? "READ " : "WRITE",
		mtu, (double)total * len * 8 / t / 1e9, t / (double)pkts * 1e9,
		(unsigned long long)pkts);
}

/*
 * place: READ responses and SENDs go through the path's op into the READ's own memory or the
 * receive's buffer. Each store must lie inside the side's WR memory or receive buffers; under
 * loss, duplication and reordering every byte arrives (plan_check). Once the qp is in error (a
 * flush), nothing is stored: the memory is the owner's again.
 */
static unsigned long places, places_bad;
static bool place_closed; /* set when the requester went to error: a store now is a bug */

static void place_cb(void *ctx, void *dst, const void *src, size_t len)
{
	struct side *s = ctx;
	uint8_t *d = dst;

	places++;
	if (place_closed || len > MEM_SZ || !((d >= s->local && d + len <= s->local + MEM_SZ) ||
					      (d >= s->rbuf && d + len <= s->rbuf + MEM_SZ))) {
		places_bad++;
		return;
	}
	memcpy(dst, src, len);
}

static const struct roce_rc_ops place_ops = {
	.emit = emit_cb, .rkey_check = rkey_check_cb, .mem_write = mem_write_cb,
	.mem_read = mem_read_cb, .atomic = atomic_cb, .place = place_cb, .recv_take = recv_take_cb,
	.complete = complete_cb,
};

static void place_emit(void *ctx, const uint8_t *buf, size_t len);

static const struct roce_rc_ops lone_place_ops = {
	.emit = place_emit, .rkey_check = rkey_check_cb, .mem_write = mem_write_cb,
	.mem_read = mem_read_cb, .atomic = atomic_cb, .place = place_cb, .recv_take = recv_take_cb,
	.complete = complete_cb,
};

static bool b_sent_responses(void)
{
	return roce_rc_get_stats(sides[1].qp)->tx_pkts >= 3;
}

static void test_place(void)
{
	setup_ops = &place_ops;
	for (unsigned int m = 0; m < 5; m++) {
		places = places_bad = 0;
		lossy_rounds(mtus[m], 0x777, 0x2468, 3, 0xfeed0000u + m);
		fprintf(stderr, " mtu %u: %lu READ responses and SEND packets placed\n", mtus[m], places);
		CHECK(places > 0 && places_bad == 0);
	}

	/* a READ of 8 packets; its responses still on the wire when the requester goes to error */
	pair_setup(1024, 0x100, 0x200, 7, 7, 0x51ace);
	fill(sides[1].mem + 4096, 8 * 1024);
	{
		struct roce_rc_wr w = { .wr_id = 77, .op = ROCE_RC_OP_READ, .local = sides[0].local,
			.len = 8 * 1024, .remote_va = MEM_VA + 4096, .rkey = 0x101 };

		memset(sides[0].local, 0, 8 * 1024);
		CHECK(roce_rc_post(sides[0].qp, &w));
	}
	places = places_bad = 0;
	CHECK(run(b_sent_responses, 1000000000ull));
	CHECK(nevs > 0 && roce_rc_get_stats(sides[0].qp)->rx_pkts == 0); /* B's responses all in flight */
	roce_rc_set_error(sides[0].qp);
	place_closed = true;
	run(NULL, 1000000000ull);
	place_closed = false;
	CHECK(places_bad == 0);
	CHECK(sides[0].nscq == 1 && sides[0].scq[0].wr_id == 77 && sides[0].scq[0].status == ROCE_RC_WC_WR_FLUSH_ERR);
	setup_ops = &test_ops;

	/* a SEND of 4 packets into a receive: two placed, then the responder goes to error */
	{
		struct roce_rc_cfg cfg = {
			.qpn = 0x11, .dest_qpn = 0x22, .rq_psn = 0x500, .mtu = 1024, .timeout = 17,
			.retry_cnt = 7, .rnr_retry = 7, .max_rd_atomic = 1, .max_dest_rd_atomic = 4,
			.sq_depth = 4, .ops = &lone_place_ops, .ctx = &sides[0],
		};
		struct roce_rc_qp *qp;

		sides[0].rq_head = sides[0].rq_tail = 0;
		sides[0].nrcq = sides[0].nscq = 0;
		qp = roce_rc_create(&cfg);
		CHECK(qp != NULL);
		post_recv(&sides[0], 91, 0, 4 * 1024);
		places = places_bad = 0;
		feed(qp, ROCE_RC_SEND_FIRST, 0x500, false, 1024);
		feed(qp, ROCE_RC_SEND_MIDDLE, 0x501, false, 1024);
		CHECK(places == 2 && places_bad == 0 && sides[0].nrcq == 0);
		roce_rc_set_error(qp);
		place_closed = true;
		feed(qp, ROCE_RC_SEND_MIDDLE, 0x502, false, 1024);
		feed(qp, ROCE_RC_SEND_LAST, 0x503, true, 1024);
		place_closed = false;
		CHECK(places == 2 && places_bad == 0);
		CHECK(sides[0].nrcq == 1 && sides[0].rcq[0].wr_id == 91 && sides[0].rcq[0].status == ROCE_RC_WC_WR_FLUSH_ERR);
		roce_rc_destroy(qp);
	}
}

static void place_emit(void *ctx, const uint8_t *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len; /* the responder's ACKs: not looked at here */
}

static void test_bench(void)
{
	fifo_buf = malloc((size_t)FIFO_N * sizeof(*fifo_buf));
	if (fifo_buf == NULL)
		return;
	bench_one(1024, ROCE_RC_OP_WRITE);
	bench_one(4096, ROCE_RC_OP_WRITE);
	bench_one(4096, ROCE_RC_OP_READ);
	free(fifo_buf);
}

int main(void)
{
	TEST_RUN(test_all_ops_clean);
	TEST_RUN(test_lossy);
	TEST_RUN(test_window_under_loss);
	TEST_RUN(test_emit_ref);
	TEST_RUN(test_place);
	TEST_RUN(test_psn_wrap);
	TEST_RUN(test_rnr);
	TEST_RUN(test_retry_exhausted);
	TEST_RUN(test_remote_errors);
	TEST_RUN(test_remote_error_nak_lost);
	TEST_RUN(test_replay);
	TEST_RUN(test_fence);
	TEST_RUN(test_rxe_frames);
	TEST_RUN(test_read_turns);
	TEST_RUN(test_read_pipeline);
	TEST_RUN(test_hold_flood);
	TEST_RUN(test_read_replay_keeps_ack);
	TEST_RUN(test_ack_before_nak);
	TEST_RUN(test_rxe_answers);
	TEST_RUN(test_garbage);
	TEST_RUN(test_bench);
	for (int i = 0; i < 2; i++) {
		roce_rc_destroy(sides[i].qp);
		free(sides[i].mem);
		free(sides[i].local);
		free(sides[i].rbuf);
		free(sides[i].scq);
		free(sides[i].rcq);
	}
	clear_wire();
	TEST_EXIT();
}
