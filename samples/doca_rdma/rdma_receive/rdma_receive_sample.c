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
	size_t str_len = 0;
	doca_error_t result;

	DOCA_LOG_INFO("RDMA receive task was done Successfully");
	result = rdma_received_string(dst, &data, &str_len);
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Got from sender: \"%.*s\"", (int)str_len, (const char *)data);
	else
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);

	rdma_task_release(resources, doca_rdma_task_receive_as_task(task), dst, NULL);
}

static void receive_failed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	rdma_task_failed(ctx_user_data.ptr, doca_rdma_task_receive_as_task(task), "RDMA receive task",
			 task_user_data.ptr, NULL);
}

/* Post the receive before any connection exists, so the sender's message always finds it. */
static doca_error_t receive_submit(struct rdma_resources *resources)
{
	struct doca_rdma_task_receive *task = NULL;
	struct doca_buf *dst = NULL;
	union doca_data task_user_data;
	doca_error_t result;

	result = rdma_get_buf(resources, resources->mmap, resources->mmap_memrange, MEM_RANGE_LEN, false, "destination",
			      &dst);
	if (result != DOCA_SUCCESS)
		return result;
	task_user_data.ptr = dst;
	result = doca_rdma_task_receive_allocate_init(resources->rdma, dst, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA receive task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(dst, NULL);
		return result;
	}

	DOCA_LOG_INFO("Submitting RDMA receive task");
	result = rdma_submit_task(resources, doca_rdma_task_receive_as_task(task), "RDMA receive task", dst, NULL);
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("RDMA receive task successfully submitted");
	return result;
}

doca_error_t rdma_receive(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      rdma_task_receive_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_receive_set_conf(resources.rdma, receive_completed, receive_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA receive task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.before_connect = receive_submit;
	resources.oob_connect = rdma_receiver_export_and_connect;
	resources.on_connected = rdma_step_wait; /* the posted receive completes */
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
