/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_MULTI_CONN_RECEIVE::MAIN);

/* The sample's logic (rdma_multi_conn_receive_sample.c) */
doca_error_t rdma_multi_conn_receive(struct rdma_config *cfg);

static doca_error_t register_params(void)
{
	doca_error_t result = register_rdma_common_params();

	if (result == DOCA_SUCCESS)
		result = register_rdma_num_connections_param();
	return result;
}

static doca_error_t run(void *config)
{
	return rdma_multi_conn_receive(config);
}

int main(int argc, char **argv)
{
	struct rdma_config cfg;
	struct sample_main_desc desc = {.config = &cfg,
					.register_params = register_params,
					.params_name = "RDMA sample",
					.run = run,
					.run_error = "rdma_multi_conn_receive() failed"};

	set_default_config_value(&cfg);
	return sample_main(argc, argv, &desc);
}
