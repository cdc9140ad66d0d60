/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the PE / ctx / task core, driven through a test-only context type whose
 * work the engine runs with a preset status (no device, no I/O).
 */
#include <stdbool.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "doca_ctx.h"
#include "doca_pe.h"
#include "common/priv/ctx_priv.h"
#include "test.h"

struct test_ctx {
	struct doca_ctx ctx;
	bool check_fails;
};

struct test_task {
	struct doca_task base;
	doca_error_t result; /* what the "hardware" reports */
	int id;
};

static int inside_progress;
static int successes, errors, completes, state_changes;
static enum doca_ctx_states last_prev, last_next;
static doca_error_t last_error_status;
static bool stop_in_cb, free_in_cb = true, reenter_in_cb;
static uint8_t reenter_result = 42;
static struct doca_pe *current_pe;

static doca_error_t run_work(struct softhw_work *w)
{
	return ((struct test_task *)w)->result;
}

static doca_error_t test_check(struct doca_task *task)
{
	return ((struct test_ctx *)task->ctx)->check_fails ? DOCA_ERROR_INVALID_VALUE : DOCA_SUCCESS;
}

static doca_error_t test_prepare(struct doca_task *task)
{
	task->work.op = SOFTHW_OP_CALL;
	task->work.call.run = run_work;
	return DOCA_SUCCESS;
}

static void test_complete(struct doca_task *task)
{
	(void)task;
	completes++;
}

static const struct softdoca_ctx_ops test_ops = {
	.name = "TEST",
	.check = test_check,
	.prepare = test_prepare,
	.complete = test_complete,
};

/* Work that waits for a condition that never holds (like a sync-event wait task). */
static bool never_ready(struct softhw_work *w)
{
	(void)w;
	return false;
}

static doca_error_t test_prepare_wait(struct doca_task *task)
{
	task->work.op = SOFTHW_OP_CALL;
	task->work.call.ready = never_ready;
	task->work.call.run = run_work;
	return DOCA_SUCCESS;
}

static const struct softdoca_ctx_ops test_ops_wait = {
	.name = "TEST",
	.check = test_check,
	.prepare = test_prepare_wait,
	.complete = test_complete,
};

static const struct softdoca_ctx_ops test_ops_stop_on_error = {
	.name = "TEST",
	.check = test_check,
	.prepare = test_prepare,
	.complete = test_complete,
	.stop_on_error = true,
};

static void on_success(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	CHECK(inside_progress);
	CHECK(doca_task_get_status(task) == DOCA_SUCCESS);
	CHECK(task_ud.u64 == (uint64_t)((struct test_task *)task)->id);
	CHECK(ctx_ud.u64 == 0xc0ffee);
	successes++;
	if (reenter_in_cb)
		reenter_result = doca_pe_progress(current_pe);
	if (free_in_cb)
		doca_task_free(task);
	if (stop_in_cb)
		(void)doca_ctx_stop(doca_task_get_ctx(task));
}

static void on_error(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	CHECK(inside_progress);
	last_error_status = doca_task_get_status(task);
	CHECK(last_error_status != DOCA_SUCCESS);
	errors++;
	if (free_in_cb)
		doca_task_free(task);
}

static void on_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	enum doca_ctx_states now;

	CHECK(ud.u64 == 0xc0ffee);
	CHECK_OK(doca_ctx_get_state(ctx, &now));
	CHECK(now == next); /* the ctx is already in the new state */
	last_prev = prev;
	last_next = next;
	state_changes++;
}

static uint8_t progress(struct doca_pe *pe)
{
	uint8_t r;

	inside_progress = 1;
	r = doca_pe_progress(pe);
	inside_progress = 0;
	return r;
}

static void reset_counters(void)
{
	successes = errors = completes = state_changes = 0;
	stop_in_cb = reenter_in_cb = false;
	free_in_cb = true;
}

static struct test_ctx *make_ctx(struct doca_pe *pe, uint32_t num_tasks, const struct softdoca_ctx_ops *ops)
{
	struct test_ctx *t = calloc(1, sizeof(*t));

	softdoca_ctx_init(&t->ctx, NULL, ops);
	CHECK_OK(softdoca_ctx_conf_tasks(&t->ctx, 0, "test", sizeof(struct test_task), on_success, on_error,
					 num_tasks));
	CHECK_OK(doca_ctx_set_user_data(&t->ctx, (union doca_data){.u64 = 0xc0ffee}));
	CHECK_OK(doca_ctx_set_state_changed_cb(&t->ctx, on_state));
	if (pe != NULL)
		CHECK_OK(doca_pe_connect_ctx(pe, &t->ctx));
	return t;
}

static struct test_task *alloc_task(struct test_ctx *t, int id, doca_error_t result)
{
	struct test_task *task =
		(struct test_task *)softdoca_task_alloc(&t->ctx, 0, (union doca_data){.u64 = (uint64_t)id});

	if (task != NULL) {
		task->id = id;
		task->result = result;
	}
	return task;
}

static void destroy_ctx(struct test_ctx *t)
{
	softdoca_ctx_fini(&t->ctx);
	free(t);
}

static void test_pe_lifecycle(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	size_t n = 99;

	CHECK_ERR(doca_pe_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_pe_create(&pe));
	CHECK(doca_pe_progress(pe) == 0); /* nothing connected */
	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &n));
	CHECK(n == 0);
	t = make_ctx(pe, 4, &test_ops);
	CHECK_ERR(doca_pe_destroy(pe), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_pe_connect_ctx(pe, &t->ctx), DOCA_ERROR_NOT_PERMITTED);
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_ERR(doca_pe_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_pe_set_event_mode(NULL, DOCA_PE_EVENT_MODE_PROGRESS_ALL), DOCA_ERROR_INVALID_VALUE);
}

static void test_start_stop_rules(void)
{
	struct doca_pe *pe;
	struct test_ctx *t = make_ctx(NULL, 2, &test_ops);
	struct test_task *task;
	enum doca_ctx_states st;

	reset_counters();
	CHECK_ERR(doca_ctx_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_start(&t->ctx), DOCA_ERROR_NOT_CONNECTED); /* no PE */
	CHECK_OK(doca_ctx_stop(&t->ctx));                              /* stop on IDLE succeeds */
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_connect_ctx(pe, &t->ctx));

	/* submit before start: refused, the caller still owns the task */
	task = alloc_task(t, 1, DOCA_SUCCESS);
	CHECK(task != NULL);
	CHECK_ERR(doca_task_submit(&task->base), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_task_try_submit(&task->base), DOCA_ERROR_BAD_STATE);
	doca_task_free(&task->base);

	CHECK_OK(doca_ctx_start(&t->ctx));
	CHECK(state_changes == 1 && last_prev == DOCA_CTX_STATE_IDLE && last_next == DOCA_CTX_STATE_RUNNING);
	CHECK_ERR(doca_ctx_start(&t->ctx), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_get_state(&t->ctx, &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_ctx_stop(&t->ctx)); /* nothing in flight: straight to IDLE */
	CHECK(last_next == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_stop(&t->ctx));
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_completion_and_pool(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	struct test_task *tasks[3];
	size_t n;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	t = make_ctx(pe, 3, &test_ops);
	CHECK_OK(doca_ctx_start(&t->ctx));
	for (int i = 0; i < 3; i++) {
		tasks[i] = alloc_task(t, i, DOCA_SUCCESS);
		CHECK(tasks[i] != NULL);
	}
	CHECK(alloc_task(t, 9, DOCA_SUCCESS) == NULL); /* pool of 3: NO_MEMORY for the 4th */
	for (int i = 0; i < 3; i++)
		CHECK_OK(doca_task_submit(&tasks[i]->base));
	CHECK_ERR(doca_task_submit(&tasks[0]->base), DOCA_ERROR_BAD_STATE); /* double submit */
	CHECK(successes == 0); /* submit never completes a task by itself */
	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &n));
	CHECK(n == 3);
	CHECK_OK(doca_ctx_get_num_inflight_tasks(&t->ctx, &n));
	CHECK(n == 3);
	CHECK(progress(pe) == 1);
	CHECK(successes == 1 && completes == 1);
	CHECK(progress(pe) == 1);
	CHECK(progress(pe) == 1);
	CHECK(progress(pe) == 0);
	CHECK(successes == 3);
	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &n));
	CHECK(n == 0);
	/* freed tasks return to the pool */
	for (int i = 0; i < 3; i++)
		CHECK((tasks[i] = alloc_task(t, i, DOCA_ERROR_IO_FAILED)) != NULL);
	for (int i = 0; i < 3; i++)
		CHECK_OK(doca_task_submit(&tasks[i]->base));
	while (progress(pe))
		;
	CHECK(errors == 3 && last_error_status == DOCA_ERROR_IO_FAILED);
	CHECK_OK(doca_ctx_stop(&t->ctx));
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_stop_flushes(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	int transitions_before;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	t = make_ctx(pe, 8, &test_ops);
	CHECK_OK(doca_ctx_start(&t->ctx));
	for (int i = 0; i < 8; i++)
		CHECK_OK(doca_task_submit(&alloc_task(t, i, DOCA_SUCCESS)->base));
	CHECK(progress(pe) == 1);
	CHECK(progress(pe) == 1);
	transitions_before = state_changes;
	CHECK_ERR(doca_ctx_stop(&t->ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(last_next == DOCA_CTX_STATE_STOPPING && state_changes == transitions_before + 1);
	CHECK_ERR(doca_ctx_stop(&t->ctx), DOCA_ERROR_IN_PROGRESS);
	while (progress(pe))
		;
	CHECK(successes == 2);
	CHECK(errors == 6);
	CHECK(last_error_status == SOFTDOCA_FLUSH_STATUS);
	CHECK(last_prev == DOCA_CTX_STATE_STOPPING && last_next == DOCA_CTX_STATE_IDLE);
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_stop_waits_for_free(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	struct test_task *kept;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	t = make_ctx(pe, 2, &test_ops);
	CHECK_OK(doca_ctx_start(&t->ctx));
	kept = alloc_task(t, 0, DOCA_SUCCESS);
	CHECK_ERR(doca_ctx_stop(&t->ctx), DOCA_ERROR_IN_PROGRESS); /* a task is still allocated */
	CHECK(progress(pe) == 0);
	CHECK(last_next == DOCA_CTX_STATE_STOPPING);
	doca_task_free(&kept->base);
	CHECK(progress(pe) == 1);
	CHECK(last_next == DOCA_CTX_STATE_IDLE);
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

/*
 * Tasks freed while in flight, then the context stopped (NVIDIA's secure_channel does this with
 * Comch post_recv tasks): the stop flushes them, their error callbacks run, they go back to
 * the pool and the context reaches IDLE.
 */
static void test_free_in_flight_then_stop(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	struct test_task *a, *b;

	reset_counters();
	free_in_cb = false; /* the application thinks the tasks are gone already */
	CHECK_OK(doca_pe_create(&pe));
	t = make_ctx(pe, 2, &test_ops_wait);
	CHECK_OK(doca_ctx_start(&t->ctx));
	a = alloc_task(t, 0, DOCA_SUCCESS);
	b = alloc_task(t, 1, DOCA_SUCCESS);
	CHECK_OK(doca_task_submit(&a->base));
	CHECK_OK(doca_task_submit(&b->base));
	doca_task_free(&a->base);
	doca_task_free(&b->base);
	CHECK(alloc_task(t, 2, DOCA_SUCCESS) == NULL); /* still in flight: not back in the pool yet */
	CHECK_ERR(doca_ctx_stop(&t->ctx), DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 10 && last_next != DOCA_CTX_STATE_IDLE; i++)
		(void)progress(pe);
	CHECK(errors == 2);
	CHECK(last_next == DOCA_CTX_STATE_IDLE);
	/* both went back to the pool: a restarted context has its two tasks */
	CHECK_OK(doca_ctx_start(&t->ctx));
	a = alloc_task(t, 3, DOCA_SUCCESS);
	b = alloc_task(t, 4, DOCA_SUCCESS);
	CHECK(a != NULL && b != NULL);
	doca_task_free(&a->base);
	doca_task_free(&b->base);
	CHECK_OK(doca_ctx_stop(&t->ctx));
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

/* A task freed in flight whose success callback submits it again stays in flight until its
 * next completion. */
static void test_free_in_flight_resubmitted(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	struct test_task *a;

	reset_counters();
	free_in_cb = false;
	CHECK_OK(doca_pe_create(&pe));
	t = make_ctx(pe, 1, &test_ops);
	CHECK_OK(doca_ctx_start(&t->ctx));
	a = alloc_task(t, 0, DOCA_SUCCESS);
	CHECK_OK(doca_task_submit(&a->base));
	doca_task_free(&a->base);
	doca_task_free(&a->base); /* twice: still one release */
	CHECK(progress(pe) == 1);
	CHECK(successes == 1);
	a = alloc_task(t, 1, DOCA_SUCCESS); /* released after its callback */
	CHECK(a != NULL);
	CHECK(alloc_task(t, 2, DOCA_SUCCESS) == NULL);
	doca_task_free(&a->base);
	CHECK_OK(doca_ctx_stop(&t->ctx));
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_stop_from_callback_and_reentry(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	current_pe = pe;
	t = make_ctx(pe, 4, &test_ops);
	CHECK_OK(doca_ctx_start(&t->ctx));
	for (int i = 0; i < 4; i++)
		CHECK_OK(doca_task_submit(&alloc_task(t, i, DOCA_SUCCESS)->base));
	stop_in_cb = true;
	reenter_in_cb = true;
	CHECK(progress(pe) == 1);
	CHECK(reenter_result == 0); /* progress from inside a callback is refused */
	CHECK(last_next == DOCA_CTX_STATE_STOPPING);
	stop_in_cb = reenter_in_cb = false;
	while (progress(pe))
		;
	CHECK(successes == 1 && errors == 3);
	CHECK(last_next == DOCA_CTX_STATE_IDLE);
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_stop_on_error(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	t = make_ctx(pe, 5, &test_ops_stop_on_error);
	CHECK_OK(doca_ctx_start(&t->ctx));
	CHECK_OK(doca_task_submit(&alloc_task(t, 0, DOCA_SUCCESS)->base));
	CHECK_OK(doca_task_submit(&alloc_task(t, 1, DOCA_ERROR_INVALID_VALUE)->base));
	for (int i = 2; i < 5; i++)
		CHECK_OK(doca_task_submit(&alloc_task(t, i, DOCA_SUCCESS)->base));
	while (progress(pe))
		;
	CHECK(successes == 1);
	CHECK(errors == 4); /* the failed one, then three flushed */
	CHECK(last_next == DOCA_CTX_STATE_IDLE);
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_try_submit(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	struct test_task *task;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	t = make_ctx(pe, 1, &test_ops);
	CHECK_OK(doca_ctx_start(&t->ctx));
	task = alloc_task(t, 0, DOCA_SUCCESS);
	t->check_fails = true;
	CHECK_ERR(doca_task_try_submit(&task->base), DOCA_ERROR_INVALID_VALUE);
	CHECK(progress(pe) == 0); /* nothing was queued */
	t->check_fails = false;
	CHECK_OK(doca_task_try_submit(&task->base));
	CHECK(progress(pe) == 1 && successes == 1);
	CHECK_ERR(doca_task_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_task_submit_ex(NULL, 0x80), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_ctx_stop(&t->ctx));
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

static int fd_ready(int fd)
{
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN}, out;
	int n;

	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	n = epoll_wait(ep, &out, 1, 0);
	close(ep);
	return n;
}

static void test_notification(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	doca_notification_handle_t fd;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	CHECK(fd >= 0);
	t = make_ctx(pe, 4, &test_ops);
	CHECK_OK(doca_ctx_start(&t->ctx));
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(fd_ready(fd) == 0); /* no work: the handle stays quiet */
	CHECK_OK(doca_task_submit(&alloc_task(t, 0, DOCA_SUCCESS)->base));
	CHECK(fd_ready(fd) == 1); /* submission wakes the waiter */
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	CHECK(fd_ready(fd) == 0);
	/* DOCA ignores the handle on Linux (NVIDIA's pe_event sample passes 0): it still drains */
	CHECK_OK(doca_task_submit(&alloc_task(t, 0, DOCA_SUCCESS)->base));
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(fd_ready(fd) == 1);
	CHECK_OK(doca_pe_clear_notification(pe, 0));
	CHECK(fd_ready(fd) == 0);
	/* work already pending when arming signals at once */
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(fd_ready(fd) == 1);
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	while (progress(pe))
		;
	CHECK(successes == 2);
	CHECK_OK(doca_ctx_stop(&t->ctx));
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

/*
 * What a Comch peer gets of our PE is a ringing end of its notification (pe->share_fd), whose
 * file flags and socket it shares: it makes that end blocking and fills the queue. Our wake-ups
 * and our clear still return at once, and the handle, which the peer never holds, drains and
 * goes quiet. Then it disconnects and shuts down its end: our own rings (pe->bell_fd, which no
 * peer holds) still wake the handle. (An alarm ends the test if a call blocks. With the eventfd
 * handed out before, a peer that cleared O_NONBLOCK and filled or drained the counter blocked
 * both; with one socket for both, its disconnect silenced our own rings: reviews reproduced both.)
 */
static void test_notification_peer_cannot_block(void)
{
	struct doca_pe *pe;
	doca_notification_handle_t fd;
	int peer, flags, filled = 0;
	const char one = 1;

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	peer = dup(pe->share_fd); /* as SCM_RIGHTS would give it */
	CHECK(peer >= 0 && peer != fd);
	flags = fcntl(peer, F_GETFL);
	CHECK(flags >= 0 && fcntl(peer, F_SETFL, flags & ~O_NONBLOCK) == 0);
	while (filled < 100000 && send(peer, &one, 1, MSG_DONTWAIT) == 1)
		filled++;
	CHECK(filled > 0 && filled < 100000);
	alarm(10);
	for (int i = 0; i < 100; i++) {
		CHECK_OK(doca_pe_request_notification(pe));
		softdoca_pe_notify(pe); /* the queue is full: returns, the handle is readable anyway */
	}
	CHECK(fd_ready(fd) == 1);
	for (int i = 0; i * 4096 <= filled; i++)
		CHECK_OK(doca_pe_clear_notification(pe, fd)); /* 4096 a call, never blocking */
	CHECK(fd_ready(fd) == 0);
	/* the peer cuts its end loose: our own rings are not its to silence */
	{
		struct sockaddr unspec = {.sa_family = AF_UNSPEC};

		CHECK(connect(peer, &unspec, sizeof(unspec)) == 0 && shutdown(peer, SHUT_RDWR) == 0);
	}
	CHECK_OK(doca_pe_request_notification(pe));
	softdoca_pe_notify(pe);
	CHECK(fd_ready(fd) == 1);
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	CHECK(fd_ready(fd) == 0);
	alarm(0);
	close(peer);
	CHECK_OK(doca_pe_destroy(pe));
}

/*
 * A context stopped (outside progress, PE not armed) with a task whose work is not ready:
 * the flush is work, so arming the PE afterwards must signal at once. Else a pe_event-style
 * loop (request, epoll_wait, clear, progress) sleeps forever on a context that never idles.
 */
static void test_notification_after_stop_with_waiting_task(void)
{
	struct doca_pe *pe;
	struct test_ctx *t;
	doca_notification_handle_t fd;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	t = make_ctx(pe, 1, &test_ops_wait);
	CHECK_OK(doca_ctx_start(&t->ctx));
	CHECK_OK(doca_task_submit(&alloc_task(t, 0, DOCA_SUCCESS)->base));
	CHECK(progress(pe) == 0); /* the condition does not hold */
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(fd_ready(fd) == 0); /* nothing ready: the user may sleep */
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	CHECK_ERR(doca_ctx_stop(&t->ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(fd_ready(fd) == 1); /* the flush is pending: wake the user */
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	while (progress(pe))
		;
	CHECK(errors == 1 && last_error_status == SOFTDOCA_FLUSH_STATUS);
	CHECK(last_next == DOCA_CTX_STATE_IDLE);
	destroy_ctx(t);
	CHECK_OK(doca_pe_destroy(pe));
}

/* A completion callback that ends everything: the task, its context and the PE. */
static struct test_ctx *teardown_ctx;
static struct doca_pe *teardown_pe;
static doca_error_t teardown_stop = DOCA_ERROR_UNKNOWN, teardown_destroy = DOCA_ERROR_UNKNOWN;

static void on_success_teardown(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	doca_task_free(task);
	teardown_stop = doca_ctx_stop(&teardown_ctx->ctx); /* nothing left: IDLE at once */
	destroy_ctx(teardown_ctx);
	teardown_destroy = doca_pe_destroy(teardown_pe);
}

/*
 * The PE destroyed from inside one of its callbacks (its contexts destroyed first, as
 * required): doca_pe_progress must not touch the PE once the callback returns.
 */
static void test_pe_destroyed_in_callback(void)
{
	struct test_task *task;

	reset_counters();
	CHECK_OK(doca_pe_create(&teardown_pe));
	teardown_ctx = calloc(1, sizeof(*teardown_ctx));
	softdoca_ctx_init(&teardown_ctx->ctx, NULL, &test_ops);
	CHECK_OK(softdoca_ctx_conf_tasks(&teardown_ctx->ctx, 0, "test", sizeof(struct test_task), on_success_teardown,
					 on_error, 1));
	CHECK_OK(doca_pe_connect_ctx(teardown_pe, &teardown_ctx->ctx));
	CHECK_OK(doca_ctx_start(&teardown_ctx->ctx));
	task = alloc_task(teardown_ctx, 0, DOCA_SUCCESS);
	CHECK_OK(doca_task_submit(&task->base));
	CHECK(doca_pe_progress(teardown_pe) == 1);
	CHECK_OK(teardown_stop);
	CHECK_OK(teardown_destroy);
}

static void test_round_robin(void)
{
	struct doca_pe *pe;
	struct test_ctx *a, *b;
	int order[4], k = 0;

	reset_counters();
	CHECK_OK(doca_pe_create(&pe));
	a = make_ctx(pe, 2, &test_ops);
	b = make_ctx(pe, 2, &test_ops);
	CHECK_OK(doca_ctx_start(&a->ctx));
	CHECK_OK(doca_ctx_start(&b->ctx));
	for (int i = 0; i < 2; i++) {
		CHECK_OK(doca_task_submit(&alloc_task(a, i, DOCA_SUCCESS)->base));
		CHECK_OK(doca_task_submit(&alloc_task(b, i, DOCA_SUCCESS)->base));
	}
	/* each progress serves the next context: a, b, a, b */
	for (k = 0; k < 4; k++) {
		size_t na, nb;

		CHECK(progress(pe) == 1);
		doca_ctx_get_num_inflight_tasks(&a->ctx, &na);
		doca_ctx_get_num_inflight_tasks(&b->ctx, &nb);
		order[k] = (int)(na * 10 + nb);
	}
	CHECK(order[0] == 12 && order[1] == 11 && order[2] == 1 && order[3] == 0);
	CHECK_OK(doca_ctx_stop(&a->ctx));
	CHECK_OK(doca_ctx_stop(&b->ctx));
	destroy_ctx(a);
	destroy_ctx(b);
	CHECK_OK(doca_pe_destroy(pe));
}

int main(void)
{
	TEST_RUN(test_pe_lifecycle);
	TEST_RUN(test_start_stop_rules);
	TEST_RUN(test_completion_and_pool);
	TEST_RUN(test_stop_flushes);
	TEST_RUN(test_stop_waits_for_free);
	TEST_RUN(test_free_in_flight_then_stop);
	TEST_RUN(test_free_in_flight_resubmitted);
	TEST_RUN(test_stop_from_callback_and_reentry);
	TEST_RUN(test_stop_on_error);
	TEST_RUN(test_try_submit);
	TEST_RUN(test_notification);
	TEST_RUN(test_notification_peer_cannot_block);
	TEST_RUN(test_round_robin);
	TEST_RUN(test_notification_after_stop_with_waiting_task);
	TEST_RUN(test_pe_destroyed_in_callback);
	TEST_EXIT();
}
