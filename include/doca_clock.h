/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_clock.h (DOCA 3.3). No 3.0 header has it: the names, values and prototypes
 * come from DOCA 3.3's clock_cross_timestamp sample and a public copy of the DOCA header
 * (docs/compatibility.md). [inferred]: this header includes doca_dev.h, because the sample
 * uses DOCA_DEVINFO_PCI_ADDR_SIZE with no other header that would define it.
 *
 * doca_clock reads a device's clocks (NIC free-running, NIC real-time, DPA timer) and the
 * host's, alone or two together (a cross timestamp, with the margin of error of the pairing).
 */
#ifndef SOFTDOCA_DOCA_CLOCK_H
#define SOFTDOCA_DOCA_CLOCK_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "doca_compat.h"
#include "doca_dev.h"
#include "doca_error.h"
#include "doca_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* opaque types (forward declarations only) */
struct doca_clock;
struct doca_dev;
struct doca_devinfo;

/* Clock types: one bit each. NIC clocks first, then the host's. */
#define DOCA_CLOCK_NIC_FREE_RUNNING 0x1			/* seconds and nanoseconds */
#define DOCA_CLOCK_NIC_REAL_TIME (0x1 << 1)		/* seconds and nanoseconds */
#define DOCA_CLOCK_NIC_DPA_TIMER (0x1 << 8)		/* seconds and nanoseconds */
#define DOCA_CLOCK_HOST_COUNTER_CYCLES (0x1 << 16)	/* raw CPU counter (TSC, CNTVCT_EL0) */
#define DOCA_CLOCK_HOST_REAL_TIME (0x1 << 17)		/* CLOCK_REALTIME */
#define DOCA_CLOCK_HOST_MONOTONIC (0x1 << 18)		/* CLOCK_MONOTONIC */
#define DOCA_CLOCK_HOST_MONOTONIC_RAW (0x1 << 19)	/* CLOCK_MONOTONIC_RAW */

/* A reading: a timespec, or a raw count for DOCA_CLOCK_HOST_COUNTER_CYCLES. */
union doca_clock_timespec_t {
	struct timespec ts;
	uint64_t counter;
};

/* functions */
DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock);
DOCA_EXPERIMENTAL doca_error_t doca_clock_destroy(struct doca_clock *clock);
DOCA_EXPERIMENTAL doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
							union doca_clock_timespec_t *clock_ts);
DOCA_EXPERIMENTAL doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock, uint64_t primary_clock_type,
							     uint64_t nic_clock_type,
							     union doca_clock_timespec_t *primary_clock_ts,
							     union doca_clock_timespec_t *nic_clock_ts,
							     uint64_t *error_margin_nsecs);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_CLOCK_H */
