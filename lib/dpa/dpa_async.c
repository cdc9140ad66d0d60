/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPA async ops (docs/dpa.md): device operations whose completion is an element in a DPA
 * completion context, with the ops' user data. doca_dpa_dev_post_memcpy copies before it
 * returns and then pushes its element (none with DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS);
 * doca_dpa_dev_sync_event_post_wait_gt / _ne return at once and push their element when the
 * event's value passes: the wait is a job of the soft DPA that becomes runnable then (the same
 * mechanism as a kernel launch's wait event), so nothing polls meanwhile.
 */
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA_ASYNC);

#define MAX_USER_DATA (1ULL << DOCA_DPA_COMPLETION_LOG_MAX_USER_DATA)

struct doca_dpa_async_ops {
	struct doca_dpa *dpa;
	struct softdoca_dpa_comp_base *comp; /* attached completion context */
	uint32_t queue_size;
	uint64_t user_data;
	uint64_t handle;
	bool started;
	/* atomic, one word so a reader sees both at once: post-waits not yet over (high 32 bits), and
	 * of those the ones whose completion is out, only leaving their EU (low 32 bits) */
	uint64_t waits;
};

#define WAIT_ONE (1ull << 32)
#define WAIT_FIRED 1ull

/* A post-wait: one job that runs once the event's value allows. */
struct async_wait {
	struct softhw_dpa_job job; /* first */
	struct doca_dpa_async_ops *ops;
	bool ran;
};

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint32_t round_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1U << 31))
		p <<= 1;
	return p;
}

doca_error_t doca_dpa_async_ops_create(struct doca_dpa *dpa, unsigned int queue_size, uint64_t user_data,
				       struct doca_dpa_async_ops **async_ops)
{
	struct doca_dpa_async_ops *ops;

	if (dpa == NULL || async_ops == NULL) {
		SDK_LOG_ERR("Failed to create DPA async ops: %s is NULL", dpa == NULL ? "dpa" : "async_ops");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (queue_size == 0 || user_data >= MAX_USER_DATA) {
		SDK_LOG_ERR("Failed to create DPA async ops: %s",
			    queue_size == 0 ? "queue_size is 0" :
					      "user_data does not fit DOCA_DPA_COMPLETION_LOG_MAX_USER_DATA (24) bits");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ops = calloc(1, sizeof(*ops));
	if (ops == NULL) {
		SDK_LOG_ERR("Failed to create DPA async ops: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	ops->dpa = dpa;
	ops->queue_size = round_pow2(queue_size);
	ops->user_data = user_data;
	dpa->num_comps++;
	*async_ops = ops;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_async_ops_get_queue_size(struct doca_dpa_async_ops *async_ops, unsigned int *queue_size)
{
	if (async_ops == NULL || queue_size == NULL) {
		SDK_LOG_ERR("Failed to get DPA async ops queue size: %s is NULL",
			    async_ops == NULL ? "async_ops" : "queue_size");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*queue_size = async_ops->queue_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_async_ops_get_user_data(struct doca_dpa_async_ops *async_ops, uint64_t *user_data)
{
	if (async_ops == NULL || user_data == NULL) {
		SDK_LOG_ERR("Failed to get DPA async ops user data: %s is NULL",
			    async_ops == NULL ? "async_ops" : "user_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = async_ops->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_async_ops_attach(struct doca_dpa_async_ops *async_ops, struct doca_dpa_completion *dpa_comp)
{
	struct softdoca_dpa_comp_base *comp = (struct softdoca_dpa_comp_base *)dpa_comp;

	if (async_ops == NULL || dpa_comp == NULL) {
		SDK_LOG_ERR("Failed to attach DPA async ops: %s is NULL", async_ops == NULL ? "async_ops" : "dpa_comp");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (async_ops->started) {
		SDK_LOG_ERR("Failed to attach DPA async ops: they are started; attach before doca_dpa_async_ops_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (comp->dpa != async_ops->dpa) {
		SDK_LOG_ERR("Failed to attach DPA async ops: the completion context belongs to another DPA context; "
			    "create both on the same doca_dpa");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (async_ops->comp != NULL)
		__atomic_fetch_sub(&async_ops->comp->users, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&comp->users, 1, __ATOMIC_SEQ_CST);
	async_ops->comp = comp;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_async_ops_start(struct doca_dpa_async_ops *async_ops)
{
	struct doca_dpa *dpa;
	doca_error_t err;

	if (async_ops == NULL) {
		SDK_LOG_ERR("Failed to start DPA async ops: async_ops is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa = async_ops->dpa;
	if (async_ops->started) {
		SDK_LOG_ERR("Failed to start DPA async ops: already started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!dpa->started || async_ops->comp == NULL || !async_ops->comp->started) {
		SDK_LOG_ERR("Failed to start DPA async ops: %s",
			    !dpa->started ? "the DPA context is not started; call doca_dpa_start() first" :
			    async_ops->comp == NULL ? "no completion context; call doca_dpa_async_ops_attach() first" :
						      "the attached completion context is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	err = dpa->base.dev->dpa->handle_add(dpa->base.hw, SOFTDOCA_DPA_HANDLE_ASYNC_OPS, async_ops, &async_ops->handle);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start DPA async ops: %s", doca_error_get_descr(err));
		return err;
	}
	async_ops->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_async_ops_stop(struct doca_dpa_async_ops *async_ops)
{
	if (async_ops == NULL) {
		SDK_LOG_ERR("Failed to stop DPA async ops: async_ops is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!async_ops->started) {
		SDK_LOG_ERR("Failed to stop DPA async ops: not started");
		return DOCA_ERROR_BAD_STATE;
	}
	uint64_t w = __atomic_load_n(&async_ops->waits, __ATOMIC_SEQ_CST);
	uint32_t pending = (uint32_t)(w >> 32) - (uint32_t)w;

	if (pending != 0) {
		SDK_LOG_ERR("Failed to stop DPA async ops: %u sync-event waits posted on them are not over; set their "
			    "events (or stop the DPA context, which drops them) first",
			    pending);
		return DOCA_ERROR_IN_USE;
	}
	/* The fired ones are only leaving their EU (wait_done): it takes a moment, not an event. */
	for (uint64_t end = mono_ns() + 2000000000ull;
	     __atomic_load_n(&async_ops->waits, __ATOMIC_SEQ_CST) != 0 && mono_ns() < end;)
		sched_yield();
	if (__atomic_load_n(&async_ops->waits, __ATOMIC_SEQ_CST) != 0) {
		SDK_LOG_ERR("Failed to stop DPA async ops: a completed sync-event wait did not leave its EU in 2 s");
		return DOCA_ERROR_IN_USE;
	}
	if (async_ops->dpa->base.hw != NULL)
		async_ops->dpa->base.dev->dpa->handle_remove(async_ops->dpa->base.hw, async_ops->handle);
	async_ops->started = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_async_ops_destroy(struct doca_dpa_async_ops *async_ops)
{
	doca_error_t err;

	if (async_ops == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA async ops: async_ops is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* a started one is stopped first, as for completion contexts */
	if (async_ops->started && (err = doca_dpa_async_ops_stop(async_ops)) != DOCA_SUCCESS)
		return err;
	if (async_ops->comp != NULL)
		__atomic_fetch_sub(&async_ops->comp->users, 1, __ATOMIC_SEQ_CST);
	async_ops->dpa->num_comps--;
	free(async_ops);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_async_ops_get_dpa_handle(struct doca_dpa_async_ops *async_ops, doca_dpa_dev_async_ops_t *handle)
{
	if (async_ops == NULL || handle == NULL) {
		SDK_LOG_ERR("Failed to get DPA handle of async ops: %s is NULL",
			    async_ops == NULL ? "async_ops" : "handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!async_ops->started) {
		SDK_LOG_ERR("Failed to get DPA handle of async ops: not started; call doca_dpa_async_ops_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	*handle = async_ops->handle;
	return DOCA_SUCCESS;
}

/* ---- device side (host callbacks, on an EU) ---- */

static struct doca_dpa_async_ops *lookup(struct doca_dpa *dpa, uint64_t handle, const char *call)
{
	struct doca_dpa_async_ops *ops =
		dpa->base.dev->dpa->handle_lookup(dpa->base.hw, SOFTDOCA_DPA_HANDLE_ASYNC_OPS, handle);

	if (ops == NULL) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to %s(): not started async ops of this DPA context "
			    "(doca_dpa_async_ops_get_dpa_handle()); the DPA context is now in error",
			    (unsigned long long)handle, call);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
	}
	return ops;
}

static void complete(struct doca_dpa_async_ops *ops, doca_error_t status)
{
	struct softdoca_dpa_comp_elem e = {
		.type = status == DOCA_SUCCESS ? SOFTDOCA_DPA_COMP_SEND : SOFTDOCA_DPA_COMP_SEND_ERR,
		.user_data = (uint32_t)ops->user_data,
		.syndrome = (uint32_t)status,
	};

	ops->comp->push(ops->comp, &e);
}

void softdoca_dpa_async_memcpy(struct doca_dpa *dpa, uint64_t handle, uint32_t dst, uint64_t dst_addr, uint32_t src,
			       uint64_t src_addr, uint64_t length, uint32_t flags)
{
	struct doca_dpa_async_ops *ops = lookup(dpa, handle, "doca_dpa_dev_post_memcpy");

	if (ops == NULL || !softdoca_dpa_mmap_memcpy(dpa, dst, dst_addr, src, src_addr, length))
		return;
	if (!(flags & SOFTDOCA_DPA_SUBMIT_OPTIMIZE_REPORTS))
		complete(ops, DOCA_SUCCESS);
}

static void wait_run(struct softhw_dpa_job *job, unsigned int rank)
{
	struct async_wait *w = (struct async_wait *)job;

	(void)rank;
	w->ran = true;
	__atomic_fetch_add(&w->ops->waits, WAIT_FIRED, __ATOMIC_SEQ_CST);
	complete(w->ops, DOCA_SUCCESS);
}

static void wait_done(struct softhw_dpa_job *job, doca_error_t status)
{
	struct async_wait *w = (struct async_wait *)job;
	struct doca_dpa_async_ops *ops = w->ops;
	bool ran = w->ran;

	(void)status; /* AGAIN: the DPA context stopped before the value passed; nobody is there to tell */
	free(w);
	/* the last touch of ops: once the word is 0, stop and destroy may go on */
	__atomic_fetch_sub(&ops->waits, WAIT_ONE | (ran ? WAIT_FIRED : 0), __ATOMIC_SEQ_CST);
}

void softdoca_dpa_async_wait(struct doca_dpa *dpa, uint64_t handle, struct softhw_value *value, uint64_t threshold,
			     bool not_equal)
{
	const char *call = not_equal ? "doca_dpa_dev_sync_event_post_wait_ne" : "doca_dpa_dev_sync_event_post_wait_gt";
	struct doca_dpa_async_ops *ops = lookup(dpa, handle, call);
	struct async_wait *w;

	if (ops == NULL)
		return;
	if (!not_equal && threshold == UINT64_MAX) {
		SDK_LOG_ERR("DPA device code's %s(): no value is greater than %llu; the DPA context is now in error", call,
			    (unsigned long long)threshold);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
		return;
	}
	w = calloc(1, sizeof(*w));
	if (w == NULL) {
		SDK_LOG_ERR("DPA device code's %s(): out of memory; the DPA context is now in error", call);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_NO_MEMORY);
		return;
	}
	w->ops = ops;
	w->job.run = wait_run;
	w->job.done = wait_done;
	w->job.num_ranks = 1;
	w->job.wait_value = value;
	w->job.wait_threshold = not_equal ? threshold : threshold + 1;
	w->job.wait_ne = not_equal;
	__atomic_fetch_add(&ops->waits, WAIT_ONE, __ATOMIC_SEQ_CST);
	dpa->base.dev->dpa->submit(dpa->base.hw, &w->job);
}
