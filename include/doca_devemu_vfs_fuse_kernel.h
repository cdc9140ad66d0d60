/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_vfs_fuse_kernel.h — the FUSE wire protocol that DOCA 3.3's virtio-fs
 * request handlers (doca_devemu_vfs_io.h) are written in: struct fuse_in_header, fuse_*_in,
 * fuse_*_out and the FUSE_* opcodes. DOCA ships its own copy of the kernel's FUSE protocol
 * header; softdoca uses the system's Linux UAPI <linux/fuse.h> (linux-libc-dev), which has the
 * same names, and only names the structures newer than the installed protocol version, so that
 * the handler types can point to them. [inferred from DOCA 3.3's doca_devemu_vfs_io.h, which
 * includes this header, and NVIDIA's virtiofs application, which uses these names]
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VFS_FUSE_KERNEL_H
#define SOFTDOCA_DOCA_DEVEMU_VFS_FUSE_KERNEL_H

#include <linux/fuse.h>

/* FUSE 7.39 (Linux 6.6) added STATX; older UAPI headers lack its structures. */
#if FUSE_KERNEL_MINOR_VERSION < 39
struct fuse_statx_in;
struct fuse_statx_out;
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VFS_FUSE_KERNEL_H */
