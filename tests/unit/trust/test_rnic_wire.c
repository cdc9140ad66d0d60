/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft NIC's TCP stream (lib/softhw/rnic: listen.c, stream.c, io.c, target.c, msock.c)
 * against a hostile peer that holds the qp's token: it is the connected remote side, and
 * speaks the wire (wire.h) itself, as an attacker would. The target is a real process with a
 * qp waiting for a dialer and an RDMA export; the test is the dialer.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>

#include "doca_dev.h"
#include "doca_sync_event.h"
#include "common/priv/dev_priv.h"
#include "softhw/fabric/fabric.h"
#include "softhw/fabric/mem.h"
#include "softhw/rnic/rnic.h"
#include "softhw/rnic/rnic_int.h" /* the wire, to speak it as an attacker would */
#include "softhw/softhw.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function" /* the helpers this test does not need */
#include "trust.h"
#pragma GCC diagnostic pop
#include "rnic_node.h"

/* Linked from the library archive without a flavour. */
const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

#define MEM_LEN 4096
/* A sync event's descriptor: a 12-byte frame header, 160 bytes (id at 8, address at 16, token at 152), a CRC */
#define SE_DESC_LEN (12 + 160 + 4)

static const struct softhw_rnic_ops *ops = &softhw_rnic_ops;

/* What the target tells the test: its qp's descriptor and its export (the rkey). */
struct tinfo {
	uint8_t desc[RNIC_DESC_LEN];
	uint64_t id, token, addr;
};

static long rss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	if (f != NULL)
		fclose(f);
	return kb;
}

/*
 * The target: a qp waiting for its dialer, a page exported for RDMA. Commands: 'r' its resident
 * memory (kB), 'c' the CQEs its owner polls now (kind, status of the last; count), 'm' the
 * page's first 64 bytes, 'd' + a descriptor: a second qp dials it, 'e' two sync events
 * exported to remote net (their descriptors), 'v' their values.
 */
static void target_main(int in, int out)
{
	uint8_t *mem = mmap(NULL, MEM_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct doca_sync_event *ev[2] = {NULL, NULL};
	struct softhw_rnic_qp *qp;
	struct tinfo ti = {0};
	const void *blob;
	struct node n;
	size_t len;
	char c;

	if (mem == MAP_FAILED || !node_open(&n, 4, false) || ops->qp_create(n.ep, NULL, &qp) != DOCA_SUCCESS ||
	    ops->qp_export(qp, &blob, &len) != DOCA_SUCCESS || len != RNIC_DESC_LEN)
		_exit(4);
	memcpy(ti.desc, blob, len);
	if (!node_export(&n, mem, MEM_LEN, &ti.id, &ti.token))
		_exit(6);
	ti.addr = (uint64_t)(uintptr_t)mem;
	if (!put(out, &ti, sizeof(ti)))
		_exit(5);
	while (read(in, &c, 1) == 1) {
		if (c == 'r') {
			long kb = rss_kb();

			if (!put(out, &kb, sizeof(kb)))
				_exit(7);
		} else if (c == 'c') {
			struct softhw_rnic_cqe cqe = {0}, last = {0};
			int count = 0;

			while (ops->ep_poll(n.ep, &cqe, 1) == 1) {
				last = cqe;
				count++;
			}
			if (!put(out, &count, sizeof(count)) || !put(out, &last, sizeof(last)))
				_exit(7);
		} else if (c == 'm') {
			if (!put(out, mem, 64))
				_exit(7);
		} else if (c == 'd') {
			/* dial the qp of the descriptor that follows, from a qp of its own */
			uint8_t desc[RNIC_DESC_LEN];
			struct softhw_rnic_qp *dq;

			if (!get(in, desc, sizeof(desc)) || ops->qp_create(n.ep, NULL, &dq) != DOCA_SUCCESS ||
			    ops->qp_connect(dq, desc, sizeof(desc)) != DOCA_SUCCESS || !put(out, "k", 1))
				_exit(7);
		} else if (c == 'e') {
			for (int i = 0; i < 2; i++) {
				const uint8_t *d;
				size_t dlen;

				if (doca_sync_event_create(&ev[i]) != DOCA_SUCCESS ||
				    doca_sync_event_add_publisher_location_remote_net(ev[i]) != DOCA_SUCCESS ||
				    doca_sync_event_add_subscriber_location_cpu(ev[i], n.dev) != DOCA_SUCCESS ||
				    doca_sync_event_start(ev[i]) != DOCA_SUCCESS ||
				    doca_sync_event_export_to_remote_net(ev[i], &d, &dlen) != DOCA_SUCCESS ||
				    dlen != SE_DESC_LEN || !put(out, d, dlen))
					_exit(7);
			}
		} else if (c == 'v') {
			uint64_t v[2] = {0, 0};

			for (int i = 0; i < 2; i++)
				if (ev[i] == NULL || doca_sync_event_get(ev[i], &v[i]) != DOCA_SUCCESS)
					_exit(7);
			if (!put(out, v, sizeof(v)))
				_exit(7);
		}
	}
	for (int i = 0; i < 2; i++)
		if (ev[i] != NULL) {
			(void)doca_sync_event_stop(ev[i]);
			(void)doca_sync_event_destroy(ev[i]);
		}
	ops->qp_destroy(qp);
	softhw_mem_export_remove(ti.id);
	ops->ep_destroy(n.ep);
	doca_dev_close(n.dev);
	doca_devinfo_destroy_list(n.list);
}

static bool target_start(struct kid *k, const char *name, struct tinfo *ti, struct rnic_peer *p)
{
	const char *why = "";

	return kid_start(k, name, NULL, false, target_main) && get(k->from, ti, sizeof(*ti)) &&
	       rnic_desc_decode(ti->desc, RNIC_DESC_LEN, p, &why) == DOCA_SUCCESS;
}

static long target_rss(struct kid *k)
{
	long kb = -1;

	if (!put(k->to, "r", 1) || !get(k->from, &kb, sizeof(kb)))
		return -1;
	return kb;
}

static int target_cqes(struct kid *k, struct softhw_rnic_cqe *last)
{
	int count = -1;

	if (!put(k->to, "c", 1) || !get(k->from, &count, sizeof(count)) || !get(k->from, last, sizeof(*last)))
		return -1;
	return count;
}

/* The target's qp ended, told as the end of a connection (CONNECTION_ABORTED), within WAIT_MS. */
static bool disconnected(struct kid *k)
{
	for (int i = 0; i < WAIT_MS / 10; i++) {
		struct softhw_rnic_cqe last = {0};
		int n = target_cqes(k, &last);

		if (n < 0)
			return false;
		if (n > 0)
			return last.kind == SOFTHW_RNIC_CQE_DISCONNECTED && last.status == DOCA_ERROR_CONNECTION_ABORTED;
		usleep(10000);
	}
	return false;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * Dials the target's TCP listener and says hello for its qp with the right token (flags:
 * RNIC_HF_MSOCK for the message socket). Returns the connected socket (its hello ack read,
 * unless msock) or -1.
 */
static int raw_dial(const struct rnic_peer *p, uint16_t flags)
{
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(p->tcp_port)};
	struct rnic_hdr h = {.type = F_HELLO, .flags = flags, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .want_id = p->qp_id,
				   .want_token = p->qp_token};
	struct {
		struct rnic_hdr h;
		struct rnic_hello hello;
	} ack;
	int one = 1, s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memcpy(&sin.sin_addr, p->tcp_ip, 4);
	hello.self.pid = 1;  /* another host: nothing in it is this one's */
	hello.self.qp_id = 7;
	hello.self.qp_token = 0x1234;
	hello.self.rnr_retry = 0;
	if (s < 0 || connect(s, (struct sockaddr *)&sin, sizeof(sin)) != 0 || !put(s, &h, sizeof(h)) ||
	    !put(s, &hello, sizeof(hello))) {
		if (s >= 0)
			close(s);
		return -1;
	}
	(void)setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (flags & RNIC_HF_MSOCK)
		return s;
	if (!read_full_ms(s, &ack, sizeof(ack), WAIT_MS) || ack.h.type != F_HELLO_ACK || ack.h.status != DOCA_SUCCESS) {
		close(s);
		return -1;
	}
	return s;
}

/* A request frame for the target. */
static struct rnic_hdr req(uint8_t op, uint64_t seq, uint64_t id, uint64_t token, uint64_t addr, uint64_t len)
{
	return (struct rnic_hdr){.type = F_REQ, .op = op, .seq = seq, .id = id, .token = token, .addr = addr, .len = len};
}

/* Reads the next frame header (skipping nothing): false on timeout or close. */
static bool read_hdr(int s, struct rnic_hdr *h)
{
	return read_full_ms(s, h, sizeof(*h), WAIT_MS);
}

/* Whether the socket is closed by the other side within ms (what was pending is read and dropped). */
static bool closed_within(int s, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	char buf[65536];

	for (;;) {
		uint64_t now = now_ms();
		struct pollfd p = {.fd = s, .events = POLLIN};
		ssize_t n;

		if (now >= end || poll(&p, 1, (int)(end - now)) != 1)
			return false;
		n = recv(s, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return true;
	}
}

/*
 * Sends requests (never reading an answer) for up to ms or `bytes` bytes, whatever the socket
 * takes without blocking; returns the bytes that went (-1: the connection closed).
 */
static long flood_requests(int s, const struct rnic_hdr *proto, int ms, long bytes, bool *closed)
{
	enum { BATCH = 512 };
	static struct rnic_hdr batch[BATCH];
	uint64_t end = now_ms() + (uint64_t)ms, seq = 1;
	long sent = 0;

	*closed = false;
	while (now_ms() < end && sent < bytes) {
		struct pollfd p = {.fd = s, .events = POLLOUT};
		ssize_t n;

		for (int i = 0; i < BATCH; i++) {
			batch[i] = *proto;
			batch[i].seq = seq + (uint64_t)i;
		}
		if (poll(&p, 1, 50) != 1)
			continue;
		n = send(s, batch, sizeof(batch), MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0) {
			*closed = true;
			break;
		}
		/* a whole number of frames went, or the rest of the last one follows */
		if (n % (ssize_t)sizeof(struct rnic_hdr) != 0 &&
		    !put(s, (char *)batch + n, sizeof(struct rnic_hdr) - (size_t)n % sizeof(struct rnic_hdr))) {
			*closed = true;
			break;
		}
		n += (ssize_t)((sizeof(struct rnic_hdr) - (size_t)n % sizeof(struct rnic_hdr)) % sizeof(struct rnic_hdr));
		seq += (uint64_t)n / sizeof(struct rnic_hdr);
		sent += n;
	}
	return sent;
}

/* A sync event's remote-net descriptor (lib/common/sync_event_export.c), read as a peer would. */
struct se_key {
	uint64_t id, addr, token;
};

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static struct se_key se_key(const uint8_t *desc)
{
	return (struct se_key){.id = le64(desc + 12 + 8), .addr = le64(desc + 12 + 16), .token = le64(desc + 12 + 152)};
}

/* ---- the tests ---- */

/*
 * A peer that sends requests and never reads their answers: the target must not queue answers
 * without bound (its memory), it ends the connection, logged. Atomics on an rkey that does
 * not exist: the peer needs no export for it, each answer is a NAK.
 */
static void test_unread_answers(void)
{
	struct rnic_hdr proto;
	struct kid target;
	struct tinfo ti;
	struct rnic_peer p;
	long before, after, sent;
	bool closed = false;
	int s;

	CHECK(target_start(&target, "wire-unread", &ti, &p));
	s = raw_dial(&p, 0);
	CHECK(s >= 0);
	before = target_rss(&target);
	proto = req(SOFTHW_RNIC_OP_FETCH_ADD, 0, 999, 1, 0, 8);
	sent = flood_requests(s, &proto, 8000, 256l << 20, &closed);
	after = target_rss(&target);
	fprintf(stderr, "  sent %ld bytes of requests, closed %d; target rss %ld -> %ld kB\n", sent, closed, before,
		after);
	CHECK(after - before < 64 * 1024); /* the queued answers, bounded */
	CHECK(closed || closed_within(s, WAIT_MS));
	CHECK(disconnected(&target));
	close(s);
	kid_end(&target);
	CHECK(log_count(&target, "but does not read their answers") == 1);
	if (test_failures)
		log_show(&target);
}

/* Sends a frame a byte at a time (the target must reassemble it). */
static bool put_bytewise(int s, const void *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!put(s, (const char *)buf + i, 1))
			return false;
	return true;
}

/* One request, its answer's header (payload, if any, into `data`, at most dlen). */
static bool ask(int s, const struct rnic_hdr *h, const void *payload, bool bytewise, struct rnic_hdr *ans, void *data,
		size_t dlen)
{
	bool ok = bytewise ? put_bytewise(s, h, sizeof(*h)) && (h->plen == 0 || put_bytewise(s, payload, h->plen))
			   : put(s, h, sizeof(*h)) && (h->plen == 0 || put(s, payload, h->plen));

	if (!ok || !read_hdr(s, ans))
		return false;
	return ans->plen == 0 || (ans->plen <= dlen && read_full_ms(s, data, ans->plen, WAIT_MS));
}

/*
 * Requests that break the rules are refused one by one (a NAK with the error), write nothing
 * outside the rkey's range, and leave the connection up; a frame split at every byte is
 * taken whole.
 */
static void test_bad_requests(void)
{
	struct rnic_hdr h, ans;
	struct kid target;
	struct tinfo ti;
	struct rnic_peer p;
	uint8_t data[256], page[64];
	int s;

	CHECK(target_start(&target, "wire-bad", &ti, &p));
	s = raw_dial(&p, 0);
	CHECK(s >= 0);
	memset(data, 0xab, sizeof(data));
	/* a READ far beyond the export */
	h = req(SOFTHW_RNIC_OP_READ, 1, ti.id, ti.token, ti.addr, 1ull << 40);
	CHECK(ask(s, &h, NULL, false, &ans, data, sizeof(data)) && ans.type == F_RESP && ans.seq == 1 &&
	      ans.status == DOCA_ERROR_INVALID_VALUE && ans.plen == 0);
	/* a READ whose end wraps around */
	h = req(SOFTHW_RNIC_OP_READ, 2, ti.id, ti.token, ti.addr + 8, UINT64_MAX - 4);
	CHECK(ask(s, &h, NULL, false, &ans, data, sizeof(data)) && ans.status == DOCA_ERROR_INVALID_VALUE && ans.plen == 0);
	/* an atomic off its 8-byte alignment */
	h = req(SOFTHW_RNIC_OP_FETCH_ADD, 3, ti.id, ti.token, ti.addr + 4, 8);
	CHECK(ask(s, &h, NULL, false, &ans, data, sizeof(data)) && ans.status == DOCA_ERROR_INVALID_VALUE);
	/* a WRITE across the export's end, and one with another token */
	h = req(SOFTHW_RNIC_OP_WRITE, 4, ti.id, ti.token, ti.addr + MEM_LEN - 8, 16);
	h.plen = 16;
	CHECK(ask(s, &h, data, false, &ans, data, sizeof(data)) && ans.seq == 4 && ans.status == DOCA_ERROR_INVALID_VALUE);
	h = req(SOFTHW_RNIC_OP_WRITE, 5, ti.id, ti.token ^ 1, ti.addr, 16);
	h.plen = 16;
	CHECK(ask(s, &h, data, false, &ans, data, sizeof(data)) && ans.seq == 5 && ans.status == DOCA_ERROR_INVALID_VALUE);
	/* an opcode nobody knows */
	h = req(200, 6, ti.id, ti.token, ti.addr, 8);
	CHECK(ask(s, &h, NULL, false, &ans, data, sizeof(data)) && ans.seq == 6 && ans.status == DOCA_ERROR_NOT_SUPPORTED);
	/* a SEND with no receive posted and no retries asked: NAK */
	h = req(SOFTHW_RNIC_OP_SEND, 7, 0, 0, 0, 16);
	h.plen = 16;
	CHECK(ask(s, &h, data, false, &ans, data, sizeof(data)) && ans.seq == 7 && ans.status == DOCA_ERROR_AGAIN);
	/* nothing of it landed */
	CHECK(put(target.to, "m", 1) && get(target.from, page, sizeof(page)));
	CHECK(page[0] == 0 && page[63] == 0);
	/* a good WRITE, split at every byte, and a READ of it */
	h = req(SOFTHW_RNIC_OP_WRITE, 8, ti.id, ti.token, ti.addr, 64);
	h.plen = 64;
	CHECK(ask(s, &h, data, true, &ans, data, sizeof(data)) && ans.seq == 8 && ans.status == DOCA_SUCCESS);
	h = req(SOFTHW_RNIC_OP_READ, 9, ti.id, ti.token, ti.addr, 64);
	memset(page, 0, sizeof(page));
	CHECK(ask(s, &h, NULL, true, &ans, page, sizeof(page)) && ans.status == DOCA_SUCCESS && ans.plen == 64 &&
	      page[0] == 0xab && page[63] == 0xab);
	/* an answer nobody asked for: the connection ends */
	h = (struct rnic_hdr){.type = F_RESP, .seq = 77};
	CHECK(put(s, &h, sizeof(h)) && closed_within(s, WAIT_MS));
	close(s);
	kid_end(&target);
	if (test_failures)
		log_show(&target);
}

/*
 * The same on the message socket: small WRITEs (each ACKed there) from a peer that never reads
 * the ACKs. The target's service thread reads the message socket after a nudge.
 */
static void test_unread_acks_msock(void)
{
	struct rnic_hdr proto, nudge = {.type = F_NUDGE};
	struct kid target;
	struct tinfo ti;
	struct rnic_peer p;
	long before, after, sent;
	bool closed = false;
	int s, m;

	CHECK(target_start(&target, "wire-unread-msock", &ti, &p));
	s = raw_dial(&p, 0);
	CHECK(s >= 0);
	m = raw_dial(&p, RNIC_HF_MSOCK);
	CHECK(m >= 0);
	CHECK(put(s, &nudge, sizeof(nudge)));
	before = target_rss(&target);
	proto = req(SOFTHW_RNIC_OP_WRITE, 0, ti.id, ti.token, ti.addr, 0);
	sent = flood_requests(m, &proto, 8000, 256l << 20, &closed);
	after = target_rss(&target);
	fprintf(stderr, "  sent %ld bytes of requests, closed %d; target rss %ld -> %ld kB\n", sent, closed, before,
		after);
	CHECK(after - before < 64 * 1024);
	CHECK(closed || closed_within(m, WAIT_MS));
	CHECK(disconnected(&target));
	close(m);
	close(s);
	kid_end(&target);
	CHECK(log_count(&target, "on the message socket but does not read their answers") == 1);
	if (test_failures)
		log_show(&target);
}

/*
 * A peer handed one sync event's remote-net descriptor (a) reaches that event only. The id of
 * another event of the process (b) is the next number, its address a neighbour of a's in the
 * heap: all an attacker needs besides the token. The token must be b's own, as an export's.
 */
static void test_sync_event_token(void)
{
	uint8_t desc[2][SE_DESC_LEN];
	struct rnic_hdr h, ans;
	struct se_key a, b;
	struct kid target;
	struct tinfo ti;
	struct rnic_peer p;
	uint64_t v[2];
	int s;

	CHECK(target_start(&target, "wire-se-token", &ti, &p));
	CHECK(put(target.to, "e", 1) && get(target.from, desc, sizeof(desc)));
	a = se_key(desc[0]);
	b = se_key(desc[1]);
	s = raw_dial(&p, 0);
	CHECK(s >= 0);
	/* b with a's token, and with none: refused, b untouched */
	h = req(SOFTHW_RNIC_OP_SE_SET, 1, b.id, a.token, b.addr, 8);
	h.arg0 = 0x666;
	CHECK(ask(s, &h, NULL, false, &ans, NULL, 0) && ans.seq == 1 && ans.status == DOCA_ERROR_INVALID_VALUE);
	h = req(SOFTHW_RNIC_OP_SE_ADD, 2, b.id, 0, b.addr, 8);
	h.arg0 = 1;
	CHECK(ask(s, &h, NULL, false, &ans, NULL, 0) && ans.seq == 2 && ans.status == DOCA_ERROR_INVALID_VALUE);
	h = req(SOFTHW_RNIC_OP_SE_GET, 3, b.id, a.token ^ 1, b.addr, 8);
	CHECK(ask(s, &h, NULL, false, &ans, NULL, 0) && ans.seq == 3 && ans.status == DOCA_ERROR_INVALID_VALUE);
	/* a with its own descriptor: served */
	h = req(SOFTHW_RNIC_OP_SE_SET, 4, a.id, a.token, a.addr, 8);
	h.arg0 = 42;
	CHECK(ask(s, &h, NULL, false, &ans, NULL, 0) && ans.seq == 4 && ans.status == DOCA_SUCCESS);
	CHECK(put(target.to, "v", 1) && get(target.from, v, sizeof(v)));
	fprintf(stderr, "  event a = %llu, event b = %llu\n", (unsigned long long)v[0], (unsigned long long)v[1]);
	CHECK(v[0] == 42 && v[1] == 0);
	close(s);
	kid_end(&target);
	if (test_failures)
		log_show(&target);
}

/* A listener on 127.0.0.1 (backlog: `backlog`); its port. */
static int listen_lo(int backlog, uint16_t *port)
{
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sin);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (l < 0 || bind(l, (struct sockaddr *)&sin, sizeof(sin)) != 0 || listen(l, backlog) != 0 ||
	    getsockname(l, (struct sockaddr *)&sin, &len) != 0)
		return -1;
	*port = ntohs(sin.sin_port);
	return l;
}

/* How long (ms) the target's listener takes to answer a hello for a qp it does not have. */
static long hello_answer_ms(const struct rnic_peer *p)
{
	struct rnic_peer nobody = *p;
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(p->tcp_port)};
	struct rnic_hdr h = {.type = F_HELLO, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION};
	uint64_t t0 = now_ms();
	char buf[sizeof(h) + sizeof(hello)];
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool answered;

	nobody.qp_id = p->qp_id + 1000;
	hello.want_id = nobody.qp_id;
	memcpy(&sin.sin_addr, p->tcp_ip, 4);
	if (s < 0 || connect(s, (struct sockaddr *)&sin, sizeof(sin)) != 0 || !put(s, &h, sizeof(h)) ||
	    !put(s, &hello, sizeof(hello))) {
		if (s >= 0)
			close(s);
		return -1;
	}
	answered = read_full_ms(s, buf, sizeof(buf), WAIT_MS);
	close(s);
	return answered ? (long)(now_ms() - t0) : -1;
}

/*
 * The peer we dial never answers the message socket's connect (its listener's backlog is full:
 * the SYN is dropped) and its hello names another address for it, where nobody answers either:
 * the service thread must not wait for that connect, other connections of the process are
 * served meanwhile, and the qp works on without the message socket.
 */
static void test_msock_dial_stuck(void)
{
	struct rnic_peer p, fake = {0};
	struct rnic_hdr h;
	struct rnic_hello hello;
	struct kid target;
	struct tinfo ti;
	uint8_t desc[RNIC_DESC_LEN];
	uint16_t port, dead_port;
	int l = listen_lo(0, &port), dead = listen_lo(0, &dead_port), fill = -1, fill2 = -1, s = -1;
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(dead_port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct rnic_hdr w, ans;
	uint8_t data[16] = {1, 2, 3};
	struct {
		struct rnic_hdr h;
		struct rnic_hello hello;
	} ack = {.h = {.type = F_HELLO_ACK, .status = DOCA_SUCCESS, .plen = sizeof(struct rnic_hello)},
		 .hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION}};
	long ms;

	CHECK(l >= 0 && dead >= 0);
	/* the one connection its backlog takes: the next SYN is dropped */
	fill = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(fill >= 0 && connect(fill, (struct sockaddr *)&sin, sizeof(sin)) == 0);
	CHECK(target_start(&target, "wire-msock-stuck", &ti, &p));
	/* our "qp": on another host (no boot id), DC so that the target dials us */
	fake.family = AF_INET;
	fake.tcp_ip[0] = 127;
	fake.tcp_ip[3] = 1;
	fake.tcp_port = port;
	fake.pid = 1;
	fake.qp_id = 7;
	fake.qp_token = 0x5eed;
	fake.dc = true;
	rnic_desc_encode(&fake, desc);
	CHECK(put(target.to, "d", 1) && put(target.to, desc, sizeof(desc)) && get(target.from, desc, 1));
	s = accept(l, NULL, NULL);
	CHECK(s >= 0 && read_full_ms(s, &h, sizeof(h), WAIT_MS) && read_full_ms(s, &hello, sizeof(hello), WAIT_MS));
	CHECK(h.type == F_HELLO && hello.want_token == fake.qp_token);
	/* the one connection our own listener's backlog takes now: the target's next SYN is dropped */
	sin.sin_port = htons(port);
	fill2 = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(fill2 >= 0 && connect(fill2, (struct sockaddr *)&sin, sizeof(sin)) == 0);
	/* we accept; our message socket is "there", where nobody answers */
	ack.hello.self = fake;
	ack.hello.self.dc = false;
	ack.hello.self.tcp_port = dead_port;
	CHECK(put(s, &ack, sizeof(ack)));
	ms = hello_answer_ms(&p);
	fprintf(stderr, "  the target answered another hello in %ld ms\n", ms);
	CHECK(ms >= 0 && ms < 1000);
	/* the qp is up, on its main socket: a WRITE of ours to the target's export is answered */
	w = req(SOFTHW_RNIC_OP_WRITE, 1, ti.id, ti.token, ti.addr, sizeof(data));
	w.plen = sizeof(data);
	CHECK(put(s, &w, sizeof(w)) && put(s, data, sizeof(data)) && read_hdr(s, &ans) && ans.type == F_RESP &&
	      ans.seq == 1 && ans.status == DOCA_SUCCESS);
	close(s);
	close(fill2);
	close(fill);
	close(dead);
	close(l);
	kid_end(&target);
	if (test_failures)
		log_show(&target);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	alarm(240);
	setenv("SOFTDOCA_RDMA_TRANSPORT", "t", 1);
	scratch_make("wire");
	TEST_RUN(test_bad_requests);
	TEST_RUN(test_sync_event_token);
	TEST_RUN(test_unread_answers);
	TEST_RUN(test_unread_acks_msock);
	TEST_RUN(test_msock_dial_stuck);
	scratch_remove();
	TEST_EXIT();
}
