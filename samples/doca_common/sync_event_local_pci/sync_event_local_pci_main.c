/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_sync_event_local_pci, the host side: exports the sync event to the DPU over Comch. */
#include "common_common.h"

/* Flags, logging and the final line are shared; sync_event_run is this side's own. */
int main(int argc, char **argv)
{
	return sync_event_sample_main(argc, argv);
}
