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

/* Release both bufs of a finished write task, then the task. */
static void write_task_release(struct doca_rdma_task_write *task)
{
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_write_get_src_buf(task);
	struct doca_buf *dst = doca_rdma_task_write_get_dst_buf(task);

	doca_task_free(doca_rdma_task_write_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	(void)doca_buf_dec_refcount(dst, NULL);
}

static void write_completed(struct doca_rdma_task_write *task, union doca_data task_user_data,
			    union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA write task was done Successfully");
	DOCA_LOG_INFO("Written to responder \"%s\"", resources->cfg->write_string);
	write_task_release(task);
	rdma_task_done(resources);
}

static void write_failed(struct doca_rdma_task_write *task, union doca_data task_user_data,
			 union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_write_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA write task failed: %s", doca_error_get_descr(status));
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	write_task_release(task);
	rdma_task_done(resources);
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

	result = rdma_import_remote_mmap(resources);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_mmap_get_memrange(resources->remote_mmap, &remote_addr, &remote_len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the remote mmap's memory range: %s", doca_error_get_descr(result));
		return result;
	}
	if (remote_len < len) {
		DOCA_LOG_ERR("The responder exported %zu bytes: too few for the %zu bytes to write", remote_len, len);
		return DOCA_ERROR_INVALID_VALUE;
	}

	memcpy(resources->mmap_memrange, cfg->write_string, len);
	result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, resources->mmap, resources->mmap_memrange,
						    len, &src);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing source buffer: %s",
			     doca_error_get_descr(result));
		return result;
	}
	result = doca_buf_inventory_buf_get_by_addr(resources->buf_inventory, resources->remote_mmap, remote_addr,
						    remote_len, &dst);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing remote buffer: %s",
			     doca_error_get_descr(result));
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
	resources->num_remaining_tasks++;
	result = doca_task_submit(doca_rdma_task_write_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA write task: %s", doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		write_task_release(task);
	}
	return result;
}

doca_error_t rdma_write_requester(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result, tmp;

	result = allocate_rdma_resources(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
					 rdma_task_write_supported, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_rdma_task_write_set_conf(resources.rdma, write_completed, write_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA write task: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		goto destroy_resources;

	resources.negotiation = RDMA_NEGOTIATION_RECV_DESC;
	resources.oob_connect = rdma_requester_export_and_connect;
	resources.on_connected = write_submit;
	result = rdma_sample_run(&resources);

destroy_resources:
	tmp = destroy_rdma_resources(&resources, cfg);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA RDMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
