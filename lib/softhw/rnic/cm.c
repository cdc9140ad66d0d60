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

doca_error_t rnic_cm_connect(struct softhw_rnic_ep *e, const struct sockaddr *addr, socklen_t addr_len, void *user,
			     struct softhw_rnic_qp **out)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	struct rnic_qp *qp;

	if (addr == NULL || out == NULL || addr_len > sizeof(struct sockaddr_storage) ||
	    (addr->sa_family != AF_INET && addr->sa_family != AF_INET6))
		return DOCA_ERROR_INVALID_VALUE;
	qp = rnic_qp_new(ep, user);
	if (qp == NULL)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&qp->lock);
	qp->cm = true;
	qp->dialer = true;
	memset(&qp->peer_addr, 0, sizeof(qp->peer_addr));
	memcpy(&qp->peer_addr, addr, addr_len);
	soft_link_local_to_loopback(&qp->peer_addr);
	qp->state = QP_DIALING;
	qp->deadline = rnic_now_ms() + ep->attr.cm_timeout_ms;
	pthread_mutex_unlock(&qp->lock);
	pthread_mutex_lock(&rnic_nic.lock);
	qp->next_ctl = rnic_nic.dials;
	rnic_nic.dials = qp;
	pthread_mutex_unlock(&rnic_nic.lock);
	rnic_nic_kick();
	*out = (struct softhw_rnic_qp *)qp;
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_accept(struct softhw_rnic_qp *q, void *user, const void *private_data, uint8_t len)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	pthread_mutex_lock(&qp->lock);
	if (qp->state != QP_REQUEST) {
		pthread_mutex_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	qp->user = user;
	/* carried where the wire has room for it (RoCEv2's REP; the stream has none) */
	qp->cm_pdata_len = private_data == NULL ? 0 : len > sizeof(qp->cm_pdata) ? sizeof(qp->cm_pdata) : len;
	if (qp->cm_pdata_len > 0)
		memcpy(qp->cm_pdata, private_data, qp->cm_pdata_len);
	rnic_conn_of(qp)->answer(qp, DOCA_SUCCESS);
	if (qp->state == QP_REQUEST) /* else the path establishes it later (RoCEv2: on the RTU) */
		rnic_qp_established(qp);
	pthread_mutex_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_reject(struct softhw_rnic_qp *q)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	pthread_mutex_lock(&qp->lock);
	if (qp->state != QP_REQUEST) {
		pthread_mutex_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	qp->state = QP_CLOSED;
	rnic_conn_of(qp)->answer(qp, DOCA_ERROR_CONNECTION_RESET); /* the connection ends once the answer left */
	pthread_mutex_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_peer_addr(const struct softhw_rnic_qp *q, struct sockaddr_storage *addr)
{
	struct rnic_qp *qp = (struct rnic_qp *)q;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	pthread_mutex_lock(&qp->lock);
	if (qp->cm) {
		*addr = qp->peer_addr;
		err = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&qp->lock);
	return err;
}
