/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_rmax.h — DOCA Rivermax (pkg-config doca-rmax), declarations from the DOCA 2.x
 * interface facts plus the DOCA 3.3 calls NVIDIA's 3.3 samples make (prototypes [inferred] from
 * those calls, marked below). Rivermax receives media streams into memory with the NIC's packet
 * pacing and placement engines and needs NVIDIA's Rivermax library and licence; the soft card has
 * neither, so the library is a stub: every call returns DOCA_ERROR_NOT_SUPPORTED, NULL or nothing
 * (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_RMAX_H
#define SOFTDOCA_DOCA_RMAX_H

#include <inttypes.h>
#include <netinet/ip.h>
#include <stddef.h>
#include <stdint.h>

#include "doca_buf.h"
#include "doca_compat.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_rmax_in_stream;
struct doca_rmax_flow;
/* DOCA 3.3: the CPU set of Rivermax's internal thread is an object ([inferred]) */
struct doca_rmax_cpu_affinity;

/* what the stream expects to receive */
enum doca_rmax_in_stream_type {
	DOCA_RMAX_IN_STREAM_TYPE_GENERIC = 0,
	DOCA_RMAX_IN_STREAM_TYPE_RTP_2110,
};

/* how a packet's arrival time is written */
enum doca_rmax_in_stream_ts_fmt_type {
	DOCA_RMAX_IN_STREAM_TS_FMT_TYPE_RAW_COUNTER = 0,
	DOCA_RMAX_IN_STREAM_TS_FMT_TYPE_RAW_NANO,
	DOCA_RMAX_IN_STREAM_TS_FMT_TYPE_SYNCED,
};

/* what of a packet is stored: all of it, from the upper-layer protocol on, or its payload */
enum doca_rmax_in_stream_scatter_type {
	DOCA_RMAX_IN_STREAM_SCATTER_TYPE_RAW = 0,
	DOCA_RMAX_IN_STREAM_SCATTER_TYPE_ULP,
	DOCA_RMAX_IN_STREAM_SCATTER_TYPE_PAYLOAD,
};

/*
 * What an Rx data event reports (DOCA 3.3's name; DOCA 2.x called it
 * doca_rmax_in_stream_completion, with the same members). memblk_ptr_arr holds one pointer per
 * memory block (two with header-data split); packets follow each other at the block's stride.
 */
struct doca_rmax_in_stream_result {
	uint32_t elements_count;
	uint64_t ts_first;
	uint64_t ts_last;
	uint32_t seqn_first;
	uint32_t memblk_ptr_arr_len;
	void **memblk_ptr_arr;
};

/* the error of an Rx data event: Rivermax's code and text */
struct doca_rmax_stream_error {
	int code;
	const char *message;
};

/* global (one per process) */
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_cpu_affinity_create(struct doca_rmax_cpu_affinity **affinity);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_cpu_affinity_destroy(struct doca_rmax_cpu_affinity *affinity);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_cpu_affinity_set(struct doca_rmax_cpu_affinity *affinity, unsigned int cpu);
/* before doca_rmax_init (3.3 shape [inferred]: 2.x took a bit-mask structure) */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_set_cpu_affinity_mask(const struct doca_rmax_cpu_affinity *affinity);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_init(void);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_release(void);
DOCA_EXPERIMENTAL void doca_rmax_interrupt(void);
/* device probes: DOCA_SUCCESS when supported */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_get_ptp_clock_supported(const struct doca_devinfo *devinfo);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_get_packet_placement_order_rtp_seqn_supported(const struct doca_devinfo *devinfo);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_get_packet_placement_order_st2110_20_seqn_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_set_clock(struct doca_dev *dev);

/* input stream: a DOCA context */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_create(struct doca_dev *dev, struct doca_rmax_in_stream **stream);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_destroy(struct doca_rmax_in_stream *stream);
DOCA_EXPERIMENTAL struct doca_ctx *doca_rmax_in_stream_as_ctx(struct doca_rmax_in_stream *stream);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_type(const struct doca_rmax_in_stream *stream, enum doca_rmax_in_stream_type *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_scatter_type(const struct doca_rmax_in_stream *stream, enum doca_rmax_in_stream_scatter_type *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_timestamp_format(const struct doca_rmax_in_stream *stream, enum doca_rmax_in_stream_ts_fmt_type *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_elements_count(const struct doca_rmax_in_stream *stream, uint32_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_memblks_count(const struct doca_rmax_in_stream *stream, uint32_t *value);
/* per memory block arrays (one element per block) */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_memblk_desc_get_min_size(const struct doca_rmax_in_stream *stream, uint16_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_memblk_desc_get_max_size(const struct doca_rmax_in_stream *stream, uint16_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_memblk_size(const struct doca_rmax_in_stream *stream, size_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_memblk_stride_size(const struct doca_rmax_in_stream *stream, uint16_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_min_packets(const struct doca_rmax_in_stream *stream, uint32_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_max_packets(const struct doca_rmax_in_stream *stream, uint32_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_get_timeout_us(const struct doca_rmax_in_stream *stream, int *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_type(struct doca_rmax_in_stream *stream, enum doca_rmax_in_stream_type value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_scatter_type(struct doca_rmax_in_stream *stream, enum doca_rmax_in_stream_scatter_type value);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_scatter_type_raw(struct doca_rmax_in_stream *stream);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_scatter_type_ulp(struct doca_rmax_in_stream *stream);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_packet_placement_order_rtp_seqn(struct doca_rmax_in_stream *stream);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_timestamp_format(struct doca_rmax_in_stream *stream, enum doca_rmax_in_stream_ts_fmt_type value);
/* 3.3 [inferred] from stream_receive_perf: one setter per timestamp format */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_timestamp_format_raw_counter(struct doca_rmax_in_stream *stream);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_timestamp_format_free_running(struct doca_rmax_in_stream *stream);
/* 3.3 [inferred] */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_timestamp_format_ptp_synced(struct doca_rmax_in_stream *stream);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_elements_count(struct doca_rmax_in_stream *stream, uint32_t value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_memblks_count(struct doca_rmax_in_stream *stream, uint32_t value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_memblk_desc_set_min_size(struct doca_rmax_in_stream *stream, const uint16_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_memblk_desc_set_max_size(struct doca_rmax_in_stream *stream, const uint16_t *value);
/* buf: the first of a list of one buffer per memory block */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_memblk(struct doca_rmax_in_stream *stream, struct doca_buf *buf);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_min_packets(struct doca_rmax_in_stream *stream, uint32_t value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_max_packets(struct doca_rmax_in_stream *stream, uint32_t value);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_set_timeout_us(struct doca_rmax_in_stream *stream, int value);

/* Rx data event: one per batch of received packets, reported by doca_pe_progress */
struct doca_rmax_in_stream_event_rx_data;
typedef void (*doca_rmax_in_stream_event_rx_data_handler_cb_t)(struct doca_rmax_in_stream_event_rx_data *event_rx_data, union doca_data event_user_data);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_in_stream_event_rx_data_register(struct doca_rmax_in_stream *stream, union doca_data user_data, doca_rmax_in_stream_event_rx_data_handler_cb_t success_handler, doca_rmax_in_stream_event_rx_data_handler_cb_t error_handler);
/* 3.3 name [inferred] */
DOCA_EXPERIMENTAL struct doca_rmax_in_stream_result *doca_rmax_in_stream_event_rx_data_get_result(const struct doca_rmax_in_stream_event_rx_data *rx_event);
DOCA_EXPERIMENTAL struct doca_rmax_stream_error *doca_rmax_in_stream_event_rx_data_get_error(const struct doca_rmax_in_stream_event_rx_data *rx_event);

/* flow: the IP / port tuple a stream receives */
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_create(struct doca_rmax_flow **flow);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_destroy(struct doca_rmax_flow *flow);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_attach(const struct doca_rmax_flow *flow, const struct doca_rmax_in_stream *stream);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_detach(const struct doca_rmax_flow *flow, const struct doca_rmax_in_stream *stream);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_set_src_ip(struct doca_rmax_flow *flow, const struct in_addr *ip);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_set_dst_ip(struct doca_rmax_flow *flow, const struct in_addr *ip);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_set_src_port(struct doca_rmax_flow *flow, uint16_t port);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_set_dst_port(struct doca_rmax_flow *flow, uint16_t port);
DOCA_EXPERIMENTAL doca_error_t doca_rmax_flow_set_tag(struct doca_rmax_flow *flow, uint32_t tag);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_RMAX_H */
