/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA-CM: a listener per (ep, port) (the connection's, listen.c), a client qp that dials its
 * peer's address, a server qp per request that the owner accepts or rejects.
 */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "softhw/rnic/rnic_int.h"

doca_error_t rnic_cm_listen(struct softhw_rnic_ep *ep, uint16_t port)
{
	return rnic_paths[rnic_conn_choose(rnic_ep_of(ep))]->cm_listen(rnic_ep_of(ep), port);
}

doca_error_t rnic_cm_unlisten(struct softhw_rnic_ep *ep, uint16_t port)
{
	return rnic_paths[rnic_conn_choose(rnic_ep_of(ep))]->cm_unlisten(rnic_ep_of(ep), port);
}

/*
 * The soft card's link-local IPv6 addresses (docs/device-model.md) exist only in the model:
 * no interface carries them, and without a scope they are unreachable. A peer dialled at one
 * of them is on this host's soft card, whose wire is loopback.
 */
static void soft_link_local_to_loopback(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	const struct softhw_model *model;
	doca_error_t err;

	if (ss->ss_family != AF_INET6 || !IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr) || sin6->sin6_scope_id != 0)
		return;
	model = softhw_model_get(&err);
	if (model == NULL)
		return;
	for (uint32_t i = 0; i < softhw_model_num_functions(model); i++) {
		const struct softhw_function *fn = softhw_model_function(model, i);

		if (fn->has_ipv6 && memcmp(fn->ipv6, &sin6->sin6_addr, 16) == 0) {
			sin6->sin6_addr = in6addr_loopback;
			return;
		}
	}
}

/* The connection of ep's qps names QPNs on the wire: its CM messages may describe another qp. */
static bool cm_carries_data(const struct rnic_ep *ep)
{
	return rnic_paths[rnic_conn_choose(ep)]->wire_qpn != NULL;
}

/* RDMA-CM on the wire: `data` may stand for a connection qp of ep (see rnic.h). */
static doca_error_t data_check(const struct rnic_ep *ep, struct rnic_qp *data)
{
	doca_error_t err = DOCA_SUCCESS;

	if (!cm_carries_data(ep))
		return DOCA_ERROR_NOT_SUPPORTED; /* the stream's handshake carries no QPN */
	softhw_bias_lock(&data->lock);
	if (data->conn != rnic_conn_choose(ep) || data->ep->attr.fn != ep->attr.fn || data->cm || data->dead)
		err = DOCA_ERROR_INVALID_VALUE;
	else if (data->state != QP_IDLE || data->has_peer)
		err = DOCA_ERROR_BAD_STATE;
	softhw_bias_unlock(&data->lock);
	return err;
}

/* qp lock held: what the qp's IB CM message is to say (RDMA-CM on the wire). */
static void cm_param_take(struct rnic_qp *qp, const struct softhw_rnic_cm_param *p, uint8_t max_pdata)
{
	qp->cm_data = p->data != NULL ? rnic_qp_of(p->data) : NULL;
	qp->cm_depths = p->depths;
	qp->cm_resp_res = p->responder_resources;
	qp->cm_init_depth = p->initiator_depth;
	qp->cm_qpn = p->qpn & 0xffffff;
	qp->cm_src_port = p->src_port;
	qp->cm_counts = p->counts;
	qp->cm_retry = p->retry_count > 7 ? 7 : p->retry_count;
	qp->cm_rnr_retry = p->rnr_retry_count > 7 ? 7 : p->rnr_retry_count;
	qp->cm_pdata_len = p->private_data == NULL ? 0 : p->private_data_len > max_pdata ? max_pdata : p->private_data_len;
	if (qp->cm_pdata_len > 0)
		memcpy(qp->cm_pdata, p->private_data, qp->cm_pdata_len);
}

static doca_error_t cm_connect(struct softhw_rnic_ep *e, const struct sockaddr *addr, socklen_t addr_len, void *user,
			       const struct softhw_rnic_cm_param *p, struct softhw_rnic_qp **out)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	struct rnic_qp *qp, *data = p != NULL && p->data != NULL ? rnic_qp_of(p->data) : NULL;

	if (addr == NULL || out == NULL || addr_len > sizeof(struct sockaddr_storage) ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6))
		return DOCA_ERROR_INVALID_VALUE;
	if (data != NULL) {
		doca_error_t err = data_check(ep, data);

		if (err != DOCA_SUCCESS)
			return err;
	}
	qp = rnic_qp_new(ep, user);
	if (qp == NULL)
		return DOCA_ERROR_NO_MEMORY;
	softhw_bias_lock(&qp->lock);
	qp->cm = true;
	__atomic_fetch_add(&ep->cm_qps, 1, __ATOMIC_RELEASE);
	if (p != NULL)
		cm_param_take(qp, p, 56); /* the REQ's room after the RDMA-CM header */
	qp->dialer = true;
	memset(&qp->peer_addr, 0, sizeof(qp->peer_addr));
	memcpy(&qp->peer_addr, addr, addr_len);
	soft_link_local_to_loopback(&qp->peer_addr);
	qp->state = QP_DIALING;
	qp->deadline = rnic_now_ms() + ep->attr.cm_timeout_ms;
	softhw_bias_unlock(&qp->lock);
	pthread_mutex_lock(&rnic_nic.lock);
	qp->next_ctl = rnic_nic.dials;
	rnic_nic.dials = qp;
	pthread_mutex_unlock(&rnic_nic.lock);
	rnic_nic_kick();
	*out = (struct softhw_rnic_qp *)qp;
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_connect(struct softhw_rnic_ep *e, const struct sockaddr *addr, socklen_t addr_len, void *user,
			     struct softhw_rnic_qp **out)
{
	return cm_connect(e, addr, addr_len, user, NULL, out);
}

doca_error_t rnic_cm_connect_data(struct softhw_rnic_ep *e, const struct sockaddr *addr, socklen_t addr_len, void *user,
				  const struct softhw_rnic_cm_param *p, struct softhw_rnic_qp **out)
{
	if (p == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!cm_carries_data(rnic_ep_of(e)))
		return DOCA_ERROR_NOT_SUPPORTED;
	return cm_connect(e, addr, addr_len, user, p, out);
}

static doca_error_t cm_accept(struct rnic_qp *qp, void *user, const struct softhw_rnic_cm_param *p)
{
	struct rnic_qp *data = p->data != NULL ? rnic_qp_of(p->data) : NULL;

	if (data != NULL) {
		doca_error_t err = data_check(qp->ep, data);

		if (err != DOCA_SUCCESS)
			return err;
	}
	softhw_bias_lock(&qp->lock);
	if (qp->state != QP_REQUEST) {
		softhw_bias_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	qp->user = user;
	/* carried where the wire has room for it (RoCEv2's REP; the stream has none) */
	cm_param_take(qp, p, sizeof(qp->cm_pdata));
	rnic_conn_of(qp)->answer(qp, DOCA_SUCCESS);
	if (qp->state == QP_REQUEST) /* else the path establishes it later (RoCEv2: on the RTU) */
		rnic_qp_established(qp);
	softhw_bias_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_accept(struct softhw_rnic_qp *q, void *user, const void *private_data, uint8_t len)
{
	struct softhw_rnic_cm_param p = {.private_data = private_data, .private_data_len = len};

	return cm_accept(rnic_qp_of(q), user, &p);
}

doca_error_t rnic_cm_accept_data(struct softhw_rnic_qp *q, void *user, const struct softhw_rnic_cm_param *p)
{
	if (p == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!cm_carries_data(rnic_qp_of(q)->ep))
		return DOCA_ERROR_NOT_SUPPORTED;
	return cm_accept(rnic_qp_of(q), user, p);
}

doca_error_t rnic_cm_info(const struct softhw_rnic_qp *q, struct softhw_rnic_cm_info *info)
{
	struct rnic_qp *qp = (struct rnic_qp *)q;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	softhw_bias_lock(&qp->lock);
	if (qp->has_cm_info) {
		*info = qp->cm_info;
		err = DOCA_SUCCESS;
	}
	softhw_bias_unlock(&qp->lock);
	return err;
}

doca_error_t rnic_cm_reject(struct softhw_rnic_qp *q)
{
	return rnic_cm_reject_data(q, NULL, 0);
}

doca_error_t rnic_cm_reject_data(struct softhw_rnic_qp *q, const void *private_data, uint8_t len)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	softhw_bias_lock(&qp->lock);
	if (qp->state != QP_REQUEST) {
		softhw_bias_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	qp->state = QP_CLOSED;
	/* the REJ's private data (148 bytes on RoCEv2; the stream has none) */
	qp->cm_pdata_len = private_data == NULL ? 0 : len > 148 ? 148 : len;
	if (qp->cm_pdata_len > 0)
		memcpy(qp->cm_pdata, private_data, qp->cm_pdata_len);
	rnic_conn_of(qp)->answer(qp, DOCA_ERROR_CONNECTION_RESET); /* the connection ends once the answer left */
	softhw_bias_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_peer_addr(const struct softhw_rnic_qp *q, struct sockaddr_storage *addr)
{
	struct rnic_qp *qp = (struct rnic_qp *)q;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	softhw_bias_lock(&qp->lock);
	if (qp->cm) {
		*addr = qp->peer_addr;
		err = DOCA_SUCCESS;
	}
	softhw_bias_unlock(&qp->lock);
	return err;
}
