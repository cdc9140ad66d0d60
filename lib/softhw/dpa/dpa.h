/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw dpa: the DPA of the soft card (docs/dpa.md). libdoca_dpa reaches it through one ops
 * table, `doca_dev->dpa` (lib/common/priv/dev_priv.h); libdoca_common uses it directly for the
 * DPA handles of its objects (sync events).
 *
 * One `struct softhw_dpa` per doca_dpa context holds:
 *  - its execution units (EUs): host threads started on demand, each with an id below the
 *    profile's EU count (so at most that many), blocked while idle. They run jobs: a job is N
 *    ranks of one function (a kernel launch: N threads; an RPC: one), started once its wait
 *    value reaches a threshold; a pinned job runs only on the EU of its id (a DPA thread with
 *    an EU affinity), one rank after another;
 *  - its device memory: a private mapping with out-of-band bookkeeping, so device code that
 *    overruns an allocation cannot corrupt the allocator;
 *  - a table of the values (sync events) the device may reach, by handle.
 * Images (dpacc-built device code) are loaded here too: memfd + dlopen(RTLD_LOCAL).
 *
 * Threads: every call may come from any thread; job callbacks run on the EUs.
 */
#ifndef SOFTHW_DPA_H
#define SOFTHW_DPA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_error.h"
#include "softhw/fabric/value.h"

struct softhw_function;
struct softhw_dpa;

/* Devices one context may be extended to (doca_dpa_device_extend). */
#define SOFTHW_DPA_MAX_EXTEND 8
struct softhw_dpa_image;

/* What the profile gives a function's DPA (all 0 when it has none). */
struct softhw_dpa_caps {
	uint32_t num_cores;
	uint32_t eus_per_core;
	uint32_t eus_available;          /* EUs a context may run on: the EU threads' cap */
	uint32_t max_threads_per_kernel;
	uint64_t kernel_max_run_time_sec;
	uint64_t mem_size;               /* device memory per context */
};

struct softhw_dpa_job;
/* Runs rank `rank` of the job on an EU. */
typedef void (*softhw_dpa_run_fn)(struct softhw_dpa_job *job, unsigned int rank);
/*
 * The job is over: every rank returned (status SUCCESS) or it was cancelled before starting
 * (AGAIN: its context stopped). Runs once, on an EU or in the stopping thread; the job may be
 * freed from here, and is not touched by softhw after.
 */
typedef void (*softhw_dpa_done_fn)(struct softhw_dpa_job *job, doca_error_t status);
/*
 * A rank of the job ran past the kernel max run time (the watchdog logged it and stops the
 * rank at its next DPA call). Runs at most once per job, on the watchdog's thread, while the
 * job is still alive; it must not call back into the soft DPA except flag_raise.
 */
typedef void (*softhw_dpa_overrun_fn)(struct softhw_dpa_job *job);

/* A unit of work for the EUs, embedded in the caller's object; softhw never allocates it. */
struct softhw_dpa_job {
	/* set by the caller */
	softhw_dpa_run_fn run;
	softhw_dpa_done_fn done;
	softhw_dpa_overrun_fn overrun;    /* optional */
	const char *name;                 /* for log lines (the kernel's name); may be NULL */
	unsigned int num_ranks;
	struct softhw_value *wait_value;  /* NULL: runnable at once */
	uint64_t wait_threshold;          /* runnable once the value is >= this (or != this: wait_ne) */
	struct softhw_value *comp_value;  /* NULL: none; else set to / added comp_count when done */
	uint64_t comp_count;
	bool comp_add;
	bool wait_ne;                     /* runnable once the value differs from wait_threshold */
	/*
	 * A short job that hands off: the first one-rank job submitted while it runs is left for
	 * its own EU to take when it ends, instead of waking another (a poll job that activates a
	 * DPA thread: one wake-up less per message).
	 */
	bool hand_off;
	/*
	 * Pinned: only EU `eu` (0 .. eus_available - 1) runs the job's ranks, so two jobs pinned to
	 * one EU never run at once. Else any EU does.
	 */
	bool pinned;
	uint32_t eu;
	/*
	 * Batch: the job's ranks run under SCHED_BATCH, so an EU woken for them never preempts the
	 * thread running on that CPU (a DPA core never takes one of the host's): it takes an idle
	 * CPU, or the CPU when that thread yields, blocks or its slice ends. For a job that serves a
	 * busy-polling peer on the same host from a long-lived loop (STA's data path).
	 */
	bool batch;
	/* softhw's */
	struct softhw_dpa_job *next;
	unsigned int next_rank;
	unsigned int ranks_left;
	bool cancelled;                   /* its context closed before every rank started */
	bool overran;                     /* a rank ran past the kernel max run time: done gets TIME_OUT */
	struct softhw_dpa *dpa;
	struct softhw_value_watcher watcher; /* wakes the EUs when the wait value changes */
};

struct softhw_dpa_ops {
	/* The DPA caps of `fn`'s profile; false (and *caps zeroed) when it has none. */
	bool (*caps)(const struct softhw_function *fn, struct softhw_dpa_caps *caps);
	/* The name of the card profile of `fn` ("BlueField-2"), for log lines. */
	const char *(*profile_name)(const struct softhw_function *fn);

	/* ---- a context's DPA: doca_dpa_start / stop ---- */
	/* NOT_SUPPORTED when the function's card has no DPA (the caller logs the profile). */
	doca_error_t (*open)(const struct softhw_function *fn, struct softhw_dpa **dpa);
	/*
	 * Cancels the jobs that did not start, stops the ranks running at their next DPA call (a
	 * device wait returns at once), stops the EUs, frees the memory and the handles. Device
	 * code that makes no DPA call cannot be stopped: after a grace period (1 s) its EU is
	 * abandoned (logged) and close returns true: the caller must then leave the image loaded,
	 * as the abandoned EU may still run it. Else false: the image is the caller's to unload.
	 */
	bool (*close)(struct softhw_dpa *dpa);

	/* ---- execution ---- */
	/* Queues the job; the EUs start it when its wait value allows. */
	void (*submit)(struct softhw_dpa *dpa, struct softhw_dpa_job *job);
	/*
	 * A one-shot flag for a caller that blocks on a job (an RPC): job->done raises it with
	 * flag_raise, the caller sleeps in flag_wait until it is raised. *flag starts at 0.
	 */
	void (*flag_raise)(struct softhw_dpa *dpa, uint32_t *flag);
	void (*flag_wait)(struct softhw_dpa *dpa, uint32_t *flag);
	/* flag_wait for at most timeout_ns; false if the flag was not raised by then. */
	bool (*flag_wait_for)(struct softhw_dpa *dpa, uint32_t *flag, int64_t timeout_ns);
	/*
	 * Ends a submitted job early: ranks not started never start (done gets AGAIN once the
	 * others are over), ranks running end at their next DPA call (stop flag).
	 */
	void (*job_stop)(struct softhw_dpa *dpa, struct softhw_dpa_job *job);
	/* Ranks that ran past the kernel max run time since open (the watchdog logged each). */
	uint32_t (*overruns)(struct softhw_dpa *dpa);
	/*
	 * On an EU: its stop flag (atomic, non-zero once the running rank must end: watchdog or
	 * close). The caller checks it at each DPA call of device code and leaves the rank then.
	 * The flag outlives the context if the EU is abandoned. NULL on any other thread.
	 */
	const uint32_t *(*stop_flag)(struct softhw_dpa *dpa);
	/* The id of the EU the calling thread is, in this context; -1 on any other thread. */
	int (*current_eu)(struct softhw_dpa *dpa);

	/* ---- extension to another device of the card (doca_dpa_device_extend) ---- */
	/* The context also accepts mmap handles of fn's device; FULL past SOFTHW_DPA_MAX_EXTEND. */
	doca_error_t (*extend)(struct softhw_dpa *dpa, const struct softhw_function *fn);
	void (*unextend)(struct softhw_dpa *dpa, const struct softhw_function *fn);

	/* ---- device memory ---- */
	/* NO_MEMORY when it does not fit; *addr is then 0. */
	doca_error_t (*mem_alloc)(struct softhw_dpa *dpa, size_t size, uint64_t *addr);
	/* NOT_FOUND when addr is not the start of an allocation. */
	doca_error_t (*mem_free)(struct softhw_dpa *dpa, uint64_t addr);
	/* The host address of [addr, addr + len) when it lies inside one allocation; else NULL. */
	void *(*mem_ptr)(struct softhw_dpa *dpa, uint64_t addr, size_t len);
	/* Device memory in use (bytes) and allocations. */
	void (*mem_usage)(struct softhw_dpa *dpa, uint64_t *bytes, uint32_t *count);

	/* ---- values the device reaches by handle (sync events) ---- */
	/* The handle of `value` in this context (the same one for the same value). */
	doca_error_t (*value_handle)(struct softhw_dpa *dpa, struct softhw_value *value, uint64_t *handle);
	/* The value behind a handle of this context; NULL for anything else. */
	struct softhw_value *(*value_lookup)(struct softhw_dpa *dpa, uint64_t handle);
	uint64_t (*value_load)(const struct softhw_value *value);
	void (*value_store)(struct softhw_value *value, uint64_t v);
	uint64_t (*value_fetch_add)(struct softhw_value *value, uint64_t v);
	/*
	 * Blocks an EU until (value & mask) > want; returns false without waiting further when
	 * the context is closing or the watchdog stopped the rank (the caller ends the rank).
	 */
	bool (*value_wait_gt)(struct softhw_dpa *dpa, struct softhw_value *value, uint64_t want, uint64_t mask);

	/* ---- objects of the context the device names by handle (notification completions, ...) ---- */
	/* A handle for `object` of type `kind` (the caller's numbering, 1..255). */
	doca_error_t (*handle_add)(struct softhw_dpa *dpa, uint32_t kind, void *object, uint64_t *handle);
	/* The object behind a handle of this context and kind; NULL for anything else. */
	void *(*handle_lookup)(struct softhw_dpa *dpa, uint32_t kind, uint64_t handle);
	void (*handle_remove)(struct softhw_dpa *dpa, uint64_t handle);

	/* ---- host memory the DPA reaches through an mmap handle (doca_mmap_dev_get_dpa_handle) ---- */
	/*
	 * A 32-bit handle for [addr, addr + len) of host memory, valid for the DPA contexts of
	 * function `fn`; `writable` when the mmap grants local write access. Handles are
	 * process-wide: a handle names one (mmap, device) pair until mmap_unregister.
	 */
	doca_error_t (*mmap_register)(const struct softhw_function *fn, void *addr, size_t len, bool writable,
				      uint32_t *handle);
	void (*mmap_unregister)(uint32_t handle);
	/*
	 * Copies len bytes of host memory between two mmap handles, from a context's device code.
	 * Each handle must be one of this context's device, [addr, addr + len) inside its range,
	 * and the destination writable. On failure nothing is copied and *why says what was
	 * wrong (INVALID_VALUE: handle or range; NOT_PERMITTED: permission).
	 */
	doca_error_t (*mmap_copy)(struct softhw_dpa *dpa, uint32_t dst, uint64_t dst_addr, uint32_t src,
				  uint64_t src_addr, size_t len, char *why, size_t why_len);
	/* The host address of addr in an mmap handle of this context's device; 0 and *why when not. */
	uint64_t (*mmap_external_ptr)(struct softhw_dpa *dpa, uint32_t handle, uint64_t addr, char *why,
				      size_t why_len);
	/*
	 * The host address of [addr, addr + len) in an mmap handle of this context's device, for
	 * the soft NIC to read (or, `write`, to fill) later: NULL and *why when the handle, the
	 * range or the permission is wrong. The memory stays the mmap owner's to keep registered
	 * until the work completes, as with any DMA.
	 */
	void *(*mmap_ptr)(struct softhw_dpa *dpa, uint32_t handle, uint64_t addr, uint64_t len, bool write,
			  char *why, size_t why_len);
	/*
	 * A handle for a peer's memory (an mmap imported from an RDMA export): its range in the
	 * peer's address space and the rkey the NIC carries (exporter pid, export id, token). Such a
	 * handle names no local memory: only mmap_remote accepts it.
	 */
	doca_error_t (*mmap_register_remote)(const struct softhw_function *fn, uint64_t addr, size_t len, int32_t pid,
					     uint64_t id, uint64_t token, uint32_t *handle);
	/* The rkey of [addr, addr + len) in a remote handle of this context's device; false and *why when not. */
	bool (*mmap_remote)(struct softhw_dpa *dpa, uint32_t handle, uint64_t addr, uint64_t len, int32_t *pid,
			    uint64_t *id, uint64_t *token, char *why, size_t why_len);

	/* ---- a peer's sync event (remote net) the device signals by RDMA: a copy of its rkey ---- */
	/* The same handle for the same rkey; the copy lives as long as the context. */
	doca_error_t (*rkey_handle)(struct softhw_dpa *dpa, int32_t pid, uint64_t id, uint64_t token, uint64_t addr,
				    uint64_t *handle);
	bool (*rkey_lookup)(struct softhw_dpa *dpa, uint64_t handle, int32_t *pid, uint64_t *id, uint64_t *token,
			    uint64_t *addr);

	/* ---- images ---- */
	/* Loads a device image (a self-contained shared object) into a namespace of its own. */
	doca_error_t (*image_load)(const void *bytes, size_t len, const char *name, struct softhw_dpa_image **image,
				   const char **why);
	void *(*image_sym)(struct softhw_dpa_image *image, const char *symbol);
	void (*image_unload)(struct softhw_dpa_image *image);
};

extern const struct softhw_dpa_ops softhw_dpa_ops;

#endif /* SOFTHW_DPA_H */
