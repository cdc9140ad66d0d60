/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA-CM on the wire (a card with `wire = rocev2`), as Linux rdma_cm does it: the soft NIC's
 * IB CM (roce_cm.c) sends the REQ / REP with the application's QP in it (its QPN and starting
 * PSN) and the user's private data, that QP's packets go straight on the wire, and nothing of
 * ours travels beside them, so the peer may be Linux rdma_cm over rdma_rxe as well as softdoca.
 *   active: connect_addr_data (REQ) ...... REP: the QP is RTS, RTU -> ESTABLISHED
 *           (no QP on the id: CONNECT_RESPONSE; rdma_establish has nothing left to send)
 *   passive: CQE_REQUEST -> CONNECT_REQUEST (the REQ's data); rdma_accept -> REP (the QP's
 *            engine starts); RTU -> ESTABLISHED. rdma_reject -> REJ 28.
 * R_Keys are the wire's: an MR's rkey is the one the soft NIC's responder knows (mr.c), and
 * the peer's go in the RETH as they are (libibverbs' qp_wire).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/priv/dev_priv.h"
#include "rdmacm_int.h"
#include "softhw/base/sdk_log.h"
#include "softhw/softhw.h"

SDK_LOG_REGISTER(RDMACM_WIRE);

bool cm_card_wire(void)
{
	const struct softhw_function *fn = g.dev->devinfo->fn;

	return g.nic->connect_addr_data != NULL && fn != NULL && fn->card != NULL &&
	       fn->card->wire == SOFTHW_WIRE_ROCEV2 && fn->has_ipv4;
}

/* A connection event with what the peer's CM message said (its private data at the IB CM's size). */
static void event_info(struct cm_id *id, enum rdma_cm_event_type type, int status, uint8_t full_len)
{
	struct softhw_rnic_cm_info info;
	struct cm_event *ev = cm_event_new(id, type, status);

	if (ev == NULL) {
		SDK_LOG_ERR("librdmacm: out of memory: event %s lost", rdma_event_str(type));
		return;
	}
	if (id->qp != NULL && g.nic->qp_cm_info(id->qp, &info) == DOCA_SUCCESS) {
		/* depths as the receiving consumer sees them: swapped (rocev2.md §4.9) */
		ev->pub.param.conn.responder_resources = info.initiator_depth;
		ev->pub.param.conn.initiator_depth = info.responder_resources;
		ev->pub.param.conn.retry_count = info.retry_count;
		ev->pub.param.conn.rnr_retry_count = info.rnr_retry_count;
		ev->pub.param.conn.qp_num = info.qpn;
		memcpy(ev->pdata, info.pdata, info.pdata_len < full_len ? info.pdata_len : full_len);
	}
	ev->pub.param.conn.private_data_len = full_len;
	cm_event_queue(ev);
}

/* conn_param as the soft NIC's CM carries it (RDMA_MAX_*: the device's; the CM lowers it to what it serves). */
static struct softhw_rnic_cm_param cm_param(const struct rdma_conn_param *p, struct softhw_rnic_qp *data)
{
	struct softhw_rnic_cm_param c = {.data = data};

	if (p == NULL)
		return c;
	if (p->private_data != NULL) {
		c.private_data = p->private_data;
		c.private_data_len = p->private_data_len;
	}
	c.depths = true;
	c.qpn = data == NULL ? p->qp_num : 0;
	c.responder_resources = p->responder_resources == RDMA_MAX_RESP_RES ? CM_DEV_MAX_RD : p->responder_resources;
	c.initiator_depth = p->initiator_depth == RDMA_MAX_INIT_DEPTH ? CM_DEV_MAX_RD : p->initiator_depth;
	c.counts = true; /* the REQ / REP carry the application's, as Linux's */
	c.retry_count = p->retry_count > 7 ? 7 : p->retry_count;
	c.rnr_retry_count = p->rnr_retry_count > 7 ? 7 : p->rnr_retry_count;
	return c;
}

int cm_wire_connect(struct cm_id *id, const struct rdma_conn_param *param)
{
	struct softhw_rnic_cm_param p = cm_param(param, id->pub.qp != NULL ? g.ibv->qp_wire(id->pub.qp) : NULL);
	const struct sockaddr *dst = &id->pub.route.addr.dst_addr;

	p.src_port = cm_port_of(&id->pub.route.addr.src_addr); /* in the RDMA-CM header, as Linux */
	doca_error_t err;
	int e = cm_ep_get(id);

	if (e != 0)
		return e;
	id->state = ST_DIALING;
	err = g.nic->connect_addr_data(id->ep->ep, dst,
				       dst->sa_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6),
				       id, &p, &id->qp);
	if (err != DOCA_SUCCESS) {
		id->state = ST_ROUTE;
		id->qp = NULL;
		SDK_LOG_ERR("rdma_connect: the soft NIC refused: %s", doca_error_get_descr(err));
		return err == DOCA_ERROR_NO_MEMORY ? ENOMEM : EINVAL;
	}
	return 0;
}

void cm_wire_request(struct cm_ep *ep, struct softhw_rnic_qp *qp)
{
	struct softhw_rnic_cm_info info;
	struct cm_id *l, *id;
	struct cm_event *ev;

	if (g.nic->qp_cm_info(qp, &info) != DOCA_SUCCESS) {
		(void)g.nic->qp_reject(qp);
		g.nic->qp_destroy(qp);
		return;
	}
	id = cm_request_id(ep, qp, ST_REQ_RCVD);
	if (id == NULL)
		return;
	l = id->listener;
	/* our address is the one the peer asked for, on the listener's port; its own from the IP header */
	cm_sockaddr_copy(&id->pub.route.addr.src_storage, (const struct sockaddr *)&info.local);
	cm_set_port(&id->pub.route.addr.src_addr, l->nic_port);
	(void)g.nic->qp_peer_addr(qp, &id->pub.route.addr.dst_storage);
	id->req_resp_res = info.responder_resources;
	id->req_init_depth = info.initiator_depth;
	ev = cm_event_new(id, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
	if (ev == NULL)
		return;
	ev->pub.listen_id = &l->pub;
	ev->counted = l; /* as librdmacm: the request counts against the listener */
	ev->pub.param.conn.responder_resources = info.initiator_depth;
	ev->pub.param.conn.initiator_depth = info.responder_resources;
	ev->pub.param.conn.retry_count = info.retry_count;
	ev->pub.param.conn.rnr_retry_count = info.rnr_retry_count;
	ev->pub.param.conn.qp_num = info.qpn;
	memcpy(ev->pdata, info.pdata, CM_REQ_PDATA);
	ev->pub.param.conn.private_data_len = CM_REQ_PDATA;
	cm_event_queue(ev);
}

bool cm_wire_cqe(struct cm_id *id, const struct softhw_rnic_cqe *cqe)
{
	struct softhw_rnic_cm_info info;
	struct cm_event *ev;

	if (cqe->kind == SOFTHW_RNIC_CQE_ESTABLISHED) {
		if (id->state == ST_DIALING && id->pub.qp == NULL) {
			id->state = ST_RESPONSE; /* the RTU is sent already: rdma_establish only moves the state */
			id->rtu_sent = true;
			event_info(id, RDMA_CM_EVENT_CONNECT_RESPONSE, 0, CM_REP_PDATA);
		} else if (id->state == ST_DIALING || id->state == ST_REP_SENT) {
			if (id->pub.qp != NULL)
				g.ibv->qp_up(id->pub.qp, g.nic->qp_cm_info(id->qp, &info) == DOCA_SUCCESS ? info.qpn : 0);
			event_info(id, RDMA_CM_EVENT_ESTABLISHED, 0, id->state == ST_DIALING ? CM_REP_PDATA : 0);
			id->state = ST_CONNECTED;
		}
		return true;
	}
	if (cqe->kind == SOFTHW_RNIC_CQE_FAILED && (id->state == ST_DIALING || id->state == ST_REP_SENT) &&
	    cqe->status != DOCA_ERROR_TIME_OUT && g.nic->qp_cm_info(id->qp, &info) == DOCA_SUCCESS &&
	    info.rej_reason != 0) {
		if (id->state == ST_REP_SENT && id->pub.qp != NULL)
			g.ibv->qp_disconnect(id->pub.qp); /* as rdma_cm on a REJ: the QP goes to error */
		id->state = ST_REJECTED; /* Linux reports the REJ's reason as the status */
		event_info(id, RDMA_CM_EVENT_REJECTED, info.rej_reason, CM_REJ_PDATA);
		return true;
	}
	if (cqe->kind == SOFTHW_RNIC_CQE_FAILED && id->state == ST_REP_SENT && cqe->status == DOCA_ERROR_TIME_OUT) {
		/* our REP's resends ran out with no RTU or packet: Linux's IB_CM_REP_ERROR */
		if (id->pub.qp != NULL)
			g.ibv->qp_disconnect(id->pub.qp);
		id->state = ST_REJECTED;
		ev = cm_event_new(id, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT);
		if (ev != NULL)
			cm_event_queue(ev);
		return true;
	}
	return false; /* as any connection (conn.c) */
}

int cm_wire_accept(struct cm_id *id, const struct rdma_conn_param *param, uint8_t resp_res, uint8_t init_depth)
{
	struct softhw_rnic_cm_param p = cm_param(param, id->pub.qp != NULL ? g.ibv->qp_wire(id->pub.qp) : NULL);
	doca_error_t err;

	p.depths = true; /* rdma_accept worked them out from the request */
	p.responder_resources = resp_res;
	p.initiator_depth = init_depth;
	err = g.nic->qp_accept_data(id->qp, id, &p);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("rdma_accept: the soft NIC refused: %s", doca_error_get_descr(err));
		return EINVAL;
	}
	if (id->pub.qp != NULL) { /* as rdma_cm's accept: the QP is RTS before the REP leaves */
		struct softhw_rnic_cm_info info;

		g.ibv->qp_up(id->pub.qp, g.nic->qp_cm_info(id->qp, &info) == DOCA_SUCCESS ? info.qpn : 0);
	}
	id->state = ST_REP_SENT;
	return 0;
}

int cm_wire_reject(struct cm_id *id, const void *private_data, uint8_t len)
{
	if (g.nic->qp_reject_data(id->qp, private_data, len) != DOCA_SUCCESS)
		return EINVAL;
	id->state = ST_REJECTED;
	return 0;
}
