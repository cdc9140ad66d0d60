/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Wire format of export descriptors (private). Every descriptor is one frame:
 *
 *   offset  size  field (little-endian)
 *        0     4  magic        what the frame describes (an mmap, ...)
 *        4     2  version      format version of the payload
 *        6     2  kind         payload variant (mmap: PCI or RDMA export)
 *        8     4  total_len    whole frame, header and checksum included
 *       12     n  payload
 *   12 + n     4  crc32        IEEE CRC-32 of bytes [0, 12 + n)
 *
 * The checksum is checked before the version, so a corrupted byte anywhere is INVALID_VALUE
 * and only a well-formed frame of another version is NOT_SUPPORTED.
 *
 * mmap payload, version 2 (168 bytes):
 *        0     4  access flags (enum doca_access_flag)
 *        4     4  exporter pid
 *        8     8  export id (unique within the exporting process)
 *       16     8  address of the range in the exporter
 *       24     8  length of the range
 *       32    64  card name, NUL-terminated
 *       96    64  card instance, NUL-terminated
 *      160     8  export token: random, never 0; the importer proves with it that the process
 *                 answering for the pid is the exporter, and that the export is still live
 *
 * Pure code: no logging, no allocation. Callers log the reason returned in *why.
 */
#ifndef SOFTDOCA_EXPORT_DESC_H
#define SOFTDOCA_EXPORT_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"

#define SOFTDOCA_DESC_HEADER_LEN 12
#define SOFTDOCA_DESC_TRAILER_LEN 4

#define SOFTDOCA_MMAP_DESC_MAGIC 0x50414d53u /* "SMAP" */
#define SOFTDOCA_MMAP_DESC_VERSION 2
#define SOFTDOCA_MMAP_DESC_PAYLOAD_LEN 168
#define SOFTDOCA_MMAP_DESC_LEN (SOFTDOCA_DESC_HEADER_LEN + SOFTDOCA_MMAP_DESC_PAYLOAD_LEN + SOFTDOCA_DESC_TRAILER_LEN)
#define SOFTDOCA_DESC_NAME_LEN 64

enum softdoca_mmap_desc_kind {
	SOFTDOCA_MMAP_DESC_PCI = 1,
	SOFTDOCA_MMAP_DESC_RDMA = 2,
};

struct softdoca_mmap_desc {
	enum softdoca_mmap_desc_kind kind;
	uint32_t access;
	int32_t exporter_pid;
	uint64_t export_id;
	uint64_t addr;
	uint64_t len;
	char card[SOFTDOCA_DESC_NAME_LEN];
	char instance[SOFTDOCA_DESC_NAME_LEN];
	uint64_t token;
};

__attribute__((visibility("hidden"))) uint32_t softdoca_crc32(const void *data, size_t len);

/* Writes the header and the checksum around a payload already placed at buf + HEADER_LEN. */
__attribute__((visibility("hidden"))) void softdoca_desc_seal(void *buf, size_t total_len, uint32_t magic,
							       uint16_t version, uint16_t kind);

/*
 * Checks a frame: length, magic, total_len, checksum, then version. On success *kind is the
 * frame's kind. On failure returns INVALID_VALUE (malformed) or NOT_SUPPORTED (other version)
 * and *why says what is wrong.
 */
__attribute__((visibility("hidden"))) doca_error_t softdoca_desc_open(const void *buf, size_t len, uint32_t magic,
								       uint16_t version, uint16_t *kind,
								       const char **why);

/* Encodes into out[SOFTDOCA_MMAP_DESC_LEN]. Names longer than 63 bytes are cut. */
__attribute__((visibility("hidden"))) void softdoca_mmap_desc_encode(const struct softdoca_mmap_desc *d, void *out);

/* Decodes and validates an mmap descriptor; see softdoca_desc_open for the errors. */
__attribute__((visibility("hidden"))) doca_error_t softdoca_mmap_desc_decode(const void *buf, size_t len,
									      struct softdoca_mmap_desc *d,
									      const char **why);

#endif /* SOFTDOCA_EXPORT_DESC_H */
