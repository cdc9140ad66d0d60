/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_eth_txq.cuh — DOCA GPUNetIO device calls on a DOCA Ethernet send
 * queue's GPU handle (doca_eth_txq_get_gpu_handle), from the DOCA 3.3 interface facts; the
 * parameters of the send, wait-send, completion, WQE and submit calls are inferred from NVIDIA's
 * 3.3 samples (gpunetio_simple_send, gpunetio_send_wait_time) and gpu_packet_processing. CUDA
 * only. Stub bodies, never reached (see doca_gpunetio_dev_eth_common.cuh).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_TXQ_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_TXQ_CUH

#include "doca_gpunetio_dev_eth_common.cuh"

/* one send WQE (64 bytes) */
struct doca_gpu_dev_eth_txq_wqe {
	uint8_t seg[64];
} __attribute__((__aligned__(8)));

/* send size bytes at addr (memory key mkey); out_ticket: the WQE index, to poll */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>
__device__ static inline doca_error_t doca_gpu_dev_eth_txq_send(struct doca_gpu_eth_txq *txq, uint64_t addr, uint32_t mkey, size_t size, enum doca_gpu_eth_send_flags flags, doca_gpu_dev_eth_ticket_t *out_ticket)
{
	(void)txq, (void)addr, (void)mkey, (void)size, (void)flags, (void)out_ticket;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* the same, sent by the NIC at wait_on_time_ns (accurate send scheduling) */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>
__device__ static inline doca_error_t doca_gpu_dev_eth_txq_wait_send(struct doca_gpu_eth_txq *txq, uint64_t wait_on_time_ns, uint64_t addr, uint32_t mkey, size_t size, enum doca_gpu_eth_send_flags flags, doca_gpu_dev_eth_ticket_t *out_ticket)
{
	(void)txq, (void)wait_on_time_ns, (void)addr, (void)mkey, (void)size, (void)flags, (void)out_ticket;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* poll count completions (all, or the last one of the range); num_completed: how many */
template <enum doca_gpu_dev_eth_cq_poll_mode poll_mode = DOCA_GPUNETIO_ETH_CQ_POLL_ALL>
__device__ static inline doca_error_t doca_gpu_dev_eth_txq_poll_completion(struct doca_gpu_eth_txq *txq, uint32_t count, enum doca_gpu_dev_eth_wait_flags wait_mode, uint32_t *num_completed)
{
	(void)txq, (void)count, (void)wait_mode;
	if (num_completed != NULL)
		*num_completed = 0;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* poll the completion at index cqe_idx */
template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU>
__device__ static inline doca_error_t doca_gpu_dev_eth_txq_poll_completion_at(struct doca_gpu_eth_txq *txq, uint64_t cqe_idx, enum doca_gpu_dev_eth_wait_flags wait_mode)
{
	(void)txq, (void)cqe_idx, (void)wait_mode;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* low level: the WQE at wqe_idx, filled for a send, then submitted up to a producer index */
__device__ static inline struct doca_gpu_dev_eth_txq_wqe *doca_gpu_dev_eth_txq_get_wqe_ptr(struct doca_gpu_eth_txq *txq, uint64_t wqe_idx)
{
	(void)txq, (void)wqe_idx;
	__trap();
	return NULL;
}

__device__ static inline doca_error_t doca_gpu_dev_eth_txq_wqe_prepare_send(struct doca_gpu_eth_txq *txq, struct doca_gpu_dev_eth_txq_wqe *wqe_ptr, uint64_t wqe_idx, uint64_t addr, uint32_t mkey, size_t size, enum doca_gpu_eth_send_flags flags)
{
	(void)txq, (void)wqe_ptr, (void)wqe_idx, (void)addr, (void)mkey, (void)size, (void)flags;
	return DOCA_ERROR_NOT_SUPPORTED;
}

template <enum doca_gpu_dev_eth_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_eth_sync_scope sync_scope = DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO>
__device__ static inline void doca_gpu_dev_eth_txq_submit(struct doca_gpu_eth_txq *txq, uint64_t prod_index)
{
	(void)txq, (void)prod_index;
	__trap();
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_TXQ_CUH */
