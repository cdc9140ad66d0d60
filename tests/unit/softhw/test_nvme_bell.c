/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft NVMe disk's driver hints (lib/softhw/nvme/nvme_ops.h), which DOCA STA's back-end
 * queues use: find_bell gives the queue's fds and words; a CQ whose interrupt gate is masked
 * gets its completions without an interrupt, an armed gate gets exactly one and is masked
 * again, the default gate signals every batch; an idle controller says it sleeps (asleep), and
 * no completion waits for CQ room (cq_wait); a driver that kicks instead of writing wake_fd
 * has its commands fetched and submitted in its own thread while the controller is idle, and
 * by the controller otherwise, none lost. Links softhw alone.
 */
#include <poll.h>
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

			CHECK(word_becomes(b.asleep, 1));
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

int main(void)
{
	TEST_RUN(test_bell_hints);
	TEST_RUN(test_bell_kick);
	TEST_EXIT();
}
