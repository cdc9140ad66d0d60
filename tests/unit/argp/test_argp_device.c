/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * argp DOCA_ARGP_TYPE_DEVICE / _DEVICE_REP / _DOUBLE: argp opens the device a value names (by
 * PCI address with or without "pci/", IB device or interface name), hands the callback a
 * struct doca_argp_device_ctx with the devargs, opens representors by name or [a-b] group,
 * goes through the program's dev-open callback, and refuses what names nothing with a message.
 * Run twice: as the host (devices) and with SOFTDOCA_ROLE=dpu (representors).
 */
#include "argp_test.h"
#include "doca_dev.h"

#define MAX_SEEN 8

struct seen {
	int calls;
	struct doca_dev *dev[MAX_SEEN];
	struct doca_dev_rep *rep[MAX_SEEN];
	char devargs[MAX_SEEN][64]; /* "" for NULL */
	double number;
	int opens;		/* calls of the dev-open callback */
	void *open_ctx;
};

static struct seen seen;

/* The SDK log: resolving names must not log errors (the PCI comparisons refuse names loudly). */
static FILE *sdk_file;

static long sdk_log_size(void)
{
	fflush(sdk_file);
	return ftell(sdk_file);
}

static doca_error_t dev_cb(void *value, void *config)
{
	struct doca_argp_device_ctx *ctx = value;
	struct seen *s = config;

	if (s->calls < MAX_SEEN) {
		s->dev[s->calls] = ctx->dev;
		snprintf(s->devargs[s->calls], sizeof(s->devargs[0]), "%s", ctx->devargs ? ctx->devargs : "");
	}
	s->calls++;
	return DOCA_SUCCESS;
}

static doca_error_t rep_cb(void *value, void *config)
{
	struct doca_argp_device_rep_ctx *ctx = value;
	struct seen *s = config;

	if (s->calls < MAX_SEEN) {
		s->dev[s->calls] = ctx->dev_ctx.dev;
		s->rep[s->calls] = ctx->dev_rep;
		snprintf(s->devargs[s->calls], sizeof(s->devargs[0]), "%s",
			 ctx->dev_ctx.devargs ? ctx->dev_ctx.devargs : "");
	}
	s->calls++;
	return DOCA_SUCCESS;
}

static doca_error_t double_cb(void *value, void *config)
{
	((struct seen *)config)->number = *(double *)value;
	return DOCA_SUCCESS;
}

static doca_error_t counting_open(struct doca_devinfo *devinfo, void *usr_ctx, struct doca_dev **dev)
{
	seen.opens++;
	seen.open_ctx = usr_ctx;
	return doca_dev_open(devinfo, dev);
}

static doca_error_t refusing_open(struct doca_devinfo *devinfo, void *usr_ctx, struct doca_dev **dev)
{
	(void)devinfo;
	(void)usr_ctx;
	(void)dev;
	seen.opens++;
	return DOCA_ERROR_NOT_SUPPORTED;
}

static bool dev_is(struct doca_dev *dev, const char *pci)
{
	uint8_t eq = 0;

	return dev != NULL && doca_devinfo_is_equal_pci_addr(doca_dev_as_devinfo(dev), pci, &eq) == DOCA_SUCCESS &&
	       eq;
}

static bool rep_is(struct doca_dev_rep *rep, const char *pci)
{
	uint8_t eq = 0;

	return rep != NULL &&
	       doca_devinfo_rep_is_equal_pci_addr(doca_dev_rep_as_devinfo(rep), pci, &eq) == DOCA_SUCCESS && eq;
}

static void setup(void)
{
	memset(&seen, 0, sizeof(seen));
	CHECK_OK(init_captured("prog", &seen));
	CHECK_OK(add_param(NULL, "a", "device", "<DEVICE-ADDRESS>", "Device", DOCA_ARGP_TYPE_DEVICE, dev_cb, P_MULTI));
	CHECK_OK(add_param(NULL, "r", "rep", "<REP>", "Representor", DOCA_ARGP_TYPE_DEVICE_REP, rep_cb, P_MULTI));
	CHECK_OK(add_param(NULL, "x", "factor", "<x>", "A number", DOCA_ARGP_TYPE_DOUBLE, double_cb, 0));
}

/* Closes what the callbacks received, as the program must. */
static void close_seen(void)
{
	for (int i = 0; i < seen.calls && i < MAX_SEEN; i++) {
		if (seen.rep[i] != NULL)
			CHECK_OK(doca_dev_rep_close(seen.rep[i]));
		CHECK_OK(doca_dev_close(seen.dev[i]));
	}
}

static void test_device_by_pci_and_name(void)
{
	setup();
	CHECK_OK(START("prog", "-a", "pci/b1:00.0", "--device", "mlx5_1,dv_flow_en=2,x=[1,2]", "-a", "B1:00.0"));
	CHECK(seen.calls == 3);
	CHECK(dev_is(seen.dev[0], "b1:00.0") && strcmp(seen.devargs[0], "") == 0);
	CHECK(dev_is(seen.dev[1], "b1:00.1") && strcmp(seen.devargs[1], "dv_flow_en=2,x=[1,2]") == 0);
	CHECK(seen.dev[2] == seen.dev[0]); /* one doca_dev per function, as doca_dev_open gives */
	CHECK(logged[0] == '\0');
	CHECK(sdk_log_size() == 0);
	close_seen();
	CHECK_OK(doca_argp_destroy());
}

static doca_error_t null_open(struct doca_devinfo *devinfo, void *usr_ctx, struct doca_dev **dev)
{
	(void)devinfo;
	(void)usr_ctx;
	seen.opens++;
	*dev = NULL;
	return DOCA_SUCCESS;
}

static void test_unknown_device(void)
{
	setup();
	CHECK_ERR(START("prog", "-a", "pci/99:00.0"), DOCA_ERROR_INVALID_VALUE);
	CHECK(seen.calls == 0);
	CHECK(strstr(logged, "failed to find device identifier \"99:00.0\"") != NULL);
	CHECK_OK(doca_argp_destroy());

	setup();
	CHECK_ERR(START("prog", "-a", ",dv_flow_en=2"), DOCA_ERROR_INVALID_VALUE);
	CHECK(seen.calls == 0 && strstr(logged, "no device identifier given") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void test_dev_open_callback(void)
{
	int ctx;

	setup();
	CHECK_ERR(doca_argp_register_dev_open_callback(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_register_dev_open_callback(counting_open, &ctx));
	CHECK_OK(START("prog", "-a", "b1:00.0"));
	CHECK(seen.opens == 1 && seen.open_ctx == &ctx && seen.calls == 1 && dev_is(seen.dev[0], "b1:00.0"));
	close_seen();
	CHECK_OK(doca_argp_destroy());

	setup();
	CHECK_OK(doca_argp_register_dev_open_callback(refusing_open, NULL));
	CHECK_ERR(START("prog", "-a", "b1:00.0"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(seen.opens == 1 && seen.calls == 0);
	CHECK(strstr(logged, "device open callback refused \"b1:00.0\"") != NULL);
	CHECK_OK(doca_argp_destroy());

	/* A callback that succeeds without a device is reported too (it was the only failure
	 * without a line of its own). */
	setup();
	CHECK_OK(doca_argp_register_dev_open_callback(null_open, NULL));
	CHECK_ERR(START("prog", "-a", "b1:00.0,k=v"), DOCA_ERROR_INVALID_VALUE);
	CHECK(seen.opens == 1 && seen.calls == 0);
	CHECK(strstr(logged, "flag -a/--device: the program's device open callback gave no device for \"b1:00.0\"") != NULL);
	CHECK(strstr(logged, "invalid device") == NULL && strstr(logged, "Usage: prog") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void test_device_in_json(void)
{
	char path[] = "/tmp/argp_device_XXXXXX";
	const char *text = "{\"device\": [\"pci/b1:00.1\", \"mlx5_0,k=v\"], \"factor\": 2.5}";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	setup();
	CHECK_OK(START("prog", "-j", path));
	CHECK(seen.calls == 2 && dev_is(seen.dev[0], "b1:00.1") && dev_is(seen.dev[1], "b1:00.0"));
	CHECK(strcmp(seen.devargs[1], "k=v") == 0 && seen.number == 2.5);
	close_seen();
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

static void test_double(void)
{
	setup();
	CHECK_OK(START("prog", "-x", "0.75"));
	CHECK(seen.number == 0.75);
	CHECK_OK(doca_argp_destroy());

	setup();
	CHECK_ERR(START("prog", "-x", "0.75abc"), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(logged, "flag -x/--factor expects a number, got \"0.75abc\"") != NULL);
	CHECK_OK(doca_argp_destroy());
}

/* A JSON number out of the range of a double is refused as the command line refuses it. */
static void test_double_json_range(void)
{
	static const char *const bad[] = {"1e999", "-1e999", "1e-999"};
	char text[64], expect[128], *path;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "{\"factor\": %s}", bad[i]);
		path = write_temp(0, text);
		setup();
		CHECK_ERR(START("prog", "-j", path), DOCA_ERROR_INVALID_VALUE);
		snprintf(expect, sizeof(expect), ":1: flag -x/--factor expects a number, got %s (out of the range", bad[i]);
		if (strstr(logged, expect) == NULL)
			fprintf(stderr, "%s: expected \"%s\" in:\n%s\n", text, expect, logged);
		CHECK(strstr(logged, expect) != NULL);
		CHECK(seen.number == 0);
		CHECK_OK(doca_argp_destroy());
		unlink(path);

		setup();
		CHECK_ERR(START("prog", "-x", (char *)bad[i]), DOCA_ERROR_INVALID_VALUE);
		CHECK(strstr(logged, "expects a number") != NULL);
		CHECK_OK(doca_argp_destroy());
	}

	path = write_temp(0, "{\"factor\": -1.5e308}");
	setup();
	CHECK_OK(START("prog", "-j", path));
	CHECK(seen.number == -1.5e308);
	CHECK_OK(doca_argp_destroy());
	unlink(path);
}

static void test_host_has_no_representors(void)
{
	setup();
	CHECK_ERR(START("prog", "-r", "pci/b1:00.0,pf0hpf"), DOCA_ERROR_INVALID_VALUE);
	CHECK(seen.calls == 0 && strstr(logged, "cannot list the representors") != NULL);
	CHECK_OK(doca_argp_destroy());
}

static void test_representors(void)
{
	setup();
	CHECK_OK(START("prog", "-r", "pci/03:00.0,pf0hpf", "-r", "03:00.1,pf1hpf,dv_xmeta_en=4", "-r", "03:00.0,b1:00.0"));
	CHECK(seen.calls == 3);
	CHECK(dev_is(seen.dev[0], "03:00.0") && rep_is(seen.rep[0], "b1:00.0") && strcmp(seen.devargs[0], "") == 0);
	CHECK(dev_is(seen.dev[1], "03:00.1") && rep_is(seen.rep[1], "b1:00.1") &&
	      strcmp(seen.devargs[1], "dv_xmeta_en=4") == 0);
	CHECK(dev_is(seen.dev[2], "03:00.0") && rep_is(seen.rep[2], "b1:00.0"));
	CHECK(logged[0] == '\0');
	CHECK(sdk_log_size() == 0);
	close_seen();
	CHECK_OK(doca_argp_destroy());

	/* A group names several; each found one is handed over before the first that is missing. */
	setup();
	CHECK_ERR(START("prog", "-r", "03:00.0,pf[0-1]hpf"), DOCA_ERROR_INVALID_VALUE);
	CHECK(seen.calls == 1 && rep_is(seen.rep[0], "b1:00.0"));
	CHECK(strstr(logged, "failed to find device representor identifier \"pf1hpf\"") != NULL);
	close_seen();
	CHECK_OK(doca_argp_destroy());
}

static void test_bad_representors(void)
{
	static const struct {
		const char *value, *msg;
	} cases[] = {
		{"pci/03:00.0", "failed to extract the device representor identifier"},
		{"03:00.0,", "failed to extract the device representor identifier"},
		{"03:00.0,pf0vf[0-1]", "failed to find device representor identifier \"pf0vf0\""},
		{"03:00.0,pf0vf[1-0]", "failed to parse device representor identifier \"pf0vf[1-0]\""},
		{"03:00.0,pf0vf[0-1", "failed to parse device representor identifier"},
		{"03:00.0,pf0vf[0-99999]", "\"pf0vf[0-99999]\": index 99999 is out of range (at most 65535)"},
		{"03:00.0,pf0vf[0-99]", "\"pf0vf[0-99]\": it names more than 64 representors"},
		/* Indexes past LONG_MAX were clamped by strtol, and stepping past LONG_MAX overflowed. */
		{"03:00.0,pf0vf[9223372036854775807]",
		 "\"pf0vf[9223372036854775807]\": index 9223372036854775807 is out of range (at most 65535)"},
		{"03:00.0,pf0vf[99999999999999999999]",
		 "\"pf0vf[99999999999999999999]\": index 99999999999999999999 is out of range"},
		{"03:00.0,pf0vf[1-9223372036854775807]", "index 9223372036854775807 is out of range"},
		{"03:00.0,pf0vf[65535-65535]", "failed to find device representor identifier \"pf0vf65535\""},
		{"03:00.0,pf0vf[-1]", "\"pf0vf[-1]\": expected an index at \"-1]\""},
		{"03:00.0,pf0vf[ 1]", "expected an index at \" 1]\""},
		{"77:00.0,pf0hpf", "failed to find device identifier \"77:00.0\""},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setup();
		CHECK_ERR(START("prog", "-r", (char *)cases[i].value), DOCA_ERROR_INVALID_VALUE);
		CHECK(seen.calls == 0);
		if (strstr(logged, cases[i].msg) == NULL)
			fprintf(stderr, "value %s: expected \"%s\" in:\n%s\n", cases[i].value, cases[i].msg, logged);
		CHECK(strstr(logged, cases[i].msg) != NULL);
		/* One line says what was wrong, then the usage: no second line quoting the device
		 * part alone ("invalid device "03:00.0"") as if the device were the problem. */
		CHECK(strstr(logged, "invalid device") == NULL);
		CHECK(strstr(logged, "Usage: prog") != NULL);
		CHECK_OK(doca_argp_destroy());
	}
}

int main(void)
{
	const char *role = getenv("SOFTDOCA_ROLE");
	struct doca_log_backend *sdk_log = NULL;

	sdk_file = tmpfile();
	if (sdk_file == NULL || doca_log_backend_create_with_file_sdk(sdk_file, &sdk_log) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot set up the SDK log file\n");
		return 1;
	}

	if (role != NULL && strcmp(role, "dpu") == 0) {
		TEST_RUN(test_representors);
		TEST_RUN(test_bad_representors);
	} else {
		TEST_RUN(test_device_by_pci_and_name);
		TEST_RUN(test_unknown_device);
		TEST_RUN(test_dev_open_callback);
		TEST_RUN(test_device_in_json);
		TEST_RUN(test_double);
		TEST_RUN(test_double_json_range);
		TEST_RUN(test_host_has_no_representors);
	}
	TEST_EXIT();
}
