/* SPDX-License-Identifier: BSD-3-Clause */
/* Types and the checksum both sides of test_dpa compute (host test and device code). */
#ifndef TEST_DPA_COMMON_H
#define TEST_DPA_COMMON_H

#include <stdint.h>

/* Passed in memory by the x86-64 ABI (more than 16 bytes). */
struct test_dpa_big {
	uint64_t a;
	uint32_t b;
	double c;
	uint8_t tail[13];
};

/* Passed in registers: one integer and one SSE eightbyte. */
struct test_dpa_small {
	uint32_t x;
	float y;
	double z;
};

/* What counter_thread works on, in device memory. */
struct test_dpa_counter {
	uint64_t count;
	uint64_t event;     /* doca_dpa_dev_sync_event_t */
	uint64_t finish_at;
};

/* What eu_probe_thread records, in device memory: one block shared by the threads probed. */
#define TEST_DPA_PROBE_RECS 64
struct test_dpa_probe {
	uint64_t inside;     /* activations inside now */
	uint64_t max_inside; /* the most there ever were at once */
	uint64_t next;       /* records used */
	uint64_t done_event; /* doca_dpa_dev_sync_event_t: +1 per activation */
	uint64_t hold_ns;    /* each activation stays inside this long */
	struct {
		uint64_t who, enter, leave; /* __dpa_thread_cycles() */
	} rec[TEST_DPA_PROBE_RECS];
};

/* A probe thread's argument, in device memory. */
struct test_dpa_probe_arg {
	uint64_t block; /* struct test_dpa_probe * */
	uint64_t who;
};

/* handshake_thread's argument, in device memory: three sync event handles. */
struct test_dpa_handshake {
	uint64_t mine;  /* set to 1 when it runs */
	uint64_t other; /* waited for: the other thread's `mine` */
	uint64_t done;  /* +1 once both ran at once */
};

static inline uint64_t test_dpa_checksum(uint8_t u8, int16_t s16, _Bool flag, int32_t s32, uint64_t u64, float f,
					 double d, const struct test_dpa_big *big, const struct test_dpa_small *small)
{
	uint64_t sum = u8 + (uint64_t)(int64_t)s16 * 3 + (flag ? 17 : 0) + (uint64_t)(int64_t)s32 * 5 + u64;

	sum += (uint64_t)(f * 4.0f) + (uint64_t)(d * 8.0);
	sum += big->a + big->b + (uint64_t)big->c + big->tail[12];
	sum += small->x + (uint64_t)(small->y * 2.0f) + (uint64_t)small->z;
	return sum;
}

#endif /* TEST_DPA_COMMON_H */
