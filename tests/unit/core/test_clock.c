/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_clock: capabilities, argument rules, and readings checked against the host clocks the
 * soft card's clocks follow (free-running and DPA timer: CLOCK_MONOTONIC_RAW; real-time:
 * CLOCK_REALTIME), alone and as cross timestamps.
 */
#include <stdint.h>
#include <time.h>

#include "doca_clock.h"
#include "core_test.h"
#include "test.h"

static uint64_t ns_of(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + (uint64_t)ts->tv_nsec;
}

static uint64_t host_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ns_of(&ts);
}

static struct doca_dev *open_first_dev(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	if (n > 0)
		CHECK_OK(doca_dev_open(list[0], &dev));
	doca_devinfo_destroy_list(list);
	CHECK(dev != NULL);
	return dev;
}

static void test_caps_and_lifecycle(void)
{
	struct fake_dev bare;
	struct doca_dev *dev = open_first_dev(), *fake = fake_dev_init(&bare, "bare", "x", false);
	struct doca_devinfo *info = doca_dev_as_devinfo(dev);
	struct doca_clock *clock;

	CHECK_OK(doca_clock_cap_nic_free_running_is_supported(info));
	CHECK_OK(doca_clock_cap_nic_real_time_is_supported(info));
	CHECK_OK(doca_clock_cap_nic_dpa_timer_is_supported(info)); /* BlueField-3 has a DPA */
	CHECK_ERR(doca_clock_cap_nic_free_running_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_cap_nic_real_time_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_cap_nic_dpa_timer_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_cap_nic_free_running_is_supported(doca_dev_as_devinfo(fake)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_cap_nic_real_time_is_supported(doca_dev_as_devinfo(fake)), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_cap_nic_dpa_timer_is_supported(doca_dev_as_devinfo(fake)), DOCA_ERROR_NOT_SUPPORTED);

	CHECK_ERR(doca_clock_create(NULL, &clock), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_clock_create(dev, &clock));
	/* The clock reads the device: it stays open meanwhile */
	CHECK_ERR(doca_dev_close(dev), DOCA_ERROR_IN_USE);
	CHECK_OK(doca_clock_destroy(clock));
	CHECK_OK(doca_dev_close(dev));
}

static void test_single_readings(void)
{
	struct fake_dev bare;
	struct doca_dev *dev = open_first_dev(), *fake = fake_dev_init(&bare, "bare", "x", false);
	struct doca_clock *clock, *bare_clock;
	union doca_clock_timespec_t ts;
	uint64_t before, after, c1, c2;

	CHECK_OK(doca_clock_create(dev, &clock));
	CHECK_OK(doca_clock_create(fake, &bare_clock));

	before = host_ns(CLOCK_MONOTONIC_RAW);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_FREE_RUNNING, &ts));
	after = host_ns(CLOCK_MONOTONIC_RAW);
	CHECK(ns_of(&ts.ts) >= before && ns_of(&ts.ts) <= after);
	before = host_ns(CLOCK_MONOTONIC_RAW);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_DPA_TIMER, &ts));
	after = host_ns(CLOCK_MONOTONIC_RAW);
	CHECK(ns_of(&ts.ts) >= before && ns_of(&ts.ts) <= after);
	before = host_ns(CLOCK_REALTIME);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_REAL_TIME, &ts));
	after = host_ns(CLOCK_REALTIME);
	CHECK(ns_of(&ts.ts) >= before && ns_of(&ts.ts) <= after);
	before = host_ns(CLOCK_MONOTONIC);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_MONOTONIC, &ts));
	after = host_ns(CLOCK_MONOTONIC);
	CHECK(ns_of(&ts.ts) >= before && ns_of(&ts.ts) <= after);
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, &ts));
	CHECK(ts.ts.tv_sec > 1600000000); /* after 2020: real time, not time since boot */
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_MONOTONIC_RAW, &ts));
	CHECK(ts.ts.tv_nsec < 1000000000);
#if defined(__x86_64__) || defined(__aarch64__)
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES, &ts));
	c1 = ts.counter;
	CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES, &ts));
	c2 = ts.counter;
	CHECK(c1 > 0 && c2 >= c1);
#else
	(void)c1;
	(void)c2;
#endif

	/* One DOCA_CLOCK_* value at a time, and only known ones */
	CHECK_ERR(doca_clock_get_timestamp(clock, 0, &ts), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_FREE_RUNNING | DOCA_CLOCK_NIC_REAL_TIME, &ts),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clock, 1u << 5, &ts), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(clock, DOCA_CLOCK_NIC_FREE_RUNNING, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_timestamp(NULL, DOCA_CLOCK_NIC_FREE_RUNNING, &ts), DOCA_ERROR_INVALID_VALUE);
	/* A device without NIC clocks still reads the host's */
	CHECK_ERR(doca_clock_get_timestamp(bare_clock, DOCA_CLOCK_NIC_FREE_RUNNING, &ts), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_clock_get_timestamp(bare_clock, DOCA_CLOCK_NIC_DPA_TIMER, &ts), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_clock_get_timestamp(bare_clock, DOCA_CLOCK_HOST_MONOTONIC_RAW, &ts));

	CHECK_OK(doca_clock_destroy(bare_clock));
	CHECK_OK(doca_clock_destroy(clock));
	CHECK_OK(doca_dev_close(dev));
}

static void test_cross_timestamps(void)
{
	struct doca_dev *dev = open_first_dev();
	struct doca_clock *clock;
	union doca_clock_timespec_t p, n;
	uint64_t margin = 99, before, after, raw_before, raw_after;

	CHECK_OK(doca_clock_create(dev, &clock));

	/* Same source (the free-running clock is CLOCK_MONOTONIC_RAW): one exact reading */
	CHECK_OK(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_MONOTONIC_RAW, DOCA_CLOCK_NIC_FREE_RUNNING, &p,
					       &n, &margin));
	CHECK(margin == 0 && ns_of(&p.ts) == ns_of(&n.ts));

	/* Two sources: each value lies within its own clock's window, the margin is small */
	before = host_ns(CLOCK_REALTIME);
	raw_before = host_ns(CLOCK_MONOTONIC_RAW);
	CHECK_OK(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_FREE_RUNNING, &p, &n,
					       &margin));
	raw_after = host_ns(CLOCK_MONOTONIC_RAW);
	after = host_ns(CLOCK_REALTIME);
	CHECK(ns_of(&p.ts) >= before && ns_of(&p.ts) <= after);
	CHECK(ns_of(&n.ts) >= raw_before && ns_of(&n.ts) <= raw_after);
	CHECK(margin <= after - before);

	/* A NIC clock as the primary one */
	CHECK_OK(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_NIC_REAL_TIME, DOCA_CLOCK_NIC_DPA_TIMER, &p, &n,
					       &margin));
	CHECK(p.ts.tv_sec > 1600000000);
#if defined(__x86_64__) || defined(__aarch64__)
	/* The CPU counter as the primary one: its value and margin are in cycles */
	{
		union doca_clock_timespec_t c0, c1;

		CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES, &c0));
		CHECK_OK(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES,
						       DOCA_CLOCK_NIC_REAL_TIME, &p, &n, &margin));
		CHECK_OK(doca_clock_get_timestamp(clock, DOCA_CLOCK_HOST_COUNTER_CYCLES, &c1));
		CHECK(p.counter >= c0.counter && p.counter <= c1.counter);
		CHECK(margin <= c1.counter - c0.counter);
	}
#endif

	/* The second clock must be a NIC clock; NULL outputs are refused */
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_NIC_FREE_RUNNING, DOCA_CLOCK_HOST_REAL_TIME, &p, &n,
						&margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, 1u << 30, DOCA_CLOCK_NIC_FREE_RUNNING, &p, &n, &margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(NULL, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_FREE_RUNNING, &p, &n,
						&margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_FREE_RUNNING, NULL, &n,
						&margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_FREE_RUNNING, &p, NULL,
						&margin),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_clock_get_crosstimestamp(clock, DOCA_CLOCK_HOST_REAL_TIME, DOCA_CLOCK_NIC_FREE_RUNNING, &p, &n,
						NULL),
		  DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_clock_destroy(clock));
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	TEST_RUN(test_caps_and_lifecycle);
	TEST_RUN(test_single_readings);
	TEST_RUN(test_cross_timestamps);
	TEST_EXIT();
}
