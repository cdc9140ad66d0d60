/* SPDX-License-Identifier: BSD-3-Clause */
/* Cross-process memory access between the processes of a soft card (see mem.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/fabric/fabric.h"
#include "softhw/fabric/mem.h"
#include "softhw/fabric/peer.h"
#include "softhw/fabric/share.h"
#include "softhw/fabric/mem_wire.h"
#include "softhw/fabric/threads.h"

SDK_LOG_REGISTER(SOFTHW_FABRIC_MEM);

static struct mem_msg msg_make(enum mem_op op)
{
	return (struct mem_msg){.magic = MEM_MAGIC, .version = MEM_VERSION, .op = (uint16_t)op};
}

/* Is cross-memory attach switched off for this process (SOFTDOCA_FABRIC_CMA=0)? */
static bool cma_disabled(void)
{
	const char *v = getenv("SOFTDOCA_FABRIC_CMA");

	return v != NULL && (strcmp(v, "0") == 0 || strcmp(v, "off") == 0 || strcmp(v, "no") == 0 ||
			     strcmp(v, "false") == 0);
}

/* A card carrying just the instance (all the fabric needs to name a rendezvous point) and the access policy. */
static void instance_card(struct softhw_card *card, const char *instance)
{
	memset(card, 0, sizeof(*card));
	snprintf(card->instance, sizeof(card->instance), "%s", instance);
	card->access = softhw_access_policy();
}

/*
 * Connections the memory service keeps at most, in all, and per importing process before
 * their HELLO proved the token (lowered to fit RLIMIT_NOFILE, peer.h). An importer holds one
 * per mmap it imported from us, and says HELLO at once.
 */
#define MEM_MAX_CONNS 1024
#define MEM_MAX_PENDING_PER_PEER 32

/* ---------------------------------------------------------------------------------------
 * Exporter side: the export table and the service thread
 * ------------------------------------------------------------------------------------ */

struct mem_export {
	struct mem_export *next;
	uint64_t id;
	uint64_t token;
	char *addr;
	uint64_t len;
	uint32_t rights;
	char instance[SOFTHW_MAX_STR]; /* the card instance it was exported through */
	/* A re-export: the memory is another process's, reached through this import of ours;
	 * addr is in that process. Only softhw_mem_export_copy() touches it. */
	struct softhw_mem_remote *via;
	bool shared;  /* has a window (share) */
	bool guarded; /* has a liveness slot alone (share, no window): cross-memory attach is announced */
	struct softhw_share_grant share;
};

struct mem_listener {
	char instance[SOFTHW_MAX_STR];
	int fd;
};

/* One importer connected to the service thread. */
struct mem_conn {
	int fd;
	struct softhw_peer peer; /* who, for the guard's counts */
	uint64_t id;   /* export it said HELLO to; 0 before */
	uint64_t hello_by_ms; /* before its HELLO: closed if none came by then (monotonic ms) */
	char *bounce;  /* importer's bounce buffer, mapped here */
	size_t bounce_len;
};

#define MAX_LISTENERS 16
#define MEM_HELLO_TIMEOUT_MS 5000

/*
 * Process-wide state. `lock` guards everything, and is held while the service thread copies
 * an export's memory so that softhw_mem_export_remove() never returns under a running copy.
 * Only the service thread changes `conns`, under the lock (so fork sees it consistent).
 */
static struct {
	pthread_mutex_t lock;
	struct mem_export *exports;
	uint64_t last_id;
	struct mem_listener listeners[MAX_LISTENERS];
	unsigned num_listeners;
	struct mem_conn *conns;
	unsigned num_conns;
	unsigned cap_conns;
	bool started;
	struct softhw_guard guard; /* admission to every listener (service thread) */
	bool cma;     /* opted into cross-memory attach */
	int wake_fd;  /* eventfd: listeners added or exports removed */
	/* removals asked for / handled by the service thread (importers told) */
	uint64_t revoke_asked;
	uint64_t revoke_done;
	pthread_cond_t revoked;
	/* the service thread's poll set (here, not on its stack, so a fork can free it) */
	struct pollfd *pfds;
	size_t pfds_cap;
} svc = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake_fd = -1, .revoked = PTHREAD_COND_INITIALIZER};

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork_prepare(void)
{
	pthread_mutex_lock(&svc.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&svc.lock);
}

/*
 * The child has no service thread. Its copies of the parent's sockets must go: an importer
 * notices the exporter's death by its connection closing, which a child holding a copy
 * would prevent. The child's exports (if any) start afresh.
 */
static void atfork_child(void)
{
	for (unsigned i = 0; i < svc.num_listeners; i++)
		close(svc.listeners[i].fd);
	svc.num_listeners = 0;
	for (unsigned i = 0; i < svc.num_conns; i++) {
		close(svc.conns[i].fd);
		if (svc.conns[i].bounce != NULL)
			munmap(svc.conns[i].bounce, svc.conns[i].bounce_len);
	}
	free(svc.conns);
	svc.conns = NULL;
	svc.num_conns = svc.cap_conns = 0;
	softhw_guard_fini(&svc.guard);
	free(svc.pfds);
	svc.pfds = NULL;
	svc.pfds_cap = 0;
	while (svc.exports != NULL) {
		struct mem_export *e = svc.exports;

		svc.exports = e->next;
		free(e);
	}
	if (svc.wake_fd >= 0)
		close(svc.wake_fd);
	svc.wake_fd = -1;
	svc.started = false;
	svc.revoke_asked = svc.revoke_done = 0;
	pthread_cond_init(&svc.revoked, NULL);
	pthread_mutex_unlock(&svc.lock);
}

static void register_atfork(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

static struct mem_export *export_find(uint64_t id)
{
	for (struct mem_export *e = svc.exports; e != NULL; e = e->next)
		if (e->id == id)
			return e;
	return NULL;
}

static void wake_service(void)
{
	uint64_t one = 1;

	if (svc.wake_fd >= 0 && write(svc.wake_fd, &one, sizeof(one)) < 0) {
		/* the counter cannot overflow here; a failed wake-up only delays revocation notices */
	}
}

/* The guard refused a connection: the importer learns why before it closes. */
static void service_refuse(void *arg, int fd, doca_error_t why, const char *reason)
{
	struct mem_msg m = msg_make(MEM_REFUSED);

	(void)reason;
	m.status = why;
	(void)softhw_fabric_send(fd, &m, sizeof(m), NULL, 0);
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * How long a connection may wait before its HELLO: an importer says it at once, so one that
 * does not is a peer holding a place (the guard counts it against the caps until then).
 * SOFTDOCA_MEM_HELLO_MS changes it (tests).
 */
static uint64_t hello_ms(void)
{
	const char *v = getenv("SOFTDOCA_MEM_HELLO_MS");
	long ms = v != NULL ? strtol(v, NULL, 10) : 0;

	return ms > 0 && ms <= 600000 ? (uint64_t)ms : MEM_HELLO_TIMEOUT_MS;
}

/* A connection the guard admitted joins the table. Lock held. */
static void service_admit(void *arg, int fd, const struct softhw_peer *peer)
{
	(void)arg;
	if (svc.num_conns == svc.cap_conns) {
		unsigned cap = svc.cap_conns ? 2 * svc.cap_conns : 8;
		struct mem_conn *c = realloc(svc.conns, cap * sizeof(*c));

		if (c == NULL) {
			softhw_guard_release(&svc.guard, peer);
			close(fd); /* the importer sees the connection close and reports it */
			return;
		}
		svc.conns = c;
		svc.cap_conns = cap;
	}
	svc.conns[svc.num_conns++] = (struct mem_conn){.fd = fd, .peer = *peer, .hello_by_ms = mono_ms() + hello_ms()};
}

/* Accepts the pending connections of a listener that the guard admits (a batch at a time). */
static void service_accept(int lfd)
{
	pthread_mutex_lock(&svc.lock);
	(void)softhw_guard_accept_all(&svc.guard, lfd, service_admit, NULL); /* a backoff shows in the poll set */
	pthread_mutex_unlock(&svc.lock);
}

/* Lock held. */
static void conn_close(struct mem_conn *c)
{
	softhw_guard_release(&svc.guard, &c->peer);
	close(c->fd);
	c->fd = -1;
	if (c->bounce != NULL)
		munmap(c->bounce, c->bounce_len);
	c->bounce = NULL;
}

/* Drops closed connections from the table. */
static void service_compact(void)
{
	unsigned j = 0;

	pthread_mutex_lock(&svc.lock);
	for (unsigned i = 0; i < svc.num_conns; i++)
		if (svc.conns[i].fd >= 0)
			svc.conns[j++] = svc.conns[i];
	svc.num_conns = j;
	pthread_mutex_unlock(&svc.lock);
}

/* Tells importers of exports that ended, and hangs up on them. */
static void service_revoke(void)
{
	pthread_mutex_lock(&svc.lock);
	svc.revoke_done = svc.revoke_asked;
	for (unsigned i = 0; i < svc.num_conns; i++) {
		struct mem_conn *c = &svc.conns[i];

		if (c->fd >= 0 && c->id != 0 && export_find(c->id) == NULL) {
			struct mem_msg m = msg_make(MEM_REVOKED);

			m.id = c->id;
			(void)softhw_fabric_send(c->fd, &m, sizeof(m), NULL, 0);
			conn_close(c);
		}
	}
	pthread_cond_broadcast(&svc.revoked);
	pthread_mutex_unlock(&svc.lock);
}

/*
 * Did connection fd come in through the service point of `instance`? A DMA engine reaches
 * only the exports of its own card: the descriptor's instance must be the export's.
 */
static bool came_through(int fd, const char *instance)
{
	struct sockaddr_un want, got;
	socklen_t want_len, got_len = sizeof(got);
	struct softhw_card card;
	char name[24];

	instance_card(&card, instance);
	snprintf(name, sizeof(name), "%d", (int)getpid());
	return softhw_fabric_addr(&card, "mem", name, &want, &want_len) == DOCA_SUCCESS &&
	       getsockname(fd, (struct sockaddr *)&got, &got_len) == 0 && got_len == want_len &&
	       memcmp(&got, &want, want_len) == 0;
}

/*
 * Does the importer get the export's shared window? Only a process of our own user: the
 * window's descriptor and the control segment's stay with whoever holds them, beyond the
 * export's end (a NIC gives its pages back), and the control segment is writable (its
 * announcement words, the robust mutex's list link). A user let in by [access] (allow_uids,
 * allow_group) goes through the memory service's copies instead, which end with the export.
 */
static bool own_user(const struct mem_conn *c)
{
	return c->peer.family == AF_UNIX && c->peer.uid == geteuid();
}

static bool share_for(const struct mem_conn *c, const struct mem_export *e)
{
	return e->shared && own_user(c);
}

/* One user: the same uid on this host, the same address from another host. */
static bool same_user(const struct softhw_peer *a, const struct softhw_peer *b)
{
	if (a->family != b->family)
		return false;
	return a->family == AF_UNIX ? a->uid == b->uid : memcmp(a->addr, b->addr, sizeof(a->addr)) == 0;
}

/*
 * Lock held. Another user's proven connections: at most half of what the service keeps, so
 * one allowed user (or host) with a descriptor cannot take every slot from our own importers.
 */
static bool user_full(const struct mem_conn *c)
{
	uint32_t held = 0;

	if (own_user(c))
		return false;
	for (unsigned i = 0; i < svc.num_conns; i++)
		if (svc.conns[i].fd >= 0 && svc.conns[i].id != 0 && same_user(&svc.conns[i].peer, &c->peer))
			held++;
	return held >= svc.guard.max_total / 2;
}

static void serve_hello(struct mem_conn *c, const struct mem_msg *req, struct mem_msg *rep)
{
	static struct softhw_ratelimit rl, rl_full;
	struct mem_export *e;

	pthread_mutex_lock(&svc.lock);
	e = export_find(req->id);
	if (e == NULL) {
		rep->status = DOCA_ERROR_NOT_FOUND;
	} else if (e->token != req->token) {
		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_WARN,
				   "Memory service: process %d named export %llu with a wrong token (a stale or forged descriptor); connection closed",
				   (int)c->peer.pid, (unsigned long long)req->id);
		rep->status = DOCA_ERROR_INVALID_VALUE;
	} else if ((e->rights & SOFTHW_MEM_VIA_DMA) && !came_through(c->fd, e->instance)) {
		rep->status = DOCA_ERROR_NOT_PERMITTED;
	} else if (user_full(c)) {
		if (c->peer.family == AF_UNIX)
			SOFTHW_LOG_LIMITED(&rl_full, SDK_LOG_ERR,
					   "Memory service: the processes of uid %u hold %u imports, half of what this process serves; process %d refused (the rest stay for uid %u's own)",
					   (unsigned)c->peer.uid, svc.guard.max_total / 2, (int)c->peer.pid, (unsigned)geteuid());
		else
			SOFTHW_LOG_LIMITED(&rl_full, SDK_LOG_ERR,
					   "Memory service: a host holds %u imports, half of what this process serves; refused (the rest stay for this host's own importers)",
					   svc.guard.max_total / 2);
		rep->status = DOCA_ERROR_FULL;
	} else {
		softhw_guard_settle(&svc.guard, &c->peer);
		c->id = e->id;
		rep->addr = (uint64_t)(uintptr_t)e->addr;
		rep->len = e->len;
		rep->rights = e->rights;
		/*
		 * Cross-memory attach only for our own user (the kernel refuses it to others, but
		 * root's), into memory of this process (not a re-export's), and only with the export's
		 * liveness slot, which the importer holds around each access (MEM_SHARE).
		 */
		rep->flags = (svc.cma && e->via == NULL && own_user(c) && (e->shared || e->guarded) ? MEM_FLAG_CMA : 0) |
			     (share_for(c, e) ? MEM_FLAG_SHARED : 0);
		rep->status = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&svc.lock);
}

/*
 * The window of the export the importer said HELLO to. fds get copies of its memfd (read-only
 * for an export without write or atomic rights) and of the control segment's: the caller
 * sends and closes them after the lock is gone, while the export may end.
 */
static void serve_share(struct mem_conn *c, struct mem_msg *rep, int fds[2])
{
	struct mem_export *e;

	pthread_mutex_lock(&svc.lock);
	e = c->id != 0 ? export_find(c->id) : NULL;
	if (e == NULL) {
		rep->op = MEM_REVOKED;
	} else if (!share_for(c, e) && !(e->guarded && own_user(c))) {
		rep->status = DOCA_ERROR_NOT_SUPPORTED;
	} else {
		/* the window's memfd, then the control segment's; for a slot alone (len 0) the latter only */
		int *ctl = e->shared ? &fds[1] : &fds[0];
		char path[40];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", e->share.fd);
		if (e->shared)
			fds[0] = (e->rights & (SOFTHW_MEM_WRITE | SOFTHW_MEM_ATOMIC)) ? fcntl(e->share.fd, F_DUPFD_CLOEXEC, 0)
										       : open(path, O_RDONLY | O_CLOEXEC);
		*ctl = fcntl(softhw_share_ctl_fd(), F_DUPFD_CLOEXEC, 0);
		if (fds[0] < 0 || *ctl < 0) {
			rep->status = DOCA_ERROR_OPERATING_SYSTEM;
		} else {
			softhw_share_hold_owner(); /* before any importer can look at it */
			rep->addr = e->shared ? (uint64_t)(uintptr_t)e->share.base : (uint64_t)(uintptr_t)e->addr;
			rep->len = e->shared ? e->share.len : 0;
			rep->offset = e->share.offset;
			rep->slot = e->share.slot;
			rep->status = DOCA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&svc.lock);
}

/* A memfd that neither side can shrink or grow (a peer's, mapped here: no SIGBUS to fear). */
static bool size_sealed(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS);

	return seals >= 0 && (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) == (F_SEAL_SHRINK | F_SEAL_GROW);
}

static void serve_attach(struct mem_conn *c, int fd, struct mem_msg *rep)
{
	struct stat st;
	void *p;

	rep->status = DOCA_ERROR_INVALID_VALUE;
	/*
	 * Only after a HELLO proved the token: an unproven connection maps nothing here. And only
	 * a memfd whose size is sealed: the importer keeps its descriptor, and a file it could
	 * shrink would kill us with SIGBUS at our next copy into the mapping.
	 */
	if (fd < 0 || c->id == 0 || c->bounce != NULL || !size_sealed(fd) || fstat(fd, &st) != 0 || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SOFTHW_MEM_BOUNCE_LEN)
		return;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		rep->status = DOCA_ERROR_NO_MEMORY;
		return;
	}
	c->bounce = p;
	c->bounce_len = (size_t)st.st_size;
	rep->status = DOCA_SUCCESS;
}

/*
 * Copies between the export and the bounce buffer. Through the kernel when it lets us (it
 * always does for our own process, short of a seccomp filter): memory the application unmapped
 * or made read-only then fails with EFAULT instead of crashing the exporter.
 */
static doca_error_t self_copy(void *dst, const void *src, size_t len, bool into_export)
{
	struct iovec local = {.iov_base = into_export ? (void *)src : dst, .iov_len = len};
	struct iovec remote = {.iov_base = into_export ? dst : (void *)src, .iov_len = len};
	ssize_t n = into_export ? process_vm_writev(getpid(), &local, 1, &remote, 1, 0)
				: process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

	if (n == (ssize_t)len)
		return DOCA_SUCCESS;
	if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
		memcpy(dst, src, len);
		return DOCA_SUCCESS;
	}
	return DOCA_ERROR_IO_FAILED;
}

/* A read or write of the service path: checked against the live export, copied under the lock. */
static void serve_copy(struct mem_conn *c, const struct mem_msg *req, struct mem_msg *rep)
{
	const bool write = req->op == MEM_WRITE;
	struct mem_export *e;

	pthread_mutex_lock(&svc.lock);
	e = c->id != 0 ? export_find(c->id) : NULL;
	if (e == NULL) {
		rep->op = MEM_REVOKED;
	} else if (e->via != NULL) {
		rep->status = DOCA_ERROR_NOT_SUPPORTED; /* only the soft NIC serves a re-export */
	} else if ((e->rights & (SOFTHW_MEM_VIA_NIC | SOFTHW_MEM_VIA_DMA)) == SOFTHW_MEM_VIA_NIC) {
		/*
		 * An RDMA export is reached through a connected qp, whose target checks the rights its
		 * doca_rdma grants (rnic/target.c), as a NIC does: an rkey alone is no way in. The soft
		 * NIC never asks for these copies (its direct path is the window or CMA, else the qp).
		 */
		rep->status = DOCA_ERROR_NOT_PERMITTED;
	} else if (c->bounce == NULL || req->len == 0 || req->len > c->bounce_len) {
		rep->status = DOCA_ERROR_INVALID_VALUE;
	} else if (req->addr < (uint64_t)(uintptr_t)e->addr || req->len > e->len ||
		   req->addr - (uint64_t)(uintptr_t)e->addr > e->len - req->len) {
		rep->status = DOCA_ERROR_INVALID_VALUE;
	} else if (!(e->rights & (write ? SOFTHW_MEM_WRITE : SOFTHW_MEM_READ))) {
		rep->status = DOCA_ERROR_NOT_PERMITTED;
	} else {
		void *mem = (void *)(uintptr_t)req->addr;

		rep->status = write ? self_copy(mem, c->bounce, req->len, true) : self_copy(c->bounce, mem, req->len, false);
	}
	pthread_mutex_unlock(&svc.lock);
}

/* One request of one importer; a broken or hostile peer is hung up on. */
static void service_request(struct mem_conn *c)
{
	struct mem_msg req, rep;
	int fd = -1, nfds = 1, out_fds[2] = {-1, -1};
	ssize_t n = softhw_fabric_recv(c->fd, &req, sizeof(req), &fd, &nfds);

	if (n == -EAGAIN || n == -EINTR)
		return;
	if (nfds == 0)
		fd = -1;
	if (n != (ssize_t)sizeof(req) || req.magic != MEM_MAGIC || req.version != MEM_VERSION) {
		if (fd >= 0)
			close(fd);
		pthread_mutex_lock(&svc.lock);
		conn_close(c);
		pthread_mutex_unlock(&svc.lock);
		return;
	}
	rep = msg_make((enum mem_op)req.op);
	rep.id = req.id;
	switch (req.op) {
	case MEM_HELLO:
		serve_hello(c, &req, &rep);
		break;
	case MEM_ATTACH:
		pthread_mutex_lock(&svc.lock);
		serve_attach(c, fd, &rep);
		pthread_mutex_unlock(&svc.lock);
		break;
	case MEM_READ:
	case MEM_WRITE:
		serve_copy(c, &req, &rep);
		break;
	case MEM_SHARE:
		serve_share(c, &rep, out_fds);
		break;
	default:
		rep.status = DOCA_ERROR_NOT_SUPPORTED;
		break;
	}
	if (fd >= 0)
		close(fd); /* mapped (or refused): the descriptor itself is not needed */
	/* MEM_SHARE: the window's memfd and the control segment's, or the latter alone */
	const int send_n = rep.status != DOCA_SUCCESS ? 0 : (out_fds[0] >= 0) + (out_fds[1] >= 0);
	const ssize_t sent = softhw_fabric_send(c->fd, &rep, sizeof(rep), send_n > 0 ? out_fds : NULL, send_n);

	if (sent == -EAGAIN) {
		static struct softhw_ratelimit rl;

		/* a softdoca importer waits for each reply: this one is not, or is stopped; we do not wait */
		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_WARN,
				   "Memory service: process %d leaves its replies unread; connection closed",
				   (int)c->peer.pid);
	}
	if (sent < 0 || (req.op == MEM_HELLO && rep.status != DOCA_SUCCESS)) { /* no second guess on the same connection */
		pthread_mutex_lock(&svc.lock);
		conn_close(c);
		pthread_mutex_unlock(&svc.lock);
	}
	for (int i = 0; i < 2; i++)
		if (out_fds[i] >= 0)
			close(out_fds[i]);
}

/* Lock held: the poll's timeout until the next HELLO deadline (-1: none); *expired: one passed. */
static int hello_wait(bool *expired)
{
	uint64_t now = mono_ms(), first = UINT64_MAX;

	*expired = false;
	for (unsigned i = 0; i < svc.num_conns; i++) {
		const struct mem_conn *c = &svc.conns[i];

		if (c->fd < 0 || c->id != 0)
			continue;
		if (c->hello_by_ms <= now)
			*expired = true;
		else if (c->hello_by_ms < first)
			first = c->hello_by_ms;
	}
	if (*expired)
		return 0;
	return first == UINT64_MAX ? -1 : first - now > INT_MAX ? INT_MAX : (int)(first - now);
}

/* Lock held: closes the connections whose HELLO did not come in time (compacted later). */
static void close_silent(void)
{
	static struct softhw_ratelimit rl;
	uint64_t now = mono_ms();

	for (unsigned i = 0; i < svc.num_conns; i++) {
		struct mem_conn *c = &svc.conns[i];

		if (c->fd < 0 || c->id != 0 || c->hello_by_ms > now)
			continue;
		SOFTHW_LOG_LIMITED(&rl, SDK_LOG_WARN,
				   "Memory service: process %d connected and did not say HELLO within %llu ms; closed",
				   (int)c->peer.pid, (unsigned long long)hello_ms());
		conn_close(c);
	}
}

static void *service_main(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd *pfds;
		unsigned nl, nc;
		size_t n;
		int paused, wait;
		bool expired;

		pthread_mutex_lock(&svc.lock);
		nl = svc.num_listeners;
		nc = svc.num_conns;
		n = 1 + (size_t)nl + nc;
		if (n > svc.pfds_cap) {
			struct pollfd *p = realloc(svc.pfds, n * sizeof(*p));

			if (p != NULL) {
				svc.pfds = p;
				svc.pfds_cap = n;
			}
		}
		if (svc.pfds_cap == 0) { /* out of memory: retry in a while */
			pthread_mutex_unlock(&svc.lock);
			(void)poll(NULL, 0, 100);
			continue;
		}
		if (n > svc.pfds_cap) { /* out of memory: serve what fits, retry later */
			n = svc.pfds_cap;
			nl = nl < n - 1 ? nl : (unsigned)(n - 1);
			nc = (unsigned)(n - 1 - nl);
		}
		wait = hello_wait(&expired);
		if (expired)
			close_silent();
		pfds = svc.pfds;
		pfds[0] = (struct pollfd){.fd = svc.wake_fd, .events = POLLIN};
		/* Out of descriptors: the listeners stay readable, so they are left out for a while. */
		paused = softhw_guard_paused_ms(&svc.guard);
		for (unsigned i = 0; i < nl; i++)
			pfds[1 + i] = (struct pollfd){.fd = paused > 0 ? -1 : svc.listeners[i].fd, .events = POLLIN};
		for (unsigned i = 0; i < nc; i++)
			pfds[1 + nl + i] = (struct pollfd){.fd = svc.conns[i].fd, .events = POLLIN};
		pthread_mutex_unlock(&svc.lock);

		if (paused > 0 && (wait < 0 || paused < wait))
			wait = paused;
		if (poll(pfds, n, wait) < 0) {
			/* EINTR: go again. Anything else (EINVAL past RLIMIT_NOFILE, ENOMEM) would come
			 * back at once: back off instead of spinning, and retry with the set as it is then. */
			if (errno != EINTR)
				(void)poll(NULL, 0, 100);
			continue;
		}
		if (pfds[0].revents & POLLIN) {
			uint64_t v;

			if (read(svc.wake_fd, &v, sizeof(v)) < 0) {
				/* EAGAIN: another wake-up consumed it */
			}
			service_revoke();
		}
		for (unsigned i = 0; i < nl; i++)
			if (pfds[1 + i].revents & POLLIN || (paused > 0 && softhw_guard_paused_ms(&svc.guard) == 0))
				service_accept(svc.listeners[i].fd);
		/* conns only grow at the end between the snapshot and here: indexes stay valid */
		for (unsigned i = 0; i < nc; i++) {
			struct mem_conn *c = &svc.conns[i];

			if (c->fd < 0 || c->fd != pfds[1 + nl + i].fd)
				continue;
			if (pfds[1 + nl + i].revents & POLLIN)
				service_request(c);
			else if (pfds[1 + nl + i].revents & (POLLHUP | POLLERR | POLLNVAL)) {
				pthread_mutex_lock(&svc.lock);
				conn_close(c);
				pthread_mutex_unlock(&svc.lock);
			}
		}
		service_compact();
	}
	return NULL;
}

/* Starts the service thread once per process; lock held. */
static doca_error_t service_start(const char **why)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t tid;
	int rc;

	if (svc.started)
		return DOCA_SUCCESS;
	svc.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (svc.wake_fd < 0) {
		*why = "cannot create the service thread's eventfd";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	softhw_guard_init(&svc.guard, "The memory service of this process", softhw_access_policy(),
			  MEM_MAX_PENDING_PER_PEER, MEM_MAX_CONNS, service_refuse, NULL);
	svc.cma = !cma_disabled();
	if (svc.cma) {
		/* Where Yama restricts ptrace to descendants, let importers attach (EINVAL without Yama). */
		(void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	}
	/* The service thread takes no signals: they stay with the application's threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	rc = softhw_thread_create(&tid, &attr, service_main, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		close(svc.wake_fd);
		svc.wake_fd = -1;
		*why = "cannot start the memory service thread";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	svc.started = true;
	return DOCA_SUCCESS;
}

/* Listens on "mem"/"<pid>" of the instance unless already; lock held. */
static doca_error_t listener_ensure(const char *instance, const char **why)
{
	struct softhw_card card;
	char name[24];
	doca_error_t err;
	int fd;

	for (unsigned i = 0; i < svc.num_listeners; i++)
		if (strcmp(svc.listeners[i].instance, instance) == 0)
			return DOCA_SUCCESS;
	if (svc.num_listeners == MAX_LISTENERS) {
		*why = "this process already exports memory through too many card instances";
		return DOCA_ERROR_FULL;
	}
	instance_card(&card, instance);
	snprintf(name, sizeof(name), "%d", (int)getpid());
	err = softhw_fabric_listen(&card, "mem", name, &fd);
	if (err != DOCA_SUCCESS) {
		*why = err == DOCA_ERROR_ALREADY_EXIST ? "another process holds this process's memory service point"
						       : "cannot listen on the memory service point";
		return err;
	}
	snprintf(svc.listeners[svc.num_listeners].instance, SOFTHW_MAX_STR, "%s", instance);
	svc.listeners[svc.num_listeners++].fd = fd;
	return DOCA_SUCCESS;
}

static bool spans_overlap(uint64_t a_lo, uint64_t a_hi, uint64_t b_lo, uint64_t b_hi)
{
	return a_lo < b_hi && b_lo < a_hi;
}

/*
 * Could an importer be reaching [lo, hi) by cross-memory attach? It could through any part of
 * a live export outside that export's window. Lock held.
 */
static bool unshared_export_overlaps(uint64_t lo, uint64_t hi)
{
	for (const struct mem_export *e = svc.exports; e != NULL; e = e->next) {
		uint64_t a = (uint64_t)(uintptr_t)e->addr, b = a + e->len;

		if (e->via != NULL)
			continue; /* another process's addresses */
		uint64_t wa = e->shared ? (uint64_t)(uintptr_t)e->share.base : b;
		uint64_t wb = e->shared ? wa + e->share.len : b;

		if (spans_overlap(a, wa, lo, hi) || spans_overlap(wb, b, lo, hi))
			return true;
	}
	return false;
}

static doca_error_t export_add(const char *instance, struct softhw_mem_remote *via, void *addr, uint64_t len,
			       uint32_t rights, uint64_t *id, uint64_t *token, const char **why)
{
	const char *no_window = "";

	struct mem_export *e = calloc(1, sizeof(*e));
	doca_error_t err;

	if (e == NULL) {
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	pthread_once(&atfork_once, register_atfork);
	pthread_mutex_lock(&svc.lock);
	err = listener_ensure(instance, why);
	if (err == DOCA_SUCCESS)
		err = service_start(why);
	if (err != DOCA_SUCCESS) {
		pthread_mutex_unlock(&svc.lock);
		free(e);
		return err;
	}
	e->id = ++svc.last_id;
	e->token = softhw_token_new();
	snprintf(e->instance, sizeof(e->instance), "%s", instance);
	e->addr = addr;
	e->len = len;
	e->rights = rights;
	e->via = via;
	if (via != NULL)
		no_window = "a re-export of another process's memory";
	else
		e->shared = softhw_share_export(addr, len, e->id, unshared_export_overlaps, &e->share, &no_window);
	if (!e->shared && via == NULL) {
		const char *no_guard = "";

		/* Cross-memory attach needs the slot: the end of the export waits out each access. */
		e->guarded = softhw_share_guard(addr, e->id, &e->share, &no_guard);
		if (!e->guarded)
			SDK_LOG_DBG("Memory %p has no liveness slot (%s): importers reach it through the memory service's copies only",
				    addr, no_guard);
	}
	if (!e->shared && via == NULL)
		SDK_LOG_DBG("Memory %p (%lu bytes) is exported without a shared window (%s): importers on this host reach it by cross-memory attach",
			    addr, (unsigned long)len, no_window);
	e->next = svc.exports;
	svc.exports = e;
	*id = e->id;
	*token = e->token;
	pthread_mutex_unlock(&svc.lock);
	wake_service(); /* a new listener joins the poll set */
	return DOCA_SUCCESS;
}

doca_error_t softhw_mem_export_add(const char *instance, void *addr, uint64_t len, uint32_t rights, uint64_t *id,
				   uint64_t *token, const char **why)
{
	return export_add(instance, NULL, addr, len, rights, id, token, why);
}

doca_error_t softhw_mem_export_add_proxy(const char *instance, struct softhw_mem_remote *via, uint64_t addr,
					 uint64_t len, uint32_t rights, uint64_t *id, uint64_t *token, const char **why)
{
	if (via == NULL) {
		*why = "no import to re-export";
		return DOCA_ERROR_INVALID_VALUE;
	}
	return export_add(instance, via, (void *)(uintptr_t)addr, len, rights, id, token, why);
}

void softhw_mem_export_remove(uint64_t id)
{
	struct mem_export *gone = NULL;
	struct timespec deadline;
	uint64_t ticket;

	pthread_mutex_lock(&svc.lock);
	for (struct mem_export **p = &svc.exports; *p != NULL; p = &(*p)->next) {
		if ((*p)->id == id) {
			gone = *p;
			*p = gone->next;
			break;
		}
	}
	if (gone != NULL && (gone->shared || gone->guarded))
		softhw_share_unexport(&gone->share); /* no importer store lands after this, window or CMA */
	if (gone == NULL || !svc.started) {
		pthread_mutex_unlock(&svc.lock);
		free(gone);
		return;
	}
	free(gone);
	/*
	 * Wait until the service thread has told the importers: once the mmap is stopped, their
	 * next access fails, whichever path it takes. Bounded, in case the thread is wedged.
	 */
	ticket = ++svc.revoke_asked;
	wake_service();
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += SOFTHW_MEM_TIMEOUT_MS / 1000;
	while (svc.started && svc.revoke_done < ticket)
		if (pthread_cond_timedwait(&svc.revoked, &svc.lock, &deadline) != 0)
			break;
	pthread_mutex_unlock(&svc.lock);
}

bool softhw_mem_export_lookup(uint64_t id, uint64_t token)
{
	struct mem_export *e;
	bool found;

	pthread_mutex_lock(&svc.lock);
	e = export_find(id);
	found = e != NULL && e->token == token;
	pthread_mutex_unlock(&svc.lock);
	return found;
}

bool softhw_mem_export_by_rkey32(uint32_t rkey, uint64_t *id, uint64_t *token)
{
	struct mem_export *e;
	bool found;

	if (rkey >> 31) /* a sync event's value */
		return false;
	pthread_mutex_lock(&svc.lock);
	e = export_find(rkey >> 8);
	found = e != NULL && (e->token & 0xff) == (rkey & 0xff);
	if (found) {
		*id = e->id;
		*token = e->token;
	}
	pthread_mutex_unlock(&svc.lock);
	return found;
}

doca_error_t softhw_mem_export_pin(uint64_t id, uint64_t token, uint64_t addr, uint64_t len, uint32_t right)
{
	struct mem_export *e;
	uint64_t base;

	pthread_mutex_lock(&svc.lock);
	e = export_find(id);
	if (e == NULL || e->token != token) {
		pthread_mutex_unlock(&svc.lock);
		return DOCA_ERROR_INVALID_VALUE;
	}
	base = (uint64_t)(uintptr_t)e->addr;
	if (!(e->rights & SOFTHW_MEM_VIA_NIC) || addr < base || len > e->len || addr - base > e->len - len) {
		pthread_mutex_unlock(&svc.lock);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((e->rights & right) != right) {
		pthread_mutex_unlock(&svc.lock);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (e->via != NULL) {
		pthread_mutex_unlock(&svc.lock);
		return DOCA_ERROR_NOT_SUPPORTED; /* no memory here: softhw_mem_export_copy() */
	}
	return DOCA_SUCCESS; /* the lock is the pin: export_remove waits for it */
}

void softhw_mem_export_unpin(void)
{
	pthread_mutex_unlock(&svc.lock);
}

doca_error_t softhw_mem_export_check(uint64_t id, uint64_t token, uint64_t addr, uint64_t len, uint32_t right)
{
	doca_error_t err = softhw_mem_export_pin(id, token, addr, len, right);

	if (err == DOCA_SUCCESS)
		softhw_mem_export_unpin();
	return err == DOCA_ERROR_NOT_SUPPORTED ? DOCA_SUCCESS : err; /* a re-export passed the checks */
}

doca_error_t softhw_mem_export_copy(uint64_t id, uint64_t token, uint64_t addr, void *buf, uint64_t len, bool write)
{
	doca_error_t err = softhw_mem_export_pin(id, token, addr, len, write ? SOFTHW_MEM_WRITE : SOFTHW_MEM_READ);
	struct mem_export *e;

	if (err == DOCA_SUCCESS) {
		if (write)
			memcpy((void *)(uintptr_t)addr, buf, len);
		else
			memcpy(buf, (const void *)(uintptr_t)addr, len);
		softhw_mem_export_unpin();
		return DOCA_SUCCESS;
	}
	if (err != DOCA_ERROR_NOT_SUPPORTED)
		return err;
	/*
	 * A re-export: through the import, under the lock so that softhw_mem_export_remove() (and
	 * then the import's disconnect) waits for this copy. The import talks to another process
	 * only, never to this process's service thread, which therefore cannot wait on us.
	 */
	pthread_mutex_lock(&svc.lock);
	e = export_find(id);
	if (e == NULL || e->token != token || e->via == NULL)
		err = DOCA_ERROR_INVALID_VALUE; /* ended meanwhile */
	else
		err = write ? softhw_mem_write(e->via, addr, buf, len) : softhw_mem_read(e->via, buf, addr, len);
	pthread_mutex_unlock(&svc.lock);
	if (err == DOCA_ERROR_IO_FAILED || err == DOCA_ERROR_CONNECTION_ABORTED)
		err = DOCA_ERROR_INVALID_VALUE; /* the memory is gone: as for an export that ended */
	return err;
}

/* ---------------------------------------------------------------------------------------
 * Importer side
 * ------------------------------------------------------------------------------------ */

enum remote_state {
	REMOTE_LIVE = 0,
	REMOTE_DEAD,    /* the exporter process exited */
	REMOTE_REVOKED, /* the export ended (its mmap was stopped or destroyed) */
	REMOTE_SILENT,  /* the exporter's service thread stopped answering: a late reply could
			 * pair with a later request, so the connection is not used again */
};

struct softhw_mem_remote {
	pthread_mutex_t lock; /* the connection and the bounce buffer */
	int fd;
	pid_t pid;
	uint64_t id;
	uint64_t addr;
	uint64_t len;
	uint32_t rights;
	uint32_t flags; /* MEM_FLAG_* of the HELLO reply */
	bool cma;
	bool serialised; /* softhw_mem_peer's */
	enum remote_state state;
	bool connected; /* handshake done: failures are logged here from then on */
	char *bounce;
	size_t bounce_len;
	/* the export's shared window, if it has one: [win_addr, win_addr + win_len) */
	struct softhw_share_view *view;
	uint64_t win_addr;
	uint64_t win_len;
};

/* The error an access gets in `state`; logs the change once. Lock held. */
static doca_error_t remote_fail(struct softhw_mem_remote *r, enum remote_state state)
{
	/* During the handshake the import fails instead, and its caller logs. */
	if (r->state == REMOTE_LIVE && r->connected) {
		if (state == REMOTE_DEAD)
			SDK_LOG_ERR("Exporter process %d of remote memory 0x%lx exited: DMA on memory imported from it fails with CONNECTION_ABORTED; start the exporter again and import its new descriptor",
				    (int)r->pid, (unsigned long)r->addr);
		else if (state == REMOTE_REVOKED)
			SDK_LOG_ERR("Process %d stopped exporting memory 0x%lx (its doca_mmap was stopped or destroyed): DMA on it fails with IO_FAILED; keep the exporter's mmap started while the peer uses it",
				    (int)r->pid, (unsigned long)r->addr);
		else
			SDK_LOG_ERR("Exporter process %d of remote memory 0x%lx did not answer within %d ms (stopped or overloaded): DMA on memory imported from it fails with TIME_OUT; import its descriptor again",
				    (int)r->pid, (unsigned long)r->addr, SOFTHW_MEM_TIMEOUT_MS);
	}
	if (r->state == REMOTE_LIVE)
		__atomic_store_n(&r->state, state, __ATOMIC_RELAXED); /* (the window path reads it unlocked) */
	switch (r->state) {
	case REMOTE_DEAD:
		return DOCA_ERROR_CONNECTION_ABORTED;
	case REMOTE_SILENT:
		return DOCA_ERROR_TIME_OUT;
	default:
		return DOCA_ERROR_IO_FAILED;
	}
}

/* The exporter hung up: a revocation notice may still wait to be read, else it died. Lock held. */
static doca_error_t remote_hung_up(struct softhw_mem_remote *r)
{
	struct mem_msg m;
	ssize_t n = softhw_fabric_recv(r->fd, &m, sizeof(m), NULL, NULL);

	if (n == (ssize_t)sizeof(m) && m.magic == MEM_MAGIC && m.op == MEM_REVOKED)
		return remote_fail(r, REMOTE_REVOKED);
	if (n == (ssize_t)sizeof(m) && m.magic == MEM_MAGIC && m.op == MEM_REFUSED &&
	    (m.status == DOCA_ERROR_NOT_PERMITTED || m.status == DOCA_ERROR_FULL))
		return (doca_error_t)m.status; /* a new connection the exporter did not admit */
	return remote_fail(r, REMOTE_DEAD);
}

/*
 * Sends a request and waits for its reply, bounded by SOFTHW_MEM_TIMEOUT_MS; fds that come
 * with the reply land in rfds (room for *nrfds, then how many; NULL: none expected). Lock held.
 */
static doca_error_t remote_call_fds(struct softhw_mem_remote *r, struct mem_msg *req, int fd, struct mem_msg *rep,
				    int *rfds, int *nrfds)
{
	struct pollfd p = {.fd = r->fd};
	const int room = nrfds != NULL ? *nrfds : 0;
	ssize_t n;

	for (;;) {
		n = softhw_fabric_send(r->fd, req, sizeof(*req), fd >= 0 ? &fd : NULL, fd >= 0 ? 1 : 0);
		if (n == -EINTR)
			continue;
		if (n != -EAGAIN)
			break;
		p.events = POLLOUT;
		if (poll(&p, 1, SOFTHW_MEM_TIMEOUT_MS) == 0)
			return remote_fail(r, REMOTE_SILENT);
	}
	if (n == -EPIPE || n == -ECONNRESET || n == -ENOTCONN)
		return remote_hung_up(r);
	if (n < 0)
		return DOCA_ERROR_IO_FAILED;
	for (;;) {
		int rc;

		p.events = POLLIN;
		rc = poll(&p, 1, SOFTHW_MEM_TIMEOUT_MS);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0)
			return remote_fail(r, REMOTE_SILENT);
		if (nrfds != NULL)
			*nrfds = room; /* a recv that found nothing said 0 */
		n = softhw_fabric_recv(r->fd, rep, sizeof(*rep), rfds, nrfds);
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n == -ECONNRESET) /* the exporter closed with our request unread: its last word may still wait */
			return remote_hung_up(r);
		if (n == 0)
			return remote_fail(r, REMOTE_DEAD);
		if (n != (ssize_t)sizeof(*rep) || rep->magic != MEM_MAGIC)
			return DOCA_ERROR_IO_FAILED;
		if (rep->op == MEM_REVOKED)
			return remote_fail(r, REMOTE_REVOKED);
		if (rep->op == MEM_REFUSED) /* only ever the answer to a new connection */
			return rep->status == DOCA_ERROR_NOT_PERMITTED || rep->status == DOCA_ERROR_FULL
				       ? (doca_error_t)rep->status
				       : DOCA_ERROR_IO_FAILED;
		return rep->op == req->op ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED;
	}
}

static doca_error_t remote_call(struct softhw_mem_remote *r, struct mem_msg *req, int fd, struct mem_msg *rep)
{
	return remote_call_fds(r, req, fd, rep, NULL, NULL);
}

/*
 * Maps the export's shared window. Not having one is no error: the access then goes by
 * cross-memory attach or the service thread, as without it. Lock held.
 */
static void remote_share(struct softhw_mem_remote *r)
{
	struct mem_msg req = msg_make(MEM_SHARE), rep;
	int fds[2] = {-1, -1}, nfds = 2;
	uint64_t end;

	req.id = r->id;
	if (remote_call_fds(r, &req, -1, &rep, fds, &nfds) != DOCA_SUCCESS || rep.status != DOCA_SUCCESS) {
		/* no window, no slot: no cross-memory attach (remote_copy) */
	} else if (nfds == 1 && rep.len == 0) { /* the export's liveness slot alone */
		(void)softhw_share_view_open(-1, 0, 0, false, fds[0], rep.slot, r->id, r->serialised, &r->view);
	} else if (nfds == 2 && rep.addr >= r->addr && !__builtin_add_overflow(rep.addr, rep.len, &end) &&
		   end <= r->addr + r->len &&
		   softhw_share_view_open(fds[0], rep.offset, rep.len,
					  (r->rights & (SOFTHW_MEM_WRITE | SOFTHW_MEM_ATOMIC)) != 0, fds[1], rep.slot, r->id,
					  r->serialised, &r->view) == DOCA_SUCCESS) {
		r->win_addr = rep.addr;
		r->win_len = rep.len;
	}
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
}

/*
 * Before a cross-memory access: is the exporter still the process we verified? Its death
 * closes our connection (the pid could be reused after that); the end of the export arrives
 * as a message. One non-blocking poll. Lock held.
 */
static doca_error_t remote_check(struct softhw_mem_remote *r)
{
	struct pollfd p = {.fd = r->fd, .events = POLLIN};
	struct mem_msg m;
	ssize_t n;

	if (r->state != REMOTE_LIVE)
		return remote_fail(r, r->state);
	if (poll(&p, 1, 0) <= 0)
		return DOCA_SUCCESS;
	n = softhw_fabric_recv(r->fd, &m, sizeof(m), NULL, NULL);
	if (n == -EAGAIN || n == -EINTR)
		return DOCA_SUCCESS;
	if (n == (ssize_t)sizeof(m) && m.magic == MEM_MAGIC && m.op == MEM_REVOKED)
		return remote_fail(r, REMOTE_REVOKED);
	return remote_fail(r, REMOTE_DEAD);
}

/* Gives the exporter a bounce buffer: the service path. Lock held. */
static doca_error_t remote_attach(struct softhw_mem_remote *r)
{
	struct mem_msg req = msg_make(MEM_ATTACH), rep;
	doca_error_t err;
	void *p;
	int fd;

	if (r->bounce != NULL)
		return DOCA_SUCCESS;
	/* sealed at its size: the exporter, which gets the descriptor, cannot shrink it under us (SIGBUS) */
	fd = memfd_create("softdoca-mem-bounce", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return DOCA_ERROR_OPERATING_SYSTEM;
	if (ftruncate(fd, SOFTHW_MEM_BOUNCE_LEN) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
		close(fd);
		return DOCA_ERROR_NO_MEMORY;
	}
	p = mmap(NULL, SOFTHW_MEM_BOUNCE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return DOCA_ERROR_NO_MEMORY;
	}
	err = remote_call(r, &req, fd, &rep);
	close(fd);
	if (err == DOCA_SUCCESS)
		err = (doca_error_t)rep.status;
	if (err != DOCA_SUCCESS) {
		munmap(p, SOFTHW_MEM_BOUNCE_LEN);
		return err;
	}
	r->bounce = p;
	r->bounce_len = SOFTHW_MEM_BOUNCE_LEN;
	return DOCA_SUCCESS;
}

/* Can this process reach the exporter's memory directly? One byte read, discarded. */
static bool cma_probe(pid_t pid, uint64_t addr)
{
	char byte;
	struct iovec local = {.iov_base = &byte, .iov_len = 1};
	struct iovec remote = {.iov_base = (void *)(uintptr_t)addr, .iov_len = 1};

	return process_vm_readv(pid, &local, 1, &remote, 1, 0) == 1;
}

/* What the descriptor claims beyond the export the exporter reported, or NULL. */
static const char *claims_exceed(const struct softhw_mem_peer *p, const struct mem_msg *rep)
{
	uint32_t missing = p->rights & ~rep->rights;

	if (p->any_range)
		return (rep->rights & SOFTHW_MEM_VIA_NIC) ? NULL : "the export is no RDMA export: its id and token are no rkey";
	if (p->addr < rep->addr || p->len > rep->len || p->addr - rep->addr > rep->len - p->len)
		return "its range is not inside the exported range (widened or moved)";
	if (missing & (SOFTHW_MEM_VIA_DMA | SOFTHW_MEM_VIA_NIC))
		return "its kind differs from the export's (a PCI export passed off as an RDMA one, or the other way)";
	if (missing & SOFTHW_MEM_WRITE)
		return "it claims write access the export does not grant (read-only turned into read-write)";
	if (missing != 0)
		return "it claims rights the export does not grant";
	return NULL;
}

/*
 * Reaches the exporter's service point, checks who answers and says HELLO with the id and
 * token; then the export's range and rights are in r and the claims are checked. *answered:
 * the export itself answered (a failure after that is the descriptor's, not the reachability's).
 */
static doca_error_t remote_hello(const struct softhw_mem_peer *peer, struct softhw_mem_remote *r, bool *answered,
				 const char **why)
{
	struct mem_msg req = msg_make(MEM_HELLO), rep;
	struct softhw_card card;
	struct ucred cred;
	socklen_t cred_len = sizeof(cred);
	const char *exceeds;
	char name[24];
	doca_error_t err;

	*answered = false;
	instance_card(&card, peer->instance);
	snprintf(name, sizeof(name), "%d", (int)peer->pid);
	err = softhw_fabric_connect(&card, "mem", name, &r->fd);
	if (err != DOCA_SUCCESS) {
		r->fd = -1;
		*why = err == DOCA_ERROR_NOT_FOUND ?
			       "the exporting process is not running (it exited, or runs on another soft card); run the exporter again and import its new descriptor" :
		       err == DOCA_ERROR_NOT_PERMITTED ?
			       "the process that listens at the exporter's memory service point runs as another user (see the line before); this process does not talk to it" :
			       "cannot connect to the exporter's memory service point";
		return err;
	}
	/* The kernel, not the descriptor, says who listens there. */
	if (getsockopt(r->fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) != 0 || cred.pid != peer->pid) {
		*why = "another process answers for the exporter's pid; the descriptor is stale";
		return DOCA_ERROR_INVALID_VALUE;
	}
	req.id = peer->id;
	req.token = peer->token;
	err = remote_call(r, &req, -1, &rep);
	if (err != DOCA_SUCCESS) {
		*why = err == DOCA_ERROR_TIME_OUT ? "the exporter's memory service did not answer in time" :
		       err == DOCA_ERROR_NOT_PERMITTED ?
						    "the exporter refused this process: it runs as another user (the exporter's log names the [access] key that would allow it)" :
		       err == DOCA_ERROR_FULL ?
						    "the exporter's memory service holds as many connections as it takes (from this process, or in all); release imported mmaps, or try again later" :
						    "the exporter closed the connection during the handshake";
		return err == DOCA_ERROR_CONNECTION_ABORTED ? DOCA_ERROR_NOT_FOUND : err;
	}
	if (rep.status == DOCA_ERROR_NOT_PERMITTED) {
		*answered = true;
		*why = "its card instance is not the one the export was made through";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rep.status == DOCA_ERROR_FULL) {
		*answered = true;
		*why = "the exporter's memory service holds as many imports of this user as it serves another user (half of its connections); release imported mmaps, or try again later";
		return DOCA_ERROR_FULL;
	}
	if (rep.status != DOCA_SUCCESS) {
		*why = rep.status == DOCA_ERROR_NOT_FOUND ?
			       "the export has ended: the exporter stopped or destroyed that mmap; export it again and pass the new descriptor" :
			       "the descriptor is stale: it comes from an earlier process with the exporter's pid; pass the current descriptor";
		return DOCA_ERROR_INVALID_VALUE;
	}
	*answered = true;
	exceeds = claims_exceed(peer, &rep);
	if (exceeds != NULL) {
		*why = exceeds;
		return DOCA_ERROR_INVALID_VALUE;
	}
	r->addr = rep.addr;
	r->len = rep.len;
	r->rights = rep.rights;
	r->flags = rep.flags;
	return DOCA_SUCCESS;
}

static struct softhw_mem_remote *remote_new(const struct softhw_mem_peer *peer)
{
	struct softhw_mem_remote *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	pthread_mutex_init(&r->lock, NULL);
	r->fd = -1;
	r->pid = peer->pid;
	r->id = peer->id;
	r->serialised = peer->serialised;
	return r;
}

doca_error_t softhw_mem_connect(const struct softhw_mem_peer *peer, struct softhw_mem_remote **remote,
				const char **why)
{
	struct softhw_mem_remote *r = remote_new(peer);
	bool answered;
	doca_error_t err;

	if (r == NULL) {
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	err = remote_hello(peer, r, &answered, why);
	if (err != DOCA_SUCCESS)
		goto fail;
	if (r->flags & (MEM_FLAG_SHARED | MEM_FLAG_CMA))
		remote_share(r); /* the window, or the slot that frames cross-memory accesses */
	/* no slot to announce accesses in: the export's end could not wait for them */
	r->cma = (r->flags & MEM_FLAG_CMA) && r->view != NULL && !cma_disabled() && cma_probe(r->pid, r->addr);
	if (r->state != REMOTE_LIVE) {
		*why = "the exporter's memory service stopped answering during the handshake";
		err = DOCA_ERROR_TIME_OUT;
		goto fail;
	}
	if (!r->cma) {
		err = remote_attach(r);
		if (err != DOCA_SUCCESS) {
			*why = "cannot set up the bounce buffer of the exporter's memory service";
			goto fail;
		}
	}
	r->connected = true;
	*remote = r;
	return DOCA_SUCCESS;

fail:
	softhw_mem_disconnect(r);
	return err;
}

doca_error_t softhw_mem_verify(const struct softhw_mem_peer *peer, const char **why)
{
	struct softhw_mem_remote *r = remote_new(peer);
	bool answered;
	doca_error_t err;

	if (r == NULL) {
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	err = remote_hello(peer, r, &answered, why);
	softhw_mem_disconnect(r);
	if (err != DOCA_SUCCESS && !answered)
		return DOCA_ERROR_NOT_FOUND;
	return err;
}

void softhw_mem_disconnect(struct softhw_mem_remote *r)
{
	if (r == NULL)
		return;
	if (r->fd >= 0)
		close(r->fd);
	if (r->bounce != NULL)
		munmap(r->bounce, r->bounce_len);
	softhw_share_view_close(r->view);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

bool softhw_mem_uses_cma(const struct softhw_mem_remote *r)
{
	return r->cma;
}

bool softhw_mem_window_announced(const struct softhw_mem_remote *r)
{
	return softhw_share_view_announced(r->view);
}

/* Is [addr, addr + len) inside the shared window? */
static bool in_window(const struct softhw_mem_remote *r, uint64_t addr, uint64_t len)
{
	return r->view != NULL && addr >= r->win_addr && len <= r->win_len && addr - r->win_addr <= r->win_len - len;
}

bool softhw_mem_direct(const struct softhw_mem_remote *r, uint64_t addr, uint64_t len)
{
	return r->cma || in_window(r, addr, len);
}

/* A window access failed: the remote takes that state, as the other paths would. */
static doca_error_t window_failed(struct softhw_mem_remote *r, doca_error_t err)
{
	pthread_mutex_lock(&r->lock);
	err = remote_fail(r, err == DOCA_ERROR_CONNECTION_ABORTED ? REMOTE_DEAD : REMOTE_REVOKED);
	pthread_mutex_unlock(&r->lock);
	return err;
}

static doca_error_t check_access(const struct softhw_mem_remote *r, uint64_t addr, uint64_t len, uint32_t right)
{
	if (addr < r->addr || len > r->len || addr - r->addr > r->len - len)
		return DOCA_ERROR_INVALID_VALUE;
	if (!(r->rights & right))
		return DOCA_ERROR_NOT_PERMITTED;
	return DOCA_SUCCESS;
}

/* The fast path: process_vm_readv/writev, resumed after partial transfers. Returns 0 or errno. */
static int cma_copy(pid_t pid, char *local, uint64_t addr, uint64_t len, bool write)
{
	while (len > 0) {
		struct iovec l = {.iov_base = local, .iov_len = len};
		struct iovec rm = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
		ssize_t n = write ? process_vm_writev(pid, &l, 1, &rm, 1, 0) : process_vm_readv(pid, &l, 1, &rm, 1, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return EFAULT;
		local += n;
		addr += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

static void log_unmapped(const struct softhw_mem_remote *r, uint64_t addr, uint64_t len, bool write, const char *why)
{
	SDK_LOG_ERR("DMA %s process %d at 0x%lx (%lu bytes) failed: %s; the exporter must keep the memory of an exported mmap allocated and writable as exported",
		    write ? "into" : "from", (int)r->pid, (unsigned long)addr, (unsigned long)len, why);
}

/* The service path: bounce-buffer-sized requests to the exporter's service thread. Lock held. */
static doca_error_t service_copy(struct softhw_mem_remote *r, char *local, uint64_t addr, uint64_t len, bool write)
{
	while (len > 0) {
		uint64_t chunk = len < r->bounce_len ? len : r->bounce_len;
		struct mem_msg req = msg_make(write ? MEM_WRITE : MEM_READ), rep;
		doca_error_t err;

		req.addr = addr;
		req.len = chunk;
		if (write)
			memcpy(r->bounce, local, chunk);
		err = remote_call(r, &req, -1, &rep);
		if (err == DOCA_SUCCESS) {
			err = (doca_error_t)rep.status;
			if (err == DOCA_ERROR_IO_FAILED)
				log_unmapped(r, addr, chunk, write, "the exporter could not access it");
		}
		if (err != DOCA_SUCCESS)
			return err;
		if (!write)
			memcpy(local, r->bounce, chunk);
		local += chunk;
		addr += chunk;
		len -= chunk;
	}
	return DOCA_SUCCESS;
}

static doca_error_t remote_copy(struct softhw_mem_remote *r, char *local, uint64_t addr, uint64_t len, bool write)
{
	doca_error_t err = check_access(r, addr, len, write ? SOFTHW_MEM_WRITE : SOFTHW_MEM_READ);
	int e;

	if (err != DOCA_SUCCESS || len == 0)
		return err;
	if (in_window(r, addr, len) && __atomic_load_n(&r->state, __ATOMIC_RELAXED) == REMOTE_LIVE) {
		err = softhw_share_view_copy(r->view, addr - r->win_addr, local, len, write);
		return err == DOCA_SUCCESS ? err : window_failed(r, err);
	}
	pthread_mutex_lock(&r->lock);
	if (!r->cma) {
		err = r->state != REMOTE_LIVE ? remote_fail(r, r->state) : service_copy(r, local, addr, len, write);
		pthread_mutex_unlock(&r->lock);
		return err;
	}
	err = remote_check(r);
	pthread_mutex_unlock(&r->lock);
	if (err != DOCA_SUCCESS)
		return err;
	/*
	 * The copy itself needs no lock: the kernel moves the bytes. A chunk at a time, each inside
	 * the export's liveness slot: its end waits for the chunk under way and stops the rest, so
	 * that nothing lands once the exporter's doca_mmap_stop() / destroy has returned.
	 */
	for (;;) {
		const uint64_t n = len < SOFTHW_SHARE_COPY_CHUNK ? len : SOFTHW_SHARE_COPY_CHUNK;

		err = softhw_share_view_hold(r->view);
		if (err == DOCA_ERROR_NOT_SUPPORTED) {
			e = EPERM; /* a fork child of the importer: no slot word of its own, the service's copies */
			break;
		}
		if (err != DOCA_SUCCESS)
			return window_failed(r, err);
		e = cma_copy(r->pid, local, addr, n, write);
		softhw_share_view_release(r->view);
		if (e != 0)
			break; /* (local, addr, len: from the failed chunk on) */
		local += n;
		addr += n;
		len -= n;
		if (len == 0)
			return DOCA_SUCCESS;
	}
	pthread_mutex_lock(&r->lock);
	if (e == ESRCH) {
		err = remote_fail(r, REMOTE_DEAD);
	} else if ((e == EPERM || e == ENOSYS) && (r->rights & (SOFTHW_MEM_VIA_NIC | SOFTHW_MEM_VIA_DMA)) == SOFTHW_MEM_VIA_NIC) {
		/* An RDMA export, which the service does not copy: the soft NIC's qp carries it (cma.c). */
		r->cma = false;
		err = DOCA_ERROR_NOT_SUPPORTED;
	} else if (e == EPERM || e == ENOSYS) {
		/* Permission withdrawn since the probe: carry on through the service thread. */
		err = remote_attach(r);
		if (err == DOCA_SUCCESS) {
			r->cma = false;
			err = service_copy(r, local, addr, len, write);
		}
	} else {
		log_unmapped(r, addr, len, write, strerror(e));
		err = DOCA_ERROR_IO_FAILED;
	}
	pthread_mutex_unlock(&r->lock);
	return err;
}

doca_error_t softhw_mem_copy_direct(struct softhw_mem_remote *r, uint64_t addr, void *local, uint64_t len, bool write)
{
	doca_error_t err;

	if (!in_window(r, addr, len) || __atomic_load_n(&r->state, __ATOMIC_RELAXED) != REMOTE_LIVE)
		return softhw_mem_direct(r, addr, len) ? remote_copy(r, local, addr, len, write) : DOCA_ERROR_NOT_SUPPORTED;
	/* remote_copy's window branch, without its frame: a same-host RDMA write's whole path */
	err = check_access(r, addr, len, write ? SOFTHW_MEM_WRITE : SOFTHW_MEM_READ);
	if (err != DOCA_SUCCESS || len == 0)
		return err;
	err = softhw_share_view_copy(r->view, addr - r->win_addr, local, len, write);
	return err == DOCA_SUCCESS ? err : window_failed(r, err);
}

doca_error_t softhw_mem_read(struct softhw_mem_remote *r, void *dst, uint64_t src_addr, uint64_t len)
{
	return remote_copy(r, dst, src_addr, len, false);
}

doca_error_t softhw_mem_write(struct softhw_mem_remote *r, uint64_t dst_addr, const void *src, uint64_t len)
{
	return remote_copy(r, (char *)src, dst_addr, len, true);
}

doca_error_t softhw_mem_atomic(struct softhw_mem_remote *r, uint64_t addr, bool cmp_swap, uint64_t arg0, uint64_t arg1,
			       uint64_t *old)
{
	doca_error_t err = check_access(r, addr, sizeof(uint64_t), SOFTHW_MEM_ATOMIC);

	if (err != DOCA_SUCCESS)
		return err;
	if (addr % sizeof(uint64_t) != 0)
		return DOCA_ERROR_INVALID_VALUE;
	if (!in_window(r, addr, sizeof(uint64_t)))
		return DOCA_ERROR_NOT_SUPPORTED;
	if (__atomic_load_n(&r->state, __ATOMIC_RELAXED) != REMOTE_LIVE) {
		pthread_mutex_lock(&r->lock);
		err = remote_fail(r, r->state);
		pthread_mutex_unlock(&r->lock);
		return err;
	}
	err = softhw_share_view_atomic(r->view, addr - r->win_addr, cmp_swap, arg0, arg1, old);
	return err == DOCA_SUCCESS ? err : window_failed(r, err);
}
