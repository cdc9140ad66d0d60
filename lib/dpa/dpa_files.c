/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The files device code writes to (docs/dpa.md "Device logs and traces"): the log file of
 * doca_dpa_dev_log lines and the trace file of doca_dpa_dev_trace records. Set before start;
 * without one, both go to the process's stdout. A file is opened for appending when it is
 * set (OPERATING_SYSTEM if it cannot be), so a run never truncates what an earlier one wrote,
 * and each line is one write(2) on an O_APPEND descriptor: lines of EUs do not interleave.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dpa_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DPA_FILES);

static struct softdoca_dpa_file *file_of(struct doca_dpa *dpa, bool trace)
{
	return trace ? &dpa->trace_file : &dpa->log_file;
}

static doca_error_t set_path(struct doca_dpa *dpa, const char *path, bool trace)
{
	const char *what = trace ? "trace" : "log";
	struct softdoca_dpa_file *f;
	char *copy;
	int fd;

	if (dpa == NULL || path == NULL || path[0] == '\0') {
		SDK_LOG_ERR("Failed to set DPA %s file: %s", what, dpa == NULL ? "dpa is NULL" : "no path given");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa->started) {
		SDK_LOG_ERR("Failed to set DPA %s file: the context is started; set it before doca_dpa_start()", what);
		return DOCA_ERROR_BAD_STATE;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		SDK_LOG_ERR("Failed to set DPA %s file: cannot open %s: %s", what, path, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	copy = strdup(path);
	if (copy == NULL) {
		close(fd);
		SDK_LOG_ERR("Failed to set DPA %s file: out of memory", what);
		return DOCA_ERROR_NO_MEMORY;
	}
	f = file_of(dpa, trace);
	softdoca_dpa_file_close(f);
	f->fd = fd;
	f->path = copy;
	return DOCA_SUCCESS;
}

static doca_error_t get_path(struct doca_dpa *dpa, char *buf, uint32_t *len, bool trace)
{
	const char *what = trace ? "trace" : "log";
	const struct softdoca_dpa_file *f;
	size_t need;

	if (dpa == NULL || buf == NULL || len == NULL) {
		SDK_LOG_ERR("Failed to get DPA %s file: %s is NULL",
			    what, dpa == NULL ? "dpa" : buf == NULL ? "file_path" : "file_path_len");
		return DOCA_ERROR_INVALID_VALUE;
	}
	f = file_of(dpa->parent != NULL ? dpa->parent : dpa, trace);
	/* none set: the empty path (device output goes to stdout) */
	need = (f->path != NULL ? strlen(f->path) : 0) + 1;
	if (*len < need) {
		SDK_LOG_ERR("Failed to get DPA %s file: the buffer holds %u bytes, the path needs %zu", what, *len, need);
		*len = (uint32_t)need;
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(buf, f->path != NULL ? f->path : "", need);
	*len = (uint32_t)need;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_log_file_set_path(struct doca_dpa *dpa, const char *file_path)
{
	return set_path(dpa, file_path, false);
}

doca_error_t doca_dpa_log_file_get_path(struct doca_dpa *dpa, char *file_path, uint32_t *file_path_len)
{
	return get_path(dpa, file_path, file_path_len, false);
}

doca_error_t doca_dpa_trace_file_set_path(struct doca_dpa *dpa, const char *file_path)
{
	return set_path(dpa, file_path, true);
}

doca_error_t doca_dpa_trace_file_get_path(struct doca_dpa *dpa, char *file_path, uint32_t *file_path_len)
{
	return get_path(dpa, file_path, file_path_len, true);
}

void softdoca_dpa_file_close(struct softdoca_dpa_file *f)
{
	if (f->path != NULL)
		close(f->fd);
	free(f->path);
	f->path = NULL;
	f->fd = -1;
}

/* One line to the context's file (its parent's for an extended context), or to stdout. */
void softdoca_dpa_file_write(struct doca_dpa *dpa, bool trace, const char *line, size_t len)
{
	const struct softdoca_dpa_file *f = NULL;

	if (dpa != NULL)
		f = file_of(dpa->parent != NULL ? dpa->parent : dpa, trace);
	if (f == NULL || f->path == NULL) {
		flockfile(stdout);
		fwrite(line, 1, len, stdout);
		fflush(stdout);
		funlockfile(stdout);
		return;
	}
	while (len > 0) {
		ssize_t n = write(f->fd, line, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* a full disk loses lines, as DOCA says delivery is not guaranteed */
		line += n;
		len -= (size_t)n;
	}
}

/*
 * A doca_dpa_dev_trace record: softdoca's own text format (NVIDIA's trace format is not
 * public), one line per call: the time (CLOCK_MONOTONIC ns, as __dpa_thread_cycles), the
 * rank, and the five arguments in hex.
 */
void softdoca_dpa_trace(struct doca_dpa *dpa, uint64_t time_ns, unsigned int rank, const uint64_t args[5])
{
	char line[160];
	int n = snprintf(line, sizeof(line),
			 "dpa_trace %" PRIu64 " rank %u 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64
			 "\n",
			 time_ns, rank, args[0], args[1], args[2], args[3], args[4]);

	if (n > 0)
		softdoca_dpa_file_write(dpa, true, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}
