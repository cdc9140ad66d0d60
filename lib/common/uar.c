/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Core UAR (doca_uar.h): a UAR is a device's doorbell page mapped into the process. The soft
 * card rings no doorbells through memory, so every call says NOT_SUPPORTED with one SDK line, as
 * the stub libraries do (lib/stubs/stub.h); it lives in doca_common because DOCA's does.
 */
#include "doca_uar.h"
#include "stubs/stub.h"

SDK_LOG_REGISTER(DOCA_UAR);

#define STUB_LIBRARY "DOCA Core UAR (libdoca_common)"

doca_error_t doca_uar_create(const struct doca_dev *dev, enum doca_uar_allocation_type allocation_type, struct doca_uar **uar)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_uar_dpa_create(struct doca_dpa *dpa, struct doca_uar **uar)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_uar_destroy(struct doca_uar *uar)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_uar_id_get(const struct doca_uar *uar, uint32_t *id)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_uar_page_get(const struct doca_uar *uar, void **page)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_uar_reg_addr_get(const struct doca_uar *uar, void **reg)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}
