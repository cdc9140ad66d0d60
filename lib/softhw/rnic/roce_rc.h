/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 RC transport engine (private to lib/softhw/rnic/): one reliable-connected queue pair's
 * requester, responder and completer as IBTA defines them and Linux rdma_rxe behaves.
 *
 * Pure protocol: no sockets, threads or clocks. The caller hands in received datagrams
 * (roce_rc_rx), calls roce_rc_poll after each batch and whenever the deadline it returned has
 * passed, and passes the time in nanoseconds each time. Everything else goes out through the
 * callbacks of struct roce_rc_ops. docs/rocev2.md ("RC engine") describes the design.
 */
#ifndef SOFTHW_RNIC_ROCE_RC_H
#define SOFTHW_RNIC_ROCE_RC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "softhw/rnic/roce_pkt.h"

#define ROCE_RC_NO_DEADLINE UINT64_MAX
#define ROCE_RC_MAX_UNACKED 128 /* requester window in PSNs, as rxe */
#define ROCE_RC_MIN_CWND 16     /* the least a go-back-N halves the PSNs in flight to */
#define ROCE_RC_ACKREQ_EVERY 64 /* AckReq on a non-final packet after this many without */
#define ROCE_RC_MAX_MSG (1u << 31)
#define ROCE_RC_BURST 256     /* READ response packets a turn (roce_rc_poll) at most: a long READ leaves the thread to other QPs */
/* Requests held behind READ responses still to go, bytes (datagram and record) per QP at most:
 * a window of 1024 full packets at MTU 4096, softdoca's widest requester window (more: dropped,
 * NAKed). The first ROCE_RC_HOLD_OWN of them are the QP's own, the rest comes from its pool. */
#define ROCE_RC_HOLD_BYTES (1024u * (4096 + 128))
#define ROCE_RC_HOLD_OWN (256u * (4096 + 128))
#define ROCE_RC_REF_MIN 1024 /* payloads from this size go to emit_ref (smaller ones: a copy is cheaper than a piece) */

enum roce_rc_op {
	ROCE_RC_OP_SEND,
	ROCE_RC_OP_SEND_IMM,
	ROCE_RC_OP_SEND_INV,
	ROCE_RC_OP_WRITE,
	ROCE_RC_OP_WRITE_IMM,
	ROCE_RC_OP_READ,
	ROCE_RC_OP_CMP_SWAP,
	ROCE_RC_OP_FETCH_ADD,
	ROCE_RC_OP_RECV,           /* completions only: a SEND arrived */
	ROCE_RC_OP_RECV_WRITE_IMM, /* completions only: a WRITE with immediate arrived */
};

/* Completion status, named after the ibverbs work-completion codes they stand for. */
enum roce_rc_status {
	ROCE_RC_WC_SUCCESS,
	ROCE_RC_WC_LOC_LEN_ERR,     /* a SEND longer than the receive buffer (receiver side) */
	ROCE_RC_WC_LOC_QP_OP_ERR,
	ROCE_RC_WC_LOC_PROT_ERR,
	ROCE_RC_WC_WR_FLUSH_ERR,    /* the QP went to error before this WR ran */
	ROCE_RC_WC_REM_INV_REQ_ERR, /* NAK invalid request */
	ROCE_RC_WC_REM_ACCESS_ERR,  /* NAK remote access */
	ROCE_RC_WC_REM_OP_ERR,      /* NAK remote operational (or unknown NAK code) */
	ROCE_RC_WC_RETRY_EXC_ERR,   /* local ACK timeouts / sequence NAKs beyond retry_cnt */
	ROCE_RC_WC_RNR_RETRY_EXC_ERR,
};

/* Rights a remote request needs on the memory it names (rkey_check). */
enum roce_rc_access {
	ROCE_RC_ACC_WRITE = 1,
	ROCE_RC_ACC_READ = 2,
	ROCE_RC_ACC_ATOMIC = 4,
};

/*
 * A send work request. Local memory is one contiguous buffer the caller keeps valid until the
 * WR completes: the data of a SEND/WRITE (re-read on retransmission), the destination of a
 * READ, the 8-byte original value of an atomic (host order).
 */
struct roce_rc_wr {
	uint64_t wr_id;
	enum roce_rc_op op;
	void *local;
	uint32_t len;      /* bytes; atomics: ignored (8) */
	uint64_t remote_va;
	uint32_t rkey;
	uint32_t imm;      /* SEND_IMM, WRITE_IMM: host value, sent big-endian */
	uint32_t inv_rkey; /* SEND_INV */
	uint64_t swap_add; /* CMP_SWAP: swap value; FETCH_ADD: addend */
	uint64_t compare;  /* CMP_SWAP */
	bool fence;        /* wait until every earlier READ/atomic has completed */
	bool solicited;    /* SEND / WRITE_IMM: BTH SE on the last packet */
};

/* A receive the responder took from the caller's receive queue for an incoming message. */
struct roce_rc_recv {
	uint64_t wr_id;
	void *buf;
	uint32_t len;
};

struct roce_rc_cqe {
	uint64_t wr_id;
	enum roce_rc_status status;
	enum roce_rc_op op;
	bool recv;          /* a receive completion (responder side) */
	uint32_t byte_len;  /* receives: bytes placed (WRITE_IMM: the message length) */
	bool has_imm;
	uint32_t imm;
	bool has_inv;       /* SEND with invalidate: the caller invalidates inv_rkey */
	uint32_t inv_rkey;
	bool solicited;     /* receives: the sender asked for a solicited event */
};

/*
 * The engine's environment. Callbacks run inside roce_rc_rx / roce_rc_poll / roce_rc_post;
 * they may call roce_rc_post (and nothing else of this engine).
 */
struct roce_rc_ops {
	/* A datagram's UDP payload, BTH to ICRC, with the ICRC bytes zero (the port fills them:
	 * they depend on addresses). buf is valid only during the call. */
	void (*emit)(void *ctx, const uint8_t *buf, size_t len);
	/* Optional: where to build the next datagram (room for *cap bytes, at least MTU + 128);
	 * emit then gets that buffer, and the caller's copy is saved. NULL: the engine's own. */
	uint8_t *(*tx_buf)(void *ctx, size_t *cap);
	/* Optional: a datagram whose payload (plen bytes, at least ROCE_RC_REF_MIN, from a posted
	 * WR's local memory) the path sends from where it lies: hdr[0..hlen) (valid only during
	 * the call), the payload, roce_pad_len(plen) zero bytes and the ICRC. The payload stays
	 * readable until that WR completes: the path sends the datagram before it passes on any
	 * send completion. NULL: the engine copies it into the datagram (emit). */
	void (*emit_ref)(void *ctx, const uint8_t *hdr, size_t hlen, const void *payload, size_t plen);
	/* 0 if [va, va+len) is inside the memory rkey names with the given rights, else the NAK
	 * code to answer (ROCE_NAK_REM_ACCESS, or ROCE_NAK_INVALID). */
	int (*rkey_check)(void *ctx, uint32_t rkey, uint64_t va, uint64_t len, unsigned int access);
	/* Copies into / out of remote-accessible memory already checked by rkey_check. */
	void (*mem_write)(void *ctx, uint32_t rkey, uint64_t va, const void *src, size_t len);
	void (*mem_read)(void *ctx, uint32_t rkey, uint64_t va, void *dst, size_t len);
	/* Executes an atomic on the 8 bytes at va (checked); returns the value before it. */
	uint64_t (*atomic)(void *ctx, uint32_t rkey, uint64_t va, bool cmp_swap, uint64_t swap_add,
		uint64_t compare);
	/* Optional: stores a READ response's or a SEND's payload at dst, inside the READ's local
	 * memory or the receive's buffer (the path may guard stores into application memory).
	 * NULL: memcpy. */
	void (*place)(void *ctx, void *dst, const void *src, size_t len);
	/* Takes the next posted receive; false if none is posted (the engine answers RNR). */
	bool (*recv_take)(void *ctx, struct roce_rc_recv *out);
	void (*complete)(void *ctx, const struct roce_rc_cqe *cqe);
};

/*
 * Bytes the responders of several QPs (a port's) hold beyond ROCE_RC_HOLD_OWN each, together:
 * a peer that floods many QPs behind long READs cannot make them hold more than this. used is
 * updated atomically; the caller sets max and keeps the pool until its QPs are destroyed.
 */
struct roce_rc_hold_pool {
	size_t used, max;
};

struct roce_rc_cfg {
	uint32_t qpn, dest_qpn;  /* 24 bits */
	uint32_t sq_psn;         /* first PSN this side sends */
	uint32_t rq_psn;         /* first PSN this side expects */
	uint32_t mtu;            /* path MTU: 256, 512, 1024, 2048 or 4096 */
	uint8_t timeout;         /* local ACK timeout code: 4.096 us << timeout; 0 = no timer */
	uint8_t retry_cnt;       /* 0..7; 7 never runs out (as rxe) */
	uint8_t rnr_retry;       /* 0..7; 7 = infinite (IBTA) */
	uint8_t min_rnr_timer;   /* RNR NAK timer code this side sends (0..31) */
	uint32_t max_rd_atomic;  /* READ/atomic requests outstanding at once (>= 1) */
	uint32_t max_dest_rd_atomic; /* responder resources kept for replay (0: READ/atomic NAKed) */
	uint32_t sq_depth;       /* send WRs posted and not yet completed */
	uint32_t window;         /* requester: PSNs sent and not acknowledged at most (0: ROCE_RC_MAX_UNACKED) */
	uint32_t ack_every;      /* responder: ACK after this many unacknowledged packets (0: 16) */
	uint64_t ack_delay_ns;   /* responder: or when the oldest is this old (0: 100 us) */
	uint32_t read_burst;     /* responder: READ response packets a turn at most (0: ROCE_RC_BURST) */
	uint32_t hold_bytes;     /* responder: bytes held behind READ responses at most (0: ROCE_RC_HOLD_BYTES) */
	struct roce_rc_hold_pool *hold_pool; /* optional: what it holds beyond ROCE_RC_HOLD_OWN comes from here */
	uint16_t pkey;           /* 0: default 0xffff */
	const struct roce_rc_ops *ops;
	void *ctx;
};

struct roce_rc_stats {
	uint64_t tx_pkts, rx_pkts, rx_dropped; /* dropped: malformed, wrong QP, out of sequence */
	uint64_t retransmits;     /* request packets sent again */
	uint64_t timeouts;        /* local ACK timer expiries acted on */
	uint64_t fast_retries;    /* go-back-N started by a NAK or an ACK/response past a READ */
	uint64_t acks_sent, acks_rcvd;
	uint64_t nak_seq_sent, nak_seq_rcvd;
	uint64_t rnr_sent, rnr_rcvd;
	uint64_t nak_err_sent, nak_err_rcvd; /* invalid request, remote access, remote op */
	uint64_t dup_requests;    /* requests with a PSN already executed */
	uint64_t read_replays, atomic_replays;
	uint64_t dup_responses;   /* responses for PSNs already received, ignored */
	uint64_t hold_dropped;    /* requests in order behind READ responses dropped: no room to hold them */
	uint64_t hold_peak;       /* the most bytes held behind READ responses at once */
};

struct roce_rc_qp;

/* A QP in RTS with cfg's parameters, or NULL (bad cfg, no memory). */
struct roce_rc_qp *roce_rc_create(const struct roce_rc_cfg *cfg);
/* Frees the QP without completing anything: roce_rc_set_error first to flush pending WRs. */
void roce_rc_destroy(struct roce_rc_qp *qp);

/*
 * Queues a send WR (transmitted by the next roce_rc_poll). Returns false if the send queue is
 * full or the WR is malformed (length over 2^31, unknown op). On a QP in error the WR is
 * completed at once with ROCE_RC_WC_WR_FLUSH_ERR.
 */
bool roce_rc_post(struct roce_rc_qp *qp, const struct roce_rc_wr *wr);

/* One received datagram's UDP payload (ICRC already checked by the caller). */
void roce_rc_rx(struct roce_rc_qp *qp, uint64_t now, const uint8_t *buf, size_t len);

/*
 * Runs the timers, sends owed ACKs and whatever the send window allows, and the responder's
 * next ROCE_RC_BURST READ responses (or requests held behind them). Returns when it next wants
 * to be polled (absolute, same clock as now) or ROCE_RC_NO_DEADLINE; now itself when READ
 * responses or held requests wait for the next turn (poll again soon, after the other QPs had
 * theirs).
 */
uint64_t roce_rc_poll(struct roce_rc_qp *qp, uint64_t now);

/*
 * The requester's parameters, set after creation (verbs: the QP is RTR first, receiving, and
 * gets its first PSN, ACK timeout and retry counts when it moves to RTS). False if the QP sent
 * or queued anything already, or a value is out of range.
 */
bool roce_rc_set_requester(struct roce_rc_qp *qp, uint32_t sq_psn, uint8_t timeout, uint8_t retry_cnt,
			   uint8_t rnr_retry, uint32_t max_rd_atomic);

/* Moves the QP to error (after sending an owed ACK): every pending WR completes with ROCE_RC_WC_WR_FLUSH_ERR. */
void roce_rc_set_error(struct roce_rc_qp *qp);

bool roce_rc_in_error(const struct roce_rc_qp *qp);
/* The responder owes an ACK for requests it executed, and only that (the next poll sends it). */
bool roce_rc_acks_owed(const struct roce_rc_qp *qp);
/* The requester sent requests the peer has not acknowledged yet (their ACKs may still come), or
 * the responder has READ responses still to send or requests held behind them to run. */
bool roce_rc_unacked(const struct roce_rc_qp *qp);
const struct roce_rc_stats *roce_rc_get_stats(const struct roce_rc_qp *qp);
const char *roce_rc_status_name(enum roce_rc_status status);

#endif /* SOFTHW_RNIC_ROCE_RC_H */
