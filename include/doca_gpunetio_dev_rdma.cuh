/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_rdma.cuh — DOCA GPUNetIO device calls on a DOCA RDMA context's GPU
 * handle (doca_rdma_get_gpu_handle), from the DOCA 3.x interface facts; the inline write's data
 * parameter is inferred from NVIDIA's gpunetio_rdma_client_server_write sample. CUDA only.
 * Strong calls take their own WQE slot; weak calls write the slot (position) the caller chose and
 * are committed together. Stub bodies, never reached (see doca_gpunetio_dev_buf.cuh):
 * DOCA_ERROR_NOT_SUPPORTED.
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_RDMA_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_RDMA_CUH

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_gpunetio_dev_buf.cuh"

struct doca_gpu_dev_rdma;
struct doca_gpu_dev_rdma_r;

enum doca_gpu_dev_rdma_write_flags {
	DOCA_GPU_RDMA_WRITE_FLAG_NONE = 0,
	DOCA_GPU_RDMA_WRITE_FLAG_IMM = 1 << 0, /* with immediate data */
};

enum doca_gpu_dev_rdma_send_flags {
	DOCA_GPU_RDMA_SEND_FLAG_NONE = 0,
	DOCA_GPU_RDMA_SEND_FLAG_IMM = 1 << 0,
};

enum doca_gpu_dev_rdma_recv_wait_flags {
	DOCA_GPU_RDMA_RECV_WAIT_FLAG_NB = 0, /* non-blocking */
	DOCA_GPU_RDMA_RECV_WAIT_FLAG_B = 1,  /* blocking */
};

__device__ static inline doca_error_t doca_gpu_dev_rdma_write_strong(struct doca_gpu_dev_rdma *rdma, uint32_t connection_index, struct doca_gpu_buf *remote_buf, uint64_t remote_offset, struct doca_gpu_buf *local_buf, uint64_t local_offset, size_t length, uint32_t imm, enum doca_gpu_dev_rdma_write_flags flags)
{
	(void)rdma, (void)connection_index, (void)remote_buf, (void)remote_offset, (void)local_buf;
	(void)local_offset, (void)length, (void)imm, (void)flags;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* the data travels inside the WQE */
__device__ static inline doca_error_t doca_gpu_dev_rdma_write_inline_strong(struct doca_gpu_dev_rdma *rdma, uint32_t connection_index, struct doca_gpu_buf *remote_buf, uint64_t remote_offset, const void *data, size_t length, uint32_t imm, enum doca_gpu_dev_rdma_write_flags flags)
{
	(void)rdma, (void)connection_index, (void)remote_buf, (void)remote_offset, (void)data, (void)length;
	(void)imm, (void)flags;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_rdma_write_inline_weak(struct doca_gpu_dev_rdma *rdma, uint32_t connection_index, struct doca_gpu_buf *remote_buf, uint64_t remote_offset, const void *data, size_t length, uint32_t imm, enum doca_gpu_dev_rdma_write_flags flags, uint32_t position)
{
	(void)rdma, (void)connection_index, (void)remote_buf, (void)remote_offset, (void)data, (void)length;
	(void)imm, (void)flags, (void)position;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_rdma_send_strong(struct doca_gpu_dev_rdma *rdma, uint32_t connection_index, struct doca_gpu_buf *local_buf, uint64_t local_offset, size_t length, uint32_t imm, enum doca_gpu_dev_rdma_send_flags flags)
{
	(void)rdma, (void)connection_index, (void)local_buf, (void)local_offset, (void)length, (void)imm;
	(void)flags;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* ring the doorbell for what was enqueued on a connection */
__device__ static inline doca_error_t doca_gpu_dev_rdma_commit_strong(struct doca_gpu_dev_rdma *rdma, uint32_t connection_index)
{
	(void)rdma, (void)connection_index;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_rdma_commit_weak(struct doca_gpu_dev_rdma *rdma, uint32_t connection_index, uint32_t num_ops)
{
	(void)rdma, (void)connection_index, (void)num_ops;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* wait for every committed operation; num_commits: how many completed */
__device__ static inline doca_error_t doca_gpu_dev_rdma_wait_all(struct doca_gpu_dev_rdma *rdma, uint32_t *num_commits)
{
	(void)rdma, (void)num_commits;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* the receive side of the context */
__device__ static inline doca_error_t doca_gpu_dev_rdma_get_recv(struct doca_gpu_dev_rdma *rdma, struct doca_gpu_dev_rdma_r **rdma_r)
{
	(void)rdma, (void)rdma_r;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_rdma_recv_strong(struct doca_gpu_dev_rdma_r *rdma_r, struct doca_gpu_buf *recv_buf, size_t recv_length, uint64_t recv_offset, uint32_t flags)
{
	(void)rdma_r, (void)recv_buf, (void)recv_length, (void)recv_offset, (void)flags;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_rdma_recv_commit_strong(struct doca_gpu_dev_rdma_r *rdma_r)
{
	(void)rdma_r;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* wait for posted receives; imm_val and connection_index: one per completed receive (may be NULL) */
__device__ static inline doca_error_t doca_gpu_dev_rdma_recv_wait_all(struct doca_gpu_dev_rdma_r *rdma_r, enum doca_gpu_dev_rdma_recv_wait_flags flags, uint32_t *num_ops, uint32_t *imm_val, uint32_t *connection_index)
{
	(void)rdma_r, (void)flags, (void)num_ops, (void)imm_val, (void)connection_index;
	return DOCA_ERROR_NOT_SUPPORTED;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_RDMA_CUH */
