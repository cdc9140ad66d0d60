/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpa_basic_initiator_target: two RDMA contexts on the same DPA, connected to each other. The
 * target posts a receive into DPA memory (an RPC); the initiator posts a send of the value 10
 * from host memory (an RPC). Its arrival activates the target's DPA thread, which sets a sync
 * event to the received value; the host waits for 10.
 */
#include <doca_error.h>
#include <doca_log.h>

#include "dpa_common.h"
#include "../common/dpa_basic_initiator_target_common_defs.h"

DOCA_LOG_REGISTER(DPA_BASIC_INITIATOR_TARGET::SAMPLE);

extern doca_dpa_func_t thread_kernel;
extern doca_dpa_func_t rdma_post_receive_rpc;
extern doca_dpa_func_t rdma_post_send_rpc;

#define SEND_VALUE 10

struct basic_objs {
	struct doca_dpa_completion *initiator_comp, *target_comp;
	doca_dpa_dev_completion_t initiator_comp_handle, target_comp_handle;
	struct doca_dpa_thread *target_thread;
	doca_dpa_dev_uintptr_t arg_dev, recv_dev;
	struct dpa_rdma initiator, target;
	struct doca_sync_event *event;
	doca_dpa_dev_sync_event_t event_handle;
	struct doca_mmap *recv_mmap, *send_mmap;
	doca_dpa_dev_mmap_t recv_mmap_handle, send_mmap_handle;
};

static void teardown(struct dpa_resources *res, struct basic_objs *o)
{
	if (o->send_mmap != NULL)
		doca_mmap_destroy(o->send_mmap);
	if (o->recv_mmap != NULL)
		doca_mmap_destroy(o->recv_mmap);
	dpa_mem_teardown(res->rdma_dpa_ctx, o->recv_dev);
	if (o->event != NULL)
		doca_sync_event_destroy(o->event);
	DOCA_LOG_INFO("Destroy Target DOCA RDMA");
	dpa_rdma_teardown(&o->target);
	dpa_completion_teardown(o->target_comp);
	dpa_thread_teardown(o->target_thread);
	dpa_mem_teardown(res->rdma_dpa_ctx, o->arg_dev);
	DOCA_LOG_INFO("Destroy Initiator DOCA RDMA");
	dpa_rdma_teardown(&o->initiator);
	dpa_completion_teardown(o->initiator_comp);
}

static doca_error_t setup(struct dpa_resources *res, struct basic_objs *o, uint64_t *send_value)
{
	struct doca_dpa *dpa = res->rdma_dpa_ctx;
	struct basic_target_arg arg = {0};
	doca_error_t result;

	DOCA_LOG_INFO("Create Initiator DOCA DPA Completion");
	result = dpa_completion_setup(dpa, 2, NULL, &o->initiator_comp, &o->initiator_comp_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Initialize Initiator DOCA RDMA");
	result = dpa_rdma_setup(res->rdma_doca_device, dpa, o->initiator_comp, 1, 1, &o->initiator);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Allocate Target DPA thread device argument");
	result = doca_dpa_mem_alloc(dpa, sizeof(arg), &o->arg_dev);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA DPA Thread");
	/* the resources file's first EU, if one was given (as DOCA's sample) */
	result = dpa_thread_setup(dpa, &thread_kernel, o->arg_dev, 0,
				  res->num_affinities > 0 ? res->affinities[0] : NULL, &o->target_thread);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA DPA Completion");
	result = dpa_completion_setup(dpa, 2, o->target_thread, &o->target_comp, &o->target_comp_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Initialize Target DOCA RDMA");
	result = dpa_rdma_setup(res->rdma_doca_device, dpa, o->target_comp, 1, 1, &o->target);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Connect Initiator DOCA RDMA to Target DOCA RDMA");
	result = dpa_rdma_connect_pair(&o->initiator, &o->target);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Run Target DOCA DPA Thread");
	result = doca_dpa_thread_run(o->target_thread);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_thread_run failed (%s)", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Create completion DOCA sync event");
	result = create_doca_dpa_completion_sync_event(res->pf_dpa_ctx, res->pf_doca_device, &o->event,
						       &o->event_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Target DOCA MMAP for received buffer on DPA");
	result = doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &o->recv_dev);
	if (result == DOCA_SUCCESS)
		result = doca_dpa_memset(dpa, o->recv_dev, 0, sizeof(uint64_t));
	if (result == DOCA_SUCCESS)
		result = dpa_mmap_setup(dpa, res->rdma_doca_device, o->recv_dev, sizeof(uint64_t), &o->recv_mmap,
					&o->recv_mmap_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Update Target DPA thread device argument");
	arg.dpa_ctx_handle = res->rdma_dpa_ctx_handle;
	arg.comp_handle = o->target_comp_handle;
	arg.recv_addr = o->recv_dev;
	arg.event_handle = o->event_handle;
	result = doca_dpa_h2d_memcpy(dpa, o->arg_dev, &arg, sizeof(arg));
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create Initiator DOCA MMAP for send buffer on Host");
	return dpa_mmap_setup(NULL, res->rdma_doca_device, (uint64_t)(uintptr_t)send_value, sizeof(*send_value),
			      &o->send_mmap, &o->send_mmap_handle);
}

doca_error_t dpa_basic_initiator_target(struct dpa_resources *resources)
{
	struct basic_objs o = {0};
	uint64_t send_value = SEND_VALUE, retval = 0;
	doca_error_t result;

	result = setup(resources, &o, &send_value);
	if (result != DOCA_SUCCESS)
		goto out;
	DOCA_LOG_INFO("Trigger an RPC to prepare Target DPA receive memory");
	result = doca_dpa_rpc(resources->rdma_dpa_ctx, &rdma_post_receive_rpc, &retval, resources->rdma_dpa_ctx_handle,
			      o.target.handle, o.recv_dev, o.recv_mmap_handle, (uint64_t)sizeof(uint64_t));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_rpc failed (%s)", doca_error_get_descr(result));
		goto out;
	}
	DOCA_LOG_INFO("Trigger an RPC to post send on Initiator DOCA RDMA with buffer %lu", (unsigned long)send_value);
	result = doca_dpa_rpc(resources->rdma_dpa_ctx, &rdma_post_send_rpc, &retval, resources->rdma_dpa_ctx_handle,
			      o.initiator.handle, &send_value, o.send_mmap_handle, (uint64_t)sizeof(send_value));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_rpc failed (%s)", doca_error_get_descr(result));
		goto out;
	}
	DOCA_LOG_INFO("Waiting for Target Thread to set completion Sync Event value to be greater than %d",
		      SEND_VALUE - 1);
	result = doca_sync_event_wait_gt(o.event, SEND_VALUE - 1, SYNC_EVENT_MASK_FFS);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_sync_event_wait_gt failed (%s)", doca_error_get_descr(result));
	else if ((result = doca_dpa_peek_at_last_error(resources->rdma_dpa_ctx)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("The DPA context reported an error (%s)", doca_error_get_descr(result));
	DOCA_LOG_INFO("Tear down");
out:
	teardown(resources, &o);
	return result;
}
