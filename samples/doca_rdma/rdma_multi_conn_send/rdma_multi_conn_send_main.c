/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_MULTI_CONN_SEND::MAIN);

/* The sample's logic (rdma_multi_conn_send_sample.c) */
doca_error_t rdma_multi_conn_send(struct rdma_config *cfg);

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, rdma_multi_conn_send, RDMA_PARAM_SEND_STRING | RDMA_PARAM_NUM_CONNECTIONS,
				"rdma_multi_conn_send() failed");
}
