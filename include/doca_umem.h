/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_umem.h — DOCA Core UMEM (memory registered with a device for its queues' rings
 * and doorbell records: host, DPA or GPU memory), declarations from the DOCA 3.x interface facts.
 * Part of doca-common as in DOCA. Queues whose rings a program places itself are verbs objects
 * built on the NIC, which the soft card does not model: every call returns
 * DOCA_ERROR_NOT_SUPPORTED with an SDK line (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_UMEM_H
#define SOFTDOCA_DOCA_UMEM_H

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_dpa;
struct doca_gpu;
struct doca_umem;

/* access_flags: enum doca_access_flag (doca_types.h) */
DOCA_EXPERIMENTAL doca_error_t doca_umem_create(const struct doca_dev *dev, void *address, size_t size, uint32_t access_flags, struct doca_umem **umem_obj);
DOCA_EXPERIMENTAL doca_error_t doca_umem_dpa_create(struct doca_dpa *dpa, uint64_t address, size_t size, uint32_t access_flags, struct doca_umem **umem_obj);
DOCA_EXPERIMENTAL doca_error_t doca_umem_gpu_create(struct doca_gpu *gpu, struct doca_dev *dev, void *address, size_t size, uint32_t access_flags, struct doca_umem **umem_obj);
DOCA_EXPERIMENTAL doca_error_t doca_umem_destroy(struct doca_umem *umem_obj);
DOCA_EXPERIMENTAL doca_error_t doca_umem_get_id(const struct doca_umem *umem_obj, uint32_t *umem_id);
DOCA_EXPERIMENTAL doca_error_t doca_umem_get_size(const struct doca_umem *umem_obj, uint32_t *umem_size);
DOCA_EXPERIMENTAL doca_error_t doca_umem_get_address(const struct doca_umem *umem_obj, void **umem_addr);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_UMEM_H */
