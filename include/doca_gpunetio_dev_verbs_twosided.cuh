/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_verbs_twosided.cuh — DOCA GPUNetIO two-sided Verbs device calls
 * (send, post a receive, wait for a received message), from the DOCA 3.x interface facts; the
 * parameters of recv_wait (with or without a ticket) are inferred from NVIDIA's
 * gpunetio_verbs_twosided_bw sample. CUDA only. Stub bodies, never reached (see
 * doca_gpunetio_dev_verbs_qp.cuh).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_TWOSIDED_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_TWOSIDED_CUH

#include "doca_gpunetio_dev_verbs_qp.cuh"
#include "doca_gpunetio_dev_verbs_cq.cuh"

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_send(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr laddr, uint32_t size, doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	(void)qp, (void)laddr, (void)size, (void)out_ticket;
	__trap();
}

/* post a receive of up to size bytes into laddr */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_recv(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr laddr, uint32_t size, doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	(void)qp, (void)laddr, (void)size, (void)out_ticket;
	__trap();
}

/* wait for the next received message (or the one of ticket); cqe64: its completion */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED>
__device__ static inline void doca_gpu_dev_verbs_recv_wait(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr daddr, struct mlx5_cqe64 **cqe64)
{
	(void)qp, (void)daddr, (void)cqe64;
	__trap();
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED>
__device__ static inline void doca_gpu_dev_verbs_recv_wait(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr daddr, doca_gpu_dev_verbs_ticket_t *ticket, struct mlx5_cqe64 **cqe64)
{
	(void)qp, (void)daddr, (void)ticket, (void)cqe64;
	__trap();
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_TWOSIDED_CUH */
