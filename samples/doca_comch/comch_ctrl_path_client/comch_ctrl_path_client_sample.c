/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch control path, client side (host): connect to the server, send our text, print the
 * answer, then stop.
 */
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "comch_ctrl_path_common.h"
#include "common.h"

DOCA_LOG_REGISTER(COMCH_CTRL_PATH_CLIENT);

struct comch_ctrl_path_client_objects {
	struct doca_dev *hw_dev;	  /* the host-side device */
	struct doca_pe *pe;
	struct doca_comch_client *client;
	const char *text;		  /* what we send */
	uint32_t text_len;
	doca_error_t result;		  /* updated by the callbacks */
	bool finish;			  /* the client reached IDLE */
};

static void send_task_completion_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct comch_ctrl_path_client_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->result = DOCA_SUCCESS;
	DOCA_LOG_INFO("Task sent successfully");
	doca_task_free(doca_comch_task_send_as_task(task));
}

static void send_task_completion_err_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
					      union doca_data ctx_user_data)
{
	struct comch_ctrl_path_client_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->result = doca_task_get_status(doca_comch_task_send_as_task(task));
	DOCA_LOG_ERR("Message failed to send with error = %s", doca_error_get_name(objs->result));
	doca_task_free(doca_comch_task_send_as_task(task));
	(void)doca_ctx_stop(doca_comch_client_as_ctx(objs->client));
}

static void message_recv_callback(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer, uint32_t msg_len,
				  struct doca_comch_connection *comch_connection)
{
	union doca_data user_data = doca_comch_connection_get_user_data(comch_connection);
	struct comch_ctrl_path_client_objects *objs = user_data.ptr;

	(void)event;
	DOCA_LOG_INFO("Message received: '%.*s'", (int)msg_len, recv_buffer);
	(void)doca_ctx_stop(doca_comch_client_as_ctx(objs->client));
}

/* Send our text on the client's connection; the answer arrives in message_recv_callback. */
static doca_error_t client_send_ping_pong(struct comch_ctrl_path_client_objects *objs)
{
	union doca_data user_data = {.ptr = objs};
	struct doca_comch_connection *connection;
	struct doca_comch_task_send *task;
	doca_error_t result;

	result = doca_comch_client_get_connection(objs->client, &connection);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get connection from client with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_connection_set_user_data(connection, user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set user_data for connection with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_client_task_send_alloc_init(objs->client, connection, objs->text, objs->text_len, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate task in client with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_task_submit(doca_comch_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed submitting send task with error = %s", doca_error_get_name(result));
		doca_task_free(doca_comch_task_send_as_task(task));
	}
	return result;
}

static void client_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
					  enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct comch_ctrl_path_client_objects *objs = user_data.ptr;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("CC client context has been stopped");
		objs->finish = true;
		break;
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("CC client context entered into starting state. Waiting for connection establishment");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("CC client context is running. Sending message");
		objs->result = client_send_ping_pong(objs);
		if (objs->result != DOCA_SUCCESS)
			(void)doca_ctx_stop(doca_comch_client_as_ctx(objs->client));
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("CC client context entered into stopping state. Waiting for connection termination");
		break;
	default:
		break;
	}
}

doca_error_t start_comch_ctrl_path_client_sample(const char *server_name, const char *dev_pci_addr, const char *text,
						 uint32_t text_len)
{
	struct comch_ctrl_path_client_objects objs = {.text = text, .text_len = text_len, .result = DOCA_SUCCESS};
	struct comch_ctrl_path_client_cb_config cfg = {
		.send_task_comp_cb = send_task_completion_callback,
		.send_task_comp_err_cb = send_task_completion_err_callback,
		.msg_recv_cb = message_recv_callback,
		.data_path_mode = false,
		.ctx_user_data = &objs,
		.ctx_state_changed_cb = client_state_changed_callback,
	};
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	doca_error_t result;

	result = open_doca_device_with_pci(dev_pci_addr, NULL, &objs.hw_dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open Comm Channel DOCA device based on PCI address");
		return result;
	}
	result = init_comch_ctrl_path_client(server_name, objs.hw_dev, &cfg, &objs.client, &objs.pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init cc client with error = %s", doca_error_get_name(result));
		(void)doca_dev_close(objs.hw_dev);
		return result;
	}

	while (!objs.finish) {
		if (doca_pe_progress(objs.pe) == 0)
			nanosleep(&ts, NULL);
	}

	clean_comch_ctrl_path_client(objs.client, objs.pe);
	result = doca_dev_close(objs.hw_dev);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to close hw device properly with error = %s", doca_error_get_name(result));
	return objs.result;
}
