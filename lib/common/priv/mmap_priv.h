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
	/* imported mmaps: who exported the memory (for cross-process access, issue 3) */
	int32_t exporter_pid;
	uint64_t export_id;
};

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
	return (m->access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) != 0;
}

#endif /* SOFTDOCA_MMAP_PRIV_H */
