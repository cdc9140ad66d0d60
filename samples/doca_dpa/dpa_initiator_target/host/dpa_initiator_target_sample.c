/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpa_initiator_target: an initiator and a target RDMA context on the same DPA, connected by
 * two connections. The initiator sends the values 1..4 with immediates 10..13, alternating
 * connections, from host memory (one RPC each; each value has its own slot, as the NIC may
 * read it after the RPC returned); the target holds one receive in DPA memory,
 * and its thread #1 runs once per arrival and reposts it. After the fourth, thread #2 is
 * notified and sets the sync event the host waits for.
 */
#include <doca_error.h>
#include <doca_log.h>

#include "dpa_common.h"
#include "../common/dpa_initiator_target_common_defs.h"

DOCA_LOG_REGISTER(DPA_INITIATOR_TARGET::SAMPLE);

extern doca_dpa_func_t thread1_kernel;
extern doca_dpa_func_t thread2_kernel;
extern doca_dpa_func_t rdma_post_receive_rpc;
extern doca_dpa_func_t rdma_post_send_imm_rpc;

#define WAIT_THRESHOLD 9
#define FIRST_IMMEDIATE 10

struct it_objs {
	struct doca_dpa_completion *initiator_comp, *target_comp;
	doca_dpa_dev_completion_t initiator_comp_handle, target_comp_handle;
	struct doca_dpa_thread *receiver, *finisher;
	struct doca_dpa_notification_completion *notify;
	doca_dpa_dev_notification_completion_t notify_handle;
	doca_dpa_dev_uintptr_t receiver_arg_dev, finisher_arg_dev, recv_dev;
	struct dpa_rdma initiator, target;
	struct doca_sync_event *event;
	doca_dpa_dev_sync_event_t event_handle;
	struct doca_mmap *recv_mmap, *send_mmap;
	doca_dpa_dev_mmap_t recv_mmap_handle, send_mmap_handle;
};

static void teardown(struct dpa_resources *res, struct it_objs *o)
{
	if (o->send_mmap != NULL)
		doca_mmap_destroy(o->send_mmap);
	if (o->recv_mmap != NULL)
		doca_mmap_destroy(o->recv_mmap);
	dpa_mem_teardown(res->rdma_dpa_ctx, o->recv_dev);
	if (o->event != NULL)
		doca_sync_event_destroy(o->event);
	dpa_notification_teardown(o->notify);
	dpa_thread_teardown(o->finisher);
	dpa_mem_teardown(res->rdma_dpa_ctx, o->finisher_arg_dev);
	DOCA_LOG_INFO("Destroy Target DOCA RDMA");
	dpa_rdma_teardown(&o->target);
	dpa_completion_teardown(o->target_comp);
	dpa_thread_teardown(o->receiver);
	dpa_mem_teardown(res->rdma_dpa_ctx, o->receiver_arg_dev);
	DOCA_LOG_INFO("Destroy Initiator DOCA RDMA");
	dpa_rdma_teardown(&o->initiator);
	dpa_completion_teardown(o->initiator_comp);
}

static doca_error_t setup(struct dpa_resources *res, struct it_objs *o, uint64_t *send_values)
{
	struct doca_dpa *dpa = res->rdma_dpa_ctx;
	struct receiver_arg rarg = {0};
	struct finisher_arg farg = {0};
	doca_error_t result;

	DOCA_LOG_INFO("Create Initiator DOCA DPA Completion");
	result = dpa_completion_setup(dpa, EXPECTED_NUM_RECEIVES, NULL, &o->initiator_comp, &o->initiator_comp_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Initialize Initiator DOCA RDMA");
	result = dpa_rdma_setup(res->rdma_doca_device, dpa, o->initiator_comp, EXPECTED_NUM_RECEIVES, 2, &o->initiator);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA DPA Thread #1");
	result = doca_dpa_mem_alloc(dpa, sizeof(rarg), &o->receiver_arg_dev);
	if (result == DOCA_SUCCESS)
		result = dpa_thread_setup(dpa, &thread1_kernel, o->receiver_arg_dev, 0, NULL, &o->receiver);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA DPA Completion");
	result = dpa_completion_setup(dpa, EXPECTED_NUM_RECEIVES, o->receiver, &o->target_comp, &o->target_comp_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Initialize Target DOCA RDMA");
	result = dpa_rdma_setup(res->rdma_doca_device, dpa, o->target_comp, EXPECTED_NUM_RECEIVES, 2, &o->target);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Connect Initiator DOCA RDMA connections #1 and #2 to Target DOCA RDMA");
	result = dpa_rdma_connect_pair(&o->initiator, &o->target);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Run Target DOCA DPA Thread #1");
	result = doca_dpa_thread_run(o->receiver);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA DPA Thread #2");
	result = doca_dpa_mem_alloc(dpa, sizeof(farg), &o->finisher_arg_dev);
	if (result == DOCA_SUCCESS)
		result = dpa_thread_setup(dpa, &thread2_kernel, o->finisher_arg_dev, 0, NULL, &o->finisher);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA DPA Notification Completion");
	result = dpa_notification_setup(dpa, o->finisher, &o->notify, &o->notify_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Run Target DOCA DPA Thread #2");
	result = doca_dpa_thread_run(o->finisher);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create completion DOCA sync event");
	result = create_doca_dpa_completion_sync_event(res->pf_dpa_ctx, res->pf_doca_device, &o->event,
						       &o->event_handle);
	if (result != DOCA_SUCCESS)
		return result;
	farg.event_handle = o->event_handle;
	farg.event_value = WAIT_THRESHOLD + 1;
	result = doca_dpa_h2d_memcpy(dpa, o->finisher_arg_dev, &farg, sizeof(farg));
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA MMAP on DPA for Target DOCA RDMA received buffer");
	result = doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &o->recv_dev);
	if (result == DOCA_SUCCESS)
		result = doca_dpa_memset(dpa, o->recv_dev, 0, sizeof(uint64_t));
	if (result == DOCA_SUCCESS)
		result = dpa_mmap_setup(dpa, res->rdma_doca_device, o->recv_dev, sizeof(uint64_t), &o->recv_mmap,
					&o->recv_mmap_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Update Target DPA thread #1 device argument");
	rarg.dpa_ctx_handle = res->rdma_dpa_ctx_handle;
	rarg.notify_handle = o->notify_handle;
	rarg.comp_handle = o->target_comp_handle;
	rarg.rdma_handle = o->target.handle;
	rarg.recv_addr = o->recv_dev;
	rarg.recv_len = sizeof(uint64_t);
	rarg.mmap_handle = o->recv_mmap_handle;
	result = doca_dpa_h2d_memcpy(dpa, o->receiver_arg_dev, &rarg, sizeof(rarg));
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Initiator DOCA MMAP for send buffer on Host");
	return dpa_mmap_setup(NULL, res->rdma_doca_device, (uint64_t)(uintptr_t)send_values,
			      EXPECTED_NUM_RECEIVES * sizeof(*send_values), &o->send_mmap, &o->send_mmap_handle);
}

doca_error_t dpa_initiator_target(struct dpa_resources *resources)
{
	struct it_objs o = {0};
	uint64_t send_values[EXPECTED_NUM_RECEIVES], retval = 0;
	uint32_t imm = FIRST_IMMEDIATE;
	doca_error_t result;

	for (uint32_t i = 0; i < EXPECTED_NUM_RECEIVES; i++)
		send_values[i] = i + 1;
	result = setup(resources, &o, send_values);
	if (result != DOCA_SUCCESS)
		goto out;
	DOCA_LOG_INFO("Trigger an RPC to prepare Target DPA receive memory");
	result = doca_dpa_rpc(resources->rdma_dpa_ctx, &rdma_post_receive_rpc, &retval, resources->rdma_dpa_ctx_handle,
			      o.target.handle, o.recv_dev, o.recv_mmap_handle, (uint64_t)sizeof(uint64_t));
	for (uint32_t i = 0; result == DOCA_SUCCESS && i < EXPECTED_NUM_RECEIVES; i++, imm++) {
		uint32_t conn_id = o.initiator.conn_id[i % 2];

		DOCA_LOG_INFO("Trigger an RPC to post send on Initiator DOCA RDMA connection #%u with buffer %lu and "
			      "immediate value %u",
			      conn_id, (unsigned long)send_values[i], imm);
		result = doca_dpa_rpc(resources->rdma_dpa_ctx, &rdma_post_send_imm_rpc, &retval,
				      resources->rdma_dpa_ctx_handle, o.initiator.handle, conn_id, &send_values[i],
				      o.send_mmap_handle, (uint64_t)sizeof(send_values[i]), imm);
	}
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_rpc failed (%s)", doca_error_get_descr(result));
		goto out;
	}
	DOCA_LOG_INFO("Waiting for Target Thread #2 to set completion Sync Event value to be greater than %d",
		      WAIT_THRESHOLD);
	result = doca_sync_event_wait_gt(o.event, WAIT_THRESHOLD, SYNC_EVENT_MASK_FFS);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_sync_event_wait_gt failed (%s)", doca_error_get_descr(result));
	else if ((result = doca_dpa_peek_at_last_error(resources->rdma_dpa_ctx)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("The DPA context reported an error (%s)", doca_error_get_descr(result));
	DOCA_LOG_INFO("Tear down");
out:
	teardown(resources, &o);
	return result;
}
