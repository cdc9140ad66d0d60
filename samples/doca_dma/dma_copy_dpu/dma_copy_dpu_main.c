/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>

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

static doca_error_t register_params(void)
{
	return register_dma_params(true);
}

static doca_error_t run(void *config)
{
	const struct dma_config *dma_conf = config;

	return dma_copy_dpu(dma_conf->export_desc_path, dma_conf->buf_info_path, dma_conf->pci_address,
			    dma_conf->num_src_buf, dma_conf->num_dst_buf);
}

int main(int argc, char **argv)
{
	struct dma_config dma_conf = {.num_src_buf = 1, .num_dst_buf = 1};
	struct sample_main_desc desc = {.config = &dma_conf,
					.register_params = register_params,
					.params_name = "DMA sample",
					.run = run,
					.run_error = "dma_copy_dpu() encountered an error"};

	strcpy(dma_conf.pci_address, DEFAULT_PCI_ADDR);
	strcpy(dma_conf.export_desc_path, DEFAULT_EXPORT_DESC_PATH);
	strcpy(dma_conf.buf_info_path, DEFAULT_BUF_INFO_PATH);
	/* The text comes from the host */
	dma_conf.cpy_txt[0] = '\0';
#ifndef DOCA_ARCH_DPU
	desc.cannot_run = "Sample can run only on the DPU";
#endif
	return sample_main(argc, argv, &desc);
}
