/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_mmap_advise.h, written from the DOCA 3.0 interface facts.
 *
 * doca_mmap_advise is a context whose one task type invalidates the CPU cache lines that hold
 * a doca_buf's memory, so that data a device wrote there is read from memory.
 */
#ifndef SOFTDOCA_DOCA_MMAP_ADVISE_H
#define SOFTDOCA_DOCA_MMAP_ADVISE_H

#include <stddef.h>
#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_mmap_advise;
struct doca_mmap_advise_task_invalidate_cache;

typedef void (*doca_mmap_advise_task_invalidate_cache_completion_cb_t)(
	struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_user_data,
	union doca_data ctx_user_data);

/* functions */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise);
DOCA_EXPERIMENTAL struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo,
										     uint64_t *buf_size);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
	struct doca_mmap_advise *mmap_advise, doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(
	struct doca_mmap_advise *mmap_advise, struct doca_buf *buf, union doca_data user_data,
	struct doca_mmap_advise_task_invalidate_cache **task);
DOCA_EXPERIMENTAL struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(
	struct doca_mmap_advise_task_invalidate_cache *task);
DOCA_EXPERIMENTAL void doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
								      struct doca_buf *buf);
DOCA_EXPERIMENTAL struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(
	const struct doca_mmap_advise_task_invalidate_cache *task);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_MMAP_ADVISE_H */
