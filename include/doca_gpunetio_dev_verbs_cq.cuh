/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_verbs_cq.cuh — DOCA GPUNetIO device calls on a Verbs CQ (polling,
 * reading a CQE), from the DOCA 3.x interface facts; CUDA only. A CQE is rdma-core's
 * struct mlx5_cqe64 (<infiniband/mlx5dv.h>), named here only. Stub bodies, never reached (see
 * doca_gpunetio_dev_verbs_qp.cuh).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_CQ_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_CQ_CUH

#include "doca_gpunetio_dev_verbs_qp.cuh"

struct mlx5_cqe64;

/* wait for the completion of WQE cons_index; 0 on success, an error otherwise */
template <enum doca_gpu_dev_verbs_resource_sharing_mode resource_sharing_mode = DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>
__device__ static inline int doca_gpu_dev_verbs_poll_cq_at(struct doca_gpu_dev_verbs_cq *cq, uint64_t cons_index)
{
	(void)cq, (void)cons_index;
	__trap();
	return -1;
}

/* whether a receive's data came inside the CQE (up to 32 bytes), its byte count, that data */
__device__ static inline int doca_gpu_dev_verbs_cqe_is_inline(struct mlx5_cqe64 *cqe64)
{
	(void)cqe64;
	__trap();
	return 0;
}

__device__ static inline uint32_t doca_gpu_dev_verbs_cqe_get_bytes(struct mlx5_cqe64 *cqe64)
{
	(void)cqe64;
	__trap();
	return 0;
}

__device__ static inline uint8_t *doca_gpu_dev_verbs_cqe_get_inl_data(struct mlx5_cqe64 *cqe64)
{
	(void)cqe64;
	__trap();
	return NULL;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_VERBS_CQ_CUH */
