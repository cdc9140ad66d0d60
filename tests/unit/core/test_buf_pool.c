/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_buf_pool: create/start rules, alignment, alloc/release, exhaustion, stop/destroy. */
#include <stdbool.h>
#include <stdint.h>

#include "doca_buf.h"
#include "doca_buf_pool.h"
#include "doca_mmap.h"
#include "common/priv/buf_priv.h"
#include "test.h"

static _Alignas(4096) char mem[4096];

static struct doca_mmap *mmap_over(void *addr, size_t len, bool start)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	if (start)
		CHECK_OK(doca_mmap_start(m));
	return m;
}

static void test_create_and_setters(void)
{
	struct doca_mmap *m = mmap_over(mem, sizeof(mem), true);
	union doca_data ud = {.u64 = 9};
	struct doca_buf_pool *p;
	size_t align;
	uint32_t n;

	CHECK_ERR(doca_buf_pool_create(0, 64, m, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_create(4, 0, m, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_create(4, 64, NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_create(4, 64, m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_create(SIZE_MAX / 2, 64, m, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_pool_create(4, 64, m, &p));
	CHECK_OK(doca_buf_pool_get_num_elements(p, &n));
	CHECK(n == 4);
	CHECK_OK(doca_buf_pool_get_num_free_elements(p, &n));
	CHECK(n == 4);
	CHECK_OK(doca_buf_pool_get_element_alignment(p, &align));
	CHECK(align == 1);
	CHECK_OK(doca_buf_pool_get_user_data(p, &ud));
	CHECK(ud.u64 == 0);
	ud.u64 = 9;
	CHECK_OK(doca_buf_pool_set_user_data(p, ud));
	CHECK_ERR(doca_buf_pool_set_element_alignment(p, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_set_element_alignment(p, 48), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_pool_set_element_alignment(p, 128));
	CHECK_OK(doca_buf_pool_get_element_alignment(p, &align));
	CHECK(align == 128);
	CHECK_OK(doca_buf_pool_start(p));
	CHECK_ERR(doca_buf_pool_start(p), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_pool_set_user_data(p, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_pool_set_element_alignment(p, 64), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_pool_get_user_data(p, &ud));
	CHECK(ud.u64 == 9);
	/* a started pool keeps its mmap alive */
	CHECK_ERR(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_pool_stop(p));
	CHECK_OK(doca_buf_pool_set_element_alignment(p, 64));
	CHECK_OK(doca_buf_pool_destroy(p));
	CHECK_OK(doca_mmap_destroy(m));

	CHECK_ERR(doca_buf_pool_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_num_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_num_free_elements(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_user_data(NULL, &ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_get_element_alignment(NULL, &align), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
}

static void test_start_rules(void)
{
	struct doca_mmap *idle = mmap_over(mem, sizeof(mem), false);
	struct doca_mmap *m = mmap_over(mem, sizeof(mem), true);
	struct doca_buf_pool *p;
	struct doca_buf *b;

	/* mmap not started */
	CHECK_OK(doca_buf_pool_create(4, 64, idle, &p));
	CHECK_ERR(doca_buf_pool_start(p), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_pool_buf_alloc(p, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_pool_destroy(p));

	/* exactly fits, one byte too many */
	CHECK_OK(doca_buf_pool_create(64, 64, m, &p));
	CHECK_OK(doca_buf_pool_start(p));
	CHECK_OK(doca_buf_pool_destroy(p));
	CHECK_OK(doca_buf_pool_create(64, 65, m, &p));
	CHECK_ERR(doca_buf_pool_start(p), DOCA_ERROR_INITIALIZATION);
	CHECK_OK(doca_buf_pool_destroy(p));
	/* fits unaligned, not once every element is padded to 128 */
	CHECK_OK(doca_buf_pool_create(40, 100, m, &p));
	CHECK_OK(doca_buf_pool_set_element_alignment(p, 128));
	CHECK_ERR(doca_buf_pool_start(p), DOCA_ERROR_INITIALIZATION);
	CHECK_OK(doca_buf_pool_set_element_alignment(p, 1));
	CHECK_OK(doca_buf_pool_start(p));
	CHECK_OK(doca_buf_pool_destroy(p));
	/* an alignment larger than the whole range */
	CHECK_OK(doca_buf_pool_create(1, 1, m, &p));
	CHECK_OK(doca_buf_pool_set_element_alignment(p, (size_t)1 << 40));
	CHECK_ERR(doca_buf_pool_start(p), DOCA_ERROR_INITIALIZATION);
	CHECK_OK(doca_buf_pool_destroy(p));

	CHECK_OK(doca_mmap_destroy(idle));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_alignment(void)
{
	/* the range starts 3 bytes past a 64-byte boundary: the first element moves up */
	struct doca_mmap *m = mmap_over(mem + 3, sizeof(mem) - 3, true);
	struct doca_buf *b[8];
	struct doca_buf_pool *p;
	size_t len, data_len;
	void *head, *data;

	CHECK_OK(doca_buf_pool_create(8, 40, m, &p));
	CHECK_OK(doca_buf_pool_set_element_alignment(p, 64));
	CHECK_OK(doca_buf_pool_start(p));
	for (int i = 0; i < 8; i++) {
		CHECK_OK(doca_buf_pool_buf_alloc(p, &b[i]));
		CHECK_OK(doca_buf_get_head(b[i], &head));
		CHECK_OK(doca_buf_get_len(b[i], &len));
		CHECK_OK(doca_buf_get_data(b[i], &data));
		CHECK_OK(doca_buf_get_data_len(b[i], &data_len));
		CHECK(((uintptr_t)head & 63) == 0);
		CHECK((char *)head >= mem + 3 && (char *)head + len <= mem + sizeof(mem));
		CHECK(len == 40 && data == head && data_len == 0);
		for (int j = 0; j < i; j++)
			CHECK(b[j] != b[i]);
	}
	for (int i = 0; i < 8; i++)
		CHECK_OK(doca_buf_dec_refcount(b[i], NULL));
	CHECK_OK(doca_buf_pool_destroy(p));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_alloc_release(void)
{
	struct doca_mmap *m = mmap_over(mem, sizeof(mem), true);
	struct doca_buf *b[4], *x;
	struct doca_buf_pool *p;
	uint32_t n;
	uint16_t rc;

	CHECK_OK(doca_buf_pool_create(4, 256, m, &p));
	CHECK_ERR(doca_buf_pool_buf_alloc(p, &x), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_buf_pool_start(p));
	CHECK_ERR(doca_buf_pool_buf_alloc(NULL, &x), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_pool_buf_alloc(p, NULL), DOCA_ERROR_INVALID_VALUE);
	for (int i = 0; i < 4; i++)
		CHECK_OK(doca_buf_pool_buf_alloc(p, &b[i]));
	CHECK_ERR(doca_buf_pool_buf_alloc(p, &x), DOCA_ERROR_NO_MEMORY);
	CHECK_OK(doca_buf_pool_get_num_free_elements(p, &n));
	CHECK(n == 0);
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 4);
	CHECK_OK(doca_buf_get_refcount(b[0], &rc));
	CHECK(rc == 1);

	/* pool bufs are ordinary bufs: data rules and lists */
	CHECK_OK(doca_buf_set_data_len(b[0], 256));
	CHECK_ERR(doca_buf_set_data_len(b[0], 257), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_chain_list(b[0], b[1]));

	CHECK_ERR(doca_buf_pool_stop(p), DOCA_ERROR_IN_USE);
	CHECK_ERR(doca_buf_pool_destroy(p), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_buf_dec_refcount(b[0], NULL)); /* returns b[0] and b[1] */
	CHECK_OK(doca_buf_pool_get_num_free_elements(p, &n));
	CHECK(n == 2);
	/* a re-allocated element starts empty again */
	CHECK_OK(doca_buf_pool_buf_alloc(p, &x));
	CHECK(x == b[1] || x == b[0]);
	CHECK(x->data_len == 0 && x->next == NULL);
	CHECK_OK(doca_buf_dec_refcount(x, NULL));
	CHECK_OK(doca_buf_dec_refcount(b[2], NULL));
	CHECK_OK(doca_buf_dec_refcount(b[3], NULL));
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 0);
	CHECK_OK(doca_buf_pool_destroy(p)); /* implicitly stops */
	CHECK_OK(doca_mmap_destroy(m));
}

int main(void)
{
	TEST_RUN(test_create_and_setters);
	TEST_RUN(test_start_rules);
	TEST_RUN(test_alignment);
	TEST_RUN(test_alloc_release);
	TEST_EXIT();
}
