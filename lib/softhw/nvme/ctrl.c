/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme controller: open and close, the engine thread, SQE fetching and CQE posting,
 * SQs owned by a driver thread with its own io_uring (nvme_priv.h). Every queue field below is
 * under the controller's lock (the engine's, a kick's or an SQ owner's); the host side sees
 * only the rings and the doorbell words.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "nvme_ops.h"
#include "nvme_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/fabric/threads.h"

SDK_LOG_REGISTER(SOFTHW_NVME);

#define RING_ENTRIES 512
#define OWNER_RING_ENTRIES 256
#define OWNER_SUBMIT_ROUNDS 4  /* submit-and-reap rounds per progress */
#define RELEASE_WAIT_S 30     /* release waits this long for the owner ring's operations */

struct io_uring_sqe *nvme_get_sqe(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	struct nvme_uring *ur = cmd != NULL ? cmd->ur : &c->eng;
	struct io_uring_sqe *s = io_uring_get_sqe(&ur->ring);

	if (s == NULL) {
		/* the submission ring is full: hand it to the kernel and take a fresh slot */
		io_uring_submit(&ur->ring);
		s = io_uring_get_sqe(&ur->ring);
	}
	if (s == NULL) /* the kernel took none (its completion queue overflowed): the caller fails the op */
		SDK_LOG_ERR("soft NVMe: no io_uring submission slot (the ring's completions overflow); an operation fails");
	else if (cmd != NULL)
		ur->inflight++;
	return s;
}

int nvme_irq_fd(struct nvme_ctrl *c, uint16_t iv)
{
	if (c->irq_fd[iv] < 0)
		c->irq_fd[iv] = eventfd(0, EFD_CLOEXEC);
	return c->irq_fd[iv];
}

/* A read of the wake fd, told apart from I/O ops by its address (&c->wake_op); tried again each turn until armed. */
static void arm_wake(struct nvme_ctrl *c)
{
	struct io_uring_sqe *s = c->wake_armed ? NULL : nvme_get_sqe(c, NULL);

	if (s == NULL)
		return;
	io_uring_prep_read(s, c->wake_fd, &c->wake_buf, sizeof(c->wake_buf), 0);
	io_uring_sqe_set_data(s, &c->wake_op);
	c->wake_armed = true;
}

static bool cq_full(struct nvme_ctrl *c, struct nvme_cq *cq)
{
	uint32_t head = __atomic_load_n(&c->doorbells[2 * cq->id + 1], __ATOMIC_ACQUIRE);

	if (head >= cq->size) {
		/* a bad head doorbell: post nothing until the host rewrites it */
		if (!cq->bad_head_logged)
			SDK_LOG_ERR("NVMe CQ %u: head doorbell %u is beyond its %u entries; completions wait",
				    cq->id, head, cq->size);
		cq->bad_head_logged = true;
		return true;
	}
	cq->bad_head_logged = false;
	return (uint16_t)((cq->tail + 1) % cq->size) == head;
}

static void post(struct nvme_ctrl *c, struct nvme_cq *cq, struct nvme_cmd *cmd)
{
	struct nvme_sq *sq = &c->sq[cmd->sqid];
	struct softdoca_nvme_cqe *e = &cq->ring[cq->tail];

	e->dw0 = cmd->dw0;
	e->dw1 = 0;
	e->sqhd = sq->head;
	e->sqid = cmd->sqid;
	e->cid = cmd->sqe.cid;
	/* the phase bit goes last: the host takes the entry as soon as it sees it */
	__atomic_store_n(&e->status, (uint16_t)(((cmd->status & 0xff) << 1) | ((cmd->status >> 8) << 9) | cq->phase),
			 __ATOMIC_RELEASE);
	if (++cq->tail == cq->size) {
		cq->tail = 0;
		cq->phase ^= 1;
	}
	cq->signal = true;
	cq->posted++;
	sq->inflight--;
	cmd->next = cmd->pool->free;
	cmd->pool->free = cmd;
	cmd->pool->out--;
	if (sq->deleter != NULL && sq->inflight == 0) {
		/* the last command of an SQ being deleted is done: the Delete I/O SQ completes */
		struct nvme_cmd *d = sq->deleter;

		sq->deleter = NULL;
		sq->live = false;
		c->cq[sq->cqid].nsq--;
		d->status = 0;
		nvme_complete(c, d, 0, 0);
	}
}

void nvme_complete(struct nvme_ctrl *c, struct nvme_cmd *cmd, int sct, int sc)
{
	struct nvme_cq *cq = &c->cq[c->sq[cmd->sqid].cqid];

	if (cmd->status == 0)
		cmd->status = NVME_STATUS(sct, sc);
	/* held I/O completions wait with those that find the CQ full (the admin queue never waits) */
	if (cq->wait_head == NULL && !cq_full(c, cq) && (cmd->sqid == 0 || !__atomic_load_n(&c->hold, __ATOMIC_ACQUIRE))) {
		post(c, cq, cmd);
		return;
	}
	cmd->next = NULL;
	if (cq->wait_tail != NULL)
		cq->wait_tail->next = cmd;
	else
		cq->wait_head = cmd;
	cq->wait_tail = cmd;
}

/* Posts the completions that waited for room in cq. */
static void drain_cq_waits(struct nvme_ctrl *c, struct nvme_cq *cq)
{
	while (cq->live && cq->wait_head != NULL && !cq_full(c, cq)) {
		struct nvme_cmd *cmd = cq->wait_head;

		cq->wait_head = cmd->next;
		if (cq->wait_head == NULL)
			cq->wait_tail = NULL;
		post(c, cq, cmd);
	}
	if (cq->wait_head == NULL && cq->cq_wait)
		__atomic_store_n(&cq->cq_wait, 0, __ATOMIC_RELAXED);
}

/* Posts completions that waited for room in their CQ (the I/O queues' not while held). */
static void drain_waits(struct nvme_ctrl *c)
{
	bool hold = __atomic_load_n(&c->hold, __ATOMIC_ACQUIRE);

	for (int i = 0; i < (hold ? 1 : NVME_MAX_QUEUES); i++)
		drain_cq_waits(c, &c->cq[i]);
}

static void signal_irqs(struct nvme_ctrl *c)
{
	uint64_t one = 1;

	/* the CQEs posted before the gates are read (nvme_ops.h: a driver arms, then looks) */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (int i = 0; i < NVME_MAX_QUEUES; i++) {
		struct nvme_cq *cq = &c->cq[i];
		uint32_t gate;

		if (!cq->signal)
			continue;
		cq->signal = false;
		gate = __atomic_load_n(&cq->irq_gate, __ATOMIC_RELAXED);
		if (gate == SOFTHW_NVME_IRQ_MASKED ||
		    (gate == SOFTHW_NVME_IRQ_ARMED &&
		     !__atomic_compare_exchange_n(&cq->irq_gate, &gate, SOFTHW_NVME_IRQ_MASKED, false, __ATOMIC_ACQ_REL,
						  __ATOMIC_RELAXED)))
			continue; /* its driver polls the CQ: no interrupt wanted */
		if (cq->ien && c->irq_fd[cq->iv] >= 0 && write(c->irq_fd[cq->iv], &one, sizeof(one)) < 0)
			SDK_LOG_ERR("NVMe interrupt vector %u: eventfd write failed: %s", cq->iv, strerror(errno));
	}
}

/* Fetches and runs up to a burst of SQ i's new SQEs (slots from pool), their I/O on ur; true if more are there. */
static bool fetch_sq(struct nvme_ctrl *c, int i, struct nvme_uring *ur, struct nvme_pool *pool)
{
	struct nvme_sq *sq = &c->sq[i];
	uint32_t tail;
	int n = 0;

	if (!sq->live || sq->deleter != NULL)
		return false;
	tail = __atomic_load_n(&c->doorbells[2 * i], __ATOMIC_ACQUIRE);
	if (tail >= sq->size) {
		if (!sq->bad_tail_logged)
			SDK_LOG_ERR("NVMe SQ %d: tail doorbell %u is beyond its %u entries; ignored until rewritten", i,
				    tail, sq->size);
		sq->bad_tail_logged = true;
		return false;
	}
	sq->bad_tail_logged = false;
	while (sq->head != tail && pool->free != NULL && n < NVME_FETCH_BURST) {
		struct nvme_cmd *cmd = pool->free;

		pool->free = cmd->next;
		pool->out++;
		memset(cmd, 0, offsetof(struct nvme_cmd, iov));
		cmd->sqe = sq->ring[sq->head];
		cmd->sqid = (uint16_t)i;
		cmd->op.cmd = cmd;
		cmd->ur = ur;
		cmd->pool = pool;
		sq->head = (uint16_t)((sq->head + 1) % sq->size);
		sq->inflight++;
		n++;
		if (i == 0)
			nvme_admin_exec(c, cmd);
		else
			nvme_io_exec(c, cmd);
	}
	return sq->head != tail;
}

/*
 * Fetches new SQEs of every SQ the engine serves (from `first`: 1 skips the admin queue; owned
 * SQs are their owners'), a burst at a time, while command slots last.
 */
static void fetch(struct nvme_ctrl *c, int first)
{
	bool more = true;

	while (more && c->pool.free != NULL) {
		more = false;
		for (int i = first; i < NVME_MAX_QUEUES && c->pool.free != NULL; i++)
			if (c->sq[i].owner == NULL && fetch_sq(c, i, &c->eng, &c->pool))
				more = true;
	}
}

/*
 * About to block: tells drivers to wake us (asleep, cq_wait), then looks once more at what
 * they may have published before they saw it. True: there is work, do not block.
 */
static bool work_after_sleep_flag(struct nvme_ctrl *c)
{
	bool hold = __atomic_load_n(&c->hold, __ATOMIC_ACQUIRE);

	__atomic_store_n(&c->asleep, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < NVME_MAX_QUEUES; i++)
		if (c->cq[i].wait_head != NULL)
			__atomic_store_n(&c->cq[i].cq_wait, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (int i = 0; i < NVME_MAX_QUEUES; i++) {
		struct nvme_sq *sq = &c->sq[i];

		uint32_t tail = __atomic_load_n(&c->doorbells[2 * i], __ATOMIC_RELAXED);

		/* (a tail beyond the SQ is ignored by fetch: no reason to stay up; an owned SQ is its
		 * owner's to fetch; held I/O completions stay until the hold ends, which wakes us) */
		if (sq->live && sq->deleter == NULL && sq->owner == NULL && c->pool.free != NULL && tail < sq->size &&
		    tail != sq->head)
			return true;
		if (c->cq[i].live && c->cq[i].wait_head != NULL && (i == 0 || !hold) && !cq_full(c, &c->cq[i]))
			return true;
	}
	return false;
}

static void *engine(void *arg)
{
	struct nvme_ctrl *c = arg;
	bool logged = false;
	int rc;

	pthread_setname_np(pthread_self(), "softdoca-nvme");
	pthread_mutex_lock(&c->lock);
	arm_wake(c);
	for (;;) {
		struct io_uring_cqe *e;
		unsigned head, n = 0;
		bool stop = __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE);

		/* lock held */
		__atomic_store_n(&c->asleep, 0, __ATOMIC_RELAXED);
		io_uring_for_each_cqe(&c->eng.ring, head, e) {
			struct nvme_op *op = io_uring_cqe_get_data(e);

			n++;
			if (op == &c->wake_op)
				c->wake_armed = false;
			else
				nvme_io_done(c, op, e->res);
		}
		io_uring_cq_advance(&c->eng.ring, n);
		arm_wake(c);
		drain_waits(c);
		if (!stop)
			fetch(c, 0);
		signal_irqs(c);
		if (stop && c->eng.inflight == 0)
			break;
		bool work = !stop && work_after_sleep_flag(c);

		rc = io_uring_submit(&c->eng.ring);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY && !logged) {
			SDK_LOG_ERR("soft NVMe controller: io_uring_submit: %s", strerror(-rc));
			logged = true;
		}
		if (work)
			continue;
		/*
		 * Sleeps here while idle: an I/O completion or the armed wake read ends it. A driver's
		 * kick may submit meanwhile (the lock is free); its completions end it too.
		 */
		pthread_mutex_unlock(&c->lock);
		rc = io_uring_wait_cqe(&c->eng.ring, &e);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && !logged) {
			SDK_LOG_ERR("soft NVMe controller: io_uring_wait_cqe: %s", strerror(-rc));
			logged = true;
		}
		pthread_mutex_lock(&c->lock);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

void nvme_ctrl_kick(void *ctrl)
{
	struct nvme_ctrl *c = ctrl;
	uint64_t one = 1;

	if (pthread_mutex_trylock(&c->lock) == 0) {
		/*
		 * Asleep and the lock free: the engine waits for completions, so fetch and submit
		 * here. Awake: it looks at the tails before it sleeps (work_after_sleep_flag).
		 */
		if (__atomic_load_n(&c->asleep, __ATOMIC_RELAXED) && !__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
			int rc;

			fetch(c, 1);
			signal_irqs(c); /* commands that failed at once */
			rc = io_uring_submit(&c->eng.ring);
			if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
				SDK_LOG_ERR("soft NVMe kick: io_uring_submit: %s", strerror(-rc));
		}
		pthread_mutex_unlock(&c->lock);
		return;
	}
	/* the engine holds it: it may be about to sleep, so wake it as a driver without kick does */
	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		SDK_LOG_ERR("soft NVMe kick: eventfd write: %s", strerror(errno));
}

/* Completions on an SQ owner's ring (lock held): their commands complete or go on. */
static void reap_ring(struct nvme_ctrl *c, struct nvme_uring *ur)
{
	struct io_uring_cqe *e;
	unsigned head, n = 0;

	io_uring_for_each_cqe(&ur->ring, head, e) {
		n++;
		nvme_io_done(c, io_uring_cqe_get_data(e), e->res);
	}
	io_uring_cq_advance(&ur->ring, n);
}

static struct nvme_pool *pool_new(uint32_t n)
{
	struct nvme_pool *p = calloc(1, sizeof(*p));

	if (p == NULL || (p->cmds = calloc(n, sizeof(*p->cmds))) == NULL) {
		free(p);
		return NULL;
	}
	p->n = n;
	for (uint32_t i = 0; i < n; i++) {
		p->cmds[i].next = p->free;
		p->free = &p->cmds[i];
	}
	return p;
}

static void pool_free(struct nvme_pool *p)
{
	if (p != NULL)
		free(p->cmds);
	free(p);
}

struct softhw_nvme_owner *nvme_own_sq(void *ctrl, uint16_t sqid, int *ring_fd)
{
	struct nvme_ctrl *c = ctrl;
	struct nvme_owner *o = calloc(1, sizeof(*o));
	int rc;

	if (o == NULL)
		return NULL;
	/*
	 * No IORING_SETUP_COOP_TASKRUN: the kernel completes direct I/O by task work of the thread
	 * that submitted it, and an EU job may move to another DPA thread at a slice's end; that
	 * thread may run device code that makes no system call for long, so it must be interrupted
	 * as the controller's ring always had its submitters interrupted.
	 */
	rc = io_uring_queue_init(OWNER_RING_ENTRIES, &o->ur.ring, 0);
	if (rc < 0) {
		SDK_LOG_ERR("soft NVMe: I/O SQ %u: io_uring_queue_init for its owner: %s; the controller thread keeps it",
			    sqid, strerror(-rc));
		free(o);
		return NULL;
	}
	o->c = c;
	o->sqid = sqid;
	o->fd = o->ur.ring.ring_fd;
	pthread_mutex_lock(&c->lock);
	if (sqid > 0 && sqid < NVME_MAX_QUEUES && c->sq[sqid].live && c->sq[sqid].owner == NULL) {
		/* as many slots as the SQ has entries: the driver keeps no more in flight */
		o->pool = pool_new(c->sq[sqid].size);
		if (o->pool == NULL) {
			pthread_mutex_unlock(&c->lock);
			SDK_LOG_ERR("soft NVMe: I/O SQ %u: no memory for its owner's command slots", sqid);
			io_uring_queue_exit(&o->ur.ring);
			free(o);
			return NULL;
		}
	}
	if (sqid == 0 || sqid >= NVME_MAX_QUEUES || !c->sq[sqid].live || c->sq[sqid].owner != NULL) {
		pthread_mutex_unlock(&c->lock);
		SDK_LOG_ERR("soft NVMe: I/O SQ %u cannot be owned: %s", sqid,
			    sqid == 0 || sqid >= NVME_MAX_QUEUES ? "not an I/O SQ id"
			    : !c->sq[sqid].live		   ? "it does not exist"
							   : "it has an owner already");
		io_uring_queue_exit(&o->ur.ring);
		pool_free(o->pool);
		free(o);
		return NULL;
	}
	/* from here the engine leaves it (fetch, work_after_sleep_flag); commands it fetched
	 * before complete on its own ring as usual */
	c->sq[sqid].owner = o;
	pthread_mutex_unlock(&c->lock);
	*ring_fd = o->fd;
	return (struct softhw_nvme_owner *)o;
}

int nvme_owner_progress(struct softhw_nvme_owner *owner)
{
	struct nvme_owner *o = (struct nvme_owner *)owner;
	struct nvme_ctrl *c = o->c;
	struct nvme_sq *sq = &c->sq[o->sqid];
	struct nvme_cq *cq = NULL;
	uint32_t before = 0;
	int rc;

	pthread_mutex_lock(&c->lock);
	if (sq->owner == o) {
		cq = &c->cq[sq->cqid];
		before = cq->posted;
	}
	reap_ring(c, &o->ur);
	if (cq != NULL) {
		if (!__atomic_load_n(&c->hold, __ATOMIC_ACQUIRE))
			drain_cq_waits(c, cq);
		while (o->pool->free != NULL && fetch_sq(c, o->sqid, &o->ur, o->pool))
			;
	}
	/*
	 * What completed inside the submit (the page cache, a memory disk) is posted now, not a
	 * poll later. A completion may queue the command's next op (a Write Zeroes trying its next
	 * way, a short transfer's rest): that is submitted too, or nothing would ever complete it.
	 */
	for (int round = 0;; round++) {
		rc = io_uring_submit(&o->ur.ring);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			SDK_LOG_ERR("soft NVMe I/O SQ %u: io_uring_submit on its owner's ring: %s", o->sqid,
				    strerror(-rc));
		if (round == OWNER_SUBMIT_ROUNDS)
			break; /* (its completions make the ring's fd readable: the next progress goes on) */
		reap_ring(c, &o->ur);
		if (io_uring_sq_ready(&o->ur.ring) == 0)
			break;
	}
	if (cq != NULL) {
		/* completions left waiting for room: the driver's CQ head doorbell wakes the engine,
		 * which posts them (a held one's with the release) */
		if (cq->wait_head != NULL)
			__atomic_store_n(&cq->cq_wait, 1, __ATOMIC_RELAXED);
		/* the owner reads its CQ next: no interrupt for what it posted itself */
		cq->signal = false;
	}
	signal_irqs(c); /* another queue's CQE it posted: a Delete I/O SQ waiting for this SQ's last */
	rc = cq != NULL ? (int)(cq->posted - before) : 0;
	pthread_mutex_unlock(&c->lock);
	return rc;
}

void nvme_owner_release(struct softhw_nvme_owner *owner)
{
	struct nvme_owner *o = (struct nvme_owner *)owner;
	struct nvme_ctrl *c;
	uint64_t one = 1;

	if (o == NULL)
		return;
	c = o->c;
	pthread_mutex_lock(&c->lock);
	for (int waited = 0; o->ur.inflight > 0; waited++) {
		/* (a driver releases once its commands completed: this is for one that did not) */
		struct __kernel_timespec ts = {.tv_sec = 1};
		struct io_uring_cqe *e;
		int rc;

		if (waited == RELEASE_WAIT_S) {
			/*
			 * The backing store does not answer (a hung NFS or device): the kernel still owns
			 * those operations' buffers, so the ring and the owner stay, the SQ stays owned
			 * (nothing fetches it again) and the driver is not held up for ever.
			 */
			SDK_LOG_ERR("soft NVMe I/O SQ %u: %d I/O operations of its owner's ring unanswered after %d s; "
				    "the ring is left open and the SQ is not served again",
				    o->sqid, o->ur.inflight, RELEASE_WAIT_S);
			pthread_mutex_unlock(&c->lock);
			return;
		}
		pthread_mutex_unlock(&c->lock);
		/* (submits what a failed submit left prepared, too) */
		rc = io_uring_submit_and_wait_timeout(&o->ur.ring, &e, 1, &ts, NULL);
		pthread_mutex_lock(&c->lock);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -ETIME && rc != -EBUSY) {
			SDK_LOG_ERR("soft NVMe I/O SQ %u: waiting for its owner's ring: %s", o->sqid, strerror(-rc));
			break;
		}
		reap_ring(c, &o->ur);
		signal_irqs(c);
	}
	if (c->sq[o->sqid].owner == o)
		c->sq[o->sqid].owner = NULL;
	/* completions still waiting for room in the CQ (or held) come back to the slots later */
	if (o->pool->out > 0) {
		o->pool->next = c->retired;
		c->retired = o->pool;
	} else {
		pool_free(o->pool);
	}
	pthread_mutex_unlock(&c->lock);
	/* the engine serves the SQ again: what is queued on it is fetched */
	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		SDK_LOG_ERR("soft NVMe: releasing I/O SQ %u: eventfd write: %s", o->sqid, strerror(errno));
	io_uring_queue_exit(&o->ur.ring);
	free(o);
}

static doca_error_t queues_init(struct nvme_ctrl *c)
{
	struct nvme_sq *sq = &c->sq[0];
	struct nvme_cq *cq = &c->cq[0];
	size_t sqb = NVME_ADMIN_DEPTH * sizeof(struct softdoca_nvme_sqe);
	size_t cqb = NVME_ADMIN_DEPTH * sizeof(struct softdoca_nvme_cqe);

	c->doorbells = aligned_alloc(NVME_PAGE, NVME_PAGE);
	sq->ring = aligned_alloc(NVME_PAGE, NVME_PAGE); /* C11: a multiple of the alignment */
	cq->ring = aligned_alloc(NVME_PAGE, NVME_PAGE);
	c->pool.cmds = calloc(NVME_CMDS, sizeof(*c->pool.cmds));
	if (c->doorbells == NULL || sq->ring == NULL || cq->ring == NULL || c->pool.cmds == NULL)
		return DOCA_ERROR_NO_MEMORY;
	memset((void *)c->doorbells, 0, NVME_PAGE);
	memset(sq->ring, 0, sqb);
	memset(cq->ring, 0, cqb);
	c->pool.n = NVME_CMDS;
	for (int i = 0; i < NVME_CMDS; i++) {
		c->pool.cmds[i].next = c->pool.free;
		c->pool.free = &c->pool.cmds[i];
	}
	for (int i = 0; i < NVME_MAX_QUEUES; i++)
		c->irq_fd[i] = -1;
	/* the admin pair exists from the start, as after CC.EN with AQA/ASQ/ACQ set */
	*sq = (struct nvme_sq){.live = true, .size = NVME_ADMIN_DEPTH, .ring = sq->ring};
	*cq = (struct nvme_cq){.live = true, .size = NVME_ADMIN_DEPTH, .phase = 1, .ien = true, .nsq = 1,
			       .ring = cq->ring};
	if (nvme_irq_fd(c, 0) < 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	c->admin = (struct softdoca_nvme_qpair){
		.qid = 0, .depth = NVME_ADMIN_DEPTH, .sq = sq->ring, .cq = cq->ring,
		.sq_doorbell = &c->doorbells[0], .cq_doorbell = &c->doorbells[1],
		.sq_doorbell_offset = 0, .cq_doorbell_offset = 4,
		.wake_fd = c->wake_fd, .irq_fd = c->irq_fd[0], .cq_phase = 1,
	};
	return DOCA_SUCCESS;
}

static void ctrl_free(struct nvme_ctrl *c)
{
	for (int i = 0; i < NVME_MAX_QUEUES; i++)
		if (c->irq_fd[i] >= 0)
			close(c->irq_fd[i]);
	if (c->wake_fd >= 0)
		close(c->wake_fd);
	nvme_backing_close(c);
	free(c->sq[0].ring);
	free(c->cq[0].ring);
	free((void *)c->doorbells);
	free(c->pool.cmds);
	while (c->retired != NULL) {
		struct nvme_pool *p = c->retired;

		c->retired = p->next;
		pool_free(p);
	}
	pthread_mutex_destroy(&c->admin_lock);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

doca_error_t softdoca_nvme_open(const struct softdoca_nvme_disk_attr *attr, struct softdoca_nvme_disk **disk)
{
	struct nvme_ctrl *c;
	doca_error_t err;
	int rc;

	if (attr == NULL || disk == NULL) {
		SDK_LOG_ERR("soft NVMe open: attr and disk must not be NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (attr->block_size != 512 && attr->block_size != 4096) {
		SDK_LOG_ERR("soft NVMe open: block size %u is neither 512 nor 4096", attr->block_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return DOCA_ERROR_NO_MEMORY;
	c->fd = c->dfd = -1;
	c->vwc = true;
	pthread_mutex_init(&c->admin_lock, NULL);
	pthread_mutex_init(&c->lock, NULL);
	c->wake_fd = eventfd(0, EFD_CLOEXEC);
	if (c->wake_fd < 0) {
		SDK_LOG_ERR("soft NVMe open: eventfd: %s", strerror(errno));
		ctrl_free(c);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = queues_init(c);
	if (err == DOCA_SUCCESS)
		err = nvme_backing_open(c, attr);
	if (err != DOCA_SUCCESS) {
		ctrl_free(c);
		return err;
	}
	rc = io_uring_queue_init(RING_ENTRIES, &c->eng.ring, 0);
	if (rc < 0) {
		SDK_LOG_ERR("soft NVMe open: io_uring_queue_init: %s", strerror(-rc));
		ctrl_free(c);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	rc = softhw_thread_create(&c->thread, NULL, engine, c);
	if (rc != 0) {
		SDK_LOG_ERR("soft NVMe open: cannot start the controller thread: %s", strerror(rc));
		io_uring_queue_exit(&c->eng.ring);
		ctrl_free(c);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	nvme_bell_add(c);
	*disk = (struct softdoca_nvme_disk *)c;
	return DOCA_SUCCESS;
}

doca_error_t softdoca_nvme_hold_completions(struct softdoca_nvme_disk *disk, int hold)
{
	struct nvme_ctrl *c = (struct nvme_ctrl *)disk;
	uint64_t one = 1;

	if (c == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	SDK_LOG_WARN("soft NVMe: I/O completions %s (softdoca_nvme_hold_completions, a fault injection)",
		     hold ? "held: the disk stops answering" : "released");
	__atomic_store_n(&c->hold, hold != 0, __ATOMIC_RELEASE);
	/* the engine posts what it kept at its next turn */
	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		SDK_LOG_ERR("soft NVMe hold: eventfd write: %s", strerror(errno));
	return DOCA_SUCCESS;
}

doca_error_t softdoca_nvme_close(struct softdoca_nvme_disk *disk)
{
	struct nvme_ctrl *c = (struct nvme_ctrl *)disk;
	uint64_t one = 1;

	if (c == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&c->lock);
	for (int i = 1; i < NVME_MAX_QUEUES; i++)
		if (c->sq[i].owner != NULL) {
			/* its ring's operations point into this controller: the driver releases it first */
			pthread_mutex_unlock(&c->lock);
			SDK_LOG_ERR("soft NVMe close: I/O SQ %d is still owned by a driver's io_uring (DOCA STA: stop the "
				    "IO contexts that use this disk first); the disk stays open",
				    i);
			return DOCA_ERROR_IN_USE;
		}
	pthread_mutex_unlock(&c->lock);
	nvme_bell_remove(c);
	__atomic_store_n(&c->hold, false, __ATOMIC_RELEASE); /* held completions go out before the stop */
	__atomic_store_n(&c->stop, true, __ATOMIC_RELEASE);
	if (write(c->wake_fd, &one, sizeof(one)) < 0)
		SDK_LOG_ERR("soft NVMe close: eventfd write: %s", strerror(errno));
	pthread_join(c->thread, NULL);
	io_uring_queue_exit(&c->eng.ring);
	for (int i = 1; i < NVME_MAX_QUEUES; i++) {
		if (c->sq[i].live || c->cq[i].live)
			SDK_LOG_WARN("soft NVMe close: I/O queue %d still exists; its rings stay the application's", i);
	}
	ctrl_free(c);
	return DOCA_SUCCESS;
}
