/* SPDX-License-Identifier: BSD-3-Clause */
/* Device code of the out-of-tree DPA check (out_of_tree_build.sh), built by the installed dpacc. */
#include <doca_dpa_dev.h>

__dpa_rpc__ uint64_t add_rpc(uint64_t a, uint64_t b)
{
	DOCA_DPA_DEV_LOG_INFO("add_rpc on the DPA: %lu + %lu\n", (unsigned long)a, (unsigned long)b);
	return a + b;
}
