/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme: a file on tmpfs read and written through a shared mapping of it.
 *
 * On tmpfs the page cache is the store. preadv2 / pwritev2 (io.c inline_store) still cost a
 * system call, the VFS checks and a page-cache lookup per command, about half of the STA EU's
 * time per 4 KiB read (docs/soft-nvme.md); a mapping makes a Read or Write one memcpy.
 *
 * Two things may make a mapped access fault (SIGBUS) where a pread would only come short or
 * fail: the file shrinking under us (anyone with write access may truncate it), and a page
 * the file system cannot allocate (a tmpfs that is full, on a write into a hole; a read of a
 * hole would allocate too, where pread returns zeroes). So:
 * - only a file with no hole in the disk's range when it opens is mapped (its reads then
 *   allocate nothing that was not allocated already);
 * - every copy runs under a guard: a SIGBUS inside the mapping, in the thread that copies,
 *   jumps back out; the command goes on with preadv2 / pwritev2 (which report the real
 *   cause: a short read, ENOSPC), and the disk unmaps the file for good. Any other SIGBUS goes
 *   to the handler that was there before (or kills the process as it would have).
 * SOFTDOCA_NVME_MAP=0 never maps.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/nvme/nvme_priv.h"

SDK_LOG_REGISTER(SOFTHW_NVME_MAP);

struct guard {
	sigjmp_buf jb;
	uintptr_t lo, hi;
};

/*
 * The copying thread's guard while it copies (set and cleared by that thread only). Initial-exec:
 * the handler reads it in any thread a SIGBUS hits, and the dynamic model could allocate there.
 */
static __thread struct guard *volatile cur_guard __attribute__((tls_model("initial-exec")));
static struct sigaction prev_bus;
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;
static bool bus_ok;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct guard *g = cur_guard;

	if (g != NULL && (uintptr_t)si->si_addr - g->lo < g->hi - g->lo) {
		cur_guard = NULL;
		siglongjmp(g->jb, 1); /* SA_NODEFER: SIGBUS is not left blocked in this thread */
	}
	/* not a fault of ours: as if this handler were not here */
	if (prev_bus.sa_flags & SA_SIGINFO) {
		prev_bus.sa_sigaction(sig, si, uc);
	} else if (prev_bus.sa_handler != SIG_DFL && prev_bus.sa_handler != SIG_IGN) {
		prev_bus.sa_handler(sig);
	} else {
		/* the fault repeats when this returns, and then takes the default action */
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		sigaction(SIGBUS, &dfl, NULL);
	}
}

static void bus_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	bus_ok = sigaction(SIGBUS, &sa, &prev_bus) == 0;
	if (!bus_ok)
		SDK_LOG_WARN("soft NVMe: no SIGBUS handler (%s): files on tmpfs are read with preadv2", strerror(errno));
}

void nvme_map_open(struct nvme_ctrl *c, const char *path)
{
	const char *v = getenv("SOFTDOCA_NVME_MAP");
	uint64_t len = c->num_blocks << c->lba_shift;
	off_t hole;
	void *m;

	c->map = NULL;
	if (!c->inline_rw || c->is_mem || c->is_bdev || len == 0 || (v != NULL && v[0] == '0'))
		return;
	hole = lseek(c->fd, 0, SEEK_HOLE);
	if (hole < 0 || (uint64_t)hole < len) {
		SDK_LOG_INFO("soft NVMe open: %s has holes (first at byte %lld): read with preadv2, which allocates none",
			     path, (long long)hole);
		return;
	}
	pthread_once(&bus_once, bus_install);
	if (!bus_ok)
		return;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (m == MAP_FAILED) {
		SDK_LOG_INFO("soft NVMe open: %s: mmap: %s; read with preadv2", path, strerror(errno));
		return;
	}
	c->map = m;
	c->map_len = len;
}

void nvme_map_close(struct nvme_ctrl *c)
{
	if (c->map != NULL)
		munmap(c->map, c->map_len);
	c->map = NULL;
}

/* The copy itself, apart so that nothing of the caller's lives across the jump. */
static __attribute__((noinline)) void map_copy(uint8_t *at, const struct iovec *iov, int niov, bool rd)
{
	for (int i = 0; i < niov; i++) {
		if (rd)
			memcpy(iov[i].iov_base, at, iov[i].iov_len);
		else
			memcpy(at, iov[i].iov_base, iov[i].iov_len);
		at += iov[i].iov_len;
	}
}

int nvme_map_rw(struct nvme_ctrl *c, struct nvme_cmd *cmd, bool rd)
{
	struct guard g;

	if (c->map == NULL || cmd->off > c->map_len || cmd->len > c->map_len - cmd->off)
		return -EFAULT;
	g.lo = (uintptr_t)c->map;
	g.hi = g.lo + c->map_len;
	if (sigsetjmp(g.jb, 0) != 0) {
		/* the store shrank or is full: the caller's pread / pwrite says which; no mapping now */
		SDK_LOG_WARN("soft NVMe: a %s of %llu bytes at byte %llu faulted in the mapped store (it shrank, or its "
			     "file system is full); reading and writing it with preadv2 / pwritev2 from now on",
			     rd ? "Read" : "Write", (unsigned long long)cmd->len, (unsigned long long)cmd->off);
		nvme_map_close(c);
		return -EFAULT;
	}
	cur_guard = &g;
	map_copy(c->map + cmd->off, cmd->iov, cmd->niov, rd);
	cur_guard = NULL;
	return (int)cmd->len;
}
