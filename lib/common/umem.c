/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Core UMEM (doca_umem.h): memory registered with a device for the rings and doorbell
 * records of queues a program builds itself (DOCA Verbs, GPUNetIO). The soft card has no such
 * queues, so every call says NOT_SUPPORTED with one SDK line, as the stub libraries do
 * (lib/stubs/stub.h); it lives in doca_common because DOCA's does.
 */
#include "doca_umem.h"
#include "stubs/stub.h"

SDK_LOG_REGISTER(DOCA_UMEM);

#define STUB_LIBRARY "DOCA Core UMEM (libdoca_common)"

doca_error_t doca_umem_create(const struct doca_dev *dev, void *address, size_t size, uint32_t access_flags, struct doca_umem **umem_obj)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_umem_dpa_create(struct doca_dpa *dpa, uint64_t address, size_t size, uint32_t access_flags, struct doca_umem **umem_obj)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_umem_gpu_create(struct doca_gpu *gpu, struct doca_dev *dev, void *address, size_t size, uint32_t access_flags, struct doca_umem **umem_obj)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_umem_destroy(struct doca_umem *umem_obj)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_umem_get_id(const struct doca_umem *umem_obj, uint32_t *umem_id)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_umem_get_size(const struct doca_umem *umem_obj, uint32_t *umem_size)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_umem_get_address(const struct doca_umem *umem_obj, void **umem_addr)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}
