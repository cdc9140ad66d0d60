/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libflexio: the FlexIO calls DOCA's DPA samples make (include/libflexio/flexio.h): a DPA
 * resources description says which EUs an application runs on.
 *
 * The layout NVIDIA's tools give that file is not public; softdoca reads a small YAML subset
 * of its own (docs/dpa.md):
 *
 *   <application key>:
 *     eus: [1, 2, 8-15]        # or a block list: "- 3" lines; ranges a-b
 *     eu_groups:               # optional; each "- name" item is a group
 *       - g0
 *
 * The application's block is the one under the top-level key equal to app_key (the whole
 * file when app_key is empty). Without an "eus" list the application gets every EU the card's
 * profile makes available (0 .. doca_dpa_get_total_num_eus_available() - 1). EU ids past those
 * are refused: a DPA thread could not be given an affinity to them. Problems go to stderr, as FlexIO's do.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doca_dev.h"
#include "doca_dpa.h"
#include "libflexio/flexio.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_EUS 4096

struct flexio_resource {
	uint32_t num_eus;
	uint32_t *eus;
	int num_groups;
};

/* The card's EUs, from the first device with a DPA: total (cores x per core) and available. */
static bool profile_eus(unsigned int *total, unsigned int *available)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	struct doca_dpa *dpa = NULL;
	unsigned int cores = 0, per_core = 0;
	uint32_t n = 0;
	bool ok = false;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return false;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_dpa_cap_is_supported(list[i]) == DOCA_SUCCESS && doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	if (dev != NULL && doca_dpa_create(dev, &dpa) == DOCA_SUCCESS) {
		ok = doca_dpa_get_core_num(dpa, &cores) == DOCA_SUCCESS &&
		     doca_dpa_get_num_eus_per_core(dpa, &per_core) == DOCA_SUCCESS &&
		     doca_dpa_get_total_num_eus_available(dpa, available) == DOCA_SUCCESS;
		*total = cores * per_core;
		doca_dpa_destroy(dpa);
	}
	if (dev != NULL)
		doca_dev_close(dev);
	doca_devinfo_destroy_list(list);
	return ok;
}

static size_t indent_of(const char *line)
{
	size_t i = 0;

	while (line[i] == ' ' || line[i] == '\t')
		i++;
	return i;
}

/* Adds the ids of "a" or "a-b" items in text (commas, spaces, brackets between); false on junk. */
static bool add_ids(struct flexio_resource *res, const char *text, unsigned int available)
{
	const char *p = text;

	while (*p != '\0' && *p != '#') {
		char *end;
		unsigned long a, b;

		if (*p == '[' || *p == ']' || *p == ',' || *p == '-' || isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			return false;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-' && isdigit((unsigned char)p[1])) {
			b = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (b < a || b >= available) {
			fprintf(stderr, "libflexio (softdoca): EU %lu is out of range: the card's profile makes EUs 0 to %u "
					"available (doca_dpa_get_total_num_eus_available())\n",
				b < a ? a : b, available - 1);
			return false;
		}
		for (unsigned long id = a; id <= b; id++) {
			if (res->num_eus == MAX_EUS)
				return false;
			res->eus[res->num_eus++] = (uint32_t)id;
		}
	}
	return true;
}

EXPORT flexio_status flexio_resources_create(const char *app_key, const char *buf, size_t buf_len,
					     struct flexio_resource **res_out)
{
	struct flexio_resource *res;
	unsigned int total = 0, available = 0;
	bool whole = app_key == NULL || app_key[0] == '\0', in_app = whole, found = whole, listed = false;
	size_t app_indent = 0, list_indent = 0;
	enum { NONE, EUS, GROUPS } list = NONE;
	char *text, *save = NULL;

	if (res_out == NULL || buf == NULL) {
		fprintf(stderr, "libflexio (softdoca): flexio_resources_create: NULL argument\n");
		return FLEXIO_STATUS_FAILED;
	}
	*res_out = NULL;
	if (!profile_eus(&total, &available) || total == 0 || available == 0) {
		fprintf(stderr, "libflexio (softdoca): no device with a DPA: no EUs to describe\n");
		return FLEXIO_STATUS_FAILED;
	}
	res = calloc(1, sizeof(*res));
	text = malloc(buf_len + 1);
	if (res == NULL || text == NULL || (res->eus = calloc(MAX_EUS, sizeof(uint32_t))) == NULL) {
		free(res);
		free(text);
		return FLEXIO_STATUS_FAILED;
	}
	memcpy(text, buf, buf_len);
	text[buf_len] = '\0';
	for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		size_t ind = indent_of(line);
		char *s = line + ind, *colon;

		line[strcspn(line, "\r")] = '\0';
		if (*s == '\0' || *s == '#')
			continue;
		if (!whole && ind == 0) {
			/* a top-level key: the application's block starts or ends */
			colon = strchr(s, ':');
			in_app = colon != NULL && (size_t)(colon - s) == strlen(app_key) && strncmp(s, app_key, colon - s) == 0;
			found = found || in_app;
			app_indent = 0;
			list = NONE;
			continue;
		}
		if (!in_app)
			continue;
		if (list != NONE && ind > list_indent && s[0] == '-') {
			if (list == GROUPS)
				res->num_groups++;
			else if (!add_ids(res, s + 1, available))
				goto bad;
			continue;
		}
		list = NONE;
		colon = strchr(s, ':');
		if (colon == NULL)
			continue;
		if (app_indent == 0)
			app_indent = ind;
		if (strncmp(s, "eus:", 4) == 0 || strncmp(s, "execution_units:", 16) == 0) {
			listed = true;
			list = EUS;
			list_indent = ind;
			if (!add_ids(res, colon + 1, available))
				goto bad;
		} else if (strncmp(s, "eu_groups:", 10) == 0 || strncmp(s, "eugs:", 5) == 0) {
			list = GROUPS;
			list_indent = ind;
		}
	}
	free(text);
	if (!found) {
		fprintf(stderr, "libflexio (softdoca): application key '%s' is not in the DPA resources file\n", app_key);
		flexio_resources_destroy(res);
		return FLEXIO_STATUS_FAILED;
	}
	if (!listed) {
		/* no EUs named: the application may run on every EU the profile makes available */
		for (unsigned int id = 0; id < available && id < total && id < MAX_EUS; id++)
			res->eus[res->num_eus++] = id;
	}
	*res_out = res;
	return FLEXIO_STATUS_SUCCESS;
bad:
	fprintf(stderr, "libflexio (softdoca): DPA resources file: cannot read the EU list of application '%s' "
			"(expected ids or ranges such as [1, 2, 8-15])\n",
		whole ? "" : app_key);
	free(text);
	flexio_resources_destroy(res);
	return FLEXIO_STATUS_FAILED;
}

EXPORT void flexio_resources_destroy(struct flexio_resource *res)
{
	if (res == NULL)
		return;
	free(res->eus);
	free(res);
}

EXPORT int flexio_resources_get_eugs_num(struct flexio_resource *res)
{
	return res != NULL ? res->num_groups : 0;
}

EXPORT uint32_t flexio_resources_get_eus_num(struct flexio_resource *res)
{
	return res != NULL ? res->num_eus : 0;
}

EXPORT uint32_t *flexio_resources_get_eus(struct flexio_resource *res)
{
	return res != NULL ? res->eus : NULL;
}
