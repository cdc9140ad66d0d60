/* SPDX-License-Identifier: BSD-3-Clause */
/* argp internals shared by argp.c (objects, API, usage) and parse.c (doca_argp_start). */
#ifndef SOFTDOCA_ARGP_PRIV_H
#define SOFTDOCA_ARGP_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "doca_argp.h"
#include "json.h"

struct doca_argp_param {
	char *short_name;
	char *long_name;
	char *arguments;
	char *description;
	doca_argp_param_cb_t callback;
	enum doca_argp_type type;
	bool mandatory;
	bool cli_only;
	bool multi;
	bool singular;
	bool inherited;
	bool hidden;
	bool builtin;			/* one of argp's own DOCA flags */
	bool oom;			/* a setter could not copy its string */
	struct doca_argp_cmd *owner;	/* scope it is registered in; NULL while unregistered */
	unsigned int seen;		/* occurrences in the running doca_argp_start */
	struct doca_argp_param *next;	/* in owner's list, registration order */
	struct doca_argp_param *all_next; /* every live param */
};

struct doca_argp_cmd {
	char *name;
	char *description;
	doca_argp_cmd_cb_t callback;
	bool hidden;
	bool oom;
	bool registered;
	struct doca_argp_cmd *parent;	/* NULL for the root and while unregistered */
	struct doca_argp_param *params;
	struct doca_argp_cmd *cmds;
	struct doca_argp_cmd *next;	/* among siblings */
	struct doca_argp_cmd *all_next; /* every live cmd */
};

/* One parsed occurrence: a flag with its converted value, or a selected command. */
struct argp_event {
	struct doca_argp_param *param;	/* NULL for a command */
	struct doca_argp_cmd *cmd;
	int int_value;
	bool bool_value;
	double double_value;
	char *str_value;				/* STRING, DEVICE, DEVICE_REP: owned copy */
	const struct softdoca_argp_json *json_value;	/* JSON_OBJ: node of a tree in argp.trees */
	struct argp_event *next;
};

/* A parsed JSON tree kept alive until doca_argp_destroy (JSON_OBJ values point into it). */
struct argp_tree {
	struct softdoca_argp_json *root;
	struct argp_tree *next;
};

struct argp_state {
	bool initialized;
	bool started;
	char *prog_name;
	void *config;
	struct doca_argp_cmd root;
	struct doca_argp_param *all_params;
	struct doca_argp_cmd *all_cmds;
	doca_argp_param_cb_t version_cb;
	doca_argp_validation_cb_t validation_cb;
	doca_argp_logger_cb_t logger_cb;
	doca_argp_dpdk_cb_t dpdk_cb;
	doca_argp_dev_open_cb_t dev_open_cb;	/* NULL: DEVICE values are opened with doca_dev_open */
	void *dev_open_ctx;
	struct doca_argp_param *p_help, *p_version, *p_log, *p_sdk_log, *p_json;
	int log_level;		/* 0 until -l is given */
	int sdk_log_level;	/* 0 until --sdk-log-level is given */
	struct argp_event *events;
	struct argp_event **events_tail;
	struct argp_tree *trees;
	char **dpdk_argv;	/* owned strings, NULL-terminated */
	int dpdk_argc;
};

extern struct argp_state argp;

/* User-facing message: the registered logger callback if any, else "<prog>: msg" on stderr. */
void argp_msg(enum doca_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Usage of a scope (root or a command) to stdout, or through argp_msg-style output when !to_stdout. */
void argp_print_usage(const struct doca_argp_cmd *scope, bool to_stdout);

/* "-d/--device", "--async" or "-x", for messages. */
const char *argp_flag_name(const struct doca_argp_param *p, char *buf, size_t len);

/* Program name for messages and usage. */
const char *argp_prog_name(void);

/* Frees the events, trees and DPDK arguments of a start. */
void argp_reset_run(void);

doca_error_t argp_run(int argc, char **argv);

/*
 * DEVICE / DEVICE_REP values (device.c): opens what the value names and calls the param's
 * callback with a struct doca_argp_device_ctx, or once per representor with a struct
 * doca_argp_device_rep_ctx. value is the event's own copy: it is cut in place, and the devargs
 * handed to the program point into it (valid until doca_argp_destroy). Messages go through
 * argp_msg: every error before the callback ran has logged one line saying why, so the caller
 * adds only the usage; a value that names nothing is DOCA_ERROR_INVALID_VALUE. *by_program
 * tells whether the error (if any) is the callback's.
 */
doca_error_t argp_call_device(struct doca_argp_param *p, char *value, bool *by_program);

#endif /* SOFTDOCA_ARGP_PRIV_H */
