/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "common.h"
#include "pe_common.h"

DOCA_LOG_REGISTER(PE::COMMON);

#define SLEEP_IN_NANOS (10 * 1000) /* idle wait between two empty progress calls */
#define STALL_TIMEOUT_SEC 20	   /* a PE with work that stays silent this long is stuck */

doca_error_t process_completed_dma_memcpy_task(struct doca_dma_task_memcpy *dma_task, uint8_t expected_value)
{
	const struct doca_buf *src = doca_dma_task_memcpy_get_src(dma_task);
	const struct doca_buf *dst = doca_dma_task_memcpy_get_dst(dma_task);
	size_t src_len = 0, dst_len = 0;
	uint8_t *data = NULL;

	EXIT_ON_FAILURE(doca_buf_get_data_len(src, &src_len));
	EXIT_ON_FAILURE(doca_buf_get_data_len(dst, &dst_len));
	EXIT_ON_FAILURE(doca_buf_get_data(dst, (void **)&data));

	/* The engine appends to the destination's (empty) data segment */
	if (dst_len != src_len) {
		DOCA_LOG_ERR("Memcpy failed: destination holds %zu bytes, expected %zu", dst_len, src_len);
		return DOCA_ERROR_UNEXPECTED;
	}
	for (size_t i = 0; i < dst_len; i++) {
		if (data[i] != expected_value) {
			DOCA_LOG_ERR("Memcpy failed: Expected %d, received %d at index %zu", expected_value, data[i], i);
			return DOCA_ERROR_UNEXPECTED;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t free_dma_memcpy_task_buffers(struct doca_dma_task_memcpy *dma_task)
{
	/* The task only borrows its source; the sample owns it, so dropping const is fine here */
	struct doca_buf *src = (struct doca_buf *)doca_dma_task_memcpy_get_src(dma_task);
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(dma_task);

	EXIT_ON_FAILURE(doca_buf_dec_refcount(src, NULL));
	EXIT_ON_FAILURE(doca_buf_dec_refcount(dst, NULL));
	return DOCA_SUCCESS;
}

doca_error_t dma_task_free(struct doca_dma_task_memcpy *dma_task)
{
	/* Bufs are released with their task only to keep the samples short; they need not be */
	doca_error_t result = free_dma_memcpy_task_buffers(dma_task);

	doca_task_free(doca_dma_task_memcpy_as_task(dma_task));
	return result;
}

static doca_error_t allocate_buffer(struct pe_sample_state_base *state)
{
	DOCA_LOG_INFO("Allocating buffer with size of %zu", state->buffer_size);

	state->buffer = malloc(state->buffer_size);
	if (state->buffer == NULL)
		return DOCA_ERROR_NO_MEMORY;
	state->available_buffer = state->buffer;
	return DOCA_SUCCESS;
}

static doca_error_t check_dev_dma_capable(struct doca_devinfo *devinfo)
{
	return doca_dma_cap_task_memcpy_is_supported(devinfo);
}

static doca_error_t open_device(struct pe_sample_state_base *state)
{
	DOCA_LOG_INFO("Opening device");
	EXIT_ON_FAILURE(open_doca_device_with_capabilities(check_dev_dma_capable, &state->device));
	return DOCA_SUCCESS;
}

static doca_error_t create_pe(struct pe_sample_state_base *state)
{
	DOCA_LOG_INFO("Creating PE");
	EXIT_ON_FAILURE(doca_pe_create(&state->pe));
	return DOCA_SUCCESS;
}

static doca_error_t create_mmap(struct pe_sample_state_base *state)
{
	DOCA_LOG_INFO("Creating MMAP");
	EXIT_ON_FAILURE(doca_mmap_create(&state->mmap));
	EXIT_ON_FAILURE(doca_mmap_set_memrange(state->mmap, state->buffer, state->buffer_size));
	EXIT_ON_FAILURE(doca_mmap_add_dev(state->mmap, state->device));
	EXIT_ON_FAILURE(doca_mmap_set_permissions(state->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	EXIT_ON_FAILURE(doca_mmap_start(state->mmap));
	return DOCA_SUCCESS;
}

static doca_error_t create_buf_inventory(struct pe_sample_state_base *state)
{
	DOCA_LOG_INFO("Creating buf inventory");
	EXIT_ON_FAILURE(doca_buf_inventory_create(state->buf_inventory_size, &state->inventory));
	EXIT_ON_FAILURE(doca_buf_inventory_start(state->inventory));
	return DOCA_SUCCESS;
}

doca_error_t pe_sample_base_setup(struct pe_sample_state_base *state, size_t buffer_size,
				  size_t buf_inventory_size)
{
	state->buffer_size = buffer_size;
	state->buf_inventory_size = buf_inventory_size;

	EXIT_ON_FAILURE(allocate_buffer(state));
	EXIT_ON_FAILURE(open_device(state));
	EXIT_ON_FAILURE(create_mmap(state));
	EXIT_ON_FAILURE(create_buf_inventory(state));
	EXIT_ON_FAILURE(create_pe(state));
	return DOCA_SUCCESS;
}

doca_error_t create_dma_ctx(struct pe_sample_state_base *state, doca_dma_task_memcpy_completion_cb_t completed_cb,
			    doca_dma_task_memcpy_completion_cb_t error_cb, uint32_t num_tasks, void *ctx_user_data,
			    struct doca_dma **dma, struct doca_ctx **dma_ctx)
{
	union doca_data user_data = {.ptr = ctx_user_data};
	struct doca_ctx *ctx;

	EXIT_ON_FAILURE(doca_dma_create(state->device, dma));
	ctx = doca_dma_as_ctx(*dma);

	/* A context belongs to one PE; a PE runs many contexts */
	EXIT_ON_FAILURE(doca_pe_connect_ctx(state->pe, ctx));

	/* The ctx user data comes back in every callback: it ties them to the sample's state */
	EXIT_ON_FAILURE(doca_ctx_set_user_data(ctx, user_data));
	EXIT_ON_FAILURE(doca_dma_task_memcpy_set_conf(*dma, completed_cb, error_cb, num_tasks));
	*dma_ctx = ctx;
	return DOCA_SUCCESS;
}

void destroy_dma_ctx(struct doca_dma *dma, struct doca_ctx *dma_ctx)
{
	if (dma_ctx != NULL)
		(void)doca_ctx_stop(dma_ctx);
	if (dma != NULL)
		(void)doca_dma_destroy(dma);
}

doca_error_t get_buffer_pair(struct pe_sample_state_base *state, size_t size, uint8_t value,
			     struct doca_buf **source, struct doca_buf **destination)
{
	/* The source is all data ... */
	memset(state->available_buffer, value, size);
	EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_data(state->inventory, state->mmap, state->available_buffer,
							   size, source));
	state->available_buffer += size;

	/* ... the destination starts empty and the copy fills it */
	memset(state->available_buffer, 0, size);
	EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_addr(state->inventory, state->mmap, state->available_buffer,
							   size, destination));
	state->available_buffer += size;
	return DOCA_SUCCESS;
}

doca_error_t allocate_dma_tasks(struct pe_sample_state_base *state, struct doca_dma *dma, uint32_t num_tasks,
				size_t dma_buffer_size, struct doca_dma_task_memcpy **tasks)
{
	DOCA_LOG_INFO("Allocating tasks");

	for (uint32_t task_id = 0; task_id < num_tasks; task_id++) {
		struct doca_buf *source = NULL;
		struct doca_buf *destination = NULL;
		union doca_data user_data = {.u64 = task_id + 1};

		EXIT_ON_FAILURE(get_buffer_pair(state, dma_buffer_size, (uint8_t)(task_id + 1), &source, &destination));
		EXIT_ON_FAILURE(doca_dma_task_memcpy_alloc_init(dma, source, destination, user_data, &tasks[task_id]));
	}
	return DOCA_SUCCESS;
}

doca_error_t submit_dma_tasks(uint32_t num_tasks, struct doca_dma_task_memcpy **tasks)
{
	DOCA_LOG_INFO("Submitting tasks");

	for (uint32_t task_id = 0; task_id < num_tasks; task_id++)
		EXIT_ON_FAILURE(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[task_id])));
	return DOCA_SUCCESS;
}

void pe_task_completed(struct pe_sample_state_base *state, struct doca_dma_task_memcpy *dma_task,
		       union doca_data task_user_data)
{
	state->num_completed_tasks++;
	if (process_completed_dma_memcpy_task(dma_task, (uint8_t)task_user_data.u64) != DOCA_SUCCESS)
		state->num_bad_copies++;
	/* The task is no longer needed */
	(void)dma_task_free(dma_task);
}

void pe_task_failed(struct pe_sample_state_base *state, struct doca_dma_task_memcpy *dma_task)
{
	struct doca_task *task = doca_dma_task_memcpy_as_task(dma_task);

	/* A failed task counts as completed: it will not come back again */
	state->num_completed_tasks++;
	state->num_failed_tasks++;
	DOCA_LOG_ERR("Task failed with status %s", doca_error_get_descr(doca_task_get_status(task)));
	(void)dma_task_free(dma_task);
}

void pe_dma_memcpy_completed_cb(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
				union doca_data ctx_user_data)
{
	pe_task_completed(ctx_user_data.ptr, dma_task, task_user_data);
}

void pe_dma_memcpy_error_cb(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
			    union doca_data ctx_user_data)
{
	(void)task_user_data;
	pe_task_failed(ctx_user_data.ptr, dma_task);
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* One round of the polling loop; false once the PE has been silent for STALL_TIMEOUT_SEC. */
static bool progress_once(struct pe_sample_state_base *state, struct timespec *last_progress)
{
	static const struct timespec idle = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};

	if (doca_pe_progress(state->pe) != 0) {
		clock_gettime(CLOCK_MONOTONIC, last_progress);
		return true;
	}
	if (seconds_since(last_progress) > STALL_TIMEOUT_SEC)
		return false;
	nanosleep(&idle, NULL);
	return true;
}

doca_error_t poll_for_completion(struct pe_sample_state_base *state, uint32_t num_tasks)
{
	struct timespec last_progress;

	DOCA_LOG_INFO("Polling until all tasks are completed");

	clock_gettime(CLOCK_MONOTONIC, &last_progress);
	while (state->num_completed_tasks < num_tasks) {
		if (!progress_once(state, &last_progress)) {
			DOCA_LOG_ERR("The PE made no progress for %d s with %u of %u tasks completed", STALL_TIMEOUT_SEC,
				     state->num_completed_tasks, num_tasks);
			return DOCA_ERROR_TIME_OUT;
		}
	}

	DOCA_LOG_INFO("All tasks are completed");
	return DOCA_SUCCESS;
}

doca_error_t poll_while(struct pe_sample_state_base *state, const bool *flag)
{
	struct timespec last_progress;

	clock_gettime(CLOCK_MONOTONIC, &last_progress);
	while (*flag) {
		if (!progress_once(state, &last_progress)) {
			DOCA_LOG_ERR("The PE made no progress for %d s", STALL_TIMEOUT_SEC);
			return DOCA_ERROR_TIME_OUT;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t check_all_tasks_succeeded(const struct pe_sample_state_base *state)
{
	if (state->num_failed_tasks != 0 || state->num_bad_copies != 0) {
		DOCA_LOG_ERR("%u tasks failed and %u copied wrong data", state->num_failed_tasks,
			     state->num_bad_copies);
		return DOCA_ERROR_UNEXPECTED;
	}
	return DOCA_SUCCESS;
}

const char *ctx_state_to_string(enum doca_ctx_states state)
{
	switch (state) {
	case DOCA_CTX_STATE_IDLE:
		return "idle";
	case DOCA_CTX_STATE_STARTING:
		return "starting";
	case DOCA_CTX_STATE_RUNNING:
		return "running";
	case DOCA_CTX_STATE_STOPPING:
		return "stopping";
	default:
		return "unknown";
	}
}

void pe_sample_base_cleanup(struct pe_sample_state_base *state)
{
	/* Reverse order of creation; a sample that failed half-way has NULLs here */
	if (state->pe != NULL)
		(void)doca_pe_destroy(state->pe);
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
	memset(state, 0, sizeof(*state));
}

/* sample_main's config for a PE sample: its logic, which takes no config. */
struct pe_sample_run {
	doca_error_t (*run)(void);
};

static doca_error_t run_pe_sample(void *config)
{
	const struct pe_sample_run *sample = config;

	return sample->run();
}

int pe_sample_main(const char *run_name, doca_error_t (*run_sample)(void))
{
	struct pe_sample_run sample = {.run = run_sample};
	char run_error[128];
	/* No register_params: DOCA's PE samples take no flags and ignore any given */
	const struct sample_main_desc desc = {.config = &sample, .run = run_pe_sample, .run_error = run_error};

	snprintf(run_error, sizeof(run_error), "%s() encountered an error", run_name);
	return sample_main(0, NULL, &desc);
}
