/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parts of doca_dpa.h softdoca does not implement yet (docs/compatibility.md): log and
 * trace files, the UAR id and buffer copies. Each returns DOCA_ERROR_NOT_SUPPORTED with a line
 * that names the call.
 */
#include "doca_dpa.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DPA_UNSUPPORTED);

#define NOT_YET(name) \
	do { \
		SDK_LOG_ERR("%s: not supported by softdoca's DPA yet (docs/compatibility.md)", name); \
		return DOCA_ERROR_NOT_SUPPORTED; \
	} while (0)

doca_error_t doca_dpa_log_file_set_path(struct doca_dpa *dpa, const char *file_path)
{
	NOT_YET("doca_dpa_log_file_set_path");
}

doca_error_t doca_dpa_log_file_get_path(struct doca_dpa *dpa, char *file_path, uint32_t *file_path_len)
{
	NOT_YET("doca_dpa_log_file_get_path");
}

doca_error_t doca_dpa_trace_file_set_path(struct doca_dpa *dpa, const char *file_path)
{
	NOT_YET("doca_dpa_trace_file_set_path");
}

doca_error_t doca_dpa_trace_file_get_path(struct doca_dpa *dpa, char *file_path, uint32_t *file_path_len)
{
	NOT_YET("doca_dpa_trace_file_get_path");
}

doca_error_t doca_dpa_get_uar_id(const struct doca_dpa *dpa, uint32_t *uar_id)
{
	NOT_YET("doca_dpa_get_uar_id");
}

doca_error_t doca_dpa_h2d_buf_memcpy(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dst_ptr, struct doca_buf *buf, size_t size)
{
	NOT_YET("doca_dpa_h2d_buf_memcpy");
}

doca_error_t doca_dpa_d2h_buf_memcpy(struct doca_dpa *dpa, struct doca_buf *buf, doca_dpa_dev_uintptr_t src_ptr, size_t size)
{
	NOT_YET("doca_dpa_d2h_buf_memcpy");
}

