/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw fabric values: the 64-bit values behind sync events, shared by every handle on them
 * and, for a value exported to the PCIe peer, by the processes of both sides of the card.
 *
 * A value lives in the user's memory, in storage of its own, or in a segment of the run
 * directory that the other side maps too (shm.h). Values are process-wide and refcounted: two
 * handles given the same memory, or a handle and its imports, bind to one value, and an update
 * through any of them wakes all its waiters: threads asleep on its futex word and the watchers
 * (a running sync-event context's PE) in this process and the other.
 */
#ifndef SOFTHW_FABRIC_VALUE_H
#define SOFTHW_FABRIC_VALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "doca_error.h"

struct softhw_value;

enum softhw_value_cmp {
	SOFTHW_VALUE_GT,
	SOFTHW_VALUE_EQ,
	SOFTHW_VALUE_NEQ,
};

static inline bool softhw_value_holds(uint64_t value, enum softhw_value_cmp cmp, uint64_t want, uint64_t mask)
{
	value &= mask;
	switch (cmp) {
	case SOFTHW_VALUE_GT:
		return value > want;
	case SOFTHW_VALUE_EQ:
		return value == want;
	case SOFTHW_VALUE_NEQ:
		return value != want;
	}
	return false;
}

/* Someone to tell when the value changes (embedded by its owner; notify may run on any thread). */
struct softhw_value_watcher {
	struct softhw_value_watcher *next;
	void (*notify)(struct softhw_value_watcher *w);
};

/*
 * Binds to the value at `addr` (user memory), creating it if needed; addr NULL makes a new
 * value with its own storage. NULL when out of memory.
 */
struct softhw_value *softhw_value_bind(uint64_t *addr);
/*
 * A new value (starting at `initial`) in a shared segment of the run directory, for the
 * processes of the other side of the card. On failure *why says why.
 */
doca_error_t softhw_value_create_shared(uint64_t initial, struct softhw_value **value, const char **why);
/*
 * Binds to the value a descriptor of this process names (id, address, token); NULL if it no
 * longer exists or was retired.
 */
struct softhw_value *softhw_value_find(uint64_t id, uint64_t addr, uint64_t token);
/*
 * The value was exported for remote net access (doca_sync_event_export_to_remote_net): only
 * then does the soft NIC reach it, and a descriptor of another kind re-sealed as remote net
 * gets nothing.
 */
void softhw_value_export_net(struct softhw_value *value);
bool softhw_value_net_exported(const struct softhw_value *value);
/*
 * The token a remote-net descriptor carries: random, made at the first call, the value's
 * own (a shared value's PCIe token is another). Whoever holds a connected qp names the value
 * by id, address and this token, as an RDMA export by its rkey: ids count up and addresses
 * are a neighbour's, so without it one descriptor would reach every event of the process.
 */
uint64_t softhw_value_net_token(struct softhw_value *value);
/* Binds like softhw_value_find, to a value whose net token is `token` (never 0). */
struct softhw_value *softhw_value_find_net(uint64_t id, uint64_t addr, uint64_t token);
/*
 * The soft NIC's RoCEv2 path names a net-exported value by a 32-bit R_Key (the top bit set, 23
 * bits of id, the net token's low 8 bits; see softhw_mem_rkey32) and its address. 0: the id
 * does not fit. find_rkey32 binds like softhw_value_find_net (NULL: none).
 */
static inline uint32_t softhw_value_rkey32(uint64_t id, uint64_t token)
{
	return id == 0 || id >= (1u << 23) ? 0 : 0x80000000u | (uint32_t)(id << 8) | (uint32_t)(token & 0xff);
}
struct softhw_value *softhw_value_find_rkey32(uint32_t rkey, uint64_t addr);
/* Why softhw_value_find() (net: _find_net()) found nothing: which of the descriptor's claims is wrong. */
const char *softhw_value_why_not(uint64_t id, uint64_t addr, uint64_t token, bool net);
/*
 * Binds to the shared value that process `pid` exported as `id` at `addr` with `token`.
 * NOT_FOUND when that process is gone or retired the value; INVALID_VALUE when its live value
 * has another token or address (a forged descriptor); NOT_PERMITTED when the run directory or
 * the value's file is not this user's alone (softhw_shm_open); *why says which.
 */
doca_error_t softhw_value_open_shared(int32_t pid, uint64_t id, uint64_t addr, uint64_t token,
				      struct softhw_value **value, const char **why);
/* Its exporter is done with it: no new imports (a shared value's segment is unlinked). */
void softhw_value_retire(struct softhw_value *value);
void softhw_value_unbind(struct softhw_value *value);
uint64_t *softhw_value_addr(const struct softhw_value *value);
uint64_t softhw_value_id(const struct softhw_value *value);
/* True if the value has its own storage, shared or not (no user memory). */
bool softhw_value_is_private(const struct softhw_value *value);
bool softhw_value_is_shared(const struct softhw_value *value);
/* The token that proves a descriptor names this shared value; 0 for a value that is not shared. */
uint64_t softhw_value_token(const struct softhw_value *value);

/* w->notify runs after every change of the value until unwatch returns. */
void softhw_value_watch(struct softhw_value *value, struct softhw_value_watcher *w);
void softhw_value_unwatch(struct softhw_value *value, struct softhw_value_watcher *w);
/*
 * A watcher is going to sleep: make sure the other process's next update notifies it.
 * Returns true when it cannot (the watcher must then keep polling).
 */
bool softhw_value_arm(struct softhw_value *value);

uint64_t softhw_value_load(const struct softhw_value *value);
/* Load for a poller that armed a wake-up just before (a PE's notification): no lost wake-up. */
uint64_t softhw_value_poll(struct softhw_value *value);
void softhw_value_store(struct softhw_value *value, uint64_t v);
uint64_t softhw_value_fetch_add(struct softhw_value *value, uint64_t v);
/* Stores swap if the value is compare (an RDMA compare-and-swap on it); returns the value before. */
uint64_t softhw_value_compare_swap(struct softhw_value *value, uint64_t compare, uint64_t swap);
/*
 * Blocks until the condition holds: spins briefly (not when `yield`), then yields, then sleeps
 * on the futex word with timeouts growing to 1 ms for user memory (the timeout catches writes
 * that bypass this API), to 100 ms for a value with its own storage (every write wakes).
 */
void softhw_value_wait(struct softhw_value *value, enum softhw_value_cmp cmp, uint64_t want, uint64_t mask,
		       bool yield);
/* The same, giving up after about timeout_ns (one sleep more at most); false then. */
bool softhw_value_wait_for(struct softhw_value *value, enum softhw_value_cmp cmp, uint64_t want, uint64_t mask,
			   bool yield, long long timeout_ns);
/* The 64-bit value at `addr` changed behind this API: wake whoever waits on it. */
void softhw_value_changed(uint64_t *addr);

#endif /* SOFTHW_FABRIC_VALUE_H */
