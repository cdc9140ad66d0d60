/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QPs connected as on hardware, with ibv_modify_qp alone (no librdmacm): each side learns the
 * other's GID, QPN and first PSN (here: in one process; ibv_rc_pingpong and perftest without -R
 * exchange them over TCP), moves INIT -> RTR -> RTS, and the QPs talk RoCEv2 between two cards
 * with `wire = rocev2` (tests/unit/rdma/rocev2.conf: mlx5_0 on 127.77.1.1, mlx5_1 on
 * 127.77.2.1; mlx5_2 is a card on the default path).
 *
 * Checked: SEND / RECV, RDMA WRITE and READ of several MTUs with the peer's rkey, both atomics;
 * the counts the application gave (a retry count of 2 against a QPN nobody has ends in
 * IBV_WC_RETRY_EXC_ERR; max_dest_rd_atomic 0 refuses READs; qp_access_flags, also changed in
 * RTS); a QP moved to ERR flushes its receives; and each refusal, with its errno and a log line
 * naming the fix: a missing attribute, no GRH or a GID that is not IPv4-mapped, QPN 1, a
 * transition the kernel refuses, a receive in RESET, a send before RTS and SQD (EOPNOTSUPP); RESET
 * after connecting, or after ERR, and connecting again (to the same peer or another), and a card on the default path (EOPNOTSUPP). And ibv_create_qp_ex, perftest's way to a
 * QP with the ibv_wr_* interface, and ibv_create_cq_ex with ibv_start_poll and ibv_wc_read_*. And SGEs
 * checked against their lkeys (IBV_WC_LOC_PROT_ERR).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "doca_log.h"
#include "log_test.h"
#include "test.h"
#include "thread_switches.h"

#define BUF_LEN 65536

static FILE *sdk_log;

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	union ibv_gid gid;
	uint32_t psn;
};

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	for (int i = 0; list != NULL && list[i] != NULL; i++)
		if (strcmp(ibv_get_device_name(list[i]), name) == 0)
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

static void side_open(struct side *s, const char *dev, uint32_t psn)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1},
	};

	memset(s, 0, sizeof(*s));
	s->ctx = open_dev(dev);
	CHECK(s->ctx != NULL);
	if (s->ctx == NULL)
		exit(EXIT_FAILURE);
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, 64, NULL, NULL, 0);
	CHECK(s->pd != NULL && s->cq != NULL);
	qa.send_cq = qa.recv_cq = s->cq;
	s->qp = ibv_create_qp(s->pd, &qa);
	CHECK(s->qp != NULL);
	s->buf = aligned_alloc(4096, BUF_LEN);
	memset(s->buf, 0, BUF_LEN);
	s->mr = ibv_reg_mr(s->pd, s->buf, BUF_LEN,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);
	CHECK(s->mr != NULL);
	CHECK(ibv_query_gid(s->ctx, 1, 0, &s->gid) == 0);
	s->psn = psn;
}

static void side_close(struct side *s)
{
	CHECK(s->qp == NULL || ibv_destroy_qp(s->qp) == 0);
	CHECK(ibv_dereg_mr(s->mr) == 0);
	CHECK(ibv_destroy_cq(s->cq) == 0);
	CHECK(ibv_dealloc_pd(s->pd) == 0);
	CHECK(ibv_close_device(s->ctx) == 0);
	free(s->buf);
}

static int to_init(struct side *s)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC,
	};

	return ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

/* What ibv_rc_pingpong gives for RTR; the caller may change it. */
static void rtr_attr(struct ibv_qp_attr *a, const struct side *peer)
{
	memset(a, 0, sizeof(*a));
	a->qp_state = IBV_QPS_RTR;
	a->path_mtu = IBV_MTU_1024;
	a->dest_qp_num = peer->qp->qp_num;
	a->rq_psn = peer->psn;
	a->max_dest_rd_atomic = 4;
	a->min_rnr_timer = 12;
	a->ah_attr.is_global = 1;
	a->ah_attr.grh.dgid = peer->gid;
	a->ah_attr.grh.hop_limit = 1;
	a->ah_attr.grh.sgid_index = 0;
	a->ah_attr.port_num = 1;
}

#define RTR_MASK \
	(IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | \
	 IBV_QP_MIN_RNR_TIMER)
#define RTS_MASK \
	(IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)

static int to_rts(struct side *s, uint8_t timeout, uint8_t retry)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTS,
		.timeout = timeout,
		.retry_cnt = retry,
		.rnr_retry = 7,
		.sq_psn = s->psn,
		.max_rd_atomic = 4,
	};

	return ibv_modify_qp(s->qp, &a, RTS_MASK);
}

/* a and b: INIT, RTR to each other, RTS. */
static void connect_pair(struct side *a, struct side *b)
{
	struct ibv_qp_attr ra, rb;

	rtr_attr(&ra, b);
	rtr_attr(&rb, a);
	CHECK(to_init(a) == 0 && to_init(b) == 0);
	CHECK(ibv_modify_qp(a->qp, &ra, RTR_MASK) == 0);
	CHECK(ibv_modify_qp(b->qp, &rb, RTR_MASK) == 0);
	CHECK(to_rts(a, 14, 7) == 0 && to_rts(b, 14, 7) == 0);
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* The next completion of cq (10 s at most: a missing one fails the test, wc.status -1). */
static struct ibv_wc wait_wc(struct ibv_cq *cq)
{
	struct ibv_wc wc = {.status = (enum ibv_wc_status) - 1};
	uint64_t end = now_ms() + 10000;

	while (now_ms() < end)
		if (ibv_poll_cq(cq, 1, &wc) == 1)
			return wc;
	fprintf(stderr, "no completion in 10 s\n");
	return wc;
}

static int post(struct side *s, enum ibv_wr_opcode op, uint32_t off, uint32_t len, const struct side *peer,
		uint32_t peer_off)
{
	struct ibv_sge sge = {.addr = (uintptr_t)(s->buf + off), .length = len, .lkey = s->mr->lkey};
	struct ibv_send_wr wr = {.wr_id = op, .sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = IBV_SEND_SIGNALED};
	struct ibv_send_wr *bad = NULL;

	if (op == IBV_WR_ATOMIC_FETCH_AND_ADD || op == IBV_WR_ATOMIC_CMP_AND_SWP) {
		wr.wr.atomic.remote_addr = (uintptr_t)(peer->buf + peer_off);
		wr.wr.atomic.rkey = peer->mr->rkey;
	} else if (op != IBV_WR_SEND) {
		wr.wr.rdma.remote_addr = (uintptr_t)(peer->buf + peer_off);
		wr.wr.rdma.rkey = peer->mr->rkey;
	}
	return ibv_post_send(s->qp, &wr, &bad);
}

static void post_recv(struct side *s, uint32_t off, uint32_t len)
{
	struct ibv_sge sge = {.addr = (uintptr_t)(s->buf + off), .length = len, .lkey = s->mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = 7, .sg_list = &sge, .num_sge = 1}, *bad = NULL;

	CHECK(ibv_post_recv(s->qp, &wr, &bad) == 0);
}

static void fill(uint8_t *p, uint32_t len, uint8_t seed)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

/* An atomic of a's on b's 8 bytes at 512 (the old value lands at a's 520): that old value. */
static uint64_t atomic_op(struct side *a, enum ibv_wr_opcode op, struct side *b, uint64_t compare_add, uint64_t swap)
{
	struct ibv_sge sge = {.addr = (uintptr_t)(a->buf + 520), .length = 8, .lkey = a->mr->lkey};
	struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = IBV_SEND_SIGNALED};
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	uint64_t v;

	wr.wr.atomic.remote_addr = (uintptr_t)(b->buf + 512);
	wr.wr.atomic.rkey = b->mr->rkey;
	wr.wr.atomic.compare_add = compare_add;
	wr.wr.atomic.swap = swap;
	CHECK(ibv_post_send(a->qp, &wr, &bad) == 0);
	wc = wait_wc(a->cq);
	CHECK(wc.status == IBV_WC_SUCCESS &&
	      wc.opcode == (op == IBV_WR_ATOMIC_FETCH_AND_ADD ? IBV_WC_FETCH_ADD : IBV_WC_COMP_SWAP));
	memcpy(&v, a->buf + 520, 8);
	return v;
}

static void test_traffic(void)
{
	struct side a, b;
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;
	struct ibv_wc wc;
	uint64_t v;

	side_open(&a, "mlx5_0", 0x123456);
	side_open(&b, "mlx5_1", 0xfffff0); /* wraps past 2^24 within the first messages */
	{
		struct ibv_qp_attr ra, rb;

		rtr_attr(&ra, &b);
		rtr_attr(&rb, &a);
		CHECK(to_init(&a) == 0 && to_init(&b) == 0);
		CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == 0 && ibv_modify_qp(b.qp, &rb, RTR_MASK) == 0);
		CHECK(to_rts(&a, 13, 6) == 0 && to_rts(&b, 14, 7) == 0);
	}
	CHECK(ibv_query_qp(a.qp, &qa, IBV_QP_STATE, &qi) == 0);
	CHECK(qa.qp_state == IBV_QPS_RTS && qa.dest_qp_num == b.qp->qp_num && qa.timeout == 13 && qa.retry_cnt == 6);
	CHECK(qa.sq_psn == 0x123456 && qa.rq_psn == 0xfffff0);

	/* SEND of 3000 bytes (three packets at MTU 1024) into a posted receive */
	post_recv(&b, 0, 4096);
	fill(a.buf, 3000, 1);
	CHECK(post(&a, IBV_WR_SEND, 0, 3000, &b, 0) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_SEND);
	wc = wait_wc(b.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV && wc.byte_len == 3000 && wc.wr_id == 7);
	CHECK(wc.qp_num == b.qp->qp_num);
	CHECK(memcmp(a.buf, b.buf, 3000) == 0);

	/* RDMA WRITE and READ of 8 KiB with the peer's rkey as it gave it */
	fill(a.buf + 8192, 8192, 3);
	CHECK(post(&a, IBV_WR_RDMA_WRITE, 8192, 8192, &b, 16384) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RDMA_WRITE);
	CHECK(memcmp(a.buf + 8192, b.buf + 16384, 8192) == 0);
	fill(b.buf + 32768, 8192, 5);
	CHECK(post(&a, IBV_WR_RDMA_READ, 32768, 8192, &b, 32768) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RDMA_READ);
	CHECK(memcmp(a.buf + 32768, b.buf + 32768, 8192) == 0);

	/* the atomics: fetch-add, then compare-and-swap on the result */
	v = 40;
	memcpy(b.buf + 512, &v, 8);
	CHECK(atomic_op(&a, IBV_WR_ATOMIC_FETCH_AND_ADD, &b, 2, 0) == 40);
	CHECK(atomic_op(&a, IBV_WR_ATOMIC_CMP_AND_SWP, &b, 42, 99) == 42);
	memcpy(&v, b.buf + 512, 8);
	CHECK(v == 99);

	/* the other way: b sends to a */
	post_recv(&a, 60000, 100);
	CHECK(post(&b, IBV_WR_SEND, 0, 100, &a, 0) == 0);
	wc = wait_wc(b.cq);
	CHECK(wc.status == IBV_WC_SUCCESS);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.byte_len == 100 && memcmp(a.buf + 60000, b.buf, 100) == 0);

	/* to ERR: a posted receive is flushed */
	post_recv(&b, 0, 64);
	qa.qp_state = IBV_QPS_ERR;
	CHECK(ibv_modify_qp(b.qp, &qa, IBV_QP_STATE) == 0);
	wc = wait_wc(b.cq);
	CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && wc.wr_id == 7);
	/* work posted in error completes flushed (unsignaled too), as on hardware */
	{
		struct ibv_sge sge = {.addr = (uintptr_t)b.buf, .length = 8, .lkey = b.mr->lkey};
		struct ibv_send_wr sw = {.wr_id = 21, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND}, *sbad = NULL;
		struct ibv_recv_wr rw = {.wr_id = 22, .sg_list = &sge, .num_sge = 1}, *rbad = NULL;

		CHECK(ibv_post_send(b.qp, &sw, &sbad) == 0);
		CHECK(ibv_post_recv(b.qp, &rw, &rbad) == 0);
		wc = wait_wc(b.cq);
		CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && wc.wr_id == 21);
		wc = wait_wc(b.cq);
		CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && wc.wr_id == 22);
	}
	side_close(&a);
	side_close(&b);
}

/*
 * The application's counts: retry_cnt 2 at a 4 ms ACK timeout against a QPN nobody has. The QP
 * is in error then: what it held and what is posted to it completes flushed.
 */
static void test_retry_count(void)
{
	struct side a, b;
	struct ibv_qp_attr ra;
	struct ibv_wc wc;
	uint64_t t0;

	side_open(&a, "mlx5_0", 1);
	side_open(&b, "mlx5_1", 2);
	rtr_attr(&ra, &b);
	ra.dest_qp_num = 0xabcde; /* b's card, no such QP: its port drops the packets */
	CHECK(to_init(&a) == 0);
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == 0);
	CHECK(to_rts(&a, 10, 2) == 0);
	post_recv(&a, 0, 64);
	t0 = now_ms();
	CHECK(post(&a, IBV_WR_SEND, 0, 16, &b, 0) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_RETRY_EXC_ERR);
	CHECK(now_ms() - t0 < 5000); /* not the 10 s after which a silent peer is given up anyway */
	/* the QP is in error: the receive posted before is flushed, then a WRITE posted now */
	CHECK(post(&a, IBV_WR_RDMA_WRITE, 0, 16, &b, 0) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && wc.wr_id == 7);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && wc.wr_id == IBV_WR_RDMA_WRITE && wc.opcode == IBV_WC_RDMA_WRITE);
	side_close(&a);
	side_close(&b);
}

/*
 * A peer that stops answering with retries left (timeout 16: 268 ms a try, 7 retries): the soft
 * NIC gives it up once it has been silent for SOFTDOCA_ROCE_DEAD_MS (1000 here, set by
 * meson.build: the library reads it when a QP opens), and its log line names the peer by its
 * address (a QP connected by GID has no softdoca process to name; it said "process 0").
 */
static void test_silent_peer(void)
{
	struct side a, b;
	struct ibv_qp_attr ra;
	struct ibv_wc wc;

	side_open(&a, "mlx5_0", 11);
	side_open(&b, "mlx5_1", 12);
	rtr_attr(&ra, &b);
	ra.dest_qp_num = 0xabcdf; /* nobody: its packets are dropped, nothing is ever heard */
	CHECK(to_init(&a) == 0);
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == 0);
	CHECK(to_rts(&a, 16, 7) == 0);
	CHECK(post(&a, IBV_WR_RDMA_WRITE, 0, 16, &b, 0) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_RETRY_EXC_ERR); /* as hardware says of a peer gone silent */
	CHECK(log_take(sdk_log, "the peer at 127.77.2.1 (QP 0x0abcdf) has not answered for 1000 ms"));
	side_close(&a);
	side_close(&b);
}

/* max_dest_rd_atomic 0: the responder serves no READ. */
static void test_no_read_resources(void)
{
	struct side a, b;
	struct ibv_qp_attr ra, rb;
	struct ibv_wc wc;

	side_open(&a, "mlx5_0", 10);
	side_open(&b, "mlx5_1", 20);
	rtr_attr(&ra, &b);
	rtr_attr(&rb, &a);
	rb.max_dest_rd_atomic = 0;
	CHECK(to_init(&a) == 0 && to_init(&b) == 0);
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == 0 && ibv_modify_qp(b.qp, &rb, RTR_MASK) == 0);
	CHECK(to_rts(&a, 14, 7) == 0 && to_rts(&b, 14, 7) == 0);
	CHECK(post(&a, IBV_WR_RDMA_READ, 0, 64, &b, 0) == 0);
	wc = wait_wc(a.cq);
	/* the NAK "invalid request", as rxe's requester reports it */
	CHECK(wc.status == IBV_WC_REM_INV_REQ_ERR);
	side_close(&a);
	side_close(&b);
}

/* a and b connected, b's QP with only remote READ from INIT on; b stays RTR if !b_rts */
static void connect_read_only(struct side *a, struct side *b, bool b_rts)
{
	struct ibv_qp_attr ra, rb;
	struct ibv_qp_attr in = {.qp_state = IBV_QPS_INIT, .port_num = 1, .qp_access_flags = IBV_ACCESS_REMOTE_READ};

	rtr_attr(&ra, b);
	rtr_attr(&rb, a);
	CHECK(to_init(a) == 0);
	CHECK(ibv_modify_qp(b->qp, &in, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0);
	CHECK(ibv_modify_qp(a->qp, &ra, RTR_MASK) == 0 && ibv_modify_qp(b->qp, &rb, RTR_MASK) == 0);
	CHECK(to_rts(a, 14, 7) == 0);
	if (b_rts)
		CHECK(to_rts(b, 14, 7) == 0);
}

/* One 64-byte READ or WRITE of a's from / into b's buffer: its completion status. */
static enum ibv_wc_status rdma_op(struct side *a, enum ibv_wr_opcode op, struct side *b)
{
	CHECK(post(a, op, 0, 64, b, 0) == 0);
	return wait_wc(a->cq).status;
}

/* qp_access_flags, as rxe enforces them: a right the QP lacks gets NAK "remote access" */
static void test_qp_access(void)
{
	struct side a, b;
	struct ibv_qp_attr up = {.qp_state = IBV_QPS_RTS};

	/* the rights given at INIT hold from RTR on (a responder needs no RTS) */
	side_open(&a, "mlx5_0", 3);
	side_open(&b, "mlx5_1", 4);
	connect_read_only(&a, &b, false);
	CHECK(rdma_op(&a, IBV_WR_RDMA_READ, &b) == IBV_WC_SUCCESS);
	CHECK(rdma_op(&a, IBV_WR_RDMA_WRITE, &b) == IBV_WC_REM_ACCESS_ERR);
	side_close(&a);
	side_close(&b);

	side_open(&a, "mlx5_0", 5);
	side_open(&b, "mlx5_1", 6);
	connect_read_only(&a, &b, true);
	/* b's QP lets READs in; a WRITE only once RTS -> RTS added the right */
	CHECK(rdma_op(&a, IBV_WR_RDMA_READ, &b) == IBV_WC_SUCCESS);
	up.qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	CHECK(ibv_modify_qp(b.qp, &up, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS) == 0);
	CHECK(rdma_op(&a, IBV_WR_RDMA_WRITE, &b) == IBV_WC_SUCCESS);
	/* and without it again, by the rights alone (no state in the mask): the WRITE is refused
	 * (the requester's QP is in error after it) */
	up.qp_access_flags = IBV_ACCESS_REMOTE_READ;
	CHECK(ibv_modify_qp(b.qp, &up, IBV_QP_ACCESS_FLAGS) == 0);
	CHECK(rdma_op(&a, IBV_WR_RDMA_WRITE, &b) == IBV_WC_REM_ACCESS_ERR);
	side_close(&a);
	side_close(&b);
}

static void test_refusals(void)
{
	struct side a, b, st;
	struct ibv_qp_attr ra;
	struct ibv_send_wr *bad;
	struct ibv_sge sge;
	struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND};

	side_open(&a, "mlx5_0", 1);
	side_open(&b, "mlx5_1", 2);
	rtr_attr(&ra, &b);

	/* no receive in RESET; RTR straight from RESET, RTS from INIT */
	{
		struct ibv_sge rs = {.addr = (uintptr_t)a.buf, .length = 8, .lkey = a.mr->lkey};
		struct ibv_recv_wr rw = {.sg_list = &rs, .num_sge = 1}, *rbad = NULL;

		CHECK(ibv_post_recv(a.qp, &rw, &rbad) == EINVAL && rbad == &rw);
	}
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == EINVAL);
	CHECK(log_take(sdk_log, "cannot go from RESET to RTR"));
	CHECK(to_init(&a) == 0);
	CHECK(to_rts(&a, 14, 7) == EINVAL);
	CHECK(log_take(sdk_log, "cannot go from INIT to RTS"));

	/* an attribute missing, no GRH, a GID that is no IPv4-mapped one, QPN 1, no IBV_MTU_* value */
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK & ~IBV_QP_RQ_PSN) == EINVAL);
	CHECK(log_take(sdk_log, "IBV_QP_RQ_PSN"));
	ra.ah_attr.is_global = 0;
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == EINVAL);
	CHECK(log_take(sdk_log, "is_global"));
	ra.ah_attr.is_global = 1;
	ra.ah_attr.grh.dgid.raw[0] = 0xfe; /* fe80:: ... */
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == EINVAL);
	CHECK(log_take(sdk_log, "IPv4-mapped"));
	ra.ah_attr.grh.dgid = b.gid;
	ra.dest_qp_num = 1;
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == EINVAL);
	CHECK(log_take(sdk_log, "QP number"));
	ra.dest_qp_num = b.qp->qp_num;
	ra.path_mtu = (enum ibv_mtu)9;
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == EINVAL);
	CHECK(log_take(sdk_log, "IBV_MTU_"));
	ra.path_mtu = IBV_MTU_1024;

	/* in INIT a send is refused (it would leave at RTR with no first PSN yet) */
	sge = (struct ibv_sge){.addr = (uintptr_t)a.buf, .length = 8, .lkey = a.mr->lkey};
	CHECK(ibv_post_send(a.qp, &wr, &bad) == EINVAL && bad == &wr);
	/* RTR now: it receives, but sends only once RTS */
	CHECK(ibv_modify_qp(a.qp, &ra, RTR_MASK) == 0);
	CHECK(ibv_post_send(a.qp, &wr, &bad) == EINVAL && bad == &wr);
	CHECK(to_rts(&a, 14, 7) == 0);
	/* no way back but to ERR or RESET (test_reset), no SQD */
	{
		struct ibv_qp_attr st = {.qp_state = IBV_QPS_INIT};

		CHECK(ibv_modify_qp(a.qp, &st, IBV_QP_STATE) == EINVAL);
		CHECK(log_take(sdk_log, "cannot go from RTS to INIT"));
		st.qp_state = IBV_QPS_SQD;
		CHECK(ibv_modify_qp(a.qp, &st, IBV_QP_STATE) == EOPNOTSUPP);
		CHECK(log_take(sdk_log, "SQD"));
	}

	/* a card of the default path cannot name a peer by GID and QPN */
	side_open(&st, "mlx5_2", 3);
	rtr_attr(&ra, &b);
	CHECK(to_init(&st) == 0);
	CHECK(ibv_modify_qp(st.qp, &ra, RTR_MASK) == EOPNOTSUPP);
	CHECK(log_take(sdk_log, "wire = rocev2"));
	side_close(&st);
	side_close(&a);
	side_close(&b);
}

/*
 * ibv_create_qp_ex (an inline of verbs.h, through the extended context): a QP with the ibv_wr_*
 * interface, as perftest makes by default, connected by ibv_modify_qp; an extension the soft NIC
 * has not is refused.
 */
static void test_create_qp_ex(void)
{
	struct side a, b;
	struct ibv_qp_init_attr_ex xa = {
		.qp_type = IBV_QPT_RC,
		.cap = {.max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1},
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE,
	};
	struct ibv_qp_ex *qx;
	struct ibv_wc wc;

	side_open(&a, "mlx5_0", 100);
	side_open(&b, "mlx5_1", 200);
	CHECK(ibv_destroy_qp(a.qp) == 0);
	xa.pd = a.pd;
	xa.send_cq = xa.recv_cq = a.cq;
	xa.comp_mask |= IBV_QP_INIT_ATTR_CREATE_FLAGS;
	errno = 0;
	CHECK(ibv_create_qp_ex(a.ctx, &xa) == NULL && errno == EOPNOTSUPP);
	CHECK(log_take(sdk_log, "comp_mask"));
	xa.comp_mask &= ~(uint32_t)IBV_QP_INIT_ATTR_CREATE_FLAGS;
	a.qp = ibv_create_qp_ex(a.ctx, &xa);
	CHECK(a.qp != NULL);
	if (a.qp == NULL)
		return;
	qx = ibv_qp_to_qp_ex(a.qp);
	CHECK(qx != NULL);
	connect_pair(&a, &b);
	post_recv(&b, 0, 256);
	fill(a.buf, 200, 9);
	ibv_wr_start(qx);
	qx->wr_id = 5;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(qx);
	ibv_wr_set_sge(qx, a.mr->lkey, (uintptr_t)a.buf, 200);
	CHECK(ibv_wr_complete(qx) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.wr_id == 5);
	wc = wait_wc(b.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.byte_len == 200 && memcmp(a.buf, b.buf, 200) == 0);
	side_close(&a);
	side_close(&b);
}

struct poller {
	struct ibv_cq_ex *cx;
	_Atomic long tid;
	_Atomic bool back;
	int rc;
	uint64_t wr_id;
	uint32_t len;
};

/* A second thread's start_poll: it waits for the CQ's poll lock while the first holds it. */
static void *second_poll(void *arg)
{
	struct poller *p = arg;
	struct ibv_poll_cq_attr pa = {0};

	p->tid = syscall(SYS_gettid);
	p->rc = ibv_start_poll(p->cx, &pa);
	if (p->rc == 0) {
		p->wr_id = p->cx->wr_id;
		p->len = ibv_wc_read_byte_len(p->cx);
		ibv_end_poll(p->cx);
	}
	p->back = true;
	return NULL;
}

/* True once thread tid sleeps on a lock (futex). */
static bool asleep_on_lock(long tid)
{
	return task_syscall(tid) == SYS_futex;
}

/* The first completion of cx, started (10 s at most): start_poll's result. */
static int start_poll_wait(struct ibv_cq_ex *cx)
{
	struct ibv_poll_cq_attr pa = {0};
	uint64_t end = now_ms() + 10000;
	int r;

	while ((r = ibv_start_poll(cx, &pa)) == ENOENT && now_ms() < end)
		;
	return r;
}

/* wr sent twice by a (wr_id and length first id1 / len1, then id2 / len2), both completed. */
static void send_two(struct side *a, struct ibv_send_wr *wr, uint64_t id1, uint32_t len1, uint64_t id2, uint32_t len2)
{
	struct ibv_send_wr *bad;

	wr->wr_id = id1;
	wr->sg_list->length = len1;
	CHECK(ibv_post_send(a->qp, wr, &bad) == 0);
	wr->wr_id = id2;
	wr->sg_list->length = len2;
	CHECK(ibv_post_send(a->qp, wr, &bad) == 0);
	CHECK(wait_wc(a->cq).status == IBV_WC_SUCCESS && wait_wc(a->cq).status == IBV_WC_SUCCESS);
}

/*
 * ibv_create_cq_ex (an inline of verbs.h, through the extended context), perftest's first
 * choice: completions read with ibv_start_poll / ibv_next_poll / ibv_wc_read_*, and through
 * ibv_poll_cq on ibv_cq_ex_to_cq as well; a completion timestamp is refused as on rdma_rxe.
 */
static void test_create_cq_ex(void)
{
	struct ibv_cq_init_attr_ex ca = {.cqe = 32, .wc_flags = IBV_WC_STANDARD_FLAGS,
					 .comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
					 .flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN};
	struct ibv_poll_cq_attr pa = {0};
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	struct ibv_cq_ex *cx;
	struct side a, b;
	uint64_t end;
	int r;

	side_open(&a, "mlx5_0", 300);
	side_open(&b, "mlx5_1", 400);
	ca.wc_flags |= IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	errno = 0;
	CHECK(ibv_create_cq_ex(b.ctx, &ca) == NULL && errno == EOPNOTSUPP);
	CHECK(log_take(sdk_log, "timestamps"));
	ca.wc_flags &= ~(uint64_t)IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	cx = ibv_create_cq_ex(b.ctx, &ca);
	CHECK(cx != NULL);
	if (cx == NULL)
		return;
	/* b's QP completes into the extended CQ */
	{
		struct ibv_qp_init_attr qa = {
			.qp_type = IBV_QPT_RC,
			.cap = {.max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1},
		};

		CHECK(ibv_destroy_qp(b.qp) == 0);
		qa.send_cq = qa.recv_cq = ibv_cq_ex_to_cq(cx);
		b.qp = ibv_create_qp(b.pd, &qa);
		CHECK(b.qp != NULL);
	}
	connect_pair(&a, &b);
	CHECK(ibv_start_poll(cx, &pa) == ENOENT); /* nothing yet; no end_poll after ENOENT */
	post_recv(&b, 0, 512);
	post_recv(&b, 512, 512);
	fill(a.buf, 300, 3);
	sge = (struct ibv_sge){.addr = (uintptr_t)a.buf, .length = 300, .lkey = a.mr->lkey};
	wr = (struct ibv_send_wr){.wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND_WITH_IMM,
				  .send_flags = IBV_SEND_SIGNALED, .imm_data = htobe32(0xabcd1234)};
	CHECK(ibv_post_send(a.qp, &wr, &bad) == 0);
	wr.opcode = IBV_WR_SEND;
	wr.wr_id = 2;
	sge.length = 100;
	CHECK(ibv_post_send(a.qp, &wr, &bad) == 0);
	CHECK(wait_wc(a.cq).status == IBV_WC_SUCCESS && wait_wc(a.cq).status == IBV_WC_SUCCESS);
	r = start_poll_wait(cx);
	CHECK(r == 0);
	if (r == 0) {
		CHECK(cx->status == IBV_WC_SUCCESS && cx->wr_id == 7);
		CHECK(ibv_wc_read_opcode(cx) == IBV_WC_RECV && ibv_wc_read_byte_len(cx) == 300);
		CHECK((ibv_wc_read_wc_flags(cx) & IBV_WC_WITH_IMM) && be32toh(ibv_wc_read_imm_data(cx)) == 0xabcd1234);
		CHECK(ibv_wc_read_qp_num(cx) == b.qp->qp_num && ibv_wc_read_vendor_err(cx) == 0);
		/* RC: the source QP is the peer's (as mlx5 reports it); no SL, LID or path bits on RoCE */
		CHECK(ibv_wc_read_src_qp(cx) == a.qp->qp_num && ibv_wc_read_sl(cx) == 0 && ibv_wc_read_slid(cx) == 0 &&
		      ibv_wc_read_dlid_path_bits(cx) == 0);
		end = now_ms() + 10000;
		while ((r = ibv_next_poll(cx)) == ENOENT && now_ms() < end)
			;
		CHECK(r == 0 && cx->status == IBV_WC_SUCCESS && ibv_wc_read_byte_len(cx) == 100 &&
		      !(ibv_wc_read_wc_flags(cx) & IBV_WC_WITH_IMM));
		CHECK(ibv_next_poll(cx) == ENOENT);
		ibv_end_poll(cx);
	}
	CHECK(memcmp(a.buf, b.buf, 300) == 0);
	/* the same CQ through ibv_poll_cq */
	post_recv(&b, 0, 64);
	post_recv(&b, 64, 64);
	send_two(&a, &wr, 3, 64, 3, 1);
	for (int k = 0; k < 2; k++) {
		struct ibv_wc wc = wait_wc(ibv_cq_ex_to_cq(cx));

		CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV && wc.byte_len == (k == 0 ? 64u : 1u));
	}
	/* two threads: the second's start_poll waits for the first's end_poll, so the completion the
	 * first reads is not replaced under it */
	post_recv(&b, 0, 512);
	post_recv(&b, 512, 512);
	send_two(&a, &wr, 4, 40, 5, 50);
	r = start_poll_wait(cx);
	CHECK(r == 0);
	if (r == 0) {
		struct poller p = {.cx = cx};
		pthread_t t;

		CHECK(ibv_wc_read_byte_len(cx) == 40);
		CHECK(pthread_create(&t, NULL, second_poll, &p) == 0);
		end = now_ms() + 10000;
		while (now_ms() < end && !p.back && !(p.tid != 0 && asleep_on_lock(p.tid)))
			sched_yield();
		CHECK(!p.back && p.tid != 0 && asleep_on_lock(p.tid));
		CHECK(cx->status == IBV_WC_SUCCESS && ibv_wc_read_byte_len(cx) == 40); /* still ours */
		ibv_end_poll(cx);
		CHECK(pthread_join(t, NULL) == 0);
		CHECK(p.rc == 0 && p.len == 50);
	}
	/* an error completion: the receive flushed when the QP goes to ERR */
	post_recv(&b, 0, 64);
	{
		struct ibv_qp_attr ea = {.qp_state = IBV_QPS_ERR};

		CHECK(ibv_modify_qp(b.qp, &ea, IBV_QP_STATE) == 0);
	}
	r = start_poll_wait(cx);
	CHECK(r == 0);
	if (r == 0) {
		CHECK(cx->status == IBV_WC_WR_FLUSH_ERR && cx->wr_id == 7);
		/* its QP gone, the CQ is still not free to destroy: end_poll is owed */
		CHECK(ibv_destroy_qp(b.qp) == 0);
		b.qp = NULL;
		CHECK(ibv_destroy_cq(ibv_cq_ex_to_cq(cx)) == EBUSY);
		ibv_end_poll(cx);
	}
	CHECK(b.qp == NULL || ibv_destroy_qp(b.qp) == 0);
	b.qp = NULL;
	CHECK(ibv_destroy_cq(ibv_cq_ex_to_cq(cx)) == 0);
	CHECK(ibv_destroy_qp(a.qp) == 0);
	a.qp = NULL;
	side_close(&a);
	side_close(&b);
}

/* a SENDs 100 bytes (seed) to b's posted receive: both complete, the bytes arrive. */
static void send_check(struct side *a, struct side *b, uint8_t seed)
{
	struct ibv_wc wc;

	post_recv(b, 0, 4096);
	fill(a->buf + 8192, 100, seed);
	CHECK(post(a, IBV_WR_SEND, 8192, 100, b, 0) == 0);
	wc = wait_wc(a->cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_SEND);
	wc = wait_wc(b->cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV && wc.byte_len == 100);
	CHECK(wc.qp_num == b->qp->qp_num && wc.src_qp == a->qp->qp_num);
	CHECK(memcmp(a->buf + 8192, b->buf, 100) == 0);
}

static int to_reset(struct side *s)
{
	struct ibv_qp_attr a = {.qp_state = IBV_QPS_RESET};

	return ibv_modify_qp(s->qp, &a, IBV_QP_STATE);
}

/*
 * A connected QP back to RESET, as on hardware: a receive it held goes without a completion, it
 * keeps its QPN, and INIT -> RTR -> RTS connects it again, to the same peer (new PSNs) or another
 * one; from ERR too.
 */
static void test_reset(void)
{
	struct side a, b, c;
	struct ibv_qp_attr q;
	struct ibv_qp_init_attr qi;
	struct ibv_wc wc;
	uint32_t qpn_a, qpn_b;

	side_open(&a, "mlx5_0", 0x10);
	side_open(&b, "mlx5_1", 0x20);
	side_open(&c, "mlx5_1", 0x30);
	qpn_a = a.qp->qp_num;
	qpn_b = b.qp->qp_num;
	connect_pair(&a, &b);
	send_check(&a, &b, 1);

	/*
	 * RESET both with work in every state: a send completed but not polled (b's receive of it
	 * was), a's whole send queue waiting for receives b never posts (RNR retries for ever), a
	 * receive of a's never used. Nothing of it is reported, and a's send queue is free again.
	 */
	post_recv(&b, 0, 4096);
	CHECK(post(&a, IBV_WR_SEND, 8192, 100, &b, 0) == 0);
	wc = wait_wc(b.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV);
	for (int i = 0; i < 15; i++)
		CHECK(post(&a, IBV_WR_SEND, 8192, 100, &b, 0) == 0);
	post_recv(&a, 0, 64);
	CHECK(to_reset(&a) == 0 && to_reset(&b) == 0);
	CHECK(ibv_query_qp(a.qp, &q, IBV_QP_STATE, &qi) == 0 && q.qp_state == IBV_QPS_RESET);
	CHECK(a.qp->qp_num == qpn_a && b.qp->qp_num == qpn_b);
	CHECK(ibv_poll_cq(a.cq, 1, &wc) == 0 && ibv_poll_cq(b.cq, 1, &wc) == 0);

	/* the same pair again, with new first PSNs: a's 16 send slots are free (16 sends at once) */
	a.psn = 0xabcdef;
	b.psn = 0x00ff00;
	connect_pair(&a, &b);
	for (int i = 0; i < 16; i++)
		post_recv(&b, 0, 4096);
	for (int i = 0; i < 16; i++)
		CHECK(post(&a, IBV_WR_SEND, 8192, 100, &b, 0) == 0);
	for (int i = 0; i < 32; i++) {
		wc = wait_wc(i < 16 ? a.cq : b.cq);
		CHECK(wc.status == IBV_WC_SUCCESS && wc.qp_num == (i < 16 ? a.qp->qp_num : b.qp->qp_num));
	}
	send_check(&a, &b, 2);
	send_check(&b, &a, 3);
	CHECK(ibv_poll_cq(a.cq, 1, &wc) == 0 && ibv_poll_cq(b.cq, 1, &wc) == 0); /* nothing from before */

	/* from ERR: b's posted receive flushes then; RESET, and a connects to c instead */
	post_recv(&b, 0, 64);
	q.qp_state = IBV_QPS_ERR;
	CHECK(ibv_modify_qp(b.qp, &q, IBV_QP_STATE) == 0);
	wc = wait_wc(b.cq);
	CHECK(wc.status == IBV_WC_WR_FLUSH_ERR);
	CHECK(to_reset(&b) == 0 && to_reset(&a) == 0);
	connect_pair(&a, &c);
	send_check(&a, &c, 4);
	send_check(&c, &a, 5);
	/* and b, reset from ERR, serves again */
	CHECK(to_reset(&c) == 0 && to_reset(&a) == 0);
	connect_pair(&b, &a);
	send_check(&b, &a, 6);
	CHECK(a.qp->qp_num == qpn_a && b.qp->qp_num == qpn_b);
	side_close(&a);
	side_close(&b);
	side_close(&c);
}

/* A send WR of a's with one SGE as given (lkey included), signaled or not. */
static int post_sge(struct side *a, uint64_t wr_id, enum ibv_wr_opcode op, struct ibv_sge sge, const struct side *b,
		    uint32_t b_off, unsigned flags)
{
	struct ibv_send_wr wr = {.wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = flags};
	struct ibv_send_wr *bad = NULL;

	wr.wr.rdma.remote_addr = (uintptr_t)(b->buf + b_off);
	wr.wr.rdma.rkey = b->mr->rkey;
	return ibv_post_send(a->qp, &wr, &bad);
}

/*
 * Each SGE is checked against its lkey as a NIC checks it: one that names no memory region, lies
 * beyond its region, is in another PD's region, or (for a READ or an atomic, which write it) is
 * in a region without IBV_ACCESS_LOCAL_WRITE completes with IBV_WC_LOC_PROT_ERR, in its turn
 * after the work before it, touches nothing, and puts the QP in error: what was posted after it
 * completes flushed. The post itself succeeds, as on hardware. Inline data has no lkey.
 */
static void test_local_protection(void)
{
	enum { GOOD_SEND = 1, BAD_WRITE, AFTER, LATER, BAD_READ };
	struct side a, b;
	struct ibv_sge good, bad;
	struct ibv_wc wc;
	struct ibv_mr *ro;
	struct ibv_pd *other_pd;
	uint32_t gone_lkey = 0xdead;

	for (int round = 0; round < 4; round++) {
		side_open(&a, "mlx5_0", 0x1000 + (uint32_t)round);
		side_open(&b, "mlx5_1", 0x2000 + (uint32_t)round);
		connect_pair(&a, &b);
		other_pd = ibv_alloc_pd(a.ctx);
		ro = ibv_reg_mr(round == 3 ? other_pd : a.pd, a.buf + 4096, 4096, 0); /* (local read only) */
		CHECK(other_pd != NULL && ro != NULL);
		good = (struct ibv_sge){.addr = (uintptr_t)a.buf, .length = 64, .lkey = a.mr->lkey};
		switch (round) {
		case 0: /* an lkey no region has */
			bad = (struct ibv_sge){.addr = (uintptr_t)a.buf, .length = 64, .lkey = a.mr->lkey + 1000};
			break;
		case 1: /* past the end of its region */
			bad = (struct ibv_sge){.addr = (uintptr_t)(a.buf + BUF_LEN - 32), .length = 64, .lkey = a.mr->lkey};
			break;
		case 2: /* a READ into a region without local write */
			bad = (struct ibv_sge){.addr = (uintptr_t)(a.buf + 4096), .length = 64, .lkey = ro->lkey};
			break;
		default: /* a region of another PD */
			bad = (struct ibv_sge){.addr = (uintptr_t)(a.buf + 4096), .length = 64, .lkey = ro->lkey};
			break;
		}
		memset(b.buf + 1024, 0x5a, 64);
		fill(a.buf, 64, 9);
		post_recv(&b, 0, 64);
		CHECK(post_sge(&a, GOOD_SEND, IBV_WR_SEND, good, &b, 0, IBV_SEND_SIGNALED) == 0);
		CHECK(post_sge(&a, round == 2 ? BAD_READ : BAD_WRITE, round == 2 ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE,
			       bad, &b, 1024, 0) == 0); /* (unsignaled: an error completes all the same) */
		CHECK(post_sge(&a, AFTER, IBV_WR_SEND, good, &b, 0, 0) == 0);
		wc = wait_wc(a.cq);
		CHECK(wc.status == IBV_WC_SUCCESS && wc.wr_id == GOOD_SEND);
		wc = wait_wc(a.cq);
		CHECK(wc.status == IBV_WC_LOC_PROT_ERR && wc.wr_id == (round == 2 ? BAD_READ : BAD_WRITE));
		CHECK(wc.opcode == (round == 2 ? IBV_WC_RDMA_READ : IBV_WC_RDMA_WRITE) && wc.qp_num == a.qp->qp_num);
		wc = wait_wc(a.cq);
		CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && wc.wr_id == AFTER);
		/* the QP is in error: later work completes flushed */
		CHECK(post_sge(&a, LATER, IBV_WR_SEND, good, &b, 0, IBV_SEND_SIGNALED) == 0);
		wc = wait_wc(a.cq);
		CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && wc.wr_id == LATER);
		/* b got the good SEND, and nothing of the bad WRITE */
		wc = wait_wc(b.cq);
		CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV && memcmp(b.buf, a.buf, 64) == 0);
		for (int i = 0; i < 64; i++)
			CHECK(b.buf[1024 + i] == 0x5a);
		/* one line: what is wrong with the SGE, and the error */
		CHECK(strstr(log_read(sdk_log), round == 0   ? "under no registered memory region's lkey"
						: round == 1 ? "not inside its memory region"
						: round == 2 ? "without IBV_ACCESS_LOCAL_WRITE"
							     : "of another protection domain") != NULL);
		CHECK(log_take(sdk_log, "IBV_WC_LOC_PROT_ERR"));
		CHECK(ibv_dereg_mr(ro) == 0);
		CHECK(ibv_dealloc_pd(other_pd) == 0);
		side_close(&a);
		side_close(&b);
	}

	/*
	 * A receive under a wrong lkey: posted (as on hardware), and the message that lands in it
	 * completes it with IBV_WC_LOC_PROT_ERR with nothing written; the sender's WR fails (the
	 * responder's NAK), both QPs in error. A zero-length message writes nothing: it is taken.
	 * All three receives have wr_id 0 (as many programs post them): each is told by its place.
	 */
	side_open(&a, "mlx5_0", 0x5000);
	side_open(&b, "mlx5_1", 0x6000);
	connect_pair(&a, &b);
	{
		struct ibv_sge rs = {.addr = (uintptr_t)(b.buf + 2048), .length = 256, .lkey = b.mr->lkey ^ 0x4000};
		struct ibv_sge gs = {.addr = (uintptr_t)(b.buf + 4096), .length = 256, .lkey = b.mr->lkey};
		struct ibv_recv_wr rw = {.wr_id = 0, .sg_list = &rs, .num_sge = 1}, *rbad = NULL;
		struct ibv_recv_wr gw = {.wr_id = 0, .sg_list = &gs, .num_sge = 1};

		good = (struct ibv_sge){.addr = (uintptr_t)a.buf, .length = 0, .lkey = a.mr->lkey};
		CHECK(ibv_post_recv(b.qp, &rw, &rbad) == 0); /* bad: the empty message takes it */
		CHECK(log_take(sdk_log, "IBV_WC_LOC_PROT_ERR"));
		CHECK(ibv_post_recv(b.qp, &gw, &rbad) == 0); /* good */
		CHECK(ibv_post_recv(b.qp, &rw, &rbad) == 0); /* bad: the second 64-byte message fails it */
		CHECK(log_take(sdk_log, "IBV_WC_LOC_PROT_ERR"));
		memset(b.buf + 2048, 0x33, 256);
		CHECK(post_sge(&a, GOOD_SEND, IBV_WR_SEND, good, &b, 0, IBV_SEND_SIGNALED) == 0);
		wc = wait_wc(b.cq);
		CHECK(wc.status == IBV_WC_SUCCESS && wc.byte_len == 0);
		good.length = 64;
		CHECK(post_sge(&a, GOOD_SEND, IBV_WR_SEND, good, &b, 0, IBV_SEND_SIGNALED) == 0);
		wc = wait_wc(b.cq);
		CHECK(wc.status == IBV_WC_SUCCESS && wc.byte_len == 64 && memcmp(b.buf + 4096, a.buf, 64) == 0);
		for (int i = 0; i < 2; i++) {
			wc = wait_wc(a.cq);
			CHECK(wc.status == IBV_WC_SUCCESS && wc.wr_id == GOOD_SEND);
		}
		CHECK(post_sge(&a, AFTER, IBV_WR_SEND, good, &b, 0, IBV_SEND_SIGNALED) == 0);
		wc = wait_wc(b.cq);
		CHECK(wc.status == IBV_WC_LOC_PROT_ERR && wc.wr_id == 0 && wc.opcode == IBV_WC_RECV);
		wc = wait_wc(a.cq);
		CHECK(wc.status != IBV_WC_SUCCESS && wc.wr_id == AFTER);
		for (int i = 0; i < 256; i++)
			CHECK(b.buf[2048 + i] == 0x33);
	}
	side_close(&a);
	side_close(&b);

	/* the first WR alone, nothing in flight: its error comes at once; inline data has no lkey */
	side_open(&a, "mlx5_0", 0x3000);
	side_open(&b, "mlx5_1", 0x4000);
	connect_pair(&a, &b);
	/* among many regions (more than the lkey table's buckets), half of them deregistered: a
	 * live one's lkey is found (this SEND), a gone one's is not (the WRITE below) */
	{
		enum { NMR = 600 };
		struct ibv_mr **many = calloc(NMR, sizeof(*many));

		CHECK(many != NULL);
		for (int i = 0; many != NULL && i < NMR; i++) {
			many[i] = ibv_reg_mr(a.pd, a.buf + (i % 64) * 64, 64, IBV_ACCESS_LOCAL_WRITE);
			CHECK(many[i] != NULL);
		}
		if (many != NULL) {
			struct ibv_sge live = {.addr = (uintptr_t)(a.buf + (598 % 64) * 64), .length = 16, .lkey = many[598]->lkey};

			gone_lkey = many[599]->lkey;
			for (int i = 1; i < NMR; i += 2)
				CHECK(ibv_dereg_mr(many[i]) == 0);
			post_recv(&b, 0, 64);
			CHECK(post_sge(&a, GOOD_SEND, IBV_WR_SEND, live, &b, 0, IBV_SEND_SIGNALED) == 0);
			wc = wait_wc(a.cq);
			CHECK(wc.status == IBV_WC_SUCCESS && wc.wr_id == GOOD_SEND);
			wc = wait_wc(b.cq);
			CHECK(wc.status == IBV_WC_SUCCESS && wc.byte_len == 16);
			for (int i = 0; i < NMR; i += 2)
				CHECK(ibv_dereg_mr(many[i]) == 0);
		}
		free(many);
	}
	bad = (struct ibv_sge){.addr = (uintptr_t)a.buf, .length = 16, .lkey = 0xdead};
	post_recv(&b, 0, 64);
	CHECK(post_sge(&a, GOOD_SEND, IBV_WR_SEND, bad, &b, 0, IBV_SEND_SIGNALED | IBV_SEND_INLINE) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.wr_id == GOOD_SEND);
	wc = wait_wc(b.cq);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.byte_len == 16);
	bad.lkey = gone_lkey; /* a region deregistered above */
	CHECK(post_sge(&a, BAD_WRITE, IBV_WR_RDMA_WRITE, bad, &b, 1024, IBV_SEND_SIGNALED) == 0);
	wc = wait_wc(a.cq);
	CHECK(wc.status == IBV_WC_LOC_PROT_ERR && wc.wr_id == BAD_WRITE);
	CHECK(log_take(sdk_log, "under no registered memory region's lkey"));
	side_close(&a);
	side_close(&b);
}

int main(void)
{
	struct doca_log_backend *sdk;

	sdk_log = tmpfile();
	if (sdk_log == NULL || doca_log_backend_create_with_file_sdk(sdk_log, &sdk) != DOCA_SUCCESS) {
		fprintf(stderr, "no SDK log\n");
		return EXIT_FAILURE;
	}
	TEST_RUN(test_traffic);
	TEST_RUN(test_retry_count);
	TEST_RUN(test_silent_peer);
	TEST_RUN(test_no_read_resources);
	TEST_RUN(test_qp_access);
	TEST_RUN(test_refusals);
	TEST_RUN(test_create_qp_ex);
	TEST_RUN(test_create_cq_ex);
	TEST_RUN(test_local_protection);
	TEST_RUN(test_reset);
	TEST_EXIT();
}
