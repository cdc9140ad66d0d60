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
 * CRC-32 runs eight bytes per step from eight 256-entry tables ("slicing by 8"), built once;
 * on x86-64 with carry-less multiply (PCLMULQDQ), buffers of 64 bytes and more are first
 * folded 64 bytes per step (below). The x86 crc32 instruction does not help: it computes
 * CRC-32C, another polynomial.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "softhw/rnic/roce_pkt.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_CLMUL_PATH 1
#include <immintrin.h>
#endif

#define CRC32_POLY 0xedb88320u /* 0x04c11db7 bit-reversed: bit 31 is x^0 */

static uint32_t tables[8][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

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

static uint32_t x_pow2k[64]; /* x^(2^k) mod P, built with the tables */

static void x_pow2k_init(void)
{
	x_pow2k[0] = 0x40000000u; /* x */
	for (int k = 1; k < 64; k++)
		x_pow2k[k] = gf2_mulmod(x_pow2k[k - 1], x_pow2k[k - 1]);
}

/* x^n mod P: one product per set bit of n. */
static uint32_t x_pow(uint64_t n)
{
	uint32_t result = 0x80000000u; /* 1 */

	for (int k = 0; n != 0; k++, n >>= 1)
		if (n & 1)
			result = gf2_mulmod(result, x_pow2k[k]);
	return result;
}

#ifdef HAVE_CLMUL_PATH
/*
 * Folding with carry-less multiplies. Load 16 message bytes little-endian into a register:
 * bit k stands for x^(127-k) (the first byte's low bit is the highest power, as the reflected
 * CRC reads it). Its low quadword h is the upper half H of that 128-bit polynomial, its high
 * quadword l the lower half L: V = H x^64 + L. Moving V forward over d bits of message (to
 * add it to the chunk d bits later) means V x^d = H x^(d+64) + L x^d, and modulo P that is
 * H (x^(d+64) mod P) + L (x^d mod P): two 64 x 32-bit carry-less products of fewer than 96
 * bits, a new 128-bit value congruent to the old. A carry-less product of two quadwords read
 * this way comes out as x times the true product, so the constants are x^(e-1) mod P, put
 * in the quadword's top half (bit 32 + j stands for x^(31-j), as bit j of the 32-bit form).
 * Once everything is folded into one 16-byte value, the table code finishes: the CRC of
 * those 16 bytes is the CRC of all the folded bytes, since they agree modulo P.
 */
static __m128i fold_by_512, fold_by_128; /* { x^(d+63), x^(d-1) } mod P, d = 512 and 128 */
static bool clmul_ok;

static __m128i fold_constants(uint64_t d)
{
	return _mm_set_epi64x((long long)((uint64_t)x_pow(d - 1) << 32),
		(long long)((uint64_t)x_pow(d + 63) << 32));
}

__attribute__((target("pclmul,sse2"))) static inline __m128i fold(__m128i v, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(v, k, 0x00), _mm_clmulepi64_si128(v, k, 0x11));
}

static uint32_t crc_update_tables(uint32_t crc, const uint8_t *p, size_t len);

__attribute__((target("sse2"))) static inline __m128i load16(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

__attribute__((target("pclmul,sse2"))) static uint32_t crc_update_clmul(uint32_t crc,
	const uint8_t *p, size_t len)
{
	__m128i x0, x1, x2, x3;
	uint8_t last[16];

	/* The register's start value enters as four message bytes XORed in. */
	x0 = _mm_xor_si128(load16(p), _mm_cvtsi32_si128((int)crc));
	x1 = load16(p + 16);
	x2 = load16(p + 32);
	x3 = load16(p + 48);
	p += 64;
	len -= 64;
	while (len >= 64) {
		x0 = _mm_xor_si128(fold(x0, fold_by_512), load16(p));
		x1 = _mm_xor_si128(fold(x1, fold_by_512), load16(p + 16));
		x2 = _mm_xor_si128(fold(x2, fold_by_512), load16(p + 32));
		x3 = _mm_xor_si128(fold(x3, fold_by_512), load16(p + 48));
		p += 64;
		len -= 64;
	}
	x1 = _mm_xor_si128(fold(x0, fold_by_128), x1);
	x2 = _mm_xor_si128(fold(x1, fold_by_128), x2);
	x3 = _mm_xor_si128(fold(x2, fold_by_128), x3);
	while (len >= 16) {
		x3 = _mm_xor_si128(fold(x3, fold_by_128), load16(p));
		p += 16;
		len -= 16;
	}
	_mm_storeu_si128((__m128i *)last, x3);
	return crc_update_tables(crc_update_tables(0, last, 16), p, len);
}
#endif

/* Once per process: the tables, the powers of x, the fold constants and the choice of code. */
static void tables_init(void)
{
#ifdef HAVE_CLMUL_PATH
	const char *force = getenv("SOFTDOCA_ROCE_CRC"); /* "slice8": the tables only */
#endif

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
	x_pow2k_init();
#ifdef HAVE_CLMUL_PATH
	fold_by_512 = fold_constants(512);
	fold_by_128 = fold_constants(128);
	clmul_ok = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse2") &&
		(force == NULL || strcmp(force, "slice8") != 0);
#endif
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
static uint32_t crc_update_tables(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len >= 8) {
		uint32_t lo = crc ^ le32(p);
		uint32_t hi = le32(p + 4);

		crc = tables[7][lo & 0xff] ^ tables[6][(lo >> 8) & 0xff] ^
			tables[5][(lo >> 16) & 0xff] ^ tables[4][lo >> 24] ^
			tables[3][hi & 0xff] ^ tables[2][(hi >> 8) & 0xff] ^
			tables[1][(hi >> 16) & 0xff] ^ tables[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len-- > 0)
		crc = (crc >> 8) ^ tables[0][(crc ^ *p++) & 0xff];
	return crc;
}

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t len)
{
#ifdef HAVE_CLMUL_PATH
	if (len >= 64 && clmul_ok)
		return crc_update_clmul(crc, p, len);
#endif
	return crc_update_tables(crc, p, len);
}

uint32_t roce_crc32(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&tables_once, tables_init);
	return ~crc_update(~crc, buf, len);
}

const char *roce_crc32_impl(void)
{
	pthread_once(&tables_once, tables_init);
#ifdef HAVE_CLMUL_PATH
	if (clmul_ok)
		return "pclmul";
#endif
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

/* The masked prefix of an IPv4 packet's ICRC (8 bytes of ones, IPv4, UDP, BTH); its length. */
static size_t ip4_prefix(uint8_t *h, const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len)
{
	size_t n = 8;

	memset(h, 0xff, 8);
	n += ip4_masked(h + n, ip, len);
	return n + udp_bth_masked(h + n, sport, dport, pkt, len);
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

	if (len < ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return 0;
	return icrc_finish(h, ip4_prefix(h, ip, sport, dport, pkt, len), pkt, len);
}

uint32_t roce_icrc_ip4_split(const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *hdr, size_t hlen, const void *payload, size_t plen)
{
	static const uint8_t zeros[3];
	uint8_t h[PREFIX_MAX];
	size_t pad = roce_pad_len(plen), len = hlen + plen + pad + ROCE_ICRC_LEN;
	uint32_t crc;

	if (hlen < ROCE_BTH_LEN)
		return 0;
	crc = roce_crc32(0, h, ip4_prefix(h, ip, sport, dport, hdr, len));
	crc = roce_crc32(crc, hdr + ROCE_BTH_LEN, hlen - ROCE_BTH_LEN);
	crc = roce_crc32(crc, payload, plen);
	return roce_crc32(crc, zeros, pad);
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

#define ID_BASES 8 /* packet lengths whose basis a thread keeps */

/* L's columns in echelon form, keyed by their highest set bit, for one packet length. */
struct id_basis {
	size_t rest; /* 0: not built (rest is never 0) */
	uint32_t vec[32];
	uint16_t ids[32]; /* which ID bits sum to vec */
};

static void id_basis_build(struct id_basis *b, size_t rest)
{
	uint32_t shift = x_pow(8 * (uint64_t)rest);

	memset(b, 0, sizeof(*b));
	b->rest = rest;
	for (int bit = 0; bit < 16; bit++) {
		uint8_t idb[2] = { (uint8_t)((1u << bit) >> 8), (uint8_t)(1u << bit) };
		uint32_t vec = gf2_mulmod(shift, crc_update_tables(0, idb, 2));
		uint16_t ids = (uint16_t)(1u << bit);

		for (int k = 31; k >= 0 && vec != 0; k--) {
			if (!(vec & (1u << k)))
				continue;
			if (b->vec[k] == 0) {
				b->vec[k] = vec;
				b->ids[k] = ids;
				break;
			}
			vec ^= b->vec[k];
			ids ^= b->ids[k];
		}
	}
}

bool roce_icrc_solve_ip4_id(const struct roce_ip4 *ip, uint16_t sport, uint16_t dport,
	const uint8_t *pkt, size_t len, uint16_t *id)
{
	/*
	 * A basis costs about a microsecond to build, and lengths alternate (a ping-pong's SEND and
	 * its ACK, full-MTU packets and a message's LAST): keep the last few, replaced in turn.
	 */
	static _Thread_local struct {
		struct id_basis cache[ID_BASES];
		unsigned next;
	} t; /* one thread-local object: one TLS lookup a call */
	struct id_basis *cache = t.cache, *basis = NULL;
	struct roce_ip4 zero = *ip;
	uint32_t target;
	uint16_t found = 0;
	/* Bytes after the ID in the CRC input: the rest of the masked prefix and the packet. */
	size_t rest;

	if (len < ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return false;
	rest = (20 - 6) + 8 + (len - ROCE_ICRC_LEN);
	zero.id = 0;
	target = roce_icrc_load(pkt, len) ^ roce_icrc_ip4(&zero, sport, dport, pkt, len);
	for (unsigned i = 0; i < ID_BASES && basis == NULL; i++)
		if (cache[i].rest == rest)
			basis = &cache[i];
	if (basis == NULL) {
		basis = &cache[t.next];
		t.next = (t.next + 1) % ID_BASES;
		id_basis_build(basis, rest);
	}
	while (target != 0) { /* each step clears the highest set bit: at most 16 pivots exist */
		int k = 31 - __builtin_clz(target);

		if (basis->vec[k] == 0)
			return false; /* not in the span: no ID matches */
		target ^= basis->vec[k];
		found ^= basis->ids[k];
	}
	*id = found;
	return true;
}
