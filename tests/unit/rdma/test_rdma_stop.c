/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_ctx_stop of an RDMA context (lib/rdma/rdma.c): from inside a callback of its PE, once
 * the context made a connection, the stop is asynchronous (NVIDIA's rdma_sync_event_requester
 * wants IN_PROGRESS there): the state callback says STOPPING, then IDLE from a later
 * doca_pe_progress, and a PE sleeping on its notification handle wakes for that IDLE without
 * spinning. Outside a callback with no task allocated, or without a connection, the stop is
 * synchronous (NVIDIA's storage applications stop a connected context and destroy it at once).
 * The peer is another context of this process, or another process (fork), out of band or
 * over RDMA-CM.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doca_log.h"
#include "log_test.h"
#include "rdma_test.h"

#define MEM 4096
#define WAKE_MS 5000 /* bound of a wait that must wake (it should at once) */

static struct doca_dev *dev;
static struct doca_buf_inventory *inv;
static FILE *sdk_log;

/* doca_pe_progress calls made by this test, so that a state change can say which one ran it */
static unsigned int progress_calls;
static bool in_stop_call; /* inside a doca_ctx_stop() made by the test itself */

#define MAX_STATES 8

/* A side whose send completion may stop its context from inside the callback. */
struct stopper {
	struct side s; /* first: the ctx user data points at both */
	bool stop_in_cb;
	doca_error_t stop_result; /* what doca_ctx_stop returned inside the callback */
	unsigned int stop_progress; /* progress call that ran that callback */
	int nstates;
	enum doca_ctx_states states[MAX_STATES];
	unsigned int state_progress[MAX_STATES]; /* progress call of each change, 0 if none ran it */
	bool state_in_stop[MAX_STATES];
};

SIDE_CB(recv, receive)

static unsigned int progress(struct doca_pe *pe)
{
	unsigned int n;

	progress_calls++;
	n = doca_pe_progress(pe);
	return n;
}

static void on_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	struct stopper *st = ud.ptr;

	(void)ctx;
	(void)prev;
	if (st->nstates >= MAX_STATES)
		return;
	st->states[st->nstates] = next;
	st->state_progress[st->nstates] = in_stop_call ? 0 : progress_calls;
	st->state_in_stop[st->nstates] = in_stop_call;
	st->nstates++;
}

/* As NVIDIA's rdma_sync_event_requester: free the last task, disconnect (RDMA-CM), stop. */
static void on_send(struct doca_rdma_task_send *t, union doca_data tu, union doca_data cu)
{
	struct stopper *st = cu.ptr;
	struct doca_ctx *ctx = doca_rdma_as_ctx(st->s.rdma);

	(void)tu;
	if (doca_task_get_status(doca_rdma_task_send_as_task(t)) == DOCA_SUCCESS)
		side_task_ok(&st->s, doca_rdma_task_send_as_task(t));
	else
		side_task_err(&st->s, doca_rdma_task_send_as_task(t));
	if (!st->stop_in_cb)
		return;
	doca_task_free(doca_rdma_task_send_as_task(t));
	if (st->s.conn != NULL && st->s.est > 0)
		CHECK_OK(doca_rdma_connection_disconnect(st->s.conn));
	st->stop_result = doca_ctx_stop(ctx);
	st->stop_progress = progress_calls;
}

static void stopper_up(struct stopper *st)
{
	struct doca_ctx *ctx;

	memset(st, 0, sizeof(*st));
	side_create(&st->s, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, MEM);
	ctx = doca_rdma_as_ctx(st->s.rdma);
	CHECK_OK(doca_rdma_set_max_num_connections(st->s.rdma, 2));
	CHECK_OK(doca_rdma_task_receive_set_conf(st->s.rdma, recv_ok, recv_err, 4));
	CHECK_OK(doca_rdma_task_send_set_conf(st->s.rdma, on_send, on_send, 4));
	CHECK_OK(doca_ctx_set_state_changed_cb(ctx, on_state));
	CHECK_OK(doca_ctx_start(ctx));
	CHECK(st->nstates == 1 && st->states[0] == DOCA_CTX_STATE_RUNNING);
	st->nstates = 0;
}

static doca_error_t stop(struct stopper *st)
{
	doca_error_t err;

	in_stop_call = true;
	err = doca_ctx_stop(doca_rdma_as_ctx(st->s.rdma));
	in_stop_call = false;
	return err;
}

static enum doca_ctx_states state_of(struct stopper *st)
{
	enum doca_ctx_states s = DOCA_CTX_STATE_RUNNING;

	CHECK_OK(doca_ctx_get_state(doca_rdma_as_ctx(st->s.rdma), &s));
	return s;
}

/* Progress a (and b, when not NULL) until cond holds or ~5 s pass. */
#define RUN_UNTIL(a, b, cond) \
	do { \
		double end_ = now_s() + 5; \
		while (!(cond) && now_s() < end_) { \
			unsigned int p_ = progress((a)->pe); \
			if ((b) != NULL) \
				p_ += progress(((struct side *)(b))->pe); \
			if (p_ == 0) \
				nap(); \
		} \
		CHECK(cond); \
	} while (0)

/* The PE's notification handle in an epoll set, as an event-driven DOCA program waits. */
struct waiter {
	int ep;
	doca_notification_handle_t h;
	struct doca_pe *pe;
};

static void waiter_init(struct waiter *w, struct doca_pe *pe)
{
	struct epoll_event ev = {.events = EPOLLIN};

	w->pe = pe;
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	CHECK(w->ep >= 0);
	CHECK_OK(doca_pe_get_notification_handle(pe, &w->h));
	CHECK(epoll_ctl(w->ep, EPOLL_CTL_ADD, (int)w->h, &ev) == 0);
}

/* Sleeps on the handle (already armed) for at most timeout_ms; true if it woke. */
static bool waiter_sleep(struct waiter *w, int timeout_ms)
{
	struct epoll_event out;
	int n = epoll_wait(w->ep, &out, 1, timeout_ms);

	CHECK_OK(doca_pe_clear_notification(w->pe, w->h));
	return n == 1;
}

/* Arms the handle and sleeps on it. */
static bool waiter_wait(struct waiter *w, int timeout_ms)
{
	CHECK_OK(doca_pe_request_notification(w->pe));
	return waiter_sleep(w, timeout_ms);
}

static void waiter_fini(struct waiter *w)
{
	close(w->ep);
}

/*
 * The stopper's send (to a receive its peer posted) completes; its callback frees the task and
 * stops the context: IN_PROGRESS, STOPPING. Then the stopper alone sleeps on its notification
 * handle, wakes, and one progress brings IDLE. peer is progressed too when in this process.
 */
static void send_then_stop_in_callback(struct stopper *a, struct side *peer)
{
	struct doca_buf *src;
	struct doca_rdma_task_send *s;
	struct waiter w;
	unsigned int idle_progress;

	strcpy(a->s.mem, "stop me");
	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, a->s.mmap, a->s.mem, 7, a->s.mem, 7, &src));
	CHECK_OK(doca_rdma_task_send_allocate_init(a->s.rdma, a->s.conn, src, (union doca_data){0}, &s));
	a->stop_in_cb = true;
	a->stop_result = DOCA_ERROR_UNKNOWN;
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(s)));
	RUN_UNTIL(&a->s, peer, a->s.ok + a->s.err == 1);
	CHECK(a->s.ok == 1);
	CHECK_ERR(a->stop_result, DOCA_ERROR_IN_PROGRESS);
	CHECK(state_of(a) == DOCA_CTX_STATE_STOPPING);
	CHECK(a->nstates == 1 && a->states[0] == DOCA_CTX_STATE_STOPPING);
	CHECK(a->state_progress[0] == a->stop_progress); /* inside the callback's progress */
	CHECK_ERR(stop(a), DOCA_ERROR_IN_PROGRESS);      /* again, while STOPPING */

	/* Event-driven: the PE's owner arms, sleeps, and must wake for the pending IDLE. */
	waiter_init(&w, a->s.pe);
	CHECK(waiter_wait(&w, WAKE_MS));
	progress(a->s.pe);
	idle_progress = progress_calls;
	CHECK(state_of(a) == DOCA_CTX_STATE_IDLE);
	CHECK(a->nstates == 2 && a->states[1] == DOCA_CTX_STATE_IDLE);
	CHECK(a->state_progress[1] == idle_progress && idle_progress > a->stop_progress);
	CHECK(!a->state_in_stop[1]);
	/* IDLE: nothing pending, so an armed handle stays quiet (a loop around it would not spin) */
	CHECK(!waiter_wait(&w, 0));
	waiter_fini(&w);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
}

static void post_receive(struct side *b, struct doca_buf **dst, struct doca_rdma_task_receive **r)
{
	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, b->mmap, b->mem, 64, b->mem, 0, dst));
	CHECK_OK(doca_rdma_task_receive_allocate_init(b->rdma, *dst, (union doca_data){0}, r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(*r)));
}

static void connect_oob(struct side *a, struct side *b)
{
	const void *da, *db;
	size_t la, lb;

	CHECK_OK(doca_rdma_export(a->rdma, &da, &la, &a->conn));
	CHECK_OK(doca_rdma_export(b->rdma, &db, &lb, &b->conn));
	CHECK_OK(doca_rdma_connect(a->rdma, db, lb, a->conn));
	CHECK_OK(doca_rdma_connect(b->rdma, da, la, b->conn));
}

static void stopper_down(struct stopper *st)
{
	if (state_of(st) != DOCA_CTX_STATE_IDLE)
		side_down(&st->s); /* stops and waits for IDLE */
	else {
		CHECK_OK(doca_rdma_destroy(st->s.rdma));
		CHECK_OK(doca_pe_destroy(st->s.pe));
		CHECK_OK(doca_mmap_destroy(st->s.mmap));
		free(st->s.mem);
	}
}

/* Out of band, the peer in this process. */
static void test_stop_in_callback_oob(void)
{
	struct stopper a, b;
	struct doca_buf *dst;
	struct doca_rdma_task_receive *r;

	stopper_up(&a);
	stopper_up(&b);
	connect_oob(&a.s, &b.s);
	post_receive(&b.s, &dst, &r);
	send_then_stop_in_callback(&a, &b.s);
	RUN_UNTIL(&b.s, NULL, b.s.ok == 1);
	CHECK(memcmp(b.s.mem, "stop me", 7) == 0);
	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	stopper_down(&a);
	stopper_down(&b);
}

/* RDMA-CM, the stopper is the client and disconnects first, as the sample does with -cm. */
static void test_stop_in_callback_cm(void)
{
	struct stopper a, b;
	struct doca_rdma_addr *addr;
	struct doca_buf *dst;
	struct doca_rdma_task_receive *r;
	uint16_t port;

	stopper_up(&a);
	stopper_up(&b);
	port = listen_on_free_port(b.s.rdma);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(a.s.rdma, addr, (union doca_data){0}));
	RUN_UNTIL(&a.s, &b.s, a.s.est == 1 && b.s.est == 1);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	post_receive(&b.s, &dst, &r);
	send_then_stop_in_callback(&a, &b.s);
	RUN_UNTIL(&b.s, NULL, b.s.ok == 1 && b.s.disc == 1);
	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	stopper_down(&a);
	stopper_down(&b);
}

/* Out of band, the peer in another process: the stopper's PE alone runs here. */
static void test_stop_in_callback_fork(void)
{
	int p2c[2], c2p[2];
	pid_t pid;
	struct stopper a;
	char c;
	int status = -1;

	CHECK(pipe(p2c) == 0 && pipe(c2p) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct stopper b;
		struct doca_buf *dst;
		struct doca_rdma_task_receive *r;

		alarm(30); /* a hang fails the child, then the parent */
		test_failures = 0;
		stopper_up(&b);
		connect_over_pipes(b.s.rdma, &b.s.conn, p2c[0], c2p[1], true);
		post_receive(&b.s, &dst, &r);
		CHECK(write(c2p[1], "R", 1) == 1);
		RUN_UNTIL(&b.s, NULL, b.s.ok == 1);
		CHECK(memcmp(b.s.mem, "stop me", 7) == 0);
		doca_task_free(doca_rdma_task_receive_as_task(r));
		CHECK_OK(doca_buf_dec_refcount(dst, NULL));
		stopper_down(&b);
		_exit(test_failures == 0 ? 0 : 1);
	}
	stopper_up(&a);
	connect_over_pipes(a.s.rdma, &a.s.conn, c2p[0], p2c[1], false);
	CHECK(read(c2p[0], &c, 1) == 1); /* the receive is posted */
	send_then_stop_in_callback(&a, NULL);
	stopper_down(&a);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(p2c[0]);
	close(p2c[1]);
	close(c2p[0]);
	close(c2p[1]);
}

/*
 * Stopped from outside a callback with a task still allocated: STOPPING, and the context waits
 * (quietly: an armed handle does not fire) for the task; its free wakes the sleeper, and the
 * next progress brings IDLE. While STOPPING, destroy is refused with its line.
 */
static void test_stop_waits_for_allocated_task(void)
{
	struct stopper a, b;
	struct doca_rdma_task_send *s;
	struct doca_buf *src;
	struct waiter w;

	stopper_up(&a);
	stopper_up(&b);
	connect_oob(&a.s, &b.s);
	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, a.s.mmap, a.s.mem, 8, a.s.mem, 8, &src));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.s.rdma, a.s.conn, src, (union doca_data){0}, &s));
	CHECK_ERR(stop(&a), DOCA_ERROR_IN_PROGRESS);
	CHECK(a.nstates == 1 && a.states[0] == DOCA_CTX_STATE_STOPPING && a.state_in_stop[0]);
	CHECK_ERR(stop(&a), DOCA_ERROR_IN_PROGRESS);
	(void)log_take(sdk_log, ""); /* forget earlier lines */
	CHECK_ERR(doca_rdma_destroy(a.s.rdma), DOCA_ERROR_BAD_STATE);
	CHECK(log_take(sdk_log, "Failed to destroy RDMA context: it is STOPPING; call doca_ctx_stop() and "
				"progress the PE until the context is IDLE"));

	waiter_init(&w, a.s.pe);
	CHECK(progress(a.s.pe) == 0);
	CHECK(state_of(&a) == DOCA_CTX_STATE_STOPPING); /* the task is still allocated */
	CHECK(!waiter_wait(&w, 0));                     /* nothing to do until it is freed: no spin */
	CHECK_OK(doca_pe_request_notification(a.s.pe));
	doca_task_free(doca_rdma_task_send_as_task(s));
	CHECK(waiter_sleep(&w, WAKE_MS));
	progress(a.s.pe);
	CHECK(state_of(&a) == DOCA_CTX_STATE_IDLE);
	CHECK(a.nstates == 2 && a.states[1] == DOCA_CTX_STATE_IDLE && !a.state_in_stop[1]);
	waiter_fini(&w);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	stopper_down(&a);
	stopper_down(&b);
}

/*
 * The rule's other half: outside a callback with no task allocated, or without a connection,
 * the stop is synchronous (SUCCESS, IDLE inside the call). NVIDIA's storage applications stop
 * a connected data context that way and destroy it right after.
 */
static void test_stop_synchronous(void)
{
	struct stopper a, b;
	struct doca_ctx *ctx;
	const void *d;
	size_t l;
	struct doca_rdma_connection *c;

	stopper_up(&a);
	ctx = doca_rdma_as_ctx(a.s.rdma);
	/* started, never connected */
	CHECK_OK(stop(&a));
	CHECK(a.nstates == 1 && a.states[0] == DOCA_CTX_STATE_IDLE && a.state_in_stop[0]);
	/* listening only: still no connection */
	a.nstates = 0;
	CHECK_OK(doca_ctx_start(ctx));
	(void)listen_on_free_port(a.s.rdma);
	CHECK_OK(stop(&a));
	CHECK(a.nstates == 2 && a.states[1] == DOCA_CTX_STATE_IDLE && a.state_in_stop[1]);
	/* an exported connection (a QP), stopped outside a callback */
	a.nstates = 0;
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_OK(doca_rdma_export(a.s.rdma, &d, &l, &c));
	CHECK_OK(stop(&a));
	CHECK(a.nstates == 2 && a.states[1] == DOCA_CTX_STATE_IDLE && a.state_in_stop[1]);
	stopper_down(&a);

	/* connected both ways, no task: IDLE at once, and destroy right away (stopper_down) */
	stopper_up(&a);
	stopper_up(&b);
	connect_oob(&a.s, &b.s);
	CHECK_OK(stop(&a));
	CHECK(state_of(&a) == DOCA_CTX_STATE_IDLE);
	CHECK(a.nstates == 1 && a.states[0] == DOCA_CTX_STATE_IDLE && a.state_in_stop[0]);
	stopper_down(&a);
	stopper_down(&b);
}

int main(void)
{
	struct doca_log_backend *sdk = NULL;

	signal(SIGPIPE, SIG_IGN);
	alarm(100); /* below the test timeout: a hang fails */
	sdk_log = tmpfile();
	CHECK(sdk_log != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(sdk_log, &sdk));
	dev = open_rdma_dev();
	CHECK_OK(doca_buf_inventory_create(16, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	TEST_RUN(test_stop_in_callback_oob);
	TEST_RUN(test_stop_in_callback_cm);
	TEST_RUN(test_stop_in_callback_fork);
	TEST_RUN(test_stop_waits_for_allocated_task);
	TEST_RUN(test_stop_synchronous);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
