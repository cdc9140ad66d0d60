/* SPDX-License-Identifier: BSD-3-Clause */
/* What the host hands the target's DPA thread (in DPA memory) in dpa_basic_initiator_target. */
#ifndef DPA_BASIC_INITIATOR_TARGET_COMMON_DEFS_H_
#define DPA_BASIC_INITIATOR_TARGET_COMMON_DEFS_H_

#include <stdint.h>

struct basic_target_arg {
	uint64_t dpa_ctx_handle; /* extended DPA context: doca_dpa_dev_device_set(); 0 when not extended */
	uint64_t comp_handle;    /* the target's DPA completion context */
	uint64_t recv_addr;      /* DPA memory the message lands in */
	uint64_t event_handle;   /* sync event the thread sets to the received value */
} __attribute__((__packed__, aligned(8)));

#endif /* DPA_BASIC_INITIATOR_TARGET_COMMON_DEFS_H_ */
