/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-host RoCEv2 registry of one IPv4 address (see roce_reg.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "softhw/rnic/roce_reg.h"

#define REG_MAGIC 0x52434552u /* "RECR" */
#define REG_VERSION 2 /* 2: the connection table */

struct reg_owner {
	int32_t pid;    /* 0: free */
	uint32_t pad;
	uint64_t start; /* the process's start time (/proc/<pid>/stat field 22) */
};

struct reg_listener {
	uint64_t word; /* owner << 48 | service ID (48 bits: RDMA-CM's are port space << 16 | port) */
};

/*
 * An RDMA-CM connection of an owner. key: 0 free, else ORPHAN (its owner was reclaimed) |
 * owner << 48 | state << 40 | local comm ID; written last when made, first when freed.
 */
struct reg_conn {
	uint64_t key;
	uint64_t ids;      /* remote comm ID << 32 | peer IPv4 (host order) */
	uint64_t qpn_port; /* peer QPN << 32 | peer UDP port */
	uint64_t tid;
};

#define CONN_ORPHAN (1ull << 63)
#define CONN_OWNER(k) ((int)(((k) >> 48) & 0x7fff))
#define CONN_STATE(k) ((unsigned)(((k) >> 40) & 0xff))

struct reg_file {
	uint32_t magic;
	uint32_t version;
	uint32_t rotor; /* next slot to try: spreads reuse, so a QPN comes back late */
	uint32_t orphans; /* connections of reclaimed owners not ended yet (a hint: the table says) */
	struct reg_owner owners[ROCE_REG_OWNERS];
	struct reg_listener listeners[ROCE_REG_LISTENERS];
	uint64_t slots[ROCE_REG_SLOTS]; /* owner << 32 | qpn (the last one given, kept when freed) */
	struct reg_conn conns[ROCE_REG_CONNS];
};

struct roce_reg {
	struct reg_file *f;
	pthread_mutex_t mu; /* flock() does not exclude this process's other threads (one open file) */
	int fd;
	int self;
	uint32_t ip;
	char dir[PATH_MAX];
};

#define SID_MASK 0xffffffffffffull

static uint64_t load64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* Start time of pid, 0 if it does not exist; UINT64_MAX if /proc cannot tell. */
static uint64_t proc_start(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long start;
	ssize_t n;
	char *p;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : UINT64_MAX;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0; /* a zombie being reaped */
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (p == NULL)
		return UINT64_MAX;
	if (p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
		return 0; /* a zombie holds no socket: dead for us, whether reaped yet or not */
	/* after ")": state is field 3; start time is field 22, 19 fields on */
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p + 1, "%llu", &start) != 1)
		return UINT64_MAX;
	return start;
}

static bool owner_alive(const struct reg_owner *o)
{
	uint64_t start;

	if (o->pid <= 0)
		return false;
	start = proc_start(o->pid);
	if (start == UINT64_MAX) /* no /proc: the pid alone */
		return kill(o->pid, 0) == 0 || errno == EPERM;
	return start != 0 && start == o->start;
}

static void lock(struct roce_reg *r)
{
	pthread_mutex_lock(&r->mu);
	while (flock(r->fd, LOCK_EX) != 0 && errno == EINTR)
		;
}

static void unlock(struct roce_reg *r)
{
	(void)flock(r->fd, LOCK_UN);
	pthread_mutex_unlock(&r->mu);
}

/* Under the lock: frees what owner holds and its id; a dead owner's connections become orphans. */
static void release_owner(struct roce_reg *r, int owner)
{
	struct reg_file *f = r->f;
	char path[PATH_MAX];
	uint32_t orphans = 0;

	for (uint32_t i = 0; i < ROCE_REG_CONNS; i++) {
		uint64_t k = load64(&f->conns[i].key);

		if (k == 0 || (k & CONN_ORPHAN) || CONN_OWNER(k) != owner)
			continue;
		if (owner == r->self) {
			store64(&f->conns[i].key, 0); /* we close cleanly: our CM said what it had to */
		} else {
			store64(&f->conns[i].key, k | CONN_ORPHAN);
			orphans++;
		}
	}
	if (orphans > 0)
		__atomic_fetch_add(&f->orphans, orphans, __ATOMIC_RELEASE);

	for (uint32_t s = 0; s < ROCE_REG_SLOTS; s++) {
		uint64_t w = load64(&f->slots[s]);

		if ((int)(w >> 32) == owner)
			store64(&f->slots[s], (uint32_t)w);
	}
	for (uint32_t i = 0; i < ROCE_REG_LISTENERS; i++)
		if ((int)(load64(&f->listeners[i].word) >> 48) == owner)
			store64(&f->listeners[i].word, 0);
	if (roce_reg_owner_path(r, owner, path, sizeof(path)))
		(void)unlink(path);
	f->owners[owner].start = 0;
	__atomic_store_n(&f->owners[owner].pid, 0, __ATOMIC_RELEASE);
}

/* Under the lock: reclaims every owner whose process is gone; how many. */
static unsigned reclaim_dead(struct roce_reg *r)
{
	unsigned n = 0;

	for (int i = 1; i < ROCE_REG_OWNERS; i++)
		if (r->f->owners[i].pid != 0 && i != r->self && !owner_alive(&r->f->owners[i])) {
			release_owner(r, i);
			n++;
		}
	return n;
}

static doca_error_t check_ours(int fd, bool dir, const char **why)
{
	struct stat st;

	if (fstat(fd, &st) != 0) {
		*why = "cannot stat the RoCE registry";
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	if (st.st_uid != geteuid() || (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
		*why = dir ? "the run directory's roce folder belongs to another user"
			   : "the RoCE registry file belongs to another user";
		return DOCA_ERROR_NOT_PERMITTED;
	}
	return DOCA_SUCCESS;
}

static doca_error_t join(struct roce_reg *r, const char **why)
{
	uint64_t start = proc_start(getpid());

	lock(r);
	reclaim_dead(r);
	for (int i = 1; i < ROCE_REG_OWNERS; i++) {
		if (r->f->owners[i].pid != 0)
			continue;
		r->f->owners[i].start = start == UINT64_MAX ? 0 : start;
		__atomic_store_n(&r->f->owners[i].pid, (int32_t)getpid(), __ATOMIC_RELEASE);
		r->self = i;
		unlock(r);
		return DOCA_SUCCESS;
	}
	unlock(r);
	*why = "1023 live processes already use RoCE on this address";
	return DOCA_ERROR_FULL;
}

doca_error_t roce_reg_open(const char *run_dir, uint32_t ip, bool do_join, struct roce_reg **out, const char **why)
{
	struct roce_reg *r = calloc(1, sizeof(*r));
	char path[PATH_MAX];
	doca_error_t err = DOCA_ERROR_OPERATING_SYSTEM;
	struct stat st;
	int dfd = -1;
	void *map;

	*out = NULL;
	if (r == NULL) {
		*why = "out of memory";
		return DOCA_ERROR_NO_MEMORY;
	}
	r->fd = -1;
	r->ip = ip;
	pthread_mutex_init(&r->mu, NULL);
	if ((size_t)snprintf(r->dir, sizeof(r->dir), "%s/roce", run_dir) >= sizeof(r->dir) ||
	    (size_t)snprintf(path, sizeof(path), "%s/%u.%u.%u.%u.reg", r->dir, ip >> 24, (ip >> 16) & 0xff,
			     (ip >> 8) & 0xff, ip & 0xff) >= sizeof(path)) {
		*why = "the run directory path is too long";
		goto fail;
	}
	if (mkdir(r->dir, 0700) != 0 && errno != EEXIST) {
		*why = "cannot create the roce folder in the run directory";
		goto fail;
	}
	dfd = open(r->dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		*why = "cannot open the roce folder of the run directory";
		err = errno == EACCES ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_OPERATING_SYSTEM;
		goto fail;
	}
	err = check_ours(dfd, true, why);
	if (err != DOCA_SUCCESS)
		goto fail;
	r->fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (r->fd < 0) {
		*why = "cannot open the RoCE registry file";
		err = errno == EACCES ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_OPERATING_SYSTEM;
		goto fail;
	}
	err = check_ours(r->fd, false, why);
	if (err != DOCA_SUCCESS)
		goto fail;
	err = DOCA_ERROR_OPERATING_SYSTEM;
	lock(r);
	/* Growing it is idempotent; a file of the full size that is all zeros is a new one. */
	if (fstat(r->fd, &st) != 0 || ((size_t)st.st_size < sizeof(struct reg_file) &&
				       ftruncate(r->fd, sizeof(struct reg_file)) != 0)) {
		unlock(r);
		*why = "cannot size the RoCE registry file";
		goto fail;
	}
	map = mmap(NULL, sizeof(struct reg_file), PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (map == MAP_FAILED) {
		unlock(r);
		*why = "cannot map the RoCE registry file";
		goto fail;
	}
	r->f = map;
	/*
	 * Version 1 is version 2 without the connection table (the same header and owners): left
	 * by an older softdoca that no longer runs, it is started afresh rather than refused.
	 */
	if (r->f->magic == REG_MAGIC && r->f->version == 1) {
		bool live = false;

		(void)reclaim_dead(r);
		for (int i = 1; i < ROCE_REG_OWNERS; i++)
			live = live || r->f->owners[i].pid != 0;
		if (!live)
			memset(r->f, 0, sizeof(*r->f));
	}
	if (r->f->magic == 0) {
		r->f->version = REG_VERSION;
		__atomic_store_n(&r->f->magic, REG_MAGIC, __ATOMIC_RELEASE);
	}
	unlock(r);
	if (r->f->magic != REG_MAGIC || r->f->version != REG_VERSION) {
		*why = "the RoCE registry file is of another softdoca version; remove it when no process uses it";
		err = DOCA_ERROR_NOT_SUPPORTED;
		goto fail;
	}
	if (do_join) {
		err = join(r, why);
		if (err != DOCA_SUCCESS)
			goto fail;
	}
	close(dfd);
	*out = r;
	return DOCA_SUCCESS;
fail:
	if (dfd >= 0)
		close(dfd);
	if (r->f)
		munmap(r->f, sizeof(struct reg_file));
	if (r->fd >= 0)
		close(r->fd);
	pthread_mutex_destroy(&r->mu);
	free(r);
	return err;
}

void roce_reg_close(struct roce_reg *r)
{
	if (r == NULL)
		return;
	if (r->self != 0) {
		lock(r);
		release_owner(r, r->self);
		unlock(r);
	}
	munmap(r->f, sizeof(struct reg_file));
	close(r->fd);
	pthread_mutex_destroy(&r->mu);
	free(r);
}

int roce_reg_self(const struct roce_reg *r)
{
	return r->self;
}

bool roce_reg_owner_path(const struct roce_reg *r, int owner, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%u.%u.%u.%u.%d.sock", r->dir, r->ip >> 24, (r->ip >> 16) & 0xff,
			 (r->ip >> 8) & 0xff, r->ip & 0xff, owner);

	return n > 0 && (size_t)n < len;
}

pid_t roce_reg_owner_pid(const struct roce_reg *r, int owner)
{
	if (owner <= 0 || owner >= ROCE_REG_OWNERS)
		return 0;
	return __atomic_load_n(&r->f->owners[owner].pid, __ATOMIC_ACQUIRE);
}

static bool try_alloc(struct roce_reg *r, uint32_t *qpn)
{
	struct reg_file *f = r->f;

	for (uint32_t n = 0; n < ROCE_REG_SLOTS; n++) {
		uint32_t s = (f->rotor + n) % ROCE_REG_SLOTS;
		uint64_t w = load64(&f->slots[s]);
		uint32_t gen, q;

		if ((w >> 32) != 0)
			continue;
		gen = (((uint32_t)w >> 16) & 0xff) + 1;
		if (gen > 0xff)
			gen = 1; /* generation 0 would give QPNs 0 and 1 */
		q = gen << 16 | s;
		if (q == 0xffffff) /* the multicast QPN */
			continue;
		store64(&f->slots[s], (uint64_t)r->self << 32 | q);
		f->rotor = (s + 1) % ROCE_REG_SLOTS;
		*qpn = q;
		return true;
	}
	return false;
}

doca_error_t roce_reg_qpn_alloc(struct roce_reg *r, uint32_t *qpn)
{
	bool ok;

	if (r->self == 0)
		return DOCA_ERROR_BAD_STATE;
	lock(r);
	ok = try_alloc(r, qpn) || (reclaim_dead(r) > 0 && try_alloc(r, qpn));
	unlock(r);
	return ok ? DOCA_SUCCESS : DOCA_ERROR_FULL;
}

void roce_reg_qpn_free(struct roce_reg *r, uint32_t qpn)
{
	uint64_t *slot = &r->f->slots[qpn & 0xffff];

	lock(r);
	if (load64(slot) == ((uint64_t)r->self << 32 | qpn))
		store64(slot, qpn);
	unlock(r);
}

/* An owner id read from the file (another process of ours may have written anything): 0 if out of range. */
static int owner_in_range(uint64_t id)
{
	return id < ROCE_REG_OWNERS ? (int)id : 0;
}

int roce_reg_qpn_owner(const struct roce_reg *r, uint32_t qpn)
{
	uint64_t w = load64(&r->f->slots[qpn & 0xffff]);

	return (uint32_t)w == qpn ? owner_in_range(w >> 32) : 0;
}

/* Under the lock: the entry holding sid (-1: none), and the first free one in *free_i. */
static int find_listener(const struct roce_reg *r, uint64_t sid, int *free_i)
{
	*free_i = -1;
	for (int i = 0; i < ROCE_REG_LISTENERS; i++) {
		uint64_t w = load64(&r->f->listeners[i].word);

		if (w != 0 && (w & SID_MASK) == sid)
			return i;
		if (w == 0 && *free_i < 0)
			*free_i = i;
	}
	return -1;
}

doca_error_t roce_reg_listen(struct roce_reg *r, uint64_t sid)
{
	doca_error_t err = DOCA_ERROR_FULL;
	int held, free_i;

	if (r->self == 0 || sid == 0 || (sid & ~SID_MASK) != 0)
		return DOCA_ERROR_INVALID_VALUE;
	lock(r);
	/* A second pass only after reclaiming the dead: the holder or the lack of room may be theirs. */
	for (int pass = 0; pass < 2; pass++) {
		held = find_listener(r, sid, &free_i);
		if (held < 0 && free_i >= 0) {
			store64(&r->f->listeners[free_i].word, (uint64_t)r->self << 48 | sid);
			err = DOCA_SUCCESS;
			break;
		}
		err = held >= 0 ? DOCA_ERROR_IN_USE : DOCA_ERROR_FULL;
		if (pass > 0 || reclaim_dead(r) == 0)
			break;
	}
	unlock(r);
	return err;
}

void roce_reg_unlisten(struct roce_reg *r, uint64_t sid)
{
	lock(r);
	for (int i = 0; i < ROCE_REG_LISTENERS; i++)
		if (load64(&r->f->listeners[i].word) == ((uint64_t)r->self << 48 | sid))
			store64(&r->f->listeners[i].word, 0);
	unlock(r);
}

int roce_reg_listener_owner(const struct roce_reg *r, uint64_t sid)
{
	for (int i = 0; i < ROCE_REG_LISTENERS; i++) {
		uint64_t w = load64(&r->f->listeners[i].word);

		if (w != 0 && (w & SID_MASK) == (sid & SID_MASK) && (sid & ~SID_MASK) == 0)
			return owner_in_range(w >> 48);
	}
	return 0;
}

bool roce_reg_reclaim(struct roce_reg *r, int owner)
{
	bool done = false;

	if (owner <= 0 || owner >= ROCE_REG_OWNERS || owner == r->self)
		return false;
	lock(r);
	if (r->f->owners[owner].pid != 0 && !owner_alive(&r->f->owners[owner])) {
		release_owner(r, owner);
		done = true;
	}
	unlock(r);
	return done;
}

/* ---- RDMA-CM connections ---- */

static uint64_t conn_key(int owner, unsigned state, uint32_t local_id)
{
	return (uint64_t)owner << 48 | (uint64_t)state << 40 | local_id;
}

/* Under the lock: the entry of our local_id (-1: none), and the first free one in *free_i. */
static int find_conn(const struct roce_reg *r, uint32_t local_id, int *free_i)
{
	*free_i = -1;
	for (int i = 0; i < ROCE_REG_CONNS; i++) {
		uint64_t k = load64(&r->f->conns[i].key);

		if (k != 0 && !(k & CONN_ORPHAN) && CONN_OWNER(k) == r->self && (uint32_t)k == local_id)
			return i;
		if (k == 0 && *free_i < 0)
			*free_i = i;
	}
	return -1;
}

/* Under the lock, the table full: frees entries naming an owner id nobody holds (scribbles, leftovers). */
static void conn_sweep(struct roce_reg *r)
{
	for (int i = 0; i < ROCE_REG_CONNS; i++) {
		uint64_t k = load64(&r->f->conns[i].key);
		int o = CONN_OWNER(k);

		if (k != 0 && !(k & CONN_ORPHAN) &&
		    (o <= 0 || o >= ROCE_REG_OWNERS || __atomic_load_n(&r->f->owners[o].pid, __ATOMIC_ACQUIRE) == 0))
			store64(&r->f->conns[i].key, 0);
	}
}

doca_error_t roce_reg_conn_set(struct roce_reg *r, const struct roce_reg_conn *c)
{
	struct reg_conn *e;
	int i, free_i;

	if (r->self == 0 || c->state < ROCE_REG_CONN_SETUP || c->state > ROCE_REG_CONN_REQ ||
	    roce_reg_comm_id_owner(c->local_id) != r->self)
		return DOCA_ERROR_INVALID_VALUE;
	lock(r);
	i = find_conn(r, c->local_id, &free_i);
	if (i < 0 && free_i < 0) {
		conn_sweep(r);
		i = find_conn(r, c->local_id, &free_i);
	}
	if (i < 0)
		i = free_i;
	if (i < 0) {
		unlock(r);
		return DOCA_ERROR_FULL;
	}
	e = &r->f->conns[i];
	/* a reader under the lock only: the key last keeps a half-made entry out of a crashed writer's table */
	store64(&e->key, 0);
	store64(&e->ids, (uint64_t)c->remote_id << 32 | c->peer_ip);
	store64(&e->qpn_port, (uint64_t)(c->peer_qpn & 0xffffff) << 32 | c->peer_port);
	store64(&e->tid, c->tid);
	store64(&e->key, conn_key(r->self, c->state, c->local_id));
	unlock(r);
	return DOCA_SUCCESS;
}

void roce_reg_conn_clear(struct roce_reg *r, uint32_t local_id)
{
	int i, free_i;

	if (r->self == 0)
		return;
	lock(r);
	i = find_conn(r, local_id, &free_i);
	if (i >= 0)
		store64(&r->f->conns[i].key, 0);
	unlock(r);
}

bool roce_reg_conn_orphans_pending(const struct roce_reg *r)
{
	return __atomic_load_n(&r->f->orphans, __ATOMIC_ACQUIRE) != 0;
}

/* An entry read from the file: does it describe something we may send for? */
static bool conn_sane(uint64_t k, const struct roce_reg_conn *c)
{
	int owner = CONN_OWNER(k);

	return owner > 0 && owner < ROCE_REG_OWNERS && roce_reg_comm_id_owner(c->local_id) == owner &&
	       (k & 0xff00000000ull) == 0 && /* bits no writer sets */
	       c->state >= ROCE_REG_CONN_SETUP && c->state <= ROCE_REG_CONN_REQ &&
	       /* a REQ's peer has no QP for us yet (its REP names it) */
	       (c->state == ROCE_REG_CONN_REQ ? c->peer_qpn == 0 : c->peer_qpn > 1 && c->peer_qpn < 0xffffff) &&
	       c->peer_ip != 0 && c->peer_ip < 0xe0000000u &&
	       c->peer_port != 0;
}

unsigned roce_reg_conn_orphans(struct roce_reg *r, struct roce_reg_conn *out, unsigned max, unsigned *bad)
{
	unsigned n = 0, taken = 0;

	*bad = 0;
	if (max == 0 || !roce_reg_conn_orphans_pending(r))
		return 0;
	lock(r);
	for (int i = 0; i < ROCE_REG_CONNS && n < max; i++) {
		struct reg_conn *e = &r->f->conns[i];
		uint64_t k = load64(&e->key), ids, qp;
		struct roce_reg_conn c;

		if (!(k & CONN_ORPHAN))
			continue;
		ids = load64(&e->ids);
		qp = load64(&e->qpn_port);
		c = (struct roce_reg_conn){.state = (uint8_t)CONN_STATE(k), .local_id = (uint32_t)k,
					   .remote_id = (uint32_t)(ids >> 32), .peer_ip = (uint32_t)ids,
					   .peer_qpn = (uint32_t)(qp >> 32), .peer_port = (uint16_t)qp,
					   .tid = load64(&e->tid)};
		store64(&e->key, 0);
		taken++;
		if ((qp >> 16 & 0xffff) != 0 || !conn_sane(k, &c))
			(*bad)++;
		else
			out[n++] = c;
	}
	/* the count is a hint another process may have scribbled on: recounted whenever we got to the end */
	if (n < max) {
		__atomic_store_n(&r->f->orphans, 0, __ATOMIC_RELEASE);
	} else {
		uint32_t left = __atomic_load_n(&r->f->orphans, __ATOMIC_ACQUIRE);

		__atomic_store_n(&r->f->orphans, left > taken ? left - taken : 1, __ATOMIC_RELEASE);
	}
	unlock(r);
	return n;
}

size_t roce_reg_slots_offset(void)
{
	return offsetof(struct reg_file, slots);
}

size_t roce_reg_listeners_offset(void)
{
	return offsetof(struct reg_file, listeners);
}

size_t roce_reg_conns_offset(void)
{
	return offsetof(struct reg_file, conns);
}

size_t roce_reg_conn_size(void)
{
	return sizeof(struct reg_conn);
}
