/* SPDX-License-Identifier: BSD-3-Clause */
/* What dpa_bench's host code hands its RDMA ping-pong DPA threads (DPA memory, by address). */
#ifndef DPA_BENCH_DEFS_H
#define DPA_BENCH_DEFS_H

#include <stdint.h>

struct bench_pp_side {
	uint64_t comp_handle;  /* the completion context that activates this side's thread */
	uint64_t rdma_handle;
	uint64_t recv_addr;    /* host memory, through recv_mmap */
	uint64_t send_addr;    /* host memory, through send_mmap */
	uint64_t msg_len;
	uint32_t recv_mmap;
	uint32_t send_mmap;
	uint64_t times_addr;   /* ping only: DPA memory, the time of each arrival (rounds + 1 stamps) */
	uint64_t pushed_addr;  /* ping only: DPA memory, when each arrival's completion was queued */
	uint64_t rounds;       /* ping only: round trips before it stops answering */
	uint64_t received;     /* arrivals so far (the thread's own counter) */
	uint64_t event_handle; /* ping only: set to 1 after the last round */
	uint32_t is_ping;
	uint32_t pad;
} __attribute__((aligned(8)));

#endif /* DPA_BENCH_DEFS_H */
