/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_verbs_bridge.h — DOCA Verbs bridge to rdma-core's ibverbs (pkg-config
 * doca-verbs), from the DOCA interface facts: verbs contexts and PDs from / to ibverbs objects,
 * QP attribute conversion and the ibverbs-style data path (post, poll). The ibverbs types are
 * only named, so the header does not need rdma-core. Stub: see doca_verbs.h. The data-path calls
 * return an errno / negative value, never the 0 that would read as success (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_VERBS_BRIDGE_H
#define SOFTDOCA_DOCA_VERBS_BRIDGE_H

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"
#include "doca_verbs.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ibv_qp_attr;
struct ibv_context;
struct ibv_device;
struct ibv_pd;
struct ibv_recv_wr;
struct ibv_wc;
struct ibv_send_wr;

DOCA_EXPERIMENTAL doca_error_t doca_verbs_bridge_verbs_context_create(struct ibv_device *ibv_dev, uint32_t flags, struct doca_verbs_context **verbs_context);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_bridge_verbs_context_import(struct ibv_context *ibv_ctx, uint32_t flags, struct doca_verbs_context **verbs_context);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_bridge_verbs_query_device(struct ibv_context *ibv_ctx, struct doca_verbs_device_attr **verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_bridge_verbs_pd_import(struct ibv_pd *pd, struct doca_verbs_pd **verbs_pd);
DOCA_EXPERIMENTAL struct ibv_pd *doca_verbs_bridge_verbs_pd_get_ibv_pd(const struct doca_verbs_pd *verbs_pd);
DOCA_EXPERIMENTAL struct ibv_context *doca_verbs_bridge_get_ibv_ctx(struct doca_verbs_context *verbs_context);
/* attribute conversion; attr_mask / ibv_mask are ibverbs' IBV_QP_* bits */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_bridge_qp_attr_set(struct doca_verbs_qp_attr *verbs_qp_attr, const struct ibv_qp_attr *ibv_attr, int attr_mask);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_bridge_qp_attr_get(const struct doca_verbs_qp_attr *verbs_qp_attr, struct ibv_qp_attr *ibv_attr);
DOCA_EXPERIMENTAL int doca_verbs_bridge_get_qp_attr_mask(int ibv_mask);
/* data path: poll returns the number of completions (< 0: error); post returns 0 or an errno */
DOCA_EXPERIMENTAL int doca_verbs_bridge_poll_cq(struct doca_verbs_cq *verbs_cq, int num_entries, struct ibv_wc *ibv_wc);
DOCA_EXPERIMENTAL int doca_verbs_bridge_post_recv(struct doca_verbs_qp *verbs_qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
DOCA_EXPERIMENTAL int doca_verbs_bridge_post_send(struct doca_verbs_qp *verbs_qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_bridge_get_current_cq_ci(struct doca_verbs_cq *verbs_cq);
/* a send WR that waits until cq's producer index passes wait_pi (same UAR for both) */
DOCA_EXPERIMENTAL int doca_verbs_bridge_set_wait_cq_pi_wr(struct doca_verbs_cq *cq, uint32_t wait_pi, struct ibv_send_wr *wr);
DOCA_EXPERIMENTAL int doca_verbs_bridge_post_srq_recv(struct doca_verbs_srq *verbs_srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_VERBS_BRIDGE_H */
