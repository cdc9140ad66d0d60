/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_virtio_type.h — DOCA DevEmu virtio device type, declarations from the DOCA
 * 3.0 interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VIRTIO_TYPE_H
#define SOFTDOCA_DOCA_DEVEMU_VIRTIO_TYPE_H

#include <stdint.h>

#include "doca_error.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_virtio.h"

#ifdef __cplusplus
extern "C" {
#endif

DOCA_EXPERIMENTAL struct doca_devemu_pci_type *doca_devemu_virtio_type_as_pci_type(struct doca_devemu_virtio_type *virtio_type);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_type_get_num_queues(const struct doca_devemu_virtio_type *virtio_type, uint16_t *num_queues);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_type_get_queue_size(const struct doca_devemu_virtio_type *virtio_type, uint16_t *queue_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_type_get_device_features_63_0(const struct doca_devemu_virtio_type *virtio_type, uint64_t *features);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_type_get_config_generation(const struct doca_devemu_virtio_type *virtio_type, uint8_t *config_generation);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_cap_default_type_get_configurable_device_features_63_0(const struct doca_devemu_virtio_type *virtio_type, uint64_t *features);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_cap_default_type_get_max_num_queues(const struct doca_devemu_virtio_type *virtio_type, uint16_t *num_queues);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VIRTIO_TYPE_H */
