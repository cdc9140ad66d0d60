/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA write with immediate, responder: export zeroed local memory for RDMA write and post a
 * receive task (no buffer: the write carries the data, the receive only its immediate) before
 * connecting. When the receive completes as a write with immediate 0xABCD, print the memory.
 */
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_IMMEDIATE_RESPONDER::SAMPLE);

static void receive_completed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			      union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	enum doca_rdma_opcode opcode = doca_rdma_task_receive_get_result_opcode(task);
	doca_be32_t immediate = doca_rdma_task_receive_get_result_immediate_data(task);
	size_t str_len = 0;
	doca_error_t result = DOCA_SUCCESS;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA receive task was done Successfully");
	if (opcode != DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM) {
		DOCA_LOG_ERR("The receive task did not complete with a write with immediate (opcode %d)", (int)opcode);
		result = DOCA_ERROR_UNEXPECTED;
	} else if (immediate != EXAMPLE_IMMEDIATE_VALUE) {
		DOCA_LOG_ERR("Received immediate %u, expected %u", (unsigned int)immediate, EXAMPLE_IMMEDIATE_VALUE);
		result = DOCA_ERROR_UNEXPECTED;
	} else {
		result = check_received_string(resources->mmap_memrange, MEM_RANGE_LEN, &str_len);
	}
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Requester has written: \"%.*s\" with immediate data: %u", (int)str_len,
			      resources->mmap_memrange, (unsigned int)immediate);
	else
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);

	doca_task_free(doca_rdma_task_receive_as_task(task));
	rdma_task_done(resources);
}

static void receive_failed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_receive_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA receive task failed: %s", doca_error_get_descr(status));
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	rdma_task_done(resources);
}

/* The write with immediate consumes a receive: it must be posted before the requester writes. */
static doca_error_t receive_submit(struct rdma_resources *resources)
{
	struct doca_rdma_task_receive *task = NULL;
	union doca_data task_user_data = {.ptr = NULL};
	doca_error_t result;

	result = doca_rdma_task_receive_allocate_init(resources->rdma, NULL, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA receive task: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Submitting RDMA receive task");
	resources->num_remaining_tasks++;
	result = doca_task_submit(doca_rdma_task_receive_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA receive task: %s", doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		doca_task_free(doca_rdma_task_receive_as_task(task));
	}
	return result;
}

/* Connected and the export handed over: the receive completes when the requester wrote. */
static doca_error_t write_immediate_responder_wait(struct rdma_resources *resources)
{
	(void)resources;
	return DOCA_SUCCESS;
}

doca_error_t rdma_write_immediate_responder(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result, tmp;

	result = allocate_rdma_resources(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE,
					 DOCA_ACCESS_FLAG_RDMA_WRITE, rdma_task_receive_supported, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_rdma_task_receive_set_conf(resources.rdma, receive_completed, receive_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA receive task: %s", doca_error_get_descr(result));
		goto destroy_resources;
	}
	result = rdma_export_local_mmap(&resources);
	if (result != DOCA_SUCCESS)
		goto destroy_resources;

	resources.negotiation = RDMA_NEGOTIATION_SEND_DESC;
	resources.before_connect = receive_submit;
	resources.oob_connect = rdma_responder_export_and_connect;
	resources.on_connected = write_immediate_responder_wait;
	result = rdma_sample_run(&resources);

destroy_resources:
	tmp = destroy_rdma_resources(&resources, cfg);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA RDMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}
