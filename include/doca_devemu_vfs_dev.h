/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_vfs_dev.h — DOCA DevEmu virtio-fs device, declarations from DOCA 3.3's
 * public doca_devemu_vfs_dev.h (in the DOCA 3.0 interface facts these calls were part of
 * doca_devemu_vfs.h, which includes this header). The library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VFS_DEV_H
#define SOFTDOCA_DOCA_DEVEMU_VFS_DEV_H

#include <stdint.h>

#include "doca_buf.h"
#include "doca_error.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_virtio.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devemu_vfs_dev;
struct doca_devemu_vfs_type;

/* Tag bytes including the terminating NUL: DOCA allows 20 of the 36 the virtio spec has. */
#define DOCA_VFS_TAG_SIZE 21

/* CPU architecture of the FUSE client (the guest driver), whose layout the device translates. */
enum doca_devemu_vfs_fuse_client_arch {
	DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_UNKNOWN = 0,
	DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_X86,
	DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_X86_64,
	DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_AARCH,
	DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_AARCH_64,
};

DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_create(struct doca_devemu_vfs_type *vfs_type, struct doca_dev_rep *dev_rep, struct doca_pe *progress_engine, struct doca_devemu_vfs_dev **vfs_dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_destroy(struct doca_devemu_vfs_dev *vfs_dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_get_tag(const struct doca_devemu_vfs_dev *vfs_dev, char tag[DOCA_VFS_TAG_SIZE]);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_set_tag(struct doca_devemu_vfs_dev *vfs_dev, const char tag[DOCA_VFS_TAG_SIZE]);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_get_num_request_queues(const struct doca_devemu_vfs_dev *vfs_dev, uint32_t *num_request_queues);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_set_num_request_queues(struct doca_devemu_vfs_dev *vfs_dev, uint32_t num_request_queues);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_get_notify_buf_size(const struct doca_devemu_vfs_dev *vfs_dev, uint32_t *notify_buf_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_set_notify_buf_size(struct doca_devemu_vfs_dev *vfs_dev, uint32_t notify_buf_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_get_fuse_client_arch(const struct doca_devemu_vfs_dev *vfs_dev, enum doca_devemu_vfs_fuse_client_arch *fuse_client_arch);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_set_fuse_client_arch(struct doca_devemu_vfs_dev *vfs_dev, enum doca_devemu_vfs_fuse_client_arch fuse_client_arch);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_dev_get_req_src_domain_id_range(const struct doca_devemu_vfs_dev *vfs_dev, uint16_t *min_src_domain_id, uint16_t *max_src_domain_id);
DOCA_EXPERIMENTAL struct doca_ctx *doca_devemu_vfs_dev_as_ctx(struct doca_devemu_vfs_dev *vfs_dev);
DOCA_EXPERIMENTAL struct doca_devemu_virtio_dev *doca_devemu_vfs_dev_as_virtio_dev(struct doca_devemu_vfs_dev *vfs_dev);
DOCA_EXPERIMENTAL struct doca_devemu_pci_dev *doca_devemu_vfs_dev_as_pci_dev(struct doca_devemu_vfs_dev *vfs_dev);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VFS_DEV_H */
