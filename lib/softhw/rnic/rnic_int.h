/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft RDMA NIC's insides (private to lib/softhw/rnic/).
 *
 * One service thread per process (nic.c) waits in epoll on the paths' descriptors and hands
 * their events to the paths (path.h). A qp (qp.c) keeps what every transport shares: its
 * state, its send queue in post order, its peer, its ep's CQ and receives (ep.c). The
 * connection (rnic_conn_of(qp): the stream, stream.h) dials, answers and carries what no other
 * path takes; two-sided messages (and small writes over TCP) may go on a faster path, taken
 * by the owner's ep_poll: on the same host a shared-memory ring per qp (ring.c), over TCP a
 * second socket per qp (msock.c). One-sided work on the same host may run in the poster by
 * cross-memory attach (cma.c) before any path is asked. The qp core names no path: it asks
 * the registry.
 *
 * Locks, in order: nic.lock (tables, control lists) -> qp->lock -> ep->lock (CQ, receives).
 * Only the service thread closes a qp's descriptors or frees a qp (after qp_destroy marked it
 * dead): an epoll event never points at freed memory.
 */
#ifndef SOFTHW_RNIC_INT_H
#define SOFTHW_RNIC_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "softhw/base/bias_lock.h"
#include "softhw/base/lock.h"
#include "softhw/fabric/channel.h"
#include "softhw/fabric/peer.h"
#include "softhw/rnic/path.h"
#include "softhw/rnic/rnic.h"
#include "softhw/rnic/wire.h"
#include "softhw/softhw.h"

#define RNIC_RNR_INTERVAL_MS 10
#define RNIC_RNR_FOREVER 7 /* rnr_retry_count that retries for ever (as verbs) */
#define RNIC_DIAL_TIMEOUT_MS 5000
/*
 * Work posted on a qp whose peer dials us waits for that peer at most this long (ms; as RoCEv2's
 * peer watch, and as a real NIC's retries run out on a peer that never set up its qp); then it
 * fails with CONNECTION_ABORTED. SOFTDOCA_RDMA_WAIT_MS changes it (0: for ever).
 */
#define RNIC_WAIT_PEER_MS 10000
uint32_t rnic_wait_peer_ms(void);
/* An RDMA-CM request, once delivered, waits for the peer's application as long as Linux rdma_cm's
 * REQ does (16 sends, 4.8 s apart): a server may accept late. The dial time-out bounds the steps
 * before it (DOCA's connection request time-out is for the resolve steps). */
#define RNIC_CM_ANSWER_MS 80000
#define RNIC_INLINE_SGE 4
/*
 * Work requests a qp has on one path at once (rnic_qp_pump): the rest wait in its queue for
 * answers. A DOCA program may have more tasks submitted than that (a pool per task type, DPA
 * posts), so the bound is the NIC's, not the program's.
 */
#define RNIC_INFLIGHT_MAX 32768u
/*
 * Answers to a peer's requests that may wait for it to read them (stream: frames in the
 * out-queue; message socket: ACKs in its buffer). A softdoca peer never has more than
 * RNIC_INFLIGHT_MAX requests outstanding on a path, and each waits for its answer: more
 * unread answers than this are a peer that sends and does not read, which would otherwise grow
 * our memory without bound. The connection ends (rnic_qp_log_unread).
 */
#define RNIC_ANSWERS_MAX (2 * RNIC_INFLIGHT_MAX)

/* ---- objects ---- */

/* A frame on its way out on the stream (stream.h): header + payload iovecs, advanced in place as bytes leave. */
struct rnic_out {
	struct rnic_out *next;
	struct rnic_hdr hdr;
	struct iovec *iov;        /* iov_inline or heap */
	struct iovec iov_inline[1 + RNIC_INLINE_SGE];
	int iovcnt;
	int idx;
	bool heap;                /* the item (and `owned`) are freed once written */
	bool started;             /* some bytes left: it must be finished or the stream closed */
	bool pinned;              /* iov[1..] is exported memory (pin_id, pin_token): pinned for every write */
	uint32_t answers;         /* answers (F_RESP) to the peer's requests it holds: counted until it left */
	bool fetched;             /* a READ's answer from a re-export: read through its import a chunk at a
				     time (into `owned`) as the socket takes it, from pin_id / pin_token */
	uint64_t f_addr, f_left;  /* fetched: where the next chunk starts, what is left to read */
	uint64_t pin_id, pin_token;
	void *owned;              /* payload copy owned by a heap item */
};

struct rnic_wr {
	struct rnic_wr *next;
	uint64_t wr_id;
	enum softhw_rnic_opcode op;
	struct softhw_rnic_rkey rkey;
	uint32_t imm;
	uint64_t arg0, arg1;
	uint64_t seq;
	uint64_t bytes;           /* sum of the sgl */
	struct softhw_rnic_sge *sgl;
	struct softhw_rnic_sge sgl_inline[RNIC_INLINE_SGE];
	uint32_t num_sge;
	bool sent;                /* handed to a path (or executed by CMA) */
	uint8_t path;             /* enum rnic_path_id: where it went */
	uint8_t parts;            /* records it took on a path that cuts it (ring.c's WRITEs) */
	bool cma;                 /* executed locally by cross-memory attach */
	bool doomed;              /* fails on purpose at its completion (faults.rdma_error) */
	bool cut;                 /* its connection is cut before it leaves (faults.disconnect; queued while connecting) */
	struct rnic_out out;
};

struct rnic_recv {
	struct rnic_recv *next;
	uint64_t wr_id;
	struct softhw_rnic_sge *sgl;
	struct softhw_rnic_sge sgl_inline[RNIC_INLINE_SGE];
	uint32_t num_sge;
	uint64_t bytes;
};

enum rnic_qp_state {
	QP_IDLE = 0,  /* created, no descriptor yet (OOB: a dialer may still come) */
	QP_WAITING,   /* descriptor given, the peer dials us */
	QP_DIALING,   /* the service thread is to dial / is connecting */
	QP_HANDSHAKE, /* hello sent, waiting for the acceptor's answer */
	QP_REQUEST,   /* CM server: request queued, waiting for accept / reject */
	QP_RTS,       /* connected */
	QP_ERROR,     /* failed: posts complete flushed (qp->flush), or fail with NOT_CONNECTED (refuse_in_error) */
	QP_CLOSED,    /* disconnected (by either side): posts as in QP_ERROR once it was connected */
};

struct rnic_ep;
struct softhw_mem_remote;

#define RNIC_CMA_CACHE 4
#define RNIC_OWN_CQ 32

/* A remote export reached by cross-memory attach (cma.c); remote NULL: not reachable so. */
struct rnic_cma {
	bool used;
	uint64_t id;
	uint64_t token;
	struct softhw_mem_remote *remote;
};

struct rnic_qp {
	struct rnic_qp *next_all;  /* nic.qps (nic.lock) */
	struct rnic_qp *next_ep;   /* ep->qps (nic.lock) */
	struct rnic_qp *next_own;  /* ep->own_qps (owner thread only) */
	struct rnic_qp *next_up[RNIC_PATH_COUNT]; /* ep->up[p] (owner thread only) */
	uint8_t up_mask;           /* atomic: the paths up on this qp (rnic_path_up) */
	bool own;                  /* made by the owner out of band (rnic_qp_create; on own_qps) */
	bool hidden;               /* the responder half of a qp connected to itself: says nothing (no CQE of its own) */
	struct rnic_qp *mirror;    /* that half, of the qp connected to itself (owner thread only) */
	struct rnic_qp *next_ctl;  /* nic.dials / nic.graveyard (nic.lock) */
	struct rnic_qp *next_timed; /* service thread: stalled / connecting qps */
	struct rnic_ep *ep;
	uint64_t id;
	uint64_t token;

	struct softhw_bias_lock lock; /* everything below (leans to the posting thread: bias_lock.h) */
	void *user;
	enum rnic_qp_state state;
	doca_error_t flush;        /* QP_ERROR, QP_CLOSED: what work posted now completes with (qp_shut's flush) */
	bool dead;                 /* qp_destroy called: the service thread frees it */
	bool cm;                   /* made by RDMA-CM */
	bool dialer;
	bool has_desc;             /* qp_connect was given the peer's descriptor */
	bool has_peer;             /* peer known (descriptor or hello) */
	bool local;                /* same host and network namespace */
	bool broken;               /* a path failed (a write, the peer's rules): the service thread hangs up */
	bool timed;                /* in the service thread's timed list */
	struct rnic_peer peer;
	uint64_t deadline;         /* connect deadline (ms, monotonic), 0: none */
	uint32_t wait_ms;          /* QP_WAITING with work posted: how long its deadline gave the peer */
	struct sockaddr_storage peer_addr; /* RDMA-CM: the address dialed, or the dialer's */
	uint8_t cm_pdata[196];     /* RDMA-CM: the private data the owner accepted with (a path that carries it) */
	uint8_t cm_pdata_len;
	struct rnic_qp *cm_data;   /* RDMA-CM on the wire: the qp the CM messages describe (NULL: this one) */
	bool cm_depths;            /* ... and the responder resources / initiator depth they offer */
	uint8_t cm_resp_res, cm_init_depth;
	uint32_t cm_qpn;           /* ... the QPN they name when there is no data qp (0: this one's) */
	uint16_t cm_src_port;      /* ... the REQ's RDMA-CM source port (0: made up) */
	bool cm_wait_rtu;          /* a data qp whose (passive) connection waits for its RTU (atomic) */
	uint8_t cm_rd_atomic;      /* RDMA-CM: READs / atomics the peer serves at once (its responder resources); 0: the path's */
	bool cm_counts;            /* RDMA-CM: the owner gave the retry / RNR retry counts our REQ / REP offer */
	uint8_t cm_retry, cm_rnr_retry;
	uint8_t cm_peer_rnr;       /* RDMA-CM: the RNR retry count the peer's REQ / REP asked of our QP, plus 1; 0: none */
	bool has_cm_info;
	struct softhw_rnic_cm_info cm_info; /* what the peer's CM message said */
	uint8_t desc[RNIC_DESC_LEN];

	struct rnic_wr *wq_head;   /* posted work, in post order, until its completion */
	struct rnic_wr *wq_tail;
	struct rnic_wr *wq_next;   /* first wr not issued yet (waits for RTS or for the other path) */
	uint8_t conn;              /* enum rnic_path_id: the qp's connection (path.h), for its life */
	uint32_t inflight[RNIC_PATH_COUNT]; /* issued on each path, not answered (RC order: one path at a time) */
	void *path[RNIC_PATH_COUNT]; /* each path's own state (path.h), NULL until it comes up on this qp
				      * (the connection's: from rnic_qp_new) */

	struct rnic_wr *free_wrs;
	uint64_t next_seq;

	struct rnic_cma cma[RNIC_CMA_CACHE];
	int cma_next;
	uint8_t direct;            /* cma.c may run work from the poster: 0 not asked yet, 1 yes, 2 no */
};

struct rnic_ep {
	struct rnic_ep *next;      /* nic.eps */
	struct softhw_rnic_ep_attr attr;
	struct softhw_faults *faults; /* the card's (faults.rdma_error); NULL: none */
	struct rnic_qp *qps;       /* changed under nic.lock and qps_lock; ep_poll walks it under qps_lock */
	/*
	 * The out-of-band qps (the only ones with a ring), listed by the owner's qp_create and
	 * unlisted by its qp_destroy: ep_poll walks them without a lock (a qp is freed, and its
	 * ring unmapped, only after the owner destroyed it).
	 */
	struct rnic_qp *own_qps;
	struct softhw_lock qps_lock; /* order: nic.lock -> qps_lock -> qp->lock */
	uint32_t cm_qps;           /* atomic: RDMA-CM qps on qps (made by the CM, not yet destroyed) */
	uint32_t path_qps[RNIC_PATH_COUNT]; /* atomic: qps on which each path is up (ep_poll's cheap check) */
	/*
	 * The qps on which each path is up, for the owner's poll (own_qps only, unless the path's
	 * owner_polls_cm): a context with a thousand connections exported and one in use looks at
	 * one. Rebuilt by the poller from ep->qps (under qps_lock) when up_gen moved (a path came up
	 * or went down, a qp was destroyed: qp_destroy moves it after unlisting the qp, under
	 * qps_lock), so a walk under qps_lock never meets a destroyed qp, nor one without it when
	 * only the owner destroys.
	 */
	struct rnic_qp *up[RNIC_PATH_COUNT];
	uint32_t up_gen;           /* atomic */
	uint32_t up_seen;          /* owner: the up_gen up[] was built at */
	uint32_t poll_seen;        /* owner: the up_gen poll_mask was taken at */
	uint8_t poll_mask;         /* owner: the paths with a poll and qps up (path_qps[] at poll_seen) */

	struct softhw_lock lock;   /* CQ and receive queue */
	struct softhw_rnic_cqe *cq;
	uint32_t cq_head;
	uint32_t cq_count;
	uint32_t cq_cap;
	uint32_t cq_avail;         /* atomic copy of cq_count: ep_poll's cheap check */
	bool armed;
	/*
	 * The owner's own completions (work the poster executed itself), without the lock. Used
	 * only while the CQ above is empty and the ep not armed, so everything here is older than
	 * everything there: ep_poll takes these first.
	 */
	struct softhw_rnic_cqe own[RNIC_OWN_CQ];
	uint32_t own_head;
	uint32_t own_count;
	struct rnic_recv *rq_head;
	struct rnic_recv *rq_tail;
	struct rnic_recv *free_recvs;
	uint32_t rnr_waiting;      /* atomic: qps of this ep stalled on an empty receive queue */
	/*
	 * owner_wakes: an epoll descriptor with the doorbells of the ep's paths (the owner polls
	 * it), and whether the owner sleeps on it now (atomic; changed under qps_lock), when the
	 * service thread leaves those doorbells alone.
	 */
	int wait_fd;
	bool owner_waits;
	uint64_t owner_woke;       /* atomic: the owner's wake-ups from that sleep (the paths' look at it) */
};

/* ---- nic.c: the service thread and process-wide state ---- */

/* epoll tags: the eventfd, a path's per-qp descriptor (rnic_path_link), a path's process-wide one (rnic_nic_link). */
enum { RNIC_TAG_WAKE = 1, RNIC_TAG_PATH = 2, RNIC_TAG_NIC = 3 };
#define RNIC_TAG_MASK 7u

struct rnic_nic {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool running;
	bool stop;
	pthread_t thread;
	int epfd;
	int wake_fd;
	struct rnic_ep *eps;
	struct rnic_qp *qps;
	uint64_t last_qp_id;
	struct rnic_qp *dials;       /* qps to dial */
	struct rnic_qp *graveyard;   /* destroyed qps to free */
	uint64_t reap_asked;
	uint64_t reap_done;
	struct rnic_host host;
	char instance[SOFTHW_MAX_STR]; /* the card's: unix rendezvous and memory service */
	bool reachable;                /* the connection's nic_listen succeeded */
};

extern struct rnic_nic rnic_nic;

doca_error_t rnic_nic_ep_add(struct rnic_ep *ep);  /* starts the thread with the first ep */
void rnic_nic_ep_remove(struct rnic_ep *ep);       /* joins it with the last */
/* This process is reachable by dialers (the connection's nic_listen), set up once. */
doca_error_t rnic_nic_oob_ready(const struct softhw_function *fn);
void rnic_nic_kick(void);
/* Hands dead qps / listeners to the service thread and waits until it freed them. nic.lock held. */
void rnic_nic_reap_wait(void);
uint64_t rnic_now_ms(void);
/* "10.0.0.1:4791", or the pid a local hello claims: for log lines about a dialer. */
void rnic_peer_name(const struct sockaddr_storage *from, const struct rnic_hello *h, char *buf, size_t len);
/* Registers a descriptor; tag: RNIC_TAG_* in the low bits of the pointer. */
void rnic_nic_add_fd(int fd, void *ptr, unsigned tag, uint32_t events);
void rnic_nic_del_fd(int fd);
/* Watch the qp's deadline / stall (from an owner's ep_poll: wakes the service thread, which does). */
void rnic_nic_timed_add(struct rnic_qp *qp);
/* The caller is the service thread. */
bool rnic_nic_on_thread(void);
/*
 * A qp already watched set a deadline (ms) under its lock: does the service thread sleep past
 * it (it computed its sleep before, or is computing it now)? Then it must be kicked.
 */
bool rnic_nic_sleeps_past(uint64_t ms);
struct rnic_qp *rnic_qp_find(uint64_t id); /* nic.lock held */

/* ---- wire.c ---- */

void rnic_host_self(struct rnic_host *host);
void rnic_desc_encode(const struct rnic_peer *p, uint8_t out[RNIC_DESC_LEN]);
doca_error_t rnic_desc_decode(const void *buf, size_t len, struct rnic_peer *p, const char **why);
bool rnic_same_host(const struct rnic_host *a, const struct rnic_host *b);
/* The same qp of the same process on the same host (descriptor or hello). */
bool rnic_same_peer(const struct rnic_peer *a, const struct rnic_peer *b);
/* SOFTDOCA_RDMA_TRANSPORT: 't' (tcp), 'u' (unix) or 0 (automatic). */
char rnic_transport_forced(void);
void rnic_self_peer(const struct rnic_ep *ep, const struct rnic_qp *qp, struct rnic_peer *p);

/* ---- ep.c ---- */

doca_error_t rnic_ep_create(const struct softhw_rnic_ep_attr *attr, struct softhw_rnic_ep **ep);
void rnic_ep_destroy(struct softhw_rnic_ep *ep);
int rnic_ep_poll(struct softhw_rnic_ep *ep, struct softhw_rnic_cqe *cqes, int max);
bool rnic_ep_arm(struct softhw_rnic_ep *ep);
int rnic_ep_wait_fd(struct softhw_rnic_ep *ep);
void rnic_ep_owner_wait(struct softhw_rnic_ep *ep);
void rnic_ep_serve(struct softhw_rnic_ep *ep);
doca_error_t rnic_ep_post_recv(struct softhw_rnic_ep *ep, uint64_t wr_id, const struct softhw_rnic_sge *sgl,
			       uint32_t num_sge);
void rnic_ep_flush_recv(struct softhw_rnic_ep *ep, doca_error_t status);

/* Queues a CQE (and notifies an armed owner). */
void rnic_ep_push(struct rnic_ep *ep, const struct softhw_rnic_cqe *cqe);
/* Path p came up (or went down) on qp: counted for ep_poll, listed for the owner (rnic_ep_up_qps). */
void rnic_path_up(struct rnic_qp *qp, enum rnic_path_id p, bool up);
void rnic_ep_up_build(struct rnic_ep *ep, uint32_t gen, bool locked);
/*
 * Owner: the first qp on which path p is up, the next by qp->next_up[p]. Without qps_lock
 * (locked false) for a path whose qps only the owner destroys (ring, stream); else with it held
 * for the whole walk: a qp_destroy from another thread (a verbs program's) unlists its qp under
 * that lock after moving the generation, so the list is rebuilt without it before it is freed.
 */
static inline struct rnic_qp *rnic_ep_up_qps(struct rnic_ep *ep, enum rnic_path_id p, bool locked)
{
	uint32_t gen = __atomic_load_n(&ep->up_gen, __ATOMIC_SEQ_CST);

	if (gen != ep->up_seen)
		rnic_ep_up_build(ep, gen, locked);
	return ep->up[p];
}
/* Owner: own_qps changed (a qp destroyed): up[] is built again before the next walk. */
void rnic_ep_up_changed(struct rnic_ep *ep);

/* The same, from the owner's thread (qp_post): without the lock when it can. */
void rnic_ep_push_owner(struct rnic_ep *ep, const struct softhw_rnic_cqe *cqe);
/* No CQE waits to be polled and the owner is not asleep on them (owner's thread). */
bool rnic_ep_owner_lane_empty(const struct rnic_ep *ep);
/* Takes the oldest posted receive, or NULL. */
struct rnic_recv *rnic_ep_take_recv(struct rnic_ep *ep);
void rnic_ep_recv_done(struct rnic_ep *ep, struct rnic_qp *qp, struct rnic_recv *r, doca_error_t status,
		       enum softhw_rnic_opcode recv_op, uint64_t len, uint32_t imm);
/* Drops the CQEs of a destroyed qp (not its receives'), before it is freed: the owner's lane and
 * the locked CQ (its destroyer), or the locked CQ only (the service thread, which frees it). */
void rnic_ep_forget_qp(struct rnic_ep *ep, const struct rnic_qp *qp);
void rnic_ep_forget_shared(struct rnic_ep *ep, const struct rnic_qp *qp);

/* ---- qp.c ---- */

doca_error_t rnic_qp_create(struct softhw_rnic_ep *ep, void *user, struct softhw_rnic_qp **qp);
doca_error_t rnic_qp_export(struct softhw_rnic_qp *qp, const void **blob, size_t *len);
doca_error_t rnic_qp_connect(struct softhw_rnic_qp *qp, const void *blob, size_t len);
doca_error_t rnic_qp_post(struct softhw_rnic_qp *qp, const struct softhw_rnic_wr *wr);
doca_error_t rnic_qp_disconnect(struct softhw_rnic_qp *qp);
void rnic_qp_destroy(struct softhw_rnic_qp *qp);
/* Tests: called by rnic_qp_destroy once the service thread freed `freed` (NULL outside tests). */
extern void (*rnic_qp_destroy_hook)(struct rnic_ep *ep, const struct rnic_qp *freed);

void rnic_qp_complete_head(struct rnic_qp *qp, doca_error_t status, uint64_t len);
/* The qp failed: queued work completes with `flush`, then `kind` (FAILED / DISCONNECTED) with `status`. */
void rnic_qp_fail(struct rnic_qp *qp, enum softhw_rnic_cqe_kind kind, doca_error_t status, doca_error_t flush);
/* The handshake finished: send what waited. qp lock held. */
void rnic_qp_established(struct rnic_qp *qp);
/* Service thread: the connection hung up. */
void rnic_qp_hangup(struct rnic_qp *qp);
/* A message found no posted receive: start the retry clock, or true once retries are exhausted. */
bool rnic_rnr_exhausted(struct rnic_qp *qp, bool *stalled, uint64_t *deadline);
/* The message that waited for a receive got one (or was refused): stop its clock. */
void rnic_rnr_unstall(struct rnic_qp *qp, bool *stalled);
/* A write the target's ep and the rkey's export allow? (NOT_PERMITTED / the export's error) */
doca_error_t rnic_write_check(const struct rnic_qp *qp, uint64_t id, uint64_t token, uint64_t addr, uint64_t len);
/*
 * A remote READ / WRITE / atomic (flag: DOCA_ACCESS_FLAG_RDMA_*) on [addr, addr + len) of export
 * (id, token): the ep grants it, the export is live, covers the range with the right, an atomic
 * is aligned (NOT_PERMITTED / INVALID_VALUE / the export's error). target.c, for every path.
 */
doca_error_t rnic_remote_check(const struct rnic_qp *qp, uint32_t flag, uint64_t id, uint64_t token, uint64_t addr,
			       uint64_t len);
/* Executes a checked atomic on exported memory (fetch_add: += arg0; else compare arg0, swap arg1). */
doca_error_t rnic_atomic_do(uint64_t id, uint64_t token, uint64_t addr, bool fetch_add, uint64_t arg0, uint64_t arg1,
			    uint64_t *old);
/* Places a write into this process's exported memory, checked against the live export. */
doca_error_t rnic_write_place(uint64_t id, uint64_t token, uint64_t addr, const void *data, uint64_t len);
/* Scatters a message into a posted receive; TOO_BIG if it does not fit. */
doca_error_t rnic_recv_fill(const struct rnic_recv *r, const uint8_t *data, uint64_t len);
/* One SDK line: the peer broke a fast path's rules (`path`), so this connection ends. */
void rnic_qp_log_broken_peer(const struct rnic_qp *qp, const char *path);
/* One SDK line (rate-limited): the peer does not read the answers to its requests on `path`. */
void rnic_qp_log_unread(const struct rnic_qp *qp, const char *path);
struct rnic_qp *rnic_qp_new(struct rnic_ep *ep, void *user);
void rnic_qp_free(struct rnic_qp *qp);
void rnic_qp_push_cqe(struct rnic_qp *qp, enum softhw_rnic_cqe_kind kind, doca_error_t status);
/* Service thread, dialer: the acceptor answered with `peer` and `flags`: the paths join, the qp
 * is established. False: a path cannot join (the connection must hang up). qp lock held. */
bool rnic_qp_answered(struct rnic_qp *qp, const struct rnic_peer *peer, uint16_t flags);
/* Service thread, acceptor: the qp a dialer's hello names, locked, with the peer taken in, if
 * its connection is path `conn`; NULL if it may not have it (refuse the dialer with *refusal;
 * logged where it says something). */
struct rnic_qp *rnic_qp_accepting(uint8_t conn, const struct rnic_hello *h, const struct sockaddr_storage *from,
				  doca_error_t *refusal);
/* Service thread, RDMA-CM: a new qp of cm_ep for this request, locked, its REQUEST queued; NULL: no memory. */
struct rnic_qp *rnic_qp_requested(struct rnic_ep *cm_ep, const struct rnic_hello *h, const struct sockaddr_storage *from);
/* Service thread: hang up if a path broke the connection. qp lock held. */
void rnic_qp_hangup_broken(struct rnic_qp *qp);

/* Issues waiting work requests in post order while the path each needs is free. qp lock held. */
void rnic_qp_pump(struct rnic_qp *qp);
/* Every path's op `what`, in registry order, where the path has one. */
#define RNIC_PATHS_EACH(what, ...) \
	do { \
		for (int path_i_ = 0; path_i_ < RNIC_PATH_COUNT; path_i_++) \
			if (rnic_paths[path_i_]->what != NULL) \
				rnic_paths[path_i_]->what(__VA_ARGS__); \
	} while (0)
/* A path keeps the qp's time (the service thread's timed list). */
bool rnic_qp_paths_timed(const struct rnic_qp *qp);

/* ---- ring.c ---- */

/* Tests (a peer that corrupts the segment): the qp's ring channel, NULL without one (qp lock held). */
struct softhw_chan *rnic_ring_chan(struct rnic_qp *qp);
/* Tests: the service thread leaves the qp's doorbell to its polling owner (ring.c's quiet). */
bool rnic_ring_quiet(const struct rnic_qp *qp);
/* Times this side rang the peer's doorbell itself (posts while asleep, nudges; tests) */
uint64_t rnic_ring_bells(const struct rnic_qp *qp);
/* Tests: called with each record ring_rx took and how many that call took so far (qp lock held). */
extern void (*rnic_ring_rx_hook)(struct rnic_qp *qp, uint32_t taken);

/* ---- cma.c (qp lock held) ---- */

/* Executes a READ / WRITE / atomic from the posting thread if it may; false: use the socket. */
bool rnic_cma_try(struct rnic_qp *qp, const struct softhw_rnic_wr *wr, uint64_t bytes, doca_error_t *status);
void rnic_cma_drop(struct rnic_qp *qp);

/* ---- cm.c ---- */

doca_error_t rnic_cm_listen(struct softhw_rnic_ep *ep, uint16_t port);
doca_error_t rnic_cm_unlisten(struct softhw_rnic_ep *ep, uint16_t port);
doca_error_t rnic_cm_connect(struct softhw_rnic_ep *ep, const struct sockaddr *addr, socklen_t addr_len, void *user,
			     struct softhw_rnic_qp **qp);
doca_error_t rnic_cm_accept(struct softhw_rnic_qp *qp, void *user, const void *private_data, uint8_t len);
doca_error_t rnic_cm_reject(struct softhw_rnic_qp *qp);
doca_error_t rnic_cm_peer_addr(const struct softhw_rnic_qp *qp, struct sockaddr_storage *addr);
doca_error_t rnic_cm_connect_data(struct softhw_rnic_ep *ep, const struct sockaddr *addr, socklen_t addr_len, void *user,
				  const struct softhw_rnic_cm_param *p, struct softhw_rnic_qp **qp);
doca_error_t rnic_cm_accept_data(struct softhw_rnic_qp *qp, void *user, const struct softhw_rnic_cm_param *p);
doca_error_t rnic_cm_reject_data(struct softhw_rnic_qp *qp, const void *private_data, uint8_t len);
doca_error_t rnic_cm_info(const struct softhw_rnic_qp *qp, struct softhw_rnic_cm_info *info);
uint32_t rnic_qp_wire_num(struct softhw_rnic_qp *qp);
uint8_t rnic_port_mtu_log(const struct softhw_function *fn);
doca_error_t rnic_qp_wire_rtr(struct softhw_rnic_qp *qp, const struct softhw_rnic_wire_rtr *a);
doca_error_t rnic_qp_wire_rts(struct softhw_rnic_qp *qp, const struct softhw_rnic_wire_rts *a);
doca_error_t rnic_qp_wire_reset(struct softhw_rnic_qp *qp);

static inline struct rnic_ep *rnic_ep_of(struct softhw_rnic_ep *ep)
{
	return (struct rnic_ep *)ep;
}

static inline struct rnic_qp *rnic_qp_of(struct softhw_rnic_qp *qp)
{
	return (struct rnic_qp *)qp;
}

/* The qp's connection (path.h). */
static inline const struct rnic_path_ops *rnic_conn_of(const struct rnic_qp *qp)
{
	return rnic_paths[qp->conn];
}

#endif /* SOFTHW_RNIC_INT_H */
