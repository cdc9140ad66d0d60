/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device runtime, core (libdoca_dpa_dev.a): image initialisation, thread rank and count,
 * logs, sync events. Every call goes to the host callbacks (dev_runtime.h).
 */
#include <stdarg.h>

#include "doca_dpa_dev.h"
#include "doca_dpa_dev_sync_event.h"
#include "doca_dpa_dev_buf.h"
#include "dev_runtime.h"

DEV_HIDDEN const struct softdoca_dpa_host_ops *softdoca_dpa_dev_host;

/* Called by the host once the image is loaded (dpacc's image descriptor points here). */
DEV_HIDDEN void __softdoca_dpa_dev_init(const struct softdoca_dpa_host_ops *ops)
{
	softdoca_dpa_dev_host = ops;
}

DEV_HIDDEN void softdoca_dpa_dev_unsupported(const char *function)
{
	softdoca_dpa_dev_host->unsupported(function);
}

void doca_dpa_dev_device_set(doca_dpa_dev_t dpa_handle)
{
	softdoca_dpa_dev_host->device_set(dpa_handle);
}

unsigned int doca_dpa_dev_thread_rank(void)
{
	return softdoca_dpa_dev_host->thread_rank();
}

unsigned int doca_dpa_dev_num_threads(void)
{
	return softdoca_dpa_dev_host->num_threads();
}

doca_dpa_dev_uintptr_t doca_dpa_dev_thread_get_local_storage(void)
{
	return softdoca_dpa_dev_host->thread_local_storage();
}

/*
 * EUs are preemptive host threads: a kernel that yields needs no scheduling. It still makes a
 * host call (every host call is a stop point): a loop that only yields ends when the watchdog
 * or a stop ends its rank, without a new member in the host table.
 */
void doca_dpa_dev_yield(void)
{
	(void)softdoca_dpa_dev_host->cycles();
}

/* Ends the thread's activation: the next notification runs its function again from the start. */
void doca_dpa_dev_thread_reschedule(void)
{
	softdoca_dpa_dev_host->thread_reschedule();
	/* reached only outside a DPA thread: the host logged it and put the context in error */
}

/* Ends the thread for good. */
void doca_dpa_dev_thread_finish(void)
{
	softdoca_dpa_dev_host->thread_finish();
}

void doca_dpa_dev_thread_notify(doca_dpa_dev_notification_completion_t comp_handle)
{
	softdoca_dpa_dev_host->thread_notify(comp_handle);
}

void doca_dpa_dev_log(doca_dpa_dev_log_level_t log_level, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	softdoca_dpa_dev_host->log((int)log_level, format, ap);
	va_end(ap);
}

void doca_dpa_dev_sync_event_get(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t *value)
{
	softdoca_dpa_dev_host->sync_event_get(dpa_dev_se_handle, value);
}

void doca_dpa_dev_sync_event_update_add(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t value)
{
	softdoca_dpa_dev_host->sync_event_update_add(dpa_dev_se_handle, value);
}

void doca_dpa_dev_sync_event_update_set(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t value)
{
	softdoca_dpa_dev_host->sync_event_update_set(dpa_dev_se_handle, value);
}

void doca_dpa_dev_sync_event_wait_gt(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t value, uint64_t mask)
{
	softdoca_dpa_dev_host->sync_event_wait_gt(dpa_dev_se_handle, value, mask);
}

/* ---- hash tables: kept by the host, which checks the handle ---- */

void doca_dpa_dev_hash_table_add(doca_dpa_dev_hash_table_t ht_handle, uint32_t key, uint64_t value)
{
	softdoca_dpa_dev_host->hash_table(ht_handle, SOFTDOCA_DPA_HT_ADD, key, &value);
}

void doca_dpa_dev_hash_table_remove(doca_dpa_dev_hash_table_t ht_handle, uint32_t key)
{
	softdoca_dpa_dev_host->hash_table(ht_handle, SOFTDOCA_DPA_HT_REMOVE, key, 0);
}

int doca_dpa_dev_hash_table_find(doca_dpa_dev_hash_table_t ht_handle, uint32_t key, uint64_t *value)
{
	return softdoca_dpa_dev_host->hash_table(ht_handle, SOFTDOCA_DPA_HT_FIND, key, value);
}

/* Traces are written when made (one line each, dpa_files.c): a flush has nothing left to do. */
void doca_dpa_dev_trace(uint64_t arg1, uint64_t arg2, uint64_t arg3, uint64_t arg4, uint64_t arg5)
{
	const uint64_t args[5] = {arg1, arg2, arg3, arg4, arg5};

	softdoca_dpa_dev_host->trace(args);
}

void doca_dpa_dev_trace_flush(void)
{
	(void)softdoca_dpa_dev_host->cycles(); /* a stop point, as every DPA call */
}

/* dpaintrin.h's __dpa_thread_cycles() */
DEV_HIDDEN uint64_t __softdoca_dpa_dev_cycles(void)
{
	return softdoca_dpa_dev_host->cycles();
}

/* dpaintrin.h's __dpa_thread_time() */
DEV_HIDDEN uint64_t __softdoca_dpa_dev_time_us(void)
{
	return softdoca_dpa_dev_host->timer_us();
}

/*
 * Host memory through mmap handles. The copy is done when post_memcpy returns; with async ops
 * (a non-zero handle) its completion is then delivered to their completion context.
 */
void doca_dpa_dev_post_memcpy(doca_dpa_dev_async_ops_t async_ops_handle, doca_dpa_dev_mmap_t dst_mmap_handle,
			      uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap_handle, uint64_t src_addr, size_t length,
			      uint32_t flags)
{
	if (async_ops_handle == 0)
		softdoca_dpa_dev_host->mmap_memcpy(dst_mmap_handle, dst_addr, src_mmap_handle, src_addr, length);
	else
		softdoca_dpa_dev_host->async_memcpy(async_ops_handle, dst_mmap_handle, dst_addr, src_mmap_handle,
						    src_addr, length, flags);
}

/* Non-blocking: the completion arrives when the event's value is > value (or != value). */
void doca_dpa_dev_sync_event_post_wait_gt(doca_dpa_dev_async_ops_t async_ops_handle,
					  doca_dpa_dev_sync_event_t wait_se_handle, uint64_t value)
{
	softdoca_dpa_dev_host->async_wait(async_ops_handle, wait_se_handle, value, 0);
}

void doca_dpa_dev_sync_event_post_wait_ne(doca_dpa_dev_async_ops_t async_ops_handle,
					  doca_dpa_dev_sync_event_t wait_se_handle, uint64_t value)
{
	softdoca_dpa_dev_host->async_wait(async_ops_handle, wait_se_handle, value, 1);
}

/*
 * Buffers (doca_buf_arr with a DPA target): a buf is a struct doca_dpa_dev_buf in DPA memory
 * (address, length, mmap handle); the calls are those of its mmap handle, checked as they are.
 */
doca_dpa_dev_uintptr_t doca_dpa_dev_buf_get_external_ptr(doca_dpa_dev_buf_t buf)
{
	return softdoca_dpa_dev_host->mmap_external_ptr(doca_dpa_dev_buf_get_mmap(buf), doca_dpa_dev_buf_get_addr(buf));
}

/* Copies the source buf's length. */
void doca_dpa_dev_post_buf_memcpy(doca_dpa_dev_async_ops_t async_ops_handle, doca_dpa_dev_buf_t dst_buf_handle,
				  doca_dpa_dev_buf_t src_buf_handle, uint32_t flags)
{
	doca_dpa_dev_post_memcpy(async_ops_handle, doca_dpa_dev_buf_get_mmap(dst_buf_handle),
				 doca_dpa_dev_buf_get_addr(dst_buf_handle), doca_dpa_dev_buf_get_mmap(src_buf_handle),
				 doca_dpa_dev_buf_get_addr(src_buf_handle), doca_dpa_dev_buf_get_len(src_buf_handle),
				 flags);
}

/* The EUs run in the host process: the external pointer is the host address itself. */
doca_dpa_dev_uintptr_t doca_dpa_dev_mmap_get_external_ptr(doca_dpa_dev_mmap_t mmap_handle, uint64_t addr)
{
	return softdoca_dpa_dev_host->mmap_external_ptr(mmap_handle, addr);
}

/* ---- completion contexts: the host keeps the queue and checks every handle and element ---- */

int doca_dpa_dev_get_completion(doca_dpa_dev_completion_t dpa_comp_handle,
				doca_dpa_dev_completion_element_t *comp_element)
{
	return softdoca_dpa_dev_host->completion_get(dpa_comp_handle, comp_element);
}

doca_dpa_dev_completion_type_t doca_dpa_dev_get_completion_type(doca_dpa_dev_completion_element_t comp_element)
{
	return (doca_dpa_dev_completion_type_t)softdoca_dpa_dev_host->completion_field(comp_element,
										       SOFTDOCA_DPA_FIELD_TYPE);
}

uint32_t doca_dpa_dev_get_completion_user_data(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_USER_DATA);
}

uint32_t doca_dpa_dev_get_completion_immediate(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_IMM);
}

void doca_dpa_dev_completion_ack(doca_dpa_dev_completion_t dpa_comp_handle, uint64_t num_comp)
{
	softdoca_dpa_dev_host->completion_ack(dpa_comp_handle, num_comp);
}

void doca_dpa_dev_completion_request_notification(doca_dpa_dev_completion_t dpa_comp_handle)
{
	softdoca_dpa_dev_host->completion_request_notification(dpa_comp_handle);
}

uint32_t doca_dpa_dev_completion_element_get_qpn(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_QPN);
}

uint32_t doca_dpa_dev_completion_element_get_wqe_counter(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_WR_INDEX);
}

uint32_t doca_dpa_dev_completion_element_get_received_bytes(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_BYTES);
}

uint32_t doca_dpa_dev_completion_element_get_error_syndrome(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_SYNDROME);
}

/* The soft NIC has no vendor-specific syndrome: 0 (the element is still checked). */
uint32_t doca_dpa_dev_completion_element_get_vendor_error_syndrome(doca_dpa_dev_completion_element_t comp_element)
{
	softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_TYPE);
	return 0;
}

/* Receives of a DPA datapath do not come from a shared receive queue: 0. */
uint32_t doca_dpa_dev_completion_element_get_srqn(doca_dpa_dev_completion_element_t comp_element)
{
	softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_TYPE);
	return 0;
}

/* When the element was queued: CLOCK_MONOTONIC nanoseconds (the clock of __dpa_thread_cycles). */
uint64_t doca_dpa_dev_completion_element_get_timestamp(doca_dpa_dev_completion_element_t comp_element)
{
	return softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_TIMESTAMP);
}
