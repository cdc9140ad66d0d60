/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sta, data path against a hostile host: softdoca-sta-target (a real process, built with
 * the sanitizers when the build has them) and this process as an NVMe-oF RDMA host sending
 * mutated command capsules (tools/nvmf/nvmf_host.c and raw posts on its QPs): every byte of
 * the SQE, SGL descriptors (keyed, in-capsule: lengths, offsets, addresses, keys), capsules
 * shorter than an SQE and longer than the target's IOCCSZ, bursts past the Connect's SQSIZE,
 * reused CIDs, commands on a queue before its Connect, mutated Connects and admin commands for
 * the application. Meanwhile a well-behaved host (another controller) writes and reads a
 * block range no fuzzed command may write: its I/O must keep working and its data must stay
 * its own. At the end the target answers a well-formed command, stops on SIGTERM with status 0
 * and its log has no sanitizer report.
 * argv: target-binary port [capsules]. A fixed seed (FUZZ_SEED overrides); bounded by alarm().
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nvmf_host.h"
#include "target_proc.h"

#define NQN "nqn.2026-12.io.softdoca:sta-fuzz"
#define HOST "nqn.2014-08.io.softdoca:fuzz-host"
#define GOOD_HOST "nqn.2014-08.io.softdoca:good-host"
#define BS 512u
#define NBLOCKS (8388608u / BS)
#define DEPTH 16
/* the good host's blocks: no fuzzed command writes them */
#define GOOD_LBA 8192u
#define GOOD_NB 64u
#define RSP_TMO 5000

static const char *port;
static const char *addr = "127.0.0.1";
static char disk[256];
static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64: deterministic for a seed */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return n == 0 ? 0 : (uint32_t)(rnd() % n);
}

static void on_alarm(int sig)
{
	(void)sig;
	if (target > 0)
		kill(target, SIGKILL);
	_exit(3);
}

static void start_target(const char *bin)
{
	/* no --allow-host: the good host and the fuzzer are two hosts of one target */
	char *argv[] = {(char *)bin, "--addr", (char *)addr, "--port", (char *)port, "--nqn", NQN, "--backing-file", disk,
			"--size", "8388608", "--block-size", "512", "--io-threads", "2", NULL};
	char line[512];

	close(target_start(argv, line, sizeof(line)));
}

static void put16(uint8_t *p, uint16_t v)
{
	nvmf_put_le(p, v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	nvmf_put_le(p, v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	nvmf_put_le(p, v, 8);
}

static void fill(uint8_t *b, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
}

/* ---- the good host ---- */

static struct nvmf_queue good_admin, good_io;
static uint32_t good_round;

/* Writes its range with a new pattern and reads it back: false if anything differs or fails. */
static bool good_check(void)
{
	static uint8_t w[GOOD_NB * BS], r[GOOD_NB * BS];
	uint8_t sqe[64];
	struct nvmf_cqe c;

	fill(w, sizeof(w), ++good_round);
	nvmf_rw(sqe, 0x01, 1, GOOD_LBA, GOOD_NB);
	if (nvmf_cmd(&good_io, sqe, sizeof(w), w, NULL, &c, RSP_TMO) != 0 || (c.status >> 1) != 0)
		return false;
	memset(r, 0, sizeof(r));
	nvmf_rw(sqe, 0x02, 1, GOOD_LBA, GOOD_NB);
	if (nvmf_cmd(&good_io, sqe, sizeof(r), NULL, r, &c, RSP_TMO) != 0 || (c.status >> 1) != 0)
		return false;
	return memcmp(w, r, sizeof(w)) == 0;
}

/* ---- the fuzzing host ---- */

static struct nvmf_queue admin, io;
static uint16_t cntlid;
static unsigned long sent, answered, dropped_conns, short_caps, long_caps, fresh_conns;

static void connect_fuzz_queues(bool admin_too)
{
	struct nvmf_cqe c;

	if (admin_too) {
		REQUIRE(nvmf_connect(&admin, addr, port, 0, DEPTH, DEPTH - 1, 0xffff, NQN, HOST, &c) == 0);
		cntlid = admin.cntlid;
	}
	/* SQSIZE below the depth: bursts of DEPTH commands overrun the queue the host asked for */
	REQUIRE(nvmf_connect(&io, addr, port, (uint16_t)(1 + below(8)), DEPTH, (uint16_t)(1 + below(DEPTH - 1)), cntlid,
			     NQN, HOST, &c) == 0);
}

/* A fuzzed command may write anywhere but the good host's blocks. */
static void keep_off_good(uint8_t *s)
{
	uint64_t slba = nvmf_get_le(s + 40, 8);
	uint64_t nb = (uint64_t)(s[48] | s[49] << 8) + 1;

	if (slba < GOOD_LBA + GOOD_NB && slba + nb > GOOD_LBA)
		put64(s + 40, slba + 2 * NBLOCKS); /* out of range instead */
}

/* An I/O command, valid to start with, then mutated. Returns the in-capsule bytes to send. */
static uint32_t io_capsule(struct nvmf_queue *q, uint16_t cid)
{
	uint8_t *s = nvmf_capsule(q, cid);
	uint8_t opc = (uint8_t)below(3);
	uint32_t nb = 1 + below(below(4) == 0 ? 256 : 16);
	uint64_t slba = below(4) == 0 ? NBLOCKS - below(300) : below(NBLOCKS);
	uint32_t icd = 0;

	nvmf_rw(s, opc, 1, slba, nb);
	if (opc == 0x01 && below(3) == 0 && nb * BS <= NVMF_ICD) {
		nvmf_sgl_icd(s, nb * BS);
		icd = nb * BS;
		fill(s + 64, icd, cid);
	} else if (opc != 0x00 || below(2) == 0) {
		nvmf_sgl_keyed(q, s, cid, nb * BS);
		if (below(8) == 0)
			nvmf_sgl_invalidate(s);
	}
	for (uint32_t m = below(5); m > 0; m--) {
		switch (below(16)) {
		case 0: s[below(64)] = (uint8_t)rnd(); break;
		case 1: s[0] = (uint8_t)rnd(); break;                          /* opcode */
		case 2: s[1] = (uint8_t)rnd(); break;                          /* fused, PSDT */
		case 3: put32(s + 4, below(3) == 0 ? 0xffffffffu : below(4)); break; /* NSID */
		case 4: put32(s + 48, (uint32_t)rnd()); break;                 /* NLB and its flags */
		case 5: put16(s + 48, (uint16_t)rnd()); break;                 /* NLB */
		case 6: put64(s + 40, below(2) ? rnd() : UINT64_MAX - below(512)); break; /* SLBA */
		case 7: s[39] = (uint8_t)rnd(); break;                         /* SGL type / subtype */
		case 8: s[39] = below(2) ? 0x01 : 0x40; break;
		case 9: /* SGL length: keyed 24 bits, in-capsule 32 */
			if (below(2))
				put32(s + 32, (uint32_t)rnd());
			else
				put32(s + 32, (uint32_t)(s[32] | s[33] << 8 | s[34] << 16) + below(1024) - 512);
			break;
		case 10: /* in-capsule offset: near the end, past it, wrapping */
			put64(s + 24, below(3) == 0 ? rnd() : below(3) == 0 ? UINT64_MAX - below(8192) : below(9000));
			break;
		case 11: icd = below(NVMF_ICD + 1); break;                     /* what the capsule really brings */
		case 12: /* a keyed address elsewhere in our buffers (the connection lives) */
			put64(s + 24, (uint64_t)(uintptr_t)nvmf_data(q, (uint16_t)below(DEPTH)) + below(4096));
			break;
		case 13: { /* in-capsule data at the edges: a full capsule, offset and length just past it */
			static const uint32_t edge[] = {0, 1, 63, 64, 4095, 4096, 4097, 8191, 8192};

			icd = below(2) ? NVMF_ICD : edge[below(sizeof(edge) / sizeof(edge[0]))];
			s[39] = 0x01;
			put64(s + 24, below(2) ? 0 : edge[below(sizeof(edge) / sizeof(edge[0]))]);
			put32(s + 32, icd + below(4097) - 2048 * below(2));
			break;
		}
		case 14: put16(s + 2, (uint16_t)rnd()); break;                 /* CID (nvmf_send sets it again) */
		default:
			if (below(16) == 0) /* a wrong key or a wild address: the QP goes in error */
				put32(s + 35, (uint32_t)rnd());
			break;
		}
	}
	keep_off_good(s);
	return icd;
}

/* An admin or Fabrics command for the application's callback, mutated. */
static uint32_t admin_capsule(struct nvmf_queue *q, uint16_t cid)
{
	static const uint8_t opcs[] = {0x06, 0x02, 0x09, 0x0a, 0x18, 0x7f, 0x7f, 0x7f, 0x00, 0x01, 0x05, 0xc1};
	static const uint8_t fct[] = {0x00, 0x04, 0x01, 0x08, 0x05, 0x06};
	uint8_t *s = nvmf_capsule(q, cid);
	uint32_t icd = 0;

	memset(s, 0, 64);
	s[0] = opcs[below(sizeof(opcs))];
	s[4] = fct[below(sizeof(fct))];
	s[40] = (uint8_t)(below(2) ? below(4) : rnd()); /* CNS, LID, FID, ATTRIB */
	put32(s + 44, below(2) ? below(0x40) : (uint32_t)rnd());
	put32(s + 48, below(2) ? below(4096) : (uint32_t)rnd());
	put32(s + 52, below(4) ? 0 : (uint32_t)rnd());
	if (s[0] == 0x7f && s[4] == 0x01) {
		icd = nvmf_connect_capsule(q, cid, (uint16_t)below(200), (uint16_t)(below(2) ? cntlid : rnd()),
					   below(4) ? NQN : below(2) ? NVMF_DISCOVERY_NQN : "x", below(4) ? HOST : "");
	} else if (below(3) != 0) {
		nvmf_sgl_keyed(q, s, cid, below(2) ? 4096 : below(NVMF_DATA_MAX + 1));
	} else {
		icd = below(2) ? 0 : 1 + below(2048);
		nvmf_sgl_icd(s, icd);
		memset(s + 64, 0x5a, icd);
	}
	for (uint32_t m = below(4); m > 0; m--) {
		uint32_t at = below(64);

		/* (keyed addresses and keys stay: the callback's answers must reach our buffers) */
		if (at < 24 || at > 39)
			s[at] = (uint8_t)rnd();
		else if (at >= 32 && at <= 34 && s[39] == 0x01)
			s[at] = (uint8_t)rnd(); /* in-capsule length */
	}
	if (s[0] == 0x0c) /* an Asynchronous Event Request is held: no answer to wait for */
		s[0] = 0x18;
	return icd;
}

/* Raw SEND of len bytes of slot cid's capsule: shorter than an SQE, or longer than IOCCSZ. */
static int send_raw(struct nvmf_queue *q, uint16_t cid, uint32_t len)
{
	struct ibv_sge sge = {(uint64_t)(uintptr_t)nvmf_capsule(q, cid), len, q->mr->lkey};
	struct ibv_send_wr wr = {.wr_id = cid, .sg_list = len > 0 ? &sge : NULL, .num_sge = len > 0,
				 .opcode = IBV_WR_SEND}, *bad;

	return ibv_post_send(q->id->qp, &wr, &bad) == 0 ? 0 : -1;
}

/*
 * A batch on queue q: n capsules (slots may repeat: reused CIDs), then their answers. False if
 * the connection went (a wrong key, a capsule too long): the caller reconnects. A time-out on a
 * live connection is a failure (a command the target lost).
 */
static bool batch(struct nvmf_queue *q, bool is_admin, uint32_t n)
{
	uint32_t expect = 0;
	struct nvmf_cqe c;

	for (uint32_t i = 0; i < n; i++) {
		uint16_t cid = (uint16_t)(below(4) == 0 && i > 0 ? below(i) : i);
		uint32_t kind = below(64);
		int rc;

		if (kind == 0) { /* shorter than an SQE: dropped, no answer */
			memset(nvmf_capsule(q, cid), 0x02, 64);
			rc = send_raw(q, cid, below(64));
			short_caps++;
		} else if (kind == 1 && below(8) == 0) { /* longer than the target's receive buffers */
			rc = send_raw(q, cid, 64 + NVMF_ICD + 1 + below(64));
			long_caps++;
			sent++;
			if (rc == 0)
				return false; /* the QP is in error now */
		} else {
			uint32_t icd = is_admin ? admin_capsule(q, cid) : io_capsule(q, cid);

			rc = nvmf_send(q, cid, icd);
			expect++;
		}
		sent++;
		if (rc != 0)
			return false;
	}
	for (uint32_t i = 0; i < expect; i++) {
		int rc = nvmf_wait(q, &c, RSP_TMO);

		if (rc < 0)
			return false;
		if (rc == 0) {
			fprintf(stderr, "no answer to %u of the %u commands of a batch (queue %u)\n", expect - i, expect,
				q->qid);
			CHECK(rc == 1);
			return false;
		}
		answered++;
	}
	return true;
}

/*
 * A new connection, capsules before its Connect, then a mutated Connect and a few more: the
 * application's answers (Command Sequence Error, refusals) come back, nothing else.
 */
static void fresh_conn(void)
{
	struct nvmf_queue q;
	uint16_t qid = below(3) == 0 ? 0 : (uint16_t)below(10);

	if (nvmf_transport(&q, addr, port, qid, (uint16_t)(2 + below(DEPTH - 1))) != 0) {
		nvmf_disconnect(&q);
		return;
	}
	fresh_conns++;
	/* the commands of an unconnected queue */
	if (!batch(&q, below(2), 1 + below(q.depth)))
		goto out;
	/* a Connect, mutated */
	{
		uint8_t *s = nvmf_capsule(&q, 0);
		uint32_t icd = nvmf_connect_capsule(&q, 0, (uint16_t)below(q.depth + 2), below(2) ? cntlid : 0xffff,
						    below(8) ? NQN : NVMF_DISCOVERY_NQN, below(8) ? HOST : GOOD_HOST);
		struct nvmf_cqe c;

		switch (below(6)) {
		case 0: put32(s + 32, below(2048)); break;     /* its data length */
		case 1: s[39] = (uint8_t)rnd(); break;          /* its SGL */
		case 2: icd = below(icd + 1); break;            /* in-capsule data cut short */
		case 3: s[below(64)] = (uint8_t)rnd(); break;
		case 4: s[64 + below(1024)] = (uint8_t)rnd(); break;
		default: break;
		}
		if (s[39] != 0x40 && s[39] != 0x4f)
			put32(s + 24, below(4) == 0 ? (uint32_t)rnd() : 0); /* (keyed stays pointed at our buffer) */
		sent++;
		if (nvmf_send(&q, 0, icd) != 0 || nvmf_wait(&q, &c, RSP_TMO) != 1)
			goto out;
		answered++;
	}
	/* and after it (connected or not) */
	batch(&q, q.qid == 0, 1 + below(q.depth));
out:
	nvmf_disconnect(&q);
}

int main(int argc, char **argv)
{
	const char *seed_env = getenv("FUZZ_SEED");
	unsigned long total = 20000, rounds = 0;
	struct nvmf_cqe c;

	if (argc < 3) {
		fprintf(stderr, "usage: test_sta_fuzz TARGET PORT [CAPSULES]\n");
		return 2;
	}
	port = argv[2];
	if (argc > 3)
		total = strtoul(argv[3], NULL, 0);
	rng_state = seed_env != NULL ? strtoull(seed_env, NULL, 0) : 0x5eed5eedull;
	fprintf(stderr, "seed 0x%llx, %lu capsules\n", (unsigned long long)rng_state, total);
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	alarm(50);
	snprintf(disk, sizeof(disk), "/tmp/softdoca-sta-fuzz-%d.img", (int)getpid());
	snprintf(errlog, sizeof(errlog), "/tmp/softdoca-sta-fuzz-%d.log", (int)getpid());
	unlink(disk);
	start_target(argv[1]);

	REQUIRE(nvmf_connect(&good_admin, addr, port, 0, 8, 7, 0xffff, NQN, GOOD_HOST, &c) == 0);
	REQUIRE(nvmf_connect(&good_io, addr, port, 1, 8, 7, good_admin.cntlid, NQN, GOOD_HOST, &c) == 0);
	REQUIRE(good_check());
	connect_fuzz_queues(true);

	while (sent < total) {
		uint32_t what = below(100);

		rounds++;
		if (what < 3) {
			fresh_conn();
		} else if (what < 20) {
			if (!batch(&admin, true, 1 + below(DEPTH))) {
				dropped_conns++;
				nvmf_disconnect(&io);
				nvmf_disconnect(&admin);
				connect_fuzz_queues(true); /* the admin queue took its I/O queues along */
			}
		} else if (!batch(&io, false, 1 + below(DEPTH))) {
			dropped_conns++;
			nvmf_disconnect(&io);
			connect_fuzz_queues(false);
		}
		if (rounds % 200 == 0)
			CHECK(good_check());
	}
	fprintf(stderr, "%lu capsules sent (%lu shorter than an SQE, %lu too long), %lu answered, %lu rounds, %lu "
			"connections dropped by the target, %lu fresh connections\n",
		sent, short_caps, long_caps, answered, rounds, dropped_conns, fresh_conns);

	/* the target still serves a well-formed command, on the fuzzer's queue and the good host's */
	{
		static uint8_t w[4096], r[4096];
		uint8_t sqe[64];

		fill(w, sizeof(w), 77);
		nvmf_rw(sqe, 0x01, 1, 100, 8);
		REQUIRE(nvmf_cmd(&io, sqe, sizeof(w), w, NULL, &c, RSP_TMO) == 0);
		CHECK((c.status >> 1) == 0);
		nvmf_rw(sqe, 0x02, 1, 100, 8);
		REQUIRE(nvmf_cmd(&io, sqe, sizeof(r), NULL, r, &c, RSP_TMO) == 0);
		CHECK((c.status >> 1) == 0 && memcmp(w, r, sizeof(w)) == 0);
		CHECK(good_check());
	}

	/* a clean stop with the queues still connected: status 0 (no sanitizer report, no leak) */
	CHECK(target_stops_cleanly());
	nvmf_disconnect(&io);
	nvmf_disconnect(&admin);
	nvmf_disconnect(&good_io);
	nvmf_disconnect(&good_admin);
	{
		FILE *f = fopen(errlog, "r");
		char line[4096];
		int reports = 0;

		REQUIRE(f != NULL);
		while (fgets(line, sizeof(line), f) != NULL)
			if (strstr(line, "AddressSanitizer") != NULL || strstr(line, "LeakSanitizer") != NULL ||
			    strstr(line, "runtime error:") != NULL) {
				if (reports++ < 10)
					fprintf(stderr, "target: %s", line);
			}
		fclose(f);
		CHECK(reports == 0);
	}
	if (failures != 0)
		target_log_tail();
	unlink(disk);
	unlink(errlog);
	fprintf(stderr, "%s\n", failures == 0 ? "PASS" : "FAIL");
	return failures == 0 ? 0 : 1;
}
