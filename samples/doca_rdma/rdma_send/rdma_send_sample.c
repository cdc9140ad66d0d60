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
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *src = task_user_data.ptr;

	DOCA_LOG_INFO("RDMA send task was done successfully");
	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	rdma_task_done(resources);
}

static void send_failed(struct doca_rdma_task_send *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *src = task_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_send_as_task(task));

	DOCA_LOG_ERR("RDMA send task failed: %s", doca_error_get_descr(status));
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	rdma_task_done(resources);
}

/* OOB: export, leave the descriptor for the receiver, take the receiver's, connect. */
static doca_error_t send_export_and_connect(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	bool is_dc = cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC;
	doca_error_t result;

	/* DC: the receiver needs nothing from the sender */
	result = rdma_export_connection(resources, 0, !is_dc);
	if (result != DOCA_SUCCESS)
		return result;
	if (!is_dc)
		DOCA_LOG_INFO("You can now copy %s to the receiver", cfg->local_connection_desc_path);
	DOCA_LOG_INFO("Please copy %s from the receiver and then press enter after pressing enter in the receiver side",
		      cfg->remote_connection_desc_path);
	wait_for_enter();
	return rdma_connect_connection(resources, 0);
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
	result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, resources->mmap, resources->mmap_memrange,
						    len, &src);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing source buffer: %s",
			     doca_error_get_descr(result));
		return result;
	}
	task_user_data.ptr = src;
	result = doca_rdma_task_send_allocate_init(resources->rdma, rdma_connection(resources), src, task_user_data,
						   &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA send task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(src, NULL);
		return result;
	}

	DOCA_LOG_INFO("Submitting RDMA send task that sends \"%s\" to receiver", cfg->send_string);
	resources->num_remaining_tasks++;
	result = doca_task_submit(doca_rdma_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA send task: %s", doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		doca_task_free(doca_rdma_task_send_as_task(task));
		(void)doca_buf_dec_refcount(src, NULL);
	}
	return result;
}

doca_error_t rdma_send(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result, tmp;

	result = allocate_rdma_resources(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
					 rdma_task_send_supported, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_rdma_task_send_set_conf(resources.rdma, send_completed, send_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA send task: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		goto destroy_resources;

	resources.oob_connect = send_export_and_connect;
	resources.on_connected = send_submit;
	result = rdma_sample_run(&resources);

destroy_resources:
	tmp = destroy_rdma_resources(&resources, cfg);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA RDMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
