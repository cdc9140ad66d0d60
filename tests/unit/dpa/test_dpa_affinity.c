/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EU placement of DPA threads (docs/dpa.md "Execution units"): a thread with an EU affinity
 * runs only on that EU.
 *  - two threads pinned to one EU never overlap: each activation records its entry and exit
 *    in device memory (and how many were inside at once), checked on the host;
 *  - two threads pinned to different EUs are active at once: each waits, in device code, for
 *    the other to have started (a handshake that cannot complete on one EU);
 *  - the same handshake pinned to one EU: the second thread never starts while the first
 *    waits for it, and stopping both (one waiting, one queued behind it) is clean;
 *  - an affinity to an EU past the profile is refused (test_dpa's test_eu_affinity checks the
 *    line), one of another DPA context too; a cleared affinity leaves the thread free to run
 *    anywhere.
 * Every wait is bounded (alarm, and event waits with deadlines).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doca_dev.h"
#include "doca_dpa.h"
#include "doca_sync_event.h"

#include "log_test.h"
#include "test.h"
#include "dpa_test.h"
#include "test_dpa_common.h"

extern doca_dpa_func_t eu_probe_thread, notify2_rpc, handshake_thread;

static FILE *sdk_log_file;
static struct doca_dev *dev;
/* test_cleared_affinity: the second thread's affinity names an EU, then is cleared */
static bool handshake_cleared;

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
	CHECK_OK(doca_sync_event_get_dpa_handle(ev, dpa, handle));
	return ev;
}

/* Waits (bounded: 30 s) until ev holds at least want; true if it did. */
static bool reaches(struct doca_sync_event *ev, uint64_t want)
{
	double until = now_s() + 30;
	uint64_t v = 0;

	while (doca_sync_event_get(ev, &v) == DOCA_SUCCESS && v < want && now_s() < until)
		usleep(1000);
	return v >= want;
}

/*
 * A started and run DPA thread running func(arg), pinned to eu (eu < 0: no affinity; cleared:
 * given an affinity whose EU was set to eu, then cleared), with a notification completion.
 */
/* An affinity a thread still points at (get_affinity), destroyed by handshake_end. */
static struct doca_dpa_eu_affinity *kept_affinity;

static struct doca_dpa_thread *pinned_thread(struct doca_dpa *dpa, doca_dpa_func_t *func, uint64_t arg, int eu,
					     bool cleared, struct doca_dpa_notification_completion **nc,
					     doca_dpa_dev_notification_completion_t *h)
{
	struct doca_dpa_eu_affinity *aff = NULL;
	struct doca_dpa_thread *t = NULL;

	CHECK_OK(doca_dpa_thread_create(dpa, &t));
	CHECK_OK(doca_dpa_thread_set_func_arg(t, func, arg));
	if (eu >= 0 && cleared) {
		CHECK_OK(doca_dpa_eu_affinity_create(dpa, &aff));
		CHECK_OK(doca_dpa_eu_affinity_set(aff, (unsigned int)eu));
		CHECK_OK(doca_dpa_eu_affinity_clear(aff));
		CHECK_OK(doca_dpa_thread_set_affinity(t, aff));
		/* kept for get_affinity: destroyed with the thread's context at the end of the test */
		kept_affinity = aff;
	} else if (eu >= 0) {
		/* one affinity object, changed after use: the thread keeps the EU it was given */
		CHECK_OK(doca_dpa_eu_affinity_create(dpa, &aff));
		CHECK_OK(doca_dpa_eu_affinity_set(aff, (unsigned int)eu));
		CHECK_OK(doca_dpa_thread_set_affinity(t, aff));
		CHECK_OK(doca_dpa_eu_affinity_set(aff, 0));
		CHECK_OK(doca_dpa_eu_affinity_destroy(aff));
	}
	CHECK_OK(doca_dpa_thread_start(t));
	CHECK_OK(doca_dpa_notification_completion_create(dpa, t, nc));
	CHECK_OK(doca_dpa_notification_completion_start(*nc));
	CHECK_OK(doca_dpa_notification_completion_get_dpa_handle(*nc, h));
	CHECK_OK(doca_dpa_thread_run(t));
	return t;
}

static void drop_thread(struct doca_dpa_thread *t, struct doca_dpa_notification_completion *nc)
{
	CHECK_OK(doca_dpa_notification_completion_destroy(nc));
	CHECK_OK(doca_dpa_thread_destroy(t));
}

#define ROUNDS 12
#define HOLD_NS 2000000ULL

/*
 * Two probe threads woken together ROUNDS times; returns the most that were inside at once
 * and checks every record. eu_a / eu_b: their EUs (-1: none).
 */
static uint64_t probe(int eu_a, int eu_b, bool *overlapped)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	struct doca_dpa_notification_completion *nc[2] = {NULL};
	doca_dpa_dev_notification_completion_t h[2];
	struct doca_dpa_thread *t[2];
	struct test_dpa_probe p;
	struct test_dpa_probe_arg args[2];
	doca_dpa_dev_uintptr_t dev_p = 0, dev_args = 0;
	doca_dpa_dev_sync_event_t done_h = 0;
	struct doca_sync_event *done = event_for(dpa, &done_h);
	uint64_t ret = 0;

	memset(&p, 0, sizeof(p));
	p.done_event = done_h;
	p.hold_ns = HOLD_NS;
	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(p), &dev_p));
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, dev_p, &p, sizeof(p)));
	CHECK_OK(doca_dpa_mem_alloc(dpa, sizeof(args), &dev_args));
	for (uint64_t i = 0; i < 2; i++)
		args[i] = (struct test_dpa_probe_arg){.block = dev_p, .who = i};
	CHECK_OK(doca_dpa_h2d_memcpy(dpa, dev_args, args, sizeof(args)));
	t[0] = pinned_thread(dpa, &eu_probe_thread, dev_args, eu_a, false, &nc[0], &h[0]);
	t[1] = pinned_thread(dpa, &eu_probe_thread, dev_args + sizeof(args[0]), eu_b, false, &nc[1], &h[1]);
	for (uint64_t r = 1; r <= ROUNDS; r++) {
		CHECK_OK(doca_dpa_rpc(dpa, &notify2_rpc, &ret, h[0], h[1]));
		CHECK(reaches(done, 2 * r));
	}
	CHECK_OK(doca_dpa_d2h_memcpy(dpa, &p, dev_p, sizeof(p)));
	CHECK(p.next == 2 * ROUNDS && p.inside == 0);
	*overlapped = false;
	for (uint64_t i = 0; i < p.next && i < TEST_DPA_PROBE_RECS; i++) {
		CHECK(p.rec[i].leave >= p.rec[i].enter + HOLD_NS);
		for (uint64_t j = i + 1; j < p.next && j < TEST_DPA_PROBE_RECS; j++)
			if (p.rec[i].enter < p.rec[j].leave && p.rec[j].enter < p.rec[i].leave)
				*overlapped = true;
	}
	drop_thread(t[0], nc[0]);
	drop_thread(t[1], nc[1]);
	CHECK_OK(doca_sync_event_destroy(done));
	CHECK_OK(doca_dpa_mem_free(dpa, dev_p));
	CHECK_OK(doca_dpa_mem_free(dpa, dev_args));
	CHECK_OK(doca_dpa_destroy(dpa));
	return p.max_inside;
}

/* Pinned to one EU: never two activations inside at once, no two records overlap. */
static void test_same_eu_never_overlaps(void)
{
	bool overlapped = true;

	CHECK(probe(5, 5, &overlapped) == 1);
	CHECK(!overlapped);
}

/* The last EU the profile makes available works as any other. */
static void test_last_eu(void)
{
	struct doca_dpa *dpa = dpa_test_started(dev);
	unsigned int available = 0;
	bool overlapped = true;

	CHECK_OK(doca_dpa_get_total_num_eus_available(dpa, &available));
	CHECK_OK(doca_dpa_destroy(dpa));
	CHECK(probe((int)available - 1, (int)available - 1, &overlapped) == 1);
	CHECK(!overlapped);
}

/*
 * The handshake: each thread says it runs, then waits for the other. eu_a / eu_b as in probe.
 * Returns the context and the pieces for the caller to check and tear down.
 */
struct handshake {
	struct doca_dpa *dpa;
	struct doca_sync_event *mine[2], *done;
	struct doca_dpa_thread *t[2];
	struct doca_dpa_notification_completion *nc[2];
	doca_dpa_dev_uintptr_t dev_args;
};

static void handshake_start(struct handshake *hs, int eu_a, int eu_b)
{
	doca_dpa_dev_sync_event_t mine_h[2], done_h;
	doca_dpa_dev_notification_completion_t h[2];
	struct test_dpa_handshake args[2];
	uint64_t ret = 0;

	hs->dpa = dpa_test_started(dev);
	hs->mine[0] = event_for(hs->dpa, &mine_h[0]);
	hs->mine[1] = event_for(hs->dpa, &mine_h[1]);
	hs->done = event_for(hs->dpa, &done_h);
	args[0] = (struct test_dpa_handshake){.mine = mine_h[0], .other = mine_h[1], .done = done_h};
	args[1] = (struct test_dpa_handshake){.mine = mine_h[1], .other = mine_h[0], .done = done_h};
	CHECK_OK(doca_dpa_mem_alloc(hs->dpa, sizeof(args), &hs->dev_args));
	CHECK_OK(doca_dpa_h2d_memcpy(hs->dpa, hs->dev_args, args, sizeof(args)));
	hs->t[0] = pinned_thread(hs->dpa, &handshake_thread, hs->dev_args, eu_a, false, &hs->nc[0], &h[0]);
	hs->t[1] = pinned_thread(hs->dpa, &handshake_thread, hs->dev_args + sizeof(args[0]), eu_b, handshake_cleared,
				 &hs->nc[1], &h[1]);
	CHECK_OK(doca_dpa_rpc(hs->dpa, &notify2_rpc, &ret, h[0], h[1]));
}

static void handshake_end(struct handshake *hs)
{
	drop_thread(hs->t[0], hs->nc[0]);
	drop_thread(hs->t[1], hs->nc[1]);
	if (kept_affinity != NULL)
		CHECK_OK(doca_dpa_eu_affinity_destroy(kept_affinity));
	kept_affinity = NULL;
	CHECK_OK(doca_dpa_mem_free(hs->dpa, hs->dev_args));
	CHECK_OK(doca_dpa_stop(hs->dpa));
	CHECK_OK(doca_dpa_destroy(hs->dpa));
	CHECK_OK(doca_sync_event_destroy(hs->mine[0]));
	CHECK_OK(doca_sync_event_destroy(hs->mine[1]));
	CHECK_OK(doca_sync_event_destroy(hs->done));
}

/* Pinned to two EUs: both are active at once (each waits for the other, and both finish). */
static void test_different_eus_run_together(void)
{
	struct handshake hs;

	handshake_start(&hs, 1, 2);
	CHECK(reaches(hs.done, 2));
	handshake_end(&hs);
}

/* No affinity: any EU, so the handshake completes as well. */
static void test_unpinned_run_together(void)
{
	struct handshake hs;

	handshake_start(&hs, -1, -1);
	CHECK(reaches(hs.done, 2));
	handshake_end(&hs);
}

/*
 * Pinned to one EU: whichever runs first waits for the other, which cannot start until it
 * leaves the EU. Stopping the queued one, then the waiting one, ends both; neither finished
 * and the second never ran. Then the context stops and is destroyed.
 */
static void test_same_eu_waiting_threads_stop(void)
{
	struct handshake hs;
	double until = now_s() + 30;
	uint64_t a = 0, b = 0, done = 0;
	int first, second;

	handshake_start(&hs, 3, 3);
	while (a == 0 && b == 0 && now_s() < until) {
		CHECK_OK(doca_sync_event_get(hs.mine[0], &a));
		CHECK_OK(doca_sync_event_get(hs.mine[1], &b));
		if (a == 0 && b == 0)
			usleep(1000);
	}
	CHECK(a + b == 1);
	first = a != 0 ? 0 : 1;
	second = 1 - first;
	/* the one queued behind the waiting one: cancelled before it ever ran */
	CHECK_OK(doca_dpa_thread_stop(hs.t[second]));
	/* the one waiting in device code: its wait ends at once */
	CHECK_OK(doca_dpa_thread_stop(hs.t[first]));
	CHECK_OK(doca_sync_event_get(hs.mine[second], &b));
	CHECK(b == 0);
	CHECK_OK(doca_sync_event_get(hs.done, &done));
	CHECK(done == 0);
	CHECK(doca_dpa_peek_at_last_error(hs.dpa) == DOCA_SUCCESS);
	handshake_end(&hs);
}

/*
 * The same, with the waiting thread stopped first: the one queued on its EU then runs, finds
 * the other's mark and finishes; nothing hangs.
 */
static void test_same_eu_second_runs_after_first_stops(void)
{
	struct handshake hs;
	double until = now_s() + 30;
	uint64_t a = 0, b = 0;
	int first;

	handshake_start(&hs, 4, 4);
	while (a == 0 && b == 0 && now_s() < until) {
		CHECK_OK(doca_sync_event_get(hs.mine[0], &a));
		CHECK_OK(doca_sync_event_get(hs.mine[1], &b));
		if (a == 0 && b == 0)
			usleep(1000);
	}
	CHECK(a + b == 1);
	first = a != 0 ? 0 : 1;
	CHECK_OK(doca_dpa_thread_stop(hs.t[first]));
	CHECK(reaches(hs.done, 1)); /* the second ran once the EU was free */
	CHECK(reaches(hs.mine[1 - first], 1));
	handshake_end(&hs);
}

/* An affinity of another DPA context is refused, the thread keeps none. */
static void test_foreign_affinity(void)
{
	struct doca_dpa *a = dpa_test_started(dev), *b = dpa_test_started(dev);
	struct doca_dpa_eu_affinity *aff = NULL;
	const struct doca_dpa_eu_affinity *got = NULL;
	struct doca_dpa_thread *t = NULL;

	CHECK_OK(doca_dpa_eu_affinity_create(b, &aff));
	CHECK_OK(doca_dpa_eu_affinity_set(aff, 2));
	CHECK_OK(doca_dpa_thread_create(a, &t));
	CHECK_ERR(doca_dpa_thread_set_affinity(t, aff), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_take(sdk_log_file, "the affinity belongs to another DPA context"));
	CHECK_OK(doca_dpa_thread_get_affinity(t, &got));
	CHECK(got == NULL);
	CHECK_OK(doca_dpa_thread_destroy(t));
	CHECK_OK(doca_dpa_eu_affinity_destroy(aff));
	CHECK_OK(doca_dpa_destroy(a));
	CHECK_OK(doca_dpa_destroy(b));
}

/*
 * An affinity whose EU was cleared before the thread got it pins nothing: the thread given it
 * completes a handshake with a thread pinned to the EU the affinity first named (it would wait
 * for ever if it were pinned there too).
 */
static void test_cleared_affinity(void)
{
	struct handshake hs;
	struct doca_dpa_eu_affinity *aff = NULL;
	const struct doca_dpa_eu_affinity *got = NULL;
	unsigned int eu = 0;

	handshake_cleared = true;
	handshake_start(&hs, 6, 6);
	handshake_cleared = false;
	CHECK(reaches(hs.done, 2));
	CHECK_OK(doca_dpa_thread_get_affinity(hs.t[1], &got));
	CHECK(got != NULL);
	handshake_end(&hs);
	/* a cleared affinity object reports no EU */
	hs.dpa = dpa_test_started(dev);
	CHECK_OK(doca_dpa_eu_affinity_create(hs.dpa, &aff));
	CHECK_OK(doca_dpa_eu_affinity_set(aff, 6));
	CHECK_OK(doca_dpa_eu_affinity_clear(aff));
	CHECK_ERR(doca_dpa_eu_affinity_get(aff, &eu), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_dpa_eu_affinity_destroy(aff));
	CHECK_OK(doca_dpa_destroy(hs.dpa));
}

int main(void)
{
	struct doca_dev *devs[1] = {NULL};

	sdk_log_file = dpa_test_sdk_log();
	alarm(120);
	dpa_test_open_devs(devs, 1);
	dev = devs[0];
	CHECK(dev != NULL);
	if (dev == NULL)
		TEST_EXIT();
	TEST_RUN(test_same_eu_never_overlaps);
	TEST_RUN(test_last_eu);
	TEST_RUN(test_different_eus_run_together);
	TEST_RUN(test_unpinned_run_together);
	TEST_RUN(test_same_eu_waiting_threads_stop);
	TEST_RUN(test_same_eu_second_runs_after_first_stops);
	TEST_RUN(test_cleared_affinity);
	TEST_RUN(test_foreign_affinity);
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
