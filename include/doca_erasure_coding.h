/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_erasure_coding.h — DOCA Erasure Coding, declarations from the DOCA 3.0 interface
 * facts. softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_ERASURE_CODING_H
#define SOFTDOCA_DOCA_ERASURE_CODING_H

#include <inttypes.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_ec;
struct doca_ec_matrix;
struct doca_ec_task_galois_mul;

typedef void (*doca_ec_task_galois_mul_completion_cb_t)(struct doca_ec_task_galois_mul *task, union doca_data task_user_data, union doca_data ctx_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_ec_cap_task_galois_mul_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_galois_mul_set_conf(struct doca_ec *ec, doca_ec_task_galois_mul_completion_cb_t successful_task_completion_cb, doca_ec_task_galois_mul_completion_cb_t error_task_completion_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_galois_mul_allocate_init(struct doca_ec *ec, const struct doca_ec_matrix *coding_matrix, const struct doca_buf *src_buf, struct doca_buf *dst_buf, union doca_data user_data, struct doca_ec_task_galois_mul **task);
DOCA_EXPERIMENTAL struct doca_task *doca_ec_task_galois_mul_as_task(struct doca_ec_task_galois_mul *task);
DOCA_EXPERIMENTAL void doca_ec_task_galois_mul_set_coding_matrix(struct doca_ec_task_galois_mul *task, const struct doca_ec_matrix *coding_matrix);
DOCA_EXPERIMENTAL const struct doca_ec_matrix *doca_ec_task_galois_mul_get_coding_matrix(const struct doca_ec_task_galois_mul *task);
DOCA_EXPERIMENTAL void doca_ec_task_galois_mul_set_src_buf(struct doca_ec_task_galois_mul *task, const struct doca_buf *src_buf);
DOCA_EXPERIMENTAL const struct doca_buf *doca_ec_task_galois_mul_get_src_buf(const struct doca_ec_task_galois_mul *task);
DOCA_EXPERIMENTAL void doca_ec_task_galois_mul_set_dst_buf(struct doca_ec_task_galois_mul *task, struct doca_buf *dst_buf);
DOCA_EXPERIMENTAL struct doca_buf *doca_ec_task_galois_mul_get_dst_buf(const struct doca_ec_task_galois_mul *task);

struct doca_ec_task_create;

typedef void (*doca_ec_task_create_completion_cb_t)(struct doca_ec_task_create *task, union doca_data task_user_data, union doca_data ctx_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_ec_cap_task_create_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_create_set_conf(struct doca_ec *ec, doca_ec_task_create_completion_cb_t successful_task_completion_cb, doca_ec_task_create_completion_cb_t error_task_completion_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_create_allocate_init(struct doca_ec *ec, const struct doca_ec_matrix *coding_matrix, const struct doca_buf *original_data_blocks, struct doca_buf *rdnc_blocks, union doca_data user_data, struct doca_ec_task_create **task);
DOCA_EXPERIMENTAL struct doca_task *doca_ec_task_create_as_task(struct doca_ec_task_create *task);
DOCA_EXPERIMENTAL void doca_ec_task_create_set_coding_matrix(struct doca_ec_task_create *task, const struct doca_ec_matrix *coding_matrix);
DOCA_EXPERIMENTAL const struct doca_ec_matrix *doca_ec_task_create_get_coding_matrix(const struct doca_ec_task_create *task);
DOCA_EXPERIMENTAL void doca_ec_task_create_set_original_data_blocks(struct doca_ec_task_create *task, const struct doca_buf *original_data_blocks);
DOCA_EXPERIMENTAL const struct doca_buf *doca_ec_task_create_get_original_data_blocks(const struct doca_ec_task_create *task);
DOCA_EXPERIMENTAL void doca_ec_task_create_set_rdnc_blocks(struct doca_ec_task_create *task, struct doca_buf *rdnc_blocks);
DOCA_EXPERIMENTAL struct doca_buf *doca_ec_task_create_get_rdnc_blocks(const struct doca_ec_task_create *task);

struct doca_ec_task_update;

typedef void (*doca_ec_task_update_completion_cb_t)(struct doca_ec_task_update *task, union doca_data task_user_data, union doca_data ctx_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_ec_cap_task_update_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_update_set_conf(struct doca_ec *ec, doca_ec_task_update_completion_cb_t successful_task_completion_cb, doca_ec_task_update_completion_cb_t error_task_completion_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_update_allocate_init(struct doca_ec *ec, const struct doca_ec_matrix *update_matrix, const struct doca_buf *original_updated_and_rdnc_blocks, struct doca_buf *updated_rdnc_blocks, union doca_data user_data, struct doca_ec_task_update **task);
DOCA_EXPERIMENTAL struct doca_task *doca_ec_task_update_as_task(struct doca_ec_task_update *task);
DOCA_EXPERIMENTAL void doca_ec_task_update_set_update_matrix(struct doca_ec_task_update *task, const struct doca_ec_matrix *update_matrix);
DOCA_EXPERIMENTAL const struct doca_ec_matrix *doca_ec_task_update_get_update_matrix(const struct doca_ec_task_update *task);
DOCA_EXPERIMENTAL void doca_ec_task_update_set_original_updated_and_rdnc_blocks(struct doca_ec_task_update *task, const struct doca_buf *original_updated_and_rdnc_blocks);
DOCA_EXPERIMENTAL const struct doca_buf *doca_ec_task_update_get_original_updated_and_rdnc_blocks(const struct doca_ec_task_update *task);
DOCA_EXPERIMENTAL void doca_ec_task_update_set_updated_rdnc_blocks(struct doca_ec_task_update *task, struct doca_buf *updated_rdnc_blocks);
DOCA_EXPERIMENTAL struct doca_buf *doca_ec_task_update_get_updated_rdnc_blocks(const struct doca_ec_task_update *task);

struct doca_ec_task_recover;

typedef void (*doca_ec_task_recover_completion_cb_t)(struct doca_ec_task_recover *task, union doca_data task_user_data, union doca_data ctx_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_ec_cap_task_recover_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_recover_set_conf(struct doca_ec *ec, doca_ec_task_recover_completion_cb_t successful_task_completion_cb, doca_ec_task_recover_completion_cb_t error_task_completion_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_ec_task_recover_allocate_init(struct doca_ec *ec, const struct doca_ec_matrix *recover_matrix, const struct doca_buf *available_blocks, struct doca_buf *recovered_data_blocks, union doca_data user_data, struct doca_ec_task_recover **task);
DOCA_EXPERIMENTAL struct doca_task *doca_ec_task_recover_as_task(struct doca_ec_task_recover *task);
DOCA_EXPERIMENTAL void doca_ec_task_recover_set_recover_matrix(struct doca_ec_task_recover *task, const struct doca_ec_matrix *recover_matrix);
DOCA_EXPERIMENTAL const struct doca_ec_matrix *doca_ec_task_recover_get_recover_matrix(const struct doca_ec_task_recover *task);
DOCA_EXPERIMENTAL void doca_ec_task_recover_set_available_blocks(struct doca_ec_task_recover *task, const struct doca_buf *available_blocks);
DOCA_EXPERIMENTAL const struct doca_buf *doca_ec_task_recover_get_available_blocks(const struct doca_ec_task_recover *task);
DOCA_EXPERIMENTAL void doca_ec_task_recover_set_recovered_data_blocks(struct doca_ec_task_recover *task, struct doca_buf *recovered_data_blocks);
DOCA_EXPERIMENTAL struct doca_buf *doca_ec_task_recover_get_recovered_data(const struct doca_ec_task_recover *task);
DOCA_EXPERIMENTAL doca_error_t doca_ec_create(struct doca_dev *dev, struct doca_ec **ec);
DOCA_EXPERIMENTAL doca_error_t doca_ec_destroy(struct doca_ec *ec);
DOCA_EXPERIMENTAL struct doca_ctx *doca_ec_as_ctx(struct doca_ec *ec);
DOCA_EXPERIMENTAL doca_error_t doca_ec_cap_get_max_block_size(const struct doca_devinfo *devinfo, uint64_t *max_block_size);
DOCA_EXPERIMENTAL doca_error_t doca_ec_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_buf_list_len);

enum doca_ec_matrix_type {
	DOCA_EC_MATRIX_TYPE_CAUCHY = 1,
	DOCA_EC_MATRIX_TYPE_VANDERMONDE = 2,
};

DOCA_EXPERIMENTAL doca_error_t doca_ec_matrix_create(struct doca_ec *ec, enum doca_ec_matrix_type type, size_t data_block_count, size_t rdnc_block_count, struct doca_ec_matrix **matrix);
DOCA_EXPERIMENTAL doca_error_t doca_ec_matrix_create_from_raw(struct doca_ec *ec, uint8_t *data, size_t data_block_count, size_t rdnc_block_count, struct doca_ec_matrix **matrix);
DOCA_EXPERIMENTAL doca_error_t doca_ec_matrix_create_update(struct doca_ec *ec, const struct doca_ec_matrix *coding_matrix, uint32_t update_indices[], size_t n_updates, struct doca_ec_matrix **matrix);
DOCA_EXPERIMENTAL doca_error_t doca_ec_matrix_create_recover(struct doca_ec *ec, const struct doca_ec_matrix *coding_matrix, uint32_t missing_indices[], size_t n_missing, struct doca_ec_matrix **matrix);
DOCA_EXPERIMENTAL doca_error_t doca_ec_matrix_destroy(struct doca_ec_matrix *matrix);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_ERASURE_CODING_H */
