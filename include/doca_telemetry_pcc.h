/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_telemetry_pcc.h — DOCA Telemetry PCC counters, declarations from the DOCA 3.0
 * interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_TELEMETRY_PCC_H
#define SOFTDOCA_DOCA_TELEMETRY_PCC_H

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_telemetry_pcc;

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_cap_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_create(struct doca_dev *dev, struct doca_telemetry_pcc **pcc);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_destroy(struct doca_telemetry_pcc *pcc);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_start(struct doca_telemetry_pcc *pcc);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_stop(struct doca_telemetry_pcc *pcc);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_cap_get_max_algo_slots(const struct doca_devinfo *devinfo, uint32_t *max_algo_slots);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_algo_id(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *algo_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_algo_major_version(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *major_ver);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_algo_minor_version(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *minor_ver);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_algo_enable_status(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint8_t *algo_enabled, uint8_t *counters_enabled);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_cap_get_max_algo_info_len(const struct doca_devinfo *devinfo, uint32_t *max_algo_info_len);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_algo_info(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, char *algo_info);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_num_counters(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *num_counters);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_cap_get_max_counter_info_len(const struct doca_devinfo *devinfo, uint32_t *max_counter_info_len);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_counter_info(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint8_t counter_id, char *counter_info);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_cap_get_max_num_counters(const struct doca_devinfo *devinfo, uint32_t *max_num_counters);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_counters(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *counters_populated, uint32_t *counters);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pcc_get_and_clear_counters(struct doca_telemetry_pcc *pcc, uint8_t algo_slot, uint32_t *counters_populated, uint32_t *counters);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_TELEMETRY_PCC_H */
