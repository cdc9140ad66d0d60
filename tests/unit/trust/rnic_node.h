/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft NIC endpoint a trust test's target process holds: the first device's function, every
 * RDMA right. Shared by the tests that attack it over the wire (test_rnic_wire.c) and the ring
 * (test_rnic_ring.c).
 */
#ifndef SOFTDOCA_TESTS_TRUST_RNIC_NODE_H
#define SOFTDOCA_TESTS_TRUST_RNIC_NODE_H

#include <stdbool.h>
#include <string.h>

#include "doca_dev.h"
#include "common/priv/dev_priv.h"
#include "softhw/fabric/mem.h"
#include "softhw/rnic/rnic.h"

#define ALL_RDMA (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

struct node {
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct softhw_rnic_ep *ep;
};

/* owner_wakes: as a verbs completion channel's endpoint (the doorbells are in its wait set too). */
static inline bool node_open(struct node *n, uint32_t max_qps, bool owner_wakes)
{
	struct softhw_rnic_ep_attr attr = {0};
	uint32_t nb = 0;

	memset(n, 0, sizeof(*n));
	if (doca_devinfo_create_list(&n->list, &nb) != DOCA_SUCCESS || nb == 0 ||
	    doca_dev_open(n->list[0], &n->dev) != DOCA_SUCCESS)
		return false;
	attr.fn = n->dev->devinfo->fn;
	attr.access = ALL_RDMA | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	attr.max_qps = max_qps;
	attr.max_recv_sge = 1;
	attr.max_send_sge = 1;
	attr.max_msg_size = 1u << 20;
	attr.cm_timeout_ms = 2000;
	attr.owner_wakes = owner_wakes;
	return softhw_rnic_ops.ep_create(&attr, &n->ep) == DOCA_SUCCESS;
}

/* mem exported for the soft NIC with every right: its rkey's id and token. */
static inline bool node_export(const struct node *n, void *mem, uint64_t len, uint64_t *id, uint64_t *token)
{
	const char *why = "";

	return softhw_mem_export_add(n->dev->devinfo->fn->card->instance, mem, len,
				     SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_ATOMIC | SOFTHW_MEM_VIA_NIC, id, token,
				     &why) == DOCA_SUCCESS;
}

#endif /* SOFTDOCA_TESTS_TRUST_RNIC_NODE_H */
