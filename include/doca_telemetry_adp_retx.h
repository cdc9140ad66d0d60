/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_telemetry_adp_retx.h — DOCA Telemetry Adaptive Retransmission histogram,
 * declarations from the DOCA 3.3 interface facts. softdoca ships the declarations; the library is
 * a stub (every call returns DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_TELEMETRY_ADP_RETX_H
#define SOFTDOCA_DOCA_TELEMETRY_ADP_RETX_H

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_telemetry_adp_retx;

/* bin time units; doca_telemetry_adp_retx_cap_get_hist_time_units() returns a bitmap of them */
enum doca_telemetry_adp_retx_hist_time_unit {
	DOCA_TELEMETRY_ADP_RETX_HIST_TIME_UNIT_NSEC = 0x1,
	DOCA_TELEMETRY_ADP_RETX_HIST_TIME_UNIT_USEC = 0x2,
	DOCA_TELEMETRY_ADP_RETX_HIST_TIME_UNIT_USEC_100 = 0x4,
	DOCA_TELEMETRY_ADP_RETX_HIST_TIME_UNIT_MSEC = 0x8,
};

/* width of bins 2..N relative to bin 1 */
enum doca_telemetry_adp_retx_hist_bin_width_mode {
	DOCA_TELEMETRY_ADP_RETX_HIST_BIN_WIDTH_MODE_FIXED = 0,
	DOCA_TELEMETRY_ADP_RETX_HIST_BIN_WIDTH_MODE_DOUBLE = 1,
};

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_cap_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_create(struct doca_dev *dev, struct doca_telemetry_adp_retx **adp_retx);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_destroy(struct doca_telemetry_adp_retx *adp_retx);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_start(struct doca_telemetry_adp_retx *adp_retx);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_stop(struct doca_telemetry_adp_retx *adp_retx);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_cap_histogram_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_cap_get_hist_max_bins(const struct doca_devinfo *devinfo, uint32_t *max_bins);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_cap_get_hist_time_units(const struct doca_devinfo *devinfo, uint32_t *time_units);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_num_bins(struct doca_telemetry_adp_retx *adp_retx, uint32_t num_bins);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_num_bins(struct doca_telemetry_adp_retx *adp_retx, uint32_t *num_bins);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_bin0_width(struct doca_telemetry_adp_retx *adp_retx, uint16_t bin0_width);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_bin0_width(struct doca_telemetry_adp_retx *adp_retx, uint16_t *bin0_width);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_bin1_width(struct doca_telemetry_adp_retx *adp_retx, uint16_t bin1_width);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_bin1_width(struct doca_telemetry_adp_retx *adp_retx, uint16_t *bin1_width);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_bin_width_mode(struct doca_telemetry_adp_retx *adp_retx, enum doca_telemetry_adp_retx_hist_bin_width_mode bin_width_mode);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_bin_width_mode(struct doca_telemetry_adp_retx *adp_retx, enum doca_telemetry_adp_retx_hist_bin_width_mode *bin_width_mode);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_time_unit(struct doca_telemetry_adp_retx *adp_retx, enum doca_telemetry_adp_retx_hist_time_unit time_unit);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_time_unit(struct doca_telemetry_adp_retx *adp_retx, enum doca_telemetry_adp_retx_hist_time_unit *time_unit);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_vhca_id(struct doca_telemetry_adp_retx *adp_retx, uint16_t vhca_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_unset_hist_vhca_id(struct doca_telemetry_adp_retx *adp_retx);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_vhca_id(struct doca_telemetry_adp_retx *adp_retx, uint8_t *vhca_set, uint16_t *vhca_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_clear_on_read(struct doca_telemetry_adp_retx *adp_retx, uint8_t clear_on_read);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_clear_on_read(struct doca_telemetry_adp_retx *adp_retx, uint8_t *clear_on_read);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_set_hist_count_enable(struct doca_telemetry_adp_retx *adp_retx, uint8_t count_enable);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_get_hist_count_enable(struct doca_telemetry_adp_retx *adp_retx, uint8_t *count_enable);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_detect_hist_conf_change(struct doca_telemetry_adp_retx *adp_retx, uint8_t *change_detected);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_adp_retx_read_hist_bins(struct doca_telemetry_adp_retx *adp_retx, uint32_t *bins_populated, uint64_t *bins);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_TELEMETRY_ADP_RETX_H */
