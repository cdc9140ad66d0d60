/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_telemetry_exporter_netflow.h — DOCA Telemetry Exporter NetFlow, declarations from
 * the DOCA 3.0 interface facts. softdoca ships the declarations; the library is a stub (every call
 * returns DOCA_ERROR_NOT_SUPPORTED, docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_TELEMETRY_EXPORTER_NETFLOW_H
#define SOFTDOCA_DOCA_TELEMETRY_EXPORTER_NETFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "doca_telemetry_exporter_netflow_types.h"
#include "doca_telemetry_exporter.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DOCA_NETFLOW_APP_ID \
	{ \
		0x99, 0x10, 0xc1, 0x28, 0x39, 0x61, 0x47, 0xe6, 0xbe, 0x6c, 0x71, 0x5a, 0x0f, 0x03, 0xad, 0xd6 \
	}

#define DOCA_NETFLOW_DEFAULT_PORT 2055

struct doca_telemetry_exporter_netflow_flowset_field;
struct doca_telemetry_exporter_netflow_template;

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_init(uint16_t source_id);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_collector_addr(const char *collector_addr);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_collector_port(uint16_t collector_port);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_max_packet_size(uint16_t max_packet_size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_field_create(struct doca_telemetry_exporter_netflow_flowset_field **field);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_field_set_type(struct doca_telemetry_exporter_netflow_flowset_field *field, uint16_t type);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_field_set_len(struct doca_telemetry_exporter_netflow_flowset_field *field, uint16_t length);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_field_destroy(struct doca_telemetry_exporter_netflow_flowset_field *field);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_buf_size(uint64_t size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_get_buf_size(uint64_t *size);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_buf_data_root(const char *path);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_get_buf_data_root(const char **path);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_template_create(struct doca_telemetry_exporter_netflow_template **netflow_template);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_template_add_field(struct doca_telemetry_exporter_netflow_template *netflow_template, struct doca_telemetry_exporter_netflow_flowset_field *field);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_template_destroy(struct doca_telemetry_exporter_netflow_template *netflow_template);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_file_write_enabled(void);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_file_write_max_size(size_t size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_get_file_write_max_size(size_t *size);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_file_write_max_age(doca_telemetry_exporter_timestamp_t max_age);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_get_file_write_max_age(doca_telemetry_exporter_timestamp_t *max_age);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_ipc_enabled(void);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_set_ipc_sockets_dir(const char *path);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_get_ipc_sockets_dir(const char **path);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_source_set_id(const char *source_id);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_netflow_source_set_tag(const char *source_tag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_start(void);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_send(const struct doca_telemetry_exporter_netflow_template *netflow_template, const void **records, size_t nof_records, size_t *nof_records_sent);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_flush(void);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_netflow_destroy(void);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_TELEMETRY_EXPORTER_NETFLOW_H */
