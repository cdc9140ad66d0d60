/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A reactive program: main() only starts the context and calls doca_pe_progress; the
 * callbacks do the rest. RUNNING submits 16 DMA memcpy tasks, the last completion stops the
 * context (from inside its callback), and IDLE destroys the context (from inside the state
 * callback) and ends the loop. Compare with pe_polling, where main() does every step.
 */
#include <stdbool.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_REACTIVE::SAMPLE);

#define NUM_TASKS (16)
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_TASKS)
#define BUF_INVENTORY_SIZE (NUM_TASKS * 2)

struct pe_reactive_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	bool run_main_loop;	 /* cleared by the callbacks when all is done */
	doca_error_t cb_result; /* first failure seen inside a callback */
};

static void stop_on_error(struct pe_reactive_sample_state *state, doca_error_t result, const char *what)
{
	DOCA_LOG_ERR("%s: %s", what, doca_error_get_descr(result));
	DOCA_ERROR_PROPAGATE(state->cb_result, result);
	state->run_main_loop = false;
}

static void dma_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
				       enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct pe_reactive_sample_state *state = user_data.ptr;
	doca_error_t status;

	(void)ctx;
	(void)prev_state;

	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("DMA context has been stopped. Destroying context");
		/* Nothing refers to the context any more: it may be destroyed right here */
		status = doca_dma_destroy(state->dma);
		if (status != DOCA_SUCCESS)
			stop_on_error(state, status, "Failed to destroy DMA context from its state callback");
		else
			state->dma = NULL;
		state->dma_ctx = NULL;
		state->run_main_loop = false;
		break;
	case DOCA_CTX_STATE_STARTING:
		/* DMA starts synchronously */
		DOCA_LOG_ERR("DMA context entered into starting state. Unexpected transition");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("DMA context is running. Submitting tasks");
		status = allocate_dma_tasks(&state->base, state->dma, NUM_TASKS, DMA_BUFFER_SIZE, state->tasks);
		if (status != DOCA_SUCCESS) {
			stop_on_error(state, status, "Failed to allocate DMA memory copy tasks");
			break;
		}
		status = submit_dma_tasks(NUM_TASKS, state->tasks);
		if (status != DOCA_SUCCESS)
			stop_on_error(state, status, "Failed to submit DMA memory copy tasks");
		break;
	case DOCA_CTX_STATE_STOPPING:
		/* Only a failed task gets us here: progress flushes the rest, then IDLE follows */
		DOCA_LOG_ERR("DMA context entered into stopping state. All inflight tasks will be flushed");
		break;
	default:
		break;
	}
}

static void dma_memcpy_completed_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct pe_reactive_sample_state *state = ctx_user_data.ptr;

	pe_task_completed(&state->base, dma_task, task_user_data);

	/* A context may be stopped from inside one of its own callbacks */
	if (state->base.num_completed_tasks == NUM_TASKS) {
		DOCA_LOG_INFO("All tasks have completed. Stopping context");
		(void)doca_ctx_stop(state->dma_ctx);
	}
}

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_reactive_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	state->run_main_loop = true;
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));

	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, dma_memcpy_completed_callback, pe_dma_memcpy_error_cb, NUM_TASKS,
				       state, &state->dma, &state->dma_ctx));
	/* State changes (including those inside doca_pe_progress) drive the sample */
	EXIT_ON_FAILURE(doca_ctx_set_state_changed_cb(state->dma_ctx, dma_state_changed_callback));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));

	DOCA_LOG_INFO("Polling until all tasks are completed");

	/* Everything else happens in the callbacks, inside doca_pe_progress */
	EXIT_ON_FAILURE(poll_while(&state->base, &state->run_main_loop));
	EXIT_ON_FAILURE(state->cb_result);
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	if (state->base.num_completed_tasks != NUM_TASKS || state->dma != NULL) {
		DOCA_LOG_ERR("The loop ended with %u of %d tasks completed and the context %s",
			     state->base.num_completed_tasks, NUM_TASKS, state->dma ? "alive" : "destroyed");
		return DOCA_ERROR_UNEXPECTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t run_pe_reactive_sample(void)
{
	struct pe_reactive_sample_state state;
	doca_error_t status = run(&state);

	/* After a successful run the IDLE callback destroyed the context already */
	destroy_dma_ctx(state.dma, state.dma_ctx);
	pe_sample_base_cleanup(&state.base);
	return status;
}
