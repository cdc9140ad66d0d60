/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_virtio.h — DOCA DevEmu virtio common, declarations from the DOCA 3.0
 * interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VIRTIO_H
#define SOFTDOCA_DOCA_DEVEMU_VIRTIO_H

#include <stdint.h>

#include "doca_error.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devemu_virtio_dev;
struct doca_devemu_virtio_type;
struct doca_devemu_virtio_io;
struct doca_devemu_virtio_queue_stats;

DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_device_features_63_0(const struct doca_devemu_virtio_dev *virtio_dev, uint64_t *features);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_set_device_features_63_0(struct doca_devemu_virtio_dev *virtio_dev, uint64_t features);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_driver_features_63_0(const struct doca_devemu_virtio_dev *virtio_dev, uint64_t *features);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_config_msix_vector(const struct doca_devemu_virtio_dev *virtio_dev, uint16_t *config_msix_vector);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_num_queues(const struct doca_devemu_virtio_dev *virtio_dev, uint16_t *num_queues);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_set_num_queues(struct doca_devemu_virtio_dev *virtio_dev, uint16_t num_queues);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_num_enabled_queues(const struct doca_devemu_virtio_dev *virtio_dev, uint16_t *num_queues);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_device_status(const struct doca_devemu_virtio_dev *virtio_dev, uint8_t *device_status);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_config_generation(const struct doca_devemu_virtio_dev *virtio_dev, uint8_t *config_generation);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_queue_size(const struct doca_devemu_virtio_dev *virtio_dev, uint16_t *queue_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_set_queue_size(struct doca_devemu_virtio_dev *virtio_dev, uint16_t queue_size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_get_num_required_running_virtio_io_ctxs(const struct doca_devemu_virtio_dev *virtio_dev, uint32_t *num_virtio_io);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_set_num_required_running_virtio_io_ctxs(struct doca_devemu_virtio_dev *virtio_dev, uint32_t num_virtio_io);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_reset_complete(struct doca_devemu_virtio_dev *virtio_dev);
DOCA_EXPERIMENTAL struct doca_ctx *doca_devemu_virtio_dev_as_ctx(struct doca_devemu_virtio_dev *virtio_dev);
DOCA_EXPERIMENTAL struct doca_devemu_pci_dev *doca_devemu_virtio_dev_as_pci_dev(struct doca_devemu_virtio_dev *virtio_dev);

typedef void (*doca_devemu_virtio_dev_event_reset_handler_cb_t)(struct doca_devemu_virtio_dev *virtio_dev, union doca_data event_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_dev_event_reset_register(struct doca_devemu_virtio_dev *virtio_dev, doca_devemu_virtio_dev_event_reset_handler_cb_t handler, union doca_data user_data);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_create_list(struct doca_devemu_virtio_dev *virtio_dev, struct doca_devemu_virtio_queue_stats ***stats_list, uint32_t *num_stats);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_destroy_list(struct doca_devemu_virtio_queue_stats **stats_list);

typedef void (*doca_devemu_virtio_queue_stats_list_populate_done_cb_t)(struct doca_devemu_virtio_queue_stats **stats_list, union doca_data user_data, doca_error_t err);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_populate_list(struct doca_devemu_virtio_queue_stats **stats_list, doca_devemu_virtio_queue_stats_list_populate_done_cb_t done, union doca_data user_data);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_id(struct doca_devemu_virtio_queue_stats *stats, uint16_t *id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_size(struct doca_devemu_virtio_queue_stats *stats, uint16_t *size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_inflights(struct doca_devemu_virtio_queue_stats *stats, uint16_t *inflights);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_hw_avail_idx(struct doca_devemu_virtio_queue_stats *stats, uint16_t *idx);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_driver_avail_idx(struct doca_devemu_virtio_queue_stats *stats, uint16_t *idx);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_hw_used_idx(struct doca_devemu_virtio_queue_stats *stats, uint16_t *idx);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_driver_used_idx(struct doca_devemu_virtio_queue_stats *stats, uint16_t *idx);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_virtio_queue_stats_get_enabled(struct doca_devemu_virtio_queue_stats *stats, uint8_t *enabled);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VIRTIO_H */
