/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw rnic: the soft RDMA NIC of a soft device, in the shape of verbs.
 *
 * libdoca_rdma (and the RDMA remote-sync-event tasks) reach it through one ops table,
 * `doca_dev->rnic` (lib/common/priv/dev_priv.h), so nothing above this header knows which
 * transport moves the bytes and no non-DOCA symbol crosses a library boundary.
 *
 * Objects:
 *   ep  - one per doca_rdma context: its completion queue (CQEs and connection events), its
 *         shared receive queue, its access rights as a target, and its settings.
 *   qp  - one per doca_rdma_connection: a reliable, ordered connection to one peer qp.
 *
 * Threads: every ep_* / qp_* call comes from the thread that owns the context (the one that
 * calls doca_pe_progress). Inside, a per-process service thread (the "NIC") owns the sockets:
 * it executes one-sided operations at the target without the target's CPU (read, write,
 * atomics, remote sync events, as a NIC does), places incoming sends into posted receives,
 * and queues completions on the initiator's ep. It blocks in epoll when there is nothing to do.
 * Exception (same host): two-sided messages travel on a shared-memory ring per qp that ep_poll
 * itself takes, without a thread hop; the service thread takes them only for an owner that is
 * asleep (armed) or does not progress (ring.c).
 *
 * Transports (chosen per qp, invisible above): peers on the same host and network namespace
 * talk over an abstract unix socket and move read/write payloads (and atomics) from the
 * poster through the target's shared window, else by cross-memory attach (cma.c); other
 * peers talk TCP. SOFTDOCA_RDMA_TRANSPORT=tcp forces TCP (benchmarks, tests).
 *
 * Ordering (RC): operations of one qp execute at the target in post order; a completion means
 * the operation took effect at the target (a send: placed in a posted receive).
 */
#ifndef SOFTHW_RNIC_H
#define SOFTHW_RNIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "doca_error.h"

struct softhw_function;
struct softhw_rnic_ep;
struct softhw_rnic_qp;

/* Local memory: a scatter/gather element (already checked against its mmap by the caller). */
struct softhw_rnic_sge {
	void *addr;
	uint64_t len;
};

/*
 * Remote memory, as an imported descriptor names it. For memory: the exporter's pid, the
 * export's id and token (mmap export_rdma) and the remote virtual address / length of this
 * operation. For a remote-net sync event: pid, value id, token and the value's address.
 * The target checks all of it against its live exports; the initiator only carries it.
 */
struct softhw_rnic_rkey {
	int32_t pid;
	uint64_t id;
	uint64_t token;
	uint64_t addr;
	uint64_t len;
};

enum softhw_rnic_opcode {
	SOFTHW_RNIC_OP_SEND = 0,
	SOFTHW_RNIC_OP_SEND_IMM,
	SOFTHW_RNIC_OP_WRITE,
	SOFTHW_RNIC_OP_WRITE_IMM,
	SOFTHW_RNIC_OP_READ,
	SOFTHW_RNIC_OP_CMP_SWP,  /* 8 bytes at rkey.addr; old value -> sgl[0] (8 bytes) */
	SOFTHW_RNIC_OP_FETCH_ADD,
	SOFTHW_RNIC_OP_SE_GET,   /* remote sync event value -> sgl[0] (8 bytes) */
	SOFTHW_RNIC_OP_SE_SET,   /* value = arg0 */
	SOFTHW_RNIC_OP_SE_ADD,   /* value += arg0; old value -> sgl[0] */
	SOFTHW_RNIC_OP_RECV,     /* completion of a posted receive (CQE only) */
	SOFTHW_RNIC_OP_SEND_INV, /* a send with invalidate: imm is the rkey the receiver's CQE reports */
};

/* A work request. post() copies it (and its sgl): the caller's arrays may be reused at once. */
struct softhw_rnic_wr {
	uint64_t wr_id;
	enum softhw_rnic_opcode op;
	/*
	 * A qp that failed or ended refuses the request (NOT_CONNECTED) instead of completing it
	 * flushed behind the end: the poster flushes it itself (verbs: its receive flushes go first).
	 */
	bool refuse_in_error;
	const struct softhw_rnic_sge *sgl; /* send/write: source; read/atomics/get: destination */
	uint32_t num_sge;
	struct softhw_rnic_rkey rkey;      /* read/write/write_imm/atomics/SE ops */
	uint32_t imm;                      /* send_imm/write_imm: passed through unchanged (be32); send_inv: rkey */
	uint64_t arg0;                     /* cmp_swp: compare; fetch_add / SE_ADD: add; SE_SET: value */
	uint64_t arg1;                     /* cmp_swp: swap */
	/*
	 * Optional (NULL: every request completes through a CQE). Set to true when the request was
	 * done during the post, successfully, with no completion of the ep waiting before it: no CQE
	 * follows, and the poster completes it itself, in the order it posted.
	 */
	bool *done_at_post;
};

enum softhw_rnic_cqe_kind {
	SOFTHW_RNIC_CQE_WR = 0,     /* a posted work request (or receive) finished */
	SOFTHW_RNIC_CQE_REQUEST,    /* CM: a peer asks to connect; qp is new, accept or reject it */
	SOFTHW_RNIC_CQE_ESTABLISHED,/* CM: qp is connected (both sides) */
	SOFTHW_RNIC_CQE_FAILED,     /* qp could not connect, was rejected, or failed (status) */
	SOFTHW_RNIC_CQE_DISCONNECTED,/* the peer disconnected or went away */
};

struct softhw_rnic_cqe {
	enum softhw_rnic_cqe_kind kind;
	struct softhw_rnic_qp *qp;   /* the qp concerned (for RECV: the one the message came on) */
	void *qp_user;               /* its user pointer (qp_create / qp_accept) */
	uint64_t wr_id;              /* CQE_WR */
	enum softhw_rnic_opcode op;  /* CQE_WR: the wr's opcode, or RECV */
	enum softhw_rnic_opcode recv_op; /* RECV: SEND, SEND_IMM, SEND_INV or WRITE_IMM */
	doca_error_t status;
	uint64_t len;                /* RECV: bytes placed; READ: bytes read; SE_GET / atomics: 8 */
	uint32_t imm;                /* RECV of SEND_IMM / WRITE_IMM; SEND_INV: the invalidated rkey */
};

struct softhw_rnic_ep_attr {
	const struct softhw_function *fn; /* the device: its GIDs and addresses */
	uint32_t access;          /* enum doca_access_flag mask: what peers may do to this ep's memory */
	uint32_t max_qps;         /* doca_rdma_set_max_num_connections */
	uint32_t max_recv_sge;    /* receive buf list length */
	uint32_t max_send_sge;
	uint64_t max_msg_size;
	uint8_t rnr_retry_count;  /* 7 = retry for ever (as verbs) */
	uint32_t cm_timeout_ms;   /* connect_addr: the steps before the request is out (0: RNIC_DIAL_TIMEOUT_MS) */
	/*
	 * The largest path MTU (log2, 8 to 12) the ep's RoCEv2 qps may use (doca_rdma_set_mtu); 0:
	 * the interface's. Out of band the smaller of both descriptors wins; over RDMA-CM the active
	 * side's REQ decides for both ends, as with Linux rdma_cm. Other paths send no packets.
	 */
	uint8_t mtu_log;
	bool dc;                  /* transport DC: any peer may connect to an exported qp */
	/*
	 * The owner sleeps on ep_wait_fd itself (a verbs completion channel) and calls ep_serve
	 * when it is readable: a sleeping owner is woken by its peers' doorbells, not through the
	 * service thread (one thread hop less per wake-up).
	 */
	bool owner_wakes;
	/*
	 * The owner may wait for a peer's WRITE by spinning on its own memory, away from the ep (a
	 * verbs program: ib_write_lat polls its send CQ, then its buffer). A wire path that finds
	 * such a WRITE waited for lets the service thread read along while the owner polls, for a
	 * while (roce_path.c, ROCE_LOUD_MS); otherwise a polling owner has the port to itself.
	 */
	bool polls_memory;
	/* Called from any thread after CQEs were queued while the ep was armed (ep_arm). */
	void (*notify)(void *arg);
	void *notify_arg;
};

/*
 * What the peer's IB CM message said (RoCEv2 cards, librdmacm): the REQ (passive side), the
 * REP (active side) or the REJ. Stream cards have none (NOT_FOUND).
 */
struct softhw_rnic_cm_info {
	uint8_t pdata[196];       /* REQ: the 56 bytes after the RDMA-CM header; REP: 196; REJ: 148 */
	uint8_t pdata_len;
	uint8_t responder_resources, initiator_depth; /* as the sender wrote them (not swapped) */
	uint8_t retry_count, rnr_retry_count;
	uint16_t rej_reason;      /* REJ: the IB CM reason; 0 otherwise */
	uint32_t qpn;             /* REQ / REP: the sender's QPN */
	struct sockaddr_storage local; /* REQ: the address and port the peer asked for (IP header) */
};

/* RDMA-CM on the wire: what the IB CM message of a connection says (librdmacm's conn_param). */
struct softhw_rnic_cm_param {
	struct softhw_rnic_qp *data;  /* the qp the REQ / REP describe (see connect_addr_data); NULL: the connection's own */
	const void *private_data;     /* REQ: up to 56 bytes; REP: 196; REJ: 148 */
	uint8_t private_data_len;
	bool depths;                  /* responder resources / initiator depth given (else the path's) */
	uint8_t responder_resources, initiator_depth; /* more than the path serves is lowered to it */
	uint32_t qpn;                 /* no data qp: the QPN to name (conn_param's qp_num); 0: the connection qp's */
	uint16_t src_port;            /* REQ: the active side's RDMA-CM port (the id's); 0: one is made up */
	bool counts;                  /* retry / RNR retry counts given (librdmacm's conn_param; else 7 / the ep's) */
	uint8_t retry_count, rnr_retry_count; /* 0-7: what the peer's QP is to use, as the REQ / REP say it */
};

/*
 * A qp connected by its peer's address and QPN alone, as verbs' ibv_modify_qp does (RoCEv2
 * cards): RTR (it receives from then on) with what the peer told the application out of band,
 * then RTS (it sends) with its own first PSN and retry counts.
 */
struct softhw_rnic_wire_rtr {
	uint32_t peer_ip;             /* IPv4, host order: the peer's GID ::ffff:a.b.c.d */
	uint32_t peer_qpn;            /* 24 bits, not 0 or 1 */
	uint32_t rq_psn;              /* first PSN the peer sends */
	uint32_t flow_label;          /* the address vector's; the UDP source port follows from it, as rxe's */
	uint8_t mtu_log;              /* path MTU 2^8..2^12, at most the port's */
	uint8_t min_rnr_timer;        /* RNR NAK timer code this side sends */
	uint8_t max_dest_rd_atomic;   /* READs / atomics served at once (0: NAKed) */
	uint32_t access;              /* DOCA_ACCESS_FLAG_RDMA_* the peer's requests may use (else NAK remote access) */
};

struct softhw_rnic_wire_rts {
	uint32_t sq_psn;              /* first PSN this side sends */
	uint8_t timeout;              /* local ACK timeout code (4.096 us << timeout; 0: none) */
	uint8_t retry_cnt, rnr_retry; /* 0-7 (7: RNR retries without end; rxe's transport retries too) */
	uint8_t max_rd_atomic;        /* READs / atomics in flight at once (0: 1) */
	uint32_t access;              /* as in softhw_rnic_wire_rtr (given again, or changed) */
	bool access_only;             /* RTS -> RTS: only `access` changes */
};

struct softhw_rnic_ops {
	/* ---- endpoint (doca_rdma start / stop) ---- */
	doca_error_t (*ep_create)(const struct softhw_rnic_ep_attr *attr, struct softhw_rnic_ep **ep);
	/* Tears everything down: qps closed (peers see DISCONNECTED), listeners closed, no more CQEs. */
	void (*ep_destroy)(struct softhw_rnic_ep *ep);
	/* Takes up to `max` CQEs, in order; a connection event (not CQE_WR) ends the batch. Never blocks. */
	int (*ep_poll)(struct softhw_rnic_ep *ep, struct softhw_rnic_cqe *cqes, int max);
	/* The owner is going to sleep: call notify once when a CQE arrives. True if CQEs wait already. */
	bool (*ep_arm)(struct softhw_rnic_ep *ep);
	/*
	 * owner_wakes eps: a descriptor (poll it, never read it) readable when a peer rang one of the
	 * ep's doorbells; -1 for other eps. ep_owner_wait, after an ep_arm that returned false: the
	 * owner now sleeps on it, so the service thread leaves those doorbells to it until the
	 * owner's next ep_poll or ep_serve. ep_serve: it was readable: do what the service thread
	 * would (take messages and ACKs; CQEs notify as after ep_arm).
	 */
	int (*ep_wait_fd)(struct softhw_rnic_ep *ep);
	void (*ep_owner_wait)(struct softhw_rnic_ep *ep);
	void (*ep_serve)(struct softhw_rnic_ep *ep);
	/* Posts a receive (shared by all qps of the ep). The sgl is copied. */
	doca_error_t (*ep_post_recv)(struct softhw_rnic_ep *ep, uint64_t wr_id, const struct softhw_rnic_sge *sgl,
				     uint32_t num_sge);
	/*
	 * Takes back every posted receive no message has claimed (doca_ctx_stop flushes them); each
	 * comes back as a CQE_WR (op RECV) with status `status` on the next ep_poll.
	 */
	void (*ep_flush_recv)(struct softhw_rnic_ep *ep, doca_error_t status);

	/* ---- out-of-band connections (doca_rdma_export / doca_rdma_connect) ---- */
	doca_error_t (*qp_create)(struct softhw_rnic_ep *ep, void *user, struct softhw_rnic_qp **qp);
	/* The qp's descriptor (owned by the qp, valid until it is destroyed). */
	doca_error_t (*qp_export)(struct softhw_rnic_qp *qp, const void **blob, size_t *len);
	/*
	 * Connects to the peer a descriptor names. INVALID_VALUE for a corrupted, truncated or
	 * foreign blob (logged with why); BAD_STATE if already connected. Returns at once; work
	 * posted before the connection is up waits for it. A peer that cannot be reached fails the
	 * qp (CQE_FAILED) and its posted work.
	 */
	doca_error_t (*qp_connect)(struct softhw_rnic_qp *qp, const void *blob, size_t len);

	/* ---- RDMA-CM ---- */
	/* Listens on TCP `port` of every address (IPv4 and IPv6). ALREADY_EXIST / IN_USE if taken. */
	doca_error_t (*listen)(struct softhw_rnic_ep *ep, uint16_t port);
	doca_error_t (*unlisten)(struct softhw_rnic_ep *ep, uint16_t port);
	/* Connects to a listener; ESTABLISHED, or FAILED (nobody listens, rejected, time-out). */
	doca_error_t (*connect_addr)(struct softhw_rnic_ep *ep, const struct sockaddr *addr, socklen_t addr_len,
				     void *user, struct softhw_rnic_qp **qp);
	/* Answers a CQE_REQUEST. Accept sets the qp's user pointer; both sides then get ESTABLISHED. */
	doca_error_t (*qp_accept)(struct softhw_rnic_qp *qp, void *user, const void *private_data, uint8_t len);
	doca_error_t (*qp_reject)(struct softhw_rnic_qp *qp);
	/* The peer's address (CM connections); NOT_FOUND for out-of-band ones. */
	doca_error_t (*qp_peer_addr)(const struct softhw_rnic_qp *qp, struct sockaddr_storage *addr);
	/*
	 * RDMA-CM on the wire (RoCEv2 cards; NOT_SUPPORTED on others), as Linux rdma_cm: the IB CM
	 * messages of connection qp `qp` describe `data` (a qp_create'd qp of an ep on the same card,
	 * not connected): its QPN and PSN go in the REQ / REP and its engine carries the traffic,
	 * while `qp` only reports the connection's events. connect_addr_data: connect_addr so (the
	 * REQ as `p` says); accept_data: qp_accept so (the REP); reject_data: qp_reject with the
	 * REJ's private data.
	 */
	doca_error_t (*connect_addr_data)(struct softhw_rnic_ep *ep, const struct sockaddr *addr, socklen_t addr_len,
					  void *user, const struct softhw_rnic_cm_param *p, struct softhw_rnic_qp **qp);
	doca_error_t (*qp_accept_data)(struct softhw_rnic_qp *qp, void *user, const struct softhw_rnic_cm_param *p);
	doca_error_t (*qp_reject_data)(struct softhw_rnic_qp *qp, const void *private_data, uint8_t len);
	/* What the peer's CM message said (REQ after CQE_REQUEST, REP after ESTABLISHED, REJ after FAILED). */
	doca_error_t (*qp_cm_info)(const struct softhw_rnic_qp *qp, struct softhw_rnic_cm_info *info);
	/* The qp's number on the wire (a RoCEv2 card's QPN), 0 on other paths. */
	uint32_t (*qp_wire_num)(struct softhw_rnic_qp *qp);

	/*
	 * Verbs' modify to RTR / RTS on a qp no one connected (NOT_SUPPORTED on cards without an
	 * addressable wire; BAD_STATE: the qp is connected or connecting otherwise, or RTS before RTR,
	 * or after it posted; INVALID_VALUE: an attribute the card cannot take, logged).
	 */
	doca_error_t (*qp_wire_rtr)(struct softhw_rnic_qp *qp, const struct softhw_rnic_wire_rtr *a);
	doca_error_t (*qp_wire_rts)(struct softhw_rnic_qp *qp, const struct softhw_rnic_wire_rts *a);
	/*
	 * Verbs' modify to RESET of such a qp, connected or in error: its work completes flushed (the
	 * caller discards those CQEs: a reset QP reports nothing), its connection ends without a word
	 * to the peer, and it is as made, with its QPN, ready for qp_wire_rtr again (NOT_SUPPORTED on
	 * cards without an addressable wire; BAD_STATE: an RDMA-CM qp, or one connected otherwise).
	 */
	doca_error_t (*qp_wire_reset)(struct softhw_rnic_qp *qp);

	/* The path MTU (log2, 8..12) a qp of the function may use: on a RoCEv2 card its address's
	 * interface MTU less the headers (as rxe's active MTU); 10 (1024) on the other paths. */
	uint8_t (*port_mtu_log)(const struct softhw_function *fn);

	/* ---- data path ---- */
	/*
	 * Queues a work request. On a qp that failed or ended, the wr completes flushed (SHUTDOWN, or
	 * CONNECTION_ABORTED after a hang-up) behind the end's CQEs, or is refused with NOT_CONNECTED
	 * if wr->refuse_in_error; NOT_CONNECTED on one not connected yet (the caller logs which call
	 * to make). Everything else is reported by the wr's CQE: the target's
	 * refusal (NOT_PERMITTED: the rkey's export or the target ep lacks the right;
	 * INVALID_VALUE: outside the export / unknown rkey), the peer's death (CONNECTION_ABORTED),
	 * a receive too small (TOO_BIG, and the receiver's receive fails too), no receive posted
	 * after the retries (AGAIN), a flush on disconnect (SHUTDOWN). A failed wr moves the qp to
	 * error (CQE_FAILED follows), as verbs does.
	 */
	doca_error_t (*qp_post)(struct softhw_rnic_qp *qp, const struct softhw_rnic_wr *wr);
	/* Graceful close: the peer gets DISCONNECTED; work still queued completes with SHUTDOWN. */
	doca_error_t (*qp_disconnect)(struct softhw_rnic_qp *qp);
	/* Frees the qp (disconnecting it first if needed); no CQE mentions it afterwards. */
	void (*qp_destroy)(struct softhw_rnic_qp *qp);
};

/* The soft NIC of every soft device (lib/softhw/rnic/). */
extern const struct softhw_rnic_ops softhw_rnic_ops;

#endif /* SOFTHW_RNIC_H */
