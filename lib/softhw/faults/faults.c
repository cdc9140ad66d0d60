/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Faults on purpose: a card whose configuration has `faults.*` keys gets some of its work wrong,
 * the way hardware does (docs/device-model.md "Faults"). The error kinds are deterministic
 * (every Nth occurrence, counted per process), so a test knows which task fails; drops are
 * random, as loss on a link is, from a seeded generator, so a run can be repeated.
 */
#include "softhw/softhw.h"

#define GOLDEN 0x9e3779b97f4a7c15ull

/* splitmix64's output step: an even spread from a counter that moves by a constant. */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

bool softhw_fault_hit(struct softhw_faults *f, enum softhw_fault kind)
{
	bool hit;

	if (f == NULL || (unsigned)kind >= SOFTHW_FAULT_COUNT)
		return false;
	if (kind == SOFTHW_FAULT_DROP) {
		if (f->drop_ppm == 0)
			return false;
		__atomic_fetch_add(&f->seen[kind], 1, __ATOMIC_RELAXED);
		hit = mix(__atomic_add_fetch(&f->rng, GOLDEN, __ATOMIC_RELAXED)) % 1000000u < f->drop_ppm;
	} else {
		if (f->every[kind] == 0)
			return false;
		hit = __atomic_add_fetch(&f->seen[kind], 1, __ATOMIC_RELAXED) % f->every[kind] == 0;
	}
	if (hit)
		__atomic_fetch_add(&f->hits[kind], 1, __ATOMIC_RELAXED);
	return hit;
}

uint32_t softhw_fault_delay_ms(struct softhw_faults *f)
{
	uint32_t ms;

	if (f == NULL || (f->delay_ms == 0 && f->jitter_ms == 0))
		return 0;
	ms = f->delay_ms;
	if (f->jitter_ms != 0)
		ms += (uint32_t)(mix(__atomic_add_fetch(&f->rng_delay, GOLDEN, __ATOMIC_RELAXED)) % (f->jitter_ms + 1ull));
	if (ms != 0) /* (a jitter's draw of 0 holds nothing) */
		__atomic_fetch_add(&f->delayed, 1, __ATOMIC_RELAXED);
	return ms;
}

const char *softhw_fault_key(enum softhw_fault kind)
{
	switch (kind) {
	case SOFTHW_FAULT_DMA_ERROR:
		return "faults.dma_error";
	case SOFTHW_FAULT_RDMA_ERROR:
		return "faults.rdma_error";
	case SOFTHW_FAULT_DROP:
		return "faults.drop";
	case SOFTHW_FAULT_DISCONNECT:
		return "faults.disconnect";
	default:
		return "faults.?";
	}
}
