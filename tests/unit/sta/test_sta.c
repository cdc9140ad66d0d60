/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sta, control path: the lifecycle, every call-order error, the profile's limits,
 * subsystem/namespace/back-end bookkeeping, the removal tasks through the PE, EUs and
 * counters, and the data-path calls that are refused for now.
 * Modes: (none) the built-in BlueField-3; "profiles" one card of each profile;
 * "unsupported" a model without BlueField-3 (BF2 or CX7 configuration files).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "doca_sta.h"
#include "doca_sta_be.h"
#include "doca_sta_event.h"
#include "doca_sta_io.h"
#include "doca_sta_io_non_offload.h"
#include "doca_sta_io_qp.h"
#include "doca_sta_mem.h"
#include "doca_sta_stats.h"
#include "doca_sta_subsystem.h"
#include "dev_test.h"
#include "log_test.h"
#include "test.h"

static FILE *sdk_log;
static struct doca_dev *dev;
static int allocs, frees;
static int task_done, task_failed;
static doca_error_t task_status;

/* ---- the application's side: allocator, callbacks ---- */

static void *zmalloc_cb(size_t size, size_t align, uint64_t *phys)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	if (p != NULL) {
		memset(p, 0, size);
		*phys = (uint64_t)(uintptr_t)p; /* identity "physical" address */
		allocs++;
	}
	return p;
}

static void free_cb(void *buf)
{
	frees++;
	free(buf);
}

static uint64_t vtophys_cb(const void *buf, uint32_t size)
{
	(void)size;
	return (uint64_t)(uintptr_t)buf;
}

static void done_cb(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	CHECK(ud.u64 == 77);
	task_done++;
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

static void error_cb(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	(void)ud;
	task_failed++;
	task_status = doca_task_get_status(doca_sta_producer_send_task_as_task(task));
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

static void non_offload_cb(struct doca_sta_qp_handle *qp, union doca_data ud, const uint8_t *cmd, uint8_t *payload,
			   uint32_t len, bool valid, union doca_data no_ud)
{
	(void)qp, (void)ud, (void)cmd, (void)payload, (void)len, (void)valid, (void)no_ud;
}

static void be_timeout_cb(const struct doca_sta_event_be_timeout *ev, union doca_data ud)
{
	(void)ev, (void)ud;
}

static void eu_err_cb(const struct doca_sta_event_eu_err *ev, union doca_data ud)
{
	(void)ev, (void)ud;
}

static void cqe_cb(const struct doca_sta_event_cqe_notify *ev, union doca_data ud)
{
	(void)ev, (void)ud;
}

static void transport_cb(const struct doca_sta_event_transport_err *ev, union doca_data ud)
{
	(void)ev, (void)ud;
}

/* ---- helpers ---- */

static struct doca_dev *open_sta_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *d = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && d == NULL; i++)
		if (doca_sta_cap_is_supported(list[i]) == DOCA_SUCCESS)
			doca_dev_open(list[i], &d);
	doca_devinfo_destroy_list(list);
	return d;
}

/* Progresses until the context reaches `want`; event-bounded (progress is synchronous here). */
static bool progress_until(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states want)
{
	for (int i = 0; i < 10000 && state_of(ctx) != want; i++)
		doca_pe_progress(pe);
	return state_of(ctx) == want;
}

/* An STA context configured the way the reference describes, not started. */
static struct doca_sta *configured_sta(struct doca_pe *pe, uint16_t io_threads)
{
	struct doca_sta *sta = NULL;
	union doca_data ud = {.u64 = 0};

	CHECK_OK(doca_sta_create(dev, &sta));
	if (sta == NULL)
		return NULL;
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sta_as_ctx(sta)));
	CHECK_OK(doca_sta_add_dev(sta, dev));
	CHECK_OK(doca_sta_mem_allocator_register(sta, zmalloc_cb, free_cb, vtophys_cb));
	CHECK_OK(doca_sta_set_max_sta_io(sta, io_threads));
	CHECK_OK(doca_sta_event_be_timeout_register_cb(sta, be_timeout_cb, ud));
	CHECK_OK(doca_sta_event_eu_err_register_cb(sta, eu_err_cb, ud));
	CHECK_OK(doca_sta_event_cqe_notify_register_cb(sta, cqe_cb, ud));
	CHECK_OK(doca_sta_subsystem_task_rm_ns_set_conf(sta, done_cb, error_cb));
	CHECK_OK(doca_sta_be_task_destroy_queue_set_conf(sta, done_cb, error_cb));
	return sta;
}

static struct doca_sta *running_sta(struct doca_pe *pe, uint16_t io_threads)
{
	struct doca_sta *sta = configured_sta(pe, io_threads);

	CHECK_ERR(doca_ctx_start(doca_sta_as_ctx(sta)), DOCA_ERROR_IN_PROGRESS);
	CHECK(progress_until(pe, doca_sta_as_ctx(sta), DOCA_CTX_STATE_RUNNING));
	return sta;
}

static void stop_destroy(struct doca_pe *pe, struct doca_sta *sta)
{
	doca_error_t err = doca_ctx_stop(doca_sta_as_ctx(sta));

	CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	CHECK(progress_until(pe, doca_sta_as_ctx(sta), DOCA_CTX_STATE_IDLE));
	CHECK_OK(doca_sta_destroy(sta));
}

/* A started mmap over `buf` (SQ, CQ and doorbell regions of a back-end queue). */
static struct doca_mmap *mmap_of(void *buf, size_t len)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, buf, len));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static bool log_has(const char *text)
{
	return log_take(sdk_log, text);
}

static uint32_t limit(doca_error_t (*fn)(uint32_t *))
{
	uint32_t v = 0;

	CHECK_OK(fn(&v));
	return v;
}

/* ---- tests ---- */

static void test_limits_from_profile(void)
{
	/* the BlueField-3 profile (lib/softhw/model/profiles.c, docs/device-model.md) */
	CHECK(limit(doca_sta_get_max_devs) == 4);
	CHECK(limit(doca_sta_get_max_subsys) == 128);
	CHECK(limit(doca_sta_get_max_ns_per_subs) == 32);
	CHECK(limit(doca_sta_get_max_qps) == 2048);
	CHECK(limit(doca_sta_get_max_io_threads) == 32);
	CHECK(limit(doca_sta_get_max_io_size) == 128 * 1024);
	CHECK(limit(doca_sta_get_min_ioccsz) == 64);
	CHECK(limit(doca_sta_get_max_ioccsz) == 64 + 8192);
	CHECK(limit(doca_sta_get_min_iorcsz) == 16);
	CHECK(limit(doca_sta_get_max_iorcsz) == 16);
	CHECK(limit(doca_sta_get_max_icdoff) == 0);
	CHECK(limit(doca_sta_get_max_be) == 64);
	CHECK(limit(doca_sta_get_max_qs_per_be) == 64);
	CHECK_ERR(doca_sta_get_max_be(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_sta_is_logical_block_size_supported(512));
	CHECK(doca_sta_is_logical_block_size_supported(4096));
	CHECK(!doca_sta_is_logical_block_size_supported(1024));
	CHECK(!doca_sta_is_logical_block_size_supported(0));
	CHECK_ERR(doca_sta_cap_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_create(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_lifecycle(void)
{
	struct doca_pe *pe = NULL;
	struct doca_sta *sta;
	struct doca_sta_io *io = NULL;
	struct doca_sta_subs_handle *subs = NULL;
	struct doca_sta_be_handle *be = NULL;
	struct doca_sta_be_q_handle *beq = NULL;
	struct doca_sta_ns_handle *ns = NULL;
	struct doca_sta_producer_task_send *task = NULL;
	struct doca_sta_eu_handle *eus[96];
	struct doca_sta_qp_handle *qps[8];
	const struct doca_sta_eu_ctr_entry *entries = NULL;
	union doca_data ud = {.u64 = 77};
	uint32_t v = 0, n_eus = 0;
	uint16_t n = 0, io_num = 0;
	static uint8_t sq[4096], cq[4096], db[4096];
	struct doca_mmap *sq_m, *cq_m, *db_m;
	int allocs_before = allocs, frees_before = frees;

	CHECK_OK(doca_pe_create(&pe));
	sta = configured_sta(pe, 2);
	CHECK_OK(doca_sta_get_max_sta_io(sta, &io_num));
	CHECK(io_num == 2);
	CHECK_OK(doca_sta_get_max_num_eus_available(sta, &v));
	CHECK(v == 96);
	CHECK_OK(doca_sta_get_max_io_queue_size(sta, &v));
	CHECK(v == 128);
	CHECK_OK(doca_sta_get_max_num_connected_qp_per_eu(sta, &v));
	CHECK_OK(doca_sta_get_max_io_num_per_dev(sta, &v));

	/* asynchronous start: STARTING, RUNNING at a later progress */
	CHECK_ERR(doca_ctx_start(doca_sta_as_ctx(sta)), DOCA_ERROR_IN_PROGRESS);
	CHECK(state_of(doca_sta_as_ctx(sta)) == DOCA_CTX_STATE_STARTING);
	CHECK(progress_until(pe, doca_sta_as_ctx(sta), DOCA_CTX_STATE_RUNNING));
	CHECK(allocs == allocs_before + 1); /* the EU counters, in the application's pinned memory */

	/* EUs: a completion, a transmit and a back-end queue EU per IO thread */
	CHECK_OK(doca_sta_get_eu_handle(sta, eus, &n_eus));
	CHECK(n_eus == 6);
	for (uint32_t i = 0; i < n_eus; i++) {
		enum dpa_sta_eu_type type = DOCA_STA_EU_TYPE_UNKNOWN;
		enum dpa_sta_eu_state st = DOCA_STA_EU_STATE_IDLE;
		const char *name = NULL;
		uint16_t id = 0xffff, port = 0xffff;

		CHECK_OK(doca_sta_get_eu_type(eus[i], &type));
		CHECK((uint32_t)type == (uint32_t)DOCA_STA_EU_COMP + i % 3);
		CHECK_OK(doca_sta_get_eu_name(eus[i], &name));
		CHECK(name != NULL && name[0] != '\0');
		CHECK_OK(doca_sta_get_eu_id(eus[i], &id));
		CHECK(id == i);
		CHECK_OK(doca_sta_get_eu_port(eus[i], &port));
		CHECK_OK(doca_sta_get_eu_state(eus[i], &st));
		CHECK(st == DOCA_STA_EU_STATE_STARTED);
		CHECK_OK(doca_sta_get_eu_stats(eus[i], &entries, &n));
		CHECK(n > 0);
		for (uint16_t c = 0; c < n; c++)
			CHECK(entries[c].name != NULL && *entries[c].val == 0);
		CHECK_OK(doca_sta_get_eu_connect_qp_stats(eus[i], qps, &n));
		CHECK(n == 0);
	}
	CHECK_OK(doca_sta_eu_reset_stats_handle(eus[0]));
	CHECK_OK(doca_sta_eu_reset_stats_type(sta, DOCA_STA_EU_TX));
	CHECK_OK(doca_sta_eu_reset_stats_type(sta, DOCA_STA_EU_MAX));
	CHECK_ERR(doca_sta_eu_reset_stats_type(sta, DOCA_STA_EU_TYPE_UNKNOWN), DOCA_ERROR_INVALID_VALUE);

	/* subsystem, back-end with one NVMe queue pair, namespace */
	CHECK_OK(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:sub1", &subs));
	CHECK_OK(doca_sta_subsystem_add_dev(subs, dev));
	CHECK_OK(doca_sta_be_create(sta, &be));
	sq_m = mmap_of(sq, sizeof(sq));
	cq_m = mmap_of(cq, sizeof(cq));
	db_m = mmap_of(db, sizeof(db));
	CHECK_OK(doca_sta_be_add_queue(be, sq_m, db_m, 8, cq_m, db_m, 12, &beq));
	CHECK_OK(doca_sta_get_be_queue_stats(be, beq, &entries, &n));
	CHECK(n == 3 && *entries[0].val == 0);
	CHECK_OK(doca_sta_get_be_queue_mapping_info(beq, &entries, &n));
	CHECK(n == 1 && *entries[0].val == 2); /* the first BEQ EU */
	CHECK_OK(doca_sta_subsystem_add_ns(subs, 1, 512, 1, be, &ns));
	CHECK_OK(doca_sta_get_ns_stats(subs, ns, &entries, &n));
	CHECK(n == 5 && *entries[0].val == 0);

	/* an IO context: asynchronous start after the STA context runs */
	CHECK_OK(doca_sta_io_create(sta, &io));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sta_io_as_ctx(io)));
	CHECK_OK(doca_sta_io_non_offload_register_cb(io, non_offload_cb, ud));
	CHECK_OK(doca_sta_io_event_transport_err_register_cb(io, transport_cb, ud));
	CHECK_OK(doca_sta_io_task_disconnect_set_conf(io, done_cb, error_cb));
	CHECK_OK(doca_sta_io_task_non_offload_set_rdma_write_send_conf(io, done_cb, error_cb));
	CHECK_OK(doca_sta_io_task_non_offload_set_rdma_read_conf(io, done_cb, error_cb));
	CHECK_ERR(doca_ctx_start(doca_sta_io_as_ctx(io)), DOCA_ERROR_IN_PROGRESS);
	CHECK(progress_until(pe, doca_sta_io_as_ctx(io), DOCA_CTX_STATE_RUNNING));

	/* removal through tasks, completed by the PE */
	task_done = 0;
	CHECK_OK(doca_sta_subsystem_task_rm_ns_alloc_init(subs, ns, ud, &task));
	CHECK_OK(doca_task_submit(doca_sta_producer_send_task_as_task(task)));
	for (int i = 0; i < 1000 && task_done == 0; i++)
		doca_pe_progress(pe);
	CHECK(task_done == 1);
	CHECK_ERR(doca_sta_get_ns_stats(subs, ns, &entries, &n), DOCA_ERROR_NOT_FOUND); /* gone */
	CHECK_OK(doca_sta_subsystem_destroy(subs));
	CHECK_OK(doca_sta_be_destroy_queue_task_alloc_init(beq, ud, &task));
	CHECK_OK(doca_task_submit(doca_sta_producer_send_task_as_task(task)));
	for (int i = 0; i < 1000 && task_done == 1; i++)
		doca_pe_progress(pe);
	CHECK(task_done == 2);
	CHECK_OK(doca_sta_be_destroy(be));

	/* stop: IO context, then the STA context (asynchronous), then destroy */
	CHECK_OK(doca_ctx_stop(doca_sta_io_as_ctx(io)));
	CHECK_OK(doca_sta_io_destroy(io));
	CHECK_ERR(doca_ctx_stop(doca_sta_as_ctx(sta)), DOCA_ERROR_IN_PROGRESS);
	CHECK(state_of(doca_sta_as_ctx(sta)) == DOCA_CTX_STATE_STOPPING);
	CHECK(progress_until(pe, doca_sta_as_ctx(sta), DOCA_CTX_STATE_IDLE));
	CHECK(frees == frees_before + 1);
	CHECK_OK(doca_sta_destroy(sta));
	doca_mmap_destroy(sq_m);
	doca_mmap_destroy(cq_m);
	doca_mmap_destroy(db_m);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_call_order(void)
{
	struct doca_pe *pe = NULL;
	struct doca_sta *sta = NULL;
	struct doca_sta_io *io = NULL, *io2 = NULL;
	struct doca_sta_subs_handle *subs = NULL;
	struct doca_sta_be_handle *be = NULL;
	struct doca_sta_eu_handle *eus[96];
	struct doca_sta_producer_task_send *task = NULL;
	union doca_data ud = {.u64 = 0};
	uint32_t n = 0;

	CHECK_OK(doca_pe_create(&pe));

	/* before start: no subsystem, back-end, EU; start needs the allocator */
	CHECK_OK(doca_sta_create(dev, &sta));
	CHECK_ERR(doca_ctx_start(doca_sta_as_ctx(sta)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sta_as_ctx(sta)));
	CHECK_ERR(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:x", &subs), DOCA_ERROR_BAD_STATE);
	CHECK(log_has("start it with doca_ctx_start()"));
	CHECK_ERR(doca_sta_be_create(sta, &be), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_get_eu_handle(sta, eus, &n), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_eu_reset_stats_type(sta, DOCA_STA_EU_MAX), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_start(doca_sta_as_ctx(sta)), DOCA_ERROR_BAD_STATE);
	CHECK(log_has("doca_sta_mem_allocator_register() before doca_ctx_start()"));
	CHECK(state_of(doca_sta_as_ctx(sta)) == DOCA_CTX_STATE_IDLE);

	/* an IO context cannot start before the STA context runs, nor without its callback */
	CHECK_OK(doca_sta_io_create(sta, &io));
	CHECK_ERR(doca_sta_io_create(sta, &io2), DOCA_ERROR_FULL); /* one IO thread by default */
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sta_io_as_ctx(io)));
	CHECK_ERR(doca_ctx_start(doca_sta_io_as_ctx(io)), DOCA_ERROR_BAD_STATE);

	/* tasks not configured: BAD_STATE at allocation */
	CHECK_OK(doca_sta_mem_allocator_register(sta, zmalloc_cb, free_cb, vtophys_cb));
	CHECK_ERR(doca_ctx_start(doca_sta_as_ctx(sta)), DOCA_ERROR_IN_PROGRESS);
	/* STARTING is not RUNNING yet */
	CHECK_ERR(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:x", &subs), DOCA_ERROR_BAD_STATE);
	CHECK(log_has("STARTING"));
	CHECK(progress_until(pe, doca_sta_as_ctx(sta), DOCA_CTX_STATE_RUNNING));
	CHECK_OK(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:x", &subs));
	CHECK_OK(doca_sta_be_create(sta, &be));
	{
		struct doca_sta_ns_handle *ns = NULL;

		CHECK_OK(doca_sta_subsystem_add_ns(subs, 1, 4096, 1, be, &ns));
		CHECK_ERR(doca_sta_subsystem_task_rm_ns_alloc_init(subs, ns, ud, &task), DOCA_ERROR_BAD_STATE);
		CHECK(log_has("doca_sta_subsystem_task_rm_ns_set_conf() before doca_ctx_start()"));
		CHECK_OK(doca_sta_subsystem_rm_ns(subs, ns));
	}

	/* every configuration call after start: BAD_STATE, naming the fix */
	CHECK_ERR(doca_sta_add_dev(sta, dev), DOCA_ERROR_BAD_STATE);
	CHECK(log_has("call doca_sta_add_dev() before doca_ctx_start()"));
	CHECK_ERR(doca_sta_set_max_sta_io(sta, 2), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_mem_allocator_register(sta, zmalloc_cb, free_cb, vtophys_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_event_be_timeout_register_cb(sta, be_timeout_cb, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_event_eu_err_register_cb(sta, eu_err_cb, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_event_cqe_notify_register_cb(sta, cqe_cb, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_subsystem_task_rm_ns_set_conf(sta, done_cb, error_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_be_task_destroy_queue_set_conf(sta, done_cb, error_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_ctx_start(doca_sta_as_ctx(sta)), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_destroy(sta), DOCA_ERROR_BAD_STATE);
	CHECK(log_has("doca_ctx_stop()"));

	/* the IO context: no start without the non-offload callback; configuration before start only */
	CHECK_ERR(doca_ctx_start(doca_sta_io_as_ctx(io)), DOCA_ERROR_BAD_STATE);
	CHECK(log_has("doca_sta_io_non_offload_register_cb() before doca_ctx_start()"));
	CHECK_ERR(doca_sta_io_qp_connect_established(io, (struct doca_sta_qp_handle *)eus), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sta_io_non_offload_register_cb(io, non_offload_cb, ud));
	CHECK_ERR(doca_ctx_start(doca_sta_io_as_ctx(io)), DOCA_ERROR_IN_PROGRESS);
	CHECK(progress_until(pe, doca_sta_io_as_ctx(io), DOCA_CTX_STATE_RUNNING));
	CHECK_ERR(doca_sta_io_non_offload_register_cb(io, non_offload_cb, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_io_event_transport_err_register_cb(io, transport_cb, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_io_task_disconnect_set_conf(io, done_cb, error_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_io_task_non_offload_set_rdma_write_send_conf(io, done_cb, error_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_io_task_non_offload_set_rdma_read_conf(io, done_cb, error_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sta_io_destroy(io), DOCA_ERROR_BAD_STATE);
	/* data tasks not configured: BAD_STATE before anything else */
	CHECK_ERR(doca_sta_io_task_disconnect_alloc_init(io, ud, (struct doca_sta_qp_handle *)eus, &task),
		  DOCA_ERROR_BAD_STATE);

	/* the STA context waits for its IO contexts to stop */
	CHECK_ERR(doca_ctx_stop(doca_sta_as_ctx(sta)), DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 100; i++)
		doca_pe_progress(pe);
	CHECK(state_of(doca_sta_as_ctx(sta)) == DOCA_CTX_STATE_STOPPING);
	CHECK(log_has("until its IO contexts are stopped"));
	CHECK_OK(doca_ctx_stop(doca_sta_io_as_ctx(io)));
	CHECK(progress_until(pe, doca_sta_as_ctx(sta), DOCA_CTX_STATE_IDLE));

	/* stopped: objects stay, but nothing new is made on them */
	{
		static uint8_t mem[4096];
		struct doca_mmap *m = mmap_of(mem, sizeof(mem));
		struct doca_sta_be_q_handle *q = NULL;
		struct doca_sta_ns_handle *ns = NULL;

		CHECK_ERR(doca_sta_be_add_queue(be, m, m, 0, m, m, 4, &q), DOCA_ERROR_BAD_STATE);
		CHECK_ERR(doca_sta_subsystem_add_ns(subs, 2, 512, 2, be, &ns), DOCA_ERROR_BAD_STATE);
		CHECK(log_has("the STA context is IDLE"));
		doca_mmap_destroy(m);
	}

	/* devices: a subsystem takes only the STA context's devices; each is added once */
	{
		struct doca_devinfo **list;
		struct doca_dev *other = NULL;
		uint32_t nd = 0;

		CHECK_OK(doca_devinfo_create_list(&list, &nd));
		for (uint32_t i = 0; i < nd && other == NULL; i++) {
			if (doca_sta_cap_is_supported(list[i]) == DOCA_SUCCESS && list[i] != doca_dev_as_devinfo(dev))
				doca_dev_open(list[i], &other);
		}
		doca_devinfo_destroy_list(list);
		CHECK(other != NULL); /* the BlueField-3 has two PFs */
		if (other != NULL) {
			CHECK_ERR(doca_sta_subsystem_add_dev(subs, other), DOCA_ERROR_INVALID_VALUE);
			CHECK(log_has("add it with doca_sta_add_dev() before doca_ctx_start()"));
			CHECK_OK(doca_sta_add_dev(sta, other));
			CHECK_ERR(doca_sta_add_dev(sta, other), DOCA_ERROR_ALREADY_EXIST);
			CHECK_OK(doca_sta_subsystem_add_dev(subs, other));
		}
		CHECK_ERR(doca_sta_add_dev(sta, NULL), DOCA_ERROR_INVALID_VALUE);
		/* objects left: the STA context cannot be destroyed (the device stays open until then) */
		CHECK_ERR(doca_sta_destroy(sta), DOCA_ERROR_IN_USE);
		CHECK(log_has("destroy them first"));
		CHECK_OK(doca_sta_io_destroy(io));
		CHECK_OK(doca_sta_subsystem_destroy(subs));
		CHECK_OK(doca_sta_be_destroy(be));
		CHECK_OK(doca_sta_destroy(sta));
		if (other != NULL)
			doca_dev_close(other);
	}
	CHECK_OK(doca_pe_destroy(pe));
}

/* QP and data-task calls without a host: their argument checks (tests/unit/sta/test_sta_data.c runs the data path). */
static void test_qp_arguments(void)
{
	struct doca_pe *pe = NULL;
	struct doca_sta *sta;
	struct doca_sta_io *io = NULL;
	struct doca_sta_subs_handle *subs = NULL;
	struct doca_sta_qp_handle *qp = NULL, *qp2 = NULL, *qp3 = NULL;
	struct doca_sta_producer_task_send *task = NULL;
	struct rdma_cm_id *cm_id = (struct rdma_cm_id *)&qp; /* refused before use */
	union doca_data ud = {.u64 = 0}, bogus = {.u64 = 8};
	doca_sta_nvmef_completion_t cqe = {0};
	uint32_t id32 = 0, id32b = 0;
	uint16_t id16 = 0;

	CHECK_OK(doca_pe_create(&pe));
	sta = running_sta(pe, 1);
	CHECK_OK(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:dp", &subs));
	CHECK_OK(doca_sta_io_create(sta, &io));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sta_io_as_ctx(io)));
	CHECK_OK(doca_sta_io_non_offload_register_cb(io, non_offload_cb, ud));
	/* a QP before the IO context runs */
	CHECK_ERR(doca_sta_io_qp_alloc(io, dev, &qp), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sta_io_task_disconnect_set_conf(io, done_cb, error_cb));
	CHECK_OK(doca_sta_io_task_non_offload_set_rdma_write_send_conf(io, done_cb, error_cb));
	CHECK_OK(doca_sta_io_task_non_offload_set_rdma_read_conf(io, done_cb, error_cb));
	CHECK_ERR(doca_ctx_start(doca_sta_io_as_ctx(io)), DOCA_ERROR_IN_PROGRESS);
	CHECK(progress_until(pe, doca_sta_io_as_ctx(io), DOCA_CTX_STATE_RUNNING));

#ifndef STA_DATA_PATH
	/* built without rdma-core's headers: no librdmacm, no QPs */
	CHECK_ERR(doca_sta_io_qp_alloc(io, dev, &qp), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(log_has("without librdmacm"));
	(void)qp2, (void)qp3, (void)task, (void)cm_id, (void)bogus, (void)id32b, (void)id16;
#else
	CHECK_OK(doca_sta_io_qp_alloc(io, dev, &qp));
	CHECK_OK(doca_sta_io_qp_alloc(io, dev, &qp2));
	CHECK_OK(doca_sta_io_qp_get_id(qp, &id32));
	CHECK_OK(doca_sta_io_qp_get_id(qp2, &id32b));
	CHECK(id32 != id32b);
	CHECK_ERR(doca_sta_io_qp_alloc(io, NULL, &qp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_io_qp_accept(io, qp, dev, NULL, NULL, 0, subs), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_io_qp_accept(io, NULL, dev, cm_id, NULL, 0, subs), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_io_qp_connect(io, dev, cm_id, NULL, 32, subs, &qp3), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_io_qp_connect_set_sq_size(io, qp, 128), DOCA_ERROR_INVALID_VALUE); /* depth 128 */
	CHECK(log_has("doca_sta_get_max_io_queue_size()"));
	CHECK_ERR(doca_sta_io_qp_connect_established(io, qp), DOCA_ERROR_BAD_STATE); /* not accepted */
	CHECK_ERR(doca_sta_io_qp_connect_established(io, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sta_io_qp_add_subsystem(io, subs, qp));
	ud.u64 = 77;
	CHECK_OK(doca_sta_io_qp_set_user_data(io, qp, ud));
	ud.u64 = 0;
	CHECK_OK(doca_sta_io_qp_get_user_data(qp, &ud));
	CHECK(ud.u64 == 77);
	CHECK_OK(doca_sta_io_qp_get_port_id(qp, &id16));
	CHECK_OK(doca_sta_io_qp_get_group_id(qp, &id16));
	CHECK(id16 == 0);
	CHECK_OK(doca_sta_io_qp_get_index_in_group(qp, &id16));
	CHECK_ERR(doca_sta_io_qp_get_id(NULL, &id32), DOCA_ERROR_INVALID_VALUE);
	/* the data tasks name a command the non-offload callback gave */
	CHECK_ERR(doca_sta_io_task_non_offload_rdma_write_send_alloc_init(io, ud, qp, cqe, bogus, &task),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK(log_has("non_offload_user_data"));
	CHECK_ERR(doca_sta_io_task_non_offload_rdma_send_alloc_init(io, ud, qp, cqe, bogus, &task), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_io_task_non_offload_rdma_read_alloc_init(io, ud, qp, bogus, &task), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_io_task_non_offload_rdma_read_alloc_init(io, ud, NULL, ud, &task), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sta_io_qp_destroy(io, qp));
	CHECK_OK(doca_sta_io_qp_destroy(io, qp2));
#endif
	/* event getters check their arguments */
	CHECK_ERR(doca_sta_event_transport_err_get_syndrome(NULL, &id32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_event_cqe_notify_get_cqe(NULL, cqe), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_ctx_stop(doca_sta_io_as_ctx(io)));
	CHECK_OK(doca_sta_io_destroy(io));
	CHECK_OK(doca_sta_subsystem_destroy(subs));
	stop_destroy(pe, sta);
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_limits_enforced(void)
{
	struct doca_pe *pe = NULL;
	struct doca_sta *sta = NULL;
	struct doca_sta_subs_handle *subs[129] = {0};
	struct doca_sta_be_handle *bes[65] = {0};
	struct doca_sta_be_q_handle *qs[65] = {0};
	struct doca_sta_ns_handle *ns[33] = {0};
	struct doca_sta_io *ios[3] = {0};
	static uint8_t mem[3][4096];
	struct doca_mmap *m0, *m1, *m2;
	char nqn[64];
	uint32_t max_subsys = limit(doca_sta_get_max_subsys), max_ns = limit(doca_sta_get_max_ns_per_subs);
	uint32_t max_be = limit(doca_sta_get_max_be), max_q = limit(doca_sta_get_max_qs_per_be);
	uint32_t max_io = limit(doca_sta_get_max_io_threads);

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_sta_create(dev, &sta));
	CHECK_ERR(doca_sta_set_max_sta_io(sta, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_set_max_sta_io(sta, (uint16_t)(max_io + 1)), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_has("doca_sta_get_max_io_threads()"));
	CHECK_OK(doca_sta_set_max_sta_io(sta, (uint16_t)max_io));
	CHECK_OK(doca_sta_destroy(sta));

	sta = running_sta(pe, 2);
	CHECK_OK(doca_sta_io_create(sta, &ios[0]));
	CHECK_OK(doca_sta_io_create(sta, &ios[1]));
	CHECK_ERR(doca_sta_io_create(sta, &ios[2]), DOCA_ERROR_FULL);
	CHECK(log_has("doca_sta_set_max_sta_io()"));

	/* subsystems: NQN length, uniqueness, count */
	CHECK_ERR(doca_sta_subsystem_create(sta, "nqn.short", &subs[0]), DOCA_ERROR_INVALID_VALUE);
	for (uint32_t i = 0; i < max_subsys; i++) {
		snprintf(nqn, sizeof(nqn), "nqn.2026-12.io.softdoca:s%u", i);
		CHECK_OK(doca_sta_subsystem_create(sta, nqn, &subs[i]));
	}
	CHECK_ERR(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:s0", &subs[max_subsys]),
		  DOCA_ERROR_ALREADY_EXIST);
	CHECK_ERR(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:one-more", &subs[max_subsys]),
		  DOCA_ERROR_FULL);
	CHECK(log_has("doca_sta_get_max_subsys()"));
	CHECK_OK(doca_sta_subsystem_add_dev(subs[0], dev));
	CHECK_ERR(doca_sta_subsystem_add_dev(subs[0], dev), DOCA_ERROR_ALREADY_EXIST);

	/* back-ends and their queues */
	for (uint32_t i = 0; i < max_be; i++)
		CHECK_OK(doca_sta_be_create(sta, &bes[i]));
	CHECK_ERR(doca_sta_be_create(sta, &bes[max_be]), DOCA_ERROR_FULL);
	m0 = mmap_of(mem[0], sizeof(mem[0]));
	m1 = mmap_of(mem[1], sizeof(mem[1]));
	m2 = mmap_of(mem[2], sizeof(mem[2]));
	CHECK_ERR(doca_sta_be_add_queue(bes[0], m0, m2, 4094, m1, m2, 0, &qs[0]), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_has("doorbell offset"));
	CHECK_ERR(doca_sta_be_add_queue(bes[0], m0, NULL, 0, m1, m2, 4, &qs[0]), DOCA_ERROR_INVALID_VALUE);
	for (uint32_t i = 0; i < max_q; i++)
		CHECK_OK(doca_sta_be_add_queue(bes[0], m0, m2, 0, m1, m2, 4, &qs[i]));
	CHECK_ERR(doca_sta_be_add_queue(bes[0], m0, m2, 0, m1, m2, 4, &qs[max_q]), DOCA_ERROR_FULL);
	CHECK(log_has("doca_sta_get_max_qs_per_be()"));

	/* namespaces: NSIDs, block size, count */
	CHECK_ERR(doca_sta_subsystem_add_ns(subs[0], 0, 512, 1, bes[0], &ns[0]), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sta_subsystem_add_ns(subs[0], 1, 1024, 1, bes[0], &ns[0]), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_has("block size 1024"));
	for (uint32_t i = 0; i < max_ns; i++)
		CHECK_OK(doca_sta_subsystem_add_ns(subs[0], i + 1, 512, i + 1, bes[1], &ns[i]));
	CHECK_ERR(doca_sta_subsystem_add_ns(subs[0], 1, 512, 1, bes[1], &ns[max_ns]), DOCA_ERROR_ALREADY_EXIST);
	CHECK_ERR(doca_sta_subsystem_add_ns(subs[0], max_ns + 1, 512, 1, bes[1], &ns[max_ns]), DOCA_ERROR_FULL);
	CHECK(log_has("doca_sta_get_max_ns_per_subs()"));

	/* a back-end with namespaces or queues stays */
	CHECK_ERR(doca_sta_be_destroy(bes[1]), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_sta_be_destroy(bes[0]), DOCA_ERROR_IN_USE);

	/* tear down: namespaces, queues (tasks), subsystems, back-ends */
	for (uint32_t i = 0; i < max_ns; i++)
		CHECK_OK(doca_sta_subsystem_rm_ns(subs[0], ns[i]));
	CHECK_ERR(doca_sta_subsystem_rm_ns(subs[0], ns[0]), DOCA_ERROR_NOT_FOUND);
	task_done = 0;
	for (uint32_t i = 0; i < max_q; i++) {
		struct doca_sta_producer_task_send *t = NULL;
		union doca_data ud = {.u64 = 77};

		CHECK_OK(doca_sta_be_destroy_queue_task_alloc_init(qs[i], ud, &t));
		CHECK_OK(doca_task_submit(doca_sta_producer_send_task_as_task(t)));
	}
	for (int i = 0; i < 10000 && task_done < (int)max_q; i++)
		doca_pe_progress(pe);
	CHECK(task_done == (int)max_q);
	for (uint32_t i = 0; i < max_subsys; i++)
		CHECK_OK(doca_sta_subsystem_destroy(subs[i]));
	for (uint32_t i = 0; i < max_be; i++)
		CHECK_OK(doca_sta_be_destroy(bes[i]));
	CHECK_OK(doca_sta_io_destroy(ios[0]));
	CHECK_OK(doca_sta_io_destroy(ios[1]));
	stop_destroy(pe, sta);
	doca_mmap_destroy(m0);
	doca_mmap_destroy(m1);
	doca_mmap_destroy(m2);
	CHECK_OK(doca_pe_destroy(pe));
}

/* A subsystem with namespaces is not destroyed; a second removal task of one namespace fails. */
static void test_subsystem_with_namespaces(void)
{
	struct doca_pe *pe = NULL;
	struct doca_sta *sta;
	struct doca_sta_subs_handle *subs = NULL;
	struct doca_sta_be_handle *be = NULL;
	struct doca_sta_ns_handle *ns = NULL;
	struct doca_sta_producer_task_send *t1 = NULL, *t2 = NULL;
	union doca_data ud = {.u64 = 77};

	CHECK_OK(doca_pe_create(&pe));
	sta = running_sta(pe, 1);
	CHECK_OK(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:ns", &subs));
	CHECK_OK(doca_sta_be_create(sta, &be));
	CHECK_OK(doca_sta_subsystem_add_ns(subs, 7, 4096, 3, be, &ns));
	CHECK_ERR(doca_sta_subsystem_destroy(subs), DOCA_ERROR_IN_USE);
	CHECK(log_has("still has 1 namespaces; remove them first"));

	task_done = task_failed = 0;
	CHECK_OK(doca_sta_subsystem_task_rm_ns_alloc_init(subs, ns, ud, &t1));
	CHECK_OK(doca_sta_subsystem_task_rm_ns_alloc_init(subs, ns, ud, &t2));
	CHECK_OK(doca_task_submit(doca_sta_producer_send_task_as_task(t1)));
	CHECK_OK(doca_task_submit(doca_sta_producer_send_task_as_task(t2)));
	for (int i = 0; i < 1000 && task_done + task_failed < 2; i++)
		doca_pe_progress(pe);
	CHECK(task_done == 1 && task_failed == 1);
	CHECK(task_status == DOCA_ERROR_NOT_FOUND);
	CHECK_OK(doca_sta_subsystem_destroy(subs));
	CHECK_OK(doca_sta_be_destroy(be));
	stop_destroy(pe, sta);
	CHECK_OK(doca_pe_destroy(pe));
}

/*
 * A remove-namespace task that the stop flushes before it ran: its namespace left the
 * subsystem at submit and is freed with the flush (LeakSanitizer finds it otherwise).
 */
static void test_rm_ns_flushed(void)
{
	struct doca_pe *pe = NULL;
	struct doca_sta *sta;
	struct doca_sta_subs_handle *subs = NULL;
	struct doca_sta_be_handle *be = NULL;
	struct doca_sta_ns_handle *ns = NULL;
	struct doca_sta_producer_task_send *t = NULL;
	doca_error_t err;

	CHECK_OK(doca_pe_create(&pe));
	sta = running_sta(pe, 1);
	CHECK_OK(doca_sta_subsystem_create(sta, "nqn.2026-12.io.softdoca:flush", &subs));
	CHECK_OK(doca_sta_be_create(sta, &be));
	CHECK_OK(doca_sta_subsystem_add_ns(subs, 7, 4096, 3, be, &ns));
	task_done = task_failed = 0;
	CHECK_OK(doca_sta_subsystem_task_rm_ns_alloc_init(subs, ns, (union doca_data){.u64 = 77}, &t));
	CHECK_OK(doca_task_submit(doca_sta_producer_send_task_as_task(t)));
	err = doca_ctx_stop(doca_sta_as_ctx(sta)); /* before any progress ran the task */
	CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	CHECK(progress_until(pe, doca_sta_as_ctx(sta), DOCA_CTX_STATE_IDLE));
	CHECK(task_done == 0 && task_failed == 1 && task_status == DOCA_ERROR_SHUTDOWN);
	CHECK(log_has("remove-namespace task flushed by the stop"));
	CHECK_OK(doca_sta_subsystem_destroy(subs)); /* no namespace left in it */
	CHECK_OK(doca_sta_be_destroy(be));
	CHECK_OK(doca_sta_destroy(sta));
	CHECK_OK(doca_pe_destroy(pe));
}

/* SPDK's pattern: one IO context per IO thread, each made, started and stopped on its thread. */
#define IO_THREADS 4
static struct doca_sta *shared_sta;
static pthread_barrier_t io_barrier;
static int io_thread_failures;

static void *io_thread(void *arg)
{
	struct doca_pe *pe = NULL;
	struct doca_sta_io *io = NULL;
	union doca_data ud = {.u64 = 0};
	bool ok;

	(void)arg;
	ok = doca_pe_create(&pe) == DOCA_SUCCESS && doca_sta_io_create(shared_sta, &io) == DOCA_SUCCESS &&
	     doca_pe_connect_ctx(pe, doca_sta_io_as_ctx(io)) == DOCA_SUCCESS &&
	     doca_sta_io_non_offload_register_cb(io, non_offload_cb, ud) == DOCA_SUCCESS &&
	     doca_ctx_start(doca_sta_io_as_ctx(io)) == DOCA_ERROR_IN_PROGRESS &&
	     progress_until(pe, doca_sta_io_as_ctx(io), DOCA_CTX_STATE_RUNNING);
	pthread_barrier_wait(&io_barrier); /* all running */
	pthread_barrier_wait(&io_barrier); /* the STA context is stopping */
	ok = ok && doca_ctx_stop(doca_sta_io_as_ctx(io)) == DOCA_SUCCESS && doca_sta_io_destroy(io) == DOCA_SUCCESS &&
	     doca_pe_destroy(pe) == DOCA_SUCCESS;
	if (!ok)
		__atomic_add_fetch(&io_thread_failures, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void test_io_threads(void)
{
	struct doca_pe *pe = NULL;
	struct doca_sta_io *extra = NULL;
	pthread_t threads[IO_THREADS];

	CHECK_OK(doca_pe_create(&pe));
	shared_sta = running_sta(pe, IO_THREADS);
	io_thread_failures = 0;
	pthread_barrier_init(&io_barrier, NULL, IO_THREADS + 1);
	for (int i = 0; i < IO_THREADS; i++)
		CHECK(pthread_create(&threads[i], NULL, io_thread, NULL) == 0);
	pthread_barrier_wait(&io_barrier);
	CHECK_ERR(doca_sta_io_create(shared_sta, &extra), DOCA_ERROR_FULL);
	CHECK_ERR(doca_ctx_stop(doca_sta_as_ctx(shared_sta)), DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 100; i++)
		doca_pe_progress(pe);
	CHECK(state_of(doca_sta_as_ctx(shared_sta)) == DOCA_CTX_STATE_STOPPING);
	pthread_barrier_wait(&io_barrier);
	for (int i = 0; i < IO_THREADS; i++)
		pthread_join(threads[i], NULL);
	CHECK(io_thread_failures == 0);
	CHECK(progress_until(pe, doca_sta_as_ctx(shared_sta), DOCA_CTX_STATE_IDLE));
	CHECK_OK(doca_sta_destroy(shared_sta));
	pthread_barrier_destroy(&io_barrier);
	CHECK_OK(doca_pe_destroy(pe));
}

/* One card of each profile: only BlueField-3 functions have STA; the others say which card they are. */
static int run_profiles(void)
{
	struct doca_devinfo **list;
	uint32_t n = 0, supported = 0;
	const char *logged;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n; i++) {
		struct doca_dev *d = NULL;
		struct doca_sta *sta = NULL;

		if (doca_sta_cap_is_supported(list[i]) == DOCA_SUCCESS) {
			supported++;
			continue;
		}
		CHECK_OK(doca_dev_open(list[i], &d));
		CHECK_ERR(doca_sta_create(d, &sta), DOCA_ERROR_NOT_SUPPORTED);
		doca_dev_close(d);
	}
	logged = log_read(sdk_log);
	CHECK(strstr(logged, "BlueField-2") != NULL);
	CHECK(strstr(logged, "ConnectX-7") != NULL);
	CHECK(strstr(logged, "ConnectX-6 Dx") != NULL);
	CHECK(strstr(logged, "STA needs a BlueField-3") != NULL);
	CHECK(supported == 2); /* the BlueField-3's two host-side PFs */
	CHECK(supported < n);
	CHECK(limit(doca_sta_get_max_subsys) == 128); /* the model has a BlueField-3 */
	doca_devinfo_destroy_list(list);
	TEST_EXIT();
}

/* A model without BlueField-3 (the configuration names the profile): no STA at all. */
static int run_unsupported(const char *profile)
{
	struct doca_devinfo **list;
	uint32_t n = 0, v = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n > 0);
	for (uint32_t i = 0; i < n; i++) {
		struct doca_dev *d = NULL;
		struct doca_sta *sta = NULL;

		CHECK_ERR(doca_sta_cap_is_supported(list[i]), DOCA_ERROR_NOT_SUPPORTED);
		CHECK(log_has(profile));
		CHECK_OK(doca_dev_open(list[i], &d));
		CHECK_ERR(doca_sta_create(d, &sta), DOCA_ERROR_NOT_SUPPORTED);
		CHECK(log_has(profile));
		doca_dev_close(d);
	}
	doca_devinfo_destroy_list(list);
	CHECK_ERR(doca_sta_get_max_subsys(&v), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(log_has(profile));
	CHECK_ERR(doca_sta_get_max_io_threads(&v), DOCA_ERROR_NOT_SUPPORTED);
	TEST_EXIT();
}

int main(int argc, char **argv)
{
	struct doca_log_backend *backend = NULL;

	alarm(60);
	sdk_log = tmpfile();
	CHECK(sdk_log != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(sdk_log, &backend));
	CHECK_OK(doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_DEBUG));
	if (argc > 2 && strcmp(argv[1], "unsupported") == 0)
		return run_unsupported(argv[2]);
	if (argc > 1 && strcmp(argv[1], "profiles") == 0)
		return run_profiles();

	dev = open_sta_dev();
	CHECK(dev != NULL);
	if (dev == NULL)
		TEST_EXIT();
	TEST_RUN(test_limits_from_profile);
	TEST_RUN(test_lifecycle);
	TEST_RUN(test_call_order);
	TEST_RUN(test_qp_arguments);
	TEST_RUN(test_limits_enforced);
	TEST_RUN(test_subsystem_with_namespaces);
	TEST_RUN(test_rm_ns_flushed);
	TEST_RUN(test_io_threads);
	doca_dev_close(dev);
	TEST_EXIT();
}
