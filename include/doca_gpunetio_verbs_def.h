/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_verbs_def.h — DOCA GPUNetIO Verbs definitions shared by the host
 * (doca_gpunetio.h) and the CUDA device headers (doca_gpunetio_dev_verbs_*.cuh), from the DOCA 3.x
 * interface facts: the template selectors with their values, the WQE opcodes and control flags,
 * the address / key pair and the ticket type.
 *
 * doca-gpunetio is a stub module (docs/compatibility.md): the QP and CQ structures below carry
 * only the members programs read (NVIDIA's samples read the SQ producer index and mask and the
 * CQ consumer index and mask); softdoca never fills them, because no GPU handle is ever made.
 * A WQE is 64 bytes, as on the NIC (programs size their rings with it).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_VERBS_DEF_H
#define SOFTDOCA_DOCA_GPUNETIO_VERBS_DEF_H

#include <limits.h>
#include <stdint.h>

/* rdma-core's mlx5 definitions (WQE segments, struct mlx5_cqe64), which DOCA's header includes
 * and programs use through it; optional here: the declarations below do not need them */
#if defined(__has_include)
#if __has_include(<infiniband/mlx5dv.h>)
#include <infiniband/mlx5dv.h>
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* read or write x through a volatile access */
#define DOCA_GPUNETIO_VERBS_VOLATILE(x) (*(volatile __typeof__(x) *)&(x))

#define DOCA_GPUNETIO_VERBS_WARP_SIZE 32
#define DOCA_GPUNETIO_VERBS_WARP_FULL_MASK 0xffffffff
#define DOCA_GPUNETIO_VERBS_PAGE_SIZE 65536
#define DOCA_GPUNETIO_VERBS_CQE_CI_MASK 0xFFFFFF
#define DOCA_GPUNETIO_VERBS_WQE_PI_MASK 0xFFFF
#define DOCA_GPUNETIO_MLX5_WQE_SQ_SHIFT 6
#define DOCA_GPUNETIO_MLX5_WQE_RQ_SHIFT 4
#define DOCA_GPUNETIO_VERBS_MKEY_SWAPPED 1
#define DOCA_GPUNETIO_VERBS_MAX_INLINE_SIZE 28
#define DOCA_GPUNETIO_VERBS_MLX5_CQE_OPCODE_SHIFT 4
#define DOCA_GPUNETIO_VERBS_CQE_SIZE 64
#define DOCA_GPUNETIO_VERBS_WQE_IDX_SHIFT 8
#define DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE_SHIFT 30
#define DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE (1ULL << DOCA_GPUNETIO_VERBS_MAX_TRANSFER_SIZE_SHIFT)

/* WQE opcodes (the NIC's send opcodes) */
enum {
	DOCA_GPUNETIO_MLX5_OPCODE_NOP = 0x00,
	DOCA_GPUNETIO_MLX5_OPCODE_SEND_INVAL = 0x01,
	DOCA_GPUNETIO_MLX5_OPCODE_RDMA_WRITE = 0x08,
	DOCA_GPUNETIO_MLX5_OPCODE_RDMA_WRITE_IMM = 0x09,
	DOCA_GPUNETIO_MLX5_OPCODE_SEND = 0x0a,
	DOCA_GPUNETIO_MLX5_OPCODE_SEND_IMM = 0x0b,
	DOCA_GPUNETIO_MLX5_OPCODE_TSO = 0x0e,
	DOCA_GPUNETIO_MLX5_OPCODE_WAIT = 0x0f,
	DOCA_GPUNETIO_MLX5_OPCODE_RDMA_READ = 0x10,
	DOCA_GPUNETIO_MLX5_OPCODE_ATOMIC_CS = 0x11,
	DOCA_GPUNETIO_MLX5_OPCODE_ATOMIC_FA = 0x12,
	DOCA_GPUNETIO_MLX5_OPCODE_ATOMIC_MASKED_CS = 0x14,
	DOCA_GPUNETIO_MLX5_OPCODE_ATOMIC_MASKED_FA = 0x15,
	DOCA_GPUNETIO_MLX5_OPCODE_FMR = 0x19,
	DOCA_GPUNETIO_MLX5_OPCODE_LOCAL_INVAL = 0x1b,
	DOCA_GPUNETIO_MLX5_OPCODE_CONFIG_CMD = 0x1f,
	DOCA_GPUNETIO_MLX5_OPCODE_SET_PSV = 0x20,
	DOCA_GPUNETIO_MLX5_OPCODE_DUMP = 0x23,
	DOCA_GPUNETIO_MLX5_OPCODE_UMR = 0x25,
	DOCA_GPUNETIO_MLX5_OPCODE_TAG_MATCHING = 0x28,
	DOCA_GPUNETIO_MLX5_OPCODE_FLOW_TBL_ACCESS = 0x2c,
	DOCA_GPUNETIO_MLX5_OPCODE_MMO = 0x2f,
};

/* completion-event mode of a WQE's control segment */
enum {
	DOCA_GPUNETIO_MLX5_WQE_CTRL_CE_CQE_ON_CQE_ERROR = 0x0,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_CE_CQE_ON_FIRST_CQE_ERROR = 0x1,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_CE_CQE_ALWAYS = 0x2,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_CE_CQE_AND_EQE = 0x3,
};

/* fence mode of a WQE's control segment */
enum {
	DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_NO_FENCE = 0x0,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_INITIATOR_SMALL_FENCE = 0x1,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_FENCE = 0x2,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_STRONG_ORDERING = 0x3,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_FENCE_AND_INITIATOR_SMALL_FENCE = 0x4,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_CUSTOM = 0x100,
};

/* the control segment's fm_ce_se byte: completion mode in bits 2-3, fence in bits 5-7 */
enum doca_gpu_dev_verbs_wqe_ctrl_flags {
	DOCA_GPUNETIO_MLX5_WQE_CTRL_CQ_UPDATE = DOCA_GPUNETIO_MLX5_WQE_CTRL_CE_CQE_ALWAYS << 2,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_CQ_ERROR_UPDATE = DOCA_GPUNETIO_MLX5_WQE_CTRL_CE_CQE_ON_CQE_ERROR << 2,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_CQ_FIRST_CQE_ERROR = DOCA_GPUNETIO_MLX5_WQE_CTRL_CE_CQE_ON_FIRST_CQE_ERROR << 2,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_SOLICITED = 1 << 1,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_FENCE = DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_FENCE_AND_INITIATOR_SMALL_FENCE << 5,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE = DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_INITIATOR_SMALL_FENCE << 5,
	DOCA_GPUNETIO_MLX5_WQE_CTRL_STRONG_ORDERING = DOCA_GPUNETIO_MLX5_WQE_CTRL_FM_STRONG_ORDERING << 5,
};

/* doorbell record offsets */
enum {
	DOCA_GPUNETIO_MLX5_RCV_DBR = 0,
	DOCA_GPUNETIO_MLX5_SND_DBR = 1,
};

enum doca_gpu_dev_verbs_mem_type {
	DOCA_GPUNETIO_VERBS_MEM_TYPE_AUTO = 0,
	DOCA_GPUNETIO_VERBS_MEM_TYPE_HOST = 1,
	DOCA_GPUNETIO_VERBS_MEM_TYPE_GPU = 2,
	DOCA_GPUNETIO_VERBS_MEM_TYPE_MAX = INT_MAX,
};

enum doca_gpu_dev_verbs_qp_type {
	DOCA_GPUNETIO_VERBS_QP_SQ = 0,
	DOCA_GPUNETIO_VERBS_QP_RQ = 1,
};

/* who runs a one- or two-sided call: each thread alone, or the whole warp together */
enum doca_gpu_dev_verbs_exec_scope {
	DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD = 0,
	DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP = 1,
};

enum doca_gpu_dev_verbs_sync_scope {
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS = 0,
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_GPU = 1,
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA = 2,
	DOCA_GPUNETIO_VERBS_SYNC_SCOPE_MAX = INT_MAX,
};

/* which threads share a QP: one thread, one CTA or the whole GPU */
enum doca_gpu_dev_verbs_resource_sharing_mode {
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE = 0,
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_CTA = 1,
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU = 2,
	DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_MAX = INT_MAX,
};

/* who rings the doorbell */
enum doca_gpu_dev_verbs_nic_handler {
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO = 0,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_CPU_PROXY = 1,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_DB = 2,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_BF = 3,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_GPU_SM_NO_DBR = 4,
	DOCA_GPUNETIO_VERBS_NIC_HANDLER_TYPE_MAX,
};

/* memory consistency after a read or receive: a dump WQE or not */
enum doca_gpu_dev_verbs_mcst_mode {
	DOCA_GPUNETIO_VERBS_MCST_DISABLED = 0,
	DOCA_GPUNETIO_VERBS_MCST_ENABLED = 1,
};

enum doca_gpu_dev_verbs_gpu_code_opt {
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_DEFAULT = 0,
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_ASYNC_STORE_RELEASE = 1 << 0,
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_HAS_GDRCOPY = 1 << 1,
	DOCA_GPUNETIO_VERBS_GPU_CODE_OPT_MAX = INT_MAX,
};

enum doca_gpu_dev_verbs_signal_op {
	DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD = 0,
};

enum doca_gpu_dev_verbs_blocking_mode {
	DOCA_GPUNETIO_VERBS_BLOCKING_MODE_DISABLED = 0,
	DOCA_GPUNETIO_VERBS_BLOCKING_MODE_ENABLED = 1,
};

/* WQE index returned by the one- and two-sided calls, to poll its completion with */
typedef uint64_t doca_gpu_dev_verbs_ticket_t;

/* a memory region as the NIC addresses it */
struct doca_gpu_dev_verbs_addr {
	uint64_t addr;
	uint32_t key;
};

/* one send WQE: four 16-byte segments */
struct doca_gpu_dev_verbs_wqe {
	uint8_t seg[64];
} __attribute__((__aligned__(8)));

/* GPU view of a completion queue (members programs read; see the top of the file) */
struct doca_gpu_dev_verbs_cq {
	uint8_t *cqe_daddr;
	uint32_t cq_num;
	uint32_t cqe_num;
	uint32_t *dbrec;
	uint64_t cqe_ci;
	uint32_t cqe_mask;
	uint8_t cqe_size;
	uint64_t cqe_rsvd;
	enum doca_gpu_dev_verbs_mem_type mem_type;
};

/* GPU view of a queue pair (members programs read; see the top of the file) */
struct doca_gpu_dev_verbs_qp {
	uint64_t sq_rsvd_index;
	uint64_t sq_ready_index;
	uint64_t sq_wqe_pi;
	uint32_t sq_num;
	uint16_t sq_wqe_num;
	uint16_t sq_wqe_mask;
	uint8_t *sq_wqe_daddr;
	uint32_t rq_num;
	uint64_t rq_wqe_pi;
	uint32_t rq_wqe_num;
	uint32_t rq_wqe_mask;
	uint8_t *rq_wqe_daddr;
	struct doca_gpu_dev_verbs_cq cq_sq;
	struct doca_gpu_dev_verbs_cq cq_rq;
	enum doca_gpu_dev_verbs_nic_handler nic_handler;
};

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_GPUNETIO_VERBS_DEF_H */
