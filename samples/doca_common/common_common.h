/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by softdoca's sync-event PCIe samples (sync_event_local_pci on the host,
 * sync_event_remote_pci on the DPU): their flags, the sync event in synchronous or
 * asynchronous (context + tasks) mode, and the Comch channel that carries the exported event
 * from the host to the DPU. Same flags as DOCA's samples.
 */
#ifndef COMMON_COMMON_H_
#define COMMON_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#define SYNC_EVENT_CC_SERVICE_NAME "sync_event_cc" /* Comch server the two samples meet at */
#define SYNC_EVENT_CC_MAX_MSG_SIZE 1024		    /* room for an exported sync event */
#define SYNC_EVENT_TIMEOUT_SEC 30		    /* longest wait for the other side */
#define SYNC_EVENT_DEFAULT_NUM_TASKS 4		    /* --async-num-tasks when not given */

struct sync_event_config {
	char dev_pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE];	    /* -d: the device */
	char rep_pci_addr[DOCA_DEVINFO_REP_PCI_ADDR_SIZE]; /* -r: the host's representor (DPU only) */
	bool is_async_mode;				    /* --async: context and tasks */
	int async_num_tasks;				    /* --async-num-tasks */
	bool is_update_atomic;				    /* --atomic: add rather than set */
};

struct sync_event_runtime_objects {
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_sync_event *se;
	struct doca_ctx *se_ctx;	     /* asynchronous mode */
	struct doca_pe *se_pe;
	doca_error_t se_task_result;	     /* IN_PROGRESS until the task submitted last completes */
	struct doca_comch_server *server;    /* DPU side */
	struct doca_comch_client *client;    /* host side */
	struct doca_pe *comch_pe;
	struct doca_comch_connection *conn;  /* the peer */
	doca_error_t comch_result;	     /* IN_PROGRESS until the message sent last completes */
	uint8_t blob[SYNC_EVENT_CC_MAX_MSG_SIZE]; /* what the DPU received */
	size_t blob_sz;
	bool blob_received;
	bool peer_gone;			     /* the other side disconnected */
};

/* -d/--pci-addr, -r/--rep-pci (DPU build), --async, --async-num-tasks, --atomic */
doca_error_t sync_event_params_register(void);

/* Checks the configuration against the device (asynchronous mode needs the task capabilities). */
doca_error_t sync_event_config_validate(const struct sync_event_config *se_cfg,
					const struct sync_event_runtime_objects *se_rt_objs);

/* Turns se_rt_objs->se into a context on its own PE, with every task type configured, and starts it. */
doca_error_t sync_event_start_async(const struct sync_event_config *se_cfg, struct sync_event_runtime_objects *se_rt_objs);

/* Submits a sync event task and waits (asleep on the PE's notification) until it completes. */
doca_error_t sync_event_async_task_submit(struct sync_event_runtime_objects *se_rt_objs, struct doca_task *task);

/* DPU: starts the Comch server and waits for the host's exported sync event (blob, blob_sz). */
doca_error_t sync_event_cc_server_recv_blob(struct sync_event_runtime_objects *se_rt_objs);

/* Host: connects the Comch client to the DPU's server. */
doca_error_t sync_event_cc_client_connect(struct sync_event_runtime_objects *se_rt_objs);

/* Host: sends blob to the DPU and waits until it is sent. */
doca_error_t sync_event_cc_client_send(struct sync_event_runtime_objects *se_rt_objs, const uint8_t *blob, size_t sz);

/* Destroys whatever exists of se_rt_objs (contexts stopped first), closes the devices. */
void sync_event_tear_down(struct sync_event_runtime_objects *se_rt_objs);

/* Each sample's own logic (sync_event_local_pci_sample.c, sync_event_remote_pci_sample.c). */
doca_error_t sync_event_run(const struct sync_event_config *se_cfg, struct sync_event_runtime_objects *se_rt_objs);

/* The main() of both samples: their flags, then sync_event_run. Returns the exit status. */
int sync_event_sample_main(int argc, char **argv);

#endif /* COMMON_COMMON_H_ */
