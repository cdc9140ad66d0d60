/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_arr: an array of equal bufs over an mmap for GPU or DPA datapaths. softdoca has no
 * GPU: its handle is NOT_SUPPORTED (docs/compatibility.md). For a DPA target the array is laid
 * out in the DPA context's memory at start, in the device header's layout (struct
 * doca_dpa_dev_buf_arr pointing at one struct doca_dpa_dev_buf per element: address, length,
 * the mmap's DPA handle), which the device's inline accessors read.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "doca_buf_array.h"
#include "common/priv/dev_priv.h"
#include "common/priv/dpa_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DOCA_BUF_ARRAY);

struct doca_buf_arr {
	size_t num_elem;
	struct doca_mmap *mmap; /* NULL until set_params */
	size_t elem_size;
	uint64_t start_offset;
	bool started;
	struct doca_dpa *dpa;   /* set_target_dpa */
	uint64_t dev_arr;       /* while started with a DPA target: the array in DPA memory */
};

/* The device header's layouts (doca_dpa_dev_buf.h, a device header) */
struct dev_buf {
	uint64_t addr;
	uint64_t len;
	uint32_t mmap;
	unsigned char reserved[12];
} __attribute__((__packed__));

#define DEV_ARR_HEADER 64 /* struct doca_dpa_dev_buf_arr: aligned(64) */

doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr)
{
	struct doca_buf_arr *arr;

	if (buf_arr == NULL || num_elem == 0) {
		SDK_LOG_ERR("Failed to create buf array: %s", buf_arr == NULL ? "buf_arr output pointer is NULL" :
			    "num_elem must be > 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	arr = calloc(1, sizeof(*arr));
	if (arr == NULL) {
		SDK_LOG_ERR("Failed to create buf array: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	arr->num_elem = num_elem;
	*buf_arr = arr;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr, struct doca_gpu *gpu_handler)
{
	if (buf_arr == NULL || gpu_handler == NULL) {
		SDK_LOG_ERR("Failed to set buf array target GPU: %s is NULL",
			    buf_arr == NULL ? "buf_arr" : "gpu_handler");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("Failed to set buf array target GPU: softdoca has no GPU support (see docs/compatibility.md)");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr, struct doca_dpa *dpa_handler)
{
	if (buf_arr == NULL || dpa_handler == NULL) {
		SDK_LOG_ERR("Failed to set buf array target DPA: %s is NULL",
			    buf_arr == NULL ? "buf_arr" : "dpa_handler");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_arr->started) {
		SDK_LOG_ERR("Failed to set buf array target DPA: array is started; call it before doca_buf_arr_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	buf_arr->dpa = dpa_handler;
	return DOCA_SUCCESS;
}

/* Lays the array out in the DPA context's memory (start with a DPA target). */
static doca_error_t dpa_layout(struct doca_buf_arr *arr)
{
	struct softdoca_dpa_base *base = softdoca_dpa_base(arr->dpa);
	struct doca_mmap *m = arr->mmap;
	struct dev_buf *bufs;
	uint32_t handle = 0;
	uint64_t size, dev;
	doca_error_t err;

	if (base->hw == NULL) {
		SDK_LOG_ERR("Failed to start buf array: its target DPA context is not started; call doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	err = doca_mmap_dev_get_dpa_handle(m, base->dev, &handle);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start buf array: no DPA handle of its mmap for the DPA context's device (%s); "
			    "add that device to the mmap",
			    doca_error_get_name(err));
		return err;
	}
	size = DEV_ARR_HEADER + (uint64_t)arr->num_elem * sizeof(struct dev_buf);
	err = base->dev->dpa->mem_alloc(base->hw, size, &dev);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start buf array: %lu bytes of DPA memory: %s", (unsigned long)size,
			    doca_error_get_name(err));
		return err;
	}
	/* a device address is a host address of the soft DPA's memory */
	memset((void *)(uintptr_t)dev, 0, size);
	*(uint64_t *)(uintptr_t)dev = dev + DEV_ARR_HEADER;
	bufs = (struct dev_buf *)(uintptr_t)(dev + DEV_ARR_HEADER);
	for (size_t i = 0; i < arr->num_elem; i++) {
		bufs[i].addr = (uint64_t)(uintptr_t)m->addr + arr->start_offset + i * arr->elem_size;
		bufs[i].len = arr->elem_size;
		bufs[i].mmap = handle;
	}
	arr->dev_arr = dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr, struct doca_mmap *mmap, size_t elem_size,
				     uint64_t start_offset)
{
	if (buf_arr == NULL || mmap == NULL || elem_size == 0) {
		SDK_LOG_ERR("Failed to set buf array params: %s", buf_arr == NULL ? "buf_arr is NULL" :
			    mmap == NULL ? "mmap is NULL" : "elem_size must be > 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_arr->started) {
		SDK_LOG_ERR("Failed to set buf array params: array is started; call it before doca_buf_arr_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	buf_arr->mmap = mmap;
	buf_arr->elem_size = elem_size;
	buf_arr->start_offset = start_offset;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr)
{
	struct doca_mmap *m;

	if (buf_arr == NULL) {
		SDK_LOG_ERR("Failed to start buf array: buf_arr is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_arr->started) {
		SDK_LOG_ERR("Failed to start buf array: already started");
		return DOCA_ERROR_BAD_STATE;
	}
	m = buf_arr->mmap;
	if (m == NULL) {
		SDK_LOG_ERR("Failed to start buf array: no mmap; call doca_buf_arr_set_params() before doca_buf_arr_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!m->started) {
		SDK_LOG_ERR("Failed to start buf array: mmap is not started; call doca_mmap_start() before doca_buf_arr_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	/* start_offset + num_elem * elem_size must fit in the mmap range */
	if (buf_arr->start_offset > m->len || buf_arr->elem_size > (m->len - buf_arr->start_offset) / buf_arr->num_elem) {
		SDK_LOG_ERR("Failed to start buf array: %zu elements of %zu bytes from offset %lu do not fit in the mmap's %zu bytes",
			    buf_arr->num_elem, buf_arr->elem_size, (unsigned long)buf_arr->start_offset, m->len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_arr->dpa != NULL) {
		doca_error_t err = dpa_layout(buf_arr);

		if (err != DOCA_SUCCESS)
			return err;
	}
	m->num_holders++;
	buf_arr->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr)
{
	if (buf_arr == NULL) {
		SDK_LOG_ERR("Failed to stop buf array: buf_arr is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_arr->started) {
		struct softdoca_dpa_base *base = buf_arr->dpa != NULL ? softdoca_dpa_base(buf_arr->dpa) : NULL;

		/* (a DPA context stopped first took its memory with it) */
		if (buf_arr->dev_arr != 0 && base->hw != NULL)
			base->dev->dpa->mem_free(base->hw, buf_arr->dev_arr);
		buf_arr->dev_arr = 0;
		buf_arr->mmap->num_holders--;
		buf_arr->started = false;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr)
{
	if (buf_arr == NULL) {
		SDK_LOG_ERR("Failed to destroy buf array: buf_arr is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	doca_buf_arr_stop(buf_arr);
	free(buf_arr);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr, struct doca_gpu_buf_arr **gpu_buf_arr)
{
	if (buf_arr == NULL || gpu_buf_arr == NULL) {
		SDK_LOG_ERR("Failed to get buf array GPU handle: %s is NULL",
			    buf_arr == NULL ? "buf_arr" : "gpu_buf_arr");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("Failed to get buf array GPU handle: softdoca has no GPU support (see docs/compatibility.md)");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr, doca_dpa_dev_buf_arr_t *dpa_buf_arr)
{
	if (buf_arr == NULL || dpa_buf_arr == NULL) {
		SDK_LOG_ERR("Failed to get buf array DPA handle: %s is NULL",
			    buf_arr == NULL ? "buf_arr" : "dpa_buf_arr");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!buf_arr->started || buf_arr->dpa == NULL) {
		SDK_LOG_ERR("Failed to get buf array DPA handle: %s",
			    buf_arr->dpa == NULL ? "no DPA target; call doca_buf_arr_set_target_dpa() before "
						   "doca_buf_arr_start()" :
						   "array is not started; call doca_buf_arr_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	*dpa_buf_arr = buf_arr->dev_arr;
	return DOCA_SUCCESS;
}
