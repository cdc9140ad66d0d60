/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * roce_probe: the host half of the interop check (tests/interop/run.sh). Speaks RoCEv2 over a
 * plain UDP socket with softdoca's building blocks only (roce_pkt, roce_icrc, roce_cm_mad,
 * roce_rc), as the RDMA-CM client of an unmodified Linux rdma_server (rdmacm-utils, port 7471)
 * running on rdma_rxe:
 *
 *   REQ on QP1 -> REP <- RTU -> ; post a receive, SEND 16 bytes, receive the server's 16 ;
 *   DREQ <- DREP -> (or DREQ -> DREP <- when the server does not disconnect first)
 *
 * Every datagram from the kernel has its ICRC checked with the IPv4 ID solve; a packet whose
 * ICRC cannot be solved is counted and dropped. --loss/--reorder drop and hold back our own
 * sends (CM and RC alike) to exercise retransmission on both sides. Prints a line per step
 * and a closing summary; exit 0 only if the whole exchange completed. With --listen it is the
 * passive side instead, for the guest's rdma_client (REQ <- REP -> RTU <-, its SEND, ours,
 * DREQ <- DREP ->).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"
#include "softhw/rnic/roce_rc.h"

#define MSG_LEN 16

static struct {
	int fd;
	uint32_t local, server; /* host order */
	uint16_t port;
	unsigned int loss, reorder; /* percent of our sends */
	bool spare; /* the next send skips --loss/--reorder */
	double timeout_s;
	uint64_t rng;
	uint8_t held[2048];
	size_t held_len;
	uint32_t qp1_psn;
	uint64_t tid;
	uint32_t qpn; /* a new one each run: Linux rejects a REQ from a QPN it still remembers (REJ 10, stale) */
	uint32_t comm_id, remote_comm_id, remote_qpn;
	/* counters */
	unsigned long tx, tx_dropped, tx_reordered, rx, rx_icrc_ok, rx_icrc_bad, rx_other;
	unsigned long ids_nonzero;
	uint16_t last_id;
	/* RC */
	struct roce_rc_qp *qp;
	uint8_t *send_buf, *recv_buf; /* msgs buffers of size bytes each (receives: >= 64) */
	uint32_t msgs, size, recv_size;
	unsigned int recv_posted, recv_taken, recv_done, send_done, bad_len;
	unsigned long rdma_reads, rdma_writes; /* pieces served by our responder */
	unsigned int rping; /* --rping N: be rping's client (or with --listen its server), N pings */
	bool rping_server;
	uint32_t recv_len; /* of the last receive */
	enum roce_rc_status send_status, recv_status; /* the first error, else SUCCESS */
} P = { .fd = -1, .port = 7471, .timeout_s = 60, .rng = 0x9e3779b97f4a7c15ull };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t t_start;

static void say(const char *fmt, ...)
{
	va_list ap;

	printf("[%7.3f] ", (double)(now_ns() - t_start) / 1e9);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static unsigned int rnd(unsigned int n)
{
	P.rng ^= P.rng << 13;
	P.rng ^= P.rng >> 7;
	P.rng ^= P.rng << 17;
	return (unsigned int)(P.rng % n);
}

static void raw_send(const uint8_t *buf, size_t len)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT),
		.sin_addr.s_addr = htonl(P.server) };

	if (sendto(P.fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) != (ssize_t)len)
		say("sendto: %s", strerror(errno));
}

/* Computes the ICRC (ID 0 + DF: what an unconnected IP_PMTUDISC_DO socket sends), then sends,
 * dropped or held back behind the next send when --loss / --reorder say so. */
static void send_pkt(uint8_t *buf, size_t len)
{
	struct roce_ip4 ip = { .src = P.local, .dst = P.server, .id = 0, .frag = ROCE_IP4_DF };

	roce_icrc_store(buf, len, roce_icrc_ip4(&ip, ROCE_UDP_PORT, ROCE_UDP_PORT, buf, len));
	P.tx++;
	if (P.spare) {
		P.spare = false;
		raw_send(buf, len);
		return;
	}
	if (P.loss && rnd(100) < P.loss) {
		P.tx_dropped++;
		return;
	}
	if (P.reorder && P.held_len == 0 && len <= sizeof(P.held) && rnd(100) < P.reorder) {
		memcpy(P.held, buf, len);
		P.held_len = len;
		P.tx_reordered++;
		return;
	}
	raw_send(buf, len);
	if (P.held_len) {
		raw_send(P.held, P.held_len);
		P.held_len = 0;
	}
}

static void flush_held(void)
{
	if (P.held_len) {
		raw_send(P.held, P.held_len);
		P.held_len = 0;
	}
}

/* One CM MAD on QP1: UD SEND_ONLY to QP1, Q_Key 0x80010000, source QP 1. */
static void send_mad(const uint8_t *mad)
{
	struct roce_pkt pkt = { 0 };
	uint8_t buf[512];
	size_t n;

	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.bth.ack_req = true;
	pkt.bth.psn = P.qp1_psn;
	P.qp1_psn = roce_psn_add(P.qp1_psn, 1);
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, mad, ROCE_MAD_LEN);
	send_pkt(buf, n);
}

/* ---- RC engine callbacks: one receive buffer, no remote memory ---- */

static void cb_emit(void *ctx, const uint8_t *buf, size_t len)
{
	uint8_t copy[8192];

	(void)ctx;
	if (len > sizeof(copy))
		return;
	memcpy(copy, buf, len);
	send_pkt(copy, len);
}

/* One remotely accessible region (--rping): the ping buffer and the sink, rkey MR_RKEY. */
#define MR_RKEY 0x00c0ffeeu
static uint8_t *mr_base;
static size_t mr_len;

static int cb_rkey_check(void *ctx, uint32_t rkey, uint64_t va, uint64_t len, unsigned int access)
{
	uint64_t base = (uint64_t)(uintptr_t)mr_base;

	(void)ctx;
	if (!mr_base || rkey != MR_RKEY || (access & ROCE_RC_ACC_ATOMIC) || va < base ||
		len > mr_len || va - base > mr_len - len)
		return ROCE_NAK_REM_ACCESS;
	return 0;
}

static void cb_mem(void *ctx, uint32_t rkey, uint64_t va, void *p, size_t len)
{
	(void)ctx, (void)rkey;
	P.rdma_reads++;
	memcpy(p, (const void *)(uintptr_t)va, len);
}

static void cb_mem_write(void *ctx, uint32_t rkey, uint64_t va, const void *p, size_t len)
{
	(void)ctx, (void)rkey;
	P.rdma_writes++;
	memcpy((void *)(uintptr_t)va, p, len);
}

static uint64_t cb_atomic(void *ctx, uint32_t rkey, uint64_t va, bool cs, uint64_t a, uint64_t b)
{
	(void)ctx, (void)rkey, (void)va, (void)cs, (void)a, (void)b;
	return 0;
}

static bool cb_recv_take(void *ctx, struct roce_rc_recv *out)
{
	(void)ctx;
	if (P.recv_taken >= P.recv_posted)
		return false;
	out->wr_id = 1000 + P.recv_taken;
	out->buf = P.recv_buf + (size_t)P.recv_taken * P.recv_size;
	out->len = P.recv_size;
	P.recv_taken++;
	return true;
}

static void cb_complete(void *ctx, const struct roce_rc_cqe *cqe)
{
	(void)ctx;
	if (cqe->recv) {
		P.recv_done++;
		if (P.recv_status == ROCE_RC_WC_SUCCESS)
			P.recv_status = cqe->status;
		P.recv_len = cqe->byte_len;
		if (cqe->byte_len != P.size)
			P.bad_len++;
	} else {
		P.send_done++;
		if (P.send_status == ROCE_RC_WC_SUCCESS)
			P.send_status = cqe->status;
	}
}

static const struct roce_rc_ops rc_ops = {
	.emit = cb_emit,
	.rkey_check = cb_rkey_check,
	.mem_write = cb_mem_write,
	.mem_read = cb_mem,
	.atomic = cb_atomic,
	.recv_take = cb_recv_take,
	.complete = cb_complete,
};

/* ---- receive: ICRC check with the ID solve, then CM or RC ---- */

struct rx {
	uint8_t buf[8192];
	size_t len;
	struct roce_pkt pkt;
	struct roce_mad_hdr mad;
	bool is_mad;
};

/* A DREQ for a connection other than the current one (an earlier run's, whose DREP was
 * lost): answered with a DREP as Linux's CM would from timewait, then ignored. */
static bool stray_dreq(const struct rx *r)
{
	struct roce_cm_dreq d;
	struct roce_cm_rtu drep;
	uint8_t mad[ROCE_MAD_LEN];

	roce_cm_dreq_get(r->pkt.payload, &d);
	if (d.remote_comm_id == P.comm_id && d.remote_qpn == P.qpn)
		return false;
	drep = (struct roce_cm_rtu){ .local_comm_id = d.remote_comm_id,
		.remote_comm_id = d.local_comm_id };
	roce_cm_rtu_put(mad, ROCE_CM_DREP, r->mad.tid, &drep);
	send_mad(mad);
	say("rx: DREQ of an earlier connection (comm id %#x): DREP sent", d.remote_comm_id);
	return true;
}

/* Waits until a datagram arrives or the deadline passes; false on the deadline. Datagrams for
 * our RC QP go straight into the engine (and do not return). */
static bool rx_one(uint64_t deadline, struct rx *r)
{
	for (;;) {
		uint64_t now = now_ns(), next = deadline;
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		struct pollfd pfd = { .fd = P.fd, .events = POLLIN };
		ssize_t n;
		int ms;

		if (P.qp) {
			uint64_t d = roce_rc_poll(P.qp, now);

			if (d < next)
				next = d;
		}
		if (now >= deadline)
			return false;
		ms = next > now ? (int)((next - now + 999999) / 1000000) : 0;
		if (poll(&pfd, 1, ms) <= 0) {
			flush_held();
			continue;
		}
		n = recvfrom(P.fd, r->buf, sizeof(r->buf), 0, (struct sockaddr *)&from, &fl);
		if (n <= 0)
			continue;
		r->len = (size_t)n;
		P.rx++;
		if (ntohl(from.sin_addr.s_addr) != P.server) {
			P.rx_other++;
			continue;
		}
		struct roce_ip4 ip = { .src = P.server, .dst = P.local, .frag = ROCE_IP4_DF };
		uint16_t id;

		if (r->len < ROCE_BTH_LEN + ROCE_ICRC_LEN ||
			!roce_icrc_solve_ip4_id(&ip, ntohs(from.sin_port), ROCE_UDP_PORT, r->buf, r->len,
				&id)) {
			P.rx_icrc_bad++;
			say("rx: %zu bytes from port %u: ICRC matches no IPv4 ID, dropped", r->len,
				ntohs(from.sin_port));
			continue;
		}
		P.rx_icrc_ok++;
		if (id != 0)
			P.ids_nonzero++;
		P.last_id = id;
		if (roce_pkt_parse(r->buf, r->len, &r->pkt) != ROCE_PARSE_OK) {
			say("rx: %zu bytes: does not parse", r->len);
			continue;
		}
		if (r->pkt.bth.dqpn == 1 && r->pkt.bth.opcode == ROCE_UD_SEND_ONLY) {
			r->is_mad = roce_cm_mad_check(r->pkt.payload, r->pkt.payload_len, &r->mad);
			if (!r->is_mad) {
				say("rx: QP1 datagram that is not a CM MAD");
				continue;
			}
			if (r->pkt.deth.qkey != ROCE_QP1_QKEY || r->pkt.deth.sqpn != 1)
				say("rx: MAD with Q_Key %#x source QP %u", r->pkt.deth.qkey, r->pkt.deth.sqpn);
			if (r->mad.attr_id == ROCE_CM_DREQ && stray_dreq(r))
				continue;
			return true;
		}
		if (P.qp && r->pkt.bth.dqpn == P.qpn) {
			if (P.rx_icrc_ok < 40)
				say("rx: RC %s PSN %#x%s (%zu bytes, IPv4 ID %#06x) AETH %#04x MSN %u",
					roce_opcode_name(r->pkt.bth.opcode), r->pkt.bth.psn,
					r->pkt.bth.ack_req ? " AckReq" : "", r->len, id,
					(r->pkt.hdrs & ROCE_H_AETH) ? r->pkt.aeth.syndrome : 0,
					(r->pkt.hdrs & ROCE_H_AETH) ? r->pkt.aeth.msn : 0);
			roce_rc_rx(P.qp, now_ns(), r->buf, r->len);
			roce_rc_poll(P.qp, now_ns());
			return false; /* handled: the caller re-checks its condition */
		}
		say("rx: opcode %#x for QPN %#x ignored", r->pkt.bth.opcode, r->pkt.bth.dqpn);
	}
}

static const char *attr_name(uint16_t a)
{
	switch (a) {
	case ROCE_CM_REQ: return "REQ";
	case ROCE_CM_MRA: return "MRA";
	case ROCE_CM_REJ: return "REJ";
	case ROCE_CM_REP: return "REP";
	case ROCE_CM_RTU: return "RTU";
	case ROCE_CM_DREQ: return "DREQ";
	case ROCE_CM_DREP: return "DREP";
	default: return "?";
	}
}

static void build_req(struct roce_cm_req *req, uint32_t psn)
{
	struct roce_cma_hdr cma = { .cma_version = 0, .ip_version = 4, .src_port = 40000 };

	memset(req, 0, sizeof(*req));
	req->local_comm_id = P.comm_id;
	req->service_id = roce_cm_service_id(ROCE_PS_TCP, P.port);
	req->local_ca_guid = 0x505400fffe770001ull;
	req->local_qpn = P.qpn;
	req->responder_resources = 1;
	req->initiator_depth = 1;
	req->remote_cm_timeout = 20;
	req->transport = ROCE_CM_TRANSPORT_RC;
	req->starting_psn = psn;
	req->local_cm_timeout = 20;
	req->retry_count = 7;
	req->pkey = 0xffff;
	req->path_mtu = 3; /* 1024 */
	req->rnr_retry_count = 7;
	req->max_cm_retries = 15;
	req->primary.local_lid = 0xffff;
	req->primary.remote_lid = 0xffff;
	roce_gid_from_ip4(req->primary.local_gid, P.local);
	roce_gid_from_ip4(req->primary.remote_gid, P.server);
	req->primary.hop_limit = 64;
	req->primary.local_ack_timeout = 17;
	roce_put32(cma.src + 12, P.local);
	roce_put32(cma.dst + 12, P.server);
	roce_cma_hdr_put(req->private_data, &cma);
}

/* Waits for the next receive completion (n done so far); false on the deadline. */
/* One datagram (or none before the deadline); a repeated REP (client: our RTU was lost) or
 * REQ (server: our REP was lost) is answered with our last CM message again. */
static void pump(struct rx *r, uint64_t deadline, const uint8_t *again)
{
	if (rx_one(deadline, r) && r->is_mad &&
		r->mad.attr_id == (P.rping_server ? ROCE_CM_REQ : ROCE_CM_REP)) {
		send_mad(again);
		say("tx: %s again", P.rping_server ? "REP" : "RTU");
	}
}

/* Waits for the next receive completion (n done so far); false on the deadline. */
static bool wait_recv(struct rx *r, uint64_t deadline, unsigned int n, const uint8_t *again)
{
	while (P.recv_done <= n && now_ns() < deadline)
		pump(r, deadline, again);
	return P.recv_done > n;
}

/* Posts one send WR and waits for its completion; false on error or the deadline. */
static bool send_wait(struct rx *r, uint64_t deadline, const struct roce_rc_wr *wr,
	const uint8_t *again)
{
	unsigned int n = P.send_done;

	if (!roce_rc_post(P.qp, wr))
		return false;
	roce_rc_poll(P.qp, now_ns());
	while (P.send_done <= n && now_ns() < deadline)
		pump(r, deadline, again);
	return P.send_done > n && P.send_status == ROCE_RC_WC_SUCCESS;
}

static bool post_info(uint32_t n, const uint8_t *buf, uint32_t len)
{
	uint8_t *info = P.send_buf + (size_t)n * MSG_LEN;
	struct roce_rc_wr wr = { .wr_id = n, .op = ROCE_RC_OP_SEND, .local = info, .len = MSG_LEN };

	/* rping's struct rping_rdma_info: buffer address (64), rkey, size, big-endian */
	roce_put64(info, (uint64_t)(uintptr_t)buf);
	roce_put32(info + 8, MR_RKEY);
	roce_put32(info + 12, len);
	if (!roce_rc_post(P.qp, &wr))
		return false;
	roce_rc_poll(P.qp, now_ns());
	return true;
}

/*
 * rping's client (rping -c): per ping, advertise the ping buffer, the server RDMA READs it and
 * SENDs; advertise the sink, the server RDMA WRITEs the data there and SENDs; the sink must
 * equal the ping buffer. Exercises our responder's READ and WRITE against rxe's requester.
 */
static bool rping_client(struct rx *r, uint64_t deadline, const uint8_t *rtu)
{
	size_t len = mr_len / 2;
	uint8_t *start = mr_base, *sink = mr_base + len;

	for (unsigned int ping = 0; ping < P.rping; ping++) {
		/* rping's server writes back strlen(buffer) + 1 bytes: printable text, NUL last */
		for (size_t i = 0; i < len; i++)
			start[i] = (uint8_t)(33 + (ping * 7 + i * 13) % 94);
		start[len - 1] = 0;
		memset(sink, 0, len);
		if (!post_info(2 * ping, start, (uint32_t)len) || !wait_recv(r, deadline, 2 * ping, rtu)) {
			say("FAIL: ping %u: no answer to the READ advertisement", ping);
			return false;
		}
		if (!post_info(2 * ping + 1, sink, (uint32_t)len) ||
			!wait_recv(r, deadline, 2 * ping + 1, rtu)) {
			say("FAIL: ping %u: no answer to the WRITE advertisement", ping);
			return false;
		}
		if (memcmp(start, sink, len) != 0) {
			say("FAIL: ping %u: the data written back differs from the data read", ping);
			return false;
		}
	}
	/* our last SEND's ACK */
	while (P.send_done < 2 * P.rping && now_ns() < deadline)
		rx_one(deadline, r);
	say("rping: %u pings of %zu bytes: READ from us and WRITE back intact (%lu READ pieces, "
	    "%lu WRITE pieces served); sends %s, receives %s", P.rping, len, P.rdma_reads,
		P.rdma_writes, roce_rc_status_name(P.send_status), roce_rc_status_name(P.recv_status));
	return P.send_status == ROCE_RC_WC_SUCCESS && P.recv_status == ROCE_RC_WC_SUCCESS;
}

/*
 * rping's server (rping -s) for the guest's rping -c: per ping, RDMA READ the client's
 * advertised buffer into ours, SEND an ack, RDMA WRITE ours into the advertised sink, SEND an
 * ack; the client compares (-V). Exercises our requester's READ and WRITE against rxe.
 */
static bool rping_server(struct rx *r, uint64_t deadline, const uint8_t *rep_mad)
{
	size_t len = mr_len / 2;
	struct roce_rc_wr ack = { .op = ROCE_RC_OP_SEND, .local = P.send_buf, .len = MSG_LEN };
	uint8_t mad[ROCE_MAD_LEN];

	for (unsigned int i = 0; i < 2 * P.rping; i++) {
		const uint8_t *info = P.recv_buf + (size_t)i * P.recv_size;

		if (!wait_recv(r, deadline, i, rep_mad)) {
			say("FAIL: ping %u: no advertisement from the client", i / 2);
			return false;
		}
		struct roce_rc_wr wr = { .wr_id = 100 + i, .op = i % 2 ? ROCE_RC_OP_WRITE :
			ROCE_RC_OP_READ, .local = mr_base, .len = roce_get32(info + 12),
			.remote_va = roce_get64(info), .rkey = roce_get32(info + 8) };

		if (wr.len > len) {
			say("FAIL: the client advertises %u bytes, we have %zu", wr.len, len);
			return false;
		}
		if (!send_wait(r, deadline, &wr, rep_mad) || !send_wait(r, deadline, &ack, rep_mad)) {
			say("FAIL: ping %u: %s or its ack did not complete (%s)", i / 2,
				i % 2 ? "WRITE" : "READ", roce_rc_status_name(P.send_status));
			return false;
		}
	}
	say("rping server: %u pings of %zu bytes: READ from the client and WRITTEN back", P.rping,
		len);
	while (now_ns() < deadline) { /* the client disconnects */
		if (!rx_one(deadline, r) || !r->is_mad || r->mad.attr_id != ROCE_CM_DREQ)
			continue;
		struct roce_cm_rtu drep = { .local_comm_id = P.comm_id,
			.remote_comm_id = P.remote_comm_id };

		roce_cm_rtu_put(mad, ROCE_CM_DREP, r->mad.tid, &drep);
		P.spare = true;
		send_mad(mad);
		say("rx: DREQ; tx: DREP");
		return true;
	}
	say("FAIL: no DREQ from the client");
	return false;
}

/* Passive side: the guest's rdma_client connects to us. REQ -> REP -> RTU, its 16-byte SEND
 * is received, 16 bytes go back, its DREQ is answered with a DREP. */
static int serve(struct rx *r, uint64_t deadline)
{
	struct roce_cm_req req;
	struct roce_cma_hdr cma;
	uint8_t rep_mad[ROCE_MAD_LEN], mad[ROCE_MAD_LEN];
	uint32_t rq_psn = rnd(1u << 24);
	uint64_t req_tid = 0;
	int have_req = 0, rtu = 0, sent = 0, done = 0;

	say("listening on UDP %u for RDMA-CM port %u", ROCE_UDP_PORT, P.port);
	while (!have_req) {
		if (!rx_one(deadline, r)) {
			if (now_ns() >= deadline) {
				say("FAIL: no REQ before the deadline");
				return 0;
			}
			continue;
		}
		if (!r->is_mad || r->mad.attr_id != ROCE_CM_REQ)
			continue;
		roce_cm_req_get(r->pkt.payload, &req);
		if (!roce_cma_hdr_get(req.private_data, &cma)) {
			say("rx: REQ with an IP header RDMA-CM would refuse");
			continue;
		}
		say("rx: REQ comm id %#x service %#llx QPN %#x PSN %#x MTU code %u retry %u rnr %u "
		    "resp_res %u init_depth %u remote_cm_timeout %u local_cm_timeout %u "
		    "max_cm_retries %u ack_timeout %u hop %u cma src port %u",
			req.local_comm_id, (unsigned long long)req.service_id, req.local_qpn,
			req.starting_psn, req.path_mtu, req.retry_count, req.rnr_retry_count,
			req.responder_resources, req.initiator_depth, req.remote_cm_timeout,
			req.local_cm_timeout, req.max_cm_retries, req.primary.local_ack_timeout,
			req.primary.hop_limit, cma.src_port);
		if (req.service_id != roce_cm_service_id(ROCE_PS_TCP, P.port))
			continue;
		req_tid = r->mad.tid;
		have_req = 1;
	}
	P.remote_comm_id = req.local_comm_id;
	P.remote_qpn = req.local_qpn;

	struct roce_rc_cfg cfg = {
		/* we send from the REQ's Starting PSN and expect ours (the REP's) */
		.qpn = P.qpn, .dest_qpn = req.local_qpn, .sq_psn = req.starting_psn, .rq_psn = rq_psn,
		.mtu = 256u << (req.path_mtu - 1), .timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
		.min_rnr_timer = 12, .max_rd_atomic = 1, .max_dest_rd_atomic = 1, .sq_depth = 4,
		.ops = &rc_ops,
	};

	if (req.path_mtu < 1 || req.path_mtu > 5 || !(P.qp = roce_rc_create(&cfg))) {
		say("FAIL: cannot make the QP (path MTU code %u)", req.path_mtu);
		return 0;
	}
	P.recv_posted = P.rping_server ? 2 * P.rping : 1;
	struct roce_cm_rep rep = {
		.local_comm_id = P.comm_id, .remote_comm_id = req.local_comm_id, .local_qpn = P.qpn,
		.starting_psn = rq_psn, .responder_resources = req.initiator_depth ? 1 : 0,
		.initiator_depth = req.responder_resources ? 1 : 0, .target_ack_delay = 15,
		.rnr_retry_count = 7, .local_ca_guid = 0x505400fffe770001ull,
	};

	roce_cm_rep_put(rep_mad, req_tid, &rep);
	send_mad(rep_mad);
	say("tx: REP QPN %#x PSN %#x", P.qpn, rq_psn);
	if (P.rping_server)
		return rping_server(r, deadline, rep_mad);

	/* RTU, the client's SEND, our answer; a repeated REQ means our REP was lost. */
	while (!done && now_ns() < deadline) {
		if (P.recv_done && !sent) {
			for (int i = 0; i < MSG_LEN; i++)
				P.send_buf[i] = (uint8_t)(0x50 + i);
			struct roce_rc_wr wr = { .wr_id = 1, .op = ROCE_RC_OP_SEND, .local = P.send_buf,
				.len = MSG_LEN };

			say("received %u bytes (%s); sending 16", P.recv_len,
				roce_rc_status_name(P.recv_status));
			if (!roce_rc_post(P.qp, &wr))
				return 0;
			roce_rc_poll(P.qp, now_ns());
			sent = 1;
		}
		if (!rx_one(deadline, r) || !r->is_mad)
			continue;
		say("rx: %s", attr_name(r->mad.attr_id));
		switch (r->mad.attr_id) {
		case ROCE_CM_REQ:
			send_mad(rep_mad);
			say("tx: REP again");
			break;
		case ROCE_CM_RTU:
			rtu = 1;
			break;
		case ROCE_CM_DREQ: {
			struct roce_cm_rtu drep = { .local_comm_id = P.comm_id,
				.remote_comm_id = P.remote_comm_id };

			roce_cm_rtu_put(mad, ROCE_CM_DREP, r->mad.tid, &drep);
			P.spare = true; /* the last word: see the client's DREP */
			send_mad(mad);
			flush_held();
			say("tx: DREP");
			done = 1;
			break;
		}
		default:
			break;
		}
	}
	say("passive: RTU %s, receive %s, our SEND %s, disconnect %s", rtu ? "seen" : "not seen",
		P.recv_done ? roce_rc_status_name(P.recv_status) : "none",
		P.send_done ? roce_rc_status_name(P.send_status) : "not completed",
		done ? "answered" : "not seen");
	/*
	 * rdma_client disconnects once it has received our SEND; rxe sends its ACK from the QP's
	 * responder and the DREQ from QP1, so the DREQ may come first (seen once in CI under TCG).
	 * Our SEND was delivered (the client disconnects only after its receive completed, and
	 * the guest's run reports that): flushed here, as on the active side.
	 */
	if (done && sent && !P.send_done) {
		say("client disconnected before its ACK of our SEND came: delivered, flushed here");
		roce_rc_set_error(P.qp);
		return P.recv_done && P.recv_status == ROCE_RC_WC_SUCCESS && !P.bad_len;
	}
	return done && P.recv_done && P.recv_status == ROCE_RC_WC_SUCCESS && !P.bad_len &&
		P.send_done && P.send_status == ROCE_RC_WC_SUCCESS;
}

static int usage(void)
{
	fprintf(stderr, "usage: roce_probe --server IP --local IP [--listen] [--ready-file F] "
			"[--port N] [--msgs N] [--size BYTES] [--rping N] [--loss PCT] [--reorder PCT] [--timeout S]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct rx *r = calloc(1, sizeof(*r));
	struct roce_cm_req req;
	struct roce_cm_rep rep;
	struct in_addr a;
	uint8_t mad[ROCE_MAD_LEN];
	uint64_t deadline, next_req;
	uint32_t sq_psn; /* our REQ's Starting PSN: what we receive first */
	int req_sent = 0, ok = 0, listen_mode = 0;
	const char *ready_file = NULL;

	t_start = now_ns();
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--listen")) {
			listen_mode = 1;
			continue;
		}
		if (!v)
			return usage();
		if (!strcmp(argv[i], "--server") && inet_pton(AF_INET, v, &a) == 1)
			P.server = ntohl(a.s_addr);
		else if (!strcmp(argv[i], "--local") && inet_pton(AF_INET, v, &a) == 1)
			P.local = ntohl(a.s_addr);
		else if (!strcmp(argv[i], "--port"))
			P.port = (uint16_t)atoi(v);
		else if (!strcmp(argv[i], "--loss"))
			P.loss = (unsigned int)atoi(v);
		else if (!strcmp(argv[i], "--reorder"))
			P.reorder = (unsigned int)atoi(v);
		else if (!strcmp(argv[i], "--ready-file"))
			ready_file = v;
		else if (!strcmp(argv[i], "--timeout"))
			P.timeout_s = atof(v);
		else if (!strcmp(argv[i], "--rping"))
			P.rping = (uint32_t)atoi(v);
		else if (!strcmp(argv[i], "--msgs"))
			P.msgs = (uint32_t)atoi(v);
		else if (!strcmp(argv[i], "--size"))
			P.size = (uint32_t)atoi(v);
		else
			return usage();
		i++;
	}
	if (!r || !P.server || !P.local || P.msgs > 4096 || P.size > (1u << 20))
		return usage();
	if (P.rping) { /* 16-byte SENDs both ways, two per ping; the buffers are the MR */
		P.msgs = 2 * P.rping;
		mr_len = 2 * (size_t)(P.size ? P.size : 64);
		mr_base = calloc(1, mr_len);
		if (!mr_base)
			return 1;
		P.size = MSG_LEN;
	}
	P.rping_server = P.rping && listen_mode;
	if (!P.rping && (P.msgs == 0 || listen_mode))
		P.msgs = 1;
	if (P.size == 0 || listen_mode)
		P.size = MSG_LEN;
	P.recv_size = P.size < 64 ? 64 : P.size;
	P.send_buf = calloc(P.msgs, P.size);
	P.recv_buf = calloc(P.msgs, P.recv_size);
	if (!P.send_buf || !P.recv_buf)
		return 1;
	P.rng ^= now_ns();
	P.comm_id = (uint32_t)(now_ns() & 0x7fffffff) | 1;
	P.qp1_psn = rnd(1u << 24);
	P.qpn = 0x100 + rnd(0xfff000);
	sq_psn = rnd(1u << 24);

	P.fd = socket(AF_INET, SOCK_DGRAM, 0);
	int pmtu = IP_PMTUDISC_DO, one = 1;
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT),
		.sin_addr.s_addr = htonl(P.local) };

	if (P.fd < 0 || setsockopt(P.fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) ||
		setsockopt(P.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
		bind(P.fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("roce_probe: socket");
		return 1;
	}
	deadline = now_ns() + (uint64_t)(P.timeout_s * 1e9);
	if (ready_file) { /* bound: the runner may let the guest connect */
		FILE *f = fopen(ready_file, "w");

		if (f)
			fclose(f);
	}
	if (listen_mode) {
		ok = serve(r, deadline);
		goto out;
	}

	/* 1. REQ until REP. A REJ (rdma_server not listening yet: invalid service ID) or silence
	 * is answered by a new REQ after 500 ms with a new comm ID. */
	build_req(&req, sq_psn);
	next_req = 0;
	for (;;) {
		if (now_ns() >= deadline) {
			say("FAIL: no REP before the deadline (%d REQs sent)", req_sent);
			goto out;
		}
		if (now_ns() >= next_req) {
			P.tid = ((uint64_t)P.comm_id << 8) | (unsigned int)req_sent;
			roce_cm_req_put(mad, P.tid, &req);
			send_mad(mad);
			req_sent++;
			say("tx: REQ #%d comm id %#x service %#llx QPN %#x PSN %#x", req_sent, P.comm_id,
				(unsigned long long)req.service_id, P.qpn, sq_psn);
			next_req = now_ns() + 500000000ull;
		}
		if (!rx_one(next_req < deadline ? next_req : deadline, r) || !r->is_mad)
			continue;
		say("rx: %s (tid %#llx, IPv4 ID %#06x)", attr_name(r->mad.attr_id),
			(unsigned long long)r->mad.tid, P.last_id);
		if (r->mad.attr_id == ROCE_CM_REJ) {
			struct roce_cm_rej rej;

			roce_cm_rej_get(r->pkt.payload, &rej);
			say("rx: REJ reason %u for message %u", rej.reason, rej.msg_rejected);
			P.comm_id += 2;
			req.local_comm_id = P.comm_id;
			continue;
		}
		if (r->mad.attr_id == ROCE_CM_MRA) {
			next_req = now_ns() + 5000000000ull; /* the server asked for more time */
			continue;
		}
		if (r->mad.attr_id != ROCE_CM_REP)
			continue;
		roce_cm_rep_get(r->pkt.payload, &rep);
		if (rep.remote_comm_id != P.comm_id) {
			say("rx: REP for comm id %#x, not ours (%#x)", rep.remote_comm_id, P.comm_id);
			continue;
		}
		break;
	}
	P.remote_comm_id = rep.local_comm_id;
	P.remote_qpn = rep.local_qpn;
	say("REP: server QPN %#x PSN %#x comm id %#x resp_res %u init_depth %u rnr_retry %u "
	    "target_ack_delay %u failover %u srq %d", rep.local_qpn, rep.starting_psn,
		rep.local_comm_id, rep.responder_resources, rep.initiator_depth, rep.rnr_retry_count,
		rep.target_ack_delay, rep.failover_accepted, rep.srq);

	/* 2. The QP, then RTU (the server may send before it sees the RTU: its first SEND then
	 * reaches a QP that is ready). */
	struct roce_rc_cfg cfg = {
		/* Each side's Starting PSN is the one it expects to receive first (Linux cm.c; rxe
		 * NAKs a SEND at the REQ's PSN with the REP's): we send from the REP's. */
		.qpn = P.qpn, .dest_qpn = rep.local_qpn, .sq_psn = rep.starting_psn, .rq_psn = sq_psn,
		.mtu = 1024, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7, .min_rnr_timer = 12,
		.max_rd_atomic = 1, .max_dest_rd_atomic = 1, .sq_depth = P.msgs + 4, .ops = &rc_ops,
	};

	P.qp = roce_rc_create(&cfg);
	if (!P.qp) {
		say("FAIL: roce_rc_create");
		goto out;
	}
	P.recv_posted = P.msgs;
	struct roce_cm_rtu rtu = { .local_comm_id = P.comm_id, .remote_comm_id = P.remote_comm_id };

	roce_cm_rtu_put(mad, ROCE_CM_RTU, r->mad.tid, &rtu);
	send_mad(mad);
	say("tx: RTU");

	if (P.rping) {
		if (!rping_client(r, deadline, mad))
			goto out;
		goto disconnect;
	}
	/* 3. rdma_client's exchange: SEND 16 bytes, the server's 16 come back; with --msgs and
	 * --size (ucmatose) each side sends that many messages of that size. */
	for (uint32_t i = 0; i < P.msgs * P.size; i++)
		P.send_buf[i] = (uint8_t)(0xa0 + i);
	for (uint32_t i = 0; i < P.msgs; i++) {
		struct roce_rc_wr wr = { .wr_id = i, .op = ROCE_RC_OP_SEND,
			.local = P.send_buf + (size_t)i * P.size, .len = P.size };

		if (!roce_rc_post(P.qp, &wr)) {
			say("FAIL: post SEND %u", i);
			goto out;
		}
	}
	roce_rc_poll(P.qp, now_ns());
	while (!(P.send_done >= P.msgs && P.recv_done >= P.msgs) && now_ns() < deadline) {
		if (rx_one(deadline, r) && r->is_mad) {
			say("rx: %s during data", attr_name(r->mad.attr_id));
			if (r->mad.attr_id == ROCE_CM_REP) { /* our RTU was lost: the REP came again */
				send_mad(mad);
				say("tx: RTU again");
			}
			/*
			 * The server echoes only what it received, and disconnects once its own SEND
			 * is acknowledged: a DREQ after every echo, with our SEND unacknowledged, means
			 * rxe's ACK of it was lost (netem) and its QP is gone, so no retransmission can
			 * be answered. A Linux client's SEND would be flushed the same way.
			 */
			if (r->mad.attr_id == ROCE_CM_DREQ && P.recv_done >= P.msgs) {
				struct roce_cm_rtu drep = { .local_comm_id = P.comm_id,
					.remote_comm_id = P.remote_comm_id };

				say("server disconnected after echoing all %u messages, %u of our SENDs "
				    "unacknowledged (their ACK was lost): delivered, flushed here",
					P.msgs, P.msgs - P.send_done);
				roce_rc_set_error(P.qp);
				roce_cm_rtu_put(mad, ROCE_CM_DREP, r->mad.tid, &drep);
				P.spare = true;
				send_mad(mad);
				flush_held();
				say("tx: DREP");
				ok = 1;
				goto out;
			}
		}
	}
	if (P.send_done < P.msgs || P.recv_done < P.msgs) {
		say("FAIL: exchange incomplete (sends %u of %u, receives %u of %u)", P.send_done,
			P.msgs, P.recv_done, P.msgs);
		goto out;
	}
	say("%u SEND completions: %s; %u receives: %s, last %u bytes: %02x %02x %02x %02x ...",
		P.send_done, roce_rc_status_name(P.send_status), P.recv_done,
		roce_rc_status_name(P.recv_status), P.recv_len, P.recv_buf[0], P.recv_buf[1],
		P.recv_buf[2], P.recv_buf[3]);
	if (P.send_status != ROCE_RC_WC_SUCCESS || P.recv_status != ROCE_RC_WC_SUCCESS ||
		P.bad_len) {
		say("FAIL: exchange completed in error (%u receives of another length)", P.bad_len);
		goto out;
	}

disconnect:;
	/* 4. Disconnect: rdma_server disconnects once its SEND completed; answer its DREQ with a
	 * DREP. If none comes within 3 s (at once for rping, which waits for ours), send our own
	 * DREQ and wait for the DREP. */
	uint64_t dl = now_ns() + (P.rping ? 0 : 3000000000ull);
	int dreq_sent = 0, done = 0;

	while (!done && now_ns() < deadline) {
		if (now_ns() >= dl) {
			struct roce_cm_dreq dreq = { .local_comm_id = P.comm_id,
				.remote_comm_id = P.remote_comm_id, .remote_qpn = P.remote_qpn };

			roce_cm_dreq_put(mad, P.tid + 0x100, &dreq);
			send_mad(mad);
			say("tx: DREQ #%d", ++dreq_sent);
			dl = now_ns() + 1000000000ull;
		}
		if (!rx_one(dl, r) || !r->is_mad)
			continue;
		say("rx: %s", attr_name(r->mad.attr_id));
		if (r->mad.attr_id == ROCE_CM_DREQ) {
			struct roce_cm_dreq d;
			struct roce_cm_rtu drep = { .local_comm_id = P.comm_id,
				.remote_comm_id = P.remote_comm_id };

			roce_cm_dreq_get(r->pkt.payload, &d);
			if (d.remote_qpn != P.qpn || d.remote_comm_id != P.comm_id)
				say("rx: DREQ names QPN %#x comm id %#x", d.remote_qpn, d.remote_comm_id);
			roce_cm_rtu_put(mad, ROCE_CM_DREP, r->mad.tid, &drep);
			/* the last word, spared from --loss: once we exit nothing would answer the
			 * DREQs Linux repeats for a minute */
			P.spare = true;
			send_mad(mad);
			flush_held();
			say("tx: DREP");
			done = 1;
		} else if (r->mad.attr_id == ROCE_CM_DREP) {
			done = 1;
		} else if (r->mad.attr_id == ROCE_CM_REP) {
			roce_cm_rtu_put(mad, ROCE_CM_RTU, r->mad.tid, &rtu);
			send_mad(mad);
			say("tx: RTU again");
		}
	}
	if (!done) {
		say("FAIL: no DREQ/DREP before the deadline");
		goto out;
	}
	ok = 1;
out:
	flush_held();
	if (P.qp) {
		const struct roce_rc_stats *st = roce_rc_get_stats(P.qp);

		say("rc: tx %llu rx %llu dropped %llu retransmits %llu timeouts %llu acks sent %llu "
		    "rcvd %llu nak-seq sent %llu rcvd %llu dup requests %llu",
			(unsigned long long)st->tx_pkts, (unsigned long long)st->rx_pkts,
			(unsigned long long)st->rx_dropped, (unsigned long long)st->retransmits,
			(unsigned long long)st->timeouts, (unsigned long long)st->acks_sent,
			(unsigned long long)st->acks_rcvd, (unsigned long long)st->nak_seq_sent,
			(unsigned long long)st->nak_seq_rcvd, (unsigned long long)st->dup_requests);
		roce_rc_destroy(P.qp);
	}
	say("summary: %s; sent %lu (dropped %lu, reordered %lu), received %lu: ICRC ok %lu "
	    "(IPv4 ID non-zero in %lu), ICRC bad %lu, foreign %lu", ok ? "PASS" : "FAIL", P.tx,
		P.tx_dropped, P.tx_reordered, P.rx, P.rx_icrc_ok, P.ids_nonzero, P.rx_icrc_bad,
		P.rx_other);
	close(P.fd);
	free(P.send_buf);
	free(P.recv_buf);
	free(mr_base);
	free(r);
	return ok ? 0 : 1;
}
