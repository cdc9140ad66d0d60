/* SPDX-License-Identifier: BSD-3-Clause */
/* Layouts of doca_devinfo / doca_dev shared by the softdoca libraries (private). */
#ifndef SOFTDOCA_DEV_PRIV_H
#define SOFTDOCA_DEV_PRIV_H

#include <stdint.h>

#include "doca_dev.h"
#include "../../softhw/softhw.h"

struct softhw_comch_ops;
struct softhw_dpa_ops;
struct softhw_rnic_ops;
struct softhw_nvme_ops;

/*
 * A devinfo is a view of one soft function. There is one per function for the whole process
 * (every devinfo list points at the same ones), so it outlives any list: doca_dev_as_devinfo()
 * stays valid after doca_devinfo_destroy_list(), and opening a function twice from two lists
 * gives the same doca_dev.
 */
struct doca_devinfo {
	const struct softhw_function *fn;
	struct doca_dev *open_dev;        /* the open device of this function, refcounted */
	struct doca_dev_rep **open_reps;  /* per representor of fn (fn->num_reps), refcounted */
};

struct doca_dev {
	struct doca_devinfo *devinfo;
	uint32_t refcount;  /* doca_dev_open calls not yet closed (under dev.c's lock) */
	uint32_t users;     /* objects that keep a pointer to the device: see softdoca_dev_hold() */
	const struct softhw_rnic_ops *rnic; /* the device's soft RDMA NIC (lib/softhw/rnic/rnic.h) */
	const struct softhw_comch_ops *comch; /* its Comch transport (lib/softhw/comch/comch.h) */
	const struct softhw_dpa_ops *dpa;    /* its DPA, if the profile has one (lib/softhw/dpa/dpa.h) */
	const struct softhw_nvme_ops *nvme;  /* soft NVMe disks by doorbell page (lib/softhw/nvme/nvme_ops.h) */
};

/* One entry of a representor list; freed with the list. */
struct doca_devinfo_rep {
	const struct softhw_rep *rep;
	struct doca_dev *parent;             /* the local device the list was made from */
	struct doca_devinfo *parent_info;    /* its devinfo (lives as long as the process) */
	uint32_t slot;                       /* index of rep in parent_info->fn->reps */
};

struct doca_dev_rep {
	struct doca_devinfo_rep info; /* a copy: valid after the rep list is destroyed */
	uint32_t refcount;
};

static inline const struct softhw_caps *softdoca_devinfo_caps(const struct doca_devinfo *devinfo)
{
	return &devinfo->fn->caps;
}

static inline const struct softhw_caps *softdoca_dev_caps(const struct doca_dev *dev)
{
	return &dev->devinfo->fn->caps;
}

/*
 * An object that keeps a doca_dev pointer beyond the call that received it (an mmap with the
 * device added, a context) may hold the device: its last doca_dev_close() is then refused
 * with IN_USE instead of leaving that object with a dangling pointer.
 */
static inline void softdoca_dev_hold(struct doca_dev *dev)
{
	__atomic_fetch_add(&dev->users, 1, __ATOMIC_RELAXED);
}

static inline void softdoca_dev_release(struct doca_dev *dev)
{
	__atomic_fetch_sub(&dev->users, 1, __ATOMIC_RELAXED);
}

#endif /* SOFTDOCA_DEV_PRIV_H */
