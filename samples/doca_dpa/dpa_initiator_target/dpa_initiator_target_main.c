/* SPDX-License-Identifier: BSD-3-Clause */
#include <doca_error.h>
#include <doca_log.h>

#include "dpa_common.h"

DOCA_LOG_REGISTER(DPA_INITIATOR_TARGET::MAIN);

/* The sample's logic (host/dpa_initiator_target_sample.c) */
doca_error_t dpa_initiator_target(struct dpa_resources *resources);

int main(int argc, char **argv)
{
	return dpa_sample_main(argc, argv, "dpa_initiator_target", dpa_initiator_target);
}
