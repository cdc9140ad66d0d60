/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA-CM over TCP: a listener per (ep, port) on [::] (IPv4 too), a client that dials and
 * says hello, a server qp per request that the owner accepts or rejects.
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "softhw/rnic/rnic_int.h"

/* A dual-stack listener on every address, or IPv4 only where IPv6 is missing. */
static doca_error_t cm_socket(uint16_t port, int *out)
{
	struct sockaddr_in6 sin6 = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = in6addr_any};
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
	int zero = 0, one = 1;
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int rc;

	if (fd >= 0) {
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		rc = bind(fd, (struct sockaddr *)&sin6, sizeof(sin6));
		if (rc != 0 && errno != EADDRINUSE && errno != EACCES) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return DOCA_ERROR_OPERATING_SYSTEM;
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		rc = bind(fd, (struct sockaddr *)&sin, sizeof(sin));
	}
	if (rc != 0 || listen(fd, 128) != 0) {
		int e = errno;

		close(fd);
		return e == EADDRINUSE ? DOCA_ERROR_IN_USE : e == EACCES ? DOCA_ERROR_NOT_PERMITTED
								      : DOCA_ERROR_OPERATING_SYSTEM;
	}
	*out = fd;
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_listen(struct softhw_rnic_ep *e, uint16_t port)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	struct rnic_listener *l;
	doca_error_t err;
	int fd;

	pthread_mutex_lock(&rnic_nic.lock);
	for (l = ep->listeners; l != NULL; l = l->next)
		if (l->port == port) {
			pthread_mutex_unlock(&rnic_nic.lock);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	pthread_mutex_unlock(&rnic_nic.lock);
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = cm_socket(port, &fd);
	if (err != DOCA_SUCCESS) {
		free(l);
		return err;
	}
	l->ep = ep;
	l->port = port;
	l->fd = fd;
	rnic_listener_guard(l, "An RDMA-CM listener of this process", NULL);
	pthread_mutex_lock(&rnic_nic.lock);
	l->next = ep->listeners;
	ep->listeners = l;
	pthread_mutex_unlock(&rnic_nic.lock);
	rnic_nic_add_fd(fd, l, RNIC_TAG_LISTENER, EPOLLIN);
	return DOCA_SUCCESS;
}

doca_error_t rnic_cm_unlisten(struct softhw_rnic_ep *e, uint16_t port)
{
	struct rnic_ep *ep = rnic_ep_of(e);

	pthread_mutex_lock(&rnic_nic.lock);
	for (struct rnic_listener **pp = &ep->listeners; *pp != NULL; pp = &(*pp)->next) {
		struct rnic_listener *l = *pp;

		if (l->port != port)
			continue;
		*pp = l->next;
		l->next = rnic_nic.dead_listeners;
		rnic_nic.dead_listeners = l;
		rnic_nic_reap_wait(); /* the service thread closes it */
		pthread_mutex_unlock(&rnic_nic.lock);
		return DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&rnic_nic.lock);
	return DOCA_ERROR_NOT_FOUND;
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

	(void)private_data; /* not carried: no DOCA call reads it back */
	(void)len;
	pthread_mutex_lock(&qp->lock);
	if (qp->state != QP_REQUEST) {
		pthread_mutex_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	qp->user = user;
	rnic_qp_send_ack(qp, DOCA_SUCCESS);
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
	rnic_qp_send_ack(qp, DOCA_ERROR_CONNECTION_RESET);
	qp->state = QP_CLOSED;
	qp->close_asked = true; /* once the answer left */
	pthread_mutex_unlock(&qp->lock);
	rnic_nic_kick();
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
