/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GPU handles of a Comch consumer and producer (DOCA 3.3; prototypes inferred from NVIDIA's
 * dpu_gpu_remote_offload): a CUDA kernel would post receives and sends through them
 * (doca_gpunetio_dev_comch.cuh). There is no GPU on the soft card, as for DOCA GPUNetIO (a stub
 * module), so both say NOT_SUPPORTED with one SDK line, as the stub libraries do
 * (lib/stubs/stub.h).
 */
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "stubs/stub.h"

SDK_LOG_REGISTER(COMCH_GPU);

#define STUB_LIBRARY "DOCA Comch GPU data path (libdoca_comch)"

doca_error_t doca_comch_consumer_get_gpu_handle(struct doca_comch_consumer *consumer, struct doca_comch_gpu_consumer **gpu_consumer)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}

doca_error_t doca_comch_producer_get_gpu_handle(struct doca_comch_producer *producer, struct doca_comch_gpu_producer **gpu_producer)
{
	STUB_RETURN_NOT_SUPPORTED(ERR)
}
