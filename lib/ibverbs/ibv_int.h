/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libibverbs over the soft NIC (private to lib/ibverbs/). Built against rdma-core's own
 * <infiniband/verbs.h>: every object starts with the public structure programs compiled
 * against, and the data path goes through context->ops, which rdma-core's inline
 * ibv_post_send / ibv_post_recv / ibv_poll_cq / ibv_req_notify_cq call.
 *
 * Mapping onto the soft NIC (rnic.h):
 *   QP  - one soft NIC endpoint (its receive queue is the QP's) with one qp on it, connected
 *         with the peer's descriptor (librdmacm carries it, soft_ibv.h).
 *   CQ  - a software ring; polling it drains the endpoints of the QPs that complete into it.
 *   MR  - local access: bookkeeping; remote access: an RDMA export of a doca_mmap; the rkey
 *         is a 32-bit key the peer maps to (pid, export id, token) with the MR table it got
 *         at connection time.
 *   comp channel - a pipe: one byte per CQ event; the endpoint's notify callback writes it.
 *
 * Threads: one library lock (sv.lock) guards objects and polling; the NIC's notify callback
 * (any thread) takes only sv.ev_lock.
 */
#ifndef SOFTDOCA_IBV_INT_H
#define SOFTDOCA_IBV_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "common/priv/soft_verbs.h"
#include "ibverbs/rdma_core_private.h"
#include "ibverbs/soft_ibv.h"
#include "softhw/rnic/rnic.h"

#define SV_MAX_INLINE 256
#define SV_MAX_SGE 16
#define SV_MAX_WR 4096
#define SV_SRQ_CQS 64 /* CQs an SRQ's QPs may complete into */

struct sv_dev {
	struct ibv_device pub;
	struct doca_devinfo *devinfo;
	int index;                     /* its place in ibv_get_device_list (uverbs<index>) */
};

struct sv_ctx {
	/* an extended context, as rdma-core's providers give: its last field is the ibv_context
	 * applications get (vx.context), and the inline ibv_create_qp_ex finds create_qp_ex there */
	struct verbs_context vx;
	struct soft_ibv_tag tag;       /* right after the context: soft_ibv_hooks_of() */
	struct doca_dev *dev;
	const struct softhw_rnic_ops *nic;
	struct sv_dev devcopy;         /* context->device: outlives ibv_free_device_list, as in rdma-core */
};
_Static_assert(offsetof(struct sv_ctx, tag) == offsetof(struct sv_ctx, vx.context) + sizeof(struct ibv_context),
	       "the tag follows the context");

static inline struct sv_ctx *sv_ctx_of(const struct ibv_context *ctx)
{
	return (struct sv_ctx *)(void *)((char *)(uintptr_t)ctx - offsetof(struct sv_ctx, vx.context));
}

struct sv_pd {
	struct ibv_pd pub;
	struct softdoca_verbs_tag tag; /* doca_rdma_bridge_open_dev_from_pd finds the device */
};

struct sv_mr {
	struct ibv_mr pub;
	struct doca_mmap *mmap;        /* remote access: the exported mmap */
	int32_t pid;
	uint64_t id, token;
	int access;
	struct sv_mr *next;
	struct sv_mr *next_key;        /* sv.mr_keys[lkey % SV_MR_BUCKETS] */
};

/* One entry of a peer's MR table (connect info). */
struct sv_peer_mr {
	uint32_t rkey;
	int32_t pid;
	uint64_t id, token, addr, len;
};

struct sv_chan {
	struct ibv_comp_channel pub;   /* pub.fd: an epoll set of the pipe and the QPs' wait descriptors */
	int rfd, wfd;                  /* the event pipe (non-blocking read end) */
	struct sv_cq *evq[64];         /* CQs with an event, in order */
	uint32_t evq_head, evq_n;
	uint32_t unsignaled;           /* of evq_n, queued by ibv_get_cq_event's own serve: no pipe byte */
};

struct sv_cq {
	union {
		struct ibv_cq pub;
		struct ibv_cq_ex pubx;     /* ex (ibv_create_cq_ex): start_poll / read_* (cq_ex.c) */
	};
	struct ibv_wc cur;             /* ex: the completion start_poll / next_poll stand on */
	pthread_mutex_t poll_lock;     /* ex: held from start_poll to end_poll (cur is the holder's) */
	bool poll_lock_used;           /* ex, not IBV_CREATE_CQ_ATTR_SINGLE_THREADED */
	struct ibv_wc *ring;
	uint32_t cap, head, n;
	bool armed;                    /* req_notify_cq: an event on the next completion (ev_lock) */
	struct sv_cq *next;
};

/* A send in flight: what the completion needs. */
struct sv_slot {
	uint64_t wr_id;
	enum ibv_wc_opcode op;
	bool used, signaled;
	/*
	 * Held out of the soft NIC behind a local protection error (sv_qp.loc_err): it completes
	 * once everything posted before it has, with the error (loc_err) or flushed.
	 */
	bool held, loc_err;
	uint32_t order;               /* held: its place among them */
	uint32_t len;
	uint8_t inl[SV_MAX_INLINE];
};

struct sv_srq;

/*
 * Receives whose SGEs failed their lkey check: posted to the soft NIC with no room, so that a
 * message with bytes fails them (too long) without a byte written, and reported as a NIC reports
 * them, IBV_WC_LOC_PROT_ERR (sv_bad_recv_take). A QP's own receives complete in the order they
 * were posted, so for it these are post numbers (exact whatever the wr_ids); an SRQ's complete in
 * the order messages end, so for it they are wr_ids, taken by a completion in error only.
 */
struct sv_bad_recvs {
	uint64_t *ids;
	uint32_t n, cap;
	uint64_t posted, done;         /* a QP's receives posted, and completed (its post numbers) */
};

struct sv_qp {
	union {
		struct ibv_qp pub;
		struct ibv_qp_ex pubx;     /* ex: the ibv_wr_* interface (qp_ex.c) */
	};
	struct sv_srq *srq;            /* its endpoint is the SRQ's (shared) */
	struct softhw_rnic_ep *ep;
	struct softhw_rnic_qp *nqp;
	struct ibv_qp_cap cap;
	bool sq_sig_all;
	bool flushed;                  /* disconnected: its work was flushed */
	bool failed;                   /* the soft NIC failed or disconnected it (a CQE said so): in error */
	bool wire;                     /* connected by the IB CM (RoCEv2): R_Keys go on the wire as they are */
	bool cm;                       /* an RDMA-CM id's (librdmacm connects it) */
	bool by_modify;                /* connected by ibv_modify_qp to RTR (RoCEv2 cards): RTS sends */
	int access;                    /* qp_access_flags */
	struct ibv_qp_attr attr;       /* what modify_qp set (query_qp returns it) */
	struct sv_slot *slots;
	uint32_t nslots;
	/* where the search for a free slot starts: the one after the last taken. Sends complete in
	 * post order, so it is usually free, and a deep send queue is not walked per post. */
	uint32_t slot_next;
	bool loc_err;                  /* a WR's SGE failed its lkey check: what is posted from it on is held */
	bool resetting;                /* moved to RESET: what the soft NIC still reports of it is dropped */
	struct sv_bad_recvs bad_recvs; /* its own receives' (an SRQ's are the SRQ's) */
	uint32_t held_next;            /* the next held slot's order */
	struct sv_peer_mr peer_mrs[SOFT_IBV_PEER_MRS];
	uint32_t npeer_mrs;
	bool ex;                       /* made with send_ops_flags: ibv_qp_to_qp_ex gives pubx */
	struct {                       /* the ibv_wr_* batch between wr_start and wr_complete */
		struct ibv_send_wr *wr;    /* cap, chained */
		struct ibv_sge *sge;       /* SV_MAX_SGE per wr */
		uint8_t *inl;              /* max_inline_data per wr */
		uint32_t cap, n;
		int err;                   /* the first failed call's errno: wr_complete returns it */
	} bx;
	struct sv_qp *next;
};

struct sv_srq {
	struct ibv_srq pub;
	struct softhw_rnic_ep *ep;
	struct ibv_srq_attr attr;
	struct sv_bad_recvs bad_recvs;
	uint32_t nqps;
	struct sv_cq *cqs[SV_SRQ_CQS]; /* CQs of its QPs (ev_lock) */
	uint32_t ncqs;
	struct sv_srq *next;
};

struct sv_lib {
	pthread_mutex_t lock;
	pthread_mutex_t ev_lock;
	struct sv_qp *qps;
	struct sv_cq *cqs;
	struct sv_mr *mrs;
	/* the MRs by lkey: every SGE of every post is looked up (an NVMe-oF target registers one per
	 * command slot: hundreds) */
#define SV_MR_BUCKETS 256
	struct sv_mr *mr_keys[SV_MR_BUCKETS];
	struct sv_srq *srqs;
	uint32_t next_key;
	struct doca_devinfo **devinfos; /* the soft devices (ibv_get_device_list) */
	uint32_t ndevinfos;
};
extern struct sv_lib sv;

extern const struct soft_ibv_hooks sv_hooks;
extern const struct ibv_context_ops sv_ops;

/* cq.c */
int sv_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
int sv_req_notify_cq(struct ibv_cq *cq, int solicited_only);
void sv_cq_push(struct sv_cq *cq, const struct ibv_wc *wc);
/* sv.lock held: the completions of QP qp_num leave cq (a modify to RESET, as rdma-core's mlx5). */
void sv_cq_clean(struct sv_cq *cq, uint32_t qp_num);
void sv_ep_notify(void *arg);
void sv_cq_event(struct sv_cq *cq);
/* ibv_create_qp: the channels of the QP's CQs watch its endpoint's doorbells (sv.lock held). */
void sv_chan_watch(struct sv_qp *q);
/* A QP on an armed CQ did not complete yet: its owner will sleep on the channel (sv.lock held). */
void sv_qp_sleep(struct sv_qp *q);
/* qp.c */
int sv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
int sv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);
void sv_qp_drain(struct sv_qp *qp);
bool sv_qp_flush(struct sv_qp *q);
/* qp_ex.c */
/* The QP gets the ibv_wr_* interface for these operations (IBV_QP_EX_WITH_*); 0 or an errno. */
int sv_qp_enable_ex(struct ibv_qp *qp, uint64_t send_ops_flags);
struct ibv_qp *sv_create_qp_ex(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *a);
struct sv_cq *sv_cq_new(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel);
struct ibv_cq_ex *sv_create_cq_ex(struct ibv_context *ctx, struct ibv_cq_init_attr_ex *a);
void sv_qp_free_ex(struct sv_qp *q);
/* srq.c */
int sv_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);
void sv_qp_notify(struct sv_qp *q);
int sv_srq_add_cq(struct sv_srq *s, struct sv_cq *cq);
void sv_srq_forget_cq(struct sv_cq *cq);
/* mr.c */
struct sv_mr *sv_mr_find(uint32_t key);
/* sv.lock held: the receive's SGEs, checked against their lkeys (logged if not: false). */
bool sv_recv_sges_ok(const struct ibv_pd *pd, const struct ibv_recv_wr *wr, uint32_t qp_num);
void sv_bad_recv_add(struct sv_bad_recvs *b, uint64_t wr_id);
bool sv_bad_recv_take(struct sv_bad_recvs *b, uint64_t wr_id);
uint32_t sv_mr_table(struct ibv_pd *pd, struct sv_peer_mr *out, uint32_t max);
/* device.c */
struct doca_dev *sv_dev_of(struct ibv_context *ctx);
/* The context's card speaks RoCEv2 (wire = rocev2): MRs' rkeys are the wire R_Keys. */
bool sv_ctx_wire(struct ibv_context *ctx);

#endif /* SOFTDOCA_IBV_INT_H */
