/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_flow_ct.h — DOCA Flow connection tracking, declarations from the DOCA 3.0
 * interface facts, updated to DOCA 3.3 where NVIDIA's 3.3 CT samples need it (struct
 * doca_flow_ct_meta, the iterator, doca_flow_ct_get_entry's hashes). softdoca ships the declarations; the library is a stub (every call returns
 * DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_FLOW_CT_H
#define SOFTDOCA_DOCA_FLOW_CT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doca_compat.h"
#include "doca_dev.h"
#include "doca_error.h"
#include "doca_flow.h"
#include "doca_flow_net.h"
#include "doca_bitfield.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOCA_FLOW_CT_ACTION_HANDLE_INVALID (UINT32_MAX)

#define DOCA_FLOW_CT_MARK_FROM_DPDK(_mark) (DOCA_BETOH32((_mark) + 1) >> 8)

enum doca_flow_ct_flags {
	DOCA_FLOW_CT_FLAG_STATS = 1u << 0,
	DOCA_FLOW_CT_FLAG_WORKER_STATS = 1u << 1,
	DOCA_FLOW_CT_FLAG_NO_AGING = 1u << 2,
	DOCA_FLOW_CT_FLAG_ASYMMETRIC_TUNNEL = 1u << 3,
	DOCA_FLOW_CT_FLAG_NO_COUNTER = 1u << 4,
	DOCA_FLOW_CT_FLAG_WIRE_TO_WIRE = 1u << 5, /* DOCA 3.0; 3.3 gives the bit to ITERATOR */
	DOCA_FLOW_CT_FLAG_ITERATOR = 1u << 5,
	DOCA_FLOW_CT_FLAG_DUP_FILTER_UDP_ONLY = 1u << 6,
	DOCA_FLOW_CT_FLAG_ORIGIN_WIRE = 1u << 7,
	DOCA_FLOW_CT_FLAG_REPLY_WIRE = 1u << 8,
};

/* DOCA 3.3: flow metadata plus a write-only mark (CT modify masks and actions). */
struct doca_flow_ct_meta {
	struct doca_flow_meta flow;
	doca_be32_t mark;
};

typedef void (*doca_flow_ct_entry_finalize_cb)(struct doca_flow_pipe *pipe, void *entry, uint16_t queue, void *usr_ctx);

typedef void (*doca_flow_ct_stats_update_cb)(struct doca_flow_pipe *pipe, void *priv_data, struct doca_flow_resource_query *stats_origin, struct doca_flow_resource_query *stats_reply);

struct doca_flow_ct_aging_ctx {
	uint32_t n_total_conns;
	uint32_t n_total_counters;
	void *user_ctx;
};

union doca_flow_ct_aging_conn {
	uint32_t v;
	struct {
		uint32_t valid : 1;
		uint32_t ctr_origin : 1;
		uint32_t ctr_reply : 1;
		uint32_t ctr_shared : 1;
		uint32_t is_tcp : 1;
		uint32_t conn_version : 11;
		uint32_t timeout : 16;
	};
};

struct doca_flow_ct_aging_conn_event {
	enum doca_flow_entry_op op;
	uint32_t aging_conn_id;
	union doca_flow_ct_aging_conn conn;
};

struct doca_flow_ct_aging_ops {
	doca_error_t (*aging_init_cb)(struct doca_flow_ct_aging_ctx *ctx);
	void (*aging_shutdown_cb)(struct doca_flow_ct_aging_ctx *ctx);
	void (*conn_sync_cb)(struct doca_flow_ct_aging_ctx *ctx, struct doca_flow_ct_aging_conn_event *conn, uint32_t n);
	void (*aging_timer_cb)(struct doca_flow_ct_aging_ctx *ctx, uint64_t current_time_s);
};

struct doca_flow_ct_cfg;

DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_create(struct doca_flow_ct_cfg **cfg);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_destroy(struct doca_flow_ct_cfg *cfg);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_flags(struct doca_flow_ct_cfg *cfg, uint32_t flags);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_queues(struct doca_flow_ct_cfg *cfg, uint32_t n_queues);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_queue_depth(struct doca_flow_ct_cfg *cfg, uint32_t queue_depth);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_ctrl_queues(struct doca_flow_ct_cfg *cfg, uint32_t n_ctrl_queues);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_user_actions(struct doca_flow_ct_cfg *cfg, uint32_t n_user_actions);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_connections(struct doca_flow_ct_cfg *cfg, uint32_t n_ipv4, uint32_t n_ipv6, uint32_t n_total);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_max_connections_per_zone(struct doca_flow_ct_cfg *cfg, uint32_t max_connections_per_zone);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_counter_asymmetric(struct doca_flow_ct_cfg *cfg, uint32_t n_counter_asymmetric);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_entry_private_data_size(struct doca_flow_ct_cfg *cfg, uint32_t entry_priv_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_entry_finalize_cb(struct doca_flow_ct_cfg *cfg, doca_flow_ct_entry_finalize_cb entry_finalize_cb);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_status_update_cb(struct doca_flow_ct_cfg *cfg, doca_flow_ct_stats_update_cb stats_update_cb);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_aging_core(struct doca_flow_ct_cfg *cfg, uint32_t aging_core);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_aging_query_delay(struct doca_flow_ct_cfg *cfg, uint32_t aging_query_delay_s);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_aging_plugin_ops(struct doca_flow_ct_cfg *cfg, struct doca_flow_ct_aging_ops *aging_ops);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_dup_filter_size(struct doca_flow_ct_cfg *cfg, uint32_t dup_filter_sz);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cfg_set_direction(struct doca_flow_ct_cfg *cfg, bool direction, bool match_inner, struct doca_flow_meta *zone_match_mask, struct doca_flow_ct_meta *meta_modify_mask);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_init(const struct doca_flow_ct_cfg *cfg);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_cap_is_dev_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL void doca_flow_ct_destroy(void);
DOCA_EXPERIMENTAL void doca_flow_ct_meta_prepare(struct doca_flow_meta *meta, uint32_t zone, bool is_reply);
DOCA_EXPERIMENTAL void doca_flow_ct_meta_mask_prepare(struct doca_flow_meta *meta, bool is_reply);
DOCA_EXPERIMENTAL void doca_flow_ct_meta_set_match_zone(struct doca_flow_meta *meta, uint32_t zone, bool is_reply);
DOCA_EXPERIMENTAL uint32_t doca_flow_ct_meta_get_zone_offset(bool is_reply);

struct doca_flow_ct_aging_counter_state {
	uint32_t ctr_id;
	bool inuse;
};

DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_aging_counter_state_get(struct doca_flow_ct_aging_ctx *ctx, struct doca_flow_ct_aging_counter_state *ctrs, uint32_t n);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_aging_counter_state_set(struct doca_flow_ct_aging_ctx *ctx, struct doca_flow_ct_aging_counter_state *ctrs, uint32_t n);

struct doca_flow_ct_aging_counter {
	uint32_t ctr_id;
	uint16_t last_hit_s;
	uint64_t total_bytes;
	uint64_t total_pkts;
};

DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_aging_counter_query(struct doca_flow_ct_aging_ctx *ctx, struct doca_flow_ct_aging_counter *ctrs, uint32_t n);

struct doca_flow_ct_aging_conn_update_info {
	uint32_t aging_conn_id;
	union doca_flow_ct_aging_conn conn_info;
	uint32_t ctr_origin_id;
	uint32_t ctr_reply_id;
};

DOCA_EXPERIMENTAL void doca_flow_ct_aging_conn_update(struct doca_flow_ct_aging_ctx *ctx, struct doca_flow_ct_aging_conn_update_info *info, uint32_t n);
DOCA_EXPERIMENTAL void doca_flow_ct_aging_conn_timeout(struct doca_flow_ct_aging_ctx *ctx, uint32_t *aging_conn_ids, uint32_t n);

struct doca_flow_ct_actions {
	enum doca_flow_resource_type resource_type;
	union {
		uint32_t action_handle;
		struct {
			uint8_t action_idx;
			struct doca_flow_ct_meta meta;
			struct doca_flow_header_l4_port l4_port;
			union {
				struct doca_flow_ct_ip4 ip4;
				struct doca_flow_ct_ip6 ip6;
			};
		} data;
	};
};

struct doca_flow_ct_match4 {
	struct doca_flow_header_l4_port l4_port;
	doca_be32_t src_ip;
	doca_be32_t dst_ip;
	doca_be32_t metadata;
	uint8_t next_proto;
};

struct doca_flow_ct_match6 {
	struct doca_flow_header_l4_port l4_port;
	doca_be32_t src_ip[4];
	doca_be32_t dst_ip[4];
	doca_be32_t metadata;
	uint8_t next_proto;
};

struct doca_flow_ct_match {
	union {
		struct doca_flow_ct_match4 ipv4;
		struct doca_flow_ct_match6 ipv6;
	};
};

enum doca_flow_ct_entry_flags {
	DOCA_FLOW_CT_ENTRY_FLAGS_NO_WAIT = (1 << 0),
	DOCA_FLOW_CT_ENTRY_FLAGS_DIR_ORIGIN = (1 << 1),
	DOCA_FLOW_CT_ENTRY_FLAGS_DIR_REPLY = (1 << 2),
	DOCA_FLOW_CT_ENTRY_FLAGS_IPV6_ORIGIN = (1 << 3),
	DOCA_FLOW_CT_ENTRY_FLAGS_IPV6_REPLY = (1 << 4),
	DOCA_FLOW_CT_ENTRY_FLAGS_COUNTER_ORIGIN = (1 << 5),
	DOCA_FLOW_CT_ENTRY_FLAGS_COUNTER_REPLY = (1 << 6),
	DOCA_FLOW_CT_ENTRY_FLAGS_COUNTER_SHARED = (1 << 7),
	DOCA_FLOW_CT_ENTRY_FLAGS_ENTRY_FINALIZE = (1 << 8),
	DOCA_FLOW_CT_ENTRY_FLAGS_ALLOC_ON_MISS = (1 << 9),
	DOCA_FLOW_CT_ENTRY_FLAGS_DUP_FILTER_ORIGIN = 1u << 10,
	DOCA_FLOW_CT_ENTRY_FLAGS_DUP_FILTER_REPLY = 1u << 11,
	DOCA_FLOW_CT_ENTRY_FLAGS_STATS_UPDATES = 1u << 12,
};

DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_entries_process(struct doca_flow_port *port, uint16_t pipe_queue, uint32_t min_room, uint32_t max_processed_entries, uint32_t *queue_room);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_entry_prepare(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t flags, struct doca_flow_ct_match *match_origin, uint32_t hash_origin, struct doca_flow_ct_match *match_reply, uint32_t hash_reply, struct doca_flow_pipe_entry **entry, bool *conn_found);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_entry_prepare_rollback(uint16_t queue, struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *entry);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_add_entry(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t flags, struct doca_flow_ct_match *match_origin, struct doca_flow_ct_match *match_reply, const struct doca_flow_ct_actions *actions_origin, const struct doca_flow_ct_actions *actions_reply, uint32_t fwd_handle_origin, uint32_t fwd_handle_reply, uint32_t timeout_s, void *usr_ctx, struct doca_flow_pipe_entry *entry);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_entry_add_dir(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t flags, struct doca_flow_ct_match *match, const struct doca_flow_ct_actions *actions, uint32_t fwd_handle, struct doca_flow_pipe_entry *entry);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_update_entry(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t flags, struct doca_flow_pipe_entry *entry, const struct doca_flow_ct_actions *actions_origin, const struct doca_flow_ct_actions *actions_reply, uint32_t fwd_handle_origin, uint32_t fwd_handle_reply, uint32_t timeout_s);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_rm_entry(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t flags, struct doca_flow_pipe_entry *entry);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_get_entry(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t flags, struct doca_flow_pipe_entry *entry, struct doca_flow_ct_match *match_origin, struct doca_flow_ct_match *match_reply, uint64_t *entry_flags, uint32_t *hash_origin, uint32_t *hash_reply);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_query_entry(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t flags, struct doca_flow_pipe_entry *entry, struct doca_flow_resource_query *stats_origin, struct doca_flow_resource_query *stats_reply, uint64_t *last_hit_s);
DOCA_EXPERIMENTAL void *doca_flow_ct_entry_get_priv_data(uint16_t queue, struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *entry);
DOCA_EXPERIMENTAL uint32_t doca_flow_ct_entry_get_conn_id(uint16_t queue, struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *entry);
DOCA_EXPERIMENTAL uint32_t doca_flow_ct_entry_get_aging_conn_id(uint16_t queue, struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *entry);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_entry_get_by_id(uint16_t queue, struct doca_flow_pipe *pipe, uint32_t conn_id, struct doca_flow_pipe_entry **entry, void **priv_data);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_actions_add_shared(uint16_t ctrl_queue, struct doca_flow_pipe *pipe, const struct doca_flow_ct_actions actions[], uint32_t nb_actions, uint32_t actions_handles[]);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_actions_update_shared(uint16_t ctrl_queue, struct doca_flow_pipe *pipe, const struct doca_flow_ct_actions actions[], uint32_t nb_actions, uint32_t actions_handles[]);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_actions_rm_shared(uint16_t ctrl_queue, struct doca_flow_pipe *pipe, uint32_t actions_handles[], uint32_t nb_actions);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_fwd_register(struct doca_flow_port *port, uint32_t fwd_count, struct doca_flow_fwd fwd[], uint32_t fwd_handle[]);

/* DOCA 3.3: iterate a CT pipe's entries (needs DOCA_FLOW_CT_FLAG_ITERATOR). */
typedef void (*doca_flow_ct_pipe_iterate_cb)(uint16_t pipe_queue, struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *entry, void *iterate_usr_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_flow_ct_pipe_iterate(struct doca_flow_pipe *pipe, doca_flow_ct_pipe_iterate_cb iterate_cb, void *iterate_usr_ctx);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_FLOW_CT_H */
