/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The hand-played Linux RDMA-CM peer of the wire tests (test_rdma_roce_cm_wire,
 * test_rdma_roce_cm_dead): CM MADs to and from QP1 over a plain UDP socket, each with its ICRC.
 */
#ifndef ROCE_WIRE_TEST_H
#define ROCE_WIRE_TEST_H

#include "roce_test.h"
#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"

/* One CM MAD from src to QP1 at dst (UD SEND_ONLY to UDP port 4791, DETH Q_Key qkey). */
static inline void wire_send_mad(int sock, uint32_t src, uint32_t dst, uint32_t qkey, const uint8_t *mad)
{
	uint8_t d[512];
	struct roce_pkt pkt = {0};
	struct roce_ip4 v4 = {.src = src, .dst = dst, .id = 0, .frag = ROCE_IP4_DF};
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(dst)};
	size_t n;

	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.bth.ack_req = true;
	pkt.deth.qkey = qkey;
	pkt.deth.sqpn = 1;
	n = roce_pkt_build(d, sizeof(d), &pkt, mad, ROCE_MAD_LEN);
	CHECK(n == 280);
	roce_icrc_store(d, n, roce_icrc_ip4(&v4, ROCE_UDP_PORT, ROCE_UDP_PORT, d, n));
	CHECK(sendto(sock, d, n, 0, (struct sockaddr *)&to, sizeof(to)) == (ssize_t)n);
}

/*
 * The next CM MAD from src to dst within secs (progressing s if not NULL, else napping): a UD
 * SEND_ONLY from QP1 to QP1 whose ICRC holds for some IPv4 ID. Its UDP source port and that
 * ID in *sport and *ip_id (either may be NULL). False when none came.
 */
static inline bool wire_recv_mad(struct side *s, int sock, uint32_t src, uint32_t dst, uint8_t *mad,
				 struct roce_mad_hdr *hdr, double secs, uint16_t *sport, uint16_t *ip_id)
{
	double end = now_s() + secs;

	while (now_s() < end) {
		uint8_t d[512];
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(sock, d, sizeof(d), MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		struct roce_ip4 v4 = {.src = src, .dst = dst, .frag = ROCE_IP4_DF};
		struct roce_pkt pkt;
		uint16_t id = 1;

		if (n <= 0) {
			if (s == NULL || doca_pe_progress(s->pe) == 0)
				nap();
			continue;
		}
		CHECK(ntohl(from.sin_addr.s_addr) == src);
		CHECK(roce_icrc_solve_ip4_id(&v4, ntohs(from.sin_port), ROCE_UDP_PORT, d, (size_t)n, &id));
		CHECK(roce_pkt_parse(d, (size_t)n, &pkt) == ROCE_PARSE_OK);
		CHECK(pkt.bth.opcode == ROCE_UD_SEND_ONLY && pkt.bth.dqpn == 1 && pkt.deth.sqpn == 1 &&
		      pkt.deth.qkey == ROCE_QP1_QKEY);
		CHECK(roce_cm_mad_check(pkt.payload, pkt.payload_len, hdr));
		memcpy(mad, pkt.payload, ROCE_MAD_LEN);
		if (sport != NULL)
			*sport = ntohs(from.sin_port);
		if (ip_id != NULL)
			*ip_id = id;
		return true;
	}
	return false;
}

/*
 * A REQ as Linux 6.1 rdma_cm over rxe sends it (docs/rocev2.md, tests/unit/roce/test_roce_cm.c):
 * from QPN qpn at peer to the RDMA-CM port at srv, TID 0x0000000a << 32 | comm_id; user, if
 * not NULL, is the consumer's private data after the IP addressing header.
 */
static inline void wire_linux_req(uint8_t *mad, uint32_t peer, uint32_t srv, uint32_t comm_id, uint32_t qpn,
				  uint16_t port, const char *user)
{
	struct roce_cma_hdr cma = {.cma_version = 0, .ip_version = 4, .src_port = 0xa1b2};
	struct roce_cm_req req;

	memset(&req, 0, sizeof(req));
	req.local_comm_id = comm_id;
	req.service_id = roce_cm_service_id(ROCE_PS_TCP, port);
	req.local_ca_guid = 0x505400fffe123456ull;
	req.local_qpn = qpn;
	req.responder_resources = req.initiator_depth = 128;
	req.remote_cm_timeout = req.local_cm_timeout = 20;
	req.transport = ROCE_CM_TRANSPORT_RC;
	req.starting_psn = 0x3c4d5e;
	req.retry_count = req.rnr_retry_count = 7;
	req.pkey = 0xffff;
	req.path_mtu = 3;
	req.max_cm_retries = 15;
	req.primary.local_lid = req.primary.remote_lid = 0xffff;
	roce_gid_from_ip4(req.primary.local_gid, peer);
	roce_gid_from_ip4(req.primary.remote_gid, srv);
	req.primary.hop_limit = 64;
	req.primary.flow_label = roce_cma_flow_label(cma.src_port, port); /* as Linux 6.1 */
	req.primary.local_ack_timeout = 17;
	roce_put32(cma.src + 12, peer);
	roce_put32(cma.dst + 12, srv);
	roce_cma_hdr_put(req.private_data, &cma);
	if (user != NULL)
		memcpy(req.private_data + ROCE_CMA_HDR_LEN, user, strlen(user));
	roce_cm_req_put(mad, 0x0000000a00000000ull | comm_id, &req);
}

/* A REP as Linux's rdma_cm sends it to our REQ (TID tid, our comm ID remote_id). */
static inline void wire_linux_rep(uint8_t *mad, uint64_t tid, uint32_t comm_id, uint32_t remote_id, uint32_t qpn,
				  uint32_t psn)
{
	struct roce_cm_rep rep;

	memset(&rep, 0, sizeof(rep));
	rep.local_comm_id = comm_id;
	rep.remote_comm_id = remote_id;
	rep.local_qpn = qpn;
	rep.starting_psn = psn;
	rep.responder_resources = rep.initiator_depth = 128;
	rep.target_ack_delay = 15;
	rep.rnr_retry_count = 7;
	rep.local_ca_guid = 0x505400fffe123456ull;
	roce_cm_rep_put(mad, tid, &rep);
}

#endif
