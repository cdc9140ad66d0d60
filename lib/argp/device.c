/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA_ARGP_TYPE_DEVICE and DOCA_ARGP_TYPE_DEVICE_REP values: argp finds the device the value
 * names, opens it (through the program's dev-open callback when it registered one) and hands the
 * program an opened device, or an opened representor per representor the value names.
 *
 *   DEVICE      [pci/]<id>[,<devargs>]               pci/03:00.0   mlx5_0   b1:00.0,dv_flow_en=2
 *   DEVICE_REP  [pci/]<id>,<representor>[,<devargs>] pci/03:00.0,pf0hpf   03:00.0,pf0vf[0-3]
 *
 * <id> is a PCI address, an IB device name or an interface name; <representor> is a
 * representor's interface name (pf0hpf, pf0vf1, ...) or PCI address, where one [a-b,c] group
 * stands for several. Devices that are opened stay the program's to close.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argp_priv.h"
#include "doca_dev.h"

#define NAME_LEN 256
#define MAX_EXPANDED 64 /* representors one value may name */
#define REP_INDEX_MAX 65535 /* largest index in a [a-b,c] group */

/* Splits at the first ',' outside a [...] group; returns the rest or NULL. */
static char *cut_field(char *s)
{
	int depth = 0;

	for (; *s != '\0'; s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']' && depth > 0)
			depth--;
		else if (*s == ',' && depth == 0) {
			*s = '\0';
			return s + 1;
		}
	}
	return NULL;
}

/* BB:DD.F or DDDD:BB:DD.F; anything else is a name (the PCI comparisons log an error for names). */
static bool looks_like_pci(const char *id)
{
	unsigned int a, b, c, d;
	char end;

	return sscanf(id, "%x:%x:%x.%x%c", &a, &b, &c, &d, &end) == 4 || sscanf(id, "%x:%x.%x%c", &a, &b, &c, &end) == 3;
}

static bool devinfo_matches(struct doca_devinfo *info, const char *id)
{
	char name[NAME_LEN];
	uint8_t eq = 0;

	if (looks_like_pci(id))
		return doca_devinfo_is_equal_pci_addr(info, id, &eq) == DOCA_SUCCESS && eq;
	if (doca_devinfo_get_ibdev_name(info, name, sizeof(name)) == DOCA_SUCCESS && strcmp(name, id) == 0)
		return true;
	return doca_devinfo_get_iface_name(info, name, sizeof(name)) == DOCA_SUCCESS && strcmp(name, id) == 0;
}

static bool rep_matches(struct doca_devinfo_rep *info, const char *id)
{
	char name[NAME_LEN];
	uint8_t eq = 0;

	if (looks_like_pci(id))
		return doca_devinfo_rep_is_equal_pci_addr(info, id, &eq) == DOCA_SUCCESS && eq;
	return doca_devinfo_rep_get_iface_name(info, name, sizeof(name)) == DOCA_SUCCESS && strcmp(name, id) == 0;
}

/* Finds and opens the device <id> names ("pci/" is DOCA's bus prefix and optional here). */
static doca_error_t open_device(const char *flag, const char *id, struct doca_dev **dev)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, i;
	doca_error_t err;

	if (strncmp(id, "pci/", 4) == 0)
		id += 4;
	err = doca_devinfo_create_list(&list, &n);
	if (err != DOCA_SUCCESS) {
		argp_msg(DOCA_LOG_LEVEL_ERROR, "flag %s: cannot list the devices: %s", flag, doca_error_get_descr(err));
		return err;
	}
	for (i = 0; i < n && !devinfo_matches(list[i], id); i++)
		;
	if (i == n) {
		argp_msg(DOCA_LOG_LEVEL_ERROR,
			 "flag %s: failed to find device identifier \"%s\" (a PCI address, IB device or interface "
			 "name; doca_caps --list-devs lists them)",
			 flag, id);
		err = DOCA_ERROR_INVALID_VALUE;
	} else if (argp.dev_open_cb != NULL) {
		err = argp.dev_open_cb(list[i], argp.dev_open_ctx, dev);
		if (err != DOCA_SUCCESS)
			argp_msg(DOCA_LOG_LEVEL_ERROR, "flag %s: the program's device open callback refused \"%s\": %s",
				 flag, id, doca_error_get_descr(err));
		else if (*dev == NULL) {
			argp_msg(DOCA_LOG_LEVEL_ERROR, "flag %s: the program's device open callback gave no device for \"%s\"",
				 flag, id);
			err = DOCA_ERROR_INVALID_VALUE;
		}
	} else {
		err = doca_dev_open(list[i], dev);
		if (err != DOCA_SUCCESS)
			argp_msg(DOCA_LOG_LEVEL_ERROR, "flag %s: failed to open device \"%s\": %s", flag, id,
				 doca_error_get_descr(err));
	}
	doca_devinfo_destroy_list(list);
	return err;
}

/* Reads one index of a [a-b,c] group: decimal digits, at most REP_INDEX_MAX. */
static bool rep_index(const char *p, char **end, long *out, char *why, size_t why_len)
{
	errno = 0;
	*out = strtol(p, end, 10);
	if (*end == p || *p < '0' || *p > '9') {
		snprintf(why, why_len, "expected an index at \"%.32s\"", p);
		return false;
	}
	if (errno == ERANGE || *out > REP_INDEX_MAX) {
		snprintf(why, why_len, "index %.*s is out of range (at most %d)", (int)(*end - p) < 32 ? (int)(*end - p) : 32,
			 p, REP_INDEX_MAX);
		return false;
	}
	return true;
}

/* "pf0vf[0-2,5]" -> pf0vf0 pf0vf1 pf0vf2 pf0vf5; a name without a group is itself. On a bad
 * spec returns -1 with the reason in why. */
static int expand_reps(const char *spec, char out[][NAME_LEN], int max, char *why, size_t why_len)
{
	const char *open = strchr(spec, '['), *close = open ? strchr(open, ']') : NULL;
	const char *p;
	int n = 0;

	snprintf(why, why_len, "malformed");
	if (open == NULL) {
		if (strlen(spec) >= NAME_LEN || strchr(spec, ']') != NULL)
			return -1;
		snprintf(out[0], NAME_LEN, "%s", spec);
		return 1;
	}
	if (close == NULL || strchr(close + 1, '[') != NULL || close == open + 1)
		return -1;
	for (p = open + 1; p < close;) {
		char *end;
		long lo, hi, v;

		if (!rep_index(p, &end, &lo, why, why_len))
			return -1;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (!rep_index(p, &end, &hi, why, why_len))
				return -1;
			if (hi < lo) {
				snprintf(why, why_len, "range %ld-%ld ends before it starts", lo, hi);
				return -1;
			}
		}
		if (*end != ',' && end != close)
			return -1;
		/* lo and hi are at most REP_INDEX_MAX: v cannot overflow */
		for (v = lo; v <= hi; v++) {
			if (n == max) {
				snprintf(why, why_len, "it names more than %d representors", max);
				return -1;
			}
			if (snprintf(out[n++], NAME_LEN, "%.*s%ld%s", (int)(open - spec), spec, v, close + 1) >= NAME_LEN) {
				snprintf(why, why_len, "a name is longer than %d characters", NAME_LEN - 1);
				return -1;
			}
		}
		p = end + (end != close);
	}
	return n;
}

static doca_error_t open_rep(const char *flag, struct doca_dev *dev, const char *name, struct doca_dev_rep **rep)
{
	struct doca_devinfo_rep **list = NULL;
	uint32_t n = 0, i;
	doca_error_t err;

	err = doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &n);
	if (err != DOCA_SUCCESS) {
		argp_msg(DOCA_LOG_LEVEL_ERROR, "flag %s: cannot list the representors of the device: %s", flag,
			 doca_error_get_descr(err));
		return err == DOCA_ERROR_NOT_SUPPORTED ? DOCA_ERROR_INVALID_VALUE : err;
	}
	for (i = 0; i < n && !rep_matches(list[i], name); i++)
		;
	if (i == n) {
		argp_msg(DOCA_LOG_LEVEL_ERROR,
			 "flag %s: failed to find device representor identifier \"%s\" (an interface name or PCI "
			 "address; doca_caps --list-rep-devs lists them)",
			 flag, name);
		err = DOCA_ERROR_INVALID_VALUE;
	} else {
		err = doca_dev_rep_open(list[i], rep);
		if (err != DOCA_SUCCESS)
			argp_msg(DOCA_LOG_LEVEL_ERROR, "flag %s: failed to open representor \"%s\": %s", flag, name,
				 doca_error_get_descr(err));
	}
	doca_devinfo_rep_destroy_list(list);
	return err;
}

static doca_error_t call_reps(struct doca_argp_param *p, const char *flag, struct doca_dev *dev, const char *spec,
			      const char *devargs, bool *by_program)
{
	static char names[MAX_EXPANDED][NAME_LEN];
	struct doca_argp_device_rep_ctx ctx = {.dev_ctx = {.dev = dev, .devargs = devargs}};
	char why[96];
	int n = expand_reps(spec, names, MAX_EXPANDED, why, sizeof(why)), i;
	doca_error_t err;

	if (n < 0) {
		argp_msg(DOCA_LOG_LEVEL_ERROR,
			 "flag %s: failed to parse device representor identifier \"%s\": %s (a name, or one [a-b,c] "
			 "group of at most %d indexes from 0 to %d)",
			 flag, spec, why, MAX_EXPANDED, REP_INDEX_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (i = 0; i < n; i++) {
		err = open_rep(flag, dev, names[i], &ctx.dev_rep);
		if (err != DOCA_SUCCESS)
			return err;
		*by_program = true; /* from here on the device is the program's */
		err = p->callback(&ctx, argp.config);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

doca_error_t argp_call_device(struct doca_argp_param *p, char *value, bool *by_program)
{
	struct doca_argp_device_ctx ctx = {0};
	char flag[NAME_LEN];
	char *rest, *rep = NULL;
	doca_error_t err;

	*by_program = false;
	argp_flag_name(p, flag, sizeof(flag));
	rest = cut_field(value);
	if (p->type == DOCA_ARGP_TYPE_DEVICE_REP) {
		rep = rest;
		rest = rep != NULL ? cut_field(rep) : NULL;
		if (rep == NULL || *rep == '\0') {
			argp_msg(DOCA_LOG_LEVEL_ERROR,
				 "flag %s: failed to extract the device representor identifier from \"%s\"; write "
				 "<device>,<representor>, e.g. pci/03:00.0,pf0hpf",
				 flag, value);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	if (*value == '\0' || strcmp(value, "pci/") == 0) {
		argp_msg(DOCA_LOG_LEVEL_ERROR, "flag %s: no device identifier given", flag);
		return DOCA_ERROR_INVALID_VALUE;
	}
	ctx.devargs = rest != NULL && *rest != '\0' ? rest : NULL;
	err = open_device(flag, value, &ctx.dev);
	if (err != DOCA_SUCCESS)
		return err;
	if (rep == NULL) {
		*by_program = true;
		return p->callback(&ctx, argp.config);
	}
	err = call_reps(p, flag, ctx.dev, rep, ctx.devargs, by_program);
	if (err != DOCA_SUCCESS && !*by_program)
		doca_dev_close(ctx.dev); /* no callback got it: the reference is still argp's */
	return err;
}
