/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Minimal unit-test support: CHECK counts and reports, TEST_RUN runs one test function,
 * TEST_EXIT fails the program when a check failed or when nothing was checked at all, and
 * TEST_SKIP tells meson the test could not run here. A test program that ends any other way
 * (a library's exit(0) in the middle of a test, say) fails.
 */
#ifndef SOFTDOCA_TEST_H
#define SOFTDOCA_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doca_error.h"

static int test_checks;
static int test_failures;
static int test_ended;
static pid_t test_main_pid;

/* Forked children end as they like; the test program itself only through TEST_EXIT or TEST_SKIP. */
static void test_exit_check(void)
{
	if (test_ended || getpid() != test_main_pid)
		return;
	fprintf(stderr, "the test program ended before TEST_EXIT (%d checks, %d failed)\n", test_checks, test_failures);
	_exit(EXIT_FAILURE);
}

__attribute__((constructor)) static void test_exit_watch(void)
{
	test_main_pid = getpid();
	atexit(test_exit_check);
}

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
		test_ended = 1; \
		fprintf(stderr, "%d checks, %d failed\n", test_checks, test_failures); \
		return (test_failures == 0 && test_checks > 0) ? EXIT_SUCCESS : EXIT_FAILURE; \
	} while (0)

/* This process plays a part in a test (a peer the test program started): it ends as it likes. */
#define TEST_ROLE() (test_ended = 1)

/* meson's "skipped" status */
#define TEST_SKIP() \
	do { \
		test_ended = 1; \
		return 77; \
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
