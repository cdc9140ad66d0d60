/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_clock: reads the soft card's clocks (softhw: free-running, real-time, DPA timer) and
 * the host's (CPU counter, CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW), alone or as
 * a cross timestamp: a NIC reading paired with a primary reading taken around it. The pair
 * with the shortest window out of a few tries wins; the primary value is the window's middle
 * and the error margin half its width (in cycles when the primary clock is the CPU counter).
 * Two clocks that follow one host clock are read once, with a margin of 0.
 */
#include <time.h>

#include "doca_clock.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DOCA_CLOCK);

#define NIC_CLOCKS (DOCA_CLOCK_NIC_FREE_RUNNING | DOCA_CLOCK_NIC_REAL_TIME | DOCA_CLOCK_NIC_DPA_TIMER)
#define HOST_CLOCKS                                                                                    \
	(DOCA_CLOCK_HOST_COUNTER_CYCLES | DOCA_CLOCK_HOST_REAL_TIME | DOCA_CLOCK_HOST_MONOTONIC |      \
	 DOCA_CLOCK_HOST_MONOTONIC_RAW)
#define CROSS_TRIES 8
#define NSEC_PER_SEC 1000000000ULL

struct doca_clock {
	struct doca_dev *dev;
	const struct softhw_function *fn;
};

static doca_error_t cap_check(const struct doca_devinfo *devinfo, bool supported, const char *what)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("Clock capability query (%s): devinfo is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_check(devinfo, devinfo != NULL && softdoca_devinfo_caps(devinfo)->clock_nic_free_running,
			 "free-running");
}

doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_check(devinfo, devinfo != NULL && softdoca_devinfo_caps(devinfo)->clock_nic_real_time,
			 "real-time");
}

doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_check(devinfo, devinfo != NULL && softdoca_devinfo_caps(devinfo)->clock_nic_dpa_timer,
			 "DPA timer");
}

doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock)
{
	struct doca_clock *c;

	if (dev == NULL || clock == NULL) {
		SDK_LOG_ERR("Failed to create clock: %s is NULL", dev == NULL ? "dev" : "clock output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		SDK_LOG_ERR("Failed to create clock: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	c->dev = (struct doca_dev *)dev; /* held: the device stays open while the clock reads it */
	c->fn = dev->devinfo->fn;
	softdoca_dev_hold(c->dev);
	*clock = c;
	return DOCA_SUCCESS;
}

doca_error_t doca_clock_destroy(struct doca_clock *clock)
{
	if (clock == NULL) {
		SDK_LOG_ERR("Failed to destroy clock: clock is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	softdoca_dev_release(clock->dev);
	free(clock);
	return DOCA_SUCCESS;
}

static const char *clock_name(uint64_t type)
{
	switch (type) {
	case DOCA_CLOCK_NIC_FREE_RUNNING:
		return "NIC free-running";
	case DOCA_CLOCK_NIC_REAL_TIME:
		return "NIC real-time";
	case DOCA_CLOCK_NIC_DPA_TIMER:
		return "NIC DPA timer";
	case DOCA_CLOCK_HOST_COUNTER_CYCLES:
		return "host counter";
	case DOCA_CLOCK_HOST_REAL_TIME:
		return "host real-time";
	case DOCA_CLOCK_HOST_MONOTONIC:
		return "host monotonic";
	case DOCA_CLOCK_HOST_MONOTONIC_RAW:
		return "host raw monotonic";
	}
	return "unknown";
}

/* One DOCA_CLOCK_* bit, and one the device has. */
static doca_error_t check_type(const struct doca_clock *clock, uint64_t type, const char *what)
{
	const struct softhw_caps *caps = &clock->fn->caps;
	bool has;

	if (type == 0 || (type & (type - 1)) != 0 || (type & (NIC_CLOCKS | HOST_CLOCKS)) == 0) {
		SDK_LOG_ERR("Failed to read %s clock: 0x%lx is not one DOCA_CLOCK_* value", what, (unsigned long)type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	switch (type) {
	case DOCA_CLOCK_NIC_FREE_RUNNING:
		has = caps->clock_nic_free_running;
		break;
	case DOCA_CLOCK_NIC_REAL_TIME:
		has = caps->clock_nic_real_time;
		break;
	case DOCA_CLOCK_NIC_DPA_TIMER:
		has = caps->clock_nic_dpa_timer;
		break;
	case DOCA_CLOCK_HOST_COUNTER_CYCLES:
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
		has = true;
#else
		has = false;
#endif
		break;
	default:
		has = true;
		break;
	}
	if (!has) {
		SDK_LOG_ERR("Failed to read %s clock: device %s has no %s clock (see doca_clock_cap_nic_*_is_supported())",
			    what, clock->fn->pci_addr, clock_name(type));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

static uint64_t read_counter(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	return 0; /* check_type refused the counter here */
#endif
}

/* The host clock behind a clock type; the CPU counter has none (-1). */
static clockid_t source_of(uint64_t type)
{
	switch (type) {
	case DOCA_CLOCK_NIC_FREE_RUNNING:
		return softhw_clock_source(SOFTHW_CLOCK_NIC_FREE_RUNNING);
	case DOCA_CLOCK_NIC_REAL_TIME:
		return softhw_clock_source(SOFTHW_CLOCK_NIC_REAL_TIME);
	case DOCA_CLOCK_NIC_DPA_TIMER:
		return softhw_clock_source(SOFTHW_CLOCK_NIC_DPA_TIMER);
	case DOCA_CLOCK_HOST_REAL_TIME:
		return CLOCK_REALTIME;
	case DOCA_CLOCK_HOST_MONOTONIC:
		return CLOCK_MONOTONIC;
	case DOCA_CLOCK_HOST_MONOTONIC_RAW:
		return CLOCK_MONOTONIC_RAW;
	}
	return (clockid_t)-1;
}

/* Reads a checked clock type. */
static doca_error_t read_clock(const struct doca_clock *clock, uint64_t type, union doca_clock_timespec_t *ts)
{
	doca_error_t err = DOCA_SUCCESS;

	switch (type) {
	case DOCA_CLOCK_HOST_COUNTER_CYCLES:
		ts->counter = read_counter();
		return DOCA_SUCCESS;
	case DOCA_CLOCK_NIC_FREE_RUNNING:
		err = softhw_clock_read(clock->fn, SOFTHW_CLOCK_NIC_FREE_RUNNING, &ts->ts);
		break;
	case DOCA_CLOCK_NIC_REAL_TIME:
		err = softhw_clock_read(clock->fn, SOFTHW_CLOCK_NIC_REAL_TIME, &ts->ts);
		break;
	case DOCA_CLOCK_NIC_DPA_TIMER:
		err = softhw_clock_read(clock->fn, SOFTHW_CLOCK_NIC_DPA_TIMER, &ts->ts);
		break;
	default:
		err = clock_gettime(source_of(type), &ts->ts) == 0 ? DOCA_SUCCESS : DOCA_ERROR_OPERATING_SYSTEM;
		break;
	}
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to read the %s clock: %s", clock_name(type), doca_error_get_descr(err));
	return err;
}

doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
				      union doca_clock_timespec_t *clock_ts)
{
	doca_error_t err;

	if (clock == NULL || clock_ts == NULL) {
		SDK_LOG_ERR("Failed to get timestamp: %s is NULL", clock == NULL ? "clock" : "clock_ts");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_type(clock, clock_type, "the requested");
	return err != DOCA_SUCCESS ? err : read_clock(clock, clock_type, clock_ts);
}

/* A reading as one number: nanoseconds, or cycles for the CPU counter. */
static uint64_t as_units(uint64_t type, const union doca_clock_timespec_t *ts)
{
	if (type == DOCA_CLOCK_HOST_COUNTER_CYCLES)
		return ts->counter;
	return (uint64_t)ts->ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts->ts.tv_nsec;
}

static void from_units(uint64_t type, uint64_t v, union doca_clock_timespec_t *ts)
{
	if (type == DOCA_CLOCK_HOST_COUNTER_CYCLES) {
		ts->counter = v;
		return;
	}
	ts->ts.tv_sec = (time_t)(v / NSEC_PER_SEC);
	ts->ts.tv_nsec = (long)(v % NSEC_PER_SEC);
}

doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock, uint64_t primary_clock_type,
					   uint64_t nic_clock_type, union doca_clock_timespec_t *primary_clock_ts,
					   union doca_clock_timespec_t *nic_clock_ts, uint64_t *error_margin_nsecs)
{
	uint64_t best_width = UINT64_MAX, best_mid = 0;
	union doca_clock_timespec_t best_nic = {0};
	doca_error_t err;

	if (clock == NULL || primary_clock_ts == NULL || nic_clock_ts == NULL || error_margin_nsecs == NULL) {
		SDK_LOG_ERR("Failed to get cross timestamp: %s is NULL",
			    clock == NULL ? "clock" : primary_clock_ts == NULL ? "primary_clock_ts"
						     : nic_clock_ts == NULL	 ? "nic_clock_ts"
										 : "error_margin_nsecs");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_type(clock, primary_clock_type, "the primary");
	if (err == DOCA_SUCCESS)
		err = check_type(clock, nic_clock_type, "the NIC");
	if (err != DOCA_SUCCESS)
		return err;
	if ((nic_clock_type & NIC_CLOCKS) == 0) {
		SDK_LOG_ERR("Failed to get cross timestamp: the second clock (%s) must be a NIC clock "
			    "(DOCA_CLOCK_NIC_*)",
			    clock_name(nic_clock_type));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (source_of(primary_clock_type) == source_of(nic_clock_type)) {
		/* One host clock behind both: a single reading is exact for both. */
		err = read_clock(clock, nic_clock_type, nic_clock_ts);
		if (err != DOCA_SUCCESS)
			return err;
		*primary_clock_ts = *nic_clock_ts;
		*error_margin_nsecs = 0;
		return DOCA_SUCCESS;
	}
	for (int i = 0; i < CROSS_TRIES; i++) {
		union doca_clock_timespec_t before, nic, after;
		uint64_t b, a;

		err = read_clock(clock, primary_clock_type, &before);
		if (err == DOCA_SUCCESS)
			err = read_clock(clock, nic_clock_type, &nic);
		if (err == DOCA_SUCCESS)
			err = read_clock(clock, primary_clock_type, &after);
		if (err != DOCA_SUCCESS)
			return err;
		b = as_units(primary_clock_type, &before);
		a = as_units(primary_clock_type, &after);
		if (a < b) /* a real-time clock stepped back in between: try again */
			continue;
		if (a - b < best_width) {
			best_width = a - b;
			best_mid = b + (a - b) / 2;
			best_nic = nic;
		}
	}
	if (best_width == UINT64_MAX) {
		SDK_LOG_ERR("Failed to get cross timestamp: the %s clock kept stepping backwards",
			    clock_name(primary_clock_type));
		return DOCA_ERROR_AGAIN;
	}
	from_units(primary_clock_type, best_mid, primary_clock_ts);
	*nic_clock_ts = best_nic;
	*error_margin_nsecs = best_width / 2 + best_width % 2;
	return DOCA_SUCCESS;
}
