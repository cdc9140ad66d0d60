/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_verbs_counter.cuh — DOCA GPUNetIO Verbs put with counter: an RDMA
 * write on a main QP, then, once it completed, an atomic add on a remote counter posted on a
 * companion QP; from the DOCA 3.x interface facts. CUDA only. Stub body, never reached (see
 * doca_gpunetio_dev_verbs_qp.cuh).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_COUNTER_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_COUNTER_CUH

#include "doca_gpunetio_dev_verbs_onesided.cuh"

template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
	  enum doca_gpu_dev_verbs_exec_scope exec_scope = DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>
__device__ static inline void doca_gpu_dev_verbs_put_counter(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_addr raddr, struct doca_gpu_dev_verbs_addr laddr, size_t size, struct doca_gpu_dev_verbs_qp *companion_qp, struct doca_gpu_dev_verbs_addr counter_raddr, struct doca_gpu_dev_verbs_addr counter_laddr, uint64_t counter_val)
{
	(void)qp, (void)raddr, (void)laddr, (void)size, (void)companion_qp, (void)counter_raddr;
	(void)counter_laddr, (void)counter_val;
	__trap();
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_COUNTER_CUH */
