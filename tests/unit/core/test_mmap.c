/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_mmap: lifecycle, setters before/after start, devices, destroy rules, unsupported calls. */
#include <stdlib.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_mmap.h"
#include "common/priv/mmap_priv.h"
#include "core_test.h"
#include "test.h"

static char mem[4096];

static void noop_free(void *addr, size_t len, void *cookie)
{
}

static void test_create_defaults(void)
{
	struct doca_mmap *m;
	union doca_data ud;
	uint32_t n;
	uint8_t flag;
	void *addr;
	size_t len;

	CHECK_ERR(doca_mmap_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_create(&m));
	CHECK(m->access == DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_mmap_get_max_num_devices(m, &n));
	CHECK(n == SOFTDOCA_MMAP_DEFAULT_MAX_DEVS);
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 0);
	CHECK_OK(doca_mmap_get_exported(m, &flag));
	CHECK(flag == 0);
	CHECK_OK(doca_mmap_get_from_export(m, &flag));
	CHECK(flag == 0);
	CHECK_OK(doca_mmap_get_user_data(m, &ud));
	CHECK(ud.u64 == 0);
	/* no range yet */
	CHECK_ERR(doca_mmap_get_memrange(m, &addr, &len), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_start(m), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_ERR(doca_mmap_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_null_args(void)
{
	struct doca_mmap *m;
	void *addr;
	size_t len;
	uint32_t n;
	uint8_t flag;
	union doca_data ud;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_ERR(doca_mmap_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_add_dev(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_rm_dev(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_memrange(m, NULL, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_memrange(NULL, &addr, &len), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_num_bufs(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_num_bufs(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_max_num_devices(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_exported(NULL, &flag), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_from_export(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_get_user_data(m, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_user_data(NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_permissions(NULL, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_free_cb(m, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_max_num_devices(NULL, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_enable_thread_safety(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_cap_is_export_pci_supported(NULL, &flag), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_cap_is_create_from_export_pci_supported(NULL, &flag), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_memrange(void)
{
	struct doca_mmap *m;
	void *addr;
	size_t len;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_ERR(doca_mmap_set_memrange(m, NULL, 16), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_memrange(m, mem, 0), DOCA_ERROR_INVALID_VALUE);
	/* addr + len wraps around the address space */
	CHECK_ERR(doca_mmap_set_memrange(m, (void *)(UINTPTR_MAX - 15), 32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_set_memrange(m, mem, SIZE_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	/* the range is set once */
	CHECK_ERR(doca_mmap_set_memrange(m, mem, 16), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_get_memrange(m, &addr, &len));
	CHECK(addr == mem && len == sizeof(mem));
	CHECK_OK(doca_mmap_start(m));
	CHECK_ERR(doca_mmap_set_memrange(m, mem, 16), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_setters_after_start(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	union doca_data ud = {.u64 = 7};
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_ONLY));
	CHECK_ERR(doca_mmap_set_permissions(m, 1u << 12), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_set_user_data(m, ud));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));

	/* started: the configuration is frozen */
	CHECK_ERR(doca_mmap_start(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_set_user_data(m, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_set_free_cb(m, noop_free, NULL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_add_dev(m, dev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_rm_dev(m, dev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_set_max_num_devices(m, 4), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_enable_thread_safety(m), DOCA_ERROR_NOT_PERMITTED);

	/* stop: configurable again, except what is allowed only before the first start */
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_stop(m)); /* stopping a stopped mmap is harmless */
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_rm_dev(m, dev));
	CHECK_ERR(doca_mmap_set_max_num_devices(m, 4), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_get_user_data(m, &ud));
	CHECK(ud.u64 == 7);
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_destroy(m)); /* destroy of a started mmap stops it */
}

static void test_devices(void)
{
	struct fake_dev f[3];
	struct doca_dev *d0 = fake_dev_init(&f[0], "bf3-0", "unit", true);
	struct doca_dev *d1 = fake_dev_init(&f[1], "bf3-0", "unit", true);
	struct doca_dev *d2 = fake_dev_init(&f[2], "bf3-0", "unit", true);
	struct doca_mmap *m;
	uint32_t n;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_ERR(doca_mmap_set_max_num_devices(m, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_set_max_num_devices(m, 2));
	CHECK_OK(doca_mmap_get_max_num_devices(m, &n));
	CHECK(n == 2);
	CHECK_OK(doca_mmap_add_dev(m, d0));
	CHECK_ERR(doca_mmap_add_dev(m, d0), DOCA_ERROR_ALREADY_EXIST);
	CHECK_OK(doca_mmap_add_dev(m, d1));
	CHECK_ERR(doca_mmap_add_dev(m, d2), DOCA_ERROR_NO_MEMORY);
	CHECK_ERR(doca_mmap_set_max_num_devices(m, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_mmap_rm_dev(m, d2), DOCA_ERROR_NOT_FOUND);
	CHECK_OK(doca_mmap_rm_dev(m, d0));
	CHECK_OK(doca_mmap_add_dev(m, d2));
	CHECK_OK(doca_mmap_set_max_num_devices(m, 3));
	CHECK_OK(doca_mmap_add_dev(m, d0));
	CHECK(m->num_devs == 3);
	CHECK_OK(doca_mmap_destroy(m));
}

static int free_calls;
static void *free_addr;

static void count_free(void *addr, size_t len, void *cookie)
{
	free_calls++;
	free_addr = addr;
	CHECK(len == sizeof(mem));
	CHECK(cookie == &free_calls);
}

static void test_free_cb(void)
{
	struct doca_mmap *m;

	/* never started: the range was never the mmap's, the callback does not run */
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_set_free_cb(m, count_free, &free_calls));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK(free_calls == 0);

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_set_free_cb(m, count_free, &free_calls));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK(free_calls == 1 && free_addr == mem);
}

static void test_destroy_with_bufs(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m;
	struct doca_buf *b;
	uint32_t n;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, 64, &b));
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 1);
	CHECK_ERR(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_mmap_stop(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 0);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_thread_safety(void)
{
	struct doca_buf_inventory *inv;
	struct doca_mmap *m;
	struct doca_buf *b;
	uint32_t n;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_enable_thread_safety(m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_buf_inventory_create(1, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, m, mem, 8, &b));
	CHECK_OK(doca_mmap_get_num_bufs(m, &n));
	CHECK(n == 1);
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_not_supported(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	doca_dpa_dev_mmap_t h;
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_ERR(doca_mmap_set_dmabuf_memrange(m, 3, mem, 0, sizeof(mem)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_mmap_set_dmabuf_memrange(NULL, 3, mem, 0, sizeof(mem)), DOCA_ERROR_INVALID_VALUE);
	/* DPA memory needs a started DPA context (tests/unit/dpa/test_dpa_rdma.c) */
	CHECK_ERR(doca_mmap_set_dpa_memrange(m, NULL, 0x1000, 64), DOCA_ERROR_INVALID_VALUE);
	/* DPA handles work on a started mmap (tests/unit/dpa/test_dpa_mmap.c) */
	CHECK_ERR(doca_mmap_dev_get_dpa_handle(m, dev, &h), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_mmap_dev_get_dpa_handle(m, dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_destroy(m));
}

static void test_caps(void)
{
	struct fake_dev yes, no;
	uint8_t v = 7;

	fake_dev_init(&yes, "bf3-0", "unit", true);
	fake_dev_init(&no, "cx7-0", "unit", false);
	CHECK_OK(doca_mmap_cap_is_export_pci_supported(&yes.devinfo, &v));
	CHECK(v == 1);
	CHECK_OK(doca_mmap_cap_is_create_from_export_pci_supported(&yes.devinfo, &v));
	CHECK(v == 1);
	CHECK_OK(doca_mmap_cap_is_export_pci_supported(&no.devinfo, &v));
	CHECK(v == 0);
	CHECK_OK(doca_mmap_cap_is_create_from_export_pci_supported(&no.devinfo, &v));
	CHECK(v == 0);
}

/* The model's own device works with a local mmap the way the samples use it. */
static void test_model_dev(void)
{
	struct doca_dev *dev = open_model_dev();
	struct doca_mmap *m;

	CHECK(dev != NULL);
	if (dev == NULL)
		return;
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_ERR(doca_mmap_add_dev(m, dev), DOCA_ERROR_ALREADY_EXIST);
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	TEST_RUN(test_create_defaults);
	TEST_RUN(test_null_args);
	TEST_RUN(test_memrange);
	TEST_RUN(test_setters_after_start);
	TEST_RUN(test_devices);
	TEST_RUN(test_free_cb);
	TEST_RUN(test_destroy_with_bufs);
	TEST_RUN(test_thread_safety);
	TEST_RUN(test_not_supported);
	TEST_RUN(test_caps);
	TEST_RUN(test_model_dev);
	TEST_EXIT();
}
