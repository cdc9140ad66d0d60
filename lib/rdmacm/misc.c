/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rest of librdmacm's ABI: rdma_event_str, rdma_set_option, rdma_getaddrinfo, and every
 * call that needs genuine libibverbs objects (QPs, SRQs, CQs), multicast, ECE, the v60
 * addrinfo events and rsockets, which fail with ENOSYS and a log line (docs/compatibility.md).
 */
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rsocket.h>

#include "rdmacm_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMACM);

const char *rdma_event_str(enum rdma_cm_event_type event)
{
	static const char *const names[] = {
		"RDMA_CM_EVENT_ADDR_RESOLVED", "RDMA_CM_EVENT_ADDR_ERROR", "RDMA_CM_EVENT_ROUTE_RESOLVED",
		"RDMA_CM_EVENT_ROUTE_ERROR", "RDMA_CM_EVENT_CONNECT_REQUEST", "RDMA_CM_EVENT_CONNECT_RESPONSE",
		"RDMA_CM_EVENT_CONNECT_ERROR", "RDMA_CM_EVENT_UNREACHABLE", "RDMA_CM_EVENT_REJECTED",
		"RDMA_CM_EVENT_ESTABLISHED", "RDMA_CM_EVENT_DISCONNECTED", "RDMA_CM_EVENT_DEVICE_REMOVAL",
		"RDMA_CM_EVENT_MULTICAST_JOIN", "RDMA_CM_EVENT_MULTICAST_ERROR", "RDMA_CM_EVENT_ADDR_CHANGE",
		"RDMA_CM_EVENT_TIMEWAIT_EXIT", "RDMA_CM_EVENT_ADDRINFO_RESOLVED", "RDMA_CM_EVENT_ADDRINFO_ERROR",
		"RDMA_CM_EVENT_USER", "RDMA_CM_EVENT_INTERNAL",
	};

	if ((unsigned)event < sizeof(names) / sizeof(names[0]))
		return names[event];
	return "UNKNOWN EVENT";
}

/* Options are accepted and have no effect on the soft NIC (it has no ToS, no ACK timer to set). */
int rdma_set_option(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen)
{
	if (id == NULL || optval == NULL)
		return cm_fail(EINVAL);
	if (level == RDMA_OPTION_ID) {
		switch (optname) {
		case RDMA_OPTION_ID_TOS:
		case RDMA_OPTION_ID_ACK_TIMEOUT:
			return optlen == sizeof(uint8_t) ? 0 : cm_fail(EINVAL);
		case RDMA_OPTION_ID_REUSEADDR:
		case RDMA_OPTION_ID_AFONLY:
			return optlen == sizeof(int) ? 0 : cm_fail(EINVAL);
		default:
			break;
		}
	}
	SDK_LOG_ERR("rdma_set_option: level %d option %d is not supported", level, optname);
	return cm_fail(ENOSYS);
}

/* getaddrinfo in librdmacm's shape (rocev2.md §6.5); no route or connect data. */
int rdma_getaddrinfo(const char *node, const char *service, const struct rdma_addrinfo *hints,
		     struct rdma_addrinfo **res)
{
	struct addrinfo ai_hints = {.ai_socktype = SOCK_STREAM}, *ai;
	struct rdma_addrinfo *r;
	bool passive = hints != NULL && (hints->ai_flags & RAI_PASSIVE);
	int rc;

	if (res == NULL || (node == NULL && service == NULL))
		return cm_fail(EINVAL);
	if (hints != NULL) {
		ai_hints.ai_family = hints->ai_family;
		ai_hints.ai_flags = (passive ? AI_PASSIVE : 0) | ((hints->ai_flags & RAI_NUMERICHOST) ? AI_NUMERICHOST : 0);
	}
	rc = getaddrinfo(node, service, &ai_hints, &ai);
	if (rc != 0)
		return rc;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		freeaddrinfo(ai);
		return cm_fail(ENOMEM);
	}
	r->ai_flags = hints != NULL ? hints->ai_flags : 0;
	r->ai_family = ai->ai_family;
	r->ai_qp_type = hints != NULL && hints->ai_qp_type != 0 ? hints->ai_qp_type : IBV_QPT_RC;
	r->ai_port_space = hints != NULL && hints->ai_port_space != 0 ? hints->ai_port_space : RDMA_PS_TCP;
	if (passive) {
		r->ai_src_addr = malloc(ai->ai_addrlen);
		r->ai_src_len = ai->ai_addrlen;
		if (r->ai_src_addr != NULL)
			memcpy(r->ai_src_addr, ai->ai_addr, ai->ai_addrlen);
	} else {
		r->ai_dst_addr = malloc(ai->ai_addrlen);
		r->ai_dst_len = ai->ai_addrlen;
		if (r->ai_dst_addr != NULL)
			memcpy(r->ai_dst_addr, ai->ai_addr, ai->ai_addrlen);
	}
	freeaddrinfo(ai);
	if (r->ai_src_addr == NULL && r->ai_dst_addr == NULL) {
		free(r);
		return cm_fail(ENOMEM);
	}
	*res = r;
	return 0;
}

void rdma_freeaddrinfo(struct rdma_addrinfo *res)
{
	while (res != NULL) {
		struct rdma_addrinfo *next = res->ai_next;

		free(res->ai_src_addr);
		free(res->ai_dst_addr);
		free(res->ai_src_canonname);
		free(res->ai_dst_canonname);
		free(res->ai_route);
		free(res->ai_connect);
		free(res);
		res = next;
	}
}

/* ---- SRQs on ids, QP attributes for the application's own transitions: not provided ---- */

static int no_verbs(const char *call)
{
	SDK_LOG_ERR("%s: "
		    "not supported (docs/compatibility.md)", call);
	return cm_fail(ENOSYS);
}

int rdma_create_srq(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
	return no_verbs(__func__);
}

int rdma_create_srq_ex(struct rdma_cm_id *id, struct ibv_srq_init_attr_ex *attr)
{
	return no_verbs(__func__);
}

void rdma_destroy_srq(struct rdma_cm_id *id)
{
	(void)no_verbs(__func__);
}

int rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask)
{
	return no_verbs(__func__);
}

int rdma_notify(struct rdma_cm_id *id, enum ibv_event_type event)
{
	return no_verbs(__func__);
}

/* ---- not provided: multicast, ECE, v60 addrinfo events, rsockets ---- */

static int unsupported(const char *call)
{
	SDK_LOG_ERR("%s: not supported by softdoca's librdmacm (docs/compatibility.md)", call);
	return cm_fail(ENOSYS);
}

int rdma_join_multicast(struct rdma_cm_id *id, struct sockaddr *addr, void *context)
{
	return unsupported(__func__);
}

int rdma_join_multicast_ex(struct rdma_cm_id *id, struct rdma_cm_join_mc_attr_ex *mc_join_attr, void *context)
{
	return unsupported(__func__);
}

int rdma_leave_multicast(struct rdma_cm_id *id, struct sockaddr *addr)
{
	return unsupported(__func__);
}

int rdma_get_remote_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
	return unsupported(__func__);
}

int rdma_set_local_ece(struct rdma_cm_id *id, struct ibv_ece *ece)
{
	return unsupported(__func__);
}

int rdma_reject_ece(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
{
	return unsupported(__func__);
}

/* RDMACM_1.4 (rdma-core v60); older headers do not declare them, so no argument is read. */
int rdma_resolve_addrinfo(struct rdma_cm_id *id, const char *node, const char *service,
			  const struct rdma_addrinfo *hints);
int rdma_query_addrinfo(struct rdma_cm_id *id, struct rdma_addrinfo **info);
int rdma_write_cm_event(struct rdma_cm_id *id, enum rdma_cm_event_type event, int status, uint64_t arg);

int rdma_resolve_addrinfo(struct rdma_cm_id *id, const char *node, const char *service,
			  const struct rdma_addrinfo *hints)
{
	return unsupported(__func__);
}

int rdma_query_addrinfo(struct rdma_cm_id *id, struct rdma_addrinfo **info)
{
	return unsupported(__func__);
}

int rdma_write_cm_event(struct rdma_cm_id *id, enum rdma_cm_event_type event, int status, uint64_t arg)
{
	return unsupported(__func__);
}

/* rsockets */
int rsocket(int domain, int type, int protocol) { return unsupported(__func__); }
int rbind(int socket, const struct sockaddr *addr, socklen_t addrlen) { return unsupported(__func__); }
int rlisten(int socket, int backlog) { return unsupported(__func__); }
int raccept(int socket, struct sockaddr *addr, socklen_t *addrlen) { return unsupported(__func__); }
int rconnect(int socket, const struct sockaddr *addr, socklen_t addrlen) { return unsupported(__func__); }
int rshutdown(int socket, int how) { return unsupported(__func__); }
int rclose(int socket) { return unsupported(__func__); }
ssize_t rrecv(int socket, void *buf, size_t len, int flags) { return unsupported(__func__); }
ssize_t rrecvfrom(int socket, void *buf, size_t len, int flags, struct sockaddr *src_addr, socklen_t *addrlen)
{
	return unsupported(__func__);
}
ssize_t rrecvmsg(int socket, struct msghdr *msg, int flags) { return unsupported(__func__); }
ssize_t rsend(int socket, const void *buf, size_t len, int flags) { return unsupported(__func__); }
ssize_t rsendto(int socket, const void *buf, size_t len, int flags, const struct sockaddr *dest_addr,
		socklen_t addrlen)
{
	return unsupported(__func__);
}
ssize_t rsendmsg(int socket, const struct msghdr *msg, int flags) { return unsupported(__func__); }
ssize_t rread(int socket, void *buf, size_t count) { return unsupported(__func__); }
ssize_t rreadv(int socket, const struct iovec *iov, int iovcnt) { return unsupported(__func__); }
ssize_t rwrite(int socket, const void *buf, size_t count) { return unsupported(__func__); }
ssize_t rwritev(int socket, const struct iovec *iov, int iovcnt) { return unsupported(__func__); }
int rpoll(struct pollfd *fds, nfds_t nfds, int timeout) { return unsupported(__func__); }
int rselect(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds, struct timeval *timeout)
{
	return unsupported(__func__);
}
int rgetpeername(int socket, struct sockaddr *addr, socklen_t *addrlen) { return unsupported(__func__); }
int rgetsockname(int socket, struct sockaddr *addr, socklen_t *addrlen) { return unsupported(__func__); }
int rsetsockopt(int socket, int level, int optname, const void *optval, socklen_t optlen)
{
	return unsupported(__func__);
}
int rgetsockopt(int socket, int level, int optname, void *optval, socklen_t *optlen)
{
	return unsupported(__func__);
}
int rfcntl(int socket, int cmd, ...) { return unsupported(__func__); }
off_t riomap(int socket, void *buf, size_t len, int prot, int flags, off_t offset) { return unsupported(__func__); }
int riounmap(int socket, void *buf, size_t len) { return unsupported(__func__); }
size_t riowrite(int socket, const void *buf, size_t count, off_t offset, int flags)
{
	(void)unsupported(__func__);
	return 0;
}
