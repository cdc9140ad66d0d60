/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_log.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_LOG_H
#define SOFTDOCA_DOCA_LOG_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_log_backend;

enum doca_log_level {
	DOCA_LOG_LEVEL_DISABLE = 10,
	DOCA_LOG_LEVEL_CRIT = 20,
	DOCA_LOG_LEVEL_ERROR = 30,
	DOCA_LOG_LEVEL_WARNING = 40,
	DOCA_LOG_LEVEL_INFO = 50,
	DOCA_LOG_LEVEL_DEBUG = 60,
	DOCA_LOG_LEVEL_TRACE = 70,
};

typedef void (*log_flush_callback)(char *buf);

/* functions */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_lower_limit(uint32_t level);
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_lower_limit(void);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_upper_limit(void);
DOCA_EXPERIMENTAL doca_error_t doca_log_register_source(const char *source_name, int *source);
DOCA_EXPERIMENTAL doca_error_t doca_log_unregister_source(int source);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_buf(char *buf, size_t capacity, log_flush_callback handler, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_buf_sdk(char *buf, size_t capacity, log_flush_callback handler, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_sdk_limit(void);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_standard(void);
DOCA_EXPERIMENTAL doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func,
				       const char *format, ...) __attribute__((format(printf, 6, 7)));

/*
 * DOCA_LOG_REGISTER(SOURCE) gives the including file a log source named after the token
 * sequence SOURCE (any tokens: "RDMA_SEND::MAIN", "A : B"). It is registered by a constructor
 * of priority 101, so other constructors can already log, and unregistered by a destructor of
 * priority 101, which runs after the other destructors, so they can still log.
 */
#define DOCA_LOG_REGISTER(source) \
	static int log_source; \
	static void __attribute__((constructor(101), used)) doca_log_register_source_ctor(void) \
	{ \
		doca_log_register_source(#source, &log_source); \
	} \
	static void __attribute__((destructor(101), used)) doca_log_unregister_source_dtor(void) \
	{ \
		doca_log_unregister_source(log_source); \
	}

#define DOCA_LOG(level, format, ...) \
	doca_log(level, log_source, __FILE__, __LINE__, __func__, format, ##__VA_ARGS__)

#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)
#define DOCA_LOG_ERR(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)
#define DOCA_LOG_WARN(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)
#define DOCA_LOG_INFO(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)
#define DOCA_LOG_DBG(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)
#ifdef DOCA_LOGGING_ALLOW_TRACE
#define DOCA_LOG_TRC(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_TRACE, format, ##__VA_ARGS__)
#else
#define DOCA_LOG_TRC(format, ...) \
	do { \
	} while (0)
#endif

/*
 * Rate-limited logging for hot paths: each call site prints at most DOCA_LOG_RATE_LIMIT_BURST
 * lines per second (wall-clock second); further calls in the same second are dropped.
 * The per-call-site state is two statics updated with atomic builtins, so the macros are
 * thread safe and need no library support beyond doca_log().
 */
#define DOCA_LOG_RATE_LIMIT_BURST 10

#define DOCA_LOG_RATE_LIMIT(level, format, ...) \
	do { \
		static time_t doca_log_rl_window_; \
		static unsigned int doca_log_rl_count_; \
		time_t doca_log_rl_now_ = time(NULL); \
		time_t doca_log_rl_seen_ = __atomic_load_n(&doca_log_rl_window_, __ATOMIC_RELAXED); \
		if (doca_log_rl_seen_ != doca_log_rl_now_ && \
		    __atomic_compare_exchange_n(&doca_log_rl_window_, &doca_log_rl_seen_, doca_log_rl_now_, 0, \
						__ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
			__atomic_store_n(&doca_log_rl_count_, 0u, __ATOMIC_RELAXED); \
		if (__atomic_load_n(&doca_log_rl_count_, __ATOMIC_RELAXED) < DOCA_LOG_RATE_LIMIT_BURST && \
		    __atomic_fetch_add(&doca_log_rl_count_, 1u, __ATOMIC_RELAXED) < DOCA_LOG_RATE_LIMIT_BURST) \
			DOCA_LOG(level, format, ##__VA_ARGS__); \
	} while (0)

#define DOCA_LOG_RATE_LIMIT_CRIT(format, ...) DOCA_LOG_RATE_LIMIT(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_ERR(format, ...) DOCA_LOG_RATE_LIMIT(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_WARN(format, ...) DOCA_LOG_RATE_LIMIT(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_INFO(format, ...) DOCA_LOG_RATE_LIMIT(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_DBG(format, ...) DOCA_LOG_RATE_LIMIT(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_LOG_H */
