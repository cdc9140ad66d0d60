/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpa_nvqual's device code: each DPA thread, once notified, stresses its EU for its budget of
 * cycles (memory writes over its buffer, or integer arithmetic), reports, and reschedules.
 * Work is done in rounds with a time check between them, so an activation never outlives
 * its budget by more than one round (the budget stays below the kernel max run time).
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_sync_event.h>
#include <dpaintrin.h>

#include "../common/dpa_nvqual_common_defs.h"

#define ROUND_WRITES 4096
#define ROUND_OPS 4096

static void report(const struct dpa_nvqual_tls *tls, uint64_t cycles, uint64_t rounds)
{
	struct dpa_nvqual_result *r = (struct dpa_nvqual_result *)tls->result;

	r->eu = tls->eu;
	r->cycles = cycles;
	r->rounds = rounds;
	doca_dpa_dev_sync_event_update_add(tls->done_event, 1);
}

/* Writes spread over the buffer with a stride of whole cache lines and a per-EU offset. */
__dpa_global__ void dpa_nvqual_memory_kernel(uint64_t arg)
{
	const struct dpa_nvqual_tls *tls = (const struct dpa_nvqual_tls *)doca_dpa_dev_thread_get_local_storage();
	volatile uint64_t *words = (volatile uint64_t *)tls->buf;
	uint64_t n = tls->buf_size / sizeof(uint64_t), start = __dpa_thread_cycles(), now = start, rounds = 0;
	uint64_t at = (tls->eu * 64) % (n ? n : 1);

	(void)arg;
	while (n > 0 && now - start < tls->budget) {
		for (int i = 0; i < ROUND_WRITES; i++) {
			words[at] = (rounds << 16) ^ tls->eu ^ (uint64_t)i;
			at = (at + 9 * 8) % n; /* 9 cache lines on: a different line, bank and set each time */
		}
		__dpa_compiler_barrier();
		rounds++;
		now = __dpa_thread_cycles();
	}
	report(tls, now - start, rounds);
	doca_dpa_dev_thread_reschedule();
}

/* A chain of dependent multiply-adds the compiler cannot fold. */
__dpa_global__ void dpa_nvqual_arithmetic_kernel(uint64_t arg)
{
	const struct dpa_nvqual_tls *tls = (const struct dpa_nvqual_tls *)doca_dpa_dev_thread_get_local_storage();
	uint64_t start = __dpa_thread_cycles(), now = start, rounds = 0;
	volatile uint64_t sink = tls->eu + 1;
	uint64_t x = sink;

	(void)arg;
	while (now - start < tls->budget) {
		for (int i = 0; i < ROUND_OPS; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL + (x >> 29);
		sink = x;
		rounds++;
		now = __dpa_thread_cycles();
	}
	report(tls, now - start, rounds);
	doca_dpa_dev_thread_reschedule();
}

/* Wakes every DPA thread of the run: one notification each. */
__dpa_rpc__ uint64_t dpa_nvqual_dispatch(doca_dpa_dev_uintptr_t notification_handles, uint64_t num_threads)
{
	const doca_dpa_dev_notification_completion_t *h =
		(const doca_dpa_dev_notification_completion_t *)notification_handles;

	for (uint64_t i = 0; i < num_threads; i++)
		doca_dpa_dev_thread_notify(h[i]);
	return 0;
}
