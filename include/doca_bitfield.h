/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_bitfield.h — DOCA's bit-field helpers for packed protocol fields (flow match
 * masks, packet headers). Same macro names and meaning as DOCA's; written here from their
 * documented behaviour. A mask _m selects the field; DOCA_SHIFT(_m) is the position of its
 * lowest set bit. The BE16/BE32 variants take and return big-endian (network order) values.
 */
#ifndef SOFTDOCA_DOCA_BITFIELD_H
#define SOFTDOCA_DOCA_BITFIELD_H

#include <arpa/inet.h>
#include <stdint.h>

#include "doca_types.h"

/* Position of the lowest set bit of a mask. */
#define DOCA_SHIFT(_x) (__builtin_ffsll(_x) - 1)

/*
 * Byte-order conversions that stay constant expressions for constant arguments: DOCA programs
 * use them in static initializers (NVIDIA's flow_mult_flooding_cases fills a file-scope table
 * with BE_IPV4_ADDR, i.e. DOCA_HTOBE32), where htonl() is a function call.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define DOCA_HTOBE16(_x) ((uint16_t)(_x))
#define DOCA_HTOBE32(_x) ((uint32_t)(_x))
#else
#define DOCA_HTOBE16(_x) ((uint16_t)__builtin_bswap16((uint16_t)(_x)))
#define DOCA_HTOBE32(_x) ((uint32_t)__builtin_bswap32((uint32_t)(_x)))
#endif
#define DOCA_BETOH16(_x) DOCA_HTOBE16(_x)
#define DOCA_BETOH32(_x) DOCA_HTOBE32(_x)

/* Masks of bits _l.._h (inclusive, _h >= _l); the _p forms store the mask at _p. */
#define DOCA_U8_GENMASK(_h, _l) ((uint8_t)((0xffu << (_l)) & (0xffu >> (7 - (_h)))))
#define DOCA_BE16_GENMASK(_h, _l) (DOCA_HTOBE16((uint16_t)((0xffffu << (_l)) & (0xffffu >> (15 - (_h))))))
#define DOCA_BE32_GENMASK(_h, _l) (DOCA_HTOBE32((uint32_t)((0xffffffffu << (_l)) & (0xffffffffu >> (31 - (_h))))))
#define DOCA_U8P_GENMASK(_h, _l, _p) \
	do { \
		*(uint8_t *)(_p) = DOCA_U8_GENMASK(_h, _l); \
	} while (0)
#define DOCA_BE16P_GENMASK(_h, _l, _p) \
	do { \
		*(doca_be16_t *)(_p) = DOCA_BE16_GENMASK(_h, _l); \
	} while (0)
#define DOCA_BE32P_GENMASK(_h, _l, _p) \
	do { \
		*(doca_be32_t *)(_p) = DOCA_BE32_GENMASK(_h, _l); \
	} while (0)

/*
 * The value _v placed in the field _m; the _p forms OR it into the field at _p. The value is
 * shifted as an unsigned number, so a field reaching the top bit (a VXLAN VNI) is no signed
 * overflow when _v is a plain int.
 */
#define DOCA_U8_SET(_m, _v) (((unsigned int)(_v) << DOCA_SHIFT(_m)) & (_m))
#define DOCA_BE16_SET(_m, _v) ((DOCA_HTOBE16((uint16_t)((uint32_t)(_v) << DOCA_SHIFT(DOCA_BETOH16(_m))))) & (_m))
#define DOCA_BE32_SET(_m, _v) ((DOCA_HTOBE32((uint32_t)(_v) << DOCA_SHIFT(DOCA_BETOH32(_m)))) & (_m))
#define DOCA_U8P_SET(_m, _v, _p) \
	do { \
		*(_p) = (uint8_t)(*(uint8_t *)(_p) | DOCA_U8_SET(_m, _v)); \
	} while (0)
#define DOCA_BE16P_SET(_m, _v, _p) \
	do { \
		*(_p) = (doca_be16_t)(*(doca_be16_t *)(_p) | DOCA_BE16_SET(_m, _v)); \
	} while (0)
#define DOCA_BE32P_SET(_m, _v, _p) \
	do { \
		*(_p) = (doca_be32_t)(*(doca_be32_t *)(_p) | DOCA_BE32_SET(_m, _v)); \
	} while (0)

/* The value of the field _m in _f, in host order. */
#define DOCA_U8_GET(_m, _f) (((_m) & (_f)) >> DOCA_SHIFT((_m)))
#define DOCA_BE16_GET(_m, _f) ((DOCA_BETOH16((_m) & (_f)) >> DOCA_SHIFT(DOCA_BETOH16(_m))))
#define DOCA_BE32_GET(_m, _f) ((DOCA_BETOH32((_m) & (_f)) >> DOCA_SHIFT(DOCA_BETOH32(_m))))

#endif /* SOFTDOCA_DOCA_BITFIELD_H */
