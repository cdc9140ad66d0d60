/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA argp: the parser's state, params and commands, the registration API and the usage
 * text. Parsing itself (doca_argp_start) lives in parse.c.
 *
 * Every param and command ever created is on a list, so a pointer handed back by the program
 * is checked against it before use: a stale or foreign pointer is refused, never followed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "argp_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(ARGP);

#define LEVEL_RANGE "<10=DISABLE, 20=CRITICAL, 30=ERROR, 40=WARNING, 50=INFO, 60=DEBUG, 70=TRACE>"
#define USAGE_DESC_COLUMN 36

struct argp_state argp;

/* Lookups of program-supplied pointers */

static bool param_known(const struct doca_argp_param *p)
{
	const struct doca_argp_param *it;

	for (it = argp.all_params; it != NULL; it = it->all_next)
		if (it == p)
			return true;
	return false;
}

static bool cmd_known(const struct doca_argp_cmd *c)
{
	const struct doca_argp_cmd *it;

	for (it = argp.all_cmds; it != NULL; it = it->all_next)
		if (it == c)
			return true;
	return false;
}

/* A param a setter may change: known and not yet registered. */
static struct doca_argp_param *param_for_setter(struct doca_argp_param *p, const char *setter)
{
	if (p == NULL || !param_known(p)) {
		SDK_LOG_ERR("%s: unknown param; pass one returned by doca_argp_param_create", setter);
		return NULL;
	}
	if (p->owner != NULL) {
		SDK_LOG_ERR("%s: param already registered; call setters before doca_argp_register_param", setter);
		return NULL;
	}
	return p;
}

static struct doca_argp_cmd *cmd_for_setter(struct doca_argp_cmd *c, const char *setter)
{
	if (c == NULL || !cmd_known(c)) {
		SDK_LOG_ERR("%s: unknown command; pass one returned by doca_argp_cmd_create", setter);
		return NULL;
	}
	if (c->registered) {
		SDK_LOG_ERR("%s: command already registered; call setters before registering it", setter);
		return NULL;
	}
	return c;
}

/* Replaces *dst with a copy of src (NULL clears); remembers a failed copy in *oom. */
static void set_string(char **dst, const char *src, bool *oom)
{
	char *copy = NULL;

	if (src != NULL) {
		copy = strdup(src);
		if (copy == NULL) {
			*oom = true;
			return;
		}
	}
	free(*dst);
	*dst = copy;
}

/* Object lifetime */

static void param_free(struct doca_argp_param *p)
{
	struct doca_argp_param **it;

	for (it = &argp.all_params; *it != NULL; it = &(*it)->all_next) {
		if (*it == p) {
			*it = p->all_next;
			break;
		}
	}
	free(p->short_name);
	free(p->long_name);
	free(p->arguments);
	free(p->description);
	free(p);
}

static void cmd_free_contents(struct doca_argp_cmd *c)
{
	while (c->params != NULL) {
		struct doca_argp_param *p = c->params;

		c->params = p->next;
		param_free(p);
	}
	while (c->cmds != NULL) {
		struct doca_argp_cmd *sub = c->cmds;
		struct doca_argp_cmd **it;

		c->cmds = sub->next;
		cmd_free_contents(sub);
		for (it = &argp.all_cmds; *it != NULL; it = &(*it)->all_next) {
			if (*it == sub) {
				*it = sub->all_next;
				break;
			}
		}
		free(sub);
	}
	free(c->name);
	free(c->description);
	c->name = NULL;
	c->description = NULL;
}

static void cmd_free(struct doca_argp_cmd *c)
{
	struct doca_argp_cmd **it;

	cmd_free_contents(c);
	for (it = &argp.all_cmds; *it != NULL; it = &(*it)->all_next) {
		if (*it == c) {
			*it = c->all_next;
			break;
		}
	}
	free(c);
}

static doca_error_t param_alloc(struct doca_argp_param **out)
{
	struct doca_argp_param *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return DOCA_ERROR_NO_MEMORY;
	p->all_next = argp.all_params;
	argp.all_params = p;
	*out = p;
	return DOCA_SUCCESS;
}

/* Names and messages */

const char *argp_flag_name(const struct doca_argp_param *p, char *buf, size_t len)
{
	if (p->short_name != NULL && p->long_name != NULL)
		snprintf(buf, len, "-%s/--%s", p->short_name, p->long_name);
	else if (p->long_name != NULL)
		snprintf(buf, len, "--%s", p->long_name);
	else
		snprintf(buf, len, "-%s", p->short_name ? p->short_name : "?");
	return buf;
}

const char *argp_prog_name(void)
{
	if (argp.prog_name != NULL)
		return argp.prog_name;
	return program_invocation_short_name;
}

static void call_logger(enum doca_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	argp.logger_cb(level, fmt, ap);
	va_end(ap);
}

void argp_msg(enum doca_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (argp.logger_cb != NULL) {
		argp.logger_cb(level, fmt, ap);
	} else {
		fprintf(stderr, "%s: ", argp_prog_name());
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

/* Usage text */

static bool param_visible(const struct doca_argp_param *p)
{
	return !p->hidden;
}

/* "  -d, --device <IB device name>" */
static int flag_column(const struct doca_argp_param *p, char *buf, size_t len)
{
	int n = snprintf(buf, len, "  %s%s%s%s%s%s%s", p->short_name ? "-" : "", p->short_name ? p->short_name : "",
			 p->short_name && p->long_name ? ", " : "", p->long_name ? "--" : "",
			 p->long_name ? p->long_name : "", p->arguments ? " " : "", p->arguments ? p->arguments : "");

	return n < 0 ? 0 : n;
}

static void usage_line(FILE *out, const char *left, int column, const char *desc)
{
	const char *nl;

	fprintf(out, "%-*s", column, left);
	/* Continuation lines of a multi-line description stay in the description column. */
	while (desc != NULL && (nl = strchr(desc, '\n')) != NULL) {
		fprintf(out, "%.*s\n%*s", (int)(nl - desc), desc, column, "");
		desc = nl + 1;
	}
	fprintf(out, "%s\n", desc ? desc : "");
}

static int scope_width(const struct doca_argp_cmd *scope, int width)
{
	const struct doca_argp_cmd *s;
	const struct doca_argp_param *p;
	const struct doca_argp_cmd *c;
	char buf[512];

	for (s = scope; s != NULL; s = s->parent) {
		for (p = s->params; p != NULL; p = p->next) {
			int w;

			if (!param_visible(p) || (s != scope && !p->inherited))
				continue;
			w = flag_column(p, buf, sizeof(buf));
			if (w + 2 > width)
				width = w + 2;
		}
	}
	for (c = scope->cmds; c != NULL; c = c->next) {
		int w = 2 + (int)strlen(c->name);

		if (!c->hidden && w + 2 > width)
			width = w + 2;
	}
	return width;
}

static void usage_params(FILE *out, const char *title, const struct doca_argp_cmd *s, bool builtin,
			 bool inherited_only, int column)
{
	const struct doca_argp_param *p;
	char buf[512];
	bool any = false;

	for (p = s->params; p != NULL; p = p->next) {
		if (!param_visible(p) || p->builtin != builtin || (inherited_only && !p->inherited))
			continue;
		if (!any)
			fprintf(out, "\n%s:\n", title);
		any = true;
		flag_column(p, buf, sizeof(buf));
		usage_line(out, buf, column, p->description);
	}
}

static void cmd_path(FILE *out, const struct doca_argp_cmd *c)
{
	if (c == NULL || c->parent == NULL)
		return;
	cmd_path(out, c->parent);
	fprintf(out, " %s", c->name);
}

static void write_usage(FILE *out, const struct doca_argp_cmd *scope)
{
	const struct doca_argp_cmd *s, *c;
	int column = scope_width(scope, USAGE_DESC_COLUMN);
	bool has_cmds = false;
	char buf[512];

	for (c = scope->cmds; c != NULL; c = c->next)
		has_cmds |= !c->hidden;

	fprintf(out, "Usage: %s", argp_prog_name());
	cmd_path(out, scope);
	fprintf(out, "%s [DOCA Flags] [%s Flags]%s\n", argp.dpdk_cb ? " [DPDK Flags] --" : "",
		scope == &argp.root ? "Program" : "Command", has_cmds ? " <command> [Command Flags]" : "");

	usage_params(out, "DOCA Flags", &argp.root, true, false, column);
	if (scope == &argp.root) {
		usage_params(out, "Program Flags", &argp.root, false, false, column);
	} else {
		/* Flags of enclosing scopes that stay valid here, outermost first. */
		const struct doca_argp_cmd *chain[ARGP_JSON_MAX_DEPTH];
		int n = 0;

		for (s = scope->parent; s != NULL && n < ARGP_JSON_MAX_DEPTH; s = s->parent)
			chain[n++] = s;
		while (n-- > 0)
			usage_params(out, chain[n] == &argp.root ? "Program Flags" : "Inherited Flags", chain[n], false,
				     true, column);
		usage_params(out, "Command Flags", scope, false, false, column);
	}
	if (has_cmds) {
		fprintf(out, "\nCommands:\n");
		for (c = scope->cmds; c != NULL; c = c->next) {
			if (c->hidden)
				continue;
			snprintf(buf, sizeof(buf), "  %s", c->name);
			usage_line(out, buf, column, c->description);
		}
	}
}

void argp_print_usage(const struct doca_argp_cmd *scope, bool to_stdout)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (to_stdout || argp.logger_cb == NULL) {
		FILE *out = to_stdout ? stdout : stderr;

		if (!to_stdout)
			fputc('\n', out);
		write_usage(out, scope);
		fflush(out);
		return;
	}
	/* Through the logger: one call per line, without the newline. */
	mem = open_memstream(&text, &len);
	if (mem == NULL)
		return;
	write_usage(mem, scope);
	if (fclose(mem) == 0 && text != NULL) {
		char *line = text, *nl;

		while ((nl = strchr(line, '\n')) != NULL) {
			*nl = '\0';
			call_logger(DOCA_LOG_LEVEL_INFO, "%s", line);
			line = nl + 1;
		}
	}
	free(text);
}

/* Built-in DOCA flags */

static doca_error_t noop_cb(void *value, void *config)
{
	return DOCA_SUCCESS;
}

static doca_error_t add_builtin(const char *short_name, const char *long_name, const char *arguments,
				const char *description, enum doca_argp_type type, bool cli_only,
				struct doca_argp_param **out)
{
	struct doca_argp_param *p, **tail;
	bool oom = false;

	if (param_alloc(&p) != DOCA_SUCCESS)
		return DOCA_ERROR_NO_MEMORY;
	set_string(&p->short_name, short_name, &oom);
	set_string(&p->long_name, long_name, &oom);
	set_string(&p->arguments, arguments, &oom);
	set_string(&p->description, description, &oom);
	p->callback = noop_cb; /* parse.c acts on built-ins itself */
	p->type = type;
	p->cli_only = cli_only;
	p->inherited = true;
	p->builtin = true;
	p->owner = &argp.root;
	for (tail = &argp.root.params; *tail != NULL; tail = &(*tail)->next)
		;
	*tail = p;
	*out = p;
	return oom ? DOCA_ERROR_NO_MEMORY : DOCA_SUCCESS;
}

static doca_error_t add_builtins(void)
{
	doca_error_t err;

	err = add_builtin("h", "help", NULL, "Print a help synopsis", DOCA_ARGP_TYPE_BOOLEAN, true, &argp.p_help);
	if (err == DOCA_SUCCESS)
		err = add_builtin("v", "version", NULL, "Print program version information", DOCA_ARGP_TYPE_BOOLEAN,
				  true, &argp.p_version);
	if (err == DOCA_SUCCESS)
		err = add_builtin("l", "log-level", NULL, "Set the (numeric) log level for the program " LEVEL_RANGE,
				  DOCA_ARGP_TYPE_INT, false, &argp.p_log);
	if (err == DOCA_SUCCESS)
		err = add_builtin(NULL, "sdk-log-level", NULL,
				  "Set the SDK (numeric) log level for the program " LEVEL_RANGE, DOCA_ARGP_TYPE_INT,
				  false, &argp.p_sdk_log);
	if (err == DOCA_SUCCESS)
		err = add_builtin("j", "json", "<path>", "Parse all command flags from an input json file",
				  DOCA_ARGP_TYPE_STRING, true, &argp.p_json);
	return err;
}

/* Lifecycle */

/* Every call but doca_argp_init needs an initialized argp; says so in the caller's name (fn). */
static bool initialized(const char *fn)
{
	if (argp.initialized)
		return true;
	SDK_LOG_ERR("%s: argp is not initialized; call doca_argp_init first", fn);
	return false;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_init(const char *program_name, void *program_config)
{
	doca_error_t err;

	if (argp.initialized) {
		SDK_LOG_ERR("doca_argp_init: already initialized; call doca_argp_destroy before initializing again");
		return DOCA_ERROR_BAD_STATE;
	}
	if (program_name != NULL && program_name[0] == '\0') {
		SDK_LOG_ERR("doca_argp_init: empty program name; pass NULL to take it from argv[0]");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(&argp, 0, sizeof(argp));
	argp.initialized = true;
	argp.config = program_config;
	argp.events_tail = &argp.events;
	if (program_name != NULL) {
		argp.prog_name = strdup(program_name);
		if (argp.prog_name == NULL) {
			doca_argp_destroy();
			return DOCA_ERROR_NO_MEMORY;
		}
	}
	err = add_builtins();
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("doca_argp_init: out of memory while creating the DOCA flags");
		doca_argp_destroy();
	}
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_destroy(void)
{
	if (!initialized(__func__))
		return DOCA_ERROR_BAD_STATE;
	argp_reset_run();
	cmd_free_contents(&argp.root);
	/* Whatever the program created but never registered. */
	while (argp.all_cmds != NULL)
		cmd_free(argp.all_cmds);
	while (argp.all_params != NULL)
		param_free(argp.all_params);
	free(argp.prog_name);
	memset(&argp, 0, sizeof(argp));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_start(int argc, char **argv)
{
	if (!initialized(__func__))
		return DOCA_ERROR_BAD_STATE;
	if (argp.started) {
		SDK_LOG_ERR("doca_argp_start: already started; call it once per doca_argp_init");
		return DOCA_ERROR_BAD_STATE;
	}
	if (argc < 0 || (argc > 0 && argv == NULL)) {
		SDK_LOG_ERR("doca_argp_start: argv is NULL with argc %d; pass main's argc and argv", argc);
		return DOCA_ERROR_INVALID_VALUE;
	}
	argp.started = true;
	return argp_run(argc, argv);
}

DOCA_EXPERIMENTAL void doca_argp_usage(void)
{
	if (!initialized(__func__))
		return;
	argp_print_usage(&argp.root, true);
}

DOCA_EXPERIMENTAL void doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback)
{
	if (!initialized(__func__))
		return;
	argp.dpdk_cb = callback;
}

static doca_error_t check_callback_setter(const char *fn, const void *callback)
{
	if (!initialized(fn))
		return DOCA_ERROR_BAD_STATE;
	if (callback == NULL) {
		SDK_LOG_ERR("%s: callback is NULL; pass a function", fn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback)
{
	doca_error_t err = check_callback_setter(__func__, (const void *)callback);

	if (err == DOCA_SUCCESS)
		argp.version_cb = callback;
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_validation_callback(doca_argp_validation_cb_t callback)
{
	doca_error_t err = check_callback_setter(__func__, (const void *)callback);

	if (err == DOCA_SUCCESS)
		argp.validation_cb = callback;
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_logger_callback(doca_argp_logger_cb_t callback)
{
	doca_error_t err = check_callback_setter(__func__, (const void *)callback);

	if (err != DOCA_SUCCESS)
		return err;
	if (argp.logger_cb != NULL) {
		SDK_LOG_ERR("%s: a logger callback is already set; call doca_argp_disable_logger_callback first",
			    __func__);
		return DOCA_ERROR_ALREADY_EXIST;
	}
	argp.logger_cb = callback;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_dev_open_callback(doca_argp_dev_open_cb_t callback, void *usr_ctx)
{
	doca_error_t err = check_callback_setter(__func__, (const void *)callback);

	if (err != DOCA_SUCCESS)
		return err;
	argp.dev_open_cb = callback;
	argp.dev_open_ctx = usr_ctx;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_disable_logger_callback(void)
{
	if (!initialized(__func__))
		return DOCA_ERROR_BAD_STATE;
	argp.logger_cb = NULL;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_log_level(int *log_level)
{
	if (log_level == NULL) {
		SDK_LOG_ERR("%s: log_level is NULL; pass a pointer to an int", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*log_level = argp.log_level > 0 ? argp.log_level : (int)doca_log_level_get_global_lower_limit();
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_sdk_log_level(int *log_level)
{
	if (log_level == NULL) {
		SDK_LOG_ERR("%s: log_level is NULL; pass a pointer to an int", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*log_level = argp.sdk_log_level > 0 ? argp.sdk_log_level : (int)doca_log_level_get_global_sdk_limit();
	return DOCA_SUCCESS;
}

/* Params */

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_create(struct doca_argp_param **param)
{
	if (!initialized(__func__))
		return DOCA_ERROR_BAD_STATE;
	if (param == NULL) {
		SDK_LOG_ERR("%s: param is NULL; pass a pointer to receive the param", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (param_alloc(param) != DOCA_SUCCESS) {
		SDK_LOG_ERR("%s: out of memory", __func__);
		return DOCA_ERROR_NO_MEMORY;
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name)
{
	param = param_for_setter(param, __func__);
	if (param != NULL)
		set_string(&param->short_name, name, &param->oom);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name)
{
	param = param_for_setter(param, __func__);
	if (param != NULL)
		set_string(&param->long_name, name, &param->oom);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments)
{
	param = param_for_setter(param, __func__);
	if (param != NULL)
		set_string(&param->arguments, arguments, &param->oom);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_description(struct doca_argp_param *param, const char *description)
{
	param = param_for_setter(param, __func__);
	if (param != NULL)
		set_string(&param->description, description, &param->oom);
}

DOCA_EXPERIMENTAL void doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback)
{
	param = param_for_setter(param, __func__);
	if (param != NULL)
		param->callback = callback;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type)
{
	param = param_for_setter(param, __func__);
	if (param != NULL)
		param->type = type;
}

#define PARAM_FLAG_SETTER(fn, field) \
	DOCA_EXPERIMENTAL void fn(struct doca_argp_param *param) \
	{ \
		param = param_for_setter(param, #fn); \
		if (param != NULL) \
			param->field = true; \
	}

PARAM_FLAG_SETTER(doca_argp_param_set_mandatory, mandatory)
PARAM_FLAG_SETTER(doca_argp_param_set_cli_only, cli_only)
PARAM_FLAG_SETTER(doca_argp_param_set_multiplicity, multi)
PARAM_FLAG_SETTER(doca_argp_param_set_singular, singular)
PARAM_FLAG_SETTER(doca_argp_param_set_inherited, inherited)
PARAM_FLAG_SETTER(doca_argp_param_set_hidden, hidden)

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_destroy(struct doca_argp_param *param)
{
	if (param == NULL || !param_known(param)) {
		SDK_LOG_ERR("%s: unknown param; pass one returned by doca_argp_param_create", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (param->owner != NULL) {
		SDK_LOG_ERR("%s: param is registered and owned by argp; doca_argp_destroy frees it", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	param_free(param);
	return DOCA_SUCCESS;
}

/* A flag name the command line can carry: non-empty, no leading '-', no blank and no '='. */
/*
 * A long name may hold a blank: NVIDIA's 3.3 GPUNetIO Verbs samples register "nic handler" (given
 * as one quoted argument, "--nic handler", or as that JSON key). Short names may not.
 */
static bool name_ok(const char *name, bool is_long)
{
	const char *c;

	if (name[0] == '\0' || name[0] == '-')
		return false;
	for (c = name; *c; c++)
		if (*c == '=' || (*c == ' ' && !is_long) || *c == '\t' || *c == '\n')
			return false;
	return true;
}

static bool names_clash(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/*
 * A param of scope (or, for the program's own flags, a built-in DOCA flag) already using one of
 * p's names. A command's flag may reuse a DOCA flag's name: after the command word it shadows the
 * DOCA flag (NVIDIA's 3.3 mgmt_data_direct sample gives its set command -v/--vf-pci-addr).
 */
static const struct doca_argp_param *find_clash(const struct doca_argp_cmd *scope, const struct doca_argp_param *p)
{
	const struct doca_argp_param *q;
	int pass;

	for (pass = 0; pass < (scope == &argp.root ? 2 : 1); pass++) {
		for (q = pass ? argp.root.params : scope->params; q != NULL; q = q->next) {
			if (pass && !q->builtin)
				continue;
			if (names_clash(q->short_name, p->short_name) || names_clash(q->long_name, p->long_name))
				return q;
		}
	}
	return NULL;
}

/* Validates param for registration into scope; on success it joins scope's list. */
static doca_error_t register_param_in(struct doca_argp_cmd *scope, struct doca_argp_param *param, const char *fn)
{
	const struct doca_argp_param *clash;
	struct doca_argp_param **tail;
	char buf[256];
	doca_error_t err;

	if (param->oom) {
		SDK_LOG_ERR("%s: a setter ran out of memory while copying a name; create the param again", fn);
		err = DOCA_ERROR_NO_MEMORY;
		goto fail;
	}
	if (param->short_name == NULL && param->long_name == NULL) {
		SDK_LOG_ERR("%s: param has no name; call doca_argp_param_set_short_name or _set_long_name", fn);
		err = DOCA_ERROR_INITIALIZATION;
		goto fail;
	}
	argp_flag_name(param, buf, sizeof(buf));
	if (param->description == NULL) {
		SDK_LOG_ERR("%s: param %s has no description; call doca_argp_param_set_description", fn, buf);
		err = DOCA_ERROR_INITIALIZATION;
		goto fail;
	}
	if (param->callback == NULL) {
		SDK_LOG_ERR("%s: param %s has no callback; call doca_argp_param_set_callback", fn, buf);
		err = DOCA_ERROR_INITIALIZATION;
		goto fail;
	}
	if (param->type < DOCA_ARGP_TYPE_STRING || param->type > DOCA_ARGP_TYPE_DOUBLE) {
		SDK_LOG_ERR("%s: param %s has no valid type; call doca_argp_param_set_type", fn, buf);
		err = DOCA_ERROR_INITIALIZATION;
		goto fail;
	}
	if ((param->short_name != NULL && !name_ok(param->short_name, false)) ||
	    (param->long_name != NULL && !name_ok(param->long_name, true))) {
		SDK_LOG_ERR("%s: param %s: names are given without dashes, contain no '=' and, short ones, no blank",
			    fn, buf);
		err = DOCA_ERROR_INVALID_VALUE;
		goto fail;
	}
	clash = find_clash(scope, param);
	if (clash != NULL) {
		char other[256];

		SDK_LOG_ERR("%s: param %s clashes with %s flag %s; choose another name", fn, buf,
			    clash->builtin ? "the built-in DOCA" : "the registered", argp_flag_name(clash, other, sizeof(other)));
		err = DOCA_ERROR_INVALID_VALUE;
		goto fail;
	}
	param->owner = scope;
	for (tail = &scope->params; *tail != NULL; tail = &(*tail)->next)
		;
	*tail = param;
	return DOCA_SUCCESS;
fail:
	/* argp owns the param whatever the outcome. */
	param_free(param);
	return err;
}

/* Common entry checks of the register calls; false means the call fails with *err. */
static bool may_register(const char *fn, doca_error_t *err)
{
	if (!initialized(fn)) {
		*err = DOCA_ERROR_BAD_STATE;
		return false;
	}
	if (argp.started) {
		SDK_LOG_ERR("%s: doca_argp_start already ran; register everything before it", fn);
		*err = DOCA_ERROR_BAD_STATE;
		return false;
	}
	return true;
}

static doca_error_t check_new_param(struct doca_argp_param *param, const char *fn)
{
	if (param == NULL || !param_known(param)) {
		SDK_LOG_ERR("%s: unknown param; pass one returned by doca_argp_param_create", fn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (param->owner != NULL) {
		SDK_LOG_ERR("%s: param is already registered; register each param once", fn);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_param(struct doca_argp_param *input_param)
{
	doca_error_t err = DOCA_SUCCESS;

	if (!may_register(__func__, &err))
		return err;
	err = check_new_param(input_param, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	return register_param_in(&argp.root, input_param, __func__);
}

/* Commands */

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_create(struct doca_argp_cmd **cmd)
{
	struct doca_argp_cmd *c;

	if (!initialized(__func__))
		return DOCA_ERROR_BAD_STATE;
	if (cmd == NULL) {
		SDK_LOG_ERR("%s: cmd is NULL; pass a pointer to receive the command", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		SDK_LOG_ERR("%s: out of memory", __func__);
		return DOCA_ERROR_NO_MEMORY;
	}
	c->all_next = argp.all_cmds;
	argp.all_cmds = c;
	*cmd = c;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_name(struct doca_argp_cmd *cmd, const char *name)
{
	cmd = cmd_for_setter(cmd, __func__);
	if (cmd != NULL)
		set_string(&cmd->name, name, &cmd->oom);
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_description(struct doca_argp_cmd *cmd, const char *description)
{
	cmd = cmd_for_setter(cmd, __func__);
	if (cmd != NULL)
		set_string(&cmd->description, description, &cmd->oom);
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_callback(struct doca_argp_cmd *cmd, doca_argp_cmd_cb_t callback)
{
	cmd = cmd_for_setter(cmd, __func__);
	if (cmd != NULL)
		cmd->callback = callback;
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_hidden(struct doca_argp_cmd *cmd)
{
	cmd = cmd_for_setter(cmd, __func__);
	if (cmd != NULL)
		cmd->hidden = true;
}

static doca_error_t register_cmd_in(struct doca_argp_cmd *scope, struct doca_argp_cmd *cmd, const char *fn)
{
	struct doca_argp_cmd *it, **tail;

	if (cmd == NULL || !cmd_known(cmd)) {
		SDK_LOG_ERR("%s: unknown command; pass one returned by doca_argp_cmd_create", fn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cmd->registered) {
		SDK_LOG_ERR("%s: command is already registered; register each command once", fn);
		return DOCA_ERROR_BAD_STATE;
	}
	/* A command cannot go below itself: that would make a loop (and argp owns both). */
	for (it = scope; it != NULL; it = it->parent) {
		if (it == cmd) {
			SDK_LOG_ERR("%s: command \"%s\" would contain itself; register it under another command", fn,
				    cmd->name ? cmd->name : "");
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	if (cmd->oom) {
		SDK_LOG_ERR("%s: a setter ran out of memory while copying a name; create the command again", fn);
		cmd_free(cmd);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (cmd->name == NULL || cmd->description == NULL) {
		SDK_LOG_ERR("%s: command %s has no %s; call doca_argp_cmd_set_%s", fn, cmd->name ? cmd->name : "",
			    cmd->name ? "description" : "name", cmd->name ? "description" : "name");
		cmd_free(cmd);
		return DOCA_ERROR_INITIALIZATION;
	}
	if (!name_ok(cmd->name, false)) {
		SDK_LOG_ERR("%s: command name \"%s\" must not start with '-' or contain blanks or '='", fn, cmd->name);
		cmd_free(cmd);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (it = scope->cmds; it != NULL; it = it->next) {
		if (strcmp(it->name, cmd->name) == 0) {
			SDK_LOG_ERR("%s: command \"%s\" is already registered here; choose another name", fn, cmd->name);
			cmd_free(cmd);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	cmd->registered = true;
	cmd->parent = scope;
	for (tail = &scope->cmds; *tail != NULL; tail = &(*tail)->next)
		;
	*tail = cmd;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_cmd(struct doca_argp_cmd *input_cmd)
{
	doca_error_t err = DOCA_SUCCESS;

	if (!may_register(__func__, &err))
		return err;
	return register_cmd_in(&argp.root, input_cmd, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_param(struct doca_argp_cmd *cmd,
							     struct doca_argp_param *input_param)
{
	doca_error_t err = DOCA_SUCCESS;

	if (!may_register(__func__, &err))
		return err;
	err = check_new_param(input_param, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (cmd == NULL || !cmd_known(cmd)) {
		SDK_LOG_ERR("%s: unknown command; pass one returned by doca_argp_cmd_create", __func__);
		param_free(input_param); /* argp owns the param whatever the outcome */
		return DOCA_ERROR_INVALID_VALUE;
	}
	return register_param_in(cmd, input_param, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_cmd(struct doca_argp_cmd *cmd, struct doca_argp_cmd *input_cmd)
{
	doca_error_t err = DOCA_SUCCESS;

	if (!may_register(__func__, &err))
		return err;
	if (cmd == NULL || !cmd_known(cmd)) {
		SDK_LOG_ERR("%s: unknown parent command; pass one returned by doca_argp_cmd_create", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return register_cmd_in(cmd, input_cmd, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_destroy(struct doca_argp_cmd *cmd)
{
	if (cmd == NULL || !cmd_known(cmd)) {
		SDK_LOG_ERR("%s: unknown command; pass one returned by doca_argp_cmd_create", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cmd->registered) {
		SDK_LOG_ERR("%s: command is registered and owned by argp; doca_argp_destroy frees it", __func__);
		return DOCA_ERROR_BAD_STATE;
	}
	cmd_free(cmd);
	return DOCA_SUCCESS;
}
