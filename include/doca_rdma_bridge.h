/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_rdma_bridge.h, written from the DOCA 3.0 interface facts (shared/reference/rdma.md §2). */
#ifndef SOFTDOCA_DOCA_RDMA_BRIDGE_H
#define SOFTDOCA_DOCA_RDMA_BRIDGE_H

#include <stdint.h>

/* DOCA's Linux header includes <infiniband/verbs.h> for struct ibv_pd; without rdma-core's
 * headers a forward declaration suffices. */
#if defined(__has_include)
#if __has_include(<infiniband/verbs.h>)
#include <infiniband/verbs.h>
#else
struct ibv_pd;
#endif
#else
struct ibv_pd;
#endif

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_buf;
struct doca_dev;
struct doca_mmap;

/* functions */
DOCA_STABLE doca_error_t doca_rdma_bridge_get_dev_pd(const struct doca_dev *dev, struct ibv_pd **pd);
DOCA_STABLE doca_error_t doca_rdma_bridge_open_dev_from_pd(struct ibv_pd *pd, struct doca_dev **dev);
DOCA_STABLE doca_error_t doca_rdma_bridge_get_buf_mkey(const struct doca_buf *buf, struct doca_dev *dev, uint32_t *mkey);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_get_mmap_mkey_from_pd(const struct doca_mmap *mmap, struct ibv_pd *pd, uint32_t *mkey);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_RDMA_BRIDGE_H */
