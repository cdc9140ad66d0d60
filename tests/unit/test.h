/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Minimal unit-test support: CHECK counts and reports, TEST_RUN runs one test function,
 * TEST_EXIT fails the program when a check failed or when nothing was checked at all.
 */
#ifndef SOFTDOCA_TEST_H
#define SOFTDOCA_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doca_error.h"

static int test_checks;
static int test_failures;

#define CHECK(cond) \
	do { \
		test_checks++; \
		if (!(cond)) { \
			test_failures++; \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
		} \
	} while (0)

/* Checks a doca_error_t result and prints both names on mismatch. */
#define CHECK_ERR(expr, expected) \
	do { \
		doca_error_t check_err_got_ = (expr); \
		doca_error_t check_err_want_ = (expected); \
		test_checks++; \
		if (check_err_got_ != check_err_want_) { \
			test_failures++; \
			fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #expr, \
				doca_error_get_name(check_err_got_), doca_error_get_name(check_err_want_)); \
		} \
	} while (0)

#define CHECK_OK(expr) CHECK_ERR(expr, DOCA_SUCCESS)

#define TEST_RUN(fn) \
	do { \
		int before_ = test_failures; \
		fn(); \
		fprintf(stderr, "%s %s\n", test_failures == before_ ? "ok" : "FAIL", #fn); \
	} while (0)

#define TEST_EXIT() \
	do { \
		fprintf(stderr, "%d checks, %d failed\n", test_checks, test_failures); \
		return (test_failures == 0 && test_checks > 0) ? EXIT_SUCCESS : EXIT_FAILURE; \
	} while (0)

/* Open file descriptors of the process (counting the one that lists them): compare two counts. */
static inline int test_fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

#endif /* SOFTDOCA_TEST_H */
