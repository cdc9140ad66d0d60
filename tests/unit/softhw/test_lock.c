/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw_lock (lib/softhw/base/lock.h): mutual exclusion under contention (no increment lost),
 * trylock's answers, and a waiter that sleeps in the kernel instead of spinning (its thread is
 * seen in state S while the lock is held). The qp's lock that leans to its posting thread
 * (bias_lock.h): the owner enters without the mutex once leaned; another thread revokes and
 * waits (asleep) for the owner's section; a trylock never waits and leaves the bias; no
 * increment lost with the owner and two others at it; the lock leans back. Links softhw alone.
 */
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/bias_lock.h"
#include "softhw/base/lock.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"
#include "thread_switches.h"
#include "deny_membarrier.h"

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

/* ---- the leaning lock ---- */

static struct softhw_bias_lock blk;
static uint64_t bcounter;
static int bias_phase; /* 1: the other thread is to lock; 2: it has the lock */

static bool membarrier_here(void)
{
	long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	return cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

/* The calling thread claims blk and takes it until it leans (or 10 000 times without). */
static void claim_and_lean(void)
{
	softhw_bias_lock_init(&blk);
	softhw_bias_lock_claim(&blk);
	CHECK(softhw_bias_lock_mine(&blk));
	softhw_bias_unlock(&blk);
	for (int i = 0; i < 10000 && !__atomic_load_n(&blk.biased, __ATOMIC_SEQ_CST); i++) {
		softhw_bias_lock(&blk);
		softhw_bias_unlock(&blk);
	}
}

static void test_bias_owner_alone(void)
{
	claim_and_lean();
	if (!membarrier_here()) {
		CHECK(blk.biased == 0); /* never leans where it could not be revoked */
		return;
	}
	CHECK(blk.biased == 1);
	softhw_bias_lock(&blk);
	/* inside on the bias: the mutex untouched */
	CHECK(blk.in == 1 && __atomic_load_n(&blk.mutex.v, __ATOMIC_SEQ_CST) == 0);
	softhw_bias_unlock(&blk);
	CHECK(blk.in == 0 && blk.revocations == 0);
}

/*
 * A nested take by the owner, on the bias, would pass silently; the sanitizer builds (which
 * define SOFTHW_LOCK_CHECKS) abort with a line instead. Elsewhere the check is compiled out.
 */
static void test_bias_nested(void)
{
#ifdef SOFTHW_LOCK_CHECKS
	pid_t pid;
	int status = 0;

	claim_and_lean();
	if (!membarrier_here())
		return; /* never on the bias: a nested take is the mutex's self-deadlock */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		softhw_bias_lock(&blk);
		softhw_bias_lock(&blk); /* aborts */
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
#else
	printf("(built without SOFTHW_LOCK_CHECKS: the nested take is not checked here)\n");
#endif
}

static void *bias_other(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "bias-other");
	__atomic_store_n(&bias_phase, 1, __ATOMIC_SEQ_CST);
	softhw_bias_lock(&blk);
	__atomic_store_n(&bias_phase, 2, __ATOMIC_SEQ_CST);
	bcounter++;
	softhw_bias_unlock(&blk);
	return NULL;
}

static void test_bias_revoker_waits(void)
{
	pthread_t t;
	double end = now_s() + 10;
	bool slept = false;

	claim_and_lean();
	if (!blk.biased)
		return; /* no membarrier here: test_bias_owner_alone checked it stays a mutex */
	bcounter = 0;
	__atomic_store_n(&bias_phase, 0, __ATOMIC_SEQ_CST);
	softhw_bias_lock(&blk); /* on the bias */
	CHECK(blk.in == 1);
	CHECK(pthread_create(&t, NULL, bias_other, NULL) == 0);
	/* the other thread takes the mutex, revokes, and sleeps until the owner is out */
	while (now_s() < end && !slept) {
		slept = __atomic_load_n(&bias_phase, __ATOMIC_SEQ_CST) == 1 && __atomic_load_n(&blk.waiting, __ATOMIC_SEQ_CST) &&
			thread_state("bias-other") == 'S';
		if (!slept)
			sched_yield();
	}
	CHECK(slept);
	CHECK(__atomic_load_n(&blk.biased, __ATOMIC_SEQ_CST) == 0);
	bcounter++; /* still alone in here */
	CHECK(__atomic_load_n(&bias_phase, __ATOMIC_SEQ_CST) == 1);
	softhw_bias_unlock(&blk); /* wakes it */
	pthread_join(t, NULL);
	CHECK(bias_phase == 2 && bcounter == 2 && blk.revocations == 1);
	/* revoked: the owner takes the mutex now */
	softhw_bias_lock(&blk);
	CHECK(blk.in == 0 && __atomic_load_n(&blk.mutex.v, __ATOMIC_SEQ_CST) != 0);
	softhw_bias_unlock(&blk);
	CHECK(__atomic_load_n(&blk.mutex.v, __ATOMIC_SEQ_CST) == 0);
}

/*
 * membarrier() fails after the registration (a seccomp filter installed later): the revocation
 * goes on (the owner is out), and no lock leans again, where the barrier that makes leaning
 * safe is gone. In a child, as the filter lasts for the process.
 */
static void test_bias_barrier_fails(void)
{
	int status = -1;
	pid_t pid;

	if (!membarrier_here())
		return;
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		claim_and_lean();
		if (!blk.biased)
			_exit(2);
		if (!test_deny_membarrier())
			_exit(77);
		bcounter = 0;
		CHECK(pthread_create(&t, NULL, bias_other, NULL) == 0); /* revokes, the barrier failing */
		pthread_join(t, NULL);
		if (bcounter != 1 || blk.revocations != 1 || blk.biased)
			_exit(3);
		for (int i = 0; i < 10000; i++) { /* (it would lean back after 128) */
			softhw_bias_lock(&blk);
			bcounter++;
			softhw_bias_unlock(&blk);
		}
		_exit(blk.biased ? 4 : test_failures == 0 ? 0 : 5);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		printf("skipped: the child could not install a seccomp filter\n");
		return;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void *bias_try(void *arg)
{
	*(int *)arg = softhw_bias_trylock(&blk) ? 1 : 0;
	return NULL;
}

static void test_bias_trylock(void)
{
	pthread_t t;
	int got = -1;

	claim_and_lean();
	if (!blk.biased)
		return;
	softhw_bias_lock(&blk);
	CHECK(pthread_create(&t, NULL, bias_try, &got) == 0);
	pthread_join(t, NULL);
	CHECK(got == 0); /* the owner is inside: no wait, no lock */
	CHECK(blk.biased == 0 && blk.revocations == 1 && blk.in == 1);
	CHECK(__atomic_load_n(&blk.mutex.v, __ATOMIC_SEQ_CST) == 0);
	CHECK(!softhw_bias_trylock(&blk)); /* ours already: no */
	got = -1;
	CHECK(pthread_create(&t, NULL, bias_try, &got) == 0); /* still inside, the bias cleared: no */
	pthread_join(t, NULL);
	CHECK(got == 0 && blk.revocations == 1);
	softhw_bias_unlock(&blk);
	CHECK(blk.in == 0);
	got = -1;
	CHECK(pthread_create(&t, NULL, bias_try, &got) == 0); /* the owner out: it gets it */
	pthread_join(t, NULL);
	CHECK(got == 1 && blk.biased == 0 && blk.revocations == 1);
	softhw_unlock(&blk.mutex); /* (taken by the thread that ended: the mutex is not owned) */
	/* revoked: the owner's next section takes the mutex */
	softhw_bias_lock(&blk);
	CHECK(blk.in == 0 && __atomic_load_n(&blk.mutex.v, __ATOMIC_SEQ_CST) != 0);
	softhw_bias_unlock(&blk);
}

#define BIAS_ROUNDS 300000

static void *bias_adder(void *arg)
{
	int every = *(int *)arg;

	for (int i = 0; i < BIAS_ROUNDS / every; i++) {
		softhw_bias_lock(&blk);
		bcounter++;
		softhw_bias_unlock(&blk);
		for (int k = 0; k < every; k++)
			__asm__ volatile("" ::: "memory");
	}
	return NULL;
}

static void test_bias_exclusion(void)
{
	pthread_t t[2];
	int every[2] = {1, 100}; /* one at it all the time, one now and then */
	uint64_t others = BIAS_ROUNDS / every[0] + BIAS_ROUNDS / every[1];

	claim_and_lean();
	bcounter = 0;
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, bias_adder, &every[i]) == 0);
	for (int i = 0; i < BIAS_ROUNDS; i++) {
		softhw_bias_lock(&blk);
		bcounter++;
		softhw_bias_unlock(&blk);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(bcounter == BIAS_ROUNDS + others);
	CHECK(blk.in == 0 && __atomic_load_n(&blk.mutex.v, __ATOMIC_SEQ_CST) == 0);
	if (membarrier_here()) {
		/* revoked, and leaning back once alone (the count to wait doubled per revocation) */
		CHECK(blk.revocations > 0);
		for (int i = 0; i < (1 << 21) && !blk.biased; i++) {
			softhw_bias_lock(&blk);
			softhw_bias_unlock(&blk);
		}
		CHECK(blk.biased == 1);
	}
}

int main(void)
{
	TEST_RUN(test_trylock);
	TEST_RUN(test_exclusion);
	TEST_RUN(test_waiter_sleeps);
	TEST_RUN(test_bias_owner_alone);
	TEST_RUN(test_bias_nested);
	TEST_RUN(test_bias_revoker_waits);
	TEST_RUN(test_bias_trylock);
	TEST_RUN(test_bias_exclusion);
	TEST_RUN(test_bias_barrier_fails);
	TEST_EXIT();
}
