/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_dma.cuh — DOCA GPUNetIO device calls on a DOCA DMA context's GPU
 * handle (doca_dma_get_gpu_handle), from the DOCA 3.x interface facts; CUDA only.
 * Stub bodies, never reached (see doca_gpunetio_dev_buf.cuh): DOCA_ERROR_NOT_SUPPORTED.
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_DMA_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_DMA_CUH

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_gpunetio_dev_buf.cuh"

struct doca_gpu_dma;

/* enqueue a copy of length bytes; the copies run when the queue is committed */
__device__ static inline doca_error_t doca_gpu_dev_dma_memcpy(struct doca_gpu_dma *dma, struct doca_gpu_buf *src_buf, uint64_t src_offset, struct doca_gpu_buf *dst_buf, uint64_t dst_offset, size_t length)
{
	(void)dma, (void)src_buf, (void)src_offset, (void)dst_buf, (void)dst_offset, (void)length;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_dma_commit(struct doca_gpu_dma *dma)
{
	(void)dma;
	return DOCA_ERROR_NOT_SUPPORTED;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_DMA_CUH */
