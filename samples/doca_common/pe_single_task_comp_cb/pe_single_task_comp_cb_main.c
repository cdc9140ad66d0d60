/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_pe_single_task_comp_cb: takes no flags (DOCA's PE samples have none). */
#include <stdlib.h>

#include <doca_error.h>
#include <doca_log.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(PE_SINGLE_TASK_COMP_CB::MAIN);

/* The sample's logic (pe_single_task_comp_cb_sample.c) */
doca_error_t run_pe_single_task_comp_cb_sample(void);

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pe_sample_main("run_pe_single_task_comp_cb_sample", run_pe_single_task_comp_cb_sample);
}
