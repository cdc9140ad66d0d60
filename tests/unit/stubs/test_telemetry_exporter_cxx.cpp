/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_telemetry_exporter.h's Metrics calls in C++ (C++17), the way NIXL's DOCA telemetry
 * plug-in makes them: bucket bounds from a const std::vector<double> (data() and size()),
 * histogram ids kept in a std::unordered_set and base histogram ids in std::optional. Each call
 * reaches libdoca_telemetry_exporter's stub.
 */
#include <cstdio>
#include <optional>
#include <unordered_set>
#include <vector>

#include "doca_telemetry_exporter.h"

static int failures;

#define EXPECT_NOT_SUPPORTED(expr) \
	do { \
		if ((expr) != DOCA_ERROR_NOT_SUPPORTED) { \
			std::fprintf(stderr, "%s:%d: %s did not return DOCA_ERROR_NOT_SUPPORTED\n", __FILE__, __LINE__, #expr); \
			failures++; \
		} \
	} while (0)

int main()
{
	doca_telemetry_exporter_source *source = nullptr;
	doca_telemetry_exporter_label_set_id_t label_set_id = 0;
	const std::vector<double> buckets{1.0, 10.0, 100.0};
	std::optional<doca_telemetry_exporter_base_histogram_id_t> base;
	std::unordered_set<doca_telemetry_exporter_histogram_id_t> histogram_ids;
	const char *label_names[] = {"agent_name"};
	const char *label_values[] = {"agent"};
	constexpr uint64_t flush_interval_ms = 1000;
	doca_telemetry_exporter_base_histogram_id_t base_id = 0;
	doca_telemetry_exporter_histogram_id_t histogram_id = 0;
	uint64_t ts = 0;

	EXPECT_NOT_SUPPORTED(doca_telemetry_exporter_get_timestamp(&ts));
	EXPECT_NOT_SUPPORTED(doca_telemetry_exporter_metrics_add_label_names(source, label_names, 1, &label_set_id));
	EXPECT_NOT_SUPPORTED(doca_telemetry_exporter_metrics_add_base_histogram(source, "lat", buckets.data(), buckets.size(),
										 label_set_id, flush_interval_ms, &base_id));
	base = base_id;
	EXPECT_NOT_SUPPORTED(doca_telemetry_exporter_metrics_base_histogram_observe(source, *base, label_values,
										   static_cast<double>(ts), &histogram_id));
	histogram_ids.insert(histogram_id);
	for (const auto id : histogram_ids)
		EXPECT_NOT_SUPPORTED(doca_telemetry_exporter_metrics_histogram_flush(
			source, id, DOCA_TELEMETRY_EXPORTER_HISTOGRAM_TIMESTAMP_UPDATE, false));
	EXPECT_NOT_SUPPORTED(doca_telemetry_exporter_metrics_add_counter_increment(source, ts, "ops", 1, label_set_id,
										  label_values));
	EXPECT_NOT_SUPPORTED(doca_telemetry_exporter_metrics_flush(source));
	if (failures == 0)
		std::printf("telemetry exporter metrics calls from C++: all reach the stub\n");
	return failures == 0 ? 0 : 1;
}
