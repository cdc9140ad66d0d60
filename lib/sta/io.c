/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sta_io: an IO context (one per IO thread) of an STA context, with its QPs, the
 * non-offload callback and its tasks. The context's configuration and states are real; the
 * QP calls and the data tasks need the data path, which is not implemented yet: they check
 * their arguments and return DOCA_ERROR_NOT_SUPPORTED (docs/sta.md).
 */
#include <string.h>

#include "dp.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_IO);

static inline struct doca_sta_io *ctx_to_io(struct doca_ctx *ctx)
{
	return (struct doca_sta_io *)ctx;
}

static doca_error_t io_start(struct doca_ctx *ctx)
{
	struct doca_sta_io *io = ctx_to_io(ctx);
	doca_error_t err;

	if (!sta_running(io->sta, "Failed to start STA IO context"))
		return DOCA_ERROR_BAD_STATE;
	if (io->non_offload_cb == NULL) {
		SDK_LOG_ERR("Failed to start STA IO context: no non-offload callback (every queue's first capsule, "
			    "Fabrics Connect, goes there); call doca_sta_io_non_offload_register_cb() before "
			    "doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	err = sta_dp_io_start(io); /* its job on the EUs */
	if (err != DOCA_SUCCESS)
		return err;
	softdoca_pe_notify(ctx->pe);
	return DOCA_ERROR_IN_PROGRESS; /* RUNNING at the next progress, as the STA context */
}

static doca_error_t io_stop(struct doca_ctx *ctx)
{
	struct doca_sta_io *io = ctx_to_io(ctx);

	/* the EU job leaves, QPs left are destroyed: tasks in flight complete (ready) with an error */
	sta_dp_io_stop(io);
	return DOCA_SUCCESS;
}

/*
 * The non-offload user data names one command: its slot and the command's number there, so that
 * a value kept after its command was answered names no later command in the same slot.
 */
static union doca_data nud_of(const struct sta_slot *s)
{
	return (union doca_data){.u64 = (uint64_t)s->seq << 32 | s->index};
}

/* The command of the QP that nud names, still waiting for its response; NULL if none. */
static struct sta_slot *slot_of(const struct doca_sta_qp_handle *qp, union doca_data nud)
{
	uint32_t index = (uint32_t)nud.u64;
	struct sta_slot *s;

	if (qp->slots == NULL || index >= qp->nslots)
		return NULL;
	s = &qp->slots[index];
	return s->state == SLOT_APP && s->seq == (uint32_t)(nud.u64 >> 32) ? s : NULL;
}

/* One non-offload capsule to the application, from doca_pe_progress. */
static bool deliver_nonoff(struct doca_sta_io *io)
{
	struct sta_io_dp *dp = io->dp;
	struct sta_nonoff *n;
	struct sta_slot *s;

	if (dp == NULL)
		return false;
	pthread_mutex_lock(&dp->lock);
	n = dp->nonoff_head;
	if (n != NULL) {
		dp->nonoff_head = n->next;
		if (dp->nonoff_head == NULL)
			dp->nonoff_tail = NULL;
	}
	pthread_mutex_unlock(&dp->lock);
	if (n == NULL)
		return false;
	if (n->slot == NULL) { /* a transport error */
		struct doca_sta_event_transport_err ev = n->err;

		free(n);
		if (io->transport_err_cb != NULL)
			io->transport_err_cb(&ev, io->transport_err_ud);
		return true;
	}
	s = n->slot;
	free(n);
	/* the slot stays SLOT_APP until the application's response: only its thread touches it */
	io->non_offload_cb(s->qp, io->non_offload_ud, s->capsule, s->data, s->len, !s->keyed, nud_of(s));
	return true;
}

static bool io_progress(struct doca_ctx *ctx)
{
	struct doca_sta_io *io = ctx_to_io(ctx);

	if (ctx->state == DOCA_CTX_STATE_STARTING) {
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_RUNNING);
		return true;
	}
	return deliver_nonoff(io);
}

static bool io_arm(struct doca_ctx *ctx)
{
	struct doca_sta_io *io = ctx_to_io(ctx);
	bool waiting;

	if (ctx->state == DOCA_CTX_STATE_STARTING)
		return true;
	if (io->dp == NULL)
		return false;
	pthread_mutex_lock(&io->dp->lock);
	waiting = io->dp->nonoff_head != NULL;
	pthread_mutex_unlock(&io->dp->lock);
	return waiting;
}

static bool task_ready(struct softhw_work *work)
{
	struct doca_sta_producer_task_send *t = (struct doca_sta_producer_task_send *)work;

	return __atomic_load_n(&t->done, __ATOMIC_ACQUIRE) != 0;
}

static doca_error_t task_run(struct softhw_work *work)
{
	return ((struct doca_sta_producer_task_send *)work)->status;
}

/* The task's QP is still one of the IO context's (by address and id: a freed one is not read). */
static bool qp_alive(const struct sta_io_dp *dp, const struct doca_sta_producer_task_send *t)
{
	for (const struct doca_sta_qp_handle *qp = dp->qps; qp != NULL; qp = qp->next)
		if (qp == t->qp)
			return qp->id == t->qp_id;
	return false;
}

/* Posts the task's verbs work; the EU finishes it (t->done) when its completion comes. */
static doca_error_t io_prepare(struct doca_task *task)
{
	struct doca_sta_producer_task_send *t = (struct doca_sta_producer_task_send *)task;
	struct doca_sta_io *io = ctx_to_io(task->ctx);
	struct sta_slot *s = t->slot;
	doca_error_t err = DOCA_SUCCESS;

	if (io->dp == NULL)
		return DOCA_ERROR_BAD_STATE;
	task->work.op = SOFTHW_OP_CALL;
	task->work.call.ready = task_ready;
	task->work.call.run = task_run;
	pthread_mutex_lock(&io->dp->lock);
	if (!qp_alive(io->dp, t) || t->qp->destroyed) {
		SDK_LOG_ERR("doca_task_submit (STA %s task): its QP was destroyed (doca_sta_io_qp_destroy) after the "
			    "task was allocated, or never accepted; free the task with doca_task_free()",
			    t->kind == STA_IO_TASK_DISCONNECT ? "disconnect" : "non-offload");
		err = DOCA_ERROR_BAD_STATE;
	} else if (t->kind == STA_IO_TASK_DISCONNECT) {
		/* the host's QP sees the disconnect; capsules still on the disk are cleaned up at
		 * their completion, as after doca_sta_io_qp_destroy */
#ifdef SOFTDOCA_STA_DATA_PATH
		if (t->qp->cm_id != NULL && !t->qp->dead)
			rdma_disconnect(t->qp->cm_id);
#endif
		t->qp->dead = true;
		/*
		 * The QP's tasks still in flight end now, before this one: they were submitted
		 * earlier, so their callbacks come first, and once the disconnect task's callback
		 * ran no task submitted before it on this QP has a callback to come (the
		 * application may destroy the QP and free what its tasks' user data points at).
		 * Left to their verbs completions, an RDMA READ answered or flushed late ended
		 * after the disconnect and after doca_sta_io_qp_destroy.
		 */
		sta_qp_abort_tasks(t->qp);
		t->done = 1;
	} else if (s->state != SLOT_APP || s->task != NULL || s->seq != t->seq) {
		SDK_LOG_ERR("doca_task_submit (STA non-offload task): the command already has its response or a task in "
			    "flight (a later command may have its capsule buffer now); free the task with "
			    "doca_task_free()");
		err = DOCA_ERROR_BAD_STATE;
	} else if (t->qp->dead) {
		t->status = DOCA_ERROR_CONNECTION_ABORTED;
		t->done = 1;
		if (t->kind != STA_IO_TASK_READ)
			sta_dp_slot_done(s);
	} else if (t->kind == STA_IO_TASK_READ) {
		s->task = t;
		if (sta_dp_rdma_read(s) != 0) {
			s->task = NULL;
			t->status = DOCA_ERROR_CONNECTION_ABORTED;
			t->done = 1;
		}
	} else {
		/* the response: with the payload written to the host first (write-send) */
		bool write = t->kind == STA_IO_TASK_WRITE_SEND && s->keyed && s->len > 0;

		s->task = t;
		sta_dp_app_response(s, t->cqe);
		if (sta_dp_send_rsp(s, t->cqe, write) != 0) {
			s->task = NULL;
			t->status = DOCA_ERROR_CONNECTION_ABORTED;
			t->done = 1;
			sta_dp_slot_done(s);
		}
	}
	pthread_mutex_unlock(&io->dp->lock);
	return err;
}

static const struct softdoca_ctx_ops io_ops = {
	.name = "STA IO",
	.start = io_start,
	.stop = io_stop,
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
	for (uint32_t used = 1; used != 0;) { /* the lowest index no other IO context has */
		used = 0;
		for (const struct doca_sta_io *o = sta->ios; o != NULL; o = o->next)
			if (o->index == io->index)
				used = 1;
		if (used)
			io->index++;
	}
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
	if (softdoca_ctx_tasks_configured(&io->ctx, type) && io->ctx.pools[type].allocated) {
		SDK_LOG_ERR("%s: tasks of the previous configuration are still allocated; free them first", call);
		return DOCA_ERROR_IN_USE;
	}
	if (softdoca_ctx_conf_tasks(&io->ctx, type, type == STA_IO_TASK_DISCONNECT ? "disconnect" : "non-offload",
				    sizeof(struct doca_sta_producer_task_send), sta_task_done, sta_task_error,
				    STA_IO_TASKS) != DOCA_SUCCESS) {
		SDK_LOG_ERR("%s: out of memory for %u tasks", call, STA_IO_TASKS);
		return DOCA_ERROR_NO_MEMORY;
	}
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

/* ---- the application's side of the data path: non-offload capsules and tasks ---- */

static doca_error_t io_task_alloc(struct doca_sta_io *io, uint32_t type, int kind, union doca_data user_data,
				  struct doca_sta_qp_handle *qp, union doca_data nud, const uint8_t *cqe,
				  struct doca_sta_producer_task_send **task, const char *conf_call, const char *call)
{
	struct doca_sta_producer_task_send *t;
	struct sta_slot *slot = NULL;

	if (io == NULL || qp == NULL || task == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, io == NULL ? "sta_io" : qp == NULL ? "qp_handle" : "task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!io->task_cbs[type].set || !softdoca_ctx_tasks_configured(&io->ctx, type)) {
		SDK_LOG_ERR("%s: the task is not configured; call %s() before doca_ctx_start()", call, conf_call);
		return DOCA_ERROR_BAD_STATE;
	}
	if (io->ctx.state != DOCA_CTX_STATE_RUNNING || io->dp == NULL) {
		SDK_LOG_ERR("%s: the STA IO context is %s", call, softdoca_ctx_state_name(io->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	if (qp->io != io) {
		SDK_LOG_ERR("%s: the QP belongs to another IO context", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (kind != STA_IO_TASK_DISCONNECT && (slot = slot_of(qp, nud)) == NULL) {
		SDK_LOG_ERR("%s: non_offload_user_data is not the one the non-offload callback gave for a command of "
			    "this QP still waiting for its response",
			    call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	t = (struct doca_sta_producer_task_send *)softdoca_task_alloc(&io->ctx, type, user_data);
	if (t == NULL) {
		SDK_LOG_ERR("%s: all %u tasks are in use; free completed tasks with doca_task_free()", call, STA_IO_TASKS);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->subs = NULL;
	t->ns = NULL;
	t->beq = NULL;
	t->qp = qp;
	t->qp_id = qp->id;
	t->slot = slot;
	/* the nud's number, not the slot's again: a later command may be taking the slot meanwhile */
	t->seq = (uint32_t)(nud.u64 >> 32);
	t->kind = kind;
	t->done = 0;
	t->status = DOCA_SUCCESS;
	if (cqe != NULL)
		memcpy(t->cqe, cqe, sizeof(t->cqe));
	*task = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_task_disconnect_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
						    struct doca_sta_qp_handle *qp_handle, struct doca_sta_producer_task_send **task)
{
	return io_task_alloc(sta_io, STA_IO_TASK_DISCONNECT, STA_IO_TASK_DISCONNECT, user_data, qp_handle,
			     (union doca_data){0}, NULL, task, "doca_sta_io_task_disconnect_set_conf", __func__);
}

doca_error_t doca_sta_io_task_non_offload_rdma_write_send_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
								     struct doca_sta_qp_handle *qp_handle,
								     doca_sta_nvmef_completion_t completion,
								     union doca_data non_offload_user_data,
								     struct doca_sta_producer_task_send **task)
{
	if (completion == NULL) {
		SDK_LOG_ERR("%s: completion is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return io_task_alloc(sta_io, STA_IO_TASK_WRITE_SEND, STA_IO_TASK_WRITE_SEND, user_data, qp_handle,
			     non_offload_user_data, completion, task, "doca_sta_io_task_non_offload_set_rdma_write_send_conf",
			     __func__);
}

doca_error_t doca_sta_io_task_non_offload_rdma_send_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
							       struct doca_sta_qp_handle *qp_handle,
							       doca_sta_nvmef_completion_t completion,
							       union doca_data non_offload_user_data,
							       struct doca_sta_producer_task_send **task)
{
	if (completion == NULL) {
		SDK_LOG_ERR("%s: completion is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* a response without data goes through the write-send task type's configuration [inferred] */
	return io_task_alloc(sta_io, STA_IO_TASK_WRITE_SEND, STA_IO_TASK_SEND_ONLY, user_data, qp_handle,
			     non_offload_user_data, completion, task, "doca_sta_io_task_non_offload_set_rdma_write_send_conf",
			     __func__);
}

doca_error_t doca_sta_io_task_non_offload_rdma_read_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data,
							       struct doca_sta_qp_handle *qp_handle,
							       union doca_data non_offload_user_data,
							       struct doca_sta_producer_task_send **task)
{
	doca_error_t err = io_task_alloc(sta_io, STA_IO_TASK_READ, STA_IO_TASK_READ, user_data, qp_handle,
					 non_offload_user_data, NULL, task, "doca_sta_io_task_non_offload_set_rdma_read_conf",
					 __func__);

	if (err == DOCA_SUCCESS && !(*task)->slot->keyed) {
		SDK_LOG_ERR("%s: the command has no keyed SGL: its data (if any) came in the capsule, payload_valid was "
			    "true",
			    __func__);
		doca_task_free(&(*task)->base);
		*task = NULL;
		return DOCA_ERROR_INVALID_VALUE;
	}
	return err;
}
