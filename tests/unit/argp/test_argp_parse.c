/* SPDX-License-Identifier: BSD-3-Clause */
/* argp command-line parsing: types, whole short names, long forms, mandatory, multiplicity,
 * singular, callbacks, commands, DOCA log flags, DPDK split and every bad input. */
#include "argp_test.h"

struct cfg {
	char dev[64];
	char ld[64];
	int num;
	unsigned int unum;
	int flag_hits;
	bool flag_value;
	char multi[8][32];
	int n_multi;
	const struct softdoca_argp_json *obj;
	char order[256]; /* callbacks in call order, e.g. "d,n,run," */
	bool bad_config;
};

static struct cfg cfg;

static void note(struct cfg *c, const char *what, void *config)
{
	if (config != &cfg)
		c->bad_config = true;
	strncat(c->order, what, sizeof(c->order) - strlen(c->order) - 1);
	strncat(c->order, ",", sizeof(c->order) - strlen(c->order) - 1);
}

static doca_error_t dev_cb(void *value, void *config)
{
	struct cfg *c = config;

	note(c, "d", config);
	snprintf(c->dev, sizeof(c->dev), "%s", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t ld_cb(void *value, void *config)
{
	struct cfg *c = config;

	note(c, "ld", config);
	snprintf(c->ld, sizeof(c->ld), "%s", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t num_cb(void *value, void *config)
{
	struct cfg *c = config;

	note(c, "n", config);
	c->num = *(int *)value;
	c->unum = *(uint32_t *)value;
	return DOCA_SUCCESS;
}

static doca_error_t flag_cb(void *value, void *config)
{
	struct cfg *c = config;

	note(c, "f", config);
	c->flag_hits++;
	c->flag_value = *(bool *)value;
	return DOCA_SUCCESS;
}

static doca_error_t multi_cb(void *value, void *config)
{
	struct cfg *c = config;

	note(c, "m", config);
	if (c->n_multi < 8)
		snprintf(c->multi[c->n_multi++], sizeof(c->multi[0]), "%s", (char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t obj_cb(void *value, void *config)
{
	struct cfg *c = config;

	note(c, "o", config);
	c->obj = value;
	return DOCA_SUCCESS;
}

static doca_error_t reject_cb(void *value, void *config)
{
	return DOCA_ERROR_NOT_PERMITTED;
}

static doca_error_t run_cmd_cb(void *config)
{
	note(config, "run", config);
	return DOCA_SUCCESS;
}

static doca_error_t fast_cmd_cb(void *config)
{
	note(config, "fast", config);
	return DOCA_SUCCESS;
}

/* The usual program: -d/--device, -ld, -n/--num, --async, -m (multi), --obj (JSON). */
static void setup(const char *name)
{
	memset(&cfg, 0, sizeof(cfg));
	CHECK_OK(init_captured(name, &cfg));
	CHECK_OK(add_param(NULL, "d", "device", "<IB device name>", "IB device name", DOCA_ARGP_TYPE_STRING, dev_cb,
			   0));
	CHECK_OK(add_param(NULL, "ld", "local-descriptor-path", "<path>", "Local descriptor file",
			   DOCA_ARGP_TYPE_STRING, ld_cb, 0));
	CHECK_OK(add_param(NULL, "n", "num", "<num>", "A number", DOCA_ARGP_TYPE_INT, num_cb, 0));
	CHECK_OK(add_param(NULL, NULL, "async", NULL, "Asynchronous mode", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, 0));
	CHECK_OK(add_param(NULL, "m", "multi", "<word>", "Repeatable", DOCA_ARGP_TYPE_STRING, multi_cb, P_MULTI));
	CHECK_OK(add_param(NULL, NULL, "obj", "<json>", "A JSON object", DOCA_ARGP_TYPE_JSON_OBJ, obj_cb, 0));
}

static void test_every_type(void)
{
	setup("prog");
	CHECK_OK(START("prog", "-d", "mlx5_0", "-n", "42", "--async", "--obj", "{\"a\": [1, 2], \"b\": \"x\"}"));
	CHECK(strcmp(cfg.dev, "mlx5_0") == 0);
	CHECK(cfg.num == 42);
	CHECK(cfg.flag_hits == 1 && cfg.flag_value);
	CHECK(cfg.obj != NULL && cfg.obj->type == SOFTDOCA_ARGP_JSON_OBJECT && cfg.obj->count == 2);
	CHECK(cfg.obj != NULL && strcmp(cfg.obj->items[0].key, "a") == 0 &&
	      cfg.obj->items[0].type == SOFTDOCA_ARGP_JSON_ARRAY && cfg.obj->items[0].count == 2 &&
	      cfg.obj->items[0].items[1].number == 2);
	CHECK(cfg.obj != NULL && strcmp(cfg.obj->items[1].string, "x") == 0);
	CHECK(strcmp(cfg.order, "d,n,f,o,") == 0);
	CHECK(!cfg.bad_config);
	CHECK(logged[0] == '\0');
	CHECK_OK(doca_argp_destroy());
}

static void test_int_values(void)
{
	setup("prog");
	CHECK_OK(START("prog", "-n", "-7"));
	CHECK(cfg.num == -7);
	CHECK_OK(doca_argp_destroy());

	/* Values above INT_MAX keep their 32-bit pattern for programs that read a uint32_t. */
	setup("prog");
	CHECK_OK(START("prog", "--num=4294967295"));
	CHECK(cfg.unum == 4294967295u);
	CHECK_OK(doca_argp_destroy());

	setup("prog");
	CHECK_ERR(START("prog", "-n", "4294967296"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
}

static void test_short_names_whole(void)
{
	/* -ld is the -ld flag, not -l with "d" nor -l -d. */
	setup("prog");
	CHECK_OK(START("prog", "-ld", "/tmp/desc", "-d", "dev0"));
	CHECK(strcmp(cfg.ld, "/tmp/desc") == 0);
	CHECK(strcmp(cfg.dev, "dev0") == 0);
	CHECK(strcmp(cfg.order, "ld,d,") == 0);
	CHECK_OK(doca_argp_destroy());

	/* A token that merely starts like a short name is unknown. */
	setup("prog");
	CHECK_ERR(START("prog", "-dx", "dev0"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(logged, "unknown flag \"-dx\"") != NULL);
	CHECK(cfg.order[0] == '\0');
	CHECK_OK(doca_argp_destroy());

	/* Longer names: -sat beside -sa, -pf_dev. */
	memset(&cfg, 0, sizeof(cfg));
	CHECK_OK(init_captured(NULL, &cfg));
	CHECK_OK(add_param(NULL, "sa", NULL, "<a>", "sa", DOCA_ARGP_TYPE_STRING, dev_cb, 0));
	CHECK_OK(add_param(NULL, "sat", NULL, "<a>", "sat", DOCA_ARGP_TYPE_STRING, ld_cb, 0));
	CHECK_OK(add_param(NULL, "pf_dev", "pf-device", "<pf>", "pf", DOCA_ARGP_TYPE_STRING, multi_cb, 0));
	CHECK_OK(START("prog", "-sat", "T", "-sa", "A", "-pf_dev", "P"));
	CHECK(strcmp(cfg.dev, "A") == 0 && strcmp(cfg.ld, "T") == 0);
	CHECK(cfg.n_multi == 1 && strcmp(cfg.multi[0], "P") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void test_long_forms(void)
{
	setup("prog");
	CHECK_OK(START("prog", "--device", "a", "--local-descriptor-path=/x=y", "--async"));
	CHECK(strcmp(cfg.dev, "a") == 0);
	CHECK(strcmp(cfg.ld, "/x=y") == 0);
	CHECK(cfg.flag_hits == 1);
	CHECK_OK(doca_argp_destroy());

	/* A boolean takes no value; =false means absent, =true present, anything else is refused. */
	setup("prog");
	CHECK_OK(START("prog", "--async=false"));
	CHECK(cfg.flag_hits == 0);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "--async=maybe"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "--async") != NULL);
	CHECK_OK(doca_argp_destroy());
	/* --help and --version too: off is as if absent, anything else refused before they act. */
	setup("prog");
	CHECK_OK(START("prog", "--help=false", "--version=0", "--async"));
	CHECK(cfg.flag_hits == 1);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "--help=garbage"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "--help") != NULL && strstr(logged, "garbage") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "--version=yes"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "--version") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* Values may start with '-' when they are not a flag. */
	setup("prog");
	CHECK_OK(START("prog", "-d", "-weird-name"));
	CHECK(strcmp(cfg.dev, "-weird-name") == 0);
	CHECK_OK(doca_argp_destroy());
}

static void test_mandatory(void)
{
	setup("prog");
	CHECK_OK(add_param(NULL, "t", "text", "<text>", "Mandatory text", DOCA_ARGP_TYPE_STRING, multi_cb,
			   P_MANDATORY));
	CHECK_OK(add_param(NULL, "u", NULL, NULL, "Mandatory bool", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, P_MANDATORY));
	CHECK_ERR(START("prog", "-d", "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "missing mandatory flags: -t/--text <text>, -u") != NULL);
	CHECK(strstr(logged, "Usage: prog [DOCA Flags] [Program Flags]") != NULL);
	CHECK(cfg.order[0] == '\0'); /* nothing called for a bad input */
	CHECK_OK(doca_argp_destroy());

	setup("prog");
	CHECK_OK(add_param(NULL, "t", "text", "<text>", "Mandatory text", DOCA_ARGP_TYPE_STRING, multi_cb,
			   P_MANDATORY));
	CHECK_OK(START("prog", "--text", "hello"));
	CHECK(cfg.n_multi == 1);
	CHECK_OK(doca_argp_destroy());
}

static void test_multiplicity(void)
{
	setup("prog");
	CHECK_OK(START("prog", "-m", "one", "--multi", "two", "-d", "x", "-m", "three"));
	CHECK(cfg.n_multi == 3);
	CHECK(strcmp(cfg.multi[0], "one") == 0 && strcmp(cfg.multi[1], "two") == 0 &&
	      strcmp(cfg.multi[2], "three") == 0);
	CHECK(strcmp(cfg.order, "m,m,d,m,") == 0);
	CHECK_OK(doca_argp_destroy());

	/* A single-value flag given twice (whatever the spelling) is refused. */
	setup("prog");
	CHECK_ERR(START("prog", "-d", "a", "--device", "b"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "-d/--device given more than once") != NULL);
	CHECK(cfg.order[0] == '\0');
	CHECK_OK(doca_argp_destroy());
}

static void test_singular(void)
{
	setup("prog");
	CHECK_OK(add_param(NULL, NULL, "list", NULL, "List and exit", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, P_SINGULAR));
	CHECK_ERR(START("prog", "--list", "-d", "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "--list must be used alone") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* DOCA flags do not count. */
	setup("prog");
	CHECK_OK(add_param(NULL, NULL, "list", NULL, "List and exit", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, P_SINGULAR));
	CHECK_OK(START("prog", "--list", "-l", "50"));
	CHECK(cfg.flag_hits == 1);
	CHECK_OK(doca_argp_destroy());
}

static int validations;

static doca_error_t validate_ok(void *config)
{
	validations += config == &cfg;
	return DOCA_SUCCESS;
}

static doca_error_t validate_fail(void *config)
{
	validations++;
	return DOCA_ERROR_INVALID_VALUE;
}

static void test_callbacks(void)
{
	validations = 0;
	setup("prog");
	CHECK_OK(doca_argp_register_validation_callback(validate_ok));
	CHECK_OK(START("prog", "-d", "x"));
	CHECK(validations == 1);
	CHECK_OK(doca_argp_destroy());

	validations = 0;
	setup("prog");
	CHECK_OK(doca_argp_register_validation_callback(validate_fail));
	CHECK_ERR(START("prog", "-d", "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK(validations == 1);
	CHECK(strstr(logged, "validation") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* A param callback's error fails start with that error and stops further callbacks. */
	validations = 0;
	setup("prog");
	CHECK_OK(add_param(NULL, "r", "reject", "<x>", "Always refused", DOCA_ARGP_TYPE_STRING, reject_cb, 0));
	CHECK_OK(doca_argp_register_validation_callback(validate_ok));
	CHECK_ERR(START("prog", "-r", "x", "-d", "y"), DOCA_ERROR_NOT_PERMITTED);
	CHECK(strstr(logged, "-r/--reject") != NULL);
	CHECK(cfg.dev[0] == '\0');
	CHECK(validations == 0);
	CHECK_OK(doca_argp_destroy());
}

static void test_bad_input(void)
{
	/* Unknown flag. */
	setup("prog");
	CHECK_ERR(START("prog", "--bogus"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(logged, "unknown flag \"--bogus\"") != NULL);
	CHECK(strstr(logged, "Program Flags:") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "--bogus=1"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(logged, "unknown flag \"--bogus\"") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "-"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());

	/* A stray positional argument. */
	setup("prog");
	CHECK_ERR(START("prog", "-d", "x", "extra"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(logged, "unexpected argument \"extra\"") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* Ill-typed integer values. */
	setup("prog");
	CHECK_ERR(START("prog", "-n", "abc"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "flag -n/--num expects an integer, got \"abc\"") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "-n", "12x"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "-n", ""), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());

	/* Missing values: at the end, or followed by another flag. */
	setup("prog");
	CHECK_ERR(START("prog", "-d"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "flag -d/--device needs a value: -d <IB device name>") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "-n", "-d", "x"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "needs a value") != NULL);
	CHECK(cfg.order[0] == '\0');
	CHECK_OK(doca_argp_destroy());

	/* Invalid JSON object values. */
	setup("prog");
	CHECK_ERR(START("prog", "--obj", "{\"a\": }"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "--obj: invalid JSON") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "--obj", "[1]"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());

	/* NULL argv is refused. */
	setup("prog");
	CHECK_ERR(doca_argp_start(2, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());
}

static void test_log_flags(void)
{
	uint32_t saved = doca_log_level_get_global_lower_limit();
	uint32_t saved_sdk = doca_log_level_get_global_sdk_limit();
	int level = 0;

	setup("prog");
	CHECK_OK(START("prog", "-l", "60", "--sdk-log-level", "40"));
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK(level == 60);
	CHECK(doca_log_level_get_global_lower_limit() == 60);
	CHECK_OK(doca_argp_get_sdk_log_level(&level));
	CHECK(level == 40);
	CHECK(doca_log_level_get_global_sdk_limit() == 40);
	CHECK_OK(doca_argp_destroy());

	setup("prog");
	CHECK_OK(START("prog", "--log-level", "30"));
	CHECK(doca_log_level_get_global_lower_limit() == 30);
	CHECK_OK(doca_argp_destroy());

	setup("prog");
	CHECK_ERR(START("prog", "-l", "abc"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "-l/--log-level expects an integer") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "-l", "55"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "55 is not a log level") != NULL);
	CHECK_OK(doca_argp_destroy());
	setup("prog");
	CHECK_ERR(START("prog", "--sdk-log-level"), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_destroy());

	doca_log_level_set_global_lower_limit(saved);
	doca_log_level_set_global_sdk_limit(saved_sdk);
}

static int version_calls;

static doca_error_t version_cb(void *value, void *config)
{
	version_calls += config == &cfg;
	return DOCA_SUCCESS;
}

static void test_version_callback(void)
{
	/* A registered version callback replaces the built-in print-and-exit. */
	version_calls = 0;
	setup("prog");
	CHECK_OK(doca_argp_register_version_callback(version_cb));
	CHECK_OK(START("prog", "-v", "-d", "x"));
	CHECK(version_calls == 1);
	CHECK(strcmp(cfg.dev, "x") == 0);
	CHECK_OK(doca_argp_destroy());
}

/* run [-n <num>] [fast [--speed <n>]], --verbose inherited from the root. */
static void setup_cmds(void)
{
	struct doca_argp_cmd *run, *fast;

	setup("prog");
	CHECK_OK(add_param(NULL, NULL, "verbose", NULL, "Verbose", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, P_INHERITED));
	CHECK_OK(doca_argp_cmd_create(&run));
	doca_argp_cmd_set_name(run, "run");
	doca_argp_cmd_set_description(run, "Run the thing");
	doca_argp_cmd_set_callback(run, run_cmd_cb);
	CHECK_OK(doca_argp_cmd_create(&fast));
	doca_argp_cmd_set_name(fast, "fast");
	doca_argp_cmd_set_description(fast, "Faster");
	doca_argp_cmd_set_callback(fast, fast_cmd_cb);
	CHECK_OK(add_param(fast, "s", "speed", "<n>", "Speed", DOCA_ARGP_TYPE_INT, num_cb, P_MANDATORY));
	CHECK_OK(add_param(run, "k", "key", "<k>", "Key", DOCA_ARGP_TYPE_STRING, ld_cb, 0));
	CHECK_OK(doca_argp_cmd_register_cmd(run, fast));
	CHECK_OK(doca_argp_register_cmd(run));
}

static void test_commands(void)
{
	setup_cmds();
	CHECK_OK(START("prog", "-d", "x", "run", "-k", "K", "--verbose", "fast", "-s", "3"));
	CHECK(strcmp(cfg.order, "d,run,ld,f,fast,n,") == 0);
	CHECK(cfg.num == 3 && strcmp(cfg.ld, "K") == 0 && cfg.flag_hits == 1);
	CHECK(!cfg.bad_config);
	CHECK_OK(doca_argp_destroy());

	/* The mandatory flag of a command is required only when it is selected. */
	setup_cmds();
	CHECK_OK(START("prog", "run"));
	CHECK(strcmp(cfg.order, "run,") == 0);
	CHECK_OK(doca_argp_destroy());
	setup_cmds();
	CHECK_ERR(START("prog", "run", "fast"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "missing mandatory flag: -s/--speed <n>") != NULL);
	CHECK(strstr(logged, "Usage: prog run fast") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* A command's flag is unknown outside it; a non-inherited root flag is unknown inside. */
	setup_cmds();
	CHECK_ERR(START("prog", "-k", "K", "run"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());
	setup_cmds();
	CHECK_ERR(START("prog", "run", "-d", "x"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_argp_destroy());

	/* Unknown command. */
	setup_cmds();
	CHECK_ERR(START("prog", "walk"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(logged, "unknown command \"walk\"") != NULL);
	CHECK(strstr(logged, "Commands:") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* DOCA flags work inside commands. */
	setup_cmds();
	CHECK_OK(START("prog", "run", "-l", "50"));
	CHECK(doca_log_level_get_global_lower_limit() == 50);
	CHECK_OK(doca_argp_destroy());

	/*
	 * A command's flag may reuse a DOCA flag's name and shadows it after the command word
	 * (NVIDIA's mgmt_data_direct: set -v/--vf-pci-addr); a program flag may not (test_argp_api).
	 */
	{
		struct doca_argp_cmd *set;

		setup("prog");
		CHECK_OK(doca_argp_cmd_create(&set));
		doca_argp_cmd_set_name(set, "set");
		doca_argp_cmd_set_description(set, "Set it");
		doca_argp_cmd_set_callback(set, run_cmd_cb);
		CHECK_OK(add_param(set, "v", "vf-pci-addr", "<addr>", "VF", DOCA_ARGP_TYPE_STRING, ld_cb, 0));
		CHECK_OK(doca_argp_register_cmd(set));
		CHECK_OK(START("prog", "set", "-v", "b1:00.2"));
		CHECK(strcmp(cfg.ld, "b1:00.2") == 0);
		CHECK_OK(doca_argp_destroy());
	}
}

static int dpdk_argc;
static char dpdk_args[512];

static doca_error_t dpdk_cb(int argc, char **argv)
{
	int i;

	dpdk_argc = argc;
	dpdk_args[0] = '\0';
	for (i = 0; i < argc; i++) {
		strncat(dpdk_args, argv[i], sizeof(dpdk_args) - strlen(dpdk_args) - 2);
		strcat(dpdk_args, " ");
	}
	return argv[argc] == NULL ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
}

static doca_error_t dpdk_fail_cb(int argc, char **argv)
{
	return DOCA_ERROR_DRIVER;
}

static void test_dpdk_split(void)
{
	setup("prog");
	doca_argp_set_dpdk_program(dpdk_cb);
	CHECK_OK(START("prog", "-a", "00:00.0", "-c", "0x1", "--", "-d", "x"));
	CHECK(dpdk_argc == 5);
	CHECK(strcmp(dpdk_args, "prog -a 00:00.0 -c 0x1 ") == 0);
	CHECK(strcmp(cfg.dev, "x") == 0);
	CHECK_OK(doca_argp_destroy());

	/* Without "--" every argument belongs to DPDK. */
	setup("prog");
	doca_argp_set_dpdk_program(dpdk_cb);
	CHECK_OK(START("prog", "-a", "00:00.0"));
	CHECK(dpdk_argc == 3);
	CHECK(cfg.order[0] == '\0');
	CHECK_OK(doca_argp_destroy());

	/* No DPDK flags at all: the callback still gets argv[0]. */
	setup("prog");
	doca_argp_set_dpdk_program(dpdk_cb);
	CHECK_OK(add_param(NULL, "z", NULL, NULL, "z", DOCA_ARGP_TYPE_BOOLEAN, flag_cb, 0));
	CHECK_OK(START("prog", "--", "-z"));
	CHECK(dpdk_argc == 1 && cfg.flag_hits == 1);
	CHECK_OK(doca_argp_destroy());

	/* The DPDK callback's error fails start before any program callback. */
	setup("prog");
	doca_argp_set_dpdk_program(dpdk_fail_cb);
	CHECK_ERR(START("prog", "-x", "--", "-d", "x"), DOCA_ERROR_DRIVER);
	CHECK(cfg.dev[0] == '\0');
	CHECK_OK(doca_argp_destroy());
}

static void test_logger_routing(void)
{
	/* After disable, messages go back to stderr (not to the capture buffer). */
	setup("prog");
	CHECK_OK(doca_argp_disable_logger_callback());
	logged[0] = '\0';
	CHECK_ERR(START("prog", "--bogus"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(logged[0] == '\0');
	CHECK_OK(doca_argp_destroy());
}

static void test_program_name(void)
{
	/* Without a name from init, basename(argv[0]). */
	memset(&cfg, 0, sizeof(cfg));
	CHECK_OK(init_captured(NULL, &cfg));
	CHECK_ERR(START("/usr/local/bin/doca_thing", "--bogus"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(strstr(logged, "Usage: doca_thing [DOCA Flags] [Program Flags]") != NULL);
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	TEST_RUN(test_every_type);
	TEST_RUN(test_int_values);
	TEST_RUN(test_short_names_whole);
	TEST_RUN(test_long_forms);
	TEST_RUN(test_mandatory);
	TEST_RUN(test_multiplicity);
	TEST_RUN(test_singular);
	TEST_RUN(test_callbacks);
	TEST_RUN(test_bad_input);
	TEST_RUN(test_log_flags);
	TEST_RUN(test_version_callback);
	TEST_RUN(test_commands);
	TEST_RUN(test_dpdk_split);
	TEST_RUN(test_logger_routing);
	TEST_RUN(test_program_name);
	TEST_EXIT();
}
