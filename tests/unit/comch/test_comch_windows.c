/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A process that uses Comch still gets shared windows. A started Comch context runs the
 * process's waker thread; exported pages move onto a shared window only while no thread but
 * the caller and softdoca's own service threads runs, so the waker must be known as one of
 * them. The test starts a client (its waker runs), then exports page-aligned memory to the
 * PCIe peer and looks in /proc/self/maps for the window.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "doca_comch.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "test.h"
#include "dev_test.h"

#define LEN (16 * 4096)

static int num_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int n = 0;

	while (d != NULL && (de = readdir(d)) != NULL)
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			n++;
	if (d != NULL)
		closedir(d);
	return n;
}

/* Does /proc/self/maps show addr on one of softdoca's export memfds? */
static bool on_window(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)addr >= lo && (uintptr_t)addr < hi)
			found = strstr(line, "softdoca-export") != NULL;
	}
	if (f != NULL)
		fclose(f);
	return found;
}

static void test_window_with_comch_running(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_comch_client *cl = NULL;
	struct doca_mmap *mm = NULL;
	struct doca_pe *pe = NULL;
	const void *desc;
	size_t desc_len;
	uint8_t *mem;
	int before;

	CHECK(dev != NULL);
	if (dev == NULL)
		return;
	before = num_threads();
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_comch_client_create(dev, "windows", &cl));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_comch_client_as_ctx(cl)));
	/* No server: the client keeps trying, its waker thread runs meanwhile. */
	CHECK_ERR(doca_ctx_start(doca_comch_client_as_ctx(cl)), DOCA_ERROR_IN_PROGRESS);
	CHECK(num_threads() > before);

	mem = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	memset(mem, 0x5a, LEN);
	CHECK_OK(doca_mmap_create(&mm));
	CHECK_OK(doca_mmap_set_memrange(mm, mem, LEN));
	CHECK_OK(doca_mmap_add_dev(mm, dev));
	CHECK_OK(doca_mmap_set_permissions(mm, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_start(mm));
	CHECK_OK(doca_mmap_export_pci(mm, dev, &desc, &desc_len));
	CHECK(on_window(mem) && on_window(mem + LEN - 1));
	CHECK(mem[0] == 0x5a && mem[LEN - 1] == 0x5a);

	CHECK_OK(doca_mmap_stop(mm));
	CHECK_OK(doca_mmap_destroy(mm));
	munmap(mem, LEN);
	CHECK_OK(doca_ctx_stop(doca_comch_client_as_ctx(cl)));
	CHECK_OK(doca_comch_client_destroy(cl));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	alarm(60);
	TEST_RUN(test_window_with_comch_running);
	TEST_EXIT();
}
