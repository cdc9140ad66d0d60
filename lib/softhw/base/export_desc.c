/* SPDX-License-Identifier: BSD-3-Clause */
/* Export descriptor frames and the mmap descriptor (layout in export_desc.h). */
#include <string.h>

#include "doca_types.h"
#include "softhw/base/export_desc.h"

#define ACCESS_FLAGS_ALL 0x7fu /* every enum doca_access_flag bit */

/* Bitwise CRC-32 (IEEE 802.3, reflected): descriptors are small and rare, no table needed. */
uint32_t softdoca_crc32(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t crc = 0xffffffffu;

	while (len--) {
		crc ^= *p++;
		for (int i = 0; i < 8; i++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static void put_u16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void softdoca_desc_seal(void *buf, size_t total_len, uint32_t magic, uint16_t version, uint16_t kind)
{
	uint8_t *p = buf;
	size_t body = total_len - SOFTDOCA_DESC_TRAILER_LEN;

	put_u32(p, magic);
	put_u16(p + 4, version);
	put_u16(p + 6, kind);
	put_u32(p + 8, (uint32_t)total_len);
	put_u32(p + body, softdoca_crc32(p, body));
}

doca_error_t softdoca_desc_open(const void *buf, size_t len, uint32_t magic, uint16_t version, uint16_t *kind,
				const char **why)
{
	const uint8_t *p = buf;
	size_t body;

	if (p == NULL || len < SOFTDOCA_DESC_HEADER_LEN + SOFTDOCA_DESC_TRAILER_LEN) {
		*why = "descriptor is empty or shorter than the smallest descriptor";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (get_u32(p) != magic) {
		*why = "wrong magic: not a descriptor of this kind of object";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (get_u32(p + 8) != len) {
		*why = "length given does not match the length recorded in the descriptor (truncated or padded)";
		return DOCA_ERROR_INVALID_VALUE;
	}
	body = len - SOFTDOCA_DESC_TRAILER_LEN;
	if (get_u32(p + body) != softdoca_crc32(p, body)) {
		*why = "checksum mismatch: the descriptor was corrupted in transit";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (get_u16(p + 4) != version) {
		*why = "descriptor format version differs from this softdoca's; use the same softdoca on both sides";
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*kind = get_u16(p + 6);
	return DOCA_SUCCESS;
}

static void put_name(uint8_t *p, const char *s)
{
	size_t n = strnlen(s, SOFTDOCA_DESC_NAME_LEN - 1);

	memset(p, 0, SOFTDOCA_DESC_NAME_LEN);
	memcpy(p, s, n);
}

/* A name field must be non-empty and NUL-terminated inside its field. */
static int get_name(char *dst, const uint8_t *p)
{
	if (p[0] == '\0' || memchr(p, '\0', SOFTDOCA_DESC_NAME_LEN) == NULL)
		return -1;
	memcpy(dst, p, SOFTDOCA_DESC_NAME_LEN);
	return 0;
}

void softdoca_mmap_desc_encode(const struct softdoca_mmap_desc *d, void *out)
{
	uint8_t *p = (uint8_t *)out + SOFTDOCA_DESC_HEADER_LEN;

	put_u32(p, d->access);
	put_u32(p + 4, (uint32_t)d->exporter_pid);
	put_u64(p + 8, d->export_id);
	put_u64(p + 16, d->addr);
	put_u64(p + 24, d->len);
	put_name(p + 32, d->card);
	put_name(p + 96, d->instance);
	put_u64(p + 160, d->token);
	softdoca_desc_seal(out, SOFTDOCA_MMAP_DESC_LEN, SOFTDOCA_MMAP_DESC_MAGIC, SOFTDOCA_MMAP_DESC_VERSION,
			   (uint16_t)d->kind);
}

doca_error_t softdoca_mmap_desc_decode(const void *buf, size_t len, struct softdoca_mmap_desc *d, const char **why)
{
	const uint8_t *p;
	uint16_t kind;
	doca_error_t err;

	err = softdoca_desc_open(buf, len, SOFTDOCA_MMAP_DESC_MAGIC, SOFTDOCA_MMAP_DESC_VERSION, &kind, why);
	if (err != DOCA_SUCCESS)
		return err;
	if (len != SOFTDOCA_MMAP_DESC_LEN) {
		*why = "descriptor length does not match its format version";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (kind != SOFTDOCA_MMAP_DESC_PCI && kind != SOFTDOCA_MMAP_DESC_RDMA) {
		*why = "unknown export kind (neither PCI nor RDMA)";
		return DOCA_ERROR_INVALID_VALUE;
	}
	p = (const uint8_t *)buf + SOFTDOCA_DESC_HEADER_LEN;
	d->kind = (enum softdoca_mmap_desc_kind)kind;
	d->access = get_u32(p);
	d->exporter_pid = (int32_t)get_u32(p + 4);
	d->export_id = get_u64(p + 8);
	d->addr = get_u64(p + 16);
	d->len = get_u64(p + 24);
	d->token = get_u64(p + 160);
	if ((d->access & ~ACCESS_FLAGS_ALL) != 0) {
		*why = "unknown access flags";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (d->exporter_pid <= 0) {
		*why = "invalid exporter process id";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (d->len == 0 || d->addr == 0 || d->addr > UINT64_MAX - d->len) {
		*why = "invalid memory range (empty, NULL or wrapping around the address space)";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (get_name(d->card, p + 32) != 0 || get_name(d->instance, p + 96) != 0) {
		*why = "card name or instance is empty or not terminated";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (d->token == 0) {
		*why = "export token is missing";
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}
