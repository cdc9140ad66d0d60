/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_compat.h — symbol visibility and API-stability attributes. */
#ifndef SOFTDOCA_DOCA_COMPAT_H
#define SOFTDOCA_DOCA_COMPAT_H

#include "doca_config.h"

#define DOCA_USED __attribute__((used))
#define DOCA_STABLE __attribute__((visibility("default"))) DOCA_USED

#ifdef DOCA_ALLOW_EXPERIMENTAL_API
#define DOCA_EXPERIMENTAL __attribute__((section(".text.experimental"))) DOCA_STABLE
#else
#define DOCA_EXPERIMENTAL \
	__attribute__((deprecated("Symbol is defined as experimental"), section(".text.experimental"))) DOCA_STABLE
#endif

#ifdef DOCA_ALLOW_DEPRECATED_API
#define DOCA_DEPRECATED __attribute__((section(".text.deprecated"))) DOCA_STABLE
#else
#define DOCA_DEPRECATED \
	__attribute__((deprecated("Symbol is defined as deprecated"), section(".text.deprecated"))) DOCA_STABLE
#endif

#ifdef DOCA_COMPAT_HELPERS
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <assert.h>
#include "doca_version.h"

/* Versioned structures: the first member records the API version the caller was built with. */
#define DOCA_STRUCT_START size_t __doca_api_version
#define DOCA_STRUCT_GET_VERSION(_s) ((_s)->__doca_api_version)
#define DOCA_STRUCT_CTOR(_s) (_s).__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_PTR_CTOR(_s) (_s)->__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_MEMSET_CTOR(_s) \
	do { \
		memset(&(_s), 0, sizeof(_s)); \
		DOCA_STRUCT_CTOR(_s); \
	} while (0)
#define DOCA_STRUCT_PTR_MEMSET_CTOR(_s) \
	do { \
		memset((_s), 0, sizeof(*(_s))); \
		DOCA_STRUCT_PTR_CTOR(_s); \
	} while (0)
#define DOCA_STRUCT_CTOR_LIST_START .__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_DEF(_type, _name) _type _name = {DOCA_STRUCT_CTOR_LIST_START}
#endif /* DOCA_COMPAT_HELPERS */

#endif /* SOFTDOCA_DOCA_COMPAT_H */
