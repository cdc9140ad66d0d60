/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_graph.h, written from the DOCA 3.0 interface facts.
 *
 * A graph runs an ordered set of context tasks, user callbacks and sub graphs through one
 * progress engine. Build it (nodes, dependencies), start it, create instances, give every node
 * of an instance its data (a task, a cookie, a sub-graph instance), then submit the instance:
 * its root nodes run first, a node runs once every node it depends on has completed, and the
 * graph's completion (or error) callback reports the instance from doca_pe_progress. The
 * tasks' own completion callbacks are not invoked for tasks run by a graph.
 */
#ifndef SOFTDOCA_DOCA_GRAPH_H
#define SOFTDOCA_DOCA_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_ctx;
struct doca_pe;
struct doca_task;
struct doca_graph;
struct doca_graph_node;
struct doca_graph_instance;

/* Reports a graph instance that completed (or failed) with both user data. */
typedef void (*doca_graph_completion_cb_t)(struct doca_graph_instance *instance, union doca_data instance_user_data,
					   union doca_data graph_user_data);

/* A user node's work; cookie is the node data of the instance. Its result is the node's. */
typedef doca_error_t (*doca_graph_user_node_cb_t)(void *cookie);

/* functions */
DOCA_EXPERIMENTAL doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph);
DOCA_EXPERIMENTAL doca_error_t doca_graph_destroy(struct doca_graph *graph);
DOCA_EXPERIMENTAL doca_error_t doca_graph_set_conf(struct doca_graph *graph, doca_graph_completion_cb_t graph_completion_cb,
						   doca_graph_completion_cb_t graph_error_cb, uint32_t num_instances);
DOCA_EXPERIMENTAL doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data);
DOCA_EXPERIMENTAL doca_error_t doca_graph_get_user_data(const struct doca_graph *graph, union doca_data *user_data);
DOCA_EXPERIMENTAL doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph, const struct doca_ctx *ctx,
							       struct doca_graph_node **node);
DOCA_EXPERIMENTAL doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph, doca_graph_user_node_cb_t cb,
								struct doca_graph_node **node);
DOCA_EXPERIMENTAL doca_error_t doca_graph_node_create_from_graph(struct doca_graph *graph, struct doca_graph *sub_graph,
								 struct doca_graph_node **node);
DOCA_EXPERIMENTAL doca_error_t doca_graph_add_dependency(struct doca_graph *graph, struct doca_graph_node *from,
							 struct doca_graph_node *to);
DOCA_EXPERIMENTAL doca_error_t doca_graph_start(struct doca_graph *graph);
DOCA_EXPERIMENTAL doca_error_t doca_graph_stop(struct doca_graph *graph);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_create(const struct doca_graph *graph,
							  struct doca_graph_instance **graph_instance);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance,
								 union doca_data user_data);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_get_user_data(const struct doca_graph_instance *graph_instance,
								 union doca_data *user_data);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
								     struct doca_graph_node *node, struct doca_task *task);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
								      struct doca_graph_node *node, void *cookie);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_set_sub_graph_node_data(struct doca_graph_instance *graph_instance,
									   struct doca_graph_node *node,
									   struct doca_graph_instance *sub_graph_instance);
DOCA_EXPERIMENTAL doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_GRAPH_H */
