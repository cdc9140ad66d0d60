/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <doca_error.h>
#include <doca_log.h>

#include "common.h"
#include "comch_ctrl_path_common.h"

DOCA_LOG_REGISTER(COMCH_CTRL_PATH_CLIENT::MAIN);

#define DEFAULT_PCI_ADDR "b1:00.0"
#define DEFAULT_TEXT "Message from the client"
#define SERVER_NAME "comch_ctrl_path_sample_server"

/* The sample's logic (comch_ctrl_path_client_sample.c) */
doca_error_t start_comch_ctrl_path_client_sample(const char *server_name, const char *dev_pci_addr, const char *text,
						 uint32_t text_len);

static doca_error_t run(void *config)
{
	const struct comch_config *cfg = config;

	return start_comch_ctrl_path_client_sample(SERVER_NAME, cfg->comch_dev_pci_addr, cfg->text, cfg->text_size);
}

int main(int argc, char **argv)
{
	struct comch_config cfg = {0};
	const struct sample_main_desc desc = {.config = &cfg,
					      .register_params = register_comch_params,
					      .params_name = "Comm Channel client sample",
					      .run = run,
					      .run_error = "Sample failed"};

	strcpy(cfg.comch_dev_pci_addr, DEFAULT_PCI_ADDR);
	strcpy(cfg.text, DEFAULT_TEXT);
	cfg.text_size = (uint32_t)strlen(cfg.text);
	return sample_main(argc, argv, &desc);
}
