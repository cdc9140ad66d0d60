/* SPDX-License-Identifier: BSD-3-Clause */
/* libdoca_dpa internals shared by its files (docs/dpa.md). */
#ifndef SOFTDOCA_LIB_DPA_PRIV_H
#define SOFTDOCA_LIB_DPA_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "doca_dpa.h"
#include "common/priv/dpa_priv.h"
#include "dpa_abi.h"

struct softhw_dpa_image;

struct doca_dpa {
	struct softdoca_dpa_base base;         /* first: libdoca_common reaches dev and hw through it */
	const struct softdoca_dpa_app *app;    /* set_app */
	struct softhw_dpa_image *image;        /* loaded at start */
	const struct softdoca_dpa_image *img;  /* the image's descriptor */
	bool started;
	doca_dpa_dev_log_level_t log_level;
	doca_error_t fatal;                    /* atomic: a device-side error made the context unusable */
	uint32_t num_threads;                  /* doca_dpa_thread objects not destroyed: stop is IN_USE */
	uint32_t num_notify_comps;             /* notification completions not destroyed */
	uint32_t next_thread_id;
	/* doca_dpa_device_extend: an extended context shares its parent's soft DPA and image */
	struct doca_dpa *parent;               /* the context it extends; NULL for a context of its own */
	struct doca_dpa *extended;             /* a parent's extended contexts (dpa_extend.c's lock) */
	struct doca_dpa *ext_next;
};

/* The host callbacks handed to every image (dpa_device.c). */
extern const struct softdoca_dpa_host_ops softdoca_dpa_host_ops;

/* The device context of the calling EU thread while it runs device code (dpa_device.c). */
struct softdoca_dpa_current {
	struct doca_dpa *dpa;
	unsigned int rank;
	unsigned int num_threads;
	struct doca_dpa_thread *thread; /* a DPA thread's activation; NULL in a kernel launch or RPC */
	void *exit;                     /* its jmp_buf: reschedule / finish / a stopped rank end there */
	const uint32_t *stop;           /* the EU's stop flag (softhw stop_flag): watchdog or stop */
};
void softdoca_dpa_set_current(const struct softdoca_dpa_current *cur);

/* The calling EU's current context (NULL outside device code). */
const struct softdoca_dpa_current *softdoca_dpa_get_current(void);

/* DPA threads (dpa_thread.c), called by the host callbacks on an EU. */
uint64_t softdoca_dpa_thread_local_storage(const struct doca_dpa_thread *thread);
void softdoca_dpa_thread_end(bool finish);
void softdoca_dpa_thread_notify(struct doca_dpa *dpa, uint64_t handle);

/* Extended contexts (dpa_extend.c). */
bool softdoca_dpa_has_extended(struct doca_dpa *dpa);
void softdoca_dpa_extended_destroy(struct doca_dpa *ext);
/* Is handle (doca_dpa_get_dpa_handle) dpa's, its parent's or one of their extended contexts'? */
bool softdoca_dpa_handle_in_family(struct doca_dpa *dpa, uint64_t handle);

/* Marks the context fatal (the first error stays): doca_dpa_peek_at_last_error reports it. */
void softdoca_dpa_set_fatal(struct doca_dpa *dpa, doca_error_t err);

#endif /* SOFTDOCA_LIB_DPA_PRIV_H */
