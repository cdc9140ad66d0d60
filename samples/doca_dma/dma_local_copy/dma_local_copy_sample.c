/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DMA local copy: one memcpy task copies a buffer into another buffer of the same process,
 * both split into doca_buf lists, and the copy is checked byte for byte.
 */
#include <stdint.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DPU_LOCAL_DMA_COPY);

/* The DMA engine copies between distinct ranges only. */
static bool ranges_overlap(const char *a, const char *b, size_t length)
{
	return (a >= b && a < b + length) || (b >= a && b < a + length);
}

static doca_error_t set_range_and_start(struct doca_mmap *mmap, char *buffer, size_t length)
{
	doca_error_t result = doca_mmap_set_memrange(mmap, buffer, length);

	if (result != DOCA_SUCCESS)
		return result;
	return doca_mmap_start(mmap);
}

doca_error_t dma_local_copy(const char *pcie_addr, char *dst_buffer, char *src_buffer, size_t length,
			    int num_src_buf, int num_dst_buf)
{
	struct dma_resources resources;
	struct program_core_objects *state = &resources.state;
	struct doca_buf *src_doca_buf = NULL;
	struct doca_buf *dst_doca_buf = NULL;
	doca_error_t result, task_result;

	if (dst_buffer == NULL || src_buffer == NULL || length == 0) {
		DOCA_LOG_ERR("Invalid input values, addresses and sizes must not be 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ranges_overlap(dst_buffer, src_buffer, length)) {
		DOCA_LOG_ERR("Memory ranges must not overlap");
		return DOCA_ERROR_INVALID_VALUE;
	}

	result = start_dma_resources(pcie_addr, num_src_buf + num_dst_buf, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = set_range_and_start(state->dst_mmap, dst_buffer, length);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up and start destination mmap: %s", doca_error_get_descr(result));
		goto stop_dma;
	}
	result = set_range_and_start(state->src_mmap, src_buffer, length);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up and start source mmap: %s", doca_error_get_descr(result));
		goto stop_dma;
	}

	memset(dst_buffer, 0, length);

	result = allocate_doca_buf_list(state->buf_inv, state->src_mmap, src_buffer, length, num_src_buf, true,
					&src_doca_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to acquire DOCA buffer list representing source buffer: %s",
			     doca_error_get_descr(result));
		goto stop_dma;
	}
	result = allocate_doca_buf_list(state->buf_inv, state->dst_mmap, dst_buffer, length, num_dst_buf, false,
					&dst_doca_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to acquire DOCA buffer list representing destination buffer: %s",
			     doca_error_get_descr(result));
		goto release_bufs;
	}

	result = dma_memcpy_and_wait(&resources, src_doca_buf, dst_doca_buf, &task_result);
	if (result != DOCA_SUCCESS)
		goto release_bufs;

	result = task_result;
	if (result == DOCA_SUCCESS && memcmp(dst_buffer, src_buffer, length) != 0) {
		DOCA_LOG_ERR("DMA task completed but the destination differs from the source");
		result = DOCA_ERROR_UNEXPECTED;
	}
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Success, memory copied and verified as correct");
	else
		DOCA_LOG_ERR("DMA memcpy task failed: %s", doca_error_get_descr(result));

release_bufs:
	result = release_dma_buf_lists(src_doca_buf, dst_doca_buf, result);
stop_dma:
	return stop_dma_resources(&resources, result);
}
