/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "comch_ctrl_path_common.h"

DOCA_LOG_REGISTER(COMCH_DATA_PATH_HIGH_SPEED_SERVER::MAIN);

#define DEFAULT_PCI_ADDR "03:00.0"
#define DEFAULT_REP_PCI_ADDR "b1:00.0"
#define DEFAULT_TEXT "Message from the client"
#define SERVER_NAME "comch_data_path_sample_server"

/* The sample's logic (comch_data_path_high_speed_server_sample.c) */
doca_error_t start_comch_data_path_server_sample(const char *server_name, const char *dev_pci_addr,
						 const char *rep_pci_addr, const char *text);

int main(int argc, char **argv)
{
	struct comch_config cfg = {0};
	struct doca_log_backend *sdk_log;
	int exit_status = EXIT_FAILURE;
	doca_error_t result;

	strcpy(cfg.comch_dev_pci_addr, DEFAULT_PCI_ADDR);
	strcpy(cfg.comch_dev_rep_pci_addr, DEFAULT_REP_PCI_ADDR);
	strcpy(cfg.text, DEFAULT_TEXT);
	cfg.text_size = (uint32_t)strlen(cfg.text);

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

	result = doca_argp_init(NULL, &cfg);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init ARGP resources: %s", doca_error_get_descr(result));
		goto sample_exit;
	}
	result = register_comch_params();
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to register Comm Channel server sample parameters: %s",
			     doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to parse sample input: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}

	result = start_comch_data_path_server_sample(SERVER_NAME, cfg.comch_dev_pci_addr, cfg.comch_dev_rep_pci_addr,
						     cfg.text);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Sample failed: %s", doca_error_get_descr(result));
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
