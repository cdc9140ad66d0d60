/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme: what a DOCA library that drives a soft NVMe disk's queues needs beyond the
 * rings and doorbell words it was handed as doca_mmaps (DOCA STA's back-end queues): the
 * eventfd that wakes the controller after a doorbell write, and the interrupt eventfd of a
 * completion queue. Reached through `doca_dev->nvme` (lib/common/priv/dev_priv.h), so no
 * non-DOCA symbol crosses a library boundary.
 */
#ifndef SOFTHW_NVME_OPS_H
#define SOFTHW_NVME_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct softhw_nvme_bell {
	int wake_fd; /* write 8 bytes after moving a doorbell */
	int irq_fd;  /* the CQ's interrupt vector; -1 when the CQ has interrupts off */
};

struct softhw_nvme_ops {
	/*
	 * The open soft NVMe disk whose doorbell page holds [addr, addr + len), and the fds of its
	 * CQ `cqid`. False when no open disk has that doorbell page or the CQ does not exist.
	 */
	bool (*find_bell)(const void *addr, size_t len, uint16_t cqid, struct softhw_nvme_bell *bell);
};

extern const struct softhw_nvme_ops softhw_nvme_ops;

#endif /* SOFTHW_NVME_OPS_H */
