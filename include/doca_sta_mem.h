/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_sta_mem.h, written from the DOCA STA interface facts (3.0 plus the newer additions):
 * pinned-memory allocator callbacks STA allocates its queues with. */
#ifndef SOFTDOCA_DOCA_STA_MEM_H
#define SOFTDOCA_DOCA_STA_MEM_H

#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_sta;
typedef void *(*doca_sta_zmalloc_cb_t)(size_t size, size_t align, uint64_t *phys_addr);
typedef void (*doca_sta_free_cb_t)(void *buf);
#define DOCA_STA_VTOPHYS_ERROR (0xFFFFFFFFFFFFFFFFULL)
typedef uint64_t (*doca_sta_vtophys_cb_t)(const void *buf, uint32_t size);
DOCA_EXPERIMENTAL doca_error_t doca_sta_mem_allocator_register(const struct doca_sta *sta, doca_sta_zmalloc_cb_t alloc_cb, doca_sta_free_cb_t free_cb, doca_sta_vtophys_cb_t vtophys_cb);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_STA_MEM_H */
