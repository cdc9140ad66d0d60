/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA send with immediate: connect to the receiver, then send the -s string with the immediate
 * value 0xABCD in one send-with-immediate task.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SEND_IMMEDIATE::SAMPLE);

static void send_completed(struct doca_rdma_task_send_imm *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	DOCA_LOG_INFO("RDMA send with immediate task was done successfully");
	rdma_task_release(ctx_user_data.ptr, doca_rdma_task_send_imm_as_task(task), task_user_data.ptr, NULL);
}

static void send_failed(struct doca_rdma_task_send_imm *task, union doca_data task_user_data,
			union doca_data ctx_user_data)
{
	rdma_task_failed(ctx_user_data.ptr, doca_rdma_task_send_imm_as_task(task), "RDMA send with immediate task", task_user_data.ptr,
			 NULL);
}

static doca_error_t send_submit(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	struct doca_rdma_task_send_imm *task = NULL;
	struct doca_buf *src = NULL;
	union doca_data task_user_data;
	size_t len = strlen(cfg->send_string) + 1; /* the NUL travels too */
	doca_error_t result;

	memcpy(resources->mmap_memrange, cfg->send_string, len);
	result = rdma_get_buf(resources, resources->mmap, resources->mmap_memrange, len, true, "source", &src);
	if (result != DOCA_SUCCESS)
		return result;
	task_user_data.ptr = src;
	result = doca_rdma_task_send_imm_allocate_init(resources->rdma, rdma_connection(resources), src,
						       EXAMPLE_IMMEDIATE_VALUE, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA send with immediate task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(src, NULL);
		return result;
	}

	DOCA_LOG_INFO("Submitting RDMA send with immediate task that sends \"%s\" with immediate value %u to receiver",
		      cfg->send_string, EXAMPLE_IMMEDIATE_VALUE);
	return rdma_submit_task(resources, doca_rdma_task_send_imm_as_task(task), "RDMA send with immediate task", src,
				NULL);
}

doca_error_t rdma_send_immediate(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      rdma_task_send_imm_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_send_imm_set_conf(resources.rdma, send_completed, send_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA send with immediate task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.oob_connect = rdma_sender_export_and_connect;
	resources.on_connected = send_submit;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
