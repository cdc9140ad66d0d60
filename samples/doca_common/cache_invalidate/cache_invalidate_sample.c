/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A DMA copy, then a cache invalidate of its buffer (doca_mmap_advise), chained in callbacks:
 * the copy's completion submits the invalidate, whose completion ends the run. A CPU that
 * reads memory a device wrote invalidates its cached lines first; here the sample then checks
 * the destination against the source. Both tasks must succeed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_mmap_advise.h>
#include <doca_pe.h>

#include "common.h"
#include "pe_common.h"

DOCA_LOG_REGISTER(CACHE_INVALIDATE::SAMPLE);

#define DMA_BUFFER_SIZE 1024
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2) /* source, then destination */
#define BUF_INVENTORY_SIZE 2
#define SOURCE_BYTE 0x5a
#define STALL_TIMEOUT_SEC 20

struct cache_invalidate_state {
	uint8_t *buffer;
	struct doca_dev *device;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inventory;
	struct doca_pe *pe;

	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_buf *source;
	struct doca_buf *destination;
	struct doca_dma_task_memcpy *dma_task;

	struct doca_mmap_advise *advise;
	struct doca_ctx *advise_ctx;
	struct doca_mmap_advise_task_invalidate_cache *invalidate_task;

	bool running;	      /* until the last task came back */
	doca_error_t outcome; /* first failure, or success */
};

/* The device must do both: DMA memcpy and cache invalidate. */
static doca_error_t check_dev_capable(struct doca_devinfo *devinfo)
{
	doca_error_t result = doca_dma_cap_task_memcpy_is_supported(devinfo);

	if (result != DOCA_SUCCESS)
		return result;
	return doca_mmap_advise_cap_task_cache_invalidate_is_supported(devinfo);
}

static void finish(struct cache_invalidate_state *state, doca_error_t outcome)
{
	if (state->outcome == DOCA_SUCCESS)
		state->outcome = outcome;
	state->running = false;
}

static void dma_done(struct doca_dma_task_memcpy *task, union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct cache_invalidate_state *state = ctx_user_data.ptr;
	doca_error_t result;

	(void)task;
	(void)task_user_data;
	DOCA_LOG_INFO("DMA completed, Submitting cache invalidate task");
	/* The destination was written by the device: invalidate its lines before reading it */
	result = doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(state->invalidate_task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit cache invalidate task: %s", doca_error_get_descr(result));
		finish(state, result);
	}
}

static void dma_failed(struct doca_dma_task_memcpy *task, union doca_data task_user_data, union doca_data ctx_user_data)
{
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("DMA Task failed with status %s", doca_error_get_descr(status));
	finish(ctx_user_data.ptr, status);
}

static void invalidate_done(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_user_data,
			    union doca_data ctx_user_data)
{
	(void)task;
	(void)task_user_data;
	DOCA_LOG_INFO("Cache invalidate completed");
	finish(ctx_user_data.ptr, DOCA_SUCCESS);
}

static void invalidate_failed(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_user_data,
			      union doca_data ctx_user_data)
{
	doca_error_t status = doca_task_get_status(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("Cache invalidate Task failed with status %s", doca_error_get_descr(status));
	finish(ctx_user_data.ptr, status);
}

static doca_error_t create_core_objects_for_sample(struct cache_invalidate_state *state)
{
	DOCA_LOG_INFO("Allocating buffer");
	state->buffer = malloc(BUFFER_SIZE);
	if (state->buffer == NULL)
		return DOCA_ERROR_NO_MEMORY;

	DOCA_LOG_INFO("Opening device");
	EXIT_ON_FAILURE(open_doca_device_with_capabilities(check_dev_capable, &state->device));

	DOCA_LOG_INFO("Creating MMAP");
	EXIT_ON_FAILURE(doca_mmap_create(&state->mmap));
	EXIT_ON_FAILURE(doca_mmap_set_memrange(state->mmap, state->buffer, BUFFER_SIZE));
	EXIT_ON_FAILURE(doca_mmap_add_dev(state->mmap, state->device));
	EXIT_ON_FAILURE(doca_mmap_set_permissions(state->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	EXIT_ON_FAILURE(doca_mmap_start(state->mmap));

	DOCA_LOG_INFO("Creating buf inventory");
	EXIT_ON_FAILURE(doca_buf_inventory_create(BUF_INVENTORY_SIZE, &state->inventory));
	EXIT_ON_FAILURE(doca_buf_inventory_start(state->inventory));

	DOCA_LOG_INFO("Creating PE");
	EXIT_ON_FAILURE(doca_pe_create(&state->pe));
	return DOCA_SUCCESS;
}

/* Both contexts on one PE; their user data is the state, which every callback receives. */
static doca_error_t create_contexts(struct cache_invalidate_state *state)
{
	union doca_data ctx_user_data = {.ptr = state};
	struct doca_ctx *ctx;

	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(doca_dma_create(state->device, &state->dma));
	ctx = doca_dma_as_ctx(state->dma);
	EXIT_ON_FAILURE(doca_pe_connect_ctx(state->pe, ctx));
	EXIT_ON_FAILURE(doca_ctx_set_user_data(ctx, ctx_user_data));
	EXIT_ON_FAILURE(doca_dma_task_memcpy_set_conf(state->dma, dma_done, dma_failed, 1));
	state->dma_ctx = ctx;

	DOCA_LOG_INFO("Creating MMAP advise");
	EXIT_ON_FAILURE(doca_mmap_advise_create(state->device, &state->advise));
	ctx = doca_mmap_advise_as_ctx(state->advise);
	EXIT_ON_FAILURE(doca_pe_connect_ctx(state->pe, ctx));
	EXIT_ON_FAILURE(doca_ctx_set_user_data(ctx, ctx_user_data));
	EXIT_ON_FAILURE(doca_mmap_advise_task_invalidate_cache_set_conf(state->advise, invalidate_done,
									invalidate_failed, 1));
	state->advise_ctx = ctx;

	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_start(state->advise_ctx));
	return DOCA_SUCCESS;
}

static doca_error_t allocate_tasks(struct cache_invalidate_state *state)
{
	union doca_data task_user_data = {.u64 = 0};
	uint8_t *dst = state->buffer + DMA_BUFFER_SIZE;

	DOCA_LOG_INFO("Allocating DMA task");
	memset(state->buffer, SOURCE_BYTE, DMA_BUFFER_SIZE);
	memset(dst, 0, DMA_BUFFER_SIZE);
	EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_data(state->inventory, state->mmap, state->buffer,
							   DMA_BUFFER_SIZE, &state->source));
	/* Empty: the copy fills it and sets its data length */
	EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_addr(state->inventory, state->mmap, dst, DMA_BUFFER_SIZE,
							   &state->destination));
	EXIT_ON_FAILURE(doca_dma_task_memcpy_alloc_init(state->dma, state->source, state->destination, task_user_data,
							&state->dma_task));

	DOCA_LOG_INFO("Allocating cache invalidate task");
	EXIT_ON_FAILURE(doca_mmap_advise_task_invalidate_cache_alloc_init(state->advise, state->destination,
									  task_user_data, &state->invalidate_task));
	return DOCA_SUCCESS;
}

static doca_error_t run_tasks(struct cache_invalidate_state *state)
{
	static const struct timespec idle = {.tv_sec = 0, .tv_nsec = 10 * 1000};
	time_t last_progress;

	DOCA_LOG_INFO("Submitting DMA task");
	state->running = true;
	state->outcome = DOCA_SUCCESS;
	EXIT_ON_FAILURE(doca_task_submit(doca_dma_task_memcpy_as_task(state->dma_task)));

	DOCA_LOG_INFO("Polling until all tasks are completed");
	last_progress = time(NULL);
	while (state->running) {
		if (doca_pe_progress(state->pe) != 0) {
			last_progress = time(NULL);
			continue;
		}
		if (time(NULL) - last_progress > STALL_TIMEOUT_SEC) {
			DOCA_LOG_ERR("The PE made no progress for %d s", STALL_TIMEOUT_SEC);
			return DOCA_ERROR_TIME_OUT;
		}
		nanosleep(&idle, NULL);
	}
	DOCA_LOG_INFO("All tasks are completed");
	return state->outcome;
}

/* The destination, read after the invalidate, must hold the whole source. */
static doca_error_t check_destination(const struct cache_invalidate_state *state)
{
	const uint8_t *dst = state->buffer + DMA_BUFFER_SIZE;
	size_t len = 0;

	EXIT_ON_FAILURE(doca_buf_get_data_len(state->destination, &len));
	if (len != DMA_BUFFER_SIZE) {
		DOCA_LOG_ERR("DMA destination holds %zu bytes, expected %d", len, DMA_BUFFER_SIZE);
		return DOCA_ERROR_UNEXPECTED;
	}
	for (size_t i = 0; i < len; i++) {
		if (dst[i] != SOURCE_BYTE) {
			DOCA_LOG_ERR("DMA destination differs from the source at byte %zu", i);
			return DOCA_ERROR_UNEXPECTED;
		}
	}
	return DOCA_SUCCESS;
}

static void cleanup(struct cache_invalidate_state *state)
{
	if (state->dma_task != NULL)
		doca_task_free(doca_dma_task_memcpy_as_task(state->dma_task));
	if (state->invalidate_task != NULL)
		doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(state->invalidate_task));
	/* A context is stopped before it is destroyed, and every context before its PE */
	if (state->dma_ctx != NULL)
		(void)doca_ctx_stop(state->dma_ctx);
	if (state->advise_ctx != NULL)
		(void)doca_ctx_stop(state->advise_ctx);
	if (state->dma != NULL)
		(void)doca_dma_destroy(state->dma);
	if (state->advise != NULL)
		(void)doca_mmap_advise_destroy(state->advise);
	if (state->pe != NULL)
		(void)doca_pe_destroy(state->pe);
	if (state->source != NULL)
		(void)doca_buf_dec_refcount(state->source, NULL);
	if (state->destination != NULL)
		(void)doca_buf_dec_refcount(state->destination, NULL);
	if (state->inventory != NULL) {
		(void)doca_buf_inventory_stop(state->inventory);
		(void)doca_buf_inventory_destroy(state->inventory);
	}
	if (state->mmap != NULL) {
		(void)doca_mmap_stop(state->mmap);
		(void)doca_mmap_destroy(state->mmap);
	}
	if (state->device != NULL)
		(void)doca_dev_close(state->device);
	free(state->buffer);
}

static doca_error_t run(struct cache_invalidate_state *state)
{
	EXIT_ON_FAILURE(create_core_objects_for_sample(state));
	EXIT_ON_FAILURE(create_contexts(state));
	EXIT_ON_FAILURE(allocate_tasks(state));
	EXIT_ON_FAILURE(run_tasks(state));
	EXIT_ON_FAILURE(check_destination(state));
	return DOCA_SUCCESS;
}

doca_error_t run_cache_invalidate_sample(void)
{
	struct cache_invalidate_state state = {0};
	doca_error_t status = run(&state);

	cleanup(&state);
	return status;
}
