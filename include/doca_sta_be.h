/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_sta_be.h, written from the DOCA STA interface facts (3.0 plus the newer additions):
 * back-ends (one NVMe PCIe disk each) and their NVMe queue pairs. */
#ifndef SOFTDOCA_DOCA_STA_BE_H
#define SOFTDOCA_DOCA_STA_BE_H

#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_mmap.h"
#include "doca_sta_handle.h"
#include "doca_sta_task.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_sta;
struct doca_sta_eu_ctr_entry;
DOCA_EXPERIMENTAL doca_error_t doca_sta_be_create(struct doca_sta *sta, struct doca_sta_be_handle **be_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_be_destroy(struct doca_sta_be_handle *be_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_be_add_queue(struct doca_sta_be_handle *be_handle, struct doca_mmap *sq, struct doca_mmap *sq_db_reg, uint16_t sq_db_offset, struct doca_mmap *cq, struct doca_mmap *cq_db_reg, uint16_t cq_db_offset, struct doca_sta_be_q_handle **be_q_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_be_task_destroy_queue_set_conf(struct doca_sta *sta, doca_sta_task_completion_cb_t task_completion_cb, doca_sta_task_completion_cb_t task_error_cb);
DOCA_EXPERIMENTAL doca_error_t doca_sta_be_destroy_queue_task_alloc_init(struct doca_sta_be_q_handle *be_q_handle, union doca_data user_data, struct doca_sta_producer_task_send **task);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_be_queue_mapping_info(const struct doca_sta_be_q_handle *be_q_handle, const struct doca_sta_eu_ctr_entry **entries, uint16_t *num_entries);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_STA_BE_H */
