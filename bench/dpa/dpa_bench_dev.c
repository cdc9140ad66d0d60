/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device side of dpa_bench: a kernel and an RPC that do nothing, so only the path is timed, and
 * the RDMA ping-pong: two DPA threads, each activated by its RDMA context's completions, answer
 * each other's sends. Ping stamps each arrival (__dpa_thread_cycles: CLOCK_MONOTONIC ns), so
 * the host computes one round trip per message, and keeps when its completion was queued (the
 * element's timestamp, same clock): the part of a hop spent waking the DPA thread.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>
#include <dpaintrin.h>

#include "dpa_bench_defs.h"

#define SUBMIT_FLAGS (DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH | DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS)

__dpa_global__ void bench_empty_kernel(void)
{
}

__dpa_rpc__ uint64_t bench_noop_rpc(uint64_t x)
{
	return x + 1;
}

static void post_send(const struct bench_pp_side *s)
{
	doca_dpa_dev_rdma_post_send(s->rdma_handle, 0, s->send_mmap, s->send_addr, s->msg_len, SUBMIT_FLAGS);
}

/* One activation: every arrival waiting is answered (ping stops after its last round). */
__dpa_global__ void bench_pp_thread(uint64_t arg)
{
	struct bench_pp_side *s = (struct bench_pp_side *)arg;
	doca_dpa_dev_completion_element_t elem;

	while (doca_dpa_dev_get_completion(s->comp_handle, &elem)) {
		uint64_t now = __dpa_thread_cycles();
		int is_recv = doca_dpa_dev_get_completion_type(elem) == DOCA_DPA_DEV_COMP_RECV_SEND;

		if (is_recv && s->is_ping) {
			((uint64_t *)s->times_addr)[s->received + 1] = now;
			((uint64_t *)s->pushed_addr)[s->received + 1] = doca_dpa_dev_completion_element_get_timestamp(elem);
		}
		doca_dpa_dev_completion_ack(s->comp_handle, 1);
		if (!is_recv)
			continue;
		s->received++;
		doca_dpa_dev_rdma_post_receive(s->rdma_handle, s->recv_mmap, s->recv_addr, s->msg_len);
		if (!s->is_ping) {
			post_send(s);
			continue;
		}
		if (s->received == s->rounds) {
			doca_dpa_dev_sync_event_update_set(s->event_handle, 1);
			doca_dpa_dev_thread_finish();
		}
		post_send(s);
	}
	doca_dpa_dev_completion_request_notification(s->comp_handle);
	doca_dpa_dev_thread_reschedule();
}

/* Posts both first receives and ping's first send, stamping the start. */
__dpa_rpc__ uint64_t bench_pp_start_rpc(uint64_t ping_addr, uint64_t pong_addr)
{
	struct bench_pp_side *ping = (struct bench_pp_side *)ping_addr, *pong = (struct bench_pp_side *)pong_addr;

	doca_dpa_dev_rdma_post_receive(pong->rdma_handle, pong->recv_mmap, pong->recv_addr, pong->msg_len);
	doca_dpa_dev_rdma_post_receive(ping->rdma_handle, ping->recv_mmap, ping->recv_addr, ping->msg_len);
	((uint64_t *)ping->times_addr)[0] = __dpa_thread_cycles();
	post_send(ping);
	return 0;
}
