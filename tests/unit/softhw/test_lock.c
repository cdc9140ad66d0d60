/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw_lock (lib/softhw/base/lock.h), the qp's lock: mutual exclusion under contention (no
 * increment lost), trylock's answers, and a waiter that sleeps in the kernel instead of
 * spinning (its thread is seen in state S while the lock is held). Links softhw alone.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/lock.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"
#include "thread_switches.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

#define THREADS 3
#define ROUNDS 200000

static struct softhw_lock lock = SOFTHW_LOCK_INIT;
static uint64_t counter; /* plain: only the lock keeps the increments whole */
static int waiter_named;
static int waiter_got;

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		softhw_lock(&lock);
		counter++;
		softhw_unlock(&lock);
	}
	return NULL;
}

static void test_exclusion(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, adder, NULL) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(counter == (uint64_t)THREADS * ROUNDS);
	CHECK(__atomic_load_n(&lock.v, __ATOMIC_SEQ_CST) == 0);
}

static void test_trylock(void)
{
	struct softhw_lock l;

	softhw_lock_init(&l);
	CHECK(softhw_trylock(&l));
	CHECK(!softhw_trylock(&l));
	softhw_unlock(&l);
	CHECK(softhw_trylock(&l));
	softhw_unlock(&l);
}

static void *waiter(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "lock-waiter"); /* thread_state finds it by name */
	__atomic_store_n(&waiter_named, 1, __ATOMIC_SEQ_CST);
	softhw_lock(&lock);
	__atomic_store_n(&waiter_got, 1, __ATOMIC_SEQ_CST);
	softhw_unlock(&lock);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_waiter_sleeps(void)
{
	pthread_t t;
	double end = now_s() + 10;
	bool slept = false;

	softhw_lock(&lock);
	CHECK(pthread_create(&t, NULL, waiter, NULL) == 0);
	/* contended: the waiter marks the lock (2) and goes to sleep on the futex */
	while (now_s() < end && !slept) {
		slept = __atomic_load_n(&waiter_named, __ATOMIC_SEQ_CST) && __atomic_load_n(&lock.v, __ATOMIC_SEQ_CST) == 2 &&
			thread_state("lock-waiter") == 'S';
		if (!slept)
			sched_yield();
	}
	CHECK(slept);
	CHECK(!__atomic_load_n(&waiter_got, __ATOMIC_SEQ_CST));
	softhw_unlock(&lock); /* wakes it */
	pthread_join(t, NULL);
	CHECK(waiter_got == 1);
	CHECK(__atomic_load_n(&lock.v, __ATOMIC_SEQ_CST) == 0);
}

int main(void)
{
	TEST_RUN(test_trylock);
	TEST_RUN(test_exclusion);
	TEST_RUN(test_waiter_sleeps);
	TEST_EXIT();
}
