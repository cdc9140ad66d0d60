/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What softdoca's librdmacm (lib/rdmacm) needs from softdoca's libibverbs (lib/ibverbs) beyond
 * the verbs API, reached without any extra exported symbol: a tag right after the ibv_context
 * of every context libibverbs opens. Internal to the source tree (not installed).
 *
 * A connected QP needs the peer's soft NIC qp descriptor and the peer's MR table (how a 32-bit
 * rkey names soft NIC memory: pid, export id, token); librdmacm carries both ways in its
 * REQ / REP messages as an opaque "connect info" that qp_info produces and qp_connect takes.
 */
#ifndef SOFTDOCA_SOFT_IBV_H
#define SOFTDOCA_SOFT_IBV_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

struct doca_dev;
struct softhw_rnic_qp;

#define SOFT_IBV_MAGIC 0x7662696f73667473ull
#define SOFT_IBV_INFO_MAX 1024 /* connect info: qp descriptor + up to SOFT_IBV_PEER_MRS MRs */
#define SOFT_IBV_PEER_MRS 20
/* READs / atomics in flight a QP serves and issues: ibv_query_device's max_qp_rd_atom and
 * max_qp_init_rd_atom, librdmacm's limit for rdma_connect / rdma_accept, what the RoCEv2 engine serves */
#define SOFT_IBV_MAX_RD_ATOM 16

struct soft_ibv_hooks {
	/* The soft device behind a context (librdmacm's soft NIC endpoints use it too). */
	struct doca_dev *(*dev_of)(struct ibv_context *ctx);
	/* The QP's connect info into buf (cap bytes); 0 or an errno. */
	int (*qp_info)(struct ibv_qp *qp, void *buf, size_t cap, size_t *len);
	/* Connects the QP to the peer the info names; the QP goes to RTS. 0 or an errno. */
	int (*qp_connect)(struct ibv_qp *qp, const void *info, size_t len);
	/* rdma_disconnect: the QP goes to the error state, its work is flushed. */
	void (*qp_disconnect)(struct ibv_qp *qp);
	/*
	 * RDMA-CM on the wire (RoCEv2 cards, as Linux rdma_cm): the soft NIC qp the IB CM messages
	 * describe. From now on the QP names remote memory by the peer's 32-bit R_Keys as they are
	 * (no MR table); qp_up once the CM connected it (RTS) to the peer's QPN.
	 */
	struct softhw_rnic_qp *(*qp_wire)(struct ibv_qp *qp);
	void (*qp_up)(struct ibv_qp *qp, uint32_t dest_qpn);
	/* rdma_create_qp: the QP is an RDMA-CM id's, which connects it (ibv_modify_qp then only records). */
	void (*qp_cm)(struct ibv_qp *qp);
	/* rdma_create_qp_ex with send_ops_flags: the QP gets the ibv_wr_* interface. 0 or an errno. */
	int (*qp_enable_ex)(struct ibv_qp *qp, uint64_t send_ops_flags);
};

struct soft_ibv_tag {
	uint64_t magic;
	const struct soft_ibv_hooks *hooks;
};

/* What ibv_create_qp takes of ibv_create_qp_ex's / rdma_create_qp_ex's attributes. */
static inline struct ibv_qp_init_attr soft_ibv_init_attr(const struct ibv_qp_init_attr_ex *x)
{
	struct ibv_qp_init_attr a = {
		.qp_context = x->qp_context,
		.send_cq = x->send_cq,
		.recv_cq = x->recv_cq,
		.srq = x->srq,
		.cap = x->cap,
		.qp_type = x->qp_type,
		.sq_sig_all = x->sq_sig_all,
	};

	return a;
}

/* The hooks of a context opened by softdoca's libibverbs, or NULL. */
static inline const struct soft_ibv_hooks *soft_ibv_hooks_of(const struct ibv_context *ctx)
{
	const struct soft_ibv_tag *t = (const void *)(ctx + 1);

	return ctx != NULL && t->magic == SOFT_IBV_MAGIC ? t->hooks : NULL;
}

#endif /* SOFTDOCA_SOFT_IBV_H */
