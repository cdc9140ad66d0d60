/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A build without rdma-core's headers has no librdmacm to take ids from: the QP calls refuse
 * (DOCA_ERROR_NOT_SUPPORTED, logged) and IO contexts run with nothing to carry.
 */
#include "dp.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_QP);

static doca_error_t no_dp(const char *call)
{
	SDK_LOG_ERR("%s: this softdoca was built without rdma-core's headers, so without librdmacm: STA has no QPs "
		    "(docs/sta.md)",
		    call);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* As with the data path: the IO context must run first, then the refusal. */
static doca_error_t no_dp_io(const struct doca_sta_io *io, const char *call)
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
	return no_dp(call);
}

doca_error_t sta_dp_io_start(struct doca_sta_io *io)
{
	(void)io;
	return DOCA_SUCCESS;
}

void sta_dp_io_stop(struct doca_sta_io *io)
{
	(void)io;
}

void sta_dp_post_recv(struct doca_sta_qp_handle *qp, struct sta_slot *s)
{
	(void)qp;
	(void)s;
}

int sta_dp_send_rsp(struct sta_slot *s, const uint8_t *cqe, bool write_data)
{
	(void)s;
	(void)cqe;
	(void)write_data;
	return -1;
}

int sta_dp_rdma_read(struct sta_slot *s)
{
	(void)s;
	return -1;
}

void sta_dp_slot_done(struct sta_slot *s)
{
	(void)s;
}

void sta_qp_abort_tasks(struct doca_sta_qp_handle *qp)
{
	(void)qp;
}

void sta_dp_app_response(struct sta_slot *s, const uint8_t *cqe)
{
	(void)s;
	(void)cqe;
}

doca_error_t doca_sta_io_qp_alloc(struct doca_sta_io *sta_io, const struct doca_dev *dev, struct doca_sta_qp_handle **qp_handle)
{
	(void)sta_io, (void)dev, (void)qp_handle;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_accept(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle, const struct doca_dev *dev,
				   struct rdma_cm_id *cm_id, const void *priv_data, uint32_t priv_size,
				   struct doca_sta_subs_handle *subs_handle)
{
	(void)sta_io, (void)qp_handle, (void)dev, (void)cm_id, (void)priv_data, (void)priv_size, (void)subs_handle;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_connect(struct doca_sta_io *sta_io, const struct doca_dev *dev, struct rdma_cm_id *cm_id,
				    const void *priv_data, uint32_t priv_size, struct doca_sta_subs_handle *subs_handle,
				    struct doca_sta_qp_handle **qp_handle)
{
	(void)sta_io, (void)dev, (void)cm_id, (void)priv_data, (void)priv_size, (void)subs_handle, (void)qp_handle;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_connect_set_sq_size(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle,
						uint16_t sq_size)
{
	(void)sta_io, (void)qp_handle, (void)sq_size;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_connect_established(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle)
{
	(void)sta_io, (void)qp_handle;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_destroy(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle)
{
	(void)sta_io, (void)qp_handle;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_add_subsystem(struct doca_sta_io *sta_io, const struct doca_sta_subs_handle *subs_handle,
					  struct doca_sta_qp_handle *qp_handle)
{
	(void)sta_io, (void)subs_handle, (void)qp_handle;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_set_user_data(struct doca_sta_io *sta_io, struct doca_sta_qp_handle *qp_handle,
					  union doca_data user_data)
{
	(void)sta_io, (void)qp_handle, (void)user_data;
	return no_dp_io(sta_io, __func__);
}

doca_error_t doca_sta_io_qp_get_user_data(const struct doca_sta_qp_handle *qp_handle, union doca_data *user_data)
{
	(void)qp_handle, (void)user_data;
	return no_dp(__func__);
}

doca_error_t doca_sta_io_qp_get_id(struct doca_sta_qp_handle *qp_handle, uint32_t *qp_id)
{
	(void)qp_handle, (void)qp_id;
	return no_dp(__func__);
}

doca_error_t doca_sta_io_qp_get_port_id(struct doca_sta_qp_handle *qp_handle, uint16_t *port_id)
{
	(void)qp_handle, (void)port_id;
	return no_dp(__func__);
}

doca_error_t doca_sta_io_qp_get_group_id(struct doca_sta_qp_handle *qp_handle, uint16_t *group_id)
{
	(void)qp_handle, (void)group_id;
	return no_dp(__func__);
}

doca_error_t doca_sta_io_qp_get_index_in_group(struct doca_sta_qp_handle *qp_handle, uint16_t *qp_idx)
{
	(void)qp_handle, (void)qp_idx;
	return no_dp(__func__);
}
