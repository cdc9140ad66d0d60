/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IB CM MADs over RoCEv2 (lib/softhw/rnic/roce_cm_mad.c): byte offsets of every message,
 * round trips, the MAD checks Linux's MAD layer makes, RDMA-CM's service ID and IP header,
 * a whole REQ datagram to QP1 as Linux 6.1 rdma_cm sends it, and packets Linux 6.1 rdma_rxe
 * really sent (captured by tests/interop).
 */
#include <stdint.h>
#include <string.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"
#include "test.h"

#define CM(off) (ROCE_MAD_HDR_LEN + (off)) /* MAD offset of a CM data offset */

/* A REQ with the values measured from Linux 6.1 rdma_cm (active side, port 7471, rxe). */
static void linux_req(struct roce_cm_req *req)
{
	struct roce_cma_hdr cma = { .cma_version = 0, .ip_version = 4, .src_port = 0xa1b2 };

	memset(req, 0, sizeof(*req));
	req->local_comm_id = 0x8badf00d;
	req->service_id = roce_cm_service_id(ROCE_PS_TCP, 7471);
	req->local_ca_guid = 0x505400fffe123456ull; /* EUI-64 of MAC 52:54:00:12:34:56 */
	req->local_qpn = 0x000011;
	req->responder_resources = 128;
	req->initiator_depth = 128;
	req->remote_cm_timeout = 20;
	req->transport = ROCE_CM_TRANSPORT_RC;
	req->flow_control = false;
	req->starting_psn = 0x3c4d5e;
	req->local_cm_timeout = 20;
	req->retry_count = 7;
	req->pkey = 0xffff;
	req->path_mtu = 3; /* 1024 */
	req->rnr_retry_count = 7;
	req->max_cm_retries = 15;
	req->primary.local_lid = 0xffff;
	req->primary.remote_lid = 0xffff;
	roce_gid_from_ip4(req->primary.local_gid, 0x0a000001);
	roce_gid_from_ip4(req->primary.remote_gid, 0x0a000002);
	req->primary.hop_limit = 64;
	req->primary.local_ack_timeout = 17;
	roce_put32(cma.src + 12, 0x0a000001);
	roce_put32(cma.dst + 12, 0x0a000002);
	roce_cma_hdr_put(req->private_data, &cma);
	memcpy(req->private_data + ROCE_CMA_HDR_LEN, "user", 4);
}

static void test_req_bytes(void)
{
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_cm_req req, back;
	struct roce_mad_hdr hdr;

	linux_req(&req);
	CHECK(req.service_id == 0x0000000001061d2full);
	roce_cm_req_put(mad, 0x0000000a8badf00dull, &req);
	{
		static const uint8_t want_hdr[ROCE_MAD_HDR_LEN] = {
			0x01, 0x07, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x0a, 0x8b, 0xad, 0xf0, 0x0d,
			0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		};
		CHECK(memcmp(mad, want_hdr, sizeof(want_hdr)) == 0);
	}
	{
		/* CM data bytes 0..95: IDs, the connection fields and the primary path. */
		static const uint8_t want[96] = {
			0x8b, 0xad, 0xf0, 0x0d, 0x00, 0x00, 0x00, 0x00,             /* comm ID, vendor */
			0x00, 0x00, 0x00, 0x00, 0x01, 0x06, 0x1d, 0x2f,             /* service ID */
			0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56,             /* CA GUID */
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,             /* rsvd, Q_Key */
			0x00, 0x00, 0x11, 0x80, 0x00, 0x00, 0x00, 0x80,             /* QPN, RR, EECN, ID */
			0x00, 0x00, 0x00, 0xa0, 0x3c, 0x4d, 0x5e, 0xa7,             /* rEECN, tmo/RC, PSN, tmo/retry */
			0xff, 0xff, 0x37, 0xf0,                                     /* P_Key, MTU/RNR, CM retries */
			0xff, 0xff, 0xff, 0xff,                                     /* LIDs */
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0a, 0x00, 0x00, 0x01,
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0a, 0x00, 0x00, 0x02,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x88,             /* flow/rate, TC, hop, SL, ACK tmo */
		};
		CHECK(memcmp(mad + CM(0), want, sizeof(want)) == 0);
	}
	/* No alternate path; private data at CM offset 140 = MAD 164: the IP CM header. */
	for (int i = 96; i < 140; i++)
		CHECK(mad[CM(i)] == 0);
	{
		static const uint8_t want_cma[40] = {
			0x00, 0x40, 0xa1, 0xb2,
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x00, 0x00, 0x01,
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x00, 0x00, 0x02,
			'u', 's', 'e', 'r',
		};
		CHECK(memcmp(mad + 164, want_cma, sizeof(want_cma)) == 0);
	}
	CHECK(roce_cm_mad_check(mad, sizeof(mad), &hdr));
	CHECK(hdr.attr_id == ROCE_CM_REQ && hdr.tid == 0x0000000a8badf00dull);
	roce_cm_req_get(mad, &back);
	CHECK(memcmp(&back, &req, sizeof(req)) == 0);
	{
		struct roce_cma_hdr cma;
		uint16_t ps = 0, port = 0;

		CHECK(roce_cma_hdr_get(back.private_data, &cma));
		CHECK(cma.ip_version == 4 && cma.src_port == 0xa1b2 && cma.dst[15] == 2);
		CHECK(roce_cm_service_parse(back.service_id, &ps, &port));
		CHECK(ps == ROCE_PS_TCP && port == 7471);
	}
}

/* Every bit field at its extreme, both ways, so no two fields overlap. */
static void test_req_fields(void)
{
	uint8_t mad[ROCE_MAD_LEN], mad2[ROCE_MAD_LEN];
	struct roce_cm_req req, back;

	memset(&req, 0, sizeof(req));
	req.vendor_id = 0xabcdef;
	req.local_qkey = 0x01234567;
	req.local_eecn = 0xfffffe;
	req.remote_eecn = 0x7fffff;
	req.transport = 3;
	req.flow_control = true;
	req.rdc_exists = true;
	req.srq = true;
	req.ext_transport = 1;
	req.alternate.local_lid = 0x1234;
	req.alternate.flow_label = 0xfffff;
	req.alternate.packet_rate = 0x3f;
	req.alternate.sl = 0xf;
	req.alternate.subnet_local = true;
	req.alternate.local_ack_timeout = 31;
	req.alternate.traffic_class = 0xb8;
	roce_cm_req_put(mad, 1, &req);
	CHECK(mad[CM(4)] == 0 && roce_get24(mad + CM(5)) == 0xabcdef);
	CHECK(mad[CM(43)] == 0x07);
	CHECK(mad[CM(50)] == 0x08 && mad[CM(51)] == 0x09);
	CHECK(roce_get32(mad + CM(96 + 36)) == 0xfffff03f);
	CHECK(mad[CM(96 + 40)] == 0xb8 && mad[CM(96 + 42)] == 0xf8 && mad[CM(96 + 43)] == 0xf8);
	roce_cm_req_get(mad, &back);
	CHECK(memcmp(&back, &req, sizeof(req)) == 0);
	/* Over-wide values are cut to their fields and spill into no neighbour. */
	req.local_qpn = 0xff000001;
	req.retry_count = 0xff;
	req.local_cm_timeout = 0;
	req.path_mtu = 0x13;
	req.rnr_retry_count = 0;
	req.rdc_exists = false;
	roce_cm_req_put(mad2, 1, &req);
	CHECK(roce_get24(mad2 + CM(32)) == 1 && mad2[CM(31)] == 0x67 && mad2[CM(35)] == 0);
	CHECK(mad2[CM(47)] == 0x07 && mad2[CM(50)] == 0x30);
}

static void test_rep(void)
{
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_cm_rep rep, back;
	struct roce_mad_hdr hdr;

	memset(&rep, 0, sizeof(rep)); /* padding too: compared with memcmp */
	rep.local_comm_id = 0x11111111;
	rep.remote_comm_id = 0x8badf00d;
	rep.local_qpn = 0x000012;
	rep.starting_psn = 0xabcdef;
	rep.responder_resources = 128;
	rep.initiator_depth = 128;
	rep.target_ack_delay = 15;
	rep.rnr_retry_count = 7;
	rep.local_ca_guid = 0x505400fffe654321ull;
	memcpy(rep.private_data, "rep", 3);
	roce_cm_rep_put(mad, 0x0000000a8badf00dull, &rep);
	CHECK(roce_cm_mad_check(mad, sizeof(mad), &hdr) && hdr.attr_id == ROCE_CM_REP);
	{
		static const uint8_t want[40] = {
			0x11, 0x11, 0x11, 0x11, 0x8b, 0xad, 0xf0, 0x0d, 0x00, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0xab, 0xcd, 0xef, 0x00,
			0x80, 0x80, 0x78, 0xe0,
			0x50, 0x54, 0x00, 0xff, 0xfe, 0x65, 0x43, 0x21,
			'r', 'e', 'p', 0,
		};
		CHECK(memcmp(mad + CM(0), want, sizeof(want)) == 0);
	}
	roce_cm_rep_get(mad, &back);
	CHECK(memcmp(&back, &rep, sizeof(rep)) == 0);
	/* The ECE vendor ID sits in the three bytes after the 24-bit fields. */
	rep.vendor_id = 0x0a0b0c;
	rep.failover_accepted = 1;
	rep.flow_control = true;
	rep.srq = true;
	roce_cm_rep_put(mad, 2, &rep);
	CHECK(mad[CM(15)] == 0x0a && mad[CM(19)] == 0x0b && mad[CM(23)] == 0x0c);
	CHECK(roce_get24(mad + CM(12)) == 0x12 && roce_get24(mad + CM(20)) == 0xabcdef);
	CHECK(mad[CM(26)] == 0x7b && mad[CM(27)] == 0xf0);
	roce_cm_rep_get(mad, &back);
	CHECK(memcmp(&back, &rep, sizeof(rep)) == 0);
}

static void test_rtu_drep(void)
{
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_cm_rtu rtu = { .local_comm_id = 1, .remote_comm_id = 2 }, back;
	struct roce_mad_hdr hdr;

	memset(rtu.private_data, 0x5a, sizeof(rtu.private_data));
	roce_cm_rtu_put(mad, ROCE_CM_RTU, 7, &rtu);
	CHECK(roce_cm_mad_check(mad, sizeof(mad), &hdr) && hdr.attr_id == ROCE_CM_RTU);
	CHECK(roce_get32(mad + CM(0)) == 1 && roce_get32(mad + CM(4)) == 2);
	CHECK(mad[CM(8)] == 0x5a && mad[ROCE_MAD_LEN - 1] == 0x5a);
	roce_cm_rtu_get(mad, &back);
	CHECK(memcmp(&back, &rtu, sizeof(rtu)) == 0);
	roce_cm_rtu_put(mad, ROCE_CM_DREP, 8, &rtu);
	CHECK(roce_cm_mad_check(mad, sizeof(mad), &hdr) && hdr.attr_id == ROCE_CM_DREP);
	CHECK(hdr.tid == 8);
}

static void test_rej_mra_dreq(void)
{
	uint8_t mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;

	{
		struct roce_cm_rej rej = { 0 }, back;

		rej.remote_comm_id = 0x8badf00d;
		rej.msg_rejected = ROCE_CM_MSG_REQ;
		rej.reason = ROCE_CM_REJ_INVALID_SERVICE_ID;
		rej.private_data[147] = 0xee;
		roce_cm_rej_put(mad, 3, &rej);
		CHECK(roce_cm_mad_check(mad, sizeof(mad), &hdr) && hdr.attr_id == ROCE_CM_REJ);
		CHECK(roce_get32(mad + CM(0)) == 0 && roce_get32(mad + CM(4)) == 0x8badf00d);
		CHECK(mad[CM(8)] == 0 && mad[CM(9)] == 0 && roce_get16(mad + CM(10)) == 8);
		CHECK(mad[ROCE_MAD_LEN - 1] == 0xee);
		rej.msg_rejected = ROCE_CM_MSG_OTHER;
		rej.ari_len = 16;
		rej.reason = ROCE_CM_REJ_INVALID_GID;
		rej.ari[0] = 0xfe;
		rej.private_data[0] = 0x44;
		roce_cm_rej_put(mad, 3, &rej);
		CHECK(mad[CM(8)] == 0x80 && mad[CM(9)] == 0x20 && mad[CM(12)] == 0xfe);
		CHECK(mad[CM(84)] == 0x44);
		roce_cm_rej_get(mad, &back);
		CHECK(memcmp(&back, &rej, sizeof(rej)) == 0);
	}
	{
		struct roce_cm_mra mra = { 0 }, back;

		mra.local_comm_id = 5;
		mra.remote_comm_id = 6;
		mra.msg_mraed = ROCE_CM_MSG_REP;
		mra.service_timeout = 24;
		mra.private_data[0] = 0x77;
		roce_cm_mra_put(mad, 4, &mra);
		CHECK(roce_cm_mad_check(mad, sizeof(mad), &hdr) && hdr.attr_id == ROCE_CM_MRA);
		CHECK(mad[CM(8)] == 0x40 && mad[CM(9)] == 0xc0 && mad[CM(10)] == 0x77);
		roce_cm_mra_get(mad, &back);
		CHECK(memcmp(&back, &mra, sizeof(mra)) == 0);
	}
	{
		struct roce_cm_dreq dreq = { 0 }, back;

		dreq.local_comm_id = 9;
		dreq.remote_comm_id = 10;
		dreq.remote_qpn = 0x000012;
		dreq.private_data[219] = 1;
		roce_cm_dreq_put(mad, 5, &dreq);
		CHECK(roce_cm_mad_check(mad, sizeof(mad), &hdr) && hdr.attr_id == ROCE_CM_DREQ);
		CHECK(roce_get24(mad + CM(8)) == 0x12 && mad[CM(11)] == 0);
		CHECK(mad[ROCE_MAD_LEN - 1] == 1);
		roce_cm_dreq_get(mad, &back);
		CHECK(memcmp(&back, &dreq, sizeof(dreq)) == 0);
	}
}

/* What Linux's MAD layer would drop. */
static void test_mad_check(void)
{
	uint8_t mad[ROCE_MAD_LEN + 1];
	struct roce_mad_hdr hdr;
	struct roce_cm_rtu rtu = { 0 };

	roce_cm_rtu_put(mad, ROCE_CM_RTU, 1, &rtu);
	CHECK(roce_cm_mad_check(mad, ROCE_MAD_LEN, &hdr));
	CHECK(!roce_cm_mad_check(mad, ROCE_MAD_LEN - 1, &hdr));
	CHECK(!roce_cm_mad_check(mad, ROCE_MAD_LEN + 1, &hdr));
	CHECK(!roce_cm_mad_check(mad, 10, &hdr));
	for (int byte = 0; byte < 4; byte++) {
		mad[byte] ^= 0x80;
		CHECK(!roce_cm_mad_check(mad, ROCE_MAD_LEN, &hdr));
		mad[byte] ^= 0x80;
	}
	/* Header round trip with every field set. */
	{
		struct roce_mad_hdr h = { 1, 0x81, 3, 0x81, 0x1c, 0xbeef, 0x0102030405060708ull,
			0x0019, 0xa0b0c0d0 }, back;

		roce_mad_hdr_put(mad, &h);
		roce_mad_hdr_get(mad, &back);
		CHECK(back.base_version == 1 && back.mgmt_class == 0x81 && back.class_version == 3);
		CHECK(back.method == 0x81 && back.status == 0x1c && back.class_specific == 0xbeef);
		CHECK(back.tid == h.tid && back.attr_id == 0x19 && back.attr_mod == 0xa0b0c0d0);
		CHECK(mad[18] == 0 && mad[19] == 0 && mad[20] == 0xa0);
	}
}

static void test_service_and_ip(void)
{
	uint16_t ps = 0, port = 0;
	uint8_t gid[16];
	uint32_t addr = 0;
	struct roce_cma_hdr cma;
	uint8_t pdata[ROCE_CMA_HDR_LEN] = { 0 };

	CHECK(roce_cm_service_id(ROCE_PS_TCP, 4420) == 0x0000000001061144ull);
	CHECK(roce_cm_service_id(ROCE_PS_UDP, 1) == 0x0000000001110001ull);
	CHECK(roce_cm_service_parse(0x0000000001061144ull, &ps, &port) && ps == ROCE_PS_TCP &&
		port == 4420);
	CHECK(roce_cm_service_parse(0x00000000013f0007ull, &ps, &port) && ps == ROCE_PS_IB);
	CHECK(!roce_cm_service_parse(0x0000000000021d2full, &ps, &port)); /* IPoIB: no IP CM */
	CHECK(!roce_cm_service_parse(0x1000000001061d2full, &ps, &port));
	roce_gid_from_ip4(gid, 0xc0a80007);
	{
		static const uint8_t want[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 168, 0, 7 };
		CHECK(memcmp(gid, want, 16) == 0);
	}
	CHECK(roce_gid_to_ip4(gid, &addr) && addr == 0xc0a80007);
	gid[10] = 0;
	CHECK(!roce_gid_to_ip4(gid, &addr));
	/* The header Linux RDMA-CM refuses (REJ 28): version not 0, IP version not 4/6. */
	pdata[1] = 0x60;
	CHECK(roce_cma_hdr_get(pdata, &cma) && cma.ip_version == 6);
	pdata[1] = 0x50;
	CHECK(!roce_cma_hdr_get(pdata, &cma));
	pdata[1] = 0x40;
	pdata[0] = 1;
	CHECK(!roce_cma_hdr_get(pdata, &cma));
}

static void test_times(void)
{
	CHECK(roce_time_ns(0) == 4096);
	CHECK(roce_time_ns(20) == 4096ull << 20); /* CM response timeout 20: 4.29 s */
	CHECK(roce_time_ns(17) / 1000 == 536870);  /* ACK timeout 17: 537 ms */
	/* rxe's CA ACK delay 15 with RDMA-CM's packet lifetimes 16 (newer) and 18 (older). */
	CHECK(roce_cm_ack_timeout(15, 16) == 17);
	CHECK(roce_cm_ack_timeout(15, 18) == 19);
	/* Lifetime + 1 equal to or one above the delay: one more. */
	CHECK(roce_cm_ack_timeout(15, 14) == 16);
	CHECK(roce_cm_ack_timeout(15, 15) == 17);
	/* Far below the delay: the delay itself; just below it: one more. */
	CHECK(roce_cm_ack_timeout(15, 0) == 15);
	CHECK(roce_cm_ack_timeout(15, 13) == 16);
	CHECK(roce_cm_ack_timeout(0, 0) == 2);
	CHECK(roce_cm_ack_timeout(31, 31) == 31);
	CHECK(roce_cm_ack_timeout(10, 30) == 31);
}

/* The REQ inside its datagram: UD SEND_ONLY to QP1, 280 bytes of UDP payload, valid ICRC. */
static void test_req_datagram(void)
{
	uint8_t mad[ROCE_MAD_LEN], udp[512], ip[20 + 8 + 512];
	struct roce_pkt pkt = { 0 }, got;
	struct roce_cm_req req, back;
	struct roce_ip4 v4 = { .src = 0x0a000001, .dst = 0x0a000002, .id = 0, .frag = ROCE_IP4_DF };
	struct roce_mad_hdr hdr;
	uint32_t icrc = 0;
	uint16_t id = 0xffff;
	size_t n;

	linux_req(&req);
	roce_cm_req_put(mad, 0x1234, &req);
	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.bth.ack_req = true; /* QP1 (GSI) keeps AckReq */
	pkt.bth.psn = 0x10;
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	n = roce_pkt_build(udp, sizeof(udp), &pkt, mad, sizeof(mad));
	CHECK(n == 280);
	roce_icrc_store(udp, n, roce_icrc_ip4(&v4, 0xd872, ROCE_UDP_PORT, udp, n));

	/* As the receiver sees it: parse, QP1 checks, the MAD. */
	CHECK(roce_pkt_parse(udp, n, &got) == ROCE_PARSE_OK);
	CHECK(got.bth.dqpn == 1 && got.deth.qkey == ROCE_QP1_QKEY && got.deth.sqpn == 1);
	CHECK(got.bth.pad == 0 && got.payload_len == ROCE_MAD_LEN);
	CHECK(roce_cm_mad_check(got.payload, got.payload_len, &hdr) && hdr.attr_id == ROCE_CM_REQ);
	roce_cm_req_get(got.payload, &back);
	CHECK(memcmp(&back, &req, sizeof(req)) == 0);
	CHECK(roce_icrc_solve_ip4_id(&v4, 0xd872, ROCE_UDP_PORT, udp, n, &id) && id == 0);

	/* The whole IPv4 packet: total length 308, UDP length 288. */
	memset(ip, 0, 28);
	ip[0] = 0x45;
	roce_put16(ip + 2, (uint16_t)(28 + n));
	roce_put16(ip + 6, ROCE_IP4_DF);
	ip[8] = 64;
	ip[9] = 17;
	roce_put32(ip + 12, v4.src);
	roce_put32(ip + 16, v4.dst);
	roce_put16(ip + 20, 0xd872);
	roce_put16(ip + 22, ROCE_UDP_PORT);
	roce_put16(ip + 24, (uint16_t)(8 + n));
	memcpy(ip + 28, udp, n);
	CHECK(roce_get16(ip + 2) == 308 && roce_get16(ip + 24) == 288);
	CHECK(roce_icrc_ip_packet(ip, 28 + n, &icrc) && icrc == roce_icrc_load(udp, n));
}

/*
 * Three IPv4 packets Linux 6.1 rdma_rxe sent to roce_probe (tests/interop, captured on the tap):
 * rdma_server's REP on QP1, the ACK of our SEND and its own SEND of 16 bytes. What they pin:
 * the ICRC rule with rxe's real (non-zero, hashed) IPv4 IDs, the ID solve, AckReq on QP1, the
 * REP layout as Linux fills it, and the RC QP's UDP source port (roce_udp_sport_rc).
 */
static const uint8_t rxe_rep_head[108] = {
	0x45, 0x00, 0x01, 0x34, 0x9f, 0x8b, 0x40, 0x00, 0x40, 0x11, 0x85, 0x91,
	0x0a, 0x4d, 0x00, 0x02, 0x0a, 0x4d, 0x00, 0x01, 0xd8, 0x72, 0x12, 0xb7,
	0x01, 0x20, 0x00, 0x00, 0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
	0x80, 0x00, 0x00, 0x01, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x01, 0x07, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5f,
	0x12, 0x66, 0x31, 0x01, 0x00, 0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x46, 0xe6, 0x2f, 0x78, 0x5f, 0x12, 0x66, 0x31, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00, 0x71, 0xca, 0x33, 0x00,
	0x01, 0x01, 0x78, 0xe0, 0x50, 0x54, 0x00, 0xff, 0xfe, 0x77, 0x00, 0x02,
};
static const uint8_t rxe_rep_icrc[4] = { 0xb2, 0x35, 0xa8, 0x5d };
static const uint8_t rxe_ack[48] = {
	0x45, 0x00, 0x00, 0x30, 0x9f, 0x8c, 0x40, 0x00, 0x40, 0x11, 0x86, 0x94,
	0x0a, 0x4d, 0x00, 0x02, 0x0a, 0x4d, 0x00, 0x01, 0xe6, 0x73, 0x12, 0xb7,
	0x00, 0x1c, 0x00, 0x00, 0x11, 0x00, 0xff, 0xff, 0x00, 0x00, 0x42, 0x42,
	0x00, 0x71, 0xca, 0x33, 0x1f, 0x00, 0x00, 0x01, 0x17, 0x17, 0x39, 0x71,
};
static const uint8_t rxe_send[60] = {
	0x45, 0x00, 0x00, 0x3c, 0x9f, 0x8e, 0x40, 0x00, 0x40, 0x11, 0x86, 0x86,
	0x0a, 0x4d, 0x00, 0x02, 0x0a, 0x4d, 0x00, 0x01, 0xe6, 0x73, 0x12, 0xb7,
	0x00, 0x28, 0x00, 0x00, 0x04, 0x00, 0xff, 0xff, 0x00, 0x00, 0x42, 0x42,
	0x80, 0xaf, 0x5f, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x39, 0x24, 0x1d, 0x3f,
};

/* The IPv4 ID rxe used must be the one roce_icrc_solve_ip4_id finds from the UDP payload. */
static void check_rxe_packet(const uint8_t *ip, size_t len, uint16_t sport)
{
	struct roce_ip4 v4 = { .src = roce_get32(ip + 12), .dst = roce_get32(ip + 16),
		.frag = ROCE_IP4_DF };
	uint32_t icrc = 0;
	uint16_t id = 0;

	CHECK(roce_get16(ip + 20) == sport && roce_get16(ip + 22) == ROCE_UDP_PORT);
	CHECK(roce_get16(ip + 26) == 0); /* rxe sends no UDP checksum */
	CHECK(roce_icrc_ip_packet(ip, len, &icrc) && icrc == roce_icrc_load(ip + 28, len - 28));
	CHECK(roce_icrc_solve_ip4_id(&v4, sport, ROCE_UDP_PORT, ip + 28, len - 28, &id));
	CHECK(id == roce_get16(ip + 4) && id != 0);
}

static void test_linux_capture(void)
{
	uint8_t rep_ip[308] = { 0 };
	struct roce_mad_hdr hdr;
	struct roce_cm_rep rep;
	struct roce_pkt pkt;

	memcpy(rep_ip, rxe_rep_head, sizeof(rxe_rep_head));
	memcpy(rep_ip + sizeof(rep_ip) - 4, rxe_rep_icrc, 4);
	check_rxe_packet(rep_ip, sizeof(rep_ip), roce_udp_sport(1));
	CHECK(roce_pkt_parse(rep_ip + 28, sizeof(rep_ip) - 28, &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_UD_SEND_ONLY && pkt.bth.dqpn == 1 && pkt.bth.ack_req);
	CHECK(pkt.bth.pkey == 0xffff && pkt.deth.qkey == ROCE_QP1_QKEY && pkt.deth.sqpn == 1);
	CHECK(roce_cm_mad_check(pkt.payload, pkt.payload_len, &hdr) && hdr.attr_id == ROCE_CM_REP);
	CHECK(hdr.tid == 0x5f12663101ull); /* the REQ's, which the REP repeats */
	roce_cm_rep_get(pkt.payload, &rep);
	CHECK(rep.local_comm_id == 0x46e62f78 && rep.remote_comm_id == 0x5f126631);
	CHECK(rep.local_qpn == 0x11 && rep.starting_psn == 0x71ca33 && rep.local_qkey == 0);
	/* rdma_accept(NULL) answers our 1/1 with 1/1; rxe's ACK delay 15; RNR retry 7 */
	CHECK(rep.responder_resources == 1 && rep.initiator_depth == 1);
	CHECK(rep.target_ack_delay == 15 && rep.failover_accepted == 0 && !rep.flow_control);
	CHECK(rep.rnr_retry_count == 7 && !rep.srq && rep.vendor_id == 0);
	CHECK(rep.local_ca_guid == 0x505400fffe770002ull); /* EUI-64 of the guest's MAC */

	/* The ACK of our SEND (PSN 0x71ca33): syndrome 0x1f, MSN 1, from the RC QP's port. */
	check_rxe_packet(rxe_ack, sizeof(rxe_ack), roce_udp_sport_rc(0, 0x11, 0x4242));
	CHECK(roce_pkt_parse(rxe_ack + 28, sizeof(rxe_ack) - 28, &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_RC_ACK && pkt.bth.dqpn == 0x4242 && pkt.bth.psn == 0x71ca33);
	CHECK(!pkt.bth.ack_req && pkt.aeth.syndrome == 0x1f && pkt.aeth.msn == 1);

	/* rdma_server's 16-byte SEND: SEND_ONLY with AckReq at our REQ's Starting PSN. */
	check_rxe_packet(rxe_send, sizeof(rxe_send), roce_udp_sport_rc(0, 0x11, 0x4242));
	CHECK(roce_pkt_parse(rxe_send + 28, sizeof(rxe_send) - 28, &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_RC_SEND_ONLY && pkt.bth.ack_req && pkt.bth.psn == 0xaf5f21);
	CHECK(pkt.payload_len == 16 && pkt.bth.pad == 0);
}

/*
 * The REQ Linux 6.1.192 rdma_cm sent for rdma_client -s 10.77.0.1 (rxe, port 7471; captured by
 * tests/interop): 308 bytes, zeros between these and the ICRC.
 */
static const uint8_t linux_req_head[248] = {
	0x45, 0x00, 0x01, 0x34, 0x8c, 0xab, 0x40, 0x00, 0x40, 0x11, 0x98, 0x71,
	0x0a, 0x4d, 0x00, 0x02, 0x0a, 0x4d, 0x00, 0x01, 0xd8, 0x72, 0x12, 0xb7,
	0x01, 0x20, 0x00, 0x00, 0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
	0x80, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x01, 0x07, 0x02, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x28, 0xe5, 0x74, 0xdb, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xdb, 0x74, 0xe5, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x06, 0x1d, 0x2f, 0x50, 0x54, 0x00, 0xff, 0xfe, 0x77, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x80,
	0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0xa0, 0xa8, 0xcd, 0x10, 0xa7,
	0xff, 0xff, 0x37, 0xf0, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x0a, 0x4d, 0x00, 0x02,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
	0x0a, 0x4d, 0x00, 0x01, 0xa8, 0xee, 0xe0, 0x00, 0x00, 0x40, 0x00, 0x98,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0xda, 0x61,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x0a, 0x4d, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x0a, 0x4d, 0x00, 0x01,
};
static const uint8_t linux_req_icrc[4] = { 0xbf, 0x52, 0x3a, 0xed };

static void test_linux_req_capture(void)
{
	uint8_t ip[308] = { 0 };
	struct roce_mad_hdr hdr;
	struct roce_cma_hdr cma;
	struct roce_cm_req req;
	struct roce_pkt pkt;

	memcpy(ip, linux_req_head, sizeof(linux_req_head));
	memcpy(ip + sizeof(ip) - 4, linux_req_icrc, 4);
	check_rxe_packet(ip, sizeof(ip), roce_udp_sport(1));
	CHECK(roce_pkt_parse(ip + 28, sizeof(ip) - 28, &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_UD_SEND_ONLY && pkt.bth.ack_req && pkt.bth.psn == 0);
	CHECK(roce_cm_mad_check(pkt.payload, pkt.payload_len, &hdr) && hdr.attr_id == ROCE_CM_REQ);
	CHECK(hdr.tid == 0x0000000228e574dbull);
	roce_cm_req_get(pkt.payload, &req);
	CHECK(req.local_comm_id == 0xdb74e528 && req.vendor_id == 0);
	CHECK(req.service_id == roce_cm_service_id(ROCE_PS_TCP, 7471));
	CHECK(req.local_ca_guid == 0x505400fffe770002ull && req.local_qkey == 0);
	CHECK(req.local_qpn == 0x11 && req.starting_psn == 0xa8cd10);
	CHECK(req.responder_resources == 128 && req.initiator_depth == 128); /* rxe's maxima */
	CHECK(req.remote_cm_timeout == 20 && req.local_cm_timeout == 20 && req.max_cm_retries == 15);
	CHECK(req.transport == ROCE_CM_TRANSPORT_RC && !req.flow_control && !req.srq);
	CHECK(req.retry_count == 7 && req.rnr_retry_count == 7 && req.path_mtu == 3);
	CHECK(req.pkey == 0xffff && !req.rdc_exists && req.ext_transport == 0);
	CHECK(req.primary.local_lid == 0xffff && req.primary.remote_lid == 0xffff);
	uint32_t a;
	CHECK(roce_gid_to_ip4(req.primary.local_gid, &a) && a == 0x0a4d0002);
	CHECK(roce_gid_to_ip4(req.primary.remote_gid, &a) && a == 0x0a4d0001);
	CHECK(req.primary.hop_limit == 64 && req.primary.traffic_class == 0);
	CHECK(req.primary.packet_rate == 0 && req.primary.sl == 0 && !req.primary.subnet_local);
	/* Debian's 6.1 uses RDMA-CM's older packet lifetime 18: ACK timeout 19, not 17 */
	CHECK(req.primary.local_ack_timeout == 19 && roce_cm_ack_timeout(15, 18) == 19);
	/* The flow label is RDMA-CM's hash of the two ports, and it sets the RC QPs' UDP port:
	 * the guest's QP sent from 0xcec4 in this run. */
	CHECK(roce_cma_hdr_get(req.private_data, &cma) && cma.ip_version == 4);
	CHECK(cma.src_port == 55905 && roce_get32(cma.src + 12) == 0x0a4d0002);
	CHECK(roce_get32(cma.dst + 12) == 0x0a4d0001);
	CHECK(req.primary.flow_label == 0xa8eee);
	CHECK(roce_cma_flow_label(cma.src_port, 7471) == req.primary.flow_label);
	CHECK(roce_udp_sport_rc(req.primary.flow_label, 0x11, 0x123456) == 0xcec4);
	for (size_t i = ROCE_CMA_HDR_LEN; i < ROCE_CM_REQ_PDATA; i++)
		CHECK(req.private_data[i] == 0);
	uint8_t zero[44] = { 0 };
	CHECK(memcmp(pkt.payload + ROCE_MAD_HDR_LEN + 96, zero, 44) == 0); /* no alternate path */
}

/*
 * Two packets Linux 6.1 rxe sent to a DOCA program (tests/interop doca_cm_peer, scenario
 * doca-client): rdma_server's ACK of our SEND and its own 16-byte SEND, to our QP 0x010001,
 * from its QP 0x11. Our REQ carried the flow label 0x85494 (RDMA-CM's hash of our ports, as
 * roce_cm sends it), and rxe sent from UDP 0xd4b5, the port of that label: not
 * roce_udp_sport(0x11) = 0xdf94, where the QP's receive socket used to be connected, so every
 * packet took the shared socket. The SEND's PSN is our REQ's Starting PSN (0xc7fc29).
 */
static const uint8_t rxe_doca_ack[48] = {
	0x45, 0x00, 0x00, 0x30, 0xea, 0xf9, 0x40, 0x00, 0x40, 0x11, 0x3b, 0x27,
	0x0a, 0x4d, 0x00, 0x02, 0x0a, 0x4d, 0x00, 0x01, 0xd4, 0xb5, 0x12, 0xb7,
	0x00, 0x1c, 0x00, 0x00, 0x11, 0x00, 0xff, 0xff, 0x00, 0x01, 0x00, 0x01,
	0x00, 0xe5, 0x70, 0x83, 0x1f, 0x00, 0x00, 0x01, 0x4d, 0xe0, 0xda, 0x2f,
};
static const uint8_t rxe_doca_send[60] = {
	0x45, 0x00, 0x00, 0x3c, 0xea, 0xfc, 0x40, 0x00, 0x40, 0x11, 0x3b, 0x18,
	0x0a, 0x4d, 0x00, 0x02, 0x0a, 0x4d, 0x00, 0x01, 0xd4, 0xb5, 0x12, 0xb7,
	0x00, 0x28, 0x00, 0x00, 0x04, 0x00, 0xff, 0xff, 0x00, 0x01, 0x00, 0x01,
	0x80, 0xc7, 0xfc, 0x29, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12, 0x1a, 0x1f, 0x85,
};

static void test_linux_vs_doca_capture(void)
{
	struct roce_pkt pkt;
	uint16_t sport = roce_udp_sport_rc(0x85494, 0x11, 0x010001);

	CHECK(sport == 0xd4b5 && sport != roce_udp_sport(0x11));
	CHECK(roce_udp_sport_rc(0x85494, 0x010001, 0x11) == sport); /* what we send from */
	check_rxe_packet(rxe_doca_ack, sizeof(rxe_doca_ack), sport);
	CHECK(roce_pkt_parse(rxe_doca_ack + 28, sizeof(rxe_doca_ack) - 28, &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_RC_ACK && pkt.bth.dqpn == 0x010001 && pkt.bth.psn == 0xe57083);
	CHECK(pkt.aeth.syndrome == 0x1f && pkt.aeth.msn == 1);
	check_rxe_packet(rxe_doca_send, sizeof(rxe_doca_send), sport);
	CHECK(roce_pkt_parse(rxe_doca_send + 28, sizeof(rxe_doca_send) - 28, &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_RC_SEND_ONLY && pkt.bth.ack_req && pkt.bth.psn == 0xc7fc29);
	CHECK(pkt.bth.dqpn == 0x010001 && pkt.payload_len == 16);
	for (unsigned i = 0; i < 16; i++)
		CHECK(pkt.payload[i] == 0); /* rdma_server's static buffer */
}

int main(void)
{
	TEST_RUN(test_req_bytes);
	TEST_RUN(test_req_fields);
	TEST_RUN(test_rep);
	TEST_RUN(test_rtu_drep);
	TEST_RUN(test_rej_mra_dreq);
	TEST_RUN(test_mad_check);
	TEST_RUN(test_service_and_ip);
	TEST_RUN(test_times);
	TEST_RUN(test_req_datagram);
	TEST_RUN(test_linux_capture);
	TEST_RUN(test_linux_req_capture);
	TEST_RUN(test_linux_vs_doca_capture);
	TEST_EXIT();
}
