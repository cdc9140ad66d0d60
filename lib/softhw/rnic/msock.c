/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP fast path for two-sided messages (SEND, SEND_IMM, WRITE_IMM up to RNIC_MSOCK_DATA bytes).
 *
 * Over TCP every frame on a qp's socket crosses both processes' service threads (two thread
 * wake-ups per message). A TCP qp therefore gets a second connection, the message socket: the
 * dialer opens it to the acceptor's listener right after the handshake, with a hello that has
 * RNIC_HF_MSOCK and names the qp (id + token). It carries only messages (F_REQ) and their
 * answers (F_RESP: the ACK, or the NAK with the error; they ride on the receiver's next frame,
 * see answer()), framed as on the main socket. The
 * owner's ep_poll reads it with a non-blocking recv into a reassembly buffer (frames may come
 * in pieces) whenever the qp has messages in flight, the ep has receives posted, or a message
 * waits for a receive; one system call per such qp per poll, none while idle.
 *
 * The service thread reads it (EPOLLONESHOT, re-armed after each event) only while the ep is
 * armed (the owner sleeps: the CQE it queues notifies it) or after the peer's F_NUDGE on the
 * main socket: a sender that waited NUDGE_MS for its ACK (or sent while its own owner slept)
 * sends one, so messages reach receives posted by a process that never progresses, as with a
 * hardware NIC. The owner's next ep_poll (not armed) takes the socket back. The m_reading flag
 * says who reads it (see m_grab): never both at once.
 *
 * RC order and faults as on the ring (ring.c): a qp has work outstanding on one path at a
 * time; the main socket stays the liveness and control channel: its EOF, reset or F_BYE ends
 * the qp, after what already arrived on the message socket counts (ACKs complete, messages are
 * delivered). The message socket's own EOF only stops its use. SOFTDOCA_RDMA_TCP_FAST=0 turns
 * the path off (the dialer decides).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "doca_types.h"
#include "softhw/base/sdk_log.h"
#include "softhw/fabric/mem.h"
#include "softhw/fabric/peer.h"
#include "softhw/rnic/stream.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_MSOCK);

#define NUDGE_MS 2
#define NUDGE_MAX_MS 100
#define CONNECT_MS 2000
#define HDR sizeof(struct rnic_hdr)
#define MSOCK_BUF (64 * 1024)  /* reassembly buffer */

/*
 * A qp's message socket (qp->path[RNIC_PATH_MSOCK]): from its attach until the qp is freed.
 * It is read by the owner's ep_poll; the service thread reads it (EPOLLONESHOT) only while
 * the ep is armed or after the peer's F_NUDGE. `reading` says who reads it (m_grab).
 */
struct msock {
	struct rnic_path_link link; /* first: the socket's epoll tag points here */
	int fd;
	bool on;                   /* atomic for ep_poll's look: the message socket is usable */
	bool thread;               /* the service thread reads it (armed owner or nudged) */
	bool halt;                 /* rx: a message was refused (NAK): nothing more is read */
	bool stalled;              /* rx: the oldest message waits for a receive */
	bool eof;                  /* the peer closed it: the main socket tells how the qp ends */
	bool full;                 /* tx: the socket took less than offered: EPOLLOUT drains */
	bool shut;                 /* hung up (shutdown): closed with the qp */
	bool connecting;           /* dialer: the connect is under way (EPOLLOUT says when), not `on` yet */
	uint64_t connect_by;       /* ... given up then (ms) */
	int reading;               /* atomic flag: its holder reads the socket and owns buf / got */
	uint32_t events;           /* registered epoll events (0: disabled) */
	uint32_t idle;             /* tx: polls without an ACK */
	uint64_t deadline;         /* rx: NAK with AGAIN then (ms); 0: retry for ever */
	uint64_t since;            /* tx: ms of the last ACK or first send */
	uint64_t nudged;           /* tx: ms of the last nudge */
	uint64_t gap;              /* tx: ms between nudges (doubles up to 100) */
	uint64_t delivered;        /* rx: seq + 1 of the last message ACKed (our BYE says it) */
	uint8_t *buf;              /* rx: reassembly buffer (MSOCK_BUF) */
	size_t got;
	uint8_t *obuf;             /* tx: bytes the socket did not take yet */
	size_t olen, ocap;
};

/* The qp's message socket, or NULL (lock-free readers: set once, before `on`, freed with the qp). */
static inline struct msock *ms_of(const struct rnic_qp *qp)
{
	return __atomic_load_n((struct msock *const *)&qp->path[RNIC_PATH_MSOCK], __ATOMIC_ACQUIRE);
}

static bool msock_enabled(void)
{
	static int enabled = -1;
	int e = __atomic_load_n(&enabled, __ATOMIC_RELAXED);

	if (e < 0) {
		const char *v = getenv("SOFTDOCA_RDMA_TCP_FAST");

		e = !(v != NULL && v[0] == '0');
		__atomic_store_n(&enabled, e, __ATOMIC_RELAXED);
	}
	return e != 0;
}

/* epoll interest: EPOLLIN while the service thread reads it, EPOLLOUT while output waits. */
static void m_events(struct rnic_qp *qp, bool fired)
{
	struct msock *m = ms_of(qp);
	uint32_t want = 0;
	struct epoll_event ev;

	if (fired)
		m->events = 0; /* EPOLLONESHOT: disabled by the event */
	if (m->shut || m->connecting)
		return; /* (connecting: EPOLLOUT only, armed by msock_dialed) */
	if (m->thread && !m->eof)
		want |= EPOLLIN | EPOLLRDHUP;
	if (m->olen > 0 && m->full)
		want |= EPOLLOUT;
	if (want == m->events)
		return;
	ev.events = want | EPOLLONESHOT;
	ev.data.u64 = (uint64_t)(uintptr_t)&m->link | RNIC_TAG_PATH;
	(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_MOD, m->fd, &ev);
	m->events = want;
}

/* The qp's message socket on fd (connecting: not usable until its connect completes); false: no memory. */
static bool m_new(struct rnic_qp *qp, int fd, bool connecting)
{
	struct msock *m = calloc(1, sizeof(*m));

	if (m == NULL || (m->buf = malloc(MSOCK_BUF)) == NULL) {
		free(m);
		close(fd);
		return false;
	}
	m->link = (struct rnic_path_link){.qp = qp, .id = RNIC_PATH_MSOCK};
	m->fd = fd;
	m->gap = NUDGE_MS;
	m->connecting = connecting;
	/* nothing until asked; a connect under way: EPOLLOUT once, when it completes */
	rnic_nic_add_fd(fd, &m->link, RNIC_TAG_PATH, EPOLLONESHOT | (connecting ? EPOLLOUT : 0));
	__atomic_store_n((struct msock **)&qp->path[RNIC_PATH_MSOCK], m, __ATOMIC_RELEASE);
	return true;
}

/* The message socket is connected: it carries messages from now on. */
static void m_on(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);

	m->connecting = false;
	m->events = 0;
	m->thread = __atomic_load_n(&qp->ep->armed, __ATOMIC_ACQUIRE);
	m_events(qp, false);
	__atomic_store_n(&m->on, true, __ATOMIC_RELEASE);
	rnic_path_up(qp, RNIC_PATH_MSOCK, true);
}

static void m_attach(struct rnic_qp *qp, int fd)
{
	if (m_new(qp, fd, false))
		m_on(qp);
}

/* Dialer: the hello that names the qp (false: the socket did not take it; the peer drops a cut one). */
static bool m_hello(struct rnic_qp *qp, int fd)
{
	struct rnic_hdr h = {.type = F_HELLO, .flags = RNIC_HF_MSOCK, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION};
	struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
	struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};
	ssize_t n;

	hello.want_id = qp->peer.qp_id;
	hello.want_token = qp->peer.qp_token;
	rnic_self_peer(qp->ep, qp, &hello.self);
	do {
		n = sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	return n == (ssize_t)(sizeof(h) + sizeof(hello)); /* an empty socket takes 240 bytes */
}

/* Dialer: the connect failed or took too long: the qp goes on without a message socket (no harm). */
static void m_give_up(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);

	m->connecting = false;
	rnic_nic_del_fd(m->fd);
	(void)shutdown(m->fd, SHUT_RDWR);
	m->shut = true; /* closed and freed with the qp */
}

/*
 * Dialer, once established over TCP: opens the message socket (failure: none, no harm). It
 * goes where the main socket is connected, not where the peer's hello says (which could name
 * any host); the connect completes on EPOLLOUT (msock_event), or is given up after
 * CONNECT_MS: a peer that never answers it must not hold the service thread, which serves every
 * qp of the process.
 */
static void msock_dialed(struct rnic_qp *qp)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd;

	if (!msock_enabled() || ms_of(qp) != NULL || qp->cm || qp->ep->attr.dc || qp->peer.dc ||
	    rnic_stream_of(qp) == NULL || rnic_stream_of(qp)->fd < 0) /* it rides on a stream connection */
		return;
	/* TCP only (on a unix stream the ring, if any, carries messages) */
	memset(&ss, 0, sizeof(ss));
	if (getpeername(rnic_stream_of(qp)->fd, (struct sockaddr *)&ss, &len) != 0 ||
	    (ss.ss_family != AF_INET && ss.ss_family != AF_INET6))
		return;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	rnic_tcp_tune(fd, &ss);
	if (connect(fd, (const struct sockaddr *)&ss, len) == 0) {
		rnic_tcp_connected(fd);
		if (m_hello(qp, fd))
			m_attach(qp, fd);
		else
			close(fd);
		return;
	}
	if (errno != EINPROGRESS) {
		close(fd);
		return;
	}
	if (!m_new(qp, fd, true))
		return; /* (it closed fd) */
	ms_of(qp)->connect_by = rnic_now_ms() + CONNECT_MS;
	rnic_nic_timed_add(qp);
}

/* Service thread: an accepted connection says it is a qp's message socket (no lock held). */
static void msock_attach(int fd, const struct rnic_hello *h, const struct sockaddr_storage *from)
{
	static struct softhw_ratelimit rl;
	struct rnic_qp *qp;

	pthread_mutex_lock(&rnic_nic.lock);
	qp = rnic_qp_find(h->want_id);
	if (qp == NULL) {
		pthread_mutex_unlock(&rnic_nic.lock);
		close(fd);
		return;
	}
	softhw_bias_lock(&qp->lock);
	pthread_mutex_unlock(&rnic_nic.lock);
	if (qp->token != h->want_token) {
		char who[80];

		softhw_bias_unlock(&qp->lock);
		rnic_peer_name(from, h, who, sizeof(who));
		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_ERR,
				   "RDMA: %s tried to attach a message socket to queue pair %llu with a wrong token; dropped",
				   who, (unsigned long long)h->want_id);
		close(fd);
		return;
	}
	if (!qp->dead && qp->state == QP_RTS && !qp->cm && !qp->dialer &&
	    ms_of(qp) == NULL && rnic_stream_of(qp) != NULL && rnic_stream_of(qp)->fd >= 0 &&
	    rnic_same_peer(&qp->peer, &h->self))
		m_attach(qp, fd);
	else
		close(fd); /* the dialer's messages never leave; its main socket ends the qp */
	softhw_bias_unlock(&qp->lock);
}

/* ---- writing ---- */

/* Sends what a full socket did not take. */
static void m_flush(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);
	size_t off = 0;

	while (off < m->olen) {
		ssize_t n = send(m->fd, m->obuf + off, m->olen - off, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			m->full = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK); /* EPOLLOUT drains */
			break; /* or gone: the main socket tells */
		}
		off += (size_t)n;
	}
	if (off > 0) {
		memmove(m->obuf, m->obuf + off, m->olen - off);
		m->olen -= off;
	}
	if (m->olen == 0)
		m->full = false;
	m_events(qp, false);
}

/* Keeps a frame's bytes past `sent` after what waits (out of memory: the qp hangs up). */
static void m_keep(struct rnic_qp *qp, const struct iovec *iov, int cnt, size_t sent)
{
	struct msock *m = ms_of(qp);
	size_t total = 0;

	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	if (m->olen + total - sent > m->ocap) {
		size_t cap = m->ocap ? m->ocap : 16384;
		uint8_t *b;

		while (cap < m->olen + total - sent)
			cap *= 2;
		b = realloc(m->obuf, cap);
		if (b == NULL) {
			qp->broken = true; /* a cut frame would corrupt the stream: hang up */
			rnic_nic_kick();
			return;
		}
		m->obuf = b;
		m->ocap = cap;
	}
	for (int i = 0; i < cnt; i++) {
		size_t skip = sent < iov[i].iov_len ? sent : iov[i].iov_len;

		sent -= skip;
		memcpy(m->obuf + m->olen, (char *)iov[i].iov_base + skip, iov[i].iov_len - skip);
		m->olen += iov[i].iov_len - skip;
	}
	m_events(qp, false); /* full: EPOLLOUT, the service thread drains it if the owner does not */
}

/* Writes a frame after what waits (one system call), or keeps what the socket did not take. */
static void m_write(struct rnic_qp *qp, struct iovec *iov, int cnt)
{
	struct msock *m = ms_of(qp);
	size_t total = 0, sent = 0;

	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	if (!m->full) {
		struct iovec all[2 + RNIC_INLINE_SGE];
		struct iovec *v = iov;
		int vc = cnt;
		size_t pend = m->olen;
		struct msghdr msg;
		ssize_t n;

		if (pend > 0 && cnt < (int)(sizeof(all) / sizeof(all[0]))) {
			all[0] = (struct iovec){m->obuf, pend};
			memcpy(all + 1, iov, (size_t)cnt * sizeof(*iov));
			v = all;
			vc = cnt + 1;
		} else if (pend > 0) {
			m_flush(qp);
			pend = m->olen;
			if (pend > 0) {
				m_keep(qp, iov, cnt, 0);
				return;
			}
		}
		msg = (struct msghdr){.msg_iov = v, .msg_iovlen = (size_t)vc};
		do {
			n = sendmsg(m->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
		} while (n < 0 && errno == EINTR);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			m->full = true;
		if (n > 0 && pend > 0) {
			size_t done = (size_t)n < pend ? (size_t)n : pend;

			memmove(m->obuf, m->obuf + done, pend - done);
			m->olen -= done;
			n -= (ssize_t)done;
		}
		if (m->olen == 0 && n == (ssize_t)total) {
			m_events(qp, false);
			return;
		}
		if (n > 0 && (size_t)n < total)
			m->full = true;
		sent = n > 0 ? (size_t)n : 0;
	}
	m_keep(qp, iov, cnt, sent);
}

static bool msock_wants(const struct rnic_qp *qp, const struct rnic_wr *wr)
{
	const struct msock *m = qp->path[RNIC_PATH_MSOCK]; /* qp lock held */

	return m != NULL && m->on && wr->bytes <= RNIC_MSOCK_DATA &&
	       (wr->op == SOFTHW_RNIC_OP_SEND || wr->op == SOFTHW_RNIC_OP_SEND_IMM || wr->op == SOFTHW_RNIC_OP_WRITE_IMM ||
		wr->op == SOFTHW_RNIC_OP_WRITE || wr->op == SOFTHW_RNIC_OP_SEND_INV);
}

static void nudge(struct rnic_qp *qp, uint64_t now)
{
	struct msock *m = ms_of(qp);
	struct rnic_hdr h = {.type = F_NUDGE};

	m->nudged = now;
	rnic_send_ctl(qp, &h, NULL, 0);
}

static void msock_post(struct rnic_qp *qp, struct rnic_wr *wr)
{
	struct msock *m = ms_of(qp);
	struct rnic_hdr h = {.type = F_REQ, .op = (uint8_t)wr->op, .seq = wr->seq, .len = wr->bytes,
			     .imm = wr->imm, .plen = wr->bytes};
	struct iovec iov[1 + RNIC_INLINE_SGE];
	struct iovec *v = iov;
	int cnt = 0;

	if (wr->op == SOFTHW_RNIC_OP_WRITE_IMM || wr->op == SOFTHW_RNIC_OP_WRITE) {
		h.id = wr->rkey.id;
		h.token = wr->rkey.token;
		h.addr = wr->rkey.addr;
	}
	if (wr->num_sge + 1 > 1 + RNIC_INLINE_SGE) {
		v = wr->out.iov; /* room for num_sge + 1 (wr_get) */
	}
	v[cnt++] = (struct iovec){&h, sizeof(h)};
	for (uint32_t i = 0; i < wr->num_sge; i++)
		if (wr->sgl[i].len > 0)
			v[cnt++] = (struct iovec){wr->sgl[i].addr, wr->sgl[i].len};
	if (qp->inflight[RNIC_PATH_MSOCK] == 1) { /* (counted by the core) */
		m->since = rnic_now_ms();
		m->gap = NUDGE_MS;
	}
	m_write(qp, v, cnt);
	/* sent while our owner sleeps: nobody would nudge a receiver that does not progress */
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_ACQUIRE))
		nudge(qp, rnic_now_ms());
}

/* ---- reading ---- */

static void m_corrupt(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);

	if (!m->halt)
		rnic_qp_log_broken_peer(qp, "message socket");
	m->halt = true;
	qp->broken = true;
	rnic_nic_kick();
}

static void consume(struct rnic_qp *qp, size_t n)
{
	struct msock *m = ms_of(qp);

	memmove(m->buf, m->buf + n, m->got - n);
	m->got -= n;
}

/*
 * The ACK (or NAK) of a message waits to ride on our next frame: a reply sent from the
 * receive's callback then costs one system call for both (a separate one costs as much as
 * the message). Whoever read the message sends it at the latest when done: the service thread
 * at the end of its pass, the owner at its next poll or arm (the flush op before a BYE).
 */
static void answer(struct rnic_qp *qp, uint64_t seq, uint8_t op, doca_error_t status)
{
	struct msock *m = ms_of(qp);
	struct rnic_hdr resp = {.type = F_RESP, .op = op, .seq = seq, .status = status};
	struct iovec iov = {&resp, sizeof(resp)};

	m_keep(qp, &iov, 1, 0);
	if (status == DOCA_SUCCESS)
		m->delivered = seq + 1;
	else {
		rnic_rnr_unstall(qp, &m->stalled);
		m->halt = true; /* the sender's qp fails on it: read no more */
	}
}

/* A message frame is whole at the buffer's start: false if it waits for a receive. */
static bool m_request(struct rnic_qp *qp, const struct rnic_hdr *h)
{
	struct msock *m = ms_of(qp);
	const uint8_t *data = m->buf + HDR;
	uint64_t len = h->plen;
	doca_error_t err = DOCA_SUCCESS;
	struct rnic_recv *r;

	/* A small write: placed at once, as the service thread would (checked the same way). */
	if (h->op == SOFTHW_RNIC_OP_WRITE) {
		if (!(qp->ep->attr.access & DOCA_ACCESS_FLAG_RDMA_WRITE))
			err = DOCA_ERROR_NOT_PERMITTED;
		else
			err = rnic_write_place(h->id, h->token, h->addr, data, len);
		consume(qp, HDR + len);
		answer(qp, h->seq, h->op, err);
		return true;
	}
	if (h->op == SOFTHW_RNIC_OP_WRITE_IMM) {
		err = rnic_write_check(qp, h->id, h->token, h->addr, len);
		if (err != DOCA_SUCCESS) {
			consume(qp, HDR + len);
			answer(qp, h->seq, h->op, err);
			return true;
		}
	}
	r = rnic_ep_take_recv(qp->ep);
	if (r == NULL) {
		if (rnic_rnr_exhausted(qp, &m->stalled, &m->deadline)) {
			consume(qp, HDR + len);
			answer(qp, h->seq, h->op, DOCA_ERROR_AGAIN);
			return true;
		}
		return false; /* the frame waits: a later poll, a posted receive or the timer retries */
	}
	rnic_rnr_unstall(qp, &m->stalled);
	if (h->op == SOFTHW_RNIC_OP_WRITE_IMM)
		err = rnic_write_place(h->id, h->token, h->addr, data, len);
	else
		err = rnic_recv_fill(r, data, len);
	consume(qp, HDR + len);
	answer(qp, h->seq, h->op, err); /* the ACK (or NAK) first: the sender may be waiting */
	/* a refused message fails the receive too, as on the socket path */
	rnic_ep_recv_done(qp->ep, qp, r, err, (enum softhw_rnic_opcode)h->op, err == DOCA_SUCCESS ? len : 0,
			  err == DOCA_SUCCESS ? h->imm : 0);
	return true;
}

/*
 * Our buffer holds more than our own messages in flight and RNIC_ANSWERS_MAX ACKs: the peer
 * sends and does not read its ACKs (it would grow without bound).
 */
static bool m_unread(const struct rnic_qp *qp, const struct msock *m)
{
	uint64_t own = (uint64_t)qp->inflight[RNIC_PATH_MSOCK] * (HDR + RNIC_MSOCK_DATA);

	return m->olen > own + (uint64_t)RNIC_ANSWERS_MAX * HDR;
}

/* Works through the whole frames in the buffer. */
static void m_frames(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);

	while (m->on && qp->state == QP_RTS && !m->halt && m->got >= HDR) {
		struct rnic_hdr h;

		memcpy(&h, m->buf, HDR);
		if (h.plen > RNIC_MSOCK_DATA || (h.type == F_RESP && h.plen != 0)) {
			m_corrupt(qp);
			return;
		}
		if (m->got < HDR + h.plen)
			return;
		if (h.type == F_RESP) {
			struct rnic_wr *wr = qp->wq_head;

			if (wr == NULL || !wr->sent || wr->path != RNIC_PATH_MSOCK || wr->seq != h.seq) {
				m_corrupt(qp);
				return;
			}
			consume(qp, HDR);
			m->since = rnic_now_ms();
			m->idle = 0;
			m->gap = NUDGE_MS;
			rnic_qp_complete_head(qp, (doca_error_t)h.status, h.status == DOCA_SUCCESS ? wr->bytes : 0);
		} else if (h.type == F_REQ &&
			   (h.op == SOFTHW_RNIC_OP_SEND || h.op == SOFTHW_RNIC_OP_SEND_IMM || h.op == SOFTHW_RNIC_OP_SEND_INV ||
			    h.op == SOFTHW_RNIC_OP_WRITE_IMM || h.op == SOFTHW_RNIC_OP_WRITE)) {
			if (m_unread(qp, m)) {
				rnic_qp_log_unread(qp, "message socket");
				m->halt = true; /* read no more: the qp hangs up */
				qp->broken = true;
				rnic_nic_kick();
				return;
			}
			if (!m_request(qp, &h))
				return;
		} else {
			m_corrupt(qp);
			return;
		}
	}
}

/*
 * Reading the socket and the reassembly buffer (m_buf, m_got) belong to whoever holds
 * m_reading; frames are worked through with the qp lock held too. The owner takes m_reading
 * first and the qp lock only when bytes came (an idle poll's recv holds no lock the service
 * thread could wait for); the service thread holds the qp lock and only tries m_reading (the
 * owner is reading then, and works through what it gets).
 */
static bool m_grab(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);

	return __atomic_exchange_n(&m->reading, 1, __ATOMIC_ACQUIRE) == 0;
}

static void m_release(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);

	__atomic_store_n(&m->reading, 0, __ATOMIC_RELEASE);
}

/* One recv into the buffer (m_reading held): bytes read, 0 none, -1 closed or reset. */
static ssize_t m_recv(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);
	size_t ask = MSOCK_BUF - m->got;
	ssize_t n;

	if (ask == 0)
		return 0;
	do {
		n = recv(m->fd, m->buf + m->got, ask, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n <= 0)
		return -1;
	m->got += (size_t)n;
	return n;
}

/* The peer closed it: the main socket says how the qp ends (F_BYE or EOF). qp lock held. */
static void m_closed(struct rnic_qp *qp)
{
	struct msock *m = ms_of(qp);

	if (m->eof)
		return;
	m->eof = true;
	m_events(qp, false);
	rnic_nic_kick();
}

/*
 * A sender whose receiver does not progress: its service thread takes the message. qp lock
 * held; from the owner's polls, and from the service thread's timers while the owner sleeps
 * (one nudge can be lost: the receiver's owner may take its socket back just after it).
 */
static uint64_t next_nudge(const struct msock *m)
{
	uint64_t a = m->since + NUDGE_MS, b = m->nudged + m->gap;

	return a > b ? a : b;
}

static void nudge_check(struct rnic_qp *qp, struct msock *m)
{
	uint64_t now;

	if (qp->inflight[RNIC_PATH_MSOCK] == 0 || !m->on || qp->state != QP_RTS)
		return;
	now = rnic_now_ms();
	if (now >= m->since + NUDGE_MS && now >= m->nudged + m->gap) {
		nudge(qp, now);
		m->gap = m->gap * 2 < NUDGE_MAX_MS ? m->gap * 2 : NUDGE_MAX_MS;
	}
}

static bool m_readable(const struct rnic_qp *qp, const struct msock *m)
{
	return !m->shut && m->on && qp->state == QP_RTS && !m->halt && !m->eof;
}

/* Writes what waits, takes ACKs and messages (service thread, or before the qp ends). */
static void msock_pump(struct rnic_qp *qp)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m == NULL)
		return;
	if (m->olen > 0)
		m_flush(qp);
	if (!m_readable(qp, m) || !m_grab(qp))
		return;
	m_frames(qp);
	while (m_readable(qp, m) && !m->stalled) {
		ssize_t n = m_recv(qp);

		if (n < 0)
			m_closed(qp);
		if (n <= 0)
			break;
		m_frames(qp);
	}
	m_release(qp);
	if (m->olen > 0)
		m_flush(qp);
	nudge_check(qp, m);
}

/* The peer's F_NUDGE: the service thread reads the message socket until the owner polls. */
static void msock_nudged(struct rnic_qp *qp)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m == NULL || m->shut)
		return;
	m->thread = true;
	msock_pump(qp);
	m_events(qp, false);
}

/* Sends the ACKs that wait for our next frame (before anything that ends the qp). */
static void msock_flush(struct rnic_qp *qp)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m != NULL && m->olen > 0 && !m->full && !qp->broken)
		m_flush(qp);
}

/*
 * Our BYE goes on the main socket, our last ACKs on this one: two TCP connections, so the peer
 * may read the BYE first (seen under load). The BYE names the last message we ACKed (arg0 =
 * its seq + 1); the peer completes up to there what the ACKs would have completed.
 */
static void msock_bye_note(const struct rnic_qp *qp, struct rnic_hdr *bye)
{
	const struct msock *m = qp->path[RNIC_PATH_MSOCK];

	bye->arg0 = m != NULL ? m->delivered : 0;
}

static void msock_peer_bye(struct rnic_qp *qp, const struct rnic_hdr *bye)
{
	struct rnic_wr *wr;

	while (qp->state == QP_RTS && (wr = qp->wq_head) != NULL && wr->sent && wr->path == RNIC_PATH_MSOCK &&
	       wr->seq < bye->arg0)
		rnic_qp_complete_head(qp, DOCA_SUCCESS, wr->bytes);
}

static void msock_off(struct rnic_qp *qp)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m == NULL)
		return;
	msock_flush(qp); /* ACKs of what we delivered: it completes on the sender's side */
	rnic_rnr_unstall(qp, &m->stalled);
	if (m->on) {
		__atomic_store_n(&m->on, false, __ATOMIC_RELEASE);
		rnic_path_up(qp, RNIC_PATH_MSOCK, false);
	}
	m->olen = 0; /* (got is reading's: nothing reads it once `on` is off) */
	m->full = false;
}

/* Hangs it up (shutdown: the owner may be reading it); msock_free closes and frees it. */
static void msock_close(struct rnic_qp *qp)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m == NULL)
		return;
	msock_off(qp);
	m->connecting = false;
	if (!m->shut) {
		/* the owner may be in recv on it (reading): the descriptor closes with the qp */
		rnic_nic_del_fd(m->fd);
		(void)shutdown(m->fd, SHUT_RDWR);
		m->shut = true;
		m->events = 0;
	}
}

static void msock_free(struct rnic_qp *qp)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m == NULL)
		return;
	msock_close(qp);
	close(m->fd);
	free(m->buf);
	free(m->obuf);
	qp->path[RNIC_PATH_MSOCK] = NULL;
	free(m);
}

static void msock_atfork(struct rnic_qp *qp)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m != NULL)
		close(m->fd);
}

/* Service thread: the socket's event. */
static void msock_event(struct rnic_qp *qp, uint32_t events)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	(void)events;
	softhw_bias_lock(&qp->lock);
	if (!qp->dead && !m->shut && m->connecting) {
		int err = 0;
		socklen_t elen = sizeof(err);

		/* the connect completed, one way or the other */
		if (qp->state == QP_RTS && getsockopt(m->fd, SOL_SOCKET, SO_ERROR, &err, &elen) == 0 && err == 0 &&
		    m_hello(qp, m->fd)) {
			rnic_tcp_connected(m->fd);
			m_on(qp);
		} else {
			m_give_up(qp);
		}
	} else if (!qp->dead && !m->shut) {
		m_events(qp, true);
		msock_pump(qp);
		if (m->stalled)
			rnic_nic_timed_add(qp);
		m_events(qp, false);
		rnic_qp_hangup_broken(qp);
	}
	softhw_bias_unlock(&qp->lock);
}

/* Owner (no lock): takes ACKs and messages of every message socket of the ep. */
static void msock_poll(struct rnic_ep *ep)
{
	bool armed = __atomic_load_n(&ep->armed, __ATOMIC_ACQUIRE);

	softhw_lock(&ep->qps_lock);
	for (struct rnic_qp *qp = rnic_ep_up_qps(ep, RNIC_PATH_MSOCK, true); qp != NULL;
	     qp = qp->next_up[RNIC_PATH_MSOCK]) {
		struct msock *m = ms_of(qp);
		bool inflight, stalled, out, lock;
		ssize_t n = 0;

		if (m == NULL || !__atomic_load_n(&m->on, __ATOMIC_ACQUIRE))
			continue;
		if (__atomic_load_n(&m->thread, __ATOMIC_RELAXED) && !armed &&
		    softhw_bias_trylock(&qp->lock)) {
			m->thread = false; /* the owner polls again: the socket is ours */
			m_events(qp, false);
			softhw_bias_unlock(&qp->lock);
		}
		inflight = __atomic_load_n(&qp->inflight[RNIC_PATH_MSOCK], __ATOMIC_RELAXED) != 0;
		stalled = __atomic_load_n(&m->stalled, __ATOMIC_RELAXED);
		out = __atomic_load_n(&m->olen, __ATOMIC_RELAXED) != 0;
		/* every connected qp is read: small writes come with no receive posted */
		if (!m_grab(qp))
			continue;
		if (!stalled && !__atomic_load_n(&m->eof, __ATOMIC_RELAXED) &&
		    !__atomic_load_n(&m->halt, __ATOMIC_RELAXED))
			n = m_recv(qp); /* no qp lock: the service thread never waits for an idle poll */
		lock = n != 0 || stalled || out || (inflight && (++m->idle & 63) == 0);
		if (lock) {
			softhw_bias_lock(&qp->lock);
			if (m->olen > 0)
				m_flush(qp);
			if (n < 0)
				m_closed(qp);
			while (m_readable(qp, m)) {
				/* a read that stopped short of the buffer's end took all there was */
				bool more = m->got == MSOCK_BUF;

				m_frames(qp);
				if (m->stalled || n <= 0 || !more || (n = m_recv(qp)) <= 0)
					break;
			}
			if (n < 0)
				m_closed(qp);
			if (armed)
				msock_flush(qp); /* we may sleep next: the ACKs cannot wait for our next poll */
			nudge_check(qp, m);
			softhw_bias_unlock(&qp->lock);
		}
		m_release(qp);
	}
	softhw_unlock(&ep->qps_lock);
}

/* Owner going to sleep: the service thread reads the message sockets meanwhile. */
static bool msock_arm(struct rnic_ep *ep)
{
	uint64_t now = rnic_now_ms();
	bool kick = false;

	softhw_lock(&ep->qps_lock);
	for (struct rnic_qp *qp = ep->qps; qp != NULL; qp = qp->next_ep) {
		struct msock *m = ms_of(qp);

		if (m == NULL || !__atomic_load_n(&m->on, __ATOMIC_ACQUIRE))
			continue;
		softhw_bias_lock(&qp->lock);
		if (m->on && qp->state == QP_RTS) {
			m->thread = true; /* EPOLLIN: what arrives now wakes the service thread */
			if (m->olen > 0)
				m_flush(qp);
			m_events(qp, false);
			/* the receiver may not progress: its service thread takes the messages */
			if (qp->inflight[RNIC_PATH_MSOCK] > 0) {
				nudge(qp, now);
				kick = true; /* and our service thread keeps nudging while we sleep */
			}
		}
		softhw_bias_unlock(&qp->lock);
	}
	softhw_unlock(&ep->qps_lock);
	if (kick)
		rnic_nic_kick();
	return false;
}

/* Work in flight here: the service thread keeps the nudge clock. */
static bool msock_waiting(const struct rnic_qp *qp, const struct msock *m)
{
	return m != NULL && m->on && qp->inflight[RNIC_PATH_MSOCK] > 0 && qp->state == QP_RTS;
}

static bool msock_timed(const struct rnic_qp *qp)
{
	const struct msock *m = qp->path[RNIC_PATH_MSOCK];

	return m != NULL && (m->stalled || m->connecting || msock_waiting(qp, m));
}

static uint64_t msock_next_time(const struct rnic_qp *qp)
{
	const struct msock *m = qp->path[RNIC_PATH_MSOCK];
	uint64_t first = UINT64_MAX;

	if (m == NULL)
		return first;
	if (m->connecting)
		first = m->connect_by;
	if (msock_waiting(qp, m))
		first = next_nudge(m);
	if (m->stalled && m->deadline != 0 && m->deadline < first)
		first = m->deadline;
	return first;
}

static void msock_timer(struct rnic_qp *qp, uint64_t now, bool woken)
{
	struct msock *m = qp->path[RNIC_PATH_MSOCK];

	if (m == NULL)
		return;
	if (m->connecting && (m->connect_by <= now || qp->state != QP_RTS))
		m_give_up(qp);
	if (m->stalled && (woken || (m->deadline != 0 && m->deadline <= now)))
		msock_pump(qp);
	if (!msock_waiting(qp, m))
		return;
	/*
	 * Work waits behind our messages (RC order) and their ACKs are overdue: the owner does not
	 * poll, so the service thread reads the socket until it does, as after the peer's nudge.
	 */
	if (qp->wq_next != NULL && !m->thread && now >= m->since + NUDGE_MS) {
		msock_nudged(qp);
		if (!msock_waiting(qp, m))
			return;
	}
	nudge_check(qp, m);
}

const struct rnic_path_ops rnic_msock_path = {
	.name = "msock",
	.owner_polls_cm = true,
	.hello_flag = RNIC_HF_MSOCK,
	.attach = msock_attach,
	.dialed = msock_dialed,
	.wants = msock_wants,
	.post = msock_post,
	.pump = msock_pump,
	.nudged = msock_nudged,
	.event = msock_event,
	.poll = msock_poll,
	.arm = msock_arm,
	.timed = msock_timed,
	.next_time = msock_next_time,
	.timer = msock_timer,
	.flush = msock_flush,
	.bye_note = msock_bye_note,
	.peer_bye = msock_peer_bye,
	.off = msock_off,
	.close = msock_close,
	.free = msock_free,
	.atfork = msock_atfork,
};
