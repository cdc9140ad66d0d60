/* SPDX-License-Identifier: BSD-3-Clause */
/* What the DPA host tests share: an SDK log they read back, the DPA-capable devices, a started context. */
#ifndef DPA_TEST_H
#define DPA_TEST_H

#include <stdio.h>

#include "doca_dev.h"
#include "doca_dpa.h"
#include "doca_log.h"

#include "test.h"

extern struct doca_dpa_app *test_dpa_app; /* test_dpa_dev.c, built by dpacc */

/* A temporary file that receives every SDK line (debug and up), for log_take / log_read. */
static inline FILE *dpa_test_sdk_log(void)
{
	struct doca_log_backend *sdk = NULL;
	FILE *f = tmpfile();

	CHECK(f != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(f, &sdk));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_DEBUG));
	return f;
}

/* Opens the first `want` devices that have a DPA into devs[]; returns how many it opened. */
static inline uint32_t dpa_test_open_devs(struct doca_dev **devs, uint32_t want)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, got = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && got < want; i++)
		if (doca_dpa_cap_is_supported(list[i]) == DOCA_SUCCESS)
			CHECK_OK(doca_dev_open(list[i], &devs[got++]));
	if (list != NULL)
		CHECK_OK(doca_devinfo_destroy_list(list));
	return got;
}

/* A DPA context of dev running test_dpa_app. */
static inline struct doca_dpa *dpa_test_started(struct doca_dev *dev)
{
	struct doca_dpa *dpa = NULL;

	CHECK_OK(doca_dpa_create(dev, &dpa));
	CHECK_OK(doca_dpa_set_app(dpa, test_dpa_app));
	CHECK_OK(doca_dpa_start(dpa));
	return dpa;
}

#endif /* DPA_TEST_H */
