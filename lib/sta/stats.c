/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Execution units (EUs) of an STA context and their statistics. The EUs exist from
 * doca_ctx_start to the end of the stop; their counters stay zero until the data path
 * exists (back-end queue and namespace counters: be.c, subsystem.c).
 */
#include <string.h>

#include "dp.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_STATS);

doca_error_t doca_sta_get_eu_handle(const struct doca_sta *sta, struct doca_sta_eu_handle **eu_handle_arr,
				    uint32_t *arr_size)
{
	if (sta == NULL || eu_handle_arr == NULL || arr_size == NULL) {
		SDK_LOG_ERR("Failed to get STA EU handles: an argument is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sta->eus == NULL) {
		SDK_LOG_ERR("Failed to get STA EU handles: the EUs exist once the STA context is started; call "
			    "doca_ctx_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	/* the array holds up to doca_sta_get_max_num_eus_available() handles */
	for (uint32_t i = 0; i < sta->num_eus; i++)
		eu_handle_arr[i] = &sta->eus[i];
	*arr_size = sta->num_eus;
	return DOCA_SUCCESS;
}

/* An EU handle of a context that still has its EUs. */
static bool eu_ok(const struct doca_sta_eu_handle *eu, const void *out, const char *call)
{
	if (eu == NULL || out == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, eu == NULL ? "eu_handle" : "output");
		return false;
	}
	return true;
}

doca_error_t doca_sta_get_eu_name(const struct doca_sta_eu_handle *eu_handle, const char **name)
{
	if (!eu_ok(eu_handle, name, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*name = eu_handle->name;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_eu_type(const struct doca_sta_eu_handle *eu_handle, enum dpa_sta_eu_type *type)
{
	if (!eu_ok(eu_handle, type, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*type = eu_handle->type;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_eu_id(const struct doca_sta_eu_handle *eu_handle, uint16_t *eu_id)
{
	if (!eu_ok(eu_handle, eu_id, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*eu_id = eu_handle->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_eu_port(const struct doca_sta_eu_handle *eu_handle, uint16_t *port)
{
	if (!eu_ok(eu_handle, port, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	*port = eu_handle->port;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_eu_state(struct doca_sta_eu_handle *eu_handle, enum dpa_sta_eu_state *state)
{
	if (!eu_ok(eu_handle, state, __func__))
		return DOCA_ERROR_INVALID_VALUE;
	switch (eu_handle->sta->ctx.state) {
	case DOCA_CTX_STATE_RUNNING:
		*state = DOCA_STA_EU_STATE_STARTED;
		break;
	case DOCA_CTX_STATE_STOPPING:
		*state = DOCA_STA_EU_STATE_STOPPING;
		break;
	default:
		*state = DOCA_STA_EU_STATE_IDLE;
		break;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_eu_stats(struct doca_sta_eu_handle *eu_handle, const struct doca_sta_eu_ctr_entry **entries,
				   uint16_t *num_entries)
{
	if (!eu_ok(eu_handle, entries, __func__) || num_entries == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*entries = eu_handle->entries;
	*num_entries = STA_EU_CTRS;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_eu_connect_qp_stats(struct doca_sta_eu_handle *eu_handle, struct doca_sta_qp_handle **arr,
					      uint16_t *arr_size)
{
	struct doca_sta *sta;
	uint16_t n = 0;

	if (!eu_ok(eu_handle, arr, __func__) || arr_size == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	/* the QPs of the IO context whose EUs these are, at most
	 * doca_sta_get_max_num_connected_qp_per_eu() of them */
	sta = eu_handle->sta;
	pthread_mutex_lock(&sta->io_lock);
	for (struct doca_sta_io *io = sta->ios; io != NULL; io = io->next) {
		if (io->index != eu_handle->id / STA_EU_TYPES || io->dp == NULL)
			continue;
		pthread_mutex_lock(&io->dp->lock);
		for (struct doca_sta_qp_handle *qp = io->dp->qps; qp != NULL && n < sta->caps->sta_max_qps_per_eu;
		     qp = qp->next)
			if (!qp->destroyed)
				arr[n++] = qp;
		pthread_mutex_unlock(&io->dp->lock);
	}
	pthread_mutex_unlock(&sta->io_lock);
	*arr_size = n;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_eu_reset_stats_handle(struct doca_sta_eu_handle *eu_handle)
{
	if (eu_handle == NULL) {
		SDK_LOG_ERR("Failed to reset STA EU statistics: eu_handle is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(eu_handle->ctr, 0, STA_EU_CTRS * sizeof(uint64_t));
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_eu_reset_stats_type(struct doca_sta *sta, enum dpa_sta_eu_type eu_type)
{
	if (sta == NULL || eu_type <= DOCA_STA_EU_TYPE_UNKNOWN || eu_type > DOCA_STA_EU_MAX) {
		SDK_LOG_ERR("Failed to reset STA EU statistics: %s", sta == NULL ? "sta is NULL" : "unknown EU type");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sta->eus == NULL) {
		SDK_LOG_ERR("Failed to reset STA EU statistics: the EUs exist once the STA context is started");
		return DOCA_ERROR_BAD_STATE;
	}
	for (uint32_t i = 0; i < sta->num_eus; i++)
		if (eu_type == DOCA_STA_EU_MAX || sta->eus[i].type == eu_type)
			memset(sta->eus[i].ctr, 0, STA_EU_CTRS * sizeof(uint64_t));
	return DOCA_SUCCESS;
}
