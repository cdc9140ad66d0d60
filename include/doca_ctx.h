/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_ctx.h, written from the DOCA 3.0 interface facts. */
#ifndef SOFTDOCA_DOCA_CTX_H
#define SOFTDOCA_DOCA_CTX_H

#include <stddef.h>
#include <stdint.h>
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_ctx;
struct doca_devinfo;
struct doca_dpa;
struct doca_gpu;

enum doca_ctx_states {
	DOCA_CTX_STATE_IDLE = 0,
	DOCA_CTX_STATE_STARTING = 1,
	DOCA_CTX_STATE_RUNNING = 2,
	DOCA_CTX_STATE_STOPPING = 3,
};

typedef void (*doca_ctx_state_changed_callback_t)(const union doca_data user_data, struct doca_ctx *ctx, enum doca_ctx_states prev_state, enum doca_ctx_states next_state);

/* functions */
DOCA_STABLE doca_error_t doca_ctx_start(struct doca_ctx *ctx);
DOCA_STABLE doca_error_t doca_ctx_stop(struct doca_ctx *ctx);
DOCA_STABLE doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx, size_t *num_inflight_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx, struct doca_gpu *gpu_dev);
DOCA_STABLE doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data);
DOCA_STABLE doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx, union doca_data *user_data);
DOCA_STABLE doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx, doca_ctx_state_changed_callback_t cb);
DOCA_STABLE doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state);
DOCA_EXPERIMENTAL void doca_ctx_flush_tasks(struct doca_ctx *ctx);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx, struct doca_dpa *dpa_dev);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_completion_vector(struct doca_ctx *ctx, uint32_t comp_vector);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_cap_get_num_completion_vectors(const struct doca_devinfo *devinfo, uint32_t *num_comp_vectors);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_CTX_H */
