/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IB CM MADs (roce_cm_mad.h). Offsets in the comments and code are within the CM data, which
 * starts at MAD byte 24; bit positions count b7 as the most significant bit of a byte.
 */
#include <string.h>

#include "softhw/rnic/roce_cm_mad.h"
#include "softhw/rnic/roce_pkt.h"

#define D ROCE_MAD_HDR_LEN /* CM data offset in the MAD */

void roce_mad_hdr_put(uint8_t *mad, const struct roce_mad_hdr *hdr)
{
	mad[0] = hdr->base_version;
	mad[1] = hdr->mgmt_class;
	mad[2] = hdr->class_version;
	mad[3] = hdr->method;
	roce_put16(mad + 4, hdr->status);
	roce_put16(mad + 6, hdr->class_specific);
	roce_put64(mad + 8, hdr->tid);
	roce_put16(mad + 16, hdr->attr_id);
	roce_put16(mad + 18, 0);
	roce_put32(mad + 20, hdr->attr_mod);
}

void roce_mad_hdr_get(const uint8_t *mad, struct roce_mad_hdr *hdr)
{
	hdr->base_version = mad[0];
	hdr->mgmt_class = mad[1];
	hdr->class_version = mad[2];
	hdr->method = mad[3];
	hdr->status = roce_get16(mad + 4);
	hdr->class_specific = roce_get16(mad + 6);
	hdr->tid = roce_get64(mad + 8);
	hdr->attr_id = roce_get16(mad + 16);
	hdr->attr_mod = roce_get32(mad + 20);
}

bool roce_cm_mad_check(const uint8_t *buf, size_t len, struct roce_mad_hdr *hdr)
{
	if (len < ROCE_MAD_HDR_LEN)
		return false;
	roce_mad_hdr_get(buf, hdr);
	return len == ROCE_MAD_LEN && hdr->base_version == ROCE_MAD_BASE_VERSION &&
		hdr->mgmt_class == ROCE_MAD_CLASS_CM && hdr->class_version == ROCE_MAD_CM_VERSION &&
		hdr->method == ROCE_MAD_METHOD_SEND;
}

void roce_cm_hdr_init(struct roce_mad_hdr *hdr, uint16_t attr_id, uint64_t tid)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->base_version = ROCE_MAD_BASE_VERSION;
	hdr->mgmt_class = ROCE_MAD_CLASS_CM;
	hdr->class_version = ROCE_MAD_CM_VERSION;
	hdr->method = ROCE_MAD_METHOD_SEND;
	hdr->tid = tid;
	hdr->attr_id = attr_id;
}

/* A zeroed MAD with its header; returns the CM data. */
static uint8_t *mad_start(uint8_t *mad, uint16_t attr_id, uint64_t tid)
{
	struct roce_mad_hdr hdr;

	memset(mad, 0, ROCE_MAD_LEN);
	roce_cm_hdr_init(&hdr, attr_id, tid);
	roce_mad_hdr_put(mad, &hdr);
	return mad + D;
}

/*
 * Path (44 bytes): 0 local LID; 2 remote LID; 4 local GID; 20 remote GID; 36 flow label in
 * bits 31-12 of a big-endian word, 6 reserved bits, packet rate in bits 5-0; 40 traffic class;
 * 41 hop limit; 42 SL b7-4, subnet local b3; 43 local ACK timeout b7-3.
 */
static void path_put(uint8_t *p, const struct roce_cm_path *path)
{
	roce_put16(p, path->local_lid);
	roce_put16(p + 2, path->remote_lid);
	memcpy(p + 4, path->local_gid, 16);
	memcpy(p + 20, path->remote_gid, 16);
	roce_put32(p + 36, (path->flow_label & 0xfffff) << 12 | (path->packet_rate & 0x3f));
	p[40] = path->traffic_class;
	p[41] = path->hop_limit;
	p[42] = (uint8_t)((path->sl & 0xf) << 4 | (path->subnet_local ? 0x08 : 0));
	p[43] = (uint8_t)((path->local_ack_timeout & 0x1f) << 3);
}

static void path_get(const uint8_t *p, struct roce_cm_path *path)
{
	uint32_t w = roce_get32(p + 36);

	path->local_lid = roce_get16(p);
	path->remote_lid = roce_get16(p + 2);
	memcpy(path->local_gid, p + 4, 16);
	memcpy(path->remote_gid, p + 20, 16);
	path->flow_label = w >> 12;
	path->packet_rate = w & 0x3f;
	path->traffic_class = p[40];
	path->hop_limit = p[41];
	path->sl = p[42] >> 4;
	path->subnet_local = (p[42] & 0x08) != 0;
	path->local_ack_timeout = p[43] >> 3;
}

/*
 * REQ: 0 local comm ID; 5 vendor ID (24); 8 service ID; 16 local CA GUID; 28 local Q_Key;
 * 32 local QPN (24); 35 responder resources; 36 local EECN (24); 39 initiator depth;
 * 40 remote EECN (24); 43 remote CM response timeout b7-3, transport b2-1, flow control b0;
 * 44 starting PSN (24); 47 local CM response timeout b7-3, retry count b2-0; 48 P_Key;
 * 50 path MTU b7-4, RDC exists b3, RNR retry b2-0; 51 max CM retries b7-4, SRQ b3, extended
 * transport b2-0; 52 primary path; 96 alternate path; 140 private data (92).
 */
void roce_cm_req_put(uint8_t *mad, uint64_t tid, const struct roce_cm_req *req)
{
	uint8_t *d = mad_start(mad, ROCE_CM_REQ, tid);

	roce_put32(d, req->local_comm_id);
	roce_put24(d + 5, req->vendor_id & 0xffffff);
	roce_put64(d + 8, req->service_id);
	roce_put64(d + 16, req->local_ca_guid);
	roce_put32(d + 28, req->local_qkey);
	roce_put24(d + 32, req->local_qpn & 0xffffff);
	d[35] = req->responder_resources;
	roce_put24(d + 36, req->local_eecn & 0xffffff);
	d[39] = req->initiator_depth;
	roce_put24(d + 40, req->remote_eecn & 0xffffff);
	d[43] = (uint8_t)((req->remote_cm_timeout & 0x1f) << 3 | (req->transport & 3) << 1 |
		(req->flow_control ? 1 : 0));
	roce_put24(d + 44, req->starting_psn & 0xffffff);
	d[47] = (uint8_t)((req->local_cm_timeout & 0x1f) << 3 | (req->retry_count & 7));
	roce_put16(d + 48, req->pkey);
	d[50] = (uint8_t)((req->path_mtu & 0xf) << 4 | (req->rdc_exists ? 0x08 : 0) |
		(req->rnr_retry_count & 7));
	d[51] = (uint8_t)((req->max_cm_retries & 0xf) << 4 | (req->srq ? 0x08 : 0) |
		(req->ext_transport & 7));
	path_put(d + 52, &req->primary);
	path_put(d + 96, &req->alternate);
	memcpy(d + 140, req->private_data, ROCE_CM_REQ_PDATA);
}

void roce_cm_req_get(const uint8_t *mad, struct roce_cm_req *req)
{
	const uint8_t *d = mad + D;

	memset(req, 0, sizeof(*req));
	req->local_comm_id = roce_get32(d);
	req->vendor_id = roce_get24(d + 5);
	req->service_id = roce_get64(d + 8);
	req->local_ca_guid = roce_get64(d + 16);
	req->local_qkey = roce_get32(d + 28);
	req->local_qpn = roce_get24(d + 32);
	req->responder_resources = d[35];
	req->local_eecn = roce_get24(d + 36);
	req->initiator_depth = d[39];
	req->remote_eecn = roce_get24(d + 40);
	req->remote_cm_timeout = d[43] >> 3;
	req->transport = (d[43] >> 1) & 3;
	req->flow_control = (d[43] & 1) != 0;
	req->starting_psn = roce_get24(d + 44);
	req->local_cm_timeout = d[47] >> 3;
	req->retry_count = d[47] & 7;
	req->pkey = roce_get16(d + 48);
	req->path_mtu = d[50] >> 4;
	req->rdc_exists = (d[50] & 0x08) != 0;
	req->rnr_retry_count = d[50] & 7;
	req->max_cm_retries = d[51] >> 4;
	req->srq = (d[51] & 0x08) != 0;
	req->ext_transport = d[51] & 7;
	path_get(d + 52, &req->primary);
	path_get(d + 96, &req->alternate);
	memcpy(req->private_data, d + 140, ROCE_CM_REQ_PDATA);
}

/*
 * REP: 0 local comm ID; 4 remote comm ID; 8 local Q_Key; 12 local QPN (24); 15 vendor ID
 * 23-16; 16 local EECN (24); 19 vendor ID 15-8; 20 starting PSN (24); 23 vendor ID 7-0;
 * 24 responder resources; 25 initiator depth; 26 target ACK delay b7-3, failover accepted
 * b2-1, flow control b0; 27 RNR retry b7-5, SRQ b4; 28 local CA GUID; 36 private data (196).
 */
void roce_cm_rep_put(uint8_t *mad, uint64_t tid, const struct roce_cm_rep *rep)
{
	uint8_t *d = mad_start(mad, ROCE_CM_REP, tid);

	roce_put32(d, rep->local_comm_id);
	roce_put32(d + 4, rep->remote_comm_id);
	roce_put32(d + 8, rep->local_qkey);
	roce_put24(d + 12, rep->local_qpn & 0xffffff);
	d[15] = (uint8_t)(rep->vendor_id >> 16);
	roce_put24(d + 16, rep->local_eecn & 0xffffff);
	d[19] = (uint8_t)(rep->vendor_id >> 8);
	roce_put24(d + 20, rep->starting_psn & 0xffffff);
	d[23] = (uint8_t)rep->vendor_id;
	d[24] = rep->responder_resources;
	d[25] = rep->initiator_depth;
	d[26] = (uint8_t)((rep->target_ack_delay & 0x1f) << 3 | (rep->failover_accepted & 3) << 1 |
		(rep->flow_control ? 1 : 0));
	d[27] = (uint8_t)((rep->rnr_retry_count & 7) << 5 | (rep->srq ? 0x10 : 0));
	roce_put64(d + 28, rep->local_ca_guid);
	memcpy(d + 36, rep->private_data, ROCE_CM_REP_PDATA);
}

void roce_cm_rep_get(const uint8_t *mad, struct roce_cm_rep *rep)
{
	const uint8_t *d = mad + D;

	memset(rep, 0, sizeof(*rep));
	rep->local_comm_id = roce_get32(d);
	rep->remote_comm_id = roce_get32(d + 4);
	rep->local_qkey = roce_get32(d + 8);
	rep->local_qpn = roce_get24(d + 12);
	rep->local_eecn = roce_get24(d + 16);
	rep->starting_psn = roce_get24(d + 20);
	rep->vendor_id = (uint32_t)d[15] << 16 | (uint32_t)d[19] << 8 | d[23];
	rep->responder_resources = d[24];
	rep->initiator_depth = d[25];
	rep->target_ack_delay = d[26] >> 3;
	rep->failover_accepted = (d[26] >> 1) & 3;
	rep->flow_control = (d[26] & 1) != 0;
	rep->rnr_retry_count = d[27] >> 5;
	rep->srq = (d[27] & 0x10) != 0;
	rep->local_ca_guid = roce_get64(d + 28);
	memcpy(rep->private_data, d + 36, ROCE_CM_REP_PDATA);
}

/*
 * REJ: 0 local comm ID; 4 remote comm ID; 8 message rejected b7-6; 9 reject info length b7-1;
 * 10 reason; 12 additional reject info (72); 84 private data (148).
 */
void roce_cm_rej_put(uint8_t *mad, uint64_t tid, const struct roce_cm_rej *rej)
{
	uint8_t *d = mad_start(mad, ROCE_CM_REJ, tid);

	roce_put32(d, rej->local_comm_id);
	roce_put32(d + 4, rej->remote_comm_id);
	d[8] = (uint8_t)((rej->msg_rejected & 3) << 6);
	d[9] = (uint8_t)((rej->ari_len & 0x7f) << 1);
	roce_put16(d + 10, rej->reason);
	memcpy(d + 12, rej->ari, ROCE_CM_REJ_ARI);
	memcpy(d + 84, rej->private_data, ROCE_CM_REJ_PDATA);
}

void roce_cm_rej_get(const uint8_t *mad, struct roce_cm_rej *rej)
{
	const uint8_t *d = mad + D;

	memset(rej, 0, sizeof(*rej));
	rej->local_comm_id = roce_get32(d);
	rej->remote_comm_id = roce_get32(d + 4);
	rej->msg_rejected = d[8] >> 6;
	rej->ari_len = d[9] >> 1;
	rej->reason = roce_get16(d + 10);
	memcpy(rej->ari, d + 12, ROCE_CM_REJ_ARI);
	memcpy(rej->private_data, d + 84, ROCE_CM_REJ_PDATA);
}

/* MRA: 0 local comm ID; 4 remote comm ID; 8 message MRAed b7-6; 9 service timeout b7-3;
 * 10 private data (222). */
void roce_cm_mra_put(uint8_t *mad, uint64_t tid, const struct roce_cm_mra *mra)
{
	uint8_t *d = mad_start(mad, ROCE_CM_MRA, tid);

	roce_put32(d, mra->local_comm_id);
	roce_put32(d + 4, mra->remote_comm_id);
	d[8] = (uint8_t)((mra->msg_mraed & 3) << 6);
	d[9] = (uint8_t)((mra->service_timeout & 0x1f) << 3);
	memcpy(d + 10, mra->private_data, ROCE_CM_MRA_PDATA);
}

void roce_cm_mra_get(const uint8_t *mad, struct roce_cm_mra *mra)
{
	const uint8_t *d = mad + D;

	memset(mra, 0, sizeof(*mra));
	mra->local_comm_id = roce_get32(d);
	mra->remote_comm_id = roce_get32(d + 4);
	mra->msg_mraed = d[8] >> 6;
	mra->service_timeout = d[9] >> 3;
	memcpy(mra->private_data, d + 10, ROCE_CM_MRA_PDATA);
}

/* RTU and DREP: 0 local comm ID; 4 remote comm ID; 8 private data (224). */
void roce_cm_rtu_put(uint8_t *mad, uint16_t attr_id, uint64_t tid, const struct roce_cm_rtu *rtu)
{
	uint8_t *d = mad_start(mad, attr_id, tid);

	roce_put32(d, rtu->local_comm_id);
	roce_put32(d + 4, rtu->remote_comm_id);
	memcpy(d + 8, rtu->private_data, ROCE_CM_RTU_PDATA);
}

void roce_cm_rtu_get(const uint8_t *mad, struct roce_cm_rtu *rtu)
{
	const uint8_t *d = mad + D;

	memset(rtu, 0, sizeof(*rtu));
	rtu->local_comm_id = roce_get32(d);
	rtu->remote_comm_id = roce_get32(d + 4);
	memcpy(rtu->private_data, d + 8, ROCE_CM_RTU_PDATA);
}

/* DREQ: 0 local comm ID; 4 remote comm ID; 8 remote QPN/EECN (24); 12 private data (220). */
void roce_cm_dreq_put(uint8_t *mad, uint64_t tid, const struct roce_cm_dreq *dreq)
{
	uint8_t *d = mad_start(mad, ROCE_CM_DREQ, tid);

	roce_put32(d, dreq->local_comm_id);
	roce_put32(d + 4, dreq->remote_comm_id);
	roce_put24(d + 8, dreq->remote_qpn & 0xffffff);
	memcpy(d + 12, dreq->private_data, ROCE_CM_DREQ_PDATA);
}

void roce_cm_dreq_get(const uint8_t *mad, struct roce_cm_dreq *dreq)
{
	const uint8_t *d = mad + D;

	memset(dreq, 0, sizeof(*dreq));
	dreq->local_comm_id = roce_get32(d);
	dreq->remote_comm_id = roce_get32(d + 4);
	dreq->remote_qpn = roce_get24(d + 8);
	memcpy(dreq->private_data, d + 12, ROCE_CM_DREQ_PDATA);
}

uint8_t roce_cm_ack_timeout(uint8_t ca_ack_delay, uint8_t packet_life_time)
{
	unsigned int t = packet_life_time + 1u;

	if (t >= ca_ack_delay)
		t += ca_ack_delay >= t - 1 ? 1 : 0;
	else
		t = ca_ack_delay + (t >= ca_ack_delay - 1u ? 1 : 0);
	return (uint8_t)(t > 31 ? 31 : t);
}

bool roce_cm_service_parse(uint64_t sid, uint16_t *ps, uint16_t *port)
{
	uint16_t space = (uint16_t)(sid >> 16);

	if ((sid >> 32) != 0)
		return false;
	if (space != ROCE_PS_TCP && space != ROCE_PS_UDP && space != ROCE_PS_IB)
		return false;
	*ps = space;
	*port = (uint16_t)sid;
	return true;
}

/* IP CM header: 0 version; 1 IP version b7-4; 2 source port; 4 source IP; 20 destination IP. */
void roce_cma_hdr_put(uint8_t *pdata, const struct roce_cma_hdr *hdr)
{
	pdata[0] = hdr->cma_version;
	pdata[1] = (uint8_t)(hdr->ip_version << 4);
	roce_put16(pdata + 2, hdr->src_port);
	memcpy(pdata + 4, hdr->src, 16);
	memcpy(pdata + 20, hdr->dst, 16);
}

bool roce_cma_hdr_get(const uint8_t *pdata, struct roce_cma_hdr *hdr)
{
	hdr->cma_version = pdata[0];
	hdr->ip_version = pdata[1] >> 4;
	hdr->src_port = roce_get16(pdata + 2);
	memcpy(hdr->src, pdata + 4, 16);
	memcpy(hdr->dst, pdata + 20, 16);
	return hdr->cma_version == 0 && (hdr->ip_version == 4 || hdr->ip_version == 6);
}

void roce_gid_from_ip4(uint8_t gid[16], uint32_t addr)
{
	memset(gid, 0, 10);
	gid[10] = gid[11] = 0xff;
	roce_put32(gid + 12, addr);
}

bool roce_gid_to_ip4(const uint8_t gid[16], uint32_t *addr)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (memcmp(gid, prefix, sizeof(prefix)) != 0)
		return false;
	*addr = roce_get32(gid + 12);
	return true;
}
