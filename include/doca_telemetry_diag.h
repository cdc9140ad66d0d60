/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_telemetry_diag.h — DOCA Telemetry diagnostic counters, declarations from the DOCA
 * 3.0 interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_TELEMETRY_DIAG_H
#define SOFTDOCA_DOCA_TELEMETRY_DIAG_H

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_telemetry_diag;

enum doca_telemetry_diag_sync_mode {
	DOCA_TELEMETRY_DIAG_SYNC_MODE_NO_SYNC = 0,
	DOCA_TELEMETRY_DIAG_SYNC_MODE_SYNC_START = 1,
};

enum doca_telemetry_diag_sample_mode {
	DOCA_TELEMETRY_DIAG_SAMPLE_MODE_SINGLE = 0,
	DOCA_TELEMETRY_DIAG_SAMPLE_MODE_REPETITIVE = 1,
	DOCA_TELEMETRY_DIAG_SAMPLE_MODE_ON_DEMAND = 2,
};

enum doca_telemetry_diag_timestamp_source {
	DOCA_TELEMETRY_DIAG_TIMESTAMP_SOURCE_FRC = 0,
	DOCA_TELEMETRY_DIAG_TIMESTAMP_SOURCE_RTC = 1,
};

enum doca_telemetry_diag_output_format {
	DOCA_TELEMETRY_DIAG_OUTPUT_FORMAT_0 = 0,
	DOCA_TELEMETRY_DIAG_OUTPUT_FORMAT_1 = 1,
	DOCA_TELEMETRY_DIAG_OUTPUT_FORMAT_2 = 2,
};

typedef struct doca_telemetry_diag_data_sample_format_0_value {
	uint64_t data_id;
	uint32_t timestamp_h;
	uint32_t timestamp_l;
	uint64_t data_value;
} doca_telemetry_diag_data_sample_format_0_value;

typedef struct doca_telemetry_diag_data_sample_format_0 {
	uint32_t sample_id;
	uint32_t reserved;
	doca_telemetry_diag_data_sample_format_0_value value[];
} doca_telemetry_diag_data_sample_format_0;

typedef struct doca_telemetry_diag_data_sample_format_1 {
	uint32_t sample_id;
	uint32_t earliest_data_timestamp_h;
	uint32_t earliest_data_timestamp_l;
	uint32_t latest_data_timestamp_l;
	uint64_t data_value[];
} doca_telemetry_diag_data_sample_format_1;

typedef struct doca_telemetry_diag_data_sample_format_2 {
	uint32_t sample_id;
	uint32_t earliest_data_timestamp_h;
	uint32_t earliest_data_timestamp_l;
	uint32_t latest_data_timestamp_l;
	uint32_t data_value[];
} doca_telemetry_diag_data_sample_format_2;

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_cap_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_cap_get_max_num_data_ids(const struct doca_devinfo *devinfo, uint32_t *max_num_data_ids);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_cap_get_log_max_num_samples(const struct doca_devinfo *devinfo, uint8_t *log_max_num_samples);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_cap_is_data_clear_supported(const struct doca_devinfo *devinfo, uint8_t *data_clear);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_cap_is_sync_start_supported(const struct doca_devinfo *devinfo, uint8_t *sync_start);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_cap_is_sample_mode_supported(const struct doca_devinfo *devinfo, enum doca_telemetry_diag_sample_mode sample_mode, uint8_t *sample_mode_supported);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_cap_is_data_timestamp_source_supported(const struct doca_devinfo *devinfo, enum doca_telemetry_diag_timestamp_source data_timestamp_source, uint8_t *timestamp_source_supported);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_create(struct doca_dev *dev, uint8_t force_ownership, struct doca_telemetry_diag **diag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_destroy(struct doca_telemetry_diag *diag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_apply_config(struct doca_telemetry_diag *diag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_start(struct doca_telemetry_diag *diag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_restart(struct doca_telemetry_diag *diag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_stop(struct doca_telemetry_diag *diag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_output_format(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_output_format output_format);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_output_format(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_output_format *output_format);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_sample_period(struct doca_telemetry_diag *diag, uint64_t sample_period);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_sample_period(struct doca_telemetry_diag *diag, uint64_t *sample_period);
/* Newer than 3.0 (the 3.3 telemetry_diag sample); prototype inferred from its call. */
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_reconfig_sample_period(struct doca_telemetry_diag *diag, uint64_t sample_period);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_log_max_num_samples(struct doca_telemetry_diag *diag, uint8_t log_max_num_samples);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_log_max_num_samples(struct doca_telemetry_diag *diag, uint8_t *log_max_num_samples);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_max_num_data_ids(struct doca_telemetry_diag *diag, uint32_t max_num_data_ids);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_max_num_data_ids(struct doca_telemetry_diag *diag, uint32_t *max_num_data_ids);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_sync_mode(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_sync_mode sync_mode);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_sync_mode(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_sync_mode *sync_mode);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_sample_mode(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_sample_mode sample_mode);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_sample_mode(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_sample_mode *sample_mode);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_data_clear(struct doca_telemetry_diag *diag, uint8_t data_clear);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_data_clear(struct doca_telemetry_diag *diag, uint8_t *data_clear);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_set_data_timestamp_source(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_timestamp_source data_timestamp_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_data_timestamp_source(struct doca_telemetry_diag *diag, enum doca_telemetry_diag_timestamp_source *data_timestamp_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_check_data_id(struct doca_telemetry_diag *diag, uint64_t data_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_apply_counters_list_by_id(struct doca_telemetry_diag *diag, const uint64_t *data_ids, uint32_t num_data_ids, uint64_t *counter_id_failure);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_num_applied_counters(struct doca_telemetry_diag *diag, uint32_t *num_applied_counters);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_applied_counters_list_by_id(struct doca_telemetry_diag *diag, uint32_t num_data_ids, uint64_t *data_ids);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_get_sample_size(struct doca_telemetry_diag *diag, uint32_t *sample_size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_diag_query_counters(struct doca_telemetry_diag *diag, void *buf, uint32_t max_samples_to_read, uint32_t *num_valid_samples);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_TELEMETRY_DIAG_H */
