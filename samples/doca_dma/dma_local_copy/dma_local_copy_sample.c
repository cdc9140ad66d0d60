/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DMA local copy: one memcpy task copies a buffer into another buffer of the same process,
 * both split into doca_buf lists, and the copy is checked byte for byte.
 */
#include <stdint.h>
#include <string.h>
#include <time.h>

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

#define SLEEP_IN_NANOS (10 * 1000) /* idle wait between two empty progress calls */

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
	struct doca_dma_task_memcpy *dma_task = NULL;
	struct doca_buf *src_doca_buf = NULL;
	struct doca_buf *dst_doca_buf = NULL;
	struct doca_task *task;
	doca_error_t task_result = DOCA_ERROR_UNKNOWN;
	union doca_data task_user_data = {.ptr = &task_result};
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	doca_error_t result, tmp;

	if (dst_buffer == NULL || src_buffer == NULL || length == 0) {
		DOCA_LOG_ERR("Invalid input values, addresses and sizes must not be 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ranges_overlap(dst_buffer, src_buffer, length)) {
		DOCA_LOG_ERR("Memory ranges must not overlap");
		return DOCA_ERROR_INVALID_VALUE;
	}

	result = allocate_dma_resources(pcie_addr, num_src_buf + num_dst_buf, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_pe_connect_ctx(state->pe, state->ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to connect progress engine to context: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}

	/* DMA starts synchronously: SUCCESS and RUNNING, nothing to wait for */
	result = doca_ctx_start(state->ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start context: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}

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

	result = doca_dma_task_memcpy_alloc_init(resources.dma_ctx, src_doca_buf, dst_doca_buf, task_user_data,
						 &dma_task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DMA memcpy task: %s", doca_error_get_descr(result));
		goto release_bufs;
	}
	resources.num_remaining_tasks = 1;

	task = doca_dma_task_memcpy_as_task(dma_task);
	result = doca_task_submit(task);
	if (result != DOCA_SUCCESS) {
		/* A task that was not submitted is still ours */
		DOCA_LOG_ERR("Failed to submit DMA task: %s", doca_error_get_descr(result));
		doca_task_free(task);
		goto release_bufs;
	}

	/* The callbacks stop the ctx after the task; the state callback ends this loop at IDLE */
	resources.run_pe_progress = true;
	while (resources.run_pe_progress) {
		if (doca_pe_progress(state->pe) == 0)
			nanosleep(&ts, NULL);
	}

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
	/* Releasing a list head releases the whole list */
	if (dst_doca_buf != NULL) {
		tmp = doca_buf_dec_refcount(dst_doca_buf, NULL);
		if (tmp != DOCA_SUCCESS) {
			DOCA_ERROR_PROPAGATE(result, tmp);
			DOCA_LOG_ERR("Failed to release destination buffer list: %s", doca_error_get_descr(tmp));
		}
	}
	if (src_doca_buf != NULL) {
		tmp = doca_buf_dec_refcount(src_doca_buf, NULL);
		if (tmp != DOCA_SUCCESS) {
			DOCA_ERROR_PROPAGATE(result, tmp);
			DOCA_LOG_ERR("Failed to release source buffer list: %s", doca_error_get_descr(tmp));
		}
	}
stop_dma:
	/* Already IDLE after a completed task: stopping an IDLE ctx succeeds */
	tmp = request_stop_ctx(state->pe, state->ctx);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Unable to stop context: %s", doca_error_get_descr(tmp));
	}
destroy_resources:
	tmp = destroy_dma_resources(&resources);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
