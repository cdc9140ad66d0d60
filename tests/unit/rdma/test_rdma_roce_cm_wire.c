/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A DOCA RDMA-CM server on a rocev2 card (127.77.2.1, rocev2.conf) answering CM MADs written by
 * hand, as Linux rdma_cm over rxe sends them (the REQ measured from Linux 6.1: service ID of the
 * port, path MTU 1024, retry 7, RNR retry 7, responder resources / initiator depth 128, the IP
 * addressing header in the private data), from a plain UDP socket on 127.77.3.1:4791 (a stream
 * card's address: no soft NIC holds that port). Checked on the wire: the REP (its TID, comm IDs,
 * QPN, the accept's private data, valid ICRC), established only on our RTU, the client's address
 * and RDMA-CM port seen by the server, DREQ -> DREP and the disconnection callback, a REQ for a
 * port nobody listens on -> REJ 8, and a MAD of another class answered by nothing while the next
 * REQ is still served. test_mra: a duplicate REQ before the application answered gets an MRA;
 * then, the RTU lost, the client's first SEND establishes the connection (COMM_EST).
 * test_doca_client: a DOCA client (127.77.1.1) against a hand-played server: its REQ's fields,
 * the same REQ again when unanswered, REP -> RTU and established, its disconnect's DREQ.
 * Both: the RC QP answers from the UDP port rxe derives from the REQ's flow label (check_rc_port).
 * test_dreq_before_ack: rxe's DREQ ahead of the ACK of our SEND: the SEND still succeeds.
 * test_doca_client_mtu: doca_rdma_set_mtu caps the REQ's path MTU and the RC packets' size.
 * test_forged_source: RC packets naming the connection's QPN from another address are dropped.
 * test_forged_ids: CM replies from the peer's address that name another sender's comm ID are dropped.
 * test_mra_once: an MRA every 300 ms puts a DOCA client's REQ resend off once, not for ever.
 * test_random_ids: our comm IDs keep the owner bits and are random in the others.
 * test_rep_retries: a REQ asking 15 CM retries gets our REP 6 times, not 16.
 * test_many_unanswered: twenty REQs time out at once, and all twenty connections fail.
 * test_req_flood: past 128 unanswered requests a listener refuses REQs (REJ "no resources").
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "roce_wire_test.h"

#define PEER_IP 0x7f4d0301u /* 127.77.3.1 */
#define SRV_IP 0x7f4d0201u  /* 127.77.2.1 */

static const char srv_pdata[] = "accepted by a DOCA server";
static int sock = -1;
static bool defer; /* the request callback leaves the request pending */
static uint32_t tx_qkey = ROCE_QP1_QKEY; /* what send_mad puts in the DETH */

static void req_cb(struct doca_rdma_connection *c, union doca_data cu)
{
	struct side *s = cu.ptr;

	s->req++;
	s->conn = c;
	if (!defer)
		CHECK_OK(doca_rdma_connection_accept(c, (void *)srv_pdata, sizeof(srv_pdata)));
}

/* The raw peer's socket (`sock`): UDP 4791 on PEER_IP, where its datagrams come from and go to. */
static void peer_open(void)
{
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(PEER_IP)};

	sock = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(sock >= 0 && bind(sock, (struct sockaddr *)&me, sizeof(me)) == 0);
}

/* One MAD to the soft NIC's QP1 at dst, as a UD SEND_ONLY datagram with its ICRC. */
static void send_mad_to(uint32_t dst, const uint8_t *mad);

static void send_mad(const uint8_t *mad)
{
	send_mad_to(SRV_IP, mad);
}

static void send_mad_to(uint32_t dst, const uint8_t *mad)
{
	wire_send_mad(sock, PEER_IP, dst, tx_qkey, mad);
}

/* The next CM MAD from the soft NIC at src (secs at most, progressing s); its header in *hdr. */
static bool recv_mad_from(struct side *s, uint32_t src, uint8_t *mad, struct roce_mad_hdr *hdr, double secs);

static bool recv_mad(struct side *s, uint8_t *mad, struct roce_mad_hdr *hdr)
{
	return recv_mad_from(s, SRV_IP, mad, hdr, 10);
}

static bool recv_mad_from(struct side *s, uint32_t src, uint8_t *mad, struct roce_mad_hdr *hdr, double secs)
{
	return wire_recv_mad(s, sock, src, PEER_IP, mad, hdr, secs, NULL, NULL);
}

/*
 * rxe's RC QP sends from the UDP port of the REQ's flow label (roce_udp_sport_rc): a SEND_ONLY
 * of 16 bytes from that port to the soft NIC's QP dqpn (at PSN psn, from QP sqpn) must be
 * answered (ACK, or RNR NAK with no receive posted) from that same port: the soft NIC sends
 * from it too, and its QP's receive socket is connected to it (seen from Linux 6.1: it used to
 * be connected to roce_udp_sport(sqpn), a port rxe never sends from).
 */
/*
 * One RC packet as rxe's QP sends it: from PEER_IP's UDP port sport (the port of the REQ's
 * flow label) to the soft NIC at dst, with its ICRC (pkt's pkey set here).
 */
static void send_rc_ip(uint32_t src, uint16_t sport, uint32_t dst, struct roce_pkt *pkt, const void *payload,
		       size_t len)
{
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(sport), .sin_addr.s_addr = htonl(src)};
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(dst)};
	struct roce_ip4 v4 = {.src = src, .dst = dst, .id = 0, .frag = ROCE_IP4_DF};
	uint8_t d[512];
	int one = 1, pmtu = IP_PMTUDISC_DO, fd = socket(AF_INET, SOCK_DGRAM, 0);
	size_t n;

	CHECK(fd >= 0 && setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) == 0 &&
	      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
	      bind(fd, (struct sockaddr *)&me, sizeof(me)) == 0);
	pkt->bth.pkey = ROCE_PKEY_DEFAULT;
	n = roce_pkt_build(d, sizeof(d), pkt, payload, len);
	CHECK(n > 0);
	roce_icrc_store(d, n, roce_icrc_ip4(&v4, sport, ROCE_UDP_PORT, d, n));
	CHECK(sendto(fd, d, n, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)n);
	close(fd);
}

static void send_rc_from(uint16_t sport, uint32_t dst, struct roce_pkt *pkt, const void *payload, size_t len)
{
	send_rc_ip(PEER_IP, sport, dst, pkt, payload, len);
}

/*
 * As root, a raw socket on PEER_IP sees each datagram's IPv4 header, which a UDP socket hides:
 * every RC packet recv_rc takes must carry the ICRC of the IPv4 ID and flags it was sent with.
 * With UDP GSO over loopback the raw socket sees a run whole, one IPv4 header for all its
 * datagrams, which the kernel numbers ID, ID + 1, ... as it cuts them for the UDP socket; without
 * GSO each leaves alone with ID 0. Run once with SOFTDOCA_ROCE_NO_GSO (rdma_roce_cm_wire_nogso).
 * -1 when not root: recv_rc then only solves for an ID.
 */
static int raw = -1;
static unsigned raw_checked, raw_runs;
static struct {
	uint8_t p[65536]; /* the UDP payload of the run being taken apart */
	size_t n, seg;    /* its length, and its datagrams' (the first one's) */
	uint32_t src;
	uint16_t sport, id, frag;
} run;

static void check_icrc_with(uint32_t src, uint16_t sport, uint16_t id, uint16_t frag, const uint8_t *d, size_t len)
{
	struct roce_ip4 v4 = {.src = src, .dst = PEER_IP, .id = id, .frag = frag};
	uint32_t want = roce_icrc_ip4(&v4, sport, ROCE_UDP_PORT, d, len);

	CHECK(d[len - 4] == (uint8_t)want && d[len - 3] == (uint8_t)(want >> 8) && d[len - 2] == (uint8_t)(want >> 16) &&
	      d[len - 1] == (uint8_t)(want >> 24));
	raw_checked++;
}

static void raw_check_icrc(uint32_t src, uint16_t sport, const uint8_t *d, size_t len)
{
	double end = now_s() + 5;
	uint8_t pkt[65536 + 28];

	/* the next datagram of a run already seen whole */
	if (run.n > 0 && run.src == src && run.sport == sport) {
		for (size_t o = run.seg; o + len <= run.n; o += run.seg)
			if (memcmp(run.p + o, d, len) == 0) {
				check_icrc_with(src, sport, (uint16_t)(run.id + o / run.seg), run.frag, d, len);
				if (o + len == run.n)
					run.n = 0;
				return;
			}
	}
	while (raw >= 0 && now_s() < end) {
		struct pollfd pf = {.fd = raw, .events = POLLIN};
		ssize_t n;
		size_t plen;

		if (poll(&pf, 1, 1000) <= 0)
			continue;
		n = recv(raw, pkt, sizeof(pkt), 0);
		if (n < 28 || (pkt[0] & 0x0f) != 5 || roce_get32(pkt + 12) != src || roce_get32(pkt + 16) != PEER_IP ||
		    roce_get16(pkt + 20) != sport || roce_get16(pkt + 22) != ROCE_UDP_PORT)
			continue; /* another datagram (ours to the soft NIC are not PEER_IP's) */
		plen = (size_t)n - 28;
		if (plen < len || memcmp(pkt + 28, d, len) != 0)
			continue; /* one recv_rc skipped (a CM message), or resent */
		check_icrc_with(src, sport, roce_get16(pkt + 4), roce_get16(pkt + 6), d, len);
		if (plen > len) { /* a GSO run: its first datagram */
			memcpy(run.p, pkt + 28, plen);
			run.n = plen;
			run.seg = len;
			run.src = src;
			run.sport = sport;
			run.id = roce_get16(pkt + 4);
			run.frag = roce_get16(pkt + 6);
			raw_runs++;
		}
		return;
	}
	CHECK(!"the raw socket did not see the datagram");
}

/*
 * The next RC packet (not a CM one) the soft NIC at src sends us, progressing s (10 s at most),
 * parsed into *pkt (its payload in d), with the UDP port it came from; false if none came.
 */
static bool recv_rc(struct side *s, uint32_t src, struct roce_pkt *pkt, uint8_t *d, size_t cap, uint16_t *from_port)
{
	double end = now_s() + 10;

	while (now_s() < end) {
		struct roce_ip4 v4 = {.src = src, .dst = PEER_IP, .frag = ROCE_IP4_DF};
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t r = recvfrom(sock, d, cap, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		uint16_t id;

		if (r <= 0) {
			if (doca_pe_progress(s->pe) == 0)
				nap();
			continue;
		}
		CHECK(roce_icrc_solve_ip4_id(&v4, ntohs(from.sin_port), ROCE_UDP_PORT, d, (size_t)r, &id));
		CHECK(roce_pkt_parse(d, (size_t)r, pkt) == ROCE_PARSE_OK);
		if (pkt->bth.dqpn == 1)
			continue; /* a CM message: not what this waits for */
		raw_check_icrc(src, ntohs(from.sin_port), d, (size_t)r);
		*from_port = ntohs(from.sin_port);
		return true;
	}
	return false;
}

static void check_rc_port(struct side *s, uint32_t dst, uint16_t sport, uint32_t dqpn, uint32_t sqpn, uint32_t psn)
{
	struct roce_pkt pkt = {0};
	uint8_t d[512], msg[16] = "rxe's 16 bytes.";
	uint16_t from = 0;

	pkt.bth.opcode = ROCE_RC_SEND_ONLY;
	pkt.bth.dqpn = dqpn;
	pkt.bth.ack_req = true;
	pkt.bth.psn = psn;
	send_rc_from(sport, dst, &pkt, msg, sizeof(msg));
	CHECK(recv_rc(s, dst, &pkt, d, sizeof(d), &from));
	CHECK(pkt.bth.opcode == ROCE_RC_ACK && pkt.bth.dqpn == sqpn && pkt.bth.psn == psn);
	CHECK(from == sport);
}

/* A REQ as Linux 6.1 rdma_cm over rxe sends it, with "user" as its private data. */
static void linux_req(uint8_t *mad, uint32_t comm_id, uint16_t port)
{
	wire_linux_req(mad, PEER_IP, SRV_IP, comm_id, 0x000011, port, "user");
}

static void test_linux_client(void)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct side b;
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	struct roce_cm_rep rep;
	struct roce_cm_rej rej;
	struct roce_cm_rtu rtu;
	struct roce_cm_dreq dreq;
	struct doca_rdma_addr *addr = NULL;
	enum doca_rdma_addr_type type;
	const char *text = NULL;
	uint16_t port, pport = 0;

	peer_open();
	side_create(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(b.rdma, req_cb, c_est, c_fail, c_disc));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
	port = listen_on_free_port(b.rdma);

	/* a REQ with a wrong Q_Key: the CM drops it (counted below) */
	linux_req(mad, 0x8badf00d, port);
	tx_qkey = 0x12345678;
	send_mad(mad);
	tx_qkey = ROCE_QP1_QKEY;
	/* REQ -> the request callback accepts -> REP with its private data */
	send_mad(mad);
	CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_REP);
	roce_cm_rep_get(mad, &rep);
	CHECK(hdr.tid == 0x0000000a8badf00dull); /* the REQ's */
	CHECK(rep.remote_comm_id == 0x8badf00d && rep.local_comm_id != 0 && rep.local_qpn > 1);
	CHECK(memcmp(rep.private_data, srv_pdata, sizeof(srv_pdata)) == 0);
	CHECK(rep.responder_resources > 0 && rep.initiator_depth > 0 && rep.rnr_retry_count == 7);
	CHECK(b.req == 1 && b.est == 0); /* established on the RTU, not before */
	CHECK_OK(doca_rdma_connection_get_addr(b.conn, &addr));
	CHECK_OK(doca_rdma_addr_get_params(addr, &type, &text, &pport));
	CHECK(type == DOCA_RDMA_ADDR_TYPE_IPv4 && text != NULL && strcmp(text, "127.77.3.1") == 0 && pport == 0xa1b2);

	/* RTU -> established */
	rtu = (struct roce_cm_rtu){.local_comm_id = 0x8badf00d, .remote_comm_id = rep.local_comm_id};
	roce_cm_rtu_put(mad, ROCE_CM_RTU, hdr.tid, &rtu);
	send_mad(mad);
	{
		double end = now_s() + 10;

		while (b.est == 0 && now_s() < end)
			if (doca_pe_progress(b.pe) == 0)
				nap();
	}
	CHECK(b.est == 1);
	/* RC from and to the port of the REQ's flow label */
	check_rc_port(&b, SRV_IP, roce_udp_sport_rc(roce_cma_flow_label(0xa1b2, port), 0x11, rep.local_qpn), rep.local_qpn,
		      0x11, rep.starting_psn);

	/* a MAD of another class (the SA's), dropped by the NIC; then a REQ for a port nobody listens on: REJ 8 */
	linux_req(mad, 0x0badcafe, (uint16_t)(port == 65535 ? 1024 : port + 1));
	mad[1] = 0x03;
	send_mad(mad);
	mad[1] = ROCE_MAD_CLASS_CM;
	send_mad(mad);
	CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_REJ);
	roce_cm_rej_get(mad, &rej);
	CHECK(rej.reason == ROCE_CM_REJ_INVALID_SERVICE_ID && rej.remote_comm_id == 0x0badcafe &&
	      rej.local_comm_id == 0 && rej.msg_rejected == ROCE_CM_MSG_REQ);

	/* DREQ -> DREP with its TID, the disconnection callback */
	dreq = (struct roce_cm_dreq){.local_comm_id = 0x8badf00d, .remote_comm_id = rep.local_comm_id,
				     .remote_qpn = rep.local_qpn};
	roce_cm_dreq_put(mad, 0x0000000b8badf00dull, &dreq);
	send_mad(mad);
	CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_DREP && hdr.tid == 0x0000000b8badf00dull);
	roce_cm_rtu_get(mad, &rtu);
	CHECK(rtu.remote_comm_id == 0x8badf00d && rtu.local_comm_id == rep.local_comm_id);
	{
		double end = now_s() + 10;

		while (b.disc == 0 && now_s() < end)
			if (doca_pe_progress(b.pe) == 0)
				nap();
	}
	CHECK(b.disc == 1);
	{
		/* the CM's counters, printed when the NIC stops (SOFTDOCA_ROCE_STATS): the bad Q_Key */
		char path[] = "/tmp/roce_cm_wire_XXXXXX", text[4096] = "";
		int fd = mkstemp(path), saved = dup(STDERR_FILENO);
		ssize_t n;

		CHECK(fd >= 0 && saved >= 0);
		setenv("SOFTDOCA_ROCE_STATS", "1", 1);
		dup2(fd, STDERR_FILENO);
		side_down(&b);
		dup2(saved, STDERR_FILENO);
		close(saved);
		unsetenv("SOFTDOCA_ROCE_STATS");
		n = pread(fd, text, sizeof(text) - 1, 0);
		CHECK(n > 0);
		close(fd);
		unlink(path);
		{
			/*
			 * The REQ, RTU and DREQ came here (the listener, our comm ID); an unclaimed REQ goes to
			 * any process on 127.77.2.1 (another test's too, which then sends the REJ), and
			 * other tests' unclaimed REQs may come here: so rx at least 3, REJs any number
			 */
			const char *line = strstr(text, "RoCEv2 CM stats: ");
			unsigned long long rx = 0, bad = 0, unknown = 0, rej = 0;

			CHECK(line != NULL && sscanf(line, "RoCEv2 CM stats: rx %llu drop_malformed %llu drop_unknown %llu rej_sent %llu",
						     &rx, &bad, &unknown, &rej) == 4);
			CHECK(rx >= 3 && bad == 1);
			if (line == NULL || bad != 1 || rx < 3)
				fprintf(stderr, "the NIC's stop printed:\n%s\n", text);
		}
	}
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}


/* A duplicate REQ while the application has not answered: MRA; the accept later: REP. */
static void test_mra(void)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct side b;
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	struct roce_cm_mra mra;
	struct roce_cm_rep rep;
	uint16_t port;

	peer_open();
	side_create(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(b.rdma, req_cb, c_est, c_fail, c_disc));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
	port = listen_on_free_port(b.rdma);
	defer = true;
	linux_req(mad, 0x12345678, port);
	send_mad(mad);
	RUN_UNTIL_S(&b, b.req == 1, 10);
	send_mad(mad); /* Linux's CM resends it after its timeout */
	CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_MRA && hdr.tid == 0x0000000a12345678ull);
	roce_cm_mra_get(mad, &mra);
	CHECK(mra.remote_comm_id == 0x12345678 && mra.msg_mraed == ROCE_CM_MSG_REQ && mra.service_timeout == 24);
	CHECK_OK(doca_rdma_connection_accept(b.conn, NULL, 0));
	CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_REP);
	roce_cm_rep_get(mad, &rep);
	CHECK(rep.remote_comm_id == 0x12345678 && rep.local_comm_id == mra.local_comm_id);
	/* the RTU is lost, the client's first SEND comes: established (COMM_EST), answered */
	CHECK(b.est == 0);
	check_rc_port(&b, SRV_IP, roce_udp_sport_rc(roce_cma_flow_label(0xa1b2, port), 0x11, rep.local_qpn), rep.local_qpn,
		      0x11, rep.starting_psn);
	RUN_UNTIL_S(&b, b.est == 1, 10);
	defer = false;
	side_down(&b); /* the peer hears a DREQ: the connection was accepted */
	CHECK(recv_mad_from(NULL, SRV_IP, mad, &hdr, 10) && hdr.attr_id == ROCE_CM_DREQ);
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}

/*
 * A DOCA client (127.77.1.1) and a hand-played Linux server: the REQ's fields as Linux sends
 * them, sent again (same comm ID and TID) when unanswered, REP -> RTU and established, then the
 * client's disconnect: DREQ naming our QPN.
 */
static void test_doca_client(void)
{
	struct doca_dev *dev = open_ibdev("mlx5_0");
	struct side a;
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr, hdr2;
	struct roce_cm_req req, again;
	struct roce_cm_rtu rtu;
	struct roce_cm_dreq dreq;
	struct roce_cma_hdr cma;
	struct doca_rdma_addr *addr = NULL;
	uint32_t ip = 0;
	double t0;

	peer_open();
	side_create(&a, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	/* the request time-out bounds the resolve steps (rdma.md), not the wait for the REP: that
	 * is the REQ's resends', as Linux rdma_cm's (the REP below comes after 4.8 s) */
	CHECK_OK(doca_rdma_set_connection_request_timeout(a.rdma, 2000));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.77.3.1", 7471, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(a.rdma, addr, (union doca_data){.ptr = &a}));
	t0 = now_s();
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr, 10) && hdr.attr_id == ROCE_CM_REQ);
	roce_cm_req_get(mad, &req);
	CHECK(req.service_id == 0x0000000001061d2full && req.local_qpn > 1 && req.transport == ROCE_CM_TRANSPORT_RC);
	CHECK(req.retry_count == 7 && req.rnr_retry_count == 7 && req.max_cm_retries == 15);
	CHECK(req.remote_cm_timeout == 20 && req.local_cm_timeout == 20 && req.pkey == 0xffff);
	CHECK(req.path_mtu == 5); /* loopback: 4096, as rxe's iboe_get_mtu */
	CHECK(req.responder_resources > 0 && req.initiator_depth > 0 && (hdr.tid & 0xffffffffu) == req.local_comm_id);
	CHECK(req.primary.local_lid == 0xffff && req.primary.remote_lid == 0xffff && req.primary.hop_limit == 64);
	CHECK(req.primary.local_ack_timeout == 17);
	CHECK(roce_gid_to_ip4(req.primary.local_gid, &ip) && ip == 0x7f4d0101u);
	CHECK(roce_gid_to_ip4(req.primary.remote_gid, &ip) && ip == PEER_IP);
	CHECK(roce_cma_hdr_get(req.private_data, &cma) && cma.ip_version == 4 && cma.src_port != 0);
	CHECK(roce_get32(cma.src + 12) == 0x7f4d0101u && roce_get32(cma.dst + 12) == PEER_IP);
	/* unanswered: the same REQ again after 2 x 268 ms + 4.3 s */
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr2, 15) && hdr2.attr_id == ROCE_CM_REQ && hdr2.tid == hdr.tid);
	CHECK(now_s() - t0 > 3);
	roce_cm_req_get(mad, &again);
	CHECK(again.local_comm_id == req.local_comm_id && again.starting_psn == req.starting_psn);
	CHECK(a.est == 0 && a.fail == 0);
	/* REP -> RTU, established */
	wire_linux_rep(mad, hdr.tid, 0xfeed0001, req.local_comm_id, 0x000012, 0x123456);
	send_mad_to(0x7f4d0101u, mad);
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr2, 10) && hdr2.attr_id == ROCE_CM_RTU && hdr2.tid == hdr.tid);
	roce_cm_rtu_get(mad, &rtu);
	CHECK(rtu.local_comm_id == req.local_comm_id && rtu.remote_comm_id == 0xfeed0001);
	RUN_UNTIL_S(&a, a.est == 1, 10);
	/* RC from and to the port of our REQ's flow label, as rxe computes it */
	CHECK(req.primary.flow_label == roce_cma_flow_label(cma.src_port, 7471));
	check_rc_port(&a, 0x7f4d0101u, roce_udp_sport_rc(req.primary.flow_label, 0x12, req.local_qpn), req.local_qpn,
		      0x12, req.starting_psn);
	/* the client disconnects: DREQ naming our QPN; we answer DREP */
	CHECK_OK(doca_rdma_connection_disconnect(a.conn));
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr2, 10) && hdr2.attr_id == ROCE_CM_DREQ);
	roce_cm_dreq_get(mad, &dreq);
	CHECK(dreq.remote_qpn == 0x000012 && dreq.local_comm_id == req.local_comm_id && dreq.remote_comm_id == 0xfeed0001);
	rtu = (struct roce_cm_rtu){.local_comm_id = 0xfeed0001, .remote_comm_id = req.local_comm_id};
	roce_cm_rtu_put(mad, ROCE_CM_DREP, hdr2.tid, &rtu);
	send_mad_to(0x7f4d0101u, mad);
	side_down(&a);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}

SIDE_CB(send, send)

/* REQ, REP, RTU as Linux's client: the server side b is established; its REP in *rep. */
static void linux_connect(struct side *b, uint16_t port, uint32_t comm_id, struct roce_cm_rep *rep)
{
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	struct roce_cm_rtu rtu;

	linux_req(mad, comm_id, port);
	send_mad(mad);
	CHECK(recv_mad(b, mad, &hdr) && hdr.attr_id == ROCE_CM_REP);
	roce_cm_rep_get(mad, rep);
	rtu = (struct roce_cm_rtu){.local_comm_id = comm_id, .remote_comm_id = rep->local_comm_id};
	roce_cm_rtu_put(mad, ROCE_CM_RTU, hdr.tid, &rtu);
	send_mad(mad);
	RUN_UNTIL_S(b, b->est == 1, 10);
}

/*
 * rxe sends its DREQ from the GSI QP, independently of its data QP's responder: the DREQ can
 * reach us before the ACK of the SEND it took. Our SEND then succeeds when that ACK comes
 * after the DREQ (and DREP), and the disconnection callback follows; a SEND whose ACK never
 * comes fails once the hang-up's linger is over, and the callback still comes.
 */
static void test_dreq_before_ack(void)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct doca_buf_inventory *inv;

	peer_open();
	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	for (int acked = 1; acked >= 0; acked--) {
		uint32_t comm_id = 0x5eed0000u | (uint32_t)acked;
		struct side b;
		struct roce_cm_rep rep;
		struct roce_cm_dreq dreq;
		struct roce_mad_hdr hdr;
		struct roce_pkt pkt;
		struct doca_rdma_task_send *task;
		struct doca_buf *src;
		uint8_t mad[ROCE_MAD_LEN], d[512];
		uint16_t port, sport = 0;
		double t0;

		side_create(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
		CHECK_OK(doca_rdma_set_connection_state_callbacks(b.rdma, req_cb, c_est, c_fail, c_disc));
		CHECK_OK(doca_rdma_task_send_set_conf(b.rdma, send_ok, send_err, 4));
		CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
		port = listen_on_free_port(b.rdma);
		linux_connect(&b, port, comm_id, &rep);

		/* the server's SEND reaches "rxe" */
		memcpy(b.mem, "taken by rxe", 12);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, b.mmap, b.mem, 12, &src));
		CHECK_OK(doca_rdma_task_send_allocate_init(b.rdma, b.conn, src, (union doca_data){0}, &task));
		CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(task)));
		CHECK(recv_rc(&b, SRV_IP, &pkt, d, sizeof(d), &sport) && pkt.bth.dqpn == 0x11 &&
		      pkt.bth.opcode == ROCE_RC_SEND_ONLY && pkt.payload_len == 12);
		CHECK(sport == roce_udp_sport_rc(roce_cma_flow_label(0xa1b2, port), 0x11, rep.local_qpn));

		/* its DREQ first, answered */
		dreq = (struct roce_cm_dreq){.local_comm_id = comm_id, .remote_comm_id = rep.local_comm_id,
					     .remote_qpn = rep.local_qpn};
		roce_cm_dreq_put(mad, 0x0000000c00000000ull | comm_id, &dreq);
		send_mad(mad);
		t0 = now_s();
		CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_DREP);
		if (acked) { /* then the ACK of the SEND, from the port of the REQ's flow label (the SEND's) */
			struct roce_pkt ack = {0};

			ack.bth.opcode = ROCE_RC_ACK;
			ack.bth.dqpn = rep.local_qpn;
			ack.bth.psn = pkt.bth.psn;
			ack.aeth.syndrome = ROCE_AETH_ACK | 0x1f;
			ack.aeth.msn = 1;
			send_rc_from(sport, SRV_IP, &ack, NULL, 0);
		}
		RUN_UNTIL_S(&b, b.ok + b.err == 1 && b.disc == 1, 10);
		if (acked) {
			CHECK(b.ok == 1 && b.err == 0); /* the peer took it: no flush here */
		} else {
			CHECK(b.ok == 0 && b.err == 1 && b.last == DOCA_ERROR_CONNECTION_ABORTED);
			CHECK(now_s() - t0 < 5); /* the linger is short: no waiting for retransmits to fail */
		}
		CHECK(b.disc == 1);
		doca_task_free(doca_rdma_task_send_as_task(task));
		CHECK_OK(doca_buf_dec_refcount(src, NULL));
		side_down(&b);
	}
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}

/*
 * doca_rdma_set_mtu on the active side: its REQ offers 1024 (the interface allows 4096), and
 * its RC packets are cut at 1024: a 2500-byte SEND leaves as FIRST 1024, MIDDLE 1024, LAST 452.
 */
static void test_doca_client_mtu(void)
{
	struct doca_dev *dev = open_ibdev("mlx5_0");
	static const struct {
		uint8_t opcode;
		size_t len;
	} cut[3] = {{ROCE_RC_SEND_FIRST, 1024}, {ROCE_RC_SEND_MIDDLE, 1024}, {ROCE_RC_SEND_LAST, 452}};
	struct side a;
	uint8_t mad[ROCE_MAD_LEN], d[2048];
	struct roce_mad_hdr hdr, hdr2;
	struct roce_cm_req req;
	struct roce_pkt pkt;
	struct doca_rdma_addr *addr = NULL;
	struct doca_buf_inventory *inv;
	struct doca_rdma_task_send *task;
	struct doca_buf *src;
	enum doca_mtu_size mtu;
	uint16_t from = 0;

	peer_open();
	CHECK_OK(doca_buf_inventory_create(2, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_create(&a, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_mtu(a.rdma, DOCA_MTU_SIZE_1K_BYTES));
	CHECK_OK(doca_rdma_task_send_set_conf(a.rdma, send_ok, send_err, 4));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));
	CHECK_OK(doca_rdma_get_mtu(a.rdma, &mtu));
	CHECK(mtu == DOCA_MTU_SIZE_1K_BYTES);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.77.3.1", 7471, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(a.rdma, addr, (union doca_data){.ptr = &a}));
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr, 10) && hdr.attr_id == ROCE_CM_REQ);
	roce_cm_req_get(mad, &req);
	CHECK(req.path_mtu == 3); /* 1024, not the interface's 4096 */
	wire_linux_rep(mad, hdr.tid, 0xfeed0002, req.local_comm_id, 0x000013, 0x123456);
	send_mad_to(0x7f4d0101u, mad);
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr2, 10) && hdr2.attr_id == ROCE_CM_RTU);
	RUN_UNTIL_S(&a, a.est == 1, 10);
	for (size_t i = 0; i < 2500; i++)
		a.mem[i] = (uint8_t)i;
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, a.mmap, a.mem, 2500, &src));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){0}, &task));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(task)));
	for (int i = 0; i < 3; i++) {
		CHECK(recv_rc(&a, 0x7f4d0101u, &pkt, d, sizeof(d), &from));
		CHECK(pkt.bth.dqpn == 0x13 && pkt.bth.opcode == cut[i].opcode && pkt.payload_len == cut[i].len);
		CHECK(pkt.bth.psn == ((0x123456u + (uint32_t)i) & 0xffffffu));
	}
	{
		/* "rxe" ACKs the last PSN: the SEND completes; then what it may have sent again is drained */
		struct roce_pkt ack = {0};

		ack.bth.opcode = ROCE_RC_ACK;
		ack.bth.dqpn = req.local_qpn;
		ack.bth.psn = (0x123456u + 2) & 0xffffffu;
		ack.aeth.syndrome = ROCE_AETH_ACK | 0x1f;
		ack.aeth.msn = 1;
		send_rc_from(from, 0x7f4d0101u, &ack, NULL, 0);
		RUN_UNTIL_S(&a, a.ok + a.err == 1, 10);
		CHECK(a.ok == 1 && a.err == 0);
		while (recv(sock, d, sizeof(d), MSG_DONTWAIT) > 0)
			;
	}
	/* the disconnect's DREQ, answered */
	CHECK_OK(doca_rdma_connection_disconnect(a.conn));
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr2, 10) && hdr2.attr_id == ROCE_CM_DREQ);
	{
		struct roce_cm_dreq dreq;
		struct roce_cm_rtu drep;

		roce_cm_dreq_get(mad, &dreq);
		drep = (struct roce_cm_rtu){.local_comm_id = 0xfeed0002, .remote_comm_id = req.local_comm_id};
		roce_cm_rtu_put(mad, ROCE_CM_DREP, hdr2.tid, &drep);
		send_mad_to(0x7f4d0101u, mad);
	}
	doca_task_free(doca_rdma_task_send_as_task(task));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	side_down(&a);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}

SIDE_CB(fs_send, send)
SIDE_CB(fs_recv, receive)

/*
 * RC packets that name a live connection's QPN but come from another address are dropped before
 * the engine (as rxe drops an RC packet whose source is not its QP's peer): a forged ACK and a
 * forged NAK "remote access error" for the DOCA client's outstanding SEND, and a forged SEND
 * at the PSN its receive expects, all from 127.77.9.9 with valid ICRCs and the peer's own UDP
 * port. For 300 ms nothing completes (without the check: the SEND completes or fails, or the
 * receive takes the forged bytes). Then the real peer's ACK and SEND complete both, the bytes the
 * peer's.
 */
static void test_forged_source(void)
{
	const uint32_t forger = 0x7f4d0909u; /* 127.77.9.9 */
	struct doca_dev *dev = open_ibdev("mlx5_0");
	struct side a;
	uint8_t mad[ROCE_MAD_LEN], d[2048], forged[64], real[64];
	struct roce_mad_hdr hdr, hdr2;
	struct roce_cm_req req;
	struct roce_pkt pkt, p = {0};
	struct doca_rdma_addr *addr = NULL;
	struct doca_buf_inventory *inv;
	struct doca_rdma_task_send *task;
	struct doca_rdma_task_receive *rtask;
	struct doca_buf *src, *dst;
	uint16_t from = 0;
	double end;

	peer_open();
	CHECK_OK(doca_buf_inventory_create(2, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_create(&a, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_task_send_set_conf(a.rdma, fs_send_ok, fs_send_err, 4));
	CHECK_OK(doca_rdma_task_receive_set_conf(a.rdma, fs_recv_ok, fs_recv_err, 4));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.77.3.1", 7471, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(a.rdma, addr, (union doca_data){.ptr = &a}));
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr, 10) && hdr.attr_id == ROCE_CM_REQ);
	roce_cm_req_get(mad, &req);
	wire_linux_rep(mad, hdr.tid, 0xfeed0003, req.local_comm_id, 0x000013, 0x123456);
	send_mad_to(0x7f4d0101u, mad);
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr2, 10) && hdr2.attr_id == ROCE_CM_RTU);
	RUN_UNTIL_S(&a, a.est == 1, 10);
	/* a receive (its buffer at 2048), and a SEND the peer sees and leaves unacknowledged */
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, a.mmap, a.mem + 2048, 64, &dst));
	CHECK_OK(doca_rdma_task_receive_allocate_init(a.rdma, dst, (union doca_data){.u64 = 2}, &rtask));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rtask)));
	memset(a.mem, 0x5a, 64);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, a.mmap, a.mem, 64, &src));
	CHECK_OK(doca_rdma_task_send_allocate_init(a.rdma, a.conn, src, (union doca_data){.u64 = 1}, &task));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(task)));
	CHECK(recv_rc(&a, 0x7f4d0101u, &pkt, d, sizeof(d), &from));
	CHECK(pkt.bth.opcode == ROCE_RC_SEND_ONLY && pkt.bth.psn == 0x123456u && pkt.payload_len == 64);
	/* the forger: ACK, NAK, SEND, from the peer's UDP port on another address */
	p.bth.opcode = ROCE_RC_ACK;
	p.bth.dqpn = req.local_qpn;
	p.bth.psn = 0x123456u;
	p.aeth.syndrome = ROCE_AETH_ACK | 0x1f;
	p.aeth.msn = 1;
	send_rc_ip(forger, from, 0x7f4d0101u, &p, NULL, 0);
	p.aeth.syndrome = ROCE_AETH_NAK | ROCE_NAK_REM_ACCESS;
	send_rc_ip(forger, from, 0x7f4d0101u, &p, NULL, 0);
	memset(forged, 0xee, sizeof(forged));
	p = (struct roce_pkt){0};
	p.bth.opcode = ROCE_RC_SEND_ONLY;
	p.bth.dqpn = req.local_qpn;
	p.bth.psn = req.starting_psn;
	p.bth.ack_req = true;
	send_rc_ip(forger, from, 0x7f4d0101u, &p, forged, sizeof(forged));
	for (end = now_s() + 0.3; now_s() < end && a.ok + a.err == 0;)
		if (doca_pe_progress(a.pe) == 0)
			nap();
	CHECK(a.ok == 0 && a.err == 0);
	/* the real peer: the same ACK, and a SEND of its own bytes */
	for (size_t i = 0; i < sizeof(real); i++)
		real[i] = (uint8_t)(i * 7 + 1);
	p = (struct roce_pkt){0};
	p.bth.opcode = ROCE_RC_ACK;
	p.bth.dqpn = req.local_qpn;
	p.bth.psn = 0x123456u;
	p.aeth.syndrome = ROCE_AETH_ACK | 0x1f;
	p.aeth.msn = 1;
	send_rc_from(from, 0x7f4d0101u, &p, NULL, 0);
	p = (struct roce_pkt){0};
	p.bth.opcode = ROCE_RC_SEND_ONLY;
	p.bth.dqpn = req.local_qpn;
	p.bth.psn = req.starting_psn;
	p.bth.ack_req = true;
	send_rc_from(from, 0x7f4d0101u, &p, real, sizeof(real));
	RUN_UNTIL_S(&a, a.ok + a.err == 2, 10);
	CHECK(a.ok == 2 && a.err == 0);
	CHECK(memcmp(a.mem + 2048, real, sizeof(real)) == 0);
	printf("forged ACK, NAK and SEND from 127.77.9.9, then the peer's: %d completed, %d failed, receive %s\n", a.ok,
	       a.err, memcmp(a.mem + 2048, real, sizeof(real)) == 0 ? "the peer's bytes" : "NOT the peer's bytes");
	/* our ACK of its SEND (before the DREQ: it may still be on its way), behind the resends of our
	 * SEND that the forged window's 300 ms without an ACK made */
	{
		bool acked = false;

		for (int i = 0; i < 64 && !acked && recv_rc(&a, 0x7f4d0101u, &pkt, d, sizeof(d), &from); i++)
			acked = pkt.bth.opcode == ROCE_RC_ACK && pkt.bth.psn == req.starting_psn;
		CHECK(acked);
	}
	CHECK_OK(doca_rdma_connection_disconnect(a.conn));
	CHECK(recv_mad_from(&a, 0x7f4d0101u, mad, &hdr2, 10) && hdr2.attr_id == ROCE_CM_DREQ);
	{
		struct roce_cm_rtu drep = {.local_comm_id = 0xfeed0003, .remote_comm_id = req.local_comm_id};

		roce_cm_rtu_put(mad, ROCE_CM_DREP, hdr2.tid, &drep);
		send_mad_to(0x7f4d0101u, mad);
	}
	doca_task_free(doca_rdma_task_send_as_task(task));
	doca_task_free(doca_rdma_task_receive_as_task(rtask));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	side_down(&a);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}


/* Progresses s for secs; the next CM MAD from src in *hdr if one came (false: none). */
static bool quiet_for(struct side *s, uint32_t src, struct roce_mad_hdr *hdr, double secs)
{
	uint8_t mad[ROCE_MAD_LEN];

	return !recv_mad_from(s, src, mad, hdr, secs);
}

/*
 * A reply that names our comm ID and comes from the peer's address is not the peer's unless it
 * also names the peer's comm ID (anyone on that address can send it: another port, another
 * process). A REJ of the REP with another sender's ID does not fail the server's connection, a
 * DREQ with one does not end it (no DREP); a REJ of the REQ, with the right IDs, is dropped once
 * the REP is out. The connection is established by the real RTU and ended by the real DREQ.
 */
static void test_forged_ids(void)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	const uint32_t comm_id = 0xf0f00001u, forged = 0x0badbad0u;
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr, hdr2;
	struct roce_cm_rep rep;
	struct roce_cm_rej rej;
	struct roce_cm_rtu rtu;
	struct roce_cm_dreq dreq;
	struct side b;
	uint16_t port;

	peer_open();
	side_create(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(b.rdma, req_cb, c_est, c_fail, c_disc));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
	port = listen_on_free_port(b.rdma);
	linux_req(mad, comm_id, port);
	send_mad(mad);
	CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_REP);
	roce_cm_rep_get(mad, &rep);

	/* REP out: a REJ of it from another comm ID, a REJ of the REQ from the peer's */
	rej = (struct roce_cm_rej){.local_comm_id = forged, .remote_comm_id = rep.local_comm_id,
				   .msg_rejected = ROCE_CM_MSG_REP, .reason = ROCE_CM_REJ_CONSUMER};
	roce_cm_rej_put(mad, hdr.tid, &rej);
	send_mad(mad);
	CHECK(quiet_for(&b, SRV_IP, &hdr2, 0.5));
	CHECK(b.fail == 0 && b.est == 0);
	rej.local_comm_id = comm_id;
	rej.msg_rejected = ROCE_CM_MSG_REQ;
	roce_cm_rej_put(mad, hdr.tid, &rej);
	send_mad(mad);
	CHECK(quiet_for(&b, SRV_IP, &hdr2, 0.5));
	CHECK(b.fail == 0 && b.est == 0);
	/* the real RTU: established */
	rtu = (struct roce_cm_rtu){.local_comm_id = comm_id, .remote_comm_id = rep.local_comm_id};
	roce_cm_rtu_put(mad, ROCE_CM_RTU, hdr.tid, &rtu);
	send_mad(mad);
	RUN_UNTIL_S(&b, b.est == 1, 10);
	CHECK(b.fail == 0);

	/* a DREQ from another comm ID: no DREP, still connected */
	dreq = (struct roce_cm_dreq){.local_comm_id = forged, .remote_comm_id = rep.local_comm_id,
				     .remote_qpn = rep.local_qpn};
	roce_cm_dreq_put(mad, 0x0000000d00000000ull | forged, &dreq);
	send_mad(mad);
	CHECK(quiet_for(&b, SRV_IP, &hdr2, 0.5));
	CHECK(b.disc == 0);
	/* the peer's own: DREP, disconnected */
	dreq.local_comm_id = comm_id;
	roce_cm_dreq_put(mad, 0x0000000d00000000ull | comm_id, &dreq);
	send_mad(mad);
	CHECK(recv_mad(&b, mad, &hdr2) && hdr2.attr_id == ROCE_CM_DREP && hdr2.tid == (0x0000000d00000000ull | comm_id));
	RUN_UNTIL_S(&b, b.disc == 1, 10);
	side_down(&b);
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}


/*
 * MRAs every 300 ms put a DOCA client's REQ resend off once only (as Linux's MRA_REQ_RCVD): with
 * no resend left (SOFTDOCA_ROCE_CM_RETRIES=0) the connection fails with the first MRA's wait
 * (2 x 268 ms + its service timeout, 1 ms for code 0), not never. Before, that: a REJ of a REP
 * while our REQ waits (we sent no REP) fails nothing.
 */
static void test_mra_once(void)
{
	struct doca_dev *dev = open_ibdev("mlx5_0");
	const uint32_t cli = 0x7f4d0101u; /* 127.77.1.1 */
	struct side a;
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr, hdr2;
	struct roce_cm_req req;
	struct roce_cm_rej rej;
	struct roce_cm_mra mra;
	struct doca_rdma_addr *addr = NULL;
	unsigned sent = 0;
	double t0;

	peer_open();
	side_create(&a, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));
	setenv("SOFTDOCA_ROCE_CM_RETRIES", "0", 1);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.77.3.1", 7471, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(a.rdma, addr, (union doca_data){.ptr = &a}));
	CHECK(recv_mad_from(&a, cli, mad, &hdr, 10) && hdr.attr_id == ROCE_CM_REQ);
	unsetenv("SOFTDOCA_ROCE_CM_RETRIES");
	roce_cm_req_get(mad, &req);

	rej = (struct roce_cm_rej){.local_comm_id = 0xfeed0002, .remote_comm_id = req.local_comm_id,
				   .msg_rejected = ROCE_CM_MSG_REP, .reason = ROCE_CM_REJ_CONSUMER};
	roce_cm_rej_put(mad, hdr.tid, &rej);
	send_mad_to(cli, mad);
	CHECK(quiet_for(&a, cli, &hdr2, 0.2));
	CHECK(a.fail == 0);

	mra = (struct roce_cm_mra){.local_comm_id = 0xfeed0002, .remote_comm_id = req.local_comm_id,
				   .msg_mraed = ROCE_CM_MSG_REQ, .service_timeout = 0};
	roce_cm_mra_put(mad, hdr.tid, &mra);
	t0 = now_s();
	while (a.fail == 0 && now_s() < t0 + 6) {
		send_mad_to(cli, mad);
		sent++;
		for (double next = now_s() + 0.3; a.fail == 0 && now_s() < next;)
			if (doca_pe_progress(a.pe) == 0)
				nap();
	}
	printf("an MRA every 300 ms: the connection %s after %.2f s (%u MRAs)\n", a.fail != 0 ? "failed" : "still waits",
	       now_s() - t0, sent);
	CHECK(a.fail == 1 && a.est == 0 && now_s() - t0 < 3);
	side_down(&a);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}


/*
 * Our comm IDs are not guessable: eight REQs get eight REPs whose comm IDs keep the process's
 * owner bits (the port routes replies by them) and differ in their 22 random ones, none close
 * to the one before (they were counted up by one).
 */
static void test_random_ids(void)
{
	enum { N = 8 };
	struct doca_dev *dev = open_ibdev("mlx5_1");
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	struct roce_cm_rep rep;
	uint32_t id[N];
	unsigned close_ids = 0;
	struct side b;
	uint16_t port;

	peer_open();
	side_create(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(b.rdma, req_cb, c_est, c_fail, c_disc));
	CHECK_OK(doca_rdma_set_max_num_connections(b.rdma, N));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
	port = listen_on_free_port(b.rdma);
	for (int i = 0; i < N; i++) {
		linux_req(mad, 0x1d000000u + (uint32_t)i, port);
		send_mad(mad);
		CHECK(recv_mad(&b, mad, &hdr) && hdr.attr_id == ROCE_CM_REP);
		roce_cm_rep_get(mad, &rep);
		CHECK(rep.remote_comm_id == 0x1d000000u + (uint32_t)i);
		id[i] = rep.local_comm_id;
	}
	for (int i = 1; i < N; i++) {
		uint32_t d = (id[i] - id[i - 1]) & 0x3fffff;

		CHECK(id[i] >> 22 == id[0] >> 22 && id[0] >> 22 != 0);
		for (int j = 0; j < i; j++)
			CHECK(id[i] != id[j]);
		close_ids += d < 16 || d > 0x3fffff - 16;
	}
	printf("comm IDs of %d REPs: %08x %08x %08x ... (%u of them within 16 of the one before)\n", N, id[0], id[1],
	       id[2], close_ids);
	CHECK(close_ids < 2);
	side_down(&b);
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}


/*
 * A REQ asking 15 CM retries and a 1 ms REP resend time (code 0, as one with a forged source may)
 * gets our REP 6 times in all (5 resends), not 16; then the connection fails.
 */
static void test_rep_retries(void)
{
	const uint32_t comm_id = 0x2e900001u;
	struct doca_dev *dev = open_ibdev("mlx5_1");
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	struct roce_cm_req req;
	unsigned reps = 0, other = 0;
	struct side b;
	uint16_t port;

	peer_open();
	side_create(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(b.rdma, req_cb, c_est, c_fail, c_disc));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
	port = listen_on_free_port(b.rdma);
	linux_req(mad, comm_id, port);
	roce_cm_req_get(mad, &req);
	CHECK(req.max_cm_retries == 15);
	req.local_cm_timeout = 0;
	roce_cm_req_put(mad, 0x0000000a00000000ull | comm_id, &req);
	send_mad(mad);
	while (recv_mad_from(&b, SRV_IP, mad, &hdr, 1.5)) {
		if (hdr.attr_id == ROCE_CM_REP)
			reps++;
		else
			other++;
	}
	printf("a REQ asking 15 CM retries: %u REPs, %u other MADs\n", reps, other);
	CHECK(reps == 6 && other == 0);
	RUN_UNTIL_S(&b, b.fail == 1, 10);
	side_down(&b);
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}

/*
 * More REQs time out at once than the CM's timer fails in one pass (16): a DOCA client dials 40
 * connections to a peer that never answers, with SOFTDOCA_ROCE_CM_RETRIES=0 (each REQ sent once,
 * failing 4.6 s later; the dials take a few ms, so some millisecond holds more than 16 deadlines).
 * Every one of them must fail (connection failure callback), not 16 a pass and the rest never.
 */
static void test_many_unanswered(void)
{
	enum { N = 40 };
	struct doca_dev *dev = open_ibdev("mlx5_0");
	struct doca_rdma_addr *addr = NULL;
	uint32_t ids[N];
	unsigned nreq = 0, again = 0;
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	struct side a;
	double end;

	setenv("SOFTDOCA_ROCE_CM_RETRIES", "0", 1);
	peer_open();
	side_create(&a, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_max_num_connections(a.rdma, N));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(a.rdma)));
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.77.3.1", 7471, &addr));
	for (int i = 0; i < N; i++)
		CHECK_OK(doca_rdma_connect_to_addr(a.rdma, addr, (union doca_data){.ptr = &a}));
	/* the REQs arrive, each once, and nobody answers */
	for (end = now_s() + 20; a.fail < N && now_s() < end;) {
		if (recv_mad_from(&a, 0x7f4d0101u, mad, &hdr, 0.05) && hdr.attr_id == ROCE_CM_REQ) {
			struct roce_cm_req req;
			bool seen = false;

			roce_cm_req_get(mad, &req);
			for (unsigned k = 0; k < nreq; k++)
				seen |= ids[k] == req.local_comm_id;
			if (seen)
				again++;
			else if (nreq < N)
				ids[nreq++] = req.local_comm_id;
		}
	}
	printf("%u REQs unanswered (%u sent again): %d connections failed, %d established\n", nreq, again, a.fail, a.est);
	CHECK(nreq == N && again == 0);
	CHECK(a.fail == N && a.est == 0);
	side_down(&a);
	CHECK_OK(doca_rdma_addr_destroy(addr));
	CHECK_OK(doca_dev_close(dev));
	close(sock);
	unsetenv("SOFTDOCA_ROCE_CM_RETRIES");
}

/*
 * A flood of REQs the application does not answer (it does not progress): the listening ep
 * holds at most 128 requests (each a qp and a socket); the rest get REJ "no resources" (3) at
 * once, and nothing else is answered.
 */
static void test_req_flood(void)
{
	enum { N = 140, MAX = 128 };
	struct doca_dev *dev = open_ibdev("mlx5_1");
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	unsigned busy = 0, other = 0;
	bool late_only = true;
	struct side b;
	uint16_t port;

	peer_open();
	CHECK(setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &(int){1 << 20}, sizeof(int)) == 0);
	side_create(&b, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(b.rdma, req_cb, c_est, c_fail, c_disc));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(b.rdma)));
	port = listen_on_free_port(b.rdma);
	for (uint32_t i = 0; i < N; i++) {
		linux_req(mad, 0x66660000u + i, port);
		send_mad(mad);
		if (i % 32 == 31) { /* (the CM's socket holds what a burst brings, not a flood's all) */
			for (double end = now_s() + 0.2; now_s() < end;)
				nap();
		}
	}
	/* the answers: REJ 3 for each REQ past the 128th, nothing for the others (no progress) */
	while (recv_mad_from(NULL, SRV_IP, mad, &hdr, 2)) {
		struct roce_cm_rej rej;

		if (hdr.attr_id != ROCE_CM_REJ) {
			other++;
			continue;
		}
		roce_cm_rej_get(mad, &rej);
		if (rej.reason == ROCE_CM_REJ_NO_RESOURCES)
			busy++;
		else
			other++;
		late_only &= rej.remote_comm_id >= 0x66660000u + MAX;
	}
	printf("%d REQs unanswered by the application: %u refused (no resources), %u other answers\n", N, busy, other);
	CHECK(busy == N - MAX && other == 0 && late_only);
	side_down(&b);
	CHECK_OK(doca_dev_close(dev));
	close(sock);
}

int main(void)
{
	if (geteuid() == 0) {
		struct sockaddr_in me = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(PEER_IP)};

		raw = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_UDP);
		CHECK(raw >= 0 && bind(raw, (struct sockaddr *)&me, sizeof(me)) == 0);
	} else {
		fprintf(stderr, "not root: the RC packets' ICRCs are not checked against their IPv4 headers\n");
	}
	TEST_RUN(test_linux_client);
	TEST_RUN(test_mra);
	TEST_RUN(test_doca_client);
	TEST_RUN(test_dreq_before_ack);
	TEST_RUN(test_doca_client_mtu);
	TEST_RUN(test_forged_source);
	TEST_RUN(test_forged_ids);
	TEST_RUN(test_mra_once);
	TEST_RUN(test_random_ids);
	TEST_RUN(test_rep_retries);
	TEST_RUN(test_many_unanswered);
	TEST_RUN(test_req_flood);
	if (raw >= 0) {
		printf("%u RC packets' ICRCs checked against the IPv4 ID and flags they left with (%u UDP GSO "
		       "runs among them)%s\n", raw_checked, raw_runs, getenv("SOFTDOCA_ROCE_NO_GSO") != NULL ? " (GSO off)" : "");
		CHECK(raw_checked >= 5);
		/* with GSO, test_doca_client_mtu's three packets leave as one run: its IDs were checked */
		CHECK(getenv("SOFTDOCA_ROCE_NO_GSO") != NULL ? raw_runs == 0 : raw_runs >= 1);
		close(raw);
	}
	TEST_EXIT();
}
