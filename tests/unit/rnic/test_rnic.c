/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft RDMA NIC (lib/softhw/rnic/rnic.h), driven through its ops table: a forked target
 * exports memory (softhw_mem_export_add, as doca_mmap_export_rdma does) and a queue pair, this
 * process connects and posts. Links softhw alone (no DOCA library).
 * The target sits blocked in read() on a pipe between commands: one-sided operations are
 * executed by its service thread. Everything runs over unix sockets (two-sided messages on the
 * same-host ring, taken by the target's service thread when the sender nudges it), then again
 * over TCP (two-sided messages on the qp's message socket, read by the owner's ep_poll or, once
 * the sender nudges or while the owner sleeps armed, by the service thread). On the unix
 * transport a target also scribbles over its qp's shared ring segment: only that qp breaks.
 */
#include <dirent.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "doca_log.h"
#include "doca_types.h"
#include "softhw/base/export_desc.h"
#include "softhw/fabric/mem.h"
#include "softhw/rnic/rnic.h"
#include "softhw/rnic/rnic_int.h" /* the corrupting peer reaches its qp's shared ring segment */
#include "softhw/rnic/stream.h"  /* the same-host rule for TCP */
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

#define MEM_LEN (8u << 20)
#define WAIT_MS 5000
#define ALL_RDMA (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

static const struct softhw_rnic_ops *ops = &softhw_rnic_ops;

/* ---- one process's side ---- */

struct node {
	const struct softhw_function *fn; /* the soft device (the first function of the model) */
	struct softhw_rnic_ep *ep;
	int efd; /* notify target */
};

static void notify(void *arg)
{
	uint64_t one = 1;

	if (write(*(int *)arg, &one, sizeof(one)) < 0) {
	}
}

static bool node_open(struct node *n, uint32_t access, uint8_t rnr)
{
	struct softhw_rnic_ep_attr attr = {0};
	const struct softhw_model *model;
	doca_error_t err;

	memset(n, 0, sizeof(*n));
	n->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	model = softhw_model_get(&err);
	if (model == NULL || softhw_model_num_functions(model) == 0)
		return false;
	n->fn = softhw_model_function(model, 0);
	attr.fn = n->fn;
	attr.access = access;
	attr.max_qps = 16;
	attr.max_recv_sge = 4;
	attr.max_send_sge = 4;
	attr.max_msg_size = 1u << 30;
	attr.rnr_retry_count = rnr;
	attr.cm_timeout_ms = 2000;
	attr.notify = notify;
	attr.notify_arg = &n->efd;
	return ops->ep_create(&attr, &n->ep) == DOCA_SUCCESS;
}

static void node_close(struct node *n)
{
	ops->ep_destroy(n->ep);
	close(n->efd);
}

/* Waits for one CQE (bounded), sleeping in poll() on the notify eventfd. */
static bool wait_cqe(struct node *n, struct softhw_rnic_cqe *c, int ms)
{
	for (;;) {
		struct pollfd p = {.fd = n->efd, .events = POLLIN};
		uint64_t v;

		if (ops->ep_poll(n->ep, c, 1) == 1)
			return true;
		if (ops->ep_arm(n->ep))
			continue;
		if (poll(&p, 1, ms) <= 0)
			return ops->ep_poll(n->ep, c, 1) == 1;
		if (read(n->efd, &v, sizeof(v)) < 0) {
		}
	}
}

/* Waits for one CQE (bounded), polling without ever sleeping armed. */
static bool spin_cqe(struct node *n, struct softhw_rnic_cqe *c, int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (ops->ep_poll(n->ep, c, 1) == 1)
			return true;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return false;
}

/* Waits for the CQE of kind `kind` (skipping none): false on time-out or another kind. */
static bool expect(struct node *n, enum softhw_rnic_cqe_kind kind, doca_error_t status, struct softhw_rnic_cqe *out)
{
	struct softhw_rnic_cqe c;

	if (!wait_cqe(n, &c, WAIT_MS)) {
		fprintf(stderr, "  no CQE (wanted kind %d)\n", kind);
		return false;
	}
	if (out != NULL)
		*out = c;
	if (c.kind != kind || c.status != status)
		fprintf(stderr, "  CQE kind %d status %s (wanted %d %s)\n", c.kind, doca_error_get_name(c.status), kind,
			doca_error_get_name(status));
	return c.kind == kind && c.status == status;
}

/* ---- pipes ---- */

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

/* ---- the target ---- */

struct target_info {
	struct softhw_rnic_rkey mem;   /* whole buffer, rights per the test */
	struct softhw_rnic_rkey ro;    /* read-only export */
	uint8_t desc[512];
	uint32_t desc_len;
};

struct target_cfg {
	uint32_t ep_access;
	uint32_t mem_access;   /* mmap permissions of `mem` */
	uint8_t rnr;
};

struct target {
	pid_t pid;
	int cmd;
	int info;
	struct target_info ti;
};

/* Exports memory for RDMA as doca_mmap_export_rdma does, and names it as its descriptor would. */
static bool export_rkey(const struct softhw_function *fn, void *addr, size_t len, uint32_t access, uint64_t *id,
			struct softhw_rnic_rkey *k)
{
	uint32_t rights = 0;
	uint64_t token;
	const char *why;

	if (access & DOCA_ACCESS_FLAG_RDMA_READ)
		rights |= SOFTHW_MEM_READ;
	if (access & DOCA_ACCESS_FLAG_RDMA_WRITE)
		rights |= SOFTHW_MEM_WRITE;
	if (access & DOCA_ACCESS_FLAG_RDMA_ATOMIC)
		rights |= SOFTHW_MEM_ATOMIC;
	rights |= SOFTHW_MEM_VIA_NIC; /* an RDMA export: the NIC reaches it, DMA does not */
	if (softhw_mem_export_add(fn->card->instance, addr, len, rights, id, &token, &why) != DOCA_SUCCESS)
		return false;
	*k = (struct softhw_rnic_rkey){.pid = (int32_t)getpid(), .id = *id, .token = token,
				       .addr = (uint64_t)(uintptr_t)addr, .len = len};
	return true;
}

/* How the corrupting peer breaks the segment (test_ring_corrupt). */
enum corrupt {
	CORRUPT_LEN,       /* publishes a record longer than a slot */
	CORRUPT_SEQ,       /* publishes a record whose sequence is from neither lap */
	CORRUPT_HEAD_FWD,  /* claims it consumed far more than was published */
	CORRUPT_HEAD_BACK, /* moves its head backwards */
	CORRUPT_RANDOM,    /* random bytes over the whole segment */
	CORRUPT_N,
};

static const char *const corrupt_name[CORRUPT_N] = {"record length", "sequence", "head forward", "head backward",
						    "random bytes"};

/*
 * The peer side of test_ring_corrupt: rewrites the shared segment of its (established, ring)
 * qp under the qp lock, then rings the victim's doorbell in case it sleeps armed.
 */
static bool corrupt_ring(struct rnic_qp *q, int how)
{
	struct softhw_chan *ch;
	bool ok;

	softhw_bias_lock(&q->lock);
	ch = rnic_ring_chan(q);
	ok = ch != NULL;
	if (ok) {
		switch (how) {
		case CORRUPT_LEN:
			/* our tx ring is the victim's rx ring: a record claiming far more than a slot */
			softhw_chan_publish(ch, 0x4d534731u /* ring.c's message tag */, 0, 0xfffffff0u);
			break;
		case CORRUPT_SEQ:
			__atomic_store_n(&softhw_ring_slot(&ch->tx, ch->tx.pos)->seq, ch->tx.pos + 1000000, __ATOMIC_RELEASE);
			break;
		case CORRUPT_HEAD_FWD:
			/* our rx ring is the victim's tx ring: its head is the victim's ACK count */
			__atomic_store_n(&ch->rx.ctl->head, ch->rx.pos + 1000000, __ATOMIC_RELEASE);
			break;
		case CORRUPT_HEAD_BACK:
			__atomic_store_n(&ch->rx.ctl->head, ch->rx.pos - 5, __ATOMIC_RELEASE);
			break;
		default: {
			unsigned seed = 12345;
			uint8_t *b = ch->base;

			for (size_t i = 0; i < ch->size; i++)
				b[i] = (uint8_t)rand_r(&seed);
			break;
		}
		}
		softhw_bell_ring(ch->peer_bell);
	}
	softhw_bias_unlock(&q->lock);
	return ok;
}

/* Calls fn on each socket this process has open; returns how many there are. */
static int each_socket(void (*fn)(int fd, void *arg), void *arg)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		char path[300], link[64];
		ssize_t len;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = '\0';
			if (strncmp(link, "socket:", 7) == 0) {
				n++;
				if (fn != NULL)
					fn(atoi(e->d_name), arg);
			}
		}
	}
	closedir(d);
	return n;
}

static int count_sockets(void)
{
	return each_socket(NULL, NULL);
}

/* Of a process's connected TCP sockets with a loopback peer: how many, and how many run reno. */
struct reno_count {
	uint32_t conns, reno;
};

static void count_reno(int fd, void *arg)
{
	struct reno_count *rc = arg;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int proto = 0;
	socklen_t len = sizeof(proto);
	char cc[16] = "";
	socklen_t cl = sizeof(cc) - 1;
	const struct in6_addr *a6 = &((struct sockaddr_in6 *)&ss)->sin6_addr;

	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) != 0 || proto != IPPROTO_TCP ||
	    getpeername(fd, (struct sockaddr *)&ss, &sl) != 0)
		return;

	if (!(ss.ss_family == AF_INET && (ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) >> 24) == 127) &&
	    !(ss.ss_family == AF_INET6 && (IN6_IS_ADDR_LOOPBACK(a6) || (IN6_IS_ADDR_V4MAPPED(a6) && a6->s6_addr[12] == 127))))
		return;
	rc->conns++;
	rc->reno += getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &cl) == 0 && strcmp(cc, "reno") == 0;
}

/*
 * Commands: 'r' len: post a receive of len bytes; 'c': wait for a CQE and report it with the
 * receive buffer's first 64 bytes; 'p': the same, polling without sleeping armed; 'm' off:
 * report 64 bytes of mem at off; 'd': disconnect; 's' len: post a send of len bytes of mem, answer 'k';
 * 'x' how: scribble over the qp's shared ring segment (corrupt_ring), answer 'k' (done) or 'n'
 * (no ring); 'C' n: report its loopback TCP connections and how many run reno (struct reno_count),
 * once there are n.
 * EOF: tear down and exit.
 */
static void target_main(int cmd, int info, const struct target_cfg *cfg)
{
	struct node n;
	uint64_t mm = 0, rom = 0;
	struct target_info ti;
	struct softhw_rnic_qp *qp;
	uint8_t *mem = calloc(1, MEM_LEN), *ro = calloc(1, 4096), *rbuf = calloc(1, MEM_LEN);
	uint8_t peer[512];
	uint32_t peer_len;
	const void *blob;
	size_t blob_len;
	char c;

	memset(&ti, 0, sizeof(ti));
	if (mem == NULL || ro == NULL || rbuf == NULL || !node_open(&n, cfg->ep_access, cfg->rnr))
		_exit(2);
	for (size_t i = 0; i < 4096; i++)
		ro[i] = (uint8_t)i;
	if (!export_rkey(n.fn, mem, MEM_LEN, cfg->mem_access, &mm, &ti.mem) ||
	    !export_rkey(n.fn, ro, 4096, DOCA_ACCESS_FLAG_RDMA_READ, &rom, &ti.ro))
		_exit(3);
	if (ops->qp_create(n.ep, (void *)0x7, &qp) != DOCA_SUCCESS || ops->qp_export(qp, &blob, &blob_len) != DOCA_SUCCESS)
		_exit(4);
	memcpy(ti.desc, blob, blob_len);
	ti.desc_len = (uint32_t)blob_len;
	if (!write_full(info, &ti, sizeof(ti)) || !read_full(cmd, &peer_len, 4) || peer_len > sizeof(peer) ||
	    !read_full(cmd, peer, peer_len))
		_exit(5);
	if (ops->qp_connect(qp, peer, peer_len) != DOCA_SUCCESS)
		_exit(6);
	while (read(cmd, &c, 1) == 1) {
		uint64_t arg;
		struct softhw_rnic_cqe cqe;
		uint8_t out[64];

		if (c == 'r') {
			struct softhw_rnic_sge s = {rbuf, 0};

			if (!read_full(cmd, &arg, 8))
				break;
			s.len = arg;
			if (ops->ep_post_recv(n.ep, arg, &s, 1) != DOCA_SUCCESS)
				_exit(7);
		} else if (c == 'c' || c == 'p') {
			bool ok = c == 'c' ? wait_cqe(&n, &cqe, WAIT_MS) : spin_cqe(&n, &cqe, WAIT_MS);

			if (!ok)
				memset(&cqe, 0xff, sizeof(cqe));
			if (!write_full(info, &cqe, sizeof(cqe)) || !write_full(info, rbuf, 64))
				_exit(8);
		} else if (c == 'P') {
			/* polls without arming, at most arg times, until the ring goes quiet (a check of the
			 * service thread's may end it while this process is not scheduled: it went quiet) */
			bool quiet = false;

			if (!read_full(cmd, &arg, 8))
				break;
			for (uint64_t i = 0; i < arg && !quiet; i++) {
				(void)ops->ep_poll(n.ep, &cqe, 0);
				quiet = rnic_ring_quiet(rnic_qp_of(qp));
			}
			if (!write_full(info, quiet ? "q" : "n", 1))
				_exit(12);
		} else if (c == 'Q') {
			/* polls until the ring is quiet (as 'P'), says so, then keeps polling, never
			 * arming, for arg CQEs; answers how many came */
			bool quiet = false;
			uint64_t got = 0;

			if (!read_full(cmd, &arg, 8))
				break;
			for (uint64_t i = 0; i < 10000000 && !quiet; i++) {
				(void)ops->ep_poll(n.ep, &cqe, 0);
				quiet = rnic_ring_quiet(rnic_qp_of(qp));
			}
			if (!write_full(info, quiet ? "q" : "n", 1))
				_exit(14);
			while (got < arg && spin_cqe(&n, &cqe, WAIT_MS))
				got += cqe.status == DOCA_SUCCESS;
			if (!write_full(info, &got, 8))
				_exit(15);
		} else if (c == 'm') {
			if (!read_full(cmd, &arg, 8))
				break;
			memcpy(out, mem + arg, sizeof(out));
			if (!write_full(info, out, sizeof(out)))
				_exit(9);
		} else if (c == 's') {
			struct softhw_rnic_sge s = {mem, 0};
			struct softhw_rnic_wr wr = {.wr_id = 0x5e, .op = SOFTHW_RNIC_OP_SEND, .sgl = &s, .num_sge = 1};

			if (!read_full(cmd, &arg, 8))
				break;
			s.len = arg;
			if (ops->qp_post(qp, &wr) != DOCA_SUCCESS || !write_full(info, "k", 1))
				_exit(13);
		} else if (c == 'C') {
			/*
			 * its TCP connections (the accepting side's): how many, how many on reno, once
			 * `arg` are there (the message socket's accept may still be on its way: the dialer
			 * counts its own as soon as connect() returned), 2 s at most
			 */
			struct reno_count rc = {0, 0};

			if (!read_full(cmd, &arg, 8))
				break;
			for (int i = 0; i < 2000; i++) {
				rc = (struct reno_count){0, 0};
				(void)each_socket(count_reno, &rc);
				if (rc.conns >= arg && rc.reno >= arg) /* (reno is set once it is admitted) */
					break;
				usleep(1000);
			}
			if (!write_full(info, &rc, sizeof(rc)))
				_exit(16);
		} else if (c == 'd') {
			ops->qp_disconnect(qp);
			if (!write_full(info, "k", 1))
				_exit(10);
		} else if (c == 'x') {
			if (!read_full(cmd, &arg, 8))
				break;
			if (!write_full(info, corrupt_ring(rnic_qp_of(qp), (int)arg) ? "k" : "n", 1))
				_exit(11);
		}
	}
	ops->qp_destroy(qp);
	node_close(&n);
	softhw_mem_export_remove(mm);
	softhw_mem_export_remove(rom);
	free(mem);
	free(ro);
	free(rbuf);
	_exit(0);
}

static bool target_start(struct target *t, const struct target_cfg *cfg)
{
	int to[2], from[2];

	if (pipe(to) != 0 || pipe(from) != 0)
		return false;
	t->pid = fork();
	if (t->pid == 0) {
		close(to[1]);
		close(from[0]);
		target_main(to[0], from[1], cfg);
	}
	close(to[0]);
	close(from[1]);
	t->cmd = to[1];
	t->info = from[0];
	return t->pid > 0 && read_full(t->info, &t->ti, sizeof(t->ti));
}

static bool target_end(struct target *t)
{
	int st = -1;

	close(t->cmd);
	close(t->info);
	return waitpid(t->pid, &st, 0) == t->pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void target_cmd(struct target *t, char c, uint64_t arg)
{
	CHECK(write_full(t->cmd, &c, 1));
	if (c == 'r' || c == 'm' || c == 'x' || c == 'P' || c == 's' || c == 'Q' || c == 'C')
		CHECK(write_full(t->cmd, &arg, 8));
}

static bool target_cqe(struct target *t, struct softhw_rnic_cqe *cqe, uint8_t data[64])
{
	target_cmd(t, 'c', 0);
	return read_full(t->info, cqe, sizeof(*cqe)) && read_full(t->info, data, 64) && cqe->kind != (enum softhw_rnic_cqe_kind)-1;
}

static bool target_mem(struct target *t, uint64_t off, uint8_t out[64])
{
	target_cmd(t, 'm', off);
	return read_full(t->info, out, 64);
}

/* This side: an ep and a qp connected to the target's. */
struct init {
	struct node n;
	struct softhw_rnic_qp *qp;
};

static bool init_connect(struct init *in, struct target *t)
{
	const void *blob;
	size_t len;
	uint32_t len32;

	if (!node_open(&in->n, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 7) ||
	    ops->qp_create(in->n.ep, (void *)0x1, &in->qp) != DOCA_SUCCESS ||
	    ops->qp_export(in->qp, &blob, &len) != DOCA_SUCCESS)
		return false;
	len32 = (uint32_t)len;
	if (!write_full(t->cmd, &len32, 4) || !write_full(t->cmd, blob, len))
		return false;
	return ops->qp_connect(in->qp, t->ti.desc, t->ti.desc_len) == DOCA_SUCCESS;
}

static void init_close(struct init *in)
{
	ops->qp_destroy(in->qp);
	node_close(&in->n);
}

static doca_error_t post1(struct init *in, enum softhw_rnic_opcode op, void *buf, uint64_t len,
			  const struct softhw_rnic_rkey *k, uint64_t off, uint64_t arg0, uint64_t arg1)
{
	struct softhw_rnic_sge s = {buf, len};
	struct softhw_rnic_wr wr = {.wr_id = 100 + op, .op = op, .sgl = &s, .num_sge = 1, .imm = 0xabcd,
				    .arg0 = arg0, .arg1 = arg1};

	if (k != NULL) {
		wr.rkey = *k;
		wr.rkey.addr = k->addr + off;
		wr.rkey.len = len;
	}
	return ops->qp_post(in->qp, &wr);
}

/* Posts one wr and waits for its completion status. */
static doca_error_t run1(struct init *in, enum softhw_rnic_opcode op, void *buf, uint64_t len,
			 const struct softhw_rnic_rkey *k, uint64_t off, uint64_t arg0, uint64_t arg1)
{
	struct softhw_rnic_cqe c;
	doca_error_t err = post1(in, op, buf, len, k, off, arg0, arg1);

	if (err != DOCA_SUCCESS)
		return err;
	if (!wait_cqe(&in->n, &c, WAIT_MS))
		return DOCA_ERROR_TIME_OUT;
	CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.wr_id == 100u + op && c.op == op && c.qp == in->qp);
	return c.status;
}

static const struct target_cfg full = {ALL_RDMA, ALL_RDMA | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 7};

/* ---- tests ---- */

static void test_every_opcode(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t data[64], out[64];
	uint8_t *big = malloc(MEM_LEN), *back = malloc(MEM_LEN);
	uint64_t v = 0;

	CHECK(big != NULL && back != NULL);
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	/* send and send_imm into posted receives */
	target_cmd(&t, 'r', 4096);
	memcpy(data, "hello rnic", 11);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_SEND, data, 11, NULL, 0, 0, 0));
	CHECK(target_cqe(&t, &c, out));
	CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_RECV && c.recv_op == SOFTHW_RNIC_OP_SEND &&
	      c.len == 11 && c.status == DOCA_SUCCESS && c.wr_id == 4096 && c.qp_user == (void *)0x7);
	CHECK(memcmp(out, "hello rnic", 11) == 0);
	target_cmd(&t, 'r', 4096);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_SEND_IMM, data, 5, NULL, 0, 0, 0));
	CHECK(target_cqe(&t, &c, out));
	CHECK(c.recv_op == SOFTHW_RNIC_OP_SEND_IMM && c.imm == 0xabcd && c.len == 5);
	/* write, then read it back; large enough to fill the sockets */
	for (size_t i = 0; i < MEM_LEN; i++)
		big[i] = (uint8_t)(i * 13 + 1);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, big, MEM_LEN, &t.ti.mem, 0, 0, 0));
	CHECK(target_mem(&t, 1000, out) && memcmp(out, big + 1000, 64) == 0);
	memset(back, 0, MEM_LEN);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_READ, back, MEM_LEN, &t.ti.mem, 0, 0, 0));
	CHECK(memcmp(back, big, MEM_LEN) == 0);
	/* write with immediate: consumes a receive, length = bytes written */
	target_cmd(&t, 'r', 16);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE_IMM, data, 11, &t.ti.mem, 64, 0, 0));
	CHECK(target_cqe(&t, &c, out));
	CHECK(c.recv_op == SOFTHW_RNIC_OP_WRITE_IMM && c.len == 11 && c.imm == 0xabcd && c.status == DOCA_SUCCESS);
	CHECK(target_mem(&t, 64, out) && memcmp(out, "hello rnic", 11) == 0);
	/* atomics on 8 aligned bytes */
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, &(uint64_t){40}, 8, &t.ti.mem, 128, 0, 0));
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_FETCH_ADD, &v, 8, &t.ti.mem, 128, 2, 0));
	CHECK(v == 40);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_CMP_SWP, &v, 8, &t.ti.mem, 128, 42, 7));
	CHECK(v == 42);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_CMP_SWP, &v, 8, &t.ti.mem, 128, 42, 9));
	CHECK(v == 7); /* no swap: compare failed */
	CHECK(target_mem(&t, 128, out) && memcmp(out, &(uint64_t){7}, 8) == 0);
	/* many small ops in flight, completing in order */
	for (int i = 0; i < 200; i++)
		CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, big + i, 1, &t.ti.mem, (uint64_t)i, 0, 0));
	for (int i = 0; i < 200; i++)
		CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_SUCCESS, NULL));
	init_close(&in);
	CHECK(target_end(&t));
	free(big);
	free(back);
}

static void test_rnr_then_posted(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t data[64] = "late", out[64];

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, data, 4, NULL, 0, 0, 0));
	CHECK(!wait_cqe(&in.n, &c, 100)); /* nobody received it yet: it waits */
	target_cmd(&t, 'r', 64);
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_SUCCESS, &c));
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4 && memcmp(out, "late", 4) == 0);
	init_close(&in);
	CHECK(target_end(&t));
}

static void test_rnr_exhausted(void)
{
	const struct target_cfg cfg = {ALL_RDMA, ALL_RDMA, 7};
	struct target t;
	struct init in;
	uint8_t data[8] = {0};

	/* this side allows two retries (its rnr_retry_count travels in its descriptor) */
	CHECK(target_start(&t, &cfg));
	{
		const void *blob;
		size_t len;
		uint32_t len32;

		CHECK(node_open(&in.n, 0, 2));
		CHECK_OK(ops->qp_create(in.n.ep, NULL, &in.qp));
		CHECK_OK(ops->qp_export(in.qp, &blob, &len));
		len32 = (uint32_t)len;
		CHECK(write_full(t.cmd, &len32, 4) && write_full(t.cmd, blob, len));
		CHECK_OK(ops->qp_connect(in.qp, t.ti.desc, t.ti.desc_len));
	}
	CHECK_ERR(run1(&in, SOFTHW_RNIC_OP_SEND, data, 8, NULL, 0, 0, 0), DOCA_ERROR_AGAIN);
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_AGAIN, NULL));
	/* posted to the qp in error: completes flushed, behind the failure (as verbs) */
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, data, 8, NULL, 0, 0, 0));
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_ERROR_SHUTDOWN, NULL));
	init_close(&in);
	CHECK(target_end(&t));
}

static void test_too_small(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t data[64] = {0}, out[64];

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	target_cmd(&t, 'r', 8);
	CHECK_ERR(run1(&in, SOFTHW_RNIC_OP_SEND, data, 64, NULL, 0, 0, 0), DOCA_ERROR_TOO_BIG);
	CHECK(target_cqe(&t, &c, out) && c.op == SOFTHW_RNIC_OP_RECV && c.status == DOCA_ERROR_TOO_BIG);
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_TOO_BIG, NULL));
	init_close(&in);
	CHECK(target_end(&t));
}

/* One failing op on a fresh connection: its status, then the qp is in error. */
static void one_fault(const struct target_cfg *cfg, enum softhw_rnic_opcode op, bool ro, uint64_t off, uint64_t len,
		      doca_error_t want)
{
	struct target t;
	struct init in;
	uint64_t buf[8] = {0};

	CHECK(target_start(&t, cfg));
	CHECK(init_connect(&in, &t));
	CHECK_ERR(run1(&in, op, buf, len, ro ? &t.ti.ro : &t.ti.mem, off, 1, 2), want);
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_FAILED, want, NULL));
	CHECK_OK(post1(&in, op, buf, 8, &t.ti.mem, 0, 0, 0)); /* flushed, behind the failure */
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_ERROR_SHUTDOWN, NULL));
	init_close(&in);
	CHECK(target_end(&t));
}

static void test_permissions(void)
{
	const struct target_cfg no_read_ep = {DOCA_ACCESS_FLAG_RDMA_WRITE, ALL_RDMA, 7};
	const struct target_cfg no_atomic = {ALL_RDMA, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE, 7};

	one_fault(&full, SOFTHW_RNIC_OP_WRITE, true, 0, 8, DOCA_ERROR_NOT_PERMITTED);   /* export without write */
	one_fault(&no_read_ep, SOFTHW_RNIC_OP_READ, false, 0, 8, DOCA_ERROR_NOT_PERMITTED); /* ep without read */
	one_fault(&no_atomic, SOFTHW_RNIC_OP_FETCH_ADD, false, 0, 8, DOCA_ERROR_NOT_PERMITTED);
	one_fault(&full, SOFTHW_RNIC_OP_CMP_SWP, false, 4, 8, DOCA_ERROR_INVALID_VALUE); /* unaligned */
	one_fault(&full, SOFTHW_RNIC_OP_READ, true, 4090, 64, DOCA_ERROR_INVALID_VALUE); /* outside */
}

static void test_descriptors(void)
{
	struct node n;
	struct softhw_rnic_qp *qp;
	const void *blob;
	size_t len;
	uint8_t bad[512];

	CHECK(node_open(&n, 0, 7));
	CHECK_OK(ops->qp_create(n.ep, NULL, &qp));
	CHECK_OK(ops->qp_export(qp, &blob, &len));
	memcpy(bad, blob, len);
	CHECK_ERR(ops->qp_connect(qp, bad, len - 1), DOCA_ERROR_INVALID_VALUE); /* truncated */
	bad[20] ^= 1;
	CHECK_ERR(ops->qp_connect(qp, bad, len), DOCA_ERROR_INVALID_VALUE);     /* corrupted */
	memset(bad, 0, sizeof(bad));
	{
		struct softdoca_mmap_desc d = {.kind = SOFTDOCA_MMAP_DESC_RDMA, .exporter_pid = 1, .token = 1};

		softdoca_mmap_desc_encode(&d, bad);
		CHECK_ERR(ops->qp_connect(qp, bad, SOFTDOCA_MMAP_DESC_LEN), DOCA_ERROR_INVALID_VALUE); /* foreign */
	}
	CHECK_ERR(ops->qp_connect(qp, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	ops->qp_destroy(qp);
	node_close(&n);
}

static void test_peer_killed(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t *big = calloc(1, MEM_LEN);
	int flushed = 0, aborted = 0;

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, big, 8, &t.ti.mem, 0, 0, 0));
	/* a send nobody receives yet holds the large writes behind it in flight (RC order) */
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, big, 64, NULL, 0, 0, 0));
	for (int i = 1; i < 8; i++)
		CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, big, MEM_LEN, &t.ti.mem, 0, 0, 0));
	CHECK(!wait_cqe(&in.n, &c, 50));
	kill(t.pid, SIGKILL);
	for (;;) {
		if (!wait_cqe(&in.n, &c, WAIT_MS)) {
			CHECK(false);
			break;
		}
		if (c.kind == SOFTHW_RNIC_CQE_WR) {
			flushed++;
			aborted += c.status == DOCA_ERROR_CONNECTION_ABORTED;
			continue;
		}
		CHECK(c.kind == SOFTHW_RNIC_CQE_DISCONNECTED || c.kind == SOFTHW_RNIC_CQE_FAILED);
		break;
	}
	CHECK(aborted == 8 && flushed == 8);
	/* posted after the end: completes flushed too (as verbs; our DOCA layer posts no more by then) */
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, big, 8, &t.ti.mem, 0, 0, 0));
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_ERROR_CONNECTION_ABORTED, NULL));
	init_close(&in);
	waitpid(t.pid, NULL, 0);
	close(t.cmd);
	close(t.info);
	free(big);
}

static void test_disconnect(void)
{
	struct target t;
	struct init in;
	char k;

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, &k, 1, &t.ti.mem, 0, 0, 0));
	target_cmd(&t, 'd', 0);
	CHECK(read_full(t.info, &k, 1));
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_DISCONNECTED, DOCA_SUCCESS, NULL));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, &k, 1, &t.ti.mem, 0, 0, 0)); /* flushed: ended in order */
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_ERROR_SHUTDOWN, NULL));
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A write the poster ran itself (same host, idle qp) completes on the owner's CQ lane: that
 * completion must still come before the disconnection that follows it, and an arm must see it.
 */
static void test_own_completion_order(void)
{
	struct target t;
	struct init in;
	char k = 'w';

	if (strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") != 0)
		return; /* over TCP the target runs the write (and may see the disconnect first) */
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, &k, 1, &t.ti.mem, 0, 0, 0)); /* connected and idle */
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, &k, 1, &t.ti.mem, 64, 0, 0));
	CHECK(ops->ep_arm(in.n.ep)); /* done already: nothing to sleep for */
	target_cmd(&t, 'd', 0);
	CHECK(read_full(t.info, &k, 1));
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_SUCCESS, NULL));
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_DISCONNECTED, DOCA_SUCCESS, NULL));
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * Three writes the poster ran itself wait on the owner's lane when another qp of the ep is
 * destroyed: each still comes back exactly once, in order.
 */
static void test_own_lane_survives_destroy(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_qp *other;
	struct softhw_rnic_cqe c[8];
	struct softhw_rnic_sge s;
	char k = 'w';
	int n;

	if (strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") != 0)
		return; /* over TCP the writes complete through the target */
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, &k, 1, &t.ti.mem, 0, 0, 0)); /* connected and idle */
	CHECK_OK(ops->qp_create(in.n.ep, (void *)0x2, &other));
	s = (struct softhw_rnic_sge){&k, 1};
	for (int i = 0; i < 3; i++) {
		struct softhw_rnic_wr wr = {.wr_id = 1000 + (uint64_t)i, .op = SOFTHW_RNIC_OP_WRITE, .sgl = &s, .num_sge = 1,
					    .rkey = t.ti.mem};

		wr.rkey.addr += 64;
		wr.rkey.len = 1;
		CHECK_OK(ops->qp_post(in.qp, &wr));
	}
	ops->qp_destroy(other);
	n = ops->ep_poll(in.n.ep, c, 8);
	CHECK(n == 3 && c[0].wr_id == 1000 && c[1].wr_id == 1001 && c[2].wr_id == 1002);
	CHECK(!wait_cqe(&in.n, &c[0], 0));
	init_close(&in);
	CHECK(target_end(&t));
}

/* ---- RDMA-CM ---- */

/* A port nobody listens on right now (the kernel picks it: parallel tests never collide). */
static uint16_t free_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	CHECK(fd >= 0);
	CHECK(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	CHECK(getsockname(fd, (struct sockaddr *)&sa, &sl) == 0);
	close(fd);
	return ntohs(sa.sin_port);
}

static void cm_server(uint16_t port, int ready, bool accept)
{
	struct node n;
	struct softhw_rnic_cqe c;
	uint8_t buf[64] = {0};
	struct softhw_rnic_sge s = {buf, sizeof(buf)};
	char k = 'k';

	if (!node_open(&n, ALL_RDMA, 7) || ops->listen(n.ep, port) != DOCA_SUCCESS ||
	    ops->listen(n.ep, port) != DOCA_ERROR_ALREADY_EXIST)
		_exit(2);
	if (!write_full(ready, &k, 1))
		_exit(3);
	if (!wait_cqe(&n, &c, WAIT_MS) || c.kind != SOFTHW_RNIC_CQE_REQUEST)
		_exit(4);
	if (!accept) {
		if (ops->qp_reject(c.qp) != DOCA_SUCCESS)
			_exit(5);
		ops->qp_destroy(c.qp);
		node_close(&n);
		_exit(0);
	}
	ops->ep_post_recv(n.ep, 1, &s, 1);
	if (ops->qp_accept(c.qp, (void *)0x5, NULL, 0) != DOCA_SUCCESS)
		_exit(6);
	if (!wait_cqe(&n, &c, WAIT_MS) || c.kind != SOFTHW_RNIC_CQE_ESTABLISHED || c.qp_user != (void *)0x5)
		_exit(7);
	if (!wait_cqe(&n, &c, WAIT_MS) || c.kind != SOFTHW_RNIC_CQE_WR || c.len != 3 || memcmp(buf, "cm!", 3) != 0)
		_exit(8);
	if (!wait_cqe(&n, &c, WAIT_MS) || c.kind != SOFTHW_RNIC_CQE_DISCONNECTED)
		_exit(9);
	ops->qp_destroy(c.qp);
	node_close(&n);
	_exit(0);
}

static void cm_round(bool accept, bool v6)
{
	uint16_t port = free_port();
	int p[2];
	pid_t pid;
	char k;
	struct node n;
	struct softhw_rnic_qp *qp;
	struct softhw_rnic_cqe c;
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct sockaddr_in6 sin6 = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
	int st = -1;

	CHECK(pipe(p) == 0);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		cm_server(port, p[1], accept);
	}
	close(p[1]);
	CHECK(read_full(p[0], &k, 1));
	close(p[0]);
	CHECK(node_open(&n, 0, 7));
	if (v6)
		CHECK_OK(ops->connect_addr(n.ep, (struct sockaddr *)&sin6, sizeof(sin6), (void *)0x9, &qp));
	else
		CHECK_OK(ops->connect_addr(n.ep, (struct sockaddr *)&sin, sizeof(sin), (void *)0x9, &qp));
	if (accept) {
		struct sockaddr_storage ss;

		CHECK(expect(&n, SOFTHW_RNIC_CQE_ESTABLISHED, DOCA_SUCCESS, &c) && c.qp_user == (void *)0x9);
		CHECK_OK(ops->qp_peer_addr(qp, &ss));
		CHECK_OK(run1(&(struct init){n, qp}, SOFTHW_RNIC_OP_SEND, "cm!", 3, NULL, 0, 0, 0));
		CHECK_OK(ops->qp_disconnect(qp));
	} else {
		CHECK(expect(&n, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_CONNECTION_RESET, NULL));
	}
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ops->qp_destroy(qp);
	node_close(&n);
}

static void test_cm(void)
{
	struct node n;
	struct softhw_rnic_qp *qp;
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)(free_port() + 5)),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};

	cm_round(true, false);
	cm_round(true, true);
	cm_round(false, false);
	/* nobody listens there */
	CHECK(node_open(&n, 0, 7));
	CHECK_OK(ops->connect_addr(n.ep, (struct sockaddr *)&sin, sizeof(sin), NULL, &qp));
	CHECK(expect(&n, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_CONNECTION_ABORTED, NULL));
	CHECK_ERR(ops->unlisten(n.ep, 1), DOCA_ERROR_NOT_FOUND);
	ops->qp_destroy(qp);
	node_close(&n);
}

/*
 * A destroyed qp's CQEs go with it, and only its own: the service thread frees it, and the next
 * connection request it takes may get the same address before the destroy returns. The hook
 * runs in that window and has a request pushed there; the request must still be polled.
 */
static struct {
	struct node *srv, *cli;
	struct sockaddr_in sin;
	struct softhw_rnic_qp *dial;
	const void *freed;
	bool pushed;
} reuse;

static void reuse_hook(struct rnic_ep *ep, const struct rnic_qp *freed)
{
	struct pollfd p = {.fd = reuse.srv->efd, .events = POLLIN};
	uint64_t v;

	if (ep != rnic_ep_of(reuse.srv->ep))
		return;
	rnic_qp_destroy_hook = NULL;
	reuse.freed = freed;
	(void)!read(reuse.srv->efd, &v, sizeof(v)); /* (non-blocking) */
	if (ops->ep_arm(reuse.srv->ep))
		return; /* something else waits: the test fails below */
	if (ops->connect_addr(reuse.cli->ep, (struct sockaddr *)&reuse.sin, sizeof(reuse.sin), NULL, &reuse.dial) !=
	    DOCA_SUCCESS)
		return;
	reuse.pushed = poll(&p, 1, WAIT_MS) == 1; /* the service thread pushed the new request */
}

static void test_cm_destroy_keeps_new_request(void)
{
	struct node srv, cli;
	struct softhw_rnic_qp *dial = NULL, *req = NULL;
	struct softhw_rnic_cqe c;
	uint16_t port = free_port();
	int reused = 0, rounds = 50, r;

	CHECK(node_open(&srv, ALL_RDMA, 7));
	CHECK(node_open(&cli, 0, 7));
	CHECK_OK(ops->listen(srv.ep, port));
	reuse.sin = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons(port),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	CHECK_OK(ops->connect_addr(cli.ep, (struct sockaddr *)&reuse.sin, sizeof(reuse.sin), NULL, &dial));
	if (expect(&srv, SOFTHW_RNIC_CQE_REQUEST, DOCA_SUCCESS, &c))
		req = c.qp;
	CHECK(req != NULL);
	/* (malloc hands the service thread a freed qp's memory again within a few rounds) */
	for (r = 0; r < rounds && req != NULL; r++) {
		reuse.srv = &srv;
		reuse.cli = &cli;
		reuse.dial = NULL;
		reuse.pushed = false;
		rnic_qp_destroy_hook = reuse_hook;
		ops->qp_destroy(req); /* never answered */
		rnic_qp_destroy_hook = NULL;
		req = NULL;
		CHECK(reuse.dial != NULL && reuse.pushed);
		if (reuse.dial != NULL && expect(&srv, SOFTHW_RNIC_CQE_REQUEST, DOCA_SUCCESS, &c))
			req = c.qp;
		CHECK(req != NULL);
		reused += req != NULL && (const void *)req == reuse.freed;
		ops->qp_destroy(dial);
		dial = reuse.dial;
	}
	fprintf(stderr, "  %d of %d requests came while the qp destroyed before them was freed; %d had its address\n", r,
		rounds, reused);
	if (req != NULL)
		ops->qp_destroy(req);
	if (dial != NULL)
		ops->qp_destroy(dial);
	node_close(&cli);
	node_close(&srv);
}

/* ---- two-sided messages on the same-host ring (unix transport) ---- */

/* Waits for `n` work completions of this side and checks their opcodes, in order. */
static void expect_ops(struct init *in, const enum softhw_rnic_opcode *ops_in_order, int n)
{
	for (int i = 0; i < n; i++) {
		struct softhw_rnic_cqe c;

		CHECK(wait_cqe(&in->n, &c, WAIT_MS));
		CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS && c.op == ops_in_order[i]);
		if (c.kind != SOFTHW_RNIC_CQE_WR || c.op != ops_in_order[i] || c.status != DOCA_SUCCESS)
			fprintf(stderr, "  completion %d: kind %d op %d status %s (wanted op %d)\n", i, c.kind, c.op,
				doca_error_get_name(c.status), ops_in_order[i]);
	}
}

/* Socket work (an atomic, a write) posted before a send: the send waits for them (RC order). */
static void test_ring_write_then_send(void)
{
	static const enum softhw_rnic_opcode order[] = {SOFTHW_RNIC_OP_FETCH_ADD, SOFTHW_RNIC_OP_WRITE,
							SOFTHW_RNIC_OP_SEND};
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t *big = malloc(1u << 20), out[64];
	uint64_t v = 0;

	CHECK(big != NULL);
	for (size_t i = 0; i < (1u << 20); i++)
		big[i] = (uint8_t)(i * 7 + 3);
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	target_cmd(&t, 'r', 64);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_FETCH_ADD, &v, 8, &t.ti.mem, 4096, 1, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, big, 1u << 20, &t.ti.mem, 8192, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "after", 5, NULL, 0, 0, 0));
	expect_ops(&in, order, 3);
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 5 && memcmp(out, "after", 5) == 0);
	/* the write took effect before the send was received */
	CHECK(target_mem(&t, 8192 + 4000, out) && memcmp(out, big + 4000, 64) == 0);
	CHECK(target_mem(&t, 4096, out) && memcmp(out, &(uint64_t){1}, 8) == 0);
	init_close(&in);
	CHECK(target_end(&t));
	free(big);
}

/* A send and a write with immediate on the ring, then reads: the reads see what they wrote. */
static void test_ring_send_then_read(void)
{
	static const enum softhw_rnic_opcode order[] = {SOFTHW_RNIC_OP_SEND, SOFTHW_RNIC_OP_WRITE_IMM,
							SOFTHW_RNIC_OP_READ, SOFTHW_RNIC_OP_SEND_IMM};
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t back[64] = {0}, out[64];

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	target_cmd(&t, 'r', 64);
	target_cmd(&t, 'r', 64);
	target_cmd(&t, 'r', 64);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "one", 3, NULL, 0, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE_IMM, "written by imm", 14, &t.ti.mem, 256, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_READ, back, 14, &t.ti.mem, 256, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND_IMM, "two", 3, NULL, 0, 0, 0));
	expect_ops(&in, order, 4);
	CHECK(memcmp(back, "written by imm", 14) == 0);
	CHECK(target_cqe(&t, &c, out) && c.recv_op == SOFTHW_RNIC_OP_SEND && c.len == 3);
	CHECK(target_cqe(&t, &c, out) && c.recv_op == SOFTHW_RNIC_OP_WRITE_IMM && c.len == 14 && c.imm == 0xabcd);
	CHECK(target_cqe(&t, &c, out) && c.recv_op == SOFTHW_RNIC_OP_SEND_IMM && c.len == 3 &&
	      memcmp(out, "two", 3) == 0);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * Writes behind sends still on the ring ride it too (an NVMe-oF target's read data between
 * responses): completions in post order, the data there when the send after it is received,
 * and a write into memory the target's export does not cover fails on the ring as on the socket.
 */
static void test_ring_send_write_send(void)
{
	static const enum softhw_rnic_opcode order[] = {SOFTHW_RNIC_OP_SEND, SOFTHW_RNIC_OP_WRITE,
							SOFTHW_RNIC_OP_WRITE, SOFTHW_RNIC_OP_SEND};
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	static uint8_t page[4096], small[100];
	uint8_t out[64];

	for (size_t i = 0; i < sizeof(page); i++)
		page[i] = (uint8_t)(i * 13 + 1);
	memset(small, 0x5a, sizeof(small));
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	target_cmd(&t, 'r', 64);
	target_cmd(&t, 'r', 64);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "one", 3, NULL, 0, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, page, sizeof(page), &t.ti.mem, 8192, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, small, sizeof(small), &t.ti.mem, 20000, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "two", 3, NULL, 0, 0, 0));
	expect_ops(&in, order, 4);
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 3);
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 3 && memcmp(out, "two", 3) == 0);
	CHECK(target_mem(&t, 8192, out) && memcmp(out, page, 64) == 0);
	CHECK(target_mem(&t, 8192 + 4096 - 64, out) && memcmp(out, page + 4096 - 64, 64) == 0);
	CHECK(target_mem(&t, 20000 + 36, out) && memcmp(out, small + 36, 64) == 0);
	/* beyond the export, behind a send: the ring's NAK fails the write, then the qp */
	target_cmd(&t, 'r', 64);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "three", 5, NULL, 0, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, page, sizeof(page), &t.ti.mem, MEM_LEN - 64, 0, 0));
	CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND &&
	      c.status == DOCA_SUCCESS);
	CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_WRITE &&
	      c.status == DOCA_ERROR_INVALID_VALUE);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * Receives reposted off the free list in turn with gather lists longer than fit inline (a heap
 * list) and short ones (the one-lock repost): each message lands in its own receive, scattered
 * across its buffers in order.
 */
static void test_recv_reposted(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t pat[60], buf[6][16], one[64];
	char k;

	for (size_t i = 0; i < sizeof(pat); i++)
		pat[i] = (uint8_t)(i * 7 + 3);
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, pat, sizeof(pat), &t.ti.mem, 0, 0, 0)); /* what the target sends */
	for (int round = 0; round < 4; round++) {
		bool scatter = round % 2 == 0;
		struct softhw_rnic_sge sg[6], whole = {one, sizeof(one)};

		memset(buf, 0, sizeof(buf));
		memset(one, 0, sizeof(one));
		for (int i = 0; i < 6; i++)
			sg[i] = (struct softhw_rnic_sge){buf[i], 10};
		CHECK_OK(ops->ep_post_recv(in.n.ep, 100 + (uint64_t)round, scatter ? sg : &whole, scatter ? 6 : 1));
		target_cmd(&t, 's', sizeof(pat));
		CHECK(read_full(t.info, &k, 1) && k == 'k');
		CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_RECV &&
		      c.status == DOCA_SUCCESS && c.wr_id == 100 + (uint64_t)round && c.len == sizeof(pat));
		if (scatter) {
			for (int i = 0; i < 6; i++)
				CHECK(memcmp(buf[i], pat + 10 * i, 10) == 0 && buf[i][10] == 0);
		} else {
			CHECK(memcmp(one, pat, sizeof(pat)) == 0 && one[sizeof(pat)] == 0);
		}
	}
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A write behind a send on the ring is refused as on the socket, where its record is placed:
 * into an export without the write right, and on a target ep that grants no writes. The send
 * before it completes; the write fails, then the qp.
 */
static void test_ring_write_refused(void)
{
	const struct target_cfg no_write_ep = {DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_ATOMIC, ALL_RDMA, 7};
	const struct target_cfg *cfg[2] = {&full, &no_write_ep};
	static uint8_t page[4096];

	for (int i = 0; i < 2; i++) {
		struct target t;
		struct init in;
		struct softhw_rnic_cqe c;
		uint8_t out[64];

		CHECK(target_start(&t, cfg[i]));
		CHECK(init_connect(&in, &t));
		target_cmd(&t, 'r', 64);
		CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "one", 3, NULL, 0, 0, 0));
		CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, page, sizeof(page), i == 0 ? &t.ti.ro : &t.ti.mem, 0, 0, 0));
		CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND &&
		      c.status == DOCA_SUCCESS);
		CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_WRITE &&
		      c.status == DOCA_ERROR_NOT_PERMITTED);
		CHECK(expect(&in.n, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_NOT_PERMITTED, NULL));
		CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 3 && memcmp(out, "one", 3) == 0);
		init_close(&in);
		CHECK(target_end(&t));
	}
}

/*
 * Writes longer than a ring record behind a send ride the ring in parts (each at its own
 * address, gathered across uneven SGEs); one longer than the ring takes for a write goes by the
 * socket after the ring drained; and a write in parts whose end is outside the export fails
 * whole: nothing of it is placed, as a RETH's length is checked at the first packet.
 */
static void test_ring_long_writes(void)
{
	static const enum softhw_rnic_opcode order[] = {SOFTHW_RNIC_OP_SEND, SOFTHW_RNIC_OP_WRITE,
							SOFTHW_RNIC_OP_WRITE, SOFTHW_RNIC_OP_SEND};
	static uint8_t a[3000], b[9000], d[8000], big[200000];
	struct softhw_rnic_sge sg[3] = {{a, sizeof(a)}, {b, sizeof(b)}, {d, sizeof(d)}};
	struct softhw_rnic_wr wr = {.wr_id = 7, .op = SOFTHW_RNIC_OP_WRITE, .sgl = sg, .num_sge = 3};
	const uint64_t at = 65536, big_at = 1u << 20, bad_at = MEM_LEN - 12000;
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64], before[64];

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)(i * 3 + 1);
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i * 5 + 2);
	for (size_t i = 0; i < sizeof(d); i++)
		d[i] = (uint8_t)(i * 11 + 7);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 17 + 5);
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	target_cmd(&t, 'r', 64);
	target_cmd(&t, 'r', 64);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "one", 3, NULL, 0, 0, 0));
	wr.rkey = t.ti.mem;
	wr.rkey.addr = t.ti.mem.addr + at;
	wr.rkey.len = sizeof(a) + sizeof(b) + sizeof(d);
	CHECK_OK(ops->qp_post(in.qp, &wr));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, big, sizeof(big), &t.ti.mem, big_at, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "two", 3, NULL, 0, 0, 0));
	expect_ops(&in, order, 4);
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 3);
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && memcmp(out, "two", 3) == 0);
	/* every SGE boundary and every record boundary (4176 bytes of data each) of the gathered write */
	const uint64_t offs[] = {0, 2990, 4150, 8330, 11990, 12500, 16680, 19936};

	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		uint8_t want[64];

		for (size_t k = 0; k < 64; k++) {
			uint64_t o = offs[i] + k;

			want[k] = o < sizeof(a) ? a[o] : o < sizeof(a) + sizeof(b) ? b[o - sizeof(a)] : d[o - sizeof(a) - sizeof(b)];
		}
		CHECK(target_mem(&t, at + offs[i], out) && memcmp(out, want, 64) == 0);
	}
	CHECK(target_mem(&t, big_at + 150000, out) && memcmp(out, big + 150000, 64) == 0);
	CHECK(target_mem(&t, big_at + sizeof(big) - 64, out) && memcmp(out, big + sizeof(big) - 64, 64) == 0);
	/* in parts behind a send, its last part outside the export: the whole write fails, none placed */
	CHECK(target_mem(&t, bad_at, before));
	target_cmd(&t, 'r', 64);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "three", 5, NULL, 0, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, big, 20000, &t.ti.mem, bad_at, 0, 0));
	CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND &&
	      c.status == DOCA_SUCCESS);
	CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_WRITE &&
	      c.status == DOCA_ERROR_INVALID_VALUE);
	CHECK(target_mem(&t, bad_at, out) && memcmp(out, before, 64) == 0);
	init_close(&in);
	CHECK(target_end(&t));
}

/* Target and initiator connected, and one SEND through: the unix transport's ring is up. */
static void ring_up(struct target *t, struct init *in)
{
	struct softhw_rnic_cqe c;
	uint8_t out[64];

	CHECK(target_start(t, &full));
	CHECK(init_connect(in, t));
	target_cmd(t, 'r', 64);
	CHECK(run1(in, SOFTHW_RNIC_OP_SEND, "ring", 4, NULL, 0, 0, 0) == DOCA_SUCCESS);
	CHECK(target_cqe(t, &c, out) && c.status == DOCA_SUCCESS && memcmp(out, "ring", 4) == 0);
}
/*
 * A refused record's NAK comes on the socket, the ACK of the message before it (its record
 * consumed) in the ring: a sender that does not poll has its service thread read the NAK with
 * that ACK not taken yet. The message still succeeds and the write fails with the NAK's error.
 */
static void test_ring_nak_unpolled(void)
{
	static uint8_t big[20000];
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	struct timespec t0, t1;
	uint8_t out[64];
	long ms = 0;

	if (strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") != 0)
		return; /* the ring is the unix transport's */
	ring_up(&t, &in);
	target_cmd(&t, 'r', 64);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "one", 3, NULL, 0, 0, 0));
	/* in parts behind the send, its end outside the export */
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_WRITE, big, sizeof(big), &t.ti.mem, MEM_LEN - 12000, 0, 0));
	/* the target's owner takes the send and refuses the write in one poll */
	target_cmd(&t, 'p', 0);
	CHECK(read_full(t.info, &c, sizeof(c)) && read_full(t.info, out, 64) && c.status == DOCA_SUCCESS &&
	      memcmp(out, "one", 3) == 0);
	/* neither polling nor armed: only our service thread (on the NAK) queues completions */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (__atomic_load_n(&rnic_ep_of(in.n.ep)->cq_avail, __ATOMIC_ACQUIRE) == 0 && ms < WAIT_MS) {
		sched_yield(); /* the service thread and the target need the vCPUs */
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	}
	CHECK(__atomic_load_n(&rnic_ep_of(in.n.ep)->cq_avail, __ATOMIC_ACQUIRE) != 0); /* the service thread's */
	CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND &&
	      c.status == DOCA_SUCCESS);
	CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_WRITE &&
	      c.status == DOCA_ERROR_INVALID_VALUE);
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_FAILED, DOCA_ERROR_INVALID_VALUE, NULL));
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * Our ring halts when we refuse a message of the peer (NAK: our receive is too small), but the
 * peer may still take what we sent before it learns of the NAK (10 runs of 10 here). Then our
 * send must complete with success, as the peer's receive did, not be flushed when the
 * connection ends: a halted ring still takes its ACKs (without that, 2 runs of 10 failed here).
 * If the peer did not take it, it is flushed.
 */
static void test_ring_halted_takes_acks(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c, tc;
	struct softhw_rnic_sge rs;
	uint8_t out[64], small[8];
	char k = 0;
	bool got = false;

	if (strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") != 0)
		return; /* the ring is the unix transport's */
	ring_up(&t, &in);
	target_cmd(&t, 'r', 64);
	rs = (struct softhw_rnic_sge){small, sizeof(small)};
	CHECK_OK(ops->ep_post_recv(in.n.ep, 7, &rs, 1));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "two", 3, NULL, 0, 0, 0)); /* on our ring, not taken yet */
	target_cmd(&t, 's', 100); /* more than our receive holds: we refuse it */
	CHECK(read_full(t.info, &k, 1) && k == 'k');
	/* the target's completions: its receive of "two" if it took it, its refused send, the end */
	for (int i = 0; i < 3 && !got; i++) {
		target_cmd(&t, 'c', 0);
		CHECK(read_full(t.info, &tc, sizeof(tc)) && read_full(t.info, out, 64));
		got = tc.kind == SOFTHW_RNIC_CQE_WR && tc.op == SOFTHW_RNIC_OP_RECV && tc.status == DOCA_SUCCESS &&
		      memcmp(out, "two", 3) == 0;
		if (tc.kind == (enum softhw_rnic_cqe_kind)-1 || tc.kind == SOFTHW_RNIC_CQE_FAILED ||
		    tc.kind == SOFTHW_RNIC_CQE_DISCONNECTED)
			break; /* none came, or the end came: a receive would have come before it */
	}
	/* our send: success if the target took it; the connection ends after (the NAK) */
	do {
		CHECK(wait_cqe(&in.n, &c, WAIT_MS));
	} while (!(c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND) && c.kind != (enum softhw_rnic_cqe_kind)-1 &&
		 test_failures == 0);
	printf("the target %s our send; it completed with %s\n", got ? "took" : "did not take",
	       doca_error_get_name(c.status));
	CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == (got ? DOCA_SUCCESS : DOCA_ERROR_CONNECTION_ABORTED));
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * Writes in parts and sends fill the ring and more wait behind them; the receiver consumes the
 * whole ring before the sender looks (the target's CQEs of the first two sends), so the
 * waiting ones take the freed records while the consumed ones still complete. Every wr
 * completes once, in order. Over TCP the writes take the stream behind the first send: the
 * sender's service thread must take that send's ACK (its owner does not poll yet).
 */
static void test_ring_parts_full(void)
{
	enum { W = 31, S = 41 };
	static uint8_t w[W][8000];
	static uint32_t xs[S + 2];
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];
	uint64_t id = 0;

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	for (int i = 0; i < S + 2; i++)
		target_cmd(&t, 'r', 64);
	for (int i = 0; i < S + 2 + W; i++) {
		bool write = i >= 1 && i <= W;
		int k = write ? i - 1 : i == 0 ? 0 : i - W;
		struct softhw_rnic_sge sg = write ? (struct softhw_rnic_sge){w[k], sizeof(w[k])}
						  : (struct softhw_rnic_sge){&xs[k], sizeof(xs[k])};
		struct softhw_rnic_wr wr = {.wr_id = id++, .op = write ? SOFTHW_RNIC_OP_WRITE : SOFTHW_RNIC_OP_SEND,
					    .sgl = &sg, .num_sge = 1};

		if (write) {
			memset(w[k], 0x30 + k, sizeof(w[k]));
			wr.rkey = t.ti.mem;
			wr.rkey.addr = t.ti.mem.addr + 262144 + (uint64_t)k * 8192;
			wr.rkey.len = sizeof(w[k]);
		} else {
			xs[k] = (uint32_t)k;
		}
		CHECK_OK(ops->qp_post(in.qp, &wr));
	}
	/* the first send and the last record of the ring (the second send) consumed */
	for (int i = 0; i < 2; i++)
		CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4);
	for (uint64_t i = 0; i < id; i++) {
		CHECK(wait_cqe(&in.n, &c, WAIT_MS));
		CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS && c.wr_id == i);
	}
	for (int i = 2; i < S + 2; i++) /* every send arrived (every receive shares the target's buffer) */
		CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4);
	CHECK(memcmp(out, &xs[S + 1], 4) == 0); /* the last one last */
	/* and the ring's accounts still hold: one more send goes and completes */
	target_cmd(&t, 'r', 64);
	CHECK(run1(&in, SOFTHW_RNIC_OP_SEND, "more", 4, NULL, 0, 0, 0) == DOCA_SUCCESS);
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4 && memcmp(out, "more", 4) == 0);
	for (int k = 0; k < W; k += 10) {
		uint8_t want[64];

		memset(want, 0x30 + k, sizeof(want));
		CHECK(target_mem(&t, 262144 + (uint64_t)k * 8192 + 8000 - 64, out) && memcmp(out, want, 64) == 0);
	}
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A target with two receives posted, and this side's qp connected to it with three work requests
 * posted at once: a send of xs[0], `op` on `len` bytes at the start of the target's memory, a
 * send of xs[1] (wr_ids 0, 1, 2). RC order makes the middle one wait for the first one's ACK.
 */
static bool sandwich_start(struct target *t, struct init *in, enum softhw_rnic_opcode op, uint8_t *buf, uint32_t len,
			   uint32_t xs[2])
{
	if (!target_start(t, &full) || !init_connect(in, t))
		return false;
	target_cmd(t, 'r', 64);
	target_cmd(t, 'r', 64);
	for (int i = 0; i < 3; i++) {
		struct softhw_rnic_sge sg = i == 1 ? (struct softhw_rnic_sge){buf, len} : (struct softhw_rnic_sge){&xs[i / 2], 4};
		struct softhw_rnic_wr wr = {.wr_id = (uint64_t)i, .op = i == 1 ? op : SOFTHW_RNIC_OP_SEND, .sgl = &sg,
					    .num_sge = 1};

		if (i == 1) {
			wr.rkey = t->ti.mem;
			wr.rkey.len = len;
		}
		if (ops->qp_post(in->qp, &wr) != DOCA_SUCCESS)
			return false;
	}
	return true;
}

/*
 * A send, a write too long for the message path (it goes by the stream once the send is ACKed,
 * RC order), a send; the sender neither polls nor arms until the target has both sends. Its
 * service thread takes the ACKs that let the write and the last send go, as a NIC would.
 */
static void test_path_switch_unpolled(void)
{
	static uint8_t big[200000];
	static uint32_t xs[2] = {1, 2};
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64], want[64];

	memset(big, 0x5a, sizeof(big));
	memset(want, 0x5a, sizeof(want));
	CHECK(sandwich_start(&t, &in, SOFTHW_RNIC_OP_WRITE, big, sizeof(big), xs));
	for (uint32_t i = 0; i < 2; i++)
		CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4);
	CHECK(memcmp(out, &xs[1], 4) == 0); /* (the receives share a buffer) the last send last */
	CHECK(target_mem(&t, sizeof(big) - 64, out) && memcmp(out, want, 64) == 0); /* the write, whole */
	for (uint64_t i = 0; i < 3; i++)
		CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.status == DOCA_SUCCESS && c.wr_id == i);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A send, a 1 MiB read, a send; the sender polls (never arms) and the target does not progress
 * until the sender saw all three complete: its service thread takes the last send once the
 * polling sender nudges it (the idle count reaches its threshold whatever steps it took).
 */
static void test_polling_sender_nudges(void)
{
	static uint8_t big[1 << 20];
	static uint32_t xs[2] = {7, 8};
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];

	CHECK(sandwich_start(&t, &in, SOFTHW_RNIC_OP_READ, big, sizeof(big), xs));
	for (uint64_t i = 0; i < 3; i++)
		CHECK(spin_cqe(&in.n, &c, WAIT_MS) && c.status == DOCA_SUCCESS && c.wr_id == i);
	for (uint32_t i = 0; i < 2; i++)
		CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4);
	CHECK(memcmp(out, &xs[1], 4) == 0);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A receiver that polled long enough has the service thread leave its doorbell (quiet); once it
 * stops polling, without arming, the service thread takes its doorbell back within a few ms,
 * so a sender asleep on its completion still gets it.
 */
static void test_ring_quiet_owner_stops(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];
	char q = 0;

	ring_up(&t, &in);
	/* (the ring is the unix transport's: elsewhere nothing goes quiet) */
	bool ring = strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") == 0;

	target_cmd(&t, 'P', ring ? 10000000 : 20000);
	CHECK(read_full(t.info, &q, 1));
	CHECK(q == (ring ? 'q' : 'n'));
	target_cmd(&t, 'r', 64);
	/* the target neither polls nor arms now: its service thread must take the message */
	CHECK(run1(&in, SOFTHW_RNIC_OP_SEND, "late", 4, NULL, 0, 0, 0) == DOCA_SUCCESS);
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && memcmp(out, "late", 4) == 0);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A sender asleep (armed) posting to a receiver that keeps polling does not ring the receiver's
 * doorbell, which nobody watches then (ring.c ring_nudge): the receiver's poll takes the
 * message and its consume rings the sender, which wakes with its completion. Before, each such
 * post and each arm with a message unconsumed cost the sender a write to that doorbell.
 */
static void test_ring_quiet_no_bell(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	enum { N = 200, TRIES = 3 };
	uint64_t bells = 0;
	bool ring, quiet_enough = false;

	ring_up(&t, &in);
	ring = strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") == 0;
	/*
	 * Up to three rounds: when the machine is loaded, the target's service thread may find it
	 * descheduled past the quiet check and take the doorbell back for a while (as it must), so
	 * one round proves nothing either way; a round with the receiver polling throughout must
	 * ring (almost) never.
	 */
	for (int round = 0; round < TRIES && !quiet_enough && test_failures == 0; round++) {
		uint64_t got = 0, before;
		char q = 0;

		for (int i = 0; i < N; i++)
			target_cmd(&t, 'r', 64);
		target_cmd(&t, 'Q', N);
		CHECK(read_full(t.info, &q, 1));
		CHECK(q == (ring ? 'q' : 'n'));
		before = rnic_ring_bells(rnic_qp_of(in.qp));
		for (int i = 0; i < N; i++) {
			(void)ops->ep_arm(in.n.ep); /* asleep as it posts: it would have rung */
			CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "zzz", 3, NULL, 0, 0, 0));
			CHECK(wait_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS);
		}
		CHECK(read_full(t.info, &got, 8) && got == N);
		bells = rnic_ring_bells(rnic_qp_of(in.qp)) - before;
		quiet_enough = !ring || bells <= N / 4;
		if (!quiet_enough)
			fprintf(stderr, "  round %d: %llu doorbells rung for %d sends to a polling receiver\n", round,
				(unsigned long long)bells, N);
	}
	CHECK(quiet_enough);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * The ACK of our send and the peer's answers, waiting together for one poll: the send's
 * completion comes before the receives', as on hardware, where the responder acknowledges a
 * request before its application answers it. A program that submits its send task again, or
 * disconnects, from the answer's callback relies on that. (A poll that took the answers first
 * was faster for a ping-pong by 0.01 us, and was reverted: the disconnect then flushed a send
 * the peer had consumed as failed.)
 */
static void test_ring_ack_before_recv(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64], rbuf[3][64];
	bool ring, quiet = false;
	int stray = 0;
	char k;

	ring_up(&t, &in);
	ring = strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") == 0;
	for (int i = 0; i < 3; i++) {
		struct softhw_rnic_sge sg = {rbuf[i], sizeof(rbuf[i])};

		CHECK_OK(ops->ep_post_recv(in.n.ep, 500 + (uint64_t)i, &sg, 1));
	}
	target_cmd(&t, 'r', 64);
	/* our own polls take the ring (quiet), as a spinning DOCA program's do: the order is theirs */
	for (long i = 0; i < (ring ? 10000000 : 20000) && !quiet; i++) {
		stray += ops->ep_poll(in.n.ep, &c, 1);
		quiet = rnic_ring_quiet(rnic_qp_of(in.qp));
	}
	CHECK(stray == 0);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "ping", 4, NULL, 0, 0, 0));
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && memcmp(out, "ping", 4) == 0);
	for (int i = 0; i < 3; i++) { /* three answers behind the ACK of our ping */
		target_cmd(&t, 's', 8);
		CHECK(read_full(t.info, &k, 1) && k == 'k');
	}
	CHECK(spin_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS &&
	      c.op == SOFTHW_RNIC_OP_SEND && c.wr_id == 100 + SOFTHW_RNIC_OP_SEND);
	for (int i = 0; i < 3; i++)
		CHECK(spin_cqe(&in.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS &&
		      c.op == SOFTHW_RNIC_OP_RECV && c.wr_id == 500 + (uint64_t)i && c.len == 8);
	init_close(&in);
	CHECK(target_end(&t));
}

/* More sends in flight than the ring has slots: they wait for room and complete in order. */
static void test_ring_many(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];
	enum { N = 200 };

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	for (int i = 0; i < N; i++)
		target_cmd(&t, 'r', 64);
	static uint32_t xs[N]; /* sources stay valid until their completion, as with verbs */

	for (int i = 0; i < N; i++) {
		struct softhw_rnic_sge sg = {&xs[i], sizeof(xs[i])};
		struct softhw_rnic_wr wr = {.wr_id = (uint64_t)i, .op = SOFTHW_RNIC_OP_SEND, .sgl = &sg, .num_sge = 1};

		xs[i] = (uint32_t)i;
		CHECK_OK(ops->qp_post(in.qp, &wr));
	}
	for (int i = 0; i < N; i++) {
		CHECK(wait_cqe(&in.n, &c, WAIT_MS));
		CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS && c.wr_id == (uint64_t)i);
	}
	for (int i = 0; i < N; i++) /* (every receive shares the target's buffer) */
		CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4 && c.wr_id == 64);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * The connected qp among hundreds the owner made and never connected (a server's exported
 * connections): sends and READs still complete, while qps around it are destroyed and made
 * again (the owner's lists of the qps with a path up are rebuilt, never walked stale).
 */
static void test_many_idle_qps(void)
{
	enum { IDLE = 300 };
	static struct softhw_rnic_qp *idle[IDLE];
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];
	char got[8];

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	for (int i = 0; i < IDLE; i++)
		CHECK_OK(ops->qp_create(in.n.ep, (void *)(uintptr_t)(0x100 + i), &idle[i]));
	for (uint32_t round = 0; round < 3; round++) {
		uint32_t x = 0xc0de0000u + round;

		target_cmd(&t, 'r', 64);
		CHECK_OK(run1(&in, SOFTHW_RNIC_OP_SEND, &x, sizeof(x), NULL, 0, 0, 0));
		CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4 && c.wr_id == 64 &&
		      memcmp(out, &x, 4) == 0);
		CHECK_OK(run1(&in, SOFTHW_RNIC_OP_READ, got, sizeof(got), &t.ti.mem, 0, 0, 0));
		for (int i = (int)round; i < IDLE; i += 3) {
			ops->qp_destroy(idle[i]);
			CHECK_OK(ops->qp_create(in.n.ep, (void *)(uintptr_t)(0x100 + i), &idle[i]));
		}
	}
	for (int i = 0; i < IDLE; i++)
		ops->qp_destroy(idle[i]);
	init_close(&in);
	CHECK(target_end(&t));
}

/* Several ring sends nobody receives, then the target is killed: all fail, then the qp. */
static void test_ring_peer_killed(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t data[64] = {0};
	int flushed = 0, aborted = 0;

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	for (int i = 0; i < 5; i++)
		CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, data, 64, NULL, 0, 0, 0));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_READ, data, 8, &t.ti.mem, 0, 0, 0)); /* held behind them */
	CHECK(!wait_cqe(&in.n, &c, 50));
	kill(t.pid, SIGKILL);
	for (;;) {
		if (!wait_cqe(&in.n, &c, WAIT_MS)) {
			CHECK(false);
			break;
		}
		if (c.kind == SOFTHW_RNIC_CQE_WR) {
			flushed++;
			aborted += c.status == DOCA_ERROR_CONNECTION_ABORTED;
			continue;
		}
		CHECK(c.kind == SOFTHW_RNIC_CQE_DISCONNECTED);
		break;
	}
	CHECK(aborted == 6 && flushed == 6);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, data, 8, NULL, 0, 0, 0));
	CHECK(expect(&in.n, SOFTHW_RNIC_CQE_WR, DOCA_ERROR_CONNECTION_ABORTED, NULL));
	init_close(&in);
	waitpid(t.pid, NULL, 0);
	close(t.cmd);
	close(t.info);
}

/* The target sleeps armed (poll on its notify fd); a send wakes it, the sender busy-polls. */
static void test_ring_wakes_armed(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];
	int got = 0;

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	/* connected both ways first (a write completes only once the qp is up) */
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, out, 8, &t.ti.mem, 0, 0, 0));
	target_cmd(&t, 'r', 64);
	target_cmd(&t, 'c', 0); /* the target now sleeps in poll(), armed */
	usleep(100 * 1000);
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "wake", 4, NULL, 0, 0, 0));
	for (int i = 0; i < 5000 && got == 0; i++) { /* busy: this side never arms */
		for (int j = 0; j < 1000 && got == 0; j++)
			got = ops->ep_poll(in.n.ep, &c, 1);
		if (got == 0)
			usleep(1000);
	}
	CHECK(got == 1 && c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS);
	CHECK(read_full(t.info, &c, sizeof(c)) && read_full(t.info, out, 64));
	CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS && c.len == 4 && memcmp(out, "wake", 4) == 0);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A TCP qp has its message socket (and a unix one none); messages complete over it. A unix qp's
 * ring has three more: its doorbells (ours: the receiving and the ringing end; the peer's
 * ringing end).
 */
static void test_msock_in_use(void)
{
	bool tcp = strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "tcp") == 0;
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];
	int with, without, want;

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	target_cmd(&t, 'r', 64);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_SEND, "sock", 4, NULL, 0, 0, 0));
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4 && memcmp(out, "sock", 4) == 0);
	with = count_sockets();
	want = (tcp ? 2 : 1) + (rnic_ring_chan(rnic_qp_of(in.qp)) != NULL ? 3 : 0);
	ops->qp_destroy(in.qp); /* the service thread closed its sockets when this returns */
	without = count_sockets();
	CHECK(with - without == want);
	if (with - without != want)
		fprintf(stderr, "  the qp had %d sockets\n", with - without);
	node_close(&in.n);
	CHECK(target_end(&t));
}

/*
 * Over TCP, a qp's connections (its stream and its message socket) run reno at both ends: they
 * stay on this host, where a pacing congestion control (BBR) throttled bulk writes (stream.c).
 * This process dials (the lower pid), the target accepts.
 */
static void test_tcp_same_host_reno(void)
{
	const char *fast = getenv("SOFTDOCA_RDMA_TCP_FAST");
	uint32_t want = fast != NULL && fast[0] == '0' ? 1 : 2; /* without the message socket: one */
	struct reno_count mine = {0, 0}, theirs = {0, 0};
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];

	if (strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "tcp") != 0)
		return;
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	target_cmd(&t, 'r', 64);
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_SEND, "reno", 4, NULL, 0, 0, 0));
	CHECK(target_cqe(&t, &c, out) && c.status == DOCA_SUCCESS && c.len == 4);
	(void)each_socket(count_reno, &mine);
	target_cmd(&t, 'C', want);
	CHECK(read_full(t.info, &theirs, sizeof(theirs)));
	CHECK(mine.conns == want && mine.reno == want);
	CHECK(theirs.conns == want && theirs.reno == want);
	if (mine.reno != want || theirs.reno != want)
		fprintf(stderr, "  reno on %u of %u dialed and %u of %u accepted connections, %u each expected\n",
			mine.reno, mine.conns, theirs.reno, theirs.conns, want);
	init_close(&in);
	CHECK(target_end(&t));
}

/* Connects qp `to` with qp `of`'s descriptor (both of this process). */
static bool connect_with(struct softhw_rnic_qp *to, struct softhw_rnic_qp *of)
{
	const void *blob;
	size_t len;
	uint8_t desc[512];

	if (ops->qp_export(of, &blob, &len) != DOCA_SUCCESS || len > sizeof(desc))
		return false;
	memcpy(desc, blob, len);
	return ops->qp_connect(to, desc, len) == DOCA_SUCCESS;
}

/*
 * A node with two qps, the younger connected to the older: of two qps of one process the older
 * dials, so the younger waits for a peer that dials only once the older is connected too.
 */
static bool waiting_pair(struct node *n, struct softhw_rnic_qp **older, struct softhw_rnic_qp **younger)
{
	return node_open(n, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 7) && ops->qp_create(n->ep, NULL, older) == DOCA_SUCCESS &&
	       ops->qp_create(n->ep, NULL, younger) == DOCA_SUCCESS && connect_with(*younger, *older);
}

/*
 * A qp whose peer should dial it, with work posted, and the peer never connects (its process
 * stopped before doca_rdma_connect, or its dial failed): the work fails with CONNECTION_ABORTED
 * after SOFTDOCA_RDMA_WAIT_MS, then the qp with TIME_OUT, and a line names the fix; the peer coming
 * after that is refused with CONNECTION_ABORTED. In a child, whose environment is its own; the
 * peer is the older qp of a waiting_pair.
 */
static int waiting_child(void)
{
	struct node n;
	struct softhw_rnic_qp *older, *younger;
	struct softhw_rnic_cqe c[2];
	struct softhw_rnic_wr wr = {.wr_id = 0x77, .op = SOFTHW_RNIC_OP_SEND};
	struct timespec t0, t1;
	long ms;

	setenv("SOFTDOCA_RDMA_WAIT_MS", "300", 1);
	softhw_test_log_clear();
	if (!waiting_pair(&n, &older, &younger))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ops->qp_post(younger, &wr) != DOCA_SUCCESS)
		return 4;
	if (!wait_cqe(&n, &c[0], 5000) || !wait_cqe(&n, &c[1], 5000))
		return 5; /* the hang this guards against */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	if (c[0].kind != SOFTHW_RNIC_CQE_WR || c[0].wr_id != 0x77 || c[0].status != DOCA_ERROR_CONNECTION_ABORTED)
		return 6;
	if (c[1].kind != SOFTHW_RNIC_CQE_FAILED || c[1].status != DOCA_ERROR_TIME_OUT)
		return 7;
	if (ms < 250 || ms > 4000)
		return 8;
	if (!softhw_test_logged("has not connected to this queue pair in 300 ms"))
		return 9;
	/* the peer comes after all: it is refused as too late, not as an impostor */
	if (!connect_with(older, younger) || !wait_cqe(&n, &c[0], 5000))
		return 11;
	if (c[0].kind != SOFTHW_RNIC_CQE_FAILED || c[0].status != DOCA_ERROR_CONNECTION_ABORTED)
		return 12;
	if (!softhw_test_logged("after it had failed or closed"))
		return 13;
	ops->qp_destroy(younger);
	ops->qp_destroy(older);
	node_close(&n);
	return 0;
}

/* The same, with the peer connecting in time: the work completes, and nothing fails later. */
static int in_time_child(void)
{
	struct node n;
	struct softhw_rnic_qp *older, *younger;
	struct softhw_rnic_cqe c;
	uint8_t in[8] = "";
	char out[] = "now";
	struct softhw_rnic_sge so = {out, 3}, si = {in, sizeof(in)};
	struct softhw_rnic_wr wr = {.wr_id = 0x78, .op = SOFTHW_RNIC_OP_SEND, .sgl = &so, .num_sge = 1};
	int sent = 0, received = 0;

	setenv("SOFTDOCA_RDMA_WAIT_MS", "300", 1);
	if (!waiting_pair(&n, &older, &younger))
		return 2;
	if (ops->ep_post_recv(n.ep, 0x99, &si, 1) != DOCA_SUCCESS || ops->qp_post(younger, &wr) != DOCA_SUCCESS)
		return 3; /* the younger's deadline starts here */
	if (!connect_with(older, younger))
		return 5;
	while ((sent == 0 || received == 0) && wait_cqe(&n, &c, 5000)) {
		if (c.kind != SOFTHW_RNIC_CQE_WR || c.status != DOCA_SUCCESS)
			return 6;
		sent += c.wr_id == 0x78;
		received += c.wr_id == 0x99 && memcmp(in, "now", 3) == 0;
	}
	if (sent != 1 || received != 1)
		return 7;
	if (wait_cqe(&n, &c, 900)) /* three times the wait: the deadline is gone with the connection */
		return 8;
	ops->qp_destroy(younger);
	ops->qp_destroy(older);
	node_close(&n);
	return 0;
}

static void run_child(int (*child)(void), const char *name)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0)
		_exit(child());
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fprintf(stderr, "  %s ended with status 0x%x (its exit codes say where)\n", name, st);
}

static void test_peer_never_dials(void)
{
	run_child(waiting_child, "waiting_child");
}

static void test_peer_dials_in_time(void)
{
	run_child(in_time_child, "in_time_child");
}

/* Which connections stay on this host: loopback peers, or the same address at both ends. */
static void test_tcp_same_host_rule(void)
{
	struct {
		const char *self, *peer;
		bool same;
	} cases[] = {
		{"::ffff:127.0.0.1", "::ffff:127.0.0.1", true},
		{"::ffff:127.0.0.1", "::ffff:127.79.3.1", true}, /* all of 127/8 */
		{"::1", "::1", true},
		{"::ffff:192.0.2.7", "::ffff:192.0.2.7", true}, /* our own address: routed over lo */
		{"2001:db8::5", "2001:db8::5", true},
		{"::ffff:192.0.2.7", "::ffff:192.0.2.8", false}, /* another host */
		{"::ffff:192.0.2.7", "::ffff:128.0.0.1", false},
		{"2001:db8::5", "2001:db8::6", false},
		{"::1", "::2", false},
		{"::ffff:192.0.2.7", "::ffff:127.0.0.1", true}, /* a loopback peer, whatever our end */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t self[16], peer[16];

		CHECK(inet_pton(AF_INET6, cases[i].self, self) == 1 && inet_pton(AF_INET6, cases[i].peer, peer) == 1);
		CHECK(rnic_tcp_ends_local(self, peer) == cases[i].same);
		if (rnic_tcp_ends_local(self, peer) != cases[i].same)
			fprintf(stderr, "  %s -> %s: expected %s\n", cases[i].self, cases[i].peer,
				cases[i].same ? "same host" : "another host");
	}
}

/*
 * A send posted before the connection is up, then this side sleeps armed (the way a PE in
 * notification mode does): the service thread issues it once connected, and its ACK must
 * still wake this side.
 */
static void test_sender_sleeps_from_the_start(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	struct timespec t0, t1;
	uint8_t out[64];

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "early", 5, NULL, 0, 0, 0));
	target_cmd(&t, 'r', 64);
	target_cmd(&t, 'c', 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* a lost wake-up shows as the poll() time-out: the CQE is found only after it */
	CHECK(wait_cqe(&in.n, &c, 3000));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 2000);
	CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS);
	CHECK(read_full(t.info, &c, sizeof(c)) && read_full(t.info, out, 64));
	CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS && c.len == 5 && memcmp(out, "early", 5) == 0);
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * A receiver that takes a message in its own poll, then stops polling without sleeping armed
 * (blocked on its command pipe): the ACK that waited to ride on its next frame still comes,
 * sent by its service thread once this side nudges: after 2 ms while this side keeps polling,
 * at once when it sleeps armed. (The first send may go before the message socket is up.)
 */
static void test_receiver_stops_after_poll(void)
{
	struct target t;
	struct init in;
	struct softhw_rnic_cqe c;
	uint8_t out[64];

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	for (int i = 0; i < 3; i++) {
		bool armed = i == 2;

		target_cmd(&t, 'r', 64);
		target_cmd(&t, 'p', 0);
		CHECK_OK(post1(&in, SOFTHW_RNIC_OP_SEND, "last", 4, NULL, 0, 0, 0));
		CHECK(read_full(t.info, &c, sizeof(c)) && read_full(t.info, out, 64));
		CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS && c.len == 4 &&
		      memcmp(out, "last", 4) == 0);
		CHECK(armed ? wait_cqe(&in.n, &c, WAIT_MS) : spin_cqe(&in.n, &c, WAIT_MS));
		CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND && c.status == DOCA_SUCCESS);
	}
	init_close(&in);
	CHECK(target_end(&t));
}

/* ---- a peer that scribbles over the shared ring segment (unix transport only) ---- */

/* A second qp on an open node, connected to target t. */
static bool qp_connect_on(struct node *n, struct softhw_rnic_qp **qp, void *user, struct target *t)
{
	const void *blob;
	size_t len;
	uint32_t len32;

	if (ops->qp_create(n->ep, user, qp) != DOCA_SUCCESS || ops->qp_export(*qp, &blob, &len) != DOCA_SUCCESS)
		return false;
	len32 = (uint32_t)len;
	if (!write_full(t->cmd, &len32, 4) || !write_full(t->cmd, blob, len))
		return false;
	return ops->qp_connect(*qp, t->ti.desc, t->ti.desc_len) == DOCA_SUCCESS;
}

/* A send on qp into a receive the target posts, checked on both sides. */
static void healthy_send(struct init *in, struct target *t, const char *msg)
{
	struct softhw_rnic_cqe c;
	uint8_t out[64];
	uint32_t len = (uint32_t)strlen(msg);

	target_cmd(t, 'r', 64);
	CHECK_OK(run1(in, SOFTHW_RNIC_OP_SEND, (void *)msg, len, NULL, 0, 0, 0));
	CHECK(target_cqe(t, &c, out) && c.status == DOCA_SUCCESS && c.len == len && memcmp(out, msg, len) == 0);
}

/*
 * This process (the victim) has one ep with two ring qps: `bad` to a peer that corrupts the
 * shared segment, `good` to a healthy peer. With sends in flight on `bad` (`busy`), or idle
 * and posting one after the corruption, the victim neither crashes nor hangs: every send of
 * `bad` completes with an error (nothing lost), then a CQE_DISCONNECTED / CQE_FAILED; later
 * posts are refused; `good` keeps working, sends and one-sided work alike.
 */
static void ring_corrupt_case(enum corrupt how, bool busy)
{
	struct target tb, tg;
	struct init bad, good;
	struct softhw_rnic_cqe c;
	uint8_t data[64] = "doomed", back[64];
	int posted = 0, failed = 0;
	bool ended = false;
	char k = 0;

	fprintf(stderr, "  corrupt %s, %s\n", corrupt_name[how], busy ? "sends in flight" : "idle");
	CHECK(target_start(&tb, &full));
	CHECK(target_start(&tg, &full));
	CHECK(node_open(&bad.n, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 7));
	CHECK(qp_connect_on(&bad.n, &bad.qp, (void *)0xbad, &tb));
	good.n = bad.n;
	CHECK(qp_connect_on(&good.n, &good.qp, (void *)0x600d, &tg));
	/* both rings up and working */
	healthy_send(&bad, &tb, "before");
	healthy_send(&good, &tg, "healthy");
	if (busy) {
		/* no receive on the bad peer: they stay on the ring, unconsumed */
		for (; posted < 3; posted++)
			CHECK_OK(post1(&bad, SOFTHW_RNIC_OP_SEND, data, 16, NULL, 0, 0, 0));
	}
	target_cmd(&tb, 'x', (uint64_t)how);
	CHECK(read_full(tb.info, &k, 1) && k == 'k');
	if (!busy) {
		/* the victim may have hung up already (flushed behind the end) or not yet (then the send fails) */
		CHECK_OK(post1(&bad, SOFTHW_RNIC_OP_SEND, data, 16, NULL, 0, 0, 0));
		posted++;
	}
	while (!ended) {
		if (!wait_cqe(&bad.n, &c, WAIT_MS)) {
			fprintf(stderr, "  no CQE: %d of %d sends failed, qp not ended\n", failed, posted);
			CHECK(false);
			break;
		}
		CHECK(c.qp == bad.qp);
		if (c.kind == SOFTHW_RNIC_CQE_WR) {
			CHECK(c.op == SOFTHW_RNIC_OP_SEND && c.status != DOCA_SUCCESS);
			failed++;
			continue;
		}
		CHECK(c.kind == SOFTHW_RNIC_CQE_DISCONNECTED || c.kind == SOFTHW_RNIC_CQE_FAILED);
		ended = true;
	}
	/* a send posted after the end completes flushed behind it */
	while (failed < posted && wait_cqe(&bad.n, &c, WAIT_MS)) {
		CHECK(c.qp == bad.qp && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND && c.status != DOCA_SUCCESS);
		failed++;
	}
	CHECK(failed == posted);
	CHECK_OK(post1(&bad, SOFTHW_RNIC_OP_SEND, data, 16, NULL, 0, 0, 0));
	CHECK_OK(post1(&bad, SOFTHW_RNIC_OP_WRITE, data, 8, &tb.ti.mem, 0, 0, 0));
	CHECK(wait_cqe(&bad.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_SEND &&
	      c.status != DOCA_SUCCESS);
	CHECK(wait_cqe(&bad.n, &c, WAIT_MS) && c.kind == SOFTHW_RNIC_CQE_WR && c.op == SOFTHW_RNIC_OP_WRITE &&
	      c.status != DOCA_SUCCESS);
	CHECK(!wait_cqe(&bad.n, &c, 0)); /* nothing more for the broken qp */
	/* the other connection of the same ep is unharmed */
	healthy_send(&good, &tg, "still fine");
	CHECK_OK(run1(&good, SOFTHW_RNIC_OP_WRITE, data, 64, &tg.ti.mem, 512, 0, 0));
	memset(back, 0, sizeof(back));
	CHECK_OK(run1(&good, SOFTHW_RNIC_OP_READ, back, 64, &tg.ti.mem, 512, 0, 0));
	CHECK(memcmp(back, data, 64) == 0);
	ops->qp_destroy(bad.qp);
	ops->qp_destroy(good.qp);
	node_close(&bad.n);
	CHECK(target_end(&tg));
	CHECK(target_end(&tb)); /* the corrupting peer only broke its own connection too */
}

static void test_ring_corrupt(void)
{
	if (strcmp(getenv("SOFTDOCA_RDMA_TRANSPORT"), "unix") != 0) {
		fprintf(stderr, "  skipped: the ring exists on the unix transport only\n");
		return;
	}
	for (int how = 0; how < CORRUPT_N; how++) {
		ring_corrupt_case((enum corrupt)how, true);
		ring_corrupt_case((enum corrupt)how, false);
	}
}

/*
 * Small writes to a target whose owner never polls nor sleeps armed (blocked on its command
 * pipe): over TCP they travel on the message socket, so the writer's service thread has to
 * nudge the target's into taking them; on one host they go by cross-memory attach.
 */
static void test_small_writes_idle_target(void)
{
	struct target t;
	struct init in;
	uint8_t out[64], v[8];

	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	for (int i = 0; i < 3; i++) {
		memset(v, 0x30 + i, sizeof(v));
		CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, v, sizeof(v), &t.ti.mem, 64 * (uint64_t)i, 0, 0));
	}
	for (int i = 0; i < 3; i++) {
		memset(v, 0x30 + i, sizeof(v));
		CHECK(target_mem(&t, 64 * (uint64_t)i, out) && memcmp(out, v, sizeof(v)) == 0);
	}
	init_close(&in);
	CHECK(target_end(&t));
}

/*
 * Work in flight in bursts, the way a bandwidth or rate run keeps it: 1 MiB READs (over TCP
 * more than the socket takes, so the target's answers wait in its out-queue as references to
 * its memory) followed by fetch-adds (their answers arrive many to a read). Collected once by
 * the polling owner (which reads the answers itself) and once by an owner that sleeps armed
 * (the service thread reads them): every completion in post order, every byte, every old value.
 */
static void test_bursts(void)
{
	enum { READS = 6, ADDS = 64, CTR = 7u << 20 };
	const size_t len = 1u << 20;
	uint8_t *src = malloc(len), *dst = malloc(READS * len), out[64];
	uint64_t old[ADDS], ctr;
	struct target t;
	struct init in;

	CHECK(src != NULL && dst != NULL);
	for (size_t i = 0; i < len; i++)
		src[i] = (uint8_t)(i * 7 + 3);
	CHECK(target_start(&t, &full));
	CHECK(init_connect(&in, &t));
	CHECK_OK(run1(&in, SOFTHW_RNIC_OP_WRITE, src, len, &t.ti.mem, 0, 0, 0));
	for (int round = 0; round < 2; round++) {
		memset(dst, 0, READS * len);
		for (int r = 0; r < READS; r++)
			CHECK_OK(post1(&in, SOFTHW_RNIC_OP_READ, dst + r * len, len, &t.ti.mem, 0, 0, 0));
		for (int a = 0; a < ADDS; a++)
			CHECK_OK(post1(&in, SOFTHW_RNIC_OP_FETCH_ADD, &old[a], sizeof(old[a]), &t.ti.mem, CTR, 1, 0));
		for (int i = 0; i < READS + ADDS; i++) {
			struct softhw_rnic_cqe c;
			enum softhw_rnic_opcode op = i < READS ? SOFTHW_RNIC_OP_READ : SOFTHW_RNIC_OP_FETCH_ADD;

			CHECK(round == 0 ? spin_cqe(&in.n, &c, WAIT_MS) : wait_cqe(&in.n, &c, WAIT_MS));
			CHECK(c.kind == SOFTHW_RNIC_CQE_WR && c.status == DOCA_SUCCESS && c.op == op &&
			      c.wr_id == 100u + op);
		}
		for (int r = 0; r < READS; r++)
			CHECK(memcmp(dst + r * len, src, len) == 0);
		for (int a = 0; a < ADDS; a++)
			CHECK(old[a] == (uint64_t)(round * ADDS + a));
	}
	CHECK(target_mem(&t, CTR, out));
	memcpy(&ctr, out, sizeof(ctr));
	CHECK(ctr == 2 * ADDS);
	init_close(&in);
	CHECK(target_end(&t));
	free(src);
	free(dst);
}

/*
 * The registry of paths (path.h): every registered table has the ops the qp core calls without
 * looking, under a name of its own; a name nobody registered is refused with a line that says
 * which names exist. A table that lacks an op is told apart from a complete one.
 */
static void test_paths_registered(void)
{
	struct rnic_path_ops partial;

	for (int i = 0; i < RNIC_PATH_COUNT; i++) {
		const char *why = rnic_path_check(rnic_paths[i], i == RNIC_PATH_COUNT - 1);

		if (why != NULL)
			fprintf(stderr, "path %d (%s): %s\n", i, rnic_paths[i]->name, why);
		CHECK(why == NULL);
		CHECK(rnic_path_find(rnic_paths[i]->name) == rnic_paths[i]);
		for (int j = 0; j < i; j++)
			CHECK(strcmp(rnic_paths[i]->name, rnic_paths[j]->name) != 0);
	}
	/* only a connection may take every work request (no wants); the last is one */
	CHECK(rnic_paths[RNIC_PATH_COUNT - 1]->wants == NULL);
	CHECK(rnic_paths[RNIC_PATH_COUNT - 1]->open != NULL);
	partial = *rnic_paths[RNIC_PATH_RING];
	partial.timer = NULL;
	CHECK(rnic_path_check(&partial, false) != NULL);
	partial = *rnic_paths[RNIC_PATH_RING];
	partial.wants = NULL;
	CHECK(rnic_path_check(&partial, false) != NULL);
	/* the last path is the connection: the ring has none of its ops */
	CHECK(rnic_path_check(&partial, true) != NULL);
	partial = *rnic_paths[RNIC_PATH_STREAM];
	partial.dial = NULL;
	CHECK(rnic_path_check(&partial, true) != NULL);
	partial = *rnic_paths[RNIC_PATH_STREAM];
	partial.nic_stop = NULL;
	CHECK(rnic_path_check(&partial, true) != NULL);
	/* a connection may stand before the last (chosen per ep by serves) */
	CHECK(rnic_path_check(rnic_paths[RNIC_PATH_STREAM], false) == NULL);
	/* connection ops without open: never asked */
	partial = *rnic_paths[RNIC_PATH_RING];
	partial.dial = rnic_paths[RNIC_PATH_STREAM]->dial;
	CHECK(rnic_path_check(&partial, false) != NULL);
	/* every ep has a connection: the stream's unless its card has wire = rocev2 */
	CHECK(rnic_conn_choose(NULL) == RNIC_PATH_STREAM);
	CHECK(rnic_path_check(rnic_paths[RNIC_PATH_ROCE], false) == NULL);
	CHECK(rnic_paths[RNIC_PATH_ROCE]->symmetric && rnic_paths[RNIC_PATH_ROCE]->wire != rnic_paths[RNIC_PATH_STREAM]->wire);
	CHECK(strcmp(rnic_wire_name(rnic_paths[RNIC_PATH_ROCE]->wire), "rocev2") == 0);
	CHECK(strcmp(rnic_wire_name(0), "stream") == 0 && strcmp(rnic_wire_name(9), "unknown") == 0);
	partial = *rnic_paths[RNIC_PATH_MSOCK];
	partial.attach = NULL;
	CHECK(rnic_path_check(&partial, false) != NULL);

	softhw_test_log_clear();
	CHECK(rnic_path_find("rocev2") == rnic_paths[RNIC_PATH_ROCE]);
	CHECK(rnic_path_find("iwarp") == NULL);
	CHECK(softhw_test_logged("no path named \"iwarp\"; the registered paths are ring, msock, rocev2, stream"));
	CHECK(rnic_path_find(NULL) == NULL);
}

static void run_all(const char *transport)
{
	fprintf(stderr, "-- transport %s\n", transport);
	setenv("SOFTDOCA_RDMA_TRANSPORT", transport, 1);
	TEST_RUN(test_every_opcode);
	TEST_RUN(test_rnr_then_posted);
	TEST_RUN(test_rnr_exhausted);
	TEST_RUN(test_too_small);
	TEST_RUN(test_permissions);
	TEST_RUN(test_peer_killed);
	TEST_RUN(test_disconnect);
	TEST_RUN(test_own_completion_order);
	TEST_RUN(test_own_lane_survives_destroy);
	TEST_RUN(test_ring_write_then_send);
	TEST_RUN(test_ring_send_then_read);
	TEST_RUN(test_ring_send_write_send);
	TEST_RUN(test_ring_write_refused);
	TEST_RUN(test_recv_reposted);
	TEST_RUN(test_ring_long_writes);
	TEST_RUN(test_ring_nak_unpolled);
	TEST_RUN(test_ring_halted_takes_acks);
	TEST_RUN(test_ring_parts_full);
	TEST_RUN(test_path_switch_unpolled);
	TEST_RUN(test_polling_sender_nudges);
	TEST_RUN(test_ring_quiet_owner_stops);
	TEST_RUN(test_ring_ack_before_recv);
	TEST_RUN(test_ring_quiet_no_bell);
	TEST_RUN(test_ring_many);
	TEST_RUN(test_many_idle_qps);
	TEST_RUN(test_ring_peer_killed);
	TEST_RUN(test_ring_wakes_armed);
	TEST_RUN(test_msock_in_use);
	TEST_RUN(test_tcp_same_host_reno);
	TEST_RUN(test_peer_never_dials);
	TEST_RUN(test_peer_dials_in_time);
	TEST_RUN(test_sender_sleeps_from_the_start);
	TEST_RUN(test_small_writes_idle_target);
	TEST_RUN(test_bursts);
	TEST_RUN(test_receiver_stops_after_poll);
	TEST_RUN(test_ring_corrupt);
}

int main(void)
{
	/* the NIC's own lines (bad descriptors, dropped connections) go to the test log */
	softhw_test_log_print(DOCA_LOG_LEVEL_WARNING);
	signal(SIGPIPE, SIG_DFL); /* the NIC must never raise it */
	alarm(240);               /* bounded, whatever happens */
	TEST_RUN(test_paths_registered);
	TEST_RUN(test_descriptors);
	TEST_RUN(test_tcp_same_host_rule);
	run_all("unix");
	run_all("tcp");
	TEST_RUN(test_cm);
	TEST_RUN(test_cm_destroy_keeps_new_request);
	TEST_EXIT();
}
