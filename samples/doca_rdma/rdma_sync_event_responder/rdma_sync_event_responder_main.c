/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SYNC_EVENT_RESPONDER::MAIN);

/* The sample's logic (rdma_sync_event_responder_sample.c) */
doca_error_t rdma_sync_event_responder(struct rdma_config *cfg);

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, rdma_sync_event_responder, 0, "rdma_sync_event_responder() failed");
}
