/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw fabric shared windows: exported memory that importers on the same host reach with
 * plain loads, stores and atomics, as a NIC reaches host memory without the owner's CPU.
 *
 * Cross-memory attach costs a system call per access. When an export holds whole pages of
 * private anonymous memory (malloc, anonymous mmap), the exporter moves those pages onto a
 * memfd once, when it exports: same addresses, same contents, now MAP_SHARED. Importers get
 * the memfd (SCM_RIGHTS, mem.c), map it, and copy with memcpy. Bytes of the export outside
 * the window (partial first and last pages) stay on cross-memory attach. An importer holds
 * the whole memfd, so a window holds exactly the pages of its exports' range: an export of
 * fewer pages inside a window gets none. Importers of a read-only export get a read-only fd,
 * and the memfd's mode (0400) keeps other users from opening it for writing through /proc (a
 * process of the same user owns it, and could fchmod it: the read-only fd keeps softdoca's own
 * importer to the export's rights, not a hostile process of that user). Windows go to the
 * exporter's own user only (mem.c).
 *
 * The move copies the pages and swaps the copy in with one mremap(); a store by another
 * thread in between would be lost. So it is done only when no thread but the caller and
 * softdoca's own runs (threads.h), no other process runs on our memory (clone(CLONE_VM)), and
 * the kernel completes no I/O into it (no io_uring instance, no AIO context), with the
 * caller's signals blocked, under the export lock (softdoca's threads store into exports only
 * under it) and the store lock (their stores into other application memory:
 * softhw_share_store_begin), and never over memory that a live export without a window covers
 * (an importer may be writing there by cross-memory attach). Otherwise the export simply has
 * no window. When the last export of a window ends, its pages become private again under the
 * same conditions (else they stay shared, listed until they are unmapped). Windows are
 * MADV_DONTFORK: a fork() child gets private copies in the first atfork child handler
 * (registered by a constructor, before any other), so that parent and child do not share their
 * heaps, and a _Fork() child, which runs no handler, gets none; the prepare handler, the last,
 * waits for service threads' stores and records the windows' mappings for the child.
 *
 * Liveness without a system call on the data path: each exporter has a control segment with
 *  - a robust mutex that its memory service thread holds for life: the kernel marks it
 *    owner-died when the process ends, and importers read that (CONNECTION_ABORTED);
 *  - a slot per shared export: the export's id while it is live, 0 once it ended, and the
 *    number of importer accesses in progress, which the end of the export waits out, so that
 *    no store lands once doca_mmap_stop() / destroy has returned (IO_FAILED afterwards);
 *  - announcement words for views whose accesses one caller serialises (the soft NIC's, under
 *    its qp lock): such an access stores 1 in its own word, looks at the slot, and stores 0
 *    when done, with no atomic read-modify-write (two of them, about 8 ns each, were a fifth
 *    of a same-host RDMA task). The end of the export makes those stores visible with
 *    membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) after it clears the slot, then waits for the
 *    words of that slot as for the count. Views count where the kernel lacks it, in a fork
 *    child (whose parent's views are marked in a MADV_WIPEONFORK page), and once live
 *    importers hold all 256 of the exporter's words (a word names its claimer's pid: one whose
 *    process is gone and reaped goes to the next importer that finds none free). If
 *    membarrier() fails at the end of an export, its pages stay shared, so that no store is
 *    lost.
 */
#ifndef SOFTHW_FABRIC_SHARE_H
#define SOFTHW_FABRIC_SHARE_H

#include <stdbool.h>
#include <stdint.h>

#include "doca_error.h"

/* ---- exporter side (mem.c calls these under its export lock) ---- */

struct softhw_share_region;

struct softhw_share_grant {
	struct softhw_share_region *region;
	void *base;      /* the window: whole pages inside the export */
	uint64_t len;
	int fd;          /* memfd holding them (owned by the share registry) */
	uint64_t offset; /* of base in the memfd */
	uint32_t slot;   /* liveness slot in the control segment */
};

/*
 * The whole pages of [addr, addr + len) on shared memory, for export `id`: false when the
 * export gets no window (*why says why, for a debug line). `conflict(lo, hi)` says whether a
 * live export without a window overlaps [lo, hi).
 */
bool softhw_share_export(void *addr, uint64_t len, uint64_t id, bool (*conflict)(uint64_t lo, uint64_t hi),
			 struct softhw_share_grant *g, const char **why);

/*
 * A liveness slot alone, for an export without a window (`addr` names it in log lines):
 * importers that reach it by cross-memory attach hold it around each access
 * (softhw_share_view_hold), and softhw_share_unexport waits them out as for a window, so that
 * no process_vm_writev lands once doca_mmap_stop() / destroy has returned. false (*why) when
 * every slot is taken: importers then get no cross-memory attach (mem.c).
 */
bool softhw_share_guard(void *addr, uint64_t id, struct softhw_share_grant *g, const char **why);

/*
 * Ends the window's (or the guard's) liveness slot and waits for importer accesses in progress (bounded). The
 * last export of a region gives its pages back private memory (when no other application
 * thread runs; otherwise they stay shared until a later export or their unmapping).
 */
void softhw_share_unexport(const struct softhw_share_grant *g);

/* The control segment's fd, for importers; -1 before the first window. */
int softhw_share_ctl_fd(void);

/* Called by the memory service thread before it hands out the control segment. */
void softhw_share_hold_owner(void);


/*
 * Around a store by one of softdoca's service threads into application memory outside an
 * export (a posted receive, a read's destination, an atomic's result): a move of pages onto
 * a window never runs in between. No other softhw_* call may be made in between.
 */
void softhw_share_store_begin(void);
void softhw_share_store_end(void);

/* ---- importer side ---- */

struct softhw_share_view;

/*
 * Maps an exporter's window (win_fd at offset, len bytes; -1 and 0 for a guard's slot alone)
 * and control segment. `serialised`:
 * the caller never accesses the view from two threads at once, so each access may be announced
 * with plain stores instead of counted with atomics (where the kernel has membarrier()).
 */
doca_error_t softhw_share_view_open(int win_fd, uint64_t offset, uint64_t len, bool writable, int ctl_fd,
				    uint32_t slot, uint64_t id, bool serialised, struct softhw_share_view **view);
void softhw_share_view_close(struct softhw_share_view *view);

/* Does the view announce its accesses (a serialised view with a word of its own)? For tests. */
bool softhw_share_view_announced(const struct softhw_share_view *view);

/*
 * Copies between local memory and [off, off + len) of the window (the caller checked the
 * range and the right). IO_FAILED: the export ended; CONNECTION_ABORTED: the exporter exited.
 * One access is at most SOFTHW_SHARE_COPY_CHUNK bytes, and each looks at the export again: the
 * end of an export waits out the access in progress (for a bounded time), which a chunk keeps
 * short however long the copy (an RDMA segment may be 2 GiB, seconds into untouched pages). An
 * export that ends during a copy stops it at the next chunk: what landed before stays.
 */
#define SOFTHW_SHARE_COPY_CHUNK (256u << 10)

doca_error_t softhw_share_view_copy(struct softhw_share_view *view, uint64_t off, void *local, uint64_t len,
				    bool write);

/*
 * Around one access to the view's export by another path (cross-memory attach), of at most
 * SOFTHW_SHARE_COPY_CHUNK bytes: the end of the export waits for the release. hold fails as
 * softhw_share_view_copy does (IO_FAILED, CONNECTION_ABORTED), and then needs no release.
 */
doca_error_t softhw_share_view_hold(struct softhw_share_view *view);
void softhw_share_view_release(struct softhw_share_view *view);

/* 8-byte atomic at `off` (8-aligned): fetch-and-add (cmp_swap false) or compare-and-swap. */
doca_error_t softhw_share_view_atomic(struct softhw_share_view *view, uint64_t off, bool cmp_swap, uint64_t arg0,
				      uint64_t arg1, uint64_t *old);

#endif /* SOFTHW_FABRIC_SHARE_H */
