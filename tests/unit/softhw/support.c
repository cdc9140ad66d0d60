/* SPDX-License-Identifier: BSD-3-Clause */
/* The log sink and error names a softhw unit test links instead of libdoca_common (support.h). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doca_error.h"
#include "doca_log.h"
#include "support.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char kept[1 << 16];
static size_t kept_len;
static int num_sources;
static uint32_t print_level; /* lines at this level or more severe go to stderr; 0: none */

doca_error_t doca_log_register_source(const char *source_name, int *source)
{
	(void)source_name;
	pthread_mutex_lock(&lock);
	*source = num_sources++;
	pthread_mutex_unlock(&lock);
	return DOCA_SUCCESS;
}

doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func, const char *format,
		      ...)
{
	char msg[1024];
	va_list ap;
	int n;

	(void)source;
	(void)func;
	va_start(ap, format);
	n = vsnprintf(msg, sizeof(msg), format, ap);
	va_end(ap);
	if (n < 0)
		return DOCA_ERROR_INVALID_VALUE;
	if (level <= __atomic_load_n(&print_level, __ATOMIC_RELAXED) || getenv("SOFTHW_TEST_LOG") != NULL)
		fprintf(stderr, "[softhw %u %s:%d] %s\n", level, fname, line, msg);
	pthread_mutex_lock(&lock);
	/* Full: the oldest lines go, the newest stay. */
	if (kept_len + strlen(msg) + 2 > sizeof(kept))
		kept_len = 0;
	kept_len += (size_t)snprintf(kept + kept_len, sizeof(kept) - kept_len, "%s\n", msg);
	pthread_mutex_unlock(&lock);
	return DOCA_SUCCESS;
}

const char *doca_error_get_name(doca_error_t error)
{
	static __thread char name[32];

	if (error == DOCA_SUCCESS)
		return "DOCA_SUCCESS";
	snprintf(name, sizeof(name), "DOCA error %d", (int)error);
	return name;
}

bool softhw_test_logged(const char *text)
{
	bool found;

	pthread_mutex_lock(&lock);
	kept[kept_len] = '\0';
	found = strstr(kept, text) != NULL;
	pthread_mutex_unlock(&lock);
	if (!found)
		fprintf(stderr, "no log line contains '%s'\n", text);
	return found;
}

void softhw_test_log_print(uint32_t level)
{
	__atomic_store_n(&print_level, level, __ATOMIC_RELAXED);
}

void softhw_test_log_clear(void)
{
	pthread_mutex_lock(&lock);
	kept_len = 0;
	pthread_mutex_unlock(&lock);
}
