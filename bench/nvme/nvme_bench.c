/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * 4 KiB random reads at queue depth 32 through the soft NVMe disk (softdoca_nvme.h), beside
 * fio's io_uring engine on the same file (direct I/O both) in the same run: ours, peer, ratio.
 *
 * usage: nvme_bench [file (default /var/tmp/softdoca-nvme-bench.img)] [seconds (default 3)]
 * The file is made 256 MiB and filled once; fio runs only if it is on PATH.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "softdoca_nvme.h"

#define FILE_SIZE (256ull << 20)
#define BS 4096u
#define QD 32

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int prepare(const char *path)
{
	static char chunk[1 << 20];
	int fd = open(path, O_RDWR | O_CREAT, 0600);

	if (fd < 0)
		return -1;
	if (lseek(fd, 0, SEEK_END) >= (off_t)FILE_SIZE) {
		close(fd);
		return 0;
	}
	for (size_t i = 0; i < sizeof(chunk); i++)
		chunk[i] = (char)(i * 13);
	for (uint64_t off = 0; off < FILE_SIZE; off += sizeof(chunk))
		if (pwrite(fd, chunk, sizeof(chunk), (off_t)off) != (ssize_t)sizeof(chunk)) {
			close(fd);
			return -1;
		}
	fsync(fd);
	close(fd);
	return 0;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double ours(const char *path, double secs)
{
	struct softdoca_nvme_disk_attr a = {.path = path, .size = FILE_SIZE, .block_size = 4096};
	struct softdoca_nvme_disk *d = NULL;
	struct softdoca_nvme_qpair qp;
	uint8_t *bufs = aligned_alloc(BS, (size_t)QD * BS);
	uint64_t seed = 88172645463325252ull, done = 0, blocks = FILE_SIZE / BS;
	double t0, end;
	int inflight = 0;

	if (bufs == NULL || softdoca_nvme_open(&a, &d) != DOCA_SUCCESS ||
	    softdoca_nvme_qpair_create(d, 1, 2 * QD, NULL, NULL, &qp) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot open the soft NVMe disk on %s\n", path);
		exit(1);
	}
	t0 = now();
	end = t0 + secs;
	for (uint16_t i = 0; i < QD; i++) {
		uint64_t lba = rnd(&seed) % blocks;
		struct softdoca_nvme_sqe c = {.opc = SOFTDOCA_NVME_IO_READ, .cid = i, .nsid = 1,
					      .prp1 = (uintptr_t)(bufs + (size_t)i * BS), .cdw10 = (uint32_t)lba,
					      .cdw11 = (uint32_t)(lba >> 32)};

		softdoca_nvme_sq_push(&qp, &c);
		inflight++;
	}
	softdoca_nvme_ring_sq(&qp);
	while (inflight > 0) {
		struct softdoca_nvme_cqe *e;
		bool more = now() < end;
		int reaped = 0;

		while ((e = softdoca_nvme_cq_peek(&qp)) != NULL) {
			uint16_t cid = e->cid;

			softdoca_nvme_cq_pop(&qp);
			done++;
			reaped++;
			inflight--;
			if (more) {
				uint64_t lba = rnd(&seed) % blocks;
				struct softdoca_nvme_sqe c = {.opc = SOFTDOCA_NVME_IO_READ, .cid = cid, .nsid = 1,
							      .prp1 = (uintptr_t)(bufs + (size_t)cid * BS),
							      .cdw10 = (uint32_t)lba, .cdw11 = (uint32_t)(lba >> 32)};

				softdoca_nvme_sq_push(&qp, &c);
				inflight++;
			}
		}
		if (reaped > 0) {
			/* one doorbell pair and one wake per batch */
			__atomic_store_n(qp.cq_doorbell, qp.cq_head, __ATOMIC_RELEASE);
			softdoca_nvme_ring_sq(&qp);
		} else {
			struct pollfd p = {.fd = qp.irq_fd, .events = POLLIN};
			uint64_t n;

			if (poll(&p, 1, 5000) > 0 && read(qp.irq_fd, &n, sizeof(n)) < 0)
				break;
		}
	}
	t0 = now() - t0;
	softdoca_nvme_qpair_destroy(d, &qp);
	softdoca_nvme_close(d);
	free(bufs);
	return (double)done / t0;
}

/* fio's IOPS from its terse output (field 8 of version 3: read IOPS), or -1. */
static double peer(const char *path, double secs)
{
	char cmd[1024], line[8192];
	double iops = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "fio --name=peer --filename=%s --rw=randread --bs=4k --iodepth=%d --ioengine=io_uring --direct=1 "
		 "--size=%llu --runtime=%g --time_based --numjobs=1 --output-format=terse --terse-version=3 2>/dev/null",
		 path, QD, (unsigned long long)FILE_SIZE, secs);
	p = popen(cmd, "r");
	if (p == NULL)
		return -1;
	if (fgets(line, sizeof(line), p) != NULL) {
		char *f = line;

		for (int i = 0; i < 7 && f != NULL; i++) {
			f = strchr(f, ';');
			if (f != NULL)
				f++;
		}
		if (f != NULL)
			iops = atof(f);
	}
	pclose(p);
	return iops;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/var/tmp/softdoca-nvme-bench.img";
	double secs = argc > 2 ? atof(argv[2]) : 3;
	double a, b;

	if (prepare(path) != 0) {
		perror(path);
		return 1;
	}
	a = ours(path, secs);
	b = system("command -v fio >/dev/null 2>&1") == 0 ? peer(path, secs) : -1;
	printf("nvme 4k randread qd%d: softdoca %.0f IOPS", QD, a);
	if (b > 0)
		printf(", fio io_uring %.0f IOPS, ratio %.2f\n", b, a / b);
	else
		printf(", fio not available: no peer figure\n");
	return 0;
}
