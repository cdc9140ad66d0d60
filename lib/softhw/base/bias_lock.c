/* SPDX-License-Identifier: BSD-3-Clause */
/* The slow halves of the leaning lock (bias_lock.h): claiming, revoking, leaning back. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "softhw/base/bias_lock.h"
#include "softhw/base/futex.h"
#include "softhw/base/membarrier.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SOFTHW_BIAS_LOCK);

#define REBIAS_FIRST 64u
#define REBIAS_MAX (1u << 20)

__thread char softhw_thread_mark __attribute__((tls_model("initial-exec")));

/* A revocation found membarrier() failing: no lock of this process leans again (barrier()). */
static bool lean_off;

void softhw_bias_lock_init(struct softhw_bias_lock *l)
{
	memset(l, 0, sizeof(*l));
	softhw_lock_init(&l->mutex);
	l->rebias_after = REBIAS_FIRST;
}

void softhw_bias_owner_took(struct softhw_bias_lock *l)
{
	/* Revoked, and nobody else came for a while: lean back (only where it can be revoked). */
	if (l->since < l->rebias_after) {
		l->since++;
		return;
	}
	l->since = 0;
	if (!__atomic_load_n(&lean_off, __ATOMIC_RELAXED) &&
	    softhw_membarrier_registered(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
		__atomic_store_n(&l->biased, 1, __ATOMIC_RELAXED); /* (published by the mutex's release) */
}

/* A bug of ours, not of the application: said plainly, where the sanitizers' builds run. */
void softhw_bias_nested(const struct softhw_bias_lock *l)
{
	SDK_LOG_ERR("internal error: a qp lock (%p) taken again by the thread inside it; the lock is not recursive",
		    (const void *)l);
	abort();
}

void softhw_bias_owner_out(struct softhw_bias_lock *l)
{
	__atomic_store_n(&l->in, 0, __ATOMIC_RELEASE);
	/* Dekker with the revoker's `waiting`, both sides fenced: one of us sees the other. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&l->waiting, __ATOMIC_RELAXED))
		(void)softhw_futex(&l->in, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

/*
 * Makes the owner's `in` and our cleared bias visible to each other. The private barrier can
 * fail for want of memory (a cpumask); the global one, slower (an RCU grace period), cannot,
 * short of a seccomp filter installed after the registration. Then the owner's store may still
 * sit in its CPU's store buffer: we give it a millisecond to drain (far more than any CPU
 * keeps one; not a guarantee the memory model gives, which is why nothing leans again).
 */
static void barrier(void)
{
	for (int i = 0; i < 3; i++)
		if (softhw_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
			return;
	if (softhw_membarrier(MEMBARRIER_CMD_GLOBAL) == 0)
		return;
	if (!__atomic_exchange_n(&lean_off, true, __ATOMIC_RELAXED))
		SDK_LOG_ERR("membarrier() failed after it was registered (%s): the qp locks of this process stop leaning to their posting threads (plain mutexes from now on); run without a seccomp filter on membarrier",
			    strerror(errno));
	softhw_membarrier_settle();
}

/* The mutex is ours: the owner is out (and stays out, the bias being cleared) once this returns. */
static void wait_owner_out(struct softhw_bias_lock *l)
{
	const struct timespec step = {0, 10 * 1000 * 1000}; /* (a lost wake-up costs one step) */

	while (__atomic_load_n(&l->in, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&l->waiting, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&l->in, __ATOMIC_ACQUIRE))
			break;
		(void)softhw_futex(&l->in, FUTEX_WAIT_PRIVATE, 1, &step);
	}
	__atomic_store_n(&l->waiting, 0, __ATOMIC_RELAXED);
}

/* The mutex is ours: clear the bias, once, with the barrier that orders it against `in`. */
static void unbias(struct softhw_bias_lock *l)
{
	l->since = 0;
	if (!__atomic_load_n(&l->biased, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&l->biased, 0, __ATOMIC_RELAXED);
	barrier();
	l->revocations++;
	if (l->rebias_after < REBIAS_MAX)
		l->rebias_after *= 2;
}

/*
 * With the bias cleared, the owner may still be inside from before (a trylock that found it
 * there left it so): whoever takes the mutex looks at `in` too. The revocation's barrier made
 * an older section's `in` visible; a newer attempt reads the bias cleared and backs out.
 */
void softhw_bias_lock_other(struct softhw_bias_lock *l, bool claim)
{
	softhw_lock(&l->mutex);
	if (claim && __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == NULL) {
		/* (never leaned yet: nobody can be on the bias) */
		__atomic_store_n(&l->owner, (const void *)&softhw_thread_mark, __ATOMIC_RELAXED);
		return;
	}
	unbias(l);
	wait_owner_out(l);
}

bool softhw_bias_trylock_other(struct softhw_bias_lock *l)
{
	if (!softhw_trylock(&l->mutex))
		return false;
	unbias(l);
	if (!__atomic_load_n(&l->in, __ATOMIC_ACQUIRE))
		return true;
	softhw_unlock(&l->mutex); /* the owner is inside: no wait (the bias stays cleared) */
	return false;
}
