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
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA send task was done successfully");
	rdma_task_release(ctx_user_data.ptr, doca_rdma_task_send_as_task(task), src, NULL);
}

static void send_failed(struct doca_rdma_task_send *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);

	(void)task_user_data;
	rdma_task_failed(ctx_user_data.ptr, doca_rdma_task_send_as_task(task), "RDMA send task", src, NULL);
}

/* OOB: one export / descriptor exchange / connect round per connection. */
static doca_error_t multi_conn_send_export_and_connect(struct rdma_resources *resources)
{
	return rdma_multi_conn_export_and_connect(resources, true);
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

		result = rdma_get_buf(resources, resources->mmap, resources->mmap_memrange, len, true, "source", &src);
		if (result != DOCA_SUCCESS)
			return result;
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
		result = rdma_submit_task(resources, doca_rdma_task_send_as_task(task), "RDMA send task", src, NULL);
		if (result != DOCA_SUCCESS)
			return result;
	}
	return DOCA_SUCCESS;
}

doca_error_t rdma_multi_conn_send(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      rdma_task_send_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_send_set_conf(resources.rdma, send_completed, send_failed, cfg->num_connections);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA send task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.log_connections = true;
	resources.oob_connect = multi_conn_send_export_and_connect;
	resources.on_connected = multi_conn_send_submit;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
