/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The target asleep, with verbs (softdoca's librdmacm + libibverbs), two real processes (fork).
 * A hardware NIC moves data without the application: the server (B, passive) connects, posts
 * its receives or registers its memory, leaves its CQs in one of the states below, and blocks in
 * read() on a pipe (not on a completion channel). The client (A, active) then runs one
 * operation against it and must see every completion within 10 s; only then does it write the
 * byte B waits for. B then checks its side: receive completions with the data, memory written,
 * and any event its armed CQs earned. A new connection per scenario: no CQ state carries over.
 *
 * B's states just before it blocks:
 *   never         receives posted, no CQ armed, never polled
 *   quiet         the receive CQ polled 20000 times (the soft NIC's quiet mode), then nothing
 *   armed_recv    the receive CQ armed (ibv_req_notify_cq), its channel never waited on
 *   armed_send    only the send CQ armed (the receive CQ has a channel too)
 *   armed_both    both armed, each CQ on a channel of its own
 *   armed_one     both armed, both CQs on one channel
 *   woke          receive CQ armed, woken once by A's first message (poll() on the channel's
 *                 descriptor, ibv_get_cq_event, ack), CQ not polled, not armed again
 *   woke_polled   the same, then the CQ polled empty, not armed again
 *   woke_rearmed  the same, then armed again and polled empty once more (an event loop's turn),
 *                 then blocked elsewhere
 *   rnr           A's SEND went out before B posted its receive; B then posts it and blocks
 *   armed_rnr     the same with B's receive CQ armed
 * A's operations: send, send2 (two in a row), send_big (8 KiB), send_write (a SEND and a 16 KiB
 * RDMA WRITE behind it), write (64 B), write_big (16 KiB), write_imm (64 B, takes a receive),
 * read (64 B), fadd (atomic fetch-and-add). A polls its send CQ (sched_yield between looks), or
 * with ":sleep" waits on its send CQ's channel.
 *
 * argv: port, then scenario names "STATE:OP[:sleep]", "all" (A polls) or "all_sleep" (A asleep).
 * RDMACM_TEST_ADDR: the server's address (a rocev2 card's), else 127.0.0.1. ASLEEP_SRQ: B's
 * receives go to a shared receive queue of its QP. ASLEEP_MAX_EMPTY=N: a woken B that finds more
 * than N CQ events with an empty CQ before its first completion fails the scenario (they are
 * allowed, and only noted, without it). Every wait is
 * bounded: poll() timeouts, the 10 s bound, alarm() in both processes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "asleep.h"
#include "check_exit.h"

#define MEM (64 * 1024)
#define BOUND_S 10.0

enum state {
	ST_NEVER, ST_QUIET, ST_ARMED_RECV, ST_ARMED_SEND, ST_ARMED_BOTH, ST_ARMED_ONE, ST_WOKE, ST_WOKE_POLLED,
	ST_WOKE_REARMED, ST_RNR, ST_ARMED_RNR, ST_COUNT
};
enum op { OP_SEND, OP_SEND2, OP_SEND_BIG, OP_SEND_WRITE, OP_WRITE, OP_WRITE_BIG, OP_WRITE_IMM, OP_READ, OP_FADD, OP_COUNT };

static const char *const state_names[ST_COUNT] = {"never", "quiet", "armed_recv", "armed_send", "armed_both",
						  "armed_one", "woke", "woke_polled", "woke_rearmed", "rnr",
						  "armed_rnr"};
static const char *const op_names[OP_COUNT] = {"send", "send2", "send_big", "send_write", "write",
					       "write_big", "write_imm", "read", "fadd"};

/* B's memory */
#define B_RECV0 0
#define B_RECV1 8192
#define B_WAKE 16384
#define B_WRITE 20480
#define B_READ 40960
#define B_FADD 45056
/* A's memory */
#define A_SRC 0       /* 8 KiB of 's' */
#define A_WSRC 8192   /* 16 KiB of 'x' */
#define A_SRC2 24576  /* 64 B of 't' */
#define A_READ 28672
#define A_RES 32768
#define A_WAKE 40960  /* 8 B of 'w' */

struct scenario {
	enum state st;
	enum op op;
	bool sleep;
};

static struct scenario scen[1024];
static int n_scen;
static const char *port;
static int a2b[2], b2a[2];

static void put(const void *p, size_t n, int fd)
{
	CHECK(asleep_put(p, n, fd));
}

static struct rdma_addrinfo *addr(bool passive)
{
	struct rdma_addrinfo hints = {.ai_port_space = RDMA_PS_TCP, .ai_flags = passive ? RAI_PASSIVE : 0}, *res;

	/* RDMACM_TEST_ADDR: the server's address when it is not the loopback one (a rocev2 card's) */
	const char *to = getenv("RDMACM_TEST_ADDR") != NULL ? getenv("RDMACM_TEST_ADDR") : "127.0.0.1";

	CHECK(rdma_getaddrinfo(passive ? "0.0.0.0" : to, port, &hints, &res) == 0);
	return res;
}

static bool is_send(enum op op)
{
	return op == OP_SEND || op == OP_SEND2 || op == OP_SEND_BIG || op == OP_SEND_WRITE || op == OP_WRITE_IMM;
}

static bool is_rnr(enum state st)
{
	return st == ST_RNR || st == ST_ARMED_RNR;
}

static bool is_woke(enum state st)
{
	return st == ST_WOKE || st == ST_WOKE_POLLED || st == ST_WOKE_REARMED;
}

struct remote {
	uint64_t addr;
	uint32_t rkey;
};

/* ---- B, the server ---- */

static char *bmem;

struct bconn {
	struct rdma_cm_id *id;
	struct ibv_comp_channel *rch, *sch;
	struct ibv_cq *rcq, *scq;
	struct ibv_mr *mr;
	struct ibv_srq *srq; /* ASLEEP_SRQ: the receives go to a shared receive queue */
	int events; /* CQ events taken */
};

static void b_post_recv(struct bconn *c, size_t off, size_t len, uint64_t wr_id)
{
	struct ibv_sge sge = {(uint64_t)(uintptr_t)(bmem + off), (uint32_t)len, c->mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = wr_id, .sg_list = &sge, .num_sge = 1}, *bad;

	if (c->srq != NULL)
		CHECK(ibv_post_srq_recv(c->srq, &wr, &bad) == 0);
	else
		CHECK(ibv_post_recv(c->id->qp, &wr, &bad) == 0);
}

/* The CQ events waiting on a channel (its descriptor non-blocking), taken and acked. */
static void b_take_events(struct bconn *c, struct ibv_comp_channel *ch)
{
	struct ibv_cq *cq;
	void *ctx;

	while (ibv_get_cq_event(ch, &cq, &ctx) == 0) {
		ibv_ack_cq_events(cq, 1);
		c->events++;
	}
	CHECK(errno == EAGAIN);
}

/* Receive completions: `want` of them within 5 s of polling. */
static int b_poll_recv(struct bconn *c, struct ibv_wc *wc, int want)
{
	double end = asleep_now_s() + 5;
	int got = 0;

	while (got < want && asleep_now_s() < end) {
		int n = ibv_poll_cq(c->rcq, want - got, wc + got);

		CHECK(n >= 0);
		got += n;
		if (n == 0)
			sched_yield();
	}
	return got;
}

static bool b_data(size_t off, char fill, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (bmem[off + i] != fill)
			return false;
	return true;
}

static bool b_scenario(struct rdma_cm_id *listen_id, const struct scenario *sc)
{
	struct bconn c = {0};
	struct ibv_qp_init_attr qa = {.cap = {.max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1},
				      .sq_sig_all = 1, .qp_type = IBV_QPT_RC};
	struct ibv_wc wc[8];
	struct remote r;
	int nrecv = 0, fl;
	bool ok = true;
	char x = 0;
	uint64_t v;

	memset(bmem, 0, MEM);
	for (int i = 0; i < 64; i++)
		bmem[B_READ + i] = (char)('r' + (i & 1));
	v = 1000;
	memcpy(bmem + B_FADD, &v, 8);
	if (rdma_get_request(listen_id, &c.id) != 0)
		return false;
	c.rch = ibv_create_comp_channel(c.id->verbs);
	c.sch = sc->st == ST_ARMED_ONE ? c.rch : ibv_create_comp_channel(c.id->verbs);
	CHECK(c.rch != NULL && c.sch != NULL);
	CHECK((c.rcq = ibv_create_cq(c.id->verbs, 16, NULL, c.rch, 0)) != NULL);
	CHECK((c.scq = ibv_create_cq(c.id->verbs, 16, NULL, c.sch, 0)) != NULL);
	qa.send_cq = c.scq;
	qa.recv_cq = c.rcq;
	if (getenv("ASLEEP_SRQ") != NULL) {
		struct ibv_srq_init_attr sa = {.attr = {.max_wr = 8, .max_sge = 1}};

		CHECK((c.srq = ibv_create_srq(c.id->pd, &sa)) != NULL);
		qa.srq = c.srq;
	}
	CHECK(rdma_create_qp(c.id, c.id->pd, &qa) == 0);
	CHECK((c.mr = ibv_reg_mr(c.id->pd, bmem, MEM,
				 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
					 IBV_ACCESS_REMOTE_ATOMIC)) != NULL);
	if (is_woke(sc->st))
		b_post_recv(&c, B_WAKE, 64, 100);
	if (!is_rnr(sc->st) && is_send(sc->op)) {
		b_post_recv(&c, B_RECV0, 8192, 0);
		nrecv++;
		if (sc->op == OP_SEND2) {
			b_post_recv(&c, B_RECV1, 8192, 1);
			nrecv++;
		}
	}
	CHECK(rdma_accept(c.id, NULL) == 0);
	r.addr = (uint64_t)(uintptr_t)bmem;
	r.rkey = c.mr->rkey;
	put(&r, sizeof(r), b2a[1]);
	switch (sc->st) {
	case ST_QUIET:
		for (int i = 0; i < 20000; i++)
			CHECK(ibv_poll_cq(c.rcq, 1, wc) == 0);
		break;
	case ST_ARMED_RECV:
	case ST_ARMED_RNR:
		CHECK(ibv_req_notify_cq(c.rcq, 0) == 0);
		break;
	case ST_ARMED_SEND:
		CHECK(ibv_req_notify_cq(c.scq, 0) == 0);
		break;
	case ST_ARMED_BOTH:
	case ST_ARMED_ONE:
		CHECK(ibv_req_notify_cq(c.scq, 0) == 0);
		CHECK(ibv_req_notify_cq(c.rcq, 0) == 0);
		break;
	case ST_WOKE:
	case ST_WOKE_POLLED:
	case ST_WOKE_REARMED: {
		struct pollfd pf = {.fd = c.rch->fd, .events = POLLIN};
		struct ibv_cq *cq;
		void *ctx;

		CHECK(ibv_req_notify_cq(c.rcq, 0) == 0);
		put("W", 1, b2a[1]);
		int empty = 0;
		double until = asleep_now_s() + 10, first_empty = 0;

		for (;;) {
			if (poll(&pf, 1, 10000) != 1)
				fprintf(stderr, "B: not woken by A's first message in 10 s\n");
			CHECK(ibv_get_cq_event(c.rch, &cq, &ctx) == 0 && cq == c.rcq);
			ibv_ack_cq_events(cq, 1);
			if (sc->st == ST_WOKE)
				break; /* (its CQ is not looked at: an early event is possible, see below) */
			int n = ibv_poll_cq(c.rcq, 1, wc);

			CHECK(n >= 0);
			if (n == 1) {
				CHECK(wc[0].wr_id == 100 && wc[0].status == IBV_WC_SUCCESS);
				break;
			}
			/*
			 * An event with nothing in the CQ (allowed: a program must expect it), armed again.
			 * Seen when the QP's same-host ring came up while we slept armed, its doorbell
			 * already rung: ring.c ring_on adds the doorbell to our wait set before it makes
			 * the ring visible to ring_serve, which then leaves the doorbell unread, and every
			 * wake-up until then is an empty event.
			 */
			if (empty++ == 0)
				first_empty = asleep_now_s();
			CHECK(asleep_now_s() < until);
			CHECK(ibv_req_notify_cq(c.rcq, 0) == 0);
		}
		if (empty > 0)
			fprintf(stderr, "B: note: %d CQ events with an empty CQ in %.2f ms before the first completion (%s)\n",
				empty, (asleep_now_s() - first_empty) * 1e3, state_names[sc->st]);
		/* ASLEEP_MAX_EMPTY: more of them fails (a sleeper that spins) */
		if (getenv("ASLEEP_MAX_EMPTY") != NULL && empty > atoi(getenv("ASLEEP_MAX_EMPTY"))) {
			fprintf(stderr, "B: %d empty CQ events in a row: the sleeper spun\n", empty);
			ok = false;
		}
		if (sc->st != ST_WOKE)
			CHECK(ibv_poll_cq(c.rcq, 1, wc) == 0);
		if (sc->st == ST_WOKE_REARMED) {
			CHECK(ibv_req_notify_cq(c.rcq, 0) == 0);
			CHECK(ibv_poll_cq(c.rcq, 1, wc) == 0);
		}
		break;
	}
	default:
		break;
	}
	put("R", 1, b2a[1]);
	if (is_rnr(sc->st)) {
		CHECK(asleep_get(&x, 1, a2b[0], 30) && x == 'S'); /* A's message went out */
		if (is_send(sc->op)) {
			b_post_recv(&c, B_RECV0, 8192, 0);
			nrecv++;
			if (sc->op == OP_SEND2) {
				b_post_recv(&c, B_RECV1, 8192, 1);
				nrecv++;
			}
		}
		put("P", 1, b2a[1]);
	}
	/* asleep elsewhere: a blocking read of the pipe (bounded by the alarm) */
	CHECK(read(a2b[0], &x, 1) == 1 && x == 'D');
	/* A's verdict came: B looks at its side */
	if (sc->st == ST_WOKE) { /* the wake-up's completion, never polled */
		CHECK(b_poll_recv(&c, wc, 1) == 1 && wc[0].wr_id == 100 && wc[0].status == IBV_WC_SUCCESS);
		CHECK(b_data(B_WAKE, 'w', 8));
	}
	if (nrecv > 0) {
		int n = b_poll_recv(&c, wc, nrecv);

		if (n != nrecv) {
			fprintf(stderr, "B: %d of %d receives completed\n", n, nrecv);
			ok = false;
		}
		for (int i = 0; i < n; i++)
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "B: receive %d: %s\n", i, ibv_wc_status_str(wc[i].status));
				ok = false;
			}
		if (sc->op == OP_WRITE_IMM && n == 1)
			ok = ok && wc[0].opcode == IBV_WC_RECV_RDMA_WITH_IMM && ntohl(wc[0].imm_data) == 0x1234;
	}
	switch (sc->op) {
	case OP_SEND:
	case OP_SEND_WRITE:
		ok = ok && b_data(B_RECV0, 's', 64);
		break;
	case OP_SEND2:
		ok = ok && b_data(B_RECV0, 's', 64) && b_data(B_RECV1, 't', 64);
		break;
	case OP_SEND_BIG:
		ok = ok && b_data(B_RECV0, 's', 8192);
		break;
	case OP_FADD:
		memcpy(&v, bmem + B_FADD, 8);
		ok = ok && v == 1007;
		break;
	default:
		break;
	}
	if (sc->op == OP_WRITE || sc->op == OP_WRITE_IMM)
		ok = ok && b_data(B_WRITE, 'x', 64);
	if (sc->op == OP_WRITE_BIG || sc->op == OP_SEND_WRITE)
		ok = ok && b_data(B_WRITE, 'x', 16384);
	/* events the armed CQs earned: taken (channels non-blocking now) */
	fl = fcntl(c.rch->fd, F_GETFL);
	CHECK(fcntl(c.rch->fd, F_SETFL, fl | O_NONBLOCK) == 0);
	b_take_events(&c, c.rch);
	if (c.sch != c.rch) {
		fl = fcntl(c.sch->fd, F_GETFL);
		CHECK(fcntl(c.sch->fd, F_SETFL, fl | O_NONBLOCK) == 0);
		b_take_events(&c, c.sch);
	}
	if ((sc->st == ST_ARMED_RECV || sc->st == ST_ARMED_BOTH || sc->st == ST_ARMED_ONE || sc->st == ST_WOKE_REARMED ||
	     sc->st == ST_ARMED_RNR) &&
	    nrecv > 0 && c.events == 0) {
		fprintf(stderr, "B: its armed receive CQ got no event for the completed receive\n");
		ok = false;
	}
	put(ok ? "K" : "F", 1, b2a[1]);
	/* A disconnects first; the disconnection reaches our id's channel */
	CHECK(asleep_get(&x, 1, a2b[0], 30) && x == 'E');
	(void)rdma_disconnect(c.id);
	ibv_dereg_mr(c.mr);
	rdma_destroy_qp(c.id);
	if (c.srq != NULL)
		CHECK(ibv_destroy_srq(c.srq) == 0);
	CHECK(ibv_destroy_cq(c.rcq) == 0 && ibv_destroy_cq(c.scq) == 0);
	CHECK(ibv_destroy_comp_channel(c.rch) == 0);
	if (c.sch != c.rch)
		CHECK(ibv_destroy_comp_channel(c.sch) == 0);
	CHECK(rdma_destroy_id(c.id) == 0);
	put("Z", 1, b2a[1]);
	return true;
}

static int server(void)
{
	struct rdma_addrinfo *res = addr(true);
	struct rdma_cm_id *listen_id;

	alarm(600);
	bmem = aligned_alloc(4096, MEM);
	CHECK(bmem != NULL);
	CHECK(rdma_create_ep(&listen_id, res, NULL, NULL) == 0);
	CHECK(rdma_listen(listen_id, 0) == 0);
	put("L", 1, b2a[1]);
	for (int i = 0; i < n_scen; i++)
		if (!b_scenario(listen_id, &scen[i]))
			break;
	rdma_destroy_ep(listen_id);
	rdma_freeaddrinfo(res);
	return 0;
}

/* ---- A, the client ---- */

static char *amem;
static struct ibv_mr *amr;
static struct rdma_cm_id *aid;
static int a_done; /* send completions seen */

static void a_post(enum ibv_wr_opcode opc, size_t off, size_t len, const struct remote *r, size_t roff)
{
	struct ibv_sge sge = {(uint64_t)(uintptr_t)(amem + off), (uint32_t)len, amr->lkey};
	struct ibv_send_wr wr = {.wr_id = off, .sg_list = &sge, .num_sge = 1, .opcode = opc,
				 .send_flags = IBV_SEND_SIGNALED}, *bad;

	if (opc == IBV_WR_ATOMIC_FETCH_AND_ADD) {
		wr.wr.atomic.remote_addr = r->addr + roff;
		wr.wr.atomic.rkey = r->rkey;
		wr.wr.atomic.compare_add = 7;
	} else if (r != NULL) {
		wr.wr.rdma.remote_addr = r->addr + roff;
		wr.wr.rdma.rkey = r->rkey;
	}
	if (opc == IBV_WR_RDMA_WRITE_WITH_IMM)
		wr.imm_data = htonl(0x1234);
	CHECK(ibv_post_send(aid->qp, &wr, &bad) == 0);
}

/* Send completions up to `want` within `secs`: polled, or asleep on the send CQ's channel. */
static bool a_wait(int want, double secs, bool sleep)
{
	double end = asleep_now_s() + secs;
	struct ibv_wc wc[4];

	while (a_done < want && asleep_now_s() < end) {
		int n = ibv_poll_cq(aid->send_cq, 4, wc);

		CHECK(n >= 0);
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				fprintf(stderr, "A: a work request failed: %s\n", ibv_wc_status_str(wc[i].status));
			CHECK(wc[i].status == IBV_WC_SUCCESS);
		}
		a_done += n;
		if (n > 0 || a_done >= want)
			continue;
		if (!sleep) {
			sched_yield();
			continue;
		}
		struct pollfd pf = {.fd = aid->send_cq_channel->fd, .events = POLLIN};
		struct ibv_cq *cq;
		void *ctx;

		CHECK(ibv_req_notify_cq(aid->send_cq, 0) == 0);
		n = ibv_poll_cq(aid->send_cq, 4, wc);
		CHECK(n >= 0);
		for (int i = 0; i < n; i++)
			CHECK(wc[i].status == IBV_WC_SUCCESS);
		a_done += n;
		if (n > 0)
			continue;
		if (poll(&pf, 1, 100) == 1) {
			CHECK(ibv_get_cq_event(aid->send_cq_channel, &cq, &ctx) == 0);
			ibv_ack_cq_events(cq, 1);
		}
	}
	return a_done >= want;
}

/* 1: passed, 0: failed (both processes still in step), -1: the pair is out of step */
static int a_scenario(const struct scenario *sc, char *name)
{
	struct rdma_addrinfo *res = addr(false);
	struct ibv_qp_init_attr qa = {.cap = {.max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1},
				      .sq_sig_all = 1, .qp_type = IBV_QPT_RC};
	struct remote r;
	int want = 0, fl;
	char x = 0;
	bool done;
	double t0;

	snprintf(name, 64, "%s:%s%s", state_names[sc->st], op_names[sc->op], sc->sleep ? ":sleep" : "");
	memset(amem, 0, MEM);
	memset(amem + A_SRC, 's', 8192);
	memset(amem + A_WSRC, 'x', 16384);
	memset(amem + A_SRC2, 't', 64);
	memset(amem + A_WAKE, 'w', 8);
	CHECK(rdma_create_ep(&aid, res, NULL, &qa) == 0);
	CHECK((amr = ibv_reg_mr(aid->pd, amem, MEM, IBV_ACCESS_LOCAL_WRITE)) != NULL);
	CHECK(rdma_connect(aid, NULL) == 0);
	fl = fcntl(aid->send_cq_channel->fd, F_GETFL);
	CHECK(fcntl(aid->send_cq_channel->fd, F_SETFL, fl | O_NONBLOCK) == 0);
	a_done = 0;
	if (!asleep_get(&r, sizeof(r), b2a[0], 30))
		return -1;
	if (is_woke(sc->st)) {
		if (!asleep_get(&x, 1, b2a[0], 30) || x != 'W')
			return -1;
		a_post(IBV_WR_SEND, A_WAKE, 8, NULL, 0);
		want++;
		if (!a_wait(want, BOUND_S, sc->sleep)) {
			fprintf(stderr, "%s: the wake-up message to B (armed, asleep on its channel) did not complete\n", name);
			return -1;
		}
	}
	if (!asleep_get(&x, 1, b2a[0], 30) || x != 'R')
		return -1;
	t0 = asleep_now_s();
	switch (sc->op) {
	case OP_SEND:
		a_post(IBV_WR_SEND, A_SRC, 64, NULL, 0);
		want++;
		break;
	case OP_SEND2:
		a_post(IBV_WR_SEND, A_SRC, 64, NULL, 0);
		a_post(IBV_WR_SEND, A_SRC2, 64, NULL, 0);
		want += 2;
		break;
	case OP_SEND_BIG:
		a_post(IBV_WR_SEND, A_SRC, 8192, NULL, 0);
		want++;
		break;
	case OP_SEND_WRITE:
		a_post(IBV_WR_SEND, A_SRC, 64, NULL, 0);
		a_post(IBV_WR_RDMA_WRITE, A_WSRC, 16384, &r, B_WRITE);
		want += 2;
		break;
	case OP_WRITE:
		a_post(IBV_WR_RDMA_WRITE, A_WSRC, 64, &r, B_WRITE);
		want++;
		break;
	case OP_WRITE_BIG:
		a_post(IBV_WR_RDMA_WRITE, A_WSRC, 16384, &r, B_WRITE);
		want++;
		break;
	case OP_WRITE_IMM:
		a_post(IBV_WR_RDMA_WRITE_WITH_IMM, A_WSRC, 64, &r, B_WRITE);
		want++;
		break;
	case OP_READ:
		a_post(IBV_WR_RDMA_READ, A_READ, 64, &r, B_READ);
		want++;
		break;
	case OP_FADD:
		a_post(IBV_WR_ATOMIC_FETCH_AND_ADD, A_RES, 8, &r, B_FADD);
		want++;
		break;
	default:
		break;
	}
	if (is_rnr(sc->st)) {
		struct ibv_wc wc;

		CHECK(ibv_poll_cq(aid->send_cq, 1, &wc) == 0); /* (not taken: B has no receive) */
		put("S", 1, a2b[1]);
		if (!asleep_get(&x, 1, b2a[0], 30) || x != 'P')
			return -1;
	}
	done = a_wait(want, BOUND_S, sc->sleep);
	if (!done)
		fprintf(stderr, "%s: %d of %d completions in %.0f s while B was blocked elsewhere\n", name, a_done,
			want, BOUND_S);
	else if (asleep_now_s() - t0 > 1.0)
		fprintf(stderr, "%s: completed, but took %.2f s\n", name, asleep_now_s() - t0);
	put("D", 1, a2b[1]);
	if (!done && !a_wait(want, BOUND_S, false)) {
		fprintf(stderr, "%s: still not complete 10 s after B woke\n", name);
		return -1;
	}
	if (sc->op == OP_READ)
		for (int i = 0; i < 64; i++)
			done = done && amem[A_READ + i] == (char)('r' + (i & 1));
	if (sc->op == OP_FADD) {
		uint64_t old;

		memcpy(&old, amem + A_RES, 8);
		done = done && old == 1000;
	}
	if (!asleep_get(&x, 1, b2a[0], 30))
		return -1;
	if (x != 'K')
		fprintf(stderr, "%s: B's checks failed\n", name);
	done = done && x == 'K';
	CHECK(rdma_disconnect(aid) == 0);
	put("E", 1, a2b[1]);
	CHECK(ibv_dereg_mr(amr) == 0);
	rdma_destroy_ep(aid);
	rdma_freeaddrinfo(res);
	if (!asleep_get(&x, 1, b2a[0], 30) || x != 'Z')
		return -1;
	fprintf(stderr, "%s %s\n", done ? "ok" : "FAIL", name);
	return done ? 1 : 0;
}

static void parse(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		int s, o;
		bool on_handle;

		if (strcmp(argv[i], "all") == 0 || strcmp(argv[i], "all_sleep") == 0) {
			for (int k = 0; k < ST_COUNT; k++)
				for (int j = 0; j < OP_COUNT; j++) {
					/* a receiver-not-ready case needs an operation that takes a receive */
					if (is_rnr((enum state)k) && !is_send((enum op)j))
						continue;
					scen[n_scen++] = (struct scenario){(enum state)k, (enum op)j, argv[i][3] != 0};
				}
			continue;
		}
		if (!asleep_scenario(argv[i], state_names, ST_COUNT, op_names, OP_COUNT, &s, &o, &on_handle) ||
		    n_scen == (int)(sizeof(scen) / sizeof(scen[0]))) {
			fprintf(stderr, "unknown scenario %s\n", argv[i]);
			exit(2);
		}
		scen[n_scen++] = (struct scenario){(enum state)s, (enum op)o, on_handle};
	}
}

int main(int argc, char **argv)
{
	int status = 1, passed = 0, i;
	pid_t pid;
	char x = 0;
	char name[64] = "";

	signal(SIGPIPE, SIG_IGN);
	port = argc > 1 ? argv[1] : "13950";
	parse(argc, argv);
	if (n_scen == 0) {
		fprintf(stderr, "usage: %s PORT all | STATE:OP[:sleep] ...\n", argv[0]);
		return 2;
	}
	CHECK(pipe(a2b) == 0 && pipe(b2a) == 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		_exit(server());
	alarm(600);
	CHECK(asleep_get(&x, 1, b2a[0], 30) && x == 'L'); /* the server listens */
	amem = aligned_alloc(4096, MEM);
	CHECK(amem != NULL);
	for (i = 0; i < n_scen; i++) {
		int r = a_scenario(&scen[i], name);

		if (r < 0) {
			fprintf(stderr, "FAIL %s: the server is out of step; the rest is not run\n", name);
			break;
		}
		passed += r;
	}
	fprintf(stderr, "%d of %d scenarios passed\n", passed, n_scen);
	close(a2b[1]);
	if (passed != n_scen)
		kill(pid, SIGKILL);
	CHECK(waitpid(pid, &status, 0) == pid);
	return passed == n_scen && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
