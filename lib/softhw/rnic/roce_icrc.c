/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The RoCEv2 invariant CRC (roce_pkt.h) and the CRC-32 under it.
 *
 * ICRC = CRC-32 (zlib's) over: 8 bytes of 0xff (standing for the InfiniBand LRH that RoCEv2
 * replaces), the IP header with the fields routers may change set to ones (IPv4: TOS, TTL,
 * header checksum; IPv6: traffic class, flow label, hop limit), the UDP header with its
 * checksum set to ones, the BTH with byte 4 (FECN/BECN/reserved) set to ones, then everything
 * after the BTH up to the ICRC. The value goes on the wire little-endian.
 *
 * CRC-32 runs eight bytes per step from eight 256-entry tables ("slicing by 8"), built once.
 * The x86 crc32 instruction does not help: it computes CRC-32C, another polynomial.
 */
#include <pthread.h>
#include <string.h>

#include "softhw/rnic/roce_pkt.h"

#define CRC32_POLY 0xedb88320u /* 0x04c11db7 bit-reversed: bit 31 is x^0 */

static uint32_t tables[8][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ CRC32_POLY : c >> 1;
		tables[0][n] = c;
	}
	/* tables[k][n]: byte n followed by k zero bytes. */
	for (int k = 1; k < 8; k++)
		for (int n = 0; n < 256; n++)
			tables[k][n] = (tables[k - 1][n] >> 8) ^ tables[0][tables[k - 1][n] & 0xff];
}

static inline uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

/* The raw register update (no inversion), the form the solver below reasons about. */
static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len >= 8) {
		uint32_t lo = crc ^ le32(p);
		uint32_t hi = le32(p + 4);

		crc = tables[7][lo & 0xff] ^ tables[6][(lo >> 8) & 0xff] ^
			tables[5][(lo >> 16) & 0xff] ^ tables[4][lo >> 24] ^ tables[3][hi & 0xff] ^
			tables[2][(hi >> 8) & 0xff] ^ tables[1][(hi >> 16) & 0xff] ^ tables[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		crc = (crc >> 8) ^ tables[0][(crc ^ *p++) & 0xff];
	return crc;
}

uint32_t roce_crc32(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&tables_once, tables_init);
	return ~crc_update(~crc, buf, len);
}

const char *roce_crc32_impl(void)
{
	return "slice8";
}

/* 8 x 0xff, then IPv4 (20) or IPv6 (40), UDP (8) and BTH (12), masked. */
#define PREFIX_MAX (8 + 40 + 8 + ROCE_BTH_LEN)

static size_t udp_bth_masked(uint8_t *h, uint16_t sport, uint16_t dport, const uint8_t *pkt,
	size_t len)
{
	roce_put16(h, sport);
	roce_put16(h + 2, dport);
	roce_put16(h + 4, (uint16_t)(8 + len));
	roce_put16(h + 6, 0xffff);
	memcpy(h + 8, pkt, ROCE_BTH_LEN);
	h[8 + 4] = 0xff;
	return 8 + ROCE_BTH_LEN;
}

static size_t ip4_masked(uint8_t *h, const struct roce_ip4 *ip, size_t len)
{
	h[0] = 0x45;
	h[1] = 0xff; /* TOS */
	roce_put16(h + 2, (uint16_t)(20 + 8 + len));
	roce_put16(h + 4, ip->id);
	roce_put16(h + 6, ip->frag);
	h[8] = 0xff; /* TTL */
	h[9] = 17;
	roce_put16(h + 10, 0xffff); /* header checksum */
	roce_put32(h + 12, ip->src);
	roce_put32(h + 16, ip->dst);
	return 20;
}

static uint32_t icrc_finish(uint8_t *h, size_t hlen, const uint8_t *pkt, size_t len)
{
	uint32_t crc = roce_crc32(0, h, hlen);

	return roce_crc32(crc, pkt + ROCE_BTH_LEN, len - ROCE_BTH_LEN - ROCE_ICRC_LEN);
}

uint32_t roce_icrc_ip4(const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len)
{
	uint8_t h[PREFIX_MAX];
	size_t n = 8;

	if (len < ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return 0;
	memset(h, 0xff, 8);
	n += ip4_masked(h + n, ip, len);
	n += udp_bth_masked(h + n, sport, dport, pkt, len);
	return icrc_finish(h, n, pkt, len);
}

uint32_t roce_icrc_ip6(const struct roce_ip6 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len)
{
	uint8_t h[PREFIX_MAX];
	size_t n = 8;

	if (len < ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return 0;
	memset(h, 0xff, 8);
	/* Version kept; traffic class and flow label masked. */
	h[n] = 0x6f;
	h[n + 1] = h[n + 2] = h[n + 3] = 0xff;
	roce_put16(h + n + 4, (uint16_t)(8 + len));
	h[n + 6] = 17;
	h[n + 7] = 0xff; /* hop limit */
	memcpy(h + n + 8, ip->src, 16);
	memcpy(h + n + 24, ip->dst, 16);
	n += 40;
	n += udp_bth_masked(h + n, sport, dport, pkt, len);
	return icrc_finish(h, n, pkt, len);
}

bool roce_icrc_ip_packet(const uint8_t *ip, size_t len, uint32_t *icrc)
{
	const uint8_t *udp;
	size_t ulen;

	if (len < 1)
		return false;
	if (ip[0] == 0x45) {
		struct roce_ip4 v4;

		if (len < 20 + 8 || roce_get16(ip + 2) != len || ip[9] != 17)
			return false;
		udp = ip + 20;
		ulen = len - 20;
		if (roce_get16(udp + 4) != ulen || ulen < 8 + ROCE_BTH_LEN + ROCE_ICRC_LEN)
			return false;
		v4.id = roce_get16(ip + 4);
		v4.frag = roce_get16(ip + 6);
		v4.src = roce_get32(ip + 12);
		v4.dst = roce_get32(ip + 16);
		*icrc = roce_icrc_ip4(&v4, roce_get16(udp), roce_get16(udp + 2), udp + 8, ulen - 8);
		return true;
	}
	if ((ip[0] >> 4) == 6) {
		struct roce_ip6 v6;

		if (len < 40 + 8 || roce_get16(ip + 4) != len - 40 || ip[6] != 17)
			return false;
		udp = ip + 40;
		ulen = len - 40;
		if (roce_get16(udp + 4) != ulen || ulen < 8 + ROCE_BTH_LEN + ROCE_ICRC_LEN)
			return false;
		memcpy(v6.src, ip + 8, 16);
		memcpy(v6.dst, ip + 24, 16);
		*icrc = roce_icrc_ip6(&v6, roce_get16(udp), roce_get16(udp + 2), udp + 8, ulen - 8);
		return true;
	}
	return false;
}

/*
 * Solving for the IPv4 ID.
 *
 * For a fixed length the CRC register is linear in the message bits, up to a constant that
 * the initial value and final inversion contribute. So ICRC(id) = ICRC(0) ^ L(id), where L(id)
 * is the raw CRC (register starting at 0) of a message that is all zero but for the two ID
 * bytes. That is the register after the two ID bytes, carried through the `rest` zero bytes
 * that follow them; feeding a zero byte multiplies the register by x^8 modulo the polynomial,
 * so `rest` of them multiply it by x^(8 rest) mod P, computed by squaring. L is one-to-one (16
 * bits into a degree-32 residue ring where x is invertible), so solving L(id) = received ^
 * ICRC(0) by elimination over GF(2) finds at most one id.
 */

/* a * b mod P, both in the reflected form (bit 31 = x^0). */
static uint32_t gf2_mulmod(uint32_t a, uint32_t b)
{
	uint32_t p = 0;

	for (int i = 0; i < 32; i++) {
		if (a & (0x80000000u >> i))
			p ^= b;
		b = (b & 1) ? (b >> 1) ^ CRC32_POLY : b >> 1; /* b *= x */
	}
	return p;
}

/* x^(8 n) mod P: the effect of n zero bytes on the register. */
static uint32_t x_pow_8n(size_t n)
{
	uint32_t result = 0x80000000u; /* 1 */
	uint32_t base = 0x80000000u >> 8; /* x^8 */

	while (n != 0) {
		if (n & 1)
			result = gf2_mulmod(result, base);
		base = gf2_mulmod(base, base);
		n >>= 1;
	}
	return result;
}

bool roce_icrc_solve_ip4_id(const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len, uint16_t *id)
{
	struct roce_ip4 zero = *ip;
	uint32_t pivot_vec[32] = { 0 };
	uint32_t pivot_ids[32] = { 0 };
	uint32_t shift, target;
	uint16_t found = 0;
	/* Bytes after the ID in the CRC input: the rest of the masked prefix and the packet. */
	size_t rest = (20 - 6) + 8 + (len - ROCE_ICRC_LEN);

	if (len < ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return false;
	pthread_once(&tables_once, tables_init);
	zero.id = 0;
	target = roce_icrc_load(pkt, len) ^ roce_icrc_ip4(&zero, sport, dport, pkt, len);
	shift = x_pow_8n(rest);
	for (int bit = 0; bit < 16; bit++) {
		uint8_t idb[2] = { (uint8_t)((1u << bit) >> 8), (uint8_t)(1u << bit) };
		uint32_t vec = gf2_mulmod(shift, crc_update(0, idb, 2));
		uint32_t ids = 1u << bit;

		/* Insert into the echelon basis, keyed by the highest set bit. */
		for (int b = 31; b >= 0 && vec != 0; b--) {
			if (!(vec & (1u << b)))
				continue;
			if (pivot_vec[b] == 0) {
				pivot_vec[b] = vec;
				pivot_ids[b] = ids;
				break;
			}
			vec ^= pivot_vec[b];
			ids ^= pivot_ids[b];
		}
	}
	for (int b = 31; b >= 0; b--) {
		if (!(target & (1u << b)))
			continue;
		if (pivot_vec[b] == 0)
			return false; /* not in the span: no ID matches */
		target ^= pivot_vec[b];
		found ^= (uint16_t)pivot_ids[b];
	}
	*id = found;
	return true;
}
