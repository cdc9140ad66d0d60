/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_sync_event_remote_pci, the DPU side: imports the sync event the host sends over Comch. */
#include "common_common.h"

/* Flags, logging and the final line are shared; sync_event_run is this side's own. */
int main(int argc, char **argv)
{
	return sync_event_sample_main(argc, argv);
}
