/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_eth_rxq_gpu_data_path.h — DOCA Ethernet receive queue, GPU data path (DOCA 3.3;
 * the prototype is inferred from NVIDIA's gpunetio_simple_receive sample). softdoca ships the
 * declarations; the library is a stub (every call returns DOCA_ERROR_NOT_SUPPORTED,
 * docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_ETH_RXQ_GPU_DATA_PATH_H
#define SOFTDOCA_DOCA_ETH_RXQ_GPU_DATA_PATH_H

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_eth_rxq;

/* a dump QP after each receive, so that a GPU kernel sees packet data consistent in memory */
DOCA_EXPERIMENTAL doca_error_t doca_eth_rxq_gpu_enable_mcst_qp(struct doca_eth_rxq *eth_rxq);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_ETH_RXQ_GPU_DATA_PATH_H */
