/* SPDX-License-Identifier: BSD-3-Clause */
/* Device side of dpa_bench: a kernel and an RPC that do nothing, so only the path is timed. */
#include <doca_dpa_dev.h>

__dpa_global__ void bench_empty_kernel(void)
{
}

__dpa_rpc__ uint64_t bench_noop_rpc(uint64_t x)
{
	return x + 1;
}
