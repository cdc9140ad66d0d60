/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_mmap_get_mkey (DOCA 3.3, prototype inferred from NVIDIA's GPUNetIO samples): the memory
 * key a device's NIC uses for a started mmap, which GPU kernels put in the WQEs they build. The
 * soft card's memory has no NIC memory keys, so the call says NOT_SUPPORTED with one SDK line,
 * as the stub libraries do (lib/stubs/stub.h).
 */
#include "doca_mmap.h"
#include "stubs/stub.h"

SDK_LOG_REGISTER(DOCA_MMAP_MKEY);

#define STUB_LIBRARY "DOCA Core memory keys (libdoca_common)"

doca_error_t doca_mmap_get_mkey(const struct doca_mmap *mmap, struct doca_dev *dev, uint32_t *mkey)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}
