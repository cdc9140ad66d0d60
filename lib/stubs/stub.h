/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bodies of the stub DOCA libraries (lib/stubs/gen_stubs.py writes one function per DOCA
 * prototype). Each call logs one SDK line that names the function (__func__) and the library,
 * then returns DOCA_ERROR_NOT_SUPPORTED, nothing, or a zero value (a failure value for the few
 * int calls whose 0 means success). Capability queries log at warning level (programs probe them
 * on every device before they pick one), and so do void calls (mostly destroys in a program's
 * cleanup after the first call failed).
 */
#ifndef SOFTDOCA_STUBS_STUB_H
#define SOFTDOCA_STUBS_STUB_H

#include "softhw/base/sdk_log.h"

#define STUB_LOG(level, result) \
	SDK_LOG_##level("%s: %s is not implemented by softdoca, " result, __func__, STUB_LIBRARY)

#define STUB_RETURN_NOT_SUPPORTED(level) \
	{ \
		STUB_LOG(level, "returning DOCA_ERROR_NOT_SUPPORTED"); \
		return DOCA_ERROR_NOT_SUPPORTED; \
	}

#define STUB_RETURN_VOID(level) \
	{ \
		STUB_LOG(level, "the call has no effect"); \
	}

/* NULL, 0 or false, whatever the return type */
#define STUB_RETURN_ZERO(level, type) \
	{ \
		STUB_LOG(level, "returning NULL / 0"); \
		return (type){0}; \
	}

/* a failure value of an int call whose 0 would mean success (gen_stubs.py ERRNO_RESULTS) */
#define STUB_RETURN_VALUE(level, value) \
	{ \
		STUB_LOG(level, "returning " #value); \
		return value; \
	}

#endif /* SOFTDOCA_STUBS_STUB_H */
