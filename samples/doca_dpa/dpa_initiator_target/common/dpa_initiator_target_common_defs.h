/* SPDX-License-Identifier: BSD-3-Clause */
/* What the host hands the target's two DPA threads (in DPA memory) in dpa_initiator_target. */
#ifndef DPA_INITIATOR_TARGET_COMMON_DEFS_H_
#define DPA_INITIATOR_TARGET_COMMON_DEFS_H_

#include <stdint.h>

#define EXPECTED_NUM_RECEIVES 4

/* Thread #1: takes every receive, reposts, and wakes thread #2 after the last. */
struct receiver_arg {
	uint64_t dpa_ctx_handle; /* extended DPA context; 0 when not extended */
	uint64_t notify_handle;  /* thread #2's notification completion */
	uint64_t comp_handle;    /* the target's DPA completion context */
	uint64_t rdma_handle;    /* the target RDMA context */
	uint64_t recv_addr;      /* DPA memory the messages land in */
	uint64_t recv_len;
	uint32_t mmap_handle;    /* of recv_addr */
	uint32_t reserved;
} __attribute__((__packed__, aligned(8)));

/* Thread #2: publishes the end. */
struct finisher_arg {
	uint64_t event_handle;
	uint64_t event_value;
} __attribute__((__packed__, aligned(8)));

#endif /* DPA_INITIATOR_TARGET_COMMON_DEFS_H_ */
