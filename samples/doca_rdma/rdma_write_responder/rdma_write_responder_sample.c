/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA write responder: export zeroed local memory for RDMA write, hand the export to the
 * requester (descriptor file, or an RDMA send once RDMA-CM connected), and once Enter says the
 * requester has written, print what is in the memory. No tasks of its own.
 */
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_RESPONDER::SAMPLE);

/* Connected and the export handed over: the requester writes without us. */
static doca_error_t write_responder_wait(struct rdma_resources *resources)
{
	size_t str_len = 0;
	doca_error_t result;

	DOCA_LOG_INFO("Wait till the requester has finished writing and press enter");
	wait_for_enter();
	result = check_received_string(resources->mmap_memrange, MEM_RANGE_LEN, &str_len);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Requester has written: \"%.*s\"", (int)str_len, resources->mmap_memrange);
	rdma_stop(resources);
	return DOCA_SUCCESS;
}

doca_error_t rdma_write_responder(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE,
				      DOCA_ACCESS_FLAG_RDMA_WRITE, NULL, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = rdma_export_local_mmap(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.negotiation = RDMA_NEGOTIATION_SEND_DESC;
	resources.oob_connect = rdma_responder_export_and_connect;
	resources.on_connected = write_responder_wait;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
