/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The doca_sta_get_max_* limits: from the card profile (lib/softhw/model/profiles.c).
 * Most take no device: they answer for the first STA-capable device of the model, which is
 * what a process with one BlueField-3 sees.
 */
#include "doca_dev.h"
#include "sta_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_CAPS);

/* The caps live in the model, which outlives every devinfo list. */
const struct softhw_caps *sta_model_caps(const char *what)
{
	struct doca_devinfo **list;
	const struct softhw_caps *caps = NULL;
	const char *first = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS) {
		SDK_LOG_ERR("%s: no device list (the device model did not load; see the lines above)", what);
		return NULL;
	}
	for (uint32_t i = 0; i < n && caps == NULL; i++) {
		if (softdoca_devinfo_caps(list[i])->sta)
			caps = softdoca_devinfo_caps(list[i]);
		else if (first == NULL)
			first = list[i]->fn->card->profile_name;
	}
	doca_devinfo_destroy_list(list);
	if (caps == NULL)
		SDK_LOG_ERR("%s: no device of this model supports STA (the first card is a %s); STA needs a "
			    "BlueField-3",
			    what, first != NULL ? first : "none");
	return caps;
}

/* One global limit: the field at `offset` of the caps. */
static doca_error_t global_limit(uint32_t *out, size_t offset, const char *call)
{
	const struct softhw_caps *caps;

	if (out == NULL) {
		SDK_LOG_ERR("%s: output is NULL", call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	caps = sta_model_caps(call);
	if (caps == NULL)
		return DOCA_ERROR_NOT_SUPPORTED;
	*out = *(const uint32_t *)((const char *)caps + offset);
	return DOCA_SUCCESS;
}

#define GLOBAL_LIMIT(fn, field) \
	doca_error_t fn(uint32_t *out) \
	{ \
		return global_limit(out, offsetof(struct softhw_caps, field), #fn); \
	}

GLOBAL_LIMIT(doca_sta_get_max_devs, sta_max_devs)
GLOBAL_LIMIT(doca_sta_get_max_subsys, sta_max_subsys)
GLOBAL_LIMIT(doca_sta_get_max_ns_per_subs, sta_max_ns_per_subsys)
GLOBAL_LIMIT(doca_sta_get_max_qps, sta_max_qps)
GLOBAL_LIMIT(doca_sta_get_max_io_threads, sta_max_io_threads)
GLOBAL_LIMIT(doca_sta_get_max_io_size, sta_max_io_size)
GLOBAL_LIMIT(doca_sta_get_min_ioccsz, sta_min_ioccsz)
GLOBAL_LIMIT(doca_sta_get_max_ioccsz, sta_max_ioccsz)
GLOBAL_LIMIT(doca_sta_get_min_iorcsz, sta_min_iorcsz)
GLOBAL_LIMIT(doca_sta_get_max_iorcsz, sta_max_iorcsz)
GLOBAL_LIMIT(doca_sta_get_max_icdoff, sta_max_icdoff)
GLOBAL_LIMIT(doca_sta_get_max_be, sta_max_be)
GLOBAL_LIMIT(doca_sta_get_max_qs_per_be, sta_max_qs_per_be)

/* Limits of one STA context: its device's profile. */
static doca_error_t ctx_limit(const struct doca_sta *sta, uint32_t *out, uint32_t value, const char *call)
{
	if (sta == NULL || out == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, sta == NULL ? "sta" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out = value;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_max_num_eus_available(const struct doca_sta *sta, uint32_t *max_eus)
{
	return ctx_limit(sta, max_eus, sta != NULL ? sta->caps->sta_max_eus : 0, __func__);
}

doca_error_t doca_sta_get_max_num_connected_qp_per_eu(const struct doca_sta *sta, uint32_t *max_connected_qps)
{
	return ctx_limit(sta, max_connected_qps, sta != NULL ? sta->caps->sta_max_qps_per_eu : 0, __func__);
}

doca_error_t doca_sta_get_max_io_num_per_dev(const struct doca_sta *sta, uint32_t *max_ios)
{
	return ctx_limit(sta, max_ios, sta != NULL ? sta->caps->sta_max_io_per_eu : 0, __func__);
}

doca_error_t doca_sta_get_max_io_queue_size(const struct doca_sta *sta, uint32_t *max_io_queue_size)
{
	return ctx_limit(sta, max_io_queue_size, sta != NULL ? sta->caps->sta_max_io_queue_size : 0, __func__);
}

/* NVMe logical blocks the back-ends take: 512 bytes and 4 KiB. */
bool doca_sta_is_logical_block_size_supported(uint32_t block_size)
{
	return block_size == 512 || block_size == 4096;
}
