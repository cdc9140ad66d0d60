/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the trust tests: child processes (some of a second uid), their SDK log files,
 * bounded pipe reads, configuration files every uid can read, raw connections made as an
 * attacker would make them, and the CPU time a process spent.
 */
#ifndef SOFTDOCA_TRUST_TEST_H
#define SOFTDOCA_TRUST_TEST_H

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doca_log.h"
#include "test.h"

#define OTHER_ID 65534     /* nobody / nogroup */
#define WAIT_MS 10000      /* any single wait of the tests */
#define EXIT_NO_UID 77     /* a child could not switch to the second uid */

static char scratch[64];   /* mode 0755: the second uid reads the configuration files there */
static bool uid_skipped;   /* a child could not switch uid: the test skips */

/* A child process: pipes both ways and its own SDK log file. */
struct kid {
	pid_t pid;
	int to;   /* parent -> child */
	int from; /* child -> parent */
	char log[128];
};

typedef void (*kid_fn)(int in, int out);

static void scratch_make(const char *what)
{
	snprintf(scratch, sizeof(scratch), "/tmp/softdoca-%s-XXXXXX", what);
	if (mkdtemp(scratch) == NULL || chmod(scratch, 0755) != 0) {
		perror(scratch);
		exit(1);
	}
}

static void scratch_remove(void)
{
	DIR *d = opendir(scratch);
	struct dirent *e;
	char path[sizeof(scratch) + sizeof(e->d_name) + 1];

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", scratch, e->d_name);
		unlink(path);
	}
	if (d != NULL)
		closedir(d);
	rmdir(scratch);
}

/* A configuration file every uid can read: the card, then `access` (an [access] section's lines). */
static const char *write_config(const char *name, const char *access)
{
	static char paths[8][128];
	static int next;
	char *p = paths[next++ % 8];
	FILE *f;

	snprintf(p, 128, "%s/%s", scratch, name);
	f = fopen(p, "w");
	if (f == NULL || fprintf(f, "[card bf3-0]\nprofile = bf3\n\n[access]\n%s\n", access) < 0 || fclose(f) != 0 ||
	    chmod(p, 0644) != 0) {
		perror(p);
		exit(1);
	}
	return p;
}

static bool read_full_ms(int fd, void *buf, size_t len, int ms)
{
	char *p = buf;

	while (len > 0) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t n;

		if (poll(&pfd, 1, ms) != 1)
			return false;
		n = read(fd, p, len);
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool get(int fd, void *buf, size_t len)
{
	return read_full_ms(fd, buf, len, WAIT_MS);
}

static bool put(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/*
 * Starts fn(in, out) in a child with its configuration (NULL: built-in) and an SDK log file;
 * other_uid: the child drops to uid and gid 65534 first (exit 77 if it cannot).
 */
static bool kid_start(struct kid *k, const char *name, const char *config, bool other_uid, kid_fn fn)
{
	int to[2], from[2];

	snprintf(k->log, sizeof(k->log), "%s/%s.log", scratch, name);
	if (pipe(to) != 0 || pipe(from) != 0)
		return false;
	fflush(NULL);
	k->pid = fork();
	if (k->pid == 0) {
		struct doca_log_backend *be;
		FILE *log = fopen(k->log, "w");

		close(to[1]);
		close(from[0]);
		test_checks = test_failures = 0; /* the child's own, not the parent's so far */
		setenv("SOFTDOCA_CONFIG", config != NULL ? config : "builtin", 1);
		if (log == NULL || doca_log_backend_create_with_file_sdk(log, &be) != DOCA_SUCCESS)
			_exit(3);
		(void)doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG);
		alarm(60);
		if (other_uid && (setgroups(0, NULL) != 0 || setresgid(OTHER_ID, OTHER_ID, OTHER_ID) != 0 ||
				  setresuid(OTHER_ID, OTHER_ID, OTHER_ID) != 0)) {
			fprintf(stderr, "SKIP: child %s cannot switch to uid %d (%s)\n", name, OTHER_ID, strerror(errno));
			_exit(EXIT_NO_UID);
		}
		fn(to[0], from[1]);
		fprintf(stderr, "child %s: %d checks, %d failed\n", name, test_checks, test_failures);
		_exit(test_failures ? 1 : 0);
	}
	close(to[0]);
	close(from[1]);
	k->to = to[1];
	k->from = from[0];
	return k->pid > 0;
}

/* Closes the pipes (the child's cue to finish) and checks that it exited cleanly. */
static void kid_end(struct kid *k)
{
	int st = 0;

	close(k->to);
	close(k->from);
	test_checks++;
	if (waitpid(k->pid, &st, 0) != k->pid || !WIFEXITED(st) ||
	    (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != EXIT_NO_UID)) {
		test_failures++;
		fprintf(stderr, "child %d failed (status 0x%x)\n", (int)k->pid, st);
	} else if (WEXITSTATUS(st) == EXIT_NO_UID) {
		uid_skipped = true;
	}
}

/* Lines of a child's SDK log that contain `text`. */
static int log_count(const struct kid *k, const char *text)
{
	char line[2048];
	int n = 0;
	FILE *f = fopen(k->log, "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, text) != NULL)
			n++;
	if (f != NULL)
		fclose(f);
	return n;
}

static inline void log_show(const struct kid *k)
{
	char line[2048];
	FILE *f = fopen(k->log, "r");

	fprintf(stderr, "  --- %s ---\n", k->log);
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		fprintf(stderr, "  %s", line);
	if (f != NULL)
		fclose(f);
}

/* ---- raw connections: what an attacker does ---- */

/*
 * Connects up to n sockets of `type` to addr (blocking, so a full backlog waits, bounded);
 * returns how many connected.
 */
static int raw_flood(const struct sockaddr *addr, socklen_t len, int type, int n, int *fds)
{
	struct timeval tv = {.tv_sec = 5};
	int got = 0;

	for (int i = 0; i < n; i++) {
		int s = socket(addr->sa_family, type | SOCK_CLOEXEC, 0);

		if (s < 0)
			break;
		(void)setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (connect(s, addr, len) != 0) {
			close(s);
			break;
		}
		fds[got++] = s;
	}
	return got;
}

/* How many of the sockets the other side has answered or closed (without waiting). */
static int raw_answered(const int *fds, int n)
{
	int count = 0;

	for (int i = 0; i < n; i++) {
		struct pollfd p = {.fd = fds[i], .events = POLLIN};

		if (poll(&p, 1, 0) == 1 && (p.revents & (POLLIN | POLLHUP | POLLERR)))
			count++;
	}
	return count;
}

/* The flooder child: connects the number of sockets it is told, reports, counts answers on request. */
static void flooder_main(int in, int out)
{
	static int fds[512];
	struct {
		struct sockaddr_storage addr;
		socklen_t len;
		int type;
		int n;
	} req;
	int got, answered;
	char c;

	if (!get(in, &req, sizeof(req)) || req.n > 512)
		_exit(4);
	got = raw_flood((struct sockaddr *)&req.addr, req.len, req.type, req.n, fds);
	if (!put(out, &got, sizeof(got)))
		_exit(5);
	/* hold them until the parent is done; count the answered ones when asked */
	while (read(in, &c, 1) == 1) {
		answered = raw_answered(fds, got);
		if (!put(out, &answered, sizeof(answered)))
			_exit(6);
	}
}

/* Asks a flooder child for n connections of `type` to addr; returns how many connected. */
static int flood_start(struct kid *f, const struct sockaddr *addr, socklen_t len, int type, int n)
{
	struct {
		struct sockaddr_storage addr;
		socklen_t len;
		int type;
		int n;
	} req = {.len = len, .type = type, .n = n};
	int got = -1;

	memcpy(&req.addr, addr, len);
	if (!put(f->to, &req, sizeof(req)) || !get(f->from, &got, sizeof(got)))
		return -1;
	return got;
}

/* How many of the flooder's connections were refused (answered or closed) by now. */
static int flood_refused(struct kid *f)
{
	int answered = -1;

	if (!put(f->to, "c", 1) || !get(f->from, &answered, sizeof(answered)))
		return -1;
	return answered;
}

/* Connections one peer may hold before it proved anything: the guard's cap at the default rlimit. */
static int pending_cap(unsigned per_peer, unsigned total)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < total)
		total = (unsigned)(rl.rlim_cur / 2);
	if (per_peer > total / 2)
		per_peer = total / 2 > 0 ? total / 2 : 1;
	return (int)per_peer;
}

/* CPU time (utime + stime, clock ticks) all threads of a process used so far. */
static inline long proc_cpu_ticks(pid_t pid)
{
	char path[64], buf[1024];
	long total = 0;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	while (d != NULL && (e = readdir(d)) != NULL) {
		FILE *f;
		char *p;
		unsigned long ut = 0, st = 0;

		if (e->d_name[0] == '.')
			continue;
		snprintf(buf, sizeof(buf), "%s/%s/stat", path, e->d_name);
		f = fopen(buf, "r");
		if (f == NULL)
			continue;
		if (fgets(buf, sizeof(buf), f) != NULL && (p = strrchr(buf, ')')) != NULL &&
		    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
			total += (long)(ut + st);
		fclose(f);
	}
	if (d != NULL)
		closedir(d);
	return total;
}

/* The exporter / server child fills its descriptor table: RLIMIT_NOFILE lowered, then dup() to EMFILE. */
static int fill_fds(int *fds, int max)
{
	struct rlimit rl = {.rlim_cur = 64, .rlim_max = 64};
	int n = 0;

	(void)getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = 64;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return -1;
	while (n < max) {
		int fd = dup(0);

		if (fd < 0)
			break;
		fds[n++] = fd;
	}
	return n;
}

#endif /* SOFTDOCA_TRUST_TEST_H */
