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
 * RC order across paths: a work request goes on a path only while no other path of the qp has
 * work in flight (qp->inflight[], kept by the core); otherwise it waits in post order.
 *
 * Adding a path: one file with its state and its table (ops marked "optional" may be NULL),
 * one entry in enum rnic_path_id and in rnic_paths[] (path.c); rnic_path_check() says what a
 * table lacks. Nothing else names a path.
 */
#ifndef SOFTHW_RNIC_PATH_H
#define SOFTHW_RNIC_PATH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* Index into rnic_paths[] and qp->path[] / qp->inflight[] / ep->path_qps[]: registry order. */
enum rnic_path_id {
	RNIC_PATH_RING = 0, /* ring.c: same host, shared-memory ring for two-sided messages */
	RNIC_PATH_MSOCK,    /* msock.c: TCP, a second socket for two-sided messages and small writes */
	RNIC_PATH_STREAM,   /* io.c: the qp's unix or TCP socket; takes what no path before it wants */
	RNIC_PATH_COUNT,
	RNIC_PATH_NONE = 0xff, /* a work request on no path (executed by cross-memory attach) */
};

struct rnic_qp;
struct rnic_ep;
struct rnic_wr;
struct rnic_hello;
struct rnic_hdr;

/*
 * A path's registered descriptor (epoll, tag RNIC_TAG_PATH) points at this, the first member of
 * its per-qp state: the service thread hands the event to the path's event op.
 */
struct rnic_path_link {
	struct rnic_qp *qp;
	uint8_t id; /* enum rnic_path_id */
};

/* "qp lock held" unless said; "service thread": called only there. */
struct rnic_path_ops {
	const char *name;

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
	/* this wr goes on this path (NULL only for the last path: everything) */
	bool (*wants)(const struct rnic_qp *qp, const struct rnic_wr *wr);
	/* optional: room for one more (false with nothing in flight: the peer broke it, hang up) */
	bool (*can_post)(struct rnic_qp *qp);
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
	/* owner, no lock: going to sleep; true if something waits already */
	bool (*arm)(struct rnic_ep *ep);
	/* optional; owner, no lock: a receive was posted while a qp of the ep waited for one */
	void (*recv_posted)(struct rnic_ep *ep);
	/* the service thread keeps this qp's time (a stall, ACKs awaited) */
	bool (*timed)(const struct rnic_qp *qp);
	/* when it wants its timer next (ms, monotonic; UINT64_MAX: no time) */
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
extern const struct rnic_path_ops rnic_stream_path;

/* The registry, indexed by enum rnic_path_id. */
extern const struct rnic_path_ops *const rnic_paths[RNIC_PATH_COUNT];

/* NULL if the table is complete, else what it lacks. `last`: the registry's last entry. */
const char *rnic_path_check(const struct rnic_path_ops *ops, bool last);
/* A registered path by name; NULL and an SDK error line if there is none of that name. */
const struct rnic_path_ops *rnic_path_find(const char *name);

#endif /* SOFTHW_RNIC_PATH_H */
