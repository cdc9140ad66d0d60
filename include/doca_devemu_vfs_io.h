/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_devemu_vfs_io.h — DOCA DevEmu virtio-fs I/O, declarations from the DOCA 3.0
 * interface facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
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

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DEVEMU_VFS_IO_H */
