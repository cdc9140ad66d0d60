/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw: the soft hardware behind the DOCA libraries. This header is the DOCA-semantics
 * layer's (lib/common, lib/dma, ...) main interface to it: the device model (what cards,
 * functions and capabilities exist) and the engine (queues of work that the "hardware"
 * executes). The others are as narrow: the ops tables a doca_dev carries (rnic/rnic.h,
 * comch/comch.h), fabric/mem.h (exports and imports) and fabric/value.h (sync-event values).
 * Nothing above these headers touches files, sockets or threads of softhw (docs/hacking.md).
 */
#ifndef SOFTHW_H
#define SOFTHW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "doca_error.h"
#include "doca_types.h"

#define SOFTHW_MAX_STR 64

/* ---------------------------------------------------------------------------------------
 * Device model (lib/softhw/model)
 * ------------------------------------------------------------------------------------ */

enum softhw_role {
	SOFTHW_ROLE_HOST = 0,
	SOFTHW_ROLE_DPU = 1,
};

enum softhw_profile {
	SOFTHW_PROFILE_CX6DX = 0,
	SOFTHW_PROFILE_CX7,
	SOFTHW_PROFILE_BF2,
	SOFTHW_PROFILE_BF3,
	SOFTHW_PROFILE_COUNT,
};

/* Capabilities of one function, fixed by the card profile and the side it is seen from. */
struct softhw_caps {
	/* DMA */
	bool dma_memcpy;
	uint32_t dma_max_buf_list_len;
	uint64_t dma_max_buf_size;
	uint32_t dma_max_num_tasks;
	/* mmap */
	bool mmap_export_pci;
	bool mmap_create_from_export_pci;
	bool mmap_export_rdma;
	uint32_t mmap_max_num_devices;
	/* sync event */
	bool sync_event_export_remote_pci;
	bool sync_event_create_from_export;
	bool sync_event_export_remote_net;
	bool sync_event_remote_net_create_from_export;
	bool sync_event_tasks;
	/* devinfo */
	bool rep_filter_all;
	bool rep_filter_net;
	bool rep_filter_emulated;
	bool hotplug_manager;
	bool notification_moderation;
	bool accelerate_resource_reclaim;
	uint32_t num_completion_vectors;
	/* Comch control path (BlueField only): servers on the DPU side, clients on the host side */
	bool comch_server;
	bool comch_client;
	uint32_t comch_max_name_len;        /* including the terminating NUL */
	uint32_t comch_max_msg_size;
	uint32_t comch_max_recv_queue_size;
	uint32_t comch_max_clients;         /* per server */
	uint32_t comch_max_send_tasks;
	/* Comch fast path: producers and consumers on both sides of a BlueField */
	bool comch_fast_path;
	uint32_t comch_fp_max_num_tasks;
	uint32_t comch_fp_max_buf_size;
	uint32_t comch_fp_max_buf_list_len;
	uint32_t comch_max_producers;       /* per connection */
	uint32_t comch_max_consumers;       /* per connection */
	uint32_t comch_max_imm_data_len;
	/* RDMA (libdoca_rdma): RC everywhere, DC where the profile has it */
	bool rdma;                          /* the function has an RDMA NIC (RC transport) */
	bool rdma_dc;                       /* DC transport */
	uint32_t rdma_tasks;                /* SOFTHW_RDMA_TASK_* bits the device supports */
	uint32_t rdma_max_send_queue_size;
	uint32_t rdma_max_recv_queue_size;
	uint32_t rdma_max_send_buf_list_len; /* send/send_imm/read/write/write_imm local lists */
	uint32_t rdma_max_recv_buf_list_len; /* receive destination lists (RC and DC alike) */
	uint32_t rdma_max_message_size;
	uint32_t rdma_gid_table_size;
	uint16_t rdma_max_num_connections;  /* per context */
	uint32_t rdma_max_num_tasks;        /* per task type of a context */
	/* mmap advise: the cache-invalidate task */
	bool mmap_advise_cache_invalidate;
	uint64_t mmap_advise_max_buf_size;
	/* clocks of the card (doca_clock) */
	bool clock_nic_free_running;
	bool clock_nic_real_time;
	bool clock_nic_dpa_timer;
	/* DPA (ConnectX-7 / BlueField-3): execution units and memory of one DPA context */
	bool dpa;
	uint32_t dpa_num_cores;
	uint32_t dpa_eus_per_core;
	uint32_t dpa_eus_available;         /* EUs a context may run on (some are the firmware's) */
	uint32_t dpa_max_threads_per_kernel;
	uint32_t dpa_kernel_max_run_time_sec;
	uint64_t dpa_mem_size;              /* device memory of one context */
	/* STA (NVMe-oF RDMA target offload, BlueField-3 only): the doca_sta_get_max_* limits */
	bool sta;
	uint32_t sta_max_devs;              /* network devices of one STA context */
	uint32_t sta_max_io_threads;        /* IO contexts of one STA context */
	uint32_t sta_max_subsys;
	uint32_t sta_max_ns_per_subsys;
	uint32_t sta_max_qps;
	uint32_t sta_max_io_size;           /* bytes of one I/O */
	uint32_t sta_max_io_queue_size;     /* queue depth of one QP */
	uint32_t sta_max_be;                /* back-ends (NVMe PCIe disks) */
	uint32_t sta_max_qs_per_be;         /* NVMe queue pairs of one back-end */
	uint32_t sta_max_eus;               /* EUs STA may run on */
	uint32_t sta_max_qps_per_eu;
	uint32_t sta_max_io_per_eu;         /* commands one EU handles at a time */
	uint32_t sta_min_ioccsz, sta_max_ioccsz; /* command capsule bytes */
	uint32_t sta_min_iorcsz, sta_max_iorcsz; /* response capsule bytes */
	uint32_t sta_max_icdoff;            /* in-capsule data offset */
	/* later libraries append their fields here */
};

/* RDMA task types (bits of softhw_caps.rdma_tasks). */
enum {
	SOFTHW_RDMA_TASK_RECEIVE = 1u << 0,
	SOFTHW_RDMA_TASK_SEND = 1u << 1,
	SOFTHW_RDMA_TASK_SEND_IMM = 1u << 2,
	SOFTHW_RDMA_TASK_READ = 1u << 3,
	SOFTHW_RDMA_TASK_WRITE = 1u << 4,
	SOFTHW_RDMA_TASK_WRITE_IMM = 1u << 5,
	SOFTHW_RDMA_TASK_ATOMIC_CMP_SWP = 1u << 6,
	SOFTHW_RDMA_TASK_ATOMIC_FETCH_ADD = 1u << 7,
	SOFTHW_RDMA_TASK_SE_GET = 1u << 8,
	SOFTHW_RDMA_TASK_SE_NOTIFY_SET = 1u << 9,
	SOFTHW_RDMA_TASK_SE_NOTIFY_ADD = 1u << 10,
	SOFTHW_RDMA_TASK_ALL = (1u << 11) - 1,
};

#define SOFTHW_PCI_ADDR_LEN 13 /* "dddd:bb:dd.f" + NUL */

/* A representor: a function of the host side, seen from the DPU side. */
struct softhw_rep {
	char vuid[128];
	char pci_addr[16];
	char iface_name[SOFTHW_MAX_STR];
	enum doca_pci_func_type func_type;
	bool is_hotplug;
	bool emulated;   /* matches DOCA_DEVINFO_REP_FILTER_EMULATED, else FILTER_NET */
	uint16_t vhca_id;
	uint32_t index;  /* host-side function it represents */
};

/* One PCI function of a card as a process of a given role sees it: a doca_devinfo. */
struct softhw_function {
	const struct softhw_card *card;
	uint32_t index;                 /* within the card's view for this role */
	char pci_addr[16];              /* "DDDD:BB:DD.F" */
	char ibdev_name[SOFTHW_MAX_STR];
	char iface_name[SOFTHW_MAX_STR];
	uint8_t mac[6];
	bool has_ipv4;
	uint8_t ipv4[4];
	bool has_ipv6;
	uint8_t ipv6[16];
	uint8_t gid[16];                /* RoCE v2 GID (IPv4-mapped) */
	uint16_t vhca_id;
	uint64_t active_rate;
	enum doca_pci_func_type func_type;
	uint32_t sf_index;
	struct softhw_caps caps;
	uint32_t num_reps;
	const struct softhw_rep *reps;  /* only in the DPU view */
};

#define SOFTHW_ACCESS_MAX_UIDS 16

/*
 * Who besides the process's own user may reach its rendezvous points (memory service, Comch,
 * the soft NIC's unix listener) and be reached by it: the [access] section of the
 * configuration (docs/device-model.md). Empty: the same user only.
 */
struct softhw_access {
	uint32_t num_uids;
	uid_t uids[SOFTHW_ACCESS_MAX_UIDS]; /* allow_uids */
	bool has_group;
	gid_t gid;                          /* allow_group: a peer with it as primary or supplementary group */
};

/* ---------------------------------------------------------------------------------------
 * Faults (lib/softhw/faults): what a card's configuration asks it to get wrong on purpose
 * (`faults.*` keys, docs/device-model.md "Faults"), so that programs can test their error paths
 * ------------------------------------------------------------------------------------ */

enum softhw_fault {
	SOFTHW_FAULT_DMA_ERROR,  /* a DMA copy fails with IO_FAILED, nothing copied (the engine's COPY) */
	SOFTHW_FAULT_RDMA_ERROR, /* an RDMA work request fails as when the transport gives up on it */
	SOFTHW_FAULT_DROP,       /* a RoCEv2 datagram is lost on its way in */
	SOFTHW_FAULT_DISCONNECT, /* an RDMA connection is cut before a work request leaves */
	SOFTHW_FAULT_COUNT,
};

/* A card's faults, as configured for the side this process plays, and what they did so far. */
struct softhw_faults {
	uint32_t every[SOFTHW_FAULT_COUNT]; /* the error kinds: every Nth occurrence fails; 0: none */
	uint32_t drop_ppm;                  /* DROP: the share lost, in parts per million */
	uint32_t delay_ms, jitter_ms;       /* RoCEv2 datagrams coming in are held delay + [0, jitter] ms */
	uint64_t rng;                       /* DROP's generator state, from faults.seed (atomic) */
	uint64_t rng_delay;                 /* the jitter's, from the seed too (atomic) */
	uint64_t delayed;                   /* datagrams held (atomic) */
	uint64_t seen[SOFTHW_FAULT_COUNT];  /* occurrences so far (atomic) */
	uint64_t hits[SOFTHW_FAULT_COUNT];  /* faults injected (atomic) */
};

/*
 * Whether this occurrence of `kind` fails: counts it, and the fault when it does. Callers test
 * the card's pointer first (NULL: no faults), so a card without faults pays one load.
 */
bool softhw_fault_hit(struct softhw_faults *f, enum softhw_fault kind);
/* The configuration key of a kind ("faults.rdma_error"), for log lines. */
const char *softhw_fault_key(enum softhw_fault kind);
/*
 * How long to hold the next datagram coming in (faults.delay, faults.jitter): delay plus a
 * share of the jitter drawn from the seed, in ms; 0 when the card delays nothing.
 */
uint32_t softhw_fault_delay_ms(struct softhw_faults *f);

/* How the card's soft NIC talks to peers (`wire =` in the configuration). */
enum softhw_wire {
	SOFTHW_WIRE_STREAM = 0, /* default: our own unix / TCP stream (docs/fabric.md) */
	SOFTHW_WIRE_ROCEV2,     /* RoCEv2 over UDP 4791 on the functions' IPv4 addresses (docs/rocev2.md) */
};

struct softhw_card {
	char name[SOFTHW_MAX_STR];      /* "bf3-0" */
	enum softhw_profile profile;
	const char *profile_name;       /* "BlueField-3": for log lines of libraries that refuse a profile */
	char instance[SOFTHW_MAX_STR];  /* identifies the run directory; part of every descriptor */
	uint32_t index;                 /* position in the model (configuration order) */
	bool has_dpu;                   /* BlueField: a DPU side exists (ConnectX: host side only) */
	const struct softhw_access *access; /* the model's [access]; NULL: the same user only */
	enum softhw_wire wire;          /* the soft NIC's path for RDMA connections */
	struct softhw_faults *faults;   /* what it gets wrong on purpose on this side; NULL: nothing */
};

/*
 * The model of this process: loaded once (embedded default or configuration file), then
 * read-only. Returns NULL with *err set when the configuration is unusable; the reason was
 * logged (file and line).
 */
const struct softhw_model *softhw_model_get(doca_error_t *err);
enum softhw_role softhw_model_role(const struct softhw_model *model);
uint32_t softhw_model_num_functions(const struct softhw_model *model);
const struct softhw_function *softhw_model_function(const struct softhw_model *model, uint32_t i);
const char *softhw_model_run_dir(const struct softhw_model *model);
const char *softhw_profile_name(enum softhw_profile profile);
/*
 * Creates the run directory (mkdir -p, mode 0700) on first use; OPERATING_SYSTEM if it can't,
 * or if it is not this user's alone (softhw_private_dir_open), logged with the way out.
 */
doca_error_t softhw_model_run_dir_create(const struct softhw_model *model);
/*
 * Opens directory `path` (relative to `at`, or AT_FDCWD) with O_PATH, for the *at() calls, if
 * only this user controls what is in it: a directory, not a symlink, owned by the effective uid
 * and writable by neither its group nor others. -1 otherwise, with errno ENOENT when there is
 * none, EPERM when it breaks that rule, open's errno else. The run directory and its folders
 * pass it before a file in them is trusted (a default /tmp/softdoca-<uid> can be made by
 * another user first).
 */
int softhw_private_dir_open(int at, const char *path);
/* Where the model came from: a configuration file path, or "built-in default". */
const char *softhw_model_source(const struct softhw_model *model);
/*
 * Parses a PCI address, "BB:DD.F" or "DDDD:BB:DD.F" (hex, any case), into the canonical
 * lower-case "dddd:bb:dd.f". Returns false when the string is not a PCI address.
 */
bool softhw_pci_addr_parse(const char *str, char out[SOFTHW_PCI_ADDR_LEN]);

/*
 * The access policy of this process's model (loads the model on first use); NULL when the
 * model did not load: then only the same user is let in.
 */
const struct softhw_access *softhw_access_policy(void);

/* The role fixed by the flavour libdoca_common was built as (lib/flavour/role.c). */
extern const enum softhw_role softhw_flavour_role;

/* ---------------------------------------------------------------------------------------
 * Engine (lib/softhw/engine): work queues the soft hardware executes
 * ------------------------------------------------------------------------------------ */

struct softhw_mem_remote; /* memory another process exported (fabric/mem.h) */

/*
 * One contiguous piece of memory: in this process, or, when `remote` is set, at address
 * `addr` of the process that exported it (reached through the fabric).
 */
struct softhw_sge {
	void *addr;
	uint64_t len;
	struct softhw_mem_remote *remote;
};

enum softhw_op {
	SOFTHW_OP_COPY = 1, /* gather src segments, scatter into dst segments */
	SOFTHW_OP_CALL,     /* library-defined work: run when ready() says so */
	SOFTHW_OP_FAIL,     /* a fault the hardware reports: completes with the preset status */
	SOFTHW_OP_DONE,     /* done at submission (a message already on the wire): completes with the
			     * preset status, even when a stopping context flushes its queue */
	SOFTHW_OP_INVALIDATE, /* make the CPU read `inval.sge` from memory (cache invalidate) */
	SOFTHW_OP_PARKED,   /* handed to a device (the soft NIC): never ready until the library's
			     * softhw_queue_done() says its completion came */
};

struct softhw_work;
typedef bool (*softhw_ready_fn)(struct softhw_work *work);
typedef doca_error_t (*softhw_run_fn)(struct softhw_work *work);

/* A work request. Embedded in the task that asked for it; the engine never allocates. */
struct softhw_work {
	struct softhw_work *next;
	struct softhw_work *prev; /* parked only: its completion takes it out from anywhere in the list */
	uint64_t seq;             /* submission order, across the queue's two lists */
	enum softhw_op op;
	doca_error_t status;      /* set by the engine when the work completes */
	uint64_t result_len;      /* bytes moved by a COPY */
	union {
		struct {
			const struct softhw_sge *src;
			uint32_t nsrc;
			const struct softhw_sge *dst;
			uint32_t ndst;
		} copy;
		struct {
			softhw_ready_fn ready; /* NULL: always ready */
			softhw_run_fn run;
		} call;
		struct {
			const struct softhw_sge *sge;
		} inval;
	};
};

/*
 * The work of one context, in submission order; used by one thread (the PE's) at a time. Work
 * handed to a device (SOFTHW_OP_PARKED: an RDMA context's posted receives, its sends in flight)
 * waits in a list of its own, so that neither a poller nor a completion walks past it: a server
 * with hundreds of receives posted completes a send as cheaply as one with none. When its
 * completion comes it joins the other list at its place in submission order, so what executes
 * first is still the first ready work that was submitted.
 */
struct softhw_queue {
	struct softhw_work *head; /* work that is not parked, oldest first */
	struct softhw_work *tail;
	struct softhw_work *parked_head; /* parked work, oldest first (doubly linked) */
	struct softhw_work *parked_tail;
	uint64_t seq;   /* the next work's submission number */
	uint32_t depth; /* all the work of both lists */
	uint32_t parked;
	struct softhw_faults *faults; /* the card's, for the copies it executes; NULL: none */
};

static inline void softhw_queue_init(struct softhw_queue *q)
{
	q->head = NULL;
	q->tail = NULL;
	q->parked_head = NULL;
	q->parked_tail = NULL;
	q->seq = 0;
	q->depth = 0;
	q->parked = 0;
	q->faults = NULL;
}

void softhw_queue_post(struct softhw_queue *q, struct softhw_work *work);
/* True when some work of the queue could execute now (a wait whose condition holds, a copy). */
bool softhw_queue_has_ready(const struct softhw_queue *q);
/* softhw_queue_execute's out-of-line part: finds the first ready work and executes it. */
struct softhw_work *softhw_queue_execute_walk(struct softhw_queue *q);
/*
 * Executes the first ready work of the queue and returns it completed; NULL if none is ready.
 * Inline for what a poller meets on nearly every call: only parked work (or none), or a head
 * that is done already (a task done at submission, or whose completion came).
 */
static inline struct softhw_work *softhw_queue_execute(struct softhw_queue *q)
{
	struct softhw_work *w = q->head;

	if (w == NULL)
		return NULL;
	if (w->op != SOFTHW_OP_DONE && w->op != SOFTHW_OP_FAIL)
		return softhw_queue_execute_walk(q);
	q->head = w->next;
	if (q->tail == w)
		q->tail = NULL;
	w->next = NULL;
	q->depth--;
	return w;
}
/* Removes the oldest work without executing it, completing it with `status`. */
struct softhw_work *softhw_queue_flush(struct softhw_queue *q, doca_error_t status);
/* Appends w to the ready list (it is newer than all the work there). */
static inline void softhw_queue_append_ready(struct softhw_queue *q, struct softhw_work *w)
{
	w->next = NULL;
	if (q->tail != NULL)
		q->tail->next = w;
	else
		q->head = w;
	q->tail = w;
}
/* Takes w out of the parked list, wherever it is. */
static inline void softhw_queue_unpark(struct softhw_queue *q, struct softhw_work *w)
{
	if (w->prev != NULL)
		w->prev->next = w->next;
	else
		q->parked_head = w->next;
	if (w->next != NULL)
		w->next->prev = w->prev;
	else
		q->parked_tail = w->prev;
	w->next = NULL;
	w->prev = NULL;
	q->parked--;
}
/*
 * Puts w among newer ready work, at its submission place (inline: libraries other than
 * libdoca_common report completions, and the engine exports nothing to them).
 */
static inline void softhw_queue_insert_ready(struct softhw_queue *q, struct softhw_work *w)
{
	struct softhw_work *prev = NULL, *at = q->head;

	while (at != NULL && at->seq < w->seq) {
		prev = at;
		at = at->next;
	}
	w->next = at;
	if (prev != NULL)
		prev->next = w;
	else
		q->head = w;
	if (at == NULL)
		q->tail = w;
}
/*
 * Parked work of q whose device completion came: the next execute that reaches it completes it
 * with `status`. It leaves the parked list where it is, in O(1).
 */
static inline void softhw_queue_done(struct softhw_queue *q, struct softhw_work *work, doca_error_t status)
{
	softhw_queue_unpark(q, work);
	work->op = SOFTHW_OP_DONE;
	work->status = status;
	if (q->tail == NULL || q->tail->seq < work->seq) /* newer than all the ready work: the usual case */
		softhw_queue_append_ready(q, work);
	else
		softhw_queue_insert_ready(q, work);
}
static inline bool softhw_queue_empty(const struct softhw_queue *q)
{
	return q->depth == 0;
}

/* ---------------------------------------------------------------------------------------
 * Clocks of a card (lib/softhw/engine/clock.c)
 * ------------------------------------------------------------------------------------ */

enum softhw_clock {
	SOFTHW_CLOCK_NIC_FREE_RUNNING,
	SOFTHW_CLOCK_NIC_REAL_TIME,
	SOFTHW_CLOCK_NIC_DPA_TIMER,
};

/* The host clock a clock of the soft card follows: clocks of one source read the same time. */
clockid_t softhw_clock_source(enum softhw_clock clock);
/*
 * Reads a clock of the card of `fn`; NOT_SUPPORTED when its profile lacks that clock,
 * OPERATING_SYSTEM when the host clock behind it cannot be read.
 */
doca_error_t softhw_clock_read(const struct softhw_function *fn, enum softhw_clock clock, struct timespec *ts);

#endif /* SOFTHW_H */
