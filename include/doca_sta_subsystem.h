/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_sta_subsystem.h, written from the DOCA STA interface facts (3.0 plus the newer additions):
 * NVMe-oF subsystems and their namespaces. */
#ifndef SOFTDOCA_DOCA_STA_SUBSYSTEM_H
#define SOFTDOCA_DOCA_STA_SUBSYSTEM_H

#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_sta_handle.h"
#include "doca_sta_task.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_sta;
struct doca_dev;
DOCA_EXPERIMENTAL doca_error_t doca_sta_subsystem_create(struct doca_sta *sta, const char *nqn, struct doca_sta_subs_handle **subs_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_subsystem_add_dev(struct doca_sta_subs_handle *subs_handle, const struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_sta_subsystem_task_rm_ns_set_conf(struct doca_sta *sta, doca_sta_task_completion_cb_t task_completion_cb, doca_sta_task_completion_cb_t task_error_cb);
DOCA_EXPERIMENTAL doca_error_t doca_sta_subsystem_destroy(struct doca_sta_subs_handle *subs_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_subsystem_add_ns(struct doca_sta_subs_handle *subs_handle, uint32_t fe_ns_id, uint32_t ns_block_size, uint32_t be_ns_id, struct doca_sta_be_handle *be_handle, struct doca_sta_ns_handle **ns_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_subsystem_rm_ns(struct doca_sta_subs_handle *subs_handle, struct doca_sta_ns_handle *ns_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_subsystem_task_rm_ns_alloc_init(struct doca_sta_subs_handle *subs_handle, struct doca_sta_ns_handle *ns_handle, union doca_data user_data, struct doca_sta_producer_task_send **task);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_STA_SUBSYSTEM_H */
