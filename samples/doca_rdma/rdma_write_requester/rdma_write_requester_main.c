/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_REQUESTER::MAIN);

/* The sample's logic (rdma_write_requester_sample.c) */
doca_error_t rdma_write_requester(struct rdma_config *cfg);

static doca_error_t register_params(void)
{
	doca_error_t result = register_rdma_common_params();

	if (result == DOCA_SUCCESS)
		result = register_rdma_write_string_param();
	return result;
}

static doca_error_t run(void *config)
{
	return rdma_write_requester(config);
}

int main(int argc, char **argv)
{
	struct rdma_config cfg;
	struct sample_main_desc desc = {.config = &cfg,
					.register_params = register_params,
					.params_name = "RDMA sample",
					.run = run,
					.run_error = "rdma_write_requester() failed"};

	set_default_config_value(&cfg);
	return sample_main(argc, argv, &desc);
}
