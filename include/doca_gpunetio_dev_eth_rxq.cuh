/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_eth_rxq.cuh — DOCA GPUNetIO device calls on a DOCA Ethernet receive
 * queue's GPU handle (doca_eth_rxq_get_gpu_handle), from the DOCA 3.3 interface facts; CUDA only.
 * Stub bodies, never reached (see doca_gpunetio_dev_eth_common.cuh).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_RXQ_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_RXQ_CUH

#include "doca_gpunetio_dev_eth_common.cuh"

/* out_first_pkt_idx before any packet was received */
#define DOCA_GPUNETIO_ETH_RX_NO_PKT 0xFFFFFFFFFFFFFFFF

/* which attributes a receive fills in out_attr */
enum doca_gpu_dev_eth_rxq_attr_type {
	DOCA_GPUNETIO_ETH_RX_ATTR_NONE = 0,
	DOCA_GPUNETIO_ETH_RX_ATTR_TS = 1, /* the timestamp only */
	DOCA_GPUNETIO_ETH_RX_ATTR_ALL = 2,
};

/* one received packet */
struct doca_gpu_dev_eth_rxq_attr {
	uint64_t timestamp_ns;
	uint32_t bytes;
	uint32_t padding;
};

/*
 * Receive up to max_rx_pkts packets, waiting at most timeout_ns for the first: the packets are
 * out_pkt_num consecutive entries of the queue's packet ring from out_first_pkt_idx on.
 */
template <enum doca_gpu_dev_eth_exec_scope exec_scope = DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD,
	  enum doca_gpu_dev_eth_mcst_mode mcst_mode = DOCA_GPUNETIO_ETH_MCST_DISABLED,
	  enum doca_gpu_dev_eth_nic_handler nic_handler = DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_eth_rxq_attr_type attr_type = DOCA_GPUNETIO_ETH_RX_ATTR_NONE>
__device__ static inline doca_error_t doca_gpu_dev_eth_rxq_recv(struct doca_gpu_eth_rxq *rxq, uint32_t max_rx_pkts, uint64_t timeout_ns, uint64_t *out_first_pkt_idx, uint32_t *out_pkt_num, struct doca_gpu_dev_eth_rxq_attr *out_attr)
{
	(void)rxq, (void)max_rx_pkts, (void)timeout_ns, (void)out_first_pkt_idx, (void)out_attr;
	if (out_pkt_num != NULL)
		*out_pkt_num = 0;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* address of entry pkt_idx of the packet ring */
__device__ static inline uint64_t doca_gpu_dev_eth_rxq_get_pkt_addr(struct doca_gpu_eth_rxq *rxq, uint64_t pkt_idx)
{
	(void)rxq, (void)pkt_idx;
	__trap();
	return 0;
}

/* memory key of the packet ring (to send a received packet back out) */
__device__ static inline uint32_t doca_gpu_dev_eth_rxq_get_pkt_mkey(struct doca_gpu_eth_rxq *rxq)
{
	(void)rxq;
	__trap();
	return 0;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_RXQ_CUH */
