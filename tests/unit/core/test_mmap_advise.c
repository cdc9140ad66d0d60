/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_mmap_advise: capabilities, context and task rules, and the cache-invalidate task run
 * through a PE, on a device of the soft model and on fake devices whose capabilities differ.
 */
#include <stdint.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_mmap.h"
#include "doca_mmap_advise.h"
#include "doca_pe.h"
#include "core_test.h"
#include "test.h"

static char mem[4096];
static int successes, errors;
static doca_error_t last_error;

static void on_done(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
		    union doca_data ctx_ud)
{
	CHECK(task_ud.u64 == 11);
	CHECK(ctx_ud.u64 == 22);
	CHECK(doca_task_get_status(doca_mmap_advise_task_invalidate_cache_as_doca_task(task)) == DOCA_SUCCESS);
	successes++;
}

static void on_error(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
		     union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	last_error = doca_task_get_status(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));
	errors++;
}

/* Opens the model's first device that has the cache-invalidate task. */
static struct doca_dev *open_advise_dev(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_mmap_advise_cap_task_cache_invalidate_is_supported(list[i]) == DOCA_SUCCESS)
			CHECK_OK(doca_dev_open(list[i], &dev));
	doca_devinfo_destroy_list(list);
	CHECK(dev != NULL);
	return dev;
}

static void progress_until(struct doca_pe *pe, const int *counter, int target)
{
	for (int i = 0; i < 1000 && *counter < target; i++)
		(void)doca_pe_progress(pe);
}

static void test_caps(void)
{
	struct fake_dev old;
	struct doca_dev *dev = open_advise_dev(), *fake = fake_dev_init(&old, "old", "x", false);
	struct doca_mmap_advise *a;
	uint64_t size = 0;

	CHECK_ERR(doca_mmap_advise_cap_task_cache_invalidate_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(NULL, &size), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(doca_dev_as_devinfo(dev), NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(doca_dev_as_devinfo(dev), &size));
	CHECK(size == 2ULL << 30); /* BlueField-3: the DMA engine's largest buffer */
	/* A device without the task (BlueField-2, ConnectX-6 Dx) */
	CHECK_ERR(doca_mmap_advise_cap_task_cache_invalidate_is_supported(doca_dev_as_devinfo(fake)),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(doca_dev_as_devinfo(fake), &size),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_advise_create(fake, &a), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_advise_create(NULL, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_mmap_advise_as_ctx(NULL) == NULL);
	CHECK_OK(doca_dev_close(dev));
}

/* The whole life of a context and its tasks, with the rules along the way. */
static void test_task_lifecycle(void)
{
	struct doca_dev *dev = open_advise_dev();
	struct doca_mmap_advise *a;
	struct doca_mmap_advise_task_invalidate_cache *t, *t2, *t3;
	struct doca_buf_inventory *inv;
	struct doca_mmap *m;
	struct doca_buf *buf, *buf2;
	struct doca_ctx *ctx;
	struct doca_pe *pe;
	union doca_data ud = {.u64 = 11};

	successes = errors = 0;
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 1024, &buf));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem + 1024, 1024, &buf2));

	CHECK_OK(doca_mmap_advise_create(dev, &a));
	ctx = doca_mmap_advise_as_ctx(a);
	CHECK(ctx != NULL);
	/* The device stays open while the context holds it */
	CHECK_ERR(doca_dev_close(dev), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_OK(doca_ctx_set_user_data(ctx, (union doca_data){.u64 = 22}));

	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(a, buf, ud, &t), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(NULL, on_done, on_error, 2), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(a, NULL, on_error, 2), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(a, on_done, NULL, 2), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(a, on_done, on_error, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(a, on_done, on_error, 2));
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(NULL, buf, ud, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(a, buf, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(a, buf, ud, &t));
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(t) == buf);
	/* Not started: no submission */
	CHECK_ERR(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)), DOCA_ERROR_BAD_STATE);

	CHECK_OK(doca_ctx_start(ctx));
	/* Configuration is for an idle context (DOCA documents NOT_PERMITTED here) */
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(a, on_done, on_error, 2), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_advise_destroy(a), DOCA_ERROR_IN_USE);

	/* One task invalidates a buf; set_buf points it at another, and it runs again */
	CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)));
	progress_until(pe, &successes, 1);
	CHECK(successes == 1 && errors == 0);
	doca_mmap_advise_task_invalidate_cache_set_buf(t, buf2);
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(t) == buf2);
	CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)));
	progress_until(pe, &successes, 2);
	CHECK(successes == 2);

	/* The pool holds two tasks */
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(a, NULL, ud, &t2));
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_alloc_init(a, buf, ud, &t3), DOCA_ERROR_NO_MEMORY);
	/* No buffer: try_submit refuses it, submit fails it at completion */
	CHECK_ERR(doca_task_try_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t2)),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t2)));
	progress_until(pe, &errors, 1);
	CHECK(errors == 1 && last_error == DOCA_ERROR_INVALID_VALUE);
	/* An error does not stop the context */
	{
		enum doca_ctx_states st;

		CHECK_OK(doca_ctx_get_state(ctx, &st));
		CHECK(st == DOCA_CTX_STATE_RUNNING);
	}

	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(t));
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(t2));
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK_OK(doca_mmap_advise_destroy(a));
	CHECK_OK(doca_buf_dec_refcount(buf, NULL));
	CHECK_OK(doca_buf_dec_refcount(buf2, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
}

/* A buffer larger than the device's maximum, and an empty one, fail at completion. */
static void test_size_faults(void)
{
	struct fake_dev small;
	struct doca_dev *dev = fake_dev_init(&small, "small", "x", false);
	struct doca_mmap_advise *a;
	struct doca_mmap_advise_task_invalidate_cache *t;
	struct doca_buf_inventory *inv;
	struct doca_mmap *m;
	struct doca_buf *big, *empty;
	struct doca_pe *pe;

	small.fn.caps.mmap_advise_cache_invalidate = true;
	small.fn.caps.mmap_advise_max_buf_size = 64;
	small.fn.caps.dma_max_num_tasks = 8;
	errors = successes = 0;
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_buf_inventory_create(2, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 65, &big));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 0, &empty));
	CHECK_OK(doca_mmap_advise_create(dev, &a));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_mmap_advise_as_ctx(a)));
	CHECK_ERR(doca_mmap_advise_task_invalidate_cache_set_conf(a, on_done, on_error, 9), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(a, on_done, on_error, 1));
	CHECK_OK(doca_ctx_start(doca_mmap_advise_as_ctx(a)));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(a, big, (union doca_data){.u64 = 0}, &t));
	CHECK_ERR(doca_task_try_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)));
	progress_until(pe, &errors, 1);
	CHECK(errors == 1 && last_error == DOCA_ERROR_INVALID_VALUE);
	doca_mmap_advise_task_invalidate_cache_set_buf(t, empty);
	CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(t)));
	progress_until(pe, &errors, 2);
	CHECK(errors == 2 && successes == 0);

	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(t));
	CHECK_OK(doca_ctx_stop(doca_mmap_advise_as_ctx(a)));
	CHECK_OK(doca_mmap_advise_destroy(a));
	CHECK_OK(doca_buf_dec_refcount(big, NULL));
	CHECK_OK(doca_buf_dec_refcount(empty, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_pe_destroy(pe));
}

int main(void)
{
	TEST_RUN(test_caps);
	TEST_RUN(test_task_lifecycle);
	TEST_RUN(test_size_faults);
	TEST_EXIT();
}
