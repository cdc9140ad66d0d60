/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_pe: the progress engine, and the task API that goes with it (doca_pe.h).
 *
 * A PE is single-threaded, as in DOCA. Submitted tasks wait in their context's engine queue;
 * doca_pe_progress asks the engine to execute one piece of work and runs its callback, so all
 * callbacks run inside progress. The notification handle is an eventfd: armed by
 * doca_pe_request_notification, signalled when work becomes available.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "doca_pe.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/graph_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(PE);

/* Every PE of the process, for the stall report of a blocked wait. */
static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_pe *all_pes;

static void all_add(struct doca_pe *pe)
{
	pthread_mutex_lock(&all_lock);
	pe->all_next = all_pes;
	all_pes = pe;
	pthread_mutex_unlock(&all_lock);
}

static void all_remove(struct doca_pe *pe)
{
	pthread_mutex_lock(&all_lock);
	for (struct doca_pe **pp = &all_pes; *pp != NULL; pp = &(*pp)->all_next) {
		if (*pp == pe) {
			*pp = pe->all_next;
			break;
		}
	}
	pthread_mutex_unlock(&all_lock);
}

struct softdoca_pe_stall {
	uint32_t n;
	struct {
		struct doca_pe *pe;
		uint64_t calls;
	} pes[];
};

struct softdoca_pe_stall *softdoca_pe_stall_begin(void)
{
	struct softdoca_pe_stall *note;
	uint32_t n = 0;

	pthread_mutex_lock(&all_lock);
	for (struct doca_pe *pe = all_pes; pe != NULL; pe = pe->all_next)
		n++;
	note = malloc(sizeof(*note) + n * sizeof(note->pes[0]));
	if (note != NULL) {
		note->n = 0;
		for (struct doca_pe *pe = all_pes; pe != NULL && note->n < n; pe = pe->all_next) {
			note->pes[note->n].pe = pe;
			note->pes[note->n++].calls = __atomic_load_n(&pe->progress_calls, __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_unlock(&all_lock);
	return note;
}

unsigned int softdoca_pe_stall_report(struct softdoca_pe_stall *note, const char *waiter)
{
	unsigned int logged = 0;

	if (note == NULL)
		return 0;
	pthread_mutex_lock(&all_lock);
	for (struct doca_pe *pe = all_pes; pe != NULL; pe = pe->all_next) {
		char what[256] = "";
		size_t len = 0;
		uint32_t i;

		for (i = 0; i < note->n && note->pes[i].pe != pe; i++)
			;
		/* counters only: the PE's owner may touch its queues meanwhile */
		if (i == note->n || __atomic_load_n(&pe->progress_calls, __ATOMIC_RELAXED) != note->pes[i].calls ||
		    pe->inflight == 0)
			continue;
		for (struct doca_ctx *c = pe->ctxs; c != NULL && len < sizeof(what) - 1; c = c->pe_next) {
			int k;

			if (c->inflight == 0)
				continue;
			k = snprintf(what + len, sizeof(what) - len, "%s%s context %p: %zu", len ? ", " : "", c->ops->name,
				     (void *)c, c->inflight);
			if (k > 0)
				len += (size_t)k;
		}
		SDK_LOG_WARN("%s has blocked for a while and PE %p, which holds %zu task(s) in flight (%s), has not been "
			     "progressed meanwhile: a completion waiting in that PE (a sync event wait task on a DPA "
			     "kernel's completion event, for one) reaches its callback only inside doca_pe_progress(); "
			     "if what this thread waits for depends on it, progress that PE instead of blocking",
			     waiter, (void *)pe, pe->inflight, what);
		logged++;
	}
	pthread_mutex_unlock(&all_lock);
	free(note);
	return logged;
}

/* The notification's sockets, and its name (peers get no new ringing end after this). */
static void bell_close(struct doca_pe *pe)
{
	close(pe->event_fd);
	close(pe->bell_fd);
	if (pe->share_fd >= 0)
		close(pe->share_fd);
	softhw_bell_unname(&pe->bell_name);
}

doca_error_t doca_pe_create(struct doca_pe **pe)
{
	struct doca_pe *p;

	if (pe == NULL) {
		SDK_LOG_ERR("Failed to create PE: pe output pointer is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		SDK_LOG_ERR("Failed to create PE: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	p->share_fd = -1;
	if (softhw_bell_open_named(&p->event_fd, &p->bell_fd, &p->bell_name) != 0) {
		SDK_LOG_ERR("Failed to create PE: its notification handle (datagram sockets): %s", strerror(errno));
		free(p);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	p->share_fd = softhw_bell_ringer(&p->bell_name);
	if (p->share_fd < 0) {
		SDK_LOG_ERR("Failed to create PE: its notification handle (datagram sockets): %s", strerror(errno));
		bell_close(p);
		free(p);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	p->event_mode = DOCA_PE_EVENT_MODE_PROGRESS_ALL;
	all_add(p);
	*pe = p;
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_destroy(struct doca_pe *pe)
{
	if (pe == NULL) {
		SDK_LOG_ERR("Failed to destroy PE: pe is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (pe->ctxs != NULL) {
		SDK_LOG_ERR("Failed to destroy PE: a %s context is still connected; destroy every context "
			    "connected to the PE first",
			    pe->ctxs->ops->name);
		return DOCA_ERROR_IN_USE;
	}
	all_remove(pe);
	if (pe->in_progress) {
		/* From inside one of its callbacks: doca_pe_progress frees it on its way out. */
		pe->destroyed = true;
		return DOCA_SUCCESS;
	}
	bell_close(pe);
	free(pe);
	return DOCA_SUCCESS;
}

/* True when a call to doca_pe_progress would make progress on this context. */
static bool ctx_has_work(const struct doca_ctx *ctx)
{
	/* Only ready work counts: a wait task whose condition does not hold must let the user sleep. */
	if (softhw_queue_has_ready(&ctx->queue))
		return true;
	if (ctx->state != DOCA_CTX_STATE_STOPPING)
		return false;
	/* A stopping context flushes its queue whether or not the work is ready. */
	return !softhw_queue_empty(&ctx->queue) || (ctx->inflight == 0 && ctx->allocated == 0 && !ctx->lib_busy);
}

/* Arms every context for library events; true when work or events are already waiting. */
static bool pe_arm(struct doca_pe *pe)
{
	bool pending = false;

	for (struct doca_ctx *c = pe->ctxs; c != NULL; c = c->pe_next) {
		if (c->ops->arm != NULL && c->ops->arm(c))
			pending = true;
		if (ctx_has_work(c))
			pending = true;
	}
	return pending;
}

static void task_release(struct doca_task *task)
{
	struct softdoca_task_pool *pool = task->pool;

	task->state = SOFTDOCA_TASK_FREE;
	task->free_next = pool->free_list;
	pool->free_list = task;
	pool->allocated--;
	task->ctx->allocated--;
	/* The last free lets a stopping context reach IDLE on the next progress. */
	if (task->ctx->state == DOCA_CTX_STATE_STOPPING && task->ctx->allocated == 0 && task->ctx->inflight == 0)
		softdoca_pe_notify(task->ctx->pe);
}

/*
 * The task whose callback runs now, when the user freed it while it was in flight: it goes
 * back to its pool once the callback returns, unless the callback freed it itself or submitted
 * it again (then at its next completion). Kept outside the task: a callback may free the task
 * and destroy its context. Thread-local: callbacks run on the progressing thread, never nested.
 */
static __thread struct doca_task *release_after_cb __attribute__((tls_model("initial-exec")));

static void release_after_callback(bool freed)
{
	struct doca_task *task;

	if (!freed) /* the common case touches no thread-local */
		return;
	task = release_after_cb;
	release_after_cb = NULL;
	if (task != NULL)
		task_release(task);
}

/* Hands a completed task back to its owner: library post-processing, then the user callback. */
static void complete_task(struct doca_ctx *ctx, struct doca_task *task, doca_error_t status)
{
	struct softdoca_task_pool *pool = task->pool;
	bool freed = task->free_on_completion;

	task->state = SOFTDOCA_TASK_ALLOCATED;
	task->status = status;
	ctx->inflight--;
	ctx->pe->inflight--;
	if (freed)
		release_after_cb = task;
	if (status == DOCA_SUCCESS) {
		if (ctx->ops->complete != NULL)
			ctx->ops->complete(task);
		if (task->graph_slot != NULL) /* a graph's task: the graph hears of it, not the task's callback */
			softdoca_graph_task_done(task);
		else
			pool->success_cb(task, task->user_data, ctx->user_data);
		release_after_callback(freed);
		return;
	}
	/* A library that stops on error starts stopping before the user hears of the failure. */
	if (ctx->ops->stop_on_error && ctx->state == DOCA_CTX_STATE_RUNNING) {
		SDK_LOG_ERR("%s %s task failed: %s; the context stops and flushes its remaining tasks",
			    ctx->ops->name, pool->name, doca_error_get_descr(status));
		ctx->lib_busy = ctx->ops->stop != NULL && ctx->ops->stop(ctx) == DOCA_ERROR_IN_PROGRESS;
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_STOPPING);
	}
	if (task->graph_slot != NULL)
		softdoca_graph_task_done(task);
	else
		pool->error_cb(task, task->user_data, ctx->user_data);
	release_after_callback(freed);
}

/* One unit of work on one context; returns true if anything happened. */
static bool progress_ctx(struct doca_ctx *ctx)
{
	struct softhw_work *work;
	struct doca_pe *pe;

	if (ctx->state == DOCA_CTX_STATE_STOPPING) {
		work = softhw_queue_flush(&ctx->queue, SOFTDOCA_FLUSH_STATUS);
		if (work != NULL) {
			if (ctx->ops->flushed != NULL && work->op != SOFTHW_OP_DONE) /* (done work keeps its outcome) */
				ctx->ops->flushed((struct doca_task *)work);
			complete_task(ctx, (struct doca_task *)work, work->status);
			return true;
		}
		if (ctx->ops->progress != NULL && ctx->ops->progress(ctx))
			return true;
		if (ctx->inflight == 0 && ctx->allocated == 0 && !ctx->lib_busy) {
			softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_IDLE);
			return true;
		}
		return false;
	}
	work = softhw_queue_execute(&ctx->queue);
	if (work != NULL) {
		complete_task(ctx, (struct doca_task *)work, work->status);
		return true;
	}
	/* Library events (messages, connections) only once the context is started. */
	if (ctx->state == DOCA_CTX_STATE_IDLE || ctx->ops->progress == NULL)
		return false;
	pe = ctx->pe; /* lives until this doca_pe_progress returns, whatever a callback does */
	pe->only_marked = false;
	if (!ctx->ops->progress(ctx))
		return false;
	/* Its completions came and no callback ran: the first of them completes now. */
	if (pe->only_marked && (work = softhw_queue_execute(&ctx->queue)) != NULL)
		complete_task(ctx, (struct doca_task *)work, work->status);
	return true;
}

uint8_t doca_pe_progress(struct doca_pe *pe)
{
	struct doca_ctx *start, *c;
	bool made = false;

	if (pe == NULL || pe->ctxs == NULL)
		return 0;
	if (pe->in_progress) {
		SDK_LOG_ERR("doca_pe_progress called from inside a callback of the same PE; return from the "
			    "callback instead");
		return 0;
	}
	pe->in_progress = 1;
	__atomic_store_n(&pe->progress_calls, pe->progress_calls + 1, __ATOMIC_RELAXED);
	/* Round robin: start after the context served last, so no context starves the others. */
	start = (pe->cursor != NULL && pe->cursor->pe_next != NULL) ? pe->cursor->pe_next : pe->ctxs;
	c = start;
	do {
		/* Set before the callbacks run: a callback may destroy c, and fini clears the cursor. */
		pe->cursor = c;
		struct doca_ctx *next = c->pe_next != NULL ? c->pe_next : pe->ctxs;
		if (progress_ctx(c)) {
			made = true;
			break;
		}
		c = next;
	} while (c != start);
	pe->in_progress = 0;
	if (pe->destroyed) {
		bell_close(pe);
		free(pe);
	}
	return made ? 1 : 0;
}

doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle)
{
	if (pe == NULL || handle == NULL) {
		SDK_LOG_ERR("Failed to get notification handle: %s is NULL", pe == NULL ? "pe" : "handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*handle = pe->event_fd;
	return DOCA_SUCCESS;
}

/*
 * Windows binds the PE to an I/O completion port with this call; doca_pe.h declares it only
 * under _WIN32. Exported so that the DOCA ABI is complete; on Linux the handle comes from
 * doca_pe_get_notification_handle().
 */
DOCA_STABLE doca_error_t doca_pe_set_notification_handle(struct doca_pe *pe, doca_notification_handle_t handle,
							 union doca_data completion_key);
doca_error_t doca_pe_set_notification_handle(struct doca_pe *pe, doca_notification_handle_t handle,
					     union doca_data completion_key)
{
	(void)handle;
	(void)completion_key;
	if (pe == NULL) {
		SDK_LOG_ERR("Failed to set notification handle: pe is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_pe_set_notification_handle is the Windows (IOCP) binding; on Linux use the eventfd "
		    "from doca_pe_get_notification_handle()");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_pe_request_notification(struct doca_pe *pe)
{
	if (pe == NULL) {
		SDK_LOG_ERR("Failed to request notification: pe is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	__atomic_store_n(&pe->armed, 1, __ATOMIC_RELEASE);
	/* Work already waiting must wake the caller at once, or it would sleep on it forever. */
	if (pe_arm(pe))
		softdoca_pe_notify(pe);
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle)
{
	if (pe == NULL) {
		SDK_LOG_ERR("Failed to clear notification: pe is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* As on DOCA for Linux the handle is not used: samples pass 0 or the PE's own fd. */
	(void)handle;
	__atomic_store_n(&pe->armed, 0, __ATOMIC_RELEASE);
	/* Every ring that came (bounded: a peer ringing on and on only keeps the handle readable). */
	if (softhw_bell_drain(pe->event_fd, 4096) < 0) {
		SDK_LOG_ERR("Failed to clear notification: recv: %s", strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks)
{
	if (pe == NULL || num_inflight_tasks == NULL) {
		SDK_LOG_ERR("Failed to get PE in-flight tasks: %s is NULL", pe == NULL ? "pe" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_inflight_tasks = pe->inflight;
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	struct doca_ctx **tail;

	if (pe == NULL || ctx == NULL) {
		SDK_LOG_ERR("Failed to connect context to PE: %s is NULL", pe == NULL ? "pe" : "ctx");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ctx->pe != NULL) {
		SDK_LOG_ERR("Failed to connect %s context to PE: it is already connected to a PE (a context "
			    "belongs to one PE until it is destroyed)",
			    ctx->ops->name);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (ctx->state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to connect %s context to PE: context is not idle; connect before "
			    "doca_ctx_start()",
			    ctx->ops->name);
		return DOCA_ERROR_BAD_STATE;
	}
	for (tail = &pe->ctxs; *tail != NULL; tail = &(*tail)->pe_next)
		;
	*tail = ctx;
	ctx->pe_next = NULL;
	ctx->pe = pe;
	return DOCA_SUCCESS;
}

doca_error_t doca_pe_set_event_mode(struct doca_pe *pe, enum doca_pe_event_mode event_mode)
{
	if (pe == NULL || (event_mode != DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE &&
			   event_mode != DOCA_PE_EVENT_MODE_PROGRESS_ALL)) {
		SDK_LOG_ERR("Failed to set PE event mode: %s", pe == NULL ? "pe is NULL" : "unknown mode");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pe->event_mode = event_mode;
	return DOCA_SUCCESS;
}

/* ---- tasks ---- */

/* Checks that do not depend on the task's content: who owns it and whether it may run now. */
static doca_error_t submit_precheck(const struct doca_task *task, const char *call)
{
	const struct doca_ctx *ctx;

	if (task == NULL) {
		SDK_LOG_ERR("%s: task is NULL", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx = task->ctx;
	if (task->state != SOFTDOCA_TASK_ALLOCATED) {
		SDK_LOG_ERR("%s: %s %s task is %s; submit a task once per completion", call, ctx->ops->name,
			    task->pool->name, task->state == SOFTDOCA_TASK_SUBMITTED ? "already submitted" : "freed");
		return DOCA_ERROR_BAD_STATE;
	}
	if (ctx->state != DOCA_CTX_STATE_RUNNING) {
		SDK_LOG_ERR("%s: %s context is not running (state %d); call doca_ctx_start() and wait for "
			    "RUNNING before submitting tasks",
			    call, ctx->ops->name, (int)ctx->state);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t submit(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;
	doca_error_t err = ctx->ops->prepare(task);

	if (err != DOCA_SUCCESS)
		return err;
	task->state = SOFTDOCA_TASK_SUBMITTED;
	if (task->free_on_completion && task == release_after_cb)
		release_after_cb = NULL; /* submitted again from its callback: released at its next completion */
	ctx->inflight++;
	ctx->pe->inflight++;
	softhw_queue_post(&ctx->queue, &task->work);
	softdoca_pe_notify_own(ctx->pe);
	return DOCA_SUCCESS;
}

doca_error_t doca_task_submit(struct doca_task *task)
{
	doca_error_t err = submit_precheck(task, "doca_task_submit");

	return err != DOCA_SUCCESS ? err : submit(task);
}

doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags)
{
	doca_error_t err;

	if (flags & ~(uint32_t)(DOCA_TASK_SUBMIT_FLAG_FLUSH | DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS)) {
		SDK_LOG_ERR("doca_task_submit_ex: unknown flags 0x%x; use enum doca_task_submit_flag values", flags);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Every submission reaches the engine at once, so FLUSH has nothing more to push. */
	err = submit_precheck(task, "doca_task_submit_ex");
	return err != DOCA_SUCCESS ? err : submit(task);
}

doca_error_t doca_task_try_submit(struct doca_task *task)
{
	doca_error_t err = submit_precheck(task, "doca_task_try_submit");

	if (err != DOCA_SUCCESS)
		return err;
	if (task->ctx->ops->check != NULL && task->ctx->ops->check(task) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE; /* check() logged why */
	return submit(task);
}

void doca_task_free(struct doca_task *task)
{
	if (task == NULL)
		return;
	if (task->state == SOFTDOCA_TASK_SUBMITTED) {
		/* DOCA programs do this before doca_ctx_stop() (NVIDIA's secure_channel): the stop
		 * flushes the task, and it goes back to its pool after its error callback. */
		if (!task->pool->freed_in_flight_told)
			SDK_LOG_WARN("doca_task_free: %s %s task is still in flight; it is released when it completes "
				     "(doca_ctx_stop() flushes it); free a task only after its completion callback "
				     "(said once per task type of a context)",
				     task->ctx->ops->name, task->pool->name);
		task->pool->freed_in_flight_told = true;
		task->free_on_completion = true;
		return;
	}
	if (task->state != SOFTDOCA_TASK_ALLOCATED) {
		SDK_LOG_ERR("doca_task_free: %s %s task is already free", task->ctx->ops->name, task->pool->name);
		return;
	}
	if (task->free_on_completion && task == release_after_cb)
		release_after_cb = NULL; /* its callback frees it: once */
	task_release(task);
}

doca_error_t doca_task_get_status(const struct doca_task *task)
{
	if (task == NULL) {
		SDK_LOG_ERR("doca_task_get_status: task is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return task->status;
}

void doca_task_set_user_data(struct doca_task *task, union doca_data user_data)
{
	if (task != NULL)
		task->user_data = user_data;
}

union doca_data doca_task_get_user_data(const struct doca_task *task)
{
	union doca_data none = {.u64 = 0};

	return task != NULL ? task->user_data : none;
}

struct doca_ctx *doca_task_get_ctx(const struct doca_task *task)
{
	return task != NULL ? task->ctx : NULL;
}

/* ---- task batches: no library of softdoca offers batches yet ---- */

static doca_error_t batch_unsupported(const char *call)
{
	SDK_LOG_ERR("%s: task batches are not supported by softdoca yet (no library allocates them); "
		    "submit tasks one by one",
		    call);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch)
{
	(void)task_batch;
	return batch_unsupported("doca_task_batch_submit");
}

doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch)
{
	(void)task_batch;
	return batch_unsupported("doca_task_batch_try_submit");
}

void doca_task_batch_free(struct doca_task_batch *task_batch)
{
	(void)task_batch;
	(void)batch_unsupported("doca_task_batch_free");
}

doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch)
{
	(void)task_batch;
	return batch_unsupported("doca_task_batch_get_status");
}

void doca_task_batch_set_user_data(struct doca_task_batch *task_batch, union doca_data user_data)
{
	(void)task_batch;
	(void)user_data;
	(void)batch_unsupported("doca_task_batch_set_user_data");
}

union doca_data doca_task_batch_get_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = {.u64 = 0};

	(void)task_batch;
	(void)batch_unsupported("doca_task_batch_get_user_data");
	return none;
}

struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch)
{
	(void)task_batch;
	(void)batch_unsupported("doca_task_batch_get_ctx");
	return NULL;
}

union doca_data doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = {.u64 = 0};

	(void)task_batch;
	(void)batch_unsupported("doca_task_batch_get_ctx_user_data");
	return none;
}

uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch)
{
	(void)task_batch;
	(void)batch_unsupported("doca_task_batch_get_tasks_num");
	return 0;
}
