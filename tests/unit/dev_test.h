/* SPDX-License-Identifier: BSD-3-Clause */
/* Test helpers over the DOCA API: open a device or representor by PCI address, read a state. */
#ifndef SOFTDOCA_DEV_TEST_H
#define SOFTDOCA_DEV_TEST_H

#include "doca_ctx.h"
#include "doca_dev.h"

/* The device with PCI address `pci`, opened; NULL if there is none. */
static inline struct doca_dev *open_pci(const char *pci)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			doca_dev_open(list[i], &dev);
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

/* The representor of `dev` with PCI address `pci`, opened; NULL if there is none. */
static inline struct doca_dev_rep *open_rep(struct doca_dev *dev, const char *pci)
{
	struct doca_devinfo_rep **reps;
	struct doca_dev_rep *rep = NULL;
	uint32_t n;

	if (doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && rep == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_rep_is_equal_pci_addr(reps[i], pci, &eq) == DOCA_SUCCESS && eq)
			doca_dev_rep_open(reps[i], &rep);
	}
	doca_devinfo_rep_destroy_list(reps);
	return rep;
}

static inline enum doca_ctx_states state_of(struct doca_ctx *ctx)
{
	enum doca_ctx_states s = DOCA_CTX_STATE_IDLE;

	doca_ctx_get_state(ctx, &s);
	return s;
}

#endif /* SOFTDOCA_DEV_TEST_H */
