/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A lock that leans to one thread: the qp's lock. The thread that posts on a qp (the PE's)
 * takes it again and again while the soft NIC's service thread often never does (one-sided
 * work done in the peer's shared window). Even uncontended, softhw_lock costs two locked
 * instructions, about a sixth of a same-host task.
 *
 * The owner (the first thread to post) enters with a plain store to `in` and a look at
 * `biased`, and leaves with a plain store: no read-modify-write. Any other thread takes the
 * mutex, then revokes the bias: it clears `biased` and runs membarrier(PRIVATE_EXPEDITED),
 * which puts a full barrier on every CPU running one of our threads, so the owner either
 * sees the bias gone or has its `in` seen (the asymmetric Dekker of liburcu). Then it waits,
 * on a futex, until the owner is out; a trylock does not wait (it fails, the bias cleared).
 * A revoked owner takes the mutex too; once it has taken it `rebias_after` times in a row
 * with no other thread in between, it leans the lock back to itself. Each revocation doubles
 * that count, so a thread that keeps coming costs a bounded number of barriers. Without
 * membarrier the lock never leans: a mutex, as softhw_lock.
 *
 * Not recursive. The owner never changes (a second posting thread takes the mutex path).
 * A nested take on the bias would succeed silently (and the inner unlock leave the outer
 * section unguarded); sanitizer builds (SOFTHW_LOCK_CHECKS) abort on it instead.
 */
#ifndef SOFTHW_BASE_BIAS_LOCK_H
#define SOFTHW_BASE_BIAS_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "softhw/base/lock.h"

struct softhw_bias_lock {
	uint32_t in;     /* the owner is inside on the bias (written by the owner only; a futex word) */
	uint32_t biased; /* the owner may enter without the mutex (set by the owner under the mutex) */
	const void *owner;     /* the owning thread's mark (softhw_thread_mark), NULL until claimed */
	struct softhw_lock mutex;
	uint32_t waiting;      /* a revoker sleeps on `in` */
	uint32_t since;        /* the owner's takes of the mutex since another thread's (under it) */
	uint32_t rebias_after; /* how many lean it back (doubles per revocation) */
	uint32_t revocations;  /* for tests */
};

/* One byte per thread: its address names the thread (initial-exec: one fs-relative lea). */
extern __thread char softhw_thread_mark __attribute__((tls_model("initial-exec")));

void softhw_bias_lock_init(struct softhw_bias_lock *l);
/* The out-of-line halves (bias_lock.c). */
void softhw_bias_lock_other(struct softhw_bias_lock *l, bool claim);
bool softhw_bias_trylock_other(struct softhw_bias_lock *l);
void softhw_bias_owner_took(struct softhw_bias_lock *l);
void softhw_bias_owner_out(struct softhw_bias_lock *l);
void softhw_bias_nested(const struct softhw_bias_lock *l) __attribute__((noreturn));

static inline bool softhw_bias_lock_mine(const struct softhw_bias_lock *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == (const void *)&softhw_thread_mark;
}

/* The owner, on the bias: in = 1, then the look (the two ordered by the revoker's membarrier). */
static inline bool softhw_bias_enter(struct softhw_bias_lock *l)
{
	if (!__atomic_load_n(&l->biased, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(&l->in, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&l->biased, __ATOMIC_ACQUIRE))
		return true;
	softhw_bias_owner_out(l); /* revoked in between: out again, and the revoker told */
	return false;
}

static inline void softhw_bias_lock_owner(struct softhw_bias_lock *l)
{
#ifdef SOFTHW_LOCK_CHECKS
	if (__atomic_load_n(&l->in, __ATOMIC_RELAXED))
		softhw_bias_nested(l);
#endif
	if (!softhw_bias_enter(l)) {
		softhw_lock(&l->mutex);
		softhw_bias_owner_took(l);
	}
}

static inline void softhw_bias_lock(struct softhw_bias_lock *l)
{
	if (softhw_bias_lock_mine(l))
		softhw_bias_lock_owner(l);
	else
		softhw_bias_lock_other(l, false);
}

/* The poster's lock: the first thread to post claims it. */
static inline void softhw_bias_lock_claim(struct softhw_bias_lock *l)
{
	if (softhw_bias_lock_mine(l))
		softhw_bias_lock_owner(l);
	else
		softhw_bias_lock_other(l, true);
}

/* Never waits for another thread's section: false while the lock is held or the owner inside. */
static inline bool softhw_bias_trylock(struct softhw_bias_lock *l)
{
	if (!softhw_bias_lock_mine(l))
		return softhw_bias_trylock_other(l);
	if (__atomic_load_n(&l->in, __ATOMIC_RELAXED))
		return false; /* (ours already, on the bias: as softhw_trylock says of a held lock) */
	if (softhw_bias_enter(l))
		return true;
	if (!softhw_trylock(&l->mutex))
		return false;
	softhw_bias_owner_took(l);
	return true;
}

static inline void softhw_bias_unlock(struct softhw_bias_lock *l)
{
	if (softhw_bias_lock_mine(l) && __atomic_load_n(&l->in, __ATOMIC_RELAXED)) {
		/* (release: the section's loads and stores come before a revoker may see 0) */
		__atomic_store_n(&l->in, 0, __ATOMIC_RELEASE);
		__atomic_signal_fence(__ATOMIC_SEQ_CST); /* (the look stays after the store) */
		if (!__atomic_load_n(&l->biased, __ATOMIC_RELAXED))
			softhw_bias_owner_out(l); /* revoked meanwhile: the revoker may sleep on `in` */
		return;
	}
	softhw_unlock(&l->mutex);
}

#endif
