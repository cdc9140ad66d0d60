/* SPDX-License-Identifier: BSD-3-Clause */
/* argp's JSON parser on its own (compiled into this test): grammar, escapes, numbers, line
 * numbers in errors, nesting bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argp/json.h"
#include "test.h"

static struct softdoca_argp_json *parse(const char *text, struct argp_json_error *err)
{
	return argp_json_parse(text, strlen(text), err);
}

/* Parses text expecting failure at line with msg containing fragment. */
static void expect_error(const char *text, int line, const char *fragment)
{
	struct argp_json_error err;
	struct softdoca_argp_json *v = parse(text, &err);

	CHECK(v == NULL);
	argp_json_free(v);
	CHECK(err.line == line);
	CHECK(strstr(err.msg, fragment) != NULL);
	if (err.line != line || strstr(err.msg, fragment) == NULL)
		fprintf(stderr, "  text %s: got line %d \"%s\"\n", text, err.line, err.msg);
}

static void test_values(void)
{
	struct argp_json_error err;
	struct softdoca_argp_json *v;

	v = parse(" {\"s\": \"a\\\"b\\\\c\\/\\n\\t\\u0041\\u00e9\\u20ac\\ud83d\\ude00\", \"n\": -12.5e2, \"z\": 0,"
		  " \"t\": true, \"f\": false, \"null\": null, \"a\": [], \"o\": {}, \"raw\": \"\xc3\xa9\"} ",
		  &err);
	CHECK(v != NULL);
	if (v == NULL)
		return;
	CHECK(v->type == SOFTDOCA_ARGP_JSON_OBJECT && v->count == 9);
	CHECK(strcmp(argp_json_get(v, "s")->string, "a\"b\\c/\n\tA\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") == 0);
	CHECK(argp_json_get(v, "n")->number == -1250.0);
	CHECK(strcmp(argp_json_get(v, "n")->string, "-12.5e2") == 0);
	CHECK(argp_json_get(v, "z")->number == 0);
	CHECK(argp_json_get(v, "t")->boolean && argp_json_get(v, "t")->type == SOFTDOCA_ARGP_JSON_BOOLEAN);
	CHECK(!argp_json_get(v, "f")->boolean);
	CHECK(argp_json_get(v, "null")->type == SOFTDOCA_ARGP_JSON_NULL);
	CHECK(argp_json_get(v, "a")->type == SOFTDOCA_ARGP_JSON_ARRAY && argp_json_get(v, "a")->count == 0);
	CHECK(argp_json_get(v, "o")->type == SOFTDOCA_ARGP_JSON_OBJECT && argp_json_get(v, "o")->count == 0);
	CHECK(strcmp(argp_json_get(v, "raw")->string, "\xc3\xa9") == 0);
	CHECK(argp_json_get(v, "missing") == NULL);
	argp_json_free(v);

	/* Scalars at the top level, line numbers of values, comments. */
	v = parse("// leading comment\n\n  [1,\n 2 // two\n, \"x\"]", &err);
	CHECK(v != NULL && v->line == 3 && v->count == 3 && v->items[1].line == 4 && v->items[2].line == 5);
	argp_json_free(v);
	v = parse("42", &err);
	CHECK(v != NULL && v->type == SOFTDOCA_ARGP_JSON_NUMBER && v->number == 42);
	argp_json_free(v);
	argp_json_free(NULL);
}

static void test_errors(void)
{
	expect_error("", 1, "empty input");
	expect_error("  \n // only a comment\n", 3, "empty input");
	expect_error("{", 1, "expected a member name");
	expect_error("{\"a\" 1}", 1, "expected ':' after member name \"a\"");
	expect_error("{\"a\": 1,}", 1, "trailing ','");
	expect_error("[1, 2,]", 1, "trailing ','");
	expect_error("[1 2]", 1, "expected ',' or ']'");
	expect_error("{\n\"a\": 1\n\"b\": 2}", 3, "expected ',' or '}'");
	expect_error("{'a': 1}", 1, "member name in double quotes");
	expect_error("[tru]", 1, "expected 'true'");
	expect_error("[nul]", 1, "expected 'null'");
	expect_error("[01]", 1, "leading zeros");
	expect_error("[1.]", 1, "digit after '.'");
	expect_error("[1e]", 1, "exponent");
	expect_error("[-]", 1, "expected a digit");
	expect_error("[+1]", 1, "expected a value, found '+'");
	expect_error("[.5]", 1, "expected a value");
	expect_error("\"abc", 1, "unterminated string");
	expect_error("\"a\tb\"", 1, "control character 0x09");
	expect_error("\"\\x\"", 1, "invalid escape '\\x'");
	expect_error("\"\\u12g4\"", 1, "4 hex digits");
	expect_error("\"\\u12\"", 1, "\\u escape");
	expect_error("\"\\ud800\"", 1, "unpaired");
	expect_error("\"\\ud800\\u0041\"", 1, "unpaired");
	expect_error("\"\\udc00\"", 1, "unpaired");
	expect_error("\"\\u0000\"", 1, "\\u0000");
	expect_error("{} x", 1, "unexpected 'x' after the end");
	expect_error("[1]\n\n]", 3, "unexpected ']'");
	expect_error("[\x01]", 1, "byte 0x01");
	expect_error("/ 1", 1, "found '/'");
}

static void test_depth(void)
{
	char deep[2 * ARGP_JSON_MAX_DEPTH + 8];
	struct argp_json_error err;
	struct softdoca_argp_json *v;
	int i;

	/* Exactly the limit parses; one more is refused without recursing further. */
	for (i = 0; i < ARGP_JSON_MAX_DEPTH; i++) {
		deep[i] = '[';
		deep[ARGP_JSON_MAX_DEPTH + i] = ']';
	}
	deep[2 * ARGP_JSON_MAX_DEPTH] = '\0';
	v = parse(deep, &err);
	CHECK(v != NULL);
	argp_json_free(v);

	memset(deep, '[', ARGP_JSON_MAX_DEPTH + 1);
	deep[ARGP_JSON_MAX_DEPTH + 1] = '\0';
	expect_error(deep, 1, "nesting deeper than");
}

static void test_value_count(void)
{
	/* "[0,0,...]": the array and ARGP_JSON_MAX_VALUES - 1 zeros parse; one more is refused. */
	size_t n = ARGP_JSON_MAX_VALUES, len = 2 * n + 2, i;
	char *text = malloc(len + 1);
	struct argp_json_error err;
	struct softdoca_argp_json *v;

	CHECK(text != NULL);
	if (text == NULL)
		return;
	text[0] = '[';
	for (i = 0; i < n - 1; i++) {
		text[1 + 2 * i] = '0';
		text[2 + 2 * i] = ',';
	}
	text[2 * (n - 1)] = ']';
	v = argp_json_parse(text, 2 * (n - 1) + 1, &err);
	CHECK(v != NULL && v->count == n - 1);
	argp_json_free(v);

	text[2 * (n - 1)] = ',';
	text[2 * n - 1] = '0';
	text[2 * n] = ']';
	v = argp_json_parse(text, 2 * n + 1, &err);
	CHECK(v == NULL && err.line == 1 && strstr(err.msg, "more than 65536 values") != NULL);
	free(text);
}

static void test_embedded_nul(void)
{
	/* The length is honoured: a NUL inside the text is an error, not an early end. */
	struct argp_json_error err;
	struct softdoca_argp_json *v = argp_json_parse("[1]\0garbage", 11, &err);

	CHECK(v == NULL);
	CHECK(strstr(err.msg, "byte 0x00") != NULL);
	v = argp_json_parse("[1]\0garbage", 3, &err);
	CHECK(v != NULL && v->count == 1);
	argp_json_free(v);
}

int main(void)
{
	TEST_RUN(test_values);
	TEST_RUN(test_errors);
	TEST_RUN(test_depth);
	TEST_RUN(test_value_count);
	TEST_RUN(test_embedded_nul);
	TEST_EXIT();
}
