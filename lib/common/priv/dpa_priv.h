/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The start of every doca_dpa, shared by the softdoca libraries (private): libdoca_dpa owns
 * the object; libdoca_common (sync events, mmaps) and the other libraries reach the soft DPA
 * of a context through this part only.
 */
#ifndef SOFTDOCA_DPA_PRIV_H
#define SOFTDOCA_DPA_PRIV_H

#include <stdbool.h>

#include "doca_dpa.h"

struct doca_dev;
struct softhw_dpa;

struct softdoca_dpa_base {
	struct doca_dev *dev;   /* the device the context was created on */
	struct softhw_dpa *hw;  /* its soft DPA while started; NULL otherwise */
};

static inline struct softdoca_dpa_base *softdoca_dpa_base(struct doca_dpa *dpa)
{
	return (struct softdoca_dpa_base *)dpa;
}

#endif /* SOFTDOCA_DPA_PRIV_H */
