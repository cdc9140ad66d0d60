/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The start of every doca_dpa, shared by the softdoca libraries (private): libdoca_dpa owns
 * the object; libdoca_common (sync events, mmaps) and the other libraries reach the soft DPA
 * of a context through this part only.
 */
#ifndef SOFTDOCA_DPA_PRIV_H
#define SOFTDOCA_DPA_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/*
 * Kinds of the soft DPA's handle table (softhw_dpa_ops.handle_add): what device code names by
 * handle. One numbering for every library, so a handle of one kind is never taken for another.
 */
enum softdoca_dpa_handle_kind {
	SOFTDOCA_DPA_HANDLE_NOTIFY_COMP = 1, /* doca_dpa_notification_completion (libdoca_dpa) */
	SOFTDOCA_DPA_HANDLE_COMP = 2,        /* doca_dpa_completion (libdoca_dpa) */
	SOFTDOCA_DPA_HANDLE_RDMA = 3,        /* struct softdoca_dpa_rdma (libdoca_rdma) */
	SOFTDOCA_DPA_HANDLE_ASYNC_OPS = 4,   /* doca_dpa_async_ops (libdoca_dpa) */
	SOFTDOCA_DPA_HANDLE_HASH_TABLE = 5,  /* doca_dpa_hash_table (libdoca_dpa) */
};

/* doca_dpa_dev_completion_type_t's values (doca_dpa_dev.h is a device header). */
enum softdoca_dpa_comp_type {
	SOFTDOCA_DPA_COMP_SEND = 0x0,
	SOFTDOCA_DPA_COMP_RECV_RDMA_WRITE_IMM = 0x1,
	SOFTDOCA_DPA_COMP_RECV_SEND = 0x2,
	SOFTDOCA_DPA_COMP_RECV_SEND_IMM = 0x3,
	SOFTDOCA_DPA_COMP_SEND_ERR = 0xD,
	SOFTDOCA_DPA_COMP_RECV_ERR = 0xE,
};

/* doca_dpa_dev_submit_flag's values */
#define SOFTDOCA_DPA_SUBMIT_FLUSH (1U << 0)
#define SOFTDOCA_DPA_SUBMIT_OPTIMIZE_REPORTS (1U << 1)

/* One element of a DPA completion context (what doca_dpa_dev_get_completion_* read). */
struct softdoca_dpa_comp_elem {
	uint32_t type;      /* doca_dpa_dev_completion_type_t */
	uint32_t user_data; /* RDMA: the connection id; async ops: their user data */
	uint32_t imm;       /* RECV_SEND_IMM / RECV_RDMA_WRITE_IMM */
	uint32_t wr_index;  /* RDMA: the work request's index on its connection */
	uint32_t bytes;     /* receives: bytes placed */
	uint32_t syndrome;  /* errors: the doca_error_t of the failure */
	uint32_t qpn;
	uint32_t opcode;    /* the send side's work request kind */
	uint64_t timestamp; /* set by push: CLOCK_MONOTONIC nanoseconds */
};

/*
 * A doca_dpa_completion as the other libraries see it (libdoca_dpa owns it; the struct starts
 * with this). push is safe from any thread: it queues the element and, if the context is
 * armed, activates its DPA thread. It returns false when the queue was full (the element is
 * dropped, logged, and the DPA context turns fatal, as a CQ overrun does).
 */
struct softdoca_dpa_comp_base {
	struct doca_dpa *dpa;
	bool (*push)(struct softdoca_dpa_comp_base *comp, const struct softdoca_dpa_comp_elem *elem);
	uint32_t users;     /* atomic: contexts attached (RDMA, async ops): destroy is IN_USE meanwhile */
	bool started;
};

/* A work request device code posts on an RDMA context (doca_dpa_dev_rdma_post_*). */
struct softdoca_dpa_rdma_wr {
	uint32_t op;           /* enum softdoca_dpa_rdma_op */
	uint32_t connection_id;
	uint32_t flags;        /* enum doca_dpa_dev_submit_flag */
	uint32_t imm;
	void *local;           /* host address of the local buffer (checked against its mmap); NULL for atomics and signals */
	uint64_t length;
	uint64_t value;        /* atomics */
	/* one-sided ops: the peer's memory, as its imported RDMA export names it */
	int32_t remote_pid;
	uint64_t remote_id;
	uint64_t remote_token;
	uint64_t remote_addr;
};

enum softdoca_dpa_rdma_op {
	SOFTDOCA_DPA_RDMA_SEND = 1,
	SOFTDOCA_DPA_RDMA_SEND_IMM,
	SOFTDOCA_DPA_RDMA_RECV,
	SOFTDOCA_DPA_RDMA_WRITE,
	SOFTDOCA_DPA_RDMA_WRITE_IMM,
	SOFTDOCA_DPA_RDMA_READ,
	SOFTDOCA_DPA_RDMA_FETCH_ADD,
	SOFTDOCA_DPA_RDMA_SIGNAL_SET,
	SOFTDOCA_DPA_RDMA_SIGNAL_ADD,
};

/*
 * The device side of a doca_rdma whose datapath is on a DPA (libdoca_rdma owns it; it is the
 * object behind a SOFTDOCA_DPA_HANDLE_RDMA handle). Called from the EUs: each call says in
 * *why (and returns an error) what was wrong; nothing was posted then.
 */
struct softdoca_dpa_rdma {
	struct doca_dpa *dpa;
	doca_error_t (*post)(struct softdoca_dpa_rdma *r, const struct softdoca_dpa_rdma_wr *wr, char *why,
			     size_t why_len);
};

#endif /* SOFTDOCA_DPA_PRIV_H */
