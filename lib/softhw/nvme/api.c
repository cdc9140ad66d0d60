/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme: the exported functions of softdoca_nvme.h that act as the host's driver: they
 * reach the controller only through the admin queue, its doorbells and its interrupt fd, as a
 * driver would (open and close are in ctrl.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvme_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SOFTHW_NVME_API);

doca_error_t softdoca_nvme_get_info(const struct softdoca_nvme_disk *disk, struct softdoca_nvme_disk_info *info)
{
	const struct nvme_ctrl *c = (const struct nvme_ctrl *)disk;

	if (c == NULL || info == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*info = (struct softdoca_nvme_disk_info){
		.num_blocks = c->num_blocks,
		.block_size = c->block_size,
		.nsid = NVME_NSID,
		.max_io_queues = NVME_MAX_IO_QUEUES,
		.max_queue_depth = NVME_MAX_DEPTH,
		.max_transfer = NVME_MAX_XFER,
		.direct_io = __atomic_load_n(&c->dfd, __ATOMIC_RELAXED) >= 0,
	};
	return DOCA_SUCCESS;
}

doca_error_t softdoca_nvme_get_doorbells(const struct softdoca_nvme_disk *disk, void **base, size_t *len)
{
	const struct nvme_ctrl *c = (const struct nvme_ctrl *)disk;

	if (c == NULL || base == NULL || len == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*base = (void *)c->doorbells;
	*len = NVME_PAGE;
	return DOCA_SUCCESS;
}

doca_error_t softdoca_nvme_admin(struct softdoca_nvme_disk *disk, const struct softdoca_nvme_sqe *cmd,
				 struct softdoca_nvme_cqe *cqe)
{
	struct nvme_ctrl *c = (struct nvme_ctrl *)disk;
	struct softdoca_nvme_qpair *qp;
	struct softdoca_nvme_sqe sqe;
	struct softdoca_nvme_cqe *e;
	doca_error_t err = DOCA_SUCCESS;

	if (c == NULL || cmd == NULL || cqe == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&c->admin_lock);
	qp = &c->admin;
	sqe = *cmd;
	sqe.cid = c->next_cid++;
	/* one command at a time: the SQ always has room */
	softdoca_nvme_sq_push(qp, &sqe);
	softdoca_nvme_ring_sq(qp);
	for (;;) {
		uint64_t n;

		e = softdoca_nvme_cq_peek(qp);
		if (e != NULL)
			break;
		/* the controller writes the interrupt fd after posting: sleep until it does */
		if (read(qp->irq_fd, &n, sizeof(n)) < 0 && errno != EINTR) {
			SDK_LOG_ERR("soft NVMe admin: waiting for the completion: %s", strerror(errno));
			err = DOCA_ERROR_OPERATING_SYSTEM;
			break;
		}
	}
	if (e != NULL) {
		*cqe = *e;
		softdoca_nvme_cq_pop(qp);
		softdoca_nvme_ring_cq(qp);
	}
	pthread_mutex_unlock(&c->admin_lock);
	return err;
}

/* An admin command's result as a DOCA error, logged when it is not success. */
static doca_error_t admin_status(const char *what, const struct softdoca_nvme_cqe *e)
{
	if (SOFTDOCA_NVME_CQE_SC(e) == 0 && SOFTDOCA_NVME_CQE_SCT(e) == 0)
		return DOCA_SUCCESS;
	SDK_LOG_ERR("soft NVMe %s: status SCT %u SC 0x%02x", what, SOFTDOCA_NVME_CQE_SCT(e), SOFTDOCA_NVME_CQE_SC(e));
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t softdoca_nvme_identify(struct softdoca_nvme_disk *disk, uint8_t cns, uint32_t nsid, void *data)
{
	struct softdoca_nvme_sqe cmd = {.opc = SOFTDOCA_NVME_ADM_IDENTIFY, .nsid = nsid, .cdw10 = cns};
	struct softdoca_nvme_cqe e;
	void *buf;
	doca_error_t err;

	if (data == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	/* one page-aligned page: PRP1 alone covers it */
	buf = aligned_alloc(NVME_PAGE, NVME_PAGE);
	if (buf == NULL)
		return DOCA_ERROR_NO_MEMORY;
	cmd.prp1 = (uintptr_t)buf;
	err = softdoca_nvme_admin(disk, &cmd, &e);
	if (err == DOCA_SUCCESS)
		err = admin_status("Identify", &e);
	if (err == DOCA_SUCCESS)
		memcpy(data, buf, NVME_PAGE);
	free(buf);
	return err;
}

static doca_error_t delete_queue(struct softdoca_nvme_disk *disk, uint8_t opc, uint16_t qid)
{
	struct softdoca_nvme_sqe cmd = {.opc = opc, .cdw10 = qid};
	struct softdoca_nvme_cqe e;
	doca_error_t err = softdoca_nvme_admin(disk, &cmd, &e);

	return err != DOCA_SUCCESS ? err : admin_status(opc == SOFTDOCA_NVME_ADM_DELETE_SQ ? "Delete I/O SQ" : "Delete I/O CQ", &e);
}

doca_error_t softdoca_nvme_qpair_create(struct softdoca_nvme_disk *disk, uint16_t qid, uint16_t depth, void *sq_mem,
					void *cq_mem, struct softdoca_nvme_qpair *qp)
{
	struct nvme_ctrl *c = (struct nvme_ctrl *)disk;
	struct softdoca_nvme_sqe cmd = {0};
	struct softdoca_nvme_cqe e;
	bool own = sq_mem == NULL && cq_mem == NULL;
	size_t sqb = (size_t)depth * sizeof(struct softdoca_nvme_sqe);
	size_t cqb = (size_t)depth * sizeof(struct softdoca_nvme_cqe);
	doca_error_t err;

	if (c == NULL || qp == NULL || (sq_mem == NULL) != (cq_mem == NULL) || depth < 2) {
		SDK_LOG_ERR("soft NVMe qpair create: disk and qp are needed, both rings or neither, depth >= 2");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (own) {
		sq_mem = aligned_alloc(NVME_PAGE, (sqb + NVME_PAGE - 1) & ~(size_t)(NVME_PAGE - 1));
		cq_mem = aligned_alloc(NVME_PAGE, (cqb + NVME_PAGE - 1) & ~(size_t)(NVME_PAGE - 1));
		if (sq_mem == NULL || cq_mem == NULL) {
			free(sq_mem);
			free(cq_mem);
			return DOCA_ERROR_NO_MEMORY;
		}
	}
	/* Create I/O CQ: contiguous, interrupts on, vector = qid */
	cmd.opc = SOFTDOCA_NVME_ADM_CREATE_CQ;
	cmd.prp1 = (uintptr_t)cq_mem;
	cmd.cdw10 = qid | ((uint32_t)(depth - 1) << 16);
	cmd.cdw11 = 1u | 2u | ((uint32_t)qid << 16);
	err = softdoca_nvme_admin(disk, &cmd, &e);
	if (err == DOCA_SUCCESS)
		err = admin_status("Create I/O CQ", &e);
	if (err == DOCA_SUCCESS) {
		cmd.opc = SOFTDOCA_NVME_ADM_CREATE_SQ;
		cmd.prp1 = (uintptr_t)sq_mem;
		cmd.cdw11 = 1u | ((uint32_t)qid << 16);
		err = softdoca_nvme_admin(disk, &cmd, &e);
		if (err == DOCA_SUCCESS)
			err = admin_status("Create I/O SQ", &e);
		if (err != DOCA_SUCCESS)
			delete_queue(disk, SOFTDOCA_NVME_ADM_DELETE_CQ, qid);
	}
	if (err != DOCA_SUCCESS) {
		if (own) {
			free(sq_mem);
			free(cq_mem);
		}
		return err;
	}
	*qp = (struct softdoca_nvme_qpair){
		.qid = qid, .depth = depth, .sq = sq_mem, .cq = cq_mem,
		.sq_doorbell = &c->doorbells[2 * qid], .cq_doorbell = &c->doorbells[2 * qid + 1],
		.sq_doorbell_offset = 8u * qid, .cq_doorbell_offset = 8u * qid + 4,
		/* the vector's fd was made by Create I/O CQ, which has completed */
		.wake_fd = c->wake_fd, .irq_fd = c->irq_fd[qid], .cq_phase = 1, .own_memory = own,
	};
	return DOCA_SUCCESS;
}

doca_error_t softdoca_nvme_qpair_destroy(struct softdoca_nvme_disk *disk, struct softdoca_nvme_qpair *qp)
{
	doca_error_t err;

	if (disk == NULL || qp == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	err = delete_queue(disk, SOFTDOCA_NVME_ADM_DELETE_SQ, qp->qid);
	if (err == DOCA_SUCCESS)
		err = delete_queue(disk, SOFTDOCA_NVME_ADM_DELETE_CQ, qp->qid);
	if (err == DOCA_SUCCESS && qp->own_memory) {
		free(qp->sq);
		free(qp->cq);
		qp->sq = NULL;
		qp->cq = NULL;
	}
	return err;
}
