/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device code of dpa_initiator_target: the initiator sends four values with immediates over
 * two connections; the target's thread #1 runs once per arrival (it reposts the receive and
 * asks for the next notification), checks that every value came, and notifies thread #2,
 * which sets the host's sync event.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_buf.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "../common/dpa_initiator_target_common_defs.h"

/* device globals: one copy per DPA context */
static uint32_t seen[EXPECTED_NUM_RECEIVES];
static uint32_t num_received;

__dpa_global__ void thread1_kernel(uint64_t arg)
{
	struct receiver_arg *a = (struct receiver_arg *)arg;
	doca_dpa_dev_completion_element_t elem;
	uint64_t value;
	int found;

	DOCA_DPA_DEV_LOG_INFO("%s: Hello from Thread #1\n", __func__);
	if (a->dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(a->dpa_ctx_handle);
	found = doca_dpa_dev_get_completion(a->comp_handle, &elem);
	DOCA_DPA_DEV_LOG_INFO("%s: doca_dpa_dev_get_completion() returned %d\n", __func__, found);
	if (!found) {
		doca_dpa_dev_completion_request_notification(a->comp_handle);
		doca_dpa_dev_thread_reschedule();
	}
	num_received++;
	DOCA_DPA_DEV_LOG_INFO("%s: doca_dpa_dev_get_completion_type() returned %d\n", __func__,
			      doca_dpa_dev_get_completion_type(elem));
	DOCA_DPA_DEV_LOG_INFO("%s: doca_dpa_dev_get_completion_immediate() returned %u\n", __func__,
			      doca_dpa_dev_get_completion_immediate(elem));
	DOCA_DPA_DEV_LOG_INFO("%s: doca_dpa_dev_get_completion_user_data() returned %u\n", __func__,
			      doca_dpa_dev_get_completion_user_data(elem));
	value = *(uint64_t *)a->recv_addr;
	DOCA_DPA_DEV_LOG_INFO("%s: Value of DPA received buffer is %lu\n", __func__, value);
	if (value >= 1 && value <= EXPECTED_NUM_RECEIVES)
		seen[value - 1] = 1;

	if (num_received == EXPECTED_NUM_RECEIVES) {
		for (uint32_t i = 0; i < EXPECTED_NUM_RECEIVES; i++) {
			if (!seen[i]) {
				DOCA_DPA_DEV_LOG_ERR("%s: Thread #1 didn't receive data with value %u\n", __func__, i + 1);
				doca_dpa_dev_thread_finish();
			}
		}
		DOCA_DPA_DEV_LOG_INFO("%s: Received all data values, Notify Thread #2\n", __func__);
		doca_dpa_dev_completion_ack(a->comp_handle, 1);
		doca_dpa_dev_thread_notify(a->notify_handle);
		DOCA_DPA_DEV_LOG_INFO("%s: Finish\n", __func__);
		doca_dpa_dev_thread_finish();
	}
	DOCA_DPA_DEV_LOG_INFO("%s: Repost RDMA receive on DPA Mmap handle 0x%x, address 0x%lx, length %lu\n", __func__,
			      a->mmap_handle, a->recv_addr, a->recv_len);
	doca_dpa_dev_rdma_post_receive(a->rdma_handle, a->mmap_handle, a->recv_addr, a->recv_len);
	DOCA_DPA_DEV_LOG_INFO("%s: Acknowledge and request another notification\n", __func__);
	doca_dpa_dev_completion_ack(a->comp_handle, 1);
	doca_dpa_dev_completion_request_notification(a->comp_handle);
	DOCA_DPA_DEV_LOG_INFO("%s: Reschedule\n", __func__);
	doca_dpa_dev_thread_reschedule();
}

__dpa_global__ void thread2_kernel(uint64_t arg)
{
	struct finisher_arg *a = (struct finisher_arg *)arg;

	DOCA_DPA_DEV_LOG_INFO("%s: Hello from Thread #2\n", __func__);
	DOCA_DPA_DEV_LOG_INFO("%s: Set sync event value to %lu\n", __func__, a->event_value);
	doca_dpa_dev_sync_event_update_set(a->event_handle, a->event_value);
	DOCA_DPA_DEV_LOG_INFO("%s: Finish\n", __func__);
	doca_dpa_dev_thread_finish();
}

__dpa_rpc__ uint64_t rdma_post_receive_rpc(doca_dpa_dev_t dpa_ctx_handle, doca_dpa_dev_rdma_t rdma,
					   doca_dpa_dev_uintptr_t addr, doca_dpa_dev_mmap_t mmap, uint64_t length)
{
	DOCA_DPA_DEV_LOG_INFO("%s: Target RDMA post receive on DPA Mmap handle 0x%x, address 0x%lx, length %lu\n",
			      __func__, mmap, addr, length);
	if (dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(dpa_ctx_handle);
	doca_dpa_dev_rdma_post_receive(rdma, mmap, addr, length);
	return 0;
}

__dpa_rpc__ uint64_t rdma_post_send_imm_rpc(doca_dpa_dev_t dpa_ctx_handle, doca_dpa_dev_rdma_t rdma,
					    uint32_t connection_id, uintptr_t addr, doca_dpa_dev_mmap_t mmap,
					    uint64_t length, uint32_t immediate)
{
	DOCA_DPA_DEV_LOG_INFO("%s: Post RDMA send with connection_id %u, immediate %u on DPA Mmap handle 0x%x, "
			      "address 0x%lx, length %lu\n",
			      __func__, connection_id, immediate, mmap, (unsigned long)addr, length);
	if (dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(dpa_ctx_handle);
	doca_dpa_dev_rdma_post_send_imm(rdma, connection_id, mmap, addr, length, immediate,
					DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH | DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS);
	return 0;
}
