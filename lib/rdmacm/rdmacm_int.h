/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * librdmacm over the soft NIC (private to lib/rdmacm/). Built against rdma-core's own
 * <rdma/rdma_cma.h>, so every public structure has the layout applications compiled against.
 *
 * On a RoCEv2 card the IB CM itself carries the QP, as Linux rdma_cm (wire.c); elsewhere:
 * Transport: each listening or active id owns a soft NIC endpoint (rnic.h); a connection is one
 * soft NIC qp made with the NIC's RDMA-CM (listen / connect_addr / qp_accept). The IB CM's
 * REQ / REP / REJ / RTU, with their private data, travel as small messages on that qp before
 * the application gets it (the NIC's own handshake carries no private data):
 *   active: connect_addr -> (NIC established) -> REQ ...... REP -> CONNECT_RESPONSE, RTU on rdma_establish
 *   passive: NIC request -> accepted at once -> REQ -> CONNECT_REQUEST; rdma_accept -> REP; RTU -> ESTABLISHED
 *                                                           rdma_reject -> REJ, then disconnect
 *
 * Threads: one library lock (g.lock) guards everything. The NIC's notify callback (any thread)
 * takes only g.fd_lock and rings the eventfd of every channel and the library's wake fd: a
 * channel fd may be readable without an event for it (rdma_get_cm_event then says EAGAIN).
 */
#ifndef SOFTDOCA_RDMACM_INT_H
#define SOFTDOCA_RDMACM_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <rdma/rdma_cma.h>

#include "ibverbs/soft_ibv.h"
#include "softhw/rnic/rnic.h"

/* Private data sizes an IB CM message carries for the user (rocev2.md §5.2, §5.3). */
#define CM_REQ_PDATA 56
#define CM_REP_PDATA 196
#define CM_REJ_PDATA 148
#define CM_REJ_NO_LISTENER 8   /* "invalid service ID": nobody listens on the port */
#define CM_REJ_CONSUMER 28     /* consumer defined: rdma_reject, or the peer went away */
#define CM_DEV_MAX_RD SOFT_IBV_MAX_RD_ATOM /* responder resources / initiator depth the device offers */

enum cm_msg_type { CM_MSG_REQ = 1, CM_MSG_REP, CM_MSG_REJ, CM_MSG_RTU };

/* What one side sends the other on the qp while connecting (same build on both sides). */
struct cm_msg {
	uint32_t magic;
	uint8_t type;
	uint8_t pdata_len;
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t flow_control;
	uint8_t retry_count;
	uint8_t rnr_retry_count;
	uint8_t srq;
	uint32_t qp_num;
	int32_t status;                /* REJ: reason */
	struct sockaddr_storage src;   /* REQ: the active side's address and RDMA-CM port */
	struct sockaddr_storage dst;   /* REQ: the address it asked for */
	uint8_t pdata[CM_REP_PDATA];
	uint16_t verbs_len;            /* REQ / REP of an id with a QP: its connect info (soft_ibv.h) */
	uint8_t verbs[SOFT_IBV_INFO_MAX];
};
#define CM_MSG_MAGIC 0x4d435352u /* "RSCM" */

enum cm_state {
	ST_IDLE,
	ST_BOUND,
	ST_ADDR,        /* ADDR_RESOLVED queued */
	ST_ROUTE,       /* ROUTE_RESOLVED queued */
	ST_LISTEN,
	ST_DIALING,     /* active: the NIC is connecting */
	ST_REQ_SENT,    /* active: waiting for REP or REJ */
	ST_RESPONSE,    /* active: CONNECT_RESPONSE given, waiting for rdma_establish */
	ST_REQ_WAIT,    /* passive: NIC connected, REQ not yet here (the application does not know the id) */
	ST_REQ_RCVD,    /* passive: CONNECT_REQUEST given */
	ST_REP_SENT,    /* passive: accepted, waiting for RTU */
	ST_CONNECTED,
	ST_DISCONNECTED,
	ST_REJECTED,    /* active: rejected or unreachable; passive: rdma_reject done */
};

struct cm_ep;
struct cm_chan;

struct cm_event {
	struct rdma_cm_event pub;      /* first: applications hold a pointer to it */
	struct cm_event *next;
	struct cm_id *counted;         /* the id whose unacked count this event holds */
	uint8_t pdata[CM_REP_PDATA];
};

struct cm_id {
	struct rdma_cm_id pub;         /* first: applications hold a pointer to it */
	enum cm_state state;
	struct cm_ep *ep;              /* own (listener, active) or the listener's (passive) */
	struct softhw_rnic_qp *qp;
	struct cm_id *listener;        /* passive: the listening id (NULL once it is gone) */
	uint16_t nic_port;             /* listening on this port of the NIC */
	uint32_t unacked;              /* events given to the application, not yet acked */
	uint32_t sends;                /* our messages on the qp not yet completed */
	bool known;                    /* an event named it: the application may hold it */
	bool orphan;                   /* passive, never known and dead: the library frees it */
	bool dying;                    /* in rdma_destroy_id: its events are dropped */
	bool rtu_sent;                 /* on the wire, no QP: CONNECT_RESPONSE given, the soft NIC sent the RTU */
	uint8_t req_resp_res;          /* passive: what the REQ asked for */
	uint8_t req_init_depth;
	struct cm_msg *req;            /* active: REQ to send once the NIC connected */
	void *peer_verbs;              /* passive: the REQ's connect info, for rdma_accept */
	uint16_t peer_verbs_len;
	struct rdma_event_channel *sync_chan; /* synchronous id: its own channel (rdma_create_ep) */
	struct ibv_qp_init_attr *ep_qp_attr;  /* rdma_create_ep listener: what rdma_get_request creates */
	struct ibv_pd *ep_pd;
	struct cm_id *next;
};

struct cm_chan {
	struct rdma_event_channel pub; /* first: fd */
	struct cm_event *head, *tail;  /* queued, not yet taken */
	struct cm_event *given;        /* taken by rdma_get_cm_event, not yet acked */
	struct cm_chan *next;
	int wait_fd;                   /* our dup of pub.fd: waiters block on it, so it outlives
	                                * a destroy under them and a late wake reads as one */
	int waiters;                   /* threads blocked in rdma_get_cm_event on it */
	int readers;                   /* those of them in their read of wait_fd */
	bool destroyed;                /* destroyed while some waited: the last one frees it */
	bool unreadable;               /* then wait_fd's number was made a descriptor no read takes */
};

/* One soft NIC endpoint and its posted receives. */
#define CM_RECVS 16
struct cm_send {
	struct cm_msg msg;
	struct cm_send *next;
};
struct cm_ep {
	struct softhw_rnic_ep *ep;
	uint32_t refs;
	struct cm_msg recv[CM_RECVS];
	struct cm_send *sends;         /* messages in flight (their memory must live until completion) */
	struct cm_ep *next;
};

struct cm_lib {
	pthread_mutex_t lock;
	pthread_mutex_t fd_lock;       /* chans list for notify (taken under lock or alone) */
	struct cm_chan *chans;
	struct cm_ep *eps;
	struct cm_id *ids;
	struct cm_event *stray;        /* given by a since destroyed channel, not acked: valid until acked */
	int wake_fd;                   /* eventfd: a NIC endpoint has news (synchronous waits) */
	struct doca_dev *dev;
	const struct softhw_rnic_ops *nic;
	struct ibv_context *verbs;
	struct ibv_pd *pd;
	const struct soft_ibv_hooks *ibv;
	bool wire;                     /* RoCEv2 card: the IB CM describes the QP itself, as Linux (conn.c) */
};
extern struct cm_lib g;

/* errno + -1, the librdmacm convention */
int cm_fail(int err);
/* Opens the soft device once (under g.lock); errno-style error or 0. */
int cm_dev_get(void);
void cm_ring(struct cm_chan *ch);
void cm_ring_all(void);
struct cm_event *cm_event_new(struct cm_id *id, enum rdma_cm_event_type type, int status);
void cm_event_queue(struct cm_event *ev);
void cm_pump(void);
void cm_arm_all_or_pump(void);
int cm_ep_get(struct cm_id *id);
void cm_ep_put(struct cm_ep *ep);
int cm_send(struct cm_id *id, const struct cm_msg *msg);
void cm_cqe(struct cm_ep *ep, const struct softhw_rnic_cqe *cqe);
bool cm_valid_id(const struct cm_id *id);
uint16_t cm_ephemeral_port(void);
void cm_set_port(struct sockaddr *sa, uint16_t port);
uint16_t cm_port_of(const struct sockaddr *sa);
void cm_sockaddr_copy(struct sockaddr_storage *dst, const struct sockaddr *src);
void cm_wait_sends(struct cm_id *id, int timeout_ms);
void cm_reap_orphans(void);
void cm_drop_queued(struct cm_id *id);
/* RDMA-CM on the wire (RoCEv2 cards, wire.c); all under g.lock */
bool cm_card_wire(void);
int cm_wire_connect(struct cm_id *id, const struct rdma_conn_param *param);
void cm_wire_request(struct cm_ep *ep, struct softhw_rnic_qp *qp);
struct cm_id *cm_request_id(struct cm_ep *ep, struct softhw_rnic_qp *qp, enum cm_state st);
bool cm_wire_cqe(struct cm_id *id, const struct softhw_rnic_cqe *cqe);
int cm_wire_accept(struct cm_id *id, const struct rdma_conn_param *param, uint8_t resp_res, uint8_t init_depth);
int cm_wire_reject(struct cm_id *id, const void *private_data, uint8_t len);
/* Synchronous ids: waits for the id's next event on its own channel; its status (0, or errno-style) */
int cm_sync_wait(struct cm_id *id, enum rdma_cm_event_type want);
void cm_sync_release(struct cm_id *id);
uint32_t cm_sync_held(const struct cm_id *id);
bool cm_ack_locked(struct cm_event *ev);

#endif /* SOFTDOCA_RDMACM_INT_H */
