/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The context / task / progress-engine core shared by every softdoca library (private).
 *
 * A library context (doca_dma, doca_sync_event, ...) embeds `struct doca_ctx` and plugs in
 * through one ops table, the way a dmadev driver plugs into dmadev: the generic layer owns the
 * state machine, task pools, submission and completion delivery; the library says how to
 * check a task, how to turn it into engine work and what to do when the work completes.
 *
 * The helpers below are static inline on purpose: libraries other than libdoca_common must
 * not need any non-DOCA exported symbol, so everything they call is either public DOCA API
 * or inline code over these shared layouts.
 */
#ifndef SOFTDOCA_CTX_PRIV_H
#define SOFTDOCA_CTX_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "doca_ctx.h"
#include "doca_pe.h"
#include "../../softhw/base/bell.h"
#include "../../softhw/softhw.h"

#define SOFTDOCA_MAX_TASK_TYPES 12 /* RDMA has eleven task types */

struct doca_dev;
struct softdoca_graph_slot; /* one node of a doca_graph instance (graph.c) */

enum softdoca_task_state {
	SOFTDOCA_TASK_FREE = 0,
	SOFTDOCA_TASK_ALLOCATED,
	SOFTDOCA_TASK_SUBMITTED,
};

/* Base of every library task; the library's task struct starts with it. */
struct doca_task {
	struct softhw_work work; /* engine work item; first so the engine can hand it back */
	struct doca_ctx *ctx;
	struct softdoca_task_pool *pool;
	union doca_data user_data;
	doca_error_t status;
	enum softdoca_task_state state;
	bool free_on_completion; /* freed by the user while in flight: released once it completes */
	struct doca_task *free_next;
	/* Set while a graph node runs this task: its completion goes to the graph, not the
	 * task's callbacks (pe.c hands it to softdoca_graph_task_done). */
	struct softdoca_graph_slot *graph_slot;
};

/* One task type of a context: its callbacks and its preallocated pool (from set_conf). */
struct softdoca_task_pool {
	const char *name;            /* "memcpy", for log lines */
	size_t task_size;            /* sizeof the library's task struct */
	uint32_t capacity;           /* num_tasks given to set_conf */
	uint32_t allocated;
	bool freed_in_flight_told; /* the warning about tasks freed in flight was logged (once a pool) */
	unsigned char *mem;
	struct doca_task *free_list;
	doca_task_completion_cb_t success_cb;
	doca_task_completion_cb_t error_cb;
};

/*
 * A graph node's hold on a context. Destroying the context clears `ctx` (softdoca_ctx_fini),
 * so a graph that outlives one of its contexts finds NULL and refuses, instead of reading
 * freed memory.
 */
struct softdoca_ctx_link {
	struct softdoca_ctx_link *next;
	struct doca_ctx *ctx;
};

struct softdoca_ctx_ops {
	const char *name; /* "DMA": used in log lines */
	/* Called by doca_ctx_start after the generic checks: SUCCESS (now RUNNING),
	 * IN_PROGRESS (STARTING; the library moves on with softdoca_ctx_set_state) or an error. */
	doca_error_t (*start)(struct doca_ctx *ctx);
	/* Called when the context leaves RUNNING (doca_ctx_stop or a stop on error); optional.
	 * Returning IN_PROGRESS keeps the context STOPPING after its tasks drain, until the library
	 * clears ctx->lib_busy (e.g. once its peers are disconnected). Whatever lets it clear must
	 * wake a PE sleeping on its notification handle: an event of its hardware, or its arm op
	 * returning true while the clear is pending (RDMA). */
	doca_error_t (*stop)(struct doca_ctx *ctx);
	/* Delivers one library event (a received message, a connection change, a STARTING->RUNNING
	 * transition) from inside doca_pe_progress; returns true if it did something. Optional. */
	bool (*progress)(struct doca_ctx *ctx);
	/* The user armed the PE's notification handle: make sure the library's future events will
	 * call softdoca_pe_notify(), and return true if events are already waiting. Optional. */
	bool (*arm)(struct doca_ctx *ctx);
	/* Validates a task (doca_task_try_submit and the library's own submit checks). Logs why. */
	doca_error_t (*check)(struct doca_task *task);
	/* Turns the task into engine work (task->work); may fail, then nothing was queued. */
	doca_error_t (*prepare)(struct doca_task *task);
	/* Runs after the engine completed the work, before the user callback. */
	void (*complete)(struct doca_task *task);
	/* A stop flushes the task before it ran: undoes what prepare did, before the error callback. Optional. */
	void (*flushed)(struct doca_task *task);
	/* "DMA shall stop in case of error": a failed task stops the context. */
	bool stop_on_error;
	/* The library can run its datapath on a DPA (doca_ctx_set_datapath_on_dpa). */
	bool dpa_datapath;
};

struct doca_ctx {
	const struct softdoca_ctx_ops *ops;
	struct doca_dev *dev;              /* NULL for device-less contexts */
	struct doca_pe *pe;
	struct doca_ctx *pe_next;          /* PE's list of contexts */
	enum doca_ctx_states state;
	union doca_data user_data;
	doca_ctx_state_changed_callback_t state_cb;
	struct softdoca_task_pool pools[SOFTDOCA_MAX_TASK_TYPES];
	uint32_t num_pools;
	size_t inflight;                   /* submitted, not yet completed */
	uint32_t allocated;                /* allocated, not yet freed (all types) */
	struct softhw_queue queue;         /* submitted work, executed by the engine */
	bool lib_busy;                     /* STOPPING, waiting for the library (ops->stop) */
	struct softdoca_ctx_link *graph_nodes; /* graph nodes that run tasks of this context */
	struct doca_dpa *dpa;              /* doca_ctx_set_datapath_on_dpa: NULL for the CPU */
};

struct doca_pe {
	struct doca_ctx *ctxs;
	struct doca_ctx *cursor;           /* round-robin position */
	/*
	 * The notification, a doorbell (softhw/base/bell.h): event_fd, its receiving end, is the
	 * handle the user waits on, and only this process holds it; bell_fd rings it from here.
	 * Each Comch peer gets a ringing end of its own (bell_name, the comch op bell_ringer), to
	 * wake us directly: a peer can neither block us through it nor silence our own rings or
	 * another peer's. share_fd is the end peers get when no new one can be made.
	 */
	int event_fd;
	int bell_fd;
	int share_fd;
	struct softhw_bell_name bell_name;
	int armed;                         /* request_notification called, not yet cleared */
	size_t inflight;
	enum doca_pe_event_mode event_mode;
	int in_progress;                   /* inside doca_pe_progress: callbacks running */
	bool destroyed;                    /* doca_pe_destroy from a callback: freed when progress returns */
	/* Set by a library's progress op that only marked tasks done (no callback ran, its context
	 * is intact): the core completes one of them in the same call, not one call later. */
	bool only_marked;
	uint64_t progress_calls;           /* atomic: doca_pe_progress calls, for the stall report */
	struct doca_pe *all_next;          /* every PE of the process (pe.c), for the stall report */
};

/*
 * A thread blocked in a DOCA wait (doca_sync_event_wait_*) for a while: the PEs with tasks in
 * flight that nobody progresses may hold what it waits for (a task completion whose callback
 * would update its event). softdoca_pe_stall_begin notes each PE's progress count;
 * softdoca_pe_stall_report, a while later, logs the PEs that were not progressed since and
 * have tasks in flight, naming them, and frees the note. Returns how many it logged.
 */
struct softdoca_pe_stall;
struct softdoca_pe_stall *softdoca_pe_stall_begin(void);
unsigned int softdoca_pe_stall_report(struct softdoca_pe_stall *note, const char *waiter);

/* Status of tasks flushed by doca_ctx_stop (DOCA does not document the value). */
#define SOFTDOCA_FLUSH_STATUS DOCA_ERROR_SHUTDOWN

/*
 * Wakes a PE whose user waits on its notification handle. Safe from any thread: signals
 * at most once per doca_pe_request_notification.
 */
static inline void softdoca_pe_notify(struct doca_pe *pe)
{
	if (pe != NULL && __atomic_exchange_n(&pe->armed, 0, __ATOMIC_ACQ_REL)) {
		softhw_bell_ring(pe->bell_fd);
	}
}

/*
 * The same from the PE's own thread (a submit): that thread is the one that arms the PE, so a
 * plain load sees its own arming and the common unarmed case costs no atomic exchange.
 */
static inline void softdoca_pe_notify_own(struct doca_pe *pe)
{
	if (__atomic_load_n(&pe->armed, __ATOMIC_RELAXED))
		softdoca_pe_notify(pe);
}

/* ---- context lifetime (called by library create/destroy) ---- */

static inline void softdoca_ctx_init(struct doca_ctx *ctx, struct doca_dev *dev, const struct softdoca_ctx_ops *ops)
{
	*ctx = (struct doca_ctx){0};
	ctx->ops = ops;
	ctx->dev = dev;
	ctx->state = DOCA_CTX_STATE_IDLE;
	softhw_queue_init(&ctx->queue);
}

/* Detaches from the PE and frees the pools; the context must be IDLE. */
static inline void softdoca_ctx_fini(struct doca_ctx *ctx)
{
	if (ctx->pe != NULL) {
		struct doca_ctx **pp = &ctx->pe->ctxs;
		while (*pp != NULL && *pp != ctx)
			pp = &(*pp)->pe_next;
		if (*pp == ctx)
			*pp = ctx->pe_next;
		if (ctx->pe->cursor == ctx)
			ctx->pe->cursor = NULL;
		ctx->pe = NULL;
	}
	for (uint32_t i = 0; i < ctx->num_pools; i++) {
		free(ctx->pools[i].mem);
		ctx->pools[i].mem = NULL;
	}
	for (struct softdoca_ctx_link *l = ctx->graph_nodes; l != NULL; l = l->next)
		l->ctx = NULL;
	ctx->graph_nodes = NULL;
}

/* ---- task types and pools (called by <lib>_task_<type>_set_conf / _alloc_init) ---- */

/*
 * Configures task type `type` (a small library-chosen index). Only while IDLE with none of
 * its tasks allocated; the caller has checked the state and logged. Re-configuring replaces
 * the pool. Returns NO_MEMORY if the pool cannot be allocated.
 */
static inline doca_error_t softdoca_ctx_conf_tasks(struct doca_ctx *ctx, uint32_t type, const char *name,
						   size_t task_size, doca_task_completion_cb_t success_cb,
						   doca_task_completion_cb_t error_cb, uint32_t num_tasks)
{
	struct softdoca_task_pool *pool = &ctx->pools[type];
	unsigned char *mem = (unsigned char *)calloc(num_tasks ? num_tasks : 1, task_size);

	if (mem == NULL)
		return DOCA_ERROR_NO_MEMORY;
	free(pool->mem);
	*pool = (struct softdoca_task_pool){0};
	pool->name = name;
	pool->task_size = task_size;
	pool->capacity = num_tasks;
	pool->mem = mem;
	pool->success_cb = success_cb;
	pool->error_cb = error_cb;
	for (uint32_t i = num_tasks; i-- > 0;) {
		struct doca_task *t = (struct doca_task *)(mem + (size_t)i * task_size);
		t->ctx = ctx;
		t->pool = pool;
		t->free_next = pool->free_list;
		pool->free_list = t;
	}
	if (type >= ctx->num_pools)
		ctx->num_pools = type + 1;
	return DOCA_SUCCESS;
}

static inline bool softdoca_ctx_tasks_configured(const struct doca_ctx *ctx, uint32_t type)
{
	return type < ctx->num_pools && ctx->pools[type].mem != NULL;
}

/* Takes a task of `type` from its pool; NULL when the pool is exhausted (NO_MEMORY). */
static inline struct doca_task *softdoca_task_alloc(struct doca_ctx *ctx, uint32_t type, union doca_data user_data)
{
	struct softdoca_task_pool *pool = &ctx->pools[type];
	struct doca_task *t = pool->free_list;

	if (t == NULL)
		return NULL;
	pool->free_list = t->free_next;
	pool->allocated++;
	ctx->allocated++;
	t->free_next = NULL;
	t->user_data = user_data;
	t->status = DOCA_SUCCESS;
	t->state = SOFTDOCA_TASK_ALLOCATED;
	t->free_on_completion = false;
	t->graph_slot = NULL;
	t->work = (struct softhw_work){0};
	return t;
}

/* ---- state changes (library-driven transitions, e.g. STARTING -> RUNNING) ---- */

/* The state's name, for log lines that say which state refused a call. */
static inline const char *softdoca_ctx_state_name(enum doca_ctx_states s)
{
	switch (s) {
	case DOCA_CTX_STATE_IDLE:
		return "IDLE";
	case DOCA_CTX_STATE_STARTING:
		return "STARTING";
	case DOCA_CTX_STATE_RUNNING:
		return "RUNNING";
	case DOCA_CTX_STATE_STOPPING:
		return "STOPPING";
	}
	return "UNKNOWN";
}

static inline void softdoca_ctx_set_state(struct doca_ctx *ctx, enum doca_ctx_states next)
{
	enum doca_ctx_states prev = ctx->state;

	if (prev == next)
		return;
	ctx->state = next;
	if (ctx->state_cb != NULL)
		ctx->state_cb(ctx->user_data, ctx, prev, next);
}

#endif /* SOFTDOCA_CTX_PRIV_H */
