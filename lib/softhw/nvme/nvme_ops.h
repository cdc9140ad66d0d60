/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme: what a DOCA library that drives a soft NVMe disk's queues needs beyond the
 * rings and doorbell words it was handed as doca_mmaps (DOCA STA's back-end queues): the
 * eventfd that wakes the controller after a doorbell write, and the interrupt eventfd of a
 * completion queue. Reached through `doca_dev->nvme` (lib/common/priv/dev_priv.h), so no
 * non-DOCA symbol crosses a library boundary.
 */
#ifndef SOFTHW_NVME_OPS_H
#define SOFTHW_NVME_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct softhw_nvme_bell {
	int wake_fd; /* write 8 bytes after moving a doorbell */
	int irq_fd;  /* the CQ's interrupt vector; -1 when the CQ has interrupts off */
	/*
	 * For a driver that wakes the controller and takes interrupts only when needed, as NVMe's
	 * shadow doorbells with event indexes let a virtual controller's driver do. Each pair is
	 * a store, a SEQ_CST fence and a load on both sides, so one of them always sees the other.
	 *  asleep:   nonzero while the controller is (about to be) blocked; a driver that stored
	 *            an SQ tail writes wake_fd only then.
	 *  cq_wait:  nonzero while completions of this CQ wait for room; a driver that stored the
	 *            CQ head writes wake_fd only then.
	 *  irq_gate: the CQ's interrupt gate, 0 (the default: every batch of CQEs signals irq_fd),
	 *            SOFTHW_NVME_IRQ_MASKED (no signal) or SOFTHW_NVME_IRQ_ARMED (the next batch
	 *            signals once and masks it again). A driver arms it before sleeping on irq_fd,
	 *            then looks at the CQ once more; it sets 0 again when it lets the queue go.
	 */
	const uint32_t *asleep;
	const uint32_t *cq_wait;
	uint32_t *irq_gate;
	/*
	 * Instead of writing wake_fd after an SQ tail found the controller asleep: kick(kick_ctx)
	 * fetches the new I/O commands and submits them in the caller's thread when the controller
	 * is idle (a thread hop less per batch; the controller thread sleeps on their completions),
	 * else wakes it. Not for the admin queue. Valid while the disk is open.
	 */
	void (*kick)(void *kick_ctx);
	void *kick_ctx;
	/* the SQ whose tail doorbell find_bell was given, for own_sq; 0 when addr was not one */
	uint16_t sqid;
};

/* An I/O SQ that one driver thread submits and reaps on an io_uring of its own (own_sq). */
struct softhw_nvme_owner;

enum { SOFTHW_NVME_IRQ_ALWAYS = 0, SOFTHW_NVME_IRQ_MASKED = 1, SOFTHW_NVME_IRQ_ARMED = 2 };

struct softhw_nvme_ops {
	/*
	 * The open soft NVMe disk whose doorbell page holds [addr, addr + len), and the fds of its
	 * CQ `cqid`. False when no open disk has that doorbell page or the CQ does not exist.
	 */
	bool (*find_bell)(const void *addr, size_t len, uint16_t cqid, struct softhw_nvme_bell *bell);
	/*
	 * For a driver that is itself a thread with a poll loop (DOCA STA's EU): I/O SQ `sqid` of
	 * the disk kick_ctx (find_bell's) is executed on an io_uring of the caller's instead of the
	 * controller thread's. That thread would otherwise be woken by every I/O completion and
	 * then wake the driver with its CQE and interrupt: two thread hand-overs per I/O.
	 * The controller thread stops fetching that SQ; the driver, after storing the SQ tail
	 * doorbell as usual, calls progress(), which fetches and submits the new commands on its
	 * ring and reaps that ring's completions into the CQ (the same CQEs, phase, SQ head and
	 * statuses the controller posts). *ring_fd turns readable when the ring has completions:
	 * the driver polls it with the CQ's irq_fd and calls progress() when it does (completions
	 * the controller thread still posts, held ones released and those that waited for room,
	 * keep coming with the interrupt). NULL (logged) when the SQ cannot be owned: the driver
	 * goes on with the doorbell / kick protocol above.
	 */
	struct softhw_nvme_owner *(*own_sq)(void *kick_ctx, uint16_t sqid, int *ring_fd);
	/* Fetches and submits the SQ's new commands and reaps the ring; returns the CQEs it posted. */
	int (*progress)(struct softhw_nvme_owner *owner);
	/*
	 * Gives the SQ back to the controller thread, after waiting for the ring's operations in
	 * flight (a driver lets its queue go once its commands completed). Before the disk closes.
	 */
	void (*release)(struct softhw_nvme_owner *owner);
};

extern const struct softhw_nvme_ops softhw_nvme_ops;

#endif /* SOFTHW_NVME_OPS_H */
