/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_mgmt_device_caps_general.h — DOCA Management, general capabilities of a
 * representor's function (pkg-config doca-mgmt, DOCA 3.3): today the data-direct flag.
 * Stub: see doca_mgmt.h.
 */
#ifndef SOFTDOCA_DOCA_MGMT_DEVICE_CAPS_GENERAL_H
#define SOFTDOCA_DOCA_MGMT_DEVICE_CAPS_GENERAL_H

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_mgmt.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_mgmt_device_caps_general;

DOCA_EXPERIMENTAL doca_error_t doca_mgmt_device_caps_general_create(struct doca_mgmt_device_caps_general **handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_device_caps_general_destroy(struct doca_mgmt_device_caps_general *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_device_caps_general_set_data_direct(struct doca_mgmt_device_caps_general *handle, uint8_t data_direct);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_device_caps_general_get_data_direct(const struct doca_mgmt_device_caps_general *handle, uint8_t *data_direct);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_device_caps_general_clear(struct doca_mgmt_device_caps_general *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_device_caps_general_set(struct doca_mgmt_dev_rep_ctx *ctx, const struct doca_mgmt_device_caps_general *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_device_caps_general_get(struct doca_mgmt_dev_rep_ctx *ctx, struct doca_mgmt_device_caps_general *handle);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_MGMT_DEVICE_CAPS_GENERAL_H */
