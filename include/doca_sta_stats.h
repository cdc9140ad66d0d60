/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_sta_stats.h, written from the DOCA STA interface facts (3.0 plus the newer additions):
 * execution units (EUs) and the counters of EUs, back-end queues and namespaces. */
#ifndef SOFTDOCA_DOCA_STA_STATS_H
#define SOFTDOCA_DOCA_STA_STATS_H

#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_sta_handle.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_sta;
enum dpa_sta_eu_type {
	DOCA_STA_EU_TYPE_UNKNOWN = 0,
	DOCA_STA_EU_COMP,
	DOCA_STA_EU_TX,
	DOCA_STA_EU_BEQ,
	DOCA_STA_EU_MAX,
};
struct doca_sta_eu_ctr_entry {
	const char *name;
	const uint64_t *val;
};
enum dpa_sta_eu_state {
	DOCA_STA_EU_STATE_IDLE, DOCA_STA_EU_STATE_STOPPING, DOCA_STA_EU_STATE_STARTED,
	DOCA_STA_EU_STATE_SUSPENDED, DOCA_STA_EU_STATE_STOPPED
};
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_stats(struct doca_sta_eu_handle *eu_handle, const struct doca_sta_eu_ctr_entry **entries, uint16_t *num_entries);
DOCA_EXPERIMENTAL doca_error_t doca_sta_eu_reset_stats_handle(struct doca_sta_eu_handle *eu_handle);
DOCA_EXPERIMENTAL doca_error_t doca_sta_eu_reset_stats_type(struct doca_sta *sta, enum dpa_sta_eu_type eu_type);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_connect_qp_stats(struct doca_sta_eu_handle *eu_handle, struct doca_sta_qp_handle **arr, uint16_t *arr_size);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_be_queue_stats(struct doca_sta_be_handle *be_handle, struct doca_sta_be_q_handle *be_q_handle, const struct doca_sta_eu_ctr_entry **entries, uint16_t *num_entries);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_ns_stats(struct doca_sta_subs_handle *subs_handle, struct doca_sta_ns_handle *ns_handle, const struct doca_sta_eu_ctr_entry **entries, uint16_t *num_entries);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_handle(const struct doca_sta *sta, struct doca_sta_eu_handle **eu_handle_arr, uint32_t *arr_size);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_name(const struct doca_sta_eu_handle *eu_handle, const char **name);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_type(const struct doca_sta_eu_handle *eu_handle, enum dpa_sta_eu_type *type);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_id(const struct doca_sta_eu_handle *eu_handle, uint16_t *eu_id);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_port(const struct doca_sta_eu_handle *eu_handle, uint16_t *port);
DOCA_EXPERIMENTAL doca_error_t doca_sta_get_eu_state(struct doca_sta_eu_handle *eu_handle, enum dpa_sta_eu_state *state);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_STA_STATS_H */
