/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SDK logging for every softdoca library and for softhw (hence softhw's base: both layers
 * include it, and softhw never includes a library's header). SDK messages go only to SDK
 * backends (doca_log_backend_create_*_sdk), as in DOCA. A library registers its source through
 * the public doca_log_register_source() with a name that starts with SOFTDOCA_SDK_SOURCE_PREFIX;
 * the log module marks such sources as SDK sources. This keeps the libraries' exported ABI
 * exactly the DOCA API: no private logging entry point is exported.
 */
#ifndef SOFTDOCA_SDK_LOG_H
#define SOFTDOCA_SDK_LOG_H

#include "doca_log.h"

/* A control character no DOCA_LOG_REGISTER token sequence can produce. */
#define SOFTDOCA_SDK_SOURCE_PREFIX "\x1f"

#define SDK_LOG_REGISTER(source) \
	static int sdk_log_source = -1; \
	static void __attribute__((constructor(101), used)) sdk_log_register_ctor(void) \
	{ \
		doca_log_register_source(SOFTDOCA_SDK_SOURCE_PREFIX #source, &sdk_log_source); \
	}

#define SDK_LOG(level, format, ...) \
	doca_log(level, sdk_log_source, __FILE__, __LINE__, __func__, format, ##__VA_ARGS__)
#define SDK_LOG_CRIT(format, ...) SDK_LOG(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)
#define SDK_LOG_ERR(format, ...) SDK_LOG(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)
#define SDK_LOG_WARN(format, ...) SDK_LOG(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)
#define SDK_LOG_INFO(format, ...) SDK_LOG(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)
#define SDK_LOG_DBG(format, ...) SDK_LOG(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)

#endif /* SOFTDOCA_SDK_LOG_H */
