/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch message queues are declared and not implemented (docs/compatibility.md): a program
 * using them links, and each call refuses with NOT_SUPPORTED and a line naming it, leaving
 * no object behind; NULL arguments are INVALID_VALUE.
 */
#include <stdio.h>
#include <unistd.h>

#include "doca_comch_msgq.h"
#include "doca_dev.h"
#include "doca_log.h"

#include "log_test.h"
#include "test.h"

static FILE *sdk_log_file;

static void test_msgq_refused(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	struct doca_comch_msgq *q = (struct doca_comch_msgq *)&q;
	struct doca_comch_consumer *c = (struct doca_comch_consumer *)&c;
	struct doca_comch_producer *p = (struct doca_comch_producer *)&p;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n > 0);
	if (n == 0)
		return;
	CHECK_OK(doca_dev_open(list[0], &dev));
	CHECK_ERR(doca_comch_msgq_create(dev, &q), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(q == NULL);
	CHECK(log_take(sdk_log_file, "doca_comch_msgq_create: Comch message queues are not supported by softdoca yet"));
	CHECK_ERR(doca_comch_msgq_create(NULL, &q), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_msgq_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	/* no msgq can exist: the other calls only ever see NULL */
	CHECK_ERR(doca_comch_msgq_set_max_num_consumers(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_msgq_set_max_num_producers(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_msgq_set_dpa_consumer(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_msgq_set_dpa_producer(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_msgq_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_msgq_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_msgq_consumer_create(NULL, &c), DOCA_ERROR_INVALID_VALUE);
	CHECK(c == NULL);
	CHECK_ERR(doca_comch_msgq_producer_create(NULL, &p), DOCA_ERROR_INVALID_VALUE);
	CHECK(p == NULL);
	CHECK_ERR(doca_comch_msgq_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_devinfo_destroy_list(list));
}

int main(void)
{
	struct doca_log_backend *sdk;

	sdk_log_file = tmpfile();
	doca_log_backend_create_with_file_sdk(sdk_log_file, &sdk);
	alarm(30);
	TEST_RUN(test_msgq_refused);
	TEST_EXIT();
}
