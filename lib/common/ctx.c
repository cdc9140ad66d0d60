/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_ctx: the generic context state machine (IDLE, STARTING, RUNNING, STOPPING).
 *
 * Immediate transitions run the state callback synchronously inside start/stop; transitions
 * that wait for something (in-flight tasks to flush, a peer to connect) complete inside
 * doca_pe_progress. Both are compatible with every DOCA sample (behaviour.md §2).
 */
#include "doca_ctx.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/dev_priv.h"
#include "common/priv/dpa_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(CTX);

doca_error_t doca_ctx_start(struct doca_ctx *ctx)
{
	doca_error_t err;

	if (ctx == NULL) {
		SDK_LOG_ERR("Failed to start context: ctx is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ctx->state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to start %s context: it is %s; stop it and wait for IDLE before starting again",
			    ctx->ops->name, softdoca_ctx_state_name(ctx->state));
		return DOCA_ERROR_BAD_STATE;
	}
	/* a datapath on the DPA completes into DPA completion contexts: no progress engine */
	if (ctx->pe == NULL && ctx->dpa == NULL) {
		SDK_LOG_ERR("Failed to start %s context: no progress engine; call doca_pe_connect_ctx() before "
			    "doca_ctx_start()",
			    ctx->ops->name);
		return DOCA_ERROR_NOT_CONNECTED;
	}
	err = ctx->ops->start != NULL ? ctx->ops->start(ctx) : DOCA_SUCCESS;
	if (err == DOCA_SUCCESS) {
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_RUNNING);
		return DOCA_SUCCESS;
	}
	if (err == DOCA_ERROR_IN_PROGRESS) {
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_STARTING);
		return DOCA_ERROR_IN_PROGRESS;
	}
	return err; /* the library logged why; the context stays IDLE */
}

doca_error_t doca_ctx_stop(struct doca_ctx *ctx)
{
	if (ctx == NULL) {
		SDK_LOG_ERR("Failed to stop context: ctx is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	switch (ctx->state) {
	case DOCA_CTX_STATE_IDLE:
		return DOCA_SUCCESS;
	case DOCA_CTX_STATE_STOPPING:
		return DOCA_ERROR_IN_PROGRESS;
	case DOCA_CTX_STATE_STARTING:
	case DOCA_CTX_STATE_RUNNING:
		break;
	}
	ctx->lib_busy = ctx->ops->stop != NULL && ctx->ops->stop(ctx) == DOCA_ERROR_IN_PROGRESS;
	if (ctx->inflight == 0 && ctx->allocated == 0 && !ctx->lib_busy) {
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_IDLE);
		return DOCA_SUCCESS;
	}
	/* In-flight tasks are flushed by progress; IDLE comes once every task is freed. */
	softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_STOPPING);
	softdoca_pe_notify(ctx->pe);
	return DOCA_ERROR_IN_PROGRESS;
}

doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks)
{
	if (ctx == NULL || num_inflight_tasks == NULL) {
		SDK_LOG_ERR("Failed to get in-flight tasks: %s is NULL", ctx == NULL ? "ctx" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_inflight_tasks = ctx->inflight;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data)
{
	if (ctx == NULL) {
		SDK_LOG_ERR("Failed to set context user data: ctx is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data)
{
	if (ctx == NULL || user_data == NULL) {
		SDK_LOG_ERR("Failed to get context user data: %s is NULL", ctx == NULL ? "ctx" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = ctx->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb)
{
	if (ctx == NULL) {
		SDK_LOG_ERR("Failed to set state changed callback: ctx is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx->state_cb = cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state)
{
	if (ctx == NULL || state == NULL) {
		SDK_LOG_ERR("Failed to get context state: %s is NULL", ctx == NULL ? "ctx" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*state = ctx->state;
	return DOCA_SUCCESS;
}

void doca_ctx_flush_tasks(struct doca_ctx *ctx)
{
	/* Submission hands every task to the engine at once: nothing is held back to flush. */
	(void)ctx;
}

doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev)
{
	(void)gpu_dev;
	if (ctx == NULL) {
		SDK_LOG_ERR("Failed to set GPU datapath: ctx is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("Failed to set GPU datapath on %s context: softdoca emulates no GPU; run the datapath "
		    "on the CPU (the default)",
		    ctx->ops->name);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/*
 * Only libraries whose ops say so (RDMA) run a datapath on the DPA; the DPA context must be on
 * the context's own device (an extended DPA context is not implemented: docs/compatibility.md).
 */
doca_error_t doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx, struct doca_dpa *dpa_dev)
{
	if (ctx == NULL || dpa_dev == NULL) {
		SDK_LOG_ERR("Failed to set DPA datapath: %s is NULL", ctx == NULL ? "ctx" : "dpa_dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!ctx->ops->dpa_datapath) {
		SDK_LOG_ERR("Failed to set DPA datapath on %s context: softdoca runs only RDMA datapaths on the DPA "
			    "(docs/compatibility.md); run this one on the CPU",
			    ctx->ops->name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (ctx->state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to set DPA datapath on %s context: it is %s; set it before doca_ctx_start()",
			    ctx->ops->name, softdoca_ctx_state_name(ctx->state));
		return DOCA_ERROR_BAD_STATE;
	}
	if (softdoca_dpa_base(dpa_dev)->dev != ctx->dev) {
		SDK_LOG_ERR("Failed to set DPA datapath on %s context: the DPA context was created on another device; "
			    "create it on the context's device (extended DPA contexts are not supported yet, "
			    "docs/compatibility.md)",
			    ctx->ops->name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	ctx->dpa = dpa_dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_set_completion_vector(struct doca_ctx *ctx, uint32_t comp_vector)
{
	uint32_t num = 1;

	if (ctx == NULL) {
		SDK_LOG_ERR("Failed to set completion vector: ctx is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ctx->state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to set completion vector of %s context: context is %s; set it before "
			    "doca_ctx_start()",
			    ctx->ops->name, softdoca_ctx_state_name(ctx->state));
		return DOCA_ERROR_BAD_STATE;
	}
	if (ctx->dev == NULL) {
		SDK_LOG_ERR("Failed to set completion vector: %s context has no device, so no completion vectors",
			    ctx->ops->name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	num = softdoca_dev_caps(ctx->dev)->num_completion_vectors;
	if (comp_vector >= num) {
		SDK_LOG_ERR("Failed to set completion vector %u: the device has %u (see "
			    "doca_ctx_cap_get_num_completion_vectors())",
			    comp_vector, num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Completions are delivered by progress on the PE's thread: the vector only selects an
	 * interrupt line on hardware, which has no observable effect here. */
	return DOCA_SUCCESS;
}

doca_error_t doca_ctx_cap_get_num_completion_vectors(const struct doca_devinfo *devinfo, uint32_t *num_comp_vectors)
{
	if (devinfo == NULL || num_comp_vectors == NULL) {
		SDK_LOG_ERR("Failed to get number of completion vectors: %s is NULL",
			    devinfo == NULL ? "devinfo" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_comp_vectors = softdoca_devinfo_caps(devinfo)->num_completion_vectors;
	return DOCA_SUCCESS;
}
