/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio.h — DOCA GPUNetIO, the host side (a GPU handle, GPU memory, semaphores
 * between CPU and GPU, GPU handles of Verbs QPs), from the DOCA 3.x interface facts.
 * doca-gpunetio is a stub module: the soft card has no GPU to hand queues to, so every call
 * returns DOCA_ERROR_NOT_SUPPORTED with an SDK line naming the library, and a program stops at
 * doca_gpu_create (docs/compatibility.md). The CUDA device headers (doca_gpunetio_dev_*.cuh)
 * compile with nvcc, and their calls are never reached.
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_H
#define SOFTDOCA_DOCA_GPUNETIO_H

#include <inttypes.h>
#include <stddef.h>

#include "doca_compat.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_error.h"
#include "doca_types.h"
#include "doca_gpunetio_verbs_def.h"

#ifdef __cplusplus
extern "C" {
#endif

/* read or write x through a volatile access (kernels poll flags the NIC or the CPU write) */
#define DOCA_GPUNETIO_VOLATILE(x) (*(volatile __typeof__(x) *)&(x))

/* status of one item of a semaphore, set by the GPU or the CPU */
enum doca_gpu_semaphore_status {
	DOCA_GPU_SEMAPHORE_STATUS_FREE = 0,
	DOCA_GPU_SEMAPHORE_STATUS_READY = 1,
	DOCA_GPU_SEMAPHORE_STATUS_DONE = 2,
	DOCA_GPU_SEMAPHORE_STATUS_HOLD = 3,
	DOCA_GPU_SEMAPHORE_STATUS_ERROR = 4,
	DOCA_GPU_SEMAPHORE_STATUS_EXIT = 5,
};

struct doca_gpu;
struct doca_gpu_semaphore;
struct doca_gpu_semaphore_gpu;
struct doca_verbs_qp;
struct doca_verbs_cq;
struct doca_gpu_verbs_qp;
struct doca_gpu_verbs_cq;

/* GPU handle (gpu_bus_id: the GPU's PCI address); the process must have a CUDA context */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_create(const char *gpu_bus_id, struct doca_gpu **gpu_dev);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_destroy(struct doca_gpu *gpu_dev);

/* memory the GPU (and, for GPU_CPU / CPU_GPU, the CPU) can access */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_mem_alloc(struct doca_gpu *gpu_dev, size_t size, size_t alignment, enum doca_gpu_mem_type mtype, void **memptr_gpu, void **memptr_cpu);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_mem_free(struct doca_gpu *gpu, void *memptr_gpu);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_dmabuf_fd(struct doca_gpu *gpu_dev, void *memptr_gpu, size_t size, int *dmabuf_fd);

/* semaphores: an array of items (status plus user data) shared by CPU and GPU */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_create(struct doca_gpu *gpu_dev, struct doca_gpu_semaphore **semaphore);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_destroy(struct doca_gpu_semaphore *semaphore);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_memory_type(struct doca_gpu_semaphore *semaphore, enum doca_gpu_mem_type mtype);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_items_num(struct doca_gpu_semaphore *semaphore, uint32_t num_items);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_custom_info(struct doca_gpu_semaphore *semaphore, uint32_t nbytes, enum doca_gpu_mem_type mtype);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_start(struct doca_gpu_semaphore *semaphore);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_stop(struct doca_gpu_semaphore *semaphore);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_gpu_handle(struct doca_gpu_semaphore *semaphore_cpu, struct doca_gpu_semaphore_gpu **semaphore_gpu);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_set_status(struct doca_gpu_semaphore *semaphore_cpu, uint32_t idx, enum doca_gpu_semaphore_status status);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_status(struct doca_gpu_semaphore *semaphore_cpu, uint32_t idx, enum doca_gpu_semaphore_status *status);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_semaphore_get_custom_info_addr(struct doca_gpu_semaphore *semaphore_cpu, uint32_t idx, void **custom_info);

/* GPU handles of DOCA Verbs QPs whose rings live in GPU memory */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_verbs_export_qp(struct doca_gpu *gpu_dev, struct doca_dev *dev, struct doca_verbs_qp *qp, enum doca_gpu_dev_verbs_nic_handler nic_handler, void *gpu_qp_umem_dev_ptr, struct doca_verbs_cq *cq_sq, struct doca_verbs_cq *cq_rq, struct doca_gpu_verbs_qp **qp_out);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_verbs_get_qp_dev(struct doca_gpu_verbs_qp *qp, struct doca_gpu_dev_verbs_qp **qp_gpu);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_verbs_unexport_qp(struct doca_gpu *gpu_dev, struct doca_gpu_verbs_qp *qp);
/* the same for a QP made outside DOCA, from its rings, doorbells and CQs */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_verbs_bridge_export_qp(struct doca_gpu *gpu_dev, uint32_t sq_qpn, void *sq_wqe_addr, uint16_t sq_wqe_num, uint32_t *sq_dbrec, uint64_t *sq_db, size_t uar_size, uint32_t sq_cqn, void *sq_cqe_addr, uint32_t sq_cqe_num, uint32_t *sq_cq_dbrec, uint32_t rq_qpn, void *rq_wqe_addr, uint16_t rq_wqe_num, uint32_t *rq_dbrec, uint32_t rcv_wqe_size, uint32_t rq_cqn, void *rq_cqe_addr, uint32_t rq_cqe_num, uint32_t *rq_cq_dbrec, enum doca_gpu_dev_verbs_nic_handler nic_handler, uint8_t send_dbr_mode_ext, struct doca_gpu_verbs_qp **qp_out);
/* CPU proxy: the CPU rings the doorbells the kernel's WQEs need */
DOCA_EXPERIMENTAL doca_error_t doca_gpu_verbs_cpu_proxy_enabled(struct doca_gpu_verbs_qp *qp_cpu, uint8_t *enabled);
DOCA_EXPERIMENTAL doca_error_t doca_gpu_verbs_cpu_proxy_progress(struct doca_gpu_verbs_qp *qp_cpu);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_GPUNETIO_H */
