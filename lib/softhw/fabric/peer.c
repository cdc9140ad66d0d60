/* SPDX-License-Identifier: BSD-3-Clause */
/* Who may reach a rendezvous point, and how much of it (see peer.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/fabric/peer.h"

SDK_LOG_REGISTER(SOFTHW_FABRIC_PEER);

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- rate limiting ---- */

static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;

bool softhw_ratelimit_ok(struct softhw_ratelimit *rl, uint32_t *suppressed)
{
	uint64_t now = now_ms();
	bool ok;

	pthread_mutex_lock(&rl_lock);
	if (rl->window_start_ms == 0 || now - rl->window_start_ms >= SOFTHW_RATELIMIT_WINDOW_MS) {
		rl->window_start_ms = now;
		rl->in_window = 0;
	}
	ok = rl->in_window < SOFTHW_RATELIMIT_BURST;
	*suppressed = 0;
	if (ok) {
		rl->in_window++;
		*suppressed = rl->suppressed;
		rl->suppressed = 0;
	} else {
		rl->suppressed++;
	}
	pthread_mutex_unlock(&rl_lock);
	return ok;
}

/* ---- tokens ---- */

uint64_t softhw_token_new(void)
{
	uint64_t t = 0;
	ssize_t n;

	/* Blocks only until the kernel's pool is first seeded (early boot): a token must not be guessable. */
	do {
		n = getrandom(&t, sizeof(t), 0);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(t)) {
		int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

		n = fd >= 0 ? read(fd, &t, sizeof(t)) : -1;
		if (fd >= 0)
			close(fd);
		if (n != (ssize_t)sizeof(t)) {
			static struct softhw_ratelimit rl;

			/* No random source at all: still unique, but a peer could guess it. */
			SOFTHW_LOG_LIMITED(&rl, SDK_LOG_ERR,
					   "No random source (getrandom and /dev/urandom failed): tokens of this process are guessable; peers on other hosts could reach its exports and queue pairs");
			t ^= now_ms() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&t;
		}
	}
	return t != 0 ? t : 1;
}

/* ---- credentials ---- */

bool softhw_peer_get(int fd, struct softhw_peer *peer)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	memset(peer, 0, sizeof(*peer));
	peer->family = AF_UNIX;
	peer->pid = -1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof(cred))
		return false;
	peer->pid = cred.pid;
	peer->uid = cred.uid;
	peer->gid = cred.gid;
	return true;
}

/* Is gid among the supplementary groups of the peer of fd (SO_PEERGROUPS)? */
static bool peer_in_group(int fd, gid_t gid)
{
	gid_t small[64], *groups = small;
	socklen_t len = sizeof(small);
	bool found = false;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) != 0) {
		if (errno != ERANGE || (groups = malloc(len)) == NULL)
			return false;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) != 0) {
			free(groups);
			return false;
		}
	}
	for (size_t i = 0; i < len / sizeof(gid_t) && !found; i++)
		found = groups[i] == gid;
	if (groups != small)
		free(groups);
	return found;
}

bool softhw_peer_allowed(const struct softhw_access *access, int fd, const struct softhw_peer *peer)
{
	if (peer->uid == geteuid())
		return true;
	if (access == NULL)
		return false;
	for (uint32_t i = 0; i < access->num_uids; i++)
		if (access->uids[i] == peer->uid)
			return true;
	return access->has_group && (peer->gid == access->gid || peer_in_group(fd, access->gid));
}

/*
 * Refusals are logged once per peer: a process of another user that knocks again and again
 * (or a stuck client retrying) adds no line after its first. Recent peers, oldest overwritten.
 */
#define LOGGED_PEERS 64

static struct {
	pthread_mutex_t lock;
	pid_t pid[LOGGED_PEERS];
	uid_t uid[LOGGED_PEERS];
	unsigned next;
} logged = {.lock = PTHREAD_MUTEX_INITIALIZER};

static bool first_refusal(const struct softhw_peer *peer)
{
	bool first = true;

	pthread_mutex_lock(&logged.lock);
	for (unsigned i = 0; i < LOGGED_PEERS && first; i++)
		first = !(logged.pid[i] == peer->pid && logged.uid[i] == peer->uid && logged.pid[i] != 0);
	if (first) {
		logged.pid[logged.next] = peer->pid;
		logged.uid[logged.next] = peer->uid;
		logged.next = (logged.next + 1) % LOGGED_PEERS;
	}
	pthread_mutex_unlock(&logged.lock);
	return first;
}

doca_error_t softhw_peer_check_listener(int fd, const struct softhw_access *access, const char *what,
					struct softhw_peer *peer)
{
	static struct softhw_ratelimit rl;
	struct softhw_peer p;

	if (!softhw_peer_get(fd, &p)) {
		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_ERR, "Cannot tell who serves %s (SO_PEERCRED: %s); not connecting", what,
				   strerror(errno));
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (peer != NULL)
		*peer = p;
	if (softhw_peer_allowed(access, fd, &p))
		return DOCA_SUCCESS;
	if (first_refusal(&p))
		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_ERR,
				   "%s is served by process %d of uid %u, not of this user (uid %u): not connecting (a process of another user may have taken its name). If that user is trusted, add 'allow_uids = %u' to the [access] section of the device configuration",
				   what, (int)p.pid, (unsigned)p.uid, (unsigned)geteuid(), (unsigned)p.uid);
	return DOCA_ERROR_NOT_PERMITTED;
}

/* ---- the guard ---- */

struct softhw_guard_peer {
	int family;
	pid_t pid;
	uid_t uid; /* AF_UNIX */
	uint8_t addr[16];
	uint32_t count;
};

static bool same_peer(const struct softhw_guard_peer *e, const struct softhw_peer *p)
{
	if (p->family == AF_UNIX)
		return e->family == AF_UNIX && e->pid == p->pid;
	return e->family != AF_UNIX && memcmp(e->addr, p->addr, sizeof(e->addr)) == 0;
}

static struct softhw_guard_peer *guard_find(struct softhw_guard *g, const struct softhw_peer *p)
{
	for (uint32_t i = 0; i < g->num_peers; i++)
		if (same_peer(&g->peers[i], p))
			return &g->peers[i];
	return NULL;
}

void softhw_guard_init(struct softhw_guard *g, const char *what, const struct softhw_access *access,
		       uint32_t max_per_peer, uint32_t max_total, softhw_refuse_fn refuse, void *refuse_arg)
{
	struct rlimit rl;

	memset(g, 0, sizeof(*g));
	g->what = what;
	g->access = access;
	g->refuse = refuse;
	g->refuse_arg = refuse_arg;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < max_total)
		max_total = (uint32_t)(rl.rlim_cur / 2);
	if (max_total == 0)
		max_total = 1;
	if (max_per_peer > max_total / 2)
		max_per_peer = max_total / 2 > 0 ? max_total / 2 : 1;
	g->max_per_peer = max_per_peer;
	g->max_total = max_total;
}

void softhw_guard_fini(struct softhw_guard *g)
{
	free(g->peers);
	g->peers = NULL;
	g->num_peers = g->cap_peers = 0;
	g->total = 0;
	g->resume_ms = 0;
	g->backoff_ms = 0;
}

int softhw_guard_paused_ms(const struct softhw_guard *g)
{
	uint64_t now;

	if (g->resume_ms == 0)
		return 0;
	now = now_ms();
	return now >= g->resume_ms ? 0 : (int)(g->resume_ms - now);
}

/* The process is out of descriptors (or memory): leave the listener alone for a while. */
static void guard_back_off(struct softhw_guard *g, int err)
{
	g->backoff_ms = g->backoff_ms == 0 ? SOFTHW_GUARD_BACKOFF_MIN_MS : 2 * g->backoff_ms;
	if (g->backoff_ms > SOFTHW_GUARD_BACKOFF_MAX_MS)
		g->backoff_ms = SOFTHW_GUARD_BACKOFF_MAX_MS;
	g->resume_ms = now_ms() + g->backoff_ms;
	SOFTHW_LOG_LIMITED(&g->rl, SDK_LOG_ERR,
			   "%s cannot accept connections: %s; not accepting for %u ms (close descriptors or raise RLIMIT_NOFILE)",
			   g->what, strerror(err), g->backoff_ms);
}

static void peer_name(const struct softhw_peer *p, char *buf, size_t len)
{
	static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (p->family == AF_UNIX)
		snprintf(buf, len, "process %d (uid %u)", (int)p->pid, (unsigned)p->uid);
	else if (memcmp(p->addr, v4mapped, sizeof(v4mapped)) == 0)
		inet_ntop(AF_INET, p->addr + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, p->addr, buf, (socklen_t)len);
}

static void guard_refuse(struct softhw_guard *g, int fd, doca_error_t why, const char *reason)
{
	char drain[512];

	if (g->refuse != NULL)
		g->refuse(g->refuse_arg, fd, why, reason);
	/*
	 * What the peer sent already (its hello) is dropped first: closing with unread data makes
	 * its next read fail with ECONNRESET before it sees our answer.
	 */
	for (int i = 0; i < 4 && recv(fd, drain, sizeof(drain), MSG_DONTWAIT) > 0; i++)
		;
	close(fd);
}

/*
 * Would one more unsettled connection give the processes of peer's user half of what the
 * service takes? (Caps per process alone let a user with many processes fill the service
 * and keep every other user out.)
 */
static bool user_over(const struct softhw_guard *g, const struct softhw_peer *peer)
{
	uint32_t held = 0, cap = g->max_total / 2 > g->max_per_peer ? g->max_total / 2 : g->max_per_peer;

	if (peer->family != AF_UNIX)
		return false;
	for (uint32_t i = 0; i < g->num_peers; i++)
		if (g->peers[i].family == AF_UNIX && g->peers[i].uid == peer->uid)
			held += g->peers[i].count;
	return held >= cap;
}

doca_error_t softhw_guard_accept(struct softhw_guard *g, int lfd, int *out, struct softhw_peer *peer)
{
	struct sockaddr_storage from;
	socklen_t from_len = sizeof(from);
	struct softhw_guard_peer *e;
	char name[64];
	int fd;

	if (softhw_guard_paused_ms(g) > 0)
		return DOCA_ERROR_AGAIN;
	fd = accept4(lfd, (struct sockaddr *)&from, &from_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		if (err == EAGAIN || err == EWOULDBLOCK)
			return DOCA_ERROR_AGAIN;
		if (err == EINTR || err == ECONNABORTED || err == EPROTO || err == EPERM)
			return DOCA_ERROR_CONNECTION_ABORTED; /* that one went away: the next may be there */
		/* EMFILE, ENFILE, ENOBUFS, ENOMEM, or worse: it would fail again at once */
		guard_back_off(g, err);
		return DOCA_ERROR_AGAIN;
	}
	g->resume_ms = 0;
	g->backoff_ms = 0;
	memset(peer, 0, sizeof(*peer));
	if (from.ss_family == AF_INET || from.ss_family == AF_INET6) {
		peer->family = from.ss_family;
		if (from.ss_family == AF_INET) {
			peer->addr[10] = peer->addr[11] = 0xff;
			memcpy(peer->addr + 12, &((struct sockaddr_in *)&from)->sin_addr, 4);
		} else {
			memcpy(peer->addr, &((struct sockaddr_in6 *)&from)->sin6_addr, 16);
		}
	} else if (!softhw_peer_get(fd, peer) || !softhw_peer_allowed(g->access, fd, peer)) {
		if (peer->pid < 0 || first_refusal(peer))
			SOFTHW_LOG_LIMITED(&g->rl, SDK_LOG_ERR,
					   "%s refused process %d of uid %u: only processes of this user (uid %u) may connect. If that user is trusted, add 'allow_uids = %u' (or one of its groups as 'allow_group') to the [access] section of the device configuration",
					   g->what, (int)peer->pid, (unsigned)peer->uid, (unsigned)geteuid(),
					   (unsigned)peer->uid);
		guard_refuse(g, fd, DOCA_ERROR_NOT_PERMITTED, "the process runs as another user");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	e = guard_find(g, peer);
	if (g->total >= g->max_total || (e != NULL && e->count >= g->max_per_peer) || user_over(g, peer)) {
		peer_name(peer, name, sizeof(name));
		if (g->total >= g->max_total)
			SOFTHW_LOG_LIMITED(&g->rl, SDK_LOG_ERR, "%s refused a connection of %s: it holds %u connections, its maximum",
					   g->what, name, g->total);
		else if (e == NULL || e->count < g->max_per_peer)
			SOFTHW_LOG_LIMITED(&g->rl, SDK_LOG_ERR,
					   "%s refused a connection of %s: the processes of uid %u hold half of the connections it takes that have not said hello, the most one user may",
					   g->what, name, (unsigned)peer->uid);
		else
			SOFTHW_LOG_LIMITED(&g->rl, SDK_LOG_ERR,
					   "%s refused a connection of %s: that peer holds %u connections that have not said hello, the most one peer may",
					   g->what, name, e->count);
		guard_refuse(g, fd, DOCA_ERROR_FULL, "too many connections");
		return DOCA_ERROR_FULL;
	}
	if (e == NULL) {
		if (g->num_peers == g->cap_peers) {
			uint32_t cap = g->cap_peers ? 2 * g->cap_peers : 8;
			struct softhw_guard_peer *p = realloc(g->peers, cap * sizeof(*p));

			if (p == NULL) {
				guard_refuse(g, fd, DOCA_ERROR_NO_MEMORY, "out of memory");
				return DOCA_ERROR_NO_MEMORY;
			}
			g->peers = p;
			g->cap_peers = cap;
		}
		e = &g->peers[g->num_peers++];
		*e = (struct softhw_guard_peer){.family = peer->family, .pid = peer->pid, .uid = peer->uid};
		memcpy(e->addr, peer->addr, sizeof(e->addr));
	}
	e->count++;
	g->total++;
	*out = fd;
	return DOCA_SUCCESS;
}

int softhw_guard_accept_all(struct softhw_guard *g, int lfd, softhw_admit_fn admit, void *arg)
{
	for (int i = 0; i < SOFTHW_GUARD_BATCH; i++) {
		struct softhw_peer peer;
		doca_error_t err;
		int fd;

		err = softhw_guard_accept(g, lfd, &fd, &peer);
		if (err == DOCA_ERROR_AGAIN)
			break;
		if (err == DOCA_SUCCESS)
			admit(arg, fd, &peer);
		/* else refused (logged), or gone before we took it: the next one */
	}
	return softhw_guard_paused_ms(g);
}

/* One unsettled connection of `peer` less. */
static void guard_uncount(struct softhw_guard *g, const struct softhw_peer *peer)
{
	struct softhw_guard_peer *e = guard_find(g, peer);

	if (e != NULL && --e->count == 0)
		*e = g->peers[--g->num_peers];
}

void softhw_guard_settle(struct softhw_guard *g, struct softhw_peer *peer)
{
	if (peer->settled)
		return;
	peer->settled = true;
	guard_uncount(g, peer);
}

void softhw_guard_release(struct softhw_guard *g, const struct softhw_peer *peer)
{
	if (g->total > 0)
		g->total--;
	if (!peer->settled)
		guard_uncount(g, peer);
}
