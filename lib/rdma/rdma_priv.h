/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma internals shared by the lib/rdma sources (private to libdoca_rdma).
 *
 * A doca_rdma is a context (struct doca_ctx first) that owns, while started, one endpoint of the
 * soft NIC (softhw_rnic_ep: completion queue, shared receive queue, access rights) and one qp
 * per connection. Everything reaches the NIC through ctx.dev->rnic (lib/softhw/rnic/rnic.h).
 *
 * Tasks: every RDMA task type shares one layout (struct drdma_task); the public task structs
 * only wrap it. Submission validates and posts a work request to the connection's qp (or a
 * receive to the endpoint); the task then waits in the context's queue until the progress op
 * polls its completion and marks the work done, and the core completes it from there.
 */
#ifndef SOFTDOCA_RDMA_PRIV_H
#define SOFTDOCA_RDMA_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "doca_rdma.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/rnic/rnic.h"

/* Upper bound of any profile's buf-list lengths; sizes the scatter/gather arrays. */
#define DRDMA_MAX_SGE 32
#define DRDMA_MAX_LISTEN_PORTS 16
#define DRDMA_ADDR_TEXT_LEN 64

/* Defaults (DOCA documents none of them; docs/compatibility.md lists them). */
#define DRDMA_DEFAULT_QUEUE_SIZE 64
#define DRDMA_DEFAULT_BUF_LIST_LEN 1
#define DRDMA_DEFAULT_MAX_CONNECTIONS 1
#define DRDMA_DEFAULT_RNR_RETRY 7 /* retry for ever, as verbs */
#define DRDMA_DEFAULT_CM_TIMEOUT_MS 5000
#define DRDMA_DEFAULT_MTU DOCA_MTU_SIZE_1K_BYTES

enum drdma_task_type {
	DRDMA_TASK_RECEIVE = 0,
	DRDMA_TASK_SEND,
	DRDMA_TASK_SEND_IMM,
	DRDMA_TASK_READ,
	DRDMA_TASK_WRITE,
	DRDMA_TASK_WRITE_IMM,
	DRDMA_TASK_CMP_SWP,
	DRDMA_TASK_FETCH_ADD,
	DRDMA_TASK_SE_GET,
	DRDMA_TASK_SE_SET,
	DRDMA_TASK_SE_ADD,
	DRDMA_NUM_TASK_TYPES,
};

struct doca_rdma_addr {
	enum doca_rdma_addr_type type;
	char text[DRDMA_ADDR_TEXT_LEN]; /* as given (doca_rdma_addr_get_params returns it) */
	uint16_t port;
	struct sockaddr_storage sa;    /* what the NIC connects to (IPv4-mapped GIDs: IPv4) */
	socklen_t sa_len;
	uint32_t users;                /* connect_to_addr calls still resolving / connecting */
	bool owned;                    /* made by doca_rdma_connection_get_addr: freed with the connection */
};

enum drdma_conn_state {
	DRDMA_CONN_EXPORTED = 0,  /* doca_rdma_export: waits for doca_rdma_connect */
	DRDMA_CONN_CONNECTING,    /* connect / connect_to_addr called, not yet established */
	DRDMA_CONN_REQUESTED,     /* CM request delivered: waits for accept / reject */
	DRDMA_CONN_ACCEPTED,      /* accepted, not yet established */
	DRDMA_CONN_ESTABLISHED,
	DRDMA_CONN_FAILED,
	DRDMA_CONN_DISCONNECTED,
};

/*
 * Which connection objects are a context's, by pointer value: a task names its connection by
 * pointer, and one kept from an earlier start (freed since) must be refused without being read.
 * Open addressing (0 empty, 1 removed), at most half full: one probe or two whatever the number
 * of connections, where a list walk cost one step per connection on every submit.
 */
struct drdma_conn_set {
	uintptr_t *slot;
	uint32_t mask; /* capacity - 1 (a power of two); 0 with no table */
	uint32_t used; /* live and removed slots */
};

struct doca_rdma_connection {
	struct doca_rdma *rdma;
	struct softhw_rnic_qp *qp;          /* NULL once the context stopped */
	uint32_t id;
	enum drdma_conn_state state;
	bool cm;                            /* made by RDMA-CM (listen / connect_to_addr) */
	union doca_data user_data;
	struct doca_rdma_addr *addr;        /* connect_to_addr's address (users held while connecting) */
	struct doca_rdma_addr *peer;        /* doca_rdma_connection_get_addr result (owned) */
	struct doca_rdma_connection *next;
};

struct doca_rdma {
	struct doca_ctx ctx; /* first: doca_rdma_as_ctx and the ops receive it */
	struct doca_dev *dev;
	bool stopping;       /* inside our own stop: flushed tasks are expected, not errors */
	const struct softhw_caps *caps;
	/* configuration (IDLE only) */
	uint32_t send_queue_size;
	uint32_t recv_queue_size;
	uint32_t max_send_buf_list_len;
	uint32_t recv_buf_list_len;
	enum doca_rdma_transport_type transport;
	enum doca_mtu_size mtu;
	bool mtu_set;        /* doca_rdma_set_mtu was called: the path MTU's cap on the wire */
	uint32_t permissions;
	uint8_t grh_enabled;
	uint32_t gid_index;
	uint32_t sl;
	uint16_t cm_timeout_ms;
	uint16_t max_num_connections;
	uint8_t rnr_retry_count;
	doca_rdma_connection_request_cb_t request_cb;
	doca_rdma_connection_established_cb_t established_cb;
	doca_rdma_connection_failure_cb_t failure_cb;
	doca_rdma_connection_disconnection_cb_t disconnect_cb;
	/* while started */
	struct softhw_rnic_ep *ep;
	struct doca_rdma_connection *conns;  /* every connection of this start (freed at next start / destroy) */
	struct drdma_conn_set conn_set;      /* the same connections, by pointer value: drdma_conn_belongs */
	bool had_conns;                      /* a connection was made since the start: a stop from a callback is asynchronous */
	/*
	 * A connection event polled behind work completions: its callback waits until theirs ran
	 * (drdma_progress), as a program hears of a failed request before of the failed connection.
	 */
	bool event_held;
	struct softhw_rnic_cqe held_event;
	uint32_t num_conns;                  /* counted against max_num_connections */
	uint32_t next_conn_id;
	uint16_t ports[DRDMA_MAX_LISTEN_PORTS];
	uint32_t num_ports;
	/* datapath on a DPA (ctx.dpa set): rdma_dpa.c */
	struct doca_dpa_completion *dpa_comp; /* doca_rdma_dpa_completion_attach */
	struct drdma_dpa *dpa;                /* while started */
};

/* One layout for every task type; the public task structs wrap it. */
struct drdma_task {
	struct doca_task base; /* first: *_as_task */
	struct doca_rdma_connection *conn;
	const struct doca_buf *src;   /* send, send_imm, write, write_imm: local; read: remote; SE set: value */
	struct doca_buf *dst;         /* receive, read, SE get: local; write, write_imm, atomics: remote */
	struct doca_buf *result;      /* atomics, SE add: local 8-byte result */
	struct doca_sync_event_remote_net *event;
	uint64_t arg0;                /* cmp data / add data */
	uint64_t arg1;                /* swap data */
	uint32_t imm;                 /* be32, passed through */
	uint8_t type;                 /* enum drdma_task_type: its pool's index, kept (every check asks) */
	/* outcome, filled when the completion is polled */
	uint64_t done_len;
	enum doca_rdma_opcode result_opcode;
	uint32_t result_imm;
	struct doca_rdma_connection *result_conn;
};

#define DRDMA_TASK_WRAPPER(name) \
	struct doca_rdma_task_##name { \
		struct drdma_task t; \
	}

DRDMA_TASK_WRAPPER(receive);
DRDMA_TASK_WRAPPER(send);
DRDMA_TASK_WRAPPER(send_imm);
DRDMA_TASK_WRAPPER(read);
DRDMA_TASK_WRAPPER(write);
DRDMA_TASK_WRAPPER(write_imm);
DRDMA_TASK_WRAPPER(atomic_cmp_swp);
DRDMA_TASK_WRAPPER(atomic_fetch_add);
DRDMA_TASK_WRAPPER(remote_net_sync_event_get);
DRDMA_TASK_WRAPPER(remote_net_sync_event_notify_set);
DRDMA_TASK_WRAPPER(remote_net_sync_event_notify_add);

static inline struct doca_rdma *drdma_of(struct doca_ctx *ctx)
{
	return (struct doca_rdma *)(void *)ctx;
}

static inline const struct softhw_rnic_ops *drdma_nic(const struct doca_rdma *rdma)
{
	return rdma->dev->rnic;
}

/* True (after logging "<call>: ... is <state>") unless the context is IDLE. */
bool drdma_not_idle(const struct doca_rdma *rdma, const char *call);

/* First lines of a context setter / getter named `call` (on `rdma`); log from the caller's file. */
#define SETTER_PRE(call) \
	do { \
		if (rdma == NULL) { \
			SDK_LOG_ERR("%s: rdma is NULL", call); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
		if (drdma_not_idle(rdma, call)) \
			return DOCA_ERROR_BAD_STATE; \
	} while (0)

#define GETTER(call, out) \
	do { \
		if (rdma == NULL || (out) == NULL) { \
			SDK_LOG_ERR("%s: %s is NULL", call, rdma == NULL ? "rdma" : "output"); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
	} while (0)

/* ---- tasks (rdma_task.c) ---- */
doca_error_t drdma_task_set_conf(struct doca_rdma *rdma, enum drdma_task_type type,
				       doca_task_completion_cb_t ok_cb,
				       doca_task_completion_cb_t err_cb, uint32_t num_tasks,
				       const char *call);
doca_error_t drdma_task_alloc(struct doca_rdma *rdma, enum drdma_task_type type,
								  struct doca_rdma_connection *conn,
								  union doca_data user_data, const char *call,
								  struct drdma_task **task);
doca_error_t drdma_task_cap(const struct doca_devinfo *devinfo,
								enum drdma_task_type type);
doca_error_t drdma_task_check(struct doca_task *task);
doca_error_t drdma_task_prepare(struct doca_task *task);
void drdma_task_complete(struct doca_task *task);
/* A work-request completion polled from the endpoint. */
void drdma_task_cqe(struct doca_rdma *rdma, const struct softhw_rnic_cqe *cqe);

/* ---- connections (rdma_conn.c) ---- */
bool drdma_conn_belongs(const struct doca_rdma *rdma, const struct doca_rdma_connection *conn);
/* A connection event polled from the endpoint: runs the user's callback; the context may be
 * stopped or destroyed when this returns. */
void drdma_conn_event(struct doca_rdma *rdma, const struct softhw_rnic_cqe *cqe);
/* At stop: qps destroyed (the endpoint goes next); the objects stay until the next start. */
void drdma_conns_close(struct doca_rdma *rdma);
/* At start and destroy: frees the connection objects of the previous run. */
void drdma_conns_free(struct doca_rdma *rdma);

/* ---- datapath on a DPA (rdma_dpa.c) ---- */
/* At start, before the endpoint exists: checks, and sets the endpoint's notify. */
doca_error_t drdma_dpa_start(struct doca_rdma *rdma, struct softhw_rnic_ep_attr *attr);
void drdma_dpa_started(struct doca_rdma *rdma);
/* At stop: no poll runs after this returns; then the caller tears the endpoint down. */
void drdma_dpa_stop(struct doca_rdma *rdma);
void drdma_dpa_free(struct doca_rdma *rdma);
void drdma_dpa_detach(struct doca_rdma *rdma);
/* Host calls that touch the endpoint (export, connect, stop) while the DPA may post or poll. */
void drdma_dpa_lock(struct doca_rdma *rdma);
void drdma_dpa_unlock(struct doca_rdma *rdma);

#endif /* SOFTDOCA_RDMA_PRIV_H */
