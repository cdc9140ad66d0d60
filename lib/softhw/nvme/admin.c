/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme admin commands: Identify, Create/Delete I/O CQ/SQ, Get/Set Features, Get Log
 * Page and Abort, run on the engine thread as they are fetched (nvme_priv.h). Byte offsets of
 * the Identify and log page structures are those of the NVMe base specification.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvme_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SOFTHW_NVME_ADMIN);

#define SCT_G SOFTDOCA_NVME_SCT_GENERIC
#define SCT_C SOFTDOCA_NVME_SCT_COMMAND

static void put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* ASCII fields are space padded, not NUL terminated. */
static void put_str(uint8_t *p, size_t n, const char *s)
{
	size_t l = strlen(s);

	memset(p, ' ', n);
	memcpy(p, s, l < n ? l : n);
}

/* Sends len bytes of buf to the host through the command's PRPs. */
static void reply_data(struct nvme_ctrl *c, struct nvme_cmd *cmd, const void *buf, size_t len)
{
	int st = nvme_prp_map(cmd, len);

	if (st != 0) {
		nvme_complete(c, cmd, st >> 8, st & 0xff);
		return;
	}
	nvme_iov_copy(cmd, (void *)buf, len, true);
	nvme_complete(c, cmd, SCT_G, 0);
}

static void identify_ctrl(struct nvme_ctrl *c, uint8_t *d)
{
	put16(d + 0, 0x1d1d);                  /* PCI vendor id: none registered; ours */
	put16(d + 2, 0x1d1d);
	put_str(d + 4, 20, "SOFTDOCA0001");    /* serial number */
	put_str(d + 24, 40, "softdoca soft NVMe disk");
	put_str(d + 64, 8, "1.0");
	d[77] = NVME_MDTS;
	put16(d + 78, 1);                      /* controller id */
	put32(d + 80, 0x00010400);             /* NVMe 1.4 */
	put16(d + 256, 0);                     /* OACS: none of the optional admin commands */
	d[258] = 3;                            /* ACL: 4 Aborts (0's based) */
	d[259] = 3;                            /* AERL */
	d[260] = 0x02;                         /* FRMW: one slot */
	d[261] = 0x02;                         /* LPA: Get Log Page extended data */
	d[262] = 0;                            /* ELPE: one error log entry (0's based) */
	d[512] = 0x66;                         /* SQES: 64-byte entries */
	d[513] = 0x44;                         /* CQES: 16-byte entries */
	put16(d + 514, NVME_CMDS);             /* MAXCMD */
	put32(d + 516, 1);                     /* NN: one namespace */
	put16(d + 520, (1u << 2) | (1u << 3)); /* ONCS: Dataset Management, Write Zeroes */
	d[525] = 1;                            /* VWC: a volatile write cache (Flush means fsync) */
	put_str(d + 768, 256, "nqn.2024-01.io.softdoca:nvme:soft-disk");
	d[768 + 38] = 0;                       /* SUBNQN is NUL terminated */
}

static void identify_ns(struct nvme_ctrl *c, uint8_t *d)
{
	put64(d + 0, c->num_blocks);   /* NSZE */
	put64(d + 8, c->num_blocks);   /* NCAP */
	put64(d + 16, c->num_blocks);  /* NUSE */
	d[24] = 0x04;                  /* NSFEAT bit 2: deallocated blocks report errors as specified */
	d[25] = 0;                     /* NLBAF: one format (0's based) */
	d[26] = 0;                     /* FLBAS: format 0 */
	d[33] = 0x09;                  /* DLFEAT: deallocated blocks read as zeroes; Write Zeroes may deallocate */
	memcpy(d + 104, c->nguid, 16); /* NGUID */
	put32(d + 128, (uint32_t)c->lba_shift << 16); /* LBAF0: no metadata, LBADS */
}

static void identify(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	uint8_t cns = cmd->sqe.cdw10 & 0xff;
	uint32_t nsid = cmd->sqe.nsid;
	uint8_t d[NVME_PAGE];

	memset(d, 0, sizeof(d));
	switch (cns) {
	case 0x00:
		if (nsid != NVME_NSID && nsid != 0xffffffffu)
			goto bad_ns;
		identify_ns(c, d);
		break;
	case 0x01:
		identify_ctrl(c, d);
		break;
	case 0x02:
		if (nsid >= 0xfffffffeu) {
			SDK_LOG_ERR("NVMe Identify active NS list: NSID 0x%x is not allowed", nsid);
			nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_NAMESPACE);
			return;
		}
		if (nsid < NVME_NSID)
			put32(d, NVME_NSID);
		break;
	case 0x03:
		if (nsid != NVME_NSID)
			goto bad_ns;
		d[0] = 2;       /* NIDT: NGUID */
		d[1] = 16;      /* NIDL */
		memcpy(d + 4, c->nguid, 16);
		break;
	default:
		SDK_LOG_ERR("NVMe Identify: CNS 0x%02x is not supported", cns);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
		return;
	}
	reply_data(c, cmd, d, sizeof(d));
	return;
bad_ns:
	SDK_LOG_ERR("NVMe Identify CNS 0x%02x: no namespace %u", cns, nsid);
	nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_NAMESPACE);
}

/* Checks qid and qsize of a Create command; 0 or a status. */
static int check_new_queue(struct nvme_cmd *cmd, bool live, const char *what)
{
	uint16_t qid = cmd->sqe.cdw10 & 0xffff;
	uint32_t qsize = (cmd->sqe.cdw10 >> 16) + 1;

	if (qid == 0 || qid >= NVME_MAX_QUEUES || live) {
		SDK_LOG_ERR("NVMe Create I/O %s: queue id %u is %s", what, qid,
			    qid == 0 || qid >= NVME_MAX_QUEUES ? "out of range" : "in use");
		return NVME_STATUS(SCT_C, SOFTDOCA_NVME_SC_INVALID_QID);
	}
	if (qsize < 2 || qsize > NVME_MAX_DEPTH) {
		SDK_LOG_ERR("NVMe Create I/O %s %u: %u entries (2 .. %u allowed)", what, qid, qsize, NVME_MAX_DEPTH);
		return NVME_STATUS(SCT_C, SOFTDOCA_NVME_SC_INVALID_QSIZE);
	}
	if (!(cmd->sqe.cdw11 & 1) || cmd->sqe.prp1 == 0 || (cmd->sqe.prp1 & (NVME_PAGE - 1)) != 0) {
		SDK_LOG_ERR("NVMe Create I/O %s %u: the ring must be physically contiguous and page aligned", what, qid);
		return NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
	}
	return 0;
}

static void create_cq(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	uint16_t qid = cmd->sqe.cdw10 & 0xffff;
	uint16_t iv = cmd->sqe.cdw11 >> 16;
	bool ien = (cmd->sqe.cdw11 >> 1) & 1;
	int st = check_new_queue(cmd, qid < NVME_MAX_QUEUES && c->cq[qid].live, "CQ");
	struct nvme_cq *cq;

	if (st == 0 && ien && (iv >= NVME_MAX_QUEUES || nvme_irq_fd(c, iv) < 0)) {
		SDK_LOG_ERR("NVMe Create I/O CQ %u: interrupt vector %u is invalid", qid, iv);
		st = NVME_STATUS(SCT_C, SOFTDOCA_NVME_SC_INVALID_VECTOR);
	}
	if (st != 0) {
		nvme_complete(c, cmd, st >> 8, st & 0xff);
		return;
	}
	cq = &c->cq[qid];
	*cq = (struct nvme_cq){.live = true, .id = qid, .size = (uint16_t)((cmd->sqe.cdw10 >> 16) + 1),
			       .phase = 1, .ien = ien, .iv = iv,
			       .ring = (struct softdoca_nvme_cqe *)(uintptr_t)cmd->sqe.prp1};
	/* the host's ring starts with phase 0 everywhere, as a fresh device expects */
	memset(cq->ring, 0, (size_t)cq->size * sizeof(*cq->ring));
	__atomic_store_n(&c->doorbells[2 * qid + 1], 0, __ATOMIC_RELEASE);
	nvme_complete(c, cmd, SCT_G, 0);
}

static void create_sq(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	uint16_t qid = cmd->sqe.cdw10 & 0xffff;
	uint16_t cqid = cmd->sqe.cdw11 >> 16;
	int st = check_new_queue(cmd, qid < NVME_MAX_QUEUES && c->sq[qid].live, "SQ");
	struct nvme_sq *sq;

	if (st == 0 && (cqid == 0 || cqid >= NVME_MAX_QUEUES || !c->cq[cqid].live)) {
		SDK_LOG_ERR("NVMe Create I/O SQ %u: completion queue %u does not exist", qid, cqid);
		st = NVME_STATUS(SCT_C, SOFTDOCA_NVME_SC_CQ_INVALID);
	}
	if (st != 0) {
		nvme_complete(c, cmd, st >> 8, st & 0xff);
		return;
	}
	sq = &c->sq[qid];
	*sq = (struct nvme_sq){.live = true, .id = qid, .size = (uint16_t)((cmd->sqe.cdw10 >> 16) + 1),
			       .cqid = cqid, .ring = (struct softdoca_nvme_sqe *)(uintptr_t)cmd->sqe.prp1};
	c->cq[cqid].nsq++;
	__atomic_store_n(&c->doorbells[2 * qid], 0, __ATOMIC_RELEASE);
	nvme_complete(c, cmd, SCT_G, 0);
}

static void delete_sq(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	uint16_t qid = cmd->sqe.cdw10 & 0xffff;
	struct nvme_sq *sq = &c->sq[qid < NVME_MAX_QUEUES ? qid : 0];

	if (qid == 0 || qid >= NVME_MAX_QUEUES || !sq->live || sq->deleter != NULL) {
		SDK_LOG_ERR("NVMe Delete I/O SQ: no I/O submission queue %u", qid);
		nvme_complete(c, cmd, SCT_C, SOFTDOCA_NVME_SC_INVALID_QID);
		return;
	}
	if (sq->inflight > 0) {
		SDK_LOG_DBG("NVMe Delete I/O SQ %u: waits for its %d command(s) in flight", qid, sq->inflight);
		sq->deleter = cmd; /* completes when its last command has (ctrl.c post) */
		return;
	}
	sq->live = false;
	c->cq[sq->cqid].nsq--;
	nvme_complete(c, cmd, SCT_G, 0);
}

static void delete_cq(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	uint16_t qid = cmd->sqe.cdw10 & 0xffff;
	struct nvme_cq *cq = &c->cq[qid < NVME_MAX_QUEUES ? qid : 0];

	if (qid == 0 || qid >= NVME_MAX_QUEUES || !cq->live) {
		SDK_LOG_ERR("NVMe Delete I/O CQ: no I/O completion queue %u", qid);
		nvme_complete(c, cmd, SCT_C, SOFTDOCA_NVME_SC_INVALID_QID);
		return;
	}
	if (cq->nsq > 0) {
		SDK_LOG_ERR("NVMe Delete I/O CQ %u: %d submission queue(s) still complete there", qid, cq->nsq);
		nvme_complete(c, cmd, SCT_C, SOFTDOCA_NVME_SC_INVALID_QUEUE_DELETION);
		return;
	}
	cq->live = false;
	nvme_complete(c, cmd, SCT_G, 0);
}

static void features(struct nvme_ctrl *c, struct nvme_cmd *cmd, bool set)
{
	uint8_t fid = cmd->sqe.cdw10 & 0xff;
	uint32_t nq = (NVME_MAX_IO_QUEUES - 1) | ((uint32_t)(NVME_MAX_IO_QUEUES - 1) << 16);

	switch (fid) {
	case 0x01: /* arbitration: round robin, burst 1 */
		cmd->dw0 = 0;
		break;
	case 0x06: /* volatile write cache */
		if (set)
			c->vwc = cmd->sqe.cdw11 & 1;
		cmd->dw0 = c->vwc;
		break;
	case 0x07: /* number of queues: always all of them, whatever was asked */
		if (set && ((cmd->sqe.cdw11 & 0xffff) == 0xffff || (cmd->sqe.cdw11 >> 16) == 0xffff)) {
			SDK_LOG_ERR("NVMe Set Features Number of Queues: 65536 queues asked");
			nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
			return;
		}
		cmd->dw0 = nq;
		break;
	default:
		SDK_LOG_ERR("NVMe %s Features: feature 0x%02x is not supported", set ? "Set" : "Get", fid);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
		return;
	}
	nvme_complete(c, cmd, SCT_G, 0);
}

/* 128-bit little-endian counter field of the SMART log. */
static void put128(uint8_t *p, uint64_t v)
{
	put64(p, v);
	put64(p + 8, 0);
}

static void get_log_page(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	uint8_t lid = cmd->sqe.cdw10 & 0xff;
	uint64_t len = ((((uint64_t)(cmd->sqe.cdw11 & 0xffff) << 16) | (cmd->sqe.cdw10 >> 16)) + 1) * 4;
	uint64_t off = ((uint64_t)cmd->sqe.cdw13 << 32) | cmd->sqe.cdw12;
	uint8_t d[NVME_PAGE];
	size_t size;

	memset(d, 0, sizeof(d));
	switch (lid) {
	case 0x01: /* error information: no errors recorded (one empty entry) */
		size = 64;
		break;
	case 0x02: /* SMART / health */
		size = 512;
		put16(d + 1, 300);  /* composite temperature, kelvin */
		d[3] = 100;         /* available spare, % */
		d[4] = 10;          /* available spare threshold */
		put128(d + 32, (c->blocks_read * c->block_size + 511999) / 512000);
		put128(d + 48, (c->blocks_written * c->block_size + 511999) / 512000);
		break;
	case 0x03: /* firmware slot information */
		size = 512;
		d[0] = 1;
		put_str(d + 8, 8, "1.0");
		break;
	default:
		SDK_LOG_ERR("NVMe Get Log Page: log page 0x%02x is not supported", lid);
		nvme_complete(c, cmd, SCT_C, SOFTDOCA_NVME_SC_INVALID_LOG_PAGE);
		return;
	}
	if ((off & 3) != 0 || off > size || len > sizeof(d)) {
		SDK_LOG_ERR("NVMe Get Log Page 0x%02x: offset %llu / length %llu do not fit its %zu bytes", lid,
			    (unsigned long long)off, (unsigned long long)len, size);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
		return;
	}
	/* bytes past the page read as zeroes */
	memmove(d, d + off, size - off);
	memset(d + (size - off), 0, sizeof(d) - (size - off));
	reply_data(c, cmd, d, len);
}

void nvme_admin_exec(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	if ((cmd->sqe.flags & 0xc3) != 0) {
		SDK_LOG_ERR("NVMe admin opcode 0x%02x: fused commands and SGLs are not supported", cmd->sqe.opc);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
		return;
	}
	switch (cmd->sqe.opc) {
	case SOFTDOCA_NVME_ADM_DELETE_SQ:
		delete_sq(c, cmd);
		break;
	case SOFTDOCA_NVME_ADM_CREATE_SQ:
		create_sq(c, cmd);
		break;
	case SOFTDOCA_NVME_ADM_GET_LOG_PAGE:
		get_log_page(c, cmd);
		break;
	case SOFTDOCA_NVME_ADM_DELETE_CQ:
		delete_cq(c, cmd);
		break;
	case SOFTDOCA_NVME_ADM_CREATE_CQ:
		create_cq(c, cmd);
		break;
	case SOFTDOCA_NVME_ADM_IDENTIFY:
		identify(c, cmd);
		break;
	case SOFTDOCA_NVME_ADM_ABORT:
		/* commands run as soon as they are fetched: there is never one to abort */
		cmd->dw0 = 1;
		nvme_complete(c, cmd, SCT_G, 0);
		break;
	case SOFTDOCA_NVME_ADM_SET_FEATURES:
	case SOFTDOCA_NVME_ADM_GET_FEATURES:
		features(c, cmd, cmd->sqe.opc == SOFTDOCA_NVME_ADM_SET_FEATURES);
		break;
	default:
		SDK_LOG_ERR("NVMe admin opcode 0x%02x is not supported", cmd->sqe.opc);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_OPCODE);
		break;
	}
}
