/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers for the sync event tests: hand-built devices whose card and capabilities a test
 * chooses, and a bounded loop that progresses a PE until a condition holds.
 */
#ifndef SOFTDOCA_SE_TEST_H
#define SOFTDOCA_SE_TEST_H

#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "doca_pe.h"
#include "common/priv/dev_priv.h"

struct fake_dev {
	struct softhw_card card;
	struct softhw_function fn;
	struct doca_devinfo devinfo;
	struct doca_dev dev;
};

/* A device of card `name`/`instance`; `caps` sets every sync event capability. */
static inline struct doca_dev *fake_dev_init(struct fake_dev *f, const char *name, const char *instance, bool caps)
{
	memset(f, 0, sizeof(*f));
	strncpy(f->card.name, name, sizeof(f->card.name) - 1);
	strncpy(f->card.instance, instance, sizeof(f->card.instance) - 1);
	f->fn.card = &f->card;
	strcpy(f->fn.pci_addr, "0000:99:00.0");
	f->fn.caps.sync_event_export_remote_pci = caps;
	f->fn.caps.sync_event_create_from_export = caps;
	f->fn.caps.sync_event_export_remote_net = caps;
	f->fn.caps.sync_event_remote_net_create_from_export = caps;
	f->fn.caps.sync_event_tasks = caps;
	f->fn.caps.dpa = caps;
	f->devinfo.fn = &f->fn;
	f->dev.devinfo = &f->devinfo;
	f->dev.refcount = 1;
	return &f->dev;
}

static inline double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Progresses `pe` until *flag becomes true or `seconds` pass; returns whether it did. */
static inline bool progress_until(struct doca_pe *pe, const volatile int *flag, double seconds)
{
	double end = now_sec() + seconds;

	while (!*flag && now_sec() < end)
		(void)doca_pe_progress(pe);
	return *flag != 0;
}

#endif /* SOFTDOCA_SE_TEST_H */
