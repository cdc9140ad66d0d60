/* SPDX-License-Identifier: BSD-3-Clause */
/* What the host hands the ping and pong DPA threads in dpa_ping_pong. */
#ifndef DPA_PING_PONG_COMMON_DEFS_H_
#define DPA_PING_PONG_COMMON_DEFS_H_

#include <stdint.h>

#define EXPECTED_NUM_RECEIVES 100

/* Thread local storage (DPA memory, doca_dpa_thread_set_local_storage). */
struct ping_pong_tls {
	uint64_t received_arr;  /* DPA memory: one flag per value received */
	uint32_t num_receives;
	uint32_t is_ping;
} __attribute__((__packed__, aligned(8)));

/* A side's resources; the thread argument points at it, and the first RPC takes both by value. */
struct ping_pong_side {
	uint64_t dpa_ctx_handle;   /* extended DPA context; 0 when not extended */
	uint64_t comp_handle;      /* the completion context that activates this side's thread */
	uint64_t rdma_handle;
	uint64_t recv_addr;        /* DPA memory */
	uint64_t send_addr;        /* DPA memory: the next value to send */
	uint32_t recv_mmap_handle;
	uint32_t send_mmap_handle;
	uint64_t recv_len;
	uint64_t send_len;
	uint64_t event_handle;     /* set to event_value when this side saw every value */
	uint64_t event_value;
} __attribute__((aligned(8)));

#endif /* DPA_PING_PONG_COMMON_DEFS_H_ */
