/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA log: line formats, level windows, strict locks, SDK vs application routing, the
 * standard backend's stdout/stderr split, rate limiting, threads and bad input.
 *
 * Backends cannot be destroyed (DOCA has no such call), so each test silences the backends it
 * created before it returns: an application backend's lower limit is locked at DISABLE (so later
 * global changes cannot revive it), an SDK backend's level is set to DISABLE.
 */
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_log.h"
#include "softhw/base/sdk_log.h"
#include "test.h"

DOCA_LOG_REGISTER(TEST_LOG::MAIN : any tokens);
SDK_LOG_REGISTER(TEST_LOG_SDK);

/* Buffer backends that record every line they receive. */
#define CAP_LINES 128
#define CAP_LINE_LEN 512

struct capture {
	char buf[CAP_LINE_LEN];
	char lines[CAP_LINES][CAP_LINE_LEN];
	int n;
	struct doca_log_backend *be;
};

static struct capture capture_pool[32];
static int capture_used;

static void capture_flush(char *buf)
{
	int i;

	for (i = 0; i < capture_used; i++) {
		struct capture *c = &capture_pool[i];

		if (c->buf != buf)
			continue;
		if (c->n < CAP_LINES)
			snprintf(c->lines[c->n], CAP_LINE_LEN, "%s", buf);
		c->n++;
	}
}

static struct capture *capture_new(bool sdk)
{
	struct capture *c;
	doca_error_t ret;

	if (capture_used == (int)(sizeof(capture_pool) / sizeof(capture_pool[0])))
		return NULL;
	c = &capture_pool[capture_used++];
	ret = sdk ? doca_log_backend_create_with_buf_sdk(c->buf, sizeof(c->buf), capture_flush, &c->be) :
		    doca_log_backend_create_with_buf(c->buf, sizeof(c->buf), capture_flush, &c->be);
	CHECK_OK(ret);
	return ret == DOCA_SUCCESS ? c : NULL;
}

static void silence(struct doca_log_backend *be)
{
	if (doca_log_backend_set_level_lower_limit(be, DOCA_LOG_LEVEL_DISABLE) == DOCA_ERROR_NOT_PERMITTED) {
		CHECK_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DISABLE));
		return;
	}
	CHECK_OK(doca_log_backend_set_level_lower_limit_strict(be));
}

static void capture_silence(struct capture *c)
{
	if (c != NULL)
		silence(c->be);
}

/* Lines of c carrying tag "[XXX]" and text msg. */
static int capture_count(const struct capture *c, const char *tag, const char *msg)
{
	int i, n = 0;

	for (i = 0; i < c->n && i < CAP_LINES; i++)
		if ((tag == NULL || strstr(c->lines[i], tag)) && (msg == NULL || strstr(c->lines[i], msg)))
			n++;
	return n;
}

/* "[HH:MM:SS:uuuuuu]" at the start of line. */
static bool has_timestamp(const char *line)
{
	static const char shape[] = "[00:00:00:000000]";
	size_t i;

	if (strlen(line) < sizeof(shape) - 1)
		return false;
	for (i = 0; i < sizeof(shape) - 1; i++) {
		if (shape[i] == '0' ? (line[i] < '0' || line[i] > '9') : line[i] != shape[i])
			return false;
	}
	return true;
}

static ssize_t read_all(int fd, char *out, size_t size)
{
	size_t got = 0;
	ssize_t n;

	while (got + 1 < size && (n = read(fd, out + got, size - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	return (ssize_t)got;
}

static int count_substr(const char *s, const char *sub)
{
	int n = 0;

	while ((s = strstr(s, sub)) != NULL) {
		n++;
		s += strlen(sub);
	}
	return n;
}

/*
 * Runs first, in a child, before this process has any backend: logging without backends prints
 * nothing; then the standard backend puts INFO/DEBUG on stdout and WARNING..CRIT on stderr, also
 * after the global limits move.
 */
static void test_standard_split(void)
{
	int out[2], err[2];
	char obuf[8192], ebuf[8192];
	int status = -1;
	pid_t pid;

	CHECK(pipe(out) == 0 && pipe(err) == 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(out[0]);
		close(err[0]);
		DOCA_LOG_ERR("no backend yet");
		if (doca_log_backend_create_standard() != DOCA_SUCCESS)
			_exit(2);
		if (doca_log_backend_create_standard() != DOCA_SUCCESS) /* a second call adds nothing */
			_exit(3);
		DOCA_LOG_CRIT("std crit");
		DOCA_LOG_ERR("std err");
		DOCA_LOG_WARN("std warn");
		DOCA_LOG_INFO("std info");
		DOCA_LOG_DBG("std hidden debug");
		doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG);
		DOCA_LOG_DBG("std debug");
		doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_DISABLE);
		DOCA_LOG_CRIT("std crit2");
		doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR);
		DOCA_LOG_WARN("std hidden warn");
		DOCA_LOG_INFO("std hidden info");
		DOCA_LOG_ERR("std err2");
		fflush(stdout);
		fflush(stderr);
		_exit(0);
	}
	close(out[1]);
	close(err[1]);
	read_all(out[0], obuf, sizeof(obuf));
	read_all(err[0], ebuf, sizeof(ebuf));
	close(out[0]);
	close(err[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	CHECK(strstr(obuf, "no backend yet") == NULL && strstr(ebuf, "no backend yet") == NULL);
	CHECK(strstr(obuf, "[INF]") && strstr(obuf, "] std info\n"));
	CHECK(strstr(obuf, "[DBG]") && strstr(obuf, "] std debug\n"));
	CHECK(strstr(obuf, "hidden") == NULL && strstr(ebuf, "hidden") == NULL);
	CHECK(strstr(obuf, "[WRN]") == NULL && strstr(obuf, "[ERR]") == NULL && strstr(obuf, "[CRT]") == NULL);
	CHECK(strstr(ebuf, "[CRT]") && strstr(ebuf, "] std crit\n") && strstr(ebuf, "] std crit2\n"));
	CHECK(strstr(ebuf, "[ERR]") && strstr(ebuf, "] std err\n") && strstr(ebuf, "] std err2\n"));
	CHECK(strstr(ebuf, "[WRN]") && strstr(ebuf, "] std warn\n"));
	CHECK(strstr(ebuf, "[INF]") == NULL && strstr(ebuf, "[DBG]") == NULL);
	CHECK(count_substr(obuf, "\n") == 2);
	CHECK(count_substr(ebuf, "\n") == 5);
	CHECK(has_timestamp(obuf) && has_timestamp(ebuf));
}

static void test_defaults(void)
{
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_INFO);
	CHECK(doca_log_level_get_global_upper_limit() == DOCA_LOG_LEVEL_CRIT);
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_INFO);
}

static void test_buf_format(void)
{
	struct capture *c = capture_new(false);
	char want[CAP_LINE_LEN];
	int line;

	if (c == NULL)
		return;
	line = __LINE__ + 1;
	DOCA_LOG_INFO("hello %d %s", 42, "world");
	CHECK(c->n == 1);
	CHECK(has_timestamp(c->lines[0]));
	snprintf(want, sizeof(want), "[%d][DOCA][INF][test_log.c:%d][%s] hello 42 world\n", (int)gettid(), line,
		 __func__);
	CHECK(strcmp(c->lines[0] + 17, want) == 0);

	/* every level tag */
	c->n = 0;
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_TRACE);
	DOCA_LOG_CRIT("t");
	DOCA_LOG_ERR("t");
	DOCA_LOG_WARN("t");
	DOCA_LOG_INFO("t");
	DOCA_LOG_DBG("t");
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_TRACE, log_source, __FILE__, __LINE__, __func__, "t"));
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);
	CHECK(c->n == 6);
	CHECK(capture_count(c, "][CRT][", NULL) == 1);
	CHECK(capture_count(c, "][ERR][", NULL) == 1);
	CHECK(capture_count(c, "][WRN][", NULL) == 1);
	CHECK(capture_count(c, "][INF][", NULL) == 1);
	CHECK(capture_count(c, "][DBG][", NULL) == 1);
	CHECK(capture_count(c, "][TRC][", NULL) == 1);

	/* NULL file and function names are tolerated */
	c->n = 0;
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_ERROR, log_source, NULL, 7, NULL, "anon"));
	CHECK(c->n == 1 && strstr(c->lines[0], "[DOCA][ERR][:7][] anon\n") != NULL);

	/* a record longer than the buffer is cut to capacity - 1 chars */
	c->n = 0;
	DOCA_LOG_ERR("%0900d", 5);
	CHECK(c->n == 1 && strlen(c->lines[0]) == sizeof(c->buf) - 1);
	capture_silence(c);
}

static void test_fd_and_file_format(void)
{
	struct doca_log_backend *be_fd, *be_file;
	char out[4096], want[256], line_buf[4096];
	char big[3000];
	FILE *f = tmpfile();
	int p[2];
	int line;

	CHECK(pipe(p) == 0 && f != NULL);
	if (f == NULL)
		return;
	CHECK_OK(doca_log_backend_create_with_fd(p[1], &be_fd));
	CHECK_OK(doca_log_backend_create_with_file(f, &be_file));
	line = __LINE__ + 1;
	DOCA_LOG_WARN("via %s", "fd");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	DOCA_LOG_ERR("%s", big); /* longer than the on-stack record */
	silence(be_fd);
	silence(be_file);
	close(p[1]);
	read_all(p[0], out, sizeof(out));
	close(p[0]);

	snprintf(want, sizeof(want), "[%d][DOCA][WRN][test_log.c:%d][%s] via fd\n", (int)gettid(), line, __func__);
	CHECK(has_timestamp(out) && strncmp(out + 17, want, strlen(want)) == 0);
	CHECK(count_substr(out, "\n") == 2);
	CHECK(strstr(out, big) != NULL && strstr(out, big)[sizeof(big) - 1] == '\n');

	rewind(f);
	CHECK(fgets(line_buf, sizeof(line_buf), f) != NULL);
	CHECK(has_timestamp(line_buf) && strcmp(line_buf + 17, want) == 0);
	CHECK(fgets(line_buf, sizeof(line_buf), f) != NULL && strstr(line_buf, big) != NULL);
	CHECK(fgets(line_buf, sizeof(line_buf), f) == NULL);
	fclose(f);
}

static void test_level_windows(void)
{
	struct capture *c = capture_new(false);

	if (c == NULL)
		return;
	/* default window CRIT..INFO */
	DOCA_LOG_CRIT("w1");
	DOCA_LOG_INFO("w1");
	DOCA_LOG_DBG("w1");
	CHECK(capture_count(c, NULL, "w1") == 2 && capture_count(c, "[DBG]", "w1") == 0);

	/* WARNING..DEBUG */
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->be, DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->be, DOCA_LOG_LEVEL_WARNING));
	DOCA_LOG_CRIT("w2");
	DOCA_LOG_ERR("w2");
	DOCA_LOG_WARN("w2");
	DOCA_LOG_INFO("w2");
	DOCA_LOG_DBG("w2");
	CHECK(capture_count(c, NULL, "w2") == 3);
	CHECK(capture_count(c, "[CRT]", "w2") == 0 && capture_count(c, "[ERR]", "w2") == 0);

	/* empty window */
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->be, DOCA_LOG_LEVEL_ERROR));
	DOCA_LOG_WARN("w3");
	DOCA_LOG_INFO("w3");
	CHECK(capture_count(c, NULL, "w3") == 0);

	/* global limits move existing backends and seed new ones */
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_ERROR));
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_DEBUG);
	CHECK(doca_log_level_get_global_upper_limit() == DOCA_LOG_LEVEL_ERROR);
	struct capture *d = capture_new(false);
	DOCA_LOG_CRIT("w4");
	DOCA_LOG_DBG("w4");
	CHECK(capture_count(c, "[DBG]", "w4") == 1 && capture_count(c, "[CRT]", "w4") == 0);
	if (d != NULL)
		CHECK(capture_count(d, "[DBG]", "w4") == 1 && capture_count(d, "[CRT]", "w4") == 0);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT));
	capture_silence(c);
	capture_silence(d);
}

static void test_strict(void)
{
	struct capture *c = capture_new(false);

	if (c == NULL)
		return;
	/* lower limit locked at INFO: never more verbose than INFO, may become less */
	CHECK_OK(doca_log_backend_set_level_lower_limit_strict(c->be));
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_DEBUG));
	DOCA_LOG_DBG("s1");
	DOCA_LOG_INFO("s1");
	CHECK(capture_count(c, "[DBG]", "s1") == 0 && capture_count(c, "[INF]", "s1") == 1);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(c->be, DOCA_LOG_LEVEL_DEBUG), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->be, DOCA_LOG_LEVEL_WARNING));
	DOCA_LOG_INFO("s2");
	DOCA_LOG_WARN("s2");
	CHECK(capture_count(c, NULL, "s2") == 1);
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->be, DOCA_LOG_LEVEL_INFO));
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));

	/* upper limit locked at ERROR: CRIT stays hidden whatever the global limit says */
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->be, DOCA_LOG_LEVEL_ERROR));
	CHECK_OK(doca_log_backend_set_level_upper_limit_strict(c->be));
	CHECK_OK(doca_log_level_set_global_upper_limit(DOCA_LOG_LEVEL_CRIT));
	DOCA_LOG_CRIT("s3");
	DOCA_LOG_ERR("s3");
	CHECK(capture_count(c, "[CRT]", "s3") == 0 && capture_count(c, "[ERR]", "s3") == 1);
	CHECK_ERR(doca_log_backend_set_level_upper_limit(c->be, DOCA_LOG_LEVEL_CRIT), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->be, DOCA_LOG_LEVEL_WARNING));
	CHECK_OK(doca_log_backend_set_level_upper_limit(c->be, DOCA_LOG_LEVEL_ERROR));
	capture_silence(c);
}

static int trace_side_effects;

/* Referenced only inside DOCA_LOG_TRC, which drops its arguments. */
static int __attribute__((unused)) trace_arg(void)
{
	return ++trace_side_effects;
}

static void test_sdk_routing(void)
{
	struct capture *app = capture_new(false);
	struct capture *sdk = capture_new(true);
	char want[CAP_LINE_LEN];
	int line;

	if (app == NULL || sdk == NULL)
		return;
	CHECK(sdk_log_source > 0);
	DOCA_LOG_ERR("r-app");
	line = __LINE__ + 1;
	SDK_LOG_ERR("r-sdk %d", 1);
	CHECK(capture_count(app, NULL, "r-app") == 1 && capture_count(app, NULL, "r-sdk") == 0);
	CHECK(capture_count(sdk, NULL, "r-sdk") == 1 && capture_count(sdk, NULL, "r-app") == 0);
	/* SDK lines have no [func] part */
	snprintf(want, sizeof(want), "[%d][DOCA][ERR][test_log.c:%d] r-sdk 1\n", (int)gettid(), line);
	CHECK(sdk->n == 1 && has_timestamp(sdk->lines[0]) && strcmp(sdk->lines[0] + 17, want) == 0);

	/* SDK level: default INFO; per backend; global */
	SDK_LOG_DBG("r1");
	SDK_LOG_INFO("r1");
	CHECK(capture_count(sdk, NULL, "r1") == 1);
	CHECK_OK(doca_log_backend_set_sdk_level(sdk->be, DOCA_LOG_LEVEL_DEBUG));
	SDK_LOG_DBG("r2");
	CHECK(capture_count(sdk, "[DBG]", "r2") == 1);
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_ERROR));
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_ERROR);
	SDK_LOG_WARN("r3");
	SDK_LOG_CRIT("r3");
	CHECK(capture_count(sdk, NULL, "r3") == 1);
	/* the application limits do not touch SDK backends, and the reverse */
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_TRACE));
	SDK_LOG_WARN("r4");
	DOCA_LOG_DBG("r4");
	CHECK(capture_count(sdk, NULL, "r4") == 0 && capture_count(app, "[DBG]", "r4") == 1);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	CHECK_OK(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_INFO));

	/* DOCA_LOG_TRC is compiled out without DOCA_LOGGING_ALLOW_TRACE: no argument is evaluated */
	DOCA_LOG_TRC("r5 %d", trace_arg());
	CHECK(trace_side_effects == 0);
	capture_silence(app);
	capture_silence(sdk);
}

static void test_sdk_prefix(void)
{
	struct capture *app = capture_new(false);
	struct capture *sdk = capture_new(true);
	int s_sdk = 0, s_mid = 0, s_empty = 0;

	if (app == NULL || sdk == NULL)
		return;
	CHECK_OK(doca_log_register_source(SOFTDOCA_SDK_SOURCE_PREFIX "LIB::X", &s_sdk));
	CHECK_OK(doca_log_register_source("APP" SOFTDOCA_SDK_SOURCE_PREFIX "X", &s_mid));
	CHECK_OK(doca_log_register_source("", &s_empty));
	CHECK(s_sdk != s_mid && s_mid != s_empty && s_sdk != s_empty);
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_ERROR, s_sdk, "f.c", 1, "fn", "p-sdk"));
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_ERROR, s_mid, "f.c", 1, "fn", "p-mid"));
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_ERROR, s_empty, "f.c", 1, "fn", "p-empty"));
	CHECK(capture_count(sdk, NULL, "p-sdk") == 1 && capture_count(app, NULL, "p-sdk") == 0);
	CHECK(capture_count(app, "[f.c:1][fn] ", "p-mid") == 1 && capture_count(sdk, NULL, "p-mid") == 0);
	CHECK(capture_count(app, NULL, "p-empty") == 1 && capture_count(sdk, NULL, "p-empty") == 0);
	CHECK(capture_count(sdk, "[f.c:1] p-sdk", NULL) == 1);

	/* unregistered ids are refused; ids are reused afterwards */
	CHECK_OK(doca_log_unregister_source(s_mid));
	CHECK_ERR(doca_log_unregister_source(s_mid), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, s_mid, "f.c", 1, "fn", "gone"), DOCA_ERROR_INVALID_VALUE);
	CHECK(capture_count(app, NULL, "gone") == 0);
	CHECK_OK(doca_log_unregister_source(s_sdk));
	CHECK_OK(doca_log_unregister_source(s_empty));
	capture_silence(app);
	capture_silence(sdk);
}

static void test_rate_limit(void)
{
	struct capture *c = capture_new(false);
	time_t t0, t1;
	int i, limit;

	if (c == NULL)
		return;
	CHECK_OK(doca_log_backend_set_level_lower_limit(c->be, DOCA_LOG_LEVEL_DEBUG));
	t0 = time(NULL);
	for (i = 0; i < 20000; i++)
		DOCA_LOG_RATE_LIMIT_ERR("rl-a %d", i);
	for (i = 0; i < 20000; i++)
		DOCA_LOG_RATE_LIMIT_ERR("rl-b %d", i);
	t1 = time(NULL);
	limit = DOCA_LOG_RATE_LIMIT_BURST * (int)(t1 - t0 + 1);
	/* each call site gets its own budget: at least one burst, at most one burst per second */
	CHECK(capture_count(c, NULL, "rl-a") >= DOCA_LOG_RATE_LIMIT_BURST);
	CHECK(capture_count(c, NULL, "rl-a") <= limit);
	CHECK(capture_count(c, NULL, "rl-b") >= DOCA_LOG_RATE_LIMIT_BURST);
	CHECK(capture_count(c, NULL, "rl-b") <= limit);
	CHECK(capture_count(c, NULL, "rl-a 0\n") == 1);

	c->n = 0;
	DOCA_LOG_RATE_LIMIT_CRIT("rl-all");
	DOCA_LOG_RATE_LIMIT_ERR("rl-all");
	DOCA_LOG_RATE_LIMIT_WARN("rl-all");
	DOCA_LOG_RATE_LIMIT_INFO("rl-all");
	DOCA_LOG_RATE_LIMIT_DBG("rl-all");
	CHECK(c->n == 5);
	CHECK(capture_count(c, "[CRT]", NULL) == 1 && capture_count(c, "[DBG]", NULL) == 1);
	capture_silence(c);
}

/* A flush callback that logs again is not re-entered (and does not deadlock). */
static void reentry_flush(char *buf)
{
	capture_flush(buf);
	DOCA_LOG_ERR("from inside the flush callback");
}

static void test_reentry(void)
{
	struct capture *c;

	if (capture_used == (int)(sizeof(capture_pool) / sizeof(capture_pool[0])))
		return;
	c = &capture_pool[capture_used++];
	CHECK_OK(doca_log_backend_create_with_buf(c->buf, sizeof(c->buf), reentry_flush, &c->be));
	DOCA_LOG_ERR("outer");
	CHECK(c->n == 1 && capture_count(c, NULL, "outer") == 1);
	capture_silence(c);
}

#define THREADS 4
#define PER_THREAD 300

static void *log_thread(void *arg)
{
	int i;

	for (i = 0; i < PER_THREAD; i++)
		DOCA_LOG_INFO("thread %ld line %d", (long)(intptr_t)arg, i);
	return NULL;
}

static void test_threads(void)
{
	struct doca_log_backend *be;
	pthread_t th[THREADS];
	char path[] = "/tmp/softdoca-log-XXXXXX";
	char line[512];
	int fd = mkstemp(path);
	int i, lines = 0, good = 0;
	FILE *f;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	CHECK_OK(doca_log_backend_create_with_fd(fd, &be));
	for (i = 0; i < THREADS; i++)
		CHECK(pthread_create(&th[i], NULL, log_thread, (void *)(intptr_t)i) == 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	silence(be);

	f = fdopen(fd, "r");
	CHECK(f != NULL);
	if (f == NULL)
		return;
	rewind(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		lines++;
		if (has_timestamp(line) && strstr(line, "][log_thread] thread ") && line[strlen(line) - 1] == '\n')
			good++;
	}
	fclose(f);
	CHECK(lines == THREADS * PER_THREAD);
	CHECK(good == THREADS * PER_THREAD);
}

static void flush_nop(char *buf)
{
	(void)buf;
}

/*
 * fork() while another thread is inside backend output (holding the log lock): the child must
 * still be able to log. The flush callback blocks until the forking thread has been started.
 */
static sem_t fork_inside, fork_go;
static char fork_buf[256];
static int fork_child_status = -1;

static void fork_flush(char *buf)
{
	if (strstr(buf, "hold the lock") == NULL)
		return;
	sem_post(&fork_inside);
	sem_wait(&fork_go);
}

static void *fork_holder(void *arg)
{
	DOCA_LOG_ERR("hold the lock");
	return arg;
}

static void *fork_forker(void *arg)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		static char buf[128];
		struct doca_log_backend *be;

		if (doca_log_backend_create_with_buf(buf, sizeof(buf), flush_nop, &be) != DOCA_SUCCESS)
			_exit(2);
		_exit(doca_log(DOCA_LOG_LEVEL_ERROR, log_source, __FILE__, __LINE__, __func__, "child") ==
				      DOCA_SUCCESS ?
			      0 :
			      3);
	}
	if (pid > 0)
		waitpid(pid, &fork_child_status, 0);
	return arg;
}

static void test_fork_while_logging(void)
{
	struct doca_log_backend *be;
	pthread_t holder, forker;

	CHECK(sem_init(&fork_inside, 0, 0) == 0 && sem_init(&fork_go, 0, 0) == 0);
	CHECK_OK(doca_log_backend_create_with_buf(fork_buf, sizeof(fork_buf), fork_flush, &be));
	CHECK(pthread_create(&holder, NULL, fork_holder, NULL) == 0);
	sem_wait(&fork_inside);
	CHECK(pthread_create(&forker, NULL, fork_forker, NULL) == 0);
	sem_post(&fork_go);
	pthread_join(holder, NULL);
	pthread_join(forker, NULL);
	CHECK(WIFEXITED(fork_child_status) && WEXITSTATUS(fork_child_status) == 0);
	silence(be);
	sem_destroy(&fork_inside);
	sem_destroy(&fork_go);
}

static void test_bad_input(void)
{
	struct doca_log_backend *be = NULL, *sdk_be = NULL;
	struct doca_log_backend *bogus = (struct doca_log_backend *)&be;
	char buf[64];
	int id = 0;
	int p[2];

	/* sources */
	CHECK_ERR(doca_log_register_source(NULL, &id), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_register_source("X", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_unregister_source(0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_unregister_source(-1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_unregister_source(1 << 30), DOCA_ERROR_INVALID_VALUE);

	/* doca_log */
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, 0, __FILE__, __LINE__, __func__, "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, -5, __FILE__, __LINE__, __func__, "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, 1 << 30, __FILE__, __LINE__, __func__, "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_DISABLE, log_source, __FILE__, __LINE__, __func__, "x"),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(0, log_source, __FILE__, __LINE__, __func__, "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(45, log_source, __FILE__, __LINE__, __func__, "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(80, log_source, __FILE__, __LINE__, __func__, "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log(UINT32_MAX, log_source, __FILE__, __LINE__, __func__, "x"), DOCA_ERROR_INVALID_VALUE);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	CHECK_ERR(doca_log(DOCA_LOG_LEVEL_ERROR, log_source, __FILE__, __LINE__, __func__, NULL),
		  DOCA_ERROR_INVALID_VALUE);
#pragma GCC diagnostic pop

	/* global limits */
	CHECK_ERR(doca_log_level_set_global_lower_limit(0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_level_set_global_lower_limit(55), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_level_set_global_upper_limit(71), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_level_set_global_sdk_limit(UINT32_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_log_level_get_global_lower_limit() == DOCA_LOG_LEVEL_INFO);
	CHECK(doca_log_level_get_global_upper_limit() == DOCA_LOG_LEVEL_CRIT);
	CHECK(doca_log_level_get_global_sdk_limit() == DOCA_LOG_LEVEL_INFO);

	/* creation */
	CHECK_ERR(doca_log_backend_create_with_file(NULL, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_file(stderr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_file_sdk(NULL, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_fd(-1, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_fd_sdk(-1, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK(pipe(p) == 0);
	close(p[0]);
	close(p[1]);
	CHECK_ERR(doca_log_backend_create_with_fd(p[0], &be), DOCA_ERROR_INVALID_VALUE); /* closed fd */
	CHECK_ERR(doca_log_backend_create_with_fd(STDERR_FILENO, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf(NULL, sizeof(buf), flush_nop, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf(buf, 0, flush_nop, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf(buf, sizeof(buf), NULL, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf(buf, sizeof(buf), flush_nop, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf_sdk(buf, 0, flush_nop, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_syslog(NULL, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_syslog("x", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_syslog_sdk(NULL, &be), DOCA_ERROR_INVALID_VALUE);
	CHECK(be == NULL);

	/* setters: NULL, foreign pointers, bad levels, wrong backend class */
	CHECK_ERR(doca_log_backend_set_level_lower_limit(NULL, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit(NULL, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit_strict(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit_strict(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(NULL, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(bogus, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(bogus, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit_strict(bogus), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_log_backend_create_with_buf(buf, sizeof(buf), flush_nop, &be));
	CHECK_OK(doca_log_backend_create_with_buf_sdk(buf, sizeof(buf), flush_nop, &sdk_be));
	CHECK_ERR(doca_log_backend_set_level_lower_limit(be, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(be, 65), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_upper_limit(be, 100), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(sdk_be, 5), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(sdk_be, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_log_backend_set_level_upper_limit(sdk_be, DOCA_LOG_LEVEL_INFO), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_log_backend_set_level_lower_limit_strict(sdk_be), DOCA_ERROR_NOT_PERMITTED);
	silence(be);
	silence(sdk_be);
}

static void test_syslog(void)
{
	struct doca_log_backend *app = NULL, *sdk = NULL;

	CHECK_OK(doca_log_backend_create_with_syslog("softdoca-test-log", &app));
	CHECK_OK(doca_log_backend_create_with_syslog_sdk("softdoca-test-log-sdk", &sdk));
	CHECK(app != NULL && sdk != NULL && app != sdk);
	/* keep the system log quiet: one ERROR line, from this test */
	CHECK_OK(doca_log_backend_set_level_lower_limit(app, DOCA_LOG_LEVEL_ERROR));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_ERROR));
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_ERROR, log_source, __FILE__, __LINE__, __func__, "softdoca unit test"));
	silence(app);
	silence(sdk);
}

/* In a child: backends are a bounded resource; running out is NO_MEMORY, not a crash. */
static void test_backend_limit(void)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		static char buf[64];
		struct doca_log_backend *be;
		doca_error_t ret = DOCA_SUCCESS;
		int i;

		for (i = 0; i < 1000 && ret == DOCA_SUCCESS; i++)
			ret = doca_log_backend_create_with_buf(buf, sizeof(buf), flush_nop, &be);
		if (ret != DOCA_ERROR_NO_MEMORY)
			_exit(2);
		ret = DOCA_SUCCESS;
		for (i = 0; i < 1000 && ret == DOCA_SUCCESS; i++)
			ret = doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &be);
		if (ret != DOCA_ERROR_NO_MEMORY)
			_exit(3);
		_exit(doca_log_backend_create_standard() == DOCA_ERROR_NO_MEMORY ? 0 : 4);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	TEST_RUN(test_standard_split); /* first: needs a process without backends */
	TEST_RUN(test_defaults);
	TEST_RUN(test_buf_format);
	TEST_RUN(test_fd_and_file_format);
	TEST_RUN(test_level_windows);
	TEST_RUN(test_strict);
	TEST_RUN(test_sdk_routing);
	TEST_RUN(test_sdk_prefix);
	TEST_RUN(test_rate_limit);
	TEST_RUN(test_reentry);
	TEST_RUN(test_threads);
	TEST_RUN(test_fork_while_logging);
	TEST_RUN(test_bad_input);
	TEST_RUN(test_syslog);
	TEST_RUN(test_backend_limit);
	TEST_EXIT();
}
