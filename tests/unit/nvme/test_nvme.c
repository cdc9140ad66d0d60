/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft NVMe disk (softdoca_nvme.h): Identify, queue creation, data round trips on memory
 * and file backing at both block sizes, Flush / Write Zeroes / Deallocate, ring wrap-around
 * with phase flips, a full CQ, 32 commands in flight, the status of every bad input we name,
 * and an idle controller thread that sleeps.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doca_log.h"
#include "softdoca_nvme.h"

#include "log_test.h"
#include "proc_maps.h"
#include "test.h"
#include "thread_switches.h"

#define PAGE 4096
#define WAIT_MS 10000 /* generous: the machine is shared */

static FILE *sdk_log;

static void *page_alloc(size_t n)
{
	void *p = aligned_alloc(PAGE, (n + PAGE - 1) / PAGE * PAGE);

	if (p != NULL)
		memset(p, 0, n);
	return p;
}

/* The next CQE, sleeping on the interrupt fd (bounded); NULL on timeout. */
static struct softdoca_nvme_cqe *wait_cqe(struct softdoca_nvme_qpair *qp)
{
	struct softdoca_nvme_cqe *e;

	while ((e = softdoca_nvme_cq_peek(qp)) == NULL) {
		struct pollfd p = {.fd = qp->irq_fd, .events = POLLIN};
		uint64_t n;

		if (poll(&p, 1, WAIT_MS) <= 0) {
			fprintf(stderr, "no completion on queue %u within %d ms\n", qp->qid, WAIT_MS);
			return NULL;
		}
		if (read(qp->irq_fd, &n, sizeof(n)) < 0)
			return NULL;
	}
	return e;
}

/* Runs one command on qp and returns its status (SC | SCT << 8), -1 on timeout. */
static int run(struct softdoca_nvme_qpair *qp, struct softdoca_nvme_sqe *cmd)
{
	static uint16_t cid;
	struct softdoca_nvme_cqe *e;
	int st;

	cmd->cid = ++cid;
	if (softdoca_nvme_sq_push(qp, cmd) != 0)
		return -1;
	softdoca_nvme_ring_sq(qp);
	e = wait_cqe(qp);
	if (e == NULL)
		return -1;
	CHECK(e->cid == cmd->cid);
	CHECK(e->sqid == qp->qid);
	st = (int)(SOFTDOCA_NVME_CQE_SC(e) | (SOFTDOCA_NVME_CQE_SCT(e) << 8));
	softdoca_nvme_cq_pop(qp);
	softdoca_nvme_ring_cq(qp);
	return st;
}

static struct softdoca_nvme_sqe rw(uint8_t opc, uint64_t slba, uint32_t nlb, void *buf, void *prp2)
{
	return (struct softdoca_nvme_sqe){.opc = opc, .nsid = 1, .prp1 = (uintptr_t)buf, .prp2 = (uintptr_t)prp2,
					  .cdw10 = (uint32_t)slba, .cdw11 = (uint32_t)(slba >> 32), .cdw12 = nlb - 1};
}

static int admin(struct softdoca_nvme_disk *d, struct softdoca_nvme_sqe cmd)
{
	struct softdoca_nvme_cqe e;

	if (softdoca_nvme_admin(d, &cmd, &e) != DOCA_SUCCESS)
		return -1;
	return (int)(SOFTDOCA_NVME_CQE_SC(&e) | (SOFTDOCA_NVME_CQE_SCT(&e) << 8));
}

static struct softdoca_nvme_disk *open_mem(uint32_t bs, uint64_t size)
{
	struct softdoca_nvme_disk_attr a = {.path = NULL, .size = size, .block_size = bs};
	struct softdoca_nvme_disk *d = NULL;

	CHECK_OK(softdoca_nvme_open(&a, &d));
	return d;
}

static void test_identify(void)
{
	struct softdoca_nvme_disk *d = open_mem(512, 1 << 20);
	struct softdoca_nvme_disk_info info;
	uint8_t buf[PAGE];
	uint64_t nsze;
	uint32_t v;

	if (d == NULL)
		return;
	CHECK_OK(softdoca_nvme_get_info(d, &info));
	CHECK(info.num_blocks == 2048 && info.block_size == 512 && info.nsid == 1);
	CHECK_OK(softdoca_nvme_identify(d, 0x01, 0, buf));
	CHECK(memcmp(buf + 24, "softdoca", 8) == 0);
	CHECK(buf[512] == 0x66 && buf[513] == 0x44);
	memcpy(&v, buf + 516, 4);
	CHECK(v == 1); /* NN */
	CHECK_OK(softdoca_nvme_identify(d, 0x00, 1, buf));
	memcpy(&nsze, buf, 8);
	CHECK(nsze == 2048);
	CHECK(((buf[128 + 2]) & 0xff) == 9); /* LBAF0.LBADS */
	CHECK_OK(softdoca_nvme_identify(d, 0x02, 0, buf));
	memcpy(&v, buf, 4);
	CHECK(v == 1);
	memcpy(&v, buf + 4, 4);
	CHECK(v == 0);
	CHECK_OK(softdoca_nvme_identify(d, 0x03, 1, buf));
	CHECK(buf[0] == 2 && buf[1] == 16);
	/* Number of Queues */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_SET_FEATURES, .cdw10 = 0x07,
						 .cdw11 = 0x00030003}) == 0);
	/* SMART log: 512 bytes */
	{
		uint8_t *lp = page_alloc(PAGE);

		CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_GET_LOG_PAGE, .nsid = 0xffffffff,
							 .prp1 = (uintptr_t)lp, .cdw10 = 0x02 | (127u << 16)}) == 0);
		CHECK(lp[3] == 100);
		CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_GET_LOG_PAGE,
							 .prp1 = (uintptr_t)lp, .cdw10 = 0x01 | (15u << 16)}) == 0);
		/* Abort: nothing is ever abortable */
		CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_ABORT, .cdw10 = 1 | (5u << 16)}) == 0);
		free(lp);
	}
	CHECK_OK(softdoca_nvme_close(d));
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/* Round trips on one disk: one block, 64 KiB through a PRP list, Flush, Write Zeroes, DSM. */
static void roundtrip(struct softdoca_nvme_disk *d, uint32_t bs)
{
	struct softdoca_nvme_qpair qp;
	const size_t big = 64 * 1024;
	uint8_t *wbuf = page_alloc(big), *rbuf = page_alloc(big + PAGE);
	uint64_t *list = page_alloc(PAGE);
	uint32_t nlb = (uint32_t)(big / bs);
	struct softdoca_nvme_sqe cmd;
	struct {
		uint32_t cattr, nlb;
		uint64_t slba;
	} *ranges = page_alloc(PAGE);

	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 16, NULL, NULL, &qp));
	/* one block, PRP1 alone (unaligned by 512 bytes within its page: the buffered path) */
	fill(wbuf, bs, 1);
	cmd = rw(SOFTDOCA_NVME_IO_WRITE, 3, 1, wbuf, NULL);
	CHECK(run(&qp, &cmd) == 0);
	cmd = rw(SOFTDOCA_NVME_IO_READ, 3, 1, rbuf + 512, bs + 512 > PAGE ? rbuf + PAGE : NULL);
	CHECK(run(&qp, &cmd) == 0);
	CHECK(memcmp(wbuf, rbuf + 512, bs) == 0);
	/* 64 KiB: PRP1 + a PRP list of 15 pages */
	fill(wbuf, big, 2);
	for (int i = 1; i < 16; i++)
		list[i - 1] = (uintptr_t)(wbuf + (size_t)i * PAGE);
	cmd = rw(SOFTDOCA_NVME_IO_WRITE, 16, nlb, wbuf, list);
	CHECK(run(&qp, &cmd) == 0);
	for (int i = 1; i < 16; i++)
		list[i - 1] = (uintptr_t)(rbuf + (size_t)i * PAGE);
	memset(rbuf, 0, big);
	cmd = rw(SOFTDOCA_NVME_IO_READ, 16, nlb, rbuf, list);
	CHECK(run(&qp, &cmd) == 0);
	CHECK(memcmp(wbuf, rbuf, big) == 0);
	cmd = (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_IO_FLUSH, .nsid = 1};
	CHECK(run(&qp, &cmd) == 0);
	/* Write Zeroes over the first 8 KiB of the 64 KiB */
	cmd = rw(SOFTDOCA_NVME_IO_WRITE_ZEROES, 16, (uint32_t)(8192 / bs), NULL, NULL);
	CHECK(run(&qp, &cmd) == 0);
	cmd = rw(SOFTDOCA_NVME_IO_READ, 16, nlb, rbuf, list);
	CHECK(run(&qp, &cmd) == 0);
	CHECK(all_zero(rbuf, 8192));
	CHECK(memcmp(wbuf + 8192, rbuf + 8192, big - 8192) == 0);
	/* Deallocate two ranges: the last 8 KiB and one block in the middle */
	ranges[0].nlb = (uint32_t)(8192 / bs);
	ranges[0].slba = 16 + (big - 8192) / bs;
	ranges[1].nlb = 1;
	ranges[1].slba = 16 + (32768 / bs);
	cmd = (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_IO_DSM, .nsid = 1, .prp1 = (uintptr_t)ranges,
					 .cdw10 = 1, .cdw11 = 1u << 2};
	CHECK(run(&qp, &cmd) == 0);
	cmd = rw(SOFTDOCA_NVME_IO_READ, 16, nlb, rbuf, list);
	CHECK(run(&qp, &cmd) == 0);
	CHECK(all_zero(rbuf + big - 8192, 8192));
	CHECK(all_zero(rbuf + 32768, bs));
	CHECK(memcmp(wbuf + 8192, rbuf + 8192, 32768 - 8192) == 0);
	CHECK(memcmp(wbuf + 32768 + bs, rbuf + 32768 + bs, big - 8192 - 32768 - bs) == 0);
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	free(wbuf);
	free(rbuf);
	free(list);
	free(ranges);
}

static void test_roundtrip_memory(void)
{
	for (uint32_t bs = 512; bs <= 4096; bs *= 8) {
		struct softdoca_nvme_disk *d = open_mem(bs, 4 << 20);

		if (d == NULL)
			return;
		roundtrip(d, bs);
		CHECK_OK(softdoca_nvme_close(d));
	}
}

static void test_roundtrip_file(void)
{
	char path[] = "/tmp/softdoca-nvme-XXXXXX";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	for (uint32_t bs = 512; bs <= 4096; bs *= 8) {
		struct softdoca_nvme_disk_attr a = {.path = path, .size = 4 << 20, .block_size = bs};
		struct softdoca_nvme_disk *d = NULL;

		struct softdoca_nvme_disk_info before, after;

		CHECK_OK(softdoca_nvme_open(&a, &d));
		if (d == NULL)
			break;
		CHECK_OK(softdoca_nvme_get_info(d, &before));
		roundtrip(d, bs);
		/* where the file system takes O_DIRECT, no aligned transfer made us fall back */
		CHECK_OK(softdoca_nvme_get_info(d, &after));
		CHECK(after.direct_io == before.direct_io);
		fprintf(stderr, "file backing, %u-byte blocks: direct I/O %s\n", bs, after.direct_io ? "on" : "off");
		CHECK_OK(softdoca_nvme_close(d));
	}
	/* the data is in the file: a reopen reads what was written */
	{
		struct softdoca_nvme_disk_attr a = {.path = path, .size = 0, .block_size = 4096};
		struct softdoca_nvme_disk_info info;
		struct softdoca_nvme_disk *d = NULL;

		CHECK_OK(softdoca_nvme_open(&a, &d));
		if (d != NULL) {
			CHECK_OK(softdoca_nvme_get_info(d, &info));
			CHECK(info.num_blocks == 1024);
			CHECK_OK(softdoca_nvme_close(d));
		}
	}
	unlink(path);
}

static bool mapped(const char *path)
{
	return maps_show(0, path);
}

/* A scratch file on tmpfs (/dev/shm), or false when there is none (the test says it skipped). */
static bool tmpfs_file(char *path, size_t len, const char *what)
{
	if (!path_on_tmpfs("/dev/shm")) {
		printf("  skipped %s: /dev/shm is not tmpfs here\n", what);
		return false;
	}
	snprintf(path, len, "/dev/shm/softdoca-nvme-%d-%s", (int)getpid(), what);
	return true;
}

/*
 * A file on tmpfs with no holes is read and written through a mapping (nvme map.c), coherent
 * with the file's other users both ways. Then another user shrinks the file under the open
 * disk: the Read beyond the new end faults in the mapping, and gets Unrecovered Read Error from
 * the pread that follows (no crash), the log says why, the mapping is gone, and I/O goes on.
 */
static void test_tmpfs_mapped(void)
{
	char path[96];
	uint8_t *buf = page_alloc(PAGE), blk[PAGE];
	struct softdoca_nvme_disk_attr a = {.size = 1 << 20, .block_size = 4096};
	struct softdoca_nvme_disk *d = NULL;
	struct softdoca_nvme_qpair qp;
	struct softdoca_nvme_sqe c;
	int fd;

	if (buf == NULL || !tmpfs_file(path, sizeof(path), "mapped"))
		goto out;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	if (fd < 0)
		goto out;
	for (int i = 0; i < 256; i++) { /* every block allocated: no holes */
		memset(blk, i, PAGE);
		CHECK(pwrite(fd, blk, PAGE, (off_t)i * PAGE) == PAGE);
	}
	a.path = path;
	CHECK_OK(softdoca_nvme_open(&a, &d));
	if (d == NULL)
		goto closefd;
	CHECK(mapped(path) == nvme_map_on());
	/* PRP lists, Flush, and holes punched by Write Zeroes and Deallocate read back as zeroes */
	roundtrip(d, 4096);
	CHECK(mapped(path) == nvme_map_on());
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 16, NULL, NULL, &qp));
	/* a Write through the mapping is in the file */
	memset(buf, 0xa5, PAGE);
	c = rw(SOFTDOCA_NVME_IO_WRITE, 3, 1, buf, NULL);
	CHECK(run(&qp, &c) == 0);
	CHECK(pread(fd, blk, PAGE, 3 * PAGE) == PAGE && blk[0] == 0xa5 && blk[PAGE - 1] == 0xa5);
	/* a Read sees what another writer put in the file */
	memset(blk, 0x5a, PAGE);
	CHECK(pwrite(fd, blk, PAGE, 7 * PAGE) == PAGE);
	c = rw(SOFTDOCA_NVME_IO_READ, 7, 1, buf, NULL);
	CHECK(run(&qp, &c) == 0);
	CHECK(buf[0] == 0x5a && buf[PAGE - 1] == 0x5a);
	c = rw(SOFTDOCA_NVME_IO_READ, 200, 1, buf, NULL);
	CHECK(run(&qp, &c) == 0);
	CHECK(buf[0] == 200 && buf[PAGE - 1] == 200);
	log_take(sdk_log, ""); /* forget the open's lines */
	/* shrunk under the disk to 64 KiB: block 200 is gone */
	CHECK(ftruncate(fd, 64 << 10) == 0);
	c = rw(SOFTDOCA_NVME_IO_READ, 200, 1, buf, NULL);
	CHECK(run(&qp, &c) == (SOFTDOCA_NVME_SCT_MEDIA << 8 | SOFTDOCA_NVME_SC_UNRECOVERED_READ));
	if (nvme_map_on()) /* (else io_uring's short read alone) */
		CHECK(log_take(sdk_log, "faulted in the mapped store (it shrank"));
	CHECK(!mapped(path));
	/* the disk goes on with pread / pwrite */
	memset(buf, 0x3c, PAGE);
	c = rw(SOFTDOCA_NVME_IO_WRITE, 1, 1, buf, NULL);
	CHECK(run(&qp, &c) == 0);
	CHECK(pread(fd, blk, PAGE, PAGE) == PAGE && blk[0] == 0x3c);
	memset(buf, 0, PAGE);
	c = rw(SOFTDOCA_NVME_IO_READ, 3, 1, buf, NULL);
	CHECK(run(&qp, &c) == 0);
	CHECK(buf[0] == 0xa5);
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
closefd:
	close(fd);
	unlink(path);
out:
	free(buf);
}

/*
 * The disk's SIGBUS guard takes only faults in its own mapping: another SIGBUS of the process
 * (here a mapping of its own, whose file shrank) still ends it as before: by SIGBUS, or by the
 * sanitizer's report (SIGABRT) under ASan, whose handler was there first. Not a hang: alarm.
 */
static void test_tmpfs_foreign_sigbus(void)
{
	char path[96], other[112];
	int status = 0;
	pid_t pid;

	if (!nvme_map_on()) {
		printf("  skipped: nothing is mapped with SOFTDOCA_NVME_INLINE=0 or SOFTDOCA_NVME_MAP=0\n");
		return;
	}
	if (!tmpfs_file(path, sizeof(path), "guard"))
		return;
	snprintf(other, sizeof(other), "%s-other", path);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		struct softdoca_nvme_disk_attr a = {.path = path, .size = 64 << 10, .block_size = 4096};
		struct softdoca_nvme_disk *d = NULL;
		static uint8_t blk[64 << 10];
		volatile uint8_t *m;
		int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		int fo = open(other, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

		alarm(20);
		if (fd < 0 || fo < 0 || pwrite(fd, blk, sizeof(blk), 0) != (ssize_t)sizeof(blk) ||
		    softdoca_nvme_open(&a, &d) != DOCA_SUCCESS || !mapped(path) || ftruncate(fo, PAGE) != 0)
			_exit(2);
		m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fo, 0);
		if (m == MAP_FAILED || ftruncate(fo, 0) != 0)
			_exit(3);
		(void)m[0]; /* SIGBUS, not ours */
		_exit(4);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	printf("  child status 0x%x\n", status);
	CHECK(WIFSIGNALED(status) && (WTERMSIG(status) == SIGBUS || WTERMSIG(status) == SIGABRT));
	unlink(path);
	unlink(other);
}

/*
 * A file on tmpfs with holes is not mapped: reading a hole through a mapping would allocate
 * its page, where pread returns zeroes and allocates nothing.
 */
static void test_tmpfs_sparse(void)
{
	char path[96];
	uint8_t *buf = page_alloc(PAGE);
	struct softdoca_nvme_disk_attr a = {.size = 1 << 20, .block_size = 4096};
	struct softdoca_nvme_disk *d = NULL;
	struct softdoca_nvme_qpair qp;
	struct softdoca_nvme_sqe c;
	struct stat st;

	if (buf == NULL || !tmpfs_file(path, sizeof(path), "sparse"))
		goto out;
	a.path = path; /* created by the open, as 1 MiB of holes */
	CHECK_OK(softdoca_nvme_open(&a, &d));
	if (d == NULL)
		goto out;
	CHECK(!mapped(path));
	if (nvme_map_on()) /* (the look for holes is the mapping's) */
		CHECK(log_take(sdk_log, "has holes (first at byte 0)"));
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 16, NULL, NULL, &qp));
	for (int i = 0; i < 256; i += 16) {
		memset(buf, 0xff, PAGE);
		c = rw(SOFTDOCA_NVME_IO_READ, (uint64_t)i, 1, buf, NULL);
		CHECK(run(&qp, &c) == 0);
		CHECK(buf[0] == 0 && buf[PAGE - 1] == 0);
	}
	CHECK(stat(path, &st) == 0 && st.st_blocks == 0);
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	unlink(path);
out:
	free(buf);
}

/*
 * A block device, when SOFTDOCA_NVME_TEST_BDEV names one (its first 4 MiB are overwritten):
 * e.g. a loop device over a scratch file. Without it, nothing is run.
 */
static void test_roundtrip_bdev(void)
{
	const char *path = getenv("SOFTDOCA_NVME_TEST_BDEV");

	if (path == NULL || *path == '\0') {
		fprintf(stderr, "SOFTDOCA_NVME_TEST_BDEV unset: no block device round trip\n");
		return;
	}
	for (uint32_t bs = 512; bs <= 4096; bs *= 8) {
		struct softdoca_nvme_disk_attr a = {.path = path, .size = 4 << 20, .block_size = bs};
		struct softdoca_nvme_disk_info info;
		struct softdoca_nvme_disk *d = NULL;

		CHECK_OK(softdoca_nvme_open(&a, &d));
		if (d == NULL)
			return;
		CHECK_OK(softdoca_nvme_get_info(d, &info));
		CHECK(info.num_blocks == (4u << 20) / bs);
		roundtrip(d, bs);
		CHECK_OK(softdoca_nvme_get_info(d, &info));
		fprintf(stderr, "block device %s, %u-byte blocks: direct I/O %s\n", path, bs, info.direct_io ? "on" : "off");
		CHECK_OK(softdoca_nvme_close(d));
	}
}

/* Depth 4: three commands per round, twenty rounds; the phase flips, sqhd follows. */
static void test_wrap_and_full_cq(void)
{
	struct softdoca_nvme_disk *d = open_mem(4096, 1 << 20);
	struct softdoca_nvme_qpair qp;
	uint8_t *buf = page_alloc(PAGE);
	uint16_t cid = 0;
	int flips = 0;

	if (d == NULL)
		return;
	CHECK_OK(softdoca_nvme_qpair_create(d, 2, 4, NULL, NULL, &qp));
	for (int round = 0; round < 20; round++) {
		uint8_t phase = qp.cq_phase;

		for (int i = 0; i < 3; i++) {
			struct softdoca_nvme_sqe c = rw(SOFTDOCA_NVME_IO_READ, (uint64_t)i, 1, buf, NULL);

			c.cid = ++cid;
			CHECK(softdoca_nvme_sq_push(&qp, &c) == 0);
		}
		/* a fourth would overwrite an entry the controller has not fetched */
		{
			struct softdoca_nvme_sqe c = rw(SOFTDOCA_NVME_IO_READ, 0, 1, buf, NULL);

			CHECK(softdoca_nvme_sq_push(&qp, &c) == -1);
		}
		softdoca_nvme_ring_sq(&qp);
		for (int i = 0; i < 3; i++) {
			struct softdoca_nvme_cqe *e = wait_cqe(&qp);

			if (e == NULL)
				return;
			CHECK(SOFTDOCA_NVME_CQE_SC(e) == 0);
			softdoca_nvme_cq_pop(&qp);
		}
		CHECK(qp.sq_head == qp.sq_tail);
		softdoca_nvme_ring_cq(&qp);
		flips += qp.cq_phase != phase;
	}
	CHECK(flips >= 10);

	/*
	 * A full CQ: three completions fill a 4-entry CQ; three more commands are fetched and run,
	 * and their completions wait until the host frees CQ entries.
	 */
	for (int batch = 0; batch < 2; batch++) {
		for (int i = 0; i < 3; i++) {
			struct softdoca_nvme_sqe c = rw(SOFTDOCA_NVME_IO_READ, 1, 1, buf, NULL);

			c.cid = ++cid;
			CHECK(softdoca_nvme_sq_push(&qp, &c) == 0);
		}
		softdoca_nvme_ring_sq(&qp);
		if (batch == 0) {
			/* wait for the third CQE of the batch without consuming any */
			struct softdoca_nvme_cqe *third = &qp.cq[(qp.cq_head + 2) % 4];
			uint8_t want = (uint8_t)((qp.cq_head + 2 >= 4) ? !qp.cq_phase : qp.cq_phase);
			struct timespec t0, t;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			while ((__atomic_load_n(&third->status, __ATOMIC_ACQUIRE) & 1) != want) {
				struct pollfd p = {.fd = qp.irq_fd, .events = POLLIN};
				uint64_t n;

				clock_gettime(CLOCK_MONOTONIC, &t);
				if (t.tv_sec - t0.tv_sec > WAIT_MS / 1000)
					break;
				if (poll(&p, 1, 1000) > 0 && read(qp.irq_fd, &n, sizeof(n)) < 0)
					break;
			}
			CHECK((third->status & 1) == want);
			/* sqhd of the third says all three were fetched: the SQ has room again */
			qp.sq_head = third->sqhd;
		}
	}
	for (int i = 0; i < 6; i++) {
		struct softdoca_nvme_cqe *e = wait_cqe(&qp);

		if (e == NULL)
			break;
		CHECK(SOFTDOCA_NVME_CQE_SC(e) == 0);
		softdoca_nvme_cq_pop(&qp);
		softdoca_nvme_ring_cq(&qp); /* frees room for the waiting completions */
	}
	CHECK(qp.sq_head == qp.sq_tail);
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	free(buf);
}

/*
 * 32 reads in flight on a memory disk. Its Reads and Writes are copies the controller makes
 * itself (io.c inline_store): no io_uring io-wq worker ever starts for them, where io_uring
 * handed each to one (memory takes no non-blocking I/O). SOFTDOCA_NVME_INLINE=0 (test
 * nvme_io_uring) keeps io_uring.
 */
static void test_queue_depth_32(void)
{
	struct softdoca_nvme_disk *d = open_mem(4096, 1 << 20);
	struct softdoca_nvme_qpair qp;
	uint8_t *bufs = page_alloc(32 * PAGE);
	int done = 0;

	if (d == NULL || bufs == NULL)
		return;
	CHECK_OK(softdoca_nvme_qpair_create(d, 3, 64, NULL, NULL, &qp));
	for (int i = 0; i < 256; i++) {
		struct softdoca_nvme_sqe c;

		memset(bufs, i, PAGE);
		c = rw(SOFTDOCA_NVME_IO_WRITE, (uint64_t)i, 1, bufs, NULL);
		CHECK(run(&qp, &c) == 0);
	}
	for (int i = 0; i < 32; i++) {
		uint64_t lba = (uint64_t)(i * 37 % 256);
		struct softdoca_nvme_sqe c = rw(SOFTDOCA_NVME_IO_READ, lba, 1, bufs + (size_t)i * PAGE, NULL);

		c.cid = (uint16_t)(1000 + i);
		CHECK(softdoca_nvme_sq_push(&qp, &c) == 0);
	}
	softdoca_nvme_ring_sq(&qp);
	while (done < 32) {
		struct softdoca_nvme_cqe *e = wait_cqe(&qp);
		int i;

		if (e == NULL)
			break;
		i = e->cid - 1000;
		CHECK(i >= 0 && i < 32 && SOFTDOCA_NVME_CQE_SC(e) == 0);
		if (i >= 0 && i < 32)
			CHECK(bufs[(size_t)i * PAGE] == (uint8_t)(i * 37 % 256) &&
			      bufs[(size_t)i * PAGE + PAGE - 1] == (uint8_t)(i * 37 % 256));
		softdoca_nvme_cq_pop(&qp);
		done++;
	}
	softdoca_nvme_ring_cq(&qp);
	CHECK(done == 32);
	{
		const char *v = getenv("SOFTDOCA_NVME_INLINE");
		int workers = threads_named("iou-wrk-");

		printf("  io-wq workers after 256 writes and 32 reads on a memory disk: %d\n", workers);
		if (v == NULL || v[0] != '0')
			CHECK(workers == 0);
	}
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	free(bufs);
}

struct worker {
	struct softdoca_nvme_disk *disk;
	uint16_t qid;
	int failures;
};

/* One thread, one queue pair: writes and reads back 100 blocks of its own. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct softdoca_nvme_qpair qp;
	uint8_t *wb = page_alloc(PAGE), *rb = page_alloc(PAGE);

	if (softdoca_nvme_qpair_create(w->disk, w->qid, 8, NULL, NULL, &qp) != DOCA_SUCCESS) {
		w->failures++;
		return NULL;
	}
	for (int i = 0; i < 100; i++) {
		uint64_t lba = (uint64_t)w->qid * 100 + (uint64_t)i;
		struct softdoca_nvme_sqe c = rw(SOFTDOCA_NVME_IO_WRITE, lba, 1, wb, NULL);

		fill(wb, PAGE, (unsigned)lba);
		w->failures += run(&qp, &c) != 0;
		c = rw(SOFTDOCA_NVME_IO_READ, lba, 1, rb, NULL);
		w->failures += run(&qp, &c) != 0;
		w->failures += memcmp(wb, rb, PAGE) != 0;
	}
	w->failures += softdoca_nvme_qpair_destroy(w->disk, &qp) != DOCA_SUCCESS;
	free(wb);
	free(rb);
	return NULL;
}

/* Four threads on four queue pairs of one disk at once; then a delete with writes in flight. */
static void test_queue_pairs_in_parallel(void)
{
	struct softdoca_nvme_disk *d = open_mem(4096, 4 << 20);
	struct worker w[4];
	pthread_t t[4];
	struct softdoca_nvme_qpair qp;
	uint8_t *big;

	if (d == NULL)
		return;
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){.disk = d, .qid = (uint16_t)(i + 1)};
		CHECK(pthread_create(&t[i], NULL, worker_main, &w[i]) == 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		CHECK(w[i].failures == 0);
	}
	/* 16 writes of 8 KiB in flight when the pair is deleted: the delete waits for them */
	big = page_alloc(2 * PAGE);
	CHECK_OK(softdoca_nvme_qpair_create(d, 5, 32, NULL, NULL, &qp));
	for (int i = 0; i < 16; i++) {
		struct softdoca_nvme_sqe c = rw(SOFTDOCA_NVME_IO_WRITE, (uint64_t)i * 2, 2, big, big + PAGE);

		c.cid = (uint16_t)i;
		CHECK(softdoca_nvme_sq_push(&qp, &c) == 0);
	}
	softdoca_nvme_ring_sq(&qp);
	CHECK(wait_cqe(&qp) != NULL);
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	/* whether the delete found commands still running depends on timing: said, not checked */
	fprintf(stderr, "Delete I/O SQ %s\n", strstr(log_read(sdk_log), "waits for its") != NULL ?
		"waited for commands in flight" : "found no command in flight");
	CHECK_OK(softdoca_nvme_close(d));
	free(big);
}

#define ST(sct, sc) ((sc) | ((sct) << 8))
#define G SOFTDOCA_NVME_SCT_GENERIC
#define C SOFTDOCA_NVME_SCT_COMMAND

static void test_bad_inputs(void)
{
	struct softdoca_nvme_disk *d = open_mem(512, 1 << 20);
	struct softdoca_nvme_qpair qp;
	uint8_t *buf = page_alloc(2 * PAGE), *ring = page_alloc(PAGE);
	struct softdoca_nvme_sqe c;

	if (d == NULL)
		return;
	log_take(sdk_log, ""); /* forget what came before */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = 0x7e}) == ST(G, SOFTDOCA_NVME_SC_INVALID_OPCODE));
	CHECK(log_take(sdk_log, "admin opcode 0x7e is not supported"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_IDENTIFY, .cdw10 = 0x1f,
						 .prp1 = (uintptr_t)buf}) == ST(G, SOFTDOCA_NVME_SC_INVALID_FIELD));
	CHECK(log_take(sdk_log, "CNS 0x1f is not supported"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_IDENTIFY, .nsid = 7,
						 .prp1 = (uintptr_t)buf}) == ST(G, SOFTDOCA_NVME_SC_INVALID_NAMESPACE));
	CHECK(log_take(sdk_log, "no namespace 7"));
	/* Create I/O CQ: qid 0, qid too large, size 1, size too large, not contiguous, bad vector */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_CQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 0 | (7u << 16), .cdw11 = 1}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QID));
	CHECK(log_take(sdk_log, "queue id 0 is out of range"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_CQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 200 | (7u << 16), .cdw11 = 1}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QID));
	CHECK(log_take(sdk_log, "queue id 200 is out of range"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_CQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 5, .cdw11 = 1}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QSIZE));
	CHECK(log_take(sdk_log, "1 entries"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_CQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 5 | (4096u << 16), .cdw11 = 1}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QSIZE));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_CQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 5 | (7u << 16), .cdw11 = 0}) == ST(G, SOFTDOCA_NVME_SC_INVALID_FIELD));
	CHECK(log_take(sdk_log, "physically contiguous"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_CQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 5 | (7u << 16), .cdw11 = 3 | (999u << 16)}) == ST(C, SOFTDOCA_NVME_SC_INVALID_VECTOR));
	CHECK(log_take(sdk_log, "interrupt vector 999"));
	/* Create I/O SQ on a CQ that does not exist */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_SQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 5 | (7u << 16), .cdw11 = 1 | (9u << 16)}) == ST(C, SOFTDOCA_NVME_SC_CQ_INVALID));
	CHECK(log_take(sdk_log, "completion queue 9 does not exist"));
	/* deletes of queues that do not exist */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_DELETE_SQ, .cdw10 = 4}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QID));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_DELETE_CQ, .cdw10 = 0}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QID));
	CHECK(log_take(sdk_log, "no I/O completion queue 0"));
	/* features and log pages we do not have */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_GET_FEATURES, .cdw10 = 0x55}) == ST(G, SOFTDOCA_NVME_SC_INVALID_FIELD));
	CHECK(log_take(sdk_log, "feature 0x55"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_GET_LOG_PAGE, .prp1 = (uintptr_t)buf,
						 .cdw10 = 0x42 | (3u << 16)}) == ST(C, SOFTDOCA_NVME_SC_INVALID_LOG_PAGE));
	CHECK(log_take(sdk_log, "log page 0x42"));

	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 8, NULL, NULL, &qp));
	/* the queue id in use; deleting a CQ that an SQ still uses */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_CREATE_CQ, .prp1 = (uintptr_t)ring,
						 .cdw10 = 1 | (7u << 16), .cdw11 = 1}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QID));
	CHECK(log_take(sdk_log, "queue id 1 is in use"));
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_DELETE_CQ, .cdw10 = 1}) ==
	      ST(C, SOFTDOCA_NVME_SC_INVALID_QUEUE_DELETION));
	CHECK(log_take(sdk_log, "still complete there"));
	/* I/O: bad opcode, bad namespace, LBAs out of range (start and end), bad PRPs, MDTS */
	c = rw(0x7f, 0, 1, buf, NULL);
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_INVALID_OPCODE));
	CHECK(log_take(sdk_log, "I/O opcode 0x7f"));
	c = rw(SOFTDOCA_NVME_IO_READ, 0, 1, buf, NULL);
	c.nsid = 2;
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_INVALID_NAMESPACE));
	CHECK(log_take(sdk_log, "no namespace 2"));
	c = rw(SOFTDOCA_NVME_IO_READ, 2048, 1, buf, NULL);
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_LBA_OUT_OF_RANGE));
	CHECK(log_take(sdk_log, "beyond the namespace"));
	c = rw(SOFTDOCA_NVME_IO_WRITE, 2047, 2, buf, buf + PAGE);
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_LBA_OUT_OF_RANGE));
	c = rw(SOFTDOCA_NVME_IO_WRITE_ZEROES, 2040, 9, NULL, NULL);
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_LBA_OUT_OF_RANGE));
	c = rw(SOFTDOCA_NVME_IO_READ, 0, 1, buf + 2, NULL);
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET));
	CHECK(log_take(sdk_log, "not dword aligned"));
	c = rw(SOFTDOCA_NVME_IO_READ, 0, 16, buf, buf + 100); /* 8 KiB: PRP2 must be a page */
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET));
	CHECK(log_take(sdk_log, "not page aligned"));
	c = rw(SOFTDOCA_NVME_IO_READ, 0, 16, buf, NULL);
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_DATA_TRANSFER_ERROR));
	CHECK(log_take(sdk_log, "PRP2, which is null"));
	{
		/* 12 KiB through a list of one entry, which chains to itself: refused, not followed for ever */
		uint64_t *list = page_alloc(PAGE), *last = &list[PAGE / 8 - 1];

		*last = (uintptr_t)last;
		c = rw(SOFTDOCA_NVME_IO_READ, 0, 24, buf, last);
		CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET));
		CHECK(log_take(sdk_log, "chain pointer"));
		free(list);
	}
	c = rw(SOFTDOCA_NVME_IO_READ, 0, 1025, buf, buf + PAGE); /* 512.5 KiB > MDTS */
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_INVALID_FIELD));
	CHECK(log_take(sdk_log, "transfer limit"));
	c = rw(SOFTDOCA_NVME_IO_READ, 0, 1, buf, NULL);
	c.flags = 0x40; /* PSDT: SGL */
	CHECK(run(&qp, &c) == ST(G, SOFTDOCA_NVME_SC_INVALID_FIELD));
	CHECK(log_take(sdk_log, "SGLs are not supported"));
	/* an SQ tail doorbell beyond the ring: logged, ignored, and the queue works once it is right */
	{
		uint64_t one = 1;
		struct timespec t0, t;
		bool seen = false;

		__atomic_store_n(qp.sq_doorbell, 100u, __ATOMIC_RELEASE);
		CHECK(write(qp.wake_fd, &one, sizeof(one)) == sizeof(one));
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			struct timespec ms = {0, 1000000};

			seen = strstr(log_read(sdk_log), "tail doorbell 100 is beyond") != NULL;
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (!seen)
				nanosleep(&ms, NULL);
		} while (!seen && t.tv_sec - t0.tv_sec < WAIT_MS / 1000);
		CHECK(log_take(sdk_log, "tail doorbell 100 is beyond"));
		c = rw(SOFTDOCA_NVME_IO_READ, 0, 1, buf, NULL);
		CHECK(run(&qp, &c) == 0);
	}
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	/* deleted: the ids are free again, and a second delete is refused */
	CHECK(admin(d, (struct softdoca_nvme_sqe){.opc = SOFTDOCA_NVME_ADM_DELETE_SQ, .cdw10 = 1}) == ST(C, SOFTDOCA_NVME_SC_INVALID_QID));
	CHECK(log_take(sdk_log, "no I/O submission queue 1"));
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 8, NULL, NULL, &qp));
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	{
		struct softdoca_nvme_disk_attr a = {.path = NULL, .size = 1 << 20, .block_size = 1024};
		struct softdoca_nvme_disk *bad = NULL;

		CHECK_ERR(softdoca_nvme_open(&a, &bad), DOCA_ERROR_INVALID_VALUE);
		CHECK(log_take(sdk_log, "block size 1024"));
	}
	CHECK_OK(softdoca_nvme_close(d));
	free(buf);
	free(ring);
}

/* The controller thread's state and CPU ticks from /proc/self/task/<tid>/stat. */
static bool engine_stat(char *state, unsigned long long *ticks)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	bool found = false;

	if (dir == NULL)
		return false;
	while (!found && (de = readdir(dir)) != NULL) {
		char path[300], line[1024], *p;
		unsigned long long ut, st;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/task/%s/stat", de->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(line, sizeof(line), f) != NULL && strstr(line, "(softdoca-nvme)") != NULL) {
			p = strrchr(line, ')');
			/* after ")": state, then fields 4..13, utime (14), stime (15) */
			if (p != NULL &&
			    sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", state, &ut, &st) == 3) {
				*ticks = ut + st;
				found = true;
			}
		}
		fclose(f);
	}
	closedir(dir);
	return found;
}

static void test_idle_sleeps(void)
{
	struct softdoca_nvme_disk *d = open_mem(4096, 1 << 20);
	struct softdoca_nvme_qpair qp;
	unsigned long long t0 = 0, t1 = 0;
	char s0 = 0, s1 = 0;
	struct timespec half = {0, 500000000};
	uint8_t *buf = page_alloc(PAGE);
	struct softdoca_nvme_sqe c;

	if (d == NULL)
		return;
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 8, NULL, NULL, &qp));
	c = rw(SOFTDOCA_NVME_IO_WRITE, 0, 1, buf, NULL);
	CHECK(run(&qp, &c) == 0);
	/* a window of 0.5 s: a spinning thread would burn ~50 ticks in it, a sleeping one none */
	CHECK(engine_stat(&s0, &t0));
	nanosleep(&half, NULL);
	CHECK(engine_stat(&s1, &t1));
	CHECK(s1 == 'S');
	CHECK(t1 - t0 <= 5);
	if (t1 - t0 > 5)
		fprintf(stderr, "the idle controller thread used %llu ticks in 0.5 s\n", t1 - t0);
	/* and it still answers */
	c = rw(SOFTDOCA_NVME_IO_READ, 0, 1, buf, NULL);
	CHECK(run(&qp, &c) == 0);
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
	CHECK_OK(softdoca_nvme_close(d));
	free(buf);
}

/*
 * softdoca_nvme_hold_completions: a held disk still answers admin commands but keeps the I/O
 * completion; released, it posts it and the write is on the disk.
 */
static void test_hold_completions(void)
{
	struct softdoca_nvme_disk *d = open_mem(512, 1 << 20);
	struct softdoca_nvme_qpair qp;
	struct softdoca_nvme_sqe w, r;
	struct softdoca_nvme_cqe *e;
	uint8_t *wb = page_alloc(PAGE), *rb = page_alloc(PAGE), id[PAGE];

	if (d == NULL || wb == NULL || rb == NULL)
		goto out;
	CHECK(softdoca_nvme_hold_completions(NULL, 1) == DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(softdoca_nvme_qpair_create(d, 1, 16, NULL, NULL, &qp));
	fill(wb, 512, 42);
	CHECK_OK(softdoca_nvme_hold_completions(d, 1));
	w = rw(SOFTDOCA_NVME_IO_WRITE, 7, 1, wb, NULL);
	w.cid = 1;
	CHECK(softdoca_nvme_sq_push(&qp, &w) == 0);
	softdoca_nvme_ring_sq(&qp);
	CHECK_OK(softdoca_nvme_identify(d, 0x01, 0, id)); /* the admin queue is never held */
	CHECK(softdoca_nvme_cq_peek(&qp) == NULL);
	CHECK_OK(softdoca_nvme_hold_completions(d, 0));
	e = wait_cqe(&qp);
	CHECK(e != NULL && e->cid == 1 && SOFTDOCA_NVME_CQE_SC(e) == 0);
	if (e != NULL) {
		softdoca_nvme_cq_pop(&qp);
		softdoca_nvme_ring_cq(&qp);
	}
	r = rw(SOFTDOCA_NVME_IO_READ, 7, 1, rb, NULL);
	CHECK(run(&qp, &r) == 0 && memcmp(wb, rb, 512) == 0);
	CHECK_OK(softdoca_nvme_qpair_destroy(d, &qp));
out:
	if (d != NULL)
		CHECK_OK(softdoca_nvme_close(d));
	free(wb);
	free(rb);
}

int main(void)
{
	struct doca_log_backend *sdk = NULL;

	sdk_log = tmpfile();
	CHECK(sdk_log != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(sdk_log, &sdk));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_DEBUG));
	TEST_RUN(test_identify);
	TEST_RUN(test_roundtrip_memory);
	TEST_RUN(test_roundtrip_file);
	TEST_RUN(test_roundtrip_bdev);
	TEST_RUN(test_tmpfs_mapped);
	TEST_RUN(test_tmpfs_sparse);
	TEST_RUN(test_tmpfs_foreign_sigbus);
	TEST_RUN(test_wrap_and_full_cq);
	TEST_RUN(test_queue_depth_32);
	TEST_RUN(test_queue_pairs_in_parallel);
	TEST_RUN(test_bad_inputs);
	TEST_RUN(test_hold_completions);
	TEST_RUN(test_idle_sleeps);
	TEST_EXIT();
}
