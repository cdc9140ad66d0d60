/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch fast path: producers and consumers. Not implemented yet: every call fails with
 * DOCA_ERROR_NOT_SUPPORTED and one log line (docs/compatibility.md lists them).
 */
#include "comch_priv.h"
#include "common/priv/sdk_log.h"

SDK_LOG_REGISTER(COMCH_FASTPATH);

static doca_error_t fp_unsupported(const char *call)
{
	SDK_LOG_ERR("%s: the Comch fast path (producer/consumer) is not implemented in softdoca yet "
		    "(docs/compatibility.md); use Comch send tasks on the connection instead", call);
	return DOCA_ERROR_NOT_SUPPORTED;
}

bool comch_fp_handle_ctrl(struct doca_comch_connection *conn, const union comch_wire_msg *m, const int *fds, int nfds)
{
	(void)conn;
	(void)m;
	comch_conn_close_fds(fds, nfds);
	return false;
}

bool comch_fp_progress(struct comch_ep *ep)
{
	(void)ep;
	return false;
}

void comch_fp_conn_gone(struct doca_comch_connection *conn)
{
	(void)conn;
}

bool comch_fp_conn_busy(const struct doca_comch_connection *conn)
{
	(void)conn;
	return false;
}

doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection, struct doca_comch_producer **producer)
{
	(void)comch_connection;
	(void)producer;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer)
{
	(void)producer;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id)
{
	(void)producer;
	(void)id;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks)
{
	(void)devinfo;
	(void)max_num_tasks;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size)
{
	(void)devinfo;
	(void)max_buf_size;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_buf_list_len)
{
	(void)devinfo;
	(void)max_buf_list_len;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo, uint32_t *max_producers)
{
	(void)devinfo;
	(void)max_producers;
	return fp_unsupported(__func__);
}

struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer)
{
	(void)producer;
	(void)fp_unsupported(__func__);
	return NULL;
}

doca_error_t doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer, uint32_t dev_num_send)
{
	(void)producer;
	(void)dev_num_send;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer, struct doca_dpa_completion *dpa_comp)
{
	(void)producer;
	(void)dpa_comp;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer, doca_dpa_dev_comch_producer_t *dpa_producer)
{
	(void)producer;
	(void)dpa_producer;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer, doca_comch_producer_task_send_completion_cb_t task_completion_cb, doca_comch_producer_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks)
{
	(void)producer;
	(void)task_completion_cb;
	(void)task_error_cb;
	(void)num_send_tasks;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer, const struct doca_buf *buf, uint8_t *imm_data, uint32_t imm_data_len, uint32_t consumer_id, struct doca_comch_producer_task_send **task)
{
	(void)producer;
	(void)buf;
	(void)imm_data;
	(void)imm_data_len;
	(void)consumer_id;
	(void)task;
	return fp_unsupported(__func__);
}

const struct doca_buf *doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return NULL;
}

void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task, const struct doca_buf *buf)
{
	(void)task;
	(void)buf;
	(void)fp_unsupported(__func__);
}

uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return 0;
}

void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task, const uint32_t consumer_id)
{
	(void)task;
	(void)consumer_id;
	(void)fp_unsupported(__func__);
}

uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return NULL;
}

uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return 0;
}

void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task, uint8_t *imm_data, uint32_t imm_data_len)
{
	(void)task;
	(void)imm_data;
	(void)imm_data_len;
	(void)fp_unsupported(__func__);
}

struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return NULL;
}

doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection, struct doca_mmap *buf_mmap, struct doca_comch_consumer **consumer)
{
	(void)comch_connection;
	(void)buf_mmap;
	(void)consumer;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer)
{
	(void)consumer;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id)
{
	(void)consumer;
	(void)id;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks)
{
	(void)devinfo;
	(void)max_num_tasks;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size)
{
	(void)devinfo;
	(void)max_buf_size;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_buf_list_len)
{
	(void)devinfo;
	(void)max_buf_list_len;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo, uint32_t *max_consumers)
{
	(void)devinfo;
	(void)max_consumers;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo, uint32_t *max_imm_data_len)
{
	(void)devinfo;
	(void)max_imm_data_len;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer, uint32_t *imm_data_len)
{
	(void)consumer;
	(void)imm_data_len;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len)
{
	(void)consumer;
	(void)imm_data_len;
	return fp_unsupported(__func__);
}

struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer)
{
	(void)consumer;
	(void)fp_unsupported(__func__);
	return NULL;
}

doca_error_t doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp)
{
	(void)consumer_comp;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp, struct doca_dpa_thread *dpa_thread)
{
	(void)consumer_comp;
	(void)dpa_thread;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp)
{
	(void)consumer_comp;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp)
{
	(void)consumer_comp;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp)
{
	(void)consumer_comp;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp, doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle)
{
	(void)consumer_comp;
	(void)consumer_comp_handle;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_set_max_num_consumers(struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_consumers)
{
	(void)consumer_comp;
	(void)max_num_consumers;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_get_max_num_consumers(const struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers)
{
	(void)consumer_comp;
	(void)max_num_consumers;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_set_max_num_recv(struct doca_comch_consumer_completion *consumer_comp, uint32_t max_num_recv)
{
	(void)consumer_comp;
	(void)max_num_recv;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_get_max_num_recv(const struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_recv)
{
	(void)consumer_comp;
	(void)max_num_recv;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_set_imm_data_len(struct doca_comch_consumer_completion *consumer_comp, uint32_t imm_data_len)
{
	(void)consumer_comp;
	(void)imm_data_len;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_completion_get_imm_data_len(const struct doca_comch_consumer_completion *consumer_comp, uint32_t *imm_data_len)
{
	(void)consumer_comp;
	(void)imm_data_len;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer, uint32_t dev_num_recv)
{
	(void)consumer;
	(void)dev_num_recv;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer, struct doca_comch_consumer_completion *consumer_comp, uint32_t user_data)
{
	(void)consumer;
	(void)consumer_comp;
	(void)user_data;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer, doca_dpa_dev_comch_consumer_t *dpa_consumer)
{
	(void)consumer;
	(void)dpa_consumer;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_task_post_recv_set_conf(struct doca_comch_consumer *consumer, doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb, doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb, uint32_t num_post_recv_tasks)
{
	(void)consumer;
	(void)task_completion_cb;
	(void)task_error_cb;
	(void)num_post_recv_tasks;
	return fp_unsupported(__func__);
}

doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer, struct doca_buf *buf, struct doca_comch_consumer_task_post_recv **task)
{
	(void)consumer;
	(void)buf;
	(void)task;
	return fp_unsupported(__func__);
}

struct doca_buf *doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return NULL;
}

void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task, struct doca_buf *buf)
{
	(void)task;
	(void)buf;
	(void)fp_unsupported(__func__);
}

uint32_t doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return 0;
}

const uint8_t *doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return NULL;
}

uint32_t doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return 0;
}

struct doca_task *doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task)
{
	(void)task;
	(void)fp_unsupported(__func__);
	return NULL;
}
