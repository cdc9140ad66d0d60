/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_buf.cuh — DOCA GPUNetIO device calls on a DOCA buffer array's GPU
 * handle (doca_buf_arr_get_gpu_handle), from the DOCA 3.x interface facts; CUDA only.
 *
 * doca-gpunetio is a stub module (docs/compatibility.md): the host side stops a program at
 * doca_gpu_create, so no kernel ever gets a GPU handle and these bodies are never reached. They
 * compile, and answer DOCA_ERROR_NOT_SUPPORTED (a device call cannot log) if one ever runs.
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_BUF_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_BUF_CUH

#include <stdint.h>

#include "doca_error.h"
#include "doca_gpunetio.h"

struct doca_gpu_buf;
struct doca_gpu_buf_arr;

/* the buffer at index doca_gpu_buf_idx of the array */
__device__ static inline doca_error_t doca_gpu_dev_buf_get_buf(const struct doca_gpu_buf_arr *buf_arr, uint64_t doca_gpu_buf_idx, struct doca_gpu_buf **buf)
{
	(void)buf_arr, (void)doca_gpu_buf_idx, (void)buf;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_gpu_dev_buf_get_addr(const struct doca_gpu_buf *buf, uintptr_t *addr)
{
	(void)buf, (void)addr;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* the buffer's memory key, as the NIC reads it in a WQE */
__device__ static inline doca_error_t doca_gpu_dev_buf_get_mkey(const struct doca_gpu_buf *buf, uint32_t *mkey)
{
	(void)buf, (void)mkey;
	return DOCA_ERROR_NOT_SUPPORTED;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_BUF_CUH */
