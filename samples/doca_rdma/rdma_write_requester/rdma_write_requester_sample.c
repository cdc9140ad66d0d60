/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA write requester: connect to the responder, import the memory it exported (descriptor
 * file, or an RDMA receive once RDMA-CM connected) and write the -w string into it with one
 * write task.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_REQUESTER::SAMPLE);

static void write_completed(struct doca_rdma_task_write *task, union doca_data task_user_data,
			    union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA write task was done Successfully");
	DOCA_LOG_INFO("Written to responder \"%s\"", resources->cfg->write_string);
	rdma_task_release(resources, doca_rdma_task_write_as_task(task),
			  (struct doca_buf *)doca_rdma_task_write_get_src_buf(task), doca_rdma_task_write_get_dst_buf(task));
}

static void write_failed(struct doca_rdma_task_write *task, union doca_data task_user_data,
			 union doca_data ctx_user_data)
{
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_write_get_src_buf(task);
	struct doca_buf *dst = doca_rdma_task_write_get_dst_buf(task);

	(void)task_user_data;
	rdma_task_failed(ctx_user_data.ptr, doca_rdma_task_write_as_task(task), "RDMA write task", src, dst);
}

/* Connected, the responder's export at hand: write the string into its memory. */
static doca_error_t write_submit(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	struct doca_rdma_task_write *task = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	union doca_data task_user_data = {.ptr = NULL};
	size_t len = strlen(cfg->write_string) + 1; /* the NUL travels too */
	void *remote_addr = NULL;
	size_t remote_len = 0;
	doca_error_t result;

	result = rdma_remote_memrange(resources, &remote_addr, &remote_len);
	if (result != DOCA_SUCCESS)
		return result;
	if (remote_len < len) {
		DOCA_LOG_ERR("The responder exported %zu bytes: too few for the %zu bytes to write", remote_len, len);
		return DOCA_ERROR_INVALID_VALUE;
	}

	memcpy(resources->mmap_memrange, cfg->write_string, len);
	result = rdma_get_buf(resources, resources->mmap, resources->mmap_memrange, len, true, "source", &src);
	if (result != DOCA_SUCCESS)
		return result;
	result = rdma_get_buf(resources, resources->remote_mmap, remote_addr, remote_len, false, "remote", &dst);
	if (result != DOCA_SUCCESS) {
		(void)doca_buf_dec_refcount(src, NULL);
		return result;
	}
	result = doca_rdma_task_write_allocate_init(resources->rdma, rdma_connection(resources), src, dst,
						    task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA write task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(src, NULL);
		(void)doca_buf_dec_refcount(dst, NULL);
		return result;
	}

	DOCA_LOG_INFO("Submitting RDMA write task that writes \"%s\" to the responder", cfg->write_string);
	return rdma_submit_task(resources, doca_rdma_task_write_as_task(task), "RDMA write task", src, dst);
}

doca_error_t rdma_write_requester(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      rdma_task_write_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_write_set_conf(resources.rdma, write_completed, write_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA write task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.negotiation = RDMA_NEGOTIATION_RECV_DESC;
	resources.oob_connect = rdma_requester_export_and_connect;
	resources.on_connected = write_submit;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
