/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Recursive-descent JSON parser. Values are built into struct softdoca_argp_json trees whose
 * arrays of members are grown in place; nesting is bounded so hostile input cannot exhaust
 * the stack.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

struct parser {
	const char *p;
	const char *end;
	int line;
	int depth;
	size_t values;
	struct argp_json_error *err;
	int failed;
};

static void fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	ps->err->line = ps->line;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
}

static void fail_nomem(struct parser *ps)
{
	if (ps->failed)
		return;
	ps->failed = 1;
	ps->err->line = 0;
	snprintf(ps->err->msg, sizeof(ps->err->msg), "out of memory");
}

/* Describes the character at the cursor for "unexpected ..." messages. */
static const char *found(struct parser *ps, char *buf, size_t len)
{
	unsigned char c;

	if (ps->p >= ps->end)
		return "end of input";
	c = (unsigned char)*ps->p;
	if (c >= 0x20 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			ps->line++;
			ps->p++;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			ps->p++;
		} else if (c == '/' && ps->end - ps->p >= 2 && ps->p[1] == '/') {
			while (ps->p < ps->end && *ps->p != '\n')
				ps->p++;
		} else {
			break;
		}
	}
}

static void free_value(struct softdoca_argp_json *v)
{
	size_t i;

	for (i = 0; i < v->count; i++)
		free_value((struct softdoca_argp_json *)&v->items[i]);
	free((void *)v->items);
	free((void *)v->key);
	free((void *)v->string);
	memset(v, 0, sizeof(*v));
}

void argp_json_free(struct softdoca_argp_json *root)
{
	if (root == NULL)
		return;
	free_value(root);
	free(root);
}

/* Appends one UTF-8 encoded code point. */
static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int read_hex4(struct parser *ps, uint32_t *out)
{
	uint32_t v = 0;
	int i;

	if (ps->end - ps->p < 4) {
		fail(ps, "truncated \\u escape in string");
		return -1;
	}
	for (i = 0; i < 4; i++) {
		char c = ps->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else {
			fail(ps, "bad \\u escape in string: expected 4 hex digits");
			return -1;
		}
	}
	ps->p += 4;
	*out = v;
	return 0;
}

/* Parses a string at the cursor (which is on '"'); returns a malloc'ed decoded copy. */
static char *parse_string(struct parser *ps)
{
	const char *start = ++ps->p;
	char *out, *o;

	/* The decoded text is never longer than the raw text. */
	while (ps->p < ps->end && *ps->p != '"') {
		if (*ps->p == '\\' && ps->p + 1 < ps->end)
			ps->p++;
		if (*ps->p == '\n')
			break;
		ps->p++;
	}
	if (ps->p >= ps->end || *ps->p != '"') {
		fail(ps, "unterminated string (missing closing '\"')");
		return NULL;
	}
	out = malloc((size_t)(ps->p - start) + 1);
	if (out == NULL) {
		fail_nomem(ps);
		return NULL;
	}
	ps->p = start;
	o = out;
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;
		uint32_t cp, lo;

		if (c < 0x20) {
			fail(ps, "control character 0x%02x in string; escape it", c);
			goto err;
		}
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (read_hex4(ps, &cp) < 0)
				goto err;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u') {
					fail(ps, "unpaired UTF-16 surrogate in \\u escape");
					goto err;
				}
				ps->p += 2;
				if (read_hex4(ps, &lo) < 0)
					goto err;
				if (lo < 0xdc00 || lo > 0xdfff) {
					fail(ps, "unpaired UTF-16 surrogate in \\u escape");
					goto err;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				fail(ps, "unpaired UTF-16 surrogate in \\u escape");
				goto err;
			} else if (cp == 0) {
				fail(ps, "\\u0000 is not allowed in a string");
				goto err;
			}
			/* An escape is at least 6 bytes; its UTF-8 form at most 4. */
			o += put_utf8(o, cp);
			break;
		default:
			fail(ps, "invalid escape '\\%c' in string", c >= 0x20 && c < 0x7f ? c : '?');
			goto err;
		}
	}
	ps->p++; /* closing quote */
	*o = '\0';
	return out;
err:
	free(out);
	return NULL;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int parse_number(struct parser *ps, struct softdoca_argp_json *v)
{
	const char *start = ps->p;
	char *text;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || !is_digit(*ps->p)) {
		fail(ps, "invalid number: expected a digit");
		return -1;
	}
	if (*ps->p == '0') {
		ps->p++;
		if (ps->p < ps->end && is_digit(*ps->p)) {
			fail(ps, "invalid number: leading zeros are not allowed");
			return -1;
		}
	} else {
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (ps->p >= ps->end || !is_digit(*ps->p)) {
			fail(ps, "invalid number: expected a digit after '.'");
			return -1;
		}
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || !is_digit(*ps->p)) {
			fail(ps, "invalid number: expected a digit in the exponent");
			return -1;
		}
		while (ps->p < ps->end && is_digit(*ps->p))
			ps->p++;
	}
	text = strndup(start, (size_t)(ps->p - start));
	if (text == NULL) {
		fail_nomem(ps);
		return -1;
	}
	v->type = SOFTDOCA_ARGP_JSON_NUMBER;
	v->string = text;
	v->number = strtod(text, NULL);
	return 0;
}

static int parse_value(struct parser *ps, struct softdoca_argp_json *v);

/* Appends a zeroed member to v->items; returns it or NULL. */
static struct softdoca_argp_json *add_item(struct parser *ps, struct softdoca_argp_json *v, size_t *cap)
{
	struct softdoca_argp_json *items = (struct softdoca_argp_json *)v->items;

	if (v->count == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;

		items = realloc(items, ncap * sizeof(*items));
		if (items == NULL) {
			fail_nomem(ps);
			return NULL;
		}
		*cap = ncap;
		v->items = items;
	}
	memset(&items[v->count], 0, sizeof(items[0]));
	return &items[v->count++];
}

static int expect_literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) {
		fail(ps, "invalid literal: expected '%s'", word);
		return -1;
	}
	ps->p += n;
	return 0;
}

static int parse_container(struct parser *ps, struct softdoca_argp_json *v, int object)
{
	char close = object ? '}' : ']';
	size_t cap = 0;
	char buf[16];

	if (++ps->depth > ARGP_JSON_MAX_DEPTH) {
		fail(ps, "nesting deeper than %d levels", ARGP_JSON_MAX_DEPTH);
		return -1;
	}
	v->type = object ? SOFTDOCA_ARGP_JSON_OBJECT : SOFTDOCA_ARGP_JSON_ARRAY;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	for (;;) {
		struct softdoca_argp_json *item;
		char *key = NULL;

		skip_space(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "expected a member name in double quotes, found %s",
				     found(ps, buf, sizeof(buf)));
				return -1;
			}
			key = parse_string(ps);
			if (key == NULL)
				return -1;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail(ps, "expected ':' after member name \"%s\", found %s", key,
				     found(ps, buf, sizeof(buf)));
				free(key);
				return -1;
			}
			ps->p++;
			skip_space(ps);
		}
		item = add_item(ps, v, &cap);
		if (item == NULL) {
			free(key);
			return -1;
		}
		item->key = key;
		if (parse_value(ps, item) < 0)
			return -1;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_space(ps);
			if (ps->p < ps->end && *ps->p == close) {
				fail(ps, "trailing ',' before '%c'", close);
				return -1;
			}
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			break;
		}
		fail(ps, "expected ',' or '%c' %s, found %s", close,
		     object ? "after an object member" : "after an array element", found(ps, buf, sizeof(buf)));
		return -1;
	}
	ps->depth--;
	return 0;
}

static int parse_value(struct parser *ps, struct softdoca_argp_json *v)
{
	char buf[16];

	skip_space(ps);
	v->line = ps->line;
	if (ps->p >= ps->end) {
		fail(ps, "unexpected end of input, expected a value");
		return -1;
	}
	if (++ps->values > ARGP_JSON_MAX_VALUES) {
		fail(ps, "more than %d values", ARGP_JSON_MAX_VALUES);
		return -1;
	}
	switch (*ps->p) {
	case '{':
		return parse_container(ps, v, 1);
	case '[':
		return parse_container(ps, v, 0);
	case '"':
		v->type = SOFTDOCA_ARGP_JSON_STRING;
		v->string = parse_string(ps);
		return v->string ? 0 : -1;
	case 't':
		v->type = SOFTDOCA_ARGP_JSON_BOOLEAN;
		v->boolean = true;
		return expect_literal(ps, "true");
	case 'f':
		v->type = SOFTDOCA_ARGP_JSON_BOOLEAN;
		return expect_literal(ps, "false");
	case 'n':
		v->type = SOFTDOCA_ARGP_JSON_NULL;
		return expect_literal(ps, "null");
	default:
		if (*ps->p == '-' || is_digit(*ps->p))
			return parse_number(ps, v);
		fail(ps, "expected a value, found %s", found(ps, buf, sizeof(buf)));
		return -1;
	}
}

struct softdoca_argp_json *argp_json_parse(const char *text, size_t len, struct argp_json_error *err)
{
	struct parser ps = {.p = text, .end = text + len, .line = 1, .err = err};
	struct softdoca_argp_json *root;
	char buf[16];

	memset(err, 0, sizeof(*err));
	root = calloc(1, sizeof(*root));
	if (root == NULL) {
		fail_nomem(&ps);
		return NULL;
	}
	skip_space(&ps);
	if (ps.p >= ps.end) {
		fail(&ps, "empty input, expected a JSON value");
		goto err;
	}
	if (parse_value(&ps, root) < 0)
		goto err;
	skip_space(&ps);
	if (ps.p < ps.end) {
		fail(&ps, "unexpected %s after the end of the JSON value", found(&ps, buf, sizeof(buf)));
		goto err;
	}
	return root;
err:
	argp_json_free(root);
	return NULL;
}

const struct softdoca_argp_json *argp_json_get(const struct softdoca_argp_json *obj, const char *key)
{
	size_t i;

	if (obj == NULL || obj->type != SOFTDOCA_ARGP_JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->count; i++)
		if (strcmp(obj->items[i].key, key) == 0)
			return &obj->items[i];
	return NULL;
}

const char *argp_json_type_name(enum softdoca_argp_json_type type)
{
	switch (type) {
	case SOFTDOCA_ARGP_JSON_NULL: return "null";
	case SOFTDOCA_ARGP_JSON_BOOLEAN: return "a boolean";
	case SOFTDOCA_ARGP_JSON_NUMBER: return "a number";
	case SOFTDOCA_ARGP_JSON_STRING: return "a string";
	case SOFTDOCA_ARGP_JSON_ARRAY: return "an array";
	case SOFTDOCA_ARGP_JSON_OBJECT: return "an object";
	}
	return "an unknown value";
}
