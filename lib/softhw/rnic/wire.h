/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the soft NIC's paths put on the wire (private to lib/softhw/rnic/): every structure one
 * process sends another, in one place. Peers are the same build: native byte order, no
 * padding surprises (each structure's size is checked below).
 *
 * Stream (a qp's unix or TCP socket, io.c) and TCP message socket (msock.c): frames, a fixed
 * header (struct rnic_hdr) followed by `plen` payload bytes. A connection starts with F_HELLO
 * (dialer) and F_HELLO_ACK (acceptor), each carrying a struct rnic_hello. Same-host ring
 * (ring.c): one record per message, a struct rnic_ring_hdr and the payload. The qp descriptor
 * (doca_rdma_export's blob) is encoded byte by byte in wire.c; a RoCEv2 qp's (roce_path.c)
 * carries its wire, IPv4 address, QPN, first PSN and MTU in what were its reserved bytes.
 */
#ifndef SOFTHW_RNIC_WIRE_H
#define SOFTHW_RNIC_WIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "softhw/softhw.h"

#define RNIC_HELLO_MAGIC 0x4f4c4548u /* "HELO" */
#define RNIC_VERSION 2 /* 2: the ring's doorbells are sockets (four descriptors with the hello ack) */
#define RNIC_DESC_MAGIC 0x50515253u /* "SRQP" */
#define RNIC_DESC_VERSION 1
#define RNIC_DESC_PAYLOAD_LEN 144
#define RNIC_DESC_LEN (12 + RNIC_DESC_PAYLOAD_LEN + 4)
#define RNIC_HF_RING 1u    /* HELLO_ACK flag: the ring's memfd and doorbells ride along (SCM_RIGHTS) */
#define RNIC_HF_MSOCK 2u   /* HELLO flag: this connection is the message socket of the qp it names */

enum rnic_frame {
	F_HELLO = 1, /* dialer -> acceptor: rnic_hello */
	F_HELLO_ACK, /* acceptor -> dialer: status + rnic_hello (CM: sent by accept / reject) */
	F_REQ,       /* a work request, op = softhw_rnic_opcode */
	F_RESP,      /* its response, same seq */
	F_BYE,       /* graceful disconnect */
	F_NUDGE,     /* a sender waits for its ACK: the service thread reads the message socket */
};

struct rnic_hdr {
	uint8_t type; /* enum rnic_frame */
	uint8_t op;   /* enum softhw_rnic_opcode */
	uint16_t flags;
	int32_t status; /* RESP / HELLO_ACK: doca_error_t */
	uint64_t seq;
	uint64_t id;    /* rkey */
	uint64_t token;
	uint64_t addr;
	uint64_t len;
	uint64_t arg0;  /* REQ: compare / add / value; RESP: old value; BYE: see msock.c */
	uint64_t arg1;
	uint32_t imm;
	uint32_t reserved;
	uint64_t plen;  /* payload bytes that follow */
};

/* Who a process is, as far as transport choice goes. */
struct rnic_host {
	uint8_t boot_id[16];
	uint64_t netns;
};

/* One end of a connection, as a descriptor or a handshake describes it. */
struct rnic_peer {
	struct rnic_host host;
	int32_t pid;
	uint32_t access;   /* the ep's doca_access_flag mask: what it lets peers do */
	uint64_t qp_id;
	uint64_t qp_token;
	char instance[SOFTHW_MAX_STR]; /* card instance: unix rendezvous and memory service */
	uint8_t family;    /* AF_INET / AF_INET6 of tcp_ip; 0: none */
	uint8_t tcp_ip[16];
	uint16_t tcp_port;
	uint8_t rnr_retry;
	bool dc;
	uint8_t wire;      /* the describer's connection (rnic_path_ops.wire): 0 the stream, 1 RoCEv2 */
	uint8_t roce_mtu_log; /* RoCEv2: path MTU, log2 (8..12) */
	uint32_t roce_ip;  /* RoCEv2: IPv4 address, host order (the GID is ::ffff:a.b.c.d) */
	uint32_t roce_qpn; /* RoCEv2: QPN (24 bits) */
	uint32_t roce_psn; /* RoCEv2: the first PSN it sends (24 bits) */
};

struct rnic_hello {
	uint32_t magic;
	uint16_t version;
	uint8_t cm;       /* RDMA-CM request (no target qp) */
	uint8_t reserved;
	uint64_t want_id; /* OOB: the acceptor's qp the dialer names */
	uint64_t want_token;
	struct rnic_peer self;
};

/* TCP message socket: the most payload bytes a frame on it carries (more is a broken peer). */
#define RNIC_MSOCK_DATA 4048

/*
 * Same-host ring: a channel of RNIC_RING_SLOTS records of RNIC_RING_REC bytes per direction
 * (the acceptor creates it, the dialer maps it with the same geometry). A record is the head
 * below and the payload.
 */
/* + the channel's 16-byte record header: 66 cache lines, room for an NVMe-oF capsule (64 bytes)
 * with 4 KiB of in-capsule data, or a 4 KiB write, behind the 40-byte rnic_ring_hdr */
#define RNIC_RING_REC 4208
#define RNIC_RING_SLOTS 64
/* Descriptors the acceptor's hello ack carries for the ring: the memfd, the dialer's doorbell
 * (its receiving and its ringing end), the ringing end of the acceptor's (base/bell.h). */
#define RNIC_RING_HS_FDS 4
#define RNIC_RING_TAG_MSG 0x4d534731u /* "1GSM": the channel record's tag */
#define RNIC_RING_F_WHOLE 1u /* a WRITE's first part: imm is the whole WRITE's length from addr */
struct rnic_ring_hdr {
	uint8_t op;
	uint8_t flags;
	uint8_t reserved[2];
	uint32_t imm;
	uint64_t id; /* WRITE, WRITE_IMM: rkey */
	uint64_t token;
	uint64_t addr;
};

_Static_assert(sizeof(struct rnic_hdr) == 80, "rnic_hdr is 80 bytes on the wire");
_Static_assert(sizeof(struct rnic_ring_hdr) == 32, "rnic_ring_hdr is 32 bytes in the ring");

#endif /* SOFTHW_RNIC_WIRE_H */
