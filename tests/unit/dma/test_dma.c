/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of doca_dma within one process: lifecycle, copies, lists, faults and misuse. */
#include <stdbool.h>
#include <sys/mman.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "test.h"

#define MEM_LEN (1 << 20)

struct env {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	char *mem;
};

static int done, failed;
static doca_error_t last_status;
static enum doca_ctx_states last_state;

static void on_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	last_status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	done++;
}

/* Order in which tasks completed, by their user data. */
static uint64_t order[8];

static void on_done_ordered(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	if (done < 8)
		order[done] = task_ud.u64;
	on_done(task, task_ud, ctx_ud);
}

static void on_error(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	last_status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	failed++;
}

static void on_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	last_state = next;
}

static struct doca_dev *open_dma_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS)
			CHECK_OK(doca_dev_open(list[i], &dev));
	CHECK(dev != NULL);
	CHECK_OK(doca_devinfo_destroy_list(list));
	return dev;
}

static struct doca_mmap *make_mmap(struct doca_dev *dev, void *addr, size_t len, uint32_t perm)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	CHECK_OK(doca_mmap_set_permissions(m, perm));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static void env_up(struct env *e, uint32_t num_tasks)
{
	memset(e, 0, sizeof(*e));
	done = failed = 0;
	e->dev = open_dma_dev();
	e->mem = calloc(1, MEM_LEN);
	e->mmap = make_mmap(e->dev, e->mem, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_buf_inventory_create(256, &e->inv));
	CHECK_OK(doca_buf_inventory_start(e->inv));
	CHECK_OK(doca_pe_create(&e->pe));
	CHECK_OK(doca_dma_create(e->dev, &e->dma));
	CHECK_OK(doca_pe_connect_ctx(e->pe, doca_dma_as_ctx(e->dma)));
	CHECK_OK(doca_ctx_set_state_changed_cb(doca_dma_as_ctx(e->dma), on_state));
	CHECK_OK(doca_dma_task_memcpy_set_conf(e->dma, on_done, on_error, num_tasks));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(e->dma)));
}

static void env_down(struct env *e)
{
	while (doca_pe_progress(e->pe))
		;
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(e->dma)));
	CHECK_OK(doca_dma_destroy(e->dma));
	CHECK_OK(doca_pe_destroy(e->pe));
	CHECK_OK(doca_buf_inventory_destroy(e->inv));
	CHECK_OK(doca_mmap_destroy(e->mmap));
	CHECK_OK(doca_dev_close(e->dev));
	free(e->mem);
}

static struct doca_buf *buf(struct env *e, struct doca_mmap *m, char *addr, size_t len, size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(e->inv, m, addr, len, addr, data_len, &b));
	return b;
}

static void drain(struct env *e)
{
	while (doca_pe_progress(e->pe))
		;
}

static void test_caps_and_create(void)
{
	struct doca_dev *dev = open_dma_dev();
	struct doca_dma *dma;
	uint32_t list_len = 0, max_tasks = 0;
	uint64_t max_size = 0;

	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(dev), &list_len));
	CHECK(list_len >= 1);
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(dev), &max_size));
	CHECK(max_size >= 4096);
	CHECK_ERR(doca_dma_cap_task_memcpy_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_create(NULL, &dma), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_OK(doca_dma_cap_get_max_num_tasks(dma, &max_tasks));
	CHECK(max_tasks >= 1);
	CHECK(doca_dma_as_ctx(dma) != NULL);
	CHECK(doca_dma_as_ctx(NULL) == NULL);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(dma, on_done, on_error, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(dma, on_done, on_error, max_tasks + 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(dma, NULL, on_error, 1), DOCA_ERROR_INVALID_VALUE);
	{
		struct doca_dma_task_memcpy *t;

		CHECK_ERR(doca_dma_task_memcpy_alloc_init(dma, NULL, NULL, (union doca_data){0}, &t),
			  DOCA_ERROR_BAD_STATE); /* not configured */
	}
	CHECK_ERR(doca_ctx_start(doca_dma_as_ctx(dma)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_ERR(doca_dma_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_close(dev));
}

static void test_simple_copy(void)
{
	struct env e;
	struct doca_dma_task_memcpy *t;
	struct doca_buf *src, *dst;
	size_t len = 0;
	void *data;

	env_up(&e, 4);
	memcpy(e.mem, "hello, soft DMA", 16);
	memcpy(e.mem + 4096, "AB", 2);
	src = buf(&e, e.mmap, e.mem, 16, 16);
	dst = buf(&e, e.mmap, e.mem + 4096, 64, 2); /* holds "AB": the copy goes after it */
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){.u64 = 7}, &t));
	CHECK(doca_dma_task_memcpy_get_src(t) == src && doca_dma_task_memcpy_get_dst(t) == dst);
	CHECK(doca_task_get_user_data(doca_dma_task_memcpy_as_task(t)).u64 == 7);
	CHECK_ERR(doca_dma_task_memcpy_set_conf(e.dma, on_done, on_error, 2), DOCA_ERROR_BAD_STATE); /* after start */
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	CHECK(memcmp(e.mem + 4096 + 2, "hello", 5) != 0); /* submit does not copy */
	CHECK(done == 0);
	CHECK(doca_pe_progress(e.pe) == 1);
	CHECK(done == 1 && last_status == DOCA_SUCCESS);
	CHECK(memcmp(e.mem + 4096, "ABhello, soft DMA", 18) == 0);
	CHECK_OK(doca_buf_get_data_len(dst, &len));
	CHECK(len == 18);
	CHECK_OK(doca_buf_get_data(dst, &data));
	CHECK(data == e.mem + 4096);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	CHECK_ERR(doca_dma_destroy(e.dma), DOCA_ERROR_IN_USE); /* running */
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	env_down(&e);
}

/* Local memory given only DOCA_ACCESS_FLAG_PCI_READ_WRITE is read and written by the DMA engine
 * (third-party code on a BlueField-2 relies on it). */
static void test_pci_rw_local(void)
{
	struct env e;
	struct doca_mmap *pm;
	char *pmem = calloc(1, 8192);
	struct doca_dma_task_memcpy *t;
	struct doca_buf *src, *dst;

	env_up(&e, 4);
	pm = make_mmap(e.dev, pmem, 8192, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	memcpy(pmem, "pci rw", 6);
	src = buf(&e, pm, pmem, 6, 6);
	dst = buf(&e, pm, pmem + 4096, 64, 0);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){.u64 = 0}, &t));
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	drain(&e);
	CHECK(done == 1 && last_status == DOCA_SUCCESS);
	CHECK(memcmp(pmem + 4096, "pci rw", 6) == 0);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_mmap_destroy(pm));
	env_down(&e);
	free(pmem);
}

static void test_lists(void)
{
	struct env e;
	struct doca_dma_task_memcpy *t;
	struct doca_buf *s[3], *d[2];
	size_t l0 = 0, l1 = 0;

	env_up(&e, 1);
	memcpy(e.mem, "aaaa", 4);
	memcpy(e.mem + 100, "bbbbbb", 6);
	memcpy(e.mem + 200, "cc", 2);
	s[0] = buf(&e, e.mmap, e.mem, 4, 4);
	s[1] = buf(&e, e.mmap, e.mem + 100, 6, 6);
	s[2] = buf(&e, e.mmap, e.mem + 200, 2, 2);
	CHECK_OK(doca_buf_chain_list(s[0], s[1]));
	CHECK_OK(doca_buf_chain_list(s[0], s[2]));
	d[0] = buf(&e, e.mmap, e.mem + 1000, 5, 0);
	d[1] = buf(&e, e.mmap, e.mem + 2000, 16, 0);
	CHECK_OK(doca_buf_chain_list(d[0], d[1]));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, s[0], d[0], (union doca_data){0}, &t));
	CHECK_OK(doca_task_try_submit(doca_dma_task_memcpy_as_task(t)));
	drain(&e);
	CHECK(done == 1);
	CHECK(memcmp(e.mem + 1000, "aaaab", 5) == 0);
	CHECK(memcmp(e.mem + 2000, "bbbbbcc", 7) == 0);
	CHECK_OK(doca_buf_get_data_len(d[0], &l0));
	CHECK_OK(doca_buf_get_data_len(d[1], &l1));
	CHECK(l0 == 5 && l1 == 7);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	CHECK_OK(doca_buf_dec_refcount(s[0], NULL)); /* the head releases the whole list */
	CHECK_OK(doca_buf_dec_refcount(d[0], NULL));
	env_down(&e);
}

/* A fault reported by the engine: error callback, then the context stops by itself. */
static void expect_fault(struct env *e, struct doca_buf *src, struct doca_buf *dst, doca_error_t status)
{
	struct doca_dma_task_memcpy *t;

	CHECK_OK(doca_dma_task_memcpy_alloc_init(e->dma, src, dst, (union doca_data){0}, &t));
	CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(t)), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_pe_progress(e->pe) == 0); /* refused: nothing queued */
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	failed = 0;
	CHECK(doca_pe_progress(e->pe) == 1);
	CHECK(failed == 1);
	CHECK_ERR(last_status, status);
	CHECK(last_state == DOCA_CTX_STATE_STOPPING);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	drain(e);
	CHECK(last_state == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(e->dma))); /* usable again */
}

static void test_faults(void)
{
	struct env e;
	struct doca_mmap *ro;
	char *ro_mem = calloc(1, 4096);
	struct doca_buf *src, *dst, *small, *empty, *ro_dst;
	uint32_t list_len = 0;
	uint64_t max_size = 0;

	env_up(&e, 4);
	memset(e.mem, 'x', 4096);
	src = buf(&e, e.mmap, e.mem, 64, 64);
	dst = buf(&e, e.mmap, e.mem + 8192, 64, 0);

	/* a missing permission flag: destination mmap without LOCAL_READ_WRITE */
	ro = make_mmap(e.dev, ro_mem, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	ro_dst = buf(&e, ro, ro_mem, 64, 0);
	expect_fault(&e, src, ro_dst, DOCA_ERROR_NOT_PERMITTED);
	CHECK(ro_mem[0] == 0); /* nothing written */

	/* zero-length source */
	empty = buf(&e, e.mmap, e.mem + 256, 64, 0);
	expect_fault(&e, empty, dst, DOCA_ERROR_INVALID_VALUE);

	/* destination too small */
	small = buf(&e, e.mmap, e.mem + 16384, 8, 0);
	expect_fault(&e, src, small, DOCA_ERROR_INVALID_VALUE);

	/* overlong source list: one more buf than the device allows */
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(e.dev), &list_len));
	{
		struct doca_buf *head = buf(&e, e.mmap, e.mem + 20000, 1, 1);

		for (uint32_t i = 1; i <= list_len; i++)
			CHECK_OK(doca_buf_chain_list(head, buf(&e, e.mmap, e.mem + 20000 + i, 1, 1)));
		expect_fault(&e, head, dst, DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_buf_dec_refcount(head, NULL));
	}

	/* oversize buffer: one byte more than the device's maximum (virtual memory only) */
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_size(doca_dev_as_devinfo(e.dev), &max_size));
	{
		size_t big_len = (size_t)max_size + 4096;
		char *big = mmap(NULL, big_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		struct doca_mmap *bm;
		struct doca_buf *bsrc;

		CHECK(big != MAP_FAILED);
		bm = make_mmap(e.dev, big, big_len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		bsrc = buf(&e, bm, big, (size_t)max_size + 1, (size_t)max_size + 1);
		expect_fault(&e, bsrc, dst, DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_buf_dec_refcount(bsrc, NULL));
		CHECK_OK(doca_mmap_destroy(bm));
		munmap(big, big_len);
	}

	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_dec_refcount(small, NULL));
	CHECK_OK(doca_buf_dec_refcount(empty, NULL));
	CHECK_OK(doca_buf_dec_refcount(ro_dst, NULL));
	CHECK_OK(doca_mmap_destroy(ro));
	free(ro_mem);
	env_down(&e);
}

static void test_pool_and_states(void)
{
	struct env e;
	struct doca_dma_task_memcpy *t[3];
	struct doca_buf *src, *dst;

	env_up(&e, 2);
	src = buf(&e, e.mmap, e.mem, 8, 8);
	dst = buf(&e, e.mmap, e.mem + 64, 64, 0);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){0}, &t[0]));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){0}, &t[1]));
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){0}, &t[2]), DOCA_ERROR_NO_MEMORY);
	doca_task_free(doca_dma_task_memcpy_as_task(t[1]));
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){0}, &t[2]));
	doca_task_free(doca_dma_task_memcpy_as_task(t[2]));
	/* stop with a task allocated: STOPPING until it is freed */
	CHECK_ERR(doca_ctx_stop(doca_dma_as_ctx(e.dma)), DOCA_ERROR_IN_PROGRESS);
	CHECK_ERR(doca_task_submit(doca_dma_task_memcpy_as_task(t[0])), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_dma_destroy(e.dma), DOCA_ERROR_IN_USE);
	doca_task_free(doca_dma_task_memcpy_as_task(t[0]));
	drain(&e);
	CHECK(last_state == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(e.dma)));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	env_down(&e);
}

/* Source in an mmap imported (same process) from a PCI export: readable with PCI_READ_ONLY. */
static void test_imported_source(void)
{
	struct env e;
	char *host_mem = calloc(1, 4096);
	struct doca_mmap *exp, *imp;
	const void *desc;
	size_t desc_len = 0, rlen = 0;
	void *raddr = NULL;
	struct doca_buf *src, *dst, *bad_dst;
	struct doca_dma_task_memcpy *t;

	env_up(&e, 2);
	strcpy(host_mem, "exported text");
	exp = make_mmap(e.dev, host_mem, 4096, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	CHECK_OK(doca_mmap_export_pci(exp, e.dev, &desc, &desc_len));
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, desc_len, e.dev, &imp));
	CHECK_OK(doca_mmap_get_memrange(imp, &raddr, &rlen));
	CHECK(raddr == host_mem && rlen == 4096);
	src = buf(&e, imp, raddr, 14, 14);
	dst = buf(&e, e.mmap, e.mem, 64, 0);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){0}, &t));
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	drain(&e);
	CHECK(done == 1 && strcmp(e.mem, "exported text") == 0);
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	/* writing into memory exported read-only is a permission fault */
	bad_dst = buf(&e, imp, raddr, 64, 0);
	expect_fault(&e, dst, bad_dst, DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_dec_refcount(bad_dst, NULL));
	CHECK_OK(doca_mmap_stop(imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(exp));
	free(host_mem);
	env_down(&e);
}

/* A same-process import ends with its export: no new bufs, and DMA on old ones faults. */
static void test_import_ends_with_exporter(void)
{
	struct env e;
	char *host_mem = calloc(1, 4096);
	struct doca_mmap *exp, *imp;
	struct doca_buf *src, *dst, *late = NULL;
	const void *desc;
	size_t desc_len = 0;

	env_up(&e, 2);
	strcpy(host_mem, "soon gone");
	exp = make_mmap(e.dev, host_mem, 4096, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	CHECK_OK(doca_mmap_export_pci(exp, e.dev, &desc, &desc_len));
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, desc_len, e.dev, &imp));
	src = buf(&e, imp, host_mem, 10, 10);
	dst = buf(&e, e.mmap, e.mem, 64, 0);
	CHECK_OK(doca_mmap_stop(exp)); /* ends the descriptor and the import */
	CHECK_ERR(doca_buf_inventory_buf_get_by_args(e.inv, imp, host_mem, 10, host_mem, 10, &late), DOCA_ERROR_BAD_STATE);
	expect_fault(&e, src, dst, DOCA_ERROR_IO_FAILED);
	CHECK(e.mem[0] == 0); /* nothing was read from the ended export */
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_mmap_stop(imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(exp));
	free(host_mem);
	env_down(&e);
}

/* doca_dma_set_ordered_completions: accepted either way (the soft engine completes a context's
 * copies in submission order), and the completions of a batch indeed come in that order. */
static void test_ordered_completions(void)
{
	struct doca_dev *dev = open_dma_dev();
	struct doca_dma_task_memcpy *t[4];
	struct doca_buf *src[4], *dst[4];
	struct doca_mmap *m;
	struct doca_buf_inventory *inv;
	struct doca_dma *dma;
	struct doca_pe *pe;
	char *mem = calloc(1, 8 * 4096);

	done = failed = 0;
	CHECK_ERR(doca_dma_set_ordered_completions(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	m = make_mmap(dev, mem, 8 * 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_buf_inventory_create(16, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, on_done_ordered, on_error, 4));
	CHECK_OK(doca_dma_set_ordered_completions(dma, 0));
	CHECK_OK(doca_dma_set_ordered_completions(dma, 1));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	for (int i = 0; i < 4; i++) {
		memset(mem + i * 4096, 'a' + i, 4096);
		CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + i * 4096, 4096, mem + i * 4096, 4096 >> i,
							    &src[i]));
		CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, mem + (4 + i) * 4096, 4096, mem + (4 + i) * 4096, 0,
							    &dst[i]));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src[i], dst[i], (union doca_data){.u64 = (uint64_t)i},
							 &t[i]));
	}
	for (int i = 0; i < 4; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t[i])));
	while (done + failed < 4)
		(void)doca_pe_progress(pe);
	CHECK(failed == 0);
	for (int i = 0; i < 4; i++) {
		CHECK(order[i] == (uint64_t)i);
		CHECK(mem[(4 + i) * 4096] == 'a' + i);
		doca_task_free(doca_dma_task_memcpy_as_task(t[i]));
		CHECK_OK(doca_buf_dec_refcount(src[i], NULL));
		CHECK_OK(doca_buf_dec_refcount(dst[i], NULL));
	}
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dev_close(dev));
	free(mem);
}

/*
 * faults.dma_error = 3 (injected.conf): every third copy of the card fails as the engine's own
 * failures do, IO_FAILED with nothing copied, and the context stops; the count goes on after a
 * restart, so copies 3 and 6 fail and the others land.
 */
static void test_injected(void)
{
	struct env e;
	struct doca_buf *src, *dst;
	struct doca_dma_task_memcpy *t;

	env_up(&e, 1);
	memset(e.mem, 'i', 64);
	src = buf(&e, e.mmap, e.mem, 64, 64);
	dst = buf(&e, e.mmap, e.mem + 4096, 64, 0);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){0}, &t));
	for (int i = 1; i <= 6; i++) {
		memset(e.mem + 4096, 0, 64);
		CHECK_OK(doca_buf_reset_data_len(dst));
		done = failed = 0;
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
		while (done + failed == 0)
			(void)doca_pe_progress(e.pe);
		if (i % 3 != 0) {
			CHECK(done == 1 && last_status == DOCA_SUCCESS && memcmp(e.mem + 4096, e.mem, 64) == 0);
			continue;
		}
		CHECK(failed == 1);
		CHECK_ERR(last_status, DOCA_ERROR_IO_FAILED);
		CHECK(e.mem[4096] == 0); /* nothing copied */
		CHECK(last_state == DOCA_CTX_STATE_STOPPING);
		doca_task_free(doca_dma_task_memcpy_as_task(t)); /* IDLE once every task is freed */
		drain(&e);
		CHECK(last_state == DOCA_CTX_STATE_IDLE);
		CHECK_OK(doca_ctx_start(doca_dma_as_ctx(e.dma)));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(e.dma, src, dst, (union doca_data){0}, &t));
	}
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	env_down(&e);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "injected") == 0) {
		TEST_RUN(test_injected);
		TEST_EXIT();
	}
	TEST_RUN(test_caps_and_create);
	TEST_RUN(test_simple_copy);
	TEST_RUN(test_lists);
	TEST_RUN(test_faults);
	TEST_RUN(test_pci_rw_local);
	TEST_RUN(test_pool_and_states);
	TEST_RUN(test_imported_source);
	TEST_RUN(test_import_ends_with_exporter);
	TEST_RUN(test_ordered_completions);
	TEST_EXIT();
}
