/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_graph: takes no flags (DOCA's graph sample has none). */
#include <stdlib.h>

#include <doca_error.h>
#include <doca_log.h>

#include "pe_common.h"

DOCA_LOG_REGISTER(GRAPH::MAIN);

/* The sample's logic (graph_sample.c) */
doca_error_t run_graph_sample(void);

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pe_sample_main("run_graph_sample", run_graph_sample);
}
