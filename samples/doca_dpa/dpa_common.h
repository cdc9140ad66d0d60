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
#include <doca_mmap.h>
#include <doca_rdma.h>
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
	/* one per EU of the --dpa-resources file's application (--dpa-app-key); none without a file */
	struct doca_dpa_eu_affinity **affinities;
	uint32_t num_affinities;
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

/* ---- the RDMA samples' objects (dpa_basic_initiator_target, dpa_initiator_target, dpa_ping_pong) ---- */

#define DPA_RDMA_PERMISSIONS \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_READ)

/* Frees DPA heap memory p (0: nothing), logging a failure. */
void dpa_mem_teardown(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t p);

/* A DPA thread running func(arg), with local storage tls (0: none), started (not yet run). */
doca_error_t dpa_thread_setup(struct doca_dpa *dpa, doca_dpa_func_t *func, uint64_t arg, doca_dpa_dev_uintptr_t tls,
			      const struct doca_dpa_eu_affinity *affinity, struct doca_dpa_thread **thread);
void dpa_thread_teardown(struct doca_dpa_thread *thread);

/* A started completion context of queue_size elements, activating thread (NULL: none). */
doca_error_t dpa_completion_setup(struct doca_dpa *dpa, unsigned int queue_size, struct doca_dpa_thread *thread,
				  struct doca_dpa_completion **comp, doca_dpa_dev_completion_t *handle);
void dpa_completion_teardown(struct doca_dpa_completion *comp);

/* A started notification completion of thread. */
doca_error_t dpa_notification_setup(struct doca_dpa *dpa, struct doca_dpa_thread *thread,
				    struct doca_dpa_notification_completion **notify,
				    doca_dpa_dev_notification_completion_t *handle);
void dpa_notification_teardown(struct doca_dpa_notification_completion *notify);

/* An RDMA context on dev whose datapath is on dpa, completing into comp, started. */
struct dpa_rdma {
	struct doca_rdma *rdma;
	doca_dpa_dev_rdma_t handle;
	uint32_t num_connections;
	struct doca_rdma_connection *conn[2];
	const void *details[2];
	size_t details_len[2];
	uint32_t conn_id[2];
};
doca_error_t dpa_rdma_setup(struct doca_dev *dev, struct doca_dpa *dpa, struct doca_dpa_completion *comp,
			    uint32_t recv_queue_size, uint32_t num_connections, struct dpa_rdma *r);
/* Connects connection i of a to connection i of b and the other way round. */
doca_error_t dpa_rdma_connect_pair(struct dpa_rdma *a, struct dpa_rdma *b);
void dpa_rdma_teardown(struct dpa_rdma *r);

/* A started mmap of [addr, addr + len): DPA memory of dpa when dpa is not NULL, else host memory. */
doca_error_t dpa_mmap_setup(struct doca_dpa *dpa, struct doca_dev *dev, uint64_t addr, size_t len,
			    struct doca_mmap **mmap, doca_dpa_dev_mmap_t *handle);

/*
 * The main of a DPA sample: flags (register_dpa_params), resources, then `logic` on them;
 * `logic_name` names it in the error line ("<logic_name>() encountered an error").
 */
int dpa_sample_main(int argc, char **argv, const char *logic_name, doca_error_t (*logic)(struct dpa_resources *));

#endif /* DPA_COMMON_H_ */
