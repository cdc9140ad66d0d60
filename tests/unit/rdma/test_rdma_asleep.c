/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The target asleep: a NIC moves data without the application. Two processes (fork), connected
 * out of band: the child (B, passive) posts its receives or lays out its memory, leaves its PE
 * in one of the states below, tells the parent it is ready and blocks in read() on a pipe (not
 * on its PE's notification handle). The parent (A, active) then runs one operation against it
 * and must see every completion within 10 s; only then does it write the byte B waits for. B
 * then checks its side (receives completed with the data, memory written, event set).
 *
 * B's states just before it blocks:
 *   never        receives submitted, PE never progressed since
 *   quiet        progressed 20000 times (the soft NIC's quiet mode), then stopped
 *   armed        doca_pe_request_notification, then blocked elsewhere
 *   woke         armed, woken once on the handle (A's first message), handle cleared, no
 *                progress, not armed again
 *   woke_polled  the same, then progressed until nothing was left, not armed again
 *   rnr          A's SEND went out before B posted its receive; B then submits it and blocks
 * A's operations: send (B's receive posted), send2 (two in a row), send_big (8 KiB: past the
 * same-host ring's record), send_write (a SEND and a 16 KiB WRITE right behind it: the WRITE
 * joins the ring), write (64 B), write_big (16 KiB), read (64 B), fadd (atomic fetch-add),
 * se_set (remote net sync event notify_set on B's event).
 * A waits by progressing its PE (busy, with 20 us naps), or with ":sleep" asleep on its own
 * PE's notification handle between progress calls.
 *
 * argv: scenario names "STATE:OP[:sleep]", "all" (every pair, A busy) or "all_sleep" (every pair,
 * A asleep). ASLEEP_IBDEV_A / ASLEEP_IBDEV_B: the devices of A and B by name (two RoCEv2 cards);
 * else the first RDMA device. ASLEEP_CM: connected by RDMA-CM (B listens, A connects to
 * 127.0.0.1) instead of out of band. Every wait is bounded: poll() timeouts, the 10 s bound, alarm() in
 * both processes.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/wait.h>

#include "asleep.h"
#include "rdma_test.h"
#include "roce_test.h"

#define MEM (64 * 1024)
#define BOUND_S 10.0

enum state { ST_NEVER, ST_QUIET, ST_ARMED, ST_WOKE, ST_WOKE_POLLED, ST_RNR, ST_COUNT };
enum op { OP_SEND, OP_SEND2, OP_SEND_BIG, OP_SEND_WRITE, OP_WRITE, OP_WRITE_BIG, OP_READ, OP_FADD, OP_SE_SET, OP_COUNT };

static const char *const state_names[ST_COUNT] = {"never", "quiet", "armed", "woke", "woke_polled", "rnr"};
static const char *const op_names[OP_COUNT] = {"send", "send2", "send_big", "send_write", "write",
					       "write_big", "read", "fadd", "se_set"};

/* B's memory */
#define B_RECV0 0        /* 8 KiB */
#define B_RECV1 8192     /* 8 KiB */
#define B_WAKE 16384     /* 64 B: the wake-up message */
#define B_WRITE 20480    /* 16 KiB */
#define B_READ 40960     /* 64 B */
#define B_FADD 45056     /* 8 B */
/* A's memory */
#define A_SRC 0          /* 8 KiB of 's': the messages */
#define A_WSRC 8192      /* 16 KiB of 'x': the writes */
#define A_SRC2 24576     /* 64 B of 't': the second message */
#define A_READ 28672     /* 64 B */
#define A_RES 32768      /* 8 B */
#define A_SE 36864       /* 8 B */
#define A_WAKE 40960     /* 8 B of 'w': the wake-up */

struct scenario {
	enum state st;
	enum op op;
	bool sleep;
};

static struct scenario scen[1024];
static int n_scen;
static struct doca_dev *dev;
static struct doca_buf_inventory *inv;
static int a2b[2], b2a[2];
static pid_t child;

SIDE_CB(recv, receive)
SIDE_CB(send, send)
SIDE_CB(rd, read)
SIDE_CB(wr, write)
SIDE_CB(fa, atomic_fetch_add)
SIDE_CB(ss, remote_net_sync_event_notify_set)

static void side_up(struct side *s)
{
	const uint32_t rights = DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;

	side_create(s, dev, rights, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | rights, MEM);
	CHECK_OK(doca_rdma_task_receive_set_conf(s->rdma, recv_ok, recv_err, 16));
	CHECK_OK(doca_rdma_task_send_set_conf(s->rdma, send_ok, send_err, 16));
	CHECK_OK(doca_rdma_task_read_set_conf(s->rdma, rd_ok, rd_err, 16));
	CHECK_OK(doca_rdma_task_write_set_conf(s->rdma, wr_ok, wr_err, 16));
	CHECK_OK(doca_rdma_task_atomic_fetch_add_set_conf(s->rdma, fa_ok, fa_err, 16));
	CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_set_conf(s->rdma, ss_ok, ss_err, 16));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
}

static struct doca_buf *buf_at(struct doca_mmap *m, char *base, size_t off, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, base + off, len, base + off, data_len, &b));
	return b;
}

static void put_all(const void *p, size_t n, int fd)
{
	CHECK(asleep_put(p, n, fd));
}

static void put_bytes(const void *p, uint32_t n, int fd)
{
	put_all(&n, sizeof(n), fd);
	put_all(p, n, fd);
}

static uint32_t get_bytes(void *p, uint32_t cap, int fd)
{
	uint32_t n = 0;

	if (!asleep_get(&n, sizeof(n), fd, 10) || n > cap || !asleep_get(p, n, fd, 10)) {
		fprintf(stderr, "A: B's setup did not come\n");
		exit(1);
	}
	return n;
}

/* ---- B, the passive side ---- */

static struct side b;
static struct doca_sync_event *b_ev;

static struct doca_rdma_task_receive *b_recv(size_t off, size_t len)
{
	struct doca_rdma_task_receive *r;
	struct doca_buf *dst = buf_at(b.mmap, b.mem, off, len, 0);

	CHECK_OK(doca_rdma_task_receive_allocate_init(b.rdma, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	return r;
}

static void b_recv_done(struct doca_rdma_task_receive *r, const char *what, size_t off, char fill, size_t len)
{
	struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(r);
	size_t got = 0;
	bool same = true;

	CHECK_OK(doca_buf_get_data_len(dst, &got));
	for (size_t i = 0; i < len && same; i++)
		same = b.mem[off + i] == fill;
	if (got != len || !same)
		fprintf(stderr, "B: %s: received %zu bytes (%zu expected)%s\n", what, got, len, same ? "" : ", wrong data");
	CHECK(got == len && same);
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	doca_task_free(doca_rdma_task_receive_as_task(r));
}

/* Progresses B until `want` completions were counted (5 s). */
static void b_run_until(int want)
{
	double end = now_s() + 5;

	while (b.ok + b.err < want && now_s() < end)
		if (doca_pe_progress(b.pe) == 0)
			nap();
	if (b.ok + b.err < want)
		fprintf(stderr, "B: %d completions of %d after 5 s of progress\n", b.ok + b.err, want);
	CHECK(b.ok + b.err >= want && b.err == 0);
}

static void b_scenario(const struct scenario *sc)
{
	struct doca_rdma_task_receive *r0 = NULL, *r1 = NULL, *rw = NULL;
	int base = b.ok + b.err, want = 0;
	char c = 0;
	uint64_t v;

	memset(b.mem, 0, MEM);
	for (int i = 0; i < 64; i++)
		b.mem[B_READ + i] = (char)('r' + (i & 1));
	v = 1000;
	memcpy(b.mem + B_FADD, &v, 8);
	CHECK_OK(doca_sync_event_update_set(b_ev, 0));
	if (sc->st == ST_WOKE || sc->st == ST_WOKE_POLLED) {
		rw = b_recv(B_WAKE, 64);
		want++;
	}
	if (sc->st != ST_RNR) {
		if (sc->op == OP_SEND || sc->op == OP_SEND2 || sc->op == OP_SEND_BIG || sc->op == OP_SEND_WRITE)
			r0 = b_recv(B_RECV0, 8192);
		if (sc->op == OP_SEND2)
			r1 = b_recv(B_RECV1, 8192);
	}
	switch (sc->st) {
	case ST_NEVER:
	case ST_RNR:
		break;
	case ST_QUIET:
		for (int i = 0; i < 20000; i++)
			(void)doca_pe_progress(b.pe);
		break;
	case ST_ARMED:
		CHECK_OK(doca_pe_request_notification(b.pe));
		break;
	case ST_WOKE:
	case ST_WOKE_POLLED: {
		doca_notification_handle_t h;
		struct pollfd pf = {.events = POLLIN};

		CHECK_OK(doca_pe_get_notification_handle(b.pe, &h));
		pf.fd = h;
		/* the wake-up's receive is posted: drain what came before, then sleep */
		while (doca_pe_progress(b.pe))
			;
		CHECK_OK(doca_pe_request_notification(b.pe));
		put_all("W", 1, b2a[1]);
		if (poll(&pf, 1, 10000) != 1)
			fprintf(stderr, "B: not woken by A's first message in 10 s\n");
		CHECK(pf.revents & POLLIN);
		CHECK_OK(doca_pe_clear_notification(b.pe, h));
		if (sc->st == ST_WOKE_POLLED) {
			b_run_until(base + 1);
			while (doca_pe_progress(b.pe))
				;
		}
		break;
	}
	default:
		break;
	}
	put_all("R", 1, b2a[1]);
	if (sc->st == ST_RNR) {
		CHECK(asleep_get(&c, 1, a2b[0], 30) && c == 'S'); /* A's operation went out */
		if (sc->op == OP_SEND || sc->op == OP_SEND2 || sc->op == OP_SEND_BIG || sc->op == OP_SEND_WRITE)
			r0 = b_recv(B_RECV0, 8192);
		if (sc->op == OP_SEND2)
			r1 = b_recv(B_RECV1, 8192);
		put_all("P", 1, b2a[1]);
	}
	/* asleep elsewhere: a blocking read of the pipe (the alarm bounds it) */
	CHECK(read(a2b[0], &c, 1) == 1);
	/* A's verdict came: B looks at its side */
	want += r0 != NULL ? 1 : 0;
	want += r1 != NULL ? 1 : 0;
	b_run_until(base + want);
	if (rw != NULL)
		b_recv_done(rw, "wake-up", B_WAKE, 'w', 8);
	switch (sc->op) {
	case OP_SEND:
	case OP_SEND_WRITE:
		b_recv_done(r0, "send", B_RECV0, 's', 64);
		break;
	case OP_SEND2:
		b_recv_done(r0, "send2 (first)", B_RECV0, 's', 64);
		b_recv_done(r1, "send2 (second)", B_RECV1, 't', 64);
		break;
	case OP_SEND_BIG:
		b_recv_done(r0, "send_big", B_RECV0, 's', 8192);
		break;
	default:
		break;
	}
	if (sc->op == OP_WRITE || sc->op == OP_WRITE_BIG || sc->op == OP_SEND_WRITE) {
		size_t len = sc->op == OP_WRITE ? 64 : 16384;
		bool same = true;

		for (size_t i = 0; i < len && same; i++)
			same = b.mem[B_WRITE + i] == 'x';
		CHECK(same);
	}
	if (sc->op == OP_FADD) {
		memcpy(&v, b.mem + B_FADD, 8);
		CHECK(v == 1007);
	}
	if (sc->op == OP_SE_SET) {
		CHECK_OK(doca_sync_event_get(b_ev, &v));
		CHECK(v == 0xD0CA);
	}
	put_all(test_failures == 0 ? "K" : "F", 1, b2a[1]);
	test_failures = 0; /* (said: A counts it) */
}

/* This process's device and inventory: the one named in `env`, else the first RDMA device. */
static void open_own(const char *env)
{
	dev = getenv(env) != NULL ? open_ibdev(getenv(env)) : open_rdma_dev();
	CHECK_OK(doca_buf_inventory_create(64, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
}

static int b_main(void)
{
	const uint8_t *blob;
	size_t bl;
	void *mem;
	uint64_t addr;

	alarm(300);
	test_failures = 0;
	open_own("ASLEEP_IBDEV_B");
	side_up(&b);
	if (getenv("ASLEEP_CM") != NULL) { /* RDMA-CM: B listens, A connects to 127.0.0.1 */
		uint16_t port = listen_on_free_port(b.rdma);

		put_all(&port, sizeof(port), b2a[1]);
		RUN_UNTIL_S(&b, b.est == 1, 10);
	} else {
		connect_over_pipes(b.rdma, &b.conn, a2b[0], b2a[1], true);
	}
	CHECK_OK(doca_mmap_export_rdma(b.mmap, dev, (const void **)&mem, &bl));
	put_bytes(mem, (uint32_t)bl, b2a[1]);
	addr = (uint64_t)(uintptr_t)b.mem;
	put_all(&addr, sizeof(addr), b2a[1]);
	CHECK_OK(doca_sync_event_create(&b_ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(b_ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(b_ev, dev));
	CHECK_OK(doca_sync_event_start(b_ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(b_ev, &blob, &bl));
	put_bytes(blob, (uint32_t)bl, b2a[1]);
	for (int i = 0; i < n_scen; i++)
		b_scenario(&scen[i]);
	side_down(&b);
	CHECK_OK(doca_sync_event_stop(b_ev));
	CHECK_OK(doca_sync_event_destroy(b_ev));
	return test_failures == 0 ? 0 : 1;
}

/* ---- A, the active side ---- */

static struct side a;
static struct doca_mmap *a_rm;   /* B's memory */
static char *b_base;             /* its address there */
static struct doca_sync_event_remote_net *a_rev;
static int a_sleep_fd = -1;      /* epoll set with A's notification handle */

/* Progresses A until `want` completions (or `secs`); asleep on its handle between calls if `sleep`. */
static bool a_wait(int want, double secs, bool sleep)
{
	double end = now_s() + secs;
	doca_notification_handle_t h;

	CHECK_OK(doca_pe_get_notification_handle(a.pe, &h));
	while (a.ok + a.err < want && now_s() < end) {
		if (doca_pe_progress(a.pe) != 0)
			continue;
		if (!sleep) {
			nap();
			continue;
		}
		struct epoll_event ev;

		CHECK_OK(doca_pe_request_notification(a.pe));
		(void)epoll_wait(a_sleep_fd, &ev, 1, 100);
		CHECK_OK(doca_pe_clear_notification(a.pe, h));
	}
	return a.ok + a.err >= want;
}

struct a_tasks {
	struct doca_task *t[2];
	struct doca_buf *bufs[4];
	int nt, nb;
};

static struct doca_buf *a_lbuf(struct a_tasks *at, size_t off, size_t len, size_t data_len)
{
	return at->bufs[at->nb++] = buf_at(a.mmap, a.mem, off, len, data_len);
}

static struct doca_buf *a_rbuf(struct a_tasks *at, size_t off, size_t len, size_t data_len)
{
	return at->bufs[at->nb++] = buf_at(a_rm, b_base, off, len, data_len);
}

static void a_submit(struct a_tasks *at, struct doca_task *t)
{
	at->t[at->nt++] = t;
	CHECK_OK(doca_task_submit(t));
}

static void a_send(struct a_tasks *at, size_t off, size_t len)
{
	struct doca_rdma_task_send *s;

	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, a_lbuf(at, off, len, len), (union doca_data){0}, &s));
	a_submit(at, doca_rdma_task_send_as_task(s));
}

static void a_write(struct a_tasks *at, size_t len)
{
	struct doca_rdma_task_write *w;

	CHECK_OK(doca_rdma_task_write_allocate_init(a.rdma, a.conn, a_lbuf(at, A_WSRC, len, len),
						    a_rbuf(at, B_WRITE, len, 0), (union doca_data){0}, &w));
	a_submit(at, doca_rdma_task_write_as_task(w));
}

static void a_operation(struct a_tasks *at, enum op op)
{
	switch (op) {
	case OP_SEND:
		a_send(at, A_SRC, 64);
		break;
	case OP_SEND2:
		a_send(at, A_SRC, 64);
		a_send(at, A_SRC2, 64);
		break;
	case OP_SEND_BIG:
		a_send(at, A_SRC, 8192);
		break;
	case OP_SEND_WRITE:
		a_send(at, A_SRC, 64);
		a_write(at, 16384);
		break;
	case OP_WRITE:
		a_write(at, 64);
		break;
	case OP_WRITE_BIG:
		a_write(at, 16384);
		break;
	case OP_READ: {
		struct doca_rdma_task_read *r;

		CHECK_OK(doca_rdma_task_read_allocate_init(a.rdma, a.conn, a_rbuf(at, B_READ, 64, 64),
							   a_lbuf(at, A_READ, 64, 0), (union doca_data){0}, &r));
		a_submit(at, doca_rdma_task_read_as_task(r));
		break;
	}
	case OP_FADD: {
		struct doca_rdma_task_atomic_fetch_add *f;

		CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(a.rdma, a.conn, a_rbuf(at, B_FADD, 8, 8),
								       a_lbuf(at, A_RES, 8, 0), 7, (union doca_data){0},
								       &f));
		a_submit(at, doca_rdma_task_atomic_fetch_add_as_task(f));
		break;
	}
	case OP_SE_SET: {
		struct doca_rdma_task_remote_net_sync_event_notify_set *s;

		CHECK_OK(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
			a.rdma, a.conn, a_rev, a_lbuf(at, A_SE, 8, 8), (union doca_data){0}, &s));
		a_submit(at, doca_rdma_task_remote_net_sync_event_notify_set_as_task(s));
		break;
	}
	default:
		break;
	}
}

static void a_fill(void)
{
	uint64_t v = 0xD0CA;

	memset(a.mem, 0, MEM);
	memset(a.mem + A_SRC, 's', 8192);
	memset(a.mem + A_WSRC, 'x', 16384);
	memset(a.mem + A_SRC2, 't', 64);
	memcpy(a.mem + A_SE, &v, 8);
	memset(a.mem + A_WAKE, 'w', 8);
}

/* One scenario; false if A cannot go on (B or the connection is gone). */
static bool a_scenario(const struct scenario *sc, char *name)
{
	struct a_tasks at = {0};
	int base;
	char c = 0;
	bool done;
	double t0;

	snprintf(name, 64, "%s:%s%s", state_names[sc->st], op_names[sc->op], sc->sleep ? ":sleep" : "");
	a_fill();
	if (sc->st == ST_WOKE || sc->st == ST_WOKE_POLLED) {
		struct a_tasks w = {0};

		if (!asleep_get(&c, 1, b2a[0], 30) || c != 'W')
			return false;
		base = a.ok + a.err;
		a_send(&w, A_WAKE, 8);
		if (!a_wait(base + 1, BOUND_S, sc->sleep)) {
			fprintf(stderr, "%s: the wake-up message to B (armed, asleep on its handle) did not complete\n", name);
			return false;
		}
		doca_task_free(w.t[0]);
		CHECK_OK(doca_buf_dec_refcount(w.bufs[0], NULL));
	}
	if (!asleep_get(&c, 1, b2a[0], 30) || c != 'R')
		return false;
	base = a.ok + a.err;
	t0 = now_s();
	a_operation(&at, sc->op);
	if (sc->st == ST_RNR) {
		/* B posts its receive after the message went out, then blocks */
		(void)doca_pe_progress(a.pe);
		put_all("S", 1, a2b[1]);
		if (!asleep_get(&c, 1, b2a[0], 30) || c != 'P')
			return false;
	}
	done = a_wait(base + at.nt, BOUND_S, sc->sleep);
	if (!done)
		fprintf(stderr, "%s: %d of %d completions in %.0f s while B was blocked elsewhere\n", name,
			a.ok + a.err - base, at.nt, BOUND_S);
	else if (now_s() - t0 > 1.0)
		fprintf(stderr, "%s: completed, but took %.2f s\n", name, now_s() - t0);
	CHECK(done);
	put_all("D", 1, a2b[1]); /* B wakes */
	if (!done && !a_wait(base + at.nt, BOUND_S, false)) {
		fprintf(stderr, "%s: still not complete 10 s after B woke\n", name);
		return false;
	}
	CHECK(a.err == 0);
	if (sc->op == OP_READ) {
		bool same = true;

		for (int i = 0; i < 64 && same; i++)
			same = a.mem[A_READ + i] == (char)('r' + (i & 1));
		CHECK(same);
	}
	if (sc->op == OP_FADD) {
		uint64_t old;

		memcpy(&old, a.mem + A_RES, 8);
		CHECK(old == 1000);
	}
	for (int i = 0; i < at.nt; i++)
		doca_task_free(at.t[i]);
	for (int i = 0; i < at.nb; i++)
		CHECK_OK(doca_buf_dec_refcount(at.bufs[i], NULL));
	if (!asleep_get(&c, 1, b2a[0], 30))
		return false;
	if (c != 'K')
		fprintf(stderr, "%s: B's checks failed\n", name);
	CHECK(c == 'K');
	return true;
}

static void parse(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {

		if (strcmp(argv[i], "all") == 0 || strcmp(argv[i], "all_sleep") == 0) {
			for (int s = 0; s < ST_COUNT; s++)
				for (int o = 0; o < OP_COUNT; o++) {
					/* a one-sided operation takes no receive: no receiver-not-ready case */
					if (s == ST_RNR && o != OP_SEND && o != OP_SEND2 && o != OP_SEND_BIG)
						continue;
					scen[n_scen++] = (struct scenario){(enum state)s, (enum op)o, argv[i][3] != 0};
				}
			continue;
		}
		int s, o;
		bool on_handle;

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
	char blob[4096], name[64];
	uint32_t n;
	int status = 0, passed = 0;
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t h;

	signal(SIGPIPE, SIG_IGN);
	parse(argc, argv);
	if (n_scen == 0) {
		fprintf(stderr, "usage: %s all | STATE:OP[:sleep] ...\n", argv[0]);
		return 2;
	}
	CHECK(pipe(a2b) == 0 && pipe(b2a) == 0);
	fflush(NULL);
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		TEST_ROLE();
		_exit(b_main());
	}
	alarm(300);
	open_own("ASLEEP_IBDEV_A");
	side_up(&a);
	if (getenv("ASLEEP_CM") != NULL) {
		struct doca_rdma_addr *ra;
		uint16_t port = 0;

		CHECK(asleep_get(&port, sizeof(port), b2a[0], 10));
		CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &ra));
		CHECK_OK(doca_rdma_connect_to_addr(a.rdma, ra, (union doca_data){0}));
		RUN_UNTIL_S(&a, a.est == 1, 10);
		CHECK_OK(doca_rdma_addr_destroy(ra));
	} else {
		connect_over_pipes(a.rdma, &a.conn, b2a[0], a2b[1], false);
	}
	n = get_bytes(blob, sizeof(blob), b2a[0]);
	CHECK_OK(doca_mmap_create_from_export(NULL, blob, n, dev, &a_rm));
	CHECK(asleep_get(&b_base, sizeof(b_base), b2a[0], 10));
	n = get_bytes(blob, sizeof(blob), b2a[0]);
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, (const uint8_t *)blob, n, &a_rev));
	a_sleep_fd = epoll_create1(0);
	CHECK_OK(doca_pe_get_notification_handle(a.pe, &h));
	CHECK(epoll_ctl(a_sleep_fd, EPOLL_CTL_ADD, h, &ev) == 0);
	for (int i = 0; i < n_scen; i++) {
		int before = test_failures;

		if (!a_scenario(&scen[i], name)) {
			fprintf(stderr, "FAIL %s: B or the connection is gone; the rest is not run\n", name);
			test_failures++;
			break;
		}
		fprintf(stderr, "%s %s\n", test_failures == before ? "ok" : "FAIL", name);
		passed += test_failures == before;
	}
	fprintf(stderr, "%d of %d scenarios passed\n", passed, n_scen);
	close(a2b[1]); /* B, if still waiting, reads EOF */
	if (test_failures != 0)
		kill(child, SIGKILL);
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(test_failures != 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
	if (test_failures == 0) {
		CHECK_OK(doca_sync_event_remote_net_destroy(a_rev));
		CHECK_OK(doca_mmap_destroy(a_rm));
		side_down(&a);
		CHECK_OK(doca_buf_inventory_destroy(inv));
		CHECK_OK(doca_dev_close(dev));
	}
	close(a_sleep_fd);
	TEST_EXIT();
}
