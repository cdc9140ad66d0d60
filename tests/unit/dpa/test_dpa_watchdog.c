/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA DPA runtime limits and bad input (docs/dpa.md), with the kernel max run time cut to
 * 1 s by SOFTDOCA_DPA_KERNEL_MAX_RUN_TIME (set by meson):
 *  - a kernel waiting on a sync event nobody updates: the watchdog names the kernel and the
 *    event, the context turns fatal, the completion is not signalled, stop is clean;
 *  - a kernel polling an event: it ends at its next DPA call;
 *  - a kernel or an RPC spinning without a DPA call: the watchdog says so, the RPC returns,
 *    stop returns within its bound and abandons the EU with a line;
 *  - an application built by another dpacc version: set_app and start name both versions.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doca_dev.h"
#include "doca_dpa.h"
#include "doca_log.h"
#include "doca_pe.h"
#include "doca_ctx.h"
#include "doca_sync_event.h"
#include "doca_version.h"
#include "dpa/dpa_abi.h"

#include "log_test.h"
#include "test.h"
#include "dpa_test.h"

extern doca_dpa_func_t signal_then_wait, spin_kernel, spin_rpc, poll_kernel, hello_kernel, stuck_thread, notify_rpc, yield_kernel;

static FILE *sdk_log_file;
static struct doca_dev *dev;

static bool logged(const char *text)
{
	return log_take(sdk_log_file, text);
}

/* Everything logged since the last logged() call, not consumed. */
static bool logged_too(const char *text)
{
	bool found = strstr(log_read(sdk_log_file), text) != NULL;

	if (!found)
		fprintf(stderr, "log lacks '%s'\n", text);
	return found;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct doca_sync_event *event_for(struct doca_dpa *dpa, doca_dpa_dev_sync_event_t *handle)
{
	struct doca_sync_event *ev = NULL;

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_add_subscriber_location_dpa(ev, dpa));
	CHECK_OK(doca_sync_event_add_publisher_location_dpa(ev, dpa));
	CHECK_OK(doca_sync_event_start(ev));
	if (handle != NULL)
		CHECK_OK(doca_sync_event_get_dpa_handle(ev, dpa, handle));
	return ev;
}

/* Waits (bounded: 30 s) until the context reports its error; true if it did. */
static bool becomes_fatal(struct doca_dpa *dpa)
{
	double until = now_s() + 30;

	while (doca_dpa_peek_at_last_error(dpa) == DOCA_SUCCESS) {
		if (now_s() > until)
			return false;
		usleep(10000);
	}
	return true;
}

static void test_max_run_time_from_env(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	unsigned long long t = 0;

	CHECK_OK(doca_dpa_get_kernel_max_run_time(dpa, &t));
	CHECK(t == 1);
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* A kernel waiting on an event nobody updates: named with its event, fatal, clean stop. */
static void test_wait_overrun(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_sync_event_t hs = 0, hn = 0;
	struct doca_sync_event *started = event_for(dpa, &hs), *never = event_for(dpa, &hn), *comp = event_for(dpa, NULL);
	char expect[96];
	uint64_t v = 1;
	double t0;

	CHECK_OK(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, comp, 5, 1, &signal_then_wait, hs, hn));
	CHECK_OK(doca_sync_event_wait_gt(started, 0, ~0ULL));
	CHECK(becomes_fatal(dpa));
	CHECK(logged_too("DPA watchdog: kernel 'signal_then_wait' (thread 0 of 1)"));
	CHECK(logged_too("past the kernel max run time of 1 s"));
	snprintf(expect, sizeof(expect), "for sync event 0x%llx to exceed 0", (unsigned long long)hn);
	CHECK(logged_too(expect));
	CHECK(logged("nothing has updated it"));
	/* the fatal context refuses new work */
	CHECK_ERR(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, NULL, 0, 1, &hello_kernel), DOCA_ERROR_BAD_STATE);
	t0 = now_s();
	CHECK_OK(doca_dpa_stop(dpa));
	CHECK(now_s() - t0 < 10);
	/* the interrupted wait ended the kernel: nothing abandoned, no completion */
	CHECK(strstr(log_read(sdk_log_file), "abandoned") == NULL);
	CHECK_OK(doca_sync_event_get(comp, &v));
	CHECK(v == 0);
	CHECK_OK(doca_sync_event_destroy(started));
	CHECK_OK(doca_sync_event_destroy(never));
	CHECK_OK(doca_sync_event_destroy(comp));
	CHECK_OK(doca_dpa_destroy(dpa));
	logged("");
}

/* A kernel polling an event ends at its next DPA call once stopped. */
static void test_poll_overrun(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_sync_event_t hs = 0, hn = 0;
	struct doca_sync_event *started = event_for(dpa, &hs), *never = event_for(dpa, &hn);

	CHECK_OK(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, NULL, 0, 1, &poll_kernel, hs, hn));
	CHECK_OK(doca_sync_event_wait_gt(started, 0, ~0ULL));
	CHECK(becomes_fatal(dpa));
	CHECK(logged_too("DPA watchdog: kernel 'poll_kernel'"));
	CHECK_OK(doca_dpa_stop(dpa));
	CHECK(strstr(log_read(sdk_log_file), "abandoned") == NULL);
	CHECK_OK(doca_sync_event_destroy(started));
	CHECK_OK(doca_sync_event_destroy(never));
	CHECK_OK(doca_dpa_destroy(dpa));
	logged("");
}

/* A kernel looping on doca_dpa_dev_yield() ends at a yield once stopped: nothing abandoned. */
static void test_yield_overrun(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_sync_event_t hs = 0;
	struct doca_sync_event *started = event_for(dpa, &hs);
	doca_dpa_dev_uintptr_t release = 0;
	uint64_t zero = 0;

	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &release));
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, release, &zero, sizeof(zero)));
	CHECK_OK(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, NULL, 0, 1, &yield_kernel, hs, release));
	CHECK_OK(doca_sync_event_wait_gt(started, 0, ~0ULL));
	CHECK(becomes_fatal(dpa));
	CHECK(logged_too("DPA watchdog: kernel 'yield_kernel'"));
	CHECK_OK(doca_dpa_stop(dpa));
	CHECK(strstr(log_read(sdk_log_file), "still runs device code") == NULL);
	CHECK_OK(doca_sync_event_destroy(started));
	CHECK_OK(doca_dpa_destroy(dpa));
	logged("");
}

/* A kernel spinning without a DPA call: the watchdog says so; stop returns within its bound. */
static void test_spin_overrun(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_sync_event_t hs = 0;
	struct doca_sync_event *started = event_for(dpa, &hs);
	doca_dpa_dev_uintptr_t release = 0;
	uint64_t zero = 0;
	double t0;

	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &release));
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, release, &zero, sizeof(zero)));
	CHECK_OK(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, NULL, 0, 1, &spin_kernel, hs, release));
	CHECK_OK(doca_sync_event_wait_gt(started, 0, ~0ULL));
	CHECK(becomes_fatal(dpa));
	CHECK(logged_too("DPA watchdog: kernel 'spin_kernel'"));
	CHECK(logged("it is in no DPA call"));
	t0 = now_s();
	CHECK_OK(doca_dpa_stop(dpa));
	CHECK(now_s() - t0 < 10);
	CHECK(logged_too("'spin_kernel' (thread 0 of 1) still runs device code"));
	CHECK(logged("its image stays loaded"));
	/* the abandoned EU still sees the device memory: let it return (it then ends quietly) */
	__atomic_store_n((uint64_t *)(uintptr_t)release, 1, __ATOMIC_RELEASE);
	CHECK_OK(doca_sync_event_destroy(started));
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* An RPC spinning without a DPA call: the caller gets BAD_STATE after the max run time. */
static void test_rpc_overrun(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_uintptr_t release = 0;
	uint64_t zero = 0, ret = 9;
	double t0;

	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &release));
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, release, &zero, sizeof(zero)));
	t0 = now_s();
	CHECK_ERR(doca_dpa_rpc(dpa, &spin_rpc, &ret, release), DOCA_ERROR_BAD_STATE);
	CHECK(now_s() - t0 < 20);
	CHECK(ret == 0);
	CHECK(logged_too("DPA watchdog: kernel 'spin_rpc'"));
	CHECK(logged("DPA RPC 'spin_rpc' gave no result"));
	CHECK_ERR(doca_dpa_peek_at_last_error(dpa), DOCA_ERROR_BAD_STATE);
	t0 = now_s();
	CHECK_OK(doca_dpa_destroy(dpa));
	CHECK(now_s() - t0 < 10);
	CHECK(logged("still runs device code"));
	__atomic_store_n((uint64_t *)(uintptr_t)release, 1, __ATOMIC_RELEASE);
}

/* A DPA thread whose activation waits (spin = false) or spins: doca_dpa_thread_stop is bounded. */
static void stuck_thread_stop(bool spin)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	doca_dpa_dev_sync_event_t hs = 0, hn = 0;
	struct doca_sync_event *started = event_for(dpa, &hs), *never = event_for(dpa, &hn);
	struct doca_dpa_notification_completion *nc = NULL;
	doca_dpa_dev_notification_completion_t h = 0;
	doca_dpa_dev_uintptr_t args = 0, release = 0;
	struct doca_dpa_thread *t = NULL;
	uint64_t words[3], zero = 0, ret = 0;
	double t0;

	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(words), &args));
	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &release));
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, release, &zero, sizeof(zero)));
	words[0] = hs;
	words[1] = hn;
	words[2] = spin ? release : 0;
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, args, words, sizeof(words)));
	CHECK_OK(doca_dpa_thread_create(dpa, &t));
	CHECK_OK(doca_dpa_thread_set_func_arg(t, &stuck_thread, args));
	CHECK_OK(doca_dpa_thread_start(t));
	CHECK_OK(doca_dpa_notification_completion_create(dpa, t, &nc));
	CHECK_OK(doca_dpa_notification_completion_start(nc));
	CHECK_OK(doca_dpa_notification_completion_get_dpa_handle(nc, &h));
	CHECK_OK(doca_dpa_thread_run(t));
	CHECK_OK(doca_dpa_rpc(dpa, &notify_rpc, &ret, h));
	CHECK_OK(doca_sync_event_wait_gt(started, 0, ~0ULL));
	t0 = now_s();
	CHECK_OK(doca_dpa_thread_stop(t));
	CHECK(now_s() - t0 < 10);
	if (spin) {
		CHECK(logged("('stuck_thread') still runs device code that makes no DPA call"));
		CHECK_ERR(doca_dpa_thread_start(t), DOCA_ERROR_BAD_STATE);
		logged("");
	} else {
		CHECK(strstr(log_read(sdk_log_file), "still runs device code") == NULL);
	}
	CHECK_OK(doca_dpa_notification_completion_stop(nc));
	CHECK_OK(doca_dpa_notification_completion_destroy(nc));
	CHECK_OK(doca_dpa_thread_destroy(t));
	t0 = now_s();
	CHECK_OK(doca_dpa_stop(dpa));
	CHECK(now_s() - t0 < 10);
	if (spin) {
		CHECK(logged("'stuck_thread' (thread 0 of 1) still runs device code"));
		__atomic_store_n((uint64_t *)(uintptr_t)release, 1, __ATOMIC_RELEASE);
	} else {
		CHECK(strstr(log_read(sdk_log_file), "still runs device code") == NULL);
		CHECK_OK(doca_dpa_start(dpa)); /* a context stopped cleanly starts again */
	}
	CHECK_OK(doca_sync_event_destroy(started));
	CHECK_OK(doca_sync_event_destroy(never));
	CHECK_OK(doca_dpa_destroy(dpa));
	logged("");
}

static void test_thread_stop_waiting(void)
{
	stuck_thread_stop(false);
}

static void test_thread_stop_spinning(void)
{
	stuck_thread_stop(true);
}

/* Completion waiting in a PE nobody progresses: the blocked host wait names the PE. */
static struct doca_sync_event *rescue_event;
static bool delivered;

static void *rescuer(void *arg)
{
	double until = now_s() + 30;

	(void)arg;
	/* the line comes while the main thread blocks; then let it go */
	while (strstr(log_read(sdk_log_file), "has not been progressed meanwhile") == NULL && now_s() < until)
		usleep(10000);
	doca_sync_event_update_set(rescue_event, 1);
	return NULL;
}

static void wait_done(struct doca_sync_event_task_wait_eq *task, union doca_data task_user_data,
		      union doca_data ctx_user_data)
{
	(void)task_user_data;
	(void)ctx_user_data;
	delivered = true;
	/* what the application meant to do here: release the host */
	doca_sync_event_update_set(rescue_event, 1);
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(task));
}

static void test_completion_in_unprogressed_pe(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	struct doca_sync_event *comp = NULL;
	struct doca_sync_event_task_wait_eq *task = NULL;
	struct doca_pe *pe = NULL;
	char expect[64];
	pthread_t t;
	double until;

	rescue_event = event_for(dpa, NULL);
	/* the completion event runs as a context (its tasks), not stand-alone */
	CHECK_OK(doca_sync_event_create(&comp));
	CHECK_OK(doca_sync_event_add_publisher_location_dpa(comp, dpa));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(comp, dev));
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sync_event_as_ctx(comp)));
	CHECK_OK(doca_sync_event_task_wait_eq_set_conf(comp, wait_done, wait_done, 4));
	CHECK_OK(doca_ctx_start(doca_sync_event_as_ctx(comp)));
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(comp, 1, ~0ULL, (union doca_data){0}, &task));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(task)));
	CHECK_OK(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, comp, 1, 1, &hello_kernel));
	/* the mistake: block on what the completion callback would release, without progressing */
	CHECK(pthread_create(&t, NULL, rescuer, NULL) == 0);
	CHECK_OK(doca_sync_event_wait_gt(rescue_event, 0, ~0ULL));
	pthread_join(t, NULL);
	snprintf(expect, sizeof(expect), "PE %p, which holds 1 task(s) in flight", (void *)pe);
	CHECK(logged_too(expect));
	CHECK(logged("doca_sync_event_wait_gt() on sync event"));
	/* progressing the PE delivers the completion that waited there */
	until = now_s() + 30;
	while (!delivered && now_s() < until)
		doca_pe_progress(pe);
	CHECK(delivered);
	CHECK_OK(doca_ctx_stop(doca_sync_event_as_ctx(comp)));
	CHECK_OK(doca_sync_event_destroy(comp));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_sync_event_destroy(rescue_event));
	CHECK_OK(doca_dpa_destroy(dpa));
	logged("");
}

/* An application whose dpacc version is not this installation's: both versions named. */
static void test_version_mismatch(void)
{
	struct softdoca_dpa_app other = *(const struct softdoca_dpa_app *)test_dpa_app;
	struct doca_dpa *dpa = NULL;
	char expect[160];

	other.dpacc_version = "1.0.7";
	CHECK_OK(doca_dpa_create(dev, &dpa));
	CHECK_ERR(doca_dpa_set_app(dpa, (struct doca_dpa_app *)&other), DOCA_ERROR_NOT_SUPPORTED);
	snprintf(expect, sizeof(expect), "built by dpacc 1.0.7 (image format %u), this libdoca_dpa is %s",
		 SOFTDOCA_DPA_ABI, doca_version_runtime());
	CHECK(logged(expect));
	CHECK_ERR(doca_dpa_start(dpa), DOCA_ERROR_BAD_STATE);
	logged("");
	CHECK_OK(doca_dpa_destroy(dpa));
}

/* The same check on the device image itself: its version string patched, start refuses it. */
static void test_image_version_mismatch(void)
{
	struct softdoca_dpa_app other = *(const struct softdoca_dpa_app *)test_dpa_app;
	const char *ver = doca_version_runtime();
	size_t vlen = strlen(ver), n = other.image_size, at, found = 0;
	unsigned char *image = malloc(n);
	struct doca_dpa *dpa = NULL;
	char patched[64], expect[200];

	CHECK(image != NULL && vlen + 1 < sizeof(patched));
	if (image == NULL)
		return;
	memcpy(image, other.image, n);
	/* the descriptor's version string (and any other copy): the version, NUL */
	memcpy(patched, ver, vlen + 1);
	patched[0] = patched[0] == '7' ? '8' : '7';
	for (at = 0; at + vlen < n; at++) {
		if (memcmp(image + at, ver, vlen) == 0 && image[at + vlen] == '\0') {
			memcpy(image + at, patched, vlen);
			found++;
		}
	}
	CHECK(found > 0);
	other.image = image;
	CHECK_OK(doca_dpa_create(dev, &dpa));
	CHECK_OK(doca_dpa_set_app(dpa, (struct doca_dpa_app *)&other));
	CHECK_ERR(doca_dpa_start(dpa), DOCA_ERROR_NOT_SUPPORTED);
	snprintf(expect, sizeof(expect), "was built by dpacc %s (image format %u), this libdoca_dpa is %s", patched,
		 SOFTDOCA_DPA_ABI, ver);
	CHECK(logged(expect));
	CHECK_OK(doca_dpa_destroy(dpa));
	free(image);
}

int main(void)
{
	sdk_log_file = dpa_test_sdk_log();
	alarm(120);
	dpa_test_open_devs(&dev, 1);
	CHECK(dev != NULL);
	if (dev == NULL)
		TEST_EXIT();
	TEST_RUN(test_max_run_time_from_env);
	TEST_RUN(test_wait_overrun);
	TEST_RUN(test_poll_overrun);
	TEST_RUN(test_yield_overrun);
	TEST_RUN(test_spin_overrun);
	TEST_RUN(test_rpc_overrun);
	TEST_RUN(test_thread_stop_waiting);
	TEST_RUN(test_thread_stop_spinning);
	TEST_RUN(test_completion_in_unprogressed_pe);
	TEST_RUN(test_version_mismatch);
	TEST_RUN(test_image_version_mismatch);
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
