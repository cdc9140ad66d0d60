/* SPDX-License-Identifier: BSD-3-Clause */
/* The futex system call, which glibc does not wrap: one home for softhw's waits and wakes. */
#ifndef SOFTHW_BASE_FUTEX_H
#define SOFTHW_BASE_FUTEX_H

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline long softhw_futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

#endif
