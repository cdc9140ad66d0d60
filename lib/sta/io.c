/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sta_io: an IO context (one per IO thread) of an STA context, with its QPs, the
 * non-offload callback and its tasks. The context's configuration and states are real; the
 * QP calls and the data tasks need the data path, which is not implemented yet: they check
 * their arguments and return DOCA_ERROR_NOT_SUPPORTED (docs/sta.md).
 */
#include "sta_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_IO);

static inline struct doca_sta_io *ctx_to_io(struct doca_ctx *ctx)
{
	return (struct doca_sta_io *)ctx;
}

static doca_error_t io_start(struct doca_ctx *ctx)
{
	struct doca_sta_io *io = ctx_to_io(ctx);

	if (!sta_running(io->sta, "Failed to start STA IO context"))
		return DOCA_ERROR_BAD_STATE;
	if (io->non_offload_cb == NULL) {
		SDK_LOG_ERR("Failed to start STA IO context: no non-offload callback (every queue's first capsule, "
			    "Fabrics Connect, goes there); call doca_sta_io_non_offload_register_cb() before "
			    "doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	softdoca_pe_notify(ctx->pe);
	return DOCA_ERROR_IN_PROGRESS; /* RUNNING at the next progress, as the STA context */
}

static bool io_progress(struct doca_ctx *ctx)
{
	if (ctx->state != DOCA_CTX_STATE_STARTING)
		return false;
	softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_RUNNING);
	return true;
}

static bool io_arm(struct doca_ctx *ctx)
{
	return ctx->state == DOCA_CTX_STATE_STARTING;
}

/* No task of an IO context reaches the engine in this slice (their alloc_init refuse). */
static doca_error_t io_prepare(struct doca_task *task)
{
	(void)task;
	return sta_data_path_missing("doca_task_submit (STA IO task)");
}

static const struct softdoca_ctx_ops io_ops = {
	.name = "STA IO",
	.start = io_start,
	.progress = io_progress,
	.arm = io_arm,
	.prepare = io_prepare,
};

doca_error_t doca_sta_io_create(struct doca_sta *sta, struct doca_sta_io **sta_io)
{
	struct doca_sta_io *io;

	if (sta == NULL || sta_io == NULL) {
		SDK_LOG_ERR("Failed to create STA IO context: %s is NULL", sta == NULL ? "sta" : "sta_io output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&sta->io_lock);
	if (sta->num_io >= sta->max_sta_io) {
		pthread_mutex_unlock(&sta->io_lock);
		SDK_LOG_ERR("Failed to create STA IO context: the STA context has its %u IO contexts; raise the count "
			    "with doca_sta_set_max_sta_io() before doca_ctx_start() (at most doca_sta_get_max_io_threads())",
			    sta->max_sta_io);
		return DOCA_ERROR_FULL;
	}
	io = calloc(1, sizeof(*io));
	if (io == NULL) {
		pthread_mutex_unlock(&sta->io_lock);
		SDK_LOG_ERR("Failed to create STA IO context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&io->ctx, sta->dev, &io_ops);
	io->sta = sta;
	io->next = sta->ios;
	sta->ios = io;
	sta->num_io++;
	pthread_mutex_unlock(&sta->io_lock);
	*sta_io = io;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_destroy(struct doca_sta_io *sta_io)
{
	struct doca_sta_io **pp;

	if (sta_io == NULL) {
		SDK_LOG_ERR("Failed to destroy STA IO context: sta_io is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sta_io->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy STA IO context: it is %s; call doca_ctx_stop() and progress its PE until "
			    "it is IDLE",
			    softdoca_ctx_state_name(sta_io->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	pthread_mutex_lock(&sta_io->sta->io_lock);
	for (pp = &sta_io->sta->ios; *pp != NULL && *pp != sta_io; pp = &(*pp)->next)
		;
	if (*pp != NULL)
		*pp = sta_io->next;
	sta_io->sta->num_io--;
	pthread_mutex_unlock(&sta_io->sta->io_lock);
	softdoca_ctx_fini(&sta_io->ctx);
	free(sta_io);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_sta_io_as_ctx(struct doca_sta_io *sta_io)
{
	return sta_io != NULL ? &sta_io->ctx : NULL;
}

static bool io_idle(const struct doca_sta_io *io, const char *what, const char *call)
{
	if (io->ctx.state == DOCA_CTX_STATE_IDLE)
		return true;
	SDK_LOG_ERR("Failed to %s: the STA IO context is %s; call %s() before doca_ctx_start()", what,
		    softdoca_ctx_state_name(io->ctx.state), call);
	return false;
}

static doca_error_t io_conf(struct doca_sta_io *io, uint32_t type, doca_sta_task_completion_cb_t done,
			    doca_sta_task_completion_cb_t error, const char *call)
{
	if (io == NULL || done == NULL || error == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, io == NULL ? "sta_io" : done == NULL ? "completion callback" : "error callback");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!io_idle(io, "configure STA IO tasks", call))
		return DOCA_ERROR_BAD_STATE;
	io->task_cbs[type] = (struct sta_task_cbs){.done = done, .error = error, .set = true};
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_task_disconnect_set_conf(struct doca_sta_io *sta_io, doca_sta_task_completion_cb_t task_completion_cb,
						  doca_sta_task_completion_cb_t task_error_cb)
{
	return io_conf(sta_io, STA_IO_TASK_DISCONNECT, task_completion_cb, task_error_cb,
		       "doca_sta_io_task_disconnect_set_conf");
}

doca_error_t doca_sta_io_task_non_offload_set_rdma_write_send_conf(struct doca_sta_io *sta_io,
								   doca_sta_task_completion_cb_t task_completion_cb,
								   doca_sta_task_completion_cb_t task_error_cb)
{
	return io_conf(sta_io, STA_IO_TASK_WRITE_SEND, task_completion_cb, task_error_cb,
		       "doca_sta_io_task_non_offload_set_rdma_write_send_conf");
}

doca_error_t doca_sta_io_task_non_offload_set_rdma_read_conf(struct doca_sta_io *sta_io,
							     doca_sta_task_completion_cb_t task_completion_cb,
							     doca_sta_task_completion_cb_t task_error_cb)
{
	return io_conf(sta_io, STA_IO_TASK_READ, task_completion_cb, task_error_cb,
		       "doca_sta_io_task_non_offload_set_rdma_read_conf");
}

doca_error_t doca_sta_io_non_offload_register_cb(struct doca_sta_io *sta_io, doca_sta_io_non_offload_cb_t non_offload_cb,
						 union doca_data user_data)
{
	if (sta_io == NULL || non_offload_cb == NULL) {
		SDK_LOG_ERR("Failed to register STA non-offload callback: %s is NULL",
			    sta_io == NULL ? "sta_io" : "non_offload_cb");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!io_idle(sta_io, "register STA non-offload callback", "doca_sta_io_non_offload_register_cb"))
		return DOCA_ERROR_BAD_STATE;
	sta_io->non_offload_cb = non_offload_cb;
	sta_io->non_offload_ud = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_event_transport_err_register_cb(struct doca_sta_io *sta_io, doca_sta_event_transport_err_cb_t event_cb,
							 union doca_data user_data)
{
	if (sta_io == NULL || event_cb == NULL) {
		SDK_LOG_ERR("Failed to register STA transport error event: %s is NULL", sta_io == NULL ? "sta_io" : "event_cb");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!io_idle(sta_io, "register STA transport error event", "doca_sta_io_event_transport_err_register_cb"))
		return DOCA_ERROR_BAD_STATE;
	sta_io->transport_err_cb = event_cb;
	sta_io->transport_err_ud = user_data;
	return DOCA_SUCCESS;
}

/* ---- the data path: argument checks, then NOT_SUPPORTED ---- */

/* Checks common to the QP and data-task calls: a running IO context. */
static doca_error_t io_ready(const struct doca_sta_io *io, const char *call)
{
	if (io == NULL) {
		SDK_LOG_ERR("%s: sta_io is NULL", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (io->ctx.state != DOCA_CTX_STATE_RUNNING) {
		SDK_LOG_ERR("%s: the STA IO context is %s; start it and progress its PE until it is RUNNING first", call,
			    softdoca_ctx_state_name(io->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t io_task_ready(const struct doca_sta_io *io, uint32_t type, const void *qp, const void *out,
				  const char *conf_call, const char *call)
{
	if (io == NULL || qp == NULL || out == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, io == NULL ? "sta_io" : qp == NULL ? "qp_handle" : "task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!io->task_cbs[type].set) {
		SDK_LOG_ERR("%s: the task is not configured; call %s() before doca_ctx_start()", call, conf_call);
		return DOCA_ERROR_BAD_STATE;
	}
	return sta_data_path_missing(call);
}

doca_error_t doca_sta_io_task_disconnect_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
						    struct doca_sta_qp_handle *qp_handle, struct doca_sta_producer_task_send **task)
{
	(void)user_data;
	return io_task_ready(sta_io, STA_IO_TASK_DISCONNECT, qp_handle, task, "doca_sta_io_task_disconnect_set_conf",
			     __func__);
}

doca_error_t doca_sta_io_task_non_offload_rdma_write_send_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
								     struct doca_sta_qp_handle *qp_handle,
								     doca_sta_nvmef_completion_t completion,
								     union doca_data non_offload_user_data,
								     struct doca_sta_producer_task_send **task)
{
	(void)user_data;
	(void)non_offload_user_data;
	if (completion == NULL) {
		SDK_LOG_ERR("%s: completion is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return io_task_ready(sta_io, STA_IO_TASK_WRITE_SEND, qp_handle, task,
			     "doca_sta_io_task_non_offload_set_rdma_write_send_conf", __func__);
}

doca_error_t doca_sta_io_task_non_offload_rdma_send_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
							       struct doca_sta_qp_handle *qp_handle,
							       doca_sta_nvmef_completion_t completion,
							       union doca_data non_offload_user_data,
							       struct doca_sta_producer_task_send **task)
{
	(void)user_data;
	(void)non_offload_user_data;
	if (completion == NULL) {
		SDK_LOG_ERR("%s: completion is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* a response without data goes through the write-send task type's configuration [inferred] */
	return io_task_ready(sta_io, STA_IO_TASK_WRITE_SEND, qp_handle, task,
			     "doca_sta_io_task_non_offload_set_rdma_write_send_conf", __func__);
}

doca_error_t doca_sta_io_task_non_offload_rdma_read_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
							       struct doca_sta_qp_handle *qp_handle,
							       union doca_data non_offload_user_data,
							       struct doca_sta_producer_task_send **task)
{
	(void)user_data;
	(void)non_offload_user_data;
	return io_task_ready(sta_io, STA_IO_TASK_READ, qp_handle, task, "doca_sta_io_task_non_offload_set_rdma_read_conf",
			     __func__);
}

doca_error_t doca_sta_io_qp_alloc(struct doca_sta_io *sta_io, const struct doca_dev *dev, struct doca_sta_qp_handle **qp_handle)
{
	doca_error_t err = io_ready(sta_io, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (dev == NULL || qp_handle == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", __func__, dev == NULL ? "dev" : "qp_handle output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sta_has_dev(sta_io->sta, dev)) {
		SDK_LOG_ERR("%s: the STA context does not know the device; add it with doca_sta_add_dev()", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return sta_data_path_missing(__func__);
}

/* accept and connect: the device, the cm_id and the private data (at most 32 bytes here) */
static doca_error_t check_connect(struct doca_sta_io *io, const struct doca_dev *dev, const struct rdma_cm_id *cm_id,
				  const void *priv, uint32_t priv_size, const char *call)
{
	doca_error_t err = io_ready(io, call);

	if (err != DOCA_SUCCESS)
		return err;
	if (dev == NULL || cm_id == NULL || (priv == NULL && priv_size != 0)) {
		SDK_LOG_ERR("%s: %s is NULL", call, dev == NULL ? "dev" : cm_id == NULL ? "cm_id" : "priv_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sta_has_dev(io->sta, dev)) {
		SDK_LOG_ERR("%s: the STA context does not know the device; add it with doca_sta_add_dev()", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return sta_data_path_missing(call);
}

doca_error_t doca_sta_io_qp_accept(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle, const struct doca_dev *dev,
				   struct rdma_cm_id *cm_id, const void *priv_data, uint32_t priv_size,
				   struct doca_sta_subs_handle *subs_handle)
{
	(void)subs_handle;
	if (qp_handle == NULL) {
		SDK_LOG_ERR("%s: qp_handle is NULL; allocate it with doca_sta_io_qp_alloc()", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return check_connect(sta_io, dev, cm_id, priv_data, priv_size, __func__);
}

doca_error_t doca_sta_io_qp_connect(struct doca_sta_io *sta_io, const struct doca_dev *dev, struct rdma_cm_id *cm_id,
				    const void *priv_data, uint32_t priv_size, struct doca_sta_subs_handle *subs_handle,
				    struct doca_sta_qp_handle **qp_handle)
{
	(void)subs_handle;
	if (qp_handle == NULL) {
		SDK_LOG_ERR("%s: qp_handle output pointer is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return check_connect(sta_io, dev, cm_id, priv_data, priv_size, __func__);
}

doca_error_t doca_sta_io_qp_connect_set_sq_size(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle,
						uint16_t sq_size)
{
	doca_error_t err = io_ready(sta_io, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (qp_handle == NULL) {
		SDK_LOG_ERR("%s: qp_handle is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Fabrics Connect's SQSIZE is 0's based: the queue holds sq_size + 1 entries */
	if ((uint32_t)sq_size + 1 > sta_io->sta->caps->sta_max_io_queue_size) {
		SDK_LOG_ERR("%s: SQ size %u (0's based) is above the queue depth of %u (doca_sta_get_max_io_queue_size()); "
			    "reject the Connect command",
			    __func__, sq_size, sta_io->sta->caps->sta_max_io_queue_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return sta_data_path_missing(__func__);
}

/* The calls on one QP of a running IO context. */
static doca_error_t qp_call(struct doca_sta_io *io, const void *qp, const char *call)
{
	doca_error_t err = io_ready(io, call);

	if (err != DOCA_SUCCESS)
		return err;
	if (qp == NULL) {
		SDK_LOG_ERR("%s: qp_handle is NULL", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return sta_data_path_missing(call);
}

doca_error_t doca_sta_io_qp_connect_established(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle)
{
	return qp_call(sta_io, qp_handle, __func__);
}

doca_error_t doca_sta_io_qp_destroy(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle)
{
	return qp_call(sta_io, qp_handle, __func__);
}

doca_error_t doca_sta_io_qp_add_subsystem(struct doca_sta_io *sta_io, const struct doca_sta_subs_handle *subs_handle,
					  struct doca_sta_qp_handle *qp_handle)
{
	if (subs_handle == NULL) {
		SDK_LOG_ERR("%s: subs_handle is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return qp_call(sta_io, qp_handle, __func__);
}

doca_error_t doca_sta_io_qp_set_user_data(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle,
					  union doca_data user_data)
{
	(void)user_data;
	return qp_call(sta_io, qp_handle, __func__);
}

/* Getters of a QP: no QP exists before the data path does. */
static doca_error_t qp_get(const void *qp, const void *out, const char *call)
{
	if (qp == NULL || out == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, qp == NULL ? "qp_handle" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return sta_data_path_missing(call);
}

doca_error_t doca_sta_io_qp_get_user_data(const struct doca_sta_qp_handle *qp_handle, union doca_data *user_data)
{
	return qp_get(qp_handle, user_data, __func__);
}

doca_error_t doca_sta_io_qp_get_id(struct doca_sta_qp_handle *qp_handle, uint32_t *qp_id)
{
	return qp_get(qp_handle, qp_id, __func__);
}

doca_error_t doca_sta_io_qp_get_port_id(struct doca_sta_qp_handle *qp_handle, uint16_t *port_id)
{
	return qp_get(qp_handle, port_id, __func__);
}

doca_error_t doca_sta_io_qp_get_group_id(struct doca_sta_qp_handle *qp_handle, uint16_t *group_id)
{
	return qp_get(qp_handle, group_id, __func__);
}

doca_error_t doca_sta_io_qp_get_index_in_group(struct doca_sta_qp_handle *qp_handle, uint16_t *qp_idx)
{
	return qp_get(qp_handle, qp_idx, __func__);
}
