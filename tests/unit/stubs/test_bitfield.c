/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_bitfield.h: the masks, setters and getters DOCA programs use to build packed header
 * fields (flow match masks, VXLAN/GENEVE flags) give DOCA's values, in network byte order for
 * the BE forms.
 */
#include <arpa/inet.h>
#include <stdint.h>

#include "doca_bitfield.h"
#include "test.h"

/* DOCA programs fill file-scope tables with these: they must be constant expressions. */
static const doca_be32_t static_addr = DOCA_HTOBE32(((uint32_t)1 << 24) + (2 << 16) + (3 << 8) + 4);
static const doca_be16_t static_port = DOCA_HTOBE16(4789);
static const doca_be32_t static_mask = DOCA_BE32_GENMASK(31, 8);

static void test_byte_order(void)
{
	uint32_t v32 = 0x01020304; /* not constant: the same macros at run time */
	uint16_t v16 = 4789;

	CHECK(static_addr == htonl(0x01020304));
	CHECK(static_port == htons(4789));
	CHECK(static_mask == htonl(0xffffff00));
	CHECK(DOCA_HTOBE32(v32) == htonl(v32));
	CHECK(DOCA_BETOH32(DOCA_HTOBE32(v32)) == v32);
	CHECK(DOCA_HTOBE16(v16) == htons(v16));
	CHECK(DOCA_BETOH16(htons(v16)) == v16);
}

static void test_shift_and_masks(void)
{
	uint8_t u8 = 0;
	doca_be16_t be16 = 0;
	doca_be32_t be32 = 0;

	CHECK(DOCA_SHIFT(0x10) == 4);
	CHECK(DOCA_SHIFT(1) == 0);
	CHECK(DOCA_U8_GENMASK(3, 1) == 0x0e);
	CHECK(DOCA_U8_GENMASK(7, 0) == 0xff);
	CHECK(DOCA_BE16_GENMASK(11, 4) == htons(0x0ff0));
	CHECK(DOCA_BE16_GENMASK(15, 0) == htons(0xffff));
	CHECK(DOCA_BE32_GENMASK(31, 8) == htonl(0xffffff00));
	DOCA_U8P_GENMASK(5, 4, &u8);
	CHECK(u8 == 0x30);
	DOCA_BE16P_GENMASK(3, 0, &be16);
	CHECK(be16 == htons(0x000f));
	DOCA_BE32P_GENMASK(0, 0, &be32);
	CHECK(be32 == htonl(1));
}

static void test_set_and_get(void)
{
	const doca_be16_t vlan_pcp = DOCA_BE16_GENMASK(15, 13); /* 802.1Q priority bits */
	const doca_be32_t vni = DOCA_BE32_GENMASK(31, 8);       /* VXLAN VNI in its 32-bit word */
	uint8_t flags = 0x01;
	doca_be16_t tci = htons(0x0123);
	doca_be32_t word = 0;

	CHECK(DOCA_U8_SET(0x30, 2) == 0x20);
	CHECK(DOCA_U8_SET(0x30, 7) == 0x30); /* only the field's bits */
	DOCA_U8P_SET(0x0c, 3, &flags);
	CHECK(flags == 0x0d);
	CHECK(DOCA_U8_GET(0x0c, flags) == 3);

	CHECK(DOCA_BE16_SET(vlan_pcp, 5) == htons(0xa000));
	DOCA_BE16P_SET(vlan_pcp, 5, &tci);
	CHECK(tci == htons(0xa123));
	CHECK(DOCA_BE16_GET(vlan_pcp, tci) == 5);

	CHECK(DOCA_BE32_SET(vni, 0x123456) == htonl(0x12345600));
	DOCA_BE32P_SET(vni, 0xabcdef, &word);
	CHECK(word == htonl(0xabcdef00));
	CHECK(DOCA_BE32_GET(vni, word) == 0xabcdef);
}

int main(void)
{
	TEST_RUN(test_byte_order);
	TEST_RUN(test_shift_and_masks);
	TEST_RUN(test_set_and_get);
	TEST_EXIT();
}
