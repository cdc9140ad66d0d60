/* SPDX-License-Identifier: BSD-3-Clause */
/* argp flags that end the process (-h, -v) and what a program's user sees on bad input; each
 * case runs in a forked child whose exit status and output are checked. */
#include "argp_test.h"

static doca_error_t ok_cb(void *value, void *config)
{
	return DOCA_SUCCESS;
}

static doca_error_t version_cb(void *value, void *config)
{
	printf("custom version\n");
	doca_argp_destroy();
	exit(7);
}

struct scenario {
	const char *name; /* given to doca_argp_init, or NULL */
	int argc;
	char **argv;
	bool with_cmds;
	bool version_cb;
	bool dpdk;
	bool narrow; /* without -ld, whose line is wider than DOCA's column 36 */
};

static doca_error_t dpdk_cb(int argc, char **argv)
{
	return DOCA_SUCCESS;
}

/* The sample-like program: returns 0 when start succeeds, 1 when it fails (as samples do). */
static int program(void *arg)
{
	const struct scenario *s = arg;
	doca_error_t err;

	if (doca_argp_init(s->name, NULL) != DOCA_SUCCESS)
		return 90;
	add_param(NULL, "d", "device", "<IB device name>", "IB device name", DOCA_ARGP_TYPE_STRING, ok_cb, 0);
	if (!s->narrow)
		add_param(NULL, "ld", "local-descriptor-path", "<path>", "Local descriptor file path",
			  DOCA_ARGP_TYPE_STRING, ok_cb, 0);
	add_param(NULL, NULL, "async", NULL, "Run asynchronously\nsecond line", DOCA_ARGP_TYPE_BOOLEAN, ok_cb, 0);
	add_param(NULL, "t", "text", "<text>", "Mandatory text", DOCA_ARGP_TYPE_STRING, ok_cb, P_MANDATORY);
	add_param(NULL, "s", "secret", "<x>", "Hidden flag", DOCA_ARGP_TYPE_STRING, ok_cb, P_HIDDEN);
	if (s->with_cmds) {
		struct doca_argp_cmd *run, *hidden;

		doca_argp_cmd_create(&run);
		doca_argp_cmd_set_name(run, "run");
		doca_argp_cmd_set_description(run, "Run the workload");
		add_param(run, "n", "num", "<n>", "Iterations", DOCA_ARGP_TYPE_INT, ok_cb, 0);
		doca_argp_register_cmd(run);
		doca_argp_cmd_create(&hidden);
		doca_argp_cmd_set_name(hidden, "debug");
		doca_argp_cmd_set_description(hidden, "Hidden command");
		doca_argp_cmd_set_hidden(hidden);
		doca_argp_register_cmd(hidden);
	}
	if (s->version_cb)
		doca_argp_register_version_callback(version_cb);
	if (s->dpdk)
		doca_argp_set_dpdk_program(dpdk_cb);
	err = doca_argp_start(s->argc, s->argv);
	doca_argp_destroy();
	return err == DOCA_SUCCESS ? 0 : 1;
}

#define SCENARIO(nm, ...) ((struct scenario){.name = (nm), .argc = ARGC(__VA_ARGS__), .argv = ARGV(__VA_ARGS__)})

/* The line of text that starts with prefix, or NULL. */
static const char *line_of(const char *text, const char *prefix)
{
	const char *p = text;

	while (p != NULL && *p) {
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* Description column of a usage line: the offset where the description text begins (after a
 * blank, so "<IB device name>" in the flag part does not count). */
static int desc_column(const char *line, const char *desc)
{
	const char *nl = strchr(line, '\n');
	char blank_desc[128];
	const char *d;

	snprintf(blank_desc, sizeof(blank_desc), " %s", desc);
	d = strstr(line, blank_desc);
	return d && (!nl || d < nl) ? (int)(d - line) + 1 : -1;
}

static void test_help(void)
{
	struct scenario s = SCENARIO("doca_sample", "prog", "-d", "x", "-h");
	struct child_run res;
	const char *l;

	s.narrow = true;
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strncmp(res.out, "Usage: doca_sample [DOCA Flags] [Program Flags]\n", 48) == 0);
	CHECK(strstr(res.out, "\nDOCA Flags:\n") != NULL);
	CHECK(strstr(res.out, "\nProgram Flags:\n") != NULL);
	CHECK(line_of(res.out, "  -h, --help ") != NULL);
	CHECK(line_of(res.out, "  -v, --version ") != NULL);
	CHECK(line_of(res.out, "  -l, --log-level ") != NULL);
	CHECK(line_of(res.out, "  --sdk-log-level ") != NULL);
	CHECK(line_of(res.out, "  -j, --json <path> ") != NULL);
	/* Every description in the same column (36, as DOCA's usage). */
	l = line_of(res.out, "  -h, --help");
	CHECK(l && desc_column(l, "Print a help synopsis") == 36);
	l = line_of(res.out, "  -j, --json <path>");
	CHECK(l && desc_column(l, "Parse all command flags from an input json file") == 36);
	l = line_of(res.out, "  -d, --device <IB device name>");
	CHECK(l && desc_column(l, "IB device name") == 36);
	l = line_of(res.out, "  --async");
	CHECK(l && desc_column(l, "Run asynchronously") == 36);
	/* A multi-line description continues in the same column. */
	CHECK(strstr(res.out, "Run asynchronously\n                                    second line\n") != NULL);
	CHECK(strstr(res.out, "secret") == NULL); /* hidden */
	CHECK(strstr(res.out, "Commands:") == NULL);
	CHECK(res.err[0] == '\0');
	if (!exited_with(&res, 0))
		fprintf(stderr, "status %d, stdout:\n%s\nstderr:\n%s\n", res.status, res.out, res.err);

	/* --help, and no mandatory check before it. */
	s = SCENARIO(NULL, "/opt/bin/doca_rdma_thing", "--help");
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strncmp(res.out, "Usage: doca_rdma_thing [DOCA Flags] [Program Flags]\n", 52) == 0);
}

static void test_help_layout_width(void)
{
	/* The column is 36 unless a flag is wider: "  -ld, --local-descriptor-path <path>" is 37
	 * characters, so every description moves to 39. */
	struct scenario s = SCENARIO("p", "p", "-h");
	struct child_run res;
	const char *l;

	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	l = line_of(res.out, "  -h, --help");
	CHECK(l && desc_column(l, "Print a help synopsis") == 39);
	l = line_of(res.out, "  -ld, --local-descriptor-path <path>");
	CHECK(l && desc_column(l, "Local descriptor file path") == 39);
	l = line_of(res.out, "  -d, --device <IB device name>");
	CHECK(l && desc_column(l, "IB device name") == 39);
}

static void test_help_commands(void)
{
	struct scenario s = SCENARIO("prog", "prog", "-h");
	struct child_run res;

	s.with_cmds = true;
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strstr(res.out, "Usage: prog [DOCA Flags] [Program Flags] <command> [Command Flags]\n") != NULL);
	CHECK(strstr(res.out, "\nCommands:\n  run ") != NULL);
	CHECK(strstr(res.out, "Run the workload") != NULL);
	CHECK(strstr(res.out, "debug") == NULL);

	s = SCENARIO("prog", "prog", "run", "-h");
	s.with_cmds = true;
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strncmp(res.out, "Usage: prog run [DOCA Flags] [Command Flags]\n", 45) == 0);
	CHECK(strstr(res.out, "\nCommand Flags:\n  -n, --num <n>") != NULL);
	CHECK(strstr(res.out, "--device") == NULL); /* not inherited */

	/* A hidden command is still accepted. */
	s = SCENARIO("prog", "prog", "-t", "x", "debug");
	s.with_cmds = true;
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
}

static void test_version(void)
{
	struct scenario s = SCENARIO("prog", "prog", "-v");
	struct child_run res;

	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strstr(res.out, DOCA_VERSION_STRING) != NULL);

	s = SCENARIO("prog", "prog", "--version");
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strstr(res.out, DOCA_VERSION_STRING) != NULL);

	/* A registered callback replaces it (this one exits 7). */
	s = SCENARIO("prog", "prog", "-v");
	s.version_cb = true;
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 7));
	CHECK(strcmp(res.out, "custom version\n") == 0);
}

static void test_error_output(void)
{
	struct scenario s = SCENARIO("prog", "prog", "-t", "x", "--bogus");
	struct child_run res;

	/* Message and usage on stderr, nothing on stdout, failure exit. */
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 1));
	CHECK(res.out[0] == '\0');
	CHECK(strncmp(res.err, "prog: unknown flag \"--bogus\"", 28) == 0);
	CHECK(strstr(res.err, "\nUsage: prog [DOCA Flags] [Program Flags]\n") != NULL);

	s = SCENARIO("prog", "prog", "-d", "x");
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 1));
	CHECK(strstr(res.err, "prog: missing mandatory flag: -t/--text <text>\n") != NULL);

	s = SCENARIO("prog", "prog", "-t", "x", "-l", "abc");
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 1));
	CHECK(strstr(res.err, "prog: flag -l/--log-level expects an integer, got \"abc\"\n") != NULL);

	s = SCENARIO("prog", "prog", "-t", "x", "-j", "/nonexistent.json");
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 1));
	CHECK(strstr(res.err, "/nonexistent.json") != NULL);

	s = SCENARIO("prog", "prog", "-t");
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 1));
	CHECK(strstr(res.err, "needs a value") != NULL);

	s = SCENARIO("prog", "prog", "-t", "x");
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(res.err[0] == '\0' && res.out[0] == '\0');
}

static void test_dpdk_usage(void)
{
	/* For a DPDK program, -h alone still prints the usage with the DPDK part. */
	struct scenario s = SCENARIO("prog", "prog", "-h");
	struct child_run res;

	s.dpdk = true;
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strncmp(res.out, "Usage: prog [DPDK Flags] -- [DOCA Flags] [Program Flags]\n", 57) == 0);

	s = SCENARIO("prog", "prog", "-a", "x", "--", "-h");
	s.dpdk = true;
	run_child(program, &s, &res);
	CHECK(exited_with(&res, 0));
	CHECK(strstr(res.out, "DOCA Flags:") != NULL);
}

int main(void)
{
	TEST_RUN(test_help);
	TEST_RUN(test_help_layout_width);
	TEST_RUN(test_help_commands);
	TEST_RUN(test_version);
	TEST_RUN(test_error_output);
	TEST_RUN(test_dpdk_usage);
	TEST_EXIT();
}
