/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_comch_producer.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_COMCH_PRODUCER_H
#define SOFTDOCA_DOCA_COMCH_PRODUCER_H

#include <stddef.h>
#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_buf;
struct doca_comch_connection;
struct doca_comch_producer;
struct doca_comch_producer_task_send;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_dpa_completion;
struct doca_dpa_thread;
struct doca_comch_gpu_producer;
struct doca_task;

typedef void (*doca_comch_producer_task_send_completion_cb_t)(struct doca_comch_producer_task_send *task, union doca_data task_user_data, union doca_data ctx_user_data);
typedef uint64_t doca_dpa_dev_comch_producer_t;

/* functions */
DOCA_STABLE doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection, struct doca_comch_producer **producer);
DOCA_STABLE doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer);
DOCA_STABLE doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo);
DOCA_STABLE doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id);
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks);
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size);
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_buf_list_len);
DOCA_STABLE doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo, uint32_t *max_producers);
DOCA_STABLE struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer);
DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer, uint32_t dev_num_send);
DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer, struct doca_dpa_completion *dpa_comp);
DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer, doca_dpa_dev_comch_producer_t *dpa_producer);
/* the producer's handle for a CUDA kernel (DOCA GPUNetIO, doca_gpunetio_dev_comch.cuh); DOCA 3.3,
 * inferred from NVIDIA's dpu_gpu_remote_offload; softdoca: DOCA_ERROR_NOT_SUPPORTED */
DOCA_EXPERIMENTAL doca_error_t doca_comch_producer_get_gpu_handle(struct doca_comch_producer *producer, struct doca_comch_gpu_producer **gpu_producer);
DOCA_STABLE doca_error_t doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer, doca_comch_producer_task_send_completion_cb_t task_completion_cb, doca_comch_producer_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks);
DOCA_STABLE doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer, const struct doca_buf *buf, uint8_t *imm_data, uint32_t imm_data_len, uint32_t consumer_id, struct doca_comch_producer_task_send **task);
DOCA_STABLE const struct doca_buf *doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task);
DOCA_STABLE void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task, const struct doca_buf *buf);
DOCA_STABLE uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task);
DOCA_STABLE void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task, const uint32_t consumer_id);
DOCA_STABLE uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task);
DOCA_STABLE uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task);
DOCA_STABLE void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task, uint8_t *imm_data, uint32_t imm_data_len);
DOCA_STABLE struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_COMCH_PRODUCER_H */
