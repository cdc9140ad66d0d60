/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_version_runtime: the version of the libdoca_common actually loaded. */
#include "doca_version.h"

const char *doca_version_runtime(void)
{
	return DOCA_VERSION_STRING;
}
