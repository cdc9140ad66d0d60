/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_gpunetio_dev_comch.cuh — DOCA GPUNetIO device calls on the GPU handles of a Comch
 * consumer and producer (doca_comch_consumer_get_gpu_handle, doca_comch_producer_get_gpu_handle):
 * post a receive buffer, wait for a message, send, poll a send's completion. DOCA 3.3; the
 * parameters are inferred from NVIDIA's dpu_gpu_remote_offload application. CUDA only.
 * Stub bodies, never reached (see doca_gpunetio_dev_buf.cuh): DOCA_ERROR_NOT_SUPPORTED.
 */
#ifndef SOFTDOCA_DOCA_GPUNETIO_DEV_COMCH_CUH
#define SOFTDOCA_DOCA_GPUNETIO_DEV_COMCH_CUH

#include <stdint.h>

#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "doca_error.h"

/* whether a wait returns at once (DOCA_ERROR_AGAIN when nothing is there) or blocks */
enum doca_gpu_comch_wait_flags {
	DOCA_GPU_COMCH_WAIT_FLAG_NB = 0,
	DOCA_GPU_COMCH_WAIT_FLAG_B = 1,
};

/* give the consumer a buffer of size bytes at addr (memory key mkey) to receive into */
__device__ static inline doca_error_t doca_dev_gpu_comch_consumer_post_recv(struct doca_comch_gpu_consumer *consumer, uint32_t mkey, uintptr_t addr, uint32_t size)
{
	(void)consumer, (void)mkey, (void)addr, (void)size;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* the next received message: its buffer, length and immediate data (imm_data may be NULL) */
__device__ static inline doca_error_t doca_dev_gpu_comch_consumer_recv_wait(struct doca_comch_gpu_consumer *consumer, uint32_t *mkey, uintptr_t *addr, uint32_t *recv_len, uint8_t **imm_data, uint32_t *imm_data_len, enum doca_gpu_comch_wait_flags flags)
{
	(void)consumer, (void)mkey, (void)addr, (void)recv_len, (void)imm_data, (void)imm_data_len, (void)flags;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* send size bytes at addr to the remote consumer consumer_id; user_msg_id comes back from poll */
__device__ static inline doca_error_t doca_dev_gpu_comch_producer_send(struct doca_comch_gpu_producer *producer, uint32_t mkey, uintptr_t addr, uint32_t size, const uint8_t *imm_data, uint32_t imm_data_len, uint32_t consumer_id, uint64_t user_msg_id)
{
	(void)producer, (void)mkey, (void)addr, (void)size, (void)imm_data, (void)imm_data_len;
	(void)consumer_id, (void)user_msg_id;
	return DOCA_ERROR_NOT_SUPPORTED;
}

__device__ static inline doca_error_t doca_dev_gpu_comch_producer_poll(struct doca_comch_gpu_producer *producer, uint64_t *user_msg_id, enum doca_gpu_comch_wait_flags flags)
{
	(void)producer, (void)user_msg_id, (void)flags;
	return DOCA_ERROR_NOT_SUPPORTED;
}

#endif /* SOFTDOCA_DOCA_GPUNETIO_DEV_COMCH_CUH */
