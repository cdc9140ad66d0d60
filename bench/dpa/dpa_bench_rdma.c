/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpa_bench's RDMA ping-pong, the two ways of driving the same soft NIC in one process:
 *
 *   DPA:  two RDMA contexts whose datapath is on the DPA, each completing into a DPA completion
 *         context that activates a DPA thread; the thread reposts its receive and answers. An
 *         RPC posts the first send; ping stamps each arrival on the device.
 *   host: two RDMA contexts, each on a progress engine of its own that a host thread of its own
 *         progresses (ping: the calling thread; pong: a second thread), as the DPA threads are
 *         two; the receive callback resubmits its receive and submits the answer. Ping's
 *         callback stamps each arrival. Busy (progress in a loop), or event-driven as the DPA
 *         threads are (DOCA's pe_event pattern: request a notification, epoll_wait on the PE's
 *         handle, clear, progress until nothing is left).
 *
 * Same message (msg_len bytes of host memory), same connection set-up (export / connect).
 * A round trip is the time between two arrivals at ping.
 */
#include <pthread.h>
#include <stdbool.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "dpa_bench_defs.h"
#include "dpa_bench_rdma.h"

extern doca_dpa_func_t bench_pp_thread, bench_pp_start_rpc;

#define PERMISSIONS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_READ)
#define SLOT 64 /* bytes of host memory per buffer: ping send, ping receive, pong send, pong receive */

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double bench_median_us(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return (double)v[n / 2] / 1000.0;
}

void bench_die(const char *what, doca_error_t err)
{
	fprintf(stderr, "dpa_bench: %s: %s\n", what, doca_error_get_descr(err));
	exit(1);
}

static struct doca_mmap *host_mmap(struct doca_dev *dev, void *mem, size_t len)
{
	struct doca_mmap *m;

	BENCH_TRY(doca_mmap_create(&m));
	BENCH_TRY(doca_mmap_set_memrange(m, mem, len));
	BENCH_TRY(doca_mmap_set_permissions(m, PERMISSIONS));
	BENCH_TRY(doca_mmap_add_dev(m, dev));
	BENCH_TRY(doca_mmap_start(m));
	return m;
}

/* Round trips from arrival stamps: t[i] = stamps[i + 1] - stamps[i], median of the last n. */
static double round_trips(const uint64_t *stamps, size_t n, size_t warmup, uint64_t *t)
{
	for (size_t i = 0; i < n + warmup; i++)
		t[i] = stamps[i + 1] - stamps[i];
	return bench_median_us(t + warmup, n);
}

/* ---- DPA threads ---- */

struct dpa_side {
	struct doca_dpa_thread *thread;
	struct doca_dpa_completion *comp;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;
	doca_dpa_dev_uintptr_t desc_dev;
	struct bench_pp_side desc;
};

static void dpa_side_setup(struct doca_dev *dev, struct doca_dpa *dpa, struct dpa_side *s)
{
	doca_dpa_dev_completion_t comp_handle;
	doca_dpa_dev_rdma_t rdma_handle;

	BENCH_TRY(doca_dpa_mem_alloc(dpa, sizeof(s->desc), &s->desc_dev));
	BENCH_TRY(doca_dpa_thread_create(dpa, &s->thread));
	BENCH_TRY(doca_dpa_thread_set_func_arg(s->thread, &bench_pp_thread, s->desc_dev));
	BENCH_TRY(doca_dpa_thread_start(s->thread));
	BENCH_TRY(doca_dpa_completion_create(dpa, 16, &s->comp));
	BENCH_TRY(doca_dpa_completion_set_thread(s->comp, s->thread));
	BENCH_TRY(doca_dpa_completion_start(s->comp));
	BENCH_TRY(doca_dpa_completion_get_dpa_handle(s->comp, &comp_handle));
	BENCH_TRY(doca_rdma_create(dev, &s->rdma));
	BENCH_TRY(doca_rdma_set_permissions(s->rdma, PERMISSIONS));
	BENCH_TRY(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(s->rdma), dpa));
	BENCH_TRY(doca_rdma_dpa_completion_attach(s->rdma, s->comp));
	BENCH_TRY(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	BENCH_TRY(doca_rdma_get_dpa_handle(s->rdma, &rdma_handle));
	BENCH_TRY(doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn));
	s->desc.comp_handle = comp_handle;
	s->desc.rdma_handle = rdma_handle;
}

static void dpa_side_teardown(struct doca_dpa *dpa, struct dpa_side *s)
{
	BENCH_TRY(doca_ctx_stop(doca_rdma_as_ctx(s->rdma)));
	BENCH_TRY(doca_rdma_destroy(s->rdma));
	BENCH_TRY(doca_dpa_completion_stop(s->comp));
	BENCH_TRY(doca_dpa_completion_destroy(s->comp));
	BENCH_TRY(doca_dpa_thread_stop(s->thread));
	BENCH_TRY(doca_dpa_thread_destroy(s->thread));
	BENCH_TRY(doca_dpa_mem_free(dpa, s->desc_dev));
}

double dpa_rdma_ping_pong(struct doca_dev *dev, struct doca_dpa *dpa, size_t msg_len, size_t n, size_t warmup,
			  uint64_t *t, double *wake_us)
{
	size_t rounds = n + warmup + 1, stamps_len = (rounds + 1) * sizeof(uint64_t);
	uint8_t *mem = aligned_alloc(64, 4 * SLOT);
	uint64_t *stamps = malloc(stamps_len), *pushed = malloc(stamps_len), ret = 0;
	struct dpa_side ping = {0}, pong = {0};
	doca_dpa_dev_uintptr_t stamps_dev, pushed_dev;
	doca_dpa_dev_sync_event_t done_handle;
	doca_dpa_dev_mmap_t mmap_handle;
	struct doca_sync_event *done;
	struct doca_mmap *mmap;
	double median;

	if (mem == NULL || stamps == NULL || pushed == NULL || msg_len > SLOT)
		bench_die("dpa_rdma_ping_pong", DOCA_ERROR_NO_MEMORY);
	memset(mem, 0, 4 * SLOT);
	mmap = host_mmap(dev, mem, 4 * SLOT);
	BENCH_TRY(doca_mmap_dev_get_dpa_handle(mmap, dev, &mmap_handle));
	BENCH_TRY(doca_dpa_mem_alloc(dpa, stamps_len, &stamps_dev));
	BENCH_TRY(doca_dpa_mem_alloc(dpa, stamps_len, &pushed_dev));
	BENCH_TRY(doca_sync_event_create(&done));
	BENCH_TRY(doca_sync_event_add_publisher_location_dpa(done, dpa));
	BENCH_TRY(doca_sync_event_add_subscriber_location_cpu(done, dev));
	BENCH_TRY(doca_sync_event_start(done));
	BENCH_TRY(doca_sync_event_get_dpa_handle(done, dpa, &done_handle));

	dpa_side_setup(dev, dpa, &ping);
	dpa_side_setup(dev, dpa, &pong);
	BENCH_TRY(doca_rdma_connect(ping.rdma, pong.blob, pong.blob_len, ping.conn));
	BENCH_TRY(doca_rdma_connect(pong.rdma, ping.blob, ping.blob_len, pong.conn));
	for (int i = 0; i < 2; i++) {
		struct dpa_side *s = i == 0 ? &ping : &pong;

		s->desc.send_addr = (uintptr_t)(mem + (2 * i) * SLOT);
		s->desc.recv_addr = (uintptr_t)(mem + (2 * i + 1) * SLOT);
		s->desc.send_mmap = s->desc.recv_mmap = mmap_handle;
		s->desc.msg_len = msg_len;
		s->desc.is_ping = i == 0;
		s->desc.times_addr = stamps_dev;
		s->desc.pushed_addr = pushed_dev;
		s->desc.rounds = rounds;
		s->desc.event_handle = done_handle;
		BENCH_TRY(doca_dpa_h2d_memcpy(dpa, s->desc_dev, &s->desc, sizeof(s->desc)));
		BENCH_TRY(doca_dpa_thread_run(s->thread));
	}

	BENCH_TRY(doca_dpa_rpc(dpa, &bench_pp_start_rpc, &ret, ping.desc_dev, pong.desc_dev));
	BENCH_TRY(doca_sync_event_wait_gt(done, 0, ~0ULL));
	BENCH_TRY(doca_dpa_peek_at_last_error(dpa));
	BENCH_TRY(doca_dpa_d2h_memcpy(dpa, stamps, stamps_dev, stamps_len));
	BENCH_TRY(doca_dpa_d2h_memcpy(dpa, pushed, pushed_dev, stamps_len));
	/* arrival i: queued at pushed[i], seen by the thread at stamps[i] */
	for (size_t i = 0; i < n; i++)
		t[i] = stamps[warmup + 1 + i] - pushed[warmup + 1 + i];
	*wake_us = bench_median_us(t, n);
	median = round_trips(stamps, n, warmup, t);

	dpa_side_teardown(dpa, &pong);
	dpa_side_teardown(dpa, &ping);
	BENCH_TRY(doca_sync_event_destroy(done));
	BENCH_TRY(doca_dpa_mem_free(dpa, stamps_dev));
	BENCH_TRY(doca_dpa_mem_free(dpa, pushed_dev));
	BENCH_TRY(doca_mmap_destroy(mmap));
	free(pushed);
	free(stamps);
	free(mem);
	return median;
}

/* ---- host contexts on a progress engine ---- */

#define SEND_TASKS 4

struct host_side {
	struct doca_pe *pe;
	bool event_driven;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;
	struct doca_buf *send_buf, *recv_buf;
	struct doca_rdma_task_receive *recv;
	struct doca_rdma_task_send *idle[SEND_TASKS]; /* send tasks not in flight */
	unsigned int num_idle, in_flight;
	bool is_ping;
	size_t received, rounds;
	uint64_t *stamps;
};

static void send_one(struct host_side *s)
{
	if (s->num_idle == 0) {
		fprintf(stderr, "dpa_bench: no send task left (%u in flight)\n", s->in_flight);
		exit(1);
	}
	s->in_flight++;
	BENCH_TRY(doca_task_submit(doca_rdma_task_send_as_task(s->idle[--s->num_idle])));
}

static void send_done(struct doca_rdma_task_send *task, union doca_data task_data, union doca_data ctx_data)
{
	struct host_side *s = ctx_data.ptr;

	(void)task_data;
	s->in_flight--;
	s->idle[s->num_idle++] = task;
}

static void send_fail(struct doca_rdma_task_send *task, union doca_data task_data, union doca_data ctx_data)
{
	(void)task_data;
	(void)ctx_data;
	bench_die("host ping-pong send", doca_task_get_status(doca_rdma_task_send_as_task(task)));
}

static void recv_done(struct doca_rdma_task_receive *task, union doca_data task_data, union doca_data ctx_data)
{
	struct host_side *s = ctx_data.ptr;

	(void)task_data;
	s->received++;
	if (s->is_ping)
		s->stamps[s->received] = bench_now_ns();
	doca_buf_reset_data_len(s->recv_buf);
	BENCH_TRY(doca_task_submit(doca_rdma_task_receive_as_task(task)));
	if (!s->is_ping || s->received < s->rounds)
		send_one(s);
}

/* Receives flushed by the stop come back here: they are freed. */
static void recv_fail(struct doca_rdma_task_receive *task, union doca_data task_data, union doca_data ctx_data)
{
	struct host_side *s = ctx_data.ptr;

	(void)task_data;
	doca_task_free(doca_rdma_task_receive_as_task(task));
	s->recv = NULL;
}

static void host_side_setup(struct doca_dev *dev, struct host_side *s)
{
	BENCH_TRY(doca_pe_create(&s->pe));
	BENCH_TRY(doca_rdma_create(dev, &s->rdma));
	BENCH_TRY(doca_rdma_set_permissions(s->rdma, PERMISSIONS));
	BENCH_TRY(doca_rdma_task_send_set_conf(s->rdma, send_done, send_fail, SEND_TASKS));
	BENCH_TRY(doca_rdma_task_receive_set_conf(s->rdma, recv_done, recv_fail, 1));
	BENCH_TRY(doca_ctx_set_user_data(doca_rdma_as_ctx(s->rdma), (union doca_data){.ptr = s}));
	BENCH_TRY(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->rdma)));
	BENCH_TRY(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	BENCH_TRY(doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn));
}

static void host_side_tasks(struct host_side *s)
{
	BENCH_TRY(doca_rdma_task_receive_allocate_init(s->rdma, s->recv_buf, (union doca_data){.u64 = 0}, &s->recv));
	for (s->num_idle = 0; s->num_idle < SEND_TASKS; s->num_idle++)
		BENCH_TRY(doca_rdma_task_send_allocate_init(s->rdma, s->conn, s->send_buf, (union doca_data){.u64 = 0},
							    &s->idle[s->num_idle]));
}

static void host_side_teardown(struct host_side *s)
{
	struct doca_pe *pe = s->pe;
	struct doca_ctx *ctx = doca_rdma_as_ctx(s->rdma);
	enum doca_ctx_states state;
	doca_error_t err;

	while (s->in_flight > 0)
		doca_pe_progress(pe);
	for (unsigned int i = 0; i < s->num_idle; i++)
		doca_task_free(doca_rdma_task_send_as_task(s->idle[i]));
	err = doca_ctx_stop(ctx);
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		bench_die("doca_ctx_stop", err);
	do {
		doca_pe_progress(pe);
		BENCH_TRY(doca_ctx_get_state(ctx, &state));
	} while (state != DOCA_CTX_STATE_IDLE);
	BENCH_TRY(doca_rdma_destroy(s->rdma));
	BENCH_TRY(doca_pe_destroy(pe));
	doca_buf_dec_refcount(s->send_buf, NULL);
	doca_buf_dec_refcount(s->recv_buf, NULL);
}

/* Event-driven: sleeps on the PE's notification handle until the PE has work. */
static void progress_until(struct doca_pe *pe, const size_t *count, size_t goal, bool event_driven)
{
	doca_notification_handle_t handle;
	struct epoll_event ev = {.events = EPOLLIN};
	int ep;

	if (!event_driven) {
		while (*count < goal)
			doca_pe_progress(pe);
		return;
	}
	BENCH_TRY(doca_pe_get_notification_handle(pe, &handle));
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, handle, &ev) != 0)
		bench_die("epoll on the PE's notification handle", DOCA_ERROR_OPERATING_SYSTEM);
	while (*count < goal) {
		BENCH_TRY(doca_pe_request_notification(pe));
		if (epoll_wait(ep, &ev, 1, 10000) == 0)
			bench_die("event-driven ping-pong: no notification in 10 s", DOCA_ERROR_TIME_OUT);
		BENCH_TRY(doca_pe_clear_notification(pe, handle));
		while (doca_pe_progress(pe))
			;
	}
	close(ep);
}

/* Pong's thread: answers every round. */
static void *pong_main(void *arg)
{
	struct host_side *s = arg;

	progress_until(s->pe, &s->received, s->rounds, s->event_driven);
	return NULL;
}

double host_rdma_ping_pong(struct doca_dev *dev, size_t msg_len, size_t n, size_t warmup, bool event_driven,
			   uint64_t *t)
{
	size_t rounds = n + warmup + 1;
	uint8_t *mem = aligned_alloc(64, 4 * SLOT);
	uint64_t *stamps = malloc((rounds + 1) * sizeof(uint64_t));
	struct host_side ping = {.is_ping = true, .event_driven = event_driven}, pong = {.event_driven = event_driven};
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	pthread_t pong_thread;
	double median;

	if (mem == NULL || stamps == NULL || msg_len > SLOT)
		bench_die("host_rdma_ping_pong", DOCA_ERROR_NO_MEMORY);
	memset(mem, 0, 4 * SLOT);
	mmap = host_mmap(dev, mem, 4 * SLOT);
	BENCH_TRY(doca_buf_inventory_create(4, &inv));
	BENCH_TRY(doca_buf_inventory_start(inv));
	host_side_setup(dev, &ping);
	host_side_setup(dev, &pong);
	BENCH_TRY(doca_rdma_connect(ping.rdma, pong.blob, pong.blob_len, ping.conn));
	BENCH_TRY(doca_rdma_connect(pong.rdma, ping.blob, ping.blob_len, pong.conn));
	for (int i = 0; i < 2; i++) {
		struct host_side *s = i == 0 ? &ping : &pong;

		BENCH_TRY(doca_buf_inventory_buf_get_by_data(inv, mmap, mem + (2 * i) * SLOT, msg_len, &s->send_buf));
		BENCH_TRY(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + (2 * i + 1) * SLOT, msg_len, &s->recv_buf));
		s->rounds = rounds;
		s->stamps = stamps;
		host_side_tasks(s);
		BENCH_TRY(doca_task_submit(doca_rdma_task_receive_as_task(s->recv)));
	}

	if (pthread_create(&pong_thread, NULL, pong_main, &pong) != 0)
		bench_die("pthread_create", DOCA_ERROR_OPERATING_SYSTEM);
	stamps[0] = bench_now_ns();
	send_one(&ping);
	progress_until(ping.pe, &ping.received, rounds, event_driven);
	pthread_join(pong_thread, NULL);
	median = round_trips(stamps, n, warmup, t);

	host_side_teardown(&pong);
	host_side_teardown(&ping);
	BENCH_TRY(doca_buf_inventory_destroy(inv));
	BENCH_TRY(doca_mmap_destroy(mmap));
	free(stamps);
	free(mem);
	return median;
}
