/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The values behind sync events: a process-wide registry of refcounted cells, atomic access,
 * and waiting that does not burn a core.
 *
 * Waking: an update bumps the cell's futex word and wakes sleepers only if some are
 * registered, then pokes the PE of every running sync-event context on the cell. Both checks
 * are Dekker pairs (store value, read sleepers/armed vs. register sleeper/arm, read value),
 * made safe by sequentially consistent operations on both sides.
 *
 * Shared cells (events with a remote PCI location) keep the value, the futex word and the
 * sleeper count in a segment of the run directory (fabric/shm.h) that the processes of both
 * sides of the card map: atomics and futex waits (not private) then work across processes.
 * The other process's updates cannot poke our PEs; a watcher thread per shared cell does,
 * but only while a PE waiting on the cell is armed: arming registers the watcher as a
 * sleeper, the next update wakes it, it wakes the PEs and unregisters. Unarmed, it sleeps on
 * a private word; it ends when the last context on the cell stops.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/futex.h"
#include "softhw/base/sdk_log.h"
#include "softhw/fabric/peer.h"
#include "softhw/fabric/share.h"
#include "softhw/fabric/shm.h"
#include "softhw/fabric/threads.h"
#include "softhw/fabric/value.h"

SDK_LOG_REGISTER(SYNC_EVENT_VALUE);

/* The segment of a shared cell: <run_dir>/sync_event/<exporter pid>-<id>. */
#define SHM_KIND "sync_event"
#define SHM_MAGIC 0x314c41564553444eull /* "NDSEVAL1" */
#define SHM_LEN 64

struct se_shared {
	uint64_t magic;    /* SHM_MAGIC once the exporter filled the segment in */
	uint64_t token;    /* random, in the descriptor: proves a file is the exported one */
	uint64_t value;
	uint32_t seq;      /* futex word, bumped by every update from any process (atomic) */
	uint32_t sleepers; /* stand-alone waiters and armed watchers asleep on seq, all processes */
	uint32_t retired;  /* the exporting event was destroyed: no new imports */
	uint64_t value_addr; /* the value's address in the exporter: descriptors carry it too */
};

_Static_assert(sizeof(struct se_shared) <= SHM_LEN, "shared segment layout");

/* The watcher thread of a shared cell (see the top of the file). */
struct se_watcher {
	pthread_mutex_t life;  /* serialises starting and joining the thread */
	pthread_mutex_t lock;  /* the fields below */
	pthread_t thread;
	bool running;
	bool exit;
	bool registered;       /* holds one count in shm->sleepers (atomic reads outside lock) */
	uint32_t reg_seq;      /* shm->seq when registered: any other value is an update */
	uint32_t kick;         /* private futex word the unregistered watcher sleeps on */
	bool warned;           /* the thread could not be started: said once */
};

struct softhw_value {
	struct softhw_value *next;      /* registry list (registry_lock) */
	uint64_t *addr;                     /* the value: user memory, `storage` or shm->value */
	uint64_t storage;
	uint64_t id;                        /* unique in the process; descriptors carry it */
	uint32_t refs;                      /* registry_lock */
	bool retired;                       /* its exporting event is destroyed (registry_lock) */
	bool net_exported;                  /* exported for remote net: the soft NIC may reach it (atomic) */
	uint64_t net_token;                 /* what remote-net descriptors carry; 0: none yet (registry_lock) */
	uint32_t seq;                       /* futex word of a local cell */
	uint32_t sleepers;                  /* stand-alone waiters of a local cell (atomic) */
	uint32_t *seqp;                     /* &seq, or &shm->seq */
	uint32_t *sleepersp;                /* &sleepers, or &shm->sleepers */
	int futex_private;                  /* FUTEX_PRIVATE_FLAG for local cells, 0 for shared */
	uint32_t nwatchers;                 /* running contexts on this cell in this process (atomic) */
	struct softhw_value_watcher *watchers; /* registry_lock */
	/* shared cells */
	struct se_shared *shm;              /* NULL: local cell */
	int32_t owner_pid;                  /* exporter: its pid and its id of the cell */
	uint64_t owner_id;
	bool owner;                         /* this process created the segment: it unlinks it */
	struct se_watcher watch;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct softhw_value *registry;
static uint64_t last_id;

/*
 * fork(): the child has only the forking thread. The registry lock must not be copied while
 * another thread (an updater walking the watchers, a watcher thread) holds it, and the
 * child's shared cells have no watcher thread: their watcher state starts afresh there (the
 * parent's thread keeps its own registration in the shared segment).
 */
static void atfork_prepare(void)
{
	pthread_mutex_lock(&registry_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&registry_lock);
}

static void atfork_child(void)
{
	for (struct softhw_value *c = registry; c != NULL; c = c->next) {
		if (c->shm == NULL)
			continue;
		pthread_mutex_init(&c->watch.life, NULL);
		pthread_mutex_init(&c->watch.lock, NULL);
		c->watch.running = false;
		c->watch.exit = false;
		c->watch.registered = false;
	}
	pthread_mutex_unlock(&registry_lock);
}

__attribute__((constructor)) static void registry_atfork(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

/* Spin, then yield, then sleep: the budget of each phase of a wait. */
#define WAIT_SPINS 4096
#define WAIT_YIELDS 64
#define WAIT_SLEEP_MIN_NS 20000L
#define WAIT_SLEEP_MAX_NS 1000000L   /* user memory: a plain store into it wakes nobody */
#define WAIT_SLEEP_OWN_MAX_NS 100000000L /* own storage: every write wakes; a safety net only */

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

/* ---- registry ---- */

static struct softhw_value *cell_new(uint64_t *addr)
{
	struct softhw_value *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->addr = addr != NULL ? addr : &c->storage;
	c->refs = 1;
	c->seqp = &c->seq;
	c->sleepersp = &c->sleepers;
	c->futex_private = FUTEX_PRIVATE_FLAG;
	return c;
}

/* Adds a new cell to the registry and gives it its id; registry_lock held. */
static void cell_register(struct softhw_value *c)
{
	c->id = ++last_id;
	c->next = registry;
	registry = c;
}

struct softhw_value *softhw_value_bind(uint64_t *addr)
{
	struct softhw_value *c;

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
	c = cell_new(addr);
	if (c != NULL)
		cell_register(c);
	pthread_mutex_unlock(&registry_lock);
	return c;
}

/*
 * The live value exported as id at addr whose token matches, with a reference taken: the PCIe
 * token (0 for a value in our own memory), or (net) the net token, of which `mask` is compared
 * (an R_Key carries its low byte). A value with no net token is no remote-net peer's.
 */
static struct softhw_value *bind(uint64_t id, uint64_t addr, bool net, uint64_t token, uint64_t mask)
{
	struct softhw_value *c;

	pthread_mutex_lock(&registry_lock);
	for (c = registry; c != NULL; c = c->next) {
		bool token_ok = net ? c->net_token != 0 && (c->net_token & mask) == token : softhw_value_token(c) == token;

		if (c->id == id && (uint64_t)(uintptr_t)c->addr == addr && token_ok && !c->retired) {
			c->refs++;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
	return c;
}

struct softhw_value *softhw_value_find(uint64_t id, uint64_t addr, uint64_t token)
{
	return bind(id, addr, false, token, UINT64_MAX);
}

struct softhw_value *softhw_value_find_net(uint64_t id, uint64_t addr, uint64_t token)
{
	return bind(id, addr, true, token, UINT64_MAX);
}

struct softhw_value *softhw_value_find_rkey32(uint32_t rkey, uint64_t addr)
{
	return rkey >> 31 ? bind((rkey >> 8) & 0x7fffff, addr, true, rkey & 0xff, 0xff) : NULL;
}

const char *softhw_value_why_not(uint64_t id, uint64_t addr, uint64_t token, bool net)
{
	const char *why = "no event of this process has that value id: the exporting event was destroyed (or the id is forged); export a live event again";

	pthread_mutex_lock(&registry_lock);
	for (struct softhw_value *c = registry; c != NULL; c = c->next) {
		if (c->id != id || c->retired)
			continue;
		if ((uint64_t)(uintptr_t)c->addr != addr)
			why = "forged descriptor: its value address differs from the address of the value the event exported";
		else if (net && c->net_token == 0)
			why = "forged descriptor: the event was exported to the remote PCI peer, not to remote net; export it with doca_sync_event_export_to_remote_net()";
		else if ((net ? c->net_token : softhw_value_token(c)) != token)
			why = "forged descriptor: its token differs from the token of the value the event exported";
		break;
	}
	pthread_mutex_unlock(&registry_lock);
	return why;
}

static void watcher_stop(struct softhw_value *c);

void softhw_value_unbind(struct softhw_value *cell)
{
	struct softhw_value **pp;

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
	if (cell->shm != NULL) {
		watcher_stop(cell);
		softhw_value_retire(cell);
		softhw_shm_unmap(cell->shm, SHM_LEN);
		pthread_mutex_destroy(&cell->watch.lock);
		pthread_mutex_destroy(&cell->watch.life);
	}
	free(cell);
}

uint64_t *softhw_value_addr(const struct softhw_value *cell)
{
	return cell->addr;
}

uint64_t softhw_value_id(const struct softhw_value *cell)
{
	return cell->id;
}

bool softhw_value_is_private(const struct softhw_value *cell)
{
	return cell->addr == &cell->storage || cell->shm != NULL;
}

bool softhw_value_is_shared(const struct softhw_value *cell)
{
	return cell->shm != NULL;
}

void softhw_value_export_net(struct softhw_value *cell)
{
	__atomic_store_n(&cell->net_exported, true, __ATOMIC_RELEASE);
}

bool softhw_value_net_exported(const struct softhw_value *cell)
{
	return __atomic_load_n(&cell->net_exported, __ATOMIC_ACQUIRE);
}

uint64_t softhw_value_net_token(struct softhw_value *cell)
{
	uint64_t token;

	pthread_mutex_lock(&registry_lock);
	if (cell->net_token == 0)
		cell->net_token = softhw_token_new(); /* never 0 */
	token = cell->net_token;
	pthread_mutex_unlock(&registry_lock);
	return token;
}

uint64_t softhw_value_token(const struct softhw_value *cell)
{
	return cell->shm != NULL ? cell->shm->token : 0;
}

/* ---- shared cells ---- */

static void shm_name(char out[48], int32_t pid, uint64_t id)
{
	snprintf(out, 48, "%" PRId32 "-%" PRIu64, pid, id);
}

static void cell_share(struct softhw_value *c, struct se_shared *shm)
{
	c->shm = shm;
	c->addr = &shm->value;
	c->seqp = &shm->seq;
	c->sleepersp = &shm->sleepers;
	c->futex_private = 0;
	pthread_mutex_init(&c->watch.life, NULL);
	pthread_mutex_init(&c->watch.lock, NULL);
}

doca_error_t softhw_value_create_shared(uint64_t initial, struct softhw_value **out, const char **why)
{
	struct softhw_value *c;
	struct se_shared *shm;
	uint64_t token = 0;
	char name[48];
	void *p;
	doca_error_t err;

	while (token == 0) {
		if (getrandom(&token, sizeof(token), 0) != (ssize_t)sizeof(token)) {
			*why = "getrandom() failed: no token for the shared value";
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
	}
	/* A local cell first, for its id; nobody can reach it before its descriptor exists. */
	c = softhw_value_bind(NULL);
	if (c == NULL) {
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	shm_name(name, (int32_t)getpid(), c->id);
	err = softhw_shm_create(SHM_KIND, name, SHM_LEN, &p, why);
	if (err != DOCA_SUCCESS) {
		softhw_value_unbind(c);
		return err;
	}
	shm = p;
	shm->value = initial;
	shm->token = token;
	shm->value_addr = (uint64_t)(uintptr_t)&shm->value;
	__atomic_store_n(&shm->magic, SHM_MAGIC, __ATOMIC_RELEASE);
	pthread_mutex_lock(&registry_lock); /* the registry reads addr */
	cell_share(c, shm);
	c->owner = true;
	c->owner_pid = (int32_t)getpid();
	c->owner_id = c->id;
	pthread_mutex_unlock(&registry_lock);
	*out = c;
	return DOCA_SUCCESS;
}

/* Is a segment still the value the descriptor names? */
static bool shm_current(const struct se_shared *shm, uint64_t token)
{
	return __atomic_load_n(&shm->magic, __ATOMIC_ACQUIRE) == SHM_MAGIC && shm->token == token &&
	       !__atomic_load_n(&shm->retired, __ATOMIC_ACQUIRE);
}

/*
 * A live value whose token or address is not the descriptor's: the descriptor was forged (or
 * comes from an earlier process with the exporter's pid). NULL when the segment is not live.
 */
static const char *shm_mismatch(const struct se_shared *shm, uint64_t addr, uint64_t token)
{
	if (__atomic_load_n(&shm->magic, __ATOMIC_ACQUIRE) != SHM_MAGIC || __atomic_load_n(&shm->retired, __ATOMIC_ACQUIRE))
		return NULL;
	if (shm->token != token)
		return "the descriptor's token differs from the token of the value that process exports with this id (forged, or a descriptor of an earlier process with its pid)";
	if (shm->value_addr != addr)
		return "the descriptor's value address differs from the address of the value that process exported (forged)";
	return NULL;
}

doca_error_t softhw_value_open_shared(int32_t pid, uint64_t id, uint64_t addr, uint64_t token,
					  struct softhw_value **out, const char **why)
{
	const char *mismatch;

	struct softhw_value *c;
	char name[48];
	void *p;
	doca_error_t err;

	/* A segment outlives a crashed exporter: only a live one's value is importable. */
	if (kill(pid, 0) != 0 && errno == ESRCH) {
		*why = "the exporting process has exited";
		return DOCA_ERROR_NOT_FOUND;
	}
	/* Imported before in this process: one cell, so its waiters and watchers are shared. */
	pthread_mutex_lock(&registry_lock);
	for (c = registry; c != NULL; c = c->next) {
		if (c->shm != NULL && !c->owner && c->owner_pid == pid && c->owner_id == id && c->shm->token == token)
			break;
	}
	if (c != NULL) {
		if (!shm_current(c->shm, token)) {
			pthread_mutex_unlock(&registry_lock);
			*why = "the exporting event was destroyed";
			return DOCA_ERROR_NOT_FOUND;
		}
		if (c->shm->value_addr != addr) {
			pthread_mutex_unlock(&registry_lock);
			*why = shm_mismatch(c->shm, addr, token);
			return DOCA_ERROR_INVALID_VALUE;
		}
		c->refs++;
		pthread_mutex_unlock(&registry_lock);
		*out = c;
		return DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&registry_lock);

	shm_name(name, pid, id);
	err = softhw_shm_open(SHM_KIND, name, SHM_LEN, &p, why);
	if (err == DOCA_ERROR_NOT_FOUND)
		*why = "the exporting event was destroyed (its value is gone from the run directory)";
	if (err != DOCA_SUCCESS)
		return err;
	mismatch = shm_mismatch(p, addr, token);
	if (mismatch != NULL || !shm_current(p, token)) {
		softhw_shm_unmap(p, SHM_LEN);
		*why = mismatch != NULL ? mismatch : "the exporting event was destroyed (its value is retired)";
		return mismatch != NULL ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_NOT_FOUND;
	}
	c = cell_new(NULL);
	if (c == NULL) {
		softhw_shm_unmap(p, SHM_LEN);
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	cell_share(c, p);
	c->owner_pid = pid;
	c->owner_id = id;
	pthread_mutex_lock(&registry_lock);
	cell_register(c);
	pthread_mutex_unlock(&registry_lock);
	*out = c;
	return DOCA_SUCCESS;
}

void softhw_value_retire(struct softhw_value *cell)
{
	bool unlink_it;

	if (!softhw_value_is_private(cell))
		return; /* user memory: the value lives as long as any event on it */
	pthread_mutex_lock(&registry_lock);
	unlink_it = cell->owner && !cell->retired;
	cell->retired = true;
	pthread_mutex_unlock(&registry_lock);
	if (unlink_it) {
		char name[48];

		__atomic_store_n(&cell->shm->retired, 1, __ATOMIC_RELEASE);
		shm_name(name, cell->owner_pid, cell->owner_id);
		softhw_shm_unlink(SHM_KIND, name);
	}
}

/* ---- watchers: running contexts and, for shared cells, the watcher thread ---- */

void softhw_value_watch(struct softhw_value *cell, struct softhw_value_watcher *watcher)
{
	pthread_mutex_lock(&registry_lock);
	watcher->next = cell->watchers;
	cell->watchers = watcher;
	__atomic_add_fetch(&cell->nwatchers, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&registry_lock);
}

void softhw_value_unwatch(struct softhw_value *cell, struct softhw_value_watcher *watcher)
{
	struct softhw_value_watcher **pp;
	bool last = false;

	pthread_mutex_lock(&registry_lock);
	for (pp = &cell->watchers; *pp != NULL && *pp != watcher; pp = &(*pp)->next)
		;
	if (*pp == watcher) {
		*pp = watcher->next;
		watcher->next = NULL;
		last = __atomic_sub_fetch(&cell->nwatchers, 1, __ATOMIC_SEQ_CST) == 0;
	}
	pthread_mutex_unlock(&registry_lock);
	if (last && cell->shm != NULL)
		watcher_stop(cell);
}

/* Tells the cell's watchers (the PEs of running contexts: they wake only if armed). */
static void notify_watchers(struct softhw_value *c)
{
	pthread_mutex_lock(&registry_lock);
	for (struct softhw_value_watcher *w = c->watchers; w != NULL; w = w->next)
		w->notify(w);
	pthread_mutex_unlock(&registry_lock);
}

static void kick(struct se_watcher *w)
{
	__atomic_add_fetch(&w->kick, 1, __ATOMIC_SEQ_CST);
	softhw_futex(&w->kick, FUTEX_WAKE_PRIVATE, 1, NULL);
}

static void *watcher_main(void *arg)
{
	struct softhw_value *c = arg;
	struct se_watcher *w = &c->watch;

	pthread_mutex_lock(&w->lock);
	while (!w->exit) {
		uint32_t k = __atomic_load_n(&w->kick, __ATOMIC_SEQ_CST);
		uint32_t s = w->reg_seq;
		bool reg = w->registered;

		pthread_mutex_unlock(&w->lock);
		/* Both return at once if the word moved since it was read under the lock. */
		if (reg)
			softhw_futex(&c->shm->seq, FUTEX_WAIT, s, NULL);
		else
			softhw_futex(&w->kick, FUTEX_WAIT_PRIVATE, k, NULL);
		pthread_mutex_lock(&w->lock);
		if (w->registered && __atomic_load_n(&c->shm->seq, __ATOMIC_SEQ_CST) != w->reg_seq) {
			/* An update since arming: wake the PEs; they poll and arm again if they still wait. */
			__atomic_store_n(&w->registered, false, __ATOMIC_SEQ_CST);
			__atomic_sub_fetch(&c->shm->sleepers, 1, __ATOMIC_SEQ_CST);
			pthread_mutex_unlock(&w->lock);
			notify_watchers(c);
			pthread_mutex_lock(&w->lock);
		}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* Starts the thread if needed; life held. */
static bool watcher_start(struct softhw_value *c)
{
	struct se_watcher *w = &c->watch;
	sigset_t all, old;
	int rc;

	if (w->running)
		return true;
	/* The thread takes no signals: they stay with the application's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = softhw_thread_create(&w->thread, NULL, watcher_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		if (!w->warned)
			SDK_LOG_ERR("Sync event: cannot start the thread that wakes a PE when the PCIe peer updates the "
				    "value (%s); the PE will not sleep while it waits on this event (raise the thread limit)",
				    strerror(rc));
		w->warned = true;
		return false;
	}
	w->running = true;
	return true;
}

static void watcher_stop(struct softhw_value *c)
{
	struct se_watcher *w = &c->watch;

	pthread_mutex_lock(&w->life);
	/* A context that started meanwhile (another thread) keeps it. */
	if (!w->running || __atomic_load_n(&c->nwatchers, __ATOMIC_SEQ_CST) > 0) {
		pthread_mutex_unlock(&w->life);
		return;
	}
	pthread_mutex_lock(&w->lock);
	w->exit = true;
	if (w->registered) {
		/* It sleeps on the shared word: only a change of it is sure to end that sleep. */
		__atomic_store_n(&w->registered, false, __ATOMIC_SEQ_CST);
		__atomic_sub_fetch(&c->shm->sleepers, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&c->shm->seq, 1, __ATOMIC_SEQ_CST);
		softhw_futex(&c->shm->seq, FUTEX_WAKE, INT_MAX, NULL);
	}
	kick(w);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->running = false;
	w->exit = false;
	pthread_mutex_unlock(&w->life);
}

bool softhw_value_arm(struct softhw_value *cell)
{
	struct se_watcher *w = &cell->watch;
	bool ok;

	if (cell->shm == NULL)
		return false; /* local updates poke the PEs themselves */
	/* Already registered: the watcher's coming wake-up will poke this PE too. */
	if (__atomic_load_n(&w->registered, __ATOMIC_SEQ_CST))
		return false;
	pthread_mutex_lock(&w->life);
	ok = watcher_start(cell);
	if (ok) {
		pthread_mutex_lock(&w->lock);
		if (!w->registered) {
			/* Register, then read seq: an update after this read wakes the watcher; one before
			 * it is seen by the caller's poll that follows (pe_arm checks for ready work). */
			__atomic_add_fetch(&cell->shm->sleepers, 1, __ATOMIC_SEQ_CST);
			__atomic_store_n(&w->registered, true, __ATOMIC_SEQ_CST);
			w->reg_seq = __atomic_load_n(&cell->shm->seq, __ATOMIC_SEQ_CST);
			kick(w);
		}
		pthread_mutex_unlock(&w->lock);
	}
	pthread_mutex_unlock(&w->life);
	return !ok; /* no watcher: report work pending, so the PE is polled rather than left asleep */
}

/* ---- access ---- */

/* The value changed: wake sleeping stand-alone waiters and the PEs of running contexts. */
static void cell_changed(struct softhw_value *c)
{
	__atomic_add_fetch(c->seqp, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(c->sleepersp, __ATOMIC_SEQ_CST) > 0)
		softhw_futex(c->seqp, FUTEX_WAKE | c->futex_private, INT_MAX, NULL);
	if (__atomic_load_n(&c->nwatchers, __ATOMIC_SEQ_CST) == 0)
		return;
	notify_watchers(c);
}

uint64_t softhw_value_load(const struct softhw_value *cell)
{
	return __atomic_load_n(cell->addr, __ATOMIC_SEQ_CST);
}

uint64_t softhw_value_poll(struct softhw_value *cell)
{
	/*
	 * The RMW on seq orders this poll against every update's RMW on seq: either the update
	 * comes first and its value is seen here, or it comes after and sees what the poller did
	 * before (armed its PE notification), so it wakes it. A fence would do on hardware, but
	 * ThreadSanitizer does not model fences.
	 */
	__atomic_fetch_add(cell->seqp, 0, __ATOMIC_SEQ_CST);
	return __atomic_load_n(cell->addr, __ATOMIC_SEQ_CST);
}

/* (a remote notify runs on the soft NIC's thread: the value may be application memory being moved) */
void softhw_value_store(struct softhw_value *cell, uint64_t value)
{
	softhw_share_store_begin();
	__atomic_store_n(cell->addr, value, __ATOMIC_SEQ_CST);
	softhw_share_store_end();
	cell_changed(cell);
}

uint64_t softhw_value_fetch_add(struct softhw_value *cell, uint64_t value)
{
	uint64_t prev;

	softhw_share_store_begin();
	prev = __atomic_fetch_add(cell->addr, value, __ATOMIC_SEQ_CST);
	softhw_share_store_end();
	cell_changed(cell);
	return prev;
}

uint64_t softhw_value_compare_swap(struct softhw_value *cell, uint64_t compare, uint64_t swap)
{
	uint64_t prev = compare;
	bool swapped;

	softhw_share_store_begin();
	swapped = __atomic_compare_exchange_n(cell->addr, &prev, swap, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	softhw_share_store_end();
	if (swapped)
		cell_changed(cell);
	return prev;
}

void softhw_value_wait(struct softhw_value *cell, enum softhw_value_cmp cmp, uint64_t want, uint64_t mask,
			   bool yield)
{
	softhw_value_wait_for(cell, cmp, want, mask, yield, -1);
}

bool softhw_value_wait_for(struct softhw_value *cell, enum softhw_value_cmp cmp, uint64_t want, uint64_t mask,
			   bool yield, long long timeout_ns)
{
	struct timespec start;
	long sleep_ns = WAIT_SLEEP_MIN_NS;
	/* Only user memory can change behind the API; elsewhere the timeout covers a peer process
	 * that died between its store and its wake-up. */
	long sleep_max = softhw_value_is_private(cell) ? WAIT_SLEEP_OWN_MAX_NS : WAIT_SLEEP_MAX_NS;

	/* The plain variant is documented as a busy-wait: spin a little before backing off. */
	for (int i = yield ? 0 : WAIT_SPINS; i > 0; i--) {
		if (softhw_value_holds(softhw_value_load(cell), cmp, want, mask))
			return true;
		cpu_relax();
	}
	for (int i = 0; i < WAIT_YIELDS; i++) {
		if (softhw_value_holds(softhw_value_load(cell), cmp, want, mask))
			return true;
		sched_yield();
	}
	if (timeout_ns >= 0)
		clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		uint32_t seq = __atomic_load_n(cell->seqp, __ATOMIC_SEQ_CST);
		struct timespec ts = {.tv_sec = 0, .tv_nsec = sleep_ns};
		bool done;

		__atomic_add_fetch(cell->sleepersp, 1, __ATOMIC_SEQ_CST);
		done = softhw_value_holds(softhw_value_load(cell), cmp, want, mask);
		/* Returns at once if an update bumped seq since we read it; else sleeps until one does. */
		if (!done)
			softhw_futex(cell->seqp, FUTEX_WAIT | cell->futex_private, seq, &ts);
		__atomic_sub_fetch(cell->sleepersp, 1, __ATOMIC_SEQ_CST);
		if (done || softhw_value_holds(softhw_value_load(cell), cmp, want, mask))
			return true;
		if (timeout_ns >= 0) {
			struct timespec now;

			clock_gettime(CLOCK_MONOTONIC, &now);
			if ((now.tv_sec - start.tv_sec) * 1000000000LL + (now.tv_nsec - start.tv_nsec) >= timeout_ns)
				return false;
		}
		if (sleep_ns < sleep_max)
			sleep_ns = sleep_ns * 2 < sleep_max ? sleep_ns * 2 : sleep_max;
	}
}

void softhw_value_changed(uint64_t *addr)
{
	struct softhw_value *c;

	pthread_mutex_lock(&registry_lock);
	for (c = registry; c != NULL && c->addr != addr; c = c->next)
		;
	if (c != NULL)
		c->refs++; /* keep it while we wake its waiters outside the lock */
	pthread_mutex_unlock(&registry_lock);
	if (c == NULL)
		return;
	cell_changed(c);
	softhw_value_unbind(c);
}
