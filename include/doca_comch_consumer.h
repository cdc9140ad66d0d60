/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_comch_consumer.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_COMCH_CONSUMER_H
#define SOFTDOCA_DOCA_COMCH_CONSUMER_H

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
struct doca_comch_consumer;
struct doca_comch_gpu_consumer;
struct doca_comch_consumer_completion;
struct doca_comch_consumer_task_post_recv;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_dpa_thread;
struct doca_mmap;
struct doca_task;

typedef void (*doca_comch_consumer_task_post_recv_completion_cb_t)(struct doca_comch_consumer_task_post_recv *task, union doca_data task_user_data, union doca_data ctx_user_data);
typedef uint64_t doca_dpa_dev_comch_consumer_completion_t;
typedef uint64_t doca_dpa_dev_comch_consumer_t;

/* functions */
DOCA_STABLE doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection, struct doca_mmap *buf_mmap, struct doca_comch_consumer **consumer);
DOCA_STABLE doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer);
DOCA_STABLE doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo);
DOCA_STABLE doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id);
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks);
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size);
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_buf_list_len);
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo, uint32_t *max_consumers);
DOCA_STABLE doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo, uint32_t *max_imm_data_len);
DOCA_STABLE doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer, uint32_t *imm_data_len);
DOCA_STABLE doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len);
DOCA_STABLE struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp, struct doca_dpa_thread *dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp, doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_consumers(struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_consumers);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_consumers(const struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_max_num_recv(struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_recv);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_max_num_recv(const struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_recv);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_set_imm_data_len(struct doca_comch_consumer_completion *consumer_comp, uint32_t imm_data_len);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_completion_get_imm_data_len(const struct doca_comch_consumer_completion *consumer_comp, uint32_t *imm_data_len);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer, uint32_t dev_num_recv);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer, struct doca_comch_consumer_completion *consumer_comp, uint32_t user_data);
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer, doca_dpa_dev_comch_consumer_t *dpa_consumer);
/* the consumer's handle for a CUDA kernel (DOCA GPUNetIO, doca_gpunetio_dev_comch.cuh); DOCA 3.3,
 * inferred from NVIDIA's dpu_gpu_remote_offload; softdoca: DOCA_ERROR_NOT_SUPPORTED */
DOCA_EXPERIMENTAL doca_error_t doca_comch_consumer_get_gpu_handle(struct doca_comch_consumer *consumer, struct doca_comch_gpu_consumer **gpu_consumer);
DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_set_conf(struct doca_comch_consumer *consumer, doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb, doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb, uint32_t num_post_recv_tasks);
DOCA_STABLE doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer, struct doca_buf *buf, struct doca_comch_consumer_task_post_recv **task);
DOCA_STABLE struct doca_buf *doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task);
DOCA_STABLE void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task, struct doca_buf *buf);
DOCA_STABLE uint32_t doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task);
DOCA_STABLE const uint8_t *doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task);
DOCA_STABLE uint32_t doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task);
DOCA_STABLE struct doca_task *doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_COMCH_CONSUMER_H */
