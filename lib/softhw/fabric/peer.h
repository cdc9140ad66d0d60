/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who may reach a rendezvous point, and how much of it (peer.c).
 *
 * On one host the kernel says who is at the other end of a unix socket (SO_PEERCRED): a peer
 * is let in when it runs as this process's user, or as a user or group the access policy of
 * the model allows (struct softhw_access, the [access] section of the configuration).
 * Listening services check every connection they accept; connectors check the listener, which
 * may be an impostor that bound the name first. Across hosts there is no uid to check: there
 * the capability is a random 64-bit token carried in the descriptor (softhw_token_new).
 *
 * A guard stands in front of each listening service: the credential check, caps on the
 * connections per peer (its pid on unix, its address on TCP) and per service, backoff while
 * the process has no descriptor left, and rate-limited log lines. The per-peer cap counts the
 * connections that have not proven anything yet (no valid hello or token): a peer may hold as
 * many established connections as the service itself allows (an importer one per mmap, a
 * process up to the server's maximum of Comch clients). The service cap counts them all. A
 * guard belongs to the one thread that accepts and closes the service's connections.
 */
#ifndef SOFTHW_FABRIC_PEER_H
#define SOFTHW_FABRIC_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "doca_error.h"
#include "softhw/softhw.h"

/* ---- rate-limited log lines ---- */

#define SOFTHW_RATELIMIT_BURST 5          /* lines per window ... */
#define SOFTHW_RATELIMIT_WINDOW_MS 5000   /* ... of this length */

struct softhw_ratelimit {
	uint64_t window_start_ms;
	uint32_t in_window;
	uint32_t suppressed;
};

/* May a line be logged now? *suppressed: lines dropped since the last one that was (thread-safe). */
bool softhw_ratelimit_ok(struct softhw_ratelimit *rl, uint32_t *suppressed);

/*
 * Logs through LOG (SDK_LOG_ERR, ...) unless `rl` dropped it; the first line after drops says
 * how many. For lines a peer can provoke at will.
 */
#define SOFTHW_LOG_LIMITED(rl, LOG, fmt, ...) \
	do { \
		uint32_t softhw_sup_; \
		if (softhw_ratelimit_ok((rl), &softhw_sup_)) { \
			if (softhw_sup_ != 0) \
				LOG(fmt " (suppressed %u similar lines)", ##__VA_ARGS__, softhw_sup_); \
			else \
				LOG(fmt, ##__VA_ARGS__); \
		} \
	} while (0)

/* ---- tokens ---- */

/* A nonzero 64-bit value from the kernel's random generator: the cross-host capability. */
uint64_t softhw_token_new(void);

/* ---- credentials ---- */

struct softhw_peer {
	int family;       /* AF_UNIX, AF_INET or AF_INET6 */
	pid_t pid;        /* AF_UNIX: SO_PEERCRED */
	uid_t uid;
	gid_t gid;
	uint8_t addr[16]; /* TCP: its address, IPv4 as ::ffff:a.b.c.d (the port is not part of the peer) */
	bool settled;     /* the connection proved itself: no longer counted against its peer's cap */
};

/* SO_PEERCRED of a connected unix socket; false if the kernel cannot say. */
bool softhw_peer_get(int fd, struct softhw_peer *peer);

/* Does `access` (NULL: the same user only) let the unix peer of socket fd in? */
bool softhw_peer_allowed(const struct softhw_access *access, int fd, const struct softhw_peer *peer);

/*
 * After connecting to a rendezvous point (unix): may we talk to the process that listens
 * there? NOT_PERMITTED with a log line naming `what` ("Comch server 'x'"), the listener's pid
 * and uid, and the key that would allow it. `peer` (may be NULL) gets its credentials.
 */
doca_error_t softhw_peer_check_listener(int fd, const struct softhw_access *access, const char *what,
					struct softhw_peer *peer);

/* ---- the guard of a listening service ---- */

/* Tells a refused peer why, before its socket closes (optional). */
typedef void (*softhw_refuse_fn)(void *arg, int fd, doca_error_t why, const char *reason);

struct softhw_guard_peer;

struct softhw_guard {
	const char *what;                 /* "memory service": log lines */
	const struct softhw_access *access;
	softhw_refuse_fn refuse;
	void *refuse_arg;
	uint32_t max_per_peer;            /* unsettled connections of one peer */
	uint32_t max_total;               /* all connections of the service */
	uint32_t total;                   /* admitted and not released */
	struct softhw_guard_peer *peers;  /* peers holding unsettled connections, with their counts */
	uint32_t num_peers;
	uint32_t cap_peers;
	uint64_t resume_ms;               /* backing off until then (monotonic ms); 0: not */
	uint32_t backoff_ms;
	struct softhw_ratelimit rl;       /* every line this service logs about its peers */
};

#define SOFTHW_GUARD_BACKOFF_MIN_MS 100
#define SOFTHW_GUARD_BACKOFF_MAX_MS 1000
/* At most this many accepts per call of the service's loop: a flood does not starve the rest. */
#define SOFTHW_GUARD_BATCH 64

/*
 * Caps are lowered to fit the process's descriptor limit: the service never takes more than
 * half of RLIMIT_NOFILE, and one peer never more than half of what the service may take.
 */
void softhw_guard_init(struct softhw_guard *g, const char *what, const struct softhw_access *access,
		       uint32_t max_per_peer, uint32_t max_total, softhw_refuse_fn refuse, void *refuse_arg);
/* Forgets every count (the connections are gone, or were never this process's: a fork). */
void softhw_guard_fini(struct softhw_guard *g);

/*
 * Accepts one connection of listener lfd. SUCCESS: *fd is admitted and counted for `peer`
 * (release it when the connection closes). AGAIN: nothing more for now, because none waits,
 * or the process is out of descriptors and the guard backs off (softhw_guard_paused_ms). Any
 * other error: one connection was refused (NOT_PERMITTED, FULL: closed, logged) or went away
 * before it was accepted; call again.
 */
doca_error_t softhw_guard_accept(struct softhw_guard *g, int lfd, int *fd, struct softhw_peer *peer);

/* The connection of `peer` proved itself (a valid hello): it stops counting against its peer. */
void softhw_guard_settle(struct softhw_guard *g, struct softhw_peer *peer);

/* Takes over a connection the guard admitted: fd is the callee's from then on. */
typedef void (*softhw_admit_fn)(void *arg, int fd, const struct softhw_peer *peer);

/*
 * What a listening service calls when its listener is readable: accepts what waits (at most
 * SOFTHW_GUARD_BATCH) through softhw_guard_accept and hands each admitted connection to
 * admit. Returns 0, or the milliseconds the listener must now be left alone (out of
 * descriptors: stop watching it, and call again when they have passed).
 */
int softhw_guard_accept_all(struct softhw_guard *g, int lfd, softhw_admit_fn admit, void *arg);

/* A connection softhw_guard_accept admitted has closed. */
void softhw_guard_release(struct softhw_guard *g, const struct softhw_peer *peer);

/* 0: poll the listener; else the milliseconds it must be left alone for (backoff). */
int softhw_guard_paused_ms(const struct softhw_guard *g);

#endif /* SOFTHW_FABRIC_PEER_H */
