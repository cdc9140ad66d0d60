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

/* Release both bufs of a finished read task, then the task. */
static void read_task_release(struct doca_rdma_task_read *task)
{
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_read_get_src_buf(task);
	struct doca_buf *dst = doca_rdma_task_read_get_dst_buf(task);

	doca_task_free(doca_rdma_task_read_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	(void)doca_buf_dec_refcount(dst, NULL);
}

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
	read_task_release(task);
	rdma_task_done(resources);
}

static void read_failed(struct doca_rdma_task_read *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_read_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA read task failed: %s", doca_error_get_descr(status));
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	read_task_release(task);
	rdma_task_done(resources);
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

	result = rdma_import_remote_mmap(resources);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_mmap_get_memrange(resources->remote_mmap, &remote_addr, &remote_len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the remote mmap's memory range: %s", doca_error_get_descr(result));
		return result;
	}
	if (remote_len > MEM_RANGE_LEN) {
		DOCA_LOG_ERR("The responder exported %zu bytes: more than the %d local bytes to read them into",
			     remote_len, MEM_RANGE_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}

	result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, resources->remote_mmap, remote_addr,
						    remote_len, &src);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing remote buffer: %s",
			     doca_error_get_descr(result));
		return result;
	}
	result = doca_buf_inventory_buf_get_by_addr(resources->buf_inventory, resources->mmap, resources->mmap_memrange,
						    MEM_RANGE_LEN, &dst);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing destination buffer: %s",
			     doca_error_get_descr(result));
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
	resources->num_remaining_tasks++;
	result = doca_task_submit(doca_rdma_task_read_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA read task: %s", doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		read_task_release(task);
	}
	return result;
}

doca_error_t rdma_read_requester(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result, tmp;

	result = allocate_rdma_resources(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
					 rdma_task_read_supported, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_rdma_task_read_set_conf(resources.rdma, read_completed, read_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA read task: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		goto destroy_resources;

	resources.negotiation = RDMA_NEGOTIATION_RECV_DESC;
	resources.oob_connect = rdma_requester_export_and_connect;
	resources.on_connected = read_submit;
	result = rdma_sample_run(&resources);

destroy_resources:
	tmp = destroy_rdma_resources(&resources, cfg);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA RDMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
