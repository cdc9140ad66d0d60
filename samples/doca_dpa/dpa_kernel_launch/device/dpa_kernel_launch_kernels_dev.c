/* SPDX-License-Identifier: BSD-3-Clause */
/* Device code of dpa_kernel_launch, built by dpacc: one kernel that logs from the DPA. */
#include <doca_dpa_dev.h>

__dpa_global__ void hello_world(void)
{
	DOCA_DPA_DEV_LOG_INFO("Hello from kernel\n");
}
