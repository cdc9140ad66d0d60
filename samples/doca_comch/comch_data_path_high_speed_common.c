/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "comch_ctrl_path_common.h"
#include "comch_data_path_high_speed_common.h"

DOCA_LOG_REGISTER(COMCH_DATA_PATH_HIGH_SPEED_COMMON);

static void clean_local_mem_bufs(struct local_mem_bufs *local)
{
	if (local->mmap != NULL) {
		doca_error_t result = doca_mmap_destroy(local->mmap);

		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy mmap: %s", doca_error_get_descr(result));
		local->mmap = NULL;
	}
	if (local->buf_inv != NULL) {
		doca_error_t result = doca_buf_inventory_destroy(local->buf_inv);

		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy inventory: %s", doca_error_get_descr(result));
		local->buf_inv = NULL;
	}
	if (local->need_alloc_mem)
		free(local->mem);
	local->mem = NULL;
}

/* An inventory of max_bufs and a started mmap over [mem, mem + buf_len * max_bufs) that the peer may write. */
static doca_error_t init_local_mem_bufs(struct local_mem_bufs *local, struct doca_dev *dev, size_t buf_len,
					size_t max_bufs)
{
	doca_error_t result;

	if (local->need_alloc_mem) {
		local->mem = calloc(max_bufs, buf_len);
		if (local->mem == NULL) {
			DOCA_LOG_ERR("Unable to allocate %zu bytes for the mmap", max_bufs * buf_len);
			return DOCA_ERROR_NO_MEMORY;
		}
	}
	result = doca_buf_inventory_create(max_bufs, &local->buf_inv);
	if (result == DOCA_SUCCESS)
		result = doca_buf_inventory_start(local->buf_inv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to create inventory: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_mmap_create(&local->mmap);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_add_dev(local->mmap, dev);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_set_permissions(local->mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_set_memrange(local->mmap, local->mem, buf_len * max_bufs);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_start(local->mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set up the mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	return DOCA_SUCCESS;
fail:
	clean_local_mem_bufs(local);
	return result;
}

/* ---- producer ---- */

static void producer_send_task_completion_callback(struct doca_comch_producer_task_send *task,
						   union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct comch_data_path_objects *data_path = ctx_user_data.ptr;

	(void)task_user_data;
	data_path->producer_result = DOCA_SUCCESS;
	DOCA_LOG_INFO("Producer task sent successfully");
	(void)doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(task), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(task));
	(void)doca_ctx_stop(doca_comch_producer_as_ctx(data_path->producer));
}

static void producer_send_task_completion_err_callback(struct doca_comch_producer_task_send *task,
						       union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct comch_data_path_objects *data_path = ctx_user_data.ptr;

	(void)task_user_data;
	data_path->producer_result = doca_task_get_status(doca_comch_producer_task_send_as_task(task));
	DOCA_LOG_ERR("Producer message failed to send with error = %s", doca_error_get_name(data_path->producer_result));
	(void)doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(task), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(task));
	(void)doca_ctx_stop(doca_comch_producer_as_ctx(data_path->producer));
}

static doca_error_t producer_send_msg(struct comch_data_path_objects *data_path)
{
	struct doca_comch_producer_task_send *task;
	struct doca_buf *buf;
	doca_error_t result;

	result = doca_buf_inventory_buf_get_by_data(data_path->producer_mem.buf_inv, data_path->producer_mem.mmap,
						    (void *)data_path->text,
						    strnlen(data_path->text, CC_DATA_PATH_MAX_MSG_SIZE), &buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get doca buf from producer mmap with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_producer_task_send_alloc_init(data_path->producer, buf, NULL, 0,
							  data_path->remote_consumer_id, &task);
	if (result != DOCA_SUCCESS) {
		(void)doca_buf_dec_refcount(buf, NULL);
		DOCA_LOG_ERR("Failed to allocate task from producer with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_task_submit(doca_comch_producer_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		(void)doca_buf_dec_refcount(buf, NULL);
		doca_task_free(doca_comch_producer_task_send_as_task(task));
		DOCA_LOG_ERR("Failed submitting send task with error = %s", doca_error_get_name(result));
	}
	return result;
}

static void producer_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
					    enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct comch_data_path_objects *data_path = user_data.ptr;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("CC producer context has been stopped");
		data_path->producer_finish = true;
		break;
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("CC producer context entered into starting state");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("CC producer context is running. Posting message to consumer, waiting finish");
		data_path->producer_result = producer_send_msg(data_path);
		if (data_path->producer_result != DOCA_SUCCESS)
			(void)doca_ctx_stop(doca_comch_producer_as_ctx(data_path->producer));
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("CC producer context entered into stopping state");
		break;
	default:
		break;
	}
}

static void destroy_producer(struct comch_data_path_objects *data_path)
{
	doca_error_t result;

	if (data_path->producer != NULL) {
		result = doca_comch_producer_destroy(data_path->producer);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy producer properly with error = %s", doca_error_get_name(result));
		data_path->producer = NULL;
	}
	if (data_path->producer_pe != NULL) {
		result = doca_pe_destroy(data_path->producer_pe);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy pe properly with error = %s", doca_error_get_name(result));
		data_path->producer_pe = NULL;
	}
}

static doca_error_t init_producer(struct comch_data_path_objects *data_path)
{
	union doca_data user_data = {.ptr = data_path};
	struct doca_ctx *ctx;
	doca_error_t result;

	result = doca_pe_create(&data_path->producer_pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed creating pe with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_producer_create(data_path->connection, &data_path->producer);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create producer with error = %s", doca_error_get_name(result));
		goto fail;
	}
	ctx = doca_comch_producer_as_ctx(data_path->producer);
	result = doca_pe_connect_ctx(data_path->producer_pe, ctx);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(ctx, producer_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = doca_comch_producer_task_send_set_conf(data_path->producer,
								producer_send_task_completion_callback,
								producer_send_task_completion_err_callback,
								CC_DATA_PATH_TASK_NUM);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(ctx, user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the producer with error = %s", doca_error_get_name(result));
		goto fail;
	}
	result = doca_ctx_start(ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start producer context with error = %s", doca_error_get_name(result));
		goto fail;
	}
	return DOCA_SUCCESS;
fail:
	destroy_producer(data_path);
	return result;
}

doca_error_t comch_data_path_send_msg(struct comch_data_path_objects *data_path)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	struct local_mem_bufs *pmem = &data_path->producer_mem;
	doca_error_t result;

	/* The peer's consumer is announced through the server's / client's PE */
	while (data_path->remote_consumer_id == 0) {
		if (doca_pe_progress(data_path->pe) == 0)
			nanosleep(&ts, NULL);
	}

	/* The producer sends straight from the text */
	pmem->mem = (void *)data_path->text;
	pmem->need_alloc_mem = false;
	result = init_local_mem_bufs(pmem, data_path->hw_dev, strnlen(data_path->text, CC_DATA_PATH_MAX_MSG_SIZE), 1);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up producer memory with error = %s", doca_error_get_name(result));
		return result;
	}
	result = init_producer(data_path);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init a producer with error = %s", doca_error_get_name(result));
		clean_local_mem_bufs(pmem);
		return result;
	}
	while (!data_path->producer_finish) {
		if (doca_pe_progress(data_path->producer_pe) == 0)
			nanosleep(&ts, NULL);
	}
	destroy_producer(data_path);
	clean_local_mem_bufs(pmem);
	return data_path->producer_result;
}

/* ---- consumer ---- */

static void consumer_recv_task_completion_callback(struct doca_comch_consumer_task_post_recv *task,
						   union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct comch_data_path_objects *data_path = ctx_user_data.ptr;
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(task);
	size_t recv_msg_len = 0;
	void *recv_msg = NULL;

	(void)task_user_data;
	data_path->consumer_result = doca_buf_get_data(buf, &recv_msg);
	if (data_path->consumer_result == DOCA_SUCCESS)
		data_path->consumer_result = doca_buf_get_data_len(buf, &recv_msg_len);
	if (data_path->consumer_result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Message received: '%.*s'", (int)recv_msg_len, (char *)recv_msg);
	else
		DOCA_LOG_ERR("Failed to read the received buffer with error = %s",
			     doca_error_get_name(data_path->consumer_result));
	(void)doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
	(void)doca_ctx_stop(doca_comch_consumer_as_ctx(data_path->consumer));
}

static void consumer_recv_task_completion_err_callback(struct doca_comch_consumer_task_post_recv *task,
						       union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct comch_data_path_objects *data_path = ctx_user_data.ptr;

	(void)task_user_data;
	data_path->consumer_result = doca_task_get_status(doca_comch_consumer_task_post_recv_as_task(task));
	DOCA_LOG_ERR("Consumer failed to recv message with error = %s", doca_error_get_name(data_path->consumer_result));
	(void)doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(task), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
	(void)doca_ctx_stop(doca_comch_consumer_as_ctx(data_path->consumer));
}

static doca_error_t consumer_recv_msg(struct comch_data_path_objects *data_path)
{
	struct doca_comch_consumer_task_post_recv *task;
	struct doca_buf *buf;
	doca_error_t result;

	result = doca_buf_inventory_buf_get_by_addr(data_path->consumer_mem.buf_inv, data_path->consumer_mem.mmap,
						    data_path->consumer_mem.mem, CC_DATA_PATH_MAX_MSG_SIZE, &buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get doca buf from consumer mmap with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_consumer_task_post_recv_alloc_init(data_path->consumer, buf, &task);
	if (result != DOCA_SUCCESS) {
		(void)doca_buf_dec_refcount(buf, NULL);
		DOCA_LOG_ERR("Failed to allocate task for consumer with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_task_submit(doca_comch_consumer_task_post_recv_as_task(task));
	if (result != DOCA_SUCCESS) {
		(void)doca_buf_dec_refcount(buf, NULL);
		doca_task_free(doca_comch_consumer_task_post_recv_as_task(task));
		DOCA_LOG_ERR("Failed submitting recv task with error = %s", doca_error_get_name(result));
	}
	return result;
}

static void consumer_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
					    enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct comch_data_path_objects *data_path = user_data.ptr;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("CC consumer context has been stopped");
		data_path->consumer_finish = true;
		break;
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("CC consumer context entered into starting state. Waiting consumer producer negotiation finish");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("CC consumer context is running. Receiving message from producer, waiting finish");
		data_path->consumer_result = consumer_recv_msg(data_path);
		if (data_path->consumer_result != DOCA_SUCCESS)
			(void)doca_ctx_stop(doca_comch_consumer_as_ctx(data_path->consumer));
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("CC consumer context entered into stopping state");
		break;
	default:
		break;
	}
}

static void destroy_consumer(struct comch_data_path_objects *data_path)
{
	doca_error_t result;

	if (data_path->consumer != NULL) {
		result = doca_comch_consumer_destroy(data_path->consumer);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy consumer properly with error = %s", doca_error_get_name(result));
		data_path->consumer = NULL;
	}
	if (data_path->consumer_pe != NULL) {
		result = doca_pe_destroy(data_path->consumer_pe);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy pe properly with error = %s", doca_error_get_name(result));
		data_path->consumer_pe = NULL;
	}
}

static doca_error_t init_consumer(struct comch_data_path_objects *data_path)
{
	union doca_data user_data = {.ptr = data_path};
	struct doca_ctx *ctx;
	doca_error_t result;

	result = doca_pe_create(&data_path->consumer_pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed creating pe with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_consumer_create(data_path->connection, data_path->consumer_mem.mmap, &data_path->consumer);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create consumer with error = %s", doca_error_get_name(result));
		goto fail;
	}
	ctx = doca_comch_consumer_as_ctx(data_path->consumer);
	result = doca_pe_connect_ctx(data_path->consumer_pe, ctx);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(ctx, consumer_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = doca_comch_consumer_task_post_recv_set_conf(data_path->consumer,
								     consumer_recv_task_completion_callback,
								     consumer_recv_task_completion_err_callback,
								     CC_DATA_PATH_TASK_NUM);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(ctx, user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the consumer with error = %s", doca_error_get_name(result));
		goto fail;
	}
	/* A consumer starts asynchronously: RUNNING once the peer registered it */
	result = doca_ctx_start(ctx);
	if (result != DOCA_ERROR_IN_PROGRESS) {
		DOCA_LOG_ERR("Failed to start consumer context with error = %s", doca_error_get_name(result));
		if (result == DOCA_SUCCESS)
			result = DOCA_ERROR_BAD_STATE;
		goto fail;
	}
	return DOCA_SUCCESS;
fail:
	destroy_consumer(data_path);
	return result;
}

doca_error_t comch_data_path_recv_msg(struct comch_data_path_objects *data_path)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	struct local_mem_bufs *cmem = &data_path->consumer_mem;
	doca_error_t result;

	cmem->need_alloc_mem = true;
	result = init_local_mem_bufs(cmem, data_path->hw_dev, CC_DATA_PATH_MAX_MSG_SIZE, 1);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up consumer memory with error = %s", doca_error_get_name(result));
		return result;
	}
	result = init_consumer(data_path);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init a consumer with error = %s", doca_error_get_name(result));
		clean_local_mem_bufs(cmem);
		return result;
	}
	/* The negotiation needs the server's / client's PE, the message the consumer's */
	while (!data_path->consumer_finish) {
		uint8_t made = doca_pe_progress(data_path->pe);

		made |= doca_pe_progress(data_path->consumer_pe);
		if (!made)
			nanosleep(&ts, NULL);
	}
	destroy_consumer(data_path);
	clean_local_mem_bufs(cmem);
	return data_path->consumer_result;
}
