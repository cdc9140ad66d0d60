/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA multi-connection send: establish -nc connections (one descriptor exchange after the
 * other out of band; with RDMA-CM a server accepts -nc clients, a client makes one), then
 * send the -s string on every connection.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_MULTI_CONN_SEND::SAMPLE);

static void send_completed(struct doca_rdma_task_send *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA send task was done successfully");
	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	rdma_task_done(resources);
}

static void send_failed(struct doca_rdma_task_send *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);
	doca_error_t status = doca_task_get_status(doca_rdma_task_send_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA send task failed: %s", doca_error_get_descr(status));
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	rdma_task_done(resources);
}

/* OOB: one export / descriptor exchange / connect round per connection. */
static doca_error_t multi_conn_send_export_and_connect(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	bool is_dc = cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC;
	doca_error_t result;

	for (uint32_t i = 0; i < cfg->num_connections; i++) {
		DOCA_LOG_INFO("Start to establish RDMA connection [%u]", i);
		result = rdma_export_connection(resources, i, !is_dc);
		if (result != DOCA_SUCCESS)
			return result;
		if (!is_dc)
			DOCA_LOG_INFO("You can now copy %s to the receiver", cfg->local_connection_desc_path);
		DOCA_LOG_INFO(
			"Please copy %s from the receiver and then press enter after pressing enter in the receiver side",
			cfg->remote_connection_desc_path);
		wait_for_enter();
		result = rdma_connect_connection(resources, i);
		if (result != DOCA_SUCCESS)
			return result;
		DOCA_LOG_INFO("RDMA connection [%u] is establshed", i);
		/* This round's descriptors are spent: the next round writes and reads new ones */
		delete_file(cfg->local_connection_desc_path);
		delete_file(cfg->remote_connection_desc_path);
	}
	DOCA_LOG_INFO("All [%u] RDMA connections have been establshed", cfg->num_connections);
	return DOCA_SUCCESS;
}

/* Every connection is up: one send on each. */
static doca_error_t multi_conn_send_submit(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	size_t len = strlen(cfg->send_string) + 1; /* the NUL travels too */
	union doca_data task_user_data = {.ptr = NULL};
	doca_error_t result;

	memcpy(resources->mmap_memrange, cfg->send_string, len);
	for (uint32_t i = 0; i < resources->num_expected_connections; i++) {
		struct doca_rdma_task_send *task = NULL;
		struct doca_buf *src = NULL;

		result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, resources->mmap,
							    resources->mmap_memrange, len, &src);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing source buffer: %s",
				     doca_error_get_descr(result));
			return result;
		}
		result = doca_rdma_task_send_allocate_init(resources->rdma, resources->connections[i], src,
							   task_user_data, &task);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to allocate RDMA send task: %s", doca_error_get_descr(result));
			(void)doca_buf_dec_refcount(src, NULL);
			return result;
		}
		DOCA_LOG_INFO(
			"Submitting RDMA send task [%u] that sends \"%s\" to receiver, sender's rdma_connection address [%p]",
			i, cfg->send_string, (void *)resources->connections[i]);
		resources->num_remaining_tasks++;
		result = doca_task_submit(doca_rdma_task_send_as_task(task));
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to submit RDMA send task: %s", doca_error_get_descr(result));
			resources->num_remaining_tasks--;
			doca_task_free(doca_rdma_task_send_as_task(task));
			(void)doca_buf_dec_refcount(src, NULL);
			return result;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t rdma_multi_conn_send(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result, tmp;

	result = allocate_rdma_resources(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
					 rdma_task_send_supported, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_rdma_task_send_set_conf(resources.rdma, send_completed, send_failed, cfg->num_connections);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA send task: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		goto destroy_resources;

	resources.log_connections = true;
	resources.oob_connect = multi_conn_send_export_and_connect;
	resources.on_connected = multi_conn_send_submit;
	result = rdma_sample_run(&resources);

destroy_resources:
	tmp = destroy_rdma_resources(&resources, cfg);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA RDMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
