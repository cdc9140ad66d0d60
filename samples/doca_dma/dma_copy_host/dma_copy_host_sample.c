/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DMA copy, host side: export a buffer holding the text to the DPU (read only) and leave two
 * files for the DPU sample: the export descriptor, and "<address>\n<length>" of the buffer.
 * The host does no DMA itself; it keeps the buffer exported until Enter is pressed.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DMA_COPY_HOST);

/* Write the descriptor (binary) and the buffer information (text) for the DPU. */
static doca_error_t save_config_info_to_files(const void *export_desc, size_t export_desc_len, const char *src_buffer,
					      size_t src_buffer_len, const char *export_desc_file_path,
					      const char *buffer_info_file_path)
{
	FILE *fp;
	int failed;

	fp = fopen(export_desc_file_path, "wb");
	if (fp == NULL) {
		DOCA_LOG_ERR("Failed to create the DMA copy file %s", export_desc_file_path);
		return DOCA_ERROR_IO_FAILED;
	}
	failed = fwrite(export_desc, 1, export_desc_len, fp) != export_desc_len;
	failed |= fclose(fp) != 0;
	if (failed) {
		DOCA_LOG_ERR("Failed to write all data into the file %s", export_desc_file_path);
		return DOCA_ERROR_IO_FAILED;
	}

	fp = fopen(buffer_info_file_path, "w");
	if (fp == NULL) {
		DOCA_LOG_ERR("Failed to create the DMA copy file %s", buffer_info_file_path);
		return DOCA_ERROR_IO_FAILED;
	}
	failed = fprintf(fp, "%" PRIu64 "\n%" PRIu64, (uint64_t)(uintptr_t)src_buffer, (uint64_t)src_buffer_len) < 0;
	failed |= fclose(fp) != 0;
	if (failed) {
		DOCA_LOG_ERR("Failed to write all data into the file %s", buffer_info_file_path);
		return DOCA_ERROR_IO_FAILED;
	}
	return DOCA_SUCCESS;
}

/* Block until the user presses Enter (or stdin ends: nobody is left to press it). */
static void wait_for_enter(void)
{
	int c;

	do {
		c = getchar();
	} while (c != '\n' && c != '\r' && c != EOF);
}

doca_error_t dma_copy_host(const char *pcie_addr, char *src_buffer, size_t src_buffer_size,
			   const char *export_desc_file_path, const char *buffer_info_file_path)
{
	struct program_core_objects state = {0};
	const void *export_desc;
	size_t export_desc_len;
	doca_error_t result, tmp;

	result = allocate_dma_host_resources(pcie_addr, &state);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DMA host resources: %s", doca_error_get_descr(result));
		return result;
	}

	/* The DPU only reads this buffer */
	result = doca_mmap_set_permissions(state.src_mmap, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set mmap permissions: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}

	result = doca_mmap_set_memrange(state.src_mmap, src_buffer, src_buffer_size);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set memory range for source mmap: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}

	result = doca_mmap_start(state.src_mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start source mmap: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}

	result = doca_mmap_export_pci(state.src_mmap, state.dev, &export_desc, &export_desc_len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export source mmap: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}

	DOCA_LOG_INFO("Please copy %s and %s to the DPU and run DMA Copy DPU sample", export_desc_file_path,
		      buffer_info_file_path);

	/* Moving the files to the DPU is the user's job */
	result = save_config_info_to_files(export_desc, export_desc_len, src_buffer, src_buffer_size,
					   export_desc_file_path, buffer_info_file_path);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to save configuration information: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}

	/* The DPU reads the buffer while we wait: the export must stay alive until then */
	DOCA_LOG_INFO("Wait till the DPU has finished and press enter");
	wait_for_enter();

destroy_resources:
	tmp = destroy_dma_host_resources(&state);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DMA host resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
