/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_argp.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_ARGP_H
#define SOFTDOCA_DOCA_ARGP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_argp_cmd;
struct doca_argp_param;

enum doca_argp_type {
	DOCA_ARGP_TYPE_UNKNOWN = 0,
	DOCA_ARGP_TYPE_STRING = 1,
	DOCA_ARGP_TYPE_INT = 2,
	DOCA_ARGP_TYPE_BOOLEAN = 3,
	DOCA_ARGP_TYPE_JSON_OBJ = 4,
	/*
	 * DOCA 3.1+ (NVIDIA's 3.3 samples and applications use them). DOCA 3.3 numbers them 4, 5
	 * and 6 and has no JSON_OBJ; softdoca keeps 3.0's JSON_OBJ = 4 and numbers these after it
	 * (programs use the names; docs/compatibility.md).
	 */
	DOCA_ARGP_TYPE_DEVICE = 5,	/* "[pci/]<PCI address | IB device | interface>[,<devargs>]" */
	DOCA_ARGP_TYPE_DEVICE_REP = 6,	/* "[pci/]<device>,<representor>[,<devargs>]" */
	DOCA_ARGP_TYPE_DOUBLE = 7,
};

struct doca_dev;
struct doca_dev_rep;
struct doca_devinfo;

/* The value a DOCA_ARGP_TYPE_DEVICE callback receives: the opened device and its device arguments. */
struct doca_argp_device_ctx {
	struct doca_dev *dev;	/* opened by argp; the program closes it */
	const char *devargs;	/* text after the identifier's first ',', or NULL */
};

/* The value a DOCA_ARGP_TYPE_DEVICE_REP callback receives, once per representor the value names. */
struct doca_argp_device_rep_ctx {
	struct doca_argp_device_ctx dev_ctx; /* the device the representor belongs to */
	struct doca_dev_rep *dev_rep;	     /* opened by argp; the program closes it */
};

/*
 * softdoca extension (not part of NVIDIA's header; a type only, no function): the value a
 * DOCA_ARGP_TYPE_JSON_OBJ param callback receives is a `const struct softdoca_argp_json *`,
 * always of type SOFTDOCA_ARGP_JSON_OBJECT. It stays valid until doca_argp_destroy().
 */
enum softdoca_argp_json_type {
	SOFTDOCA_ARGP_JSON_NULL = 0,
	SOFTDOCA_ARGP_JSON_BOOLEAN = 1,
	SOFTDOCA_ARGP_JSON_NUMBER = 2,
	SOFTDOCA_ARGP_JSON_STRING = 3,
	SOFTDOCA_ARGP_JSON_ARRAY = 4,
	SOFTDOCA_ARGP_JSON_OBJECT = 5,
};

struct softdoca_argp_json {
	enum softdoca_argp_json_type type;
	const char *key;			/* member name when inside an OBJECT, else NULL */
	int line;				/* line of the value in its source (1 on the command line) */
	bool boolean;				/* BOOLEAN */
	double number;				/* NUMBER */
	const char *string;			/* STRING: decoded UTF-8; NUMBER: the number as written */
	size_t count;				/* ARRAY, OBJECT: number of items */
	const struct softdoca_argp_json *items; /* ARRAY, OBJECT: the members, in source order */
};

typedef doca_error_t (*doca_argp_param_cb_t)(void *, void *);
typedef doca_error_t (*doca_argp_cmd_cb_t)(void *);
typedef doca_error_t (*doca_argp_dpdk_cb_t)(int argc, char **argv);
typedef doca_error_t (*doca_argp_validation_cb_t)(void *);
typedef doca_error_t (*doca_argp_logger_cb_t)(enum doca_log_level level, const char *format, va_list args);
/* Opens the device argp found for a DEVICE / DEVICE_REP value (DOCA 3.1+); may refuse it. */
typedef doca_error_t (*doca_argp_dev_open_cb_t)(struct doca_devinfo *devinfo, void *usr_ctx, struct doca_dev **dev);

/* functions */
DOCA_EXPERIMENTAL void doca_argp_usage(void);
DOCA_EXPERIMENTAL doca_error_t doca_argp_init(const char *program_name, void *program_config);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_param(struct doca_argp_param *input_param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_cmd(struct doca_argp_cmd *input_cmd);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_validation_callback(doca_argp_validation_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_logger_callback(doca_argp_logger_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_dev_open_callback(doca_argp_dev_open_cb_t callback, void *usr_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_argp_disable_logger_callback(void);
DOCA_EXPERIMENTAL doca_error_t doca_argp_start(int argc, char **argv);
DOCA_EXPERIMENTAL doca_error_t doca_argp_destroy(void);
DOCA_EXPERIMENTAL void doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_param_create(struct doca_argp_param **param);
DOCA_EXPERIMENTAL void doca_argp_param_set_short_name(struct doca_argp_param *param, const char *name);
DOCA_EXPERIMENTAL void doca_argp_param_set_long_name(struct doca_argp_param *param, const char *name);
DOCA_EXPERIMENTAL void doca_argp_param_set_arguments(struct doca_argp_param *param, const char *arguments);
DOCA_EXPERIMENTAL void doca_argp_param_set_description(struct doca_argp_param *param, const char *description);
DOCA_EXPERIMENTAL void doca_argp_param_set_callback(struct doca_argp_param *param, doca_argp_param_cb_t callback);
DOCA_EXPERIMENTAL void doca_argp_param_set_type(struct doca_argp_param *param, enum doca_argp_type type);
DOCA_EXPERIMENTAL void doca_argp_param_set_mandatory(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_cli_only(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_multiplicity(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_singular(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_inherited(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_hidden(struct doca_argp_param *param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_param_destroy(struct doca_argp_param *param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_create(struct doca_argp_cmd **cmd);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_name(struct doca_argp_cmd *cmd, const char *name);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_description(struct doca_argp_cmd *cmd, const char *description);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_callback(struct doca_argp_cmd *cmd, doca_argp_cmd_cb_t callback);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_hidden(struct doca_argp_cmd *cmd);
DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_param(struct doca_argp_cmd *cmd, struct doca_argp_param *input_param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_cmd(struct doca_argp_cmd *cmd, struct doca_argp_cmd *input_cmd);
DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_destroy(struct doca_argp_cmd *cmd);
DOCA_EXPERIMENTAL doca_error_t doca_argp_get_log_level(int *log_level);
DOCA_EXPERIMENTAL doca_error_t doca_argp_get_sdk_log_level(int *log_level);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_ARGP_H */
