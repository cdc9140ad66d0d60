/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Code shared by the progress-engine (pe_*) samples. Each sample shows one feature of
 * doca_pe; DMA memcpy tasks are only the work they use to show it. One buffer holds every
 * source and destination: source i is filled with the byte i + 1, which the completion
 * callback finds again in destination i.
 */
#ifndef PE_COMMON_H_
#define PE_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>

/* Return the error of an expression that fails, naming the function it failed in. */
#define EXIT_ON_FAILURE(_expression_)                                                                  \
	do {                                                                                           \
		doca_error_t _status_ = (_expression_);                                                \
		if (_status_ != DOCA_SUCCESS) {                                                        \
			DOCA_LOG_ERR("%s failed with status %s", __func__, doca_error_get_descr(_status_)); \
			return _status_;                                                               \
		}                                                                                      \
	} while (0)

/* What every PE sample holds */
struct pe_sample_state_base {
	struct doca_dev *device;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inventory;
	struct doca_pe *pe;

	size_t buffer_size;	  /* bytes of buffer */
	size_t buf_inventory_size; /* doca_bufs in the inventory */
	uint8_t *buffer;	  /* every source and destination lives here */
	uint8_t *available_buffer; /* first byte of buffer not handed out yet */

	uint32_t num_completed_tasks; /* tasks that came back, successfully or not */
	uint32_t num_failed_tasks;    /* ... through the error callback */
	uint32_t num_bad_copies;      /* successful tasks whose destination is wrong */
};

/* Check that the destination of a completed task holds the whole source: the byte expected_value. */
doca_error_t process_completed_dma_memcpy_task(struct doca_dma_task_memcpy *dma_task, uint8_t expected_value);

/* Release the source and destination bufs of a task. */
doca_error_t free_dma_memcpy_task_buffers(struct doca_dma_task_memcpy *dma_task);

/* Release the bufs of a task, then the task. */
doca_error_t dma_task_free(struct doca_dma_task_memcpy *dma_task);

/*
 * What every sample does first: allocate buffer_size bytes for sources and destinations,
 * open the first device that supports DMA memcpy, map the whole buffer on it (local
 * read/write), start an inventory of buf_inventory_size bufs and create the PE.
 */
doca_error_t pe_sample_base_setup(struct pe_sample_state_base *state, size_t buffer_size,
				  size_t buf_inventory_size);

/*
 * Create a DMA context on state->device, connect it to state->pe and give it a pool of
 * num_tasks memcpy tasks with these callbacks; ctx_user_data reaches every callback.
 * *dma_ctx is set only once all of it worked, so a cleanup stops only a configured context.
 */
doca_error_t create_dma_ctx(struct pe_sample_state_base *state, doca_dma_task_memcpy_completion_cb_t completed_cb,
			    doca_dma_task_memcpy_completion_cb_t error_cb, uint32_t num_tasks, void *ctx_user_data,
			    struct doca_dma **dma, struct doca_ctx **dma_ctx);

/* Stop the context (if it got that far), then destroy it; both may be NULL. */
void destroy_dma_ctx(struct doca_dma *dma, struct doca_ctx *dma_ctx);

/*
 * Take the next source and destination of size bytes out of the buffer: the source holds
 * size bytes of value, all of them data; the destination starts empty and the copy fills it.
 */
doca_error_t get_buffer_pair(struct pe_sample_state_base *state, size_t size, uint8_t value,
			     struct doca_buf **source, struct doca_buf **destination);

/*
 * Allocate num_tasks memcpy tasks of dma_buffer_size bytes each from dma (not submitted).
 * Task i copies the byte i + 1; that value is the task's user data.
 */
doca_error_t allocate_dma_tasks(struct pe_sample_state_base *state, struct doca_dma *dma, uint32_t num_tasks,
				size_t dma_buffer_size, struct doca_dma_task_memcpy **tasks);

doca_error_t submit_dma_tasks(uint32_t num_tasks, struct doca_dma_task_memcpy **tasks);

/* The usual completion bookkeeping: verify the copy, count it, free the task and its bufs. */
void pe_task_completed(struct pe_sample_state_base *state, struct doca_dma_task_memcpy *dma_task,
		       union doca_data task_user_data);

/* The usual error bookkeeping: log the status, count it, free the task and its bufs. */
void pe_task_failed(struct pe_sample_state_base *state, struct doca_dma_task_memcpy *dma_task);

/*
 * Callbacks for samples that need no more than the usual bookkeeping above. Their ctx user
 * data must be the sample's state, whose first member is its struct pe_sample_state_base.
 */
void pe_dma_memcpy_completed_cb(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
				union doca_data ctx_user_data);
void pe_dma_memcpy_error_cb(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
			    union doca_data ctx_user_data);

/* Progress the PE until num_tasks tasks came back (or the PE is stuck for too long). */
doca_error_t poll_for_completion(struct pe_sample_state_base *state, uint32_t num_tasks);

/* Progress the PE until *flag is false (or the PE is stuck for too long). */
doca_error_t poll_while(struct pe_sample_state_base *state, const bool *flag);

/* Fail if any task failed or copied wrong data (for samples where every task must succeed). */
doca_error_t check_all_tasks_succeeded(const struct pe_sample_state_base *state);

const char *ctx_state_to_string(enum doca_ctx_states state);

/* Destroy the PE, inventory and mmap, close the device, free the buffer (contexts must be gone). */
void pe_sample_base_cleanup(struct pe_sample_state_base *state);

/*
 * The main() of every PE sample: set up logging, run the sample, print the final line.
 * Returns the process exit status.
 */
int pe_sample_main(const char *run_name, doca_error_t (*run_sample)(void));

#endif /* PE_COMMON_H_ */
