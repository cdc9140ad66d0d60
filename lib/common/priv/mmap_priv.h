/* SPDX-License-Identifier: BSD-3-Clause */
/* Layout of doca_mmap shared by the softdoca libraries (private). */
#ifndef SOFTDOCA_MMAP_PRIV_H
#define SOFTDOCA_MMAP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_mmap.h"
#include "doca_types.h"

#define SOFTDOCA_MMAP_DEFAULT_MAX_DEVS 16

struct doca_dev;
struct softhw_mem_remote;

/*
 * Liveness shared by an export and its imports in the same process: the exporter's stop or
 * destroy ends its descriptors, and an import must not reach the memory afterwards (the
 * exporter may free it). Imports from another process learn this through the fabric instead.
 */
struct softdoca_mmap_link {
	uint32_t refs; /* the export + each same-process import; under mmap.c's registry lock */
	int live;      /* atomic: 1 until the exporter stops */
};

struct doca_mmap {
	void *addr;
	size_t len;
	bool range_set;
	uint32_t access;            /* enum doca_access_flag mask; LOCAL_READ_WRITE by default */
	bool started;
	bool exported;
	bool from_export;
	bool export_kind_pci;       /* imported: came from export_pci (else export_rdma) */
	bool thread_safe;
	uint32_t num_bufs;          /* doca_bufs pointing into this mmap */
	uint32_t max_devs;
	uint32_t num_devs;
	struct doca_dev **devs;
	union doca_data user_data;
	doca_mmap_memrange_free_cb_t *free_cb;
	void *free_cb_opaque;
	void *export_pci_desc;      /* owned descriptors, freed on stop */
	size_t export_pci_len;
	void *export_rdma_desc;
	size_t export_rdma_len;
	/* imported mmaps: who exported the memory */
	int32_t exporter_pid;
	uint64_t export_id;
	uint64_t export_token;              /* with export_id: the "rkey" RDMA targets check */
	bool other_process;                 /* exported by another process ... */
	struct softhw_mem_remote *remote;   /* ... and reached through the fabric (PCI exports) */
	struct softdoca_mmap_link *link;    /* same-process import: ends when the exporter stops */
	/* bookkeeping private to mmap.c / buf_pool.c / buf_array.c */
	bool was_started;             /* free_cb runs on destroy only if the range was ever in use */
	uint32_t num_holders;         /* started buf pools / buf arrays carved from this mmap */
	struct softdoca_mmap_export *exports; /* every descriptor handed out; freed on stop */
	uint32_t *dpa_handles;        /* per devs[i]: its DPA handle, 0 for none; released on stop */
};

/*
 * An imported mmap (from_export) is created started: bufs may point into it at once, and
 * doca_mmap_stop() ends that. A local mmap is started by doca_mmap_start().
 */

/* Bufs pointing into the mmap: plain counting unless doca_mmap_enable_thread_safety(). */
static inline void softdoca_mmap_bufs_add(struct doca_mmap *m, uint32_t n)
{
	if (m->thread_safe)
		__atomic_fetch_add(&m->num_bufs, n, __ATOMIC_RELAXED);
	else
		m->num_bufs += n;
}

static inline void softdoca_mmap_bufs_sub(struct doca_mmap *m, uint32_t n)
{
	if (m->thread_safe)
		__atomic_fetch_sub(&m->num_bufs, n, __ATOMIC_RELAXED);
	else
		m->num_bufs -= n;
}

/* False once an imported mmap's memory stopped being exported (same-process imports). */
static inline bool softdoca_mmap_import_live(const struct doca_mmap *m)
{
	return m->link == NULL || __atomic_load_n(&m->link->live, __ATOMIC_ACQUIRE);
}

/* Is [addr, addr+len) inside the mmap's range? Overflow-safe. */
static inline bool softdoca_mmap_contains(const struct doca_mmap *m, const void *addr, size_t len)
{
	uintptr_t a = (uintptr_t)addr, base = (uintptr_t)m->addr;

	return a >= base && len <= m->len && a - base <= m->len - len;
}

/* Can memory of this mmap be read / written through a local (same-side) engine? */
static inline bool softdoca_mmap_local_readable(const struct doca_mmap *m)
{
	if (m->from_export)
		return (m->access & (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)) != 0;
	return true;
}

static inline bool softdoca_mmap_local_writable(const struct doca_mmap *m)
{
	if (m->from_export)
		return (m->access & DOCA_ACCESS_FLAG_PCI_READ_WRITE) != 0;
	/* The device writes local memory through PCI too: PCI_READ_WRITE grants it, as on DOCA. */
	return (m->access & (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE)) != 0;
}

#endif /* SOFTDOCA_MMAP_PRIV_H */
