/* SPDX-License-Identifier: BSD-3-Clause */
/* Built with DOCA_LOGGING_ALLOW_TRACE: DOCA_LOG_TRC logs at TRACE, shown once the limit allows it. */
#include "doca_log.h"
#include "test.h"

DOCA_LOG_REGISTER(TEST_LOG::TRACE);

static char buf[512];
static char last[512];
static int flushed;

static void flush(char *b)
{
	snprintf(last, sizeof(last), "%s", b);
	flushed++;
}

static void test_trace(void)
{
	struct doca_log_backend *be;

	CHECK_OK(doca_log_backend_create_with_buf(buf, sizeof(buf), flush, &be));
	DOCA_LOG_TRC("hidden at the default limit");
	CHECK(flushed == 0);
	CHECK_OK(doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_TRACE));
	DOCA_LOG_TRC("trace %d", 7);
	CHECK(flushed == 1);
	CHECK(strstr(last, "][DOCA][TRC][test_log_trace.c:") != NULL);
	CHECK(strstr(last, "][test_trace] trace 7\n") != NULL);
}

int main(void)
{
	TEST_RUN(test_trace);
	TEST_EXIT();
}
