/* SPDX-License-Identifier: BSD-3-Clause */
/* What dpa_nvqual's host and device code share: the per-thread storage and the result slot. */
#ifndef DPA_NVQUAL_COMMON_DEFS_H_
#define DPA_NVQUAL_COMMON_DEFS_H_

#include <stdint.h>

/* One DPA thread's local storage, in DPA memory (doca_dpa_thread_set_local_storage). */
struct dpa_nvqual_tls {
	uint64_t eu;           /* the EU (HART) the thread is bound to */
	uint64_t result;       /* device address of its struct dpa_nvqual_result */
	uint64_t buf;          /* device address of its buffer (memory stress) */
	uint64_t buf_size;     /* bytes */
	uint64_t budget;       /* run this long per activation, in DPA thread cycles */
	uint64_t done_event;   /* doca_dpa_dev_sync_event_t: +1 per finished activation */
};

/* What an activation reports. */
struct dpa_nvqual_result {
	uint64_t eu;
	uint64_t cycles;       /* cycles the activation ran */
	uint64_t rounds;       /* work rounds done */
};

#endif /* DPA_NVQUAL_COMMON_DEFS_H_ */
