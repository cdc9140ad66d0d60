/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dpa_eu_affinity: one EU id, below the EUs the card's profile makes available
 * (doca_dpa_get_total_num_eus_available(): the soft DPA has an EU thread per such id). A DPA
 * thread given the affinity runs on that EU only (dpa_thread.c, softhw/dpa).
 */
#include <stdlib.h>

#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA_AFFINITY);

struct doca_dpa_eu_affinity {
	struct doca_dpa *dpa;
	unsigned int num_eus; /* valid ids: 0 .. num_eus - 1 (the EUs available) */
	const char *profile;  /* the card's profile, for log lines */
	bool is_set;
	unsigned int eu_id;
};

doca_error_t doca_dpa_eu_affinity_create(struct doca_dpa *dpa, struct doca_dpa_eu_affinity **affinity)
{
	struct softhw_dpa_caps caps;
	struct doca_dpa_eu_affinity *a;

	if (dpa == NULL || affinity == NULL) {
		SDK_LOG_ERR("Failed to create DPA EU affinity: %s is NULL", dpa == NULL ? "dpa" : "affinity");
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		SDK_LOG_ERR("Failed to create DPA EU affinity: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	dpa->base.dev->dpa->caps(dpa->base.dev->devinfo->fn, &caps);
	a->dpa = dpa;
	a->num_eus = caps.eus_available;
	a->profile = dpa->base.dev->dpa->profile_name(dpa->base.dev->devinfo->fn);
	*affinity = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_eu_affinity_destroy(struct doca_dpa_eu_affinity *affinity)
{
	if (affinity == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA EU affinity: affinity is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	free(affinity);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_eu_affinity_set(struct doca_dpa_eu_affinity *affinity, unsigned int eu_id)
{
	if (affinity == NULL) {
		SDK_LOG_ERR("Failed to set DPA EU affinity: affinity is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (eu_id >= affinity->num_eus) {
		SDK_LOG_ERR("Failed to set DPA EU affinity: EU %u is beyond the EUs the %s profile makes available: "
			    "0 to %u (doca_dpa_get_total_num_eus_available() = %u)",
			    eu_id, affinity->profile, affinity->num_eus - 1, affinity->num_eus);
		return DOCA_ERROR_INVALID_VALUE;
	}
	affinity->eu_id = eu_id;
	affinity->is_set = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_eu_affinity_clear(struct doca_dpa_eu_affinity *affinity)
{
	if (affinity == NULL) {
		SDK_LOG_ERR("Failed to clear DPA EU affinity: affinity is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	affinity->is_set = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_eu_affinity_get(struct doca_dpa_eu_affinity *affinity, unsigned int *eu_id)
{
	if (affinity == NULL || eu_id == NULL) {
		SDK_LOG_ERR("Failed to get DPA EU affinity: %s is NULL", affinity == NULL ? "affinity" : "eu_id");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!affinity->is_set) {
		SDK_LOG_ERR("Failed to get DPA EU affinity: no EU is set; call doca_dpa_eu_affinity_set() first");
		return DOCA_ERROR_BAD_STATE;
	}
	*eu_id = affinity->eu_id;
	return DOCA_SUCCESS;
}

struct doca_dpa *softdoca_dpa_eu_affinity_dpa(const struct doca_dpa_eu_affinity *affinity)
{
	return affinity->dpa;
}

bool softdoca_dpa_eu_affinity_eu(const struct doca_dpa_eu_affinity *affinity, unsigned int *eu_id)
{
	if (affinity == NULL || !affinity->is_set)
		return false;
	*eu_id = affinity->eu_id;
	return true;
}
