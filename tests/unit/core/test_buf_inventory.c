/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_buf_inventory: lifecycle, get rules, exhaustion, expand, counts, user data, reuse. */
#include <stdint.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_buf_pool.h"
#include "doca_mmap.h"
#include "test.h"

static char mem[4096];

static struct doca_mmap *started_mmap(void)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static void test_lifecycle(void)
{
	struct doca_buf_inventory *inv;
	union doca_data ud = {.u64 = 5};
	uint32_t n;

	CHECK_ERR(doca_buf_inventory_create(0, &inv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_create((size_t)UINT32_MAX + 1, &inv), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_get_num_elements(inv, &n));
	CHECK(n == 4);
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK(n == 4);
	CHECK_OK(doca_buf_inventory_set_user_data(inv, ud));
	ud.u64 = 0;
	CHECK_OK(doca_buf_inventory_get_user_data(inv, &ud));
	CHECK(ud.u64 == 5);
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_ERR(doca_buf_inventory_set_user_data(inv, ud), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));

	/* samples destroy a started inventory without stopping it */
	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));

	CHECK_ERR(doca_buf_inventory_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_get_num_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_get_num_free_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
}

static void test_get_rules(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m, *idle;
	struct doca_buf *b;

	m = started_mmap();
	CHECK_OK(doca_buf_inventory_create(4, &inv));
	/* inventory not started */
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 16, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(NULL, m, mem, 16, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, NULL, mem, 16, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 16, NULL), DOCA_ERROR_INVALID_VALUE);

	/* mmap not started */
	CHECK_OK(doca_mmap_create(&idle));
	CHECK_OK(doca_mmap_set_memrange(idle, mem, sizeof(mem)));
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, idle, mem, 16, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_destroy(idle));

	/* region outside the mmap: before, after, straddling the end, wrapping */
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, (void *)((uintptr_t)mem - 1), 16, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem + sizeof(mem), 1, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 4000, 100, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 8, SIZE_MAX, &b), DOCA_ERROR_INVALID_VALUE);
	/* data segment outside the region */
	CHECK_ERR(doca_buf_inventory_buf_get_by_args(inv, m, mem + 10, 10, mem + 9, 1, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_args(inv, m, mem + 10, 10, mem + 15, 6, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_get_by_args(inv, m, mem + 10, 10, mem + 10, 11, &b), DOCA_ERROR_INVALID_VALUE);

	/* the whole range and its edges are fine */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, sizeof(mem), &b));
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + 10, 10, mem + 20, 0, &b));
	CHECK_OK(doca_buf_dec_refcount(b, NULL));

	/* a stopped inventory refuses gets */
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 16, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_exhaustion_and_destroy(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m = started_mmap();
	struct doca_buf *b[3], *extra;
	uint32_t n;

	CHECK_OK(doca_buf_inventory_create(3, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	for (int i = 0; i < 3; i++)
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 64 * i, 64, &b[i]));
	CHECK(b[0] != b[1] && b[1] != b[2] && b[0] != b[2]);
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &extra), DOCA_ERROR_NO_MEMORY);
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK(n == 0);
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 3);

	/* destroy refused while bufs are out, also once stopped */
	CHECK_ERR(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_ERR(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	/* bufs still go back to a stopped inventory */
	CHECK_OK(doca_buf_dec_refcount(b[1], NULL));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &extra));
	CHECK(extra == b[1]); /* LIFO free list: the hottest element comes back first */
	CHECK_OK(doca_buf_dec_refcount(extra, NULL));
	CHECK_OK(doca_buf_dec_refcount(b[0], NULL));
	CHECK_OK(doca_buf_dec_refcount(b[2], NULL));
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 0);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_expand(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m = started_mmap();
	struct doca_buf *b[5];
	uint32_t n;

	CHECK_OK(doca_buf_inventory_create(2, &inv));
	CHECK_ERR(doca_buf_inventory_expand(inv, 3), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_ERR(doca_buf_inventory_expand(inv, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_expand(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_expand(inv, UINT32_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 8, &b[0]));
	CHECK_OK(doca_buf_inventory_expand(inv, 3));
	CHECK_OK(doca_buf_inventory_get_num_elements(inv, &n));
	CHECK(n == 5);
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &n));
	CHECK(n == 4);
	for (int i = 1; i < 5; i++)
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 8 * i, 8, &b[i]));
	CHECK_ERR(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 8, &b[0]), DOCA_ERROR_NO_MEMORY);
	for (int i = 0; i < 5; i++)
		CHECK_OK(doca_buf_dec_refcount(b[i], NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
}

/* Bufs of one inventory in two mmaps, chained: each element returns to its own count. */
static void test_two_mmaps(void)
{
	static char mem2[256];
	struct doca_buf_inventory *inv;
	struct doca_mmap *m1 = started_mmap(), *m2;
	struct doca_buf *a, *b;
	uint32_t n1, n2;

	CHECK_OK(doca_mmap_create(&m2));
	CHECK_OK(doca_mmap_set_memrange(m2, mem2, sizeof(mem2)));
	CHECK_OK(doca_mmap_start(m2));
	CHECK_OK(doca_buf_inventory_create(2, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m1, mem, 10, &a));
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(inv, m1, mem2, 10, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m2, mem2, 10, &b));
	CHECK_OK(doca_buf_chain_list(a, b));
	CHECK_OK(doca_mmap_get_num_bufs(m1, &n1));
	CHECK_OK(doca_mmap_get_num_bufs(m2, &n2));
	CHECK(n1 == 1 && n2 == 1);
	CHECK_ERR(doca_mmap_destroy(m2), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_OK(doca_mmap_get_num_bufs(m1, &n1));
	CHECK_OK(doca_mmap_get_num_bufs(m2, &n2));
	CHECK(n1 == 0 && n2 == 0);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m2));
	CHECK_OK(doca_mmap_destroy(m1));
}

/* Reuse repoints one descriptor within its own mmap; nothing else of the buf changes. */
static void test_reuse(void)
{
	static char other[64];
	struct doca_buf_inventory *inv;
	struct doca_buf_pool *pool;
	struct doca_mmap *m = started_mmap(), *m2;
	struct doca_buf *a, *b, *next, *pooled, *freed;
	void *p;
	size_t len;
	uint16_t rc;
	uint32_t nbufs, nfree;

	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 16, &a));
	CHECK_OK(doca_buf_inc_refcount(a, NULL));

	/* by_data: the whole region is data */
	CHECK_OK(doca_buf_inventory_buf_reuse_by_data(a, mem + 100, 50));
	CHECK_OK(doca_buf_get_head(a, &p));
	CHECK(p == mem + 100);
	CHECK_OK(doca_buf_get_len(a, &len));
	CHECK(len == 50);
	CHECK_OK(doca_buf_get_data(a, &p));
	CHECK(p == mem + 100);
	CHECK_OK(doca_buf_get_data_len(a, &len));
	CHECK(len == 50);
	/* by_addr: an empty data segment at the start */
	CHECK_OK(doca_buf_inventory_buf_reuse_by_addr(a, mem + 200, 30));
	CHECK_OK(doca_buf_get_head(a, &p));
	CHECK(p == mem + 200);
	CHECK_OK(doca_buf_get_data(a, &p));
	CHECK(p == mem + 200);
	CHECK_OK(doca_buf_get_data_len(a, &len));
	CHECK(len == 0);
	/* by_args: data inside the region */
	CHECK_OK(doca_buf_inventory_buf_reuse_by_args(a, mem, 100, mem + 10, 20));
	CHECK_OK(doca_buf_get_data(a, &p));
	CHECK(p == mem + 10);
	/* The refcount, the inventory's and the mmap's counts stay */
	CHECK_OK(doca_buf_get_refcount(a, &rc));
	CHECK(rc == 2);
	CHECK_OK(doca_buf_inventory_get_num_free_elements(inv, &nfree));
	CHECK(nfree == 3);
	CHECK_OK(doca_mmap_get_num_bufs(m, &nbufs));
	CHECK(nbufs == 1);

	/* Bad regions leave the buf as it was */
	CHECK_ERR(doca_buf_inventory_buf_reuse_by_data(NULL, mem, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_reuse_by_data(a, other, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_reuse_by_data(a, mem + sizeof(mem) - 4, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_reuse_by_args(a, mem, 10, mem + 8, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_inventory_buf_reuse_by_args(a, mem + 8, 10, mem, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_get_data(a, &p));
	CHECK(p == mem + 10);

	/* One element of a list is repointed alone */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem + 64, 8, &b));
	CHECK_OK(doca_buf_chain_list(a, b));
	CHECK_OK(doca_buf_get_next_in_list(a, &next));
	CHECK_OK(doca_buf_inventory_buf_reuse_by_data(next, mem + 1000, 8));
	CHECK_OK(doca_buf_get_data(b, &p));
	CHECK(p == mem + 1000);
	CHECK_OK(doca_buf_get_data(a, &p));
	CHECK(p == mem + 10);

	/* A released buf, and a buf pool's element, are not the inventory's to reuse */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 8, &freed));
	CHECK_OK(doca_buf_dec_refcount(freed, NULL));
	CHECK_ERR(doca_buf_inventory_buf_reuse_by_data(freed, mem, 8), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_create(&m2));
	CHECK_OK(doca_mmap_set_memrange(m2, other, sizeof(other)));
	CHECK_OK(doca_mmap_start(m2));
	CHECK_OK(doca_buf_pool_create(2, 16, m2, &pool));
	CHECK_OK(doca_buf_pool_start(pool));
	CHECK_OK(doca_buf_pool_buf_alloc(pool, &pooled));
	CHECK_ERR(doca_buf_inventory_buf_reuse_by_data(pooled, other, 8), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(pooled, NULL));
	CHECK_OK(doca_buf_pool_stop(pool));
	CHECK_OK(doca_buf_pool_destroy(pool));
	CHECK_OK(doca_mmap_destroy(m2));

	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_OK(doca_buf_dec_refcount(a, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
}

int main(void)
{
	TEST_RUN(test_lifecycle);
	TEST_RUN(test_get_rules);
	TEST_RUN(test_exhaustion_and_destroy);
	TEST_RUN(test_expand);
	TEST_RUN(test_two_mmaps);
	TEST_RUN(test_reuse);
	TEST_EXIT();
}
