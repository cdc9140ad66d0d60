/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Local fast path: a READ, WRITE or atomic to a peer on this host and network namespace
 * executes from the posting thread when the qp is idle (nothing posted before it waits, so RC
 * order holds): with plain loads, stores and atomics inside the export's shared window, or
 * by cross-memory attach (reads and writes; lib/softhw/fabric/mem.h). The exporter's memory
 * service checks the rkey (id, token) and returns the export's range and rights; the target
 * ep's access flags came in the descriptor or handshake. Anything that path cannot prove
 * (another process's rkey, no memory service, CMA refused, an atomic outside the window) goes
 * over the socket instead, where the target decides.
 */
#include <string.h>

#include "doca_types.h"
#include "softhw/fabric/mem.h"
#include "softhw/rnic/rnic_int.h"

/* A cache miss: the exporter's memory service is asked (once per export and qp, or evicted). */
static struct softhw_mem_remote *__attribute__((noinline)) remote_connect(struct rnic_qp *qp,
									    const struct softhw_rnic_rkey *k)
{
	struct rnic_cma *slot = &qp->cma[qp->cma_next];
	struct softhw_mem_peer peer = {0};
	const char *why = "";

	qp->cma_next = (qp->cma_next + 1) % RNIC_CMA_CACHE;
	if (slot->used)
		softhw_mem_disconnect(slot->remote);
	memset(slot, 0, sizeof(*slot));
	peer.instance = qp->peer.instance;
	peer.pid = k->pid;
	peer.id = k->id;
	peer.token = k->token;
	peer.any_range = true;
	peer.serialised = true; /* every access is under the qp lock */
	slot->used = true;
	slot->id = k->id;
	slot->token = k->token;
	if (softhw_mem_connect(&peer, &slot->remote, &why) != DOCA_SUCCESS)
		slot->remote = NULL; /* remembered: the socket path reports the target's verdict */
	return slot->remote;
}

/* Remote handle for the rkey; NULL: use the socket. qp lock held. */
static struct softhw_mem_remote *remote_for(struct rnic_qp *qp, const struct softhw_rnic_rkey *k)
{
	for (int i = 0; i < RNIC_CMA_CACHE; i++) {
		const struct rnic_cma *c = &qp->cma[i];

		if (c->used && c->id == k->id && c->token == k->token)
			return c->remote;
	}
	return remote_connect(qp, k);
}

/* The right the target ep must grant for op (0: not an op of this path). */
static uint32_t op_right(enum softhw_rnic_opcode op)
{
	switch (op) {
	case SOFTHW_RNIC_OP_WRITE:
		return DOCA_ACCESS_FLAG_RDMA_WRITE;
	case SOFTHW_RNIC_OP_READ:
		return DOCA_ACCESS_FLAG_RDMA_READ;
	case SOFTHW_RNIC_OP_FETCH_ADD:
	case SOFTHW_RNIC_OP_CMP_SWP:
		return DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	default:
		return 0;
	}
}

bool rnic_cma_try(struct rnic_qp *qp, const struct softhw_rnic_wr *wr, uint64_t bytes, doca_error_t *status)
{
	const uint32_t right = op_right(wr->op);
	const bool atomic = right == DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	struct softhw_mem_remote *r;
	uint64_t addr = wr->rkey.addr;

	if (qp->state != QP_RTS || qp->wq_head != NULL || right == 0 || wr->rkey.pid != qp->peer.pid)
		return false;
	if (qp->direct == 0) /* once per connected qp: a getenv costs as much as a small write */
		qp->direct = qp->local && rnic_transport_forced() != 't' ? 1 : 2;
	if (qp->direct != 1)
		return false;
	/* the target ep's grant first, as the target itself would check */
	if (!(qp->peer.access & right)) {
		*status = DOCA_ERROR_NOT_PERMITTED;
		return true;
	}
	r = remote_for(qp, &wr->rkey);
	if (r == NULL)
		return false;
	/*
	 * One segment (the common case): softhw_mem_copy_direct finds out whether it is direct.
	 * Several, or none: the whole range must be, before any segment is copied.
	 */
	if ((atomic || wr->num_sge != 1) && !softhw_mem_direct(r, addr, atomic ? sizeof(uint64_t) : bytes))
		return false;
	if (atomic) {
		uint64_t old;

		*status = softhw_mem_atomic(r, addr, wr->op == SOFTHW_RNIC_OP_CMP_SWP, wr->arg0, wr->arg1, &old);
		if (*status == DOCA_ERROR_NOT_SUPPORTED)
			return false; /* outside the window: the target executes it */
		if (*status == DOCA_SUCCESS && wr->num_sge > 0 && wr->sgl[0].len >= sizeof(old))
			memcpy(wr->sgl[0].addr, &old, sizeof(old));
	} else {
		const bool write = wr->op == SOFTHW_RNIC_OP_WRITE;

		*status = DOCA_SUCCESS;
		for (uint32_t i = 0; i < wr->num_sge && *status == DOCA_SUCCESS; i++) {
			const struct softhw_rnic_sge *s = &wr->sgl[i];

			*status = softhw_mem_copy_direct(r, addr, s->addr, s->len, write);
			addr += s->len;
		}
		if (*status == DOCA_ERROR_NOT_SUPPORTED)
			return false; /* (only a lone segment's: not direct, nothing done) the target executes it */
	}
	if (*status == DOCA_ERROR_IO_FAILED)
		*status = DOCA_ERROR_INVALID_VALUE; /* the export ended: as the target reports it */
	return true;
}

void rnic_cma_drop(struct rnic_qp *qp)
{
	for (int i = 0; i < RNIC_CMA_CACHE; i++)
		if (qp->cma[i].used && qp->cma[i].remote != NULL)
			softhw_mem_disconnect(qp->cma[i].remote);
	memset(qp->cma, 0, sizeof(qp->cma));
}
