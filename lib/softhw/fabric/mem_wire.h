/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The memory service's wire protocol (mem.c): one fixed-size message per request and reply
 * on the importer's SOCK_SEQPACKET connection to the exporter's service point, descriptors
 * beside it (SCM_RIGHTS). Here so that tests can speak it as a hostile peer would.
 */
#ifndef SOFTHW_FABRIC_MEM_WIRE_H
#define SOFTHW_FABRIC_MEM_WIRE_H

#include <stdint.h>

#define MEM_MAGIC 0x4d454d53u /* "SMEM" */
#define MEM_VERSION 3 /* 3: MEM_SHARE may answer with the liveness slot alone (one descriptor) */

enum mem_op {
	MEM_HELLO = 1, /* importer: id + token; reply: status, range, rights, flags */
	MEM_ATTACH,    /* importer: bounce buffer fd; reply: status */
	MEM_READ,      /* importer: addr + len; exporter copies them into the bounce buffer */
	MEM_WRITE,     /* importer: addr + len; exporter copies the bounce buffer there */
	MEM_REVOKED,   /* exporter: the export ended (sent instead of a reply, or unsolicited) */
	MEM_SHARE,     /* importer: id; reply: the shared window (addr, len, offset, slot) and
			* two fds, the window's memfd and the control segment (share.h) */
	MEM_REFUSED,   /* exporter: the connection is not admitted (status why), then it closes */
};

#define MEM_FLAG_CMA 0x1u    /* HELLO reply: the exporter lets importers use cross-memory attach */
#define MEM_FLAG_SHARED 0x2u /* HELLO reply: the export has a shared window (MEM_SHARE) */

struct mem_msg {
	uint32_t magic;
	uint16_t version;
	uint16_t op;
	int32_t status; /* replies: a doca_error_t */
	uint32_t rights;
	uint32_t flags;
	uint32_t slot;   /* MEM_SHARE reply: liveness slot */
	uint64_t id;
	uint64_t token;
	uint64_t addr;
	uint64_t len;
	uint64_t offset; /* MEM_SHARE reply: the window's offset in its memfd */
};

#endif /* SOFTHW_FABRIC_MEM_WIRE_H */
