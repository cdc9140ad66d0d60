/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_pe_task_error: takes no flags (DOCA's PE samples have none). */
#include <stdlib.h>

#include <doca_error.h>
#include <doca_log.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_TASK_ERROR::MAIN);

/* The sample's logic (pe_task_error_sample.c) */
doca_error_t run_pe_task_error_sample(void);

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pe_sample_main("run_pe_task_error_sample", run_pe_task_error_sample);
}
