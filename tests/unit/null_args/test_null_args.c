/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every exported DOCA function that takes arguments, called with all of them zero: NULL objects,
 * NULL out-pointers, 0 sizes. Each call runs in a child process of its own, so that one crash
 * cannot hide the next. What must hold for each:
 *   - the child ends by itself within CALL_TIMEOUT_S: no crash (signal), no hang;
 *   - a function that returns doca_error_t does not return DOCA_SUCCESS (a NULL object or a
 *     NULL out-pointer is never a valid call), unless null_ok names it with the reason;
 *   - an error comes with at least one log line on stderr (what was wrong, what to pass).
 * The call table is generated from the version maps and softdoca's headers (gen_calls.py).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_log.h"
#include "test.h"

struct null_call {
	const char *name;
	int (*call)(void); /* the doca_error_t it returned, or -1 (a function of another type) */
	bool returns_error;
};

#include "null_calls.h"

#define CALL_TIMEOUT_S 10

/*
 * Calls that may succeed with zero arguments, each with DOCA's reason. A zero there is a value,
 * not a missing object.
 */
static const char *const null_ok[] = {
	"doca_argp_init",  /* a NULL program name is argv[0]'s, and the program config is the program's */
	"doca_dev_close",  /* DOCA's samples close a device pointer they reset to NULL, and expect success */
	NULL,
};

/* Exported, and declared for Windows only (doca_pe.h: an I/O completion port binding). */
static const char *const windows_only[] = {
	"doca_pe_set_notification_handle",
	NULL,
};

static bool listed(const char *const *list, const char *name)
{
	for (size_t i = 0; list[i] != NULL; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

struct outcome {
	bool ended;   /* exited by itself */
	int signal;   /* the signal that killed it, 0 if none */
	int status;   /* exit status: the doca_error_t, or 0 */
	size_t lines; /* lines it wrote to stderr */
	char last[256];
};

/* Reads the child's stderr until it closes or the deadline passes; counts lines, keeps the last. */
static void drain(int fd, struct outcome *o, time_t deadline)
{
	char buf[4096], line[256];
	size_t used = 0;

	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		time_t now = time(NULL);
		ssize_t n;

		if (now >= deadline)
			return;
		if (poll(&p, 1, (int)(deadline - now) * 1000) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				line[used] = '\0';
				o->lines++;
				snprintf(o->last, sizeof(o->last), "%s", line);
				used = 0;
			} else if (used + 1 < sizeof(line)) {
				line[used++] = buf[i];
			}
		}
	}
}

static struct outcome run_one(const struct null_call *c)
{
	struct outcome o = {0};
	int err[2];
	pid_t pid;
	int st = 0;

	if (pipe(err) != 0) {
		perror("pipe");
		exit(EXIT_FAILURE);
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(EXIT_FAILURE);
	}
	if (pid == 0) {
		int r;

		close(err[0]);
		dup2(err[1], STDERR_FILENO);
		close(err[1]);
		alarm(CALL_TIMEOUT_S);
		r = c->call();
		_exit(c->returns_error ? r : 0);
	}
	close(err[1]);
	drain(err[0], &o, time(NULL) + CALL_TIMEOUT_S + 2);
	close(err[0]);
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(pid, SIGKILL); /* (a child that kept stderr open past the deadline) */
		waitpid(pid, &st, 0);
	}
	if (WIFSIGNALED(st)) {
		o.signal = WTERMSIG(st);
	} else {
		o.ended = true;
		o.status = WEXITSTATUS(st);
	}
	return o;
}

static void test_every_call(void)
{
	const size_t n = sizeof(null_calls) / sizeof(null_calls[0]);
	unsigned crashed = 0, succeeded = 0, silent = 0;

	for (size_t i = 0; i < n; i++) {
		const struct null_call *c = &null_calls[i];
		struct outcome o = run_one(c);

		CHECK(o.signal == 0);
		if (o.signal != 0) {
			crashed++;
			fprintf(stderr, "%s(0, ...): %s%s\n", c->name,
				o.signal == SIGALRM ? "no return within the timeout" : strsignal(o.signal),
				o.lines > 0 ? "; its last line:" : "");
			if (o.lines > 0)
				fprintf(stderr, "    %s\n", o.last);
			continue;
		}
		if (getenv("NULL_ARGS_SHOW") != NULL)
			fprintf(stderr, "%s: %s | %s\n", c->name,
				c->returns_error ? doca_error_get_name((doca_error_t)o.status) : "-", o.last);
		if (!c->returns_error)
			continue;
		CHECK(o.status != DOCA_SUCCESS || listed(null_ok, c->name));
		CHECK(o.status == DOCA_SUCCESS || o.lines > 0);
		if (o.status == DOCA_SUCCESS && !listed(null_ok, c->name)) {
			succeeded++;
			fprintf(stderr, "%s(0, ...): DOCA_SUCCESS with a NULL argument\n", c->name);
		} else if (o.status != DOCA_SUCCESS && o.lines == 0) {
			silent++;
			fprintf(stderr, "%s(0, ...): %s without a log line\n", c->name,
				doca_error_get_name((doca_error_t)o.status));
		}
	}
	fprintf(stderr, "%zu calls: %u crashed or hung, %u succeeded, %u failed silently\n", n, crashed, succeeded,
		silent);
	CHECK(n > 500);
	/* an exported function without a Linux prototype is a header that lost one */
	for (size_t i = 0; null_calls_unprototyped[i] != NULL; i++) {
		if (!listed(windows_only, null_calls_unprototyped[i]))
			fprintf(stderr, "%s: exported, but no header declares it\n", null_calls_unprototyped[i]);
		CHECK(listed(windows_only, null_calls_unprototyped[i]));
	}
}

int main(void)
{
	struct doca_log_backend *sdk_log;

	/* softdoca's own lines reach SDK backends only: one on stderr, which each child points at
	 * its pipe */
	CHECK_OK(doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &sdk_log));
	TEST_RUN(test_every_call);
	TEST_EXIT();
}
