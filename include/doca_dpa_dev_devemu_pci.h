/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_dpa_dev_devemu_pci.h — emulated PCI device doorbells and MSI-X on the DPA.
 * Device code only: compiled by dpacc (docs/dpa.md).
 */
#ifndef SOFTDOCA_DOCA_DPA_DEV_DEVEMU_PCI_H
#define SOFTDOCA_DOCA_DPA_DEV_DEVEMU_PCI_H

#include "doca_dpa_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

__dpa_global__ typedef uint64_t doca_dpa_dev_devemu_pci_db_completion_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_devemu_pci_db_completion_element_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_devemu_pci_db_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_devemu_pci_msix_t;
DOCA_EXPERIMENTAL int doca_dpa_dev_devemu_pci_get_db_completion(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_completion_element_t *comp_element);
DOCA_EXPERIMENTAL void doca_dpa_dev_devemu_pci_db_completion_ack(doca_dpa_dev_devemu_pci_db_completion_t comp, uint64_t num_comp);
DOCA_EXPERIMENTAL void doca_dpa_dev_devemu_pci_db_completion_request_notification(doca_dpa_dev_devemu_pci_db_completion_t comp);
DOCA_EXPERIMENTAL int doca_dpa_dev_devemu_pci_db_completion_bind_db(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_t db);
DOCA_EXPERIMENTAL int doca_dpa_dev_devemu_pci_db_completion_unbind_db(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_t db);
DOCA_EXPERIMENTAL void doca_dpa_dev_devemu_pci_db_completion_element_get_db_properties(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_completion_element_t comp_element, doca_dpa_dev_devemu_pci_db_t *db, doca_dpa_dev_uintptr_t *db_user_data);
DOCA_EXPERIMENTAL void doca_dpa_dev_devemu_pci_db_request_notification(doca_dpa_dev_devemu_pci_db_t db);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_devemu_pci_db_get_value(doca_dpa_dev_devemu_pci_db_t db);
DOCA_EXPERIMENTAL void doca_dpa_dev_devemu_pci_msix_raise(doca_dpa_dev_devemu_pci_msix_t msix);
DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_devemu_pci_msix_get_user_data(doca_dpa_dev_devemu_pci_msix_t msix);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DPA_DEV_DEVEMU_PCI_H */
