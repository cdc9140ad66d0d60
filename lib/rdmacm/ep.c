/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * QPs on ids and the rdma_create_ep family: the QP is a libibverbs QP of softdoca's
 * libibverbs (soft_ibv.h), connected when the REQ / REP carrying both sides' connect info
 * have crossed (conn.c). Synchronous ids (NULL channel) wait here for their own events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rdmacm_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMACM_EP);

/* 1 if the event on id->event counts against id itself (a request counts against its listener). */
uint32_t cm_sync_held(const struct cm_id *id)
{
	return id->pub.event != NULL && ((const struct cm_event *)id->pub.event)->counted == id ? 1 : 0;
}

/* The error an event with a status stands for, as librdmacm reports it; `none` without a status. */
static int event_errno(const struct rdma_cm_event *ev, int none)
{
	if (ev->event == RDMA_CM_EVENT_REJECTED)
		return ECONNREFUSED;
	return ev->status < 0 ? -ev->status : ev->status > 0 ? ev->status : none;
}

/* Acks the event a synchronous call left on id->event (under g.lock). */
void cm_sync_release(struct cm_id *id)
{
	if (id->pub.event != NULL)
		(void)cm_ack_locked((struct cm_event *)id->pub.event);
	id->pub.event = NULL;
}

/*
 * A synchronous call waits for its id's next event and leaves it on id->event, as librdmacm
 * does: its parameters and private data (the peer's, on a connect or accept) stay readable
 * there until the id's next synchronous call or rdma_destroy_id acks it. As librdmacm, only the
 * status decides: an event with one fails the call with that error (a rejection:
 * ECONNREFUSED); any other succeeds (rdma_connect of an id with no QP: CONNECT_RESPONSE, and
 * the program calls rdma_establish). `want` is what the log line expects.
 */
int cm_sync_wait(struct cm_id *id, enum rdma_cm_event_type want)
{
	struct rdma_cm_event *ev;

	pthread_mutex_lock(&g.lock);
	cm_sync_release(id);
	pthread_mutex_unlock(&g.lock);
	for (;;) {
		if (rdma_get_cm_event(id->sync_chan, &ev) != 0)
			return -1;
		if (ev->id == &id->pub)
			break;
		(void)rdma_ack_cm_event(ev);
	}
	id->pub.event = ev;
	if (ev->status == 0)
		return 0;
	SDK_LOG_ERR("librdmacm: synchronous id: %s (status %d) where %s was awaited", rdma_event_str(ev->event),
		    ev->status, rdma_event_str(want));
	return cm_fail(event_errno(ev, EIO));
}

/* rdma-core's defaults: a channel and a CQ each for receive and send, sized by the caps. */
static int make_cqs(struct rdma_cm_id *id, struct ibv_qp_init_attr *a)
{
	if (a->recv_cq == NULL) {
		id->recv_cq_channel = ibv_create_comp_channel(id->verbs);
		id->recv_cq = id->recv_cq_channel == NULL ? NULL :
			ibv_create_cq(id->verbs, a->cap.max_recv_wr > 0 ? (int)a->cap.max_recv_wr : 1, id,
				      id->recv_cq_channel, 0);
		if (id->recv_cq == NULL)
			return -1;
		a->recv_cq = id->recv_cq;
	}
	if (a->send_cq == NULL) {
		id->send_cq_channel = ibv_create_comp_channel(id->verbs);
		id->send_cq = id->send_cq_channel == NULL ? NULL :
			ibv_create_cq(id->verbs, a->cap.max_send_wr > 0 ? (int)a->cap.max_send_wr : 1, id,
				      id->send_cq_channel, 0);
		if (id->send_cq == NULL)
			return -1;
		a->send_cq = id->send_cq;
	}
	return 0;
}

static void drop_cqs(struct rdma_cm_id *id)
{
	if (id->recv_cq != NULL)
		(void)ibv_destroy_cq(id->recv_cq);
	if (id->recv_cq_channel != NULL)
		(void)ibv_destroy_comp_channel(id->recv_cq_channel);
	if (id->send_cq != NULL)
		(void)ibv_destroy_cq(id->send_cq);
	if (id->send_cq_channel != NULL)
		(void)ibv_destroy_comp_channel(id->send_cq_channel);
	id->recv_cq = id->send_cq = NULL;
	id->recv_cq_channel = id->send_cq_channel = NULL;
}

int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
{
	struct ibv_qp_init_attr a;

	if (id == NULL || qp_init_attr == NULL || id->verbs == NULL)
		return cm_fail(EINVAL);
	if (id->qp != NULL)
		return cm_fail(EEXIST);
	if (pd == NULL)
		pd = id->pd;
	if (pd == NULL || pd->context != id->verbs)
		return cm_fail(EINVAL);
	a = *qp_init_attr;
	a.qp_type = IBV_QPT_RC; /* as rdma-core: the id's port space decides (RDMA_PS_TCP) */
	if (make_cqs(id, &a) != 0) {
		int e = errno;

		drop_cqs(id);
		return cm_fail(e != 0 ? e : ENOMEM);
	}
	id->qp = ibv_create_qp(pd, &a);
	if (id->qp == NULL) {
		int e = errno;

		drop_cqs(id);
		return cm_fail(e);
	}
	g.ibv->qp_cm(id->qp);
	qp_init_attr->cap = a.cap;
	qp_init_attr->send_cq = a.send_cq;
	qp_init_attr->recv_cq = a.recv_cq;
	return 0;
}

int rdma_create_qp_ex(struct rdma_cm_id *id, struct ibv_qp_init_attr_ex *attr)
{
	struct ibv_qp_init_attr a;
	int r;

	if (attr == NULL || (attr->comp_mask & ~(uint32_t)(IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)) != 0) {
		SDK_LOG_ERR("rdma_create_qp_ex: only the PD and send_ops_flags may be given in comp_mask (0x%x)",
			    attr != NULL ? attr->comp_mask : 0);
		return cm_fail(EOPNOTSUPP);
	}
	a = soft_ibv_init_attr(attr);
	r = rdma_create_qp(id, (attr->comp_mask & IBV_QP_INIT_ATTR_PD) ? attr->pd : NULL, &a);
	if (r != 0)
		return r;
	attr->cap = a.cap;
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) { /* ibv_qp_to_qp_ex, ibv_wr_* */
		const struct soft_ibv_hooks *h = soft_ibv_hooks_of(id->qp->context);
		int err = h != NULL ? h->qp_enable_ex(id->qp, attr->send_ops_flags) : EOPNOTSUPP;

		if (err != 0) {
			rdma_destroy_qp(id);
			return cm_fail(err);
		}
	}
	return 0;
}

void rdma_destroy_qp(struct rdma_cm_id *id)
{
	if (id == NULL || id->qp == NULL)
		return;
	(void)ibv_destroy_qp(id->qp);
	id->qp = NULL;
	drop_cqs(id);
}

int rdma_create_ep(struct rdma_cm_id **out, struct rdma_addrinfo *res, struct ibv_pd *pd,
		   struct ibv_qp_init_attr *qp_init_attr)
{
	struct rdma_cm_id *id;
	struct cm_id *cid;

	if (out == NULL || res == NULL)
		return cm_fail(EINVAL);
	if (rdma_create_id(NULL, &id, NULL, (enum rdma_port_space)res->ai_port_space) != 0)
		return -1;
	cid = (struct cm_id *)id;
	if (res->ai_flags & RAI_PASSIVE) {
		if (rdma_bind_addr(id, res->ai_src_addr) != 0)
			goto fail;
		if (qp_init_attr != NULL) { /* rdma_get_request creates it on each new id */
			cid->ep_qp_attr = malloc(sizeof(*qp_init_attr));
			if (cid->ep_qp_attr == NULL)
				goto fail;
			*cid->ep_qp_attr = *qp_init_attr;
			cid->ep_pd = pd;
		}
	} else {
		if (rdma_resolve_addr(id, res->ai_src_addr, res->ai_dst_addr, 2000) != 0 ||
		    rdma_resolve_route(id, 2000) != 0)
			goto fail;
		if (qp_init_attr != NULL && rdma_create_qp(id, pd, qp_init_attr) != 0)
			goto fail;
	}
	*out = id;
	return 0;
fail: {
	int e = errno;

	rdma_destroy_ep(id);
	return cm_fail(e);
}
}

void rdma_destroy_ep(struct rdma_cm_id *id)
{
	if (id == NULL)
		return;
	rdma_destroy_qp(id);
	(void)rdma_destroy_id(id);
}

int rdma_get_request(struct rdma_cm_id *listen, struct rdma_cm_id **out)
{
	struct cm_id *l = (struct cm_id *)listen;
	struct rdma_event_channel *own;
	struct rdma_cm_event *ev;
	struct rdma_cm_id *id;

	if (l == NULL || out == NULL || l->sync_chan == NULL)
		return cm_fail(EINVAL);
	/* as librdmacm: an event that is no request (another id's on this channel, an error) fails
	 * the call and stays on listen->event until the next call or rdma_destroy_id acks it */
	pthread_mutex_lock(&g.lock);
	cm_sync_release(l);
	pthread_mutex_unlock(&g.lock);
	if (rdma_get_cm_event(l->sync_chan, &ev) != 0)
		return -1;
	if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST || ev->status != 0) {
		int e = event_errno(ev, EINVAL);

		SDK_LOG_ERR("rdma_get_request: %s (status %d) instead of a connect request; it is on listen->event",
			    rdma_event_str(ev->event), ev->status);
		l->pub.event = ev;
		return cm_fail(e);
	}
	id = ev->id;
	/* as rdma-core: the new id is synchronous too, on its own channel */
	own = rdma_create_event_channel();
	if (own == NULL || rdma_migrate_id(id, own) != 0) {
		int e = errno;

		if (own != NULL)
			rdma_destroy_event_channel(own);
		(void)rdma_ack_cm_event(ev);
		(void)rdma_reject(id, NULL, 0);
		(void)rdma_destroy_id(id);
		return cm_fail(e);
	}
	((struct cm_id *)id)->sync_chan = own;
	id->event = ev; /* the request (its private data) until rdma_accept or rdma_destroy_id acks it */
	if (l->ep_qp_attr != NULL) {
		struct ibv_qp_init_attr a = *l->ep_qp_attr;

		if (rdma_create_qp(id, l->ep_pd, &a) != 0) {
			int e = errno;

			(void)rdma_reject(id, NULL, 0);
			rdma_destroy_ep(id);
			return cm_fail(e);
		}
	}
	*out = id;
	return 0;
}
