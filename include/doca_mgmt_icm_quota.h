/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_mgmt_icm_quota.h — DOCA Management, ICM (device context memory) quota of a
 * device or a representor's function (pkg-config doca-mgmt, DOCA 3.3). Sizes count 4 KiB pages.
 * Stub: see doca_mgmt.h.
 */
#ifndef SOFTDOCA_DOCA_MGMT_ICM_QUOTA_H
#define SOFTDOCA_DOCA_MGMT_ICM_QUOTA_H

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_mgmt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a limit of this many pages means no limit */
#define DOCA_MGMT_ICM_QUOTA_LIMIT_UNLIMITED UINT32_MAX

struct doca_mgmt_icm_quota;

DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cap_icm_quota_is_supported(struct doca_mgmt_dev_ctx *dev_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cap_icm_quota_get_max_limit(struct doca_mgmt_dev_ctx *dev_ctx, uint32_t *max_limit);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_create_for_dev(struct doca_mgmt_dev_ctx *dev_ctx, struct doca_mgmt_icm_quota **handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_create_for_dev_rep(struct doca_mgmt_dev_rep_ctx *dev_rep_ctx, struct doca_mgmt_icm_quota **handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_destroy(struct doca_mgmt_icm_quota *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_get_dev(const struct doca_mgmt_icm_quota *handle, struct doca_mgmt_dev_ctx **dev_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_get_dev_rep(const struct doca_mgmt_icm_quota *handle, struct doca_mgmt_dev_rep_ctx **dev_rep_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_set_limit(struct doca_mgmt_icm_quota *handle, uint32_t limit);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_set_reset_max_reached(struct doca_mgmt_icm_quota *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_clear_reset_max_reached(struct doca_mgmt_icm_quota *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_get_limit(const struct doca_mgmt_icm_quota *handle, uint32_t *limit);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_get_current_allocation(const struct doca_mgmt_icm_quota *handle, uint32_t *current_allocation);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_get_max_reached(const struct doca_mgmt_icm_quota *handle, uint32_t *max_reached);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_clear(struct doca_mgmt_icm_quota *handle);
/* modify writes the attributes set in the handle to the device; query reads them into it */
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_modify(const struct doca_mgmt_icm_quota *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_icm_quota_query(struct doca_mgmt_icm_quota *handle);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_MGMT_ICM_QUOTA_H */
