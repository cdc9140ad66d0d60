/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma over the soft NIC's RoCEv2 path (docs/rocev2.md): two processes, each on its own
 * card with `wire = rocev2` and its own 127.x address (rocev2.conf), connected out of band,
 * speaking RoCEv2 datagrams to UDP port 4791. All eleven task types (send, send_imm, receive,
 * write, write_imm, read, both atomics, the three remote sync event tasks), with byte checks on
 * both sides, a remote access refused by the target, and descriptors of the other
 * path refused both ways. ROCE_TEST_BIG sets the size of the large write and read.
 *
 * ROCE_TEST_MTU (a doca_mtu_size, 0 to 3) sets side A's doca_rdma_set_mtu and runs the two
 * processes alone: A's descriptor offers that path MTU, and every transfer between them runs at
 * it, B uncapped (a side that kept its interface's 4096 would NAK the other's shorter FIRST and
 * MIDDLE packets). B logs its qp's stats line, which must say it ran at A's cap.
 *
 * `test_rdma_roce a|b IBDEV` runs one side alone, talking to the other over stdin / stdout:
 * tests/integration/netns/run_netns.py (scenario roce_lossy) runs the two in two network
 * namespaces joined by a lossy veth.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "roce_test.h"
#include "softhw/base/export_desc.h"

#define MEM (4u << 20)
/* B's memory */
#define B_RECV0 0u
#define B_RECV1 16384u
#define B_WRITE 65536u
#define B_WRIMM 3500000u
#define B_ATOMIC 3600000u
#define B_LIST0 3620000u /* a receive of two pieces: 3000 + 8000 bytes */
#define B_LIST1 3625000u
#define B_WRITE2 3640000u /* a write from three pieces */
/* A's memory */
#define A_SEND 0u
#define A_SENDI 16384u
#define A_WRITE 65536u
#define A_READ 1900000u
#define A_WRIMM 3700000u
#define A_ATOMIC 3800000u
#define A_LIST 3900000u /* three pieces of 4000, 4000, 2000 bytes (8 KiB apart), then a read's two */
#define SEND_LEN 10000u
#define SENDI_LEN 100u
#define WRIMM_LEN 4000u
#define IMM 0x12345678u

static struct doca_buf_inventory *inv;
static size_t big = 1u << 20; /* the write and read */
static const char *ibdev_a = "mlx5_0", *ibdev_b = "mlx5_1";
static bool with_stream_card = true; /* rocev2.conf's third card (mlx5_2) is a stream card */

SIDE_CB(recv, receive)
SIDE_CB(send, send)
SIDE_CB(sendi, send_imm)
SIDE_CB(rd, read)
SIDE_CB(wr, write)
SIDE_CB(wri, write_imm)
SIDE_CB(cs, atomic_cmp_swp)
SIDE_CB(fa, atomic_fetch_add)
SIDE_CB(sg, remote_net_sync_event_get)
SIDE_CB(ss, remote_net_sync_event_notify_set)
SIDE_CB(sa, remote_net_sync_event_notify_add)

static uint8_t rnr_retry = 7; /* the peer posts its receives when it will */
static int a_mtu = -1;         /* ROCE_TEST_MTU: side A's doca_rdma_set_mtu */
static int next_mtu = -1;      /* side_up's, once */

static void side_up(struct side *s, struct doca_dev *dev, uint32_t perms)
{
	side_create(s, dev, perms, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | perms, MEM);
	CHECK_OK(doca_rdma_set_max_num_connections(s->rdma, 4));
	CHECK_OK(doca_rdma_set_max_send_buf_list_len(s->rdma, 4));
	CHECK_OK(doca_rdma_task_receive_set_dst_buf_list_len(s->rdma, 4));
	CHECK_OK(doca_rdma_set_rnr_retry_count(s->rdma, rnr_retry));
	CHECK_OK(doca_rdma_task_receive_set_conf(s->rdma, recv_ok, recv_err, 8));
	CHECK_OK(doca_rdma_task_send_set_conf(s->rdma, send_ok, send_err, 8));
	CHECK_OK(doca_rdma_task_send_imm_set_conf(s->rdma, sendi_ok, sendi_err, 8));
	CHECK_OK(doca_rdma_task_read_set_conf(s->rdma, rd_ok, rd_err, 8));
	CHECK_OK(doca_rdma_task_write_set_conf(s->rdma, wr_ok, wr_err, 8));
	CHECK_OK(doca_rdma_task_write_imm_set_conf(s->rdma, wri_ok, wri_err, 8));
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_set_conf(s->rdma, cs_ok, cs_err, 8));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_set_conf(s->rdma, fa_ok, fa_err, 8));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_get_set_conf(s->rdma, sg_ok, sg_err, 8));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_set_conf(s->rdma, ss_ok, ss_err, 8));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_add_set_conf(s->rdma, sa_ok, sa_err, 8));
	if (next_mtu >= 0)
		CHECK_OK(doca_rdma_set_mtu(s->rdma, (enum doca_mtu_size)next_mtu));
	next_mtu = -1;
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
}


/* Bytes [from, from + len) of the pattern at p. */
static void fill_at(char *p, size_t len, unsigned seed, size_t from)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (char)pattern(from + i, seed);
}

static bool is_pattern_at(const char *p, size_t len, unsigned seed, size_t from)
{
	for (size_t i = 0; i < len; i++)
		if ((uint8_t)p[i] != pattern(from + i, seed))
			return false;
	return true;
}

static struct doca_buf *lbuf(struct side *s, size_t off, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, s->mmap, s->mem + off, len, s->mem + off, data_len, &b));
	return b;
}

static struct doca_buf *rbuf(struct doca_mmap *m, char *base, size_t off, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, base + off, len, base + off, data_len, &b));
	return b;
}

/* ---- B: the responder (child) ---- */

static int run_b(int in, int out)
{
	struct doca_dev *dev = open_ibdev(ibdev_b);
	struct side b;
	struct doca_mmap *ro;
	struct doca_sync_event *ev;
	const uint8_t *evd;
	size_t evl;
	uint64_t now = 0;
	char *ro_mem = calloc(1, 4096);
	const void *d;
	size_t l;
	char blob[1024];
	struct doca_rdma_task_receive *r[4];
	struct doca_buf *dst[4], *piece;
	uint64_t v = 5;
	char ok;

	CHECK_OK(doca_buf_inventory_create(64, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_up(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC);
	memcpy(b.mem + B_ATOMIC, &v, 8);
	CHECK_OK(doca_rdma_export(b.rdma, &d, &l, &b.conn));
	put_blob(out, d, l);
	CHECK_OK(doca_mmap_export_rdma(b.mmap, dev, &d, &l));
	put_blob(out, d, l);
	/* memory peers may only read: a write into it is refused by this side's NIC */
	ro = make_mmap(dev, ro_mem, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	CHECK_OK(doca_mmap_export_rdma(ro, dev, &d, &l));
	put_blob(out, d, l);
	/* a sync event the peer sets, adds to and reads over the network */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &evd, &evl));
	put_blob(out, evd, evl);
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_rdma_connect(b.rdma, blob, l, b.conn));

	dst[0] = lbuf(&b, B_RECV0, 16384, 0);
	dst[1] = lbuf(&b, B_RECV1, 16384, 0);
	dst[2] = NULL; /* write with immediate: no bytes land in the receive */
	dst[3] = lbuf(&b, B_LIST0, 3000, 0); /* a list: the message is scattered over both */
	piece = lbuf(&b, B_LIST1, 8000, 0);
	CHECK_OK(doca_buf_chain_list(dst[3], piece));
	for (int i = 0; i < 4; i++) {
		CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst[i], (union doca_data){0}, &r[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r[i])));
	}
	CHECK(write(out, "R", 1) == 1);
	RUN_UNTIL(&b, b.ok + b.err == 4);
	CHECK(b.ok == 4);
	CHECK(doca_rdma_task_receive_get_result_opcode(r[0]) == DOCA_RDMA_OPCODE_RECV_SEND);
	CHECK(doca_rdma_task_receive_get_result_len(r[0]) == SEND_LEN);
	CHECK(doca_rdma_task_receive_get_result_rdma_connection(r[0]) == b.conn);
	CHECK(is_pattern(b.mem + B_RECV0, SEND_LEN, 1));
	CHECK(doca_rdma_task_receive_get_result_opcode(r[1]) == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM);
	CHECK(doca_rdma_task_receive_get_result_immediate_data(r[1]) == IMM);
	CHECK(doca_rdma_task_receive_get_result_len(r[1]) == SENDI_LEN);
	CHECK(is_pattern(b.mem + B_RECV1, SENDI_LEN, 2));
	CHECK(doca_rdma_task_receive_get_result_opcode(r[2]) == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM);
	CHECK(doca_rdma_task_receive_get_result_immediate_data(r[2]) == IMM + 1);
	CHECK(doca_rdma_task_receive_get_result_opcode(r[3]) == DOCA_RDMA_OPCODE_RECV_SEND);
	CHECK(doca_rdma_task_receive_get_result_len(r[3]) == SEND_LEN);
	CHECK(is_pattern_at(b.mem + B_LIST0, 3000, 5, 0) && is_pattern_at(b.mem + B_LIST1, SEND_LEN - 3000, 5, 3000));

	/* A says it is done: what its one-sided work left in our memory */
	CHECK(read(in, &ok, 1) == 1 && ok == 'Q');
	CHECK(is_pattern(b.mem + B_WRITE, big, 3));
	CHECK(is_pattern(b.mem + B_WRIMM, WRIMM_LEN, 4));
	CHECK(is_pattern(b.mem + B_WRITE2, SEND_LEN, 5));
	memcpy(&v, b.mem + B_ATOMIC, 8);
	CHECK(v == 12);
	CHECK(ro_mem[0] == 0); /* the refused write left nothing */
	CHECK_OK(doca_sync_event_get(ev, &now));
	CHECK(now == 0xD0CC); /* set 0xD0CA, then add 2 */
	CHECK(write(out, test_failures == 0 ? "y" : "n", 1) == 1);

	for (int i = 0; i < 4; i++) {
		doca_task_free(doca_rdma_task_receive_as_task(r[i]));
		if (dst[i] != NULL)
			CHECK_OK(doca_buf_dec_refcount(dst[i], NULL));
	}
	side_down(&b);
	CHECK_OK(doca_mmap_destroy(ro));
	free(ro_mem);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	return test_failures == 0 ? 0 : 1;
}

/* ---- A: the requester (parent) ---- */

/* A stream card's descriptor and a rocev2 card's do not mix, either way. */
static void check_wire_mismatch(struct side *a)
{
	struct doca_dev *sdev = open_ibdev("mlx5_2"); /* wire = stream */
	struct side s;
	struct doca_rdma_connection *ca, *cs;
	const void *da, *ds;
	size_t la, ls;

	side_up(&s, sdev, 0);
	CHECK_OK(doca_rdma_export(s.rdma, &ds, &ls, &cs));
	CHECK_OK(doca_rdma_export(a->rdma, &da, &la, &ca));
	CHECK_ERR(doca_rdma_connect(a->rdma, ds, ls, ca), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect(s.rdma, da, la, cs), DOCA_ERROR_INVALID_VALUE);
	side_down(&s);
	CHECK_OK(doca_dev_close(sdev));
}

static void run_a(int in, int out, pid_t child)
{
	struct doca_dev *dev = open_ibdev(ibdev_a);
	struct side a;
	char blob[1024];
	size_t l;
	const void *d;
	struct doca_mmap *rm, *rro;
	char *rbase, *robase;
	size_t rlen;
	struct doca_buf *src, *dst, *remote, *res;
	struct doca_rdma_task_send *ts;
	struct doca_rdma_task_send_imm *tsi;
	struct doca_rdma_task_write *tw;
	struct doca_rdma_task_read *tr;
	struct doca_rdma_task_write_imm *twi;
	struct doca_rdma_task_atomic_cmp_swp *tcs;
	struct doca_rdma_task_atomic_fetch_add *tfa;
	struct doca_sync_event_remote_net *rev;
	struct doca_rdma_task_remote_net_sync_event_notify_set *tss;
	struct doca_rdma_task_remote_net_sync_event_notify_add *tsa;
	struct doca_rdma_task_remote_net_sync_event_get *tsg;
	uint64_t v;
	size_t len = 0;
	char c = 0;
	int status = 0;
	double t0, t_write;

	CHECK_OK(doca_buf_inventory_create(64, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	next_mtu = a_mtu;
	side_up(&a, dev, 0);
	fill(a.mem + A_SEND, SEND_LEN, 1);
	fill(a.mem + A_SENDI, SENDI_LEN, 2);
	fill(a.mem + A_WRITE, big, 3);
	fill(a.mem + A_WRIMM, WRIMM_LEN, 4);

	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_rdma_export(a.rdma, &d, &len, &a.conn));
	/* the descriptor's path MTU (payload byte 133, lib/softhw/rnic/wire.c): at most the one asked
	 * for (less only where the interface allows less; on loopback, 4096, it is that one) */
	CHECK(a_mtu < 0 || (len > SOFTDOCA_DESC_HEADER_LEN + 133 &&
			    ((const uint8_t *)d)[SOFTDOCA_DESC_HEADER_LEN + 133] <= 8 + a_mtu));
	put_blob(out, d, len);
	CHECK_OK(doca_rdma_connect(a.rdma, blob, l, a.conn));
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_mmap_create_from_export(NULL, blob, l, dev, &rm));
	CHECK_OK(doca_mmap_get_memrange(rm, (void **)&rbase, &rlen));
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_mmap_create_from_export(NULL, blob, l, dev, &rro));
	CHECK_OK(doca_mmap_get_memrange(rro, (void **)&robase, &rlen));
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, (const uint8_t *)blob, l, &rev));
	CHECK(read(in, &c, 1) == 1 && c == 'R'); /* B's receives are posted */

	/* send: several packets (10 000 bytes at MTU 4096 on loopback, 1024 on the veth) */
	src = lbuf(&a, A_SEND, SEND_LEN, SEND_LEN);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &ts));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(ts)));
	RUN_UNTIL(&a, a.ok + a.err == 1);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));

	/* send with immediate */
	src = lbuf(&a, A_SENDI, SENDI_LEN, SENDI_LEN);
	CHECK_OK(doca_rdma_task_send_imm_allocate_init(a.rdma, a.conn, src, IMM, (union doca_data){0}, &tsi));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_imm_as_task(tsi)));
	RUN_UNTIL(&a, a.ok + a.err == 2);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));

	/* write, then read it back */
	src = lbuf(&a, A_WRITE, big, big);
	remote = rbuf(rm, rbase, B_WRITE, big, 0);
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, remote, (union doca_data){0}, &tw));
	t0 = now_s();
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(tw)));
	RUN_UNTIL(&a, a.ok + a.err == 3);
	t_write = now_s() - t0;
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	remote = rbuf(rm, rbase, B_WRITE, big, big);
	dst = lbuf(&a, A_READ, big, 0);
	CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, remote, dst, (union doca_data){0}, &tr));
	t0 = now_s();
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(tr)));
	RUN_UNTIL(&a, a.ok + a.err == 4);
	/* a figure, not a check (the machine is shared) */
	fprintf(stderr, "RoCEv2 over %s: write %zu bytes in %.1f ms (%.0f MB/s), read in %.1f ms (%.0f MB/s)\n",
		with_stream_card ? "loopback" : "the veth", big, t_write * 1e3, (double)big / t_write / 1e6,
		(now_s() - t0) * 1e3, (double)big / (now_s() - t0) / 1e6);
	CHECK(doca_rdma_task_read_get_result_len(tr) == big);
	CHECK_OK(doca_buf_get_data_len(dst, &len));
	CHECK(len == big && is_pattern(a.mem + A_READ, big, 3));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));

	/* write with immediate: lands in memory and completes B's third receive */
	src = lbuf(&a, A_WRIMM, WRIMM_LEN, WRIMM_LEN);
	remote = rbuf(rm, rbase, B_WRIMM, WRIMM_LEN, 0);
	CHECK_OK(doca_rdma_task_write_imm_allocate_init(a.rdma, a.conn, src, remote, IMM + 1, (union doca_data){0}, &twi));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_imm_as_task(twi)));
	RUN_UNTIL(&a, a.ok + a.err == 5);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));

	/* atomics on B's 5: compare-and-swap to 9, then add 3 */
	remote = rbuf(rm, rbase, B_ATOMIC, 8, 0);
	res = lbuf(&a, A_ATOMIC, 8, 0);
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, remote, res, 5, 9, (union doca_data){0}, &tcs));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(tcs)));
	RUN_UNTIL(&a, a.ok + a.err == 6);
	memcpy(&v, a.mem + A_ATOMIC, 8);
	CHECK(v == 5);
	CHECK_OK(doca_buf_reset_data_len(res));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, remote, res, 3, (union doca_data){0}, &tfa));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(tfa)));
	RUN_UNTIL(&a, a.ok + a.err == 7);
	memcpy(&v, a.mem + A_ATOMIC, 8);
	CHECK(v == 9);
	CHECK(a.ok == 7 && a.err == 0);
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	CHECK_OK(doca_buf_dec_refcount(res, NULL));

	/* remote sync event: notify set, notify add (old value back), get */
	v = 0xD0CA;
	memcpy(a.mem + A_ATOMIC, &v, 8);
	src = lbuf(&a, A_ATOMIC, 8, 8);
	res = lbuf(&a, A_ATOMIC + 64, 8, 0);
	dst = lbuf(&a, A_ATOMIC + 128, 8, 0);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(a.rdma, a.conn, rev, src,
									       (union doca_data){0}, &tss));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(tss)));
	RUN_UNTIL(&a, a.ok + a.err == 8);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(a.rdma, a.conn, rev, res, 2,
									       (union doca_data){0}, &tsa));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_add_as_task(tsa)));
	RUN_UNTIL(&a, a.ok + a.err == 9);
	memcpy(&v, a.mem + A_ATOMIC + 64, 8);
	CHECK(v == 0xD0CA);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_get_allocate_init(a.rdma, a.conn, rev, dst, (union doca_data){0},
									&tsg));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(tsg)));
	RUN_UNTIL(&a, a.ok + a.err == 10);
	memcpy(&v, a.mem + A_ATOMIC + 128, 8);
	CHECK(v == 0xD0CC);
	CHECK(doca_rdma_task_remote_net_sync_event_get_get_result_len(tsg) == 8);
	CHECK(a.ok == 10 && a.err == 0);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(res, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));

	/* buf lists: a send and a write from three pieces, a read into two */
	{
		struct doca_buf *l[3], *d2;
		const size_t at[3] = {0, 8192, 16384}, len3[3] = {4000, 4000, 2000};

		for (int i = 0; i < 3; i++) {
			fill_at(a.mem + A_LIST + at[i], len3[i], 5, (size_t)i * 4000);
			l[i] = lbuf(&a, A_LIST + at[i], len3[i], len3[i]);
			if (i > 0)
				CHECK_OK(doca_buf_chain_list(l[0], l[i]));
		}
		doca_rdma_task_send_set_src_buf(ts, l[0]);
		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(ts)));
		RUN_UNTIL(&a, a.ok + a.err == 11);
		remote = rbuf(rm, rbase, B_WRITE2, SEND_LEN, 0);
		doca_rdma_task_write_set_src_buf(tw, l[0]);
		doca_rdma_task_write_set_dst_buf(tw, remote);
		CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(tw)));
		RUN_UNTIL(&a, a.ok + a.err == 12);
		CHECK_OK(doca_buf_dec_refcount(remote, NULL));
		CHECK_OK(doca_buf_dec_refcount(l[0], NULL));
		remote = rbuf(rm, rbase, B_WRITE, 6000, 6000);
		dst = lbuf(&a, A_LIST + 32768, 2500, 0);
		d2 = lbuf(&a, A_LIST + 40960, 3500, 0);
		CHECK_OK(doca_buf_chain_list(dst, d2));
		doca_rdma_task_read_set_src_buf(tr, remote);
		doca_rdma_task_read_set_dst_buf(tr, dst);
		CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(tr)));
		RUN_UNTIL(&a, a.ok + a.err == 13);
		CHECK(a.ok == 13);
		CHECK(doca_rdma_task_read_get_result_len(tr) == 6000);
		CHECK(is_pattern_at(a.mem + A_LIST + 32768, 2500, 3, 0) && is_pattern_at(a.mem + A_LIST + 40960, 3500, 3, 2500));
		CHECK_OK(doca_buf_dec_refcount(remote, NULL));
		CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	}

	/*
	 * RDMA-CM to a port nobody listens on: B's NIC answers REJ, the client's failure callback.
	 * B's address: card rb's host.ipv4, or dpu.ipv4 in the DPU role, or the other namespace's
	 * (ROCE_TEST_PEER_IP, run_netns.py). An address where nobody answers would leave the REQ to
	 * its resends, about 77 s, as Linux's.
	 */
	{
		const char *role = getenv("SOFTDOCA_ROLE"), *peer = getenv("ROCE_TEST_PEER_IP");
		struct doca_rdma_addr *addr = NULL;

		if (peer == NULL)
			peer = role != NULL && strcmp(role, "dpu") == 0 ? "127.79.2.1" : "127.77.2.1";
		CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, peer, 13777, &addr));
		CHECK_OK(doca_rdma_connect_to_addr(a.rdma, addr, (union doca_data){.u64 = 7}));
		RUN_UNTIL(&a, a.fail == 1);
		CHECK_OK(doca_rdma_addr_destroy(addr));
	}

	if (with_stream_card)
		check_wire_mismatch(&a);

	/* a write into memory B exported read-only: B's NIC answers NAK remote access */
	src = lbuf(&a, A_WRITE, 64, 64);
	remote = rbuf(rro, robase, 0, 64, 0);
	doca_rdma_task_write_set_src_buf(tw, src);
	doca_rdma_task_write_set_dst_buf(tw, remote);
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(tw)));
	RUN_UNTIL(&a, a.err == 1);
	CHECK(a.last == DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));

	CHECK(write(out, "Q", 1) == 1);
	CHECK(read(in, &c, 1) == 1 && c == 'y'); /* B's checks of its memory */
	if (child > 0) {
		CHECK(waitpid(child, &status, 0) == child);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}

	doca_task_free(doca_rdma_task_send_as_task(ts));
	doca_task_free(doca_rdma_task_send_imm_as_task(tsi));
	doca_task_free(doca_rdma_task_write_as_task(tw));
	doca_task_free(doca_rdma_task_read_as_task(tr));
	doca_task_free(doca_rdma_task_write_imm_as_task(twi));
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(tcs));
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(tfa));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(tss));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_add_as_task(tsa));
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(tsg));
	CHECK_OK(doca_sync_event_remote_net_destroy(rev));
	CHECK_OK(doca_mmap_stop(rm));
	CHECK_OK(doca_mmap_destroy(rm));
	CHECK_OK(doca_mmap_stop(rro));
	CHECK_OK(doca_mmap_destroy(rro));
	side_down(&a);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
}

/* ROCE_TEST_MTU: B's stderr, where its qp's stats line says the path MTU its engine ran at */
static char b_log[64];

static int run_b_logged(int in, int out)
{
	int fd = open(b_log, O_WRONLY | O_APPEND);

	if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		return 1;
	close(fd);
	setenv("SOFTDOCA_ROCE_STATS", "1", 1);
	return run_b(in, out);
}

/* The path MTU of B's qp's stats lines (uncapped B runs at A's cap); 0: none found */
static unsigned b_path_mtu(void)
{
	FILE *f = fopen(b_log, "r");
	char line[1024];
	unsigned mtu = 0, m;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		const char *p = strstr(line, " stats: path_mtu ");

		if (p != NULL && sscanf(p, " stats: path_mtu %u", &m) == 1)
			mtu = mtu == 0 || mtu == m ? m : 1; /* (1: two qps disagree) */
		else
			fputs(line, stderr); /* B's own lines */
	}
	fclose(f);
	return mtu;
}

/* The sum of counter `name` over B's stats lines (qps' and its port's). */
static unsigned long long b_counter(const char *name)
{
	FILE *f = fopen(b_log, "r");
	char line[2048], key[64];
	unsigned long long sum = 0, v;

	snprintf(key, sizeof(key), " %s ", name);
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		const char *p = strstr(line, key);

		if (p != NULL && sscanf(p + strlen(key), "%llu", &v) == 1)
			sum += v;
	}
	if (f != NULL)
		fclose(f);
	return sum;
}

static void test_two_processes(void)
{
	int fd;

	if (a_mtu < 0) {
		run_two_processes(run_b, run_a);
		return;
	}
	snprintf(b_log, sizeof(b_log), "/tmp/softdoca-roce-mtu.XXXXXX");
	fd = mkstemp(b_log);
	CHECK(fd >= 0);
	close(fd);
	run_two_processes(run_b_logged, run_a);
	printf("side b's qp ran at a path MTU of %u bytes (side a capped at %u)\n", b_path_mtu(), 256u << a_mtu);
	CHECK(b_path_mtu() == 256u << a_mtu);
	if (getenv("ROCE_TEST_DROPS") != NULL) { /* rocev2_drop.conf: faults.drop on both cards */
		unsigned long long lost = b_counter("drop_fault"), naks = b_counter("nak_seq_sent"),
				   dups = b_counter("dup_requests"), resent = b_counter("retransmits");

		/* what B lost, A sent again: B saw the gaps (NAKs) and the requests again (duplicates) */
		printf("side b lost %llu datagrams on purpose (faults.drop); its qps sent %llu sequence NAKs, saw %llu "
		       "duplicate requests and retransmitted %llu packets of their own\n", lost, naks, dups, resent);
		CHECK(lost > 0 && naks + dups + resent > 0);
	}
	if (getenv("ROCE_TEST_DELAYS") != NULL) { /* rocev2_delay.conf: faults.delay and .jitter on both cards */
		unsigned long long held = b_counter("held_fault"), naks = b_counter("nak_seq_sent"),
				   dups = b_counter("dup_requests"), resent = b_counter("retransmits");

		printf("side b held %llu datagrams 1 to 3 ms on purpose (faults.delay, faults.jitter); its qps sent %llu "
		       "sequence NAKs, saw %llu duplicate requests and retransmitted %llu packets of their own\n",
		       held, naks, dups, resent);
		CHECK(held > 0 && naks + dups + resent > 0); /* late, out of order, and recovered */
	}
	unlink(b_log);
}

/*
 * The peer process dies after connecting: a send to it goes unanswered, and after
 * SOFTDOCA_ROCE_DEAD_MS (1.5 s here) of silence the connection is down: the send fails with
 * CONNECTION_ABORTED and the disconnection callback runs.
 */
static void test_peer_gone(void)
{
	int b2a[2];
	pid_t pid;
	char blob[1024];
	size_t l, la;
	const void *d;
	struct side a;
	struct doca_dev *dev;
	struct doca_buf *src;
	struct doca_rdma_task_send *ts;
	int status = 0;
	double t0;

	CHECK(pipe(b2a) == 0);
	pid = fork();
	if (pid == 0) {
		struct side b;

		close(b2a[0]);
		dev = open_ibdev(ibdev_b);
		side_up(&b, dev, 0);
		CHECK_OK(doca_rdma_export(b.rdma, &d, &l, &b.conn));
		put_blob(b2a[1], d, l);
		_exit(0); /* gone without a word */
	}
	close(b2a[1]);
	dev = open_ibdev(ibdev_a);
	CHECK_OK(doca_buf_inventory_create(8, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_up(&a, dev, 0);
	l = get_blob(b2a[0], blob, sizeof(blob));
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_OK(doca_rdma_export(a.rdma, &d, &la, &a.conn));
	CHECK_OK(doca_rdma_connect(a.rdma, blob, l, a.conn));
	src = lbuf(&a, 0, 64, 64);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &ts));
	t0 = now_s();
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(ts)));
	RUN_UNTIL(&a, a.err == 1 && a.disc == 1);
	CHECK(a.last == DOCA_ERROR_CONNECTION_ABORTED);
	CHECK(now_s() - t0 >= 1.4 && now_s() - t0 < 9); /* after the silence lasted, not the default 10 s */
	doca_task_free(doca_rdma_task_send_as_task(ts));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	side_down(&a);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	close(b2a[0]);
}

/*
 * B stops the mmap A reads while eight READs at a time go on, then overwrites its memory. Every
 * READ that succeeds holds B's bytes, or zeros for packets made after the end (a READ response
 * is copied from the export under its pin, and an export that ended reads as zeros); never
 * what B wrote after its stop returned. After it, READs fail, and neither process crashes or
 * hangs.
 */
#define XR_LEN (1u << 20)
#define XR_READ (64u << 10)

static int run_b_export_ends(int in, int out)
{
	struct doca_dev *dev = open_ibdev(ibdev_b);
	char *mem = malloc(XR_LEN), blob[1024], c = 0;
	struct doca_mmap *m;
	struct side b;
	const void *d;
	size_t l;

	CHECK(mem != NULL);
	memset(mem, 'A', XR_LEN);
	side_up(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ);
	m = make_mmap(dev, mem, XR_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	CHECK_OK(doca_rdma_export(b.rdma, &d, &l, &b.conn));
	put_blob(out, d, l);
	CHECK_OK(doca_mmap_export_rdma(m, dev, &d, &l));
	put_blob(out, d, l);
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_rdma_connect(b.rdma, blob, l, b.conn));
	CHECK(read(in, &c, 1) == 1 && c == 'G'); /* A's READs are under way: our NIC answers them */
	CHECK_OK(doca_mmap_stop(m));
	memset(mem, 'S', XR_LEN); /* no READ response may carry this */
	CHECK(write(out, "X", 1) == 1);
	CHECK(read(in, &c, 1) == 1 && c == 'Q');
	CHECK_OK(doca_mmap_destroy(m));
	free(mem);
	side_down(&b);
	CHECK_OK(doca_dev_close(dev));
	return test_failures == 0 ? 0 : 1;
}

/* A's READs in flight: idle, busy, done, failed */
#define XR_TASKS 8
enum { XR_IDLE, XR_BUSY, XR_DONE, XR_FAILED };
static int xr_state[XR_TASKS];
static doca_error_t xr_status;

static void xr_ok(struct doca_rdma_task_read *t, union doca_data td, union doca_data cd)
{
	(void)t;
	(void)cd;
	xr_state[td.u64] = XR_DONE;
}

static void xr_err(struct doca_rdma_task_read *t, union doca_data td, union doca_data cd)
{
	(void)cd;
	xr_status = doca_task_get_status(doca_rdma_task_read_as_task(t));
	xr_state[td.u64] = XR_FAILED;
}

static void run_a_export_ends(int in, int out, pid_t child)
{
	struct doca_dev *dev = open_ibdev(ibdev_a);
	struct side a;
	char blob[1024], c = 0;
	struct doca_mmap *rm;
	struct doca_buf *dst[XR_TASKS], *remote[XR_TASKS];
	struct doca_rdma_task_read *tr[XR_TASKS];
	unsigned long reads = 0, zeros = 0, secret = 0, failed = 0, turn = 0;
	const void *d;
	char *rbase;
	size_t l, rlen;
	bool told = false, ended = false, busy = true;
	int status = 0;
	double end = now_s() + 60;

	CHECK_OK(doca_buf_inventory_create(2 * XR_TASKS, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_create(&a, dev, 0, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, XR_TASKS * XR_READ);
	CHECK_OK(doca_rdma_task_read_set_conf(a.rdma, xr_ok, xr_err, XR_TASKS));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_rdma_export(a.rdma, &d, &rlen, &a.conn));
	put_blob(out, d, rlen);
	CHECK_OK(doca_rdma_connect(a.rdma, blob, l, a.conn));
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_mmap_create_from_export(NULL, blob, l, dev, &rm));
	CHECK_OK(doca_mmap_get_memrange(rm, (void **)&rbase, &rlen));
	for (unsigned k = 0; k < XR_TASKS; k++) {
		dst[k] = lbuf(&a, k * XR_READ, XR_READ, 0);
		remote[k] = rbuf(rm, rbase, 0, XR_LEN, XR_READ);
		CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, remote[k], dst[k], (union doca_data){.u64 = k},
							   &tr[k]));
		xr_state[k] = XR_IDLE;
	}
	/* READs in flight until they fail (B's stop takes the memory away from under them) */
	while (busy && test_failures == 0 && now_s() < end) {
		busy = false;
		for (unsigned k = 0; k < XR_TASKS; k++) {
			char *m = a.mem + k * XR_READ;

			if (xr_state[k] == XR_DONE) {
				reads++;
				for (size_t i = 0; i < XR_READ; i++) {
					zeros += m[i] == 0;
					secret += m[i] != 'A' && m[i] != 0;
				}
				xr_state[k] = failed == 0 ? XR_IDLE : XR_FAILED; /* (the qp is in error: flushed) */
			}
			if (xr_state[k] == XR_IDLE) {
				memset(m, '?', XR_READ);
				doca_buf_reset_data_len(dst[k]);
				CHECK_OK(doca_buf_set_data(remote[k], rbase + (turn++ % (XR_LEN / XR_READ)) * XR_READ, XR_READ));
				CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(tr[k])));
				xr_state[k] = XR_BUSY;
			}
			failed += xr_state[k] == XR_FAILED;
			busy |= xr_state[k] == XR_BUSY || failed == 0;
		}
		if (!told && reads >= 16) {
			CHECK(write(out, "G", 1) == 1);
			told = true;
		}
		if (told && !ended) {
			struct pollfd pfd = {.fd = in, .events = POLLIN};

			ended = poll(&pfd, 1, 0) == 1 && read(in, &c, 1) == 1 && c == 'X';
		}
		doca_pe_progress(a.pe);
	}
	printf("%lu READs of 64 KiB succeeded (%lu zero bytes, %lu of what B wrote after its stop); then %s\n",
	       reads, zeros, secret, failed > 0 ? doca_error_get_name(xr_status) : "no failure");
	CHECK(told && reads >= 16 && secret == 0);
	CHECK(failed > 0 && !busy); /* the READs after the end fail */
	if (!told) /* (failed early: B still goes on to its end) */
		CHECK(write(out, "G", 1) == 1);
	if (!ended)
		CHECK(read(in, &c, 1) == 1 && c == 'X');
	CHECK(write(out, "Q", 1) == 1);
	for (unsigned k = 0; k < XR_TASKS; k++) {
		doca_task_free(doca_rdma_task_read_as_task(tr[k]));
		CHECK_OK(doca_buf_dec_refcount(dst[k], NULL));
		CHECK_OK(doca_buf_dec_refcount(remote[k], NULL));
	}
	side_down(&a);
	CHECK_OK(doca_mmap_destroy(rm));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_read_export_ends(void)
{
	run_two_processes(run_b_export_ends, run_a_export_ends);
}

/*
 * No receive posted at the peer, and the sender's RNR retry count is 1: the peer's NIC answers
 * RNR NAKs, the send fails with AGAIN after the retry.
 */
static void test_rnr_exhausted(void)
{
	int a2b[2], b2a[2];
	pid_t pid;
	char blob[1024], c = 0;
	size_t l, la;
	const void *d;
	struct side a;
	struct doca_dev *dev;
	struct doca_buf *src;
	struct doca_rdma_task_send *ts;
	int status = 0;

	CHECK(pipe(a2b) == 0 && pipe(b2a) == 0);
	pid = fork();
	if (pid == 0) {
		struct side b;

		close(a2b[1]);
		close(b2a[0]);
		test_failures = 0;
		dev = open_ibdev(ibdev_b);
		side_up(&b, dev, 0);
		CHECK_OK(doca_rdma_export(b.rdma, &d, &l, &b.conn));
		put_blob(b2a[1], d, l);
		l = get_blob(a2b[0], blob, sizeof(blob));
		CHECK_OK(doca_rdma_connect(b.rdma, blob, l, b.conn));
		CHECK(write(b2a[1], "R", 1) == 1);
		CHECK(read(a2b[0], &c, 1) == 1 && c == 'Q'); /* no receive posted meanwhile */
		side_down(&b);
		CHECK_OK(doca_dev_close(dev));
		_exit(test_failures == 0 ? 0 : 1);
	}
	close(a2b[0]);
	close(b2a[1]);
	dev = open_ibdev(ibdev_a);
	CHECK_OK(doca_buf_inventory_create(8, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	rnr_retry = 1;
	side_up(&a, dev, 0);
	rnr_retry = 7;
	l = get_blob(b2a[0], blob, sizeof(blob));
	CHECK_OK(doca_rdma_export(a.rdma, &d, &la, &a.conn));
	put_blob(a2b[1], d, la);
	CHECK_OK(doca_rdma_connect(a.rdma, blob, l, a.conn));
	CHECK(read(b2a[0], &c, 1) == 1 && c == 'R');
	src = lbuf(&a, 0, 64, 64);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &ts));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(ts)));
	RUN_UNTIL(&a, a.err == 1);
	CHECK(a.last == DOCA_ERROR_AGAIN);
	CHECK(write(a2b[1], "Q", 1) == 1);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	doca_task_free(doca_rdma_task_send_as_task(ts));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	side_down(&a);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	close(a2b[1]);
	close(b2a[0]);
}

/*
 * An 8-byte ping-pong, each side's owner spinning (as bench/rdma's): the ACK a received request
 * owes leaves with the owner's reply, in the same send system call (docs/rocev2.md, "The ACK
 * rides with the reply"), the reply first. A reply that completes a receive (PP_SEND: the SEND
 * ping-pong; PP_SEND0: of empty SENDs, no longer than the ACK) leaves alone, the ACK as its own
 * datagram behind it; any other (PP_WRITE: each side writes the other's word) makes one UDP GSO
 * send with it, which the peer takes in one receive.
 * Each side runs in its own process, its port counters on stderr (SOFTDOCA_ROCE_STATS) in a
 * file. A's last ACK is owed when it stops polling: its service thread sends it after
 * ROCE_QUIET_MS. PP_DISC: one send, and B disconnects right after its receive.
 */
#define PP_ROUNDS 400
enum pp_mode { PP_SEND, PP_SEND0, PP_WRITE, PP_DISC };
/* PP_WRITE: rounds of writes; the peer's word (at 64 of its memory) goes from 0 to i + 1 */
static void pp_writes(struct side *s, bool is_a, struct doca_rdma_task_write *wt, struct doca_buf *rdst)
{
	volatile uint64_t *mine = (volatile uint64_t *)(void *)(s->mem + 64);

	for (uint64_t i = 1; i <= PP_ROUNDS && test_failures == 0; i++) {
		if (!is_a) /* A's word i, and our last write's completion (its task goes again) */
			RUN_UNTIL(s, (*mine == i && s->ok == (int)i - 1) || s->err > 0);
		memcpy(s->mem, &i, 8);
		doca_buf_reset_data_len(rdst);
		CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(wt)));
		if (is_a) /* B's answer, and our write's ACK */
			RUN_UNTIL(s, (*mine == i && s->ok == (int)i) || s->err > 0);
	}
}

/* PP_SEND, PP_SEND0: rounds of A's send and B's echo (empty: nothing to compare) */
static void pp_sends(struct side *s, bool is_a, bool empty, struct doca_rdma_task_send *st,
		     struct doca_rdma_task_receive *rt, struct doca_buf *dst)
{
	for (uint64_t i = 0; i < PP_ROUNDS && test_failures == 0; i++) {
		if (is_a) {
			doca_buf_reset_data_len(dst);
			CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rt)));
			memcpy(s->mem, &i, 8);
			CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(st)));
			RUN_UNTIL(s, s->ok == (int)(2 * i + 2) || s->err > 0); /* the echo and our send's ACK */
			CHECK(empty || memcmp(s->mem + 64, &i, 8) == 0);
		} else {
			RUN_UNTIL(s, s->ok == (int)(2 * i + 1) || s->err > 0); /* A's send, our last one's ACK */
			CHECK(empty || memcmp(s->mem + 64, &i, 8) == 0);
			memcpy(s->mem, s->mem + 64, 8);
			doca_buf_reset_data_len(dst);
			CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rt)));
			CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(st)));
		}
	}
}

static void pp_side(bool is_a, int in, int out, enum pp_mode mode)
{
	struct doca_dev *dev = open_ibdev(is_a ? ibdev_a : ibdev_b);
	const bool disc = mode == PP_DISC;
	struct doca_rdma_task_receive *rt;
	struct doca_rdma_task_write *wt = NULL;
	struct doca_rdma_task_send *st;
	struct doca_buf *src, *dst, *rdst = NULL;
	struct doca_mmap *rm = NULL;
	struct side s;
	char blob[1024];
	const void *d;
	size_t l, lp;
	char c = 0;

	CHECK_OK(doca_buf_inventory_create(8, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_up(&s, dev, mode == PP_WRITE ? DOCA_ACCESS_FLAG_RDMA_WRITE : 0);
	CHECK_OK(doca_rdma_export(s.rdma, &d, &l, &s.conn));
	put_blob(out, d, l);
	lp = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_rdma_connect(s.rdma, blob, lp, s.conn));
	src = lbuf(&s, 0, 8, mode == PP_SEND0 ? 0 : 8);
	dst = lbuf(&s, 64, 8, 0);
	if (mode == PP_WRITE) {
		char *rbase;
		size_t rlen;

		CHECK_OK(doca_mmap_export_rdma(s.mmap, dev, &d, &l));
		put_blob(out, d, l);
		lp = get_blob(in, blob, sizeof(blob));
		CHECK_OK(doca_mmap_create_from_export(NULL, blob, lp, dev, &rm));
		CHECK_OK(doca_mmap_get_memrange(rm, (void **)&rbase, &rlen));
		rdst = rbuf(rm, rbase, 64, 8, 0);
		CHECK_OK(doca_rdma_task_write_allocate_init(s.rdma, s.conn, src, rdst, (union doca_data){0}, &wt));
	}
	CHECK_OK(doca_rdma_task_send_allocate_init(s.rdma, s.conn, src, (union doca_data){0}, &st));
	CHECK_OK(doca_rdma_task_receive_allocate_init(s.rdma, dst, (union doca_data){0}, &rt));
	if (!is_a && mode != PP_WRITE) /* the first receive is up before A sends */
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rt)));
	CHECK(write(out, "R", 1) == 1 && read(in, &c, 1) == 1 && c == 'R');
	if (disc && is_a) { /* one send, whose ACK B owes when it disconnects */
		double t0 = now_s();

		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(st)));
		RUN_UNTIL_S(&s, s.ok + s.err > 0, 20);
		CHECK(s.ok == 1 && s.err == 0 && now_s() - t0 < 5); /* not failed after the 10 s of silence */
	} else if (disc) {
		RUN_UNTIL(&s, s.ok == 1 || s.err > 0);
		CHECK_OK(doca_rdma_connection_disconnect(s.conn)); /* at once: no progress in between */
	}
	if (mode == PP_WRITE)
		pp_writes(&s, is_a, wt, rdst);
	else if (!disc)
		pp_sends(&s, is_a, mode == PP_SEND0, st, rt, dst);
	if (!is_a && !disc) /* the last ACK: A's service thread pays it */
		RUN_UNTIL(&s, s.ok == (mode == PP_WRITE ? 1 : 2) * PP_ROUNDS || s.err > 0);
	CHECK(s.err == 0 || (disc && !is_a)); /* (B's second receive is flushed) */
	CHECK(write(out, "D", 1) == 1 && read(in, &c, 1) == 1 && c == 'D'); /* both done: nothing owed */
	doca_task_free(doca_rdma_task_send_as_task(st));
	doca_task_free(doca_rdma_task_receive_as_task(rt));
	if (wt != NULL)
		doca_task_free(doca_rdma_task_write_as_task(wt));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	if (rdst != NULL)
		CHECK_OK(doca_buf_dec_refcount(rdst, NULL));
	side_down(&s);
	if (rm != NULL)
		CHECK_OK(doca_mmap_destroy(rm));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
}

/* A counter of the port counters line: the number after " name ". */
static unsigned long long pp_field(const char *line, const char *name)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s ", name);
	p = strstr(line, key);
	return p != NULL ? strtoull(p + strlen(key), NULL, 10) : ~0ull;
}

/* The port counters line a side left in its stderr file (c[]: tx, tx_calls, tx_gso, rx_gro,
 * tx_ack_behind); false if none. */
static bool pp_counters(const char *path, unsigned long long c[5])
{
	FILE *f = fopen(path, "r");
	char line[1024];
	bool found = false;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL) {
		const char *p = strstr(line, " counters: ");

		if (p != NULL) {
			c[0] = pp_field(p, "tx");
			c[1] = pp_field(p, "tx_calls");
			c[2] = pp_field(p, "tx_gso");
			c[3] = pp_field(p, "rx_gro");
			c[4] = pp_field(p, "tx_ack_behind");
			found = true;
		} else {
			fputs(line, stderr); /* the side's own failures */
		}
	}
	fclose(f);
	return found;
}

static void ack_rides_reply(enum pp_mode mode)
{
	int a2b[2], b2a[2];
	char path[2][64];
	pid_t pid[2];

	CHECK(pipe(a2b) == 0 && pipe(b2a) == 0);
	for (int k = 0; k < 2; k++) {
		int fd;

		snprintf(path[k], sizeof(path[k]), "/tmp/softdoca-roce-pp-%c.XXXXXX", 'a' + k);
		fd = mkstemp(path[k]);
		CHECK(fd >= 0);
		pid[k] = fork();
		if (pid[k] == 0) {
			test_failures = 0;
			dup2(fd, STDERR_FILENO);
			setenv("SOFTDOCA_ROCE_STATS", "1", 1);
			pp_side(k == 0, k == 0 ? b2a[0] : a2b[0], k == 0 ? a2b[1] : b2a[1], mode);
			_exit(test_failures == 0 ? 0 : 1);
		}
		close(fd);
	}
	close(a2b[0]);
	close(a2b[1]);
	close(b2a[0]);
	close(b2a[1]);
	for (int k = 0; k < 2; k++) {
		unsigned long long c[5] = {0, 0, 0, 0, 0};
		const char *name = mode == PP_SEND ? "send" : mode == PP_SEND0 ? "empty send" : "write";
		int status = 0;

		CHECK(waitpid(pid[k], &status, 0) == pid[k]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		CHECK(pp_counters(path[k], c));
		unlink(path[k]);
		printf("%s ping-pong, side %c: %d rounds, %llu datagrams in %llu send system calls, %llu of them "
		       "UDP GSO, %llu ACKs behind their reply; %llu coalesced receives\n", name, 'a' + k, PP_ROUNDS,
		       c[0], c[1], c[2], c[4], c[3]);
		/* a request and an ACK a round, and a few more (connection, the last ACK, a retransmit) */
		CHECK(c[0] >= 2 * PP_ROUNDS && c[0] <= 2 * PP_ROUNDS + PP_ROUNDS / 20);
		/* one call a round; an owner descheduled for ROCE_QUIET_MS leaves a round to the service thread */
		CHECK(c[1] <= PP_ROUNDS + PP_ROUNDS / 4);
		/* the ACK behind the reply it was owed with, nearly every round */
		CHECK(c[4] >= PP_ROUNDS * 3 / 4 && c[4] <= PP_ROUNDS + PP_ROUNDS / 20);
		if (mode != PP_WRITE) { /* the SEND alone, the ACK its own datagram behind it */
			CHECK(c[2] <= PP_ROUNDS / 20);
			CHECK(c[3] <= PP_ROUNDS / 20);
		} else { /* the WRITE first, the ACK behind it: one GSO send, one receive at the peer (UDP GRO) */
			CHECK(c[2] >= PP_ROUNDS * 3 / 4 && c[2] <= PP_ROUNDS);
			CHECK(c[3] >= PP_ROUNDS * 3 / 4 && c[3] <= PP_ROUNDS);
		}
	}
}

static void test_ack_rides_reply(void)
{
	ack_rides_reply(PP_SEND);
	ack_rides_reply(PP_SEND0);
	ack_rides_reply(PP_WRITE);
}

/*
 * B disconnects right after its receive completes, before it polls again: the ACK it owed (left
 * for its next post or poll) still leaves, and A's send completes, not after 10 s of silence.
 */
static void test_ack_owed_at_disconnect(void)
{
	for (int round = 0; round < 5 && test_failures == 0; round++) {
		int a2b[2], b2a[2];
		pid_t pid[2];

		CHECK(pipe(a2b) == 0 && pipe(b2a) == 0);
		for (int k = 0; k < 2; k++) {
			pid[k] = fork();
			if (pid[k] == 0) {
				test_failures = 0;
				pp_side(k == 0, k == 0 ? b2a[0] : a2b[0], k == 0 ? a2b[1] : b2a[1], PP_DISC);
				_exit(test_failures == 0 ? 0 : 1);
			}
		}
		close(a2b[0]);
		close(a2b[1]);
		close(b2a[0]);
		close(b2a[1]);
		for (int k = 0; k < 2; k++) {
			int status = 0;

			CHECK(waitpid(pid[k], &status, 0) == pid[k]);
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
	}
}

/*
 * A rocev2 card whose address is on no interface of this host (rocev2.conf's mlx5_3, 192.0.2.77,
 * a documentation address): the context does not start, and says why.
 */
/*
 * A connection given its own descriptor on a rocev2 card: a loopback RC queue pair, its
 * packets to its own QPN (side_loopback_check: a send to itself, a write, a read and a
 * fetch-add on its own memory).
 */
static void test_loopback(void)
{
	struct doca_dev *dev = open_ibdev(ibdev_a);
	struct side s;

	CHECK_OK(doca_buf_inventory_create(8, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_up(&s, dev, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC);
	side_loopback_check(&s, dev, inv);
	side_down(&s);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
}

static void test_address_not_local(void)
{
	struct doca_dev *dev = open_ibdev_maybe("mlx5_3");
	struct side s;

	if (dev == NULL) /* (rocev2_dpu.conf has no such card) */
		return;
	side_create(&s, dev, 0, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_ERR(doca_ctx_start(doca_rdma_as_ctx(s.rdma)), DOCA_ERROR_OPERATING_SYSTEM);
	CHECK_OK(doca_rdma_destroy(s.rdma));
	CHECK_OK(doca_pe_destroy(s.pe));
	CHECK_OK(doca_mmap_destroy(s.mmap));
	free(s.mem);
	CHECK_OK(doca_dev_close(dev));
}

int main(int argc, char **argv)
{
	const char *b = getenv("ROCE_TEST_BIG"), *m = getenv("ROCE_TEST_MTU");

	signal(SIGPIPE, SIG_IGN);
	if (b != NULL && atol(b) > 0 && (size_t)atol(b) <= B_WRIMM - B_WRITE)
		big = (size_t)atol(b);
	if (m != NULL && atoi(m) >= DOCA_MTU_SIZE_256_BYTES && atoi(m) <= DOCA_MTU_SIZE_2K_BYTES)
		a_mtu = atoi(m);
	if (argc == 3 && (strcmp(argv[1], "a") == 0 || strcmp(argv[1], "b") == 0)) {
		/* one side; the peer is at the other end of stdin / stdout */
		int out = dup(STDOUT_FILENO);

		dup2(STDERR_FILENO, STDOUT_FILENO); /* nothing else may write into the peer's pipe */
		with_stream_card = false;
		if (argv[1][0] == 'b') {
			ibdev_b = argv[2];
			TEST_ROLE();
			return run_b(STDIN_FILENO, out);
		}
		ibdev_a = argv[2];
		run_a(STDIN_FILENO, out, -1);
		fprintf(stderr, "%s side a\n", test_failures == 0 ? "ok" : "FAIL");
		TEST_EXIT();
	}
	TEST_RUN(test_two_processes);
	if (a_mtu >= 0)
		TEST_EXIT(); /* (the tests below take no MTU) */
	TEST_RUN(test_ack_rides_reply);
	TEST_RUN(test_ack_owed_at_disconnect);
	TEST_RUN(test_rnr_exhausted);
	TEST_RUN(test_read_export_ends);
	TEST_RUN(test_address_not_local);
	TEST_RUN(test_loopback);
	setenv("SOFTDOCA_ROCE_DEAD_MS", "1500", 1);
	TEST_RUN(test_peer_gone);
	TEST_EXIT();
}
