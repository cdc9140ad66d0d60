/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 packets (private to lib/softhw/rnic/): the IBTA transport headers that ride in a UDP
 * datagram to port 4791, built and parsed byte by byte, and their invariant CRC (ICRC).
 *
 * A UDP socket sees the datagram's payload: BTH, the opcode's extension headers, the payload,
 * 0-3 pad bytes and the 4-byte ICRC. Every multi-byte header field is big-endian; the ICRC is
 * stored little-endian. This layer knows nothing of queue pairs: the parser checks that a
 * packet is well formed (lengths against the opcode's header set, pad, version), not whether
 * it fits a connection's state or path MTU (roce_payload_ok helps the responder with that,
 * since rxe answers a wrong payload length with a NAK rather than a silent drop).
 * docs/rocev2.md describes the choices.
 */
#ifndef SOFTHW_RNIC_ROCE_PKT_H
#define SOFTHW_RNIC_ROCE_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROCE_UDP_PORT 4791
#define ROCE_BTH_LEN 12
#define ROCE_DETH_LEN 8
#define ROCE_RETH_LEN 16
#define ROCE_ATOMICETH_LEN 28
#define ROCE_AETH_LEN 4
#define ROCE_ATOMICACKETH_LEN 8
#define ROCE_IMMDT_LEN 4
#define ROCE_IETH_LEN 4
#define ROCE_CNP_LEN 16 /* the reserved bytes of a congestion notification */
#define ROCE_ICRC_LEN 4
#define ROCE_PKEY_DEFAULT 0xffff
#define ROCE_QP1_QKEY 0x80010000u
#define ROCE_PSN_MASK 0xffffffu

enum roce_opcode {
	ROCE_RC_SEND_FIRST = 0x00,
	ROCE_RC_SEND_MIDDLE = 0x01,
	ROCE_RC_SEND_LAST = 0x02,
	ROCE_RC_SEND_LAST_IMM = 0x03,
	ROCE_RC_SEND_ONLY = 0x04,
	ROCE_RC_SEND_ONLY_IMM = 0x05,
	ROCE_RC_WRITE_FIRST = 0x06,
	ROCE_RC_WRITE_MIDDLE = 0x07,
	ROCE_RC_WRITE_LAST = 0x08,
	ROCE_RC_WRITE_LAST_IMM = 0x09,
	ROCE_RC_WRITE_ONLY = 0x0a,
	ROCE_RC_WRITE_ONLY_IMM = 0x0b,
	ROCE_RC_READ_REQUEST = 0x0c,
	ROCE_RC_READ_RESP_FIRST = 0x0d,
	ROCE_RC_READ_RESP_MIDDLE = 0x0e,
	ROCE_RC_READ_RESP_LAST = 0x0f,
	ROCE_RC_READ_RESP_ONLY = 0x10,
	ROCE_RC_ACK = 0x11,
	ROCE_RC_ATOMIC_ACK = 0x12,
	ROCE_RC_CMP_SWAP = 0x13,
	ROCE_RC_FETCH_ADD = 0x14,
	ROCE_RC_SEND_LAST_INV = 0x16,
	ROCE_RC_SEND_ONLY_INV = 0x17,
	ROCE_UD_SEND_ONLY = 0x64,
	ROCE_UD_SEND_ONLY_IMM = 0x65,
	ROCE_CNP = 0x81,
};

/* Which extension headers a packet has (struct roce_pkt.hdrs), in wire order. */
enum roce_hdr {
	ROCE_H_DETH = 1u << 0,
	ROCE_H_RETH = 1u << 1,
	ROCE_H_ATOMICETH = 1u << 2,
	ROCE_H_AETH = 1u << 3,
	ROCE_H_ATOMICACKETH = 1u << 4,
	ROCE_H_IMMDT = 1u << 5,
	ROCE_H_IETH = 1u << 6,
	ROCE_H_CNP = 1u << 7,
};

/* What an opcode's packets carry after the headers. */
enum roce_payload_kind {
	ROCE_PL_NONE,   /* nothing: READ request, ACKs, atomics, CNP */
	ROCE_PL_MIDDLE, /* exactly one path MTU: FIRST and MIDDLE packets */
	ROCE_PL_LAST,   /* 1..path MTU: packets that end a multi-packet message */
	ROCE_PL_ONLY,   /* 0..path MTU: single-packet messages */
};

/* Why roce_pkt_parse refused a packet (rxe drops such packets silently). */
enum roce_parse_err {
	ROCE_PARSE_OK = 0,
	ROCE_PARSE_SHORT,   /* shorter than BTH + the opcode's headers + pad + ICRC */
	ROCE_PARSE_OPCODE,  /* an opcode this layer does not know */
	ROCE_PARSE_TVER,    /* transport header version not 0 */
	ROCE_PARSE_PAYLOAD, /* payload (or pad) on an opcode that carries none */
};

struct roce_bth {
	uint8_t opcode;
	bool se;        /* solicited event */
	bool mig;       /* MigReq */
	uint8_t pad;    /* PadCnt, 0..3 */
	uint8_t tver;   /* 0..15; only 0 is valid */
	uint16_t pkey;
	uint8_t fecn_becn; /* byte 4 as sent (F, B, reserved); masked out of the ICRC */
	uint32_t dqpn;  /* 24 bits */
	bool ack_req;
	uint32_t psn;   /* 24 bits */
};

struct roce_deth {
	uint32_t qkey;
	uint32_t sqpn; /* 24 bits */
};

struct roce_reth {
	uint64_t va;
	uint32_t rkey;
	uint32_t len; /* whole remaining message length */
};

struct roce_atomiceth {
	uint64_t va;
	uint32_t rkey;
	uint64_t swap_add; /* swap (CMP_SWAP) or add (FETCH_ADD) */
	uint64_t compare;
};

struct roce_aeth {
	uint8_t syndrome; /* ROCE_AETH_* below */
	uint32_t msn;     /* 24 bits */
};

#define ROCE_AETH_ACK 0x00    /* | credit code (0..31; 31 = no credits, what rxe sends) */
#define ROCE_AETH_RNR 0x20    /* | RNR timer code */
#define ROCE_AETH_NAK 0x60    /* | NAK code */
#define ROCE_AETH_KIND 0x60   /* syndrome & this: which of the three above */
#define ROCE_AETH_VALUE 0x1f
#define ROCE_NAK_PSN_SEQ 0
#define ROCE_NAK_INVALID 1
#define ROCE_NAK_REM_ACCESS 2
#define ROCE_NAK_REM_OP 3

/* Credits an ACK's credit code announces; -1 for 31, "no end-to-end credits" (rxe's). */
int roce_ack_credits(uint8_t code);

/* Microseconds an RNR NAK's timer code asks for (code 0 is the longest: 655.36 ms). */
uint32_t roce_rnr_timer_us(uint8_t code);

/*
 * The UDP source port rxe gives a QP when it is created: 0xc000 plus the top 14 bits of
 * qpn * 0x61c88647 (a multiplicative hash; only for spreading flows, nobody checks it). QP1
 * and UD QPs keep it (QP1: 0xd872, seen from Linux 6.1); an RC QP does not, see below.
 */
static inline uint16_t roce_udp_sport(uint32_t qpn)
{
	return (uint16_t)(0xc000 + ((uint32_t)(qpn * 0x61c88647u) >> 18));
}

/*
 * The UDP source port of an RC QP of rxe once its address vector is set (modify to RTR):
 * derived from the path's flow label (the REQ's primary path; Linux RDMA-CM puts a hash of
 * its ports there, roce_cma_flow_label), and when that is 0 from a label computed from both
 * QPNs: v = lqpn * rqpn, v ^= v >> 20, v ^= v >> 40, low 20 bits. The port is
 * 0xc000 | (label bits 13..0 ^ label bits 19..14). Seen from Linux 6.1: after our REQ with
 * label 0, its QP 0x11 connected to our 0x4242 sent from 0xe673 (roce_udp_sport(0x11) would be
 * 0xdf94); after its own REQ with label 0xa8eee, from 0xcec4. Both ends compute the same.
 */
static inline uint16_t roce_udp_sport_rc(uint32_t flow_label, uint32_t lqpn, uint32_t rqpn)
{
	uint64_t v = (uint64_t)(lqpn & 0xffffff) * (rqpn & 0xffffff);
	uint32_t fl = flow_label & 0xfffff;

	if (fl == 0) {
		v ^= v >> 20;
		v ^= v >> 40;
		fl = (uint32_t)(v & 0xfffff);
	}
	return (uint16_t)(0xc000 | ((fl & 0x3fff) ^ (fl >> 14)));
}

/*
 * A packet, parsed or to build. Only the headers the opcode calls for (hdrs) mean anything.
 * Numeric fields are host values (the wire's big-endian decoded); imm is the 32-bit value of
 * the four ImmDt bytes read big-endian.
 */
struct roce_pkt {
	struct roce_bth bth;
	unsigned int hdrs; /* enum roce_hdr bits */
	struct roce_deth deth;
	struct roce_reth reth;
	struct roce_atomiceth atomic;
	struct roce_aeth aeth;
	uint64_t atomic_orig; /* AtomicAckETH: the value before the operation */
	uint32_t imm;
	uint32_t ieth_rkey;   /* IETH: the R_Key to invalidate */
	/* Filled by the parser: */
	size_t len;           /* whole UDP payload, BTH to ICRC included */
	size_t hdr_len;       /* BTH + extension headers = offset of the payload */
	const uint8_t *payload;
	size_t payload_len;   /* without pad */
	uint32_t icrc;        /* the last four bytes, read little-endian */
};

/* Big-endian field access, bounds left to the caller. */
static inline void roce_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void roce_put24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void roce_put32(uint8_t *p, uint32_t v)
{
	roce_put16(p, (uint16_t)(v >> 16));
	roce_put16(p + 2, (uint16_t)v);
}

static inline void roce_put64(uint8_t *p, uint64_t v)
{
	roce_put32(p, (uint32_t)(v >> 32));
	roce_put32(p + 4, (uint32_t)v);
}

static inline uint16_t roce_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t roce_get24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t roce_get32(const uint8_t *p)
{
	return (uint32_t)roce_get16(p) << 16 | roce_get16(p + 2);
}

static inline uint64_t roce_get64(const uint8_t *p)
{
	return (uint64_t)roce_get32(p) << 32 | roce_get32(p + 4);
}

/* 24-bit PSN arithmetic: a is after b when (a - b) mod 2^24 lies in [1, 2^23 - 1]. */
static inline uint32_t roce_psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & ROCE_PSN_MASK;
}

/* <0, 0, >0 as a is before, equal to or after b (half-window 2^23). */
static inline int roce_psn_cmp(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & ROCE_PSN_MASK;

	if (d == 0)
		return 0;
	return d < (1u << 23) ? 1 : -1;
}

/* Extension headers of an opcode (ROCE_H_* bits), false for an opcode this layer lacks. */
bool roce_opcode_hdrs(uint8_t opcode, unsigned int *hdrs);

/* The payload rule of a known opcode. */
enum roce_payload_kind roce_opcode_payload(uint8_t opcode);

/* The opcode's name for log lines ("RC_SEND_ONLY"), "unknown" if it has none here. */
const char *roce_opcode_name(uint8_t opcode);

/* Bytes of BTH + extension headers for a header set. */
size_t roce_hdrs_len(unsigned int hdrs);

/* Whether payload_len suits the opcode on a path of pmtu bytes (rxe NAKs 0x61 otherwise). */
bool roce_payload_ok(uint8_t opcode, size_t payload_len, uint32_t pmtu);

/* Pad bytes after a payload of that length (to a multiple of 4). */
static inline uint8_t roce_pad_len(size_t payload_len)
{
	return (uint8_t)(-payload_len & 3);
}

/*
 * Parses a UDP payload (BTH onward, ICRC included) of len bytes into *pkt; pkt->payload
 * points into buf. Reads nothing outside buf[0..len). Does not check the ICRC (roce_icrc.c).
 */
enum roce_parse_err roce_pkt_parse(const uint8_t *buf, size_t len, struct roce_pkt *pkt);

const char *roce_parse_err_name(enum roce_parse_err err);

/*
 * Builds the UDP payload of a packet: BTH from pkt->bth (pad computed from payload_len, the
 * given bth.pad ignored), the extension headers the opcode calls for (from pkt, pkt->hdrs
 * ignored), the payload (payload NULL: left for the caller to write, right before the pad), zero
 * pad and a zero ICRC for roce_icrc_set_*. Returns its length, or
 * 0 if the opcode is unknown, carries no payload but payload_len > 0, or cap is too small.
 */
size_t roce_pkt_build(uint8_t *buf, size_t cap, const struct roce_pkt *pkt, const void *payload,
	size_t payload_len);

/*
 * The headers alone (BTH with the pad payload_len calls for, then the extension headers), for
 * a datagram whose payload is sent from where it lies. Returns their length, or 0 as above.
 */
size_t roce_pkt_build_hdr(uint8_t *buf, size_t cap, const struct roce_pkt *pkt, size_t payload_len);

/* ---- ICRC (roce_icrc.c) ---- */

/* CRC-32 as zlib computes it (IEEE 802.3, reflected): roce_crc32(0, p, n) starts one. */
uint32_t roce_crc32(uint32_t crc, const void *buf, size_t len);

/* Which CRC-32 code runs ("pclmul" or "slice8"), for bench output. */
const char *roce_crc32_impl(void);

/* The IP and UDP fields the ICRC covers (host order); tos/ttl/traffic class/hop limit/flow
 * label are masked out of it and not needed. */
struct roce_ip4 {
	uint32_t src, dst;
	uint16_t id;
	uint16_t frag; /* flags and fragment offset: 0x4000 = DF, what rxe and Linux send */
};

struct roce_ip6 {
	uint8_t src[16], dst[16];
};

#define ROCE_IP4_DF 0x4000

/*
 * ICRC of a RoCEv2 datagram whose UDP payload is pkt[0..len) (ICRC bytes included, not read),
 * sent over IPv4 / IPv6 from UDP port sport to dport. Returns the CRC value; the wire carries
 * it little-endian (roce_icrc_store).
 */
uint32_t roce_icrc_ip4(const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len);
uint32_t roce_icrc_ip6(const struct roce_ip6 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len);

/*
 * The same for a datagram whose payload lies apart: hdr[0..hlen) (BTH and extension headers),
 * then plen bytes at payload, then roce_pad_len(plen) zero bytes and the ICRC.
 */
uint32_t roce_icrc_ip4_split(const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *hdr, size_t hlen, const void *payload, size_t plen);

static inline void roce_icrc_store(uint8_t *pkt, size_t len, uint32_t icrc)
{
	uint8_t *p = pkt + len - ROCE_ICRC_LEN;

	p[0] = (uint8_t)icrc;
	p[1] = (uint8_t)(icrc >> 8);
	p[2] = (uint8_t)(icrc >> 16);
	p[3] = (uint8_t)(icrc >> 24);
}

static inline uint32_t roce_icrc_load(const uint8_t *pkt, size_t len)
{
	const uint8_t *p = pkt + len - ROCE_ICRC_LEN;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * ICRC of a whole IP packet (IPv4 without options or IPv6 without extension headers, UDP,
 * BTH..ICRC) of len bytes. Returns false, *icrc untouched, if it is not such a packet (wrong
 * version, protocol, or lengths that disagree with len or with each other).
 */
bool roce_icrc_ip_packet(const uint8_t *ip, size_t len, uint32_t *icrc);

/*
 * A UDP socket does not show the IPv4 ID, which the ICRC covers. The CRC is affine in those 16
 * bits, so the ID that makes the received ICRC (roce_icrc_load) match can be solved for:
 * returns true with *id set if one exists (then it is the only one), false if none does
 * (the packet is damaged). ip->id is ignored; ip->frag must be what the sender set (DF).
 */
bool roce_icrc_solve_ip4_id(const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len, uint16_t *id);

#endif /* SOFTHW_RNIC_ROCE_PKT_H */
