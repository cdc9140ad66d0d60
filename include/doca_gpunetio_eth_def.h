/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_eth_def.h — DOCA GPUNetIO Ethernet definitions shared by the host and
 * the CUDA device headers (doca_gpunetio_dev_eth_*.cuh), from the DOCA 3.x interface facts: the
 * template selectors of the send and receive calls with their values and the send flags.
 * doca_gpu_dev_eth_ticket_t is inferred from NVIDIA's 3.3 samples, which keep the ticket a send
 * call returns (as the Verbs calls' uint64_t ticket). The GPU queue handles (struct
 * doca_gpu_eth_txq / _rxq) stay opaque: softdoca never makes one (doca-gpunetio is a stub module,
 * docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_ETH_DEF_H
#define SOFTDOCA_DOCA_GPUNETIO_ETH_DEF_H

#include <limits.h>
#include <stdint.h>

#include "doca_error.h"
#include "doca_types.h"
#include "doca_gpunetio.h"

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

#define DOCA_GPUNETIO_ETH_WQE_L3_CSUM (1 << 6)
#define DOCA_GPUNETIO_ETH_WQE_L4_CSUM (1 << 7)
#define DOCA_GPUNETIO_ETH_WARP_SIZE 32
#define DOCA_GPUNETIO_ETH_WARP_FULL_MASK 0xffffffff
#define DOCA_GPUNETIO_ETH_PAGE_SIZE 65536
#define DOCA_GPUNETIO_ETH_WQE_PI_MASK 0xFFFF
#define DOCA_GPUNETIO_ETH_CQE_CI_MASK 0xFFFFFF
#define DOCA_GPUNETIO_ETH_MLX5_CQE_OPCODE_SHIFT 4
#define DOCA_GPUNETIO_ETH_CQE_SIZE 64
#define DOCA_GPUNETIO_ETH_WQE_IDX_SHIFT 8
#define DOCA_GPUNETIO_ETH_MLX5_OPCODE_SEND 0x0a
#define DOCA_GPUNETIO_ETH_MLX5_OPCODE_WAIT 0xf
#define DOCA_GPUNETIO_ETH_MLX5_OPCODE_DUMP 0x23
#define DOCA_GPUNETIO_ETH_MLX5_OPCODE_ENHANCED_MPSW 0x29u
#define DOCA_GPUNETIO_ETH_MLX5_OPC_MOD_WAIT_TIME 0x2
#define DOCA_GPUNETIO_ETH_MLX5_WQE_SHIFT 6
#define DOCA_GPUNETIO_ETH_NS_PER_S 1000000000

struct doca_gpu_eth_txq;
struct doca_gpu_eth_rxq;

/* NOTIFY: a completion for this send (the CPU then has to collect it); NONE: only on error */
enum doca_gpu_eth_send_flags {
	DOCA_GPUNETIO_ETH_SEND_FLAG_NONE = 0,
	DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY = 1 << 0,
};

/* completion polling: non-blocking or blocking */
enum doca_gpu_dev_eth_wait_flags {
	DOCA_GPUNETIO_ETH_WAIT_FLAG_NB = 0,
	DOCA_GPUNETIO_ETH_WAIT_FLAG_B = 1,
};

/* who runs a send or receive call: each thread, the whole warp or the whole block */
enum doca_gpu_dev_eth_exec_scope {
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD = 0,
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP = 1,
	DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK = 2,
};

enum doca_gpu_dev_eth_sync_scope {
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_SYS = 0,
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU = 1,
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA = 2,
	DOCA_GPUNETIO_ETH_SYNC_SCOPE_MAX = INT_MAX,
};

enum doca_gpu_dev_eth_resource_sharing_mode {
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_EXCLUSIVE = 0,
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA = 1,
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU = 2,
	DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_MAX = INT_MAX,
};

enum doca_gpu_dev_eth_nic_handler {
	DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO = 0,
	DOCA_GPUNETIO_ETH_NIC_HANDLER_CPU_PROXY = 1,
	DOCA_GPUNETIO_ETH_NIC_HANDLER_GPU_SM_DB = 2,
	DOCA_GPUNETIO_ETH_NIC_HANDLER_TYPE_MAX,
};

/* doca_gpu_dev_eth_txq_poll_completion: every completion in the range, or the last one only */
enum doca_gpu_dev_eth_cq_poll_mode {
	DOCA_GPUNETIO_ETH_CQ_POLL_ALL = 0,
	DOCA_GPUNETIO_ETH_CQ_POLL_LAST = 1,
};

/* memory consistency of received packets (a dump WQE after the receive) */
enum doca_gpu_dev_eth_mcst_mode {
	DOCA_GPUNETIO_ETH_MCST_DISABLED = 0,
	DOCA_GPUNETIO_ETH_MCST_ENABLED = 1,
	DOCA_GPUNETIO_ETH_MCST_AUTO = 2,
};

/* WQE index of a send, to poll its completion with */
typedef uint64_t doca_gpu_dev_eth_ticket_t;

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_GPUNETIO_ETH_DEF_H */
