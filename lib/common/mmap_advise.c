/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_mmap_advise: a context with one task type, cache invalidate. The task names a doca_buf;
 * the soft card's engine makes the CPU's next reads of the buf's region come from memory
 * (SOFTHW_OP_INVALIDATE). Faults the card would report at completion (no buffer, an empty or
 * oversized one) complete the task with an error; doca_task_try_submit refuses them up front.
 */
#include "doca_buf.h"
#include "doca_mmap_advise.h"
#include "common/priv/buf_priv.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DOCA_MMAP_ADVISE);

enum { ADVISE_TASK_INVALIDATE_CACHE = 0 };

struct doca_mmap_advise {
	struct doca_ctx ctx; /* first: doca_mmap_advise_as_ctx and the ops receive it */
	struct doca_dev *dev;
	const struct softhw_caps *caps;
};

struct doca_mmap_advise_task_invalidate_cache {
	struct doca_task base; /* first: ..._as_doca_task */
	struct doca_buf *buf;
	struct softhw_sge sge;
};

static doca_error_t check_invalidate(const struct doca_mmap_advise_task_invalidate_cache *t,
				     const struct doca_mmap_advise *advise)
{
	if (t->buf == NULL) {
		SDK_LOG_ERR("Cache invalidate task has no buffer; set it with "
			    "doca_mmap_advise_task_invalidate_cache_set_buf()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->buf->len == 0) {
		SDK_LOG_ERR("Cache invalidate task: the buffer is empty (length 0); nothing to invalidate");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->buf->len > advise->caps->mmap_advise_max_buf_size) {
		SDK_LOG_ERR("Cache invalidate task: the buffer spans %zu bytes, more than the device's maximum of "
			    "%lu (doca_mmap_advise_task_cache_invalidate_get_max_buf_size()); split it",
			    t->buf->len, (unsigned long)advise->caps->mmap_advise_max_buf_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t advise_check(struct doca_task *task)
{
	return check_invalidate((struct doca_mmap_advise_task_invalidate_cache *)task,
				(struct doca_mmap_advise *)task->ctx);
}

/* The whole region of the buf (not only its data): whatever the device wrote in it. */
static doca_error_t advise_prepare(struct doca_task *task)
{
	struct doca_mmap_advise_task_invalidate_cache *t = (struct doca_mmap_advise_task_invalidate_cache *)task;
	doca_error_t fault = check_invalidate(t, (struct doca_mmap_advise *)task->ctx);

	if (fault != DOCA_SUCCESS) {
		task->work.op = SOFTHW_OP_FAIL; /* the engine reports it at completion */
		task->work.status = fault;
		return DOCA_SUCCESS;
	}
	t->sge = (struct softhw_sge){.addr = t->buf->head, .len = t->buf->len, .remote = NULL};
	task->work.op = SOFTHW_OP_INVALIDATE;
	task->work.inval.sge = &t->sge;
	return DOCA_SUCCESS;
}

static const struct softdoca_ctx_ops advise_ops = {
	.name = "MMAP_ADVISE",
	.check = advise_check,
	.prepare = advise_prepare,
};

/* ---- context ---- */

doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise)
{
	struct doca_mmap_advise *a;

	if (dev == NULL || mmap_advise == NULL) {
		SDK_LOG_ERR("Failed to create mmap advise: %s is NULL", dev == NULL ? "dev" : "mmap_advise output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->mmap_advise_cache_invalidate) {
		SDK_LOG_ERR("Failed to create mmap advise: device %s has no cache-invalidate engine (check "
			    "doca_mmap_advise_cap_task_cache_invalidate_is_supported() when choosing the device)",
			    dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		SDK_LOG_ERR("Failed to create mmap advise: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&a->ctx, dev, &advise_ops);
	a->dev = dev;
	a->caps = softdoca_dev_caps(dev);
	softdoca_dev_hold(dev);
	*mmap_advise = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise)
{
	if (mmap_advise == NULL) {
		SDK_LOG_ERR("Failed to destroy mmap advise: mmap_advise is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mmap_advise->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy mmap advise: its context is %s; call doca_ctx_stop() and progress "
			    "the PE until the context is IDLE",
			    softdoca_ctx_state_name(mmap_advise->ctx.state));
		return DOCA_ERROR_IN_USE;
	}
	softdoca_ctx_fini(&mmap_advise->ctx);
	softdoca_dev_release(mmap_advise->dev);
	free(mmap_advise);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise)
{
	return mmap_advise != NULL ? &mmap_advise->ctx : NULL;
}

doca_error_t doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("Cache invalidate capability query: devinfo is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return softdoca_devinfo_caps(devinfo)->mmap_advise_cache_invalidate ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo,
								   uint64_t *buf_size)
{
	if (devinfo == NULL || buf_size == NULL) {
		SDK_LOG_ERR("Cache invalidate capability query: %s is NULL", devinfo == NULL ? "devinfo" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_devinfo_caps(devinfo)->mmap_advise_cache_invalidate)
		return DOCA_ERROR_NOT_SUPPORTED;
	*buf_size = softdoca_devinfo_caps(devinfo)->mmap_advise_max_buf_size;
	return DOCA_SUCCESS;
}

/* ---- the cache-invalidate task ---- */

doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
	struct doca_mmap_advise *mmap_advise, doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks)
{
	struct doca_ctx *ctx;
	doca_error_t err;

	if (mmap_advise == NULL || completion_cb == NULL || error_cb == NULL) {
		SDK_LOG_ERR("Failed to configure cache invalidate tasks: %s is NULL",
			    mmap_advise == NULL ? "mmap_advise" : completion_cb == NULL ? "completion callback"
										  : "error callback");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx = &mmap_advise->ctx;
	if (ctx->state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to configure cache invalidate tasks: the context is %s; configure tasks before "
			    "doca_ctx_start()",
			    softdoca_ctx_state_name(ctx->state));
		return DOCA_ERROR_NOT_PERMITTED;
	}
	/* The engine queue is the DMA engine's: the same depth bounds it. */
	if (num_tasks == 0 || num_tasks > mmap_advise->caps->dma_max_num_tasks) {
		SDK_LOG_ERR("Failed to configure cache invalidate tasks: %u tasks requested, the device allows 1 to %u",
			    num_tasks, mmap_advise->caps->dma_max_num_tasks);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_ctx_tasks_configured(ctx, ADVISE_TASK_INVALIDATE_CACHE) &&
	    ctx->pools[ADVISE_TASK_INVALIDATE_CACHE].allocated) {
		SDK_LOG_ERR("Failed to configure cache invalidate tasks: tasks of the previous configuration are still "
			    "allocated; free them with doca_task_free() first");
		return DOCA_ERROR_IN_USE;
	}
	err = softdoca_ctx_conf_tasks(ctx, ADVISE_TASK_INVALIDATE_CACHE, "cache invalidate",
				      sizeof(struct doca_mmap_advise_task_invalidate_cache),
				      (doca_task_completion_cb_t)completion_cb, (doca_task_completion_cb_t)error_cb,
				      num_tasks);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to configure cache invalidate tasks: out of memory for %u tasks", num_tasks);
	return err;
}

doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(struct doca_mmap_advise *mmap_advise,
							       struct doca_buf *buf, union doca_data user_data,
							       struct doca_mmap_advise_task_invalidate_cache **task)
{
	struct doca_mmap_advise_task_invalidate_cache *t;

	if (mmap_advise == NULL || task == NULL) {
		SDK_LOG_ERR("Failed to allocate cache invalidate task: %s is NULL",
			    mmap_advise == NULL ? "mmap_advise" : "task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_ctx_tasks_configured(&mmap_advise->ctx, ADVISE_TASK_INVALIDATE_CACHE)) {
		SDK_LOG_ERR("Failed to allocate cache invalidate task: tasks are not configured; call "
			    "doca_mmap_advise_task_invalidate_cache_set_conf() before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	t = (struct doca_mmap_advise_task_invalidate_cache *)softdoca_task_alloc(&mmap_advise->ctx,
										 ADVISE_TASK_INVALIDATE_CACHE,
										 user_data);
	if (t == NULL) {
		SDK_LOG_DBG("Failed to allocate cache invalidate task: all %u tasks are in use; free tasks with "
			    "doca_task_free() or configure more",
			    mmap_advise->ctx.pools[ADVISE_TASK_INVALIDATE_CACHE].capacity);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->buf = buf;
	*task = t;
	return DOCA_SUCCESS;
}

struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(struct doca_mmap_advise_task_invalidate_cache *task)
{
	return task != NULL ? &task->base : NULL;
}

void doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
						    struct doca_buf *buf)
{
	if (task != NULL)
		task->buf = buf;
}

struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(const struct doca_mmap_advise_task_invalidate_cache *task)
{
	return task != NULL ? task->buf : NULL;
}
