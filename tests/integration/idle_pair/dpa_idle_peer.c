/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An idle DPA for run_idle.py (scenario dpa): a started context whose EUs have all run (an
 * 8-thread kernel launch), with two DPA threads pinned to EUs 3 and 4 that ran once and wait
 * for their next notification. Prints "launched 8", then "idle"; stays so until its stdin
 * closes, then tears down and prints "done". Device code: tests/unit/dpa's test application.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_sync_event.h>

#include "test_dpa_common.h"

extern struct doca_dpa_app *test_dpa_app;
extern doca_dpa_func_t fill_ranks, counter_thread, notify_rpc;

#define THREADS 8

static bool ok(doca_error_t err, const char *what)
{
	if (err != DOCA_SUCCESS)
		printf("FAIL %s: %s\n", what, doca_error_get_name(err));
	return err == DOCA_SUCCESS;
}

static struct doca_sync_event *event_for(struct doca_dev *dev, struct doca_dpa *dpa, doca_dpa_dev_sync_event_t *h)
{
	struct doca_sync_event *ev = NULL;

	if (!ok(doca_sync_event_create(&ev), "sync event create") ||
	    !ok(doca_sync_event_add_publisher_location_dpa(ev, dpa), "publisher dpa") ||
	    !ok(doca_sync_event_add_subscriber_location_cpu(ev, dev), "subscriber cpu") ||
	    !ok(doca_sync_event_start(ev), "sync event start") ||
	    (h != NULL && !ok(doca_sync_event_get_dpa_handle(ev, dpa, h), "sync event handle")))
		return NULL;
	return ev;
}

int main(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	struct doca_dpa *dpa = NULL;
	struct doca_sync_event *comp = NULL, *ev[2] = {NULL, NULL};
	struct doca_dpa_thread *t[2] = {NULL, NULL};
	struct doca_dpa_notification_completion *nc[2] = {NULL, NULL};
	doca_dpa_dev_uintptr_t slots = 0, counters = 0, tls = 0;
	uint32_t n = 0;
	uint64_t ret = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!ok(doca_devinfo_create_list(&list, &n), "device list"))
		return 1;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_dpa_cap_is_supported(list[i]) == DOCA_SUCCESS && doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	doca_devinfo_destroy_list(list);
	if (dev == NULL || !ok(doca_dpa_create(dev, &dpa), "dpa create") ||
	    !ok(doca_dpa_set_app(dpa, test_dpa_app), "set app") || !ok(doca_dpa_start(dpa), "dpa start"))
		return 1;

	/* every EU a launch of THREADS needs has run a rank, then sleeps */
	comp = event_for(dev, dpa, NULL);
	if (comp == NULL || !ok(doca_dpa_mem_alloc(dpa, 2 * THREADS * sizeof(uint64_t), &slots), "alloc") ||
	    !ok(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, comp, 1, THREADS, &fill_ranks, slots, (uint64_t)0),
		"launch") ||
	    !ok(doca_sync_event_wait_gt(comp, 0, ~0ULL), "wait launch"))
		return 1;
	printf("launched %d\n", THREADS);

	/* two DPA threads pinned to EUs 3 and 4, each run once, now waiting for a notification */
	if (!ok(doca_dpa_mem_alloc(dpa, 2 * sizeof(struct test_dpa_counter), &counters), "alloc") ||
	    !ok(doca_dpa_mem_alloc(dpa, sizeof(uint64_t), &tls), "alloc"))
		return 1;
	for (int i = 0; i < 2; i++) {
		struct doca_dpa_eu_affinity *aff = NULL;
		doca_dpa_dev_notification_completion_t h = 0;
		struct test_dpa_counter c = {.count = 0, .finish_at = 1000};
		doca_dpa_dev_uintptr_t arg = counters + (uint64_t)i * sizeof(c);

		ev[i] = event_for(dev, dpa, &c.event);
		if (ev[i] == NULL || !ok(doca_dpa_h2d_memcpy(dpa, arg, &c, sizeof(c)), "h2d") ||
		    !ok(doca_dpa_thread_create(dpa, &t[i]), "thread create") ||
		    !ok(doca_dpa_thread_set_func_arg(t[i], &counter_thread, arg), "func arg") ||
		    !ok(doca_dpa_thread_set_local_storage(t[i], tls), "local storage") ||
		    !ok(doca_dpa_eu_affinity_create(dpa, &aff), "affinity") ||
		    !ok(doca_dpa_eu_affinity_set(aff, 3 + (unsigned int)i), "affinity set") ||
		    !ok(doca_dpa_thread_set_affinity(t[i], aff), "set affinity") ||
		    !ok(doca_dpa_eu_affinity_destroy(aff), "affinity destroy") ||
		    !ok(doca_dpa_thread_start(t[i]), "thread start") ||
		    !ok(doca_dpa_notification_completion_create(dpa, t[i], &nc[i]), "nc create") ||
		    !ok(doca_dpa_notification_completion_start(nc[i]), "nc start") ||
		    !ok(doca_dpa_notification_completion_get_dpa_handle(nc[i], &h), "nc handle") ||
		    !ok(doca_dpa_thread_run(t[i]), "thread run") ||
		    !ok(doca_dpa_rpc(dpa, &notify_rpc, &ret, h), "notify") ||
		    !ok(doca_sync_event_wait_gt(ev[i], 0, ~0ULL), "wait thread"))
			return 1;
	}
	printf("idle\n");

	while (fgetc(stdin) != EOF)
		;
	for (int i = 0; i < 2; i++) {
		ok(doca_dpa_notification_completion_destroy(nc[i]), "nc destroy");
		ok(doca_dpa_thread_destroy(t[i]), "thread destroy");
		ok(doca_sync_event_destroy(ev[i]), "event destroy");
	}
	ok(doca_sync_event_destroy(comp), "event destroy");
	ok(doca_dpa_destroy(dpa), "dpa destroy");
	ok(doca_dev_close(dev), "dev close");
	printf("done\n");
	return 0;
}
