/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_flow_custom_header_graph.h — DOCA Flow custom header parse graph (pkg-config
 * doca-flow, DOCA 3.3), declarations from the DOCA 3.3 interface facts: arcs from a known header
 * (or a custom one) to a custom header, and the graph's binding to devices. DOCA Flow is a stub
 * library (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_FLOW_CUSTOM_HEADER_GRAPH_H
#define SOFTDOCA_DOCA_FLOW_CUSTOM_HEADER_GRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_dev;
struct doca_flow_custom_header;
struct doca_flow_custom_header_graph;
struct doca_flow_custom_header_graph_arc;

/* the nodes an arc can start or end at; FLEX is a custom header */
enum doca_flow_custom_header_graph_node_type {
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_MAC = 5,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_IP = 10,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_IPV4 = 11,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_IPV6 = 12,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_GRE = 15,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_UDP = 20,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_MPLS = 25,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_TCP = 30,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_VXLAN_GPE = 35,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_GENEVE = 40,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_IPSEC_ESP = 45,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_PSP = 50,
	DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_FLEX = 55,
};

DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_create(struct doca_flow_custom_header_graph **graph);
/* a bound graph cannot change; one graph may be bound to several devices */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_bind(struct doca_flow_custom_header_graph *graph, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_unbind(struct doca_flow_custom_header_graph *graph);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_destroy(struct doca_flow_custom_header_graph *graph);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_arc_create(struct doca_flow_custom_header_graph *graph, struct doca_flow_custom_header_graph_arc **arc);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_arc_destroy(struct doca_flow_custom_header_graph_arc *arc);
/* field_data: the source header's next-protocol value that leads to the custom header */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_arc_set_src(struct doca_flow_custom_header_graph_arc *arc, enum doca_flow_custom_header_graph_node_type node_type, uint32_t field_data, struct doca_flow_custom_header *custom_header);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_arc_set_dst(struct doca_flow_custom_header_graph_arc *arc, enum doca_flow_custom_header_graph_node_type node_type, struct doca_flow_custom_header *custom_header);
/* start_tunnel: the headers after the source are inner ones */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_graph_arc_set_transition(struct doca_flow_custom_header_graph_arc *arc, bool start_tunnel);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_FLOW_CUSTOM_HEADER_GRAPH_H */
