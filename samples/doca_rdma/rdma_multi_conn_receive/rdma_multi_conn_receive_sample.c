/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA multi-connection receive: post one receive per expected connection as soon as the
 * context runs, establish -nc connections (one descriptor exchange after the other out of
 * band; with RDMA-CM a server accepts -nc clients, a client makes one), and print each message
 * with the connection it came on.
 */
#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_MULTI_CONN_RECEIVE::SAMPLE);

#define SLOT_LEN (MEM_RANGE_LEN / MAX_NUM_CONNECTIONS) /* local memory of one receive */

static void receive_completed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			      union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(task);
	const struct doca_rdma_connection *connection = doca_rdma_task_receive_get_result_rdma_connection(task);
	void *data = NULL;
	size_t str_len = 0;
	doca_error_t result;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA receive task was done successfully");
	result = rdma_received_string(dst, &data, &str_len);
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Got from sender: \"%.*s\", sender's rdma_connection address [%p]", (int)str_len,
			      (const char *)data, (const void *)connection);
	else
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);

	rdma_task_release(resources, doca_rdma_task_receive_as_task(task), dst, NULL);
}

static void receive_failed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(task);
	doca_error_t status = doca_task_get_status(doca_rdma_task_receive_as_task(task));

	(void)task_user_data;
	/* A stop flushes the receives no message claimed: only the first failure counts */
	if (!resources->stop_requested) {
		DOCA_LOG_ERR("RDMA receive task failed: %s", doca_error_get_descr(status));
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	}
	doca_task_free(doca_rdma_task_receive_as_task(task));
	(void)doca_buf_dec_refcount(dst, NULL);
	if (resources->stop_requested) {
		if (resources->num_remaining_tasks > 0)
			resources->num_remaining_tasks--;
		return;
	}
	rdma_fail(resources, status);
}

/* One receive per expected connection, before any connection exists. */
static doca_error_t multi_conn_receive_submit(struct rdma_resources *resources)
{
	union doca_data task_user_data = {.ptr = NULL};
	doca_error_t result;

	for (uint32_t i = 0; i < resources->num_expected_connections; i++) {
		struct doca_rdma_task_receive *task = NULL;
		struct doca_buf *dst = NULL;

		result = rdma_get_buf(resources, resources->mmap, resources->mmap_memrange + (size_t)i * SLOT_LEN,
				      SLOT_LEN, false, "destination", &dst);
		if (result != DOCA_SUCCESS)
			return result;
		result = doca_rdma_task_receive_allocate_init(resources->rdma, dst, task_user_data, &task);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to allocate RDMA receive task: %s", doca_error_get_descr(result));
			(void)doca_buf_dec_refcount(dst, NULL);
			return result;
		}
		DOCA_LOG_INFO("Submitting RDMA receive task [%u]", i);
		result = rdma_submit_task(resources, doca_rdma_task_receive_as_task(task), "RDMA receive task", dst,
					  NULL);
		if (result != DOCA_SUCCESS)
			return result;
	}
	DOCA_LOG_INFO("All RDMA receive tasks have been successfully submitted");
	return DOCA_SUCCESS;
}

/* OOB: one export / descriptor exchange / connect round per connection. */
static doca_error_t multi_conn_receive_export_and_connect(struct rdma_resources *resources)
{
	return rdma_multi_conn_export_and_connect(resources, false);
}

doca_error_t rdma_multi_conn_receive(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      rdma_task_receive_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_receive_set_conf(resources.rdma, receive_completed, receive_failed,
						 cfg->num_connections);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA receive task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.log_connections = true;
	resources.before_connect = multi_conn_receive_submit;
	resources.oob_connect = multi_conn_receive_export_and_connect;
	resources.on_connected = rdma_step_wait; /* the posted receives complete */
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
