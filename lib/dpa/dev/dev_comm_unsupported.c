/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device runtime (libdoca_dpa_dev_comm.a): the calls softdoca's DPA does not implement yet
 * (docs/compatibility.md). Each one is reported, never silently wrong: the host logs the call
 * and the DPA context turns fatal (doca_dpa_peek_at_last_error); it returns 0.
 */
#include "doca_dpa_dev_comch_msgq.h"
#include "doca_dpa_dev_rdma.h"
#include "dev_runtime.h"

void doca_dpa_dev_comch_consumer_ack(doca_dpa_dev_comch_consumer_t consumer, uint32_t num_msg)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_consumer_ack");
}

int doca_dpa_dev_comch_consumer_get_completion(doca_dpa_dev_comch_consumer_completion_t consumer_comp_handle, doca_dpa_dev_comch_consumer_completion_element_t *comp_element)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_consumer_get_completion");
	return 0;
}

const uint8_t *doca_dpa_dev_comch_consumer_get_completion_imm(doca_dpa_dev_comch_consumer_completion_element_t comp_element, uint32_t *imm_length)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_consumer_get_completion_imm");
	return 0;
}

uint32_t doca_dpa_dev_comch_consumer_get_completion_producer_id(doca_dpa_dev_comch_consumer_completion_element_t comp_element)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_consumer_get_completion_producer_id");
	return 0;
}

void doca_dpa_dev_comch_consumer_completion_ack(doca_dpa_dev_comch_consumer_completion_t consumer_comp_handle, uint64_t num_comp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_consumer_completion_ack");
}

void doca_dpa_dev_comch_consumer_completion_request_notification(doca_dpa_dev_comch_consumer_completion_t consumer_comp_handle)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_consumer_completion_request_notification");
}

int doca_dpa_dev_comch_producer_is_consumer_empty(doca_dpa_dev_comch_producer_t producer, uint32_t consumer_id)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_producer_is_consumer_empty");
	return 0;
}

void doca_dpa_dev_comch_producer_post_send_imm_only(doca_dpa_dev_comch_producer_t producer, uint32_t consumer_id, const uint8_t *imm, uint32_t imm_length, uint32_t flags)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_producer_post_send_imm_only");
}

void doca_dpa_dev_comch_producer_dma_copy(doca_dpa_dev_comch_producer_t producer, uint32_t consumer_id, doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr, size_t length, const uint8_t *imm, uint32_t imm_length, uint32_t flags)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_comch_producer_dma_copy");
}
