/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca's librdmacm + libibverbs on a rocev2 card meet Linux rdma_cm on the wire: the REQ
 * Linux 6.1's rping client sent over rxe (captured in tests/interop scenario rdmacm-rping, frame
 * 439 of SOFTDOCA_INTEROP_PCAP; readdressed to loopback, with 16 bytes of user private data
 * added) is played from a plain UDP socket at a librdmacm server in this process. Pinned:
 *   - CONNECT_REQUEST carries the REQ's user private data, its depths swapped (rping asks 1/1),
 *     retry / RNR retry, its QPN, the peer's address and RDMA-CM port from the IP header;
 *   - the REP describes the application's QP (rdma_create_qp's; its qp_num is that QPN, as on
 *     rdma-core): RC packets to its QPN from the
 *     REP's starting PSN reach the QP's receive queue and memory (an RDMA WRITE by mr->rkey,
 *     the wire R_Key), and the QP sends to the REQ's QPN from the REQ's starting PSN;
 *   - the RTU lost: the first packet on the QP -> ESTABLISHED (COMM_EST); a DREQ naming the
 *     REP's QPN -> DREP and DISCONNECTED;
 *   - a REP never answered -> UNREACHABLE (-ETIMEDOUT); a REP answered by REJ -> REJECTED;
 *   - conn_param's retry / RNR retry counts in our REQ and REP; the REQ's RNR retry count on our QP.
 *
 *   test_rdmacm_wire PORT   (SOFTDOCA_CONFIG: a rocev2 card at 127.77.1.1)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"

#define CHECK(c)                                                                                                   \
	do {                                                                                                       \
		if (!(c)) {                                                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);                     \
			exit(1);                                                                                   \
		}                                                                                                  \
	} while (0)

#define SERVER_IP 0x7f4d0101u /* 127.77.1.1: the card (tests/unit/rdma/rocev2.conf) */
#define PEER_IP 0x7f4d0903u   /* 127.77.9.3: "Linux" */

/* UDP payload (BTH .. ICRC) of Linux 6.1 rping's REQ over rxe, 10.77.0.2 -> 10.77.0.1. */
static const char linux_rping_req[] =
	"6400ffff00000001800000078001000000000001010702030000000000000002"
	"05b5cf91001000000000000091cfb505000000000000000001061d2f505400ff"
	"fe77000200000000000000000000130100000001000000a01c5478a7ffff37f0"
	"ffffffff00000000000000000000ffff0a4d000200000000000000000000ffff"
	"0a4d00018061c000004000980000000000000000000000000000000000000000"
	"0000000000000000000000000000000000000000000000000040c57300000000"
	"00000000000000000a4d00020000000000000000000000000a4d000100000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"00000000000000000000000000000000000000008c68334b";

static int fd;
static uint32_t qp1_psn = 7;

static size_t unhex(const char *s, uint8_t *out)
{
	size_t n = 0;

	for (; s[0] && s[1]; s += 2)
		out[n++] = (uint8_t)strtoul((char[3]){s[0], s[1], 0}, NULL, 16);
	return n;
}

static void send_pkt(uint8_t *buf, size_t len)
{
	struct roce_ip4 ip = {.src = PEER_IP, .dst = SERVER_IP, .id = 0, .frag = ROCE_IP4_DF};
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(SERVER_IP)};

	roce_icrc_store(buf, len, roce_icrc_ip4(&ip, ROCE_UDP_PORT, ROCE_UDP_PORT, buf, len));
	CHECK(sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)len);
}

static void send_mad(const uint8_t *mad)
{
	struct roce_pkt pkt = {0};
	uint8_t buf[512];

	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.bth.ack_req = true;
	pkt.bth.psn = qp1_psn++;
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	send_pkt(buf, roce_pkt_build(buf, sizeof(buf), &pkt, mad, ROCE_MAD_LEN));
}

static void send_rc(uint8_t opcode, uint32_t dqpn, uint32_t psn, const struct roce_reth *reth, const void *data,
		    size_t len)
{
	struct roce_pkt pkt = {0};
	uint8_t buf[512];

	pkt.bth.opcode = opcode;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = dqpn;
	pkt.bth.ack_req = true;
	pkt.bth.psn = psn;
	if (reth != NULL)
		pkt.reth = *reth;
	send_pkt(buf, roce_pkt_build(buf, sizeof(buf), &pkt, data, len));
}

/* The next datagram from the server whose ICRC holds (5 s bound); its bytes stay in buf. */
static void recv_pkt(uint8_t *buf, size_t cap, struct roce_pkt *pkt)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	struct roce_ip4 ip = {.src = SERVER_IP, .dst = PEER_IP, .frag = ROCE_IP4_DF};
	uint16_t id;
	ssize_t n;

	CHECK(poll(&p, 1, 5000) == 1);
	n = recvfrom(fd, buf, cap, 0, (struct sockaddr *)&from, &fl);
	CHECK(n > 0 && ntohl(from.sin_addr.s_addr) == SERVER_IP);
	CHECK(roce_icrc_solve_ip4_id(&ip, ntohs(from.sin_port), ROCE_UDP_PORT, buf, (size_t)n, &id) && id == 0);
	CHECK(roce_pkt_parse(buf, (size_t)n, pkt) == ROCE_PARSE_OK);
}

/*
 * The next CM MAD from the server: its attribute; the MAD in mad. A DREQ is skipped: none is
 * expected, and a run that failed holding a connection leaves one, which the next process on
 * the card's address sends when it reclaims the dead one.
 */
static uint16_t recv_mad(uint8_t *mad)
{
	uint8_t buf[512];
	struct roce_pkt pkt;
	struct roce_mad_hdr h;

	do {
		recv_pkt(buf, sizeof(buf), &pkt);
		CHECK(pkt.bth.opcode == ROCE_UD_SEND_ONLY && pkt.bth.dqpn == 1);
		CHECK(roce_cm_mad_check(pkt.payload, pkt.payload_len, &h));
	} while (h.attr_id == ROCE_CM_DREQ);
	memcpy(mad, pkt.payload, ROCE_MAD_LEN);
	return h.attr_id;
}

static struct rdma_cm_event *event(struct rdma_event_channel *ch, enum rdma_cm_event_type want)
{
	struct rdma_cm_event *ev = NULL;

	CHECK(rdma_get_cm_event(ch, &ev) == 0);
	if (ev->event != want)
		fprintf(stderr, "event %s, want %s\n", rdma_event_str(ev->event), rdma_event_str(want));
	CHECK(ev->event == want);
	return ev;
}

static void poll_one(struct ibv_cq *cq, struct ibv_wc *wc)
{
	for (time_t end = time(NULL) + 5; time(NULL) <= end;)
		if (ibv_poll_cq(cq, 1, wc) == 1)
			return;
	CHECK(!"a completion within 5 s");
}

/* A signaled SEND of len bytes at p (in mr) on qp. */
static void post_send(struct ibv_qp *qp, struct ibv_mr *mr, void *p, uint32_t len, uint64_t wr_id)
{
	struct ibv_sge sge = {.addr = (uintptr_t)p, .length = len, .lkey = mr->lkey};
	struct ibv_send_wr wr = {.wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				 .send_flags = IBV_SEND_SIGNALED};
	struct ibv_send_wr *bad;

	CHECK(ibv_post_send(qp, &wr, &bad) == 0);
}

/* An RC QP on id (rdma_create_qp), with its PD and CQ: 4 WRs a way, one SGE each. */
static struct ibv_qp *rc_qp(struct rdma_cm_id *id, struct ibv_pd **pd, struct ibv_cq **cq)
{
	struct ibv_qp_init_attr qa = {.qp_type = IBV_QPT_RC,
				      .cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1}};

	*pd = ibv_alloc_pd(id->verbs);
	*cq = *pd != NULL ? ibv_create_cq(id->verbs, 8, NULL, NULL, 0) : NULL;
	CHECK(*cq != NULL);
	qa.send_cq = qa.recv_cq = *cq;
	CHECK(rdma_create_qp(id, *pd, &qa) == 0);
	return id->qp;
}

/*
 * The other way: a librdmacm client's REQ to a "Linux" server whose application accepts only
 * after 5.5 s (its CM sends nothing meanwhile; a lost REP costs as long: Linux resends it after
 * 4.1 s). A Linux client waits through its REQ's 15 retries; so must ours: the REP, then
 * our RTU and ESTABLISHED. (The soft NIC's connect deadline of 5 s used to end it first.)
 */
static void client_waits_for_slow_accept(uint16_t port)
{
	struct sockaddr_in src = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(SERVER_IP)};
	struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(PEER_IP)};
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_conn_param param = {.responder_resources = 1, .initiator_depth = 1, .retry_count = 5, .rnr_retry_count = 3};
	struct rdma_cm_id *id;
	struct rdma_cm_event *ev;
	struct roce_mad_hdr h;
	struct roce_cm_req req;
	struct roce_cm_rep rep;
	struct roce_cm_rtu rtu;
	struct timespec t0, t1;
	uint8_t mad[ROCE_MAD_LEN];
	unsigned reqs = 0;
	uint16_t attr;
	struct ibv_pd *pd;
	struct ibv_cq *cq;

	CHECK(ch != NULL && rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, 2000) == 0);
	CHECK(rdma_ack_cm_event(event(ch, RDMA_CM_EVENT_ADDR_RESOLVED)) == 0);
	CHECK(rdma_resolve_route(id, 2000) == 0);
	CHECK(rdma_ack_cm_event(event(ch, RDMA_CM_EVENT_ROUTE_RESOLVED)) == 0);
	rc_qp(id, &pd, &cq);
	CHECK(rdma_connect(id, &param) == 0);
	CHECK(recv_mad(mad) == ROCE_CM_REQ);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	roce_mad_hdr_get(mad, &h);
	roce_cm_req_get(mad, &req);
	CHECK(req.local_qpn == id->qp->qp_num && req.service_id == roce_cm_service_id(ROCE_PS_TCP, port));
	CHECK(req.retry_count == 5 && req.rnr_retry_count == 3); /* conn_param's, as Linux's REQ */
	/* the application accepts 5.5 s later: the REQs sent meanwhile are duplicates, which Linux drops */
	for (;;) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = 5500 - ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0)
			break;
		if (poll(&pf, 1, (int)ms) == 1) {
			CHECK(recv_mad(mad) == ROCE_CM_REQ); /* its resend, nothing else */
			reqs++;
		}
	}
	rep = (struct roce_cm_rep){.local_comm_id = 0x5eed0001, .remote_comm_id = req.local_comm_id, .local_qpn = 0x11,
				   .starting_psn = 0x2345, .responder_resources = 1, .initiator_depth = 1,
				   .target_ack_delay = 15, .rnr_retry_count = 7, .local_ca_guid = 0x505400fffe770002ull};
	roce_cm_rep_put(mad, h.tid, &rep);
	send_mad(mad);
	do
		attr = recv_mad(mad);
	while (attr == ROCE_CM_REQ);
	CHECK(attr == ROCE_CM_RTU);
	roce_cm_rtu_get(mad, &rtu);
	CHECK(rtu.local_comm_id == req.local_comm_id && rtu.remote_comm_id == rep.local_comm_id);
	ev = event(ch, RDMA_CM_EVENT_ESTABLISHED);
	CHECK(ev->id == id && rdma_ack_cm_event(ev) == 0);
	printf("client: the REP 5.5 s after the REQ (%u REQ resends between): RTU, ESTABLISHED\n", reqs);
	rdma_destroy_qp(id);
	CHECK(ibv_destroy_cq(cq) == 0 && ibv_dealloc_pd(pd) == 0);
	CHECK(rdma_destroy_id(id) == 0);
	rdma_destroy_event_channel(ch);
}

/* The captured REQ, readdressed to this test's port and addresses, as comm ID comm_id from QPN qpn. */
static void linux_req(uint16_t port, uint32_t comm_id, uint32_t qpn, struct roce_cm_req *req, uint64_t *tid)
{
	uint8_t cap[400];
	struct roce_pkt pkt;
	struct roce_mad_hdr h;
	struct roce_cma_hdr cma;

	CHECK(roce_pkt_parse(cap, unhex(linux_rping_req, cap), &pkt) == ROCE_PARSE_OK);
	CHECK(roce_cm_mad_check(pkt.payload, pkt.payload_len, &h) && h.attr_id == ROCE_CM_REQ);
	roce_cm_req_get(pkt.payload, req);
	CHECK(roce_cma_hdr_get(req->private_data, &cma));
	req->local_comm_id = comm_id;
	req->local_qpn = qpn;
	req->service_id = roce_cm_service_id(ROCE_PS_TCP, port);
	roce_gid_from_ip4(req->primary.local_gid, PEER_IP);
	roce_gid_from_ip4(req->primary.remote_gid, SERVER_IP);
	memset(cma.src, 0, sizeof(cma.src));
	memset(cma.dst, 0, sizeof(cma.dst));
	roce_put32(cma.src + 12, PEER_IP);
	roce_put32(cma.dst + 12, SERVER_IP);
	roce_cma_hdr_put(req->private_data, &cma);
	*tid = h.tid + comm_id;
}

/* The next event on ch within 10 s (none: the check fails, no hang). */
static struct rdma_cm_event *event_within(struct rdma_event_channel *ch, enum rdma_cm_event_type want)
{
	struct pollfd pf = {.fd = ch->fd, .events = POLLIN};

	CHECK(poll(&pf, 1, 10000) == 1);
	return event(ch, want);
}

/*
 * The passive side after its REP, as Linux's: the client never answers (no RTU, no packet)
 * and the REQ asked for REP resends every 64 ms (CM response timeout 14), once: the server's id
 * gets UNREACHABLE with status -ETIMEDOUT (Linux's IB_CM_REP_ERROR); a client that answers the
 * REP with a REJ (reason 28, consumer defined) gives REJECTED with status 28. Both were
 * DISCONNECTED with status 0.
 */
static void server_rep_unanswered(uint16_t port)
{
	struct sockaddr_in srv = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(SERVER_IP)};
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_conn_param param = {.responder_resources = 1, .initiator_depth = 1};
	struct rdma_cm_id *lid, *id;
	struct rdma_cm_event *ev;
	uint8_t mad[ROCE_MAD_LEN];

	CHECK(ch != NULL && rdma_create_id(ch, &lid, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_bind_addr(lid, (struct sockaddr *)&srv) == 0 && rdma_listen(lid, 4) == 0);
	for (int round = 0; round < 2; round++) {
		struct roce_cm_req req;
		struct roce_cm_rep rep;
		struct ibv_pd *pd;
		struct ibv_cq *cq;
		uint64_t tid;
		int reps = 0;

		linux_req(port, 0x77770001u + (uint32_t)round, 0x21 + (uint32_t)round, &req, &tid);
		req.local_cm_timeout = 14; /* conv: 2^6 ms between the server's REP resends */
		req.max_cm_retries = 1;
		roce_cm_req_put(mad, tid, &req);
		send_mad(mad);
		ev = event_within(ch, RDMA_CM_EVENT_CONNECT_REQUEST);
		id = ev->id;
		CHECK(rdma_ack_cm_event(ev) == 0);
		rc_qp(id, &pd, &cq);
		{ /* more than the device's depths: EINVAL, as rdma-core; the request stays */
			struct rdma_conn_param over = param;

			over.responder_resources = 17;
			CHECK(rdma_accept(id, &over) == -1 && errno == EINVAL);
		}
		CHECK(rdma_accept(id, &param) == 0);
		CHECK(recv_mad(mad) == ROCE_CM_REP);
		roce_cm_rep_get(mad, &rep);
		CHECK(rep.remote_comm_id == req.local_comm_id);
		if (round == 0) {
			ev = event_within(ch, RDMA_CM_EVENT_UNREACHABLE);
			CHECK(ev->id == id && ev->status == -ETIMEDOUT);
			for (struct pollfd pf = {.fd = fd, .events = POLLIN}; poll(&pf, 1, 0) == 1; reps++)
				CHECK(recv_mad(mad) == ROCE_CM_REP); /* the resend */
			printf("server: REP unanswered (%d resent): UNREACHABLE, status %d\n", reps, ev->status);
		} else {
			struct roce_cm_rej rej = {.local_comm_id = req.local_comm_id, .remote_comm_id = rep.local_comm_id,
						  .msg_rejected = ROCE_CM_MSG_REP, .reason = 28};

			roce_cm_rej_put(mad, tid, &rej);
			send_mad(mad);
			ev = event_within(ch, RDMA_CM_EVENT_REJECTED);
			CHECK(ev->id == id && ev->status == 28);
			printf("server: REP answered by REJ 28: REJECTED, status %d\n", ev->status);
		}
		CHECK(rdma_ack_cm_event(ev) == 0);
		rdma_destroy_qp(id);
		CHECK(ibv_destroy_cq(cq) == 0 && ibv_dealloc_pd(pd) == 0);
		CHECK(rdma_destroy_id(id) == 0);
	}
	CHECK(rdma_destroy_id(lid) == 0);
	rdma_destroy_event_channel(ch);
}

/*
 * The QP's RNR retry count is the one the peer's REQ asked (as Linux's rdma_cm sets it on the
 * passive side): a REQ saying 0, and the client answers our SEND with an RNR NAK: the SEND
 * fails at once with IBV_WC_RNR_RETRY_EXC_ERR (it used to wait for ever: our own 7).
 */
static void server_rnr_from_req(uint16_t port)
{
	struct sockaddr_in srv = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(SERVER_IP)};
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_conn_param param = {.responder_resources = 1, .initiator_depth = 1, .rnr_retry_count = 7};
	struct rdma_cm_id *lid, *id;
	struct rdma_cm_event *ev;
	struct roce_cm_req req;
	struct roce_cm_rep rep;
	struct roce_cm_rtu rtu;
	struct ibv_mr *mr;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_wc wc;
	struct roce_pkt pkt, nak = {0};
	uint8_t mad[ROCE_MAD_LEN], buf[512];
	static uint8_t mem[16] = "rnr please";
	uint64_t tid;

	CHECK(ch != NULL && rdma_create_id(ch, &lid, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_bind_addr(lid, (struct sockaddr *)&srv) == 0 && rdma_listen(lid, 4) == 0);
	linux_req(port, 0x77780001u, 0x31, &req, &tid);
	req.rnr_retry_count = 0;
	roce_cm_req_put(mad, tid, &req);
	send_mad(mad);
	ev = event_within(ch, RDMA_CM_EVENT_CONNECT_REQUEST);
	id = ev->id;
	CHECK(ev->param.conn.rnr_retry_count == 0 && rdma_ack_cm_event(ev) == 0);
	rc_qp(id, &pd, &cq);
	mr = ibv_reg_mr(pd, mem, sizeof(mem), IBV_ACCESS_LOCAL_WRITE);
	CHECK(mr != NULL && rdma_accept(id, &param) == 0);
	CHECK(recv_mad(mad) == ROCE_CM_REP);
	roce_cm_rep_get(mad, &rep);
	CHECK(rep.rnr_retry_count == 7); /* what we ask of the client's QP */
	rtu = (struct roce_cm_rtu){.local_comm_id = req.local_comm_id, .remote_comm_id = rep.local_comm_id};
	roce_cm_rtu_put(mad, ROCE_CM_RTU, tid, &rtu);
	send_mad(mad);
	ev = event_within(ch, RDMA_CM_EVENT_ESTABLISHED);
	CHECK(ev->id == id && rdma_ack_cm_event(ev) == 0);
	post_send(id->qp, mr, mem, 10, 11);
	recv_pkt(buf, sizeof(buf), &pkt);
	CHECK(pkt.bth.opcode == ROCE_RC_SEND_ONLY && pkt.bth.dqpn == req.local_qpn && pkt.bth.psn == req.starting_psn);
	nak.bth.opcode = ROCE_RC_ACK;
	nak.bth.pkey = ROCE_PKEY_DEFAULT;
	nak.bth.dqpn = rep.local_qpn;
	nak.bth.psn = req.starting_psn;
	nak.aeth.syndrome = ROCE_AETH_RNR | 1; /* 0.01 ms */
	send_pkt(buf, roce_pkt_build(buf, sizeof(buf), &nak, NULL, 0));
	poll_one(cq, &wc);
	CHECK(wc.wr_id == 11 && wc.status == IBV_WC_RNR_RETRY_EXC_ERR);
	printf("server: the REQ's RNR retry count 0: our SEND, RNR NAKed once, fails (%s)\n", ibv_wc_status_str(wc.status));
	rdma_destroy_qp(id);
	CHECK(ibv_dereg_mr(mr) == 0 && ibv_destroy_cq(cq) == 0 && ibv_dealloc_pd(pd) == 0);
	CHECK(rdma_destroy_id(id) == 0 && rdma_destroy_id(lid) == 0);
	rdma_destroy_event_channel(ch);
}

int main(int argc, char **argv)
{
	uint16_t port = argc > 1 ? (uint16_t)atoi(argv[1]) : 13898;
	const uint8_t user_pdata[16] = "linux-req-pdata";
	const char rep_pdata[] = "softdoca-rep";
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(PEER_IP)};
	struct sockaddr_in srv = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(SERVER_IP)};
	uint8_t cap[400], mad[ROCE_MAD_LEN], buf[512];
	struct roce_pkt pkt;
	struct roce_mad_hdr h;
	struct roce_cm_req req;
	struct roce_cm_rep rep;
	struct roce_cma_hdr cma;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *lid, *id;
	struct rdma_cm_event *ev;
	struct rdma_conn_param param = {0};
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_sge sge;
	struct ibv_recv_wr rwr = {0}, *bad_r;
	struct ibv_wc wc;
	static uint8_t mem[64];
	int one = 1, pmtu = IP_PMTUDISC_DO;

	/* the capture is what Linux sent */
	CHECK(roce_pkt_parse(cap, unhex(linux_rping_req, cap), &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_UD_SEND_ONLY && pkt.bth.dqpn == 1 && roce_cm_mad_check(pkt.payload, pkt.payload_len, &h));
	CHECK(h.attr_id == ROCE_CM_REQ);
	roce_cm_req_get(pkt.payload, &req);
	CHECK(req.local_qpn == 0x13 && req.starting_psn == 0x1c5478 && req.responder_resources == 1 &&
	      req.initiator_depth == 1 && req.retry_count == 7 && req.rnr_retry_count == 7 && req.path_mtu == 3);
	CHECK(req.service_id == roce_cm_service_id(ROCE_PS_TCP, 7471) && req.primary.local_ack_timeout == 19);
	CHECK(roce_cma_hdr_get(req.private_data, &cma) && cma.src_port == 0xc573);
	CHECK(req.primary.flow_label == roce_cma_flow_label(0xc573, 7471));

	/* readdressed to this test's loopback addresses and port, with user private data */
	req.service_id = roce_cm_service_id(ROCE_PS_TCP, port);
	roce_gid_from_ip4(req.primary.local_gid, PEER_IP);
	roce_gid_from_ip4(req.primary.remote_gid, SERVER_IP);
	memset(cma.src, 0, sizeof(cma.src));
	memset(cma.dst, 0, sizeof(cma.dst));
	roce_put32(cma.src + 12, PEER_IP);
	roce_put32(cma.dst + 12, SERVER_IP);
	roce_cma_hdr_put(req.private_data, &cma);
	memcpy(req.private_data + ROCE_CMA_HDR_LEN, user_pdata, sizeof(user_pdata));

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(fd >= 0 && setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) == 0 &&
	      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0 &&
	      bind(fd, (struct sockaddr *)&me, sizeof(me)) == 0);

	ch = rdma_create_event_channel();
	CHECK(ch != NULL && rdma_create_id(ch, &lid, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_bind_addr(lid, (struct sockaddr *)&srv) == 0 && rdma_listen(lid, 4) == 0);

	roce_cm_req_put(mad, h.tid, &req);
	send_mad(mad);
	ev = event(ch, RDMA_CM_EVENT_CONNECT_REQUEST);
	id = ev->id;
	CHECK(ev->listen_id == lid && id != lid);
	CHECK(ev->param.conn.responder_resources == 1 && ev->param.conn.initiator_depth == 1);
	CHECK(ev->param.conn.retry_count == 7 && ev->param.conn.rnr_retry_count == 7 && ev->param.conn.qp_num == 0x13);
	CHECK(ev->param.conn.private_data_len == 56 && memcmp(ev->param.conn.private_data, user_pdata, 16) == 0);
	{
		const struct sockaddr_in *peer = (const struct sockaddr_in *)rdma_get_peer_addr(id);
		const struct sockaddr_in *local = (const struct sockaddr_in *)rdma_get_local_addr(id);

		CHECK(peer->sin_family == AF_INET && ntohl(peer->sin_addr.s_addr) == PEER_IP && ntohs(peer->sin_port) == 0xc573);
		CHECK(ntohl(local->sin_addr.s_addr) == SERVER_IP && ntohs(local->sin_port) == port);
	}
	CHECK(rdma_ack_cm_event(ev) == 0);

	/* the application's QP, a receive and remotely writable memory, then the accept */
	rc_qp(id, &pd, &cq);
	mr = ibv_reg_mr(pd, mem, sizeof(mem), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	CHECK(mr != NULL);
	sge = (struct ibv_sge){.addr = (uintptr_t)mem, .length = 16, .lkey = mr->lkey};
	rwr.sg_list = &sge;
	rwr.num_sge = 1;
	rwr.wr_id = 7;
	CHECK(ibv_post_recv(id->qp, &rwr, &bad_r) == 0);
	param.private_data = rep_pdata;
	param.private_data_len = sizeof(rep_pdata);
	param.responder_resources = 1;
	param.initiator_depth = 1;
	param.rnr_retry_count = 2;
	CHECK(rdma_accept(id, &param) == 0);

	CHECK(recv_mad(mad) == ROCE_CM_REP);
	roce_cm_rep_get(mad, &rep);
	CHECK(rep.remote_comm_id == req.local_comm_id && rep.local_qpn != 0);
	CHECK(rep.local_qpn == id->qp->qp_num); /* as rdma-core: qp_num is the QPN on the wire */
	CHECK(memcmp(rep.private_data, rep_pdata, sizeof(rep_pdata)) == 0);
	CHECK(rep.responder_resources == 1 && rep.initiator_depth == 1); /* rdma_accept's, as Linux */
	CHECK(rep.rnr_retry_count == 2);
	printf("REP: QPN 0x%06x, starting PSN 0x%06x\n", rep.local_qpn, rep.starting_psn);

	/*
	 * Our RTU is "lost": Linux's first SEND to the REP's QPN from the REP's PSN lands in the QP's
	 * receive and establishes the connection (COMM_EST), as Linux's passive side does
	 */
	send_rc(ROCE_RC_SEND_ONLY, rep.local_qpn, rep.starting_psn, NULL, "from linux 16 b", 16);
	recv_pkt(buf, sizeof(buf), &pkt);
	CHECK(pkt.bth.opcode == ROCE_RC_ACK && pkt.bth.dqpn == req.local_qpn && pkt.bth.psn == rep.starting_psn);
	CHECK((pkt.aeth.syndrome & ROCE_AETH_KIND) == ROCE_AETH_ACK);
	poll_one(cq, &wc);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RECV && wc.wr_id == 7 && wc.byte_len == 16);
	CHECK(wc.qp_num == rep.local_qpn && wc.src_qp == req.local_qpn);
	CHECK(memcmp(mem, "from linux 16 b", 16) == 0);
	ev = event(ch, RDMA_CM_EVENT_ESTABLISHED);
	CHECK(ev->id == id && rdma_ack_cm_event(ev) == 0);
	{ /* the RTU that comes late changes nothing */
		struct roce_cm_rtu rtu = {.local_comm_id = req.local_comm_id, .remote_comm_id = rep.local_comm_id};

		roce_cm_rtu_put(mad, ROCE_CM_RTU, h.tid, &rtu);
		send_mad(mad);
	}

	/* an RDMA WRITE by the MR's rkey: the R_Key on the wire */
	{
		struct roce_reth reth = {.va = (uintptr_t)(mem + 32), .rkey = mr->rkey, .len = 8};

		send_rc(ROCE_RC_WRITE_ONLY, rep.local_qpn, roce_psn_add(rep.starting_psn, 1), &reth, "written!", 8);
		recv_pkt(buf, sizeof(buf), &pkt);
		CHECK(pkt.bth.opcode == ROCE_RC_ACK && pkt.bth.psn == roce_psn_add(rep.starting_psn, 1));
		CHECK((pkt.aeth.syndrome & ROCE_AETH_KIND) == ROCE_AETH_ACK);
		CHECK(memcmp(mem + 32, "written!", 8) == 0);
	}

	/* the QP sends to the REQ's QPN, from the REQ's starting PSN */
	memcpy(mem + 48, "to linux", 8);
	post_send(id->qp, mr, mem + 48, 8, 9);
	recv_pkt(buf, sizeof(buf), &pkt);
	CHECK(pkt.bth.opcode == ROCE_RC_SEND_ONLY && pkt.bth.dqpn == req.local_qpn && pkt.bth.psn == req.starting_psn);
	CHECK(pkt.payload_len == 8 && memcmp(pkt.payload, "to linux", 8) == 0);
	{
		struct roce_pkt ack = {0};

		ack.bth.opcode = ROCE_RC_ACK;
		ack.bth.pkey = ROCE_PKEY_DEFAULT;
		ack.bth.dqpn = rep.local_qpn;
		ack.bth.psn = req.starting_psn;
		ack.aeth.syndrome = ROCE_AETH_ACK | 0x1f;
		ack.aeth.msn = 1;
		send_pkt(buf, roce_pkt_build(buf, sizeof(buf), &ack, NULL, 0));
	}
	poll_one(cq, &wc);
	CHECK(wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_SEND && wc.wr_id == 9);

	/* Linux's DREQ names the REP's QPN: DREP, DISCONNECTED */
	{
		struct roce_cm_dreq dreq = {.local_comm_id = req.local_comm_id, .remote_comm_id = rep.local_comm_id,
					    .remote_qpn = rep.local_qpn};
		struct roce_mad_hdr dh;

		roce_cm_dreq_put(mad, 0x1234abcdull, &dreq);
		send_mad(mad);
		CHECK(recv_mad(mad) == ROCE_CM_DREP);
		roce_mad_hdr_get(mad, &dh);
		CHECK(dh.tid == 0x1234abcdull);
	}
	ev = event(ch, RDMA_CM_EVENT_DISCONNECTED);
	CHECK(ev->id == id && rdma_ack_cm_event(ev) == 0);

	rdma_destroy_qp(id);
	CHECK(ibv_dereg_mr(mr) == 0 && ibv_destroy_cq(cq) == 0 && ibv_dealloc_pd(pd) == 0);
	CHECK(rdma_destroy_id(id) == 0 && rdma_destroy_id(lid) == 0);
	rdma_destroy_event_channel(ch);
	client_waits_for_slow_accept((uint16_t)(port + 1));
	server_rep_unanswered((uint16_t)(port + 2));
	server_rnr_from_req((uint16_t)(port + 3));
	close(fd);
	printf("ok: Linux rping's REQ -> CONNECT_REQUEST, the REP names the QP, SEND / WRITE / SEND both ways, DREQ\n");
	return 0;
}
