/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sync_event internals shared by sync_event*.c (private to libdoca_common).
 *
 * An event is a handle on a 64-bit value. The value lives in a "cell": the user's memory
 * (set_addr / set_doca_buf), storage inside the cell itself, or — for an event with a remote
 * PCI location — a shared segment of the run directory that the other side of the card maps
 * too. Cells are process-wide and refcounted, so every handle on one value — two events given
 * the same memory, an event and its imports — shares one cell, and an update through any of
 * them wakes the waiters of all of them: stand-alone waiters asleep on the cell's futex word
 * and the PEs of running sync-event contexts ("watchers"), in this process and the other.
 */
#ifndef SOFTDOCA_SYNC_EVENT_INT_H
#define SOFTDOCA_SYNC_EVENT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "doca_sync_event.h"
#include "common/priv/ctx_priv.h"

/* Publisher / subscriber locations, as bits. */
enum {
	SE_LOC_CPU = 1u << 0,
	SE_LOC_DPA = 1u << 1,
	SE_LOC_GPU = 1u << 2,
	SE_LOC_REMOTE_PCI = 1u << 3,
	SE_LOC_REMOTE_NET = 1u << 4,
	SE_LOC_ALL = (1u << 5) - 1,
};

struct softdoca_se_cell;
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
	struct softdoca_se_cell *cell;     /* bound at start (at creation for imports) */
	struct doca_sync_event *watch_next; /* in the cell's watcher list while the ctx runs */
	struct softdoca_se_export *exports; /* descriptors handed out; freed on destroy */
};

enum softdoca_se_cmp {
	SE_CMP_GT,
	SE_CMP_EQ,
	SE_CMP_NEQ,
};

static inline bool softdoca_se_holds(uint64_t value, enum softdoca_se_cmp cmp, uint64_t want, uint64_t mask)
{
	value &= mask;
	switch (cmp) {
	case SE_CMP_GT:
		return value > want;
	case SE_CMP_EQ:
		return value == want;
	case SE_CMP_NEQ:
		return value != want;
	}
	return false;
}

static inline bool softdoca_se_is_active(const struct doca_sync_event *ev)
{
	return __atomic_load_n(&ev->active, __ATOMIC_ACQUIRE);
}

/* ---- lifecycle (sync_event.c, sync_event_task.c) ---- */

/* Sets up the embedded context (device-less, synchronous start). */
void softdoca_se_ctx_init(struct doca_sync_event *ev);
/* Binds the event to the cell of its backing memory; logs and fails only when out of memory. */
doca_error_t softdoca_se_bind(struct doca_sync_event *ev);

/* ---- cells (sync_event_value.c) ---- */

/*
 * Binds to the cell of `addr` (user memory), creating it if needed; addr NULL makes a new
 * cell with its own storage. NULL when out of memory.
 */
struct softdoca_se_cell *softdoca_se_cell_bind(uint64_t *addr);
/*
 * A new cell whose value (starting at `initial`) lives in a shared segment of the run
 * directory, for the processes of the other side of the card. On failure *why says why.
 */
doca_error_t softdoca_se_cell_create_shared(uint64_t initial, struct softdoca_se_cell **cell, const char **why);
/*
 * Binds to the cell a descriptor of this process names (id, address, token); NULL if it no
 * longer exists or its exporting event was destroyed.
 */
struct softdoca_se_cell *softdoca_se_cell_find(uint64_t id, uint64_t addr, uint64_t token);
/* Why softdoca_se_cell_find() found nothing: which of the descriptor's claims is wrong. */
const char *softdoca_se_cell_why_not(uint64_t id, uint64_t addr, uint64_t token);
/*
 * Binds to the shared cell that process `pid` exported as `id` at `addr` with `token`.
 * NOT_FOUND when that process or its exporting event is gone; INVALID_VALUE when its live
 * value has another token or address (a forged descriptor); *why says which.
 */
doca_error_t softdoca_se_cell_open_shared(int32_t pid, uint64_t id, uint64_t addr, uint64_t token,
					  struct softdoca_se_cell **cell, const char **why);
/* Its exporting event is destroyed: no new imports (a shared cell's segment is unlinked). */
void softdoca_se_cell_retire(struct softdoca_se_cell *cell);
void softdoca_se_cell_unbind(struct softdoca_se_cell *cell);
uint64_t *softdoca_se_cell_addr(const struct softdoca_se_cell *cell);
uint64_t softdoca_se_cell_id(const struct softdoca_se_cell *cell);
/* True if the cell holds its own storage, shared or not (no user memory). */
bool softdoca_se_cell_is_private(const struct softdoca_se_cell *cell);
bool softdoca_se_cell_is_shared(const struct softdoca_se_cell *cell);
/* The token that proves a descriptor names this shared cell; 0 for a cell that is not shared. */
uint64_t softdoca_se_cell_token(const struct softdoca_se_cell *cell);

/* A running sync-event context: its PE is woken by every change of the value. */
void softdoca_se_cell_watch(struct softdoca_se_cell *cell, struct doca_sync_event *ev);
void softdoca_se_cell_unwatch(struct softdoca_se_cell *cell, struct doca_sync_event *ev);
/*
 * A PE watching the cell armed its notification: make sure the other process's next update
 * wakes it. Returns true when it cannot (the PE must then be polled).
 */
bool softdoca_se_cell_arm(struct softdoca_se_cell *cell);

uint64_t softdoca_se_cell_load(const struct softdoca_se_cell *cell);
/* Load for a poller that armed a wake-up just before (a PE's notification): no lost wake-up. */
uint64_t softdoca_se_cell_poll(struct softdoca_se_cell *cell);
void softdoca_se_cell_store(struct softdoca_se_cell *cell, uint64_t value);
uint64_t softdoca_se_cell_fetch_add(struct softdoca_se_cell *cell, uint64_t value);
/*
 * Blocks until the condition holds: spins briefly, then yields, then sleeps on the cell's
 * futex word with timeouts growing to 1 ms for user memory (the timeout catches writes that
 * bypass the API), to 100 ms for a value the cell holds (every write wakes the sleepers).
 */
void softdoca_se_cell_wait(struct softdoca_se_cell *cell, enum softdoca_se_cmp cmp, uint64_t want, uint64_t mask,
			   bool yield);

/* ---- descriptors (sync_event_export.c) ---- */

void softdoca_se_exports_free(struct doca_sync_event *ev);

#endif /* SOFTDOCA_SYNC_EVENT_INT_H */
