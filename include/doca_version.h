/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_version.h — the DOCA API version softdoca implements. */
#ifndef SOFTDOCA_DOCA_VERSION_H
#define SOFTDOCA_DOCA_VERSION_H

#include <stddef.h>
#include "doca_compat.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOCA_VERSION_MAJOR 3
#define DOCA_VERSION_MINOR 0
#define DOCA_VERSION_PATCH 58
#define DOCA_VERSION_STRING "3.0.0058"

#define DOCA_VERSION_CALC_EXACT(major, minor, patch) ((size_t)((major) << 24 | (minor) << 16 | (patch)))
#define DOCA_VERSION_CALC(major, minor, patch) ((size_t)((major) << 24 | (minor) << 16 | ((patch) * 1000)))
#define DOCA_VERSION_EXACT DOCA_VERSION_CALC_EXACT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
#define DOCA_VERSION_OFFICIAL DOCA_VERSION_CALC(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
#define DOCA_VERSION_EQ_CURRENT(major, minor, patch) \
	(DOCA_VERSION_CALC_EXACT(major, minor, patch) == DOCA_VERSION_EXACT)
#define DOCA_VERSION_LTE_CURRENT(major, minor, patch) \
	(DOCA_VERSION_CALC_EXACT(major, minor, patch) <= DOCA_VERSION_EXACT)
#define DOCA_VERSION_AT_LEAST(major, minor, patch) DOCA_VERSION_LTE_CURRENT(major, minor, patch)

/* Compile-time version of the headers. */
static inline const char *doca_version(void)
{
	return DOCA_VERSION_STRING;
}

/* Version of the library actually loaded. */
DOCA_EXPERIMENTAL const char *doca_version_runtime(void);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_VERSION_H */
