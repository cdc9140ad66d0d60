/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The per-host RoCEv2 registry of one local IPv4 address (private to lib/softhw/rnic/).
 *
 * Every softdoca process of a user that speaks RoCEv2 on an address shares UDP port 4791 on it
 * (roce_port.h), so the kernel may hand a datagram to any of them. This registry says which
 * process owns what: it allocates queue pair numbers unique on the address across processes,
 * and maps a QPN, an RDMA-CM service ID (a QP1 listener) or a CM communication ID to its
 * owner. It is a file in the run directory (<run_dir>/roce/<a.b.c.d>.reg), mapped shared:
 * changes are made under flock(), lookups read it without a lock (one atomic word per entry).
 *
 * Owners are processes, named by pid and start time (so a recycled pid is not mistaken for
 * the dead one); the entries of an owner that died are reclaimed by whoever notices (a join,
 * an allocation that finds the table full, a forward that finds nobody listening). The file
 * and its directory must belong to this user (the kernel already keeps another user out of
 * our UDP port group; the registry follows the same rule). Nothing here logs.
 *
 * It also remembers each owner's RDMA-CM connections (what a DREQ or REJ needs), so that when
 * an owner dies whoever reclaims it can end them on the wire as the kernel's CM would for a
 * process's destroyed cm_ids: reclaiming marks them orphans; roce_reg_conn_orphans hands them
 * out. Everything read from the file is untrusted (another process of the user may have
 * scribbled on it): an entry that does not make sense is dropped, never acted on.
 */
#ifndef SOFTHW_RNIC_ROCE_REG_H
#define SOFTHW_RNIC_ROCE_REG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "doca_error.h"

#define ROCE_REG_SLOTS 65536    /* QPNs live at once per address: QPN = generation << 16 | slot */
#define ROCE_REG_OWNERS 1024    /* owner ids 1..1023 (0: none); 10 bits of a CM comm ID */
#define ROCE_REG_LISTENERS 256  /* QP1 listeners (service IDs) per address */
#define ROCE_REG_COMM_SHIFT 22  /* CM local comm ID = owner << 22 | sequence */
#define ROCE_REG_CONNS 4096     /* RDMA-CM connections remembered per address */

struct roce_reg;

/*
 * Opens (creating it if needed) the registry of IPv4 address `ip` (host order) under run_dir,
 * which must exist. join: this process becomes an owner (roce_reg_self) and may allocate;
 * without it the registry is only looked at (tests, tools). NOT_PERMITTED when the file or
 * its folder belongs to another user, FULL when all owner ids are taken by live processes,
 * OPERATING_SYSTEM otherwise; *why says what failed.
 */
doca_error_t roce_reg_open(const char *run_dir, uint32_t ip, bool join, struct roce_reg **out, const char **why);

/* Gives back everything this process owns on the address (if it joined) and unmaps. */
void roce_reg_close(struct roce_reg *r);

/* This process's owner id (0 if it did not join). */
int roce_reg_self(const struct roce_reg *r);

/* <run_dir>/roce/<ip>.<owner>.sock: where owner listens for forwarded datagrams. */
bool roce_reg_owner_path(const struct roce_reg *r, int owner, char *buf, size_t len);

/* pid of a live-looking owner (0 if the id is free). */
pid_t roce_reg_owner_pid(const struct roce_reg *r, int owner);

/* A QPN for this process, never 0, 1 or 0xffffff; not reused until 254 others used its slot. FULL when none. */
doca_error_t roce_reg_qpn_alloc(struct roce_reg *r, uint32_t *qpn);
void roce_reg_qpn_free(struct roce_reg *r, uint32_t qpn);

/* Owner id of qpn (lock-free), 0 if nobody holds it. */
int roce_reg_qpn_owner(const struct roce_reg *r, uint32_t qpn);

/* This process listens on RDMA-CM service ID sid (QP1 REQs for it come here). IN_USE if another does. */
doca_error_t roce_reg_listen(struct roce_reg *r, uint64_t sid);
void roce_reg_unlisten(struct roce_reg *r, uint64_t sid);
int roce_reg_listener_owner(const struct roce_reg *r, uint64_t sid);

/* A CM local communication ID that names this process (replies carry it back): owner << 22 | seq. */
static inline uint32_t roce_reg_comm_id(const struct roce_reg *r, uint32_t seq)
{
	return ((uint32_t)roce_reg_self(r) << ROCE_REG_COMM_SHIFT) | (seq & ((1u << ROCE_REG_COMM_SHIFT) - 1));
}

static inline int roce_reg_comm_id_owner(uint32_t comm_id)
{
	return (int)(comm_id >> ROCE_REG_COMM_SHIFT);
}

/* What ending a connection of a dead owner takes (the CM's facts, roce_cm.c). */
enum roce_reg_conn_state {
	ROCE_REG_CONN_SETUP = 1, /* passive, the REQ not answered yet: REJ (consumer), the REQ's TID */
	ROCE_REG_CONN_UP = 2,    /* REP sent or established: DREQ */
	ROCE_REG_CONN_DREQ = 3,  /* our DREQ sent, not answered: the same DREQ again (its TID) */
	ROCE_REG_CONN_REQ = 4,   /* active, our REQ out: the peer's REP gets REJ (timeout), its TID */
};

struct roce_reg_conn {
	uint8_t state;       /* enum roce_reg_conn_state */
	uint32_t local_id;   /* our comm ID (its owner bits name the owner) */
	uint32_t remote_id;  /* the peer's comm ID (REQ: 0, not known yet) */
	uint32_t peer_qpn;   /* 24 bits: the peer's QP (a DREQ names it; REQ: 0, not known yet) */
	uint32_t peer_ip;    /* host order; CM MADs go to its UDP port peer_port */
	uint16_t peer_port;
	uint64_t tid;        /* SETUP, REQ: the REQ's; DREQ: the DREQ's; UP: 0 */
};

/*
 * Remembers (or updates) this process's connection c->local_id. FULL when the table is; the
 * connection then simply is not ended on the peer's side should we die.
 */
doca_error_t roce_reg_conn_set(struct roce_reg *r, const struct roce_reg_conn *c);
/* Forgets it (a clean end: time-wait, reject, destroy). */
void roce_reg_conn_clear(struct roce_reg *r, uint32_t local_id);

/* Lock-free: are there connections of reclaimed owners waiting to be ended? */
bool roce_reg_conn_orphans_pending(const struct roce_reg *r);

/*
 * Takes (frees) up to max connections of reclaimed owners into out; how many. Entries that do
 * not make sense (any field out of range, a comm ID of another owner, a multicast or zero
 * address) are freed and only counted in *bad.
 */
unsigned roce_reg_conn_orphans(struct roce_reg *r, struct roce_reg_conn *out, unsigned max, unsigned *bad);

/* Where the connection table starts in the file, and one entry's size (tests forge entries). */
size_t roce_reg_slots_offset(void);     /* uint64_t owner << 32 | qpn, ROCE_REG_SLOTS of them */
size_t roce_reg_listeners_offset(void); /* uint64_t owner << 48 | service ID */
size_t roce_reg_conns_offset(void);
size_t roce_reg_conn_size(void);

/*
 * If owner's process is gone, frees all it held (QPNs, listeners, its id) and removes its
 * socket file, its connections becoming orphans (roce_reg_conn_orphans); true if it did.
 * Called when a forward to it failed.
 */
bool roce_reg_reclaim(struct roce_reg *r, int owner);

#endif /* SOFTHW_RNIC_ROCE_REG_H */
