/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_telemetry_exporter.h — DOCA Telemetry Exporter, declarations from the DOCA 3.0
 * interface facts, plus DOCA 3.x's Metrics and OTLP logs calls (their names and their
 * experimental status are documented; their parameter and id types are inferred from the
 * programs that call them, see docs/compatibility.md "Stub libraries"). softdoca ships the
 * declarations; the library is a stub (every call returns DOCA_ERROR_NOT_SUPPORTED).
 */
#ifndef SOFTDOCA_DOCA_TELEMETRY_EXPORTER_H
#define SOFTDOCA_DOCA_TELEMETRY_EXPORTER_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum doca_telemetry_exporter_ipc_status {
	DOCA_TELEMETRY_EXPORTER_IPC_STATUS_FAILED = -1,
	DOCA_TELEMETRY_EXPORTER_IPC_STATUS_CONNECTED,
	DOCA_TELEMETRY_EXPORTER_IPC_STATUS_DISABLED,
} doca_telemetry_exporter_ipc_status_t;

struct doca_telemetry_exporter_schema;
struct doca_telemetry_exporter_source;

typedef uint8_t doca_telemetry_exporter_type_index_t;

typedef uint64_t doca_telemetry_exporter_timestamp_t;

struct doca_telemetry_exporter_field;
struct doca_telemetry_exporter_type;

#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_BOOL "bool"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_CHAR "char"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_SHORT "short"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_INT "int"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_LONG "long"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_LONGLONG "long long"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_UCHAR "unsigned char"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_USHORT "unsigned short"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_UINT "unsigned int"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_ULONG "unsigned long"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_ULONGLONG "unsigned long long"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_FLOAT "float"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_DOUBLE "double"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_INT8 "int8_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_INT16 "int16_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_INT32 "int32_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_INT64 "int64_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_UINT8 "uint8_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_UINT16 "uint16_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_UINT32 "uint32_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_UINT64 "uint64_t"
#define DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_TIMESTAMP DOCA_TELEMETRY_EXPORTER_FIELD_TYPE_UINT64

#define DOCA_GUID_SIZE 16
typedef uint8_t doca_guid_t[DOCA_GUID_SIZE];

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_init(const char *schema_name, struct doca_telemetry_exporter_schema **doca_schema);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_buf_size(struct doca_telemetry_exporter_schema *doca_schema, uint64_t size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_buf_size(struct doca_telemetry_exporter_schema *doca_schema, uint64_t *size);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_buf_data_root(struct doca_telemetry_exporter_schema *doca_schema, const char *path);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_buf_data_root(struct doca_telemetry_exporter_schema *doca_schema, const char **path);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_file_write_enabled(struct doca_telemetry_exporter_schema *doca_schema);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_file_write_max_size(struct doca_telemetry_exporter_schema *doca_schema, size_t size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_file_write_max_size(struct doca_telemetry_exporter_schema *doca_schema, size_t *size);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_file_write_max_age(struct doca_telemetry_exporter_schema *doca_schema, doca_telemetry_exporter_timestamp_t max_age);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_file_write_max_age(struct doca_telemetry_exporter_schema *doca_schema, doca_telemetry_exporter_timestamp_t *max_age);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_ipc_enabled(struct doca_telemetry_exporter_schema *doca_schema);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_ipc_sockets_dir(struct doca_telemetry_exporter_schema *doca_schema, const char *sockets_dir);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_ipc_sockets_dir(struct doca_telemetry_exporter_schema *doca_schema, const char **sockets_dir);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_ipc_reconnect_time(struct doca_telemetry_exporter_schema *doca_schema, uint32_t max_time);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_ipc_reconnect_time(struct doca_telemetry_exporter_schema *doca_schema, uint32_t *max_time);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_ipc_reconnect_tries(struct doca_telemetry_exporter_schema *doca_schema, uint8_t tries);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_ipc_reconnect_tries(struct doca_telemetry_exporter_schema *doca_schema, uint8_t *tries);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_ipc_socket_timeout(struct doca_telemetry_exporter_schema *doca_schema, uint32_t timeout);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_get_ipc_socket_timeout(struct doca_telemetry_exporter_schema *doca_schema, uint32_t *timeout);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_schema_set_opaque_events_enabled(struct doca_telemetry_exporter_schema *doca_schema);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_type_create(struct doca_telemetry_exporter_type **type);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_type_add_field(struct doca_telemetry_exporter_type *type, struct doca_telemetry_exporter_field *field);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_type_destroy(struct doca_telemetry_exporter_type *type);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_field_create(struct doca_telemetry_exporter_field **field);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_field_destroy(struct doca_telemetry_exporter_field *field);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_field_set_name(struct doca_telemetry_exporter_field *field_info, const char *name);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_field_set_description(struct doca_telemetry_exporter_field *field_info, const char *desc);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_field_set_type_name(struct doca_telemetry_exporter_field *field_info, const char *type);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_field_set_array_len(struct doca_telemetry_exporter_field *field_info, uint16_t len);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_add_type(struct doca_telemetry_exporter_schema *doca_schema, const char *new_type_name, struct doca_telemetry_exporter_type *type, doca_telemetry_exporter_type_index_t *type_index);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_destroy(struct doca_telemetry_exporter_schema *doca_schema);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_schema_start(struct doca_telemetry_exporter_schema *doca_schema);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_source_create(struct doca_telemetry_exporter_schema *doca_schema, struct doca_telemetry_exporter_source **doca_source);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_source_set_id(struct doca_telemetry_exporter_source *doca_source, const char *source_id);
DOCA_EXPERIMENTAL void doca_telemetry_exporter_source_set_tag(struct doca_telemetry_exporter_source *doca_source, const char *source_tag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_source_start(struct doca_telemetry_exporter_source *doca_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_source_report(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_type_index_t index, void *data, int count);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_source_opaque_report(struct doca_telemetry_exporter_source *doca_source, const doca_guid_t app_id, uint64_t user_defined1, uint64_t user_defined2, const void *data, uint32_t data_size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_source_get_opaque_report_max_data_size(struct doca_telemetry_exporter_source *doca_source, uint32_t *max_data_size);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_source_flush(struct doca_telemetry_exporter_source *doca_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_source_destroy(struct doca_telemetry_exporter_source *doca_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_get_timestamp(doca_telemetry_exporter_timestamp_t *timestamp);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_check_ipc_status(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_ipc_status_t *status);

/*
 * Metrics (DOCA 3.x): counters, gauges and histograms reported on a started source, after
 * doca_telemetry_exporter_metrics_create_context(). A label set (a list of label names) gives
 * the shape of the label values each report passes, in the same order.
 */
typedef size_t doca_telemetry_exporter_label_set_id_t;
typedef size_t doca_telemetry_exporter_base_histogram_id_t;
typedef size_t doca_telemetry_exporter_histogram_id_t;

/* What a histogram flush does with the histogram's timestamp (only this value is known). */
enum doca_telemetry_exporter_histogram_timestamp {
	DOCA_TELEMETRY_EXPORTER_HISTOGRAM_TIMESTAMP_UPDATE = 0,
};

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_create_context(struct doca_telemetry_exporter_source *doca_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_destroy_context(struct doca_telemetry_exporter_source *doca_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_set_flush_interval_ms(struct doca_telemetry_exporter_source *doca_source, uint64_t interval_ms);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_add_constant_label(struct doca_telemetry_exporter_source *doca_source, const char *label_name, const char *label_value);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_add_label_names(struct doca_telemetry_exporter_source *doca_source, const char **label_names, size_t nb_labels, doca_telemetry_exporter_label_set_id_t *label_set_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_add_counter(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_timestamp_t timestamp, const char *metric_name, uint64_t value, doca_telemetry_exporter_label_set_id_t label_set_id, const char **label_values);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_add_counter_increment(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_timestamp_t timestamp, const char *metric_name, uint64_t increment, doca_telemetry_exporter_label_set_id_t label_set_id, const char **label_values);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_add_gauge(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_timestamp_t timestamp, const char *metric_name, double value, doca_telemetry_exporter_label_set_id_t label_set_id, const char **label_values);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_add_gauge_uint64(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_timestamp_t timestamp, const char *metric_name, uint64_t value, doca_telemetry_exporter_label_set_id_t label_set_id, const char **label_values);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_add_base_histogram(struct doca_telemetry_exporter_source *doca_source, const char *histogram_name, const double *bucket_bounds, size_t nb_buckets, doca_telemetry_exporter_label_set_id_t label_set_id, uint64_t flush_interval_ms, doca_telemetry_exporter_base_histogram_id_t *base_histogram_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_base_histogram_observe(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_base_histogram_id_t base_histogram_id, const char **label_values, double value, doca_telemetry_exporter_histogram_id_t *histogram_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_histogram_flush(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_histogram_id_t histogram_id, enum doca_telemetry_exporter_histogram_timestamp timestamp_mode, bool flag);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_metrics_flush(struct doca_telemetry_exporter_source *doca_source);

/*
 * OTLP logs (DOCA 3.x): log records in OpenTelemetry's model, on a started source of a schema
 * with opaque events enabled. A resource (with its attributes) says who logs; a scope declares
 * an event's attribute keys and types; each event then gives one value per attribute.
 */
typedef size_t doca_telemetry_exporter_otlp_logs_resource_id_t;
typedef size_t doca_telemetry_exporter_otlp_logs_scope_id_t;

typedef enum doca_telemetry_exporter_otlp_attribute_type {
	DOCA_TELEMETRY_EXPORTER_OTLP_ATTRIBUTE_TYPE_STRING = 0,
	DOCA_TELEMETRY_EXPORTER_OTLP_ATTRIBUTE_TYPE_INT = 1,
} doca_telemetry_exporter_otlp_attribute_type_t;

/* One attribute value of an event; the scope's attribute type says which member is set. */
typedef union doca_telemetry_exporter_otlp_attribute_value {
	const char *string_value;
	int64_t int_value;
} doca_telemetry_exporter_otlp_attribute_value_t;

DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_create_context(struct doca_telemetry_exporter_source *doca_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_destroy_context(struct doca_telemetry_exporter_source *doca_source);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_add_resource(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_otlp_logs_resource_id_t *resource_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_add_resource_attribute_string(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_otlp_logs_resource_id_t resource_id, const char *key, const char *value);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_add_resource_attribute_int(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_otlp_logs_resource_id_t resource_id, const char *key, int64_t value);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_add_scope(struct doca_telemetry_exporter_source *doca_source, const char *scope_name, const char *scope_version, const char *event_name, const char *severity, const char **attribute_keys, const doca_telemetry_exporter_otlp_attribute_type_t *attribute_types, size_t nb_attributes, doca_telemetry_exporter_otlp_logs_scope_id_t *scope_id);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_write_event(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_otlp_logs_resource_id_t resource_id, doca_telemetry_exporter_otlp_logs_scope_id_t scope_id, const doca_telemetry_exporter_otlp_attribute_value_t *values);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_write_event_with_severity(struct doca_telemetry_exporter_source *doca_source, doca_telemetry_exporter_otlp_logs_resource_id_t resource_id, doca_telemetry_exporter_otlp_logs_scope_id_t scope_id, const doca_telemetry_exporter_otlp_attribute_value_t *values, const char *severity);
DOCA_EXPERIMENTAL doca_error_t doca_telemetry_exporter_otlp_logs_flush(struct doca_telemetry_exporter_source *doca_source);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_TELEMETRY_EXPORTER_H */
