/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_pci.h — DOCA DevEmu PCI devices, declarations from the DOCA 3.0 interface
 * facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_PCI_H
#define SOFTDOCA_DOCA_DEVEMU_PCI_H

#include <stdint.h>
#include <sys/uio.h>

#include "doca_error.h"
#include "doca_dev.h"
#include "doca_mmap.h"
#include "doca_ctx.h"
#include "doca_pe.h"
#include "doca_devemu_pci_type.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devemu_pci_dev;
struct doca_devemu_pci_db;

typedef uint64_t doca_dpa_dev_devemu_pci_db_t;

struct doca_devemu_pci_db_completion;

typedef uint64_t doca_dpa_dev_devemu_pci_db_completion_t;

struct doca_devemu_pci_msix;

typedef uint64_t doca_dpa_dev_devemu_pci_msix_t;

struct doca_devemu_pci_resources;

DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_cap_get_max_hotplug_devices(const struct doca_devinfo *devinfo, uint32_t *max_hotplug_devices);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_cap_is_mmap_add_dev_supported(const struct doca_devinfo *devinfo, uint8_t *supported);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_create(struct doca_devemu_pci_type *pci_type, struct doca_dev_rep *dev_rep, struct doca_pe *progress_engine, struct doca_devemu_pci_dev **pci_dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_destroy(struct doca_devemu_pci_dev *pci_dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_device_id(const struct doca_devemu_pci_dev *pci_dev, uint16_t *device_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_set_device_id(struct doca_devemu_pci_dev *pci_dev, uint16_t device_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_vendor_id(const struct doca_devemu_pci_dev *pci_dev, uint16_t *vendor_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_set_vendor_id(struct doca_devemu_pci_dev *pci_dev, uint16_t vendor_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_subsystem_id(const struct doca_devemu_pci_dev *pci_dev, uint16_t *subsystem_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_set_subsystem_id(struct doca_devemu_pci_dev *pci_dev, uint16_t subsystem_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_subsystem_vendor_id(const struct doca_devemu_pci_dev *pci_dev, uint16_t *subsystem_vid);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_set_subsystem_vendor_id(struct doca_devemu_pci_dev *pci_dev, uint16_t subsystem_vid);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_revision_id(const struct doca_devemu_pci_dev *pci_dev, uint8_t *revision_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_set_revision_id(struct doca_devemu_pci_dev *pci_dev, uint8_t revision_id);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_class_code(const struct doca_devemu_pci_dev *pci_dev, uint32_t *class_code);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_set_class_code(struct doca_devemu_pci_dev *pci_dev, uint32_t class_code);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_num_msix(const struct doca_devemu_pci_dev *pci_dev, uint16_t *num_msix);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_set_num_msix(struct doca_devemu_pci_dev *pci_dev, uint16_t num_msix);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_modify_bar_stateful_region_default_values(struct doca_devemu_pci_dev *pci_dev, uint8_t id, uint64_t start_addr, void *default_values, uint64_t size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_modify_bar_stateful_region_values(struct doca_devemu_pci_dev *pci_dev, uint8_t id, uint64_t offset, void *values, uint64_t size);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_query_bar_stateful_region_values(struct doca_devemu_pci_dev *pci_dev, uint8_t id, uint64_t offset, void *out_values, uint64_t size);
DOCA_EXPERIMENTAL struct doca_ctx *doca_devemu_pci_dev_as_ctx(struct doca_devemu_pci_dev *pci_dev);
/* DOCA 3.3: the device's PCI endpoint (doca_devemu_pci_ep.h) */
struct doca_devemu_pci_ep;
DOCA_EXPERIMENTAL struct doca_devemu_pci_ep *doca_devemu_pci_dev_as_ep(struct doca_devemu_pci_dev *pci_dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_is_flr(const struct doca_devemu_pci_dev *pci_dev, uint8_t *flr);

enum doca_devemu_pci_hotplug_state {
	DOCA_DEVEMU_PCI_HP_STATE_POWER_OFF = 0,
	DOCA_DEVEMU_PCI_HP_STATE_UNPLUG_IN_PROGRESS,
	DOCA_DEVEMU_PCI_HP_STATE_PLUG_IN_PROGRESS,
	DOCA_DEVEMU_PCI_HP_STATE_POWER_ON,
};

DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_get_hotplug_state(struct doca_devemu_pci_dev *pci_dev, enum doca_devemu_pci_hotplug_state *state);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_rep_get_hotplug_state(struct doca_dev_rep *rep_dev, enum doca_devemu_pci_hotplug_state *state);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_hotplug(struct doca_devemu_pci_dev *pci_dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_hotunplug(struct doca_devemu_pci_dev *pci_dev);

typedef void (*doca_devemu_pci_dev_event_hotplug_state_change_handler_cb_t)(struct doca_devemu_pci_dev *pci_dev, union doca_data user_data);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_event_hotplug_state_change_register(struct doca_devemu_pci_dev *pci_dev, doca_devemu_pci_dev_event_hotplug_state_change_handler_cb_t handler, union doca_data user_data);

struct doca_devemu_pci_dev_event_bar_stateful_region_driver_write;

typedef void (*doca_devemu_pci_dev_event_bar_stateful_region_driver_write_handler_cb_t)(struct doca_devemu_pci_dev_event_bar_stateful_region_driver_write *event, union doca_data user_data);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_event_bar_stateful_region_driver_write_register(struct doca_devemu_pci_dev *pci_dev, doca_devemu_pci_dev_event_bar_stateful_region_driver_write_handler_cb_t handler, uint8_t bar_id, uint64_t bar_region_start_addr, union doca_data user_data);
DOCA_EXPERIMENTAL struct doca_devemu_pci_dev *doca_devemu_pci_dev_event_bar_stateful_region_driver_write_get_pci_dev(struct doca_devemu_pci_dev_event_bar_stateful_region_driver_write *event);
DOCA_EXPERIMENTAL uint8_t doca_devemu_pci_dev_event_bar_stateful_region_driver_write_get_bar_id(struct doca_devemu_pci_dev_event_bar_stateful_region_driver_write *event);
DOCA_EXPERIMENTAL uint64_t doca_devemu_pci_dev_event_bar_stateful_region_driver_write_get_bar_region_start_addr(struct doca_devemu_pci_dev_event_bar_stateful_region_driver_write *event);

typedef void (*doca_devemu_pci_dev_event_flr_handler_cb_t)(struct doca_devemu_pci_dev *pci_dev, union doca_data user_data);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_dev_event_flr_register(struct doca_devemu_pci_dev *pci_dev, doca_devemu_pci_dev_event_flr_handler_cb_t handler, union doca_data user_data);

struct doca_dpa_thread;

DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_create(struct doca_dpa_thread *th, struct doca_devemu_pci_db_completion **db_comp);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_destroy(struct doca_devemu_pci_db_completion *db_comp);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_start(struct doca_devemu_pci_db_completion *db_comp);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_stop(struct doca_devemu_pci_db_completion *db_comp);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_get_dpa_handle(struct doca_devemu_pci_db_completion *db_comp, doca_dpa_dev_devemu_pci_db_completion_t *db_comp_handle);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_set_max_num_dbs(struct doca_devemu_pci_db_completion *db_comp, uint32_t num_dbs);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_get_max_num_dbs(struct doca_devemu_pci_db_completion *db_comp, uint32_t *num_dbs);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_completion_get_curr_num_dbs(struct doca_devemu_pci_db_completion *db_comp, uint32_t *num_dbs);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_create_on_dpa(struct doca_devemu_pci_dev *pci_dev, struct doca_devemu_pci_db_completion *db_comp, uint8_t bar_id, uint64_t bar_start_addr, uint32_t db_id, uint64_t user_data_on_dpa, struct doca_devemu_pci_db **db);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_destroy(struct doca_devemu_pci_db *db);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_get_dpa_handle(struct doca_devemu_pci_db *db, doca_dpa_dev_devemu_pci_db_t *db_handle);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_start(struct doca_devemu_pci_db *db);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_stop(struct doca_devemu_pci_db *db);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_modify_value(struct doca_devemu_pci_db *db, uint32_t db_value);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_db_query_value(struct doca_devemu_pci_db *db, uint32_t *db_value);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_msix_create_on_dpa(struct doca_devemu_pci_dev *pci_dev, uint8_t bar_id, uint64_t bar_start_addr, uint16_t msix_idx, uint64_t user_data_on_dpa, struct doca_devemu_pci_msix **msix);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_msix_destroy(struct doca_devemu_pci_msix *msix);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_msix_get_dpa_handle(struct doca_devemu_pci_msix *msix, doca_dpa_dev_devemu_pci_msix_t *msix_handle);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_mmap_create(struct doca_devemu_pci_dev *pci_dev, struct doca_mmap **mmap);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_get_available_resources(const struct doca_devinfo *devinfo, struct doca_devemu_pci_resources **pci_resources);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_release_resources(struct doca_devemu_pci_resources *pci_resources);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_resources_get_num_msix(const struct doca_devemu_pci_resources *pci_resources, uint32_t *num_msix);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_resources_get_num_db(const struct doca_devemu_pci_resources *pci_resources, uint32_t *num_db);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_PCI_H */
