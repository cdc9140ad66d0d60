/* SPDX-License-Identifier: BSD-3-Clause */
/* argp lifecycle and registration: every misuse returns DOCA's code and nothing leaks or crashes. */
#include "argp_test.h"

static doca_error_t ok_cb(void *value, void *config)
{
	return DOCA_SUCCESS;
}

static doca_error_t ok_cmd_cb(void *config)
{
	return DOCA_SUCCESS;
}

static doca_error_t ok_validation(void *config)
{
	return DOCA_SUCCESS;
}

static void test_lifecycle_order(void)
{
	struct doca_argp_param *p = NULL;
	struct doca_argp_cmd *c = NULL;
	int cfg;

	CHECK_ERR(doca_argp_param_create(&p), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_cmd_create(&c), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(START("prog"), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_version_callback(ok_cb), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_validation_callback(ok_validation), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_logger_callback(capture_logger), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_disable_logger_callback(), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_param(NULL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_register_cmd(NULL), DOCA_ERROR_BAD_STATE);

	CHECK_OK(doca_argp_init("prog", &cfg));
	CHECK_ERR(doca_argp_init("prog", &cfg), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_param_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(START("prog"));
	CHECK_ERR(START("prog"), DOCA_ERROR_BAD_STATE);
	/* Registration after start is refused; the param is still freed by destroy. */
	CHECK_OK(doca_argp_param_create(&p));
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_argp_destroy());
	CHECK_ERR(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);

	/* Init again after destroy works; an empty name is refused. */
	CHECK_ERR(doca_argp_init("", &cfg), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_init(NULL, NULL));
	CHECK_OK(doca_argp_destroy());
}

static void test_register_missing_fields(void)
{
	struct doca_argp_param *p;

	CHECK_OK(doca_argp_init("prog", NULL));
	CHECK_ERR(add_param(NULL, "d", "device", NULL, NULL, DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(add_param(NULL, "d", "device", NULL, "desc", DOCA_ARGP_TYPE_STRING, NULL, 0),
		  DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(add_param(NULL, "d", "device", NULL, "desc", DOCA_ARGP_TYPE_UNKNOWN, ok_cb, 0),
		  DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(add_param(NULL, "d", "device", NULL, "desc", (enum doca_argp_type)42, ok_cb, 0),
		  DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(add_param(NULL, NULL, NULL, NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INITIALIZATION);
	/* Names the command line cannot carry. */
	CHECK_ERR(add_param(NULL, "-d", NULL, NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(add_param(NULL, NULL, "a=b", NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(add_param(NULL, "", NULL, NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(add_param(NULL, "a b", NULL, NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	/* A long name with a blank, as NVIDIA's GPUNetIO Verbs samples register ("nic handler"). */
	CHECK_OK(add_param(NULL, "n", "nic handler", NULL, "desc", DOCA_ARGP_TYPE_INT, ok_cb, 0));
	/* The built-in DOCA flags and registered names are taken. */
	CHECK_ERR(add_param(NULL, "l", "lines", NULL, "desc", DOCA_ARGP_TYPE_INT, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(add_param(NULL, NULL, "json", NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(add_param(NULL, "d", "device", NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0));
	CHECK_ERR(add_param(NULL, "d", "other", NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(add_param(NULL, "x", "device", NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0),
		  DOCA_ERROR_INVALID_VALUE);
	/* Long-only and multi-letter short names are fine. */
	CHECK_OK(add_param(NULL, NULL, "async", NULL, "desc", DOCA_ARGP_TYPE_BOOLEAN, ok_cb, 0));
	CHECK_OK(add_param(NULL, "pf_dev", NULL, NULL, "desc", DOCA_ARGP_TYPE_STRING, ok_cb, 0));

	/* A registered param belongs to argp; an unregistered one may be destroyed once. */
	CHECK_OK(doca_argp_param_create(&p));
	doca_argp_param_set_short_name(p, "q");
	doca_argp_param_set_description(p, "q");
	doca_argp_param_set_callback(p, ok_cb);
	doca_argp_param_set_type(p, DOCA_ARGP_TYPE_BOOLEAN);
	CHECK_OK(doca_argp_register_param(p));
	CHECK_ERR(doca_argp_register_param(p), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_argp_param_create(&p));
	CHECK_OK(doca_argp_param_destroy(p));
	CHECK_ERR(doca_argp_param_destroy(p), DOCA_ERROR_INVALID_VALUE); /* stale pointer: refused */
	CHECK_ERR(doca_argp_param_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_param(NULL), DOCA_ERROR_INVALID_VALUE);
	/* Setters on stale or NULL pointers are ignored, not followed. */
	doca_argp_param_set_short_name(p, "z");
	doca_argp_param_set_mandatory(NULL);

	/* Unregistered params are freed by destroy (ASan checks). */
	CHECK_OK(doca_argp_param_create(&p));
	doca_argp_param_set_long_name(p, "leftover");
	CHECK_OK(doca_argp_destroy());
}

static void test_callback_registration(void)
{
	CHECK_OK(doca_argp_init(NULL, NULL));
	CHECK_ERR(doca_argp_register_version_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_validation_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_register_logger_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_register_version_callback(ok_cb));
	CHECK_OK(doca_argp_register_validation_callback(ok_validation));
	CHECK_OK(doca_argp_register_logger_callback(capture_logger));
	CHECK_ERR(doca_argp_register_logger_callback(capture_logger), DOCA_ERROR_ALREADY_EXIST);
	CHECK_OK(doca_argp_disable_logger_callback());
	CHECK_OK(doca_argp_register_logger_callback(capture_logger));
	CHECK_OK(doca_argp_destroy());
}

static void test_log_level_getters(void)
{
	int level = 0;

	CHECK_ERR(doca_argp_get_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_get_sdk_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
	/* Without -l, the current global level. */
	CHECK_OK(doca_argp_get_log_level(&level));
	CHECK(level == (int)doca_log_level_get_global_lower_limit());
	CHECK_OK(doca_argp_get_sdk_log_level(&level));
	CHECK(level == (int)doca_log_level_get_global_sdk_limit());
}

static void test_cmd_registration(void)
{
	struct doca_argp_cmd *a, *b, *c;

	CHECK_OK(doca_argp_init("prog", NULL));
	CHECK_OK(doca_argp_cmd_create(&a));
	doca_argp_cmd_set_description(a, "no name");
	CHECK_ERR(doca_argp_register_cmd(a), DOCA_ERROR_INITIALIZATION);
	CHECK_ERR(doca_argp_cmd_destroy(a), DOCA_ERROR_INVALID_VALUE); /* argp freed it */

	CHECK_OK(doca_argp_cmd_create(&a));
	doca_argp_cmd_set_name(a, "run");
	CHECK_ERR(doca_argp_register_cmd(a), DOCA_ERROR_INITIALIZATION); /* no description */

	CHECK_OK(doca_argp_cmd_create(&a));
	doca_argp_cmd_set_name(a, "-run");
	doca_argp_cmd_set_description(a, "bad name");
	CHECK_ERR(doca_argp_register_cmd(a), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_argp_cmd_create(&a));
	doca_argp_cmd_set_name(a, "run");
	doca_argp_cmd_set_description(a, "run it");
	doca_argp_cmd_set_callback(a, ok_cmd_cb);
	CHECK_OK(doca_argp_cmd_create(&b));
	doca_argp_cmd_set_name(b, "fast");
	doca_argp_cmd_set_description(b, "fast mode");
	CHECK_OK(doca_argp_cmd_register_cmd(a, b));
	CHECK_ERR(doca_argp_cmd_register_cmd(a, b), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_argp_cmd_destroy(b), DOCA_ERROR_BAD_STATE);
	/* A loop is refused and frees nothing. */
	CHECK_ERR(doca_argp_cmd_register_cmd(b, a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_register_cmd(a, a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_register_cmd(NULL, a), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(add_param(b, "n", "num", "<n>", "count", DOCA_ARGP_TYPE_INT, ok_cb, 0));
	CHECK_ERR(add_param(b, "n", NULL, NULL, "dup", DOCA_ARGP_TYPE_INT, ok_cb, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_argp_register_cmd(a));

	/* Sibling names are unique. */
	CHECK_OK(doca_argp_cmd_create(&c));
	doca_argp_cmd_set_name(c, "run");
	doca_argp_cmd_set_description(c, "again");
	CHECK_ERR(doca_argp_register_cmd(c), DOCA_ERROR_INVALID_VALUE);

	/* An unregistered command with params is freed whole by cmd_destroy. */
	CHECK_OK(doca_argp_cmd_create(&c));
	doca_argp_cmd_set_name(c, "tmp");
	CHECK_OK(add_param(c, "t", NULL, NULL, "t", DOCA_ARGP_TYPE_BOOLEAN, ok_cb, 0));
	CHECK_OK(doca_argp_cmd_destroy(c));
	CHECK_ERR(doca_argp_cmd_destroy(c), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_argp_cmd_destroy(NULL), DOCA_ERROR_INVALID_VALUE);

	/* And one left unregistered is freed by destroy. */
	CHECK_OK(doca_argp_cmd_create(&c));
	doca_argp_cmd_set_name(c, "leftover");
	CHECK_OK(doca_argp_destroy());
}

int main(void)
{
	TEST_RUN(test_lifecycle_order);
	TEST_RUN(test_register_missing_fields);
	TEST_RUN(test_callback_registration);
	TEST_RUN(test_log_level_getters);
	TEST_RUN(test_cmd_registration);
	TEST_EXIT();
}
