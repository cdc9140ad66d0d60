/* SPDX-License-Identifier: BSD-3-Clause */
/* Layouts of doca_devinfo / doca_dev shared by the softdoca libraries (private). */
#ifndef SOFTDOCA_DEV_PRIV_H
#define SOFTDOCA_DEV_PRIV_H

#include <stdint.h>

#include "doca_dev.h"
#include "../../softhw/softhw.h"

/* A devinfo is a view of one soft function; it lives as long as the process's model. */
struct doca_devinfo {
	const struct softhw_function *fn;
	struct doca_dev *open_dev; /* the open device of this function, refcounted */
};

struct doca_dev {
	struct doca_devinfo *devinfo;
	uint32_t refcount;
};

struct doca_devinfo_rep {
	const struct softhw_rep *rep;
	struct doca_dev *parent;
};

struct doca_dev_rep {
	struct doca_devinfo_rep info; /* a copy: valid after the rep list is destroyed */
	uint32_t refcount;
};

static inline const struct softhw_caps *softdoca_devinfo_caps(const struct doca_devinfo *devinfo)
{
	return &devinfo->fn->caps;
}

static inline const struct softhw_caps *softdoca_dev_caps(const struct doca_dev *dev)
{
	return &dev->devinfo->fn->caps;
}

#endif /* SOFTDOCA_DEV_PRIV_H */
