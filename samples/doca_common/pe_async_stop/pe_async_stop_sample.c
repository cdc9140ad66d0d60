/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Stopping a context while tasks are in flight. After 8 of 16 DMA memcpy tasks completed,
 * the completion callback calls doca_ctx_stop: it returns DOCA_ERROR_IN_PROGRESS and the
 * context goes to STOPPING; the remaining tasks come back flushed, through the error
 * callback; once they are all freed the context reaches IDLE and the state callback says so.
 * Compare with pe_polling (stop after all tasks).
 */
#include <stdbool.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_ASYNC_STOP::SAMPLE);

#define NUM_TASKS (16)
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_TASKS)
#define BUF_INVENTORY_SIZE (NUM_TASKS * 2)

struct pe_async_stop_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	bool stop_requested;	 /* doca_ctx_stop was called: failures from now on are flushes */
	bool dma_running;	 /* cleared by the STOPPING -> IDLE transition */
	uint32_t num_flushed;	 /* tasks that came back flushed */
	doca_error_t cb_result; /* first unexpected failure seen inside a callback */
};

static void dma_memcpy_completed_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct pe_async_stop_sample_state *state = ctx_user_data.ptr;
	doca_error_t status;

	DOCA_LOG_INFO("Task %p completed successfully", (void *)dma_task);
	pe_task_completed(&state->base, dma_task, task_user_data);

	if (state->base.num_completed_tasks != NUM_TASKS / 2 || state->stop_requested)
		return;

	/* Tasks are still in flight, so the stop cannot finish now: IN_PROGRESS */
	state->stop_requested = true;
	status = doca_ctx_stop(state->dma_ctx);
	if (status != DOCA_ERROR_IN_PROGRESS) {
		DOCA_LOG_ERR("Failed to stop DMA during run with status %s", doca_error_get_descr(status));
		DOCA_ERROR_PROPAGATE(state->cb_result, status == DOCA_SUCCESS ? DOCA_ERROR_UNEXPECTED : status);
		state->dma_running = false; /* do not wait for a STOPPING -> IDLE that will not come */
	} else {
		DOCA_LOG_INFO("Stopping DMA in the middle");
	}
}

static void dma_memcpy_error_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
				      union doca_data ctx_user_data)
{
	struct pe_async_stop_sample_state *state = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(dma_task));

	(void)task_user_data;
	state->base.num_completed_tasks++;

	/* doca_ctx_get_state would tell the same: a failure while STOPPING is a flush */
	if (state->stop_requested) {
		state->num_flushed++;
		DOCA_LOG_INFO("Task flushed with status %s", doca_error_get_descr(status));
	} else {
		state->base.num_failed_tasks++;
		DOCA_LOG_ERR("Task failed with status %s", doca_error_get_descr(status));
	}
	(void)dma_task_free(dma_task);
}

static void dma_state_changed_cb(const union doca_data ctx_user_data, struct doca_ctx *ctx,
				 enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct pe_async_stop_sample_state *state = ctx_user_data.ptr;

	/* Expected here: idle -> running (start), running -> stopping (our stop), stopping -> idle */
	DOCA_LOG_INFO("CTX %p state changed from %s to %s", (void *)ctx, ctx_state_to_string(prev_state),
		      ctx_state_to_string(next_state));

	if (next_state == DOCA_CTX_STATE_IDLE)
		state->dma_running = false;
}

/* Every task came back; the last progress calls move the context from STOPPING to IDLE */
static doca_error_t poll_for_dma_stop(struct pe_async_stop_sample_state *state)
{
	EXIT_ON_FAILURE(poll_while(&state->base, &state->dma_running));
	DOCA_LOG_INFO("%u tasks completed successfully, %u were flushed", state->base.num_completed_tasks -
		      state->num_flushed - state->base.num_failed_tasks, state->num_flushed);
	return DOCA_SUCCESS;
}

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_async_stop_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	state->dma_running = true;
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));

	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, dma_memcpy_completed_callback, dma_memcpy_error_callback,
				       NUM_TASKS, state, &state->dma, &state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_set_state_changed_cb(state->dma_ctx, dma_state_changed_cb));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(allocate_dma_tasks(&state->base, state->dma, NUM_TASKS, DMA_BUFFER_SIZE, state->tasks));
	EXIT_ON_FAILURE(submit_dma_tasks(NUM_TASKS, state->tasks));
	EXIT_ON_FAILURE(poll_for_completion(&state->base, NUM_TASKS));
	EXIT_ON_FAILURE(poll_for_dma_stop(state));
	EXIT_ON_FAILURE(state->cb_result);
	/* Flushed tasks are expected; real failures and wrong copies are not */
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	return DOCA_SUCCESS;
}

doca_error_t run_pe_async_stop_sample(void)
{
	struct pe_async_stop_sample_state state;
	doca_error_t status = run(&state);

	destroy_dma_ctx(state.dma, state.dma_ctx);
	pe_sample_base_cleanup(&state.base);
	return status;
}
