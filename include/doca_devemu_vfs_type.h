/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_vfs_type.h — DOCA DevEmu virtio-fs device type, declarations from the DOCA
 * 3.0 interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VFS_TYPE_H
#define SOFTDOCA_DOCA_DEVEMU_VFS_TYPE_H

#include <stdint.h>

#include "doca_error.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_virtio.h"
#include "doca_devemu_virtio_type.h"
#include "doca_devemu_vfs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOCA_DEVEMU_VIRTIOFS_NOTIFICATION_QUEUE_BIT_IN_DEVICE_FEATURES (1ULL << 0)

DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_is_default_vfs_type_supported(const struct doca_devinfo *devinfo, uint8_t *supported);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_find_default_vfs_type_by_dev(struct doca_dev *dev, struct doca_devemu_vfs_type **vfs_type);
DOCA_EXPERIMENTAL struct doca_devemu_virtio_type *doca_devemu_vfs_type_as_virtio_type(struct doca_devemu_vfs_type *vfs_type);
DOCA_EXPERIMENTAL struct doca_devemu_pci_type *doca_devemu_vfs_type_as_pci_type(struct doca_devemu_vfs_type *vfs_type);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_type_get_num_request_queues(const struct doca_devemu_vfs_type *vfs_type, uint32_t *num_request_queues);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VFS_TYPE_H */
