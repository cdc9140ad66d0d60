/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_pe.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_PE_H
#define SOFTDOCA_DOCA_PE_H

#include <stdint.h>
#include <stdlib.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_ctx;
struct doca_devinfo;
struct doca_pe;
struct doca_task;
struct doca_task_batch;

enum doca_task_batch_max_tasks_number {
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16 = 0,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32 = 1,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64 = 2,
	DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128 = 3,
};

enum doca_event_batch_events_number {
	DOCA_EVENT_BATCH_EVENTS_NUMBER_1 = 0,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_2 = 1,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_4 = 2,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_8 = 3,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_16 = 4,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_32 = 5,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_64 = 6,
	DOCA_EVENT_BATCH_EVENTS_NUMBER_128 = 7,
};

enum doca_task_submit_flag {
	DOCA_TASK_SUBMIT_FLAG_NONE = 0,
	DOCA_TASK_SUBMIT_FLAG_FLUSH = 1,
	DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS = 2,
};

enum doca_pe_event_mode {
	DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE = 0,
	DOCA_PE_EVENT_MODE_PROGRESS_ALL = 1,
};

typedef void (*doca_task_completion_cb_t)(struct doca_task *task, union doca_data task_user_data, union doca_data ctx_user_data);

/* functions */
DOCA_STABLE doca_error_t doca_pe_create(struct doca_pe **pe);
DOCA_STABLE doca_error_t doca_pe_destroy(struct doca_pe *pe);
DOCA_STABLE uint8_t doca_pe_progress(struct doca_pe *pe);
#ifdef __linux__
DOCA_STABLE doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe, doca_notification_handle_t *handle);
#endif
#ifdef _WIN32
DOCA_STABLE doca_error_t doca_pe_set_notification_handle(struct doca_pe *pe, doca_notification_handle_t handle, union doca_data completion_key);
#endif
DOCA_STABLE doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle);
DOCA_STABLE doca_error_t doca_pe_request_notification(struct doca_pe *pe);
DOCA_STABLE doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe, size_t *num_inflight_tasks);
DOCA_STABLE doca_error_t doca_task_submit(struct doca_task *task);
DOCA_EXPERIMENTAL doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags);
DOCA_EXPERIMENTAL doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch);
DOCA_STABLE doca_error_t doca_task_try_submit(struct doca_task *task);
DOCA_EXPERIMENTAL doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch);
DOCA_STABLE void doca_task_free(struct doca_task *task);
DOCA_EXPERIMENTAL void doca_task_batch_free(struct doca_task_batch *task_batch);
DOCA_STABLE doca_error_t doca_task_get_status(const struct doca_task *task);
DOCA_EXPERIMENTAL doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch);
DOCA_STABLE void doca_task_set_user_data(struct doca_task *task, union doca_data user_data);
DOCA_EXPERIMENTAL void doca_task_batch_set_user_data(struct doca_task_batch *task_batch, union doca_data user_data);
DOCA_STABLE union doca_data doca_task_get_user_data(const struct doca_task *task);
DOCA_EXPERIMENTAL union doca_data doca_task_batch_get_user_data(const struct doca_task_batch *task_batch);
DOCA_STABLE struct doca_ctx *doca_task_get_ctx(const struct doca_task *task);
DOCA_EXPERIMENTAL struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch);
DOCA_EXPERIMENTAL union doca_data doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch);
DOCA_EXPERIMENTAL uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch);
DOCA_STABLE doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx);
DOCA_EXPERIMENTAL doca_error_t doca_pe_set_event_mode(struct doca_pe *pe, enum doca_pe_event_mode event_mode);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_PE_H */
