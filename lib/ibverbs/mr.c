/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Memory regions. lkey = rkey = a 32-bit key unique in this process. An MR with a remote
 * right is a started doca_mmap exported for RDMA: the soft NIC names that memory by (pid,
 * export id, token), which the MR keeps (read back through an import of its own descriptor)
 * and the peer learns from the MR table in the connect info (sv_mr_table).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/priv/mmap_priv.h"
#include "doca_mmap.h"
#include "ibv_int.h"
#include "softhw/base/sdk_log.h"
#include "softhw/fabric/mem.h"

SDK_LOG_REGISTER(IBV_MR);

#undef ibv_reg_mr
#undef ibv_reg_mr_iova

#define REMOTE_RIGHTS (IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)

static int export_mr(struct sv_mr *m, struct doca_dev *dev)
{
	uint32_t perm = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	struct doca_mmap *imp = NULL;
	const void *desc;
	size_t len;

	if (m->access & IBV_ACCESS_REMOTE_READ)
		perm |= DOCA_ACCESS_FLAG_RDMA_READ;
	if (m->access & IBV_ACCESS_REMOTE_WRITE)
		perm |= DOCA_ACCESS_FLAG_RDMA_WRITE;
	if (m->access & IBV_ACCESS_REMOTE_ATOMIC)
		perm |= DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	if (doca_mmap_create(&m->mmap) != DOCA_SUCCESS)
		return ENOMEM;
	if (doca_mmap_set_memrange(m->mmap, m->pub.addr, m->pub.length) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(m->mmap, perm) != DOCA_SUCCESS || doca_mmap_add_dev(m->mmap, dev) != DOCA_SUCCESS ||
	    doca_mmap_start(m->mmap) != DOCA_SUCCESS ||
	    doca_mmap_export_rdma(m->mmap, dev, &desc, &len) != DOCA_SUCCESS ||
	    doca_mmap_create_from_export(NULL, desc, len, dev, &imp) != DOCA_SUCCESS) {
		SDK_LOG_ERR("ibv_reg_mr: the soft NIC could not export %zu bytes at %p", m->pub.length, m->pub.addr);
		(void)doca_mmap_stop(m->mmap);
		(void)doca_mmap_destroy(m->mmap);
		m->mmap = NULL;
		return EINVAL;
	}
	m->pid = imp->exporter_pid;
	m->id = imp->export_id;
	m->token = imp->export_token;
	(void)doca_mmap_stop(imp);
	(void)doca_mmap_destroy(imp);
	return 0;
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)
{
	struct sv_mr *m;
	int e = 0;

	if (pd == NULL || (addr == NULL && length != 0)) {
		errno = EINVAL;
		return NULL;
	}
	if (iova != (uint64_t)(uintptr_t)addr) {
		SDK_LOG_ERR("ibv_reg_mr_iova2: an IOVA other than the address is not supported");
		errno = EOPNOTSUPP;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	m->pub.context = pd->context;
	m->pub.pd = pd;
	m->pub.addr = addr;
	m->pub.length = length;
	m->access = (int)access;
	if ((access & REMOTE_RIGHTS) != 0 && length > 0)
		e = export_mr(m, sv_ctx_of(pd->context)->dev);
	if (e != 0) {
		free(m);
		errno = e;
		return NULL;
	}
	pthread_mutex_lock(&sv.lock);
	m->pub.lkey = m->pub.rkey = sv.next_key++;
	/* RoCEv2: the R_Key the soft NIC's responder knows the export by, so any peer may use it */
	if (m->mmap != NULL && sv_ctx_wire(pd->context) && softhw_mem_rkey32(m->id, m->token) != 0)
		m->pub.rkey = softhw_mem_rkey32(m->id, m->token);
	m->next = sv.mrs;
	sv.mrs = m;
	m->next_key = sv.mr_keys[m->pub.lkey % SV_MR_BUCKETS];
	sv.mr_keys[m->pub.lkey % SV_MR_BUCKETS] = m;
	pthread_mutex_unlock(&sv.lock);
	return &m->pub;
}

struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, (uint64_t)(uintptr_t)addr, (unsigned int)access);
}

struct ibv_mr *ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, int access)
{
	return ibv_reg_mr_iova2(pd, addr, length, iova, (unsigned int)access);
}

/* A dma-buf is a device driver's memory (a GPU's) behind a file descriptor: the soft NIC reaches
 * memory by address only. */
struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access)
{
	(void)pd;
	(void)offset;
	(void)length;
	(void)iova;
	(void)fd;
	(void)access;
	SDK_LOG_ERR("ibv_reg_dmabuf_mr: not supported by softdoca's libibverbs (no dma-buf: the soft NIC "
		    "reaches memory by address)");
	errno = EOPNOTSUPP;
	return NULL;
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
	struct sv_mr *m = (struct sv_mr *)mr;

	if (m == NULL)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	for (struct sv_mr **pp = &sv.mrs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	for (struct sv_mr **pp = &sv.mr_keys[m->pub.lkey % SV_MR_BUCKETS]; *pp != NULL; pp = &(*pp)->next_key)
		if (*pp == m) {
			*pp = m->next_key;
			break;
		}
	pthread_mutex_unlock(&sv.lock);
	if (m->mmap != NULL) {
		(void)doca_mmap_stop(m->mmap);
		(void)doca_mmap_destroy(m->mmap);
	}
	free(m);
	return 0;
}

struct sv_mr *sv_mr_find(uint32_t key)
{
	for (struct sv_mr *m = sv.mr_keys[key % SV_MR_BUCKETS]; m != NULL; m = m->next_key)
		if (m->pub.lkey == key)
			return m;
	return NULL;
}

/* The remotely accessible MRs of pd, newest first (under sv.lock). */
uint32_t sv_mr_table(struct ibv_pd *pd, struct sv_peer_mr *out, uint32_t max)
{
	uint32_t n = 0;

	for (struct sv_mr *m = sv.mrs; m != NULL && n < max; m = m->next)
		if (m->pub.pd == pd && m->mmap != NULL)
			out[n++] = (struct sv_peer_mr){.rkey = m->pub.rkey, .pid = m->pid, .id = m->id, .token = m->token,
						       .addr = (uint64_t)(uintptr_t)m->pub.addr, .len = m->pub.length};
	return n;
}
