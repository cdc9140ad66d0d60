/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_log.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#include "common.h"
#include "common_common.h"

DOCA_LOG_REGISTER(SYNC_EVENT::COMMON);

/* ---- flags ---- */

static doca_error_t copy_pci_addr(char *dst, size_t cap, const char *value, const char *what)
{
	size_t len = strnlen(value, cap);

	if (len >= cap) {
		DOCA_LOG_ERR("Entered %s exceeds the maximum size of %zu characters", what, cap - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(dst, value, len + 1);
	return DOCA_SUCCESS;
}

static doca_error_t dev_pci_addr_cb(void *param, void *config)
{
	struct sync_event_config *cfg = config;

	return copy_pci_addr(cfg->dev_pci_addr, sizeof(cfg->dev_pci_addr), param, "device PCI address");
}

static doca_error_t rep_pci_addr_cb(void *param, void *config)
{
	struct sync_event_config *cfg = config;

	return copy_pci_addr(cfg->rep_pci_addr, sizeof(cfg->rep_pci_addr), param, "representor PCI address");
}

static doca_error_t async_mode_cb(void *param, void *config)
{
	((struct sync_event_config *)config)->is_async_mode = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t async_num_tasks_cb(void *param, void *config)
{
	((struct sync_event_config *)config)->async_num_tasks = *(int *)param;
	return DOCA_SUCCESS;
}

static doca_error_t atomic_cb(void *param, void *config)
{
	((struct sync_event_config *)config)->is_update_atomic = *(bool *)param;
	return DOCA_SUCCESS;
}

struct se_flag {
	const char *short_name; /* NULL: long name only */
	const char *long_name;
	const char *description;
	enum doca_argp_type type;
	bool mandatory;
	doca_argp_param_cb_t callback;
};

static const struct se_flag se_flags[] = {
	{"d", "pci-addr", "Device PCI address", DOCA_ARGP_TYPE_STRING, true, dev_pci_addr_cb},
#ifdef DOCA_ARCH_DPU
	{"r", "rep-pci", "DPU representor PCI address", DOCA_ARGP_TYPE_STRING, true, rep_pci_addr_cb},
#endif
	{NULL, "async", "Start DOCA Sync Event in asynchronous mode (synchronous mode by default)",
	 DOCA_ARGP_TYPE_BOOLEAN, false, async_mode_cb},
	{NULL, "async-num-tasks", "Async num tasks for asynchronous mode", DOCA_ARGP_TYPE_INT, false,
	 async_num_tasks_cb},
	{NULL, "atomic", "Update DOCA Sync Event using Add operation (Set operation by default)",
	 DOCA_ARGP_TYPE_BOOLEAN, false, atomic_cb},
};

doca_error_t sync_event_params_register(void)
{
	(void)rep_pci_addr_cb; /* registered by the DPU build only */
	for (size_t i = 0; i < sizeof(se_flags) / sizeof(se_flags[0]); i++) {
		const struct se_flag *f = &se_flags[i];
		struct doca_argp_param *param;
		doca_error_t result = doca_argp_param_create(&param);

		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to create %s param: %s", f->long_name, doca_error_get_descr(result));
			return result;
		}
		if (f->short_name != NULL)
			doca_argp_param_set_short_name(param, f->short_name);
		doca_argp_param_set_long_name(param, f->long_name);
		doca_argp_param_set_description(param, f->description);
		doca_argp_param_set_callback(param, f->callback);
		doca_argp_param_set_type(param, f->type);
		if (f->mandatory)
			doca_argp_param_set_mandatory(param);
		result = doca_argp_register_param(param);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to register %s param: %s", f->long_name, doca_error_get_descr(result));
			return result;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t sync_event_config_validate(const struct sync_event_config *se_cfg,
					const struct sync_event_runtime_objects *se_rt_objs)
{
	const struct doca_devinfo *devinfo = doca_dev_as_devinfo(se_rt_objs->dev);
	doca_error_t result;

	if (!se_cfg->is_async_mode)
		return DOCA_SUCCESS;
	result = doca_sync_event_cap_task_wait_eq_is_supported(devinfo);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_cap_task_wait_neq_is_supported(devinfo);
	if (result == DOCA_SUCCESS)
		result = se_cfg->is_update_atomic ? doca_sync_event_cap_task_notify_add_is_supported(devinfo)
						  : doca_sync_event_cap_task_notify_set_is_supported(devinfo);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("DOCA Sync Event asynchronous mode is not supported (%s) on the given device",
			     doca_error_get_descr(result));
		return result;
	}
	if (se_cfg->async_num_tasks <= 0) {
		DOCA_LOG_ERR("Please specify a positive number of async tasks (asynchronous mode), not %d",
			     se_cfg->async_num_tasks);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* ---- waiting on a PE: progress, then sleep on its notification handle ---- */

typedef bool (*done_fn)(const struct sync_event_runtime_objects *se_rt_objs);

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Progresses pe until done() holds; TIME_OUT after SYNC_EVENT_TIMEOUT_SEC. */
static doca_error_t pe_wait(struct doca_pe *pe, done_fn done, const struct sync_event_runtime_objects *se_rt_objs,
			    const char *what)
{
	struct epoll_event ev = {.events = EPOLLIN}, out;
	double deadline = now_sec() + SYNC_EVENT_TIMEOUT_SEC;
	doca_notification_handle_t handle;
	doca_error_t result = DOCA_SUCCESS;
	int ep;

	result = doca_pe_get_notification_handle(pe, &handle);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the PE's notification handle: %s", doca_error_get_descr(result));
		return result;
	}
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, handle, &ev) != 0) {
		DOCA_LOG_ERR("Failed to set up epoll on the PE's notification handle");
		if (ep >= 0)
			close(ep);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	for (;;) {
		double left;

		while (doca_pe_progress(pe) != 0)
			;
		if (done(se_rt_objs))
			break;
		left = deadline - now_sec();
		if (left <= 0) {
			DOCA_LOG_ERR("Timed out after %d seconds waiting for %s", SYNC_EVENT_TIMEOUT_SEC, what);
			result = DOCA_ERROR_TIME_OUT;
			break;
		}
		(void)doca_pe_request_notification(pe);
		(void)epoll_wait(ep, &out, 1, (int)(left * 1000) + 1);
		(void)doca_pe_clear_notification(pe, handle);
	}
	close(ep);
	return result;
}

/* ---- asynchronous mode ---- */

static void task_done(struct doca_task *task, union doca_data ctx_user_data, bool ok)
{
	struct sync_event_runtime_objects *rt = ctx_user_data.ptr;

	rt->se_task_result = ok ? DOCA_SUCCESS : doca_task_get_status(task);
}

/* One success and one error callback per task type, all reporting through task_done. */
#define SE_TASK_CBS(type) \
	static void type##_ok_cb(struct doca_sync_event_task_##type *task, union doca_data task_user_data, \
				 union doca_data ctx_user_data) \
	{ \
		(void)task_user_data; \
		task_done(doca_sync_event_task_##type##_as_doca_task(task), ctx_user_data, true); \
	} \
	static void type##_err_cb(struct doca_sync_event_task_##type *task, union doca_data task_user_data, \
				  union doca_data ctx_user_data) \
	{ \
		(void)task_user_data; \
		task_done(doca_sync_event_task_##type##_as_doca_task(task), ctx_user_data, false); \
	}

SE_TASK_CBS(get)
SE_TASK_CBS(notify_set)
SE_TASK_CBS(notify_add)
SE_TASK_CBS(wait_eq)
SE_TASK_CBS(wait_neq)

doca_error_t sync_event_start_async(const struct sync_event_config *se_cfg, struct sync_event_runtime_objects *se_rt_objs)
{
	union doca_data ctx_user_data = {.ptr = se_rt_objs};
	uint32_t n = (uint32_t)se_cfg->async_num_tasks;
	doca_error_t result;

	se_rt_objs->se_ctx = doca_sync_event_as_ctx(se_rt_objs->se);
	if (se_rt_objs->se_ctx == NULL) {
		DOCA_LOG_ERR("Failed to convert sync event to ctx");
		return DOCA_ERROR_BAD_STATE;
	}
	result = doca_pe_create(&se_rt_objs->se_pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create doca pe: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_pe_connect_ctx(se_rt_objs->se_pe, se_rt_objs->se_ctx);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(se_rt_objs->se_ctx, ctx_user_data);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_task_get_set_conf(se_rt_objs->se, get_ok_cb, get_err_cb, n);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_task_notify_set_set_conf(se_rt_objs->se, notify_set_ok_cb, notify_set_err_cb, n);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_task_notify_add_set_conf(se_rt_objs->se, notify_add_ok_cb, notify_add_err_cb, n);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_task_wait_eq_set_conf(se_rt_objs->se, wait_eq_ok_cb, wait_eq_err_cb, n);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_task_wait_neq_set_conf(se_rt_objs->se, wait_neq_ok_cb, wait_neq_err_cb, n);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the sync event context: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_ctx_start(se_rt_objs->se_ctx);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to start sync event ctx: %s", doca_error_get_descr(result));
	return result;
}

static bool se_task_done(const struct sync_event_runtime_objects *rt)
{
	return rt->se_task_result != DOCA_ERROR_IN_PROGRESS;
}

doca_error_t sync_event_async_task_submit(struct sync_event_runtime_objects *se_rt_objs, struct doca_task *task)
{
	doca_error_t result;

	se_rt_objs->se_task_result = DOCA_ERROR_IN_PROGRESS;
	result = doca_task_submit(task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit sync event task: %s", doca_error_get_descr(result));
		return result;
	}
	result = pe_wait(se_rt_objs->se_pe, se_task_done, se_rt_objs, "the sync event task");
	if (result != DOCA_SUCCESS)
		return result;
	if (se_rt_objs->se_task_result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Sync event task failed: %s", doca_error_get_descr(se_rt_objs->se_task_result));
	return se_rt_objs->se_task_result;
}

/* ---- Comch: the exported event travels from the host (client) to the DPU (server) ---- */

static struct sync_event_runtime_objects *conn_objs(struct doca_comch_connection *conn, bool server)
{
	struct doca_ctx *ctx = server ? doca_comch_server_as_ctx(doca_comch_server_get_server_ctx(conn))
				      : doca_comch_client_as_ctx(doca_comch_client_get_client_ctx(conn));
	union doca_data ud = {.ptr = NULL};

	(void)doca_ctx_get_user_data(ctx, &ud);
	return ud.ptr;
}

static void server_msg_recv_cb(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer, uint32_t msg_len,
			       struct doca_comch_connection *conn)
{
	struct sync_event_runtime_objects *rt = conn_objs(conn, true);

	(void)event;
	if (rt->blob_received)
		return; /* one event per run */
	if (msg_len > sizeof(rt->blob)) {
		DOCA_LOG_ERR("Received a message of %u bytes, larger than an exported sync event can be", msg_len);
		return;
	}
	memcpy(rt->blob, recv_buffer, msg_len);
	rt->blob_sz = msg_len;
	rt->blob_received = true;
	rt->conn = conn;
}

static void client_msg_recv_cb(struct doca_comch_event_msg_recv *event, uint8_t *recv_buffer, uint32_t msg_len,
			       struct doca_comch_connection *conn)
{
	(void)event;
	(void)recv_buffer;
	(void)msg_len;
	(void)conn; /* the DPU sends nothing back */
}

static void server_connect_cb(struct doca_comch_event_connection_status_changed *event,
			      struct doca_comch_connection *conn, uint8_t change_successful)
{
	(void)event;
	(void)conn;
	(void)change_successful;
}

static void server_disconnect_cb(struct doca_comch_event_connection_status_changed *event,
				 struct doca_comch_connection *conn, uint8_t change_successful)
{
	(void)event;
	(void)change_successful;
	conn_objs(conn, true)->peer_gone = true;
}

static void send_task_cb(struct doca_comch_task_send *task, union doca_data task_user_data,
			 union doca_data ctx_user_data)
{
	struct sync_event_runtime_objects *rt = ctx_user_data.ptr;

	(void)task_user_data;
	rt->comch_result = DOCA_SUCCESS;
	doca_task_free(doca_comch_task_send_as_task(task));
}

static void send_task_err_cb(struct doca_comch_task_send *task, union doca_data task_user_data,
			     union doca_data ctx_user_data)
{
	struct sync_event_runtime_objects *rt = ctx_user_data.ptr;

	(void)task_user_data;
	rt->comch_result = doca_task_get_status(doca_comch_task_send_as_task(task));
	doca_task_free(doca_comch_task_send_as_task(task));
}

static bool blob_arrived(const struct sync_event_runtime_objects *rt)
{
	return rt->blob_received;
}

doca_error_t sync_event_cc_server_recv_blob(struct sync_event_runtime_objects *se_rt_objs)
{
	union doca_data ud = {.ptr = se_rt_objs};
	struct doca_ctx *ctx;
	doca_error_t result;

	result = doca_pe_create(&se_rt_objs->comch_pe);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_create(se_rt_objs->dev, se_rt_objs->rep, SYNC_EVENT_CC_SERVICE_NAME,
						  &se_rt_objs->server);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create Comch server: %s", doca_error_get_descr(result));
		return result;
	}
	ctx = doca_comch_server_as_ctx(se_rt_objs->server);
	result = doca_pe_connect_ctx(se_rt_objs->comch_pe, ctx);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(ctx, ud);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_task_send_set_conf(se_rt_objs->server, send_task_cb, send_task_err_cb, 1);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_event_msg_recv_register(se_rt_objs->server, server_msg_recv_cb);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_event_connection_status_changed_register(se_rt_objs->server,
										     server_connect_cb,
										     server_disconnect_cb);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_set_max_msg_size(se_rt_objs->server, SYNC_EVENT_CC_MAX_MSG_SIZE);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_start(ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start Comch server: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Listening to host");
	result = pe_wait(se_rt_objs->comch_pe, blob_arrived, se_rt_objs, "the host's exported sync event");
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Received blob from host");
	return result;
}

static bool client_connected(const struct sync_event_runtime_objects *rt)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

	(void)doca_ctx_get_state(doca_comch_client_as_ctx(rt->client), &state);
	return state == DOCA_CTX_STATE_RUNNING;
}

doca_error_t sync_event_cc_client_connect(struct sync_event_runtime_objects *se_rt_objs)
{
	union doca_data ud = {.ptr = se_rt_objs};
	struct doca_ctx *ctx;
	doca_error_t result;

	result = doca_pe_create(&se_rt_objs->comch_pe);
	if (result == DOCA_SUCCESS)
		result = doca_comch_client_create(se_rt_objs->dev, SYNC_EVENT_CC_SERVICE_NAME, &se_rt_objs->client);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create Comch client: %s", doca_error_get_descr(result));
		return result;
	}
	ctx = doca_comch_client_as_ctx(se_rt_objs->client);
	result = doca_pe_connect_ctx(se_rt_objs->comch_pe, ctx);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(ctx, ud);
	if (result == DOCA_SUCCESS)
		result = doca_comch_client_task_send_set_conf(se_rt_objs->client, send_task_cb, send_task_err_cb, 1);
	if (result == DOCA_SUCCESS)
		result = doca_comch_client_event_msg_recv_register(se_rt_objs->client, client_msg_recv_cb);
	if (result == DOCA_SUCCESS)
		result = doca_comch_client_set_max_msg_size(se_rt_objs->client, SYNC_EVENT_CC_MAX_MSG_SIZE);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up Comch client: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_ctx_start(ctx);
	if (result != DOCA_ERROR_IN_PROGRESS && result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start Comch client: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Connecting to DPU");
	result = pe_wait(se_rt_objs->comch_pe, client_connected, se_rt_objs, "the connection to the DPU");
	if (result == DOCA_SUCCESS)
		result = doca_comch_client_get_connection(se_rt_objs->client, &se_rt_objs->conn);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to establish connection with DPU: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Connection to DPU has been established");
	return DOCA_SUCCESS;
}

static bool message_sent(const struct sync_event_runtime_objects *rt)
{
	return rt->comch_result != DOCA_ERROR_IN_PROGRESS;
}

doca_error_t sync_event_cc_client_send(struct sync_event_runtime_objects *se_rt_objs, const uint8_t *blob, size_t sz)
{
	struct doca_comch_task_send *task;
	doca_error_t result;

	se_rt_objs->comch_result = DOCA_ERROR_IN_PROGRESS;
	result = doca_comch_client_task_send_alloc_init(se_rt_objs->client, se_rt_objs->conn, blob, (uint32_t)sz, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate Comch send task: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_task_submit(doca_comch_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		doca_task_free(doca_comch_task_send_as_task(task));
		DOCA_LOG_ERR("Failed to submit Comch send task: %s", doca_error_get_descr(result));
		return result;
	}
	result = pe_wait(se_rt_objs->comch_pe, message_sent, se_rt_objs, "the exported sync event to be sent");
	if (result == DOCA_SUCCESS)
		result = se_rt_objs->comch_result;
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to send the exported sync event to the DPU: %s", doca_error_get_descr(result));
	return result;
}

/* ---- tear down ---- */

static bool idle(struct doca_ctx *ctx)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

	return doca_ctx_get_state(ctx, &state) != DOCA_SUCCESS || state == DOCA_CTX_STATE_IDLE;
}

/* Stops ctx and progresses pe until it is IDLE, for at most SYNC_EVENT_TIMEOUT_SEC. */
static void stop_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = 100 * 1000};
	double deadline = now_sec() + SYNC_EVENT_TIMEOUT_SEC;

	if (idle(ctx))
		return;
	(void)doca_ctx_stop(ctx);
	while (!idle(ctx) && now_sec() < deadline) {
		if (doca_pe_progress(pe) == 0)
			nanosleep(&ts, NULL);
	}
	if (!idle(ctx))
		DOCA_LOG_ERR("A context did not stop within %d seconds", SYNC_EVENT_TIMEOUT_SEC);
}

void sync_event_tear_down(struct sync_event_runtime_objects *se_rt_objs)
{
	doca_error_t result;

	if (se_rt_objs->se_ctx != NULL && se_rt_objs->se_pe != NULL)
		stop_ctx(se_rt_objs->se_pe, se_rt_objs->se_ctx);
	if (se_rt_objs->se != NULL) {
		result = doca_sync_event_destroy(se_rt_objs->se);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy sync event: %s", doca_error_get_descr(result));
	}
	if (se_rt_objs->se_pe != NULL)
		(void)doca_pe_destroy(se_rt_objs->se_pe);
	if (se_rt_objs->client != NULL) {
		if (se_rt_objs->comch_pe != NULL)
			stop_ctx(se_rt_objs->comch_pe, doca_comch_client_as_ctx(se_rt_objs->client));
		(void)doca_comch_client_destroy(se_rt_objs->client);
	}
	if (se_rt_objs->server != NULL) {
		if (se_rt_objs->comch_pe != NULL)
			stop_ctx(se_rt_objs->comch_pe, doca_comch_server_as_ctx(se_rt_objs->server));
		(void)doca_comch_server_destroy(se_rt_objs->server);
	}
	if (se_rt_objs->comch_pe != NULL)
		(void)doca_pe_destroy(se_rt_objs->comch_pe);
	if (se_rt_objs->rep != NULL)
		(void)doca_dev_rep_close(se_rt_objs->rep);
	if (se_rt_objs->dev != NULL)
		(void)doca_dev_close(se_rt_objs->dev);
	memset(se_rt_objs, 0, sizeof(*se_rt_objs));
}

/* ---- main ---- */

static doca_error_t run_sync_event_sample(void *config)
{
	struct sync_event_runtime_objects se_rt_objs = {0};

	return sync_event_run(config, &se_rt_objs);
}

int sync_event_sample_main(int argc, char **argv)
{
	struct sync_event_config se_cfg = {.async_num_tasks = SYNC_EVENT_DEFAULT_NUM_TASKS};
	const struct sample_main_desc desc = {.config = &se_cfg,
					      .register_params = sync_event_params_register,
					      .params_name = "sample",
					      .run = run_sync_event_sample,
					      .run_error = "sync_event_run() encountered an error"};

	return sample_main(argc, argv, &desc);
}
