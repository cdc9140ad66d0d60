/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How softdoca's libibverbs (lib/ibverbs) marks the ibv_pd it makes (librdmacm's ids' too), so
 * that doca_rdma_bridge_open_dev_from_pd (lib/common/rdma_bridge.c) finds the soft device behind
 * it. The pd's own handle says "ours" first: a kernel's pd handles are small indexes, never
 * SOFTDOCA_VERBS_PD_HANDLE, and the handle is a member of every ibv_pd, so reading it stays in
 * bounds. Only then is the tag read, right after the 16-byte struct ibv_pd (context pointer,
 * handle, padding on LP64): an rdma-core provider may allocate a bare ibv_pd (rxe does), and a
 * read past it would leave the allocation.
 */
#ifndef SOFTDOCA_SOFT_VERBS_H
#define SOFTDOCA_SOFT_VERBS_H

#include <stdint.h>
#include <string.h>

struct doca_devinfo;

#define SOFTDOCA_VERBS_TAG_MAGIC 0x73626576746673ull /* "sftverbs" */
#define SOFTDOCA_VERBS_TAG_OFFSET 16
#define SOFTDOCA_VERBS_PD_HANDLE_OFFSET 8 /* offsetof(struct ibv_pd, handle) on LP64 */
#define SOFTDOCA_VERBS_PD_HANDLE 0x50f7d0cau

struct softdoca_verbs_tag {
	uint64_t magic;
	struct doca_devinfo *devinfo;
};

static inline const struct softdoca_verbs_tag *softdoca_verbs_tag_of_pd(const void *pd)
{
	const struct softdoca_verbs_tag *t = (const void *)((const char *)pd + SOFTDOCA_VERBS_TAG_OFFSET);
	uint32_t handle;

	memcpy(&handle, (const char *)pd + SOFTDOCA_VERBS_PD_HANDLE_OFFSET, sizeof(handle));
	if (handle != SOFTDOCA_VERBS_PD_HANDLE)
		return NULL; /* not ours: nothing past the ibv_pd is read */
	return t->magic == SOFTDOCA_VERBS_TAG_MAGIC ? t : NULL;
}

#endif /* SOFTDOCA_SOFT_VERBS_H */
