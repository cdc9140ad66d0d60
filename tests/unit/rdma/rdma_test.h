/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the doca_rdma unit tests. */
#ifndef RDMA_TEST_H
#define RDMA_TEST_H

#include <stdbool.h>
#include <time.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "doca_rdma.h"
#include "doca_sync_event.h"
#include "test.h"

static inline struct doca_dev *open_rdma_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_rdma_cap_transport_type_is_supported(list[i], DOCA_RDMA_TRANSPORT_TYPE_RC) == DOCA_SUCCESS)
			CHECK_OK(doca_dev_open(list[i], &dev));
	CHECK(dev != NULL);
	CHECK_OK(doca_devinfo_destroy_list(list));
	return dev;
}

static inline struct doca_mmap *make_mmap(struct doca_dev *dev, void *addr, size_t len, uint32_t perm)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	CHECK_OK(doca_mmap_set_permissions(m, perm));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

static inline void nap(void)
{
	nanosleep(&(struct timespec){0, 20000}, NULL);
}

#endif /* RDMA_TEST_H */
