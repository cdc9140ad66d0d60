/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE::MAIN);

/* The sample's logic (rdma_receive_sample.c) */
doca_error_t rdma_receive(struct rdma_config *cfg);

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, rdma_receive, 0, "rdma_receive() failed");
}
