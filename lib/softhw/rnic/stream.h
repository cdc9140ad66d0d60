/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stream (private to lib/softhw/rnic/): the path that is the connection. A qp's unix or
 * TCP socket carries its handshake, its one-sided work, the control frames of the other paths
 * and its liveness. Its files: stream.c (dial, hello, accept: the connection ops of path.h),
 * listen.c (the process's and RDMA-CM's listeners, sockets waiting for their hello), io.c (the
 * out-queue, the receive machine, the path ops) and target.c (requests executed here).
 *
 * The socket carries frames both ways: a fixed header (struct rnic_hdr, wire.h) followed by
 * `plen` payload bytes. Requests are executed by the target's service thread (target.c); their
 * responses complete the initiator's work requests. Writers (the owner in qp_post, the service
 * thread for responses) append to the out-queue under the qp lock and write at once when it
 * was empty; the service thread drains the rest on EPOLLOUT (io.c). Sockets are non-blocking
 * and the service thread always keeps reading, so two peers sending large messages at each
 * other never deadlock.
 *
 * The ring (ring.c) and the message socket (msock.c) ride on it: their handshake comes with
 * the stream's (descriptors in its hello ack, a hello on its listener) and their control
 * frames go on its socket, so they include this header too. The qp core (qp.c, ep.c, nic.c)
 * does not: it reaches the stream only through its table.
 */
#ifndef SOFTHW_RNIC_STREAM_H
#define SOFTHW_RNIC_STREAM_H

#include "softhw/rnic/rnic_int.h"

/* What the service thread does with incoming payload bytes. */
enum rnic_rx_dest {
	RX_PLAIN,   /* into iov (a receive, a read's destination, the hello buffer) */
	RX_MEM,     /* into exported memory, pinned around every read */
	RX_DISCARD,
};

struct rnic_rx {
	bool in_payload;
	bool failed;              /* an owner's read found the connection gone (EOF, a bad frame): hang up */
	bool bulk;                /* a payload was read in place (beyond the stage) since the owner's last look */
	bool stalled;             /* receiver not ready: the header waits, EPOLLIN is off */
	struct rnic_hdr hdr;
	size_t hdr_got;
	enum rnic_rx_dest dest;
	struct iovec *iov;        /* destination pieces (iov_cap of them) */
	int iov_cap;
	int iovcnt;
	int idx;
	uint64_t left;
	uint64_t mem_addr;        /* RX_MEM: next byte */
	doca_error_t status;      /* of the request being received */
	struct rnic_recv *recv;   /* SEND / WRITE_IMM: the receive it completes */
	uint8_t hello[sizeof(struct rnic_hello)];
	/*
	 * Bytes read ahead (after the handshake): headers are taken from here, so a burst of small
	 * frames costs one recv, not one per frame; a payload's first bytes may be here too.
	 */
	uint8_t *stage;           /* RNIC_RX_STAGE bytes, allocated at the first read */
	uint32_t stage_off, stage_len;
	uint32_t rnr_tries;
	uint64_t rnr_deadline;    /* ms, monotonic */
};

#define RNIC_RX_STAGE 4096
#define RNIC_OWNER_MS 2 /* an owner that stopped polling: the service thread reads again after this */
#define RNIC_BULK_POLLS 4096 /* polls after bulk data (either way) before the owner takes the socket */
#define RNIC_CORK 2048

/* A qp's stream (qp->path[RNIC_PATH_STREAM]): from rnic_qp_new (the open op) until the qp is freed. */
struct rnic_stream {
	struct rnic_path_link link; /* first: the socket's epoll tag points here */
	int fd;                     /* -1: none (not dialed or accepted yet, or hung up) */
	uint32_t events;            /* registered epoll events */
	bool close_asked;           /* the service thread closes the socket once the out-queue drained */
	bool polled;                /* work went on it: counted in ep->path_qps[] (ep_poll looks at it) */
	/*
	 * The polling owner reads the socket (stream_poll) and the service thread does not watch
	 * EPOLLIN, until the owner arms or stops polling for RNIC_OWNER_MS (stream_timer).
	 */
	bool owner_reads;
	uint32_t bulk_polls;        /* polls before the owner takes the socket again after bulk data */
	uint64_t owner_polls;       /* the owner's reads of it */
	uint64_t owner_seen;        /* owner_polls at the service thread's last look */
	uint64_t owner_check;       /* ms, monotonic: the next look */
	int hs_fds[RNIC_RING_HS_FDS]; /* dialer: descriptors that came with the hello ack (a path's join takes them) */
	int hs_nfds;
	struct rnic_out *out_head;  /* frames not fully written */
	struct rnic_out *out_tail;
	/*
	 * While the service thread works through what it read (rnic_rx_ready), payload-less frames
	 * it sends (answers, ACKs) gather here and leave with one send at the end, before anything
	 * queued after them.
	 */
	bool corking;
	uint32_t cork_len;
	uint32_t cork_answers;      /* answers among the gathered frames */
	uint32_t answers;           /* answers in the out-queue (rnic_out.answers): at most RNIC_ANSWERS_MAX */
	uint8_t cork[RNIC_CORK];
	struct rnic_rx rx;          /* qp lock held: the service thread (rnic_rx_ready) */
};

/* The qp's stream (qp lock held, or the service thread). */
static inline struct rnic_stream *rnic_stream_of(const struct rnic_qp *qp)
{
	return (struct rnic_stream *)qp->path[RNIC_PATH_STREAM];
}

/* ---- io.c ---- */

/* Appends a frame to the out-queue and writes what the socket takes. qp lock held. */
void rnic_out_push(struct rnic_qp *qp, struct rnic_out *o);
/* Writes queued frames until the socket is full. qp lock held. */
void rnic_out_flush(struct rnic_qp *qp);
/* Drops the out-queue; true if a frame had started to leave (the stream is cut). qp lock held. */
bool rnic_out_drop_all(struct rnic_stream *s);
/* Sends a frame and its payload (a heap copy of what cannot go at once). qp lock held. */
void rnic_send_ctl(struct rnic_qp *qp, const struct rnic_hdr *h, const void *payload, size_t plen);
/*
 * Sends a READ's answer from exported memory (id, token; pinned by the caller): what the socket
 * cannot take now waits in the out-queue without a copy and is pinned again for every write
 * (the export ending meanwhile cuts the frame: the connection hangs up). qp lock held.
 */
void rnic_send_mem(struct rnic_qp *qp, const struct rnic_hdr *h, uint64_t id, uint64_t token, uint64_t addr,
		   uint64_t len);
/*
 * Sends a READ's answer from a re-export (id, token): its payload is read through the import a
 * chunk at a time as the socket takes it, so an answer the peer does not read costs no copy of
 * its whole length. An error reading the first chunk is returned (nothing sent: answer it); a
 * later one cuts the frame (the connection hangs up). qp lock held.
 */
doca_error_t rnic_send_fetched(struct rnic_qp *qp, const struct rnic_hdr *h, uint64_t id, uint64_t token, uint64_t addr,
			       uint64_t len);
/* Sends the frames gathered while corking. qp lock held. */
void rnic_cork_flush(struct rnic_qp *qp);
/* Service thread: the socket is readable (false: the connection is gone). */
bool rnic_rx_ready(struct rnic_qp *qp);
/* An owner's ep_poll, qp lock held: reads what arrived (answers to its work in flight). */
void rnic_rx_poll(struct rnic_qp *qp);
/* Makes room for n destination pieces (false: out of memory). */
bool rnic_rx_room(struct rnic_rx *rx, uint32_t n);
/* The stream's post op: frames a work request and queues it. qp lock held. */
void rnic_stream_post(struct rnic_qp *qp, struct rnic_wr *wr);
/* Service thread: re-tries a stalled header (a receive was posted or the retry time came). */
void rnic_rx_retry(struct rnic_qp *qp);

/* ---- target.c (service thread, qp lock held) ---- */

/* A request header arrived: checks it and sets up where its payload goes. */
void rnic_target_begin(struct rnic_qp *qp);
/* Its payload is in: executes and answers. */
void rnic_target_end(struct rnic_qp *qp);

/* ---- stream.c ---- */

/* epoll registration of the qp's socket: EPOLLIN unless stalled, EPOLLOUT while output waits. qp lock held. */
void rnic_stream_events(struct rnic_qp *qp);
/* Service thread: a hello (dialer side: the acceptor's answer) arrived. */
void rnic_stream_hello_ack(struct rnic_qp *qp);
/* Service thread: a pending connection's hello arrived: attach it to its qp or make one (CM). */
void rnic_stream_accept(int fd, const struct rnic_hello *h, struct rnic_ep *cm_ep, const struct sockaddr_storage *from);
/* The address the stream dials (is_unix: a unix socket); false if there is none. */
bool rnic_stream_dial_addr(struct rnic_qp *qp, struct sockaddr_storage *ss, socklen_t *len, bool *is_unix);
/*
 * TCP_NODELAY and keepalive / user time-out (a vanished host is noticed in ~10 s); `to`, where a
 * dialer connects (NULL: an accepted socket): reno at once when it is a loopback address.
 */
void rnic_tcp_tune(int fd, const struct sockaddr_storage *to);
/* A TCP connection that is up: reno when its two ends are this host (no link to pace for). */
void rnic_tcp_connected(int fd);
/*
 * Whether a TCP connection between these addresses (16 bytes, IPv4 as ::ffff:a.b.c.d) stays in
 * this network stack: a loopback peer, or our own address at both ends. (rnic_same_host asks
 * another question: the same boot and network namespace.)
 */
bool rnic_tcp_ends_local(const uint8_t self[16], const uint8_t peer[16]);

/* ---- listen.c ---- */

struct rnic_listener;
/* The process's OOB listeners (unix + TCP), set up once (nic_listen op). */
doca_error_t rnic_listen_oob(const struct softhw_function *fn);
/* Our TCP address for descriptors and hellos (describe op). */
void rnic_listen_describe(struct rnic_peer *p);
doca_error_t rnic_listen_cm(struct rnic_ep *ep, uint16_t port);
doca_error_t rnic_unlisten_cm(struct rnic_ep *ep, uint16_t port);
/* nic.lock held: the ep's listeners go to the service thread, which closes them in nic_reap. */
void rnic_listen_ep_gone(struct rnic_ep *ep);
void rnic_listen_event(struct rnic_nic_link *link, uint32_t events);
uint64_t rnic_listen_next_time(uint64_t now);
void rnic_listen_timer(uint64_t now);
void rnic_listen_reap(void);
void rnic_listen_stop(void);
void rnic_listen_atfork(void);

#endif /* SOFTHW_RNIC_STREAM_H */
