/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DMA copy, DPU side: import the host's exported buffer from the descriptor file, and copy it
 * into DPU memory with one memcpy task (remote source list -> local destination list). The
 * host process does nothing meanwhile: the soft card's DMA engine reaches its memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DMA_COPY_DPU);

#define MAX_DESC_SIZE 1024	   /* larger than any descriptor: a longer file is not one */
#define MAX_LINE_SIZE 512	   /* one line of the buffer information file */

/* Read the whole descriptor file into desc (at most MAX_DESC_SIZE bytes). */
static doca_error_t read_export_desc(const char *path, char *desc, size_t *desc_len)
{
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (fp == NULL) {
		DOCA_LOG_ERR("Failed to open %s", path);
		return DOCA_ERROR_IO_FAILED;
	}
	n = fread(desc, 1, MAX_DESC_SIZE, fp);
	if (ferror(fp)) {
		DOCA_LOG_ERR("Failed to read %s", path);
		fclose(fp);
		return DOCA_ERROR_IO_FAILED;
	}
	fclose(fp);
	*desc_len = n;
	return DOCA_SUCCESS;
}

/* One decimal (or 0x hex) number on its own line of fp. */
static doca_error_t read_number(FILE *fp, const char *what, uint64_t *value)
{
	char line[MAX_LINE_SIZE];
	char *end;

	if (fgets(line, sizeof(line), fp) == NULL) {
		DOCA_LOG_ERR("Failed to read the source (host) buffer %s", what);
		return DOCA_ERROR_IO_FAILED;
	}
	errno = 0;
	*value = strtoull(line, &end, 0);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (errno != 0 || end == line || *end != '\0') {
		DOCA_LOG_ERR("Failed to read the source (host) buffer %s. Data is corrupted", what);
		return DOCA_ERROR_IO_FAILED;
	}
	return DOCA_SUCCESS;
}

/* "<address>\n<length>" as the host wrote it. */
static doca_error_t read_buffer_info(const char *path, char **remote_addr, size_t *remote_len)
{
	FILE *fp = fopen(path, "r");
	uint64_t addr, len;
	doca_error_t result;

	if (fp == NULL) {
		DOCA_LOG_ERR("Failed to open %s", path);
		return DOCA_ERROR_IO_FAILED;
	}
	result = read_number(fp, "address", &addr);
	if (result == DOCA_SUCCESS)
		result = read_number(fp, "length", &len);
	fclose(fp);
	if (result != DOCA_SUCCESS)
		return result;
	*remote_addr = (char *)(uintptr_t)addr;
	*remote_len = (size_t)len;
	return DOCA_SUCCESS;
}

doca_error_t dma_copy_dpu(const char *export_desc_file_path, const char *buffer_info_file_path,
			  const char *pcie_addr, int num_src_buf, int num_dst_buf)
{
	struct dma_resources resources;
	struct program_core_objects *state = &resources.state;
	struct doca_buf *src_doca_buf = NULL;
	struct doca_buf *dst_doca_buf = NULL;
	struct doca_mmap *remote_mmap = NULL;
	char export_desc[MAX_DESC_SIZE];
	size_t export_desc_len = 0, remote_len = 0, dst_buffer_size;
	char *remote_addr = NULL, *dpu_buffer = NULL;
	uint64_t max_buffer_size = 0;
	doca_error_t result, task_result, tmp;

	result = start_dma_resources(pcie_addr, num_src_buf + num_dst_buf, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(state->dev), &max_buffer_size);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get max buffer size: %s", doca_error_get_descr(result));
		goto stop_dma;
	}

	result = read_export_desc(export_desc_file_path, export_desc, &export_desc_len);
	if (result == DOCA_SUCCESS)
		result = read_buffer_info(buffer_info_file_path, &remote_addr, &remote_len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to read memory configuration from file: %s", doca_error_get_descr(result));
		goto stop_dma;
	}

	if (remote_len == 0) {
		result = DOCA_ERROR_EMPTY;
		DOCA_LOG_ERR("Remote buffer from host is zero: failed to parse the buffer information file");
		goto stop_dma;
	}
	if (remote_len > max_buffer_size) {
		result = DOCA_ERROR_TOO_BIG;
		DOCA_LOG_ERR("Remote buffer from Host exceeds max allowed buffer: %zu > %" PRIu64, remote_len,
			     max_buffer_size);
		goto stop_dma;
	}

	/* The whole host buffer lands here */
	dst_buffer_size = remote_len;
	dpu_buffer = malloc(dst_buffer_size);
	if (dpu_buffer == NULL) {
		result = DOCA_ERROR_NO_MEMORY;
		DOCA_LOG_ERR("Failed to allocate buffer memory: %s", doca_error_get_descr(result));
		goto stop_dma;
	}

	result = doca_mmap_set_memrange(state->dst_mmap, dpu_buffer, dst_buffer_size);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set memory range for destination mmap: %s", doca_error_get_descr(result));
		goto free_dpu_buffer;
	}
	result = doca_mmap_start(state->dst_mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start destination mmap: %s", doca_error_get_descr(result));
		goto free_dpu_buffer;
	}

	/* The host's memory, as this process sees it */
	result = doca_mmap_create_from_export(NULL, export_desc, export_desc_len, state->dev, &remote_mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create mmap from export: %s", doca_error_get_descr(result));
		goto free_dpu_buffer;
	}

	result = allocate_doca_buf_list(state->buf_inv, remote_mmap, remote_addr, remote_len, num_src_buf, true,
					&src_doca_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to acquire DOCA buffer representing remote buffer: %s",
			     doca_error_get_descr(result));
		goto destroy_remote_mmap;
	}
	result = allocate_doca_buf_list(state->buf_inv, state->dst_mmap, dpu_buffer, dst_buffer_size, num_dst_buf,
					false, &dst_doca_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to acquire DOCA buffer representing destination buffer: %s",
			     doca_error_get_descr(result));
		goto release_bufs;
	}

	result = dma_memcpy_and_wait(&resources, src_doca_buf, dst_doca_buf, &task_result);
	if (result != DOCA_SUCCESS)
		goto release_bufs;

	result = task_result;
	if (result == DOCA_SUCCESS) {
		DOCA_LOG_INFO("Remote DMA copy was done Successfully");
		dpu_buffer[dst_buffer_size - 1] = '\0';
		DOCA_LOG_INFO("Memory content: %s", dpu_buffer);
	} else {
		DOCA_LOG_ERR("DMA memcpy task failed: %s", doca_error_get_descr(result));
	}
	/* Either way the host may let its buffer go now */
	DOCA_LOG_INFO("Host sample can be closed, DMA copy ended");

release_bufs:
	result = release_dma_buf_lists(src_doca_buf, dst_doca_buf, result);
destroy_remote_mmap:
	tmp = doca_mmap_destroy(remote_mmap);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy remote mmap: %s", doca_error_get_descr(tmp));
	}
free_dpu_buffer:
	free(dpu_buffer);
stop_dma:
	return stop_dma_resources(&resources, result);
}
