/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SEND_IMMEDIATE::MAIN);

/* The sample's logic (rdma_send_immediate_sample.c) */
doca_error_t rdma_send_immediate(struct rdma_config *cfg);

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, rdma_send_immediate, RDMA_PARAM_SEND_STRING,
				"rdma_send_immediate() failed");
}
