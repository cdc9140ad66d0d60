/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The values behind sync events: a process-wide registry of refcounted cells, atomic access,
 * and waiting that does not burn a core.
 *
 * Waking: an update bumps the cell's futex word and wakes sleepers only if some are
 * registered, then pokes the PE of every running sync-event context on the cell. Both checks
 * are Dekker pairs (store value, read sleepers/armed vs. register sleeper/arm, read value),
 * made safe by sequentially consistent operations on both sides.
 */
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sync_event_int.h"
#include "common/priv/sync_event_priv.h"

struct softdoca_se_cell {
	struct softdoca_se_cell *next;      /* registry list (registry_lock) */
	uint64_t *addr;                     /* the value: user memory or `storage` */
	uint64_t storage;
	uint64_t id;                        /* unique in the process; descriptors carry it */
	uint32_t refs;                      /* registry_lock */
	uint32_t seq;                       /* futex word, bumped by every update (atomic) */
	uint32_t sleepers;                  /* stand-alone waiters asleep on seq (atomic) */
	uint32_t nwatchers;                 /* running contexts on this cell (atomic) */
	struct doca_sync_event *watchers;   /* registry_lock */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct softdoca_se_cell *registry;
static uint64_t last_id;

/* Spin, then yield, then sleep: the budget of each phase of a wait. */
#define WAIT_SPINS 4096
#define WAIT_YIELDS 64
#define WAIT_SLEEP_MIN_NS 20000L
#define WAIT_SLEEP_MAX_NS 1000000L

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

struct softdoca_se_cell *softdoca_se_cell_bind(uint64_t *addr)
{
	struct softdoca_se_cell *c;

	pthread_mutex_lock(&registry_lock);
	if (addr != NULL) {
		for (c = registry; c != NULL; c = c->next) {
			if (c->addr == addr) {
				c->refs++;
				pthread_mutex_unlock(&registry_lock);
				return c;
			}
		}
	}
	c = calloc(1, sizeof(*c));
	if (c != NULL) {
		c->addr = addr != NULL ? addr : &c->storage;
		c->id = ++last_id;
		c->refs = 1;
		c->next = registry;
		registry = c;
	}
	pthread_mutex_unlock(&registry_lock);
	return c;
}

struct softdoca_se_cell *softdoca_se_cell_find(uint64_t id, uint64_t addr)
{
	struct softdoca_se_cell *c;

	pthread_mutex_lock(&registry_lock);
	for (c = registry; c != NULL; c = c->next) {
		if (c->id == id && (uint64_t)(uintptr_t)c->addr == addr) {
			c->refs++;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return c;
}

void softdoca_se_cell_unbind(struct softdoca_se_cell *cell)
{
	struct softdoca_se_cell **pp;

	if (cell == NULL)
		return;
	pthread_mutex_lock(&registry_lock);
	if (--cell->refs > 0) {
		pthread_mutex_unlock(&registry_lock);
		return;
	}
	for (pp = &registry; *pp != NULL && *pp != cell; pp = &(*pp)->next)
		;
	if (*pp == cell)
		*pp = cell->next;
	pthread_mutex_unlock(&registry_lock);
	free(cell);
}

uint64_t *softdoca_se_cell_addr(const struct softdoca_se_cell *cell)
{
	return cell->addr;
}

uint64_t softdoca_se_cell_id(const struct softdoca_se_cell *cell)
{
	return cell->id;
}

bool softdoca_se_cell_is_private(const struct softdoca_se_cell *cell)
{
	return cell->addr == &cell->storage;
}

void softdoca_se_cell_watch(struct softdoca_se_cell *cell, struct doca_sync_event *ev)
{
	pthread_mutex_lock(&registry_lock);
	ev->watch_next = cell->watchers;
	cell->watchers = ev;
	__atomic_add_fetch(&cell->nwatchers, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&registry_lock);
}

void softdoca_se_cell_unwatch(struct softdoca_se_cell *cell, struct doca_sync_event *ev)
{
	struct doca_sync_event **pp;

	pthread_mutex_lock(&registry_lock);
	for (pp = &cell->watchers; *pp != NULL && *pp != ev; pp = &(*pp)->watch_next)
		;
	if (*pp == ev) {
		*pp = ev->watch_next;
		ev->watch_next = NULL;
		__atomic_sub_fetch(&cell->nwatchers, 1, __ATOMIC_SEQ_CST);
	}
	pthread_mutex_unlock(&registry_lock);
}

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
	return syscall(SYS_futex, word, op, val, timeout, NULL, 0);
}

/* The value changed: wake sleeping stand-alone waiters and the PEs of running contexts. */
static void cell_changed(struct softdoca_se_cell *c)
{
	__atomic_add_fetch(&c->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST) > 0)
		futex(&c->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
	if (__atomic_load_n(&c->nwatchers, __ATOMIC_SEQ_CST) == 0)
		return;
	pthread_mutex_lock(&registry_lock);
	for (struct doca_sync_event *w = c->watchers; w != NULL; w = w->watch_next)
		softdoca_pe_notify(w->ctx.pe);
	pthread_mutex_unlock(&registry_lock);
}

uint64_t softdoca_se_cell_load(const struct softdoca_se_cell *cell)
{
	return __atomic_load_n(cell->addr, __ATOMIC_SEQ_CST);
}

uint64_t softdoca_se_cell_poll(struct softdoca_se_cell *cell)
{
	/*
	 * The RMW on seq orders this poll against every update's RMW on seq: either the update
	 * comes first and its value is seen here, or it comes after and sees what the poller did
	 * before (armed its PE notification), so it wakes it. A fence would do on hardware, but
	 * ThreadSanitizer does not model fences.
	 */
	__atomic_fetch_add(&cell->seq, 0, __ATOMIC_SEQ_CST);
	return __atomic_load_n(cell->addr, __ATOMIC_SEQ_CST);
}

void softdoca_se_cell_store(struct softdoca_se_cell *cell, uint64_t value)
{
	__atomic_store_n(cell->addr, value, __ATOMIC_SEQ_CST);
	cell_changed(cell);
}

uint64_t softdoca_se_cell_fetch_add(struct softdoca_se_cell *cell, uint64_t value)
{
	uint64_t prev = __atomic_fetch_add(cell->addr, value, __ATOMIC_SEQ_CST);

	cell_changed(cell);
	return prev;
}

void softdoca_se_cell_wait(struct softdoca_se_cell *cell, enum softdoca_se_cmp cmp, uint64_t want, uint64_t mask,
			   bool yield)
{
	long sleep_ns = WAIT_SLEEP_MIN_NS;

	/* The plain variant is documented as a busy-wait: spin a little before backing off. */
	for (int i = yield ? 0 : WAIT_SPINS; i > 0; i--) {
		if (softdoca_se_holds(softdoca_se_cell_load(cell), cmp, want, mask))
			return;
		cpu_relax();
	}
	for (int i = 0; i < WAIT_YIELDS; i++) {
		if (softdoca_se_holds(softdoca_se_cell_load(cell), cmp, want, mask))
			return;
		sched_yield();
	}
	for (;;) {
		uint32_t seq = __atomic_load_n(&cell->seq, __ATOMIC_SEQ_CST);
		struct timespec ts = {.tv_sec = 0, .tv_nsec = sleep_ns};
		bool done;

		__atomic_add_fetch(&cell->sleepers, 1, __ATOMIC_SEQ_CST);
		done = softdoca_se_holds(softdoca_se_cell_load(cell), cmp, want, mask);
		/* Returns at once if an update bumped seq since we read it; else sleeps until one does. */
		if (!done)
			futex(&cell->seq, FUTEX_WAIT_PRIVATE, seq, &ts);
		__atomic_sub_fetch(&cell->sleepers, 1, __ATOMIC_SEQ_CST);
		if (done || softdoca_se_holds(softdoca_se_cell_load(cell), cmp, want, mask))
			return;
		if (sleep_ns < WAIT_SLEEP_MAX_NS)
			sleep_ns = sleep_ns * 2 < WAIT_SLEEP_MAX_NS ? sleep_ns * 2 : WAIT_SLEEP_MAX_NS;
	}
}

void softdoca_sync_event_value_changed(uint64_t *addr)
{
	struct softdoca_se_cell *c;

	pthread_mutex_lock(&registry_lock);
	for (c = registry; c != NULL && c->addr != addr; c = c->next)
		;
	if (c != NULL)
		c->refs++; /* keep it while we wake its waiters outside the lock */
	pthread_mutex_unlock(&registry_lock);
	if (c == NULL)
		return;
	cell_changed(c);
	softdoca_se_cell_unbind(c);
}
