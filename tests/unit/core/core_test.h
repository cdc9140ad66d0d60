/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers for the memory tests: devices of the soft model (doca_devinfo_create_list +
 * doca_dev_open), and hand-built fake devices whose card and capabilities a test chooses,
 * for the rules that depend on them (export support, foreign cards).
 */
#ifndef SOFTDOCA_CORE_TEST_H
#define SOFTDOCA_CORE_TEST_H

#include <stdbool.h>
#include <string.h>

#include "doca_dev.h"
#include "common/priv/dev_priv.h"

struct fake_dev {
	struct softhw_card card;
	struct softhw_function fn;
	struct doca_devinfo devinfo;
	struct doca_dev dev;
};

/* A device of card `name`/`instance`; `exports` sets every mmap export/import capability. */
static inline struct doca_dev *fake_dev_init(struct fake_dev *f, const char *name, const char *instance, bool exports)
{
	memset(f, 0, sizeof(*f));
	strncpy(f->card.name, name, sizeof(f->card.name) - 1);
	strncpy(f->card.instance, instance, sizeof(f->card.instance) - 1);
	f->fn.card = &f->card;
	strcpy(f->fn.pci_addr, "0000:99:00.0");
	f->fn.caps.mmap_export_pci = exports;
	f->fn.caps.mmap_create_from_export_pci = exports;
	f->fn.caps.mmap_export_rdma = exports;
	f->fn.caps.mmap_max_num_devices = 16;
	f->devinfo.fn = &f->fn;
	f->dev.devinfo = &f->devinfo;
	f->dev.refcount = 1;
	return &f->dev;
}

/* Opens the first device of the soft model that can export and import over PCI. */
static inline struct doca_dev *open_model_dev(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		const struct softhw_caps *caps = softdoca_devinfo_caps(list[i]);

		if (caps->mmap_export_pci && caps->mmap_create_from_export_pci && caps->mmap_export_rdma &&
		    doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

#endif /* SOFTDOCA_CORE_TEST_H */
