/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RoCEv2 UDP port shared by processes (lib/softhw/rnic/roce_port.c, roce_reg.c), on a
 * loopback address of its own (127.x.y.16, from the pid) with a fresh run directory:
 *   - the registry alone: QPNs, generations, listeners, comm IDs;
 *   - two worker processes share port 4791; a plain UDP socket plays the peer and sends RC
 *     SENDs with crafted BTHs to every QPN from many source ports, and CM MADs to QP1: each
 *     datagram reaches its owner once (directly or forwarded), and after the first datagram
 *     of a source each QP is connected to it and gets the rest on its own socket;
 *   - a worker is killed: its QPNs are reclaimed, datagrams to them are dropped and counted;
 *   - a killed worker's RDMA-CM connections are ended on the wire by whoever reclaims it (DREQ,
 *     REJ, DREP to the peer's DREQ), and garbage in the registry's connection table is ignored;
 *   - root only: a process of another user is kept out of the registry, the port and the
 *     forwarding channel; packets sent for a QP leave with IPv4 ID 0, DF and rxe's source port.
 * Synchronisation is by pipes and counts, bounded by timeouts; nothing sleeps.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/udp.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"
#include "softhw/rnic/roce_port.h"
#include "softhw/rnic/roce_reg.h"
#include "test.h"

#define NQ 8          /* QPs per worker */
#define MAX_SEQ 1024
#define TIMEOUT_MS 30000

static char run_dir[64];
static uint32_t ip;      /* the port's address (host order) */
static uint32_t peer_ip; /* the peer's */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool read_full(int fd, void *buf, size_t len, int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;

	for (size_t got = 0; got < len;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		uint64_t t = now_ms();
		ssize_t n;

		if (t >= end || poll(&pf, 1, (int)(end - t)) <= 0)
			return false;
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

static void write_full(int fd, const void *buf, size_t len)
{
	if (write(fd, buf, len) != (ssize_t)len)
		abort();
}

/* ---- datagrams ---- */

/* An RC SEND_ONLY to qpn whose payload says (qpn, seq). */
static size_t data_dgram(uint8_t *buf, size_t cap, uint32_t qpn, uint32_t seq)
{
	struct roce_pkt pkt = { 0 };
	uint8_t pl[8];

	roce_put32(pl, qpn);
	roce_put32(pl + 4, seq);
	pkt.bth.opcode = ROCE_RC_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = qpn;
	pkt.bth.psn = seq;
	return roce_pkt_build(buf, cap, &pkt, pl, sizeof(pl));
}

/* A CM MAD to QP1: a REQ for sid, or (sid 0) an RTU whose remote comm ID is comm_id. */
static size_t cm_dgram(uint8_t *buf, size_t cap, uint64_t sid, uint32_t comm_id)
{
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_pkt pkt = { 0 };

	if (sid != 0) {
		struct roce_cm_req req = { .local_comm_id = 0x1234, .service_id = sid, .local_qpn = 0x11,
					   .pkey = 0xffff, .path_mtu = 3 };

		roce_cm_req_put(mad, 1, &req);
	} else {
		struct roce_cm_rtu rtu = { .local_comm_id = 0x1234, .remote_comm_id = comm_id };

		roce_cm_rtu_put(mad, ROCE_CM_RTU, 2, &rtu);
	}
	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	return roce_pkt_build(buf, cap, &pkt, mad, sizeof(mad));
}

/* A plain UDP socket of the peer, on an ephemeral port. */
static int peer_socket(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(peer_ip) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
		abort();
	return fd;
}

static void peer_send(int fd, const uint8_t *buf, size_t len)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT),
				  .sin_addr.s_addr = htonl(ip) };

	if (sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) != (ssize_t)len)
		abort();
}

static void send_data(int fd, uint32_t qpn, uint32_t seq)
{
	uint8_t buf[64];

	peer_send(fd, buf, data_dgram(buf, sizeof(buf), qpn, seq));
}

/* ---- the registry alone ---- */

static void test_registry(void)
{
	struct roce_reg *r = NULL, *look = NULL;
	uint32_t q[64], again;
	const char *why = "";
	bool distinct = true, valid = true;

	CHECK(roce_reg_open(run_dir, 0x7f000063, true, &r, &why) == DOCA_SUCCESS);
	CHECK(roce_reg_open(run_dir, 0x7f000063, false, &look, &why) == DOCA_SUCCESS);
	if (r == NULL || look == NULL)
		return;
	CHECK(roce_reg_self(r) > 0 && roce_reg_self(look) == 0);
	CHECK(roce_reg_owner_pid(look, roce_reg_self(r)) == getpid());
	for (int i = 0; i < 64; i++) {
		CHECK(roce_reg_qpn_alloc(r, &q[i]) == DOCA_SUCCESS);
		valid &= q[i] > 1 && q[i] < 0xffffff && roce_reg_qpn_owner(look, q[i]) == roce_reg_self(r);
		for (int j = 0; j < i; j++)
			distinct &= q[i] != q[j];
	}
	CHECK(valid && distinct);
	CHECK(roce_reg_qpn_alloc(look, &again) == DOCA_ERROR_BAD_STATE); /* only owners allocate */
	/* A freed QPN does not come back soon: the next use of its slot is another generation. */
	roce_reg_qpn_free(r, q[0]);
	CHECK(roce_reg_qpn_owner(look, q[0]) == 0);
	again = 0;
	for (int i = 0; i < ROCE_REG_SLOTS && (again & 0xffff) != (q[0] & 0xffff); i++)
		if (roce_reg_qpn_alloc(r, &again) != DOCA_SUCCESS)
			break;
	CHECK((again & 0xffff) == (q[0] & 0xffff) && again != q[0]);
	/* Listeners and comm IDs. */
	CHECK(roce_reg_listen(r, roce_cm_service_id(ROCE_PS_TCP, 7471)) == DOCA_SUCCESS);
	CHECK(roce_reg_listen(r, roce_cm_service_id(ROCE_PS_TCP, 7471)) == DOCA_ERROR_IN_USE);
	CHECK(roce_reg_listener_owner(look, roce_cm_service_id(ROCE_PS_TCP, 7471)) == roce_reg_self(r));
	CHECK(roce_reg_listener_owner(look, roce_cm_service_id(ROCE_PS_TCP, 7472)) == 0);
	roce_reg_unlisten(r, roce_cm_service_id(ROCE_PS_TCP, 7471));
	CHECK(roce_reg_listener_owner(look, roce_cm_service_id(ROCE_PS_TCP, 7471)) == 0);
	CHECK(roce_reg_comm_id_owner(roce_reg_comm_id(r, 0x3fffff)) == roce_reg_self(r));
	CHECK(roce_reg_comm_id(r, 0) != 0);
	/*
	 * Entries another process of ours wrote with owner ids past the table (the file is shared):
	 * no owner, rather than an index past the port's forwarding connections.
	 */
	{
		char path[600];
		int fd;
		uint8_t *map;
		const uint32_t qpn = 0x12abcd;
		const uint64_t sid = roce_cm_service_id(ROCE_PS_TCP, 7473);

		snprintf(path, sizeof(path), "%s/roce/127.0.0.99.reg", run_dir);
		fd = open(path, O_RDWR | O_CLOEXEC);
		map = fd < 0 ? MAP_FAILED
			     : mmap(NULL, roce_reg_conns_offset(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		CHECK(map != MAP_FAILED);
		if (map != MAP_FAILED) {
			uint64_t *slot = (uint64_t *)(void *)(map + roce_reg_slots_offset()) + (qpn & 0xffff);
			uint64_t *lw = (uint64_t *)(void *)(map + roce_reg_listeners_offset()) + ROCE_REG_LISTENERS - 1;
			const uint64_t old_slot = *slot, old_lw = *lw;

			*slot = 5000ull << 32 | qpn;
			CHECK(roce_reg_qpn_owner(look, qpn) == 0);
			*slot = 0x7fffffffull << 32 | qpn;
			CHECK(roce_reg_qpn_owner(look, qpn) == 0);
			*slot = (uint64_t)ROCE_REG_OWNERS << 32 | qpn;
			CHECK(roce_reg_qpn_owner(look, qpn) == 0);
			*slot = old_slot;
			*lw = 0xffffull << 48 | sid;
			CHECK(roce_reg_listener_owner(look, sid) == 0);
			*lw = old_lw;
			munmap(map, roce_reg_conns_offset());
		}
		if (fd >= 0)
			close(fd);
	}
	/* Closing gives everything back. */
	roce_reg_close(r);
	CHECK(roce_reg_qpn_owner(look, q[1]) == 0);
	roce_reg_close(look);
}

/* ---- workers ---- */

struct hello {
	pid_t pid;
	int self;
	uint32_t qpn[NQ];
	uint32_t comm_id;
	uint64_t sid;
	char sock[108];
};

struct report {
	struct roce_port_stats st;
	uint32_t got;      /* data datagrams for our QPs, each (qpn, seq) once */
	uint32_t cm;       /* CM MADs that are ours */
	uint32_t bad;      /* misdelivered: not our QPN, payload naming another QP, a CM MAD not ours */
	uint32_t dup;
	uint32_t unclaimed; /* CM REQs for nobody's service, handed to us to answer */
	uint32_t connected; /* our QPs whose receive socket is connected */
};

struct cmd {
	char op;           /* 'W': report when got + cm reaches want; 'Q': exit */
	uint32_t want;
};

static bool port_readable(int fd)
{
	struct pollfd pf = { .fd = fd, .events = POLLIN };

	return poll(&pf, 1, 0) > 0;
}

static void worker_take(struct roce_port *p, const struct hello *h, const struct roce_port_msg *m,
			struct report *rep, uint8_t seen[NQ][MAX_SEQ / 8])
{
	struct roce_pkt pkt;
	int i;

	if (roce_pkt_parse(m->buf, m->len, &pkt) != ROCE_PARSE_OK || pkt.bth.dqpn != m->qpn) {
		rep->bad++;
		return;
	}
	if (m->qpn == 1 && m->unclaimed) {
		rep->unclaimed++;
		return;
	}
	if (m->qpn == 1) {
		struct roce_mad_hdr hdr;
		bool ours = roce_cm_mad_check(pkt.payload, pkt.payload_len, &hdr) &&
			    (hdr.attr_id == ROCE_CM_REQ ? roce_get64(pkt.payload + ROCE_MAD_HDR_LEN + 8) == h->sid
							: roce_get32(pkt.payload + ROCE_MAD_HDR_LEN + 4) == h->comm_id);

		if (ours)
			rep->cm++;
		else
			rep->bad++;
		return;
	}
	for (i = 0; i < NQ && h->qpn[i] != m->qpn; i++)
		;
	if (i == NQ || pkt.payload_len != 8 || roce_get32(pkt.payload) != m->qpn ||
	    roce_get32(pkt.payload + 4) >= MAX_SEQ) {
		rep->bad++;
		return;
	}
	uint32_t seq = roce_get32(pkt.payload + 4);

	if (seen[i][seq / 8] & (1u << (seq % 8))) {
		rep->dup++;
		return;
	}
	seen[i][seq / 8] |= (uint8_t)(1u << (seq % 8));
	rep->got++;
	(void)p;
}

static void worker(int cmd_fd, int res_fd, uint64_t sid)
{
	static uint8_t seen[NQ][MAX_SEQ / 8];
	struct roce_port_msg *msgs = calloc(16, sizeof(*msgs));
	struct report rep = { 0 };
	struct hello h = { .pid = getpid(), .sid = sid };
	struct roce_port *p = NULL;
	const char *why = "";
	uint32_t want = UINT32_MAX;
	uint64_t deadline = 0;

	if (msgs == NULL || roce_port_open(run_dir, ip, 0, &p, &why) != DOCA_SUCCESS) {
		fprintf(stderr, "worker %d: cannot open the port: %s\n", (int)getpid(), why);
		_exit(2);
	}
	for (int i = 0; i < NQ; i++)
		if (roce_port_qp_add(p, &h.qpn[i]) != DOCA_SUCCESS)
			_exit(3);
	if (roce_port_listen(p, sid) != DOCA_SUCCESS)
		_exit(4);
	h.self = roce_reg_self(roce_port_reg(p));
	h.comm_id = roce_port_comm_id(p, 5);
	roce_reg_owner_path(roce_port_reg(p), h.self, h.sock, sizeof(h.sock));
	write_full(res_fd, &h, sizeof(h));
	for (;;) {
		struct pollfd pf[2] = { { .fd = roce_port_fd(p), .events = POLLIN }, { .fd = cmd_fd, .events = POLLIN } };
		unsigned n;

		if (poll(pf, 2, want == UINT32_MAX ? TIMEOUT_MS : 100) < 0 && errno != EINTR)
			_exit(5);
		if (pf[1].revents) {
			struct cmd c;

			if (!read_full(cmd_fd, &c, sizeof(c), TIMEOUT_MS) || c.op == 'Q')
				break;
			want = c.want;
			deadline = now_ms() + TIMEOUT_MS;
		}
		/* Drain all that is ready (accepts and forwards too), then report if asked. */
		do {
			n = roce_port_recv(p, msgs, 16);
			for (unsigned i = 0; i < n; i++)
				worker_take(p, &h, &msgs[i], &rep, seen);
		} while (n > 0 || port_readable(roce_port_fd(p)));
		if (want != UINT32_MAX && (rep.got + rep.cm >= want || now_ms() >= deadline)) {
			roce_port_get_stats(p, &rep.st);
			rep.connected = 0;
			for (int i = 0; i < NQ; i++)
				rep.connected += roce_port_qp_connected(p, h.qpn[i], NULL, NULL);
			write_full(res_fd, &rep, sizeof(rep));
			want = UINT32_MAX;
		}
	}
	roce_port_close(p);
	free(msgs);
	_exit(0);
}

struct wk {
	pid_t pid;
	int cmd, res;
	struct hello h;
	uint32_t expect; /* got + cm it should have by now */
	struct report rep;
};

static bool worker_start(struct wk *w, uint64_t sid)
{
	int c[2], r[2];

	if (pipe2(c, O_CLOEXEC) != 0 || pipe2(r, O_CLOEXEC) != 0)
		return false;
	w->pid = fork();
	if (w->pid == 0) {
		close(c[1]);
		close(r[0]);
		worker(c[0], r[1], sid);
	}
	close(c[0]);
	close(r[1]);
	w->cmd = c[1];
	w->res = r[0];
	w->expect = 0;
	return w->pid > 0 && read_full(w->res, &w->h, sizeof(w->h), TIMEOUT_MS);
}

/* Asks for a report once everything expected has arrived (or the timeout passed). */
static bool worker_report(struct wk *w)
{
	struct cmd c = { .op = 'W', .want = w->expect };

	write_full(w->cmd, &c, sizeof(c));
	return read_full(w->res, &w->rep, sizeof(w->rep), 2 * TIMEOUT_MS);
}

static void worker_stop(struct wk *w)
{
	struct cmd c = { .op = 'Q' };
	int status = -1;

	if (w->pid <= 0)
		return;
	write_full(w->cmd, &c, sizeof(c));
	waitpid(w->pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(w->cmd);
	close(w->res);
	w->pid = 0;
}

static bool reports_ok(struct wk *w, int n)
{
	bool ok = true;

	for (int i = 0; i < n; i++)
		ok &= worker_report(&w[i]);
	return ok;
}

/* ---- two processes share the port ---- */

static struct wk wks[2];
static int learned_src[2][NQ]; /* the peer socket each QP first heard from */

static void test_share(void)
{
	struct roce_reg *look = NULL;
	const char *why = "";
	uint32_t seq[2][NQ] = { { 0 } };
	int strays[8];
	bool distinct = true, owners = true;
	uint64_t fwd_out = 0, fwd_in = 0;

	for (int w = 0; w < 2; w++)
		CHECK(worker_start(&wks[w], roce_cm_service_id(ROCE_PS_TCP, (uint16_t)(7000 + w))));
	if (wks[0].pid <= 0 || wks[1].pid <= 0)
		return;
	CHECK(roce_reg_open(run_dir, ip, false, &look, &why) == DOCA_SUCCESS);
	if (look == NULL)
		return;
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < NQ; i++) {
			owners &= roce_reg_qpn_owner(look, wks[w].h.qpn[i]) == wks[w].h.self &&
				  roce_reg_owner_pid(look, wks[w].h.self) == wks[w].pid;
			for (int j = 0; j < NQ; j++)
				distinct &= wks[0].h.qpn[i] != wks[1].h.qpn[j];
		}
	CHECK(distinct && owners && wks[0].h.self != wks[1].h.self);

	/* 1: one datagram per QP from a source of its own: each reaches its owner, which learns the source. */
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < NQ; i++) {
			learned_src[w][i] = peer_socket();
			send_data(learned_src[w][i], wks[w].h.qpn[i], seq[w][i]++);
			wks[w].expect++;
		}
	CHECK(reports_ok(wks, 2));
	for (int w = 0; w < 2; w++) {
		CHECK(wks[w].rep.got == NQ && wks[w].rep.bad == 0 && wks[w].rep.dup == 0);
		CHECK(wks[w].rep.st.learned == NQ && wks[w].rep.connected == NQ);
	}

	/* 2: from the learned sources, 50 datagrams a QP, in windows of 10 per QP: all on the QPs' own sockets. */
	for (int round = 0; round < 50 / 10; round++) {
		for (int k = 0; k < 10; k++)
			for (int w = 0; w < 2; w++)
				for (int i = 0; i < NQ; i++) {
					send_data(learned_src[w][i], wks[w].h.qpn[i], seq[w][i]++);
					wks[w].expect++;
				}
		CHECK(reports_ok(wks, 2));
	}
	for (int w = 0; w < 2; w++) {
		CHECK(wks[w].rep.got == wks[w].expect && wks[w].rep.bad == 0 && wks[w].rep.dup == 0);
		CHECK(wks[w].rep.st.rx_qp == 50 * NQ);
		fprintf(stderr, "  worker %d after direct round: rx_qp %llu rx_shared %llu rx_forwarded %llu\n", w,
			(unsigned long long)wks[w].rep.st.rx_qp, (unsigned long long)wks[w].rep.st.rx_shared,
			(unsigned long long)wks[w].rep.st.rx_forwarded);
	}

	/* 3: eight other sources send to every QP: shared sockets and forwarding, still each once to its owner. */
	for (int s = 0; s < 8; s++)
		strays[s] = peer_socket();
	for (int k = 0; k < 4; k++) {
		for (int s = 0; s < 8; s++)
			for (int w = 0; w < 2; w++)
				for (int i = 0; i < NQ; i++) {
					send_data(strays[s], wks[w].h.qpn[i], seq[w][i]++);
					wks[w].expect++;
				}
		CHECK(reports_ok(wks, 2));
	}
	/* CM: REQs for each listener and RTUs carrying each worker's comm ID, from the strays; an unknown service. */
	for (int s = 0; s < 8; s++)
		for (int w = 0; w < 2; w++) {
			uint8_t buf[512];

			peer_send(strays[s], buf, cm_dgram(buf, sizeof(buf), wks[w].h.sid, 0));
			peer_send(strays[s], buf, cm_dgram(buf, sizeof(buf), 0, wks[w].h.comm_id));
			wks[w].expect += 2;
		}
	{
		uint8_t buf[512];

		static uint8_t big[ROCE_PORT_DGRAM_MAX + 100];

		peer_send(strays[0], buf, cm_dgram(buf, sizeof(buf), roce_cm_service_id(ROCE_PS_TCP, 9), 0));
		/* Malformed: shorter than a BTH, a BTH of version 1, longer than any RoCE datagram. */
		peer_send(strays[0], buf, 7);
		data_dgram(buf, sizeof(buf), wks[0].h.qpn[0], 0);
		buf[1] |= 1;
		peer_send(strays[0], buf, 24);
		data_dgram(big, sizeof(big), wks[0].h.qpn[0], 0);
		peer_send(strays[0], big, sizeof(big));
		/* Markers behind it from the same source, so the same socket queue: once they are in, it was read. */
		for (int w = 0; w < 2; w++) {
			send_data(strays[0], wks[w].h.qpn[0], seq[w][0]++);
			wks[w].expect++;
		}
	}
	CHECK(reports_ok(wks, 2));
	for (int w = 0; w < 2; w++) {
		struct roce_port_stats *st = &wks[w].rep.st;

		CHECK(wks[w].rep.got + wks[w].rep.cm == wks[w].expect && wks[w].rep.cm == 16);
		CHECK(wks[w].rep.bad == 0 && wks[w].rep.dup == 0 && st->drop_fwd_full == 0 && st->drop_stray == 0);
		CHECK(st->rx_qp + st->rx_shared + st->rx_forwarded == wks[w].expect); /* the unclaimed REQ is in cm_unclaimed */
		fwd_out += st->fwd_out;
		fwd_in += st->rx_forwarded;
		fprintf(stderr, "  worker %d: %u datagrams + %u CM (+%u unclaimed REQ): rx_qp %llu rx_shared %llu "
			"rx_forwarded %llu fwd_out %llu\n", w, wks[w].rep.got, wks[w].rep.cm, wks[w].rep.unclaimed,
			(unsigned long long)st->rx_qp, (unsigned long long)st->rx_shared,
			(unsigned long long)st->rx_forwarded, (unsigned long long)st->fwd_out);
	}
	/* Every stray source sent to both workers' QPs: whoever got it, half had to be forwarded. */
	CHECK(fwd_out == fwd_in && fwd_out >= 8 * 4 * NQ + 16);
	/* The REQ for an unknown service went to whoever got it, to be answered with a REJ. */
	CHECK(wks[0].rep.unclaimed + wks[1].rep.unclaimed == 1);
	CHECK(wks[0].rep.st.cm_unclaimed + wks[1].rep.st.cm_unclaimed == 1);
	CHECK(wks[0].rep.st.drop_no_owner + wks[1].rep.st.drop_no_owner == 0);
	CHECK(wks[0].rep.st.drop_malformed + wks[1].rep.st.drop_malformed == 3);

	/* 4: worker 1 dies; datagrams to its QPNs (from its learned sources and a stray) end as counted drops. */
	kill(wks[1].pid, SIGKILL);
	waitpid(wks[1].pid, NULL, 0);
	close(wks[1].cmd);
	close(wks[1].res);
	wks[1].pid = 0;
	CHECK(roce_reg_qpn_owner(look, wks[1].h.qpn[0]) == wks[1].h.self); /* nobody noticed yet */
	uint64_t before = wks[0].rep.st.drop_dead + wks[0].rep.st.drop_no_owner;

	for (int i = 0; i < NQ; i++) {
		send_data(learned_src[1][i], wks[1].h.qpn[i], 9999);
		send_data(strays[3], wks[1].h.qpn[i], 9999);
	}
	/* A marker behind them, on the same (shared) socket queue: once it is in, the rest was read. */
	send_data(strays[3], wks[0].h.qpn[0], seq[0][0]++);
	wks[0].expect++;
	CHECK(reports_ok(wks, 1));
	CHECK(wks[0].rep.got + wks[0].rep.cm == wks[0].expect && wks[0].rep.bad == 0);
	CHECK(wks[0].rep.st.drop_dead + wks[0].rep.st.drop_no_owner - before == 2 * NQ);
	CHECK(wks[0].rep.st.drop_dead >= 1 && wks[0].rep.st.reclaimed == 1);
	for (int i = 0; i < NQ; i++)
		CHECK(roce_reg_qpn_owner(look, wks[1].h.qpn[i]) == 0);
	CHECK(roce_reg_owner_pid(look, wks[1].h.self) == 0);
	CHECK(roce_reg_listener_owner(look, wks[1].h.sid) == 0);
	CHECK(access(wks[1].h.sock, F_OK) != 0);
	fprintf(stderr, "  after the death: drop_dead %llu drop_no_owner %llu reclaimed %llu\n",
		(unsigned long long)wks[0].rep.st.drop_dead, (unsigned long long)wks[0].rep.st.drop_no_owner,
		(unsigned long long)wks[0].rep.st.reclaimed);
	for (int s = 0; s < 8; s++)
		close(strays[s]);
	for (int w = 0; w < 2; w++)
		for (int i = 0; i < NQ; i++)
			close(learned_src[w][i]);
	roce_reg_close(look);
}

/* ---- another user (root only) ---- */

static void test_other_user(void)
{
	struct passwd *pw = getpwnam("nobody");
	char roce_dir[128], reg_path[160];
	uint32_t before_refused;
	int status = -1;
	pid_t pid;

	if (geteuid() != 0 || pw == NULL || wks[0].pid <= 0) {
		fprintf(stderr, "  SKIP other-user checks: %s\n",
			geteuid() != 0 ? "not root (cannot become another user)" : "no user 'nobody' or no worker");
		return;
	}
	CHECK(worker_report(&wks[0]));
	before_refused = (uint32_t)wks[0].rep.st.refused;
	/* Open the file system wide, so that what refuses is softdoca's check, not the modes. */
	snprintf(roce_dir, sizeof(roce_dir), "%s/roce", run_dir);
	snprintf(reg_path, sizeof(reg_path), "%s/%u.%u.%u.%u.reg", roce_dir, ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff);
	CHECK(chmod(run_dir, 0711) == 0 && chmod(roce_dir, 0711) == 0 && chmod(reg_path, 0666) == 0 &&
	      chmod(wks[0].h.sock, 0777) == 0);
	pid = fork();
	if (pid == 0) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT),
					 .sin_addr.s_addr = htonl(ip) };
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		struct roce_reg *r = NULL;
		const char *why = "";
		uint8_t msg[64] = { 0 };
		int one = 1, fd, fails = 0;

		if (setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
			_exit(100);
		/* the registry: the file is readable and writable by all, but not ours */
		if (roce_reg_open(run_dir, ip, true, &r, &why) != DOCA_ERROR_NOT_PERMITTED)
			fails |= 1;
		/* the UDP port group: the kernel keeps another user out */
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 || errno != EADDRINUSE)
			fails |= 2;
		close(fd);
		/* the forwarding channel: a forged datagram for the worker's first QP */
		fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		snprintf(un.sun_path, sizeof(un.sun_path), "%s", wks[0].h.sock);
		if (connect(fd, (struct sockaddr *)&un, sizeof(un)) != 0)
			fails |= 4;
		roce_put32(msg, 0x52464744u);
		roce_put32(msg + 4, wks[0].h.qpn[0]);
		(void)send(fd, msg, 16 + data_dgram(msg + 16, sizeof(msg) - 16, wks[0].h.qpn[0], 777), MSG_NOSIGNAL);
		_exit(fails);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		fprintf(stderr, "  other user's attempts that were not refused: mask %d\n", WEXITSTATUS(status));
	CHECK(chmod(run_dir, 0700) == 0 && chmod(roce_dir, 0700) == 0 && chmod(reg_path, 0600) == 0);
	CHECK(worker_report(&wks[0]));
	CHECK(wks[0].rep.st.refused == before_refused + 1);
	CHECK(wks[0].rep.got + wks[0].rep.cm == wks[0].expect && wks[0].rep.bad == 0); /* the forged one did not come in */
}

/* ---- what leaves the host (root only: a raw socket sees the IPv4 header) ---- */

static bool capture(int raw, uint16_t sport, uint16_t *id, uint16_t *frag)
{
	uint64_t end = now_ms() + TIMEOUT_MS;
	uint8_t pkt[2048];

	while (now_ms() < end) {
		struct pollfd pf = { .fd = raw, .events = POLLIN };
		ssize_t n;

		if (poll(&pf, 1, TIMEOUT_MS) <= 0)
			return false;
		n = recv(raw, pkt, sizeof(pkt), 0);
		/* The raw socket sees every UDP datagram of the host: keep only ours to the sink. */
		if (n < 28 || (pkt[0] & 0x0f) != 5 || roce_get32(pkt + 12) != ip || roce_get32(pkt + 16) != peer_ip ||
		    roce_get16(pkt + 20) != sport || roce_get16(pkt + 22) != ROCE_UDP_PORT)
			continue;
		*id = roce_get16(pkt + 4);
		*frag = roce_get16(pkt + 6);
		return true;
	}
	return false;
}

static void test_ip_header(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(peer_ip) };
	struct roce_port *p = NULL;
	const char *why = "";
	uint8_t buf[64];
	struct iovec iov = { buf, 0 }, batch[3];
	uint16_t id = 1, frag = 0;
	uint32_t qpn = 0;
	int raw, sink;

	if (geteuid() != 0) {
		fprintf(stderr, "  SKIP IPv4 header check: not root (needs a raw socket)\n");
		return;
	}
	raw = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_UDP);
	sink = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/* Bound to the sink's address: the raw socket then sees no other test's datagrams (which could fill it). */
	CHECK(raw >= 0 && sink >= 0 && bind(sink, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	      bind(raw, (struct sockaddr *)&(struct sockaddr_in){ .sin_family = AF_INET, .sin_addr = a.sin_addr },
		   sizeof(struct sockaddr_in)) == 0);
	CHECK(roce_port_open(run_dir, ip, 0, &p, &why) == DOCA_SUCCESS);
	if (p == NULL || raw < 0)
		return;
	CHECK(roce_port_qp_add(p, &qpn) == DOCA_SUCCESS);
	/* Connected for receiving; sending must still use the unconnected socket (ID 0). */
	CHECK(roce_port_qp_connect(p, qpn, peer_ip, roce_udp_sport(0x11)) == DOCA_SUCCESS);
	iov.iov_len = data_dgram(buf, sizeof(buf), 0x11, 1);
	for (int k = 0; k < 3; k++) {
		bool got;

		CHECK(roce_port_send(p, qpn, peer_ip, 0, &iov, 1) == DOCA_SUCCESS);
		got = capture(raw, roce_udp_sport(qpn), &id, &frag);
		CHECK(got && id == 0 && frag == 0x4000);
		if (!got || id != 0 || frag != 0x4000)
			fprintf(stderr, "  send %d: captured %d id 0x%04x frag 0x%04x\n", k, got, id, frag);
	}
	for (int k = 0; k < 3; k++)
		batch[k] = iov;
	CHECK(roce_port_send_batch(p, qpn, peer_ip, 0, batch, 3) == 0);
	for (int k = 0; k < 3; k++)
		CHECK(capture(raw, roce_udp_sport(qpn), &id, &frag) && id == 0 && frag == 0x4000);
	/* QP1 goes out of the shared socket, port 4791. */
	iov.iov_len = cm_dgram(buf, sizeof(buf), 0, 5);
	CHECK(roce_port_send(p, 1, peer_ip, 0, &iov, 1) == DOCA_SUCCESS);
	CHECK(capture(raw, ROCE_UDP_PORT, &id, &frag) && id == 0 && frag == 0x4000);
	/* Why: a connected socket, even with IP_PMTUDISC_DO, numbers its packets (from a random start). */
	{
		struct sockaddr_in me = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(ip) };
		socklen_t len = sizeof(me);
		int pmtu = IP_PMTUDISC_DO, fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		bool nonzero = false;

		CHECK(fd >= 0 && setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) == 0 &&
		      bind(fd, (struct sockaddr *)&me, sizeof(me)) == 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
		      getsockname(fd, (struct sockaddr *)&me, &len) == 0);
		for (int k = 0; k < 3; k++) {
			CHECK(send(fd, buf, iov.iov_len, 0) == (ssize_t)iov.iov_len);
			CHECK(capture(raw, ntohs(me.sin_port), &id, &frag) && frag == 0x4000);
			nonzero |= id != 0;
		}
		CHECK(nonzero);
		fprintf(stderr, "  a connected socket sent IPv4 ID 0x%04x (ours: 0, which the ICRC assumes)\n", id);
		close(fd);
	}
	/* Closing the port gives back its QPN, its owner id and its socket file. */
	{
		struct roce_reg *look = NULL;
		char sock[108];
		int self = roce_reg_self(roce_port_reg(p));
		uint32_t pip = 0;
		uint16_t pport = 0;

		CHECK(roce_port_qp_connected(p, qpn, &pip, &pport) && pip == peer_ip && pport == roce_udp_sport(0x11));
		CHECK(roce_reg_owner_path(roce_port_reg(p), self, sock, sizeof(sock)) && access(sock, F_OK) == 0);
		roce_port_close(p);
		CHECK(roce_reg_open(run_dir, ip, false, &look, &why) == DOCA_SUCCESS);
		if (look != NULL) {
			CHECK(roce_reg_qpn_owner(look, qpn) == 0 && roce_reg_owner_pid(look, self) == 0);
			roce_reg_close(look);
		}
		CHECK(access(sock, F_OK) != 0);
	}
	close(raw);
	close(sink);
}

/*
 * UDP GSO and GRO: four datagrams (three of one size, a shorter last) in one buffer leave as one
 * UDP_SEGMENT send and arrive as four datagrams at a plain socket; the same from a plain socket
 * with UDP_SEGMENT reach a QP socket with UDP_GRO as one receive, cut into its four datagrams in
 * order. Then once more with SOFTDOCA_ROCE_NO_GSO / NO_GRO: one by one, the same datagrams.
 */
static size_t gso_buffer(uint8_t *buf, uint32_t qpn, uint16_t *seg)
{
	struct roce_pkt pkt = { 0 };
	uint8_t pl[200];
	size_t off = 0;

	for (uint32_t k = 0; k < 4; k++) {
		memset(pl, (int)k + 1, sizeof(pl));
		roce_put32(pl, k);
		pkt.bth.opcode = ROCE_RC_SEND_ONLY;
		pkt.bth.pkey = ROCE_PKEY_DEFAULT;
		pkt.bth.dqpn = qpn;
		pkt.bth.psn = k;
		off += roce_pkt_build(buf + off, 512, &pkt, pl, k < 3 ? sizeof(pl) : 40);
		if (k == 0)
			*seg = (uint16_t)off;
	}
	return off;
}

/* The peer sends gso_buffer's four datagrams to qpn with UDP_SEGMENT; true if the QP got them in order. */
static bool gso_from_peer(struct roce_port *p, int src, uint32_t qpn, struct roce_port_msg *msgs)
{
	union {
		char b[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} c = { 0 };
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(ip) };
	uint8_t buf[2048];
	uint16_t seg = 0;
	size_t total = gso_buffer(buf, qpn, &seg);
	struct iovec iov = { buf, total };
	struct msghdr h = { .msg_name = &to, .msg_namelen = sizeof(to), .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = c.b, .msg_controllen = sizeof(c.b) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&h);
	unsigned n = 0;
	bool ok = true;

	cm->cmsg_level = SOL_UDP;
	cm->cmsg_type = 103; /* UDP_SEGMENT (linux/udp.h) */
	cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
	memcpy(CMSG_DATA(cm), &seg, sizeof(seg));
	if (sendmsg(src, &h, 0) != (ssize_t)total)
		return false;
	for (uint64_t end = now_ms() + 5000; n < 4 && now_ms() < end;) {
		unsigned k = roce_port_recv_qp(p, qpn, msgs, ROCE_PORT_GRO_SEGS); /* a receive needs them all free */

		for (unsigned i = 0; i < k; i++, n++) {
			size_t want = n < 3 ? seg : total - 3 * (size_t)seg;

			ok &= n < 4 && msgs[i].qpn == qpn && msgs[i].len == want &&
			      memcmp(msgs[i].buf, buf + (size_t)n * seg, want) == 0 && msgs[i].via == ROCE_PORT_VIA_QP;
		}
	}
	return ok && n == 4;
}

static void gso_gro_round(bool off)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(peer_ip) };
	struct roce_port_msg *msgs = calloc(2 * ROCE_PORT_GRO_SEGS, sizeof(*msgs));
	struct roce_port *p = NULL;
	struct roce_port_stats st;
	const char *why = "";
	uint8_t buf[2048], got[512];
	uint16_t seg = 0;
	uint32_t qpn = 0;
	unsigned n = 0;
	int sink = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), src = peer_socket();
	struct sockaddr_in me;
	socklen_t len = sizeof(me);
	struct iovec iov;
	size_t total;

	if (off) {
		setenv("SOFTDOCA_ROCE_NO_GSO", "1", 1);
		setenv("SOFTDOCA_ROCE_NO_GRO", "1", 1);
	}
	CHECK(msgs != NULL && sink >= 0 && bind(sink, (struct sockaddr *)&a, sizeof(a)) == 0);
	CHECK(getsockname(src, (struct sockaddr *)&me, &len) == 0);
	CHECK(setsockopt(sink, SOL_SOCKET, SO_RCVTIMEO, &(struct timeval){ .tv_sec = 5 }, sizeof(struct timeval)) == 0);
	CHECK(roce_port_open(run_dir, ip, 0, &p, &why) == DOCA_SUCCESS);
	if (p != NULL && msgs != NULL) {
		roce_port_use_gro(p);
		CHECK(roce_port_qp_add(p, &qpn) == DOCA_SUCCESS);
		CHECK(roce_port_qp_connect(p, qpn, peer_ip, ntohs(me.sin_port)) == DOCA_SUCCESS);
	}
	unsetenv("SOFTDOCA_ROCE_NO_GSO");
	unsetenv("SOFTDOCA_ROCE_NO_GRO");
	if (p == NULL || msgs == NULL)
		goto out;
	/* sending */
	total = gso_buffer(buf, 0x22, &seg);
	iov = (struct iovec){ buf, total };
	CHECK(roce_port_send_gso(p, qpn, peer_ip, 0, &(struct roce_port_run){ &iov, 1, seg }, 1) == 0);
	for (size_t k = 0, o = 0; k < 4; k++) {
		size_t want = k < 3 ? seg : total - 3 * (size_t)seg;
		ssize_t r = recv(sink, got, sizeof(got), 0);

		CHECK(r == (ssize_t)want && memcmp(got, buf + o, want) == 0);
		o += want;
	}
	/* the same run in pieces, as a path sends payloads from where they lie: 1 and 2 have their
	 * payloads apart (copies elsewhere); the pieces between them cross datagram boundaries */
	{
		uint8_t apart[2][200];
		struct iovec pieces[8];
		unsigned np = 0;

		pieces[np++] = (struct iovec){ buf, seg + ROCE_BTH_LEN };
		for (unsigned k = 1; k < 3; k++) {
			uint8_t *d = buf + (size_t)k * seg;

			memcpy(apart[k - 1], d + ROCE_BTH_LEN, sizeof(apart[0]));
			pieces[np++] = (struct iovec){ apart[k - 1], sizeof(apart[0]) };
			pieces[np++] = (struct iovec){ d + ROCE_BTH_LEN + sizeof(apart[0]), seg - ROCE_BTH_LEN - sizeof(apart[0]) + (k == 1 ? ROCE_BTH_LEN : 0) };
		}
		pieces[np++] = (struct iovec){ buf + 3 * (size_t)seg, total - 3 * (size_t)seg };
		CHECK(roce_port_send_gso(p, qpn, peer_ip, 0, &(struct roce_port_run){ pieces, np, seg }, 1) == 0);
	}
	for (size_t k = 0, o = 0; k < 4; k++) {
		size_t want = k < 3 ? seg : total - 3 * (size_t)seg;
		ssize_t r = recv(sink, got, sizeof(got), 0);

		CHECK(r == (ssize_t)want && memcmp(got, buf + o, want) == 0);
		o += want;
	}
	/* receiving: a stream of 8, a GSO burst (one receive); 64 lone ones, a burst (one receive still:
	 * UDP_GRO stays on, for a ping-pong's reply and ACK) */
	n = 0;
	for (uint32_t k = 0; k < 8; k++)
		send_data(src, qpn, 100 + k);
	for (uint64_t end = now_ms() + 5000; n < 8 && now_ms() < end;)
		n += roce_port_recv_qp(p, qpn, msgs, ROCE_PORT_GRO_SEGS);
	CHECK(n == 8);
	CHECK(gso_from_peer(p, src, qpn, msgs));
	roce_port_get_stats(p, &st);
	CHECK(st.rx_gro == (off ? 0 : 1));
	for (uint32_t k = 0; k < 64; k++) {
		unsigned got1 = 0;

		send_data(src, qpn, 200 + k);
		for (uint64_t end = now_ms() + 5000; got1 == 0 && now_ms() < end;)
			got1 = roce_port_recv_qp(p, qpn, msgs, ROCE_PORT_GRO_SEGS);
		CHECK(got1 == 1);
	}
	CHECK(gso_from_peer(p, src, qpn, msgs)); /* (cut by the kernel with GRO off) */
	n = 4;
	roce_port_get_stats(p, &st);
	CHECK(st.tx == 8 && st.tx_gso == (off ? 0 : 2) && st.rx_qp == 8 + 4 + 64 + 4 && st.rx_gro == (off ? 0 : 2));
	fprintf(stderr, "  %s: tx %llu in %llu GSO sends, rx %llu in %llu coalesced receives\n",
		off ? "GSO and GRO off" : "GSO and GRO", (unsigned long long)st.tx, (unsigned long long)st.tx_gso,
		(unsigned long long)st.rx_qp, (unsigned long long)st.rx_gro);
	/* a sender that does not coalesce (rxe), 40 datagrams queued at a time: after 16 such reads
	 * UDP_GRO goes off (it would take two datagrams a system call); the next GSO burst is cut by
	 * the kernel, and read all the same */
	for (uint32_t b = 0; b < 17; b++) {
		unsigned got40 = 0;

		for (uint32_t k = 0; k < 40; k++)
			send_data(src, qpn, 300 + 40 * b + k);
		for (uint64_t end = now_ms() + 5000; got40 < 40 && now_ms() < end;)
			got40 += roce_port_recv_qp(p, qpn, msgs, 2 * ROCE_PORT_GRO_SEGS);
		CHECK(got40 == 40);
	}
	CHECK(gso_from_peer(p, src, qpn, msgs));
	roce_port_get_stats(p, &st);
	CHECK(st.rx_qp == 8 + 4 + 64 + 4 + 680 + 4 && st.rx_gro == (off ? 0 : 2));
out:
	roce_port_close(p);
	free(msgs);
	close(sink);
	close(src);
}

static void test_gso_gro(void)
{
	gso_gro_round(false);
	gso_gro_round(true);
}

/*
 * A hostile sender's burst past ROCE_PORT_GRO_SEGS: a local UDP_SEGMENT send may carry 128
 * datagrams (Linux 6.10 and later), which reach a QP socket with UDP_GRO as one receive. The
 * first ROCE_PORT_GRO_SEGS are kept in order, the rest dropped and counted, and nothing is
 * written past the msgs offered (exactly that many here, on the heap: ASan sees any overrun).
 * Two bursts with room for two receives: still no more than the room.
 */
static unsigned burst_send(int src, uint32_t qpn, unsigned n, uint32_t psn0)
{
	union {
		char b[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} c = { 0 };
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(ip) };
	static uint8_t buf[128 * 64];
	struct roce_pkt pkt = { 0 };
	uint8_t pl[16] = { 0 };
	uint16_t seg = 0;
	size_t off = 0;
	struct iovec iov;
	struct msghdr h = { .msg_name = &to, .msg_namelen = sizeof(to), .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = c.b, .msg_controllen = sizeof(c.b) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&h);

	for (unsigned k = 0; k < n && k < 128; k++) {
		pkt.bth.opcode = ROCE_RC_SEND_ONLY;
		pkt.bth.pkey = ROCE_PKEY_DEFAULT;
		pkt.bth.dqpn = qpn;
		pkt.bth.psn = psn0 + k;
		off += roce_pkt_build(buf + off, 64, &pkt, pl, sizeof(pl));
		if (k == 0)
			seg = (uint16_t)off;
	}
	iov = (struct iovec){ buf, off };
	cm->cmsg_level = SOL_UDP;
	cm->cmsg_type = 103; /* UDP_SEGMENT (linux/udp.h) */
	cm->cmsg_len = CMSG_LEN(sizeof(uint16_t));
	memcpy(CMSG_DATA(cm), &seg, sizeof(seg));
	return sendmsg(src, &h, 0) == (ssize_t)off ? n : 0;
}

static void test_gro_burst_cap(void)
{
	struct sockaddr_in me;
	socklen_t len = sizeof(me);
	struct roce_port *p = NULL;
	struct roce_port_stats st;
	const char *why = "";
	uint32_t qpn = 0;
	int src = peer_socket();
	unsigned burst = 128, got = 0;
	bool order = true;

	CHECK(getsockname(src, (struct sockaddr *)&me, &len) == 0);
	CHECK(roce_port_open(run_dir, ip, 0, &p, &why) == DOCA_SUCCESS);
	if (p == NULL)
		goto out;
	roce_port_use_gro(p);
	CHECK(roce_port_qp_add(p, &qpn) == DOCA_SUCCESS);
	CHECK(roce_port_qp_connect(p, qpn, peer_ip, ntohs(me.sin_port)) == DOCA_SUCCESS);
	if (burst_send(src, qpn, burst, 0) == 0) {
		burst = 64; /* a kernel before 6.10 (UDP_MAX_SEGMENTS 64): no more in one send */
		fprintf(stderr, "  this kernel refuses 128 segments in one UDP_SEGMENT send: 64\n");
		CHECK(burst_send(src, qpn, burst, 0) == burst);
	}
	for (int round = 0; round < 2 && test_failures == 0; round++) {
		const unsigned room = (unsigned)(round + 1) * ROCE_PORT_GRO_SEGS;
		struct roce_port_msg *msgs = calloc(room, sizeof(*msgs));
		unsigned want = (unsigned)(round + 1) * (burst < ROCE_PORT_GRO_SEGS ? burst : ROCE_PORT_GRO_SEGS);

		CHECK(msgs != NULL);
		if (msgs == NULL)
			break;
		if (round == 1) /* two bursts queued, room for two receives */
			CHECK(burst_send(src, qpn, burst, 1000) == burst && burst_send(src, qpn, burst, 2000) == burst);
		got = 0;
		for (uint64_t end = now_ms() + 5000; got < want && now_ms() < end;) {
			unsigned k = roce_port_recv_qp(p, qpn, msgs, room);

			CHECK(k <= room);
			for (unsigned i = 0; i < k && i < room; i++) {
				/* each burst's first ROCE_PORT_GRO_SEGS, in order */
				uint32_t psn = roce_get32(msgs[i].buf + 8) & 0xffffffu;
				uint32_t base = round == 0 ? 0 : (got + i) < ROCE_PORT_GRO_SEGS ? 1000 : 2000;

				order &= msgs[i].qpn == qpn && psn == base + (got + i) % ROCE_PORT_GRO_SEGS;
			}
			got += k;
		}
		fprintf(stderr, "  round %d: %u datagrams of %u sent, in order: %s\n", round, got,
			(unsigned)(round + 1) * burst, order ? "yes" : "no");
		CHECK(got == want && order);
		free(msgs);
	}
	roce_port_get_stats(p, &st);
	CHECK(st.drop_malformed == 3 * (burst - (burst < ROCE_PORT_GRO_SEGS ? burst : ROCE_PORT_GRO_SEGS)));
out:
	roce_port_close(p);
	close(src);
}

/* ---- out of descriptors: the forwarding listener pauses instead of waking us in a loop ---- */

static int epoll_ready(int ep)
{
	struct epoll_event ev[4];

	return epoll_wait(ep, ev, 4, 0);
}

/*
 * Another process of ours connects to the port's forwarding listener while we have no descriptor
 * left: accept fails (EMFILE), and the listener, readable as long as the connection waits, leaves
 * the port's epoll set for 100 ms (roce_port_next_time says when); the timer then puts it back
 * and, descriptors free again, the connection is taken.
 */
static void test_listener_emfile(void)
{
	const uint32_t ip = 0x7f00006e;
	struct roce_port *p = NULL;
	struct roce_port_msg *msgs = calloc(8, sizeof(*msgs));
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	struct rlimit old, low;
	const char *why = "";
	int c = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), spare[512], nspare = 0;
	uint64_t t0, next;

	CHECK(msgs != NULL && c >= 0 && getrlimit(RLIMIT_NOFILE, &old) == 0);
	CHECK(roce_port_open(run_dir, ip, 0, &p, &why) == DOCA_SUCCESS);
	if (p == NULL || msgs == NULL || c < 0)
		goto out;
	CHECK(roce_reg_owner_path(roce_port_reg(p), roce_reg_self(roce_port_reg(p)), un.sun_path, sizeof(un.sun_path)));
	CHECK(epoll_ready(roce_port_fd(p)) == 0);
	/* no descriptor left below a lowered limit */
	low = old;
	low.rlim_cur = (rlim_t)test_fd_count() + 64 < old.rlim_cur ? (rlim_t)test_fd_count() + 64 : old.rlim_cur;
	CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
	while (nspare < 512 && (spare[nspare] = dup(0)) >= 0)
		nspare++;
	CHECK(nspare < 512 && errno == EMFILE);
	CHECK(connect(c, (struct sockaddr *)&un, sizeof(un)) == 0); /* (a connect takes no descriptor of ours) */
	CHECK(epoll_ready(roce_port_fd(p)) == 1);
	t0 = now_ms();
	CHECK(!roce_port_take_pause(p));
	(void)roce_port_recv(p, msgs, 8); /* accept: EMFILE */
	CHECK(epoll_ready(roce_port_fd(p)) == 0); /* paused, though the connection waits */
	CHECK(roce_port_take_pause(p));  /* once: the drainer tells the service thread */
	CHECK(!roce_port_take_pause(p));
	(void)roce_port_recv(p, msgs, 8);
	CHECK(!roce_port_take_pause(p)); /* nothing new: it stays paused */
	next = roce_port_next_time(p);
	CHECK(next != UINT64_MAX && next >= t0 + 50 && next <= now_ms() + 150);
	roce_port_timer(p, next - 1);
	CHECK(epoll_ready(roce_port_fd(p)) == 0); /* not yet */
	while (nspare > 0)
		close(spare[--nspare]);
	CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
	roce_port_timer(p, next);
	CHECK(roce_port_next_time(p) == UINT64_MAX);
	CHECK(epoll_ready(roce_port_fd(p)) == 1); /* back, and the connection still waits */
	(void)roce_port_recv(p, msgs, 8);           /* taken now */
	CHECK(epoll_ready(roce_port_fd(p)) == 0);
out:
	while (nspare > 0)
		close(spare[--nspare]);
	(void)setrlimit(RLIMIT_NOFILE, &old);
	if (c >= 0)
		close(c);
	roce_port_close(p);
	free(msgs);
}

/* ---- a dead owner's RDMA-CM connections ---- */

/* One CM MAD from the port at ip to sock (ICRC valid for IPv4 ID 0 and its ports); false: none in time. */
static bool dead_recv(int fd, struct roce_mad_hdr *hdr, uint8_t *mad, int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;

	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		struct sockaddr_in from, me;
		socklen_t fl = sizeof(from), ml = sizeof(me);
		struct roce_ip4 v4 = { .src = ip, .dst = peer_ip, .id = 0, .frag = ROCE_IP4_DF };
		struct roce_pkt pkt;
		uint8_t d[512];
		uint64_t t = now_ms();
		ssize_t n;

		if (poll(&pf, 1, t >= end ? 0 : (int)(end - t)) <= 0)
			return false;
		n = recvfrom(fd, d, sizeof(d), 0, (struct sockaddr *)&from, &fl);
		CHECK(n > 0 && getsockname(fd, (struct sockaddr *)&me, &ml) == 0);
		if (n <= 0)
			return false;
		CHECK(ntohl(from.sin_addr.s_addr) == ip && ntohs(from.sin_port) == ROCE_UDP_PORT);
		CHECK(roce_icrc_ip4(&v4, ROCE_UDP_PORT, ntohs(me.sin_port), d, (size_t)n) == roce_icrc_load(d, (size_t)n));
		CHECK(roce_pkt_parse(d, (size_t)n, &pkt) == ROCE_PARSE_OK && pkt.bth.opcode == ROCE_UD_SEND_ONLY &&
		      pkt.bth.dqpn == 1 && pkt.deth.sqpn == 1 && pkt.deth.qkey == ROCE_QP1_QKEY);
		CHECK(roce_cm_mad_check(pkt.payload, pkt.payload_len, hdr));
		memcpy(mad, pkt.payload, ROCE_MAD_LEN);
		return true;
	}
}

/* The owner child: hands its comm IDs and verdict to the test, then waits to be killed. */
static _Noreturn void owner_report(int fd, const uint32_t *ids, size_t len, bool ok)
{
	write_full(fd, ids, len);
	write_full(fd, &ok, sizeof(ok));
	for (;;) /* until killed */
		pause();
}

/* The test: takes the owner's report (bounded), then kills it (SIGKILL) and reaps it. */
static void owner_take_and_kill(int fd, pid_t pid, uint32_t *ids, size_t len)
{
	bool ok = false;
	int status = 0;

	CHECK(read_full(fd, ids, len, TIMEOUT_MS) && read_full(fd, &ok, sizeof(ok), TIMEOUT_MS));
	CHECK(ok);
	close(fd);
	kill(pid, SIGKILL);
	CHECK(waitpid(pid, &status, 0) == pid);
}

/*
 * A worker notes four connections in the registry (established, being set up, its DREQ sent,
 * and one it then forgets) and is killed; garbage is written into the connection table, as a
 * process of the user could. The next process to join reclaims the worker and ends its three
 * connections on the wire to the peer (DREQ, REJ with the REQ's TID, the same DREQ again), and
 * a forged entry that makes sense too; every other forged entry is dropped unsent, counted.
 */
static void test_dead_conns(void)
{
	struct roce_port *p = NULL;
	struct roce_port_stats st;
	struct roce_mad_hdr hdr;
	uint8_t mad[ROCE_MAD_LEN];
	struct sockaddr_in me;
	socklen_t ml = sizeof(me);
	uint32_t ids[4] = { 0 }, base;
	const char *why = "";
	char path[PATH_MAX];
	int peer = peer_socket(), res[2], fd, seen_dreq = 0, seen_rej = 0, seen_again = 0, seen_forged = 0;
	uint64_t state = 0x9e3779b97f4a7c15ull;
	uint16_t pport;
	pid_t pid;
	uint8_t *map;

	CHECK(getsockname(peer, (struct sockaddr *)&me, &ml) == 0);
	pport = ntohs(me.sin_port);
	CHECK(pipe(res) == 0);
	pid = fork();
	if (pid == 0) {
		struct roce_reg_conn c = { .remote_id = 0x0c0ffee0, .peer_qpn = 0x11, .peer_ip = peer_ip,
					   .peer_port = pport };
		bool ok;

		close(res[0]);
		if (roce_port_open(run_dir, ip, 0, &p, &why) != DOCA_SUCCESS)
			_exit(1);
		for (int i = 0; i < 4; i++)
			ids[i] = roce_port_comm_id(p, 100u + (unsigned)i);
		c.local_id = ids[0];
		c.state = ROCE_REG_CONN_UP;
		ok = roce_port_conn_note(p, &c) == DOCA_SUCCESS;
		c.local_id = ids[1];
		c.state = ROCE_REG_CONN_SETUP;
		c.remote_id = 0x0c0ffee1;
		c.tid = 0x0000000a0c0ffee1ull;
		ok = ok && roce_port_conn_note(p, &c) == DOCA_SUCCESS;
		c.local_id = ids[2];
		c.state = ROCE_REG_CONN_UP;
		c.remote_id = 0x0c0ffee2;
		c.tid = 0;
		ok = ok && roce_port_conn_note(p, &c) == DOCA_SUCCESS;
		c.state = ROCE_REG_CONN_DREQ; /* the same connection, its DREQ now sent */
		c.tid = 0x1234567800000000ull | ids[2];
		ok = ok && roce_port_conn_note(p, &c) == DOCA_SUCCESS;
		c.local_id = ids[3];
		c.state = ROCE_REG_CONN_UP;
		c.remote_id = 0x0c0ffee3;
		ok = ok && roce_port_conn_note(p, &c) == DOCA_SUCCESS;
		roce_port_conn_forget(p, ids[3]); /* ended cleanly */
		c.local_id = roce_port_comm_id(p, 200); /* not ours to note: another owner's comm ID */
		c.local_id ^= 1u << ROCE_REG_COMM_SHIFT;
		ok = ok && roce_port_conn_note(p, &c) == DOCA_ERROR_INVALID_VALUE;
		owner_report(res[1], ids, sizeof(ids), ok);
	}
	close(res[1]);
	owner_take_and_kill(res[0], pid, ids, sizeof(ids));

	/* the garbage: from the end of the table back, so the worker's entries (at its start) stay */
	snprintf(path, sizeof(path), "%s/roce/%u.%u.%u.%u.reg", run_dir, ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff,
		 ip & 0xff);
	fd = open(path, O_RDWR);
	CHECK(fd >= 0);
	map = mmap(NULL, roce_reg_conns_offset() + ROCE_REG_CONNS * roce_reg_conn_size(), PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	CHECK(map != MAP_FAILED);
	base = ROCE_REG_CONNS - 64;
	for (uint32_t i = base; i < ROCE_REG_CONNS; i++) {
		uint64_t w[4];

		for (int j = 0; j < 4; j++) { /* xorshift: the same garbage every run */
			state ^= state << 13;
			state ^= state >> 7;
			state ^= state << 17;
			w[j] = state;
		}
		switch (i % 4) {
		case 0: /* orphan, owner id out of range */
			w[0] = (w[0] | 1ull << 63) | 0x7c00ull << 48;
			break;
		case 1: /* orphan of owner 5 whose comm ID names another owner */
			w[0] = 1ull << 63 | 5ull << 48 | 2ull << 40 | (6u << ROCE_REG_COMM_SHIFT | 7u);
			w[1] = (uint64_t)0x1234 << 32 | peer_ip;
			w[2] = (uint64_t)0x22 << 32 | pport;
			break;
		case 2: /* orphan toward a multicast address, or with state 9 */
			w[0] = 1ull << 63 | 5ull << 48 | (i & 8 ? 9ull : 2ull) << 40 | (5u << ROCE_REG_COMM_SHIFT | 7u);
			w[1] = (uint64_t)0x1234 << 32 | 0xe0000001u;
			w[2] = (uint64_t)0x22 << 32 | pport;
			break;
		default: /* not an orphan: an owner id nobody holds; left alone */
			w[0] = (w[0] & ~(1ull << 63) & ~(0x7fffull << 48)) | 900ull << 48;
			break;
		}
		memcpy(map + roce_reg_conns_offset() + i * roce_reg_conn_size(), w, sizeof(w));
	}
	{
		/* a forged entry that makes sense: sent like any (the registry trusts this user, no one else) */
		uint64_t w[4] = { 1ull << 63 | 9ull << 48 | 2ull << 40 | (9u << ROCE_REG_COMM_SHIFT | 1u),
				  (uint64_t)0x0f0f0f0f << 32 | peer_ip, (uint64_t)0x33 << 32 | pport, 0 };

		memcpy(map + roce_reg_conns_offset() + (base - 1) * roce_reg_conn_size(), w, sizeof(w));
	}
	__atomic_fetch_add((uint32_t *)(map + 12), 1, __ATOMIC_RELEASE); /* the header's hint; any value */
	munmap(map, roce_reg_conns_offset() + ROCE_REG_CONNS * roce_reg_conn_size());
	close(fd);

	/* joining reclaims the killed worker: its connections are ended on the wire at once */
	CHECK(roce_port_open(run_dir, ip, 0, &p, &why) == DOCA_SUCCESS);
	if (p == NULL) {
		close(peer);
		return;
	}
	for (int n = 0; n < 4; n++) {
		if (!dead_recv(peer, &hdr, mad, TIMEOUT_MS)) {
			CHECK(!"a CM message for the dead worker");
			break;
		}
		if (hdr.attr_id == ROCE_CM_DREQ) {
			struct roce_cm_dreq d;

			roce_cm_dreq_get(mad, &d);
			if (d.local_comm_id == ids[0]) {
				CHECK(d.remote_comm_id == 0x0c0ffee0 && d.remote_qpn == 0x11 && (uint32_t)hdr.tid == ids[0]);
				seen_dreq++;
			} else if (d.local_comm_id == ids[2]) {
				CHECK(d.remote_comm_id == 0x0c0ffee2 && hdr.tid == (0x1234567800000000ull | ids[2]));
				seen_again++;
			} else {
				CHECK(d.local_comm_id == (9u << ROCE_REG_COMM_SHIFT | 1u) && d.remote_comm_id == 0x0f0f0f0f &&
				      d.remote_qpn == 0x33);
				seen_forged++;
			}
		} else {
			struct roce_cm_rej r;

			CHECK(hdr.attr_id == ROCE_CM_REJ);
			roce_cm_rej_get(mad, &r);
			CHECK(r.local_comm_id == ids[1] && r.remote_comm_id == 0x0c0ffee1 && hdr.tid == 0x0000000a0c0ffee1ull &&
			      r.reason == ROCE_CM_REJ_CONSUMER && r.msg_rejected == ROCE_CM_MSG_REQ);
			seen_rej++;
		}
	}
	CHECK(seen_dreq == 1 && seen_rej == 1 && seen_again == 1 && seen_forged == 1);
	CHECK(!dead_recv(peer, &hdr, mad, 200)); /* nothing for the forgotten one or the garbage */
	roce_port_get_stats(p, &st);
	CHECK(st.dreq_for_dead == 3 && st.rej_for_dead == 1 && st.dead_conn_bad == 48);
	if (st.dead_conn_bad != 48)
		fprintf(stderr, "dreq_for_dead %llu rej_for_dead %llu dead_conn_bad %llu\n",
			(unsigned long long)st.dreq_for_dead, (unsigned long long)st.rej_for_dead,
			(unsigned long long)st.dead_conn_bad);
	/* once: a second process finds nothing left */
	{
		struct roce_port *q = NULL;

		CHECK(roce_port_open(run_dir, ip, 0, &q, &why) == DOCA_SUCCESS);
		if (q != NULL) {
			roce_port_get_stats(q, &st);
			CHECK(st.dreq_for_dead == 0 && st.rej_for_dead == 0 && st.dead_conn_bad == 0);
			roce_port_close(q);
		}
	}
	roce_port_close(p);
	close(peer);
}

/* A CM message from the peer socket to QP1 at the port: DREQ, REP (from QPN qpn) or DREP (RTU layout) naming our_id. */
static void peer_cm(int fd, uint16_t attr, uint64_t tid, uint32_t peer_id, uint32_t our_id, uint32_t qpn)
{
	uint8_t mad[ROCE_MAD_LEN], buf[400];
	struct roce_pkt pkt = { 0 };

	if (attr == ROCE_CM_REP) {
		struct roce_cm_rep r = { .local_comm_id = peer_id, .remote_comm_id = our_id, .local_qpn = qpn };

		roce_cm_rep_put(mad, tid, &r);
	} else if (attr == ROCE_CM_DREQ) {
		struct roce_cm_dreq d = { .local_comm_id = peer_id, .remote_comm_id = our_id, .remote_qpn = qpn };

		roce_cm_dreq_put(mad, tid, &d);
	} else {
		struct roce_cm_rtu r = { .local_comm_id = peer_id, .remote_comm_id = our_id };

		roce_cm_rtu_put(mad, attr, tid, &r);
	}
	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	peer_send(fd, buf, roce_pkt_build(buf, sizeof(buf), &pkt, mad, sizeof(mad)));
}

/* Drains p (nothing is ours) until a CM message reaches the peer socket, TIMEOUT_MS at most. */
static bool dead_drain_recv(struct roce_port *p, struct roce_port_msg *msgs, int peer, struct roce_mad_hdr *hdr,
			    uint8_t *mad)
{
	uint64_t end = now_ms() + TIMEOUT_MS;

	while (now_ms() < end) {
		struct pollfd pf = { .fd = roce_port_fd(p), .events = POLLIN };

		if (dead_recv(peer, hdr, mad, 0))
			return true;
		if (poll(&pf, 1, 10) > 0)
			CHECK(roce_port_recv(p, msgs, 16) == 0);
	}
	return false;
}

/*
 * A process already on the address gets the peer's DREQ for a killed worker's connection: the
 * failed forward reclaims the worker, and that connection is answered with a DREP (the DREQ's
 * TID) instead of being sent a DREQ of its own; the worker's other connection gets its DREQ. A
 * resend of the peer's DREQ still gets a DREP; its DREP to our DREQ is answered by nothing. The
 * worker's REQ that was out gets nothing then, but the peer's REP to it later gets REJ "timeout".
 */
static void test_dead_trigger(void)
{
	struct roce_port *p = NULL;
	struct roce_port_msg *msgs = calloc(16, sizeof(*msgs));
	struct roce_port_stats st;
	struct roce_mad_hdr hdr;
	uint8_t mad[ROCE_MAD_LEN];
	struct sockaddr_in me;
	socklen_t ml = sizeof(me);
	uint32_t ids[3] = { 0 };
	const char *why = "";
	int peer = peer_socket(), res[2], drep = 0, dreq = 0;
	struct roce_cm_rej rej;
	uint64_t dreq_tid = 0;
	uint16_t pport;
	pid_t pid;

	CHECK(msgs != NULL && roce_port_open(run_dir, ip, 0, &p, &why) == DOCA_SUCCESS);
	if (msgs == NULL || p == NULL) {
		free(msgs);
		close(peer);
		return;
	}
	CHECK(getsockname(peer, (struct sockaddr *)&me, &ml) == 0);
	pport = ntohs(me.sin_port);
	CHECK(pipe(res) == 0);
	pid = fork();
	if (pid == 0) {
		struct roce_port *w = NULL;
		struct roce_reg_conn c = { .state = ROCE_REG_CONN_UP, .peer_qpn = 0x11, .peer_ip = peer_ip, .peer_port = pport };
		bool ok;

		close(res[0]);
		if (roce_port_open(run_dir, ip, 0, &w, &why) != DOCA_SUCCESS)
			_exit(1);
		ids[0] = c.local_id = roce_port_comm_id(w, 300);
		c.remote_id = 0x0a0a0a00;
		ok = roce_port_conn_note(w, &c) == DOCA_SUCCESS;
		ids[1] = c.local_id = roce_port_comm_id(w, 301);
		c.remote_id = 0x0a0a0a01;
		ok = ok && roce_port_conn_note(w, &c) == DOCA_SUCCESS;
		/* a REQ of ours out: the peer's comm ID and QPN not known yet */
		c = (struct roce_reg_conn){ .state = ROCE_REG_CONN_REQ, .peer_ip = peer_ip, .peer_port = pport };
		ids[2] = c.local_id = roce_port_comm_id(w, 302);
		c.tid = 0x0000000c00000000ull | ids[2];
		ok = ok && roce_port_conn_note(w, &c) == DOCA_SUCCESS;
		owner_report(res[1], ids, sizeof(ids), ok);
	}
	close(res[1]);
	owner_take_and_kill(res[0], pid, ids, sizeof(ids));

	peer_cm(peer, ROCE_CM_DREQ, 0x77, 0x0a0a0a00, ids[0], 0x5);
	for (int n = 0; n < 2; n++) {
		if (!dead_drain_recv(p, msgs, peer, &hdr, mad)) {
			CHECK(!"the dead worker's answer");
			break;
		}
		if (hdr.attr_id == ROCE_CM_DREP) {
			struct roce_cm_rtu r;

			roce_cm_rtu_get(mad, &r);
			CHECK(hdr.tid == 0x77 && r.local_comm_id == ids[0] && r.remote_comm_id == 0x0a0a0a00);
			drep++;
		} else {
			struct roce_cm_dreq d;

			CHECK(hdr.attr_id == ROCE_CM_DREQ);
			roce_cm_dreq_get(mad, &d);
			CHECK(d.local_comm_id == ids[1] && d.remote_comm_id == 0x0a0a0a01 && d.remote_qpn == 0x11);
			dreq_tid = hdr.tid;
			dreq++;
		}
	}
	CHECK(drep == 1 && dreq == 1);
	/* the peer's DREQ again: the DREP again; its DREP to our DREQ: nothing */
	peer_cm(peer, ROCE_CM_DREQ, 0x78, 0x0a0a0a00, ids[0], 0x5);
	CHECK(dead_drain_recv(p, msgs, peer, &hdr, mad) && hdr.attr_id == ROCE_CM_DREP && hdr.tid == 0x78);
	peer_cm(peer, ROCE_CM_DREP, dreq_tid, 0x0a0a0a01, ids[1], 0);
	{
		uint64_t end = now_ms() + 200;

		while (now_ms() < end) {
			struct pollfd pf = { .fd = roce_port_fd(p), .events = POLLIN };

			if (poll(&pf, 1, 10) > 0)
				CHECK(roce_port_recv(p, msgs, 16) == 0);
		}
		CHECK(!dead_recv(peer, &hdr, mad, 0));
	}
	/* the peer's REP to the worker's REQ (its TID): REJ "timeout" of the REP, our CA GUID in the ARI */
	peer_cm(peer, ROCE_CM_REP, 0x0000000c00000000ull | ids[2], 0x0a0a0a02, ids[2], 0x6);
	CHECK(dead_drain_recv(p, msgs, peer, &hdr, mad) && hdr.attr_id == ROCE_CM_REJ &&
	      hdr.tid == (0x0000000c00000000ull | ids[2]));
	roce_cm_rej_get(mad, &rej);
	CHECK(rej.local_comm_id == ids[2] && rej.remote_comm_id == 0x0a0a0a02 && rej.msg_rejected == ROCE_CM_MSG_REP &&
	      rej.reason == ROCE_CM_REJ_TIMEOUT && rej.ari_len == 8 && roce_get64(rej.ari) == roce_ca_guid(ip));
	roce_port_get_stats(p, &st);
	CHECK(st.reclaimed == 1 && st.drop_dead == 1 && st.drop_no_owner == 3);
	CHECK(st.dreq_for_dead == 3 && st.rej_for_dead == 1 && st.dead_conn_bad == 0);
	roce_port_close(p);
	free(msgs);
	close(peer);
}

static void cleanup_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", run_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", run_dir);
}

int main(void)
{
	struct roce_port *probe = NULL;
	const char *why = "";
	doca_error_t err;

	signal(SIGPIPE, SIG_IGN);
	snprintf(run_dir, sizeof(run_dir), "/tmp/roceport.XXXXXX");
	if (mkdtemp(run_dir) == NULL)
		return 1;
	/* An address of our own in 127/8: concurrent runs (and other tests) do not share the port. */
	ip = 0x7f000000u | (64u + ((unsigned)getpid() >> 8) % 128u) << 16 | ((unsigned)getpid() & 0xffu) << 8 | 16u;
	peer_ip = ip + 1;
	err = roce_port_open(run_dir, ip, 0, &probe, &why);
	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "SKIP: cannot open UDP port 4791 on 127.x (error %d: %s)\n", (int)err, why);
		cleanup_dir();
		TEST_SKIP();
	}
	roce_port_close(probe);
	TEST_RUN(test_registry);
	TEST_RUN(test_share);
	TEST_RUN(test_other_user);
	worker_stop(&wks[0]);
	TEST_RUN(test_ip_header);
	TEST_RUN(test_gso_gro);
	TEST_RUN(test_gro_burst_cap);
	TEST_RUN(test_listener_emfile);
	TEST_RUN(test_dead_conns);
	TEST_RUN(test_dead_trigger);
	cleanup_dir();
	TEST_EXIT();
}
