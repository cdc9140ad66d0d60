/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA remote sync event, responder: a local sync event the network may publish to and this
 * CPU waits on, exported to the requester (descriptor file, or an RDMA send once RDMA-CM
 * connected). Once connected: wait until the requester set it to 0xD0CA, set it to 0xD0CB,
 * and wait until the requester sets it to UINT64_MAX. No tasks of its own.
 */
#include <stdint.h>

#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SYNC_EVENT_RESPONDER::SAMPLE);

#define EXPECTED_VALUE 0xD0CA		/* what the requester signals first */
#define RESPONSE_VALUE (EXPECTED_VALUE + 1) /* what this side answers */
#define WAIT_MASK UINT64_MAX		/* compare the whole value */

/* Create, start and export the sync event; resources->sync_event is set once it started. */
static doca_error_t create_exported_sync_event(struct rdma_resources *resources)
{
	struct doca_sync_event *se = NULL;
	const uint8_t *blob = NULL;
	size_t blob_len = 0;
	doca_error_t result;

	result = doca_sync_event_create(&se);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA sync event: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_sync_event_add_publisher_location_remote_net(se);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set the sync event's publisher to the remote net: %s",
			     doca_error_get_descr(result));
		goto destroy_se;
	}
	result = doca_sync_event_add_subscriber_location_cpu(se, resources->doca_device);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set the sync event's subscriber to the CPU: %s", doca_error_get_descr(result));
		goto destroy_se;
	}
	result = doca_sync_event_start(se);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start DOCA sync event: %s", doca_error_get_descr(result));
		goto destroy_se;
	}
	resources->sync_event = se;

	result = doca_sync_event_export_to_remote_net(se, &blob, &blob_len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export DOCA sync event for the remote net: %s", doca_error_get_descr(result));
		return result;
	}
	resources->local_resource_desc = blob;
	resources->local_resource_desc_size = blob_len;
	return DOCA_SUCCESS;

destroy_se:
	(void)doca_sync_event_destroy(se);
	return result;
}

/* Connected and the export handed over: the handshake on the sync event. */
static doca_error_t sync_event_responder_handshake(struct rdma_resources *resources)
{
	doca_error_t result;

	DOCA_LOG_INFO("Waiting for sync event to be signaled from remote");
	result = doca_sync_event_wait_gt(resources->sync_event, EXPECTED_VALUE - 1, WAIT_MASK);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to wait for the sync event: %s", doca_error_get_descr(result));
		return result;
	}

	DOCA_LOG_INFO("Signaling sync event");
	result = doca_sync_event_update_set(resources->sync_event, RESPONSE_VALUE);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to signal the sync event: %s", doca_error_get_descr(result));
		return result;
	}

	DOCA_LOG_INFO("Waiting for sync event to be notified for completion");
	result = doca_sync_event_wait_gt(resources->sync_event, UINT64_MAX - 1, WAIT_MASK);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to wait for the completion notification: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Done");
	rdma_stop(resources);
	return DOCA_SUCCESS;
}

doca_error_t rdma_sync_event_responder(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(
		cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE,
		DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE, NULL, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = create_exported_sync_event(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.negotiation = RDMA_NEGOTIATION_SEND_DESC;
	resources.oob_connect = rdma_responder_export_and_connect;
	resources.on_connected = sync_event_responder_handshake;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
