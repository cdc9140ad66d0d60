/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPA access to host memory through mmap handles (doca_mmap_dev_get_dpa_handle): device code
 * (test_dpa_dev.c, built by dpacc) copies between host buffers with doca_dpa_dev_post_memcpy
 * and reads through doca_dpa_dev_mmap_get_external_ptr. Every access is checked against the
 * mmap's range and permission and the handle's device: a bad one copies nothing, is logged,
 * and puts the DPA context in error; the process carries on.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "doca_dev.h"
#include "doca_dpa.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_sync_event.h"

#include "log_test.h"
#include "test.h"
#include "dpa_test.h"

#define LEN 4096
#define THREADS 4

extern doca_dpa_func_t copy_chunks, copy_rpc, external_read_rpc;

static FILE *sdk_log_file;
static struct doca_dev *dev, *other_dev; /* two functions with a DPA; other_dev may be NULL */
static uint8_t src_buf[LEN], dst_buf[LEN];

/* True if an SDK line containing `text` was logged since the last call (then forgets them). */
static bool logged(const char *text)
{
	return log_take(sdk_log_file, text);
}

/* A started mmap over buf for device d, with the given permissions. */
static struct doca_mmap *mmap_over(void *buf, size_t len, struct doca_dev *d, uint32_t access)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, buf, len));
	CHECK_OK(doca_mmap_set_permissions(m, access));
	CHECK_OK(doca_mmap_add_dev(m, d));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static void fill(void)
{
	for (size_t i = 0; i < LEN; i++)
		src_buf[i] = (uint8_t)(i * 7 + 3);
	memset(dst_buf, 0xee, sizeof(dst_buf));
}

static bool dst_untouched(void)
{
	for (size_t i = 0; i < LEN; i++)
		if (dst_buf[i] != 0xee)
			return false;
	return true;
}

/* The DPA handle's host rules: a started mmap, the device added, one handle per (mmap, device). */
static void test_handle_rules(void)
{
	struct doca_mmap *m = NULL;
	doca_dpa_dev_mmap_t h = 0, again = 0;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, src_buf, LEN));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_ERR(doca_mmap_dev_get_dpa_handle(m, dev, &h), DOCA_ERROR_BAD_STATE);
	CHECK(logged("call doca_mmap_start() first"));
	CHECK_OK(doca_mmap_start(m));
	CHECK_ERR(doca_mmap_dev_get_dpa_handle(m, dev, NULL), DOCA_ERROR_INVALID_VALUE);
	if (other_dev != NULL) {
		CHECK_ERR(doca_mmap_dev_get_dpa_handle(m, other_dev, &h), DOCA_ERROR_NOT_PERMITTED);
		CHECK(logged("doca_mmap_add_dev()"));
	}
	CHECK_OK(doca_mmap_dev_get_dpa_handle(m, dev, &h));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(m, dev, &again));
	CHECK(h != 0 && h == again);
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
}

/* A kernel of THREADS threads copies src to dst through mmap handles; the host sees the bytes. */
static void test_kernel_copies(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	struct doca_sync_event *comp = NULL;
	/* the source only needs to be readable */
	struct doca_mmap *src = mmap_over(src_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	struct doca_mmap *dst = mmap_over(dst_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	doca_dpa_dev_mmap_t hs = 0, hd = 0;
	uint64_t word = 0, ret = 0;

	fill();
	CHECK_OK(doca_mmap_dev_get_dpa_handle(src, dev, &hs));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(dst, dev, &hd));
	CHECK_OK(doca_sync_event_create(&comp));
	CHECK_OK(doca_sync_event_add_publisher_location_dpa(comp, dpa));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(comp, dev));
	CHECK_OK(doca_sync_event_start(comp));
	CHECK_OK(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, comp, 1, THREADS, &copy_chunks, hd,
						   (uint64_t)(uintptr_t)dst_buf, hs, (uint64_t)(uintptr_t)src_buf,
						   (uint64_t)(LEN / THREADS)));
	CHECK_OK(doca_sync_event_wait_gt(comp, 0, ~0ULL));
	CHECK(memcmp(dst_buf, src_buf, LEN) == 0);
	/* the external pointer reads the host's memory at that address */
	memcpy(&word, src_buf + 64, sizeof(word));
	CHECK_OK(doca_dpa_rpc(dpa, &external_read_rpc, &ret, hs, (uint64_t)(uintptr_t)(src_buf + 64)));
	CHECK(ret == word && word != 0);
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	CHECK_OK(doca_sync_event_destroy(comp));
	CHECK_OK(doca_dpa_destroy(dpa));
	CHECK_OK(doca_mmap_stop(src));
	CHECK_OK(doca_mmap_destroy(src));
	CHECK_OK(doca_mmap_stop(dst));
	CHECK_OK(doca_mmap_destroy(dst));
}

/* A copy that is refused: the RPC fails, nothing is copied, the log says why, the context is in error. */
static void refused_copy(doca_dpa_dev_mmap_t hd, uint64_t dst_addr, doca_dpa_dev_mmap_t hs, uint64_t src_addr,
			 uint64_t len, const char *why)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	uint64_t ret = 0;

	memset(dst_buf, 0xee, sizeof(dst_buf));
	CHECK_ERR(doca_dpa_rpc(dpa, &copy_rpc, &ret, hd, dst_addr, hs, src_addr, len), DOCA_ERROR_BAD_STATE);
	CHECK(dst_untouched());
	CHECK(logged(why));
	CHECK_ERR(doca_dpa_peek_at_last_error(dpa), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_dpa_destroy(dpa));
}

static void test_out_of_range(void)
{
	struct doca_mmap *src = mmap_over(src_buf, LEN / 2, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_mmap *dst = mmap_over(dst_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	doca_dpa_dev_mmap_t hs = 0, hd = 0;
	uint64_t s = (uint64_t)(uintptr_t)src_buf, d = (uint64_t)(uintptr_t)dst_buf;
	struct doca_dpa *dpa;
	uint64_t ret = 0;

	fill();
	CHECK_OK(doca_mmap_dev_get_dpa_handle(src, dev, &hs));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(dst, dev, &hd));
	/* one byte past the end of the source range (LEN / 2 long) */
	refused_copy(hd, d, hs, s + 1, LEN / 2, "source range");
	/* below the start of the destination */
	refused_copy(hd, d - 8, hs, s, 16, "destination range");
	/* a length that wraps around */
	refused_copy(hd, d, hs, s, ~0ULL, "outside mmap handle");
	/* the external pointer of an address outside the range */
	dpa = dpa_test_started(dev);
	CHECK_ERR(doca_dpa_rpc(dpa, &external_read_rpc, &ret, hs, s + LEN / 2), DOCA_ERROR_BAD_STATE);
	CHECK(logged("doca_dpa_dev_mmap_get_external_ptr() refused"));
	CHECK_OK(doca_dpa_destroy(dpa));
	/* the last byte of the range is inside: that copy works */
	dpa = dpa_test_started(dev);
	memset(dst_buf, 0xee, sizeof(dst_buf));
	CHECK_OK(doca_dpa_rpc(dpa, &copy_rpc, &ret, hd, d + LEN - 1, hs, s + LEN / 2 - 1, (uint64_t)1));
	CHECK(ret == 1 && dst_buf[LEN - 1] == src_buf[LEN / 2 - 1] && dst_buf[0] == 0xee);
	CHECK_OK(doca_dpa_peek_at_last_error(dpa));
	CHECK_OK(doca_dpa_destroy(dpa));
	CHECK_OK(doca_mmap_stop(src));
	CHECK_OK(doca_mmap_destroy(src));
	CHECK_OK(doca_mmap_stop(dst));
	CHECK_OK(doca_mmap_destroy(dst));
}

/* Writing into an mmap without DOCA_ACCESS_FLAG_LOCAL_READ_WRITE is refused. */
static void test_missing_permission(void)
{
	struct doca_mmap *src = mmap_over(src_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_mmap *dst = mmap_over(dst_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	doca_dpa_dev_mmap_t hs = 0, hd = 0;

	fill();
	CHECK_OK(doca_mmap_dev_get_dpa_handle(src, dev, &hs));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(dst, dev, &hd));
	refused_copy(hd, (uint64_t)(uintptr_t)dst_buf, hs, (uint64_t)(uintptr_t)src_buf, 64, "is not writable");
	CHECK_OK(doca_mmap_stop(src));
	CHECK_OK(doca_mmap_destroy(src));
	CHECK_OK(doca_mmap_stop(dst));
	CHECK_OK(doca_mmap_destroy(dst));
}

/* A handle of another device's DPA, a stopped mmap's handle and a made-up one are refused. */
static void test_foreign_handles(void)
{
	struct doca_mmap *src = mmap_over(src_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_mmap *dst = mmap_over(dst_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	uint64_t s = (uint64_t)(uintptr_t)src_buf, d = (uint64_t)(uintptr_t)dst_buf;
	doca_dpa_dev_mmap_t hs = 0, hd = 0, stale = 0;
	struct doca_mmap *gone;

	fill();
	CHECK_OK(doca_mmap_dev_get_dpa_handle(src, dev, &hs));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(dst, dev, &hd));
	if (other_dev != NULL) {
		struct doca_mmap *theirs = mmap_over(src_buf, LEN, other_dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		doca_dpa_dev_mmap_t ht = 0;

		CHECK_OK(doca_mmap_dev_get_dpa_handle(theirs, other_dev, &ht));
		refused_copy(hd, d, ht, s, 64, "belongs to another device's DPA");
		CHECK_OK(doca_mmap_stop(theirs));
		CHECK_OK(doca_mmap_destroy(theirs));
	} else {
		fprintf(stderr, "only one device with a DPA: the other-device case is not run\n");
	}
	gone = mmap_over(src_buf, LEN, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_mmap_dev_get_dpa_handle(gone, dev, &stale));
	CHECK_OK(doca_mmap_stop(gone));
	CHECK_OK(doca_mmap_destroy(gone));
	refused_copy(hd, d, stale, s, 64, "is not a live mmap DPA handle");
	refused_copy(hd, d, 0x12345, s, 64, "is not a live mmap DPA handle");
	CHECK_OK(doca_mmap_stop(src));
	CHECK_OK(doca_mmap_destroy(src));
	CHECK_OK(doca_mmap_stop(dst));
	CHECK_OK(doca_mmap_destroy(dst));
}

int main(void)
{
	struct doca_dev *devs[2] = {NULL, NULL};

	sdk_log_file = dpa_test_sdk_log();
	alarm(60);
	dpa_test_open_devs(devs, 2);
	dev = devs[0];
	other_dev = devs[1];
	CHECK(dev != NULL);
	if (dev == NULL)
		TEST_EXIT();
	TEST_RUN(test_handle_rules);
	TEST_RUN(test_kernel_copies);
	TEST_RUN(test_out_of_range);
	TEST_RUN(test_missing_permission);
	TEST_RUN(test_foreign_handles);
	if (other_dev != NULL)
		CHECK_OK(doca_dev_close(other_dev));
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
