/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Kernel launches and RPCs: the host stub address names an entry of the application's image;
 * the image packs the varargs with the entry's own parameter types (dpa_abi.h); the soft DPA
 * runs the ranks on its EUs (softhw/dpa/dpa.h).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "dpa_priv.h"
#include "doca_sync_event.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA_LAUNCH);

/* Arguments of most entries fit here; larger ones get a buffer of their own. */
#define INLINE_ARGS 192

struct launch {
	struct softhw_dpa_job job;  /* first */
	struct doca_dpa *dpa;
	const struct softdoca_dpa_entry *entry;
	unsigned char *args;
	uint64_t ret;               /* an RPC's return value */
	uint32_t finished;          /* an RPC's caller waits for it (flag_raise) */
	bool owned;                 /* freed by done (a kernel launch, an abandoned RPC); else the caller's */
	bool done;                  /* an RPC ended (rpc_lock) */
	uint32_t ranks_run;         /* ranks that entered device code (atomic): a stop says which */
	doca_error_t status;        /* how it ended */
	unsigned char inline_args[INLINE_ARGS];
};

static const char *kind_name(uint32_t kind)
{
	return kind == SOFTDOCA_DPA_RPC ? "RPC (__dpa_rpc__)" : "kernel (__dpa_global__)";
}

/* The image's entry behind a host stub address; logs what is wrong otherwise. */
static const struct softdoca_dpa_entry *find_entry(struct doca_dpa *dpa, doca_dpa_func_t *func, uint32_t kind,
						   const char *what)
{
	const struct softdoca_dpa_app *app = dpa->app;
	const char *name = NULL;

	for (uint32_t i = 0; i < app->num_funcs; i++) {
		if (app->funcs[i].host_stub == func) {
			name = app->funcs[i].name;
			break;
		}
	}
	if (name == NULL) {
		SDK_LOG_ERR("Failed to %s: function %p is not a __dpa_global__ or __dpa_rpc__ function of application "
			    "'%s'; pass one the device code of this application defines (declared on the host as "
			    "extern doca_dpa_func_t <name>;)",
			    what, (void *)func, app->name);
		return NULL;
	}
	for (uint32_t i = 0; i < dpa->img->num_entries; i++) {
		const struct softdoca_dpa_entry *e = &dpa->img->entries[i];

		if (strcmp(e->name, name) != 0)
			continue;
		if (e->kind != kind) {
			SDK_LOG_ERR("Failed to %s: '%s' is a %s, not a %s", what, name, kind_name(e->kind),
				    kind_name(kind));
			return NULL;
		}
		return e;
	}
	SDK_LOG_ERR("Failed to %s: '%s' is missing from the device image of application '%s'; rebuild it with dpacc",
		    what, name, app->name);
	return NULL;
}

/* Packs the varargs into l->args with the entry's parameter types. */
static doca_error_t pack_args(struct launch *l, va_list ap, const char *what)
{
	uint32_t need;
	va_list copy;

	va_copy(copy, ap);
	need = l->entry->pack(&copy, l->inline_args, INLINE_ARGS);
	va_end(copy);
	l->args = l->inline_args;
	if (need <= INLINE_ARGS)
		return DOCA_SUCCESS;
	l->args = malloc(need);
	if (l->args == NULL) {
		SDK_LOG_ERR("Failed to %s: out of memory for %u bytes of arguments", what, need);
		return DOCA_ERROR_NO_MEMORY;
	}
	va_copy(copy, ap);
	l->entry->pack(&copy, l->args, need);
	va_end(copy);
	return DOCA_SUCCESS;
}

static void args_free(struct launch *l)
{
	if (l->args != l->inline_args)
		free(l->args);
}

/*
 * An RPC whose caller gave up (the watchdog stopped it while it ran device code that makes no
 * DPA call) is handed over to the EU: rpc_lock orders the caller's hand-over against done.
 */
static pthread_mutex_t rpc_lock = PTHREAD_MUTEX_INITIALIZER;

static void launch_run(struct softhw_dpa_job *job, unsigned int rank)
{
	struct launch *l = (struct launch *)job;
	struct softdoca_dpa_current cur = {.dpa = l->dpa, .rank = rank, .num_threads = job->num_ranks};
	jmp_buf exit_point;

	cur.exit = &exit_point;
	cur.stop = l->dpa->base.dev->dpa->stop_flag(l->dpa->base.hw);
	__atomic_fetch_add(&l->ranks_run, 1, __ATOMIC_RELAXED);
	softdoca_dpa_set_current(&cur);
	/* a rank the watchdog or stop ends comes back here from its next DPA call */
	if (setjmp(exit_point) == 0)
		l->ret = l->entry->call(l->args);
	softdoca_dpa_set_current(NULL);
}

static void launch_free(struct launch *l)
{
	args_free(l);
	free(l);
}

static void launch_done(struct softhw_dpa_job *job, doca_error_t status)
{
	struct launch *l = (struct launch *)job;
	bool owned;

	if (status == DOCA_ERROR_AGAIN) {
		uint32_t ran = __atomic_load_n(&l->ranks_run, __ATOMIC_RELAXED);

		if (ran == 0)
			SDK_LOG_WARN("DPA %s '%s' did not run: its DPA context stopped first",
				     kind_name(l->entry->kind), l->entry->name);
		else
			SDK_LOG_WARN("DPA %s '%s' was stopped while it ran (%u of %u ranks had started): its DPA "
				     "context stopped; a rank ends at its next DPA call",
				     kind_name(l->entry->kind), l->entry->name, ran, job->num_ranks);
	}
	pthread_mutex_lock(&rpc_lock);
	owned = l->owned;
	l->done = true;
	l->status = status;
	if (!owned) {
		if (status != DOCA_SUCCESS)
			l->ret = 0;
		/* under rpc_lock: the caller frees l only after it saw done under the lock */
		l->dpa->base.dev->dpa->flag_raise(l->dpa->base.hw, &l->finished);
	}
	pthread_mutex_unlock(&rpc_lock);
	if (owned)
		launch_free(l);
}

/* The watchdog stopped an RPC: its caller stops waiting (the context is in error). */
static void rpc_overrun(struct softhw_dpa_job *job)
{
	struct launch *l = (struct launch *)job;

	l->dpa->base.dev->dpa->flag_raise(l->dpa->base.hw, &l->finished);
}

/* The soft DPA's value behind a sync event given to a launch; NULL (logged) if it has none. */
static doca_error_t event_value(struct doca_dpa *dpa, struct doca_sync_event *event, const char *role,
				struct softhw_value **value)
{
	doca_dpa_dev_sync_event_t handle;
	doca_error_t err;

	*value = NULL;
	if (event == NULL)
		return DOCA_SUCCESS;
	err = doca_sync_event_get_dpa_handle(event, dpa, &handle);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to launch DPA kernel: the %s event cannot be used by the DPA (see the line above)",
			    role);
		return err;
	}
	*value = dpa->base.dev->dpa->value_lookup(dpa->base.hw, handle);
	return *value != NULL ? DOCA_SUCCESS : DOCA_ERROR_DRIVER;
}

static doca_error_t launch(struct doca_dpa *dpa, struct doca_sync_event *wait_event, uint64_t wait_threshold,
			   struct doca_sync_event *comp_event, uint64_t comp_count, bool add, unsigned int num_threads,
			   doca_dpa_func_t *func, va_list ap)
{
	const char *what = "launch DPA kernel";
	struct softhw_value *wait_value, *comp_value;
	const struct softdoca_dpa_entry *entry;
	struct softhw_dpa_caps caps;
	struct launch *l;
	doca_error_t err;

	if (dpa == NULL || func == NULL) {
		SDK_LOG_ERR("Failed to launch DPA kernel: %s is NULL", dpa == NULL ? "dpa" : "func");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to launch DPA kernel: the DPA context is not started; call doca_dpa_set_app() and "
			    "doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (doca_dpa_peek_at_last_error(dpa) != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to launch DPA kernel: the DPA context had a fatal device-side error (logged "
			    "earlier); destroy it");
		return DOCA_ERROR_BAD_STATE;
	}
	dpa->base.dev->dpa->caps(dpa->base.dev->devinfo->fn, &caps);
	if (num_threads == 0 || num_threads > caps.max_threads_per_kernel) {
		SDK_LOG_ERR("Failed to launch DPA kernel: %u threads requested, the DPA runs 1 to %u per kernel "
			    "(doca_dpa_get_max_threads_per_kernel())",
			    num_threads, caps.max_threads_per_kernel);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (wait_event != NULL && wait_threshold > 254) {
		SDK_LOG_ERR("Failed to launch DPA kernel: wait threshold %llu is out of range; the DPA waits for "
			    "values 0 to 254",
			    (unsigned long long)wait_threshold);
		return DOCA_ERROR_INVALID_VALUE;
	}
	entry = find_entry(dpa, func, SOFTDOCA_DPA_KERNEL, what);
	if (entry == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	err = event_value(dpa, wait_event, "wait", &wait_value);
	if (err == DOCA_SUCCESS)
		err = event_value(dpa, comp_event, "completion", &comp_value);
	if (err != DOCA_SUCCESS)
		return err;
	l = calloc(1, sizeof(*l));
	if (l == NULL) {
		SDK_LOG_ERR("Failed to launch DPA kernel: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	l->dpa = dpa;
	l->entry = entry;
	l->owned = true;
	err = pack_args(l, ap, what);
	if (err != DOCA_SUCCESS) {
		free(l);
		return err;
	}
	l->job.run = launch_run;
	l->job.done = launch_done;
	l->job.name = entry->name;
	l->job.num_ranks = num_threads;
	l->job.wait_value = wait_value;
	l->job.wait_threshold = wait_threshold;
	l->job.comp_value = comp_value;
	l->job.comp_count = comp_count;
	l->job.comp_add = add;
	dpa->base.dev->dpa->submit(dpa->base.hw, &l->job);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_kernel_launch_update_set(struct doca_dpa *dpa, struct doca_sync_event *wait_event,
					       uint64_t wait_threshold, struct doca_sync_event *comp_event,
					       uint64_t comp_count, unsigned int num_threads, doca_dpa_func_t *func,
					       ...)
{
	doca_error_t err;
	va_list ap;

	va_start(ap, func);
	err = launch(dpa, wait_event, wait_threshold, comp_event, comp_count, false, num_threads, func, ap);
	va_end(ap);
	return err;
}

doca_error_t doca_dpa_kernel_launch_update_add(struct doca_dpa *dpa, struct doca_sync_event *wait_event,
					       uint64_t wait_threshold, struct doca_sync_event *comp_event,
					       uint64_t comp_count, unsigned int num_threads, doca_dpa_func_t *func,
					       ...)
{
	doca_error_t err;
	va_list ap;

	va_start(ap, func);
	err = launch(dpa, wait_event, wait_threshold, comp_event, comp_count, true, num_threads, func, ap);
	va_end(ap);
	return err;
}

doca_error_t doca_dpa_rpc(struct doca_dpa *dpa, doca_dpa_func_t *func, uint64_t *retval, ...)
{
	const char *what = "call DPA RPC";
	struct launch *l;
	doca_error_t err;
	const char *name;
	va_list ap;
	bool done;

	if (dpa == NULL || func == NULL || retval == NULL) {
		SDK_LOG_ERR("Failed to call DPA RPC: %s is NULL", dpa == NULL ? "dpa" : func == NULL ? "func" : "retval");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to call DPA RPC: the DPA context is not started; call doca_dpa_set_app() and "
			    "doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (doca_dpa_peek_at_last_error(dpa) != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to call DPA RPC: the DPA context had a fatal device-side error (logged earlier); "
			    "destroy it");
		return DOCA_ERROR_BAD_STATE;
	}
	l = calloc(1, sizeof(*l));
	if (l == NULL) {
		SDK_LOG_ERR("Failed to call DPA RPC: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	l->entry = find_entry(dpa, func, SOFTDOCA_DPA_RPC, what);
	if (l->entry == NULL) {
		free(l);
		return DOCA_ERROR_INVALID_VALUE;
	}
	l->dpa = dpa;
	va_start(ap, retval);
	err = pack_args(l, ap, what);
	va_end(ap);
	if (err != DOCA_SUCCESS) {
		free(l);
		return err;
	}
	l->job.run = launch_run;
	l->job.done = launch_done;
	l->job.overrun = rpc_overrun;
	l->job.name = l->entry->name;
	l->job.num_ranks = 1;
	dpa->base.dev->dpa->submit(dpa->base.hw, &l->job);
	dpa->base.dev->dpa->flag_wait(dpa->base.hw, &l->finished);
	name = l->entry->name;
	pthread_mutex_lock(&rpc_lock);
	done = l->done;
	if (!done)
		l->owned = true; /* still running device code: the EU frees it when it returns */
	pthread_mutex_unlock(&rpc_lock);
	if (!done) {
		SDK_LOG_ERR("DPA RPC '%s' gave no result: it ran past the kernel max run time (logged above); the DPA "
			    "context is in error",
			    name);
		*retval = 0;
		return DOCA_ERROR_BAD_STATE;
	}
	*retval = l->ret;
	launch_free(l);
	return doca_dpa_peek_at_last_error(dpa) == DOCA_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_BAD_STATE;
}
