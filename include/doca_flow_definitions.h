/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_flow_definitions.h — DOCA Flow definitions object, from the DOCA 3.0 interface
 * facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_FLOW_DEFINITIONS_H
#define SOFTDOCA_DOCA_FLOW_DEFINITIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_flow_definitions_cfg;
struct doca_flow_definitions;

DOCA_EXPERIMENTAL doca_error_t doca_flow_definitions_cfg_create(struct doca_flow_definitions_cfg **defs_cfg);
DOCA_EXPERIMENTAL doca_error_t doca_flow_definitions_cfg_destroy(struct doca_flow_definitions_cfg *defs_cfg);
DOCA_EXPERIMENTAL doca_error_t doca_flow_definitions_create(struct doca_flow_definitions_cfg *defs_cfg, struct doca_flow_definitions **defs);
DOCA_EXPERIMENTAL doca_error_t doca_flow_definitions_add_field(struct doca_flow_definitions *defs, const char *field_opcode_str, uint32_t field_offset, uint32_t field_length);
DOCA_EXPERIMENTAL void doca_flow_definitions_destroy(struct doca_flow_definitions *defs);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_FLOW_DEFINITIONS_H */
