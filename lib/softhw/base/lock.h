/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A process-private lock for the hot paths (a qp's post from the owner's thread): one atomic
 * to take it and one to give it back when nobody waits, where glibc's mutex runs about 80
 * instructions for the pair (type, owner and elision checks). Contended, it sleeps on a futex;
 * it never spins. Not recursive, no error checking, no condition variables: use a
 * pthread_mutex_t for those.
 */
#ifndef SOFTHW_BASE_LOCK_H
#define SOFTHW_BASE_LOCK_H

#include <stdbool.h>
#include <stdint.h>

struct softhw_lock {
	uint32_t v; /* 0 free, 1 held, 2 held and someone may sleep on it */
};

#define SOFTHW_LOCK_INIT {0}

void softhw_lock_wait(struct softhw_lock *l);
void softhw_lock_wake(struct softhw_lock *l);

static inline void softhw_lock_init(struct softhw_lock *l)
{
	__atomic_store_n(&l->v, 0, __ATOMIC_RELAXED);
}

static inline bool softhw_trylock(struct softhw_lock *l)
{
	uint32_t free_ = 0;

	return __atomic_compare_exchange_n(&l->v, &free_, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void softhw_lock(struct softhw_lock *l)
{
	if (!softhw_trylock(l))
		softhw_lock_wait(l);
}

static inline void softhw_unlock(struct softhw_lock *l)
{
	if (__atomic_exchange_n(&l->v, 0, __ATOMIC_RELEASE) == 2)
		softhw_lock_wake(l);
}

#endif
