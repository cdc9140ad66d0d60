/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA read responder: hold the -r string in local memory exported for RDMA read, hand the
 * export to the requester (descriptor file, or an RDMA send once RDMA-CM connected) and keep
 * it alive until Enter says the requester has read it. No tasks of its own.
 */
#include <string.h>

#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_READ_RESPONDER::SAMPLE);

/* Connected and the export handed over: the requester reads without us. */
static doca_error_t read_responder_wait(struct rdma_resources *resources)
{
	DOCA_LOG_INFO("Wait till the requester has finished reading and press enter");
	wait_for_enter();
	rdma_stop(resources);
	return DOCA_SUCCESS;
}

doca_error_t rdma_read_responder(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ,
				      DOCA_ACCESS_FLAG_RDMA_READ, NULL, &resources);
	if (result != DOCA_SUCCESS)
		return result;
	/* What the requester will read, with its NUL */
	memcpy(resources.mmap_memrange, cfg->read_string, strlen(cfg->read_string) + 1);

	result = rdma_export_local_mmap(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.negotiation = RDMA_NEGOTIATION_SEND_DESC;
	resources.oob_connect = rdma_responder_export_and_connect;
	resources.on_connected = read_responder_wait;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
