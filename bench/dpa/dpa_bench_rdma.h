/* SPDX-License-Identifier: BSD-3-Clause */
/* dpa_bench's RDMA ping-pong rows: DPA threads beside host contexts driven by a progress engine. */
#ifndef DPA_BENCH_RDMA_H
#define DPA_BENCH_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_dpa.h>

/*
 * Round trip of a msg_len-byte send between two connected RDMA contexts, median of n (after
 * warmup more): t must hold n + warmup values. *wake_us: the median time from an arrival's
 * completion being queued to ping's DPA thread seeing it.
 */
double dpa_rdma_ping_pong(struct doca_dev *dev, struct doca_dpa *dpa, size_t msg_len, size_t n, size_t warmup,
			  uint64_t *t, double *wake_us);
/* event_driven: the host thread sleeps on the PE's notification handle (else it progresses in a loop) */
double host_rdma_ping_pong(struct doca_dev *dev, size_t msg_len, size_t n, size_t warmup, bool event_driven,
			   uint64_t *t);

/* shared with dpa_bench.c */
uint64_t bench_now_ns(void);
double bench_median_us(uint64_t *v, size_t n);
void bench_die(const char *what, doca_error_t err);

#define BENCH_TRY(call)                                                                                \
	do {                                                                                           \
		doca_error_t e_ = (call);                                                              \
		if (e_ != DOCA_SUCCESS)                                                                \
			bench_die(#call, e_);                                                          \
	} while (0)

#endif /* DPA_BENCH_RDMA_H */
