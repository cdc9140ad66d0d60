/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The extended QP interface (ibv_qp_to_qp_ex, ibv_wr_*): a QP made with send_ops_flags
 * (rdma_create_qp_ex) builds its work requests between wr_start and wr_complete into a batch of
 * ordinary ibv_send_wr, which wr_complete posts at once through the QP's post_send, so both
 * interfaces share one send path. Inline data is copied when it is set, as a provider copies it
 * into its WQE; a call the soft NIC cannot do fails the batch, and wr_complete returns it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibv_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(IBV_QP_EX);

/* The operations this QP can batch: what post_send carries. */
#define SV_SEND_OPS                                                                                      \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_SEND |            \
	 IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |     \
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_SEND_WITH_INV)

static struct sv_qp *qp_of(struct ibv_qp_ex *qx)
{
	return (struct sv_qp *)qx;
}

static void batch_fail(struct sv_qp *q, int err, const char *what)
{
	if (q->bx.err == 0)
		SDK_LOG_ERR("%s: %s (the batch fails at wr_complete)", what, strerror(err));
	q->bx.err = q->bx.err != 0 ? q->bx.err : err;
}

/* A new work request of the batch, with the QP's wr_id and wr_flags; NULL if the batch is full. */
static struct ibv_send_wr *next_wr(struct ibv_qp_ex *qx, enum ibv_wr_opcode op)
{
	struct sv_qp *q = qp_of(qx);
	struct ibv_send_wr *w;

	if (q->bx.n == q->bx.cap) {
		batch_fail(q, ENOMEM, "ibv_wr_*: more work requests than max_send_wr in one batch");
		return NULL;
	}
	w = &q->bx.wr[q->bx.n];
	memset(w, 0, sizeof(*w));
	w->wr_id = qx->wr_id;
	w->send_flags = qx->wr_flags;
	w->opcode = op;
	w->sg_list = &q->bx.sge[(size_t)q->bx.n * SV_MAX_SGE];
	if (q->bx.n > 0)
		q->bx.wr[q->bx.n - 1].next = w;
	q->bx.n++;
	return w;
}

/* The last work request, which wr_set_* describe. */
static struct ibv_send_wr *last_wr(struct sv_qp *q, const char *what)
{
	if (q->bx.n == 0) {
		batch_fail(q, EINVAL, what);
		return NULL;
	}
	return &q->bx.wr[q->bx.n - 1];
}

static void wr_send(struct ibv_qp_ex *qx)
{
	(void)next_wr(qx, IBV_WR_SEND);
}

static void wr_send_imm(struct ibv_qp_ex *qx, __be32 imm)
{
	struct ibv_send_wr *w = next_wr(qx, IBV_WR_SEND_WITH_IMM);

	if (w != NULL)
		w->imm_data = imm;
}

static void wr_send_inv(struct ibv_qp_ex *qx, uint32_t rkey)
{
	struct ibv_send_wr *w = next_wr(qx, IBV_WR_SEND_WITH_INV);

	if (w != NULL)
		w->invalidate_rkey = rkey;
}

static void rdma(struct ibv_qp_ex *qx, enum ibv_wr_opcode op, uint32_t rkey, uint64_t addr, __be32 imm)
{
	struct ibv_send_wr *w = next_wr(qx, op);

	if (w != NULL) {
		w->wr.rdma.rkey = rkey;
		w->wr.rdma.remote_addr = addr;
		w->imm_data = imm;
	}
}

static void wr_rdma_write(struct ibv_qp_ex *qx, uint32_t rkey, uint64_t addr)
{
	rdma(qx, IBV_WR_RDMA_WRITE, rkey, addr, 0);
}

static void wr_rdma_write_imm(struct ibv_qp_ex *qx, uint32_t rkey, uint64_t addr, __be32 imm)
{
	rdma(qx, IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr, imm);
}

static void wr_rdma_read(struct ibv_qp_ex *qx, uint32_t rkey, uint64_t addr)
{
	rdma(qx, IBV_WR_RDMA_READ, rkey, addr, 0);
}

static void atomic(struct ibv_qp_ex *qx, enum ibv_wr_opcode op, uint32_t rkey, uint64_t addr, uint64_t cmp_add,
		   uint64_t swap)
{
	struct ibv_send_wr *w = next_wr(qx, op);

	if (w != NULL) {
		w->wr.atomic.rkey = rkey;
		w->wr.atomic.remote_addr = addr;
		w->wr.atomic.compare_add = cmp_add;
		w->wr.atomic.swap = swap;
	}
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *qx, uint32_t rkey, uint64_t addr, uint64_t compare, uint64_t swap)
{
	atomic(qx, IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr, compare, swap);
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *qx, uint32_t rkey, uint64_t addr, uint64_t add)
{
	atomic(qx, IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
}

static void wr_set_sge_list(struct ibv_qp_ex *qx, size_t n, const struct ibv_sge *sges)
{
	struct sv_qp *q = qp_of(qx);
	struct ibv_send_wr *w = last_wr(q, "ibv_wr_set_sge: no work request to describe (call ibv_wr_<op> first)");

	if (w == NULL)
		return;
	if (n > (q->cap.max_send_sge > 0 ? q->cap.max_send_sge : 1) || n > SV_MAX_SGE) {
		batch_fail(q, EINVAL, "ibv_wr_set_sge_list: more entries than the QP's max_send_sge");
		return;
	}
	memcpy(w->sg_list, sges, n * sizeof(*sges));
	w->num_sge = (int)n;
}

static void wr_set_sge(struct ibv_qp_ex *qx, uint32_t lkey, uint64_t addr, uint32_t length)
{
	struct ibv_sge sge = {.addr = addr, .length = length, .lkey = lkey};

	wr_set_sge_list(qx, 1, &sge);
}

/* Inline data lives in the batch (copied now): the caller may reuse its buffers at once. */
static void wr_set_inline_data_list(struct ibv_qp_ex *qx, size_t n, const struct ibv_data_buf *bufs)
{
	struct sv_qp *q = qp_of(qx);
	struct ibv_send_wr *w = last_wr(q, "ibv_wr_set_inline_data: no work request to describe (call ibv_wr_<op> first)");
	uint8_t *dst;
	size_t len = 0;

	if (w == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		len += bufs[i].length;
	if (len > q->cap.max_inline_data) {
		batch_fail(q, EINVAL, "ibv_wr_set_inline_data: more bytes than the QP's max_inline_data");
		return;
	}
	dst = &q->bx.inl[(size_t)(w - q->bx.wr) * q->cap.max_inline_data];
	for (size_t i = 0, off = 0; i < n; off += bufs[i].length, i++)
		memcpy(dst + off, bufs[i].addr, bufs[i].length);
	w->sg_list[0] = (struct ibv_sge){.addr = (uintptr_t)dst, .length = (uint32_t)len};
	w->num_sge = 1;
	w->send_flags |= IBV_SEND_INLINE;
}

static void wr_set_inline_data(struct ibv_qp_ex *qx, void *addr, size_t length)
{
	struct ibv_data_buf b = {.addr = addr, .length = length};

	wr_set_inline_data_list(qx, 1, &b);
}

static void wr_start(struct ibv_qp_ex *qx)
{
	struct sv_qp *q = qp_of(qx);

	q->bx.n = 0;
	q->bx.err = 0;
}

static int wr_complete(struct ibv_qp_ex *qx)
{
	struct sv_qp *q = qp_of(qx);
	struct ibv_send_wr *bad = NULL;
	int err = q->bx.err;

	if (err == 0 && q->bx.n > 0)
		err = sv_post_send(&q->pub, q->bx.wr, &bad);
	q->bx.n = 0;
	q->bx.err = 0;
	return err;
}

static void wr_abort(struct ibv_qp_ex *qx)
{
	struct sv_qp *q = qp_of(qx);

	q->bx.n = 0;
	q->bx.err = 0;
}

int sv_qp_enable_ex(struct ibv_qp *qp, uint64_t send_ops_flags)
{
	struct sv_qp *q = (struct sv_qp *)qp;
	struct ibv_qp_ex *qx = &q->pubx;

	if (send_ops_flags & ~(uint64_t)SV_SEND_OPS) {
		SDK_LOG_ERR("create QP: send_ops_flags 0x%llx asks for operations the soft NIC has not (0x%llx): "
			    "bind MW, local invalidate, TSO, atomic write",
			    (unsigned long long)send_ops_flags, (unsigned long long)(send_ops_flags & ~(uint64_t)SV_SEND_OPS));
		return EOPNOTSUPP;
	}
	q->bx.cap = q->cap.max_send_wr;
	q->bx.wr = calloc(q->bx.cap, sizeof(*q->bx.wr));
	q->bx.sge = calloc((size_t)q->bx.cap * SV_MAX_SGE, sizeof(*q->bx.sge));
	q->bx.inl = calloc((size_t)q->bx.cap * (q->cap.max_inline_data > 0 ? q->cap.max_inline_data : 1), 1);
	if (q->bx.wr == NULL || q->bx.sge == NULL || q->bx.inl == NULL) {
		sv_qp_free_ex(q);
		return ENOMEM;
	}
	qx->comp_mask = 0;
	qx->wr_send = wr_send;
	qx->wr_send_imm = wr_send_imm;
	qx->wr_send_inv = wr_send_inv;
	qx->wr_rdma_write = wr_rdma_write;
	qx->wr_rdma_write_imm = wr_rdma_write_imm;
	qx->wr_rdma_read = wr_rdma_read;
	qx->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
	qx->wr_atomic_fetch_add = wr_atomic_fetch_add;
	qx->wr_set_sge = wr_set_sge;
	qx->wr_set_sge_list = wr_set_sge_list;
	qx->wr_set_inline_data = wr_set_inline_data;
	qx->wr_set_inline_data_list = wr_set_inline_data_list;
	qx->wr_start = wr_start;
	qx->wr_complete = wr_complete;
	qx->wr_abort = wr_abort;
	q->ex = true;
	return 0;
}

void sv_qp_free_ex(struct sv_qp *q)
{
	free(q->bx.wr);
	free(q->bx.sge);
	free(q->bx.inl);
	memset(&q->bx, 0, sizeof(q->bx));
	q->ex = false;
}

struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
{
	struct sv_qp *q = (struct sv_qp *)qp;

	if (q == NULL || !q->ex) { /* as rdma-core: NULL for a QP made without send_ops_flags */
		errno = EOPNOTSUPP;
		return NULL;
	}
	return &q->pubx;
}

/*
 * ibv_create_qp_ex through the extended context (verbs.h's inline calls it for any comp_mask
 * other than the PD alone): an RC QP of ibv_create_qp, with the ibv_wr_* interface when
 * send_ops_flags are given. Other extensions (XRC, RSS, TSO, creation flags...) are refused.
 */
struct ibv_qp *sv_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a)
{
	const uint32_t known = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	struct ibv_qp_init_attr init;
	struct ibv_qp *qp;
	int err;

	if (a == NULL || !(a->comp_mask & IBV_QP_INIT_ATTR_PD) || a->pd == NULL || a->pd->context != ctx) {
		SDK_LOG_ERR("ibv_create_qp_ex: give a PD of this context (IBV_QP_INIT_ATTR_PD in comp_mask)");
		errno = EINVAL;
		return NULL;
	}
	if (a->comp_mask & ~known) {
		SDK_LOG_ERR("ibv_create_qp_ex: only the PD and send_ops_flags may be given in comp_mask (0x%x)", a->comp_mask);
		errno = EOPNOTSUPP;
		return NULL;
	}
	init = soft_ibv_init_attr(a);
	qp = ibv_create_qp(a->pd, &init);
	if (qp == NULL)
		return NULL;
	if (a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		err = sv_qp_enable_ex(qp, a->send_ops_flags);
		if (err != 0) {
			(void)ibv_destroy_qp(qp);
			errno = err;
			return NULL;
		}
	}
	a->cap = init.cap;
	return qp;
}
