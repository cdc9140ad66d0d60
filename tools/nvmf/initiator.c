/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca-nvmf-initiator: an NVMe-oF RDMA load generator over librdmacm / libibverbs, no
 * kernel needed (nvmf_host.c).
 *
 *   softdoca-nvmf-initiator --addr IPV4 --port PORT --nqn NQN [--hostnqn NQN] [--qd N]
 *                           [--io-size BYTES] [--read-pct P] [--time SECONDS] [--verify]
 *                           [--blocks N] [--no-inline] [--poll]
 *
 * Connects an admin queue and one I/O queue, keeps qd commands in flight at random offsets
 * (io-size aligned, within the first `blocks` blocks or the namespace), P % reads, for the
 * given time, then prints IOPS, MiB/s and latency percentiles. --verify: every write carries
 * a pattern of its offset and generation, every read of a chunk this run wrote is compared,
 * and a chunk is never read and written at once. Writes that fit the target's in-capsule data
 * (IOCCSZ of Identify Controller) carry their data in the capsule, as Linux's nvme-rdma host
 * does, unless --no-inline: then the target pulls it by RDMA READ (keyed SGL). --poll: the I/O
 * queue's completions are busy-polled, as spdk_nvme_perf does (a core, no sleep and wake-up per
 * response); without it the initiator sleeps on the completion channel. Exit status 0 when
 * every command succeeded (and verified), 1 otherwise.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvmf_host.h"

struct op {
	bool busy, read;
	uint64_t chunk;
	uint32_t gen;
	uint64_t start_ns;
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void pattern(uint8_t *b, uint32_t len, uint64_t chunk, uint32_t gen)
{
	uint64_t x = chunk * 0x9e3779b97f4a7c15ull ^ gen;

	for (uint32_t i = 0; i + 8 <= len; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(b + i, &x, 8);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void usage(void)
{
	fprintf(stderr, "usage: softdoca-nvmf-initiator --addr IPV4 --port PORT --nqn NQN [--hostnqn NQN] [--qd N] "
			"[--io-size BYTES] [--read-pct P] [--time SECONDS] [--verify] [--blocks N] [--no-inline] [--poll]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"addr", required_argument, NULL, 'a'},    {"port", required_argument, NULL, 'p'},
		{"nqn", required_argument, NULL, 'n'},     {"hostnqn", required_argument, NULL, 'h'},
		{"qd", required_argument, NULL, 'q'},      {"io-size", required_argument, NULL, 's'},
		{"read-pct", required_argument, NULL, 'r'}, {"time", required_argument, NULL, 't'},
		{"verify", no_argument, NULL, 'v'},        {"blocks", required_argument, NULL, 'b'},
		{"no-inline", no_argument, NULL, 'i'},     {"poll", no_argument, NULL, 'P'},
		{NULL, 0, NULL, 0},
	};
	const char *addr = NULL, *port = NULL, *nqn = NULL, *host = "nqn.2014-08.io.softdoca:initiator";
	uint32_t qd = 32, io_size = 4096, read_pct = 100, secs = 5;
	uint64_t blocks = 0;
	bool verify = false, inline_ok = true, busy_poll = false;
	uint32_t icd = 0; /* in-capsule data bytes the target takes */
	struct nvmf_queue admin, q;
	struct nvmf_cqe c;
	uint8_t sqe[64] = {0}, id[4096];
	int o;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'a': addr = optarg; break;
		case 'p': port = optarg; break;
		case 'n': nqn = optarg; break;
		case 'h': host = optarg; break;
		case 'q': qd = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 's': io_size = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'r': read_pct = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 't': secs = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'v': verify = true; break;
		case 'b': blocks = strtoull(optarg, NULL, 0); break;
		case 'i': inline_ok = false; break;
		case 'P': busy_poll = true; break;
		default: usage();
		}
	}
	if (addr == NULL || port == NULL || nqn == NULL || qd == 0 || qd > 1000 || io_size == 0 ||
	    io_size > NVMF_DATA_MAX || read_pct > 100)
		usage();
	if (nvmf_connect(&admin, addr, port, 0, 8, 7, 0xffff, nqn, host, &c) != 0) {
		fprintf(stderr, "softdoca-nvmf-initiator: admin Connect failed (status 0x%04x)\n", c.status);
		return 1;
	}
	sqe[0] = 0x06; /* Identify controller: IOCCSZ, in 16-byte units, counts the 64-byte SQE */
	sqe[40] = 1;
	if (nvmf_cmd(&admin, sqe, 4096, NULL, id, &c, 10000) != 0 || (c.status >> 1) != 0) {
		fprintf(stderr, "softdoca-nvmf-initiator: Identify controller failed\n");
		return 1;
	}
	uint32_t ioccsz = (uint32_t)id[1792] | (uint32_t)id[1793] << 8 | (uint32_t)id[1794] << 16 |
			  (uint32_t)id[1795] << 24;

	if (inline_ok && ioccsz > 4)
		icd = ioccsz * 16 - NVMF_SQE < NVMF_ICD ? ioccsz * 16 - NVMF_SQE : NVMF_ICD;
	sqe[40] = 0; /* Identify namespace 1 */
	sqe[4] = 1;
	if (nvmf_cmd(&admin, sqe, 4096, NULL, id, &c, 10000) != 0 || (c.status >> 1) != 0) {
		fprintf(stderr, "softdoca-nvmf-initiator: Identify namespace failed\n");
		return 1;
	}
	uint64_t nsze;
	uint32_t bs = 1u << id[130];

	memcpy(&nsze, id, 8);
	if (blocks == 0 || blocks > nsze)
		blocks = nsze;
	if (io_size % bs != 0 || io_size / bs > blocks) {
		fprintf(stderr, "softdoca-nvmf-initiator: I/O size %u is not a multiple of the %u-byte blocks\n", io_size, bs);
		return 1;
	}
	if (nvmf_connect(&q, addr, port, 1, (uint16_t)(qd + 1), (uint16_t)qd, admin.cntlid, nqn, host, &c) != 0) {
		fprintf(stderr, "softdoca-nvmf-initiator: I/O queue Connect failed (status 0x%04x)\n", c.status);
		return 1;
	}
	q.busy_poll = busy_poll;
	uint64_t chunks = blocks / (io_size / bs);
	uint32_t *gen = calloc(chunks, sizeof(*gen));     /* 0: never written by this run */
	uint8_t *busy = calloc(chunks, 1);
	struct op *ops = calloc(q.depth, sizeof(*ops));
	size_t lat_cap = 1u << 22, nlat = 0;
	uint64_t *lat = malloc(lat_cap * sizeof(*lat));
	uint64_t done_r = 0, done_w = 0, errors = 0, mismatches = 0, verified = 0;
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)secs * 1000000000ull;
	uint64_t now = t0; /* the last completion's time: its latency, and whether to go on */
	uint32_t inflight = 0, next_gen = 1;
	unsigned int seed = 12345;

	if (gen == NULL || busy == NULL || ops == NULL || lat == NULL)
		return 1;
	for (;;) {
		bool more = now < end && errors == 0;

		while (more && inflight < qd) {
			int cid = nvmf_alloc_cid(&q);
			uint64_t chunk = (uint64_t)rand_r(&seed) % chunks;
			bool rd = (uint32_t)(rand_r(&seed) % 100) < read_pct;
			uint8_t *s;

			if (cid < 0)
				break;
			for (int tries = 0; busy[chunk] && tries < 64; tries++)
				chunk = (chunk + 1) % chunks;
			if (busy[chunk]) { /* every nearby chunk in flight: wait for one */
				q.in_use[cid] = false;
				q.inflight--;
				break;
			}
			bool in_capsule = !rd && io_size <= icd;

			busy[chunk] = 1;
			s = nvmf_capsule(&q, (uint16_t)cid);
			nvmf_rw(s, rd ? 0x02 : 0x01, 1, chunk * (io_size / bs), io_size / bs);
			if (in_capsule)
				nvmf_sgl_icd(s, io_size);
			else
				nvmf_sgl_keyed(&q, s, (uint16_t)cid, io_size);
			ops[cid] = (struct op){.busy = true, .read = rd, .chunk = chunk, .gen = rd ? gen[chunk] : next_gen++};
			if (!rd && verify)
				pattern(in_capsule ? s + NVMF_SQE : nvmf_data(&q, (uint16_t)cid), io_size, chunk, ops[cid].gen);
			ops[cid].start_ns = now_ns();
			if (nvmf_send(&q, (uint16_t)cid, in_capsule ? io_size : 0) != 0) {
				fprintf(stderr, "softdoca-nvmf-initiator: send failed\n");
				return 1;
			}
			inflight++;
		}
		if (inflight == 0)
			break;
		int r = nvmf_wait(&q, &c, 30000);

		if (r != 1) {
			fprintf(stderr, "softdoca-nvmf-initiator: %s with %u commands in flight\n",
				r == 0 ? "no response in 30 s" : "connection lost", inflight);
			return 1;
		}
		struct op *op = &ops[c.cid];

		if (c.cid >= q.depth || !op->busy) {
			fprintf(stderr, "softdoca-nvmf-initiator: a response for CID %u, not in flight\n", c.cid);
			return 1;
		}
		now = now_ns(); /* one read for both: each is the loop's own cost per I/O */
		if (nlat < lat_cap)
			lat[nlat++] = now - op->start_ns;
		op->busy = false;
		busy[op->chunk] = 0;
		inflight--;
		if ((c.status >> 1) != 0) {
			fprintf(stderr, "softdoca-nvmf-initiator: %s of chunk %llu: status SCT %u SC 0x%02x\n",
				op->read ? "read" : "write", (unsigned long long)op->chunk, NVMF_SCT(&c), NVMF_SC(&c));
			errors++;
			continue;
		}
		if (op->read) {
			done_r++;
			if (verify && op->gen != 0) {
				static uint8_t want[NVMF_DATA_MAX];

				pattern(want, io_size, op->chunk, op->gen);
				verified++;
				if (memcmp(want, nvmf_data(&q, c.cid), io_size) != 0) {
					if (mismatches++ < 5)
						fprintf(stderr, "softdoca-nvmf-initiator: chunk %llu does not hold write %u\n",
							(unsigned long long)op->chunk, op->gen);
				}
			}
		} else {
			done_w++;
			gen[op->chunk] = op->gen;
		}
	}
	double el = (double)(now_ns() - t0) / 1e9;

	qsort(lat, nlat, sizeof(*lat), cmp_u64);
#define PCT(p) (nlat ? (double)lat[(size_t)((double)(nlat - 1) * (p))] / 1000.0 : 0.0)
	printf("qd %u io-size %u read %u%%: %.0f IOPS (%llu reads, %llu writes in %.2f s), %.1f MiB/s\n", qd, io_size,
	       read_pct, (double)(done_r + done_w) / el, (unsigned long long)done_r, (unsigned long long)done_w, el,
	       (double)(done_r + done_w) * io_size / el / 1048576.0);
	printf("latency us: p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n", PCT(0.5), PCT(0.9), PCT(0.99), PCT(0.999),
	       PCT(1.0));
	if (verify)
		printf("verify: %llu reads of written chunks checked, %llu mismatches\n", (unsigned long long)verified,
		       (unsigned long long)mismatches);
	nvmf_disconnect(&q);
	nvmf_disconnect(&admin);
	free(lat);
	free(ops);
	free(busy);
	free(gen);
	return errors == 0 && mismatches == 0 ? 0 : 1;
}
