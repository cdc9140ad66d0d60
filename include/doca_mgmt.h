/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_mgmt.h — DOCA Management (pkg-config doca-mgmt, DOCA 3.3), declarations from the
 * DOCA 3.3 interface facts. DOCA Management reads and writes a device's firmware configuration
 * (over the kernel's fwctl); the soft card has no firmware to configure, so the library is a stub:
 * every call returns DOCA_ERROR_NOT_SUPPORTED, NULL or nothing (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_MGMT_H
#define SOFTDOCA_DOCA_MGMT_H

#include <stddef.h>

#include "doca_compat.h"
#include "doca_dev.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the management handle of a device, and of one of its representors */
struct doca_mgmt_dev_ctx;
struct doca_mgmt_dev_rep_ctx;

/* how far a raw command may reach */
enum doca_mgmt_cmd_scope {
	DOCA_MGMT_CMD_SCOPE_CONFIGURATION,
	DOCA_MGMT_CMD_SCOPE_DEBUG_READ_ONLY,
	DOCA_MGMT_CMD_SCOPE_DEBUG_WRITE,
	DOCA_MGMT_CMD_SCOPE_DEBUG_WRITE_FULL,
};

DOCA_EXPERIMENTAL doca_error_t doca_mgmt_dev_ctx_create(struct doca_dev *dev, struct doca_mgmt_dev_ctx **ctx);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_dev_ctx_destroy(struct doca_mgmt_dev_ctx *ctx);
DOCA_EXPERIMENTAL struct doca_dev *doca_mgmt_dev_ctx_get_doca_dev(struct doca_mgmt_dev_ctx *ctx);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_dev_rep_ctx_create(struct doca_mgmt_dev_ctx *dev_ctx, struct doca_dev_rep *rep, struct doca_mgmt_dev_rep_ctx **ctx);
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_dev_rep_ctx_destroy(struct doca_mgmt_dev_rep_ctx *ctx);
DOCA_EXPERIMENTAL struct doca_dev_rep *doca_mgmt_dev_rep_ctx_get_doca_dev_rep(struct doca_mgmt_dev_rep_ctx *ctx);
DOCA_EXPERIMENTAL struct doca_mgmt_dev_ctx *doca_mgmt_dev_rep_ctx_get_mgmt_dev_ctx(struct doca_mgmt_dev_rep_ctx *ctx);
/* command_id only names the command in logs; out_payload receives the firmware's answer */
DOCA_EXPERIMENTAL doca_error_t doca_mgmt_raw_cmd(struct doca_mgmt_dev_ctx *ctx, const char *command_id, enum doca_mgmt_cmd_scope scope, const void *in_payload, size_t in_payload_size, void *out_payload, size_t out_payload_size);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_MGMT_H */
