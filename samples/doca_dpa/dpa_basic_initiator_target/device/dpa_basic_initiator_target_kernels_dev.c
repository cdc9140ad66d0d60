/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device code of dpa_basic_initiator_target: two RPCs post a receive on the target and a send
 * on the initiator; the send's arrival activates the target's thread, which reads its
 * completion and publishes the received value in a sync event.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_buf.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "../common/dpa_basic_initiator_target_common_defs.h"

__dpa_global__ void thread_kernel(uint64_t arg)
{
	struct basic_target_arg *a = (struct basic_target_arg *)arg;
	doca_dpa_dev_completion_element_t elem;
	uint64_t received;
	int found;

	DOCA_DPA_DEV_LOG_INFO("%s: Hello from Thread\n", __func__);
	if (a->dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(a->dpa_ctx_handle);
	found = doca_dpa_dev_get_completion(a->comp_handle, &elem);
	DOCA_DPA_DEV_LOG_INFO("%s: doca_dpa_dev_get_completion() returned %d\n", __func__, found);
	received = *(uint64_t *)a->recv_addr;
	if (found) {
		DOCA_DPA_DEV_LOG_INFO("%s: doca_dpa_dev_get_completion_type() returned %d\n", __func__,
				      doca_dpa_dev_get_completion_type(elem));
		DOCA_DPA_DEV_LOG_INFO("%s: doca_dpa_dev_get_completion_user_data() returned %u\n", __func__,
				      doca_dpa_dev_get_completion_user_data(elem));
		DOCA_DPA_DEV_LOG_INFO("%s: Value of DPA received buffer is %lu\n", __func__, received);
		doca_dpa_dev_completion_ack(a->comp_handle, 1);
	}
	DOCA_DPA_DEV_LOG_INFO("%s: Set sync event to %lu\n", __func__, received);
	doca_dpa_dev_sync_event_update_set(a->event_handle, received);
	DOCA_DPA_DEV_LOG_INFO("%s: Finish\n", __func__);
	doca_dpa_dev_thread_finish();
}

__dpa_rpc__ uint64_t rdma_post_receive_rpc(doca_dpa_dev_t dpa_ctx_handle, doca_dpa_dev_rdma_t rdma,
					   doca_dpa_dev_uintptr_t addr, doca_dpa_dev_mmap_t mmap, uint64_t length)
{
	DOCA_DPA_DEV_LOG_INFO("%s: Post RDMA receive on DPA Mmap handle %u, address 0x%lx, length %lu\n", __func__,
			      mmap, addr, length);
	if (dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(dpa_ctx_handle);
	doca_dpa_dev_rdma_post_receive(rdma, mmap, addr, length);
	return 0;
}

__dpa_rpc__ uint64_t rdma_post_send_rpc(doca_dpa_dev_t dpa_ctx_handle, doca_dpa_dev_rdma_t rdma, uintptr_t addr,
					doca_dpa_dev_mmap_t mmap, uint64_t length)
{
	DOCA_DPA_DEV_LOG_INFO("%s: Post RDMA send on DPA Mmap handle %u, address 0x%lx, length %lu\n", __func__, mmap,
			      (unsigned long)addr, length);
	if (dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(dpa_ctx_handle);
	doca_dpa_dev_rdma_post_send(rdma, 0, mmap, addr, length,
				    DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH | DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS);
	return 0;
}
