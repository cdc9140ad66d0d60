/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DPA control path and RDMA from DPA threads on the soft DPA, each beside a host-side peer,
 * measured in the same run:
 *
 *   kernel launch: doca_dpa_kernel_launch_update_set of an empty one-thread kernel until the
 *                  host sees its completion event (doca_sync_event_wait_gt)
 *      peer:       pthread_create + pthread_join of an empty thread (an EU is a thread)
 *   RPC:           doca_dpa_rpc of a function returning x + 1
 *      peer:       a futex wake round trip between two threads (the RPC's two wake-ups)
 *   RDMA ping-pong: round trip of an -s byte send (default 8) between two connected RDMA
 *                  contexts whose datapath is on the DPA, answered by DPA threads that their
 *                  completions activate (dpa_bench_rdma.c)
 *      peer:       the same between two host RDMA contexts, each on a progress engine that a
 *                  host thread of its own progresses in a loop (receive callbacks answer);
 *                  shown beside it, the same with both host threads sleeping on their PE's
 *                  notification handle between messages, as the DPA threads sleep between
 *                  activations
 *
 * Medians of -n iterations (default 5000) after a warm-up; the goal is a ratio of at most 2.
 *
 *   dpa_bench [-n iterations] [-s message bytes, 1..64]
 */
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_sync_event.h>

#include "dpa_bench_rdma.h"

extern struct doca_dpa_app *dpa_bench_app;
extern doca_dpa_func_t bench_empty_kernel, bench_noop_rpc;

/* ---- peers ---- */

static void *empty_thread(void *arg)
{
	return arg;
}

static double pthread_create_join(uint64_t *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pthread_t th;
		uint64_t t0 = bench_now_ns();

		if (pthread_create(&th, NULL, empty_thread, NULL) != 0) {
			perror("pthread_create");
			exit(1);
		}
		pthread_join(th, NULL);
		t[i] = bench_now_ns() - t0;
	}
	return bench_median_us(t, n);
}

static uint32_t ping, pong;

static void futex_wait(uint32_t *w, uint32_t old)
{
	while (__atomic_load_n(w, __ATOMIC_ACQUIRE) == old)
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, old, NULL, NULL, 0);
}

static void futex_wake(uint32_t *w)
{
	__atomic_add_fetch(w, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *ponger(void *arg)
{
	size_t n = *(size_t *)arg;

	for (size_t i = 0; i < n; i++) {
		futex_wait(&ping, (uint32_t)i);
		futex_wake(&pong);
	}
	return NULL;
}

static double futex_round_trip(uint64_t *t, size_t n)
{
	pthread_t th;

	ping = pong = 0;
	if (pthread_create(&th, NULL, ponger, &n) != 0) {
		perror("pthread_create");
		exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = bench_now_ns();

		futex_wake(&ping);
		futex_wait(&pong, (uint32_t)i);
		t[i] = bench_now_ns() - t0;
	}
	pthread_join(th, NULL);
	return bench_median_us(t, n);
}

/* ---- ours ---- */

static double kernel_launches(struct doca_dpa *dpa, struct doca_sync_event *comp, uint64_t *t, size_t n,
			      uint64_t *next)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t t0 = bench_now_ns();

		BENCH_TRY(doca_dpa_kernel_launch_update_set(dpa, NULL, 0, comp, *next, 1, &bench_empty_kernel));
		BENCH_TRY(doca_sync_event_wait_gt(comp, *next - 1, ~0ULL));
		t[i] = bench_now_ns() - t0;
		(*next)++;
	}
	return bench_median_us(t, n);
}

static double rpcs(struct doca_dpa *dpa, uint64_t *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t ret = 0, t0 = bench_now_ns();

		BENCH_TRY(doca_dpa_rpc(dpa, &bench_noop_rpc, &ret, (uint64_t)i));
		t[i] = bench_now_ns() - t0;
		if (ret != i + 1) {
			fprintf(stderr, "dpa_bench: RPC returned %llu, expected %zu\n", (unsigned long long)ret, i + 1);
			exit(1);
		}
	}
	return bench_median_us(t, n);
}

static void report(const char *ours_name, double ours, const char *peer_name, double peer)
{
	printf("%-44s %9.2f us\n%-44s %9.2f us\n%-44s %9.2f   (goal <= 2)\n\n", ours_name, ours, peer_name, peer,
	       "  ratio", ours / peer);
}

int main(int argc, char **argv)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	struct doca_dpa *dpa = NULL;
	struct doca_sync_event *comp = NULL;
	size_t n = 5000, msg_len = 8;
	uint64_t *t, next = 1;
	uint32_t nd = 0;
	double ours, peer;
	char row[64], peer_row[64];
	double wake;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n' && atol(optarg) > 0) {
			n = (size_t)atol(optarg);
		} else if (opt == 's' && atol(optarg) > 0 && atol(optarg) <= 64) {
			msg_len = (size_t)atol(optarg);
		} else {
			fprintf(stderr, "usage: dpa_bench [-n iterations] [-s message bytes, 1..64]\n");
			return 2;
		}
	}
	t = calloc(n + n / 10 + 1, sizeof(*t));
	if (t == NULL)
		return 1;
	BENCH_TRY(doca_devinfo_create_list(&list, &nd));
	for (uint32_t i = 0; i < nd && dev == NULL; i++)
		if (doca_dpa_cap_is_supported(list[i]) == DOCA_SUCCESS)
			BENCH_TRY(doca_dev_open(list[i], &dev));
	if (dev == NULL) {
		fprintf(stderr, "dpa_bench: no device with a DPA\n");
		return 1;
	}
	BENCH_TRY(doca_dpa_create(dev, &dpa));
	BENCH_TRY(doca_dpa_set_app(dpa, dpa_bench_app));
	BENCH_TRY(doca_dpa_start(dpa));
	BENCH_TRY(doca_sync_event_create(&comp));
	BENCH_TRY(doca_sync_event_add_publisher_location_dpa(comp, dpa));
	BENCH_TRY(doca_sync_event_add_subscriber_location_cpu(comp, dev));
	BENCH_TRY(doca_sync_event_start(comp));

	printf("DPA control path and RDMA from DPA threads, %zu iterations, medians (softdoca soft DPA; peers in the same run)\n\n", n);
	kernel_launches(dpa, comp, t, n / 10 + 1, &next); /* warm-up: the EU exists */
	ours = kernel_launches(dpa, comp, t, n, &next);
	peer = pthread_create_join(t, n);
	report("kernel launch -> completion event", ours, "pthread_create + pthread_join", peer);
	rpcs(dpa, t, n / 10 + 1);
	ours = rpcs(dpa, t, n);
	peer = futex_round_trip(t, n);
	report("doca_dpa_rpc round trip", ours, "futex wake round trip (2 threads)", peer);
	ours = dpa_rdma_ping_pong(dev, dpa, msg_len, n, n / 10 + 1, t, &wake);
	peer = host_rdma_ping_pong(dev, msg_len, n, n / 10 + 1, false, t);
	snprintf(row, sizeof(row), "RDMA ping-pong %zu B, DPA threads", msg_len);
	snprintf(peer_row, sizeof(peer_row), "RDMA ping-pong %zu B, host PEs, busy progress", msg_len);
	report(row, ours, peer_row, peer);
	printf("%-44s %9.2f us\n\n", "  of which: completion queued -> DPA thread", wake);
	peer = host_rdma_ping_pong(dev, msg_len, n, n / 10 + 1, true, t);
	snprintf(peer_row, sizeof(peer_row), "RDMA ping-pong %zu B, host PEs, epoll wake", msg_len);
	printf("%-44s %9.2f us\n%-44s %9.2f   (shown, no goal)\n\n", peer_row, peer, "  ratio DPA threads / this", ours / peer);

	BENCH_TRY(doca_sync_event_destroy(comp));
	BENCH_TRY(doca_dpa_destroy(dpa));
	BENCH_TRY(doca_dev_close(dev));
	BENCH_TRY(doca_devinfo_destroy_list(list));
	free(t);
	return 0;
}
