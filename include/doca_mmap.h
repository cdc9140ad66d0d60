/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_mmap.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_MMAP_H
#define SOFTDOCA_DOCA_MMAP_H

#include <stddef.h>
#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_dev;
struct doca_devinfo;
struct doca_dpa;
struct doca_mmap;

typedef void(doca_mmap_memrange_free_cb_t)(void *addr, size_t len, void *cookie);
typedef uint32_t doca_dpa_dev_mmap_t;

/* functions */
DOCA_STABLE doca_error_t doca_mmap_create(struct doca_mmap **mmap);
DOCA_STABLE doca_error_t doca_mmap_destroy(struct doca_mmap *mmap);
DOCA_STABLE doca_error_t doca_mmap_start(struct doca_mmap *mmap);
DOCA_STABLE doca_error_t doca_mmap_stop(struct doca_mmap *mmap);
DOCA_STABLE doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_STABLE doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_STABLE doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc, size_t *export_desc_len);
DOCA_STABLE doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc, size_t *export_desc_len);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap, const struct doca_dev *dev, doca_dpa_dev_mmap_t *dpa_mmap_handle);
DOCA_STABLE doca_error_t doca_mmap_create_from_export(const union doca_data *user_data, const void *export_desc, size_t export_desc_len, struct doca_dev *dev, struct doca_mmap **mmap);
DOCA_STABLE doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len);
DOCA_STABLE doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd, void *addr, size_t dmabuf_offset, size_t len);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_set_dpa_memrange(struct doca_mmap *mmap, struct doca_dpa *dpa, uint64_t dpa_addr, size_t len);
DOCA_STABLE doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len);
DOCA_STABLE doca_error_t doca_mmap_set_free_cb(struct doca_mmap *mmap, doca_mmap_memrange_free_cb_t *free_cb, void *opaque);
DOCA_STABLE doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap, union doca_data *user_data);
DOCA_STABLE doca_error_t doca_mmap_get_max_num_devices(const struct doca_mmap *mmap, uint32_t *max_num_devices);
DOCA_STABLE doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs);
DOCA_STABLE doca_error_t doca_mmap_get_exported(const struct doca_mmap *mmap, uint8_t *exported);
DOCA_STABLE doca_error_t doca_mmap_get_from_export(const struct doca_mmap *mmap, uint8_t *from_export);
/* DOCA 3.3, inferred from NVIDIA's GPUNetIO samples: the NIC memory key of dev for this mmap */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_get_mkey(const struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey);
DOCA_STABLE doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices);
DOCA_STABLE doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask);
DOCA_STABLE doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data);
DOCA_STABLE doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *mmap_export);
DOCA_STABLE doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *from_export);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_enable_thread_safety(struct doca_mmap *mmap);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_MMAP_H */
