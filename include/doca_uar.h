/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_uar.h — DOCA Core UAR (user access region: a device's doorbell page mapped
 * into the process), declarations from the DOCA 3.3 interface facts. Part of doca-common as in
 * DOCA. The soft card has no doorbell pages to map: every call returns DOCA_ERROR_NOT_SUPPORTED
 * with an SDK line (docs/compatibility.md); DOCA Verbs and GPUNetIO programs create UARs.
 */
#ifndef SOFTDOCA_DOCA_UAR_H
#define SOFTDOCA_DOCA_UAR_H

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_dpa;
struct doca_uar;

enum doca_uar_allocation_type {
	DOCA_UAR_ALLOCATION_TYPE_BLUEFLAME = 0,
	DOCA_UAR_ALLOCATION_TYPE_NONCACHE = 1,
	DOCA_UAR_ALLOCATION_TYPE_NONCACHE_DEDICATED = 2,
};

DOCA_EXPERIMENTAL doca_error_t doca_uar_create(const struct doca_dev *dev, enum doca_uar_allocation_type allocation_type, struct doca_uar **uar);
DOCA_EXPERIMENTAL doca_error_t doca_uar_dpa_create(struct doca_dpa *dpa, struct doca_uar **uar);
DOCA_EXPERIMENTAL doca_error_t doca_uar_destroy(struct doca_uar *uar);
DOCA_EXPERIMENTAL doca_error_t doca_uar_id_get(const struct doca_uar *uar, uint32_t *id);
/* not for a DPA UAR */
DOCA_EXPERIMENTAL doca_error_t doca_uar_page_get(const struct doca_uar *uar, void **page);
DOCA_EXPERIMENTAL doca_error_t doca_uar_reg_addr_get(const struct doca_uar *uar, void **reg);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_UAR_H */
