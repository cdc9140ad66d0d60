/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_task_try_submit: unlike doca_task_submit it validates the task first and refuses a
 * bad one (the task stays the caller's). Validation costs CPU, so it is meant for
 * development. The sample submits 16 good DMA memcpy tasks with it, then checks that a task
 * whose destination is too small for its source is refused and never runs.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_TASK_TRY_SUBMIT::SAMPLE);

#define NUM_TASKS (16)
#define DMA_BUFFER_SIZE (1024)
/* Plus one bad task: a full source and a half-size destination */
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * (NUM_TASKS + 1))
#define BUF_INVENTORY_SIZE ((NUM_TASKS + 1) * 2)

struct pe_task_try_submit_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
};

static doca_error_t try_submit_dma_tasks(uint32_t num_tasks, struct doca_dma_task_memcpy **tasks)
{
	DOCA_LOG_INFO("Submitting tasks");

	for (uint32_t task_id = 0; task_id < num_tasks; task_id++) {
		struct doca_task *task = doca_dma_task_memcpy_as_task(tasks[task_id]);
		doca_error_t status = doca_task_try_submit(task);

		if (status != DOCA_SUCCESS) {
			/* A refused task is still ours to free */
			DOCA_LOG_ERR("Failed to submit task with status %s", doca_error_get_descr(status));
			(void)dma_task_free(tasks[task_id]);
			return status;
		}
	}
	return DOCA_SUCCESS;
}

/* A destination smaller than the source is invalid: try_submit must refuse it. */
static doca_error_t try_submit_invalid_task(struct pe_task_try_submit_sample_state *state)
{
	struct pe_sample_state_base *base = &state->base;
	struct doca_buf *source = NULL, *destination = NULL;
	struct doca_dma_task_memcpy *dma_task = NULL;
	union doca_data user_data = {.u64 = 0};
	doca_error_t status;

	EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_data(base->inventory, base->mmap, base->available_buffer,
							   DMA_BUFFER_SIZE, &source));
	base->available_buffer += DMA_BUFFER_SIZE;
	EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_addr(base->inventory, base->mmap, base->available_buffer,
							   DMA_BUFFER_SIZE / 2, &destination));
	base->available_buffer += DMA_BUFFER_SIZE;
	EXIT_ON_FAILURE(doca_dma_task_memcpy_alloc_init(state->dma, source, destination, user_data, &dma_task));

	status = doca_task_try_submit(doca_dma_task_memcpy_as_task(dma_task));
	if (status == DOCA_SUCCESS) {
		DOCA_LOG_ERR("doca_task_try_submit accepted a task whose destination is smaller than its source");
		/* It is the library's now: let it come back through a callback, which frees it */
		(void)poll_for_completion(base, NUM_TASKS + 1);
		return DOCA_ERROR_UNEXPECTED;
	}
	(void)dma_task_free(dma_task);
	DOCA_LOG_INFO("doca_task_try_submit refused an invalid task as expected: %s", doca_error_get_descr(status));
	return DOCA_SUCCESS;
}

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_task_try_submit_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));

	/* Room in the task pool for the invalid task too */
	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, pe_dma_memcpy_completed_cb, pe_dma_memcpy_error_cb,
				       NUM_TASKS + 1, state, &state->dma, &state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(allocate_dma_tasks(&state->base, state->dma, NUM_TASKS, DMA_BUFFER_SIZE, state->tasks));
	EXIT_ON_FAILURE(try_submit_dma_tasks(NUM_TASKS, state->tasks));
	EXIT_ON_FAILURE(poll_for_completion(&state->base, NUM_TASKS));
	EXIT_ON_FAILURE(try_submit_invalid_task(state));
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	return DOCA_SUCCESS;
}

doca_error_t run_pe_task_try_submit_sample(void)
{
	struct pe_task_try_submit_sample_state state;
	doca_error_t status = run(&state);

	/* Destroy in reverse order: a context is stopped, then destroyed, before its PE */
	destroy_dma_ctx(state.dma, state.dma_ctx);
	pe_sample_base_cleanup(&state.base);
	return status;
}
