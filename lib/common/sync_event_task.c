/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sync_event as a context: doca_sync_event_as_ctx and the get, notify set, notify add,
 * wait eq and wait neq tasks.
 *
 * Every task is engine work executed inside doca_pe_progress. A wait task is work whose
 * ready() tests the condition, so it completes on the first progress after the value
 * matches; an update made elsewhere (another thread, another event on the same value, the
 * PCIe peer's process) wakes the PE through its notification handle (the context watches its
 * value while it runs).
 */
#include "sync_event_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SYNC_EVENT_TASK);

enum {
	SE_TASK_GET = 0,
	SE_TASK_NOTIFY_SET,
	SE_TASK_NOTIFY_ADD,
	SE_TASK_WAIT_EQ,
	SE_TASK_WAIT_NEQ,
};

/* Upper bound of num_tasks per type: a pool is preallocated, keep it reasonable. */
#define SE_MAX_TASKS (1u << 16)

static const char *const type_names[] = {
	[SE_TASK_GET] = "get",
	[SE_TASK_NOTIFY_SET] = "notify_set",
	[SE_TASK_NOTIFY_ADD] = "notify_add",
	[SE_TASK_WAIT_EQ] = "wait_eq",
	[SE_TASK_WAIT_NEQ] = "wait_neq",
};

/* All five task types share one layout; the public names are distinct types over it. */
struct se_task {
	struct doca_task base; /* first: *_as_doca_task and the engine */
	uint64_t val;          /* value to set, increment, or wait for */
	uint64_t mask;         /* wait tasks */
	uint64_t *out;         /* get: receives the value; notify add: receives the previous value */
};

struct doca_sync_event_task_get {
	struct se_task t;
};
struct doca_sync_event_task_notify_set {
	struct se_task t;
};
struct doca_sync_event_task_notify_add {
	struct se_task t;
};
struct doca_sync_event_task_wait_eq {
	struct se_task t;
};
struct doca_sync_event_task_wait_neq {
	struct se_task t;
};

static uint32_t task_type(const struct doca_task *task)
{
	return (uint32_t)(task->pool - task->ctx->pools);
}

static struct doca_sync_event *task_event(const struct doca_task *task)
{
	return (struct doca_sync_event *)task->ctx;
}

/* A wait mask is 0 or 1, 2, 4 or 8 consecutive 0xFF bytes, every other byte 0x00. */
static bool mask_valid(uint64_t mask)
{
	int first = -1, last = -1, n = 0;

	for (int i = 0; i < 8; i++) {
		uint8_t b = (uint8_t)(mask >> (8 * i));

		if (b == 0xff) {
			if (first < 0)
				first = i;
			last = i;
			n++;
		} else if (b != 0) {
			return false;
		}
	}
	if (n == 0)
		return true;
	return last - first + 1 == n && (n == 1 || n == 2 || n == 4 || n == 8);
}

static doca_error_t mask_check(uint64_t mask, const char *type)
{
	if (mask_valid(mask))
		return DOCA_SUCCESS;
	SDK_LOG_ERR("Sync event %s task: mask 0x%016llx is invalid; use 0 or 1, 2, 4 or 8 consecutive 0xFF "
		    "bytes (e.g. UINT64_MAX, 0xFFFFFFFF)",
		    type, (unsigned long long)mask);
	return DOCA_ERROR_INVALID_VALUE;
}

/* ---- engine work ---- */

static doca_error_t run_get(struct softhw_work *w)
{
	struct se_task *t = (struct se_task *)w;

	*t->out = softhw_value_load(task_event(&t->base)->cell);
	return DOCA_SUCCESS;
}

static doca_error_t run_set(struct softhw_work *w)
{
	struct se_task *t = (struct se_task *)w;

	softhw_value_store(task_event(&t->base)->cell, t->val);
	return DOCA_SUCCESS;
}

static doca_error_t run_add(struct softhw_work *w)
{
	struct se_task *t = (struct se_task *)w;
	uint64_t prev = softhw_value_fetch_add(task_event(&t->base)->cell, t->val);

	if (t->out != NULL)
		*t->out = prev;
	return DOCA_SUCCESS;
}

static bool wait_ready(struct softhw_work *w)
{
	struct se_task *t = (struct se_task *)w;
	enum softhw_value_cmp cmp = task_type(&t->base) == SE_TASK_WAIT_EQ ? SOFTHW_VALUE_EQ : SOFTHW_VALUE_NEQ;

	return softhw_value_holds(softhw_value_poll(task_event(&t->base)->cell), cmp, t->val, t->mask);
}

/* ---- context ops ---- */

static doca_error_t se_check(struct doca_task *task)
{
	struct se_task *t = (struct se_task *)task;

	switch (task_type(task)) {
	case SE_TASK_GET:
		if (t->out == NULL) {
			SDK_LOG_ERR("Sync event get task has no return value pointer; set it with "
				    "doca_sync_event_task_get_set_ret_val_ptr()");
			return DOCA_ERROR_INVALID_VALUE;
		}
		break;
	case SE_TASK_WAIT_EQ:
	case SE_TASK_WAIT_NEQ:
		return mask_check(t->mask, type_names[task_type(task)]);
	default:
		break;
	}
	return DOCA_SUCCESS;
}

static doca_error_t se_prepare(struct doca_task *task)
{
	doca_error_t fault = se_check(task);

	if (fault != DOCA_SUCCESS) {
		task->work.op = SOFTHW_OP_FAIL; /* reported at completion, as hardware would */
		task->work.status = fault;
		return DOCA_SUCCESS;
	}
	task->work.op = SOFTHW_OP_CALL;
	switch (task_type(task)) {
	case SE_TASK_GET:
		task->work.call.run = run_get;
		break;
	case SE_TASK_NOTIFY_SET:
		task->work.call.run = run_set;
		break;
	case SE_TASK_NOTIFY_ADD:
		task->work.call.run = run_add;
		break;
	default:
		task->work.call.ready = wait_ready;
		break;
	}
	return DOCA_SUCCESS;
}

/* The value changed (any thread): wake the context's PE. */
static void se_ctx_notify(struct softhw_value_watcher *w)
{
	struct doca_sync_event *ev = (struct doca_sync_event *)((char *)w - offsetof(struct doca_sync_event, watcher));

	softdoca_pe_notify(ev->ctx.pe);
}

static doca_error_t se_ctx_start(struct doca_ctx *ctx)
{
	struct doca_sync_event *ev = (struct doca_sync_event *)ctx;
	doca_error_t err = softdoca_se_bind(ev);

	if (err != DOCA_SUCCESS)
		return err;
	ev->watcher.notify = se_ctx_notify;
	softhw_value_watch(ev->cell, &ev->watcher);
	__atomic_store_n(&ev->active, true, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}

static doca_error_t se_ctx_stop(struct doca_ctx *ctx)
{
	struct doca_sync_event *ev = (struct doca_sync_event *)ctx;

	__atomic_store_n(&ev->active, false, __ATOMIC_RELEASE);
	softhw_value_unwatch(ev->cell, &ev->watcher);
	return DOCA_SUCCESS;
}

/* The user arms the PE: an update from the PCIe peer's process must wake it too. */
static bool se_ctx_arm(struct doca_ctx *ctx)
{
	struct doca_sync_event *ev = (struct doca_sync_event *)ctx;

	return ctx->state == DOCA_CTX_STATE_RUNNING && softhw_value_arm(ev->cell);
}

static const struct softdoca_ctx_ops se_ops = {
	.name = "sync event",
	.start = se_ctx_start,
	.stop = se_ctx_stop,
	.arm = se_ctx_arm,
	.check = se_check,
	.prepare = se_prepare,
};

void softdoca_se_ctx_init(struct doca_sync_event *ev)
{
	softdoca_ctx_init(&ev->ctx, NULL, &se_ops);
}

struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event)
{
	if (event == NULL) {
		SDK_LOG_ERR("Failed to convert sync event to a context: event is NULL");
		return NULL;
	}
	if (event->started) {
		SDK_LOG_ERR("Failed to convert sync event to a context: it was started stand-alone with "
			    "doca_sync_event_start(); use one mode per event (stop it first, or create another)");
		return NULL;
	}
	event->is_ctx = true;
	return &event->ctx;
}

/* ---- task configuration and allocation ---- */

static doca_error_t conf_tasks(struct doca_sync_event *ev, uint32_t type, doca_task_completion_cb_t success_cb,
			       doca_task_completion_cb_t error_cb, uint32_t num_tasks)
{
	const char *name = type_names[type];
	doca_error_t err;

	if (ev == NULL || success_cb == NULL || error_cb == NULL) {
		SDK_LOG_ERR("Failed to configure sync event %s tasks: %s is NULL", name,
			    ev == NULL ? "event" : (success_cb == NULL ? "completion callback" : "error callback"));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ev->started) {
		SDK_LOG_ERR("Failed to configure sync event %s tasks: the event was started stand-alone; tasks "
			    "need the context (doca_sync_event_as_ctx) of an event that is not started",
			    name);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (ev->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to configure sync event %s tasks: context is not idle; call "
			    "doca_sync_event_task_%s_set_conf() before doca_ctx_start()",
			    name, name);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (num_tasks > SE_MAX_TASKS) {
		SDK_LOG_ERR("Failed to configure sync event %s tasks: %u tasks requested, at most %u", name, num_tasks,
			    SE_MAX_TASKS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_ctx_tasks_configured(&ev->ctx, type) && ev->ctx.pools[type].allocated) {
		SDK_LOG_ERR("Failed to configure sync event %s tasks: tasks of the previous configuration are "
			    "still allocated; free them with doca_task_free() first",
			    name);
		return DOCA_ERROR_IN_USE;
	}
	err = softdoca_ctx_conf_tasks(&ev->ctx, type, name, sizeof(struct se_task), success_cb, error_cb, num_tasks);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to configure sync event %s tasks: out of memory for %u tasks", name, num_tasks);
	return err;
}

static struct se_task *alloc_task(struct doca_sync_event *ev, uint32_t type, union doca_data user_data,
				  const void *task_out, doca_error_t *err)
{
	const char *name = type_names[type];
	struct se_task *t;

	*err = DOCA_ERROR_INVALID_VALUE;
	if (ev == NULL || task_out == NULL) {
		SDK_LOG_ERR("Failed to allocate sync event %s task: %s is NULL", name,
			    ev == NULL ? "event" : "task output pointer");
		return NULL;
	}
	if (!softdoca_ctx_tasks_configured(&ev->ctx, type)) {
		SDK_LOG_ERR("Failed to allocate sync event %s task: %s tasks are not configured; call "
			    "doca_sync_event_task_%s_set_conf() before doca_ctx_start()",
			    name, name, name);
		*err = DOCA_ERROR_BAD_STATE;
		return NULL;
	}
	t = (struct se_task *)softdoca_task_alloc(&ev->ctx, type, user_data);
	if (t == NULL && ev->ctx.pools[type].capacity == 0) {
		SDK_LOG_ERR("Failed to allocate sync event %s task: none configured (num_tasks 0); call "
			    "doca_sync_event_task_%s_set_conf() with num_tasks > 0 before doca_ctx_start()",
			    name, name);
		*err = DOCA_ERROR_NO_MEMORY;
		return NULL;
	}
	if (t == NULL) {
		SDK_LOG_DBG("Failed to allocate sync event %s task: all %u tasks are in use; free tasks with "
			    "doca_task_free() or configure more in doca_sync_event_task_%s_set_conf()",
			    name, ev->ctx.pools[type].capacity, name);
		*err = DOCA_ERROR_NO_MEMORY;
		return NULL;
	}
	t->val = 0;
	t->mask = 0;
	t->out = NULL;
	*err = DOCA_SUCCESS;
	return t;
}

/* ---- public entry points ---- */

/*
 * set_conf and as_doca_task are the same for all five task types but for the names: this
 * defines <prefix>_set_conf and <prefix>_as_doca_task of the task type <prefix>.
 */
#define SE_TASK_CONF_AND_AS_TASK(prefix, type) \
	doca_error_t prefix##_set_conf(struct doca_sync_event *event, prefix##_completion_cb_t completion_cb, \
				       prefix##_completion_cb_t error_cb, uint32_t num_tasks) \
	{ \
		return conf_tasks(event, type, (doca_task_completion_cb_t)completion_cb, \
				  (doca_task_completion_cb_t)error_cb, num_tasks); \
	} \
	struct doca_task *prefix##_as_doca_task(struct prefix *task) \
	{ \
		return task != NULL ? &task->t.base : NULL; \
	}

SE_TASK_CONF_AND_AS_TASK(doca_sync_event_task_get, SE_TASK_GET)
SE_TASK_CONF_AND_AS_TASK(doca_sync_event_task_notify_set, SE_TASK_NOTIFY_SET)
SE_TASK_CONF_AND_AS_TASK(doca_sync_event_task_notify_add, SE_TASK_NOTIFY_ADD)
SE_TASK_CONF_AND_AS_TASK(doca_sync_event_task_wait_eq, SE_TASK_WAIT_EQ)
SE_TASK_CONF_AND_AS_TASK(doca_sync_event_task_wait_neq, SE_TASK_WAIT_NEQ)

/* ---- get ---- */

doca_error_t doca_sync_event_task_get_alloc_init(struct doca_sync_event *event, uint64_t *ret_val_ptr,
						 union doca_data user_data, struct doca_sync_event_task_get **task)
{
	struct se_task *t;
	doca_error_t err;

	if (event != NULL && task != NULL && ret_val_ptr == NULL) {
		SDK_LOG_ERR("Failed to allocate sync event get task: ret_val_ptr is NULL; give where the value "
			    "is to be stored");
		return DOCA_ERROR_INVALID_VALUE;
	}
	t = alloc_task(event, SE_TASK_GET, user_data, task, &err);
	if (t == NULL)
		return err;
	t->out = ret_val_ptr;
	*task = (struct doca_sync_event_task_get *)t;
	return DOCA_SUCCESS;
}

void doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task, uint64_t *ret_val_ptr)
{
	if (task != NULL)
		task->t.out = ret_val_ptr;
}

uint64_t *doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task)
{
	return task != NULL ? task->t.out : NULL;
}

/* ---- notify set ---- */

doca_error_t doca_sync_event_task_notify_set_alloc_init(struct doca_sync_event *event, uint64_t set_val,
							union doca_data user_data,
							struct doca_sync_event_task_notify_set **task)
{
	doca_error_t err;
	struct se_task *t = alloc_task(event, SE_TASK_NOTIFY_SET, user_data, task, &err);

	if (t == NULL)
		return err;
	t->val = set_val;
	*task = (struct doca_sync_event_task_notify_set *)t;
	return DOCA_SUCCESS;
}

void doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task, uint64_t set_val)
{
	if (task != NULL)
		task->t.val = set_val;
}

uint64_t doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task)
{
	return task != NULL ? task->t.val : 0;
}

/* ---- notify add ---- */

doca_error_t doca_sync_event_task_notify_add_alloc_init(struct doca_sync_event *event, uint64_t inc_val,
							uint64_t *fetched_val_ptr, union doca_data user_data,
							struct doca_sync_event_task_notify_add **task)
{
	doca_error_t err;
	struct se_task *t = alloc_task(event, SE_TASK_NOTIFY_ADD, user_data, task, &err);

	if (t == NULL)
		return err;
	t->val = inc_val;
	t->out = fetched_val_ptr; /* may be NULL: the previous value is then dropped */
	*task = (struct doca_sync_event_task_notify_add *)t;
	return DOCA_SUCCESS;
}

void doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task, uint64_t inc_val)
{
	if (task != NULL)
		task->t.val = inc_val;
}

uint64_t doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task)
{
	return task != NULL ? task->t.val : 0;
}

void doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
							 uint64_t *fetched_val_ptr)
{
	if (task != NULL)
		task->t.out = fetched_val_ptr;
}

uint64_t *doca_sync_event_task_notify_add_get_fetched_val_ptr(const struct doca_sync_event_task_notify_add *task)
{
	return task != NULL ? task->t.out : NULL;
}

/* ---- wait eq / wait neq ---- */

static struct se_task *alloc_wait(struct doca_sync_event *event, uint32_t type, uint64_t wait_val, uint64_t mask,
				  union doca_data user_data, const void *task_out, doca_error_t *err)
{
	struct se_task *t;

	if (event != NULL && task_out != NULL && mask_check(mask, type_names[type]) != DOCA_SUCCESS) {
		*err = DOCA_ERROR_INVALID_VALUE;
		return NULL;
	}
	t = alloc_task(event, type, user_data, task_out, err);
	if (t != NULL) {
		t->val = wait_val;
		t->mask = mask;
	}
	return t;
}

/*
 * wait_eq and wait_neq are one API twice over (wait_ready picks the comparison by type):
 * this defines <prefix>_alloc_init, _set_wait_val, _get_wait_val, _set_mask and _get_mask.
 */
#define SE_WAIT_TASK(prefix, type) \
	doca_error_t prefix##_alloc_init(struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, \
					 union doca_data user_data, struct prefix **task) \
	{ \
		doca_error_t err; \
		struct se_task *t = alloc_wait(event, type, wait_val, mask, user_data, task, &err); \
 \
		if (t != NULL) \
			*task = (struct prefix *)t; \
		return err; \
	} \
	void prefix##_set_wait_val(struct prefix *task, uint64_t wait_val) \
	{ \
		if (task != NULL) \
			task->t.val = wait_val; \
	} \
	uint64_t prefix##_get_wait_val(const struct prefix *task) \
	{ \
		return task != NULL ? task->t.val : 0; \
	} \
	void prefix##_set_mask(struct prefix *task, uint64_t mask) \
	{ \
		if (task != NULL) \
			task->t.mask = mask; /* checked at submission */ \
	} \
	uint64_t prefix##_get_mask(const struct prefix *task) \
	{ \
		return task != NULL ? task->t.mask : 0; \
	}

SE_WAIT_TASK(doca_sync_event_task_wait_eq, SE_TASK_WAIT_EQ)
SE_WAIT_TASK(doca_sync_event_task_wait_neq, SE_TASK_WAIT_NEQ)
