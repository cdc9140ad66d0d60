/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma end to end over the soft NIC: two contexts in one process (every task type, OOB and
 * RDMA-CM, the bad inputs), and two processes (fork) connected out of band.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdma_test.h"

#define MEM 4096

static struct doca_dev *dev;
static struct doca_buf_inventory *inv;

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

/* A server that turns every request down. */
static void c_req_reject(struct doca_rdma_connection *c, union doca_data cu)
{
	struct side *s = cu.ptr;

	s->req++;
	CHECK_OK(doca_rdma_connection_reject(c));
}

static void side_up(struct side *s, uint32_t perms, uint32_t mmap_perms)
{
	side_create(s, dev, perms, mmap_perms, MEM);
	s->success_clears_last = true;
	CHECK_OK(doca_rdma_set_max_num_connections(s->rdma, 4));
	CHECK_OK(doca_rdma_set_max_send_buf_list_len(s->rdma, 2));
	CHECK_OK(doca_rdma_set_rnr_retry_count(s->rdma, 1)); /* a missing receive fails fast */
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
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
}

/* Progress both sides until cond holds or ~5 s pass. */
#define RUN_UNTIL(a, b, cond) \
	do { \
		for (int i_ = 0; i_ < 250000 && !(cond); i_++) { \
			int p_ = doca_pe_progress((a)->pe); \
			if ((b) != NULL) \
				p_ += doca_pe_progress(((struct side *)(b))->pe); \
			if (p_ == 0) \
				nap(); \
		} \
		CHECK(cond); \
	} while (0)

static void connect_oob(struct side *a, struct side *b)
{
	const void *da, *db;
	size_t la, lb;

	CHECK_OK(doca_rdma_export(a->rdma, &da, &la, &a->conn));
	CHECK_OK(doca_rdma_export(b->rdma, &db, &lb, &b->conn));
	CHECK_OK(doca_rdma_connect(a->rdma, db, lb, a->conn));
	CHECK_OK(doca_rdma_connect(b->rdma, da, la, b->conn));
	CHECK_ERR(doca_rdma_connect(a->rdma, db, lb, a->conn), DOCA_ERROR_BAD_STATE); /* twice */
	/* Out of band: no connection callback; work posted now waits for the connection. */
}

static struct doca_buf *lbuf(struct side *s, size_t off, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, s->mmap, s->mem + off, len, s->mem + off, data_len, &b));
	return b;
}

/* b's memory as a's remote mmap */
static struct doca_mmap *import(struct side *b)
{
	const void *d;
	size_t l;
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_export_rdma(b->mmap, dev, &d, &l));
	CHECK_OK(doca_mmap_create_from_export(NULL, d, l, dev, &m));
	return m;
}

static struct doca_buf *rbuf(struct doca_mmap *m, char *addr, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, addr, len, addr, data_len, &b));
	return b;
}

static void test_send_receive(void)
{
	struct side a, b;
	struct doca_rdma_task_receive *r;
	struct doca_rdma_task_send *s;
	struct doca_rdma_task_send_imm *si;
	struct doca_buf *dst, *src;
	size_t len = 0;

	side_up(&a, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	side_up(&b, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	connect_oob(&a, &b);

	memcpy(b.mem, "XY", 2);
	dst = lbuf(&b, 0, 64, 2);
	strcpy(a.mem, "Hi DOCA RDMA!");
	src = lbuf(&a, 0, 13, 13);
	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &s));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	RUN_UNTIL(&a, &b, a.ok + a.err == 1 && b.ok + b.err == 1);
	CHECK(a.ok == 1 && b.ok == 1);
	CHECK(doca_rdma_task_receive_get_result_opcode(r) == DOCA_RDMA_OPCODE_RECV_SEND);
	CHECK(doca_rdma_task_receive_get_result_len(r) == 13);
	CHECK(doca_rdma_task_receive_get_result_rdma_connection(r) == b.conn);
	CHECK_OK(doca_buf_get_data_len(dst, &len));
	CHECK(len == 15 && memcmp(b.mem, "XYHi DOCA RDMA!", 15) == 0); /* appended */

	/* send with immediate: passed raw */
	CHECK_OK(doca_buf_reset_data_len(dst));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	CHECK_OK(doca_rdma_task_send_imm_allocate_init(a.rdma, a.conn, src, 0xABCD, (union doca_data){0}, &si));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_imm_as_task(si)));
	RUN_UNTIL(&a, &b, a.ok == 2 && b.ok == 2);
	CHECK(doca_rdma_task_receive_get_result_opcode(r) == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM);
	CHECK(doca_rdma_task_receive_get_result_immediate_data(r) == 0xABCD);

	/* a receive too small for the message: both fail with TOO_BIG */
	{
		struct doca_buf *small = lbuf(&b, 100, 4, 0);

		doca_rdma_task_receive_set_dst_buf(r, small);
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
		CHECK_OK(doca_task_submit(doca_rdma_task_send_imm_as_task(si)));
		RUN_UNTIL(&a, &b, a.err == 1 && b.err == 1);
		CHECK(a.last == DOCA_ERROR_TOO_BIG && b.last == DOCA_ERROR_TOO_BIG);
		CHECK_OK(doca_buf_dec_refcount(small, NULL));
	}
	/* the failed send moved the connection to error: the connection callbacks say so */
	RUN_UNTIL(&a, &b, a.fail + a.disc >= 1);
	/* a task on the broken connection: its error callback, NOT_CONNECTED */
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	RUN_UNTIL(&a, &b, a.err == 2);
	CHECK(a.last == DOCA_ERROR_NOT_CONNECTED);

	doca_task_free(doca_rdma_task_send_as_task(s));
	doca_task_free(doca_rdma_task_send_imm_as_task(si));
	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	side_down(&a);
	side_down(&b);
}

/* a the requester, b granting read, write and atomics, connected out of band; b's memory as a's */
static struct doca_mmap *one_sided_up(struct side *a, struct side *b)
{
	side_up(a, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	side_up(b, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC,
		DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE |
			DOCA_ACCESS_FLAG_RDMA_ATOMIC);
	connect_oob(a, b);
	return import(b);
}

static void test_one_sided(void)
{
	struct side a, b;
	struct doca_mmap *rm;
	struct doca_buf *src, *dst, *res, *remote;
	struct doca_rdma_task_write *w;
	struct doca_rdma_task_read *rd;
	struct doca_rdma_task_write_imm *wi;
	struct doca_rdma_task_receive *r;
	struct doca_rdma_task_atomic_cmp_swp *cs;
	struct doca_rdma_task_atomic_fetch_add *fa;
	uint64_t v;
	size_t len = 0;

	rm = one_sided_up(&a, &b);

	/* write */
	strcpy(a.mem, "written");
	src = lbuf(&a, 0, 7, 7);
	remote = rbuf(rm, b.mem + 256, 64, 0);
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, remote, (union doca_data){0}, &w));
	CHECK_OK(doca_task_try_submit(doca_rdma_task_write_as_task(w)));
	RUN_UNTIL(&a, &b, a.ok == 1);
	CHECK(memcmp(b.mem + 256, "written", 7) == 0);

	/* read */
	strcpy(b.mem + 512, "read me");
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	remote = rbuf(rm, b.mem + 512, 7, 7);
	dst = lbuf(&a, 1024, 64, 0);
	CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, remote, dst, (union doca_data){0}, &rd));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(rd)));
	RUN_UNTIL(&a, &b, a.ok == 2);
	CHECK(doca_rdma_task_read_get_result_len(rd) == 7);
	CHECK_OK(doca_buf_get_data_len(dst, &len));
	CHECK(len == 7 && memcmp(a.mem + 1024, "read me", 7) == 0);

	/* write with immediate: consumes the receive posted on the responder */
	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, NULL, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	remote = rbuf(rm, b.mem + 768, 64, 0);
	CHECK_OK(doca_rdma_task_write_imm_allocate_init(a.rdma, a.conn, src, remote, 0xABCD, (union doca_data){0}, &wi));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_imm_as_task(wi)));
	RUN_UNTIL(&a, &b, a.ok == 3 && b.ok == 1);
	CHECK(doca_rdma_task_receive_get_result_opcode(r) == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM);
	CHECK(doca_rdma_task_receive_get_result_immediate_data(r) == 0xABCD);
	CHECK(memcmp(b.mem + 768, "written", 7) == 0);

	/* atomics */
	v = 5;
	memcpy(b.mem + 2048, &v, 8);
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	remote = rbuf(rm, b.mem + 2048, 8, 0);
	res = lbuf(&a, 2048, 16, 0);
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, remote, res, 5, 9, (union doca_data){0}, &cs));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(cs)));
	RUN_UNTIL(&a, &b, a.ok == 4);
	memcpy(&v, a.mem + 2048, 8);
	CHECK(v == 5);
	memcpy(&v, b.mem + 2048, 8);
	CHECK(v == 9);
	CHECK_OK(doca_buf_reset_data_len(res));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, remote, res, 3, (union doca_data){0}, &fa));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)));
	RUN_UNTIL(&a, &b, a.ok == 5);
	memcpy(&v, a.mem + 2048, 8);
	CHECK(v == 9);
	memcpy(&v, b.mem + 2048, 8);
	CHECK(v == 12);

	/* unaligned atomic: refused at submission */
	{
		struct doca_buf *un = rbuf(rm, b.mem + 2049, 8, 0);

		doca_rdma_task_atomic_fetch_add_set_dst_buf(fa, un);
		CHECK_ERR(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_task_try_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)), DOCA_ERROR_INVALID_VALUE);
		doca_rdma_task_atomic_fetch_add_set_dst_buf(fa, remote);
		CHECK_OK(doca_buf_dec_refcount(un, NULL));
	}
	/* a source list over the limit (2 set above) */
	{
		struct doca_buf *l1 = lbuf(&a, 3000, 4, 4), *l2 = lbuf(&a, 3004, 4, 4), *l3 = lbuf(&a, 3008, 4, 4);

		CHECK_OK(doca_buf_chain_list(l1, l2));
		CHECK_OK(doca_buf_chain_list(l1, l3));
		doca_rdma_task_write_set_src_buf(w, l1);
		CHECK_ERR(doca_task_try_submit(doca_rdma_task_write_as_task(w)), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_task_submit(doca_rdma_task_write_as_task(w)), DOCA_ERROR_INVALID_VALUE);
		doca_rdma_task_write_set_src_buf(w, src);
		CHECK_OK(doca_buf_dec_refcount(l1, NULL));
	}
	/* a local destination without LOCAL_READ_WRITE */
	{
		char ro_mem[64];
		struct doca_mmap *ro = make_mmap(dev, ro_mem, sizeof(ro_mem), DOCA_ACCESS_FLAG_RDMA_READ);
		struct doca_buf *rob = NULL;

		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, ro, ro_mem, sizeof(ro_mem), &rob));
		doca_rdma_task_read_set_dst_buf(rd, rob);
		CHECK_ERR(doca_task_submit(doca_rdma_task_read_as_task(rd)), DOCA_ERROR_NOT_PERMITTED);
		doca_rdma_task_read_set_dst_buf(rd, dst);
		CHECK_OK(doca_buf_dec_refcount(rob, NULL));
		CHECK_OK(doca_mmap_destroy(ro));
	}

	/* the read again, after the peer disconnected: it fails and reports no bytes read */
	CHECK_OK(doca_rdma_connection_disconnect(b.conn));
	RUN_UNTIL(&a, &b, a.disc + a.fail >= 1);
	a.err = 0;
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(rd)));
	RUN_UNTIL(&a, &b, a.err == 1);
	CHECK(a.last == DOCA_ERROR_NOT_CONNECTED);
	CHECK(doca_rdma_task_read_get_result_len(rd) == 0);

	doca_task_free(doca_rdma_task_write_as_task(w));
	doca_task_free(doca_rdma_task_read_as_task(rd));
	doca_task_free(doca_rdma_task_write_imm_as_task(wi));
	doca_task_free(doca_rdma_task_receive_as_task(r));
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(cs));
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_dec_refcount(res, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	CHECK_OK(doca_mmap_stop(rm));
	CHECK_OK(doca_mmap_destroy(rm));
	side_down(&a);
	side_down(&b);
}

/*
 * One connection's completions come in the order its tasks were submitted (RC), whether a task
 * was done during its submission (a store into the peer's window, with no CQE) or completes
 * through the NIC (a send, behind the peer's receive); and, on the same-host path (the peer's
 * window and ring in this process), a task done at submission reaches its callback in the first
 * doca_pe_progress(), as a received message does on the receiving side.
 */
static void test_completion_order(void)
{
	struct side a, b;
	struct doca_mmap *rm;
	struct doca_buf *src, *remote, *rsrc, *res[2], *dst[2], *rdst;
	struct doca_rdma_task_write *w[3];
	struct doca_rdma_task_atomic_fetch_add *fa[2];
	struct doca_rdma_task_send *s[2];
	struct doca_rdma_task_read *rd;
	struct doca_rdma_task_receive *r[2];
	const char *transport = getenv("SOFTDOCA_RDMA_TRANSPORT");
	/* the paths the soft NIC picks by itself here (SOFTDOCA_RDMA_TRANSPORT unset or auto) */
	const bool same_host = transport == NULL || (strcmp(transport, "tcp") != 0 && strcmp(transport, "unix") != 0);
	int k = 0;

	rm = one_sided_up(&a, &b);
	memset(b.mem + 2048, 0, 8);
	memcpy(b.mem + 1024, "ordered!", 8);
	strcpy(a.mem, "order");
	src = lbuf(&a, 0, 5, 5);
	remote = rbuf(rm, b.mem + 256, 64, 0);
	rsrc = rbuf(rm, b.mem + 1024, 8, 8);
	rdst = lbuf(&a, 512, 8, 0);
	for (int i = 0; i < 2; i++) {
		dst[i] = lbuf(&b, 3072 + 64 * (size_t)i, 64, 0);
		CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst[i], (union doca_data){.u64 = 100 + (uint64_t)i},
							      &r[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r[i])));
		res[i] = lbuf(&a, 1024 + 16 * (size_t)i, 8, 0);
	}
	for (int i = 0; i < 3; i++)
		CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, remote, (union doca_data){.u64 = 0}, &w[i]));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w[0])));
	RUN_UNTIL(&a, &b, a.ok == 1); /* the connection is up */
	if (same_host) {
		/* a write on the idle qp: done at submission, its callback in the first progress */
		CHECK_OK(doca_buf_reset_data_len(remote));
		memset(b.mem + 256, 0, 5);
		CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w[0])));
		CHECK(memcmp(b.mem + 256, "order", 5) == 0);
		CHECK(doca_pe_progress(a.pe) == 1 && a.ok == 2);
	}
	CHECK_OK(doca_buf_reset_data_len(remote));
	/* then eight tasks at once, of both kinds, nothing progressed in between */
	a.ok = 0;
	a.n_order = 0;
	doca_task_set_user_data(doca_rdma_task_write_as_task(w[0]), (union doca_data){.u64 = ++k});
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w[0])));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, rbuf(rm, b.mem + 2048, 8, 8), res[0], 1,
							       (union doca_data){.u64 = ++k}, &fa[0]));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa[0])));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){.u64 = ++k}, &s[0]));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s[0])));
	doca_task_set_user_data(doca_rdma_task_write_as_task(w[1]), (union doca_data){.u64 = ++k});
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w[1])));
	CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, rsrc, rdst, (union doca_data){.u64 = ++k}, &rd));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(rd)));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){.u64 = ++k}, &s[1]));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s[1])));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, rbuf(rm, b.mem + 2048, 8, 8), res[1], 1,
							       (union doca_data){.u64 = ++k}, &fa[1]));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa[1])));
	doca_task_set_user_data(doca_rdma_task_write_as_task(w[2]), (union doca_data){.u64 = ++k});
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w[2])));
	RUN_UNTIL(&a, &b, a.ok + a.err == k && b.ok + b.err == 2);
	CHECK(a.ok == k && b.ok == 2 && a.n_order == k);
	for (int i = 0; i < a.n_order; i++)
		CHECK(a.order[i] == (uint64_t)i + 1);
	CHECK(memcmp(a.mem + 512, "ordered!", 8) == 0);
	CHECK(memcmp(b.mem + 3072, "order", 5) == 0 && memcmp(b.mem + 3136, "order", 5) == 0);
	{
		uint64_t v0, v1, c;

		memcpy(&v0, a.mem + 1024, 8);
		memcpy(&v1, a.mem + 1040, 8);
		memcpy(&c, b.mem + 2048, 8);
		CHECK(v0 == 0 && v1 == 1 && c == 2); /* executed in order too */
	}
	/*
	 * The receiving side: the progress that finds the message completes its receive, callback
	 * included, in that one call. (On one host the message is usually there when the send's
	 * submit returns; under load it may wait for the ring's credits, so b looks until it is.)
	 */
	CHECK_OK(doca_buf_reset_data_len(dst[0]));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r[0])));
	b.ok = 0;
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s[0])));
	if (same_host) {
		double end = now_s() + 10;
		int n = 0;

		while ((n = doca_pe_progress(b.pe)) == 0 && now_s() < end)
			(void)doca_pe_progress(a.pe);
		CHECK(n == 1 && b.ok == 1);
	}
	RUN_UNTIL(&a, &b, a.ok == k + 1 && b.ok == 1);

	for (int i = 0; i < 3; i++)
		doca_task_free(doca_rdma_task_write_as_task(w[i]));
	for (int i = 0; i < 2; i++) {
		CHECK_OK(doca_buf_dec_refcount(doca_rdma_task_atomic_fetch_add_get_dst_buf(fa[i]), NULL));
		doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa[i]));
		doca_task_free(doca_rdma_task_send_as_task(s[i]));
		doca_task_free(doca_rdma_task_receive_as_task(r[i]));
		CHECK_OK(doca_buf_dec_refcount(res[i], NULL));
		CHECK_OK(doca_buf_dec_refcount(dst[i], NULL));
	}
	doca_task_free(doca_rdma_task_read_as_task(rd));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	CHECK_OK(doca_buf_dec_refcount(rsrc, NULL));
	CHECK_OK(doca_buf_dec_refcount(rdst, NULL));
	CHECK_OK(doca_mmap_destroy(rm));
	side_down(&a);
	side_down(&b);
}

/* The responder lacks RDMA_WRITE: the write fails with NOT_PERMITTED. */
static void test_remote_permission(void)
{
	struct side a, b;
	struct doca_mmap *rm;
	struct doca_buf *src, *remote;
	struct doca_rdma_task_write *w;

	side_up(&a, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	side_up(&b, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	connect_oob(&a, &b);
	rm = import(&b);
	src = lbuf(&a, 0, 8, 8);
	remote = rbuf(rm, b.mem, 64, 0);
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, remote, (union doca_data){0}, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	RUN_UNTIL(&a, &b, a.err == 1);
	CHECK(a.last == DOCA_ERROR_NOT_PERMITTED);
	doca_task_free(doca_rdma_task_write_as_task(w));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	CHECK_OK(doca_mmap_stop(rm));
	CHECK_OK(doca_mmap_destroy(rm));
	side_down(&a);
	side_down(&b);
}

static void test_sync_event(void)
{
	struct side a, b;
	struct doca_sync_event *ev;
	struct doca_sync_event_remote_net *rev;
	const uint8_t *blob;
	size_t bl;
	struct doca_buf *val, *got, *res;
	struct doca_rdma_task_remote_net_sync_event_notify_set *ss;
	struct doca_rdma_task_remote_net_sync_event_get *sg;
	struct doca_rdma_task_remote_net_sync_event_notify_add *sa;
	uint64_t v = 0xD0CA, now = 0;

	side_up(&a, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	side_up(&b, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE,
		DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE);
	connect_oob(&a, &b);
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &blob, &bl));
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, blob, bl, &rev));

	memcpy(a.mem, &v, 8);
	val = lbuf(&a, 0, 8, 8);
	got = lbuf(&a, 64, 8, 0);
	res = lbuf(&a, 128, 8, 0);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(a.rdma, a.conn, rev, val,
									       (union doca_data){0}, &ss));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(ss)));
	RUN_UNTIL(&a, &b, a.ok == 1);
	CHECK_OK(doca_sync_event_get(ev, &now));
	CHECK(now == 0xD0CA);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(a.rdma, a.conn, rev, res, 2,
									       (union doca_data){0}, &sa));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_add_as_task(sa)));
	RUN_UNTIL(&a, &b, a.ok == 2);
	memcpy(&v, a.mem + 128, 8);
	CHECK(v == 0xD0CA);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_get_allocate_init(a.rdma, a.conn, rev, got, (union doca_data){0},
									&sg));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(sg)));
	RUN_UNTIL(&a, &b, a.ok == 3);
	memcpy(&v, a.mem + 64, 8);
	CHECK(v == 0xD0CC);
	CHECK(doca_rdma_task_remote_net_sync_event_get_get_result_len(sg) == 8);

	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(ss));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_add_as_task(sa));
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(sg));
	CHECK_OK(doca_buf_dec_refcount(val, NULL));
	CHECK_OK(doca_buf_dec_refcount(got, NULL));
	CHECK_OK(doca_buf_dec_refcount(res, NULL));
	CHECK_OK(doca_sync_event_remote_net_destroy(rev));
	side_down(&a);
	side_down(&b);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

/* Corrupted, truncated and foreign descriptors; a posted receive flushed by stop. */
static void test_bad_descriptors_and_flush(void)
{
	struct side a, b;
	const void *da, *db;
	size_t la, lb;
	struct doca_rdma_connection *ca, *cb;
	unsigned char bad[512];
	struct doca_rdma_task_receive *r;

	side_up(&a, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	side_up(&b, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_rdma_export(a.rdma, &da, &la, &ca));
	CHECK_OK(doca_rdma_export(b.rdma, &db, &lb, &cb));
	CHECK(lb <= sizeof(bad));
	memcpy(bad, db, lb);
	bad[lb / 2] ^= 0x5a;
	CHECK_ERR(doca_rdma_connect(a.rdma, bad, lb, ca), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect(a.rdma, db, lb - 1, ca), DOCA_ERROR_INVALID_VALUE);
	memset(bad, 0x41, sizeof(bad));
	CHECK_ERR(doca_rdma_connect(a.rdma, bad, lb, ca), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_connect(a.rdma, db, lb, ca)); /* still connectable */

	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, NULL, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	CHECK_ERR(doca_ctx_stop(doca_rdma_as_ctx(b.rdma)), DOCA_ERROR_IN_PROGRESS);
	RUN_UNTIL(&b, NULL, b.err == 1);
	CHECK(b.last != DOCA_SUCCESS);
	doca_task_free(doca_rdma_task_receive_as_task(r));
	side_down(&a);
	side_down(&b);
}

/* Posted receives freed by the application before doca_ctx_stop(): flushed, back in the pool,
 * and the context reaches IDLE (no hang). */
static void test_free_posted_receives_then_stop(void)
{
	struct side b;
	struct doca_rdma_task_receive *r[2];
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	side_up(&b, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	for (int i = 0; i < 2; i++) {
		CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, NULL, (union doca_data){0}, &r[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r[i])));
		doca_task_free(doca_rdma_task_receive_as_task(r[i]));
	}
	CHECK_ERR(doca_ctx_stop(doca_rdma_as_ctx(b.rdma)), DOCA_ERROR_IN_PROGRESS);
	RUN_UNTIL(&b, NULL,
		  doca_ctx_get_state(doca_rdma_as_ctx(b.rdma), &st) == DOCA_SUCCESS && st == DOCA_CTX_STATE_IDLE);
	CHECK(b.err == 2);
	side_down(&b);
}

static void test_cm(void)
{
	struct side a, b;
	struct doca_rdma_addr *addr, *peer;
	uint16_t port;
	struct doca_rdma_task_receive *r;
	struct doca_rdma_task_send *s;
	struct doca_buf *dst, *src;

	side_up(&a, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	side_up(&b, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	port = listen_on_free_port(a.rdma);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_GID, "::ffff:127.0.0.1", port, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(b.rdma, addr, (union doca_data){.u64 = 3}));
	RUN_UNTIL(&a, &b, a.est == 1 && b.est == 1);
	CHECK(a.req == 1);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	CHECK_OK(doca_rdma_connection_get_addr(a.conn, &peer));

	strcpy(b.mem, "over CM");
	src = lbuf(&b, 0, 7, 7);
	dst = lbuf(&a, 0, 64, 0);
	CHECK_OK(doca_rdma_task_receive_allocate_init(a.rdma, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	CHECK_OK(doca_rdma_task_send_allocate_init(b.rdma, b.conn, src, (union doca_data){0}, &s));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	RUN_UNTIL(&a, &b, a.ok == 1 && b.ok == 1);
	CHECK(memcmp(a.mem, "over CM", 7) == 0);
	CHECK(doca_rdma_task_receive_get_result_rdma_connection(r) == a.conn);

	CHECK_OK(doca_rdma_connection_disconnect(b.conn));
	RUN_UNTIL(&a, &b, a.disc == 1);
	CHECK_OK(doca_rdma_connection_disconnect(a.conn)); /* from the disconnection side: fine */
	doca_task_free(doca_rdma_task_receive_as_task(r));
	doca_task_free(doca_rdma_task_send_as_task(s));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	side_down(&a);
	side_down(&b);
}

/* RDMA-CM refusals: a rejected request, and a port no longer listened on. */
static void test_cm_reject_and_unlisten(void)
{
	struct side a, b;
	struct doca_rdma_addr *addr;
	uint16_t port;

	/* the server's callbacks are set before start: rebuild a with the rejecting one */
	side_up(&b, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	memset(&a, 0, sizeof(a));
	a.mem = calloc(1, MEM);
	a.mmap = make_mmap(dev, a.mem, MEM, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_pe_create(&a.pe));
	CHECK_OK(doca_rdma_create(dev, &a.rdma));
	CHECK_OK(doca_rdma_set_max_num_connections(a.rdma, 4));
	CHECK_OK(doca_rdma_set_connection_state_callbacks(a.rdma, c_req_reject, c_est, c_fail, c_disc));
	CHECK_OK(doca_pe_connect_ctx(a.pe, doca_rdma_as_ctx(a.rdma)));
	CHECK_OK(doca_ctx_set_user_data(doca_rdma_as_ctx(a.rdma), (union doca_data){.ptr = &a}));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));

	port = listen_on_free_port(a.rdma);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(b.rdma, addr, (union doca_data){.u64 = 1}));
	RUN_UNTIL(&a, &b, a.req == 1 && b.fail == 1);
	CHECK(a.est == 0 && b.est == 0);

	/* no longer listening: the next client fails, the server hears nothing */
	CHECK_OK(doca_rdma_stop_listen_to_port(a.rdma, port));
	CHECK_OK(doca_rdma_connect_to_addr(b.rdma, addr, (union doca_data){.u64 = 2}));
	RUN_UNTIL(&a, &b, b.fail == 2);
	CHECK(a.req == 1 && b.est == 0);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	side_down(&a);
	side_down(&b);
}

/* The server's application answers later: the request is only noted. */
static void c_req_defer(struct doca_rdma_connection *c, union doca_data cu)
{
	struct side *s = cu.ptr;

	s->req++;
	s->conn = c;
}

/*
 * A server that accepts after the client's connection request time-out (1 s here): the time-out
 * bounds the resolve steps (rdma.md), not the wait for the peer's application, as DOCA's over
 * the kernel's RDMA-CM; the client is established once the server accepts, 1.5 s later.
 */
static void test_cm_late_accept(void)
{
	struct side a, b;
	struct doca_rdma_addr *addr;
	uint16_t port;
	double t0;

	side_create(&a, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, MEM);
	CHECK_OK(doca_rdma_set_max_num_connections(a.rdma, 4));
	CHECK_OK(doca_rdma_set_connection_state_callbacks(a.rdma, c_req_defer, c_est, c_fail, c_disc));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));
	side_create(&b, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, MEM);
	CHECK_OK(doca_rdma_set_max_num_connections(b.rdma, 4));
	CHECK_OK(doca_rdma_set_connection_request_timeout(b.rdma, 1000));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
	port = listen_on_free_port(a.rdma);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(b.rdma, addr, (union doca_data){.u64 = 1}));
	RUN_UNTIL(&a, &b, a.req == 1);
	for (t0 = now_s(); now_s() < t0 + 1.5 && b.fail == 0;) /* the application's own time */
		if (doca_pe_progress(a.pe) + doca_pe_progress(b.pe) == 0)
			nap();
	CHECK(b.fail == 0 && b.est == 0);
	CHECK_OK(doca_rdma_connection_accept(a.conn, NULL, 0));
	RUN_UNTIL(&a, &b, a.est == 1 && b.est == 1);
	CHECK(b.fail == 0);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	side_down(&a);
	side_down(&b);
}

/*
 * A connection connected to its own export (a loopback RC queue pair, which hardware allows;
 * NVIDIA's dpa_all_to_all connects every rank to itself): a send lands in the same context's
 * receive, naming the same connection; writes, reads and atomics reach its own memory; the
 * context stops cleanly.
 */
static void test_loopback(void)
{
	struct side s;

	side_up(&s, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC,
		DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE |
			DOCA_ACCESS_FLAG_RDMA_ATOMIC);
	side_loopback_check(&s, dev, inv);
	side_down(&s);
}

/* Two processes: the child receives, the parent sends; descriptors cross through pipes. */
static void test_fork(void)
{
	int p2c[2], c2p[2];
	pid_t pid;
	struct side a;
	char c;
	struct doca_buf *src;
	struct doca_rdma_task_send *s;
	int status = 0;

	CHECK(pipe(p2c) == 0 && pipe(c2p) == 0);
	pid = fork();
	if (pid == 0) {
		struct side b;
		struct doca_buf *dst;
		struct doca_rdma_task_receive *r;

		test_failures = 0;
		side_up(&b, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		connect_over_pipes(b.rdma, &b.conn, p2c[0], c2p[1], true);
		dst = lbuf(&b, 0, 64, 0);
		CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst, (union doca_data){0}, &r));
		CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
		CHECK(write(c2p[1], "R", 1) == 1);
		RUN_UNTIL(&b, NULL, b.ok == 1);
		CHECK(memcmp(b.mem, "across fork", 11) == 0);
		doca_task_free(doca_rdma_task_receive_as_task(r));
		CHECK_OK(doca_buf_dec_refcount(dst, NULL));
		side_down(&b);
		_exit(test_failures == 0 ? 0 : 1);
	}
	side_up(&a, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	connect_over_pipes(a.rdma, &a.conn, c2p[0], p2c[1], false);
	CHECK(read(c2p[0], &c, 1) == 1); /* the receive is posted */
	strcpy(a.mem, "across fork");
	src = lbuf(&a, 0, 11, 11);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &s));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	RUN_UNTIL(&a, NULL, a.ok + a.err == 1);
	CHECK(a.ok == 1);
	if (a.err != 0) /* seen once in a while under heavy load: say how it failed */
		fprintf(stderr, "test_fork: the send failed with %s\n", doca_error_get_name(a.errs[0]));
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	doca_task_free(doca_rdma_task_send_as_task(s));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	side_down(&a);
	close(p2c[0]);
	close(p2c[1]);
	close(c2p[0]);
	close(c2p[1]);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	dev = open_rdma_dev();
	CHECK_OK(doca_buf_inventory_create(64, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	TEST_RUN(test_send_receive);
	TEST_RUN(test_one_sided);
	TEST_RUN(test_completion_order);
	TEST_RUN(test_remote_permission);
	TEST_RUN(test_sync_event);
	TEST_RUN(test_bad_descriptors_and_flush);
	TEST_RUN(test_free_posted_receives_then_stop);
	TEST_RUN(test_cm);
	TEST_RUN(test_cm_reject_and_unlisten);
	TEST_RUN(test_cm_late_accept);
	TEST_RUN(test_loopback);
	TEST_RUN(test_fork);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
