/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a softhw unit test links besides libsofthw.a: softhw calls out only to the DOCA log ABI
 * (doca_log, doca_log_register_source, declared in the public doca_log.h) and names errors with
 * doca_error_get_name. support.c implements them without any DOCA library: every line is kept
 * so a test can check what softhw logged (and printed to stderr when SOFTHW_TEST_LOG is set;
 * without a backend, DOCA prints nothing either).
 * Each test defines softhw_flavour_role (the side of the card it plays) itself.
 */
#ifndef SOFTHW_TEST_SUPPORT_H
#define SOFTHW_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

/* True if a line containing `text` was logged since the last softhw_test_log_clear(). */
bool softhw_test_logged(const char *text);
void softhw_test_log_clear(void);
/* Lines at `level` (a DOCA_LOG_LEVEL_*) or more severe also go to stderr. */
void softhw_test_log_print(uint32_t level);

#endif /* SOFTHW_TEST_SUPPORT_H */
