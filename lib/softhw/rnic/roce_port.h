/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RoCEv2 UDP port of one process on one local IPv4 address (private to lib/softhw/rnic/).
 *
 * Several softdoca processes of a user share UDP port 4791 on an address without a daemon and
 * without privileges (docs/rocev2.md, "The path over UDP"):
 *   - each process keeps one unconnected socket bound to <ip>:4791 with SO_REUSEPORT (the
 *     kernel lets only sockets of the same user into that group);
 *   - each QP whose peer is known gets a receive socket bound the same way and connect()ed to
 *     the peer's address and UDP source port: Linux prefers the exact 4-tuple, so that peer's
 *     packets reach the QP's process directly;
 *   - each QP sends from an unconnected socket bound to <ip>:roce_udp_sport(qpn), or once
 *     connected through RDMA-CM to roce_udp_sport_rc(flow label, both QPNs), the source port
 *     rxe uses (both ends compute it alike): unconnected with IP_PMTUDISC_DO, Linux sends IPv4 ID 0 with DF, which
 *     the ICRC needs (a connected socket numbers its packets from a random start), and the
 *     port is one a peer can predict and connect() to;
 *   - whatever lands on a socket but belongs to another process (destination QPN, or for QP1
 *     the REQ's service ID or the reply's comm ID, looked up in roce_reg.h) is forwarded to
 *     that process over a unix SOCK_SEQPACKET connection in the run directory, whose other end
 *     must be of this user (SO_PEERCRED, checked at accept and at connect).
 * The owner of a QP that is not connected yet connect()s its receive socket to the source of
 * the first datagram it gets for it (learning), so later ones come directly.
 *
 * Everything a process reads comes out of one epoll descriptor (roce_port_fd) for the soft
 * NIC's service thread; roce_port_recv() drains what is ready and returns only datagrams for
 * this process. Nothing here spins, starts a thread or logs: counters say what happened.
 * One thread calls recv and changes QPs; sends may come from others meanwhile.
 */
#ifndef SOFTHW_RNIC_ROCE_PORT_H
#define SOFTHW_RNIC_ROCE_PORT_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "doca_error.h"
#include "softhw/rnic/roce_reg.h"

#define ROCE_PORT_DGRAM_MAX 4608 /* BTH + headers + 4096-byte payload + pad + ICRC, rounded up */

struct roce_port;

/* How a received datagram came in. */
enum roce_port_via {
	ROCE_PORT_VIA_QP,      /* the QP's connected socket */
	ROCE_PORT_VIA_SHARED,  /* an unconnected socket of this process (the shared one, a QP's before connect) */
	ROCE_PORT_VIA_FORWARD, /* another process of this user received it and handed it over */
};

struct roce_port_msg {
	uint32_t qpn;              /* destination QPN (1: a CM MAD) */
	uint32_t len;
	struct sockaddr_in from;   /* the sender's address and UDP port */
	enum roce_port_via via;
	bool unclaimed;            /* a CM REQ for a service nobody on this address listens to: answer
	                              it with a REJ (invalid service ID), so the peer fails at once */
	uint8_t buf[ROCE_PORT_DGRAM_MAX]; /* the UDP payload: BTH ... ICRC (not checked here) */
};

struct roce_port_stats {
	uint64_t rx_qp;          /* delivered here, by way of */
	uint64_t rx_shared;
	uint64_t rx_gro;         /* receives that held several datagrams (UDP_GRO) */
	uint64_t rx_forwarded;
	uint64_t fwd_out;        /* handed to another process */
	uint64_t drop_malformed; /* not a RoCEv2 packet the parser takes, or a QP1 packet that is no CM MAD */
	uint64_t drop_no_owner;  /* nobody on this address holds the QPN or comm ID */
	uint64_t cm_unclaimed;   /* REQs for a service nobody listens to, delivered here marked unclaimed */
	uint64_t drop_dead;      /* its owner had died (its entries were then reclaimed) */
	uint64_t drop_fwd_full;  /* the owner's channel was full or broke */
	uint64_t drop_stray;     /* forwarded to us, but not ours (ownership changed meanwhile) */
	uint64_t refused;        /* forwarding connections from another user, closed unread; a forward
	                            not sent because the listener was not the registered owner of this user */
	uint64_t learned;        /* QP receive sockets connected from a first datagram */
	uint64_t reclaimed;      /* dead owners whose entries this process freed */
	uint64_t dreq_for_dead;  /* CM messages sent for a dead owner's connections (DREQ; DREP to the
	                            peer's DREQ that found it dead) */
	uint64_t rej_for_dead;   /* REJs sent for a dead owner's connections still being set up */
	uint64_t dead_resent;    /* those DREQs sent again (no DREP came back here in time) */
	uint64_t dead_conn_bad;  /* connection entries of dead owners that made no sense: dropped unsent */
	uint64_t tx;             /* datagrams sent */
	uint64_t tx_gso;         /* sends of several datagrams at once (UDP_SEGMENT) */
	uint64_t tx_calls;       /* the system calls that sent them */
	uint64_t tx_err;
};

/*
 * Opens the port of this process on IPv4 address ip (host order), UDP port udp_port (0: 4791),
 * with its registry under run_dir (roce_reg.h). IN_USE when the port is held by another user
 * or without SO_REUSEPORT (rdma_rxe bound to 4791, another program); *why says what failed.
 */
doca_error_t roce_port_open(const char *run_dir, uint32_t ip, uint16_t udp_port, struct roce_port **out,
			    const char **why);
void roce_port_close(struct roce_port *p);

/*
 * The caller's roce_port_recv / roce_port_recv_qp calls always offer at least
 * ROCE_PORT_GRO_SEGS free msgs: QP receive sockets made from now on get UDP_GRO, so one
 * system call takes up to that many datagrams of a flow (coalesced by the kernel, or sent
 * with UDP GSO). A receive is read only while that many msgs are free. SOFTDOCA_ROCE_NO_GRO
 * turns it off.
 */
#define ROCE_PORT_GRO_SEGS 64
void roce_port_use_gro(struct roce_port *p);

/* Bytes a receive socket of the port may queue (SO_RCVBUF as the kernel granted it: capped by
 * net.core.rmem_max, doubled for its bookkeeping). */
size_t roce_port_rcvbuf(const struct roce_port *p);

/* Readable when roce_port_recv has something to do (level-triggered: put it in an epoll). */
int roce_port_fd(const struct roce_port *p);

/* A new QP: a QPN unique on the address, and its send socket. */
doca_error_t roce_port_qp_add(struct roce_port *p, uint32_t *qpn);
void roce_port_qp_remove(struct roce_port *p, uint32_t qpn);

/*
 * The QP's peer is ip:udp_port (host order; a softdoca peer connected out of band sends from
 * roce_udp_sport(its QPN), any peer connected through RDMA-CM from roce_udp_sport_rc): its
 * receive socket connects there now instead of learning.
 */
doca_error_t roce_port_qp_connect(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port);

/*
 * The QP sends from UDP port sport from now on (a new send socket; before it sends anything):
 * an RC QP connected through RDMA-CM sends from the port rxe derives from the path's flow label
 * (roce_udp_sport_rc), which both ends compute alike.
 */
doca_error_t roce_port_qp_set_sport(struct roce_port *p, uint32_t qpn, uint16_t sport);

/* Is the QP's receive socket connected? To which source (host order, may be NULL)? */
bool roce_port_qp_connected(const struct roce_port *p, uint32_t qpn, uint32_t *ip, uint16_t *udp_port);

/* QP1: REQs for RDMA-CM service ID sid come to this process. IN_USE if another listens. */
doca_error_t roce_port_listen(struct roce_port *p, uint64_t sid);
void roce_port_unlisten(struct roce_port *p, uint64_t sid);

/*
 * The CM's facts of one RDMA-CM connection of ours (local comm ID c->local_id), kept in the
 * registry so that, should this process die, whoever reclaims it ends the connection on the
 * wire for it (DREQ; REJ while the peer's REQ is unanswered, or to the peer's REP while ours
 * is out). Best effort: FULL is harmless.
 */
doca_error_t roce_port_conn_note(struct roce_port *p, const struct roce_reg_conn *c);
void roce_port_conn_forget(struct roce_port *p, uint32_t local_id);

/*
 * The DREQs this port sent for dead owners are resent on a short timer (twice, unless the
 * peer's DREP comes) by the NIC's service thread, and a forwarding listener paused for want of
 * descriptors goes back into the epoll set: the next deadline (ms, CLOCK_MONOTONIC;
 * UINT64_MAX: none), and what is due at now.
 */
uint64_t roce_port_next_time(struct roce_port *p);
void roce_port_timer(struct roce_port *p, uint64_t now);
/*
 * True once after roce_port_recv paused the forwarding listener: a thread other than the
 * service thread that drained must wake it, or its sleep, timed before the pause, would bring
 * the listener back late.
 */
bool roce_port_take_pause(struct roce_port *p);

/* A CM local communication ID whose replies come back to this process: its owner bits, seq's low 22 (roce_cm.c: random). */
uint32_t roce_port_comm_id(const struct roce_port *p, uint32_t seq);

/* The UDP source port the QP's datagrams leave from (the ICRC covers it). */
uint16_t roce_port_qp_sport(const struct roce_port *p, uint32_t qpn);

/*
 * Sends one datagram (the UDP payload; the caller computed its ICRC for IPv4 ID 0, DF and the
 * source port roce_port_qp_sport) for QP qpn (1: from
 * the shared socket) to ip:udp_port (host order; udp_port 0: 4791). AGAIN when the socket
 * buffer is full, OPERATING_SYSTEM otherwise.
 */
doca_error_t roce_port_send(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port,
			    const struct iovec *iov, int iovcnt);

/* Several datagrams of one QP to one peer in one system call (sendmmsg); how many left. */
unsigned roce_port_send_batch(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port,
			      const struct iovec *dgrams, unsigned n);

/* A run of back-to-back datagrams of seg bytes each, the last possibly shorter (seg 0: one
 * datagram), in niov pieces (a datagram's payload may be a piece of its own: sent from where it
 * lies, not copied). */
struct roce_port_run {
	const struct iovec *iov;
	unsigned niov;
	uint16_t seg;
};

/*
 * Whether roce_port_send_gso still sends a run with UDP_SEGMENT: then the kernel numbers the
 * run's datagrams' IPv4 IDs 0, 1, 2...; else (SOFTDOCA_ROCE_NO_GSO, or a kernel or route that
 * refused it) each leaves alone with ID 0. The ICRC covers the ID.
 */
bool roce_port_gso(const struct roce_port *p);

/*
 * Runs of datagrams of one QP to one peer. Each goes out with UDP_SEGMENT (one trip through the
 * stack, cut into ordinary datagrams after it: the kernel numbers their IPv4 IDs 0, 1, 2, ...
 * from the first's 0, which their ICRCs must cover), all in one sendmmsg. Where the kernel
 * refuses UDP_SEGMENT the port sends them one by one from then on. How many runs were not (all)
 * sent.
 */
unsigned roce_port_send_gso(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port,
			    const struct roce_port_run *runs, unsigned n);

/*
 * Drains what is ready (recvmmsg on each ready socket; accepts and forwards on the way) and
 * puts up to max datagrams for this process in msgs; how many. 0: nothing for us now (wait on
 * roce_port_fd). What is left stays readable.
 */
unsigned roce_port_recv(struct roce_port *p, struct roce_port_msg *msgs, unsigned max);

/*
 * As roce_port_recv, from the receive socket of QP qpn only (one system call, no epoll: an
 * owner's poll); 0 also when the QP has no socket of its own. The rest waits for roce_port_recv.
 */
unsigned roce_port_recv_qp(struct roce_port *p, uint32_t qpn, struct roce_port_msg *msgs, unsigned max);

void roce_port_get_stats(const struct roce_port *p, struct roce_port_stats *st);

/* The registry it uses (lookups for tools and tests). */
struct roce_reg *roce_port_reg(const struct roce_port *p);

#endif /* SOFTHW_RNIC_ROCE_PORT_H */
