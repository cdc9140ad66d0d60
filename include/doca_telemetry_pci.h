/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_telemetry_pci.h — DOCA Telemetry PCI (PCIe link status, performance counters,
 * latency histogram), declarations from the DOCA 3.3 interface facts. softdoca ships the
 * declarations; the library is a stub (every call returns DOCA_ERROR_NOT_SUPPORTED,
 * docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_TELEMETRY_PCI_H
#define SOFTDOCA_DOCA_TELEMETRY_PCI_H

#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_devinfo;
struct doca_telemetry_pci;

/* which PCI device of the card to query (depth, index, node: as mlxlink --port_type PCIE shows) */
struct doca_telemetry_pci_dpn {
	uint8_t depth;
	uint8_t pci_index;
	uint8_t node;
};

enum doca_telemetry_pci_link_width {
	DOCA_TELEMETRY_PCI_LINK_WIDTH_X1 = 1,
	DOCA_TELEMETRY_PCI_LINK_WIDTH_X2 = 2,
	DOCA_TELEMETRY_PCI_LINK_WIDTH_X4 = 4,
	DOCA_TELEMETRY_PCI_LINK_WIDTH_X8 = 8,
	DOCA_TELEMETRY_PCI_LINK_WIDTH_X16 = 16,
};

/* Gen 1 to Gen 6 */
enum doca_telemetry_pci_link_speed {
	DOCA_TELEMETRY_PCI_LINK_SPEED_2_5_G = 1,
	DOCA_TELEMETRY_PCI_LINK_SPEED_5_G = 2,
	DOCA_TELEMETRY_PCI_LINK_SPEED_8_G = 3,
	DOCA_TELEMETRY_PCI_LINK_SPEED_16_G = 4,
	DOCA_TELEMETRY_PCI_LINK_SPEED_32_G = 5,
	DOCA_TELEMETRY_PCI_LINK_SPEED_32_G_PAM_4 = 6,
};

/* in bytes */
enum doca_telemetry_pci_data_size {
	DOCA_TELEMETRY_PCI_DATA_SIZE_128B = 128,
	DOCA_TELEMETRY_PCI_DATA_SIZE_256B = 256,
	DOCA_TELEMETRY_PCI_DATA_SIZE_512B = 512,
	DOCA_TELEMETRY_PCI_DATA_SIZE_1024B = 1024,
	DOCA_TELEMETRY_PCI_DATA_SIZE_2048B = 2048,
	DOCA_TELEMETRY_PCI_DATA_SIZE_4096B = 4096,
};

enum doca_telemetry_pci_power_status {
	DOCA_TELEMETRY_PCI_POWER_STATUS_NO_VALUE = 0,
	DOCA_TELEMETRY_PCI_POWER_STATUS_OK = 1,
	DOCA_TELEMETRY_PCI_POWER_STATUS_LOW_POWER = 2,
};

enum doca_telemetry_pci_port_type {
	DOCA_TELEMETRY_PCI_PORT_TYPE_PCIE_ENDPOINT = 0,
	DOCA_TELEMETRY_PCI_PORT_TYPE_PCIE_ROOT_PORT = 4,
	DOCA_TELEMETRY_PCI_PORT_TYPE_PCIE_UPSTREAM = 5,
	DOCA_TELEMETRY_PCI_PORT_TYPE_PCIE_DOWNSTREAM = 6,
};

enum doca_telemetry_pci_lane_reversal_mode {
	DOCA_TELEMETRY_PCI_LANE_REVERSAL_MODE_STRAIGHT = 0,
	DOCA_TELEMETRY_PCI_LANE_REVERSAL_MODE_REVERSAL = 1,
};

/* link status; the power fields and link_peer_max_speed are valid only where their caps say so */
struct doca_telemetry_pci_management_info {
	enum doca_telemetry_pci_link_width link_width_enabled;
	enum doca_telemetry_pci_link_speed link_speed_enabled;
	enum doca_telemetry_pci_link_width link_width_active;
	enum doca_telemetry_pci_link_speed link_speed_active;
	enum doca_telemetry_pci_data_size max_read_request_size;
	enum doca_telemetry_pci_data_size max_payload_size;
	enum doca_telemetry_pci_power_status pwr_status;
	enum doca_telemetry_pci_port_type port_type;
	enum doca_telemetry_pci_lane_reversal_mode lane_reversal;
	enum doca_telemetry_pci_link_speed link_peer_max_speed;
	uint16_t num_of_pfs;
	uint16_t num_of_vfs;
	uint16_t bdf0;
	uint16_t pci_power; /* watts, 0 if unknown */
	uint8_t lane0_physical_position;
	uint8_t precode_sup;
	uint8_t precode_active;
	uint8_t flit_sup;
	uint8_t flit_active;
	uint8_t correctable_error_detected;
	uint8_t non_fatal_error_detected;
	uint8_t fatal_error_detected;
	uint8_t unsupported_request_detected;
	uint8_t aux_power_detected;
	uint8_t transaction_pending;
};

/* performance counters, group 1; BER values are coef * 10^-magnitude */
struct doca_telemetry_pci_perf_counters_1 {
	uint64_t tx_overflow_buffer_pkt;
	uint64_t tx_overflow_buffer_marked_pkt;
	uint32_t rx_errors;
	uint32_t tx_errors;
	uint32_t crc_error_dllp;
	uint32_t crc_error_tlp;
	uint32_t outbound_stalled_reads;
	uint32_t outbound_stalled_writes;
	uint32_t outbound_stalled_reads_events;
	uint32_t outbound_stalled_writes_events;
	uint32_t fec_correctable_error_counter;
	uint32_t fec_uncorrectable_error_counter;
	uint32_t l0_to_recovery;
	uint8_t effective_ber_magnitude;
	uint8_t effective_ber_coef;
	uint8_t fber_magnitude;
	uint8_t fber_coef;
};

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_create(struct doca_dev *dev, struct doca_telemetry_pci **telemetry_pci);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_destroy(struct doca_telemetry_pci *telemetry_pci);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_start(struct doca_telemetry_pci *telemetry_pci);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_stop(struct doca_telemetry_pci *telemetry_pci);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_management_info_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_management_info_power_reporting_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_management_info_link_peer_max_speed_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_read_management_info(struct doca_telemetry_pci *telemetry_pci, struct doca_telemetry_pci_dpn dpn, struct doca_telemetry_pci_management_info *management_info);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_perf_counters_1_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_perf_counters_1_tx_overflow_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_perf_counters_1_outbound_stalled_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_perf_counters_1_fec_error_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_perf_counters_1_fber_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_read_perf_counters_1(struct doca_telemetry_pci *telemetry_pci, struct doca_telemetry_pci_dpn dpn, struct doca_telemetry_pci_perf_counters_1 *counters);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_cap_latency_histogram_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_get_latency_histogram_dimensions(struct doca_telemetry_pci *telemetry_pci, struct doca_telemetry_pci_dpn dpn, uint32_t *bucket_count, uint32_t *bucket_width_ns);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_pci_read_latency_histogram(struct doca_telemetry_pci *telemetry_pci, struct doca_telemetry_pci_dpn dpn, uint64_t *bucket_arr);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_TELEMETRY_PCI_H */
