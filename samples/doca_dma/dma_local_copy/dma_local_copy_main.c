/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DPU_LOCAL_DMA_COPY::MAIN);

#define DEFAULT_PCI_ADDR "03:00.0"
#define DEFAULT_TEXT "This is a sample piece of text"

/* The sample's logic (dma_local_copy_sample.c) */
doca_error_t dma_local_copy(const char *pcie_addr, char *dst_buffer, char *src_buffer, size_t length,
			    int num_src_buf, int num_dst_buf);

int main(int argc, char **argv)
{
	struct dma_config dma_conf = {.num_src_buf = 1, .num_dst_buf = 1};
	struct doca_log_backend *sdk_log;
	char *src_buffer = NULL, *dst_buffer = NULL;
	int exit_status = EXIT_FAILURE;
	doca_error_t result;
	size_t length;

	strcpy(dma_conf.pci_address, DEFAULT_PCI_ADDR);
	strcpy(dma_conf.cpy_txt, DEFAULT_TEXT);

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
	DOCA_LOG_ERR("Local DMA copy can run only on the DPU");
	goto sample_exit;
#endif

	result = doca_argp_init(NULL, &dma_conf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init ARGP resources: %s", doca_error_get_descr(result));
		goto sample_exit;
	}
	result = register_dma_params(false);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to register DMA sample parameters: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to parse sample input: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}

	/* Copy the text with its NUL so the destination reads back as the same string */
	length = strlen(dma_conf.cpy_txt) + 1;
	dst_buffer = calloc(1, length);
	src_buffer = malloc(length);
	if (dst_buffer == NULL || src_buffer == NULL) {
		DOCA_LOG_ERR("Failed to allocate %zu-byte source and destination buffers", length);
		goto buffers_cleanup;
	}
	memcpy(src_buffer, dma_conf.cpy_txt, length);

	result = dma_local_copy(dma_conf.pci_address, dst_buffer, src_buffer, length, dma_conf.num_src_buf,
				dma_conf.num_dst_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("dma_local_copy() encountered an error: %s", doca_error_get_descr(result));
		goto buffers_cleanup;
	}

	exit_status = EXIT_SUCCESS;

buffers_cleanup:
	free(src_buffer);
	free(dst_buffer);
argp_cleanup:
	doca_argp_destroy();
sample_exit:
	if (exit_status == EXIT_SUCCESS)
		DOCA_LOG_INFO("Sample finished successfully");
	else
		DOCA_LOG_INFO("Sample finished with errors");
	return exit_status;
}
