/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_vfs_dev.h — DOCA DevEmu virtio-fs device. Newer DOCA (the 3.3 samples)
 * declares the virtio-fs device calls here; in the DOCA 3.0 interface facts they are part of
 * doca_devemu_vfs.h, which this header includes. Which calls newer DOCA moved is inferred from
 * the samples. The library is a stub (every call returns DOCA_ERROR_NOT_SUPPORTED,
 * docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VFS_DEV_H
#define SOFTDOCA_DOCA_DEVEMU_VFS_DEV_H

#include "doca_devemu_vfs.h"

#endif /* SOFTDOCA_DOCA_DEVEMU_VFS_DEV_H */
