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

	rdma_task_release(resources, doca_rdma_task_receive_as_task(task), NULL, NULL);
}

static void receive_failed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
			   union doca_data ctx_user_data)
{
	(void)task_user_data;
	rdma_task_failed(ctx_user_data.ptr, doca_rdma_task_receive_as_task(task), "RDMA receive task", NULL, NULL);
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
	return rdma_submit_task(resources, doca_rdma_task_receive_as_task(task), "RDMA receive task", NULL, NULL);
}

doca_error_t rdma_write_immediate_responder(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE,
				      DOCA_ACCESS_FLAG_RDMA_WRITE, rdma_task_receive_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_receive_set_conf(resources.rdma, receive_completed, receive_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA receive task: %s", doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_export_local_mmap(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.negotiation = RDMA_NEGOTIATION_SEND_DESC;
	resources.before_connect = receive_submit;
	resources.oob_connect = rdma_responder_export_and_connect;
	resources.on_connected = rdma_step_wait; /* the receive completes when the requester wrote */
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
