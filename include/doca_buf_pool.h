/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_buf_pool.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_BUF_POOL_H
#define SOFTDOCA_DOCA_BUF_POOL_H

#include <stddef.h>
#include <stdint.h>
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_buf;
struct doca_buf_pool;
struct doca_mmap;

/* functions */
DOCA_STABLE doca_error_t doca_buf_pool_create(size_t num_elements, size_t element_size, const struct doca_mmap *mmap, struct doca_buf_pool **buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf);
DOCA_STABLE doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data);
DOCA_STABLE doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment);
DOCA_STABLE doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements);
DOCA_STABLE doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_free_elements);
DOCA_STABLE doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data);
DOCA_STABLE doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool, size_t *element_alignment);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_BUF_POOL_H */
