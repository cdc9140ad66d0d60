/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_sta_task.h, written from the DOCA STA interface facts (3.0 plus the newer additions):
 * the STA task type shared by every STA task, and its completion callback. */
#ifndef SOFTDOCA_DOCA_STA_TASK_H
#define SOFTDOCA_DOCA_STA_TASK_H

#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_task;
struct doca_sta;
struct doca_sta_producer_task_send;
typedef void (*doca_sta_task_completion_cb_t)(struct doca_sta_producer_task_send *task, union doca_data task_user_data);
DOCA_EXPERIMENTAL struct doca_task *doca_sta_producer_send_task_as_task(struct doca_sta_producer_task_send *task);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_STA_TASK_H */
