/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RoCEv2 path (path.h): the connection of the qps of a card with `wire = rocev2`. Each qp
 * is an RC queue pair of the RC engine (roce_rc.h) with a QPN on this process's UDP port 4791
 * of the function's IPv4 address (roce_port.h, shared with the other processes of the user).
 *
 * Connecting (out of band): the qp's descriptor carries its IPv4 address (the GID is
 * ::ffff:a.b.c.d), QPN, first PSN and MTU (wire.c). Whoever holds the other's descriptor has
 * all it needs, so both sides "dial" (symmetric): the service thread connects the qp's receive
 * socket to the peer's (address, source port of its QPN), creates the engine and the qp is
 * RTS. Packets that arrive before the other side did the same are dropped there and sent
 * again by the engine's retransmission.
 *
 * Moving work: post hands the work request to roce_rc_post and polls at once (the owner's
 * thread sends the first packets itself); the service thread reads the port (nic_event:
 * roce_port_recv, ICRC checked by solving for the hidden IPv4 ID), feeds the engine and keeps
 * its timer through the path's timer ops. The engine's memory callbacks go to the soft NIC's
 * checks of exported memory (rnic_remote_check, target.c); its R_Key is the 32-bit form of an
 * export's (id, token) (softhw_mem_rkey32). Completions come in post order, as the core wants.
 *
 * Remote sync events go as RDMA does them on hardware: get is a READ, notify set a WRITE and
 * notify add a FETCH_ADD of the event's 8 bytes, named by an R_Key with the top bit set
 * (softhw_value_rkey32).
 *
 * RDMA-CM (CM MADs on QP1, DREQ / DREP) is roce_cm.c: its hooks here are dial (a qp made by
 * RDMA-CM), answer, bye, free, the QP1 datagrams of the port and the process timer; it calls
 * roce_path_cm_connect() to start the qp as a descriptor would. Out-of-band qps end silently:
 * the peer notices when its work goes unanswered for ROCE_DEAD_MS.
 *
 * Locks: qp->lock around every engine call (the engine is not thread-safe); a port's own
 * mutex around its calls (one thread at a time changes its QPs or receives; sends too, since
 * they look up the QP's socket). Order: qp->lock -> port mutex.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "doca_types.h"
#include "softhw/base/sdk_log.h"
#include "softhw/fabric/mem.h"
#include "softhw/fabric/share.h"
#include "softhw/fabric/value.h"
#include "softhw/fabric/peer.h"
#include "softhw/rnic/rnic_int.h"
#include "softhw/rnic/roce_cm.h"
#include "softhw/rnic/roce_port.h"
#include "softhw/rnic/roce_rc.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_ROCE);

#define ROCE_MAX_PORTS 8       /* local addresses with a rocev2 card in one process */
#define ROCE_MTU_LOG 10        /* 1024: what rxe picks on a 1500-byte Ethernet link (the default) */
#define ROCE_MTU_HEADROOM 96   /* GRH, UDP, BTH, XRC, AtomicETH, ICRC: Linux's iboe_get_mtu() */
#define ROCE_ACK_TIMEOUT 14    /* 4.096 us << 14 = 67 ms */
#define ROCE_RETRY 7           /* never runs out (as rxe): a peer that connects late still gets its packets */
#define ROCE_RD_ATOMIC 16
#define ROCE_WINDOW_MAX 1024   /* requester window in PSNs at most (the engine's default, as rxe: 128) */
#define ROCE_SQ_DEPTH 1024
#define ROCE_HOLD_POOL (64u << 20) /* what a port's qps hold behind READ responses beyond their own, together */
#define ROCE_RX_BATCH 128      /* datagrams per drain: room for two coalesced receives (ROCE_PORT_GRO_SEGS) */
#define ROCE_TX_BATCH 64       /* datagrams gathered for one sendmmsg */
#define ROCE_TX_BYTES (128 << 10) /* their bytes, back to back (runs of one size go out as one UDP GSO send) */
#define ROCE_GSO_SEGS 64       /* datagrams per UDP_SEGMENT send (Linux's UDP_MAX_SEGMENTS: 64, 128 since 6.9) */
#define ROCE_GSO_BYTES 65507   /* and their bytes: one UDP datagram's payload at most */
/*
 * Work outstanding and nothing heard from the peer for this long: it is gone (the retry count
 * never runs out, so the engine alone would wait for ever). As the stream's TCP keepalive,
 * about 10 s; SOFTDOCA_ROCE_DEAD_MS changes it (tests).
 */
#define ROCE_DEAD_MS 10000
#define ROCE_QUIET_MS 2 /* an owner that stopped polling this long ago hands the port back to the service thread */
/*
 * A hand-back that found datagrams waiting: the owner waits for them elsewhere (ib_write_lat
 * polls its send CQ, then spins on its buffer for the peer's WRITE). For this long the polls of
 * an owner that may do so (a verbs program: polls_memory) leave the port to the service thread
 * too, so what comes lands as it comes, not 2 ms later. A DOCA program waits in
 * doca_pe_progress: its polls keep the port quiet.
 */
#define ROCE_LOUD_MS 1000
#define ROCE_OWED_MAX 16 /* qps whose engine poll an owner's drain left to its next post or poll (per port) */
/*
 * An owner with one qp on the port reads that qp's own socket on every poll, and the rest of the
 * port (its epoll: forwarded datagrams, stray ones) only on every ROCE_SWEEP_EVERY-th poll that
 * found its socket empty: one system call per idle poll instead of two, so a spinning owner
 * sees its peer's packet sooner. What else waits is read a few microseconds later.
 */
#define ROCE_SWEEP_EVERY 16

/* One local address's port, its fd in the service thread's epoll (RNIC_TAG_NIC). */
struct roce_lport {
	struct rnic_nic_link link; /* first: the epoll tag; kind = index in ports[] */
	pthread_mutex_t lock;      /* the port's calls */
	pthread_mutex_t rx;        /* draining and handling datagrams (service thread or an owner), msgs; qps' unlinking */
	uint32_t ip;               /* host order */
	uint8_t mtu_log;           /* the path MTU its interface allows (log2) */
	uint32_t window;           /* the requester window its qps use (PSNs) */
	struct roce_rc_hold_pool hold_pool; /* its qps' responders share it (ROCE_HOLD_POOL) */
	struct roce_port *port;
	struct roce_qp *qps;       /* this address's qps (ports.lock) */
	struct roce_port_msg *msgs; /* a receive batch (rx) */
	bool quiet;                /* an owner polls: the service thread's epoll leaves the port (lock; atomic reads) */
	uint64_t owner_ms;         /* the last owner poll (rnic_now_ms; atomic) */
	uint64_t loud_until;       /* owners' polls leave the port watched until then (ms; ROCE_LOUD_MS; atomic) */
	bool backed;               /* handed back by the timer, not taken since: its next read says if it was waited for (atomic) */
	uint64_t waited_backs;     /* hand-backs that found datagrams waiting: ROCE_LOUD_MS began (atomic; the stats line) */
	struct roce_cm_local cm;   /* what RDMA-CM uses of it (roce_cm.h) */
	struct roce_qp *owed[ROCE_OWED_MAX]; /* the owner's qps with an engine poll owed (rx) */
	unsigned nowed;
	unsigned idle_polls;       /* owner polls whose own socket was empty (rx): ROCE_SWEEP_EVERY */
	uint64_t acks_behind;      /* owed ACKs sent behind the reply they left with (tx_ack_last; atomic) */
	struct softhw_faults *faults; /* the card's of the address (faults.drop, .delay); NULL: none */
	uint64_t drop_fault;       /* datagrams lost on purpose (faults.drop; atomic) */
	struct roce_held *held;    /* datagrams held on purpose, by due time (faults.delay; rx) */
	struct roce_held *held_tail; /* the last due of them (rx): most come due after every other */
	unsigned nheld;
	uint64_t held_due;         /* the first one's due time (ms; UINT64_MAX: none; atomic) */
	uint64_t held_busy;        /* when the timer last found rx taken with some due (ms; atomic) */
	uint64_t held_fault;       /* datagrams held (atomic) */
	uint64_t drop_icrc;        /* datagrams whose ICRC fits no IPv4 ID (atomic) */
	uint64_t drop_source;      /* RC datagrams from another address than their QP's peer (atomic) */
};

/*
 * A datagram held on its way in (faults.delay, faults.jitter) until it is due, as on a slow
 * link; a jitter larger than the gap between two datagrams reorders them.
 */
struct roce_held {
	struct roce_held *next, *prev;
	uint64_t due;              /* rnic_now_ms */
	struct roce_port_msg m;    /* allocated to the datagram's length */
};

#define ROCE_HELD_MAX 4096 /* held at once; more are lost (drop_fault), as a link's queue overflows */

/* A buffer of the path the engine uses for a work request (see rc_recv_take): READ and atomic
 * results, a sync event's value to set, a source of several pieces. */
struct roce_bounce {
	struct roce_bounce *next;
	uint64_t seq;
	void *buf;
};

/* A posted receive the engine took, and the bounce buffer it writes the message into. */
struct roce_rhold {
	struct rnic_recv *r;
	void *bounce;
};

/* The qp's state, qp->path[RNIC_PATH_ROCE] from open to free. */
struct roce_qp {
	struct rnic_path_link link;
	struct roce_qp *next;      /* lport->qps */
	struct roce_lport *lp;
	uint32_t qpn, psn;
	uint16_t cm_sport;         /* RDMA-CM: the UDP port both ends send from (0: out of band, or both on one address) */
	bool cm_mtu;               /* RDMA-CM: the path MTU is the REQ's, for both ends (not capped here again) */
	uint16_t mtu;              /* the path MTU the engine runs at (qp_start; for the stats line) */
	bool verbs;                /* connected by verbs' modify to RTR / RTS (wire_rtr): these are the application's */
	uint8_t verbs_rnr_timer, verbs_dest_rd;
	uint32_t verbs_access;     /* the QP's remote rights (qp_access_flags; qp lock) */
	struct roce_rc_qp *rc;     /* NULL until connected, and after close */
	uint32_t peer_ip;
	uint64_t deadline;         /* the engine's next poll (ns, CLOCK_MONOTONIC), 0: at once, ROCE_RC_NO_DEADLINE (qp lock) */
	bool shut;                 /* the core ended the qp: send completions are no longer ours */
	bool up;                   /* connected, until closed */
	int in_rc;                 /* inside an engine call: an error waits until it returned */
	bool error_pending;
	bool repoll;               /* a post from inside an engine call: poll once more after it */
	bool poll_owed;            /* its owner's drain left the engine poll (the ACK) to its next post or poll */
	uint64_t heard;            /* ns: the last datagram from the peer, or work posted after a quiet time */
	uint64_t dead;             /* ns of silence, work outstanding, after which the peer is gone */
	uint64_t failed_seq;       /* a wr that could not be handed to the engine, behind others (0: none) */
	doca_error_t failed_err;
	struct roce_bounce *bounces;
	unsigned ntx;              /* datagrams waiting in tx (sent when the engine call returns, or tx is full) */
	unsigned nref;             /* how many of them have their payload apart (emit_ref) */
	size_t txoff;              /* their bytes in tx */
	uint16_t txlen[ROCE_TX_BATCH]; /* each one's length on the wire */
	uint16_t txhdr[ROCE_TX_BATCH]; /* with a payload apart: its headers' bytes in tx (its pad and ICRC follow them there) */
	const void *txref[ROCE_TX_BATCH]; /* its payload apart (a posted WR's memory), or NULL: all of it in tx */
	uint8_t tx[ROCE_TX_BYTES]; /* emit: the datagrams back to back, ICRCs written at tx_flush */
};

static struct {
	pthread_mutex_t lock;
	struct roce_lport *ports[ROCE_MAX_PORTS];
	int n;
} ports = {.lock = PTHREAD_MUTEX_INITIALIZER};

static inline struct roce_qp *rq_of(const struct rnic_qp *qp)
{
	return (struct roce_qp *)qp->path[RNIC_PATH_ROCE];
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool fn_roce(const struct softhw_function *fn)
{
	return fn != NULL && fn->card != NULL && fn->card->wire == SOFTHW_WIRE_ROCEV2 && fn->has_ipv4;
}

static uint32_t fn_ip(const struct softhw_function *fn)
{
	return (uint32_t)fn->ipv4[0] << 24 | (uint32_t)fn->ipv4[1] << 16 | (uint32_t)fn->ipv4[2] << 8 | fn->ipv4[3];
}

static void ip_text(uint32_t ip, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
}

/* ---- the ports: one per local address, opened with its first qp ---- */

/*
 * The largest IB MTU whose packets fit the MTU of the interface carrying ip (the one with that
 * address, else the one whose subnet holds it: 127.x.y.z on lo), as rxe derives it from its
 * netdev (iboe_get_mtu): 4096 on loopback, 1024 on a 1500-byte Ethernet link.
 */
static uint8_t if_mtu_log(uint32_t ip)
{
	struct ifaddrs *ifs = NULL;
	const char *name = NULL;
	uint8_t mtu_log = ROCE_MTU_LOG;
	struct ifreq ifr;
	int fd;

	if (getifaddrs(&ifs) != 0)
		return mtu_log;
	for (struct ifaddrs *i = ifs; i != NULL; i = i->ifa_next) {
		uint32_t a, m;

		if (i->ifa_addr == NULL || i->ifa_netmask == NULL || i->ifa_addr->sa_family != AF_INET)
			continue;
		a = ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr);
		m = ntohl(((struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr);
		if (a == ip || (name == NULL && (a & m) == (ip & m)))
			name = i->ifa_name;
		if (a == ip)
			break;
	}
	memset(&ifr, 0, sizeof(ifr));
	if (name == NULL) {
		freeifaddrs(ifs);
		return mtu_log;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	freeifaddrs(ifs);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && ioctl(fd, SIOCGIFMTU, &ifr) == 0)
		for (mtu_log = 12; mtu_log > 8 && (1 << mtu_log) > ifr.ifr_mtu - ROCE_MTU_HEADROOM; mtu_log--)
			;
	if (fd >= 0)
		close(fd);
	return mtu_log;
}

/*
 * The requester window: as many full packets as a quarter of the receive buffer holds (a peer on
 * a host set up alike takes a window's burst without loss; the kernel counts about 512 bytes more
 * per datagram; half lost READ responses now and then), 128 (rxe's) to ROCE_WINDOW_MAX. rxe's
 * 128 at MTU 4096 is 512 KiB per round trip, and a 1 MiB READ alone takes 256 PSNs; a softdoca
 * peer that is woken for its packets takes a while to answer. SOFTDOCA_ROCE_WINDOW sets it.
 */
static uint32_t roce_window(size_t rcvbuf, uint32_t mtu)
{
	size_t w = rcvbuf / 4 / (mtu + 512);
	const char *e = getenv("SOFTDOCA_ROCE_WINDOW");

	if (e != NULL && atoi(e) > 0)
		return (uint32_t)atoi(e);
	return w < ROCE_RC_MAX_UNACKED ? ROCE_RC_MAX_UNACKED : w > ROCE_WINDOW_MAX ? ROCE_WINDOW_MAX : (uint32_t)w;
}

/*
 * The port of fn's address, opened (and watched by the service thread) on first use; NULL:
 * logged why, *failed. Addresses are unique in the model: the port is that function's card's.
 */
static struct roce_lport *lport_get(const struct softhw_function *fn, doca_error_t *failed)
{
	const uint32_t ip = fn_ip(fn);
	struct roce_lport *lp = NULL;
	const struct softhw_model *model;
	const char *why = "";
	doca_error_t err;
	char text[16];

	*failed = DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&ports.lock);
	for (int i = 0; i < ports.n; i++)
		if (ports.ports[i]->ip == ip)
			lp = ports.ports[i];
	if (lp != NULL || ports.n == ROCE_MAX_PORTS) {
		pthread_mutex_unlock(&ports.lock);
		if (lp == NULL)
			SDK_LOG_ERR("RoCEv2: more than %d local addresses in one process; use fewer rocev2 functions",
				    ROCE_MAX_PORTS);
		*failed = lp != NULL ? DOCA_SUCCESS : DOCA_ERROR_FULL;
		return lp;
	}
	ip_text(ip, text, sizeof(text));
	model = softhw_model_get(&err);
	lp = calloc(1, sizeof(*lp));
	if (lp != NULL)
		lp->msgs = calloc(ROCE_RX_BATCH, sizeof(*lp->msgs));
	if (model == NULL || lp == NULL || lp->msgs == NULL || softhw_model_run_dir_create(model) != DOCA_SUCCESS) {
		pthread_mutex_unlock(&ports.lock);
		SDK_LOG_ERR("RoCEv2: cannot open UDP port 4791 on %s: no memory or no run directory", text);
		if (lp != NULL)
			free(lp->msgs);
		free(lp);
		return NULL;
	}
	err = roce_port_open(softhw_model_run_dir(model), ip, 0, &lp->port, &why);
	if (err != DOCA_SUCCESS) {
		pthread_mutex_unlock(&ports.lock);
		SDK_LOG_ERR("RoCEv2: cannot open UDP port 4791 on %s (%s): %s%s", text, doca_error_get_name(err), why,
			    err == DOCA_ERROR_IN_USE ? "; another user's program or the kernel's rdma_rxe holds the port" : "");
		free(lp->msgs);
		free(lp);
		*failed = err;
		return NULL;
	}
	pthread_mutex_init(&lp->lock, NULL);
	pthread_mutex_init(&lp->rx, NULL);
	lp->ip = ip;
	lp->faults = fn->card->faults;
	lp->held_due = UINT64_MAX;
	lp->mtu_log = if_mtu_log(ip);
	roce_port_use_gro(lp->port); /* lport_drain offers ROCE_RX_BATCH msgs */
	lp->window = roce_window(roce_port_rcvbuf(lp->port), 1u << lp->mtu_log);
	lp->hold_pool.max = ROCE_HOLD_POOL;
	lp->link.id = RNIC_PATH_ROCE;
	lp->link.kind = (uint8_t)ports.n;
	lp->cm = (struct roce_cm_local){.port = lp->port, .lock = &lp->lock, .ip = ip, .mtu_log = lp->mtu_log};
	ports.ports[ports.n++] = lp;
	rnic_nic_add_fd(roce_port_fd(lp->port), &lp->link, RNIC_TAG_NIC, EPOLLIN);
	pthread_mutex_unlock(&ports.lock);
	*failed = DOCA_SUCCESS;
	return lp;
}

/* ---- the engine's callbacks (qp lock held) ---- */

/*
 * Sends the datagrams emit gathered, in one sendmmsg: each run of datagrams of one size (the
 * last of a run may be shorter: a message's LAST packet) is one UDP GSO send, which takes one
 * trip through the kernel's stack (and a veth or loopback) instead of one per datagram. The
 * kernel gives the datagrams of a run IPv4 IDs 0, 1, 2, ... (from the unconnected socket's 0 with
 * DF), so datagram i of a run gets the ICRC of ID i: byte-exact on the wire, for rxe too.
 */
/*
 * An ACK first, then a reply (a ping-pong's, posted while the ACK was owed, rx_done): the ACK
 * goes last. ACKs and requests are independent streams (the responder's and the requester's
 * PSNs): their order on the wire does not matter to either end.
 * - A reply that completes a receive at the peer (a SEND, a WRITE with immediate) leaves alone,
 *   the ACK as its own datagram behind it in the same sendmmsg, whatever their lengths (a SEND
 *   of up to 4 bytes is no longer than the ACK). The peer's owner reads the reply alone and its
 *   application, which waits on it, has it before the ACK's receive work (its ICRC, the send's
 *   completion) is done: in one coalesced read that work came first (send/receive ping-pong
 *   3.6 -> 3.0 us on the veth, where plain UDP takes 2.1 us either way). A requester that waits
 *   for its send's ACK too has it right after.
 * - Any other reply (a WRITE, READ responses, an atomic's), in datagrams of one length longer
 *   than the ACK, makes one GSO run with it: the peer polls memory, and a requester that writes
 *   again waits for its ACK before it reuses its task, so both must come in one read (apart, a
 *   write ping-pong lost 0.25 us).
 */
#define ROCE_ACK_LAST_BYTES 8192 /* what is moved for it at most: the short batches of latency */

/* A reply datagram of a message that completes a receive at the peer, whose application waits
 * on it: any packet of a SEND; a WRITE with immediate's last (its first packets do not say). */
static bool wakes_receiver(uint8_t op)
{
	return op <= ROCE_RC_SEND_ONLY_IMM || op == ROCE_RC_SEND_LAST_INV || op == ROCE_RC_SEND_ONLY_INV ||
	       op == ROCE_RC_WRITE_LAST_IMM || op == ROCE_RC_WRITE_ONLY_IMM;
}

/* Returns true when the ACK, now last, goes apart from the reply (its own datagram, same call). */
static bool tx_ack_last(struct roce_qp *s)
{
	uint16_t a = s->txlen[0], len = s->ntx > 1 ? s->txlen[1] : 0;
	uint8_t ack[32]; /* BTH, AETH, ICRC: 20 bytes */
	unsigned rest = s->ntx - 1;
	bool apart;

	if (s->ntx < 2 || s->ntx > ROCE_GSO_SEGS || s->tx[0] != ROCE_RC_ACK || s->txref[0] != NULL ||
	    a > sizeof(ack) || s->txoff > ROCE_ACK_LAST_BYTES)
		return false;
	/* (the ACK is all in tx: the first reply datagram's BTH follows it there) */
	apart = wakes_receiver(s->tx[a]);
	if (!apart) { /* one GSO run: replies of one length, the shorter ACK last */
		if (a >= len)
			return false;
		for (unsigned j = 2; j < s->ntx; j++)
			if (s->txlen[j] != len)
				return false;
	}
	memcpy(ack, s->tx, a);
	memmove(s->tx, s->tx + a, s->txoff - a);
	memcpy(s->tx + s->txoff - a, ack, a);
	memmove(s->txlen, s->txlen + 1, rest * sizeof(s->txlen[0]));
	memmove(s->txhdr, s->txhdr + 1, rest * sizeof(s->txhdr[0]));
	memmove(s->txref, s->txref + 1, rest * sizeof(s->txref[0]));
	s->txlen[rest] = a;
	s->txref[rest] = NULL;
	__atomic_fetch_add(&s->lp->acks_behind, 1, __ATOMIC_RELAXED);
	return apart;
}

/*
 * Datagram j's pieces, ICRC written (for IPv4 ID ip->id), appended to iov[*n]; a piece that
 * continues the one before it in tx is merged into it, from the run's first piece iov[first]
 * on. Returns the datagram's bytes in tx.
 */
static size_t tx_pieces(struct roce_qp *s, unsigned j, uint8_t *d, const struct roce_ip4 *ip, uint16_t sport,
			struct iovec *iov, unsigned first, unsigned *n)
{
	size_t dl = s->txlen[j], head = s->txref[j] == NULL ? dl : s->txhdr[j], t = 0, plen = 0;

	if (s->txref[j] == NULL) {
		roce_icrc_store(d, dl, roce_icrc_ip4(ip, sport, ROCE_UDP_PORT, d, dl));
	} else {
		t = (size_t)((d[1] >> 4) & 3) + ROCE_ICRC_LEN; /* the BTH's pad count, then the ICRC */
		plen = dl - head - t;
		roce_icrc_store(d + head, t, roce_icrc_ip4_split(ip, sport, ROCE_UDP_PORT, d, head, s->txref[j], plen));
	}
	if (*n > first && (uint8_t *)iov[*n - 1].iov_base + iov[*n - 1].iov_len == d)
		iov[*n - 1].iov_len += head;
	else
		iov[(*n)++] = (struct iovec){ d, head };
	if (s->txref[j] == NULL)
		return dl;
	iov[(*n)++] = (struct iovec){ (void *)s->txref[j], plen };
	iov[(*n)++] = (struct iovec){ d + head, t };
	return head + t;
}

static void tx_flush(struct roce_qp *s)
{
	struct roce_lport *lp = s->lp;
	struct roce_ip4 ip = {.src = lp->ip, .dst = s->peer_ip, .frag = ROCE_IP4_DF};
	struct iovec iov[3 * ROCE_TX_BATCH];
	struct roce_port_run runs[ROCE_TX_BATCH];
	uint16_t sport;
	unsigned nruns = 0, niov = 0;
	size_t off = 0;
	bool apart, gso;

	if (s->ntx == 0)
		return;
	apart = tx_ack_last(s);
	sport = roce_port_qp_sport(lp->port, s->qpn);
	gso = roce_port_gso(lp->port); /* (a run that meets the kernel's refusal first is lost once, and resent) */
	for (unsigned j = 0; j < s->ntx;) {
		uint16_t len = s->txlen[j];
		size_t bytes = 0;
		unsigned k = 0, first = niov;

		/* a run: datagrams of len bytes, then possibly one shorter that ends it */
		while (j + k < s->ntx && k < ROCE_GSO_SEGS && bytes + s->txlen[j + k] <= ROCE_GSO_BYTES &&
		       s->txlen[j + k] <= len && !(apart && k > 0 && j + k == s->ntx - 1)) {
			uint16_t dl = s->txlen[j + k];

			ip.id = gso ? (uint16_t)k : 0; /* the ID the kernel gives it, inside the ICRC */
			off += tx_pieces(s, j + k, s->tx + off, &ip, sport, iov, first, &niov);
			bytes += dl;
			k++;
			if (dl < len)
				break;
		}
		runs[nruns++] = (struct roce_port_run){ &iov[first], niov - first, k > 1 ? len : 0 };
		j += k;
	}
	pthread_mutex_lock(&lp->lock);
	/* a full socket buffer is lost packets: the engine sends them again */
	(void)roce_port_send_gso(lp->port, s->qpn, s->peer_ip, 0, runs, nruns);
	pthread_mutex_unlock(&lp->lock);
	s->ntx = 0;
	s->nref = 0;
	s->txoff = 0;
}

/* The engine builds each datagram in tx, behind the ones waiting: no copy. */
static uint8_t *rc_tx_buf(void *ctx, size_t *cap)
{
	struct roce_qp *s = ctx;

	if (s->ntx == ROCE_TX_BATCH || s->txoff + ROCE_PORT_DGRAM_MAX > sizeof(s->tx))
		tx_flush(s);
	*cap = ROCE_PORT_DGRAM_MAX;
	return s->tx + s->txoff;
}

static void rc_emit(void *ctx, const uint8_t *buf, size_t len)
{
	struct roce_qp *s = ctx;

	if (len > ROCE_PORT_DGRAM_MAX)
		return; /* cannot be: the engine's MTU is at most 4096 */
	if (buf != s->tx + s->txoff) { /* not built by rc_tx_buf */
		if (s->ntx == ROCE_TX_BATCH || s->txoff + len > sizeof(s->tx))
			tx_flush(s);
		memcpy(s->tx + s->txoff, buf, len);
	}
	s->txref[s->ntx] = NULL;
	s->txlen[s->ntx++] = (uint16_t)len;
	s->txoff += len;
}

/* Only the headers, pad and ICRC go into tx: the payload is sent from the WR's memory (rc_complete
 * sends what is waiting before it passes a send completion on). */
static void rc_emit_ref(void *ctx, const uint8_t *hdr, size_t hlen, const void *payload, size_t plen)
{
	struct roce_qp *s = ctx;
	size_t t = roce_pad_len(plen) + ROCE_ICRC_LEN;

	if (hlen + plen + t > ROCE_PORT_DGRAM_MAX)
		return; /* cannot be: the engine's MTU is at most 4096 */
	if (s->ntx == ROCE_TX_BATCH || s->txoff + hlen + t > sizeof(s->tx))
		tx_flush(s);
	memcpy(s->tx + s->txoff, hdr, hlen);
	memset(s->tx + s->txoff + hlen, 0, t);
	s->txhdr[s->ntx] = (uint16_t)hlen;
	s->txref[s->ntx] = payload;
	s->txlen[s->ntx++] = (uint16_t)(hlen + plen + t);
	s->txoff += hlen + t;
	s->nref++;
}

static bool rkey_export(uint32_t rkey, uint64_t *id, uint64_t *token)
{
	return softhw_mem_export_by_rkey32(rkey, id, token);
}

/* The net-exported sync event value an R_Key with the top bit names at va, bound; NULL: none. */
static struct softhw_value *rkey_value(uint32_t rkey, uint64_t va)
{
	struct softhw_value *v = softhw_value_find_rkey32(rkey, va);

	if (v != NULL && !softhw_value_net_exported(v)) { /* a descriptor of another kind */
		softhw_value_unbind(v);
		return NULL;
	}
	return v;
}

static int rc_rkey_check(void *ctx, uint32_t rkey, uint64_t va, uint64_t len, unsigned int access)
{
	struct roce_qp *s = ctx;
	uint32_t flag = access & ROCE_RC_ACC_ATOMIC ? DOCA_ACCESS_FLAG_RDMA_ATOMIC
			: access & ROCE_RC_ACC_READ ? DOCA_ACCESS_FLAG_RDMA_READ
						    : DOCA_ACCESS_FLAG_RDMA_WRITE;
	uint64_t id, token;

	if (s->verbs && !(s->verbs_access & flag))
		return ROCE_NAK_REM_ACCESS; /* the QP's qp_access_flags lack the right, as rxe checks them */
	if (rkey >> 31) {
		/* a sync event: get is a READ, set a WRITE, add a FETCH_ADD of its 8 bytes (the stream's rights) */
		struct softhw_value *v = rkey_value(rkey, va);
		uint32_t need = flag == DOCA_ACCESS_FLAG_RDMA_READ ? DOCA_ACCESS_FLAG_RDMA_READ : DOCA_ACCESS_FLAG_RDMA_WRITE;
		bool ok = v != NULL && len == sizeof(uint64_t) && (s->link.qp->ep->attr.access & need) != 0;

		if (v != NULL)
			softhw_value_unbind(v);
		return ok ? 0 : ROCE_NAK_REM_ACCESS;
	}
	if (!rkey_export(rkey, &id, &token))
		return ROCE_NAK_REM_ACCESS;
	return rnic_remote_check(s->link.qp, flag, id, token, va, len) == DOCA_SUCCESS ? 0 : ROCE_NAK_REM_ACCESS;
}

static void rc_mem_write(void *ctx, uint32_t rkey, uint64_t va, const void *src, size_t len)
{
	uint64_t id, token;

	(void)ctx;
	if (rkey >> 31) {
		struct softhw_value *v = rkey_value(rkey, va);
		uint64_t x;

		if (v != NULL && len == sizeof(x)) {
			memcpy(&x, src, sizeof(x));
			softhw_value_store(v, x);
		}
		if (v != NULL)
			softhw_value_unbind(v);
		return;
	}
	/* checked by rc_rkey_check; an export that ended meanwhile takes nothing */
	if (rkey_export(rkey, &id, &token))
		(void)rnic_write_place(id, token, va, src, len);
}

static void rc_mem_read(void *ctx, uint32_t rkey, uint64_t va, void *dst, size_t len)
{
	uint64_t id, token;

	(void)ctx;
	if (rkey >> 31) {
		struct softhw_value *v = rkey_value(rkey, va);
		uint64_t x = 0;

		if (v != NULL && len == sizeof(x))
			x = softhw_value_load(v);
		memset(dst, 0, len);
		memcpy(dst, &x, len < sizeof(x) ? len : sizeof(x));
		if (v != NULL)
			softhw_value_unbind(v);
		return;
	}
	/* what ended meanwhile reads as zeros, as freed memory under a hardware NIC's read */
	if (!rkey_export(rkey, &id, &token) || softhw_mem_export_copy(id, token, va, dst, len, false) != DOCA_SUCCESS)
		memset(dst, 0, len);
}

static uint64_t rc_atomic(void *ctx, uint32_t rkey, uint64_t va, bool cmp_swap, uint64_t swap_add, uint64_t compare)
{
	uint64_t id, token, old = 0;

	(void)ctx;
	if (rkey >> 31) {
		struct softhw_value *v = rkey_value(rkey, va);

		/* notify add; a compare-and-swap is no DOCA task, but a verbs peer's does what hardware does */
		if (v != NULL)
			old = cmp_swap ? softhw_value_compare_swap(v, compare, swap_add) : softhw_value_fetch_add(v, swap_add);
		if (v != NULL)
			softhw_value_unbind(v);
		return old;
	}
	if (rkey_export(rkey, &id, &token)) {
		if (cmp_swap)
			(void)rnic_atomic_do(id, token, va, false, compare, swap_add, &old);
		else
			(void)rnic_atomic_do(id, token, va, true, swap_add, 0, &old);
	}
	return old;
}

/*
 * A receive or READ of one piece gets its payload where the application wants it (rc_place);
 * the engine writes the others into a bounce buffer of this path (and an atomic's result),
 * copied out at completion (rnic_recv_fill, scatter). Every store into the application's memory
 * is under softhw_share_store_begin / end, which keeps a move of its pages onto a shared window
 * out. The engine holds a receive or READ until it completes, and stores nothing once the qp is
 * in error, the state a flush puts it in: nothing lands after the owner has its memory back.
 */
static bool rc_recv_take(void *ctx, struct roce_rc_recv *out)
{
	struct roce_qp *s = ctx;
	struct rnic_recv *r = rnic_ep_take_recv(s->link.qp->ep);
	uint32_t len;
	struct roce_rhold *h;

	if (r == NULL)
		return false; /* the engine answers RNR; the sender tries again */
	len = r->bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)r->bytes;
	h = calloc(1, sizeof(*h));
	/* one piece: the engine places the message there (rc_place), recv_complete copies nothing */
	if (h != NULL && !(len > 0 && r->num_sge == 1 && r->sgl[0].len >= len)) {
		h->bounce = malloc(len > 0 ? len : 1);
		if (h->bounce == NULL) {
			free(h);
			h = NULL;
		}
	}
	if (h == NULL) { /* no memory: give the receive back failed, and answer RNR */
		rnic_ep_recv_done(s->link.qp->ep, s->link.qp, r, DOCA_ERROR_NO_MEMORY, SOFTHW_RNIC_OP_SEND, 0, 0);
		return false;
	}
	h->r = r;
	out->wr_id = (uint64_t)(uintptr_t)h;
	out->buf = h->bounce != NULL ? h->bounce : r->sgl[0].addr;
	out->len = len;
	return true;
}

/* The DOCA error other paths give for the same failure. */
static doca_error_t status_of(enum roce_rc_status st)
{
	switch (st) {
	case ROCE_RC_WC_SUCCESS:
		return DOCA_SUCCESS;
	case ROCE_RC_WC_LOC_LEN_ERR:
		return DOCA_ERROR_TOO_BIG;           /* the message did not fit the receive */
	case ROCE_RC_WC_REM_INV_REQ_ERR:
		return DOCA_ERROR_INVALID_VALUE;     /* the responder refused the request (too long for its receive, ...) */
	case ROCE_RC_WC_REM_ACCESS_ERR:
		return DOCA_ERROR_NOT_PERMITTED;     /* R_Key, range or right refused */
	case ROCE_RC_WC_RNR_RETRY_EXC_ERR:
		return DOCA_ERROR_AGAIN;             /* no receive posted in time, as the stream */
	case ROCE_RC_WC_RETRY_EXC_ERR:
		return DOCA_ERROR_CONNECTION_ABORTED; /* the peer stopped answering */
	case ROCE_RC_WC_WR_FLUSH_ERR:
		return DOCA_ERROR_SHUTDOWN;
	default:
		return DOCA_ERROR_IO_FAILED;
	}
}

/* Work requests whose result is the 8 bytes of a remote value (atomics, sync event get / add). */
static bool eight_bytes(enum softhw_rnic_opcode op)
{
	return op == SOFTHW_RNIC_OP_CMP_SWP || op == SOFTHW_RNIC_OP_FETCH_ADD || op == SOFTHW_RNIC_OP_SE_GET ||
	       op == SOFTHW_RNIC_OP_SE_ADD;
}

static void *bounce_take(struct roce_qp *s, uint64_t seq)
{
	for (struct roce_bounce **pp = &s->bounces; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->seq == seq) {
			struct roce_bounce *b = *pp;
			void *buf = b->buf;

			*pp = b->next;
			free(b);
			return buf;
		}
	return NULL;
}

/* Every bounce buffer of the qp (its work is gone: free or reset). */
static void bounces_drop(struct roce_qp *s)
{
	while (s->bounces != NULL)
		free(bounce_take(s, s->bounces->seq));
}

/* Copies a bounce buffer out to a work request's pieces (READ, atomics). */
static void scatter(const struct rnic_wr *wr, const uint8_t *buf, uint64_t len)
{
	uint64_t off = 0;

	softhw_share_store_begin();
	for (uint32_t i = 0; i < wr->num_sge && off < len; i++) {
		uint64_t take = len - off < wr->sgl[i].len ? len - off : wr->sgl[i].len;

		memcpy(wr->sgl[i].addr, buf + off, take);
		off += take;
	}
	softhw_share_store_end();
}

static void recv_complete(struct roce_qp *s, const struct roce_rc_cqe *c)
{
	struct rnic_qp *qp = s->link.qp;
	struct roce_rhold *h = (struct roce_rhold *)(uintptr_t)c->wr_id;
	doca_error_t status = status_of(c->status);
	enum softhw_rnic_opcode op = c->op == ROCE_RC_OP_RECV_WRITE_IMM ? SOFTHW_RNIC_OP_WRITE_IMM
				     : c->has_imm			   ? SOFTHW_RNIC_OP_SEND_IMM
				     : c->has_inv			   ? SOFTHW_RNIC_OP_SEND_INV
									   : SOFTHW_RNIC_OP_SEND;

	if (h->bounce != NULL && status == DOCA_SUCCESS && op != SOFTHW_RNIC_OP_WRITE_IMM)
		status = rnic_recv_fill(h->r, h->bounce, c->byte_len);
	rnic_ep_recv_done(qp->ep, qp, h->r, status, op, status == DOCA_SUCCESS ? c->byte_len : 0,
			  c->has_imm ? htonl(c->imm) : c->has_inv ? c->inv_rkey : 0);
	free(h->bounce);
	free(h);
}

/* The peer for a log line: a softdoca peer's process, or (connected by GID: verbs, Linux) its address. */
static const char *peer_name(const struct rnic_qp *qp, char *buf, size_t len)
{
	uint32_t ip = rq_of(qp)->peer_ip; /* host order */

	if (qp->peer.pid > 0)
		snprintf(buf, len, "process %d", (int)qp->peer.pid);
	else
		snprintf(buf, len, "the peer at %u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
	return buf;
}

static void rc_complete(void *ctx, const struct roce_rc_cqe *c)
{
	struct roce_qp *s = ctx;
	struct rnic_qp *qp = s->link.qp;
	struct rnic_wr *wr = qp->wq_head;
	doca_error_t status = status_of(c->status);
	void *bounce;
	uint64_t len;

	if (c->recv) {
		recv_complete(s, c);
		return;
	}
	/*
	 * Datagrams that may read this WR's memory leave first: it is the owner's again once the
	 * completion is passed on, and a failed one makes the core flush the rest too. (After a
	 * failure the engine is in error and emits no more requests: nothing new can point at them.)
	 */
	if (s->nref != 0)
		tx_flush(s);
	bounce = bounce_take(s, c->wr_id);
	if (s->shut || wr == NULL || wr->seq != c->wr_id || wr->path != RNIC_PATH_ROCE) {
		free(bounce); /* flushed by the core already */
		return;
	}
	len = eight_bytes(wr->op) ? sizeof(uint64_t) : wr->bytes;
	if (bounce != NULL && status == DOCA_SUCCESS && (wr->op == SOFTHW_RNIC_OP_READ || eight_bytes(wr->op)))
		scatter(wr, bounce, len);
	free(bounce);
	if (status != DOCA_SUCCESS) {
		char who[48];

		SDK_LOG_ERR("RoCEv2 QP 0x%06x: a work request to %s failed: %s (%s)", s->qpn, peer_name(qp, who, sizeof(who)),
			    roce_rc_status_name(c->status), doca_error_get_name(status));
	}
	rnic_qp_complete_head(qp, status, status == DOCA_SUCCESS ? len : 0);
	if (s->failed_seq != 0 && qp->wq_head != NULL && qp->wq_head->seq == s->failed_seq) {
		s->failed_seq = 0; /* its turn came */
		rnic_qp_complete_head(qp, s->failed_err, 0);
	}
}

/* A READ response or a SEND into the application's memory: the service thread guards its stores (share.h). */
static void rc_place(void *ctx, void *dst, const void *src, size_t len)
{
	(void)ctx;
	softhw_share_store_begin();
	memcpy(dst, src, len);
	softhw_share_store_end();
}

static const struct roce_rc_ops rc_ops = {
	.emit = rc_emit,
	.tx_buf = rc_tx_buf,
	.emit_ref = rc_emit_ref,
	.rkey_check = rc_rkey_check,
	.mem_write = rc_mem_write,
	.mem_read = rc_mem_read,
	.atomic = rc_atomic,
	.place = rc_place,
	.recv_take = rc_recv_take,
	.complete = rc_complete,
};

/* ---- driving the engine (qp lock held) ---- */

static void rc_enter(struct roce_qp *s)
{
	s->in_rc++;
}

/* Leaves an engine call: an error the core asked for meanwhile is applied now. */
static void rc_leave(struct roce_qp *s)
{
	if (s->in_rc == 1)
		tx_flush(s); /* what the call emitted: one system call */
	if (--s->in_rc == 0 && s->error_pending && s->rc != NULL) {
		s->error_pending = false;
		s->in_rc++;
		roce_rc_set_error(s->rc); /* flushes: receives go back to the ep, sends are the core's */
		s->in_rc--;
		tx_flush(s);
	}
}

/*
 * qp lock held, after rc_poll said the deadline is new: the service thread must learn it if it
 * does not watch the qp yet, or sleeps past it (it computed its sleep before the deadline came).
 */
static bool kick_needed(const struct rnic_qp *qp, const struct roce_qp *s)
{
	return !qp->timed || rnic_nic_sleeps_past((s->deadline + 999999u) / 1000000u);
}

/* Runs the engine's timers and output; true if its deadline is new (the service thread must learn it). */
static bool rc_poll(struct roce_qp *s)
{
	uint64_t before = s->deadline;

	s->poll_owed = false;
	do {
		uint64_t t = now_ns();

		if (s->rc == NULL)
			return false;
		s->repoll = false;
		rc_enter(s);
		s->deadline = roce_rc_poll(s->rc, t);
		rc_leave(s);
		/*
		 * READ responses wait for the service thread's next turn, after the other qps had
		 * theirs: due at once, not at the next millisecond (roce_next_time rounds up).
		 */
		if (s->deadline <= t)
			s->deadline = 0;
	} while (s->repoll);
	return s->deadline != ROCE_RC_NO_DEADLINE && s->deadline < before;
}

/* The engine's R_Key of a work request's remote memory or sync event; 0: none fits (logged). */
static uint32_t wr_rkey(const struct roce_qp *s, const struct rnic_wr *wr, bool event)
{
	uint32_t rkey = event ? softhw_value_rkey32(wr->rkey.id, wr->rkey.token)
			      : softhw_mem_rkey32(wr->rkey.id, wr->rkey.token);

	if (rkey == 0)
		SDK_LOG_ERR("RoCEv2 QP 0x%06x: the remote %s id %llu does not fit a 32-bit R_Key (23 bits)", s->qpn,
			    event ? "sync event's value" : "memory's export", (unsigned long long)wr->rkey.id);
	return rkey;
}

/* A buffer of the path for the engine (see rc_recv_take): kept until the work request completes. */
static void *bounce_new(struct roce_qp *s, uint64_t seq, uint64_t len)
{
	struct roce_bounce *b = calloc(1, sizeof(*b));

	if (b != NULL)
		b->buf = calloc(1, len > 0 ? len : 1);
	if (b == NULL || b->buf == NULL) {
		free(b);
		return NULL;
	}
	b->seq = seq;
	b->next = s->bounces;
	s->bounces = b;
	return b->buf;
}

static doca_error_t wr_build(struct roce_qp *s, const struct rnic_wr *wr, struct roce_rc_wr *w)
{
	bool event = wr->op == SOFTHW_RNIC_OP_SE_GET || wr->op == SOFTHW_RNIC_OP_SE_SET || wr->op == SOFTHW_RNIC_OP_SE_ADD;

	memset(w, 0, sizeof(*w));
	w->wr_id = wr->seq;
	w->len = (uint32_t)wr->bytes;
	w->remote_va = wr->rkey.addr;
	w->imm = ntohl(wr->imm); /* DOCA's immediate is big-endian already; the engine sends host values so */
	switch (wr->op) {
	case SOFTHW_RNIC_OP_SEND:
		w->op = ROCE_RC_OP_SEND;
		break;
	case SOFTHW_RNIC_OP_SEND_INV: /* the IETH carries the rkey */
		w->op = ROCE_RC_OP_SEND_INV;
		w->inv_rkey = wr->imm;
		break;
	case SOFTHW_RNIC_OP_SEND_IMM:
		w->op = ROCE_RC_OP_SEND_IMM;
		break;
	case SOFTHW_RNIC_OP_WRITE:
	case SOFTHW_RNIC_OP_SE_SET: /* the event's 8 bytes written */
		w->op = ROCE_RC_OP_WRITE;
		break;
	case SOFTHW_RNIC_OP_WRITE_IMM:
		w->op = ROCE_RC_OP_WRITE_IMM;
		break;
	case SOFTHW_RNIC_OP_READ:
	case SOFTHW_RNIC_OP_SE_GET: /* the event's 8 bytes read */
		w->op = ROCE_RC_OP_READ;
		break;
	case SOFTHW_RNIC_OP_CMP_SWP:
		w->op = ROCE_RC_OP_CMP_SWAP;
		w->compare = wr->arg0;
		w->swap_add = wr->arg1;
		break;
	case SOFTHW_RNIC_OP_FETCH_ADD:
	case SOFTHW_RNIC_OP_SE_ADD: /* a fetch-and-add on the event */
		w->op = ROCE_RC_OP_FETCH_ADD;
		w->swap_add = wr->arg0;
		break;
	default:
		SDK_LOG_ERR("RoCEv2 QP 0x%06x: work request opcode %d is not supported on the rocev2 path", s->qpn,
			    (int)wr->op);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (wr->bytes > ROCE_RC_MAX_MSG)
		return DOCA_ERROR_TOO_BIG;
	if (wr->op != SOFTHW_RNIC_OP_SEND && wr->op != SOFTHW_RNIC_OP_SEND_IMM && wr->op != SOFTHW_RNIC_OP_SEND_INV) {
		/* id 0: a key the peer never announced (verbs): R_Key 0 names nothing, the target NAKs it */
		w->rkey = wr->rkey.id != 0 ? wr_rkey(s, wr, event) : 0;
		if (w->rkey == 0 && wr->rkey.id != 0)
			return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (event)
		w->len = sizeof(uint64_t);
	if (wr->op == SOFTHW_RNIC_OP_SE_SET) {
		w->local = bounce_new(s, wr->seq, sizeof(uint64_t));
		if (w->local != NULL)
			memcpy(w->local, &wr->arg0, sizeof(uint64_t));
	} else if (wr->op == SOFTHW_RNIC_OP_READ && wr->bytes > 0 && wr->num_sge == 1 && wr->sgl[0].len >= wr->bytes) {
		w->local = wr->sgl[0].addr; /* the responses go straight there (rc_place), as a NIC places them */
	} else if (wr->op == SOFTHW_RNIC_OP_READ || eight_bytes(wr->op)) {
		/* the engine writes the result into a buffer of ours: scattered on completion */
		w->local = bounce_new(s, wr->seq, eight_bytes(wr->op) ? sizeof(uint64_t) : wr->bytes);
	} else if (wr->num_sge == 1) {
		w->local = wr->sgl[0].addr; /* a SEND / WRITE source: the engine only reads it */
	} else if (wr->num_sge > 1) {
		uint8_t *b = bounce_new(s, wr->seq, wr->bytes);
		uint64_t off = 0;

		for (uint32_t i = 0; b != NULL && i < wr->num_sge; i++) {
			memcpy(b + off, wr->sgl[i].addr, wr->sgl[i].len);
			off += wr->sgl[i].len;
		}
		w->local = b;
	} else {
		return DOCA_SUCCESS; /* nothing to send */
	}
	return w->local != NULL ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;
}

/*
 * A wr the engine cannot take fails in its turn: at once if it is the oldest, else when the
 * ones before it completed (rc_complete); the qp then goes to error and flushes what follows.
 */
static void wr_failed(struct roce_qp *s, struct rnic_qp *qp, const struct rnic_wr *wr, doca_error_t err)
{
	free(bounce_take(s, wr->seq));
	if (qp->wq_head == wr) {
		rnic_qp_complete_head(qp, err, 0);
	} else if (s->failed_seq == 0) {
		s->failed_seq = wr->seq;
		s->failed_err = err;
	}
}

static void roce_post(struct rnic_qp *qp, struct rnic_wr *wr)
{
	struct roce_qp *s = rq_of(qp);
	struct roce_rc_wr w;
	doca_error_t err;
	bool ok;

	if (s->failed_seq != 0)
		return; /* behind a failed wr: flushed with the qp */
	err = s->rc != NULL ? wr_build(s, wr, &w) : DOCA_ERROR_NOT_CONNECTED;
	if (err != DOCA_SUCCESS) {
		wr_failed(s, qp, wr, err);
		return;
	}
	rc_enter(s);
	ok = roce_rc_post(s->rc, &w);
	rc_leave(s);
	if (!ok) { /* can_post keeps the queue from filling: a malformed request */
		wr_failed(s, qp, wr, DOCA_ERROR_INVALID_VALUE);
		return;
	}
	if (qp->inflight[RNIC_PATH_ROCE] == 1) /* (counted already) the first after a quiet time */
		s->heard = now_ns();
	if (s->in_rc > 0) { /* posted by a completion: the engine call under way polls after */
		s->repoll = true;
		return;
	}
	/* the owner sends the first packets itself; the service thread keeps the time */
	if (rc_poll(s) && kick_needed(qp, s))
		rnic_nic_kick();
}

static bool roce_can_post(struct rnic_qp *qp, const struct rnic_wr *wr)
{
	(void)wr;
	return qp->inflight[RNIC_PATH_ROCE] < ROCE_SQ_DEPTH;
}

/* ---- the connection ops ---- */

/* A rocev2 card's eps; not DC, which stays softdoca's own (the stream carries it: docs/compatibility.md) */
static bool roce_serves(const struct rnic_ep *ep)
{
	return ep != NULL && fn_roce(ep->attr.fn) && !ep->attr.dc;
}

/* Read once per qp, when it opens, not on each tick of the timer (a program's setenv may race a getenv). */
static uint64_t dead_ns(void)
{
	const char *v = getenv("SOFTDOCA_ROCE_DEAD_MS");
	long ms = v != NULL ? atol(v) : 0;

	return (uint64_t)(ms > 0 ? ms : ROCE_DEAD_MS) * 1000000u;
}

static bool roce_open(struct rnic_qp *qp)
{
	struct roce_qp *s = calloc(1, sizeof(*s));
	doca_error_t err = DOCA_ERROR_NO_MEMORY;
	struct roce_lport *lp = s != NULL ? lport_get(qp->ep->attr.fn, &err) : NULL;

	if (s != NULL)
		s->dead = dead_ns();
	if (lp != NULL) {
		pthread_mutex_lock(&lp->lock);
		err = roce_port_qp_add(lp->port, &s->qpn);
		/* its source port taken (by another program or user): it sends from 4791, which works, but say so */
		if (err == DOCA_SUCCESS && roce_port_qp_sport(lp->port, s->qpn) != roce_udp_sport(s->qpn))
			SDK_LOG_WARN("RoCEv2 QP 0x%06x: UDP port %u on this address is taken by someone else; it sends "
				     "from port %u instead (free the port, or peers that predict it reach us through 4791)",
				     s->qpn, roce_udp_sport(s->qpn), roce_port_qp_sport(lp->port, s->qpn));
		pthread_mutex_unlock(&lp->lock);
		if (err != DOCA_SUCCESS)
			SDK_LOG_ERR("RoCEv2: no queue pair number free on this address (%s)", doca_error_get_name(err));
	}
	if (err != DOCA_SUCCESS) {
		free(s);
		return false;
	}
	s->link.qp = qp;
	s->link.id = RNIC_PATH_ROCE;
	s->lp = lp;
	s->psn = (uint32_t)softhw_token_new() & 0xffffff;
	s->deadline = ROCE_RC_NO_DEADLINE;
	pthread_mutex_lock(&ports.lock);
	s->next = lp->qps;
	lp->qps = s;
	pthread_mutex_unlock(&ports.lock);
	qp->path[RNIC_PATH_ROCE] = s;
	return true;
}

static uint8_t offered_mtu_log(const struct rnic_qp *qp)
{
	return roce_mtu_log_offered(rq_of(qp)->lp->mtu_log, qp->ep->attr.mtu_log);
}

static void roce_describe_qp(const struct rnic_qp *qp, struct rnic_peer *p)
{
	const struct roce_qp *s = rq_of(qp);

	p->roce_ip = s->lp->ip;
	p->roce_qpn = s->qpn;
	p->roce_psn = s->psn;
	p->roce_mtu_log = offered_mtu_log(qp);
}

static uint32_t roce_wire_qpn(const struct rnic_qp *qp)
{
	const struct roce_qp *s = rq_of(qp);

	return s != NULL ? s->qpn : 0;
}

/* The RNR NAK timer code closest above RNIC_RNR_INTERVAL_MS, what the stream's receiver waits. */
static uint8_t rnr_code(void)
{
	uint8_t best = 0;

	for (uint8_t c = 1; c < 32; c++)
		if (roce_rnr_timer_us(c) >= RNIC_RNR_INTERVAL_MS * 1000u &&
		    (best == 0 || roce_rnr_timer_us(c) < roce_rnr_timer_us(best)))
			best = c;
	return best;
}

/*
 * The peer (qp->peer: from its descriptor, or from RDMA-CM) is known: the engine starts; the qp
 * is RTS now if `established`. `service`: on the service thread (else it is woken to keep time).
 */
static bool qp_start(struct rnic_qp *qp, bool established, bool service)
{
	struct roce_qp *s = rq_of(qp);
	const struct rnic_peer *peer = &qp->peer;
	const uint8_t mine = s->cm_mtu ? s->lp->mtu_log : offered_mtu_log(qp);
	uint8_t mtu_log = peer->roce_mtu_log < mine ? peer->roce_mtu_log : mine;
	struct roce_rc_cfg cfg = {
		.qpn = s->qpn,
		.dest_qpn = peer->roce_qpn,
		.sq_psn = s->psn,
		.rq_psn = peer->roce_psn,
		.mtu = 1u << mtu_log,
		.timeout = ROCE_ACK_TIMEOUT,
		.retry_cnt = ROCE_RETRY,
		/* librdmacm's QP: what the peer's REQ (passive) or REP (active) asked, as Linux's; else our own */
		.rnr_retry = qp->cm_peer_rnr != 0 ? qp->cm_peer_rnr - 1u
			     : qp->ep->attr.rnr_retry_count > 7 ? 7 : qp->ep->attr.rnr_retry_count,
		.min_rnr_timer = s->verbs ? s->verbs_rnr_timer : rnr_code(),
		/* no more READs / atomics in flight than the peer's CM message said it serves */
		.max_rd_atomic = qp->cm_rd_atomic != 0 && qp->cm_rd_atomic < ROCE_RD_ATOMIC ? qp->cm_rd_atomic : ROCE_RD_ATOMIC,
		.max_dest_rd_atomic = s->verbs ? s->verbs_dest_rd : ROCE_RD_ATOMIC,
		.sq_depth = ROCE_SQ_DEPTH,
		.window = s->lp->window,
		.hold_pool = &s->lp->hold_pool,
		.ops = &rc_ops,
		.ctx = s,
	};
	doca_error_t err;

	if (peer->roce_qpn == 0 || peer->roce_ip == 0 || mtu_log < 8 || mtu_log > 12) {
		SDK_LOG_ERR("Failed to connect RDMA queue pair: the peer's descriptor names no RoCEv2 queue pair (QPN 0x%06x, MTU 2^%u)",
			    peer->roce_qpn, (unsigned)peer->roce_mtu_log);
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_INVALID_VALUE, DOCA_ERROR_CONNECTION_ABORTED);
		return false;
	}
	s->peer_ip = peer->roce_ip;
	s->mtu = (uint16_t)cfg.mtu;
	pthread_mutex_lock(&s->lp->lock);
	/*
	 * The peer's packets come straight here from its source port: a softdoca peer connected
	 * out of band sends from roce_udp_sport(its QPN); through RDMA-CM, rxe (and we, to match)
	 * send from the port of the path's flow label, the same at both ends.
	 */
	if (s->cm_sport != 0 && roce_port_qp_set_sport(s->lp->port, s->qpn, s->cm_sport) != DOCA_SUCCESS)
		SDK_LOG_WARN("RoCEv2 QP 0x%06x: cannot send from UDP port %u (the port of the connection's flow "
			     "label; taken by someone else): it sends from port %u, which the peer's socket may not expect",
			     s->qpn, s->cm_sport, roce_port_qp_sport(s->lp->port, s->qpn));
	err = roce_port_qp_connect(s->lp->port, s->qpn, peer->roce_ip,
				   s->cm_sport != 0 ? s->cm_sport : roce_udp_sport(peer->roce_qpn));
	pthread_mutex_unlock(&s->lp->lock);
	s->rc = roce_rc_create(&cfg);
	if (s->rc == NULL) {
		SDK_LOG_ERR("RoCEv2 QP 0x%06x: no memory for its RC state", s->qpn);
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_NO_MEMORY, DOCA_ERROR_CONNECTION_ABORTED);
		return false;
	}
	if (err != DOCA_SUCCESS) /* learning from the first datagram still works */
		SDK_LOG_DBG("RoCEv2 QP 0x%06x: receive socket not connected (%s)", s->qpn, doca_error_get_name(err));
	__atomic_store_n(&s->up, true, __ATOMIC_RELAXED);
	s->heard = now_ns();
	rnic_path_up(qp, RNIC_PATH_ROCE, true); /* its owner polls the port */
	qp->direct = 2; /* every operation goes on the wire: no cross-memory attach */
	if (established)
		rnic_qp_established(qp);
	if (service)
		rnic_nic_timed_add(qp);
	else
		rnic_nic_kick();
	return true;
}

/* Service thread: out of band, both descriptors are known (symmetric); RDMA-CM sends its REQ. */
static void roce_dial(struct rnic_qp *qp)
{
	if (qp->cm)
		roce_cm_dial(qp);
	else
		(void)qp_start(qp, true, true);
}

const struct roce_cm_local *roce_path_cm_local(const struct rnic_qp *qp)
{
	return &rq_of(qp)->lp->cm;
}

uint32_t roce_path_qpn(const struct rnic_qp *qp)
{
	return rq_of(qp)->qpn;
}

void roce_path_cm_flush(struct rnic_qp *qp)
{
	struct roce_qp *s = rq_of(qp);

	if (s != NULL && s->rc != NULL && s->in_rc == 0 && rc_poll(s) && kick_needed(qp, s))
		rnic_nic_kick();
}

bool roce_path_cm_unacked(struct rnic_qp *qp)
{
	const struct roce_qp *s = rq_of(qp);

	return s != NULL && s->rc != NULL && roce_rc_unacked(s->rc);
}

bool roce_path_cm_connect(struct rnic_qp *qp, uint32_t peer_ip, uint32_t peer_qpn, uint32_t sq_psn, uint32_t rq_psn,
			  uint8_t mtu_log, uint32_t flow_label, bool established, bool service)
{
	/*
	 * Both ends derive the same port from the label: on one address (two softdoca processes,
	 * never rxe, which would own UDP 4791 there) both would send (ip, port) -> (ip, 4791) and
	 * connect their receive sockets alike, and the kernel gives each datagram to either: the
	 * wrong process forwards it, or loses it when it exits first (a final ACK: 10 s stall).
	 * There each end sends from the port of its own QPN, as out of band.
	 */
	rq_of(qp)->cm_sport = peer_ip == rq_of(qp)->lp->ip ? 0 : roce_udp_sport_rc(flow_label, rq_of(qp)->qpn, peer_qpn);
	qp->peer.wire = 1;
	qp->peer.roce_ip = peer_ip;
	qp->peer.roce_qpn = peer_qpn;
	qp->peer.roce_psn = rq_psn; /* qp_start: what the peer sends first */
	qp->peer.roce_mtu_log = mtu_log;
	qp->has_peer = true;
	rq_of(qp)->psn = sq_psn;
	rq_of(qp)->cm_mtu = true;
	return qp_start(qp, established, service);
}

/*
 * Verbs' modify to RTR of a qp no one connected (qp lock held, QP_IDLE): the engine starts and
 * takes the peer's requests; it sends none until wire_rts gives its first PSN and counts.
 */
static doca_error_t roce_wire_rtr(struct rnic_qp *qp, const struct softhw_rnic_wire_rtr *a)
{
	struct roce_qp *s = rq_of(qp);

	if (s == NULL || s->rc != NULL)
		return DOCA_ERROR_BAD_STATE;
	if (a->peer_ip == 0 || a->peer_qpn < 2 || a->peer_qpn > 0xffffff) {
		SDK_LOG_ERR("RoCEv2 QP 0x%06x: cannot connect to QPN 0x%x at %u.%u.%u.%u: give the peer's IPv4-mapped GID (::ffff:a.b.c.d) and its QP number",
			    s->qpn, a->peer_qpn, a->peer_ip >> 24, (a->peer_ip >> 16) & 255, (a->peer_ip >> 8) & 255,
			    a->peer_ip & 255);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->mtu_log < 8 || a->mtu_log > s->lp->mtu_log) {
		SDK_LOG_ERR("RoCEv2 QP 0x%06x: path MTU 2^%u is above the port's active MTU %u (its interface's MTU less 96 bytes of headers): ask for at most that",
			    s->qpn, (unsigned)a->mtu_log, 1u << s->lp->mtu_log);
		return DOCA_ERROR_INVALID_VALUE;
	}
	s->verbs = true;
	s->verbs_access = a->access;
	s->verbs_rnr_timer = a->min_rnr_timer & 31;
	s->verbs_dest_rd = a->max_dest_rd_atomic < ROCE_RD_ATOMIC ? a->max_dest_rd_atomic : ROCE_RD_ATOMIC;
	return roce_path_cm_connect(qp, a->peer_ip, a->peer_qpn, 0, a->rq_psn, a->mtu_log, a->flow_label, true, false)
		       ? DOCA_SUCCESS
		       : DOCA_ERROR_INVALID_VALUE;
}

/* Verbs' modify to RTS after wire_rtr (qp lock held): the requester's first PSN and counts. */
static doca_error_t roce_wire_rts(struct rnic_qp *qp, const struct softhw_rnic_wire_rts *a)
{
	struct roce_qp *s = rq_of(qp);
	uint8_t rd = a->max_rd_atomic == 0 ? 1 : a->max_rd_atomic < ROCE_RD_ATOMIC ? a->max_rd_atomic : ROCE_RD_ATOMIC;

	if (s == NULL || !s->verbs || s->rc == NULL || qp->state != QP_RTS)
		return DOCA_ERROR_BAD_STATE;
	if (a->access_only) {
		s->verbs_access = a->access;
		return DOCA_SUCCESS;
	}
	if (a->timeout > 31 || a->retry_cnt > 7 || a->rnr_retry > 7)
		return DOCA_ERROR_INVALID_VALUE;
	if (!roce_rc_set_requester(s->rc, a->sq_psn, a->timeout, a->retry_cnt, a->rnr_retry, rd)) {
		SDK_LOG_ERR("RoCEv2 QP 0x%06x: moved to RTS after it was given work to send, or after an error", s->qpn);
		return DOCA_ERROR_BAD_STATE;
	}
	s->verbs_access = a->access; /* (only once the modify succeeds) */
	s->psn = a->sq_psn & ROCE_PSN_MASK;
	return DOCA_SUCCESS;
}

/* Verbs' modify to RESET (qp lock held, closed: no engine): as roce_open left it, the QPN kept. */
static void roce_wire_reset(struct rnic_qp *qp)
{
	struct roce_qp *s = rq_of(qp);

	if (s == NULL)
		return;
	bounces_drop(s);
	s->verbs = s->shut = s->cm_mtu = s->error_pending = s->repoll = s->poll_owed = false;
	s->cm_sport = 0;
	s->verbs_access = 0;
	s->peer_ip = 0;
	s->failed_seq = 0;
	s->heard = 0;
	s->psn = (uint32_t)softhw_token_new() & 0xffffff;
	__atomic_store_n(&s->deadline, ROCE_RC_NO_DEADLINE, __ATOMIC_RELAXED);
	/* the source port of its QPN again (an RDMA-CM-like flow label may have changed it): what an
	 * out-of-band peer on the same address expects */
	pthread_mutex_lock(&s->lp->lock);
	(void)roce_port_qp_set_sport(s->lp->port, s->qpn, roce_udp_sport(s->qpn));
	pthread_mutex_unlock(&s->lp->lock);
}

static void roce_answer(struct rnic_qp *qp, doca_error_t status)
{
	roce_cm_answer(qp, status); /* REP or REJ */
}

/* RDMA-CM: DREQ. Out of band there is no message: the peer learns it when its work times out. */
static void roce_bye(struct rnic_qp *qp)
{
	if (qp->cm)
		roce_cm_bye(qp);
}

static void roce_shut(struct rnic_qp *qp, doca_error_t flush)
{
	struct roce_qp *s = rq_of(qp);

	(void)flush;
	s->shut = true;
	if (s->rc != NULL) {
		if (s->in_rc > 0)
			s->error_pending = true; /* inside a callback: once the engine returned */
		else {
			roce_rc_set_error(s->rc);
			tx_flush(s); /* the ACK it owed */
		}
	}
	rnic_nic_kick(); /* must_end: the service thread hangs up */
}

static bool roce_up(const struct rnic_qp *qp)
{
	return rq_of(qp)->up;
}

static bool roce_must_end(const struct rnic_qp *qp)
{
	const struct roce_qp *s = rq_of(qp);

	return s->up && (s->shut || qp->broken);
}

static uint8_t roce_port_mtu_log(const struct softhw_function *fn)
{
	uint8_t v = 0;

	if (fn == NULL || !fn_roce(fn))
		return 0;
	/* an open port's, which wire_rtr checks against; else what it would take now */
	pthread_mutex_lock(&ports.lock);
	for (int i = 0; i < ports.n; i++)
		if (ports.ports[i]->ip == fn_ip(fn))
			v = ports.ports[i]->mtu_log;
	pthread_mutex_unlock(&ports.lock);
	return v != 0 ? v : if_mtu_log(fn_ip(fn));
}

static doca_error_t roce_nic_listen(const struct softhw_function *fn)
{
	/* the port opens here for the first ep, so that a port held by another user fails early (logged) */
	doca_error_t err = DOCA_SUCCESS;

	if (fn_roce(fn) && lport_get(fn, &err) == NULL)
		return err;
	return DOCA_SUCCESS;
}

static void roce_describe(struct rnic_peer *p)
{
	(void)p; /* per qp: describe_qp */
}

static doca_error_t roce_listen(struct rnic_ep *ep, uint16_t port)
{
	doca_error_t err = DOCA_SUCCESS;
	struct roce_lport *lp = lport_get(ep->attr.fn, &err);

	return lp != NULL ? roce_cm_listen(&lp->cm, ep, port) : err;
}

static doca_error_t roce_unlisten(struct rnic_ep *ep, uint16_t port)
{
	return roce_cm_unlisten(ep, port);
}

static void roce_ep_gone(struct rnic_ep *ep)
{
	roce_cm_ep_gone(ep); /* its RDMA-CM listeners; ports stay for the process's life */
}

/* ---- receiving (service thread) ---- */

static struct roce_qp *qp_by_qpn(struct roce_lport *lp, uint32_t qpn)
{
	struct roce_qp *s;

	pthread_mutex_lock(&ports.lock);
	for (s = lp->qps; s != NULL && s->qpn != qpn; s = s->next)
		;
	pthread_mutex_unlock(&ports.lock);
	return s; /* freed (roce_free) only with lp->rx, which the caller holds */
}

/*
 * Polls the qp after a batch of its datagrams and keeps its time (an owner: tells the service
 * thread). The poll sends the ACK the batch owes. When the qp's own owner drained the batch,
 * the poll waits for the owner's next post on the qp, or its next poll, sleep or quiet time
 * (lport_pay): a reply posted from the completion then leaves with the ACK in one system call,
 * not one behind the other. The wait is the time the owner takes to look at its completions
 * (ROCE_QUIET_MS at most, far below the ACK timeout); a NIC's ACK would not wait for that, but
 * only the sender's completion waits on it, and a completion ends up behind the same system
 * call either way. owner: the ep that drains, NULL for the service thread.
 */
static void rx_done(struct roce_lport *lp, struct roce_qp *s, struct rnic_ep *owner)
{
	struct rnic_qp *qp = s->link.qp;
	bool kick = false, owe;
	unsigned i;

	for (i = 0; i < lp->nowed && lp->owed[i] != s; i++)
		;
	owe = owner != NULL && qp->ep == owner && __atomic_load_n(&lp->quiet, __ATOMIC_RELAXED) &&
	      (i < lp->nowed || lp->nowed < ROCE_OWED_MAX);
	softhw_bias_lock(&qp->lock);
	if (!qp->dead && s->rc != NULL) {
		if (owe && roce_rc_acks_owed(s->rc)) { /* (only ACKs came: the requester goes on now) */
			s->poll_owed = true;
			if (i == lp->nowed)
				lp->owed[lp->nowed++] = s;
		} else {
			kick = rc_poll(s) && kick_needed(qp, s);
			if (owner == NULL && s->deadline != ROCE_RC_NO_DEADLINE)
				rnic_nic_timed_add(qp);
		}
	}
	softhw_bias_unlock(&qp->lock);
	if (kick && owner != NULL)
		rnic_nic_kick();
}

/* The engine polls owed on the port (lp->rx held): those its owner's posts did not run already. */
static void lport_pay(struct roce_lport *lp)
{
	while (lp->nowed > 0) {
		struct roce_qp *s = lp->owed[--lp->nowed];
		struct rnic_qp *qp = s->link.qp;
		bool kick = false;

		softhw_bias_lock(&qp->lock);
		if (s->poll_owed && !qp->dead && s->rc != NULL)
			kick = rc_poll(s) && kick_needed(qp, s);
		s->poll_owed = false;
		softhw_bias_unlock(&qp->lock);
		if (kick)
			rnic_nic_kick();
	}
}

static bool icrc_ok(const struct roce_lport *lp, const struct roce_port_msg *m)
{
	struct roce_ip4 ip = {.src = ntohl(m->from.sin_addr.s_addr), .dst = lp->ip, .frag = ROCE_IP4_DF};
	uint16_t id;

	return roce_icrc_solve_ip4_id(&ip, ntohs(m->from.sin_port), ROCE_UDP_PORT, m->buf, m->len, &id);
}

/* Hands a datagram whose ICRC was checked to RDMA-CM or its qp's engine (lp->rx held). */
static void lport_take(struct roce_lport *lp, const struct roce_port_msg *m, struct roce_qp **last,
		       struct rnic_ep *owner)
{
	struct roce_qp *s;
	bool live;

	if (m->qpn == 1) {
		roce_cm_rx(&lp->cm, m); /* a CM MAD */
		return;
	}
	s = qp_by_qpn(lp, m->qpn);
	if (s == NULL)
		return;
	if (*last != NULL && *last != s)
		rx_done(lp, *last, owner);
	*last = s;
	softhw_bias_lock(&s->link.qp->lock);
	live = !s->link.qp->dead && s->rc != NULL; /* (else dropped: no engine) */
	if (live && ntohl(m->from.sin_addr.s_addr) != s->peer_ip) {
		/*
		 * Not from the QP's peer (a forged QPN): dropped before the engine, which would take
		 * its ACK or NAK, and before `heard`, as rxe drops an RC packet whose source is not its
		 * QP's destination address.
		 */
		__atomic_fetch_add(&lp->drop_source, 1, __ATOMIC_RELAXED);
	} else if (live) {
		s->heard = now_ns();
		rc_enter(s);
		roce_rc_rx(s->rc, s->heard, m->buf, m->len);
		rc_leave(s);
		if (s->link.qp->state == QP_HANDSHAKE && s->link.qp->cm)
			roce_cm_comm_est(s->link.qp); /* its RTU was lost */
		else if (__atomic_load_n(&s->link.qp->cm_wait_rtu, __ATOMIC_RELAXED))
			roce_cm_comm_est_data(s->link.qp); /* librdmacm's QP: the same */
	}
	softhw_bias_unlock(&s->link.qp->lock);
}

/* Holds a datagram for ms (lp->rx held), in due order; the timer or the next drain hands it on. */
static void lport_hold(struct roce_lport *lp, const struct roce_port_msg *m, uint32_t ms)
{
	struct roce_held *h, *at;

	if (lp->nheld >= ROCE_HELD_MAX ||
	    (h = malloc(offsetof(struct roce_held, m.buf) + m->len)) == NULL) {
		__atomic_fetch_add(&lp->drop_fault, 1, __ATOMIC_RELAXED); /* the slow link's queue is full */
		return;
	}
	memcpy(&h->m, m, offsetof(struct roce_port_msg, buf) + m->len);
	h->due = rnic_now_ms() + ms;
	/*
	 * From the tail back, behind every one due no later (a tie keeps arrival order): a
	 * datagram comes due after nearly all held ones, so this walks at most the few a jitter
	 * put later, not the whole queue, however full.
	 */
	for (at = lp->held_tail; at != NULL && at->due > h->due; at = at->prev)
		;
	h->prev = at;
	h->next = at != NULL ? at->next : lp->held;
	if (h->next != NULL)
		h->next->prev = h;
	else
		lp->held_tail = h;
	if (at != NULL)
		at->next = h;
	else
		lp->held = h;
	lp->nheld++;
	__atomic_fetch_add(&lp->held_fault, 1, __ATOMIC_RELAXED);
	if (at != NULL)
		return; /* due after the first: the service thread's sleep already ends before */
	__atomic_store_n(&lp->held_due, h->due, __ATOMIC_RELAXED);
	rnic_nic_kick(); /* its next sleep ends when this one is due (roce_nic_next_time) */
}

/* Hands on the held datagrams due by now (lp->rx held); how many. */
static unsigned lport_release(struct roce_lport *lp, struct rnic_ep *owner, uint64_t now)
{
	struct roce_qp *last = NULL;
	unsigned n = 0;

	if (__atomic_load_n(&lp->held_due, __ATOMIC_RELAXED) > now)
		return 0;
	while (lp->held != NULL && lp->held->due <= now) {
		struct roce_held *h = lp->held;

		lp->held = h->next;
		if (lp->held != NULL)
			lp->held->prev = NULL;
		else
			lp->held_tail = NULL;
		lp->nheld--;
		lport_take(lp, &h->m, &last, owner);
		free(h);
		n++;
	}
	if (last != NULL)
		rx_done(lp, last, owner);
	__atomic_store_n(&lp->held_due, lp->held != NULL ? lp->held->due : UINT64_MAX, __ATOMIC_RELAXED);
	return n;
}

/*
 * Takes what waits on the port and hands each datagram to its qp's engine (lp->rx held): the
 * service thread when woken, or an owner polling its ep (service: false), whoever comes first.
 */
static unsigned lport_drain(struct roce_lport *lp, struct rnic_ep *owner, uint32_t hint_qpn, bool sweep)
{
	unsigned n, got = lport_release(lp, owner, rnic_now_ms());
	bool paused = false; /* the forwarding listener: its return is a time the service thread keeps */

	do {
		struct roce_qp *last = NULL;

		pthread_mutex_lock(&lp->lock);
		/* an owner tries its qp's own socket first: a datagram there costs one system call */
		n = hint_qpn != 0 ? roce_port_recv_qp(lp->port, hint_qpn, lp->msgs, ROCE_RX_BATCH) : 0;
		if (n == 0 && (sweep || lp->idle_polls++ % ROCE_SWEEP_EVERY == 0)) {
			n = roce_port_recv(lp->port, lp->msgs, ROCE_RX_BATCH);
			paused |= roce_port_take_pause(lp->port);
		}
		hint_qpn = 0;
		sweep = true;
		got += n;
		pthread_mutex_unlock(&lp->lock);
		for (unsigned i = 0; i < n; i++) {
			const struct roce_port_msg *m = &lp->msgs[i];
			uint32_t ms;

			if (!icrc_ok(lp, m)) {
				__atomic_fetch_add(&lp->drop_icrc, 1, __ATOMIC_RELAXED); /* damaged: dropped, the sender retries */
				continue;
			}
			if (lp->faults != NULL && softhw_fault_hit(lp->faults, SOFTHW_FAULT_DROP)) {
				__atomic_fetch_add(&lp->drop_fault, 1, __ATOMIC_RELAXED); /* lost on the link, on purpose */
				continue;
			}
			if (lp->faults != NULL && (ms = softhw_fault_delay_ms(lp->faults)) != 0) {
				lport_hold(lp, m, ms); /* on a slow link, on purpose */
				continue;
			}
			lport_take(lp, m, &last, owner);
		}
		if (last != NULL)
			rx_done(lp, last, owner);
	} while (n > ROCE_RX_BATCH - ROCE_PORT_GRO_SEGS); /* the batch was full: more may wait */
	if (got > 0) /* DREQs end their connections after the datagrams that came with them (or ACKs a hang-up waits for) */
		roce_cm_rx_done();
	if (paused && owner != NULL)
		rnic_nic_kick(); /* the service thread times its sleep again */
	return got;
}

static void roce_nic_event(struct rnic_nic_link *link, uint32_t events)
{
	struct roce_lport *lp = ports.ports[link->kind];

	(void)events;
	pthread_mutex_lock(&lp->rx);
	if (lport_drain(lp, NULL, 0, true) > 0 && __atomic_exchange_n(&lp->backed, false, __ATOMIC_RELAXED)) {
		__atomic_store_n(&lp->loud_until, rnic_now_ms() + ROCE_LOUD_MS, __ATOMIC_RELAXED);
		__atomic_fetch_add(&lp->waited_backs, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&lp->rx);
}

/*
 * Owner, spinning in doca_pe_progress: takes the datagrams of its qps' port itself, with no hop
 * through the service thread (which still watches the port, for owners asleep and for timers).
 * Never waits: if the service thread or another owner drains the port, they hand our packets.
 */
static void lport_quiet(struct roce_lport *lp, bool quiet);
static struct roce_lport *ep_lport(struct rnic_ep *ep, uint32_t *qpn, unsigned *nup);

static void roce_poll(struct rnic_ep *ep)
{
	uint32_t qpn = 0;
	unsigned nup = 0;
	struct roce_lport *lp = ep_lport(ep, &qpn, &nup);

	if (lp == NULL)
		return;
	uint64_t now = rnic_now_ms();

	__atomic_store_n(&lp->owner_ms, now, __ATOMIC_RELAXED);
	if (!__atomic_load_n(&lp->quiet, __ATOMIC_RELAXED) && !__atomic_load_n(&ep->armed, __ATOMIC_ACQUIRE) &&
	    (!ep->attr.polls_memory || now >= __atomic_load_n(&lp->loud_until, __ATOMIC_RELAXED)))
		lport_quiet(lp, true);
	if (pthread_mutex_trylock(&lp->rx) == 0) {
		lport_pay(lp); /* what the last drain left owed: no post came */
		lport_drain(lp, ep, qpn, nup > 1); /* more qps than the one socket: read them all */
		pthread_mutex_unlock(&lp->rx);
	}
}

/*
 * Quiet: the service thread's epoll stops watching the port (EPOLLIN off) while an owner polls
 * it, so no datagram wakes a thread for nothing. It watches again when the owner goes to sleep
 * (arm) or stops polling without (ROCE_QUIET_MS after its last poll: the service thread's timer).
 */
static void lport_quiet(struct roce_lport *lp, bool quiet)
{
	struct epoll_event ev = {.events = quiet ? 0 : EPOLLIN, .data.u64 = (uint64_t)(uintptr_t)&lp->link | RNIC_TAG_NIC};

	bool kick = false;

	pthread_mutex_lock(&lp->lock);
	if (lp->quiet != quiet) {
		__atomic_store_n(&lp->quiet, quiet, __ATOMIC_RELAXED);
		if (quiet) /* the owner is back before anything came: that hand-back was not waited for */
			__atomic_store_n(&lp->backed, false, __ATOMIC_RELAXED);
		(void)epoll_ctl(rnic_nic.epfd, EPOLL_CTL_MOD, roce_port_fd(lp->port), &ev);
		kick = quiet;
	}
	pthread_mutex_unlock(&lp->lock);
	if (kick) /* its sleep must now end in time to take the port back (roce_nic_next_time) */
		rnic_nic_kick();
}

/* The port of the ep's first connected qp (the usual case: all of them) and its QPN, or NULL;
 * nup: how many of its qps are connected. */
static struct roce_lport *ep_lport(struct rnic_ep *ep, uint32_t *qpn, unsigned *nup)
{
	struct roce_lport *lp = NULL;

	/*
	 * An ep with RDMA-CM connections leaves its port to the service thread: roce_cm.c was built
	 * for it, and with owners draining QP1 too a server once never completed its connection
	 * (rdma_roce_read_cm_requester_serves). Out-of-band eps keep the owner's fast path.
	 */
	if (__atomic_load_n(&ep->cm_qps, __ATOMIC_ACQUIRE) != 0)
		return NULL;
	softhw_lock(&ep->qps_lock); /* (a verbs program may destroy a qp from another thread) */
	for (struct rnic_qp *qp = rnic_ep_up_qps(ep, RNIC_PATH_ROCE, true); qp != NULL;
	     qp = qp->next_up[RNIC_PATH_ROCE]) {
		struct roce_qp *s = rq_of(qp);

		if (s == NULL || !__atomic_load_n(&s->up, __ATOMIC_RELAXED))
			continue;
		(*nup)++;
		if (lp == NULL) {
			lp = s->lp;
			*qpn = s->qpn;
		}
	}
	softhw_unlock(&ep->qps_lock);
	return lp;
}

static bool roce_arm(struct rnic_ep *ep)
{
	uint32_t qpn;
	unsigned nup = 0;
	struct roce_lport *lp = ep_lport(ep, &qpn, &nup);

	if (lp == NULL)
		return false;
	/* under rx: no drain owes a poll (rx_done: only while quiet) once the port is watched again */
	pthread_mutex_lock(&lp->rx);
	__atomic_store_n(&lp->backed, false, __ATOMIC_RELAXED); /* what comes now finds it asleep, not away */
	lport_pay(lp); /* before the owner sleeps */
	if (__atomic_load_n(&lp->quiet, __ATOMIC_RELAXED))
		lport_quiet(lp, false); /* level-triggered: what waits already wakes the service thread */
	pthread_mutex_unlock(&lp->rx);
	return false;
}

static uint64_t roce_nic_next_time(uint64_t now)
{
	uint64_t first = UINT64_MAX;

	pthread_mutex_lock(&ports.lock);
	for (int i = 0; i < ports.n; i++) {
		uint64_t t = roce_port_next_time(ports.ports[i]->port); /* DREQs resent for dead processes */

		first = t < first ? t : first;
		t = __atomic_load_n(&ports.ports[i]->held_due, __ATOMIC_RELAXED); /* faults.delay */
		if (t <= now && __atomic_load_n(&ports.ports[i]->held_busy, __ATOMIC_RELAXED) >= now)
			t = now + 1; /* an owner is draining (its drain hands them on): look again, no spin */
		first = t < first ? t : first;
		if (__atomic_load_n(&ports.ports[i]->quiet, __ATOMIC_RELAXED)) {
			t = __atomic_load_n(&ports.ports[i]->owner_ms, __ATOMIC_RELAXED) + ROCE_QUIET_MS;
			first = t < first ? t : first;
		}
	}
	pthread_mutex_unlock(&ports.lock);
	now = roce_cm_next_time(now); /* RDMA-CM's resends and timeouts */
	return now < first ? now : first;
}

static void roce_nic_timer(uint64_t now)
{
	struct roce_lport *back[ROCE_MAX_PORTS], *due[ROCE_MAX_PORTS];
	int n = 0, ndue = 0;

	roce_cm_timer(now);
	pthread_mutex_lock(&ports.lock);
	for (int i = 0; i < ports.n; i++) {
		struct roce_lport *lp = ports.ports[i];

		roce_port_timer(lp->port, now);
		if (__atomic_load_n(&lp->held_due, __ATOMIC_RELAXED) <= now)
			due[ndue++] = lp;

		if (__atomic_load_n(&lp->quiet, __ATOMIC_RELAXED) &&
		    now >= __atomic_load_n(&lp->owner_ms, __ATOMIC_RELAXED) + ROCE_QUIET_MS)
			back[n++] = lp;
	}
	pthread_mutex_unlock(&ports.lock);
	/* datagrams held on purpose, now due (an owner draining meanwhile hands them on itself) */
	for (int i = 0; i < ndue; i++)
		if (pthread_mutex_trylock(&due[i]->rx) == 0) {
			unsigned got = lport_release(due[i], NULL, now);

			pthread_mutex_unlock(&due[i]->rx);
			if (got > 0)
				roce_cm_rx_done();
		} else {
			__atomic_store_n(&due[i]->held_busy, now, __ATOMIC_RELAXED); /* roce_nic_next_time */
		}
	/* an owner that stopped polling: its owed polls are the service thread's (ports stay) */
	for (int i = 0; i < n; i++) {
		struct roce_lport *lp = back[i];

		/*
		 * An owner holding rx is draining right now: it has not stopped (it was only off the
		 * CPU a while). Waiting for rx here could starve this thread, and everything only it
		 * does (the CM's hang-ups and establishments), behind an owner spinning on trylock:
		 * seen on a loaded machine, perftest's client polled its CQ forever. Look again later.
		 */
		if (pthread_mutex_trylock(&lp->rx) != 0) {
			__atomic_store_n(&lp->owner_ms, now, __ATOMIC_RELAXED);
			continue;
		}
		if (__atomic_load_n(&lp->quiet, __ATOMIC_RELAXED) &&
		    now >= __atomic_load_n(&lp->owner_ms, __ATOMIC_RELAXED) + ROCE_QUIET_MS) {
			lport_pay(lp);
			__atomic_store_n(&lp->backed, true, __ATOMIC_RELAXED); /* what waits comes with EPOLLIN now */
			lport_quiet(lp, false);
		}
		pthread_mutex_unlock(&lp->rx);
	}
}

/*
 * The port's counters when it closes: SDK debug log, and stderr with SOFTDOCA_ROCE_STATS (not
 * "stats:", which names a qp's RC counters to the tests).
 */
static void port_stats(const struct roce_lport *lp)
{
	struct roce_port_stats st;
	char line[1024], ip[16];

	roce_port_get_stats(lp->port, &st);
	ip_text(lp->ip, ip, sizeof(ip));
	snprintf(line, sizeof(line),
		 "RoCEv2 port %s counters: if_path_mtu %u window %u tx %llu tx_calls %llu tx_gso %llu tx_ack_behind %llu "
		 "tx_err %llu rx_qp %llu drop_fault %llu held_fault %llu drop_icrc %llu drop_source %llu "
		 "rx_gro %llu rx_shared %llu rx_forwarded %llu learned %llu fwd_out %llu drop_malformed %llu "
		 "drop_no_owner %llu drop_dead %llu reclaimed %llu dreq_for_dead %llu rej_for_dead %llu dead_resent %llu dead_conn_bad %llu "
		 "waited_backs %llu",
		 ip, 1u << lp->mtu_log, lp->window, (unsigned long long)st.tx, (unsigned long long)st.tx_calls,
		 (unsigned long long)st.tx_gso, (unsigned long long)__atomic_load_n(&lp->acks_behind, __ATOMIC_RELAXED),
		 (unsigned long long)st.tx_err, (unsigned long long)st.rx_qp,
		 (unsigned long long)__atomic_load_n(&lp->drop_fault, __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&lp->held_fault, __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&lp->drop_icrc, __ATOMIC_RELAXED),
		 (unsigned long long)__atomic_load_n(&lp->drop_source, __ATOMIC_RELAXED), (unsigned long long)st.rx_gro,
		 (unsigned long long)st.rx_shared, (unsigned long long)st.rx_forwarded,
		 (unsigned long long)st.learned, (unsigned long long)st.fwd_out,
		 (unsigned long long)st.drop_malformed, (unsigned long long)st.drop_no_owner,
		 (unsigned long long)st.drop_dead, (unsigned long long)st.reclaimed, (unsigned long long)st.dreq_for_dead,
		 (unsigned long long)st.rej_for_dead, (unsigned long long)st.dead_resent,
		 (unsigned long long)st.dead_conn_bad,
		 (unsigned long long)__atomic_load_n(&lp->waited_backs, __ATOMIC_RELAXED));
	SDK_LOG_DBG("%s", line);
	if (getenv("SOFTDOCA_ROCE_STATS") != NULL)
		fprintf(stderr, "softdoca: %s\n", line);
}

static void roce_nic_stop(void)
{
	roce_cm_stop(); /* its records name the ports */
	pthread_mutex_lock(&ports.lock);
	for (int i = 0; i < ports.n; i++) {
		struct roce_lport *lp = ports.ports[i];

		port_stats(lp);
		roce_port_close(lp->port);
		pthread_mutex_destroy(&lp->lock);
		pthread_mutex_destroy(&lp->rx);
		while (lp->held != NULL) { /* held on purpose: lost with the process, as in flight */
			struct roce_held *h = lp->held;

			lp->held = h->next;
			free(h);
		}
		lp->held_tail = NULL;
		free(lp->msgs);
		free(lp);
	}
	ports.n = 0;
	pthread_mutex_unlock(&ports.lock);
}

static void roce_nic_atfork(void)
{
	/* the parent's ports (and their registry entries) are not the child's: forget them */
	ports.n = 0;
	pthread_mutex_init(&ports.lock, NULL);
	roce_cm_atfork();
}

/* ---- the path ops ---- */

static void roce_pump(struct rnic_qp *qp)
{
	(void)qp; /* the service thread feeds the engine as datagrams come */
}

static bool roce_timed(const struct rnic_qp *qp)
{
	const struct roce_qp *s = rq_of(qp);

	return s != NULL && s->rc != NULL && s->deadline != ROCE_RC_NO_DEADLINE;
}

static uint64_t roce_next_time(const struct rnic_qp *qp)
{
	const struct roce_qp *s = rq_of(qp);

	uint64_t deadline = s != NULL ? s->deadline : ROCE_RC_NO_DEADLINE;

	if (deadline == ROCE_RC_NO_DEADLINE)
		return UINT64_MAX; /* (also once closed) */
	return (deadline + 999999u) / 1000000u; /* ms, rounded up: never early */
}

static void roce_timer(struct rnic_qp *qp, uint64_t now, bool woken)
{
	struct roce_qp *s = rq_of(qp);
	uint64_t t = now_ns();

	(void)now;
	(void)woken;
	if (s == NULL || s->rc == NULL || s->deadline == ROCE_RC_NO_DEADLINE || s->deadline > t)
		return;
	if (qp->inflight[RNIC_PATH_ROCE] > 0 && t - s->heard > s->dead) {
		char who[48];

		SDK_LOG_ERR("RoCEv2 QP 0x%06x: %s (QP 0x%06x) has not answered for %llu ms; the connection is down", s->qpn,
			    peer_name(qp, who, sizeof(who)), qp->peer.roce_qpn, (unsigned long long)(s->dead / 1000000u));
		rnic_qp_fail(qp, SOFTHW_RNIC_CQE_DISCONNECTED, DOCA_ERROR_CONNECTION_ABORTED,
			     DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	(void)rc_poll(s);
}

static void roce_off(struct rnic_qp *qp)
{
	(void)qp; /* the connection's shut op follows */
}

/*
 * One line of the engine's counters when a qp's connection ends: SDK debug log, and stderr when
 * SOFTDOCA_ROCE_STATS is set (tests and runs under loss show what retransmission cost).
 */
static void log_stats(const struct roce_qp *s)
{
	const struct roce_rc_stats *st = roce_rc_get_stats(s->rc);
	char line[768];

	snprintf(line, sizeof(line),
		 "RoCEv2 QP 0x%06x stats: path_mtu %u tx_pkts %llu rx_pkts %llu rx_dropped %llu retransmits %llu "
		 "timeouts %llu fast_retries %llu nak_seq_sent %llu nak_seq_rcvd %llu rnr_sent %llu rnr_rcvd %llu "
		 "dup_requests %llu read_replays %llu atomic_replays %llu hold_dropped %llu hold_peak %llu",
		 s->qpn, (unsigned)s->mtu, (unsigned long long)st->tx_pkts, (unsigned long long)st->rx_pkts,
		 (unsigned long long)st->rx_dropped, (unsigned long long)st->retransmits,
		 (unsigned long long)st->timeouts, (unsigned long long)st->fast_retries,
		 (unsigned long long)st->nak_seq_sent, (unsigned long long)st->nak_seq_rcvd,
		 (unsigned long long)st->rnr_sent, (unsigned long long)st->rnr_rcvd,
		 (unsigned long long)st->dup_requests, (unsigned long long)st->read_replays,
		 (unsigned long long)st->atomic_replays, (unsigned long long)st->hold_dropped,
		 (unsigned long long)st->hold_peak);
	SDK_LOG_DBG("%s", line);
	if (getenv("SOFTDOCA_ROCE_STATS") != NULL)
		fprintf(stderr, "softdoca: %s\n", line);
}

/* The hang-up: the engine and the QP's sockets go (the QPN stays ours until free). */
static void roce_close(struct rnic_qp *qp)
{
	struct roce_qp *s = rq_of(qp);

	if (s == NULL || !s->up)
		return;
	__atomic_store_n(&s->up, false, __ATOMIC_RELAXED);
	rnic_path_up(qp, RNIC_PATH_ROCE, false);
	s->shut = true;
	if (s->rc != NULL) {
		log_stats(s);
		s->in_rc++;
		roce_rc_set_error(s->rc); /* receives the engine held go back to the ep */
		s->in_rc--;
		tx_flush(s); /* the ACK it owed */
		roce_rc_destroy(s->rc);
		s->rc = NULL;
	}
	__atomic_store_n(&s->deadline, ROCE_RC_NO_DEADLINE, __ATOMIC_RELAXED);
}

static void roce_free(struct rnic_qp *qp)
{
	struct roce_qp *s = rq_of(qp);

	if (s == NULL)
		return;
	roce_close(qp);
	roce_cm_qp_gone(qp); /* also a qp a connection described (librdmacm's) */
	bounces_drop(s);
	pthread_mutex_lock(&s->lp->rx); /* an owner draining the port may hold s */
	for (unsigned i = 0; i < s->lp->nowed; i++)
		if (s->lp->owed[i] == s)
			s->lp->owed[i--] = s->lp->owed[--s->lp->nowed];
	pthread_mutex_lock(&ports.lock);
	for (struct roce_qp **pp = &s->lp->qps; *pp != NULL; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&ports.lock);
	pthread_mutex_unlock(&s->lp->rx);
	pthread_mutex_lock(&s->lp->lock);
	roce_port_qp_remove(s->lp->port, s->qpn);
	pthread_mutex_unlock(&s->lp->lock);
	qp->path[RNIC_PATH_ROCE] = NULL;
	free(s);
}

const struct rnic_path_ops rnic_roce_path = {
	.name = "rocev2",
	.wire = 1,
	.symmetric = true,
	.describe_qp = roce_describe_qp,
	.wire_qpn = roce_wire_qpn,
	.wire_rtr = roce_wire_rtr,
	.wire_rts = roce_wire_rts,
	.wire_reset = roce_wire_reset,
	.serves = roce_serves,
	.open = roce_open,
	.dial = roce_dial,
	.answer = roce_answer,
	.bye = roce_bye,
	.shut = roce_shut,
	.up = roce_up,
	.must_end = roce_must_end,
	.port_mtu_log = roce_port_mtu_log,
	.nic_listen = roce_nic_listen,
	.describe = roce_describe,
	.cm_listen = roce_listen,
	.cm_unlisten = roce_unlisten,
	.ep_gone = roce_ep_gone,
	.nic_event = roce_nic_event,
	.nic_next_time = roce_nic_next_time,
	.nic_timer = roce_nic_timer,
	.nic_stop = roce_nic_stop,
	.nic_atfork = roce_nic_atfork,
	.can_post = roce_can_post,
	.post = roce_post,
	.pump = roce_pump,
	.poll = roce_poll,
	.arm = roce_arm,
	.timed = roce_timed,
	.next_time = roce_next_time,
	.timer = roce_timer,
	.off = roce_off,
	.close = roce_close,
	.free = roce_free,
};
