/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA-CM over RoCEv2 for the soft NIC's RoCEv2 path (private to lib/softhw/rnic/): the IB CM
 * exchange Linux rdma_cm does on QP1 (REQ, MRA, REJ, REP, RTU, DREQ, DREP as UD SEND_ONLY
 * datagrams, roce_cm_mad.h), with the RDMA-CM IP service ID and addressing header.
 *
 * roce_path.c calls in at its hooks (dial, answer, bye, free, the QP1 datagrams of its port,
 * the process timer); the CM calls back roce_path_cm_connect() once both sides agreed on the
 * queue pair numbers, PSNs and MTU, which sets the qp up exactly as a descriptor would.
 *
 * Locks: qp->lock -> the CM's own lock -> the port's lock. Connection records are freed only
 * by the service thread, as qps are.
 */
#ifndef SOFTHW_RNIC_ROCE_CM_H
#define SOFTHW_RNIC_ROCE_CM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "doca_error.h"

struct rnic_qp;
struct rnic_ep;
struct roce_port;
struct roce_port_msg;

/* One local address's port as the CM uses it (lives as long as the process's port). */
struct roce_cm_local {
	struct roce_port *port;
	pthread_mutex_t *lock; /* the port's calls */
	uint32_t ip;           /* host order */
	uint8_t mtu_log;
};

/* The path MTU (log2) a qp offers: its interface's, or less where its ep asked (attr.mtu_log, 0: none). */
static inline uint8_t roce_mtu_log_offered(uint8_t iface, uint8_t cap)
{
	return cap >= 8 && cap < iface ? cap : iface;
}

/* ---- the path gives the CM (roce_path.c) ---- */

/* The local address and QPN of a qp of the path. */
const struct roce_cm_local *roce_path_cm_local(const struct rnic_qp *qp);
uint32_t roce_path_qpn(const struct rnic_qp *qp);
/* qp lock held: what the qp's engine owes (an ACK of what just came in) leaves now. */
void roce_path_cm_flush(struct rnic_qp *qp);
/* qp lock held: the qp's engine sent requests whose ACKs have not come (yet). */
bool roce_path_cm_unacked(struct rnic_qp *qp);
/*
 * qp lock held: the CM agreed on the connection: the qp's engine starts with these (sq_psn: the
 * first PSN it sends, rq_psn: the first it expects; flow_label: the REQ's primary path's, from
 * which both ends derive their UDP source port, roce_udp_sport_rc). `established`: the qp is
 * RTS now (active side, REP taken); else it waits for the RTU (passive). `service`: on the
 * service thread. False: failed (logged, the qp failed).
 */
bool roce_path_cm_connect(struct rnic_qp *qp, uint32_t peer_ip, uint32_t peer_qpn, uint32_t sq_psn, uint32_t rq_psn,
			  uint8_t mtu_log, uint32_t flow_label, bool established, bool service);

/* ---- the CM (roce_cm.c) ---- */

/* Service thread, qp lock held, QP_DIALING: send the REQ for qp->peer_addr. */
void roce_cm_dial(struct rnic_qp *qp);
/* qp lock held: the owner accepted (REP, with qp->cm_pdata) or rejected (REJ, consumer) the request. */
void roce_cm_answer(struct rnic_qp *qp, doca_error_t status);
/* qp lock held: the owner disconnects an established qp: DREQ. */
void roce_cm_bye(struct rnic_qp *qp);
/* Service thread: the qp is freed; a connection still up says DREQ to its peer. */
void roce_cm_qp_gone(struct rnic_qp *qp);
/* Service thread: a QP1 datagram (ICRC checked) came to this address. */
void roce_cm_rx(const struct roce_cm_local *l, const struct roce_port_msg *m);
/*
 * Service thread: a batch of the port's datagrams was read: connections ended by a DREQ hang up
 * now, or, while their qp waits for ACKs, when those come or the linger ends (CM_LINGER_MS).
 */
void roce_cm_rx_done(void);
/* qp lock held: a packet from the peer before the RTU (lost): established (COMM_EST). */
void roce_cm_comm_est(struct rnic_qp *qp);
/* The same for a qp a librdmacm connection described (qp->cm_wait_rtu; its lock held). */
void roce_cm_comm_est_data(struct rnic_qp *data);
/* REQs for RDMA-CM port `port` on this address go to ep. */
doca_error_t roce_cm_listen(const struct roce_cm_local *l, struct rnic_ep *ep, uint16_t port);
doca_error_t roce_cm_unlisten(struct rnic_ep *ep, uint16_t port);
/* nic.lock held: the ep is destroyed: its listeners go. */
void roce_cm_ep_gone(struct rnic_ep *ep);
/* Service thread: retransmissions and time-wait (ms, monotonic). */
uint64_t roce_cm_next_time(uint64_t now);
void roce_cm_timer(uint64_t now);
/* The service thread ended: the ports close, every record goes (qps are freed already). */
void roce_cm_stop(void);
/* The forked child forgets the parent's connections and listeners. */
void roce_cm_atfork(void);

/* What the CM dropped or answered by itself (tests, SOFTDOCA_ROCE_STATS). */
struct roce_cm_stats {
	uint64_t rx;            /* CM MADs taken */
	uint64_t drop_malformed; /* not a UD SEND_ONLY CM MAD to QP1, or a message that does not parse */
	uint64_t drop_unknown;  /* for no connection of ours (comm ID, state, QPN) */
	uint64_t rej_sent;      /* REJs sent (no listener, bad request, the consumer) */
	uint64_t resent;        /* REQ / REP / DREQ sent again on a timeout */
	uint64_t mra_sent;
	uint64_t rej_busy;     /* REQs refused: ROCE_CM_PENDING_MAX requests of the listener unanswered already */
};
void roce_cm_get_stats(struct roce_cm_stats *st);

#endif /* SOFTHW_RNIC_ROCE_CM_H */
