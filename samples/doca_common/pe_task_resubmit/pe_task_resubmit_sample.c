/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Task resubmission: a completed task is the program's again, so its callback may give it
 * new buffers (doca_dma_task_memcpy_set_src/set_dst) and submit it once more instead of
 * freeing it and allocating another. 4 tasks copy 16 buffer pairs this way; the task pool
 * only ever holds 4 tasks. Compare with pe_polling (one task per copy).
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_TASK_RESUBMIT::SAMPLE);

#define NUM_TASKS (4)
#define NUM_BUFFER_PAIRS (NUM_TASKS * 4)
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_BUFFER_PAIRS)
#define BUF_INVENTORY_SIZE (NUM_BUFFER_PAIRS * 2)

struct pe_task_resubmit_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	uint32_t buff_pair_index; /* next buffer pair to copy */
	struct doca_buf *src_buffers[NUM_BUFFER_PAIRS];
	struct doca_buf *dst_buffers[NUM_BUFFER_PAIRS];
};

/* Give a finished task the next buffer pair and submit it again, or free it when none is left. */
static void dma_task_resubmit(struct pe_task_resubmit_sample_state *state, struct doca_dma_task_memcpy *dma_task)
{
	struct doca_task *task = doca_dma_task_memcpy_as_task(dma_task);
	union doca_data user_data;
	doca_error_t status;

	if (state->buff_pair_index >= NUM_BUFFER_PAIRS) {
		doca_task_free(task);
		return;
	}

	DOCA_LOG_INFO("Task %p resubmitting with buffers index %u", (void *)dma_task, state->buff_pair_index);

	/* Source i holds the byte i + 1 */
	user_data.u64 = state->buff_pair_index + 1;
	doca_task_set_user_data(task, user_data);
	doca_dma_task_memcpy_set_src(dma_task, state->src_buffers[state->buff_pair_index]);
	doca_dma_task_memcpy_set_dst(dma_task, state->dst_buffers[state->buff_pair_index]);
	state->buff_pair_index++;

	status = doca_task_submit(task);
	if (status != DOCA_SUCCESS) {
		/* Not submitted: still ours, and it will never complete, so count it here */
		DOCA_LOG_ERR("Failed to submit task with status %s", doca_error_get_descr(status));
		(void)dma_task_free(dma_task);
		state->base.num_completed_tasks++;
		state->base.num_failed_tasks++;
	}
}

static void dma_memcpy_completed_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct pe_task_resubmit_sample_state *state = ctx_user_data.ptr;

	state->base.num_completed_tasks++;
	if (process_completed_dma_memcpy_task(dma_task, (uint8_t)task_user_data.u64) != DOCA_SUCCESS)
		state->base.num_bad_copies++;
	/* Release this copy's buffers but keep the task for the next pair */
	(void)free_dma_memcpy_task_buffers(dma_task);
	dma_task_resubmit(state, dma_task);
}

static void dma_memcpy_error_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
				      union doca_data ctx_user_data)
{
	struct pe_task_resubmit_sample_state *state = ctx_user_data.ptr;
	struct doca_task *task = doca_dma_task_memcpy_as_task(dma_task);

	(void)task_user_data;
	state->base.num_completed_tasks++;
	state->base.num_failed_tasks++;
	DOCA_LOG_ERR("Task failed with status %s", doca_error_get_descr(doca_task_get_status(task)));
	(void)free_dma_memcpy_task_buffers(dma_task);
	dma_task_resubmit(state, dma_task);
}

/* Every buffer pair up front: source i holds the byte i + 1 */
static doca_error_t allocate_doca_bufs(struct pe_task_resubmit_sample_state *state)
{
	DOCA_LOG_INFO("Allocating doca buffers");

	for (uint32_t i = 0; i < NUM_BUFFER_PAIRS; i++)
		EXIT_ON_FAILURE(get_buffer_pair(&state->base, DMA_BUFFER_SIZE, (uint8_t)(i + 1), &state->src_buffers[i],
						&state->dst_buffers[i]));
	return DOCA_SUCCESS;
}

/* The first NUM_TASKS buffer pairs go to freshly allocated tasks; the rest to resubmissions */
static doca_error_t allocate_tasks_for_resubmit(struct pe_task_resubmit_sample_state *state)
{
	DOCA_LOG_INFO("Allocating tasks");

	for (uint32_t i = 0; i < NUM_TASKS; i++) {
		union doca_data user_data = {.u64 = state->buff_pair_index + 1};

		EXIT_ON_FAILURE(doca_dma_task_memcpy_alloc_init(state->dma, state->src_buffers[state->buff_pair_index],
								state->dst_buffers[state->buff_pair_index],
								user_data, &state->tasks[i]));
		DOCA_LOG_INFO("Task %p allocated with buffers index %u", (void *)state->tasks[i],
			      state->buff_pair_index);
		state->buff_pair_index++;
	}
	return DOCA_SUCCESS;
}

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_task_resubmit_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));

	/* The task pool holds NUM_TASKS only: fewer tasks than copies */
	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, dma_memcpy_completed_callback, dma_memcpy_error_callback,
				       NUM_TASKS, state, &state->dma, &state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(allocate_doca_bufs(state));
	EXIT_ON_FAILURE(allocate_tasks_for_resubmit(state));
	EXIT_ON_FAILURE(submit_dma_tasks(NUM_TASKS, state->tasks));
	EXIT_ON_FAILURE(poll_for_completion(&state->base, NUM_BUFFER_PAIRS));
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	return DOCA_SUCCESS;
}

doca_error_t run_pe_task_resubmit_sample(void)
{
	struct pe_task_resubmit_sample_state state;
	doca_error_t status = run(&state);

	destroy_dma_ctx(state.dma, state.dma_ctx);
	pe_sample_base_cleanup(&state.base);
	return status;
}
