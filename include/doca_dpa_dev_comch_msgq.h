/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_dpa_dev_comch_msgq.h — Comch consumers and producers driven by the DPA.
 * Device code only: compiled by dpacc (docs/dpa.md).
 */
#ifndef SOFTDOCA_DOCA_DPA_DEV_COMCH_MSGQ_H
#define SOFTDOCA_DOCA_DPA_DEV_COMCH_MSGQ_H

#include "doca_dpa_dev.h"
#include "doca_dpa_dev_buf.h"
#include "doca_dpa_dev_sync_event.h"

#ifdef __cplusplus
extern "C" {
#endif

__dpa_global__ typedef uint64_t doca_dpa_dev_comch_consumer_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_comch_consumer_completion_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_comch_consumer_completion_element_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_comch_producer_t;
DOCA_EXPERIMENTAL void doca_dpa_dev_comch_consumer_ack(doca_dpa_dev_comch_consumer_t consumer, uint32_t num_msg);
DOCA_EXPERIMENTAL int doca_dpa_dev_comch_consumer_get_completion(doca_dpa_dev_comch_consumer_completion_t consumer_comp_handle, doca_dpa_dev_comch_consumer_completion_element_t *comp_element);
DOCA_EXPERIMENTAL const uint8_t *doca_dpa_dev_comch_consumer_get_completion_imm(doca_dpa_dev_comch_consumer_completion_element_t comp_element, uint32_t *imm_length);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_comch_consumer_get_completion_producer_id(doca_dpa_dev_comch_consumer_completion_element_t comp_element);
DOCA_EXPERIMENTAL void doca_dpa_dev_comch_consumer_completion_ack(doca_dpa_dev_comch_consumer_completion_t consumer_comp_handle, uint64_t num_comp);
DOCA_EXPERIMENTAL void doca_dpa_dev_comch_consumer_completion_request_notification(doca_dpa_dev_comch_consumer_completion_t consumer_comp_handle);
DOCA_EXPERIMENTAL int doca_dpa_dev_comch_producer_is_consumer_empty(doca_dpa_dev_comch_producer_t producer, uint32_t consumer_id);
DOCA_EXPERIMENTAL void doca_dpa_dev_comch_producer_post_send_imm_only(doca_dpa_dev_comch_producer_t producer, uint32_t consumer_id, const uint8_t *imm, uint32_t imm_length, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_comch_producer_dma_copy(doca_dpa_dev_comch_producer_t producer, uint32_t consumer_id, doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr, size_t length, const uint8_t *imm, uint32_t imm_length, uint32_t flags);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DPA_DEV_COMCH_MSGQ_H */
