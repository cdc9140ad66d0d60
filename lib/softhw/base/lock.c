/* SPDX-License-Identifier: BSD-3-Clause */
/* The contended half of softhw_lock (lock.h): the classic three-state futex mutex. */
#include "softhw/base/futex.h"
#include "softhw/base/lock.h"

void softhw_lock_wait(struct softhw_lock *l)
{
	/* Mark it contended; whoever holds it wakes one sleeper when it lets go. */
	while (__atomic_exchange_n(&l->v, 2, __ATOMIC_ACQUIRE) != 0)
		(void)softhw_futex(&l->v, FUTEX_WAIT_PRIVATE, 2, NULL);
}

void softhw_lock_wake(struct softhw_lock *l)
{
	(void)softhw_futex(&l->v, FUTEX_WAKE_PRIVATE, 1, NULL);
}
