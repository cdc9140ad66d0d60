/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run-time side of an STA back-end queue (dp.h): the NVMe SQ and CQ of a soft NVMe disk
 * that one IO context's EU job drives. Commands go on the SQ with PRPs and a doorbell write;
 * completions are reaped by phase bit and freed with a CQ head doorbell write. The disk
 * executes the SQ on an io_uring of the EU's (softhw_nvme_ops.own_sq): the EU submits after its
 * doorbell and reaps that ring itself, so the disk's controller thread is not woken per I/O
 * (nor is the EU by its interrupt). Without it (SOFTDOCA_STA_EU_URING=0, or a disk that cannot)
 * the doorbell wakes the controller thread, and its interrupt the EU.
 * Everything here runs under the IO context's data-path lock.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doca_mmap.h"
#include "dp.h"
#include "softhw/base/sdk_log.h"
#include "softhw/nvme/nvme_ops.h"

SDK_LOG_REGISTER(STA_BEQ);

struct sta_beq *sta_beq_of(struct doca_sta_io *io, struct doca_sta_be_handle *be)
{
	struct sta_io_dp *dp = io->dp;
	struct doca_sta_be_q_handle *pick = NULL;

	for (uint32_t i = 0; i < dp->num_beqs; i++)
		if (dp->beqs[i]->h->be == be)
			return dp->beqs[i];
	if (dp->num_beqs == sizeof(dp->beqs) / sizeof(dp->beqs[0]))
		return NULL;
	/* claim a queue of that back-end no IO context owns (queues are not shared between EUs) */
	pthread_mutex_lock(&io->sta->leaf_lock);
	for (struct doca_sta_be_q_handle *q = be->queues; q != NULL && pick == NULL; q = q->next)
		if (q->owner == NULL)
			pick = q;
	if (pick != NULL)
		pick->owner = io;
	pthread_mutex_unlock(&io->sta->leaf_lock);
	if (pick == NULL) {
		SDK_LOG_ERR("STA IO context %u: back-end has no queue free for it (each IO context needs a back-end "
			    "queue of its own: add one per IO thread with doca_sta_be_add_queue())",
			    io->index);
		return NULL;
	}
	struct sta_beq *b = calloc(1, sizeof(*b));
	void *sq = NULL, *cq = NULL, *db = NULL, *cdb = NULL;
	size_t sql = 0, cql = 0, dbl = 0, cdbl = 0;
	struct softhw_nvme_bell bell;

	doca_mmap_get_memrange(pick->sq, &sq, &sql);
	doca_mmap_get_memrange(pick->cq, &cq, &cql);
	doca_mmap_get_memrange(pick->sq_db, &db, &dbl);
	doca_mmap_get_memrange(pick->cq_db, &cdb, &cdbl);
	if (b == NULL || sql / 64 < 2 || cql / 16 < 2 || pick->cq_db_offset < 4 ||
	    io->ctx.dev->nvme == NULL ||
	    !io->ctx.dev->nvme->find_bell((uint8_t *)db + pick->sq_db_offset, 4, (uint16_t)((pick->cq_db_offset - 4) / 8),
					   &bell)) {
		SDK_LOG_ERR("STA back-end queue: its doorbell region is not a soft NVMe disk's doorbell page, or its "
			    "rings are too small (SQ %zu bytes, CQ %zu bytes); softdoca's back-ends are soft NVMe disks "
			    "(docs/soft-nvme.md)",
			    sql, cql);
		free(b);
		pthread_mutex_lock(&io->sta->leaf_lock);
		pick->owner = NULL;
		pthread_mutex_unlock(&io->sta->leaf_lock);
		return NULL;
	}
	b->h = pick;
	b->owner = io;
	b->sq = sq;
	b->cq = cq;
	b->sq_depth = (uint16_t)(sql / 64 > 1024 ? 1024 : sql / 64);
	b->cq_depth = (uint16_t)(cql / 16 > 1024 ? 1024 : cql / 16);
	b->cqid = (uint16_t)((pick->cq_db_offset - 4) / 8);
	b->sq_db = (volatile uint32_t *)((uint8_t *)db + pick->sq_db_offset);
	b->cq_db = (volatile uint32_t *)((uint8_t *)cdb + pick->cq_db_offset);
	/*
	 * The disk's queue goes on from where its last driver left it (an IO context stopped and
	 * started again takes the same queue): the SQ tail and CQ head it last rang, every command
	 * it sent completed and taken (its stop drained them), and the CQ's next phase the inverse
	 * of the entry at the head (0 in a CQ never written: phase 1).
	 */
	b->sq_tail = b->sq_head = (uint16_t)(__atomic_load_n(b->sq_db, __ATOMIC_ACQUIRE) % b->sq_depth);
	b->cq_head = (uint16_t)(__atomic_load_n(b->cq_db, __ATOMIC_ACQUIRE) % b->cq_depth);
	b->phase = (uint8_t)((__atomic_load_n((const uint16_t *)((const uint8_t *)cq + 16u * b->cq_head + 14),
					      __ATOMIC_ACQUIRE) & 1u) ^ 1u);
	b->wake_fd = bell.wake_fd;
	b->irq_fd = bell.irq_fd;
	b->asleep = bell.asleep;
	b->cq_wait = bell.cq_wait;
	b->irq_gate = bell.irq_gate;
	b->kick = bell.kick;
	b->kick_ctx = bell.kick_ctx;
	b->nvme = io->ctx.dev->nvme;
	b->ring_fd = -1;
	if (io->sta->eu_uring && bell.sqid != 0)
		b->own = b->nvme->own_sq(bell.kick_ctx, bell.sqid, &b->ring_fd); /* NULL (logged): the doorbell way */
	/* the EU looks at the CQ whenever it is up: interrupts only while it sleeps (sta_beq_arm) */
	__atomic_store_n(b->irq_gate, SOFTHW_NVME_IRQ_MASKED, __ATOMIC_RELEASE);
	b->cids = calloc(b->sq_depth, sizeof(*b->cids));
	if (b->cids == NULL) {
		if (b->own != NULL)
			b->nvme->release(b->own);
		free(b);
		return NULL;
	}
	dp->beqs[dp->num_beqs++] = b;
	return b;
}

uint64_t sta_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

void sta_wake(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) < 0) {
		/* an eventfd write fails only on overflow: not reachable */
	}
}

bool sta_beq_push(struct sta_beq *b, struct sta_slot *s)
{
	const uint8_t *c = s->capsule;
	uint8_t opc = c[0];
	uint16_t cid;
	uint8_t e[64] = {0};
	uint64_t prp1 = 0, prp2 = 0;

	if ((uint16_t)((b->sq_tail + 1) % b->sq_depth) == b->sq_head || b->inflight + 1 >= b->sq_depth)
		return false;
	for (cid = 0; cid < b->sq_depth && b->cids[cid] != NULL; cid++)
		;
	if (opc != STA_OPC_FLUSH) {
		uint32_t pages = (s->len + 4095) / 4096;

		prp1 = (uint64_t)(uintptr_t)s->buf;
		if (pages == 2) {
			prp2 = prp1 + 4096;
		} else if (pages > 2) {
			uint64_t *l = (uint64_t *)(void *)s->prp_list;

			for (uint32_t i = 1; i < pages; i++)
				l[i - 1] = prp1 + 4096ull * i;
			prp2 = (uint64_t)(uintptr_t)l;
		}
	}
	e[0] = opc;
	e[2] = (uint8_t)cid;
	e[3] = (uint8_t)(cid >> 8);
	memcpy(e + 4, &s->ns->be_ns_id, 4);
	memcpy(e + 24, &prp1, 8);
	memcpy(e + 32, &prp2, 8);
	memcpy(e + 40, c + 40, 24); /* cdw10-15: SLBA, NLB, FUA, ... as the host gave them */
	memcpy(b->sq + (size_t)b->sq_tail * 64, e, 64);
	b->sq_tail = (uint16_t)((b->sq_tail + 1) % b->sq_depth);
	b->cids[cid] = s;
	if (b->inflight++ == 0) /* the back-end time-out counts from here (dp.c) */
		b->busy_since_ms = sta_now_ms();
	s->beq = b;
	s->nvme_cid = cid;
	b->h->ctr[STA_BEQ_CTR_SUBMITTED]++;
	return true;
}

void sta_beq_progress(struct sta_beq *b)
{
	if (b->own != NULL)
		b->eu_reaped += (uint32_t)b->nvme->progress(b->own);
}

void sta_beq_ring(struct sta_beq *b)
{
	__atomic_store_n(b->sq_db, b->sq_tail, __ATOMIC_RELEASE);
	if (b->own != NULL) { /* ours to submit: no controller thread to wake */
		sta_beq_progress(b);
		return;
	}
	/* a controller that is up fetches the new tail before it sleeps (nvme_ops.h) */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(b->asleep, __ATOMIC_RELAXED))
		return;
	if (b->kick != NULL)
		b->kick(b->kick_ctx); /* the disk takes the commands in this thread when it is idle */
	else
		sta_wake(b->wake_fd);
}

bool sta_beq_arm(struct sta_beq *b)
{
	const uint8_t *e = b->cq + (size_t)b->cq_head * 16;

	__atomic_store_n(b->irq_gate, SOFTHW_NVME_IRQ_ARMED, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return (__atomic_load_n((const uint16_t *)(const void *)(e + 14), __ATOMIC_ACQUIRE) & 1u) == b->phase;
}

int sta_beq_reap(struct sta_beq *b, struct sta_slot **done, uint16_t *status, int max)
{
	int n = 0;
	bool moved = false;

	while (n < max) {
		const uint8_t *e = b->cq + (size_t)b->cq_head * 16;
		uint16_t st = __atomic_load_n((const uint16_t *)(const void *)(e + 14), __ATOMIC_ACQUIRE);
		uint16_t cid;

		if ((st & 1u) != b->phase)
			break;
		cid = sta_le16(e + 12);
		b->sq_head = sta_le16(e + 8);
		if (++b->cq_head == b->cq_depth) {
			b->cq_head = 0;
			b->phase ^= 1u;
		}
		moved = true;
		if (cid >= b->sq_depth || b->cids[cid] == NULL) {
			SDK_LOG_ERR("STA back-end queue: a completion for CID %u, which is not in flight; ignored", cid);
			continue;
		}
		done[n] = b->cids[cid];
		status[n++] = (uint16_t)(st >> 1);
		b->cids[cid] = NULL;
		b->inflight--;
		b->h->ctr[STA_BEQ_CTR_COMPLETED]++;
	}
	if (moved) { /* the CQ slots are free again: the back-end answers, and a controller waiting
		       * for them is woken */
		b->busy_since_ms = sta_now_ms();
		b->timed_out = false;
		__atomic_store_n(b->cq_db, b->cq_head, __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(b->cq_wait, __ATOMIC_RELAXED))
			sta_wake(b->wake_fd);
	}
	return n;
}

void sta_beq_wait(struct sta_beq *b, struct sta_slot *s)
{
	s->wait_next = NULL;
	if (b->wait_tail != NULL)
		b->wait_tail->wait_next = s;
	else
		b->wait_head = s;
	b->wait_tail = s;
}

void sta_beq_push_waiting(struct sta_beq *b)
{
	bool pushed = false;

	while (b->wait_head != NULL && sta_beq_push(b, b->wait_head)) {
		b->wait_head = b->wait_head->wait_next;
		pushed = true;
	}
	if (b->wait_head == NULL)
		b->wait_tail = NULL;
	if (pushed)
		sta_beq_ring(b);
}

void sta_beq_release(struct sta_beq *b)
{
	struct doca_sta *sta = b->owner->sta;

	__atomic_store_n(b->irq_gate, SOFTHW_NVME_IRQ_ALWAYS, __ATOMIC_RELEASE);
	if (b->own != NULL) /* (its commands completed: drain_backends) */
		b->nvme->release(b->own);
	pthread_mutex_lock(&sta->leaf_lock);
	b->h->owner = NULL;
	pthread_mutex_unlock(&sta->leaf_lock);
	free(b->cids);
	free(b);
}
