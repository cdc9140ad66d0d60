/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA send: connect to the receiver (descriptor files or RDMA-CM), then send the -s string
 * from local memory in one send task.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SEND::SAMPLE);

static void send_completed(struct doca_rdma_task_send *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	DOCA_LOG_INFO("RDMA send task was done successfully");
	rdma_task_release(ctx_user_data.ptr, doca_rdma_task_send_as_task(task), task_user_data.ptr, NULL);
}

static void send_failed(struct doca_rdma_task_send *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	rdma_task_failed(ctx_user_data.ptr, doca_rdma_task_send_as_task(task), "RDMA send task", task_user_data.ptr,
			 NULL);
}

static doca_error_t send_submit(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	struct doca_rdma_task_send *task = NULL;
	struct doca_buf *src = NULL;
	union doca_data task_user_data;
	size_t len = strlen(cfg->send_string) + 1; /* the NUL travels too */
	doca_error_t result;

	memcpy(resources->mmap_memrange, cfg->send_string, len);
	result = rdma_get_buf(resources, resources->mmap, resources->mmap_memrange, len, true, "source", &src);
	if (result != DOCA_SUCCESS)
		return result;
	task_user_data.ptr = src;
	result = doca_rdma_task_send_allocate_init(resources->rdma, rdma_connection(resources), src, task_user_data,
						   &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA send task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(src, NULL);
		return result;
	}

	DOCA_LOG_INFO("Submitting RDMA send task that sends \"%s\" to receiver", cfg->send_string);
	return rdma_submit_task(resources, doca_rdma_task_send_as_task(task), "RDMA send task", src, NULL);
}

doca_error_t rdma_send(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      rdma_task_send_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_send_set_conf(resources.rdma, send_completed, send_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA send task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.oob_connect = rdma_sender_export_and_connect;
	resources.on_connected = send_submit;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
