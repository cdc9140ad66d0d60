/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One callback for both outcomes of a task: it reads doca_task_get_status() to tell success
 * from failure. Two callbacks are faster (the success path need not look at the status);
 * one callback is less code. Otherwise as pe_polling: 16 DMA memcpy tasks, polled.
 */
#include <string.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_SINGLE_TASK_COMP_CB::SAMPLE);

#define NUM_TASKS (16)
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_TASKS)
#define BUF_INVENTORY_SIZE (NUM_TASKS * 2)

struct pe_single_task_comp_cb_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
};

/* Called for success and for failure alike (inside doca_pe_progress) */
static void dma_memcpy_task_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
				     union doca_data ctx_user_data)
{
	struct pe_single_task_comp_cb_sample_state *state = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(dma_task));

	if (status == DOCA_SUCCESS)
		pe_task_completed(&state->base, dma_task, task_user_data);
	else
		pe_task_failed(&state->base, dma_task);
}

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_single_task_comp_cb_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));

	/* The same callback for completion and for error */
	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, dma_memcpy_task_callback, dma_memcpy_task_callback, NUM_TASKS,
				       state, &state->dma, &state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(allocate_dma_tasks(&state->base, state->dma, NUM_TASKS, DMA_BUFFER_SIZE, state->tasks));
	EXIT_ON_FAILURE(submit_dma_tasks(NUM_TASKS, state->tasks));
	EXIT_ON_FAILURE(poll_for_completion(&state->base, NUM_TASKS));
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	return DOCA_SUCCESS;
}

doca_error_t run_pe_single_task_comp_cb_sample(void)
{
	struct pe_single_task_comp_cb_sample_state state;
	doca_error_t status = run(&state);

	/* Destroy in reverse order: a context is stopped, then destroyed, before its PE */
	destroy_dma_ctx(state.dma, state.dma_ctx);
	pe_sample_base_cleanup(&state.base);
	return status;
}
