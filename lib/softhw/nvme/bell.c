/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme: the open disks by doorbell page (nvme_ops.h), so that a library handed a
 * doorbell region as a doca_mmap can wake the controller and wait on a CQ's interrupt.
 */
#include <pthread.h>

#include "nvme_ops.h"
#include "nvme_priv.h"

static pthread_mutex_t bells_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nvme_ctrl *bells;

void nvme_bell_add(struct nvme_ctrl *c)
{
	pthread_mutex_lock(&bells_lock);
	c->bell_next = bells;
	bells = c;
	pthread_mutex_unlock(&bells_lock);
}

void nvme_bell_remove(struct nvme_ctrl *c)
{
	pthread_mutex_lock(&bells_lock);
	for (struct nvme_ctrl **pp = &bells; *pp != NULL; pp = &(*pp)->bell_next) {
		if (*pp == c) {
			*pp = c->bell_next;
			break;
		}
	}
	pthread_mutex_unlock(&bells_lock);
}

static bool find_bell(const void *addr, size_t len, uint16_t cqid, struct softhw_nvme_bell *bell)
{
	const char *a = addr;
	bool found = false;

	if (cqid >= NVME_MAX_QUEUES)
		return false;
	pthread_mutex_lock(&bells_lock);
	for (struct nvme_ctrl *c = bells; c != NULL; c = c->bell_next) {
		const char *page = (const char *)c->doorbells;

		if (a < page || a + len > page + NVME_PAGE)
			continue;
		/* the CQ was made by a completed Create I/O CQ: its fields are settled */
		struct nvme_cq *cq = &c->cq[cqid];

		if (__atomic_load_n(&cq->live, __ATOMIC_ACQUIRE)) {
			bell->wake_fd = c->wake_fd;
			bell->irq_fd = cq->ien ? c->irq_fd[cq->iv] : -1;
			bell->asleep = &c->asleep;
			bell->cq_wait = &cq->cq_wait;
			bell->irq_gate = &cq->irq_gate;
			bell->kick = nvme_ctrl_kick;
			bell->kick_ctx = c;
			/* SQ y's tail is the word at 8 * y (a doorbell stride of 4 bytes) */
			bell->sqid = (a - page) % 8 == 0 && (a - page) / 8 < NVME_MAX_QUEUES ? (uint16_t)((a - page) / 8) : 0;
			found = true;
		}
		break;
	}
	pthread_mutex_unlock(&bells_lock);
	return found;
}

const struct softhw_nvme_ops softhw_nvme_ops = {
	.find_bell = find_bell,
	.own_sq = nvme_own_sq,
	.progress = nvme_owner_progress,
	.release = nvme_owner_release,
};
