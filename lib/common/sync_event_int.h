/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sync_event internals shared by sync_event*.c (private to libdoca_common).
 *
 * An event is a handle on a 64-bit value, a "cell" of softhw (softhw/fabric/value.h): the
 * user's memory (set_addr / set_doca_buf), storage of the cell itself, or — for an event with
 * a remote PCI location — a shared segment of the run directory that the other side of the
 * card maps too. Every handle on one value shares one cell, and an update through any of them
 * wakes the waiters of all of them, including the PEs of running sync-event contexts.
 */
#ifndef SOFTDOCA_SYNC_EVENT_INT_H
#define SOFTDOCA_SYNC_EVENT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "doca_sync_event.h"
#include "common/priv/ctx_priv.h"
#include "softhw/fabric/value.h"

/* Publisher / subscriber locations, as bits. */
enum {
	SE_LOC_CPU = 1u << 0,
	SE_LOC_DPA = 1u << 1,
	SE_LOC_GPU = 1u << 2,
	SE_LOC_REMOTE_PCI = 1u << 3,
	SE_LOC_REMOTE_NET = 1u << 4,
	SE_LOC_ALL = (1u << 5) - 1,
};

struct softdoca_se_export;

struct doca_sync_event {
	struct doca_ctx ctx;               /* first: doca_sync_event_as_ctx and the ctx ops use it */
	bool is_ctx;                       /* converted by doca_sync_event_as_ctx: ctx use only */
	bool started;                      /* started stand-alone (doca_sync_event_start) */
	bool imported;                     /* from doca_sync_event_create_from_export */
	bool active;                       /* atomic: the value may be used (started or ctx running) */
	uint32_t pub;                      /* SE_LOC_* bits */
	uint32_t sub;
	struct doca_dev *dev;              /* CPU location's device, or the importing device */
	uint64_t *user_addr;               /* set_addr / set_doca_buf memory; NULL: cell storage */
	struct softhw_value *cell;         /* bound at start (at creation for imports) */
	struct softhw_value_watcher watcher; /* in the value's watcher list while the ctx runs */
	struct softdoca_se_export *exports; /* descriptors handed out; freed on destroy */
};

static inline bool softdoca_se_is_active(const struct doca_sync_event *ev)
{
	return __atomic_load_n(&ev->active, __ATOMIC_ACQUIRE);
}

/* ---- lifecycle (sync_event.c, sync_event_task.c) ---- */

/* Sets up the embedded context (device-less, synchronous start). */
void softdoca_se_ctx_init(struct doca_sync_event *ev);
/* Binds the event to the cell of its backing memory; logs and fails only when out of memory. */
doca_error_t softdoca_se_bind(struct doca_sync_event *ev);

/* ---- descriptors (sync_event_export.c) ---- */

void softdoca_se_exports_free(struct doca_sync_event *ev);

#endif /* SOFTDOCA_SYNC_EVENT_INT_H */
