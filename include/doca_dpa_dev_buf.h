/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_dpa_dev_buf.h — buffers and mmaps seen from the DPA.
 * Device code only: compiled by dpacc (docs/dpa.md).
 */
#ifndef SOFTDOCA_DOCA_DPA_DEV_BUF_H
#define SOFTDOCA_DOCA_DPA_DEV_BUF_H

#include "doca_dpa_dev.h"

#ifdef __cplusplus
extern "C" {
#endif

__dpa_global__ typedef uint32_t doca_dpa_dev_mmap_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_buf_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_buf_arr_t;
struct doca_dpa_dev_buf {
	uintptr_t addr;
	uint64_t len;
	doca_dpa_dev_mmap_t mmap;
	unsigned char reserved[12];
} __attribute__((__packed__));
struct doca_dpa_dev_buf_arr {
	struct doca_dpa_dev_buf *bufs;
	unsigned char reserved[20];
} __attribute__((__packed__, aligned(64)));
/* A doca_dpa_dev_buf_t is the address of a struct doca_dpa_dev_buf; the accessors are inline. */
__forceinline doca_dpa_dev_buf_t doca_dpa_dev_buf_array_get_buf(doca_dpa_dev_buf_arr_t buf_arr, const uint64_t buf_idx)
{
	return (doca_dpa_dev_buf_t)(uintptr_t)&((struct doca_dpa_dev_buf_arr *)(uintptr_t)buf_arr)->bufs[buf_idx];
}

__forceinline void doca_dpa_dev_buf_set_addr(doca_dpa_dev_buf_t buf, uintptr_t addr)
{
	((struct doca_dpa_dev_buf *)(uintptr_t)buf)->addr = addr;
}

__forceinline void doca_dpa_dev_buf_set_len(doca_dpa_dev_buf_t buf, size_t len)
{
	((struct doca_dpa_dev_buf *)(uintptr_t)buf)->len = len;
}

__forceinline void doca_dpa_dev_buf_set_mmap(doca_dpa_dev_buf_t buf, doca_dpa_dev_mmap_t mmap)
{
	((struct doca_dpa_dev_buf *)(uintptr_t)buf)->mmap = mmap;
}

__forceinline uintptr_t doca_dpa_dev_buf_get_addr(doca_dpa_dev_buf_t buf)
{
	return ((struct doca_dpa_dev_buf *)(uintptr_t)buf)->addr;
}

__forceinline uint64_t doca_dpa_dev_buf_get_len(doca_dpa_dev_buf_t buf)
{
	return ((struct doca_dpa_dev_buf *)(uintptr_t)buf)->len;
}

__forceinline doca_dpa_dev_mmap_t doca_dpa_dev_buf_get_mmap(doca_dpa_dev_buf_t buf)
{
	return ((struct doca_dpa_dev_buf *)(uintptr_t)buf)->mmap;
}

DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_buf_get_external_ptr(doca_dpa_dev_buf_t buf);
DOCA_EXPERIMENTAL void doca_dpa_dev_post_buf_memcpy(doca_dpa_dev_async_ops_t async_ops_handle, doca_dpa_dev_buf_t dst_buf_handle, doca_dpa_dev_buf_t src_buf_handle, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_post_memcpy(doca_dpa_dev_async_ops_t async_ops_handle, doca_dpa_dev_mmap_t dst_mmap_handle, uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap_handle, uint64_t src_addr, size_t length, uint32_t flags);
DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_mmap_get_external_ptr(doca_dpa_dev_mmap_t mmap_handle, uint64_t addr);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DPA_DEV_BUF_H */
