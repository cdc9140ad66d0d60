/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA receive: post one receive task into local memory as soon as the context runs (a
 * message must find a posted receive), connect to the sender (descriptor files or RDMA-CM),
 * and print what arrives.
 */
#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE::SAMPLE);

static void receive_completed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			      union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *dst = task_user_data.ptr;
	void *data = NULL;
	size_t len = 0, str_len = 0;
	doca_error_t result;

	DOCA_LOG_INFO("RDMA receive task was done Successfully");
	result = doca_buf_get_data(dst, &data);
	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data_len(dst, &len);
	if (result == DOCA_SUCCESS)
		result = check_received_string(data, len, &str_len);
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Got from sender: \"%.*s\"", (int)str_len, (const char *)data);
	else
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);

	doca_task_free(doca_rdma_task_receive_as_task(task));
	(void)doca_buf_dec_refcount(dst, NULL);
	rdma_task_done(resources);
}

static void receive_failed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *dst = task_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_receive_as_task(task));

	DOCA_LOG_ERR("RDMA receive task failed: %s", doca_error_get_descr(status));
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	(void)doca_buf_dec_refcount(dst, NULL);
	rdma_task_done(resources);
}

/* Post the receive before any connection exists, so the sender's message always finds it. */
static doca_error_t receive_submit(struct rdma_resources *resources)
{
	struct doca_rdma_task_receive *task = NULL;
	struct doca_buf *dst = NULL;
	union doca_data task_user_data;
	doca_error_t result;

	result = doca_buf_inventory_buf_get_by_addr(resources->buf_inventory, resources->mmap, resources->mmap_memrange,
						    MEM_RANGE_LEN, &dst);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing destination buffer: %s",
			     doca_error_get_descr(result));
		return result;
	}
	task_user_data.ptr = dst;
	result = doca_rdma_task_receive_allocate_init(resources->rdma, dst, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA receive task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(dst, NULL);
		return result;
	}

	DOCA_LOG_INFO("Submitting RDMA receive task");
	resources->num_remaining_tasks++;
	result = doca_task_submit(doca_rdma_task_receive_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA receive task: %s", doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		doca_task_free(doca_rdma_task_receive_as_task(task));
		(void)doca_buf_dec_refcount(dst, NULL);
		return result;
	}
	DOCA_LOG_INFO("RDMA receive task successfully submitted");
	return DOCA_SUCCESS;
}

/* OOB: export, leave the descriptor for the sender, take the sender's, connect. */
static doca_error_t receive_export_and_connect(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	doca_error_t result;

	result = rdma_export_connection(resources, 0, true);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("You can now copy %s to the sender", cfg->local_connection_desc_path);
	/* DC: the sender connects to us; we need nothing from it */
	if (cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC)
		return DOCA_SUCCESS;
	DOCA_LOG_INFO("Please copy %s from the sender and then press enter", cfg->remote_connection_desc_path);
	wait_for_enter();
	return rdma_connect_connection(resources, 0);
}

/* Connected: the posted receive completes when the message arrives. */
static doca_error_t receive_wait(struct rdma_resources *resources)
{
	(void)resources;
	return DOCA_SUCCESS;
}

doca_error_t rdma_receive(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result, tmp;

	result = allocate_rdma_resources(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
					 rdma_task_receive_supported, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_rdma_task_receive_set_conf(resources.rdma, receive_completed, receive_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA receive task: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		goto destroy_resources;

	resources.before_connect = receive_submit;
	resources.oob_connect = receive_export_and_connect;
	resources.on_connected = receive_wait;
	result = rdma_sample_run(&resources);

destroy_resources:
	tmp = destroy_rdma_resources(&resources, cfg);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA RDMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
