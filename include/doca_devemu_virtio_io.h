/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_virtio_io.h — DOCA DevEmu virtio I/O, declarations from the DOCA 3.0
 * interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VIRTIO_IO_H
#define SOFTDOCA_DOCA_DEVEMU_VIRTIO_IO_H

#include <stdint.h>

#include "doca_error.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_virtio.h"

#ifdef __cplusplus
extern "C" {
#endif

DOCA_EXPERIMENTAL struct doca_ctx *doca_devemu_virtio_io_as_ctx(struct doca_devemu_virtio_io *io);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VIRTIO_IO_H */
