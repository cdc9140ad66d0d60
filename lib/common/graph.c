/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_graph: runs a DAG of context tasks, user callbacks and sub graphs on one PE.
 *
 * A graph is a set of nodes and dependencies, fixed once started; an instance holds one
 * node's data per node (a task, a cookie, a sub-graph instance) and a run's bookkeeping (how
 * many dependencies each node still waits for, how many nodes are in flight). Submitting an
 * instance starts its root nodes; a node starts once every node it depends on has completed;
 * a failed node fails the run, which then ends once the nodes already in flight are back.
 *
 * Tasks go through the ordinary submission path and complete in doca_pe_progress; pe.c hands
 * a graph's task to softdoca_graph_task_done instead of the task's callbacks. User nodes and
 * instance completions are events of the graph itself: the graph owns an internal context on
 * its PE whose progress runs one event per doca_pe_progress call, so every callback runs
 * inside doca_pe_progress, on the PE's thread, like a task callback.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "doca_graph.h"
#include "doca_pe.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/graph_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DOCA_GRAPH);

enum node_kind {
	NODE_CTX,
	NODE_USER,
	NODE_SUB_GRAPH,
};

struct doca_graph_node {
	struct doca_graph *graph;
	struct doca_graph_node *list_next; /* the graph's nodes, in creation order */
	uint32_t index;			   /* creation order: the node's slot in every instance */
	enum node_kind kind;
	struct softdoca_ctx_link link;	   /* NODE_CTX: the context; NULL once it is destroyed */
	doca_graph_user_node_cb_t cb;	   /* NODE_USER */
	struct doca_graph *sub_graph;	   /* NODE_SUB_GRAPH */
	uint32_t num_deps;		   /* nodes this one waits for */
	uint32_t num_next;		   /* nodes that wait for this one */
	uint32_t cap_next;
	struct doca_graph_node **next;
};

/* Something the graph's internal context delivers from doca_pe_progress. */
enum event_kind {
	EV_RUN_USER_NODE, /* in a slot: run the user node's callback */
	EV_INSTANCE_DONE, /* in an instance: report the run */
};

struct graph_event {
	struct graph_event *next;
	enum event_kind kind;
	bool queued;
};

/* One node of one instance: its data and its state in the current run. */
struct softdoca_graph_slot {
	struct doca_graph_instance *inst;
	struct doca_graph_node *node;
	bool data_set;
	struct doca_task *task;		  /* NODE_CTX */
	void *cookie;			  /* NODE_USER */
	struct doca_graph_instance *sub;  /* NODE_SUB_GRAPH */
	uint32_t waiting;		  /* dependencies not completed yet in this run */
	struct graph_event run_ev;	  /* NODE_USER: queued to run the callback */
};

struct doca_graph_instance {
	struct doca_graph *graph;
	union doca_data user_data;
	bool submitted;			   /* from submit until its completion is delivered */
	struct softdoca_graph_slot *parent; /* the sub-graph node it runs for (this run) */
	struct softdoca_graph_slot *holder; /* the sub-graph node whose data it is */
	uint32_t inflight;		   /* nodes started, not completed */
	uint32_t left;			   /* nodes not completed */
	doca_error_t status;		   /* first failure of the run */
	struct graph_event done_ev;	   /* queued once the run is over */
	struct softdoca_graph_slot slots[];
};

struct doca_graph {
	struct doca_ctx ctx; /* internal: delivers the graph's events in doca_pe_progress */
	struct doca_pe *pe;
	bool started;
	bool configured;
	doca_graph_completion_cb_t completion_cb;
	doca_graph_completion_cb_t error_cb;
	uint32_t max_instances;
	uint32_t num_instances;
	union doca_data user_data;
	struct doca_graph_node *nodes;
	struct doca_graph_node **nodes_tail;
	uint32_t num_nodes;
	uint32_t users;		     /* sub-graph nodes of other graphs that run this one */
	struct doca_graph_node **by_index; /* while started */
	struct graph_event *ev_head;
	struct graph_event *ev_tail;
};

#define CONTAINER(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

static const char *kind_name(enum node_kind k)
{
	switch (k) {
	case NODE_CTX:
		return "context";
	case NODE_USER:
		return "user";
	case NODE_SUB_GRAPH:
		return "sub-graph";
	}
	return "unknown";
}

/* ---- events: user nodes to run, instances to report ---- */

static void event_post(struct doca_graph *g, struct graph_event *ev)
{
	ev->next = NULL;
	ev->queued = true;
	if (g->ev_tail != NULL)
		g->ev_tail->next = ev;
	else
		g->ev_head = ev;
	g->ev_tail = ev;
	/* A user asleep on the PE's notification handle must wake to run it. */
	softdoca_pe_notify(g->pe);
}

static struct graph_event *event_pop(struct doca_graph *g)
{
	struct graph_event *ev = g->ev_head;

	if (ev == NULL)
		return NULL;
	g->ev_head = ev->next;
	if (g->ev_head == NULL)
		g->ev_tail = NULL;
	ev->next = NULL;
	ev->queued = false;
	return ev;
}

/* ---- running an instance ---- */

static doca_error_t instance_run(struct doca_graph_instance *inst, struct softdoca_graph_slot *parent);

/* The run is over once nothing is in flight and every node completed or one failed. */
static void maybe_finish(struct doca_graph_instance *inst)
{
	if (inst->inflight != 0 || (inst->left != 0 && inst->status == DOCA_SUCCESS) || inst->done_ev.queued)
		return;
	event_post(inst->graph, &inst->done_ev);
}

static void run_failed(struct doca_graph_instance *inst, const struct softdoca_graph_slot *slot, doca_error_t err)
{
	if (inst->status != DOCA_SUCCESS)
		return; /* the first failure is the run's */
	inst->status = err;
	SDK_LOG_ERR("Graph instance %p failed: %s node %u returned %s; no further node starts, the error "
		    "callback follows once the nodes in flight are back",
		    (void *)inst, kind_name(slot->node->kind), slot->node->index, doca_error_get_descr(err));
}

/* Starts one node whose dependencies are all complete. */
static doca_error_t node_start(struct softdoca_graph_slot *slot)
{
	struct doca_graph_instance *inst = slot->inst;
	struct doca_graph_node *node = slot->node;
	doca_error_t err;

	switch (node->kind) {
	case NODE_CTX:
		if (node->link.ctx == NULL) {
			SDK_LOG_ERR("Failed to run graph context node %u: its context was destroyed; a graph's "
				    "contexts must outlive it",
				    node->index);
			return DOCA_ERROR_BAD_STATE;
		}
		slot->task->graph_slot = slot;
		err = doca_task_submit(slot->task);
		if (err != DOCA_SUCCESS) {
			slot->task->graph_slot = NULL;
			return err; /* doca_task_submit logged why */
		}
		break;
	case NODE_USER:
		event_post(inst->graph, &slot->run_ev);
		break;
	case NODE_SUB_GRAPH:
		err = instance_run(slot->sub, slot);
		if (err != DOCA_SUCCESS)
			return err;
		break;
	}
	inst->inflight++;
	return DOCA_SUCCESS;
}

/* A node came back: start what waited only for it, or end the run. */
static void node_done(struct softdoca_graph_slot *slot, doca_error_t status)
{
	struct doca_graph_instance *inst = slot->inst;
	struct doca_graph_node *node = slot->node;

	inst->inflight--;
	inst->left--;
	if (status != DOCA_SUCCESS)
		run_failed(inst, slot, status);
	for (uint32_t i = 0; i < node->num_next && inst->status == DOCA_SUCCESS; i++) {
		struct softdoca_graph_slot *s = &inst->slots[node->next[i]->index];
		doca_error_t err;

		if (--s->waiting != 0)
			continue;
		err = node_start(s);
		if (err != DOCA_SUCCESS)
			run_failed(inst, s, err);
	}
	maybe_finish(inst);
}

void softdoca_graph_task_done(struct doca_task *task)
{
	struct softdoca_graph_slot *slot = task->graph_slot;

	task->graph_slot = NULL;
	node_done(slot, task->status);
}

/* Checks an instance's data before anything of it runs: a run starts whole or not at all. */
static doca_error_t instance_check(const struct doca_graph_instance *inst)
{
	const struct doca_graph *g = inst->graph;

	for (uint32_t i = 0; i < g->num_nodes; i++) {
		const struct softdoca_graph_slot *s = &inst->slots[i];
		const struct doca_graph_node *n = s->node;

		if (!s->data_set) {
			SDK_LOG_ERR("Failed to submit graph instance: %s node %u has no data; set it with "
				    "doca_graph_instance_set_%s_node_data()",
				    kind_name(n->kind), n->index,
				    n->kind == NODE_CTX ? "ctx" : n->kind == NODE_USER ? "user" : "sub_graph");
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (n->kind == NODE_CTX && n->link.ctx == NULL) {
			SDK_LOG_ERR("Failed to submit graph instance: the context of node %u was destroyed; a "
				    "graph's contexts must outlive it",
				    n->index);
			return DOCA_ERROR_BAD_STATE;
		}
		if (n->kind == NODE_CTX && n->num_deps == 0) {
			/* Roots are submitted now: refuse here what doca_task_submit would refuse. */
			if (s->task->state != SOFTDOCA_TASK_ALLOCATED) {
				SDK_LOG_ERR("Failed to submit graph instance: the task of node %u is %s", n->index,
					    s->task->state == SOFTDOCA_TASK_SUBMITTED ? "already in flight"
										       : "freed");
				return DOCA_ERROR_BAD_STATE;
			}
			if (n->link.ctx->state != DOCA_CTX_STATE_RUNNING) {
				SDK_LOG_ERR("Failed to submit graph instance: the %s context of node %u is %s, not "
					    "running",
					    n->link.ctx->ops->name, n->index,
					    softdoca_ctx_state_name(n->link.ctx->state));
				return DOCA_ERROR_BAD_STATE;
			}
		}
		if (n->kind == NODE_SUB_GRAPH && s->sub->submitted) {
			SDK_LOG_ERR("Failed to submit graph instance: the sub-graph instance of node %u is "
				    "already running",
				    n->index);
			return DOCA_ERROR_IN_USE;
		}
	}
	return DOCA_SUCCESS;
}

static doca_error_t instance_run(struct doca_graph_instance *inst, struct softdoca_graph_slot *parent)
{
	struct doca_graph *g = inst->graph;
	doca_error_t err;
	bool started = false;

	if (inst->submitted) {
		SDK_LOG_ERR("Failed to submit graph instance %p: it is already submitted; wait for its "
			    "completion callback",
			    (void *)inst);
		return DOCA_ERROR_IN_USE;
	}
	err = instance_check(inst);
	if (err != DOCA_SUCCESS)
		return err;
	inst->submitted = true;
	inst->parent = parent;
	inst->inflight = 0;
	inst->left = g->num_nodes;
	inst->status = DOCA_SUCCESS;
	for (uint32_t i = 0; i < g->num_nodes; i++)
		inst->slots[i].waiting = inst->slots[i].node->num_deps;
	/* Roots that can fail first (tasks, sub graphs), user nodes (queued, cannot fail) last. */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < g->num_nodes && inst->status == DOCA_SUCCESS; i++) {
			struct softdoca_graph_slot *s = &inst->slots[i];

			if (s->waiting != 0 || (s->node->kind == NODE_USER) != (pass == 1))
				continue;
			err = node_start(s);
			if (err == DOCA_SUCCESS) {
				started = true;
				continue;
			}
			if (!started) { /* nothing runs yet: the submission fails as a whole */
				inst->submitted = false;
				inst->parent = NULL;
				return err;
			}
			run_failed(inst, s, err);
		}
	}
	maybe_finish(inst);
	return DOCA_SUCCESS;
}

/* ---- the graph's internal context ---- */

/* Delivers one event; true if there was one. */
static bool graph_progress(struct doca_ctx *ctx)
{
	struct doca_graph *g = (struct doca_graph *)ctx;
	struct graph_event *ev = event_pop(g);

	if (ev == NULL)
		return false;
	if (ev->kind == EV_RUN_USER_NODE) {
		struct softdoca_graph_slot *slot = CONTAINER(ev, struct softdoca_graph_slot, run_ev);

		node_done(slot, slot->node->cb(slot->cookie));
	} else {
		struct doca_graph_instance *inst = CONTAINER(ev, struct doca_graph_instance, done_ev);
		struct softdoca_graph_slot *parent = inst->parent;

		/* Not submitted any more from here on: the callback may resubmit or destroy it. */
		inst->submitted = false;
		inst->parent = NULL;
		if (parent != NULL) /* a sub graph's run is its node's outcome, not a callback */
			node_done(parent, inst->status);
		else if (inst->status == DOCA_SUCCESS)
			g->completion_cb(inst, inst->user_data, g->user_data);
		else
			g->error_cb(inst, inst->user_data, g->user_data);
	}
	return true;
}

static bool graph_arm(struct doca_ctx *ctx)
{
	return ((struct doca_graph *)ctx)->ev_head != NULL;
}

static const struct softdoca_ctx_ops graph_ops = {
	.name = "graph",
	.progress = graph_progress,
	.arm = graph_arm,
};

/* ---- graph ---- */

doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph)
{
	struct doca_graph *g;
	doca_error_t err;

	if (pe == NULL || graph == NULL) {
		SDK_LOG_ERR("Failed to create graph: %s is NULL", pe == NULL ? "pe" : "graph output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	g = calloc(1, sizeof(*g));
	if (g == NULL) {
		SDK_LOG_ERR("Failed to create graph: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&g->ctx, NULL, &graph_ops);
	err = doca_pe_connect_ctx(pe, &g->ctx);
	if (err != DOCA_SUCCESS) {
		free(g);
		return err; /* logged */
	}
	g->pe = pe;
	g->nodes_tail = &g->nodes;
	*graph = g;
	return DOCA_SUCCESS;
}

static void node_free(struct doca_graph_node *n)
{
	if (n->kind == NODE_CTX && n->link.ctx != NULL) {
		struct softdoca_ctx_link **pp = &n->link.ctx->graph_nodes;

		while (*pp != NULL && *pp != &n->link)
			pp = &(*pp)->next;
		if (*pp != NULL)
			*pp = n->link.next;
	}
	if (n->kind == NODE_SUB_GRAPH)
		n->sub_graph->users--;
	free(n->next);
	free(n);
}

doca_error_t doca_graph_destroy(struct doca_graph *graph)
{
	if (graph == NULL) {
		SDK_LOG_ERR("Failed to destroy graph: graph is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph->started) {
		SDK_LOG_ERR("Failed to destroy graph: it is started; destroy its instances and call "
			    "doca_graph_stop() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (graph->users != 0) {
		SDK_LOG_ERR("Failed to destroy graph: %u sub-graph node(s) of other graphs run it; destroy those "
			    "graphs first",
			    graph->users);
		return DOCA_ERROR_IN_USE;
	}
	while (graph->nodes != NULL) {
		struct doca_graph_node *n = graph->nodes;

		graph->nodes = n->list_next;
		node_free(n);
	}
	softdoca_ctx_fini(&graph->ctx);
	free(graph);
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_set_conf(struct doca_graph *graph, doca_graph_completion_cb_t graph_completion_cb,
				 doca_graph_completion_cb_t graph_error_cb, uint32_t num_instances)
{
	if (graph == NULL || graph_completion_cb == NULL || graph_error_cb == NULL || num_instances == 0) {
		SDK_LOG_ERR("Failed to configure graph: %s",
			    graph == NULL ? "graph is NULL"
			    : graph_completion_cb == NULL ? "completion callback is NULL"
			    : graph_error_cb == NULL ? "error callback is NULL"
						      : "num_instances is 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph->started) {
		SDK_LOG_ERR("Failed to configure graph: it is started; call doca_graph_set_conf() before "
			    "doca_graph_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	graph->completion_cb = graph_completion_cb;
	graph->error_cb = graph_error_cb;
	graph->max_instances = num_instances;
	graph->configured = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data)
{
	if (graph == NULL) {
		SDK_LOG_ERR("Failed to set graph user data: graph is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph->started) {
		SDK_LOG_ERR("Failed to set graph user data: the graph is started; set it before doca_graph_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	graph->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_get_user_data(const struct doca_graph *graph, union doca_data *user_data)
{
	if (graph == NULL || user_data == NULL) {
		SDK_LOG_ERR("Failed to get graph user data: %s is NULL", graph == NULL ? "graph" : "user_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = graph->user_data;
	return DOCA_SUCCESS;
}

/* A new node, added as a root; the caller fills in its kind's data. */
static doca_error_t node_add(struct doca_graph *graph, enum node_kind kind, struct doca_graph_node **node,
			     struct doca_graph_node **out)
{
	struct doca_graph_node *n;

	if (graph->started) {
		SDK_LOG_ERR("Failed to create %s node: the graph is started; add nodes before doca_graph_start()",
			    kind_name(kind));
		return DOCA_ERROR_BAD_STATE;
	}
	n = calloc(1, sizeof(*n));
	if (n == NULL) {
		SDK_LOG_ERR("Failed to create %s node: out of memory", kind_name(kind));
		return DOCA_ERROR_NO_MEMORY;
	}
	n->graph = graph;
	n->kind = kind;
	n->index = graph->num_nodes++;
	*graph->nodes_tail = n;
	graph->nodes_tail = &n->list_next;
	*node = n;
	*out = n;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph, const struct doca_ctx *ctx,
					     struct doca_graph_node **node)
{
	struct doca_ctx *c = (struct doca_ctx *)ctx; /* the node keeps a link in the context */
	struct doca_graph_node *n;
	doca_error_t err;

	if (graph == NULL || ctx == NULL || node == NULL) {
		SDK_LOG_ERR("Failed to create context node: %s is NULL",
			    graph == NULL ? "graph" : ctx == NULL ? "ctx" : "node output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ctx->ops == &graph_ops) {
		SDK_LOG_ERR("Failed to create context node: the context is a graph's; use "
			    "doca_graph_node_create_from_graph() to run a graph as a node");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ctx->pe != NULL && ctx->pe != graph->pe) {
		SDK_LOG_ERR("Failed to create context node: the %s context is connected to another PE than the "
			    "graph's; a graph runs the contexts of its own PE",
			    ctx->ops->name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = node_add(graph, NODE_CTX, node, &n);
	if (err != DOCA_SUCCESS)
		return err;
	n->link.ctx = c;
	n->link.next = c->graph_nodes;
	c->graph_nodes = &n->link;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph, doca_graph_user_node_cb_t cb,
					      struct doca_graph_node **node)
{
	struct doca_graph_node *n;
	doca_error_t err;

	if (graph == NULL || cb == NULL || node == NULL) {
		SDK_LOG_ERR("Failed to create user node: %s is NULL",
			    graph == NULL ? "graph" : cb == NULL ? "callback" : "node output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = node_add(graph, NODE_USER, node, &n);
	if (err == DOCA_SUCCESS)
		n->cb = cb;
	return err;
}

/* True if `target` runs inside `g`, at any depth of sub graphs (or is g). */
static bool graph_contains(const struct doca_graph *g, const struct doca_graph *target, uint32_t depth)
{
	if (g == target)
		return true;
	if (depth > 64) /* deeper than any acyclic nesting a program builds: treat it as a cycle */
		return true;
	for (const struct doca_graph_node *n = g->nodes; n != NULL; n = n->list_next)
		if (n->kind == NODE_SUB_GRAPH && graph_contains(n->sub_graph, target, depth + 1))
			return true;
	return false;
}

doca_error_t doca_graph_node_create_from_graph(struct doca_graph *graph, struct doca_graph *sub_graph,
					       struct doca_graph_node **node)
{
	struct doca_graph_node *n;
	doca_error_t err;

	if (graph == NULL || sub_graph == NULL || node == NULL) {
		SDK_LOG_ERR("Failed to create sub-graph node: %s is NULL",
			    graph == NULL ? "graph" : sub_graph == NULL ? "sub_graph" : "node output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph_contains(sub_graph, graph, 0)) {
		SDK_LOG_ERR("Failed to create sub-graph node: the sub graph %s the graph; graphs must not form "
			    "a cycle",
			    sub_graph == graph ? "is" : "runs");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (sub_graph->pe != graph->pe) {
		SDK_LOG_ERR("Failed to create sub-graph node: the sub graph runs on another PE; a graph and its "
			    "sub graphs share one PE");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sub_graph->started) {
		SDK_LOG_ERR("Failed to create sub-graph node: the sub graph is not started; call "
			    "doca_graph_start() on it first");
		return DOCA_ERROR_BAD_STATE;
	}
	err = node_add(graph, NODE_SUB_GRAPH, node, &n);
	if (err != DOCA_SUCCESS)
		return err;
	n->sub_graph = sub_graph;
	sub_graph->users++;
	return DOCA_SUCCESS;
}

/* True if `target` can be reached from `start` along dependencies. */
static bool reaches(const struct doca_graph *g, struct doca_graph_node *start, const struct doca_graph_node *target,
		    bool *error)
{
	struct doca_graph_node **stack = malloc(sizeof(*stack) * (g->num_nodes + 1));
	bool *seen = calloc(g->num_nodes, sizeof(*seen));
	uint32_t top = 0;
	bool found = false;

	if (stack == NULL || seen == NULL) {
		free(stack);
		free(seen);
		*error = true;
		return false;
	}
	stack[top++] = start;
	seen[start->index] = true;
	while (top > 0 && !found) {
		struct doca_graph_node *n = stack[--top];

		if (n == target) {
			found = true;
			break;
		}
		for (uint32_t i = 0; i < n->num_next; i++) {
			struct doca_graph_node *m = n->next[i];

			if (!seen[m->index]) {
				seen[m->index] = true;
				stack[top++] = m;
			}
		}
	}
	free(stack);
	free(seen);
	return found;
}

doca_error_t doca_graph_add_dependency(struct doca_graph *graph, struct doca_graph_node *from,
				       struct doca_graph_node *to)
{
	bool oom = false;

	if (graph == NULL || from == NULL || to == NULL) {
		SDK_LOG_ERR("Failed to add graph dependency: %s is NULL",
			    graph == NULL ? "graph" : from == NULL ? "from node" : "to node");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (from->graph != graph || to->graph != graph) {
		SDK_LOG_ERR("Failed to add graph dependency: the %s node belongs to another graph",
			    from->graph != graph ? "from" : "to");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph->started) {
		SDK_LOG_ERR("Failed to add graph dependency: the graph is started; add dependencies before "
			    "doca_graph_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	for (uint32_t i = 0; i < from->num_next; i++)
		if (from->next[i] == to)
			return DOCA_SUCCESS; /* already there: a dependency counts once */
	if (from == to || reaches(graph, to, from, &oom)) {
		SDK_LOG_ERR("Failed to add graph dependency %u -> %u: node %u already depends on node %u, so this "
			    "would form a cycle",
			    from->index, to->index, from->index, to->index);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (oom) {
		SDK_LOG_ERR("Failed to add graph dependency: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	if (from->num_next == from->cap_next) {
		uint32_t cap = from->cap_next ? from->cap_next * 2 : 4;
		struct doca_graph_node **next = realloc(from->next, sizeof(*next) * cap);

		if (next == NULL) {
			SDK_LOG_ERR("Failed to add graph dependency: out of memory");
			return DOCA_ERROR_NO_MEMORY;
		}
		from->next = next;
		from->cap_next = cap;
	}
	from->next[from->num_next++] = to;
	to->num_deps++;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_start(struct doca_graph *graph)
{
	bool has_ctx_node = false;

	if (graph == NULL) {
		SDK_LOG_ERR("Failed to start graph: graph is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph->started)
		return DOCA_SUCCESS;
	if (!graph->configured) {
		SDK_LOG_ERR("Failed to start graph: it has no completion callbacks; call doca_graph_set_conf() "
			    "first");
		return DOCA_ERROR_BAD_STATE;
	}
	for (const struct doca_graph_node *n = graph->nodes; n != NULL; n = n->list_next) {
		const struct doca_ctx *ctx = n->link.ctx;

		/* A started sub graph holds a context node itself. */
		has_ctx_node = has_ctx_node || n->kind != NODE_USER;
		if (n->kind == NODE_SUB_GRAPH && !n->sub_graph->started) {
			SDK_LOG_ERR("Failed to start graph: the sub graph of node %u is not started", n->index);
			return DOCA_ERROR_BAD_STATE;
		}
		if (n->kind != NODE_CTX)
			continue;
		if (ctx == NULL) {
			SDK_LOG_ERR("Failed to start graph: the context of node %u was destroyed", n->index);
			return DOCA_ERROR_BAD_STATE;
		}
		if (ctx->pe != graph->pe) {
			SDK_LOG_ERR("Failed to start graph: the %s context of node %u is not connected to the graph's "
				    "PE; call doca_pe_connect_ctx() with the graph's PE",
				    ctx->ops->name, n->index);
			return DOCA_ERROR_BAD_STATE;
		}
		if (ctx->state != DOCA_CTX_STATE_RUNNING) {
			SDK_LOG_ERR("Failed to start graph: the %s context of node %u is %s; start every context "
				    "of the graph (doca_ctx_start) before the graph",
				    ctx->ops->name, n->index, softdoca_ctx_state_name(ctx->state));
			return DOCA_ERROR_BAD_STATE;
		}
	}
	if (!has_ctx_node) {
		SDK_LOG_ERR("Failed to start graph: it has no context node; a graph runs at least one context "
			    "task (doca_graph_node_create_from_ctx)");
		return DOCA_ERROR_BAD_STATE;
	}
	graph->by_index = malloc(sizeof(*graph->by_index) * graph->num_nodes);
	if (graph->by_index == NULL) {
		SDK_LOG_ERR("Failed to start graph: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	for (struct doca_graph_node *n = graph->nodes; n != NULL; n = n->list_next)
		graph->by_index[n->index] = n;
	graph->started = true;
	graph->ctx.state = DOCA_CTX_STATE_RUNNING; /* internal: its events are delivered from now on */
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_stop(struct doca_graph *graph)
{
	if (graph == NULL) {
		SDK_LOG_ERR("Failed to stop graph: graph is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!graph->started)
		return DOCA_SUCCESS;
	if (graph->num_instances != 0) {
		SDK_LOG_ERR("Failed to stop graph: %u instance(s) still exist; destroy them with "
			    "doca_graph_instance_destroy() first",
			    graph->num_instances);
		return DOCA_ERROR_IN_USE;
	}
	free(graph->by_index);
	graph->by_index = NULL;
	graph->started = false;
	graph->ctx.state = DOCA_CTX_STATE_IDLE;
	return DOCA_SUCCESS;
}

/* ---- instances ---- */

doca_error_t doca_graph_instance_create(const struct doca_graph *graph, struct doca_graph_instance **graph_instance)
{
	struct doca_graph *g = (struct doca_graph *)graph; /* counts its instances */
	struct doca_graph_instance *inst;

	if (graph == NULL || graph_instance == NULL) {
		SDK_LOG_ERR("Failed to create graph instance: %s is NULL",
			    graph == NULL ? "graph" : "instance output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!graph->started) {
		SDK_LOG_ERR("Failed to create graph instance: the graph is not started; call doca_graph_start() "
			    "first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (graph->num_instances >= graph->max_instances) {
		SDK_LOG_ERR("Failed to create graph instance: all %u instances of the graph exist; destroy one or "
			    "configure more in doca_graph_set_conf()",
			    graph->max_instances);
		return DOCA_ERROR_NO_MEMORY;
	}
	inst = calloc(1, sizeof(*inst) + sizeof(inst->slots[0]) * graph->num_nodes);
	if (inst == NULL) {
		SDK_LOG_ERR("Failed to create graph instance: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	inst->graph = g;
	inst->done_ev.kind = EV_INSTANCE_DONE;
	for (uint32_t i = 0; i < graph->num_nodes; i++) {
		inst->slots[i].inst = inst;
		inst->slots[i].node = graph->by_index[i];
		inst->slots[i].run_ev.kind = EV_RUN_USER_NODE;
	}
	g->num_instances++;
	*graph_instance = inst;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance)
{
	struct doca_graph_instance *inst = graph_instance;

	if (inst == NULL) {
		SDK_LOG_ERR("Failed to destroy graph instance: instance is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (inst->submitted) {
		SDK_LOG_ERR("Failed to destroy graph instance: it is submitted; wait for its completion callback");
		return DOCA_ERROR_IN_USE;
	}
	if (inst->holder != NULL) {
		SDK_LOG_ERR("Failed to destroy graph instance: it is the data of sub-graph node %u of another "
			    "instance; destroy that instance first",
			    inst->holder->node->index);
		return DOCA_ERROR_IN_USE;
	}
	for (uint32_t i = 0; i < inst->graph->num_nodes; i++)
		if (inst->slots[i].sub != NULL)
			inst->slots[i].sub->holder = NULL;
	inst->graph->num_instances--;
	free(inst);
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance, union doca_data user_data)
{
	if (graph_instance == NULL) {
		SDK_LOG_ERR("Failed to set graph instance user data: instance is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph_instance->submitted) {
		SDK_LOG_ERR("Failed to set graph instance user data: the instance is submitted");
		return DOCA_ERROR_IN_USE;
	}
	graph_instance->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_get_user_data(const struct doca_graph_instance *graph_instance,
					       union doca_data *user_data)
{
	if (graph_instance == NULL || user_data == NULL) {
		SDK_LOG_ERR("Failed to get graph instance user data: %s is NULL",
			    graph_instance == NULL ? "instance" : "user_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = graph_instance->user_data;
	return DOCA_SUCCESS;
}

/* The instance's slot of `node` if node data may be set now; logs and fails otherwise. */
static doca_error_t slot_for(struct doca_graph_instance *inst, struct doca_graph_node *node, enum node_kind kind,
			     const char *call, struct softdoca_graph_slot **slot)
{
	if (inst->submitted) {
		SDK_LOG_ERR("%s: the instance is submitted; set node data before doca_graph_instance_submit() or "
			    "in its completion callback",
			    call);
		return DOCA_ERROR_BAD_STATE;
	}
	if (node->graph != inst->graph) {
		SDK_LOG_ERR("%s: the node belongs to another graph than the one that created the instance", call);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (node->kind != kind) {
		SDK_LOG_ERR("%s: node %u is a %s node, not a %s node", call, node->index, kind_name(node->kind),
			    kind_name(kind));
		return DOCA_ERROR_NOT_PERMITTED;
	}
	*slot = &inst->slots[node->index];
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
						   struct doca_graph_node *node, struct doca_task *task)
{
	static const char call[] = "Failed to set graph context node data";
	struct softdoca_graph_slot *slot;
	doca_error_t err;

	if (graph_instance == NULL || node == NULL || task == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, graph_instance == NULL ? "instance" : node == NULL ? "node" : "task");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = slot_for(graph_instance, node, NODE_CTX, call, &slot);
	if (err != DOCA_SUCCESS)
		return err;
	if (node->link.ctx == NULL) {
		SDK_LOG_ERR("%s: the context of node %u was destroyed", call, node->index);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (task->ctx != node->link.ctx) {
		SDK_LOG_ERR("%s: the task belongs to a %s context, not to the %s context of node %u", call,
			    task->ctx->ops->name, node->link.ctx->ops->name, node->index);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (task->state == SOFTDOCA_TASK_FREE) {
		SDK_LOG_ERR("%s: the task is freed; allocate it again", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	slot->task = task;
	slot->data_set = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
						    struct doca_graph_node *node, void *cookie)
{
	static const char call[] = "Failed to set graph user node data";
	struct softdoca_graph_slot *slot;
	doca_error_t err;

	if (graph_instance == NULL || node == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, graph_instance == NULL ? "instance" : "node");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = slot_for(graph_instance, node, NODE_USER, call, &slot);
	if (err != DOCA_SUCCESS)
		return err;
	slot->cookie = cookie;
	slot->data_set = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_set_sub_graph_node_data(struct doca_graph_instance *graph_instance,
							 struct doca_graph_node *node,
							 struct doca_graph_instance *sub_graph_instance)
{
	static const char call[] = "Failed to set graph sub-graph node data";
	struct doca_graph_instance *sub = sub_graph_instance;
	struct softdoca_graph_slot *slot;
	doca_error_t err;

	if (graph_instance == NULL || node == NULL || sub == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call,
			    graph_instance == NULL ? "instance" : node == NULL ? "node" : "sub-graph instance");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = slot_for(graph_instance, node, NODE_SUB_GRAPH, call, &slot);
	if (err != DOCA_SUCCESS)
		return err;
	if (sub->graph != node->sub_graph) {
		SDK_LOG_ERR("%s: the instance was created by another graph than the sub graph of node %u", call,
			    node->index);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (sub->submitted) {
		SDK_LOG_ERR("%s: the sub-graph instance is submitted", call);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (sub->holder != NULL && sub->holder != slot) {
		SDK_LOG_ERR("%s: the sub-graph instance is already the data of another sub-graph node", call);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (slot->sub != NULL)
		slot->sub->holder = NULL;
	slot->sub = sub;
	sub->holder = slot;
	slot->data_set = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance)
{
	if (graph_instance == NULL) {
		SDK_LOG_ERR("Failed to submit graph instance: instance is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (graph_instance->holder != NULL) {
		SDK_LOG_ERR("Failed to submit graph instance: it is the data of sub-graph node %u; it runs when "
			    "that node runs",
			    graph_instance->holder->node->index);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	return instance_run(graph_instance, NULL);
}
