/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared windows of exported memory (see share.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "softhw/base/futex.h"
#include "softhw/base/membarrier.h"
#include "softhw/base/sdk_log.h"
#include "softhw/fabric/share.h"
#include "softhw/fabric/threads.h"

SDK_LOG_REGISTER(SOFTHW_FABRIC_SHARE);

#define SHARE_SLOTS 1024u
#define SHARE_ACCESSORS 256u
#define UNEXPORT_WAIT_MS 1000 /* for an importer that died or stopped inside an access (a chunk of a copy) */

/* One cache line per slot: importers of different exports do not share lines. */
struct share_slot {
	uint64_t live;  /* the export's id while live, else 0 */
	uint32_t busy;  /* importer accesses in progress (a futex word) */
	uint32_t unused;
	char pad[48];
};

/*
 * An importer's view whose accesses one caller serialises (the soft NIC's, under its qp lock)
 * announces them here with plain stores, where a counted access (`busy`) takes two atomic
 * read-modify-writes, each the price of a small task. The exporter makes those stores visible
 * to itself with membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) before it reads them, as liburcu
 * does with its readers. One cache line each: importers do not share lines. A word names its
 * claimer's pid beside the slot, in one CAS, so an importer that finds every word taken can
 * take back those of processes that are gone (they died without closing their views).
 */
struct share_acc {
	uint64_t own; /* the claimer's pid << 32 | the slot + 1 it was claimed for (a CAS from 0), 0 free */
	uint32_t act; /* 1 while inside an access (a futex word) */
	uint32_t unused;
	char pad[48];
};

static uint32_t acc_slot(const struct share_acc *a)
{
	return (uint32_t)__atomic_load_n(&a->own, __ATOMIC_ACQUIRE); /* (the slot + 1, or 0) */
}

struct share_ctl {
	union {
		pthread_mutex_t owner; /* robust; held by the memory service thread for life */
		char line[64];
	} o;
	struct share_slot slots[SHARE_SLOTS];
	union {
		uint32_t fast; /* the exporter has membarrier's global expedited barrier: acc may be used */
		char line[64];
	} mb;
	struct share_acc acc[SHARE_ACCESSORS];
};

/* The kernel's page size (4 KiB, 16 KiB, 64 KiB): what mremap moves. */
static uint64_t page_size(void)
{
	static uint64_t size;

	if (size == 0) {
		long v = sysconf(_SC_PAGESIZE);

		size = v > 0 ? (uint64_t)v : 4096;
	}
	return size;
}

static uint64_t ctl_len(void)
{
	return (sizeof(struct share_ctl) + page_size() - 1) / page_size() * page_size();
}

/* A range this process moved onto a memfd; memfd offset 0 is `base`. */
struct softhw_share_region {
	struct softhw_share_region *next;
	char *base;
	uint64_t len;
	int fd;
	ino_t ino;
	dev_t dev;
	unsigned grants; /* live exports using it */
};

/*
 * Softdoca's service threads store into application memory outside exports (a posted
 * receive, a read's destination, an atomic's result) under the read side; a move takes the
 * write side, so no such store falls between its copy and its swap.
 */
static pthread_rwlock_t store_lock = PTHREAD_RWLOCK_INITIALIZER;

/* Exporter state; the caller (mem.c) serialises every call with its export lock. */
static struct {
	struct softhw_share_region *regions;
	int ctl_fd;
	struct share_ctl *ctl;
	bool held;
	bool mb_fast; /* what ctl->mb.fast advertises, kept here: importers can write the segment */
	uint8_t slot_state[SHARE_SLOTS]; /* 0 free, 1 used, 2 retired (an importer died inside) */
} ex = {.ctl_fd = -1};

static bool share_disabled(void)
{
	const char *v = getenv("SOFTDOCA_FABRIC_SHARE");

	return v != NULL && (strcmp(v, "0") == 0 || strcmp(v, "off") == 0 || strcmp(v, "no") == 0 ||
			     strcmp(v, "false") == 0);
}

/* ---- /proc/self/maps ---- */

struct vma {
	uint64_t lo, hi, offset;
	ino_t ino;
	dev_t dev;
	char perms[5];
	bool anon;  /* private anonymous memory the move may take (heap, anonymous mmap) */
	bool uring; /* an io_uring instance's rings */
	bool aio;   /* an AIO context's ring (io_setup) */
};

/* The mappings of this process in address order; NULL when /proc cannot be read. */
static struct vma *maps_read(size_t *n)
{
	FILE *f = fopen("/proc/self/maps", "re");
	struct vma *v = NULL;
	size_t cap = 0, len = 0;
	char *line = NULL;
	size_t line_cap = 0;

	*n = 0;
	if (f == NULL)
		return NULL;
	while (getline(&line, &line_cap, f) > 0) {
		struct vma m = {0};
		unsigned long lo, hi, off, ino;
		unsigned int dmaj, dmin;
		int path = 0;
		const char *p;

		if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu %n", &lo, &hi, m.perms, &off, &dmaj, &dmin, &ino, &path) < 7)
			continue;
		m.lo = lo;
		m.hi = hi;
		m.offset = off;
		m.ino = (ino_t)ino;
		m.dev = makedev(dmaj, dmin);
		p = line + path;
		m.anon = strcmp(m.perms, "rw-p") == 0 && ino == 0 &&
			 (*p == '\n' || *p == '\0' || strncmp(p, "[heap]", 6) == 0 || strncmp(p, "[anon:", 6) == 0);
		m.uring = strncmp(p, "anon_inode:[io_uring]", 21) == 0;
		m.aio = strncmp(p, "/[aio]", 6) == 0;
		if (len == cap) {
			struct vma *nv = realloc(v, (cap ? 2 * cap : 64) * sizeof(*v));

			if (nv == NULL) {
				free(v);
				v = NULL;
				break;
			}
			v = nv;
			cap = cap ? 2 * cap : 64;
		}
		v[len++] = m;
	}
	free(line);
	fclose(f);
	*n = v != NULL ? len : 0;
	return v;
}

/* Do the mappings cover [lo, hi) without a gap, each passing `ok`? */
static bool maps_cover(const struct vma *v, size_t n, uint64_t lo, uint64_t hi,
		       bool (*ok)(const struct vma *m, const void *arg), const void *arg)
{
	uint64_t at = lo;

	for (size_t i = 0; i < n && at < hi; i++) {
		if (v[i].hi <= at)
			continue;
		if (v[i].lo > at || !ok(&v[i], arg))
			return false;
		at = v[i].hi;
	}
	return at >= hi;
}

static bool is_anon(const struct vma *m, const void *arg)
{
	(void)arg;
	return m->anon;
}

/* A mapping of region `arg` at the offset its address implies. */
static bool is_region(const struct vma *m, const void *arg)
{
	const struct softhw_share_region *r = arg;

	return m->ino == r->ino && m->dev == r->dev && m->perms[3] == 's' && m->lo >= (uint64_t)(uintptr_t)r->base &&
	       m->offset == m->lo - (uint64_t)(uintptr_t)r->base;
}

/* Does any mapping of the process still show the region? */
static bool region_mapped(const struct vma *v, size_t n, const struct softhw_share_region *r)
{
	for (size_t i = 0; i < n; i++)
		if (is_region(&v[i], r))
			return true;
	return false;
}

/* ---- stores a move could lose ---- */

/* Why a move is not safe, with the details that help to avoid it (serialised by the export lock). */
static char unsafe_text[400];

/* Kinds of reasons, each logged once at INFO (then at DEBUG): the application can act on them. */
enum unsafe_kind {
	UNSAFE_THREADS, /* other application threads run: the usual case, DEBUG only */
	UNSAFE_URING,
	UNSAFE_AIO,
	UNSAFE_SHARER,
	UNSAFE_UNSURE,
	UNSAFE_KINDS
};

/*
 * A fixed buffer of ring `fd` that overlaps [lo, hi): its address (and *len), else 0. Recent
 * kernels list them in the ring's fdinfo ("UserBufs:", then "<index>: 0x<addr>/<len>").
 */
static uint64_t uring_fixed_buffer(int fd, uint64_t lo, uint64_t hi, unsigned *len)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	bool listing = false;
	uint64_t found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (f == NULL)
		return 0;
	while (found == 0 && getline(&line, &cap, f) > 0) {
		unsigned long long addr;
		unsigned index, l;

		if (strncmp(line, "UserBufs:", 9) == 0)
			listing = true;
		else if (!listing || sscanf(line, " %u: 0x%llx/%u", &index, &addr, &l) != 3)
			listing = false;
		else if (addr < hi && addr + l > lo) {
			found = addr;
			*len = l;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * The io_uring instances' fds of this process: the first one, or the first with a fixed buffer
 * over [lo, hi) (*buf, *len); -1 when there is none, -2 when unsure.
 */
static int uring_fd(uint64_t lo, uint64_t hi, uint64_t *buf, unsigned *len)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int found = -1;

	if (d == NULL)
		return -2;
	while (*buf == 0 && (de = readdir(d)) != NULL) {
		char link[32];
		ssize_t n;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		n = readlinkat(dirfd(d), de->d_name, link, sizeof(link) - 1);
		if (n <= 0 || (link[n] = '\0', strcmp(link, "anon_inode:[io_uring]") != 0))
			continue;
		*buf = uring_fixed_buffer(atoi(de->d_name), lo, hi, len);
		if (found < 0 || *buf != 0)
			found = atoi(de->d_name);
	}
	closedir(d);
	return found;
}

/*
 * The kernel completing I/O into the pages: an io_uring read in flight completes by a task_work
 * that runs on any return to user space (between the move's copy and its swap, say), AIO
 * direct I/O and io_uring fixed buffers hold the old pages. None of it can be seen or held off
 * from here, so a process with a ring or an AIO context gets no move. NULL when it has none.
 */
static const char *io_hazard(const struct vma *v, size_t n, uint64_t lo, uint64_t hi, enum unsafe_kind *kind)
{
	bool mapped_ring = false;
	unsigned len = 0;
	uint64_t buf = 0;
	int ring;

	for (size_t i = 0; i < n; i++) {
		if (v[i].aio) {
			*kind = UNSAFE_AIO;
			return "this process has an AIO context (io_setup): direct I/O in flight into these pages would complete into the old copy and be lost (export before io_setup(), or after io_destroy())";
		}
		mapped_ring = mapped_ring || v[i].uring;
	}
	ring = uring_fd(lo, hi, &buf, &len);
	*kind = UNSAFE_URING;
	if (ring == -2)
		return "cannot list /proc/self/fd to look for io_uring instances";
	if (buf != 0) {
		snprintf(unsafe_text, sizeof(unsafe_text),
			 "io_uring fixed buffer 0x%llx (%u bytes, ring fd %d) covers these pages: moved, they would go stale (the ring keeps the old pages); register fixed buffers after exporting",
			 (unsigned long long)buf, len, ring);
		return unsafe_text;
	}
	if (ring >= 0 || mapped_ring) {
		char where[32] = "its rings are mapped";

		if (ring >= 0)
			snprintf(where, sizeof(where), "fd %d", ring);
		snprintf(unsafe_text, sizeof(unsafe_text),
			 "this process has an io_uring instance (%s): a read in flight into these pages would complete into the old copy and be lost; create rings after exporting",
			 where);
		return unsafe_text;
	}
	return NULL;
}

/*
 * Why moving [lo, hi) now (onto a window or back) could lose a store that no lock of ours
 * holds off, or NULL: another application thread, the kernel's I/O, or another process on our
 * memory (checked in that order: the cheapest and most common first). v: the maps.
 */
static const char *move_unsafe(const struct vma *v, size_t n, uint64_t lo, uint64_t hi, enum unsafe_kind *kind)
{
	const char *why, *unsure = "";
	pid_t sharer;

	*kind = UNSAFE_THREADS;
	if (!softhw_threads_only_caller())
		return "other application threads run";
	why = io_hazard(v, n, lo, hi, kind);
	if (why != NULL)
		return why;
	sharer = softhw_threads_mm_sharer(&unsure);
	*kind = sharer > 0 ? UNSAFE_SHARER : UNSAFE_UNSURE;
	if (sharer > 0)
		snprintf(unsafe_text, sizeof(unsafe_text),
			 "process %d runs on this process's memory (clone(CLONE_VM) without CLONE_THREAD) and is not in /proc/self/task: its stores during the move would be lost; export before starting it",
			 (int)sharer);
	else if (sharer < 0)
		snprintf(unsafe_text, sizeof(unsafe_text),
			 "cannot tell whether another process runs on this process's memory (clone(CLONE_VM)): %s", unsure);
	return sharer == 0 ? NULL : unsafe_text;
}

/* A reason the application can act on is logged at INFO the first time, later at DEBUG. */
static bool unsafe_first(enum unsafe_kind kind)
{
	static bool logged[UNSAFE_KINDS];
	bool first = kind != UNSAFE_THREADS && !logged[kind];

	logged[kind] = true;
	return first;
}

/* ---- the move ---- */

static bool page_is_zero(const char *p)
{
	const uint64_t *q = (const uint64_t *)(const void *)p;

	for (size_t i = 0; i < page_size() / sizeof(*q); i++)
		if (q[i] != 0)
			return false;
	return true;
}

/*
 * Copies the pages that hold data (untouched pages stay unallocated on both sides). With a
 * memfd destination, its pages are allocated first, run by run: running out of memory is then
 * an error here, not a SIGBUS in the middle of the copy.
 */
static bool copy_pages(char *dst, int dst_fd, const char *src, uint64_t len)
{
	const uint64_t pg = page_size();

	for (uint64_t o = 0; o < len;) {
		uint64_t end = o;

		while (end < len && !page_is_zero(src + end))
			end += pg;
		if (end > o) {
			if (dst_fd >= 0 && fallocate(dst_fd, 0, (off_t)o, (off_t)(end - o)) != 0)
				return false;
			memcpy(dst + o, src + o, end - o);
		}
		o = end + pg;
	}
	return true;
}

/* Moves [lo, lo + len) of private anonymous memory onto a new memfd. */
static struct softhw_share_region *move_to_memfd(char *lo, uint64_t len, const char **why)
{
	struct softhw_share_region *r = calloc(1, sizeof(*r));
	sigset_t all, old;
	struct stat st;
	void *tmp;

	if (r == NULL) {
		*why = "out of memory";
		return NULL;
	}
	/* sealed at this size: an importer's mapping can never lose pages under it */
	r->fd = memfd_create("softdoca-export", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	/*
	 * 0400 once sized: no other user can open it for writing through /proc (memfds start as
	 * 0777). A process of our user owns it and could fchmod it back: the read-only fd of a
	 * read-only export binds softdoca's importer, not such a process. This fd stays writable.
	 */
	if (r->fd < 0 || ftruncate(r->fd, (off_t)len) != 0 || fchmod(r->fd, 0400) != 0 ||
	    fcntl(r->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 || fstat(r->fd, &st) != 0) {
		*why = "cannot create a memfd of that size";
		goto fail;
	}
	tmp = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (tmp == MAP_FAILED) {
		*why = "cannot map the memfd";
		goto fail;
	}
	/* a child that runs no atfork handler (_Fork) must not share the window: it gets none */
	if (madvise(tmp, len, MADV_DONTFORK) != 0) {
		munmap(tmp, len);
		*why = "cannot keep the window out of fork children (MADV_DONTFORK)";
		goto fail;
	}
	/* No signal handler of this thread, no service thread may store into the pages meanwhile. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_rwlock_wrlock(&store_lock);
	if (!copy_pages(tmp, r->fd, lo, len)) {
		*why = "out of memory for the shared copy";
	} else if (mremap(tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, lo) == MAP_FAILED) {
		*why = "mremap over the exported pages failed";
	} else {
		tmp = NULL;
	}
	pthread_rwlock_unlock(&store_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (tmp != NULL) {
		munmap(tmp, len);
		goto fail;
	}
	r->base = lo;
	r->len = len;
	r->ino = st.st_ino;
	r->dev = st.st_dev;
	return r;

fail:
	if (r->fd >= 0)
		close(r->fd);
	free(r);
	return NULL;
}

/* Gives a mapping of a region back private pages with the same contents and protection. */
static void make_private(const struct vma *m)
{
	uint64_t len = m->hi - m->lo;
	char *at = (char *)(uintptr_t)m->lo;
	int prot = (m->perms[0] == 'r' ? PROT_READ : 0) | (m->perms[1] == 'w' ? PROT_WRITE : 0) |
		   (m->perms[2] == 'x' ? PROT_EXEC : 0);
	void *tmp = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (tmp == MAP_FAILED)
		return; /* stays shared with the parent: better than losing its contents */
	if (m->perms[0] != 'r')
		(void)mprotect(at, len, PROT_READ); /* (restored below) */
	(void)copy_pages(tmp, -1, at, len);
	if (mremap(tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, at) == MAP_FAILED) {
		munmap(tmp, len);
		return;
	}
	if (prot != (PROT_READ | PROT_WRITE))
		(void)mprotect(at, len, prot); /* (the original's protection, on the new pages) */
}

/* ---- the control segment ---- */

static bool membarrier_global_ok(void)
{
	long cmds = softhw_membarrier(MEMBARRIER_CMD_QUERY);

	return cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) && (cmds & MEMBARRIER_CMD_GLOBAL);
}

static bool ctl_ensure(const char **why)
{
	pthread_mutexattr_t a;
	void *p;

	if (ex.ctl != NULL)
		return true;
	ex.ctl_fd = memfd_create("softdoca-share-ctl", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (ex.ctl_fd < 0 || fchmod(ex.ctl_fd, 0600) != 0 || ftruncate(ex.ctl_fd, (off_t)ctl_len()) != 0 ||
	    fcntl(ex.ctl_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
		goto fail;
	p = mmap(NULL, ctl_len(), PROT_READ | PROT_WRITE, MAP_SHARED, ex.ctl_fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	ex.ctl = p;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&ex.ctl->o.owner, &a);
	pthread_mutexattr_destroy(&a);
	ex.mb_fast = membarrier_global_ok();
	ex.ctl->mb.fast = ex.mb_fast;
	return true;

fail:
	if (ex.ctl_fd >= 0)
		close(ex.ctl_fd);
	ex.ctl_fd = -1;
	*why = "cannot create the control segment";
	return false;
}

int softhw_share_ctl_fd(void)
{
	return ex.ctl_fd;
}

void softhw_share_hold_owner(void)
{
	if (ex.ctl != NULL && !ex.held) {
		pthread_mutex_lock(&ex.ctl->o.owner);
		ex.held = true;
	}
}

/*
 * The kernel writes the robust futex word on the owner's exit: owner tid 0 with
 * FUTEX_OWNER_DIED (glibc keeps that word first in pthread_mutex_t).
 */
static bool owner_gone(struct share_ctl *c)
{
	uint32_t w = __atomic_load_n((uint32_t *)(void *)&c->o.owner, __ATOMIC_ACQUIRE);

	return (w & FUTEX_TID_MASK) == 0 || (w & FUTEX_OWNER_DIED) != 0;
}

/* ---- exporter ---- */

static void region_unlist(struct softhw_share_region *r)
{
	for (struct softhw_share_region **pp = &ex.regions; *pp != NULL; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	close(r->fd);
	free(r);
}

/*
 * The last export of r just ended: its pages are still the application's exported buffer, so
 * they can become private again when a move is safe (as for the move onto the window).
 * Otherwise they stay shared, and listed so that a fork child still privatizes them. Giving
 * them back later would not be safe: by then they may hold anybody's heap objects, which
 * softdoca's own threads store into without the store lock. Nor can fork children do without
 * them (MADV_DONTFORK): glibc's fork touches some of its heap objects before any handler runs.
 */
static void region_give_back(struct softhw_share_region *r, const char *unsafe)
{
	size_t n;
	struct vma *v = maps_read(&n);
	enum unsafe_kind kind = UNSAFE_THREADS;
	sigset_t all, old;
	bool mapped;

	if (v == NULL)
		return;
	mapped = region_mapped(v, n, r);
	if (mapped && unsafe == NULL)
		unsafe = move_unsafe(v, n, (uint64_t)(uintptr_t)r->base, (uint64_t)(uintptr_t)r->base + r->len, &kind);
	if (mapped && unsafe == NULL) {
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		pthread_rwlock_wrlock(&store_lock);
		for (size_t i = 0; i < n; i++)
			if (is_region(&v[i], r))
				make_private(&v[i]);
		pthread_rwlock_unlock(&store_lock);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		region_unlist(r);
	} else if (!mapped) {
		region_unlist(r);
	} else {
		for (size_t i = 0; i < n; i++)
			if (is_region(&v[i], r))
				(void)madvise((void *)(uintptr_t)v[i].lo, v[i].hi - v[i].lo, MADV_DOFORK);
		if (unsafe_first(kind))
			SDK_LOG_INFO("Shared memory at %p (%lu bytes) stays shared after its last export, so that no store is lost (fork() children still get a private copy; _Fork() children share it): %s",
				     r->base, (unsigned long)r->len, unsafe);
		else
			SDK_LOG_DBG("Shared memory at %p (%lu bytes) stays shared after its last export: %s", r->base,
				    (unsigned long)r->len, unsafe);
	}
	free(v);
}

/* Regions without exports that no mapping shows any more (the application unmapped them). */
static void regions_prune(const struct vma *v, size_t n)
{
	struct softhw_share_region *r = ex.regions, *next;

	for (; r != NULL; r = next) {
		next = r->next;
		if (r->grants == 0 && !region_mapped(v, n, r))
			region_unlist(r);
	}
}

/*
 * A free liveness slot, or SHARE_SLOTS. A retired one (its end gave up on an importer inside an
 * access) is free again once nothing is inside it any more: its count back at 0 and no word of
 * it active. (Otherwise each importer that died inside an access would cost a slot for good.)
 */
static uint32_t slot_find(void)
{
	for (uint32_t slot = 0; slot < SHARE_SLOTS; slot++) {
		bool quiet = true;

		if (ex.slot_state[slot] == 0)
			return slot;
		if (ex.slot_state[slot] != 2 || __atomic_load_n(&ex.ctl->slots[slot].busy, __ATOMIC_ACQUIRE) != 0)
			continue;
		for (uint32_t k = 0; k < SHARE_ACCESSORS && quiet; k++)
			quiet = acc_slot(&ex.ctl->acc[k]) != slot + 1 || __atomic_load_n(&ex.ctl->acc[k].act, __ATOMIC_ACQUIRE) == 0;
		if (quiet) {
			ex.slot_state[slot] = 0;
			return slot;
		}
	}
	return SHARE_SLOTS;
}

/* Slot `slot` is export `id`'s from now on (its count is 0: every access counted in was counted out). */
static void slot_open(struct softhw_share_grant *g, uint32_t slot, uint64_t id)
{
	g->slot = slot;
	ex.slot_state[slot] = 1;
	__atomic_store_n(&ex.ctl->slots[slot].live, id, __ATOMIC_RELEASE);
}

bool softhw_share_export(void *addr, uint64_t len, uint64_t id, bool (*conflict)(uint64_t lo, uint64_t hi),
			 struct softhw_share_grant *g, const char **why)
{
	const uint64_t pg = page_size();
	uint64_t lo = ((uint64_t)(uintptr_t)addr + pg - 1) & ~(pg - 1);
	uint64_t hi = ((uint64_t)(uintptr_t)addr + len) & ~(pg - 1);
	struct softhw_share_region *r = NULL;
	enum unsafe_kind kind;
	const char *unsafe;
	struct vma *v;
	size_t n;
	uint32_t slot;

#ifndef __GLIBC__
	*why = "needs glibc's robust mutexes";
	return false;
#else
	if ((uint64_t)(uintptr_t)addr + len < (uint64_t)(uintptr_t)addr || hi <= lo) {
		*why = "holds no whole page";
		return false;
	}
	if (share_disabled()) {
		*why = "SOFTDOCA_FABRIC_SHARE=0";
		return false;
	}
	slot = slot_find();
	if (slot == SHARE_SLOTS) {
		*why = "every liveness slot is taken";
		return false;
	}
	if (!ctl_ensure(why))
		return false;
	v = maps_read(&n);
	if (v == NULL) {
		*why = "cannot read /proc/self/maps";
		return false;
	}
	regions_prune(v, n);
	for (struct softhw_share_region *q = ex.regions; q != NULL && r == NULL; q = q->next)
		if (maps_cover(v, n, lo, hi, is_region, q))
			r = q; /* already moved (another export of the same pages) */
	if (r != NULL && ((uint64_t)(uintptr_t)r->base != lo || r->len != hi - lo)) {
		/* Its importers would get the whole memfd, and with it pages outside this export. */
		*why = "its pages are part of a larger window of another export";
		r = NULL;
	} else if (r != NULL) {
		/* (pages of a window that outlived its exports went back to fork children) */
		(void)madvise((void *)(uintptr_t)lo, hi - lo, MADV_DONTFORK);
	} else if (conflict(lo, hi)) {
		*why = "an export without a window covers these pages";
	} else if (!maps_cover(v, n, lo, hi, is_anon, NULL)) {
		*why = "not private anonymous memory";
	} else if ((unsafe = move_unsafe(v, n, lo, hi, &kind)) != NULL) {
		*why = unsafe;
		if (unsafe_first(kind))
			SDK_LOG_INFO("Memory at %p (%lu bytes) stays private memory, without a shared window, so that no store is lost: %s. Importers on this host reach it by cross-memory attach (slower)",
				     addr, (unsigned long)len, unsafe);
	} else if ((r = move_to_memfd((char *)(uintptr_t)lo, hi - lo, why)) != NULL) {
		r->next = ex.regions;
		ex.regions = r;
	}
	free(v);
	if (r == NULL)
		return false;
	r->grants++;
	g->region = r;
	g->base = (void *)(uintptr_t)lo;
	g->len = hi - lo;
	g->fd = r->fd;
	g->offset = lo - (uint64_t)(uintptr_t)r->base;
	slot_open(g, slot, id);
	return true;
#endif
}

bool softhw_share_guard(void *addr, uint64_t id, struct softhw_share_grant *g, const char **why)
{
	uint32_t slot;

#ifndef __GLIBC__
	*why = "needs glibc's robust mutexes";
	return false;
#else
	slot = slot_find();
	if (slot == SHARE_SLOTS) {
		*why = "every liveness slot is taken";
		return false;
	}
	if (!ctl_ensure(why))
		return false;
	memset(g, 0, sizeof(*g));
	g->base = addr; /* (for log lines) */
	g->fd = -1;
	slot_open(g, slot, id);
	return true;
#endif
}

/*
 * Does the claimer of word `own` still run (a zombie does not: it can access nothing)? A
 * guard's end waits for it as long as it does: a cross-memory write has nothing to absorb it
 * (a window's late store lands in its memfd, no longer the application's memory).
 */
static bool claimer_alive(uint64_t own)
{
	pid_t pid = (pid_t)(own >> 32);
	char path[40], buf[128];
	const char *paren;
	FILE *f;
	bool zombie = false;

	if (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (f != NULL) {
		if (fgets(buf, sizeof(buf), f) != NULL && (paren = strrchr(buf, ')')) != NULL)
			zombie = paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
		fclose(f);
	}
	return !zombie;
}

/*
 * Waits until *w is 0, or owner's slot is no longer `want` (a word given back and claimed for
 * another slot: its accesses are not this export's); false when UNEXPORT_WAIT_MS since `start`
 * passed, unless `patient` and the word's claimer still runs.
 */
static bool wait_zero(uint32_t *w, const struct share_acc *owner, uint32_t want, const struct timespec *start,
		      bool patient)
{
	struct timespec now, step = {.tv_nsec = 10 * 1000 * 1000};
	bool told = false;
	uint32_t b;

	while ((owner == NULL || acc_slot(owner) == want) &&
	       (b = __atomic_load_n(w, __ATOMIC_SEQ_CST)) != 0) {
		(void)softhw_futex(w, FUTEX_WAIT, b, &step);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000 <= UNEXPORT_WAIT_MS)
			continue;
		if (!patient || owner == NULL || !claimer_alive(__atomic_load_n(&owner->own, __ATOMIC_ACQUIRE)))
			return false;
		if (!told)
			SDK_LOG_WARN("Ending an export waits for importer process %d, inside a cross-memory access for over %d ms (stopped?): its write would land in memory the application may reuse",
				     (int)(__atomic_load_n(&owner->own, __ATOMIC_RELAXED) >> 32), UNEXPORT_WAIT_MS);
		told = true;
	}
	return true;
}

void softhw_share_unexport(const struct softhw_share_grant *g)
{
	struct share_slot *s = &ex.ctl->slots[g->slot];
	const char *unordered = NULL;
	struct timespec start;
	bool ended;

	/* Dekker with the importers: they count themselves in, then look at `live`. */
	__atomic_store_n(&s->live, 0, __ATOMIC_SEQ_CST);
	clock_gettime(CLOCK_MONOTONIC, &start);
	ex.slot_state[g->slot] = 0;
	/* ... or announce themselves with a plain store: this barrier on every CPU that runs one
	 * (a registered process) makes its store seen below, or its later look see live = 0 */
	if (ex.mb_fast && softhw_membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) != 0 &&
	    softhw_membarrier(MEMBARRIER_CMD_GLOBAL) != 0) {
		/*
		 * An access may still be under way unseen: its pages stay shared, so no store is
		 * lost, and an importer's announcement still in its CPU's store buffer gets a
		 * millisecond to show before we read the words (softhw_membarrier_settle).
		 */
		SDK_LOG_WARN("membarrier() failed (%s) although the kernel offered it: the shared memory at %p stays shared after its export",
			     strerror(errno), g->base);
		unordered = "membarrier() failed";
		softhw_membarrier_settle();
	}
	ended = wait_zero(&s->busy, NULL, 0, &start, false);
	for (uint32_t k = 0; k < SHARE_ACCESSORS && ended; k++)
		if (acc_slot(&ex.ctl->acc[k]) == g->slot + 1)
			ended = wait_zero(&ex.ctl->acc[k].act, &ex.ctl->acc[k], g->slot + 1, &start, g->region == NULL);
	if (!ended) {
		SDK_LOG_WARN("An importer of exported memory at %p stopped inside an access (it died, or is stopped); the export ends without it",
			     g->base);
		ex.slot_state[g->slot] = 2; /* retired: its count may never come back to 0 */
	}
	if (g->region == NULL)
		return; /* a liveness slot alone (softhw_share_guard) */
	g->region->grants--;
	if (g->region->grants == 0)
		region_give_back(g->region, unordered); /* windows do not outlive their exports */
}

/*
 * The windows' mappings at a fork, recorded by the prepare handler (the export lock is held
 * then: mem.c's prepare handler runs before ours) for the child, which has no pages there
 * (MADV_DONTFORK) or, for windows that outlived their exports, still shares them.
 */
struct fork_window {
	uint64_t lo, hi, offset;
	int fd;
	char perms[5];
};
static struct fork_window *fork_windows;
static size_t fork_windows_n;

static void fork_record_windows(void)
{
	size_t n, count = 0;
	struct vma *v = maps_read(&n);

	if (v == NULL)
		return; /* (the child's windows then stay holes or shared: nothing is copied wrongly) */
	for (size_t i = 0; i < n; i++)
		for (struct softhw_share_region *r = ex.regions; r != NULL; r = r->next)
			count += is_region(&v[i], r);
	fork_windows = count > 0 ? calloc(count, sizeof(*fork_windows)) : NULL;
	for (size_t i = 0; i < n && fork_windows != NULL; i++)
		for (struct softhw_share_region *r = ex.regions; r != NULL; r = r->next)
			if (is_region(&v[i], r)) {
				struct fork_window *w = &fork_windows[fork_windows_n++];

				w->lo = v[i].lo;
				w->hi = v[i].hi;
				w->offset = v[i].offset;
				w->fd = r->fd;
				memcpy(w->perms, v[i].perms, sizeof(w->perms));
			}
	free(v);
}

/*
 * Gives the child private pages at a window with its contents now. Where the window is a hole
 * (MADV_DONTFORK), from the memfd the child still holds; where it is still shared, in place.
 * If memory runs out the hole stays: a fault is better than bytes shared with the parent.
 */
static void fork_privatize(const struct fork_window *w)
{
	uint64_t len = w->hi - w->lo;
	char *at = (char *)(uintptr_t)w->lo;
	int prot = (w->perms[0] == 'r' ? PROT_READ : 0) | (w->perms[1] == 'w' ? PROT_WRITE : 0) |
		   (w->perms[2] == 'x' ? PROT_EXEC : 0);
	void *p = mmap(at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	struct vma m = {.lo = w->lo, .hi = w->hi};
	void *src;

	if (p != at) { /* something is mapped there: the window, still shared */
		if (p != MAP_FAILED)
			munmap(p, len); /* (a kernel without MAP_FIXED_NOREPLACE put it elsewhere) */
		memcpy(m.perms, w->perms, sizeof(m.perms));
		make_private(&m);
		return;
	}
	src = mmap(NULL, len, PROT_READ, MAP_SHARED, w->fd, (off_t)w->offset);
	if (src == MAP_FAILED) {
		munmap(at, len);
		return;
	}
	(void)copy_pages(at, -1, src, len);
	munmap(src, len);
	if (prot != (PROT_READ | PROT_WRITE))
		(void)mprotect(at, len, prot);
}

/* The fork child: private copies of every window, no control segment, a fresh store lock. */
static void fork_child(void)
{
	for (size_t i = 0; i < fork_windows_n; i++)
		fork_privatize(&fork_windows[i]);
	free(fork_windows);
	fork_windows = NULL;
	fork_windows_n = 0;
	while (ex.regions != NULL) {
		struct softhw_share_region *r = ex.regions;

		ex.regions = r->next;
		close(r->fd);
		free(r);
	}
	if (ex.ctl != NULL)
		munmap(ex.ctl, ctl_len());
	if (ex.ctl_fd >= 0)
		close(ex.ctl_fd);
	ex.ctl = NULL;
	ex.ctl_fd = -1;
	ex.held = false;
	memset(ex.slot_state, 0, sizeof(ex.slot_state));
	pthread_rwlock_init(&store_lock, NULL);
}

/*
 * The last prepare handler: no service thread is inside a store while the process forks, and
 * the windows' mappings are recorded for the child.
 */
static void fork_prepare(void)
{
	pthread_rwlock_wrlock(&store_lock);
	if (ex.regions != NULL)
		fork_record_windows();
}

static void fork_parent(void)
{
	free(fork_windows);
	fork_windows = NULL;
	fork_windows_n = 0;
	pthread_rwlock_unlock(&store_lock);
}

/*
 * Registered before any other handler (glibc runs prepare handlers in reverse order and child
 * handlers in order): the store lock is taken after every other handler's locks, and the child
 * privatizes its windows before any other handler touches memory.
 */
__attribute__((constructor)) static void fork_handlers(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void softhw_share_store_begin(void)
{
	if (softhw_thread_is_service())
		pthread_rwlock_rdlock(&store_lock);
}

void softhw_share_store_end(void)
{
	if (softhw_thread_is_service())
		pthread_rwlock_unlock(&store_lock);
}

/* ---- importer ---- */

struct softhw_share_view {
	char *win;
	uint64_t len;
	struct share_ctl *ctl;
	struct share_slot *slot;
	uint64_t id;
	struct share_acc *acc; /* claimed (serialised accesses, membarrier on both sides), or NULL */
	uint64_t mark;         /* process_mark() at the claim: a fork child counts its accesses instead */
	bool counted;          /* a guard's view: acc->act counts its accesses (atomics) */
	uint32_t *count;       /* where accesses not announced are counted: slot->busy, or a guard's acc->act */
};

/*
 * A word the kernel zeroes in every child of a fork (MADV_WIPEONFORK; _Fork() and clone()
 * children too, which run no atfork handler): nonzero, the mark of this process, which views
 * claim their words under. A child's mark is new, so the words of its parent's views are not
 * its own: it counts its accesses through them and never gives them back. 0: no such page.
 */
static uint64_t *proc_mark;
static uint64_t proc_mark_last;

static uint64_t process_mark(void)
{
	uint64_t *p = __atomic_load_n(&proc_mark, __ATOMIC_ACQUIRE), cur, fresh;

	if (p == NULL) {
		void *page = mmap(NULL, page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint64_t *none = NULL;

		if (page == MAP_FAILED)
			return 0;
		if (madvise(page, page_size(), MADV_WIPEONFORK) != 0 ||
		    !__atomic_compare_exchange_n(&proc_mark, &none, (uint64_t *)page, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			munmap(page, page_size());
			p = __atomic_load_n(&proc_mark, __ATOMIC_ACQUIRE);
			if (p == NULL)
				return 0;
		} else {
			p = page;
		}
	}
	cur = __atomic_load_n(p, __ATOMIC_ACQUIRE);
	if (cur != 0)
		return cur;
	/* (the counter is copied into a child, so its next value is one no parent view holds) */
	fresh = __atomic_add_fetch(&proc_mark_last, 1, __ATOMIC_RELAXED);
	return __atomic_compare_exchange_n(p, &cur, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ? fresh : cur;
}

/* Is the claimer of word `own` gone (and reaped: a zombie still answers kill)? */
static bool acc_orphan(uint64_t own, pid_t self)
{
	pid_t pid = (pid_t)(own >> 32);

	return own != 0 && pid > 0 && pid != self && kill(pid, 0) != 0 && errno == ESRCH;
}

/*
 * A word of this process's for a view: its accesses announced with plain stores (`counted`
 * false: the caller serialises them, and membarrier orders them for the exporter), or counted
 * with atomics in the word (`counted`: a guard's view, which the exporter waits for as long as
 * its claimer lives). NULL: none (every word taken, or no membarrier for announcing).
 */
static struct share_acc *acc_claim(struct share_ctl *ctl, uint32_t slot, bool counted)
{
	pid_t self = getpid();
	uint64_t mine = (uint64_t)(uint32_t)self << 32 | (slot + 1);

	if (!counted && (!__atomic_load_n(&ctl->mb.fast, __ATOMIC_ACQUIRE) ||
			 !softhw_membarrier_registered(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED)))
		return NULL;
	/*
	 * A free word, else one whose claimer is gone. Its `act` may read 1 (it died inside an
	 * access): whoever waits on it stops once the word names another slot, or at our 0.
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t k = 0; k < SHARE_ACCESSORS; k++) {
			uint64_t seen = __atomic_load_n(&ctl->acc[k].own, __ATOMIC_RELAXED);

			if ((pass == 0 ? seen == 0 : acc_orphan(seen, self)) &&
			    __atomic_compare_exchange_n(&ctl->acc[k].own, &seen, mine, false, __ATOMIC_ACQ_REL,
							__ATOMIC_RELAXED)) {
				__atomic_store_n(&ctl->acc[k].act, 0, __ATOMIC_RELEASE);
				if (seen != 0)
					(void)softhw_futex(&ctl->acc[k].act, FUTEX_WAKE, INT_MAX, NULL);
				return &ctl->acc[k];
			}
		}
	}
	/* Every word taken by live importers (256 views of this exporter at once): this view
	 * counts its accesses. */
	return NULL;
}

doca_error_t softhw_share_view_open(int win_fd, uint64_t offset, uint64_t len, bool writable, int ctl_fd,
				    uint32_t slot, uint64_t id, bool serialised, struct softhw_share_view **view)
{
	struct softhw_share_view *v;
	struct stat st;

	const bool guard_only = win_fd < 0 && len == 0; /* a liveness slot alone (softhw_share_guard) */
	int seals = guard_only ? F_SEAL_SHRINK | F_SEAL_GROW : fcntl(win_fd, F_GET_SEALS);
	int ctl_seals = fcntl(ctl_fd, F_GET_SEALS);
	const int need = F_SEAL_SHRINK | F_SEAL_GROW;

	/* sealed sizes: the exporter cannot take pages away under our mappings (SIGBUS) */
	if (seals < 0 || ctl_seals < 0 || (seals & need) != need || (ctl_seals & need) != need)
		return DOCA_ERROR_INVALID_VALUE;
	if (slot >= SHARE_SLOTS || (!guard_only && (len == 0 || len % page_size() != 0 || offset % page_size() != 0 ||
						    fstat(win_fd, &st) != 0 || offset > (uint64_t)st.st_size ||
						    len > (uint64_t)st.st_size - offset)) ||
	    fstat(ctl_fd, &st) != 0 || (uint64_t)st.st_size < ctl_len())
		return DOCA_ERROR_INVALID_VALUE;
	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return DOCA_ERROR_NO_MEMORY;
	v->win = guard_only ? NULL : mmap(NULL, len, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, win_fd, (off_t)offset);
	v->ctl = mmap(NULL, ctl_len(), PROT_READ | PROT_WRITE, MAP_SHARED, ctl_fd, 0);
	if (v->win == MAP_FAILED || v->ctl == MAP_FAILED) {
		if (v->win != MAP_FAILED && v->win != NULL)
			munmap(v->win, len);
		if (v->ctl != MAP_FAILED)
			munmap(v->ctl, ctl_len());
		free(v);
		return DOCA_ERROR_NO_MEMORY;
	}
	v->len = len;
	v->slot = &v->ctl->slots[slot];
	v->id = id;
	v->counted = guard_only;
	v->mark = serialised || guard_only ? process_mark() : 0;
	v->acc = v->mark != 0 ? acc_claim(v->ctl, slot, guard_only) : NULL;
	if (guard_only && v->acc == NULL) {
		/* a guard's accesses must name their process (the exporter waits while it lives) */
		munmap(v->ctl, ctl_len());
		free(v);
		return DOCA_ERROR_FULL;
	}
	v->count = guard_only ? &v->acc->act : &v->slot->busy;
	*view = v;
	return DOCA_SUCCESS;
}

/* Announced accesses: the view's own word, claimed in this process (not a fork parent's). */
static bool view_own_word(const struct softhw_share_view *v)
{
	return v->acc != NULL && __atomic_load_n(proc_mark, __ATOMIC_RELAXED) == v->mark;
}

static bool view_fast(const struct softhw_share_view *v)
{
	return !v->counted && view_own_word(v);
}

bool softhw_share_view_announced(const struct softhw_share_view *v)
{
	return v != NULL && view_fast(v);
}

void softhw_share_view_close(struct softhw_share_view *v)
{
	if (v == NULL)
		return;
	if (view_own_word(v)) {
		uint64_t mine = __atomic_load_n(&v->acc->own, __ATOMIC_RELAXED);

		/* (ours unless someone took it for a dead process's: pid reuse makes that harmless) */
		__atomic_compare_exchange_n(&v->acc->own, &mine, 0, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	}
	if (v->win != NULL)
		munmap(v->win, v->len);
	munmap(v->ctl, ctl_len());
	free(v);
}

/*
 * Counts or announces an access out; wakes the exporter if it waits for it. view_enter and
 * view_leave frame every access through a window: always inline (LTO alone left them calls).
 */
static inline __attribute__((always_inline)) void view_leave(struct softhw_share_view *v)
{
	uint32_t *w = v->count;

	if (view_fast(v)) {
		w = &v->acc->act;
		/* (release: the access's loads and stores come before the exporter may see 0) */
		__atomic_store_n(w, 0, __ATOMIC_RELEASE);
	} else {
		__atomic_fetch_sub(w, 1, __ATOMIC_SEQ_CST);
	}
	/* (a wake-up missed by a plain store's late look costs the exporter one 10 ms step) */
	if (__atomic_load_n(&v->slot->live, __ATOMIC_SEQ_CST) != v->id)
		(void)softhw_futex(w, FUTEX_WAKE, INT_MAX, NULL); /* the exporter waits */
}

/* Counts or announces an access in; fails it when the export ended or the exporter is gone. */
static inline __attribute__((always_inline)) doca_error_t view_enter(struct softhw_share_view *v)
{
	if (view_fast(v)) {
		__atomic_store_n(&v->acc->act, 1, __ATOMIC_RELAXED);
		/* The compiler keeps the store before the look; the CPU is ordered by the exporter's
		 * membarrier(), which runs a full barrier here before it reads `act`. */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} else {
		__atomic_fetch_add(v->count, 1, __ATOMIC_SEQ_CST);
	}
	if (__atomic_load_n(&v->slot->live, __ATOMIC_SEQ_CST) == v->id && !owner_gone(v->ctl))
		return DOCA_SUCCESS;
	view_leave(v);
	return owner_gone(v->ctl) ? DOCA_ERROR_CONNECTION_ABORTED : DOCA_ERROR_IO_FAILED;
}

/* (a window's view: its slot covers the partial pages too; a guard's counts in its own word) */
doca_error_t softhw_share_view_hold(struct softhw_share_view *v)
{
	if (v->counted && !view_own_word(v))
		return DOCA_ERROR_NOT_SUPPORTED; /* a fork child: the word is its parent's */
	return view_enter(v);
}

void softhw_share_view_release(struct softhw_share_view *v)
{
	view_leave(v);
}

doca_error_t softhw_share_view_copy(struct softhw_share_view *v, uint64_t off, void *local, uint64_t len, bool write)
{
	char *at = local;

	do {
		const uint64_t n = len < SOFTHW_SHARE_COPY_CHUNK ? len : SOFTHW_SHARE_COPY_CHUNK;
		doca_error_t err = view_enter(v);

		if (err != DOCA_SUCCESS)
			return err;
		if (write)
			memcpy(v->win + off, at, n);
		else
			memcpy(at, v->win + off, n);
		view_leave(v);
		off += n;
		at += n;
		len -= n;
	} while (len > 0);
	return DOCA_SUCCESS;
}

doca_error_t softhw_share_view_atomic(struct softhw_share_view *v, uint64_t off, bool cmp_swap, uint64_t arg0,
				      uint64_t arg1, uint64_t *old)
{
	uint64_t *p = (uint64_t *)(void *)(v->win + off);
	doca_error_t err = view_enter(v);

	if (err != DOCA_SUCCESS)
		return err;
	if (cmp_swap) {
		uint64_t expected = arg0;

		(void)__atomic_compare_exchange_n(p, &expected, arg1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		*old = expected;
	} else {
		*old = __atomic_fetch_add(p, arg0, __ATOMIC_SEQ_CST);
	}
	view_leave(v);
	return DOCA_SUCCESS;
}
