/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RoCEv2 transport headers: the opcode table, the parser and the builder (roce_pkt.h).
 *
 * Header layouts (byte offsets within each header, all big-endian):
 *   BTH 12     0 opcode; 1 SE b7, M b6, PadCnt b5-4, TVer b3-0; 2 P_Key; 4 F/B/reserved;
 *              5 DestQP (24); 8 AckReq b7; 9 PSN (24)
 *   DETH 8     0 Q_Key; 4 reserved; 5 source QP (24)
 *   RETH 16    0 VA; 8 R_Key; 12 DMA length
 *   AtomicETH  0 VA; 8 R_Key; 12 swap or add data; 20 compare data (28 bytes)
 *   AETH 4     0 syndrome; 1 MSN (24)
 *   AtomicAckETH 8, ImmDt 4, IETH 4: one value each
 * Extension headers follow the BTH in the order of enum roce_hdr.
 */
#include <string.h>

#include "softhw/rnic/roce_pkt.h"

struct op_info {
	const char *name; /* NULL: not an opcode of this layer */
	uint8_t hdrs;
	uint8_t payload; /* enum roce_payload_kind */
};

#define OP(code, nm, h, pl) [code] = { .name = nm, .hdrs = (h), .payload = (pl) }

static const struct op_info ops[256] = {
	OP(ROCE_RC_SEND_FIRST, "RC_SEND_FIRST", 0, ROCE_PL_MIDDLE),
	OP(ROCE_RC_SEND_MIDDLE, "RC_SEND_MIDDLE", 0, ROCE_PL_MIDDLE),
	OP(ROCE_RC_SEND_LAST, "RC_SEND_LAST", 0, ROCE_PL_LAST),
	OP(ROCE_RC_SEND_LAST_IMM, "RC_SEND_LAST_WITH_IMMEDIATE", ROCE_H_IMMDT, ROCE_PL_LAST),
	OP(ROCE_RC_SEND_ONLY, "RC_SEND_ONLY", 0, ROCE_PL_ONLY),
	OP(ROCE_RC_SEND_ONLY_IMM, "RC_SEND_ONLY_WITH_IMMEDIATE", ROCE_H_IMMDT, ROCE_PL_ONLY),
	OP(ROCE_RC_WRITE_FIRST, "RC_RDMA_WRITE_FIRST", ROCE_H_RETH, ROCE_PL_MIDDLE),
	OP(ROCE_RC_WRITE_MIDDLE, "RC_RDMA_WRITE_MIDDLE", 0, ROCE_PL_MIDDLE),
	OP(ROCE_RC_WRITE_LAST, "RC_RDMA_WRITE_LAST", 0, ROCE_PL_LAST),
	OP(ROCE_RC_WRITE_LAST_IMM, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", ROCE_H_IMMDT, ROCE_PL_LAST),
	OP(ROCE_RC_WRITE_ONLY, "RC_RDMA_WRITE_ONLY", ROCE_H_RETH, ROCE_PL_ONLY),
	OP(ROCE_RC_WRITE_ONLY_IMM, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", ROCE_H_RETH | ROCE_H_IMMDT,
		ROCE_PL_ONLY),
	OP(ROCE_RC_READ_REQUEST, "RC_RDMA_READ_REQUEST", ROCE_H_RETH, ROCE_PL_NONE),
	OP(ROCE_RC_READ_RESP_FIRST, "RC_RDMA_READ_RESPONSE_FIRST", ROCE_H_AETH, ROCE_PL_MIDDLE),
	OP(ROCE_RC_READ_RESP_MIDDLE, "RC_RDMA_READ_RESPONSE_MIDDLE", 0, ROCE_PL_MIDDLE),
	OP(ROCE_RC_READ_RESP_LAST, "RC_RDMA_READ_RESPONSE_LAST", ROCE_H_AETH, ROCE_PL_LAST),
	OP(ROCE_RC_READ_RESP_ONLY, "RC_RDMA_READ_RESPONSE_ONLY", ROCE_H_AETH, ROCE_PL_ONLY),
	OP(ROCE_RC_ACK, "RC_ACKNOWLEDGE", ROCE_H_AETH, ROCE_PL_NONE),
	OP(ROCE_RC_ATOMIC_ACK, "RC_ATOMIC_ACKNOWLEDGE", ROCE_H_AETH | ROCE_H_ATOMICACKETH,
		ROCE_PL_NONE),
	OP(ROCE_RC_CMP_SWAP, "RC_COMPARE_SWAP", ROCE_H_ATOMICETH, ROCE_PL_NONE),
	OP(ROCE_RC_FETCH_ADD, "RC_FETCH_ADD", ROCE_H_ATOMICETH, ROCE_PL_NONE),
	OP(ROCE_RC_SEND_LAST_INV, "RC_SEND_LAST_WITH_INVALIDATE", ROCE_H_IETH, ROCE_PL_LAST),
	OP(ROCE_RC_SEND_ONLY_INV, "RC_SEND_ONLY_WITH_INVALIDATE", ROCE_H_IETH, ROCE_PL_ONLY),
	OP(ROCE_UD_SEND_ONLY, "UD_SEND_ONLY", ROCE_H_DETH, ROCE_PL_ONLY),
	OP(ROCE_UD_SEND_ONLY_IMM, "UD_SEND_ONLY_WITH_IMMEDIATE", ROCE_H_DETH | ROCE_H_IMMDT,
		ROCE_PL_ONLY),
	OP(ROCE_CNP, "CNP", ROCE_H_CNP, ROCE_PL_NONE),
};

bool roce_opcode_hdrs(uint8_t opcode, unsigned int *hdrs)
{
	if (ops[opcode].name == NULL)
		return false;
	*hdrs = ops[opcode].hdrs;
	return true;
}

enum roce_payload_kind roce_opcode_payload(uint8_t opcode)
{
	return (enum roce_payload_kind)ops[opcode].payload;
}

const char *roce_opcode_name(uint8_t opcode)
{
	return ops[opcode].name != NULL ? ops[opcode].name : "unknown";
}

size_t roce_hdrs_len(unsigned int hdrs)
{
	size_t n = ROCE_BTH_LEN;

	n += (hdrs & ROCE_H_DETH) ? ROCE_DETH_LEN : 0;
	n += (hdrs & ROCE_H_RETH) ? ROCE_RETH_LEN : 0;
	n += (hdrs & ROCE_H_ATOMICETH) ? ROCE_ATOMICETH_LEN : 0;
	n += (hdrs & ROCE_H_AETH) ? ROCE_AETH_LEN : 0;
	n += (hdrs & ROCE_H_ATOMICACKETH) ? ROCE_ATOMICACKETH_LEN : 0;
	n += (hdrs & ROCE_H_IMMDT) ? ROCE_IMMDT_LEN : 0;
	n += (hdrs & ROCE_H_IETH) ? ROCE_IETH_LEN : 0;
	n += (hdrs & ROCE_H_CNP) ? ROCE_CNP_LEN : 0;
	return n;
}

bool roce_payload_ok(uint8_t opcode, size_t payload_len, uint32_t pmtu)
{
	if (ops[opcode].name == NULL)
		return false;
	switch ((enum roce_payload_kind)ops[opcode].payload) {
	case ROCE_PL_NONE:
		return payload_len == 0;
	case ROCE_PL_MIDDLE:
		return payload_len == pmtu;
	case ROCE_PL_LAST:
		return payload_len >= 1 && payload_len <= pmtu;
	case ROCE_PL_ONLY:
		return payload_len <= pmtu;
	}
	return false;
}

int roce_ack_credits(uint8_t code)
{
	/* IBTA's credit table: 1, 2, 3, 4, then alternately x1.5 and x1.33 up to 32768. */
	static const uint16_t credits[31] = {
		0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
		1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768,
	};

	code &= ROCE_AETH_VALUE;
	return code < 31 ? credits[code] : -1;
}

uint32_t roce_rnr_timer_us(uint8_t code)
{
	static const uint32_t us[32] = {
		655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
		2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880,
		163840, 245760, 327680, 491520,
	};

	return us[code & ROCE_AETH_VALUE];
}

const char *roce_parse_err_name(enum roce_parse_err err)
{
	switch (err) {
	case ROCE_PARSE_OK:
		return "ok";
	case ROCE_PARSE_SHORT:
		return "shorter than its headers";
	case ROCE_PARSE_OPCODE:
		return "unknown opcode";
	case ROCE_PARSE_TVER:
		return "transport version not 0";
	case ROCE_PARSE_PAYLOAD:
		return "payload on an opcode that carries none";
	}
	return "?";
}

static void bth_get(const uint8_t *p, struct roce_bth *bth)
{
	bth->opcode = p[0];
	bth->se = (p[1] & 0x80) != 0;
	bth->mig = (p[1] & 0x40) != 0;
	bth->pad = (p[1] >> 4) & 3;
	bth->tver = p[1] & 0x0f;
	bth->pkey = roce_get16(p + 2);
	bth->fecn_becn = p[4];
	bth->dqpn = roce_get24(p + 5);
	bth->ack_req = (p[8] & 0x80) != 0;
	bth->psn = roce_get24(p + 9);
}

/* Unused bits are written 0; fields are cut to their widths. */
static void bth_put(uint8_t *p, const struct roce_bth *bth, uint8_t pad)
{
	p[0] = bth->opcode;
	p[1] = (uint8_t)((bth->se ? 0x80 : 0) | (bth->mig ? 0x40 : 0) | (pad & 3) << 4 |
		(bth->tver & 0x0f));
	roce_put16(p + 2, bth->pkey);
	p[4] = bth->fecn_becn;
	roce_put24(p + 5, bth->dqpn & 0xffffff);
	p[8] = bth->ack_req ? 0x80 : 0;
	roce_put24(p + 9, bth->psn & ROCE_PSN_MASK);
}

/* Reads the extension headers of pkt->hdrs from p; returns the bytes read. */
static size_t ext_get(const uint8_t *p, struct roce_pkt *pkt)
{
	const uint8_t *start = p;

	if (pkt->hdrs & ROCE_H_DETH) {
		pkt->deth.qkey = roce_get32(p);
		pkt->deth.sqpn = roce_get24(p + 5);
		p += ROCE_DETH_LEN;
	}
	if (pkt->hdrs & ROCE_H_RETH) {
		pkt->reth.va = roce_get64(p);
		pkt->reth.rkey = roce_get32(p + 8);
		pkt->reth.len = roce_get32(p + 12);
		p += ROCE_RETH_LEN;
	}
	if (pkt->hdrs & ROCE_H_ATOMICETH) {
		pkt->atomic.va = roce_get64(p);
		pkt->atomic.rkey = roce_get32(p + 8);
		pkt->atomic.swap_add = roce_get64(p + 12);
		pkt->atomic.compare = roce_get64(p + 20);
		p += ROCE_ATOMICETH_LEN;
	}
	if (pkt->hdrs & ROCE_H_AETH) {
		pkt->aeth.syndrome = p[0];
		pkt->aeth.msn = roce_get24(p + 1);
		p += ROCE_AETH_LEN;
	}
	if (pkt->hdrs & ROCE_H_ATOMICACKETH) {
		pkt->atomic_orig = roce_get64(p);
		p += ROCE_ATOMICACKETH_LEN;
	}
	if (pkt->hdrs & ROCE_H_IMMDT) {
		pkt->imm = roce_get32(p);
		p += ROCE_IMMDT_LEN;
	}
	if (pkt->hdrs & ROCE_H_IETH) {
		pkt->ieth_rkey = roce_get32(p);
		p += ROCE_IETH_LEN;
	}
	if (pkt->hdrs & ROCE_H_CNP)
		p += ROCE_CNP_LEN; /* reserved */
	return (size_t)(p - start);
}

static size_t ext_put(uint8_t *p, unsigned int hdrs, const struct roce_pkt *pkt)
{
	uint8_t *start = p;

	if (hdrs & ROCE_H_DETH) {
		roce_put32(p, pkt->deth.qkey);
		p[4] = 0;
		roce_put24(p + 5, pkt->deth.sqpn & 0xffffff);
		p += ROCE_DETH_LEN;
	}
	if (hdrs & ROCE_H_RETH) {
		roce_put64(p, pkt->reth.va);
		roce_put32(p + 8, pkt->reth.rkey);
		roce_put32(p + 12, pkt->reth.len);
		p += ROCE_RETH_LEN;
	}
	if (hdrs & ROCE_H_ATOMICETH) {
		roce_put64(p, pkt->atomic.va);
		roce_put32(p + 8, pkt->atomic.rkey);
		roce_put64(p + 12, pkt->atomic.swap_add);
		roce_put64(p + 20, pkt->atomic.compare);
		p += ROCE_ATOMICETH_LEN;
	}
	if (hdrs & ROCE_H_AETH) {
		p[0] = pkt->aeth.syndrome;
		roce_put24(p + 1, pkt->aeth.msn & 0xffffff);
		p += ROCE_AETH_LEN;
	}
	if (hdrs & ROCE_H_ATOMICACKETH) {
		roce_put64(p, pkt->atomic_orig);
		p += ROCE_ATOMICACKETH_LEN;
	}
	if (hdrs & ROCE_H_IMMDT) {
		roce_put32(p, pkt->imm);
		p += ROCE_IMMDT_LEN;
	}
	if (hdrs & ROCE_H_IETH) {
		roce_put32(p, pkt->ieth_rkey);
		p += ROCE_IETH_LEN;
	}
	if (hdrs & ROCE_H_CNP) {
		memset(p, 0, ROCE_CNP_LEN);
		p += ROCE_CNP_LEN;
	}
	return (size_t)(p - start);
}

enum roce_parse_err roce_pkt_parse(const uint8_t *buf, size_t len, struct roce_pkt *pkt)
{
	size_t need;

	memset(pkt, 0, sizeof(*pkt));
	if (len < ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return ROCE_PARSE_SHORT;
	bth_get(buf, &pkt->bth);
	if (!roce_opcode_hdrs(pkt->bth.opcode, &pkt->hdrs))
		return ROCE_PARSE_OPCODE;
	if (pkt->bth.tver != 0)
		return ROCE_PARSE_TVER;
	pkt->hdr_len = roce_hdrs_len(pkt->hdrs);
	need = pkt->hdr_len + pkt->bth.pad + ROCE_ICRC_LEN;
	if (len < need)
		return ROCE_PARSE_SHORT;
	pkt->len = len;
	pkt->payload_len = len - need;
	if (roce_opcode_payload(pkt->bth.opcode) == ROCE_PL_NONE &&
		(pkt->payload_len != 0 || pkt->bth.pad != 0))
		return ROCE_PARSE_PAYLOAD;
	ext_get(buf + ROCE_BTH_LEN, pkt);
	pkt->payload = buf + pkt->hdr_len;
	pkt->icrc = roce_icrc_load(buf, len);
	return ROCE_PARSE_OK;
}

size_t roce_pkt_build_hdr(uint8_t *buf, size_t cap, const struct roce_pkt *pkt, size_t payload_len)
{
	unsigned int hdrs;
	size_t hdr_len;

	if (!roce_opcode_hdrs(pkt->bth.opcode, &hdrs))
		return 0;
	if (roce_opcode_payload(pkt->bth.opcode) == ROCE_PL_NONE && payload_len != 0)
		return 0;
	hdr_len = roce_hdrs_len(hdrs);
	if (cap < hdr_len)
		return 0;
	bth_put(buf, &pkt->bth, roce_pad_len(payload_len));
	ext_put(buf + ROCE_BTH_LEN, hdrs, pkt);
	return hdr_len;
}

size_t roce_pkt_build(uint8_t *buf, size_t cap, const struct roce_pkt *pkt, const void *payload,
	size_t payload_len)
{
	uint8_t pad = roce_pad_len(payload_len);
	size_t hdr_len;

	if (payload_len > cap)
		return 0;
	hdr_len = roce_pkt_build_hdr(buf, cap - payload_len, pkt, payload_len);
	if (hdr_len == 0 || cap - payload_len - hdr_len < (size_t)pad + ROCE_ICRC_LEN)
		return 0;
	if (payload_len != 0 && payload != NULL)
		memcpy(buf + hdr_len, payload, payload_len);
	memset(buf + hdr_len + payload_len, 0, pad + ROCE_ICRC_LEN);
	return hdr_len + payload_len + pad + ROCE_ICRC_LEN;
}
