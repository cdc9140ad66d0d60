/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A queue pair: its life (descriptor, dial or wait, handshake, failure, disconnect) and its
 * send queue. Work requests complete in post order when the target's answer arrives; a
 * failure flushes the rest and closes the connection (the peer sees it go), as a verbs QP in
 * error would stop answering.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/fabric/fabric.h"
#include "softhw/fabric/peer.h"
#include "softhw/rnic/rnic_int.h"

SDK_LOG_REGISTER(SOFTHW_RNIC);

struct rnic_qp *rnic_qp_new(struct rnic_ep *ep, void *user)
{
	struct rnic_qp *qp = calloc(1, sizeof(*qp));

	if (qp == NULL)
		return NULL;
	pthread_mutex_init(&qp->lock, NULL);
	qp->ep = ep;
	qp->user = user;
	qp->fd = -1;
	qp->token = softhw_token_new(); /* a dialer must name it: on TCP, the only proof it holds our descriptor */
	qp->next_seq = 1;
	pthread_mutex_lock(&rnic_nic.lock);
	qp->id = ++rnic_nic.last_qp_id;
	qp->next_all = rnic_nic.qps;
	rnic_nic.qps = qp;
	pthread_mutex_lock(&ep->qps_lock);
	qp->next_ep = ep->qps;
	ep->qps = qp;
	pthread_mutex_unlock(&ep->qps_lock);
	pthread_mutex_unlock(&rnic_nic.lock);
	return qp;
}

static void wr_release(struct rnic_wr *wr)
{
	if (wr->sgl != wr->sgl_inline)
		free(wr->sgl);
	wr->sgl = wr->sgl_inline;
	if (wr->out.iov != wr->out.iov_inline)
		free(wr->out.iov);
	wr->out.iov = wr->out.iov_inline;
}

/* Drops the out-queue; true if a frame had started to leave (the stream is cut). */
static bool out_drop_all(struct rnic_qp *qp)
{
	bool cut = qp->out_head != NULL && qp->out_head->started;

	while (qp->out_head != NULL) {
		struct rnic_out *o = qp->out_head;

		qp->out_head = o->next;
		if (o->heap) {
			free(o->owned);
			free(o);
		}
	}
	qp->out_tail = NULL;
	return cut;
}

void rnic_qp_free(struct rnic_qp *qp)
{
	struct rnic_wr *lists[2] = {qp->wq_head, qp->free_wrs};

	RNIC_PATHS_EACH(flush, qp); /* ACKs still held go before the peer sees the main socket close */
	if (qp->fd >= 0) {
		rnic_nic_del_fd(qp->fd);
		close(qp->fd);
	}
	out_drop_all(qp);
	rnic_cma_drop(qp);
	rnic_qp_drop_hs(qp);
	RNIC_PATHS_EACH(free, qp);
	for (int i = 0; i < 2; i++)
		while (lists[i] != NULL) {
			struct rnic_wr *wr = lists[i];

			lists[i] = wr->next;
			wr_release(wr);
			free(wr);
		}
	if (qp->rx.stalled)
		__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
	if (qp->rx.recv != NULL) /* a receive being filled goes back to its owner, failed */
		rnic_ep_recv_done(qp->ep, NULL, qp->rx.recv, DOCA_ERROR_SHUTDOWN, (enum softhw_rnic_opcode)qp->rx.hdr.op,
				  0, 0);
	free(qp->rx.iov);
	pthread_mutex_destroy(&qp->lock);
	free(qp);
}

void rnic_qp_push_cqe(struct rnic_qp *qp, enum softhw_rnic_cqe_kind kind, doca_error_t status)
{
	struct softhw_rnic_cqe c = {
		.kind = kind, .qp = (struct softhw_rnic_qp *)qp, .qp_user = qp->user, .status = status};

	rnic_ep_push(qp->ep, &c);
}

/* Pops the oldest work request and queues its completion (owner: from qp_post). qp lock held. */
static void complete_head(struct rnic_qp *qp, doca_error_t status, uint64_t len, bool owner)
{
	struct rnic_wr *wr = qp->wq_head;
	struct softhw_rnic_cqe c = {
		.kind = SOFTHW_RNIC_CQE_WR,
		.qp = (struct softhw_rnic_qp *)qp,
		.qp_user = qp->user,
		.wr_id = wr->wr_id,
		.op = wr->op,
		.status = status,
		.len = len,
	};

	qp->wq_head = wr->next;
	if (qp->wq_head == NULL)
		qp->wq_tail = NULL;
	if (qp->wq_next == wr)
		qp->wq_next = wr->next;
	if (wr->sent && wr->path < RNIC_PATH_COUNT && qp->inflight[wr->path] > 0)
		qp->inflight[wr->path]--;
	wr_release(wr);
	wr->next = qp->free_wrs;
	qp->free_wrs = wr;
	if (owner)
		rnic_ep_push_owner(qp->ep, &c);
	else
		rnic_ep_push(qp->ep, &c);
}

/* Ends the connection's use: no more frames, queued work completes with `flush`. qp lock held. */
static void qp_shut(struct rnic_qp *qp, enum rnic_qp_state state, doca_error_t flush)
{
	qp->state = state;
	qp->deadline = 0;
	if (out_drop_all(qp))
		qp->broken = true; /* a frame cut short: only closing the socket keeps the peer sane */
	while (qp->wq_head != NULL)
		complete_head(qp, flush, 0, false);
	qp->wq_next = NULL;
	RNIC_PATHS_EACH(off, qp);
	memset(qp->inflight, 0, sizeof(qp->inflight));
	if (qp->rx.stalled) {
		qp->rx.stalled = false;
		__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
	}
	if (qp->rx.recv != NULL) {
		rnic_ep_recv_done(qp->ep, qp, qp->rx.recv, flush, (enum softhw_rnic_opcode)qp->rx.hdr.op, 0, 0);
		qp->rx.recv = NULL;
	}
	qp->rx.in_payload = false;
	qp->rx.hdr_got = 0;
	qp->close_asked = true;
	rnic_nic_kick(); /* the service thread closes the socket */
}

void rnic_qp_fail(struct rnic_qp *qp, enum softhw_rnic_cqe_kind kind, doca_error_t status, doca_error_t flush)
{
	if (qp->state == QP_ERROR || qp->state == QP_CLOSED)
		return;
	qp_shut(qp, kind == SOFTHW_RNIC_CQE_DISCONNECTED ? QP_CLOSED : QP_ERROR, flush);
	rnic_qp_push_cqe(qp, kind, status);
}

void rnic_qp_complete_head(struct rnic_qp *qp, doca_error_t status, uint64_t len)
{
	if (qp->wq_head == NULL)
		return;
	complete_head(qp, status, len, false);
	if (status != DOCA_SUCCESS) /* as verbs: the qp moves to error */
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, status, DOCA_ERROR_SHUTDOWN);
	else
		rnic_qp_pump(qp);
}

void rnic_qp_hangup(struct rnic_qp *qp)
{
	/*
	 * What the peer did on the other paths before it went counts, as the socket's bytes before
	 * EOF do: messages it consumed are ACKs, messages it published are delivered.
	 */
	if (qp->state == QP_RTS && !qp->broken)
		RNIC_PATHS_EACH(pump, qp);
	RNIC_PATHS_EACH(close, qp);
	rnic_nic_del_fd(qp->fd);
	close(qp->fd);
	qp->fd = -1;
	qp->events = 0;
	qp->broken = false;
	switch (qp->state) {
	case QP_RTS:
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_DISCONNECTED, DOCA_ERROR_CONNECTION_ABORTED,
			     DOCA_ERROR_CONNECTION_ABORTED);
		break;
	case QP_DIALING:
	case QP_HANDSHAKE:
	case QP_REQUEST:
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_CONNECTION_ABORTED, DOCA_ERROR_CONNECTION_ABORTED);
		break;
	default:
		break;
	}
}

/* ---- sending work ---- */

/* The path that carries this wr: the first in the registry that wants it (the last takes all). */
static int path_for(const struct rnic_qp *qp, const struct rnic_wr *wr)
{
	int p = 0;

	while (p < RNIC_PATH_COUNT - 1 && !rnic_paths[p]->wants(qp, wr))
		p++;
	return p;
}

/* Work in flight on a path other than p. */
static bool other_inflight(const struct rnic_qp *qp, int p)
{
	for (int i = 0; i < RNIC_PATH_COUNT; i++)
		if (i != p && qp->inflight[i] > 0)
			return true;
	return false;
}

/*
 * RC order across paths: a wr goes on its path only when nothing is outstanding on another
 * path; otherwise it waits (in post order) until the other drained.
 */
void rnic_qp_pump(struct rnic_qp *qp)
{
	while (qp->state == QP_RTS && qp->wq_next != NULL) {
		struct rnic_wr *wr = qp->wq_next;
		int p = path_for(qp, wr);
		const struct rnic_path_ops *ops = rnic_paths[p];

		if (other_inflight(qp, p))
			break;
		if (ops->can_post != NULL && !ops->can_post(qp)) {
			if (qp->inflight[p] == 0) {
				/* no room with nothing in flight: the peer broke the path; hang up */
				qp->broken = true;
				rnic_nic_kick();
			}
			break;
		}
		qp->wq_next = wr->next;
		wr->sent = true;
		wr->path = (uint8_t)p;
		qp->inflight[p]++;
		ops->post(qp, wr);
	}
}

void rnic_qp_established(struct rnic_qp *qp)
{
	qp->state = QP_RTS;
	qp->deadline = 0;
	if (qp->cm)
		rnic_qp_push_cqe(qp, SOFTHW_RNIC_CQE_ESTABLISHED, DOCA_SUCCESS);
	rnic_qp_pump(qp);
}

static struct rnic_wr *wr_get(struct rnic_qp *qp, uint32_t num_sge)
{
	struct rnic_wr *wr = qp->free_wrs;

	if (wr != NULL) {
		qp->free_wrs = wr->next;
	} else {
		wr = calloc(1, sizeof(*wr));
		if (wr == NULL)
			return NULL;
		wr->sgl = wr->sgl_inline;
		wr->out.iov = wr->out.iov_inline;
	}
	if (num_sge > RNIC_INLINE_SGE) {
		wr->sgl = malloc(num_sge * sizeof(*wr->sgl));
		wr->out.iov = malloc((num_sge + 1) * sizeof(*wr->out.iov));
		if (wr->sgl == NULL || wr->out.iov == NULL) {
			wr_release(wr);
			wr->next = qp->free_wrs;
			qp->free_wrs = wr;
			return NULL;
		}
	}
	return wr;
}

doca_error_t rnic_qp_post(struct softhw_rnic_qp *q, const struct softhw_rnic_wr *in)
{
	struct rnic_qp *qp = rnic_qp_of(q);
	doca_error_t status;
	struct rnic_wr *wr;

	pthread_mutex_lock(&qp->lock);
	if (qp->state == QP_ERROR || qp->state == QP_CLOSED || qp->state == QP_REQUEST) {
		pthread_mutex_unlock(&qp->lock);
		return DOCA_ERROR_NOT_CONNECTED;
	}
	wr = wr_get(qp, in->num_sge);
	if (wr == NULL) {
		pthread_mutex_unlock(&qp->lock);
		return DOCA_ERROR_NO_MEMORY;
	}
	wr->next = NULL;
	wr->wr_id = in->wr_id;
	wr->op = in->op;
	wr->rkey = in->rkey;
	wr->imm = in->imm;
	wr->arg0 = in->arg0;
	wr->arg1 = in->arg1;
	wr->seq = qp->next_seq++;
	wr->num_sge = in->num_sge;
	wr->bytes = 0;
	wr->sent = false;
	wr->cma = false;
	wr->path = RNIC_PATH_NONE;
	for (uint32_t i = 0; i < in->num_sge; i++) {
		wr->sgl[i] = in->sgl[i];
		wr->bytes += in->sgl[i].len;
	}
	if (rnic_cma_try(qp, wr, &status)) {
		/* done already: it still completes through the CQ, and a failure fails the qp */
		wr->sent = wr->cma = true;
		qp->wq_head = qp->wq_tail = wr;
		if (status == DOCA_SUCCESS)
			complete_head(qp, status, wr->bytes, true); /* nothing else was queued */
		else
			rnic_qp_complete_head(qp, status, 0);
		pthread_mutex_unlock(&qp->lock);
		return DOCA_SUCCESS;
	}
	if (qp->wq_tail != NULL)
		qp->wq_tail->next = wr;
	else
		qp->wq_head = wr;
	qp->wq_tail = wr;
	if (qp->wq_next == NULL)
		qp->wq_next = wr;
	if (qp->state == QP_RTS)
		rnic_qp_pump(qp);
	pthread_mutex_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

/* ---- connecting ---- */

doca_error_t rnic_qp_create(struct softhw_rnic_ep *e, void *user, struct softhw_rnic_qp **out)
{
	struct rnic_ep *ep = rnic_ep_of(e);
	struct rnic_qp *qp;
	struct rnic_peer self;

	if (ep == NULL || out == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	qp = rnic_qp_new(ep, user);
	if (qp == NULL)
		return DOCA_ERROR_NO_MEMORY;
	qp->next_own = ep->own_qps;
	ep->own_qps = qp;
	rnic_self_peer(ep, qp, &self);
	rnic_desc_encode(&self, qp->desc);
	*out = (struct softhw_rnic_qp *)qp;
	return DOCA_SUCCESS;
}

doca_error_t rnic_qp_export(struct softhw_rnic_qp *q, const void **blob, size_t *len)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	if (qp == NULL || blob == NULL || len == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*blob = qp->desc;
	*len = sizeof(qp->desc);
	return DOCA_SUCCESS;
}


/* Which side dials an RC connection: the smaller (host, pid, qp id). */
static bool we_dial(const struct rnic_qp *qp)
{
	const struct rnic_host *me = &rnic_nic.host, *them = &qp->peer.host;
	int c = memcmp(me->boot_id, them->boot_id, sizeof(me->boot_id));

	if (qp->ep->attr.dc || qp->peer.dc)
		return true; /* DC: the connecting side always dials */
	if (c != 0)
		return c < 0;
	if (me->netns != them->netns)
		return me->netns < them->netns;
	if (getpid() != qp->peer.pid)
		return getpid() < qp->peer.pid;
	return qp->id < qp->peer.qp_id;
}

doca_error_t rnic_qp_connect(struct softhw_rnic_qp *q, const void *blob, size_t len)
{
	struct rnic_qp *qp = rnic_qp_of(q);
	struct rnic_peer peer;
	const char *why = "";
	doca_error_t err = rnic_desc_decode(blob, len, &peer, &why);
	bool dial;

	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to connect RDMA queue pair: the remote connection descriptor is invalid (%s); pass the bytes doca_rdma_export() returned on the peer, unchanged",
			    why);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&qp->lock);
	if (qp->has_desc || qp->cm) {
		pthread_mutex_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	if (qp->has_peer) {
		/* the peer dialed in before we were given its descriptor: it must be the same one */
		bool ok = rnic_same_peer(&qp->peer, &peer);

		if (ok)
			qp->has_desc = true;
		pthread_mutex_unlock(&qp->lock);
		if (!ok)
			SDK_LOG_ERR("Failed to connect RDMA queue pair: another peer is connected to it already; pass the descriptor of the peer that connected");
		return ok ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
	}
	if (qp->state != QP_IDLE) {
		pthread_mutex_unlock(&qp->lock);
		return DOCA_ERROR_BAD_STATE;
	}
	qp->peer = peer;
	qp->has_peer = qp->has_desc = true;
	qp->local = rnic_same_host(&rnic_nic.host, &peer.host);
	dial = we_dial(qp);
	qp->dialer = dial;
	qp->state = dial ? QP_DIALING : QP_WAITING;
	if (dial)
		qp->deadline = rnic_now_ms() + RNIC_DIAL_TIMEOUT_MS;
	pthread_mutex_unlock(&qp->lock);
	if (dial) {
		pthread_mutex_lock(&rnic_nic.lock);
		qp->next_ctl = rnic_nic.dials;
		rnic_nic.dials = qp;
		pthread_mutex_unlock(&rnic_nic.lock);
		rnic_nic_kick();
	}
	return DOCA_SUCCESS;
}

/* TCP: no Nagle, and a vanished host is noticed within about 10 s. */
void rnic_tcp_tune(int fd)
{
	int one = 1, idle = 5, intvl = 1, cnt = 5;
	unsigned int user_timeout = 10000;

	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout, sizeof(user_timeout));
}

bool rnic_qp_dial_addr(struct rnic_qp *qp, struct sockaddr_storage *ss, socklen_t *len, bool *is_unix)
{
	char forced = rnic_transport_forced();

	*is_unix = false;
	if (qp->cm) {
		*ss = qp->peer_addr;
		*len = ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
		return true;
	}
	if (qp->local && forced != 't') {
		struct softhw_card card;
		char name[24];

		memset(&card, 0, sizeof(card));
		snprintf(card.instance, sizeof(card.instance), "%s", qp->peer.instance);
		snprintf(name, sizeof(name), "%d", (int)qp->peer.pid);
		*is_unix = true;
		return softhw_fabric_addr(&card, "rnic", name, (struct sockaddr_un *)ss, len) == DOCA_SUCCESS;
	}
	memset(ss, 0, sizeof(*ss));
	if (qp->peer.family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(qp->peer.tcp_port);
		memcpy(&sin->sin_addr, qp->peer.tcp_ip, 4);
		/* This host: a listener bound to a loopback address (a DPU function's 127.0.0.3) is
		 * reached there; one bound to every address (or a host address) through 127.0.0.1. */
		if (qp->local && (ntohl(sin->sin_addr.s_addr) >> 24) != 127)
			sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(*sin);
		return true;
	}
	if (qp->peer.family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(qp->peer.tcp_port);
		memcpy(&sin6->sin6_addr, qp->peer.tcp_ip, 16);
		*len = sizeof(*sin6);
		return true;
	}
	return false;
}

static void send_hello(struct rnic_qp *qp)
{
	struct rnic_hdr h = {.type = F_HELLO, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .cm = qp->cm};

	hello.want_id = qp->peer.qp_id;
	hello.want_token = qp->peer.qp_token;
	rnic_self_peer(qp->ep, qp, &hello.self);
	qp->state = QP_HANDSHAKE;
	rnic_send_ctl(qp, &h, &hello, sizeof(hello));
	rnic_qp_update_events(qp);
}

/*
 * Same host (unix): the process listening at the peer's point must be one we may talk to; an
 * impostor of another user may have bound the name first. Logged when not.
 */
static bool dial_peer_trusted(struct rnic_qp *qp)
{
	int domain = 0;
	socklen_t len = sizeof(domain);
	char what[96];

	if (getsockopt(qp->fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_UNIX)
		return true;
	snprintf(what, sizeof(what), "The RDMA point of process %d", (int)qp->peer.pid);
	return softhw_peer_check_listener(qp->fd, softhw_access_policy(), what, NULL) == DOCA_SUCCESS;
}

void rnic_qp_dial(struct rnic_qp *qp)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	bool is_unix;
	int err = 0;
	socklen_t elen = sizeof(err);

	if (qp->dead || qp->state != QP_DIALING)
		return;
	if (qp->fd >= 0) {
		/* EPOLLOUT on a connecting socket: done, one way or the other */
		if (getsockopt(qp->fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0)
			err = errno;
		if (err == 0 && !dial_peer_trusted(qp))
			err = EPERM;
		if (err == 0) {
			send_hello(qp);
			return;
		}
	} else if (!rnic_qp_dial_addr(qp, &ss, &len, &is_unix)) {
		err = EINVAL;
	} else {
		qp->fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (qp->fd < 0) {
			err = errno;
		} else {
			if (!is_unix)
				rnic_tcp_tune(qp->fd);
			rnic_nic_timed_add(qp);
			if (connect(qp->fd, (struct sockaddr *)&ss, len) == 0) {
				if (dial_peer_trusted(qp)) {
					send_hello(qp);
					return;
				}
				errno = EPERM;
			}
			err = errno;
			if (err == EINPROGRESS || err == EAGAIN) {
				rnic_qp_update_events(qp); /* EPOLLOUT says when */
				return;
			}
		}
	}
	if (qp->fd >= 0) {
		rnic_nic_del_fd(qp->fd);
		close(qp->fd);
		qp->fd = -1;
		qp->events = 0;
	}
	if (err == EPERM) { /* logged by the check: the listener is of another user */
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_NOT_PERMITTED, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	if (!qp->cm)
		SDK_LOG_ERR("RDMA connection to process %d failed: %s; the peer must be running with its doca_rdma context started",
			    (int)qp->peer.pid, strerror(err));
	rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_CONNECTION_ABORTED, DOCA_ERROR_CONNECTION_ABORTED);
}

void rnic_qp_hello_ack(struct rnic_qp *qp)
{
	struct rnic_hello hello;
	doca_error_t status = (doca_error_t)qp->rx.hdr.status;

	memcpy(&hello, qp->rx.hello, sizeof(hello));
	if (hello.magic != RNIC_HELLO_MAGIC) {
		rnic_qp_drop_hs(qp);
		qp->broken = true;
		return;
	}
	if (status != DOCA_SUCCESS) {
		rnic_qp_drop_hs(qp);
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, status, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	qp->peer = hello.self;
	qp->has_peer = true;
	qp->local = rnic_same_host(&rnic_nic.host, &hello.self.host);
	for (int p = 0; p < RNIC_PATH_COUNT; p++)
		if (rnic_paths[p]->join != NULL && !rnic_paths[p]->join(qp, qp->rx.hdr.flags)) {
			/* the acceptor uses that path already: without it we cannot talk */
			rnic_qp_drop_hs(qp);
			qp->broken = true;
			return;
		}
	rnic_qp_drop_hs(qp);
	rnic_qp_established(qp);
	if (qp->state == QP_RTS)
		RNIC_PATHS_EACH(dialed, qp); /* TCP: the message socket (msock.c) */
}

/* Answers a dialer: status and who we are. */
void rnic_qp_send_ack(struct rnic_qp *qp, doca_error_t status)
{
	struct rnic_hdr h = {.type = F_HELLO_ACK, .status = status, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .cm = qp->cm};

	rnic_self_peer(qp->ep, qp, &hello.self);
	rnic_send_ctl(qp, &h, &hello, sizeof(hello));
}

static void refuse(int fd)
{
	struct rnic_hdr h = {.type = F_HELLO_ACK, .status = DOCA_ERROR_NOT_PERMITTED, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION};
	struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};

	(void)sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

void rnic_peer_name(const struct sockaddr_storage *from, const struct rnic_hello *h, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";

	if (from->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)from;

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, (unsigned)ntohs(sin->sin_port));
	} else if (from->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)from;

		inet_ntop(AF_INET6, &sin6->sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, (unsigned)ntohs(sin6->sin6_port));
	} else {
		snprintf(buf, len, "a local process (it says pid %d)", (int)h->self.pid);
	}
}

/* A path answers the dialer itself (the ring: its descriptors ride along); false: none did. */
static bool paths_accept(struct rnic_qp *qp, const struct sockaddr_storage *from)
{
	for (int p = 0; p < RNIC_PATH_COUNT; p++)
		if (rnic_paths[p]->accept != NULL && rnic_paths[p]->accept(qp, from))
			return true;
	return false;
}

/* Service thread: an OOB dialer named one of our qps. */
static void accept_oob(int fd, const struct rnic_hello *h, const struct sockaddr_storage *from)
{
	static struct softhw_ratelimit rl_unknown, rl_token;
	struct rnic_qp *qp;
	char who[80];
	bool ok;

	pthread_mutex_lock(&rnic_nic.lock);
	qp = rnic_qp_find(h->want_id);
	if (qp == NULL) {
		pthread_mutex_unlock(&rnic_nic.lock);
		rnic_peer_name(from, h, who, sizeof(who));
		SOFTHW_LOG_LIMITED(&rl_unknown, SDK_LOG_WARN,
				   "RDMA: %s asked for queue pair %llu, which does not exist (destroyed?); connection dropped",
				   who, (unsigned long long)h->want_id);
		refuse(fd);
		return;
	}
	pthread_mutex_lock(&qp->lock);
	pthread_mutex_unlock(&rnic_nic.lock);
	if (qp->token != h->want_token) {
		/* Only a holder of the qp's descriptor knows the token: anyone else gets nothing. */
		pthread_mutex_unlock(&qp->lock);
		rnic_peer_name(from, h, who, sizeof(who));
		SOFTHW_LOG_LIMITED(&rl_token, SDK_LOG_ERR,
				   "RDMA: %s named queue pair %llu with a wrong token (it does not hold the qp's descriptor); connection dropped",
				   who, (unsigned long long)h->want_id);
		refuse(fd);
		return;
	}
	ok = !qp->dead && qp->fd < 0 && !qp->cm &&
	     (qp->state == QP_IDLE || (qp->state == QP_WAITING && (qp->ep->attr.dc || rnic_same_peer(&qp->peer, &h->self))));
	if (!ok) {
		pthread_mutex_unlock(&qp->lock);
		refuse(fd);
		return;
	}
	qp->fd = fd;
	if (qp->state == QP_IDLE || qp->ep->attr.dc) {
		qp->peer = h->self;
		qp->has_peer = true;
	}
	qp->local = rnic_same_host(&rnic_nic.host, &h->self.host);
	qp->peer_addr = *from;
	rnic_qp_update_events(qp);
	if (!paths_accept(qp, from))
		rnic_qp_send_ack(qp, DOCA_SUCCESS);
	rnic_qp_established(qp);
	pthread_mutex_unlock(&qp->lock);
}

void rnic_accept_hello(int fd, const struct rnic_hello *h, struct rnic_ep *cm_ep, const struct sockaddr_storage *from)
{
	struct rnic_qp *qp;

	if (cm_ep == NULL) {
		if (h->cm)
			close(fd);
		else
			accept_oob(fd, h, from);
		return;
	}
	if (!h->cm) {
		close(fd);
		return;
	}
	/* RDMA-CM: a new qp waits for the owner's accept or reject */
	qp = rnic_qp_new(cm_ep, NULL);
	if (qp == NULL) {
		close(fd);
		return;
	}
	pthread_mutex_lock(&qp->lock);
	qp->fd = fd;
	qp->cm = true;
	qp->peer = h->self;
	qp->has_peer = true;
	qp->local = rnic_same_host(&rnic_nic.host, &h->self.host);
	qp->peer_addr = *from;
	qp->state = QP_REQUEST;
	rnic_qp_update_events(qp);
	rnic_qp_push_cqe(qp, SOFTHW_RNIC_CQE_REQUEST, DOCA_SUCCESS);
	pthread_mutex_unlock(&qp->lock);
}

/* ---- ending ---- */

doca_error_t rnic_qp_disconnect(struct softhw_rnic_qp *q)
{
	struct rnic_qp *qp = rnic_qp_of(q);

	pthread_mutex_lock(&qp->lock);
	if (qp->state == QP_RTS) {
		struct rnic_hdr bye = {.type = F_BYE};

		qp_shut(qp, QP_CLOSED, DOCA_ERROR_SHUTDOWN);
		RNIC_PATHS_EACH(bye_note, qp, &bye);
		rnic_send_ctl(qp, &bye, NULL, 0); /* nothing if a frame was cut: the close says it */
	} else if (qp->state != QP_ERROR && qp->state != QP_CLOSED) {
		qp_shut(qp, QP_CLOSED, DOCA_ERROR_SHUTDOWN);
	}
	pthread_mutex_unlock(&qp->lock);
	return DOCA_SUCCESS;
}

void rnic_qp_destroy(struct softhw_rnic_qp *q)
{
	struct rnic_qp *qp = rnic_qp_of(q);
	struct rnic_ep *ep;

	if (qp == NULL)
		return;
	ep = qp->ep;
	for (struct rnic_qp **pp = &ep->own_qps; *pp != NULL; pp = &(*pp)->next_own)
		if (*pp == qp) {
			*pp = qp->next_own;
			break;
		}
	pthread_mutex_lock(&rnic_nic.lock);
	for (struct rnic_qp **pp = &rnic_nic.qps; *pp != NULL; pp = &(*pp)->next_all)
		if (*pp == qp) {
			*pp = qp->next_all;
			break;
		}
	pthread_mutex_lock(&ep->qps_lock);
	for (struct rnic_qp **pp = &ep->qps; *pp != NULL; pp = &(*pp)->next_ep)
		if (*pp == qp) {
			*pp = qp->next_ep;
			break;
		}
	pthread_mutex_unlock(&ep->qps_lock);
	pthread_mutex_lock(&qp->lock);
	if (qp->state == QP_RTS)
		RNIC_PATHS_EACH(flush, qp); /* the ACKs of what we received count before the BYE or the close */
	if (qp->state == QP_RTS && qp->out_head == NULL) {
		struct rnic_hdr bye = {.type = F_BYE};

		RNIC_PATHS_EACH(bye_note, qp, &bye);
		rnic_send_ctl(qp, &bye, NULL, 0); /* best effort: else the peer sees the socket close */
	}
	qp->dead = true;
	pthread_mutex_unlock(&qp->lock);
	qp->next_ctl = rnic_nic.graveyard;
	rnic_nic.graveyard = qp;
	rnic_nic_reap_wait();
	pthread_mutex_unlock(&rnic_nic.lock);
	rnic_ep_forget_qp(ep, qp);
}

/*
 * A message found no posted receive: the first time, start the sender's retry clock (the
 * service thread keeps the time and retries on a posted receive); later, true once the
 * sender's retries are exhausted (NAK it). `stalled` and `deadline` belong to the path (ring
 * or message socket) the message waits on.
 */
bool rnic_rnr_exhausted(struct rnic_qp *qp, bool *stalled, uint64_t *deadline)
{
	uint64_t now = rnic_now_ms();

	if (!*stalled) {
		*stalled = true;
		*deadline = qp->peer.rnr_retry == RNIC_RNR_FOREVER
				    ? 0
				    : now + ((uint64_t)qp->peer.rnr_retry + 1) * RNIC_RNR_INTERVAL_MS;
		__atomic_fetch_add(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
		rnic_nic_kick();
		return false;
	}
	return *deadline != 0 && now >= *deadline;
}

void rnic_qp_log_broken_peer(const struct rnic_qp *qp, const char *path)
{
	SDK_LOG_ERR("RDMA connection to process %d dropped: the peer broke the rules of the connection's %s "
		    "(a corrupted record or counter); only this connection ends: check the peer process",
		    (int)qp->peer.pid, path);
}

void rnic_rnr_unstall(struct rnic_qp *qp, bool *stalled)
{
	if (*stalled) {
		*stalled = false;
		__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
	}
}

void rnic_qp_drop_hs(struct rnic_qp *qp)
{
	for (int i = 0; i < qp->hs_nfds; i++)
		close(qp->hs_fds[i]);
	qp->hs_nfds = 0;
}

bool rnic_qp_paths_timed(const struct rnic_qp *qp)
{
	for (int p = 0; p < RNIC_PATH_COUNT; p++)
		if (rnic_paths[p]->timed(qp))
			return true;
	return false;
}
