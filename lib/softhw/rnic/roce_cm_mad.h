/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IB CM messages as RDMA-CM exchanges them over RoCEv2 (private to lib/softhw/rnic/).
 *
 * Each is one 256-byte MAD carried by a UD SEND_ONLY packet to QP1 (Q_Key 0x80010000): the
 * 24-byte MAD header, then 232 bytes of CM data laid out per message. These functions turn a
 * MAD into a struct of host values and back, byte-exactly; they hold no connection state.
 * put() writes every byte of the MAD (reserved bits 0) and cuts fields to their widths; get()
 * reads a MAD whose header roce_cm_mad_check accepted. RDMA-CM's IP addressing header (the
 * first 36 bytes of a REQ's private data) and the service ID have their own helpers.
 */
#ifndef SOFTHW_RNIC_ROCE_CM_MAD_H
#define SOFTHW_RNIC_ROCE_CM_MAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROCE_MAD_LEN 256
#define ROCE_MAD_HDR_LEN 24
#define ROCE_CM_DATA_LEN 232
#define ROCE_MAD_BASE_VERSION 1
#define ROCE_MAD_CLASS_CM 0x07
#define ROCE_MAD_CM_VERSION 2
#define ROCE_MAD_METHOD_SEND 0x03

enum roce_cm_attr {
	ROCE_CM_REQ = 0x0010,
	ROCE_CM_MRA = 0x0011,
	ROCE_CM_REJ = 0x0012,
	ROCE_CM_REP = 0x0013,
	ROCE_CM_RTU = 0x0014,
	ROCE_CM_DREQ = 0x0015,
	ROCE_CM_DREP = 0x0016,
};

#define ROCE_CM_REQ_PDATA 92
#define ROCE_CM_MRA_PDATA 222
#define ROCE_CM_REJ_PDATA 148
#define ROCE_CM_REJ_ARI 72
#define ROCE_CM_REP_PDATA 196
#define ROCE_CM_RTU_PDATA 224
#define ROCE_CM_DREQ_PDATA 220
#define ROCE_CM_DREP_PDATA 224

/* REQ transport service type; REJ/MRA "message" field values. */
#define ROCE_CM_TRANSPORT_RC 0
#define ROCE_CM_MSG_REQ 0
#define ROCE_CM_MSG_REP 1
#define ROCE_CM_MSG_OTHER 2 /* REJ; for MRA 2 is LAP */

/* REJ reasons the soft NIC deals in (IB CM numbering). */
#define ROCE_CM_REJ_NO_QP 1
#define ROCE_CM_REJ_NO_RESOURCES 3
#define ROCE_CM_REJ_TIMEOUT 4
#define ROCE_CM_REJ_INVALID_SERVICE_ID 8
#define ROCE_CM_REJ_STALE_CONN 10
#define ROCE_CM_REJ_INVALID_GID 12
#define ROCE_CM_REJ_CONSUMER 28

struct roce_mad_hdr {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method; /* R bit (0x80) included */
	uint16_t status;
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
};

/* One path of a REQ (44 bytes on the wire); RoCE puts IP addresses in the GIDs. */
struct roce_cm_path {
	uint16_t local_lid, remote_lid; /* 0xffff on RoCE */
	uint8_t local_gid[16], remote_gid[16];
	uint32_t flow_label; /* 20 bits */
	uint8_t packet_rate; /* 6 bits */
	uint8_t traffic_class;
	uint8_t hop_limit;
	uint8_t sl;          /* 4 bits */
	bool subnet_local;
	uint8_t local_ack_timeout; /* 5 bits */
};

struct roce_cm_req {
	uint32_t local_comm_id;
	uint32_t vendor_id; /* 24 bits */
	uint64_t service_id;
	uint64_t local_ca_guid;
	uint32_t local_qkey;
	uint32_t local_qpn; /* 24 bits */
	uint8_t responder_resources;
	uint32_t local_eecn; /* 24 bits */
	uint8_t initiator_depth;
	uint32_t remote_eecn; /* 24 bits */
	uint8_t remote_cm_timeout; /* 5 bits */
	uint8_t transport;         /* 2 bits */
	bool flow_control;
	uint32_t starting_psn;     /* 24 bits */
	uint8_t local_cm_timeout;  /* 5 bits */
	uint8_t retry_count;       /* 3 bits */
	uint16_t pkey;
	uint8_t path_mtu;          /* 4 bits: 1 = 256 ... 5 = 4096 */
	bool rdc_exists;
	uint8_t rnr_retry_count;   /* 3 bits */
	uint8_t max_cm_retries;    /* 4 bits */
	bool srq;
	uint8_t ext_transport;     /* 3 bits */
	struct roce_cm_path primary, alternate;
	uint8_t private_data[ROCE_CM_REQ_PDATA];
};

struct roce_cm_rep {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t local_qkey;
	uint32_t local_qpn;   /* 24 bits */
	uint32_t local_eecn;  /* 24 bits */
	uint32_t starting_psn; /* 24 bits */
	uint32_t vendor_id;   /* 24 bits, split over bytes 15, 19 and 23 */
	uint8_t responder_resources;
	uint8_t initiator_depth;
	uint8_t target_ack_delay;  /* 5 bits */
	uint8_t failover_accepted; /* 2 bits */
	bool flow_control;
	uint8_t rnr_retry_count;   /* 3 bits */
	bool srq;
	uint64_t local_ca_guid;
	uint8_t private_data[ROCE_CM_REP_PDATA];
};

struct roce_cm_rej {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t msg_rejected; /* 2 bits: ROCE_CM_MSG_* */
	uint8_t ari_len;      /* 7 bits */
	uint16_t reason;
	uint8_t ari[ROCE_CM_REJ_ARI];
	uint8_t private_data[ROCE_CM_REJ_PDATA];
};

struct roce_cm_mra {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t msg_mraed;       /* 2 bits */
	uint8_t service_timeout; /* 5 bits */
	uint8_t private_data[ROCE_CM_MRA_PDATA];
};

/* RTU and DREP have the same layout. */
struct roce_cm_rtu {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint8_t private_data[ROCE_CM_RTU_PDATA];
};

struct roce_cm_dreq {
	uint32_t local_comm_id;
	uint32_t remote_comm_id;
	uint32_t remote_qpn; /* 24 bits: the receiver's QPN, or it drops the DREQ */
	uint8_t private_data[ROCE_CM_DREQ_PDATA];
};

void roce_mad_hdr_put(uint8_t *mad, const struct roce_mad_hdr *hdr);
void roce_mad_hdr_get(const uint8_t *mad, struct roce_mad_hdr *hdr);

/*
 * Whether buf[0..len) is a CM MAD that Linux's MAD layer would hand to the CM: exactly 256
 * bytes, base version 1, class 0x07, class version 2, method Send. Fills *hdr either way
 * when len allows.
 */
bool roce_cm_mad_check(const uint8_t *buf, size_t len, struct roce_mad_hdr *hdr);

/* The MAD header of a CM message: Send, the attribute and the transaction ID. */
void roce_cm_hdr_init(struct roce_mad_hdr *hdr, uint16_t attr_id, uint64_t tid);

void roce_cm_req_put(uint8_t *mad, uint64_t tid, const struct roce_cm_req *req);
void roce_cm_req_get(const uint8_t *mad, struct roce_cm_req *req);
void roce_cm_rep_put(uint8_t *mad, uint64_t tid, const struct roce_cm_rep *rep);
void roce_cm_rep_get(const uint8_t *mad, struct roce_cm_rep *rep);
void roce_cm_rej_put(uint8_t *mad, uint64_t tid, const struct roce_cm_rej *rej);
void roce_cm_rej_get(const uint8_t *mad, struct roce_cm_rej *rej);
void roce_cm_mra_put(uint8_t *mad, uint64_t tid, const struct roce_cm_mra *mra);
void roce_cm_mra_get(const uint8_t *mad, struct roce_cm_mra *mra);
/* attr_id: ROCE_CM_RTU or ROCE_CM_DREP. */
void roce_cm_rtu_put(uint8_t *mad, uint16_t attr_id, uint64_t tid, const struct roce_cm_rtu *rtu);
void roce_cm_rtu_get(const uint8_t *mad, struct roce_cm_rtu *rtu);
void roce_cm_dreq_put(uint8_t *mad, uint64_t tid, const struct roce_cm_dreq *dreq);
void roce_cm_dreq_get(const uint8_t *mad, struct roce_cm_dreq *dreq);

/* A 5-bit IB time value t (CM response timeouts, ACK timeouts): 4.096 us x 2^t, in ns. */
static inline uint64_t roce_time_ns(uint8_t t)
{
	return 4096ull << (t & 0x1f);
}

/*
 * The QP ACK timeout Linux's CM derives from a CA ACK delay and a packet lifetime (both 5-bit
 * time values): lifetime + 1, nudged up by one when the two are within one of each other,
 * never below the delay, at most 31. rxe (delay 15) with RDMA-CM's lifetime 16 gives 17.
 */
uint8_t roce_cm_ack_timeout(uint8_t ca_ack_delay, uint8_t packet_life_time);

/*
 * The local CA GUID of an address (host order) in our REQs and REPs: a stable EUI-64-like node
 * GUID. A REJ "timeout" names it in its ARI (Linux finds the connection by it and the comm ID).
 */
static inline uint64_t roce_ca_guid(uint32_t ip)
{
	return 0x020000fffe000000ull ^ ((uint64_t)ip << 8);
}

/* ---- RDMA-CM over IB CM ---- */

#define ROCE_PS_TCP 0x0106 /* RC */
#define ROCE_PS_UDP 0x0111 /* UD */
#define ROCE_PS_IB 0x013f

/* Service ID of an RDMA-CM port: 0x0000000001PPpppp (port space, port). */
static inline uint64_t roce_cm_service_id(uint16_t ps, uint16_t port)
{
	return (uint64_t)ps << 16 | port;
}

/* Whether sid is an RDMA IP CM service ID; then its port space and port. */
bool roce_cm_service_parse(uint64_t sid, uint16_t *ps, uint16_t *port);

/*
 * The flow label Linux RDMA-CM puts in a REQ's primary path over RoCE (IPv4, or IPv6 without
 * one of its own): (source port * 31 + destination port) mod 2^20, the RDMA-CM ports. rxe
 * derives its RC QPs' UDP source port from it (roce_udp_sport_rc). Seen from Linux 6.1.
 */
static inline uint32_t roce_cma_flow_label(uint16_t src_port, uint16_t dst_port)
{
	return ((uint32_t)src_port * 31 + dst_port) & 0xfffff;
}

/* RDMA-CM's IP addressing header: the first 36 bytes of a REQ's private data. */
#define ROCE_CMA_HDR_LEN 36
#define ROCE_CMA_USER_PDATA (ROCE_CM_REQ_PDATA - ROCE_CMA_HDR_LEN) /* 56 */

struct roce_cma_hdr {
	uint8_t cma_version; /* 0 */
	uint8_t ip_version;  /* 4 or 6 */
	uint16_t src_port;   /* the active side's RDMA-CM port */
	uint8_t src[16];     /* IPv6, or IPv4 in the last four bytes after 12 zero bytes */
	uint8_t dst[16];
};

void roce_cma_hdr_put(uint8_t *pdata, const struct roce_cma_hdr *hdr);

/* Reads the header; false if Linux RDMA-CM would refuse it (version not 0, IP not 4 or 6). */
bool roce_cma_hdr_get(const uint8_t *pdata, struct roce_cma_hdr *hdr);

/* A GID for an IPv4 address (host order): ::ffff:a.b.c.d, as RoCEv2 and the CM carry it. */
void roce_gid_from_ip4(uint8_t gid[16], uint32_t addr);

/* The IPv4 address in an IPv4-mapped GID; false if gid is not one. */
bool roce_gid_to_ip4(const uint8_t gid[16], uint32_t *addr);

#endif /* SOFTHW_RNIC_ROCE_CM_MAD_H */
