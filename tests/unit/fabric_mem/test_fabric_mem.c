/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw fabric memory (lib/softhw/fabric/mem.h): a forked child exports a buffer, this
 * process imports it and reads and writes it, by cross-memory attach and through the
 * exporter's service thread (SOFTDOCA_FABRIC_CMA=0 on either side). Also: range and
 * permission checks, forged, stale and foreign descriptors, an export that ends, an exporter
 * that dies. The child never calls anything after exporting: its service thread does the work.
 * Shared windows (share.h): the whole pages of an export reached with plain loads, stores and
 * atomics, their liveness (export ended, exporter died), a fork of the exporter keeping its
 * own copy, and no window while another application thread runs in the exporter.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <errno.h>
#include <linux/membarrier.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "softhw/fabric/fabric.h"
#include "softhw/fabric/mem.h"
#include "softhw/fabric/mem_wire.h"
#include "softhw/fabric/share.h" /* SOFTHW_SHARE_COPY_CHUNK */
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"
#include "deny_membarrier.h"

/* Linked from the library archive without a flavour. */
const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

/* Three bounce buffers and a bit: the service path needs several chunks. */
#define MEM_LEN (3 * SOFTHW_MEM_BOUNCE_LEN + 5)

static char instance[64];

/* The next exporter starts an application thread of its own before it exports. */
static bool exporter_with_thread;

static void *idle_thread(void *arg)
{
	char c;

	/* blocks until the exporter exits (nobody writes the pipe) */
	return read(*(int *)arg, &c, 1) < 0 ? NULL : arg;
}

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 7 + 3);
}

/* What the exporting child tells the parent. */
struct export_info {
	uint64_t id;
	uint64_t token;
	uint64_t addr;
	uint64_t len;
};

struct exporter {
	pid_t pid;
	int cmd;  /* parent -> child: one command byte */
	int info; /* child -> parent: export_info, acknowledgements, dumps */
	struct export_info e;
	uint32_t rights;
};

static bool read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* A whole page inside the exported buffer, for the exporter to take away. */
static uint8_t *hole_of(uint8_t *mem)
{
	return (uint8_t *)(((uintptr_t)mem + 8192) & ~(uintptr_t)4095);
}

/* The child: export, report, then obey commands until the parent closes the pipe. */
static void exporter_main(int cmd, int info, uint32_t rights, bool cma_off)
{
	struct export_info e = {0};
	const char *why = "";
	uint8_t *mem = malloc(MEM_LEN);
	char c;

	if (cma_off)
		setenv("SOFTDOCA_FABRIC_CMA", "0", 1);
	else
		unsetenv("SOFTDOCA_FABRIC_CMA");
	if (mem == NULL)
		exit(3);
	for (size_t i = 0; i < MEM_LEN; i++)
		mem[i] = pattern(i);
	if (exporter_with_thread) {
		static int p[2];
		pthread_t t;

		if (pipe(p) != 0 || pthread_create(&t, NULL, idle_thread, &p[0]) != 0)
			exit(11);
	}
	if (softhw_mem_export_add(instance, mem, MEM_LEN, rights, &e.id, &e.token, &why) != DOCA_SUCCESS) {
		fprintf(stderr, "export failed: %s\n", why);
		exit(4);
	}
	e.addr = (uint64_t)(uintptr_t)mem;
	e.len = MEM_LEN;
	if (!write_full(info, &e, sizeof(e)))
		exit(5);
	while (read(cmd, &c, 1) == 1) {
		if (c == 'r') { /* end the export */
			softhw_mem_export_remove(e.id);
			c = 'k';
			if (!write_full(info, &c, 1))
				exit(6);
		} else if (c == 'i') { /* export a few bytes through another card instance too */
			static char other_mem[64];
			char other[80];
			uint64_t id2, token2;

			snprintf(other, sizeof(other), "%s-2", instance);
			if (softhw_mem_export_add(other, other_mem, sizeof(other_mem), rights, &id2, &token2, &why) !=
				    DOCA_SUCCESS ||
			    !write_full(info, "k", 1))
				exit(15);
		} else if (c == 'm') { /* membarrier() fails from now on (as under a later seccomp filter) */
			if (!test_deny_membarrier() || !write_full(info, "k", 1))
				exit(16);
		} else if (c == 'R') { /* end the export, then clear the memory (as the application reusing it) */
			softhw_mem_export_remove(e.id);
			memset(mem, 0, MEM_LEN);
			if (!write_full(info, "k", 1))
				exit(17);
		} else if (c == 'c') { /* how many bytes are not 0 */
			uint64_t n = 0;

			for (size_t i = 0; i < MEM_LEN; i++)
				n += mem[i] != 0;
			if (!write_full(info, &n, sizeof(n)))
				exit(18);
		} else if (c == 'u') { /* did the service log an importer that leaves its replies unread? */
			c = softhw_test_logged("leaves its replies unread") ? 'y' : 'n';
			if (!write_full(info, &c, 1))
				exit(19);
		} else if (c == 'd') { /* dump the memory */
			if (!write_full(info, mem, MEM_LEN))
				exit(7);
		} else if (c == 'p' || c == 'P') { /* make one page inaccessible / accessible again */
			if (mprotect(hole_of(mem), 4096, c == 'p' ? PROT_NONE : PROT_READ | PROT_WRITE) != 0)
				exit(9);
			if (!write_full(info, "k", 1))
				exit(10);
		} else if (c == 'U') { /* unmap the exported pages (a bug), export new memory of 0x77 */
			uint8_t *lo = (uint8_t *)(((uintptr_t)mem + 4095) & ~(uintptr_t)4095);
			uint8_t *other = mmap(NULL, MEM_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			uint64_t id2, token2;

			if (munmap(lo, (MEM_LEN - 8192) & ~(size_t)4095) != 0 || other == MAP_FAILED)
				exit(13);
			memset(other, 0x77, MEM_LEN);
			if (softhw_mem_export_add(instance, other, MEM_LEN, rights, &id2, &token2, &why) != DOCA_SUCCESS ||
			    !write_full(info, "k", 1))
				exit(14);
			while (read(cmd, &c, 1) == 1) {
			}
			_exit(0); /* (mem is no longer malloc's to free) */
		} else if (c == 'F') { /* fork a child that scribbles over its copy, and wait for it */
			pid_t kid = fork();
			int status;

			if (kid == 0) {
				memset(mem, 0xcc, MEM_LEN);
				_exit(0);
			}
			c = 'k';
			if (kid < 0 || waitpid(kid, &status, 0) != kid || !write_full(info, &c, 1))
				exit(12);
		} else if (c == 'f') { /* fork a child that outlives us, until the parent hangs up */
			pid_t kid = fork();

			if (kid == 0) {
				while (read(cmd, &c, 1) == 1) {
				}
				free(mem);
				exit(0);
			}
			c = 'k';
			if (kid < 0 || !write_full(info, &c, 1))
				exit(8);
		}
	}
	free(mem);
	exit(0);
}

static bool spawn(struct exporter *x, uint32_t rights, bool cma_off)
{
	int cmd[2], info[2];

	memset(x, 0, sizeof(*x));
	if (pipe(cmd) != 0 || pipe(info) != 0)
		return false;
	fflush(NULL);
	x->pid = fork();
	if (x->pid == 0) {
		close(cmd[1]);
		close(info[0]);
		exporter_main(cmd[0], info[1], rights, cma_off);
	}
	close(cmd[0]);
	close(info[1]);
	x->cmd = cmd[1];
	x->info = info[0];
	x->rights = rights;
	return x->pid > 0 && read_full(x->info, &x->e, sizeof(x->e));
}

static bool command(struct exporter *x, char c)
{
	char ack;

	return write_full(x->cmd, &c, 1) && (c != 'r' || (read_full(x->info, &ack, 1) && ack == 'k'));
}

/* Ends the child normally (or reaps it after a kill); true when it exited cleanly. */
static bool finish(struct exporter *x)
{
	int status = 0;

	close(x->cmd);
	close(x->info);
	return waitpid(x->pid, &status, 0) == x->pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static struct softhw_mem_peer peer_of(const struct exporter *x)
{
	return (struct softhw_mem_peer){
		.instance = instance,
		.pid = x->pid,
		.id = x->e.id,
		.token = x->e.token,
		.addr = x->e.addr,
		.len = x->e.len,
		.rights = x->rights,
	};
}

/* The importer's own switch: cross-memory attach allowed or not. */
static void importer_cma(bool on)
{
	if (on)
		unsetenv("SOFTDOCA_FABRIC_CMA");
	else
		setenv("SOFTDOCA_FABRIC_CMA", "0", 1);
}

static struct softhw_mem_remote *connect_ok(const struct exporter *x)
{
	struct softhw_mem_peer p = peer_of(x);
	struct softhw_mem_remote *r = NULL;
	const char *why = "";

	CHECK_OK(softhw_mem_connect(&p, &r, &why));
	if (r == NULL)
		fprintf(stderr, "connect failed: %s\n", why);
	return r;
}

static bool matches_pattern(const uint8_t *buf, size_t off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != pattern(off + i))
			return false;
	return true;
}

/* Reads everything, writes a span across chunk borders, checks it through the child's dump. */
static void read_write_roundtrip(bool importer_cma_on, bool exporter_cma_off, bool expect_cma)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t *buf = malloc(MEM_LEN);
	const size_t woff = SOFTHW_MEM_BOUNCE_LEN - 100, wlen = SOFTHW_MEM_BOUNCE_LEN + 300;

	importer_cma(importer_cma_on);
	CHECK(buf != NULL && spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, exporter_cma_off));
	r = connect_ok(&x);
	if (r != NULL && buf != NULL) {
		CHECK(softhw_mem_uses_cma(r) == expect_cma);
		memset(buf, 0, MEM_LEN);
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr, MEM_LEN));
		CHECK(matches_pattern(buf, 0, MEM_LEN));
		/* an unaligned piece in the middle */
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr + 12345, 777));
		CHECK(matches_pattern(buf, 12345, 777));
		/* nothing to move is fine */
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr, 0));

		memset(buf, 0xee, wlen);
		CHECK_OK(softhw_mem_write(r, x.e.addr + woff, buf, wlen));
		CHECK(command(&x, 'd') && read_full(x.info, buf, MEM_LEN));
		CHECK(matches_pattern(buf, 0, woff));
		bool filled = true;
		for (size_t i = woff; i < woff + wlen; i++)
			filled = filled && buf[i] == 0xee;
		CHECK(filled);
		CHECK(matches_pattern(buf + woff + wlen, woff + wlen, MEM_LEN - woff - wlen));
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	free(buf);
	importer_cma(true);
}

static void test_cma_path(void)
{
	read_write_roundtrip(true, false, true);
}

static void test_service_path_importer_off(void)
{
	read_write_roundtrip(false, false, false);
}

static void test_service_path_exporter_off(void)
{
	read_write_roundtrip(true, true, false);
}

/* ---- a raw importer, speaking mem_wire.h as a hostile peer would ---- */

static int raw_connect(const struct exporter *x)
{
	struct softhw_card card;
	char name[24];
	int fd = -1;

	memset(&card, 0, sizeof(card));
	snprintf(card.instance, sizeof(card.instance), "%s", instance);
	snprintf(name, sizeof(name), "%d", (int)x->pid);
	return softhw_fabric_connect(&card, "mem", name, &fd) == DOCA_SUCCESS ? fd : -1;
}

/* One request (with a descriptor, or -1) and its reply; false when none came in 5 s. */
static bool raw_call(int fd, enum mem_op op, const struct exporter *x, int pass, struct mem_msg *rep)
{
	struct mem_msg req = {.magic = MEM_MAGIC, .version = MEM_VERSION, .op = (uint16_t)op};
	struct pollfd p = {.fd = fd, .events = POLLIN};

	req.id = x->e.id;
	req.token = x->e.token;
	req.addr = x->e.addr;
	req.len = 64;
	return softhw_fabric_send(fd, &req, sizeof(req), pass >= 0 ? &pass : NULL, pass >= 0 ? 1 : 0) ==
		       (ssize_t)sizeof(req) &&
	       poll(&p, 1, 5000) == 1 && softhw_fabric_recv(fd, rep, sizeof(*rep), NULL, NULL) == (ssize_t)sizeof(*rep);
}

static int bounce_memfd(bool sealed)
{
	int fd = memfd_create("test-bounce", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd >= 0 && (ftruncate(fd, SOFTHW_MEM_BOUNCE_LEN) != 0 ||
			(sealed && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The service path's bounce buffer is the importer's memfd, mapped by the exporter: one whose
 * size is not sealed is refused, or the importer could shrink it and kill the exporter with
 * SIGBUS at its next copy (the exporter copies with memcpy where process_vm_* is refused). A
 * sealed one is taken, and a write through it lands. The importer seals its own as well
 * (test_service_path_*: the exporter takes nothing else), so an exporter of another user
 * cannot shrink it under the importer either.
 */
static void test_bounce_must_be_sealed(void)
{
	struct exporter x;
	struct mem_msg rep;
	int fd, unsealed = bounce_memfd(false), sealed = bounce_memfd(true);
	uint8_t *b = MAP_FAILED;

	CHECK(unsealed >= 0 && sealed >= 0);
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_VIA_DMA, true));
	fd = raw_connect(&x);
	CHECK(fd >= 0);
	if (fd < 0 || unsealed < 0 || sealed < 0)
		goto out;
	CHECK(raw_call(fd, MEM_HELLO, &x, -1, &rep) && rep.status == DOCA_SUCCESS && !(rep.flags & MEM_FLAG_CMA));
	CHECK(raw_call(fd, MEM_ATTACH, &x, unsealed, &rep) && rep.status == DOCA_ERROR_INVALID_VALUE);
	CHECK(ftruncate(unsealed, 0) == 0); /* what a hostile importer would do next */
	CHECK(raw_call(fd, MEM_WRITE, &x, -1, &rep) && rep.status == DOCA_ERROR_INVALID_VALUE); /* nothing mapped */
	CHECK(raw_call(fd, MEM_ATTACH, &x, sealed, &rep) && rep.status == DOCA_SUCCESS);
	b = mmap(NULL, SOFTHW_MEM_BOUNCE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, sealed, 0);
	CHECK(b != MAP_FAILED && ftruncate(sealed, 0) != 0); /* sealed: not for us either */
	if (b != MAP_FAILED) {
		uint8_t *dump = malloc(MEM_LEN);

		memset(b, 0x5a, 64);
		CHECK(raw_call(fd, MEM_WRITE, &x, -1, &rep) && rep.status == DOCA_SUCCESS);
		CHECK(dump != NULL && command(&x, 'd') && read_full(x.info, dump, MEM_LEN));
		CHECK(dump != NULL && dump[0] == 0x5a && dump[63] == 0x5a && dump[64] == pattern(64));
		free(dump);
		munmap(b, SOFTHW_MEM_BOUNCE_LEN);
	}
	close(fd);
out:
	if (unsealed >= 0)
		close(unsealed);
	if (sealed >= 0)
		close(sealed);
	CHECK(finish(&x)); /* alive, and exits cleanly */
}

/*
 * Connections that never say HELLO hold the places the guard gives one process (32): a
 * process that knows no descriptor could keep an exporter's importers out for good. They are
 * closed once their time is up (SOFTDOCA_MEM_HELLO_MS, 300 ms here), and a real importer gets in.
 */
static void test_silent_importers_closed(void)
{
	enum { SILENT = 32 };
	struct exporter x;
	struct mem_msg rep;
	int silent[SILENT], extra, fd, closed = 0;

	setenv("SOFTDOCA_MEM_HELLO_MS", "300", 1); /* (the exporter child inherits it) */
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_VIA_DMA, false));
	unsetenv("SOFTDOCA_MEM_HELLO_MS");
	for (int i = 0; i < SILENT; i++) {
		silent[i] = raw_connect(&x);
		CHECK(silent[i] >= 0);
	}
	/* all of this process's places taken: refused (FULL, told, closed) */
	extra = raw_connect(&x);
	if (extra >= 0) {
		struct pollfd p = {.fd = extra, .events = POLLIN};

		CHECK(poll(&p, 1, 5000) == 1 &&
		      softhw_fabric_recv(extra, &rep, sizeof(rep), NULL, NULL) == (ssize_t)sizeof(rep) &&
		      rep.op == MEM_REFUSED && rep.status == DOCA_ERROR_FULL);
		close(extra);
	}
	/* each silent one is closed by the exporter (EOF), within a bounded time */
	for (int i = 0; i < SILENT; i++) {
		struct pollfd p = {.fd = silent[i], .events = POLLIN};
		char b;

		if (silent[i] >= 0 && poll(&p, 1, 5000) == 1 && recv(silent[i], &b, 1, MSG_DONTWAIT) == 0)
			closed++;
	}
	CHECK(closed == SILENT);
	fd = raw_connect(&x);
	CHECK(fd >= 0 && raw_call(fd, MEM_HELLO, &x, -1, &rep) && rep.status == DOCA_SUCCESS);
	if (fd >= 0)
		close(fd);
	for (int i = 0; i < SILENT; i++)
		if (silent[i] >= 0)
			close(silent[i]);
	CHECK(finish(&x));
}

/*
 * An importer that proved the token sends requests and never reads the replies: the service
 * thread must not wait for it (it serves every importer of the process). Its connection ends,
 * logged, once it leaves a queue of replies unread, and the next importer is served.
 */
static void test_unread_replies(void)
{
	struct mem_msg req = {.magic = MEM_MAGIC, .version = MEM_VERSION, .op = MEM_READ}, rep;
	struct exporter x;
	bool closed = false;
	char logged = 0;
	int fd, fd2;

	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_VIA_DMA, true));
	fd = raw_connect(&x);
	CHECK(fd >= 0 && raw_call(fd, MEM_HELLO, &x, -1, &rep) && rep.status == DOCA_SUCCESS);
	req.id = x.e.id;
	req.addr = x.e.addr;
	req.len = 64; /* no bounce buffer: each is answered INVALID_VALUE */
	for (int i = 0; fd >= 0 && i < 100000 && !closed; i++) {
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		ssize_t n;

		if (poll(&p, 1, 5000) != 1 || (p.revents & (POLLHUP | POLLERR))) {
			closed = (p.revents & (POLLHUP | POLLERR)) != 0;
			break;
		}
		n = softhw_fabric_send(fd, &req, sizeof(req), NULL, 0);
		closed = n < 0 && n != -EAGAIN && n != -EINTR;
	}
	CHECK(closed);
	CHECK(command(&x, 'u') && read_full(x.info, &logged, 1) && logged == 'y');
	fd2 = raw_connect(&x);
	CHECK(fd2 >= 0 && raw_call(fd2, MEM_HELLO, &x, -1, &rep) && rep.status == DOCA_SUCCESS);
	if (fd2 >= 0)
		close(fd2);
	if (fd >= 0)
		close(fd);
	CHECK(finish(&x));
}

/* An importer writing the whole export by cross-memory attach, again and again, until it fails. */
struct cma_writer {
	struct softhw_mem_remote *r;
	uint64_t addr;
	uint8_t *buf;
	int started[2]; /* a byte after the first write */
	unsigned writes;
	doca_error_t last;
};

static void *cma_writer_run(void *arg)
{
	struct cma_writer *w = arg;

	while ((w->last = softhw_mem_write(w->r, w->addr, w->buf, MEM_LEN)) == DOCA_SUCCESS)
		if (w->writes++ == 0 && write(w->started[1], "s", 1) != 1)
			break;
	if (w->writes == 0 && write(w->started[1], "s", 1) != 1) {
		/* (the reader sees the pipe close below) */
	}
	close(w->started[1]);
	return NULL;
}

/*
 * An export without a window, reached by cross-memory attach: once the exporter's
 * softhw_mem_export_remove() returned (doca_mmap_stop / destroy), no byte of an importer's
 * write lands in the memory, which the application may free and reuse. Each chunk of a copy
 * runs inside the export's liveness slot, and the end of the export waits for the chunk under
 * way. (Before, one process_vm_writev of the whole length went on after the end.) Rounds, as
 * the end must meet a write under way.
 */
static void test_cma_ends_with_export(void)
{
	for (int round = 0; round < 5; round++) {
		struct cma_writer w = {.last = DOCA_SUCCESS};
		struct exporter x;
		pthread_t t;
		uint64_t changed = ~0ull;
		char c;

		setenv("SOFTDOCA_FABRIC_SHARE", "0", 1); /* the exporter child's: no window */
		CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_VIA_DMA, false));
		unsetenv("SOFTDOCA_FABRIC_SHARE");
		w.r = connect_ok(&x);
		w.addr = x.e.addr;
		w.buf = malloc(MEM_LEN);
		CHECK(w.r != NULL && w.buf != NULL && pipe(w.started) == 0);
		if (w.r == NULL || w.buf == NULL) {
			finish(&x);
			return;
		}
		CHECK(softhw_mem_uses_cma(w.r)); /* (and no window: SOFTDOCA_FABRIC_SHARE=0) */
		memset(w.buf, 0xaa, MEM_LEN);
		CHECK(pthread_create(&t, NULL, cma_writer_run, &w) == 0);
		CHECK(read(w.started[0], &c, 1) == 1); /* writing, and going on */
		CHECK(write_full(x.cmd, "R", 1) && read_full(x.info, &c, 1) && c == 'k');
		pthread_join(t, NULL); /* its next write failed: the export ended */
		CHECK(w.writes >= 1 && w.last == DOCA_ERROR_IO_FAILED);
		CHECK(write_full(x.cmd, "c", 1) && read_full(x.info, &changed, sizeof(changed)));
		if (changed != 0)
			fprintf(stderr, "round %d: %llu bytes written after the export ended\n", round,
				(unsigned long long)changed);
		CHECK(changed == 0);
		close(w.started[0]);
		softhw_mem_disconnect(w.r);
		free(w.buf);
		CHECK(finish(&x));
	}
}

/*
 * An RDMA export (no VIA_DMA) is not copied by the memory service: a process that holds its
 * rkey but no connected qp would otherwise read and write it whatever the target's doca_rdma
 * grants. (The soft NIC's direct path is the window or cross-memory attach, else the qp.)
 */
static void test_rdma_export_not_served(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	struct softhw_mem_peer p;
	uint8_t b[64] = {0};
	const char *why = "";

	importer_cma(false);
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_VIA_NIC, true));
	p = peer_of(&x);
	p.any_range = true; /* as the soft NIC names an rkey */
	r = NULL;
	CHECK_OK(softhw_mem_connect(&p, &r, &why));
	if (r != NULL) {
		CHECK(!softhw_mem_direct(r, x.e.addr, 8));
		CHECK_ERR(softhw_mem_write(r, x.e.addr, b, sizeof(b)), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(softhw_mem_read(r, b, x.e.addr, sizeof(b)), DOCA_ERROR_NOT_PERMITTED);
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	importer_cma(true);
}

/* Outside the export: INVALID_VALUE; without the right: NOT_PERMITTED; on both paths. */
static void test_range_and_rights(void)
{
	for (int cma = 1; cma >= 0; cma--) {
		struct exporter x;
		struct softhw_mem_remote *r;
		uint8_t buf[64];

		importer_cma(cma);
		CHECK(spawn(&x, SOFTHW_MEM_READ, false));
		r = connect_ok(&x);
		if (r != NULL) {
			CHECK(softhw_mem_uses_cma(r) == (cma == 1));
			CHECK_OK(softhw_mem_read(r, buf, x.e.addr + MEM_LEN - sizeof(buf), sizeof(buf)));
			CHECK_ERR(softhw_mem_read(r, buf, x.e.addr + MEM_LEN - 10, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
			CHECK_ERR(softhw_mem_read(r, buf, x.e.addr - 1, 2), DOCA_ERROR_INVALID_VALUE);
			CHECK_ERR(softhw_mem_read(r, buf, UINT64_MAX - 2, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
			CHECK_ERR(softhw_mem_write(r, x.e.addr, buf, sizeof(buf)), DOCA_ERROR_NOT_PERMITTED);
			/* a refused access leaves the connection usable */
			CHECK_OK(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)));
			CHECK(matches_pattern(buf, 0, sizeof(buf)));
			softhw_mem_disconnect(r);
		}
		CHECK(finish(&x));
	}
	importer_cma(true);
}

/* A descriptor that does not match the live export is refused at connect. */
static void test_forged_and_stale(void)
{
	struct exporter x;
	struct softhw_mem_remote *r = NULL;
	struct softhw_mem_peer p;
	const char *why;

	CHECK(spawn(&x, SOFTHW_MEM_READ, false));
	p = peer_of(&x);
	p.rights |= SOFTHW_MEM_WRITE; /* claims a right the exporter did not grant */
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	p = peer_of(&x);
	p.len += 4096; /* a larger range */
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	p = peer_of(&x);
	p.token ^= 1; /* an earlier process with the same pid */
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(why, "stale") != NULL);
	p = peer_of(&x);
	p.id += 1000; /* an export that never existed or ended */
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	p = peer_of(&x);
	p.instance = "another-card@0000000000000000"; /* another card instance */
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_NOT_FOUND);
	/* the export ends: its descriptor is refused from then on */
	CHECK(command(&x, 'r'));
	p = peer_of(&x);
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(why, "ended") != NULL);
	CHECK(r == NULL);
	CHECK(finish(&x));

	/* the exporter has exited: nobody answers for its pid */
	p = peer_of(&x);
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_NOT_FOUND);
	CHECK(strstr(why, "not running") != NULL);
}

/*
 * The descriptor's claims against the export: a narrower range and fewer rights are fine (the
 * remote is still held to the export's own), a wider or moved range, another right or another
 * use (DMA vs NIC) are not. softhw_mem_verify says the same without a data path, and NOT_FOUND
 * where it cannot ask anybody.
 */
static void test_claims_checked(void)
{
	struct exporter x;
	struct softhw_mem_remote *r = NULL;
	struct softhw_mem_peer p;
	const char *why = "";
	uint8_t buf[16];

	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_VIA_DMA, false));
	p = peer_of(&x);
	CHECK_OK(softhw_mem_verify(&p, &why));
	p.addr += 100;
	p.len = 200;
	p.rights = SOFTHW_MEM_READ;
	CHECK_OK(softhw_mem_verify(&p, &why));
	CHECK_OK(softhw_mem_connect(&p, &r, &why));
	if (r != NULL) {
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)));
		CHECK(matches_pattern(buf, 0, sizeof(buf)));
		CHECK_ERR(softhw_mem_write(r, x.e.addr + 100, buf, 8), DOCA_ERROR_NOT_PERMITTED);
		CHECK_ERR(softhw_mem_read(r, buf, x.e.addr + MEM_LEN - 8, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
		softhw_mem_disconnect(r);
		r = NULL;
	}
	p = peer_of(&x); /* moved a byte: inside at the start, outside at the end */
	p.addr += 1;
	CHECK_ERR(softhw_mem_verify(&p, &why), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(why, "range") != NULL);
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	p = peer_of(&x); /* before the export */
	p.addr -= 4096;
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	p = peer_of(&x);
	p.rights |= SOFTHW_MEM_WRITE;
	CHECK_ERR(softhw_mem_verify(&p, &why), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(why, "write") != NULL);
	p = peer_of(&x); /* a DMA export used as the NIC's rkey, or claimed for the NIC */
	p.any_range = true;
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(why, "rkey") != NULL);
	p = peer_of(&x);
	p.rights = SOFTHW_MEM_READ | SOFTHW_MEM_VIA_NIC;
	CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
	CHECK(strstr(why, "kind") != NULL);
	/* a DMA export through another card instance of the same exporter */
	CHECK(command(&x, 'i') && read_full(x.info, buf, 1) && buf[0] == 'k');
	{
		char other[80];

		snprintf(other, sizeof(other), "%s-2", instance);
		p = peer_of(&x);
		p.instance = other;
		CHECK_ERR(softhw_mem_connect(&p, &r, &why), DOCA_ERROR_INVALID_VALUE);
		CHECK(strstr(why, "instance") != NULL);
	}
	CHECK(r == NULL);
	/* nobody to ask: the export ended, then the exporter is gone */
	CHECK(command(&x, 'r'));
	p = peer_of(&x);
	CHECK_ERR(softhw_mem_verify(&p, &why), DOCA_ERROR_NOT_FOUND);
	CHECK(finish(&x));
	CHECK_ERR(softhw_mem_verify(&p, &why), DOCA_ERROR_NOT_FOUND);

	/* the NIC's view: an export for it is reached by id and token alone */
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_VIA_NIC, false));
	p = (struct softhw_mem_peer){.instance = instance, .pid = x.pid, .id = x.e.id, .token = x.e.token, .any_range = true};
	CHECK_OK(softhw_mem_connect(&p, &r, &why));
	if (r != NULL) {
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr + MEM_LEN - sizeof(buf), sizeof(buf)));
		CHECK_ERR(softhw_mem_read(r, buf, x.e.addr + MEM_LEN - 8, sizeof(buf)), DOCA_ERROR_INVALID_VALUE);
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
}

/* Pinning (the NIC's target side) is for NIC exports only, inside their range and rights. */
static void test_pin_checks(void)
{
	static char mem[256];
	uint64_t id, token, nid, ntoken;
	const char *why;

	CHECK_OK(softhw_mem_export_add(instance, mem, sizeof(mem), SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_VIA_DMA,
				       &id, &token, &why));
	CHECK_OK(softhw_mem_export_add(instance, mem + 64, 64, SOFTHW_MEM_READ | SOFTHW_MEM_VIA_NIC, &nid, &ntoken, &why));
	CHECK_ERR(softhw_mem_export_pin(id, token, (uint64_t)(uintptr_t)mem, 8, SOFTHW_MEM_READ), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(softhw_mem_export_pin(nid, ntoken, (uint64_t)(uintptr_t)mem + 64, 64, SOFTHW_MEM_READ));
	softhw_mem_export_unpin();
	CHECK_ERR(softhw_mem_export_pin(nid, ntoken, (uint64_t)(uintptr_t)mem + 64, 8, SOFTHW_MEM_WRITE),
		  DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(softhw_mem_export_pin(nid, ntoken, (uint64_t)(uintptr_t)mem + 63, 8, SOFTHW_MEM_READ),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(softhw_mem_export_pin(nid, ntoken, (uint64_t)(uintptr_t)mem + 120, 9, SOFTHW_MEM_READ),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(softhw_mem_export_pin(nid, ntoken ^ 1, (uint64_t)(uintptr_t)mem + 64, 8, SOFTHW_MEM_READ),
		  DOCA_ERROR_INVALID_VALUE);
	softhw_mem_export_remove(id);
	softhw_mem_export_remove(nid);
}

/*
 * The exporter took away memory it exports (a bug on its side): accesses there fail with
 * IO_FAILED on both paths, the exporter survives, and the rest of the range still works.
 */
static void test_unmapped_in_exporter(void)
{
	for (int cma = 1; cma >= 0; cma--) {
		struct exporter x;
		struct softhw_mem_remote *r;
		uint8_t buf[64];
		char ack;
		uint64_t hole;

		importer_cma(cma);
		/* (a shared window would not notice: like a NIC, it keeps the pages it was given) */
		setenv("SOFTDOCA_FABRIC_SHARE", "0", 1);
		CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
		unsetenv("SOFTDOCA_FABRIC_SHARE");
		hole = (uint64_t)(uintptr_t)hole_of((uint8_t *)(uintptr_t)x.e.addr);
		r = connect_ok(&x);
		if (r != NULL) {
			CHECK(write_full(x.cmd, "p", 1) && read_full(x.info, &ack, 1));
			CHECK_ERR(softhw_mem_read(r, buf, hole + 100, sizeof(buf)), DOCA_ERROR_IO_FAILED);
			CHECK_ERR(softhw_mem_write(r, hole + 100, buf, sizeof(buf)), DOCA_ERROR_IO_FAILED);
			CHECK_OK(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)));
			CHECK(matches_pattern(buf, 0, sizeof(buf)));
			CHECK(write_full(x.cmd, "P", 1) && read_full(x.info, &ack, 1));
			CHECK_OK(softhw_mem_read(r, buf, hole + 100, sizeof(buf)));
			softhw_mem_disconnect(r);
		}
		CHECK(finish(&x));
	}
	importer_cma(true);
}

/* Whole pages of the export, well inside it (malloc's buffer starts past a page boundary). */
#define WIN_OFF 8192u

static uint64_t u64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * With cross-memory attach off on both sides, accesses inside the window are still direct
 * (plain memcpy through the shared window), and their bytes reach the exporter; an access
 * that reaches past the window goes through the service thread instead.
 */
static void test_window_roundtrip(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t *buf = malloc(MEM_LEN);

	importer_cma(false);
	CHECK(buf != NULL && spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, true));
	r = connect_ok(&x);
	if (r != NULL && buf != NULL) {
		CHECK(softhw_mem_direct(r, x.e.addr + WIN_OFF, MEM_LEN - 2 * WIN_OFF));
		CHECK(!softhw_mem_direct(r, x.e.addr, 8)); /* the partial first page */
		CHECK(!softhw_mem_direct(r, x.e.addr + WIN_OFF, MEM_LEN)); /* past the window */
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr + WIN_OFF + 3, 100000));
		CHECK(matches_pattern(buf, WIN_OFF + 3, 100000));
		memset(buf, 0xee, 6000);
		{
			/*
			 * The one-call form: 16 bytes of 0x5a at WIN_OFF + 6000 (the dump below checks
			 * where they landed), read back from the window; NOT_SUPPORTED, nothing done,
			 * where the window does not reach.
			 */
			uint8_t mark[16], back[16] = {0};

			memset(mark, 0x5a, sizeof(mark));
			CHECK_OK(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF + 6000, mark, sizeof(mark), true));
			CHECK_OK(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF + 6000, back, sizeof(back), false));
			CHECK(memcmp(back, mark, sizeof(back)) == 0);
			CHECK_OK(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF + 7000, back, 0, false)); /* nothing */
			CHECK_ERR(softhw_mem_copy_direct(r, x.e.addr, mark, 8, true), DOCA_ERROR_NOT_SUPPORTED);
			CHECK_ERR(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF, back, MEM_LEN, false), DOCA_ERROR_NOT_SUPPORTED);
		}
		CHECK_OK(softhw_mem_write(r, x.e.addr + WIN_OFF + 1, buf, 5000));
		/* and one across the window's end, by the service thread */
		CHECK_OK(softhw_mem_write(r, x.e.addr + MEM_LEN - 6000, buf, 6000));
		CHECK(command(&x, 'd') && read_full(x.info, buf, MEM_LEN));
		CHECK(matches_pattern(buf, 0, WIN_OFF + 1));
		bool filled = true;
		for (size_t i = WIN_OFF + 1; i < WIN_OFF + 5001; i++)
			filled = filled && buf[i] == 0xee;
		CHECK(filled);
		for (size_t i = MEM_LEN - 6000; i < MEM_LEN; i++)
			filled = filled && buf[i] == 0xee;
		CHECK(filled);
		for (size_t i = WIN_OFF + 6000; i < WIN_OFF + 6016; i++)
			filled = filled && buf[i] == 0x5a;
		CHECK(filled);
		CHECK(matches_pattern(buf + WIN_OFF + 5001, WIN_OFF + 5001, 999));
		CHECK(matches_pattern(buf + WIN_OFF + 6016, WIN_OFF + 6016, MEM_LEN - 6000 - WIN_OFF - 6016));
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	free(buf);
	importer_cma(true);
}

/* Atomics execute in the window; outside it the caller is told to have the exporter do them. */
static void test_window_atomics(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t *buf = malloc(MEM_LEN);
	uint64_t old = 0, a = 0;

	CHECK(buf != NULL && spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_ATOMIC, false));
	r = connect_ok(&x);
	if (r != NULL && buf != NULL) {
		a = (x.e.addr + WIN_OFF) & ~(uint64_t)7;
		uint8_t init[8];
		for (size_t i = 0; i < sizeof(init); i++)
			init[i] = pattern(a - x.e.addr + i);
		CHECK_OK(softhw_mem_atomic(r, a, false, 5, 0, &old)); /* fetch-add */
		CHECK(old == u64_at(init));
		CHECK_OK(softhw_mem_atomic(r, a, true, u64_at(init) + 5, 42, &old)); /* matches: swapped */
		CHECK(old == u64_at(init) + 5);
		CHECK_OK(softhw_mem_atomic(r, a, true, 7, 99, &old)); /* does not match: unchanged */
		CHECK(old == 42);
		CHECK_ERR(softhw_mem_atomic(r, a + 4, false, 1, 0, &old), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(softhw_mem_atomic(r, x.e.addr + MEM_LEN + 8, false, 1, 0, &old), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(softhw_mem_atomic(r, (x.e.addr + 8) & ~(uint64_t)7, false, 1, 0, &old), DOCA_ERROR_NOT_SUPPORTED);
		CHECK(command(&x, 'd') && read_full(x.info, buf, MEM_LEN));
		CHECK(u64_at(buf + (a - x.e.addr)) == 42);
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));

	/* without the right */
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
	r = connect_ok(&x);
	if (r != NULL) {
		CHECK_ERR(softhw_mem_atomic(r, (x.e.addr + WIN_OFF) & ~(uint64_t)7, false, 1, 0, &old),
			  DOCA_ERROR_NOT_PERMITTED);
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	free(buf);
}

/* The export ends, or the exporter dies: window accesses fail as the other paths do. */
static void test_window_revoked_and_dead(void)
{
	for (int dead = 0; dead <= 1; dead++) {
		struct exporter x;
		struct softhw_mem_remote *r;
		uint8_t buf[16];
		uint64_t old;
		int status;
		doca_error_t want = dead ? DOCA_ERROR_CONNECTION_ABORTED : DOCA_ERROR_IO_FAILED;

		CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE | SOFTHW_MEM_ATOMIC, false));
		r = connect_ok(&x);
		if (r != NULL) {
			CHECK(softhw_mem_direct(r, x.e.addr + WIN_OFF, sizeof(buf)));
			CHECK_OK(softhw_mem_read(r, buf, x.e.addr + WIN_OFF, sizeof(buf)));
			if (dead) {
				kill(x.pid, SIGKILL);
				CHECK(waitpid(x.pid, &status, 0) == x.pid && WIFSIGNALED(status));
			} else {
				CHECK(command(&x, 'r'));
			}
			/*
			 * The window is gone, not out of reach: the error, not NOT_SUPPORTED. First the
			 * one-call form, which finds it in the window; then again once the remote knows.
			 */
			CHECK_ERR(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF, buf, sizeof(buf), true), want);
			CHECK_ERR(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF, buf, sizeof(buf), false), want);
			CHECK_ERR(softhw_mem_write(r, x.e.addr + WIN_OFF, buf, sizeof(buf)), want);
			CHECK_ERR(softhw_mem_read(r, buf, x.e.addr + WIN_OFF, sizeof(buf)), want);
			CHECK_ERR(softhw_mem_atomic(r, (x.e.addr + WIN_OFF) & ~(uint64_t)7, false, 1, 0, &old), want);
			softhw_mem_disconnect(r);
		}
		if (dead) {
			close(x.cmd);
			close(x.info);
		} else {
			CHECK(finish(&x));
		}
	}
}

/* The importer's write whose source page faults, held in its window access until the test lets go. */
struct held_write {
	struct softhw_mem_remote *r;
	uint64_t addr;
	void *src;
	size_t len;
	doca_error_t err;
};

static void *held_write_run(void *arg)
{
	struct held_write *h = arg;

	h->err = softhw_mem_write(h->r, h->addr, h->src, h->len);
	return NULL;
}

/* The system call the exporting child's main thread is in; -2: /proc does not tell us. */
static long child_syscall(pid_t pid)
{
	char path[64], buf[256] = "";
	FILE *f;
	long nr = -2;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	f = fopen(path, "r");
	if (f != NULL) {
		if (fgets(buf, sizeof(buf), f) == NULL || sscanf(buf, "%ld", &nr) != 1)
			nr = -2; /* (ptrace access refused: Yama) */
		fclose(f);
	}
	return nr;
}

/*
 * An export ends while an importer is inside a window access: the exporter waits for the access
 * to end, and what it wrote is in the exporter's memory afterwards (the pages go back to
 * private memory only then). The importer's source page is missing under userfaultfd, so its
 * copy stops inside the access until the test supplies the page. `serialised`: the access is
 * announced with plain stores and the exporter's membarrier() (the soft NIC's views), else
 * counted with atomics. `two_chunks`: the write is two chunks long (SOFTHW_SHARE_COPY_CHUNK) and
 * stops on the last page of the first: the exporter waits for that chunk only, and the copy
 * then fails at the second (IO_FAILED), which lands nowhere, where one access of the whole
 * copy would have kept the export waiting to its end. `cma`: the export has no window
 * (SOFTDOCA_FABRIC_SHARE=0 in the exporter) and the write goes by cross-memory attach, each
 * chunk inside the export's liveness slot all the same (the fault is then the kernel's, in
 * process_vm_writev: a userfaultfd that handles kernel faults, which needs privilege).
 * `long_hold` (with cma): the access lasts past the 1 s after which the end of a window's
 * export gives a silent importer up; a guard's end waits on while the importer lives, since its
 * write has nothing to absorb it: the exporter ends the export, then clears its memory ('R'),
 * and not a byte of the write may be found there afterwards.
 */
static void window_unexport_waits(bool serialised, bool two_chunks, bool cma, bool long_hold)
{
	const long pg = sysconf(_SC_PAGESIZE);
	const size_t len = two_chunks ? 2 * SOFTHW_SHARE_COPY_CHUNK : (size_t)pg;
	const size_t hold = two_chunks ? SOFTHW_SHARE_COPY_CHUNK - (size_t)pg : 0; /* the missing page */
	const size_t landed = two_chunks ? SOFTHW_SHARE_COPY_CHUNK : (size_t)pg;
	struct uffdio_api api = {.api = UFFD_API};
	struct uffdio_register reg;
	struct uffdio_copy copy;
	struct uffd_msg msg;
	struct held_write h = {0};
	struct softhw_mem_peer p;
	struct exporter x;
	struct pollfd pfd;
	pthread_t t;
	uint8_t *buf = malloc(MEM_LEN), *page = NULL, *src;
	/* (faults in user mode only: what an unprivileged process may ask for) */
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | (cma ? 0 : UFFD_USER_MODE_ONLY));
	long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	const char *why = "";
	bool waited = false, seen = true;

	if (uffd < 0 && !cma)
		uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC); /* (before Linux 5.11) */
	if (serialised && (cmds < 0 || !(cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED))) {
		printf("skipped: no membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) here: windows count their accesses\n");
		if (uffd >= 0)
			close(uffd);
		free(buf);
		return;
	}
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) != 0) {
		printf("skipped: no userfaultfd here (%s); as root it is there\n", strerror(errno));
		if (uffd >= 0)
			close(uffd);
		free(buf);
		return;
	}
	src = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	page = malloc((size_t)pg);
	CHECK(src != MAP_FAILED && page != NULL && buf != NULL);
	if (src != MAP_FAILED) { /* every source page there but the one held */
		memset(src, 0x3c, hold);
		memset(src + hold + pg, 0x3c, len - hold - (size_t)pg);
	}
	reg = (struct uffdio_register){.range = {.start = (uintptr_t)src + hold, .len = (uint64_t)pg},
				       .mode = UFFDIO_REGISTER_MODE_MISSING};
	CHECK(ioctl(uffd, UFFDIO_REGISTER, &reg) == 0);
	importer_cma(cma);
	if (cma)
		setenv("SOFTDOCA_FABRIC_SHARE", "0", 1); /* (the exporter child's) */
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, !cma));
	unsetenv("SOFTDOCA_FABRIC_SHARE");
	p = peer_of(&x);
	p.serialised = serialised;
	CHECK_OK(softhw_mem_connect(&p, &h.r, &why));
	if (h.r != NULL && page != NULL && buf != NULL && src != MAP_FAILED) {
		CHECK(softhw_mem_direct(h.r, x.e.addr + WIN_OFF, len));
		CHECK(softhw_mem_uses_cma(h.r) == cma);
		CHECK(softhw_mem_window_announced(h.r) == (serialised && !cma)); /* (a guard's view counts in its word) */
		h.addr = x.e.addr + WIN_OFF;
		h.src = src;
		h.len = len;
		CHECK(pthread_create(&t, NULL, held_write_run, &h) == 0);
		/* the fault: the writer is inside its access */
		pfd = (struct pollfd){.fd = uffd, .events = POLLIN};
		CHECK(poll(&pfd, 1, 10000) == 1 && read(uffd, &msg, sizeof(msg)) == (ssize_t)sizeof(msg) &&
		      msg.event == UFFD_EVENT_PAGEFAULT);
		/* end the export: the child's main thread goes to wait for the access (futex) */
		CHECK(write_full(x.cmd, long_hold ? "R" : "r", 1));
		for (int i = 0; i < 10000 && !waited && seen; i++) {
			long nr = child_syscall(x.pid);

			seen = nr != -2;
			waited = nr == SYS_futex;
			if (!waited)
				(void)poll(NULL, 0, 1);
		}
		if (seen)
			CHECK(waited);
		else /* the 200 ms below still tell */
			printf("/proc/%d/syscall unreadable here: the child's wait is not seen\n", (int)x.pid);
		/* and does not answer while the access lasts (it would give up only after 1 s) */
		pfd = (struct pollfd){.fd = x.info, .events = POLLIN};
		CHECK(poll(&pfd, 1, long_hold ? 1500 : 200) == 0);
		/* let the access finish: the page of 0x3c arrives, the copy completes */
		memset(page, 0x3c, (size_t)pg);
		copy = (struct uffdio_copy){.dst = (uintptr_t)src + hold, .src = (uintptr_t)page, .len = (uint64_t)pg};
		if (ioctl(uffd, UFFDIO_COPY, &copy) != 0) {
			CHECK(!"UFFDIO_COPY");
			close(uffd); /* (the fault is then resolved with a zero page: the writer returns) */
			uffd = -1;
		}
		CHECK(pthread_join(t, NULL) == 0);
		CHECK_ERR(h.err, two_chunks ? DOCA_ERROR_IO_FAILED : DOCA_SUCCESS); /* (the export ended at the second) */
		pfd = (struct pollfd){.fd = x.info, .events = POLLIN};
		CHECK(poll(&pfd, 1, 10000) == 1 && read_full(x.info, buf, 1) && buf[0] == 'k');
		if (long_hold) { /* the write came before the end, the clearing after: nothing left */
			uint64_t changed = ~0ull;

			CHECK(write_full(x.cmd, "c", 1) && read_full(x.info, &changed, sizeof(changed)) && changed == 0);
			goto done;
		}
		/* the write is in the exporter's memory, which is private again */
		CHECK(command(&x, 'd') && read_full(x.info, buf, MEM_LEN));
		bool written = true;
		for (size_t i = WIN_OFF; i < WIN_OFF + landed; i++)
			written = written && buf[i] == 0x3c;
		CHECK(written);
		CHECK(matches_pattern(buf + WIN_OFF + landed, WIN_OFF + landed, MEM_LEN - WIN_OFF - landed));
done:
		/* and the next access fails: the export ended */
		CHECK_ERR(softhw_mem_write(h.r, x.e.addr + WIN_OFF, page, 8), DOCA_ERROR_IO_FAILED);
	}
	if (h.r != NULL)
		softhw_mem_disconnect(h.r);
	CHECK(finish(&x));
	if (src != MAP_FAILED)
		munmap(src, len);
	if (uffd >= 0)
		close(uffd);
	free(page);
	free(buf);
	importer_cma(true);
}

static void test_window_unexport_waits_counted(void)
{
	window_unexport_waits(false, false, false, false);
}

static void test_window_unexport_waits_announced(void)
{
	window_unexport_waits(true, false, false, false);
}

static void test_window_unexport_ends_long_copy_counted(void)
{
	window_unexport_waits(false, true, false, false);
}

static void test_window_unexport_ends_long_copy_announced(void)
{
	window_unexport_waits(true, true, false, false);
}

/* The same, by cross-memory attach into an export without a window (its liveness slot alone). */
static void test_cma_unexport_ends_long_copy_counted(void)
{
	window_unexport_waits(false, true, true, false);
}

static void test_cma_unexport_ends_long_copy_announced(void)
{
	window_unexport_waits(true, true, true, false);
}

static void test_cma_unexport_waits_past_limit(void)
{
	window_unexport_waits(false, false, true, true);
}

/*
 * The exporter's membarrier() fails when the export ends (a seccomp filter installed after the
 * window was made): the end still completes, warns, and keeps the pages shared; what the importer
 * wrote through its announced view is there, and its next access fails (the export ended).
 */
static void test_window_unexport_membarrier_fails(void)
{
	long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	struct softhw_mem_remote *r = NULL;
	struct softhw_mem_peer p;
	struct exporter x;
	uint8_t *buf = malloc(MEM_LEN), word[8] = {0x5e, 0x5e, 0x5e, 0x5e, 0x5e, 0x5e, 0x5e, 0x5e};
	const char *why = "";
	char ack = 0;

	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED) || buf == NULL) {
		printf("skipped: no membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) here: windows count their accesses\n");
		free(buf);
		return;
	}
	importer_cma(false);
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, true));
	p = peer_of(&x);
	p.serialised = true;
	CHECK_OK(softhw_mem_connect(&p, &r, &why));
	if (r != NULL) {
		CHECK(softhw_mem_window_announced(r));
		CHECK_OK(softhw_mem_write(r, x.e.addr + WIN_OFF, word, sizeof(word)));
		CHECK(write_full(x.cmd, "m", 1) && read_full(x.info, &ack, 1) && ack == 'k');
		CHECK(command(&x, 'r')); /* the end of the export, membarrier() failing */
		CHECK_ERR(softhw_mem_write(r, x.e.addr + WIN_OFF, word, sizeof(word)), DOCA_ERROR_IO_FAILED);
		CHECK(command(&x, 'd') && read_full(x.info, buf, MEM_LEN));
		CHECK(memcmp(buf + WIN_OFF, word, sizeof(word)) == 0);
		CHECK(matches_pattern(buf + WIN_OFF + sizeof(word), WIN_OFF + sizeof(word), 4096));
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	importer_cma(true);
	free(buf);
}

/*
 * `n` serialised views of x's export in a child that then ends without closing them (`stay`:
 * it lives on, holding them, until its pipe closes). Returns the child's pid (0: failed), and
 * through *announced how many of its views got a word of their own.
 */
static pid_t words_child(const struct exporter *x, int n, bool stay, int *pipe_out, int *announced)
{
	int fds[2], up[2], got = -1;
	pid_t kid;

	if (pipe(fds) != 0 || pipe(up) != 0)
		return 0;
	fflush(NULL);
	kid = fork();
	if (kid == 0) {
		struct softhw_mem_peer p = peer_of(x);
		int count = 0;
		char c;

		close(fds[1]);
		close(up[0]);
		p.serialised = true;
		for (int i = 0; i < n; i++) {
			struct softhw_mem_remote *r = NULL;
			const char *why = "";

			if (softhw_mem_connect(&p, &r, &why) != DOCA_SUCCESS || r == NULL)
				_exit(2);
			count += softhw_mem_window_announced(r);
		}
		if (!write_full(up[1], &count, sizeof(count)))
			_exit(3);
		if (stay)
			while (read(fds[0], &c, 1) == 1) {
			}
		_exit(0); /* (the views stay open: their words with them) */
	}
	close(fds[0]);
	close(up[1]);
	if (kid < 0 || !read_full(up[0], &got, sizeof(got))) {
		close(fds[1]);
		close(up[0]);
		return 0;
	}
	close(up[0]);
	*announced = got;
	*pipe_out = fds[1];
	return kid;
}

/*
 * The exporter's 256 announcement words: those of an importer that died without closing its
 * views are taken back by the next importer that finds none free, those of a live one are not.
 */
static void test_window_words_of_dead_importers(void)
{
	enum { WORDS = 256, DEAD = 200 };
	long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	struct softhw_mem_remote *mine[DEAD + 1] = {0};
	struct softhw_mem_peer p;
	struct exporter x;
	int dead_pipe = -1, live_pipe = -1, dead_got = 0, live_got = 0, status;
	pid_t dead, live;
	const char *why = "";

	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_GLOBAL_EXPEDITED)) {
		printf("skipped: no membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED) here: windows count their accesses\n");
		return;
	}
	importer_cma(false);
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, true));
	dead = words_child(&x, DEAD, false, &dead_pipe, &dead_got);
	live = words_child(&x, WORDS - DEAD, true, &live_pipe, &live_got);
	CHECK(dead > 0 && live > 0 && dead_got == DEAD && live_got == WORDS - DEAD); /* every word taken */
	CHECK(waitpid(dead, &status, 0) == dead && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	p = peer_of(&x);
	p.serialised = true;
	for (int i = 0; i <= DEAD; i++) {
		CHECK_OK(softhw_mem_connect(&p, &mine[i], &why));
		if (mine[i] == NULL)
			break;
		/* the dead child's 200 come back; the 201st would be the live child's: counted instead */
		CHECK(softhw_mem_window_announced(mine[i]) == (i < DEAD));
	}
	/* and they work: a word's accesses reach the exporter's memory */
	if (mine[DEAD - 1] != NULL) {
		uint8_t b[64], back[64] = {0};

		memset(b, 0x6b, sizeof(b));
		CHECK_OK(softhw_mem_copy_direct(mine[DEAD - 1], x.e.addr + WIN_OFF, b, sizeof(b), true));
		CHECK_OK(softhw_mem_copy_direct(mine[0], x.e.addr + WIN_OFF, back, sizeof(back), false));
		CHECK(memcmp(b, back, sizeof(b)) == 0);
	}
	for (int i = 0; i <= DEAD; i++)
		softhw_mem_disconnect(mine[i]);
	if (live_pipe >= 0)
		close(live_pipe);
	CHECK(live <= 0 || (waitpid(live, &status, 0) == live && WIFEXITED(status) && WEXITSTATUS(status) == 0));
	if (dead_pipe >= 0)
		close(dead_pipe);
	CHECK(finish(&x));
	importer_cma(true);
}

/* A fork() of the exporter writes its own copy: the exporter's memory, and the window, keep theirs. */
static void test_window_fork_private(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t *buf = malloc(MEM_LEN);

	CHECK(buf != NULL && spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
	r = connect_ok(&x);
	if (r != NULL && buf != NULL) {
		CHECK(softhw_mem_direct(r, x.e.addr + WIN_OFF, 4096));
		CHECK(command(&x, 'F') && read_full(x.info, buf, 1) && buf[0] == 'k');
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr + WIN_OFF, 4096));
		CHECK(matches_pattern(buf, WIN_OFF, 4096));
		CHECK(command(&x, 'd') && read_full(x.info, buf, MEM_LEN));
		CHECK(matches_pattern(buf, 0, MEM_LEN));
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	free(buf);
}

/*
 * The exporter unmaps memory it still exports, then exports other memory: the first export's
 * importers never reach the second's bytes (its window keeps its own pages, as a NIC would).
 */
static void test_window_outlives_free(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t buf[64];
	char ack = 0;

	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
	CHECK(write_full(x.cmd, "U", 1) && read_full(x.info, &ack, 1) && ack == 'k');
	/* (a window's memfd closed with the pages' unmapping would have been reused by the next) */
	r = connect_ok(&x);
	if (r != NULL) {
		CHECK(softhw_mem_direct(r, x.e.addr + WIN_OFF, sizeof(buf)));
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr + WIN_OFF, sizeof(buf)));
		CHECK(matches_pattern(buf, WIN_OFF, sizeof(buf)));
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
}

/* A read-only export gets a read-only window: reads are direct, writes refused. */
static void test_window_read_only(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t buf[64];

	CHECK(spawn(&x, SOFTHW_MEM_READ, false));
	r = connect_ok(&x);
	if (r != NULL) {
		CHECK(softhw_mem_direct(r, x.e.addr + WIN_OFF, sizeof(buf)));
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr + WIN_OFF, sizeof(buf)));
		CHECK(matches_pattern(buf, WIN_OFF, sizeof(buf)));
		CHECK_ERR(softhw_mem_write(r, x.e.addr + WIN_OFF, buf, sizeof(buf)), DOCA_ERROR_NOT_PERMITTED);
		memset(buf, 0, sizeof(buf));
		CHECK_OK(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF, buf, sizeof(buf), false));
		CHECK(matches_pattern(buf, WIN_OFF, sizeof(buf)));
		CHECK_ERR(softhw_mem_copy_direct(r, x.e.addr + WIN_OFF, buf, sizeof(buf), true), DOCA_ERROR_NOT_PERMITTED);
		/* outside the export: refused by the range check where CMA reaches it (without CMA
		 * nothing is direct there, and the left side holds) */
		CHECK(!softhw_mem_direct(r, x.e.addr + MEM_LEN, 8) ||
		      softhw_mem_copy_direct(r, x.e.addr + MEM_LEN, buf, 8, false) == DOCA_ERROR_INVALID_VALUE);
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
}

/* Does /proc/self/maps show addr on one of softdoca's export memfds? */
static bool on_window(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)addr >= lo && (uintptr_t)addr < hi)
			found = strstr(line, "softdoca-export") != NULL;
	}
	if (f != NULL)
		fclose(f);
	return found;
}

/*
 * Importers of an export get the memfd of its window, all of it: a window is never shared with
 * an export of fewer pages (it would reach pages outside its export); the same pages are fine.
 */
static void test_window_never_larger(void)
{
	const size_t pg = 4096, len = 16 * pg;
	uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t id, token, sid, stoken, eid, etoken;
	struct softhw_mem_peer p = {.instance = instance, .pid = getpid(), .any_range = false};
	struct softhw_mem_remote *r = NULL;
	const char *why = "";
	const uint32_t rights = SOFTHW_MEM_READ | SOFTHW_MEM_WRITE;

	CHECK(m != MAP_FAILED);
	if (m == MAP_FAILED)
		return;
	memset(m, 0x5a, len);
	importer_cma(false); /* what is not in a window goes through the service thread */
	CHECK_OK(softhw_mem_export_add(instance, m, len, rights, &id, &token, &why));
	CHECK(on_window(m));
	CHECK_OK(softhw_mem_export_add(instance, m + 2 * pg, 4 * pg, rights, &sid, &stoken, &why));
	CHECK_OK(softhw_mem_export_add(instance, m, len, rights, &eid, &etoken, &why));
	p = (struct softhw_mem_peer){.instance = instance, .pid = getpid(), .id = sid, .token = stoken,
				     .addr = (uint64_t)(uintptr_t)(m + 2 * pg), .len = 4 * pg, .rights = rights};
	CHECK_OK(softhw_mem_connect(&p, &r, &why));
	if (r != NULL) {
		uint8_t buf[8];

		CHECK(!softhw_mem_direct(r, p.addr, pg)); /* no window: the larger one is not its to give */
		CHECK_OK(softhw_mem_read(r, buf, p.addr, sizeof(buf)));
		CHECK(buf[0] == 0x5a);
		softhw_mem_disconnect(r);
		r = NULL;
	}
	p.id = eid; /* the same pages: the same window */
	p.token = etoken;
	p.addr = (uint64_t)(uintptr_t)m;
	p.len = len;
	CHECK_OK(softhw_mem_connect(&p, &r, &why));
	if (r != NULL) {
		CHECK(softhw_mem_direct(r, p.addr, len));
		softhw_mem_disconnect(r);
	}
	softhw_mem_export_remove(sid);
	softhw_mem_export_remove(eid);
	softhw_mem_export_remove(id);
	importer_cma(true);
	munmap(m, len);
}

/*
 * A window's memfd cannot be opened again for writing through /proc: an importer of a
 * read-only export of the same user cannot turn the read-only fd it gets into a writable one.
 * Runs as another uid in a child (root would pass any file mode).
 */
static void test_window_fd_stays_read_only(void)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		const size_t len = 4 * 4096;
		uint8_t *m;
		uint64_t id, token;
		const char *why = "";
		char path[64], link[128];
		int ro, rw, fd = -1;

		alarm(20);
		if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0)
			_exit(77);
		/* A process that changed its uid is not dumpable: its /proc entries stay root's, and
		 * the export could not tell which processes share its memory (no window then). */
		(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(2);
		memset(m, 1, len);
		snprintf(instance, sizeof(instance), "fabric-mem-ro@%d", (int)getpid());
		setenv("SOFTDOCA_RUN_DIR", "/tmp", 1); /* the run directory of the tests is root's */
		if (softhw_mem_export_add(instance, m, len, SOFTHW_MEM_READ, &id, &token, &why) != DOCA_SUCCESS) {
			fprintf(stderr, "export as uid 65534 failed: %s\n", why);
			_exit(3);
		}
		if (!on_window(m))
			_exit(4);
		for (int i = 0; i < 1024 && fd < 0; i++) {
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/self/fd/%d", i);
			n = readlink(path, link, sizeof(link) - 1);
			if (n > 0) {
				link[n] = '\0';
				if (strstr(link, "softdoca-export") != NULL)
					fd = i;
			}
		}
		if (fd < 0)
			_exit(5);
		ro = open(path, O_RDONLY | O_CLOEXEC); /* what an importer of a read-only export gets */
		if (ro < 0)
			_exit(6);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", ro);
		rw = open(path, O_RDWR | O_CLOEXEC);
		if (rw >= 0) {
			fprintf(stderr, "a read-only window fd was opened again read-write\n");
			_exit(7);
		}
		softhw_mem_export_remove(id);
		_exit(0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		fprintf(stderr, "  skipped: cannot switch to uid 65534 (not root)\n");
		return;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* In this process: the pages move onto a window at export, and back when the export ends. */
static void test_window_given_back(void)
{
	const size_t len = 16 * 65536;
	uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t id, token;
	const char *why;

	CHECK(m != MAP_FAILED);
	if (m == MAP_FAILED)
		return;
	for (size_t i = 0; i < len; i += 4096)
		m[i] = (uint8_t)(i >> 12);
	CHECK_OK(softhw_mem_export_add(instance, m, len, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, &id, &token, &why));
	CHECK(on_window(m) && on_window(m + len - 1));
	m[4096] = 0xab; /* still this process's memory, at the same address */
	softhw_mem_export_remove(id);
	CHECK(!on_window(m) && !on_window(m + len - 1));
	bool same = m[4096] == 0xab;
	for (size_t i = 2 * 4096; i < len; i += 4096)
		same = same && m[i] == (uint8_t)(i >> 12);
	CHECK(same);
	munmap(m, len);
}

/* Another application thread in the exporter: no window (its stores could be lost in the move). */
static void test_window_refused_with_threads(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t buf[64];

	exporter_with_thread = true;
	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
	exporter_with_thread = false;
	importer_cma(false);
	r = connect_ok(&x);
	if (r != NULL) {
		CHECK(!softhw_mem_direct(r, x.e.addr + WIN_OFF, 4096));
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr + WIN_OFF, sizeof(buf)));
		CHECK(matches_pattern(buf, WIN_OFF, sizeof(buf)));
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	importer_cma(true);
}

/* The export ends while imported: the next access fails, on both paths. */
static void test_revoked(void)
{
	for (int cma = 1; cma >= 0; cma--) {
		struct exporter x;
		struct softhw_mem_remote *r;
		uint8_t buf[16];

		importer_cma(cma);
		CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
		r = connect_ok(&x);
		if (r != NULL) {
			CHECK_OK(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)));
			CHECK(command(&x, 'r'));
			CHECK_ERR(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)), DOCA_ERROR_IO_FAILED);
			CHECK_ERR(softhw_mem_write(r, x.e.addr, buf, sizeof(buf)), DOCA_ERROR_IO_FAILED);
			softhw_mem_disconnect(r);
		}
		CHECK(finish(&x));
	}
	importer_cma(true);
}

/* The exporter dies: accesses fail with CONNECTION_ABORTED, on both paths, and never hang. */
static void test_dead_exporter(void)
{
	for (int cma = 1; cma >= 0; cma--) {
		struct exporter x;
		struct softhw_mem_remote *r;
		uint8_t buf[16];
		int status;

		importer_cma(cma);
		CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
		r = connect_ok(&x);
		if (r != NULL) {
			CHECK_OK(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)));
			kill(x.pid, SIGKILL);
			CHECK(waitpid(x.pid, &status, 0) == x.pid && WIFSIGNALED(status));
			CHECK_ERR(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)), DOCA_ERROR_CONNECTION_ABORTED);
			CHECK_ERR(softhw_mem_write(r, x.e.addr, buf, sizeof(buf)), DOCA_ERROR_CONNECTION_ABORTED);
			softhw_mem_disconnect(r);
		}
		close(x.cmd);
		close(x.info);
	}
	importer_cma(true);
}

/*
 * The exporter forked a child that lives on, then died: the child must not hold the exporter's
 * end of our connection, or the service path would wait for an answer instead of failing.
 */
static void test_dead_exporter_with_child(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t buf[16];
	char ack = 0;
	int status;

	importer_cma(false);
	CHECK(spawn(&x, SOFTHW_MEM_READ, false));
	r = connect_ok(&x);
	if (r != NULL) {
		CHECK(write_full(x.cmd, "f", 1) && read_full(x.info, &ack, 1) && ack == 'k');
		CHECK_OK(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)));
		kill(x.pid, SIGKILL);
		CHECK(waitpid(x.pid, &status, 0) == x.pid);
		CHECK_ERR(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)), DOCA_ERROR_CONNECTION_ABORTED);
		softhw_mem_disconnect(r);
	}
	close(x.cmd); /* the grandchild sees EOF and exits */
	close(x.info);
	importer_cma(true);
}

/*
 * The exporter is stopped (SIGSTOP) while the service path waits for it: the access fails
 * with TIME_OUT after SOFTHW_MEM_TIMEOUT_MS, and the import stays failed after the exporter
 * resumes (a late reply must not pass for the answer to a later request).
 */
static void test_silent_exporter(void)
{
	struct exporter x;
	struct softhw_mem_remote *r;
	uint8_t buf[16];

	importer_cma(false);
	CHECK(spawn(&x, SOFTHW_MEM_READ, false));
	r = connect_ok(&x);
	if (r != NULL) {
		int status;

		CHECK(!softhw_mem_uses_cma(r));
		kill(x.pid, SIGSTOP);
		CHECK(waitpid(x.pid, &status, WUNTRACED) == x.pid && WIFSTOPPED(status));
		CHECK_ERR(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)), DOCA_ERROR_TIME_OUT);
		kill(x.pid, SIGCONT);
		CHECK_ERR(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)), DOCA_ERROR_TIME_OUT);
		softhw_mem_disconnect(r);
		/* a new import works again */
		r = connect_ok(&x);
		if (r != NULL)
			CHECK_OK(softhw_mem_read(r, buf, x.e.addr, sizeof(buf)));
		softhw_mem_disconnect(r);
	}
	CHECK(finish(&x));
	importer_cma(true);
}

/* Several importers of one export, each with its own connection. */
static void test_several_importers(void)
{
	struct exporter x;
	struct softhw_mem_remote *a, *b;
	uint8_t buf[256];

	CHECK(spawn(&x, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, false));
	importer_cma(false);
	a = connect_ok(&x);
	importer_cma(true);
	b = connect_ok(&x);
	if (a != NULL && b != NULL) {
		CHECK(!softhw_mem_uses_cma(a) && softhw_mem_uses_cma(b));
		memset(buf, 0x5a, sizeof(buf));
		CHECK_OK(softhw_mem_write(a, x.e.addr + 1000, buf, sizeof(buf)));
		memset(buf, 0, sizeof(buf));
		CHECK_OK(softhw_mem_read(b, buf, x.e.addr + 1000, sizeof(buf)));
		CHECK(buf[0] == 0x5a && buf[sizeof(buf) - 1] == 0x5a);
	}
	softhw_mem_disconnect(a);
	softhw_mem_disconnect(b);
	CHECK(finish(&x));
}

/* Exports of this process: looked up by id and token, gone once removed. */
static void test_same_process(void)
{
	static char mem[128];
	uint64_t id, token, id2, token2;
	const char *why;

	CHECK_OK(softhw_mem_export_add(instance, mem, sizeof(mem), SOFTHW_MEM_READ, &id, &token, &why));
	CHECK_OK(softhw_mem_export_add(instance, mem, sizeof(mem), SOFTHW_MEM_READ, &id2, &token2, &why));
	CHECK(id != id2 && token != 0 && token2 != 0);
	CHECK(softhw_mem_export_lookup(id, token));
	CHECK(!softhw_mem_export_lookup(id, token ^ 1));
	softhw_mem_export_remove(id);
	CHECK(!softhw_mem_export_lookup(id, token));
	CHECK(softhw_mem_export_lookup(id2, token2));
	softhw_mem_export_remove(id2);
	softhw_mem_export_remove(id2); /* twice: nothing happens */
	CHECK(!softhw_mem_export_lookup(id2, token2));
}

/*
 * A process that already exports forks an exporter: the child has no service thread and must
 * start its own, without the parent's sockets (which would keep the parent's importers from
 * seeing the parent die). (Under LeakSanitizer the child warns that the parent's thread
 * "was not suspended": it does not exist in the child.)
 */
static void test_exporter_forked_from_exporter(void)
{
	static char mem[64];
	uint64_t id, token;
	const char *why;

	CHECK_OK(softhw_mem_export_add(instance, mem, sizeof(mem), SOFTHW_MEM_READ, &id, &token, &why));
	read_write_roundtrip(true, false, true);
	read_write_roundtrip(false, false, false);
	softhw_mem_export_remove(id);
}

int main(void)
{
	/* Our own instance name: parallel test runs never meet. */
	snprintf(instance, sizeof(instance), "fabric-mem-test@%d", (int)getpid());
	signal(SIGPIPE, SIG_IGN);
	TEST_RUN(test_cma_path);
	TEST_RUN(test_service_path_importer_off);
	TEST_RUN(test_service_path_exporter_off);
	TEST_RUN(test_bounce_must_be_sealed);
	TEST_RUN(test_silent_importers_closed);
	TEST_RUN(test_unread_replies);
	TEST_RUN(test_cma_ends_with_export);
	TEST_RUN(test_rdma_export_not_served);
	TEST_RUN(test_range_and_rights);
	TEST_RUN(test_forged_and_stale);
	TEST_RUN(test_claims_checked);
	TEST_RUN(test_unmapped_in_exporter);
	TEST_RUN(test_revoked);
	TEST_RUN(test_dead_exporter);
	TEST_RUN(test_window_roundtrip);
	TEST_RUN(test_window_atomics);
	TEST_RUN(test_window_revoked_and_dead);
	TEST_RUN(test_window_unexport_waits_counted);
	TEST_RUN(test_window_unexport_waits_announced);
	TEST_RUN(test_window_unexport_ends_long_copy_counted);
	TEST_RUN(test_window_unexport_ends_long_copy_announced);
	TEST_RUN(test_window_unexport_membarrier_fails);
	TEST_RUN(test_cma_unexport_ends_long_copy_counted);
	TEST_RUN(test_cma_unexport_ends_long_copy_announced);
	TEST_RUN(test_cma_unexport_waits_past_limit);
	TEST_RUN(test_window_words_of_dead_importers);
	TEST_RUN(test_window_fork_private);
	TEST_RUN(test_window_refused_with_threads);
	TEST_RUN(test_window_outlives_free);
	TEST_RUN(test_window_read_only);
	TEST_RUN(test_dead_exporter_with_child);
	TEST_RUN(test_silent_exporter);
	TEST_RUN(test_several_importers);
	TEST_RUN(test_same_process);
	TEST_RUN(test_pin_checks);
	TEST_RUN(test_window_given_back);
	TEST_RUN(test_window_never_larger);
	TEST_RUN(test_window_fd_stays_read_only);
	/* Last: this process now runs a service thread, which a forked exporter must drop. */
	TEST_RUN(test_exporter_forked_from_exporter);
	TEST_EXIT();
}
