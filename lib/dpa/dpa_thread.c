/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPA threads and notification completions. A started and run thread sleeps until its
 * notification completion is notified (doca_dpa_dev_thread_notify); then its function runs,
 * from the start, as a one-rank job on an EU (softhw/dpa/dpa.h), until it returns, calls
 * doca_dpa_dev_thread_reschedule() (the next notification runs it again) or
 * doca_dpa_dev_thread_finish() (never again). Those two never return: they jump back to the
 * EU's entry of the activation. Notifications that arrive while it runs coalesce into one
 * more activation. A thread with an EU affinity is a pinned job: only that EU's host thread
 * runs its activations.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA_THREAD);

#define HANDLE_NOTIFY_COMP SOFTDOCA_DPA_HANDLE_NOTIFY_COMP

enum thread_state {
	THREAD_CREATED,
	THREAD_STARTED,  /* start: its function is known */
	THREAD_RUNNABLE, /* run: notifications activate it */
	THREAD_FINISHED, /* doca_dpa_dev_thread_finish() was called */
};

struct doca_dpa_thread {
	struct softhw_dpa_job job;           /* first: one rank per activation */
	struct doca_dpa *dpa;
	doca_dpa_func_t *func;
	uint64_t arg;
	doca_dpa_dev_uintptr_t local_storage;
	const struct doca_dpa_eu_affinity *affinity;
	bool pinned;                         /* the affinity's EU when it was set: the EU it runs on */
	unsigned int eu;
	const struct softdoca_dpa_entry *entry;
	unsigned char args[64];
	uint32_t id;
	enum thread_state state;             /* atomic once started */
	uint32_t active;                     /* atomic: an activation is queued or running */
	uint32_t pending;                    /* atomic: notified while active */
	uint32_t stopping;                   /* atomic: thread_stop waits for the activation to end */
	uint32_t stopped;                    /* flag (softhw flag_raise) thread_stop waits on */
	bool abandoned;                      /* stop gave up on an activation spinning in device code */
	const struct softhw_dpa_ops *hw_ops; /* of its activations (thread_done may outlive dpa) */
	struct doca_dpa_thread *abandoned_next;
	/* thread group (dpa_thread_group.c): rank and size the device sees once the group started */
	struct doca_dpa_tg *group;
	unsigned int group_rank;
};

static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_dpa_thread *abandoned_threads;

/* How long doca_dpa_thread_stop waits for an activation in no DPA call to return. */
#define THREAD_STOP_GRACE_NS 1000000000LL

struct doca_dpa_notification_completion {
	struct doca_dpa *dpa;
	struct doca_dpa_thread *thread;
	bool started;
	uint64_t handle;
};

/* ---- activations ---- */

static void activate(struct doca_dpa_thread *t);

static void thread_run_rank(struct softhw_dpa_job *job, unsigned int rank)
{
	struct doca_dpa_thread *t = (struct doca_dpa_thread *)job;
	struct softdoca_dpa_current cur = {.dpa = t->dpa, .rank = 0, .num_threads = 1, .thread = t};

	if (t->group != NULL && softdoca_dpa_thread_group_started(t->group)) {
		cur.rank = t->group_rank;
		cur.num_threads = softdoca_dpa_thread_group_size(t->group);
	}
	jmp_buf exit_point;

	(void)rank;
	cur.exit = &exit_point;
	cur.stop = t->dpa->base.dev->dpa->stop_flag(t->dpa->base.hw);
	softdoca_dpa_set_current(&cur);
	if (setjmp(exit_point) == 0)
		t->entry->call(t->args);
	softdoca_dpa_set_current(NULL);
}

static void thread_done(struct softhw_dpa_job *job, doca_error_t status)
{
	struct doca_dpa_thread *t = (struct doca_dpa_thread *)job;

	__atomic_store_n(&t->active, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->stopping, __ATOMIC_SEQ_CST)) {
		/* not through t->dpa: an abandoned activation may end after its context is gone (the
		 * soft DPA it ran on stays allocated then) */
		t->hw_ops->flag_raise(t->job.dpa, &t->stopped);
		return;
	}
	if (status == DOCA_SUCCESS && __atomic_exchange_n(&t->pending, 0, __ATOMIC_SEQ_CST))
		activate(t);
}

/* Queues one activation unless one is queued or running already (then it is remembered). */
static void activate(struct doca_dpa_thread *t)
{
	uint32_t idle = 0;

	__atomic_store_n(&t->pending, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != THREAD_RUNNABLE ||
	    __atomic_load_n(&t->stopping, __ATOMIC_SEQ_CST))
		return;
	if (!__atomic_compare_exchange_n(&t->active, &idle, 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	__atomic_store_n(&t->pending, 0, __ATOMIC_SEQ_CST);
	t->job.run = thread_run_rank;
	t->job.done = thread_done;
	t->job.name = t->entry != NULL ? t->entry->name : NULL;
	t->job.num_ranks = 1;
	t->job.wait_value = NULL;
	t->job.comp_value = NULL;
	t->job.pinned = t->pinned;
	t->job.eu = t->eu;
	t->hw_ops = t->dpa->base.dev->dpa;
	t->hw_ops->submit(t->dpa->base.hw, &t->job);
}

void softdoca_dpa_thread_activate(struct doca_dpa_thread *thread)
{
	activate(thread);
}

doca_error_t softdoca_dpa_thread_join_group(struct doca_dpa_thread *thread, struct doca_dpa_tg *group,
					    unsigned int rank)
{
	if (thread->state != THREAD_CREATED)
		return DOCA_ERROR_BAD_STATE;
	thread->group = group;
	thread->group_rank = rank;
	return DOCA_SUCCESS;
}

void softdoca_dpa_thread_leave_group(struct doca_dpa_thread *thread, const struct doca_dpa_tg *group)
{
	if (thread->group == group)
		thread->group = NULL;
}

struct doca_dpa *softdoca_dpa_thread_dpa(const struct doca_dpa_thread *thread)
{
	return thread->dpa;
}

bool softdoca_dpa_thread_started(const struct doca_dpa_thread *thread)
{
	return __atomic_load_n(&thread->state, __ATOMIC_ACQUIRE) != THREAD_CREATED;
}

uint64_t softdoca_dpa_thread_local_storage(const struct doca_dpa_thread *thread)
{
	return thread->local_storage;
}

void softdoca_dpa_thread_end(bool finish)
{
	const struct softdoca_dpa_current *cur = softdoca_dpa_get_current();

	if (cur == NULL || cur->thread == NULL) {
		SDK_LOG_ERR("DPA device code called %s outside a DPA thread (a kernel launch or an RPC); only "
			    "doca_dpa_thread functions may; the DPA context is now in error",
			    finish ? "doca_dpa_dev_thread_finish()" : "doca_dpa_dev_thread_reschedule()");
		if (cur != NULL)
			softdoca_dpa_set_fatal(cur->dpa, DOCA_ERROR_BAD_STATE);
		return;
	}
	if (finish)
		__atomic_store_n(&cur->thread->state, THREAD_FINISHED, __ATOMIC_RELEASE);
	longjmp(*(jmp_buf *)cur->exit, 1);
}

/*
 * A DPA thread that polls (a device loop around doca_dpa_dev_get_completion) would keep its
 * EU for ever: when the thread is being stopped, a poll that found nothing ends the
 * activation here, as a DPA that takes the EU back would.
 */
void softdoca_dpa_thread_poll_point(void)
{
	const struct softdoca_dpa_current *cur = softdoca_dpa_get_current();

	if (cur != NULL && cur->thread != NULL && __atomic_load_n(&cur->thread->stopping, __ATOMIC_SEQ_CST))
		longjmp(*(jmp_buf *)cur->exit, 1);
}

void softdoca_dpa_thread_notify(struct doca_dpa *dpa, uint64_t handle)
{
	struct doca_dpa_notification_completion *nc =
		dpa->base.dev->dpa->handle_lookup(dpa->base.hw, HANDLE_NOTIFY_COMP, handle);

	if (nc == NULL) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to doca_dpa_dev_thread_notify(): not a started notification "
			    "completion of this DPA context (doca_dpa_notification_completion_get_dpa_handle()); the "
			    "DPA context is now in error",
			    (unsigned long long)handle);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
		return;
	}
	activate(nc->thread);
}

/* ---- threads ---- */

doca_error_t doca_dpa_thread_create(struct doca_dpa *dpa, struct doca_dpa_thread **dpa_thread)
{
	struct doca_dpa_thread *t;

	if (dpa == NULL || dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to create DPA thread: %s is NULL", dpa == NULL ? "dpa" : "dpa_thread");
		return DOCA_ERROR_INVALID_VALUE;
	}
	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		SDK_LOG_ERR("Failed to create DPA thread: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	t->dpa = dpa;
	t->id = dpa->next_thread_id++;
	dpa->num_threads++;
	*dpa_thread = t;
	return DOCA_SUCCESS;
}

/* Refuses a change once the thread is started. */
static doca_error_t check_configurable(const struct doca_dpa_thread *t, const char *what)
{
	if (t == NULL) {
		SDK_LOG_ERR("Failed to %s: dpa_thread is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->state != THREAD_CREATED) {
		SDK_LOG_ERR("Failed to %s: the DPA thread is started; configure it before doca_dpa_thread_start()",
			    what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_set_func_arg(struct doca_dpa_thread *dpa_thread, doca_dpa_func_t *func, uint64_t arg)
{
	doca_error_t err = check_configurable(dpa_thread, "set DPA thread function");

	if (err != DOCA_SUCCESS)
		return err;
	if (func == NULL) {
		SDK_LOG_ERR("Failed to set DPA thread function: func is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa_thread->func = func;
	dpa_thread->arg = arg;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_get_func_arg(struct doca_dpa_thread *dpa_thread, doca_dpa_func_t **func, uint64_t *arg)
{
	if (dpa_thread == NULL || func == NULL || arg == NULL) {
		SDK_LOG_ERR("Failed to get DPA thread function: %s is NULL",
			    dpa_thread == NULL ? "dpa_thread" : func == NULL ? "func" : "arg");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*func = dpa_thread->func;
	*arg = dpa_thread->arg;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_set_local_storage(struct doca_dpa_thread *dpa_thread, doca_dpa_dev_uintptr_t dev_ptr)
{
	doca_error_t err = check_configurable(dpa_thread, "set DPA thread local storage");

	if (err == DOCA_SUCCESS)
		dpa_thread->local_storage = dev_ptr;
	return err;
}

doca_error_t doca_dpa_thread_get_local_storage(struct doca_dpa_thread *dpa_thread, doca_dpa_dev_uintptr_t *dev_ptr)
{
	if (dpa_thread == NULL || dev_ptr == NULL) {
		SDK_LOG_ERR("Failed to get DPA thread local storage: %s is NULL",
			    dpa_thread == NULL ? "dpa_thread" : "dev_ptr");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dev_ptr = dpa_thread->local_storage;
	return DOCA_SUCCESS;
}

/* The context that owns the DPA: an extended context's parent, else itself. */
static const struct doca_dpa *root_of(const struct doca_dpa *dpa)
{
	return dpa->parent != NULL ? dpa->parent : dpa;
}

/*
 * The EU is taken when the affinity is set: NVIDIA's dpa_nvqual sets one affinity object to
 * each EU in turn and hands it to a thread each time. An affinity with no EU set (or cleared)
 * leaves the thread free to run on any EU.
 */
doca_error_t doca_dpa_thread_set_affinity(struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity *affinity)
{
	doca_error_t err = check_configurable(dpa_thread, "set DPA thread affinity");

	if (err != DOCA_SUCCESS)
		return err;
	if (affinity == NULL) {
		SDK_LOG_ERR("Failed to set DPA thread affinity: affinity is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* an extended context and its parent are one DPA: their affinities are interchangeable */
	if (root_of(softdoca_dpa_eu_affinity_dpa(affinity)) != root_of(dpa_thread->dpa)) {
		SDK_LOG_ERR("Failed to set DPA thread affinity: the affinity belongs to another DPA context (create it "
			    "with doca_dpa_eu_affinity_create() on the thread's context)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa_thread->affinity = affinity;
	dpa_thread->pinned = softdoca_dpa_eu_affinity_eu(affinity, &dpa_thread->eu);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_get_affinity(struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity **affinity)
{
	if (dpa_thread == NULL || affinity == NULL) {
		SDK_LOG_ERR("Failed to get DPA thread affinity: %s is NULL",
			    dpa_thread == NULL ? "dpa_thread" : "affinity");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*affinity = dpa_thread->affinity;
	return DOCA_SUCCESS;
}

/* Packs the thread's one uint64_t argument with the entry's own reader (dpa_abi.h). */
static uint32_t pack_arg(const struct softdoca_dpa_entry *entry, unsigned char *buf, uint32_t room, ...)
{
	uint32_t need;
	va_list ap;

	va_start(ap, room);
	need = entry->pack(&ap, buf, room);
	va_end(ap);
	return need;
}

doca_error_t doca_dpa_thread_start(struct doca_dpa_thread *dpa_thread)
{
	struct doca_dpa *dpa;
	const char *name = NULL;

	if (dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to start DPA thread: dpa_thread is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa = dpa_thread->dpa;
	if (dpa_thread->state != THREAD_CREATED || dpa_thread->abandoned) {
		SDK_LOG_ERR("Failed to start DPA thread: %s",
			    dpa_thread->abandoned ? "it was abandoned while spinning in device code; destroy it"
						  : "it is already started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to start DPA thread: its DPA context is not started; call doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (dpa_thread->func == NULL) {
		SDK_LOG_ERR("Failed to start DPA thread: no function; call doca_dpa_thread_set_func_arg() first");
		return DOCA_ERROR_BAD_STATE;
	}
	for (uint32_t i = 0; i < dpa->app->num_funcs && name == NULL; i++)
		if (dpa->app->funcs[i].host_stub == dpa_thread->func)
			name = dpa->app->funcs[i].name;
	for (uint32_t i = 0; name != NULL && i < dpa->img->num_entries; i++)
		if (strcmp(dpa->img->entries[i].name, name) == 0)
			dpa_thread->entry = &dpa->img->entries[i];
	if (dpa_thread->entry == NULL || dpa_thread->entry->kind != SOFTDOCA_DPA_KERNEL) {
		SDK_LOG_ERR("Failed to start DPA thread: its function is not a __dpa_global__ function of application "
			    "'%s' (a DPA thread runs __dpa_global__ void f(uint64_t arg))",
			    dpa->app->name);
		dpa_thread->entry = NULL;
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (pack_arg(dpa_thread->entry, dpa_thread->args, sizeof(dpa_thread->args), dpa_thread->arg) >
	    sizeof(dpa_thread->args)) {
		SDK_LOG_ERR("Failed to start DPA thread: '%s' takes more than one uint64_t argument", name);
		dpa_thread->entry = NULL;
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa_thread->stopping = 0;
	dpa_thread->stopped = 0;
	__atomic_store_n(&dpa_thread->state, THREAD_STARTED, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_run(struct doca_dpa_thread *dpa_thread)
{
	if (dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to run DPA thread: dpa_thread is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa_thread->state != THREAD_STARTED) {
		SDK_LOG_ERR("Failed to run DPA thread: it is %s; doca_dpa_thread_run() follows doca_dpa_thread_start()",
			    dpa_thread->state == THREAD_CREATED ? "not started" : "already running");
		return DOCA_ERROR_BAD_STATE;
	}
	__atomic_store_n(&dpa_thread->state, THREAD_RUNNABLE, __ATOMIC_RELEASE);
	/* a notification that came before run is not lost */
	if (__atomic_load_n(&dpa_thread->pending, __ATOMIC_SEQ_CST))
		activate(dpa_thread);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_stop(struct doca_dpa_thread *dpa_thread)
{
	uint32_t idle = 0;

	if (dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to stop DPA thread: dpa_thread is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa_thread->state == THREAD_CREATED) {
		SDK_LOG_ERR("Failed to stop DPA thread: it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (dpa_thread->abandoned) {
		SDK_LOG_ERR("Failed to stop DPA thread: it was abandoned (logged earlier)");
		return DOCA_ERROR_BAD_STATE;
	}
	/* no new activation; the one queued never runs, the one running ends at its next DPA call */
	__atomic_store_n(&dpa_thread->stopping, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_compare_exchange_n(&dpa_thread->active, &idle, 2, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		const struct softhw_dpa_ops *hw = dpa_thread->dpa->base.dev->dpa;

		hw->job_stop(dpa_thread->dpa->base.hw, &dpa_thread->job);
		if (!hw->flag_wait_for(dpa_thread->dpa->base.hw, &dpa_thread->stopped, THREAD_STOP_GRACE_NS)) {
			/* device code in no DPA call: the EU may come back into this thread object one day */
			SDK_LOG_ERR("DPA thread %u ('%s') still runs device code that makes no DPA call (it cannot be "
				    "interrupted): the thread is abandoned; its object stays allocated and destroying it "
				    "only forgets it",
				    dpa_thread->id, dpa_thread->job.name != NULL ? dpa_thread->job.name : "?");
			dpa_thread->abandoned = true;
			__atomic_store_n(&dpa_thread->state, THREAD_CREATED, __ATOMIC_RELEASE);
			return DOCA_SUCCESS;
		}
	}
	__atomic_store_n(&dpa_thread->active, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&dpa_thread->pending, 0, __ATOMIC_SEQ_CST);
	dpa_thread->entry = NULL;
	__atomic_store_n(&dpa_thread->state, THREAD_CREATED, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_destroy(struct doca_dpa_thread *dpa_thread)
{
	if (dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA thread: dpa_thread is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* destroying a started thread stops it first (NVIDIA's DPA samples destroy without a stop) */
	if (dpa_thread->state != THREAD_CREATED)
		doca_dpa_thread_stop(dpa_thread);
	if (dpa_thread->group != NULL)
		softdoca_dpa_thread_group_forget(dpa_thread->group, dpa_thread);
	dpa_thread->dpa->num_threads--;
	if (!dpa_thread->abandoned) {
		free(dpa_thread);
	} else {
		/* kept (and listed) for good: its activation may still come back into it */
		pthread_mutex_lock(&abandoned_lock);
		dpa_thread->abandoned_next = abandoned_threads;
		abandoned_threads = dpa_thread;
		pthread_mutex_unlock(&abandoned_lock);
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_get_id(struct doca_dpa_thread *dpa_thread, uint32_t *dpa_thread_id)
{
	if (dpa_thread == NULL || dpa_thread_id == NULL) {
		SDK_LOG_ERR("Failed to get DPA thread id: %s is NULL",
			    dpa_thread == NULL ? "dpa_thread" : "dpa_thread_id");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa_thread->state == THREAD_CREATED) {
		SDK_LOG_ERR("Failed to get DPA thread id: it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	*dpa_thread_id = dpa_thread->id;
	return DOCA_SUCCESS;
}

/* ---- notification completions ---- */

doca_error_t doca_dpa_notification_completion_create(struct doca_dpa *dpa, struct doca_dpa_thread *dpa_thread,
						     struct doca_dpa_notification_completion **notify_comp)
{
	struct doca_dpa_notification_completion *nc;

	if (dpa == NULL || dpa_thread == NULL || notify_comp == NULL) {
		SDK_LOG_ERR("Failed to create DPA notification completion: %s is NULL",
			    dpa == NULL ? "dpa" : dpa_thread == NULL ? "dpa_thread" : "notify_comp");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa_thread->dpa != dpa) {
		SDK_LOG_ERR("Failed to create DPA notification completion: the thread belongs to another DPA context");
		return DOCA_ERROR_INVALID_VALUE;
	}
	nc = calloc(1, sizeof(*nc));
	if (nc == NULL) {
		SDK_LOG_ERR("Failed to create DPA notification completion: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	nc->dpa = dpa;
	nc->thread = dpa_thread;
	dpa->num_notify_comps++;
	*notify_comp = nc;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_notification_completion_get_thread(struct doca_dpa_notification_completion *notify_comp,
							 struct doca_dpa_thread **dpa_thread)
{
	if (notify_comp == NULL || dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to get thread of DPA notification completion: %s is NULL",
			    notify_comp == NULL ? "notify_comp" : "dpa_thread");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dpa_thread = notify_comp->thread;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_notification_completion_start(struct doca_dpa_notification_completion *notify_comp)
{
	struct doca_dpa *dpa;
	doca_error_t err;

	if (notify_comp == NULL) {
		SDK_LOG_ERR("Failed to start DPA notification completion: notify_comp is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa = notify_comp->dpa;
	if (notify_comp->started) {
		SDK_LOG_ERR("Failed to start DPA notification completion: it is already started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (notify_comp->thread->state == THREAD_CREATED) {
		SDK_LOG_ERR("Failed to start DPA notification completion: its thread is not started; call "
			    "doca_dpa_thread_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	err = dpa->base.dev->dpa->handle_add(dpa->base.hw, HANDLE_NOTIFY_COMP, notify_comp, &notify_comp->handle);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start DPA notification completion: %s", doca_error_get_descr(err));
		return err;
	}
	notify_comp->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_notification_completion_stop(struct doca_dpa_notification_completion *notify_comp)
{
	if (notify_comp == NULL) {
		SDK_LOG_ERR("Failed to stop DPA notification completion: notify_comp is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!notify_comp->started) {
		SDK_LOG_ERR("Failed to stop DPA notification completion: it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (notify_comp->dpa->base.hw != NULL)
		notify_comp->dpa->base.dev->dpa->handle_remove(notify_comp->dpa->base.hw, notify_comp->handle);
	notify_comp->started = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_notification_completion_destroy(struct doca_dpa_notification_completion *notify_comp)
{
	if (notify_comp == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA notification completion: notify_comp is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* destroying a started one stops it first, as for threads */
	if (notify_comp->started)
		doca_dpa_notification_completion_stop(notify_comp);
	notify_comp->dpa->num_notify_comps--;
	free(notify_comp);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_notification_completion_get_dpa_handle(struct doca_dpa_notification_completion *notify_comp,
							     doca_dpa_dev_notification_completion_t *handle)
{
	if (notify_comp == NULL || handle == NULL) {
		SDK_LOG_ERR("Failed to get DPA handle of notification completion: %s is NULL",
			    notify_comp == NULL ? "notify_comp" : "handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!notify_comp->started) {
		SDK_LOG_ERR("Failed to get DPA handle of notification completion: it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	*handle = notify_comp->handle;
	return DOCA_SUCCESS;
}
