/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RDMA remote sync event, requester: connect to the responder and open its exported sync
 * event (descriptor file, or an RDMA receive once RDMA-CM connected). Then, one task at a
 * time: set the remote event to 0xD0CA; get its value until the responder answered with a
 * greater one; set it to UINT64_MAX to tell the responder we are done.
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SYNC_EVENT_REQUESTER::SAMPLE);

#define SIGNAL_VALUE 0xD0CA	      /* first value set on the remote event */
#define COMPLETION_VALUE UINT64_MAX   /* last value set: the handshake is over */
#define SET_OFFSET 0		      /* where the value to set lives in local memory */
#define GET_OFFSET sizeof(uint64_t)   /* where the value got lands */

/* Which notify-set is running */
enum sync_event_phase {
	PHASE_SIGNAL,	  /* the first set (SIGNAL_VALUE) */
	PHASE_COMPLETION, /* the last set (COMPLETION_VALUE) */
};

static enum sync_event_phase phase = PHASE_SIGNAL;

static doca_error_t sync_event_tasks_supported(struct doca_devinfo *devinfo)
{
	doca_error_t result = doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported(devinfo);

	if (result != DOCA_SUCCESS)
		return result;
	return doca_rdma_cap_task_remote_net_sync_event_get_is_supported(devinfo);
}

/* Set the remote event to value with one notify-set task. */
static doca_error_t submit_notify_set(struct rdma_resources *resources, uint64_t value)
{
	struct doca_rdma_task_remote_net_sync_event_notify_set *task = NULL;
	char *slot = resources->mmap_memrange + SET_OFFSET;
	union doca_data task_user_data;
	struct doca_buf *src = NULL;
	doca_error_t result;

	memcpy(slot, &value, sizeof(value));
	result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, resources->mmap, slot, sizeof(value),
						    &src);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing source buffer: %s",
			     doca_error_get_descr(result));
		return result;
	}
	task_user_data.ptr = src;
	result = doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
		resources->rdma, rdma_connection(resources), resources->remote_se, src, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA remote net sync event notify set task: %s",
			     doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(src, NULL);
		return result;
	}
	resources->num_remaining_tasks++;
	result = doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA remote net sync event notify set task: %s",
			     doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));
		(void)doca_buf_dec_refcount(src, NULL);
	}
	return result;
}

/* Read the remote event's value into local memory with one get task. */
static doca_error_t submit_get(struct rdma_resources *resources)
{
	struct doca_rdma_task_remote_net_sync_event_get *task = NULL;
	union doca_data task_user_data = {.ptr = NULL};
	struct doca_buf *dst = NULL;
	doca_error_t result;

	result = doca_buf_inventory_buf_get_by_addr(resources->buf_inventory, resources->mmap,
						    resources->mmap_memrange + GET_OFFSET, sizeof(uint64_t), &dst);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing destination buffer: %s",
			     doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_task_remote_net_sync_event_get_allocate_init(
		resources->rdma, rdma_connection(resources), resources->remote_se, dst, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA remote net sync event get task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(dst, NULL);
		return result;
	}
	resources->num_remaining_tasks++;
	result = doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA remote net sync event get task: %s", doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(task));
		(void)doca_buf_dec_refcount(dst, NULL);
	}
	return result;
}

static void notify_set_completed(struct doca_rdma_task_remote_net_sync_event_notify_set *task,
				 union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *src = task_user_data.ptr;
	doca_error_t result;

	DOCA_LOG_INFO("RDMA remote net sync event notify set was done successfully");
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);

	if (phase == PHASE_SIGNAL) {
		/* Now poll the remote value until the responder answered */
		result = submit_get(resources);
		if (result != DOCA_SUCCESS)
			DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
	} else {
		DOCA_LOG_INFO("%s", "Remote sync event has been notified for completion successfully");
	}
	rdma_task_done(resources);
}

static void notify_set_failed(struct doca_rdma_task_remote_net_sync_event_notify_set *task,
			      union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *src = task_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));

	DOCA_LOG_ERR("RDMA remote net sync event notify set task failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	/* Without this signal the peers cannot synchronise: stop whatever remains */
	if (resources->num_remaining_tasks > 0)
		resources->num_remaining_tasks--;
	rdma_fail(resources, status);
}

static void get_completed(struct doca_rdma_task_remote_net_sync_event_get *task, union doca_data task_user_data,
			  union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *dst = doca_rdma_task_remote_net_sync_event_get_get_dst_buf(task);
	uint64_t value;
	doca_error_t result;

	(void)task_user_data;
	if (resources->stop_requested) {
		/* Stopping for another reason: no more polling */
		doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(task));
		(void)doca_buf_dec_refcount(dst, NULL);
		rdma_task_done(resources);
		return;
	}
	memcpy(&value, resources->mmap_memrange + GET_OFFSET, sizeof(value));
	if (value <= SIGNAL_VALUE) {
		/* The responder has not answered yet: get the value again */
		result = doca_buf_reset_data_len(dst);
		if (result == DOCA_SUCCESS)
			result = doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(task));
		if (result == DOCA_SUCCESS)
			return;
		DOCA_LOG_ERR("Failed to resubmit RDMA remote net sync event get task: %s",
			     doca_error_get_descr(result));
		doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(task));
		(void)doca_buf_dec_refcount(dst, NULL);
		if (resources->num_remaining_tasks > 0)
			resources->num_remaining_tasks--;
		rdma_fail(resources, result);
		return;
	}

	DOCA_LOG_INFO("RDMA remote net sync event get was done successfully");
	DOCA_LOG_INFO("Received sync event value 0x%" PRIX64, value);
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(task));
	(void)doca_buf_dec_refcount(dst, NULL);

	DOCA_LOG_INFO("Notifying remote sync event for completion");
	phase = PHASE_COMPLETION;
	result = submit_notify_set(resources, COMPLETION_VALUE);
	if (result != DOCA_SUCCESS)
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
	rdma_task_done(resources);
}

static void get_failed(struct doca_rdma_task_remote_net_sync_event_get *task, union doca_data task_user_data,
		       union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *dst = doca_rdma_task_remote_net_sync_event_get_get_dst_buf(task);
	doca_error_t status = doca_task_get_status(doca_rdma_task_remote_net_sync_event_get_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA remote net sync event get task failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(task));
	(void)doca_buf_dec_refcount(dst, NULL);
	if (resources->num_remaining_tasks > 0)
		resources->num_remaining_tasks--;
	rdma_fail(resources, status);
}

/* Connected, the responder's export at hand: open its event and signal it. */
static doca_error_t sync_event_requester_start(struct rdma_resources *resources)
{
	doca_error_t result;

	result = doca_sync_event_remote_net_create_from_export(resources->doca_device, resources->remote_resource_desc,
							       resources->remote_resource_desc_size,
							       &resources->remote_se);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create remote sync event from export: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Signaling remote sync event");
	phase = PHASE_SIGNAL;
	return submit_notify_set(resources, SIGNAL_VALUE);
}

doca_error_t rdma_sync_event_requester(struct rdma_config *cfg)
{
	struct rdma_resources resources = {0};
	doca_error_t result;

	result = rdma_sample_allocate(cfg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
				      sync_event_tasks_supported, &resources);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_rdma_task_remote_net_sync_event_notify_set_set_conf(resources.rdma, notify_set_completed,
									  notify_set_failed, NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA remote net sync event notify set task: %s",
			     doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = doca_rdma_task_remote_net_sync_event_get_set_conf(resources.rdma, get_completed, get_failed,
								   NUM_RDMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set configurations for RDMA remote net sync event get task: %s",
			     doca_error_get_descr(result));
		return rdma_sample_finish(&resources, result);
	}
	result = rdma_create_inventory(&resources);
	if (result != DOCA_SUCCESS)
		return rdma_sample_finish(&resources, result);

	resources.negotiation = RDMA_NEGOTIATION_RECV_DESC;
	resources.oob_connect = rdma_requester_export_and_connect;
	resources.on_connected = sync_event_requester_start;
	return rdma_sample_finish(&resources, rdma_sample_run(&resources));
}
