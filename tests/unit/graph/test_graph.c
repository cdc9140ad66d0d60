/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of doca_graph: every state rule and error of the graph, its nodes and instances,
 * and how instances run (order, failures, sub graphs, resubmission), driven through a
 * test-only context whose tasks complete with a preset status when the PE progresses.
 */
#include <stdbool.h>
#include <sys/epoll.h>

#include "doca_ctx.h"
#include "doca_graph.h"
#include "doca_pe.h"
#include "common/priv/ctx_priv.h"
#include "test.h"

struct test_task {
	struct doca_task base;
	doca_error_t result; /* what the "hardware" reports */
	int id;
};

/* What ran, in order: task ids and user-node cookies (as ints). */
static int order[64];
static int order_len;
static int task_callbacks;
static int completions, failures;
static int inside_progress;
static struct doca_graph_instance *last_instance;
static union doca_data last_instance_ud, last_graph_ud;
static bool resubmit_in_cb, destroy_in_cb;
static doca_error_t resubmit_result = DOCA_ERROR_UNKNOWN;
static doca_error_t user_node_result = DOCA_SUCCESS;

static void record(int what)
{
	if (order_len < (int)(sizeof(order) / sizeof(order[0])))
		order[order_len++] = what;
}

static int position(int what)
{
	for (int i = 0; i < order_len; i++)
		if (order[i] == what)
			return i;
	return -1;
}

static doca_error_t run_work(struct softhw_work *w)
{
	struct test_task *t = (struct test_task *)w;

	record(t->id);
	return t->result;
}

static doca_error_t test_prepare(struct doca_task *task)
{
	task->work.op = SOFTHW_OP_CALL;
	task->work.call.run = run_work;
	return DOCA_SUCCESS;
}

static const struct softdoca_ctx_ops test_ops = {
	.name = "TEST",
	.prepare = test_prepare,
};

/* Task callbacks must never run for a task a graph runs. */
static void task_cb(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	task_callbacks++;
}

static void graph_done(struct doca_graph_instance *inst, union doca_data inst_ud, union doca_data graph_ud)
{
	CHECK(inside_progress);
	completions++;
	last_instance = inst;
	last_instance_ud = inst_ud;
	last_graph_ud = graph_ud;
	if (resubmit_in_cb) {
		resubmit_in_cb = false;
		resubmit_result = doca_graph_instance_submit(inst);
	}
	if (destroy_in_cb)
		CHECK_OK(doca_graph_instance_destroy(inst));
}

static void graph_failed(struct doca_graph_instance *inst, union doca_data inst_ud, union doca_data graph_ud)
{
	CHECK(inside_progress);
	failures++;
	last_instance = inst;
	last_instance_ud = inst_ud;
	last_graph_ud = graph_ud;
}

static doca_error_t user_node(void *cookie)
{
	CHECK(inside_progress);
	record((int)(intptr_t)cookie);
	return user_node_result;
}

static uint8_t progress(struct doca_pe *pe)
{
	uint8_t r;

	inside_progress = 1;
	r = doca_pe_progress(pe);
	inside_progress = 0;
	return r;
}

/* Progress until the PE has nothing more to do (bounded). */
static void drain(struct doca_pe *pe)
{
	for (int i = 0; i < 1000 && progress(pe); i++)
		;
}

static void reset(void)
{
	order_len = 0;
	task_callbacks = completions = failures = 0;
	last_instance = NULL;
	resubmit_in_cb = destroy_in_cb = false;
	resubmit_result = DOCA_ERROR_UNKNOWN;
	user_node_result = DOCA_SUCCESS;
}

static struct doca_ctx *make_ctx(struct doca_pe *pe, uint32_t num_tasks, bool start)
{
	struct doca_ctx *ctx = calloc(1, sizeof(*ctx));

	softdoca_ctx_init(ctx, NULL, &test_ops);
	CHECK_OK(softdoca_ctx_conf_tasks(ctx, 0, "test", sizeof(struct test_task), task_cb, task_cb, num_tasks));
	if (pe != NULL)
		CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	if (start)
		CHECK_OK(doca_ctx_start(ctx));
	return ctx;
}

static struct doca_task *make_task(struct doca_ctx *ctx, int id, doca_error_t result)
{
	struct test_task *t = (struct test_task *)softdoca_task_alloc(ctx, 0, (union doca_data){.u64 = 0});

	CHECK(t != NULL);
	if (t == NULL)
		return NULL;
	t->id = id;
	t->result = result;
	return &t->base;
}

static void destroy_ctx(struct doca_ctx *ctx)
{
	softdoca_ctx_fini(ctx);
	free(ctx);
}

static void test_create_destroy(void)
{
	struct doca_graph *g;
	struct doca_pe *pe;
	union doca_data ud = {.u64 = 7};

	CHECK_OK(doca_pe_create(&pe));
	CHECK_ERR(doca_graph_create(NULL, &g), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_create(pe, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_create(pe, &g));
	/* The graph runs on its PE: the PE cannot go first */
	CHECK_ERR(doca_pe_destroy(pe), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_graph_set_user_data(g, ud));
	ud.u64 = 0;
	CHECK_OK(doca_graph_get_user_data(g, &ud));
	CHECK(ud.u64 == 7);
	CHECK_ERR(doca_graph_get_user_data(g, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_pe_progress(pe) == 0); /* an idle graph is no work */
	CHECK_ERR(doca_graph_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_stop(g)); /* stopping a stopped graph */
	CHECK_ERR(doca_graph_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_destroy(g));
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_conf_and_start_rules(void)
{
	struct doca_pe *pe, *other_pe;
	struct doca_graph *g;
	struct doca_graph_node *n, *u;
	struct doca_ctx *ctx, *foreign, *unconnected;

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_create(&other_pe));
	CHECK_OK(doca_graph_create(pe, &g));
	ctx = make_ctx(pe, 4, false);
	foreign = make_ctx(other_pe, 4, true);
	unconnected = make_ctx(NULL, 4, false);

	CHECK_ERR(doca_graph_set_conf(NULL, graph_done, graph_failed, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_set_conf(g, NULL, graph_failed, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_set_conf(g, graph_done, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_set_conf(g, graph_done, graph_failed, 0), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_graph_node_create_from_ctx(NULL, ctx, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_node_create_from_ctx(g, NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_node_create_from_ctx(g, ctx, NULL), DOCA_ERROR_INVALID_VALUE);
	/* A context of another PE is the wrong context */
	CHECK_ERR(doca_graph_node_create_from_ctx(g, foreign, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_node_create_from_user(g, NULL, &u), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_node_create_from_user(g, user_node, NULL), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &u));
	CHECK_ERR(doca_graph_start(NULL), DOCA_ERROR_INVALID_VALUE);
	/* No callbacks yet */
	CHECK_ERR(doca_graph_start(g), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_graph_set_conf(g, graph_done, graph_failed, 2));
	/* Only a user node: a graph needs a context node */
	CHECK_ERR(doca_graph_start(g), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx, &n));
	/* Its context is not started */
	CHECK_ERR(doca_graph_start(g), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_OK(doca_graph_add_dependency(g, n, u));
	CHECK_OK(doca_graph_start(g));
	CHECK_OK(doca_graph_start(g)); /* already started */

	/* Once started the graph is fixed */
	CHECK_ERR(doca_graph_node_create_from_user(g, user_node, &u), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_node_create_from_ctx(g, ctx, &n), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_add_dependency(g, u, n), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_set_conf(g, graph_done, graph_failed, 2), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_set_user_data(g, (union doca_data){.u64 = 1}), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_destroy(g), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_graph_stop(g));

	/* A context that is not connected to the graph's PE stops the start */
	{
		struct doca_graph *g2;
		struct doca_graph_node *n2;

		CHECK_OK(doca_graph_create(pe, &g2));
		CHECK_OK(doca_graph_set_conf(g2, graph_done, graph_failed, 1));
		CHECK_OK(doca_graph_node_create_from_ctx(g2, unconnected, &n2));
		CHECK_ERR(doca_graph_start(g2), DOCA_ERROR_BAD_STATE);
		CHECK_OK(doca_graph_destroy(g2));
	}
	CHECK_OK(doca_graph_destroy(g));
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK_OK(doca_ctx_stop(foreign));
	destroy_ctx(ctx);
	destroy_ctx(foreign);
	destroy_ctx(unconnected);
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_pe_destroy(other_pe));
}

static void test_dependencies(void)
{
	struct doca_pe *pe;
	struct doca_graph *g, *other;
	struct doca_graph_node *a, *b, *c, *x;

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_create(pe, &other));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &a));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &b));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &c));
	CHECK_OK(doca_graph_node_create_from_user(other, user_node, &x));

	CHECK_ERR(doca_graph_add_dependency(NULL, a, b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_add_dependency(g, NULL, b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_add_dependency(g, a, NULL), DOCA_ERROR_INVALID_VALUE);
	/* Both nodes must be of this graph */
	CHECK_ERR(doca_graph_add_dependency(g, a, x), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_add_dependency(other, a, x), DOCA_ERROR_INVALID_VALUE);
	/* Cycles: a node on itself, a pair, a triangle */
	CHECK_ERR(doca_graph_add_dependency(g, a, a), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_graph_add_dependency(g, a, b));
	CHECK_ERR(doca_graph_add_dependency(g, b, a), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_graph_add_dependency(g, b, c));
	CHECK_ERR(doca_graph_add_dependency(g, c, a), DOCA_ERROR_NOT_PERMITTED);
	/* A shortcut is no cycle; a repeated dependency counts once */
	CHECK_OK(doca_graph_add_dependency(g, a, c));
	CHECK_OK(doca_graph_add_dependency(g, a, c));

	CHECK_OK(doca_graph_destroy(g));
	CHECK_OK(doca_graph_destroy(other));
	CHECK_OK(doca_pe_destroy(pe));
}

/*
 * The diamond A -> {B, C} -> D plus a user node U after D: B, C and D are tasks, A and U user
 * nodes. D runs only after B and C, U last; one completion, no task callback.
 */
static void test_diamond_runs_in_order(void)
{
	struct doca_pe *pe;
	struct doca_graph *g;
	struct doca_graph_node *a, *b, *c, *d, *u;
	struct doca_graph_instance *inst;
	struct doca_ctx *ctx1, *ctx2;
	struct doca_task *tb, *tc, *td;
	union doca_data ud;
	size_t inflight = 99;

	reset();
	CHECK_OK(doca_pe_create(&pe));
	ctx1 = make_ctx(pe, 4, true);
	ctx2 = make_ctx(pe, 4, true);
	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &a));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx1, &b));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx2, &c));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx1, &d));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &u));
	CHECK_OK(doca_graph_add_dependency(g, a, b));
	CHECK_OK(doca_graph_add_dependency(g, a, c));
	CHECK_OK(doca_graph_add_dependency(g, b, d));
	CHECK_OK(doca_graph_add_dependency(g, c, d));
	CHECK_OK(doca_graph_add_dependency(g, d, u));
	CHECK_OK(doca_graph_set_conf(g, graph_done, graph_failed, 1));
	CHECK_OK(doca_graph_set_user_data(g, (union doca_data){.u64 = 0x9a}));
	CHECK_OK(doca_graph_start(g));

	CHECK_ERR(doca_graph_instance_create(NULL, &inst), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_instance_create(g, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_instance_create(g, &inst));
	/* One instance configured */
	{
		struct doca_graph_instance *more;

		CHECK_ERR(doca_graph_instance_create(g, &more), DOCA_ERROR_NO_MEMORY);
	}
	CHECK_ERR(doca_graph_stop(g), DOCA_ERROR_IN_USE);

	tb = make_task(ctx1, 2, DOCA_SUCCESS);
	tc = make_task(ctx2, 3, DOCA_SUCCESS);
	td = make_task(ctx1, 4, DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_set_user_node_data(inst, a, (void *)(intptr_t)1));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, b, tb));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, c, tc));
	/* Missing node data: U and D */
	CHECK_ERR(doca_graph_instance_submit(inst), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, d, td));
	CHECK_ERR(doca_graph_instance_submit(inst), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_instance_set_user_node_data(inst, u, (void *)(intptr_t)5));
	CHECK_OK(doca_graph_instance_set_user_data(inst, (union doca_data){.u64 = 0x1a}));
	CHECK_ERR(doca_graph_instance_get_user_data(inst, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_instance_get_user_data(inst, &ud));
	CHECK(ud.u64 == 0x1a);

	CHECK_ERR(doca_graph_instance_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_instance_submit(inst));
	/* Submitted: the instance is in use until its completion */
	CHECK_ERR(doca_graph_instance_submit(inst), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_graph_instance_destroy(inst), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_graph_instance_set_user_data(inst, ud), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_graph_instance_set_ctx_node_data(inst, b, tb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_instance_set_user_node_data(inst, a, NULL), DOCA_ERROR_BAD_STATE);
	CHECK(order_len == 0); /* submission runs nothing itself */

	drain(pe);
	CHECK(completions == 1 && failures == 0);
	CHECK(task_callbacks == 0);
	CHECK(last_instance == inst);
	CHECK(last_instance_ud.u64 == 0x1a && last_graph_ud.u64 == 0x9a);
	CHECK(order_len == 5);
	CHECK(position(1) == 0);
	CHECK(position(2) > position(1) && position(3) > position(1));
	CHECK(position(4) > position(2) && position(4) > position(3));
	CHECK(position(5) == 4);
	CHECK(doca_task_get_status(td) == DOCA_SUCCESS);
	CHECK_OK(doca_pe_get_num_inflight_tasks(pe, &inflight));
	CHECK(inflight == 0);

	/* Resubmitted from its own completion callback, it runs again */
	reset();
	resubmit_in_cb = true;
	CHECK_OK(doca_graph_instance_submit(inst));
	drain(pe);
	CHECK_OK(resubmit_result);
	CHECK(completions == 2 && order_len == 10);

	/* Destroyed from its completion callback */
	reset();
	destroy_in_cb = true;
	CHECK_OK(doca_graph_instance_submit(inst));
	drain(pe);
	CHECK(completions == 1);
	CHECK_OK(doca_graph_stop(g)); /* its only instance is gone */
	CHECK_OK(doca_graph_destroy(g));

	doca_task_free(tb);
	doca_task_free(tc);
	doca_task_free(td);
	CHECK_OK(doca_ctx_stop(ctx1));
	CHECK_OK(doca_ctx_stop(ctx2));
	destroy_ctx(ctx1);
	destroy_ctx(ctx2);
	CHECK_OK(doca_pe_destroy(pe));
}

/* Node data must match its node: kind, graph, context. */
static void test_node_data_rules(void)
{
	struct doca_pe *pe;
	struct doca_graph *g, *g2;
	struct doca_graph_node *n, *u, *n2;
	struct doca_graph_instance *inst;
	struct doca_ctx *ctx, *ctx_b;
	struct doca_task *t, *t_b;

	CHECK_OK(doca_pe_create(&pe));
	ctx = make_ctx(pe, 4, true);
	ctx_b = make_ctx(pe, 4, true);
	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_create(pe, &g2));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx, &n));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &u));
	CHECK_OK(doca_graph_node_create_from_ctx(g2, ctx, &n2));
	CHECK_OK(doca_graph_set_conf(g, graph_done, graph_failed, 1));
	CHECK_ERR(doca_graph_instance_create(g, &inst), DOCA_ERROR_BAD_STATE); /* not started */
	CHECK_OK(doca_graph_start(g));
	CHECK_OK(doca_graph_instance_create(g, &inst));
	t = make_task(ctx, 1, DOCA_SUCCESS);
	t_b = make_task(ctx_b, 2, DOCA_SUCCESS);

	CHECK_ERR(doca_graph_instance_set_ctx_node_data(NULL, n, t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_instance_set_ctx_node_data(inst, NULL, t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_instance_set_ctx_node_data(inst, n, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_instance_set_ctx_node_data(inst, u, t), DOCA_ERROR_NOT_PERMITTED);   /* user node */
	CHECK_ERR(doca_graph_instance_set_ctx_node_data(inst, n2, t), DOCA_ERROR_NOT_PERMITTED);  /* other graph */
	CHECK_ERR(doca_graph_instance_set_ctx_node_data(inst, n, t_b), DOCA_ERROR_NOT_PERMITTED); /* other ctx */
	CHECK_ERR(doca_graph_instance_set_user_node_data(inst, n, NULL), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_graph_instance_set_user_node_data(NULL, u, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_instance_set_sub_graph_node_data(inst, n, inst), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_graph_instance_set_sub_graph_node_data(inst, n, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, n, t));
	CHECK_OK(doca_graph_instance_set_user_node_data(inst, u, NULL)); /* a NULL cookie is a cookie */

	/* A root task already in flight on its own: the submission fails whole */
	CHECK_OK(doca_task_submit(t));
	CHECK_ERR(doca_graph_instance_submit(inst), DOCA_ERROR_BAD_STATE);
	drain(pe); /* t completes through its own callback */
	CHECK(task_callbacks == 1);
	reset();
	/* The instance was not left submitted */
	CHECK_OK(doca_graph_instance_set_user_data(inst, (union doca_data){.u64 = 3}));

	/* A root whose context stopped: refused before anything runs */
	CHECK_ERR(doca_ctx_stop(ctx_b), DOCA_ERROR_IN_PROGRESS); /* t_b is still allocated */
	doca_task_free(t_b);
	drain(pe);
	{
		struct doca_graph *g3;
		struct doca_graph_node *nb;

		CHECK_OK(doca_graph_create(pe, &g3));
		CHECK_OK(doca_graph_node_create_from_ctx(g3, ctx_b, &nb));
		CHECK_OK(doca_graph_set_conf(g3, graph_done, graph_failed, 1));
		CHECK_ERR(doca_graph_start(g3), DOCA_ERROR_BAD_STATE); /* its context is idle */
		CHECK_OK(doca_graph_destroy(g3));
	}

	CHECK_OK(doca_graph_instance_destroy(inst));
	CHECK_ERR(doca_graph_instance_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_graph_stop(g));
	CHECK_OK(doca_graph_destroy(g));
	CHECK_OK(doca_graph_destroy(g2));
	doca_task_free(t);
	CHECK_OK(doca_ctx_stop(ctx));
	destroy_ctx(ctx);
	destroy_ctx(ctx_b);
	CHECK_OK(doca_pe_destroy(pe));
}

/*
 * A -> {B, C} -> D where B fails: D never runs, C (already in flight) still completes, and the
 * error callback comes once, after C.
 */
static void test_failure_stops_the_run(void)
{
	struct doca_pe *pe;
	struct doca_graph *g;
	struct doca_graph_node *a, *b, *c, *d;
	struct doca_graph_instance *inst;
	struct doca_ctx *ctx;
	struct doca_task *tb, *tc, *td;

	reset();
	CHECK_OK(doca_pe_create(&pe));
	ctx = make_ctx(pe, 4, true);
	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &a));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx, &b));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx, &c));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx, &d));
	CHECK_OK(doca_graph_add_dependency(g, a, b));
	CHECK_OK(doca_graph_add_dependency(g, a, c));
	CHECK_OK(doca_graph_add_dependency(g, b, d));
	CHECK_OK(doca_graph_add_dependency(g, c, d));
	CHECK_OK(doca_graph_set_conf(g, graph_done, graph_failed, 1));
	CHECK_OK(doca_graph_start(g));
	CHECK_OK(doca_graph_instance_create(g, &inst));
	tb = make_task(ctx, 2, DOCA_ERROR_IO_FAILED);
	tc = make_task(ctx, 3, DOCA_SUCCESS);
	td = make_task(ctx, 4, DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_set_user_node_data(inst, a, (void *)(intptr_t)1));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, b, tb));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, c, tc));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, d, td));
	CHECK_OK(doca_graph_instance_submit(inst));
	drain(pe);
	CHECK(failures == 1 && completions == 0);
	CHECK(position(2) >= 0 && position(3) >= 0);
	CHECK(position(4) == -1);
	CHECK(doca_task_get_status(tb) == DOCA_ERROR_IO_FAILED);
	CHECK(task_callbacks == 0);

	/* A failing user node fails the run the same way */
	reset();
	user_node_result = DOCA_ERROR_BAD_STATE;
	CHECK_OK(doca_graph_instance_submit(inst));
	drain(pe);
	CHECK(failures == 1 && order_len == 1);

	/* A context stopped under a running instance flushes its task: the instance fails */
	reset();
	((struct test_task *)tb)->result = DOCA_SUCCESS;
	CHECK_OK(doca_graph_instance_submit(inst));
	CHECK(progress(pe) == 1); /* A runs; B and C are submitted */
	CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	drain(pe);
	CHECK(failures == 1 && completions == 0);
	CHECK(doca_task_get_status(tb) == DOCA_ERROR_SHUTDOWN);
	CHECK_OK(doca_graph_instance_destroy(inst));
	CHECK_OK(doca_graph_stop(g));
	CHECK_OK(doca_graph_destroy(g));
	doca_task_free(tb);
	doca_task_free(tc);
	doca_task_free(td);
	drain(pe); /* the context reaches IDLE */
	destroy_ctx(ctx);
	CHECK_OK(doca_pe_destroy(pe));
}

/* A sub graph runs as one node of its parent, and the two cannot form a cycle. */
static void test_sub_graph(void)
{
	struct doca_pe *pe, *other_pe;
	struct doca_graph *parent, *sub, *foreign;
	struct doca_graph_node *u1, *s, *u2, *st, *n;
	struct doca_graph_instance *pinst, *sinst, *sinst2;
	struct doca_ctx *ctx, *fctx;
	struct doca_task *t;

	reset();
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_create(&other_pe));
	ctx = make_ctx(pe, 4, true);
	fctx = make_ctx(other_pe, 4, true);

	CHECK_OK(doca_graph_create(pe, &sub));
	CHECK_OK(doca_graph_node_create_from_ctx(sub, ctx, &st));
	CHECK_OK(doca_graph_set_conf(sub, graph_done, graph_failed, 2));
	CHECK_OK(doca_graph_create(pe, &parent));
	CHECK_ERR(doca_graph_node_create_from_graph(parent, sub, &s), DOCA_ERROR_BAD_STATE); /* sub not started */
	CHECK_OK(doca_graph_start(sub));
	CHECK_ERR(doca_graph_node_create_from_graph(NULL, sub, &s), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_node_create_from_graph(parent, NULL, &s), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_graph_node_create_from_graph(parent, parent, &s), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_graph_create(other_pe, &foreign));
	CHECK_OK(doca_graph_node_create_from_ctx(foreign, fctx, &n));
	CHECK_OK(doca_graph_set_conf(foreign, graph_done, graph_failed, 1));
	CHECK_OK(doca_graph_start(foreign));
	CHECK_ERR(doca_graph_node_create_from_graph(parent, foreign, &n), DOCA_ERROR_INVALID_VALUE); /* other PE */

	CHECK_OK(doca_graph_node_create_from_user(parent, user_node, &u1));
	CHECK_OK(doca_graph_node_create_from_graph(parent, sub, &s));
	CHECK_OK(doca_graph_node_create_from_user(parent, user_node, &u2));
	CHECK_OK(doca_graph_add_dependency(parent, u1, s));
	CHECK_OK(doca_graph_add_dependency(parent, s, u2));
	CHECK_OK(doca_graph_set_conf(parent, graph_done, graph_failed, 1));
	/* A stopped sub graph stops its parent's start, and a graph run by a node stays */
	CHECK_OK(doca_graph_stop(sub)); /* no instances of it */
	CHECK_ERR(doca_graph_start(parent), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_graph_destroy(sub), DOCA_ERROR_IN_USE);
	/* Stopped, the sub graph may get nodes again, but not one that runs its parent (a cycle) */
	{
		struct doca_graph_node *back;

		CHECK_ERR(doca_graph_node_create_from_graph(sub, parent, &back), DOCA_ERROR_NOT_PERMITTED);
	}
	CHECK_OK(doca_graph_start(sub));
	CHECK_OK(doca_graph_start(parent));

	CHECK_OK(doca_graph_instance_create(parent, &pinst));
	CHECK_OK(doca_graph_instance_create(sub, &sinst));
	CHECK_OK(doca_graph_instance_create(sub, &sinst2));
	t = make_task(ctx, 2, DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_set_ctx_node_data(sinst, st, t));
	CHECK_OK(doca_graph_instance_set_user_node_data(pinst, u1, (void *)(intptr_t)1));
	CHECK_OK(doca_graph_instance_set_user_node_data(pinst, u2, (void *)(intptr_t)3));
	CHECK_ERR(doca_graph_instance_set_sub_graph_node_data(pinst, s, pinst), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_graph_instance_set_sub_graph_node_data(pinst, s, sinst));
	/* Held by the node: not destroyed, not submitted alone, not held twice */
	CHECK_ERR(doca_graph_instance_destroy(sinst), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_graph_instance_submit(sinst), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_graph_stop(sub), DOCA_ERROR_IN_USE);

	CHECK_OK(doca_graph_instance_submit(pinst));
	drain(pe);
	/* One completion: the parent's; the sub graph's run is its node's outcome */
	CHECK(completions == 1 && failures == 0);
	CHECK(last_instance == pinst);
	CHECK(order_len == 3 && order[0] == 1 && order[1] == 2 && order[2] == 3);
	CHECK(task_callbacks == 0);

	/* Swapping the node's data releases the first sub instance */
	CHECK_OK(doca_graph_instance_set_sub_graph_node_data(pinst, s, sinst2));
	CHECK_OK(doca_graph_instance_destroy(sinst));
	CHECK_ERR(doca_graph_instance_destroy(sinst2), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_graph_instance_destroy(pinst));
	CHECK_OK(doca_graph_instance_destroy(sinst2));

	CHECK_OK(doca_graph_stop(parent));
	CHECK_OK(doca_graph_destroy(parent));
	CHECK_OK(doca_graph_stop(sub));
	CHECK_OK(doca_graph_destroy(sub));
	CHECK_OK(doca_graph_stop(foreign));
	CHECK_OK(doca_graph_destroy(foreign));
	doca_task_free(t);
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK_OK(doca_ctx_stop(fctx));
	destroy_ctx(ctx);
	destroy_ctx(fctx);
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_pe_destroy(other_pe));
}

/* A graph whose context was destroyed refuses to run instead of touching freed memory. */
static void test_destroyed_context(void)
{
	struct doca_pe *pe;
	struct doca_graph *g;
	struct doca_graph_node *n;
	struct doca_ctx *ctx;

	CHECK_OK(doca_pe_create(&pe));
	ctx = make_ctx(pe, 2, true);
	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx, &n));
	CHECK_OK(doca_graph_set_conf(g, graph_done, graph_failed, 1));
	CHECK_OK(doca_ctx_stop(ctx));
	destroy_ctx(ctx);
	CHECK_ERR(doca_graph_start(g), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_graph_destroy(g));
	CHECK_OK(doca_pe_destroy(pe));
}

/* A submitted graph wakes a PE user asleep on the notification handle. */
static void test_notification(void)
{
	struct doca_pe *pe;
	struct doca_graph *g;
	struct doca_graph_node *u, *n;
	struct doca_graph_instance *inst;
	struct doca_ctx *ctx;
	struct doca_task *t;
	doca_notification_handle_t fd;
	struct epoll_event ev = {.events = EPOLLIN};
	int ep;

	reset();
	CHECK_OK(doca_pe_create(&pe));
	ctx = make_ctx(pe, 2, true);
	CHECK_OK(doca_graph_create(pe, &g));
	CHECK_OK(doca_graph_node_create_from_user(g, user_node, &u));
	CHECK_OK(doca_graph_node_create_from_ctx(g, ctx, &n));
	CHECK_OK(doca_graph_add_dependency(g, u, n));
	CHECK_OK(doca_graph_set_conf(g, graph_done, graph_failed, 1));
	CHECK_OK(doca_graph_start(g));
	CHECK_OK(doca_graph_instance_create(g, &inst));
	t = make_task(ctx, 2, DOCA_SUCCESS);
	CHECK_OK(doca_graph_instance_set_user_node_data(inst, u, (void *)(intptr_t)1));
	CHECK_OK(doca_graph_instance_set_ctx_node_data(inst, n, t));

	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	ep = epoll_create1(0);
	CHECK(ep >= 0);
	CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0);
	CHECK_OK(doca_pe_request_notification(pe));
	CHECK(epoll_wait(ep, &ev, 1, 0) == 0); /* nothing to do yet */
	CHECK_OK(doca_graph_instance_submit(inst));
	CHECK(epoll_wait(ep, &ev, 1, 1000) == 1); /* the root user node woke us */
	CHECK_OK(doca_pe_clear_notification(pe, fd));
	/* Armed again after each empty progress, the user never sleeps on pending graph work */
	while (completions == 0) {
		if (progress(pe))
			continue;
		CHECK_OK(doca_pe_request_notification(pe));
		CHECK(epoll_wait(ep, &ev, 1, 1000) == 1);
		CHECK_OK(doca_pe_clear_notification(pe, fd));
	}
	CHECK(completions == 1);
	close(ep);

	CHECK_OK(doca_graph_instance_destroy(inst));
	CHECK_OK(doca_graph_stop(g));
	CHECK_OK(doca_graph_destroy(g));
	doca_task_free(t);
	CHECK_OK(doca_ctx_stop(ctx));
	destroy_ctx(ctx);
	CHECK_OK(doca_pe_destroy(pe));
}

int main(void)
{
	TEST_RUN(test_create_destroy);
	TEST_RUN(test_conf_and_start_rules);
	TEST_RUN(test_dependencies);
	TEST_RUN(test_diamond_runs_in_order);
	TEST_RUN(test_node_data_rules);
	TEST_RUN(test_failure_stops_the_run);
	TEST_RUN(test_sub_graph);
	TEST_RUN(test_destroyed_context);
	TEST_RUN(test_notification);
	TEST_EXIT();
}
