/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Same-host fast path for two-sided messages (SEND, SEND_IMM, WRITE_IMM up to one record), and
 * WRITEs that follow messages still on the ring (up to RING_WRITE_RECS records, each part at its
 * own address; the first carries the whole length, checked before any part is placed).
 *
 * A qp whose peer is on this host (unix transport) gets a shared-memory channel
 * (lib/softhw/fabric/channel.h): the acceptor creates the memfd and two doorbells (socket
 * pairs, base/bell.h: each side alone holds the end it reads) and passes the dialer its
 * doorbell's two ends and the ringing end of its own with its hello ack (SCM_RIGHTS). Each message is one record on the sender's tx
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
 * thread then consumes them even if its owner never progresses. An owner that sleeps on its own
 * descriptor (owner_wakes: a verbs completion channel) has the doorbells in ep->wait_fd too:
 * while it sleeps there the service thread watches each doorbell once only and gives the owner
 * OWNER_MS to take it (struct ring: `away`), so the peer's ring wakes the owner itself, which
 * takes the messages (ring_serve), and an owner that armed but waits elsewhere stalls nobody.
 *
 * Everything read from the segment is untrusted: a bad record or head breaks the qp (hang-up),
 * never this process, and a peer that keeps the ring full gets one lap per turn of the thread
 * serving every qp (RING_RX_BUDGET).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "doca_types.h"
#include "softhw/fabric/mem.h"
#include "softhw/fabric/waitset.h"
#include "softhw/base/sdk_log.h"
#include "softhw/rnic/stream.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_RING);

#define NUDGE_MS 2
#define NUDGE_MAX_MS 100
/* An owner that polled this many times without arming has the service thread leave its doorbell */
#define QUIET_POLLS 4096
/* ... until it arms, or stops polling this long (the service thread's check) */
#define QUIET_MS 2
/* An owner asleep on ep->wait_fd has this long to take a doorbell before the service thread does */
#define OWNER_MS 2
/* A qp's ring (qp->path[RNIC_PATH_RING]): from the handshake until the qp is freed. */
struct ring {
	struct rnic_path_link link; /* first: the doorbell's epoll tag points here */
	/*
	 * Two-sided messages travel on a shared-memory channel consumed by the receiver's ep_poll
	 * (or its service thread on the doorbell); the receiver consuming a record is its ACK, a
	 * NAK comes back as an F_RESP on the stream.
	 */
	struct softhw_chan ch;
	int bell_fd;               /* our doorbell's receiving end: the peer rings it, the service thread watches it */
	int self_bell;             /* its ringing end, for us (the peer has its own copy) */
	bool on;                   /* atomic for ep_poll's look: the ring is usable */
	bool halt;                 /* rx: a message was refused (NAK): nothing more is consumed */
	bool stalled;              /* rx: the oldest message waits for a receive */
	uint64_t deadline;         /* rx: NAK with AGAIN then (ms, monotonic); 0: retry for ever */
	uint64_t acked;            /* tx: records the peer consumed */
	uint32_t head_done;        /* tx: records of the oldest wr in flight consumed (a WRITE takes several) */
	uint32_t idle;             /* tx: polls without progress (a nudge now and then) */
	/* owner only (ep_poll): the peer's ring words at its last locked look, and looks skipped */
	uint64_t poll_rx_next, poll_tx_head; /* owner: the record it looks for next, the peer's head seen */
	uint32_t poll_skipped;
	uint64_t nudged;           /* tx: ms of the last nudge */
	/*
	 * Quiet: the owner keeps polling, so the service thread does not watch our doorbell (a
	 * sender going to sleep rings it to have messages taken; the owner takes them anyway).
	 * Set by the owner (ring_poll), ended by its arm or by the service thread's check finding
	 * it stopped polling (ring_timer). qp lock; `polls` and `quiet_check` atomic.
	 */
	bool quiet;
	uint64_t polls;            /* owner's looks, compared by the service thread */
	uint64_t polls_armed;      /* owner: polls at its last arm */
	uint64_t quiet_seen;       /* service thread: polls at its last check */
	uint64_t quiet_check;      /* ms of the service thread's next check */
	uint64_t behind_check;     /* ms of the service thread's next look while work waits behind ours (0: none) */
	uint64_t behind_gap;       /* ms between those looks (doubles up to NUDGE_MAX_MS while nothing moves) */
	uint64_t bells;            /* tx: times we rang the peer's doorbell ourselves (a post, an arm, a nudge) */
	/*
	 * The owner sleeps on ep->wait_fd (owner_waits), so our doorbell is its to take. The service
	 * thread still watches it, once (EPOLLONESHOT): when it rang, the owner has OWNER_MS to wake
	 * or poll (owner_presence moves). An owner that armed its CQ but waits on something else
	 * does not; the ring is then `away` and its doorbell the service thread's, as when nobody
	 * sleeps, until the owner sleeps or wakes again (ring_owner_wait): the peer's SEND completes
	 * without the application, as a hardware NIC takes it. qp lock.
	 */
	bool away;
	uint64_t owner_check;      /* ms of the service thread's look at the owner (0: none due) */
	uint64_t owner_seen;       /* owner_presence() when the doorbell rang */
	uint32_t watch_events;     /* what the service thread's epoll watches on the doorbell now */
};

/* The qp's ring, or NULL (lock-free readers: it is set once, before `on`, and freed with the qp). */
static inline struct ring *ring_of(const struct rnic_qp *qp)
{
	return __atomic_load_n((struct ring *const *)&qp->path[RNIC_PATH_RING], __ATOMIC_ACQUIRE);
}

/*
 * Rings the peer's doorbell for what we published or left unconsumed, unless its owner said it
 * keeps polling (rx_polls, set while its ring is quiet): then nobody watches that doorbell (its
 * service thread left it, ring_watch), the owner takes the records in its next poll, and the
 * write would only cost us a system call. The peer's service thread clears the flag and looks
 * at the ring itself when the owner stops polling (ring_timer); the fences pair with that, so
 * either it sees our record or we see the flag cleared and ring.
 */
static void ring_nudge(struct ring *r)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->ch.tx.ctl->rx_polls, __ATOMIC_SEQ_CST))
		return;
	r->bells++;
	softhw_bell_ring(r->ch.peer_bell);
}

#define RING_DATA_MAX (RNIC_RING_REC - sizeof(struct rnic_ring_hdr))
/* A plain WRITE behind messages on the ring takes up to this many records (64 KiB and more). */
#define RING_WRITE_RECS 16u
_Static_assert(RING_WRITE_RECS < RNIC_RING_SLOTS, "a WRITE's records fit the ring");

/* Records a wr takes on the ring (one record, or a WRITE cut in parts at their own addresses). */
static uint32_t ring_recs(const struct rnic_wr *wr)
{
	return wr->bytes <= RING_DATA_MAX ? 1u : (uint32_t)((wr->bytes + RING_DATA_MAX - 1) / RING_DATA_MAX);
}

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
static void ring_on(struct rnic_qp *qp, struct ring *r)
{
	r->link = (struct rnic_path_link){.qp = qp, .id = RNIC_PATH_RING};
	/*
	 * Seen by ring_serve before the owner's wait set holds the doorbell: the peer may have rung
	 * it already (it got it with our hello ack), and an owner asleep on the set that it wakes
	 * must read it. Before, ring_serve found no ring and left it unread: every wake-up until the
	 * store was an empty CQ event (a sleeper spun through hundreds on a loaded machine). It
	 * drains it while the ring is not on yet; what the peer published is rung again below.
	 */
	__atomic_store_n((struct ring **)&qp->path[RNIC_PATH_RING], r, __ATOMIC_RELEASE);
	/* before the service thread's watch: a sleeping owner must hear it */
	if (qp->ep->wait_fd >= 0 && softhw_waitset_add(qp->ep->wait_fd, r->bell_fd, r) != 0)
		SDK_LOG_ERR("soft NIC ring: the owner's wait set refused the doorbell (%s): a sleeping owner is "
			    "woken through the service thread", strerror(errno));
	r->watch_events = EPOLLIN; /* (an owner asleep already: its first doorbell sets the watch, ring_event) */
	rnic_nic_add_fd(r->bell_fd, &r->link, RNIC_TAG_PATH, EPOLLIN);
	__atomic_store_n(&r->on, true, __ATOMIC_SEQ_CST);
	rnic_path_up(qp, RNIC_PATH_RING, true);
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_SEQ_CST) && softhw_chan_arm_rx_records(&r->ch))
		softhw_bell_ring(r->self_bell);
}

static void ring_off(struct rnic_qp *qp)
{
	struct ring *r = ring_of(qp);

	if (r == NULL)
		return;
	rnic_rnr_unstall(qp, &r->stalled);
	if (r->on) {
		__atomic_store_n(&r->on, false, __ATOMIC_RELEASE);
		rnic_path_up(qp, RNIC_PATH_RING, false);
	}
}

static void ring_free(struct rnic_qp *qp)
{
	struct ring *r = ring_of(qp);

	if (r == NULL)
		return;
	ring_off(qp);
	/*
	 * Out of both epoll sets before the close: a dialer's receiving end came from the peer, which
	 * keeps it open, and an epoll entry lives as long as its open file, not our descriptor (the
	 * peer would go on waking the owner for a qp that is gone).
	 */
	rnic_nic_del_fd(r->bell_fd);
	if (qp->ep->wait_fd >= 0)
		(void)softhw_waitset_del(qp->ep->wait_fd, r->bell_fd);
	close(r->bell_fd);
	close(r->self_bell);
	softhw_chan_close(&r->ch);
	qp->path[RNIC_PATH_RING] = NULL;
	free(r);
}

static void ring_atfork(struct rnic_qp *qp)
{
	struct ring *r = ring_of(qp);

	if (r != NULL) {
		close(r->bell_fd);
		close(r->self_bell);
		if (r->ch.peer_bell >= 0)
			close(r->ch.peer_bell);
	}
}

struct softhw_chan *rnic_ring_chan(struct rnic_qp *qp)
{
	struct ring *r = ring_of(qp);

	return r != NULL && r->on && softhw_chan_mapped(&r->ch) ? &r->ch : NULL;
}

bool rnic_ring_quiet(const struct rnic_qp *qp)
{
	const struct ring *r = ring_of(qp);

	return r != NULL && __atomic_load_n(&r->quiet, __ATOMIC_RELAXED);
}

uint64_t rnic_ring_bells(const struct rnic_qp *qp)
{
	const struct ring *r = ring_of(qp);

	return r != NULL ? __atomic_load_n(&r->bells, __ATOMIC_RELAXED) : 0;
}

static bool ring_accept(struct rnic_qp *qp, const struct sockaddr_storage *from)
{
	struct rnic_stream *s = rnic_stream_of(qp); /* the ring's handshake rides on the stream's */
	struct softhw_chan_geom g;
	struct softhw_chan ch;
	struct rnic_hdr h = {.type = F_HELLO_ACK, .status = DOCA_SUCCESS, .flags = RNIC_HF_RING,
			     .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .cm = qp->cm};
	struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
	union {
		char buf[CMSG_SPACE(RNIC_RING_HS_FDS * sizeof(int))];
		struct cmsghdr align;
	} c;
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2, .msg_control = c.buf, .msg_controllen = sizeof(c.buf)};
	struct cmsghdr *cm;
	/*
	 * sent: the memfd, the dialer's doorbell (its receiving end, its own ringing end), the
	 * ringing end of ours for peers; kept: ours (receiving, our own ringing end), the dialer's
	 * ringing end for peers (base/bell.h: nobody rings with an end another process holds)
	 */
	int fds[RNIC_RING_HS_FDS] = {-1, -1, -1, -1};
	int theirs[3] = {-1, -1, -1}, mine[3] = {-1, -1, -1};
	struct ring *r;
	ssize_t n;

	if (!ring_enabled() || !qp->local || qp->cm || from->ss_family != AF_UNIX || rnic_transport_forced() == 't' ||
	    s->fd < 0 || s->out_head != NULL || ring_of(qp) != NULL || !ring_geom(&g))
		return false;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return false;
	if (softhw_chan_create(&g, &ch, &fds[0]) != DOCA_SUCCESS) {
		free(r);
		return false;
	}
	if (softhw_bell_open(&theirs[0], &theirs[1], &theirs[2]) != 0 || softhw_bell_open(&mine[0], &mine[1], &mine[2]) != 0)
		goto fail;
	fds[1] = theirs[0];
	fds[2] = theirs[1];
	fds[3] = mine[2];
	rnic_self_peer(qp->ep, qp, &hello.self);
	memset(c.buf, 0, sizeof(c.buf));
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	do {
		n = sendmsg(s->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof(h) + sizeof(hello))) {
		if (n > 0)
			qp->broken = true; /* half an answer: hang up (the answer was given) */
		else
			n = 0;
		goto fail_sent;
	}
	close(fds[0]);
	close(theirs[0]); /* the dialer's alone */
	close(theirs[1]);
	close(mine[2]);
	r->ch = ch;
	r->ch.peer_bell = -1;
	(void)softhw_chan_set_bell(&r->ch, theirs[2]); /* (ours: a socket) */
	r->bell_fd = mine[0];
	r->self_bell = mine[1];
	ring_on(qp, r);
	return true;
fail:
	n = 0;
fail_sent:
	if (fds[0] >= 0)
		close(fds[0]);
	for (int i = 0; i < 3; i++) {
		if (theirs[i] >= 0)
			close(theirs[i]);
		if (mine[i] >= 0)
			close(mine[i]);
	}
	softhw_chan_close(&ch);
	free(r);
	return n > 0;
}

/* Dialer: maps the ring the hello ack brought (false: it is unusable, hang up). */
static bool ring_join(struct rnic_qp *qp, uint16_t ack_flags)
{
	struct rnic_stream *s = rnic_stream_of(qp); /* the ring's handshake rides on the stream's */
	struct softhw_chan_geom g;
	struct softhw_chan ch;
	struct ring *r;

	if (!(ack_flags & RNIC_HF_RING))
		return true; /* no ring on this qp */
	if (s == NULL || s->hs_nfds != RNIC_RING_HS_FDS || ring_of(qp) != NULL || !ring_geom(&g))
		return false;
	/* the doorbells: sockets, or we could block on them (base/bell.h); else hang up */
	for (int i = 1; i < RNIC_RING_HS_FDS; i++)
		if (!softhw_bell_usable(s->hs_fds[i]))
			return false;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return false;
	if (softhw_chan_attach(s->hs_fds[0], &g, &ch) != DOCA_SUCCESS) {
		free(r);
		return false;
	}
	close(s->hs_fds[0]);
	r->ch = ch;
	r->ch.peer_bell = -1;
	(void)softhw_chan_set_bell(&r->ch, s->hs_fds[3]);
	r->bell_fd = s->hs_fds[1];
	r->self_bell = s->hs_fds[2];
	s->hs_nfds = 0;
	ring_on(qp, r);
	return true;
}

/* ---- sending ---- */

static bool ring_wants(const struct rnic_qp *qp, const struct rnic_wr *wr)
{
	const struct ring *r = qp->path[RNIC_PATH_RING]; /* qp lock held */

	if (r == NULL || !r->on)
		return false;
	/*
	 * A plain WRITE rides the ring only behind messages still on it: it would otherwise wait
	 * for their ACKs before taking the socket (RC order), and the next message for its ACK,
	 * a round trip per switch (an NVMe-oF target's read data between its responses). Up to
	 * RING_WRITE_RECS records, each placed at its own address. Alone, it keeps the socket or the
	 * inline copy, which need no receiver that polls.
	 */
	if (wr->op == SOFTHW_RNIC_OP_WRITE)
		return qp->inflight[RNIC_PATH_RING] > 0 && ring_recs(wr) <= RING_WRITE_RECS;
	if (wr->bytes > RING_DATA_MAX)
		return false;
	return wr->op == SOFTHW_RNIC_OP_SEND || wr->op == SOFTHW_RNIC_OP_SEND_IMM || wr->op == SOFTHW_RNIC_OP_SEND_INV ||
	       wr->op == SOFTHW_RNIC_OP_WRITE_IMM;
}

static bool ring_can_post(struct rnic_qp *qp, const struct rnic_wr *wr)
{
	return softhw_chan_can_send_n(&((struct ring *)qp->path[RNIC_PATH_RING])->ch, ring_recs(wr));
}

static void ring_post(struct rnic_qp *qp, struct rnic_wr *wr)
{
	struct ring *r = qp->path[RNIC_PATH_RING];
	const uint32_t recs = ring_recs(wr);
	uint64_t done = 0, sge_off = 0;
	uint32_t sge = 0;

	/* Our owner sleeps: its ACK (the receiver consuming the record) must ring our bell. */
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_SEQ_CST))
		__atomic_store_n(&r->ch.tx.ctl->tx_armed, 1, __ATOMIC_SEQ_CST);
	wr->parts = (uint8_t)recs;
	for (uint32_t k = 0; k < recs; k++) {
		uint8_t *slot = softhw_chan_slot(&r->ch);
		struct rnic_ring_hdr h = {.op = (uint8_t)wr->op, .imm = wr->imm};
		uint64_t part = wr->bytes - done < RING_DATA_MAX ? wr->bytes - done : RING_DATA_MAX;
		size_t off = sizeof(h);

		if (wr->op == SOFTHW_RNIC_OP_WRITE_IMM || wr->op == SOFTHW_RNIC_OP_WRITE) {
			h.id = wr->rkey.id;
			h.token = wr->rkey.token;
			h.addr = wr->rkey.addr + done; /* each part lands at its own address */
		}
		if (recs > 1 && k == 0) { /* the receiver checks the whole range before placing any part */
			h.flags = RNIC_RING_F_WHOLE;
			h.imm = (uint32_t)wr->bytes;
		}
		memcpy(slot, &h, sizeof(h));
		for (uint64_t left = part; left > 0;) { /* the next `part` bytes of the gather list */
			const struct softhw_rnic_sge *g = &wr->sgl[sge];
			uint64_t n = g->len - sge_off < left ? g->len - sge_off : left;

			if (n > 0)
				memcpy(slot + off, (const uint8_t *)g->addr + sge_off, n);
			off += n;
			left -= n;
			sge_off += n;
			if (sge_off == g->len) {
				sge++;
				sge_off = 0;
			}
		}
		done += part;
		softhw_chan_publish(&r->ch, RNIC_RING_TAG_MSG, wr->seq, (uint32_t)off);
	}
	if (qp->inflight[RNIC_PATH_RING] == 1) /* (counted by the core) */
		r->idle = 0;
	/*
	 * Published while our owner sleeps (the service thread issued it once the connection was
	 * up or the socket path drained): nobody would nudge a receiver that does not progress.
	 */
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_ACQUIRE)) {
		r->nudged = rnic_now_ms();
		ring_nudge(r);
	}
}

/* The peer broke the segment's rules: stop reading it and hang up. */
static void ring_corrupt(struct rnic_qp *qp, struct ring *r)
{
	if (!r->halt)
		rnic_qp_log_broken_peer(qp, "shared-memory ring");
	r->halt = true;
	qp->broken = true;
	rnic_nic_kick();
}

/* Consumed records are our ACKs: complete the ring work requests they finish, in order. */
static void ring_acks(struct rnic_qp *qp, struct ring *r)
{
	for (;;) {
		uint64_t head, n;

		if (qp->inflight[RNIC_PATH_RING] == 0)
			return;
		head = __atomic_load_n(&r->ch.tx.ctl->head, __ATOMIC_ACQUIRE);
		n = head - r->acked;
		if (n == 0) {
			/* a receiver that does not progress: its service thread takes the message (rare look) */
			if (++r->idle >= 1024) { /* (periodic looks add 64 at once: a threshold, not a multiple) */
				uint64_t now = rnic_now_ms();

				r->idle = 0;
				if (r->nudged + NUDGE_MS <= now) {
					r->nudged = now;
					ring_nudge(r);
				}
			}
			return;
		}
		if (n > r->ch.tx.pos - r->acked || head > r->ch.tx.pos) {
			ring_corrupt(qp, r);
			return;
		}
		r->acked = head;
		r->idle = 0;
		while (n-- > 0 && qp->state == QP_RTS) {
			struct rnic_wr *wr = qp->wq_head;

			if (wr == NULL || wr->path != RNIC_PATH_RING) {
				ring_corrupt(qp, r);
				return;
			}
			if (++r->head_done < wr->parts)
				continue; /* a part of a WRITE: the wr completes with its last */
			r->head_done = 0;
			rnic_qp_complete_head(qp, DOCA_SUCCESS, wr->bytes);
		}
		/*
		 * Our owner sleeps with records still unconsumed (the rest of a WRITE, or behind an
		 * unsignaled wr: nothing above woke it): the consume that rang us cleared the receiver's
		 * reason to ring again, so arm it again, and look once more at what came meanwhile.
		 */
		if (qp->state != QP_RTS || qp->inflight[RNIC_PATH_RING] == 0 ||
		    !__atomic_load_n(&qp->ep->armed, __ATOMIC_SEQ_CST))
			return;
		__atomic_store_n(&r->ch.tx.ctl->tx_armed, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&r->ch.tx.ctl->head, __ATOMIC_SEQ_CST) == r->acked)
			return;
	}
}

/* ---- receiving ---- */

/* Refuses the oldest message: its sender's wr fails with `err`; the ring is read no more. */
static void nak(struct rnic_qp *qp, struct ring *r, uint64_t seq, uint8_t op, doca_error_t err)
{
	struct rnic_hdr resp = {.type = F_RESP, .op = op, .seq = seq, .status = err};

	rnic_rnr_unstall(qp, &r->stalled);
	r->halt = true;
	rnic_send_ctl(qp, &resp, NULL, 0);
}

/*
 * Records one ring_rx call takes at most: one lap, every record the peer could have published
 * before the call began. A peer that refills the ring as fast as we consume it (its records cost
 * it a store, each WRITE costs us a copy; it may be another uid that [access] lets in) would
 * otherwise hold the thread serving every qp of the process (the service thread, or the owner
 * in ep_poll) in this loop for as long as it likes.
 */
#define RING_RX_BUDGET RNIC_RING_SLOTS

void (*rnic_ring_rx_hook)(struct rnic_qp *qp, uint32_t taken);

/* The record is ours: its slot goes back to the peer (the ACK). */
static void ring_took(struct rnic_qp *qp, struct ring *r, uint32_t taken)
{
	softhw_chan_consume(&r->ch);
	if (rnic_ring_rx_hook != NULL)
		rnic_ring_rx_hook(qp, taken);
}

/* Takes the peer's records in order; true: the budget ran out with a record still waiting. */
static bool ring_rx(struct rnic_qp *qp, struct ring *r)
{
	for (uint32_t taken = 0; r->on && qp->state == QP_RTS && !r->halt;) {
		struct softhw_chan_msg m;
		struct rnic_ring_hdr h;
		struct rnic_recv *rv;
		const uint8_t *data;
		uint64_t len;
		doca_error_t err = DOCA_SUCCESS;
		int got = softhw_chan_peek(&r->ch, &m);

		if (got == 0)
			return false;
		if (got < 0 || m.tag != RNIC_RING_TAG_MSG || m.len < sizeof(h)) {
			ring_corrupt(qp, r);
			return false;
		}
		if (taken == RING_RX_BUDGET)
			return true; /* (a record is there: a lap that ended here needs no second look) */
		memcpy(&h, m.data, sizeof(h));
		data = m.data + sizeof(h);
		len = m.len - sizeof(h);
		switch (h.op) {
		case SOFTHW_RNIC_OP_SEND:
		case SOFTHW_RNIC_OP_SEND_IMM:
		case SOFTHW_RNIC_OP_SEND_INV:
			break;
		case SOFTHW_RNIC_OP_WRITE:
			/*
			 * A WRITE in parts: all of it is checked at the first, as a RETH's DMA length is.
			 * Otherwise the export is checked where the part is placed (rnic_write_place: one
			 * look at it per record, not two; the ep's grant is ours to check).
			 */
			if (h.flags & RNIC_RING_F_WHOLE) {
				err = rnic_write_check(qp, h.id, h.token, h.addr, len);
				if (err == DOCA_SUCCESS)
					err = rnic_write_check(qp, h.id, h.token, h.addr, h.imm);
			} else if (!(qp->ep->attr.access & DOCA_ACCESS_FLAG_RDMA_WRITE)) {
				err = DOCA_ERROR_NOT_PERMITTED;
			}
			break;
		case SOFTHW_RNIC_OP_WRITE_IMM: /* checked before it takes a receive */
			err = rnic_write_check(qp, h.id, h.token, h.addr, len);
			break;
		default:
			ring_corrupt(qp, r);
			return false;
		}
		if (err != DOCA_SUCCESS) {
			nak(qp, r, m.aux, h.op, err);
			return false;
		}
		if (h.op == SOFTHW_RNIC_OP_WRITE) { /* one-sided: placed, no receive, no completion here */
			err = rnic_write_place(h.id, h.token, h.addr, data, len);
			if (err != DOCA_SUCCESS) {
				nak(qp, r, m.aux, h.op, err);
				return false;
			}
			ring_took(qp, r, ++taken);
			continue;
		}
		rv = rnic_ep_take_recv(qp->ep);
		if (rv == NULL) {
			if (rnic_rnr_exhausted(qp, &r->stalled, &r->deadline))
				nak(qp, r, m.aux, h.op, DOCA_ERROR_AGAIN);
			return false; /* the record waits: a later poll, a posted receive or the timer retries */
		}
		rnic_rnr_unstall(qp, &r->stalled);
		if (h.op == SOFTHW_RNIC_OP_WRITE_IMM)
			err = rnic_write_place(h.id, h.token, h.addr, data, len);
		else
			err = rnic_recv_fill(rv, data, len);
		if (err != DOCA_SUCCESS) {
			/* the receive fails too, as on the socket path */
			rnic_ep_recv_done(qp->ep, qp, rv, err, (enum softhw_rnic_opcode)h.op, 0, 0);
			nak(qp, r, m.aux, h.op, err);
			return false;
		}
		/* the CQE first: once the sender sees its ACK, the receive's completion is there to poll */
		rnic_ep_recv_done(qp->ep, qp, rv, DOCA_SUCCESS, (enum softhw_rnic_opcode)h.op, len, h.imm);
		ring_took(qp, r, ++taken);
	}
	return false;
}

/*
 * ring_rx stopped at its budget with records left: our own ring of our doorbell has whoever
 * sleeps on it (the service thread's epoll, an owner on ep->wait_fd) serve the qp again, after
 * what else is ready there. The polling owner needs none (ring_poll).
 */
static void ring_again(struct ring *r)
{
	softhw_bell_ring(r->self_bell);
}

/* Takes ACKs and incoming messages (qp lock held); true: records wait beyond ring_rx's budget. */
static bool ring_take(struct rnic_qp *qp)
{
	struct ring *r = qp->path[RNIC_PATH_RING];

	if (r == NULL || !r->on || qp->state != QP_RTS || qp->broken)
		return false;
	/*
	 * A ring halted by our NAK is read no more (reading it again would only spin), but the
	 * peer may still take what we sent (its NAK handling pumps first, io.c resp_begin): those
	 * ACKs complete our work requests with success, as the peer's receives did.
	 */
	ring_acks(qp, r);
	return !r->halt && ring_rx(qp, r);
}

/* ring_take for every caller but the polling owner: what the budget left comes on the doorbell. */
static void ring_pump(struct rnic_qp *qp)
{
	if (ring_take(qp))
		ring_again(qp->path[RNIC_PATH_RING]);
}

enum ring_look { LOOK_SKIP = 0, LOOK_CHANGED, LOOK_PERIODIC };

/*
 * Has the peer published or consumed a record since the owner's last locked look? Only the
 * peer's words in the shared segment are read (it stays mapped until the qp is freed, after the
 * owner destroyed it): the sequence of the slot the next record goes in (the record's own line,
 * so a message is one line to fetch, not the tail's and then its own), and the head. A sequence
 * at or past the one looked for (a record published, or consumed meanwhile by the service
 * thread) is a change; ring_poll then looks for the record after the last one consumed. Every
 * 64th poll looks anyway: a record waiting for a receive, and the nudge of a receiver that does
 * not progress, are not changes of those words.
 */
static enum ring_look ring_changed(struct ring *r)
{
	const struct softhw_chan_rec *next = softhw_ring_slot(&r->ch.rx, r->poll_rx_next);
	uint64_t seq = __atomic_load_n(&next->seq, __ATOMIC_ACQUIRE);
	uint64_t tx_head = __atomic_load_n(&r->ch.tx.ctl->head, __ATOMIC_ACQUIRE);

	if ((int64_t)(seq - (r->poll_rx_next + 1)) < 0 && tx_head == r->poll_tx_head)
		return (++r->poll_skipped & 63) != 0 ? LOOK_SKIP : LOOK_PERIODIC;
	r->poll_tx_head = tx_head;
	return LOOK_CHANGED;
}

/* qp lock held: the owner sleeps on ep->wait_fd, and takes our doorbell itself (ring_serve). */
static bool owner_sleeps(const struct rnic_qp *qp, const struct ring *r)
{
	return __atomic_load_n(&qp->ep->owner_waits, __ATOMIC_ACQUIRE) && !r->away;
}

/* The owner's wake-ups and polls so far: moved since the doorbell rang, the owner is there. */
static uint64_t owner_presence(const struct rnic_qp *qp, const struct ring *r)
{
	return __atomic_load_n(&qp->ep->owner_woke, __ATOMIC_RELAXED) + __atomic_load_n(&r->polls, __ATOMIC_RELAXED);
}

/*
 * qp lock held: the service thread's watch of our doorbell. Off while the owner polls (quiet);
 * while it sleeps on its own descriptor, one ring (then off until the look at the owner,
 * ring_timer); else every ring.
 */
static void ring_watch(struct rnic_qp *qp, struct ring *r)
{
	uint32_t events = EPOLLIN;
	struct epoll_event ev;

	if (__atomic_load_n(&r->quiet, __ATOMIC_RELAXED))
		events = 0;
	else if (owner_sleeps(qp, r))
		events = r->owner_check != 0 ? 0 : EPOLLIN | EPOLLONESHOT;
	r->watch_events = events;
	ev = (struct epoll_event){.events = events, .data.u64 = (uint64_t)(uintptr_t)&r->link | RNIC_TAG_PATH};
	(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_MOD, r->bell_fd, &ev);
}

/* qp lock held: the owner keeps polling; the service thread checks every QUIET_MS that it does. */
static void ring_go_quiet(struct rnic_qp *qp, struct ring *r)
{
	__atomic_store_n(&r->quiet, true, __ATOMIC_RELAXED);
	__atomic_store_n(&r->ch.rx.ctl->rx_polls, 1, __ATOMIC_SEQ_CST); /* senders need not ring us (ring_nudge) */
	r->quiet_seen = r->polls;
	__atomic_store_n(&r->quiet_check, rnic_now_ms() + QUIET_MS, __ATOMIC_RELAXED);
	ring_watch(qp, r);
	rnic_nic_kick(); /* the service thread keeps the check's time (ring_timed) */
}

/* qp lock held: the owner stopped polling (it arms, or the service thread found it idle). */
static void ring_unquiet(struct rnic_qp *qp, struct ring *r)
{
	if (!r->quiet)
		return;
	__atomic_store_n(&r->quiet, false, __ATOMIC_RELAXED);
	__atomic_store_n(&r->ch.rx.ctl->rx_polls, 0, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* pairs with ring_nudge: the caller looks at the ring next */
	ring_watch(qp, r); /* a doorbell rung meanwhile fires at once */
}

static void ring_poll(struct rnic_ep *ep)
{
	/* rings exist only on out-of-band qps: the owner's own, those with a ring up, without a lock */
	for (struct rnic_qp *qp = rnic_ep_up_qps(ep, RNIC_PATH_RING, false); qp != NULL; qp = qp->next_up[RNIC_PATH_RING]) {
		struct ring *r = ring_of(qp);
		enum ring_look look;

		if (r == NULL || !__atomic_load_n(&r->on, __ATOMIC_SEQ_CST))
			continue;
		__atomic_store_n(&r->polls, r->polls + 1, __ATOMIC_RELAXED);
		if ((look = ring_changed(r)) == LOOK_SKIP)
			continue;
		if (!softhw_bias_trylock(&qp->lock)) {
			r->poll_skipped = 63; /* the service thread is at it: look again next time */
			continue;
		}
		if (look == LOOK_PERIODIC)
			r->idle += 63; /* the polls skipped count towards the nudge (ring_acks) */
		/* records left beyond the budget: the next poll finds them (ring_changed), ep_arm too */
		(void)ring_take(qp);
		r->poll_rx_next = r->ch.rx.pos; /* (qp lock held: consumed up to here) */
		if (!r->quiet && r->polls - r->polls_armed >= QUIET_POLLS && !r->halt &&
		    !__atomic_load_n(&ep->armed, __ATOMIC_ACQUIRE) && !__atomic_load_n(&ep->owner_waits, __ATOMIC_ACQUIRE))
			ring_go_quiet(qp, r);
		softhw_bias_unlock(&qp->lock);
	}
}

static bool ring_arm(struct rnic_ep *ep)
{
	bool waiting = false;

	softhw_lock(&ep->qps_lock);
	for (struct rnic_qp *qp = ep->qps; qp != NULL; qp = qp->next_ep) {
		struct ring *r = ring_of(qp);

		if (r == NULL || !__atomic_load_n(&r->on, __ATOMIC_SEQ_CST))
			continue;
		softhw_bias_lock(&qp->lock);
		r->polls_armed = r->polls;
		ring_unquiet(qp, r); /* the owner goes to sleep: the service thread takes the doorbell */
		if (r->on && qp->state == QP_RTS && !qp->broken) {
			/*
			 * a message the owner cannot take yet (no receive) is the service thread's; the
			 * ring takes no control hints: a peer's would keep the owner awake for ever
			 */
			if (!r->halt && softhw_chan_arm_rx_records(&r->ch) && !r->stalled)
				waiting = true;
			/* (halted by our NAK: what we sent may still be taken, ring_pump) */
			if (qp->inflight[RNIC_PATH_RING] > 0) {
				__atomic_store_n(&r->ch.tx.ctl->tx_armed, 1, __ATOMIC_SEQ_CST);
				if (__atomic_load_n(&r->ch.tx.ctl->head, __ATOMIC_SEQ_CST) != r->acked) {
					waiting = true;
				} else {
					/* the receiver may not progress: its service thread takes the message */
					r->nudged = rnic_now_ms();
					ring_nudge(r);
				}
			}
		}
		softhw_bias_unlock(&qp->lock);
	}
	softhw_unlock(&ep->qps_lock);
	return waiting;
}

static void ring_recv_posted(struct rnic_ep *ep)
{
	for (struct rnic_qp *qp = ep->own_qps; qp != NULL; qp = qp->next_own) {
		struct ring *r = ring_of(qp);

		if (r != NULL)
			r->poll_skipped = 63; /* a record waiting for it: the next ep_poll looks */
	}
}

/* After the doorbell was read (qp lock held): what it announced, taken. */
static void ring_rang(struct rnic_qp *qp, struct ring *r)
{
	ring_pump(qp);
	if (r->stalled)
		rnic_nic_timed_add(qp);
	rnic_qp_hangup_broken(qp);
}

/*
 * qp lock held: our doorbell was shut down (the peer made it: on the dialer's side it holds the
 * receiving end too), so it is readable for ever and never rung. Out of every wait, or the
 * service thread or the owner would spin on it until the qp is freed; the qp hangs up.
 */
static void ring_bell_gone(struct rnic_qp *qp, struct ring *r)
{
	rnic_nic_del_fd(r->bell_fd);
	if (qp->ep->wait_fd >= 0)
		(void)softhw_waitset_del(qp->ep->wait_fd, r->bell_fd);
	if (!qp->dead)
		ring_corrupt(qp, r);
}

/* The peer rang our doorbell: it published (we were armed), consumed (we wait), or nudges. */
static void ring_event(struct rnic_qp *qp, uint32_t events)
{
	struct ring *r = ring_of(qp);

	softhw_bias_lock(&qp->lock);
	if (events & (EPOLLHUP | EPOLLERR)) {
		ring_bell_gone(qp, r);
		softhw_bias_unlock(&qp->lock);
		return;
	}
	if (qp->dead) {
		softhw_bias_unlock(&qp->lock);
		return;
	}
	if (owner_sleeps(qp, r)) {
		/*
		 * The owner sleeping on ep->wait_fd takes it: reading the doorbell here could leave
		 * its poll woken with nothing to find. Unless it does not come (ring_timer).
		 */
		if (r->owner_check == 0) {
			r->owner_seen = owner_presence(qp, r);
			r->owner_check = rnic_now_ms() + OWNER_MS;
			rnic_nic_timed_add(qp);
		}
		ring_watch(qp, r); /* off until then */
	} else if (softhw_bell_drain(r->bell_fd, 64) < 0) {
		ring_bell_gone(qp, r); /* (shut down: as above) */
	} else {
		ring_rang(qp, r);
		if (r->watch_events != EPOLLIN && !qp->dead)
			ring_watch(qp, r); /* (a one-time watch from a sleep that ended meanwhile) */
	}
	softhw_bias_unlock(&qp->lock);
}

/* qps_lock held: the owner sleeps on ep->wait_fd (the service thread leaves the doorbells to it), or woke. */
static void ring_owner_wait(struct rnic_ep *ep, bool sleeping)
{
	(void)sleeping; /* ep->owner_waits says it already (ring_watch) */
	for (struct rnic_qp *qp = ep->own_qps; qp != NULL; qp = qp->next_own) {
		struct ring *r = ring_of(qp);

		if (r == NULL || !__atomic_load_n(&r->on, __ATOMIC_ACQUIRE))
			continue;
		softhw_bias_lock(&qp->lock); /* ring_event reads owner_waits under it */
		r->away = false; /* (asleep now, or awake) */
		ring_watch(qp, r);
		softhw_bias_unlock(&qp->lock);
	}
}

/* The owner woke on ep->wait_fd: what the service thread does on a doorbell (ring_event), here. */
static void ring_serve(struct rnic_ep *ep)
{
	for (struct rnic_qp *qp = ep->own_qps; qp != NULL; qp = qp->next_own) {
		struct ring *r = ring_of(qp);

		int got;

		/* read even when the ring is off: a doorbell left readable would wake the owner for ever */
		if (r == NULL || (got = softhw_bell_drain(r->bell_fd, 64)) == 0)
			continue; /* EAGAIN: not this one's doorbell (or taken already) */
		if (got < 0) { /* shut down by the peer (the ring off or not): out of every wait, hang up */
			softhw_bias_lock(&qp->lock);
			ring_bell_gone(qp, r);
			softhw_bias_unlock(&qp->lock);
			continue;
		}
		if (!__atomic_load_n(&r->on, __ATOMIC_ACQUIRE))
			continue;
		softhw_bias_lock(&qp->lock);
		if (!qp->dead)
			ring_rang(qp, r);
		softhw_bias_unlock(&qp->lock);
	}
}

/*
 * Work waits behind our messages (RC order: another path takes it once they are ACKed), and our
 * owner may never poll: the service thread takes the ACKs (qp lock held).
 */
static bool ring_behind(const struct rnic_qp *qp, const struct ring *r)
{
	return r->on && qp->state == QP_RTS && qp->inflight[RNIC_PATH_RING] > 0 && qp->wq_next != NULL;
}

static bool ring_timed(const struct rnic_qp *qp)
{
	const struct ring *r = qp->path[RNIC_PATH_RING];

	return r != NULL &&
	       (r->stalled || __atomic_load_n(&r->quiet, __ATOMIC_RELAXED) || ring_behind(qp, r) || r->owner_check != 0);
}

static uint64_t ring_next_time(const struct rnic_qp *qp)
{
	const struct ring *r = qp->path[RNIC_PATH_RING];
	uint64_t t = UINT64_MAX;

	if (r == NULL)
		return t;
	if (r->stalled && r->deadline != 0)
		t = r->deadline;
	if (__atomic_load_n(&r->quiet, __ATOMIC_RELAXED) && __atomic_load_n(&r->quiet_check, __ATOMIC_RELAXED) < t)
		t = __atomic_load_n(&r->quiet_check, __ATOMIC_RELAXED);
	if (ring_behind(qp, r) && r->behind_check < t)
		t = r->behind_check; /* 0 at first: at once */
	if (r->owner_check != 0 && r->owner_check < t)
		t = r->owner_check;
	return t;
}

static void ring_timer(struct rnic_qp *qp, uint64_t now, bool woken)
{
	struct ring *r = qp->path[RNIC_PATH_RING];

	if (r == NULL)
		return;
	if (r->stalled && (woken || (r->deadline != 0 && r->deadline <= now)) && ring_rx(qp, r))
		ring_again(r);
	if (!ring_behind(qp, r)) {
		r->behind_check = 0;
		r->behind_gap = 0;
	} else if (r->behind_check <= now) {
		uint64_t acked = r->acked;

		/* take what was consumed, and have the receiver ring us when it consumes more */
		__atomic_store_n(&r->ch.tx.ctl->tx_armed, 1, __ATOMIC_SEQ_CST);
		ring_pump(qp);
		/* a receiver that takes nothing (no receive posted) is looked at less and less often */
		r->behind_gap = r->acked != acked || r->behind_gap == 0 ? NUDGE_MS
				: r->behind_gap * 2 < NUDGE_MAX_MS ? r->behind_gap * 2 : NUDGE_MAX_MS;
		r->behind_check = now + r->behind_gap;
	}
	if (r->quiet && __atomic_load_n(&r->quiet_check, __ATOMIC_RELAXED) <= now) {
		uint64_t polls = __atomic_load_n(&r->polls, __ATOMIC_RELAXED);

		if (polls == r->quiet_seen) {
			ring_unquiet(qp, r); /* the owner stopped polling: its doorbell is ours again */
			/* what senders published or left unconsumed while they did not ring (ring_nudge) */
			ring_pump(qp);
		} else {
			r->quiet_seen = polls;
			__atomic_store_n(&r->quiet_check, now + QUIET_MS, __ATOMIC_RELAXED);
		}
	}
	if (r->owner_check != 0 && r->owner_check <= now) {
		r->owner_check = 0;
		if (owner_sleeps(qp, r)) {
			/*
			 * Still armed. Gone elsewhere (no wake-up or poll since the ring): the doorbell is
			 * ours until it sleeps or wakes again. There, but polling while armed: its polls
			 * never read the doorbell, which would fire again at once; we take it this time.
			 */
			if (owner_presence(qp, r) == r->owner_seen)
				r->away = true;
			if (softhw_bell_drain(r->bell_fd, 64) < 0) {
				ring_bell_gone(qp, r);
				return;
			}
			ring_rang(qp, r);
		}
		if (!qp->dead)
			ring_watch(qp, r);
	}
}

const struct rnic_path_ops rnic_ring_path = {
	.name = "ring",
	.accept = ring_accept,
	.join = ring_join,
	.wants = ring_wants,
	.can_post = ring_can_post,
	.post = ring_post,
	.pump = ring_pump,
	.event = ring_event,
	.poll = ring_poll,
	.arm = ring_arm,
	.owner_wait = ring_owner_wait,
	.serve = ring_serve,
	.recv_posted = ring_recv_posted,
	.timed = ring_timed,
	.next_time = ring_next_time,
	.timer = ring_timer,
	.off = ring_off,
	.free = ring_free,
	.atfork = ring_atfork,
};
