/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/dma: DOCA DMA memcpy tasks against a plain memcpy loop, in the same run.
 *
 *   bandwidth at 1 MiB and 64 KiB: bytes copied by memcpy tasks vs by memcpy() over the same
 *   buffers; task rate at 64 B: memcpy tasks completed per second vs memcpy() calls per second.
 *
 * The task loop keeps a window of tasks in flight: each completion callback resets the
 * destination and resubmits its task, as a streaming DOCA application would.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_error.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_pe.h"

#define WINDOW 64

struct bench {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	char *mem;
	size_t mem_len;
	uint64_t completed;
	uint64_t target;
	bool failed;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define TRY(expr) \
	do { \
		doca_error_t err_ = (expr); \
		if (err_ != DOCA_SUCCESS) { \
			fprintf(stderr, "%s failed: %s\n", #expr, doca_error_get_descr(err_)); \
			exit(EXIT_FAILURE); \
		} \
	} while (0)

static void on_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct bench *b = ctx_ud.ptr;

	(void)task_ud;
	b->completed++;
	if (b->completed + WINDOW > b->target) /* enough are in flight to reach the target */
		return;
	doca_buf_reset_data_len(doca_dma_task_memcpy_get_dst(task));
	if (doca_task_submit(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS)
		b->failed = true;
}

static void on_error(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct bench *b = ctx_ud.ptr;

	(void)task;
	(void)task_ud;
	fprintf(stderr, "memcpy task failed: %s\n",
		doca_error_get_descr(doca_task_get_status(doca_dma_task_memcpy_as_task(task))));
	b->failed = true;
	b->completed++;
}

static void setup(struct bench *b, size_t mem_len)
{
	struct doca_devinfo **list;
	uint32_t n;

	memset(b, 0, sizeof(*b));
	TRY(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && b->dev == NULL; i++)
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS)
			TRY(doca_dev_open(list[i], &b->dev));
	TRY(doca_devinfo_destroy_list(list));
	if (b->dev == NULL) {
		fprintf(stderr, "no device with DMA memcpy\n");
		exit(EXIT_FAILURE);
	}
	b->mem_len = mem_len;
	b->mem = aligned_alloc(4096, mem_len);
	memset(b->mem, 0xa5, mem_len);
	TRY(doca_mmap_create(&b->mmap));
	TRY(doca_mmap_set_memrange(b->mmap, b->mem, mem_len));
	TRY(doca_mmap_set_permissions(b->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	TRY(doca_mmap_add_dev(b->mmap, b->dev));
	TRY(doca_mmap_start(b->mmap));
	TRY(doca_buf_inventory_create(2 * WINDOW, &b->inv));
	TRY(doca_buf_inventory_start(b->inv));
	TRY(doca_pe_create(&b->pe));
	TRY(doca_dma_create(b->dev, &b->dma));
	TRY(doca_pe_connect_ctx(b->pe, doca_dma_as_ctx(b->dma)));
	TRY(doca_dma_task_memcpy_set_conf(b->dma, on_done, on_error, WINDOW));
	TRY(doca_ctx_set_user_data(doca_dma_as_ctx(b->dma), (union doca_data){.ptr = b}));
	TRY(doca_ctx_start(doca_dma_as_ctx(b->dma)));
}

static void teardown(struct bench *b)
{
	TRY(doca_ctx_stop(doca_dma_as_ctx(b->dma)));
	TRY(doca_dma_destroy(b->dma));
	TRY(doca_pe_destroy(b->pe));
	TRY(doca_buf_inventory_destroy(b->inv));
	TRY(doca_mmap_destroy(b->mmap));
	TRY(doca_dev_close(b->dev));
	free(b->mem);
}

/* Runs `count` memcpy tasks of `size` bytes; returns elapsed seconds. */
static double run_tasks(struct bench *b, size_t size, uint64_t count)
{
	struct doca_dma_task_memcpy *tasks[WINDOW];
	struct doca_buf *src[WINDOW], *dst[WINDOW];
	size_t stride = 2 * size;
	double t0, t1;

	if ((size_t)WINDOW * stride > b->mem_len) {
		fprintf(stderr, "buffer too small\n");
		exit(EXIT_FAILURE);
	}
	for (int i = 0; i < WINDOW; i++) {
		char *s = b->mem + (size_t)i * stride;

		TRY(doca_buf_inventory_buf_get_by_data(b->inv, b->mmap, s, size, &src[i]));
		TRY(doca_buf_inventory_buf_get_by_addr(b->inv, b->mmap, s + size, size, &dst[i]));
		TRY(doca_dma_task_memcpy_alloc_init(b->dma, src[i], dst[i], (union doca_data){.u64 = 0}, &tasks[i]));
	}
	b->completed = 0;
	b->target = count;
	t0 = now_s();
	for (int i = 0; i < WINDOW && (uint64_t)i < count; i++)
		TRY(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[i])));
	while (b->completed < count && !b->failed)
		(void)doca_pe_progress(b->pe);
	t1 = now_s();
	if (b->failed) {
		fprintf(stderr, "benchmark failed\n");
		exit(EXIT_FAILURE);
	}
	if (memcmp(b->mem, b->mem + size, size) != 0) {
		fprintf(stderr, "copied data differs\n");
		exit(EXIT_FAILURE);
	}
	for (int i = 0; i < WINDOW; i++) {
		doca_task_free(doca_dma_task_memcpy_as_task(tasks[i]));
		TRY(doca_buf_dec_refcount(src[i], NULL));
		TRY(doca_buf_dec_refcount(dst[i], NULL));
	}
	return t1 - t0;
}

/* The peer: memcpy() over the same buffer layout, same count. */
static double run_memcpy(struct bench *b, size_t size, uint64_t count)
{
	size_t stride = 2 * size;
	double t0 = now_s();

	for (uint64_t k = 0; k < count; k++) {
		char *s = b->mem + (size_t)(k % WINDOW) * stride;

		memcpy(s + size, s, size);
		__asm__ __volatile__("" ::: "memory"); /* keep every copy */
	}
	return now_s() - t0;
}

static void bandwidth(struct bench *b, size_t size, uint64_t count, const char *label)
{
	double ours = run_tasks(b, size, count);
	double peer = run_memcpy(b, size, count);
	double gb = (double)size * (double)count / 1e9;

	printf("%-22s softdoca %8.2f GB/s   memcpy %8.2f GB/s   ratio %.2f\n", label, gb / ours, gb / peer,
	       peer / ours);
}

static void rate(struct bench *b, size_t size, uint64_t count, const char *label)
{
	double ours = run_tasks(b, size, count);
	double peer = run_memcpy(b, size, count);

	printf("%-22s softdoca %8.2f Mops/s memcpy %8.2f Mops/s ratio %.2f\n", label, (double)count / ours / 1e6,
	       (double)count / peer / 1e6, peer / ours);
}

int main(int argc, char **argv)
{
	struct bench b;
	double scale = argc > 1 ? atof(argv[1]) : 1.0;

	if (scale <= 0)
		scale = 1.0;
	setup(&b, (size_t)WINDOW * 2 * (1 << 20));
	/* warm-up: touch every page through both paths */
	(void)run_tasks(&b, 1 << 20, WINDOW);
	(void)run_memcpy(&b, 1 << 20, WINDOW);
	printf("bench/dma: DOCA DMA memcpy tasks vs memcpy(), same buffers, same run (window %d)\n", WINDOW);
	bandwidth(&b, 1 << 20, (uint64_t)(4000 * scale), "memcpy task 1 MiB");
	bandwidth(&b, 64 << 10, (uint64_t)(60000 * scale), "memcpy task 64 KiB");
	rate(&b, 64, (uint64_t)(10000000 * scale), "memcpy task 64 B");
	teardown(&b);
	return EXIT_SUCCESS;
}
