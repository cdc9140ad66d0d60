/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Deterministic fuzzing of the RoCEv2 packet layer (lib/softhw/rnic/roce_*.c), bounded so it
 * runs as an ordinary test; run it under ASan+UBSan too (docs/rocev2.md). Every input sits in
 * a buffer of exactly its length, so a read past the end is a sanitizer error.
 *
 * Each round takes one of: a valid packet of a random opcode (must parse back to its fields;
 * its ICRC must catch any one flipped covered bit), a truncated one, one with random bytes
 * changed, random bytes, a damaged whole IP packet, a damaged or random CM MAD. After a
 * successful parse the lengths must add up and a rebuild must parse to the same fields.
 *
 * ROCE_FUZZ_ITERS and ROCE_FUZZ_SEED override the defaults (a failing round prints both).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"
#include "test.h"

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t rnd_below(uint64_t n)
{
	return rnd() % n;
}

static const uint8_t opcodes[] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c,
	0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x64, 0x65, 0x81,
};

#define MAX_PAYLOAD 700
#define MAX_PKT (MAX_PAYLOAD + 128)

/* Copies src into a fresh buffer of exactly len bytes (sanitizers see any overrun). */
static uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len); /* glibc and the sanitizers give a unique pointer for 0 */

	if (p == NULL)
		abort();
	memcpy(p, src, len);
	return p;
}

static void random_fields(struct roce_pkt *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->bth.opcode = opcodes[rnd_below(sizeof(opcodes))];
	pkt->bth.se = rnd() & 1;
	pkt->bth.mig = rnd() & 1;
	pkt->bth.pkey = (uint16_t)rnd();
	pkt->bth.fecn_becn = (uint8_t)rnd();
	pkt->bth.dqpn = (uint32_t)rnd() & 0xffffff;
	pkt->bth.ack_req = rnd() & 1;
	pkt->bth.psn = (uint32_t)rnd() & ROCE_PSN_MASK;
	pkt->deth.qkey = (uint32_t)rnd();
	pkt->deth.sqpn = (uint32_t)rnd() & 0xffffff;
	pkt->reth.va = rnd();
	pkt->reth.rkey = (uint32_t)rnd();
	pkt->reth.len = (uint32_t)rnd();
	pkt->atomic.va = rnd();
	pkt->atomic.rkey = (uint32_t)rnd();
	pkt->atomic.swap_add = rnd();
	pkt->atomic.compare = rnd();
	pkt->aeth.syndrome = (uint8_t)rnd();
	pkt->aeth.msn = (uint32_t)rnd() & 0xffffff;
	pkt->atomic_orig = rnd();
	pkt->imm = (uint32_t)rnd();
	pkt->ieth_rkey = (uint32_t)rnd();
}

/* Fields that the opcode's headers carry agree (pad, ICRC and reserved bits aside). */
static bool same_fields(const struct roce_pkt *a, const struct roce_pkt *b)
{
	unsigned int h = a->hdrs;

	if (a->bth.opcode != b->bth.opcode || a->bth.se != b->bth.se || a->bth.mig != b->bth.mig ||
		a->bth.pkey != b->bth.pkey || a->bth.fecn_becn != b->bth.fecn_becn ||
		a->bth.dqpn != b->bth.dqpn || a->bth.ack_req != b->bth.ack_req ||
		a->bth.psn != b->bth.psn || a->hdrs != b->hdrs)
		return false;
	if ((h & ROCE_H_DETH) && (a->deth.qkey != b->deth.qkey || a->deth.sqpn != b->deth.sqpn))
		return false;
	if ((h & ROCE_H_RETH) && (a->reth.va != b->reth.va || a->reth.rkey != b->reth.rkey ||
		a->reth.len != b->reth.len))
		return false;
	if ((h & ROCE_H_ATOMICETH) && (a->atomic.va != b->atomic.va ||
		a->atomic.rkey != b->atomic.rkey || a->atomic.swap_add != b->atomic.swap_add ||
		a->atomic.compare != b->atomic.compare))
		return false;
	if ((h & ROCE_H_AETH) && (a->aeth.syndrome != b->aeth.syndrome || a->aeth.msn != b->aeth.msn))
		return false;
	if ((h & ROCE_H_ATOMICACKETH) && a->atomic_orig != b->atomic_orig)
		return false;
	if ((h & ROCE_H_IMMDT) && a->imm != b->imm)
		return false;
	if ((h & ROCE_H_IETH) && a->ieth_rkey != b->ieth_rkey)
		return false;
	return true;
}

/* What must hold of any parse; returns false (and the caller reports) if something does not. */
static bool parse_invariants(const uint8_t *buf, size_t len)
{
	struct roce_pkt pkt, again;
	enum roce_parse_err err = roce_pkt_parse(buf, len, &pkt);
	unsigned int hdrs = 0;
	static uint8_t rebuilt[MAX_PKT + 2048];
	size_t n;

	if (err != ROCE_PARSE_OK)
		return err == ROCE_PARSE_SHORT || err == ROCE_PARSE_OPCODE || err == ROCE_PARSE_TVER ||
			err == ROCE_PARSE_PAYLOAD;
	if (!roce_opcode_hdrs(pkt.bth.opcode, &hdrs) || hdrs != pkt.hdrs || pkt.bth.tver != 0)
		return false;
	if (pkt.len != len || pkt.hdr_len != roce_hdrs_len(pkt.hdrs) ||
		pkt.hdr_len + pkt.payload_len + pkt.bth.pad + ROCE_ICRC_LEN != len ||
		pkt.payload != buf + pkt.hdr_len || pkt.icrc != roce_icrc_load(buf, len))
		return false;
	if (roce_opcode_payload(pkt.bth.opcode) == ROCE_PL_NONE && (pkt.payload_len || pkt.bth.pad))
		return false;
	/* Rebuild from the fields: parses to the same fields and payload. */
	n = roce_pkt_build(rebuilt, sizeof(rebuilt), &pkt, pkt.payload, pkt.payload_len);
	if (n != pkt.hdr_len + pkt.payload_len + roce_pad_len(pkt.payload_len) + ROCE_ICRC_LEN)
		return false;
	if (roce_pkt_parse(rebuilt, n, &again) != ROCE_PARSE_OK || !same_fields(&pkt, &again) ||
		again.payload_len != pkt.payload_len ||
		memcmp(again.payload, pkt.payload, pkt.payload_len) != 0)
		return false;
	return true;
}

struct ctx {
	uint64_t round;
	uint64_t seed;
	unsigned int bad;
};

static void report(struct ctx *c, const char *what)
{
	if (c->bad++ < 10)
		fprintf(stderr, "fuzz round %" PRIu64 " (seed %" PRIu64 "): %s\n", c->round, c->seed,
			what);
}

static size_t valid_packet(uint8_t *buf, struct roce_pkt *in, uint8_t *payload, size_t *plen)
{
	random_fields(in);
	*plen = roce_opcode_payload(in->bth.opcode) == ROCE_PL_NONE ? 0 :
		(size_t)rnd_below(MAX_PAYLOAD + 1);
	for (size_t i = 0; i < *plen; i++)
		payload[i] = (uint8_t)rnd();
	return roce_pkt_build(buf, MAX_PKT, in, payload, *plen);
}

static void round_valid(struct ctx *c)
{
	static uint8_t buf[MAX_PKT], payload[MAX_PAYLOAD];
	struct roce_pkt in, out;
	struct roce_ip4 v4 = { .src = (uint32_t)rnd(), .dst = (uint32_t)rnd(),
		.id = (uint16_t)rnd(), .frag = ROCE_IP4_DF };
	struct roce_ip6 v6;
	uint16_t sport = (uint16_t)rnd(), id = 0;
	size_t plen, n = valid_packet(buf, &in, payload, &plen);
	uint8_t *p;
	size_t bit;
	uint32_t icrc;
	bool is_v4;

	if (n == 0) {
		report(c, "valid packet not built");
		return;
	}
	for (int i = 0; i < 16; i++) {
		v6.src[i] = (uint8_t)rnd();
		v6.dst[i] = (uint8_t)rnd();
	}
	p = exact(buf, n);
	in.hdrs = 0;
	roce_opcode_hdrs(in.bth.opcode, &in.hdrs);
	if (roce_pkt_parse(p, n, &out) != ROCE_PARSE_OK || !same_fields(&in, &out) ||
		out.payload_len != plen || memcmp(out.payload, payload, plen) != 0)
		report(c, "valid packet did not parse to its fields");
	if (!parse_invariants(p, n))
		report(c, "invariants of a valid packet");
	/* ICRC over IPv4 or IPv6; one flipped bit outside BTH byte 4 must change it. */
	is_v4 = rnd() & 1;
	if (is_v4) {
		roce_icrc_store(p, n, roce_icrc_ip4(&v4, sport, ROCE_UDP_PORT, p, n));
		if (!roce_icrc_solve_ip4_id(&v4, sport, ROCE_UDP_PORT, p, n, &id) || id != v4.id)
			report(c, "IPv4 ID not recovered");
		icrc = roce_icrc_ip4(&v4, sport, ROCE_UDP_PORT, p, n);
	} else {
		roce_icrc_store(p, n, roce_icrc_ip6(&v6, sport, ROCE_UDP_PORT, p, n));
		icrc = roce_icrc_ip6(&v6, sport, ROCE_UDP_PORT, p, n);
	}
	if (icrc != roce_icrc_load(p, n))
		report(c, "ICRC not reproduced");
	bit = (size_t)rnd_below((n - ROCE_ICRC_LEN) * 8);
	if (bit / 8 == 4)
		bit += 8;
	p[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	icrc = is_v4 ? roce_icrc_ip4(&v4, sport, ROCE_UDP_PORT, p, n) :
		roce_icrc_ip6(&v6, sport, ROCE_UDP_PORT, p, n);
	if (icrc == roce_icrc_load(p, n))
		report(c, "ICRC missed a flipped bit");
	free(p);
}

static void round_mutated(struct ctx *c, int kind)
{
	static uint8_t buf[MAX_PKT], payload[MAX_PAYLOAD];
	struct roce_pkt in;
	size_t plen, n = valid_packet(buf, &in, payload, &plen);
	uint8_t *p;

	switch (kind) {
	case 0: /* truncated, sometimes hard at a header boundary */
		n = (rnd() & 1) ? (size_t)rnd_below(n + 1) : (size_t)rnd_below(64 < n ? 64 : n + 1);
		break;
	case 1: { /* a few bytes overwritten, or bits of the BTH flags (pad, version) */
		int k = 1 + (int)rnd_below(8);

		for (int i = 0; i < k; i++)
			buf[rnd_below(n)] = (uint8_t)rnd();
		if (rnd() & 1)
			buf[1] ^= (uint8_t)rnd();
		if (rnd() & 1)
			n = (size_t)rnd_below(n + 1);
		break;
	}
	default: /* random bytes, random opcode first */
		n = (size_t)rnd_below(96);
		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)rnd();
		if (n > 0 && (rnd() & 1))
			buf[0] = opcodes[rnd_below(sizeof(opcodes))];
		if (n > 1 && (rnd() & 1))
			buf[1] &= 0xf0;
		break;
	}
	p = exact(buf, n);
	if (!parse_invariants(p, n))
		report(c, "invariants of a mutated packet");
	free(p);
}

/* Whole IP packets: a valid RoCEv2 packet in IPv4 or IPv6, then damaged. */
static void round_ip(struct ctx *c)
{
	static uint8_t buf[40 + 8 + MAX_PKT], payload[MAX_PAYLOAD];
	struct roce_pkt in;
	size_t plen, n, hl = (rnd() & 1) ? 20 : 40;
	uint32_t icrc = 0;
	uint8_t *p;

	n = valid_packet(buf + hl + 8, &in, payload, &plen);
	memset(buf, 0, hl + 8);
	if (hl == 20) {
		buf[0] = 0x45;
		roce_put16(buf + 2, (uint16_t)(hl + 8 + n));
		buf[9] = 17;
	} else {
		buf[0] = 0x60;
		roce_put16(buf + 4, (uint16_t)(8 + n));
		buf[6] = 17;
	}
	roce_put16(buf + hl + 2, ROCE_UDP_PORT);
	roce_put16(buf + hl + 4, (uint16_t)(8 + n));
	n += hl + 8;
	if (!roce_icrc_ip_packet(buf, n, &icrc))
		report(c, "well-formed IP packet refused");
	for (int i = (int)rnd_below(4); i > 0; i--)
		buf[rnd_below(n)] = (uint8_t)rnd();
	if (rnd() & 1)
		n = (size_t)rnd_below(n + 1);
	p = exact(buf, n);
	(void)roce_icrc_ip_packet(p, n, &icrc); /* must not read out of bounds */
	free(p);
}

/* CM MADs: decode anything; re-encoding a decode is stable. */
static void round_mad(struct ctx *c)
{
	static uint8_t mad[ROCE_MAD_LEN], a[ROCE_MAD_LEN], b[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr;
	size_t n = ROCE_MAD_LEN;
	uint8_t *p;

	for (size_t i = 0; i < sizeof(mad); i++)
		mad[i] = (uint8_t)rnd();
	if (rnd() & 1)
		n = (size_t)rnd_below(ROCE_MAD_LEN + 1);
	p = exact(mad, n);
	if (roce_cm_mad_check(p, n, &hdr) != (n == ROCE_MAD_LEN && mad[0] == 1 && mad[1] == 7 &&
		mad[2] == 2 && mad[3] == 3))
		report(c, "MAD check");
	free(p);

#define STABLE(type, get, put, ...) \
	do { \
		struct type m1, m2; \
		get(mad, &m1); \
		put(a, __VA_ARGS__, &m1); \
		get(a, &m2); \
		put(b, __VA_ARGS__, &m2); \
		if (memcmp(a, b, ROCE_MAD_LEN) != 0) \
			report(c, #type " re-encoding not stable"); \
	} while (0)
	STABLE(roce_cm_req, roce_cm_req_get, roce_cm_req_put, 1);
	STABLE(roce_cm_rep, roce_cm_rep_get, roce_cm_rep_put, 2);
	STABLE(roce_cm_rej, roce_cm_rej_get, roce_cm_rej_put, 3);
	STABLE(roce_cm_mra, roce_cm_mra_get, roce_cm_mra_put, 4);
	STABLE(roce_cm_rtu, roce_cm_rtu_get, roce_cm_rtu_put, ROCE_CM_RTU, 5);
	STABLE(roce_cm_dreq, roce_cm_dreq_get, roce_cm_dreq_put, 6);
#undef STABLE
	{
		struct roce_cma_hdr cma;
		uint16_t ps, port;

		(void)roce_cma_hdr_get(mad + ROCE_MAD_HDR_LEN + 140, &cma);
		(void)roce_cm_service_parse(roce_get64(mad + 32), &ps, &port);
	}
}

static uint64_t env_u64(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);

	return v != NULL && *v != '\0' ? strtoull(v, NULL, 0) : dflt;
}

static void test_fuzz(void)
{
	struct ctx c = { 0 };
	uint64_t iters = env_u64("ROCE_FUZZ_ITERS", 500000);

	c.seed = env_u64("ROCE_FUZZ_SEED", 0x5eed0f2026ull);
	rng = c.seed != 0 ? c.seed : 1;
	for (c.round = 0; c.round < iters; c.round++) {
		switch (rnd_below(8)) {
		case 0:
		case 1:
			round_valid(&c);
			break;
		case 2:
		case 3:
			round_mutated(&c, 0);
			break;
		case 4:
			round_mutated(&c, 1);
			break;
		case 5:
			round_mutated(&c, 2);
			break;
		case 6:
			round_ip(&c);
			break;
		default:
			round_mad(&c);
			break;
		}
	}
	fprintf(stderr, "%" PRIu64 " rounds, seed %" PRIu64 ", %u problems\n", iters, c.seed, c.bad);
	CHECK(c.bad == 0);
}

int main(void)
{
	TEST_RUN(test_fuzz);
	TEST_EXIT();
}
