/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpa_ping_pong: a ping and a pong RDMA context on the same DPA, connected to each other, each
 * with a DPA thread its completion context activates. An RPC posts both receives and ping's
 * first send; the threads then answer each other 100 times and set their sync events, which
 * the host waits for.
 */
#include <doca_error.h>
#include <doca_log.h>

#include "dpa_common.h"
#include "../common/dpa_ping_pong_common_defs.h"

DOCA_LOG_REGISTER(DPA_PING_PONG::SAMPLE);

extern doca_dpa_func_t thread_kernel;
extern doca_dpa_func_t trigger_first_iteration_rpc;

#define WAIT_THRESHOLD 9

/* One side: its thread, completion context, RDMA context, buffers and event. */
struct side {
	const char *name;
	doca_dpa_dev_uintptr_t arg_dev, tls_dev, arr_dev, recv_dev, send_dev;
	struct doca_dpa_thread *thread;
	struct doca_dpa_completion *comp;
	doca_dpa_dev_completion_t comp_handle;
	struct dpa_rdma rdma;
	struct doca_sync_event *event;
	doca_dpa_dev_sync_event_t event_handle;
	struct doca_mmap *recv_mmap, *send_mmap;
	doca_dpa_dev_mmap_t recv_mmap_handle, send_mmap_handle;
	struct ping_pong_side desc;
};

/* A zeroed DPA allocation of size bytes. */
static doca_error_t dev_zalloc(struct doca_dpa *dpa, size_t size, doca_dpa_dev_uintptr_t *p)
{
	doca_error_t result = doca_dpa_mem_alloc(dpa, size, p);

	if (result == DOCA_SUCCESS)
		result = doca_dpa_memset(dpa, *p, 0, size);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to allocate %zu bytes of DPA memory (%s)", size, doca_error_get_descr(result));
	return result;
}

/* The side's thread and completion context (before the RDMA contexts). */
static doca_error_t side_threads(struct dpa_resources *res, struct side *s, bool is_ping)
{
	struct doca_dpa *dpa = res->rdma_dpa_ctx;
	struct ping_pong_tls tls = {0};
	doca_error_t result;

	result = dev_zalloc(dpa, sizeof(struct ping_pong_side), &s->arg_dev);
	if (result == DOCA_SUCCESS)
		result = dev_zalloc(dpa, sizeof(tls), &s->tls_dev);
	if (result == DOCA_SUCCESS)
		result = dev_zalloc(dpa, EXPECTED_NUM_RECEIVES * sizeof(uint32_t), &s->arr_dev);
	if (result != DOCA_SUCCESS)
		return result;
	tls.received_arr = s->arr_dev;
	tls.is_ping = is_ping;
	result = doca_dpa_h2d_memcpy(dpa, s->tls_dev, &tls, sizeof(tls));
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create %s DOCA DPA Thread", s->name);
	result = dpa_thread_setup(dpa, &thread_kernel, s->arg_dev, s->tls_dev, NULL, &s->thread);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create %s DOCA DPA Completion", s->name);
	return dpa_completion_setup(dpa, 2, s->thread, &s->comp, &s->comp_handle);
}

/* The side's event and buffers, and its description in DPA memory. */
static doca_error_t side_buffers(struct dpa_resources *res, struct side *s)
{
	struct doca_dpa *dpa = res->rdma_dpa_ctx;
	doca_error_t result;

	result = create_doca_dpa_completion_sync_event(res->pf_dpa_ctx, res->pf_doca_device, &s->event,
						       &s->event_handle);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Create %s DOCA MMAPs on DPA for receive and send buffers", s->name);
	result = dev_zalloc(dpa, sizeof(uint64_t), &s->recv_dev);
	if (result == DOCA_SUCCESS)
		result = dpa_mmap_setup(dpa, res->rdma_doca_device, s->recv_dev, sizeof(uint64_t), &s->recv_mmap,
					&s->recv_mmap_handle);
	if (result == DOCA_SUCCESS)
		result = dev_zalloc(dpa, sizeof(uint64_t), &s->send_dev);
	if (result == DOCA_SUCCESS)
		result = dpa_mmap_setup(dpa, res->rdma_doca_device, s->send_dev, sizeof(uint64_t), &s->send_mmap,
					&s->send_mmap_handle);
	if (result != DOCA_SUCCESS)
		return result;
	s->desc = (struct ping_pong_side){
		.dpa_ctx_handle = res->rdma_dpa_ctx_handle,
		.comp_handle = s->comp_handle,
		.rdma_handle = s->rdma.handle,
		.recv_addr = s->recv_dev,
		.send_addr = s->send_dev,
		.recv_mmap_handle = s->recv_mmap_handle,
		.send_mmap_handle = s->send_mmap_handle,
		.recv_len = sizeof(uint64_t),
		.send_len = sizeof(uint64_t),
		.event_handle = s->event_handle,
		.event_value = WAIT_THRESHOLD + 1,
	};
	return doca_dpa_h2d_memcpy(dpa, s->arg_dev, &s->desc, sizeof(s->desc));
}

static void side_teardown(struct dpa_resources *res, struct side *s)
{
	struct doca_dpa *dpa = res->rdma_dpa_ctx;

	if (s->send_mmap != NULL)
		doca_mmap_destroy(s->send_mmap);
	if (s->recv_mmap != NULL)
		doca_mmap_destroy(s->recv_mmap);
	dpa_mem_teardown(dpa, s->send_dev);
	dpa_mem_teardown(dpa, s->recv_dev);
	if (s->event != NULL)
		doca_sync_event_destroy(s->event);
	dpa_rdma_teardown(&s->rdma);
	dpa_completion_teardown(s->comp);
	dpa_thread_teardown(s->thread);
	dpa_mem_teardown(dpa, s->arr_dev);
	dpa_mem_teardown(dpa, s->tls_dev);
	dpa_mem_teardown(dpa, s->arg_dev);
}

doca_error_t dpa_ping_pong(struct dpa_resources *resources)
{
	struct side ping = {.name = "Ping"}, pong = {.name = "Pong"};
	uint64_t retval = 0;
	doca_error_t result;

	result = side_threads(resources, &ping, true);
	if (result == DOCA_SUCCESS)
		result = side_threads(resources, &pong, false);
	if (result != DOCA_SUCCESS)
		goto out;
	DOCA_LOG_INFO("Initialize and connect Ping and Pong DOCA RDMAs");
	result = dpa_rdma_setup(resources->rdma_doca_device, resources->rdma_dpa_ctx, ping.comp, 1, 1, &ping.rdma);
	if (result == DOCA_SUCCESS)
		result = dpa_rdma_setup(resources->rdma_doca_device, resources->rdma_dpa_ctx, pong.comp, 1, 1,
					&pong.rdma);
	if (result == DOCA_SUCCESS)
		result = dpa_rdma_connect_pair(&ping.rdma, &pong.rdma);
	if (result != DOCA_SUCCESS)
		goto out;
	DOCA_LOG_INFO("Run Ping and Pong DOCA DPA Threads");
	result = doca_dpa_thread_run(ping.thread);
	if (result == DOCA_SUCCESS)
		result = doca_dpa_thread_run(pong.thread);
	if (result == DOCA_SUCCESS)
		result = side_buffers(resources, &ping);
	if (result == DOCA_SUCCESS)
		result = side_buffers(resources, &pong);
	if (result != DOCA_SUCCESS)
		goto out;
	DOCA_LOG_INFO("Trigger an RPC to post the first receives and the first Ping send");
	/* both sides' descriptions go by value */
	result = doca_dpa_rpc(resources->rdma_dpa_ctx, &trigger_first_iteration_rpc, &retval,
			      resources->rdma_dpa_ctx_handle, ping.desc, pong.desc);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_rpc failed (%s)", doca_error_get_descr(result));
		goto out;
	}
	DOCA_LOG_INFO("Waiting for Ping and Pong DPA Threads to set their completion Sync Events above %d",
		      WAIT_THRESHOLD);
	result = doca_sync_event_wait_gt(ping.event, WAIT_THRESHOLD, SYNC_EVENT_MASK_FFS);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_wait_gt(pong.event, WAIT_THRESHOLD, SYNC_EVENT_MASK_FFS);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_sync_event_wait_gt failed (%s)", doca_error_get_descr(result));
	else if ((result = doca_dpa_peek_at_last_error(resources->rdma_dpa_ctx)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("The DPA context reported an error (%s)", doca_error_get_descr(result));
	DOCA_LOG_INFO("Tear down");
out:
	side_teardown(resources, &pong);
	side_teardown(resources, &ping);
	return result;
}
