/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connections: the soft NIC endpoints ids use, the IB CM messages (REQ, REP, REJ, RTU) on the
 * qp, what each NIC completion means for an id (see rdmacm_int.h for the sequence), and
 * rdma_connect / accept / reject / establish / disconnect.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/priv/dev_priv.h"
#include "rdmacm_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMACM_CONN);

static void ep_notify(void *arg)
{
	(void)arg;
	cm_ring_all();
}

static int post_recv(struct cm_ep *ep, uint32_t i)
{
	struct softhw_rnic_sge sge = {.addr = &ep->recv[i], .len = sizeof(ep->recv[i])};

	return g.nic->ep_post_recv(ep->ep, i, &sge, 1) == DOCA_SUCCESS ? 0 : EIO;
}

/* The id's own endpoint (listener, active id), made on first use; under g.lock. */
int cm_ep_get(struct cm_id *id)
{
	struct softhw_rnic_ep_attr attr = {
		.fn = g.dev->devinfo->fn,
		.max_qps = 4096,
		.max_recv_sge = 1,
		.max_send_sge = 1,
		.max_msg_size = sizeof(struct cm_msg),
		.rnr_retry_count = 7,
		.notify = ep_notify,
	};
	struct cm_ep *ep;
	doca_error_t err;

	if (id->ep != NULL)
		return 0;
	ep = calloc(1, sizeof(*ep));
	if (ep == NULL)
		return ENOMEM;
	err = g.nic->ep_create(&attr, &ep->ep);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("librdmacm: the soft NIC could not create an endpoint: %s", doca_error_get_descr(err));
		free(ep);
		return err == DOCA_ERROR_NO_MEMORY ? ENOMEM : EIO;
	}
	for (uint32_t i = 0; i < CM_RECVS; i++)
		if (post_recv(ep, i) != 0) {
			g.nic->ep_destroy(ep->ep);
			free(ep);
			return EIO;
		}
	ep->refs = 1;
	ep->next = g.eps;
	g.eps = ep;
	id->ep = ep;
	if (g.nic->ep_arm(ep->ep))
		cm_ring_all();
	return 0;
}

void cm_ep_put(struct cm_ep *ep)
{
	if (--ep->refs > 0)
		return;
	for (struct cm_ep **pp = &g.eps; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ep) {
			*pp = ep->next;
			break;
		}
	g.nic->ep_destroy(ep->ep);
	while (ep->sends != NULL) {
		struct cm_send *s = ep->sends;

		ep->sends = s->next;
		free(s);
	}
	free(ep);
}

/* Posts one message on the id's qp (its memory lives until the send completes). */
int cm_send(struct cm_id *id, const struct cm_msg *msg)
{
	struct cm_send *s = malloc(sizeof(*s));
	struct softhw_rnic_sge sge;
	/* a connection that ended refuses it at once: the caller reports that (ENOTCONN) */
	struct softhw_rnic_wr wr = {.op = SOFTHW_RNIC_OP_SEND, .sgl = &sge, .num_sge = 1, .refuse_in_error = true};
	doca_error_t err;

	if (s == NULL)
		return ENOMEM;
	s->msg = *msg;
	s->msg.magic = CM_MSG_MAGIC;
	sge = (struct softhw_rnic_sge){.addr = &s->msg, .len = sizeof(s->msg)};
	wr.wr_id = (uint64_t)(uintptr_t)s;
	err = g.nic->qp_post(id->qp, &wr);
	if (err != DOCA_SUCCESS) {
		free(s);
		return ENOTCONN;
	}
	s->next = id->ep->sends;
	id->ep->sends = s;
	id->sends++;
	return 0;
}

static void send_done(struct cm_ep *ep, struct cm_id *id, uint64_t wr_id)
{
	for (struct cm_send **pp = &ep->sends; *pp != NULL; pp = &(*pp)->next)
		if ((uintptr_t)*pp == (uintptr_t)wr_id) {
			struct cm_send *s = *pp;

			*pp = s->next;
			free(s);
			if (id != NULL && id->sends > 0)
				id->sends--;
			return;
		}
}

/* Waits (pumping, under g.lock) until the id's messages left, at most timeout_ms. */
void cm_wait_sends(struct cm_id *id, int timeout_ms)
{
	struct pollfd p = {.fd = g.wake_fd, .events = POLLIN};

	for (int waited = 0; id->sends > 0 && waited < timeout_ms; waited += 20) {
		uint64_t v;

		cm_pump();
		if (id->sends == 0)
			break;
		cm_arm_all_or_pump();
		if (id->sends == 0)
			break;
		pthread_mutex_unlock(&g.lock);
		/* the NIC rings wake_fd; the 20 ms bound only re-checks if another waiter took the ring */
		if (poll(&p, 1, 20) == 1)
			(void)!read(g.wake_fd, &v, sizeof(v));
		pthread_mutex_lock(&g.lock);
	}
}

/* Depths as the receiving consumer sees them: swapped (rocev2.md §4.9). */
static void conn_param_from(struct rdma_conn_param *p, const struct cm_msg *m)
{
	p->responder_resources = m->initiator_depth;
	p->initiator_depth = m->responder_resources;
	p->flow_control = m->flow_control;
	p->retry_count = m->retry_count;
	p->rnr_retry_count = m->rnr_retry_count;
	p->srq = m->srq;
	p->qp_num = m->qp_num;
}

/* rdma_connect's and rdma_accept's depths, as rdma-core checks them: the device's at most, or RDMA_MAX_* */
static bool depths_ok(const struct rdma_conn_param *p)
{
	return p == NULL || ((p->responder_resources == RDMA_MAX_RESP_RES || p->responder_resources <= CM_DEV_MAX_RD) &&
			     (p->initiator_depth == RDMA_MAX_INIT_DEPTH || p->initiator_depth <= CM_DEV_MAX_RD));
}

static void msg_from_param(struct cm_msg *m, const struct rdma_conn_param *p, uint8_t max_pdata)
{
	if (p == NULL) {
		m->responder_resources = m->initiator_depth = CM_DEV_MAX_RD;
		m->retry_count = m->rnr_retry_count = 7;
		return;
	}
	m->responder_resources = p->responder_resources == RDMA_MAX_RESP_RES ? CM_DEV_MAX_RD : p->responder_resources;
	m->initiator_depth = p->initiator_depth == RDMA_MAX_INIT_DEPTH ? CM_DEV_MAX_RD : p->initiator_depth;
	m->flow_control = p->flow_control;
	m->retry_count = p->retry_count;
	m->rnr_retry_count = p->rnr_retry_count > 7 ? 7 : p->rnr_retry_count;
	m->srq = p->srq;
	m->qp_num = p->qp_num & 0xffffff;
	if (p->private_data != NULL && p->private_data_len > 0) {
		m->pdata_len = p->private_data_len > max_pdata ? max_pdata : p->private_data_len;
		memcpy(m->pdata, p->private_data, m->pdata_len);
	}
}

/* Queues a connection event carrying the message's private data at its full IB CM size. */
static void event_msg(struct cm_id *id, enum rdma_cm_event_type type, int status, const struct cm_msg *m,
		      uint8_t full_len)
{
	struct cm_event *ev = cm_event_new(id, type, status);

	if (ev == NULL) {
		SDK_LOG_ERR("librdmacm: out of memory: event %s lost", rdma_event_str(type));
		return;
	}
	if (m != NULL) {
		conn_param_from(&ev->pub.param.conn, m);
		memcpy(ev->pdata, m->pdata, m->pdata_len < full_len ? m->pdata_len : full_len);
	}
	ev->pub.param.conn.private_data_len = full_len;
	cm_event_queue(ev);
}

/* The peer is gone: what the id's state makes of it. */
static void peer_gone(struct cm_id *id, doca_error_t status)
{
	switch (id->state) {
	case ST_DIALING:
		if (status == DOCA_ERROR_TIME_OUT) {
			id->state = ST_REJECTED;
			event_msg(id, RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT, NULL, 0);
		} else { /* nobody listens there: the IB CM answers REJ "invalid service ID" */
			id->state = ST_REJECTED;
			event_msg(id, RDMA_CM_EVENT_REJECTED, CM_REJ_NO_LISTENER, NULL, CM_REJ_PDATA);
		}
		break;
	case ST_REQ_SENT:
	case ST_REQ_RCVD:
		id->state = ST_REJECTED;
		event_msg(id, RDMA_CM_EVENT_REJECTED, CM_REJ_CONSUMER, NULL, CM_REJ_PDATA);
		break;
	case ST_RESPONSE:
	case ST_REP_SENT:
	case ST_CONNECTED:
		id->state = ST_DISCONNECTED;
		if (id->pub.qp != NULL) /* as Linux on a DREQ: the QP goes to error, its work is flushed */
			g.ibv->qp_disconnect(id->pub.qp);
		event_msg(id, RDMA_CM_EVENT_DISCONNECTED, 0, NULL, 0);
		break;
	case ST_REQ_WAIT: /* the application never heard of it */
		id->state = ST_REJECTED;
		id->orphan = true;
		break;
	default:
		break;
	}
}

/*
 * A passive id, in state st, for the NIC connection request qp to the listener of ep, linked
 * into the library's ids; NULL (the request refused and destroyed) without a listener or memory.
 */
struct cm_id *cm_request_id(struct cm_ep *ep, struct softhw_rnic_qp *qp, enum cm_state st)
{
	struct cm_id *l = NULL, *id;

	for (struct cm_id *i = g.ids; i != NULL; i = i->next)
		if (i->ep == ep && i->state == ST_LISTEN)
			l = i;
	id = l != NULL ? calloc(1, sizeof(*id)) : NULL;
	if (id == NULL) {
		(void)g.nic->qp_reject(qp);
		g.nic->qp_destroy(qp);
		return NULL;
	}
	id->pub.verbs = l->pub.verbs;
	id->pub.pd = l->pub.pd;
	id->pub.port_num = l->pub.port_num;
	id->pub.channel = l->pub.channel;
	id->pub.context = l->pub.context;
	id->pub.ps = l->pub.ps;
	id->pub.qp_type = l->pub.qp_type;
	id->state = st;
	id->ep = ep;
	ep->refs++;
	id->qp = qp;
	id->listener = l;
	id->next = g.ids;
	g.ids = id;
	return id;
}

/* A passive id for a NIC connection request to a listener. */
static void new_request(struct cm_ep *ep, struct softhw_rnic_qp *qp)
{
	struct cm_id *id = cm_request_id(ep, qp, ST_REQ_WAIT);

	if (id == NULL)
		return;
	if (g.nic->qp_accept(qp, id, NULL, 0) != DOCA_SUCCESS) {
		id->state = ST_REJECTED;
		id->orphan = true;
	}
}

/*
 * Frees the passive ids the application never heard of and that are dead (their peer left, or
 * their listener went before the request came). Not during cm_pump: it walks the endpoints.
 */
void cm_reap_orphans(void)
{
	for (struct cm_id **pp = &g.ids; *pp != NULL;) {
		struct cm_id *id = *pp;

		if (!id->orphan || id->known) {
			pp = &id->next;
			continue;
		}
		*pp = id->next;
		cm_drop_queued(id);
		if (id->qp != NULL)
			g.nic->qp_destroy(id->qp);
		cm_ep_put(id->ep);
		free(id);
	}
}

static void on_msg(struct cm_id *id, const struct cm_msg *m)
{
	if (m->magic != CM_MSG_MAGIC) {
		SDK_LOG_ERR("librdmacm: a message on a connecting qp is not ours; ignored");
		return;
	}
	switch (m->type) {
	case CM_MSG_REQ: {
		struct cm_event *ev;

		if (id->state != ST_REQ_WAIT)
			return;
		if (id->listener == NULL) { /* the listener is gone: nobody to tell */
			id->state = ST_REJECTED;
			id->orphan = true;
			return;
		}
		/* our address is the one the peer asked for, on the listener's port */
		cm_sockaddr_copy(&id->pub.route.addr.src_storage, (const struct sockaddr *)&m->dst);
		cm_set_port(&id->pub.route.addr.src_addr, id->listener->nic_port);
		cm_sockaddr_copy(&id->pub.route.addr.dst_storage, (const struct sockaddr *)&m->src);
		id->req_resp_res = m->responder_resources;
		id->req_init_depth = m->initiator_depth;
		if (m->verbs_len > 0 && m->verbs_len <= SOFT_IBV_INFO_MAX) {
			free(id->peer_verbs);
			id->peer_verbs = malloc(m->verbs_len);
			if (id->peer_verbs != NULL) {
				memcpy(id->peer_verbs, m->verbs, m->verbs_len);
				id->peer_verbs_len = m->verbs_len;
			}
		}
		id->pub.channel = id->listener->pub.channel;
		id->state = ST_REQ_RCVD;
		ev = cm_event_new(id, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
		if (ev == NULL)
			return;
		ev->pub.listen_id = &id->listener->pub;
		ev->counted = id->listener; /* as librdmacm: the request counts against the listener */
		conn_param_from(&ev->pub.param.conn, m);
		memcpy(ev->pdata, m->pdata, m->pdata_len < CM_REQ_PDATA ? m->pdata_len : CM_REQ_PDATA);
		ev->pub.param.conn.private_data_len = CM_REQ_PDATA;
		cm_event_queue(ev);
		return;
	}
	case CM_MSG_REP:
		if (id->state != ST_REQ_SENT)
			return;
		if (id->pub.qp != NULL) { /* a QP on the id: librdmacm finishes the handshake itself */
			struct cm_msg rtu = {.type = CM_MSG_RTU};

			if (m->verbs_len == 0 || m->verbs_len > SOFT_IBV_INFO_MAX ||
			    g.ibv->qp_connect(id->pub.qp, m->verbs, m->verbs_len) != 0) {
				SDK_LOG_ERR("librdmacm: the peer's reply does not name a QP (is it softdoca's librdmacm with a QP?)");
				id->state = ST_REJECTED;
				event_msg(id, RDMA_CM_EVENT_CONNECT_ERROR, -EINVAL, NULL, 0);
				return;
			}
			(void)cm_send(id, &rtu);
			id->state = ST_CONNECTED;
			event_msg(id, RDMA_CM_EVENT_ESTABLISHED, 0, m, CM_REP_PDATA);
		} else {
			id->state = ST_RESPONSE;
			event_msg(id, RDMA_CM_EVENT_CONNECT_RESPONSE, 0, m, CM_REP_PDATA);
		}
		return;
	case CM_MSG_REJ:
		if (id->state != ST_REQ_SENT)
			return;
		id->state = ST_REJECTED;
		event_msg(id, RDMA_CM_EVENT_REJECTED, m->status, m, CM_REJ_PDATA);
		return;
	case CM_MSG_RTU:
		if (id->state != ST_REP_SENT)
			return;
		id->state = ST_CONNECTED;
		event_msg(id, RDMA_CM_EVENT_ESTABLISHED, 0, NULL, 0);
		return;
	default:
		return;
	}
}

void cm_cqe(struct cm_ep *ep, const struct softhw_rnic_cqe *cqe)
{
	struct cm_id *id = cqe->qp_user;

	if (cqe->kind == SOFTHW_RNIC_CQE_REQUEST) {
		if (g.wire)
			cm_wire_request(ep, cqe->qp);
		else
			new_request(ep, cqe->qp);
		return;
	}
	if (cqe->kind == SOFTHW_RNIC_CQE_WR && cqe->op == SOFTHW_RNIC_OP_RECV) {
		uint32_t i = (uint32_t)cqe->wr_id;

		if (i >= CM_RECVS)
			return;
		if (cqe->status == DOCA_SUCCESS && id != NULL && cm_valid_id(id) &&
		    cqe->len >= offsetof(struct cm_msg, pdata))
			on_msg(id, &ep->recv[i]);
		if (cqe->status != DOCA_ERROR_SHUTDOWN && post_recv(ep, i) != 0)
			SDK_LOG_ERR("librdmacm: cannot post a receive again; this endpoint hears less");
		return;
	}
	if (id == NULL || !cm_valid_id(id))
		return;
	if (g.wire && cm_wire_cqe(id, cqe))
		return;
	switch (cqe->kind) {
	case SOFTHW_RNIC_CQE_WR:
		send_done(ep, id, cqe->wr_id);
		break;
	case SOFTHW_RNIC_CQE_ESTABLISHED:
		if (id->state == ST_DIALING && id->req != NULL) {
			id->state = ST_REQ_SENT;
			if (cm_send(id, id->req) != 0)
				peer_gone(id, DOCA_ERROR_CONNECTION_ABORTED);
			free(id->req);
			id->req = NULL;
		}
		break;
	case SOFTHW_RNIC_CQE_FAILED:
	case SOFTHW_RNIC_CQE_DISCONNECTED:
		peer_gone(id, cqe->status);
		break;
	default:
		break;
	}
}

/* The id's QP's connect info into a REQ or REP. */
static int verbs_info(struct cm_id *id, struct cm_msg *m)
{
	size_t len = 0;
	int e = g.ibv->qp_info(id->pub.qp, m->verbs, sizeof(m->verbs), &len);

	if (e != 0)
		SDK_LOG_ERR("librdmacm: the QP's connect info does not fit (more than %d MRs with remote access?)",
			    SOFT_IBV_PEER_MRS);
	m->verbs_len = (uint16_t)len;
	return e;
}

int rdma_connect(struct rdma_cm_id *pub, struct rdma_conn_param *param)
{
	struct cm_id *id = (struct cm_id *)pub;
	struct cm_msg *req;
	doca_error_t err;
	int e;

	if (id == NULL)
		return cm_fail(EINVAL);
	if (param == NULL && id->pub.qp == NULL)
		return cm_fail(EINVAL);
	if (param != NULL && param->private_data_len > CM_REQ_PDATA)
		return cm_fail(EINVAL);
	if (!depths_ok(param))
		return cm_fail(EINVAL);
	pthread_mutex_lock(&g.lock);
	if (!cm_valid_id(id) || id->state != ST_ROUTE) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	if (g.wire) {
		e = cm_wire_connect(id, param);
		pthread_mutex_unlock(&g.lock);
		if (e != 0)
			return cm_fail(e);
		return id->sync_chan != NULL ? cm_sync_wait(id, RDMA_CM_EVENT_ESTABLISHED) : 0;
	}
	req = calloc(1, sizeof(*req));
	if (req == NULL) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(ENOMEM);
	}
	req->type = CM_MSG_REQ;
	msg_from_param(req, param, CM_REQ_PDATA);
	req->src = id->pub.route.addr.src_storage;
	req->dst = id->pub.route.addr.dst_storage;
	e = id->pub.qp != NULL ? verbs_info(id, req) : 0;
	if (e == 0)
		e = cm_ep_get(id);
	if (e != 0) {
		pthread_mutex_unlock(&g.lock);
		free(req);
		return cm_fail(e);
	}
	id->req = req;
	id->state = ST_DIALING;
	err = g.nic->connect_addr(id->ep->ep, &id->pub.route.addr.dst_addr,
				  id->pub.route.addr.dst_addr.sa_family == AF_INET ? sizeof(struct sockaddr_in)
										   : sizeof(struct sockaddr_in6),
				  id, &id->qp);
	if (err != DOCA_SUCCESS) {
		id->state = ST_ROUTE;
		id->req = NULL;
		id->qp = NULL;
		pthread_mutex_unlock(&g.lock);
		free(req);
		SDK_LOG_ERR("rdma_connect: the soft NIC refused: %s", doca_error_get_descr(err));
		return cm_fail(err == DOCA_ERROR_NO_MEMORY ? ENOMEM : EINVAL);
	}
	pthread_mutex_unlock(&g.lock);
	return id->sync_chan != NULL ? cm_sync_wait(id, RDMA_CM_EVENT_ESTABLISHED) : 0;
}

int rdma_accept(struct rdma_cm_id *pub, struct rdma_conn_param *param)
{
	struct cm_id *id = (struct cm_id *)pub;
	struct cm_msg rep = {.type = CM_MSG_REP};
	int e;

	if (id == NULL || (param == NULL && id->pub.qp == NULL) ||
	    (param != NULL && param->private_data_len > CM_REP_PDATA))
		return cm_fail(EINVAL);
	if (!depths_ok(param))
		return cm_fail(EINVAL);
	pthread_mutex_lock(&g.lock);
	if (!cm_valid_id(id) || id->state != ST_REQ_RCVD) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	msg_from_param(&rep, param, CM_REP_PDATA);
	/* "as much as the request asked for" (0xFF or no param): min(request, device) */
	if (param == NULL || param->responder_resources == RDMA_MAX_RESP_RES)
		rep.responder_resources = id->req_init_depth < CM_DEV_MAX_RD ? id->req_init_depth : CM_DEV_MAX_RD;
	if (param == NULL || param->initiator_depth == RDMA_MAX_INIT_DEPTH)
		rep.initiator_depth = id->req_resp_res < CM_DEV_MAX_RD ? id->req_resp_res : CM_DEV_MAX_RD;
	e = 0;
	if (g.wire) {
		e = cm_wire_accept(id, param, rep.responder_resources, rep.initiator_depth);
		pthread_mutex_unlock(&g.lock);
		if (e != 0)
			return cm_fail(e);
		return id->sync_chan != NULL ? cm_sync_wait(id, RDMA_CM_EVENT_ESTABLISHED) : 0;
	}
	if (id->pub.qp != NULL) {
		/* our QP connects to the peer's now; the REP tells the peer how to reach ours */
		if (id->peer_verbs == NULL || g.ibv->qp_connect(id->pub.qp, id->peer_verbs, id->peer_verbs_len) != 0) {
			SDK_LOG_ERR("rdma_accept: the request named no QP (the peer's id has none): the QP cannot connect");
			e = EINVAL;
		} else {
			e = verbs_info(id, &rep);
		}
	}
	if (e == 0)
		e = cm_send(id, &rep);
	if (e == 0)
		id->state = ST_REP_SENT;
	pthread_mutex_unlock(&g.lock);
	if (e != 0)
		return cm_fail(e);
	return id->sync_chan != NULL ? cm_sync_wait(id, RDMA_CM_EVENT_ESTABLISHED) : 0;
}

int rdma_reject(struct rdma_cm_id *pub, const void *private_data, uint8_t private_data_len)
{
	struct cm_id *id = (struct cm_id *)pub;
	struct cm_msg rej = {.type = CM_MSG_REJ, .status = CM_REJ_CONSUMER};
	int e;

	if (id == NULL || private_data_len > CM_REJ_PDATA || (private_data == NULL && private_data_len > 0))
		return cm_fail(EINVAL);
	pthread_mutex_lock(&g.lock);
	if (!cm_valid_id(id) || id->state != ST_REQ_RCVD) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	if (g.wire) { /* REJ 28 "consumer defined" from the soft NIC's CM, with the private data */
		e = cm_wire_reject(id, private_data, private_data_len);
		pthread_mutex_unlock(&g.lock);
		return e == 0 ? 0 : cm_fail(e);
	}
	rej.pdata_len = private_data_len;
	if (private_data_len > 0)
		memcpy(rej.pdata, private_data, private_data_len);
	e = cm_send(id, &rej);
	if (e == 0) {
		id->state = ST_REJECTED;
		cm_wait_sends(id, 5000); /* the REJ reaches the peer before the connection closes */
		(void)g.nic->qp_disconnect(id->qp);
	}
	pthread_mutex_unlock(&g.lock);
	return e == 0 ? 0 : cm_fail(e);
}

int rdma_establish(struct rdma_cm_id *pub)
{
	struct cm_id *id = (struct cm_id *)pub;
	struct cm_msg rtu = {.type = CM_MSG_RTU};
	int e;

	if (id == NULL)
		return cm_fail(EINVAL);
	pthread_mutex_lock(&g.lock);
	if (cm_valid_id(id) && g.wire && id->state == ST_DISCONNECTED && id->rtu_sent) {
		/* the RTU went with the REP, so the peer may have disconnected already: its event is queued */
		pthread_mutex_unlock(&g.lock);
		return 0;
	}
	if (!cm_valid_id(id) || id->state != ST_RESPONSE) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	e = g.wire ? 0 : cm_send(id, &rtu); /* on the wire the soft NIC's CM sent the RTU with the REP */
	if (e == 0)
		id->state = ST_CONNECTED;
	pthread_mutex_unlock(&g.lock);
	return e == 0 ? 0 : cm_fail(e);
}

int rdma_disconnect(struct rdma_cm_id *pub)
{
	struct cm_id *id = (struct cm_id *)pub;

	if (id == NULL)
		return cm_fail(EINVAL);
	pthread_mutex_lock(&g.lock);
	if (!cm_valid_id(id)) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	switch (id->state) {
	case ST_RESPONSE:
	case ST_REP_SENT:
	case ST_CONNECTED:
		cm_wait_sends(id, 2000); /* an RTU or REP just posted arrives before the close */
		(void)g.nic->qp_disconnect(id->qp);
		if (id->pub.qp != NULL)
			g.ibv->qp_disconnect(id->pub.qp); /* its work is flushed, as Linux moves it to error */
		id->state = ST_DISCONNECTED;
		/* Linux reports DISCONNECTED on this side too (DREQ / DREP) */
		event_msg(id, RDMA_CM_EVENT_DISCONNECTED, 0, NULL, 0);
		pthread_mutex_unlock(&g.lock);
		/* as librdmacm: a synchronous id takes its DISCONNECTED onto id->event */
		return id->sync_chan != NULL ? cm_sync_wait(id, RDMA_CM_EVENT_DISCONNECTED) : 0;
	case ST_DISCONNECTED: {
		/* the peer's DISCONNECTED, if a synchronous id has it still queued */
		bool queued = false;

		for (struct cm_event *ev = id->sync_chan != NULL ? ((struct cm_chan *)id->sync_chan)->head : NULL;
		     ev != NULL; ev = ev->next)
			queued |= ev->pub.id == &id->pub;
		pthread_mutex_unlock(&g.lock);
		return id->sync_chan != NULL && queued ? cm_sync_wait(id, RDMA_CM_EVENT_DISCONNECTED) : 0;
	}
	default:
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
}
