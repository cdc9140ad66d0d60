/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "dpa_common.h"

DOCA_LOG_REGISTER(KERNEL_LAUNCH::MAIN);

/* The sample's logic (host/dpa_kernel_launch_sample.c) */
doca_error_t kernel_launch(struct dpa_resources *resources);

int main(int argc, char **argv)
{
	return dpa_sample_main(argc, argv, "kernel_launch", kernel_launch);
}
