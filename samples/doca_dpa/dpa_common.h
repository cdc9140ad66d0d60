/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What softdoca's DPA samples share (DOCA's dpa_common names): the flags every DPA sample
 * takes, opening the PF with a DPA, the DPA context with the samples' application, and the
 * sync events a kernel launch waits on and completes.
 */
#ifndef DPA_COMMON_H_
#define DPA_COMMON_H_

#include <stdint.h>

#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_error.h>
#include <doca_sync_event.h>

#define DEVICE_DEFAULT_NAME "NOT_SET"
#define SYNC_EVENT_MASK_FFS (0xFFFFFFFFFFFFFFFF)
#define DPA_RESOURCES_PATH_MAX_SIZE 1024
#define DPA_APP_KEY_MAX_SIZE 256

/* The application dpacc built from the sample's device code (--app-name=dpa_sample_app). */
extern struct doca_dpa_app *dpa_sample_app;

struct dpa_config {
	char pf_device_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char rdma_device_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char dpa_resources_file[DPA_RESOURCES_PATH_MAX_SIZE];
	char dpa_app_key[DPA_APP_KEY_MAX_SIZE];
	int gid_index;
};

struct dpa_resources {
	struct doca_dev *pf_doca_device;
	struct doca_dev *rdma_doca_device;
	struct doca_dpa *pf_dpa_ctx;
	struct doca_dpa *rdma_dpa_ctx;
	doca_dpa_dev_t rdma_dpa_ctx_handle;
};

/* -pf_dev, -rdma_dev, --dpa-resources, --dpa-app-key, -g */
doca_error_t register_dpa_params(void);

/* Opens the PF (and the RDMA device) and creates and starts the DPA context(s). */
doca_error_t allocate_dpa_resources(struct dpa_config *cfg, struct dpa_resources *resources);
doca_error_t destroy_dpa_resources(struct dpa_resources *resources);

/* An event the CPU sets and the DPA waits on. */
doca_error_t create_doca_dpa_wait_sync_event(struct doca_dpa *doca_dpa, struct doca_dev *doca_device,
					     struct doca_sync_event **wait_event);
/* An event the DPA completes and the CPU waits on; *handle (if not NULL) is its DPA handle. */
doca_error_t create_doca_dpa_completion_sync_event(struct doca_dpa *doca_dpa, struct doca_dev *doca_device,
						   struct doca_sync_event **comp_event,
						   doca_dpa_dev_sync_event_t *handle);

#endif /* DPA_COMMON_H_ */
