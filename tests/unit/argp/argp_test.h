/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the argp unit tests: param builders, a capturing logger, forked runs. */
#ifndef SOFTDOCA_ARGP_TEST_H
#define SOFTDOCA_ARGP_TEST_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doca_argp.h"
#include "doca_log.h"
#include "test.h"

#define ARGC(...) ((int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)))
/* argv for doca_argp_start: a writable array of the given strings plus the NULL terminator. */
#define ARGV(...) ((char *[]){__VA_ARGS__, NULL})
#define START(...) doca_argp_start(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

/* Messages argp sent to the logger callback, joined by newlines. */
static char logged[32768];

static doca_error_t capture_logger(enum doca_log_level level, const char *format, va_list args)
{
	size_t used = strlen(logged);

	if (used + 1 < sizeof(logged)) {
		vsnprintf(logged + used, sizeof(logged) - used - 1, format, args);
		strcat(logged, "\n");
	}
	return DOCA_SUCCESS;
}

/* doca_argp_init plus the capturing logger, so error messages can be checked. */
static inline doca_error_t init_captured(const char *name, void *config)
{
	doca_error_t err = doca_argp_init(name, config);

	logged[0] = '\0';
	if (err == DOCA_SUCCESS)
		err = doca_argp_register_logger_callback(capture_logger);
	return err;
}

/* Creates, fills and registers a param (into cmd when not NULL); extra setters via flags. */
enum { P_MANDATORY = 1, P_MULTI = 2, P_SINGULAR = 4, P_HIDDEN = 8, P_CLI_ONLY = 16, P_INHERITED = 32 };

static inline doca_error_t add_param(struct doca_argp_cmd *cmd, const char *short_name, const char *long_name,
				     const char *arguments, const char *description, enum doca_argp_type type,
				     doca_argp_param_cb_t cb, int flags)
{
	struct doca_argp_param *p;
	doca_error_t err = doca_argp_param_create(&p);

	if (err != DOCA_SUCCESS)
		return err;
	if (short_name)
		doca_argp_param_set_short_name(p, short_name);
	if (long_name)
		doca_argp_param_set_long_name(p, long_name);
	if (arguments)
		doca_argp_param_set_arguments(p, arguments);
	if (description)
		doca_argp_param_set_description(p, description);
	if (cb)
		doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	if (flags & P_MANDATORY)
		doca_argp_param_set_mandatory(p);
	if (flags & P_MULTI)
		doca_argp_param_set_multiplicity(p);
	if (flags & P_SINGULAR)
		doca_argp_param_set_singular(p);
	if (flags & P_HIDDEN)
		doca_argp_param_set_hidden(p);
	if (flags & P_CLI_ONLY)
		doca_argp_param_set_cli_only(p);
	if (flags & P_INHERITED)
		doca_argp_param_set_inherited(p);
	return cmd ? doca_argp_cmd_register_param(cmd, p) : doca_argp_register_param(p);
}

/* Output and exit status of a function run in a forked child (bounded by an alarm). */
struct child_run {
	int status;
	char out[32768];
	char err[32768];
};

static inline void read_all(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static inline void run_child(int (*fn)(void *), void *arg, struct child_run *res)
{
	FILE *out = tmpfile(), *err = tmpfile();
	pid_t pid;

	memset(res, 0, sizeof(*res));
	res->status = -1;
	if (out == NULL || err == NULL)
		return;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		int rc;

		alarm(20);
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		rc = fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(rc);
	}
	if (pid > 0)
		waitpid(pid, &res->status, 0);
	read_all(out, res->out, sizeof(res->out));
	read_all(err, res->err, sizeof(res->err));
}

static inline bool exited_with(const struct child_run *res, int code)
{
	return res->status != -1 && WIFEXITED(res->status) && WEXITSTATUS(res->status) == code;
}

/* Writes text to a fresh temporary file; returns its path (static buffer per slot). */
static inline char *write_temp(int slot, const char *text)
{
	static char paths[8][64];
	char *path = paths[slot % 8];
	int fd;

	snprintf(path, sizeof(paths[0]), "/tmp/argp_test_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0) {
		path[0] = '\0'; /* the test then fails on the missing file */
		return path;
	}
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		path[0] = '\0';
	close(fd);
	return path;
}

#endif /* SOFTDOCA_ARGP_TEST_H */
