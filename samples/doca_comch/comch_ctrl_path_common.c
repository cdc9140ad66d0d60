/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "comch_ctrl_path_common.h"

DOCA_LOG_REGISTER(COMCH_CTRL_PATH_COMMON);

/* Copy a string flag into dst (capacity cap, NUL included), refusing values that do not fit. */
static doca_error_t copy_string_arg(char *dst, size_t cap, const char *value, const char *what)
{
	size_t len = strnlen(value, cap);

	if (len >= cap) {
		DOCA_LOG_ERR("Entered %s is longer than the maximum of %zu characters", what, cap - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(dst, value, len + 1);
	return DOCA_SUCCESS;
}

static doca_error_t pci_addr_callback(void *param, void *config)
{
	struct comch_config *cfg = config;

	return copy_string_arg(cfg->comch_dev_pci_addr, sizeof(cfg->comch_dev_pci_addr), param, "device PCI address");
}

static doca_error_t rep_pci_addr_callback(void *param, void *config)
{
	struct comch_config *cfg = config;

	return copy_string_arg(cfg->comch_dev_rep_pci_addr, sizeof(cfg->comch_dev_rep_pci_addr), param,
			       "representor PCI address");
}

static doca_error_t text_callback(void *param, void *config)
{
	struct comch_config *cfg = config;
	doca_error_t result = copy_string_arg(cfg->text, sizeof(cfg->text), param, "text");

	if (result == DOCA_SUCCESS)
		cfg->text_size = (uint32_t)strlen(cfg->text);
	return result;
}

struct comch_flag {
	const char *short_name;
	const char *long_name;
	const char *arguments;
	const char *description;
	doca_argp_param_cb_t callback;
};

static const struct comch_flag comch_flags[] = {
	{"p", "pci-addr", "<PCI-ADDRESS>", "DOCA Comm Channel device PCI address", pci_addr_callback},
	{"r", "rep-pci", "<PCI-ADDRESS>", "DOCA Comm Channel device representor PCI address (needed only on DPU)",
	 rep_pci_addr_callback},
	{"t", "text", "<text>", "Text to be sent to the other side of channel (at most 4080 characters)",
	 text_callback},
};

doca_error_t register_comch_params(void)
{
	for (size_t i = 0; i < sizeof(comch_flags) / sizeof(comch_flags[0]); i++) {
		const struct comch_flag *flag = &comch_flags[i];
		struct doca_argp_param *param;
		doca_error_t result = doca_argp_param_create(&param);

		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to create ARGP param: %s", doca_error_get_descr(result));
			return result;
		}
		doca_argp_param_set_short_name(param, flag->short_name);
		doca_argp_param_set_long_name(param, flag->long_name);
		doca_argp_param_set_arguments(param, flag->arguments);
		doca_argp_param_set_description(param, flag->description);
		doca_argp_param_set_callback(param, flag->callback);
		doca_argp_param_set_type(param, DOCA_ARGP_TYPE_STRING);
		result = doca_argp_register_param(param);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to register program param --%s: %s", flag->long_name,
				     doca_error_get_descr(result));
			return result;
		}
	}
	return DOCA_SUCCESS;
}

/* Progress pe until ctx is IDLE (a stop that waits for in-flight work or for the peer). */
static void stop_and_wait(struct doca_pe *pe, struct doca_ctx *ctx)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

	if (doca_ctx_get_state(ctx, &state) != DOCA_SUCCESS || state == DOCA_CTX_STATE_IDLE)
		return;
	(void)doca_ctx_stop(ctx);
	while (doca_ctx_get_state(ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE) {
		if (doca_pe_progress(pe) == 0)
			nanosleep(&ts, NULL);
	}
}

void clean_comch_ctrl_path_client(struct doca_comch_client *client, struct doca_pe *pe)
{
	doca_error_t result;

	if (client != NULL) {
		if (pe != NULL)
			stop_and_wait(pe, doca_comch_client_as_ctx(client));
		result = doca_comch_client_destroy(client);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy client properly with error = %s", doca_error_get_name(result));
	}
	if (pe != NULL) {
		result = doca_pe_destroy(pe);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy PE properly with error = %s", doca_error_get_name(result));
	}
}

doca_error_t init_comch_ctrl_path_client(const char *server_name, struct doca_dev *hw_dev,
					 struct comch_ctrl_path_client_cb_config *cb_cfg, struct doca_comch_client **client,
					 struct doca_pe **pe)
{
	union doca_data user_data = {.ptr = cb_cfg->ctx_user_data};
	struct doca_comch_client *cl = NULL;
	struct doca_pe *p = NULL;
	struct doca_ctx *ctx;
	uint32_t max_msg_size;
	doca_error_t result;

	result = doca_pe_create(&p);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create PE with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_client_create(hw_dev, server_name, &cl);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create client with error = %s", doca_error_get_name(result));
		goto fail;
	}
	ctx = doca_comch_client_as_ctx(cl);

	result = doca_pe_connect_ctx(p, ctx);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(ctx, cb_cfg->ctx_state_changed_cb);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(ctx, user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the client context with error = %s", doca_error_get_name(result));
		goto fail;
	}
	result = doca_comch_client_task_send_set_conf(cl, cb_cfg->send_task_comp_cb, cb_cfg->send_task_comp_err_cb,
						      CC_SEND_TASK_NUM);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to configure client task pool with error = %s", doca_error_get_name(result));
		goto fail;
	}
	result = doca_comch_client_event_msg_recv_register(cl, cb_cfg->msg_recv_cb);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to register client receive callback with error = %s", doca_error_get_name(result));
		goto fail;
	}
	if (cb_cfg->data_path_mode) {
		result = doca_comch_client_event_consumer_register(cl, cb_cfg->new_consumer_cb,
								   cb_cfg->expired_consumer_cb);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to register consumer callbacks with error = %s", doca_error_get_name(result));
			goto fail;
		}
	}
	result = doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(hw_dev), &max_msg_size);
	if (result == DOCA_SUCCESS)
		result = doca_comch_client_set_max_msg_size(cl, max_msg_size);
	if (result == DOCA_SUCCESS)
		result = doca_comch_client_set_recv_queue_size(cl, CC_REC_QUEUE_SIZE);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set client limits with error = %s", doca_error_get_name(result));
		goto fail;
	}

	/* A client starts asynchronously: it is connected once progress makes it RUNNING */
	result = doca_ctx_start(ctx);
	if (result != DOCA_ERROR_IN_PROGRESS) {
		DOCA_LOG_ERR("Failed to start client context with error = %s", doca_error_get_name(result));
		if (result == DOCA_SUCCESS)
			result = DOCA_ERROR_BAD_STATE;
		goto fail;
	}
	*client = cl;
	*pe = p;
	return DOCA_SUCCESS;

fail:
	clean_comch_ctrl_path_client(cl, p);
	return result;
}

void clean_comch_ctrl_path_server(struct doca_comch_server *server, struct doca_pe *pe)
{
	doca_error_t result;

	if (server != NULL) {
		if (pe != NULL)
			stop_and_wait(pe, doca_comch_server_as_ctx(server));
		result = doca_comch_server_destroy(server);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy server properly with error = %s", doca_error_get_name(result));
	}
	if (pe != NULL) {
		result = doca_pe_destroy(pe);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy PE properly with error = %s", doca_error_get_name(result));
	}
}

doca_error_t init_comch_ctrl_path_server(const char *server_name, struct doca_dev *hw_dev, struct doca_dev_rep *rep_dev,
					 struct comch_ctrl_path_server_cb_config *cb_cfg, struct doca_comch_server **server,
					 struct doca_pe **pe)
{
	union doca_data user_data = {.ptr = cb_cfg->ctx_user_data};
	struct doca_comch_server *srv = NULL;
	struct doca_pe *p = NULL;
	struct doca_ctx *ctx;
	uint32_t max_msg_size;
	doca_error_t result;

	result = doca_pe_create(&p);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create PE with error = %s", doca_error_get_name(result));
		return result;
	}
	result = doca_comch_server_create(hw_dev, rep_dev, server_name, &srv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create server with error = %s", doca_error_get_name(result));
		goto fail;
	}
	ctx = doca_comch_server_as_ctx(srv);

	result = doca_pe_connect_ctx(p, ctx);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(ctx, cb_cfg->ctx_state_changed_cb);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(ctx, user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the server context with error = %s", doca_error_get_name(result));
		goto fail;
	}
	result = doca_comch_server_task_send_set_conf(srv, cb_cfg->send_task_comp_cb, cb_cfg->send_task_comp_err_cb,
						      CC_SEND_TASK_NUM);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to configure server task pool with error = %s", doca_error_get_name(result));
		goto fail;
	}
	result = doca_comch_server_event_msg_recv_register(srv, cb_cfg->msg_recv_cb);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_event_connection_status_changed_register(
			srv, cb_cfg->server_connection_event_cb, cb_cfg->server_disconnection_event_cb);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to register server callbacks with error = %s", doca_error_get_name(result));
		goto fail;
	}
	if (cb_cfg->data_path_mode) {
		result = doca_comch_server_event_consumer_register(srv, cb_cfg->new_consumer_cb,
								   cb_cfg->expired_consumer_cb);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to register consumer callbacks with error = %s", doca_error_get_name(result));
			goto fail;
		}
	}
	result = doca_comch_cap_get_max_msg_size(doca_dev_as_devinfo(hw_dev), &max_msg_size);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_set_max_msg_size(srv, max_msg_size);
	if (result == DOCA_SUCCESS)
		result = doca_comch_server_set_recv_queue_size(srv, CC_REC_QUEUE_SIZE);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set server limits with error = %s", doca_error_get_name(result));
		goto fail;
	}

	result = doca_ctx_start(ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start server context with error = %s", doca_error_get_name(result));
		goto fail;
	}
	*server = srv;
	*pe = p;
	return DOCA_SUCCESS;

fail:
	clean_comch_ctrl_path_server(srv, p);
	return result;
}
