/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sync event over PCIe, host side: create a sync event that the DPU publishes to and this CPU
 * subscribes to, export it to the DPU through a Comch client, then signal the DPU (set 1, or
 * add 1 with --atomic) and wait until the DPU signals back (the value goes past 1). With
 * --async the event is a context and both steps are tasks.
 */
#include <stdint.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_sync_event.h>

#include "common.h"
#include "common_common.h"

DOCA_LOG_REGISTER(SYNC_EVENT_LOCAL_PCI);

/* Device filter: it must export sync events over PCIe. */
static doca_error_t export_to_remote_pci_supported(struct doca_devinfo *devinfo)
{
	return doca_sync_event_cap_is_export_to_remote_pci_supported(devinfo);
}

static doca_error_t se_init(struct sync_event_runtime_objects *se_rt_objs)
{
	doca_error_t result = doca_sync_event_create(&se_rt_objs->se);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create sync event: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_sync_event_add_publisher_location_remote_pci(se_rt_objs->se);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to configure sync event publisher: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_sync_event_add_subscriber_location_cpu(se_rt_objs->se, se_rt_objs->dev);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure sync event subscriber: %s", doca_error_get_descr(result));
	return result;
}

static doca_error_t se_export(struct sync_event_runtime_objects *se_rt_objs)
{
	const uint8_t *blob = NULL;
	size_t sz = 0;
	doca_error_t result;

	result = doca_sync_event_export_to_remote_pci(se_rt_objs->se, se_rt_objs->dev, &blob, &sz);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export sync event to DPU: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Sending exported DOCA Sync Event to DPU");
	result = sync_event_cc_client_send(se_rt_objs, blob, sz);
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Exported DOCA Sync Event has been sent to DPU successfully");
	return result;
}

static doca_error_t se_communicate_sync(const struct sync_event_config *se_cfg,
					struct sync_event_runtime_objects *se_rt_objs)
{
	uint64_t fetched = 0;
	doca_error_t result;

	DOCA_LOG_INFO("Signaling sync event for DPU");
	if (se_cfg->is_update_atomic)
		result = doca_sync_event_update_add(se_rt_objs->se, 1, &fetched);
	else
		result = doca_sync_event_update_set(se_rt_objs->se, 1);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to signal sync event: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Waiting for sync event to be signaled from DPU");
	result = doca_sync_event_wait_gt_yield(se_rt_objs->se, 1, UINT64_MAX);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to wait for sync event: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Done");
	return DOCA_SUCCESS;
}

static doca_error_t se_communicate_async(const struct sync_event_config *se_cfg,
					 struct sync_event_runtime_objects *se_rt_objs)
{
	struct doca_sync_event_task_notify_add *add_task;
	struct doca_sync_event_task_notify_set *set_task;
	struct doca_sync_event_task_wait_eq *wait_task;
	union doca_data user_data = {.u64 = 0};
	struct doca_task *task;
	uint64_t fetched = 0;
	doca_error_t result;

	DOCA_LOG_INFO("Signaling sync event for DPU");
	if (se_cfg->is_update_atomic) {
		result = doca_sync_event_task_notify_add_alloc_init(se_rt_objs->se, 1, &fetched, user_data, &add_task);
		task = result == DOCA_SUCCESS ? doca_sync_event_task_notify_add_as_doca_task(add_task) : NULL;
	} else {
		result = doca_sync_event_task_notify_set_alloc_init(se_rt_objs->se, 1, user_data, &set_task);
		task = result == DOCA_SUCCESS ? doca_sync_event_task_notify_set_as_doca_task(set_task) : NULL;
	}
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the signaling task: %s", doca_error_get_descr(result));
		return result;
	}
	result = sync_event_async_task_submit(se_rt_objs, task);
	doca_task_free(task);
	if (result != DOCA_SUCCESS)
		return result;

	/* The DPU leaves the value at 2, whether it sets it or adds 1 to ours. */
	result = doca_sync_event_task_wait_eq_alloc_init(se_rt_objs->se, 2, UINT64_MAX, user_data, &wait_task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the wait task: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Waiting for sync event to be signaled from DPU");
	task = doca_sync_event_task_wait_eq_as_doca_task(wait_task);
	result = sync_event_async_task_submit(se_rt_objs, task);
	doca_task_free(task);
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Done");
	return result;
}

doca_error_t sync_event_run(const struct sync_event_config *se_cfg, struct sync_event_runtime_objects *se_rt_objs)
{
	doca_error_t result;

	result = open_doca_device_with_pci(se_cfg->dev_pci_addr, export_to_remote_pci_supported, &se_rt_objs->dev);
	if (result == DOCA_SUCCESS)
		result = sync_event_config_validate(se_cfg, se_rt_objs);
	if (result == DOCA_SUCCESS)
		result = se_init(se_rt_objs);
	if (result == DOCA_SUCCESS) {
		result = se_cfg->is_async_mode ? sync_event_start_async(se_cfg, se_rt_objs)
					       : doca_sync_event_start(se_rt_objs->se);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to start sync event: %s", doca_error_get_descr(result));
	}
	if (result == DOCA_SUCCESS)
		result = sync_event_cc_client_connect(se_rt_objs);
	if (result == DOCA_SUCCESS)
		result = se_export(se_rt_objs);
	if (result == DOCA_SUCCESS)
		result = se_cfg->is_async_mode ? se_communicate_async(se_cfg, se_rt_objs)
					       : se_communicate_sync(se_cfg, se_rt_objs);
	sync_event_tear_down(se_rt_objs);
	return result;
}
