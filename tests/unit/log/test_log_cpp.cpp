// SPDX-License-Identifier: BSD-3-Clause
// doca_log.h from C++: every macro compiles (-Wall -Wextra -Werror) and logs.
#include <cstring>

#include "doca_log.h"

DOCA_LOG_REGISTER(TEST_LOG::CPP : with spaces);

static char buf[512];
static int flushed;

static void flush(char *b)
{
	if (std::strstr(b, "[DOCA]") != nullptr)
		flushed++;
}

int main()
{
	struct doca_log_backend *be = nullptr;
	int i;

	if (doca_log_backend_create_with_buf(buf, sizeof(buf), flush, &be) != DOCA_SUCCESS)
		return 1;
	doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_DEBUG);
	DOCA_LOG_CRIT("c %d", 1);
	DOCA_LOG_ERR("e");
	DOCA_LOG_WARN("w %s", "x");
	DOCA_LOG_INFO("i");
	DOCA_LOG_DBG("d");
	DOCA_LOG_TRC("t %d", 2);
	for (i = 0; i < 100; i++) {
		DOCA_LOG_RATE_LIMIT_CRIT("rc %d", i);
		DOCA_LOG_RATE_LIMIT_ERR("re");
		DOCA_LOG_RATE_LIMIT_WARN("rw");
		DOCA_LOG_RATE_LIMIT_INFO("ri");
		DOCA_LOG_RATE_LIMIT_DBG("rd");
	}
	// 5 plain lines, then at least one and at most two bursts per rate-limited call site
	return flushed >= 5 + 5 * DOCA_LOG_RATE_LIMIT_BURST && flushed <= 5 + 10 * DOCA_LOG_RATE_LIMIT_BURST ? 0 : 1;
}
