/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libflexio: the FlexIO calls DOCA's DPA samples make (include/libflexio/flexio.h). The
 * layout of a DPA resources file is not public, so a resources description is refused with a
 * line on stderr; the getters answer for an empty description (docs/compatibility.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "libflexio/flexio.h"

#define EXPORT __attribute__((visibility("default")))

struct flexio_resource {
	uint32_t num_eus;
	uint32_t *eus;
};

EXPORT flexio_status flexio_resources_create(const char *app_key, const char *buf, size_t buf_len,
					     struct flexio_resource **res)
{
	if (res == NULL || buf == NULL) {
		fprintf(stderr, "libflexio (softdoca): flexio_resources_create: NULL argument\n");
		return FLEXIO_STATUS_FAILED;
	}
	*res = NULL;
	fprintf(stderr,
		"libflexio (softdoca): DPA resources files are not supported yet (application key '%s', %zu bytes); "
		"run without --dpa-resources: the soft DPA places threads on any EU\n",
		app_key != NULL ? app_key : "", buf_len);
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
	(void)res;
	return 0;
}

EXPORT uint32_t flexio_resources_get_eus_num(struct flexio_resource *res)
{
	return res != NULL ? res->num_eus : 0;
}

EXPORT uint32_t *flexio_resources_get_eus(struct flexio_resource *res)
{
	return res != NULL ? res->eus : NULL;
}
