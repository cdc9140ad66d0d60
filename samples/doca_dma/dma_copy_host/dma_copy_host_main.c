/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <doca_error.h>
#include <doca_log.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DMA_COPY_HOST::MAIN);

#define DEFAULT_PCI_ADDR "b1:00.0"
#define DEFAULT_TEXT "This is a sample piece of text"
#define DEFAULT_EXPORT_DESC_PATH "/tmp/export_desc.txt"
#define DEFAULT_BUF_INFO_PATH "/tmp/buffer_info.txt"

/* The sample's logic (dma_copy_host_sample.c) */
doca_error_t dma_copy_host(const char *pcie_addr, char *src_buffer, size_t src_buffer_size,
			   const char *export_desc_file_path, const char *buffer_info_file_path);

static doca_error_t register_params(void)
{
	return register_dma_params(true);
}

static doca_error_t run(void *config)
{
	const struct dma_config *dma_conf = config;
	/* The text travels with its NUL, so the DPU prints exactly this string */
	size_t length = strlen(dma_conf->cpy_txt) + 1;
	char *src_buffer = malloc(length);
	doca_error_t result;

	if (src_buffer == NULL) {
		DOCA_LOG_ERR("Source buffer allocation failed");
		return DOCA_ERROR_NO_MEMORY;
	}
	memcpy(src_buffer, dma_conf->cpy_txt, length);

	result = dma_copy_host(dma_conf->pci_address, src_buffer, length, dma_conf->export_desc_path,
			       dma_conf->buf_info_path);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("dma_copy_host() encountered an error: %s", doca_error_get_descr(result));
	free(src_buffer);
	return result;
}

int main(int argc, char **argv)
{
	struct dma_config dma_conf = {.num_src_buf = 1, .num_dst_buf = 1};
	struct sample_main_desc desc = {.config = &dma_conf,
					.register_params = register_params,
					.params_name = "DMA sample",
					.run = run};

	strcpy(dma_conf.pci_address, DEFAULT_PCI_ADDR);
	strcpy(dma_conf.cpy_txt, DEFAULT_TEXT);
	strcpy(dma_conf.export_desc_path, DEFAULT_EXPORT_DESC_PATH);
	strcpy(dma_conf.buf_info_path, DEFAULT_BUF_INFO_PATH);
#ifndef DOCA_ARCH_HOST
	desc.cannot_run = "Sample can run only on the Host";
#endif
	return sample_main(argc, argv, &desc);
}
