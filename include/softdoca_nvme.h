/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca's soft NVMe disk: an extension of softdoca, not a DOCA API (docs/soft-nvme.md).
 *
 * A soft NVMe PCIe controller with one namespace, run by the soft card. Its admin queue and
 * I/O queues are rings in the process's memory, its doorbells are 32-bit words in a doorbell
 * page, and "PCI addresses" (queue bases, PRP entries) are this process's virtual addresses.
 * The controller is woken by an eventfd the submitter writes after ringing a doorbell, and a
 * completion queue with interrupts enabled signals an eventfd of its own: nobody spins.
 *
 * Typical use: softdoca_nvme_open(), softdoca_nvme_qpair_create(), then for each command
 * write a softdoca_nvme_sqe at the SQ tail, softdoca_nvme_ring_sq(), wait on irq_fd (or poll)
 * for CQEs whose phase bit matches, consume them, softdoca_nvme_ring_cq().
 */
#ifndef SOFTDOCA_NVME_H
#define SOFTDOCA_NVME_H

#include <stdint.h>
#include <unistd.h>

#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SOFTDOCA_NVME_API __attribute__((visibility("default")))

/* A 64-byte submission queue entry, as the NVMe base specification lays it out. */
struct softdoca_nvme_sqe {
	uint8_t opc;
	uint8_t flags;     /* FUSE bits 1:0, PSDT bits 7:6 (0 = PRPs, the only kind accepted) */
	uint16_t cid;
	uint32_t nsid;
	uint32_t cdw2;
	uint32_t cdw3;
	uint64_t mptr;
	uint64_t prp1;
	uint64_t prp2;
	uint32_t cdw10;
	uint32_t cdw11;
	uint32_t cdw12;
	uint32_t cdw13;
	uint32_t cdw14;
	uint32_t cdw15;
};

/* A 16-byte completion queue entry. status: bit 0 phase, SC bits 8:1, SCT bits 11:9, DNR 15. */
struct softdoca_nvme_cqe {
	uint32_t dw0;
	uint32_t dw1;
	uint16_t sqhd;
	uint16_t sqid;
	uint16_t cid;
	uint16_t status;
};

#define SOFTDOCA_NVME_CQE_PHASE(cqe) ((cqe)->status & 1u)
#define SOFTDOCA_NVME_CQE_SC(cqe) (((cqe)->status >> 1) & 0xffu)
#define SOFTDOCA_NVME_CQE_SCT(cqe) (((cqe)->status >> 9) & 0x7u)

/* Commands the controller knows (anything else completes with Invalid Opcode). */
enum softdoca_nvme_admin_opc {
	SOFTDOCA_NVME_ADM_DELETE_SQ = 0x00,
	SOFTDOCA_NVME_ADM_CREATE_SQ = 0x01,
	SOFTDOCA_NVME_ADM_GET_LOG_PAGE = 0x02,
	SOFTDOCA_NVME_ADM_DELETE_CQ = 0x04,
	SOFTDOCA_NVME_ADM_CREATE_CQ = 0x05,
	SOFTDOCA_NVME_ADM_IDENTIFY = 0x06,
	SOFTDOCA_NVME_ADM_ABORT = 0x08,
	SOFTDOCA_NVME_ADM_SET_FEATURES = 0x09,
	SOFTDOCA_NVME_ADM_GET_FEATURES = 0x0a,
};

enum softdoca_nvme_io_opc {
	SOFTDOCA_NVME_IO_FLUSH = 0x00,
	SOFTDOCA_NVME_IO_WRITE = 0x01,
	SOFTDOCA_NVME_IO_READ = 0x02,
	SOFTDOCA_NVME_IO_WRITE_ZEROES = 0x08,
	SOFTDOCA_NVME_IO_DSM = 0x09,
};

/* Status code types and the status codes this controller returns. */
enum softdoca_nvme_sct {
	SOFTDOCA_NVME_SCT_GENERIC = 0,
	SOFTDOCA_NVME_SCT_COMMAND = 1,
	SOFTDOCA_NVME_SCT_MEDIA = 2,
};

enum softdoca_nvme_sc {
	/* generic */
	SOFTDOCA_NVME_SC_SUCCESS = 0x00,
	SOFTDOCA_NVME_SC_INVALID_OPCODE = 0x01,
	SOFTDOCA_NVME_SC_INVALID_FIELD = 0x02,
	SOFTDOCA_NVME_SC_DATA_TRANSFER_ERROR = 0x04,
	SOFTDOCA_NVME_SC_INTERNAL_ERROR = 0x06,
	SOFTDOCA_NVME_SC_ABORTED_SQ_DELETION = 0x08,
	SOFTDOCA_NVME_SC_INVALID_NAMESPACE = 0x0b,
	SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET = 0x13,
	SOFTDOCA_NVME_SC_LBA_OUT_OF_RANGE = 0x80,
	/* command specific */
	SOFTDOCA_NVME_SC_CQ_INVALID = 0x00,
	SOFTDOCA_NVME_SC_INVALID_QID = 0x01,
	SOFTDOCA_NVME_SC_INVALID_QSIZE = 0x02,
	SOFTDOCA_NVME_SC_INVALID_VECTOR = 0x08,
	SOFTDOCA_NVME_SC_INVALID_LOG_PAGE = 0x09,
	SOFTDOCA_NVME_SC_INVALID_QUEUE_DELETION = 0x0c,
	SOFTDOCA_NVME_SC_FEATURE_NOT_CHANGEABLE = 0x0e,
	/* media */
	SOFTDOCA_NVME_SC_WRITE_FAULT = 0x80,
	SOFTDOCA_NVME_SC_UNRECOVERED_READ = 0x81,
};

struct softdoca_nvme_disk;

/* What to open. path NULL: a memory-backed disk of size bytes. */
struct softdoca_nvme_disk_attr {
	const char *path;    /* a regular file (created if missing) or a block device */
	uint64_t size;       /* bytes; 0 = the file's or device's size; a file is extended to it */
	uint32_t block_size; /* 512 or 4096 */
};

/* Fixed facts of an open disk. */
struct softdoca_nvme_disk_info {
	uint64_t num_blocks;
	uint32_t block_size;
	uint32_t nsid;          /* the one namespace: 1 */
	uint16_t max_io_queues; /* I/O queue ids are 1 .. max_io_queues */
	uint16_t max_queue_depth;
	uint32_t max_transfer;  /* bytes per command (MDTS) */
	int direct_io;          /* 1 when reads and writes of aligned buffers bypass the page cache */
};

/*
 * One I/O queue pair (or the admin pair, qid 0). Doorbells: sq_doorbell holds the SQ tail the
 * host wrote last, cq_doorbell the CQ head; both are words of the doorbell page at the byte
 * offsets given (SQ y tail at 8 * y, CQ y head at 8 * y + 4: a doorbell stride of 4 bytes).
 */
struct softdoca_nvme_qpair {
	uint16_t qid;
	uint16_t depth;                 /* entries in each ring */
	struct softdoca_nvme_sqe *sq;
	struct softdoca_nvme_cqe *cq;
	volatile uint32_t *sq_doorbell;
	volatile uint32_t *cq_doorbell;
	uint32_t sq_doorbell_offset;
	uint32_t cq_doorbell_offset;
	int wake_fd;                    /* write 8 bytes after ringing: the controller wakes */
	int irq_fd;                     /* the CQ's interrupt: readable after new CQEs */
	/* the host's side of the rings, for the helpers below */
	uint16_t sq_tail;
	uint16_t sq_head;               /* as the last consumed CQE reported it */
	uint16_t cq_head;
	uint8_t cq_phase;               /* the phase bit of the next new CQE */
	uint8_t own_memory;             /* the rings were allocated by qpair_create */
};

/* Opens a disk; its controller runs on a soft-card thread that sleeps while nothing is queued. */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_open(const struct softdoca_nvme_disk_attr *attr,
						  struct softdoca_nvme_disk **disk);
/*
 * Stops the controller (commands in flight finish first) and closes the backing store.
 * DOCA_ERROR_IN_USE (nothing closed) while DOCA STA executes one of its I/O queues: stop the
 * IO contexts that use the disk first.
 */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_close(struct softdoca_nvme_disk *disk);
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_get_info(const struct softdoca_nvme_disk *disk,
						      struct softdoca_nvme_disk_info *info);
/* The doorbell page: base, length in bytes (for a doca_mmap over it). */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_get_doorbells(const struct softdoca_nvme_disk *disk,
							   void **base, size_t *len);
/*
 * Runs one admin command through the admin queue and waits for its completion (the CID is
 * chosen here). Commands of several threads are serialised. *cqe gets the completion.
 */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_admin(struct softdoca_nvme_disk *disk,
						   const struct softdoca_nvme_sqe *cmd,
						   struct softdoca_nvme_cqe *cqe);
/* Identify (cns 0x00 namespace, 0x01 controller, 0x02 active NS list, 0x03 NS ids) into 4 KiB. */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_identify(struct softdoca_nvme_disk *disk, uint8_t cns,
						      uint32_t nsid, void *data);
/*
 * Creates I/O CQ and SQ number qid (1 .. max_io_queues) with depth entries each, by Create I/O
 * CQ (interrupts on, vector qid) and Create I/O SQ on the admin queue. sq_mem and cq_mem are
 * page-aligned rings of depth * 64 and depth * 16 bytes, or NULL to have them allocated.
 */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_qpair_create(struct softdoca_nvme_disk *disk, uint16_t qid,
							  uint16_t depth, void *sq_mem, void *cq_mem,
							  struct softdoca_nvme_qpair *qp);
/* Deletes the SQ then the CQ (commands in flight complete first); frees rings it allocated. */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_qpair_destroy(struct softdoca_nvme_disk *disk,
							   struct softdoca_nvme_qpair *qp);

/*
 * Debugging (fault injection): while hold is non-zero the controller still executes I/O
 * commands but keeps their completions, as a disk that stops answering; hold 0 posts what it
 * kept. Admin commands are never held; softdoca_nvme_close releases the hold.
 */
SOFTDOCA_NVME_API doca_error_t softdoca_nvme_hold_completions(struct softdoca_nvme_disk *disk, int hold);

/* Host-side helpers (inline, nothing exported). */

/* Places cmd at the SQ tail; returns 0, or -1 when the SQ is full (head from the last CQE). */
static inline int softdoca_nvme_sq_push(struct softdoca_nvme_qpair *qp, const struct softdoca_nvme_sqe *cmd)
{
	if ((qp->sq_tail + 1) % qp->depth == qp->sq_head)
		return -1;
	qp->sq[qp->sq_tail] = *cmd;
	qp->sq_tail = (uint16_t)((qp->sq_tail + 1) % qp->depth);
	return 0;
}

/* Publishes the SQ tail and wakes the controller. */
static inline void softdoca_nvme_ring_sq(struct softdoca_nvme_qpair *qp)
{
	uint64_t one = 1;

	__atomic_store_n(qp->sq_doorbell, qp->sq_tail, __ATOMIC_RELEASE);
	if (write(qp->wake_fd, &one, sizeof(one)) < 0) {
		/* eventfd overflow cannot happen below 2^64 - 2 writes; nothing to do */
	}
}

/* The next CQE when its phase says it is new, else NULL. */
static inline struct softdoca_nvme_cqe *softdoca_nvme_cq_peek(struct softdoca_nvme_qpair *qp)
{
	struct softdoca_nvme_cqe *c = &qp->cq[qp->cq_head];

	if ((__atomic_load_n(&c->status, __ATOMIC_ACQUIRE) & 1u) != qp->cq_phase)
		return NULL;
	return c;
}

/* Consumes the CQE softdoca_nvme_cq_peek returned. */
static inline void softdoca_nvme_cq_pop(struct softdoca_nvme_qpair *qp)
{
	qp->sq_head = qp->cq[qp->cq_head].sqhd;
	if (++qp->cq_head == qp->depth) {
		qp->cq_head = 0;
		qp->cq_phase ^= 1u;
	}
}

/* Publishes the CQ head (frees CQ slots) and wakes the controller. */
static inline void softdoca_nvme_ring_cq(struct softdoca_nvme_qpair *qp)
{
	uint64_t one = 1;

	__atomic_store_n(qp->cq_doorbell, qp->cq_head, __ATOMIC_RELEASE);
	if (write(qp->wake_fd, &one, sizeof(one)) < 0) {
		/* as above */
	}
}

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_NVME_H */
