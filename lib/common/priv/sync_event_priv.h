/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Layout of doca_sync_event_remote_net shared by the softdoca libraries (private): an imported
 * handle on another event's value, used by RDMA remote-sync-event tasks. It names
 * the exporter and the value's address there; it never touches the memory itself.
 */
#ifndef SOFTDOCA_SYNC_EVENT_PRIV_H
#define SOFTDOCA_SYNC_EVENT_PRIV_H

#include <stdint.h>

#include "doca_sync_event.h"

#define SOFTDOCA_SE_NAME_LEN 64

struct doca_sync_event_remote_net {
	struct doca_dev *dev;              /* the importing device */
	int32_t exporter_pid;              /* process that owns the value */
	uint64_t value_id;                 /* the value's identity in the exporter */
	uint64_t value_addr;               /* address of the 64-bit value in the exporter */
	uint64_t token;                    /* its shared segment's token; 0: not shared (export.c) */
	char card[SOFTDOCA_SE_NAME_LEN];   /* card and instance the exporter ran on */
	char instance[SOFTDOCA_SE_NAME_LEN];
	void *local;                       /* exporter in this process: its value's cell, kept alive */
};

#endif /* SOFTDOCA_SYNC_EVENT_PRIV_H */
