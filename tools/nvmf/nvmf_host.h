/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A small NVMe-oF RDMA host (initiator) over librdmacm / libibverbs: one queue per
 * nvmf_queue (admin qid 0 or an I/O queue), RDMA-CM connection with the NVMe-oF private data,
 * Fabrics Connect, command capsules with keyed SGLs or in-capsule data, and responses. Used by
 * softdoca-nvmf-initiator and the STA tests, so that they need no kernel NVMe host.
 * Single-threaded: one thread per queue.
 */
#ifndef NVMF_HOST_H
#define NVMF_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <rdma/rdma_cma.h>

#define NVMF_SQE 64
#define NVMF_CQE 16
#define NVMF_ICD 8192          /* in-capsule data the host may send (target's IOCCSZ 64 + 8192) */
#define NVMF_DATA_MAX (128u << 10) /* per command data buffer */
#define NVMF_DISCOVERY_NQN "nqn.2014-08.org.nvmexpress.discovery"

struct nvmf_cqe {
	uint32_t dw0, dw1;
	uint16_t sqhd, sqid, cid, status; /* status: P bit 0, SC 8:1, SCT 11:9, DNR 15 */
};
/* Little-endian fields of a capsule (what NVMe puts on the wire). */
static inline void nvmf_put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t nvmf_get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#define NVMF_SC(c) (((c)->status >> 1) & 0xff)
#define NVMF_SCT(c) (((c)->status >> 9) & 0x7)

struct nvmf_queue {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *chan;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *mem;          /* capsules, responses, data: one registered region */
	uint16_t qid, depth;   /* depth: commands in flight at most */
	uint16_t cntlid;
	uint16_t sqhd;         /* the last SQ head the target reported */
	bool in_use[1024];     /* per CID */
	uint32_t inflight;
	int rejected;          /* RDMA-CM reject status, 0 if none */
	bool inv;              /* the last response came by SEND with invalidate ... */
	uint32_t inv_rkey;     /* ... of this rkey */
	bool disconnected;     /* the target disconnected */
	bool busy_poll;        /* nvmf_wait polls the CQ without sleeping (as spdk_nvme_perf): a core */
	struct ibv_wc wc[32];  /* completions polled in one batch, handed out by nvmf_wait */
	int wc_n, wc_i;
};

/* The buffers of command slot `cid`. */
uint8_t *nvmf_capsule(struct nvmf_queue *q, uint16_t cid);
uint8_t *nvmf_data(struct nvmf_queue *q, uint16_t cid);
uint32_t nvmf_rkey(const struct nvmf_queue *q);

/*
 * RDMA-CM connect to addr:port with private data (qid, hrqsize = depth, hsqsize = depth - 1),
 * then Fabrics Connect (sqsize given 0's based; its 1024 bytes of data by keyed SGL on the admin
 * queue, in the capsule on I/O queues, as Linux sends them). Returns 0 on
 * success with q->cntlid; -1 on a transport failure; else the Connect response's status
 * word (*cqe filled) when the target refused it.
 */
int nvmf_connect(struct nvmf_queue *q, const char *addr, const char *port, uint16_t qid, uint16_t depth,
		 uint16_t sqsize, uint16_t cntlid, const char *subnqn, const char *hostnqn, struct nvmf_cqe *cqe);
void nvmf_disconnect(struct nvmf_queue *q);
/* The RDMA-CM connection alone (as nvmf_connect, no Fabrics Connect): 0 or -1. */
int nvmf_transport(struct nvmf_queue *q, const char *addr, const char *port, uint16_t qid, uint16_t depth);
/*
 * The Fabrics Connect capsule of the queue in slot cid (sent by the caller): its data keyed on
 * the admin queue, in the capsule on I/O queues. Returns the in-capsule data length for nvmf_send.
 */
uint32_t nvmf_connect_capsule(struct nvmf_queue *q, uint16_t cid, uint16_t sqsize, uint16_t cntlid,
			      const char *subnqn, const char *hostnqn);

/* A free CID (its slot buffers are the caller's until the response); -1 when all are busy. */
int nvmf_alloc_cid(struct nvmf_queue *q);
/*
 * Sends the capsule of slot cid (its first 64 bytes are the SQE, CID set here) with icd_len
 * bytes of in-capsule data after it. 0 or -1.
 */
int nvmf_send(struct nvmf_queue *q, uint16_t cid, uint32_t icd_len);
/*
 * Waits up to timeout_ms for one response; 1 got one (*cqe, its CID freed), 0 timeout, -1 error.
 * It sleeps on the completion channel, or with q->busy_poll polls the CQ until then.
 */
int nvmf_wait(struct nvmf_queue *q, struct nvmf_cqe *cqe, int timeout_ms);
/*
 * One command start to end (a response within timeout_ms): data by keyed SGL over len bytes of
 * the slot's data buffer (none when len is 0), filled from wdata before, copied to rdata after.
 * 0 with *cqe, or -1 (transport failure or time-out).
 */
int nvmf_cmd(struct nvmf_queue *q, const uint8_t *sqe, uint32_t len, const void *wdata, void *rdata,
	     struct nvmf_cqe *cqe, int timeout_ms);

/* SQE helpers */
void nvmf_sgl_keyed(struct nvmf_queue *q, uint8_t *sqe, uint16_t cid, uint32_t len);
void nvmf_sgl_icd(uint8_t *sqe, uint32_t len);
/* Asks the target to invalidate the keyed SGL's rkey with the response (subtype 0xF). */
void nvmf_sgl_invalidate(uint8_t *sqe);
void nvmf_rw(uint8_t *sqe, uint8_t opc, uint32_t nsid, uint64_t slba, uint32_t nblocks);

#endif /* NVMF_HOST_H */
