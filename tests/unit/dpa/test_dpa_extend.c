/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dpa_device_extend: a started context extended to the card's second function shares
 * the DPA (memory, device code), takes the second device's mmap handles, is named by
 * doca_dpa_dev_device_set, and must go before its parent. And libflexio's resources
 * descriptions: EU lists from a file, or the profile's EUs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "doca_dev.h"
#include "doca_dpa.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_sync_event.h"
#include "libflexio/flexio.h"

#include "log_test.h"
#include "test.h"
#include "dpa_test.h"

extern doca_dpa_func_t device_set_read_rpc, fill_ranks;

static FILE *sdk_log_file;
static struct doca_dev *dev, *dev2; /* two functions of one card */

static bool logged(const char *text)
{
	return log_take(sdk_log_file, text);
}

static void test_extend(void)
{
	struct doca_dpa *dpa = NULL, *ext = NULL, *bad = NULL;
	struct doca_mmap *m = NULL;
	struct doca_sync_event *comp = NULL;
	static uint64_t word = 0x5eed;
	doca_dpa_dev_uintptr_t ptr = 0;
	doca_dpa_dev_t h = 0, hb = 0;
	doca_dpa_dev_mmap_t mh = 0;
	uint64_t ret = 0, got[4] = {0};

	CHECK_OK(doca_dpa_create(dev, &dpa));
	CHECK_OK(doca_dpa_set_app(dpa, test_dpa_app));
	CHECK_ERR(doca_dpa_device_extend(dpa, dev2, &ext), DOCA_ERROR_BAD_STATE); /* not started */
	CHECK(logged("it is not started"));
	CHECK_OK(doca_dpa_start(dpa));
	CHECK_ERR(doca_dpa_device_extend(dpa, dev, &ext), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("is the context's own device"));
	CHECK_OK(doca_dpa_device_extend(dpa, dev2, &ext));
	CHECK_ERR(doca_dpa_device_extend(ext, dev, &bad), DOCA_ERROR_BAD_STATE);
	CHECK(logged("itself an extended context"));
	CHECK_ERR(doca_dpa_start(ext), DOCA_ERROR_BAD_STATE); /* started already */
	CHECK_OK(doca_dpa_get_dpa_handle(ext, &h));
	CHECK_OK(doca_dpa_get_dpa_handle(dpa, &hb));
	CHECK(h != 0 && h != hb);

	/* one DPA: memory of the extended context is the parent's */
	CHECK_OK(doca_dpa_mem_alloc(ext, sizeof(got), &ptr));
	CHECK_OK(doca_dpa_memset(dpa, ptr, 0, sizeof(got)));

	/* a kernel launched on the extended context runs the parent's device code */
	CHECK_OK(doca_sync_event_create(&comp));
	CHECK_OK(doca_sync_event_add_publisher_location_dpa(comp, ext));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(comp, dev2));
	CHECK_OK(doca_sync_event_start(comp));
	CHECK_OK(doca_dpa_kernel_launch_update_set(ext, NULL, 0, comp, 1, 4, &fill_ranks, ptr, (uint64_t)5));
	CHECK_OK(doca_sync_event_wait_gt(comp, 0, ~0ULL));
	CHECK_OK(doca_dpa_d2h_memcpy(dpa, got, ptr, sizeof(got)));
	CHECK(got[3] != 0);

	/* the second device's mmap handles work once device code names the extended context */
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, &word, sizeof(word)));
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(m, dev2));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_dev_get_dpa_handle(m, dev2, &mh));
	CHECK_OK(doca_dpa_rpc(ext, &device_set_read_rpc, &ret, h, mh, (uint64_t)(uintptr_t)&word));
	CHECK(ret == 0x5eed);
	CHECK_OK(doca_dpa_rpc(dpa, &device_set_read_rpc, &ret, h, mh, (uint64_t)(uintptr_t)&word));
	CHECK(ret == 0x5eed);

	/* the parent goes last */
	CHECK_ERR(doca_dpa_destroy(dpa), DOCA_ERROR_IN_USE);
	CHECK(logged("contexts extended from it"));
	CHECK_ERR(doca_dpa_stop(dpa), DOCA_ERROR_IN_USE);
	logged("");
	CHECK_OK(doca_sync_event_destroy(comp));
	CHECK_OK(doca_dpa_mem_free(dpa, ptr));
	CHECK_OK(doca_dpa_destroy(ext));

	/* a handle that is not of the family puts the context in error */
	CHECK_ERR(doca_dpa_rpc(dpa, &device_set_read_rpc, &ret, h, mh, (uint64_t)(uintptr_t)&word),
		  DOCA_ERROR_BAD_STATE);
	CHECK(logged("not the handle (doca_dpa_get_dpa_handle) of this DPA context"));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dpa_destroy(dpa));
}

static void test_flexio_resources(void)
{
	const char *file = "# resources\n"
			   "other_app:\n"
			   "  eus: [40]\n"
			   "my_app:\n"
			   "  eus: [1, 3, 8-10]\n"
			   "grouped:\n"
			   "  eu_groups:\n"
			   "    - g0\n"
			   "    - g1\n"
			   "block:\n"
			   "  eus:\n"
			   "    - 5\n"
			   "    - 6-7\n"
			   "plain:\n"
			   "  name: x\n"
			   "bad:\n"
			   "  eus: [1, 9999]\n"
			   "past_available:\n"
			   "  eus: [190]\n";
	struct flexio_resource *res = NULL;
	unsigned int available = 0;
	struct doca_dpa *dpa = NULL;
	uint32_t *eus;

	CHECK(flexio_resources_create("my_app", file, strlen(file), &res) == FLEXIO_STATUS_SUCCESS);
	CHECK(flexio_resources_get_eugs_num(res) == 0);
	CHECK(flexio_resources_get_eus_num(res) == 5);
	eus = flexio_resources_get_eus(res);
	CHECK(eus != NULL && eus[0] == 1 && eus[1] == 3 && eus[2] == 8 && eus[4] == 10);
	flexio_resources_destroy(res);

	CHECK(flexio_resources_create("block", file, strlen(file), &res) == FLEXIO_STATUS_SUCCESS);
	CHECK(flexio_resources_get_eus_num(res) == 3);
	eus = flexio_resources_get_eus(res);
	CHECK(eus != NULL && eus[0] == 5 && eus[2] == 7);
	flexio_resources_destroy(res);

	CHECK(flexio_resources_create("grouped", file, strlen(file), &res) == FLEXIO_STATUS_SUCCESS);
	CHECK(flexio_resources_get_eugs_num(res) == 2);
	flexio_resources_destroy(res);

	/* no EU list: the EUs the profile makes available */
	CHECK_OK(doca_dpa_create(dev, &dpa));
	CHECK_OK(doca_dpa_get_total_num_eus_available(dpa, &available));
	CHECK_OK(doca_dpa_destroy(dpa));
	CHECK(flexio_resources_create("plain", file, strlen(file), &res) == FLEXIO_STATUS_SUCCESS);
	CHECK(flexio_resources_get_eus_num(res) == available && available > 1);
	eus = flexio_resources_get_eus(res);
	CHECK(eus != NULL && eus[available - 1] == available - 1);
	flexio_resources_destroy(res);

	CHECK(flexio_resources_create("missing", file, strlen(file), &res) == FLEXIO_STATUS_FAILED);
	CHECK(res == NULL);
	CHECK(flexio_resources_create("bad", file, strlen(file), &res) == FLEXIO_STATUS_FAILED);
	/* an EU of the card past those available: no affinity could name it */
	CHECK(available == 190);
	CHECK(flexio_resources_create("past_available", file, strlen(file), &res) == FLEXIO_STATUS_FAILED);
	CHECK(flexio_resources_create("my_app", NULL, 0, &res) == FLEXIO_STATUS_FAILED);
	flexio_resources_destroy(NULL);
	CHECK(flexio_resources_get_eus_num(NULL) == 0);
}

int main(void)
{
	struct doca_dev *devs[2] = {NULL, NULL};

	sdk_log_file = dpa_test_sdk_log();
	alarm(60);
	dpa_test_open_devs(devs, 2);
	dev = devs[0];
	dev2 = devs[1];
	CHECK(dev != NULL && dev2 != NULL);
	if (dev == NULL || dev2 == NULL)
		TEST_EXIT();
	TEST_RUN(test_extend);
	TEST_RUN(test_flexio_resources);
	CHECK_OK(doca_dev_close(dev2));
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
