/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_cache_invalidate: takes no flags (DOCA's cache_invalidate sample has none). */
#include <stdlib.h>

#include <doca_error.h>
#include <doca_log.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(CACHE_INVALIDATE::MAIN);

/* The sample's logic (cache_invalidate_sample.c) */
doca_error_t run_cache_invalidate_sample(void);

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pe_sample_main("run_cache_invalidate_sample", run_cache_invalidate_sample);
}
