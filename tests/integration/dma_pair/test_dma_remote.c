/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DMA between the two sides of a soft card, through the public DOCA API, with real processes.
 *
 * This program plays the DPU: it imports memory that a host-side process exported and runs
 * DMA memcpy tasks on it. The host side is this same program re-executed as "exporter" with
 * SOFTDOCA_ROLE=host (a fresh process loads its own device model): it exports a buffer with
 * doca_mmap_export_pci, hands over the descriptor on a pipe and then only answers commands
 * (dump the buffer, stop the mmap); it never calls doca_pe_progress.
 *
 *   test_dma_remote <scenario> [cma|service]
 *
 * Scenarios: read_only (reads work, a write is refused with NOT_PERMITTED), read_write (both
 * directions, checked in the exporter's memory), killed (the exporter dies mid-stream: the
 * tasks complete with errors, none hangs), stopped (the exporter stops its mmap: IO_FAILED),
 * gone (importing the descriptor of an exporter that exited: NOT_FOUND), forged (descriptors
 * with a recomputed checksum that claim more than the export: INVALID_VALUE at import).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_error.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "softhw/base/export_desc.h"
#include "test.h"

#define MEM_LEN (4u << 20)
#define CHUNK (64u << 10)
#define WINDOW 8

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 13 + 5);
}

static bool read_full(int fd, void *buf, size_t len)
{
	for (char *p = buf; len > 0;) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool write_full(int fd, const void *buf, size_t len)
{
	for (const char *p = buf; len > 0;) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The first device of this process's side that can export (host) or import (DPU) over PCI. */
static struct doca_dev *open_dev(bool exporter)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t ok = 0;

		if (exporter) {
			(void)doca_mmap_cap_is_export_pci_supported(list[i], &ok);
		} else {
			(void)doca_mmap_cap_is_create_from_export_pci_supported(list[i], &ok);
			ok = ok && doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS;
		}
		if (ok && doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

/* ---- the host side: export, then obey commands on stdin ---- */

static int exporter_main(const char *access)
{
	const bool rdma = strcmp(access, "rdma") == 0; /* an RDMA export (read and write) instead */
	uint32_t perm = rdma ? DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE :
			strcmp(access, "rw") == 0 ? DOCA_ACCESS_FLAG_PCI_READ_WRITE :
						    DOCA_ACCESS_FLAG_PCI_READ_ONLY;
	struct doca_dev *dev = open_dev(true);
	uint8_t *mem = malloc(MEM_LEN);
	struct doca_mmap *mmap;
	const void *desc;
	size_t desc_len;
	uint64_t addr = (uint64_t)(uintptr_t)mem, len = MEM_LEN;
	uint32_t dlen;
	char c;

	if (dev == NULL || mem == NULL)
		return 3;
	for (size_t i = 0; i < MEM_LEN; i++)
		mem[i] = pattern(i);
	if (doca_mmap_create(&mmap) != DOCA_SUCCESS || doca_mmap_set_permissions(mmap, perm) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(mmap, mem, MEM_LEN) != DOCA_SUCCESS || doca_mmap_add_dev(mmap, dev) != DOCA_SUCCESS ||
	    doca_mmap_start(mmap) != DOCA_SUCCESS ||
	    (rdma ? doca_mmap_export_rdma : doca_mmap_export_pci)(mmap, dev, &desc, &desc_len) != DOCA_SUCCESS)
		return 4;
	dlen = (uint32_t)desc_len;
	if (!write_full(1, &dlen, sizeof(dlen)) || !write_full(1, desc, desc_len) || !write_full(1, &addr, 8) ||
	    !write_full(1, &len, 8))
		return 5;
	while (read(0, &c, 1) == 1) {
		if (c == 'd' && !write_full(1, mem, MEM_LEN))
			return 6;
		if (c == 's') { /* the export ends; importers are told before doca_mmap_stop returns */
			if (doca_mmap_stop(mmap) != DOCA_SUCCESS || !write_full(1, "k", 1))
				return 7;
		}
	}
	doca_mmap_destroy(mmap);
	doca_dev_close(dev);
	free(mem);
	return 0;
}

struct exporter {
	pid_t pid;
	int to;
	int from;
	uint8_t desc[1024];
	size_t desc_len;
	uint64_t addr;
	uint64_t len;
};

static bool exporter_start(struct exporter *x, const char *access)
{
	int to[2], from[2];
	uint32_t dlen = 0;

	memset(x, 0, sizeof(*x));
	/* close-on-exec: a second exporter must not hold the first one's pipes open */
	if (pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0)
		return false;
	fflush(NULL);
	x->pid = fork();
	if (x->pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		setenv("SOFTDOCA_ROLE", "host", 1);
		execl("/proc/self/exe", "test_dma_remote", "exporter", access, (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	x->to = to[1];
	x->from = from[0];
	if (x->pid < 0 || !read_full(x->from, &dlen, sizeof(dlen)) || dlen > sizeof(x->desc))
		return false;
	x->desc_len = dlen;
	return read_full(x->from, x->desc, dlen) && read_full(x->from, &x->addr, 8) && read_full(x->from, &x->len, 8);
}

static bool exporter_finish(struct exporter *x)
{
	int status = 0;

	close(x->to);
	close(x->from);
	return waitpid(x->pid, &status, 0) == x->pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- the DPU side: a DMA context and the imported memory ---- */

struct importer {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_buf_inventory *inv;
	struct doca_mmap *local;
	uint8_t *mem;
	struct doca_mmap *remote;
	/* completions */
	unsigned done;
	unsigned failed;
	doca_error_t last_error;
	unsigned resubmit; /* streaming: tasks still to resubmit */
	struct exporter *kill_after_first; /* streaming: kill this exporter after the first completions */
};

static void on_success(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct importer *im = ctx_ud.ptr;

	(void)task_ud;
	im->done++;
	if (im->kill_after_first != NULL && im->done == WINDOW) {
		int status;

		/* mid-stream: tasks are in flight when the exporter dies */
		kill(im->kill_after_first->pid, SIGKILL);
		waitpid(im->kill_after_first->pid, &status, 0);
		im->kill_after_first = NULL;
	}
	if (im->resubmit > 0) {
		im->resubmit--;
		doca_buf_reset_data_len(doca_dma_task_memcpy_get_dst(task));
		if (doca_task_submit(doca_dma_task_memcpy_as_task(task)) == DOCA_SUCCESS)
			return;
	}
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static void on_error(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct importer *im = ctx_ud.ptr;

	(void)task_ud;
	im->failed++;
	im->last_error = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static bool importer_init(struct importer *im)
{
	memset(im, 0, sizeof(*im));
	im->dev = open_dev(false);
	im->mem = calloc(1, MEM_LEN);
	if (im->dev == NULL || im->mem == NULL)
		return false;
	return doca_mmap_create(&im->local) == DOCA_SUCCESS &&
	       doca_mmap_set_memrange(im->local, im->mem, MEM_LEN) == DOCA_SUCCESS &&
	       doca_mmap_add_dev(im->local, im->dev) == DOCA_SUCCESS && doca_mmap_start(im->local) == DOCA_SUCCESS &&
	       doca_buf_inventory_create(4 * WINDOW, &im->inv) == DOCA_SUCCESS &&
	       doca_buf_inventory_start(im->inv) == DOCA_SUCCESS && doca_pe_create(&im->pe) == DOCA_SUCCESS &&
	       doca_dma_create(im->dev, &im->dma) == DOCA_SUCCESS && (im->ctx = doca_dma_as_ctx(im->dma)) != NULL &&
	       doca_pe_connect_ctx(im->pe, im->ctx) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_set_conf(im->dma, on_success, on_error, WINDOW) == DOCA_SUCCESS &&
	       doca_ctx_set_user_data(im->ctx, (union doca_data){.ptr = im}) == DOCA_SUCCESS;
}

static void importer_fini(struct importer *im)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

	if (im->ctx != NULL && doca_ctx_get_state(im->ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE) {
		doca_ctx_stop(im->ctx);
		while (doca_ctx_get_state(im->ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
			doca_pe_progress(im->pe);
	}
	if (im->dma != NULL)
		CHECK_OK(doca_dma_destroy(im->dma));
	if (im->pe != NULL)
		CHECK_OK(doca_pe_destroy(im->pe));
	if (im->remote != NULL)
		CHECK_OK(doca_mmap_destroy(im->remote));
	if (im->inv != NULL)
		CHECK_OK(doca_buf_inventory_destroy(im->inv));
	if (im->local != NULL)
		CHECK_OK(doca_mmap_destroy(im->local));
	if (im->dev != NULL)
		CHECK_OK(doca_dev_close(im->dev));
	free(im->mem);
}

/* Progress until every submitted task completed and the context is back to RUNNING or IDLE. */
static void drain(struct importer *im, unsigned expected)
{
	enum doca_ctx_states state;
	struct timespec ts = {0, 10000};

	while (im->done + im->failed < expected ||
	       (doca_ctx_get_state(im->ctx, &state) == DOCA_SUCCESS && state == DOCA_CTX_STATE_STOPPING)) {
		if (doca_pe_progress(im->pe) == 0)
			nanosleep(&ts, NULL);
	}
}

/* One memcpy task, src data -> dst tailroom; returns its completion status. */
static doca_error_t copy_once(struct importer *im, struct doca_mmap *src_mmap, uint64_t src, struct doca_mmap *dst_mmap,
			      uint64_t dst, size_t len)
{
	struct doca_buf *s = NULL, *d = NULL;
	struct doca_dma_task_memcpy *task;
	enum doca_ctx_states state;
	unsigned before = im->done + im->failed, ok_before = im->done;
	doca_error_t err;

	if (doca_ctx_get_state(im->ctx, &state) == DOCA_SUCCESS && state == DOCA_CTX_STATE_IDLE)
		CHECK_OK(doca_ctx_start(im->ctx)); /* a failed task stopped it */
	err = doca_buf_inventory_buf_get_by_data(im->inv, src_mmap, (void *)(uintptr_t)src, len, &s);
	if (err == DOCA_SUCCESS)
		err = doca_buf_inventory_buf_get_by_addr(im->inv, dst_mmap, (void *)(uintptr_t)dst, len, &d);
	if (err == DOCA_SUCCESS)
		err = doca_dma_task_memcpy_alloc_init(im->dma, s, d, (union doca_data){0}, &task);
	if (err == DOCA_SUCCESS) {
		err = doca_task_submit(doca_dma_task_memcpy_as_task(task));
		if (err == DOCA_SUCCESS) {
			drain(im, before + 1);
			err = im->done > ok_before ? DOCA_SUCCESS : im->last_error;
		} else {
			doca_task_free(doca_dma_task_memcpy_as_task(task));
		}
	}
	if (d != NULL)
		doca_buf_dec_refcount(d, NULL);
	if (s != NULL)
		doca_buf_dec_refcount(s, NULL);
	return err;
}

static bool import(struct importer *im, const struct exporter *x)
{
	doca_error_t err = doca_mmap_create_from_export(NULL, x->desc, x->desc_len, im->dev, &im->remote);

	CHECK_OK(err);
	return err == DOCA_SUCCESS;
}

static bool matches(const uint8_t *p, size_t off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != pattern(off + i))
			return false;
	return true;
}

/* A read-only export: reads work; a write is refused up front and faults when submitted. */
static void scenario_read_only(void)
{
	struct exporter x;
	struct importer im;

	CHECK(exporter_start(&x, "ro"));
	CHECK(importer_init(&im));
	CHECK_OK(doca_ctx_start(im.ctx));
	if (import(&im, &x)) {
		CHECK_OK(copy_once(&im, im.remote, x.addr, im.local, (uint64_t)(uintptr_t)im.mem, MEM_LEN));
		CHECK(matches(im.mem, 0, MEM_LEN));
		CHECK_OK(copy_once(&im, im.remote, x.addr + 4097, im.local, (uint64_t)(uintptr_t)im.mem, 1000));
		CHECK(matches(im.mem, 4097, 1000));

		/* the engine refuses a write into read-only host memory */
		CHECK_ERR(copy_once(&im, im.local, (uint64_t)(uintptr_t)im.mem, im.remote, x.addr, 64),
			  DOCA_ERROR_NOT_PERMITTED);
		/* and doca_task_try_submit refuses it up front (INVALID_VALUE, DOCA's one code for it) */
		struct doca_buf *s, *d;
		struct doca_dma_task_memcpy *task;

		CHECK_OK(doca_ctx_start(im.ctx));
		CHECK_OK(doca_buf_inventory_buf_get_by_data(im.inv, im.local, im.mem, 64, &s));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(im.inv, im.remote, (void *)(uintptr_t)x.addr, 64, &d));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(im.dma, s, d, (union doca_data){0}, &task));
		CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(task)), DOCA_ERROR_INVALID_VALUE);
		doca_task_free(doca_dma_task_memcpy_as_task(task));
		doca_buf_dec_refcount(d, NULL);
		doca_buf_dec_refcount(s, NULL);

		/* the host memory is untouched */
		CHECK(write_full(x.to, "d", 1));
		uint8_t *dump = malloc(MEM_LEN);
		CHECK(dump != NULL && read_full(x.from, dump, MEM_LEN) && matches(dump, 0, MEM_LEN));
		free(dump);
	}
	importer_fini(&im);
	CHECK(exporter_finish(&x));
}

/* A read-write export: the DPU writes host memory, the host sees it, the DPU reads it back. */
static void scenario_read_write(void)
{
	const size_t off = 1000, len = 3 * (1u << 20) + 17;
	struct exporter x;
	struct importer im;
	uint8_t *dump = malloc(MEM_LEN);

	CHECK(exporter_start(&x, "rw"));
	CHECK(importer_init(&im));
	CHECK_OK(doca_ctx_start(im.ctx));
	if (dump != NULL && import(&im, &x)) {
		memset(im.mem, 0xc3, len);
		CHECK_OK(copy_once(&im, im.local, (uint64_t)(uintptr_t)im.mem, im.remote, x.addr + off, len));
		CHECK(write_full(x.to, "d", 1) && read_full(x.from, dump, MEM_LEN));
		CHECK(matches(dump, 0, off) && matches(dump + off + len, off + len, MEM_LEN - off - len));
		bool written = true;
		for (size_t i = off; i < off + len; i++)
			written = written && dump[i] == 0xc3;
		CHECK(written);
		memset(im.mem, 0, MEM_LEN);
		CHECK_OK(copy_once(&im, im.remote, x.addr, im.local, (uint64_t)(uintptr_t)im.mem, MEM_LEN));
		CHECK(memcmp(im.mem, dump, MEM_LEN) == 0);
	}
	free(dump);
	importer_fini(&im);
	CHECK(exporter_finish(&x));
}

/* The exporter dies with tasks in flight: they complete (with errors), nothing hangs. */
static void scenario_killed(void)
{
	struct exporter x;
	struct importer im;
	unsigned submitted = 0;

	CHECK(exporter_start(&x, "ro"));
	CHECK(importer_init(&im));
	CHECK_OK(doca_ctx_start(im.ctx));
	if (import(&im, &x)) {
		struct doca_buf *s[WINDOW], *d[WINDOW];

		im.resubmit = 1000000; /* a stream that only the exporter's death ends */
		im.kill_after_first = &x;
		for (unsigned i = 0; i < WINDOW; i++) {
			struct doca_dma_task_memcpy *task;

			CHECK_OK(doca_buf_inventory_buf_get_by_data(im.inv, im.remote,
								    (void *)(uintptr_t)(x.addr + i * CHUNK), CHUNK,
								    &s[i]));
			CHECK_OK(doca_buf_inventory_buf_get_by_addr(im.inv, im.local, im.mem + i * CHUNK, CHUNK, &d[i]));
			CHECK_OK(doca_dma_task_memcpy_alloc_init(im.dma, s[i], d[i], (union doca_data){0}, &task));
			CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
			submitted++;
		}
		/* the stream ends when the context stops on the first error and flushes the rest */
		enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
		while (doca_ctx_get_state(im.ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
			doca_pe_progress(im.pe);
		CHECK(im.done >= WINDOW);
		CHECK(im.failed >= 1);
		CHECK(im.kill_after_first == NULL);
		fprintf(stderr, "stream: %u tasks completed, %u failed, last error %s\n", im.done, im.failed,
			doca_error_get_name(im.last_error));
		/* every task came back: none is left allocated */
		CHECK_OK(doca_dma_destroy(im.dma));
		im.dma = NULL;
		im.ctx = NULL;
		/* the next copy fails at once, with the exporter's death as the reason */
		CHECK_OK(doca_dma_create(im.dev, &im.dma));
		im.ctx = doca_dma_as_ctx(im.dma);
		CHECK_OK(doca_pe_connect_ctx(im.pe, im.ctx));
		CHECK_OK(doca_dma_task_memcpy_set_conf(im.dma, on_success, on_error, WINDOW));
		CHECK_OK(doca_ctx_set_user_data(im.ctx, (union doca_data){.ptr = &im}));
		im.resubmit = 0;
		CHECK_ERR(copy_once(&im, im.remote, x.addr, im.local, (uint64_t)(uintptr_t)im.mem, 64),
			  DOCA_ERROR_CONNECTION_ABORTED);
		for (unsigned i = 0; i < WINDOW; i++) {
			doca_buf_dec_refcount(d[i], NULL);
			doca_buf_dec_refcount(s[i], NULL);
		}
	}
	(void)submitted;
	importer_fini(&im);
	close(x.to);
	close(x.from);
}

/* The exporter stops its mmap: DMA on the import fails with IO_FAILED. */
static void scenario_stopped(void)
{
	struct exporter x;
	struct importer im;
	char ack = 0;

	CHECK(exporter_start(&x, "rw"));
	CHECK(importer_init(&im));
	CHECK_OK(doca_ctx_start(im.ctx));
	if (import(&im, &x)) {
		CHECK_OK(copy_once(&im, im.remote, x.addr, im.local, (uint64_t)(uintptr_t)im.mem, 64));
		CHECK(write_full(x.to, "s", 1) && read_full(x.from, &ack, 1) && ack == 'k');
		CHECK_ERR(copy_once(&im, im.remote, x.addr, im.local, (uint64_t)(uintptr_t)im.mem, 64),
			  DOCA_ERROR_IO_FAILED);
		CHECK_ERR(copy_once(&im, im.local, (uint64_t)(uintptr_t)im.mem, im.remote, x.addr, 64),
			  DOCA_ERROR_IO_FAILED);
		/* and a new import of that descriptor is refused */
		struct doca_mmap *again = NULL;
		CHECK_ERR(doca_mmap_create_from_export(NULL, x.desc, x.desc_len, im.dev, &again),
			  DOCA_ERROR_INVALID_VALUE);
	}
	importer_fini(&im);
	CHECK(exporter_finish(&x));
}

/* The exporter has exited: its descriptor cannot be imported. */
static void scenario_gone(void)
{
	struct exporter x;
	struct importer im;
	struct doca_mmap *m = NULL;

	CHECK(exporter_start(&x, "ro"));
	CHECK(exporter_finish(&x));
	CHECK(importer_init(&im));
	CHECK_ERR(doca_mmap_create_from_export(NULL, x.desc, x.desc_len, im.dev, &m), DOCA_ERROR_NOT_FOUND);
	CHECK(m == NULL);
	importer_fini(&im);
}

/* Did the SDK log (captured since the last call) say `needle`? */
static FILE *log_capture;
static long log_seen;

static bool log_says(const char *needle)
{
	char text[8192];
	size_t n;

	fflush(log_capture);
	fseek(log_capture, log_seen, SEEK_SET);
	n = fread(text, 1, sizeof(text) - 1, log_capture);
	text[n] = '\0';
	fseek(log_capture, 0, SEEK_END); /* (a longer text between two calls is not looked at) */
	log_seen = ftell(log_capture);
	if (strstr(text, needle) == NULL) {
		fprintf(stderr, "the log lacks \"%s\"; it says: %s\n", needle, text);
		return false;
	}
	return true;
}

/* A forged variant of x's descriptor (checksum recomputed) is refused; the log names `what`. */
static void expect_forged_refused(struct importer *im, const struct softdoca_mmap_desc *f, const char *what)
{
	uint8_t bytes[SOFTDOCA_MMAP_DESC_LEN];
	struct doca_mmap *m = NULL;

	softdoca_mmap_desc_encode(f, bytes);
	CHECK_ERR(doca_mmap_create_from_export(NULL, bytes, sizeof(bytes), im->dev, &m), DOCA_ERROR_INVALID_VALUE);
	if (m == NULL)
		CHECK(log_says(what));
	else
		CHECK_OK(doca_mmap_destroy(m));
}

/*
 * Forged descriptors of another process's exports: the range widened or moved, read-only
 * turned into read-write, an RDMA export passed off as a PCI one (which DMA would use), each
 * re-encoded with a valid checksum. The exporter's memory service says what it exported: each
 * import is refused. A narrower claim is no forgery: it imports and holds.
 */
static void scenario_forged(void)
{
	struct softdoca_mmap_desc real, f;
	struct doca_log_backend *capture;
	struct exporter x, y;
	struct importer im;
	const char *why = "";
	uint8_t *dump = malloc(MEM_LEN);

	log_capture = tmpfile();
	CHECK(log_capture != NULL && dump != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(log_capture, &capture));
	CHECK_OK(doca_log_backend_set_sdk_level(capture, DOCA_LOG_LEVEL_ERROR));
	CHECK(exporter_start(&x, "ro"));
	CHECK(exporter_start(&y, "rdma"));
	CHECK(importer_init(&im));
	CHECK_OK(doca_ctx_start(im.ctx));

	CHECK_OK(softdoca_mmap_desc_decode(x.desc, x.desc_len, &real, &why));
	f = real; /* widened past the end */
	f.len += 4096;
	expect_forged_refused(&im, &f, "range");
	f = real; /* moved: same length, starting a page later */
	f.addr += 4096;
	expect_forged_refused(&im, &f, "range");
	f = real; /* moved before the export */
	f.addr -= 4096;
	expect_forged_refused(&im, &f, "range");
	f = real; /* read-only turned into read-write */
	f.access = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	expect_forged_refused(&im, &f, "write access");

	/* narrower: a part of the range, read-only as exported */
	f = real;
	f.addr += 4096;
	f.len = 8192;
	{
		uint8_t bytes[SOFTDOCA_MMAP_DESC_LEN];

		softdoca_mmap_desc_encode(&f, bytes);
		CHECK_OK(doca_mmap_create_from_export(NULL, bytes, sizeof(bytes), im.dev, &im.remote));
	}
	if (im.remote != NULL) {
		struct doca_buf *b = NULL;

		CHECK_OK(copy_once(&im, im.remote, x.addr + 4096, im.local, (uint64_t)(uintptr_t)im.mem, 8192));
		CHECK(matches(im.mem, 4096, 8192));
		CHECK_ERR(doca_buf_inventory_buf_get_by_data(im.inv, im.remote, (void *)(uintptr_t)x.addr, 16, &b),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(copy_once(&im, im.local, (uint64_t)(uintptr_t)im.mem, im.remote, x.addr + 4096, 64),
			  DOCA_ERROR_NOT_PERMITTED);
		CHECK_OK(doca_mmap_destroy(im.remote));
		im.remote = NULL;
	}

	/* the RDMA export: no DMA through it, and its own claims are checked too */
	CHECK_OK(softdoca_mmap_desc_decode(y.desc, y.desc_len, &real, &why));
	f = real;
	f.kind = SOFTDOCA_MMAP_DESC_PCI;
	f.access = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	expect_forged_refused(&im, &f, "kind");
	f = real;
	f.len += 4096;
	expect_forged_refused(&im, &f, "range");
	f = real;
	f.access |= DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	expect_forged_refused(&im, &f, "rights");
	{
		struct doca_mmap *m = NULL;

		CHECK_OK(doca_mmap_create_from_export(NULL, y.desc, y.desc_len, im.dev, &m));
		if (m != NULL)
			CHECK_OK(doca_mmap_destroy(m));
	}

	/* neither exporter's memory changed */
	CHECK(write_full(x.to, "d", 1) && read_full(x.from, dump, MEM_LEN) && matches(dump, 0, MEM_LEN));
	CHECK(write_full(y.to, "d", 1) && read_full(y.from, dump, MEM_LEN) && matches(dump, 0, MEM_LEN));
	importer_fini(&im);
	CHECK(exporter_finish(&x));
	CHECK(exporter_finish(&y));
	free(dump);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} scenarios[] = {
		{"read_only", scenario_read_only}, {"read_write", scenario_read_write}, {"killed", scenario_killed},
		{"stopped", scenario_stopped},     {"gone", scenario_gone},        {"forged", scenario_forged},
	};
	struct doca_log_backend *sdk;

	if (argc == 3 && strcmp(argv[1], "exporter") == 0) {
		TEST_ROLE();
		return exporter_main(argv[2]);
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s <scenario> [cma|service]\n", argv[0]);
		return 2;
	}
	/* The same switch for both processes: the exporter inherits the environment. */
	if (argc > 2 && strcmp(argv[2], "service") == 0)
		setenv("SOFTDOCA_FABRIC_CMA", "0", 1);
	signal(SIGPIPE, SIG_IGN);
	doca_log_backend_create_with_file_sdk(stderr, &sdk);
	doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_WARNING);
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (strcmp(argv[1], scenarios[i].name) == 0) {
			TEST_RUN(scenarios[i].fn);
			TEST_EXIT();
		}
	}
	fprintf(stderr, "unknown scenario %s\n", argv[1]);
	return 2;
}
