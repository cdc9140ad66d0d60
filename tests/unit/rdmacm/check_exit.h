/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The check of the librdmacm / libibverbs tests: a failed condition prints where and errno, and
 * ends the process (the peer process then fails on the connection, and the test with it).
 */
#ifndef SOFTDOCA_TESTS_RDMACM_CHECK_EXIT_H
#define SOFTDOCA_TESTS_RDMACM_CHECK_EXIT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                                                       \
	do {                                                                                                           \
		if (!(c)) {                                                                                            \
			fprintf(stderr, "%s:%d: %s failed (%s)\n", __FILE__, __LINE__, #c, strerror(errno));     \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)

#endif /* SOFTDOCA_TESTS_RDMACM_CHECK_EXIT_H */
