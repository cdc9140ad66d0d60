/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DMA_COPY_DPU::MAIN);

#define DEFAULT_PCI_ADDR "03:00.0"
#define DEFAULT_EXPORT_DESC_PATH "/tmp/export_desc.txt"
#define DEFAULT_BUF_INFO_PATH "/tmp/buffer_info.txt"

/* The sample's logic (dma_copy_dpu_sample.c) */
doca_error_t dma_copy_dpu(const char *export_desc_file_path, const char *buffer_info_file_path,
			  const char *pcie_addr, int num_src_buf, int num_dst_buf);

int main(int argc, char **argv)
{
	struct dma_config dma_conf = {.num_src_buf = 1, .num_dst_buf = 1};
	struct doca_log_backend *sdk_log;
	int exit_status = EXIT_FAILURE;
	doca_error_t result;

	strcpy(dma_conf.pci_address, DEFAULT_PCI_ADDR);
	strcpy(dma_conf.export_desc_path, DEFAULT_EXPORT_DESC_PATH);
	strcpy(dma_conf.buf_info_path, DEFAULT_BUF_INFO_PATH);
	/* The text comes from the host */
	dma_conf.cpy_txt[0] = '\0';

	/* Application messages: INFO and below on stdout, WARNING and above on stderr */
	result = doca_log_backend_create_standard();
	if (result != DOCA_SUCCESS)
		return EXIT_FAILURE;

	/* Library messages: warnings and errors on stderr */
	result = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (result != DOCA_SUCCESS)
		goto sample_exit;
	result = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (result != DOCA_SUCCESS)
		goto sample_exit;

	DOCA_LOG_INFO("Starting the sample");

#ifndef DOCA_ARCH_DPU
	DOCA_LOG_ERR("Sample can run only on the DPU");
	goto sample_exit;
#endif

	result = doca_argp_init(NULL, &dma_conf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init ARGP resources: %s", doca_error_get_descr(result));
		goto sample_exit;
	}
	result = register_dma_params(true);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to register DMA sample parameters: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to parse sample input: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}

	result = dma_copy_dpu(dma_conf.export_desc_path, dma_conf.buf_info_path, dma_conf.pci_address,
			      dma_conf.num_src_buf, dma_conf.num_dst_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("dma_copy_dpu() encountered an error: %s", doca_error_get_descr(result));
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
