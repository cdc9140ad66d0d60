/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_flow_tune_server.h — DOCA Flow tune server, from the DOCA 3.0 interface facts.
 * softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_FLOW_TUNE_SERVER_H
#define SOFTDOCA_DOCA_FLOW_TUNE_SERVER_H

#ifdef __cplusplus
extern "C" {
#endif

#include "doca_flow.h"

struct doca_flow_tune_server_cfg;

DOCA_EXPERIMENTAL doca_error_t doca_flow_tune_server_cfg_create(struct doca_flow_tune_server_cfg **cfg);
DOCA_EXPERIMENTAL doca_error_t doca_flow_tune_server_cfg_set_cfg_file_path(struct doca_flow_tune_server_cfg *cfg, const char *path);
DOCA_EXPERIMENTAL doca_error_t doca_flow_tune_server_cfg_destroy(struct doca_flow_tune_server_cfg *cfg);
DOCA_EXPERIMENTAL doca_error_t doca_flow_tune_server_init(struct doca_flow_tune_server_cfg *cfg);
DOCA_EXPERIMENTAL void doca_flow_tune_server_destroy(void);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_FLOW_TUNE_SERVER_H */
