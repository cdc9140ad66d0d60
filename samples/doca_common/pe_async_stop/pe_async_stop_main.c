/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_pe_async_stop: takes no flags (DOCA's PE samples have none). */
#include <stdlib.h>

#include <doca_error.h>
#include <doca_log.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_ASYNC_STOP::MAIN);

/* The sample's logic (pe_async_stop_sample.c) */
doca_error_t run_pe_async_stop_sample(void);

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pe_sample_main("run_pe_async_stop_sample", run_pe_async_stop_sample);
}
