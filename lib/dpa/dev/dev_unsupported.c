/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device runtime (libdoca_dpa_dev.a): the calls softdoca's DPA does not implement yet
 * (docs/compatibility.md). Each one is reported, never silently wrong: the host logs the call
 * and the DPA context turns fatal (doca_dpa_peek_at_last_error); it returns 0.
 */
#include "doca_dpa_dev.h"
#include "doca_dpa_dev_buf.h"
#include "doca_dpa_dev_devemu_pci.h"
#include "doca_dpa_dev_sync_event.h"
#include "dev_runtime.h"

uint32_t doca_dpa_dev_completion_element_get_swqe_opcode(doca_dpa_dev_completion_element_t comp_element)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_completion_element_get_swqe_opcode");
	return 0;
}

int doca_dpa_dev_devemu_pci_get_db_completion(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_completion_element_t *comp_element)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_get_db_completion");
	return 0;
}

void doca_dpa_dev_devemu_pci_db_completion_ack(doca_dpa_dev_devemu_pci_db_completion_t comp, uint64_t num_comp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_db_completion_ack");
}

void doca_dpa_dev_devemu_pci_db_completion_request_notification(doca_dpa_dev_devemu_pci_db_completion_t comp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_db_completion_request_notification");
}

int doca_dpa_dev_devemu_pci_db_completion_bind_db(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_t db)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_db_completion_bind_db");
	return 0;
}

int doca_dpa_dev_devemu_pci_db_completion_unbind_db(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_t db)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_db_completion_unbind_db");
	return 0;
}

void doca_dpa_dev_devemu_pci_db_completion_element_get_db_properties(doca_dpa_dev_devemu_pci_db_completion_t comp, doca_dpa_dev_devemu_pci_db_completion_element_t comp_element, doca_dpa_dev_devemu_pci_db_t *db, doca_dpa_dev_uintptr_t *db_user_data)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_db_completion_element_get_db_properties");
}

void doca_dpa_dev_devemu_pci_db_request_notification(doca_dpa_dev_devemu_pci_db_t db)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_db_request_notification");
}

uint32_t doca_dpa_dev_devemu_pci_db_get_value(doca_dpa_dev_devemu_pci_db_t db)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_db_get_value");
	return 0;
}

void doca_dpa_dev_devemu_pci_msix_raise(doca_dpa_dev_devemu_pci_msix_t msix)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_msix_raise");
}

doca_dpa_dev_uintptr_t doca_dpa_dev_devemu_pci_msix_get_user_data(doca_dpa_dev_devemu_pci_msix_t msix)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_devemu_pci_msix_get_user_data");
	return 0;
}
