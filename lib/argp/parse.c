/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_argp_start: two passes. The first walks argv (and a -j file) and turns every flag into
 * an event with its value already converted, so a bad input is reported before any program
 * callback has run. The second applies the DOCA flags, hands the DPDK part to its callback,
 * then calls the program's callbacks in command-line order and finally the validation one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argp_priv.h"
#include "doca_version.h"
#include "softhw/base/sdk_log.h"
#include "softhw/base/small_file.h"

SDK_LOG_REGISTER(ARGP_PARSE);

#define JSON_FILE_MAX (1u << 20) /* a -j file, as the device configuration */

struct run {
	const struct doca_argp_cmd *scope; /* innermost selected command (or the root) */
};

/* Reports a bad input: one line naming the problem, then the usage of the current scope. */
static doca_error_t input_error(const struct run *r, doca_error_t err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static doca_error_t input_error(const struct run *r, doca_error_t err, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	argp_msg(DOCA_LOG_LEVEL_ERROR, "%s", msg);
	argp_print_usage(r->scope, false);
	return err;
}

static doca_error_t out_of_memory(void)
{
	argp_msg(DOCA_LOG_LEVEL_ERROR, "out of memory while parsing the flags");
	return DOCA_ERROR_NO_MEMORY;
}

/* Lookups in a scope: its own flags, then the inherited flags of the enclosing scopes. */

static struct doca_argp_param *find_flag(const struct doca_argp_cmd *scope, const char *name, size_t len, bool is_long)
{
	const struct doca_argp_cmd *s;
	struct doca_argp_param *p;

	for (s = scope; s != NULL; s = s->parent) {
		for (p = s->params; p != NULL; p = p->next) {
			const char *n = is_long ? p->long_name : p->short_name;

			if (s != scope && !p->inherited)
				continue;
			if (n != NULL && strlen(n) == len && memcmp(n, name, len) == 0)
				return p;
		}
	}
	return NULL;
}

static struct doca_argp_cmd *find_cmd(const struct doca_argp_cmd *scope, const char *name)
{
	struct doca_argp_cmd *c;

	for (c = scope->cmds; c != NULL; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* The flag a token names ("-ld", "--device", "--device=x"), or NULL. */
static struct doca_argp_param *token_flag(const struct doca_argp_cmd *scope, const char *tok)
{
	const char *name, *eq;
	bool is_long;

	if (tok[0] != '-' || tok[1] == '\0')
		return NULL;
	is_long = tok[1] == '-';
	name = tok + (is_long ? 2 : 1);
	eq = is_long ? strchr(name, '=') : NULL;
	return find_flag(scope, name, eq ? (size_t)(eq - name) : strlen(name), is_long);
}

/* Events */

static struct argp_event *push_event(void)
{
	struct argp_event *ev = calloc(1, sizeof(*ev));

	if (ev == NULL)
		return NULL;
	*argp.events_tail = ev;
	argp.events_tail = &ev->next;
	return ev;
}

void argp_reset_run(void)
{
	struct doca_argp_param *p;
	int i;

	while (argp.events != NULL) {
		struct argp_event *ev = argp.events;

		argp.events = ev->next;
		free(ev->str_value);
		free(ev);
	}
	argp.events_tail = &argp.events;
	while (argp.trees != NULL) {
		struct argp_tree *t = argp.trees;

		argp.trees = t->next;
		argp_json_free(t->root);
		free(t);
	}
	for (i = 0; i < argp.dpdk_argc; i++)
		free(argp.dpdk_argv[i]);
	free(argp.dpdk_argv);
	argp.dpdk_argv = NULL;
	argp.dpdk_argc = 0;
	for (p = argp.all_params; p != NULL; p = p->all_next)
		p->seen = 0;
}

static doca_error_t keep_tree(struct softdoca_argp_json *root)
{
	struct argp_tree *t = calloc(1, sizeof(*t));

	if (t == NULL) {
		argp_json_free(root);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->root = root;
	t->next = argp.trees;
	argp.trees = t;
	return DOCA_SUCCESS;
}

static doca_error_t dpdk_add(const char *arg, size_t len)
{
	char **v = realloc(argp.dpdk_argv, (size_t)(argp.dpdk_argc + 2) * sizeof(*v));

	if (v == NULL)
		return DOCA_ERROR_NO_MEMORY;
	argp.dpdk_argv = v;
	v[argp.dpdk_argc] = strndup(arg, len);
	if (v[argp.dpdk_argc] == NULL)
		return DOCA_ERROR_NO_MEMORY;
	v[++argp.dpdk_argc] = NULL;
	return DOCA_SUCCESS;
}

/* Value conversion */

/* A decimal integer; values up to UINT_MAX are kept as their 32-bit pattern (read as uint32_t). */
static bool parse_int(const char *text, int *out)
{
	long long v;
	char *end;

	if (text[0] == '\0' || text[0] == ' ' || text[0] == '\t')
		return false;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || *end != '\0' || v < INT_MIN || v > (long long)UINT_MAX)
		return false;
	*out = v > INT_MAX ? (int)(unsigned int)v : (int)v;
	return true;
}

static bool level_ok(int v)
{
	return v >= DOCA_LOG_LEVEL_DISABLE && v <= DOCA_LOG_LEVEL_TRACE && v % 10 == 0;
}

/* Refuses a second occurrence of a single-value flag. */
static doca_error_t count_occurrence(const struct run *r, struct doca_argp_param *p, const char *where)
{
	char name[256];

	if (p->seen > 0 && !p->multi)
		return input_error(r, DOCA_ERROR_INVALID_VALUE, "%s%sflag %s given more than once; it takes a single value",
				   where ? where : "", where ? ": " : "", argp_flag_name(p, name, sizeof(name)));
	p->seen++;
	return DOCA_SUCCESS;
}

/* Checks an INT value (log levels have a fixed set) and records it. */
static doca_error_t record_int(const struct run *r, struct doca_argp_param *p, int v, const char *where)
{
	struct argp_event *ev;
	char name[256];

	if ((p == argp.p_log || p == argp.p_sdk_log) && !level_ok(v))
		return input_error(r, DOCA_ERROR_INVALID_VALUE,
				   "%s%sflag %s: %d is not a log level; use 10, 20, 30, 40, 50, 60 or 70",
				   where ? where : "", where ? ": " : "", argp_flag_name(p, name, sizeof(name)), v);
	ev = push_event();
	if (ev == NULL)
		return out_of_memory();
	ev->param = p;
	ev->int_value = v;
	return DOCA_SUCCESS;
}

static doca_error_t record_bool(struct doca_argp_param *p)
{
	struct argp_event *ev = push_event();

	if (ev == NULL)
		return out_of_memory();
	ev->param = p;
	ev->bool_value = true;
	return DOCA_SUCCESS;
}

static doca_error_t record_string(struct doca_argp_param *p, const char *text)
{
	char *copy = strdup(text);
	struct argp_event *ev;

	if (copy == NULL)
		return out_of_memory();
	ev = push_event();
	if (ev == NULL) {
		free(copy);
		return out_of_memory();
	}
	ev->param = p;
	ev->str_value = copy;
	return DOCA_SUCCESS;
}

static doca_error_t record_double(struct doca_argp_param *p, double v)
{
	struct argp_event *ev = push_event();

	if (ev == NULL)
		return out_of_memory();
	ev->param = p;
	ev->double_value = v;
	return DOCA_SUCCESS;
}

/* A whole finite number, as strtod reads it. */
static bool parse_double(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end != '\0' || errno == ERANGE || v != v || v - v != 0)
		return false;
	*out = v;
	return true;
}

static doca_error_t record_json(struct doca_argp_param *p, const struct softdoca_argp_json *v)
{
	struct argp_event *ev = push_event();

	if (ev == NULL)
		return out_of_memory();
	ev->param = p;
	ev->json_value = v;
	return DOCA_SUCCESS;
}

/* A boolean flag's value: none (a bare flag) is on, so are "true" and "1"; "false" and "0" are off. */
static doca_error_t bool_text(const struct run *r, const struct doca_argp_param *p, const char *text, bool *on)
{
	char name[256];

	*on = text == NULL || strcasecmp(text, "true") == 0 || strcmp(text, "1") == 0;
	if (*on || strcasecmp(text, "false") == 0 || strcmp(text, "0") == 0)
		return DOCA_SUCCESS;
	return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s takes no value (or =true/=false), got \"%s\"",
			   argp_flag_name(p, name, sizeof(name)), text);
}

/* A value given on the command line (text is NULL for a bare boolean flag). */
static doca_error_t take_text(const struct run *r, struct doca_argp_param *p, const char *text)
{
	struct softdoca_argp_json *tree;
	struct argp_json_error jerr;
	char name[256];
	doca_error_t err;
	double dv;
	int v;

	argp_flag_name(p, name, sizeof(name));
	if (p->type == DOCA_ARGP_TYPE_BOOLEAN) {
		bool on;

		err = bool_text(r, p, text, &on);
		if (err != DOCA_SUCCESS || !on)
			return err; /* explicitly off: as if absent */
	}
	err = count_occurrence(r, p, NULL);
	if (err != DOCA_SUCCESS)
		return err;
	switch (p->type) {
	case DOCA_ARGP_TYPE_BOOLEAN:
		return record_bool(p);
	case DOCA_ARGP_TYPE_INT:
		if (!parse_int(text, &v))
			return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s expects an integer, got \"%s\"", name,
					   text);
		return record_int(r, p, v, NULL);
	case DOCA_ARGP_TYPE_STRING:
	case DOCA_ARGP_TYPE_DEVICE:
	case DOCA_ARGP_TYPE_DEVICE_REP:
		return record_string(p, text);
	case DOCA_ARGP_TYPE_DOUBLE:
		if (!parse_double(text, &dv))
			return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s expects a number, got \"%s\"", name,
					   text);
		return record_double(p, dv);
	case DOCA_ARGP_TYPE_JSON_OBJ:
		tree = argp_json_parse(text, strlen(text), &jerr);
		if (tree == NULL && jerr.line == 0)
			return out_of_memory();
		if (tree == NULL)
			return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s: invalid JSON (line %d of the value): %s",
					   name, jerr.line, jerr.msg);
		if (keep_tree(tree) != DOCA_SUCCESS)
			return out_of_memory();
		if (tree->type != SOFTDOCA_ARGP_JSON_OBJECT)
			return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s expects a JSON object ({...}), got %s",
					   name, argp_json_type_name(tree->type));
		return record_json(p, tree);
	default:
		return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s has no usable type", name);
	}
}

/* One JSON value for a flag (an element of its array for a multi-value flag). */
static doca_error_t take_json_one(const struct run *r, struct doca_argp_param *p, const struct softdoca_argp_json *v,
				  const char *where)
{
	static const enum softdoca_argp_json_type want[] = {
		[DOCA_ARGP_TYPE_STRING] = SOFTDOCA_ARGP_JSON_STRING,
		[DOCA_ARGP_TYPE_INT] = SOFTDOCA_ARGP_JSON_NUMBER,
		[DOCA_ARGP_TYPE_BOOLEAN] = SOFTDOCA_ARGP_JSON_BOOLEAN,
		[DOCA_ARGP_TYPE_JSON_OBJ] = SOFTDOCA_ARGP_JSON_OBJECT,
		[DOCA_ARGP_TYPE_DEVICE] = SOFTDOCA_ARGP_JSON_STRING,
		[DOCA_ARGP_TYPE_DEVICE_REP] = SOFTDOCA_ARGP_JSON_STRING,
		[DOCA_ARGP_TYPE_DOUBLE] = SOFTDOCA_ARGP_JSON_NUMBER,
	};
	static const char *const want_text[] = {
		[DOCA_ARGP_TYPE_STRING] = "a string",
		[DOCA_ARGP_TYPE_INT] = "an integer",
		[DOCA_ARGP_TYPE_BOOLEAN] = "true or false",
		[DOCA_ARGP_TYPE_JSON_OBJ] = "an object",
		[DOCA_ARGP_TYPE_DEVICE] = "a device (string)",
		[DOCA_ARGP_TYPE_DEVICE_REP] = "a representor (string)",
		[DOCA_ARGP_TYPE_DOUBLE] = "a number",
	};
	char name[256];
	doca_error_t err;
	double dv = 0;
	int iv = 0;

	argp_flag_name(p, name, sizeof(name));
	/* As on the command line: 1e999 (infinity) or 1e-999 (underflow) is refused. */
	if (p->type == DOCA_ARGP_TYPE_DOUBLE && v->type == SOFTDOCA_ARGP_JSON_NUMBER && !parse_double(v->string, &dv))
		return input_error(r, DOCA_ERROR_INVALID_VALUE,
				   "%s:%d: flag %s expects a number, got %s (out of the range of a double)", where, v->line,
				   name, v->string);
	if (v->type != want[p->type] ||
	    (p->type == DOCA_ARGP_TYPE_INT && (strpbrk(v->string, ".eE") || !parse_int(v->string, &iv))))
		return input_error(r, DOCA_ERROR_INVALID_VALUE, "%s:%d: flag %s expects %s, got %s%s%s%s", where,
				   v->line, name, want_text[p->type], argp_json_type_name(v->type),
				   v->type == SOFTDOCA_ARGP_JSON_NUMBER ? " (" : "",
				   v->type == SOFTDOCA_ARGP_JSON_NUMBER ? v->string : "",
				   v->type == SOFTDOCA_ARGP_JSON_NUMBER ? ")" : "");
	if (p->type == DOCA_ARGP_TYPE_BOOLEAN && !v->boolean)
		return DOCA_SUCCESS; /* false: as if absent */
	err = count_occurrence(r, p, where);
	if (err != DOCA_SUCCESS)
		return err;
	switch (p->type) {
	case DOCA_ARGP_TYPE_BOOLEAN:
		return record_bool(p);
	case DOCA_ARGP_TYPE_INT:
		return record_int(r, p, iv, where);
	case DOCA_ARGP_TYPE_STRING:
	case DOCA_ARGP_TYPE_DEVICE:
	case DOCA_ARGP_TYPE_DEVICE_REP:
		return record_string(p, v->string);
	case DOCA_ARGP_TYPE_DOUBLE:
		return record_double(p, dv);
	default:
		return record_json(p, v);
	}
}

static doca_error_t take_json(const struct run *r, struct doca_argp_param *p, const struct softdoca_argp_json *v,
			      const char *file)
{
	char name[256];
	doca_error_t err;
	size_t i;

	if (p->cli_only)
		return input_error(r, DOCA_ERROR_NOT_SUPPORTED,
				   "%s:%d: flag %s is accepted on the command line only; remove it from the file", file,
				   v->line, argp_flag_name(p, name, sizeof(name)));
	if (v->type != SOFTDOCA_ARGP_JSON_ARRAY)
		return take_json_one(r, p, v, file);
	if (!p->multi)
		return input_error(r, DOCA_ERROR_INVALID_VALUE,
				   "%s:%d: flag %s takes a single value, not an array", file, v->line,
				   argp_flag_name(p, name, sizeof(name)));
	for (i = 0; i < v->count; i++) {
		err = take_json_one(r, p, &v->items[i], file);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

/* JSON files */

/* "doca_dpdk_flags": devices -> -a <id>, core-mask -> -c, core-list -> -l, flags -> split on blanks. */
static doca_error_t dpdk_from_json(const struct run *r, const struct softdoca_argp_json *obj, const char *file)
{
	size_t i, j;

	for (i = 0; i < obj->count; i++) {
		const struct softdoca_argp_json *v = &obj->items[i];
		doca_error_t err = DOCA_SUCCESS;

		if (strcmp(v->key, "devices") == 0 && v->type == SOFTDOCA_ARGP_JSON_ARRAY) {
			for (j = 0; j < v->count && err == DOCA_SUCCESS; j++) {
				const struct softdoca_argp_json *id = argp_json_get(&v->items[j], "id");

				if (id == NULL || id->type != SOFTDOCA_ARGP_JSON_STRING)
					return input_error(r, DOCA_ERROR_INVALID_VALUE,
							   "%s:%d: each DPDK device needs an \"id\" string", file,
							   v->items[j].line);
				err = dpdk_add("-a", 2);
				if (err == DOCA_SUCCESS)
					err = dpdk_add(id->string, strlen(id->string));
			}
		} else if ((strcmp(v->key, "core-mask") == 0 || strcmp(v->key, "core-list") == 0) &&
			   (v->type == SOFTDOCA_ARGP_JSON_STRING || v->type == SOFTDOCA_ARGP_JSON_NUMBER)) {
			err = dpdk_add(v->key[5] == 'm' ? "-c" : "-l", 2);
			if (err == DOCA_SUCCESS)
				err = dpdk_add(v->string, strlen(v->string));
		} else if (strcmp(v->key, "flags") == 0 && v->type == SOFTDOCA_ARGP_JSON_STRING) {
			const char *s = v->string;

			while (*s != '\0' && err == DOCA_SUCCESS) {
				size_t n;

				s += strspn(s, " \t");
				n = strcspn(s, " \t");
				if (n > 0)
					err = dpdk_add(s, n);
				s += n;
			}
		} else {
			return input_error(r, DOCA_ERROR_NOT_SUPPORTED,
					   "%s:%d: unsupported doca_dpdk_flags entry \"%s\"; use devices (array), "
					   "core-mask, core-list or flags (string)",
					   file, v->line, v->key);
		}
		if (err != DOCA_SUCCESS)
			return out_of_memory();
	}
	return DOCA_SUCCESS;
}

static doca_error_t apply_object(struct run *r, const struct softdoca_argp_json *obj, const char *file,
				 const struct doca_argp_cmd *scope)
{
	size_t i;

	for (i = 0; i < obj->count; i++) {
		const struct softdoca_argp_json *v = &obj->items[i];
		struct doca_argp_param *p = find_flag(scope, v->key, strlen(v->key), true);
		struct argp_event *ev;
		struct doca_argp_cmd *cmd;
		doca_error_t err;

		if (p != NULL) {
			err = take_json(r, p, v, file);
		} else if ((strcmp(v->key, "doca_general_flags") == 0 || strcmp(v->key, "doca_program_flags") == 0) &&
			   v->type == SOFTDOCA_ARGP_JSON_OBJECT) {
			/* DOCA's sectioned layout: the sections hold flags of the same scope. */
			err = apply_object(r, v, file, scope);
		} else if (strcmp(v->key, "doca_dpdk_flags") == 0 && v->type == SOFTDOCA_ARGP_JSON_OBJECT) {
			if (argp.dpdk_cb == NULL) {
				SDK_LOG_DBG("%s: doca_dpdk_flags ignored, the program is not a DPDK program", file);
				continue;
			}
			err = dpdk_from_json(r, v, file);
		} else if ((cmd = find_cmd(scope, v->key)) != NULL) {
			if (v->type != SOFTDOCA_ARGP_JSON_OBJECT)
				return input_error(r, DOCA_ERROR_INVALID_VALUE,
						   "%s:%d: command \"%s\" takes an object holding its flags", file, v->line,
						   v->key);
			if (r->scope != scope)
				return input_error(r, DOCA_ERROR_INVALID_VALUE,
						   "%s:%d: command \"%s\": another command is already selected; give one",
						   file, v->line, v->key);
			ev = push_event();
			if (ev == NULL)
				return out_of_memory();
			ev->cmd = cmd;
			r->scope = cmd;
			err = apply_object(r, v, file, cmd);
		} else {
			return input_error(r, DOCA_ERROR_NOT_SUPPORTED,
					   "%s:%d: unknown flag \"%s\"; keys are the long flag names listed below", file,
					   v->line, v->key);
		}
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

/* The whole -j file, NUL-terminated, into *text (to free): softhw_small_file_read's rule, at
 * most JSON_FILE_MAX bytes. Reports why. */
static doca_error_t read_file(const struct run *r, const char *path, char **text, size_t *len)
{
	struct softhw_small_file f = {0};

	switch (softhw_small_file_read(path, JSON_FILE_MAX, &f)) {
	case SOFTHW_SMALL_FILE_OK:
		*text = f.text;
		*len = f.len;
		return DOCA_SUCCESS;
	case SOFTHW_SMALL_FILE_NOT_REGULAR:
		return input_error(r, DOCA_ERROR_IO_FAILED,
				   "cannot read JSON file \"%s\" (-j/--json): it is %s; give a regular file or a pipe", path,
				   softhw_file_kind(f.mode));
	case SOFTHW_SMALL_FILE_TOO_BIG:
		if (S_ISFIFO(f.mode))
			return input_error(r, DOCA_ERROR_IO_FAILED,
					   "cannot read JSON file \"%s\" (-j/--json): the pipe sent more than the limit of %u bytes",
					   path, JSON_FILE_MAX);
		return input_error(r, DOCA_ERROR_IO_FAILED,
				   "cannot read JSON file \"%s\" (-j/--json): it is %lld bytes, more than the limit of %u bytes",
				   path, f.size, JSON_FILE_MAX);
	case SOFTHW_SMALL_FILE_TIMEOUT:
		return input_error(r, DOCA_ERROR_IO_FAILED,
				   "cannot read JSON file \"%s\" (-j/--json): it is a pipe, and nothing more came from it "
				   "for %d ms; its writer must write the JSON and close it",
				   path, softhw_small_file_pipe_ms());
	case SOFTHW_SMALL_FILE_NO_MEMORY:
		return out_of_memory();
	case SOFTHW_SMALL_FILE_CHANGED:
		return input_error(r, DOCA_ERROR_IO_FAILED,
				   "cannot read JSON file \"%s\" (-j/--json): it changed while it was read", path);
	default: /* OPEN, READ: errno */
		return input_error(r, DOCA_ERROR_IO_FAILED, "cannot read JSON file \"%s\" (-j/--json): %s", path,
				   strerror(errno));
	}
}

static doca_error_t load_json(struct run *r, const char *path)
{
	struct softdoca_argp_json *root;
	struct argp_json_error jerr;
	char *text = NULL;
	size_t len = 0;
	doca_error_t err;

	err = read_file(r, path, &text, &len);
	if (err != DOCA_SUCCESS)
		return err;
	root = argp_json_parse(text, len, &jerr);
	free(text);
	if (root == NULL && jerr.line == 0)
		return out_of_memory();
	if (root == NULL)
		return input_error(r, DOCA_ERROR_INVALID_VALUE, "%s:%d: JSON syntax error: %s", path, jerr.line,
				   jerr.msg);
	if (keep_tree(root) != DOCA_SUCCESS)
		return out_of_memory();
	if (root->type != SOFTDOCA_ARGP_JSON_OBJECT)
		return input_error(r, DOCA_ERROR_INVALID_VALUE,
				   "%s:%d: the file must hold one object whose keys are long flag names", path,
				   root->line);
	return apply_object(r, root, path, r->scope);
}

/* Command line */

static void __attribute__((noreturn)) exit_after_usage(const struct doca_argp_cmd *scope)
{
	argp_print_usage(scope, true);
	doca_argp_destroy();
	exit(EXIT_SUCCESS);
}

static doca_error_t handle_version(const struct run *r)
{
	bool on = true;
	doca_error_t err;

	if (argp.version_cb == NULL) {
		printf("DOCA SDK Version: %s\n", DOCA_VERSION_STRING);
		fflush(stdout);
		doca_argp_destroy();
		exit(EXIT_SUCCESS);
	}
	err = argp.version_cb(&on, argp.config);
	if (err != DOCA_SUCCESS)
		argp_msg(DOCA_LOG_LEVEL_ERROR, "the program's version callback failed: %s", doca_error_get_name(err));
	return err;
}

static doca_error_t parse_tokens(struct run *r, char **argv, int first, int last)
{
	int i;

	for (i = first; i < last; i++) {
		const char *tok = argv[i], *value = NULL;
		struct doca_argp_param *p;
		struct argp_event *ev;
		struct doca_argp_cmd *cmd;
		char name[256];
		doca_error_t err;

		if (tok == NULL)
			return input_error(r, DOCA_ERROR_INVALID_VALUE, "argv[%d] is NULL", i);
		if (strcmp(tok, "--") == 0)
			continue; /* DPDK programs' separator; harmless elsewhere */
		if (tok[0] != '-' || tok[1] == '\0') {
			cmd = find_cmd(r->scope, tok);
			if (cmd == NULL)
				return input_error(r, DOCA_ERROR_NOT_SUPPORTED,
						   r->scope->cmds ? "unknown command \"%s\"; the commands are listed below"
								  : "unexpected argument \"%s\"; every value follows its flag",
						   tok);
			ev = push_event();
			if (ev == NULL)
				return out_of_memory();
			ev->cmd = cmd;
			r->scope = cmd;
			continue;
		}
		p = token_flag(r->scope, tok);
		if (p == NULL) {
			size_t n = strcspn(tok, "=");

			return input_error(r, DOCA_ERROR_NOT_SUPPORTED,
					   "unknown flag \"%.*s\"; the flags are listed below (short names are "
					   "matched whole: -ab is not -a -b)",
					   (int)(tok[1] == '-' ? n : strlen(tok)), tok);
		}
		if (tok[1] == '-' && strchr(tok, '=') != NULL)
			value = strchr(tok, '=') + 1;
		if (p == argp.p_help || p == argp.p_version) {
			bool on;

			err = bool_text(r, p, value, &on);
			if (err != DOCA_SUCCESS)
				return err;
			if (!on)
				continue;
		}
		if (p == argp.p_help)
			exit_after_usage(r->scope);
		if (p == argp.p_version) {
			err = handle_version(r);
			if (err != DOCA_SUCCESS)
				return err;
			continue;
		}
		if (p->type != DOCA_ARGP_TYPE_BOOLEAN && value == NULL) {
			if (i + 1 >= last || argv[i + 1] == NULL || token_flag(r->scope, argv[i + 1]) != NULL)
				return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s needs a value: %s %s",
						   argp_flag_name(p, name, sizeof(name)), tok,
						   p->arguments ? p->arguments : "<value>");
			value = argv[++i];
		}
		if (p == argp.p_json) {
			err = count_occurrence(r, p, NULL);
			if (err == DOCA_SUCCESS)
				err = load_json(r, value);
		} else {
			err = take_text(r, p, value);
		}
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

/* Checks over the whole input */

static doca_error_t check_mandatory(const struct run *r)
{
	const struct doca_argp_cmd *s;
	const struct doca_argp_param *p;
	char list[1024] = "", name[256];
	size_t used = 0;
	int missing = 0;

	for (s = r->scope; s != NULL; s = s->parent) {
		for (p = s->params; p != NULL; p = p->next) {
			if (!p->mandatory || p->seen > 0)
				continue;
			missing++;
			if (used < sizeof(list))
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s%s%s",
							 missing > 1 ? ", " : "", argp_flag_name(p, name, sizeof(name)),
							 p->arguments ? " " : "", p->arguments ? p->arguments : "");
		}
	}
	if (missing == 0)
		return DOCA_SUCCESS;
	return input_error(r, DOCA_ERROR_INVALID_VALUE, "missing mandatory flag%s: %s", missing > 1 ? "s" : "", list);
}

static doca_error_t check_singular(const struct run *r)
{
	const struct argp_event *ev;
	const struct doca_argp_param *single = NULL;
	unsigned int flags = 0;
	char name[256];

	for (ev = argp.events; ev != NULL; ev = ev->next) {
		if (ev->param == NULL || ev->param->builtin)
			continue;
		flags++;
		if (ev->param->singular)
			single = ev->param;
	}
	if (single == NULL || flags <= 1)
		return DOCA_SUCCESS;
	return input_error(r, DOCA_ERROR_INVALID_VALUE, "flag %s must be used alone; drop the other program flags",
			   argp_flag_name(single, name, sizeof(name)));
}

/* Second pass */

static doca_error_t apply_log_levels(void)
{
	const struct argp_event *ev;
	doca_error_t err;

	for (ev = argp.events; ev != NULL; ev = ev->next) {
		if (ev->param == argp.p_log) {
			err = doca_log_level_set_global_lower_limit((uint32_t)ev->int_value);
			if (err != DOCA_SUCCESS) {
				argp_msg(DOCA_LOG_LEVEL_ERROR, "cannot set log level %d: %s", ev->int_value,
					 doca_error_get_name(err));
				return err;
			}
			argp.log_level = ev->int_value;
		} else if (ev->param == argp.p_sdk_log) {
			err = doca_log_level_set_global_sdk_limit((uint32_t)ev->int_value);
			if (err != DOCA_SUCCESS) {
				argp_msg(DOCA_LOG_LEVEL_ERROR, "cannot set SDK log level %d: %s", ev->int_value,
					 doca_error_get_name(err));
				return err;
			}
			argp.sdk_log_level = ev->int_value;
		}
	}
	return DOCA_SUCCESS;
}

static doca_error_t call_program(const struct run *r)
{
	struct argp_event *ev;
	bool by_program;
	char name[256];
	doca_error_t err;

	for (ev = argp.events; ev != NULL; ev = ev->next) {
		if (ev->cmd != NULL) {
			if (ev->cmd->callback == NULL)
				continue;
			err = ev->cmd->callback(argp.config);
			if (err != DOCA_SUCCESS) {
				argp_msg(DOCA_LOG_LEVEL_ERROR, "command \"%s\" failed: %s", ev->cmd->name,
					 doca_error_get_name(err));
				return err;
			}
			continue;
		}
		if (ev->param->builtin)
			continue;
		switch (ev->param->type) {
		case DOCA_ARGP_TYPE_STRING:
			err = ev->param->callback(ev->str_value, argp.config);
			break;
		case DOCA_ARGP_TYPE_INT:
			err = ev->param->callback(&ev->int_value, argp.config);
			break;
		case DOCA_ARGP_TYPE_BOOLEAN:
			err = ev->param->callback(&ev->bool_value, argp.config);
			break;
		case DOCA_ARGP_TYPE_DOUBLE:
			err = ev->param->callback(&ev->double_value, argp.config);
			break;
		case DOCA_ARGP_TYPE_DEVICE:
		case DOCA_ARGP_TYPE_DEVICE_REP:
			err = argp_call_device(ev->param, ev->str_value, &by_program);
			if (err != DOCA_SUCCESS && !by_program) {
				/* Its line already said what was wrong: a second one could quote only the
				 * device part of a DEVICE_REP value (the value is cut at its commas). */
				argp_print_usage(r->scope, false);
				return err;
			}
			break;
		default:
			err = ev->param->callback((void *)ev->json_value, argp.config);
			break;
		}
		if (err != DOCA_SUCCESS)
			return input_error(r, err, "flag %s: the program rejected its value (%s)",
					   argp_flag_name(ev->param, name, sizeof(name)), doca_error_get_name(err));
	}
	return DOCA_SUCCESS;
}

static bool doca_only_token(const char *tok)
{
	static const char *const flags[] = {"-h", "--help", "-v", "--version", "-j", "--json"};
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (strcmp(tok, flags[i]) == 0 || (flags[i][1] == '-' && strncmp(tok, "--json=", 7) == 0))
			return true;
	return false;
}

doca_error_t argp_run(int argc, char **argv)
{
	struct run r = {.scope = &argp.root};
	int first = 1, i;
	doca_error_t err;

	if (argp.prog_name == NULL && argc > 0 && argv[0] != NULL && argv[0][0] != '\0') {
		argp.prog_name = strdup(basename(argv[0]));
		if (argp.prog_name == NULL)
			return out_of_memory();
	}
	if (argp.dpdk_cb != NULL) {
		/* [DPDK flags] -- [DOCA flags]; without "--" everything is DPDK's unless it is -h/-v/-j. */
		const char *arg0 = argc > 0 && argv[0] != NULL ? argv[0] : argp_prog_name();
		int sep = -1;

		for (i = 1; i < argc && sep < 0; i++)
			if (argv[i] != NULL && strcmp(argv[i], "--") == 0)
				sep = i;
		if (dpdk_add(arg0, strlen(arg0)) != DOCA_SUCCESS)
			return out_of_memory();
		if (sep < 0 && argc > 1 && argv[1] != NULL && doca_only_token(argv[1]))
			sep = 0;
		else if (sep < 0)
			sep = argc;
		for (i = 1; i < sep; i++)
			if (argv[i] == NULL || dpdk_add(argv[i], strlen(argv[i])) != DOCA_SUCCESS)
				return argv[i] == NULL ? DOCA_ERROR_INVALID_VALUE : out_of_memory();
		first = sep + 1;
	}
	err = parse_tokens(&r, argv, first, argc);
	if (err == DOCA_SUCCESS)
		err = check_mandatory(&r);
	if (err == DOCA_SUCCESS)
		err = check_singular(&r);
	if (err == DOCA_SUCCESS)
		err = apply_log_levels();
	if (err == DOCA_SUCCESS && argp.dpdk_cb != NULL) {
		err = argp.dpdk_cb(argp.dpdk_argc, argp.dpdk_argv);
		if (err != DOCA_SUCCESS)
			argp_msg(DOCA_LOG_LEVEL_ERROR, "the DPDK flags were refused: %s", doca_error_get_name(err));
	}
	if (err == DOCA_SUCCESS)
		err = call_program(&r);
	if (err == DOCA_SUCCESS && argp.validation_cb != NULL) {
		err = argp.validation_cb(argp.config);
		if (err != DOCA_SUCCESS)
			input_error(&r, err, "the program's validation of its flags failed: %s", doca_error_get_name(err));
	}
	return err;
}
