/* SPDX-License-Identifier: BSD-3-Clause */
/* Code shared by softdoca's DMA samples: flags, the DMA context and its callbacks. */
#ifndef DMA_COMMON_H_
#define DMA_COMMON_H_

#include <stdbool.h>
#include <stddef.h>

#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>

#include "common.h"

#define MAX_USER_ARG_SIZE 256			 /* longest path a user may give */
#define MAX_ARG_SIZE (MAX_USER_ARG_SIZE + 1)	 /* ... with its NUL */
#define MAX_USER_TXT_SIZE 4096			 /* longest text a user may give */
#define MAX_TXT_SIZE (MAX_USER_TXT_SIZE + 1)	 /* ... with its NUL */
#define NUM_DMA_TASKS 1				 /* every DMA sample runs one memcpy task */

/* Configuration filled by the flags */
struct dma_config {
	char pci_address[DOCA_DEVINFO_PCI_ADDR_SIZE]; /* device to use */
	char cpy_txt[MAX_TXT_SIZE];		      /* text to copy */
	char export_desc_path[MAX_ARG_SIZE];	      /* exported mmap descriptor file (remote samples) */
	char buf_info_path[MAX_ARG_SIZE];	      /* buffer address/length file (remote samples) */
	int num_src_buf;			      /* doca_bufs in the source list */
	int num_dst_buf;			      /* doca_bufs in the destination list */
};

/* Everything a DMA sample holds while it runs */
struct dma_resources {
	struct program_core_objects state; /* device, mmaps, inventory, PE; state.ctx is the DMA ctx */
	struct doca_dma *dma_ctx;	   /* the DMA context */
	size_t num_remaining_tasks;	   /* submitted tasks not yet completed */
	bool run_pe_progress;		   /* progress the PE until the ctx is back to IDLE */
};

/* Register -p, -t (always), -d, -b (is_remote) and, in DPU builds, -ns and -nd. */
doca_error_t register_dma_params(bool is_remote);

/*
 * Open the device at pcie_addr (it must support DMA memcpy with lists of num_buf elements),
 * create the core objects with an inventory of num_buf bufs and a DMA context with one
 * memcpy task. Its callbacks stop the ctx once every task completed.
 */
doca_error_t allocate_dma_resources(const char *pcie_addr, int num_buf, struct dma_resources *resources);

/* Destroy the DMA context (it must be IDLE), the core objects, and close the device. */
doca_error_t destroy_dma_resources(struct dma_resources *resources);

/* allocate_dma_resources, then connect the ctx to the PE and start it; nothing is left on failure. */
doca_error_t start_dma_resources(const char *pcie_addr, int num_buf, struct dma_resources *resources);

/*
 * Submit one memcpy task from src to dst and progress the PE until the ctx is IDLE again.
 * Returns whether the task could be submitted; *task_result is how the task ended.
 */
doca_error_t dma_memcpy_and_wait(struct dma_resources *resources, struct doca_buf *src, struct doca_buf *dst,
				 doca_error_t *task_result);

/* Release both buf lists (NULL ones are skipped); returns result, or the first release error. */
doca_error_t release_dma_buf_lists(struct doca_buf *src, struct doca_buf *dst, doca_error_t result);

/* Stop the ctx and undo start_dma_resources; returns result, or the first teardown error. */
doca_error_t stop_dma_resources(struct dma_resources *resources, doca_error_t result);

/*
 * Host side of the remote pair: open the device at pcie_addr (it must support DMA memcpy) and
 * create state->src_mmap with the device added. Nothing else: the DPU does the copy.
 */
doca_error_t allocate_dma_host_resources(const char *pcie_addr, struct program_core_objects *state);

/* Destroy what allocate_dma_host_resources made. */
doca_error_t destroy_dma_host_resources(struct program_core_objects *state);

/* Capability check: can this device run DMA memcpy tasks? */
doca_error_t dma_task_is_supported(struct doca_devinfo *devinfo);

#endif /* DMA_COMMON_H_ */
