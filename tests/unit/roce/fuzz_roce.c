/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the RoCEv2 packet layer (built only with clang, see meson.build). The
 * first input byte picks what the rest is: a UDP payload for the parser (and the ICRC and ID
 * solve over it), a whole IP packet, or a CM MAD. libFuzzer hands over a buffer of exactly
 * the input's size, so with -fsanitize=address any overrun is reported.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void udp_payload(const uint8_t *p, size_t n)
{
	struct roce_pkt pkt, again;
	struct roce_ip4 v4 = { .src = 0x0a000001, .dst = 0x0a000002, .frag = ROCE_IP4_DF };
	uint8_t rebuilt[70000];
	uint16_t id;
	size_t m;

	if (roce_pkt_parse(p, n, &pkt) != ROCE_PARSE_OK)
		return;
	if (pkt.hdr_len + pkt.payload_len + pkt.bth.pad + ROCE_ICRC_LEN != n)
		abort();
	m = roce_pkt_build(rebuilt, sizeof(rebuilt), &pkt, pkt.payload, pkt.payload_len);
	if (m == 0 || roce_pkt_parse(rebuilt, m, &again) != ROCE_PARSE_OK ||
		again.payload_len != pkt.payload_len)
		abort();
	(void)roce_icrc_ip4(&v4, 1, ROCE_UDP_PORT, p, n);
	if (roce_icrc_solve_ip4_id(&v4, 1, ROCE_UDP_PORT, p, n, &id)) {
		v4.id = id;
		if (roce_icrc_ip4(&v4, 1, ROCE_UDP_PORT, p, n) != roce_icrc_load(p, n))
			abort();
	}
}

static void cm_mad(const uint8_t *p, size_t n)
{
	struct roce_mad_hdr hdr;
	uint8_t out[ROCE_MAD_LEN];

	if (!roce_cm_mad_check(p, n, &hdr))
		return;
	switch (hdr.attr_id) {
	case ROCE_CM_REQ: {
		struct roce_cm_req req;
		struct roce_cma_hdr cma;

		roce_cm_req_get(p, &req);
		(void)roce_cma_hdr_get(req.private_data, &cma);
		roce_cm_req_put(out, hdr.tid, &req);
		break;
	}
	case ROCE_CM_REP: {
		struct roce_cm_rep rep;

		roce_cm_rep_get(p, &rep);
		roce_cm_rep_put(out, hdr.tid, &rep);
		break;
	}
	case ROCE_CM_REJ: {
		struct roce_cm_rej rej;

		roce_cm_rej_get(p, &rej);
		roce_cm_rej_put(out, hdr.tid, &rej);
		break;
	}
	case ROCE_CM_MRA: {
		struct roce_cm_mra mra;

		roce_cm_mra_get(p, &mra);
		roce_cm_mra_put(out, hdr.tid, &mra);
		break;
	}
	case ROCE_CM_DREQ: {
		struct roce_cm_dreq dreq;

		roce_cm_dreq_get(p, &dreq);
		roce_cm_dreq_put(out, hdr.tid, &dreq);
		break;
	}
	default: {
		struct roce_cm_rtu rtu;

		roce_cm_rtu_get(p, &rtu);
		roce_cm_rtu_put(out, hdr.attr_id, hdr.tid, &rtu);
		break;
	}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t icrc;
	uint8_t *p;

	if (size < 1)
		return 0;
	/* A copy of exactly the remaining size, so the first byte is not readable slack. */
	p = malloc(size - 1);
	if (p == NULL)
		return 0;
	memcpy(p, data + 1, size - 1);
	switch (data[0] % 3) {
	case 0:
		udp_payload(p, size - 1);
		break;
	case 1:
		(void)roce_icrc_ip_packet(p, size - 1, &icrc);
		break;
	default:
		cm_mad(p, size - 1);
		break;
	}
	free(p);
	return 0;
}
