/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_vfs.h — DOCA DevEmu virtio-fs, declarations from the DOCA 3.0 interface
 * facts and DOCA 3.3's public doca_devemu_vfs.h (device registration, FUSE request user data,
 * minimal FUSE version; the device calls are in doca_devemu_vfs_dev.h, as in 3.3). softdoca
 * ships the declarations; the library is a stub (every call returns DOCA_ERROR_NOT_SUPPORTED,
 * docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VFS_H
#define SOFTDOCA_DOCA_DEVEMU_VFS_H

#include <stdint.h>

#include "doca_buf.h"
#include "doca_error.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_virtio.h"
#include "doca_devemu_vfs_dev.h"
#include "doca_devemu_vfs_fuse_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devemu_vfs_cfg;
struct doca_devemu_vfs_dev;
struct doca_devemu_vfs_type;
struct doca_devemu_vfs_io;
struct doca_devemu_vfs_req;
struct doca_devemu_vfs_notification_req;
struct doca_devemu_vfs_fuse_req;

DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_init(struct doca_devemu_vfs_cfg *cfg);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_teardown(void);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_create(struct doca_devemu_vfs_cfg **cfg);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_destroy(struct doca_devemu_vfs_cfg *cfg);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_get_vfs_req_user_data_size(const struct doca_devemu_vfs_cfg *cfg, uint32_t *req_user_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_set_vfs_req_user_data_size(struct doca_devemu_vfs_cfg *cfg, uint32_t req_user_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_get_notification_req_user_data_size(const struct doca_devemu_vfs_cfg *cfg, uint32_t *req_user_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_set_notification_req_user_data_size(struct doca_devemu_vfs_cfg *cfg, uint32_t req_user_data_size);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_add_dev(struct doca_devemu_vfs_cfg *cfg, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_rm_dev(struct doca_devemu_vfs_cfg *cfg, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_get_vfs_fuse_req_user_data_size(const struct doca_devemu_vfs_cfg *cfg, uint32_t *req_user_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_cfg_set_vfs_fuse_req_user_data_size(struct doca_devemu_vfs_cfg *cfg, uint32_t req_user_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_get_minimal_fuse_version_supported(uint32_t *major, uint32_t *minor);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VFS_H */
