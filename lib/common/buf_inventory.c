/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf_inventory: a fixed set of doca_buf descriptors (no memory of its own) handed out
 * from a free list. Elements are allocated in chunks (create, expand) and never move, so a
 * get or a release is a pointer swap: no allocation and no lock on the hot path.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "doca_buf_inventory.h"
#include "common/priv/buf_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DOCA_BUF_INVENTORY);

struct inv_chunk {
	struct inv_chunk *next;
	struct doca_buf bufs[];
};

struct doca_buf_inventory {
	struct softdoca_buf_owner owner; /* first: bufs point back at it */
	struct doca_buf *free_list;
	uint32_t num_elements;
	uint32_t num_free;
	bool started;
	union doca_data user_data;
	struct inv_chunk *chunks;
};

static void inventory_release(struct softdoca_buf_owner *owner, struct doca_buf *buf)
{
	struct doca_buf_inventory *inv = (struct doca_buf_inventory *)owner;

	softdoca_mmap_bufs_sub(buf->mmap, 1);
	buf->free_next = inv->free_list;
	inv->free_list = buf;
	inv->num_free++;
}

static const struct softdoca_buf_owner_ops inventory_ops = {
	.release = inventory_release,
};

/* Adds n elements to the free list. */
static doca_error_t add_chunk(struct doca_buf_inventory *inv, uint32_t n)
{
	struct inv_chunk *c;

	c = calloc(1, sizeof(*c) + (size_t)n * sizeof(struct doca_buf));
	if (c == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (uint32_t i = n; i-- > 0;) {
		c->bufs[i].owner = &inv->owner;
		c->bufs[i].list_head = &c->bufs[i];
		c->bufs[i].free_next = inv->free_list;
		inv->free_list = &c->bufs[i];
	}
	c->next = inv->chunks;
	inv->chunks = c;
	inv->num_elements += n;
	inv->num_free += n;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_create(size_t num_elements, struct doca_buf_inventory **inventory)
{
	struct doca_buf_inventory *inv;

	if (inventory == NULL || num_elements == 0 || num_elements > UINT32_MAX) {
		SDK_LOG_ERR("Failed to create buf inventory: %s",
			    inventory == NULL ? "inventory output pointer is NULL" :
			    "num_elements must be between 1 and UINT32_MAX");
		return DOCA_ERROR_INVALID_VALUE;
	}
	inv = calloc(1, sizeof(*inv));
	if (inv == NULL || add_chunk(inv, (uint32_t)num_elements) != DOCA_SUCCESS) {
		free(inv);
		SDK_LOG_ERR("Failed to create buf inventory: out of memory for %zu elements", num_elements);
		return DOCA_ERROR_NO_MEMORY;
	}
	inv->owner.ops = &inventory_ops;
	*inventory = inv;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory)
{
	if (inventory == NULL) {
		SDK_LOG_ERR("Failed to destroy buf inventory: inventory is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (inventory->num_free != inventory->num_elements) {
		SDK_LOG_ERR("Failed to destroy buf inventory: %u doca_bufs are still in use; release them with doca_buf_dec_refcount() first",
			    inventory->num_elements - inventory->num_free);
		return DOCA_ERROR_IN_USE;
	}
	while (inventory->chunks != NULL) {
		struct inv_chunk *c = inventory->chunks;

		inventory->chunks = c->next;
		free(c);
	}
	free(inventory);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory)
{
	if (inventory == NULL) {
		SDK_LOG_ERR("Failed to start buf inventory: inventory is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	inventory->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory)
{
	if (inventory == NULL) {
		SDK_LOG_ERR("Failed to stop buf inventory: inventory is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	inventory->started = false;
	return DOCA_SUCCESS;
}

/* Checks that the inventory can hand out bufs of mmap right now. */
static doca_error_t check_ready(const struct doca_buf_inventory *inv, const struct doca_mmap *mmap, const char *what)
{
	if (!inv->started) {
		SDK_LOG_ERR("Failed to %s: inventory is not started; call doca_buf_inventory_start() first", what);
		return DOCA_ERROR_BAD_STATE;
	}
	if (!mmap->started) {
		SDK_LOG_ERR("Failed to %s: mmap is not started; call doca_mmap_start() first", what);
		return DOCA_ERROR_BAD_STATE;
	}
	if (!softdoca_mmap_import_live(mmap)) {
		SDK_LOG_ERR("Failed to %s: the mmap was imported from an export that has ended (its exporter stopped "
			    "or destroyed it); import the exporter's new descriptor",
			    what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory, struct doca_mmap *mmap, void *addr,
						size_t len, void *data, size_t data_len, struct doca_buf **buf)
{
	uintptr_t a = (uintptr_t)addr, d = (uintptr_t)data;
	struct doca_buf *b;
	doca_error_t err;

	if (inventory == NULL || mmap == NULL || buf == NULL) {
		SDK_LOG_ERR("Failed to get buf from inventory: %s is NULL",
			    inventory == NULL ? "inventory" : mmap == NULL ? "mmap" : "buf output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_ready(inventory, mmap, "get buf from inventory");
	if (err != DOCA_SUCCESS)
		return err;
	if (!softdoca_mmap_contains(mmap, addr, len)) {
		SDK_LOG_ERR("Failed to get buf from inventory: region [%p, +%zu) is outside the mmap range [%p, +%zu); pass a range inside the mmap's memory",
			    addr, len, mmap->addr, mmap->len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (d < a || data_len > len || d - a > len - data_len) {
		SDK_LOG_ERR("Failed to get buf from inventory: data [%p, +%zu) is outside the buf region [%p, +%zu); keep data and data_len inside addr and len",
			    data, data_len, addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	b = inventory->free_list;
	if (b == NULL) {
		SDK_LOG_ERR("Failed to get buf from inventory: all %u elements are in use; create a larger inventory or use doca_buf_inventory_expand()",
			    inventory->num_elements);
		return DOCA_ERROR_NO_MEMORY;
	}
	inventory->free_list = b->free_next;
	inventory->num_free--;
	softdoca_buf_init(b, mmap, addr, len, data, data_len);
	softdoca_mmap_bufs_add(mmap, 1);
	*buf = b;
	return DOCA_SUCCESS;
}

/*
 * Repoints one descriptor (a standalone buf or one element of a list) at another region of its
 * own mmap. Only the descriptor changes: its refcount, its list and its holders stay.
 */
doca_error_t doca_buf_inventory_buf_reuse_by_args(struct doca_buf *buf, void *addr, size_t len, void *data,
						  size_t data_len)
{
	uintptr_t a = (uintptr_t)addr, d = (uintptr_t)data;
	const struct doca_buf *head;

	if (buf == NULL) {
		SDK_LOG_ERR("Failed to reuse buf: buf is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf->owner == NULL || buf->owner->ops != &inventory_ops) {
		SDK_LOG_ERR("Failed to reuse buf: it does not come from a doca_buf_inventory (a buf pool's elements "
			    "keep their region); take it with doca_buf_inventory_buf_get_by_args()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	head = buf->list_head != NULL ? buf->list_head : buf;
	if (head->refcount == 0) {
		SDK_LOG_ERR("Failed to reuse buf: it was already released to its inventory; take a new one");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (!softdoca_mmap_contains(buf->mmap, addr, len)) {
		SDK_LOG_ERR("Failed to reuse buf: region [%p, +%zu) is outside its mmap range [%p, +%zu); a reused buf "
			    "stays in its mmap (take a buf of the other mmap instead)",
			    addr, len, buf->mmap->addr, buf->mmap->len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (d < a || data_len > len || d - a > len - data_len) {
		SDK_LOG_ERR("Failed to reuse buf: data [%p, +%zu) is outside the region [%p, +%zu); keep data and "
			    "data_len inside addr and len",
			    data, data_len, addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf->head = addr;
	buf->len = len;
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len)
{
	return doca_buf_inventory_buf_reuse_by_args(buf, addr, len, addr, 0);
}

doca_error_t doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len)
{
	return doca_buf_inventory_buf_reuse_by_args(buf, data, data_len, data, data_len);
}

doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory, const struct doca_buf *src_buf,
					struct doca_buf **dst_buf)
{
	struct doca_buf *head = NULL, *tail = NULL;
	const struct doca_buf *s;
	doca_error_t err;

	if (inventory == NULL || src_buf == NULL || dst_buf == NULL) {
		SDK_LOG_ERR("Failed to duplicate buf: %s is NULL",
			    inventory == NULL ? "inventory" : src_buf == NULL ? "src_buf" : "dst_buf output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (src_buf->list_head != src_buf) {
		SDK_LOG_ERR("Failed to duplicate buf: src_buf is not the head of its list; duplicate the whole list through its head");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (src_buf->refcount == 0) {
		SDK_LOG_ERR("Failed to duplicate buf: src_buf was already released to its inventory or pool");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	err = check_ready(inventory, src_buf->mmap, "duplicate buf");
	if (err != DOCA_SUCCESS)
		return err;
	if (inventory->num_free < src_buf->list_len) {
		SDK_LOG_ERR("Failed to duplicate buf: list has %u elements but the inventory has %u free",
			    src_buf->list_len, inventory->num_free);
		return DOCA_ERROR_NO_MEMORY;
	}
	/* The copy is a new list with refcount 1 over the same memory. */
	for (s = src_buf; s != NULL; s = s->next) {
		struct doca_buf *b = inventory->free_list;

		inventory->free_list = b->free_next;
		inventory->num_free--;
		softdoca_buf_init(b, s->mmap, s->head, s->len, s->data, s->data_len);
		softdoca_mmap_bufs_add(s->mmap, 1);
		if (head == NULL) {
			head = b;
		} else {
			tail->next = b;
			b->list_head = head;
			head->list_len++;
		}
		tail = b;
	}
	*dst_buf = head;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_set_user_data(struct doca_buf_inventory *inventory, union doca_data user_data)
{
	if (inventory == NULL) {
		SDK_LOG_ERR("Failed to set inventory user data: inventory is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (inventory->started) {
		SDK_LOG_ERR("Failed to set inventory user data: inventory is started; call it before doca_buf_inventory_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	inventory->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_get_num_elements(const struct doca_buf_inventory *inventory, uint32_t *num_of_elements)
{
	if (inventory == NULL || num_of_elements == NULL) {
		SDK_LOG_ERR("Failed to get inventory number of elements: %s is NULL",
			    inventory == NULL ? "inventory" : "num_of_elements");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_of_elements = inventory->num_elements;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_get_num_free_elements(const struct doca_buf_inventory *inventory,
						      uint32_t *num_of_free_elements)
{
	if (inventory == NULL || num_of_free_elements == NULL) {
		SDK_LOG_ERR("Failed to get inventory number of free elements: %s is NULL",
			    inventory == NULL ? "inventory" : "num_of_free_elements");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_of_free_elements = inventory->num_free;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_get_user_data(const struct doca_buf_inventory *inventory, union doca_data *user_data)
{
	if (inventory == NULL || user_data == NULL) {
		SDK_LOG_ERR("Failed to get inventory user data: %s is NULL",
			    inventory == NULL ? "inventory" : "user_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = inventory->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_inventory_expand(struct doca_buf_inventory *inventory, uint32_t num_elements)
{
	if (inventory == NULL || num_elements == 0 || num_elements > UINT32_MAX - inventory->num_elements) {
		SDK_LOG_ERR("Failed to expand buf inventory: %s", inventory == NULL ? "inventory is NULL" :
			    "num_elements must be > 0 and the total must stay within UINT32_MAX");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!inventory->started) {
		SDK_LOG_ERR("Failed to expand buf inventory: inventory is not started; call doca_buf_inventory_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (add_chunk(inventory, num_elements) != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to expand buf inventory: out of memory for %u elements", num_elements);
		return DOCA_ERROR_NO_MEMORY;
	}
	return DOCA_SUCCESS;
}
