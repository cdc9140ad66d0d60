/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA RDMA-CM over the soft NIC's RoCEv2 path (docs/rocev2.md, "RDMA-CM over RoCEv2"): two
 * processes on two rocev2 cards (rocev2.conf, 127.77.1.1 and 127.77.2.1) connect with
 * doca_rdma_start_listen_to_port / doca_rdma_connect_to_addr, which exchange IB CM MADs on QP1.
 *
 * B (the server) rejects the first request; a request for a port nobody listens on is refused
 * at once (REJ "invalid service ID"); garbage sent to UDP 4791 is dropped; the next request is
 * accepted (with private data in the REP) and established on both sides; a send, a write, a
 * read, a compare-and-swap and a fetch-and-add cross (the CM's data path is its own: its ep
 * never drains the port itself); B disconnects and A hears it at once (DREQ), not after the 60 s of silence
 * SOFTDOCA_ROCE_DEAD_MS allows; a third connection is ended by A and B hears it at once. On a
 * fourth, A sends 200 bytes into B's 100-byte receive: NAK "invalid request", A's send fails
 * with INVALID_VALUE and B's receive with TOO_BIG (docs/compatibility.md).
 */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "roce_test.h"

#define MEM (1u << 20)
#define SEND_LEN 10000u
#define WLEN 65536u
#define B_RECV 0u
#define B_WRITE 131072u
#define A_SEND 0u
#define A_WRITE 131072u
#define A_READ 262144u
#define B_ATOMIC 393216u /* B's 8 bytes: 5, swapped to 9, then 3 added */
#define A_ATOMIC 393216u

static struct doca_buf_inventory *inv;
static bool b_accept; /* B: reject requests until told otherwise */

SIDE_CB(recv, receive)
SIDE_CB(send, send)
SIDE_CB(rd, read)
SIDE_CB(wr, write)
SIDE_CB(cs, atomic_cmp_swp)
SIDE_CB(fa, atomic_fetch_add)

static void b_req(struct doca_rdma_connection *c, union doca_data cu)
{
	struct side *s = cu.ptr;
	char pdata[] = "softdoca server";

	s->req++;
	if (!b_accept) {
		CHECK_OK(doca_rdma_connection_reject(c));
		return;
	}
	s->conn = c;
	CHECK_OK(doca_rdma_connection_accept(c, pdata, sizeof(pdata)));
}

static void side_up(struct side *s, struct doca_dev *dev)
{
	side_create(s, dev, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC,
		    DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE |
			    DOCA_ACCESS_FLAG_RDMA_ATOMIC,
		    MEM);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(s->rdma, b_req, c_est, c_fail, c_disc));
	CHECK_OK(doca_rdma_set_max_num_connections(s->rdma, 8));
	CHECK_OK(doca_rdma_set_connection_request_timeout(s->rdma, 20000));
	CHECK_OK(doca_rdma_task_receive_set_conf(s->rdma, recv_ok, recv_err, 4));
	CHECK_OK(doca_rdma_task_send_set_conf(s->rdma, send_ok, send_err, 4));
	CHECK_OK(doca_rdma_task_read_set_conf(s->rdma, rd_ok, rd_err, 4));
	CHECK_OK(doca_rdma_task_write_set_conf(s->rdma, wr_ok, wr_err, 4));
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_set_conf(s->rdma, cs_ok, cs_err, 4));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_set_conf(s->rdma, fa_ok, fa_err, 4));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
}


/* Progresses s until a byte comes on fd (60 s at most); returns it. */
static char wait_cmd(struct side *s, int fd)
{
	double end = now_s() + 60;
	char c = 0;

	while (now_s() < end) {
		struct pollfd p = {.fd = fd, .events = POLLIN};

		if (poll(&p, 1, 0) == 1) {
			CHECK(read(fd, &c, 1) == 1);
			return c;
		}
		if (doca_pe_progress(s->pe) == 0)
			nap();
	}
	CHECK(!"no command from the peer");
	return 0;
}

static struct doca_buf *buf_at(struct doca_mmap *m, char *base, size_t off, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, base + off, len, base + off, data_len, &b));
	return b;
}

/* ---- B: the server (child) ---- */

static int run_b(int in, int out)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct side b;
	struct doca_rdma_task_receive *r;
	struct doca_buf *dst;
	const void *d;
	size_t l;
	uint16_t port;

	CHECK_OK(doca_buf_inventory_create(16, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_up(&b, dev);
	memcpy(b.mem + B_ATOMIC, &(uint64_t){5}, 8);
	port = listen_on_free_port(b.rdma);
	put_blob(out, &port, sizeof(port));
	CHECK_OK(doca_mmap_export_rdma(b.mmap, dev, &d, &l));
	put_blob(out, d, l);
	dst = buf_at(b.mmap, b.mem, B_RECV, 16384, 0);
	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));

	/* 1: the request is rejected (b_req) */
	CHECK(wait_cmd(&b, in) == 'a');
	CHECK(b.req == 1 && b.est == 0);
	b_accept = true;
	CHECK(write(out, "k", 1) == 1);
	/* 2: accepted: established once the RTU came; A's send lands in the receive */
	RUN_UNTIL(&b, b.est == 1 && b.ok == 1);
	CHECK(b.req == 2);
	CHECK(doca_rdma_task_receive_get_result_len(r) == SEND_LEN);
	CHECK(is_pattern(b.mem + B_RECV, SEND_LEN, 1));
	CHECK(write(out, "s", 1) == 1);
	/* 3: A wrote and read our memory; then we end the connection */
	CHECK(wait_cmd(&b, in) == 'd');
	CHECK(is_pattern(b.mem + B_WRITE, WLEN, 2));
	{
		uint64_t v;

		memcpy(&v, b.mem + B_ATOMIC, 8);
		CHECK(v == 12); /* 5, swapped to 9, then 3 added */
	}
	CHECK_OK(doca_rdma_connection_disconnect(b.conn));
	CHECK(write(out, "x", 1) == 1);
	/* 4: a third connection, ended by A: heard here at once */
	RUN_UNTIL(&b, b.est == 2);
	CHECK(write(out, "e", 1) == 1);
	RUN_UNTIL_S(&b, b.disc == 1, 5);
	CHECK(write(out, test_failures == 0 ? "y" : "n", 1) == 1);
	/* 5: a fourth connection; a receive of 100 bytes, and A's 200-byte send into it */
	RUN_UNTIL(&b, b.est == 3);
	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	dst = buf_at(b.mmap, b.mem, B_RECV, 100, 0);
	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	CHECK(write(out, "r", 1) == 1);
	RUN_UNTIL(&b, b.err == 1);
	CHECK(b.last == DOCA_ERROR_TOO_BIG);
	CHECK(write(out, test_failures == 0 ? "y" : "n", 1) == 1);
	CHECK(wait_cmd(&b, in) == 'q');

	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	side_down(&b);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	return test_failures == 0 ? 0 : 1;
}

/* ---- A: the client (parent) ---- */

/* Connects to 127.77.2.1:port; the connection fails or is established (the counters say). */
static void connect_to(struct side *a, uint16_t port)
{
	struct doca_rdma_addr *addr = NULL;
	int f0 = a->fail, e0 = a->est;

	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.77.2.1", port, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(a->rdma, addr, (union doca_data){.ptr = a}));
	RUN_UNTIL(a, a->fail > f0 || a->est > e0);
	CHECK_OK(doca_rdma_addr_destroy(addr));
}

/* Garbage for QP1 and for no QP at B's UDP port 4791: dropped there, nothing breaks. */
static void send_garbage(void)
{
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(4791)};
	uint8_t junk[300];
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	CHECK(fd >= 0);
	CHECK(inet_pton(AF_INET, "127.77.2.1", &to.sin_addr) == 1);
	memset(junk, 0xa5, sizeof(junk));
	junk[0] = 0x64; /* UD SEND_ONLY ... */
	junk[5] = junk[6] = 0;
	junk[7] = 1; /* ... to QP1, but no MAD in it */
	for (int i = 0; i < 3; i++)
		CHECK(sendto(fd, junk, sizeof(junk) - (size_t)i * 100, 0, (struct sockaddr *)&to, sizeof(to)) > 0);
	close(fd);
}

static void run_a(int in, int out, pid_t child)
{
	struct doca_dev *dev = open_ibdev("mlx5_0");
	struct side a;
	char blob[1024], c = 0;
	uint16_t port = 0;
	struct doca_mmap *rm;
	char *rbase;
	size_t l, rlen;
	struct doca_buf *src, *dst, *remote;
	struct doca_rdma_task_send *ts;
	struct doca_rdma_task_write *tw;
	struct doca_rdma_task_read *tr;
	int status = 0;
	double t0;

	CHECK_OK(doca_buf_inventory_create(16, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_up(&a, dev);
	CHECK(get_blob(in, &port, sizeof(port)) == sizeof(port));
	l = get_blob(in, blob, sizeof(blob));
	CHECK_OK(doca_mmap_create_from_export(NULL, blob, l, dev, &rm));
	CHECK_OK(doca_mmap_get_memrange(rm, (void **)&rbase, &rlen));

	/* 1: B's application rejects: REJ "consumer", the failure callback */
	connect_to(&a, port);
	CHECK(a.fail == 1 && a.est == 0);
	CHECK(write(out, "a", 1) == 1);
	CHECK(wait_cmd(&a, in) == 'k');
	/* nobody listens on that port: REJ "invalid service ID" at once, not the 20 s timeout */
	t0 = now_s();
	connect_to(&a, (uint16_t)(port == 65535 ? 1024 : port + 1));
	CHECK(a.fail == 2 && a.est == 0);
	CHECK(now_s() - t0 < 10);
	send_garbage();

	/* 2: accepted; a send, a write and a read over the connection */
	a.conn = NULL;
	connect_to(&a, port);
	CHECK(a.est == 1 && a.fail == 2);
	fill(a.mem + A_SEND, SEND_LEN, 1);
	src = buf_at(a.mmap, a.mem, A_SEND, SEND_LEN, SEND_LEN);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &ts));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(ts)));
	RUN_UNTIL(&a, a.ok + a.err == 1);
	CHECK(a.ok == 1);
	CHECK(wait_cmd(&a, in) == 's');
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	fill(a.mem + A_WRITE, WLEN, 2);
	src = buf_at(a.mmap, a.mem, A_WRITE, WLEN, WLEN);
	remote = buf_at(rm, rbase, B_WRITE, WLEN, 0);
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, remote, (union doca_data){0}, &tw));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(tw)));
	RUN_UNTIL(&a, a.ok + a.err == 2);
	CHECK(a.ok == 2);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	remote = buf_at(rm, rbase, B_WRITE, WLEN, WLEN);
	dst = buf_at(a.mmap, a.mem, A_READ, WLEN, 0);
	CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, remote, dst, (union doca_data){0}, &tr));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(tr)));
	RUN_UNTIL(&a, a.ok + a.err == 3);
	CHECK(a.ok == 3);
	CHECK(is_pattern(a.mem + A_READ, WLEN, 2));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	{ /* atomics on B's 5: compare-and-swap to 9 (old 5), then add 3 (old 9) */
		struct doca_rdma_task_atomic_cmp_swp *tcs;
		struct doca_rdma_task_atomic_fetch_add *tfa;
		uint64_t v;

		remote = buf_at(rm, rbase, B_ATOMIC, 8, 0);
		dst = buf_at(a.mmap, a.mem, A_ATOMIC, 8, 0);
		CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, remote, dst, 5, 9, (union doca_data){0},
								    &tcs));
		CHECK_OK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(tcs)));
		RUN_UNTIL(&a, a.ok + a.err == 4);
		memcpy(&v, a.mem + A_ATOMIC, 8);
		CHECK(a.ok == 4 && v == 5);
		CHECK_OK(doca_buf_reset_data_len(dst));
		CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, remote, dst, 3, (union doca_data){0},
								      &tfa));
		CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(tfa)));
		RUN_UNTIL(&a, a.ok + a.err == 5);
		memcpy(&v, a.mem + A_ATOMIC, 8);
		CHECK(a.ok == 5 && v == 9);
		doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(tcs));
		doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(tfa));
		CHECK_OK(doca_buf_dec_refcount(remote, NULL));
		CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	}

	/* 3: B disconnects: its DREQ ends ours at once */
	CHECK(write(out, "d", 1) == 1);
	CHECK(wait_cmd(&a, in) == 'x');
	t0 = now_s();
	RUN_UNTIL_S(&a, a.disc == 1, 5);
	CHECK(now_s() - t0 < 5);

	/* 4: a third connection; we end it and B hears it */
	a.conn = NULL;
	connect_to(&a, port);
	CHECK(a.est == 2);
	CHECK(wait_cmd(&a, in) == 'e');
	CHECK_OK(doca_rdma_connection_disconnect(a.conn));
	CHECK(wait_cmd(&a, in) == 'y');
	/* 5: a fourth connection: a send longer than B's receive */
	a.conn = NULL;
	connect_to(&a, port);
	CHECK(a.est == 3);
	CHECK(wait_cmd(&a, in) == 'r');
	fill(a.mem + A_SEND, 200, 3);
	src = buf_at(a.mmap, a.mem, A_SEND, 200, 200);
	{
		struct doca_rdma_task_send *big;

		CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &big));
		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(big)));
		RUN_UNTIL(&a, a.ok + a.err == 6);
		CHECK(a.err == 1 && a.last == DOCA_ERROR_INVALID_VALUE);
		doca_task_free(doca_rdma_task_send_as_task(big));
	}
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK(wait_cmd(&a, in) == 'y');
	CHECK(write(out, "q", 1) == 1);
	if (child > 0) {
		CHECK(waitpid(child, &status, 0) == child);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	doca_task_free(doca_rdma_task_send_as_task(ts));
	doca_task_free(doca_rdma_task_write_as_task(tw));
	doca_task_free(doca_rdma_task_read_as_task(tr));
	CHECK_OK(doca_mmap_destroy(rm));
	side_down(&a);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	(void)c;
}

static void test_cm(void)
{
	run_two_processes(run_b, run_a);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	/* a disconnection must come from the DREQ, not from the silence rule */
	setenv("SOFTDOCA_ROCE_DEAD_MS", "60000", 1);
	TEST_RUN(test_cm);
	TEST_EXIT();
}
