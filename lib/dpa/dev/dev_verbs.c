/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device runtime, DPA verbs (libdoca_dpa_dev_verbs.a): doca_dpa_dev_verbs.h. The work-request
 * accessors keep their fields in the opaque 64- / 12-byte structs (remote address and rkey are
 * shared by RDMA and atomic requests, immediate and invalidate rkey by sends, as in a WQE). The
 * queue calls need queues that the host's DOCA Verbs creates, which softdoca does not implement
 * (docs/compatibility.md): each reports itself (the context turns fatal) and returns 0.
 */
#include "doca_dpa_dev_verbs.h"
#include "dev_runtime.h"

struct send_wr_fields {
	struct doca_dpa_dev_verbs_sge *sg_list;
	uint32_t num_sge;
	uint32_t opcode;
	uint32_t flags;
	uint32_t fence;
	uint32_t imm_or_inv; /* immediate data, or the rkey a send with invalidate names */
	uint32_t rkey;	     /* of the remote address: RDMA or atomic */
	uint64_t remote_addr;
	uint64_t compare_add;
	uint64_t swap;
} __attribute__((may_alias));

struct recv_wr_fields {
	struct doca_dpa_dev_verbs_sge *sg_list;
	uint32_t num_sge;
} __attribute__((packed, may_alias));

_Static_assert(sizeof(struct send_wr_fields) <= sizeof(struct doca_dpa_dev_verbs_send_wr), "send WR fields");
_Static_assert(sizeof(struct recv_wr_fields) <= 12, "receive WR fields");

#define SEND(wr) ((struct send_wr_fields *)(void *)(wr))
#define RECV(wr) ((struct recv_wr_fields *)(void *)(wr))

#define SEND_ACCESSORS(name, field, type) \
	void doca_dpa_dev_verbs_send_wr_set_##name(struct doca_dpa_dev_verbs_send_wr *send_wr, type v) \
	{ \
		SEND(send_wr)->field = v; \
	} \
	type doca_dpa_dev_verbs_send_wr_get_##name(struct doca_dpa_dev_verbs_send_wr *send_wr) \
	{ \
		return (type)SEND(send_wr)->field; \
	}

SEND_ACCESSORS(sg_list, sg_list, struct doca_dpa_dev_verbs_sge *)
SEND_ACCESSORS(sg_num_sge, num_sge, uint32_t)
SEND_ACCESSORS(opcode, opcode, enum doca_dpa_dev_verbs_send_wr_opcode)
SEND_ACCESSORS(send_flags, flags, unsigned int)
SEND_ACCESSORS(fence_mode, fence, enum doca_dpa_dev_verbs_send_wr_fm)
SEND_ACCESSORS(imm_data, imm_or_inv, uint32_t)
SEND_ACCESSORS(invalidate_rkey, imm_or_inv, uint32_t)
SEND_ACCESSORS(rdma_remote_addr, remote_addr, uint64_t)
SEND_ACCESSORS(rdma_rkey, rkey, uint32_t)
SEND_ACCESSORS(atomic_remote_addr, remote_addr, uint64_t)
SEND_ACCESSORS(atomic_compare_add, compare_add, uint64_t)
SEND_ACCESSORS(atomic_swap, swap, uint64_t)
SEND_ACCESSORS(atomic_rkey, rkey, uint32_t)

void doca_dpa_dev_verbs_recv_wr_set_sg_list(struct doca_dpa_dev_verbs_recv_wr *recv_wr, struct doca_dpa_dev_verbs_sge *sg_list)
{
	RECV(recv_wr)->sg_list = sg_list;
}

struct doca_dpa_dev_verbs_sge *doca_dpa_dev_verbs_recv_wr_get_sg_list(struct doca_dpa_dev_verbs_recv_wr *recv_wr)
{
	return RECV(recv_wr)->sg_list;
}

void doca_dpa_dev_verbs_recv_wr_set_sg_num_sge(struct doca_dpa_dev_verbs_recv_wr *recv_wr, uint32_t num_sge)
{
	RECV(recv_wr)->num_sge = num_sge;
}

uint32_t doca_dpa_dev_verbs_recv_wr_get_sg_num_sge(struct doca_dpa_dev_verbs_recv_wr *recv_wr)
{
	return RECV(recv_wr)->num_sge;
}

/* ---- queues: need DOCA Verbs on the host (not implemented) ---- */

void doca_dpa_dev_verbs_qp_get_wq(doca_dpa_dev_verbs_qp_t verbs_qp, uintptr_t *sq_buf, uint32_t *sq_num_entries, uintptr_t *rq_buf, uint32_t *rq_num_entries, uint32_t *rwqe_size_bytes)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_get_wq");
	if (sq_buf != 0)
		*sq_buf = 0;
	if (sq_num_entries != 0)
		*sq_num_entries = 0;
	if (rq_buf != 0)
		*rq_buf = 0;
	if (rq_num_entries != 0)
		*rq_num_entries = 0;
	if (rwqe_size_bytes != 0)
		*rwqe_size_bytes = 0;
}

uint32_t *doca_dpa_dev_verbs_qp_get_dbr_addr(doca_dpa_dev_verbs_qp_t verbs_qp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_get_dbr_addr");
	return 0;
}

uint32_t doca_dpa_dev_verbs_qp_get_qpn(doca_dpa_dev_verbs_qp_t verbs_qp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_get_qpn");
	return 0;
}

uint32_t doca_dpa_dev_verbs_qp_get_user_index(doca_dpa_dev_verbs_qp_t verbs_qp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_get_user_index");
	return 0;
}

uint32_t doca_dpa_dev_verbs_qp_post_send_wr(doca_dpa_dev_verbs_qp_t verbs_qp, struct doca_dpa_dev_verbs_send_wr *send_wr)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_post_send_wr");
	return 0;
}

uint32_t doca_dpa_dev_verbs_qp_post_send_raw_wqe(doca_dpa_dev_verbs_qp_t verbs_qp, void *wqe)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_post_send_raw_wqe");
	return 0;
}

uint32_t doca_dpa_dev_verbs_qp_post_recv_raw_ack(doca_dpa_dev_verbs_qp_t verbs_qp, uint64_t num_wr)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_post_recv_raw_ack");
	return 0;
}

uint32_t doca_dpa_dev_verbs_qp_post_recv_wr(doca_dpa_dev_verbs_qp_t verbs_qp, struct doca_dpa_dev_verbs_recv_wr *recv_wr)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_post_recv_wr");
	return 0;
}

uint32_t doca_dpa_dev_verbs_qp_post_recv_raw_wqe(doca_dpa_dev_verbs_qp_t verbs_qp, void *wqe, uint64_t sz)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_post_recv_raw_wqe");
	return 0;
}

void doca_dpa_dev_verbs_qp_commit_send(doca_dpa_dev_verbs_qp_t verbs_qp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_commit_send");
}

void doca_dpa_dev_verbs_qp_lw_commit_send(doca_dpa_dev_verbs_qp_t verbs_qp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_lw_commit_send");
}

void doca_dpa_dev_verbs_qp_commit_recv(doca_dpa_dev_verbs_qp_t verbs_qp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_commit_recv");
}

void doca_dpa_dev_verbs_qp_lw_commit_recv(doca_dpa_dev_verbs_qp_t verbs_qp)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_qp_lw_commit_recv");
}

uint32_t doca_dpa_dev_verbs_srq_post_recv_wr(doca_dpa_dev_verbs_srq_t verbs_srq, enum doca_dpa_dev_verbs_srq_type srq_type, struct doca_dpa_dev_verbs_recv_wr *recv_wr)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_post_recv_wr");
	return 0;
}

uint32_t doca_dpa_dev_verbs_srq_post_recv_raw_wqe(doca_dpa_dev_verbs_srq_t verbs_srq, enum doca_dpa_dev_verbs_srq_type srq_type, void *wqe, uint64_t sz)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_post_recv_raw_wqe");
	return 0;
}

void doca_dpa_dev_verbs_srq_commit_recv(doca_dpa_dev_verbs_srq_t verbs_srq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_commit_recv");
}

void doca_dpa_dev_verbs_srq_lw_commit_recv(doca_dpa_dev_verbs_srq_t verbs_srq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_lw_commit_recv");
}

void doca_dpa_dev_verbs_srq_linked_list_ack_wr(doca_dpa_dev_verbs_srq_t verbs_srq, uint32_t wr_count)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_linked_list_ack_wr");
}

uint32_t doca_dpa_dev_verbs_srq_get_srqn(doca_dpa_dev_verbs_srq_t verbs_srq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_get_srqn");
	return 0;
}

void doca_dpa_dev_verbs_srq_get_wq(doca_dpa_dev_verbs_srq_t verbs_srq, uintptr_t *srq_buf, uint32_t *srq_num_entries, uint32_t *rwqe_size_bytes)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_get_wq");
	if (srq_buf != 0)
		*srq_buf = 0;
	if (srq_num_entries != 0)
		*srq_num_entries = 0;
	if (rwqe_size_bytes != 0)
		*rwqe_size_bytes = 0;
}

uint32_t *doca_dpa_dev_verbs_srq_get_dbr_addr(doca_dpa_dev_verbs_srq_t verbs_srq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_srq_get_dbr_addr");
	return 0;
}

uint32_t doca_dpa_dev_verbs_eth_sq_post_send_wr(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq, struct doca_dpa_dev_verbs_send_wr *send_wr)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_sq_post_send_wr");
	return 0;
}

void doca_dpa_dev_verbs_eth_sq_commit_send(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_sq_commit_send");
}

void doca_dpa_dev_verbs_eth_sq_lw_commit_send(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_sq_lw_commit_send");
}

uint32_t doca_dpa_dev_verbs_eth_sq_get_sqn(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_sq_get_sqn");
	return 0;
}

uint32_t doca_dpa_dev_verbs_eth_sq_get_user_index(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_sq_get_user_index");
	return 0;
}

void doca_dpa_dev_verbs_eth_sq_get_wq(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq, uintptr_t *eth_sq_buf, uint32_t *eth_sq_num_entries)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_sq_get_wq");
	if (eth_sq_buf != 0)
		*eth_sq_buf = 0;
	if (eth_sq_num_entries != 0)
		*eth_sq_num_entries = 0;
}

uint32_t doca_dpa_dev_verbs_eth_rq_post_recv_wr(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq, struct doca_dpa_dev_verbs_recv_wr *recv_wr)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_post_recv_wr");
	return 0;
}

uint32_t doca_dpa_dev_verbs_eth_rq_post_recv_raw_ack(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq, uint64_t num_wr)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_post_recv_raw_ack");
	return 0;
}

void doca_dpa_dev_verbs_eth_rq_commit_recv(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_commit_recv");
}

void doca_dpa_dev_verbs_eth_rq_lw_commit_recv(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_lw_commit_recv");
}

uint32_t doca_dpa_dev_verbs_eth_rq_get_rqn(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_get_rqn");
	return 0;
}

uint32_t doca_dpa_dev_verbs_eth_rq_get_user_index(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_get_user_index");
	return 0;
}

void doca_dpa_dev_verbs_eth_rq_get_wq(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq, uintptr_t *eth_rq_buf, uint32_t *eth_rq_num_entries, uint32_t *rwqe_size_bytes)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_get_wq");
	if (eth_rq_buf != 0)
		*eth_rq_buf = 0;
	if (eth_rq_num_entries != 0)
		*eth_rq_num_entries = 0;
	if (rwqe_size_bytes != 0)
		*rwqe_size_bytes = 0;
}

uintptr_t doca_dpa_dev_verbs_eth_rq_get_dbr_addr(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq)
{
	softdoca_dpa_dev_unsupported("doca_dpa_dev_verbs_eth_rq_get_dbr_addr");
	return 0;
}
