/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_buf: region [head, head+len) of an mmap with a data segment inside it, and buf lists.
 * A list is a singly linked chain; its head holds the refcount of the whole list and every
 * element points back at the head, so "is this the head" is one compare.
 */
#include <stdbool.h>
#include <stdint.h>

#include "doca_buf.h"
#include "common/priv/buf_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DOCA_BUF);

/* Does [data, data+data_len) lie inside the buf's region? Overflow-safe. */
static bool in_region(const struct doca_buf *b, const void *data, size_t data_len)
{
	uintptr_t h = (uintptr_t)b->head, d = (uintptr_t)data;

	return d >= h && data_len <= b->len && d - h <= b->len - data_len;
}

static struct doca_buf *list_tail(struct doca_buf *b)
{
	while (b->next != NULL)
		b = b->next;
	return b;
}

/* Last reference gone: every element goes back to its own inventory or pool. */
static void release_list(struct doca_buf *head)
{
	struct doca_buf *b = head, *next;

	while (b != NULL) {
		next = b->next;
		b->next = NULL;
		b->list_head = b;
		b->list_len = 1;
		b->refcount = 0;
		b->owner->ops->release(b->owner, b);
		b = next;
	}
}

doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	if (buf == NULL) {
		SDK_LOG_ERR("Failed to increase buf refcount: buf is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf->list_head != buf) {
		SDK_LOG_ERR("Failed to increase buf refcount: buf is not the head of its list; use the list head");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (buf->refcount == 0) {
		SDK_LOG_ERR("Failed to increase buf refcount: buf was already released to its inventory or pool");
		return DOCA_ERROR_BAD_STATE;
	}
	if (buf->refcount == UINT16_MAX) {
		SDK_LOG_ERR("Failed to increase buf refcount: already at the maximum %u", UINT16_MAX);
		return DOCA_ERROR_TOO_BIG;
	}
	if (refcount != NULL)
		*refcount = buf->refcount;
	buf->refcount++;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	if (buf == NULL) {
		SDK_LOG_ERR("Failed to decrease buf refcount: buf is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf->list_head != buf) {
		SDK_LOG_ERR("Failed to decrease buf refcount: buf is not the head of its list; release the list through its head");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (buf->refcount == 0) {
		SDK_LOG_ERR("Failed to decrease buf refcount: refcount is already 0 (buf released twice?)");
		return DOCA_ERROR_BAD_STATE;
	}
	if (refcount != NULL)
		*refcount = buf->refcount;
	if (--buf->refcount == 0)
		release_list(buf);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount)
{
	if (buf == NULL || refcount == NULL) {
		SDK_LOG_ERR("Failed to get buf refcount: %s is NULL", buf == NULL ? "buf" : "refcount");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*refcount = buf->refcount;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len)
{
	if (buf == NULL || len == NULL) {
		SDK_LOG_ERR("Failed to get buf length: %s is NULL", buf == NULL ? "buf" : "len");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*len = buf->len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head)
{
	if (buf == NULL || head == NULL) {
		SDK_LOG_ERR("Failed to get buf head: %s is NULL", buf == NULL ? "buf" : "head");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*head = buf->head;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len)
{
	if (buf == NULL || data_len == NULL) {
		SDK_LOG_ERR("Failed to get buf data length: %s is NULL", buf == NULL ? "buf" : "data_len");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*data_len = buf->data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data)
{
	if (buf == NULL || data == NULL) {
		SDK_LOG_ERR("Failed to get buf data: %s is NULL", buf == NULL ? "buf" : "data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*data = buf->data;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len)
{
	if (buf == NULL) {
		SDK_LOG_ERR("Failed to set buf data: buf is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!in_region(buf, data, data_len)) {
		SDK_LOG_ERR("Failed to set buf data: data [%p, +%zu) is outside the buf region [%p, +%zu); keep data and data_len inside the region",
			    data, data_len, buf->head, buf->len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len)
{
	if (buf == NULL) {
		SDK_LOG_ERR("Failed to set buf data length: buf is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!in_region(buf, buf->data, data_len)) {
		SDK_LOG_ERR("Failed to set buf data length: %zu bytes from data %p run past the buf region [%p, +%zu); at most %zu fit",
			    data_len, buf->data, buf->head, buf->len,
			    buf->len - (size_t)((char *)buf->data - (char *)buf->head));
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_reset_data_len(struct doca_buf *buf)
{
	if (buf == NULL) {
		SDK_LOG_ERR("Failed to reset buf data length: buf is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	buf->data_len = 0;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf)
{
	if (buf == NULL || next_buf == NULL) {
		SDK_LOG_ERR("Failed to get next buf in list: %s is NULL", buf == NULL ? "buf" : "next_buf");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*next_buf = buf->next;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf)
{
	if (buf == NULL || last_buf == NULL) {
		SDK_LOG_ERR("Failed to get last buf in list: %s is NULL", buf == NULL ? "buf" : "last_buf");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*last_buf = list_tail(buf);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last)
{
	if (buf == NULL || is_last == NULL) {
		SDK_LOG_ERR("Failed to check if buf is last in list: %s is NULL", buf == NULL ? "buf" : "is_last");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*is_last = buf->next == NULL;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first)
{
	if (buf == NULL || is_first == NULL) {
		SDK_LOG_ERR("Failed to check if buf is first in list: %s is NULL", buf == NULL ? "buf" : "is_first");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*is_first = buf->list_head == buf;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list)
{
	if (buf == NULL || is_in_list == NULL) {
		SDK_LOG_ERR("Failed to check if buf is in a list: %s is NULL", buf == NULL ? "buf" : "is_in_list");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*is_in_list = buf->list_head->list_len > 1;
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements)
{
	if (buf == NULL || num_elements == NULL) {
		SDK_LOG_ERR("Failed to get buf list length: %s is NULL", buf == NULL ? "buf" : "num_elements");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf->list_head != buf) {
		SDK_LOG_ERR("Failed to get buf list length: buf is not the head of its list; ask the list head");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	*num_elements = buf->list_len;
	return DOCA_SUCCESS;
}

/* Checks that list2 may be appended to the list headed by head1. */
static doca_error_t check_chain(const struct doca_buf *head1, const struct doca_buf *list2)
{
	if (head1->refcount == 0 || list2->refcount == 0) {
		SDK_LOG_ERR("Failed to chain buf lists: a buf was already released to its inventory or pool");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (list2->list_head != list2) {
		SDK_LOG_ERR("Failed to chain buf lists: list2 is not a list head; unchain it first with doca_buf_unchain_list()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (list2 == head1) {
		SDK_LOG_ERR("Failed to chain buf lists: list2 is already part of list1");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (list2->refcount != 1) {
		SDK_LOG_ERR("Failed to chain buf lists: list2 has refcount %u; only a list with refcount 1 can be chained",
			    list2->refcount);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	return DOCA_SUCCESS;
}

static void link_lists(struct doca_buf *head1, struct doca_buf *tail1, struct doca_buf *list2)
{
	head1->list_len += list2->list_len;
	tail1->next = list2;
	for (struct doca_buf *b = list2; b != NULL; b = b->next)
		b->list_head = head1;
}

doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	struct doca_buf *head1;
	doca_error_t err;

	if (list1 == NULL || list2 == NULL) {
		SDK_LOG_ERR("Failed to chain buf lists: %s is NULL", list1 == NULL ? "list1" : "list2");
		return DOCA_ERROR_INVALID_VALUE;
	}
	head1 = list1->list_head;
	err = check_chain(head1, list2);
	if (err != DOCA_SUCCESS)
		return err;
	link_lists(head1, list_tail(list1), list2);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head, struct doca_buf *list1_tail, struct doca_buf *list2)
{
	doca_error_t err;

	if (list1_head == NULL || list1_tail == NULL || list2 == NULL) {
		SDK_LOG_ERR("Failed to chain buf lists: %s is NULL",
			    list1_head == NULL ? "list1_head" : list1_tail == NULL ? "list1_tail" : "list2");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (list1_head->list_head != list1_head) {
		SDK_LOG_ERR("Failed to chain buf lists: list1_head is not the head of its list");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (list1_tail->list_head != list1_head || list1_tail->next != NULL) {
		SDK_LOG_ERR("Failed to chain buf lists: list1_tail is not the last element of list1_head's list; use doca_buf_get_last_in_list()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_chain(list1_head, list2);
	if (err != DOCA_SUCCESS)
		return err;
	link_lists(list1_head, list1_tail, list2);
	return DOCA_SUCCESS;
}

doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	struct doca_buf *head, *prev;
	uint32_t n = 1;

	if (list1 == NULL || list2 == NULL) {
		SDK_LOG_ERR("Failed to unchain buf lists: %s is NULL", list1 == NULL ? "list1" : "list2");
		return DOCA_ERROR_INVALID_VALUE;
	}
	head = list1->list_head;
	if (list2->list_head != head || list2 == head) {
		SDK_LOG_ERR("Failed to unchain buf lists: list2 is not an element of list1 after its head");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (prev = head; prev->next != list2; prev = prev->next)
		n++;
	prev->next = NULL;
	list2->list_len = head->list_len - n;
	head->list_len = n;
	list2->refcount = 1;
	for (struct doca_buf *b = list2; b != NULL; b = b->next)
		b->list_head = list2;
	return DOCA_SUCCESS;
}
