/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: libflexio/flexio.h — the part of FlexIO that DOCA's DPA samples use: DPA resource
 * descriptions (which EUs an application may run on). Prototypes are inferred from those
 * uses (docs/compatibility.md).
 */
#ifndef SOFTDOCA_FLEXIO_H
#define SOFTDOCA_FLEXIO_H

#include <stddef.h>
#include <stdint.h>

#include "flexio_ver.h"

#ifndef FLEXIO_VER_USED
#define FLEXIO_VER_USED FLEXIO_CURRENT_VERSION
#endif
#if FLEXIO_VER_USED > FLEXIO_CURRENT_VERSION
#error "FLEXIO_VER_USED asks for a newer FlexIO API than softdoca's libflexio provides"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	FLEXIO_STATUS_SUCCESS = 0,
	FLEXIO_STATUS_FAILED = 1,
	FLEXIO_STATUS_TIMEOUT = 2,
	FLEXIO_STATUS_FATAL_ERR = 3,
} flexio_status;

struct flexio_resource;

/* Parses a DPA resources description (YAML) for application `app_key`. */
flexio_status flexio_resources_create(const char *app_key, const char *buf, size_t buf_len,
				      struct flexio_resource **res);
void flexio_resources_destroy(struct flexio_resource *res);
/* EU groups and EUs of the application. */
int flexio_resources_get_eugs_num(struct flexio_resource *res);
uint32_t flexio_resources_get_eus_num(struct flexio_resource *res);
uint32_t *flexio_resources_get_eus(struct flexio_resource *res);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_FLEXIO_H */
