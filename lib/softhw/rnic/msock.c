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
#include <poll.h>
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
#include "softhw/rnic/rnic_int.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_MSOCK);

#define NUDGE_MS 2
#define NUDGE_MAX_MS 100
#define CONNECT_MS 2000
#define HDR sizeof(struct rnic_hdr)

bool rnic_msock_enabled(void)
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
	uint32_t want = 0;
	struct epoll_event ev;

	if (fired)
		qp->m_events = 0; /* EPOLLONESHOT: disabled by the event */
	if (qp->mfd < 0 || qp->m_shut)
		return;
	if (qp->m_thread && !qp->m_eof)
		want |= EPOLLIN | EPOLLRDHUP;
	if (qp->m_olen > 0 && qp->m_full)
		want |= EPOLLOUT;
	if (want == qp->m_events)
		return;
	ev.events = want | EPOLLONESHOT;
	ev.data.u64 = (uint64_t)(uintptr_t)qp | RNIC_TAG_MSOCK;
	(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_MOD, qp->mfd, &ev);
	qp->m_events = want;
}

static void m_attach(struct rnic_qp *qp, int fd)
{
	qp->mfd = fd;
	qp->m_buf = malloc(RNIC_MSOCK_BUF);
	if (qp->m_buf == NULL) {
		close(fd);
		qp->mfd = -1;
		return;
	}
	qp->m_got = 0;
	qp->m_events = 0;
	qp->m_gap = NUDGE_MS;
	rnic_nic_add_fd(fd, qp, RNIC_TAG_MSOCK, EPOLLONESHOT); /* nothing until asked */
	qp->m_thread = __atomic_load_n(&qp->ep->armed, __ATOMIC_ACQUIRE);
	m_events(qp, false);
	__atomic_store_n(&qp->m_on, true, __ATOMIC_RELEASE);
	__atomic_fetch_add(&qp->ep->m_qps, 1, __ATOMIC_RELEASE);
}

void rnic_msock_dial(struct rnic_qp *qp, const struct sockaddr_storage *ss, socklen_t len)
{
	struct rnic_hdr h = {.type = F_HELLO, .flags = RNIC_HF_MSOCK, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION};
	struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};
	struct pollfd pfd;
	int fd, err = 0;
	socklen_t elen = sizeof(err);
	ssize_t n;

	if (!rnic_msock_enabled() || qp->mfd >= 0 || qp->cm || qp->ep->attr.dc || qp->peer.dc ||
	    (ss->ss_family != AF_INET && ss->ss_family != AF_INET6))
		return;
	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	rnic_tcp_tune(fd);
	/* the peer just answered from this address: the connect is one round trip */
	if (connect(fd, (const struct sockaddr *)ss, len) != 0) {
		if (errno != EINPROGRESS)
			goto fail;
		pfd = (struct pollfd){.fd = fd, .events = POLLOUT};
		if (poll(&pfd, 1, CONNECT_MS) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0 || err != 0)
			goto fail;
	}
	hello.want_id = qp->peer.qp_id;
	hello.want_token = qp->peer.qp_token;
	rnic_self_peer(qp->ep, qp, &hello.self);
	do {
		n = sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof(h) + sizeof(hello)))
		goto fail; /* an empty socket takes 240 bytes: the peer sees a cut hello and drops it */
	m_attach(qp, fd);
	return;
fail:
	close(fd);
}

void rnic_msock_accept(int fd, const struct rnic_hello *h, const struct sockaddr_storage *from)
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
	pthread_mutex_lock(&qp->lock);
	pthread_mutex_unlock(&rnic_nic.lock);
	if (qp->token != h->want_token) {
		char who[80];

		pthread_mutex_unlock(&qp->lock);
		rnic_peer_name(from, h, who, sizeof(who));
		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_ERR,
				   "RDMA: %s tried to attach a message socket to queue pair %llu with a wrong token; dropped",
				   who, (unsigned long long)h->want_id);
		close(fd);
		return;
	}
	if (!qp->dead && qp->state == QP_RTS && !qp->cm && !qp->dialer &&
	    qp->mfd < 0 && qp->fd >= 0 && rnic_same_peer(&qp->peer, &h->self))
		m_attach(qp, fd);
	else
		close(fd); /* the dialer's messages never leave; its main socket ends the qp */
	pthread_mutex_unlock(&qp->lock);
}

/* ---- writing ---- */

/* Sends what a full socket did not take. */
static void m_flush(struct rnic_qp *qp)
{
	size_t off = 0;

	while (off < qp->m_olen) {
		ssize_t n = send(qp->mfd, qp->m_obuf + off, qp->m_olen - off, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			qp->m_full = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK); /* EPOLLOUT drains */
			break; /* or gone: the main socket tells */
		}
		off += (size_t)n;
	}
	if (off > 0) {
		memmove(qp->m_obuf, qp->m_obuf + off, qp->m_olen - off);
		qp->m_olen -= off;
	}
	if (qp->m_olen == 0)
		qp->m_full = false;
	m_events(qp, false);
}

/* Keeps a frame's bytes past `sent` after what waits (out of memory: the qp hangs up). */
static void m_keep(struct rnic_qp *qp, const struct iovec *iov, int cnt, size_t sent)
{
	size_t total = 0;

	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	if (qp->m_olen + total - sent > qp->m_ocap) {
		size_t cap = qp->m_ocap ? qp->m_ocap : 16384;
		uint8_t *b;

		while (cap < qp->m_olen + total - sent)
			cap *= 2;
		b = realloc(qp->m_obuf, cap);
		if (b == NULL) {
			qp->broken = true; /* a cut frame would corrupt the stream: hang up */
			rnic_nic_kick();
			return;
		}
		qp->m_obuf = b;
		qp->m_ocap = cap;
	}
	for (int i = 0; i < cnt; i++) {
		size_t skip = sent < iov[i].iov_len ? sent : iov[i].iov_len;

		sent -= skip;
		memcpy(qp->m_obuf + qp->m_olen, (char *)iov[i].iov_base + skip, iov[i].iov_len - skip);
		qp->m_olen += iov[i].iov_len - skip;
	}
	m_events(qp, false); /* full: EPOLLOUT, the service thread drains it if the owner does not */
}

/* Writes a frame after what waits (one system call), or keeps what the socket did not take. */
static void m_write(struct rnic_qp *qp, struct iovec *iov, int cnt)
{
	size_t total = 0, sent = 0;

	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	if (!qp->m_full) {
		struct iovec all[2 + RNIC_INLINE_SGE];
		struct iovec *v = iov;
		int vc = cnt;
		size_t pend = qp->m_olen;
		struct msghdr m;
		ssize_t n;

		if (pend > 0 && cnt < (int)(sizeof(all) / sizeof(all[0]))) {
			all[0] = (struct iovec){qp->m_obuf, pend};
			memcpy(all + 1, iov, (size_t)cnt * sizeof(*iov));
			v = all;
			vc = cnt + 1;
		} else if (pend > 0) {
			m_flush(qp);
			pend = qp->m_olen;
			if (pend > 0) {
				m_keep(qp, iov, cnt, 0);
				return;
			}
		}
		m = (struct msghdr){.msg_iov = v, .msg_iovlen = (size_t)vc};
		do {
			n = sendmsg(qp->mfd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
		} while (n < 0 && errno == EINTR);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			qp->m_full = true;
		if (n > 0 && pend > 0) {
			size_t done = (size_t)n < pend ? (size_t)n : pend;

			memmove(qp->m_obuf, qp->m_obuf + done, pend - done);
			qp->m_olen -= done;
			n -= (ssize_t)done;
		}
		if (qp->m_olen == 0 && n == (ssize_t)total) {
			m_events(qp, false);
			return;
		}
		if (n > 0 && (size_t)n < total)
			qp->m_full = true;
		sent = n > 0 ? (size_t)n : 0;
	}
	m_keep(qp, iov, cnt, sent);
}

bool rnic_msock_wants(const struct rnic_qp *qp, const struct rnic_wr *wr)
{
	return qp->m_on && wr->bytes <= RNIC_MSOCK_DATA &&
	       (wr->op == SOFTHW_RNIC_OP_SEND || wr->op == SOFTHW_RNIC_OP_SEND_IMM || wr->op == SOFTHW_RNIC_OP_WRITE_IMM ||
		wr->op == SOFTHW_RNIC_OP_WRITE);
}

static void nudge(struct rnic_qp *qp, uint64_t now)
{
	struct rnic_hdr h = {.type = F_NUDGE};

	qp->m_nudged = now;
	rnic_send_ctl(qp, &h, NULL, 0);
}

void rnic_msock_send(struct rnic_qp *qp, struct rnic_wr *wr)
{
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
	wr->sent = true;
	wr->path = RNIC_PATH_MSOCK;
	if (qp->m_inflight++ == 0) {
		qp->m_since = rnic_now_ms();
		qp->m_gap = NUDGE_MS;
	}
	m_write(qp, v, cnt);
	/* sent while our owner sleeps: nobody would nudge a receiver that does not progress */
	if (__atomic_load_n(&qp->ep->armed, __ATOMIC_ACQUIRE))
		nudge(qp, rnic_now_ms());
}

/* ---- reading ---- */

static void m_corrupt(struct rnic_qp *qp)
{
	if (!qp->m_halt)
		rnic_qp_log_broken_peer(qp, "message socket");
	qp->m_halt = true;
	qp->broken = true;
	rnic_nic_kick();
}

static void consume(struct rnic_qp *qp, size_t n)
{
	memmove(qp->m_buf, qp->m_buf + n, qp->m_got - n);
	qp->m_got -= n;
}

/*
 * The ACK (or NAK) of a message waits to ride on our next frame: a reply sent from the
 * receive's callback then costs one system call for both (a separate one costs as much as
 * the message). Whoever read the message sends it at the latest when done: the service thread
 * at the end of its pass, the owner at its next poll or arm (rnic_msock_flush before a BYE).
 */
static void answer(struct rnic_qp *qp, uint64_t seq, uint8_t op, doca_error_t status)
{
	struct rnic_hdr resp = {.type = F_RESP, .op = op, .seq = seq, .status = status};
	struct iovec iov = {&resp, sizeof(resp)};

	m_keep(qp, &iov, 1, 0);
	if (status != DOCA_SUCCESS) {
		rnic_rnr_unstall(qp, &qp->m_stalled);
		qp->m_halt = true; /* the sender's qp fails on it: read no more */
	}
}

/* A message frame is whole at the buffer's start: false if it waits for a receive. */
static bool m_request(struct rnic_qp *qp, const struct rnic_hdr *h)
{
	const uint8_t *data = qp->m_buf + HDR;
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
		if (rnic_rnr_exhausted(qp, &qp->m_stalled, &qp->m_deadline)) {
			consume(qp, HDR + len);
			answer(qp, h->seq, h->op, DOCA_ERROR_AGAIN);
			return true;
		}
		return false; /* the frame waits: a later poll, a posted receive or the timer retries */
	}
	rnic_rnr_unstall(qp, &qp->m_stalled);
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

/* Works through the whole frames in the buffer. */
static void m_frames(struct rnic_qp *qp)
{
	while (qp->m_on && qp->state == QP_RTS && !qp->m_halt && qp->m_got >= HDR) {
		struct rnic_hdr h;

		memcpy(&h, qp->m_buf, HDR);
		if (h.plen > RNIC_MSOCK_DATA || (h.type == F_RESP && h.plen != 0)) {
			m_corrupt(qp);
			return;
		}
		if (qp->m_got < HDR + h.plen)
			return;
		if (h.type == F_RESP) {
			struct rnic_wr *wr = qp->wq_head;

			if (wr == NULL || !wr->sent || wr->path != RNIC_PATH_MSOCK || wr->seq != h.seq) {
				m_corrupt(qp);
				return;
			}
			consume(qp, HDR);
			qp->m_since = rnic_now_ms();
			qp->m_idle = 0;
			qp->m_gap = NUDGE_MS;
			rnic_qp_complete_head(qp, (doca_error_t)h.status, h.status == DOCA_SUCCESS ? wr->bytes : 0);
		} else if (h.type == F_REQ &&
			   (h.op == SOFTHW_RNIC_OP_SEND || h.op == SOFTHW_RNIC_OP_SEND_IMM ||
			    h.op == SOFTHW_RNIC_OP_WRITE_IMM || h.op == SOFTHW_RNIC_OP_WRITE)) {
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
	return __atomic_exchange_n(&qp->m_reading, 1, __ATOMIC_ACQUIRE) == 0;
}

static void m_release(struct rnic_qp *qp)
{
	__atomic_store_n(&qp->m_reading, 0, __ATOMIC_RELEASE);
}

/* One recv into the buffer (m_reading held): bytes read, 0 none, -1 closed or reset. */
static ssize_t m_recv(struct rnic_qp *qp)
{
	size_t ask = RNIC_MSOCK_BUF - qp->m_got;
	ssize_t n;

	if (ask == 0)
		return 0;
	do {
		n = recv(qp->mfd, qp->m_buf + qp->m_got, ask, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n <= 0)
		return -1;
	qp->m_got += (size_t)n;
	return n;
}

/* The peer closed it: the main socket says how the qp ends (F_BYE or EOF). qp lock held. */
static void m_closed(struct rnic_qp *qp)
{
	if (qp->m_eof)
		return;
	qp->m_eof = true;
	m_events(qp, false);
	rnic_nic_kick();
}

/*
 * A sender whose receiver does not progress: its service thread takes the message. qp lock
 * held; from the owner's polls, and from the service thread's timers while the owner sleeps
 * (one nudge can be lost: the receiver's owner may take its socket back just after it).
 */
uint64_t rnic_msock_next_nudge(const struct rnic_qp *qp)
{
	uint64_t a = qp->m_since + NUDGE_MS, b = qp->m_nudged + qp->m_gap;

	return a > b ? a : b;
}

void rnic_msock_nudge_check(struct rnic_qp *qp)
{
	uint64_t now;

	if (qp->m_inflight == 0 || !qp->m_on || qp->state != QP_RTS)
		return;
	now = rnic_now_ms();
	if (now >= qp->m_since + NUDGE_MS && now >= qp->m_nudged + qp->m_gap) {
		nudge(qp, now);
		qp->m_gap = qp->m_gap * 2 < NUDGE_MAX_MS ? qp->m_gap * 2 : NUDGE_MAX_MS;
	}
}

static bool m_readable(const struct rnic_qp *qp)
{
	return qp->mfd >= 0 && !qp->m_shut && qp->m_on && qp->state == QP_RTS && !qp->m_halt && !qp->m_eof;
}

/* Service thread (qp lock held): writes what waits, takes ACKs and messages. */
void rnic_msock_service(struct rnic_qp *qp)
{
	if (qp->mfd < 0)
		return;
	if (qp->m_olen > 0)
		m_flush(qp);
	if (!m_readable(qp) || !m_grab(qp))
		return;
	m_frames(qp);
	while (m_readable(qp) && !qp->m_stalled) {
		ssize_t n = m_recv(qp);

		if (n < 0)
			m_closed(qp);
		if (n <= 0)
			break;
		m_frames(qp);
	}
	m_release(qp);
	if (qp->m_olen > 0)
		m_flush(qp);
	rnic_msock_nudge_check(qp);
}

void rnic_msock_nudged(struct rnic_qp *qp)
{
	if (qp->mfd < 0 || qp->m_shut)
		return;
	qp->m_thread = true;
	rnic_msock_service(qp);
	m_events(qp, false);
}

void rnic_msock_flush(struct rnic_qp *qp)
{
	if (qp->mfd >= 0 && qp->m_olen > 0 && !qp->m_full && !qp->broken)
		m_flush(qp);
}

void rnic_msock_off(struct rnic_qp *qp)
{
	rnic_msock_flush(qp); /* ACKs of what we delivered: it completes on the sender's side */
	rnic_rnr_unstall(qp, &qp->m_stalled);
	if (qp->m_on) {
		__atomic_store_n(&qp->m_on, false, __ATOMIC_RELEASE);
		__atomic_fetch_sub(&qp->ep->m_qps, 1, __ATOMIC_RELEASE);
	}
	qp->m_olen = 0; /* (m_got is m_reading's: nothing reads it once m_on is off) */
	qp->m_full = false;
	qp->m_inflight = 0;
}

void rnic_msock_close(struct rnic_qp *qp)
{
	rnic_msock_off(qp);
	if (qp->mfd >= 0 && !qp->m_shut) {
		/* the owner may be in recv on it (m_reading): the descriptor closes with the qp */
		rnic_nic_del_fd(qp->mfd);
		(void)shutdown(qp->mfd, SHUT_RDWR);
		qp->m_shut = true;
		qp->m_events = 0;
	}
}

void rnic_msock_free(struct rnic_qp *qp)
{
	rnic_msock_close(qp);
	if (qp->mfd >= 0)
		close(qp->mfd);
	qp->mfd = -1;
	free(qp->m_buf);
	free(qp->m_obuf);
	qp->m_buf = qp->m_obuf = NULL;
	qp->m_ocap = 0;
}

void rnic_msock_event(struct rnic_qp *qp)
{
	pthread_mutex_lock(&qp->lock);
	if (!qp->dead && qp->mfd >= 0 && !qp->m_shut) {
		m_events(qp, true);
		rnic_msock_service(qp);
		if (qp->m_stalled)
			rnic_nic_timed_add(qp);
		m_events(qp, false);
		if (qp->broken && qp->fd >= 0)
			rnic_qp_hangup(qp);
	}
	pthread_mutex_unlock(&qp->lock);
}

void rnic_msock_poll_ep(struct rnic_ep *ep)
{
	bool armed = __atomic_load_n(&ep->armed, __ATOMIC_ACQUIRE);

	pthread_mutex_lock(&ep->qps_lock);
	for (struct rnic_qp *qp = ep->qps; qp != NULL; qp = qp->next_ep) {
		bool inflight, stalled, out, lock;
		ssize_t n = 0;

		if (!__atomic_load_n(&qp->m_on, __ATOMIC_ACQUIRE))
			continue;
		if (__atomic_load_n(&qp->m_thread, __ATOMIC_RELAXED) && !armed &&
		    pthread_mutex_trylock(&qp->lock) == 0) {
			qp->m_thread = false; /* the owner polls again: the socket is ours */
			m_events(qp, false);
			pthread_mutex_unlock(&qp->lock);
		}
		inflight = __atomic_load_n(&qp->m_inflight, __ATOMIC_RELAXED) != 0;
		stalled = __atomic_load_n(&qp->m_stalled, __ATOMIC_RELAXED);
		out = __atomic_load_n(&qp->m_olen, __ATOMIC_RELAXED) != 0;
		/* every connected qp is read: small writes come with no receive posted */
		if (!m_grab(qp))
			continue;
		if (!stalled && !__atomic_load_n(&qp->m_eof, __ATOMIC_RELAXED) &&
		    !__atomic_load_n(&qp->m_halt, __ATOMIC_RELAXED))
			n = m_recv(qp); /* no qp lock: the service thread never waits for an idle poll */
		lock = n != 0 || stalled || out || (inflight && (++qp->m_idle & 63) == 0);
		if (lock) {
			pthread_mutex_lock(&qp->lock);
			if (qp->m_olen > 0)
				m_flush(qp);
			if (n < 0)
				m_closed(qp);
			while (m_readable(qp)) {
				/* a read that stopped short of the buffer's end took all there was */
				bool more = qp->m_got == RNIC_MSOCK_BUF;

				m_frames(qp);
				if (qp->m_stalled || n <= 0 || !more || (n = m_recv(qp)) <= 0)
					break;
			}
			if (n < 0)
				m_closed(qp);
			if (armed)
				rnic_msock_flush(qp); /* we may sleep next: the ACKs cannot wait for our next poll */
			rnic_msock_nudge_check(qp);
			pthread_mutex_unlock(&qp->lock);
		}
		m_release(qp);
	}
	pthread_mutex_unlock(&ep->qps_lock);
}

void rnic_msock_arm_ep(struct rnic_ep *ep)
{
	uint64_t now = rnic_now_ms();
	bool kick = false;

	pthread_mutex_lock(&ep->qps_lock);
	for (struct rnic_qp *qp = ep->qps; qp != NULL; qp = qp->next_ep) {
		if (!__atomic_load_n(&qp->m_on, __ATOMIC_ACQUIRE))
			continue;
		pthread_mutex_lock(&qp->lock);
		if (qp->m_on && qp->state == QP_RTS) {
			qp->m_thread = true; /* EPOLLIN: what arrives now wakes the service thread */
			if (qp->m_olen > 0)
				m_flush(qp);
			m_events(qp, false);
			/* the receiver may not progress: its service thread takes the messages */
			if (qp->m_inflight > 0) {
				nudge(qp, now);
				kick = true; /* and our service thread keeps nudging while we sleep */
			}
		}
		pthread_mutex_unlock(&qp->lock);
	}
	pthread_mutex_unlock(&ep->qps_lock);
	if (kick)
		rnic_nic_kick();
}
