/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device model loads once per process, so every scenario (role, configuration file) runs
 * in a child process of its own, with its environment set before the first DOCA call. The
 * child's stderr is captured so the test can check the messages it printed.
 */
#ifndef SOFTDOCA_TEST_MODEL_CHILD_H
#define SOFTDOCA_TEST_MODEL_CHILD_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#define CHILD_OUT_MAX 16384

/* A scratch directory for configuration files, removed by scratch_cleanup(). */
static char scratch_dir[64];

static inline void scratch_init(void)
{
	strcpy(scratch_dir, "/tmp/softdoca-model-test-XXXXXX");
	if (mkdtemp(scratch_dir) == NULL) {
		perror("mkdtemp");
		exit(EXIT_FAILURE);
	}
}

static inline void scratch_cleanup(void)
{
	char cmd[128];

	/* Only our own mkdtemp directory. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", scratch_dir);
}

/* Writes `text` to <scratch>/<name> and returns the path (static buffer). */
static inline const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch_dir, name);
	f = fopen(path, "w");
	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(EXIT_FAILURE);
	}
	return path;
}

/*
 * Runs fn() in a child with `env` applied ("NAME=value" sets, "NAME" unsets; NULL-terminated).
 * Returns true when the child's checks all passed; its stderr is left in `out`.
 */
static inline bool run_child(const char *name, void (*fn)(void), const char *const *env, char *out, size_t outlen)
{
	const char *summary;
	char path[96];
	int fd, status = 0;
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/stderr-XXXXXX", scratch_dir);
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		exit(EXIT_FAILURE);
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd, STDERR_FILENO);
		for (; env && *env; env++) {
			const char *eq = strchr(*env, '=');

			if (eq == NULL) {
				unsetenv(*env);
			} else {
				char key[64];

				snprintf(key, sizeof(key), "%.*s", (int)(eq - *env), *env);
				setenv(key, eq + 1, 1);
			}
		}
		test_checks = 0;
		test_failures = 0;
		fn();
		fprintf(stderr, "child %s: %d checks, %d failed\n", name, test_checks, test_failures);
		fflush(NULL);
		exit(test_failures ? 1 : test_checks ? 0 : 2); /* exit, not _exit: leak checkers run */
	}
	waitpid(pid, &status, 0);
	n = pread(fd, out, outlen - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	/* the child's last line counts its checks: show it */
	summary = strstr(out, "child ");
	while (summary && strstr(summary + 1, "child "))
		summary = strstr(summary + 1, "child ");
	if (summary)
		fputs(summary, stderr);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "---- child %s failed (status 0x%x); its stderr:\n%s----\n", name, status, out);
		return false;
	}
	return true;
}

#endif /* SOFTDOCA_TEST_MODEL_CHILD_H */
