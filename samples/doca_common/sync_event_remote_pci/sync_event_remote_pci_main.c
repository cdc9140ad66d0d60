/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_sync_event_remote_pci, the DPU side: imports the sync event the host sends over Comch. */
#include <stdlib.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "common_common.h"

DOCA_LOG_REGISTER(SYNC_EVENT_REMOTE_PCI::MAIN);

/* The sample's logic (sync_event_remote_pci_sample.c) */
doca_error_t sync_event_run(const struct sync_event_config *se_cfg, struct sync_event_runtime_objects *se_rt_objs);

int main(int argc, char **argv)
{
	struct sync_event_config se_cfg = {.async_num_tasks = SYNC_EVENT_DEFAULT_NUM_TASKS};
	struct sync_event_runtime_objects se_rt_objs = {0};
	struct doca_log_backend *sdk_log;
	int exit_status = EXIT_FAILURE;
	doca_error_t result;

	result = doca_log_backend_create_standard();
	if (result != DOCA_SUCCESS)
		return EXIT_FAILURE;
	result = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (result != DOCA_SUCCESS)
		goto sample_exit;
	result = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (result != DOCA_SUCCESS)
		goto sample_exit;

	DOCA_LOG_INFO("Starting the sample");

	result = doca_argp_init(NULL, &se_cfg);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init ARGP resources: %s", doca_error_get_descr(result));
		goto sample_exit;
	}
	result = sync_event_params_register();
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to register sample parameters: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to parse sample input: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}

	result = sync_event_run(&se_cfg, &se_rt_objs);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("sync_event_run() encountered an error: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	exit_status = EXIT_SUCCESS;

argp_cleanup:
	doca_argp_destroy();
sample_exit:
	if (exit_status == EXIT_SUCCESS)
		DOCA_LOG_INFO("Sample finished successfully");
	else
		DOCA_LOG_INFO("Sample finished with errors");
	return exit_status;
}
