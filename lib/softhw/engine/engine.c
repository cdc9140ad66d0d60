/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft engine: per-context work queues and the units that execute them.
 *
 * Work is executed when the queue's owner polls it (doca_pe_progress), on the owner's thread.
 * That is the fast path the architecture asks for: a local DMA copy needs no cross-thread hop,
 * and submission never does the work itself. A segment in another process's exported memory
 * is read or written through the fabric (fabric/mem.h) during that same progress call; the
 * exporter's help is never needed.
 */
#include <string.h>

#include "softhw/base/sdk_log.h"
#include "softhw/fabric/mem.h"
#include "softhw/softhw.h"

SDK_LOG_REGISTER(SOFTHW_ENGINE);

void softhw_queue_post(struct softhw_queue *q, struct softhw_work *work)
{
	work->seq = q->seq++;
	work->prev = NULL;
	q->depth++;
	if (work->op != SOFTHW_OP_PARKED) {
		softhw_queue_append_ready(q, work);
		return;
	}
	work->next = NULL;
	work->prev = q->parked_tail;
	if (q->parked_tail != NULL)
		q->parked_tail->next = work;
	else
		q->parked_head = work;
	q->parked_tail = work;
	q->parked++;
}

/* Takes work out of the list of ready work (prev: the one before it, or NULL). */
static void queue_unlink(struct softhw_queue *q, struct softhw_work *prev, struct softhw_work *work)
{
	if (prev != NULL)
		prev->next = work->next;
	else
		q->head = work->next;
	if (q->tail == work)
		q->tail = prev;
	work->next = NULL;
	q->depth--;
}

#define REMOTE_TO_REMOTE_CHUNK 16384

/* Moves `len` bytes between two segments, either of which may be in another process. */
static doca_error_t copy_chunk(const struct softhw_sge *dst, uint64_t doff, const struct softhw_sge *src,
			       uint64_t soff, uint64_t len)
{
	char *d = (char *)dst->addr + doff;
	const char *s = (const char *)src->addr + soff;

	if (src->remote == NULL && dst->remote == NULL) {
		memmove(d, s, len);
		return DOCA_SUCCESS;
	}
	if (dst->remote == NULL)
		return softhw_mem_read(src->remote, d, (uint64_t)(uintptr_t)s, len);
	if (src->remote == NULL)
		return softhw_mem_write(dst->remote, (uint64_t)(uintptr_t)d, s, len);
	/* Between two other processes (rare): through a small buffer of ours. */
	while (len > 0) {
		char buf[REMOTE_TO_REMOTE_CHUNK];
		uint64_t n = len < sizeof(buf) ? len : sizeof(buf);
		doca_error_t err = softhw_mem_read(src->remote, buf, (uint64_t)(uintptr_t)s, n);

		if (err == DOCA_SUCCESS)
			err = softhw_mem_write(dst->remote, (uint64_t)(uintptr_t)d, buf, n);
		if (err != DOCA_SUCCESS)
			return err;
		s += n;
		d += n;
		len -= n;
	}
	return DOCA_SUCCESS;
}

/* Gathers the source segments into the destination segments, in order. */
static doca_error_t execute_copy(struct softhw_work *work)
{
	const struct softhw_sge *src = work->copy.src;
	const struct softhw_sge *dst = work->copy.dst;
	uint32_t si = 0, di = 0;
	uint64_t soff = 0, doff = 0, moved = 0;
	doca_error_t err;

	while (si < work->copy.nsrc) {
		uint64_t chunk;

		if (soff == src[si].len) {
			si++;
			soff = 0;
			continue;
		}
		while (di < work->copy.ndst && doff == dst[di].len) {
			di++;
			doff = 0;
		}
		if (di == work->copy.ndst)
			return DOCA_ERROR_TOO_BIG; /* the library checked sizes: not reached */
		chunk = src[si].len - soff;
		if (chunk > dst[di].len - doff)
			chunk = dst[di].len - doff;
		err = copy_chunk(&dst[di], doff, &src[si], soff, chunk);
		if (err != DOCA_SUCCESS) {
			work->result_len = moved;
			return err;
		}
		soff += chunk;
		doff += chunk;
		moved += chunk;
	}
	work->result_len = moved;
	return DOCA_SUCCESS;
}

/* A copy the card's faults fail (faults.dma_error): nothing moves, as when the engine errs. */
static doca_error_t copy_faulted(const struct softhw_queue *q, struct softhw_work *work)
{
	work->result_len = 0;
	SDK_LOG_WARN("DMA copy %llu fails on purpose with IO_FAILED (%s = %u in the device configuration)",
		     (unsigned long long)__atomic_load_n(&q->faults->seen[SOFTHW_FAULT_DMA_ERROR], __ATOMIC_RELAXED),
		     softhw_fault_key(SOFTHW_FAULT_DMA_ERROR), q->faults->every[SOFTHW_FAULT_DMA_ERROR]);
	return DOCA_ERROR_IO_FAILED;
}

/* (of the list of ready work: parked work waits in a list of its own) */
static bool work_ready(struct softhw_work *work)
{
	return work->op != SOFTHW_OP_CALL || work->call.ready == NULL || work->call.ready(work);
}

/*
 * A context with only parked work (an RDMA context's posted receives and sends, waiting for the
 * NIC) is what an idle spinning poller sees on every call: answered without looking at it.
 */
bool softhw_queue_has_ready(const struct softhw_queue *q)
{
	for (struct softhw_work *w = q->head; w != NULL; w = w->next)
		if (work_ready(w))
			return true;
	return false;
}

struct softhw_work *softhw_queue_execute_walk(struct softhw_queue *q)
{
	struct softhw_work *prev = NULL;

	for (struct softhw_work *w = q->head; w != NULL; prev = w, w = w->next) {
		if (!work_ready(w))
			continue;
		queue_unlink(q, prev, w);
		switch (w->op) {
		case SOFTHW_OP_COPY:
			if (q->faults != NULL && softhw_fault_hit(q->faults, SOFTHW_FAULT_DMA_ERROR))
				w->status = copy_faulted(q, w);
			else
				w->status = execute_copy(w);
			break;
		case SOFTHW_OP_FAIL:
		case SOFTHW_OP_DONE:
			break; /* status was set when the fault was detected or the work done */
		case SOFTHW_OP_CALL:
			w->status = w->call.run != NULL ? w->call.run(w) : DOCA_SUCCESS;
			break;
		case SOFTHW_OP_INVALIDATE:
			/* The soft card writes memory through the CPU's own coherent caches: no line
			 * can be stale. What remains of an invalidate is the ordering, a full barrier
			 * between the card's earlier writes and the reads that follow. */
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			w->result_len = w->inval.sge->len;
			w->status = DOCA_SUCCESS;
			break;
		default:
			w->status = DOCA_ERROR_NOT_SUPPORTED;
			break;
		}
		return w;
	}
	return NULL;
}

struct softhw_work *softhw_queue_flush(struct softhw_queue *q, doca_error_t status)
{
	struct softhw_work *w = q->head, *p = q->parked_head;

	if (p != NULL && (w == NULL || p->seq < w->seq)) { /* the oldest is parked */
		softhw_queue_unpark(q, p);
		q->depth--;
		p->status = status;
		p->op = SOFTHW_OP_FAIL; /* no longer parked: its late completion must not count it out again */
		return p;
	}
	if (w == NULL)
		return NULL;
	queue_unlink(q, NULL, w);
	if (w->op != SOFTHW_OP_DONE) /* work already done keeps its own outcome */
		w->status = status;
	return w;
}
