/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NIC: one service thread per process, started with the first ep and joined with the
 * last. It blocks in epoll_wait on the wake eventfd and the paths' descriptors (per qp:
 * tag RNIC_TAG_PATH; per process, as the connection's listeners: RNIC_TAG_NIC), and hands
 * their events to the paths' ops (path.h); its only timeouts are receiver-not-
 * ready retries and connect deadlines, so an idle process costs nothing.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/fabric/threads.h"
#include "softhw/rnic/rnic_int.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_NIC);

struct rnic_nic rnic_nic = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.epfd = -1,
	.wake_fd = -1,
};

/* ep_create / ep_destroy of several owner threads: start and join never overlap. */
static pthread_mutex_t life_lock = PTHREAD_MUTEX_INITIALIZER;

static struct rnic_qp *timed;      /* service thread only */

/* Read at each use (a qp's first post while it waits for its peer): tests change it. */
uint32_t rnic_wait_peer_ms(void)
{
	const char *v = getenv("SOFTDOCA_RDMA_WAIT_MS");
	char *end;
	unsigned long long n;

	if (v == NULL || *v == '\0')
		return RNIC_WAIT_PEER_MS;
	n = strtoull(v, &end, 10);
	if (*end != '\0')
		return RNIC_WAIT_PEER_MS;
	return n > 86400000ull ? 86400000u : (uint32_t)n; /* 0: no deadline */
}

uint64_t rnic_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void rnic_nic_kick(void)
{
	uint64_t one = 1;

	if (rnic_nic.wake_fd >= 0 && write(rnic_nic.wake_fd, &one, sizeof(one)) < 0) {
		/* the counter cannot overflow: a wake-up is already pending */
	}
}

void rnic_nic_add_fd(int fd, void *ptr, unsigned tag, uint32_t events)
{
	struct epoll_event ev = {.events = events, .data.u64 = (uint64_t)(uintptr_t)ptr | tag};

	(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_ADD, fd, &ev);
}

void rnic_nic_del_fd(int fd)
{
	(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_DEL, fd, NULL);
}

static _Thread_local bool on_thread; /* set by the service thread for itself */

bool rnic_nic_on_thread(void)
{
	return on_thread;
}

void rnic_nic_timed_add(struct rnic_qp *qp)
{
	if (!rnic_nic_on_thread()) {
		rnic_nic_kick(); /* an owner's ep_poll: the woken loop lists qps whose paths keep time */
		return;
	}
	if (qp->timed)
		return;
	qp->timed = true;
	qp->next_timed = timed;
	timed = qp;
}

struct rnic_qp *rnic_qp_find(uint64_t id)
{
	for (struct rnic_qp *qp = rnic_nic.qps; qp != NULL; qp = qp->next_all)
		if (qp->id == id)
			return qp;
	return NULL;
}

/* ---- the loop ---- */

/* When the service thread wakes next (ms); 0 while it computes that (seq_cst, with the qp locks). */
static uint64_t sleep_until;

bool rnic_nic_sleeps_past(uint64_t ms)
{
	uint64_t until = __atomic_load_n(&sleep_until, __ATOMIC_SEQ_CST);

	return until == 0 || until > ms;
}

static int next_timeout(uint64_t now)
{
	uint64_t first = UINT64_MAX;

	/*
	 * An owner that sets an earlier deadline on a qp already watched kicks only if we sleep past
	 * it: either it sees 0 (we are computing: kick), or the value below, stored after every qp
	 * was read under its lock (a deadline set after our read is later than none we saw: kick).
	 */
	__atomic_store_n(&sleep_until, 0, __ATOMIC_SEQ_CST);
	/* under each qp's lock: an owner's post sets a deadline or a path's timer concurrently */
	for (struct rnic_qp *qp = timed; qp != NULL; qp = qp->next_timed) {
		softhw_bias_lock(&qp->lock);
		for (int i = 0; i < RNIC_PATH_COUNT; i++) {
			uint64_t t = rnic_paths[i]->next_time(qp);

			if (t < first)
				first = t;
		}
		if (qp->deadline != 0 && qp->deadline < first)
			first = qp->deadline;
		softhw_bias_unlock(&qp->lock);
	}
	for (int i = 0; i < RNIC_PATH_COUNT; i++)
		if (rnic_paths[i]->nic_next_time != NULL) {
			uint64_t t = rnic_paths[i]->nic_next_time(now);

			if (t < first)
				first = t;
		}
	__atomic_store_n(&sleep_until,
			 first == UINT64_MAX ? UINT64_MAX : first <= now ? 1 : first > now + 60000 ? now + 60000 : first,
			 __ATOMIC_SEQ_CST);
	if (first == UINT64_MAX)
		return -1;
	return first <= now ? 0 : (int)(first - now > 60000 ? 60000 : first - now);
}

/* Deadlines and retries; also re-tries stalled receives after a wake-up (a receive was posted). */
static void run_timers(bool woken)
{
	static struct softhw_ratelimit rl_wait;
	uint64_t now = rnic_now_ms();
	struct rnic_qp **pp = &timed;

	while (*pp != NULL) {
		struct rnic_qp *qp = *pp;

		softhw_bias_lock(&qp->lock);
		if (!qp->dead) {
			RNIC_PATHS_EACH(timer, qp, now, woken);
			if (qp->deadline != 0 && qp->deadline <= now) {
				qp->deadline = 0;
				if (qp->state == QP_WAITING)
					SOFTHW_LOG_LIMITED(&rl_wait, SDK_LOG_ERR,
							   "RDMA connection: process %d has not connected to this queue pair in %u ms, "
							   "and work waits on it; the work fails with CONNECTION_ABORTED. The peer must "
							   "call doca_rdma_connect() with this side's doca_rdma_export() descriptor",
							   (int)qp->peer.pid, qp->wait_ms);
				if (qp->state == QP_DIALING || qp->state == QP_HANDSHAKE || qp->state == QP_WAITING)
					rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_TIME_OUT,
						     DOCA_ERROR_CONNECTION_ABORTED);
			}
		}
		if (qp->dead || (!rnic_qp_paths_timed(qp) && qp->deadline == 0)) {
			qp->timed = false;
			*pp = qp->next_timed;
		} else {
			pp = &qp->next_timed;
		}
		softhw_bias_unlock(&qp->lock);
	}
	RNIC_PATHS_EACH(nic_timer, now);
}

/* Frees what owners destroyed; they wait for reap_done. */
static void reap(void)
{
	struct rnic_qp *qps;
	uint64_t ticket;

	pthread_mutex_lock(&rnic_nic.lock);
	qps = rnic_nic.graveyard;
	rnic_nic.graveyard = NULL;
	ticket = rnic_nic.reap_asked;
	pthread_mutex_unlock(&rnic_nic.lock);
	while (qps != NULL) {
		struct rnic_qp *qp = qps;

		qps = qp->next_ctl;
		for (struct rnic_qp **pp = &timed; *pp != NULL; pp = &(*pp)->next_timed)
			if (*pp == qp) {
				*pp = qp->next_timed;
				break;
			}
		rnic_ep_forget_shared(qp->ep, qp); /* what we pushed since its destroyer's forget */
		rnic_qp_free(qp);
	}
	RNIC_PATHS_EACH(nic_reap);
	pthread_mutex_lock(&rnic_nic.lock);
	rnic_nic.reap_done = ticket;
	pthread_cond_broadcast(&rnic_nic.cond);
	pthread_mutex_unlock(&rnic_nic.lock);
}

static void take_dials(void)
{
	struct rnic_qp *qps;

	pthread_mutex_lock(&rnic_nic.lock);
	qps = rnic_nic.dials;
	rnic_nic.dials = NULL;
	pthread_mutex_unlock(&rnic_nic.lock);
	while (qps != NULL) {
		struct rnic_qp *qp = qps;

		qps = qp->next_ctl;
		softhw_bias_lock(&qp->lock);
		if (!qp->dead && qp->state == QP_DIALING)
			rnic_conn_of(qp)->dial(qp);
		softhw_bias_unlock(&qp->lock);
	}
}

static void *nic_main(void *arg)
{
	struct epoll_event evs[64];

	(void)arg;
	on_thread = true;
	for (;;) {
		int n = epoll_wait(rnic_nic.epfd, evs, 64, next_timeout(rnic_now_ms()));
		bool woken = false;

		if (n < 0) {
			if (errno != EINTR)
				(void)epoll_wait(rnic_nic.epfd, evs, 1, 100); /* back off instead of spinning */
			n = 0;
		}
		for (int i = 0; i < n; i++) {
			uint64_t v = evs[i].data.u64;
			void *ptr = (void *)(uintptr_t)(v & ~(uint64_t)RNIC_TAG_MASK);

			switch ((unsigned)(v & RNIC_TAG_MASK)) {
			case RNIC_TAG_WAKE: {
				uint64_t c;

				if (read(rnic_nic.wake_fd, &c, sizeof(c)) < 0) {
					/* EAGAIN: consumed already */
				}
				woken = true;
				break;
			}
			case RNIC_TAG_PATH: {
				const struct rnic_path_link *link = ptr;

				rnic_paths[link->id]->event(link->qp, evs[i].events);
				break;
			}
			case RNIC_TAG_NIC: {
				struct rnic_nic_link *link = ptr;

				rnic_paths[link->id]->nic_event(link, evs[i].events);
				break;
			}
			default:
				break;
			}
		}
		if (woken) {
			take_dials();
			/* qps whose owner asked for a close, or whose write failed */
			pthread_mutex_lock(&rnic_nic.lock);
			for (struct rnic_qp *qp = rnic_nic.qps; qp != NULL; qp = qp->next_all) {
				softhw_bias_lock(&qp->lock);
				if (!qp->dead && rnic_conn_of(qp)->must_end(qp))
					rnic_qp_hangup(qp);
				if (!qp->dead && (rnic_qp_paths_timed(qp) || qp->deadline != 0))
					rnic_nic_timed_add(qp); /* keep its time: no receive yet, ACKs or a peer awaited */
				softhw_bias_unlock(&qp->lock);
			}
			pthread_mutex_unlock(&rnic_nic.lock);
		}
		run_timers(woken);
		if (woken)
			reap();
		pthread_mutex_lock(&rnic_nic.lock);
		if (rnic_nic.stop) {
			pthread_mutex_unlock(&rnic_nic.lock);
			break;
		}
		pthread_mutex_unlock(&rnic_nic.lock);
	}
	timed = NULL; /* the paths' process-wide state goes in nic_close_all (nic_stop) */
	return NULL;
}

doca_error_t rnic_nic_oob_ready(const struct softhw_function *fn)
{
	doca_error_t err = DOCA_SUCCESS;

	pthread_mutex_lock(&rnic_nic.lock);
	if (!rnic_nic.reachable) {
		if (rnic_nic.instance[0] == '\0' && fn != NULL && fn->card != NULL)
			snprintf(rnic_nic.instance, sizeof(rnic_nic.instance), "%s", fn->card->instance);
		for (int i = 0; i < RNIC_PATH_COUNT && err == DOCA_SUCCESS; i++)
			if (rnic_paths[i]->nic_listen != NULL)
				err = rnic_paths[i]->nic_listen(fn);
		rnic_nic.reachable = err == DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&rnic_nic.lock);
	return err;
}

/* ---- life ---- */

static void nic_close_all(void)
{
	RNIC_PATHS_EACH(nic_stop); /* the paths' process-wide descriptors (listeners) */
	rnic_nic.reachable = false;
	if (rnic_nic.epfd >= 0)
		close(rnic_nic.epfd);
	if (rnic_nic.wake_fd >= 0)
		close(rnic_nic.wake_fd);
	rnic_nic.epfd = rnic_nic.wake_fd = -1;
	rnic_nic.instance[0] = '\0';
}

/*
 * A forked child has no service thread: it forgets the parent's NIC (its descriptors must close,
 * or the parent's peers would not see the parent die) and starts afresh with its first ep.
 */
static void atfork_child(void)
{
	for (struct rnic_qp *qp = rnic_nic.qps; qp != NULL; qp = qp->next_all)
		RNIC_PATHS_EACH(atfork, qp);
	RNIC_PATHS_EACH(nic_atfork);
	timed = NULL;
	nic_close_all();
	/* the parent's objects are not ours to free: forget them */
	rnic_nic.eps = NULL;
	rnic_nic.qps = NULL;
	rnic_nic.dials = NULL;
	rnic_nic.graveyard = NULL;
	rnic_nic.running = false;
	rnic_nic.stop = false;
	pthread_mutex_init(&rnic_nic.lock, NULL);
	pthread_cond_init(&rnic_nic.cond, NULL);
	pthread_mutex_init(&life_lock, NULL);
}

static void atfork_prepare(void)
{
	pthread_mutex_lock(&life_lock);
	pthread_mutex_lock(&rnic_nic.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&rnic_nic.lock);
	pthread_mutex_unlock(&life_lock);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void register_atfork(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

static doca_error_t nic_start(void)
{
	sigset_t all, old;
	int rc;

	rnic_host_self(&rnic_nic.host);
	rnic_nic.epfd = epoll_create1(EPOLL_CLOEXEC);
	rnic_nic.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rnic_nic.epfd < 0 || rnic_nic.wake_fd < 0) {
		nic_close_all();
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	rnic_nic_add_fd(rnic_nic.wake_fd, NULL, RNIC_TAG_WAKE, EPOLLIN);
	rnic_nic.stop = false;
	/* The NIC takes no signals: they stay with the application's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = softhw_thread_create(&rnic_nic.thread, NULL, nic_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		nic_close_all();
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	rnic_nic.running = true;
	return DOCA_SUCCESS;
}

doca_error_t rnic_nic_ep_add(struct rnic_ep *ep)
{
	doca_error_t err = DOCA_SUCCESS;

	pthread_once(&atfork_once, register_atfork);
	pthread_mutex_lock(&life_lock);
	if (!rnic_nic.running)
		err = nic_start();
	if (err == DOCA_SUCCESS) {
		pthread_mutex_lock(&rnic_nic.lock);
		ep->next = rnic_nic.eps;
		rnic_nic.eps = ep;
		pthread_mutex_unlock(&rnic_nic.lock);
	}
	pthread_mutex_unlock(&life_lock);
	return err;
}

void rnic_nic_ep_remove(struct rnic_ep *ep)
{
	bool last;

	pthread_mutex_lock(&life_lock);
	pthread_mutex_lock(&rnic_nic.lock);
	for (struct rnic_ep **pp = &rnic_nic.eps; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ep) {
			*pp = ep->next;
			break;
		}
	last = rnic_nic.eps == NULL && rnic_nic.running;
	if (last)
		rnic_nic.stop = true;
	pthread_mutex_unlock(&rnic_nic.lock);
	if (last) {
		rnic_nic_kick();
		pthread_join(rnic_nic.thread, NULL);
		rnic_nic.running = false;
		/* qps were all reaped; nothing else refers to the descriptors */
		nic_close_all();
	}
	pthread_mutex_unlock(&life_lock);
}

void rnic_nic_reap_wait(void)
{
	uint64_t ticket = ++rnic_nic.reap_asked;

	rnic_nic_kick();
	while (rnic_nic.running && rnic_nic.reap_done < ticket)
		pthread_cond_wait(&rnic_nic.cond, &rnic_nic.lock);
}
