/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_verbs.h — DOCA Verbs (pkg-config doca-verbs, DOCA 3.x), declarations from the
 * DOCA 3.3 interface facts: RC/UC queue pairs, completion queues and channels, shared receive
 * queues, Ethernet send / receive queues, congestion-control groups, device attributes. DOCA
 * Verbs builds those objects directly on the NIC (its own work queues, doorbells, optionally
 * driven from the DPA or a GPU); the soft card's RDMA is DOCA RDMA's, not a verbs device, so the
 * library is a stub: every call returns DOCA_ERROR_NOT_SUPPORTED, NULL / 0 or nothing
 * (docs/compatibility.md). The DPA-side calls (doca_dpa_dev_verbs.h) are not shipped.
 */
#ifndef SOFTDOCA_DOCA_VERBS_H
#define SOFTDOCA_DOCA_VERBS_H

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_devinfo;
struct doca_dev;
struct doca_dev_rep;
struct doca_umem;
struct doca_uar;
struct doca_dpa;
struct doca_dpa_completion;

struct doca_verbs_context;
struct doca_verbs_device_attr;
struct doca_verbs_pd;
struct doca_verbs_qp_init_attr;
struct doca_verbs_qp_attr;
struct doca_verbs_cq_attr;
struct doca_verbs_srq_init_attr;
struct doca_verbs_eth_sq_init_attr;
struct doca_verbs_eth_rq_init_attr;
struct doca_verbs_ah_attr;
struct doca_verbs_comp_channel;
struct doca_verbs_cq;
struct doca_verbs_qp;
struct doca_verbs_srq;
struct doca_verbs_eth_sq;
struct doca_verbs_eth_rq;
struct doca_verbs_cc_group;
struct doca_verbs_cc_group_attr;
struct doca_verbs_cc_group_caps;

/* handles of verbs objects for DPA kernels */
typedef uint64_t doca_dpa_dev_verbs_srq_t;
typedef uint64_t doca_dpa_dev_verbs_qp_t;
typedef uint64_t doca_dpa_dev_verbs_eth_sq_t;
typedef uint64_t doca_dpa_dev_verbs_eth_rq_t;

/* asynchronous event types (struct doca_verbs_async_event.event_type) */
#define DOCA_VERBS_EVENT_QP_FATAL 0x0
#define DOCA_VERBS_EVENT_QP_REQ_ERR 0x1
#define DOCA_VERBS_EVENT_QP_ACCESS_ERR 0x2
#define DOCA_VERBS_EVENT_CQ_ERR 0x3

/* QP types */
#define DOCA_VERBS_QP_TYPE_RC 0x0
#define DOCA_VERBS_QP_TYPE_UC 0x1

/* timestamp sources of Ethernet queues */
#define DOCA_VERBS_TS_SOURCE_DEFAULT 0x0
#define DOCA_VERBS_TS_SOURCE_FREE_RUNNING 0x1
#define DOCA_VERBS_TS_SOURCE_REAL_TIME 0x2

enum doca_verbs_qp_state {
	DOCA_VERBS_QP_STATE_RST = 0x0,
	DOCA_VERBS_QP_STATE_INIT = 0x1,
	DOCA_VERBS_QP_STATE_RTR = 0x2,
	DOCA_VERBS_QP_STATE_RTS = 0x3,
	DOCA_VERBS_QP_STATE_ERR = 0x4,
};

enum doca_verbs_addr_type {
	DOCA_VERBS_ADDR_TYPE_IPv4,
	DOCA_VERBS_ADDR_TYPE_IPv6,
	DOCA_VERBS_ADDR_TYPE_IB_GRH,
	DOCA_VERBS_ADDR_TYPE_IB_NO_GRH,
};

enum doca_verbs_srq_type {
	DOCA_VERBS_SRQ_TYPE_LINKED_LIST,
	DOCA_VERBS_SRQ_TYPE_CONTIGUOUS,
};

enum doca_verbs_qp_atomic_mode {
	DOCA_VERBS_QP_ATOMIC_MODE_NONE = 0x0,
	DOCA_VERBS_QP_ATOMIC_MODE_IB_SPEC = 0x1,
	DOCA_VERBS_QP_ATOMIC_MODE_ONLY_8BYTES = 0x2,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_8BYTES = 0x3,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_16BYTES = 0x4,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_32BYTES = 0x5,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_64BYTES = 0x6,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_128BYTES = 0x7,
	DOCA_VERBS_QP_ATOMIC_MODE_UP_TO_256BYTES = 0x8,
};

/* receive data of small messages scattered into the CQE */
enum doca_verbs_qp_scatter_to_cqe {
	DOCA_VERBS_QP_SCATTER_TO_CQE_NONE = 0x0,
	DOCA_VERBS_QP_SCATTER_TO_CQE_32B = 0x1,
};

/* who updates the doorbell record and rings the doorbell of a send queue */
enum doca_verbs_qp_send_dbr_mode {
	DOCA_VERBS_QP_SEND_DBR_MODE_DBR_VALID = 0x0,
	DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_EXT = 0x1,
	DOCA_VERBS_QP_SEND_DBR_MODE_NO_DBR_INT = 0x2,
};

/* doca_verbs_qp_modify attribute mask bits */
#define DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_WRITE (1 << 0)
#define DOCA_VERBS_QP_ATTR_ALLOW_REMOTE_READ (1 << 1)
#define DOCA_VERBS_QP_ATTR_PKEY_INDEX (1 << 2)
#define DOCA_VERBS_QP_ATTR_MIN_RNR_TIMER (1 << 3)
#define DOCA_VERBS_QP_ATTR_PORT_NUM (1 << 4)
#define DOCA_VERBS_QP_ATTR_NEXT_STATE (1 << 5)
#define DOCA_VERBS_QP_ATTR_CURRENT_STATE (1 << 6)
#define DOCA_VERBS_QP_ATTR_PATH_MTU (1 << 7)
#define DOCA_VERBS_QP_ATTR_RQ_PSN (1 << 8)
#define DOCA_VERBS_QP_ATTR_SQ_PSN (1 << 9)
#define DOCA_VERBS_QP_ATTR_DEST_QP_NUM (1 << 10)
#define DOCA_VERBS_QP_ATTR_ACK_TIMEOUT (1 << 11)
#define DOCA_VERBS_QP_ATTR_RETRY_CNT (1 << 12)
#define DOCA_VERBS_QP_ATTR_RNR_RETRY (1 << 13)
#define DOCA_VERBS_QP_ATTR_AH_ATTR (1 << 14)
#define DOCA_VERBS_QP_ATTR_ATOMIC_MODE (1 << 15)
#define DOCA_VERBS_QP_ATTR_MAX_QP_RD_ATOMIC (1 << 16)
#define DOCA_VERBS_QP_ATTR_MAX_DEST_RD_ATOMIC (1 << 17)
#define DOCA_VERBS_QP_ATTR_CC_GROUP (1 << 18)

enum doca_verbs_atomic_cap {
	DOCA_VERBS_ATOMIC_CAP_NONE = 0x0,
	DOCA_VERBS_ATOMIC_CAP_HCA = 0x1,
	DOCA_VERBS_ATOMIC_CAP_GLOB = 0x2,
};

struct doca_verbs_async_event {
	union {
		struct doca_verbs_qp *qp;
		struct doca_verbs_cq *cq;
		void *reserved;
	} element;
	int event_type;
};

struct doca_verbs_gid {
	uint8_t raw[DOCA_GID_BYTE_LENGTH];
};

enum doca_verbs_eth_sq_state {
	DOCA_VERBS_ETH_SQ_STATE_RST = 0x0,
	DOCA_VERBS_ETH_SQ_STATE_RDY = 0x1,
	DOCA_VERBS_ETH_SQ_STATE_ERR = 0x2,
};

enum doca_verbs_eth_rq_state {
	DOCA_VERBS_ETH_RQ_STATE_RST = 0x0,
	DOCA_VERBS_ETH_RQ_STATE_RDY = 0x1,
	DOCA_VERBS_ETH_RQ_STATE_ERR = 0x2,
};

#define DOCA_VERBS_CONTEXT_CREATE_FLAGS_NONE 0

/* context and protection domain; a PD can be used as a doca_dev (doca_verbs_pd_as_doca_dev) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_context_create(struct doca_devinfo *devinfo, uint32_t flags, struct doca_verbs_context **verbs_context);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_context_destroy(struct doca_verbs_context *verbs_context);
DOCA_EXPERIMENTAL int doca_verbs_context_export_handle(const struct doca_verbs_context *verbs_context);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_context_import_from_handle(int handle, uint32_t flags, struct doca_verbs_context **verbs_context);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_pd_create(struct doca_verbs_context *verbs_context, struct doca_verbs_pd **verbs_pd);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_pd_destroy(struct doca_verbs_pd *verbs_pd);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_pd_as_doca_dev(struct doca_verbs_pd *verbs_pd, struct doca_dev **dev);
DOCA_EXPERIMENTAL int doca_verbs_pd_export_handle(const struct doca_verbs_pd *verbs_pd);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_pd_import_from_handle(struct doca_verbs_context *verbs_context, int handle, struct doca_verbs_pd **verbs_pd);
/* QP init attributes */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_create(struct doca_verbs_qp_init_attr **verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_destroy(struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_pd(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_pd *pd);
DOCA_EXPERIMENTAL struct doca_verbs_pd *doca_verbs_qp_init_attr_get_pd(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_send_cq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_cq *send_cq);
DOCA_EXPERIMENTAL struct doca_verbs_cq *doca_verbs_qp_init_attr_get_send_cq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_receive_cq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_cq *receive_cq);
DOCA_EXPERIMENTAL struct doca_verbs_cq *doca_verbs_qp_init_attr_get_receive_cq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_sq_sig_all(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, int sq_sig_all);
DOCA_EXPERIMENTAL int doca_verbs_qp_init_attr_get_sq_sig_all(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_sq_wr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t sq_wr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_sq_wr(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_rq_wr(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t rq_wr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_rq_wr(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_send_max_sges(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t send_max_sges);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_send_max_sges(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_receive_max_sges(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t receive_max_sges);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_receive_max_sges(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_max_inline_data(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t max_inline_data);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_max_inline_data(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_user_index(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t user_index);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_user_index(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/* qp_type: DOCA_VERBS_QP_TYPE_* */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_qp_type(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t qp_type);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_qp_type(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/* caller-provided work queue memory, doorbell record memory and UAR (default: created internally) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_external_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_umem *external_umem, uint64_t external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_get_external_umem(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_umem **external_umem, uint64_t *external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_external_dbr_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_umem *external_dbr_umem, uint64_t external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_get_external_dbr_umem(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_umem **external_dbr_umem, uint64_t *external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_external_uar(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_uar *external_uar);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_get_external_uar(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_uar **external_uar);
/* needs the external datapath */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_core_direct_master(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint8_t core_direct_master);
DOCA_EXPERIMENTAL uint8_t doca_verbs_qp_init_attr_get_core_direct_master(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_qp_context(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, void *qp_context);
DOCA_EXPERIMENTAL void *doca_verbs_qp_init_attr_get_qp_context(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_srq(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_srq *srq);
DOCA_EXPERIMENTAL struct doca_verbs_srq *doca_verbs_qp_init_attr_get_srq(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/* a QP whose data path runs on the DPA (with the external datapath and doca_verbs_qp_get_dpa_handle) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_dpa(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_dpa *dpa_ctx);
DOCA_EXPERIMENTAL struct doca_dpa *doca_verbs_qp_init_attr_get_dpa(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_send_dpa_completion(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_dpa_completion *send_dpa_completion);
DOCA_EXPERIMENTAL struct doca_dpa_completion *doca_verbs_qp_init_attr_get_send_dpa_completion(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_receive_dpa_completion(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_dpa_completion *receive_dpa_completion);
DOCA_EXPERIMENTAL struct doca_dpa_completion *doca_verbs_qp_init_attr_get_receive_dpa_completion(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/* set: the program drives the work queues itself (no bridge data path calls) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_external_datapath_en(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint8_t external_datapath_en);
DOCA_EXPERIMENTAL uint8_t doca_verbs_qp_init_attr_get_external_datapath_en(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_dbr_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t dbr_umem_id, uint64_t dbr_umem_offset);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_dbr_umem_id(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL uint64_t doca_verbs_qp_init_attr_get_dbr_umem_offset(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_wq_umem(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t wq_umem_id, uint64_t wq_umem_offset);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_wq_umem_id(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL uint64_t doca_verbs_qp_init_attr_get_wq_umem_offset(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_uar_id(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t uar_id);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_uar_id(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_pdn(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, uint32_t pdn);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_pdn(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_cqe_inline(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, enum doca_verbs_qp_scatter_to_cqe cqe_inline);
DOCA_EXPERIMENTAL uint8_t doca_verbs_qp_init_attr_get_cqe_inline(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_init_attr_set_send_dbr_mode(struct doca_verbs_qp_init_attr *verbs_qp_init_attr, enum doca_verbs_qp_send_dbr_mode send_dbr_mode);
DOCA_EXPERIMENTAL enum doca_verbs_qp_send_dbr_mode doca_verbs_qp_init_attr_get_send_dbr_mode(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_send_cqn(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_init_attr_get_receive_cqn(const struct doca_verbs_qp_init_attr *verbs_qp_init_attr);
/* QP attributes (doca_verbs_qp_modify; the mask says which are given, DOCA_VERBS_QP_ATTR_*) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_create(struct doca_verbs_qp_attr **verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_destroy(struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_next_state(struct doca_verbs_qp_attr *verbs_qp_attr, enum doca_verbs_qp_state next_state);
DOCA_EXPERIMENTAL enum doca_verbs_qp_state doca_verbs_qp_attr_get_next_state(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_current_state(struct doca_verbs_qp_attr *verbs_qp_attr, enum doca_verbs_qp_state current_state);
DOCA_EXPERIMENTAL enum doca_verbs_qp_state doca_verbs_qp_attr_get_current_state(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_path_mtu(struct doca_verbs_qp_attr *verbs_qp_attr, enum doca_mtu_size path_mtu);
DOCA_EXPERIMENTAL enum doca_mtu_size doca_verbs_qp_attr_get_path_mtu(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_rq_psn(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t rq_psn);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_attr_get_rq_psn(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_sq_psn(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t sq_psn);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_attr_get_sq_psn(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_dest_qp_num(struct doca_verbs_qp_attr *verbs_qp_attr, uint32_t dest_qp_num);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_attr_get_dest_qp_num(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_allow_remote_write(struct doca_verbs_qp_attr *verbs_qp_attr, int allow_remote_write);
DOCA_EXPERIMENTAL int doca_verbs_qp_attr_get_allow_remote_write(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_allow_remote_read(struct doca_verbs_qp_attr *verbs_qp_attr, int allow_remote_read);
DOCA_EXPERIMENTAL int doca_verbs_qp_attr_get_allow_remote_read(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_atomic_mode(struct doca_verbs_qp_attr *verbs_qp_attr, enum doca_verbs_qp_atomic_mode atomic_mode);
DOCA_EXPERIMENTAL enum doca_verbs_qp_atomic_mode doca_verbs_qp_attr_get_atomic_mode(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_max_rd_atomic(struct doca_verbs_qp_attr *verbs_qp_attr, uint8_t max_rd_atomic);
DOCA_EXPERIMENTAL uint8_t doca_verbs_qp_attr_get_max_rd_atomic(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_max_dest_rd_atomic(struct doca_verbs_qp_attr *verbs_qp_attr, uint8_t max_dest_rd_atomic);
DOCA_EXPERIMENTAL uint8_t doca_verbs_qp_attr_get_max_dest_rd_atomic(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_ah_attr(struct doca_verbs_qp_attr *verbs_qp_attr, struct doca_verbs_ah_attr *ah_attr);
DOCA_EXPERIMENTAL struct doca_verbs_ah_attr *doca_verbs_qp_attr_get_ah_attr(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_pkey_index(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t pkey_index);
DOCA_EXPERIMENTAL uint16_t doca_verbs_qp_attr_get_pkey_index(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_port_num(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t port_num);
DOCA_EXPERIMENTAL uint16_t doca_verbs_qp_attr_get_port_num(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_ack_timeout(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t ack_timeout);
DOCA_EXPERIMENTAL uint16_t doca_verbs_qp_attr_get_ack_timeout(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_retry_cnt(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t retry_cnt);
DOCA_EXPERIMENTAL uint16_t doca_verbs_qp_attr_get_retry_cnt(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_rnr_retry(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t rnr_retry);
DOCA_EXPERIMENTAL uint16_t doca_verbs_qp_attr_get_rnr_retry(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_min_rnr_timer(struct doca_verbs_qp_attr *verbs_qp_attr, uint16_t min_rnr_timer);
DOCA_EXPERIMENTAL uint16_t doca_verbs_qp_attr_get_min_rnr_timer(const struct doca_verbs_qp_attr *verbs_qp_attr);
/* CQ attributes */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_create(struct doca_verbs_cq_attr **verbs_cq_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_destroy(struct doca_verbs_cq_attr *verbs_cq_attr);
/* bytes per completion queue entry */
enum doca_verbs_cq_entry_size {
	DOCA_VERBS_CQ_ENTRY_SIZE_64 = 0,
	DOCA_VERBS_CQ_ENTRY_SIZE_128 = 1,
};
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_entry_size(struct doca_verbs_cq_attr *cq_attr, enum doca_verbs_cq_entry_size entry_size);
DOCA_EXPERIMENTAL enum doca_verbs_cq_entry_size doca_verbs_cq_attr_get_entry_size(const struct doca_verbs_cq_attr *cq_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_cq_size(struct doca_verbs_cq_attr *cq_attr, uint32_t cq_size);
DOCA_EXPERIMENTAL uint32_t doca_verbs_cq_attr_get_cq_size(const struct doca_verbs_cq_attr *cq_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_cq_overrun(struct doca_verbs_cq_attr *cq_attr, uint8_t overrun);
DOCA_EXPERIMENTAL uint8_t doca_verbs_cq_attr_get_cq_overrun(const struct doca_verbs_cq_attr *cq_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_comp_channel(struct doca_verbs_cq_attr *cq_attr, struct doca_verbs_comp_channel *comp_channel);
DOCA_EXPERIMENTAL struct doca_verbs_comp_channel *doca_verbs_cq_attr_get_comp_channel(const struct doca_verbs_cq_attr *cq_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_cq_context(struct doca_verbs_cq_attr *cq_attr, void *cq_context);
DOCA_EXPERIMENTAL void *doca_verbs_cq_attr_get_cq_context(const struct doca_verbs_cq_attr *cq_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_external_umem(struct doca_verbs_cq_attr *cq_attr, struct doca_umem *external_umem, uint64_t external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_get_external_umem(const struct doca_verbs_cq_attr *cq_attr, struct doca_umem **external_umem, uint64_t *external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_external_uar(struct doca_verbs_cq_attr *cq_attr, struct doca_uar *external_uar);
DOCA_EXPERIMENTAL struct doca_uar *doca_verbs_cq_attr_get_external_uar(const struct doca_verbs_cq_attr *cq_attr);
/* attach the CQ to a DPA thread (doca_dpa_thread_get_id) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_dpa_thread_id(struct doca_verbs_cq_attr *cq_attr, uint32_t dpa_thread_id);
DOCA_EXPERIMENTAL uint32_t doca_verbs_cq_attr_get_dpa_thread_id(const struct doca_verbs_cq_attr *cq_attr);
/* address handle attributes */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_create(struct doca_verbs_context *verbs_context, struct doca_verbs_ah_attr **verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_destroy(struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_gid(struct doca_verbs_ah_attr *verbs_ah_attr, struct doca_verbs_gid gid);
DOCA_EXPERIMENTAL struct doca_verbs_gid doca_verbs_ah_attr_get_gid(const struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_addr_type(struct doca_verbs_ah_attr *verbs_ah_attr, enum doca_verbs_addr_type addr_type);
DOCA_EXPERIMENTAL enum doca_verbs_addr_type doca_verbs_ah_attr_get_addr_type(const struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_dlid(struct doca_verbs_ah_attr *verbs_ah_attr, uint32_t dlid);
DOCA_EXPERIMENTAL uint32_t doca_verbs_ah_attr_get_dlid(const struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_sl(struct doca_verbs_ah_attr *verbs_ah_attr, uint8_t sl);
DOCA_EXPERIMENTAL uint8_t doca_verbs_ah_attr_get_sl(const struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_sgid_index(struct doca_verbs_ah_attr *verbs_ah_attr, uint8_t sgid_index);
DOCA_EXPERIMENTAL uint8_t doca_verbs_ah_attr_get_sgid_index(const struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_static_rate(struct doca_verbs_ah_attr *verbs_ah_attr, uint8_t static_rate);
DOCA_EXPERIMENTAL uint8_t doca_verbs_ah_attr_get_static_rate(const struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_hop_limit(struct doca_verbs_ah_attr *verbs_ah_attr, uint8_t hop_limit);
DOCA_EXPERIMENTAL uint8_t doca_verbs_ah_attr_get_hop_limit(const struct doca_verbs_ah_attr *verbs_ah_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_ah_attr_set_traffic_class(struct doca_verbs_ah_attr *verbs_ah_attr, uint8_t traffic_class);
DOCA_EXPERIMENTAL uint8_t doca_verbs_ah_attr_get_traffic_class(const struct doca_verbs_ah_attr *verbs_ah_attr);
/* completion channel: its handle can be waited on (epoll) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_comp_channel_create(struct doca_verbs_context *verbs_context, struct doca_verbs_comp_channel **verbs_comp_channel);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_comp_channel_destroy(struct doca_verbs_comp_channel *verbs_comp_channel);
DOCA_EXPERIMENTAL doca_event_handle_t doca_verbs_comp_channel_get_handle(struct doca_verbs_comp_channel *verbs_comp_channel);
/* CQ and QP */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_create(struct doca_verbs_context *verbs_context, struct doca_verbs_cq_attr *verbs_cq_attr, struct doca_verbs_cq **verbs_cq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_destroy(struct doca_verbs_cq *verbs_cq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_create(struct doca_verbs_context *verbs_context, struct doca_verbs_qp_init_attr *verbs_qp_init_attr, struct doca_verbs_qp **verbs_qp);
/* attr_mask: the DOCA_VERBS_QP_ATTR_* given in verbs_qp_attr */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_modify(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *verbs_qp_attr, int attr_mask);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_query(struct doca_verbs_qp *verbs_qp, struct doca_verbs_qp_attr *verbs_qp_attr, struct doca_verbs_qp_init_attr *verbs_qp_init_attr, int *attr_mask);
/* enhanced connection establishment */
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_query_ece(struct doca_verbs_qp *verbs_qp);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_set_ece(struct doca_verbs_qp *verbs_qp, uint32_t ece);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_destroy(struct doca_verbs_qp *verbs_qp);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_get_cq_event(struct doca_verbs_comp_channel *verbs_comp_channel, struct doca_verbs_cq **verbs_cq, void **cq_context);
/* the work queues, UAR and doorbell record of a QP / CQ, for programs that drive them themselves */
DOCA_EXPERIMENTAL void doca_verbs_qp_get_wq(const struct doca_verbs_qp *verbs_qp, void **sq_buf, uint32_t *sq_num_entries, void **rq_buf, uint32_t *rq_num_entries, uint32_t *rwqe_size_bytes);
DOCA_EXPERIMENTAL void *doca_verbs_qp_get_uar_addr(const struct doca_verbs_qp *verbs_qp);
DOCA_EXPERIMENTAL void *doca_verbs_qp_get_dbr_addr(const struct doca_verbs_qp *verbs_qp);
DOCA_EXPERIMENTAL uint32_t doca_verbs_qp_get_qpn(const struct doca_verbs_qp *verbs_qp);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_get_dpa_handle(struct doca_verbs_qp *verbs_qp, struct doca_dpa *dpa_ctx, doca_dpa_dev_verbs_qp_t *dpa_qp_handle);
DOCA_EXPERIMENTAL uint32_t doca_verbs_cq_get_cqn(const struct doca_verbs_cq *verbs_cq);
DOCA_EXPERIMENTAL void doca_verbs_cq_get_wq(struct doca_verbs_cq *verbs_cq, void **cq_buf, uint32_t *cq_num_entries, uint8_t *cq_entry_size);
DOCA_EXPERIMENTAL void doca_verbs_cq_get_dbr_addr(struct doca_verbs_cq *verbs_cq, uint64_t **uar_db_reg, uint32_t **ci_dbr, uint32_t **arm_dbr);
/* SRQ init attributes */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_create(struct doca_verbs_srq_init_attr **verbs_srq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_destroy(struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_srq_wr(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, uint32_t srq_wr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_srq_init_attr_get_srq_wr(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_receive_max_sges(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, uint32_t receive_max_sges);
DOCA_EXPERIMENTAL uint32_t doca_verbs_srq_init_attr_get_receive_max_sges(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_type(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, enum doca_verbs_srq_type srq_type);
DOCA_EXPERIMENTAL enum doca_verbs_srq_type doca_verbs_srq_init_attr_get_type(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_pd(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_verbs_pd *pd);
DOCA_EXPERIMENTAL struct doca_verbs_pd *doca_verbs_srq_init_attr_get_pd(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_external_datapath_en(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, uint8_t external_datapath_en);
DOCA_EXPERIMENTAL uint8_t doca_verbs_srq_init_attr_get_external_datapath_en(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_external_umem(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_umem *external_umem, uint64_t external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_get_external_umem(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_umem **external_umem, uint64_t *external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_external_dbr_umem(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_umem *external_dbr_umem, uint64_t external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_get_external_dbr_umem(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_umem **external_dbr_umem, uint64_t *external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_init_attr_set_dpa(struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_dpa *dpa_ctx);
DOCA_EXPERIMENTAL struct doca_dpa *doca_verbs_srq_init_attr_get_dpa(const struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
/* SRQ */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_create(struct doca_verbs_context *verbs_context, struct doca_verbs_srq_init_attr *verbs_srq_init_attr, struct doca_verbs_srq **verbs_srq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_destroy(struct doca_verbs_srq *verbs_srq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_query(struct doca_verbs_srq *verbs_srq, struct doca_verbs_srq_init_attr *verbs_srq_init_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_srq_get_srqn(const struct doca_verbs_srq *verbs_srq);
DOCA_EXPERIMENTAL void doca_verbs_srq_get_wq(const struct doca_verbs_srq *verbs_srq, void **srq_buf, uint32_t *srq_num_entries, uint32_t *rwqe_size_bytes);
DOCA_EXPERIMENTAL void *doca_verbs_srq_get_dbr_addr(const struct doca_verbs_srq *verbs_srq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_srq_get_dpa_handle(struct doca_verbs_srq *verbs_srq, struct doca_dpa *dpa_ctx, doca_dpa_dev_verbs_srq_t *dpa_srq_handle);
/* asynchronous events: every event got must be acknowledged */
DOCA_EXPERIMENTAL doca_event_handle_t doca_verbs_get_async_event_handle(struct doca_verbs_context *verbs_context);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_get_async_event(struct doca_verbs_context *verbs_context, struct doca_verbs_async_event *async_event);
DOCA_EXPERIMENTAL void doca_verbs_ack_async_event(struct doca_verbs_async_event *async_event);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cq_attr_set_external_datapath_en(struct doca_verbs_cq_attr *cq_attr, uint8_t external_datapath_en);
DOCA_EXPERIMENTAL uint8_t doca_verbs_cq_attr_get_external_datapath_en(const struct doca_verbs_cq_attr *cq_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_req_notify_cq(struct doca_verbs_cq *verbs_cq, int solicited_only);
DOCA_EXPERIMENTAL void doca_verbs_ack_cq_events(struct doca_verbs_cq *verbs_cq, unsigned int nevents);
/* congestion control groups */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_qp_attr_set_cc_group(struct doca_verbs_qp_attr *verbs_qp_attr, struct doca_verbs_cc_group *cc_group);
DOCA_EXPERIMENTAL struct doca_verbs_cc_group *doca_verbs_qp_attr_get_cc_group(const struct doca_verbs_qp_attr *verbs_qp_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_attr_create(struct doca_verbs_cc_group_attr **verbs_cc_group_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_attr_destroy(struct doca_verbs_cc_group_attr *verbs_cc_group_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_attr_set_hint(struct doca_verbs_cc_group_attr *verbs_cc_group_attr, const void *hint_data, size_t hint_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_attr_get_hint(const struct doca_verbs_cc_group_attr *verbs_cc_group_attr, const void **data, size_t *size);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_create(const struct doca_verbs_context *verbs_context, struct doca_verbs_cc_group_attr *verbs_cc_group_attr, struct doca_verbs_cc_group **verbs_cc_group);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_destroy(struct doca_verbs_cc_group *verbs_cc_group);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_modify(struct doca_verbs_cc_group *verbs_cc_group, struct doca_verbs_cc_group_attr *verbs_cc_group_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_query(const struct doca_verbs_cc_group *verbs_cc_group, struct doca_verbs_cc_group_attr *verbs_cc_group_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_query_cc_group_caps(const struct doca_verbs_context *verbs_context, struct doca_verbs_cc_group_caps **cc_group_caps);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_caps_free(struct doca_verbs_cc_group_caps *cc_group_caps);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_cc_group_caps_get_data(struct doca_verbs_cc_group_caps *cc_group_caps, const void **data, size_t *size);
DOCA_EXPERIMENTAL uint32_t doca_verbs_cc_group_caps_get_vendor_id(const struct doca_verbs_cc_group_caps *cc_group_caps);
DOCA_EXPERIMENTAL uint32_t doca_verbs_cc_group_caps_get_format_id(const struct doca_verbs_cc_group_caps *cc_group_caps);
/* Ethernet send queue init attributes */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_create(struct doca_verbs_eth_sq_init_attr **verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_destroy(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_pd(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_verbs_pd *pd);
DOCA_EXPERIMENTAL struct doca_verbs_pd *doca_verbs_eth_sq_init_attr_get_pd(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_cq(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_verbs_cq *cq);
DOCA_EXPERIMENTAL struct doca_verbs_cq *doca_verbs_eth_sq_init_attr_get_cq(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_sig_all(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, int sig_all);
DOCA_EXPERIMENTAL int doca_verbs_eth_sq_init_attr_get_sig_all(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_wr_num(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint32_t wr_num);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_sq_init_attr_get_wr_num(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_max_sges(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint32_t max_sges);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_sq_init_attr_get_max_sges(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_max_inline_data(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint32_t max_inline_data);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_sq_init_attr_get_max_inline_data(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
/* the logical queue id DOCA Flow refers to; unique on the device */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_queue_id(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint16_t queue_id);
DOCA_EXPERIMENTAL uint16_t doca_verbs_eth_sq_init_attr_get_queue_id(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_user_index(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint32_t user_index);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_sq_init_attr_get_user_index(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_user_data(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, union doca_data user_data);
DOCA_EXPERIMENTAL union doca_data doca_verbs_eth_sq_init_attr_get_user_data(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_external_datapath_en(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint8_t external_datapath_en);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_sq_init_attr_get_external_datapath_en(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_external_umem(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_umem *external_umem, uint64_t external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_get_external_umem(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_umem **external_umem, uint64_t *external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_external_dbr_umem(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_umem *external_dbr_umem, uint64_t external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_get_external_dbr_umem(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_umem **external_dbr_umem, uint64_t *external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_external_uar(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_uar *external_uar);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_get_external_uar(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_uar **external_uar);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_dpa(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_dpa *dpa_ctx);
DOCA_EXPERIMENTAL struct doca_dpa *doca_verbs_eth_sq_init_attr_get_dpa(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_dpa_completion(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_dpa_completion *dpa_completion);
DOCA_EXPERIMENTAL struct doca_dpa_completion *doca_verbs_eth_sq_init_attr_get_dpa_completion(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_flush_in_error_en(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint8_t flush_in_error_en);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_sq_init_attr_get_flush_in_error_en(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_allow_multi_pkt_send_wqe(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint8_t allow_multi_pkt_send_wqe);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_sq_init_attr_get_allow_multi_pkt_send_wqe(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_plane_index(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint8_t plane_index);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_sq_init_attr_get_plane_index(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
/* ts_source_type: DOCA_VERBS_TS_SOURCE_* */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_init_attr_set_ts_source_type(struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, uint8_t ts_source_type);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_sq_init_attr_get_ts_source_type(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
/* the queue's state after doca_verbs_eth_sq_query */
DOCA_EXPERIMENTAL enum doca_verbs_eth_sq_state doca_verbs_eth_sq_init_attr_get_state(const struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
/* Ethernet send queue */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_create(struct doca_verbs_context *verbs_context, struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr, struct doca_verbs_eth_sq **verbs_eth_sq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_destroy(struct doca_verbs_eth_sq *verbs_eth_sq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_query(struct doca_verbs_eth_sq *verbs_eth_sq, struct doca_verbs_eth_sq_init_attr *verbs_eth_sq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_recover_from_error(struct doca_verbs_eth_sq *verbs_eth_sq);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_sq_get_sq_hw_number(const struct doca_verbs_eth_sq *verbs_eth_sq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_get_dpa_handle(struct doca_verbs_eth_sq *verbs_eth_sq, struct doca_dpa *dpa_ctx, doca_dpa_dev_verbs_eth_sq_t *dpa_eth_sq_handle);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_sq_get_wq(const struct doca_verbs_eth_sq *verbs_eth_sq, void **sq_buf, uint32_t *sq_num_entries);
DOCA_EXPERIMENTAL void *doca_verbs_eth_sq_get_uar_addr(const struct doca_verbs_eth_sq *verbs_eth_sq);
DOCA_EXPERIMENTAL void *doca_verbs_eth_sq_get_dbr_addr(const struct doca_verbs_eth_sq *verbs_eth_sq);
/* Ethernet receive queue init attributes */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_create(struct doca_verbs_eth_rq_init_attr **verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_destroy(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_pd(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_verbs_pd *pd);
DOCA_EXPERIMENTAL struct doca_verbs_pd *doca_verbs_eth_rq_init_attr_get_pd(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_cq(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_verbs_cq *cq);
DOCA_EXPERIMENTAL struct doca_verbs_cq *doca_verbs_eth_rq_init_attr_get_cq(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_wr_num(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, uint32_t wr_num);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_rq_init_attr_get_wr_num(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_max_sges(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, uint32_t max_sges);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_rq_init_attr_get_max_sges(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_queue_id(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, uint16_t queue_id);
DOCA_EXPERIMENTAL uint16_t doca_verbs_eth_rq_init_attr_get_queue_id(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_user_index(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, uint32_t user_index);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_rq_init_attr_get_user_index(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_user_data(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, union doca_data user_data);
DOCA_EXPERIMENTAL union doca_data doca_verbs_eth_rq_init_attr_get_user_data(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_external_datapath_en(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, uint8_t external_datapath_en);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_rq_init_attr_get_external_datapath_en(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_external_umem(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_umem *external_umem, uint64_t external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_get_external_umem(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_umem **external_umem, uint64_t *external_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_external_dbr_umem(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_umem *external_dbr_umem, uint64_t external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_get_external_dbr_umem(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_umem **external_dbr_umem, uint64_t *external_dbr_umem_offset);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_dpa(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_dpa *dpa_ctx);
DOCA_EXPERIMENTAL struct doca_dpa *doca_verbs_eth_rq_init_attr_get_dpa(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_dpa_completion(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_dpa_completion *dpa_completion);
DOCA_EXPERIMENTAL struct doca_dpa_completion *doca_verbs_eth_rq_init_attr_get_dpa_completion(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_flush_in_error_en(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, uint8_t flush_in_error_en);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_rq_init_attr_get_flush_in_error_en(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
/* an RQ fed by an SRQ (then no wr_num, max_sges, umems, flush or PD of its own) */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_srq(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_verbs_srq *srq);
DOCA_EXPERIMENTAL struct doca_verbs_srq *doca_verbs_eth_rq_init_attr_get_srq(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_init_attr_set_ts_source_type(struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, uint8_t ts_source_type);
DOCA_EXPERIMENTAL uint8_t doca_verbs_eth_rq_init_attr_get_ts_source_type(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL enum doca_verbs_eth_rq_state doca_verbs_eth_rq_init_attr_get_state(const struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
/* Ethernet receive queue */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_create(struct doca_verbs_context *verbs_context, struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr, struct doca_verbs_eth_rq **verbs_eth_rq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_destroy(struct doca_verbs_eth_rq *verbs_eth_rq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_query(struct doca_verbs_eth_rq *verbs_eth_rq, struct doca_verbs_eth_rq_init_attr *verbs_eth_rq_init_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_eth_rq_get_rq_hw_number(const struct doca_verbs_eth_rq *verbs_eth_rq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_recover_from_error(struct doca_verbs_eth_rq *verbs_eth_rq);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_get_dpa_handle(struct doca_verbs_eth_rq *verbs_eth_rq, struct doca_dpa *dpa_ctx, doca_dpa_dev_verbs_eth_rq_t *dpa_eth_rq_handle);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_eth_rq_get_wq(const struct doca_verbs_eth_rq *verbs_eth_rq, void **rq_buf, uint32_t *rq_num_entries, uint32_t *rwqe_size_bytes);
DOCA_EXPERIMENTAL void *doca_verbs_eth_rq_get_dbr_addr(const struct doca_verbs_eth_rq *verbs_eth_rq);
/* device attributes (capabilities); free with doca_verbs_device_attr_free */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_query_device(struct doca_verbs_context *context, struct doca_verbs_device_attr **verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_free(struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_qp(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_qp_wr(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_sge(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_cq(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_cqe(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_mr(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_pd(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL enum doca_verbs_atomic_cap doca_verbs_device_attr_get_atomic_cap(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint8_t doca_verbs_device_attr_get_max_qp_rd_atom(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint8_t doca_verbs_device_attr_get_max_qp_init_rd_atom(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_ah(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_srq(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_srq_wr(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_srq_sge(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint16_t doca_verbs_device_attr_get_max_pkeys(const struct doca_verbs_device_attr *verbs_device_attr);
/* the _is_*_supported probes: DOCA_SUCCESS when supported */
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_qp_type_supported(const struct doca_verbs_device_attr *verbs_device_attr, uint32_t qp_type);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_dpa_external_datapath_supported(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_gpu_external_datapath_supported(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_ece_supported(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_cc_group_supported(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_cc_group(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL size_t doca_verbs_device_attr_get_max_cc_group_hint_max_size(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_cqe_inline_supported(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_eth_sq_wr_num(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_allow_multi_pkt_send_wqe_supported(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_plane_index_supported(const struct doca_verbs_device_attr *verbs_device_attr);
/* in kHz */
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_ts_free_running_clock_frequency(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_eth_sq_ts_source_type_supported(const struct doca_verbs_device_attr *verbs_device_attr, uint8_t ts_source_type);
DOCA_EXPERIMENTAL uint32_t doca_verbs_device_attr_get_max_eth_rq_wr_num(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_eth_rq_srq_supported(const struct doca_verbs_device_attr *verbs_device_attr);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_eth_rq_ts_source_type_supported(const struct doca_verbs_device_attr *verbs_device_attr, uint8_t ts_source_type);
DOCA_EXPERIMENTAL doca_error_t doca_verbs_device_attr_get_is_send_dbr_mode_supported(const struct doca_verbs_device_attr *verbs_device_attr, enum doca_verbs_qp_send_dbr_mode send_dbr_mode);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_VERBS_H */
