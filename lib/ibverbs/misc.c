/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rest of the libibverbs API programs link: strings, fork support (nothing to do: no
 * pinned pages), async events (none), and what the soft NIC does not offer (UD address
 * handles, multicast, re-registration): those fail with EOPNOTSUPP and a log line.
 */
#include <errno.h>
#include <stdlib.h>

#include "ibv_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(IBV_MISC);

const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	static const char *const s[] = {
		"success", "local length error", "local QP operation error", "local EE context operation error",
		"local protection error", "Work Request Flushed Error", "memory management operation error",
		"bad response error", "local access error", "remote invalid request error", "remote access error",
		"remote operation error", "transport retry counter exceeded", "RNR retry counter exceeded",
		"local RDD violation error", "remote invalid RD request", "aborted error", "invalid EE context number",
		"invalid EE context state", "fatal error", "response timeout error", "general error",
		"TM error", "TM rendezvous error",
	};

	return (unsigned int)status < sizeof(s) / sizeof(s[0]) ? s[status] : "unknown";
}

const char *ibv_node_type_str(enum ibv_node_type t)
{
	return t == IBV_NODE_CA ? "InfiniBand channel adapter" : "unknown";
}

const char *ibv_port_state_str(enum ibv_port_state s)
{
	static const char *const n[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};

	return (unsigned int)s < 6 ? n[s] : "unknown";
}

const char *ibv_event_type_str(enum ibv_event_type e)
{
	return e == IBV_EVENT_COMM_EST ? "communication established" : "asynchronous event";
}

int ibv_fork_init(void)
{
	return 0;
}

int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	(void)context;
	(void)event;
	SDK_LOG_ERR("ibv_get_async_event: the soft NIC has no asynchronous events");
	errno = EOPNOTSUPP;
	return -1;
}

void ibv_ack_async_event(struct ibv_async_event *event)
{
	(void)event;
}

static void *unsupported(const char *what)
{
	SDK_LOG_ERR("%s: not supported by softdoca's libibverbs (docs/compatibility.md)", what);
	errno = EOPNOTSUPP;
	return NULL;
}

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	(void)pd;
	(void)attr;
	return unsupported("ibv_create_ah");
}

struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh, uint8_t port_num)
{
	(void)pd;
	(void)wc;
	(void)grh;
	(void)port_num;
	return unsupported("ibv_create_ah_from_wc (UD address handles)");
}

int ibv_destroy_ah(struct ibv_ah *ah)
{
	(void)ah;
	return EINVAL;
}

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)qp;
	(void)gid;
	(void)lid;
	unsupported("ibv_attach_mcast");
	return EOPNOTSUPP;
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)qp;
	(void)gid;
	(void)lid;
	return EOPNOTSUPP;
}

int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)
{
	(void)mr;
	(void)flags;
	(void)pd;
	(void)addr;
	(void)length;
	(void)access;
	unsupported("ibv_rereg_mr");
	return EOPNOTSUPP;
}
