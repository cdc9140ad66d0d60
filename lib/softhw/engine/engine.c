/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft engine: per-context work queues and the units that execute them.
 *
 * Work is executed when the queue's owner polls it (doca_pe_progress), on the owner's thread.
 * That is the fast path the architecture asks for: a local DMA copy needs no cross-thread hop,
 * and submission never does the work itself. Work that must happen without the owner's help
 * (remote one-sided access, issue 3) is served by the fabric's service thread instead.
 */
#include <string.h>

#include "softhw/softhw.h"

void softhw_queue_post(struct softhw_queue *q, struct softhw_work *work)
{
	work->next = NULL;
	if (q->tail != NULL)
		q->tail->next = work;
	else
		q->head = work;
	q->tail = work;
	q->depth++;
}

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

/* Gathers the source segments into the destination segments, in order. */
static doca_error_t execute_copy(struct softhw_work *work)
{
	const struct softhw_sge *src = work->copy.src;
	const struct softhw_sge *dst = work->copy.dst;
	uint32_t si = 0, di = 0;
	uint64_t soff = 0, doff = 0, moved = 0;

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
		memmove((char *)dst[di].addr + doff, (const char *)src[si].addr + soff, chunk);
		soff += chunk;
		doff += chunk;
		moved += chunk;
	}
	work->result_len = moved;
	return DOCA_SUCCESS;
}

static bool work_ready(struct softhw_work *work)
{
	return work->op != SOFTHW_OP_CALL || work->call.ready == NULL || work->call.ready(work);
}

bool softhw_queue_has_ready(const struct softhw_queue *q)
{
	for (struct softhw_work *w = q->head; w != NULL; w = w->next)
		if (work_ready(w))
			return true;
	return false;
}

struct softhw_work *softhw_queue_execute(struct softhw_queue *q)
{
	struct softhw_work *prev = NULL;

	for (struct softhw_work *w = q->head; w != NULL; prev = w, w = w->next) {
		if (!work_ready(w))
			continue;
		queue_unlink(q, prev, w);
		switch (w->op) {
		case SOFTHW_OP_COPY:
			w->status = execute_copy(w);
			break;
		case SOFTHW_OP_FAIL:
		case SOFTHW_OP_DONE:
			break; /* status was set when the fault was detected or the work done */
		case SOFTHW_OP_CALL:
			w->status = w->call.run != NULL ? w->call.run(w) : DOCA_SUCCESS;
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
	struct softhw_work *w = q->head;

	if (w == NULL)
		return NULL;
	queue_unlink(q, NULL, w);
	if (w->op != SOFTHW_OP_DONE) /* work already done keeps its own outcome */
		w->status = status;
	return w;
}
