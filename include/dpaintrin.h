/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: dpaintrin.h — the DPA compiler's intrinsics that DOCA's device code uses, for
 * device code built by softdoca's dpacc (the EUs are host threads: cycles are nanoseconds of
 * CLOCK_MONOTONIC; the time is the DPA timer, the clock doca_clock_get_crosstimestamp() reads
 * as DOCA_CLOCK_NIC_DPA_TIMER, in microseconds, as NVIDIA's time_sync application converts it;
 * fences are C11 fences).
 */
#ifndef SOFTDOCA_DPAINTRIN_H
#define SOFTDOCA_DPAINTRIN_H

#include <stdint.h>

#define __DPA_HEAP 1
#define __DPA_MEMORY 2
#define __DPA_MMIO 4
#define __DPA_SYSTEM 8
#define __DPA_R 1
#define __DPA_W 2
#define __DPA_RW 3

uint64_t __softdoca_dpa_dev_cycles(void);
uint64_t __softdoca_dpa_dev_time_us(void);

static inline uint64_t __dpa_thread_cycles(void)
{
	return __softdoca_dpa_dev_cycles();
}

static inline uint64_t __dpa_thread_time(void)
{
	return __softdoca_dpa_dev_time_us();
}

#define __dpa_compiler_barrier() __asm__ __volatile__("" ::: "memory")
#define __dpa_thread_fence(space, pred, succ) __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __dpa_thread_memory_fence(pred, succ) __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __dpa_thread_outbox_fence(pred, succ) __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __dpa_thread_window_fence(pred, succ) __atomic_thread_fence(__ATOMIC_SEQ_CST)

#endif /* SOFTDOCA_DPAINTRIN_H */
