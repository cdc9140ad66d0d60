/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_dpa_dev.h — DPA device API: threads, logs, completions, hash tables.
 * Device code only: compiled by dpacc (docs/dpa.md).
 */
#ifndef SOFTDOCA_DOCA_DPA_DEV_H
#define SOFTDOCA_DOCA_DPA_DEV_H

#ifndef DOCA_DPA_DEVICE
#define DOCA_DPA_DEVICE
#endif
#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"

/* dpacc predefines the markers; a plain compiler sees them as nothing. */
#ifndef __dpa_global__
#define __dpa_global__
#endif
#ifndef __dpa_rpc__
#define __dpa_rpc__
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef SOFTDOCA_DPA_DEV_LOG_LEVEL_DEFINED
#define SOFTDOCA_DPA_DEV_LOG_LEVEL_DEFINED
__dpa_global__ typedef enum doca_dpa_dev_log_level {
	DOCA_DPA_DEV_LOG_LEVEL_DISABLE = 10,
	DOCA_DPA_DEV_LOG_LEVEL_ERROR = 30,
	DOCA_DPA_DEV_LOG_LEVEL_WARNING = 40,
	DOCA_DPA_DEV_LOG_LEVEL_INFO = 50,
	DOCA_DPA_DEV_LOG_LEVEL_DEBUG = 60,
} doca_dpa_dev_log_level_t;
#endif
__dpa_global__ typedef uint64_t doca_dpa_dev_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_uintptr_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_hash_table_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_completion_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_completion_element_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_async_ops_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_notification_completion_t;
__dpa_global__ typedef enum {
	DOCA_DPA_DEV_COMP_SEND = 0x0,
	DOCA_DPA_DEV_COMP_RECV_RDMA_WRITE_IMM = 0x1,
	DOCA_DPA_DEV_COMP_RECV_SEND = 0x2,
	DOCA_DPA_DEV_COMP_RECV_SEND_IMM = 0x3,
	DOCA_DPA_DEV_COMP_SEND_ERR = 0xD,
	DOCA_DPA_DEV_COMP_RECV_ERR = 0xE
} doca_dpa_dev_completion_type_t;
__dpa_global__ enum doca_dpa_dev_submit_flag {
	DOCA_DPA_DEV_SUBMIT_FLAG_NONE = 0U,
	DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH = (1U << 0),
	DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS = (1U << 1),
};
#ifndef __forceinline
#define __forceinline static inline __attribute__((always_inline))
#endif
#define DOCA_DPA_DEV_LOG_ERR(...)  doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_ERROR, __VA_ARGS__)
#define DOCA_DPA_DEV_LOG_WARN(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_WARNING, __VA_ARGS__)
#define DOCA_DPA_DEV_LOG_INFO(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_INFO, __VA_ARGS__)
#define DOCA_DPA_DEV_LOG_DBG(...)  doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_DEBUG, __VA_ARGS__)
#ifndef __always_inline
#define __always_inline __attribute__((always_inline))
#endif

DOCA_EXPERIMENTAL void doca_dpa_dev_device_set(doca_dpa_dev_t dpa_handle);
DOCA_EXPERIMENTAL unsigned int doca_dpa_dev_thread_rank(void);
DOCA_EXPERIMENTAL unsigned int doca_dpa_dev_num_threads(void);
DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_thread_get_local_storage(void);
DOCA_EXPERIMENTAL void doca_dpa_dev_yield(void);
DOCA_EXPERIMENTAL void doca_dpa_dev_thread_reschedule(void);
DOCA_EXPERIMENTAL void doca_dpa_dev_thread_finish(void);
DOCA_EXPERIMENTAL void doca_dpa_dev_thread_notify(doca_dpa_dev_notification_completion_t comp_handle);
DOCA_EXPERIMENTAL void doca_dpa_dev_log(doca_dpa_dev_log_level_t log_level, const char *format, ...) __attribute__((format(printf, 2, 3)));
DOCA_EXPERIMENTAL void doca_dpa_dev_trace(uint64_t arg1, uint64_t arg2, uint64_t arg3, uint64_t arg4, uint64_t arg5);
DOCA_EXPERIMENTAL void doca_dpa_dev_trace_flush(void);
DOCA_EXPERIMENTAL void doca_dpa_dev_hash_table_add(doca_dpa_dev_hash_table_t ht_handle, uint32_t key, uint64_t value);
DOCA_EXPERIMENTAL void doca_dpa_dev_hash_table_remove(doca_dpa_dev_hash_table_t ht_handle, uint32_t key);
DOCA_EXPERIMENTAL int doca_dpa_dev_hash_table_find(doca_dpa_dev_hash_table_t ht_handle, uint32_t key, uint64_t *value);
DOCA_EXPERIMENTAL int doca_dpa_dev_get_completion(doca_dpa_dev_completion_t dpa_comp_handle, doca_dpa_dev_completion_element_t *comp_element);
DOCA_EXPERIMENTAL doca_dpa_dev_completion_type_t doca_dpa_dev_get_completion_type(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_get_completion_user_data(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_get_completion_immediate(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL void doca_dpa_dev_completion_ack(doca_dpa_dev_completion_t dpa_comp_handle, uint64_t num_comp);
DOCA_EXPERIMENTAL void doca_dpa_dev_completion_request_notification(doca_dpa_dev_completion_t dpa_comp_handle);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_completion_element_get_swqe_opcode(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_completion_element_get_srqn(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_completion_element_get_qpn(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_completion_element_get_wqe_counter(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_completion_element_get_received_bytes(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_completion_element_get_error_syndrome(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t doca_dpa_dev_completion_element_get_vendor_error_syndrome(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint64_t doca_dpa_dev_completion_element_get_timestamp(doca_dpa_dev_completion_element_t comp_element);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_DPA_DEV_H */
