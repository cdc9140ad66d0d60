/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA read requester: connect to the responder, import the memory it exported (descriptor
 * file, or an RDMA receive once RDMA-CM connected) and read all of it into local memory with
 * one read task, then print the string it holds.
 */
#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_READ_REQUESTER::SAMPLE);

static void read_completed(struct doca_rdma_task_read *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	size_t str_len = 0;
	doca_error_t result;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA read task was done Successfully");
	result = check_received_string(resources->mmap_memrange, MEM_RANGE_LEN, &str_len);
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Read from responder: \"%.*s\"", (int)str_len, resources->mmap_memrange);
	else
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
	rdma_task_release(resources, doca_rdma_task_read_as_task(task),
			  (struct doca_buf *)doca_rdma_task_read_get_src_buf(task), doca_rdma_task_read_get_dst_buf(task));
}

static void read_failed(struct doca_rdma_task_read *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_read_get_src_buf(task);
	struct doca_buf *dst = doca_rdma_task_read_get_dst_buf(task);

	(void)task_user_data;
	rdma_task_failed(ctx_user_data.ptr, doca_rdma_task_read_as_task(task), "RDMA read task", src, dst);
}

/* Connected, the responder's export at hand: read its memory. */
static doca_error_t read_submit(struct rdma_resources *resources)
{
	struct doca_rdma_task_read *task = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	union doca_data task_user_data = {.ptr = NULL};
	void *remote_addr = NULL;
	size_t remote_len = 0;
	doca_error_t result;

	result = rdma_remote_memrange(resources, &remote_addr, &remote_len);
	if (result != DOCA_SUCCESS)
		return result;
	if (remote_len > MEM_RANGE_LEN) {
		DOCA_LOG_ERR("The responder exported %zu bytes: more than the %d local bytes to read them into",
			     remote_len, MEM_RANGE_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}

	result = rdma_get_buf(resources, resources->remote_mmap, remote_addr, remote_len, true, "remote", &src);
	if (result != DOCA_SUCCESS)
		return result;
	result = rdma_get_buf(resources, resources->mmap, resources->mmap_memrange, MEM_RANGE_LEN, false, "destination",
			      &dst);
	if (result != DOCA_SUCCESS) {
		(void)doca_buf_dec_refcount(src, NULL);
		return result;
	}
	result = doca_rdma_task_read_allocate_init(resources->rdma, rdma_connection(resources), src, dst,
						   task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA read task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(src, NULL);
		(void)doca_buf_dec_refcount(dst, NULL);
		return result;
	}

	DOCA_LOG_INFO("Submitting RDMA read task");
	return rdma_submit_task(resources, doca_rdma_task_read_as_task(task), "RDMA read task", src, dst);
}

doca_error_t rdma_read_requester(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      rdma_task_read_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_read_set_conf(resources.rdma, read_completed, read_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA read task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.negotiation = RDMA_NEGOTIATION_RECV_DESC;
	resources.oob_connect = rdma_requester_export_and_connect;
	resources.on_connected = read_submit;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
