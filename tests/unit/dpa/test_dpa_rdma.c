/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA contexts whose datapath is on the DPA, DPA completion contexts and async ops: device
 * code (test_dpa_dev.c) posts receives, sends, one-sided operations and signals, copies and
 * waits, and reads the completions through RPCs. The bad inputs: handles of another DPA
 * context, an RDMA context whose datapath is on the CPU, an RDMA context started without a
 * completion context, acknowledging more than arrived, a local mmap as the remote side. Each
 * is refused with a line that names the fix; a device-side one puts the DPA context in error.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doca_buf_array.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dpa.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "doca_rdma.h"
#include "doca_sync_event.h"

#include "log_test.h"
#include "test.h"
#include "dpa_test.h"

/* doca_dpa_dev_completion_type_t (a device header) */
#define COMP_SEND 0x0
#define COMP_RECV_SEND 0x2
#define COMP_RECV_SEND_IMM 0x3
#define COMP_RECV_WRITE_IMM 0x1
#define SUBMIT_FLUSH 1U

extern doca_dpa_func_t comp_stamp_rpc, buf_copy_rpc, buf_send_rpc, rdma_signal_rpc, async_copy_rpc, async_wait_rpc, rdma_one_sided_rpc, rdma_recv_rpc,
	rdma_send_rpc, rdma_send_imm_rpc, comp_take_rpc, comp_ack_rpc, comp_elem_rpc, poll_forever, notify_rpc;

static FILE *sdk_log_file;
static struct doca_dev *dev;
static uint64_t send_buf[4], recv_buf[4];

static bool logged(const char *text)
{
	return log_take(sdk_log_file, text);
}

static struct doca_dpa_completion *started_comp(struct doca_dpa *dpa, doca_dpa_dev_completion_t *h)
{
	struct doca_dpa_completion *c = NULL;

	CHECK_OK(doca_dpa_completion_create(dpa, 4, &c));
	CHECK_OK(doca_dpa_completion_start(c));
	CHECK_OK(doca_dpa_completion_get_dpa_handle(c, h));
	return c;
}

/* An RDMA context whose datapath is on dpa, completing into comp, started, with one connection exported. */
static struct doca_rdma *dpa_rdma(struct doca_dpa *dpa, struct doca_dpa_completion *comp,
				  struct doca_rdma_connection **conn, const void **blob, size_t *len)
{
	struct doca_rdma *r = NULL;

	CHECK_OK(doca_rdma_create(dev, &r));
	CHECK_OK(doca_rdma_set_permissions(r, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE |
						      DOCA_ACCESS_FLAG_RDMA_READ));
	CHECK_OK(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(r), dpa));
	CHECK_OK(doca_rdma_dpa_completion_attach(r, comp));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(r)));
	CHECK_OK(doca_rdma_export(r, blob, len, conn));
	return r;
}

static void rdma_destroy(struct doca_rdma *r)
{
	CHECK_OK(doca_ctx_stop(doca_rdma_as_ctx(r)));
	CHECK_OK(doca_rdma_destroy(r));
}

static struct doca_mmap *host_mmap(void *buf, size_t len, doca_dpa_dev_mmap_t *h)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, buf, len));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(m, dev, h));
	return m;
}

/* Takes one completion through the device, waiting up to 10 s for it. */
static uint64_t take(struct doca_dpa *dpa, doca_dpa_dev_completion_t comp)
{
	struct timespec start, now;
	uint64_t packed = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		CHECK_OK(doca_dpa_rpc(dpa, &comp_take_rpc, &packed, comp));
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (packed == 0 && now.tv_sec - start.tv_sec < 10);
	return packed;
}

/*
 * Two connected contexts on one DPA, completions read by device code (no thread): a send
 * arrives as RECV_SEND with the receiver's connection id, a send with immediate as
 * RECV_SEND_IMM, and a send without OPTIMIZE_REPORTS completes at the sender too.
 */
static void test_send_receive(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_completion_t hca, hcb;
	struct doca_dpa_completion *ca = started_comp(dpa, &hca), *cb = started_comp(dpa, &hcb);
	struct doca_rdma_connection *conn_a, *conn_b;
	const void *blob_a, *blob_b;
	size_t len_a, len_b;
	struct doca_rdma *a = dpa_rdma(dpa, ca, &conn_a, &blob_a, &len_a);
	struct doca_rdma *b = dpa_rdma(dpa, cb, &conn_b, &blob_b, &len_b);
	doca_dpa_dev_rdma_t ha, hb;
	doca_dpa_dev_mmap_t hs, hr;
	struct doca_mmap *ms = host_mmap(send_buf, sizeof(send_buf), &hs);
	struct doca_mmap *mr = host_mmap(recv_buf, sizeof(recv_buf), &hr);
	uint32_t id_a, id_b;
	uint64_t ret = 0, packed;

	CHECK_OK(doca_rdma_connect(a, blob_b, len_b, conn_a));
	CHECK_OK(doca_rdma_connect(b, blob_a, len_a, conn_b));
	CHECK_OK(doca_rdma_connection_get_id(conn_a, &id_a));
	CHECK_OK(doca_rdma_connection_get_id(conn_b, &id_b));
	CHECK_OK(doca_rdma_get_dpa_handle(a, &ha));
	CHECK_OK(doca_rdma_get_dpa_handle(b, &hb));
	send_buf[0] = 0x1234;
	send_buf[1] = 0x5678;
	memset(recv_buf, 0, sizeof(recv_buf));
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_recv_rpc, &ret, hb, hr, (uint64_t)(uintptr_t)&recv_buf[0], (uint64_t)8));
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_recv_rpc, &ret, hb, hr, (uint64_t)(uintptr_t)&recv_buf[1], (uint64_t)8));
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_send_rpc, &ret, ha, id_a, hs, (uint64_t)(uintptr_t)&send_buf[0], (uint64_t)8,
			      SUBMIT_FLUSH));
	packed = take(dpa, hcb);
	CHECK((packed & 0xff) == 1 && ((packed >> 8) & 0xff) == COMP_RECV_SEND && ((packed >> 16) & 0xffff) == id_b);
	CHECK(recv_buf[0] == 0x1234);
	packed = take(dpa, hca);
	CHECK((packed & 0xff) == 1 && ((packed >> 8) & 0xff) == COMP_SEND && ((packed >> 16) & 0xffff) == id_a);
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_send_imm_rpc, &ret, ha, id_a, hs, (uint64_t)(uintptr_t)&send_buf[1],
			      (uint64_t)8, (uint32_t)77));
	packed = take(dpa, hcb);
	CHECK(((packed >> 8) & 0xff) == COMP_RECV_SEND_IMM && (packed >> 32) == 77);
	CHECK(recv_buf[1] == 0x5678);
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	/* RDMA-CM is not offered on a DPA datapath */
	CHECK_ERR(doca_rdma_start_listen_to_port(a, 17777), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(logged("RDMA-CM connections of a datapath on the DPA are not supported yet"));
	/* a completion context cannot go while an RDMA context is attached */
	CHECK_ERR(doca_dpa_completion_destroy(ca), DOCA_ERROR_IN_USE);
	CHECK(logged("RDMA contexts or async ops are attached to it; destroy them first"));
	rdma_destroy(a);
	rdma_destroy(b);
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(mr));
	CHECK_OK(doca_dpa_completion_destroy(ca));
	CHECK_OK(doca_dpa_completion_destroy(cb));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/*
 * One-sided operations from the DPA on a peer's memory (an mmap imported from its RDMA
 * export): write, write with immediate (consumes a receive at the peer), read, fetch-and-add.
 * A local mmap handle as the remote side is refused.
 */
static void test_one_sided(void)
{
	const uint32_t rights = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE |
				DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_completion_t hca, hcb;
	struct doca_dpa_completion *ca = started_comp(dpa, &hca), *cb = started_comp(dpa, &hcb);
	struct doca_rdma_connection *conn_a, *conn_b;
	const void *blob_a, *blob_b, *exp;
	size_t len_a, len_b, exp_len;
	struct doca_rdma *a = NULL, *b = NULL;
	struct doca_mmap *target = NULL, *imported = NULL, *local;
	doca_dpa_dev_mmap_t hl, hremote, hr;
	doca_dpa_dev_rdma_t ha, hb;
	uint64_t ret = 0, packed;
	uint32_t id_a;

	for (int i = 0; i < 2; i++) {
		struct doca_rdma **r = i == 0 ? &a : &b;

		CHECK_OK(doca_rdma_create(dev, r));
		CHECK_OK(doca_rdma_set_permissions(*r, rights));
		CHECK_OK(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(*r), dpa));
		CHECK_OK(doca_rdma_dpa_completion_attach(*r, i == 0 ? ca : cb));
		CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(*r)));
	}
	CHECK_OK(doca_rdma_export(a, &blob_a, &len_a, &conn_a));
	CHECK_OK(doca_rdma_export(b, &blob_b, &len_b, &conn_b));
	CHECK_OK(doca_rdma_connect(a, blob_b, len_b, conn_a));
	CHECK_OK(doca_rdma_connect(b, blob_a, len_a, conn_b));
	CHECK_OK(doca_rdma_connection_get_id(conn_a, &id_a));
	CHECK_OK(doca_rdma_get_dpa_handle(a, &ha));
	CHECK_OK(doca_rdma_get_dpa_handle(b, &hb));
	/* the target's memory (recv_buf), exported and imported back as the peer's */
	CHECK_OK(doca_mmap_create(&target));
	CHECK_OK(doca_mmap_set_memrange(target, recv_buf, sizeof(recv_buf)));
	CHECK_OK(doca_mmap_set_permissions(target, rights));
	CHECK_OK(doca_mmap_add_dev(target, dev));
	CHECK_OK(doca_mmap_start(target));
	CHECK_OK(doca_mmap_export_rdma(target, dev, &exp, &exp_len));
	CHECK_OK(doca_mmap_create_from_export(NULL, exp, exp_len, dev, &imported));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(imported, dev, &hremote));
	local = host_mmap(send_buf, sizeof(send_buf), &hl);
	CHECK_OK(doca_mmap_dev_get_dpa_handle(target, dev, &hr));
	memset(recv_buf, 0, sizeof(recv_buf));
	send_buf[0] = 0xabc;
	send_buf[1] = 0xdef;
	/* write */
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_one_sided_rpc, &ret, ha, id_a, (uint32_t)0, hl, (uint64_t)(uintptr_t)&send_buf[0],
			      hremote, (uint64_t)(uintptr_t)&recv_buf[0], (uint64_t)8));
	packed = take(dpa, hca);
	CHECK(((packed >> 8) & 0xff) == COMP_SEND && recv_buf[0] == 0xabc);
	/* write with immediate: a receive at the target takes the immediate */
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_recv_rpc, &ret, hb, hr, (uint64_t)(uintptr_t)&recv_buf[3], (uint64_t)8));
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_one_sided_rpc, &ret, ha, id_a, (uint32_t)1, hl, (uint64_t)(uintptr_t)&send_buf[1],
			      hremote, (uint64_t)(uintptr_t)&recv_buf[1], (uint64_t)8));
	packed = take(dpa, hcb);
	CHECK(((packed >> 8) & 0xff) == COMP_RECV_WRITE_IMM && (packed >> 32) == 99 && recv_buf[1] == 0xdef);
	packed = take(dpa, hca);
	CHECK(((packed >> 8) & 0xff) == COMP_SEND);
	/* read back into send_buf[2] */
	recv_buf[2] = 0x777;
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_one_sided_rpc, &ret, ha, id_a, (uint32_t)2, hl, (uint64_t)(uintptr_t)&send_buf[2],
			      hremote, (uint64_t)(uintptr_t)&recv_buf[2], (uint64_t)8));
	packed = take(dpa, hca);
	CHECK(((packed >> 8) & 0xff) == COMP_SEND && send_buf[2] == 0x777);
	/* fetch-and-add 5 */
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_one_sided_rpc, &ret, ha, id_a, (uint32_t)3, (uint32_t)0, (uint64_t)0, hremote,
			      (uint64_t)(uintptr_t)&recv_buf[2], (uint64_t)5));
	packed = take(dpa, hca);
	CHECK(((packed >> 8) & 0xff) == COMP_SEND && recv_buf[2] == 0x777 + 5);
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	/* a local handle as the remote side */
	CHECK_ERR(doca_dpa_rpc(dpa, &rdma_one_sided_rpc, &ret, ha, id_a, (uint32_t)0, hl, (uint64_t)(uintptr_t)&send_buf[0],
			       hr, (uint64_t)(uintptr_t)&recv_buf[0], (uint64_t)8),
		  DOCA_ERROR_BAD_STATE);
	CHECK(logged("is local memory; the remote side needs the handle of an mmap created with "
		     "doca_mmap_create_from_export()"));
	rdma_destroy(a);
	rdma_destroy(b);
	CHECK_OK(doca_mmap_destroy(local));
	CHECK_OK(doca_mmap_destroy(imported));
	CHECK_OK(doca_mmap_stop(target));
	CHECK_OK(doca_mmap_destroy(target));
	CHECK_OK(doca_dpa_completion_destroy(ca));
	CHECK_OK(doca_dpa_completion_destroy(cb));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/*
 * Async ops: a device copy completes into the ops' completion context with their user data
 * (none with OPTIMIZE_REPORTS); a post-wait completes only once the event's value passes.
 */
static void test_async_ops(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_completion_t hc;
	struct doca_dpa_completion *c = started_comp(dpa, &hc);
	struct doca_dpa_async_ops *ops = NULL, *bad = NULL;
	struct doca_sync_event *ev = NULL;
	doca_dpa_dev_sync_event_t hev;
	doca_dpa_dev_async_ops_t hops;
	doca_dpa_dev_mmap_t hs, hr;
	struct doca_mmap *ms = host_mmap(send_buf, sizeof(send_buf), &hs);
	struct doca_mmap *mr = host_mmap(recv_buf, sizeof(recv_buf), &hr);
	uint64_t ret = 0, packed, ud = 0;

	CHECK_ERR(doca_dpa_async_ops_create(dpa, 4, 1ULL << 24, &bad), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("user_data does not fit DOCA_DPA_COMPLETION_LOG_MAX_USER_DATA (24) bits"));
	CHECK_OK(doca_dpa_async_ops_create(dpa, 4, 0x1234, &ops));
	CHECK_ERR(doca_dpa_async_ops_start(ops), DOCA_ERROR_BAD_STATE);
	CHECK(logged("no completion context; call doca_dpa_async_ops_attach() first"));
	CHECK_OK(doca_dpa_async_ops_attach(ops, c));
	CHECK_OK(doca_dpa_async_ops_start(ops));
	CHECK_OK(doca_dpa_async_ops_get_dpa_handle(ops, &hops));
	CHECK_OK(doca_dpa_async_ops_get_user_data(ops, &ud));
	CHECK(ud == 0x1234);
	/* a copy: done on return, its completion carries the user data */
	send_buf[3] = 0x5151;
	recv_buf[3] = 0;
	CHECK_OK(doca_dpa_rpc(dpa, &async_copy_rpc, &ret, hops, hr, (uint64_t)(uintptr_t)&recv_buf[3], hs,
			      (uint64_t)(uintptr_t)&send_buf[3], (uint64_t)8, (uint32_t)1));
	CHECK(recv_buf[3] == 0x5151);
	packed = take(dpa, hc);
	CHECK((packed & 0xff) == 1 && ((packed >> 8) & 0xff) == COMP_SEND && ((packed >> 16) & 0xffff) == 0x1234);
	/* an element's timestamp is when it was queued (CLOCK_MONOTONIC ns) */
	{
		struct timespec t0, t1;
		uint64_t stamp = 0;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		CHECK_OK(doca_dpa_rpc(dpa, &async_copy_rpc, &ret, hops, hr, (uint64_t)(uintptr_t)&recv_buf[3], hs,
				      (uint64_t)(uintptr_t)&send_buf[3], (uint64_t)8, (uint32_t)1));
		CHECK_OK(doca_dpa_rpc(dpa, &comp_stamp_rpc, &stamp, hc));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		CHECK(stamp >= (uint64_t)t0.tv_sec * 1000000000ULL + (uint64_t)t0.tv_nsec &&
		      stamp <= (uint64_t)t1.tv_sec * 1000000000ULL + (uint64_t)t1.tv_nsec);
	}
	/* with OPTIMIZE_REPORTS: no element */
	CHECK_OK(doca_dpa_rpc(dpa, &async_copy_rpc, &ret, hops, hr, (uint64_t)(uintptr_t)&recv_buf[3], hs,
			      (uint64_t)(uintptr_t)&send_buf[3], (uint64_t)8, (uint32_t)2));
	CHECK_OK(doca_dpa_rpc(dpa, &comp_take_rpc, &packed, hc));
	CHECK(packed == 0);
	/* a wait for the event to pass 5: nothing until the CPU sets 6 */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_add_subscriber_location_dpa(ev, dpa));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_get_dpa_handle(ev, dpa, &hev));
	CHECK_OK(doca_sync_event_update_set(ev, 5));
	CHECK_OK(doca_dpa_rpc(dpa, &async_wait_rpc, &ret, hops, hev, (uint64_t)5, (uint32_t)0));
	CHECK_OK(doca_dpa_rpc(dpa, &comp_take_rpc, &packed, hc));
	CHECK(packed == 0);
	CHECK_ERR(doca_dpa_async_ops_stop(ops), DOCA_ERROR_IN_USE);
	CHECK(logged("sync-event waits posted on them are not over"));
	CHECK_OK(doca_sync_event_update_set(ev, 6));
	packed = take(dpa, hc);
	CHECK((packed & 0xff) == 1 && ((packed >> 16) & 0xffff) == 0x1234);
	/* a wait for a value other than 6 */
	CHECK_OK(doca_dpa_rpc(dpa, &async_wait_rpc, &ret, hops, hev, (uint64_t)6, (uint32_t)1));
	CHECK_OK(doca_sync_event_update_set(ev, 7));
	packed = take(dpa, hc);
	CHECK((packed & 0xff) == 1);
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	/* a handle that is not started async ops of this context */
	CHECK_ERR(doca_dpa_rpc(dpa, &async_copy_rpc, &ret, hc, hr, (uint64_t)(uintptr_t)&recv_buf[3], hs,
			       (uint64_t)(uintptr_t)&send_buf[3], (uint64_t)8, (uint32_t)1),
		  DOCA_ERROR_BAD_STATE);
	CHECK(logged("not started async ops of this DPA context"));
	CHECK_ERR(doca_dpa_completion_destroy(c), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_dpa_async_ops_destroy(ops));
	CHECK_OK(doca_dpa_completion_destroy(c));
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(mr));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* Waits up to 10 s for the event's value to become want. */
static bool event_reaches(struct doca_sync_event *ev, uint64_t want)
{
	struct timespec start, now;
	uint64_t v = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		CHECK_OK(doca_sync_event_get(ev, &v));
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (v != want && now.tv_sec - start.tv_sec < 10);
	return v == want;
}

/* A peer's sync event (remote net) set and added to from the DPA by RDMA. */
static void test_signal(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_completion_t hca, hcb;
	struct doca_dpa_completion *ca = started_comp(dpa, &hca), *cb = started_comp(dpa, &hcb);
	struct doca_rdma_connection *conn_a, *conn_b;
	const void *blob_a, *blob_b;
	size_t len_a, len_b, bl;
	struct doca_rdma *a = dpa_rdma(dpa, ca, &conn_a, &blob_a, &len_a);
	struct doca_rdma *b = dpa_rdma(dpa, cb, &conn_b, &blob_b, &len_b);
	struct doca_sync_event_remote_net *rev = NULL;
	doca_dpa_dev_sync_event_remote_net_t hrev;
	struct doca_sync_event *ev = NULL;
	doca_dpa_dev_rdma_t ha;
	const uint8_t *blob;
	uint64_t ret = 0;
	uint32_t id_a;

	CHECK_OK(doca_rdma_connect(a, blob_b, len_b, conn_a));
	CHECK_OK(doca_rdma_connect(b, blob_a, len_a, conn_b));
	CHECK_OK(doca_rdma_connection_get_id(conn_a, &id_a));
	CHECK_OK(doca_rdma_get_dpa_handle(a, &ha));
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &blob, &bl));
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, blob, bl, &rev));
	CHECK_OK(doca_sync_event_remote_net_get_dpa_handle(rev, dpa, &hrev));
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_signal_rpc, &ret, ha, id_a, hrev, (uint64_t)0xD0CA, (uint32_t)0));
	CHECK(event_reaches(ev, 0xD0CA));
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_signal_rpc, &ret, ha, id_a, hrev, (uint64_t)2, (uint32_t)1));
	CHECK(event_reaches(ev, 0xD0CC));
	CHECK(((take(dpa, hca) >> 8) & 0xff) == COMP_SEND);
	CHECK(((take(dpa, hca) >> 8) & 0xff) == COMP_SEND);
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	/* something that is not a remote net event handle */
	CHECK_ERR(doca_dpa_rpc(dpa, &rdma_signal_rpc, &ret, ha, id_a, hrev + 1, (uint64_t)1, (uint32_t)0),
		  DOCA_ERROR_BAD_STATE);
	CHECK(logged("not a remote net sync event handle of this DPA context"));
	rdma_destroy(a);
	rdma_destroy(b);
	CHECK_OK(doca_sync_event_remote_net_destroy(rev));
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_dpa_completion_destroy(ca));
	CHECK_OK(doca_dpa_completion_destroy(cb));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* A doca_buf_arr with a DPA target: device copies between its bufs and a send of one. */
static void test_buf_array(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_completion_t hca, hcb;
	struct doca_dpa_completion *ca = started_comp(dpa, &hca), *cb = started_comp(dpa, &hcb);
	struct doca_rdma_connection *conn_a, *conn_b;
	const void *blob_a, *blob_b;
	size_t len_a, len_b;
	struct doca_rdma *a = dpa_rdma(dpa, ca, &conn_a, &blob_a, &len_a);
	struct doca_rdma *b = dpa_rdma(dpa, cb, &conn_b, &blob_b, &len_b);
	struct doca_buf_arr *arr = NULL;
	doca_dpa_dev_buf_arr_t harr;
	doca_dpa_dev_rdma_t ha, hb;
	doca_dpa_dev_mmap_t hs, hr;
	struct doca_mmap *ms = host_mmap(send_buf, sizeof(send_buf), &hs);
	struct doca_mmap *mr = host_mmap(recv_buf, sizeof(recv_buf), &hr);
	uint64_t ret = 0, packed;
	uint32_t id_a;

	CHECK_OK(doca_buf_arr_create(4, &arr));
	CHECK_OK(doca_buf_arr_set_params(arr, ms, 8, 0));
	CHECK_OK(doca_buf_arr_set_target_dpa(arr, dpa));
	CHECK_ERR(doca_buf_arr_get_dpa_handle(arr, &harr), DOCA_ERROR_BAD_STATE);
	CHECK(logged("array is not started; call doca_buf_arr_start() first"));
	CHECK_OK(doca_buf_arr_start(arr));
	CHECK_OK(doca_buf_arr_get_dpa_handle(arr, &harr));
	send_buf[0] = 0x600d;
	send_buf[2] = 0;
	CHECK_OK(doca_dpa_rpc(dpa, &buf_copy_rpc, &ret, harr, (uint64_t)2, (uint64_t)0));
	CHECK(ret == 0x600d && send_buf[2] == 0x600d);
	/* buf 2 sent into a receive of the peer */
	CHECK_OK(doca_rdma_connect(a, blob_b, len_b, conn_a));
	CHECK_OK(doca_rdma_connect(b, blob_a, len_a, conn_b));
	CHECK_OK(doca_rdma_connection_get_id(conn_a, &id_a));
	CHECK_OK(doca_rdma_get_dpa_handle(a, &ha));
	CHECK_OK(doca_rdma_get_dpa_handle(b, &hb));
	recv_buf[0] = 0;
	CHECK_OK(doca_dpa_rpc(dpa, &rdma_recv_rpc, &ret, hb, hr, (uint64_t)(uintptr_t)&recv_buf[0], (uint64_t)8));
	CHECK_OK(doca_dpa_rpc(dpa, &buf_send_rpc, &ret, ha, id_a, harr, (uint64_t)2));
	CHECK(ret == 8);
	packed = take(dpa, hcb);
	CHECK(((packed >> 8) & 0xff) == COMP_RECV_SEND && recv_buf[0] == 0x600d);
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	CHECK_OK(doca_buf_arr_destroy(arr));
	rdma_destroy(a);
	rdma_destroy(b);
	CHECK_OK(doca_mmap_destroy(ms));
	CHECK_OK(doca_mmap_destroy(mr));
	CHECK_OK(doca_dpa_completion_destroy(ca));
	CHECK_OK(doca_dpa_completion_destroy(cb));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* Handles of one DPA context given to another: refused on the host and on the device. */
static void test_foreign_handles(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev), *other = dpa_test_started(dev);
	doca_dpa_dev_completion_t hc, hco; /* co's handle is never used: only co itself */
	struct doca_dpa_completion *c = started_comp(dpa, &hc), *co = started_comp(other, &hco);
	struct doca_dpa_thread *t = NULL;
	struct doca_rdma_connection *conn;
	struct doca_rdma *r = NULL;
	const void *blob;
	size_t len;
	doca_dpa_dev_rdma_t hr;
	uint64_t ret = 0;

	/* host: a completion of another context for an RDMA datapath, a thread of another context */
	CHECK_OK(doca_rdma_create(dev, &r));
	CHECK_OK(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(r), dpa));
	CHECK_ERR(doca_rdma_dpa_completion_attach(r, co), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("the completion context belongs to another DPA context than the RDMA datapath's"));
	CHECK_OK(doca_rdma_destroy(r));
	CHECK_OK(doca_dpa_thread_create(other, &t));
	CHECK_OK(doca_dpa_completion_destroy(c));
	CHECK_OK(doca_dpa_completion_create(dpa, 2, &c));
	CHECK_ERR(doca_dpa_completion_set_thread(c, t), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("the thread belongs to another DPA context"));
	CHECK_OK(doca_dpa_completion_start(c));
	CHECK_OK(doca_dpa_completion_get_dpa_handle(c, &hc));
	CHECK_OK(doca_dpa_thread_destroy(t));
	/* device: the other context's completion handle */
	CHECK_ERR(doca_dpa_rpc(other, &comp_take_rpc, &ret, hc), DOCA_ERROR_BAD_STATE);
	CHECK(logged("not a started completion context of this DPA context"));
	/* a context in error is destroyed; its completion context first */
	CHECK_ERR(doca_dpa_destroy(other), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_dpa_completion_destroy(co));
	CHECK_OK(doca_dpa_destroy(other));
	/* device: an RDMA handle of the first context's datapath, posted from another context */
	other = dpa_test_started(dev);
	r = dpa_rdma(dpa, c, &conn, &blob, &len);
	CHECK_OK(doca_rdma_get_dpa_handle(r, &hr));
	CHECK_ERR(doca_dpa_rpc(other, &rdma_recv_rpc, &ret, hr, (uint32_t)0, (uint64_t)0, (uint64_t)8),
		  DOCA_ERROR_BAD_STATE);
	CHECK(logged("not the DPA handle of a started RDMA context whose datapath is on this DPA context"));
	/* device: an element that no get_completion returned */
	CHECK_ERR(doca_dpa_rpc(dpa, &comp_elem_rpc, &ret, (uint64_t)(uintptr_t)&ret), DOCA_ERROR_BAD_STATE);
	CHECK(logged("not an element doca_dpa_dev_get_completion() returned in this DPA context"));
	rdma_destroy(r);
	CHECK_OK(doca_dpa_completion_destroy(c));
	CHECK_OK(doca_dpa_destroy(other));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* An RDMA context whose datapath is on the CPU has no DPA handle and takes no completion context. */
static void test_datapath_not_on_dpa(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_completion_t hc;
	struct doca_dpa_completion *c = started_comp(dpa, &hc);
	struct doca_rdma_connection *conn;
	struct doca_rdma *r = NULL;
	struct doca_pe *pe = NULL;
	doca_dpa_dev_rdma_t h;
	const void *blob;
	size_t len;

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_rdma_create(dev, &r));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(r)));
	CHECK_ERR(doca_rdma_dpa_completion_attach(r, c), DOCA_ERROR_BAD_STATE);
	CHECK(logged("datapath is on the CPU; call doca_ctx_set_datapath_on_dpa() first"));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(r)));
	CHECK_ERR(doca_rdma_get_dpa_handle(r, &h), DOCA_ERROR_BAD_STATE);
	CHECK(logged("datapath is on the CPU; call doca_ctx_set_datapath_on_dpa() before doca_ctx_start()"));
	/* and a started context cannot move its datapath */
	CHECK_ERR(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(r), dpa), DOCA_ERROR_BAD_STATE);
	CHECK(logged("set it before doca_ctx_start()"));
	rdma_destroy(r);
	CHECK_OK(doca_pe_destroy(pe));
	/* the handle of a context that is stopped is refused on the device */
	r = dpa_rdma(dpa, c, &conn, &blob, &len);
	CHECK_OK(doca_rdma_get_dpa_handle(r, &h));
	rdma_destroy(r);
	{
		uint64_t ret = 0;

		CHECK_ERR(doca_dpa_rpc(dpa, &rdma_recv_rpc, &ret, h, (uint32_t)0, (uint64_t)0, (uint64_t)8),
			  DOCA_ERROR_BAD_STATE);
		CHECK(logged("not the DPA handle of a started RDMA context"));
	}
	CHECK_OK(doca_dpa_completion_destroy(c));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* A DPA datapath needs a started completion context attached before the RDMA context starts. */
static void test_completion_not_attached(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	struct doca_dpa_completion *c = NULL;
	struct doca_rdma *r = NULL;
	doca_dpa_dev_completion_t h;
	uint64_t ret = 0;

	CHECK_OK(doca_rdma_create(dev, &r));
	CHECK_OK(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(r), dpa));
	CHECK_ERR(doca_ctx_start(doca_rdma_as_ctx(r)), DOCA_ERROR_BAD_STATE);
	CHECK(logged("no DPA completion context is attached; call doca_rdma_dpa_completion_attach() before "
		     "doca_ctx_start()"));
	CHECK_OK(doca_dpa_completion_create(dpa, 2, &c));
	CHECK_ERR(doca_dpa_completion_get_dpa_handle(c, &h), DOCA_ERROR_BAD_STATE);
	CHECK(logged("it is not started; call doca_dpa_completion_start() first"));
	CHECK_OK(doca_rdma_dpa_completion_attach(r, c));
	CHECK_ERR(doca_ctx_start(doca_rdma_as_ctx(r)), DOCA_ERROR_BAD_STATE);
	CHECK(logged("its DPA completion context is not started; start them before doca_ctx_start()"));
	CHECK_OK(doca_dpa_completion_start(c));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(r)));
	rdma_destroy(r);
	/* acknowledging more than arrived */
	CHECK_OK(doca_dpa_completion_get_dpa_handle(c, &h));
	CHECK_ERR(doca_dpa_rpc(dpa, &comp_ack_rpc, &ret, h, (uint64_t)1), DOCA_ERROR_BAD_STATE);
	CHECK(logged("acknowledged 1 completions but only 0 arrived unacknowledged"));
	CHECK_OK(doca_dpa_completion_destroy(c));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* A DPA thread polling an empty completion context for ever still stops (its EU is taken back). */
static void test_stop_polling_thread(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	struct doca_dpa_notification_completion *nc = NULL;
	doca_dpa_dev_notification_completion_t hn;
	struct doca_dpa_completion *c = NULL;
	doca_dpa_dev_completion_t hc;
	struct doca_dpa_thread *t = NULL;
	doca_dpa_dev_uintptr_t arg = 0;
	uint64_t ret = 0;

	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &arg));
	CHECK_OK(doca_dpa_thread_create(dpa, &t));
	CHECK_OK(doca_dpa_thread_set_func_arg(t, &poll_forever, arg));
	CHECK_OK(doca_dpa_thread_start(t));
	CHECK_OK(doca_dpa_completion_create(dpa, 2, &c));
	CHECK_OK(doca_dpa_completion_set_thread(c, t));
	CHECK_OK(doca_dpa_completion_start(c));
	CHECK_OK(doca_dpa_completion_get_dpa_handle(c, &hc));
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, arg, &hc, sizeof(hc)));
	CHECK_OK(doca_dpa_notification_completion_create(dpa, t, &nc));
	CHECK_OK(doca_dpa_notification_completion_start(nc));
	CHECK_OK(doca_dpa_notification_completion_get_dpa_handle(nc, &hn));
	CHECK_OK(doca_dpa_thread_run(t));
	CHECK_OK(doca_dpa_rpc(dpa, &notify_rpc, &ret, hn));
	/* it polls now; the stop returns once a poll finds nothing */
	CHECK_OK(doca_dpa_thread_stop(t));
	CHECK_OK(doca_dpa_notification_completion_destroy(nc));
	CHECK_OK(doca_dpa_completion_destroy(c));
	CHECK_OK(doca_dpa_thread_destroy(t));
	CHECK_OK(doca_dpa_mem_free(dpa, arg));
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	CHECK_OK(doca_dpa_destroy(dpa));
}

int main(void)
{
	sdk_log_file = dpa_test_sdk_log();
	alarm(120); /* a hang fails the test */
	dpa_test_open_devs(&dev, 1);
	CHECK(dev != NULL);
	if (dev == NULL)
		TEST_EXIT();
	TEST_RUN(test_send_receive);
	TEST_RUN(test_one_sided);
	TEST_RUN(test_async_ops);
	TEST_RUN(test_signal);
	TEST_RUN(test_buf_array);
	TEST_RUN(test_foreign_handles);
	TEST_RUN(test_datapath_not_on_dpa);
	TEST_RUN(test_completion_not_attached);
	TEST_RUN(test_stop_polling_thread);
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
