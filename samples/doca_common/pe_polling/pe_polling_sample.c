/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PE in polling mode, the simplest way to run a PE: one DMA context, 16 memcpy tasks
 * submitted at once, then doca_pe_progress in a loop until every task came back.
 * Compare the other pe_* samples with this one to see what each of them adds.
 */
#include <string.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_POLLING::SAMPLE);

#define NUM_TASKS (16)
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_TASKS)
#define BUF_INVENTORY_SIZE (NUM_TASKS * 2)

struct pe_polling_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
};

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_polling_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));

	/* Callbacks run inside doca_pe_progress, never anywhere else; these verify and count */
	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, pe_dma_memcpy_completed_cb, pe_dma_memcpy_error_cb, NUM_TASKS,
				       state, &state->dma, &state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(allocate_dma_tasks(&state->base, state->dma, NUM_TASKS, DMA_BUFFER_SIZE, state->tasks));
	EXIT_ON_FAILURE(submit_dma_tasks(NUM_TASKS, state->tasks));
	EXIT_ON_FAILURE(poll_for_completion(&state->base, NUM_TASKS));
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	return DOCA_SUCCESS;
}

doca_error_t run_pe_polling_sample(void)
{
	struct pe_polling_sample_state state;
	doca_error_t status = run(&state);

	/* Destroy in reverse order: a context is stopped, then destroyed, before its PE */
	destroy_dma_ctx(state.dma, state.dma_ctx);
	pe_sample_base_cleanup(&state.base);
	return status;
}
