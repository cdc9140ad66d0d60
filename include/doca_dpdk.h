/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_dpdk.h — DOCA DPDK bridge (pkg-config doca-dpdk-bridge), declarations from the
 * DOCA interface facts. softdoca has no DPDK ports to bridge: the library is a stub (every call
 * returns DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md). The DPDK types are only named here,
 * so the header does not need DPDK; programs that use the bridge include DPDK's own headers.
 */
#ifndef SOFTDOCA_DOCA_DPDK_H
#define SOFTDOCA_DOCA_DPDK_H

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_buf_inventory;
struct doca_dev;
struct doca_dev_rep;
struct doca_devinfo;
struct doca_dpdk_mempool;
struct rte_mbuf;
struct rte_mempool;

DOCA_EXPERIMENTAL doca_error_t doca_dpdk_cap_is_rep_port_supported(const struct doca_devinfo *devinfo, uint8_t *is_rep_port_supported);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_port_probe(struct doca_dev *dev, const char *devargs);
/* DOCA 3.x; prototype [inferred] from NVIDIA's 3.3 Flow samples, ipsec_security_gw and psp_gateway */
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_port_probe_with_representors(struct doca_dev *dev, const char *devargs, struct doca_dev_rep **dev_reps, uint32_t nb_dev_reps);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_get_first_port_id(const struct doca_dev *dev, uint16_t *port_id);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_port_as_dev(uint16_t port_id, struct doca_dev **dev);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_create(const struct rte_mempool *mbuf_pool, struct doca_dpdk_mempool **mempool_out);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_destroy(struct doca_dpdk_mempool *mempool);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_dev_add(struct doca_dpdk_mempool *mempool, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_set_permissions(struct doca_dpdk_mempool *mempool, uint32_t access_mask);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_start(struct doca_dpdk_mempool *mempool);
DOCA_EXPERIMENTAL doca_error_t doca_dpdk_mempool_mbuf_to_buf(struct doca_dpdk_mempool *mempool, struct doca_buf_inventory *inventory, struct rte_mbuf *mbuf, struct doca_buf **buf);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DPDK_H */
