/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sta, data path: softdoca-sta-target (a real process: STA + a soft NVMe disk on a
 * file) and this process as the NVMe-oF RDMA host (tools/nvmf/nvmf_host.c), over the soft NIC.
 * Connect, admin commands through the non-offload callback, offloaded Read / Write / Flush with
 * keyed SGLs and in-capsule data, many commands in flight, and the bad input: bad opcode,
 * out-of-range LBA, SGL longer than MDTS, nonexistent namespace, wrong rkey (nothing written),
 * a host disconnecting mid-I/O, a host NQN not allowed, a Connect SQSIZE above the limit.
 * The file is checked after the target stopped. argv: target-binary port. Bounded by alarm().
 * STA_TEST_ADDR names the target's address (with SOFTDOCA_CONFIG a rocev2 card's: sta_roce).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nvmf_host.h"
#include "target_proc.h"
#include "proc_maps.h"

#define NQN "nqn.2026-12.io.softdoca:sta-test"
#define HOST "nqn.2014-08.io.softdoca:host1"
#define BS 512u
#define TMO 20000

static const char *port;
/* the target's address: STA_TEST_ADDR (a rocev2 card's, sta_roce), else the loopback */
static const char *addr = "127.0.0.1";
static int target_out = -1; /* the target's stdout */
static char disk[256];
static uint64_t nblocks;

/* Starts the target and waits for its "listening" line. */
static const char *target_bs = "512";

static void start_target(const char *bin)
{
	char *argv[] = {(char *)bin, "--addr", (char *)addr, "--port", (char *)port, "--nqn", NQN, "--backing-file",
			disk, "--size", "8388608", "--block-size", (char *)target_bs, "--io-threads", "2", "--allow-host",
			HOST, NULL};
	char line[512];

	target_out = target_start(argv, line, sizeof(line));
	fprintf(stderr, "target: %s", line);
}

static void fill(uint8_t *b, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
}

static int io_queue(struct nvmf_queue *q, uint16_t qid, uint16_t depth, uint16_t cntlid)
{
	struct nvmf_cqe c;

	return nvmf_connect(q, addr, port, qid, depth, (uint16_t)(depth - 1), cntlid, NQN, HOST, &c);
}

static int rw(struct nvmf_queue *q, uint8_t opc, uint32_t nsid, uint64_t lba, uint32_t nb, const void *w, void *r,
	      struct nvmf_cqe *c)
{
	uint8_t sqe[64];

	nvmf_rw(sqe, opc, nsid, lba, nb);
	return nvmf_cmd(q, sqe, opc == 0 ? 0 : nb * BS, w, r, c, TMO);
}

static bool status_is(const struct nvmf_cqe *c, int sct, int sc)
{
	if (NVMF_SCT(c) == sct && NVMF_SC(c) == sc)
		return true;
	fprintf(stderr, "  status SCT %u SC 0x%02x, expected SCT %d SC 0x%02x\n", NVMF_SCT(c), NVMF_SC(c), sct, sc);
	return false;
}

static void admin_checks(struct nvmf_queue *a)
{
	uint8_t sqe[64] = {0}, id[4096];
	struct nvmf_cqe c;

	/* Property Get CAP (8 bytes): MQES = the STA queue depth - 1 */
	sqe[0] = 0x7f;
	sqe[4] = 0x04;
	sqe[40] = 1;
	REQUIRE(nvmf_cmd(a, sqe, 0, NULL, NULL, &c, TMO) == 0);
	CHECK(status_is(&c, 0, 0) && (c.dw0 & 0xffff) == 127);
	/* Identify controller and namespace (keyed SGL, RDMA WRITE by the non-offload task) */
	memset(sqe, 0, sizeof(sqe));
	sqe[0] = 0x06;
	sqe[40] = 0x01;
	REQUIRE(nvmf_cmd(a, sqe, 4096, NULL, id, &c, TMO) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(id + 24, "softdoca STA target", 19) == 0);
	CHECK(strcmp((char *)id + 768, NQN) == 0);
	sqe[40] = 0x00;
	sqe[4] = 1;
	REQUIRE(nvmf_cmd(a, sqe, 4096, NULL, id, &c, TMO) == 0);
	CHECK(status_is(&c, 0, 0));
	memcpy(&nblocks, id, 8);
	CHECK(nblocks == 8388608 / BS && id[130] == 9);
}

/*
 * An Identify whose keyed SGL is longer than the 4096 bytes the target fills (128 KiB, MDTS):
 * the rest is zeros. Every receive buffer of the admin queue (twice its depth, FIFO) first
 * held 8 KiB of in-capsule data of a pattern (a vendor command the target refuses), which the
 * slot's data buffer kept: none of it may go back to the host.
 */
static void identify_no_leak(struct nvmf_queue *a)
{
	static uint8_t id[131072];
	uint8_t sqe[64] = {0};
	struct nvmf_cqe c;
	size_t stale = 0;

	for (int i = 0; i < 2 * a->depth; i++) {
		int cid = nvmf_alloc_cid(a);
		uint8_t *s;

		REQUIRE(cid >= 0);
		s = nvmf_capsule(a, (uint16_t)cid);
		memset(s, 0, 64);
		s[0] = 0xc1; /* vendor specific: Invalid Opcode */
		nvmf_sgl_icd(s, 8192);
		memset(s + 64, 0xa5, 8192);
		REQUIRE(nvmf_send(a, (uint16_t)cid, 8192) == 0 && nvmf_wait(a, &c, TMO) == 1);
		CHECK(status_is(&c, 0, 0x01));
	}
	sqe[0] = 0x06;
	sqe[40] = 0x01;
	for (int i = 0; i < 4; i++) {
		memset(id, 0xee, sizeof(id));
		REQUIRE(nvmf_cmd(a, sqe, sizeof(id), NULL, id, &c, TMO) == 0);
		CHECK(status_is(&c, 0, 0) && memcmp(id + 24, "softdoca STA target", 19) == 0);
		for (size_t k = 4096; k < sizeof(id); k++)
			stale += id[k] != 0;
	}
	CHECK(stale == 0);
	fprintf(stderr, "ok Identify with a 128 KiB keyed SGL: zeros past its 4096 bytes (%zu stale bytes)\n", stale);
}

/* Offloaded I/O on one queue: keyed write/read, in-capsule write, flush, many in flight. */
static void io_checks(struct nvmf_queue *q)
{
	static uint8_t w[131072], r[131072];
	struct nvmf_cqe c;
	int cid;

	fill(w, sizeof(w), 1);
	REQUIRE(rw(q, 0x01, 1, 0, 16, w, NULL, &c) == 0);
	CHECK(status_is(&c, 0, 0));
	CHECK(c.sqid == 1);
	REQUIRE(rw(q, 0x02, 1, 0, 16, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(w, r, 16 * BS) == 0);
	/* 128 KiB, the maximum I/O size: a PRP list on the back end */
	fill(w, sizeof(w), 2);
	REQUIRE(rw(q, 0x01, 1, 1000, 256, w, NULL, &c) == 0);
	CHECK(status_is(&c, 0, 0));
	REQUIRE(rw(q, 0x02, 1, 1000, 256, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(w, r, 256 * BS) == 0);
	/* in-capsule write of one block */
	cid = nvmf_alloc_cid(q);
	REQUIRE(cid >= 0);
	nvmf_rw(nvmf_capsule(q, (uint16_t)cid), 0x01, 1, 100, 1);
	nvmf_sgl_icd(nvmf_capsule(q, (uint16_t)cid), BS);
	fill(nvmf_capsule(q, (uint16_t)cid) + 64, BS, 3);
	memcpy(w, nvmf_capsule(q, (uint16_t)cid) + 64, BS);
	REQUIRE(nvmf_send(q, (uint16_t)cid, BS) == 0 && nvmf_wait(q, &c, TMO) == 1);
	CHECK(status_is(&c, 0, 0));
	REQUIRE(rw(q, 0x02, 1, 100, 1, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(w, r, BS) == 0);
	/* Flush */
	REQUIRE(rw(q, 0x00, 1, 0, 1, NULL, NULL, &c) == 0);
	CHECK(status_is(&c, 0, 0));
	/* 48 writes of 4 KiB in flight, then 48 reads in flight, every block checked */
	int n = 48, got = 0;
	bool sqhd_ok = true;

	for (int i = 0; i < n; i++) {
		cid = nvmf_alloc_cid(q);
		REQUIRE(cid >= 0);
		uint8_t *s = nvmf_capsule(q, (uint16_t)cid);

		nvmf_rw(s, 0x01, 1, 2000 + (uint64_t)cid * 8, 8);
		nvmf_sgl_keyed(q, s, (uint16_t)cid, 4096);
		fill(nvmf_data(q, (uint16_t)cid), 4096, 100 + (uint32_t)cid);
		REQUIRE(nvmf_send(q, (uint16_t)cid, 0) == 0);
	}
	for (got = 0; got < n; got++) {
		REQUIRE(nvmf_wait(q, &c, TMO) == 1);
		CHECK(status_is(&c, 0, 0));
		sqhd_ok = sqhd_ok && c.sqhd < q->depth;
	}
	CHECK(sqhd_ok);
	for (int i = 0; i < n; i++) {
		cid = nvmf_alloc_cid(q);
		uint8_t *s = nvmf_capsule(q, (uint16_t)cid);

		nvmf_rw(s, 0x02, 1, 2000 + (uint64_t)cid * 8, 8);
		nvmf_sgl_keyed(q, s, (uint16_t)cid, 4096);
		memset(nvmf_data(q, (uint16_t)cid), 0, 4096);
		REQUIRE(nvmf_send(q, (uint16_t)cid, 0) == 0);
	}
	int bad = 0;

	for (got = 0; got < n; got++) {
		REQUIRE(nvmf_wait(q, &c, TMO) == 1);
		CHECK(status_is(&c, 0, 0));
		fill(w, 4096, 100 + c.cid);
		bad += memcmp(nvmf_data(q, c.cid), w, 4096) != 0;
	}
	CHECK(bad == 0);
	fprintf(stderr, "ok offloaded I/O: keyed, 128 KiB, in-capsule, flush, %d + %d in flight (last SQHD %u)\n", n, n,
		c.sqhd);
}

static void bad_input(struct nvmf_queue *q)
{
	static uint8_t z[4096], r[4096], w[4096];
	struct nvmf_cqe c;
	uint8_t sqe[64];

	fill(w, sizeof(w), 9);
	/* an opcode nobody knows: the application's answer, Invalid Opcode */
	nvmf_rw(sqe, 0x7e, 1, 0, 1);
	REQUIRE(nvmf_cmd(q, sqe, 0, NULL, NULL, &c, TMO) == 0);
	CHECK(status_is(&c, 0, 0x01));
	/* past the end: LBA Out of Range from the disk, the last block untouched */
	REQUIRE(rw(q, 0x01, 1, nblocks - 1, 2, w, NULL, &c) == 0);
	CHECK(status_is(&c, 0, 0x80));
	REQUIRE(rw(q, 0x02, 1, nblocks - 1, 1, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(r, z, BS) == 0);
	/* a keyed SGL longer than MDTS (128 KiB): Data SGL Length Invalid, nothing written */
	nvmf_rw(sqe, 0x01, 1, 3000, 8);
	{
		int cid = nvmf_alloc_cid(q);
		uint8_t *s = nvmf_capsule(q, (uint16_t)cid);

		memcpy(s, sqe, 64);
		nvmf_sgl_keyed(q, s, (uint16_t)cid, 200u << 10);
		memcpy(nvmf_data(q, (uint16_t)cid), w, 4096);
		REQUIRE(nvmf_send(q, (uint16_t)cid, 0) == 0 && nvmf_wait(q, &c, TMO) == 1);
		CHECK(status_is(&c, 0, 0x0f));
	}
	/* in-capsule data at an offset that wraps past the capsule's end: SGL Length Invalid, nothing written */
	{
		int cid = nvmf_alloc_cid(q);
		uint8_t *s = nvmf_capsule(q, (uint16_t)cid);
		uint64_t off = UINT64_MAX - (BS - 1);

		nvmf_rw(s, 0x01, 1, 3100, 1);
		nvmf_sgl_icd(s, BS);
		memcpy(s + 24, &off, 8);
		memcpy(s + 64, w, BS);
		REQUIRE(nvmf_send(q, (uint16_t)cid, BS) == 0 && nvmf_wait(q, &c, TMO) == 1);
		CHECK(status_is(&c, 0, 0x0f));
		REQUIRE(rw(q, 0x02, 1, 3100, 1, NULL, r, &c) == 0);
		CHECK(status_is(&c, 0, 0) && memcmp(r, z, BS) == 0);
	}
	/* a transfer longer than MDTS: Invalid Field */
	nvmf_rw(sqe, 0x02, 1, 0, 512);
	REQUIRE(nvmf_cmd(q, sqe, 4096, NULL, NULL, &c, TMO) == 0);
	CHECK(status_is(&c, 0, 0x02));
	REQUIRE(rw(q, 0x02, 1, 3000, 8, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(r, z, 4096) == 0);
	/* a namespace the subsystem does not have */
	REQUIRE(rw(q, 0x01, 2, 3000, 8, w, NULL, &c) == 0);
	CHECK(status_is(&c, 0, 0x0b));
	REQUIRE(rw(q, 0x02, 1, 3000, 8, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(r, z, 4096) == 0);
	fprintf(stderr, "ok bad input: opcode, LBA range, SGL > MDTS, wrapping in-capsule offset, transfer > MDTS, "
			"namespace\n");
}

/* Connect refusals: host NQN not allowed; SQSIZE above the limit (the target logs the limit). */
static void connect_refusals(uint16_t cntlid)
{
	struct nvmf_queue q;
	struct nvmf_cqe c;
	int rc;

	rc = nvmf_connect(&q, addr, port, 0, 32, 31, 0xffff, NQN, "nqn.2014-08.io.softdoca:intruder", &c);
	CHECK(rc > 0 && status_is(&c, 1, 0x84));
	nvmf_disconnect(&q);
	rc = nvmf_connect(&q, addr, port, 2, 32, 200, cntlid, NQN, HOST, &c);
	CHECK(rc > 0 && status_is(&c, 1, 0x82) && (c.dw0 >> 16) == 44);
	nvmf_disconnect(&q);
	/* SQSIZE 0 (one entry): Invalid Parameter on SQSIZE too, the spec's minimum being 1 */
	rc = nvmf_connect(&q, addr, port, 2, 32, 0, cntlid, NQN, HOST, &c);
	CHECK(rc > 0 && status_is(&c, 1, 0x82) && (c.dw0 >> 16) == 44);
	nvmf_disconnect(&q);
	rc = nvmf_connect(&q, addr, port, 0, 32, 31, 0xffff, "nqn.2026-12.io.softdoca:none", HOST, &c);
	CHECK(rc > 0 && status_is(&c, 1, 0x82));
	nvmf_disconnect(&q);
	fprintf(stderr, "ok connect refusals: host NQN, SQSIZE above the limit and 0, subsystem NQN\n");
}

/*
 * Two Connects sent at once on a new admin queue: one makes the controller, the other gets
 * Command Sequence Error (the target is still reading the first one's data when the second
 * comes, so the second reaches the application too). Many times over, more than the target's
 * 64 controllers: none is leaked (an admin queue made afterwards still gets one).
 */
static void connect_twice(void)
{
	struct nvmf_queue q;
	struct nvmf_cqe c;
	int bad = 0;

	for (int round = 0; round < 140; round++) {
		int ok = 0, seq = 0;

		REQUIRE(nvmf_transport(&q, addr, port, 0, 8) == 0);
		for (int i = 0; i < 2; i++) {
			int cid = nvmf_alloc_cid(&q);

			REQUIRE(cid >= 0);
			nvmf_connect_capsule(&q, (uint16_t)cid, 7, 0xffff, NQN, HOST);
			REQUIRE(nvmf_send(&q, (uint16_t)cid, 0) == 0);
		}
		for (int i = 0; i < 2; i++) {
			REQUIRE(nvmf_wait(&q, &c, TMO) == 1);
			ok += (c.status >> 1) == 0;
			seq += NVMF_SCT(&c) == 0 && NVMF_SC(&c) == 0x0c;
		}
		bad += ok != 1 || seq != 1;
		nvmf_disconnect(&q);
	}
	CHECK(bad == 0);
	REQUIRE(nvmf_connect(&q, addr, port, 0, 8, 7, 0xffff, NQN, HOST, &c) == 0);
	nvmf_disconnect(&q);
	fprintf(stderr, "ok two Connects on one admin queue: one controller, Command Sequence Error (%d bad rounds)\n",
		bad);
}

/*
 * More queues than the target's IO contexts take (63 QPs each): the next connections are
 * rejected, and the target frees them (refused connections held at stop: 0). Twice.
 */
static void qp_limit(void)
{
	static struct nvmf_queue qs[160];
	int ok = 0, refused = 0;

	for (int round = 0; round < 2; round++) {
		int n = 0;

		while (n < 160 && nvmf_transport(&qs[n], addr, port, 0, 2) == 0)
			n++;
		CHECK(n >= 100 && n < 160); /* (the admin and I/O queues of the test hold two) */
		ok += n;
		if (n < 160) {
			refused++;
			nvmf_disconnect(&qs[n]); /* the rejected one's id and channel */
		}
		while (n > 0)
			nvmf_disconnect(&qs[--n]);
	}
	fprintf(stderr, "ok QP limit: %d queues connected in two rounds, %d refused\n", ok, refused);
}

/* A controller's admin queue goes: its I/O queue is disconnected by the target (within 10 s). */
static void admin_gone(void)
{
	struct nvmf_queue a, q;
	struct nvmf_cqe c;
	static uint8_t r[4096];
	long left = 10000;
	int rc = 0;

	REQUIRE(nvmf_connect(&a, addr, port, 0, 8, 7, 0xffff, NQN, HOST, NULL) == 0);
	REQUIRE(io_queue(&q, 6, 8, a.cntlid) == 0);
	REQUIRE(rw(&q, 0x02, 1, 0, 8, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0));
	nvmf_disconnect(&a);
	while (left > 0 && (rc = rw(&q, 0x02, 1, 0, 8, NULL, r, &c)) == 0 && (c.status >> 1) == 0) {
		struct timespec w = {.tv_nsec = 20 * 1000000};

		nanosleep(&w, NULL); /* the target disconnects the queue by itself: look again */
		left -= 20;
	}
	CHECK(rc != 0 || (c.status >> 1) != 0);
	nvmf_disconnect(&q);
	fprintf(stderr, "ok admin queue gone: its I/O queue %s\n", rc != 0 ? "disconnected" : "refused");
}

/* Asynchronous Event Requests: AERL + 1 (4) are held, the fifth gets AER Limit Exceeded. */
static void aer_limit(void)
{
	struct nvmf_queue a;
	struct nvmf_cqe c;
	int got;

	REQUIRE(nvmf_connect(&a, addr, port, 0, 8, 7, 0xffff, NQN, HOST, NULL) == 0);
	for (int i = 0; i < 5; i++) {
		int cid = nvmf_alloc_cid(&a);
		uint8_t *s = nvmf_capsule(&a, (uint16_t)cid);

		memset(s, 0, 64);
		s[0] = 0x0c;
		REQUIRE(nvmf_send(&a, (uint16_t)cid, 0) == 0);
	}
	got = nvmf_wait(&a, &c, 3000);
	CHECK(got == 1 && status_is(&c, 1, 0x05));
	CHECK(nvmf_wait(&a, &c, 300) == 0); /* the four others are held */
	nvmf_disconnect(&a);
	fprintf(stderr, "ok AER limit: four held, the fifth refused\n");
}

/* The discovery controller's log page names the subsystem. */
static void discovery(void)
{
	struct nvmf_queue q;
	struct nvmf_cqe c;
	uint8_t sqe[64] = {0}, page[2048];
	uint64_t numrec;

	REQUIRE(nvmf_connect(&q, addr, port, 0, 8, 7, 0xffff, NVMF_DISCOVERY_NQN, HOST, &c) == 0);
	sqe[0] = 0x02;
	sqe[40] = 0x70;
	sqe[42] = (2048 / 4 - 1) & 0xff; /* NUMDL */
	sqe[43] = (2048 / 4 - 1) >> 8;
	REQUIRE(nvmf_cmd(&q, sqe, 2048, NULL, page, &c, TMO) == 0);
	CHECK(status_is(&c, 0, 0));
	memcpy(&numrec, page + 8, 8);
	CHECK(numrec == 1 && strcmp((char *)page + 1024 + 256, NQN) == 0 && page[1024] == 1);
	nvmf_disconnect(&q);
	fprintf(stderr, "ok discovery log page\n");
}

/* A host that leaves with 16 writes in flight; the next host's I/O still works. */
static void disconnect_mid_io(uint16_t cntlid)
{
	struct nvmf_queue q;

	REQUIRE(io_queue(&q, 3, 32, cntlid) == 0);
	for (int i = 0; i < 16; i++) {
		int cid = nvmf_alloc_cid(&q);
		uint8_t *s = nvmf_capsule(&q, (uint16_t)cid);

		nvmf_rw(s, 0x01, 1, 6000 + (uint64_t)i * 8, 8);
		nvmf_sgl_keyed(&q, s, (uint16_t)cid, 4096);
		fill(nvmf_data(&q, (uint16_t)cid), 4096, 500 + (uint32_t)i);
		REQUIRE(nvmf_send(&q, (uint16_t)cid, 0) == 0);
	}
	nvmf_disconnect(&q);
	fprintf(stderr, "ok host gone with 16 writes in flight\n");
}

/* A keyed SGL with an rkey the host never registered: the target's RDMA READ fails, nothing is written. */
static void wrong_rkey(uint16_t cntlid)
{
	struct nvmf_queue q;
	struct nvmf_cqe c;
	static uint8_t r[4096], z[4096];
	int cid, rc;

	REQUIRE(io_queue(&q, 4, 8, cntlid) == 0);
	cid = nvmf_alloc_cid(&q);
	uint8_t *s = nvmf_capsule(&q, (uint16_t)cid);

	nvmf_rw(s, 0x01, 1, 7000, 8);
	nvmf_sgl_keyed(&q, s, (uint16_t)cid, 4096);
	uint32_t bad = nvmf_rkey(&q) + 1000;

	memcpy(s + 35, &bad, 4);
	fill(nvmf_data(&q, (uint16_t)cid), 4096, 77);
	REQUIRE(nvmf_send(&q, (uint16_t)cid, 0) == 0);
	rc = nvmf_wait(&q, &c, TMO);
	/* either an error response or the connection ends (the RC QP is in error, as on hardware) */
	CHECK(rc == -1 || (rc == 1 && (c.status >> 1) != 0));
	fprintf(stderr, "ok wrong rkey: %s\n", rc == 1 ? "error status" : "connection in error");
	nvmf_disconnect(&q);
	REQUIRE(io_queue(&q, 5, 8, cntlid) == 0);
	REQUIRE(rw(&q, 0x02, 1, 7000, 8, NULL, r, &c) == 0);
	CHECK(status_is(&c, 0, 0) && memcmp(r, z, 4096) == 0);
	nvmf_disconnect(&q);
}

/*
 * SIGUSR1 to the target: its statistics line for namespace 1 (within 10 s), its read, write and
 * error counters parsed. False if the line does not come or lacks one of them.
 */
static bool target_stats(uint64_t *reads, uint64_t *writes, uint64_t *errors)
{
	char buf[1024] = {0}, *l;
	size_t n = 0;

	REQUIRE(kill(target, SIGUSR1) == 0);
	while ((l = strstr(buf, "statistics: ")) == NULL || strchr(l, '\n') == NULL) {
		struct pollfd p = {.fd = target_out, .events = POLLIN};
		ssize_t r;

		if (n >= sizeof(buf) - 1 || poll(&p, 1, 10000) != 1)
			return false;
		r = read(target_out, buf + n, sizeof(buf) - 1 - n);
		if (r <= 0)
			return false;
		n += (size_t)r;
	}
	fprintf(stderr, "target: %.*s\n", (int)(strchr(l, '\n') - l), l);
	const char *r = strstr(l, " read_ops "), *w = strstr(l, " write_ops "), *e = strstr(l, " errors ");

	if (r == NULL || w == NULL || e == NULL)
		return false;
	*reads = strtoull(r + 10, NULL, 10);
	*writes = strtoull(w + 11, NULL, 10);
	*errors = strtoull(e + 8, NULL, 10);
	return true;
}

/* CPU seconds (user + system, every thread) the process has used, from /proc; -1 if unreadable. */
static double cpu_seconds(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, stime;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the name may hold spaces */
	if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stime) != 2)
		return -1;
	return (double)(ut + stime) / (double)sysconf(_SC_CLK_TCK);
}

/*
 * The disk file: /tmp/softdoca-sta-test-PID.img, made sparse by the target. STA_TEST_DIR puts it
 * elsewhere, written in full first: on tmpfs (/dev/shm) the soft disk then maps it (nvme map.c).
 */
static void disk_path(void)
{
	const char *dir = getenv("STA_TEST_DIR");

	snprintf(disk, sizeof(disk), "%s/softdoca-sta-test-%d.img", dir != NULL ? dir : "/tmp", (int)getpid());
	snprintf(errlog, sizeof(errlog), "/tmp/softdoca-sta-test-%d.log", (int)getpid());
	unlink(disk);
	if (dir != NULL) {
		static const uint8_t zero[65536];
		int fd = open(disk, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

		REQUIRE(fd >= 0);
		for (off_t off = 0; off < 8388608; off += (off_t)sizeof(zero))
			REQUIRE(pwrite(fd, zero, sizeof(zero), off) == (ssize_t)sizeof(zero));
		close(fd);
	}
}

/*
 * softdoca-nvmf-initiator against the target on a 4096-byte-block disk: a mixed, verified run
 * at queue depth 16 (two seconds), a read-only run, and a mixed one that busy-polls (--poll);
 * all real processes. Then the target's statistics (SIGUSR1) count every one of their commands.
 */
static int run_initiator(const char *tgt, const char *ini)
{
	const char *runs[3][3] = {{"50", "--verify", NULL}, {"100", "--verify", NULL}, {"50", "--verify", "--poll"}};
	unsigned long long reads = 0, writes = 0;
	uint64_t sr = 0, sw = 0, se = 0;
	int st;

	target_bs = "4096";
	alarm(240);
	disk_path();
	start_target(tgt);
	if (getenv("STA_TEST_DIR") != NULL) {
		bool tmpfs = path_on_tmpfs(disk), in = maps_show(target, disk);

		fprintf(stderr, "disk %s: %s, %smapped by the target\n", disk, tmpfs ? "tmpfs" : "not tmpfs", in ? "" : "not ");
		CHECK(in == (tmpfs && nvme_map_on()));
	}
	for (int i = 0; i < 3; i++) {
		char out[4096] = {0};
		int pfd[2];
		pid_t p;
		size_t n = 0;
		ssize_t r;

		REQUIRE(pipe(pfd) == 0);
		p = fork();
		REQUIRE(p >= 0);
		if (p == 0) {
			dup2(pfd[1], 1);
			close(pfd[0]);
			execl(ini, ini, "--addr", addr, "--port", port, "--nqn", NQN, "--hostnqn", HOST, "--qd", "16",
			      "--io-size", "8192", "--read-pct", runs[i][0], "--time", "2", "--blocks", "512", runs[i][1],
			      runs[i][2], (char *)NULL);
			_exit(127);
		}
		close(pfd[1]);
		while (n < sizeof(out) - 1 && (r = read(pfd[0], out + n, sizeof(out) - 1 - n)) > 0)
			n += (size_t)r;
		close(pfd[0]);
		REQUIRE(waitpid(p, &st, 0) == p);
		fprintf(stderr, "initiator: %s", out);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		CHECK(strstr(out, " IOPS (") != NULL && strstr(out, "latency us: p50") != NULL);
		CHECK(strstr(out, " 0 mismatches") != NULL);
		unsigned long long nr = 0, nw = 0;
		const char *c = strstr(out, " IOPS (");

		CHECK(c != NULL && sscanf(c, " IOPS (%llu reads, %llu writes", &nr, &nw) == 2 && nr + nw > 0);
		reads += nr;
		writes += nw;
	}
	/*
	 * Idle once the hosts are gone: nothing runs (the EUs, the disk and the NIC sleep). A 1 s
	 * window of its CPU.
	 */
	{
		struct timespec w = {.tv_sec = 1};
		double c0 = cpu_seconds(target), c1;

		nanosleep(&w, NULL); /* the measurement window, not a synchronisation */
		c1 = cpu_seconds(target);
		fprintf(stderr, "target idle: %.3f s of CPU in 1 s\n", c1 - c0);
		CHECK(c0 >= 0 && c1 >= 0 && c1 - c0 < 0.05);
	}
	/* every command the runs completed (each drains what it has in flight), once */
	CHECK(target_stats(&sr, &sw, &se));
	fprintf(stderr, "initiator runs: %llu reads, %llu writes\n", reads, writes);
	CHECK(sr == reads && sw == writes && se == 0);
	kill(target, SIGTERM);
	REQUIRE(waitpid(target, &st, 0) == target);
	target = -1;
	close(target_out);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0); /* a clean stop, under ASan too */
	unlink(disk);
	unlink(errlog);
	fprintf(stderr, "%s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}

static void on_alarm(int sig)
{
	(void)sig;
	if (target > 0)
		kill(target, SIGKILL);
	_exit(3);
}

int main(int argc, char **argv)
{
	struct nvmf_queue admin, io;
	uint8_t w[8192], f[8192];
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: test_sta_data TARGET PORT [INITIATOR]\n");
		return 2;
	}
	port = argv[2];
	if (getenv("STA_TEST_ADDR") != NULL)
		addr = getenv("STA_TEST_ADDR");
	if (argc > 3)
		return run_initiator(argv[1], argv[3]);
	signal(SIGALRM, on_alarm);
	alarm(240);
	disk_path();
	start_target(argv[1]);

	REQUIRE(nvmf_connect(&admin, addr, port, 0, 32, 31, 0xffff, NQN, HOST, NULL) == 0);
	fprintf(stderr, "ok admin queue, controller %u\n", admin.cntlid);
	admin_checks(&admin);
	identify_no_leak(&admin);
	REQUIRE(io_queue(&io, 1, 64, admin.cntlid) == 0);
	io_checks(&io);
	bad_input(&io);
	{ /* Property Get on an I/O queue: Invalid Opcode (the admin queue's only) */
		uint8_t sqe[64] = {0x7f, [4] = 0x04, [40] = 1};
		struct nvmf_cqe c;

		REQUIRE(nvmf_cmd(&io, sqe, 0, NULL, NULL, &c, TMO) == 0);
		CHECK(status_is(&c, 0, 0x01));
	}
	connect_refusals(admin.cntlid);
	discovery();
	connect_twice();
	qp_limit();
	admin_gone();
	aer_limit();
	disconnect_mid_io(admin.cntlid);
	{
		struct nvmf_cqe c;
		static uint8_t r[4096];

		fill(w, 4096, 4);
		REQUIRE(rw(&io, 0x01, 1, 4000, 8, w, NULL, &c) == 0 && (c.status >> 1) == 0);
		REQUIRE(rw(&io, 0x02, 1, 4000, 8, NULL, r, &c) == 0 && (c.status >> 1) == 0);
		CHECK(memcmp(w, r, 4096) == 0);
	}
	wrong_rkey(admin.cntlid);

	/* the target stops cleanly and the file holds what was written */
	CHECK(target_stops_cleanly());
	/* the admin and I/O queues were still connected: the target stopped with them */
	nvmf_disconnect(&io);
	nvmf_disconnect(&admin);
	fd = open(disk, O_RDONLY);
	REQUIRE(fd >= 0);
	fill(w, 16 * BS, 1);
	CHECK(pread(fd, f, 16 * BS, 0) == 16 * BS && memcmp(f, w, 16 * BS) == 0);
	close(fd);
	{
		char log[65536] = {0};
		FILE *lf = fopen(errlog, "r");

		REQUIRE(lf != NULL);
		size_t n = fread(log, 1, sizeof(log) - 1, lf);

		fclose(lf);
		log[n] = 0;
		CHECK(strstr(log, "SQSIZE 200 (0's based) refused: the limit is 128 entries") != NULL);
		CHECK(strstr(log, "SQSIZE 0 (0's based) refused: a queue holds at least 2 entries") != NULL);
		CHECK(strstr(log, "is not allowed") != NULL);
		CHECK(strstr(log, "longer than the maximum I/O size of 131072 bytes (MDTS)") != NULL);
		CHECK(strstr(log, "an RDMA READ failed") != NULL);
		/* the admin and I/O queues at least; the last queues the host or the target ended may
		 * not have been taken down yet when the signal came */
		const char *q;
		unsigned int qps = 0;

		for (q = log; (q = strstr(q, "softdoca-sta-target: ")) != NULL; q++)
			if (sscanf(q, "softdoca-sta-target: %u QPs connected at stop", &qps) == 1)
				break;
		CHECK(q != NULL && qps >= 2 && qps <= 4);
		/* the connections refused at the QP limit were freed (the RDMA-CM thread destroys their ids) */
		CHECK(strstr(log, "softdoca-sta-target: 0 refused connections held at stop") != NULL);
		/* the CQE-notify events of the STA context: a capsule refused, a disk command failed */
		CHECK(strstr(log, "CQE notify: capsule refused, opcode 0x01 cid 0 nsid 2 lba 3000: SCT 0 SC 0x0b, "
				  "error location 4") != NULL);
		CHECK(strstr(log, "CQE notify: NVMe command failed, opcode 0x01 cid 0 nsid 1 lba 16383: SCT 0 SC 0x80") !=
		      NULL);
		CHECK(strstr(log, "CQE notify: capsule refused, opcode 0x01 cid 0 nsid 1 lba 3000: SCT 0 SC 0x0f, "
				  "error location 32") != NULL);
		/* every command that reached the disk completed there, the departed host's included */
		const char *st = strstr(log, "nvme_submitted ");
		unsigned long long sub = 0, comp = 0, caps = 0;

		CHECK(st != NULL && sscanf(st, "nvme_submitted %llu nvme_completed %llu", &sub, &comp) == 2);
		CHECK(sub > 100 && sub == comp);
		/* the EUs executed their back-end queues on io_urings of their own: they posted every
		 * completion themselves, and the disk's interrupt never woke them */
		unsigned long long reaped = 0, irqs = 0;

		st = strstr(log, "nvme_eu_reaped ");
		CHECK(st != NULL && sscanf(st, "nvme_eu_reaped %llu nvme_irqs %llu", &reaped, &irqs) == 2);
		CHECK(reaped == comp && irqs == 0);
		st = strstr(log, "rx_capsules ");
		CHECK(st != NULL && sscanf(st, "rx_capsules %llu", &caps) == 1 && caps > sub);
		fprintf(stderr, "target counters: %llu capsules, %llu NVMe commands submitted and completed, %llu posted by "
			"the EUs from their io_urings, %llu disk interrupts\n",
			caps, sub, reaped, irqs);
		if (failures)
			fprintf(stderr, "---- target log ----\n%s\n", log);
	}
	unlink(disk);
	unlink(errlog);
	fprintf(stderr, "%s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}
