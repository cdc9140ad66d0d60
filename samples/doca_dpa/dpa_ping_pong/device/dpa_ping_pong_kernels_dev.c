/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device code of dpa_ping_pong: two DPA threads bounce a counter over two connected RDMA
 * contexts. Each arrival activates the receiving side's thread, which takes every completion
 * waiting, reposts its receive and answers; after the hundredth value it checks that it saw
 * 0..99 and sets its sync event. The first send is posted by an RPC that takes both sides'
 * descriptions by value.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_buf.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "../common/dpa_ping_pong_common_defs.h"

#define SUBMIT_FLAGS (DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH | DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS)

__dpa_global__ void thread_kernel(uint64_t arg)
{
	struct ping_pong_side *s = (struct ping_pong_side *)arg;
	struct ping_pong_tls *tls = (struct ping_pong_tls *)doca_dpa_dev_thread_get_local_storage();
	uint32_t *received = (uint32_t *)tls->received_arr;
	const char *me = tls->is_ping ? "Ping" : "Pong", *peer = tls->is_ping ? "Pong" : "Ping";
	doca_dpa_dev_completion_element_t elem;

	if (s->dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(s->dpa_ctx_handle);
	while (doca_dpa_dev_get_completion(s->comp_handle, &elem)) {
		uint64_t value = *(uint64_t *)s->recv_addr;

		tls->num_receives++;
		if (value < EXPECTED_NUM_RECEIVES)
			received[value] = 1;
		doca_dpa_dev_rdma_post_receive(s->rdma_handle, s->recv_mmap_handle, s->recv_addr, s->recv_len);
		/* ping sent 0 from the RPC: it counts up before each answer, pong after */
		if (tls->is_ping)
			(*(uint64_t *)s->send_addr)++;
		doca_dpa_dev_rdma_post_send(s->rdma_handle, 0, s->send_mmap_handle, s->send_addr, s->send_len,
					    SUBMIT_FLAGS);
		DOCA_DPA_DEV_LOG_INFO("%s --> %s Iteration #%u\n", me, peer, tls->num_receives);
		doca_dpa_dev_completion_ack(s->comp_handle, 1);
		if (tls->num_receives == EXPECTED_NUM_RECEIVES) {
			for (uint32_t i = 0; i < EXPECTED_NUM_RECEIVES; i++) {
				if (received[i] != 1) {
					DOCA_DPA_DEV_LOG_ERR("%s DPA Thread didn't receive data with value %u\n", me, i);
					doca_dpa_dev_thread_finish();
				}
			}
			doca_dpa_dev_sync_event_update_set(s->event_handle, s->event_value);
			doca_dpa_dev_thread_finish();
		}
		if (!tls->is_ping)
			(*(uint64_t *)s->send_addr)++;
	}
	doca_dpa_dev_completion_request_notification(s->comp_handle);
	doca_dpa_dev_thread_reschedule();
}

__dpa_rpc__ uint64_t trigger_first_iteration_rpc(doca_dpa_dev_t dpa_ctx_handle, struct ping_pong_side ping,
						 struct ping_pong_side pong)
{
	DOCA_DPA_DEV_LOG_INFO("Trigger First Ping --> Pong Iteration\n");
	if (dpa_ctx_handle != 0)
		doca_dpa_dev_device_set(dpa_ctx_handle);
	doca_dpa_dev_rdma_post_receive(ping.rdma_handle, ping.recv_mmap_handle, ping.recv_addr, ping.recv_len);
	doca_dpa_dev_rdma_post_receive(pong.rdma_handle, pong.recv_mmap_handle, pong.recv_addr, pong.recv_len);
	doca_dpa_dev_rdma_post_send(ping.rdma_handle, 0, ping.send_mmap_handle, ping.send_addr, ping.send_len,
				    SUBMIT_FLAGS);
	return 0;
}
