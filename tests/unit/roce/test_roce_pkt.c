/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 transport headers (lib/softhw/rnic/roce_pkt.c): byte layout of every header, the
 * opcode table, the parser's length checks and PSN arithmetic.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "softhw/rnic/roce_pkt.h"
#include "test.h"

/* docs/rocev2 vector A's UDP payload: RC SEND_ONLY "hello", QPN 0x11, PSN 0x123456, AckReq. */
static const uint8_t vec_a_udp[] = {
	0x04, 0x30, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x80, 0x12, 0x34, 0x56,
	0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x00, 0x00, 0x00,
	0xa2, 0x78, 0x26, 0x53,
};

static void test_vector_a_parse(void)
{
	struct roce_pkt pkt;

	CHECK(roce_pkt_parse(vec_a_udp, sizeof(vec_a_udp), &pkt) == ROCE_PARSE_OK);
	CHECK(pkt.bth.opcode == ROCE_RC_SEND_ONLY);
	CHECK(!pkt.bth.se && !pkt.bth.mig && pkt.bth.tver == 0);
	CHECK(pkt.bth.pad == 3);
	CHECK(pkt.bth.pkey == 0xffff);
	CHECK(pkt.bth.dqpn == 0x11);
	CHECK(pkt.bth.ack_req);
	CHECK(pkt.bth.psn == 0x123456);
	CHECK(pkt.hdrs == 0);
	CHECK(pkt.hdr_len == ROCE_BTH_LEN);
	CHECK(pkt.payload_len == 5 && memcmp(pkt.payload, "hello", 5) == 0);
	CHECK(pkt.payload == vec_a_udp + 12);
	CHECK(pkt.icrc == 0x532678a2);
	CHECK(pkt.len == sizeof(vec_a_udp));
}

static void test_vector_a_build(void)
{
	struct roce_pkt pkt = { 0 };
	uint8_t buf[64];
	size_t n;

	pkt.bth.opcode = ROCE_RC_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 0x11;
	pkt.bth.ack_req = true;
	pkt.bth.psn = 0x123456;
	pkt.bth.pad = 1; /* ignored: the builder computes it */
	n = roce_pkt_build(buf, sizeof(buf), &pkt, "hello", 5);
	CHECK(n == sizeof(vec_a_udp));
	/* Everything but the ICRC, which the builder leaves zero. */
	CHECK(memcmp(buf, vec_a_udp, n - 4) == 0);
	CHECK(roce_icrc_load(buf, n) == 0);
	/* Exactly enough room, and one byte less. */
	CHECK(roce_pkt_build(buf, n, &pkt, "hello", 5) == n);
	CHECK(roce_pkt_build(buf, n - 1, &pkt, "hello", 5) == 0);
	CHECK(roce_pkt_build(buf, 3, &pkt, "hello", 5) == 0);
}

/* Each header's bytes at their offsets, from one packet per header. */
static void test_header_layouts(void)
{
	struct roce_pkt pkt = { 0 };
	uint8_t buf[128];
	size_t n;

	pkt.bth.pkey = 0x1234;
	pkt.bth.dqpn = 0xabcdef;
	pkt.bth.psn = 0xfedcba;
	pkt.bth.se = true;
	pkt.bth.mig = true;
	pkt.bth.fecn_becn = 0x40;

	/* BTH + RETH + ImmDt: WRITE_ONLY_WITH_IMMEDIATE with a 1-byte payload (pad 3). */
	pkt.bth.opcode = ROCE_RC_WRITE_ONLY_IMM;
	pkt.reth.va = 0x0102030405060708ull;
	pkt.reth.rkey = 0x11223344;
	pkt.reth.len = 0x55667788;
	pkt.imm = 0xdeadbeef;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, "Z", 1);
	{
		static const uint8_t want[] = {
			0x0b, 0xf0, 0x12, 0x34, 0x40, 0xab, 0xcd, 0xef, 0x00, 0xfe, 0xdc, 0xba,
			0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x11, 0x22, 0x33, 0x44,
			0x55, 0x66, 0x77, 0x88,
			0xde, 0xad, 0xbe, 0xef,
			'Z', 0, 0, 0,
			0, 0, 0, 0,
		};
		CHECK(n == sizeof(want) && memcmp(buf, want, n) == 0);
	}

	/* AtomicETH: COMPARE_SWAP. */
	memset(&pkt.reth, 0, sizeof(pkt.reth));
	pkt.bth.se = pkt.bth.mig = false;
	pkt.bth.fecn_becn = 0;
	pkt.bth.ack_req = true;
	pkt.bth.opcode = ROCE_RC_CMP_SWAP;
	pkt.atomic.va = 0x1000;
	pkt.atomic.rkey = 0xa1b2c3d4;
	pkt.atomic.swap_add = 0x1111111122222222ull;
	pkt.atomic.compare = 0x3333333344444444ull;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, NULL, 0);
	{
		static const uint8_t want[] = {
			0x13, 0x00, 0x12, 0x34, 0x00, 0xab, 0xcd, 0xef, 0x80, 0xfe, 0xdc, 0xba,
			0, 0, 0, 0, 0, 0, 0x10, 0x00, 0xa1, 0xb2, 0xc3, 0xd4,
			0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22,
			0x33, 0x33, 0x33, 0x33, 0x44, 0x44, 0x44, 0x44,
			0, 0, 0, 0,
		};
		CHECK(n == sizeof(want) && memcmp(buf, want, n) == 0);
		CHECK(n == 44);
	}

	/* AETH + AtomicAckETH. */
	pkt.bth.opcode = ROCE_RC_ATOMIC_ACK;
	pkt.bth.ack_req = false;
	pkt.aeth.syndrome = 0x1f;
	pkt.aeth.msn = 0x000102;
	pkt.atomic_orig = 0x8877665544332211ull;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, NULL, 0);
	{
		static const uint8_t want[] = {
			0x12, 0x00, 0x12, 0x34, 0x00, 0xab, 0xcd, 0xef, 0x00, 0xfe, 0xdc, 0xba,
			0x1f, 0x00, 0x01, 0x02,
			0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
			0, 0, 0, 0,
		};
		CHECK(n == sizeof(want) && memcmp(buf, want, n) == 0);
	}

	/* DETH: UD SEND_ONLY to QP1 as the CM sends it, 4-byte payload (no pad). */
	pkt.bth.opcode = ROCE_UD_SEND_ONLY;
	pkt.bth.pkey = ROCE_PKEY_DEFAULT;
	pkt.bth.dqpn = 1;
	pkt.bth.psn = 7;
	pkt.deth.qkey = ROCE_QP1_QKEY;
	pkt.deth.sqpn = 1;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, "MAD!", 4);
	{
		static const uint8_t want[] = {
			0x64, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07,
			0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
			'M', 'A', 'D', '!',
			0, 0, 0, 0,
		};
		CHECK(n == sizeof(want) && memcmp(buf, want, n) == 0);
	}

	/* IETH: SEND_LAST_WITH_INVALIDATE, 2 bytes (pad 2). */
	pkt.bth.opcode = ROCE_RC_SEND_LAST_INV;
	pkt.ieth_rkey = 0x0badf00d;
	n = roce_pkt_build(buf, sizeof(buf), &pkt, "ab", 2);
	{
		static const uint8_t want[] = {
			0x16, 0x20, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07,
			0x0b, 0xad, 0xf0, 0x0d,
			'a', 'b', 0, 0,
			0, 0, 0, 0,
		};
		CHECK(n == sizeof(want) && memcmp(buf, want, n) == 0);
	}
}

struct op_case {
	uint8_t opcode;
	unsigned int hdrs;
	size_t min_len; /* BTH to ICRC, empty payload */
	enum roce_payload_kind kind;
};

static const struct op_case op_cases[] = {
	{ ROCE_RC_SEND_FIRST, 0, 16, ROCE_PL_MIDDLE },
	{ ROCE_RC_SEND_MIDDLE, 0, 16, ROCE_PL_MIDDLE },
	{ ROCE_RC_SEND_LAST, 0, 16, ROCE_PL_LAST },
	{ ROCE_RC_SEND_LAST_IMM, ROCE_H_IMMDT, 20, ROCE_PL_LAST },
	{ ROCE_RC_SEND_ONLY, 0, 16, ROCE_PL_ONLY },
	{ ROCE_RC_SEND_ONLY_IMM, ROCE_H_IMMDT, 20, ROCE_PL_ONLY },
	{ ROCE_RC_WRITE_FIRST, ROCE_H_RETH, 32, ROCE_PL_MIDDLE },
	{ ROCE_RC_WRITE_MIDDLE, 0, 16, ROCE_PL_MIDDLE },
	{ ROCE_RC_WRITE_LAST, 0, 16, ROCE_PL_LAST },
	{ ROCE_RC_WRITE_LAST_IMM, ROCE_H_IMMDT, 20, ROCE_PL_LAST },
	{ ROCE_RC_WRITE_ONLY, ROCE_H_RETH, 32, ROCE_PL_ONLY },
	{ ROCE_RC_WRITE_ONLY_IMM, ROCE_H_RETH | ROCE_H_IMMDT, 36, ROCE_PL_ONLY },
	{ ROCE_RC_READ_REQUEST, ROCE_H_RETH, 32, ROCE_PL_NONE },
	{ ROCE_RC_READ_RESP_FIRST, ROCE_H_AETH, 20, ROCE_PL_MIDDLE },
	{ ROCE_RC_READ_RESP_MIDDLE, 0, 16, ROCE_PL_MIDDLE },
	{ ROCE_RC_READ_RESP_LAST, ROCE_H_AETH, 20, ROCE_PL_LAST },
	{ ROCE_RC_READ_RESP_ONLY, ROCE_H_AETH, 20, ROCE_PL_ONLY },
	{ ROCE_RC_ACK, ROCE_H_AETH, 20, ROCE_PL_NONE },
	{ ROCE_RC_ATOMIC_ACK, ROCE_H_AETH | ROCE_H_ATOMICACKETH, 28, ROCE_PL_NONE },
	{ ROCE_RC_CMP_SWAP, ROCE_H_ATOMICETH, 44, ROCE_PL_NONE },
	{ ROCE_RC_FETCH_ADD, ROCE_H_ATOMICETH, 44, ROCE_PL_NONE },
	{ ROCE_RC_SEND_LAST_INV, ROCE_H_IETH, 20, ROCE_PL_LAST },
	{ ROCE_RC_SEND_ONLY_INV, ROCE_H_IETH, 20, ROCE_PL_ONLY },
	{ ROCE_UD_SEND_ONLY, ROCE_H_DETH, 24, ROCE_PL_ONLY },
	{ ROCE_UD_SEND_ONLY_IMM, ROCE_H_DETH | ROCE_H_IMMDT, 28, ROCE_PL_ONLY },
	{ ROCE_CNP, ROCE_H_CNP, 32, ROCE_PL_NONE },
};

static void fill_fields(struct roce_pkt *pkt, uint8_t opcode)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->bth.opcode = opcode;
	pkt->bth.se = true;
	pkt->bth.pkey = 0xffff;
	pkt->bth.dqpn = 0x123456;
	pkt->bth.ack_req = true;
	pkt->bth.psn = 0xffffff;
	pkt->deth.qkey = 0x01234567;
	pkt->deth.sqpn = 0x00abcd;
	pkt->reth.va = 0x7fff000012345678ull;
	pkt->reth.rkey = 0xcafe;
	pkt->reth.len = 0x80000000u;
	pkt->atomic.va = 0x4008;
	pkt->atomic.rkey = 0xbeef;
	pkt->atomic.swap_add = 0xa5a5a5a5a5a5a5a5ull;
	pkt->atomic.compare = 0x5a5a5a5a5a5a5a5aull;
	pkt->aeth.syndrome = 0x61;
	pkt->aeth.msn = 0xfffffe;
	pkt->atomic_orig = 42;
	pkt->imm = 0x01020304;
	pkt->ieth_rkey = 0x99;
}

/* Every opcode: build, parse, the same fields back; its sizes; every truncation refused. */
static void test_every_opcode(void)
{
	static uint8_t payload[300];

	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 1);
	for (size_t c = 0; c < sizeof(op_cases) / sizeof(op_cases[0]); c++) {
		const struct op_case *oc = &op_cases[c];
		size_t plen = oc->kind == ROCE_PL_NONE ? 0 : 257;
		struct roce_pkt in, out;
		unsigned int hdrs = ~0u;
		uint8_t buf[512];
		size_t n;

		CHECK(roce_opcode_hdrs(oc->opcode, &hdrs) && hdrs == oc->hdrs);
		CHECK(roce_opcode_payload(oc->opcode) == oc->kind);
		CHECK(roce_hdrs_len(oc->hdrs) + ROCE_ICRC_LEN == oc->min_len);
		CHECK(strcmp(roce_opcode_name(oc->opcode), "unknown") != 0);
		fill_fields(&in, oc->opcode);
		CHECK(roce_pkt_build(buf, sizeof(buf), &in, payload, 0) == oc->min_len);
		n = roce_pkt_build(buf, sizeof(buf), &in, payload, plen);
		CHECK(n == oc->min_len + plen + roce_pad_len(plen));
		if (oc->kind == ROCE_PL_NONE)
			CHECK(roce_pkt_build(buf, sizeof(buf), &in, payload, 1) == 0);
		CHECK(roce_pkt_parse(buf, n, &out) == ROCE_PARSE_OK);
		CHECK(out.bth.opcode == oc->opcode && out.hdrs == oc->hdrs);
		CHECK(out.bth.se && out.bth.ack_req && out.bth.pkey == 0xffff);
		CHECK(out.bth.dqpn == 0x123456 && out.bth.psn == 0xffffff);
		CHECK(out.bth.pad == roce_pad_len(plen));
		CHECK(out.payload_len == plen && memcmp(out.payload, payload, plen) == 0);
		CHECK(out.hdr_len == oc->min_len - ROCE_ICRC_LEN);
		if (oc->hdrs & ROCE_H_DETH)
			CHECK(out.deth.qkey == in.deth.qkey && out.deth.sqpn == in.deth.sqpn);
		if (oc->hdrs & ROCE_H_RETH)
			CHECK(memcmp(&out.reth, &in.reth, sizeof(in.reth)) == 0);
		if (oc->hdrs & ROCE_H_ATOMICETH)
			CHECK(out.atomic.va == in.atomic.va && out.atomic.rkey == in.atomic.rkey &&
				out.atomic.swap_add == in.atomic.swap_add &&
				out.atomic.compare == in.atomic.compare);
		if (oc->hdrs & ROCE_H_AETH)
			CHECK(out.aeth.syndrome == 0x61 && out.aeth.msn == 0xfffffe);
		if (oc->hdrs & ROCE_H_ATOMICACKETH)
			CHECK(out.atomic_orig == 42);
		if (oc->hdrs & ROCE_H_IMMDT)
			CHECK(out.imm == 0x01020304);
		if (oc->hdrs & ROCE_H_IETH)
			CHECK(out.ieth_rkey == 0x99);

		/* Every shorter datagram: refused below the headers, pad and ICRC; above, for an
		 * opcode with payload, a shorter payload (the ICRC would catch the cut). */
		for (size_t len = 0; len < n; len++) {
			uint8_t *cut = malloc(len ? len : 1);
			enum roce_parse_err err;

			memcpy(cut, buf, len);
			err = roce_pkt_parse(cut, len, &out);
			if (len < oc->min_len + out.bth.pad || oc->kind == ROCE_PL_NONE)
				CHECK(err == ROCE_PARSE_SHORT);
			else
				CHECK(err == ROCE_PARSE_OK &&
					out.payload_len == len - oc->min_len - out.bth.pad);
			free(cut);
		}
	}
}

static void test_parse_refusals(void)
{
	uint8_t buf[64];
	struct roce_pkt pkt;

	memcpy(buf, vec_a_udp, sizeof(vec_a_udp));
	/* Opcodes this layer lacks: reserved RC, UC, RD, and garbage. */
	for (unsigned int op = 0; op < 256; op++) {
		unsigned int hdrs;
		bool known = false;

		for (size_t c = 0; c < sizeof(op_cases) / sizeof(op_cases[0]); c++)
			known = known || op_cases[c].opcode == op;
		CHECK(roce_opcode_hdrs((uint8_t)op, &hdrs) == known);
		buf[0] = (uint8_t)op;
		if (!known) {
			CHECK(roce_pkt_parse(buf, sizeof(vec_a_udp), &pkt) == ROCE_PARSE_OPCODE);
			CHECK(strcmp(roce_opcode_name((uint8_t)op), "unknown") == 0);
			CHECK(!roce_payload_ok((uint8_t)op, 0, 1024));
		}
	}
	buf[0] = ROCE_RC_SEND_ONLY;
	/* Transport version must be 0. */
	buf[1] = 0x31;
	CHECK(roce_pkt_parse(buf, sizeof(vec_a_udp), &pkt) == ROCE_PARSE_TVER);
	buf[1] = 0x30;
	CHECK(roce_pkt_parse(buf, sizeof(vec_a_udp), &pkt) == ROCE_PARSE_OK);
	/* Pad longer than what follows the headers. */
	CHECK(roce_pkt_parse(buf, 12 + 2 + 4, &pkt) == ROCE_PARSE_SHORT);
	CHECK(roce_pkt_parse(buf, 12 + 3 + 4, &pkt) == ROCE_PARSE_OK && pkt.payload_len == 0);
	/* An ACK with a byte too many, or with a pad count. */
	{
		static const uint8_t ack[] = {
			0x11, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x00, 0x12, 0x34, 0x56,
			0x1f, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0,
		};

		memcpy(buf, ack, sizeof(ack));
		CHECK(roce_pkt_parse(buf, 20, &pkt) == ROCE_PARSE_OK);
		CHECK(pkt.aeth.syndrome == 0x1f && pkt.aeth.msn == 1);
		CHECK(roce_pkt_parse(buf, 21, &pkt) == ROCE_PARSE_PAYLOAD);
		buf[1] = 0x10;
		CHECK(roce_pkt_parse(buf, 21, &pkt) == ROCE_PARSE_PAYLOAD);
		CHECK(roce_pkt_parse(buf, 20, &pkt) == ROCE_PARSE_SHORT);
	}
	CHECK(strcmp(roce_parse_err_name(ROCE_PARSE_PAYLOAD), "?") != 0);
}

static void test_payload_rules(void)
{
	CHECK(roce_payload_ok(ROCE_RC_SEND_FIRST, 1024, 1024));
	CHECK(!roce_payload_ok(ROCE_RC_SEND_FIRST, 1020, 1024));
	CHECK(!roce_payload_ok(ROCE_RC_READ_RESP_MIDDLE, 0, 1024));
	CHECK(roce_payload_ok(ROCE_RC_SEND_LAST, 1, 1024));
	CHECK(!roce_payload_ok(ROCE_RC_WRITE_LAST, 0, 1024));
	CHECK(!roce_payload_ok(ROCE_RC_WRITE_LAST_IMM, 1025, 1024));
	CHECK(roce_payload_ok(ROCE_RC_SEND_ONLY, 0, 1024));
	CHECK(roce_payload_ok(ROCE_RC_WRITE_ONLY, 1024, 1024));
	CHECK(!roce_payload_ok(ROCE_UD_SEND_ONLY, 1025, 1024));
	CHECK(roce_payload_ok(ROCE_RC_ACK, 0, 256));
	CHECK(!roce_payload_ok(ROCE_RC_READ_REQUEST, 4, 256));
	CHECK(roce_pad_len(0) == 0 && roce_pad_len(5) == 3 && roce_pad_len(6) == 2 &&
		roce_pad_len(7) == 1 && roce_pad_len(8) == 0);
}

static void test_psn(void)
{
	CHECK(roce_psn_cmp(5, 5) == 0);
	CHECK(roce_psn_cmp(6, 5) > 0 && roce_psn_cmp(5, 6) < 0);
	/* Across the wrap. */
	CHECK(roce_psn_cmp(0, 0xffffff) > 0 && roce_psn_cmp(0xffffff, 0) < 0);
	CHECK(roce_psn_cmp(3, 0xfffffd) > 0);
	/* The half window: 2^23 - 1 ahead is after, 2^23 ahead counts as before. */
	CHECK(roce_psn_cmp(0x7fffff, 0) > 0);
	CHECK(roce_psn_cmp(0x800000, 0) < 0);
	CHECK(roce_psn_cmp(0x100, 0x800100) < 0);
	/* Bits above 24 do not matter. */
	CHECK(roce_psn_cmp(0x1000005, 5) == 0);
	CHECK(roce_psn_add(0xffffff, 1) == 0);
	CHECK(roce_psn_add(0xfffffe, 5) == 3);
	CHECK(roce_psn_add(10, 0) == 10);
}

static void test_aeth_codes(void)
{
	CHECK(roce_ack_credits(0) == 0 && roce_ack_credits(4) == 4 && roce_ack_credits(5) == 6);
	CHECK(roce_ack_credits(8) == 16 && roce_ack_credits(9) == 24 && roce_ack_credits(30) == 32768);
	CHECK(roce_ack_credits(31) == -1);
	CHECK(roce_ack_credits(ROCE_AETH_ACK | 0x1f) == -1); /* what rxe sends: syndrome 0x1f */
	CHECK(roce_rnr_timer_us(0) == 655360 && roce_rnr_timer_us(1) == 10);
	CHECK(roce_rnr_timer_us(14) == 1280 && roce_rnr_timer_us(25) == 61440);
	CHECK(roce_rnr_timer_us(31) == 491520);
	CHECK(roce_rnr_timer_us(ROCE_AETH_RNR | 12) == 640); /* the syndrome's low bits */
	/* Each timer at least the one before (code 0 aside), each credit count too. */
	for (uint8_t c = 2; c < 32; c++)
		CHECK(roce_rnr_timer_us(c) > roce_rnr_timer_us((uint8_t)(c - 1)));
	for (uint8_t c = 1; c < 31; c++)
		CHECK(roce_ack_credits(c) > roce_ack_credits((uint8_t)(c - 1)));
	/* rxe's UDP source ports: QP1 (the CM's) and QPN 17. */
	CHECK(roce_udp_sport(1) == 0xd872 && roce_udp_sport(17) == 0xdf94);
	CHECK(roce_udp_sport(0xffffff) >= 0xc000);
	/* An RC QP's port after RTR, captured from Linux 6.1 rxe (tests/interop): its QP 0x11
	 * connected to QPN 0x4242 sent from 0xe673; either end computes it. */
	CHECK(roce_udp_sport_rc(0, 0x11, 0x4242) == 0xe673);
	CHECK(roce_udp_sport_rc(0, 0x4242, 0x11) == 0xe673);
	/* A flow label given: its 6 high bits fold into the low 14. */
	CHECK(roce_udp_sport_rc(0x12345, 0x11, 0x4242) == 0xe341);
	CHECK(roce_udp_sport_rc(0xfffff, 1, 1) == 0xffc0);
	CHECK(roce_udp_sport_rc(0, 0xffffff, 0xffffff) >= 0xc000);
}

int main(void)
{
	TEST_RUN(test_vector_a_parse);
	TEST_RUN(test_vector_a_build);
	TEST_RUN(test_header_layouts);
	TEST_RUN(test_every_opcode);
	TEST_RUN(test_parse_refusals);
	TEST_RUN(test_payload_rules);
	TEST_RUN(test_psn);
	TEST_RUN(test_aeth_codes);
	TEST_EXIT();
}
