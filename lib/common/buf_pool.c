/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_pool: num_elements fixed-size bufs carved from an mmap's range, each element
 * starting on the requested alignment. Descriptors are allocated once at create; start lays
 * them over the memory; alloc and release are free-list pops and pushes.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "doca_buf_pool.h"
#include "common/priv/buf_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DOCA_BUF_POOL);

struct doca_buf_pool {
	struct softdoca_buf_owner owner; /* first: bufs point back at it */
	struct doca_mmap *mmap;
	uint32_t num_elements;
	uint32_t num_free;
	size_t element_size;
	size_t alignment;
	bool started;
	union doca_data user_data;
	struct doca_buf *free_list;
	struct doca_buf *bufs;
};

static void pool_release(struct softdoca_buf_owner *owner, struct doca_buf *buf)
{
	struct doca_buf_pool *pool = (struct doca_buf_pool *)owner;

	softdoca_mmap_bufs_sub(buf->mmap, 1);
	buf->free_next = pool->free_list;
	pool->free_list = buf;
	pool->num_free++;
}

static const struct softdoca_buf_owner_ops pool_ops = {
	.release = pool_release,
};

doca_error_t doca_buf_pool_create(size_t num_elements, size_t element_size, const struct doca_mmap *mmap,
				  struct doca_buf_pool **buf_pool)
{
	struct doca_buf_pool *pool;

	if (mmap == NULL || buf_pool == NULL) {
		SDK_LOG_ERR("Failed to create buf pool: %s is NULL", mmap == NULL ? "mmap" : "buf_pool output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (num_elements == 0 || num_elements > UINT32_MAX || element_size == 0 ||
	    element_size > SIZE_MAX / num_elements) {
		SDK_LOG_ERR("Failed to create buf pool: %zu elements of %zu bytes; both must be > 0 and their product must fit in size_t",
			    num_elements, element_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pool = calloc(1, sizeof(*pool));
	if (pool != NULL)
		pool->bufs = calloc(num_elements, sizeof(*pool->bufs));
	if (pool == NULL || pool->bufs == NULL) {
		free(pool);
		SDK_LOG_ERR("Failed to create buf pool: out of memory for %zu elements", num_elements);
		return DOCA_ERROR_NO_MEMORY;
	}
	pool->owner.ops = &pool_ops;
	/* The pool never changes the mmap itself; it only counts the bufs handed out of it. */
	pool->mmap = (struct doca_mmap *)mmap;
	pool->num_elements = (uint32_t)num_elements;
	pool->element_size = element_size;
	pool->alignment = 1;
	*buf_pool = pool;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool)
{
	doca_error_t err;

	if (buf_pool == NULL) {
		SDK_LOG_ERR("Failed to destroy buf pool: buf_pool is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = doca_buf_pool_stop(buf_pool);
	if (err != DOCA_SUCCESS)
		return err;
	free(buf_pool->bufs);
	free(buf_pool);
	return DOCA_SUCCESS;
}

/* Element i starts at the first aligned address of the range plus i aligned strides. */
doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool)
{
	struct doca_mmap *m;
	uintptr_t base, first;
	size_t stride, need;

	if (buf_pool == NULL) {
		SDK_LOG_ERR("Failed to start buf pool: buf_pool is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_pool->started) {
		SDK_LOG_ERR("Failed to start buf pool: already started");
		return DOCA_ERROR_BAD_STATE;
	}
	m = buf_pool->mmap;
	if (!m->started) {
		SDK_LOG_ERR("Failed to start buf pool: mmap is not started; call doca_mmap_start() before doca_buf_pool_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (buf_pool->alignment > m->len) {
		SDK_LOG_ERR("Failed to start buf pool: alignment %zu is larger than the mmap's %zu bytes; use a smaller alignment or a larger mmap range",
			    buf_pool->alignment, m->len);
		return DOCA_ERROR_INITIALIZATION;
	}
	base = (uintptr_t)m->addr;
	first = (base + buf_pool->alignment - 1) & ~(uintptr_t)(buf_pool->alignment - 1);
	stride = (buf_pool->element_size + buf_pool->alignment - 1) & ~(buf_pool->alignment - 1);
	/* need = padding + (n - 1) strides + one element, without overflow */
	need = first - base;
	if (stride < buf_pool->element_size || stride > (SIZE_MAX - need - buf_pool->element_size) / buf_pool->num_elements ||
	    need + stride * (buf_pool->num_elements - 1) + buf_pool->element_size > m->len) {
		SDK_LOG_ERR("Failed to start buf pool: %u elements of %zu bytes aligned to %zu do not fit in the mmap's %zu bytes; use a larger mmap range or fewer elements",
			    buf_pool->num_elements, buf_pool->element_size, buf_pool->alignment, m->len);
		return DOCA_ERROR_INITIALIZATION;
	}
	buf_pool->free_list = NULL;
	for (uint32_t i = buf_pool->num_elements; i-- > 0;) {
		struct doca_buf *b = &buf_pool->bufs[i];

		b->owner = &buf_pool->owner;
		b->mmap = m;
		b->head = (void *)(first + (uintptr_t)i * stride);
		b->len = buf_pool->element_size;
		b->list_head = b;
		b->refcount = 0;
		b->free_next = buf_pool->free_list;
		buf_pool->free_list = b;
	}
	buf_pool->num_free = buf_pool->num_elements;
	m->num_holders++;
	buf_pool->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool)
{
	if (buf_pool == NULL) {
		SDK_LOG_ERR("Failed to stop buf pool: buf_pool is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!buf_pool->started)
		return DOCA_SUCCESS;
	if (buf_pool->num_free != buf_pool->num_elements) {
		SDK_LOG_ERR("Failed to stop buf pool: %u doca_bufs are still in use; release them with doca_buf_dec_refcount() first",
			    buf_pool->num_elements - buf_pool->num_free);
		return DOCA_ERROR_IN_USE;
	}
	buf_pool->mmap->num_holders--;
	buf_pool->started = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool, struct doca_buf **buf)
{
	struct doca_buf *b;

	if (buf_pool == NULL || buf == NULL) {
		SDK_LOG_ERR("Failed to allocate buf from pool: %s is NULL",
			    buf_pool == NULL ? "buf_pool" : "buf output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!buf_pool->started) {
		SDK_LOG_ERR("Failed to allocate buf from pool: pool is not started; call doca_buf_pool_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	b = buf_pool->free_list;
	if (b == NULL) {
		SDK_LOG_ERR("Failed to allocate buf from pool: all %u elements are in use; release some or create a larger pool",
			    buf_pool->num_elements);
		return DOCA_ERROR_NO_MEMORY;
	}
	buf_pool->free_list = b->free_next;
	buf_pool->num_free--;
	softdoca_buf_init(b, buf_pool->mmap, b->head, b->len, b->head, 0);
	softdoca_mmap_bufs_add(buf_pool->mmap, 1);
	*buf = b;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool, union doca_data user_data)
{
	if (buf_pool == NULL) {
		SDK_LOG_ERR("Failed to set buf pool user data: buf_pool is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_pool->started) {
		SDK_LOG_ERR("Failed to set buf pool user data: pool is started; call it before doca_buf_pool_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	buf_pool->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool, size_t element_alignment)
{
	if (buf_pool == NULL || element_alignment == 0 || (element_alignment & (element_alignment - 1)) != 0) {
		SDK_LOG_ERR("Failed to set buf pool element alignment: %s", buf_pool == NULL ? "buf_pool is NULL" :
			    "alignment must be a power of 2");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf_pool->started) {
		SDK_LOG_ERR("Failed to set buf pool element alignment: pool is started; call it before doca_buf_pool_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	buf_pool->alignment = element_alignment;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_elements)
{
	if (buf_pool == NULL || num_of_elements == NULL) {
		SDK_LOG_ERR("Failed to get buf pool number of elements: %s is NULL",
			    buf_pool == NULL ? "buf_pool" : "num_of_elements");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_of_elements = buf_pool->num_elements;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool, uint32_t *num_of_free_elements)
{
	if (buf_pool == NULL || num_of_free_elements == NULL) {
		SDK_LOG_ERR("Failed to get buf pool number of free elements: %s is NULL",
			    buf_pool == NULL ? "buf_pool" : "num_of_free_elements");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Before start every element is free: num_free is only maintained while started. */
	*num_of_free_elements = buf_pool->started ? buf_pool->num_free : buf_pool->num_elements;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool, union doca_data *user_data)
{
	if (buf_pool == NULL || user_data == NULL) {
		SDK_LOG_ERR("Failed to get buf pool user data: %s is NULL",
			    buf_pool == NULL ? "buf_pool" : "user_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = buf_pool->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool, size_t *element_alignment)
{
	if (buf_pool == NULL || element_alignment == NULL) {
		SDK_LOG_ERR("Failed to get buf pool element alignment: %s is NULL",
			    buf_pool == NULL ? "buf_pool" : "element_alignment");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*element_alignment = buf_pool->alignment;
	return DOCA_SUCCESS;
}
