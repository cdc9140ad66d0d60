/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PE in event mode: instead of spinning on doca_pe_progress, the thread sleeps in epoll_wait
 * on the PE's notification handle until a completion arrives. Less CPU, possibly more
 * latency. The cycle: progress until it returns 0, request a notification, wait, clear it,
 * repeat. 16 DMA memcpy tasks; compare with pe_polling.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_EVENT::SAMPLE);

#define NUM_TASKS (16)
#define DMA_BUFFER_SIZE (1024)
#define BUFFER_SIZE (DMA_BUFFER_SIZE * 2 * NUM_TASKS)
#define BUF_INVENTORY_SIZE (NUM_TASKS * 2)
#define EVENT_TIMEOUT_MS (20 * 1000) /* an armed PE with tasks in flight must fire long before this */

struct pe_event_sample_state {
	struct pe_sample_state_base base;
	struct doca_dma *dma;
	struct doca_ctx *dma_ctx;
	struct doca_dma_task_memcpy *tasks[NUM_TASKS];
	int epoll_fd;
	doca_notification_handle_t pe_handle;
};

/* Put the PE's notification handle (a file descriptor on Linux) into an epoll set */
static doca_error_t register_pe_event(struct pe_event_sample_state *state)
{
	struct epoll_event events_in = {.events = EPOLLIN};

	DOCA_LOG_INFO("Registering PE event");

	state->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (state->epoll_fd == -1) {
		DOCA_LOG_ERR("Failed to create epoll_fd, error=%d", errno);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}

	EXIT_ON_FAILURE(doca_pe_get_notification_handle(state->base.pe, &state->pe_handle));

	events_in.data.fd = state->pe_handle;
	if (epoll_ctl(state->epoll_fd, EPOLL_CTL_ADD, state->pe_handle, &events_in) != 0) {
		DOCA_LOG_ERR("Failed to register epoll, error=%d", errno);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	return DOCA_SUCCESS;
}

/* Run the PE until every task came back, sleeping on the event whenever there is nothing to do */
static doca_error_t run_for_completion(struct pe_event_sample_state *state)
{
	struct epoll_event ep_event;
	int n;

	DOCA_LOG_INFO("Running until all tasks are complete");

	for (;;) {
		/* Drain: a progress call that returns 1 may have more behind it */
		while (doca_pe_progress(state->base.pe) != 0) {
			if (state->base.num_completed_tasks == NUM_TASKS) {
				DOCA_LOG_INFO("All tasks completed");
				return DOCA_SUCCESS;
			}
		}

		/* Arm the handle: it fires on the next completion, even one that raced with the arming */
		EXIT_ON_FAILURE(doca_pe_request_notification(state->base.pe));

		do
			n = epoll_wait(state->epoll_fd, &ep_event, 1, EVENT_TIMEOUT_MS);
		while (n == -1 && errno == EINTR);
		if (n == -1) {
			DOCA_LOG_ERR("Failed waiting for event, error=%d", errno);
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		if (n == 0) {
			DOCA_LOG_ERR("No PE notification within %d ms with %u of %d tasks completed", EVENT_TIMEOUT_MS,
				     state->base.num_completed_tasks, NUM_TASKS);
			return DOCA_ERROR_TIME_OUT;
		}

		/* Linux ignores the handle argument; DOCA's own samples pass 0 */
		EXIT_ON_FAILURE(doca_pe_clear_notification(state->base.pe, 0));
	}
}

/* Stops at the first failure; the caller undoes whatever was done */
static doca_error_t run(struct pe_event_sample_state *state)
{
	memset(state, 0, sizeof(*state));
	state->epoll_fd = -1;
	EXIT_ON_FAILURE(pe_sample_base_setup(&state->base, BUFFER_SIZE, BUF_INVENTORY_SIZE));
	EXIT_ON_FAILURE(register_pe_event(state));

	DOCA_LOG_INFO("Creating DMA");
	EXIT_ON_FAILURE(create_dma_ctx(&state->base, pe_dma_memcpy_completed_cb, pe_dma_memcpy_error_cb, NUM_TASKS,
				       state, &state->dma, &state->dma_ctx));
	EXIT_ON_FAILURE(doca_ctx_start(state->dma_ctx));
	EXIT_ON_FAILURE(allocate_dma_tasks(&state->base, state->dma, NUM_TASKS, DMA_BUFFER_SIZE, state->tasks));
	EXIT_ON_FAILURE(submit_dma_tasks(NUM_TASKS, state->tasks));
	EXIT_ON_FAILURE(run_for_completion(state));
	EXIT_ON_FAILURE(check_all_tasks_succeeded(&state->base));
	return DOCA_SUCCESS;
}

doca_error_t run_pe_event_sample(void)
{
	struct pe_event_sample_state state;
	doca_error_t status = run(&state);

	destroy_dma_ctx(state.dma, state.dma_ctx);
	if (state.epoll_fd >= 0)
		close(state.epoll_fd);
	pe_sample_base_cleanup(&state.base);
	return status;
}
