/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stream as the connection (stream.h): dial, hello, accept, the qp's socket and its
 * events, and the stream's table. The qp core asks for these through the connection ops
 * (path.h); the frames themselves are io.c's, the listeners listen.c's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/fabric/fabric.h"
#include "softhw/fabric/peer.h"
#include "softhw/rnic/stream.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_STREAM);

/* An IPv4 or IPv6 address as 16 bytes (IPv4 as ::ffff:a.b.c.d); false for other families. */
static bool addr16(const struct sockaddr_storage *ss, uint8_t a[16])
{
	static const uint8_t v4mapped[12] = {[10] = 0xff, [11] = 0xff};

	if (ss->ss_family == AF_INET) {
		memcpy(a, v4mapped, 12);
		memcpy(a + 12, &((const struct sockaddr_in *)ss)->sin_addr, 4);
		return true;
	}
	if (ss->ss_family == AF_INET6) {
		memcpy(a, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
		return true;
	}
	return false;
}

/* The address of a connected socket's end (ours, or the peer's). */
static bool end_addr(int fd, bool peer, uint8_t a[16])
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	return (peer ? getpeername(fd, (struct sockaddr *)&ss, &len) : getsockname(fd, (struct sockaddr *)&ss, &len)) == 0 &&
	       addr16(&ss, a);
}

static bool loopback16(const uint8_t a[16])
{
	static const uint8_t v4lo[13] = {[10] = 0xff, [11] = 0xff, [12] = 127}; /* ::ffff:127.0.0.0/104 */
	static const uint8_t v6lo[16] = {[15] = 1};                             /* ::1 */

	return memcmp(a, v4lo, sizeof(v4lo)) == 0 || memcmp(a, v6lo, sizeof(v6lo)) == 0;
}

bool rnic_tcp_ends_local(const uint8_t self[16], const uint8_t peer[16])
{
	return loopback16(peer) || memcmp(peer, self, 16) == 0;
}

/*
 * Reno for a connection whose two ends are this host's network stack: no link lies between to
 * pace for, and a pacing congestion control (BBR, the default on some hosts) held 64 KiB writes
 * on loopback at 1,450-3,200 MB/s in 5 to 9 runs of 12, where reno gives 4,500-6,500
 * (docs/fabric.md). Every kernel lets an unprivileged socket choose reno. Across hosts (and
 * network namespaces) the host's choice stays.
 */
static void use_reno(int fd)
{
	char cc[16] = "";
	socklen_t len = sizeof(cc) - 1;

	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &len) == 0 && strcmp(cc, "reno") == 0)
		return;
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, "reno", 4) != 0)
		SDK_LOG_DBG("a same-host TCP connection keeps its congestion control (%s): %s", cc[0] ? cc : "?",
			    strerror(errno));
}

/* Once connected: our own address at both ends is this host too (the kernel routes it over lo). */
void rnic_tcp_connected(int fd)
{
	uint8_t self[16], peer[16];

	if (end_addr(fd, false, self) && end_addr(fd, true, peer) && rnic_tcp_ends_local(self, peer))
		use_reno(fd);
}

/*
 * TCP: no Nagle, and a vanished host is noticed within about 10 s. A dialer (`to`: where it
 * connects) to a loopback address takes reno before connect(), so that BBR never starts.
 */
void rnic_tcp_tune(int fd, const struct sockaddr_storage *to)
{
	int one = 1, idle = 5, intvl = 1, cnt = 5;
	unsigned int user_timeout = 10000;
	uint8_t a[16];

	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	(void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout, sizeof(user_timeout));
	if (to != NULL && addr16(to, a) && loopback16(a))
		use_reno(fd);
}

void rnic_stream_events(struct rnic_qp *qp)
{
	uint32_t want = EPOLLRDHUP;
	struct epoll_event ev;
	struct rnic_stream *s = rnic_stream_of(qp);

	if (s->fd < 0)
		return;
	if (!s->rx.stalled && !s->owner_reads)
		want |= EPOLLIN;
	if (s->out_head != NULL || qp->state == QP_DIALING)
		want |= EPOLLOUT;
	if (want == s->events)
		return;
	ev.events = want;
	ev.data.u64 = (uint64_t)(uintptr_t)&s->link | RNIC_TAG_PATH;
	if (epoll_ctl(rnic_nic.epfd, EPOLL_CTL_MOD, s->fd, &ev) != 0)
		(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_ADD, s->fd, &ev);
	s->events = want;
}

/* ---- dialing ---- */

/* Whether an interface of this network namespace has the address. */
static bool ipv4_is_ours(struct in_addr a)
{
	struct ifaddrs *ifs = NULL;
	bool ours = false;

	if (getifaddrs(&ifs) != 0)
		return false;
	for (struct ifaddrs *i = ifs; i != NULL && !ours; i = i->ifa_next)
		ours = i->ifa_addr != NULL && i->ifa_addr->sa_family == AF_INET &&
		       ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr == a.s_addr;
	freeifaddrs(ifs);
	return ours;
}

bool rnic_stream_dial_addr(struct rnic_qp *qp, struct sockaddr_storage *ss, socklen_t *len, bool *is_unix)
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
		/*
		 * This host: a listener bound to a loopback address (a DPU function's 127.0.0.3) or to
		 * one of our addresses (its card's, configured here) is reached there; one bound to
		 * every address, advertising a card's address that is not configured here, through
		 * 127.0.0.1.
		 */
		if (qp->local && (ntohl(sin->sin_addr.s_addr) >> 24) != 127 && !ipv4_is_ours(sin->sin_addr))
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
	if (qp->cm) /* the request is out: the peer's application answers it, or not, in its time */
		qp->deadline = rnic_now_ms() + RNIC_CM_ANSWER_MS;
	rnic_send_ctl(qp, &h, &hello, sizeof(hello));
	rnic_stream_events(qp);
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
	int fd = rnic_stream_of(qp)->fd;

	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0 || domain != AF_UNIX)
		return true;
	snprintf(what, sizeof(what), "The RDMA point of process %d", (int)qp->peer.pid);
	return softhw_peer_check_listener(fd, softhw_access_policy(), what, NULL) == DOCA_SUCCESS;
}

static void stream_dial(struct rnic_qp *qp)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;
	bool is_unix;
	int err = 0;
	socklen_t elen = sizeof(err);
	struct rnic_stream *s = rnic_stream_of(qp);

	if (qp->dead || qp->state != QP_DIALING)
		return;
	if (s->fd >= 0) {
		/* EPOLLOUT on a connecting socket: done, one way or the other */
		if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0)
			err = errno;
		if (err == 0 && !dial_peer_trusted(qp))
			err = EPERM;
		if (err == 0) {
			rnic_tcp_connected(s->fd);
			send_hello(qp);
			return;
		}
	} else if (!rnic_stream_dial_addr(qp, &ss, &len, &is_unix)) {
		err = EINVAL;
	} else {
		s->fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (s->fd < 0) {
			err = errno;
		} else {
			if (!is_unix)
				rnic_tcp_tune(s->fd, &ss);
			rnic_nic_timed_add(qp);
			if (connect(s->fd, (struct sockaddr *)&ss, len) == 0) {
				if (dial_peer_trusted(qp)) {
					rnic_tcp_connected(s->fd);
					send_hello(qp);
					return;
				}
				errno = EPERM;
			}
			err = errno;
			if (err == EINPROGRESS || err == EAGAIN) {
				rnic_stream_events(qp); /* EPOLLOUT says when */
				return;
			}
		}
	}
	if (s->fd >= 0) {
		rnic_nic_del_fd(s->fd);
		close(s->fd);
		s->fd = -1;
		s->events = 0;
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

/* Closes descriptors a hello ack brought that no path took. */
static void drop_hs(struct rnic_stream *s)
{
	for (int i = 0; i < s->hs_nfds; i++)
		close(s->hs_fds[i]);
	s->hs_nfds = 0;
}

void rnic_stream_hello_ack(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	struct rnic_hello hello;
	doca_error_t status = (doca_error_t)s->rx.hdr.status;

	memcpy(&hello, s->rx.hello, sizeof(hello));
	if (hello.magic != RNIC_HELLO_MAGIC) {
		drop_hs(s);
		qp->broken = true;
		return;
	}
	if (status != DOCA_SUCCESS) {
		drop_hs(s);
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, status, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	if (!rnic_qp_answered(qp, &hello.self, s->rx.hdr.flags))
		qp->broken = true;
	drop_hs(s); /* what no path's join took */
}

/* ---- accepting ---- */

/* Answers a dialer: status and who we are. */
static void send_ack(struct rnic_qp *qp, doca_error_t status)
{
	struct rnic_hdr h = {.type = F_HELLO_ACK, .status = status, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .cm = qp->cm};

	rnic_self_peer(qp->ep, qp, &hello.self);
	rnic_send_ctl(qp, &h, &hello, sizeof(hello));
}

static void refuse(int fd, doca_error_t why)
{
	struct rnic_hdr h = {.type = F_HELLO_ACK, .status = why, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION};
	struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};

	(void)sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	close(fd);
}

/* A path answers the dialer itself (the ring: its descriptors ride along); false: none did. */
static bool paths_accept(struct rnic_qp *qp, const struct sockaddr_storage *from)
{
	for (int p = 0; p < RNIC_PATH_COUNT; p++)
		if (rnic_paths[p]->accept != NULL && rnic_paths[p]->accept(qp, from))
			return true;
	return false;
}

void rnic_stream_accept(int fd, const struct rnic_hello *h, struct rnic_ep *cm_ep, const struct sockaddr_storage *from)
{
	struct rnic_qp *qp;
	doca_error_t why;

	if ((cm_ep != NULL) != (h->cm != 0)) {
		close(fd); /* an OOB hello on a CM listener, or the other way round */
		return;
	}
	if (cm_ep != NULL) {
		/* RDMA-CM: a new qp waits for the owner's accept or reject */
		qp = rnic_qp_requested(cm_ep, h, from);
		if (qp == NULL) {
			close(fd);
			return;
		}
		rnic_stream_of(qp)->fd = fd;
		rnic_stream_events(qp);
		softhw_bias_unlock(&qp->lock);
		return;
	}
	qp = rnic_qp_accepting(RNIC_PATH_STREAM, h, from, &why);
	if (qp == NULL) {
		refuse(fd, why);
		return;
	}
	rnic_stream_of(qp)->fd = fd;
	rnic_stream_events(qp);
	if (!paths_accept(qp, from))
		send_ack(qp, DOCA_SUCCESS);
	rnic_qp_established(qp);
	softhw_bias_unlock(&qp->lock);
}

/* ---- the connection ops ---- */

/* The stream connects every ep (the registry's last path). */
static bool stream_serves(const struct rnic_ep *ep)
{
	(void)ep;
	return true;
}

static bool stream_open(struct rnic_qp *qp)
{
	struct rnic_stream *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return false;
	s->link.qp = qp;
	s->link.id = RNIC_PATH_STREAM;
	s->fd = -1;
	qp->path[RNIC_PATH_STREAM] = s;
	return true;
}

static void stream_answer(struct rnic_qp *qp, doca_error_t status)
{
	send_ack(qp, status);
	if (status != DOCA_SUCCESS) {
		rnic_stream_of(qp)->close_asked = true; /* once the answer left */
		rnic_nic_kick();
	}
}

static void stream_bye(struct rnic_qp *qp)
{
	struct rnic_hdr bye = {.type = F_BYE};

	if (rnic_stream_of(qp)->out_head != NULL)
		return;
	RNIC_PATHS_EACH(bye_note, qp, &bye); /* what the other paths delivered: their ACKs may come after */
	rnic_send_ctl(qp, &bye, NULL, 0);
}

static void stream_shut(struct rnic_qp *qp, doca_error_t flush)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	if (rnic_out_drop_all(s))
		qp->broken = true; /* a frame cut short: only closing the socket keeps the peer sane */
	if (s->rx.stalled) {
		s->rx.stalled = false;
		__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
	}
	if (s->rx.recv != NULL) {
		rnic_ep_recv_done(qp->ep, qp, s->rx.recv, flush, (enum softhw_rnic_opcode)s->rx.hdr.op, 0, 0);
		s->rx.recv = NULL;
	}
	s->rx.in_payload = false;
	s->rx.hdr_got = 0;
	s->rx.stage_off = s->rx.stage_len = 0;
	s->close_asked = true;
	rnic_nic_kick(); /* the service thread closes the socket */
}

static bool stream_up(const struct rnic_qp *qp)
{
	return rnic_stream_of(qp)->fd >= 0;
}

static bool stream_must_end(const struct rnic_qp *qp)
{
	const struct rnic_stream *s = rnic_stream_of(qp);

	return s->fd >= 0 && (qp->broken || s->rx.failed || (s->close_asked && s->out_head == NULL));
}

/* ---- the path ops ---- */

static void stream_event(struct rnic_qp *qp, uint32_t events)
{
	struct rnic_stream *s = rnic_stream_of(qp);
	bool alive = true;

	if (events & EPOLLOUT) {
		softhw_bias_lock(&qp->lock);
		if (qp->state == QP_DIALING)
			stream_dial(qp); /* the connect finished (or failed) */
		else if (!qp->dead)
			rnic_out_flush(qp);
		softhw_bias_unlock(&qp->lock);
	}
	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
		alive = rnic_rx_ready(qp);
	softhw_bias_lock(&qp->lock);
	if (qp->dead) {
		softhw_bias_unlock(&qp->lock);
		return;
	}
	if (alive && (qp->broken || (s->close_asked && s->out_head == NULL)) && s->fd >= 0)
		alive = false;
	if (!alive && s->fd >= 0)
		rnic_qp_hangup(qp);
	softhw_bias_unlock(&qp->lock);
}

/* The service thread reads the stream itself (stream_event). */
static void stream_nothing(struct rnic_qp *qp)
{
	(void)qp;
}

/* The service thread reads again on EPOLLIN (what waits there wakes it at once). qp lock held. */
static void owner_stops(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	__atomic_store_n(&s->owner_reads, false, __ATOMIC_RELAXED);
	rnic_stream_events(qp);
}

/*
 * Owner (no lock): a qp with work in flight on the stream has its answers read here, by the
 * polling owner, without the service thread's wake-up and hand-over. From its first such read
 * the owner reads the socket (everything on it, requests too) and the service thread stops
 * watching EPOLLIN: it looks every RNIC_OWNER_MS whether the owner still polls and takes the
 * socket back when it does not (or at once when it arms), as the message socket does.
 */
static void stream_poll(struct rnic_ep *ep)
{
	/*
	 * The out-of-band qps that have sent: the owner's own, walked without a lock (ring.c), so
	 * that a qp with nothing in flight costs two loads per poll and one that never sent none.
	 * RDMA-CM qps are read by the service thread.
	 */
	for (struct rnic_qp *qp = rnic_ep_up_qps(ep, RNIC_PATH_STREAM, false); qp != NULL; qp = qp->next_up[RNIC_PATH_STREAM]) {
		struct rnic_stream *s = qp->path[RNIC_PATH_STREAM]; /* set before the qp is listed */

		if (s == NULL ||
		    (__atomic_load_n(&qp->inflight[RNIC_PATH_STREAM], __ATOMIC_RELAXED) == 0 &&
		     !__atomic_load_n(&s->owner_reads, __ATOMIC_RELAXED)) ||
		    !softhw_bias_trylock(&qp->lock))
			continue;
		if (!qp->dead && qp->state == QP_RTS && s->fd >= 0 && !s->rx.stalled && !s->rx.failed &&
		    (qp->inflight[RNIC_PATH_STREAM] > 0 || s->owner_reads)) {
			s->owner_polls++;
			rnic_rx_poll(qp);
			/*
			 * Bulk data (a READ's answer, a write waiting to leave) is shared with the service
			 * thread: it reads (and writes) while the owner handles completions. Small answers
			 * are the owner's alone.
			 */
			if (s->rx.bulk || s->out_head != NULL) {
				s->rx.bulk = false;
				s->bulk_polls = RNIC_BULK_POLLS;
				if (s->owner_reads)
					owner_stops(qp);
			} else if (s->bulk_polls > 0) {
				s->bulk_polls--;
			} else if (!s->owner_reads && qp->state == QP_RTS && s->fd >= 0 && !s->rx.failed) {
				__atomic_store_n(&s->owner_reads, true, __ATOMIC_RELAXED);
				s->owner_seen = s->owner_polls;
				s->owner_check = rnic_now_ms() + RNIC_OWNER_MS;
				rnic_stream_events(qp);
				rnic_nic_timed_add(qp); /* wakes the service thread: it keeps the look's time */
			}
		}
		softhw_bias_unlock(&qp->lock);
	}
}

/* The owner goes to sleep: its sockets go back to the service thread. */
static bool stream_arm(struct rnic_ep *ep)
{
	softhw_lock(&ep->qps_lock);
	for (struct rnic_qp *qp = ep->qps; qp != NULL; qp = qp->next_ep) {
		struct rnic_stream *s = qp->path[RNIC_PATH_STREAM];

		if (s == NULL || !__atomic_load_n(&s->owner_reads, __ATOMIC_RELAXED))
			continue;
		softhw_bias_lock(&qp->lock);
		if (s->owner_reads)
			owner_stops(qp);
		softhw_bias_unlock(&qp->lock);
	}
	softhw_unlock(&ep->qps_lock);
	return false;
}

static void stream_off(struct rnic_qp *qp)
{
	(void)qp; /* the connection's shut op follows */
}

/* The hang-up: the socket closes. (A qp of another connection has no stream: nothing.) */
static void stream_close(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	if (s == NULL)
		return;
	if (s->fd >= 0) {
		rnic_nic_del_fd(s->fd);
		close(s->fd);
	}
	s->fd = -1;
	s->events = 0;
}

static void stream_free(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	if (s == NULL)
		return;
	stream_close(qp);
	rnic_out_drop_all(s);
	drop_hs(s);
	if (s->rx.stalled)
		__atomic_fetch_sub(&qp->ep->rnr_waiting, 1, __ATOMIC_RELEASE);
	if (s->rx.recv != NULL) /* a receive being filled goes back to its owner, failed */
		rnic_ep_recv_done(qp->ep, NULL, s->rx.recv, DOCA_ERROR_SHUTDOWN, (enum softhw_rnic_opcode)s->rx.hdr.op,
				  0, 0);
	free(s->rx.iov);
	free(s->rx.stage);
	if (s->polled)
		rnic_path_up(qp, RNIC_PATH_STREAM, false);
	qp->path[RNIC_PATH_STREAM] = NULL;
	free(s);
}

static void stream_atfork(struct rnic_qp *qp)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	if (s != NULL && s->fd >= 0)
		close(s->fd);
}

/* A request waits for a receive (target.c): the service thread retries it on time or when woken. */
/* Or the polling owner reads the socket: the service thread looks whether it still does. */
static bool stream_timed(const struct rnic_qp *qp)
{
	const struct rnic_stream *s = rnic_stream_of(qp);

	return s != NULL && (s->rx.stalled || s->owner_reads);
}

static uint64_t stream_next_time(const struct rnic_qp *qp)
{
	const struct rnic_stream *s = rnic_stream_of(qp);
	uint64_t t = UINT64_MAX;

	if (s != NULL && s->rx.stalled)
		t = s->rx.rnr_deadline;
	if (s != NULL && s->owner_reads && s->owner_check < t)
		t = s->owner_check;
	return t;
}

static void stream_timer(struct rnic_qp *qp, uint64_t now, bool woken)
{
	struct rnic_stream *s = rnic_stream_of(qp);

	if (s == NULL)
		return;
	if (s->owner_reads && s->owner_check <= now) {
		if (s->owner_polls == s->owner_seen || s->fd < 0 || qp->state != QP_RTS) {
			owner_stops(qp); /* it stopped polling: what arrives wakes us again */
		} else {
			s->owner_seen = s->owner_polls;
			s->owner_check = now + RNIC_OWNER_MS;
		}
	}
	if (s->rx.stalled && (woken || s->rx.rnr_deadline <= now))
		rnic_rx_retry(qp);
}

static void stream_nic_event(struct rnic_nic_link *link, uint32_t events)
{
	rnic_listen_event(link, events);
}

const struct rnic_path_ops rnic_stream_path = {
	.name = "stream",
	.serves = stream_serves,
	.open = stream_open,
	.dial = stream_dial,
	.answer = stream_answer,
	.bye = stream_bye,
	.shut = stream_shut,
	.up = stream_up,
	.must_end = stream_must_end,
	.nic_listen = rnic_listen_oob,
	.describe = rnic_listen_describe,
	.cm_listen = rnic_listen_cm,
	.cm_unlisten = rnic_unlisten_cm,
	.ep_gone = rnic_listen_ep_gone,
	.nic_event = stream_nic_event,
	.nic_next_time = rnic_listen_next_time,
	.nic_timer = rnic_listen_timer,
	.nic_reap = rnic_listen_reap,
	.nic_stop = rnic_listen_stop,
	.nic_atfork = rnic_listen_atfork,
	.post = rnic_stream_post,
	.pump = stream_nothing,
	.event = stream_event,
	.poll = stream_poll,
	.arm = stream_arm,
	.timed = stream_timed,
	.next_time = stream_next_time,
	.timer = stream_timer,
	.off = stream_off,
	.close = stream_close,
	.free = stream_free,
	.atfork = stream_atfork,
};
