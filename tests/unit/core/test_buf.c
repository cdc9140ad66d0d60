/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_buf: region and data rules, refcounts, chained lists, dup. */
#include <stdint.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_mmap.h"
#include "common/priv/buf_priv.h"
#include "test.h"

static char mem[4096];
static struct doca_mmap *mmap_;
static struct doca_buf_inventory *inv;

static void setup(void)
{
	CHECK_OK(doca_mmap_create(&mmap_));
	CHECK_OK(doca_mmap_set_memrange(mmap_, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(mmap_));
	CHECK_OK(doca_buf_inventory_create(8, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
}

static void teardown(void)
{
	uint32_t n;

	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK(n == 8);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(mmap_));
}

static struct doca_buf *get(size_t off, size_t len, size_t data_off, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, mmap_, mem + off, len, mem + data_off, data_len, &b));
	return b;
}

static void test_getters(void)
{
	struct doca_buf *b = get(100, 200, 150, 20);
	size_t len;
	void *p;

	CHECK_OK(doca_buf_get_head(b, &p));
	CHECK(p == mem + 100);
	CHECK_OK(doca_buf_get_len(b, &len));
	CHECK(len == 200);
	CHECK_OK(doca_buf_get_data(b, &p));
	CHECK(p == mem + 150);
	CHECK_OK(doca_buf_get_data_len(b, &len));
	CHECK(len == 20);
	CHECK(softdoca_buf_tailroom(b) == 130);
	CHECK_ERR(doca_buf_get_head(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_len(NULL, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_data(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_data_len(b, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
}

static void test_data_rules(void)
{
	struct doca_buf *b = get(100, 200, 100, 0);
	size_t len;
	void *p;

	/* the data segment may be anywhere inside [head, head+len], up to its very end */
	CHECK_OK(doca_buf_set_data(b, mem + 100, 200));
	CHECK_OK(doca_buf_set_data(b, mem + 300, 0));
	CHECK_OK(doca_buf_set_data(b, mem + 250, 50));
	CHECK_ERR(doca_buf_set_data(b, mem + 99, 10), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(b, mem + 250, 51), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(b, mem + 301, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(b, mem + 100, SIZE_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data(NULL, mem, 1), DOCA_ERROR_INVALID_VALUE);
	/* a refused call changes nothing */
	CHECK_OK(doca_buf_get_data(b, &p));
	CHECK_OK(doca_buf_get_data_len(b, &len));
	CHECK(p == mem + 250 && len == 50);

	CHECK_OK(doca_buf_set_data_len(b, 10));
	CHECK_OK(doca_buf_set_data_len(b, 50));
	CHECK_ERR(doca_buf_set_data_len(b, 51), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data_len(b, SIZE_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_set_data_len(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_reset_data_len(b));
	CHECK_OK(doca_buf_get_data(b, &p));
	CHECK_OK(doca_buf_get_data_len(b, &len));
	CHECK(p == mem + 250 && len == 0);
	CHECK_ERR(doca_buf_reset_data_len(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
}

static void test_refcount(void)
{
	struct doca_buf *b = get(0, 64, 0, 64);
	uint16_t rc = 99;
	uint32_t n;

	CHECK_OK(doca_buf_get_refcount(b, &rc));
	CHECK(rc == 1);
	/* inc and dec report the count before the operation */
	CHECK_OK(doca_buf_inc_refcount(b, &rc));
	CHECK(rc == 1);
	CHECK_OK(doca_buf_inc_refcount(b, NULL));
	CHECK_OK(doca_buf_get_refcount(b, &rc));
	CHECK(rc == 3);
	CHECK_OK(doca_buf_dec_refcount(b, &rc));
	CHECK(rc == 3);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK(n == 7);
	CHECK_OK(doca_buf_dec_refcount(b, &rc));
	CHECK(rc == 1);
	/* back in the inventory */
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK(n == 8);
	CHECK_OK(doca_mmap_get_num_bufs(mmap_, &n));
	CHECK(n == 0);
	CHECK_ERR(doca_buf_dec_refcount(b, NULL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_inc_refcount(b, NULL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_inc_refcount(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_dec_refcount(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_get_refcount(NULL, &rc), DOCA_ERROR_INVALID_VALUE);

	/* the count saturates at UINT16_MAX */
	b = get(0, 64, 0, 64);
	b->refcount = UINT16_MAX;
	CHECK_ERR(doca_buf_inc_refcount(b, NULL), DOCA_ERROR_TOO_BIG);
	b->refcount = 1;
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
}

static void test_lists(void)
{
	struct doca_buf *a = get(0, 100, 0, 100), *b = get(100, 100, 100, 100), *c = get(200, 100, 200, 100);
	struct doca_buf *d = get(300, 100, 300, 100), *x;
	uint32_t n, nfree;
	uint8_t f;

	CHECK_OK(doca_buf_is_in_list(a, &f));
	CHECK(f == 0);
	CHECK_OK(doca_buf_is_first_in_list(a, &f));
	CHECK(f == 1);
	CHECK_OK(doca_buf_is_last_in_list(a, &f));
	CHECK(f == 1);

	CHECK_OK(doca_buf_chain_list(a, b));
	CHECK_OK(doca_buf_chain_list_tail(a, b, c));
	CHECK_OK(doca_buf_get_list_len(a, &n));
	CHECK(n == 3);
	CHECK_ERR(doca_buf_get_list_len(b, &n), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_get_next_in_list(a, &x));
	CHECK(x == b);
	CHECK_OK(doca_buf_get_next_in_list(c, &x));
	CHECK(x == NULL);
	CHECK_OK(doca_buf_get_last_in_list(a, &x));
	CHECK(x == c);
	CHECK_ERR(doca_buf_get_last_in_list(NULL, &x), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_is_in_list(b, &f));
	CHECK(f == 1);
	CHECK_OK(doca_buf_is_first_in_list(b, &f));
	CHECK(f == 0);
	CHECK_OK(doca_buf_is_last_in_list(b, &f));
	CHECK(f == 0);
	CHECK_OK(doca_buf_is_last_in_list(c, &f));
	CHECK(f == 1);

	/* only the head carries the refcount */
	CHECK_ERR(doca_buf_inc_refcount(b, NULL), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_buf_dec_refcount(c, NULL), DOCA_ERROR_NOT_PERMITTED);
	/* list2 must be a head with refcount 1, and not list1 itself */
	CHECK_ERR(doca_buf_chain_list(d, b), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_buf_chain_list(a, a), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_buf_chain_list(c, a), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_inc_refcount(d, NULL));
	CHECK_ERR(doca_buf_chain_list(a, d), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(d, NULL));
	/* chain_list_tail needs the real tail */
	CHECK_ERR(doca_buf_chain_list_tail(a, b, d), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_chain_list_tail(b, c, d), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_buf_chain_list(NULL, d), DOCA_ERROR_INVALID_VALUE);

	/* unchain before c: a-b and c */
	CHECK_ERR(doca_buf_unchain_list(a, d), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_unchain_list(a, a), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_unchain_list(a, c));
	CHECK_OK(doca_buf_get_list_len(a, &n));
	CHECK(n == 2);
	CHECK_OK(doca_buf_get_list_len(c, &n));
	CHECK(n == 1);
	CHECK_OK(doca_buf_is_first_in_list(c, &f));
	CHECK(f == 1);
	CHECK_OK(doca_buf_is_last_in_list(b, &f));
	CHECK(f == 1);

	/* chaining through a non-head element of list1 appends to its list */
	CHECK_OK(doca_buf_chain_list(b, d));
	CHECK_OK(doca_buf_get_list_len(a, &n));
	CHECK(n == 3);
	CHECK_OK(doca_buf_get_last_in_list(b, &x));
	CHECK(x == d);

	/* releasing the head returns the whole list */
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &nfree));
	CHECK(nfree == 4);
	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &nfree));
	CHECK(nfree == 7);
	CHECK_ERR(doca_buf_chain_list(c, a), DOCA_ERROR_NOT_PERMITTED); /* a is free now */
	CHECK_OK(doca_buf_dec_refcount(c, NULL));
}

static void test_dup(void)
{
	struct doca_buf *a = get(0, 100, 10, 20), *b = get(100, 100, 100, 50), *dup, *x;
	struct doca_buf_inventory *small;
	uint32_t n;
	void *p;

	CHECK_OK(doca_buf_chain_list(a, b));
	CHECK_ERR(doca_buf_inventory_buf_dup(inv, b, &dup), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_buf_inventory_buf_dup(NULL, a, &dup), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_inventory_buf_dup(inv, a, &dup));
	CHECK(dup != a);
	CHECK_OK(doca_buf_get_list_len(dup, &n));
	CHECK(n == 2);
	CHECK_OK(doca_buf_get_data(dup, &p));
	CHECK(p == mem + 10);
	CHECK_OK(doca_buf_get_next_in_list(dup, &x));
	CHECK(x != b);
	CHECK_OK(doca_buf_get_data(x, &p));
	CHECK(p == mem + 100);
	CHECK_OK(doca_mmap_get_num_bufs(mmap_, &n));
	CHECK(n == 4);

	/* not enough free elements for the whole list */
	CHECK_OK(doca_buf_inventory_create(1, &small));
	CHECK_ERR(doca_buf_inventory_buf_dup(small, a, &x), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_inventory_start(small));
	CHECK_ERR(doca_buf_inventory_buf_dup(small, a, &x), DOCA_ERROR_NO_MEMORY);
	CHECK_OK(doca_buf_inventory_destroy(small));

	CHECK_OK(doca_buf_dec_refcount(dup, NULL));
	CHECK_OK(doca_buf_dec_refcount(a, NULL));
}

int main(void)
{
	setup();
	TEST_RUN(test_getters);
	TEST_RUN(test_data_rules);
	TEST_RUN(test_refcount);
	TEST_RUN(test_lists);
	TEST_RUN(test_dup);
	teardown();
	TEST_EXIT();
}
