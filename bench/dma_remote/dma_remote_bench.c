/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/dma_remote: host<->DPU DMA bandwidth, against a plain process_vm_readv loop.
 *
 * The bench forks the host side: a process that exports a buffer with doca_mmap_export_pci
 * and then only waits (it never progresses anything). This process, the DPU side, imports it
 * and runs DMA memcpy tasks reading 1 MiB pieces of the host's memory into its own, with a
 * window of tasks in flight; the peer is process_vm_readv() over the same pieces, same count,
 * in the same run. Printed: both bandwidths and their ratio (target >= 0.8), for the
 * shared-window path (the host's pages moved onto shared memory at export), then, with a second
 * host that exports without a window (SOFTDOCA_FABRIC_SHARE=0), the cross-memory-attach path and
 * the service-thread path (SOFTDOCA_FABRIC_CMA=0) for reference.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_error.h"
#include "doca_mmap.h"
#include "doca_pe.h"

#define WINDOW 8

#define TRY(expr) \
	do { \
		doca_error_t err_ = (expr); \
		if (err_ != DOCA_SUCCESS) { \
			fprintf(stderr, "%s failed: %s\n", #expr, doca_error_get_descr(err_)); \
			exit(EXIT_FAILURE); \
		} \
	} while (0)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct doca_dev *open_dev(bool exporter)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	TRY(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t ok = 0;

		if (exporter) {
			(void)doca_mmap_cap_is_export_pci_supported(list[i], &ok);
		} else {
			(void)doca_mmap_cap_is_create_from_export_pci_supported(list[i], &ok);
			ok = ok && doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS;
		}
		if (ok)
			TRY(doca_dev_open(list[i], &dev));
	}
	TRY(doca_devinfo_destroy_list(list));
	if (dev == NULL) {
		fprintf(stderr, "no suitable device on the %s side\n", exporter ? "host" : "DPU");
		exit(EXIT_FAILURE);
	}
	return dev;
}

/* The host side: export, hand the descriptor over, wait until the DPU side is done. */
static void host_main(int out, int in, size_t len)
{
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	const void *desc;
	size_t desc_len;
	char *mem = aligned_alloc(4096, len), c;
	uint64_t addr = (uint64_t)(uintptr_t)mem;

	setenv("SOFTDOCA_ROLE", "host", 1); /* before the first DOCA call loads the model */
	dev = open_dev(true);
	memset(mem, 0x5a, len);
	TRY(doca_mmap_create(&mmap));
	TRY(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	TRY(doca_mmap_set_memrange(mmap, mem, len));
	TRY(doca_mmap_add_dev(mmap, dev));
	TRY(doca_mmap_start(mmap));
	TRY(doca_mmap_export_pci(mmap, dev, &desc, &desc_len));
	if (write(out, &desc_len, sizeof(desc_len)) != sizeof(desc_len) || write(out, desc, desc_len) != (ssize_t)desc_len ||
	    write(out, &addr, sizeof(addr)) != sizeof(addr))
		exit(EXIT_FAILURE);
	while (read(in, &c, 1) > 0) {
		/* idle: the DPU side's engine reaches our memory without us */
	}
	TRY(doca_mmap_destroy(mmap));
	TRY(doca_dev_close(dev));
	free(mem);
	exit(EXIT_SUCCESS);
}

struct bench {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_buf_inventory *inv;
	struct doca_mmap *local;
	char *mem;
	pid_t host_pid;
	uint64_t host_addr;
	uint8_t desc[1024];
	size_t desc_len;
	uint64_t completed;
	uint64_t target;
	bool failed;
};

static void on_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct bench *b = ctx_ud.ptr;

	(void)task_ud;
	b->completed++;
	if (b->completed + WINDOW > b->target)
		return;
	doca_buf_reset_data_len(doca_dma_task_memcpy_get_dst(task));
	if (doca_task_submit(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS)
		b->failed = true;
}

static void on_error(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct bench *b = ctx_ud.ptr;

	(void)task_ud;
	fprintf(stderr, "memcpy task failed: %s\n",
		doca_error_get_descr(doca_task_get_status(doca_dma_task_memcpy_as_task(task))));
	b->failed = true;
	b->completed++;
}

static struct doca_mmap *import(struct bench *b, bool cma)
{
	struct doca_mmap *remote;

	if (cma)
		unsetenv("SOFTDOCA_FABRIC_CMA");
	else
		setenv("SOFTDOCA_FABRIC_CMA", "0", 1);
	TRY(doca_mmap_create_from_export(NULL, b->desc, b->desc_len, b->dev, &remote));
	return remote;
}

/* `count` tasks reading `size`-byte pieces of the host buffer, WINDOW in flight; seconds. */
static double run_tasks(struct bench *b, struct doca_mmap *remote, size_t size, uint64_t count)
{
	struct doca_dma_task_memcpy *tasks[WINDOW];
	struct doca_buf *src[WINDOW], *dst[WINDOW];
	double t0, t1;

	for (int i = 0; i < WINDOW; i++) {
		TRY(doca_buf_inventory_buf_get_by_data(b->inv, remote, (void *)(uintptr_t)(b->host_addr + (size_t)i * size),
						       size, &src[i]));
		TRY(doca_buf_inventory_buf_get_by_addr(b->inv, b->local, b->mem + (size_t)i * size, size, &dst[i]));
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
	if (b->failed)
		exit(EXIT_FAILURE);
	for (int i = 0; i < WINDOW; i++) {
		doca_task_free(doca_dma_task_memcpy_as_task(tasks[i]));
		TRY(doca_buf_dec_refcount(src[i], NULL));
		TRY(doca_buf_dec_refcount(dst[i], NULL));
	}
	return t1 - t0;
}

/* The peer: process_vm_readv over the same pieces into the same destinations, same count. */
static double run_readv(struct bench *b, size_t size, uint64_t count)
{
	double t0 = now_s();

	for (uint64_t k = 0; k < count; k++) {
		size_t off = (size_t)(k % WINDOW) * size;
		struct iovec l = {.iov_base = b->mem + off, .iov_len = size};
		struct iovec r = {.iov_base = (void *)(uintptr_t)(b->host_addr + off), .iov_len = size};

		if (process_vm_readv(b->host_pid, &l, 1, &r, 1, 0) != (ssize_t)size) {
			perror("process_vm_readv");
			exit(EXIT_FAILURE);
		}
	}
	return now_s() - t0;
}

static void bandwidth(struct bench *b, struct doca_mmap *remote, size_t size, uint64_t count, const char *label)
{
	double ours = 1e9, peer = 1e9;
	double gb = (double)size * (double)count / 1e9;

	/* alternate, best of three: both see the same machine state */
	for (int i = 0; i < 3; i++) {
		double t = run_tasks(b, remote, size, count), p = run_readv(b, size, count);

		ours = t < ours ? t : ours;
		peer = p < peer ? p : peer;
	}
	printf("%-34s softdoca %7.2f GB/s   process_vm_readv %7.2f GB/s   ratio %.2f\n", label, gb / ours, gb / peer,
	       peer / ours);
}

/* Forks a host side that exports `len` bytes (with a shared window or not); reads its descriptor. */
static int host_start(struct bench *b, size_t len, bool window, int *to_host_w)
{
	int to_host[2], from_host[2];

	if (pipe(to_host) != 0 || pipe(from_host) != 0)
		return -1;
	fflush(NULL);
	b->host_pid = fork();
	if (b->host_pid == 0) {
		close(to_host[1]);
		close(from_host[0]);
		if (!window)
			setenv("SOFTDOCA_FABRIC_SHARE", "0", 1);
		host_main(from_host[1], to_host[0], len);
	}
	close(to_host[0]);
	close(from_host[1]);
	if (read(from_host[0], &b->desc_len, sizeof(b->desc_len)) != sizeof(b->desc_len) ||
	    b->desc_len > sizeof(b->desc) || read(from_host[0], b->desc, b->desc_len) != (ssize_t)b->desc_len ||
	    read(from_host[0], &b->host_addr, sizeof(b->host_addr)) != sizeof(b->host_addr)) {
		fprintf(stderr, "the host side did not export\n");
		return -1;
	}
	close(from_host[0]);
	*to_host_w = to_host[1];
	return 0;
}

/* Lets the host side go; true if it exited cleanly. */
static bool host_stop(struct bench *b, int to_host_w)
{
	int status = 0;

	close(to_host_w);
	return waitpid(b->host_pid, &status, 0) == b->host_pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	const size_t size = 1 << 20, len = (size_t)WINDOW * size;
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	int to_host;
	struct doca_mmap *remote;
	struct bench b;
	bool hosts_ok = true;

	if (scale <= 0)
		scale = 1.0;
	memset(&b, 0, sizeof(b));
	if (host_start(&b, len, true, &to_host) != 0)
		return EXIT_FAILURE;

	b.dev = open_dev(false);
	b.mem = aligned_alloc(4096, len);
	memset(b.mem, 0, len);
	TRY(doca_mmap_create(&b.local));
	TRY(doca_mmap_set_memrange(b.local, b.mem, len));
	TRY(doca_mmap_add_dev(b.local, b.dev));
	TRY(doca_mmap_start(b.local));
	TRY(doca_buf_inventory_create(2 * WINDOW, &b.inv));
	TRY(doca_buf_inventory_start(b.inv));
	TRY(doca_pe_create(&b.pe));
	TRY(doca_dma_create(b.dev, &b.dma));
	TRY(doca_pe_connect_ctx(b.pe, doca_dma_as_ctx(b.dma)));
	TRY(doca_dma_task_memcpy_set_conf(b.dma, on_done, on_error, WINDOW));
	TRY(doca_ctx_set_user_data(doca_dma_as_ctx(b.dma), (union doca_data){.ptr = &b}));
	TRY(doca_ctx_start(doca_dma_as_ctx(b.dma)));

	printf("bench/dma_remote: DPU-side DMA memcpy tasks reading host memory (another process) vs a\n"
	       "process_vm_readv loop over the same memory, same run (window %d)\n", WINDOW);
	remote = import(&b, true);
	(void)run_tasks(&b, remote, size, WINDOW); /* warm-up: every page touched on both sides */
	(void)run_readv(&b, size, WINDOW);
	bandwidth(&b, remote, size, (uint64_t)(3000 * scale), "host->DPU 1 MiB (shared window)");
	bandwidth(&b, remote, 64 << 10, (uint64_t)(40000 * scale), "host->DPU 64 KiB (shared window)");
	TRY(doca_mmap_destroy(remote));
	hosts_ok = host_stop(&b, to_host) && hosts_ok;

	if (host_start(&b, len, false, &to_host) != 0)
		return EXIT_FAILURE;
	remote = import(&b, true);
	(void)run_tasks(&b, remote, size, WINDOW);
	(void)run_readv(&b, size, WINDOW);
	bandwidth(&b, remote, size, (uint64_t)(3000 * scale), "host->DPU 1 MiB (cma)");
	bandwidth(&b, remote, 64 << 10, (uint64_t)(40000 * scale), "host->DPU 64 KiB (cma)");
	TRY(doca_mmap_destroy(remote));
	remote = import(&b, false);
	bandwidth(&b, remote, size, (uint64_t)(1000 * scale), "host->DPU 1 MiB (service thread)");
	TRY(doca_mmap_destroy(remote));
	hosts_ok = host_stop(&b, to_host) && hosts_ok;

	TRY(doca_ctx_stop(doca_dma_as_ctx(b.dma)));
	TRY(doca_dma_destroy(b.dma));
	TRY(doca_pe_destroy(b.pe));
	TRY(doca_buf_inventory_destroy(b.inv));
	TRY(doca_mmap_destroy(b.local));
	TRY(doca_dev_close(b.dev));
	free(b.mem);
	return hosts_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
