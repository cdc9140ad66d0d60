/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The softdoca-sta-target process of an NVMe-oF host test (sta_data, sta_fuzz): CHECK and
 * REQUIRE (which stops the target and shows the tail of its log), starting and stopping it.
 * One such test per program: the state below is the program's.
 */
#ifndef STA_TARGET_PROC_H
#define STA_TARGET_PROC_H

#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
static pid_t target = -1;
static char errlog[256]; /* the target's stderr */

static void stop_target(void)
{
	int st;

	if (target > 0) {
		kill(target, SIGTERM);
		waitpid(target, &st, 0);
		target = -1;
	}
}

/* SIGTERM: the target stops (with its hosts still connected) and exits with status 0. */
static bool target_stops_cleanly(void)
{
	int st = 0;
	bool reaped;

	kill(target, SIGTERM);
	reaped = waitpid(target, &st, 0) == target;
	target = -1;
	return reaped && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The last 64 KiB of the target's log, on stderr. */
static void target_log_tail(void)
{
	static char log[1 << 16];
	FILE *f = fopen(errlog, "r");
	long sz;
	size_t n;

	if (f == NULL)
		return;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, sz > (long)sizeof(log) - 1 ? sz - (long)sizeof(log) + 1 : 0, SEEK_SET);
	n = fread(log, 1, sizeof(log) - 1, f);
	fclose(f);
	log[n] = 0;
	fprintf(stderr, "---- target log (tail) ----\n%s\n", log);
}

#define CHECK(c)                                                                                                       \
	do {                                                                                                           \
		if (!(c)) {                                                                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c);                          \
			failures++;                                                                                    \
		}                                                                                                      \
	} while (0)
#define REQUIRE(c)                                                                                                     \
	do {                                                                                                           \
		if (!(c)) {                                                                                            \
			fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #c);                        \
			stop_target();                                                                                 \
			target_log_tail();                                                                             \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)

/*
 * Starts the target (argv[0]: its path) with its stderr in errlog and waits for its
 * "listening" line (into line); returns its stdout. A test killed by its time-out takes the
 * target along.
 */
static int target_start(char *const argv[], char *line, size_t cap)
{
	int out[2];
	size_t n = 0;

	REQUIRE(cap > 1 && pipe(out) == 0);
	memset(line, 0, cap);
	target = fork();
	REQUIRE(target >= 0);
	if (target == 0) {
		int e = open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(out[1], 1);
		dup2(e, 2);
		close(out[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	while (n < cap - 1 && strchr(line, '\n') == NULL) {
		struct pollfd p = {.fd = out[0], .events = POLLIN};
		ssize_t r;

		REQUIRE(poll(&p, 1, 60000) == 1);
		r = read(out[0], line + n, cap - 1 - n);
		REQUIRE(r > 0);
		n += (size_t)r;
	}
	REQUIRE(strstr(line, "listening on") != NULL);
	return out[0];
}

#endif
