/* SPDX-License-Identifier: BSD-3-Clause */
/* The contended half of softhw_lock (lock.h): the classic three-state futex mutex. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "softhw/base/lock.h"

void softhw_lock_wait(struct softhw_lock *l)
{
	/* Mark it contended; whoever holds it wakes one sleeper when it lets go. */
	while (__atomic_exchange_n(&l->v, 2, __ATOMIC_ACQUIRE) != 0)
		(void)syscall(SYS_futex, &l->v, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

void softhw_lock_wake(struct softhw_lock *l)
{
	(void)syscall(SYS_futex, &l->v, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
