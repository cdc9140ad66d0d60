/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A qp's socket: the out-queue (written by whichever thread holds the qp lock, drained by the
 * service thread on EPOLLOUT) and the receive machine (service thread): a header, then its
 * payload straight into its destination — a posted receive, exported memory, a read's buffer.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "softhw/fabric/mem.h"
#include "softhw/fabric/share.h"
#include "softhw/rnic/stream.h"

#define RX_BUDGET (8u << 20) /* bytes read from one socket before the others get their turn */

static char discard_buf[64 * 1024]; /* service thread only */

/*
 * Where bytes that go nowhere (or on through a re-export's import) land: the service thread's
 * big buffer, or in an owner's ep_poll the qp's stage (empty whenever payload is read from the
 * socket). NULL: no memory.
 */
static char *scratch(struct rnic_rx *rx, size_t *len)
{
	if (rnic_nic_on_thread()) {
		*len = sizeof(discard_buf);
		return discard_buf;
	}
	if (rx->stage == NULL && (rx->stage = malloc(RNIC_RX_STAGE)) == NULL)
		return NULL;
	rx->stage_off = rx->stage_len = 0;
	*len = RNIC_RX_STAGE;
	return (char *)rx->stage;
}

static void iov_advance(struct iovec *iov, int *idx, int cnt, size_t n)
{
	while (n > 0 && *idx < cnt) {
		size_t take = n < iov[*idx].iov_len ? n : iov[*idx].iov_len;

		iov[*idx].iov_base = (char *)iov[*idx].iov_base + take;
		iov[*idx].iov_len -= take;
		n -= take;
		if (iov[*idx].iov_len == 0)
			(*idx)++;
	}
	while (*idx < cnt && iov[*idx].iov_len == 0)
		(*idx)++;
}

static ssize_t send_iov(int fd, struct iovec *iov, int cnt)
{
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = (size_t)(cnt < IOV_MAX ? cnt : IOV_MAX)};

	/* MSG_NOSIGNAL: a peer that went away must never kill the process with SIGPIPE. */
	return sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void out_broken(struct rnic_qp *qp)
{
	qp->broken = true;
	rnic_nic_kick(); /* the service thread hangs up (it may be us: it checks after this event) */
}

/* A chunk of a fetched answer at a time: what one answer the peer does not read may hold. */
#define FETCH_CHUNK (256u * 1024)

/* A fetched answer's next chunk into its buffer, to send (else: the import failed, or no memory). */
static doca_error_t fetch_next(struct rnic_out *o)
{
	size_t n = o->f_left < FETCH_CHUNK ? (size_t)o->f_left : FETCH_CHUNK;
	doca_error_t err;

	if (o->owned == NULL && (o->owned = malloc(n)) == NULL) /* (the first chunk is the largest) */
		return DOCA_ERROR_NO_MEMORY;
	err = softhw_mem_export_copy(o->pin_id, o->pin_token, o->f_addr, o->owned, n, false);
	if (err != DOCA_SUCCESS)
		return err;
	o->f_addr += n;
	o->f_left -= n;
	o->iov[1] = (struct iovec){o->owned, n};
	o->iovcnt = 2;
	o->idx = o->iov[0].iov_len == 0 ? 1 : 0;
	return DOCA_SUCCESS;
}

/* Writes a frame's next bytes; a READ's answer from exported memory is pinned meanwhile. */
static ssize_t out_send(struct rnic_out *o, int fd, bool *gone)
{
	const struct iovec *mem = &o->iov[o->iovcnt - 1];
	ssize_t n;
	int e;

	if (o->fetched && o->idx == o->iovcnt && fetch_next(o) != DOCA_SUCCESS) {
		*gone = true; /* the re-export's import failed under a frame that started: hang up */
		return -1;
	}
	if (!o->pinned)
		return send_iov(fd, o->iov + o->idx, o->iovcnt - o->idx);
	if (softhw_mem_export_pin(o->pin_id, o->pin_token, (uint64_t)(uintptr_t)mem->iov_base, mem->iov_len,
				  SOFTHW_MEM_READ) != DOCA_SUCCESS) {
		*gone = true; /* the export ended under a frame that started: only a hang-up keeps the peer sane */
		return -1;
	}
	n = send_iov(fd, o->iov + o->idx, o->iovcnt - o->idx);
	e = errno;
	softhw_mem_export_unpin();
	errno = e;
	return n;
}

static void out_free(struct rnic_out *o)
{
	if (o->heap) {
		free(o->owned);
		free(o);
	}
}

void rnic_out_flush(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	while (s->out_head != NULL && s->fd >= 0 && !qp->broken) {
		struct rnic_out *o = s->out_head;
		bool gone = false;
		ssize_t n = out_send(o, s->fd, &gone);

		if (n < 0) {
			if (gone) {
				out_broken(qp);
				break;
			}
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				out_broken(qp);
			break;
		}
		if (n > 0)
			o->started = true;
		iov_advance(o->iov, &o->idx, o->iovcnt, (size_t)n);
		if (o->idx < o->iovcnt || (o->fetched && o->f_left > 0))
			continue; /* (a fetched answer: its next chunk) */
		s->out_head = o->next;
		if (s->out_head == NULL)
			s->out_tail = NULL;
		o->next = NULL;
		s->answers -= o->answers;
		out_free(o);
	}
	rnic_stream_events(qp);
}

/* Queues a frame behind the others, without writing: the socket is full or others wait. */
static void out_append(struct rnic_qp *qp, struct rnic_out *o)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	o->next = NULL;
	if (s->out_tail != NULL)
		s->out_tail->next = o;
	else
		s->out_head = o;
	s->out_tail = o;
	rnic_stream_events(qp);
}

void rnic_out_push(struct rnic_qp *qp, struct rnic_out *o)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	bool first;

	rnic_cork_flush(qp); /* what was gathered goes first */
	first = s->out_head == NULL;
	o->next = NULL;
	o->idx = 0;
	o->started = false;
	o->pinned = false;
	o->answers = 0;
	if (s->out_tail != NULL)
		s->out_tail->next = o;
	else
		s->out_head = o;
	s->out_tail = o;
	if (first)
		rnic_out_flush(qp);
}

/*
 * Nothing waits: tries the socket at once. True if that settled it (all sent, or the connection
 * broke); else *sent is how much went and the caller queues the rest.
 */
static bool send_now(struct rnic_qp *qp, struct iovec *iov, int cnt, size_t total, size_t *sent)
{
	ssize_t n;

	do {
		n = send_iov(rnic_stream_of(qp)->fd, iov, cnt);
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)total)
		return true;
	if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
		out_broken(qp);
		return true;
	}
	*sent = n > 0 ? (size_t)n : 0;
	return false;
}

/*
 * Writes bytes at once if nothing waits; the rest waits in a heap copy (the source may change
 * meanwhile), counted as `answers` answers to the peer's requests until it left.
 */
static void send_bytes(struct rnic_qp *qp, struct iovec *iov, int cnt, uint32_t answers)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	size_t total = 0, sent = 0;
	struct rnic_out *o;
	char *copy;

	for (int i = 0; i < cnt; i++)
		total += iov[i].iov_len;
	if (s->out_head == NULL && send_now(qp, iov, cnt, total, &sent))
		return;
	o = calloc(1, sizeof(*o));
	copy = malloc(total - sent);
	if (o == NULL || copy == NULL) {
		free(o);
		free(copy);
		out_broken(qp); /* a frame cut short would corrupt the stream: hang up instead */
		return;
	}
	for (size_t off = 0; cnt > 0; cnt--, iov++) {
		size_t skip = sent > off ? sent - off : 0;

		if (skip < iov->iov_len)
			memcpy(copy + (off + skip - sent), (char *)iov->iov_base + skip, iov->iov_len - skip);
		off += iov->iov_len;
	}
	o->heap = true;
	o->started = sent > 0;
	o->answers = answers;
	s->answers += answers;
	o->owned = copy;
	o->iov = o->iov_inline;
	o->iov[0] = (struct iovec){copy, total - sent};
	o->iovcnt = 1;
	out_append(qp, o); /* the socket just said it is full: EPOLLOUT drains */
}

void rnic_cork_flush(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct iovec iov = {s->cork, s->cork_len};
	uint32_t answers = s->cork_answers;

	if (s->cork_len == 0)
		return;
	s->cork_len = 0;
	s->cork_answers = 0;
	if (s->fd >= 0 && !qp->broken)
		send_bytes(qp, &iov, 1, answers);
}

void rnic_send_ctl(struct rnic_qp *qp, const struct rnic_hdr *h, const void *payload, size_t plen)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct iovec iov[2] = {{(void *)h, sizeof(*h)}, {(void *)payload, plen}};

	if (s->fd < 0 || qp->broken)
		return;
	if (s->corking && plen == 0 && s->out_head == NULL && s->cork_len + sizeof(*h) <= sizeof(s->cork)) {
		memcpy(s->cork + s->cork_len, h, sizeof(*h));
		s->cork_len += (uint32_t)sizeof(*h);
		s->cork_answers += h->type == F_RESP;
		return;
	}
	rnic_cork_flush(qp);
	send_bytes(qp, iov, plen > 0 ? 2 : 1, h->type == F_RESP);
}

void rnic_send_mem(struct rnic_qp *qp, const struct rnic_hdr *h, uint64_t id, uint64_t token, uint64_t addr,
		   uint64_t len)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct iovec iov[2] = {{(void *)h, sizeof(*h)}, {(void *)(uintptr_t)addr, len}};
	size_t sent = 0;
	struct rnic_out *o;

	if (s->fd < 0 || qp->broken)
		return;
	rnic_cork_flush(qp);
	if (s->out_head == NULL && send_now(qp, iov, 2, sizeof(*h) + len, &sent))
		return;
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		out_broken(qp);
		return;
	}
	o->hdr = *h;
	o->iov = o->iov_inline;
	o->iov[0] = (struct iovec){&o->hdr, sizeof(o->hdr)};
	o->iov[1] = iov[1];
	o->iovcnt = 2;
	iov_advance(o->iov, &o->idx, o->iovcnt, sent);
	o->heap = true;
	o->started = sent > 0;
	o->answers = 1;
	s->answers++;
	o->pinned = true;
	o->pin_id = id;
	o->pin_token = token;
	out_append(qp, o);
}

doca_error_t rnic_send_fetched(struct rnic_qp *qp, const struct rnic_hdr *h, uint64_t id, uint64_t token, uint64_t addr,
			       uint64_t len)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_out *o;
	doca_error_t err;
	bool first;

	if (s->fd < 0 || qp->broken)
		return DOCA_SUCCESS; /* nothing is answered any more */
	rnic_cork_flush(qp);
	o = calloc(1, sizeof(*o));
	if (o == NULL)
		return DOCA_ERROR_NO_MEMORY;
	o->hdr = *h;
	o->iov = o->iov_inline;
	o->iov[0] = (struct iovec){&o->hdr, sizeof(o->hdr)};
	o->iovcnt = 1;
	o->heap = true;
	o->fetched = true;
	o->pin_id = id;
	o->pin_token = token;
	o->f_addr = addr;
	o->f_left = len;
	first = s->out_head == NULL;
	/* nothing waits: its first chunk now, so that an import that fails is answered, not cut */
	if (first && (err = fetch_next(o)) != DOCA_SUCCESS) {
		free(o->owned);
		free(o);
		return err;
	}
	o->answers = 1;
	s->answers++;
	out_append(qp, o);
	if (first)
		rnic_out_flush(qp);
	return DOCA_SUCCESS;
}

bool rnic_out_drop_all(struct rnic_stream *s)
{
	bool cut = s->out_head != NULL && s->out_head->started;

	while (s->out_head != NULL) {
		struct rnic_out *o = s->out_head;

		s->out_head = o->next;
		out_free(o);
	}
	s->out_tail = NULL;
	s->cork_len = 0;
	s->cork_answers = 0;
	s->answers = 0;
	return cut;
}

/* ---- receiving ---- */

bool rnic_rx_room(struct rnic_rx *rx, uint32_t n)
{
	struct iovec *iov;

	if (n <= (uint32_t)rx->iov_cap)
		return true;
	iov = realloc(rx->iov, n * sizeof(*iov));
	if (iov == NULL)
		return false;
	rx->iov = iov;
	rx->iov_cap = (int)n;
	return true;
}

/* The header of a response: the oldest work request in flight is its request. */
static bool resp_begin(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;
	struct rnic_wr *wr = qp->wq_head;

	/*
	 * A NAK of work on another path (ring.c: a refused record) comes here, but that path's ACKs
	 * of the older work before it (records consumed) only its pump takes: take them first, or
	 * the NAK would not match the oldest wr.
	 */
	if (qp->state == QP_RTS && wr != NULL && wr->sent && wr->path != RNIC_PATH_STREAM && wr->seq < rx->hdr.seq) {
		RNIC_PATHS_EACH(pump, qp);
		wr = qp->wq_head;
	}
	if (qp->state != QP_RTS) {
		/* flushed already (qp failed): the rest of the stream is dropped */
		rx->dest = RX_DISCARD;
		rx->left = rx->hdr.plen;
		return true;
	}
	if (wr == NULL || !wr->sent || wr->cma || wr->seq != rx->hdr.seq)
		return false; /* not a reply to anything we sent: the peer is confused, hang up */
	if (rx->hdr.status == DOCA_SUCCESS && wr->op == SOFTHW_RNIC_OP_READ) {
		if (rx->hdr.plen != wr->bytes || !rnic_rx_room(rx, wr->num_sge))
			return false;
		rx->dest = RX_PLAIN;
		rx->iovcnt = 0;
		for (uint32_t i = 0; i < wr->num_sge; i++)
			rx->iov[rx->iovcnt++] = (struct iovec){wr->sgl[i].addr, wr->sgl[i].len};
		rx->idx = 0;
		rx->left = rx->hdr.plen;
		return true;
	}
	if (rx->hdr.plen != 0)
		return false;
	if (rx->hdr.status == DOCA_SUCCESS &&
	    (wr->op == SOFTHW_RNIC_OP_CMP_SWP || wr->op == SOFTHW_RNIC_OP_FETCH_ADD ||
	     wr->op == SOFTHW_RNIC_OP_SE_GET || wr->op == SOFTHW_RNIC_OP_SE_ADD) &&
	    wr->num_sge > 0 && wr->sgl[0].len >= sizeof(uint64_t)) {
		softhw_share_store_begin();
		memcpy(wr->sgl[0].addr, &rx->hdr.arg0, sizeof(uint64_t));
		softhw_share_store_end();
	}
	rx->left = 0;
	return true;
}

static void resp_end(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_wr *wr = qp->wq_head;
	uint64_t len = 0;

	if (qp->state != QP_RTS || wr == NULL)
		return;
	switch (wr->op) {
	case SOFTHW_RNIC_OP_READ:
		len = s->rx.hdr.plen;
		break;
	case SOFTHW_RNIC_OP_CMP_SWP:
	case SOFTHW_RNIC_OP_FETCH_ADD:
	case SOFTHW_RNIC_OP_SE_GET:
	case SOFTHW_RNIC_OP_SE_ADD:
		len = sizeof(uint64_t);
		break;
	default:
		len = wr->bytes;
		break;
	}
	rnic_qp_complete_head(qp, (doca_error_t)s->rx.hdr.status, s->rx.hdr.status == DOCA_SUCCESS ? len : 0);
}

/* A whole header is in. False: protocol error. */
static bool rx_header(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;

	rx->status = DOCA_SUCCESS;
	rx->recv = NULL;
	rx->left = 0;
	switch (rx->hdr.type) {
	case F_REQ:
		if (qp->state != QP_RTS && qp->state != QP_ERROR)
			return false;
		if (s->answers + s->cork_answers >= RNIC_ANSWERS_MAX) {
			/* it does not read what we answer: queuing more would grow our memory without bound */
			rnic_qp_log_unread(qp, "stream");
			return false;
		}
		rnic_target_begin(qp);
		return true;
	case F_RESP:
		return resp_begin(qp);
	case F_HELLO_ACK:
		if (rx->hdr.plen != sizeof(struct rnic_hello) || qp->state != QP_HANDSHAKE)
			return false;
		if (!rnic_rx_room(rx, 1))
			return false;
		rx->dest = RX_PLAIN;
		rx->iov[0] = (struct iovec){rx->hello, sizeof(rx->hello)};
		rx->iovcnt = 1;
		rx->idx = 0;
		rx->left = rx->hdr.plen;
		return true;
	case F_BYE:
	case F_NUDGE:
		return rx->hdr.plen == 0;
	default:
		return false;
	}
}

/* A frame is complete (header and payload). */
static void rx_frame_end(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	switch (s->rx.hdr.type) {
	case F_REQ:
		rnic_target_end(qp);
		break;
	case F_RESP:
		resp_end(qp);
		break;
	case F_HELLO_ACK:
		rnic_stream_hello_ack(qp);
		break;
	case F_BYE:
		/* the peer disconnected: its queued work is flushed on its side, ours here */
		RNIC_PATHS_EACH(pump, qp); /* what it took (our ACKs) or sent on the other paths before its bye */
		if (qp->state == QP_RTS)
			RNIC_PATHS_EACH(peer_bye, qp, &s->rx.hdr); /* ACKs still on their way there */
		if (qp->state == QP_RTS)
			rnic_qp_fail(qp, SOFTHW_RNIC_CQE_DISCONNECTED, DOCA_SUCCESS, DOCA_ERROR_SHUTDOWN);
		s->close_asked = true;
		break;
	case F_NUDGE:
		if (qp->state == QP_RTS)
			RNIC_PATHS_EACH(nudged, qp);
		break;
	default:
		break;
	}
}

/* Reads payload bytes. Returns bytes read, 0 at EOF, -1 on EAGAIN, -2 on error. */
static ssize_t rx_payload(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;
	size_t cap;
	char *buf;
	ssize_t n;

	for (;;) {
		switch (rx->dest) {
		case RX_DISCARD:
			if ((buf = scratch(rx, &cap)) == NULL)
				return -2;
			n = recv(s->fd, buf, rx->left < cap ? rx->left : cap, MSG_DONTWAIT);
			break;
		case RX_MEM: {
			/* The export may end between two reads: pinned only while bytes land in it. */
			doca_error_t err = softhw_mem_export_pin(rx->hdr.id, rx->hdr.token, rx->mem_addr, rx->left,
								 SOFTHW_MEM_WRITE);

			if (err == DOCA_ERROR_NOT_SUPPORTED) {
				/* a re-export: the bytes land here first, then go on through its import */
				if ((buf = scratch(rx, &cap)) == NULL)
					return -2;
				n = recv(s->fd, buf, rx->left < cap ? rx->left : cap, MSG_DONTWAIT);
				if (n > 0) {
					err = softhw_mem_export_copy(rx->hdr.id, rx->hdr.token, rx->mem_addr, buf,
								     (uint64_t)n, true);
					rx->mem_addr += (uint64_t)n;
					if (err != DOCA_SUCCESS) {
						rx->status = err; /* the rest is dropped */
						rx->dest = RX_DISCARD;
					}
				}
				break;
			}
			if (err != DOCA_SUCCESS) {
				rx->status = err;
				rx->dest = RX_DISCARD;
				continue;
			}
			n = recv(s->fd, (void *)(uintptr_t)rx->mem_addr, rx->left, MSG_DONTWAIT);
			softhw_mem_export_unpin();
			if (n > 0)
				rx->mem_addr += (uint64_t)n;
			else if (n < 0 && errno == EFAULT) {
				/* the application unmapped exported memory: drop the rest */
				rx->status = DOCA_ERROR_INVALID_VALUE;
				rx->dest = RX_DISCARD;
				continue;
			}
			break;
		}
		default: /* a posted receive, a read's destination: application memory */
			softhw_share_store_begin();
			n = readv(s->fd, rx->iov + rx->idx, rx->iovcnt - rx->idx);
			softhw_share_store_end();
			if (n > 0)
				iov_advance(rx->iov, &rx->idx, rx->iovcnt, (size_t)n);
			break;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? -1 : -2;
		if (n > 0)
			rx->left -= (uint64_t)n;
		return n;
	}
}

/* Dialer, during the handshake: the acceptor's answer may carry the ring's descriptors. */
static ssize_t recv_hs(struct rnic_qp *qp, void *buf, size_t len)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	union {
		char buf[CMSG_SPACE(RNIC_RING_HS_FDS * sizeof(int))];
		struct cmsghdr align;
	} c;
	struct iovec iov = {buf, len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.buf, .msg_controllen = sizeof(c.buf)};
	ssize_t n = recvmsg(s->fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

	if (n < 0)
		return n;
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&m); cm != NULL; cm = CMSG_NXTHDR(&m, cm)) {
		size_t nfds;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len < CMSG_LEN(0))
			continue;
		nfds = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nfds; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(fd));
			if (s->hs_nfds < RNIC_RING_HS_FDS)
				s->hs_fds[s->hs_nfds++] = fd;
			else
				close(fd);
		}
	}
	return n;
}

/* Bytes read ahead for the receive machine: what the stage holds, else one recv into it (after
 * the handshake). Returns bytes available, 0 at EOF, -1 on EAGAIN, -2 on error. */
static ssize_t stage_fill(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;
	ssize_t n;

	if (rx->stage_off < rx->stage_len)
		return rx->stage_len - rx->stage_off;
	if (rx->stage == NULL && (rx->stage = malloc(RNIC_RX_STAGE)) == NULL)
		return -2;
	rx->stage_off = rx->stage_len = 0;
	do {
		n = recv(s->fd, rx->stage, RNIC_RX_STAGE, MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? -1 : -2;
	rx->stage_len = (uint32_t)n;
	return n;
}

/*
 * A write's bytes from the stage into exported memory, pinned. Through the kernel, as recv()
 * into it does: memory the application unmapped fails (EFAULT) instead of crashing us.
 */
static doca_error_t place_staged(const struct rnic_rx *rx, const uint8_t *src, size_t len)
{
	struct iovec local = {(void *)src, len}, remote = {(void *)(uintptr_t)rx->mem_addr, len};
	doca_error_t err = softhw_mem_export_pin(rx->hdr.id, rx->hdr.token, rx->mem_addr, len, SOFTHW_MEM_WRITE);
	ssize_t n;

	if (err == DOCA_ERROR_NOT_SUPPORTED) /* a re-export: on through its import */
		return rnic_write_place(rx->hdr.id, rx->hdr.token, rx->mem_addr, src, len);
	if (err != DOCA_SUCCESS)
		return err;
	n = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		memcpy(remote.iov_base, src, len);
		n = (ssize_t)len;
	}
	softhw_mem_export_unpin();
	return n == (ssize_t)len ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
}

/* Payload bytes the stage holds go where the socket's would. Returns how many were taken. */
static size_t stage_payload(struct rnic_rx *rx)
{
	const uint8_t *src = rx->stage + rx->stage_off;
	size_t take = rx->stage_len - rx->stage_off;

	if (take > rx->left)
		take = (size_t)rx->left;
	switch (rx->dest) {
	case RX_DISCARD:
		break;
	case RX_MEM: {
		doca_error_t err = take > 0 ? place_staged(rx, src, take) : DOCA_SUCCESS;

		rx->mem_addr += take;
		if (err != DOCA_SUCCESS) {
			rx->status = err; /* the rest is dropped */
			rx->dest = RX_DISCARD;
		}
		break;
	}
	default: {
		size_t done = 0;

		softhw_share_store_begin();
		for (int i = rx->idx; i < rx->iovcnt && done < take; i++) {
			size_t n = take - done < rx->iov[i].iov_len ? take - done : rx->iov[i].iov_len;

			memcpy(rx->iov[i].iov_base, src + done, n);
			done += n;
		}
		softhw_share_store_end();
		iov_advance(rx->iov, &rx->idx, rx->iovcnt, take);
		break;
	}
	}
	rx->stage_off += (uint32_t)take;
	rx->left -= take;
	return take;
}

/* The receive machine, until the socket and the stage are empty. False: the connection is gone. qp lock held. */
static bool rx_run(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_rx *rx = &s->rx;
	size_t budget = RX_BUDGET;
	bool alive = true;

	if (rx->failed)
		return false;
	s->corking = true;
	/* the budget stops only socket reads: bytes in the stage raise no event, they are taken now */
	while (!qp->dead && s->fd >= 0 && !rx->stalled && (budget > 0 || rx->stage_off < rx->stage_len) &&
	       qp->state != QP_DIALING) {
		ssize_t n;

		if (!rx->in_payload) {
			if (qp->state == QP_HANDSHAKE) {
				/* exact reads: the answer may carry descriptors */
				n = recv_hs(qp, (char *)&rx->hdr + rx->hdr_got, sizeof(rx->hdr) - rx->hdr_got);
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
					break;
			} else {
				n = stage_fill(qp);
				if (n == -1)
					break;
				if (n > 0) {
					n = (ssize_t)(sizeof(rx->hdr) - rx->hdr_got) < n ? (ssize_t)(sizeof(rx->hdr) - rx->hdr_got)
											: n;
					memcpy((char *)&rx->hdr + rx->hdr_got, rx->stage + rx->stage_off, (size_t)n);
					rx->stage_off += (uint32_t)n;
				}
			}
			if (n <= 0) {
				alive = false;
				break;
			}
			budget = (size_t)n < budget ? budget - (size_t)n : 0;
			rx->hdr_got += (size_t)n;
			if (rx->hdr_got < sizeof(rx->hdr))
				continue;
			rx->hdr_got = 0;
			if (!rx_header(qp)) {
				alive = false;
				break;
			}
			rx->in_payload = true;
			if (rx->stalled)
				break; /* receiver not ready: the payload waits (rnic_rx_retry) */
		} else if (rx->left > 0) {
			if (rx->stage_off < rx->stage_len) {
				stage_payload(rx);
			} else {
				if (budget == 0)
					break;
				n = rx_payload(qp);
				if (n > 0)
					rx->bulk = true;
				if (n == -1)
					break;
				if (n == 0 || n == -2) {
					alive = false;
					break;
				}
				budget = (size_t)n < budget ? budget - (size_t)n : 0;
			}
		}
		if (rx->in_payload && rx->left == 0) {
			rx->in_payload = false;
			rx_frame_end(qp);
		}
	}
	s->corking = false;
	rnic_cork_flush(qp);
	return alive;
}

void rnic_rx_poll(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	if (!rx_run(qp)) {
		s->rx.failed = true; /* the service thread hangs up (must_end), as after its own read */
		rnic_nic_kick();
	} else if (s->close_asked) {
		rnic_nic_kick(); /* the peer's BYE: the service thread closes */
	}
}

bool rnic_rx_ready(struct rnic_qp *qp)
{
	bool alive;

	softhw_bias_lock(&qp->lock);
	alive = rx_run(qp);
	softhw_bias_unlock(&qp->lock);
	return alive;
}

void rnic_rx_retry(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	rnic_target_begin(qp); /* sees rx.stalled: takes a receive now, or counts a retry */
	if (!s->rx.stalled && s->rx.left == 0 && s->rx.in_payload) {
		s->rx.in_payload = false;
		rx_frame_end(qp);
	}
	/* what the stage holds raises no event: go on with it now */
	if (!s->rx.stalled && s->rx.stage_off < s->rx.stage_len && !rx_run(qp))
		out_broken(qp);
	rnic_stream_events(qp);
}

/* ---- the stream's post op (stream.c): what no other path wants goes here, framed ---- */

static bool op_has_payload(enum softhw_rnic_opcode op)
{
	return op == SOFTHW_RNIC_OP_SEND || op == SOFTHW_RNIC_OP_SEND_IMM || op == SOFTHW_RNIC_OP_SEND_INV ||
	       op == SOFTHW_RNIC_OP_WRITE ||
	       op == SOFTHW_RNIC_OP_WRITE_IMM;
}

/* Frames a work request and hands it to the out-queue. */
void rnic_stream_post(struct rnic_qp *qp, struct rnic_wr *wr)
{
	struct rnic_out *o = &wr->out;
	struct rnic_hdr *h = &o->hdr;

	memset(h, 0, sizeof(*h));
	h->type = F_REQ;
	h->op = (uint8_t)wr->op;
	h->seq = wr->seq;
	h->id = wr->rkey.id;
	h->token = wr->rkey.token;
	h->addr = wr->rkey.addr;
	h->len = wr->bytes;
	h->arg0 = wr->arg0;
	h->arg1 = wr->arg1;
	h->imm = wr->imm;
	o->iovcnt = 0;
	o->iov[o->iovcnt++] = (struct iovec){h, sizeof(*h)};
	if (op_has_payload(wr->op)) {
		h->plen = wr->bytes;
		for (uint32_t i = 0; i < wr->num_sge; i++)
			if (wr->sgl[i].len > 0)
				o->iov[o->iovcnt++] = (struct iovec){wr->sgl[i].addr, wr->sgl[i].len};
	}
	o->heap = false;
	if (!rnic_stream_of(qp)->polled) {
		/* from now on the owner's ep_poll reads its answers (stream_poll); until then it costs no look */
		rnic_stream_of(qp)->polled = true;
		rnic_path_up(qp, RNIC_PATH_STREAM, true);
	}
	rnic_out_push(qp, o);
}
