/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdoca_sta internals: the control context, its objects and the IO contexts (private).
 *
 * This slice is the control path: objects, limits from the card profile, call order, the
 * removal tasks and statistics. The offloaded data path (QPs from RDMA-CM ids, capsules,
 * NVMe queues) is not here yet: its calls return DOCA_ERROR_NOT_SUPPORTED (docs/sta.md).
 */
#ifndef SOFTDOCA_STA_PRIV_H
#define SOFTDOCA_STA_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "doca_sta.h"
#include "doca_sta_be.h"
#include "doca_sta_event.h"
#include "doca_sta_io.h"
#include "doca_sta_io_non_offload.h"
#include "doca_sta_io_qp.h"
#include "doca_sta_mem.h"
#include "doca_sta_stats.h"
#include "doca_sta_subsystem.h"
#include "doca_sta_task.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/dev_priv.h"

#define STA_MAX_DEVS 16 /* upper bound of any profile's sta_max_devs */
#define STA_NQN_MIN 11
#define STA_NQN_MAX 223
#define STA_EU_TYPES 3 /* COMP, TX, BEQ: one EU of each per IO thread */
#define STA_BE_TIMEOUT_MS 30000 /* as Linux's NVMe I/O timeout; SOFTDOCA_STA_BE_TIMEOUT_MS overrides it */
/* a non-offload capsule not taken by doca_pe_progress for this long is logged (a host's admin
 * timeout is 60 s, its Connect's a few seconds); SOFTDOCA_STA_NONOFF_WARN_MS overrides it */
#define STA_NONOFF_WARN_MS 5000
/* An EU job's slice: well below any kernel max run time (60 s on a BlueField-3 profile);
 * SOFTDOCA_STA_EU_SLICE_MS shortens it (tests: many slice ends under load) */
#define STA_EU_SLICE_MS 5000

/* Task types of the control context and of an IO context (indexes of their pools). */
enum { STA_TASK_RM_NS = 0, STA_TASK_DESTROY_BEQ = 1 };
enum { STA_IO_TASK_DISCONNECT = 0, STA_IO_TASK_WRITE_SEND, STA_IO_TASK_READ, STA_IO_TASK_TYPES };
#define STA_IO_TASK_SEND_ONLY STA_IO_TASK_TYPES /* a response without data: the write-send pool */
#define STA_IO_TASKS 1024 /* tasks of each IO task type (their set_conf calls take no count) */

/* Counters of an EU, a back-end queue and a namespace (zero until the data path exists). */
/* NVME_EU_REAPED: completions the EU posted itself from its own io_uring (beq.c); NVME_IRQS: its
 * wake-ups by a back-end CQ's interrupt (completions the disk's controller thread posted) */
enum { STA_EU_CTR_RX_CAPSULES, STA_EU_CTR_TX_RESPONSES, STA_EU_CTR_RDMA_READS, STA_EU_CTR_RDMA_WRITES,
       STA_EU_CTR_NVME_SUBMITTED, STA_EU_CTR_NVME_COMPLETED, STA_EU_CTR_NON_OFFLOAD, STA_EU_CTR_NVME_EU_REAPED,
       STA_EU_CTR_NVME_IRQS, STA_EU_CTRS };
enum { STA_BEQ_CTR_SUBMITTED, STA_BEQ_CTR_COMPLETED, STA_BEQ_CTR_TIMEOUTS, STA_BEQ_CTRS };
enum { STA_NS_CTR_READS, STA_NS_CTR_WRITES, STA_NS_CTR_READ_BYTES, STA_NS_CTR_WRITE_BYTES, STA_NS_CTR_ERRORS,
       STA_NS_CTRS };

/* One callback pair of a task type (doca_sta_task_completion_cb_t has no ctx user data). */
struct sta_task_cbs {
	doca_sta_task_completion_cb_t done;
	doca_sta_task_completion_cb_t error;
	bool set;
};

struct doca_sta_eu_handle {
	struct doca_sta *sta;
	enum dpa_sta_eu_type type;
	uint16_t id;
	uint16_t port;
	char name[24];
	uint64_t *ctr; /* STA_EU_CTRS counters in the allocator's pinned memory */
	struct doca_sta_eu_ctr_entry entries[STA_EU_CTRS];
};

struct doca_sta_ns_handle {
	struct doca_sta_ns_handle *next;
	struct doca_sta *sta;
	struct doca_sta_subs_handle *subs;
	struct doca_sta_be_handle *be;
	uint32_t fe_ns_id;
	uint32_t be_ns_id;
	uint32_t block_size;
	uint64_t ctr[STA_NS_CTRS];
	struct doca_sta_eu_ctr_entry entries[STA_NS_CTRS];
	/* under the STA's leaf_lock: the data path's commands on it; once removed from its
	 * subsystem it is freed when they are done (by the remove task, or by the last one) */
	uint32_t inflight;
	bool removed, free_when_idle;
};

struct doca_sta_subs_handle {
	struct doca_sta_subs_handle *next;
	struct doca_sta *sta;
	char nqn[STA_NQN_MAX + 1];
	const struct doca_dev *devs[STA_MAX_DEVS];
	uint32_t num_devs;
	struct doca_sta_ns_handle *ns;
	uint32_t num_ns;
	uint32_t num_qps; /* QPs whose subsystem it is (under the STA's leaf_lock): it is not destroyed under them */
};

struct doca_sta_be_q_handle {
	struct doca_sta_be_q_handle *next;
	struct doca_sta_be_handle *be;
	struct doca_mmap *sq, *sq_db, *cq, *cq_db;
	uint16_t sq_db_offset, cq_db_offset;
	uint64_t ctr[STA_BEQ_CTRS];
	struct doca_sta_eu_ctr_entry entries[STA_BEQ_CTRS];
	uint64_t eu_id; /* the BEQ EU that polls this queue */
	struct doca_sta_io *owner; /* the IO context whose EU drives it (under the STA's leaf_lock) */
	struct doca_sta_eu_ctr_entry mapping;
};

struct doca_sta_be_handle {
	struct doca_sta_be_handle *next;
	struct doca_sta *sta;
	struct doca_sta_be_q_handle *queues;
	uint32_t num_queues;
	uint32_t num_ns; /* (leaf_lock) namespaces on this back-end, a removed one until it is freed */
};

/* The one task type of STA: which object it removes is fixed at allocation. */
struct sta_slot;
struct sta_io_dp;
struct softhw_dpa;

struct doca_sta_producer_task_send {
	struct doca_task base; /* first: doca_sta_producer_send_task_as_task */
	struct doca_sta_subs_handle *subs;
	struct doca_sta_ns_handle *ns;
	struct doca_sta_be_q_handle *beq;
	/* IO context tasks (dp.h): the QP (and its id: a QP destroyed since is not dereferenced), the
	 * capsule slot, the response */
	struct doca_sta_qp_handle *qp;
	uint32_t qp_id;
	struct sta_slot *slot;
	uint32_t seq;           /* the slot's command it answers (dp.h) */
	uint8_t cqe[16];
	int kind;               /* STA_IO_TASK_*, or STA_IO_TASK_SEND_ONLY */
	uint32_t done;          /* atomic: the EU finished it (status below) */
	doca_error_t status;
};

#define STA_CQE_NOTES_MAX 4096

struct doca_sta {
	struct doca_ctx ctx; /* first: doca_sta_as_ctx and the ops receive it */
	struct doca_dev *dev;
	const struct softhw_caps *caps;
	struct doca_dev *devs[STA_MAX_DEVS]; /* doca_sta_add_dev */
	uint32_t num_devs;
	uint16_t max_sta_io;
	doca_sta_zmalloc_cb_t zmalloc;
	doca_sta_free_cb_t free;
	doca_sta_vtophys_cb_t vtophys;
	struct sta_task_cbs task_cbs[2];
	doca_sta_event_be_timeout_cb_t be_timeout_cb;
	union doca_data be_timeout_ud;
	doca_sta_event_eu_err_cb_t eu_err_cb;
	union doca_data eu_err_ud;
	doca_sta_event_cqe_notify_cb_t cqe_notify_cb;
	union doca_data cqe_notify_ud;
	uint32_t be_timeout_ms; /* a back-end queue with commands and no completion for this long */
	uint32_t nonoff_warn_ms; /* a non-offload capsule waiting for doca_pe_progress this long: logged */
	uint32_t eu_slice_ms;    /* an EU job's slice (STA_EU_SLICE_MS) */
	bool eu_uring;           /* EUs run their back-end queues on io_urings of their own (beq.c) */
	/* objects */
	struct doca_sta_subs_handle *subsystems;
	uint32_t num_subsys;
	struct doca_sta_be_handle *backends;
	uint32_t num_be;
	/* IO contexts are made and started on their own threads (one per IO thread): the list
	 * is under io_lock, their states are read atomically */
	pthread_mutex_t io_lock;
	struct doca_sta_io *ios;
	uint32_t num_io;
	/* EUs: exist from start to stop; counters in memory from the registered allocator */
	struct doca_sta_eu_handle *eus;
	uint32_t num_eus;
	uint64_t *eu_ctr;
	bool told_waiting_io; /* the stop waits for IO contexts: logged once */
	struct softhw_dpa *dpa; /* the soft DPA whose EUs run the data path (dp.c) */
	/* taken inside an IO context's data-path lock (never the other way round): back-end queue
	 * owners and the CQE-notify events waiting for the PE */
	pthread_mutex_t leaf_lock;
	struct sta_cqe_note *notes, *notes_tail;
	/* CQE-notify events in notes: at most STA_CQE_NOTES_MAX (a host's refused commands each
	 * make one, faster than a slow PE may take them); those past it are dropped, logged once
	 * per overflow (overflowing) */
	uint32_t num_cqe_notes;
	bool overflowing;
	/* the QP the CQE-notify callback running now names; a destroy meanwhile leaves its memory
	 * to the delivery, which frees it once the callback returned (free_delivered) */
	const struct doca_sta_qp_handle *delivering_qp;
	bool free_delivered;
	uint32_t next_qp_id;
	uint32_t num_qps;        /* accepted QPs of every IO context (atomic): at most caps->sta_max_qps */
};

struct doca_sta_io {
	struct doca_ctx ctx; /* first */
	struct doca_sta_io *next;
	struct doca_sta *sta;
	doca_sta_io_non_offload_cb_t non_offload_cb;
	union doca_data non_offload_ud;
	doca_sta_event_transport_err_cb_t transport_err_cb;
	union doca_data transport_err_ud;
	struct sta_task_cbs task_cbs[STA_IO_TASK_TYPES];
	struct sta_io_dp *dp;   /* the data path while RUNNING (dp.h) */
	uint32_t index;         /* creation order: back-end queues and EUs map to it */
};

/* Events (delivered by the data path once it exists; the getters read these). */
struct doca_sta_event_transport_err {
	const struct doca_sta_qp_handle *qp;
	uint32_t operation, syndrome, vendor_syndrome;
};
struct doca_sta_event_be_timeout {
	const struct doca_sta_be_handle *be;
	const struct doca_sta_be_q_handle *beq;
};
struct doca_sta_event_eu_err {
	const struct doca_sta_eu_handle *eu;
	bool fatal;
};
struct doca_sta_event_cqe_notify {
	enum doca_sta_cqe_notify_type type;
	doca_sta_nvme_completion_t cqe;
	const struct doca_sta_subs_handle *subs;
	const struct doca_sta_qp_handle *qp;
	uint8_t opcode;
	uint16_t cid, nsid, pel;
	uint64_t lba;
};

/* An event of the STA context raised by an EU, delivered from the STA context's doca_pe_progress. */
enum { STA_NOTE_CQE, STA_NOTE_BE_TIMEOUT, STA_NOTE_EU_ERR };
struct sta_cqe_note {
	struct sta_cqe_note *next;
	int kind;
	struct doca_sta_event_cqe_notify ev;
	struct doca_sta_event_be_timeout be;
	struct doca_sta_event_eu_err eu;
};
/* Queue one (any thread); nothing when no callback is registered. */
void sta_cqe_notify(struct doca_sta *sta, const struct doca_sta_event_cqe_notify *ev);
void sta_be_timeout(struct doca_sta *sta, const struct doca_sta_be_q_handle *beq);
void sta_eu_error(struct doca_sta *sta, const struct doca_sta_eu_handle *eu, bool fatal);
/*
 * The events of an object that goes (leaf_lock taken inside): the CQE-notify events naming a
 * destroyed QP or subsystem name none any more, a destroyed back-end queue's time-out events are
 * dropped (both return how many). sta_notes_keep_qp: true when the CQE-notify callback running
 * now names the QP, which that delivery then frees once the callback returned.
 */
uint32_t sta_notes_forget_qp(struct doca_sta *sta, const struct doca_sta_qp_handle *qp);
uint32_t sta_notes_drop_beq(struct doca_sta *sta, const struct doca_sta_be_q_handle *beq);
void sta_notes_forget_subs(struct doca_sta *sta, const struct doca_sta_subs_handle *subs);
bool sta_notes_keep_qp(struct doca_sta *sta, const struct doca_sta_qp_handle *qp);

/* subsystem.c (any thread): namespace nsid of subs with one more command on it, or NULL; the
 * command is done with it. */
struct doca_sta_ns_handle *sta_ns_get(const struct doca_sta_subs_handle *subs, uint32_t nsid);
void sta_ns_put(struct doca_sta_ns_handle *ns);
/* Takes the namespace out of its subsystem (new commands get Invalid Namespace); false if it is
 * not there (logged). The caller frees it once ns->inflight is 0. */
bool sta_ns_unlink(struct doca_sta *sta, struct doca_sta_subs_handle *subs, struct doca_sta_ns_handle *ns,
		   const char *what);
bool sta_ns_idle(struct doca_sta *sta, struct doca_sta_ns_handle *ns);
/* An unlinked namespace is freed now if no command is on it, else by its last (returns how many are). */
uint32_t sta_ns_free_when_idle(struct doca_sta_ns_handle *ns);

/* A QP's subsystem becomes subs (NULL: none); each subsystem counts its QPs. False (nothing
 * changed) when subs is not one of the STA context's: never created, or destroyed. */
bool sta_qp_set_subs(struct doca_sta *sta, const struct doca_sta_subs_handle **qp_subs,
		     const struct doca_sta_subs_handle *subs);

/* True when the context is RUNNING; otherwise logs "<what>: ..." naming the fix. */
bool sta_running(const struct doca_sta *sta, const char *what);
/* True when `dev` is the STA's device or one it added. */
bool sta_has_dev(const struct doca_sta *sta, const struct doca_dev *dev);
/* Membership by pointer comparison: a freed handle is never dereferenced. */
bool sta_owns_subs(const struct doca_sta *sta, const struct doca_sta_subs_handle *subs);
bool sta_owns_be(const struct doca_sta *sta, const struct doca_sta_be_handle *be);
/* Completion trampoline: DOCA Core's three-argument callback to STA's two-argument one. */
void sta_task_done(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud);
void sta_task_error(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud);
/* Fills a counter table. */
void sta_ctr_entries(struct doca_sta_eu_ctr_entry *e, const char *const *names, const uint64_t *vals, uint32_t n);
/* The caps of the first STA-capable device of the model (global getters); NULL: none (logged). */
const struct softhw_caps *sta_model_caps(const char *what);
/* The logged refusal of every data-path call of this slice. */
doca_error_t sta_data_path_missing(const char *call);

#endif /* SOFTDOCA_STA_PRIV_H */
