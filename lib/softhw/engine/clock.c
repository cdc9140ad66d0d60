/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft card's clocks. A ConnectX keeps a free-running counter since it powered up and a
 * real-time clock that PTP disciplines; the soft card's counters are the host's: the
 * free-running clock (and the DPA timer, which counts the same time) is CLOCK_MONOTONIC_RAW,
 * never slewed by NTP, and the real-time clock is CLOCK_REALTIME, which the host keeps in
 * step with real time as PTP would the card's.
 */
#include <time.h>

#include "softhw/softhw.h"

clockid_t softhw_clock_source(enum softhw_clock clock)
{
	return clock == SOFTHW_CLOCK_NIC_REAL_TIME ? CLOCK_REALTIME : CLOCK_MONOTONIC_RAW;
}

static bool has_clock(const struct softhw_caps *caps, enum softhw_clock clock)
{
	switch (clock) {
	case SOFTHW_CLOCK_NIC_FREE_RUNNING:
		return caps->clock_nic_free_running;
	case SOFTHW_CLOCK_NIC_REAL_TIME:
		return caps->clock_nic_real_time;
	case SOFTHW_CLOCK_NIC_DPA_TIMER:
		return caps->clock_nic_dpa_timer;
	}
	return false;
}

doca_error_t softhw_clock_read(const struct softhw_function *fn, enum softhw_clock clock, struct timespec *ts)
{
	if (!has_clock(&fn->caps, clock))
		return DOCA_ERROR_NOT_SUPPORTED;
	return clock_gettime(softhw_clock_source(clock), ts) == 0 ? DOCA_SUCCESS : DOCA_ERROR_OPERATING_SYSTEM;
}
