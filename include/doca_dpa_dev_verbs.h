/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_dpa_dev_verbs.h — verbs-style work requests posted by the DPA on queues that a
 * host created with DOCA Verbs (DOCA 3.2+). Device code only: compiled by dpacc (docs/dpa.md).
 *
 * The work-request accessors work as on DOCA. Queue handles come from the host's doca_verbs
 * objects, which softdoca does not implement (docs/compatibility.md): every call on a queue
 * reports itself as unsupported (the DPA context turns fatal) and returns 0, DOCA's failure
 * value.
 */
#ifndef SOFTDOCA_DOCA_DPA_DEV_VERBS_H
#define SOFTDOCA_DOCA_DPA_DEV_VERBS_H

#include "doca_dpa_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Queue handles: an RC/UC queue pair, a shared receive queue, Ethernet send / receive queues. */
__dpa_global__ typedef uint64_t doca_dpa_dev_verbs_qp_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_verbs_srq_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_verbs_eth_sq_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_verbs_eth_rq_t;

/* Work requests: opaque, filled through the accessors below (64 and 12 bytes as in DOCA). */
struct doca_dpa_dev_verbs_send_wr {
	uint8_t rsvd[64];
} __attribute__((__packed__, aligned(8)));

struct doca_dpa_dev_verbs_recv_wr {
	uint8_t rsvd[12];
} __attribute__((__packed__, aligned(8)));

enum doca_dpa_dev_verbs_send_wr_opcode {
	DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_WRITE = 0x8,
	DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_WRITE_WITH_IMM = 0x9,
	DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_SEND = 0xA,
	DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_SEND_WITH_IMM = 0xB,
	DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_READ = 0x10,
	DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_ATOMIC_FETCH_ADD = 0x12,
};

enum doca_dpa_dev_verbs_send_wr_flags {
	DOCA_DPA_DEV_VERBS_SEND_WR_FLAGS_SIGNALED = 1 << 1,  /* a completion for this work request */
	DOCA_DPA_DEV_VERBS_SEND_WR_FLAGS_SOLICITED = 1 << 2, /* solicited event (send, write with immediate) */
};

enum doca_dpa_dev_verbs_srq_type {
	DOCA_DPA_DEV_VERBS_SRQ_TYPE_LINKED_LIST = 0x0,
	DOCA_DPA_DEV_VERBS_SRQ_TYPE_CONTIGUOUS = 0x1,
};

enum doca_dpa_dev_verbs_send_wr_fm {
	DOCA_DPA_DEV_VERBS_SEND_WR_FM_NO_FENCE = 0x0,
	DOCA_DPA_DEV_VERBS_SEND_WR_FM_INITIATOR_SMALL_FENCE = 0x1,
	DOCA_DPA_DEV_VERBS_SEND_WR_FM_FENCE = 0x2,
	DOCA_DPA_DEV_VERBS_SEND_WR_FM_STRONG_ORDERING_FENCE = 0x3,
	DOCA_DPA_DEV_VERBS_SEND_WR_FM_FENCE_AND_INITIATOR_SMALL_FENCE = 0x4,
};

/* The lkey of the last element of a receive's list when it does not fill the whole WR. */
#ifndef DOCA_DPA_DEV_VERBS_SGE_TERMINATING_LKEY
#define DOCA_DPA_DEV_VERBS_SGE_TERMINATING_LKEY (0x100)
#endif

struct doca_dpa_dev_verbs_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

/* ---- send work request ---- */
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_sg_list(struct doca_dpa_dev_verbs_send_wr *send_wr, struct doca_dpa_dev_verbs_sge *sg_list);
DOCA_EXPERIMENTAL struct doca_dpa_dev_verbs_sge *doca_dpa_dev_verbs_send_wr_get_sg_list(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_sg_num_sge(struct doca_dpa_dev_verbs_send_wr *send_wr, uint32_t num_sge);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_send_wr_get_sg_num_sge(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_opcode(struct doca_dpa_dev_verbs_send_wr *send_wr, enum doca_dpa_dev_verbs_send_wr_opcode opcode);
DOCA_EXPERIMENTAL enum doca_dpa_dev_verbs_send_wr_opcode doca_dpa_dev_verbs_send_wr_get_opcode(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_send_flags(struct doca_dpa_dev_verbs_send_wr *send_wr, unsigned int send_flags);
DOCA_EXPERIMENTAL unsigned int doca_dpa_dev_verbs_send_wr_get_send_flags(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_fence_mode(struct doca_dpa_dev_verbs_send_wr *send_wr, enum doca_dpa_dev_verbs_send_wr_fm fence_mode);
DOCA_EXPERIMENTAL enum doca_dpa_dev_verbs_send_wr_fm doca_dpa_dev_verbs_send_wr_get_fence_mode(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_imm_data(struct doca_dpa_dev_verbs_send_wr *send_wr, uint32_t imm_data);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_send_wr_get_imm_data(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_invalidate_rkey(struct doca_dpa_dev_verbs_send_wr *send_wr, uint32_t invalidate_rkey);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_send_wr_get_invalidate_rkey(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_rdma_remote_addr(struct doca_dpa_dev_verbs_send_wr *send_wr, uint64_t remote_addr);
DOCA_EXPERIMENTAL uint64_t doca_dpa_dev_verbs_send_wr_get_rdma_remote_addr(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_rdma_rkey(struct doca_dpa_dev_verbs_send_wr *send_wr, uint32_t rkey);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_send_wr_get_rdma_rkey(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_atomic_remote_addr(struct doca_dpa_dev_verbs_send_wr *send_wr, uint64_t remote_addr);
DOCA_EXPERIMENTAL uint64_t doca_dpa_dev_verbs_send_wr_get_atomic_remote_addr(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_atomic_compare_add(struct doca_dpa_dev_verbs_send_wr *send_wr, uint64_t compare_add);
DOCA_EXPERIMENTAL uint64_t doca_dpa_dev_verbs_send_wr_get_atomic_compare_add(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_atomic_swap(struct doca_dpa_dev_verbs_send_wr *send_wr, uint64_t swap);
DOCA_EXPERIMENTAL uint64_t doca_dpa_dev_verbs_send_wr_get_atomic_swap(struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_send_wr_set_atomic_rkey(struct doca_dpa_dev_verbs_send_wr *send_wr, uint32_t rkey);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_send_wr_get_atomic_rkey(struct doca_dpa_dev_verbs_send_wr *send_wr);

/* ---- receive work request ---- */
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_recv_wr_set_sg_list(struct doca_dpa_dev_verbs_recv_wr *recv_wr, struct doca_dpa_dev_verbs_sge *sg_list);
DOCA_EXPERIMENTAL struct doca_dpa_dev_verbs_sge *doca_dpa_dev_verbs_recv_wr_get_sg_list(struct doca_dpa_dev_verbs_recv_wr *recv_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_recv_wr_set_sg_num_sge(struct doca_dpa_dev_verbs_recv_wr *recv_wr, uint32_t num_sge);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_recv_wr_get_sg_num_sge(struct doca_dpa_dev_verbs_recv_wr *recv_wr);

/* ---- queue pair (post / post raw WQE return the WR count, 0 on failure) ---- */
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_qp_get_wq(doca_dpa_dev_verbs_qp_t verbs_qp, uintptr_t *sq_buf, uint32_t *sq_num_entries, uintptr_t *rq_buf, uint32_t *rq_num_entries, uint32_t *rwqe_size_bytes);
DOCA_EXPERIMENTAL uint32_t *doca_dpa_dev_verbs_qp_get_dbr_addr(doca_dpa_dev_verbs_qp_t verbs_qp);
uint32_t doca_dpa_dev_verbs_qp_get_qpn(doca_dpa_dev_verbs_qp_t verbs_qp);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_qp_get_user_index(doca_dpa_dev_verbs_qp_t verbs_qp);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_qp_post_send_wr(doca_dpa_dev_verbs_qp_t verbs_qp, struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_qp_post_send_raw_wqe(doca_dpa_dev_verbs_qp_t verbs_qp, void *wqe);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_qp_post_recv_raw_ack(doca_dpa_dev_verbs_qp_t verbs_qp, uint64_t num_wr);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_qp_post_recv_wr(doca_dpa_dev_verbs_qp_t verbs_qp, struct doca_dpa_dev_verbs_recv_wr *recv_wr);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_qp_post_recv_raw_wqe(doca_dpa_dev_verbs_qp_t verbs_qp, void *wqe, uint64_t sz);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_qp_commit_send(doca_dpa_dev_verbs_qp_t verbs_qp);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_qp_lw_commit_send(doca_dpa_dev_verbs_qp_t verbs_qp);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_qp_commit_recv(doca_dpa_dev_verbs_qp_t verbs_qp);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_qp_lw_commit_recv(doca_dpa_dev_verbs_qp_t verbs_qp);

/* ---- shared receive queue ---- */
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_srq_post_recv_wr(doca_dpa_dev_verbs_srq_t verbs_srq, enum doca_dpa_dev_verbs_srq_type srq_type, struct doca_dpa_dev_verbs_recv_wr *recv_wr);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_srq_post_recv_raw_wqe(doca_dpa_dev_verbs_srq_t verbs_srq, enum doca_dpa_dev_verbs_srq_type srq_type, void *wqe, uint64_t sz);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_srq_commit_recv(doca_dpa_dev_verbs_srq_t verbs_srq);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_srq_lw_commit_recv(doca_dpa_dev_verbs_srq_t verbs_srq);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_srq_linked_list_ack_wr(doca_dpa_dev_verbs_srq_t verbs_srq, uint32_t wr_count);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_srq_get_srqn(doca_dpa_dev_verbs_srq_t verbs_srq);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_srq_get_wq(doca_dpa_dev_verbs_srq_t verbs_srq, uintptr_t *srq_buf, uint32_t *srq_num_entries, uint32_t *rwqe_size_bytes);
DOCA_EXPERIMENTAL uint32_t *doca_dpa_dev_verbs_srq_get_dbr_addr(doca_dpa_dev_verbs_srq_t verbs_srq);

/* ---- Ethernet send queue (SEND only) and receive queue ---- */
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_eth_sq_post_send_wr(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq, struct doca_dpa_dev_verbs_send_wr *send_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_eth_sq_commit_send(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_eth_sq_lw_commit_send(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_eth_sq_get_sqn(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_eth_sq_get_user_index(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_eth_sq_get_wq(doca_dpa_dev_verbs_eth_sq_t verbs_eth_sq, uintptr_t *eth_sq_buf, uint32_t *eth_sq_num_entries);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_eth_rq_post_recv_wr(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq, struct doca_dpa_dev_verbs_recv_wr *recv_wr);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_eth_rq_post_recv_raw_ack(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq, uint64_t num_wr);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_eth_rq_commit_recv(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_eth_rq_lw_commit_recv(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_eth_rq_get_rqn(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_verbs_eth_rq_get_user_index(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq);
DOCA_EXPERIMENTAL void doca_dpa_dev_verbs_eth_rq_get_wq(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq, uintptr_t *eth_rq_buf, uint32_t *eth_rq_num_entries, uint32_t *rwqe_size_bytes);
DOCA_EXPERIMENTAL uintptr_t doca_dpa_dev_verbs_eth_rq_get_dbr_addr(doca_dpa_dev_verbs_eth_rq_t verbs_eth_rq);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DPA_DEV_VERBS_H */
