/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Same-host fast path for two-sided messages (SEND, SEND_IMM, WRITE_IMM up to one record).
 *
 * A qp whose peer is on this host (unix transport) gets a shared-memory channel
 * (lib/softhw/fabric/channel.h): the acceptor creates the memfd and two eventfd doorbells and
 * passes them with its hello ack (SCM_RIGHTS). Each message is one record on the sender's tx
 * ring; the receiver's ep_poll (the thread calling doca_pe_progress) consumes it into the
 * oldest posted receive and queues the RECV CQE. Consuming the record is the ACK: the
 * sender's ep_poll sees the ring's head move and completes its work request. A refusal (NAK:
 * receive too small, no receive after the retries, write-with-immediate refused) goes back as
 * an F_RESP on the socket, and the record stays unconsumed: the sender's qp fails on it.
 *
 * Sleepers: ep_arm arms the rx rings (the sender rings our doorbell after publishing) and, for
 * rings with unacknowledged messages, the tx side (the receiver rings after consuming). The
 * doorbell is watched by the service thread, which then does the same work as ep_poll, so an
 * armed owner is notified through its CQ. A sender going to sleep (or waiting a long time)
 * with messages not consumed also rings the receiver's doorbell: the receiver's service
 * thread then consumes them even if its owner never progresses.
 *
 * Everything read from the segment is untrusted: a bad record or head breaks the qp (hang-up),
 * never this process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "doca_types.h"
#include "softhw/fabric/mem.h"
#include "softhw/rnic/rnic_int.h"

#define NUDGE_MS 2

#define RING_DATA_MAX (RNIC_RING_REC - sizeof(struct rnic_ring_hdr))

static bool ring_enabled(void)
{
	static int enabled = -1;
	int e = __atomic_load_n(&enabled, __ATOMIC_RELAXED);

	if (e < 0) {
		const char *v = getenv("SOFTDOCA_RDMA_RING");

		e = !(v != NULL && v[0] == '0');
		__atomic_store_n(&enabled, e, __ATOMIC_RELAXED);
	}
	return e != 0;
}

static bool ring_geom(struct softhw_chan_geom *g)
{
	return softhw_chan_geom_make(RNIC_RING_REC, RNIC_RING_SLOTS, RNIC_RING_SLOTS, g) == DOCA_SUCCESS;
}

/*
 * The ring comes up in the service thread, possibly while the owner sleeps armed: ep_arm saw
 * no ring then, so arm its receive side here (ep_arm and this pair up like Dekker's: each
 * stores, then loads the other's flag, all SEQ_CST) and take what already waits ourselves.
 */
static void ring_on(struct rnic_qp *qp)
{
	__atomic_store_n(&qp->ring_on, true, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&qp->ep->ring_qps, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_SEQ_CST) && softhw_chan_arm_rx(&qp->ch))
		softhw_chan_ring_bell(qp->bell_fd);
}

void rnic_ring_off(struct rnic_qp *qp)
{
	rnic_rnr_unstall(qp, &qp->ring_stalled);
	if (qp->ring_on) {
		__atomic_store_n(&qp->ring_on, false, __ATOMIC_RELEASE);
		__atomic_fetch_sub(&qp->ep->ring_qps, 1, __ATOMIC_RELEASE);
	}
}

void rnic_ring_drop_hs(struct rnic_qp *qp)
{
	for (int i = 0; i < qp->hs_nfds; i++)
		close(qp->hs_fds[i]);
	qp->hs_nfds = 0;
}

void rnic_ring_free(struct rnic_qp *qp)
{
	rnic_ring_off(qp);
	rnic_ring_drop_hs(qp);
	if (qp->bell_fd >= 0) {
		rnic_nic_del_fd(qp->bell_fd);
		close(qp->bell_fd);
		qp->bell_fd = -1;
	}
	softhw_chan_close(&qp->ch);
}

bool rnic_ring_accept(struct rnic_qp *qp, const struct sockaddr_storage *from)
{
	struct softhw_chan_geom g;
	struct softhw_chan ch;
	struct rnic_hdr h = {.type = F_HELLO_ACK, .status = DOCA_SUCCESS, .flags = RNIC_HF_RING,
			     .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .cm = qp->cm};
	struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
	union {
		char buf[CMSG_SPACE(3 * sizeof(int))];
		struct cmsghdr align;
	} c;
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2, .msg_control = c.buf, .msg_controllen = sizeof(c.buf)};
	struct cmsghdr *cm;
	int fds[3] = {-1, -1, -1}; /* memfd, the dialer's bell, ours */
	ssize_t n;

	if (!ring_enabled() || !qp->local || qp->cm || from->ss_family != AF_UNIX || rnic_transport_forced() == 't' ||
	    qp->fd < 0 || qp->out_head != NULL || !ring_geom(&g))
		return false;
	if (softhw_chan_create(&g, &ch, &fds[0]) != DOCA_SUCCESS)
		return false;
	fds[1] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	fds[2] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fds[1] < 0 || fds[2] < 0)
		goto fail;
	rnic_self_peer(qp->ep, qp, &hello.self);
	memset(c.buf, 0, sizeof(c.buf));
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	do {
		n = sendmsg(qp->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof(h) + sizeof(hello))) {
		if (n > 0)
			qp->broken = true; /* half an answer: hang up (the answer was given) */
		else
			n = 0;
		goto fail_sent;
	}
	close(fds[0]);
	qp->ch = ch;
	qp->ch.peer_bell = -1;
	softhw_chan_set_bell(&qp->ch, fds[1]);
	qp->bell_fd = fds[2];
	rnic_nic_add_fd(qp->bell_fd, qp, RNIC_TAG_BELL, EPOLLIN);
	ring_on(qp);
	return true;
fail:
	n = 0;
fail_sent:
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	softhw_chan_close(&ch);
	return n > 0;
}

bool rnic_ring_join(struct rnic_qp *qp)
{
	struct softhw_chan_geom g;
	struct softhw_chan ch;

	if (qp->hs_nfds != 3 || !ring_geom(&g) || softhw_chan_attach(qp->hs_fds[0], &g, &ch) != DOCA_SUCCESS)
		return false;
	close(qp->hs_fds[0]);
	qp->ch = ch;
	qp->ch.peer_bell = -1;
	softhw_chan_set_bell(&qp->ch, qp->hs_fds[2]);
	qp->bell_fd = qp->hs_fds[1];
	{
		/* our doorbell came from the peer: make sure reading it never blocks */
		int fl = fcntl(qp->bell_fd, F_GETFL);

		if (fl >= 0)
			(void)fcntl(qp->bell_fd, F_SETFL, fl | O_NONBLOCK);
	}
	qp->hs_nfds = 0;
	rnic_nic_add_fd(qp->bell_fd, qp, RNIC_TAG_BELL, EPOLLIN);
	ring_on(qp);
	return true;
}

/* ---- sending ---- */

bool rnic_ring_wants(const struct rnic_qp *qp, const struct rnic_wr *wr)
{
	return qp->ring_on && wr->bytes <= RING_DATA_MAX &&
	       (wr->op == SOFTHW_RNIC_OP_SEND || wr->op == SOFTHW_RNIC_OP_SEND_IMM || wr->op == SOFTHW_RNIC_OP_WRITE_IMM);
}

void rnic_ring_send(struct rnic_qp *qp, struct rnic_wr *wr)
{
	uint8_t *slot = softhw_chan_slot(&qp->ch);
	struct rnic_ring_hdr h = {.op = (uint8_t)wr->op, .imm = wr->imm};
	size_t off = sizeof(h);

	if (wr->op == SOFTHW_RNIC_OP_WRITE_IMM) {
		h.id = wr->rkey.id;
		h.token = wr->rkey.token;
		h.addr = wr->rkey.addr;
	}
	memcpy(slot, &h, sizeof(h));
	for (uint32_t i = 0; i < wr->num_sge; i++) {
		if (wr->sgl[i].len > 0)
			memcpy(slot + off, wr->sgl[i].addr, wr->sgl[i].len);
		off += wr->sgl[i].len;
	}
	wr->sent = true;
	wr->path = RNIC_PATH_RING;
	if (qp->ring_inflight++ == 0)
		qp->ring_idle = 0;
	/* Our owner sleeps: its ACK (the receiver consuming the record) must ring our bell. */
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_SEQ_CST))
		__atomic_store_n(&qp->ch.tx.ctl->tx_armed, 1, __ATOMIC_SEQ_CST);
	softhw_chan_publish(&qp->ch, RNIC_RING_TAG_MSG, wr->seq, (uint32_t)off);
	/*
	 * Published while our owner sleeps (the service thread issued it once the connection was
	 * up or the socket path drained): nobody would nudge a receiver that does not progress.
	 */
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_ACQUIRE)) {
		qp->ring_nudged = rnic_now_ms();
		softhw_chan_ring_bell(qp->ch.peer_bell);
	}
}

/* The peer broke the segment's rules: stop reading it and hang up. */
static void ring_corrupt(struct rnic_qp *qp)
{
	if (!qp->ring_halt)
		rnic_qp_log_broken_peer(qp, "shared-memory ring");
	qp->ring_halt = true;
	qp->broken = true;
	rnic_nic_kick();
}

/* Consumed records are our ACKs: complete that many ring work requests, in order. */
static void ring_acks(struct rnic_qp *qp)
{
	uint64_t head, n;

	if (qp->ring_inflight == 0)
		return;
	head = __atomic_load_n(&qp->ch.tx.ctl->head, __ATOMIC_ACQUIRE);
	n = head - qp->ring_acked;
	if (n == 0) {
		/* a receiver that does not progress: its service thread takes the message (rare look) */
		if ((++qp->ring_idle & 1023) == 0) {
			uint64_t now = rnic_now_ms();

			if (qp->ring_nudged + NUDGE_MS <= now) {
				qp->ring_nudged = now;
				softhw_chan_ring_bell(qp->ch.peer_bell);
			}
		}
		return;
	}
	if (n > qp->ring_inflight || head > qp->ch.tx.pos) {
		ring_corrupt(qp);
		return;
	}
	qp->ring_acked = head;
	qp->ring_idle = 0;
	while (n-- > 0 && qp->state == QP_RTS) {
		struct rnic_wr *wr = qp->wq_head;

		if (wr == NULL || wr->path != RNIC_PATH_RING) {
			ring_corrupt(qp);
			return;
		}
		rnic_qp_complete_head(qp, DOCA_SUCCESS, wr->bytes);
	}
}

/* ---- receiving ---- */

/* Refuses the oldest message: its sender's wr fails with `err`; the ring is read no more. */
static void nak(struct rnic_qp *qp, uint64_t seq, uint8_t op, doca_error_t err)
{
	struct rnic_hdr resp = {.type = F_RESP, .op = op, .seq = seq, .status = err};

	rnic_rnr_unstall(qp, &qp->ring_stalled);
	qp->ring_halt = true;
	rnic_send_ctl(qp, &resp, NULL, 0);
}

void rnic_ring_rx(struct rnic_qp *qp)
{
	while (qp->ring_on && qp->state == QP_RTS && !qp->ring_halt) {
		struct softhw_chan_msg m;
		struct rnic_ring_hdr h;
		struct rnic_recv *r;
		const uint8_t *data;
		uint64_t len;
		doca_error_t err = DOCA_SUCCESS;
		int got = softhw_chan_peek(&qp->ch, &m);

		if (got == 0)
			return;
		if (got < 0 || m.tag != RNIC_RING_TAG_MSG || m.len < sizeof(h)) {
			ring_corrupt(qp);
			return;
		}
		memcpy(&h, m.data, sizeof(h));
		data = m.data + sizeof(h);
		len = m.len - sizeof(h);
		switch (h.op) {
		case SOFTHW_RNIC_OP_SEND:
		case SOFTHW_RNIC_OP_SEND_IMM:
			break;
		case SOFTHW_RNIC_OP_WRITE_IMM:
			err = rnic_write_check(qp, h.id, h.token, h.addr, len);
			break;
		default:
			ring_corrupt(qp);
			return;
		}
		if (err != DOCA_SUCCESS) {
			nak(qp, m.aux, h.op, err);
			return;
		}
		r = rnic_ep_take_recv(qp->ep);
		if (r == NULL) {
			if (rnic_rnr_exhausted(qp, &qp->ring_stalled, &qp->ring_deadline))
				nak(qp, m.aux, h.op, DOCA_ERROR_AGAIN);
			return; /* the record waits: a later poll, a posted receive or the timer retries */
		}
		rnic_rnr_unstall(qp, &qp->ring_stalled);
		if (h.op == SOFTHW_RNIC_OP_WRITE_IMM)
			err = rnic_write_place(h.id, h.token, h.addr, data, len);
		else
			err = rnic_recv_fill(r, data, len);
		if (err != DOCA_SUCCESS) {
			/* the receive fails too, as on the socket path */
			rnic_ep_recv_done(qp->ep, qp, r, err, (enum softhw_rnic_opcode)h.op, 0, 0);
			nak(qp, m.aux, h.op, err);
			return;
		}
		softhw_chan_consume(&qp->ch); /* the ACK */
		rnic_ep_recv_done(qp->ep, qp, r, DOCA_SUCCESS, (enum softhw_rnic_opcode)h.op, len, h.imm);
	}
}

void rnic_ring_service(struct rnic_qp *qp)
{
	/* a halted ring is the service thread's to hang up: reading it again would only spin */
	if (!qp->ring_on || qp->state != QP_RTS || qp->ring_halt)
		return;
	ring_acks(qp);
	rnic_ring_rx(qp);
}

enum ring_look { LOOK_SKIP = 0, LOOK_CHANGED, LOOK_PERIODIC };

/*
 * Has the peer published or consumed a record since the owner's last locked look? Only the
 * peer's words in the shared segment are read (it stays mapped until the qp is freed, after the
 * owner destroyed it). Every 64th poll looks anyway: a record waiting for a receive, and the
 * nudge of a receiver that does not progress, are not changes of those words.
 */
static enum ring_look ring_changed(struct rnic_qp *qp)
{
	uint64_t rx_tail = __atomic_load_n(&qp->ch.rx.ctl->tail, __ATOMIC_ACQUIRE);
	uint64_t tx_head = __atomic_load_n(&qp->ch.tx.ctl->head, __ATOMIC_ACQUIRE);

	if (rx_tail == qp->poll_rx_tail && tx_head == qp->poll_tx_head)
		return (++qp->poll_skipped & 63) != 0 ? LOOK_SKIP : LOOK_PERIODIC;
	qp->poll_rx_tail = rx_tail;
	qp->poll_tx_head = tx_head;
	return LOOK_CHANGED;
}

void rnic_ring_poll_ep(struct rnic_ep *ep)
{
	/* rings exist only on out-of-band qps: the owner's own list, walked without a lock */
	for (struct rnic_qp *qp = ep->own_qps; qp != NULL; qp = qp->next_own) {
		enum ring_look look;

		if (!__atomic_load_n(&qp->ring_on, __ATOMIC_SEQ_CST) || (look = ring_changed(qp)) == LOOK_SKIP)
			continue;
		if (pthread_mutex_trylock(&qp->lock) != 0) {
			qp->poll_skipped = 63; /* the service thread is at it: look again next time */
			continue;
		}
		if (look == LOOK_PERIODIC)
			qp->ring_idle += 63; /* the polls skipped count towards the nudge (ring_acks) */
		rnic_ring_service(qp);
		pthread_mutex_unlock(&qp->lock);
	}
}

bool rnic_ring_arm_ep(struct rnic_ep *ep)
{
	bool waiting = false;

	pthread_mutex_lock(&ep->qps_lock);
	for (struct rnic_qp *qp = ep->qps; qp != NULL; qp = qp->next_ep) {
		if (!__atomic_load_n(&qp->ring_on, __ATOMIC_SEQ_CST))
			continue;
		pthread_mutex_lock(&qp->lock);
		if (qp->ring_on && qp->state == QP_RTS && !qp->ring_halt) {
			/* a message the owner cannot take yet (no receive) is the service thread's */
			if (softhw_chan_arm_rx(&qp->ch) && !qp->ring_stalled && !qp->ring_halt)
				waiting = true;
			if (qp->ring_inflight > 0) {
				__atomic_store_n(&qp->ch.tx.ctl->tx_armed, 1, __ATOMIC_SEQ_CST);
				if (__atomic_load_n(&qp->ch.tx.ctl->head, __ATOMIC_SEQ_CST) != qp->ring_acked) {
					waiting = true;
				} else {
					/* the receiver may not progress: its service thread takes the message */
					qp->ring_nudged = rnic_now_ms();
					softhw_chan_ring_bell(qp->ch.peer_bell);
				}
			}
		}
		pthread_mutex_unlock(&qp->lock);
	}
	pthread_mutex_unlock(&ep->qps_lock);
	return waiting;
}
