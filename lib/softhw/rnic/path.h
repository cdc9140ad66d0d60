/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft NIC's paths (private to lib/softhw/rnic/): how a qp's work reaches its peer.
 *
 * The qp (qp.c) keeps what every transport shares: its state, its send queue in post order
 * (seq is the PSN), its peer's rights, its ep's CQ and receives. A path keeps its own state
 * (qp->path[id], allocated by the path when it comes up on that qp) and reaches the qp core
 * only through the table below, the way rdma-core's providers or libfabric's prov/ plug in.
 * The registry (path.c, rnic_paths[]) lists them in the order a work request tries them: the
 * first whose wants() takes it carries it; the last, the stream, takes everything (and is the
 * connection: handshake, one-sided operations, control frames, liveness).
 *
 * Connections: a path with the ops marked "connection" (open and the rest) can be a qp's
 * connection: it sets the qp up, carries what no other path takes, ends it and keeps the
 * process reachable. A qp's connection (qp->conn) is the first such path in the registry
 * whose serves() takes the qp's ep (rnic_conn_choose()); the last path must be one that
 * serves every ep. The core asks only the qp's connection (rnic_conn_of()), so it names no
 * transport.
 *
 * RC order across paths: a work request goes on a path only while no other path of the qp has
 * work in flight (qp->inflight[], kept by the core); otherwise it waits in post order.
 *
 * Adding a path: one file with its state and its table (ops marked "optional" may be NULL),
 * one entry in enum rnic_path_id and in rnic_paths[] (path.c); rnic_path_check() says what a
 * table lacks. Nothing else names a path (docs/hacking.md).
 */
#ifndef SOFTHW_RNIC_PATH_H
#define SOFTHW_RNIC_PATH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "doca_error.h"

/* Index into rnic_paths[] and qp->path[] / qp->inflight[] / ep->path_qps[]: registry order. */
enum rnic_path_id {
	RNIC_PATH_RING = 0, /* ring.c: same host, shared-memory ring for two-sided messages */
	RNIC_PATH_MSOCK,    /* msock.c: TCP, a second socket for two-sided messages and small writes */
	RNIC_PATH_ROCE,     /* roce_path.c: RoCEv2 over UDP 4791, the connection of cards with wire = rocev2 */
	RNIC_PATH_STREAM,   /* io.c: the qp's unix or TCP socket; takes what no path before it wants */
	RNIC_PATH_COUNT,
	RNIC_PATH_NONE = 0xff, /* a work request on no path (executed by cross-memory attach) */
};

struct rnic_qp;
struct rnic_ep;
struct rnic_wr;
struct rnic_hello;
struct rnic_hdr;
struct rnic_peer;
struct softhw_function;
struct softhw_rnic_wire_rtr;
struct softhw_rnic_wire_rts;

/*
 * A path's registered descriptor (epoll, tag RNIC_TAG_PATH) points at this, the first member of
 * its per-qp state: the service thread hands the event to the path's event op.
 */
struct rnic_path_link {
	struct rnic_qp *qp;
	uint8_t id; /* enum rnic_path_id */
};

/*
 * A path's process-wide descriptor (epoll, tag RNIC_TAG_NIC: a listener, a socket waiting for
 * its hello) points at this, the first member of its own structure: the service thread hands
 * the event to the path's nic_event op. `kind` is the path's own.
 */
struct rnic_nic_link {
	uint8_t id; /* enum rnic_path_id */
	uint8_t kind;
};

/* "qp lock held" unless said; "service thread": called only there. */
struct rnic_path_ops {
	const char *name;

	/* ---- the connection (all or none; the registry's last path has them) ---- */
	/* what descriptors of its qps say in their wire byte: a peer must speak the same (0: the stream) */
	uint8_t wire;
	/* the descriptors carry all a connection needs: both sides dial (no hello, no acceptor) */
	bool symmetric;
	/* optional: fill in what only this qp's connection knows (its own addresses and numbers) */
	void (*describe_qp)(const struct rnic_qp *qp, struct rnic_peer *p);
	/* optional: the qp's QPN on the wire. A connection that has one carries RDMA-CM for another
	 * qp of the card (librdmacm's data qp: rnic_cm_connect_data); without it, only for its own */
	uint32_t (*wire_qpn)(const struct rnic_qp *qp);
	/* optional, qp lock held: verbs' modify to RTR (a QP_IDLE qp no one connected) and then to RTS
	 * connect it by its peer's address and QPN (softhw_rnic_ops.qp_wire_rtr / _rts) */
	doca_error_t (*wire_rtr)(struct rnic_qp *qp, const struct softhw_rnic_wire_rtr *a);
	doca_error_t (*wire_rts)(struct rnic_qp *qp, const struct softhw_rnic_wire_rts *a);
	/* with wire_rtr, qp lock held, after its close: back to how open made it, its QPN kept (RESET) */
	void (*wire_reset)(struct rnic_qp *qp);
	/* no lock: this path connects the qps of this ep (its profile, SOFTDOCA_RDMA_TRANSPORT, ...) */
	bool (*serves)(const struct rnic_ep *ep);
	/* no lock: a qp is made with this connection; allocate its state into qp->path[id] (false: no memory) */
	bool (*open)(struct rnic_qp *qp);
	/* service thread: the qp is QP_DIALING (dial, or go on with it: the peer is qp->peer or qp->peer_addr) */
	void (*dial)(struct rnic_qp *qp);
	/* a CM request (QP_REQUEST) is answered; a refusal ends the connection once the answer left */
	void (*answer)(struct rnic_qp *qp, doca_error_t status);
	/* the qp ends in order (QP_RTS): tell the peer, unless output still waits (then the close says it) */
	void (*bye)(struct rnic_qp *qp);
	/* the qp stops (after off): drop output (a cut frame sets qp->broken), flush what is being received
	 * with `flush`, close once what is left went */
	void (*shut)(struct rnic_qp *qp, doca_error_t flush);
	/* the connection's transport is open (a hang-up has something to close) */
	bool (*up)(const struct rnic_qp *qp);
	/* service thread: hang up now (qp->broken, or a close asked and its output gone) */
	bool (*must_end)(const struct rnic_qp *qp);
	/* optional, no lock: the path MTU (log2) this path's wire allows the function (0: not one of its) */
	uint8_t (*port_mtu_log)(const struct softhw_function *fn);
	/* nic.lock held: make this process reachable (descriptors name where; until it succeeds once) */
	doca_error_t (*nic_listen)(const struct softhw_function *fn);
	/* fill in where dialers reach us (a descriptor's or a hello's addresses; wire.h) */
	void (*describe)(struct rnic_peer *p);
	/* RDMA-CM: listen on a port for an ep this path serves, and stop */
	doca_error_t (*cm_listen)(struct rnic_ep *ep, uint16_t port);
	doca_error_t (*cm_unlisten)(struct rnic_ep *ep, uint16_t port);
	/* nic.lock held: the ep is destroyed; what the path keeps for it goes at the next nic_reap */
	void (*ep_gone)(struct rnic_ep *ep);

	/* ---- the process (service thread; all optional) ---- */
	/* an event on a descriptor registered with RNIC_TAG_NIC */
	void (*nic_event)(struct rnic_nic_link *link, uint32_t events);
	/* when it wants its process-wide timer next (ms, monotonic; UINT64_MAX: no time) */
	uint64_t (*nic_next_time)(uint64_t now);
	void (*nic_timer)(uint64_t now);
	/* woken: free what owners gave up (they wait for it) */
	void (*nic_reap)(void);
	/* the service thread ended (or never started): close the process-wide descriptors */
	void (*nic_stop)(void);
	/* a forked child: close the parent's process-wide descriptors and forget them (no free) */
	void (*nic_atfork)(void);

	/* ---- connecting ---- */
	/* optional, with attach: a HELLO with this flag is a second connection of this path */
	uint16_t hello_flag;
	/* service thread, no lock: such a connection arrived (takes fd: attaches or closes it) */
	void (*attach)(int fd, const struct rnic_hello *h, const struct sockaddr_storage *from);
	/* optional; acceptor: answer the dialer's hello yourself (true: answered) */
	bool (*accept)(struct rnic_qp *qp, const struct sockaddr_storage *from);
	/* optional; dialer: the acceptor's answer came with these flags (false: unusable, hang up) */
	bool (*join)(struct rnic_qp *qp, uint16_t ack_flags);
	/* optional; dialer: the qp is connected (open what the path needs) */
	void (*dialed)(struct rnic_qp *qp);

	/* ---- sending (the core keeps wr->path, wr->sent and qp->inflight[]) ---- */
	/* this wr goes on this path (NULL: a connection that takes only what no path wants) */
	bool (*wants)(const struct rnic_qp *qp, const struct rnic_wr *wr);
	/* optional: room for this wr (false with nothing in flight: the peer broke it, hang up) */
	bool (*can_post)(struct rnic_qp *qp, const struct rnic_wr *wr);
	void (*post)(struct rnic_qp *qp, struct rnic_wr *wr);

	/* ---- progress ---- */
	/* takes ACKs and messages (also before the qp ends on the stream: what arrived counts) */
	void (*pump)(struct rnic_qp *qp);
	/* optional: the peer's F_NUDGE came on the stream */
	void (*nudged)(struct rnic_qp *qp);
	/* optional; service thread, no lock: an event on a descriptor registered with RNIC_TAG_PATH */
	void (*event)(struct rnic_qp *qp, uint32_t events);
	/* optional, with arm; owner, no lock: ep_poll, when ep->path_qps[id] != 0 */
	void (*poll)(struct rnic_ep *ep);
	/* the owner's poll takes this path's RDMA-CM qps too: rnic_ep_up_qps lists them (else only
	 * the qps the owner made out of band) */
	bool owner_polls_cm;
	/* owner, no lock: going to sleep; true if something waits already */
	bool (*arm)(struct rnic_ep *ep);
	/*
	 * optional, with serve (owner_wakes eps); qps_lock held: the owner sleeps on ep->wait_fd
	 * (true: the service thread stops watching the path's doorbells of the ep) or is awake again
	 */
	void (*owner_wait)(struct rnic_ep *ep, bool sleeping);
	/* optional; owner, no lock: ep->wait_fd was readable: take what the doorbells announced */
	void (*serve)(struct rnic_ep *ep);
	/* optional; owner, no lock: a receive was posted while a qp of the ep waited for one */
	void (*recv_posted)(struct rnic_ep *ep);
	/* the service thread keeps this qp's time (a stall, ACKs awaited) */
	bool (*timed)(const struct rnic_qp *qp);
	/* qp lock held: when it wants its timer next (ms, monotonic; UINT64_MAX: no time) */
	uint64_t (*next_time)(const struct rnic_qp *qp);
	/* service thread: time passed, or woken (a receive may have been posted) */
	void (*timer)(struct rnic_qp *qp, uint64_t now, bool woken);

	/* ---- ending ---- */
	/* optional: send what is held back (ACKs) before the stream says BYE or closes */
	void (*flush)(struct rnic_qp *qp);
	/*
	 * optional: note in our BYE what this path delivered, and on the peer's BYE complete what it
	 * says was delivered: a path with its own socket has its ACKs race the BYE on the stream
	 */
	void (*bye_note)(const struct rnic_qp *qp, struct rnic_hdr *bye);
	void (*peer_bye)(struct rnic_qp *qp, const struct rnic_hdr *bye);
	/* the qp failed or closed: stop using the path (work in flight is flushed by the core) */
	void (*off)(struct rnic_qp *qp);
	/* optional; service thread: the stream hung up */
	void (*close)(struct rnic_qp *qp);
	/* rnic_qp_free: release everything */
	void (*free)(struct rnic_qp *qp);
	/* optional; a forked child: close the path's descriptors (nothing else: the parent's) */
	void (*atfork)(struct rnic_qp *qp);
};

extern const struct rnic_path_ops rnic_ring_path;
extern const struct rnic_path_ops rnic_msock_path;
extern const struct rnic_path_ops rnic_roce_path;
extern const struct rnic_path_ops rnic_stream_path;

/* The registry, indexed by enum rnic_path_id. */
extern const struct rnic_path_ops *const rnic_paths[RNIC_PATH_COUNT];

/* The connection of a new qp of this ep: the first connection path that serves it. */
uint8_t rnic_conn_choose(const struct rnic_ep *ep);

/* NULL if the table is complete, else what it lacks. `last`: the registry's last entry (a connection). */
const char *rnic_path_check(const struct rnic_path_ops *ops, bool last);
/* The name of the connection path whose descriptors carry this wire byte ("unknown" if none). */
const char *rnic_wire_name(uint8_t wire);
/* A registered path by name; NULL and an SDK error line if there is none of that name. */
const struct rnic_path_ops *rnic_path_find(const char *name);

#endif /* SOFTHW_RNIC_PATH_H */
