/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_eth_rxq.h — DOCA Ethernet receive queue, declarations from the DOCA 3.0 interface
 * facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_ETH_RXQ_H
#define SOFTDOCA_DOCA_ETH_RXQ_H

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_mmap;
struct doca_eth_rxq;
struct doca_gpu_eth_rxq;

enum doca_eth_rxq_type {
	DOCA_ETH_RXQ_TYPE_CYCLIC = 0,
	DOCA_ETH_RXQ_TYPE_MANAGED_MEMPOOL,
	DOCA_ETH_RXQ_TYPE_REGULAR,
};

enum doca_eth_rxq_data_path_type {
	DOCA_ETH_RXQ_DATA_PATH_TYPE_CPU = 0,
	DOCA_ETH_RXQ_DATA_PATH_TYPE_GPU,
};

DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_create(struct doca_dev *dev, uint32_t max_burst_size, uint32_t max_packet_size, struct doca_eth_rxq **eth_rxq);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_destroy(struct doca_eth_rxq *eth_rxq);
DOCA_EXPERIMENTAL struct doca_ctx *doca_eth_rxq_as_doca_ctx(struct doca_eth_rxq *eth_rxq);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_burst_size(struct doca_eth_rxq *eth_rxq, uint32_t max_burst_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_packet_size(struct doca_eth_rxq *eth_rxq, uint32_t max_packet_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_metadata_num(struct doca_eth_rxq *eth_rxq, uint8_t metadata_num);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_flow_tag(struct doca_eth_rxq *eth_rxq, uint8_t enable_flow_tag);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_rx_hash(struct doca_eth_rxq *eth_rxq, uint8_t enable_rx_hash);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_packet_headroom(struct doca_eth_rxq *eth_rxq, uint16_t head_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_packet_tailroom(struct doca_eth_rxq *eth_rxq, uint16_t tail_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_timestamp(struct doca_eth_rxq *eth_rxq, uint8_t enable_timestamp);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_max_recv_buf_list_len(struct doca_eth_rxq *eth_rxq, uint32_t max_recv_buf_list_len);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_pkt_buf(struct doca_eth_rxq *eth_rxq, struct doca_mmap *mmap, uint32_t mmap_offset, uint32_t mmap_len);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_type(struct doca_eth_rxq *eth_rxq, enum doca_eth_rxq_type type);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_set_notification_moderation(struct doca_eth_rxq *eth_rxq, uint16_t period_usec, uint16_t comp_count);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_get_flow_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t *flow_queue_id);
/* Newer than 3.0 (the 3.3 samples call it after doca_ctx_start); prototype inferred from those calls. */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_apply_queue_id(struct doca_eth_rxq *eth_rxq, uint16_t queue_id);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_get_gpu_handle(const struct doca_eth_rxq *eth_rxq, struct doca_gpu_eth_rxq **eth_rxq_ext);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_burst_size(const struct doca_devinfo *devinfo, uint32_t *max_burst_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_metadata_num(const struct doca_devinfo *devinfo, uint8_t *max_metadata_num);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_packet_headroom(const struct doca_devinfo *devinfo, uint16_t *max_packet_headroom);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_packet_tailroom(const struct doca_devinfo *devinfo, uint16_t *max_packet_tailroom);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_recv_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_recv_buf_list_len);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_get_max_packet_size(const struct doca_devinfo *devinfo, uint32_t *max_packet_size);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_cap_is_type_supported(const struct doca_devinfo *devinfo, enum doca_eth_rxq_type type, enum doca_eth_rxq_data_path_type data_path_type);
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_estimate_packet_buf_size(enum doca_eth_rxq_type type, uint32_t rate, uint16_t pkt_max_time, uint32_t max_packet_size, uint32_t max_burst_size, uint8_t log_max_lro_pkt_sz, uint16_t head_size, uint16_t tail_size, uint32_t *buf_size);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_ETH_RXQ_H */
