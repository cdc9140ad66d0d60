/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "common.h"
#include "dpa_common.h"

DOCA_LOG_REGISTER(DPA_PING_PONG::MAIN);

/* The sample's logic (host/dpa_ping_pong_sample.c) */
doca_error_t dpa_ping_pong(struct dpa_resources *resources);

static doca_error_t run(void *config)
{
	struct dpa_resources resources;
	doca_error_t result, tmp;

	result = allocate_dpa_resources(config, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to Allocate DPA Resources: %s", doca_error_get_descr(result));
		return result;
	}
	result = dpa_ping_pong(&resources);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("dpa_ping_pong() encountered an error: %s", doca_error_get_descr(result));
	tmp = destroy_dpa_resources(&resources);
	if (tmp != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to destroy DOCA DPA resources: %s", doca_error_get_descr(tmp));
		DOCA_ERROR_PROPAGATE(result, tmp);
	}
	return result;
}

int main(int argc, char **argv)
{
	struct dpa_config cfg = {0};
	struct sample_main_desc desc = {.config = &cfg,
					.register_params = register_dpa_params,
					.params_name = "sample",
					.run = run};

	strcpy(cfg.pf_device_name, DEVICE_DEFAULT_NAME);
	strcpy(cfg.rdma_device_name, DEVICE_DEFAULT_NAME);
	return sample_main(argc, argv, &desc);
}
