/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mmap export descriptors: export rules (state, device, capability, permissions), import of
 * a good descriptor, and refusal of every truncated, corrupted, foreign or other-version one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_mmap.h"
#include "softhw/base/export_desc.h"
#include "common/priv/mmap_priv.h"
#include "core_test.h"
#include "test.h"

static char mem[4096];

/* A started mmap over mem with `access`, registered with dev. */
static struct doca_mmap *exporter(struct doca_dev *dev, uint32_t access)
{
	struct doca_mmap *m = NULL;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_permissions(m, access));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static void test_export_rules(void)
{
	struct fake_dev f, g, nocap;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_dev *other = fake_dev_init(&g, "bf3-0", "unit", true);
	struct doca_dev *weak = fake_dev_init(&nocap, "cx7-0", "unit", false);
	const void *desc, *desc2;
	size_t len, len2;
	struct doca_mmap *m;
	uint8_t exported;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_PCI_READ_ONLY));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_add_dev(m, weak));
	/* not started */
	CHECK_ERR(doca_mmap_export_pci(m, dev, &desc, &len), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_start(m));
	CHECK_ERR(doca_mmap_export_pci(NULL, dev, &desc, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_export_pci(m, NULL, &desc, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_export_pci(m, dev, NULL, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_export_pci(m, dev, &desc, NULL), DOCA_ERROR_INVALID_VALUE);
	/* device never added */
	CHECK_ERR(doca_mmap_export_pci(m, other, &desc, &len), DOCA_ERROR_NOT_FOUND);
	CHECK_ERR(doca_mmap_export_rdma(m, other, &desc, &len), DOCA_ERROR_NOT_FOUND);
	/* device cannot export */
	CHECK_ERR(doca_mmap_export_pci(m, weak, &desc, &len), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_export_rdma(m, weak, &desc, &len), DOCA_ERROR_NOT_SUPPORTED);
	/* PCI flag present, RDMA flag missing */
	CHECK_ERR(doca_mmap_export_rdma(m, dev, &desc, &len), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_get_exported(m, &exported));
	CHECK(exported == 0);

	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	CHECK(desc != NULL && len == SOFTDOCA_MMAP_DESC_LEN);
	CHECK_OK(doca_mmap_get_exported(m, &exported));
	CHECK(exported == 1);
	/* the same export again: the same descriptor, still owned by the mmap */
	CHECK_OK(doca_mmap_export_pci(m, dev, &desc2, &len2));
	CHECK(desc2 == desc && len2 == len);

	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_get_exported(m, &exported));
	CHECK(exported == 0);
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_missing_permissions(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_mmap *m = exporter(dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	const void *desc;
	size_t len;

	CHECK_ERR(doca_mmap_export_pci(m, dev, &desc, &len), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_export_rdma(m, dev, &desc, &len), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_destroy(m));

	/* each RDMA flag alone is enough for export_rdma, none of them for export_pci */
	uint32_t rdma[] = {DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_RDMA_WRITE, DOCA_ACCESS_FLAG_RDMA_ATOMIC};
	for (unsigned i = 0; i < 3; i++) {
		m = exporter(dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | rdma[i]);
		CHECK_OK(doca_mmap_export_rdma(m, dev, &desc, &len));
		CHECK_ERR(doca_mmap_export_pci(m, dev, &desc, &len), DOCA_ERROR_NOT_PERMITTED);
		CHECK_OK(doca_mmap_destroy(m));
	}
	m = exporter(dev, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_import(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_mmap *m = exporter(dev, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	union doca_data ud = {.u64 = 42}, got;
	struct doca_buf_inventory *inv;
	struct doca_mmap *imp, *imp2;
	const void *desc, *d2;
	struct doca_buf *b;
	size_t len, l2;
	uint8_t flag;
	void *addr;

	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	CHECK_ERR(doca_mmap_create_from_export(NULL, NULL, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, len, NULL, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, len, dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, 0, dev, &imp), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dev, &imp));
	CHECK_OK(doca_mmap_get_memrange(imp, &addr, &l2));
	CHECK(addr == mem && l2 == sizeof(mem));
	CHECK_OK(doca_mmap_get_from_export(imp, &flag));
	CHECK(flag == 1);
	CHECK(imp->export_kind_pci);
	CHECK(imp->access == DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	CHECK(imp->exporter_pid == (int32_t)getpid());
	CHECK(imp->export_id != 0);
	CHECK(softdoca_mmap_local_readable(imp) && softdoca_mmap_local_writable(imp));
	CHECK_OK(doca_mmap_get_user_data(imp, &got));
	CHECK(got.u64 == 0);

	/* an imported mmap is usable at once and cannot be configured, started or exported */
	CHECK_ERR(doca_mmap_start(imp), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_set_memrange(imp, mem, 16), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_set_permissions(imp, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_add_dev(imp, dev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_set_user_data(imp, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_export_pci(imp, dev, &d2, &l2), DOCA_ERROR_NOT_PERMITTED);
	/* ... but may be made thread-safe (NVIDIA's storage target does it to an import) */
	CHECK_OK(doca_mmap_enable_thread_safety(imp));
	CHECK(imp->thread_safe);

	CHECK_OK(doca_buf_inventory_create(2, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, imp, mem + 100, 50, &b));
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(inv, imp, mem + 4000, 200, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_stop(imp), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));

	/* the samples' teardown of an imported mmap: stop, then destroy */
	CHECK_OK(doca_mmap_stop(imp));
	CHECK_ERR(doca_buf_inventory_buf_get_by_data(inv, imp, mem, 50, &b), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_destroy(imp));

	/* user data given at import */
	CHECK_OK(doca_mmap_create_from_export(&ud, desc, len, dev, &imp2));
	CHECK_OK(doca_mmap_get_user_data(imp2, &got));
	CHECK(got.u64 == 42);
	CHECK_OK(doca_mmap_destroy(imp2));

	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_import_rdma(void)
{
	struct fake_dev f, far;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_dev *remote = fake_dev_init(&far, "cx7-1", "elsewhere", true);
	uint32_t access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ;
	struct doca_mmap *m = exporter(dev, access), *imp;
	const void *desc;
	size_t len;

	CHECK_OK(doca_mmap_export_rdma(m, dev, &desc, &len));
	/* RDMA exports travel the fabric: another card may import them */
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, remote, &imp));
	CHECK(!imp->export_kind_pci);
	CHECK(imp->access == access);
	CHECK_OK(doca_mmap_stop(imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(m));
}

/* Stopping or destroying the exporter ends its descriptors (copies kept by the importer). */
static void test_import_after_exporter_stop(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_mmap *m = exporter(dev, DOCA_ACCESS_FLAG_PCI_READ_ONLY), *imp;
	uint8_t copy[SOFTDOCA_MMAP_DESC_LEN];
	const void *desc;
	size_t len;

	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	memcpy(copy, desc, sizeof(copy));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	/* restarted and exported again: a new descriptor, the old one stays dead */
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	CHECK(memcmp(copy, desc, len) != 0);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dev, &imp));
	CHECK_OK(doca_mmap_destroy(imp));
	memcpy(copy, desc, sizeof(copy));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
}

/* Every shorter length, a longer one, and every flipped bit: INVALID_VALUE, never a crash. */
static void test_truncated_and_corrupted(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_mmap *m = exporter(dev, DOCA_ACCESS_FLAG_PCI_READ_ONLY), *imp;
	uint8_t copy[SOFTDOCA_MMAP_DESC_LEN + 8];
	int bad_trunc = 0, bad_flip = 0;
	const void *desc;
	size_t len;

	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	for (size_t n = 0; n < len; n++) {
		/* a heap copy of exactly n bytes, so ASan catches any read past the end */
		uint8_t *t = malloc(n ? n : 1);

		memcpy(t, desc, n);
		if (doca_mmap_create_from_export(NULL, t, n, dev, &imp) != DOCA_ERROR_INVALID_VALUE)
			bad_trunc++;
		free(t);
	}
	CHECK(bad_trunc == 0);

	memcpy(copy, desc, len);
	memset(copy + len, 0, sizeof(copy) - len);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len + 8, dev, &imp), DOCA_ERROR_INVALID_VALUE);

	for (size_t i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			memcpy(copy, desc, len);
			copy[i] ^= (uint8_t)(1u << bit);
			if (doca_mmap_create_from_export(NULL, copy, len, dev, &imp) != DOCA_ERROR_INVALID_VALUE)
				bad_flip++;
		}
		memcpy(copy, desc, len);
		copy[i] ^= 0xff;
		if (doca_mmap_create_from_export(NULL, copy, len, dev, &imp) != DOCA_ERROR_INVALID_VALUE)
			bad_flip++;
	}
	CHECK(bad_flip == 0);

	/* garbage of the right length */
	memset(copy, 0xa5, sizeof(copy));
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	/* the original still imports: nothing above damaged it */
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dev, &imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(m));
}

/* Re-encodes a patched descriptor with a valid checksum. */
static void reseal(uint8_t *d, size_t len, uint16_t version, uint16_t kind)
{
	softdoca_desc_seal(d, len, SOFTDOCA_MMAP_DESC_MAGIC, version, kind);
}

static void test_well_formed_but_wrong(void)
{
	struct fake_dev f, other_card, other_inst, nocap;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_dev *dev_card = fake_dev_init(&other_card, "bf3-1", "unit", true);
	struct doca_dev *dev_inst = fake_dev_init(&other_inst, "bf3-0", "other-run-dir", true);
	struct doca_dev *dev_weak = fake_dev_init(&nocap, "bf3-0", "unit", false);
	struct doca_mmap *m = exporter(dev, DOCA_ACCESS_FLAG_PCI_READ_ONLY), *imp;
	uint8_t copy[SOFTDOCA_MMAP_DESC_LEN];
	struct softdoca_mmap_desc d;
	const char *why;
	const void *desc;
	size_t len;

	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	CHECK_OK(softdoca_mmap_desc_decode(desc, len, &d, &why));
	CHECK(strcmp(d.card, "bf3-0") == 0 && strcmp(d.instance, "unit") == 0);
	CHECK(d.addr == (uintptr_t)mem && d.len == sizeof(mem) && d.kind == SOFTDOCA_MMAP_DESC_PCI);

	/* foreign: a device of another card, or of the same card name in another instance */
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, len, dev_card, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, len, dev_inst, &imp), DOCA_ERROR_INVALID_VALUE);
	/* crafted foreign descriptors, checksum recomputed */
	struct softdoca_mmap_desc foreign = d;
	strcpy(foreign.instance, "another-instance");
	softdoca_mmap_desc_encode(&foreign, copy);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	foreign = d;
	strcpy(foreign.card, "bf2-7");
	softdoca_mmap_desc_encode(&foreign, copy);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);

	/* the importing device cannot import over PCI */
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, len, dev_weak, &imp), DOCA_ERROR_NOT_SUPPORTED);

	/* another format version, otherwise intact */
	memcpy(copy, desc, len);
	reseal(copy, len, SOFTDOCA_MMAP_DESC_VERSION + 1, SOFTDOCA_MMAP_DESC_PCI);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_NOT_SUPPORTED);
	/* unknown kind */
	memcpy(copy, desc, len);
	reseal(copy, len, SOFTDOCA_MMAP_DESC_VERSION, 9);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	/* another object's magic */
	memcpy(copy, desc, len);
	softdoca_desc_seal(copy, len, 0x12345678u, SOFTDOCA_MMAP_DESC_VERSION, SOFTDOCA_MMAP_DESC_PCI);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);

	/* bad payloads with a valid checksum */
	struct softdoca_mmap_desc bad;
	bad = d;
	bad.len = 0;
	softdoca_mmap_desc_encode(&bad, copy);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	bad = d;
	bad.addr = UINT64_MAX - 10;
	softdoca_mmap_desc_encode(&bad, copy);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	bad = d;
	bad.exporter_pid = 0;
	softdoca_mmap_desc_encode(&bad, copy);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	bad = d;
	bad.access = 1u << 20;
	softdoca_mmap_desc_encode(&bad, copy);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	bad = d;
	bad.card[0] = '\0';
	softdoca_mmap_desc_encode(&bad, copy);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);
	/* an unterminated name field */
	softdoca_mmap_desc_encode(&d, copy);
	memset(copy + SOFTDOCA_DESC_HEADER_LEN + 96, 'x', SOFTDOCA_DESC_NAME_LEN);
	reseal(copy, len, SOFTDOCA_MMAP_DESC_VERSION, SOFTDOCA_MMAP_DESC_PCI);
	CHECK_ERR(doca_mmap_create_from_export(NULL, copy, len, dev, &imp), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_mmap_destroy(m));
}

/* The same flow with the soft model's device, as dma_copy_host / dma_copy_dpu do it. */
static void test_model_dev_export(void)
{
	struct doca_dev *dev = open_model_dev();
	struct doca_mmap *m, *imp;
	const void *desc;
	size_t len;
	void *addr;

	CHECK(dev != NULL);
	if (dev == NULL)
		return;
	m = exporter(dev, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	CHECK_OK(doca_mmap_export_pci(m, dev, &desc, &len));
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dev, &imp));
	CHECK_OK(doca_mmap_get_memrange(imp, &addr, &len));
	CHECK(addr == mem && len == sizeof(mem));
	CHECK_OK(doca_mmap_stop(imp));
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dev_close(dev));
}

/*
 * A descriptor from another instance of the same card: a child process with its own run
 * directory exports, this process imports. Runs first: the model loads once per process and
 * the child must load its own after fork.
 */
static void test_foreign_instance(void)
{
	uint8_t desc[SOFTDOCA_MMAP_DESC_LEN];
	const char *run_dir = getenv("SOFTDOCA_RUN_DIR");
	char other[512];
	struct doca_mmap *imp;
	struct doca_dev *dev;
	int fds[2], status;
	ssize_t got = 0;
	pid_t pid;

	snprintf(other, sizeof(other), "%s-other", run_dir != NULL ? run_dir : "/tmp/softdoca-unit-core");
	CHECK(pipe(fds) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		const void *d = NULL;
		struct doca_mmap *m;
		size_t len = 0;

		close(fds[0]);
		setenv("SOFTDOCA_RUN_DIR", other, 1);
		dev = open_model_dev();
		if (dev == NULL)
			_exit(2);
		m = exporter(dev, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
		if (doca_mmap_export_pci(m, dev, &d, &len) != DOCA_SUCCESS || write(fds[1], d, len) != (ssize_t)len)
			_exit(3);
		_exit(0);
	}
	close(fds[1]);
	while (got < (ssize_t)sizeof(desc)) {
		ssize_t r = read(fds[0], desc + got, sizeof(desc) - (size_t)got);

		if (r <= 0)
			break;
		got += r;
	}
	close(fds[0]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(got == (ssize_t)sizeof(desc));

	dev = open_model_dev();
	CHECK(dev != NULL);
	if (dev == NULL || got != (ssize_t)sizeof(desc))
		return;
	/* same card name, another run directory: refused */
	struct softdoca_mmap_desc d;
	const char *why;
	const struct softhw_card *card = dev->devinfo->fn->card;

	CHECK_OK(softdoca_mmap_desc_decode(desc, sizeof(desc), &d, &why));
	CHECK(strcmp(d.card, card->name) == 0 && strcmp(d.instance, card->instance) != 0);
	CHECK(d.exporter_pid == (int32_t)pid);
	CHECK_ERR(doca_mmap_create_from_export(NULL, desc, sizeof(desc), dev, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	TEST_RUN(test_foreign_instance);
	TEST_RUN(test_export_rules);
	TEST_RUN(test_missing_permissions);
	TEST_RUN(test_import);
	TEST_RUN(test_import_rdma);
	TEST_RUN(test_import_after_exporter_stop);
	TEST_RUN(test_truncated_and_corrupted);
	TEST_RUN(test_well_formed_but_wrong);
	TEST_RUN(test_model_dev_export);
	TEST_EXIT();
}
