/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_flow_custom_header.h — DOCA Flow custom headers (pkg-config doca-flow, DOCA
 * 3.3), declarations from the DOCA 3.3 interface facts: how the NIC's flexible parser finds a
 * protocol header of the program's own (its length, next-header and TLV option fields, all in
 * bits) and the samplers that capture its fields for matching and modifying. DOCA Flow is a
 * stub library (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_FLOW_CUSTOM_HEADER_H
#define SOFTDOCA_DOCA_FLOW_CUSTOM_HEADER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_flow_custom_header;
struct doca_flow_custom_header_sampler;

/* which occurrence of the header a sampler captures */
enum doca_flow_custom_header_sampler_tunnel_mode {
	DOCA_FLOW_CUSTOM_HEADER_SAMPLER_TUNNEL_MODE_OUTER,
	DOCA_FLOW_CUSTOM_HEADER_SAMPLER_TUNNEL_MODE_INNER,
	DOCA_FLOW_CUSTOM_HEADER_SAMPLER_TUNNEL_MODE_FIRST,
};

DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_create(struct doca_flow_custom_header **custom_header);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_destroy(struct doca_flow_custom_header *custom_header);
/* the setters below may not be called once the header is used by an arc */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_next_hdr_set_offset(struct doca_flow_custom_header *custom_header, uint32_t bit_offset);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_next_hdr_set_length(struct doca_flow_custom_header *custom_header, uint32_t bit_length);
/* fixed length (multiple of 32 bits), added to the length field's value when there is one */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_length_field_set_fixed_length(struct doca_flow_custom_header *custom_header, uint32_t fixed_length);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_length_field_set_offset(struct doca_flow_custom_header *custom_header, uint32_t bit_offset);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_length_field_set_length(struct doca_flow_custom_header *custom_header, uint32_t bit_length);
/* multiplier: a power of 2 */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_length_field_set_multiplier(struct doca_flow_custom_header *custom_header, uint32_t multiplier);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_tlv_options_set_fixed_length(struct doca_flow_custom_header *custom_header, uint32_t fixed_length);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_tlv_options_set_offset(struct doca_flow_custom_header *custom_header, uint32_t bit_offset);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_tlv_options_type_set_offset(struct doca_flow_custom_header *custom_header, uint32_t bit_offset);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_tlv_options_type_set_length(struct doca_flow_custom_header *custom_header, uint32_t bit_length);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_tlv_options_length_set_offset(struct doca_flow_custom_header *custom_header, uint32_t bit_offset);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_tlv_options_length_set_length(struct doca_flow_custom_header *custom_header, uint32_t bit_length);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_tlv_options_length_set_multiplier(struct doca_flow_custom_header *custom_header, uint32_t multiplier);
/* samplers */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_create(struct doca_flow_custom_header *custom_header, struct doca_flow_custom_header_sampler **sampler);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_destroy(struct doca_flow_custom_header_sampler *sampler);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_set_offset(struct doca_flow_custom_header_sampler *sampler, uint32_t bit_offset);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_set_length(struct doca_flow_custom_header_sampler *sampler, uint32_t bit_length);
/* capture the TLV option of this type */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_enable_is_options(struct doca_flow_custom_header_sampler *sampler, uint32_t option_type);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_set_tunnel_mode(struct doca_flow_custom_header_sampler *sampler, enum doca_flow_custom_header_sampler_tunnel_mode tunnel_mode);
/* the opcode strings to match on / modify the captured data and to match its valid bit */
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_get_match_definition(struct doca_flow_custom_header_sampler *sampler, const char **opcode_str);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_get_action_definition(struct doca_flow_custom_header_sampler *sampler, const char **opcode_str);
DOCA_EXPERIMENTAL doca_error_t doca_flow_custom_header_sampler_get_valid_bit_definition(struct doca_flow_custom_header_sampler *sampler, const char **opcode_str);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_FLOW_CUSTOM_HEADER_H */
