/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_sem.cuh — DOCA GPUNetIO device calls on a semaphore's GPU handle
 * (doca_gpu_semaphore_get_gpu_handle), from the DOCA 3.x interface facts; CUDA only.
 * Stub bodies, never reached (see doca_gpunetio_dev_buf.cuh): DOCA_ERROR_NOT_SUPPORTED.
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_SEM_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_SEM_CUH

#include <stdint.h>

#include "doca_error.h"
#include "doca_gpunetio.h"

__device__ static inline doca_error_t doca_gpu_dev_semaphore_set_status(struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status status)
{
	(void)semaphore_gpu, (void)idx, (void)status;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_semaphore_get_status(struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, enum doca_gpu_semaphore_status *status)
{
	(void)semaphore_gpu, (void)idx, (void)status;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* the user data of item idx (doca_gpu_semaphore_set_custom_info) */
__device__ static inline doca_error_t doca_gpu_dev_semaphore_get_custom_info_addr(struct doca_gpu_semaphore_gpu *semaphore_gpu, uint32_t idx, void **custom_info)
{
	(void)semaphore_gpu, (void)idx, (void)custom_info;
	return DOCA_ERROR_NOT_SUPPORTED;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_SEM_CUH */
