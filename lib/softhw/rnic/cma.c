/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Local fast path: a READ or WRITE to a peer on this host and network namespace moves its
 * bytes by cross-memory attach (lib/softhw/fabric/mem.h), from the posting thread, when the
 * qp is idle (nothing posted before it waits, so RC order holds). The exporter's memory
 * service checks the rkey (id, token) and returns the export's range and rights; the target
 * ep's access flags came in the descriptor or handshake. Anything that path cannot prove
 * (another process's rkey, no memory service, CMA refused) goes over the socket instead,
 * where the target decides.
 */
#include <string.h>

#include "doca_types.h"
#include "softhw/fabric/mem.h"
#include "softhw/rnic/rnic_int.h"

/* Remote handle for the rkey; NULL: use the socket. qp lock held. */
static struct softhw_mem_remote *remote_for(struct rnic_qp *qp, const struct softhw_rnic_rkey *k)
{
	struct rnic_cma *slot = NULL;
	struct softhw_mem_peer peer = {0};
	const char *why = "";

	for (int i = 0; i < RNIC_CMA_CACHE; i++) {
		struct rnic_cma *c = &qp->cma[i];

		if (c->used && c->id == k->id && c->token == k->token)
			return c->remote;
	}
	slot = &qp->cma[qp->cma_next];
	qp->cma_next = (qp->cma_next + 1) % RNIC_CMA_CACHE;
	if (slot->used)
		softhw_mem_disconnect(slot->remote);
	memset(slot, 0, sizeof(*slot));
	peer.instance = qp->peer.instance;
	peer.pid = k->pid;
	peer.id = k->id;
	peer.token = k->token;
	peer.any_range = true;
	slot->used = true;
	slot->id = k->id;
	slot->token = k->token;
	if (softhw_mem_connect(&peer, &slot->remote, &why) != DOCA_SUCCESS)
		slot->remote = NULL; /* remembered: the socket path reports the target's verdict */
	else if (!softhw_mem_uses_cma(slot->remote)) {
		softhw_mem_disconnect(slot->remote);
		slot->remote = NULL;
	}
	return slot->remote;
}

bool rnic_cma_try(struct rnic_qp *qp, const struct rnic_wr *wr, doca_error_t *status)
{
	const bool write = wr->op == SOFTHW_RNIC_OP_WRITE;
	struct softhw_mem_remote *r;
	uint64_t addr = wr->rkey.addr;

	if (!qp->local || qp->state != QP_RTS || qp->wq_head != NULL ||
	    (wr->op != SOFTHW_RNIC_OP_WRITE && wr->op != SOFTHW_RNIC_OP_READ) || wr->rkey.pid != qp->peer.pid ||
	    rnic_transport_forced() == 't') /* (a getenv: last, only where it decides) */
		return false;
	/* the target ep's grant first, as the target itself would check */
	if (!(qp->peer.access & (write ? DOCA_ACCESS_FLAG_RDMA_WRITE : DOCA_ACCESS_FLAG_RDMA_READ))) {
		*status = DOCA_ERROR_NOT_PERMITTED;
		return true;
	}
	r = remote_for(qp, &wr->rkey);
	if (r == NULL)
		return false;
	*status = DOCA_SUCCESS;
	for (uint32_t i = 0; i < wr->num_sge && *status == DOCA_SUCCESS; i++) {
		const struct softhw_rnic_sge *s = &wr->sgl[i];

		*status = write ? softhw_mem_write(r, addr, s->addr, s->len) : softhw_mem_read(r, s->addr, addr, s->len);
		addr += s->len;
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
