/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_mgmt_cc_global_status.h — DOCA Management, congestion control global status
 * (pkg-config doca-mgmt, DOCA 3.3). A handle carries a (protocol, priority) pair and the enabled
 * flag; _set writes it to the device, _get reads it. Stub: see doca_mgmt.h.
 */
#ifndef SOFTDOCA_DOCA_MGMT_CC_GLOBAL_STATUS_H
#define SOFTDOCA_DOCA_MGMT_CC_GLOBAL_STATUS_H

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_mgmt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* reaction point (sender) or notification point (receiver) */
enum doca_mgmt_cc_global_status_protocol {
	DOCA_MGMT_CC_GLOBAL_STATUS_PROTOCOL_RP,
	DOCA_MGMT_CC_GLOBAL_STATUS_PROTOCOL_NP,
};

struct doca_mgmt_cc_global_status;

DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_create(struct doca_mgmt_cc_global_status **handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_destroy(struct doca_mgmt_cc_global_status *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_set_protocol(struct doca_mgmt_cc_global_status *handle, enum doca_mgmt_cc_global_status_protocol protocol);
/* priority 0..7 */
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_set_priority(struct doca_mgmt_cc_global_status *handle, uint8_t priority);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_set_enabled(struct doca_mgmt_cc_global_status *handle, uint8_t enabled);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_get_protocol(const struct doca_mgmt_cc_global_status *handle, enum doca_mgmt_cc_global_status_protocol *protocol);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_get_priority(const struct doca_mgmt_cc_global_status *handle, uint8_t *priority);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_get_enabled(const struct doca_mgmt_cc_global_status *handle, uint8_t *enabled);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_clear(struct doca_mgmt_cc_global_status *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_set(struct doca_mgmt_dev_ctx *ctx, const struct doca_mgmt_cc_global_status *handle);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_cc_global_status_get(struct doca_mgmt_dev_ctx *ctx, struct doca_mgmt_cc_global_status *handle);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_MGMT_CC_GLOBAL_STATUS_H */
