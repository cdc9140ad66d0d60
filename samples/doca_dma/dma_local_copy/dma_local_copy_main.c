/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

#include <doca_error.h>
#include <doca_log.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DPU_LOCAL_DMA_COPY::MAIN);

#define DEFAULT_PCI_ADDR "03:00.0"
#define DEFAULT_TEXT "This is a sample piece of text"

/* The sample's logic (dma_local_copy_sample.c) */
doca_error_t dma_local_copy(const char *pcie_addr, char *dst_buffer, char *src_buffer, size_t length,
			    int num_src_buf, int num_dst_buf);

static doca_error_t register_params(void)
{
	return register_dma_params(false);
}

static doca_error_t run(void *config)
{
	const struct dma_config *dma_conf = config;
	/* Copy the text with its NUL so the destination reads back as the same string */
	size_t length = strlen(dma_conf->cpy_txt) + 1;
	char *dst_buffer = calloc(1, length);
	char *src_buffer = malloc(length);
	doca_error_t result = DOCA_ERROR_NO_MEMORY;

	if (dst_buffer == NULL || src_buffer == NULL) {
		DOCA_LOG_ERR("Failed to allocate %zu-byte source and destination buffers", length);
		goto buffers_cleanup;
	}
	memcpy(src_buffer, dma_conf->cpy_txt, length);

	result = dma_local_copy(dma_conf->pci_address, dst_buffer, src_buffer, length, dma_conf->num_src_buf,
				dma_conf->num_dst_buf);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("dma_local_copy() encountered an error: %s", doca_error_get_descr(result));

buffers_cleanup:
	free(src_buffer);
	free(dst_buffer);
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
#ifndef DOCA_ARCH_DPU
	desc.cannot_run = "Local DMA copy can run only on the DPU";
#endif
	return sample_main(argc, argv, &desc);
}
