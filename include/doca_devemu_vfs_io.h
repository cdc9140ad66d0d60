/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_vfs_io.h — DOCA DevEmu virtio-fs I/O, declarations from the DOCA 3.0
 * interface facts and, for the FUSE request API, DOCA 3.3's public doca_devemu_vfs_io.h. softdoca
 * ships the declarations; the library is a stub (every call returns DOCA_ERROR_NOT_SUPPORTED,
 * docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_DEVEMU_VFS_IO_H
#define SOFTDOCA_DOCA_DEVEMU_VFS_IO_H

#include <stdint.h>

#include "doca_buf.h"
#include "doca_error.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_virtio.h"
#include "doca_devemu_virtio_io.h"
#include "doca_devemu_vfs.h"
#include "doca_devemu_vfs_fuse_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_create(struct doca_devemu_vfs_dev *vfs_dev, struct doca_pe *progress_engine, struct doca_devemu_vfs_io **io);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_destroy(struct doca_devemu_vfs_io *io);
DOCA_EXPERIMENTAL struct doca_ctx *doca_devemu_vfs_io_as_ctx(struct doca_devemu_vfs_io *io);
DOCA_EXPERIMENTAL struct doca_devemu_virtio_io *doca_devemu_vfs_io_as_virtio_io(struct doca_devemu_vfs_io *io);

typedef void (*doca_devemu_vfs_io_event_vfs_req_notice_handler_cb_t)(struct doca_devemu_vfs_req *req, void *req_user_data, union doca_data event_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_req_notice_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_req_notice_handler_cb_t handler, union doca_data user_data);

typedef void (*doca_devemu_vfs_io_event_vfs_notification_req_notice_handler_cb_t)(struct doca_devemu_vfs_notification_req *req, void *req_user_data, union doca_data event_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_notification_req_notice_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_notification_req_notice_handler_cb_t handler, union doca_data user_data);
DOCA_EXPERIMENTAL void doca_devemu_vfs_req_complete(struct doca_devemu_vfs_req *req, uint32_t len);
DOCA_EXPERIMENTAL struct doca_buf *doca_devemu_vfs_req_get_datain(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL struct doca_buf *doca_devemu_vfs_req_get_dataout(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_req_get_datain_list_len(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_req_get_datain_data_len(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_req_get_dataout_list_len(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_req_get_dataout_data_len(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL uint64_t doca_devemu_vfs_req_get_id(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL uint16_t doca_devemu_vfs_req_get_src_domain_id(struct doca_devemu_vfs_req *req);
DOCA_EXPERIMENTAL void doca_devemu_vfs_notification_req_complete(struct doca_devemu_vfs_notification_req *req, uint32_t len);
DOCA_EXPERIMENTAL struct doca_buf *doca_devemu_vfs_notification_req_get_dataout(struct doca_devemu_vfs_notification_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_notification_req_get_dataout_list_len(struct doca_devemu_vfs_notification_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_notification_req_get_dataout_data_len(struct doca_devemu_vfs_notification_req *req);
DOCA_EXPERIMENTAL uint64_t doca_devemu_vfs_notification_req_get_id(struct doca_devemu_vfs_notification_req *req);
DOCA_EXPERIMENTAL uint16_t doca_devemu_vfs_notification_req_get_src_domain_id(struct doca_devemu_vfs_notification_req *req);


/* DOCA 3.3: one handler per FUSE opcode, given the request's FUSE headers and data buffers. */
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_lookup_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_entry_out *entry_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_lookup_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_lookup_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_forget_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_forget_in *forget_in);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_forget_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_forget_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_getattr_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_getattr_in *getattr_in, struct fuse_out_header *out, struct fuse_attr_out *attr_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_getattr_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_getattr_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_setattr_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_setattr_in *setattr_in, struct fuse_out_header *out, struct fuse_attr_out *attr_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_setattr_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_setattr_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_readlink_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_out_header *out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_readlink_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_readlink_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_symlink_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_entry_out *entry_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_symlink_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_symlink_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_mknod_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_mknod_in *mknod_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_entry_out *entry_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_mknod_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_mknod_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_mkdir_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_mkdir_in *mkdir_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_entry_out *entry_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_mkdir_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_mkdir_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_unlink_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct doca_buf *datain, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_unlink_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_unlink_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_rmdir_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct doca_buf *datain, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_rmdir_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_rmdir_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_rename_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_rename_in *rename_in, struct doca_buf *datain, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_rename_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_rename_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_link_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_link_in *link_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_entry_out *entry_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_link_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_link_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_open_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_open_in *open_in, struct fuse_out_header *out, struct fuse_open_out *open_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_open_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_open_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_read_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_read_in *read_in, struct fuse_out_header *out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_read_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_read_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_write_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_write_in *write_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_write_out *write_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_write_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_write_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_statfs_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_out_header *out, struct fuse_statfs_out *statfs_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_statfs_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_statfs_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_release_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_release_in *release_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_release_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_release_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_fsync_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_fsync_in *fsync_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_fsync_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_fsync_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_setxattr_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_setxattr_in *setxattr_in, struct doca_buf *datain, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_setxattr_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_setxattr_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_getxattr_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_getxattr_in *getxattr_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_getxattr_out *getxattr_out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_getxattr_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_getxattr_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_listxattr_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_getxattr_in *getxattr_in, struct fuse_out_header *out, struct fuse_getxattr_out *getxattr_out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_listxattr_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_listxattr_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_removexattr_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct doca_buf *datain, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_removexattr_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_removexattr_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_flush_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_flush_in *flush_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_flush_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_flush_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_init_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_init_in *init_in, struct fuse_out_header *out, struct fuse_init_out *init_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_init_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_init_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_opendir_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_open_in *open_in, struct fuse_out_header *out, struct fuse_open_out *open_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_opendir_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_opendir_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_readdir_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_read_in *read_in, struct fuse_out_header *out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_readdir_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_readdir_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_releasedir_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_release_in *release_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_releasedir_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_releasedir_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_fsyncdir_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_fsync_in *fsync_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_fsyncdir_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_fsyncdir_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_getlk_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_lk_in *lk_in, struct fuse_out_header *out, struct fuse_lk_out *lk_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_getlk_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_getlk_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_setlk_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_lk_in *lk_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_setlk_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_setlk_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_setlkw_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_lk_in *lk_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_setlkw_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_setlkw_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_access_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_access_in *access_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_access_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_access_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_create_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_create_in *create_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_entry_out *entry_out, struct fuse_open_out *open_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_create_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_create_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_interrupt_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_interrupt_in *interrupt_in);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_interrupt_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_interrupt_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_ioctl_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_ioctl_in *ioctl_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_ioctl_out *ioctl_out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_ioctl_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_ioctl_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_poll_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_poll_in *poll_in, struct fuse_out_header *out, struct fuse_poll_out *poll_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_poll_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_poll_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_fallocate_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_fallocate_in *fallocate_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_fallocate_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_fallocate_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_destroy_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_destroy_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_destroy_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_notify_reply_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_notify_retrieve_in *notify_retrieve_in, struct doca_buf *datain);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_notify_reply_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_notify_reply_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_batch_forget_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_batch_forget_in *batch_forget_in, struct doca_buf *datain);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_batch_forget_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_batch_forget_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_readdirplus_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_read_in *read_in, struct fuse_out_header *out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_readdirplus_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_readdirplus_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_rename2_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_rename2_in *rename2_in, struct doca_buf *datain, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_rename2_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_rename2_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_copy_file_range_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_copy_file_range_in *copy_file_range_in, struct fuse_out_header *out, struct fuse_write_out *write_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_copy_file_range_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_copy_file_range_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_syncfs_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_syncfs_in *syncfs_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_syncfs_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_syncfs_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_lseek_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_lseek_in *lseek_in, struct fuse_out_header *out, struct fuse_lseek_out *lseek_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_lseek_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_lseek_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_statx_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_statx_in *statx_in, struct fuse_out_header *out, struct fuse_statx_out *statx_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_statx_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_statx_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_tmpfile_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_create_in *create_in, struct doca_buf *datain, struct fuse_out_header *out, struct fuse_entry_out *entry_out, struct fuse_open_out *open_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_tmpfile_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_tmpfile_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_bmap_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_bmap_in *bmap_in, struct fuse_out_header *out, struct fuse_bmap_out *bmap_out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_bmap_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_bmap_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_setupmapping_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_setupmapping_in *setupmapping_in, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_setupmapping_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_setupmapping_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_removemapping_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in, struct fuse_removemapping_in *removemapping_in, struct doca_buf *datain, struct fuse_out_header *out);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_removemapping_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_removemapping_req_notice_handler_cb_t handler);
typedef void (*doca_devemu_vfs_io_event_vfs_fuse_notification_req_notice_handler_cb_t)(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_out_header *out, struct doca_buf *dataout);
DOCA_EXPERIMENTAL doca_error_t doca_devemu_vfs_io_event_vfs_fuse_notification_req_handler_register(struct doca_devemu_vfs_io *io, doca_devemu_vfs_io_event_vfs_fuse_notification_req_notice_handler_cb_t handler);
DOCA_EXPERIMENTAL void doca_devemu_vfs_fuse_req_complete(struct doca_devemu_vfs_fuse_req *req, doca_error_t status);
DOCA_EXPERIMENTAL struct doca_devemu_vfs_io *doca_devemu_vfs_fuse_req_get_vfs_io(struct doca_devemu_vfs_fuse_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_fuse_req_get_datain_list_len(struct doca_devemu_vfs_fuse_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_fuse_req_get_datain_data_len(struct doca_devemu_vfs_fuse_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_fuse_req_get_dataout_list_len(struct doca_devemu_vfs_fuse_req *req);
DOCA_EXPERIMENTAL uint32_t doca_devemu_vfs_fuse_req_get_dataout_data_len(struct doca_devemu_vfs_fuse_req *req);
DOCA_EXPERIMENTAL uint64_t doca_devemu_vfs_fuse_req_get_id(struct doca_devemu_vfs_fuse_req *req);
DOCA_EXPERIMENTAL uint16_t doca_devemu_vfs_fuse_req_get_src_domain_id(struct doca_devemu_vfs_fuse_req *req);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VFS_IO_H */
