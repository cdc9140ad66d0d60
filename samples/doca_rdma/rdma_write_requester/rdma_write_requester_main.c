/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_REQUESTER::MAIN);

/* The sample's logic (rdma_write_requester_sample.c) */
doca_error_t rdma_write_requester(struct rdma_config *cfg);

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, rdma_write_requester, RDMA_PARAM_WRITE_STRING,
				"rdma_write_requester() failed");
}
