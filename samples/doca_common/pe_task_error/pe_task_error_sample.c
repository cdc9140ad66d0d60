/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Living with a task that fails in the "hardware". 255 DMA memcpy tasks are submitted with
 * doca_task_submit, which does not validate; the third one has an empty source, so the
 * engine fails it. A failed DMA task moves the context to STOPPING by itself: tasks behind
 * it come back flushed (some may complete before it, the engine being asynchronous). The
 * sample frees every task in its callback, waits until none is in flight and the context
 * is IDLE. Compare with pe_polling (no failure) and pe_async_stop (stop on request).
 */
#include <stdbool.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_TASK_ERROR::SAMPLE);

#define NUM_TASKS (255)
#define BAD_TASK_INDEX (2) /* its source is emptied, so the engine must fail it */
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_TASKS)
#define BUF_INVENTORY_SIZE (NUM_TASKS * 2)

struct pe_task_error_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	bool dma_stop_called; /* this sample never calls doca_ctx_stop while tasks run */
	bool dma_running;     /* cleared when the context reaches IDLE */
	bool bad_task_failed; /* the task with the empty source came back with an error */
};

static void dma_state_changed_cb(const union doca_data ctx_user_data, struct doca_ctx *ctx,
				 enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct pe_task_error_sample_state *state = ctx_user_data.ptr;

	DOCA_LOG_INFO("CTX %p state changed from %s to %s", (void *)ctx, ctx_state_to_string(prev_state),
		      ctx_state_to_string(next_state));

	/* Nobody asked for this stop: it is the library reacting to the failed task */
	if (next_state == DOCA_CTX_STATE_STOPPING && !state->dma_stop_called)
		DOCA_LOG_INFO("CTX moved to stopping state unexpectedly");

	if (next_state == DOCA_CTX_STATE_IDLE)
		state->dma_running = false;
}

static void dma_memcpy_completed_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct pe_task_error_sample_state *state = ctx_user_data.ptr;

	DOCA_LOG_INFO("Task completed (expected value = %d)", (uint8_t)task_user_data.u64);
	pe_task_completed(&state->base, dma_task, task_user_data);
}

static void dma_memcpy_error_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
				      union doca_data ctx_user_data)
{
	struct pe_task_error_sample_state *state = ctx_user_data.ptr;
	struct doca_task *task = doca_dma_task_memcpy_as_task(dma_task);
	uint8_t expected_value = (uint8_t)task_user_data.u64;

	state->base.num_completed_tasks++;
	state->base.num_failed_tasks++;
	if (expected_value == BAD_TASK_INDEX + 1)
		state->bad_task_failed = true;

	DOCA_LOG_ERR("Task failed with status %s (expected value = %d)",
		     doca_error_get_descr(doca_task_get_status(task)), expected_value);

	/* Freeing failed tasks here lets the context finish stopping: it waits for every task */
	(void)dma_task_free(dma_task);
}

/* As allocate_dma_tasks, but the source of task BAD_TASK_INDEX holds no data */
static doca_error_t allocate_tasks(struct pe_task_error_sample_state *state)
{
	EXIT_ON_FAILURE(allocate_dma_tasks(&state->base, state->dma, NUM_TASKS, DMA_BUFFER_SIZE, state->tasks));

	/* The task only borrows its source; emptying it is a bug the hardware will report */
	struct doca_buf *bad_src = (struct doca_buf *)doca_dma_task_memcpy_get_src(state->tasks[BAD_TASK_INDEX]);

	EXIT_ON_FAILURE(doca_buf_reset_data_len(bad_src));
	return DOCA_SUCCESS;
}

/* Wait until no task is in flight, then until the context is IDLE */
static doca_error_t poll_for_dma_stop(struct pe_task_error_sample_state *state)
{
	size_t num_inflight_tasks = 0;

	EXIT_ON_FAILURE(doca_ctx_get_num_inflight_tasks(state->dma_ctx, &num_inflight_tasks));
	if (num_inflight_tasks != 0) {
		DOCA_LOG_ERR("%zu tasks still in flight after all %d came back", num_inflight_tasks, NUM_TASKS);
		return DOCA_ERROR_UNEXPECTED;
	}

	/* The context stays STOPPING until every task is freed; all were freed in the callbacks */
	EXIT_ON_FAILURE(poll_while(&state->base, &state->dma_running));
	return DOCA_SUCCESS;
}

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_task_error_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	state->dma_running = true;
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));

	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, dma_memcpy_completed_callback, dma_memcpy_error_callback,
				       NUM_TASKS, state, &state->dma, &state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_set_state_changed_cb(state->dma_ctx, dma_state_changed_cb));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(allocate_tasks(state));
	EXIT_ON_FAILURE(submit_dma_tasks(NUM_TASKS, state->tasks));
	EXIT_ON_FAILURE(poll_for_completion(&state->base, NUM_TASKS));
	EXIT_ON_FAILURE(poll_for_dma_stop(state));

	/* The sample succeeds when the error path worked: the bad task failed, good copies are right */
	if (!state->bad_task_failed) {
		DOCA_LOG_ERR("The task with an empty source did not fail");
		return DOCA_ERROR_UNEXPECTED;
	}
	if (state->base.num_bad_copies != 0) {
		DOCA_LOG_ERR("%u completed tasks copied wrong data", state->base.num_bad_copies);
		return DOCA_ERROR_UNEXPECTED;
	}
	DOCA_LOG_INFO("%u tasks failed or were flushed, %u completed successfully", state->base.num_failed_tasks,
		      state->base.num_completed_tasks - state->base.num_failed_tasks);
	return DOCA_SUCCESS;
}

doca_error_t run_pe_task_error_sample(void)
{
	struct pe_task_error_sample_state state;
	doca_error_t status = run(&state);

	destroy_dma_ctx(state.dma, state.dma_ctx);
	pe_sample_base_cleanup(&state.base);
	return status;
}
