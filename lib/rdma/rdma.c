/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma: the context, its configuration and how it plugs into the core.
 *
 * doca_ctx_start creates the soft NIC endpoint and returns SUCCESS (RUNNING at once, as DOCA's
 * RDMA does); connections are made while RUNNING. doca_ctx_stop takes the completions already
 * there, takes back the posted receives, closes every qp and destroys the endpoint, so no
 * memory of a task is touched after its flush; the core then flushes what is still in flight
 * through the error callbacks.
 *
 * A stop from inside a callback of the context's PE, once the context made a connection since
 * it started (export, connect_to_addr or a connection request), is asynchronous:
 * doca_ctx_stop returns IN_PROGRESS, the context is STOPPING and reaches IDLE, state callback
 * included, in a later doca_pe_progress. NVIDIA's programs show both halves of DOCA's rule:
 * rdma_sync_event_requester stops from its completion callback and wants IN_PROGRESS; the
 * storage applications stop a connected data context with no task, outside any callback, and
 * destroy it at once (SUCCESS wanted). Without a connection, or outside a callback with no task
 * allocated, the stop returns SUCCESS and the context is IDLE at once. A datapath on the DPA
 * stops synchronously (NVIDIA's dpa_all_to_all expects SUCCESS).
 */
#include <stdlib.h>

#include "rdma_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMA);

bool drdma_not_idle(const struct doca_rdma *rdma, const char *call)
{
	if (rdma->ctx.state == DOCA_CTX_STATE_IDLE)
		return false;
	SDK_LOG_ERR("%s: the RDMA context is %s; configure it before doca_ctx_start() (or stop it and wait for "
		    "IDLE)",
		    call, softdoca_ctx_state_name(rdma->ctx.state));
	return true;
}

static void drdma_notify(void *arg)
{
	softdoca_pe_notify((struct doca_pe *)arg);
}

/* ---- ctx ops ---- */

static doca_error_t drdma_start(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = drdma_of(ctx);
	const struct softhw_rnic_ops *nic = drdma_nic(rdma);
	struct softhw_rnic_ep_attr attr;
	doca_error_t err;

	if (nic == NULL) {
		SDK_LOG_ERR("Failed to start RDMA context: device %s has no RDMA NIC",
			    rdma->dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	drdma_conns_free(rdma); /* connections of a previous run; must be made again (export/connect) */
	rdma->had_conns = false;
	rdma->event_held = false;
	attr = (struct softhw_rnic_ep_attr){
		.fn = rdma->dev->devinfo->fn,
		.access = rdma->permissions,
		.max_qps = rdma->max_num_connections,
		.max_recv_sge = rdma->recv_buf_list_len,
		.max_send_sge = rdma->max_send_buf_list_len,
		.max_msg_size = rdma->caps->rdma_max_message_size,
		.rnr_retry_count = rdma->rnr_retry_count,
		.cm_timeout_ms = rdma->cm_timeout_ms,
		.mtu_log = rdma->mtu_set ? (uint8_t)(8 + rdma->mtu) : 0, /* 256 B is 2^8 */
		.dc = rdma->transport == DOCA_RDMA_TRANSPORT_TYPE_DC,
		.notify = drdma_notify,
		.notify_arg = ctx->pe,
	};
	if (ctx->dpa != NULL) {
		err = drdma_dpa_start(rdma, &attr);
		if (err != DOCA_SUCCESS)
			return err;
	}
	err = nic->ep_create(&attr, &rdma->ep);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start RDMA context: the NIC could not create its endpoint: %s",
			    doca_error_get_descr(err));
		rdma->ep = NULL;
		drdma_dpa_free(rdma);
		return err;
	}
	if (rdma->dpa != NULL)
		drdma_dpa_started(rdma);
	return DOCA_SUCCESS;
}

/* Records every completion already queued (their tasks keep their real outcome). */
static void drain_wr_cqes(struct doca_rdma *rdma)
{
	struct softhw_rnic_cqe cqe;

	while (drdma_nic(rdma)->ep_poll(rdma->ep, &cqe, 1) > 0)
		if (cqe.kind == SOFTHW_RNIC_CQE_WR)
			drdma_task_cqe(rdma, &cqe);
}

static doca_error_t drdma_stop(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = drdma_of(ctx);
	const struct softhw_rnic_ops *nic = drdma_nic(rdma);

	if (rdma->ep == NULL)
		return DOCA_SUCCESS;
	if (rdma->dpa != NULL) {
		/* no poll runs any more; what is left concerns nobody (the DPA threads read no more) */
		struct softhw_rnic_cqe cqe;

		drdma_dpa_stop(rdma);
		drdma_dpa_lock(rdma); /* a device post in progress finishes first */
		nic->ep_flush_recv(rdma->ep, SOFTDOCA_FLUSH_STATUS);
		while (nic->ep_poll(rdma->ep, &cqe, 1) > 0)
			if (cqe.kind != SOFTHW_RNIC_CQE_WR)
				drdma_conn_event(rdma, &cqe);
		drdma_conns_close(rdma);
		nic->ep_destroy(rdma->ep);
		rdma->ep = NULL;
		rdma->num_ports = 0;
		drdma_dpa_unlock(rdma);
		drdma_dpa_free(rdma);
		return DOCA_SUCCESS;
	}
	/*
	 * The endpoint goes now, the IDLE comes later: tearing down here keeps "no completion and
	 * no connection callback after doca_ctx_stop" (nothing of the NIC is left to poll while
	 * STOPPING); deferring only the transition is all a program can observe of a NIC's flush.
	 */
	drain_wr_cqes(rdma);
	rdma->event_held = false; /* no connection callback after doca_ctx_stop */
	rdma->stopping = true;
	nic->ep_flush_recv(rdma->ep, SOFTDOCA_FLUSH_STATUS);
	drain_wr_cqes(rdma);
	drdma_conns_close(rdma);
	nic->ep_destroy(rdma->ep);
	rdma->stopping = false;
	rdma->ep = NULL;
	rdma->num_ports = 0;
	/* in a callback: the core keeps ctx->lib_busy until drdma_progress clears it */
	return rdma->had_conns && ctx->pe != NULL && ctx->pe->in_progress ? DOCA_ERROR_IN_PROGRESS : DOCA_SUCCESS;
}

/* An asynchronous stop whose endpoint is gone: the next progress may finish it (IDLE). */
static bool stop_pending(const struct doca_rdma *rdma)
{
	return rdma->ep == NULL && rdma->ctx.state == DOCA_CTX_STATE_STOPPING && rdma->ctx.lib_busy;
}

/*
 * One poll of the NIC per progress (each poll reads its sockets): work completions mark their
 * tasks done (the core then completes them); a connection event, always the batch's last, runs
 * one user callback, which may stop or destroy the context. An event behind completions is held
 * until their callbacks ran (the core completes ready tasks before it calls us again): a task
 * that failed with its connection reaches its error callback first, as the CQE that reports it
 * comes first on hardware (NVIDIA's samples clean up in the task's callback, and end their loop
 * in the connection's).
 */
static bool drdma_progress(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = drdma_of(ctx);
	struct softhw_rnic_cqe cqes[64];
	int n;

	if (stop_pending(rdma)) {
		/* false: the core moves the context to IDLE in this same call once its tasks are freed */
		ctx->lib_busy = false;
		return false;
	}
	if (rdma->ep == NULL || rdma->dpa != NULL)
		return false; /* a DPA datapath completes on the DPA (rdma_dpa.c) */
	if (rdma->event_held) {
		struct softhw_rnic_cqe e = rdma->held_event;

		rdma->event_held = false;
		drdma_conn_event(rdma, &e);
		return true;
	}
	n = drdma_nic(rdma)->ep_poll(rdma->ep, cqes, (int)(sizeof(cqes) / sizeof(cqes[0])));
	if (n > 1 && cqes[n - 1].kind != SOFTHW_RNIC_CQE_WR) {
		rdma->held_event = cqes[--n]; /* (the batch's last) */
		rdma->event_held = true;
	}
	if (n > 0 && cqes[n - 1].kind == SOFTHW_RNIC_CQE_WR)
		ctx->pe->only_marked = true; /* no connection event: no callback runs below */
	for (int i = 0; i < n; i++) {
		if (cqes[i].kind == SOFTHW_RNIC_CQE_WR)
			drdma_task_cqe(rdma, &cqes[i]);
		else
			drdma_conn_event(rdma, &cqes[i]); /* always the batch's last */
	}
	return n > 0;
}

static bool drdma_arm(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = drdma_of(ctx);

	/* A pending stop is work: a PE sleeping on its notification handle must wake for its IDLE. */
	if (stop_pending(rdma) || rdma->event_held)
		return true;
	return rdma->ep != NULL && rdma->dpa == NULL && drdma_nic(rdma)->ep_arm(rdma->ep);
}

static const struct softdoca_ctx_ops rdma_ops = {
	.name = "RDMA",
	.start = drdma_start,
	.stop = drdma_stop,
	.progress = drdma_progress,
	.arm = drdma_arm,
	.check = drdma_task_check,
	.prepare = drdma_task_prepare,
	.complete = drdma_task_complete,
	.stop_on_error = false,
	.dpa_datapath = true,
};

/* ---- context ---- */

doca_error_t doca_rdma_create(struct doca_dev *dev, struct doca_rdma **rdma)
{
	struct doca_rdma *r;
	const struct softhw_caps *caps;

	if (dev == NULL || rdma == NULL) {
		SDK_LOG_ERR("Failed to create RDMA context: %s is NULL", dev == NULL ? "dev" : "rdma output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	caps = softdoca_dev_caps(dev);
	if (!caps->rdma) {
		SDK_LOG_ERR("Failed to create RDMA context: device %s has no RDMA support (check "
			    "doca_rdma_cap_transport_type_is_supported() when choosing the device)",
			    dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		SDK_LOG_ERR("Failed to create RDMA context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&r->ctx, dev, &rdma_ops);
	r->dev = dev;
	r->caps = caps;
	r->send_queue_size = DRDMA_DEFAULT_QUEUE_SIZE;
	r->recv_queue_size = DRDMA_DEFAULT_QUEUE_SIZE;
	r->max_send_buf_list_len = DRDMA_DEFAULT_BUF_LIST_LEN;
	r->recv_buf_list_len = DRDMA_DEFAULT_BUF_LIST_LEN;
	r->transport = DOCA_RDMA_TRANSPORT_TYPE_RC;
	r->mtu = DRDMA_DEFAULT_MTU;
	r->permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	r->grh_enabled = 1; /* RoCE needs the GRH */
	r->cm_timeout_ms = DRDMA_DEFAULT_CM_TIMEOUT_MS;
	r->max_num_connections = DRDMA_DEFAULT_MAX_CONNECTIONS;
	r->rnr_retry_count = DRDMA_DEFAULT_RNR_RETRY;
	softdoca_dev_hold(dev);
	*rdma = r;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_destroy(struct doca_rdma *rdma)
{
	if (rdma == NULL) {
		SDK_LOG_ERR("Failed to destroy RDMA context: rdma is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy RDMA context: it is %s; call doca_ctx_stop() and progress the PE "
			    "until the context is IDLE",
			    softdoca_ctx_state_name(rdma->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	drdma_conns_free(rdma);
	drdma_dpa_detach(rdma);
	softdoca_ctx_fini(&rdma->ctx);
	softdoca_dev_release(rdma->dev);
	free(rdma);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_rdma_as_ctx(struct doca_rdma *rdma)
{
	return rdma != NULL ? &rdma->ctx : NULL;
}

/* ---- setters (IDLE only) and getters ---- */

static uint32_t round_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return p;
}

doca_error_t doca_rdma_set_send_queue_size(struct doca_rdma *rdma, uint32_t send_queue_size)
{
	SETTER_PRE("doca_rdma_set_send_queue_size");
	if (send_queue_size == 0 || send_queue_size > rdma->caps->rdma_max_send_queue_size) {
		SDK_LOG_ERR("doca_rdma_set_send_queue_size: %u is out of range; the device allows 1 to %u (see "
			    "doca_rdma_cap_get_max_send_queue_size())",
			    send_queue_size, rdma->caps->rdma_max_send_queue_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->send_queue_size = round_pow2(send_queue_size);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_recv_queue_size(struct doca_rdma *rdma, uint32_t recv_queue_size)
{
	SETTER_PRE("doca_rdma_set_recv_queue_size");
	if (recv_queue_size == 0 || recv_queue_size > rdma->caps->rdma_max_recv_queue_size) {
		SDK_LOG_ERR("doca_rdma_set_recv_queue_size: %u is out of range; the device allows 1 to %u (see "
			    "doca_rdma_cap_get_max_recv_queue_size())",
			    recv_queue_size, rdma->caps->rdma_max_recv_queue_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->recv_queue_size = round_pow2(recv_queue_size);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_max_send_buf_list_len(struct doca_rdma *rdma, uint32_t max_send_buf_list_len)
{
	SETTER_PRE("doca_rdma_set_max_send_buf_list_len");
	if (max_send_buf_list_len == 0 || max_send_buf_list_len > rdma->caps->rdma_max_send_buf_list_len) {
		SDK_LOG_ERR("doca_rdma_set_max_send_buf_list_len: %u is out of range; the device allows 1 to %u "
			    "(see doca_rdma_cap_get_max_send_buf_list_len())",
			    max_send_buf_list_len, rdma->caps->rdma_max_send_buf_list_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->max_send_buf_list_len = max_send_buf_list_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_transport_type(struct doca_rdma *rdma, enum doca_rdma_transport_type transport_type)
{
	SETTER_PRE("doca_rdma_set_transport_type");
	if (transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC && transport_type != DOCA_RDMA_TRANSPORT_TYPE_DC) {
		SDK_LOG_ERR("doca_rdma_set_transport_type: unknown transport type %d; use "
			    "DOCA_RDMA_TRANSPORT_TYPE_RC or DOCA_RDMA_TRANSPORT_TYPE_DC",
			    (int)transport_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC && !rdma->caps->rdma_dc) {
		SDK_LOG_ERR("doca_rdma_set_transport_type: device %s has no DC transport (ConnectX-7 and BlueField-3 "
			    "have it); use RC (check doca_rdma_cap_transport_type_is_supported())",
			    rdma->dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	rdma->transport = transport_type;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_mtu(struct doca_rdma *rdma, enum doca_mtu_size mtu)
{
	SETTER_PRE("doca_rdma_set_mtu");
	if ((unsigned)mtu > DOCA_MTU_SIZE_4K_BYTES) {
		SDK_LOG_ERR("doca_rdma_set_mtu: MTU %d is not an RDMA MTU; use DOCA_MTU_SIZE_256_BYTES to "
			    "DOCA_MTU_SIZE_4K_BYTES",
			    (int)mtu);
		return (unsigned)mtu == DOCA_MTU_SIZE_RAW_ETHERNET ? DOCA_ERROR_NOT_SUPPORTED : DOCA_ERROR_INVALID_VALUE;
	}
	rdma->mtu = mtu;
	rdma->mtu_set = true;
	return DOCA_SUCCESS;
}

#define DRDMA_PERMISSION_MASK \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC)

doca_error_t doca_rdma_set_permissions(struct doca_rdma *rdma, uint32_t permissions)
{
	SETTER_PRE("doca_rdma_set_permissions");
	if (permissions & ~(uint32_t)DRDMA_PERMISSION_MASK) {
		SDK_LOG_ERR("doca_rdma_set_permissions: 0x%x has flags that are not RDMA access flags; use "
			    "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, _RDMA_READ, _RDMA_WRITE and _RDMA_ATOMIC only",
			    permissions);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->permissions = permissions;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_grh_enabled(struct doca_rdma *rdma, uint8_t grh_enabled)
{
	SETTER_PRE("doca_rdma_set_grh_enabled");
	rdma->grh_enabled = grh_enabled ? 1 : 0;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_gid_index(struct doca_rdma *rdma, uint32_t gid_index)
{
	SETTER_PRE("doca_rdma_set_gid_index");
	if (gid_index >= rdma->caps->rdma_gid_table_size) {
		SDK_LOG_ERR("doca_rdma_set_gid_index: index %u is beyond the device's GID table of %u entries (see "
			    "doca_rdma_cap_get_gid_table_size())",
			    gid_index, rdma->caps->rdma_gid_table_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->gid_index = gid_index;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_sl(struct doca_rdma *rdma, uint32_t sl)
{
	SETTER_PRE("doca_rdma_set_sl");
	if (sl > 15) {
		SDK_LOG_ERR("doca_rdma_set_sl: service level %u is out of range 0 to 15", sl);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->sl = sl;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_connection_request_timeout(struct doca_rdma *rdma, uint16_t timeout)
{
	SETTER_PRE("doca_rdma_set_connection_request_timeout");
	if (timeout == 0) {
		SDK_LOG_ERR("doca_rdma_set_connection_request_timeout: a timeout of 0 ms can never be met");
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->cm_timeout_ms = timeout;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_max_num_connections(struct doca_rdma *rdma, uint16_t max_num_connections)
{
	SETTER_PRE("doca_rdma_set_max_num_connections");
	if (max_num_connections == 0 || max_num_connections > rdma->caps->rdma_max_num_connections) {
		SDK_LOG_ERR("doca_rdma_set_max_num_connections: %u is out of range; the device allows 1 to %u",
			    max_num_connections, rdma->caps->rdma_max_num_connections);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->max_num_connections = max_num_connections;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_rnr_retry_count(struct doca_rdma *rdma, uint8_t rnr_retry_count)
{
	SETTER_PRE("doca_rdma_set_rnr_retry_count");
	if (rnr_retry_count > 7) {
		SDK_LOG_ERR("doca_rdma_set_rnr_retry_count: %u is out of range 0 to 7 (7 retries for ever)",
			    rnr_retry_count);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->rnr_retry_count = rnr_retry_count;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_set_connection_state_callbacks(struct doca_rdma *rdma,
						      doca_rdma_connection_request_cb_t doca_rdma_connect_request_cb,
						      doca_rdma_connection_established_cb_t doca_rdma_connect_established_cb,
						      doca_rdma_connection_failure_cb_t doca_rdma_connect_failure_cb,
						      doca_rdma_connection_disconnection_cb_t doca_rdma_disconnect_cb)
{
	SETTER_PRE("doca_rdma_set_connection_state_callbacks");
	if (doca_rdma_connect_established_cb == NULL || doca_rdma_connect_failure_cb == NULL ||
	    doca_rdma_disconnect_cb == NULL) {
		SDK_LOG_ERR("doca_rdma_set_connection_state_callbacks: the %s callback is NULL; only the request "
			    "callback may be NULL (a pure client)",
			    doca_rdma_connect_established_cb == NULL ? "established"
			    : doca_rdma_connect_failure_cb == NULL   ? "failure"
								     : "disconnection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->request_cb = doca_rdma_connect_request_cb;
	rdma->established_cb = doca_rdma_connect_established_cb;
	rdma->failure_cb = doca_rdma_connect_failure_cb;
	rdma->disconnect_cb = doca_rdma_disconnect_cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_send_queue_size(const struct doca_rdma *rdma, uint32_t *send_queue_size)
{
	GETTER("doca_rdma_get_send_queue_size", send_queue_size);
	*send_queue_size = rdma->send_queue_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_recv_queue_size(const struct doca_rdma *rdma, uint32_t *recv_queue_size)
{
	GETTER("doca_rdma_get_recv_queue_size", recv_queue_size);
	*recv_queue_size = rdma->recv_queue_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_max_send_buf_list_len(const struct doca_rdma *rdma, uint32_t *max_send_buf_list_len)
{
	GETTER("doca_rdma_get_max_send_buf_list_len", max_send_buf_list_len);
	*max_send_buf_list_len = rdma->max_send_buf_list_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_transport_type(const struct doca_rdma *rdma, enum doca_rdma_transport_type *transport_type)
{
	GETTER("doca_rdma_get_transport_type", transport_type);
	*transport_type = rdma->transport;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_mtu(const struct doca_rdma *rdma, enum doca_mtu_size *mtu)
{
	GETTER("doca_rdma_get_mtu", mtu);
	*mtu = rdma->mtu;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_permissions(struct doca_rdma *rdma, uint32_t *permissions)
{
	GETTER("doca_rdma_get_permissions", permissions);
	*permissions = rdma->permissions;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_grh_enabled(const struct doca_rdma *rdma, uint8_t *grh_enabled)
{
	GETTER("doca_rdma_get_grh_enabled", grh_enabled);
	*grh_enabled = rdma->grh_enabled;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_gid_index(const struct doca_rdma *rdma, uint32_t *gid_index)
{
	GETTER("doca_rdma_get_gid_index", gid_index);
	*gid_index = rdma->gid_index;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_sl(const struct doca_rdma *rdma, uint32_t *sl)
{
	GETTER("doca_rdma_get_sl", sl);
	*sl = rdma->sl;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_connection_request_timeout(const struct doca_rdma *rdma, uint16_t *timeout)
{
	GETTER("doca_rdma_get_connection_request_timeout", timeout);
	*timeout = rdma->cm_timeout_ms;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_max_num_connections(struct doca_rdma *rdma, uint16_t *max_num_connections)
{
	GETTER("doca_rdma_get_max_num_connections", max_num_connections);
	*max_num_connections = rdma->max_num_connections;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_get_rnr_retry_count(const struct doca_rdma *rdma, uint8_t *rnr_retry_count)
{
	GETTER("doca_rdma_get_rnr_retry_count", rnr_retry_count);
	*rnr_retry_count = rdma->rnr_retry_count;
	return DOCA_SUCCESS;
}

/* ---- GPU datapath: not emulated (docs/compatibility.md); the DPA one is rdma_dpa.c ---- */

doca_error_t doca_rdma_get_gpu_handle(struct doca_rdma *rdma, struct doca_gpu_dev_rdma **gpu_rdma)
{
	if (rdma == NULL || gpu_rdma == NULL) {
		SDK_LOG_ERR("doca_rdma_get_gpu_handle: %s is NULL", rdma == NULL ? "rdma" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_rdma_get_gpu_handle: softdoca emulates no GPU (docs/compatibility.md); run the RDMA "
		    "datapath on the CPU");
	return DOCA_ERROR_NOT_SUPPORTED;
}
