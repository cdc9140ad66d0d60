/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch fast path, server side (DPU): after the client's "start" control message, receive one
 * message with a consumer, then send our text with a producer to the client's consumer; the
 * client's "stop" message ends the test.
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

DOCA_LOG_REGISTER(COMCH_DATA_PATH_HIGH_SPEED_SERVER);

struct comch_data_path_server_objects {
	struct doca_dev *hw_dev;
	struct doca_dev_rep *rep_dev;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_connection *connection;
	doca_error_t server_result;
	bool server_finish;
	bool data_path_test_started;
	bool data_path_test_stopped;
	struct comch_data_path_objects *data_path;
};

static struct comch_data_path_server_objects *objects_of(struct doca_comch_connection *connection)
{
	union doca_data user_data = {.ptr = NULL};
	struct doca_comch_server *server = doca_comch_server_get_server_ctx(connection);

	if (doca_ctx_get_user_data(doca_comch_server_as_ctx(server), &user_data) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to get user data from ctx");
	return user_data.ptr;
}

static void server_send_task_completion_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
						 union doca_data ctx_user_data)
{
	struct comch_data_path_server_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->server_result = DOCA_SUCCESS;
	DOCA_LOG_INFO("Server task sent successfully");
	doca_task_free(doca_comch_task_send_as_task(task));
}

static void server_send_task_completion_err_callback(struct doca_comch_task_send *task, union doca_data task_user_data,
						     union doca_data ctx_user_data)
{
	struct comch_data_path_server_objects *objs = ctx_user_data.ptr;

	(void)task_user_data;
	objs->server_result = doca_task_get_status(doca_comch_task_send_as_task(task));
	DOCA_LOG_ERR("Message failed to send with error = %s", doca_error_get_name(objs->server_result));
	doca_task_free(doca_comch_task_send_as_task(task));
	(void)doca_ctx_stop(doca_comch_server_as_ctx(objs->server));
}

static doca_error_t server_send_msg(struct comch_data_path_server_objects *objs, const char *msg, size_t len)
{
	struct doca_comch_task_send *task;
	doca_error_t result;

	result = doca_comch_server_task_send_alloc_init(objs->server, objs->connection, msg, (uint32_t)len, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate server task with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_task_submit(doca_comch_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to send server task with error = %s", doca_error_get_name(result));
		doca_task_free(doca_comch_task_send_as_task(task));
	}
	return result;
}

static bool is_msg(const uint8_t *buf, uint32_t len, const char *str)
{
	return len == strlen(str) && memcmp(buf, str, len) == 0;
}

/* "start": answer it, the fast path may begin; "stop": answer it and stop the server. */
static void server_message_recv_callback(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer,
					 uint32_t msg_len, struct doca_comch_connection *comch_connection)
{
	struct comch_data_path_server_objects *objs = objects_of(comch_connection);

	(void)event;
	DOCA_LOG_INFO("Message received: '%.*s'", (int)msg_len, recv_buffer);
	if (objs == NULL)
		return;
	objs->connection = comch_connection;
	if (is_msg(recv_buffer, msg_len, STR_START_DATA_PATH_TEST)) {
		if (server_send_msg(objs, STR_START_DATA_PATH_TEST, strlen(STR_START_DATA_PATH_TEST)) != DOCA_SUCCESS) {
			(void)doca_ctx_stop(doca_comch_server_as_ctx(objs->server));
			return;
		}
		objs->data_path_test_started = true;
	} else if (is_msg(recv_buffer, msg_len, STR_STOP_DATA_PATH_TEST)) {
		if (server_send_msg(objs, STR_STOP_DATA_PATH_TEST, strlen(STR_STOP_DATA_PATH_TEST)) != DOCA_SUCCESS) {
			(void)doca_ctx_stop(doca_comch_server_as_ctx(objs->server));
			return;
		}
		objs->data_path_test_stopped = true;
		objs->data_path->remote_consumer_id = INVALID_CONSUMER_ID;
		(void)doca_ctx_stop(doca_comch_server_as_ctx(objs->server));
	}
}

static void server_connection_event_callback(struct doca_comch_event_connection_status_changed *event,
					     struct doca_comch_connection *comch_connection, uint8_t change_success)
{
	struct comch_data_path_server_objects *objs;

	(void)event;
	if (change_success == 0) {
		DOCA_LOG_ERR("Failed connection received");
		return;
	}
	objs = objects_of(comch_connection);
	if (objs != NULL)
		objs->connection = comch_connection;
}

static void server_disconnection_event_callback(struct doca_comch_event_connection_status_changed *event,
						struct doca_comch_connection *comch_connection, uint8_t change_success)
{
	(void)event;
	(void)comch_connection;
	if (change_success == 0)
		DOCA_LOG_ERR("Failed disconnection received");
}

static void server_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
					  enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct comch_data_path_server_objects *objs = user_data.ptr;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("CC server context has been stopped");
		objs->server_finish = true;
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

static void new_consumer_callback(struct doca_comch_event_consumer *event, struct doca_comch_connection *comch_connection,
				  uint32_t id)
{
	struct comch_data_path_server_objects *objs = objects_of(comch_connection);

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

static void progress_until(struct doca_pe *pe, const bool *flag)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};

	while (!*flag) {
		if (doca_pe_progress(pe) == 0)
			nanosleep(&ts, NULL);
	}
}

static void clean_server_objects(struct comch_data_path_server_objects *objs)
{
	clean_comch_ctrl_path_server(objs->server, objs->pe);
	objs->server = NULL;
	objs->pe = NULL;
	if (objs->rep_dev != NULL)
		(void)doca_dev_rep_close(objs->rep_dev);
	objs->rep_dev = NULL;
	if (objs->hw_dev != NULL)
		(void)doca_dev_close(objs->hw_dev);
	objs->hw_dev = NULL;
}

doca_error_t start_comch_data_path_server_sample(const char *server_name, const char *dev_pci_addr,
						 const char *rep_pci_addr, const char *text)
{
	struct comch_data_path_objects data_path = {.text = text};
	struct comch_data_path_server_objects objs = {.data_path = &data_path};
	struct comch_ctrl_path_server_cb_config cfg = {
		.send_task_comp_cb = server_send_task_completion_callback,
		.send_task_comp_err_cb = server_send_task_completion_err_callback,
		.msg_recv_cb = server_message_recv_callback,
		.server_connection_event_cb = server_connection_event_callback,
		.server_disconnection_event_cb = server_disconnection_event_callback,
		.data_path_mode = true,
		.new_consumer_cb = new_consumer_callback,
		.expired_consumer_cb = expired_consumer_callback,
		.ctx_user_data = &objs,
		.ctx_state_changed_cb = server_state_changed_callback,
	};
	doca_error_t result;

	result = open_doca_device_with_pci(dev_pci_addr, NULL, &objs.hw_dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open DOCA device based on PCI address");
		return result;
	}
	result = open_doca_device_rep_with_pci(objs.hw_dev, DOCA_DEVINFO_REP_FILTER_NET, rep_pci_addr, &objs.rep_dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open DOCA device representor based on PCI address");
		clean_server_objects(&objs);
		return result;
	}
	result = init_comch_ctrl_path_server(server_name, objs.hw_dev, objs.rep_dev, &cfg, &objs.server, &objs.pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init cc server with error = %s", doca_error_get_name(result));
		clean_server_objects(&objs);
		return result;
	}
	data_path.hw_dev = objs.hw_dev;
	data_path.pe = objs.pe;

	/* The client's "start" message gives us its connection */
	progress_until(objs.pe, &objs.data_path_test_started);
	data_path.connection = objs.connection;

	result = comch_data_path_recv_msg(&data_path);
	if (result == DOCA_SUCCESS)
		result = comch_data_path_send_msg(&data_path);
	if (result != DOCA_SUCCESS) {
		/* The client tears down on our "stop" */
		(void)server_send_msg(&objs, STR_STOP_DATA_PATH_TEST, strlen(STR_STOP_DATA_PATH_TEST));
		objs.data_path_test_stopped = true;
		(void)doca_ctx_stop(doca_comch_server_as_ctx(objs.server));
	}
	progress_until(objs.pe, &objs.data_path_test_stopped);
	progress_until(objs.pe, &objs.server_finish);
	clean_server_objects(&objs);
	return result != DOCA_SUCCESS ? result : objs.server_result;
}
