/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_buf_inventory.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_BUF_INVENTORY_H
#define SOFTDOCA_DOCA_BUF_INVENTORY_H

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
struct doca_buf_inventory;
struct doca_mmap;

/* functions */
DOCA_STABLE doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory, struct doca_mmap *mmap, void *addr, size_t len, void *data, size_t data_len, struct doca_buf **buf);
DOCA_STABLE doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory, const struct doca_buf *src_buf, struct doca_buf **dst_buf);
DOCA_STABLE doca_error_t doca_buf_inventory_set_user_data(struct doca_buf_inventory *inventory, union doca_data user_data);
DOCA_STABLE doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory, uint32_t *num_of_elements);
DOCA_STABLE doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory, uint32_t *num_of_free_elements);
DOCA_STABLE doca_error_t doca_buf_inventory_get_user_data(const struct doca_buf_inventory *inventory, union doca_data *user_data);
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_expand(struct doca_buf_inventory *inventory, uint32_t num_elements);
/*
 * DOCA 3.1+ (NVIDIA's 3.3 storage application calls the _by_data and _by_addr forms): point a
 * buf taken from an inventory at another region of the same mmap, keeping the descriptor
 * (no release and get). The prototypes are [inferred] from their use; softdoca exports all three.
 */
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_buf_reuse_by_args(struct doca_buf *buf, void *addr, size_t len, void *data,
								    size_t data_len);
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len);
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len);
/* Region [addr, addr+len) with an empty data segment at addr: the usual destination buffer. */
static inline doca_error_t doca_buf_inventory_buf_get_by_addr(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
							      void *addr, size_t len, struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, addr, len, addr, 0, buf);
}
/* The whole region [data, data+data_len) is data: the usual source buffer. */
static inline doca_error_t doca_buf_inventory_buf_get_by_data(struct doca_buf_inventory *inventory, struct doca_mmap *mmap,
							      void *data, size_t data_len, struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, data, data_len, data, data_len, buf);
}

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_BUF_INVENTORY_H */
