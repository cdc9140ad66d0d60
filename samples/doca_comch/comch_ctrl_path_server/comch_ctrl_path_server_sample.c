/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch control path, server side (DPU): wait for a client, answer its message with our text,
 * then stop once the answer went out.
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

DOCA_LOG_REGISTER(COMCH_CTRL_PATH_SERVER);

struct comch_ctrl_path_server_objects {
	struct doca_dev *hw_dev;	  /* the DPU-side device */
	struct doca_dev_rep *rep_dev;	  /* representor of the host function we serve */
	struct doca_pe *pe;
	struct doca_comch_server *server;
	const char *text;		  /* our answer */
	uint32_t text_len;
	uint32_t num_connected_clients;
	doca_error_t result;		  /* updated by the callbacks */
	bool finish;			  /* the server reached IDLE */
};

static void send_task_completion_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct comch_ctrl_path_server_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->result = DOCA_SUCCESS;
	DOCA_LOG_INFO("Task sent successfully");
	doca_task_free(doca_comch_task_send_as_task(task));
	(void)doca_ctx_stop(doca_comch_server_as_ctx(objs->server));
}

static void send_task_completion_err_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
					      union doca_data ctx_user_data)
{
	struct comch_ctrl_path_server_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->result = doca_task_get_status(doca_comch_task_send_as_task(task));
	DOCA_LOG_ERR("Message failed to send with error = %s", doca_error_get_name(objs->result));
	doca_task_free(doca_comch_task_send_as_task(task));
	(void)doca_ctx_stop(doca_comch_server_as_ctx(objs->server));
}

/* Answer the client on the connection its message came from. */
static doca_error_t server_send_pong(struct comch_ctrl_path_server_objects *objs,
				     struct doca_comch_connection *connection)
{
	struct doca_comch_task_send *task;
	doca_error_t result;

	result = doca_comch_server_task_send_alloc_init(objs->server, connection, objs->text, objs->text_len, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate task in server with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_task_submit(doca_comch_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit send task with error = %s", doca_error_get_name(result));
		doca_task_free(doca_comch_task_send_as_task(task));
	}
	return result;
}

static void message_recv_callback(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer, uint32_t msg_len,
				  struct doca_comch_connection *comch_connection)
{
	struct doca_comch_server *server = doca_comch_server_get_server_ctx(comch_connection);
	struct comch_ctrl_path_server_objects *objs;
	union doca_data user_data;
	doca_error_t result;

	(void)event;
	DOCA_LOG_INFO("Message received: '%.*s'", (int)msg_len, recv_buffer);

	result = doca_ctx_get_user_data(doca_comch_server_as_ctx(server), &user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get user data from ctx with error = %s", doca_error_get_name(result));
		return;
	}
	objs = user_data.ptr;
	objs->result = server_send_pong(objs, comch_connection);
	if (objs->result != DOCA_SUCCESS)
		(void)doca_ctx_stop(doca_comch_server_as_ctx(objs->server));
}

static void server_connection_event_callback(struct doca_comch_event_connection_status_changed *event,
					     struct doca_comch_connection *comch_connection, uint8_t change_success)
{
	struct doca_comch_server *server = doca_comch_server_get_server_ctx(comch_connection);
	union doca_data user_data;

	(void)event;
	if (change_success == 0) {
		DOCA_LOG_ERR("Failed connection received");
		return;
	}
	if (doca_ctx_get_user_data(doca_comch_server_as_ctx(server), &user_data) != DOCA_SUCCESS)
		return;
	((struct comch_ctrl_path_server_objects *)user_data.ptr)->num_connected_clients++;
	DOCA_LOG_INFO("New client connected to server");
}

static void server_disconnection_event_callback(struct doca_comch_event_connection_status_changed *event,
						struct doca_comch_connection *comch_connection, uint8_t change_success)
{
	struct doca_comch_server *server = doca_comch_server_get_server_ctx(comch_connection);
	union doca_data user_data;

	(void)event;
	if (change_success == 0) {
		DOCA_LOG_ERR("Failed disconnection received");
		return;
	}
	if (doca_ctx_get_user_data(doca_comch_server_as_ctx(server), &user_data) != DOCA_SUCCESS)
		return;
	((struct comch_ctrl_path_server_objects *)user_data.ptr)->num_connected_clients--;
	DOCA_LOG_INFO("A client was disconnected from server");
}

static void server_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
					  enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct comch_ctrl_path_server_objects *objs = user_data.ptr;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("CC server context has been stopped");
		objs->finish = true;
		break;
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_ERR("CC server context entered into starting state. Unexpected transition");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("CC server context is running. Waiting for clients to connect");
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("CC server context entered into stopping state. Terminating connections with clients");
		break;
	default:
		break;
	}
}

static void clean_server_objects(struct comch_ctrl_path_server_objects *objs)
{
	doca_error_t result;

	clean_comch_ctrl_path_server(objs->server, objs->pe);
	objs->server = NULL;
	objs->pe = NULL;
	if (objs->rep_dev != NULL) {
		result = doca_dev_rep_close(objs->rep_dev);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to close rep device properly with error = %s", doca_error_get_name(result));
		objs->rep_dev = NULL;
	}
	if (objs->hw_dev != NULL) {
		result = doca_dev_close(objs->hw_dev);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to close hw device properly with error = %s", doca_error_get_name(result));
		objs->hw_dev = NULL;
	}
}

doca_error_t start_comch_ctrl_path_server_sample(const char *server_name, const char *dev_pci_addr,
						 const char *rep_pci_addr, const char *text, uint32_t text_len)
{
	struct comch_ctrl_path_server_objects objs = {.text = text, .text_len = text_len, .result = DOCA_SUCCESS};
	struct comch_ctrl_path_server_cb_config cfg = {
		.send_task_comp_cb = send_task_completion_callback,
		.send_task_comp_err_cb = send_task_completion_err_callback,
		.msg_recv_cb = message_recv_callback,
		.server_connection_event_cb = server_connection_event_callback,
		.server_disconnection_event_cb = server_disconnection_event_callback,
		.data_path_mode = false,
		.ctx_user_data = &objs,
		.ctx_state_changed_cb = server_state_changed_callback,
	};
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	doca_error_t result;

	result = open_doca_device_with_pci(dev_pci_addr, NULL, &objs.hw_dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open Comm Channel DOCA device based on PCI address");
		return result;
	}
	result = open_doca_device_rep_with_pci(objs.hw_dev, DOCA_DEVINFO_REP_FILTER_NET, rep_pci_addr, &objs.rep_dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open Comm Channel DOCA device representor based on PCI address");
		clean_server_objects(&objs);
		return result;
	}
	result = init_comch_ctrl_path_server(server_name, objs.hw_dev, objs.rep_dev, &cfg, &objs.server, &objs.pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init cc server with error = %s", doca_error_get_name(result));
		clean_server_objects(&objs);
		return result;
	}

	while (!objs.finish) {
		if (doca_pe_progress(objs.pe) == 0)
			nanosleep(&ts, NULL);
	}

	clean_server_objects(&objs);
	return objs.result;
}
