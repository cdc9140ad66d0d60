/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpa_kernel_launch: launches hello_world on one DPA thread, held back by a wait event until a
 * host thread sets it, and waits for the kernel's completion event.
 */
#include <pthread.h>

#include <doca_error.h>
#include <doca_log.h>

#include "dpa_common.h"

DOCA_LOG_REGISTER(KERNEL_LAUNCH::SAMPLE);

extern doca_dpa_func_t hello_world;

#define WAIT_THRESHOLD 4
#define WAIT_RELEASE_VALUE 5
#define COMPLETION_VALUE 10

/* The host thread that releases the kernel: the launch must not have run before this. */
static void *release_kernel(void *event)
{
	doca_error_t result = doca_sync_event_update_set(event, WAIT_RELEASE_VALUE);

	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to update DOCA sync event: %s", doca_error_get_descr(result));
	return NULL;
}

doca_error_t kernel_launch(struct dpa_resources *resources)
{
	struct doca_sync_event *wait_event = NULL, *comp_event = NULL;
	doca_error_t result, tmp;
	pthread_t tid;

	result = create_doca_dpa_wait_sync_event(resources->pf_dpa_ctx, resources->pf_doca_device, &wait_event);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA sync event for DPA kernel wait: %s", doca_error_get_descr(result));
		return result;
	}
	result = create_doca_dpa_completion_sync_event(resources->pf_dpa_ctx, resources->pf_doca_device, &comp_event,
						       NULL);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA sync event for DPA kernel completion: %s",
			     doca_error_get_descr(result));
		goto destroy_wait_event;
	}

	result = doca_dpa_kernel_launch_update_set(resources->pf_dpa_ctx, wait_event, WAIT_THRESHOLD, comp_event,
						   COMPLETION_VALUE, 1, &hello_world);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to launch hello_world kernel: %s", doca_error_get_descr(result));
		goto destroy_comp_event;
	}
	if (pthread_create(&tid, NULL, release_kernel, wait_event) != 0) {
		DOCA_LOG_ERR("Failed to create thread");
		result = DOCA_ERROR_OPERATING_SYSTEM;
		/* nobody will release the kernel: stopping the DPA context drops it */
		goto destroy_comp_event;
	}
	result = doca_sync_event_wait_gt(comp_event, COMPLETION_VALUE - 1, SYNC_EVENT_MASK_FFS);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to wait for host completion event: %s", doca_error_get_descr(result));
	pthread_join(tid, NULL);

destroy_comp_event:
	tmp = doca_sync_event_destroy(comp_event);
	if (tmp != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to destroy host completion event: %s", doca_error_get_descr(tmp));
		DOCA_ERROR_PROPAGATE(result, tmp);
	}
destroy_wait_event:
	tmp = doca_sync_event_destroy(wait_event);
	if (tmp != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to destroy host wait event: %s", doca_error_get_descr(tmp));
		DOCA_ERROR_PROPAGATE(result, tmp);
	}
	return result;
}
