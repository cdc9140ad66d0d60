/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The extended CQ interface (ibv_create_cq_ex, ibv_start_poll / ibv_next_poll / ibv_end_poll,
 * ibv_wc_read_*): the same CQ as ibv_create_cq's, read one completion at a time. start_poll and
 * next_poll take the next completion as ibv_poll_cq does and keep it in cq->cur, which the
 * read_* calls return field by field. As rdma-core's providers, the CQ's poll lock is held from a
 * start_poll that found a completion to its end_poll (a start_poll that finds none, ENOENT,
 * releases it: no end_poll follows), so two threads never read each other's cur; a CQ made
 * with IBV_CREATE_CQ_ATTR_SINGLE_THREADED has no lock. The fields offered are
 * rdma_rxe's: no completion timestamps (the soft NIC has no clock to stamp them with), no
 * VLAN, flow tag or tag matching, so a CQ asking for them is refused as on rxe.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ibv_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(IBV_CQ_EX);

#define SV_WC_FLAGS                                                                                        \
	(IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP |      \
	 IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL | IBV_WC_EX_WITH_DLID_PATH_BITS)

static struct sv_cq *cq_of(struct ibv_cq_ex *cx)
{
	return (struct sv_cq *)cx;
}

/* Takes the next completion into cur: 0, or ENOENT when there is none. */
static int take(struct ibv_cq_ex *cx)
{
	struct sv_cq *c = cq_of(cx);

	if (sv_poll_cq(&c->pub, 1, &c->cur) != 1)
		return ENOENT;
	cx->status = c->cur.status;
	cx->wr_id = c->cur.wr_id;
	return 0;
}

static int start_poll(struct ibv_cq_ex *cx, struct ibv_poll_cq_attr *attr)
{
	struct sv_cq *c = cq_of(cx);
	int err;

	if (attr == NULL || attr->comp_mask != 0) {
		SDK_LOG_ERR("ibv_start_poll: comp_mask 0x%x: no poll attribute is known (pass 0)",
			    attr == NULL ? 0u : attr->comp_mask);
		return EINVAL;
	}
	if (c->poll_lock_used)
		pthread_mutex_lock(&c->poll_lock);
	err = take(cx);
	if (err != 0 && c->poll_lock_used)
		pthread_mutex_unlock(&c->poll_lock);
	return err;
}

static int next_poll(struct ibv_cq_ex *cx)
{
	return take(cx);
}

static void end_poll(struct ibv_cq_ex *cx)
{
	struct sv_cq *c = cq_of(cx);

	if (c->poll_lock_used)
		pthread_mutex_unlock(&c->poll_lock);
}

static enum ibv_wc_opcode read_opcode(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.opcode;
}

static uint32_t read_vendor_err(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.vendor_err;
}

static uint32_t read_byte_len(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.byte_len;
}

/* the immediate, or the invalidated rkey (ibv_wc_read_invalidated_rkey reads it here too) */
static __be32 read_imm_data(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.imm_data;
}

static uint32_t read_qp_num(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.qp_num;
}

static uint32_t read_src_qp(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.src_qp;
}

static unsigned int read_wc_flags(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.wc_flags;
}

static uint32_t read_slid(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.slid;
}

static uint8_t read_sl(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.sl;
}

static uint8_t read_dlid_path_bits(struct ibv_cq_ex *cx)
{
	return cq_of(cx)->cur.dlid_path_bits;
}

struct ibv_cq_ex *sv_create_cq_ex(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a)
{
	struct sv_cq *c;
	struct ibv_cq_ex *cx;

	if (a->wc_flags & ~(uint64_t)SV_WC_FLAGS) {
		SDK_LOG_ERR("ibv_create_cq_ex: wc_flags 0x%llx asks for fields the soft NIC does not report "
			    "(completion timestamps, VLAN, flow tag, tag matching; as rdma_rxe); it offers 0x%x",
			    (unsigned long long)a->wc_flags, (unsigned)SV_WC_FLAGS);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (a->comp_mask & ~(uint32_t)IBV_CQ_INIT_ATTR_MASK_FLAGS) {
		SDK_LOG_ERR("ibv_create_cq_ex: comp_mask 0x%x: only IBV_CQ_INIT_ATTR_MASK_FLAGS is supported "
			    "(no parent domain)", a->comp_mask);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if ((a->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) &&
	    (a->flags & ~(uint32_t)(IBV_CREATE_CQ_ATTR_SINGLE_THREADED | IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN))) {
		SDK_LOG_ERR("ibv_create_cq_ex: flags 0x%x: unknown flag", a->flags);
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (a->cqe < 1 || a->cqe > 4194303) {
		SDK_LOG_ERR("ibv_create_cq_ex: cqe %u: 1 to 4194303 entries", a->cqe);
		errno = EINVAL;
		return NULL;
	}
	c = sv_cq_new(ctx, (int)a->cqe, a->cq_context, a->channel);
	if (c == NULL)
		return NULL;
	c->poll_lock_used = !((a->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) && (a->flags & IBV_CREATE_CQ_ATTR_SINGLE_THREADED));
	cx = &c->pubx;
	cx->comp_mask = 0;
	cx->start_poll = start_poll;
	cx->next_poll = next_poll;
	cx->end_poll = end_poll;
	cx->read_opcode = read_opcode;
	cx->read_vendor_err = read_vendor_err;
	cx->read_byte_len = read_byte_len;
	cx->read_imm_data = read_imm_data;
	cx->read_qp_num = read_qp_num;
	cx->read_src_qp = read_src_qp;
	cx->read_wc_flags = read_wc_flags;
	cx->read_slid = read_slid;
	cx->read_sl = read_sl;
	cx->read_dlid_path_bits = read_dlid_path_bits;
	return cx;
}
