/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA log (doca_log.h): log sources, application and SDK backends, level windows and the
 * line format.
 *
 * Two message classes, as in DOCA: application messages (sources registered by
 * DOCA_LOG_REGISTER) go only to application backends, each with a window
 * upper <= level <= lower; SDK messages (sources whose name starts with
 * SOFTDOCA_SDK_SOURCE_PREFIX, see softhw/base/sdk_log.h) go only to SDK backends, each with one
 * limit level <= sdk_level.
 *
 * Everything lives in static storage behind a statically initialised mutex, so sources can be
 * registered from any library's constructors before anything else ran. doca_log checks two
 * atomics (the most verbose level any backend of the class accepts) before it formats anything,
 * so filtered-out messages cost a few loads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "doca_log.h"
#include "softhw/base/sdk_log.h"

#define MAX_SOURCES 4096
#define MAX_BACKENDS 64 /* per class */
#define HEADER_MAX 512	/* longest "[time][tid][DOCA][LVL][file:line][func] " kept */
#define RECORD_STACK 1024

enum source_kind {
	SOURCE_FREE = 0,
	SOURCE_APP,
	SOURCE_SDK,
};

enum backend_type {
	BACKEND_FILE,
	BACKEND_FD,
	BACKEND_BUF,
	BACKEND_SYSLOG,
};

struct doca_log_backend {
	enum backend_type type;
	bool sdk;
	/* application window: shown if upper <= level <= lower (smaller = more severe) */
	uint32_t lower;
	uint32_t upper;
	/* strict locks: the window may shrink but never grow past the locked value */
	bool lower_strict;
	bool upper_strict;
	uint32_t lower_lock;
	uint32_t upper_lock;
	/* SDK backends: shown if level <= sdk_level */
	uint32_t sdk_level;

	FILE *file;
	int fd;
	char *buf;
	size_t capacity;
	log_flush_callback flush;
	char *ident; /* syslog; never freed, openlog keeps the pointer */
};

struct backend_set {
	struct doca_log_backend *be[MAX_BACKENDS];
	unsigned int n;
};

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

/* The log library's own lines (a misuse of its calls), as every library's: never under log_lock. */
SDK_LOG_REGISTER(LOG);

/* Source id N lives in slot N - 1, so an unregistered (zero) log_source is never valid. */
static _Atomic unsigned char source_kind[MAX_SOURCES];
static unsigned int source_hint; /* under log_lock: where the next free-slot search starts */

static struct backend_set app_set; /* under log_lock */
static struct backend_set sdk_set; /* under log_lock */
static bool standard_created;	   /* under log_lock */

static _Atomic uint32_t global_lower = DOCA_LOG_LEVEL_INFO;
static _Atomic uint32_t global_upper = DOCA_LOG_LEVEL_CRIT;
static _Atomic uint32_t global_sdk = DOCA_LOG_LEVEL_INFO;

/* Most verbose level any backend of the class can show; 0 = nothing shown. */
static _Atomic uint32_t app_max_level;
static _Atomic uint32_t sdk_max_level;

static const char *syslog_ident; /* under log_lock: ident of the last openlog */

/* Set while this thread writes to backends: a flush callback that logs is not re-entered. */
static _Thread_local bool in_output;

/*
 * fork() while another thread holds log_lock would leave the child's lock held forever: hold it
 * across fork so both sides start with it free. Skipped when forking from inside an output
 * callback, where this thread already holds it.
 */
static _Thread_local bool fork_locked;

static void log_atfork_prepare(void)
{
	fork_locked = !in_output;
	if (fork_locked)
		pthread_mutex_lock(&log_lock);
}

static void log_atfork_release(void)
{
	if (fork_locked)
		pthread_mutex_unlock(&log_lock);
	fork_locked = false;
}

static void __attribute__((constructor)) log_atfork_init(void)
{
	pthread_atfork(log_atfork_prepare, log_atfork_release, log_atfork_release);
}

static bool level_valid(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_DISABLE && level <= DOCA_LOG_LEVEL_TRACE && level % 10 == 0;
}

static bool message_level_valid(uint32_t level)
{
	return level_valid(level) && level != DOCA_LOG_LEVEL_DISABLE;
}

static const char *level_tag(uint32_t level)
{
	static const char *const tags[] = {"CRT", "ERR", "WRN", "INF", "DBG", "TRC"};

	return tags[level / 10 - 2];
}

static enum source_kind source_lookup(int source)
{
	if (source < 1 || source > MAX_SOURCES)
		return SOURCE_FREE;
	return (enum source_kind)atomic_load_explicit(&source_kind[source - 1], memory_order_acquire);
}

/* Recomputes the fast-path bounds; call under log_lock after any backend or limit change. */
static void update_max_levels(void)
{
	uint32_t app = 0, sdk = 0;
	unsigned int i;

	for (i = 0; i < app_set.n; i++) {
		const struct doca_log_backend *be = app_set.be[i];

		if (be->lower >= be->upper && be->lower > app)
			app = be->lower;
	}
	for (i = 0; i < sdk_set.n; i++)
		if (sdk_set.be[i]->sdk_level > sdk)
			sdk = sdk_set.be[i]->sdk_level;
	atomic_store_explicit(&app_max_level, app, memory_order_relaxed);
	atomic_store_explicit(&sdk_max_level, sdk, memory_order_relaxed);
}

/* Only pointers this module handed out are used: a foreign pointer is never dereferenced. */
static bool set_has(const struct backend_set *set, const struct doca_log_backend *backend)
{
	unsigned int i;

	for (i = 0; i < set->n; i++)
		if (set->be[i] == backend)
			return true;
	return false;
}

static bool backend_known(const struct doca_log_backend *backend)
{
	return backend != NULL && (set_has(&app_set, backend) || set_has(&sdk_set, backend));
}

/* A strict lower limit may not become more verbose than its locked value. */
static uint32_t clamp_lower(const struct doca_log_backend *be, uint32_t level)
{
	return be->lower_strict && level > be->lower_lock ? be->lower_lock : level;
}

/* A strict upper limit may not become more severe than its locked value. */
static uint32_t clamp_upper(const struct doca_log_backend *be, uint32_t level)
{
	return be->upper_strict && level < be->upper_lock ? be->upper_lock : level;
}

/*
 * Source registration. Works before any initialisation: only static storage and the
 * statically initialised lock are used.
 */
doca_error_t doca_log_register_source(const char *source_name, int *source)
{
	unsigned char kind;
	unsigned int i, slot;

	if (source_name == NULL || source == NULL) {
		SDK_LOG_ERR("Failed to register a log source: %s is NULL; DOCA_LOG_REGISTER(name) passes both",
			    source_name == NULL ? "source_name" : "source");
		return DOCA_ERROR_INVALID_VALUE;
	}
	kind = strncmp(source_name, SOFTDOCA_SDK_SOURCE_PREFIX, strlen(SOFTDOCA_SDK_SOURCE_PREFIX)) == 0 ?
		       SOURCE_SDK :
		       SOURCE_APP;

	pthread_mutex_lock(&log_lock);
	for (i = 0; i < MAX_SOURCES; i++) {
		slot = (source_hint + i) % MAX_SOURCES;
		if (atomic_load_explicit(&source_kind[slot], memory_order_relaxed) == SOURCE_FREE)
			break;
	}
	if (i == MAX_SOURCES) {
		pthread_mutex_unlock(&log_lock);
		SDK_LOG_ERR("Failed to register log source '%s': all %u sources are registered", source_name,
			    MAX_SOURCES);
		return DOCA_ERROR_NO_MEMORY;
	}
	atomic_store_explicit(&source_kind[slot], kind, memory_order_release);
	source_hint = slot + 1;
	pthread_mutex_unlock(&log_lock);

	*source = (int)slot + 1;
	return DOCA_SUCCESS;
}

doca_error_t doca_log_unregister_source(int source)
{
	doca_error_t ret = DOCA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&log_lock);
	if (source_lookup(source) != SOURCE_FREE) {
		atomic_store_explicit(&source_kind[source - 1], SOURCE_FREE, memory_order_release);
		ret = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&log_lock);
	if (ret != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to unregister log source %d: no such source is registered (unregistered twice?)",
			    source);
	return ret;
}

/* Limits: a global one is applied to every backend of its class, a per-backend one to one backend */

enum limit_op {
	SET_LOWER,
	SET_UPPER,
	LOCK_LOWER,
	LOCK_UPPER,
	SET_SDK,
};

/* The public calls behind each limit_op, for the lines that refuse them. */
static const char *const global_call[] = {
	[SET_LOWER] = "doca_log_level_set_global_lower_limit",
	[SET_UPPER] = "doca_log_level_set_global_upper_limit",
	[SET_SDK] = "doca_log_level_set_global_sdk_limit",
};
static const char *const limit_call[] = {
	[SET_LOWER] = "doca_log_backend_set_level_lower_limit",
	[SET_UPPER] = "doca_log_backend_set_level_upper_limit",
	[LOCK_LOWER] = "doca_log_backend_set_level_lower_limit_strict",
	[LOCK_UPPER] = "doca_log_backend_set_level_upper_limit_strict",
	[SET_SDK] = "doca_log_backend_set_sdk_level",
};

static void log_bad_level(const char *call, uint32_t level)
{
	SDK_LOG_ERR("%s: %u is not a DOCA log level; pass one of enum doca_log_level (DOCA_LOG_LEVEL_DISABLE %d, "
		    "CRIT %d ... TRACE %d, in steps of 10)",
		    call, level, DOCA_LOG_LEVEL_DISABLE, DOCA_LOG_LEVEL_CRIT, DOCA_LOG_LEVEL_TRACE);
}

/* op is SET_LOWER, SET_UPPER or SET_SDK; strict backend locks still clamp the new level. */
static doca_error_t global_update(enum limit_op op, uint32_t level)
{
	_Atomic uint32_t *global = op == SET_LOWER ? &global_lower : (op == SET_UPPER ? &global_upper : &global_sdk);
	const struct backend_set *set = op == SET_SDK ? &sdk_set : &app_set;
	unsigned int i;

	if (!level_valid(level)) {
		log_bad_level(global_call[op], level);
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&log_lock);
	atomic_store(global, level);
	for (i = 0; i < set->n; i++) {
		struct doca_log_backend *be = set->be[i];

		if (op == SET_LOWER)
			be->lower = clamp_lower(be, level);
		else if (op == SET_UPPER)
			be->upper = clamp_upper(be, level);
		else
			be->sdk_level = level;
	}
	update_max_levels();
	pthread_mutex_unlock(&log_lock);
	return DOCA_SUCCESS;
}

doca_error_t doca_log_level_set_global_lower_limit(uint32_t level)
{
	return global_update(SET_LOWER, level);
}

doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit)
{
	return global_update(SET_UPPER, upper_limit);
}

uint32_t doca_log_level_get_global_lower_limit(void)
{
	return atomic_load(&global_lower);
}

uint32_t doca_log_level_get_global_upper_limit(void)
{
	return atomic_load(&global_upper);
}

doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level)
{
	return global_update(SET_SDK, level);
}

uint32_t doca_log_level_get_global_sdk_limit(void)
{
	return atomic_load(&global_sdk);
}

/* Per-backend limits */

static doca_error_t backend_update(struct doca_log_backend *backend, enum limit_op op, uint32_t level)
{
	doca_error_t ret = DOCA_SUCCESS;
	const char *why = NULL;

	if ((op == SET_LOWER || op == SET_UPPER || op == SET_SDK) && !level_valid(level)) {
		log_bad_level(limit_call[op], level);
		return DOCA_ERROR_INVALID_VALUE;
	}

	pthread_mutex_lock(&log_lock);
	if (!backend_known(backend)) {
		ret = DOCA_ERROR_INVALID_VALUE;
		why = backend == NULL ? "the backend is NULL" : "no such backend (not one doca_log_backend_create_* gave)";
		goto out;
	}
	/* Application limits on an SDK backend, or the SDK level on an application one. */
	if (backend->sdk != (op == SET_SDK)) {
		ret = DOCA_ERROR_NOT_PERMITTED;
		why = backend->sdk ? "an SDK backend has one level only: set it with doca_log_backend_set_sdk_level"
				   : "an application backend has no SDK level: set its window with "
				     "doca_log_backend_set_level_lower_limit / _upper_limit";
		goto out;
	}
	switch (op) {
	case SET_LOWER:
		if (clamp_lower(backend, level) != level)
			ret = DOCA_ERROR_NOT_PERMITTED;
		else
			backend->lower = level;
		break;
	case SET_UPPER:
		if (clamp_upper(backend, level) != level)
			ret = DOCA_ERROR_NOT_PERMITTED;
		else
			backend->upper = level;
		break;
	case LOCK_LOWER:
		backend->lower_strict = true;
		backend->lower_lock = backend->lower;
		break;
	case LOCK_UPPER:
		backend->upper_strict = true;
		backend->upper_lock = backend->upper;
		break;
	case SET_SDK:
		backend->sdk_level = level;
		break;
	}
	update_max_levels();
out:
	pthread_mutex_unlock(&log_lock);
	if (why != NULL)
		SDK_LOG_ERR("%s: %s", limit_call[op], why);
	else if (ret == DOCA_ERROR_NOT_PERMITTED)
		SDK_LOG_ERR("%s: level %u is outside the window the backend's strict limit locked", limit_call[op], level);
	return ret;
}

doca_error_t doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level)
{
	return backend_update(backend, SET_LOWER, level);
}

doca_error_t doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit)
{
	return backend_update(backend, SET_UPPER, upper_limit);
}

doca_error_t doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend)
{
	return backend_update(backend, LOCK_LOWER, 0);
}

doca_error_t doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend)
{
	return backend_update(backend, LOCK_UPPER, 0);
}

doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend, uint32_t level)
{
	return backend_update(backend, SET_SDK, level);
}

/* Backend creation */

/* Takes ownership of be (freed on failure); limits start from the global ones. Under log_lock. */
static doca_error_t backend_add_locked(struct doca_log_backend *be)
{
	struct backend_set *set = be->sdk ? &sdk_set : &app_set;

	if (set->n == MAX_BACKENDS) {
		free(be->ident);
		free(be);
		return DOCA_ERROR_NO_MEMORY;
	}
	be->lower = clamp_lower(be, atomic_load(&global_lower));
	be->upper = clamp_upper(be, atomic_load(&global_upper));
	be->sdk_level = atomic_load(&global_sdk);
	set->be[set->n++] = be;
	update_max_levels();
	return DOCA_SUCCESS;
}

static struct doca_log_backend *backend_new(enum backend_type type, bool sdk)
{
	struct doca_log_backend *be = calloc(1, sizeof(*be));

	if (be != NULL) {
		be->type = type;
		be->sdk = sdk;
		be->fd = -1;
	}
	return be;
}

static doca_error_t backend_create(struct doca_log_backend *be, struct doca_log_backend **backend)
{
	doca_error_t ret;

	if (be == NULL) {
		SDK_LOG_ERR("Failed to create a log backend: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_mutex_lock(&log_lock);
	ret = backend_add_locked(be);
	pthread_mutex_unlock(&log_lock);
	if (ret == DOCA_SUCCESS)
		*backend = be;
	else
		SDK_LOG_ERR("Failed to create a log backend: a process has at most %u of each class (SDK, "
			    "application)",
			    MAX_BACKENDS);
	return ret;
}

static doca_error_t create_file(FILE *fptr, bool sdk, struct doca_log_backend **backend)
{
	struct doca_log_backend *be;

	if (fptr == NULL || backend == NULL) {
		SDK_LOG_ERR("Failed to create a file log backend: %s is NULL", fptr == NULL ? "the FILE" : "backend");
		return DOCA_ERROR_INVALID_VALUE;
	}
	be = backend_new(BACKEND_FILE, sdk);
	if (be != NULL)
		be->file = fptr;
	return backend_create(be, backend);
}

static doca_error_t create_fd(int fd, bool sdk, struct doca_log_backend **backend)
{
	struct doca_log_backend *be;

	if (fd < 0 || backend == NULL || fcntl(fd, F_GETFD) == -1) {
		if (backend == NULL)
			SDK_LOG_ERR("Failed to create an fd log backend: backend is NULL");
		else
			SDK_LOG_ERR("Failed to create an fd log backend: %d is not an open file descriptor", fd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	be = backend_new(BACKEND_FD, sdk);
	if (be != NULL)
		be->fd = fd;
	return backend_create(be, backend);
}

static doca_error_t create_buf(char *buf, size_t capacity, log_flush_callback handler, bool sdk,
			       struct doca_log_backend **backend)
{
	struct doca_log_backend *be;

	if (buf == NULL || capacity == 0 || handler == NULL || backend == NULL) {
		SDK_LOG_ERR("Failed to create a buffer log backend: %s",
			    buf == NULL		? "the buffer is NULL"
			    : capacity == 0	? "the capacity is 0"
			    : handler == NULL ? "the flush callback is NULL"
					      : "backend is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	be = backend_new(BACKEND_BUF, sdk);
	if (be != NULL) {
		be->buf = buf;
		be->capacity = capacity;
		be->flush = handler;
	}
	return backend_create(be, backend);
}

static doca_error_t create_syslog(const char *name, bool sdk, struct doca_log_backend **backend)
{
	struct doca_log_backend *be;

	if (name == NULL || backend == NULL) {
		SDK_LOG_ERR("Failed to create a syslog log backend: %s is NULL", name == NULL ? "the name" : "backend");
		return DOCA_ERROR_INVALID_VALUE;
	}
	be = backend_new(BACKEND_SYSLOG, sdk);
	if (be != NULL && (be->ident = strdup(name)) == NULL) {
		free(be);
		be = NULL; /* (backend_create says it) */
	}
	return backend_create(be, backend);
}

doca_error_t doca_log_backend_create_with_file(FILE *fptr, struct doca_log_backend **backend)
{
	return create_file(fptr, false, backend);
}

doca_error_t doca_log_backend_create_with_fd(int fd, struct doca_log_backend **backend)
{
	return create_fd(fd, false, backend);
}

doca_error_t doca_log_backend_create_with_buf(char *buf, size_t capacity, log_flush_callback handler,
					      struct doca_log_backend **backend)
{
	return create_buf(buf, capacity, handler, false, backend);
}

doca_error_t doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend)
{
	return create_syslog(name, false, backend);
}

doca_error_t doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend)
{
	return create_file(fptr, true, backend);
}

doca_error_t doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend)
{
	return create_fd(fd, true, backend);
}

doca_error_t doca_log_backend_create_with_buf_sdk(char *buf, size_t capacity, log_flush_callback handler,
						  struct doca_log_backend **backend)
{
	return create_buf(buf, capacity, handler, true, backend);
}

doca_error_t doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend)
{
	return create_syslog(name, true, backend);
}

/*
 * stdout shows the global lower limit up to INFO, stderr WARNING up to the global upper limit.
 * Strict locks keep the split when the global limits move: stdout never shows WARNING or more
 * severe, stderr never shows INFO or less severe. Creating it twice changes nothing.
 */
doca_error_t doca_log_backend_create_standard(void)
{
	struct doca_log_backend *out = backend_new(BACKEND_FILE, false);
	struct doca_log_backend *err = backend_new(BACKEND_FILE, false);
	doca_error_t ret = DOCA_SUCCESS;

	if (out == NULL || err == NULL) {
		free(out);
		free(err);
		return DOCA_ERROR_NO_MEMORY;
	}
	out->file = stdout;
	out->upper_strict = true;
	out->upper_lock = DOCA_LOG_LEVEL_INFO;
	err->file = stderr;
	err->lower_strict = true;
	err->lower_lock = DOCA_LOG_LEVEL_WARNING;

	pthread_mutex_lock(&log_lock);
	if (standard_created) {
		free(out);
		free(err);
	} else if (app_set.n + 2 > MAX_BACKENDS) {
		free(out);
		free(err);
		ret = DOCA_ERROR_NO_MEMORY;
	} else {
		backend_add_locked(out);
		backend_add_locked(err);
		standard_created = true;
	}
	pthread_mutex_unlock(&log_lock);
	return ret;
}

/* Output */

static bool backend_shows(const struct doca_log_backend *be, uint32_t level)
{
	if (be->sdk)
		return level <= be->sdk_level;
	return level <= be->lower && level >= be->upper;
}

static int syslog_priority(uint32_t level)
{
	switch (level) {
	case DOCA_LOG_LEVEL_CRIT:
		return LOG_CRIT;
	case DOCA_LOG_LEVEL_ERROR:
		return LOG_ERR;
	case DOCA_LOG_LEVEL_WARNING:
		return LOG_WARNING;
	case DOCA_LOG_LEVEL_INFO:
		return LOG_INFO;
	default:
		return LOG_DEBUG;
	}
}

static void write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return; /* a log line is not worth failing the caller for */
		}
		p += n;
		len -= (size_t)n;
	}
}

/* rec is one record of len chars ending in '\n' (NUL-terminated after it). Under log_lock. */
static void backend_emit(struct doca_log_backend *be, uint32_t level, const char *rec, size_t len)
{
	size_t n;

	switch (be->type) {
	case BACKEND_FILE:
		fwrite(rec, 1, len, be->file);
		fflush(be->file);
		break;
	case BACKEND_FD:
		write_all(be->fd, rec, len);
		break;
	case BACKEND_BUF:
		/* The record at the start of the caller's buffer, truncated to fit with its NUL. */
		n = len < be->capacity ? len : be->capacity - 1;
		memcpy(be->buf, rec, n);
		be->buf[n] = '\0';
		be->flush(be->buf);
		break;
	case BACKEND_SYSLOG:
		if (syslog_ident != be->ident) {
			openlog(be->ident, LOG_PID, LOG_USER);
			syslog_ident = be->ident;
		}
		syslog(syslog_priority(level), "%.*s", (int)(len - 1), rec);
		break;
	}
}

/* "[HH:MM:SS:uuuuuu][tid][DOCA][LVL][file:line]" plus "[func]" for application messages. */
static int format_header(char *out, size_t size, uint32_t level, bool sdk, const char *fname, int line,
			 const char *func)
{
	struct timespec ts;
	struct tm tm;
	const char *base;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	if (fname == NULL)
		fname = "";
	base = strrchr(fname, '/');
	base = base ? base + 1 : fname;

	n = snprintf(out, size, "[%02d:%02d:%02d:%06ld][%d][DOCA][%s][%s:%d]", tm.tm_hour, tm.tm_min, tm.tm_sec,
		     ts.tv_nsec / 1000, (int)gettid(), level_tag(level), base, line);
	if (n >= 0 && (size_t)n < size && !sdk)
		n += snprintf(out + n, size - (size_t)n, "[%s]", func ? func : "");
	if (n >= 0 && (size_t)n < size)
		n += snprintf(out + n, size - (size_t)n, " ");
	if (n < 0)
		return 0;
	return (size_t)n < size ? n : (int)size - 1;
}

doca_error_t doca_log(uint32_t level, int source, const char *fname, int line, const char *func,
		      const char *format, ...)
{
	char small[RECORD_STACK];
	char *rec = small;
	struct backend_set *set;
	enum source_kind kind;
	va_list ap;
	size_t hlen, len;
	unsigned int i;
	int mlen;

	if (!message_level_valid(level) || format == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	kind = source_lookup(source);
	if (kind == SOURCE_FREE)
		return DOCA_ERROR_INVALID_VALUE;
	/* Fast path: no backend of this class shows the level. */
	if (level > atomic_load_explicit(kind == SOURCE_SDK ? &sdk_max_level : &app_max_level, memory_order_relaxed))
		return DOCA_SUCCESS;
	if (in_output)
		return DOCA_SUCCESS;

	hlen = (size_t)format_header(small, HEADER_MAX, level, kind == SOURCE_SDK, fname, line, func);
	va_start(ap, format);
	mlen = vsnprintf(small + hlen, sizeof(small) - hlen, format, ap);
	va_end(ap);
	if (mlen < 0) { /* encoding error: log the header alone */
		mlen = 0;
		small[hlen] = '\0';
	}
	len = hlen + (size_t)mlen;
	if (len + 2 > sizeof(small)) {
		rec = malloc(len + 2);
		if (rec == NULL)
			return DOCA_ERROR_NO_MEMORY;
		memcpy(rec, small, hlen);
		va_start(ap, format);
		vsnprintf(rec + hlen, (size_t)mlen + 1, format, ap);
		va_end(ap);
	}
	rec[len++] = '\n';
	rec[len] = '\0';

	pthread_mutex_lock(&log_lock);
	in_output = true;
	set = kind == SOURCE_SDK ? &sdk_set : &app_set;
	for (i = 0; i < set->n; i++)
		if (backend_shows(set->be[i], level))
			backend_emit(set->be[i], level, rec, len);
	in_output = false;
	pthread_mutex_unlock(&log_lock);

	if (rec != small)
		free(rec);
	return DOCA_SUCCESS;
}
