/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_verbs_onesided.cuh — DOCA GPUNetIO one-sided Verbs device calls
 * (put = RDMA write, get = RDMA read, put with signal = write then atomic add on a remote flag),
 * from the DOCA 3.x interface facts; the template parameters of get and get_wait are inferred
 * from NVIDIA's gpunetio_verbs_get_bw sample. CUDA only. Each call comes with a ticket (its last
 * WQE's index, to poll) or without. Stub bodies, never reached (see
 * doca_gpunetio_dev_verbs_qp.cuh).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_ONESIDED_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_ONESIDED_CUH

#include "doca_gpunetio_dev_verbs_qp.cuh"
#include "doca_gpunetio_dev_verbs_cq.cuh"

/* write size bytes from laddr to raddr */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_put(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr, size_t size, doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	(void)qp, (void)raddr, (void)laddr, (void)size, (void)out_ticket;
	__trap();
}

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_put(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr, size_t size)
{
	(void)qp, (void)raddr, (void)laddr, (void)size;
	__trap();
}

/* write a value of type T, carried inside the WQE, to raddr */
template <typename T,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_p(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value, doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	(void)qp, (void)raddr, (void)value, (void)out_ticket;
	__trap();
}

template <typename T,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_p(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, T value)
{
	(void)qp, (void)raddr, (void)value;
	__trap();
}

/* read size bytes from raddr into laddr; daddr: where a consistency dump may write (mcst) */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED,
	  enum doca_gpu_dev_verbs_blocking_mode blocking_mode = DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED>
__device__ static inline void doca_gpu_dev_verbs_get(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr, size_t size, struct doca_gpu_dev_verbs_addr daddr, doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	(void)qp, (void)raddr, (void)laddr, (void)size, (void)daddr, (void)out_ticket;
	__trap();
}

/* wait for every get posted so far (and dump into daddr when mcst is enabled) */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_mcst_mode mcst_mode = DOCA_GPUNETIO_VERBS_MCST_DISABLED>
__device__ static inline void doca_gpu_dev_verbs_get_wait(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr daddr)
{
	(void)qp, (void)daddr;
	__trap();
}

/* put, then signal_op (add sig_val) on the remote flag sig_raddr; its old value lands in sig_laddr */
template <enum doca_gpu_dev_verbs_signal_op signal_op = DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_put_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr, size_t size, struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val, doca_gpu_dev_verbs_ticket_t *out_ticket)
{
	(void)qp, (void)raddr, (void)laddr, (void)size, (void)sig_raddr, (void)sig_laddr, (void)sig_val;
	(void)out_ticket;
	__trap();
}

template <enum doca_gpu_dev_verbs_signal_op signal_op = DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD,
	  enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_put_signal(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr, size_t size, struct doca_gpu_dev_verbs_addr sig_raddr, struct doca_gpu_dev_verbs_addr sig_laddr, uint64_t sig_val)
{
	(void)qp, (void)raddr, (void)laddr, (void)size, (void)sig_raddr, (void)sig_laddr, (void)sig_val;
	__trap();
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_ONESIDED_CUH */
