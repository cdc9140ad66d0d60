/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receiver asleep, on Comch: a DPU-side server (B, passive) with a consumer, a host-side
 * client (A, active) with a producer, two processes (this program re-executed with its role).
 * On a BlueField the producer's send is written into the consumer's posted buffer by the NIC,
 * whether or not the consumer's application progresses. Here B posts its receive buffers,
 * leaves its PE in one of the states below and blocks in read() on a pipe (not on its PE's
 * notification handle); A's operation must complete within the bound (10 s,
 * ASLEEP_BOUND_S); then A writes the byte B waits for, and B checks what it received.
 *
 * B's states just before it blocks:
 *   never   receives submitted, PE never progressed since
 *   quiet   progressed 20000 times, then stopped
 *   armed   doca_pe_request_notification, then blocked elsewhere
 *   woke    armed, woken on its handle by A's first message, handle cleared, no progress
 *   late    (fp_send only) no receive posted when A sends: A sleeps on its PE's handle and
 *           must not be woken over and over meanwhile (its send waits, it is not work); then
 *           B posts the receive, without progressing, and A's send completes
 *   stop    (fp_send only, last) after A's send completed, B stops its consumer before any
 *           progress: the placed message is delivered into the receive, not flushed; then B
 *           starts it again, and it runs (announced again with its id, which expired)
 *   two     (fp_send only) B has a second consumer, with room; no receive on the first. A sends
 *           one more than the first's ring holds and sleeps: the send waiting for the first's
 *           slot must not wake it over and over for the second's room. Then B posts, A completes
 * A's operations:
 *   fp_send    a producer send task to B's consumer (64 bytes)
 *   ctrl_send  a client send task on the connection (64 bytes; B gets it as a message event)
 *
 * argv: scenario names "STATE:OP". Every wait is bounded (poll time-outs, alarm()).
 */
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_comch.h"
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "test.h"
#include "asleep.h"
#include "dev_test.h"

/* The server's name: the first process's pid in it, so that two runs side by side do not meet */
static const char *srv_name(void)
{
	const char *n = getenv("ASLEEP_COMCH_NAME");

	return n != NULL ? n : "asleep_comch";
}
#define BUF 4096
#define NBUF 4
#define TWO_SENDS (NBUF + 1) /* "two": one more than the first consumer's ring holds */

enum state { ST_NEVER, ST_QUIET, ST_ARMED, ST_WOKE, ST_LATE, ST_STOP, ST_TWO, ST_COUNT };
enum op { OP_FP_SEND, OP_CTRL_SEND, OP_COUNT };
static const char *const state_names[ST_COUNT] = {"never", "quiet", "armed", "woke", "late", "stop", "two"};
static const char *const op_names[OP_COUNT] = {"fp_send", "ctrl_send"};

struct scenario {
	enum state st;
	enum op op;
};

static struct scenario scen[16];
static int n_scen;
static int in_fd = -1, out_fd = -1;
static double bound_s = 10;

static struct {
	struct doca_pe *pe;
	struct doca_comch_server *srv;
	struct doca_comch_client *cl;
	struct doca_comch_connection *conn;
	struct doca_comch_consumer *cons;
	struct doca_comch_producer *prod;
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	char *mem;
	uint32_t remote_id, remote_id2;
	struct doca_comch_consumer *cons2; /* "two" */
	int received, msgs, done, failed;
	char last_msg[64];
	bool done_msg, disconnected, restarted;
} g;

static void put(char c)
{
	CHECK(asleep_put(&c, 1, out_fd));
}

static char get(int secs)
{
	char c = 0;

	return asleep_get(&c, 1, in_fd, secs) ? c : 0;
}

static void mem_up(struct doca_dev *dev, uint32_t perms)
{
	g.mem = calloc(1, NBUF * BUF);
	CHECK_OK(doca_buf_inventory_create(4 * NBUF, &g.inv));
	CHECK_OK(doca_buf_inventory_start(g.inv));
	CHECK_OK(doca_mmap_create(&g.mmap));
	CHECK_OK(doca_mmap_set_memrange(g.mmap, g.mem, NBUF * BUF));
	CHECK_OK(doca_mmap_set_permissions(g.mmap, perms));
	CHECK_OK(doca_mmap_add_dev(g.mmap, dev));
	CHECK_OK(doca_mmap_start(g.mmap));
}

static void mem_down(void)
{
	CHECK_OK(doca_mmap_destroy(g.mmap));
	CHECK_OK(doca_buf_inventory_destroy(g.inv));
	free(g.mem);
}

static void progress_until(bool (*cond)(void), double secs)
{
	double end = asleep_now_s() + secs;

	while (!cond() && asleep_now_s() < end)
		(void)doca_pe_progress(g.pe);
}

/* ---- B: the server, with a consumer ---- */

static void msg_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len, struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	g.msgs++;
	if (len == 4 && memcmp(buf, "done", 4) == 0)
		g.done_msg = true;
	else if (len <= sizeof(g.last_msg))
		memcpy(g.last_msg, buf, len);
}

static void srv_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			uint8_t ok)
{
	(void)ev;
	(void)ok;
	g.conn = c;
}

static void srv_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			   uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
	g.disconnected = true;
}

static void recv_ok(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	g.received++;
	doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static void recv_err(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	g.failed++;
	doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static void ctrl_send_ok(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	g.done++;
	doca_task_free(doca_comch_task_send_as_task(t));
}

static void ctrl_send_err(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	g.failed++;
	doca_task_free(doca_comch_task_send_as_task(t));
}

static void post(int slot)
{
	struct doca_comch_consumer_task_post_recv *t;
	struct doca_buf *b;

	CHECK_OK(doca_buf_inventory_buf_get_by_addr(g.inv, g.mmap, g.mem + (size_t)slot * BUF, BUF, &b));
	CHECK_OK(doca_comch_consumer_task_post_recv_alloc_init(g.cons, b, &t));
	CHECK_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)));
}

static int want_recv, want_msgs;

static bool b_has_all(void)
{
	return g.received + g.failed >= want_recv && g.msgs >= want_msgs;
}

static bool b_has_conn(void)
{
	return g.conn != NULL;
}

static bool b_cons_running(void)
{
	return state_of(doca_comch_consumer_as_ctx(g.cons)) == DOCA_CTX_STATE_RUNNING;
}

static bool b_cons_idle(void)
{
	return state_of(doca_comch_consumer_as_ctx(g.cons)) == DOCA_CTX_STATE_IDLE;
}

static bool b_cons2_running(void)
{
	return state_of(doca_comch_consumer_as_ctx(g.cons2)) == DOCA_CTX_STATE_RUNNING;
}

static bool b_cons2_idle(void)
{
	return state_of(doca_comch_consumer_as_ctx(g.cons2)) == DOCA_CTX_STATE_IDLE;
}

static bool b_done(void)
{
	return g.done_msg;
}

static bool b_disconnected(void)
{
	return g.disconnected;
}

static bool b_srv_idle(void)
{
	return state_of(doca_comch_server_as_ctx(g.srv)) == DOCA_CTX_STATE_IDLE;
}

static void b_scenario(const struct scenario *sc)
{
	bool ok;

	memset(g.mem, 0, NBUF * BUF);
	memset(g.last_msg, 0, sizeof(g.last_msg));
	want_recv = g.received + g.failed;
	want_msgs = g.msgs;
	if (sc->st == ST_WOKE) { /* the oldest receive takes the wake-up message */
		post(1);
		want_recv++;
	}
	if (sc->st == ST_TWO) { /* a second consumer, started, and nothing posted on the first */
		CHECK_OK(doca_comch_consumer_create(g.conn, g.mmap, &g.cons2));
		CHECK_OK(doca_pe_connect_ctx(g.pe, doca_comch_consumer_as_ctx(g.cons2)));
		CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(g.cons2, recv_ok, recv_err, NBUF));
		/* (RUNNING once A's progress registered it: A waits for it, B's next progress sees it) */
		CHECK_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(g.cons2)), DOCA_ERROR_IN_PROGRESS);
		want_recv += TWO_SENDS;
	} else if (sc->op == OP_FP_SEND) {
		if (sc->st != ST_LATE)
			post(0);
		want_recv++;
	} else {
		want_msgs++;
	}
	switch (sc->st) {
	case ST_QUIET:
		for (int i = 0; i < 20000; i++)
			(void)doca_pe_progress(g.pe);
		break;
	case ST_ARMED:
		CHECK_OK(doca_pe_request_notification(g.pe));
		break;
	case ST_WOKE: {
		doca_notification_handle_t h;
		struct pollfd pf = {.events = POLLIN};

		CHECK_OK(doca_pe_get_notification_handle(g.pe, &h));
		pf.fd = h;
		while (doca_pe_progress(g.pe))
			;
		CHECK_OK(doca_pe_request_notification(g.pe));
		put('W');
		if (poll(&pf, 1, 10000) != 1)
			fprintf(stderr, "B: not woken by A's first message in 10 s\n");
		CHECK(pf.revents & POLLIN);
		CHECK_OK(doca_pe_clear_notification(g.pe, h));
		break;
	}
	default:
		break;
	}
	put('R');
	/* asleep elsewhere: a blocking read of the pipe (bounded by the alarm) */
	CHECK(read(in_fd, &(char){0}, 1) == 1);
	if (sc->st == ST_LATE) { /* A sent: the receive now, and asleep elsewhere again */
		post(0);
		CHECK(read(in_fd, &(char){0}, 1) == 1);
	}
	if (sc->st == ST_TWO) { /* A slept: the first consumer's receives now, one per message */
		for (int i = 0; i < NBUF; i++)
			post(i);
		want_recv -= 1; /* (the last one, once a buffer is free) */
		progress_until(b_has_all, 5);
		want_recv += 1;
		post(0);
		CHECK(read(in_fd, &(char){0}, 1) == 1);
	}
	if (sc->st == ST_STOP) { /* before any progress: the placed message must not be flushed */
		doca_error_t e = doca_ctx_stop(doca_comch_consumer_as_ctx(g.cons));

		CHECK(e == DOCA_SUCCESS || e == DOCA_ERROR_IN_PROGRESS); /* (a receive in flight: stopping) */
		progress_until(b_cons_idle, 5);
		CHECK(b_cons_idle());
	}
	if (sc->st == ST_STOP) { /* and again: RUNNING once A's progress registered it (server's end) */
		progress_until(b_has_all, 5);
		CHECK_ERR(doca_ctx_start(doca_comch_consumer_as_ctx(g.cons)), DOCA_ERROR_IN_PROGRESS);
		g.restarted = true;
	}
	progress_until(b_has_all, 5);
	ok = b_has_all() && g.failed == 0;
	if (!ok)
		fprintf(stderr, "B: %d receives and %d messages of %d and %d after 5 s of progress\n", g.received, g.msgs,
			want_recv, want_msgs);
	if (sc->op == OP_FP_SEND)
		for (int i = 0; i < 64; i++)
			ok = ok && g.mem[i] == 's';
	else
		for (int i = 0; i < 64; i++)
			ok = ok && g.last_msg[i] == 'c';
	if (sc->st == ST_WOKE)
		ok = ok && g.mem[BUF] == 'w';
	if (sc->st == ST_TWO) {
		progress_until(b_cons2_running, 5);
		CHECK(b_cons2_running());
		CHECK_OK(doca_ctx_stop(doca_comch_consumer_as_ctx(g.cons2)));
		progress_until(b_cons2_idle, 5);
		CHECK_OK(doca_comch_consumer_destroy(g.cons2));
		g.cons2 = NULL;
	}
	put(ok ? 'K' : 'F');
}

static void server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx, *cctx;

	CHECK_OK(doca_comch_server_create(dev, rep, srv_name(), &g.srv));
	ctx = doca_comch_server_as_ctx(g.srv);
	CHECK_OK(doca_pe_create(&g.pe));
	CHECK_OK(doca_pe_connect_ctx(g.pe, ctx));
	CHECK_OK(doca_comch_server_task_send_set_conf(g.srv, ctrl_send_ok, ctrl_send_err, 8));
	CHECK_OK(doca_comch_server_event_msg_recv_register(g.srv, msg_recv));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(g.srv, srv_connect, srv_disconnect));
	CHECK_OK(doca_ctx_start(ctx));
	put('L');
	progress_until(b_has_conn, 20);
	CHECK(g.conn != NULL);
	mem_up(dev, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	CHECK_OK(doca_comch_consumer_create(g.conn, g.mmap, &g.cons));
	cctx = doca_comch_consumer_as_ctx(g.cons);
	CHECK_OK(doca_pe_connect_ctx(g.pe, cctx));
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(g.cons, recv_ok, recv_err, NBUF));
	CHECK_ERR(doca_ctx_start(cctx), DOCA_ERROR_IN_PROGRESS);
	progress_until(b_cons_running, 20);
	CHECK(b_cons_running());
	for (int i = 0; i < n_scen; i++) {
		if (get(60) != 'S') /* A is there, with its producer */
			break;
		b_scenario(&scen[i]);
	}
	if (g.restarted) { /* A progresses while it waits for the end */
		progress_until(b_cons_running, 10);
		if (!b_cons_running())
			fprintf(stderr, "B: the consumer started again after its stop did not run in 10 s\n");
		CHECK(b_cons_running());
	}
	if (!b_cons_idle())
		CHECK_OK(doca_ctx_stop(cctx));
	progress_until(b_cons_idle, 10);
	CHECK_OK(doca_comch_consumer_destroy(g.cons));
	mem_down();
	progress_until(b_done, 20);
	CHECK_OK(doca_comch_server_disconnect(g.srv, g.conn));
	progress_until(b_disconnected, 10);
	CHECK_OK(doca_ctx_stop(ctx));
	progress_until(b_srv_idle, 10);
	CHECK_OK(doca_comch_server_destroy(g.srv));
	CHECK_OK(doca_pe_destroy(g.pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

/* ---- A: the client, with a producer ---- */

static void new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	if (g.remote_id == 0)
		g.remote_id = id;
	else
		g.remote_id2 = id; /* ("two": consumer 1 is still the target) */
}

static bool a_has_two(void)
{
	return g.remote_id2 != 0;
}

static void expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
}

static void cl_msg(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len, struct doca_comch_connection *c)
{
	(void)ev;
	(void)buf;
	(void)len;
	(void)c;
}

static void fp_send_ok(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	g.done++;
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void fp_send_err(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	g.failed++;
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void fp_send(size_t off, char fill, size_t len)
{
	struct doca_comch_producer_task_send *t;
	struct doca_buf *b;

	memset(g.mem + off, fill, len);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(g.inv, g.mmap, g.mem + off, len, &b));
	CHECK_OK(doca_comch_producer_task_send_alloc_init(g.prod, b, NULL, 0, g.remote_id, &t));
	CHECK_OK(doca_task_submit(doca_comch_producer_task_send_as_task(t)));
}

static bool a_running(void)
{
	return state_of(doca_comch_client_as_ctx(g.cl)) == DOCA_CTX_STATE_RUNNING;
}

static bool a_has_consumer(void)
{
	return g.remote_id != 0;
}

static bool a_idle(void)
{
	return state_of(doca_comch_client_as_ctx(g.cl)) == DOCA_CTX_STATE_IDLE;
}

static int want_done;

/* Asleep on the PE's handle between progress calls until cond or `secs` passed: the wake-ups. */
static int sleep_until(bool (*cond)(void), double secs)
{
	double end = asleep_now_s() + secs;
	doca_notification_handle_t h;
	int wakes = 0;

	CHECK_OK(doca_pe_get_notification_handle(g.pe, &h));
	for (;;) {
		struct pollfd pf = {.fd = (int)h, .events = POLLIN};
		double left;

		while (doca_pe_progress(g.pe))
			;
		left = end - asleep_now_s();
		if (cond() || left <= 0)
			return wakes;
		CHECK_OK(doca_pe_request_notification(g.pe));
		if (poll(&pf, 1, (int)(left * 1000) + 1) == 1)
			wakes++;
		CHECK_OK(doca_pe_clear_notification(g.pe, h));
	}
}

static bool a_all_done(void)
{
	return g.done + g.failed >= want_done;
}

/* One scenario: false once the pair is out of step. */
static bool a_scenario(const struct scenario *sc, bool *passed)
{
	struct doca_comch_task_send *ct;
	double t0;
	char c;
	bool done;

	int base = g.done + g.failed;

	put('S');
	want_done = base;
	if (sc->st == ST_WOKE) {
		if (get(30) != 'W')
			return false;
		fp_send(BUF, 'w', 8); /* its completion too waits for B's consumer */
		want_done++;
	}
	if (get(30) != 'R')
		return false;
	t0 = asleep_now_s();
	if (sc->op == OP_FP_SEND) {
		fp_send(0, 's', 64);
	} else {
		char m[64];

		memset(m, 'c', sizeof(m));
		CHECK_OK(doca_comch_client_task_send_alloc_init(g.cl, g.conn, m, sizeof(m), &ct));
		CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(ct)));
	}
	want_done++;
	if (sc->st == ST_TWO) {
		/* fp_send above was the first; the ring holds NBUF: the last waits for a slot */
		int wakes;

		progress_until(a_has_two, 5);
		for (int i = 1; i < TWO_SENDS; i++)
			fp_send((size_t)i * 64, 's', 64);
		want_done += TWO_SENDS - 1;
		wakes = sleep_until(a_all_done, 0.3);
		if (!a_has_two() || a_all_done() || wakes > 20) {
			fprintf(stderr, "two:%s: consumer 2 %s; with no receive posted the sends %s, and A was woken %d times in 0.3 s\n",
				op_names[sc->op], a_has_two() ? "announced" : "unknown", a_all_done() ? "completed" : "waited",
				wakes);
			*passed = false;
		}
		put('P'); /* B posts its receives */
		(void)sleep_until(a_all_done, bound_s);
	}
	if (sc->st == ST_LATE) {
		/* no receive yet: the send waits, and A sleeps meanwhile (a spin would wake it thousands of times) */
		int wakes = sleep_until(a_all_done, 0.3);

		if (a_all_done() || wakes > 20) {
			fprintf(stderr, "late:%s: with no receive posted the send %s, and A was woken %d times in 0.3 s\n",
				op_names[sc->op], a_all_done() ? "completed" : "waited", wakes);
			*passed = false;
		}
		put('P'); /* B posts its receive and blocks again */
		t0 = asleep_now_s();
		(void)sleep_until(a_all_done, bound_s);
	}
	progress_until(a_all_done, bound_s);
	done = a_all_done() && g.failed == 0;
	if (!done)
		fprintf(stderr, "%s:%s: %d of %d sends completed in %.0f s while B was blocked elsewhere\n",
			state_names[sc->st], op_names[sc->op], g.done + g.failed - base, want_done - base, bound_s);
	else if (asleep_now_s() - t0 > 1.0)
		fprintf(stderr, "%s:%s: completed, but took %.2f s\n", state_names[sc->st], op_names[sc->op], asleep_now_s() - t0);
	put('D');
	if (!done) {
		progress_until(a_all_done, 10);
		if (!a_all_done()) {
			fprintf(stderr, "still not complete 10 s after B woke\n");
			return false;
		}
	}
	c = get(30);
	if (c == 0)
		return false;
	if (c != 'K')
		fprintf(stderr, "%s:%s: B's checks failed\n", state_names[sc->st], op_names[sc->op]);
	*passed = *passed && done && c == 'K';
	return true;
}

static int client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_ctx *ctx, *pctx;
	struct doca_comch_task_send *t;
	int passed = 0;

	CHECK_OK(doca_comch_client_create(dev, srv_name(), &g.cl));
	ctx = doca_comch_client_as_ctx(g.cl);
	CHECK_OK(doca_pe_create(&g.pe));
	CHECK_OK(doca_pe_connect_ctx(g.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(g.cl, ctrl_send_ok, ctrl_send_err, 8));
	CHECK_OK(doca_comch_client_event_msg_recv_register(g.cl, cl_msg));
	CHECK_OK(doca_comch_client_event_consumer_register(g.cl, new_consumer, expired_consumer));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until(a_running, 20);
	CHECK_OK(doca_comch_client_get_connection(g.cl, &g.conn));
	progress_until(a_has_consumer, 20);
	CHECK(g.remote_id != 0);
	CHECK_OK(doca_comch_producer_create(g.conn, &g.prod));
	pctx = doca_comch_producer_as_ctx(g.prod);
	CHECK_OK(doca_pe_connect_ctx(g.pe, pctx));
	CHECK_OK(doca_comch_producer_task_send_set_conf(g.prod, fp_send_ok, fp_send_err, 8));
	CHECK_OK(doca_ctx_start(pctx));
	mem_up(dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	for (int i = 0; i < n_scen; i++) {
		bool ok = true; /* (a_scenario clears it) */

		if (!a_scenario(&scen[i], &ok)) {
			fprintf(stderr, "FAIL %s:%s: the pair is out of step; the rest is not run\n", state_names[scen[i].st],
				op_names[scen[i].op]);
			return 1;
		}
		fprintf(stderr, "%s %s:%s\n", ok ? "ok" : "FAIL", state_names[scen[i].st], op_names[scen[i].op]);
		passed += ok;
	}
	fprintf(stderr, "%d of %d scenarios passed\n", passed, n_scen);
	CHECK_OK(doca_ctx_stop(pctx));
	CHECK_OK(doca_comch_producer_destroy(g.prod));
	mem_down();
	CHECK_OK(doca_comch_client_task_send_alloc_init(g.cl, g.conn, "done", 4, &t));
	CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
	progress_until(a_idle, 20);
	CHECK_OK(doca_comch_client_destroy(g.cl));
	CHECK_OK(doca_pe_destroy(g.pe));
	doca_dev_close(dev);
	return passed == n_scen ? 0 : 1;
}

static void parse(int argc, char **argv, int from)
{
	for (int i = from; i < argc; i++) {
		int s, o;
		bool on_handle;

		if (!asleep_scenario(argv[i], state_names, ST_COUNT, op_names, OP_COUNT, &s, &o, &on_handle) ||
		    n_scen == (int)(sizeof(scen) / sizeof(scen[0]))) {
			fprintf(stderr, "unknown scenario %s\n", argv[i]);
			exit(2);
		}
		scen[n_scen++] = (struct scenario){(enum state)s, (enum op)o};
	}
}

static pid_t spawn(const char *self, const char *role, int rfd, int wfd, int argc, char **argv)
{
	char r[16], w[16];
	char *args[40];
	int n = 0;
	pid_t pid;

	snprintf(r, sizeof(r), "%d", rfd);
	snprintf(w, sizeof(w), "%d", wfd);
	args[n++] = (char *)self;
	args[n++] = (char *)"child";
	args[n++] = (char *)role;
	args[n++] = r;
	args[n++] = w;
	for (int i = 1; i < argc && n < 39; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("SOFTDOCA_ROLE", strcmp(role, "server") == 0 ? "dpu" : "host", 1);
		execv(self, args);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	char self[4096], name[64];
	int a2b[2], b2a[2], st_b = 0, st_a = 0;
	ssize_t n;
	pid_t b, a;

	if (getenv("ASLEEP_BOUND_S") != NULL)
		bound_s = atof(getenv("ASLEEP_BOUND_S"));
	if (argc >= 5 && strcmp(argv[1], "child") == 0) {
		TEST_ROLE();
		alarm(120);
		signal(SIGPIPE, SIG_IGN);
		in_fd = atoi(argv[3]);
		out_fd = atoi(argv[4]);
		parse(argc, argv, 5);
		if (strcmp(argv[2], "server") == 0) {
			server();
			fprintf(stderr, "server: %d checks, %d failed\n", test_checks, test_failures);
			return test_failures == 0 ? 0 : 1;
		}
		if (get(30) != 'L') /* the server runs */
			return 1;
		n = client();
		fprintf(stderr, "client: %d checks, %d failed\n", test_checks, test_failures);
		return n == 0 && test_failures == 0 ? 0 : 1;
	}
	parse(argc, argv, 1);
	if (n_scen == 0) {
		fprintf(stderr, "usage: %s STATE:OP ...\n", argv[0]);
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = 0;
	snprintf(name, sizeof(name), "asleep_comch_%d", (int)getpid());
	setenv("ASLEEP_COMCH_NAME", name, 1);
	CHECK(pipe(a2b) == 0 && pipe(b2a) == 0);
	b = spawn(self, "server", a2b[0], b2a[1], argc, argv);
	a = spawn(self, "client", b2a[0], a2b[1], argc, argv);
	close(a2b[0]);
	close(a2b[1]);
	close(b2a[0]);
	close(b2a[1]);
	CHECK(waitpid(a, &st_a, 0) == a);
	if (!WIFEXITED(st_a) || WEXITSTATUS(st_a) != 0)
		kill(b, SIGKILL);
	CHECK(waitpid(b, &st_b, 0) == b);
	CHECK(WIFEXITED(st_a) && WEXITSTATUS(st_a) == 0);
	CHECK(WIFEXITED(st_b) && WEXITSTATUS(st_b) == 0);
	TEST_EXIT();
}
