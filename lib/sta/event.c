/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The getters of STA events. Registration and delivery are in sta.c (back-end time-out, EU
 * error, CQE notify) and io.c (transport error); the data path raises them (dp.c, docs/sta.md).
 */
#include <string.h>

#include "sta_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_EVENT);

#define EVENT_GET(fn, type, out_type, expr) \
	doca_error_t fn(const struct type *event, out_type out) \
	{ \
		if (event == NULL || out == NULL) { \
			SDK_LOG_ERR("%s: %s is NULL", #fn, event == NULL ? "event" : "output"); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
		*out = (expr); \
		return DOCA_SUCCESS; \
	}

EVENT_GET(doca_sta_event_transport_err_get_qp_handle, doca_sta_event_transport_err, const struct doca_sta_qp_handle **,
	  event->qp)
EVENT_GET(doca_sta_event_transport_err_get_operation, doca_sta_event_transport_err, uint32_t *, event->operation)
EVENT_GET(doca_sta_event_transport_err_get_syndrome, doca_sta_event_transport_err, uint32_t *, event->syndrome)
EVENT_GET(doca_sta_event_transport_err_get_vendor_syndrome, doca_sta_event_transport_err, uint32_t *,
	  event->vendor_syndrome)
EVENT_GET(doca_sta_event_be_timeout_get_be_handle, doca_sta_event_be_timeout, const struct doca_sta_be_handle **, event->be)
EVENT_GET(doca_sta_event_be_timeout_get_be_queue_handle, doca_sta_event_be_timeout, const struct doca_sta_be_q_handle **,
	  event->beq)
EVENT_GET(doca_sta_event_eu_err_is_fatal_error, doca_sta_event_eu_err, bool *, event->fatal)
EVENT_GET(doca_sta_event_cqe_notify_get_cqe_notify_type, doca_sta_event_cqe_notify, enum doca_sta_cqe_notify_type *,
	  event->type)
EVENT_GET(doca_sta_event_cqe_notify_get_subsystem_handle, doca_sta_event_cqe_notify, const struct doca_sta_subs_handle **,
	  event->subs)
EVENT_GET(doca_sta_event_cqe_notify_get_param_err_location, doca_sta_event_cqe_notify, uint16_t *, event->pel)

/* The QP may have been destroyed before the event came: the event names none then. */
doca_error_t doca_sta_event_cqe_notify_get_qp_handle(const struct doca_sta_event_cqe_notify *event,
						     const struct doca_sta_qp_handle **qp_handle)
{
	if (event == NULL || qp_handle == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", __func__, event == NULL ? "event" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*qp_handle = event->qp;
	if (event->qp == NULL) {
		SDK_LOG_INFO("%s: the QP was destroyed (doca_sta_io_qp_destroy) before the event was delivered: it "
			     "names none",
			     __func__);
		return DOCA_ERROR_NOT_FOUND;
	}
	return DOCA_SUCCESS;
}

/* Meaningful for non-fatal errors only (DOCA STA guide). */
doca_error_t doca_sta_event_eu_err_get_eu_handle(const struct doca_sta_event_eu_err *event,
						 const struct doca_sta_eu_handle **eu_handle)
{
	if (event == NULL || eu_handle == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", __func__, event == NULL ? "event" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (event->fatal) {
		SDK_LOG_ERR("%s: the error is fatal, so it names no EU", __func__);
		return DOCA_ERROR_NOT_FOUND;
	}
	*eu_handle = event->eu;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_event_cqe_notify_get_cqe(const struct doca_sta_event_cqe_notify *event, doca_sta_nvme_completion_t cqe)
{
	if (event == NULL || cqe == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", __func__, event == NULL ? "event" : "cqe");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(cqe, event->cqe, DOCA_STA_COMPLETION_SIZE);
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_event_cqe_notify_get_capsule_params(const struct doca_sta_event_cqe_notify *event, uint8_t *opcode,
							  uint16_t *cid, uint16_t *nsid, uint64_t *lba)
{
	if (event == NULL || opcode == NULL || cid == NULL || nsid == NULL || lba == NULL) {
		SDK_LOG_ERR("%s: an argument is NULL", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*opcode = event->opcode;
	*cid = event->cid;
	*nsid = event->nsid;
	*lba = event->lba;
	return DOCA_SUCCESS;
}
