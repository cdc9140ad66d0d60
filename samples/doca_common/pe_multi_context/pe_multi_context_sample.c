/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One PE running several contexts: 4 DMA contexts on the same device, 16 memcpy tasks each,
 * all completed by one polling loop. A PE may also run contexts of different devices.
 * Compare with pe_polling (one context).
 */
#include <string.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_MULTI_CONTEXT::SAMPLE);

#define NUM_CTX (4)
#define NUM_TASKS (16)
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_TASKS * NUM_CTX)
#define BUF_INVENTORY_SIZE (NUM_TASKS * 2 * NUM_CTX)

struct pe_multi_ctx_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma[NUM_CTX];
	struct doca_ctx *dma_ctx[NUM_CTX];
	struct doca_dma_task_memcpy *tasks[NUM_CTX][NUM_TASKS];
	uint32_t completed_per_ctx[NUM_CTX];
};

/* Which of our contexts a task belongs to (one callback serves all of them) */
static int ctx_index_of(struct pe_multi_ctx_sample_state *state, struct doca_dma_task_memcpy *dma_task)
{
	struct doca_ctx *ctx = doca_task_get_ctx(doca_dma_task_memcpy_as_task(dma_task));

	for (int i = 0; i < NUM_CTX; i++)
		if (state->dma_ctx[i] == ctx)
			return i;
	return -1;
}

static void dma_memcpy_completed_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct pe_multi_ctx_sample_state *state = ctx_user_data.ptr;
	int i = ctx_index_of(state, dma_task);

	if (i >= 0)
		state->completed_per_ctx[i]++;
	else
		DOCA_LOG_ERR("doca_task_get_ctx returned a context this sample did not create");
	pe_task_completed(&state->base, dma_task, task_user_data);
}

static doca_error_t create_dmas(struct pe_multi_ctx_sample_state *state)
{
	DOCA_LOG_INFO("Creating DMA");

	/* Connect every context before starting any: the PE can then size its resources once */
	for (int i = 0; i < NUM_CTX; i++)
		EXIT_ON_FAILURE(create_dma_ctx(&state->base, dma_memcpy_completed_callback, pe_dma_memcpy_error_cb,
					       NUM_TASKS, state, &state->dma[i], &state->dma_ctx[i]));
	return DOCA_SUCCESS;
}

static doca_error_t start_dmas(struct pe_multi_ctx_sample_state *state)
{
	for (int i = 0; i < NUM_CTX; i++)
		EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx[i]));
	return DOCA_SUCCESS;
}

static doca_error_t allocate_tasks_for_multi_context(struct pe_multi_ctx_sample_state *state)
{
	for (int i = 0; i < NUM_CTX; i++)
		EXIT_ON_FAILURE(
			allocate_dma_tasks(&state->base, state->dma[i], NUM_TASKS, DMA_BUFFER_SIZE, state->tasks[i]));
	return DOCA_SUCCESS;
}

static doca_error_t submit_tasks_for_multi_context(struct pe_multi_ctx_sample_state *state)
{
	/* Submission order is the order of processing, not necessarily of completion */
	for (int i = 0; i < NUM_CTX; i++)
		EXIT_ON_FAILURE(submit_dma_tasks(NUM_TASKS, state->tasks[i]));
	return DOCA_SUCCESS;
}

/* Every context must have run exactly its own tasks */
static doca_error_t check_per_ctx_counts(struct pe_multi_ctx_sample_state *state)
{
	for (int i = 0; i < NUM_CTX; i++) {
		if (state->completed_per_ctx[i] != NUM_TASKS) {
			DOCA_LOG_ERR("Context %d completed %u tasks, expected %d", i, state->completed_per_ctx[i],
				     NUM_TASKS);
			return DOCA_ERROR_UNEXPECTED;
		}
	}
	return DOCA_SUCCESS;
}

/* Every context is stopped and destroyed before the PE */
static void cleanup(struct pe_multi_ctx_sample_state *state)
{
	for (int i = 0; i < NUM_CTX; i++)
		destroy_dma_ctx(state->dma[i], state->dma_ctx[i]);
	pe_sample_base_cleanup(&state->base);
}

static doca_error_t run(struct pe_multi_ctx_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));
	EXIT_ON_FAILURE(create_dmas(state));
	EXIT_ON_FAILURE(start_dmas(state));
	EXIT_ON_FAILURE(allocate_tasks_for_multi_context(state));
	EXIT_ON_FAILURE(submit_tasks_for_multi_context(state));
	EXIT_ON_FAILURE(poll_for_completion(&state->base, NUM_TASKS * NUM_CTX));
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	EXIT_ON_FAILURE(check_per_ctx_counts(state));
	return DOCA_SUCCESS;
}

doca_error_t run_pe_multi_context_sample(void)
{
	struct pe_multi_ctx_sample_state state;
	doca_error_t status = run(&state);

	cleanup(&state);
	return status;
}
