/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How softdoca's librdmacm (lib/rdmacm) marks the ibv_pd it puts in every rdma_cm_id, so that
 * doca_rdma_bridge_open_dev_from_pd (lib/common/rdma_bridge.c) finds the soft device behind it. The tag sits
 * right after the 16-byte struct ibv_pd (context pointer, handle, padding on LP64); rdma-core's
 * providers embed their ibv_pd in a larger object, so reading there stays inside the allocation.
 */
#ifndef SOFTDOCA_SOFT_VERBS_H
#define SOFTDOCA_SOFT_VERBS_H

#include <stdint.h>

struct doca_devinfo;

#define SOFTDOCA_VERBS_TAG_MAGIC 0x73626576746673ull /* "sftverbs" */
#define SOFTDOCA_VERBS_TAG_OFFSET 16

struct softdoca_verbs_tag {
	uint64_t magic;
	struct doca_devinfo *devinfo;
};

static inline const struct softdoca_verbs_tag *softdoca_verbs_tag_of_pd(const void *pd)
{
	const struct softdoca_verbs_tag *t = (const void *)((const char *)pd + SOFTDOCA_VERBS_TAG_OFFSET);

	return t->magic == SOFTDOCA_VERBS_TAG_MAGIC ? t : NULL;
}

#endif /* SOFTDOCA_SOFT_VERBS_H */
