/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Forged mmap descriptors imported in the exporting process itself: a real export's
 * descriptor with its range widened or moved, read-only turned into read-write, or its kind
 * swapped, re-encoded with a valid checksum. The import must refuse each with INVALID_VALUE
 * and a log line naming what differs. Where an import is (wrongly) accepted, a DMA copy
 * through it runs in a child process, to show what it reaches: memory outside the export
 * (a crash, or a secret read) or a write through a read-only export.
 *
 * Memory: three pages, [secret][exported][hole]: the middle page is exported, the first holds
 * bytes nobody exported, the last is unmapped.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "softhw/base/export_desc.h"
#include "test.h"

static struct doca_dev *dev;
static struct doca_pe *pe;
static struct doca_dma *dma;
static struct doca_buf_inventory *inv;
static char *local_mem; /* the DMA's own side */
static struct doca_mmap *local_mmap;
static char *pages; /* [secret][exported][hole] */
static long pg;
static FILE *log_file;
static long log_seen;
static int done, failed;
static doca_error_t last_status;

static void on_done(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	last_status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	done++;
}

static void on_error(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	last_status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	failed++;
}

static struct doca_mmap *make_mmap(void *addr, size_t len, uint32_t perm)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	CHECK_OK(doca_mmap_set_permissions(m, perm));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

/* Did the SDK log say `needle` since the last call? */
static bool log_says(const char *needle)
{
	char text[8192];
	size_t n;

	fflush(log_file);
	fseek(log_file, log_seen, SEEK_SET);
	n = fread(text, 1, sizeof(text) - 1, log_file);
	text[n] = '\0';
	fseek(log_file, 0, SEEK_END); /* (a longer text between two calls is not looked at) */
	log_seen = ftell(log_file);
	if (strstr(text, needle) == NULL) {
		fprintf(stderr, "log lacks \"%s\"; it says: %s\n", needle, text);
		return false;
	}
	return true;
}

/*
 * One DMA copy in a child process: from [addr, addr + len) of m into local memory, or the
 * other way when `write`. The child exits 0 when the copy succeeded (first byte of what it
 * read in the exit code's place is not needed: it prints it), 1 when it failed.
 */
static int dma_in_child(struct doca_mmap *m, char *addr, size_t len, bool write)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct doca_buf *r = NULL, *l = NULL;
		struct doca_dma_task_memcpy *t = NULL;

		alarm(10);
		memset(local_mem, 'L', len);
		if (doca_buf_inventory_buf_get_by_args(inv, m, addr, len, addr, write ? 0 : len, &r) != DOCA_SUCCESS ||
		    doca_buf_inventory_buf_get_by_args(inv, local_mmap, local_mem, len, local_mem, write ? len : 0, &l) !=
			    DOCA_SUCCESS ||
		    doca_dma_task_memcpy_alloc_init(dma, write ? l : r, write ? r : l, (union doca_data){0}, &t) !=
			    DOCA_SUCCESS ||
		    doca_task_submit(doca_dma_task_memcpy_as_task(t)) != DOCA_SUCCESS)
			_exit(1);
		while (done + failed == 0)
			doca_pe_progress(pe);
		_exit(done == 1 ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "  the DMA through the forged import crashed (signal %d)\n", WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

/*
 * Imports a forged descriptor: refused with INVALID_VALUE, and the log names `what`. Should
 * it be accepted, a copy through it shows the harm (`probe`: 'r' read its range, 'w' write it).
 */
static void expect_refused(const struct softdoca_mmap_desc *forged, const char *what, char probe)
{
	uint8_t bytes[SOFTDOCA_MMAP_DESC_LEN];
	struct doca_mmap *imp = NULL;

	softdoca_mmap_desc_encode(forged, bytes); /* a valid checksum over the forged fields */
	CHECK_ERR(doca_mmap_create_from_export(NULL, bytes, sizeof(bytes), dev, &imp), DOCA_ERROR_INVALID_VALUE);
	if (imp == NULL) {
		CHECK(log_says(what));
		return;
	}
	if (probe != 0)
		CHECK(dma_in_child(imp, (char *)(uintptr_t)forged->addr, (size_t)forged->len, probe == 'w') == 1);
	CHECK(memcmp(pages + pg, "exported", 8) == 0);
	CHECK_OK(doca_mmap_destroy(imp));
}

static void setup(void)
{
	struct doca_devinfo **list;
	struct doca_log_backend *backend;
	uint32_t n = 0;

	log_file = tmpfile();
	CHECK(log_file != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(log_file, &backend));
	CHECK_OK(doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_ERROR));
	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t exp = 0, imp = 0;

		(void)doca_mmap_cap_is_export_pci_supported(list[i], &exp);
		(void)doca_mmap_cap_is_create_from_export_pci_supported(list[i], &imp);
		if (exp && imp && doca_dma_cap_task_memcpy_is_supported(list[i]) == DOCA_SUCCESS)
			CHECK_OK(doca_dev_open(list[i], &dev));
	}
	CHECK_OK(doca_devinfo_destroy_list(list));
	CHECK(dev != NULL);
	pg = sysconf(_SC_PAGESIZE);
	pages = mmap(NULL, 3 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(pages != MAP_FAILED);
	CHECK(munmap(pages + 2 * pg, (size_t)pg) == 0); /* the hole after the export */
	strcpy(pages, "secret: never exported");
	strcpy(pages + pg, "exported");
	local_mem = calloc(1, 3 * (size_t)pg);
	local_mmap = make_mmap(local_mem, 3 * (size_t)pg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_buf_inventory_create(16, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_dma_create(dev, &dma));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, on_done, on_error, 4));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
}

/* A read-only PCI export of the middle page, forged every way: each import is refused. */
static void test_forged_pci(void)
{
	struct doca_mmap *exp = make_mmap(pages + pg, (size_t)pg, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	struct softdoca_mmap_desc real, f;
	const char *why = "";
	const void *desc;
	size_t len;

	CHECK_OK(doca_mmap_export_pci(exp, dev, &desc, &len));
	CHECK_OK(softdoca_mmap_desc_decode(desc, len, &real, &why));

	f = real; /* range widened into the hole after it */
	f.len = 2 * (uint64_t)pg;
	expect_refused(&f, "range", 'r');
	f = real; /* moved onto the secret before it */
	f.addr -= (uint64_t)pg;
	expect_refused(&f, "range", 'r');
	f = real; /* widened backwards over the secret */
	f.addr -= (uint64_t)pg;
	f.len += (uint64_t)pg;
	expect_refused(&f, "range", 'r');
	f = real; /* starts inside, ends outside */
	f.addr += 16;
	expect_refused(&f, "range", 'r');
	f = real; /* read-only turned into read-write */
	f.access = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	expect_refused(&f, "does not grant", 'w');
	f = real;
	f.access |= DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	expect_refused(&f, "does not grant", 'w');
	f = real; /* a PCI export passed off as an RDMA one, with rights it never had */
	f.kind = SOFTDOCA_MMAP_DESC_RDMA;
	f.access |= DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE;
	expect_refused(&f, "kind", 'r');

	/* nothing above touched the exported page, and the real descriptor still imports */
	CHECK(strcmp(pages + pg, "exported") == 0);
	{
		struct doca_mmap *imp = NULL;

		CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dev, &imp));
		CHECK(dma_in_child(imp, pages + pg, 9, false) == 0);
		CHECK(dma_in_child(imp, pages + pg, 9, true) == 1); /* read-only */
		CHECK(strcmp(pages + pg, "exported") == 0);
		CHECK_OK(doca_mmap_destroy(imp));
	}
	CHECK_OK(doca_mmap_destroy(exp));
}

/* An RDMA export passed off as a PCI one (which the DMA engine would use): refused. */
static void test_forged_rdma(void)
{
	struct doca_mmap *exp = make_mmap(pages + pg, (size_t)pg,
					  DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	struct softdoca_mmap_desc real, f;
	const char *why = "";
	const void *desc;
	size_t len;

	CHECK_OK(doca_mmap_export_rdma(exp, dev, &desc, &len));
	CHECK_OK(softdoca_mmap_desc_decode(desc, len, &real, &why));
	f = real;
	f.kind = SOFTDOCA_MMAP_DESC_PCI;
	f.access = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	expect_refused(&f, "kind", 'w');
	f = real; /* the RDMA descriptor itself with a wider range and more rights */
	f.len = 2 * (uint64_t)pg;
	expect_refused(&f, "range", 'r');
	f = real;
	f.access |= DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	expect_refused(&f, "does not grant", 'w');
	f = real; /* exported through another card instance */
	strcpy(f.instance, "another-instance");
	expect_refused(&f, "instance", 0);
	CHECK(strcmp(pages + pg, "exported") == 0);
	CHECK_OK(doca_mmap_destroy(exp));
}

/* Claiming less than the export grants is no forgery: a narrower range, fewer rights. */
static void test_narrower_claims(void)
{
	struct doca_mmap *exp = make_mmap(pages + pg, (size_t)pg, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	uint8_t bytes[SOFTDOCA_MMAP_DESC_LEN];
	struct softdoca_mmap_desc real, f;
	struct doca_mmap *imp = NULL;
	const char *why = "";
	const void *desc;
	size_t len;

	CHECK_OK(doca_mmap_export_pci(exp, dev, &desc, &len));
	CHECK_OK(softdoca_mmap_desc_decode(desc, len, &real, &why));
	f = real;
	f.addr += 4;
	f.len = 100;
	f.access = DOCA_ACCESS_FLAG_PCI_READ_ONLY;
	softdoca_mmap_desc_encode(&f, bytes);
	CHECK_OK(doca_mmap_create_from_export(NULL, bytes, sizeof(bytes), dev, &imp));
	if (imp != NULL) {
		struct doca_buf *b = NULL;

		CHECK(dma_in_child(imp, pages + pg + 4, 4, false) == 0);
		CHECK(dma_in_child(imp, pages + pg + 4, 4, true) == 1); /* claimed read-only */
		/* outside the narrower range: no buffer there */
		CHECK_ERR(doca_buf_inventory_buf_get_by_args(inv, imp, pages + pg, 8, pages + pg, 8, &b),
			  DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_mmap_destroy(imp));
	}
	CHECK_OK(doca_mmap_destroy(exp));
}

int main(void)
{
	setup();
	if (dev == NULL)
		TEST_EXIT();
	TEST_RUN(test_forged_pci);
	TEST_RUN(test_forged_rdma);
	TEST_RUN(test_narrower_claims);
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(local_mmap));
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
