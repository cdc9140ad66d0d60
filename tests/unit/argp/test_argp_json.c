/* SPDX-License-Identifier: BSD-3-Clause */
/* argp -j/--json: flat and DOCA-sectioned files, arrays for multi-value flags, commands, and
 * every unreadable or malformed file. */
#include <sys/stat.h>

#include "argp_test.h"

struct cfg {
	char dev[64];
	int num;
	int flag_hits;
	char multi[8][32];
	int n_multi;
	const struct softdoca_argp_json *obj;
	char order[128];
};

static struct cfg cfg;

static void note(const char *what)
{
	strncat(cfg.order, what, sizeof(cfg.order) - strlen(cfg.order) - 1);
}

static doca_error_t dev_cb(void *value, void *config)
{
	note("d");
	snprintf(((struct cfg *)config)->dev, sizeof(cfg.dev), "%s", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t num_cb(void *value, void *config)
{
	note("n");
	((struct cfg *)config)->num = *(int *)value;
	return DOCA_SUCCESS;
}

static doca_error_t flag_cb(void *value, void *config)
{
	note("f");
	((struct cfg *)config)->flag_hits++;
	return DOCA_SUCCESS;
}

static doca_error_t multi_cb(void *value, void *config)
{
	struct cfg *c = config;

	note("m");
	if (c->n_multi < 8)
		snprintf(c->multi[c->n_multi++], sizeof(c->multi[0]), "%s", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t obj_cb(void *value, void *config)
{
	note("o");
	((struct cfg *)config)->obj = value;
	return DOCA_SUCCESS;
}

static doca_error_t cmd_cb(void *config)
{
	note("C");
	return DOCA_SUCCESS;
}

static void setup(void)
{
	memset(&cfg, 0, sizeof(cfg));
	CHECK_OK(init_captured("prog", &cfg));
	CHECK_OK(add_param(NULL, "d", "device", "<dev>", "Device", DOCA_ARGP_TYPE_STRING, dev_cb, 0));
	CHECK_OK(add_param(NULL, "n", "num", "<n>", "Number", DOCA_ARGP_TYPE_INT, num_cb, 0));
	CHECK_OK(add_param(NULL, NULL, "async", NULL, "Async", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, 0));
	CHECK_OK(add_param(NULL, "m", "multi", "<w>", "Words", DOCA_ARGP_TYPE_STRING, multi_cb, P_MULTI));
	CHECK_OK(add_param(NULL, NULL, "obj", "<json>", "Object", DOCA_ARGP_TYPE_JSON_OBJ, obj_cb, 0));
	CHECK_OK(add_param(NULL, "c", "cli", NULL, "CLI only", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, P_CLI_ONLY));
}

static void test_flat_file(void)
{
	char *path = write_temp(0, "{\n"
					 "  // DOCA's example files carry comments\n"
					 "  \"device\": \"mlx5_0\",\n"
					 "  \"num\": 17,\n"
					 "  \"async\": true,\n"
					 "  \"multi\": [\"a\", \"b\\u00e9\"],\n"
					 "  \"obj\": {\"k\": [1, 2.5, null, false]}\n"
					 "}\n");

	setup();
	CHECK_OK(START("prog", "-j", path));
	CHECK(strcmp(cfg.dev, "mlx5_0") == 0);
	CHECK(cfg.num == 17);
	CHECK(cfg.flag_hits == 1);
	CHECK(cfg.n_multi == 2 && strcmp(cfg.multi[0], "a") == 0 && strcmp(cfg.multi[1], "b\xc3\xa9") == 0);
	CHECK(cfg.obj != NULL && cfg.obj->count == 1 && cfg.obj->items[0].count == 4 &&
	      cfg.obj->items[0].items[1].number == 2.5 &&
	      cfg.obj->items[0].items[2].type == SOFTDOCA_ARGP_JSON_NULL);
	CHECK(strcmp(cfg.order, "dnfmmo") == 0);
	CHECK(logged[0] == '\0');
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

static void test_sectioned_file(void)
{
	uint32_t saved = doca_log_level_get_global_lower_limit();
	char *path = write_temp(0, "{\n"
					 "  \"doca_general_flags\": {\"log-level\": 60, \"sdk-log-level\": 30},\n"
					 "  \"doca_program_flags\": {\"device\": \"d1\", \"async\": false, \"multi\": \"one\"}\n"
					 "}\n");
	int level = 0;

	setup();
	CHECK_OK(START("prog", "--json", path));
	CHECK(strcmp(cfg.dev, "d1") == 0);
	CHECK(cfg.flag_hits == 0); /* false: as if absent */
	CHECK(cfg.n_multi == 1 && strcmp(cfg.multi[0], "one") == 0);
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK(level == 60);
	CHECK(doca_log_level_get_global_lower_limit() == 60);
	CHECK_OK(doca_argp_get_sdk_log_level(&level));
	CHECK(level == 30);
	CHECK_OK(doca_argp_destroy());
	doca_log_level_set_global_lower_limit(saved);
	unlink(path);

	/* --json=<path> and command-line flags beside the file. */
	path = write_temp(0, "{\"device\": \"d2\"}");
	setup();
	{
		char arg[128];

		snprintf(arg, sizeof(arg), "--json=%s", path);
		CHECK_OK(START("prog", arg, "-n", "5"));
	}
	CHECK(strcmp(cfg.dev, "d2") == 0 && cfg.num == 5);
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

static void test_file_commands(void)
{
	char *path = write_temp(0, "{\"device\": \"x\", \"run\": {\"num\": 9}}");
	struct doca_argp_cmd *run;

	setup();
	CHECK_OK(doca_argp_cmd_create(&run));
	doca_argp_cmd_set_name(run, "run");
	doca_argp_cmd_set_description(run, "Run");
	doca_argp_cmd_set_callback(run, cmd_cb);
	CHECK_OK(add_param(run, NULL, "num", "<n>", "Number", DOCA_ARGP_TYPE_INT, num_cb, P_MANDATORY));
	CHECK_OK(doca_argp_register_cmd(run));
	CHECK_OK(START("prog", "-j", path));
	CHECK(strcmp(cfg.order, "dCn") == 0);
	CHECK(cfg.num == 9);
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

/* Each bad file: the expected error and a fragment of the message. */
static void expect_file_error(const char *text, doca_error_t want, const char *fragment)
{
	char *path = write_temp(1, text);
	char expect[256];

	setup();
	CHECK_ERR(START("prog", "-j", path), want);
	snprintf(expect, sizeof(expect), fragment, path);
	CHECK(strstr(logged, expect) != NULL);
	if (strstr(logged, expect) == NULL)
		fprintf(stderr, "  wanted \"%s\" in:\n%s", expect, logged);
	CHECK(strstr(logged, "Usage: prog") != NULL);
	CHECK(cfg.order[0] == '\0'); /* no callback ran */
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

static void test_bad_files(void)
{
	setup();
	CHECK_ERR(START("prog", "-j", "/nonexistent/argp.json"), DOCA_ERROR_IO_FAILED);
	CHECK(strstr(logged, "cannot read JSON file \"/nonexistent/argp.json\"") != NULL);
	CHECK(strstr(logged, "No such file or directory") != NULL);
	CHECK_OK(doca_argp_destroy());

	setup();
	CHECK_ERR(START("prog", "-j", "/tmp"), DOCA_ERROR_IO_FAILED);
	CHECK_OK(doca_argp_destroy());

	setup();
	CHECK_ERR(START("prog", "-j"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "-j/--json needs a value") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* Syntax errors name the file and the line. */
	expect_file_error("{\n  \"device\": \"x\"\n  \"num\": 3\n}\n", DOCA_ERROR_INVALID_VALUE,
			  "%s:3: JSON syntax error: expected ',' or '}'");
	expect_file_error("{\n  \"device\": \"x\",\n}\n", DOCA_ERROR_INVALID_VALUE, "%s:3: JSON syntax error: trailing ','");
	expect_file_error("", DOCA_ERROR_INVALID_VALUE, "%s:1: JSON syntax error: empty input");
	expect_file_error("{\"device\": \"unterminated}\n", DOCA_ERROR_INVALID_VALUE, "%s:1: JSON syntax error: unterminated string");
	expect_file_error("{} {}", DOCA_ERROR_INVALID_VALUE, "%s:1: JSON syntax error: unexpected '{'");
	expect_file_error("[1]", DOCA_ERROR_INVALID_VALUE, "%s:1: the file must hold one object");

	/* Well-formed but wrong. */
	expect_file_error("{\n\"nope\": 1}", DOCA_ERROR_NOT_SUPPORTED, "%s:2: unknown flag \"nope\"");
	expect_file_error("{\"num\": \"5\"}", DOCA_ERROR_INVALID_VALUE, "%s:1: flag -n/--num expects an integer, got a string");
	expect_file_error("{\"num\": 1.5}", DOCA_ERROR_INVALID_VALUE, "expects an integer, got a number (1.5)");
	expect_file_error("{\"device\": 3}", DOCA_ERROR_INVALID_VALUE, "flag -d/--device expects a string");
	expect_file_error("{\"async\": \"yes\"}", DOCA_ERROR_INVALID_VALUE, "--async expects true or false");
	expect_file_error("{\"obj\": [1]}", DOCA_ERROR_INVALID_VALUE, "--obj takes a single value, not an array");
	expect_file_error("{\"device\": [\"a\", \"b\"]}", DOCA_ERROR_INVALID_VALUE, "takes a single value, not an array");
	expect_file_error("{\"multi\": [\"a\", 2]}", DOCA_ERROR_INVALID_VALUE, "--multi expects a string");
	expect_file_error("{\"cli\": true}", DOCA_ERROR_NOT_SUPPORTED, "-c/--cli is accepted on the command line only");
	expect_file_error("{\"json\": \"x\"}", DOCA_ERROR_NOT_SUPPORTED, "-j/--json is accepted on the command line only");
	expect_file_error("{\"log-level\": 15}", DOCA_ERROR_INVALID_VALUE, "15 is not a log level");
	expect_file_error("{\"device\": \"a\", \"device\": \"b\"}", DOCA_ERROR_INVALID_VALUE, "given more than once");
	expect_file_error("{\"doca_dpdk_flags\": {\"x\": 1}, \"bogus\": 1}", DOCA_ERROR_NOT_SUPPORTED,
			  "unknown flag \"bogus\"");
}

/* A child writes text into fd, in two parts with a pause (no sync needed: the reader waits), and exits. */
static pid_t pipe_writer(int fd, const char *text, size_t len)
{
	pid_t pid = fork();

	if (pid == 0) {
		size_t half = len / 2;

		if (write(fd, text, half) != (ssize_t)half)
			_exit(1);
		usleep(50000); /* the reader sees a pause before the rest */
		_exit(write(fd, text + half, len - half) == (ssize_t)(len - half) ? 0 : 1);
	}
	close(fd);
	return pid;
}

/*
 * A pipe (`-j <(jq ...)`: /dev/fd/N) or a FIFO is read to its end, as DOCA's argp reads it. One
 * nobody writes to ends with a line after SOFTDOCA_PIPE_WAIT_MS, not in a hang (the alarm
 * bounds a blocking open or read), and one that sends more than the limit is refused.
 */
static void test_pipes(void)
{
	static const char json[] = "{\"device\": \"piped\", \"num\": 5}";
	char dir[] = "/tmp/argp_fifo_XXXXXX";
	char path[64], expect[200];
	int fds[2], st = -1;
	pid_t w;

	CHECK(pipe(fds) == 0);
	w = pipe_writer(fds[1], json, strlen(json));
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	setup();
	alarm(10);
	CHECK_OK(START("prog", "-j", path));
	alarm(0);
	CHECK(strcmp(cfg.dev, "piped") == 0 && cfg.num == 5);
	CHECK_OK(doca_argp_destroy());
	close(fds[0]);
	CHECK(waitpid(w, &st, 0) == w && WIFEXITED(st) && WEXITSTATUS(st) == 0);

	/* more than 1 MiB through a pipe: refused once the limit is passed */
	{
		size_t big = (1u << 20) + 4096;
		char *text = malloc(big);

		CHECK(text != NULL && pipe(fds) == 0);
		if (text != NULL) {
			memset(text, ' ', big);
			text[0] = '[';
			w = fork();
			if (w == 0) {
				close(fds[0]);
				_exit(write(fds[1], text, big) == (ssize_t)big ? 0 : 1); /* EPIPE once the reader left */
			}
			close(fds[1]);
			snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
			setup();
			alarm(10);
			CHECK_ERR(START("prog", "-j", path), DOCA_ERROR_IO_FAILED);
			alarm(0);
			CHECK(strstr(logged, "the pipe sent more than the limit of 1048576 bytes") != NULL);
			CHECK_OK(doca_argp_destroy());
			close(fds[0]);
			CHECK(waitpid(w, &st, 0) == w);
			free(text);
		}
	}

	/* a FIFO nobody opens for writing */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/fifo.json", dir);
	CHECK(mkfifo(path, 0600) == 0);
	setenv("SOFTDOCA_PIPE_WAIT_MS", "200", 1);
	setup();
	alarm(10);
	CHECK_ERR(START("prog", "-j", path), DOCA_ERROR_IO_FAILED);
	alarm(0);
	unsetenv("SOFTDOCA_PIPE_WAIT_MS");
	snprintf(expect, sizeof(expect),
		 "cannot read JSON file \"%s\" (-j/--json): it is a pipe, and nothing more came from it for 200 ms", path);
	CHECK(strstr(logged, expect) != NULL);
	CHECK(cfg.order[0] == '\0');
	CHECK_OK(doca_argp_destroy());
	unlink(path);
	rmdir(dir);

	/* A directory says so too. */
	setup();
	CHECK_ERR(START("prog", "-j", "/tmp"), DOCA_ERROR_IO_FAILED);
	CHECK(strstr(logged, "\"/tmp\" (-j/--json): it is a directory; give a regular file or a pipe") != NULL);
	CHECK_OK(doca_argp_destroy());
}

/* A file over 1 MiB (the device configuration's limit too) is refused before it is read: a
 * 64 MiB "[0,0,...]" cost gigabytes. */
static void test_file_size_limit(void)
{
	char path[] = "/tmp/argp_big_XXXXXX", expect[160];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(ftruncate(fd, (1 << 20) + 1) == 0);
	close(fd);
	setup();
	CHECK_ERR(START("prog", "-j", path), DOCA_ERROR_IO_FAILED);
	snprintf(expect, sizeof(expect),
		 "cannot read JSON file \"%s\" (-j/--json): it is 1048577 bytes, more than the limit of 1048576 bytes",
		 path);
	CHECK(strstr(logged, expect) != NULL);
	if (strstr(logged, expect) == NULL)
		fprintf(stderr, "  wanted \"%s\" in:\n%s", expect, logged);
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

static void test_json_and_cli_repeat(void)
{
	char *path = write_temp(0, "{\"device\": \"x\"}");

	/* A single-value flag from the file and again on the command line is refused. */
	setup();
	CHECK_ERR(START("prog", "-j", path, "-d", "y"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
	/* -j twice too. */
	setup();
	CHECK_ERR(START("prog", "-j", path, "-j", path), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

static char dpdk_args[256];

static doca_error_t dpdk_cb(int argc, char **argv)
{
	int i;

	dpdk_args[0] = '\0';
	for (i = 0; i < argc; i++) {
		strncat(dpdk_args, argv[i], sizeof(dpdk_args) - strlen(dpdk_args) - 2);
		strcat(dpdk_args, " ");
	}
	return DOCA_SUCCESS;
}

static void test_dpdk_section(void)
{
	char *path = write_temp(0, "{\"doca_dpdk_flags\": {\"devices\": [{\"device\": \"pf\", \"id\": \"03:00.0\"}],"
					 " \"core-list\": \"0-3\", \"flags\": \" --no-pci  -n 4\"},"
					 " \"doca_program_flags\": {\"device\": \"x\"}}");

	setup();
	doca_argp_set_dpdk_program(dpdk_cb);
	CHECK_OK(START("prog", "-j", path));
	CHECK(strcmp(dpdk_args, "prog -a 03:00.0 -l 0-3 --no-pci -n 4 ") == 0);
	CHECK(strcmp(cfg.dev, "x") == 0);
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

int main(void)
{
	TEST_RUN(test_flat_file);
	TEST_RUN(test_sectioned_file);
	TEST_RUN(test_file_commands);
	TEST_RUN(test_bad_files);
	TEST_RUN(test_pipes);
	TEST_RUN(test_file_size_limit);
	TEST_RUN(test_json_and_cli_repeat);
	TEST_RUN(test_dpdk_section);
	TEST_EXIT();
}
