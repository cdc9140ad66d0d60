/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_verbs_qp.cuh — DOCA GPUNetIO device calls on a Verbs QP's GPU handle
 * (doca_gpu_verbs_get_qp_dev): WQE slots, WQE preparation, submission, and the thread, timer,
 * atomic and fence helpers the other Verbs device headers use; from the DOCA 3.x interface facts.
 * CUDA only.
 *
 * doca-gpunetio is a stub module (docs/compatibility.md): the host side stops a program at
 * doca_gpu_create, so no kernel ever gets a QP handle and the QP calls are never reached. They
 * compile and stop the kernel with __trap() (a device call cannot log; those returning
 * doca_error_t answer DOCA_ERROR_NOT_SUPPORTED). The helpers that touch no queue (lane id, global
 * timer, atomic read, fences, the QP's CQ) do what they say.
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_QP_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_QP_CUH

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_gpunetio_verbs_def.h"

/* the calling thread's index in its warp */
__device__ static inline uint32_t doca_gpu_dev_verbs_get_lane_id(void)
{
	return threadIdx.x % DOCA_GPUNETIO_VERBS_WARP_SIZE;
}

/* the GPU's global nanosecond timer */
__device__ static inline uint64_t doca_gpu_dev_verbs_query_globaltimer(void)
{
	uint64_t ns;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
	return ns;
}

/* a read of *ptr that sees other threads' (and the NIC's) writes */
template <typename T, enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static inline T doca_gpu_dev_verbs_atomic_read(T *ptr)
{
	return *(volatile T *)ptr;
}

template <enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static inline void doca_gpu_dev_verbs_fence_acquire(void)
{
	if (sync_scope == DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS)
		__threadfence_system();
	else if (sync_scope == DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU)
		__threadfence();
	else
		__threadfence_block();
}

template <enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU>
__device__ static inline void doca_gpu_dev_verbs_fence_release(void)
{
	doca_gpu_dev_verbs_fence_acquire<sync_scope>();
}

/* the CQ of the QP's send queue */
__device__ static inline struct doca_gpu_dev_verbs_cq *doca_gpu_dev_verbs_qp_get_cq_sq(struct doca_gpu_dev_verbs_qp *qp)
{
	return &qp->cq_sq;
}

__device__ static inline struct doca_gpu_dev_verbs_cq *doca_gpu_dev_verbs_qp_get_cq_rq(struct doca_gpu_dev_verbs_qp *qp)
{
	return &qp->cq_rq;
}

/* reserve count consecutive send WQE slots; returns the first one's index */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static inline uint64_t doca_gpu_dev_verbs_reserve_wq_slots(struct doca_gpu_dev_verbs_qp *qp, uint32_t count)
{
	(void)qp, (void)count;
	__trap();
	return 0;
}

__device__ static inline struct doca_gpu_dev_verbs_wqe *doca_gpu_dev_verbs_get_wqe_ptr(struct doca_gpu_dev_verbs_qp *qp, uint64_t wqe_idx)
{
	(void)qp, (void)wqe_idx;
	__trap();
	return NULL;
}

/* fill a WQE for an RDMA write (or another opcode of the same layout) of size bytes */
__device__ static inline void doca_gpu_dev_verbs_wqe_prepare_write(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_wqe *wqe_ptr, uint64_t wqe_idx, uint32_t opcode, enum doca_gpu_dev_verbs_wqe_ctrl_flags ctrl_flags, uint32_t immediate, uint64_t raddr, uint32_t rkey, uint64_t laddr, uint32_t lkey, uint32_t size)
{
	(void)qp, (void)wqe_ptr, (void)wqe_idx, (void)opcode, (void)ctrl_flags, (void)immediate;
	(void)raddr, (void)rkey, (void)laddr, (void)lkey, (void)size;
	__trap();
}

/* the WQEs from from_idx to to_idx (included) are written */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static inline void doca_gpu_dev_verbs_mark_wqes_ready(struct doca_gpu_dev_verbs_qp *qp, uint64_t from_idx, uint64_t to_idx)
{
	(void)qp, (void)from_idx, (void)to_idx;
	__trap();
}

/* ring the doorbell up to producer index prod_index */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_sync_scope sync_scope = DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static inline void doca_gpu_dev_verbs_submit(struct doca_gpu_dev_verbs_qp *qp, uint64_t prod_index)
{
	(void)qp, (void)prod_index;
	__trap();
}

/* wait until every WQE posted on the QP so far completed; 0 on success */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
	  enum doca_gpu_dev_verbs_nic_handler nic_handler = DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>
__device__ static inline int doca_gpu_dev_verbs_wait(struct doca_gpu_dev_verbs_qp *qp)
{
	(void)qp;
	__trap();
	return -1;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_QP_CUH */
