/* SPDX-License-Identifier: BSD-3-Clause */
/* Set-up of shared-memory channels (see channel.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "softhw/fabric/channel.h"

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

doca_error_t softhw_chan_geom_make(uint32_t max_msg, uint32_t limit_a2b, uint32_t limit_b2a,
				   struct softhw_chan_geom *geom)
{
	struct softhw_chan_geom g = {0};

	if (max_msg > SOFTHW_CHAN_MAX_MSG || limit_a2b == 0 || limit_b2a == 0 || limit_a2b > SOFTHW_CHAN_MAX_SLOTS ||
	    limit_b2a > SOFTHW_CHAN_MAX_SLOTS)
		return DOCA_ERROR_INVALID_VALUE;
	g.max_msg = max_msg;
	g.limit[SOFTHW_CHAN_A_TO_B] = limit_a2b;
	g.limit[SOFTHW_CHAN_B_TO_A] = limit_b2a;
	g.slots[SOFTHW_CHAN_A_TO_B] = pow2_at_least(limit_a2b);
	g.slots[SOFTHW_CHAN_B_TO_A] = pow2_at_least(limit_b2a);
	g.slot_size = (uint32_t)((sizeof(struct softhw_chan_rec) + max_msg + SOFTHW_CHAN_LINE - 1) &
				 ~(uint32_t)(SOFTHW_CHAN_LINE - 1));
	g.size = softhw_chan_ring_offset(&g, SOFTHW_CHAN_B_TO_A) + (uint64_t)g.slots[SOFTHW_CHAN_B_TO_A] * g.slot_size;
	*geom = g;
	return DOCA_SUCCESS;
}

/* A geometry received from the peer must be exactly what geom_make would produce. */
static bool geom_valid(const struct softhw_chan_geom *g)
{
	struct softhw_chan_geom want;

	if (softhw_chan_geom_make(g->max_msg, g->limit[0], g->limit[1], &want) != DOCA_SUCCESS)
		return false;
	return memcmp(&want, g, sizeof(want)) == 0;
}

/* Points the local ring views into a mapped segment; `side_a` says which way is tx. */
static void chan_bind(struct softhw_chan *ch, const struct softhw_chan_geom *g, bool side_a)
{
	struct softhw_chan_shm *shm = ch->base;
	int tx = side_a ? SOFTHW_CHAN_A_TO_B : SOFTHW_CHAN_B_TO_A;
	int rx = 1 - tx;
	struct softhw_ring *rings[2];

	rings[tx] = &ch->tx;
	rings[rx] = &ch->rx;
	for (int d = 0; d < 2; d++) {
		struct softhw_ring *r = rings[d];

		r->ctl = &shm->ctl[d];
		r->slots = (uint8_t *)ch->base + softhw_chan_ring_offset(g, d);
		r->mask = g->slots[d] - 1;
		r->limit = g->limit[d];
		r->slot_size = g->slot_size;
		r->max_msg = g->max_msg;
		r->pos = 0;
		r->seen = 0;
	}
	ch->ctrl_seen = 0;
}

doca_error_t softhw_chan_create(const struct softhw_chan_geom *geom, struct softhw_chan *ch, int *memfd)
{
	struct softhw_chan_shm *shm;
	void *base;
	int fd;

	if (!geom_valid(geom))
		return DOCA_ERROR_INVALID_VALUE;
	fd = memfd_create("softdoca-channel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return errno == ENOMEM ? DOCA_ERROR_NO_MEMORY : DOCA_ERROR_OPERATING_SYSTEM;
	/* Sealed size: the peer cannot shrink the segment under our mapping (no SIGBUS). */
	if (ftruncate(fd, (off_t)geom->size) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
		close(fd);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	base = mmap(NULL, geom->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		close(fd);
		return DOCA_ERROR_NO_MEMORY;
	}
	shm = base;
	shm->magic = SOFTHW_CHAN_MAGIC;
	shm->version = SOFTHW_CHAN_VERSION;
	shm->geom = *geom;
	*ch = (struct softhw_chan){.base = base, .size = geom->size, .peer_bell = -1};
	chan_bind(ch, geom, true);
	*memfd = fd;
	return DOCA_SUCCESS;
}

doca_error_t softhw_chan_attach(int memfd, const struct softhw_chan_geom *geom, struct softhw_chan *ch)
{
	const struct softhw_chan_shm *shm;
	struct stat st;
	int seals;
	void *base;

	if (!geom_valid(geom) || fstat(memfd, &st) != 0 || (uint64_t)st.st_size != geom->size)
		return DOCA_ERROR_INVALID_VALUE;
	/* Only a segment whose size cannot change under us is safe to map. */
	seals = fcntl(memfd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK))
		return DOCA_ERROR_INVALID_VALUE;
	base = mmap(NULL, geom->size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (base == MAP_FAILED)
		return DOCA_ERROR_NO_MEMORY;
	shm = base;
	if (shm->magic != SOFTHW_CHAN_MAGIC || shm->version != SOFTHW_CHAN_VERSION ||
	    memcmp(&shm->geom, geom, sizeof(*geom)) != 0) {
		munmap(base, geom->size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*ch = (struct softhw_chan){.base = base, .size = geom->size, .peer_bell = -1};
	chan_bind(ch, geom, false);
	return DOCA_SUCCESS;
}

void softhw_chan_close(struct softhw_chan *ch)
{
	if (ch->base != NULL)
		munmap(ch->base, ch->size);
	if (ch->peer_bell >= 0)
		close(ch->peer_bell);
	*ch = (struct softhw_chan){.peer_bell = -1};
}
