/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft NIC's same-host ring (lib/softhw/rnic/ring.c) and its handshake against a hostile
 * peer of another uid that the target's [access] section lets in: it holds the qp's
 * descriptor, speaks the wire itself, scribbles on the shared segment and the doorbells, and
 * keeps a ring full, as an attacker would. The target is a real process (this uid); the
 * attacker runs as uid 65534. Root only (else skipped).
 */
#include <fcntl.h>
#include <sched.h>
#include <time.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/un.h>

#include "doca_dev.h"
#include "common/priv/dev_priv.h"
#include "softhw/fabric/channel.h"
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

#define MEM_LEN (64 * 1024)

static const struct softhw_rnic_ops *ops = &softhw_rnic_ops;

/* What the target tells the test: its qps' descriptors and its export (the rkey). */
struct tinfo {
	uint8_t desc[2][RNIC_DESC_LEN];
	uint64_t id, token, addr;
};

/* What the parent tells the attacker. */
struct ainfo {
	struct rnic_peer p; /* the target's qp (its host, instance, id and token) */
	uint64_t id, token, addr;
};

/* ---- a flood on one qp's ring, a message on the other's (test_ring_flood) ---- */

#define FLOOD_RECS 1024u                    /* the flood: 16 laps of the ring */
#define FLOOD_LEN (MEM_LEN / FLOOD_RECS)    /* bytes each WRITE record places: all of them cover the export */
#define FLOOD_NEIGHBOUR "neighbor"          /* the other qp's message (8 bytes) */

/* Who takes the records while the flood lasts. */
enum flood_mode {
	FLOOD_SERVICE, /* the owner sleeps armed (here in poll()): the service thread, on the doorbells */
	FLOOD_POLL,    /* the owner keeps polling (ep_poll), never armed */
	FLOOD_WAITSET, /* the owner sleeps on its wait descriptor and serves what rang (ep_serve) */
};

struct flood_req {
	uint32_t total;
	uint32_t mode;
};

/* What the target saw of the flood. */
struct flood_res {
	uint32_t taken;        /* flood records taken */
	uint32_t most;         /* the most one ring_rx call took */
	uint32_t before_other; /* flood records taken before the other qp's message (UINT32_MAX: never) */
	uint32_t other_ok;     /* that message's receive completed with its bytes */
};

/* Word k of flood record i: each record's bytes are its own. */
static uint32_t flood_word(uint32_t i, uint32_t k)
{
	return 0xf1000000u | i << 8 | k;
}

/* The target's side: kept by flood_hook, in whichever thread runs ring_rx (under the qp's lock). */
static struct {
	struct rnic_qp *flooded, *other;
	uint32_t total, taken, most, before_other;
	int done_fd;  /* written once every flood record and the other message are taken */
	bool done;
} fl;

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * rnic_ring_rx_hook: counts what each ring_rx call takes, and holds a call on the flooded qp
 * until the flooder has refilled the slot that call reads next. So the ring is never found
 * empty while the flood lasts, whatever the scheduler does: a call ends only where ring.c
 * ends it, and without a budget one call would take the whole flood.
 */
static void flood_hook(struct rnic_qp *qp, uint32_t taken)
{
	if (qp == fl.other && __atomic_load_n(&fl.before_other, __ATOMIC_ACQUIRE) == UINT32_MAX)
		__atomic_store_n(&fl.before_other, __atomic_load_n(&fl.taken, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
	if (qp == fl.flooded) {
		struct softhw_chan *ch = rnic_ring_chan(qp);
		uint32_t all = __atomic_add_fetch(&fl.taken, 1, __ATOMIC_ACQ_REL);
		uint64_t until = mono_ms() + WAIT_MS;
		struct softhw_chan_msg m;

		if (taken > fl.most)
			fl.most = taken;
		while (all < fl.total && ch != NULL && softhw_chan_peek(ch, &m) == 0 && mono_ms() < until)
			sched_yield();
	}
	if (__atomic_load_n(&fl.taken, __ATOMIC_ACQUIRE) == fl.total &&
	    __atomic_load_n(&fl.before_other, __ATOMIC_ACQUIRE) != UINT32_MAX &&
	    !__atomic_exchange_n(&fl.done, true, __ATOMIC_ACQ_REL)) {
		uint64_t one = 1;

		if (write(fl.done_fd, &one, sizeof(one)) < 0) {
		}
	}
}

/* A CQE: is it the other qp's message, received whole? */
static bool flood_neighbour(const struct softhw_rnic_cqe *c, const char *buf)
{
	return c->kind == SOFTHW_RNIC_CQE_WR && c->op == SOFTHW_RNIC_OP_RECV && c->status == DOCA_SUCCESS &&
	       c->len == 8 && memcmp(buf, FLOOD_NEIGHBOUR, 8) == 0;
}

/*
 * The target's part of the flood: a receive for the other qp's message, the hook on, 'k' to
 * the parent, then it serves as `mode` says until the flood and the message are taken (or
 * WAIT_MS), and reports (struct flood_res).
 */
static bool flood_serve(const struct node *n, struct softhw_rnic_qp *const qp[2], const struct flood_req *fr, int out)
{
	static char rbuf[64];
	struct softhw_rnic_sge sg = {rbuf, sizeof(rbuf)};
	struct pollfd done = {.events = POLLIN};
	struct softhw_rnic_cqe c;
	struct flood_res res;
	uint64_t until;
	bool other = false;

	memset(&fl, 0, sizeof(fl));
	fl.flooded = rnic_qp_of(qp[0]);
	fl.other = rnic_qp_of(qp[1]);
	fl.total = fr->total;
	fl.before_other = UINT32_MAX;
	fl.done_fd = done.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fl.done_fd < 0 || ops->ep_post_recv(n->ep, 1, &sg, 1) != DOCA_SUCCESS)
		return false;
	rnic_ring_rx_hook = flood_hook;
	if (fr->mode == FLOOD_SERVICE && ops->ep_arm(n->ep))
		return false; /* (nothing waits yet) */
	if (!put(out, "k", 1))
		return false;
	until = mono_ms() + WAIT_MS;
	if (fr->mode == FLOOD_SERVICE)
		(void)poll(&done, 1, WAIT_MS);
	while (!__atomic_load_n(&fl.done, __ATOMIC_ACQUIRE) && mono_ms() < until) {
		if (ops->ep_poll(n->ep, &c, 1) == 1) {
			other |= flood_neighbour(&c, rbuf);
		} else if (fr->mode == FLOOD_WAITSET && !ops->ep_arm(n->ep)) {
			struct pollfd w[2] = {{.fd = ops->ep_wait_fd(n->ep), .events = POLLIN}, done};

			ops->ep_owner_wait(n->ep);
			if (poll(w, 2, WAIT_MS) > 0 && (w[0].revents & POLLIN))
				ops->ep_serve(n->ep);
		}
	}
	rnic_ring_rx_hook = NULL;
	for (int i = 0; i < 100 && !other && ops->ep_poll(n->ep, &c, 1) == 1; i++) /* (queued before the hook ran) */
		other = flood_neighbour(&c, rbuf);
	res = (struct flood_res){.taken = fl.taken, .most = fl.most, .before_other = fl.before_other, .other_ok = other};
	close(fl.done_fd);
	return put(out, &res, sizeof(res));
}

/*
 * The target: two qps waiting for their dialers, 64 KiB exported for RDMA. Commands: 'a' polls
 * what waits, then arms: the arm's answer (1: "work waits, do not sleep"); 'd' + a descriptor:
 * a third qp dials it ('k'); 'x' destroys that qp ('k'); 'w' is the ep's wait descriptor readable
 * now (1) or not (0)? 'f' + struct flood_req: flood_serve; 'm': the exported 64 KiB.
 */
static void target_main(int in, int out)
{
	uint8_t *mem = mmap(NULL, MEM_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct softhw_rnic_qp *qp[2], *dq = NULL;
	struct tinfo ti = {0};
	const void *blob;
	struct node n;
	size_t len;
	char c;

	if (mem == MAP_FAILED || !node_open(&n, 8, true))
		_exit(4);
	for (int i = 0; i < 2; i++)
		if (ops->qp_create(n.ep, NULL, &qp[i]) != DOCA_SUCCESS || ops->qp_export(qp[i], &blob, &len) != DOCA_SUCCESS ||
		    len != RNIC_DESC_LEN)
			_exit(4);
		else
			memcpy(ti.desc[i], blob, len);
	if (!node_export(&n, mem, MEM_LEN, &ti.id, &ti.token))
		_exit(6);
	ti.addr = (uint64_t)(uintptr_t)mem;
	if (!put(out, &ti, sizeof(ti)))
		_exit(5);
	while (read(in, &c, 1) == 1) {
		if (c == 'a') {
			struct softhw_rnic_cqe cqe;
			uint8_t waiting;

			while (ops->ep_poll(n.ep, &cqe, 1) == 1) {
			}
			waiting = ops->ep_arm(n.ep) ? 1 : 0;
			if (!put(out, &waiting, 1))
				_exit(7);
		} else if (c == 'd') {
			uint8_t desc[RNIC_DESC_LEN];

			if (!get(in, desc, sizeof(desc)) || ops->qp_create(n.ep, NULL, &dq) != DOCA_SUCCESS ||
			    ops->qp_connect(dq, desc, sizeof(desc)) != DOCA_SUCCESS || !put(out, "k", 1))
				_exit(7);
		} else if (c == 'x') {
			if (dq != NULL)
				ops->qp_destroy(dq);
			dq = NULL;
			if (!put(out, "k", 1))
				_exit(7);
		} else if (c == 'w') {
			struct pollfd pfd = {.fd = ops->ep_wait_fd(n.ep), .events = POLLIN};
			uint8_t ready = poll(&pfd, 1, 0) == 1 ? 1 : 0;

			if (!put(out, &ready, 1))
				_exit(7);
		} else if (c == 'f') {
			struct flood_req fr;

			if (!get(in, &fr, sizeof(fr)) || !flood_serve(&n, qp, &fr, out))
				_exit(7);
		} else if (c == 'm') {
			if (!put(out, mem, MEM_LEN))
				_exit(7);
		}
	}
	if (dq != NULL)
		ops->qp_destroy(dq);
	ops->qp_destroy(qp[0]);
	ops->qp_destroy(qp[1]);
	softhw_mem_export_remove(ti.id);
	ops->ep_destroy(n.ep);
	doca_dev_close(n.dev);
	doca_devinfo_destroy_list(n.list);
}

static bool target_start(struct kid *k, const char *name, const char *config, struct tinfo *ti, struct rnic_peer p[2])
{
	const char *why = "";

	if (!kid_start(k, name, config, false, target_main) || !get(k->from, ti, sizeof(*ti)))
		return false;
	for (int i = 0; i < 2; i++)
		if (rnic_desc_decode(ti->desc[i], RNIC_DESC_LEN, &p[i], &why) != DOCA_SUCCESS)
			return false;
	return true;
}

static uint8_t target_arm(struct kid *k)
{
	uint8_t waiting = 0xff;

	if (!put(k->to, "a", 1) || !get(k->from, &waiting, 1))
		return 0xff;
	return waiting;
}

static void rnic_unix_addr(const char *instance, pid_t pid, struct sockaddr_un *addr, socklen_t *len)
{
	struct softhw_card card = {0};
	char name[24];

	snprintf(card.instance, sizeof(card.instance), "%s", instance);
	snprintf(name, sizeof(name), "%d", (int)pid);
	CHECK_OK(softhw_fabric_addr(&card, "rnic", name, addr, len));
}

/* fd becomes readable within ms. */
static bool readable(int fd, int ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	return poll(&pfd, 1, ms) == 1;
}

static bool ring_geom(struct softhw_chan_geom *g)
{
	return softhw_chan_geom_make(RNIC_RING_REC, RNIC_RING_SLOTS, RNIC_RING_SLOTS, g) == DOCA_SUCCESS;
}

/* Who the attacker says it is: the target's host, its own pid. */
static struct rnic_peer attacker_self(const struct rnic_peer *target)
{
	struct rnic_peer self = *target;

	self.pid = getpid();
	self.qp_id = 7;
	self.qp_token = 0x1234;
	self.rnr_retry = 0;
	self.dc = false;
	return self;
}

/*
 * The attacker dials the target's qp over unix with its token and maps the ring the hello ack
 * brings (side B). Returns the connected socket, or -1.
 */
static int evil_dial(const struct ainfo *a, struct softhw_chan *ch, int bells[3])
{
	struct rnic_hdr h = {.type = F_HELLO, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .want_id = a->p.qp_id,
				   .want_token = a->p.qp_token, .self = attacker_self(&a->p)};
	struct {
		struct rnic_hdr h;
		struct rnic_hello hello;
	} ack;
	union {
		char buf[CMSG_SPACE(RNIC_RING_HS_FDS * sizeof(int))];
		struct cmsghdr align;
	} c;
	struct iovec iov = {&ack, sizeof(ack)};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.buf, .msg_controllen = sizeof(c.buf)};
	struct softhw_chan_geom g;
	struct sockaddr_un addr;
	struct cmsghdr *cm;
	int fds[RNIC_RING_HS_FDS];
	socklen_t len;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	rnic_unix_addr(a->p.instance, a->p.pid, &addr, &len);
	if (s < 0 || connect(s, (struct sockaddr *)&addr, len) != 0 || !put(s, &h, sizeof(h)) ||
	    !put(s, &hello, sizeof(hello)))
		return -1;
	/* the whole ack comes in one sendmsg, with the descriptors */
	if (!readable(s, WAIT_MS) || recvmsg(s, &m, MSG_WAITALL) != (ssize_t)sizeof(ack) ||
	    ack.h.type != F_HELLO_ACK || ack.h.status != DOCA_SUCCESS || !(ack.h.flags & RNIC_HF_RING) ||
	    (cm = CMSG_FIRSTHDR(&m)) == NULL || cm->cmsg_len != CMSG_LEN(sizeof(fds)))
		return -1;
	memcpy(fds, CMSG_DATA(cm), sizeof(fds));
	if (!ring_geom(&g) || softhw_chan_attach(fds[0], &g, ch) != DOCA_SUCCESS)
		return -1;
	close(fds[0]);
	for (int i = 0; i < 3; i++)
		bells[i] = fds[i + 1];
	(void)softhw_chan_set_bell(ch, dup(fds[3]));
	return s;
}

/* ---- a control hint the ring never takes ---- */

/*
 * The attacker bumps the ring's control-hint counter (a word of the shared segment the ring does
 * not use) and reports; it keeps the connection until the parent is done.
 */
static void hinter_main(int in, int out)
{
	struct softhw_chan ch;
	struct ainfo a;
	int bells[3], s;
	char c;

	if (!get(in, &a, sizeof(a)))
		_exit(4);
	s = evil_dial(&a, &ch, bells);
	CHECK(s >= 0);
	if (!put(out, "r", 1) || !get(in, &c, 1))
		_exit(5);
	if (s >= 0)
		softhw_chan_hint_ctrl(&ch);
	if (!put(out, "h", 1))
		_exit(5);
	while (read(in, &c, 1) == 1) {
	}
}

/* An owner going to sleep is not told "work waits" for ever because of a peer's stray word. */
static void test_ring_ctrl_hint(void)
{
	const char *conf = write_config("ring-allow.conf", "allow_uids = 65534");
	struct rnic_peer p[2];
	struct kid target, evil;
	struct tinfo ti;
	struct ainfo a;
	char c;

	CHECK(target_start(&target, "ring-target-hint", conf, &ti, p));
	CHECK(kid_start(&evil, "ring-hinter", NULL, true, hinter_main));
	a = (struct ainfo){.p = p[0], .id = ti.id, .token = ti.token, .addr = ti.addr};
	CHECK(put(evil.to, &a, sizeof(a)));
	if (get(evil.from, &c, 1)) {
		CHECK(target_arm(&target) == 0); /* nothing waits: the owner may sleep */
		CHECK(put(evil.to, "h", 1) && get(evil.from, &c, 1));
		/* the owner polls, finds nothing, arms again: it must be let sleep */
		for (int i = 0; i < 3; i++)
			CHECK(target_arm(&target) == 0);
	}
	kid_end(&evil);
	kid_end(&target);
	if (test_failures)
		log_show(&target);
}

/* ---- doorbells the attacker hands over ---- */

enum bell_trick { BELL_SHUT_RD, BELL_LISTENER, BELL_KEPT };

/* What the bellman (the attacker the target dials) is told: the target's qp, and its trick. */
struct bell_req {
	struct rnic_peer p;
	int trick;
};

/*
 * The attacker listens at its own RDMA point; the target's qp dials it (the parent tells the
 * target). Its hello ack brings a real ring and doorbells, but the target's receiving end is a
 * socket the attacker keeps a copy of, and then spoils (`trick`). Command 'r': it rings that
 * receiving end (through its own ringing end) and says 'r'.
 */
static void bellman_main(int in, int out)
{
	struct bell_req req;
	struct sockaddr_un addr;
	struct softhw_chan_geom g;
	struct softhw_chan ch;
	socklen_t len;
	pid_t me = getpid();
	int l, s = -1, memfd = -1, theirs[3] = {-1, -1, -1}, mine[3] = {-1, -1, -1};
	char c;

	if (!get(in, &req, sizeof(req)))
		_exit(4);
	rnic_unix_addr(req.p.instance, me, &addr, &len);
	l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&addr, len) != 0 || listen(l, 4) != 0 || !put(out, &me, sizeof(me)))
		_exit(5);
	if (readable(l, WAIT_MS))
		s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	CHECK(s >= 0);
	if (s >= 0) {
		struct {
			struct rnic_hdr h;
			struct rnic_hello hello;
		} hi;
		struct rnic_hdr h = {.type = F_HELLO_ACK, .status = DOCA_SUCCESS, .flags = RNIC_HF_RING,
				     .plen = sizeof(struct rnic_hello)};
		struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .self = attacker_self(&req.p)};
		struct iovec iov[2] = {{&h, sizeof(h)}, {&hello, sizeof(hello)}};
		union {
			char buf[CMSG_SPACE(RNIC_RING_HS_FDS * sizeof(int))];
			struct cmsghdr align;
		} cb;
		struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2, .msg_control = cb.buf, .msg_controllen = sizeof(cb.buf)};
		struct cmsghdr *cm;
		int fds[RNIC_RING_HS_FDS];

		CHECK(get(s, &hi, sizeof(hi)) && hi.h.type == F_HELLO);
		CHECK(ring_geom(&g) && softhw_chan_create(&g, &ch, &memfd) == DOCA_SUCCESS);
		CHECK(softhw_bell_open(&theirs[0], &theirs[1], &theirs[2]) == 0);
		CHECK(softhw_bell_open(&mine[0], &mine[1], &mine[2]) == 0);
		fds[0] = memfd;
		fds[1] = theirs[0];
		fds[2] = theirs[1];
		fds[3] = mine[2];
		if (req.trick == BELL_LISTENER) {
			/* a listening socket with a connection queued: readable, and no recv ever works */
			struct sockaddr_un la = {.sun_family = AF_UNIX};
			socklen_t ll = sizeof(sa_family_t);
			int ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), cs = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

			CHECK(ls >= 0 && cs >= 0 && bind(ls, (struct sockaddr *)&la, ll) == 0 && listen(ls, 4) == 0);
			ll = sizeof(la);
			CHECK(getsockname(ls, (struct sockaddr *)&la, &ll) == 0 && connect(cs, (struct sockaddr *)&la, ll) == 0);
			fds[1] = ls;
		}
		memset(cb.buf, 0, sizeof(cb.buf));
		cm = CMSG_FIRSTHDR(&m);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(fds));
		memcpy(CMSG_DATA(cm), fds, sizeof(fds));
		CHECK(sendmsg(s, &m, MSG_NOSIGNAL) == (ssize_t)(sizeof(h) + sizeof(hello)));
		if (req.trick == BELL_SHUT_RD)
			CHECK(shutdown(theirs[0], SHUT_RD) == 0); /* readable for ever, every recv 0 */
	}
	if (!put(out, "s", 1))
		_exit(6);
	while (read(in, &c, 1) == 1) {
		if (c == 'r') {
			softhw_bell_ring(theirs[2]);
			if (!put(out, "r", 1))
				_exit(7);
		}
	}
}

/*
 * Starts the bellman (trick) and has the target dial it: the attacker's "descriptor" names this
 * host and the bellman's pid, DC, so that the target dials. False: the bellman did not start.
 */
static bool target_dials_bellman(struct kid *target, struct kid *evil, const char *name, int trick,
				 const struct rnic_peer *tp)
{
	struct bell_req req = {.p = *tp, .trick = trick};
	struct rnic_peer fake;
	uint8_t desc[RNIC_DESC_LEN];
	pid_t pid = -1;
	char c;

	CHECK(kid_start(evil, name, NULL, true, bellman_main));
	CHECK(put(evil->to, &req, sizeof(req)));
	if (!get(evil->from, &pid, sizeof(pid)))
		return false;
	fake = *tp;
	fake.pid = pid;
	fake.qp_id = 1;
	fake.qp_token = 1;
	fake.dc = true;
	rnic_desc_encode(&fake, desc);
	CHECK(put(target->to, "d", 1) && put(target->to, desc, sizeof(desc)) && get(target->from, &c, 1));
	CHECK(get(evil->from, &c, 1));
	return true;
}

/*
 * A receiving end that stays readable and gives nothing (shut down for reading, a listener):
 * the target's qp hangs up; its service thread does not spin on it until the qp is destroyed.
 */
static void test_ring_bad_bell(int trick)
{
	const char *conf = write_config("ring-allow-bell.conf", "allow_uids = 65534");
	struct rnic_peer p[2];
	struct kid target, evil;
	struct tinfo ti;
	long t0, used;

	CHECK(target_start(&target, "ring-target-bell", conf, &ti, p));
	if (target_dials_bellman(&target, &evil, "ring-bellman", trick, &p[0])) {
		(void)target_arm(&target); /* the owner goes to sleep: the service thread watches the doorbell */
		t0 = proc_cpu_ticks(target.pid);
		(void)poll(NULL, 0, 1500); /* the measurement window, not a synchronisation */
		used = proc_cpu_ticks(target.pid) - t0;
		fprintf(stderr, "  target with a spoiled doorbell (%d): %ld ticks of CPU in 1.5 s\n", trick, used);
		CHECK(used <= sysconf(_SC_CLK_TCK) / 10); /* spinning would take the whole 1.5 s */
		if (trick == BELL_SHUT_RD) /* (a listener is refused at the handshake: no doorbell then) */
			CHECK(log_count(&target, "shared-memory ring") == 1); /* the qp hung up on it, said once */
	}
	kid_end(&evil);
	kid_end(&target);
	if (test_failures)
		log_show(&target);
}

static void test_ring_bell_shut(void)
{
	test_ring_bad_bell(BELL_SHUT_RD);
}

static void test_ring_bell_listener(void)
{
	test_ring_bad_bell(BELL_LISTENER);
}

/*
 * The target's qp that dialed the attacker is destroyed; the attacker still holds the receiving
 * end of that qp's doorbell (it made it) and rings it: the owner's wait descriptor must not wake
 * for a qp that is gone (it would wake, find nothing, and wake again for ever).
 */
static void test_ring_bell_kept(void)
{
	const char *conf = write_config("ring-allow-kept.conf", "allow_uids = 65534");
	struct rnic_peer p[2];
	struct kid target, evil;
	uint8_t ready = 0xff;
	struct tinfo ti;
	char c;

	CHECK(target_start(&target, "ring-target-kept", conf, &ti, p));
	if (target_dials_bellman(&target, &evil, "ring-bellkeeper", BELL_KEPT, &p[0])) {
		CHECK(put(target.to, "x", 1) && get(target.from, &c, 1));
		CHECK(put(target.to, "w", 1) && get(target.from, &ready, 1) && ready == 0); /* nothing rang yet */
		CHECK(put(evil.to, "r", 1) && get(evil.from, &c, 1)); /* (a datagram is there when send returns) */
		CHECK(put(target.to, "w", 1) && get(target.from, &ready, 1));
		fprintf(stderr, "  the owner's wait descriptor after the qp went, rung by the attacker: %s\n",
			ready ? "readable" : "quiet");
		CHECK(ready == 0);
	}
	kid_end(&evil);
	kid_end(&target);
	if (test_failures)
		log_show(&target);
}

/* ---- one qp's ring kept full ---- */

/* What the flooder is told: the target's two qps, the export, how many records. */
struct flood_plan {
	struct ainfo a[2];
	uint32_t total;
};

/* Publishes one WRITE record of the flood: FLOOD_LEN bytes of record i, at its own place in the export. */
static void flood_write(struct softhw_chan *ch, const struct ainfo *a, uint32_t i)
{
	struct rnic_ring_hdr h = {.op = SOFTHW_RNIC_OP_WRITE, .id = a->id, .token = a->token,
				  .addr = a->addr + (uint64_t)i * FLOOD_LEN};
	uint8_t *slot = softhw_chan_slot(ch);
	uint32_t w[FLOOD_LEN / 4];

	for (uint32_t k = 0; k < FLOOD_LEN / 4; k++)
		w[k] = flood_word(i, k);
	memcpy(slot, &h, sizeof(h));
	memcpy(slot + sizeof(h), w, sizeof(w));
	softhw_chan_publish(ch, RNIC_RING_TAG_MSG, i, (uint32_t)(sizeof(h) + sizeof(w)));
}

/*
 * The attacker dials both of the target's qps. On 'g' it keeps the first one's ring full of
 * WRITE records, each published as soon as a slot is free; once the target has taken half a
 * lap, it puts one SEND on the second qp's ring. It reports how many records it published.
 */
static void ring_flooder_main(int in, int out)
{
	struct softhw_chan ch[2];
	struct flood_plan fp;
	int bells[2][3], s[2];
	uint32_t i = 0;
	uint64_t until;
	char c;

	if (!get(in, &fp, sizeof(fp)))
		_exit(4);
	for (int q = 0; q < 2; q++) {
		s[q] = evil_dial(&fp.a[q], &ch[q], bells[q]);
		CHECK(s[q] >= 0);
	}
	if (s[0] < 0 || s[1] < 0 || !put(out, "r", 1) || !get(in, &c, 1))
		_exit(5);
	until = mono_ms() + WAIT_MS;
	while (i < fp.total && mono_ms() < until) {
		if (!softhw_chan_can_send(&ch[0])) {
			sched_yield();
			continue;
		}
		flood_write(&ch[0], &fp.a[0], i);
		if (++i == RNIC_RING_SLOTS + RNIC_RING_SLOTS / 2) { /* the target has taken half a lap or more */
			struct rnic_ring_hdr h = {.op = SOFTHW_RNIC_OP_SEND};
			uint8_t *slot = softhw_chan_slot(&ch[1]);

			memcpy(slot, &h, sizeof(h));
			memcpy(slot + sizeof(h), FLOOD_NEIGHBOUR, 8);
			softhw_chan_publish(&ch[1], RNIC_RING_TAG_MSG, 1, sizeof(h) + 8);
		}
	}
	if (!put(out, &i, sizeof(i)))
		_exit(6);
	while (read(in, &c, 1) == 1) {
	}
}

/*
 * A peer of another uid keeps one qp's ring full of WRITE records (each a copy for us, almost
 * nothing for it) while another qp's message waits: the thread serving the rings (`mode`) takes
 * at most one lap per ring_rx call, serves the other qp between two of them, and still takes
 * every record of the flood, every byte in its place. Before, one call took all 1024 records of
 * the flood (flood_hook keeps the ring from running dry mid-call) and the other qp waited for
 * the end of it; on the service thread, a budget without a ring of our own doorbell would leave
 * the rest untaken (the flooder rings only once).
 */
static void test_ring_flood(enum flood_mode mode)
{
	static const char *const names[] = {"service thread", "polling owner", "owner on its wait set"};
	static uint32_t mem[MEM_LEN / 4];
	const char *conf = write_config("ring-allow-flood.conf", "allow_uids = 65534");
	struct flood_req fr = {.total = FLOOD_RECS, .mode = mode};
	struct flood_res res = {0};
	struct rnic_peer p[2];
	struct kid target, evil;
	struct flood_plan fp;
	struct tinfo ti;
	uint32_t published = 0, wrong = 0;
	char c;

	CHECK(target_start(&target, "ring-target-flood", conf, &ti, p));
	CHECK(kid_start(&evil, "ring-flooder", NULL, true, ring_flooder_main));
	for (int q = 0; q < 2; q++)
		fp.a[q] = (struct ainfo){.p = p[q], .id = ti.id, .token = ti.token, .addr = ti.addr};
	fp.total = FLOOD_RECS;
	CHECK(put(evil.to, &fp, sizeof(fp)));
	if (get(evil.from, &c, 1)) {
		CHECK(put(target.to, "f", 1) && put(target.to, &fr, sizeof(fr)) && get(target.from, &c, 1));
		CHECK(put(evil.to, "g", 1));
		CHECK(get(evil.from, &published, sizeof(published)) && published == FLOOD_RECS);
		CHECK(get(target.from, &res, sizeof(res)));
		fprintf(stderr, "  %s: %u of %u records taken, at most %u per call; the other qp's message after %u\n",
			names[mode], res.taken, FLOOD_RECS, res.most, res.before_other);
		CHECK(res.taken == FLOOD_RECS);
		CHECK(res.most <= RNIC_RING_SLOTS);
		CHECK(res.other_ok);
		/* published once half a lap was taken, served a few laps later at most: not at the end */
		CHECK(res.before_other <= FLOOD_RECS / 2);
		CHECK(put(target.to, "m", 1) && get(target.from, mem, sizeof(mem)));
		for (uint32_t i = 0; i < FLOOD_RECS; i++)
			for (uint32_t k = 0; k < FLOOD_LEN / 4; k++)
				wrong += mem[i * (FLOOD_LEN / 4) + k] != flood_word(i, k);
		if (wrong != 0)
			fprintf(stderr, "  %u words of the flood not in place\n", wrong);
		CHECK(wrong == 0);
	}
	kid_end(&evil);
	kid_end(&target);
	if (test_failures)
		log_show(&target);
}

static void test_ring_flood_service(void)
{
	test_ring_flood(FLOOD_SERVICE);
}

static void test_ring_flood_poll(void)
{
	test_ring_flood(FLOOD_POLL);
}

static void test_ring_flood_waitset(void)
{
	test_ring_flood(FLOOD_WAITSET);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("SKIP: the second-uid tests need root (children switch to uid %d); run as root\n", OTHER_ID);
		TEST_SKIP();
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(240);
	scratch_make("ring");
	TEST_RUN(test_ring_ctrl_hint);
	TEST_RUN(test_ring_bell_shut);
	TEST_RUN(test_ring_bell_listener);
	TEST_RUN(test_ring_bell_kept);
	TEST_RUN(test_ring_flood_service);
	TEST_RUN(test_ring_flood_poll);
	TEST_RUN(test_ring_flood_waitset);
	scratch_remove();
	if (uid_skipped && test_failures == 0) {
		printf("SKIP: a child could not switch to uid %d (no CAP_SETUID here)\n", OTHER_ID);
		TEST_SKIP();
	}
	TEST_EXIT();
}
