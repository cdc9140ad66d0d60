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

/* A log or trace file of device output (dpa_files.c); no path: stdout. */
struct softdoca_dpa_file {
	char *path;
	int fd;
};

struct doca_dpa {
	struct softdoca_dpa_base base;         /* first: libdoca_common reaches dev and hw through it */
	const struct softdoca_dpa_app *app;    /* set_app */
	struct softhw_dpa_image *image;        /* loaded at start */
	const struct softdoca_dpa_image *img;  /* the image's descriptor */
	bool started;
	doca_dpa_dev_log_level_t log_level;
	struct softdoca_dpa_file log_file;     /* doca_dpa_log_file_set_path */
	struct softdoca_dpa_file trace_file;   /* doca_dpa_trace_file_set_path */
	doca_error_t fatal;                    /* atomic: a device-side error made the context unusable */
	uint32_t num_threads;                  /* doca_dpa_thread objects not destroyed: stop is IN_USE */
	uint32_t num_notify_comps;             /* notification completions not destroyed */
	uint32_t num_comps;                    /* completion contexts, async ops, hash tables not destroyed */
	uint32_t next_thread_id;
	uint32_t uar_id;                       /* doca_dpa_get_uar_id: given on first ask */
	/* doca_dpa_device_extend: an extended context shares its parent's soft DPA and image */
	struct doca_dpa *parent;               /* the context it extends; NULL for a context of its own */
	struct doca_dpa *extended;             /* a parent's extended contexts (dpa_extend.c's lock) */
	struct doca_dpa *ext_next;
};

/* Device output (dpa_files.c): one line to the context's log or trace file, or stdout. */
void softdoca_dpa_file_write(struct doca_dpa *dpa, bool trace, const char *line, size_t len);
void softdoca_dpa_trace(struct doca_dpa *dpa, uint64_t time_ns, unsigned int rank, const uint64_t args[5]);
void softdoca_dpa_file_close(struct softdoca_dpa_file *f);

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
	uint64_t empty_seen[4];         /* completion contexts this activation found empty */
	unsigned int num_empty_seen;
};
void softdoca_dpa_set_current(const struct softdoca_dpa_current *cur);

/* The calling EU's current context (NULL outside device code). */
const struct softdoca_dpa_current *softdoca_dpa_get_current(void);
/*
 * An empty completion context `handle`: false the first time a DPA thread's activation finds
 * it empty (it returns 0 at once, and the thread normally asks for a notification and gives
 * its EU back), true afterwards and outside DPA threads (a polling loop then sleeps).
 */
bool softdoca_dpa_current_seen_empty(uint64_t handle);

/* DPA threads (dpa_thread.c), called by the host callbacks on an EU. */
uint64_t softdoca_dpa_thread_local_storage(const struct doca_dpa_thread *thread);
void softdoca_dpa_thread_end(bool finish);
void softdoca_dpa_thread_notify(struct doca_dpa *dpa, uint64_t handle);
/* One activation of a run thread (coalesced with one queued or running); any thread. */
void softdoca_dpa_thread_activate(struct doca_dpa_thread *thread);
bool softdoca_dpa_thread_started(const struct doca_dpa_thread *thread);
struct doca_dpa *softdoca_dpa_thread_dpa(const struct doca_dpa_thread *thread);
/* Thread groups (dpa_thread_group.c): BAD_STATE once the thread is started. */
doca_error_t softdoca_dpa_thread_join_group(struct doca_dpa_thread *thread, struct doca_dpa_tg *group,
					    unsigned int rank);
/* A member thread is destroyed: its rank is empty again. */
void softdoca_dpa_thread_group_forget(struct doca_dpa_tg *group, const struct doca_dpa_thread *thread);
void softdoca_dpa_thread_leave_group(struct doca_dpa_thread *thread, const struct doca_dpa_tg *group);
bool softdoca_dpa_thread_group_started(const struct doca_dpa_tg *group);
unsigned int softdoca_dpa_thread_group_size(const struct doca_dpa_tg *group);
/* In a DPA thread being stopped: ends the activation (does not return). Else returns. */
void softdoca_dpa_thread_poll_point(void);

/* Completion contexts (dpa_completion.c), called by the host callbacks on an EU. */
int softdoca_dpa_completion_get(struct doca_dpa *dpa, uint64_t handle, uint64_t *elem);
bool softdoca_dpa_completion_elem(struct doca_dpa *dpa, uint64_t elem, struct softdoca_dpa_comp_elem *out);
void softdoca_dpa_completion_ack(struct doca_dpa *dpa, uint64_t handle, uint64_t num);
void softdoca_dpa_completion_request_notification(struct doca_dpa *dpa, uint64_t handle);

/* Device memcpy through mmap handles (dpa_device.c): false when refused (logged, context in error). */
bool softdoca_dpa_mmap_memcpy(struct doca_dpa *dpa, uint32_t dst, uint64_t dst_addr, uint32_t src, uint64_t src_addr,
			      uint64_t length);

/* Async ops (dpa_async.c), called by the host callbacks on an EU. */
struct softhw_value;
void softdoca_dpa_async_memcpy(struct doca_dpa *dpa, uint64_t handle, uint32_t dst, uint64_t dst_addr, uint32_t src,
			       uint64_t src_addr, uint64_t length, uint32_t flags);
void softdoca_dpa_async_wait(struct doca_dpa *dpa, uint64_t handle, struct softhw_value *value, uint64_t threshold,
			     bool not_equal);

/* Hash tables (dpa_hash_table.c), on an EU: op is enum softdoca_dpa_ht_op. */
int softdoca_dpa_hash_table_op(struct doca_dpa *dpa, uint64_t handle, uint32_t op, uint32_t key, uint64_t *value);

/* Extended contexts (dpa_extend.c). */
bool softdoca_dpa_has_extended(struct doca_dpa *dpa);
void softdoca_dpa_extended_destroy(struct doca_dpa *ext);
/* Is handle (doca_dpa_get_dpa_handle) dpa's, its parent's or one of their extended contexts'? */
bool softdoca_dpa_handle_in_family(struct doca_dpa *dpa, uint64_t handle);

/* The EU id an affinity names; false when none is set (dpa_affinity.c). */
bool softdoca_dpa_eu_affinity_eu(const struct doca_dpa_eu_affinity *affinity, unsigned int *eu_id);
/* The DPA context the affinity was created on. */
struct doca_dpa *softdoca_dpa_eu_affinity_dpa(const struct doca_dpa_eu_affinity *affinity);

/* Marks the context fatal (the first error stays): doca_dpa_peek_at_last_error reports it. */
void softdoca_dpa_set_fatal(struct doca_dpa *dpa, doca_error_t err);

#endif /* SOFTDOCA_LIB_DPA_PRIV_H */
