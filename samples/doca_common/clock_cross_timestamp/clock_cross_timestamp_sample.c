/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reads one clock of a device (or of the host), or two at once: a cross timestamp pairs a
 * primary clock with a NIC clock and says how accurately they were paired. On softdoca the
 * NIC's free-running clock (and DPA timer) follow CLOCK_MONOTONIC_RAW and its real-time clock
 * CLOCK_REALTIME (docs/compatibility.md).
 */
#include <inttypes.h>

#include <doca_clock.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>

#include "common.h"
#include "clock_cross_timestamp_sample.h"

DOCA_LOG_REGISTER(CLOCK_CROSS_TIMESTAMP::SAMPLE);

const char *clock_type_name(uint64_t clock_type)
{
	switch (clock_type) {
	case DOCA_CLOCK_NIC_FREE_RUNNING:
		return "DOCA_CLOCK_NIC_FREE_RUNNING";
	case DOCA_CLOCK_NIC_REAL_TIME:
		return "DOCA_CLOCK_NIC_REAL_TIME";
	case DOCA_CLOCK_NIC_DPA_TIMER:
		return "DOCA_CLOCK_NIC_DPA_TIMER";
	case DOCA_CLOCK_HOST_COUNTER_CYCLES:
		return "DOCA_CLOCK_HOST_COUNTER_CYCLES";
	case DOCA_CLOCK_HOST_REAL_TIME:
		return "DOCA_CLOCK_HOST_REAL_TIME";
	case DOCA_CLOCK_HOST_MONOTONIC:
		return "DOCA_CLOCK_HOST_MONOTONIC";
	case DOCA_CLOCK_HOST_MONOTONIC_RAW:
		return "DOCA_CLOCK_HOST_MONOTONIC_RAW";
	default:
		return "CLOCK_UNKNOWN";
	}
}

/* A NIC clock the flags name must be one the device has. */
static doca_error_t check_nic_clock(const struct doca_devinfo *devinfo, const struct clock_cross_timestamp_cfg *cfg,
				    uint64_t clock, doca_error_t (*is_supported)(const struct doca_devinfo *),
				    const char *what)
{
	doca_error_t result;

	if (cfg->primary_clock != clock && cfg->nic_clock != clock)
		return DOCA_SUCCESS;
	result = is_supported(devinfo);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("NIC %s clock not supported. Error=%s", what, doca_error_get_name(result));
	return result;
}

static doca_error_t log_single_timestamp(const struct doca_clock *clock, uint64_t type)
{
	union doca_clock_timespec_t ts = {0};
	doca_error_t result = doca_clock_get_timestamp(clock, type, &ts);

	if (result != DOCA_SUCCESS)
		return result;
	if (type == DOCA_CLOCK_HOST_COUNTER_CYCLES)
		DOCA_LOG_INFO("Timestamp - %s: %" PRIu64 " cycles", clock_type_name(type), ts.counter);
	else
		DOCA_LOG_INFO("Timestamp - %s: %lu.%09lu seconds", clock_type_name(type), (unsigned long)ts.ts.tv_sec,
			      (unsigned long)ts.ts.tv_nsec);
	return DOCA_SUCCESS;
}

static doca_error_t log_cross_timestamp(const struct doca_clock *clock, uint64_t primary, uint64_t nic)
{
	union doca_clock_timespec_t p = {0}, n = {0};
	uint64_t accuracy = 0;
	doca_error_t result = doca_clock_get_crosstimestamp(clock, primary, nic, &p, &n, &accuracy);

	if (result != DOCA_SUCCESS)
		return result;
	if (primary == DOCA_CLOCK_HOST_COUNTER_CYCLES)
		DOCA_LOG_INFO("Cross-timestamp - %s: %" PRIu64 " cycles, %s: %lu.%09lu seconds, accuracy: %" PRIu64
			      " cycles",
			      clock_type_name(primary), p.counter, clock_type_name(nic), (unsigned long)n.ts.tv_sec,
			      (unsigned long)n.ts.tv_nsec, accuracy);
	else
		DOCA_LOG_INFO("Cross-timestamp - %s: %lu.%09lu seconds, %s: %lu.%09lu seconds, accuracy: %" PRIu64
			      " nanoseconds",
			      clock_type_name(primary), (unsigned long)p.ts.tv_sec, (unsigned long)p.ts.tv_nsec,
			      clock_type_name(nic), (unsigned long)n.ts.tv_sec, (unsigned long)n.ts.tv_nsec, accuracy);
	return DOCA_SUCCESS;
}

doca_error_t run_clock_cross_timestamp_sample(const struct clock_cross_timestamp_cfg *cfg)
{
	struct doca_clock *clock = NULL;
	struct doca_dev *dev = NULL;
	doca_error_t result, tmp;

	result = open_doca_device_with_pci(cfg->pci_addr, NULL, &dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open device. error=%s", doca_error_get_name(result));
		return result;
	}
	result = check_nic_clock(doca_dev_as_devinfo(dev), cfg, DOCA_CLOCK_NIC_FREE_RUNNING,
				 doca_clock_cap_nic_free_running_is_supported, "free running");
	if (result == DOCA_SUCCESS)
		result = check_nic_clock(doca_dev_as_devinfo(dev), cfg, DOCA_CLOCK_NIC_REAL_TIME,
					 doca_clock_cap_nic_real_time_is_supported, "real time");
	if (result == DOCA_SUCCESS)
		result = check_nic_clock(doca_dev_as_devinfo(dev), cfg, DOCA_CLOCK_NIC_DPA_TIMER,
					 doca_clock_cap_nic_dpa_timer_is_supported, "DPA timer");
	if (result != DOCA_SUCCESS)
		goto close_dev;

	result = doca_clock_create(dev, &clock);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create doca clock. Error=%s", doca_error_get_name(result));
		goto close_dev;
	}
	if (cfg->nic_clock == 0) {
		result = log_single_timestamp(clock, cfg->primary_clock);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to get timestamp. Error=%s", doca_error_get_name(result));
	} else {
		result = log_cross_timestamp(clock, cfg->primary_clock, cfg->nic_clock);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to get cross-timestamp. Error=%s", doca_error_get_name(result));
	}
	tmp = doca_clock_destroy(clock);
	if (tmp != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to destroy doca clock. Error=%s", doca_error_get_name(tmp));
		if (result == DOCA_SUCCESS)
			result = tmp;
	}
close_dev:
	(void)doca_dev_close(dev);
	return result;
}
