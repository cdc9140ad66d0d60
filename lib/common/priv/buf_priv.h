/* SPDX-License-Identifier: BSD-3-Clause */
/* Layout of doca_buf shared by the softdoca libraries (private). */
#ifndef SOFTDOCA_BUF_PRIV_H
#define SOFTDOCA_BUF_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "doca_buf.h"

struct doca_mmap;
struct softdoca_buf_owner;

/* What a buf returns to when its last reference goes: an inventory or a pool. */
struct softdoca_buf_owner_ops {
	void (*release)(struct softdoca_buf_owner *owner, struct doca_buf *buf);
};

struct softdoca_buf_owner {
	const struct softdoca_buf_owner_ops *ops;
};

struct doca_buf {
	struct doca_mmap *mmap;
	void *head;
	size_t len;
	void *data;
	size_t data_len;
	struct doca_buf *next;      /* next element of a buf list; NULL at the end */
	struct doca_buf *list_head; /* head of the list this buf belongs to (itself if head) */
	uint32_t list_len;          /* valid on a list head */
	uint16_t refcount;          /* meaningful on a list head; inner elements keep 1 */
	struct softdoca_buf_owner *owner;
	struct doca_buf *free_next; /* owner's free list */
};

/* Hands a free element out as a standalone buf with one reference (inventory and pool). */
static inline void softdoca_buf_init(struct doca_buf *b, struct doca_mmap *mmap, void *head, size_t len,
				     void *data, size_t data_len)
{
	b->mmap = mmap;
	b->head = head;
	b->len = len;
	b->data = data;
	b->data_len = data_len;
	b->next = NULL;
	b->list_head = b;
	b->list_len = 1;
	b->refcount = 1;
}

/* Room after the data segment: where a task writing into this buf puts its bytes. */
static inline size_t softdoca_buf_tailroom(const struct doca_buf *b)
{
	return (size_t)((const char *)b->head + b->len - ((const char *)b->data + b->data_len));
}

#endif /* SOFTDOCA_BUF_PRIV_H */
