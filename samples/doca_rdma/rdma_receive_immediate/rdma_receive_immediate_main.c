/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE_IMMEDIATE::MAIN);

/* The sample's logic (rdma_receive_immediate_sample.c) */
doca_error_t rdma_receive_immediate(struct rdma_config *cfg);

static doca_error_t register_params(void)
{
	return register_rdma_common_params();
}

static doca_error_t run(void *config)
{
	return rdma_receive_immediate(config);
}

int main(int argc, char **argv)
{
	struct rdma_config cfg;
	struct sample_main_desc desc = {.config = &cfg,
					.register_params = register_params,
					.params_name = "RDMA sample",
					.run = run,
					.run_error = "rdma_receive_immediate() failed"};

	set_default_config_value(&cfg);
	return sample_main(argc, argv, &desc);
}
