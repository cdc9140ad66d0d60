/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Code shared by softdoca's DOCA RDMA samples: the flags, the RDMA context and its resources,
 * the out-of-band descriptor files, the RDMA-CM connection flow and the negotiation that
 * carries an mmap or sync-event descriptor over an RDMA send/receive once RDMA-CM connected.
 * Written against the public DOCA API only.
 */
#ifndef RDMA_COMMON_H_
#define RDMA_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "common.h"

#define MEM_RANGE_LEN 4096			       /* the sample's local memory */
#define INVENTORY_NUM_INITIAL_ELEMENTS 16	       /* doca_bufs a sample may hold */
#define MAX_USER_ARG_SIZE 256			       /* longest string or path a user may give */
#define MAX_ARG_SIZE (MAX_USER_ARG_SIZE + 1)	       /* ... with its NUL */
#define DEFAULT_STRING "Hi DOCA RDMA!"		       /* default -s / -r / -w text */
#define DEFAULT_LOCAL_CONNECTION_DESC_PATH "/tmp/local_connection_desc_path.txt"
#define DEFAULT_REMOTE_CONNECTION_DESC_PATH "/tmp/remote_connection_desc_path.txt"
#define DEFAULT_REMOTE_RESOURCE_CONNECTION_DESC_PATH "/tmp/remote_resource_desc_path.txt"
#define NUM_RDMA_TASKS 1			       /* tasks of each kind a sample submits */
#define SLEEP_IN_NANOS (10 * 1000)		       /* idle wait between two empty progress calls */
#define DEFAULT_RDMA_CM_PORT 13579		       /* -lp default */
#define MAX_NUM_CONNECTIONS 8			       /* -nc maximum */
#define NUM_NEGOTIATION_RDMA_TASKS 1		       /* descriptor send/receive after RDMA-CM connects */
#define SERVER_NAME "Server"
#define CLIENT_NAME "Client"
#define SERVER_ADDR_LEN 128			       /* longest -sa value */
#define MAX_NEGOTIATION_LEN (64 * 1024)		       /* largest descriptor the negotiation carries */
#define EXAMPLE_IMMEDIATE_VALUE 0xABCD		       /* immediate of the *_immediate samples */

/* Configuration filled by the flags */
struct rdma_config {
	char device_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];		     /* -d: IB device name */
	char send_string[MAX_ARG_SIZE];				     /* -s */
	char read_string[MAX_ARG_SIZE];				     /* -r */
	char write_string[MAX_ARG_SIZE];			     /* -w */
	char local_connection_desc_path[MAX_ARG_SIZE];		     /* -ld */
	char remote_connection_desc_path[MAX_ARG_SIZE];		     /* -re */
	char remote_resource_desc_path[MAX_ARG_SIZE];		     /* -m */
	bool is_gid_index_set;					     /* -g given */
	uint32_t gid_index;					     /* -g */
	uint32_t num_connections;				     /* -nc */
	enum doca_rdma_transport_type transport_type;		     /* -tt */
	bool use_rdma_cm;					     /* -cm */
	uint16_t cm_port;					     /* -lp */
	char cm_addr[SERVER_ADDR_LEN + 1];			     /* -sa: non-empty = this side is the client */
	enum doca_rdma_addr_type cm_addr_type;			     /* -sat */
};

struct rdma_resources;

/* A step of a sample, run with its resources; a failure ends the sample. */
typedef doca_error_t (*rdma_step)(struct rdma_resources *resources);

/* What travels over the negotiation once RDMA-CM connected (none in OOB mode) */
enum rdma_negotiation {
	RDMA_NEGOTIATION_NONE,	      /* nothing to exchange */
	RDMA_NEGOTIATION_SEND_DESC,   /* this side sends resources->local_resource_desc to its peer */
	RDMA_NEGOTIATION_RECV_DESC,   /* this side receives the peer's descriptor into remote_resource_desc */
};

/* Everything an RDMA sample holds while it runs */
struct rdma_resources {
	struct rdma_config *cfg;		 /* the flags */
	struct doca_dev *doca_device;		 /* the device opened by IB name */
	struct doca_pe *pe;			 /* progress engine of the RDMA ctx */
	struct doca_mmap *mmap;			 /* local memory (mmap_memrange) */
	char *mmap_memrange;			 /* MEM_RANGE_LEN bytes, zeroed */
	struct doca_mmap *remote_mmap;		 /* the peer's memory, from its exported descriptor */
	struct doca_sync_event_remote_net *remote_se; /* the peer's sync event, from its descriptor */
	struct doca_sync_event *sync_event;	 /* local sync event exported to the peer (responder) */
	struct doca_buf_inventory *buf_inventory; /* created by samples that use doca_bufs */
	struct doca_rdma *rdma;			 /* the RDMA context */
	struct doca_ctx *rdma_ctx;		 /* ... as a doca_ctx */

	struct doca_rdma_connection *connections[MAX_NUM_CONNECTIONS]; /* one per connection */
	bool connection_up[MAX_NUM_CONNECTIONS];		       /* established and not yet disconnected */
	uint32_t num_expected_connections;			       /* connections this side waits for */
	uint32_t num_established_connections;			       /* connected so far */
	uint32_t num_requested_connections;			       /* RDMA-CM requests seen (server) */
	bool log_connections;					       /* log each connection (multi-conn) */

	const void *rdma_conn_descriptor;	   /* local connection descriptor (doca_rdma_export) */
	size_t rdma_conn_descriptor_size;
	void *remote_rdma_conn_descriptor;	   /* the peer's, read from -re */
	size_t remote_rdma_conn_descriptor_size;
	const void *local_resource_desc;	   /* exported mmap or sync event (responders) */
	size_t local_resource_desc_size;
	void *remote_resource_desc;		   /* the peer's mmap or sync-event descriptor */
	size_t remote_resource_desc_size;

	bool run_pe_progress;		      /* the main loop progresses the PE while true */
	size_t num_remaining_tasks;	      /* submitted tasks not yet completed */
	doca_error_t first_encountered_error; /* first failure, reported when the sample ends */
	bool stop_requested;		      /* doca_ctx_stop was called */

	/* RDMA-CM */
	struct doca_rdma_addr *cm_addr;	      /* the server address (client side) */
	bool listening;			      /* server: listening on cfg->cm_port */
	enum rdma_negotiation negotiation;    /* what the negotiation carries */
	struct doca_mmap *negotiation_mmap;   /* memory of the negotiation message */
	char *negotiation_memrange;	      /* MAX_NEGOTIATION_LEN bytes */
	struct doca_buf_inventory *negotiation_inventory;

	/* The sample's steps */
	rdma_step before_connect;	      /* ctx RUNNING, before any connection (may be NULL) */
	rdma_step oob_connect;		      /* OOB: export, files, Enter, connect */
	rdma_step on_connected;		      /* connected (and negotiated): the sample's work */
	void *sample_data;		      /* anything the sample keeps for its callbacks */
};

/* Flags shared by every RDMA sample: -d, -ld, -re, -m, -g, -tt, -cm, -lp, -sa, -sat. */
doca_error_t register_rdma_common_params(void);
/* -s/--send-string */
doca_error_t register_rdma_send_string_param(void);
/* -r/--read-string */
doca_error_t register_rdma_read_string_param(void);
/* -w/--write-string */
doca_error_t register_rdma_write_string_param(void);
/* -nc/--num-connections */
doca_error_t register_rdma_num_connections_param(void);

/* Defaults of every flag. */
void set_default_config_value(struct rdma_config *cfg);

/*
 * Open the device cfg->device_name that passes func (may be NULL; the first device passing
 * func if the name is empty), allocate MEM_RANGE_LEN zeroed bytes, create the local mmap with
 * mmap_permissions, a PE and the RDMA context with rdma_permissions, the gid index (if set),
 * cfg->num_connections connections and the transport type, connected to the PE.
 */
doca_error_t allocate_rdma_resources(struct rdma_config *cfg, uint32_t mmap_permissions, uint32_t rdma_permissions,
				     tasks_check func, struct rdma_resources *resources);

/*
 * Stop the ctx if it is not IDLE, then destroy everything allocate_rdma_resources and the
 * sample made, and delete the three descriptor files. Returns the first error.
 */
doca_error_t destroy_rdma_resources(struct rdma_resources *resources, struct rdma_config *cfg);

/* Write size bytes to path; IO_FAILED if the file already exists. */
doca_error_t write_file(const char *path, const char *data, size_t size);
/* Read the whole file at path into a malloc'ed buffer (*data, *size). */
doca_error_t read_file(const char *path, char **data, size_t *size);
/* Remove path if it exists. */
void delete_file(const char *path);
/* Block until Enter is pressed (or stdin ends). */
void wait_for_enter(void);

/*
 * The sample's run: connect the state callback (and, with -cm, the RDMA-CM callbacks and the
 * negotiation tasks), start the ctx, progress the PE until the ctx is IDLE again, and return
 * the first error the sample met.
 */
doca_error_t rdma_sample_run(struct rdma_resources *resources);

/* Record err (the first one wins), then stop the ctx. */
void rdma_fail(struct rdma_resources *resources, doca_error_t err);

/* Stop the ctx once (RDMA-CM connections are disconnected first). */
void rdma_stop(struct rdma_resources *resources);

/* One task completed: when none remains, stop the ctx. */
void rdma_task_done(struct rdma_resources *resources);

/*
 * OOB helpers for the samples' oob_connect steps: export a connection (into
 * resources->connections[index]) and write its descriptor to -ld (skipped with DC when
 * write_local is false); read the peer's descriptor from -re and connect connections[index].
 */
doca_error_t rdma_export_connection(struct rdma_resources *resources, uint32_t index, bool write_local);
doca_error_t rdma_connect_connection(struct rdma_resources *resources, uint32_t index);

/* Read the peer's resource descriptor (-m) into resources->remote_resource_desc. */
doca_error_t rdma_read_remote_resource(struct rdma_resources *resources);

/* Write resources->local_resource_desc to the -m file. */
doca_error_t rdma_write_local_resource(struct rdma_resources *resources);

/* Create resources->remote_mmap from resources->remote_resource_desc. */
doca_error_t rdma_import_remote_mmap(struct rdma_resources *resources);

/* Create and start resources->buf_inventory (INVENTORY_NUM_INITIAL_ELEMENTS bufs). */
doca_error_t rdma_create_inventory(struct rdma_resources *resources);

/*
 * Check that the len bytes at data hold a C string of at most MAX_USER_ARG_SIZE characters
 * (a NUL before the end, or the end of the data); *str_len is its length.
 */
doca_error_t check_received_string(const char *data, size_t len, size_t *str_len);

/* Export the local mmap for RDMA into resources->local_resource_desc (responders). */
doca_error_t rdma_export_local_mmap(struct rdma_resources *resources);

/*
 * OOB connection of a responder (read, write, write immediate, sync event): export, write the
 * local connection descriptor (-ld) and the resource descriptor (-m), then (RC only) wait for
 * Enter and connect with the requester's descriptor (-re).
 */
doca_error_t rdma_responder_export_and_connect(struct rdma_resources *resources);

/*
 * OOB connection of a requester: export, write the local connection descriptor (RC only),
 * wait for Enter, connect with the responder's descriptor (-re) and read its resource
 * descriptor (-m).
 */
doca_error_t rdma_requester_export_and_connect(struct rdma_resources *resources);

/*
 * Capability checks in the shape open_doca_device_* take (tasks_check): can the device run
 * this RDMA task?
 */
doca_error_t rdma_task_send_supported(struct doca_devinfo *devinfo);
doca_error_t rdma_task_send_imm_supported(struct doca_devinfo *devinfo);
doca_error_t rdma_task_receive_supported(struct doca_devinfo *devinfo);
doca_error_t rdma_task_read_supported(struct doca_devinfo *devinfo);
doca_error_t rdma_task_write_supported(struct doca_devinfo *devinfo);
doca_error_t rdma_task_write_imm_supported(struct doca_devinfo *devinfo);

/* ---- Plumbing every sample shares (main, set-up/teardown, task bookkeeping) ---- */

/*
 * The main of every RDMA sample: the common flags plus the rdma_sample_params in params, defaults,
 * then sample(cfg); run_error is logged as "<run_error>: <error>" when it fails.
 */
enum rdma_sample_params {
	RDMA_PARAM_SEND_STRING = 1 << 0,     /* -s */
	RDMA_PARAM_READ_STRING = 1 << 1,     /* -r */
	RDMA_PARAM_WRITE_STRING = 1 << 2,    /* -w */
	RDMA_PARAM_NUM_CONNECTIONS = 1 << 3, /* -nc */
};
int rdma_sample_main(int argc, char **argv, doca_error_t (*sample)(struct rdma_config *cfg), unsigned int params,
		     const char *run_error);

/* allocate_rdma_resources, logging "Failed to allocate RDMA resources" on failure. */
doca_error_t rdma_sample_allocate(struct rdma_config *cfg, uint32_t mmap_permissions, uint32_t rdma_permissions,
				  tasks_check func, struct rdma_resources *resources);

/* destroy_rdma_resources (logging its failure); returns result, or the teardown's error. */
doca_error_t rdma_sample_finish(struct rdma_resources *resources, doca_error_t result);

/* A step with nothing to do (a receiver waits for its posted tasks to complete). */
doca_error_t rdma_step_wait(struct rdma_resources *resources);

/* Free a finished task and release its bufs (either may be NULL), then rdma_task_done. */
void rdma_task_release(struct rdma_resources *resources, struct doca_task *task, struct doca_buf *buf1,
		       struct doca_buf *buf2);

/* A task failed: log "<task_name> failed: <status>", record the status, then rdma_task_release. */
void rdma_task_failed(struct rdma_resources *resources, struct doca_task *task, const char *task_name,
		      struct doca_buf *buf1, struct doca_buf *buf2);

/*
 * Submit task, counted in num_remaining_tasks; on failure log "Failed to submit <task_name>",
 * free the task and release its bufs (either may be NULL).
 */
doca_error_t rdma_submit_task(struct rdma_resources *resources, struct doca_task *task, const char *task_name,
			      struct doca_buf *buf1, struct doca_buf *buf2);

/*
 * A doca_buf over [addr, addr + len) of mmap from resources->buf_inventory, holding data
 * (with_data) or empty; logs "... representing <role> buffer" on failure.
 */
doca_error_t rdma_get_buf(struct rdma_resources *resources, struct doca_mmap *mmap, void *addr, size_t len,
			  bool with_data, const char *role, struct doca_buf **buf);

/* Import the peer's mmap (rdma_import_remote_mmap) and get its memory range. */
doca_error_t rdma_remote_memrange(struct rdma_resources *resources, void **addr, size_t *len);

/* The string a receive put into buf: its data and length (check_received_string). */
doca_error_t rdma_received_string(struct doca_buf *buf, void **data, size_t *str_len);

/*
 * OOB connection of a single-connection receiver: export and write -ld, then (RC only) wait
 * for Enter and connect with the sender's -re. Of a sender: export (write -ld with RC only),
 * wait for Enter and connect with the receiver's -re.
 */
doca_error_t rdma_receiver_export_and_connect(struct rdma_resources *resources);
doca_error_t rdma_sender_export_and_connect(struct rdma_resources *resources);

/*
 * OOB connection of the multi-connection samples: one export / descriptor exchange / connect
 * round per connection (-nc), as a receiver or a sender would make it.
 */
doca_error_t rdma_multi_conn_export_and_connect(struct rdma_resources *resources, bool sender);

/* The first connection (single-connection samples). */
static inline struct doca_rdma_connection *rdma_connection(struct rdma_resources *resources)
{
	return resources->connections[0];
}

#endif /* RDMA_COMMON_H_ */
