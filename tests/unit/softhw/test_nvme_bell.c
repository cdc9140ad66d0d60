/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft NVMe disk's driver hints (lib/softhw/nvme/nvme_ops.h), which DOCA STA's back-end
 * queues use: find_bell gives the queue's fds and words; a CQ whose interrupt gate is masked
 * gets its completions without an interrupt, an armed gate gets exactly one and is masked
 * again, the default gate signals every batch; an idle controller says it sleeps (asleep), and
 * no completion waits for CQ room (cq_wait); a driver that kicks instead of writing wake_fd
 * has its commands fetched and submitted in its own thread while the controller is idle, and
 * by the controller otherwise, none lost. An SQ owned by this thread (own_sq) is executed on
 * this thread's io_uring, on a memory disk and on a file (O_DIRECT when the file system has
 * it): writes, reads, Flush, Write Zeroes, DSM and the error statuses give the CQEs the
 * controller gives, across the CQ's phase wraps, with no interrupt and no wake-up of the
 * controller thread; held completions come from the controller once released; an unowned
 * queue of the same disk works meanwhile, and the released SQ is the controller's again.
 * Links softhw alone.
 */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "softdoca_nvme.h"
#include "softhw/nvme/nvme_ops.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"
#include "thread_switches.h"

#define NVME_THREAD "softdoca-nvme" /* the disk's controller thread (one disk open here) */

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

#define WAIT_MS 5000

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* Waits (bounded) until *word reads `want`. */
static bool word_becomes(const uint32_t *word, uint32_t want)
{
	long end = now_ms() + WAIT_MS;

	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != want) {
		if (now_ms() > end)
			return false;
		usleep(200);
	}
	return true;
}

/* Submits a 4 KiB read and waits (bounded, by looking at the CQ) for its completion. */
static bool read_polled(struct softdoca_nvme_qpair *qp, void *buf, uint16_t cid)
{
	struct softdoca_nvme_sqe cmd = {.opc = SOFTDOCA_NVME_IO_READ, .cid = cid, .nsid = 1,
					.prp1 = (uintptr_t)buf, .cdw10 = cid, .cdw12 = 0};
	long end = now_ms() + WAIT_MS;
	struct softdoca_nvme_cqe *e;

	if (softdoca_nvme_sq_push(qp, &cmd) != 0)
		return false;
	softdoca_nvme_ring_sq(qp);
	while ((e = softdoca_nvme_cq_peek(qp)) == NULL) {
		if (now_ms() > end)
			return false;
		usleep(200);
	}
	CHECK(e->cid == cid && SOFTDOCA_NVME_CQE_SC(e) == 0);
	softdoca_nvme_cq_pop(qp);
	softdoca_nvme_ring_cq(qp);
	return true;
}

static bool irq_pending(int fd, int timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	uint64_t n;

	if (poll(&p, 1, timeout_ms) <= 0)
		return false;
	return read(fd, &n, sizeof(n)) == sizeof(n);
}

static void test_bell_hints(void)
{
	struct softdoca_nvme_disk_attr a = {.path = NULL, .size = 1u << 20, .block_size = 4096};
	struct softdoca_nvme_disk *d = NULL;
	struct softdoca_nvme_qpair qp;
	struct softhw_nvme_bell b;
	void *buf = aligned_alloc(4096, 4096);

	CHECK(buf != NULL);
	CHECK_OK(softdoca_nvme_open(&a, &d));
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 16, NULL, NULL, &qp));
	CHECK(!softhw_nvme_ops.find_bell((const void *)(uintptr_t)qp.sq_doorbell, 4, 7, &b)); /* no CQ 7 */
	CHECK(softhw_nvme_ops.find_bell((const void *)(uintptr_t)qp.sq_doorbell, 4, 1, &b));
	CHECK(b.wake_fd == qp.wake_fd && b.irq_fd == qp.irq_fd);
	CHECK(b.asleep != NULL && b.cq_wait != NULL && b.irq_gate != NULL);
	CHECK(*b.irq_gate == SOFTHW_NVME_IRQ_ALWAYS);

	/* masked: the completion comes, no interrupt (looked at once the controller sleeps again) */
	__atomic_store_n(b.irq_gate, SOFTHW_NVME_IRQ_MASKED, __ATOMIC_RELEASE);
	CHECK(read_polled(&qp, buf, 1));
	CHECK(word_becomes(b.asleep, 1));
	CHECK(!irq_pending(qp.irq_fd, 0));
	CHECK(__atomic_load_n(b.cq_wait, __ATOMIC_ACQUIRE) == 0);

	/* armed: one interrupt, and the gate is masked again */
	__atomic_store_n(b.irq_gate, SOFTHW_NVME_IRQ_ARMED, __ATOMIC_RELEASE);
	CHECK(read_polled(&qp, buf, 2));
	CHECK(irq_pending(qp.irq_fd, WAIT_MS));
	CHECK(__atomic_load_n(b.irq_gate, __ATOMIC_ACQUIRE) == SOFTHW_NVME_IRQ_MASKED);
	CHECK(read_polled(&qp, buf, 3));
	CHECK(word_becomes(b.asleep, 1));
	CHECK(!irq_pending(qp.irq_fd, 0));

	/* back to the default: every batch signals */
	__atomic_store_n(b.irq_gate, SOFTHW_NVME_IRQ_ALWAYS, __ATOMIC_RELEASE);
	CHECK(read_polled(&qp, buf, 4));
	CHECK(irq_pending(qp.irq_fd, WAIT_MS));

	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	free(buf);
}

/*
 * Waits (bounded) until the controller thread sleeps: it says so (asleep) and it is blocked.
 * asleep alone is not enough: the thread sets it under the controller's lock, then looks once
 * more for work and submits before it unlocks, and a kick in that window cannot take the lock.
 */
static bool controller_sleeps(const struct softhw_nvme_bell *b)
{
	long end = now_ms() + WAIT_MS;

	while (__atomic_load_n(b->asleep, __ATOMIC_ACQUIRE) != 1 || thread_state(NVME_THREAD) != 'S') {
		if (now_ms() > end)
			return false;
		usleep(200);
	}
	return true;
}

/* Rings as DOCA STA's back-end queues do: tail, fence, and a kick only if the controller sleeps. */
static void ring_kick(struct softdoca_nvme_qpair *qp, const struct softhw_nvme_bell *b, unsigned *kicks)
{
	__atomic_store_n(qp->sq_doorbell, qp->sq_tail, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(b->asleep, __ATOMIC_RELAXED)) {
		b->kick(b->kick_ctx);
		(*kicks)++;
	}
}

/*
 * 200 rounds of 10 writes, then of 10 reads, of 4 KiB blocks: each round is rung once, by a
 * kick, while the controller sleeps with nothing in flight (so only the kick can take it). All
 * complete, the data intact.
 */
static void test_bell_kick(void)
{
	struct softdoca_nvme_disk_attr a = {.path = NULL, .size = 4u << 20, .block_size = 4096};
	struct softdoca_nvme_disk *d = NULL;
	struct softdoca_nvme_qpair qp;
	struct softhw_nvme_bell b;
	uint8_t *buf = aligned_alloc(4096, 10 * 4096);
	unsigned kicks = 0;

	CHECK(buf != NULL);
	CHECK_OK(softdoca_nvme_open(&a, &d));
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 64, NULL, NULL, &qp));
	CHECK(softhw_nvme_ops.find_bell((const void *)(uintptr_t)qp.sq_doorbell, 4, 1, &b));
	CHECK(b.kick != NULL);
	__atomic_store_n(b.irq_gate, SOFTHW_NVME_IRQ_MASKED, __ATOMIC_RELEASE); /* this driver polls */
	for (int pass = 0; pass < 2 && test_failures == 0; pass++) {
		bool writing = pass == 0;

		for (int round = 0; round < 200 && test_failures == 0; round++) {
			long end = now_ms() + WAIT_MS;
			int done = 0;

			CHECK(controller_sleeps(&b));
			for (uint16_t k = 0; k < 10; k++) {
				uint32_t lba = (uint32_t)(round * 10 + k) % 1024;
				struct softdoca_nvme_sqe cmd = {
					.opc = writing ? SOFTDOCA_NVME_IO_WRITE : SOFTDOCA_NVME_IO_READ, .cid = k, .nsid = 1,
					.prp1 = (uintptr_t)(buf + k * 4096), .cdw10 = lba, .cdw12 = 0};

				memset(buf + k * 4096, writing ? (int)(lba & 0xff) : 0x5a, 4096);
				CHECK(softdoca_nvme_sq_push(&qp, &cmd) == 0);
			}
			ring_kick(&qp, &b, &kicks);
			while (done < 10) {
				struct softdoca_nvme_cqe *e = softdoca_nvme_cq_peek(&qp);

				if (e == NULL) {
					if (now_ms() > end) {
						CHECK(!"the kick took the commands"); /* they were lost */
						break;
					}
					usleep(50);
					continue;
				}
				CHECK(SOFTDOCA_NVME_CQE_SC(e) == 0 && e->cid < 10);
				if (!writing) /* block n holds n & 0xff (its last write) */
					for (int o = 0; o < 4096; o += 512)
						CHECK(buf[e->cid * 4096 + o] == (uint8_t)((round * 10 + e->cid) % 1024));
				softdoca_nvme_cq_pop(&qp);
				done++;
			}
			/* the CQ head as STA stores it: the controller is woken only if completions wait for room */
			__atomic_store_n(qp.cq_doorbell, qp.cq_head, __ATOMIC_RELEASE);
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			if (__atomic_load_n(b.cq_wait, __ATOMIC_RELAXED))
				CHECK(write(b.wake_fd, &(uint64_t){1}, 8) == 8);
		}
	}
	CHECK(test_failures > 0 || kicks == 400); /* every round found the controller asleep */
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	free(buf);
}

/* The owner's wait for n CQEs (bounded): poll the ring's fd, progress, take them into out[]. */
static const uint32_t *cq_wait;

static int owner_reap(struct softhw_nvme_owner *o, int fd, struct softdoca_nvme_qpair *qp,
		      struct softdoca_nvme_cqe *out, int n, int timeout_ms, int *posted)
{
	long end = now_ms() + timeout_ms;
	int got = 0;

	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		struct softdoca_nvme_cqe *e;

		*posted += softhw_nvme_ops.progress(o);
		while (got < n && (e = softdoca_nvme_cq_peek(qp)) != NULL) {
			out[got++] = *e;
			softdoca_nvme_cq_pop(qp);
		}
		/* the CQ head as STA stores it: the controller is woken only if completions wait for room */
		__atomic_store_n(qp->cq_doorbell, qp->cq_head, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(cq_wait, __ATOMIC_RELAXED))
			CHECK(write(qp->wake_fd, &(uint64_t){1}, 8) == 8);
		if (got == n || now_ms() >= end)
			return got;
		(void)poll(&p, 1, (int)(end - now_ms()));
	}
}

static void push(struct softdoca_nvme_qpair *qp, uint8_t opc, uint16_t cid, uint32_t nsid, void *buf, uint64_t slba,
		 uint32_t cdw11_hi, uint32_t cdw12)
{
	struct softdoca_nvme_sqe cmd = {.opc = opc, .cid = cid, .nsid = nsid, .prp1 = (uintptr_t)buf,
					.cdw10 = (uint32_t)slba, .cdw11 = (uint32_t)(slba >> 32) | cdw11_hi, .cdw12 = cdw12};

	CHECK(softdoca_nvme_sq_push(qp, &cmd) == 0);
}

/* The CQE of cid among n: its status (SC | SCT << 8), or -1. */
static int status_of(const struct softdoca_nvme_cqe *e, int n, uint16_t cid)
{
	for (int i = 0; i < n; i++)
		if (e[i].cid == cid)
			return (int)(SOFTDOCA_NVME_CQE_SC(&e[i]) | SOFTDOCA_NVME_CQE_SCT(&e[i]) << 8);
	return -1;
}

static void owner_case(const char *path)
{
	struct softdoca_nvme_disk_attr a = {.path = path, .size = 4u << 20, .block_size = 4096};
	struct softdoca_nvme_disk *d = NULL;
	struct softdoca_nvme_disk_info info;
	struct softdoca_nvme_qpair qp, qp2;
	struct softhw_nvme_bell b;
	struct softhw_nvme_owner *o;
	struct softdoca_nvme_cqe e[16];
	uint8_t *buf = aligned_alloc(4096, 8 * 4096);
	uint64_t *dsm = aligned_alloc(4096, 4096);
	int fd = -1, fd2 = -1, posted = 0, total = 0;
	long sw0;

	CHECK(buf != NULL && dsm != NULL);
	CHECK_OK(softdoca_nvme_open(&a, &d));
	CHECK_OK(softdoca_nvme_get_info(d, &info));
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 8, NULL, NULL, &qp)); /* 8 entries: the phase wraps often */
	CHECK_OK(softdoca_nvme_qpair_create(d, 2, 16, NULL, NULL, &qp2));
	CHECK(softhw_nvme_ops.find_bell((const void *)(uintptr_t)qp.sq_doorbell, 4, 1, &b));
	CHECK(b.sqid == 1);
	cq_wait = b.cq_wait;
	CHECK(softhw_nvme_ops.own_sq(b.kick_ctx, 0, &fd2) == NULL); /* the admin queue is the controller's */
	o = softhw_nvme_ops.own_sq(b.kick_ctx, 1, &fd);
	CHECK(o != NULL && fd >= 0);
	CHECK(softhw_nvme_ops.own_sq(b.kick_ctx, 1, &fd2) == NULL); /* one owner */
	if (o == NULL)
		goto out;
	CHECK(word_becomes(b.asleep, 1));
	sw0 = thread_switches(NVME_THREAD);
	CHECK(sw0 >= 0);

	/* 40 rounds: 4 writes, Flush, then 4 reads checked; the 8-entry CQ wraps its phase 20 times */
	for (int round = 0; round < 40 && test_failures == 0; round++) {
		for (uint16_t k = 0; k < 4; k++) {
			memset(buf + k * 4096, (round * 4 + k) & 0xff, 4096);
			push(&qp, SOFTDOCA_NVME_IO_WRITE, k, 1, buf + k * 4096, (uint64_t)(round * 4 + k), 0, 0);
		}
		push(&qp, SOFTDOCA_NVME_IO_FLUSH, 4, 1, NULL, 0, 0, 0);
		__atomic_store_n(qp.sq_doorbell, qp.sq_tail, __ATOMIC_RELEASE); /* no wake_fd: ours to submit */
		CHECK(owner_reap(o, fd, &qp, e, 5, WAIT_MS, &posted) == 5);
		for (uint16_t k = 0; k < 5; k++)
			CHECK(status_of(e, 5, k) == 0);
		CHECK(e[4].sqid == 1 && e[4].sqhd == qp.sq_tail); /* every command fetched */
		memset(buf, 0, 4 * 4096);
		for (uint16_t k = 0; k < 4; k++)
			push(&qp, SOFTDOCA_NVME_IO_READ, (uint16_t)(8 + k), 1, buf + k * 4096, (uint64_t)(round * 4 + k), 0,
			     0);
		__atomic_store_n(qp.sq_doorbell, qp.sq_tail, __ATOMIC_RELEASE);
		CHECK(owner_reap(o, fd, &qp, e, 4, WAIT_MS, &posted) == 4);
		for (uint16_t k = 0; k < 4; k++) {
			CHECK(status_of(e, 4, (uint16_t)(8 + k)) == 0);
			CHECK(buf[k * 4096] == ((round * 4 + k) & 0xff) && buf[k * 4096 + 4095] == ((round * 4 + k) & 0xff));
		}
		total += 9;
	}

	/* Write Zeroes of LBA 1, DSM deallocating LBA 2, and the errors, as the controller says them */
	dsm[0] = (uint64_t)1 << 32; /* context attributes 0, 1 block */
	dsm[1] = 2;                 /* starting LBA */
	push(&qp, SOFTDOCA_NVME_IO_WRITE_ZEROES, 1, 1, NULL, 1, 0, 0);
	{
		struct softdoca_nvme_sqe cmd = {.opc = SOFTDOCA_NVME_IO_DSM, .cid = 2, .nsid = 1,
						.prp1 = (uintptr_t)dsm, .cdw10 = 0, .cdw11 = 1u << 2};

		CHECK(softdoca_nvme_sq_push(&qp, &cmd) == 0);
	}
	push(&qp, SOFTDOCA_NVME_IO_READ, 3, 1, buf, info.num_blocks, 0, 0);      /* LBA out of range */
	push(&qp, SOFTDOCA_NVME_IO_READ, 4, 2, buf, 0, 0, 0);                    /* no namespace 2 */
	push(&qp, 0x7e, 5, 1, buf, 0, 0, 0);                                     /* no such opcode */
	__atomic_store_n(qp.sq_doorbell, qp.sq_tail, __ATOMIC_RELEASE);
	CHECK(owner_reap(o, fd, &qp, e, 5, WAIT_MS, &posted) == 5);
	CHECK(status_of(e, 5, 1) == 0 && status_of(e, 5, 2) == 0);
	CHECK(status_of(e, 5, 3) == SOFTDOCA_NVME_SC_LBA_OUT_OF_RANGE);
	CHECK(status_of(e, 5, 4) == SOFTDOCA_NVME_SC_INVALID_NAMESPACE);
	CHECK(status_of(e, 5, 5) == SOFTDOCA_NVME_SC_INVALID_OPCODE);
	total += 5;
	memset(buf, 0xee, 2 * 4096);
	{
		struct softdoca_nvme_sqe cmd = {.opc = SOFTDOCA_NVME_IO_READ, .cid = 6, .nsid = 1, .prp1 = (uintptr_t)buf,
						.prp2 = (uintptr_t)(buf + 4096), .cdw10 = 1, .cdw12 = 1};

		CHECK(softdoca_nvme_sq_push(&qp, &cmd) == 0); /* LBAs 1 and 2: zeroes now */
	}
	__atomic_store_n(qp.sq_doorbell, qp.sq_tail, __ATOMIC_RELEASE);
	CHECK(owner_reap(o, fd, &qp, e, 1, WAIT_MS, &posted) == 1 && status_of(e, 1, 6) == 0);
	CHECK(buf[0] == 0 && buf[4095] == 0 && buf[4096] == 0 && buf[8191] == 0);
	total += 1;

	/*
	 * Write Zeroes and DSM one at a time, 100 rounds: their first way may fail at once (a
	 * memfd has no ZERO_RANGE) and the next op is queued by the reap that follows a submit; it
	 * must be submitted too (it once stayed queued, and the command never completed)
	 */
	for (int round = 0; round < 100 && test_failures == 0; round++) {
		push(&qp, round % 2 ? SOFTDOCA_NVME_IO_WRITE_ZEROES : SOFTDOCA_NVME_IO_READ, 1, 1, buf, 1, 0, 0);
		__atomic_store_n(qp.sq_doorbell, qp.sq_tail, __ATOMIC_RELEASE);
		CHECK(owner_reap(o, fd, &qp, e, 1, WAIT_MS, &posted) == 1 && status_of(e, 1, 1) == 0);
		total += 1;
	}

	/* the unowned queue of the same disk is the controller's, as before */
	CHECK(read_polled(&qp2, buf, 7));

	/* the owner posted every CQE itself: no interrupt, and the controller thread slept through
	 * them (it woke once for the other queue's read; a few more: other wake-ups of it) */
	CHECK(posted == total);
	CHECK(!irq_pending(qp.irq_fd, 0));
	long sw = thread_switches(NVME_THREAD) - sw0;

	fprintf(stderr, "  %s: %d CQEs posted by the owner, %ld controller-thread wake-ups\n",
		path != NULL ? (info.direct_io ? "file, O_DIRECT" : "file, buffered") : "memory", posted, sw);
	CHECK(sw < 10);

	/* held: executed, not answered; the release posts it from the controller, with its interrupt */
	CHECK_OK(softdoca_nvme_hold_completions(d, 1));
	push(&qp, SOFTDOCA_NVME_IO_WRITE, 7, 1, buf, 5, 0, 0);
	__atomic_store_n(qp.sq_doorbell, qp.sq_tail, __ATOMIC_RELEASE);
	posted = 0;
	CHECK(owner_reap(o, fd, &qp, e, 1, 200, &posted) == 0);
	CHECK_OK(softdoca_nvme_hold_completions(d, 0));
	CHECK(irq_pending(qp.irq_fd, WAIT_MS));
	CHECK(owner_reap(o, fd, &qp, e, 1, WAIT_MS, &posted) == 1 && status_of(e, 1, 7) == 0 && posted == 0);

	/* released: the controller thread serves the SQ again (woken by the doorbell's wake_fd) */
	softhw_nvme_ops.release(o);
	CHECK(read_polled(&qp, buf, 9));
	CHECK(buf[0] == 9 && buf[4095] == 9); /* LBA 9: round 2's second write */
out:
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp2));
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	free(buf);
	free(dsm);
}

static void test_bell_owner(void)
{
	char path[] = "nvme-owner-XXXXXX";
	int f = mkstemp(path);

	owner_case(NULL);
	CHECK(f >= 0);
	if (f < 0)
		return;
	close(f);
	owner_case(path);
	unlink(path);
}

struct identify_job {
	struct softdoca_nvme_disk *d;
	void *data;
	doca_error_t err;
	int done; /* atomic */
};

static void *identify_thread(void *arg)
{
	struct identify_job *j = arg;

	j->err = softdoca_nvme_identify(j->d, 0x01, 0, j->data);
	__atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * An owner with more commands in flight than the controller's 256 shared slots (here 600
 * writes whose completions are held): they come from the owner's own slots, so the admin
 * queue (an Identify) and an unowned queue are still served meanwhile; the disk does not close
 * while the SQ is owned (IN_USE); after the hold every write completes.
 */
static void test_bell_owner_many(void)
{
	struct softdoca_nvme_disk_attr a = {.path = NULL, .size = 8u << 20, .block_size = 4096};
	struct softdoca_nvme_disk *d = NULL;
	struct softdoca_nvme_qpair qp, qp2;
	struct softhw_nvme_bell b;
	struct softhw_nvme_owner *o;
	struct softdoca_nvme_cqe e[600];
	struct identify_job j = {0};
	uint8_t *buf = aligned_alloc(4096, 2 * 4096);
	pthread_t t;
	int fd = -1, posted = 0, ok = 0;
	long end;

	CHECK(buf != NULL);
	CHECK_OK(softdoca_nvme_open(&a, &d));
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 1024, NULL, NULL, &qp));
	CHECK_OK(softdoca_nvme_qpair_create(d, 2, 16, NULL, NULL, &qp2));
	CHECK(softhw_nvme_ops.find_bell((const void *)(uintptr_t)qp.sq_doorbell, 4, 1, &b));
	cq_wait = b.cq_wait;
	o = softhw_nvme_ops.own_sq(b.kick_ctx, 1, &fd);
	CHECK(o != NULL);
	if (o == NULL)
		goto out;
	memset(buf, 0x5a, 4096);
	CHECK_OK(softdoca_nvme_hold_completions(d, 1));
	for (uint16_t k = 0; k < 600; k++)
		push(&qp, SOFTDOCA_NVME_IO_WRITE, k, 1, buf, k % 2048, 0, 0);
	__atomic_store_n(qp.sq_doorbell, qp.sq_tail, __ATOMIC_RELEASE);
	CHECK(owner_reap(o, fd, &qp, e, 1, 300, &posted) == 0); /* all fetched and run, none answered */

	/* the controller still has its slots: the admin queue and the other queue are served */
	j.d = d;
	j.data = buf + 4096;
	CHECK(pthread_create(&t, NULL, identify_thread, &j) == 0);
	for (end = now_ms() + WAIT_MS; !__atomic_load_n(&j.done, __ATOMIC_ACQUIRE) && now_ms() < end;)
		(void)poll(NULL, 0, 1);
	CHECK(__atomic_load_n(&j.done, __ATOMIC_ACQUIRE));
	if (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE)) { /* hung: let the hold go so it can end */
		CHECK_OK(softdoca_nvme_hold_completions(d, 0));
	}
	pthread_join(t, NULL);
	CHECK_OK(j.err);
	CHECK(softdoca_nvme_close(d) == DOCA_ERROR_IN_USE); /* owned: not while its ring runs */

	/* the hold ends: the 600 completions, from the controller's wait list and the owner */
	CHECK_OK(softdoca_nvme_hold_completions(d, 0));
	for (end = now_ms() + WAIT_MS; ok < 600 && now_ms() < end;)
		ok += owner_reap(o, fd, &qp, e + ok, 600 - ok, 100, &posted);
	CHECK(ok == 600);
	for (int i = 0; i < ok; i++)
		CHECK(SOFTDOCA_NVME_CQE_SC(&e[i]) == 0 && SOFTDOCA_NVME_CQE_SCT(&e[i]) == 0);
	softhw_nvme_ops.release(o);
	CHECK(read_polled(&qp2, buf, 1));
	CHECK(buf[0] == 0x5a); /* LBA 0 */
out:
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp2));
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	free(buf);
}

int main(void)
{
	TEST_RUN(test_bell_hints);
	TEST_RUN(test_bell_kick);
	TEST_RUN(test_bell_owner);
	TEST_RUN(test_bell_owner_many);
	TEST_EXIT();
}
