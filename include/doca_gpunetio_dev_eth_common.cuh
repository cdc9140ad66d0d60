/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_eth_common.cuh — what the DOCA GPUNetIO Ethernet device headers
 * share; CUDA only. doca-gpunetio is a stub module (docs/compatibility.md): the host side stops a
 * program at doca_gpu_create, so no kernel ever gets a queue handle and the queue calls are never
 * reached. They compile; those that return doca_error_t answer DOCA_ERROR_NOT_SUPPORTED, the
 * others stop the kernel with __trap() (a device call cannot log).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_COMMON_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_COMMON_CUH

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_gpunetio_eth_def.h"

/* the calling thread's index in its warp */
__device__ static inline uint32_t doca_gpu_dev_eth_get_lane_id(void)
{
	return threadIdx.x % DOCA_GPUNETIO_ETH_WARP_SIZE;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_ETH_COMMON_CUH */
