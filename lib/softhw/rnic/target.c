/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The target side: the service thread executes a peer's request against this process's
 * memory, receives and sync events, without the owner's help (it may be asleep in read()).
 * Checks, in order: the ep grants the access, the export (id, token) is live, covers the
 * range and grants the right, then (two-sided) a receive is posted and large enough.
 */
#include <stdlib.h>
#include <string.h>

#include "doca_types.h"
#include "softhw/fabric/mem.h"
#include "softhw/fabric/share.h"
#include "softhw/fabric/value.h"
#include "softhw/rnic/stream.h"


static void discard(struct rnic_rx *rx, doca_error_t status)
{
	if (rx->status == DOCA_SUCCESS)
		rx->status = status;
	rx->dest = RX_DISCARD;
	rx->left = rx->hdr.plen;
}

static bool ep_grants(const struct rnic_qp *qp, uint32_t flag)
{
	return (qp->ep->attr.access & flag) != 0;
}

doca_error_t rnic_remote_check(const struct rnic_qp *qp, uint32_t flag, uint64_t id, uint64_t token, uint64_t addr,
			       uint64_t len)
{
	uint32_t right = flag == DOCA_ACCESS_FLAG_RDMA_READ    ? SOFTHW_MEM_READ
			 : flag == DOCA_ACCESS_FLAG_RDMA_WRITE ? SOFTHW_MEM_WRITE
							       : SOFTHW_MEM_ATOMIC;

	if (!ep_grants(qp, flag))
		return DOCA_ERROR_NOT_PERMITTED;
	if (flag == DOCA_ACCESS_FLAG_RDMA_ATOMIC && addr % sizeof(uint64_t) != 0)
		return DOCA_ERROR_INVALID_VALUE;
	if (len == 0)
		return DOCA_SUCCESS;
	return softhw_mem_export_check(id, token, addr, len, right);
}

/* Takes a receive, or stalls the qp (receiver not ready) and counts retries. */
static bool take_recv(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;
	uint64_t now;

	rx->recv = rnic_ep_take_recv(qp->ep);
	if (rx->recv != NULL || !rx->stalled)
		now = 0;
	else
		now = rnic_now_ms();
	if (rx->recv != NULL) {
		if (rx->stalled) {
			rx->stalled = false;
			__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
		}
		return true;
	}
	if (!rx->stalled) {
		rx->stalled = true;
		rx->rnr_tries = 0;
		rx->rnr_deadline = rnic_now_ms() + RNIC_RNR_INTERVAL_MS;
		__atomic_fetch_add(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
		rnic_stream_events(qp);
		rnic_nic_timed_add(qp);
		return false;
	}
	if (now < rx->rnr_deadline)
		return false;
	rx->rnr_tries++;
	if (qp->peer.rnr_retry != RNIC_RNR_FOREVER && rx->rnr_tries > qp->peer.rnr_retry) {
		/* retries exhausted: NAK; the sender's work request fails with AGAIN */
		rx->stalled = false;
		__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
		return true;
	}
	rx->rnr_deadline = now + RNIC_RNR_INTERVAL_MS;
	rnic_nic_timed_add(qp);
	return false;
}

/* Sets the receive's sgl as the payload's destination. */
static void into_recv(struct rnic_rx *rx)
{
	if (!rnic_rx_room(rx, rx->recv->num_sge)) {
		discard(rx, DOCA_ERROR_NO_MEMORY);
		return;
	}
	uint64_t want = rx->hdr.plen;

	rx->dest = RX_PLAIN;
	rx->iovcnt = 0;
	rx->idx = 0;
	/* only the message's bytes: the next frame may follow it in the socket already */
	for (uint32_t i = 0; i < rx->recv->num_sge && want > 0; i++)
		if (rx->recv->sgl[i].len > 0) {
			uint64_t take = rx->recv->sgl[i].len < want ? rx->recv->sgl[i].len : want;

			rx->iov[rx->iovcnt++] = (struct iovec){rx->recv->sgl[i].addr, take};
			want -= take;
		}
	rx->left = rx->hdr.plen;
}

void rnic_target_begin(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;
	const struct rnic_hdr *h = &rx->hdr;
	doca_error_t err = DOCA_SUCCESS;

	rx->left = h->plen;
	rx->dest = RX_DISCARD;
	if (qp->state != QP_RTS) {
		discard(rx, DOCA_ERROR_NOT_CONNECTED);
		return;
	}
	switch ((enum softhw_rnic_opcode)h->op) {
	case SOFTHW_RNIC_OP_SEND:
	case SOFTHW_RNIC_OP_SEND_IMM:
	case SOFTHW_RNIC_OP_SEND_INV:
		if (!take_recv(qp))
			return;
		if (rx->recv == NULL)
			discard(rx, DOCA_ERROR_AGAIN);
		else if (h->plen > rx->recv->bytes)
			discard(rx, DOCA_ERROR_TOO_BIG);
		else
			into_recv(rx);
		return;
	case SOFTHW_RNIC_OP_WRITE:
	case SOFTHW_RNIC_OP_WRITE_IMM:
		err = rnic_write_check(qp, h->id, h->token, h->addr, h->plen);
		if (err != DOCA_SUCCESS) {
			discard(rx, err);
			return;
		}
		if (h->op == SOFTHW_RNIC_OP_WRITE_IMM) {
			if (!take_recv(qp))
				return;
			if (rx->recv == NULL) {
				discard(rx, DOCA_ERROR_AGAIN);
				return;
			}
		}
		rx->dest = RX_MEM;
		rx->mem_addr = h->addr;
		return;
	case SOFTHW_RNIC_OP_READ:
		err = rnic_remote_check(qp, DOCA_ACCESS_FLAG_RDMA_READ, h->id, h->token, h->addr, h->len);
		break;
	case SOFTHW_RNIC_OP_CMP_SWP:
	case SOFTHW_RNIC_OP_FETCH_ADD:
		err = rnic_remote_check(qp, DOCA_ACCESS_FLAG_RDMA_ATOMIC, h->id, h->token, h->addr, sizeof(uint64_t));
		break;
	case SOFTHW_RNIC_OP_SE_GET:
		if (!ep_grants(qp, DOCA_ACCESS_FLAG_RDMA_READ))
			err = DOCA_ERROR_NOT_PERMITTED;
		break;
	case SOFTHW_RNIC_OP_SE_SET:
	case SOFTHW_RNIC_OP_SE_ADD:
		if (!ep_grants(qp, DOCA_ACCESS_FLAG_RDMA_WRITE))
			err = DOCA_ERROR_NOT_PERMITTED;
		break;
	default:
		err = DOCA_ERROR_NOT_SUPPORTED;
		break;
	}
	discard(rx, err); /* no payload expected: anything sent along is dropped */
}

doca_error_t rnic_atomic_do(uint64_t id, uint64_t token, uint64_t addr, bool fetch_add, uint64_t arg0, uint64_t arg1,
			    uint64_t *old)
{
	doca_error_t err = softhw_mem_export_pin(id, token, addr, sizeof(uint64_t), SOFTHW_MEM_ATOMIC);
	uint64_t *p = (uint64_t *)(uintptr_t)addr;

	if (err != DOCA_SUCCESS)
		return err;
	if (fetch_add) {
		*old = __atomic_fetch_add(p, arg0, __ATOMIC_SEQ_CST);
	} else {
		uint64_t expected = arg0;

		(void)__atomic_compare_exchange_n(p, &expected, arg1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		*old = expected;
	}
	softhw_mem_export_unpin();
	return DOCA_SUCCESS;
}

/* Executes an atomic on exported memory; the old value goes back. */
static doca_error_t do_atomic(const struct rnic_hdr *h, uint64_t *old)
{
	return rnic_atomic_do(h->id, h->token, h->addr, h->op == SOFTHW_RNIC_OP_FETCH_ADD, h->arg0, h->arg1, old);
}

static doca_error_t do_sync_event(const struct rnic_hdr *h, uint64_t *old)
{
	struct softhw_value *cell = softhw_value_find_net(h->id, h->addr, h->token);

	if (cell == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!softhw_value_net_exported(cell)) { /* a remote-PCI descriptor passed off as remote net */
		softhw_value_unbind(cell);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (h->op == SOFTHW_RNIC_OP_SE_GET)
		*old = softhw_value_load(cell);
	else if (h->op == SOFTHW_RNIC_OP_SE_SET)
		softhw_value_store(cell, h->arg0);
	else
		*old = softhw_value_fetch_add(cell, h->arg0);
	softhw_value_unbind(cell);
	return DOCA_SUCCESS;
}

/*
 * A READ of a re-export: its bytes come through the import a chunk at a time as the socket
 * takes them (rnic_send_fetched). A whole copy up front made each unread answer cost its length:
 * 80 bytes of request for up to the export's size.
 */
static doca_error_t read_reexport(struct rnic_qp *qp, const struct rnic_hdr *h, struct rnic_hdr *resp)
{
	resp->plen = h->len;
	return rnic_send_fetched(qp, resp, h->id, h->token, h->addr, h->len);
}

void rnic_target_end(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;
	const struct rnic_hdr *h = &rx->hdr;
	struct rnic_hdr resp = {.type = F_RESP, .op = h->op, .seq = h->seq};
	doca_error_t err = rx->status;

	if (qp->state != QP_RTS)
		return; /* failed meanwhile: nothing is answered any more */
	switch ((enum softhw_rnic_opcode)h->op) {
	case SOFTHW_RNIC_OP_SEND:
	case SOFTHW_RNIC_OP_SEND_IMM:
	case SOFTHW_RNIC_OP_SEND_INV:
	case SOFTHW_RNIC_OP_WRITE_IMM:
		if (rx->recv != NULL)
			rnic_ep_recv_done(qp->ep, qp, rx->recv, err, (enum softhw_rnic_opcode)h->op,
					  err == DOCA_SUCCESS ? h->plen : 0, h->imm);
		rx->recv = NULL;
		break;
	case SOFTHW_RNIC_OP_READ:
		if (err == DOCA_SUCCESS && h->len > 0) {
			/* pinned while the socket takes the bytes; what it cannot take now waits, pinned again later */
			err = softhw_mem_export_pin(h->id, h->token, h->addr, h->len, SOFTHW_MEM_READ);
			if (err == DOCA_SUCCESS) {
				resp.plen = h->len;
				rnic_send_mem(qp, &resp, h->id, h->token, h->addr, h->len);
				softhw_mem_export_unpin();
				return;
			}
			if (err == DOCA_ERROR_NOT_SUPPORTED) /* a re-export: read through its import */
				err = read_reexport(qp, h, &resp);
			if (err == DOCA_SUCCESS)
				return;
		}
		break;
	case SOFTHW_RNIC_OP_CMP_SWP:
	case SOFTHW_RNIC_OP_FETCH_ADD:
		if (err == DOCA_SUCCESS)
			err = do_atomic(h, &resp.arg0);
		break;
	case SOFTHW_RNIC_OP_SE_GET:
	case SOFTHW_RNIC_OP_SE_SET:
	case SOFTHW_RNIC_OP_SE_ADD:
		if (err == DOCA_SUCCESS)
			err = do_sync_event(h, &resp.arg0);
		break;
	default:
		break;
	}
	resp.status = err;
	rnic_send_ctl(qp, &resp, NULL, 0);
}

/* ---- checks and placement shared with the fast paths (ring.c, msock.c) ---- */

doca_error_t rnic_write_check(const struct rnic_qp *qp, uint64_t id, uint64_t token, uint64_t addr, uint64_t len)
{
	return rnic_remote_check(qp, DOCA_ACCESS_FLAG_RDMA_WRITE, id, token, addr, len);
}

doca_error_t rnic_write_place(uint64_t id, uint64_t token, uint64_t addr, const void *data, uint64_t len)
{
	if (len == 0)
		return DOCA_SUCCESS;
	return softhw_mem_export_copy(id, token, addr, (void *)data, len, true);
}

doca_error_t rnic_recv_fill(const struct rnic_recv *r, const uint8_t *data, uint64_t len)
{
	uint64_t off = 0;

	if (len > r->bytes)
		return DOCA_ERROR_TOO_BIG;
	softhw_share_store_begin();
	for (uint32_t i = 0; i < r->num_sge && off < len; i++) {
		uint64_t take = len - off < r->sgl[i].len ? len - off : r->sgl[i].len;

		memcpy(r->sgl[i].addr, data + off, take);
		off += take;
	}
	softhw_share_store_end();
	return DOCA_SUCCESS;
}
