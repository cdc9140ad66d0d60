/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma faults and bad inputs with two real processes: the peer is a forked child,
 * connection, mmap and sync-event descriptors cross through pipes, out of band and over RDMA-CM.
 * Every wait has a deadline (and every process an alarm()), so nothing can hang the suite.
 * The transport comes from the environment (meson runs this twice: default and
 * SOFTDOCA_RDMA_TRANSPORT=tcp).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/export_desc.h"
#include "common/priv/mmap_priv.h"
#include "rdma_test.h"

#define MIB (1024 * 1024)
#define ALL_RDMA (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)
#define LRW DOCA_ACCESS_FLAG_LOCAL_READ_WRITE
#define NPOOL 128

static struct doca_dev *dev;
static struct doca_buf_inventory *inv;

SIDE_CB(recv, receive)
SIDE_CB(send, send)
SIDE_CB(rd, read)
SIDE_CB(wr, write)
SIDE_CB(cs, atomic_cmp_swp)
SIDE_CB(fa, atomic_fetch_add)
SIDE_CB(sg, remote_net_sync_event_get)
SIDE_CB(ss, remote_net_sync_event_notify_set)
SIDE_CB(sa, remote_net_sync_event_notify_add)


static void side_up(struct side *s, uint32_t perms, uint32_t mmap_perms, size_t len)
{
	side_create(s, dev, perms, mmap_perms, len);
	CHECK_OK(doca_rdma_set_max_num_connections(s->rdma, 2));
	CHECK_OK(doca_rdma_set_max_send_buf_list_len(s->rdma, 2));
	CHECK_OK(doca_rdma_task_receive_set_dst_buf_list_len(s->rdma, 2));
	CHECK_OK(doca_rdma_set_send_queue_size(s->rdma, 256));
	CHECK_OK(doca_rdma_set_connection_request_timeout(s->rdma, 2000));
	CHECK_OK(doca_rdma_task_receive_set_conf(s->rdma, recv_ok, recv_err, 16));
	CHECK_OK(doca_rdma_task_send_set_conf(s->rdma, send_ok, send_err, 16));
	CHECK_OK(doca_rdma_task_read_set_conf(s->rdma, rd_ok, rd_err, 16));
	CHECK_OK(doca_rdma_task_write_set_conf(s->rdma, wr_ok, wr_err, NPOOL));
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_set_conf(s->rdma, cs_ok, cs_err, 8));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_set_conf(s->rdma, fa_ok, fa_err, 8));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_get_set_conf(s->rdma, sg_ok, sg_err, 8));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_set_conf(s->rdma, ss_ok, ss_err, 8));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_add_set_conf(s->rdma, sa_ok, sa_err, 8));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
}

/* Progress s until cond holds or secs pass; the elapsed time is left in run_elapsed. */
static double run_elapsed;
#define RUN_FOR(s, secs, cond) \
	do { \
		double t0_ = now_s(), end_ = t0_ + (secs); \
		while (!(cond) && now_s() < end_) \
			if ((s) == NULL || doca_pe_progress((s)->pe) == 0) \
				nap(); \
		run_elapsed = now_s() - t0_; \
		CHECK(cond); \
	} while (0)

/* ---- pipes: length-prefixed messages, read with a deadline while progressing a side ---- */

static void put_msg(int fd, const void *p, uint32_t len)
{
	CHECK(write(fd, &len, sizeof(len)) == (ssize_t)sizeof(len));
	if (len > 0)
		CHECK(write(fd, p, len) == (ssize_t)len);
}

static void put_str(int fd, const char *s)
{
	put_msg(fd, s, (uint32_t)strlen(s));
}

/* Reads exactly n bytes within the deadline, progressing s (if any) while waiting. */
static bool get_exact(int fd, void *p, size_t n, struct side *s, double end)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r;

		if (now_s() > end)
			return false;
		if (s != NULL)
			doca_pe_progress(s->pe);
		r = poll(&pfd, 1, s != NULL ? 1 : 100);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		ssize_t k = read(fd, (char *)p + got, n - got);
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

/* A message into buf (cap bytes, NUL-terminated when room); its length, or -1 (checked). */
static long get_msg(int fd, void *buf, size_t cap, struct side *s)
{
	uint32_t len = 0;
	double end = now_s() + 15;
	bool ok = get_exact(fd, &len, sizeof(len), s, end) && len <= cap && get_exact(fd, buf, len, s, end);

	CHECK(ok);
	if (!ok)
		return -1;
	if (len < cap)
		((char *)buf)[len] = '\0';
	return (long)len;
}

static void expect_msg(int fd, const char *what, struct side *s)
{
	char buf[64];

	CHECK(get_msg(fd, buf, sizeof(buf) - 1, s) >= 0 && strcmp(buf, what) == 0);
}

/*
 * Connects s to the other process. Out of band: export, swap descriptors, connect (no callback).
 * RDMA-CM: the server listens on port (or another free one if it was taken meanwhile) and says
 * "L<port>"; the client connects to 127.0.0.1:<port>; both wait for the established callback.
 */
static void xconnect(struct side *s, int rfd, int wfd, bool cm, bool server, uint16_t port)
{
	if (!cm) {
		const void *d;
		size_t l;
		char blob[2048];
		long n;

		CHECK_OK(doca_rdma_export(s->rdma, &d, &l, &s->conn));
		put_msg(wfd, d, (uint32_t)l);
		n = get_msg(rfd, blob, sizeof(blob), s);
		CHECK(n > 0);
		CHECK_OK(doca_rdma_connect(s->rdma, blob, (size_t)n, s->conn));
		return;
	}
	if (server) {
		char msg[16];
		port = listen_on_free_port(s->rdma);
		snprintf(msg, sizeof(msg), "L%u", port);
		put_str(wfd, msg);
	} else {
		struct doca_rdma_addr *addr;
		char msg[16];

		CHECK(get_msg(rfd, msg, sizeof(msg) - 1, s) > 1 && msg[0] == 'L');
		port = (uint16_t)atoi(msg + 1);
		/* a RoCEv2 card's listener is on the card's address (RDMA_TEST_ADDR), a stream card's anywhere */
		CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4,
					       getenv("RDMA_TEST_ADDR") != NULL ? getenv("RDMA_TEST_ADDR") : "127.0.0.1",
					       port, &addr));
		CHECK_OK(doca_rdma_connect_to_addr(s->rdma, addr, (union doca_data){.u64 = 7}));
		RUN_FOR(s, 10, s->est == 1);
		CHECK_OK(doca_rdma_addr_destroy(addr)); /* in use until established */
		return;
	}
	RUN_FOR(s, 10, s->est == 1);
}

static struct doca_buf *lbuf(struct side *s, size_t off, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, s->mmap, s->mem + off, len, s->mem + off, data_len, &b));
	return b;
}

static struct doca_buf *rbuf(struct doca_mmap *m, uint64_t addr, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;
	void *p = (void *)(uintptr_t)addr;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, p, len, p, data_len, &b));
	return b;
}

/* The child sends its mmap descriptor and base address; the parent imports it. */
static void send_mmap(struct side *s, int wfd)
{
	const void *d;
	size_t l;
	uint64_t base = (uint64_t)(uintptr_t)s->mem;

	CHECK_OK(doca_mmap_export_rdma(s->mmap, dev, &d, &l));
	put_msg(wfd, d, (uint32_t)l);
	put_msg(wfd, &base, sizeof(base));
}

static struct doca_mmap *recv_mmap(int rfd, struct side *s, uint64_t *base)
{
	char blob[2048];
	long n = get_msg(rfd, blob, sizeof(blob), s);
	struct doca_mmap *m = NULL;

	CHECK(n > 0);
	CHECK(get_msg(rfd, base, sizeof(*base), s) == (long)sizeof(*base));
	CHECK_OK(doca_mmap_create_from_export(NULL, blob, (size_t)n, dev, &m));
	return m;
}

static void drop_mmap(struct doca_mmap *m)
{
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
}

/* fork with pipes both ways; the child runs fn and exits with its verdict. */
struct duo {
	int p2c[2], c2p[2];
	pid_t pid;
};

typedef void (*child_fn)(int rfd, int wfd, void *arg);

static void duo_start(struct duo *d, child_fn fn, void *arg)
{
	CHECK(pipe(d->p2c) == 0 && pipe(d->c2p) == 0);
	fflush(NULL);
	d->pid = fork();
	CHECK(d->pid >= 0);
	if (d->pid == 0) {
		test_failures = 0;
		test_checks = 0;
		alarm(30);
		close(d->p2c[1]);
		close(d->c2p[0]);
		fn(d->p2c[0], d->c2p[1], arg);
		fflush(NULL);
		_exit(test_failures == 0 ? 0 : 1);
	}
	close(d->p2c[0]);
	close(d->c2p[1]);
	alarm(60);
}

/* Waits for the child (within 15 s) and checks how it ended. */
static void duo_end(struct duo *d, bool killed)
{
	int status = 0;
	pid_t r = 0;
	double end = now_s() + 15;

	while ((r = waitpid(d->pid, &status, WNOHANG)) == 0 && now_s() < end)
		nap();
	if (r == 0) {
		kill(d->pid, SIGKILL);
		waitpid(d->pid, &status, 0);
		CHECK(!"child did not finish in time");
	}
	if (killed)
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	else
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(d->p2c[1]);
	close(d->c2p[0]);
	alarm(0);
}

static bool tcp_forced(void)
{
	const char *t = getenv("SOFTDOCA_RDMA_TRANSPORT");

	return t != NULL && strcmp(t, "tcp") == 0;
}

static bool is_flush_status(doca_error_t e)
{
	return e == DOCA_ERROR_CONNECTION_ABORTED || e == DOCA_ERROR_SHUTDOWN || e == DOCA_ERROR_NOT_CONNECTED;
}

/* ------------------------------------------------------------------------------------------ */
/* 1. The peer is SIGKILLed while 64 x 1 MiB writes, reads and sends are in flight. */

#define NWRITES 64
#define NREADS 8
#define NSENDS 8

struct cm_arg {
	bool cm;
	uint16_t port;
	uint32_t perms, mmap_perms;
	int variant;
};

static void killed_child(int rfd, int wfd, void *argp)
{
	struct cm_arg *a = argp;
	struct side b;
	char c;

	side_up(&b, ALL_RDMA, LRW | ALL_RDMA, 2 * MIB);
	xconnect(&b, rfd, wfd, a->cm, true, a->port);
	send_mmap(&b, wfd);
	/* No receive is posted (the sends wait for one) and the PE is never progressed again. */
	put_str(wfd, "K");
	(void)!read(rfd, &c, 1); /* killed here */
	_exit(3);
}

static void test_peer_killed(bool cm, bool mid_stream)
{
	struct cm_arg arg = {.cm = cm, .port = free_port()};
	struct duo d;
	struct side a;
	struct doca_mmap *rm;
	uint64_t base = 0;
	struct doca_buf *src, *rdst[NREADS], *rsrc, *rwin;
	struct doca_rdma_task_write *w[NWRITES];
	struct doca_rdma_task_read *r[NREADS];
	struct doca_rdma_task_send *s[NSENDS];
	const int total = NWRITES + NREADS + NSENDS;
	double t0;
	int aborted = 0;

	duo_start(&d, killed_child, &arg);
	side_up(&a, LRW, LRW, MIB + NREADS * 64 * 1024);
	memset(a.mem, 0xAB, MIB);
	xconnect(&a, d.c2p[0], d.p2c[1], cm, false, arg.port);
	rm = recv_mmap(d.c2p[0], &a, &base);
	expect_msg(d.c2p[0], "K", &a);

	src = lbuf(&a, 0, MIB, MIB);
	rwin = rbuf(rm, base, MIB, 0);
	rsrc = rbuf(rm, base + MIB, 64 * 1024, 64 * 1024);
	/*
	 * Either a send first: no receive is posted, so it waits, and everything behind it stays
	 * queued; or (mid_stream) the sends last, and the peer dies once the first write is through.
	 */
	if (!mid_stream) {
		CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &s[0]));
		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s[0])));
	}
	for (int i = 0; i < NWRITES; i++) {
		CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, rwin, (union doca_data){0}, &w[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w[i])));
	}
	for (int i = 0; i < NREADS; i++) {
		rdst[i] = lbuf(&a, MIB + (size_t)i * 64 * 1024, 64 * 1024, 0);
		CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, rsrc, rdst[i], (union doca_data){0}, &r[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(r[i])));
	}
	for (int i = mid_stream ? 0 : 1; i < NSENDS; i++) {
		CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &s[i]));
		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s[i])));
	}
	if (mid_stream)
		RUN_FOR(&a, 5, a.ok >= 1);
	CHECK(kill(d.pid, SIGKILL) == 0);
	t0 = now_s();
	RUN_FOR(&a, 5, a.ok + a.err == total);
	fprintf(stderr, "  peer killed (%s, %s): %d ok, %d failed, all completed %.3f s after the kill\n",
		cm ? "cm" : "oob", mid_stream ? "after the first write" : "behind a waiting send", a.ok, a.err,
		now_s() - t0);
	CHECK(now_s() - t0 < 5);
	CHECK(a.err >= NSENDS); /* the sends never had a receive: they were in flight for sure */
	if (!mid_stream)
		CHECK(a.ok == 0); /* nothing passes the waiting send (RC order) */
	for (int i = 0; i < a.err && i < SIDE_MAX_ERRS; i++) {
		CHECK(is_flush_status(a.errs[i]));
		aborted += a.errs[i] == DOCA_ERROR_CONNECTION_ABORTED;
	}
	CHECK(aborted >= 1); /* what was on the wire: the peer died */
	if (cm)
		RUN_FOR(&a, 5, a.fail + a.disc >= 1);
	else
		RUN_FOR(&a, 5, a.fail + a.disc >= 1); /* docs: an OOB connection's failure reaches it too */
	/* later work fails at once */
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s[0])));
	RUN_FOR(&a, 2, a.ok + a.err == total + 1);
	CHECK(a.last == DOCA_ERROR_NOT_CONNECTED);
	duo_end(&d, true);

	for (int i = 0; i < NWRITES; i++)
		doca_task_free(doca_rdma_task_write_as_task(w[i]));
	for (int i = 0; i < NREADS; i++) {
		/* a read that failed read nothing, whether its error came from the NIC or a flush */
		if (doca_task_get_status(doca_rdma_task_read_as_task(r[i])) != DOCA_SUCCESS)
			CHECK(doca_rdma_task_read_get_result_len(r[i]) == 0);
		doca_task_free(doca_rdma_task_read_as_task(r[i]));
		CHECK_OK(doca_buf_dec_refcount(rdst[i], NULL));
	}
	for (int i = 0; i < NSENDS; i++)
		doca_task_free(doca_rdma_task_send_as_task(s[i]));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(rwin, NULL));
	CHECK_OK(doca_buf_dec_refcount(rsrc, NULL));
	drop_mmap(rm);
	side_down(&a);
}
static void test_peer_killed_oob(void)
{
	test_peer_killed(false, false);
	test_peer_killed(false, true);
}
static void test_peer_killed_cm(void)
{
	test_peer_killed(true, false);
	test_peer_killed(true, true);
}

/* ------------------------------------------------------------------------------------------ */
/* 2. Corrupted, truncated and foreign connection and mmap descriptors from another process. */

static void desc_child(int rfd, int wfd, void *argp)
{
	struct side b;
	char buf[8];

	(void)argp;
	side_up(&b, ALL_RDMA, LRW | ALL_RDMA, 4096);
	strcpy(b.mem, "still connectable");
	xconnect(&b, rfd, wfd, false, false, 0);
	send_mmap(&b, wfd);
	CHECK(get_msg(rfd, buf, sizeof(buf) - 1, NULL) >= 0); /* until the parent is done */
	side_down(&b);
}

static void test_bad_descriptors(void)
{
	struct duo d;
	struct side a;
	const void *ld;
	size_t ll;
	unsigned char cd[2048], md[2048], bad[2048];
	long cl, ml;
	uint64_t base = 0;
	struct doca_mmap *m = NULL;
	int bad_conn = 0, bad_mmap = 0;

	duo_start(&d, desc_child, NULL);
	side_up(&a, LRW, LRW, 4096);
	CHECK_OK(doca_rdma_export(a.rdma, &ld, &ll, &a.conn));
	put_msg(d.p2c[1], ld, (uint32_t)ll);
	cl = get_msg(d.c2p[0], cd, sizeof(cd), &a);
	ml = get_msg(d.c2p[0], md, sizeof(md), &a);
	CHECK(get_msg(d.c2p[0], &base, sizeof(base), &a) == (long)sizeof(base));
	CHECK(cl > 0 && ml > 0);
	if (cl <= 0 || ml <= 0)
		goto out;

	/* connection descriptor: every single flipped byte, truncations, foreign and random bytes */
	for (long i = 0; i < cl; i++) {
		memcpy(bad, cd, (size_t)cl);
		bad[i] ^= 0x20;
		if (doca_rdma_connect(a.rdma, bad, (size_t)cl, a.conn) != DOCA_ERROR_INVALID_VALUE)
			bad_conn++;
	}
	CHECK(bad_conn == 0);
	CHECK_ERR(doca_rdma_connect(a.rdma, cd, (size_t)cl / 2, a.conn), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect(a.rdma, cd, (size_t)cl - 1, a.conn), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect(a.rdma, cd, 1, a.conn), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect(a.rdma, md, (size_t)ml, a.conn), DOCA_ERROR_INVALID_VALUE); /* an mmap's */
	srand(42);
	for (size_t i = 0; i < sizeof(bad); i++)
		bad[i] = (unsigned char)rand();
	CHECK_ERR(doca_rdma_connect(a.rdma, bad, (size_t)cl, a.conn), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect(a.rdma, bad, sizeof(bad), a.conn), DOCA_ERROR_INVALID_VALUE);

	/* mmap descriptor: the same */
	for (long i = 0; i < ml; i++) {
		memcpy(bad, md, (size_t)ml);
		bad[i] ^= 0x20;
		if (doca_mmap_create_from_export(NULL, bad, (size_t)ml, dev, &m) != DOCA_ERROR_INVALID_VALUE) {
			bad_mmap++;
			if (m != NULL)
				doca_mmap_destroy(m);
		}
		m = NULL;
	}
	CHECK(bad_mmap == 0);
	CHECK_ERR(doca_mmap_create_from_export(NULL, md, (size_t)ml / 2, dev, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, md, (size_t)ml - 1, dev, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, cd, (size_t)cl, dev, &m), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, bad, (size_t)ml, dev, &m), DOCA_ERROR_INVALID_VALUE);

	/* the right ones still work: read the child's memory */
	CHECK_OK(doca_rdma_connect(a.rdma, cd, (size_t)cl, a.conn));
	CHECK_OK(doca_mmap_create_from_export(NULL, md, (size_t)ml, dev, &m));
	{
		struct doca_buf *rs = rbuf(m, base, 17, 17), *ld2 = lbuf(&a, 0, 64, 0);
		struct doca_rdma_task_read *r;

		CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, rs, ld2, (union doca_data){0}, &r));
		CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(r)));
		RUN_FOR(&a, 5, a.ok + a.err == 1);
		CHECK(a.ok == 1 && memcmp(a.mem, "still connectable", 17) == 0);
		doca_task_free(doca_rdma_task_read_as_task(r));
		CHECK_OK(doca_buf_dec_refcount(rs, NULL));
		CHECK_OK(doca_buf_dec_refcount(ld2, NULL));
	}
	drop_mmap(m);
out:
	fprintf(stderr, "  descriptors: %ld-byte connection, %ld-byte mmap; %d / %d single-byte flips accepted\n",
		cl, ml, bad_conn, bad_mmap);
	put_str(d.p2c[1], "Q");
	duo_end(&d, false);
	side_down(&a);
}

/* ------------------------------------------------------------------------------------------ */
/*
 * 2b. Forged mmap descriptors: the child exports one page (RDMA read only, and over PCI) between
 * a secret page and another page. Forged descriptors (range widened or moved, write added, a PCI
 * export passed off as an RDMA one; checksum recomputed) are refused at import. An importer
 * that bypasses the import (an mmap edited after import) is refused by the target: no byte
 * outside the export is read, nothing is written. On every path (socket, CMA, window, TCP).
 */

#define PG 4096

static void forged_child(int rfd, int wfd, void *argp)
{
	struct side b;
	struct doca_mmap *exp;
	uint64_t base;
	const void *d;
	size_t l;
	char c[8];

	(void)argp;
	side_up(&b, ALL_RDMA, LRW | ALL_RDMA, 3 * PG);
	strcpy(b.mem, "secret: never exported");
	strcpy(b.mem + PG, "exported");
	strcpy(b.mem + 2 * PG, "also secret");
	exp = make_mmap(dev, b.mem + PG, PG, LRW | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	xconnect(&b, rfd, wfd, false, false, 0);
	CHECK_OK(doca_mmap_export_rdma(exp, dev, &d, &l));
	put_msg(wfd, d, (uint32_t)l);
	CHECK_OK(doca_mmap_export_pci(exp, dev, &d, &l));
	put_msg(wfd, d, (uint32_t)l);
	base = (uint64_t)(uintptr_t)b.mem;
	put_msg(wfd, &base, sizeof(base));
	CHECK(get_msg(rfd, c, sizeof(c) - 1, NULL) >= 0); /* the parent is done: show the memory */
	put_msg(wfd, b.mem, 3 * PG);
	CHECK(get_msg(rfd, c, sizeof(c) - 1, NULL) >= 0);
	CHECK_OK(doca_mmap_destroy(exp));
	side_down(&b);
}

/* One read (or write) of len bytes at addr of m; its completion status. */
static doca_error_t rdma_once(struct side *a, struct doca_mmap *m, uint64_t addr, size_t len, bool write)
{
	struct doca_buf *r = rbuf(m, addr, len, write ? 0 : len), *l = lbuf(a, 0, len, write ? len : 0);
	int before = a->ok + a->err, ok_before = a->ok;
	doca_error_t err;

	if (write) {
		struct doca_rdma_task_write *t;

		CHECK_OK(doca_rdma_task_write_allocate_init(a->rdma, a->conn, l, r, (union doca_data){0}, &t));
		CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(t)));
		RUN_FOR(a, 5, a->ok + a->err == before + 1);
		doca_task_free(doca_rdma_task_write_as_task(t));
	} else {
		struct doca_rdma_task_read *t;

		CHECK_OK(doca_rdma_task_read_allocate_init(a->rdma, a->conn, r, l, (union doca_data){0}, &t));
		CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(t)));
		RUN_FOR(a, 5, a->ok + a->err == before + 1);
		doca_task_free(doca_rdma_task_read_as_task(t));
	}
	err = a->ok > ok_before ? DOCA_SUCCESS : a->last;
	CHECK_OK(doca_buf_dec_refcount(r, NULL));
	CHECK_OK(doca_buf_dec_refcount(l, NULL));
	return err;
}

static void expect_import_refused(const struct softdoca_mmap_desc *f)
{
	uint8_t bytes[SOFTDOCA_MMAP_DESC_LEN];
	struct doca_mmap *m = NULL;

	softdoca_mmap_desc_encode(f, bytes);
	CHECK_ERR(doca_mmap_create_from_export(NULL, bytes, sizeof(bytes), dev, &m), DOCA_ERROR_INVALID_VALUE);
	if (m != NULL)
		drop_mmap(m);
}

/* The parent's end of forged_child: connected, with the child's two descriptors decoded. */
struct forged_peer {
	struct duo d;
	struct side a;
	char rd[2048];
	long rl;
	struct softdoca_mmap_desc real, pci;
	uint64_t base, exp;
};

static bool forged_begin(struct forged_peer *p)
{
	char pd[2048];
	const char *why = "";
	long pl;

	duo_start(&p->d, forged_child, NULL);
	side_up(&p->a, LRW, LRW, 3 * PG);
	p->a.success_clears_last = true;
	xconnect(&p->a, p->d.c2p[0], p->d.p2c[1], false, true, 0);
	p->rl = get_msg(p->d.c2p[0], p->rd, sizeof(p->rd), &p->a);
	pl = get_msg(p->d.c2p[0], pd, sizeof(pd), &p->a);
	CHECK(get_msg(p->d.c2p[0], &p->base, sizeof(p->base), &p->a) == (long)sizeof(p->base));
	if (p->rl <= 0 || pl <= 0)
		return false;
	CHECK_OK(softdoca_mmap_desc_decode(p->rd, (size_t)p->rl, &p->real, &why));
	CHECK_OK(softdoca_mmap_desc_decode(pd, (size_t)pl, &p->pci, &why));
	p->exp = p->base + PG;
	CHECK(p->real.addr == p->exp && p->real.len == PG);
	return true;
}

/* The child's memory is as it was; the child ends. */
static void forged_end(struct forged_peer *p)
{
	char mem[3 * PG];

	put_str(p->d.p2c[1], "D");
	CHECK(get_msg(p->d.c2p[0], mem, sizeof(mem), &p->a) == (long)sizeof(mem));
	CHECK(strcmp(mem, "secret: never exported") == 0 && strcmp(mem + PG, "exported") == 0 &&
	      strcmp(mem + 2 * PG, "also secret") == 0);
	put_str(p->d.p2c[1], "Q");
	duo_end(&p->d, false);
	side_down(&p->a);
}

static void test_forged_mmap(void)
{
	struct forged_peer p;
	struct softdoca_mmap_desc f;
	struct doca_mmap *m = NULL;

	if (forged_begin(&p)) {
		/* forged at import: the exporter runs on this host and says what it exported */
		f = p.real; /* widened over both neighbours */
		f.addr = p.base;
		f.len = 3 * PG;
		expect_import_refused(&f);
		f = p.real; /* moved onto the secret */
		f.addr = p.base;
		expect_import_refused(&f);
		f = p.real; /* write added to a read-only export */
		f.access |= DOCA_ACCESS_FLAG_RDMA_WRITE;
		expect_import_refused(&f);
		f = p.pci; /* the PCI export passed off as an RDMA export */
		f.kind = SOFTDOCA_MMAP_DESC_RDMA;
		f.access |= DOCA_ACCESS_FLAG_RDMA_READ;
		expect_import_refused(&f);
		/* the real one imports, and reads work */
		CHECK_OK(doca_mmap_create_from_export(NULL, p.rd, (size_t)p.rl, dev, &m));
		if (m != NULL) {
			CHECK_OK(rdma_once(&p.a, m, p.exp, 9, false));
			CHECK(strcmp(p.a.mem, "exported") == 0);
			drop_mmap(m);
		}
	}
	forged_end(&p);
}

/*
 * An importer that edits its mmap after the import (range, rights, or a PCI export's id and
 * token as the rkey): the target holds every access to the export. One connection per case:
 * a refused access fails the connection, as on an RC qp.
 */
static void test_forged_mmap_edited(void)
{
	static const struct {
		int lo_page;  /* the mmap's new range: pages lo_page..2 of the child's three */
		int at;       /* the access: offset from the exported page */
		int len;
		bool write;
		bool pci_key; /* the PCI export's id and token instead of the RDMA export's */
		doca_error_t want;
	} cases[] = {
		{0, -PG, 23, false, false, DOCA_ERROR_INVALID_VALUE},  /* the secret before */
		{0, PG - 8, 16, false, false, DOCA_ERROR_INVALID_VALUE}, /* across the end */
		{0, PG, 11, false, false, DOCA_ERROR_INVALID_VALUE},   /* the page after */
		{1, 0, 8, true, false, DOCA_ERROR_NOT_PERMITTED},      /* a write into read-only */
		{0, -PG, 8, true, false, DOCA_ERROR_INVALID_VALUE},    /* a write outside */
		{1, 0, 9, false, true, DOCA_ERROR_INVALID_VALUE},      /* a PCI export as an rkey */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct forged_peer p;
		struct doca_mmap *m = NULL;

		if (forged_begin(&p))
			CHECK_OK(doca_mmap_create_from_export(NULL, p.rd, (size_t)p.rl, dev, &m));
		if (m != NULL) {
			m->addr = (void *)(uintptr_t)(p.base + (uint64_t)cases[i].lo_page * PG);
			m->len = (size_t)(3 - cases[i].lo_page) * PG;
			m->access |= DOCA_ACCESS_FLAG_RDMA_WRITE;
			if (cases[i].pci_key) {
				m->export_id = p.pci.export_id;
				m->export_token = p.pci.token;
			}
			memset(p.a.mem, cases[i].write ? 'W' : 0, 64);
			CHECK_ERR(rdma_once(&p.a, m, p.exp + (uint64_t)(int64_t)cases[i].at, (size_t)cases[i].len,
					    cases[i].write),
				  cases[i].want);
			if (!cases[i].write)
				CHECK(p.a.mem[0] == 0); /* no byte came back */
			drop_mmap(m);
		}
		forged_end(&p);
	}
}

/* ------------------------------------------------------------------------------------------ */
/* 3. connect_to_addr to a port nobody listens on: the failure callback, within the timeout. */

static void test_connect_nobody(void)
{
	struct side a;
	struct doca_rdma_addr *addr;
	uint16_t port = free_port();
	double t0;

	alarm(30);
	side_up(&a, LRW, LRW, 4096);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr));
	t0 = now_s();
	CHECK_OK(doca_rdma_connect_to_addr(a.rdma, addr, (union doca_data){.u64 = 1}));
	RUN_FOR(&a, 2.5, a.fail == 1); /* within the request timeout (2000 ms, set in side_up) */
	fprintf(stderr, "  connect to nobody: failure callback after %.3f s\n", now_s() - t0);
	CHECK(a.est == 0 && a.disc == 0);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	side_down(&a);
	alarm(0);
}

/* ------------------------------------------------------------------------------------------ */
/* 4. A receive smaller than the message, across processes: both sides fail with TOO_BIG. */

static void small_recv_child(int rfd, int wfd, void *argp)
{
	struct cm_arg *a = argp;
	struct side b;
	struct doca_buf *dst;
	struct doca_rdma_task_receive *r;
	char buf[8];

	side_up(&b, LRW, LRW, 4096);
	xconnect(&b, rfd, wfd, a->cm, true, a->port);
	dst = lbuf(&b, 0, 4, 0);
	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	put_str(wfd, "R");
	RUN_FOR(&b, 5, b.ok + b.err == 1);
	CHECK(b.err == 1 && b.last == DOCA_ERROR_TOO_BIG);
	put_msg(wfd, &b.last, sizeof(b.last));
	CHECK(get_msg(rfd, buf, sizeof(buf) - 1, &b) >= 0);
	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	side_down(&b);
}

static void test_small_receive(bool cm)
{
	struct cm_arg arg = {.cm = cm, .port = free_port()};
	struct duo d;
	struct side a;
	struct doca_buf *src;
	struct doca_rdma_task_send *s;
	doca_error_t peer = DOCA_SUCCESS;

	duo_start(&d, small_recv_child, &arg);
	side_up(&a, LRW, LRW, 4096);
	xconnect(&a, d.c2p[0], d.p2c[1], cm, false, arg.port);
	expect_msg(d.c2p[0], "R", &a);
	memset(a.mem, 'm', 64);
	src = lbuf(&a, 0, 64, 64);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &s));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	RUN_FOR(&a, 5, a.ok + a.err == 1);
	CHECK(a.err == 1 && a.last == DOCA_ERROR_TOO_BIG);
	CHECK(get_msg(d.c2p[0], &peer, sizeof(peer), &a) == (long)sizeof(peer));
	CHECK(peer == DOCA_ERROR_TOO_BIG);
	fprintf(stderr, "  small receive (%s): sender %s, receiver %s\n", cm ? "cm" : "oob",
		doca_error_get_name(a.last), doca_error_get_name(peer));
	RUN_FOR(&a, 5, a.fail + a.disc >= 1); /* the failed send moved the connection to error */
	put_str(d.p2c[1], "Q");
	duo_end(&d, false);
	doca_task_free(doca_rdma_task_send_as_task(s));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	side_down(&a);
}
static void test_small_receive_oob(void)
{
	test_small_receive(false);
}
static void test_small_receive_cm(void)
{
	test_small_receive(true);
}

/* ------------------------------------------------------------------------------------------ */
/* 5. The peer disconnects (RDMA-CM): the disconnection callback, then tasks fail NOT_CONNECTED. */

static void disc_child(int rfd, int wfd, void *argp)
{
	struct cm_arg *a = argp;
	struct side b;
	struct doca_buf *src;
	struct doca_rdma_task_send *s;
	char buf[8];

	side_up(&b, ALL_RDMA, LRW | ALL_RDMA, 4096);
	xconnect(&b, rfd, wfd, true, false, a->port);
	send_mmap(&b, wfd);
	expect_msg(rfd, "D", &b);
	CHECK_OK(doca_rdma_connection_disconnect(b.conn));
	/* the disconnecting side's own later work fails too, and it gets no callback */
	src = lbuf(&b, 0, 8, 8);
	CHECK_OK(doca_rdma_task_send_allocate_init(b.rdma, b.conn, src, (union doca_data){0}, &s));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	RUN_FOR(&b, 5, b.err == 1);
	CHECK(b.last == DOCA_ERROR_NOT_CONNECTED);
	CHECK(b.disc == 0 && b.fail == 0);
	put_str(wfd, "d");
	CHECK(get_msg(rfd, buf, sizeof(buf) - 1, &b) >= 0);
	doca_task_free(doca_rdma_task_send_as_task(s));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	side_down(&b);
}

static void test_disconnected(void)
{
	struct cm_arg arg = {.cm = true, .port = free_port()};
	struct duo d;
	struct side a;
	struct doca_mmap *rm;
	uint64_t base = 0;
	struct doca_buf *src, *rw;
	struct doca_rdma_task_send *s;
	struct doca_rdma_task_write *w;
	doca_error_t e;

	duo_start(&d, disc_child, &arg);
	side_up(&a, LRW, LRW, 4096);
	xconnect(&a, d.c2p[0], d.p2c[1], true, true, arg.port);
	rm = recv_mmap(d.c2p[0], &a, &base);
	put_str(d.p2c[1], "D");
	RUN_FOR(&a, 5, a.disc == 1);
	CHECK(a.fail == 0);
	src = lbuf(&a, 0, 8, 8);
	rw = rbuf(rm, base, 64, 0);
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &s));
	e = doca_task_submit(doca_rdma_task_send_as_task(s));
	CHECK_OK(e); /* docs: the error callback says it */
	RUN_FOR(&a, 5, a.err == 1);
	CHECK(a.last == DOCA_ERROR_NOT_CONNECTED);
	CHECK(a.disc_at_err == 1); /* the disconnection callback came first */
	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, rw, (union doca_data){0}, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	RUN_FOR(&a, 5, a.err == 2);
	CHECK(a.last == DOCA_ERROR_NOT_CONNECTED && a.ok == 0);
	expect_msg(d.c2p[0], "d", &a);
	fprintf(stderr, "  disconnected: disconnection callback %d, then send/write %s\n", a.disc,
		doca_error_get_name(a.last));
	put_str(d.p2c[1], "Q");
	duo_end(&d, false);
	CHECK_OK(doca_rdma_connection_disconnect(a.conn)); /* already down: fine */
	doca_task_free(doca_rdma_task_send_as_task(s));
	doca_task_free(doca_rdma_task_write_as_task(w));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(rw, NULL));
	drop_mmap(rm);
	side_down(&a);
}

/* ------------------------------------------------------------------------------------------ */
/* 6. Unaligned atomics and buf lists over the caps: refused at submission, INVALID_VALUE. */

static void plain_child(int rfd, int wfd, void *argp)
{
	struct cm_arg *a = argp;
	struct side b;
	char buf[8];

	side_up(&b, a->perms, a->mmap_perms, 16384);
	memcpy(b.mem, "pattern!", 8);
	xconnect(&b, rfd, wfd, a->cm, true, a->port);
	send_mmap(&b, wfd);
	CHECK(get_msg(rfd, buf, sizeof(buf) - 1, &b) >= 0);
	/* the parent's write, if any, must not have landed (variant 1: permission test) */
	if (a->variant == 1)
		CHECK(memcmp(b.mem, "pattern!", 8) == 0);
	side_down(&b);
}

static void test_invalid_inputs(bool cm)
{
	struct cm_arg arg = {.cm = cm, .port = free_port(), .perms = ALL_RDMA, .mmap_perms = LRW | ALL_RDMA};
	struct duo d;
	struct side a;
	struct doca_mmap *rm;
	uint64_t base = 0, v;
	struct doca_buf *res, *un, *al, *l1, *l2, *l3, *r1, *r2, *r3;
	struct doca_rdma_task_atomic_cmp_swp *cs;
	struct doca_rdma_task_atomic_fetch_add *fa;
	struct doca_rdma_task_send *s;
	struct doca_rdma_task_receive *r;

	duo_start(&d, plain_child, &arg);
	side_up(&a, LRW, LRW, 4096);
	xconnect(&a, d.c2p[0], d.p2c[1], cm, false, arg.port);
	rm = recv_mmap(d.c2p[0], &a, &base);

	res = lbuf(&a, 0, 8, 0);
	un = rbuf(rm, base + 4097, 8, 0);
	al = rbuf(rm, base + 4096, 8, 0);
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, un, res, 0, 1, (union doca_data){0}, &cs));
	CHECK_ERR(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(cs)), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_atomic_cmp_swp_as_task(cs)), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, un, res, 1, (union doca_data){0}, &fa));
	CHECK_ERR(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)), DOCA_ERROR_INVALID_VALUE);
	/* every 1..7 misalignment */
	for (int k = 1; k < 8; k++) {
		struct doca_buf *u = rbuf(rm, base + 4096 + (uint64_t)k, 8, 0);

		doca_rdma_task_atomic_fetch_add_set_dst_buf(fa, u);
		CHECK_ERR(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)), DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_buf_dec_refcount(u, NULL));
	}

	/* send source list 3 > max_send_buf_list_len 2 */
	memcpy(a.mem + 100, "abcdefghijkl", 12);
	l1 = lbuf(&a, 100, 4, 4);
	l2 = lbuf(&a, 104, 4, 4);
	l3 = lbuf(&a, 108, 4, 4);
	CHECK_OK(doca_buf_chain_list(l1, l2));
	CHECK_OK(doca_buf_chain_list(l1, l3));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, l1, (union doca_data){0}, &s));
	CHECK_ERR(doca_task_submit(doca_rdma_task_send_as_task(s)), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_send_as_task(s)), DOCA_ERROR_INVALID_VALUE);
	/* receive destination list 3 > dst_buf_list_len 2 */
	r1 = lbuf(&a, 200, 4, 0);
	r2 = lbuf(&a, 300, 4, 0);
	r3 = lbuf(&a, 400, 4, 0);
	CHECK_OK(doca_buf_chain_list(r1, r2));
	CHECK_OK(doca_buf_chain_list(r1, r3));
	CHECK_OK(doca_rdma_task_receive_allocate_init(a.rdma, r1, (union doca_data){0}, &r));
	CHECK_ERR(doca_task_submit(doca_rdma_task_receive_as_task(r)), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_receive_as_task(r)), DOCA_ERROR_INVALID_VALUE);
	/* a receive into the peer's memory (an imported mmap), one buffer: refused as well */
	doca_rdma_task_receive_set_dst_buf(r, al);
	CHECK_ERR(doca_task_submit(doca_rdma_task_receive_as_task(r)), DOCA_ERROR_INVALID_VALUE);
	doca_rdma_task_receive_set_dst_buf(r, r1);
	CHECK(a.ok == 0 && a.err == 0);

	/* nothing was posted: the connection is fine and an aligned atomic works */
	doca_rdma_task_atomic_fetch_add_set_dst_buf(fa, al);
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)));
	RUN_FOR(&a, 5, a.ok + a.err == 1);
	CHECK(a.ok == 1);
	memcpy(&v, a.mem, 8);
	CHECK(v == 0);
	CHECK(a.fail == 0 && a.disc == 0);
	fprintf(stderr, "  invalid inputs (%s): refused at submission, connection intact\n", cm ? "cm" : "oob");

	put_str(d.p2c[1], "Q");
	duo_end(&d, false);
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(cs));
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa));
	doca_task_free(doca_rdma_task_send_as_task(s));
	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(l1, NULL));
	CHECK_OK(doca_buf_dec_refcount(r1, NULL));
	CHECK_OK(doca_buf_dec_refcount(res, NULL));
	CHECK_OK(doca_buf_dec_refcount(un, NULL));
	CHECK_OK(doca_buf_dec_refcount(al, NULL));
	drop_mmap(rm);
	side_down(&a);
}
static void test_invalid_inputs_oob(void)
{
	test_invalid_inputs(false);
}
static void test_invalid_inputs_cm(void)
{
	test_invalid_inputs(true);
}

/* ------------------------------------------------------------------------------------------ */
/* 7. Permission violations across processes: NOT_PERMITTED, then the connection fails. */

enum op { OP_READ, OP_WRITE, OP_ATOMIC };
static const char *const op_name[] = {"read", "write", "atomic"};
static const uint32_t op_right[] = {DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_RDMA_WRITE,
				    DOCA_ACCESS_FLAG_RDMA_ATOMIC};

static void perm_case(bool cm, enum op op, bool ctx_lacks)
{
	struct cm_arg arg = {.cm = cm, .port = free_port(), .variant = 1};
	struct duo d;
	struct side a;
	struct doca_mmap *rm;
	uint64_t base = 0;
	struct doca_buf *lb, *rb;
	struct doca_task *t = NULL;

	arg.perms = ctx_lacks ? ALL_RDMA & ~op_right[op] : ALL_RDMA;
	arg.mmap_perms = LRW | (ctx_lacks ? ALL_RDMA : ALL_RDMA & ~op_right[op]);
	duo_start(&d, plain_child, &arg);
	side_up(&a, LRW, LRW, 4096);
	memcpy(a.mem, "XXXXXXXX", 8);
	xconnect(&a, d.c2p[0], d.p2c[1], cm, false, arg.port);
	rm = recv_mmap(d.c2p[0], &a, &base);
	switch (op) {
	case OP_READ: {
		struct doca_rdma_task_read *x;

		rb = rbuf(rm, base, 8, 8);
		lb = lbuf(&a, 64, 64, 0);
		CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, rb, lb, (union doca_data){0}, &x));
		t = doca_rdma_task_read_as_task(x);
		break;
	}
	case OP_WRITE: {
		struct doca_rdma_task_write *x;

		rb = rbuf(rm, base, 64, 0);
		lb = lbuf(&a, 0, 8, 8);
		CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, lb, rb, (union doca_data){0}, &x));
		t = doca_rdma_task_write_as_task(x);
		break;
	}
	default: {
		struct doca_rdma_task_atomic_fetch_add *x;

		rb = rbuf(rm, base, 8, 0);
		lb = lbuf(&a, 64, 8, 0);
		CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, rb, lb, 1, (union doca_data){0},
								       &x));
		t = doca_rdma_task_atomic_fetch_add_as_task(x);
		break;
	}
	}
	CHECK_OK(doca_task_submit(t));
	RUN_FOR(&a, 5, a.ok + a.err == 1);
	CHECK(a.err == 1 && a.last == DOCA_ERROR_NOT_PERMITTED);
	RUN_FOR(&a, 5, a.fail == 1); /* the connection goes to failure */
	CHECK(a.disc == 0);
	fprintf(stderr, "  %s without RDMA_%s on the %s (%s): %s, failure callback %d\n", op_name[op],
		op == OP_READ ? "READ" : op == OP_WRITE ? "WRITE" : "ATOMIC", ctx_lacks ? "rdma ctx" : "mmap",
		cm ? "cm" : "oob", doca_error_get_name(a.last), a.fail);
	/* later work on it: NOT_CONNECTED */
	CHECK_OK(doca_task_submit(t));
	RUN_FOR(&a, 5, a.err == 2);
	CHECK(a.last == DOCA_ERROR_NOT_CONNECTED);
	put_str(d.p2c[1], "Q");
	duo_end(&d, false); /* the child checks its memory was not written */
	doca_task_free(t);
	CHECK_OK(doca_buf_dec_refcount(lb, NULL));
	CHECK_OK(doca_buf_dec_refcount(rb, NULL));
	drop_mmap(rm);
	side_down(&a);
}

static void test_permissions(bool cm)
{
	for (int op = OP_READ; op <= OP_ATOMIC; op++) {
		perm_case(cm, (enum op)op, false);
		perm_case(cm, (enum op)op, true);
	}
}
static void test_permissions_oob(void)
{
	test_permissions(false);
}
static void test_permissions_cm(void)
{
	test_permissions(true);
}

/* ------------------------------------------------------------------------------------------ */
/* 8. One-sided operations complete while the target sits in read() and never progresses. */

static void passive_child(int rfd, int wfd, void *argp)
{
	struct cm_arg *a = argp;
	struct side b;
	struct doca_sync_event *ev;
	const uint8_t *blob;
	size_t bl;
	uint64_t v = 5, now = 0;
	char c;

	side_up(&b, ALL_RDMA, LRW | ALL_RDMA, 16384);
	strcpy(b.mem + 4096, "read from a sleeping peer");
	memcpy(b.mem + 8192, &v, 8); /* CAS 5 -> 9 */
	v = 100;
	memcpy(b.mem + 8200, &v, 8); /* fetch-add +7 */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &blob, &bl));
	xconnect(&b, rfd, wfd, a->cm, true, a->port);
	send_mmap(&b, wfd);
	put_msg(wfd, blob, (uint32_t)bl);
	/* blocked: no doca_pe_progress until the parent is done */
	CHECK(read(rfd, &c, 1) == 1 && c == 'G');
	CHECK(memcmp(b.mem, "written while asleep", 20) == 0);
	memcpy(&v, b.mem + 8192, 8);
	CHECK(v == 9);
	memcpy(&v, b.mem + 8200, 8);
	CHECK(v == 107);
	CHECK_OK(doca_sync_event_get(ev, &now));
	CHECK(now == 0xD0CA + 2);
	put_str(wfd, test_failures == 0 ? "ok" : "bad");
	CHECK(read(rfd, &c, 1) == 1);
	side_down(&b);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

static void test_passive_target(bool cm)
{
	struct cm_arg arg = {.cm = cm, .port = free_port()};
	struct duo d;
	struct side a;
	struct doca_mmap *rm;
	struct doca_sync_event_remote_net *rev;
	uint64_t base = 0, v;
	char blob[2048];
	long bl;
	struct doca_buf *src, *rw, *rr, *rd, *rc, *rf, *res1, *res2, *val, *got, *res3;
	struct doca_rdma_task_write *w;
	struct doca_rdma_task_read *r;
	struct doca_rdma_task_atomic_cmp_swp *cs;
	struct doca_rdma_task_atomic_fetch_add *fa;
	struct doca_rdma_task_remote_net_sync_event_notify_set *ss;
	struct doca_rdma_task_remote_net_sync_event_notify_add *sa;
	struct doca_rdma_task_remote_net_sync_event_get *sg;

	duo_start(&d, passive_child, &arg);
	side_up(&a, LRW, LRW, 4096);
	xconnect(&a, d.c2p[0], d.p2c[1], cm, false, arg.port);
	rm = recv_mmap(d.c2p[0], &a, &base);
	bl = get_msg(d.c2p[0], blob, sizeof(blob), &a);
	CHECK(bl > 0);
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, (const uint8_t *)blob, (size_t)bl, &rev));

	strcpy(a.mem, "written while asleep");
	src = lbuf(&a, 0, 20, 20);
	rw = rbuf(rm, base, 64, 0);
	rr = rbuf(rm, base + 4096, 25, 25);
	rd = lbuf(&a, 256, 64, 0);
	rc = rbuf(rm, base + 8192, 8, 0);
	rf = rbuf(rm, base + 8200, 8, 0);
	res1 = lbuf(&a, 512, 8, 0);
	res2 = lbuf(&a, 520, 8, 0);
	v = 0xD0CA;
	memcpy(a.mem + 600, &v, 8);
	val = lbuf(&a, 600, 8, 8);
	got = lbuf(&a, 640, 8, 0);
	res3 = lbuf(&a, 680, 8, 0);

	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, src, rw, (union doca_data){0}, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, rr, rd, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(r)));
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(a.rdma, a.conn, rc, res1, 5, 9, (union doca_data){0}, &cs));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(cs)));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, rf, res2, 7, (union doca_data){0}, &fa));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)));
	RUN_FOR(&a, 5, a.ok + a.err == 4);
	CHECK(a.ok == 4);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(a.rdma, a.conn, rev, val,
									       (union doca_data){0}, &ss));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(ss)));
	RUN_FOR(&a, 5, a.ok + a.err == 5);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(a.rdma, a.conn, rev, res3, 2,
									       (union doca_data){0}, &sa));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_add_as_task(sa)));
	RUN_FOR(&a, 5, a.ok + a.err == 6);
	CHECK_OK(doca_rdma_task_remote_net_sync_event_get_allocate_init(a.rdma, a.conn, rev, got, (union doca_data){0},
									&sg));
	CHECK_OK(doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(sg)));
	RUN_FOR(&a, 5, a.ok + a.err == 7);
	CHECK(a.ok == 7);
	CHECK(memcmp(a.mem + 256, "read from a sleeping peer", 25) == 0);
	memcpy(&v, a.mem + 512, 8);
	CHECK(v == 5);
	memcpy(&v, a.mem + 520, 8);
	CHECK(v == 100);
	memcpy(&v, a.mem + 680, 8);
	CHECK(v == 0xD0CA);
	memcpy(&v, a.mem + 640, 8);
	CHECK(v == 0xD0CA + 2);
	fprintf(stderr, "  passive target (%s): %d of 7 one-sided tasks done while it slept\n", cm ? "cm" : "oob",
		a.ok);

	CHECK(write(d.p2c[1], "G", 1) == 1);
	expect_msg(d.c2p[0], "ok", &a);
	CHECK(write(d.p2c[1], "Q", 1) == 1);
	duo_end(&d, false);
	doca_task_free(doca_rdma_task_write_as_task(w));
	doca_task_free(doca_rdma_task_read_as_task(r));
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(cs));
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(ss));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_add_as_task(sa));
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(sg));
	struct doca_buf *all[] = {src, rw, rr, rd, rc, rf, res1, res2, val, got, res3};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		CHECK_OK(doca_buf_dec_refcount(all[i], NULL));
	CHECK_OK(doca_sync_event_remote_net_destroy(rev));
	drop_mmap(rm);
	side_down(&a);
}
static void test_passive_target_oob(void)
{
	test_passive_target(false);
}
static void test_passive_target_cm(void)
{
	test_passive_target(true);
}

/* ------------------------------------------------------------------------------------------ */
/*
 * 9. faults.rdma_error = 4 (injected.conf, both processes): the card fails every fourth work
 * request on purpose, as when the transport gives up on it. Three writes land; the fourth
 * fails with CONNECTION_ABORTED, the connection with it, and the work behind it fails too.
 * Only with that configuration (meson's rdma_injected*), never in the full run.
 */

static void injected_child(int rfd, int wfd, void *argp)
{
	struct cm_arg *a = argp;
	struct side b;
	char buf[8];

	side_up(&b, ALL_RDMA, LRW | ALL_RDMA, 4096);
	xconnect(&b, rfd, wfd, a->cm, true, a->port);
	send_mmap(&b, wfd);
	expect_msg(rfd, "C", &b);
	CHECK(strcmp(b.mem, "write 1") == 0 && strcmp(b.mem + 64, "write 2") == 0 && strcmp(b.mem + 128, "write 3") == 0);
	put_str(wfd, test_failures == 0 ? "ok" : "bad");
	CHECK(get_msg(rfd, buf, sizeof(buf) - 1, &b) >= 0);
	side_down(&b);
}

/* The faults' seven writes ("write 1" ... into the peer's memory): the card's fault comes with
 * the fourth (seven_writes says how they go). */
struct seven {
	struct doca_rdma_task_write *w[7];
	struct doca_buf *src[7], *dst[7];
	struct doca_mmap *rm;
};

/* Write i's place on both sides: the first three `first` bytes each, then 64-byte slots. */
static size_t seven_off(int i, size_t first)
{
	return i < 3 ? first * (size_t)i : 3 * first + 64 * (size_t)(i - 3);
}

/* Write i's bytes: "write <i+1>" and, in a larger one, a pattern of its own behind it. */
static void seven_fill(char *p, int i, size_t len)
{
	if (len > 64)
		memset(p, 'a' + i, len);
	snprintf(p, 64, "write %d", i + 1);
}

/*
 * first: the size of the first three writes. 64: each completes before the next goes, so three
 * have left when the fourth is posted. Larger: all seven go back to back, so the fourth is
 * posted while the first three are still leaving (a RoCEv2 card's send window holds less).
 */
static void seven_writes(struct seven *v, struct side *a, struct duo *d, size_t first)
{
	uint64_t base = 0;

	v->rm = recv_mmap(d->c2p[0], a, &base);
	for (int i = 0; i < 7; i++) {
		size_t off = seven_off(i, first), len = i < 3 ? first : 64;

		seven_fill(a->mem + off, i, len);
		v->src[i] = lbuf(a, off, len, len > 64 ? len : 8);
		v->dst[i] = rbuf(v->rm, base + off, len, 0);
		CHECK_OK(doca_rdma_task_write_allocate_init(a->rdma, a->conn, v->src[i], v->dst[i], (union doca_data){0},
							    &v->w[i]));
	}
	for (int i = 0; i < 3; i++) {
		CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(v->w[i])));
		if (first == 64)
			RUN_FOR(a, 5, a->ok + a->err == i + 1);
	}
	if (first == 64)
		CHECK(a->ok == 3 && a->err == 0);
	for (int i = 3; i < 7; i++)
		(void)doca_task_submit(doca_rdma_task_write_as_task(v->w[i]));
	RUN_FOR(a, 10, a->ok + a->err == 7);
	CHECK(a->ok == 3 && a->err == 4);
}

/* Tells the child to check its memory, waits for its word, and frees the writes. */
static void seven_end(struct seven *v, struct side *a, struct duo *d)
{
	put_str(d->p2c[1], "C");
	expect_msg(d->c2p[0], "ok", a);
	put_str(d->p2c[1], "Q");
	duo_end(d, false);
	for (int i = 0; i < 7; i++) {
		doca_task_free(doca_rdma_task_write_as_task(v->w[i]));
		CHECK_OK(doca_buf_dec_refcount(v->src[i], NULL));
		CHECK_OK(doca_buf_dec_refcount(v->dst[i], NULL));
	}
	drop_mmap(v->rm);
	side_down(a);
}

static void test_injected(bool cm)
{
	struct cm_arg arg = {.cm = cm, .port = free_port()};
	struct seven v;
	struct duo d;
	struct side a;

	duo_start(&d, injected_child, &arg);
	side_up(&a, LRW, LRW, 4096);
	xconnect(&a, d.c2p[0], d.p2c[1], cm, false, arg.port);
	seven_writes(&v, &a, &d, 64); /* the fourth fails, and what follows it */
	CHECK(a.errs[0] == DOCA_ERROR_CONNECTION_ABORTED);
	/* in order behind it, flushed as the qp's queued work is (also when it failed at post) */
	CHECK(a.errs[1] == DOCA_ERROR_SHUTDOWN && a.errs[2] == DOCA_ERROR_SHUTDOWN && a.errs[3] == DOCA_ERROR_SHUTDOWN);
	RUN_FOR(&a, 5, a.fail + a.disc >= 1); /* the connection failed with it */
	/* after the task's error callback, as the failed request's CQE comes first on hardware */
	CHECK(a.fail_at_err == 0 && a.disc_at_err == 0);
	fprintf(stderr, "  injected (%s): 3 writes landed, the 4th %s, then %s; connection failed %d, disconnected %d\n",
		cm ? "cm" : "oob", doca_error_get_name(a.errs[0]), doca_error_get_name(a.errs[1]), a.fail, a.disc);
	seven_end(&v, &a, &d);
}
static void test_injected_oob(void)
{
	test_injected(false);
}
static void test_injected_cm(void)
{
	test_injected(true);
}

/*
 * 10. faults.disconnect = 4 (cut.conf, both processes; the passive peer posts no work): the
 * card cuts the connection before the fourth work request leaves. Three writes land; the fourth
 * and those behind it complete CONNECTION_ABORTED, in order, none of them reaches the peer, and
 * both ends see the connection end as when the other process ends: the stream's peer at once (its
 * disconnect callback); a RoCEv2 peer (cut_roce.conf, RDMA_TEST_ADDR) when its own send goes
 * unanswered, as on a wire (the send fails and the connection ends).
 */

#define CUT_BIG (1u << 20) /* the first three writes of test_cut_queued */

static void cut_child(int rfd, int wfd, void *argp)
{
	struct cm_arg *a = argp;
	const size_t first = a->variant == 1 ? CUT_BIG : 64;
	struct side b;
	char buf[8], zero[64] = {0}, *want = malloc(first);

	side_up(&b, ALL_RDMA, LRW | ALL_RDMA, 3 * first + 4096);
	xconnect(&b, rfd, wfd, a->cm, true, a->port);
	send_mmap(&b, wfd);
	expect_msg(rfd, "C", &b);
	if (getenv("RDMA_TEST_ADDR") != NULL) { /* RoCEv2: nothing told us; our next request finds out */
		struct doca_rdma_task_send *s;
		struct doca_buf *src = lbuf(&b, 1024, 16, 16);

		CHECK_OK(doca_rdma_task_send_allocate_init(b.rdma, b.conn, src, (union doca_data){0}, &s));
		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
		RUN_FOR(&b, 15, b.err == 1 && b.disc + b.fail == 1);
		/* a silent peer is given up (SOFTDOCA_ROCE_DEAD_MS) as one that went away */
		CHECK(b.ok == 0 && b.errs[0] == DOCA_ERROR_CONNECTION_ABORTED);
		fprintf(stderr, "  cut (RoCEv2): the peer's send failed with %s after %.1f s (failed %d, disconnected %d)\n",
			doca_error_get_name(b.errs[0]), run_elapsed, b.fail, b.disc);
		doca_task_free(doca_rdma_task_send_as_task(s));
		CHECK_OK(doca_buf_dec_refcount(src, NULL));
	} else {
		RUN_FOR(&b, 5, b.disc + b.fail == 1);
		CHECK(b.disc == 1); /* the peer went away, as far as this end can tell */
	}
	CHECK(want != NULL);
	for (int i = 0; i < 3 && want != NULL; i++) { /* whole, the big ones too (each left before the cut) */
		memset(want, 0, first);
		seven_fill(want, i, first);
		CHECK(memcmp(b.mem + seven_off(i, first), want, first == 64 ? 8 : first) == 0);
	}
	for (int i = 3; i < 7; i++)
		CHECK(memcmp(b.mem + seven_off(i, first), zero, 64) == 0); /* nothing after the cut */
	free(want);
	put_str(wfd, test_failures == 0 ? "ok" : "bad");
	CHECK(get_msg(rfd, buf, sizeof(buf) - 1, &b) >= 0);
	side_down(&b);
}

static void test_cut(bool cm, bool queued)
{
	struct cm_arg arg = {.cm = cm, .port = free_port(), .variant = queued ? 1 : 0};
	const size_t first = queued ? CUT_BIG : 64;
	struct seven v;
	struct duo d;
	struct side a;

	duo_start(&d, cut_child, &arg);
	side_up(&a, LRW, LRW, 3 * first + 4096);
	xconnect(&a, d.c2p[0], d.p2c[1], cm, false, arg.port);
	seven_writes(&v, &a, &d, first); /* the cut comes before the fourth */
	for (int i = 0; i < 4; i++)
		CHECK(a.errs[i] == DOCA_ERROR_CONNECTION_ABORTED);
	RUN_FOR(&a, 5, a.fail + a.disc >= 1);
	CHECK(a.disc == 1 && a.fail == 0 && a.disc_at_err == 0); /* the callbacks of the work first */
	fprintf(stderr, "  cut (%s%s): 3 writes landed, the 4th to 7th %s; disconnected %d\n", cm ? "cm" : "oob",
		queued ? ", the fourth posted while the first three were leaving" : "", doca_error_get_name(a.errs[0]),
		a.disc);
	seven_end(&v, &a, &d);
}
static void test_cut_oob(void)
{
	test_cut(false, false);
}
static void test_cut_cm(void)
{
	test_cut(true, false);
}
/*
 * The fourth write is posted while three of 1 MiB are still leaving (on a RoCEv2 card, whose
 * send window holds less): the cut waits for its turn, so the three before it land whole.
 */
static void test_cut_queued(void)
{
	test_cut(false, true);
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;

	signal(SIGPIPE, SIG_IGN);
	setvbuf(stderr, NULL, _IONBF, 0);
	dev = open_rdma_dev();
	CHECK_OK(doca_buf_inventory_create(256, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	fprintf(stderr, "transport: %s\n", tcp_forced() ? "tcp (forced)" : "default");
#define RUN(fn) \
	do { \
		if (only == NULL || strstr(#fn, only) != NULL) \
			TEST_RUN(fn); \
	} while (0)
	RUN(test_peer_killed_oob);
	RUN(test_peer_killed_cm);
	RUN(test_bad_descriptors);
	RUN(test_forged_mmap);
	RUN(test_forged_mmap_edited);
	RUN(test_connect_nobody);
	RUN(test_small_receive_oob);
	RUN(test_small_receive_cm);
	RUN(test_disconnected);
	RUN(test_invalid_inputs_oob);
	RUN(test_invalid_inputs_cm);
	RUN(test_permissions_oob);
	RUN(test_permissions_cm);
	RUN(test_passive_target_oob);
	RUN(test_passive_target_cm);
	if (only != NULL && strstr(only, "injected") != NULL) { /* with injected.conf only */
		if (strstr("test_injected_oob", only) != NULL)
			TEST_RUN(test_injected_oob);
		if (strstr("test_injected_cm", only) != NULL)
			TEST_RUN(test_injected_cm);
	}
	if (only != NULL && strstr(only, "cut") != NULL) { /* with cut.conf only */
		if (strstr("test_cut_oob", only) != NULL)
			TEST_RUN(test_cut_oob);
		if (strstr("test_cut_cm", only) != NULL)
			TEST_RUN(test_cut_cm);
		if (strstr("test_cut_queued", only) != NULL)
			TEST_RUN(test_cut_queued);
	}
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
