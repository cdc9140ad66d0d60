/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libdoca_sta's data path (private): QPs made from librdmacm ids, command capsules, the
 * offloaded NVMe Read / Write / Flush against the back-end queues, and what goes to the
 * application through the non-offload callback.
 *
 * Where it runs: each running IO context has one job on the soft card's DPA EUs (the STA
 * context opens the device's soft DPA at start, lib/softhw/dpa). The job blocks in poll() on
 * the IO context's completion channel, the interrupt eventfds of the back-end CQs it owns, the
 * io_urings it executes their commands on (beq.c) and a stop eventfd: nothing spins, and no I/O
 * runs on the application's threads. The
 * application's threads only post non-offload responses and data (tasks) and receive the
 * non-offload capsules from doca_pe_progress. One mutex per IO context (dp_lock) serialises
 * the EU and the application's calls on that context's QPs.
 */
#ifndef SOFTDOCA_STA_DP_H
#define SOFTDOCA_STA_DP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sta_priv.h"
#include "softhw/dpa/dpa.h"

#ifdef SOFTDOCA_STA_DATA_PATH
#include <rdma/rdma_cma.h>
#include <infiniband/verbs.h>
#endif

#define STA_SQE 64
#define STA_CQE 16
#define STA_CQ_ENTRIES 4096 /* one verbs CQ per IO context */

/* NVMe opcodes and statuses the offload uses (SC | SCT << 8). */
enum { STA_OPC_FLUSH = 0x00, STA_OPC_WRITE = 0x01, STA_OPC_READ = 0x02, STA_OPC_FABRICS = 0x7f };
enum {
	STA_SC_INVALID_FIELD = 0x02,
	STA_SC_DATA_XFER_ERROR = 0x04,
	STA_SC_INTERNAL = 0x06,
	STA_SC_ABORTED_SQ_DELETION = 0x08,
	STA_SC_INVALID_NS = 0x0b,
	STA_SC_CMD_SEQ_ERROR = 0x0c,
	STA_SC_SGL_LENGTH_INVALID = 0x0f,
	STA_SC_SGL_TYPE_INVALID = 0x11,
};
#define STA_DNR 0x4000 /* Do Not Retry in SC | SCT << 8 form (bit 15 of the CQE's status word) */

/* A slot's state: one command capsule from its receive to its response. */
enum sta_slot_state {
	SLOT_RECV,      /* its receive is posted */
	SLOT_RDMA_READ, /* pulling write data from the host */
	SLOT_NVME,      /* on a back-end queue (or waiting for room on one) */
	SLOT_RESPOND,   /* response (and read data) posted; the SEND completion frees it */
	SLOT_APP,       /* handed to the application (non-offload) */
};

struct sta_beq;

/* One capsule buffer of a QP and the command it carries. */
struct sta_slot {
	struct doca_sta_qp_handle *qp;
	uint32_t index;
	enum sta_slot_state state;
	uint8_t *capsule;        /* SQE + in-capsule data (the receive buffer) */
	uint32_t capsule_len;    /* bytes received */
	uint8_t *data;           /* data buffer (max I/O size), made on first use */
	uint8_t *buf;            /* the command's data on the disk's side: data, or the capsule's in place */
	uint8_t *prp_list;       /* one page: PRP list of data */
	uint8_t rsp[STA_CQE];
	struct doca_sta_ns_handle *ns;
	struct sta_beq *beq;
	uint16_t nvme_cid;
	uint32_t len;            /* bytes of data */
	uint64_t raddr;          /* keyed SGL */
	uint32_t rkey;
	bool keyed;
	bool inv;                /* keyed SGL subtype Invalidate Key: the response is a SEND with invalidate */
	struct sta_slot *wait_next; /* waiting for room on a back-end SQ */
	struct doca_sta_producer_task_send *task; /* a non-offload task in flight on this slot */
	uint32_t seq;            /* commands handed to the application on this slot: its user data names one */
#ifdef SOFTDOCA_STA_DATA_PATH
	struct ibv_mr *data_mr;
#endif
};

struct doca_sta_qp_handle {
	struct doca_sta_qp_handle *next;
	struct doca_sta_io *io;
	const struct doca_sta_subs_handle *subs;
	union doca_data user_data;
	uint32_t id;
	uint16_t group;          /* its IO context's index: asked after the IO context may be gone */
	uint16_t qid;            /* from the Fabrics Connect the application answered with success: 0 admin */
	uint16_t sq_size;        /* entries (doca_sta_io_qp_connect_set_sq_size + 1) */
	uint16_t sqhd;           /* SQ head reported in responses */
	uint32_t depth;          /* crqsize of the accept */
	uint32_t nslots;         /* capsule buffers (receives) and command slots: twice the depth */
	bool accepted, established, dead, destroyed;
	bool connected;          /* the application answered a Fabrics Connect with success: qid is set */
	uint32_t busy;           /* slots not in SLOT_RECV */
	struct sta_slot *slots;
	uint8_t *capsules;
	uint32_t capsule_size;
	uint32_t capsule_stride; /* bytes from one capsule to the next (qp.c: their data page-aligned) */
#ifdef SOFTDOCA_STA_DATA_PATH
	struct rdma_cm_id *cm_id;
	struct ibv_mr *capsule_mr;
#endif
};

/* The run-time side of a back-end queue, on the EU of the IO context that owns it. */
struct sta_beq {
	struct doca_sta_be_q_handle *h;
	struct doca_sta_io *owner;
	uint8_t *sq;             /* 64-byte SQEs */
	uint8_t *cq;             /* 16-byte CQEs */
	uint16_t sq_depth, cq_depth;
	uint16_t sq_tail, sq_head, cq_head;
	uint8_t phase;
	uint16_t cqid;
	volatile uint32_t *sq_db, *cq_db;
	int wake_fd, irq_fd;
	const uint32_t *asleep, *cq_wait; /* the disk's: wake it only when these say so (nvme_ops.h) */
	uint32_t *irq_gate;               /* the CQ's interrupt: armed only while the EU sleeps */
	void (*kick)(void *kick_ctx);     /* the disk fetches in our thread when idle (nvme_ops.h) */
	void *kick_ctx;
	/*
	 * The SQ executed on an io_uring of this EU's (nvme_ops.h own_sq), NULL when the disk's
	 * controller thread does it: progress() fetches, submits and reaps, ring_fd is in the EU's
	 * poll set. eu_reaped: the CQEs progress() posted, not yet counted (dp.c).
	 */
	const struct softhw_nvme_ops *nvme;
	struct softhw_nvme_owner *own;
	int ring_fd;
	uint32_t eu_reaped;
	struct sta_slot **cids;  /* sq_depth entries: the slot of each CID in flight */
	uint32_t inflight;
	bool ring_pending;       /* SQEs placed since the last doorbell: rung once per batch */
	struct sta_slot *wait_head, *wait_tail;
	uint64_t busy_since_ms;  /* the last completion, or the submission that ended an idle spell */
	bool timed_out;          /* the back-end time-out event went for this spell */
};

/* A non-offload capsule (slot) or a transport error (qp) waiting for doca_pe_progress. */
struct sta_nonoff {
	struct sta_nonoff *next;
	struct sta_slot *slot;
	struct doca_sta_qp_handle *qp;
	struct doca_sta_event_transport_err err;
	uint64_t since_ms;       /* queued at (sta_now_ms) */
	bool warned;             /* the watchdog logged it */
};

/* Data path state of an IO context (struct doca_sta_io's dp). */
struct sta_io_dp {
	struct doca_sta_io *io;
	pthread_mutex_t lock;
	struct doca_sta_qp_handle *qps;
	uint32_t num_qps;
	int stop_fd;             /* eventfd: the EU job leaves */
	bool stop;
	bool overran;            /* atomic: the DPA's watchdog stopped the job (a fatal EU error) */
	uint32_t done_flag;      /* raised when the job is over */
	bool job_running;
	struct softhw_dpa_job job;
	struct sta_nonoff *nonoff_head, *nonoff_tail;
	
	struct sta_beq *beqs[64];
	uint32_t num_beqs;
#ifdef SOFTDOCA_STA_DATA_PATH
	struct ibv_context *verbs;
	struct ibv_pd *pd;
	struct ibv_comp_channel *chan;
	struct ibv_cq *cq;
	bool cq_armed;           /* EU: armed since the last event it took (it never sleeps otherwise) */
#endif
};

/* Little-endian fields of capsules and queue entries. */
static inline uint16_t sta_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t sta_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t sta_le64(const uint8_t *p)
{
	return (uint64_t)sta_le32(p) | (uint64_t)sta_le32(p + 4) << 32;
}

/* beq.c (dp lock held) */
/* The back-end queue of `be` this IO context drives: its own, or a free one it claims; NULL (logged). */
struct sta_beq *sta_beq_of(struct doca_sta_io *io, struct doca_sta_be_handle *be);
/* Places the slot's command on the SQ (PRPs, back-end NSID); false when there is no room. */
bool sta_beq_push(struct sta_beq *b, struct sta_slot *s);
/* Publishes the SQ tail and wakes the disk's controller if it sleeps (or submits on our ring). */
void sta_beq_ring(struct sta_beq *b);
/* Our io_uring's completions (an owned SQ): their CQEs are posted; no-op otherwise. */
void sta_beq_progress(struct sta_beq *b);
/* The EU is about to sleep: arms the CQ's interrupt; true if a completion is there already. */
bool sta_beq_arm(struct sta_beq *b);
/* Up to max new completions: their slots and statuses (SC | SCT << 8); frees their CQ slots. */
int sta_beq_reap(struct sta_beq *b, struct sta_slot **done, uint16_t *status, int max);
/* Queues a command for when the SQ has room; sta_beq_push_waiting places those that fit. */
void sta_beq_wait(struct sta_beq *b, struct sta_slot *s);
void sta_beq_push_waiting(struct sta_beq *b);
/* The IO context lets the queue go (stop). */
void sta_beq_release(struct sta_beq *b);
/* Writes 1 to an eventfd. */
void sta_wake(int fd);
/* CLOCK_MONOTONIC in ms. */
uint64_t sta_now_ms(void);

/* dp.c */
doca_error_t sta_dp_io_start(struct doca_sta_io *io);
void sta_dp_io_stop(struct doca_sta_io *io);
/* Wakes the EU job so that it polls a new fd (a channel, a back-end CQ). */
void sta_dp_kick(struct sta_io_dp *dp);
/* qp.c, dp lock held: frees a QP whose last slot is done; takes a QP away from the host */
void sta_qp_free(struct doca_sta_qp_handle *qp);
void sta_qp_destroy_locked(struct doca_sta_qp_handle *qp);
/* qp.c, dp lock held: the application's tasks in flight on the QP end now (CONNECTION_ABORTED) */
void sta_qp_abort_tasks(struct doca_sta_qp_handle *qp);
/* dp.c: under the dp lock */
void sta_dp_post_recv(struct doca_sta_qp_handle *qp, struct sta_slot *s);
int sta_dp_send_rsp(struct sta_slot *s, const uint8_t *cqe, bool write_data);
int sta_dp_rdma_read(struct sta_slot *s);
void sta_dp_slot_done(struct sta_slot *s);
/* The application's response (cqe) to the slot's command goes: a successful Connect connects the QP. */
void sta_dp_app_response(struct sta_slot *s, const uint8_t *cqe);
uint8_t *sta_dp_slot_data(struct sta_slot *s);

#endif /* SOFTDOCA_STA_DP_H */
