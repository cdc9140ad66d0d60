/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_buf_arr on the CPU: lifecycle and parameter rules; GPU/DPA targets are not supported. */
#include <stdint.h>

#include "doca_buf_array.h"
#include "doca_mmap.h"
#include "test.h"

static char mem[4096];

static void test_lifecycle(void)
{
	struct doca_buf_arr *arr;
	struct doca_mmap *m;

	CHECK_ERR(doca_buf_arr_create(0, &arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, mem, sizeof(mem)));
	CHECK_OK(doca_buf_arr_create(4, &arr));

	/* no params yet, then an mmap that is not started */
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_set_params(arr, NULL, 64, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_set_params(arr, m, 0, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_arr_set_params(arr, m, 1024, 1));
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_mmap_start(m));
	/* 4 x 1024 from offset 1 does not fit in 4096 bytes */
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_arr_set_params(arr, m, 1024, 8192));
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_arr_set_params(arr, m, 1024, 0));
	CHECK_OK(doca_buf_arr_start(arr));
	CHECK_ERR(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_set_params(arr, m, 512, 0), DOCA_ERROR_BAD_STATE);
	/* a started array keeps its mmap alive */
	CHECK_ERR(doca_mmap_destroy(m), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_buf_arr_stop(arr));
	CHECK_OK(doca_buf_arr_stop(arr));
	CHECK_OK(doca_buf_arr_set_params(arr, m, 512, 0));
	CHECK_OK(doca_buf_arr_start(arr));
	CHECK_OK(doca_buf_arr_destroy(arr)); /* implicitly stops */
	CHECK_OK(doca_mmap_destroy(m));

	CHECK_ERR(doca_buf_arr_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_not_supported(void)
{
	struct doca_gpu_buf_arr *gpu_arr;
	doca_dpa_dev_buf_arr_t dpa_arr;
	struct doca_buf_arr *arr;
	int dummy;

	CHECK_OK(doca_buf_arr_create(4, &arr));
	CHECK_ERR(doca_buf_arr_set_target_gpu(arr, (struct doca_gpu *)&dummy), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_buf_arr_set_target_gpu(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_get_gpu_handle(arr, &gpu_arr), DOCA_ERROR_NOT_SUPPORTED);
	/* a DPA handle needs a DPA target and a start (tests/unit/dpa/test_dpa_rdma.c) */
	CHECK_ERR(doca_buf_arr_get_dpa_handle(arr, &dpa_arr), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_buf_arr_set_target_dpa(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_buf_arr_get_dpa_handle(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_buf_arr_destroy(arr));
}

int main(void)
{
	TEST_RUN(test_lifecycle);
	TEST_RUN(test_not_supported);
	TEST_EXIT();
}
