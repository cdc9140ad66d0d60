/* SPDX-License-Identifier: BSD-3-Clause */
/* The RoCEv2 UDP port of one process on one IPv4 address (see roce_port.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/udp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"
#include "softhw/rnic/roce_port.h"
#include "softhw/rnic/roce_reg.h"

#define QP_BUCKETS 1024
#define MMSG_BATCH 32       /* datagrams per recvmmsg or sendmmsg */
#define SOCKET_BUDGET 256   /* datagrams read from one socket per roce_port_recv: others get their turn */
#define MAX_CONNS (2 * ROCE_REG_OWNERS)
#define RCVBUF (4 << 20)    /* asked for; the kernel caps it at net.core.rmem_max */
#define FWD_MAGIC 0x52464744u
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103     /* linux/udp.h: the GSO segment size of a send (Linux >= 4.18) */
#endif
#ifndef UDP_GRO
#define UDP_GRO 104         /* linux/udp.h: receive coalesced datagrams of a flow at once (Linux >= 5.0) */
#endif
#define GRO_BUF 65536       /* one coalesced receive: at most a UDP datagram's size */
#define GRO_BUFS 2          /* coalesced receives per recvmmsg */
#define GRO_FLAT_MIN 32     /* a read of this many datagrams, none coalesced: the sender does not coalesce */
#define GRO_FLAT_OFF 16     /* and so many such reads in a row: UDP_GRO off */
#define DEAD_KEEP 64        /* dead owners' DREQs (to resend, to answer the peer) and REQs out (to refuse the REP) */
#define DEAD_RESEND_MS 500  /* short: a peer that lost the first one is still waiting for nothing */
#define DEAD_RESENDS 2
#define DEAD_LINGER_MS 2000 /* after the last send: the peer's DREQ (crossing ours) still gets a DREP */
#define DEAD_REQ_MS 10000   /* a dead owner's REQ: its peer's REP (resent every 4 s by Linux) still gets a REJ */

/* epoll tags: kind in the high half, a QPN or descriptor in the low one */
enum { TAG_SHARED = 1, TAG_LISTEN, TAG_CONN, TAG_QP };
#define TAG(kind, v) ((uint64_t)(kind) << 32 | (uint32_t)(v))

/* What precedes a forwarded datagram on the unix channel. */
struct fwd_hdr {
	uint32_t magic;
	uint32_t qpn;
	uint32_t from_ip;   /* network order, as in sockaddr_in */
	uint16_t from_port; /* network order */
	uint16_t pad;
};

struct rp_qp {
	uint32_t qpn;
	int tx_fd;          /* unconnected, bound to <ip>:sport; -1: send from the shared one */
	uint16_t sport;     /* roce_udp_sport(qpn), or what roce_port_qp_set_sport chose */
	int rx_fd;          /* bound to <ip>:port, connected to the peer; -1: not yet */
	bool gro;           /* rx_fd has UDP_GRO: a receive may hold several datagrams */
	bool gro_read;      /* rx_fd is read for coalesced receives (until drained once after UDP_GRO went off) */
	unsigned gro_flat;  /* drain_gro calls in a row that found a queue of lone datagrams */
	uint32_t peer_ip;   /* host order, where rx_fd is connected */
	uint16_t peer_port;
	struct rp_qp *next;
};

struct roce_port {
	struct roce_reg *reg;
	uint32_t ip;        /* host order */
	uint16_t port;
	int ep;
	int ufd;            /* the shared unconnected socket */
	int lfd;            /* forwarding listener */
	char lpath[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fwd[ROCE_REG_OWNERS]; /* our connections to other owners, -1 */
	int conns[MAX_CONNS];     /* accepted forwarding connections */
	unsigned nconns;
	unsigned lfd_back_ms;     /* accept failing for want of descriptors: the listener's pause, doubling */
	uint64_t lfd_back_until;  /* the listener is out of the epoll set until then (ms; 0: in it; atomic) */
	int lfd_paused_new;       /* a pause the service thread may not know of yet (roce_port_take_pause; atomic) */
	bool no_gso;        /* a UDP_SEGMENT send failed: datagrams go one by one (atomic) */
	uint8_t *gro;       /* GRO_BUFS x GRO_BUF bytes: coalesced receives, cut into msgs (NULL: no UDP_GRO) */
	struct rp_qp *qps[QP_BUCKETS];
	uint32_t cm_psn;    /* BTH PSN of the CM messages sent for dead owners */
	pthread_mutex_t dead_mu; /* dead[]: the service thread's timer and whoever reclaims */
	struct dead_dreq {
		struct roce_reg_conn c;
		uint64_t tid;
		uint64_t due;     /* ms (CLOCK_MONOTONIC): the next resend, or when the record goes (left 0) */
		uint8_t left;     /* resends left; 0: answered or done, kept only to answer the peer's DREQ
				     (c.state REQ: its REP) */
	} dead[DEAD_KEEP];
	unsigned ndead;
	struct roce_port_stats st;
};

#define STAT_ADD(p, field) __atomic_fetch_add(&(p)->st.field, 1, __ATOMIC_RELAXED)

static struct rp_qp *qp_find(const struct roce_port *p, uint32_t qpn)
{
	for (struct rp_qp *q = p->qps[(qpn & 0xffff) % QP_BUCKETS]; q; q = q->next)
		if (q->qpn == qpn)
			return q;
	return NULL;
}

static struct sockaddr_in sin4(uint32_t ip, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(ip) };

	return a;
}

/* A UDP socket in the port group of ip:port (SO_REUSEPORT), DF set so IPv4 ID is 0 when unconnected. */
static int udp_socket(uint32_t ip, uint16_t port, int rcvbuf)
{
	struct sockaddr_in a = sin4(ip, port);
	int one = 1, pmtu = IP_PMTUDISC_DO;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) != 0 ||
	    setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)) != 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int ep_add(struct roce_port *p, int fd, uint64_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };

	return epoll_ctl(p->ep, EPOLL_CTL_ADD, fd, &ev);
}

static void ep_del_close(struct roce_port *p, int fd)
{
	(void)epoll_ctl(p->ep, EPOLL_CTL_DEL, fd, NULL);
	close(fd);
}

struct dead_trigger;
static void end_orphans(struct roce_port *p, const struct dead_trigger *t);
static uint64_t new_tid(uint32_t local_id);

/* ---- open and close ---- */

doca_error_t roce_port_open(const char *run_dir, uint32_t ip, uint16_t udp_port, struct roce_port **out,
			    const char **why)
{
	struct roce_port *p = calloc(1, sizeof(*p));
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	doca_error_t err;

	*out = NULL;
	if (p == NULL) {
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	p->ip = ip;
	p->port = udp_port ? udp_port : ROCE_UDP_PORT;
	p->ep = p->ufd = p->lfd = -1;
	pthread_mutex_init(&p->dead_mu, NULL);
	p->no_gso = getenv("SOFTDOCA_ROCE_NO_GSO") != NULL; /* to compare, and to test the fallback */
	for (int i = 0; i < ROCE_REG_OWNERS; i++)
		p->fwd[i] = -1;
	err = roce_reg_open(run_dir, ip, true, &p->reg, why);
	if (err != DOCA_SUCCESS)
		goto fail;
	err = DOCA_ERROR_OPERATING_SYSTEM;
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	if (p->ep < 0) {
		*why = "epoll_create1 failed";
		goto fail;
	}
	p->ufd = udp_socket(ip, p->port, RCVBUF);
	if (p->ufd < 0) {
		*why = errno == EADDRINUSE ? "the UDP port is taken on this address by another user or by a socket without "
					     "SO_REUSEPORT (rdma_rxe, another program)"
					   : "cannot bind the UDP port on this address (is it a local address?)";
		err = errno == EADDRINUSE ? DOCA_ERROR_IN_USE : DOCA_ERROR_OPERATING_SYSTEM;
		goto fail;
	}
	if (!roce_reg_owner_path(p->reg, roce_reg_self(p->reg), un.sun_path, sizeof(un.sun_path))) {
		*why = "the run directory path is too long for a unix socket; set SOFTDOCA_RUN_DIR to a shorter one";
		goto fail;
	}
	memcpy(p->lpath, un.sun_path, sizeof(p->lpath));
	(void)unlink(un.sun_path); /* a leftover of a dead process that had our owner id */
	p->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (p->lfd < 0 || bind(p->lfd, (struct sockaddr *)&un, sizeof(un)) != 0 || listen(p->lfd, 128) != 0) {
		*why = "cannot listen on the forwarding socket in the run directory";
		goto fail;
	}
	if (ep_add(p, p->ufd, TAG(TAG_SHARED, 0)) != 0 || ep_add(p, p->lfd, TAG(TAG_LISTEN, 0)) != 0) {
		*why = "epoll_ctl failed";
		goto fail;
	}
	p->cm_psn = (uint32_t)(new_tid(0) >> 32); /* any start: a UD PSN is not checked */
	if (roce_reg_conn_orphans_pending(p->reg)) /* joining reclaimed the dead */
		end_orphans(p, NULL);
	*out = p;
	return DOCA_SUCCESS;
fail:
	roce_port_close(p);
	return err;
}

void roce_port_close(struct roce_port *p)
{
	if (p == NULL)
		return;
	for (unsigned b = 0; b < QP_BUCKETS; b++)
		while (p->qps[b])
			roce_port_qp_remove(p, p->qps[b]->qpn);
	for (int i = 0; i < ROCE_REG_OWNERS; i++)
		if (p->fwd[i] >= 0)
			close(p->fwd[i]);
	for (unsigned i = 0; i < p->nconns; i++)
		close(p->conns[i]);
	if (p->lfd >= 0) {
		close(p->lfd);
		(void)unlink(p->lpath);
	}
	if (p->ufd >= 0)
		close(p->ufd);
	if (p->ep >= 0)
		close(p->ep);
	roce_reg_close(p->reg); /* after the unlink: the id may go to another process at once */
	pthread_mutex_destroy(&p->dead_mu);
	free(p->gro);
	free(p);
}

size_t roce_port_rcvbuf(const struct roce_port *p)
{
	int v = 0;
	socklen_t l = sizeof(v);

	return getsockopt(p->ufd, SOL_SOCKET, SO_RCVBUF, &v, &l) == 0 && v > 0 ? (size_t)v : 0;
}

void roce_port_use_gro(struct roce_port *p)
{
	if (p->gro == NULL && getenv("SOFTDOCA_ROCE_NO_GRO") == NULL)
		p->gro = malloc((size_t)GRO_BUFS * GRO_BUF); /* none: QP sockets go without UDP_GRO */
}

int roce_port_fd(const struct roce_port *p)
{
	return p->ep;
}

struct roce_reg *roce_port_reg(const struct roce_port *p)
{
	return p->reg;
}

void roce_port_get_stats(const struct roce_port *p, struct roce_port_stats *st)
{
	*st = p->st;
	st->tx = __atomic_load_n(&p->st.tx, __ATOMIC_RELAXED);
	st->tx_err = __atomic_load_n(&p->st.tx_err, __ATOMIC_RELAXED);
	st->tx_calls = __atomic_load_n(&p->st.tx_calls, __ATOMIC_RELAXED);
}

/* ---- queue pairs ---- */

doca_error_t roce_port_qp_add(struct roce_port *p, uint32_t *qpn)
{
	struct rp_qp *q = calloc(1, sizeof(*q));
	doca_error_t err;

	if (q == NULL)
		return DOCA_ERROR_NO_MEMORY;
	err = roce_reg_qpn_alloc(p->reg, &q->qpn);
	if (roce_reg_conn_orphans_pending(p->reg)) /* the allocation may have reclaimed someone */
		end_orphans(p, NULL);
	if (err != DOCA_SUCCESS) {
		free(q);
		return err;
	}
	/* Nothing is sent to this port: a small buffer bounds what a stray sender can park there. */
	q->sport = roce_udp_sport(q->qpn);
	q->tx_fd = udp_socket(p->ip, q->sport, 1);
	q->rx_fd = -1;
	q->next = p->qps[(q->qpn & 0xffff) % QP_BUCKETS];
	p->qps[(q->qpn & 0xffff) % QP_BUCKETS] = q;
	*qpn = q->qpn;
	return DOCA_SUCCESS;
}

void roce_port_qp_remove(struct roce_port *p, uint32_t qpn)
{
	struct rp_qp **pp = &p->qps[(qpn & 0xffff) % QP_BUCKETS];

	for (; *pp; pp = &(*pp)->next) {
		struct rp_qp *q = *pp;

		if (q->qpn != qpn)
			continue;
		*pp = q->next;
		if (q->rx_fd >= 0)
			ep_del_close(p, q->rx_fd);
		if (q->tx_fd >= 0)
			close(q->tx_fd);
		roce_reg_qpn_free(p->reg, qpn);
		free(q);
		return;
	}
}

doca_error_t roce_port_qp_connect(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port)
{
	struct rp_qp *q = qp_find(p, qpn);
	struct sockaddr_in a = sin4(ip, udp_port);

	if (q == NULL)
		return DOCA_ERROR_NOT_FOUND;
	if (q->rx_fd < 0) {
		/* Until connect() it is one more unconnected member: what it gets meanwhile is read like the rest. */
		q->rx_fd = udp_socket(p->ip, p->port, RCVBUF);
		if (q->rx_fd < 0)
			return DOCA_ERROR_OPERATING_SYSTEM;
		if (ep_add(p, q->rx_fd, TAG(TAG_QP, qpn)) != 0) {
			close(q->rx_fd);
			q->rx_fd = -1;
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		/* (drain_qp) */
		q->gro = q->gro_read =
			p->gro != NULL && setsockopt(q->rx_fd, SOL_UDP, UDP_GRO, &(int){1}, sizeof(int)) == 0;
	}
	if (connect(q->rx_fd, (struct sockaddr *)&a, sizeof(a)) != 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	q->peer_ip = ip;
	q->peer_port = udp_port;
	return DOCA_SUCCESS;
}

doca_error_t roce_port_qp_set_sport(struct roce_port *p, uint32_t qpn, uint16_t sport)
{
	struct rp_qp *q = qp_find(p, qpn);
	int fd;

	if (q == NULL)
		return DOCA_ERROR_NOT_FOUND;
	if (q->sport == sport && q->tx_fd >= 0)
		return DOCA_SUCCESS;
	fd = udp_socket(p->ip, sport, 1);
	if (fd < 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	if (q->tx_fd >= 0)
		close(q->tx_fd);
	q->tx_fd = fd;
	q->sport = sport;
	return DOCA_SUCCESS;
}

bool roce_port_qp_connected(const struct roce_port *p, uint32_t qpn, uint32_t *ip, uint16_t *udp_port)
{
	const struct rp_qp *q = qp_find(p, qpn);

	if (q == NULL || q->rx_fd < 0 || q->peer_port == 0)
		return false;
	if (ip)
		*ip = q->peer_ip;
	if (udp_port)
		*udp_port = q->peer_port;
	return true;
}

doca_error_t roce_port_listen(struct roce_port *p, uint64_t sid)
{
	doca_error_t err = roce_reg_listen(p->reg, sid);

	if (roce_reg_conn_orphans_pending(p->reg)) /* it may have reclaimed the dead holder */
		end_orphans(p, NULL);
	return err;
}

void roce_port_unlisten(struct roce_port *p, uint64_t sid)
{
	roce_reg_unlisten(p->reg, sid);
}

uint32_t roce_port_comm_id(const struct roce_port *p, uint32_t seq)
{
	return roce_reg_comm_id(p->reg, seq);
}

/* ---- sending ---- */

static int tx_fd(const struct roce_port *p, uint32_t qpn)
{
	const struct rp_qp *q = qpn == 1 ? NULL : qp_find(p, qpn);

	return q && q->tx_fd >= 0 ? q->tx_fd : p->ufd;
}

uint16_t roce_port_qp_sport(const struct roce_port *p, uint32_t qpn)
{
	const struct rp_qp *q = qpn == 1 ? NULL : qp_find(p, qpn);

	return q && q->tx_fd >= 0 ? q->sport : p->port;
}

doca_error_t roce_port_send(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port,
			    const struct iovec *iov, int iovcnt)
{
	struct sockaddr_in a = sin4(ip, udp_port ? udp_port : ROCE_UDP_PORT);
	struct msghdr mh = { .msg_name = &a, .msg_namelen = sizeof(a), .msg_iov = (struct iovec *)iov,
			     .msg_iovlen = (size_t)iovcnt };

	STAT_ADD(p, tx_calls);
	if (sendmsg(tx_fd(p, qpn), &mh, MSG_DONTWAIT) < 0) {
		STAT_ADD(p, tx_err);
		return errno == EAGAIN || errno == ENOBUFS ? DOCA_ERROR_AGAIN : DOCA_ERROR_OPERATING_SYSTEM;
	}
	STAT_ADD(p, tx);
	return DOCA_SUCCESS;
}

/* Datagrams one per message, MMSG_BATCH per sendmmsg; how many were not sent. */
static unsigned send_dgrams(struct roce_port *p, int fd, const struct sockaddr_in *a, const struct iovec *dgrams,
			    unsigned n)
{
	struct mmsghdr mm[MMSG_BATCH];
	unsigned sent = 0;

	while (sent < n) {
		unsigned k = n - sent < MMSG_BATCH ? n - sent : MMSG_BATCH;
		int r;

		memset(mm, 0, sizeof(mm[0]) * k);
		for (unsigned i = 0; i < k; i++) {
			mm[i].msg_hdr.msg_name = (struct sockaddr_in *)a;
			mm[i].msg_hdr.msg_namelen = sizeof(*a);
			mm[i].msg_hdr.msg_iov = (struct iovec *)&dgrams[sent + i];
			mm[i].msg_hdr.msg_iovlen = 1;
		}
		STAT_ADD(p, tx_calls);
		r = sendmmsg(fd, mm, k, MSG_DONTWAIT);
		if (r <= 0) {
			STAT_ADD(p, tx_err);
			break;
		}
		__atomic_fetch_add(&p->st.tx, (uint64_t)r, __ATOMIC_RELAXED);
		sent += (unsigned)r;
	}
	return n - sent;
}

unsigned roce_port_send_batch(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port,
			      const struct iovec *dgrams, unsigned n)
{
	struct sockaddr_in a = sin4(ip, udp_port ? udp_port : ROCE_UDP_PORT);

	return send_dgrams(p, tx_fd(p, qpn), &a, dgrams, n);
}

/* A run's datagrams one by one (each gathered from the run's pieces); whether any was lost. */
#define DGRAM_PIECES 8 /* a datagram's pieces at most: a header, its payload, its trailer, and runs of inline ones */
static bool send_one_by_one(struct roce_port *p, int fd, const struct sockaddr_in *a, const struct roce_port_run *run)
{
	struct iovec d[MMSG_BATCH][DGRAM_PIECES];
	struct mmsghdr mm[MMSG_BATCH];
	size_t total = 0, done = 0, used = 0; /* bytes of the run; sent; used of piece i */
	unsigned i = 0, n = 0;
	bool lost = false;

	for (unsigned k = 0; k < run->niov; k++)
		total += run->iov[k].iov_len;
	memset(mm, 0, sizeof(mm));
	while (done < total) {
		size_t want = run->seg == 0 || total - done < run->seg ? total - done : run->seg;
		unsigned np = 0;

		done += want;
		while (want > 0 && np < DGRAM_PIECES) {
			size_t take = run->iov[i].iov_len - used < want ? run->iov[i].iov_len - used : want;

			d[n][np++] = (struct iovec){ (uint8_t *)run->iov[i].iov_base + used, take };
			want -= take;
			used += take;
			if (used == run->iov[i].iov_len) {
				i++;
				used = 0;
			}
		}
		if (want > 0) /* cannot be: tx_flush cuts no datagram in more pieces */
			return true;
		mm[n].msg_hdr = (struct msghdr){ .msg_name = (struct sockaddr_in *)a, .msg_namelen = sizeof(*a),
						 .msg_iov = d[n], .msg_iovlen = np };
		if (++n == MMSG_BATCH || done == total) {
			int r;

			STAT_ADD(p, tx_calls);
			r = sendmmsg(fd, mm, n, MSG_DONTWAIT);
			if (r > 0)
				__atomic_fetch_add(&p->st.tx, (uint64_t)r, __ATOMIC_RELAXED);
			if (r < (int)n) {
				STAT_ADD(p, tx_err);
				lost = true;
			}
			n = 0;
		}
	}
	return lost;
}

bool roce_port_gso(const struct roce_port *p)
{
	return !__atomic_load_n(&p->no_gso, __ATOMIC_RELAXED);
}

unsigned roce_port_send_gso(struct roce_port *p, uint32_t qpn, uint32_t ip, uint16_t udp_port,
			    const struct roce_port_run *runs, unsigned n)
{
	struct sockaddr_in a = sin4(ip, udp_port ? udp_port : ROCE_UDP_PORT);
	union {
		char buf[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} c[MMSG_BATCH];
	struct mmsghdr mm[MMSG_BATCH];
	int fd = tx_fd(p, qpn);
	unsigned sent = 0, lost = 0;

	if (__atomic_load_n(&p->no_gso, __ATOMIC_RELAXED)) {
		for (unsigned i = 0; i < n; i++)
			lost += send_one_by_one(p, fd, &a, &runs[i]);
		return lost;
	}
	while (sent < n) {
		unsigned k = n - sent < MMSG_BATCH ? n - sent : MMSG_BATCH;
		int r;

		memset(mm, 0, sizeof(mm[0]) * k);
		for (unsigned i = 0; i < k; i++) {
			struct msghdr *h = &mm[i].msg_hdr;
			const struct roce_port_run *b = &runs[sent + i];
			size_t len = 0;

			for (unsigned j = 0; j < b->niov; j++)
				len += b->iov[j].iov_len;
			h->msg_name = &a;
			h->msg_namelen = sizeof(a);
			h->msg_iov = (struct iovec *)b->iov;
			h->msg_iovlen = b->niov;
			if (b->seg != 0 && len > b->seg) {
				struct cmsghdr *cm;

				memset(&c[i], 0, sizeof(c[i]));
				h->msg_control = c[i].buf;
				h->msg_controllen = sizeof(c[i].buf);
				cm = CMSG_FIRSTHDR(h);
				cm->cmsg_level = SOL_UDP;
				cm->cmsg_type = UDP_SEGMENT;
				cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
				memcpy(CMSG_DATA(cm), &b->seg, sizeof(uint16_t));
			}
		}
		STAT_ADD(p, tx_calls);
		r = sendmmsg(fd, mm, k, MSG_DONTWAIT);
		if (r < 0 && (errno == EINVAL || errno == EIO || errno == ENOPROTOOPT || errno == EOPNOTSUPP) &&
		    mm[0].msg_hdr.msg_controllen != 0) {
			/* this kernel or route cannot segment: one by one from now on */
			__atomic_store_n(&p->no_gso, true, __ATOMIC_RELAXED);
			for (unsigned i = sent; i < n; i++)
				lost += send_one_by_one(p, fd, &a, &runs[i]);
			return lost;
		}
		if (r <= 0) {
			STAT_ADD(p, tx_err);
			return lost + n - sent;
		}
		for (int i = 0; i < r; i++) {
			unsigned s = runs[sent + (unsigned)i].seg;
			size_t len = mm[i].msg_len;

			__atomic_fetch_add(&p->st.tx, s == 0 || len <= s ? 1 : (len + s - 1) / s, __ATOMIC_RELAXED);
			if (s != 0 && len > s)
				STAT_ADD(p, tx_gso);
		}
		sent += (unsigned)r;
	}
	return lost;
}

/* ---- routing ---- */

/*
 * Who owns a datagram: its QPN's owner, or for QP1 (CM) the listener of a REQ's service ID or
 * the process named by a reply's remote comm ID (ours, given in our REQ or REP). -1: malformed.
 */
static int route(const struct roce_port *p, const uint8_t *buf, size_t len, uint32_t *qpn, bool *req)
{
	struct roce_mad_hdr hdr;
	struct roce_pkt pkt;
	const uint8_t *cm;
	int owner;

	if (roce_pkt_parse(buf, len, &pkt) != ROCE_PARSE_OK)
		return -1;
	*qpn = pkt.bth.dqpn;
	*req = false;
	if (*qpn != 1)
		return roce_reg_qpn_owner(p->reg, *qpn);
	if (!roce_cm_mad_check(pkt.payload, pkt.payload_len, &hdr))
		return -1;
	cm = pkt.payload + ROCE_MAD_HDR_LEN;
	*req = hdr.attr_id == ROCE_CM_REQ;
	if (*req)
		return roce_reg_listener_owner(p->reg, roce_get64(cm + 8));
	owner = roce_reg_comm_id_owner(roce_get32(cm + 4)); /* every reply keeps the remote comm ID at 4 */
	return roce_reg_owner_pid(p->reg, owner) != 0 ? owner : 0;
}

/* ---- ending a dead owner's RDMA-CM connections ---- */

/* The CM message that made us reclaim its owner, if it was one (the peer's DREQ is answered, not crossed). */
struct dead_trigger {
	uint16_t attr;      /* 0: not a CM message */
	uint64_t tid;
	uint32_t our_id;    /* the comm ID it names as ours (the dead owner's) */
	uint32_t their_id;  /* the sender's own comm ID */
	uint32_t from_ip;   /* host order */
};

static void trigger_of(const uint8_t *buf, size_t len, const struct sockaddr_in *from, struct dead_trigger *t)
{
	struct roce_mad_hdr hdr;
	struct roce_pkt pkt;

	memset(t, 0, sizeof(*t));
	if (roce_pkt_parse(buf, len, &pkt) != ROCE_PARSE_OK || pkt.bth.dqpn != 1 ||
	    !roce_cm_mad_check(pkt.payload, pkt.payload_len, &hdr) || hdr.attr_id == ROCE_CM_REQ)
		return;
	t->attr = hdr.attr_id;
	t->tid = hdr.tid;
	t->their_id = roce_get32(pkt.payload + ROCE_MAD_HDR_LEN);
	t->our_id = roce_get32(pkt.payload + ROCE_MAD_HDR_LEN + 4);
	t->from_ip = ntohl(from->sin_addr.s_addr);
}

static uint64_t new_tid(uint32_t local_id)
{
	uint32_t r = 0;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		r = (uint32_t)ts.tv_nsec ^ (uint32_t)ts.tv_sec;
	}
	return (uint64_t)r << 32 | local_id;
}

/* One CM MAD on the dead owner's behalf, from our shared socket (its address, UDP 4791), as its CM would. */
static bool dead_send(struct roce_port *p, const struct roce_reg_conn *c, uint16_t attr, uint64_t tid)
{
	uint8_t mad[ROCE_MAD_LEN], d[ROCE_BTH_LEN + ROCE_DETH_LEN + ROCE_MAD_LEN + ROCE_ICRC_LEN];
	struct roce_ip4 v4 = {.src = p->ip, .dst = c->peer_ip, .id = 0, .frag = ROCE_IP4_DF};
	struct sockaddr_in to = sin4(c->peer_ip, c->peer_port);
	struct roce_pkt pkt = {0};
	size_t n;

	if (attr == ROCE_CM_DREQ) {
		struct roce_cm_dreq m = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id,
					 .remote_qpn = c->peer_qpn};

		roce_cm_dreq_put(mad, tid, &m);
	} else if (attr == ROCE_CM_REJ && c->state == ROCE_REG_CONN_REQ) {
		/* its REP: as Linux's cm_destroy_id for an id in REQ_SENT, "timeout" with our CA GUID */
		struct roce_cm_rej m = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id,
					.msg_rejected = ROCE_CM_MSG_REP, .reason = ROCE_CM_REJ_TIMEOUT, .ari_len = 8};

		roce_put64(m.ari, roce_ca_guid(p->ip));
		roce_cm_rej_put(mad, tid, &m);
	} else if (attr == ROCE_CM_REJ) {
		struct roce_cm_rej m = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id,
					.msg_rejected = ROCE_CM_MSG_REQ, .reason = ROCE_CM_REJ_CONSUMER};

		roce_cm_rej_put(mad, tid, &m);
	} else {
		struct roce_cm_rtu m = {.local_comm_id = c->local_id, .remote_comm_id = c->remote_id};

		roce_cm_rtu_put(mad, ROCE_CM_DREP, tid, &m);
	}
	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.bth.ack_req = true;
	pkt.bth.psn = __atomic_fetch_add(&p->cm_psn, 1, __ATOMIC_RELAXED) & ROCE_PSN_MASK;
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	n = roce_pkt_build(d, sizeof(d), &pkt, mad, ROCE_MAD_LEN);
	if (n == 0)
		return false;
	roce_icrc_store(d, n, roce_icrc_ip4(&v4, p->port, c->peer_port, d, n));
	if (sendto(p->ufd, d, n, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&to, sizeof(to)) != (ssize_t)n) {
		STAT_ADD(p, tx_err);
		return false;
	}
	STAT_ADD(p, tx);
	return true;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * Remembers a DREQ sent (or DREP given) for a dead owner: resent `left` times unless answered;
 * or its REQ that is out, to refuse the peer's REP.
 */
static void dead_keep(struct roce_port *p, const struct roce_reg_conn *c, uint64_t tid, uint8_t left)
{
	struct dead_dreq *d;

	pthread_mutex_lock(&p->dead_mu);
	if (p->ndead < DEAD_KEEP) { /* full: sent once, as without a record */
		d = &p->dead[p->ndead];
		__atomic_store_n(&p->ndead, p->ndead + 1, __ATOMIC_RELAXED);
		d->c = *c;
		d->tid = tid;
		d->left = left;
		d->due = mono_ms() + (left > 0 ? DEAD_RESEND_MS : c->state == ROCE_REG_CONN_REQ ? DEAD_REQ_MS : DEAD_LINGER_MS);
	}
	pthread_mutex_unlock(&p->dead_mu);
}

/*
 * A CM message for an owner nobody holds any more (dropped all the same): the peer's DREP to a
 * DREQ we sent for it stops the resends; its DREQ (crossing ours, or a resend of the one that
 * made us reclaim) gets a DREP; its REP to a REQ of the dead owner's gets REJ "timeout".
 */
static void dead_answer(struct roce_port *p, const uint8_t *buf, size_t len, const struct sockaddr_in *from)
{
	struct dead_trigger t;

	if (__atomic_load_n(&p->ndead, __ATOMIC_RELAXED) == 0)
		return;
	trigger_of(buf, len, from, &t);
	if (t.attr != ROCE_CM_DREP && t.attr != ROCE_CM_DREQ && t.attr != ROCE_CM_REP)
		return;
	pthread_mutex_lock(&p->dead_mu);
	for (unsigned i = 0; i < p->ndead; i++) {
		struct dead_dreq *d = &p->dead[i];

		if (d->c.local_id != t.our_id || d->c.peer_ip != t.from_ip ||
		    (t.attr == ROCE_CM_REP) != (d->c.state == ROCE_REG_CONN_REQ))
			continue;
		if (t.attr == ROCE_CM_REP) {
			d->c.remote_id = t.their_id;
			if (dead_send(p, &d->c, ROCE_CM_REJ, t.tid)) /* a resend (ours lost) is refused again */
				STAT_ADD(p, rej_for_dead);
			break;
		}
		if (t.attr == ROCE_CM_DREQ && dead_send(p, &d->c, ROCE_CM_DREP, t.tid))
			STAT_ADD(p, dreq_for_dead);
		d->left = 0;
		d->due = mono_ms() + DEAD_LINGER_MS;
		break;
	}
	pthread_mutex_unlock(&p->dead_mu);
}

uint64_t roce_port_next_time(struct roce_port *p)
{
	uint64_t first = __atomic_load_n(&p->lfd_back_until, __ATOMIC_ACQUIRE);

	if (first == 0)
		first = UINT64_MAX;
	if (__atomic_load_n(&p->ndead, __ATOMIC_RELAXED) == 0)
		return first;
	pthread_mutex_lock(&p->dead_mu);
	for (unsigned i = 0; i < p->ndead; i++)
		first = p->dead[i].due < first ? p->dead[i].due : first;
	pthread_mutex_unlock(&p->dead_mu);
	return first;
}

void roce_port_timer(struct roce_port *p, uint64_t now)
{
	uint64_t back = __atomic_load_n(&p->lfd_back_until, __ATOMIC_ACQUIRE);

	/* the listener's pause is over: back in the epoll set (a connection waiting fires at once) */
	if (back != 0 && now >= back &&
	    __atomic_compare_exchange_n(&p->lfd_back_until, &back, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		(void)ep_add(p, p->lfd, TAG(TAG_LISTEN, 0));
	if (__atomic_load_n(&p->ndead, __ATOMIC_RELAXED) == 0)
		return;
	pthread_mutex_lock(&p->dead_mu);
	for (unsigned i = 0; i < p->ndead;) {
		struct dead_dreq *d = &p->dead[i];

		if (d->due > now) {
			i++;
		} else if (d->left > 0) {
			if (dead_send(p, &d->c, ROCE_CM_DREQ, d->tid)) /* the same TID: a resend, as a CM's */
				STAT_ADD(p, dead_resent);
			d->left--;
			d->due = now + (d->left > 0 ? DEAD_RESEND_MS : DEAD_LINGER_MS);
			i++;
		} else {
			*d = p->dead[p->ndead - 1];
			__atomic_store_n(&p->ndead, p->ndead - 1, __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_unlock(&p->dead_mu);
}

/*
 * Ends the connections of reclaimed owners on the wire, as the kernel's CM does for a dead
 * process's cm_ids: DREQ for what was up (again with its TID if it had sent one), REJ for a
 * request it had not answered, and to the peer's own DREQ that found it dead a DREP. The entries
 * are gone after this; a DREQ is resent twice on a short timer (roce_port_timer) unless the
 * peer's DREP comes to this process first; a REJ goes once. A REQ of its own that is out is
 * kept DEAD_REQ_MS here: the peer's REP (the one that made us reclaim, or a later one) gets
 * REJ "timeout". Linux sends that REJ as the id dies, without the peer's comm ID; we have no
 * word of the death before the peer speaks, and answering its REP names both ends.
 */
static void end_orphans(struct roce_port *p, const struct dead_trigger *t)
{
	struct roce_reg_conn c[32];
	unsigned n, bad;

	do {
		n = roce_reg_conn_orphans(p->reg, c, sizeof(c) / sizeof(c[0]), &bad);
		for (unsigned i = 0; i < bad; i++)
			STAT_ADD(p, dead_conn_bad);
		for (unsigned i = 0; i < n; i++) {
			bool named = t != NULL && t->our_id == c[i].local_id && t->from_ip == c[i].peer_ip;
			uint64_t tid;

			if (c[i].state == ROCE_REG_CONN_REQ) {
				if (named && t->attr == ROCE_CM_REJ)
					continue; /* the peer refused it: nothing is owed */
				if (named && t->attr == ROCE_CM_REP) {
					c[i].remote_id = t->their_id;
					if (dead_send(p, &c[i], ROCE_CM_REJ, t->tid))
						STAT_ADD(p, rej_for_dead);
				}
				dead_keep(p, &c[i], c[i].tid, 0); /* the REP (or its resend) to come gets the REJ */
				continue;
			}
			if (named && t->attr == ROCE_CM_DREP)
				continue; /* our DREQ was answered: nothing is owed */
			if (named && t->attr == ROCE_CM_DREQ) {
				if (dead_send(p, &c[i], ROCE_CM_DREP, t->tid))
					STAT_ADD(p, dreq_for_dead);
				dead_keep(p, &c[i], t->tid, 0); /* its resend gets the DREP again */
			} else if (c[i].state == ROCE_REG_CONN_SETUP) {
				/* once, as a REJ is: the peer's REQ resend finds the listener gone and is refused anyway */
				if (dead_send(p, &c[i], ROCE_CM_REJ, c[i].tid))
					STAT_ADD(p, rej_for_dead);
			} else {
				tid = c[i].state == ROCE_REG_CONN_DREQ ? c[i].tid : new_tid(c[i].local_id);
				if (dead_send(p, &c[i], ROCE_CM_DREQ, tid))
					STAT_ADD(p, dreq_for_dead);
				dead_keep(p, &c[i], tid, DEAD_RESENDS);
			}
		}
	} while (n == sizeof(c) / sizeof(c[0]));
}

doca_error_t roce_port_conn_note(struct roce_port *p, const struct roce_reg_conn *c)
{
	return roce_reg_conn_set(p->reg, c);
}

void roce_port_conn_forget(struct roce_port *p, uint32_t local_id)
{
	roce_reg_conn_clear(p->reg, local_id);
}

/* Our connection to owner's forwarding socket, made now if needed; -1 with errno. */
static int fwd_conn(struct roce_port *p, int owner)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	int fd, sndbuf = RCVBUF;

	if (owner <= 0 || owner >= ROCE_REG_OWNERS) { /* (the registry's lookups give none such) */
		errno = EINVAL;
		return -1;
	}
	if (p->fwd[owner] >= 0)
		return p->fwd[owner];
	if (!roce_reg_owner_path(p->reg, owner, un.sun_path, sizeof(un.sun_path))) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* A unix sender's buffer bounds what waits for the owner: room for bursts as the UDP socket has. */
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (connect(fd, (struct sockaddr *)&un, sizeof(un)) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	/* The listener must be the registered owner, of this user (not an impostor on the name). */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || cred.uid != geteuid() ||
	    cred.pid != roce_reg_owner_pid(p->reg, owner)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	p->fwd[owner] = fd;
	return fd;
}

static void forward(struct roce_port *p, int owner, uint32_t qpn, const uint8_t *buf, size_t len,
		    const struct sockaddr_in *from)
{
	struct fwd_hdr h = { .magic = FWD_MAGIC, .qpn = qpn, .from_ip = from->sin_addr.s_addr,
			     .from_port = from->sin_port };
	struct iovec iov[2] = { { &h, sizeof(h) }, { (void *)buf, len } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };

	for (int attempt = 0; attempt < 2; attempt++) {
		int fd = fwd_conn(p, owner);

		if (fd < 0) {
			if (errno == EPERM) {
				p->st.refused++;
			} else if ((errno == ECONNREFUSED || errno == ENOENT) && roce_reg_reclaim(p->reg, owner)) {
				struct dead_trigger t;

				p->st.reclaimed++;
				p->st.drop_dead++;
				trigger_of(buf, len, from, &t);
				end_orphans(p, &t);
			} else if (roce_reg_owner_pid(p->reg, owner) == 0) {
				p->st.drop_dead++; /* someone else reclaimed it first */
			} else {
				p->st.drop_fwd_full++;
			}
			return;
		}
		if (sendmsg(fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) {
			p->st.fwd_out++;
			return;
		}
		if (errno == EAGAIN || errno == ENOBUFS) {
			p->st.drop_fwd_full++; /* as a full switch queue: the sender retransmits */
			return;
		}
		/* The owner went away (or the id changed hands): one new connection. */
		close(fd);
		p->fwd[owner] = -1;
	}
	p->st.drop_fwd_full++;
}

/* A datagram for one of our QPs (or QP1): learn its source if the QP has no peer socket yet. */
static void learn(struct roce_port *p, uint32_t qpn, const struct sockaddr_in *from)
{
	struct rp_qp *q = qpn == 1 ? NULL : qp_find(p, qpn);

	if (q != NULL && q->rx_fd < 0 &&
	    roce_port_qp_connect(p, qpn, ntohl(from->sin_addr.s_addr), ntohs(from->sin_port)) == DOCA_SUCCESS)
		p->st.learned++;
}

static void keep(struct roce_port_msg *msgs, unsigned *out, unsigned i, uint32_t qpn, uint32_t len,
		 enum roce_port_via via, bool unclaimed)
{
	struct roce_port_msg *m = &msgs[*out];

	if (*out != i) {
		m->from = msgs[i].from;
		memcpy(m->buf, msgs[i].buf, len);
	}
	m->qpn = qpn;
	m->len = len;
	m->via = via;
	m->unclaimed = unclaimed;
	(*out)++;
}

/* Keeps msgs[i] (len bytes, from a UDP socket; fd_qpn as in drain_udp) at msgs[*out], or forwards or drops it. */
static void classify(struct roce_port *p, uint32_t fd_qpn, struct roce_port_msg *msgs, unsigned *out, unsigned i,
		     uint32_t len)
{
	struct roce_port_msg *m = &msgs[i];
	uint32_t qpn = 0;
	bool req = false;
	int owner = route(p, m->buf, len, &qpn, &req);

	if (owner < 0) {
		p->st.drop_malformed++;
	} else if (owner == 0 && req) {
		/* A REQ nobody listens to: whoever got it answers (REJ), as Linux's CM would. */
		p->st.cm_unclaimed++;
		keep(msgs, out, i, qpn, len, ROCE_PORT_VIA_SHARED, true);
	} else if (owner == 0) {
		p->st.drop_no_owner++;
		if (qpn == 1)
			dead_answer(p, m->buf, len, &m->from);
	} else if (owner != roce_reg_self(p->reg) || (qpn != 1 && qp_find(p, qpn) == NULL)) {
		if (owner == roce_reg_self(p->reg))
			p->st.drop_stray++; /* the registry says ours, we do not know it: being removed */
		else
			forward(p, owner, qpn, m->buf, len, &m->from);
	} else if (fd_qpn != 0 && qpn == fd_qpn) {
		p->st.rx_qp++;
		keep(msgs, out, i, qpn, len, ROCE_PORT_VIA_QP, false);
	} else {
		p->st.rx_shared++;
		keep(msgs, out, i, qpn, len, ROCE_PORT_VIA_SHARED, false);
		learn(p, qpn, &m->from);
	}
}

/*
 * A QP socket with UDP_GRO: one receive may hold up to ROCE_PORT_GRO_SEGS datagrams of one size
 * back to back (the last may be shorter), coalesced by the kernel or sent so (UDP GSO); each is
 * copied into its own msg. As many receives per recvmmsg as ROCE_PORT_GRO_SEGS msgs are free
 * for (at most GRO_BUFS); fewer than asked for means drained, with no extra system call. The
 * rest stays readable.
 */
#define GRO_DRAINED 1u /* the socket was read empty */
#define GRO_FLAT 2u    /* GRO_FLAT_MIN datagrams or more read, none of them coalesced */
static unsigned drain_gro(struct roce_port *p, int fd, uint32_t fd_qpn, struct roce_port_msg *msgs, unsigned *out,
			  unsigned max)
{
	unsigned seen = 0, lone = 0;
	bool coalesced = false;

	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} c[GRO_BUFS];
	struct sockaddr_in from[GRO_BUFS];
	struct mmsghdr mm[GRO_BUFS];
	struct iovec iov[GRO_BUFS];
	unsigned budget = SOCKET_BUDGET;

	while (budget > 0) {
		unsigned k = (max - *out) / ROCE_PORT_GRO_SEGS;
		int n;

		if (k == 0)
			break;
		if (k > GRO_BUFS)
			k = GRO_BUFS;
		memset(mm, 0, sizeof(mm[0]) * k);
		for (unsigned i = 0; i < k; i++) {
			iov[i] = (struct iovec){ p->gro + (size_t)i * GRO_BUF, GRO_BUF };
			mm[i].msg_hdr = (struct msghdr){ .msg_name = &from[i], .msg_namelen = sizeof(from[i]),
							 .msg_iov = &iov[i], .msg_iovlen = 1, .msg_control = c[i].buf,
							 .msg_controllen = sizeof(c[i].buf) };
		}
		n = recvmmsg(fd, mm, k, MSG_DONTWAIT, NULL);
		if (n <= 0) {
			seen = GRO_DRAINED;
			break;
		}
		for (unsigned i = 0; i < (unsigned)n; i++) {
			struct msghdr *h = &mm[i].msg_hdr;
			size_t len = mm[i].msg_len, seg = len, segs = 0;

			for (struct cmsghdr *cm = CMSG_FIRSTHDR(h); cm != NULL; cm = CMSG_NXTHDR(h, cm))
				if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO) {
					int v;

					memcpy(&v, CMSG_DATA(cm), sizeof(v));
					if (v > 0 && (size_t)v < seg)
						seg = (size_t)v;
				}
			if ((h->msg_flags & MSG_TRUNC) || len == 0) {
				p->st.drop_malformed++;
				continue;
			}
			if (seg < len) {
				p->st.rx_gro++;
				coalesced = true;
			} else {
				lone++;
			}
			for (size_t off = 0; off < len; off += seg, segs++) {
				size_t l = len - off < seg ? len - off : seg;
				struct roce_port_msg *m;

				/*
				 * Beyond ROCE_PORT_GRO_SEGS (a local sender's UDP_SEGMENT may coalesce 128), or
				 * with no msg free: more than a softdoca or Linux sender coalesces, dropped (RC
				 * sends it again). A receive was read only with that many msgs free.
				 */
				if (segs >= ROCE_PORT_GRO_SEGS || *out >= max || l > sizeof(msgs[0].buf)) {
					p->st.drop_malformed++;
					continue;
				}
				m = &msgs[*out];
				memcpy(m->buf, (const uint8_t *)iov[i].iov_base + off, l);
				m->from = from[i];
				classify(p, fd_qpn, msgs, out, *out, (uint32_t)l);
			}
			budget = budget > segs ? budget - (unsigned)segs : 0;
		}
		if ((unsigned)n < k) {
			seen = GRO_DRAINED;
			break;
		}
	}
	return seen | (!coalesced && lone >= GRO_FLAT_MIN ? GRO_FLAT : 0);
}

/*
 * Reads a UDP socket into msgs[*out..max): keeps ours, forwards or drops the rest. fd_qpn is the
 * QP whose receive socket fd is (0: the shared one). Only that QP's datagrams count as arriving on
 * their own socket: until connect() a QP's socket is one more unconnected member of the port
 * group and may receive another QP's first datagram, which must still teach that QP its source.
 */
static void drain_udp(struct roce_port *p, int fd, uint32_t fd_qpn, struct roce_port_msg *msgs,
		      unsigned *out, unsigned max)
{
	struct mmsghdr mm[MMSG_BATCH];
	struct iovec iov[MMSG_BATCH];
	unsigned budget = SOCKET_BUDGET;

	while (*out < max && budget > 0) {
		unsigned k = max - *out, base = *out;
		int n;

		if (k > MMSG_BATCH)
			k = MMSG_BATCH;
		memset(mm, 0, sizeof(mm[0]) * k);
		for (unsigned i = 0; i < k; i++) {
			iov[i].iov_base = msgs[base + i].buf;
			iov[i].iov_len = sizeof(msgs[base + i].buf);
			mm[i].msg_hdr.msg_iov = &iov[i];
			mm[i].msg_hdr.msg_iovlen = 1;
			mm[i].msg_hdr.msg_name = &msgs[base + i].from;
			mm[i].msg_hdr.msg_namelen = sizeof(msgs[base + i].from);
		}
		n = recvmmsg(fd, mm, k, MSG_DONTWAIT, NULL);
		if (n <= 0)
			return;
		budget = budget > (unsigned)n ? budget - (unsigned)n : 0;
		for (unsigned i = 0; i < (unsigned)n; i++) {
			if (mm[i].msg_hdr.msg_flags & MSG_TRUNC) {
				p->st.drop_malformed++;
				continue;
			}
			classify(p, fd_qpn, msgs, out, base + i, mm[i].msg_len);
		}
		if ((unsigned)n < k)
			return; /* drained */
	}
}

/*
 * A QP's receive socket, with UDP_GRO from its start. A softdoca stream's datagrams come
 * coalesced (UDP GSO), and so does a WRITE or a response with the ACK riding behind it
 * (roce_path.c, tx_ack_last): one receive, as cheap as one datagram. (Without UDP_GRO a write
 * ping-pong on the veth took 4.5 us a half round trip instead of 3.6; a send/receive one, whose
 * reply leaves apart from its ACK, gained under 0.1 us.) A sender that does not coalesce (Linux rxe) would leave a queue read GRO_BUFS
 * datagrams a call: after GRO_FLAT_OFF such reads in a row UDP_GRO goes off for good, and once
 * the queue was read empty (what came before may still be coalesced) reads take MMSG_BATCH.
 */
static void drain_qp(struct roce_port *p, struct rp_qp *q, struct roce_port_msg *msgs, unsigned *out,
		     unsigned max)
{
	unsigned seen;

	if (!q->gro_read) {
		drain_udp(p, q->rx_fd, q->qpn, msgs, out, max);
		return;
	}
	seen = drain_gro(p, q->rx_fd, q->qpn, msgs, out, max);
	if (!q->gro) {
		q->gro_read = (seen & GRO_DRAINED) == 0;
		return;
	}
	q->gro_flat = seen & GRO_FLAT ? q->gro_flat + 1 : 0;
	if (q->gro_flat >= GRO_FLAT_OFF && setsockopt(q->rx_fd, SOL_UDP, UDP_GRO, &(int){0}, sizeof(int)) == 0)
		q->gro = false;
}

unsigned roce_port_recv_qp(struct roce_port *p, uint32_t qpn, struct roce_port_msg *msgs, unsigned max)
{
	struct rp_qp *q = qp_find(p, qpn);
	unsigned out = 0;

	if (q != NULL && q->rx_fd >= 0)
		drain_qp(p, q, msgs, &out, max);
	return out;
}

static void conn_close(struct roce_port *p, int fd)
{
	for (unsigned i = 0; i < p->nconns; i++)
		if (p->conns[i] == fd) {
			p->conns[i] = p->conns[--p->nconns];
			break;
		}
	ep_del_close(p, fd);
}

/*
 * Out of descriptors: the listener, which stays readable while a connection waits, leaves the
 * epoll set for 100 ms, doubling up to 1 s while accept keeps failing (roce_port_timer puts it
 * back), as the other listeners do (docs/fabric.md), instead of waking the service thread in a loop.
 */
static void listener_pause(struct roce_port *p)
{
	p->lfd_back_ms = p->lfd_back_ms == 0 ? 100 : p->lfd_back_ms >= 500 ? 1000 : 2 * p->lfd_back_ms;
	if (epoll_ctl(p->ep, EPOLL_CTL_DEL, p->lfd, NULL) == 0) {
		__atomic_store_n(&p->lfd_back_until, mono_ms() + p->lfd_back_ms, __ATOMIC_RELEASE);
		__atomic_store_n(&p->lfd_paused_new, 1, __ATOMIC_RELEASE);
	}
}

bool roce_port_take_pause(struct roce_port *p)
{
	return __atomic_load_n(&p->lfd_paused_new, __ATOMIC_RELAXED) &&
	       __atomic_exchange_n(&p->lfd_paused_new, 0, __ATOMIC_ACQ_REL);
}

static void accept_all(struct roce_port *p)
{
	for (int n = 0; n < 64; n++) {
		struct ucred cred;
		socklen_t clen = sizeof(cred);
		int fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				listener_pause(p);
			return; /* (EAGAIN: none waits) */
		}
		p->lfd_back_ms = 0;
		/* Same user only, as the UDP port group itself; closed before anything is read. */
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || cred.uid != geteuid() ||
		    p->nconns == MAX_CONNS || ep_add(p, fd, TAG(TAG_CONN, fd)) != 0) {
			p->st.refused++;
			close(fd);
			continue;
		}
		p->conns[p->nconns++] = fd;
	}
}

/* Reads forwarded datagrams of one connection into msgs[*out..max). */
static void drain_conn(struct roce_port *p, int fd, struct roce_port_msg *msgs, unsigned *out, unsigned max)
{
	for (unsigned budget = SOCKET_BUDGET; *out < max && budget > 0; budget--) {
		struct roce_port_msg *m = &msgs[*out];
		struct fwd_hdr h;
		struct iovec iov[2] = { { &h, sizeof(h) }, { m->buf, sizeof(m->buf) } };
		struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
		ssize_t n = recvmsg(fd, &mh, MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			conn_close(p, fd); /* the other process closed or died */
			return;
		}
		if ((size_t)n < sizeof(h) || h.magic != FWD_MAGIC || (mh.msg_flags & MSG_TRUNC)) {
			p->st.drop_malformed++;
			continue;
		}
		if (h.qpn != 1 && qp_find(p, h.qpn) == NULL) {
			p->st.drop_stray++;
			continue;
		}
		m->from = sin4(ntohl(h.from_ip), ntohs(h.from_port));
		p->st.rx_forwarded++;
		keep(msgs, out, *out, h.qpn, (uint32_t)((size_t)n - sizeof(h)), ROCE_PORT_VIA_FORWARD, false);
		learn(p, h.qpn, &m->from);
	}
}

unsigned roce_port_recv(struct roce_port *p, struct roce_port_msg *msgs, unsigned max)
{
	struct epoll_event ev[16];
	unsigned out = 0;
	int n = epoll_wait(p->ep, ev, 16, 0);

	if (roce_reg_conn_orphans_pending(p->reg)) /* a reclaimer that died before it sent them */
		end_orphans(p, NULL);

	for (int i = 0; i < n && out < max; i++) {
		uint32_t v = (uint32_t)ev[i].data.u64;
		struct rp_qp *q;

		switch (ev[i].data.u64 >> 32) {
		case TAG_SHARED:
			drain_udp(p, p->ufd, 0, msgs, &out, max);
			break;
		case TAG_QP:
			q = qp_find(p, v);
			if (q != NULL && q->rx_fd >= 0)
				drain_qp(p, q, msgs, &out, max);
			break;
		case TAG_LISTEN:
			accept_all(p);
			break;
		case TAG_CONN:
			drain_conn(p, (int)v, msgs, &out, max);
			break;
		}
	}
	return out;
}
