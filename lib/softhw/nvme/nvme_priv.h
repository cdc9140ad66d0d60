/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme: the soft NVMe PCIe controller behind softdoca_nvme.h (docs/soft-nvme.md).
 *
 * One engine thread per controller owns every queue: it reads the doorbell words, fetches
 * SQEs, runs admin commands itself and I/O commands on its io_uring, and posts CQEs. It sleeps
 * in io_uring_submit_and_wait() with a read of the wake eventfd always armed, so a submitter's
 * write of that fd (after a doorbell) or an I/O completion is what wakes it.
 * An I/O SQ may instead be owned by one driver thread (nvme_ops.h, own_sq): its commands go to
 * an io_uring of that thread's, which it reaps itself; the engine thread leaves that SQ alone.
 * ctrl.c: open/close, the thread, queues and CQE posting; admin.c: admin commands;
 * io.c: the backing store, PRPs and the I/O commands; api.c: the exported functions.
 */
#ifndef SOFTHW_NVME_PRIV_H
#define SOFTHW_NVME_PRIV_H

#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include "softdoca_nvme.h"

#define NVME_PAGE 4096u
#define NVME_MAX_IO_QUEUES 31
#define NVME_MAX_QUEUES (NVME_MAX_IO_QUEUES + 1)
#define NVME_MAX_DEPTH 1024
#define NVME_ADMIN_DEPTH 32
#define NVME_MDTS 7 /* 2^7 pages: 512 KiB per command */
#define NVME_MAX_XFER (NVME_PAGE << NVME_MDTS)
#define NVME_MAX_IOV ((NVME_MAX_XFER / NVME_PAGE) + 1)
#define NVME_CMDS 256        /* commands in flight per controller */
#define NVME_FETCH_BURST 32  /* SQEs fetched from one SQ before the next gets its turn */
#define NVME_NSID 1

struct nvme_ctrl;
struct nvme_cmd;

/* An io_uring and its operations in flight: the engine's, or an SQ owner's. */
struct nvme_uring {
	struct io_uring ring;
	int inflight;
};

/* Command slots: the controller's, or an SQ owner's (a command goes back where it came from). */
struct nvme_pool {
	struct nvme_cmd *free;
	struct nvme_cmd *cmds;
	uint32_t n, out;        /* slots, and how many are in use */
	struct nvme_pool *next; /* the controller's list of released owners' pools still in use */
};

/*
 * An I/O SQ whose commands a driver thread submits and reaps on its own ring (nvme_ops.h),
 * with command slots of its own: the controller's 256 are shared by every queue it serves,
 * and an owner that took them all would leave the others waiting with nothing to wake them.
 */
struct nvme_owner {
	struct nvme_uring ur;  /* first: the ops table hands this out as softhw_nvme_owner */
	struct nvme_ctrl *c;
	struct nvme_pool *pool;
	uint16_t sqid;
	int fd;
};

/* One io_uring operation; a command has one, a Dataset Management command one per range. */
struct nvme_op {
	struct nvme_cmd *cmd;
	int kind;          /* enum in io.c */
	int step;          /* the fallback step of a zeroing op */
	uint64_t off;
	uint64_t len;
	bool allocated;    /* malloc'd (DSM ranges), freed when done */
};

struct nvme_cmd {
	struct nvme_cmd *next;  /* free list, or a CQ's list of completions waiting for room */
	struct softdoca_nvme_sqe sqe;
	uint16_t sqid;
	uint16_t status;        /* SC | SCT << 8 of the first failure */
	uint32_t dw0;
	int pending;            /* io_uring operations not yet completed */
	struct nvme_op op;
	int niov;
	uint64_t off;           /* byte offset on the backing store */
	uint64_t len;           /* bytes still to move */
	bool direct;            /* the op goes to the O_DIRECT fd */
	struct nvme_uring *ur;  /* the ring its ops go to: the engine's or its SQ owner's (set at fetch) */
	struct nvme_pool *pool; /* where it goes back once posted */
	struct iovec iov[NVME_MAX_IOV]; /* last: a fetch clears everything before it */
};

struct nvme_cq {
	bool live;
	uint16_t id;
	uint16_t size;
	uint16_t tail;
	uint8_t phase;
	bool ien;
	bool signal;            /* CQEs were posted since the last interrupt */
	uint32_t irq_gate;      /* SOFTHW_NVME_IRQ_* (nvme_ops.h): a driver's interrupt mask, atomic */
	uint32_t cq_wait;       /* completions wait for room (wait_head): atomic, for drivers */
	bool bad_head_logged;
	uint16_t iv;
	int nsq;                /* SQs completing here */
	uint32_t posted;        /* CQEs posted (wraps): what an SQ owner posted itself, for its counters */
	struct softdoca_nvme_cqe *ring;
	struct nvme_cmd *wait_head, *wait_tail;
};

struct nvme_sq {
	bool live;
	uint16_t id;
	uint16_t size;
	uint16_t head;
	uint16_t cqid;
	bool bad_tail_logged;
	int inflight;
	struct nvme_cmd *deleter; /* a Delete I/O SQ waiting for inflight to reach 0 */
	struct nvme_owner *owner; /* its commands go to the owner's ring, not the engine's (own_sq) */
	struct softdoca_nvme_sqe *ring;
};

struct nvme_ctrl {
	/* the namespace */
	int fd;                 /* buffered */
	int dfd;                /* O_DIRECT, or -1 */
	uint32_t dio_mem_align;
	uint32_t dio_off_align;
	bool is_bdev;
	bool is_mem;
	bool inline_rw;         /* memory-speed store (a memory disk, tmpfs): Read / Write run in the submitter (io.c) */
	uint8_t *map;           /* a tmpfs file mapped (map.c), or NULL; the lock guards its removal */
	uint64_t map_len;
	uint32_t block_size;
	uint32_t lba_shift;
	uint64_t num_blocks;
	uint8_t nguid[16];
	bool vwc;               /* volatile write cache enabled (Set Features 0x06) */
	uint64_t units_read, units_written; /* in 512,000-byte units for SMART, rounded up */
	uint64_t blocks_read, blocks_written;

	/* queues and doorbells (the engine thread's, but the api reads qid 0's fixed fields) */
	struct nvme_sq sq[NVME_MAX_QUEUES];
	struct nvme_cq cq[NVME_MAX_QUEUES];
	volatile uint32_t *doorbells;  /* one page: SQ y tail at [2y], CQ y head at [2y + 1] */
	int irq_fd[NVME_MAX_QUEUES];   /* per interrupt vector, made on first use */

	/* the engine */
	struct nvme_uring eng;         /* the engine's io_uring */
	int wake_fd;
	uint64_t wake_buf;
	struct nvme_op wake_op;
	bool wake_armed;               /* the wake read is on the ring (arm_wake) */
	pthread_t thread;
	bool stop;                     /* atomic */
	bool hold;                     /* atomic: I/O completions are kept (softdoca_nvme_hold_completions) */
	uint32_t asleep;               /* atomic: the engine is (about to be) blocked (nvme_ops.h) */
	struct nvme_pool pool;         /* the engine's command slots (NVME_CMDS) */
	struct nvme_pool *retired;     /* released owners' slots with commands still out (freed at close) */

	/* the admin queue as the api uses it */
	pthread_mutex_t admin_lock;
	/*
	 * The engine's state (queues, commands, the io_uring's submission side): the engine
	 * thread holds it except while it waits for completions; a driver's kick (nvme_ctrl_kick)
	 * takes it to fetch and submit in its own thread, an SQ owner to fetch, submit and reap.
	 */
	pthread_mutex_t lock;
	struct softdoca_nvme_qpair admin;
	uint16_t next_cid;
	struct nvme_ctrl *bell_next; /* the open disks by doorbell page (bell.c) */
};

/* ctrl.c */
void nvme_complete(struct nvme_ctrl *c, struct nvme_cmd *cmd, int sct, int sc);
/* A submission slot on the command's ring, counted as one op in flight there (cmd NULL: the
 * engine's, not counted: its wake read). */
struct io_uring_sqe *nvme_get_sqe(struct nvme_ctrl *c, struct nvme_cmd *cmd);
int nvme_irq_fd(struct nvme_ctrl *c, uint16_t iv);

/* bell.c: the open disks, for softhw_nvme_ops.find_bell */
void nvme_bell_add(struct nvme_ctrl *c);
/* A driver stored an I/O SQ tail and found the engine asleep (softhw_nvme_bell.kick). */
void nvme_ctrl_kick(void *ctrl);
void nvme_bell_remove(struct nvme_ctrl *c);
/* ctrl.c: softhw_nvme_ops' SQ owner (nvme_ops.h) */
struct softhw_nvme_owner *nvme_own_sq(void *ctrl, uint16_t sqid, int *ring_fd);
int nvme_owner_progress(struct softhw_nvme_owner *owner);
void nvme_owner_release(struct softhw_nvme_owner *owner);
/* admin.c */
void nvme_admin_exec(struct nvme_ctrl *c, struct nvme_cmd *cmd);
/* io.c */
doca_error_t nvme_backing_open(struct nvme_ctrl *c, const struct softdoca_nvme_disk_attr *attr);
void nvme_backing_close(struct nvme_ctrl *c);

/* map.c: a tmpfs file with no holes, mapped at open (c->map), and a Read or Write through it */
void nvme_map_open(struct nvme_ctrl *c, const char *path);
void nvme_map_close(struct nvme_ctrl *c);
/* cmd->len bytes at cmd->off between the mapping and cmd->iov: cmd->len, or -EFAULT (use preadv2) */
int nvme_map_rw(struct nvme_ctrl *c, struct nvme_cmd *cmd, bool rd);
void nvme_io_exec(struct nvme_ctrl *c, struct nvme_cmd *cmd);
void nvme_io_done(struct nvme_ctrl *c, struct nvme_op *op, int res);
/* PRPs of cmd → cmd->iov for len bytes; 0 or a status (SC | SCT << 8). */
int nvme_prp_map(struct nvme_cmd *cmd, uint64_t len);
/* Copies between a command's data (after nvme_prp_map) and buf. */
void nvme_iov_copy(struct nvme_cmd *cmd, void *buf, size_t len, bool to_host);

#define NVME_STATUS(sct, sc) ((uint16_t)((sc) | ((sct) << 8)))

#endif /* SOFTHW_NVME_PRIV_H */
