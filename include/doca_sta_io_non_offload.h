/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_sta_io_non_offload.h, written from the DOCA STA interface facts (3.0 plus the newer additions):
 * commands the offload does not execute: the callback and its three data tasks. */
#ifndef SOFTDOCA_DOCA_STA_IO_NON_OFFLOAD_H
#define SOFTDOCA_DOCA_STA_IO_NON_OFFLOAD_H

#include <stdint.h>
#include <stdbool.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"
#include "doca_sta_handle.h"
#include "doca_sta_task.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOCA_STA_NVMEF_COMPLETION_SIZE (16)
typedef uint8_t doca_sta_nvmef_completion_t[DOCA_STA_NVMEF_COMPLETION_SIZE];
struct doca_sta_io;
typedef void (*doca_sta_io_non_offload_cb_t)(struct doca_sta_qp_handle *qp_handle,
					     union doca_data user_data,
					     const uint8_t *nvme_cmd,
					     uint8_t *payload,
					     uint32_t payload_len,
					     bool payload_valid,
					     union doca_data non_offload_user_data);
DOCA_EXPERIMENTAL doca_error_t doca_sta_io_non_offload_register_cb(struct doca_sta_io *sta_io, doca_sta_io_non_offload_cb_t non_offload_cb, union doca_data user_data);
DOCA_EXPERIMENTAL doca_error_t doca_sta_io_task_non_offload_set_rdma_write_send_conf(struct doca_sta_io *sta_io, doca_sta_task_completion_cb_t task_completion_cb, doca_sta_task_completion_cb_t task_error_cb);
DOCA_EXPERIMENTAL doca_error_t doca_sta_io_task_non_offload_set_rdma_read_conf(struct doca_sta_io *sta_io, doca_sta_task_completion_cb_t task_completion_cb, doca_sta_task_completion_cb_t task_error_cb);
DOCA_EXPERIMENTAL doca_error_t doca_sta_io_task_non_offload_rdma_write_send_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data, struct doca_sta_qp_handle *qp_handle, doca_sta_nvmef_completion_t completion, union doca_data non_offload_user_data, struct doca_sta_producer_task_send **task);
DOCA_EXPERIMENTAL doca_error_t doca_sta_io_task_non_offload_rdma_send_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data, struct doca_sta_qp_handle *qp_handle, doca_sta_nvmef_completion_t completion, union doca_data non_offload_user_data, struct doca_sta_producer_task_send **task);
DOCA_EXPERIMENTAL doca_error_t doca_sta_io_task_non_offload_rdma_read_alloc_init(struct doca_sta_io *sta_io, union doca_data user_data, struct doca_sta_qp_handle *qp_handle, union doca_data non_offload_user_data, struct doca_sta_producer_task_send **task);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_STA_IO_NON_OFFLOAD_H */
