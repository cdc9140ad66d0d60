/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_eth_txq_gpu_data_path.h — DOCA Ethernet send queue, GPU data path, from the DOCA
 * 3.0 interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_ETH_TXQ_GPU_DATA_PATH_H
#define SOFTDOCA_DOCA_ETH_TXQ_GPU_DATA_PATH_H

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_eth_txq;
struct doca_eth_txq_gpu_event_error_send_packet;
struct doca_eth_txq_gpu_event_notify_send_packet;
typedef void (*doca_eth_txq_gpu_event_error_send_packet_cb_t)(struct doca_eth_txq_gpu_event_error_send_packet *event_error, union doca_data event_user_data);

typedef void (*doca_eth_txq_gpu_event_notify_send_packet_cb_t)(struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, union doca_data event_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_error_send_packet_register(struct doca_eth_txq *eth_txq, doca_eth_txq_gpu_event_error_send_packet_cb_t event_error_send_packet_cb, union doca_data event_user_data);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_register(struct doca_eth_txq *eth_txq, doca_eth_txq_gpu_event_notify_send_packet_cb_t event_notify_send_packet_cb, union doca_data event_user_data);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_error_send_packet_get_position(const struct doca_eth_txq_gpu_event_error_send_packet *event_error, uint16_t *packet_index);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_position(const struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, uint16_t *packet_index);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_event_notify_send_packet_get_timestamp(const struct doca_eth_txq_gpu_event_notify_send_packet *event_notify, uint64_t *packet_timestamp);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_completion_on_gpu(struct doca_eth_txq *eth_txq);
/* DOCA 3.3, inferred from NVIDIA's gpunetio_simple_send sample: the queue's doorbell page mapped for
 * the CPU, which then rings the doorbells for the GPU kernel's sends (CPU proxy) */
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_set_uar_on_cpu(struct doca_eth_txq *eth_txq);
DOCA_EXPERIMENTAL doca_error_t doca_eth_txq_gpu_cpu_proxy_progress(struct doca_eth_txq *eth_txq);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_ETH_TXQ_GPU_DATA_PATH_H */
