/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_pci_ep.h — DOCA DevEmu PCI endpoint (pkg-config doca-devemu, DOCA 3.3),
 * declarations from the DOCA 3.3 interface facts: the base of every emulated PCI function, its
 * MSI-X and doorbell counts, doorbells and MSI-X vectors served by the DPA, and memory maps of
 * the host the function is exposed to. DevEmu is a stub library (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_PCI_EP_H
#define SOFTDOCA_DOCA_DEVEMU_PCI_EP_H

#include <stdbool.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_dev.h"
#include "doca_error.h"
#include "doca_mmap.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devemu_pci_ep;
struct doca_devemu_pci_db;
struct doca_devemu_pci_db_completion;
struct doca_devemu_pci_msix;
struct doca_dpa;
/* DPA handles (also declared by doca_devemu_pci.h; identical typedefs) */
typedef uint64_t doca_dpa_dev_devemu_pci_db_t;
typedef uint64_t doca_dpa_dev_devemu_pci_db_completion_t;
typedef uint64_t doca_dpa_dev_devemu_pci_msix_t;

/* the data path runs on the DPA (before start) */
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_set_datapath_on_dpa(struct doca_devemu_pci_ep *ep, struct doca_dpa *dpa_dev);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_get_num_msix(const struct doca_devemu_pci_ep *ep, uint16_t *num_msix);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_set_num_msix(struct doca_devemu_pci_ep *ep, uint16_t num_msix);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_get_num_db(const struct doca_devemu_pci_ep *ep, uint16_t *num_db);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_set_num_db(struct doca_devemu_pci_ep *ep, uint16_t num_db);
/* db_id in [0, num_db); the doorbell's region starts at bar_start_addr of BAR bar_id */
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_create_db_on_dpa(struct doca_devemu_pci_ep *ep, struct doca_devemu_pci_db_completion *db_comp, uint8_t bar_id, uint64_t bar_start_addr, uint32_t db_id, uint64_t user_data_on_dpa, struct doca_devemu_pci_db **db);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_create_msix_on_dpa(struct doca_devemu_pci_ep *ep, uint8_t bar_id, uint64_t bar_start_addr, uint16_t msix_idx, uint64_t user_data_on_dpa, struct doca_devemu_pci_msix **msix);
/* an empty mmap of the memory of the host the endpoint is exposed to */
DOCA_EXPERIMENTAL doca_error_t doca_devemu_pci_ep_mmap_create(struct doca_devemu_pci_ep *ep, struct doca_mmap **mmap);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_PCI_EP_H */
