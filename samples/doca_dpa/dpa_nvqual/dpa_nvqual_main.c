/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>

#include <doca_log.h>

#include "common.h"
#include "host/dpa_nvqual.h"

DOCA_LOG_REGISTER(DPA_NVQUAL_TEST);

int main(int argc, char **argv)
{
	static struct dpa_nvqual_config cfg;
	struct sample_main_desc desc = {.config = &cfg,
					.register_params = dpa_nvqual_register_params,
					.params_name = "sample",
					.run = dpa_nvqual,
					.run_error = "dpa_nvqual() encountered an error"};

	cfg.user_factor = 0.75f;
	return sample_main(argc, argv, &desc);
}
