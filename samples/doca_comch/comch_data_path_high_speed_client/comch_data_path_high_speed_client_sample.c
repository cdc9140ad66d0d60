/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch fast path, client side (host): say "start" on the control path, send our text with a
 * producer to the server's consumer, receive the server's text with a consumer, then say
 * "stop" and wait for the server's answer.
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
#include "comch_data_path_high_speed_common.h"
#include "common.h"

DOCA_LOG_REGISTER(COMCH_DATA_PATH_HIGH_SPEED_CLIENT);

struct comch_data_path_client_objects {
	struct doca_dev *hw_dev;
	struct doca_pe *pe;
	struct doca_comch_client *client;
	struct doca_comch_connection *connection;
	doca_error_t client_result;
	bool client_finish;
	bool data_path_test_started;
	bool data_path_test_stopped;
	struct comch_data_path_objects *data_path;
};

static struct comch_data_path_client_objects *objects_of(struct doca_comch_connection *connection)
{
	union doca_data user_data = {.ptr = NULL};
	struct doca_comch_client *client = doca_comch_client_get_client_ctx(connection);

	if (doca_ctx_get_user_data(doca_comch_client_as_ctx(client), &user_data) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to get user data from ctx");
	return user_data.ptr;
}

static void client_send_task_completion_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
						 union doca_data ctx_user_data)
{
	struct comch_data_path_client_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->client_result = DOCA_SUCCESS;
	DOCA_LOG_INFO("Client task sent successfully");
	doca_task_free(doca_comch_task_send_as_task(task));
}

static void client_send_task_completion_err_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
						     union doca_data ctx_user_data)
{
	struct comch_data_path_client_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->client_result = doca_task_get_status(doca_comch_task_send_as_task(task));
	DOCA_LOG_ERR("Message failed to send with error = %s", doca_error_get_name(objs->client_result));
	doca_task_free(doca_comch_task_send_as_task(task));
	(void)doca_ctx_stop(doca_comch_client_as_ctx(objs->client));
}

static bool is_msg(const uint8_t *buf, uint32_t len, const char *str)
{
	return len == strlen(str) && memcmp(buf, str, len) == 0;
}

static void client_message_recv_callback(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer,
					 uint32_t msg_len, struct doca_comch_connection *comch_connection)
{
	struct comch_data_path_client_objects *objs = objects_of(comch_connection);

	(void)event;
	DOCA_LOG_INFO("Message received: '%.*s'", (int)msg_len, recv_buffer);
	if (objs == NULL)
		return;
	if (is_msg(recv_buffer, msg_len, STR_START_DATA_PATH_TEST)) {
		objs->data_path_test_started = true;
	} else if (is_msg(recv_buffer, msg_len, STR_STOP_DATA_PATH_TEST)) {
		objs->data_path_test_stopped = true;
		(void)doca_ctx_stop(doca_comch_client_as_ctx(objs->client));
	}
}

static doca_error_t client_send_msg(struct comch_data_path_client_objects *objs, const char *msg, size_t len)
{
	struct doca_comch_task_send *task;
	doca_error_t result;

	result = doca_comch_client_task_send_alloc_init(objs->client, objs->connection, msg, (uint32_t)len, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate client task with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_task_submit(doca_comch_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to send client task with error = %s", doca_error_get_name(result));
		doca_task_free(doca_comch_task_send_as_task(task));
	}
	return result;
}

static void client_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
					  enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct comch_data_path_client_objects *objs = user_data.ptr;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("CC client context has been stopped");
		objs->client_finish = true;
		break;
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("CC client context entered into starting state. Waiting for connection establishment");
		break;
	case DOCA_CTX_STATE_RUNNING:
		if (objs->connection == NULL) {
			objs->client_result = doca_comch_client_get_connection(objs->client, &objs->connection);
			if (objs->client_result != DOCA_SUCCESS) {
				DOCA_LOG_ERR("Failed to get connection from cc client with error = %s",
					     doca_error_get_name(objs->client_result));
				(void)doca_ctx_stop(doca_comch_client_as_ctx(objs->client));
				break;
			}
			DOCA_LOG_INFO("CC client context is running. Get a connection from server");
		}
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("CC client context entered into stopping state. Waiting for connection termination");
		break;
	default:
		break;
	}
}

static void new_consumer_callback(struct doca_comch_event_consumer *event, struct doca_comch_connection *comch_connection,
				  uint32_t id)
{
	struct comch_data_path_client_objects *objs = objects_of(comch_connection);

	(void)event;
	if (objs == NULL)
		return;
	objs->data_path->remote_consumer_id = id;
	DOCA_LOG_INFO("Got a new remote consumer with ID = [%d]", (int)id);
}

static void expired_consumer_callback(struct doca_comch_event_consumer *event,
				      struct doca_comch_connection *comch_connection, uint32_t id)
{
	(void)event;
	(void)comch_connection;
	(void)id;
}

/* Progress until *flag, or until the client stopped (the server went away). */
static void progress_until(struct comch_data_path_client_objects *objs, const bool *flag)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};

	while (!*flag && !objs->client_finish) {
		if (doca_pe_progress(objs->pe) == 0)
			nanosleep(&ts, NULL);
	}
}

doca_error_t start_comch_data_path_client_sample(const char *server_name, const char *dev_pci_addr, const char *text)
{
	struct comch_data_path_objects data_path = {.text = text};
	struct comch_data_path_client_objects objs = {.data_path = &data_path};
	struct comch_ctrl_path_client_cb_config cfg = {
		.send_task_comp_cb = client_send_task_completion_callback,
		.send_task_comp_err_cb = client_send_task_completion_err_callback,
		.msg_recv_cb = client_message_recv_callback,
		.data_path_mode = true,
		.new_consumer_cb = new_consumer_callback,
		.expired_consumer_cb = expired_consumer_callback,
		.ctx_user_data = &objs,
		.ctx_state_changed_cb = client_state_changed_callback,
	};
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
	data_path.hw_dev = objs.hw_dev;
	data_path.pe = objs.pe;

	/* Connected, then "start" both ways on the control path */
	{
		struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};

		while (objs.connection == NULL && !objs.client_finish) {
			if (doca_pe_progress(objs.pe) == 0)
				nanosleep(&ts, NULL);
		}
	}
	data_path.connection = objs.connection;
	result = objs.connection != NULL ? client_send_msg(&objs, STR_START_DATA_PATH_TEST,
							   strlen(STR_START_DATA_PATH_TEST))
					 : DOCA_ERROR_NOT_CONNECTED;
	if (result == DOCA_SUCCESS) {
		progress_until(&objs, &objs.data_path_test_started);
		result = objs.data_path_test_started ? comch_data_path_send_msg(&data_path) : DOCA_ERROR_NOT_CONNECTED;
	}
	if (result == DOCA_SUCCESS)
		result = comch_data_path_recv_msg(&data_path);

	/* "stop" both ways; the server's answer stops our context */
	if (!objs.client_finish && client_send_msg(&objs, STR_STOP_DATA_PATH_TEST, strlen(STR_STOP_DATA_PATH_TEST)) ==
					   DOCA_SUCCESS)
		progress_until(&objs, &objs.data_path_test_stopped);
	else
		(void)doca_ctx_stop(doca_comch_client_as_ctx(objs.client));
	progress_until(&objs, &objs.client_finish);

	clean_comch_ctrl_path_client(objs.client, objs.pe);
	(void)doca_dev_close(objs.hw_dev);
	if (result != DOCA_SUCCESS)
		return result;
	return objs.client_result;
}
