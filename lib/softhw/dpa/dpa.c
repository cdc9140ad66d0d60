/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw dpa: execution units, device memory and value handles of one DPA context, and the
 * image loader (dpa.h, docs/dpa.md).
 *
 * Locking: dpa->lock guards the job queue, the EU counts, the memory list and the handle
 * table. A value's watchers are notified under the value registry's lock, and notify takes
 * dpa->lock: so nothing here calls a value function that takes the registry lock (watch,
 * unwatch, store, fetch_add, find, unbind) while holding dpa->lock.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/futex.h"
#include "softhw/dpa/dpa.h"
#include "softhw/softhw.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SOFTHW_DPA);

#define MEM_ALIGN 64
/*
 * A handle names its context's table slot: tag (16 bits) | context id (16) | kind (8, objects
 * only) | slot + 1. The tag makes a stray number unlikely to match; the context id makes a
 * handle of one context a wrong one in every other (their slots are numbered alike).
 */
#define HANDLE_TAG 0x5d9a000000000000ULL
#define HANDLE_MASK 0x0000ffffffffffffULL
#define OBJ_TAG 0x5d9b000000000000ULL
#define CTX_SHIFT 32
#define CTX_MASK 0xffffULL
#define OBJ_KIND_SHIFT 24
#define OBJ_SLOT_MASK 0xffffffULL
#define VALUE_SLOT_MASK 0xffffffffULL
#define RKEY_TAG 0x5d9c000000000000ULL
/* How often an idle EU looks at wait values whose updates may not notify it (user memory, the
 * other process's stores), and the safety net for those that do. */
#define POLL_NS 1000000L
#define SAFETY_NS 100000000L
/* How long doca_dpa_stop waits for device code that is not in a DPA call to return. */
#define STOP_GRACE_NS 1000000000LL
/* While ranks run, the watchdog looks at least this many times per kernel max run time. */
#define WATCHDOG_PERIODS 8
#define NS 1000000000LL

struct mem_block {
	struct mem_block *next; /* sorted by address */
	uint64_t addr;
	uint64_t size;
};

/* Jobs waiting for ranks to start, in submission order. */
struct jobq {
	struct softhw_dpa_job *head, *tail;
};

struct eu {
	struct eu *next;
	pthread_t thread;
	struct softhw_dpa *dpa;
	uint32_t id;                      /* 0 .. eus_available - 1: the EU an affinity names */
	/* pinned jobs only this EU runs (dpa->lock) */
	struct jobq pinned;
	/* idle: it sleeps on wake, listed in dpa->idle_head (dpa->lock) */
	pthread_cond_t wake;
	bool idle;
	bool waking;                      /* taken off the idle list for a rank of the shared queue */
	bool held_logged;                 /* a pinned submit logged that a stopped rank holds it */
	struct eu *idle_prev, *idle_next;
	/* the rank it runs (dpa->lock); job NULL while idle */
	struct softhw_dpa_job *job;
	unsigned int rank;
	int64_t started_ns;
	/*
	 * The rank's DPA time, what the watchdog measures: its thread's CPU time since it started
	 * plus the time it spent in device waits. Wall time would charge a rank for the other
	 * threads of an oversubscribed host (a DPA runs each rank on an EU of its own).
	 */
	clockid_t cpu_clock;
	bool handed_off;                  /* its hand_off job left it a rank to take (dpa->lock) */
	int64_t waited_ns;                /* device waits ended (dpa->lock) */
	int64_t wait_since_ns;            /* the device wait in progress started (dpa->lock) */
	/*
	 * No clock is read when a rank starts (it would cost every launch a system call): the
	 * watchdog takes its baseline when it first sees the rank, and charges the wall time
	 * before that in full (its first look comes at once when it was idle, else within
	 * WATCHDOG_PERIOD).
	 */
	uint64_t seq, seen_seq;           /* ranks started; the last one the watchdog has seen */
	int64_t cpu_base_ns, wait_base_ns, used_base_ns;
	/* atomic: the rank must end at its next DPA call (watchdog or close); stays set once abandoned */
	uint32_t stop;
	bool reporting;                   /* the watchdog reports this rank: the job stays alive */
	/* what the rank waits on in a device wait (dpa->lock); NULL outside one */
	struct softhw_value *wait_value;
	uint64_t wait_want, wait_mask;
};

struct softhw_dpa {
	pthread_mutex_t lock;
	uint64_t id;                      /* in every handle of this context (CTX_MASK bits, never 0) */
	const struct softhw_function *fn; /* the function (device) the context runs on */
	pthread_cond_t waits;     /* EUs in a device wait: a value changed, a rank is stopped, closing */
	pthread_cond_t idle;      /* close: an EU ended its rank; the watchdog: a rank started */
	struct softhw_dpa_caps caps;
	bool closing;
	/* EUs */
	struct eu *eus;
	struct eu **by_id;        /* caps.eus_available slots: the EU of each id, NULL until started */
	uint32_t num_eus;
	struct eu *idle_head;     /* idle EUs, each asleep on its own condition */
	uint32_t idle_eus;
	uint32_t waking_eus;      /* woken for a rank of the shared queue, not yet looking */
	uint32_t starting_eus;    /* spawned, not yet looking for work */
	uint64_t queued_ranks;    /* ranks of the shared queue's jobs not started yet */
	uint32_t busy_eus;        /* running a rank */
	uint32_t promised_ranks;  /* queued ranks a running hand_off job's EU will take */
	/* watchdog: ranks running longer than the kernel max run time (0: none) */
	int64_t max_run_ns;
	pthread_t watchdog;
	bool has_watchdog;
	bool watchdog_idle;       /* waits for a rank to start, without a timeout */
	uint32_t overruns;
	/* devices the context was extended to (doca_dpa_device_extend): their mmap handles count too */
	const struct softhw_function *ext_fns[SOFTHW_DPA_MAX_EXTEND];
	uint32_t num_ext;
	struct softhw_dpa *grave_next;    /* abandoned contexts stay listed (and reachable) for good */
	/* jobs any EU may run with ranks not yet started (pinned ones wait on their EU) */
	struct jobq queue;
	/* device memory */
	uint8_t *mem;
	uint64_t mem_size;
	struct mem_block *blocks;
	uint64_t mem_used;
	uint32_t mem_count;
	/* values the device reaches by handle; each slot holds a reference */
	struct softhw_value **values;
	uint32_t num_values;
	uint32_t cap_values;
	/* peers' sync events by handle: copies of their rkeys */
	struct rkey {
		int32_t pid;
		uint64_t id, token, addr;
	} *rkeys;
	uint32_t num_rkeys;
	/* objects by handle: kind 0 is a free slot */
	struct obj_slot {
		uint32_t kind;
		void *object;
	} *objects;
	uint32_t num_objects;
};

struct softhw_dpa_image {
	void *handle;
	/*
	 * The memfd it was loaded from stays open while it is loaded: the dynamic loader knows
	 * the image by the name "/proc/self/fd/N", and would hand a later image loaded through
	 * the same fd number this one instead.
	 */
	int fd;
};

/*
 * SOFTDOCA_DPA_KERNEL_MAX_RUN_TIME=<seconds>: tests and impatient users shorten the watchdog
 * (docs/dpa.md). Read once: caps are asked for on every launch.
 */
static long long max_run_time_override(void)
{
	static long long cached = -1;
	long long v = __atomic_load_n(&cached, __ATOMIC_RELAXED);

	if (v < 0) {
		const char *env = getenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_TIME");
		char *end = NULL;

		v = env != NULL ? strtoll(env, &end, 10) : 0;
		if (env == NULL || *env == '\0' || *end != '\0' || v < 0)
			v = 0;
		__atomic_store_n(&cached, v, __ATOMIC_RELAXED);
	}
	return v;
}

static bool dpa_caps(const struct softhw_function *fn, struct softhw_dpa_caps *caps)
{
	const struct softhw_caps *c = &fn->caps;

	memset(caps, 0, sizeof(*caps));
	if (!c->dpa)
		return false;
	caps->num_cores = c->dpa_num_cores;
	caps->eus_per_core = c->dpa_eus_per_core;
	caps->eus_available = c->dpa_eus_available;
	caps->max_threads_per_kernel = c->dpa_max_threads_per_kernel;
	caps->kernel_max_run_time_sec = c->dpa_kernel_max_run_time_sec;
	if (max_run_time_override() > 0)
		caps->kernel_max_run_time_sec = (uint64_t)max_run_time_override();
	caps->mem_size = c->dpa_mem_size;
	return true;
}

static const char *dpa_profile_name(const struct softhw_function *fn)
{
	return softhw_profile_name(fn->card->profile);
}

/* ---- execution units ---- */

/* Is the job's wait condition met? (value_load takes no lock) */
static bool job_runnable(const struct softhw_dpa_job *job)
{
	if (job->wait_value == NULL)
		return true;
	if (job->wait_ne)
		return softhw_value_load(job->wait_value) != job->wait_threshold;
	return softhw_value_load(job->wait_value) >= job->wait_threshold;
}

/* Takes job off q; false if it is not there. */
static bool unlink_job(struct jobq *q, struct softhw_dpa_job *job)
{
	struct softhw_dpa_job **pp, *prev = NULL;

	for (pp = &q->head; *pp != NULL && *pp != job; pp = &(*pp)->next)
		prev = *pp;
	if (*pp == NULL)
		return false;
	*pp = job->next;
	if (q->tail == job)
		q->tail = prev;
	job->next = NULL;
	return true;
}

static void append_job(struct jobq *q, struct softhw_dpa_job *job)
{
	if (q->tail != NULL)
		q->tail->next = job;
	else
		q->head = job;
	q->tail = job;
}

/* The queue a job waits in: its EU's when pinned (that EU exists once it is queued); dpa->lock held. */
static struct jobq *queue_of(struct softhw_dpa *dpa, const struct softhw_dpa_job *job)
{
	if (!job->pinned)
		return &dpa->queue;
	return dpa->by_id[job->eu] != NULL ? &dpa->by_id[job->eu]->pinned : NULL;
}

/* The job's last rank is over (or it was cancelled): completion, then the owner's callback. */
static void job_finish(struct softhw_dpa_job *job, doca_error_t status)
{
	if (job->wait_value != NULL)
		softhw_value_unwatch(job->wait_value, &job->watcher);
	if (status == DOCA_SUCCESS && job->comp_value != NULL) {
		if (job->comp_add)
			softhw_value_fetch_add(job->comp_value, job->comp_count);
		else
			softhw_value_store(job->comp_value, job->comp_count);
	}
	job->done(job, status);
}

static struct eu *spawn_eu(struct softhw_dpa *dpa, uint32_t id);

/* The lowest EU id without an EU (there is one while num_eus < eus_available); dpa->lock held. */
static uint32_t free_eu_id(const struct softhw_dpa *dpa)
{
	uint32_t id = 0;

	while (id < dpa->caps.eus_available && dpa->by_id[id] != NULL)
		id++;
	return id;
}

/*
 * As many new EUs as queued ranks lack one (idle or starting EUs, or a running EU a hand_off
 * job promised a rank to, take the others), up to the cap; dpa->lock held. All at once: a wide launch does not wait for a chain of EUs to each
 * get scheduled and spawn the next.
 */
static void spawn_eus(struct softhw_dpa *dpa)
{
	uint64_t have = (uint64_t)dpa->idle_eus + dpa->waking_eus + dpa->starting_eus + dpa->promised_ranks;

	while (dpa->queued_ranks > have && dpa->num_eus < dpa->caps.eus_available && !dpa->closing) {
		if (spawn_eu(dpa, free_eu_id(dpa)) == NULL)
			break; /* could not: logged */
		have++;
	}
}

/* The EU running on this thread (NULL on any other thread): device waits find their rank here. */
static __thread struct eu *self_eu;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * NS + ts.tv_nsec;
}

/* CPU time of an EU's thread (0 if the clock cannot be read: wall time alone then counts). */
static int64_t cpu_ns(const struct eu *eu)
{
	struct timespec ts;

	if (clock_gettime(eu->cpu_clock, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * NS + ts.tv_nsec;
}

/* Time a running rank spent in device waits; dpa->lock held. */
static int64_t waited_ns(const struct eu *eu, int64_t now)
{
	return eu->waited_ns + (eu->wait_value != NULL ? now - eu->wait_since_ns : 0);
}

/* The DPA time a running rank has used (see struct eu); the watchdog, dpa->lock held. */
static int64_t used_ns(struct eu *eu, int64_t now)
{
	if (eu->seen_seq != eu->seq) {
		/* first look at this rank: everything so far counts, from here on CPU time and waits */
		eu->seen_seq = eu->seq;
		eu->cpu_base_ns = cpu_ns(eu);
		eu->wait_base_ns = waited_ns(eu, now);
		eu->used_base_ns = now - eu->started_ns;
	}
	return eu->used_base_ns + (cpu_ns(eu) - eu->cpu_base_ns) + (waited_ns(eu, now) - eu->wait_base_ns);
}

static struct timespec ts_at(int64_t ns)
{
	struct timespec ts = {.tv_sec = ns / NS, .tv_nsec = ns % NS};

	return ts;
}

/* First rank of q ready to run, taken off the queue; dpa->lock held. */
static struct softhw_dpa_job *pick_from(struct jobq *q, unsigned int *rank, bool *must_poll)
{
	for (struct softhw_dpa_job *job = q->head; job != NULL; job = job->next) {
		if (!job_runnable(job)) {
			/* user memory and the other process's stores do not always notify us */
			if (!softhw_value_is_private(job->wait_value) || softhw_value_is_shared(job->wait_value))
				*must_poll = true;
			continue;
		}
		*rank = job->next_rank++;
		if (job->next_rank == job->num_ranks)
			unlink_job(q, job);
		return job;
	}
	return NULL;
}

/* The next rank for this EU: its pinned jobs first, then the shared queue; dpa->lock held. */
static struct softhw_dpa_job *pick(struct softhw_dpa *dpa, struct eu *eu, unsigned int *rank, bool *must_poll)
{
	struct softhw_dpa_job *job;

	*must_poll = false;
	job = pick_from(&eu->pinned, rank, must_poll);
	if (job != NULL)
		return job;
	job = pick_from(&dpa->queue, rank, must_poll);
	if (job != NULL)
		dpa->queued_ranks--;
	return job;
}

static void idle_remove(struct softhw_dpa *dpa, struct eu *eu)
{
	if (eu->idle_prev != NULL)
		eu->idle_prev->idle_next = eu->idle_next;
	else
		dpa->idle_head = eu->idle_next;
	if (eu->idle_next != NULL)
		eu->idle_next->idle_prev = eu->idle_prev;
	eu->idle_prev = eu->idle_next = NULL;
	eu->idle = false;
	dpa->idle_eus--;
}

/*
 * Takes an idle EU off the idle list for a waker to signal (after unlocking, so that it finds
 * the lock free); `shared`: for a rank of the shared queue, counted until it looks (spawn_eus).
 * dpa->lock held.
 */
static void wake_take(struct softhw_dpa *dpa, struct eu *eu, bool shared)
{
	idle_remove(dpa, eu);
	if (shared) {
		eu->waking = true;
		dpa->waking_eus++;
	}
}

/* Every idle EU looks again (a value changed, closing); dpa->lock held. */
static void wake_all(struct softhw_dpa *dpa)
{
	for (struct eu *eu = dpa->idle_head; eu != NULL; eu = eu->idle_next)
		pthread_cond_signal(&eu->wake);
}

/* Idle: sleeps until a job arrives (or, with jobs waiting on values, until it may look again). */
static void eu_idle(struct softhw_dpa *dpa, struct eu *eu, bool must_poll)
{
	eu->idle = true;
	eu->idle_prev = NULL;
	eu->idle_next = dpa->idle_head;
	if (dpa->idle_head != NULL)
		dpa->idle_head->idle_prev = eu;
	dpa->idle_head = eu;
	dpa->idle_eus++;
	if (dpa->queue.head == NULL && eu->pinned.head == NULL) {
		/* nothing queued: a submit or close wakes us; no timer while idle */
		pthread_cond_wait(&eu->wake, &dpa->lock);
	} else {
		struct timespec until = ts_at(now_ns() + (must_poll ? POLL_NS : SAFETY_NS));

		pthread_cond_timedwait(&eu->wake, &dpa->lock, &until);
	}
	if (eu->idle)
		idle_remove(dpa, eu);
	if (eu->waking) {
		eu->waking = false;
		dpa->waking_eus--;
	}
}

/*
 * A batch job's rank runs under SCHED_BATCH (softhw_dpa_job.batch); returns the policy to go
 * back to after it, or -1 when there is none to restore. An EU that already runs under another
 * policy than SCHED_OTHER (the process was started so) keeps it.
 */
static int eu_batch_begin(const struct softhw_dpa_job *job)
{
	struct sched_param p = {0};

	if (!job->batch || sched_getscheduler(0) != SCHED_OTHER)
		return -1;
	if (sched_setscheduler(0, SCHED_BATCH, &p) != 0) {
		SDK_LOG_DBG("DPA: job '%s' runs without SCHED_BATCH: %s", job->name != NULL ? job->name : "", strerror(errno));
		return -1;
	}
	return SCHED_OTHER;
}

static void eu_batch_end(int policy)
{
	struct sched_param p = {0};

	if (policy >= 0 && sched_setscheduler(0, policy, &p) != 0)
		SDK_LOG_ERR("DPA: an EU stays under SCHED_BATCH after a batch job: %s", strerror(errno));
}

static void *eu_main(void *arg)
{
	struct eu *eu = arg;
	struct softhw_dpa *dpa = eu->dpa;

	self_eu = eu;
	if (pthread_getcpuclockid(pthread_self(), &eu->cpu_clock) != 0)
		eu->cpu_clock = CLOCK_THREAD_CPUTIME_ID; /* read by the watchdog: 0 then, see cpu_ns */
	pthread_mutex_lock(&dpa->lock);
	dpa->starting_eus--;
	while (!dpa->closing) {
		unsigned int rank;
		bool must_poll;
		struct softhw_dpa_job *job = pick(dpa, eu, &rank, &must_poll);

		if (job == NULL) {
			eu_idle(dpa, eu, must_poll);
			continue;
		}
		/* more ranks waiting than EUs to take them: more EUs, up to the cap */
		spawn_eus(dpa);
		eu->job = job;
		eu->rank = rank;
		eu->handed_off = false;
		eu->held_logged = false;
		eu->started_ns = now_ns();
		eu->waited_ns = 0;
		eu->seq++;
		dpa->busy_eus++;
		if (dpa->watchdog_idle)
			pthread_cond_broadcast(&dpa->idle);
		pthread_mutex_unlock(&dpa->lock);
		int policy = eu_batch_begin(job);

		job->run(job, rank);
		eu_batch_end(policy);
		pthread_mutex_lock(&dpa->lock);
		/* the watchdog may be reporting this rank: the job must outlive its report */
		while (eu->reporting)
			pthread_cond_wait(&dpa->idle, &dpa->lock);
		eu->job = NULL;
		dpa->busy_eus--;
		/* the rank it was promised is now one an idle EU could take: it looks next anyway */
		if (eu->handed_off)
			dpa->promised_ranks--;
		if (dpa->closing)
			pthread_cond_broadcast(&dpa->idle);
		if (--job->ranks_left == 0) {
			doca_error_t status = job->cancelled ? DOCA_ERROR_AGAIN
					      : job->overran ? DOCA_ERROR_TIME_OUT
							     : DOCA_SUCCESS;

			pthread_mutex_unlock(&dpa->lock);
			job_finish(job, status);
			pthread_mutex_lock(&dpa->lock);
		}
		/* a rank the watchdog stopped leaves its EU usable for the next one */
		if (!dpa->closing)
			__atomic_store_n(&eu->stop, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&dpa->lock);
	return NULL;
}

/*
 * Starts one more EU if the cap allows; dpa->lock held. EUs are plain threads of this
 * process, not softhw service threads (fabric/threads.h): they run the application's device
 * code, which may store into memory like any application thread.
 */
static struct eu *spawn_eu(struct softhw_dpa *dpa, uint32_t id)
{
	pthread_condattr_t attr;
	struct eu *eu;
	int rc;

	if (dpa->closing || id >= dpa->caps.eus_available || dpa->by_id[id] != NULL)
		return NULL;
	eu = calloc(1, sizeof(*eu));
	if (eu == NULL) {
		SDK_LOG_ERR("DPA: cannot start execution unit %u: out of memory; the EUs already running go on", id);
		return NULL;
	}
	eu->dpa = dpa;
	eu->id = id;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&eu->wake, &attr);
	pthread_condattr_destroy(&attr);
	rc = pthread_create(&eu->thread, NULL, eu_main, eu);
	if (rc != 0) {
		SDK_LOG_ERR("DPA: cannot start execution unit %u: %s; the EUs already running go on", id, strerror(rc));
		pthread_cond_destroy(&eu->wake);
		free(eu);
		return NULL;
	}
	eu->next = dpa->eus;
	dpa->eus = eu;
	dpa->by_id[id] = eu;
	dpa->num_eus++;
	dpa->starting_eus++;
	return eu;
}

/* A job's wait value changed: idle EUs look at the queue again. */
static void job_notify(struct softhw_value_watcher *w)
{
	struct softhw_dpa_job *job = (struct softhw_dpa_job *)((char *)w - offsetof(struct softhw_dpa_job, watcher));
	struct softhw_dpa *dpa = job->dpa;

	pthread_mutex_lock(&dpa->lock);
	wake_all(dpa);
	pthread_mutex_unlock(&dpa->lock);
}

/* A value a device wait watches changed: the EUs in device waits look again. */
static void wait_notify(struct softhw_value_watcher *w)
{
	struct softhw_dpa_job *job = (struct softhw_dpa_job *)((char *)w - offsetof(struct softhw_dpa_job, watcher));
	struct softhw_dpa *dpa = job->dpa;

	pthread_mutex_lock(&dpa->lock);
	pthread_cond_broadcast(&dpa->waits);
	pthread_mutex_unlock(&dpa->lock);
}

/* Queues a pinned job on its EU, started now if it has none; dpa->lock held, dropped. */
static void submit_pinned(struct softhw_dpa *dpa, struct softhw_dpa_job *job)
{
	struct eu *eu = job->eu < dpa->caps.eus_available ? dpa->by_id[job->eu] : NULL;
	struct eu *wake = NULL;

	if (eu == NULL && job->eu < dpa->caps.eus_available)
		eu = spawn_eu(dpa, job->eu);
	if (eu == NULL) {
		uint32_t cap = dpa->caps.eus_available;

		pthread_mutex_unlock(&dpa->lock);
		if (job->eu >= cap)
			SDK_LOG_ERR("DPA: '%s' is pinned to EU %u, but the profile makes EUs 0 to %u available "
				    "(doca_dpa_get_total_num_eus_available() = %u); it does not run",
				    job->name != NULL ? job->name : "?", job->eu, cap - 1, cap);
		job_finish(job, job->eu >= cap ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_OPERATING_SYSTEM);
		return;
	}
	append_job(&eu->pinned, job);
	/* an EU busy with a rank looks at its queue when the rank ends; one submitting to itself too */
	if (eu->idle) {
		wake_take(dpa, eu, false);
		wake = eu;
	}
	/*
	 * A rank told to stop (watchdog, thread stop) that has not ended is in no DPA call: it
	 * holds the EU for as long as it spins. Say once what a job pinned there waits for.
	 */
	if (eu->job != NULL && eu != self_eu && !eu->held_logged && __atomic_load_n(&eu->stop, __ATOMIC_ACQUIRE)) {
		char holder[64];

		snprintf(holder, sizeof(holder), "%s", eu->job->name != NULL ? eu->job->name : "?");
		eu->held_logged = true;
		pthread_mutex_unlock(&dpa->lock);
		SDK_LOG_ERR("DPA: '%s' is pinned to EU %u, which '%s' still holds: it was told to stop but runs device "
			    "code that makes no DPA call; '%s' waits until it returns",
			    job->name != NULL ? job->name : "?", job->eu, holder, job->name != NULL ? job->name : "?");
	} else {
		pthread_mutex_unlock(&dpa->lock);
	}
	if (wake != NULL)
		pthread_cond_signal(&wake->wake);
}

/* Idle EUs a submit signals after unlocking; more are signalled under the lock. */
#define WAKE_AFTER_UNLOCK 8

static void dpa_submit(struct softhw_dpa *dpa, struct softhw_dpa_job *job)
{
	struct eu *wake[WAKE_AFTER_UNLOCK];
	uint32_t want, woken = 0, taken = 0;

	job->dpa = dpa;
	job->next = NULL;
	job->next_rank = 0;
	job->ranks_left = job->num_ranks;
	job->cancelled = false;
	job->overran = false;
	if (job->wait_value != NULL) {
		job->watcher.notify = job_notify;
		softhw_value_watch(job->wait_value, &job->watcher);
	}
	pthread_mutex_lock(&dpa->lock);
	if (dpa->closing) {
		pthread_mutex_unlock(&dpa->lock);
		job_finish(job, DOCA_ERROR_AGAIN);
		return;
	}
	if (job->pinned) {
		submit_pinned(dpa, job);
		return;
	}
	append_job(&dpa->queue, job);
	dpa->queued_ranks += job->num_ranks;
	/* submitted by a running hand_off job on one of our EUs: that EU takes the rank next */
	if (job->num_ranks == 1 && self_eu != NULL && self_eu->dpa == dpa && self_eu->job != NULL &&
	    self_eu->job->hand_off && !self_eu->handed_off) {
		self_eu->handed_off = true;
		dpa->promised_ranks++;
		taken = 1;
	}
	spawn_eus(dpa);
	/*
	 * Wake as many idle EUs as there are ranks, not the whole pool, each on its own condition
	 * and, the first few, after unlocking: a woken EU finds the lock free instead of sleeping
	 * on it again.
	 */
	want = job->num_ranks - taken;
	while (want > 0 && dpa->idle_head != NULL) {
		struct eu *eu = dpa->idle_head;

		wake_take(dpa, eu, true);
		if (woken < WAKE_AFTER_UNLOCK)
			wake[woken++] = eu;
		else
			pthread_cond_signal(&eu->wake);
		want--;
	}
	pthread_mutex_unlock(&dpa->lock);
	for (uint32_t i = 0; i < woken; i++)
		pthread_cond_signal(&wake[i]->wake);
}

/*
 * The flag is a futex word: raise stores and wakes, wait sleeps while it is 0. No lock, so
 * the waiter wakes straight into its caller (an RPC's return path).
 */
static void dpa_flag_raise(struct softhw_dpa *dpa, uint32_t *flag)
{
	(void)dpa;
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
	softhw_futex(flag, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL);
}

static void dpa_flag_wait(struct softhw_dpa *dpa, uint32_t *flag)
{
	(void)dpa;
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0)
		softhw_futex(flag, FUTEX_WAIT_PRIVATE, 0, NULL);
}

static bool dpa_flag_wait_for(struct softhw_dpa *dpa, uint32_t *flag, int64_t timeout_ns)
{
	int64_t until = now_ns() + timeout_ns;

	(void)dpa;
	while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) {
		int64_t left = until - now_ns();
		struct timespec ts;

		if (left <= 0)
			return false;
		ts.tv_sec = left / NS;
		ts.tv_nsec = left % NS;
		softhw_futex(flag, FUTEX_WAIT_PRIVATE, 0, &ts);
	}
	return true;
}

/* Ends one job early: its ranks not started never start, those running end at their next DPA call. */
static void dpa_job_stop(struct softhw_dpa *dpa, struct softhw_dpa_job *job)
{
	bool finished = false;
	struct jobq *q;

	pthread_mutex_lock(&dpa->lock);
	q = queue_of(dpa, job);
	if (q != NULL && unlink_job(q, job)) {
		if (!job->pinned)
			dpa->queued_ranks -= job->num_ranks - job->next_rank;
		job->ranks_left -= job->num_ranks - job->next_rank;
		job->num_ranks = job->next_rank;
		job->cancelled = true;
		finished = job->ranks_left == 0;
	}
	for (struct eu *eu = dpa->eus; eu != NULL; eu = eu->next) {
		if (eu->job == job) {
			job->cancelled = true;
			__atomic_store_n(&eu->stop, 1, __ATOMIC_RELEASE);
		}
	}
	pthread_cond_broadcast(&dpa->waits);
	pthread_mutex_unlock(&dpa->lock);
	if (finished)
		job_finish(job, DOCA_ERROR_AGAIN);
}

/* ---- the watchdog: ranks past the kernel max run time ---- */

/* The handle device code knows a value by (0 if the context has none); dpa->lock held. */
static uint64_t handle_of(const struct softhw_dpa *dpa, const struct softhw_value *value)
{
	for (uint32_t i = 0; i < dpa->num_values; i++)
		if (dpa->values[i] == value)
			return HANDLE_TAG | ((uint64_t)dpa->id << CTX_SHIFT) | (i + 1);
	return 0;
}

/* Logs what an overrunning rank is doing, then stops it at its next DPA call; dpa->lock held, dropped around the log. */
static void overrun(struct softhw_dpa *dpa, struct eu *eu, int64_t now)
{
	struct softhw_dpa_job *job = eu->job;
	int64_t used = used_ns(eu, now);
	char waits[256];
	bool first = !job->overran;

	job->overran = true;
	if (eu->wait_value != NULL)
		snprintf(waits, sizeof(waits),
			 "it waits in doca_dpa_dev_sync_event_wait_gt() for sync event 0x%llx to exceed %llu (mask "
			 "0x%llx), which holds %llu: nothing has updated it; its wait is interrupted and the rank ends",
			 (unsigned long long)handle_of(dpa, eu->wait_value), (unsigned long long)eu->wait_want,
			 (unsigned long long)eu->wait_mask, (unsigned long long)softhw_value_load(eu->wait_value));
	else
		snprintf(waits, sizeof(waits),
			 "it is in no DPA call: it computes or spins in device code, which cannot be interrupted; it ends "
			 "at its next DPA call, and doca_dpa_stop() abandons its EU if it has not returned by then");
	eu->reporting = true;
	pthread_mutex_unlock(&dpa->lock);
	SDK_LOG_ERR("DPA watchdog: %s '%s' (thread %u of %u) on EU %u has run for %.1f s (its EU's CPU time and device waits; "
		    "%.1f s of wall time), past the kernel max run time of %llu s (doca_dpa_get_kernel_max_run_time()): "
		    "%s. The DPA context is now in error (doca_dpa_peek_at_last_error()); the launch will not signal "
		    "its completion event",
		    job->num_ranks == 1 && job->name == NULL ? "job" : "kernel", job->name != NULL ? job->name : "?",
		    eu->rank, job->num_ranks, eu->id, (double)used / NS, (double)(now - eu->started_ns) / NS,
		    (unsigned long long)dpa->caps.kernel_max_run_time_sec, waits);
	pthread_mutex_lock(&dpa->lock);
	/* in error, and the rank stopped, once the line is out: a program that sees the context
	 * fail (doca_dpa_peek_at_last_error) finds the reason logged */
	__atomic_add_fetch(&dpa->overruns, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&eu->stop, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&dpa->waits);
	if (first && job->overrun != NULL) {
		pthread_mutex_unlock(&dpa->lock);
		job->overrun(job);
		pthread_mutex_lock(&dpa->lock);
	}
	eu->reporting = false;
	pthread_cond_broadcast(&dpa->idle);
}

/*
 * One per context while it is started. Sleeps until the earliest deadline of a running rank,
 * or, with none running, until a rank starts: an idle context costs no wake-ups.
 */
static void *watchdog_main(void *arg)
{
	struct softhw_dpa *dpa = arg;

	pthread_mutex_lock(&dpa->lock);
	while (!dpa->closing) {
		int64_t now = now_ns(), next = 0;
		struct eu *eu;

		for (eu = dpa->eus; eu != NULL; eu = eu->next) {
			int64_t used, at;

			if (eu->job == NULL || __atomic_load_n(&eu->stop, __ATOMIC_ACQUIRE))
				continue;
			used = used_ns(eu, now);
			if (used >= dpa->max_run_ns)
				break;
			/* DPA time grows no faster than wall time; a rank starting meanwhile is seen soon */
			at = now + (dpa->max_run_ns - used < dpa->max_run_ns / WATCHDOG_PERIODS
					    ? dpa->max_run_ns - used
					    : dpa->max_run_ns / WATCHDOG_PERIODS);
			if (next == 0 || at < next)
				next = at;
		}
		if (eu != NULL) {
			overrun(dpa, eu, now);
			continue; /* the lock was dropped: look at the EUs again */
		}
		if (next == 0) {
			dpa->watchdog_idle = true;
			pthread_cond_wait(&dpa->idle, &dpa->lock);
			dpa->watchdog_idle = false;
		} else {
			struct timespec until = ts_at(next);

			pthread_cond_timedwait(&dpa->idle, &dpa->lock, &until);
		}
	}
	pthread_mutex_unlock(&dpa->lock);
	return NULL;
}

static uint32_t dpa_overruns(struct softhw_dpa *dpa)
{
	/* read on every launch and RPC: no lock */
	return __atomic_load_n(&dpa->overruns, __ATOMIC_ACQUIRE);
}

static const uint32_t *dpa_stop_flag(struct softhw_dpa *dpa)
{
	(void)dpa;
	return self_eu != NULL ? &self_eu->stop : NULL;
}

static int dpa_current_eu(struct softhw_dpa *dpa)
{
	return self_eu != NULL && self_eu->dpa == dpa ? (int)self_eu->id : -1;
}

/* ---- open / close ---- */

static doca_error_t dpa_open(const struct softhw_function *fn, struct softhw_dpa **out)
{
	struct softhw_dpa *dpa;
	pthread_condattr_t attr;
	int rc;

	dpa = calloc(1, sizeof(*dpa));
	if (dpa == NULL)
		return DOCA_ERROR_NO_MEMORY;
	if (!dpa_caps(fn, &dpa->caps)) {
		free(dpa);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	{
		static uint32_t next_id;
		uint32_t id;

		do
			id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED) & CTX_MASK;
		while (id == 0);
		dpa->id = id;
	}
	dpa->fn = fn;
	dpa->mem_size = dpa->caps.mem_size;
	dpa->mem = mmap(NULL, dpa->mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			0);
	if (dpa->mem == MAP_FAILED) {
		SDK_LOG_ERR("DPA: cannot reserve %llu MiB of device memory: %s",
			    (unsigned long long)(dpa->mem_size >> 20), strerror(errno));
		free(dpa);
		return DOCA_ERROR_NO_MEMORY;
	}
	dpa->by_id = calloc(dpa->caps.eus_available > 0 ? dpa->caps.eus_available : 1, sizeof(*dpa->by_id));
	if (dpa->by_id == NULL) {
		munmap(dpa->mem, dpa->mem_size);
		free(dpa);
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_init(&dpa->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&dpa->waits, &attr);
	pthread_cond_init(&dpa->idle, &attr);
	pthread_condattr_destroy(&attr);
	dpa->max_run_ns = (int64_t)dpa->caps.kernel_max_run_time_sec * NS;
	if (dpa->max_run_ns > 0) {
		rc = pthread_create(&dpa->watchdog, NULL, watchdog_main, dpa);
		if (rc == 0)
			dpa->has_watchdog = true;
		else
			SDK_LOG_WARN("DPA: cannot start the kernel watchdog: %s; kernels run without a time limit",
				     strerror(rc));
	}
	*out = dpa;
	return DOCA_SUCCESS;
}

/* Contexts whose EUs were abandoned: never freed, an abandoned EU may come back into them. */
static pthread_mutex_t grave_lock = PTHREAD_MUTEX_INITIALIZER;
static struct softhw_dpa *graveyard;

/* Cancels the jobs of q (close): those with no rank running go onto *cancelled; dpa->lock held. */
static void cancel_queue(struct jobq *q, struct softhw_dpa_job **cancelled)
{
	while (q->head != NULL) {
		struct softhw_dpa_job *job = q->head;

		q->head = job->next;
		job->cancelled = true;
		job->ranks_left -= job->num_ranks - job->next_rank;
		job->num_ranks = job->next_rank;
		if (job->ranks_left == 0) {
			job->next = *cancelled;
			*cancelled = job;
		}
	}
	q->tail = NULL;
}

static bool dpa_close(struct softhw_dpa *dpa)
{
	struct softhw_dpa_job *cancelled = NULL;
	struct timespec until = ts_at(now_ns() + STOP_GRACE_NS);
	bool abandoned = false;

	pthread_mutex_lock(&dpa->lock);
	dpa->closing = true;
	/* ranks not started never will (pinned ones too): a job whose started ranks are all over ends here */
	cancel_queue(&dpa->queue, &cancelled);
	for (struct eu *eu = dpa->eus; eu != NULL; eu = eu->next)
		cancel_queue(&eu->pinned, &cancelled);
	dpa->queued_ranks = 0;
	/* ranks running end at their next DPA call (a device wait returns at once) */
	for (struct eu *eu = dpa->eus; eu != NULL; eu = eu->next)
		if (eu->job != NULL) {
			eu->job->cancelled = true;
			__atomic_store_n(&eu->stop, 1, __ATOMIC_RELEASE);
		}
	wake_all(dpa);
	pthread_cond_broadcast(&dpa->waits);
	pthread_cond_broadcast(&dpa->idle);
	pthread_mutex_unlock(&dpa->lock);
	if (dpa->has_watchdog)
		pthread_join(dpa->watchdog, NULL);
	while (cancelled != NULL) {
		struct softhw_dpa_job *job = cancelled;

		cancelled = job->next;
		job_finish(job, DOCA_ERROR_AGAIN);
	}
	/* device code in no DPA call cannot be stopped: it gets a bounded time to return */
	pthread_mutex_lock(&dpa->lock);
	while (dpa->busy_eus > 0 && pthread_cond_timedwait(&dpa->idle, &dpa->lock, &until) != ETIMEDOUT)
		;
	for (struct eu *eu = dpa->eus; eu != NULL; eu = eu->next) {
		if (eu->job == NULL)
			continue;
		SDK_LOG_ERR("DPA: stopping the context while '%s' (thread %u of %u) still runs device code that makes no "
			    "DPA call (it cannot be interrupted): its EU thread (EU %u) is abandoned, and the context's "
			    "device memory and image stay mapped until the process exits",
			    eu->job->name != NULL ? eu->job->name : "?", eu->rank, eu->job->num_ranks, eu->id);
		abandoned = true;
	}
	pthread_mutex_unlock(&dpa->lock);
	for (struct eu *eu = dpa->eus, *next; eu != NULL; eu = next) {
		next = eu->next;
		if (abandoned) {
			/* an abandoned EU may come back into dpa: nothing of it is freed */
			pthread_detach(eu->thread);
			continue;
		}
		pthread_join(eu->thread, NULL);
		pthread_cond_destroy(&eu->wake);
		free(eu);
	}
	if (abandoned) {
		pthread_mutex_lock(&grave_lock);
		dpa->grave_next = graveyard;
		graveyard = dpa;
		pthread_mutex_unlock(&grave_lock);
		return true;
	}
	for (struct mem_block *b = dpa->blocks, *n; b != NULL; b = n) {
		n = b->next;
		free(b);
	}
	munmap(dpa->mem, dpa->mem_size);
	for (uint32_t i = 0; i < dpa->num_values; i++)
		softhw_value_unbind(dpa->values[i]);
	free(dpa->values);
	free(dpa->rkeys);
	free(dpa->objects);
	free(dpa->by_id);
	pthread_cond_destroy(&dpa->waits);
	pthread_cond_destroy(&dpa->idle);
	pthread_mutex_destroy(&dpa->lock);
	free(dpa);
	return false;
}

/* ---- device memory: first fit, bookkeeping outside the device's reach ---- */

static doca_error_t dpa_mem_alloc(struct softhw_dpa *dpa, size_t size, uint64_t *addr)
{
	uint64_t base = (uint64_t)(uintptr_t)dpa->mem, at = base, need;
	struct mem_block **pp, *b;

	*addr = 0;
	if (size == 0 || size > dpa->mem_size)
		return DOCA_ERROR_NO_MEMORY;
	need = (size + MEM_ALIGN - 1) & ~(uint64_t)(MEM_ALIGN - 1);
	b = malloc(sizeof(*b));
	if (b == NULL)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&dpa->lock);
	for (pp = &dpa->blocks; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->addr - at >= need)
			break;
		at = (*pp)->addr + (((*pp)->size + MEM_ALIGN - 1) & ~(uint64_t)(MEM_ALIGN - 1));
	}
	if (*pp == NULL && base + dpa->mem_size - at < need) {
		pthread_mutex_unlock(&dpa->lock);
		free(b);
		return DOCA_ERROR_NO_MEMORY;
	}
	b->addr = at;
	b->size = size;
	b->next = *pp;
	*pp = b;
	dpa->mem_used += size;
	dpa->mem_count++;
	pthread_mutex_unlock(&dpa->lock);
	*addr = at;
	return DOCA_SUCCESS;
}

static doca_error_t dpa_mem_free(struct softhw_dpa *dpa, uint64_t addr)
{
	struct mem_block **pp, *b;

	pthread_mutex_lock(&dpa->lock);
	for (pp = &dpa->blocks; *pp != NULL && (*pp)->addr != addr; pp = &(*pp)->next)
		;
	b = *pp;
	if (b == NULL) {
		pthread_mutex_unlock(&dpa->lock);
		return DOCA_ERROR_NOT_FOUND;
	}
	*pp = b->next;
	dpa->mem_used -= b->size;
	dpa->mem_count--;
	pthread_mutex_unlock(&dpa->lock);
	/* the whole pages of a freed block go back to the kernel: a long run's footprint stays flat */
	{
		uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
		uint64_t from = (b->addr + page - 1) & ~(page - 1), to = (b->addr + b->size) & ~(page - 1);

		if (to > from)
			madvise((void *)(uintptr_t)from, to - from, MADV_DONTNEED);
	}
	free(b);
	return DOCA_SUCCESS;
}

static void *dpa_mem_ptr(struct softhw_dpa *dpa, uint64_t addr, size_t len)
{
	void *p = NULL;

	pthread_mutex_lock(&dpa->lock);
	for (struct mem_block *b = dpa->blocks; b != NULL && b->addr <= addr; b = b->next) {
		if (addr - b->addr <= b->size && len <= b->size - (addr - b->addr)) {
			p = (void *)(uintptr_t)addr;
			break;
		}
	}
	pthread_mutex_unlock(&dpa->lock);
	return p;
}

static void dpa_mem_usage(struct softhw_dpa *dpa, uint64_t *bytes, uint32_t *count)
{
	pthread_mutex_lock(&dpa->lock);
	*bytes = dpa->mem_used;
	*count = dpa->mem_count;
	pthread_mutex_unlock(&dpa->lock);
}

/* ---- values by handle ---- */

static doca_error_t dpa_value_handle(struct softhw_dpa *dpa, struct softhw_value *value, uint64_t *handle)
{
	struct softhw_value *ref;
	uint32_t i;

	pthread_mutex_lock(&dpa->lock);
	for (i = 0; i < dpa->num_values && dpa->values[i] != value; i++)
		;
	pthread_mutex_unlock(&dpa->lock);
	if (i == dpa->num_values) {
		/* the table keeps the value alive as long as the context may name it */
		ref = softhw_value_find(softhw_value_id(value), (uint64_t)(uintptr_t)softhw_value_addr(value),
					softhw_value_token(value));
		if (ref == NULL)
			return DOCA_ERROR_NOT_FOUND;
		pthread_mutex_lock(&dpa->lock);
		if (dpa->num_values == dpa->cap_values) {
			uint32_t cap = dpa->cap_values ? dpa->cap_values * 2 : 16;
			struct softhw_value **v = realloc(dpa->values, cap * sizeof(*v));

			if (v == NULL) {
				pthread_mutex_unlock(&dpa->lock);
				softhw_value_unbind(ref);
				return DOCA_ERROR_NO_MEMORY;
			}
			dpa->values = v;
			dpa->cap_values = cap;
		}
		i = dpa->num_values++;
		dpa->values[i] = ref;
		pthread_mutex_unlock(&dpa->lock);
	}
	*handle = HANDLE_TAG | (dpa->id << CTX_SHIFT) | (i + 1);
	return DOCA_SUCCESS;
}

static struct softhw_value *dpa_value_lookup(struct softhw_dpa *dpa, uint64_t handle)
{
	struct softhw_value *v = NULL;
	uint64_t i = handle & VALUE_SLOT_MASK;

	if ((handle & ~HANDLE_MASK) != HANDLE_TAG || ((handle >> CTX_SHIFT) & CTX_MASK) != dpa->id || i == 0)
		return NULL;
	pthread_mutex_lock(&dpa->lock);
	if (i <= dpa->num_values)
		v = dpa->values[i - 1];
	pthread_mutex_unlock(&dpa->lock);
	return v;
}

static bool dpa_value_wait_gt(struct softhw_dpa *dpa, struct softhw_value *value, uint64_t want, uint64_t mask)
{
	/* a job only for its watcher: an update wakes the EUs in device waits */
	struct softhw_dpa_job waiter = {.dpa = dpa};
	bool poll = !softhw_value_is_private(value) || softhw_value_is_shared(value);
	struct eu *eu = self_eu != NULL && self_eu->dpa == dpa ? self_eu : NULL;
	bool ok = true;

	waiter.watcher.notify = wait_notify;
	softhw_value_watch(value, &waiter.watcher);
	pthread_mutex_lock(&dpa->lock);
	if (eu != NULL) {
		/* what the watchdog names if the wait outlasts the kernel max run time */
		eu->wait_value = value;
		eu->wait_since_ns = now_ns();
		eu->wait_want = want;
		eu->wait_mask = mask;
	}
	while (!softhw_value_holds(softhw_value_load(value), SOFTHW_VALUE_GT, want, mask)) {
		struct timespec until;

		if (dpa->closing || (eu != NULL && __atomic_load_n(&eu->stop, __ATOMIC_ACQUIRE))) {
			ok = false;
			break;
		}
		until = ts_at(now_ns() + (poll ? POLL_NS : SAFETY_NS));
		pthread_cond_timedwait(&dpa->waits, &dpa->lock, &until);
	}
	if (eu != NULL) {
		eu->waited_ns += now_ns() - eu->wait_since_ns;
		eu->wait_value = NULL;
	}
	pthread_mutex_unlock(&dpa->lock);
	softhw_value_unwatch(value, &waiter.watcher);
	return ok;
}

/* ---- peers' sync events by handle ---- */

static doca_error_t dpa_rkey_handle(struct softhw_dpa *dpa, int32_t pid, uint64_t id, uint64_t token, uint64_t addr,
				    uint64_t *handle)
{
	uint32_t i;

	pthread_mutex_lock(&dpa->lock);
	for (i = 0; i < dpa->num_rkeys; i++)
		if (dpa->rkeys[i].pid == pid && dpa->rkeys[i].id == id && dpa->rkeys[i].token == token &&
		    dpa->rkeys[i].addr == addr)
			break;
	if (i == dpa->num_rkeys) {
		struct rkey *r = realloc(dpa->rkeys, (i + 1) * sizeof(*r));

		if (r == NULL) {
			pthread_mutex_unlock(&dpa->lock);
			return DOCA_ERROR_NO_MEMORY;
		}
		dpa->rkeys = r;
		dpa->rkeys[i] = (struct rkey){.pid = pid, .id = id, .token = token, .addr = addr};
		dpa->num_rkeys++;
	}
	pthread_mutex_unlock(&dpa->lock);
	*handle = RKEY_TAG | (dpa->id << CTX_SHIFT) | (i + 1);
	return DOCA_SUCCESS;
}

static bool dpa_rkey_lookup(struct softhw_dpa *dpa, uint64_t handle, int32_t *pid, uint64_t *id, uint64_t *token,
			    uint64_t *addr)
{
	uint64_t i = handle & VALUE_SLOT_MASK;
	bool ok = false;

	if ((handle & ~HANDLE_MASK) != RKEY_TAG || ((handle >> CTX_SHIFT) & CTX_MASK) != dpa->id || i == 0)
		return false;
	pthread_mutex_lock(&dpa->lock);
	if (i <= dpa->num_rkeys) {
		*pid = dpa->rkeys[i - 1].pid;
		*id = dpa->rkeys[i - 1].id;
		*token = dpa->rkeys[i - 1].token;
		*addr = dpa->rkeys[i - 1].addr;
		ok = true;
	}
	pthread_mutex_unlock(&dpa->lock);
	return ok;
}

/* ---- objects by handle ---- */

static doca_error_t dpa_handle_add(struct softhw_dpa *dpa, uint32_t kind, void *object, uint64_t *handle)
{
	uint32_t i;

	if (kind == 0 || kind > 255)
		return DOCA_ERROR_INVALID_VALUE;
	/* (slots beyond OBJ_SLOT_MASK would not fit a handle) */
	pthread_mutex_lock(&dpa->lock);
	for (i = 0; i < dpa->num_objects && dpa->objects[i].kind != 0; i++)
		;
	if (i == dpa->num_objects) {
		uint32_t n = dpa->num_objects ? dpa->num_objects * 2 : 16;
		struct obj_slot *o = n <= OBJ_SLOT_MASK ? realloc(dpa->objects, n * sizeof(*o)) : NULL;

		if (o == NULL) {
			pthread_mutex_unlock(&dpa->lock);
			return DOCA_ERROR_NO_MEMORY;
		}
		memset(o + dpa->num_objects, 0, (n - dpa->num_objects) * sizeof(*o));
		dpa->objects = o;
		dpa->num_objects = n;
	}
	dpa->objects[i].kind = kind;
	dpa->objects[i].object = object;
	pthread_mutex_unlock(&dpa->lock);
	*handle = OBJ_TAG | (dpa->id << CTX_SHIFT) | ((uint64_t)kind << OBJ_KIND_SHIFT) | (i + 1);
	return DOCA_SUCCESS;
}

static void *dpa_handle_lookup(struct softhw_dpa *dpa, uint32_t kind, uint64_t handle)
{
	uint64_t i = handle & OBJ_SLOT_MASK;
	void *object = NULL;

	if ((handle & ~HANDLE_MASK) != OBJ_TAG || ((handle >> CTX_SHIFT) & CTX_MASK) != dpa->id ||
	    ((handle >> OBJ_KIND_SHIFT) & 0xff) != kind || i == 0)
		return NULL;
	pthread_mutex_lock(&dpa->lock);
	if (i <= dpa->num_objects && dpa->objects[i - 1].kind == kind)
		object = dpa->objects[i - 1].object;
	pthread_mutex_unlock(&dpa->lock);
	return object;
}

static void dpa_handle_remove(struct softhw_dpa *dpa, uint64_t handle)
{
	uint64_t i = handle & OBJ_SLOT_MASK;

	if ((handle & ~HANDLE_MASK) != OBJ_TAG || ((handle >> CTX_SHIFT) & CTX_MASK) != dpa->id || i == 0)
		return;
	pthread_mutex_lock(&dpa->lock);
	if (i <= dpa->num_objects)
		dpa->objects[i - 1].kind = 0;
	pthread_mutex_unlock(&dpa->lock);
}

/* ---- host memory by mmap handle ---- */

/*
 * The mmaps device code may reach, process-wide: doca_mmap_dev_get_dpa_handle takes a device,
 * not a DPA context, so a handle is good for every context on that device and for no other.
 * A handle is 0x8 | generation (7 bits) | slot + 1 (24 bits): a stale or made-up number is
 * unlikely to name a live entry.
 */
#define MMAP_HANDLE_TAG 0x80000000U
#define MMAP_GEN_SHIFT 24
#define MMAP_SLOT_MASK 0x00ffffffU

struct mmap_entry {
	const struct softhw_function *fn; /* NULL: a free slot */
	uint8_t *addr;                    /* remote: the peer's address */
	size_t len;
	bool writable;
	bool remote;                      /* a peer's memory (an imported RDMA export) */
	int32_t pid;                      /* remote: the rkey */
	uint64_t id, token;
	uint8_t gen;
};

static pthread_mutex_t mmap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mmap_entry *mmaps;
static uint32_t num_mmaps;

static doca_error_t mmap_add(const struct mmap_entry *e, uint32_t *handle)
{
	uint32_t i;

	pthread_mutex_lock(&mmap_lock);
	for (i = 0; i < num_mmaps && mmaps[i].fn != NULL; i++)
		;
	if (i == num_mmaps) {
		uint32_t n = num_mmaps ? num_mmaps * 2 : 16;
		struct mmap_entry *m = n <= MMAP_SLOT_MASK ? realloc(mmaps, n * sizeof(*m)) : NULL;

		if (m == NULL) {
			pthread_mutex_unlock(&mmap_lock);
			return DOCA_ERROR_NO_MEMORY;
		}
		memset(m + num_mmaps, 0, (n - num_mmaps) * sizeof(*m));
		mmaps = m;
		num_mmaps = n;
	}
	{
		uint8_t gen = (uint8_t)((mmaps[i].gen + 1) & 0x7f);

		mmaps[i] = *e;
		mmaps[i].gen = gen;
	}
	*handle = MMAP_HANDLE_TAG | ((uint32_t)mmaps[i].gen << MMAP_GEN_SHIFT) | (i + 1);
	pthread_mutex_unlock(&mmap_lock);
	return DOCA_SUCCESS;
}

static doca_error_t dpa_mmap_register(const struct softhw_function *fn, void *addr, size_t len, bool writable,
				      uint32_t *handle)
{
	struct mmap_entry e = {.fn = fn, .addr = addr, .len = len, .writable = writable};

	return mmap_add(&e, handle);
}

static doca_error_t dpa_mmap_register_remote(const struct softhw_function *fn, uint64_t addr, size_t len,
					     int32_t pid, uint64_t id, uint64_t token, uint32_t *handle)
{
	struct mmap_entry e = {.fn = fn, .addr = (uint8_t *)(uintptr_t)addr, .len = len, .remote = true,
			       .pid = pid, .id = id, .token = token};

	return mmap_add(&e, handle);
}

/* The live entry of a handle; NULL for anything else. Under mmap_lock. */
static struct mmap_entry *mmap_find(uint32_t handle)
{
	uint32_t i = handle & MMAP_SLOT_MASK;

	if ((handle & MMAP_HANDLE_TAG) == 0 || i == 0 || i > num_mmaps || mmaps[i - 1].fn == NULL ||
	    mmaps[i - 1].gen != ((handle >> MMAP_GEN_SHIFT) & 0x7f))
		return NULL;
	return &mmaps[i - 1];
}

static void dpa_mmap_unregister(uint32_t handle)
{
	struct mmap_entry *e;

	pthread_mutex_lock(&mmap_lock);
	e = mmap_find(handle);
	if (e != NULL)
		e->fn = NULL;
	pthread_mutex_unlock(&mmap_lock);
}

/* Is fn a device the context was extended to? */
static bool extended_to(struct softhw_dpa *dpa, const struct softhw_function *fn)
{
	bool found = false;

	pthread_mutex_lock(&dpa->lock);
	for (uint32_t i = 0; i < dpa->num_ext && !found; i++)
		found = dpa->ext_fns[i] == fn;
	pthread_mutex_unlock(&dpa->lock);
	return found;
}

static doca_error_t dpa_extend(struct softhw_dpa *dpa, const struct softhw_function *fn)
{
	doca_error_t err = DOCA_ERROR_FULL;

	pthread_mutex_lock(&dpa->lock);
	if (dpa->num_ext < SOFTHW_DPA_MAX_EXTEND) {
		dpa->ext_fns[dpa->num_ext++] = fn;
		err = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&dpa->lock);
	return err;
}

static void dpa_unextend(struct softhw_dpa *dpa, const struct softhw_function *fn)
{
	pthread_mutex_lock(&dpa->lock);
	for (uint32_t i = 0; i < dpa->num_ext; i++) {
		if (dpa->ext_fns[i] == fn) {
			dpa->ext_fns[i] = dpa->ext_fns[--dpa->num_ext];
			break;
		}
	}
	pthread_mutex_unlock(&dpa->lock);
}

/* The host address of [addr, addr + len) of a handle of dpa's device; NULL and *why when not. Under mmap_lock. */
static uint8_t *mmap_range(struct softhw_dpa *dpa, uint32_t handle, uint64_t addr, uint64_t len, bool write,
			   const char *role, char *why, size_t why_len, doca_error_t *err)
{
	struct mmap_entry *e = mmap_find(handle);
	uint64_t start;

	*err = DOCA_ERROR_INVALID_VALUE;
	if (e == NULL) {
		snprintf(why, why_len, "%s mmap handle 0x%x is not a live mmap DPA handle", role, handle);
		return NULL;
	}
	if (e->fn != dpa->fn && !extended_to(dpa, e->fn)) {
		snprintf(why, why_len, "%s mmap handle 0x%x belongs to another device's DPA", role, handle);
		return NULL;
	}
	if (e->remote) {
		snprintf(why, why_len, "%s mmap handle 0x%x names a peer's memory (an imported RDMA export); only "
			 "RDMA write / read / atomics reach it", role, handle);
		return NULL;
	}
	start = (uint64_t)(uintptr_t)e->addr;
	if (addr < start || addr - start > e->len || len > e->len - (addr - start)) {
		snprintf(why, why_len, "%s range [0x%llx, +%llu) is outside mmap handle 0x%x [0x%llx, +%zu)", role,
			 (unsigned long long)addr, (unsigned long long)len, handle, (unsigned long long)start, e->len);
		return NULL;
	}
	if (write && !e->writable) {
		snprintf(why, why_len, "%s mmap handle 0x%x is not writable (the mmap lacks DOCA_ACCESS_FLAG_LOCAL_READ_WRITE)",
			 role, handle);
		*err = DOCA_ERROR_NOT_PERMITTED;
		return NULL;
	}
	*err = DOCA_SUCCESS;
	return e->addr + (addr - start);
}

static doca_error_t dpa_mmap_copy(struct softhw_dpa *dpa, uint32_t dst, uint64_t dst_addr, uint32_t src,
				  uint64_t src_addr, size_t len, char *why, size_t why_len)
{
	doca_error_t err;
	uint8_t *to, *from = NULL;

	pthread_mutex_lock(&mmap_lock);
	to = mmap_range(dpa, dst, dst_addr, len, true, "destination", why, why_len, &err);
	if (to != NULL)
		from = mmap_range(dpa, src, src_addr, len, false, "source", why, why_len, &err);
	/* under the lock: the range stays registered (its mmap started) while it is copied */
	if (from != NULL && len > 0)
		memmove(to, from, len);
	pthread_mutex_unlock(&mmap_lock);
	return err;
}

static uint64_t dpa_mmap_external_ptr(struct softhw_dpa *dpa, uint32_t handle, uint64_t addr, char *why,
				      size_t why_len)
{
	doca_error_t err;
	uint8_t *p;

	pthread_mutex_lock(&mmap_lock);
	p = mmap_range(dpa, handle, addr, 1, false, "external pointer", why, why_len, &err);
	pthread_mutex_unlock(&mmap_lock);
	return (uint64_t)(uintptr_t)p;
}

static void *dpa_mmap_ptr(struct softhw_dpa *dpa, uint32_t handle, uint64_t addr, uint64_t len, bool write,
			  char *why, size_t why_len)
{
	doca_error_t err;
	uint8_t *p;

	pthread_mutex_lock(&mmap_lock);
	p = mmap_range(dpa, handle, addr, len, write, write ? "destination" : "source", why, why_len, &err);
	pthread_mutex_unlock(&mmap_lock);
	return p;
}

static bool dpa_mmap_remote(struct softhw_dpa *dpa, uint32_t handle, uint64_t addr, uint64_t len, int32_t *pid,
			    uint64_t *id, uint64_t *token, char *why, size_t why_len)
{
	struct mmap_entry *e;
	bool ok = false;
	uint64_t start;

	pthread_mutex_lock(&mmap_lock);
	e = mmap_find(handle);
	if (e == NULL)
		snprintf(why, why_len, "remote mmap handle 0x%x is not a live mmap DPA handle", handle);
	else if (e->fn != dpa->fn)
		snprintf(why, why_len, "remote mmap handle 0x%x belongs to another device's DPA", handle);
	else if (!e->remote)
		snprintf(why, why_len, "mmap handle 0x%x is local memory; the remote side needs the handle of an mmap "
			 "created with doca_mmap_create_from_export() from the peer's doca_mmap_export_rdma()", handle);
	else if (start = (uint64_t)(uintptr_t)e->addr, addr < start || addr - start > e->len || len > e->len - (addr - start))
		snprintf(why, why_len, "remote range [0x%llx, +%llu) is outside remote mmap handle 0x%x [0x%llx, +%zu)",
			 (unsigned long long)addr, (unsigned long long)len, handle, (unsigned long long)start, e->len);
	else {
		*pid = e->pid;
		*id = e->id;
		*token = e->token;
		ok = true;
	}
	pthread_mutex_unlock(&mmap_lock);
	return ok;
}

/* ---- images ---- */

static doca_error_t dpa_image_load(const void *bytes, size_t len, const char *name, struct softhw_dpa_image **out,
				   const char **why)
{
	static __thread char reason[256];
	struct softhw_dpa_image *image;
	char path[64];
	const char *p = bytes;
	size_t done = 0;
	int fd;

	image = calloc(1, sizeof(*image));
	if (image == NULL) {
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	/* a fresh file each time: dlopen() of the same file would share one copy of the globals */
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0) {
		snprintf(reason, sizeof(reason), "memfd_create: %s", strerror(errno));
		*why = reason;
		free(image);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(reason, sizeof(reason), "writing the image: %s", n < 0 ? strerror(errno) : "short write");
			*why = reason;
			close(fd);
			free(image);
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	image->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (image->handle == NULL) {
		const char *e = dlerror();

		snprintf(reason, sizeof(reason), "%s", e != NULL ? e : "dlopen failed");
		*why = reason;
		close(fd);
		free(image);
		return DOCA_ERROR_DRIVER;
	}
	image->fd = fd;
	*out = image;
	return DOCA_SUCCESS;
}

static void *dpa_image_sym(struct softhw_dpa_image *image, const char *symbol)
{
	return dlsym(image->handle, symbol);
}

static void dpa_image_unload(struct softhw_dpa_image *image)
{
	if (image == NULL)
		return;
	dlclose(image->handle);
	close(image->fd);
	free(image);
}

const struct softhw_dpa_ops softhw_dpa_ops = {
	.caps = dpa_caps,
	.profile_name = dpa_profile_name,
	.open = dpa_open,
	.close = dpa_close,
	.submit = dpa_submit,
	.flag_raise = dpa_flag_raise,
	.flag_wait = dpa_flag_wait,
	.overruns = dpa_overruns,
	.stop_flag = dpa_stop_flag,
	.current_eu = dpa_current_eu,
	.flag_wait_for = dpa_flag_wait_for,
	.job_stop = dpa_job_stop,
	.extend = dpa_extend,
	.unextend = dpa_unextend,
	.mem_alloc = dpa_mem_alloc,
	.mem_free = dpa_mem_free,
	.mem_ptr = dpa_mem_ptr,
	.mem_usage = dpa_mem_usage,
	.value_handle = dpa_value_handle,
	.value_lookup = dpa_value_lookup,
	.value_load = softhw_value_load,
	.value_store = softhw_value_store,
	.value_fetch_add = softhw_value_fetch_add,
	.value_wait_gt = dpa_value_wait_gt,
	.handle_add = dpa_handle_add,
	.handle_lookup = dpa_handle_lookup,
	.handle_remove = dpa_handle_remove,
	.mmap_register = dpa_mmap_register,
	.mmap_unregister = dpa_mmap_unregister,
	.mmap_copy = dpa_mmap_copy,
	.mmap_external_ptr = dpa_mmap_external_ptr,
	.mmap_ptr = dpa_mmap_ptr,
	.mmap_register_remote = dpa_mmap_register_remote,
	.mmap_remote = dpa_mmap_remote,
	.rkey_handle = dpa_rkey_handle,
	.rkey_lookup = dpa_rkey_lookup,
	.image_load = dpa_image_load,
	.image_sym = dpa_image_sym,
	.image_unload = dpa_image_unload,
};
