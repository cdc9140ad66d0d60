/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * STA QPs: an RC QP made on the application's librdmacm id (softdoca's librdmacm and
 * libibverbs, over the soft NIC), its capsule buffers, accept and destroy (dp.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "dp.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_QP);

static doca_error_t io_ready(const struct doca_sta_io *io, const char *call)
{
	if (io == NULL) {
		SDK_LOG_ERR("%s: sta_io is NULL", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (io->ctx.state != DOCA_CTX_STATE_RUNNING || io->dp == NULL) {
		SDK_LOG_ERR("%s: the STA IO context is %s; start it and progress its PE until it is RUNNING first", call,
			    softdoca_ctx_state_name(io->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_qp_alloc(struct doca_sta_io *sta_io, const struct doca_dev *dev, struct doca_sta_qp_handle **qp_handle)
{
	doca_error_t err = io_ready(sta_io, __func__);
	struct doca_sta_qp_handle *qp;

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
	qp = calloc(1, sizeof(*qp));
	if (qp == NULL)
		return DOCA_ERROR_NO_MEMORY;
	qp->io = sta_io;
	qp->group = (uint16_t)sta_io->index;
	qp->id = __atomic_add_fetch(&sta_io->sta->next_qp_id, 1, __ATOMIC_RELAXED);
	*qp_handle = qp;
	return DOCA_SUCCESS;
}

/* The IO context's PD, completion channel and CQ, on the verbs context of its first id. */
static doca_error_t verbs_of(struct sta_io_dp *dp, struct ibv_context *verbs, const char *call)
{
	if (dp->verbs != NULL) {
		if (dp->verbs == verbs)
			return DOCA_SUCCESS;
		SDK_LOG_ERR("%s: the cm_id is on another RDMA device than this IO context's other QPs; use one IO "
			    "context per device",
			    call);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	dp->pd = ibv_alloc_pd(verbs);
	dp->chan = dp->pd != NULL ? ibv_create_comp_channel(verbs) : NULL;
	dp->cq = dp->chan != NULL ? ibv_create_cq(verbs, STA_CQ_ENTRIES, NULL, dp->chan, 0) : NULL;
	/* the EU polls the channel: ibv_get_cq_event must never block it (it holds dp->lock) */
	if (dp->cq == NULL || fcntl(dp->chan->fd, F_SETFL, fcntl(dp->chan->fd, F_GETFL) | O_NONBLOCK) != 0 ||
	    ibv_req_notify_cq(dp->cq, 0) != 0) {
		SDK_LOG_ERR("%s: cannot make the IO context's verbs PD, completion channel and CQ (errno %d)", call, errno);
		if (dp->cq != NULL)
			ibv_destroy_cq(dp->cq);
		if (dp->chan != NULL)
			ibv_destroy_comp_channel(dp->chan);
		if (dp->pd != NULL)
			ibv_dealloc_pd(dp->pd);
		dp->cq = NULL;
		dp->chan = NULL;
		dp->pd = NULL;
		return DOCA_ERROR_DRIVER;
	}
	dp->verbs = verbs;
	sta_dp_kick(dp); /* the EU polls the channel from now on */
	return DOCA_SUCCESS;
}

static void qp_release(struct doca_sta_qp_handle *qp)
{
	if (qp->slots != NULL)
		for (uint32_t i = 0; i < qp->nslots; i++) {
			if (qp->slots[i].data_mr != NULL)
				ibv_dereg_mr(qp->slots[i].data_mr);
			free(qp->slots[i].data);
			free(qp->slots[i].prp_list);
		}
	if (qp->capsule_mr != NULL)
		ibv_dereg_mr(qp->capsule_mr);
	free(qp->capsules);
	free(qp->slots);
	qp->slots = NULL;
	qp->capsules = NULL;
	qp->capsule_mr = NULL;
}

doca_error_t doca_sta_io_qp_accept(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle, const struct doca_dev *dev,
				   struct rdma_cm_id *cm_id, const void *priv_data, uint32_t priv_size,
				   struct doca_sta_subs_handle *subs_handle)
{
	doca_error_t err = io_ready(sta_io, __func__);
	const struct softhw_caps *caps;
	struct sta_io_dp *dp;
	struct doca_sta_qp_handle *qp = qp_handle;
	const uint8_t *pd = priv_data;

	if (err != DOCA_SUCCESS)
		return err;
	if (qp == NULL || dev == NULL || cm_id == NULL || (priv_data == NULL && priv_size != 0)) {
		SDK_LOG_ERR("%s: %s is NULL", __func__,
			    qp == NULL ? "qp_handle (allocate it with doca_sta_io_qp_alloc())"
			    : dev == NULL ? "dev"
			    : cm_id == NULL ? "cm_id"
					    : "priv_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sta_has_dev(sta_io->sta, dev)) {
		SDK_LOG_ERR("%s: the STA context does not know the device; add it with doca_sta_add_dev()", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->io != sta_io || qp->accepted) {
		SDK_LOG_ERR("%s: the QP is %s", __func__, qp->io != sta_io ? "another IO context's" : "already accepted");
		return DOCA_ERROR_BAD_STATE;
	}
	if (subs_handle != NULL && !sta_owns_subs(sta_io->sta, subs_handle)) {
		SDK_LOG_ERR("%s: the subsystem is not one of this STA context", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cm_id->verbs == NULL) {
		SDK_LOG_ERR("%s: the cm_id has no RDMA device (a connect-request id of librdmacm has one)", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	caps = sta_io->sta->caps;
	dp = sta_io->dp;
	pthread_mutex_lock(&dp->lock);
	/* the advertised limits: the IO context's EUs serve doca_sta_get_max_num_connected_qp_per_eu()
	 * QPs, the STA context doca_sta_get_max_qps() */
	if (dp->num_qps >= caps->sta_max_qps_per_eu) {
		pthread_mutex_unlock(&dp->lock);
		SDK_LOG_ERR("%s: the IO context has its %u QPs, the limit per EU (doca_sta_get_max_num_connected_qp_per_eu()); "
			    "reject the connection or use another IO context",
			    __func__, caps->sta_max_qps_per_eu);
		return DOCA_ERROR_FULL;
	}
	if (__atomic_add_fetch(&sta_io->sta->num_qps, 1, __ATOMIC_RELAXED) > caps->sta_max_qps) {
		__atomic_sub_fetch(&sta_io->sta->num_qps, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&dp->lock);
		SDK_LOG_ERR("%s: the STA context has its %u QPs, the limit (doca_sta_get_max_qps()); reject the connection",
			    __func__, caps->sta_max_qps);
		return DOCA_ERROR_FULL;
	}
	err = verbs_of(dp, cm_id->verbs, __func__);
	if (err != DOCA_SUCCESS) {
		__atomic_sub_fetch(&sta_io->sta->num_qps, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&dp->lock);
		return err;
	}
	/* the queue depth: the accept's CRQSIZE (NVMe-oF RDMA private data: recfmt, crqsize) */
	qp->depth = caps->sta_max_io_queue_size;
	if (priv_size >= 4 && (pd[0] | pd[1] << 8) == 0 && (pd[2] | pd[3] << 8) != 0 &&
	    (uint32_t)(pd[2] | pd[3] << 8) < qp->depth)
		qp->depth = (uint32_t)(pd[2] | pd[3] << 8);
	qp->capsule_size = caps->sta_max_ioccsz;
	/*
	 * Twice the receives the host may fill: a response's receive goes back only once its SEND
	 * completed here, and the host, which got the response first, sends the next capsule at
	 * once; with only `depth` receives it would find none (receiver not ready, a retry).
	 */
	qp->nslots = qp->depth * 2;
	qp->slots = calloc(qp->nslots, sizeof(*qp->slots));
	/*
	 * Each capsule starts STA_SQE bytes before a page: its in-capsule data is page-aligned, and
	 * a write's data goes to the disk from the receive buffer, with no copy (direct I/O takes it).
	 */
	qp->capsule_stride = (qp->capsule_size + 4096 - STA_SQE + 4095) / 4096 * 4096;
	qp->capsules = aligned_alloc(4096, (size_t)qp->nslots * qp->capsule_stride);
	qp->capsule_mr = qp->capsules != NULL ? ibv_reg_mr(dp->pd, qp->capsules, (size_t)qp->nslots * qp->capsule_stride,
							  IBV_ACCESS_LOCAL_WRITE)
					      : NULL;
	struct ibv_qp_init_attr a = {
		.send_cq = dp->cq, .recv_cq = dp->cq, .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
		.cap = {.max_send_wr = qp->nslots * 2 + 8, .max_recv_wr = qp->nslots, .max_send_sge = 1,
			.max_recv_sge = 1, .max_inline_data = STA_CQE},
	};
	if (qp->slots == NULL || qp->capsule_mr == NULL || rdma_create_qp(cm_id, dp->pd, &a) != 0) {
		SDK_LOG_ERR("%s: cannot make the QP (depth %u, capsules of %u bytes): errno %d", __func__, qp->depth,
			    qp->capsule_size, errno);
		qp_release(qp);
		__atomic_sub_fetch(&sta_io->sta->num_qps, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&dp->lock);
		return DOCA_ERROR_DRIVER;
	}
	qp->cm_id = cm_id;
	/* counted by the subsystem, which is not destroyed under its QPs */
	if (!sta_qp_set_subs(sta_io->sta, &qp->subs, subs_handle))
		SDK_LOG_ERR("%s: the subsystem was destroyed meanwhile: the QP has none (give it one with "
			    "doca_sta_io_qp_add_subsystem())",
			    __func__);
	for (uint32_t i = 0; i < qp->nslots; i++) {
		qp->slots[i].qp = qp;
		qp->slots[i].index = i;
		qp->slots[i].capsule = qp->capsules + (size_t)i * qp->capsule_stride + 4096 - STA_SQE;
		sta_dp_post_recv(qp, &qp->slots[i]);
	}
	struct rdma_conn_param cp = {.private_data = priv_data, .private_data_len = (uint8_t)priv_size,
				     .responder_resources = 16, .initiator_depth = 16, .rnr_retry_count = 7};

	if (rdma_accept(cm_id, &cp) != 0) {
		SDK_LOG_ERR("%s: rdma_accept failed: errno %d", __func__, errno);
		rdma_destroy_qp(cm_id);
		qp->cm_id = NULL;
		qp_release(qp);
		__atomic_sub_fetch(&sta_io->sta->num_qps, 1, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&dp->lock);
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	qp->accepted = true;
	qp->next = dp->qps;
	dp->qps = qp;
	dp->num_qps++;
	pthread_mutex_unlock(&dp->lock);
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_qp_connect(struct doca_sta_io *sta_io, const struct doca_dev *dev, struct rdma_cm_id *cm_id,
				    const void *priv_data, uint32_t priv_size, struct doca_sta_subs_handle *subs_handle,
				    struct doca_sta_qp_handle **qp_handle)
{
	doca_error_t err;

	if (qp_handle == NULL) {
		SDK_LOG_ERR("%s: qp_handle output pointer is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = doca_sta_io_qp_alloc(sta_io, dev, qp_handle);
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_sta_io_qp_accept(sta_io, *qp_handle, dev, cm_id, priv_data, priv_size, subs_handle);
	if (err != DOCA_SUCCESS) {
		free(*qp_handle);
		*qp_handle = NULL;
	}
	return err;
}

/* The calls on one accepted QP of a running IO context. */
static doca_error_t qp_call(struct doca_sta_io *io, const struct doca_sta_qp_handle *qp, const char *call)
{
	doca_error_t err = io_ready(io, call);

	if (err != DOCA_SUCCESS)
		return err;
	if (qp == NULL) {
		SDK_LOG_ERR("%s: qp_handle is NULL", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->io != io) {
		SDK_LOG_ERR("%s: the QP belongs to another IO context (every call on a QP comes from its own IO thread)",
			    call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_qp_connect_set_sq_size(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle,
						uint16_t sq_size)
{
	doca_error_t err = qp_call(sta_io, qp_handle, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	/* Fabrics Connect's SQSIZE is 0's based: the queue holds sq_size + 1 entries, at least 2 */
	if (sq_size == 0) {
		SDK_LOG_ERR("%s: SQ size 0 (0's based): a queue holds at least 2 entries (NVMe-oF Connect); reject the "
			    "Connect command (Invalid Parameters, SQSIZE)",
			    __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((uint32_t)sq_size + 1 > sta_io->sta->caps->sta_max_io_queue_size || (uint32_t)sq_size + 1 > qp_handle->depth) {
		SDK_LOG_ERR("%s: SQ size %u (0's based) is above the queue depth of %u (doca_sta_get_max_io_queue_size() "
			    "%u, this QP's receive queue %u); reject the Connect command",
			    __func__, sq_size,
			    qp_handle->depth < sta_io->sta->caps->sta_max_io_queue_size
				    ? qp_handle->depth
				    : sta_io->sta->caps->sta_max_io_queue_size,
			    sta_io->sta->caps->sta_max_io_queue_size, qp_handle->depth);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&sta_io->dp->lock);
	qp_handle->sq_size = (uint16_t)(sq_size + 1);
	/* the Connect capsule itself was the first entry taken off the queue */
	qp_handle->sqhd %= qp_handle->sq_size;
	pthread_mutex_unlock(&sta_io->dp->lock);
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_qp_connect_established(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle)
{
	doca_error_t err = qp_call(sta_io, qp_handle, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (!qp_handle->accepted) {
		SDK_LOG_ERR("%s: the QP was not accepted (doca_sta_io_qp_accept())", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	qp_handle->established = true;
	return DOCA_SUCCESS;
}

void sta_qp_free(struct doca_sta_qp_handle *qp)
{
	struct sta_io_dp *dp = qp->io->dp;

	for (struct doca_sta_qp_handle **pp = &dp->qps; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == qp) {
			*pp = qp->next;
			dp->num_qps--;
			__atomic_sub_fetch(&qp->io->sta->num_qps, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	sta_qp_set_subs(qp->io->sta, &qp->subs, NULL);
	qp_release(qp);
	/* a CQE-notify callback naming it runs now (the STA context's thread): it frees it on return */
	if (!sta_notes_keep_qp(qp->io->sta, qp))
		free(qp);
}

/*
 * The application's tasks in flight on the QP (RDMA READ, write-send, send) end at once with
 * CONNECTION_ABORTED: their verbs work may still complete, but no completion finishes them any
 * more (a slot's task is what completion() finishes). Submitted before whatever ends them (the
 * disconnect task, doca_sta_io_qp_destroy), they are ahead of it in the context's queue.
 */
void sta_qp_abort_tasks(struct doca_sta_qp_handle *qp)
{
	for (uint32_t i = 0; qp->slots != NULL && i < qp->nslots; i++) {
		struct sta_slot *s = &qp->slots[i];

		if (s->task != NULL) {
			s->task->status = DOCA_ERROR_CONNECTION_ABORTED;
			__atomic_store_n(&s->task->done, 1, __ATOMIC_RELEASE);
			s->task = NULL;
		}
	}
}

/* The host's side goes: the QP and the id, the capsules not on the disk. */
void sta_qp_destroy_locked(struct doca_sta_qp_handle *qp)
{
	struct sta_io_dp *dp = qp->io->dp;

	qp->dead = true;
	qp->destroyed = true;
	if (qp->cm_id != NULL) {
		rdma_destroy_qp(qp->cm_id);
		if (rdma_destroy_id(qp->cm_id) != 0)
			SDK_LOG_WARN("STA QP %u: rdma_destroy_id failed (errno %d): acknowledge the id's RDMA-CM events "
				     "before doca_sta_io_qp_destroy(); the id is left to the application",
				     qp->id, errno);
		qp->cm_id = NULL;
	}
	/* non-offload capsules not yet delivered */
	for (struct sta_nonoff **pp = &dp->nonoff_head; *pp != NULL;) {
		if ((*pp)->slot != NULL ? (*pp)->slot->qp == qp : (*pp)->qp == qp) {
			struct sta_nonoff *n = *pp;

			*pp = n->next;
			free(n);
		} else {
			pp = &(*pp)->next;
		}
	}
	dp->nonoff_tail = NULL;
	for (struct sta_nonoff *n = dp->nonoff_head; n != NULL; n = n->next)
		dp->nonoff_tail = n;
	/* and its CQE-notify events not yet delivered by the STA context: they name no QP any more */
	uint32_t notes = sta_notes_forget_qp(qp->io->sta, qp);

	if (notes != 0)
		SDK_LOG_INFO("STA QP %u destroyed with %u CQE-notify events not yet delivered (doca_pe_progress of the "
			     "STA context): they come naming no QP",
			     qp->id, notes);
	qp->busy = 0;
	sta_qp_abort_tasks(qp);
	for (uint32_t i = 0; i < qp->nslots; i++) {
		struct sta_slot *s = &qp->slots[i];

		if (s->state == SLOT_NVME && s->beq == NULL) { /* waiting for room on a back-end SQ */
			for (uint32_t b = 0; b < dp->num_beqs; b++) {
				struct sta_beq *q = dp->beqs[b];
				struct sta_slot *prev = NULL;

				for (struct sta_slot *w = q->wait_head; w != NULL; prev = w, w = w->wait_next) {
					if (w != s)
						continue;
					if (prev != NULL)
						prev->wait_next = w->wait_next;
					else
						q->wait_head = w->wait_next;
					if (q->wait_tail == w)
						q->wait_tail = prev;
					break;
				}
			}
			s->state = SLOT_RECV;
		}
		if (s->state == SLOT_NVME) {
			qp->busy++; /* the disk still has its buffer: freed at its completion */
		} else {
			if (s->ns != NULL) /* its command is over: a namespace being removed waits for it */
				sta_ns_put(s->ns);
			s->ns = NULL;
			s->state = SLOT_RECV;
		}
	}
	softdoca_pe_notify(qp->io->ctx.pe);
	if (qp->busy == 0)
		sta_qp_free(qp);
}

doca_error_t doca_sta_io_qp_destroy(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle)
{
	doca_error_t err = qp_call(sta_io, qp_handle, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (!qp_handle->accepted) { /* allocated, never accepted */
		sta_qp_set_subs(sta_io->sta, &qp_handle->subs, NULL);
		free(qp_handle);
		return DOCA_SUCCESS;
	}
	pthread_mutex_lock(&sta_io->dp->lock);
	sta_qp_destroy_locked(qp_handle);
	pthread_mutex_unlock(&sta_io->dp->lock);
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_qp_add_subsystem(struct doca_sta_io *sta_io, const struct doca_sta_subs_handle *subs_handle,
					  struct doca_sta_qp_handle *qp_handle)
{
	doca_error_t err;
	bool known;

	if (subs_handle == NULL) {
		SDK_LOG_ERR("%s: subs_handle is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = qp_call(sta_io, qp_handle, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	pthread_mutex_lock(&sta_io->dp->lock);
	known = sta_qp_set_subs(sta_io->sta, &qp_handle->subs, subs_handle);
	pthread_mutex_unlock(&sta_io->dp->lock);
	if (!known) {
		SDK_LOG_ERR("%s: the subsystem is not one of this STA context (or was destroyed)", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_qp_set_user_data(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle,
					  union doca_data user_data)
{
	doca_error_t err = qp_call(sta_io, qp_handle, __func__);

	if (err == DOCA_SUCCESS)
		qp_handle->user_data = user_data;
	return err;
}

static doca_error_t qp_get(const void *qp, const void *out, const char *call)
{
	if (qp == NULL || out == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, qp == NULL ? "qp_handle" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_io_qp_get_user_data(const struct doca_sta_qp_handle *qp_handle, union doca_data *user_data)
{
	doca_error_t err = qp_get(qp_handle, user_data, __func__);

	if (err == DOCA_SUCCESS)
		*user_data = qp_handle->user_data;
	return err;
}

doca_error_t doca_sta_io_qp_get_id(struct doca_sta_qp_handle *qp_handle, uint32_t *qp_id)
{
	doca_error_t err = qp_get(qp_handle, qp_id, __func__);

	if (err == DOCA_SUCCESS)
		*qp_id = qp_handle->id;
	return err;
}

doca_error_t doca_sta_io_qp_get_port_id(struct doca_sta_qp_handle *qp_handle, uint16_t *port_id)
{
	doca_error_t err = qp_get(qp_handle, port_id, __func__);

	if (err == DOCA_SUCCESS)
		*port_id = 0; /* one port per soft device */
	return err;
}

/* A QP's group is its IO context (its EUs); its index is its place among that context's QPs. */
doca_error_t doca_sta_io_qp_get_group_id(struct doca_sta_qp_handle *qp_handle, uint16_t *group_id)
{
	doca_error_t err = qp_get(qp_handle, group_id, __func__);

	if (err == DOCA_SUCCESS)
		*group_id = qp_handle->group;
	return err;
}

doca_error_t doca_sta_io_qp_get_index_in_group(struct doca_sta_qp_handle *qp_handle, uint16_t *qp_idx)
{
	doca_error_t err = qp_get(qp_handle, qp_idx, __func__);

	if (err == DOCA_SUCCESS)
		*qp_idx = (uint16_t)(qp_handle->id & 0xffff);
	return err;
}
