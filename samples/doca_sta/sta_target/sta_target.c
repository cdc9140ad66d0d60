/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca-sta-target: an NVMe-oF RDMA target on DOCA STA, backed by a soft NVMe disk.
 *
 *   softdoca-sta-target --addr IPV4 --port PORT --nqn NQN --backing-file PATH
 *                       [--block-size 512|4096] [--io-threads N] [--size BYTES] [--allow-host NQN]
 *
 * The program owns RDMA-CM (listen, connect requests become STA QPs), answers what STA hands
 * to the non-offload callback (Fabrics Connect, Property Get/Set, the admin commands a Linux
 * host uses, a discovery controller), and leaves NVMe Read / Write / Flush to STA's offload,
 * which runs them on the soft card's EUs against the disk's I/O queues. It prints
 * "listening on ADDR:PORT" on stdout once it accepts connections; SIGUSR1 prints the
 * namespace's statistics on stdout (doca_sta_get_ns_stats); SIGINT / SIGTERM stop it.
 * Threads: the main thread runs RDMA-CM and the STA context; each of N IO threads runs one IO
 * context (its PE, the non-offload callback, every call on its QPs); connections go to them
 * round-robin. The data paths themselves run on the soft card's EUs.
 *
 * This is softdoca's DOCA STA sample (NVIDIA ships none); tools/sta_target installs it as
 * softdoca-sta-target. The documented flow, step by step, and where each step is:
 *   1. a device with STA, the STA context on a PE, the pinned-memory allocator, the IO thread
 *      count, events; start and progress until RUNNING                          setup()
 *   2. the NVMe disk (softdoca_nvme.h): one I/O queue pair per IO thread, handed to STA as
 *      doca_mmaps (back-end queues); a subsystem and a namespace on that back-end   setup()
 *   3. one IO context per IO thread: non-offload callback, task configurations, start
 *                                                                      setup(), io_thread()
 *   4. RDMA-CM listen; a connect request becomes an STA QP (doca_sta_io_qp_connect), then
 *      connect_established                              main(), cm_event(), make_qp()
 *   5. Fabrics Connect through the non-offload callback: the QP joins the subsystem and gets
 *      its SQ size                                          non_offload(), fabrics_connect()
 *   6. admin commands (Property Get/Set, Identify, Get Log Page, Features, Keep Alive) and the
 *      discovery controller answered with the non-offload tasks        property(), identify(), ...
 *   7. disconnect task and QP destroy when the host goes; stop and destroy   end_conn(), teardown()
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_sta.h>
#include <doca_sta_be.h>
#include <doca_sta_event.h>
#include <doca_sta_io.h>
#include <doca_sta_io_non_offload.h>
#include <doca_sta_io_qp.h>
#include <doca_sta_mem.h>
#include <doca_sta_stats.h>
#include <doca_sta_subsystem.h>
#include <softdoca_nvme.h>

#define MAX_IO 32
#define MAX_CTRL 64
#define DISCOVERY_NQN "nqn.2014-08.org.nvmexpress.discovery"

static volatile sig_atomic_t stopping, stats_wanted;
static int sig_pipe[2] = {-1, -1};

struct ctrl {
	bool used, discovery;
	uint16_t cntlid;
	uint32_t cc, csts;
	uint32_t kato;
	uint32_t aers;            /* Asynchronous Event Requests held (no events are raised): AERL + 1 at most */
	uint64_t gen;             /* which controller of this slot (cntlids are reused) */
	char hostnqn[257];
};

struct conn {
	struct conn *next, *prev; /* every connection (freed at stop if the host is still there) */
	struct doca_sta_io *io;
	uint32_t worker;          /* the IO thread that makes every call on its QP */
	uint16_t crqsize;
	struct doca_sta_qp_handle *qp;
	struct rdma_cm_id *id;
	uint16_t qid;
	struct ctrl *ctrl;
	uint64_t ctrl_gen;        /* ctrl's gen when the Connect took it */
	bool established, gone;
	uint32_t reads;           /* rdma-read tasks out whose user data names this connection */
};

/* A command waiting for its data from the host (rdma-read task). */
struct pending {
	struct conn *c;
	uint8_t cmd[64];
	uint8_t *payload;
	uint32_t len;
	union doca_data nud;
};

static struct {
	const char *addr, *port, *nqn, *path, *allow_host;
	uint32_t block_size, io_threads;
	uint64_t size;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_sta *sta;
	struct doca_sta_subs_handle *subs;
	struct doca_sta_be_handle *be;
	struct doca_sta_ns_handle *ns;
	struct softdoca_nvme_disk *disk;
	struct softdoca_nvme_disk_info info;
	struct softdoca_nvme_qpair nq[MAX_IO];
	struct doca_sta_be_q_handle *beq[MAX_IO];
	struct doca_mmap *mm[MAX_IO][2];
	struct doca_mmap *db_mmap;
	struct doca_pe *io_pe[MAX_IO];
	struct doca_sta_io *io[MAX_IO];
	uint32_t next_io;
	struct ctrl ctrls[MAX_CTRL];
	uint64_t ctrl_gen;           /* under lock */
	uint32_t max_qsize;
	uint32_t max_io;
	int tasks_out;               /* atomic */
	struct conn *conns;          /* under lock */
	pthread_mutex_t lock;        /* connections and controllers: every IO thread's */
	pthread_t threads[MAX_IO];
	int pipes[MAX_IO][2];        /* messages from the RDMA-CM thread to each IO thread */
	int refused[2];              /* connections an IO thread refused, back to the RDMA-CM thread */
} t;

/*
 * What the RDMA-CM (main) thread asks an IO thread to do; MSG_CTRL_GONE (from the IO thread of
 * a controller's admin queue): disconnect that controller's I/O queues (gen: the controller's).
 */
enum { MSG_CONNECT, MSG_ESTABLISHED, MSG_GONE, MSG_STOP, MSG_CTRL_GONE };
struct msg {
	int kind;
	struct conn *c;
	uint64_t gen;
};

static void conn_link(struct conn *c)
{
	pthread_mutex_lock(&t.lock);
	c->next = t.conns;
	c->prev = NULL;
	if (t.conns != NULL)
		t.conns->prev = c;
	t.conns = c;
	pthread_mutex_unlock(&t.lock);
}

static void conn_free(struct conn *c)
{
	pthread_mutex_lock(&t.lock);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		t.conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	pthread_mutex_unlock(&t.lock);
	free(c);
}

static void die(const char *what, doca_error_t err)
{
	fprintf(stderr, "softdoca-sta-target: %s: %s\n", what, doca_error_get_descr(err));
	exit(1);
}

#define TRY(call)                                                                                                      \
	do {                                                                                                           \
		doca_error_t e_ = (call);                                                                              \
		if (e_ != DOCA_SUCCESS)                                                                                \
			die(#call, e_);                                                                                \
	} while (0)

/* ---- the STA's pinned memory: this process's memory, "physical" = virtual ---- */

static void *zmalloc_cb(size_t size, size_t align, uint64_t *phys)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	if (p != NULL) {
		memset(p, 0, size);
		*phys = (uint64_t)(uintptr_t)p;
	}
	return p;
}

static uint64_t vtophys_cb(const void *buf, uint32_t size)
{
	(void)size;
	return (uint64_t)(uintptr_t)buf;
}

/* ---- responses ---- */

static void task_done(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	(void)ud;
	__atomic_sub_fetch(&t.tasks_out, 1, __ATOMIC_RELAXED);
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

static void task_error(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	(void)ud;
	__atomic_sub_fetch(&t.tasks_out, 1, __ATOMIC_RELAXED);
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16;
}

/* sct/sc, dw0/dw1; with data: the payload (len bytes) is written to the host first. */
static void respond(struct conn *c, const uint8_t *cmd, union doca_data nud, uint8_t sct, uint8_t sc, uint64_t dw01,
		    bool data)
{
	doca_sta_nvme_completion_t cqe = {0};
	struct doca_sta_producer_task_send *task;
	doca_error_t err;
	uint16_t st = (uint16_t)((sc << 1) | (sct << 9) | (sc != 0 ? 0x8000 : 0));

	put64(cqe, dw01);
	put16(cqe + 10, c->qid);
	cqe[12] = cmd[2];
	cqe[13] = cmd[3];
	put16(cqe + 14, st);
	err = data ? doca_sta_io_task_non_offload_rdma_write_send_alloc_init(c->io, (union doca_data){0}, c->qp, cqe, nud,
									     &task)
		   : doca_sta_io_task_non_offload_rdma_send_alloc_init(c->io, (union doca_data){0}, c->qp, cqe, nud, &task);
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_sta_producer_send_task_as_task(task));
	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "softdoca-sta-target: cannot respond to command %u: %s\n", get16(cmd + 2),
			doca_error_get_descr(err));
		return;
	}
	__atomic_add_fetch(&t.tasks_out, 1, __ATOMIC_RELAXED);
}

/* ---- admin and fabrics ---- */

static struct ctrl *new_ctrl(bool discovery, const char *hostnqn)
{
	for (int i = 0; i < MAX_CTRL; i++) {
		if (!t.ctrls[i].used) {
			t.ctrls[i] = (struct ctrl){.used = true, .discovery = discovery, .cntlid = (uint16_t)(i + 1),
						   .gen = ++t.ctrl_gen};
			snprintf(t.ctrls[i].hostnqn, sizeof(t.ctrls[i].hostnqn), "%s", hostnqn);
			return &t.ctrls[i];
		}
	}
	return NULL;
}

static void fabrics_connect(struct conn *c, const uint8_t *cmd, uint8_t *payload, uint32_t len, bool valid,
			    union doca_data nud)
{
	uint16_t qid = get16(cmd + 42), sqsize = get16(cmd + 44), cntlid;
	char subnqn[257], hostnqn[257];
	bool discovery;
	struct ctrl *ctrl = NULL;

	if (c->gone) /* the host left while its Connect data was read: no controller for it */
		return;
	if (c->ctrl != NULL) { /* one Connect per queue: another would make (and leak) a controller */
		fprintf(stderr, "softdoca-sta-target: Connect on queue %u, connected already; Command Sequence Error\n",
			c->qid);
		respond(c, cmd, nud, 0, 0x0c, 0, false);
		return;
	}
	if (len < 1024) {
		fprintf(stderr, "softdoca-sta-target: Connect without its 1024 bytes of data; refused\n");
		respond(c, cmd, nud, 1, 0x82, 0, false); /* Invalid Parameter */
		return;
	}
	if (!valid) { /* the data is the host's (keyed SGL): read it, then come back here */
		struct pending *p = malloc(sizeof(*p));
		struct doca_sta_producer_task_send *task;

		if (p == NULL)
			return;
		*p = (struct pending){.c = c, .payload = payload, .len = len, .nud = nud};
		memcpy(p->cmd, cmd, sizeof(p->cmd));
		if (doca_sta_io_task_non_offload_rdma_read_alloc_init(c->io, (union doca_data){.ptr = p}, c->qp, nud,
								      &task) != DOCA_SUCCESS ||
		    doca_task_submit(doca_sta_producer_send_task_as_task(task)) != DOCA_SUCCESS) {
			fprintf(stderr, "softdoca-sta-target: cannot read the Connect data from the host\n");
			free(p);
			respond(c, cmd, nud, 0, 0x06, 0, false);
			return;
		}
		__atomic_add_fetch(&t.tasks_out, 1, __ATOMIC_RELAXED);
		c->reads++;
		return;
	}
	memcpy(subnqn, payload + 256, 256);
	subnqn[256] = 0;
	memcpy(hostnqn, payload + 512, 256);
	hostnqn[256] = 0;
	cntlid = get16(payload + 16);
	discovery = strcmp(subnqn, DISCOVERY_NQN) == 0;
	c->qid = qid;
	if (!discovery && strcmp(subnqn, t.nqn) != 0) {
		fprintf(stderr, "softdoca-sta-target: Connect to subsystem '%s', which this target does not have; refused\n",
			subnqn);
		respond(c, cmd, nud, 1, 0x82, (uint64_t)256 << 16 | 1, false); /* IATTR data, IPO subnqn */
		return;
	}
	if (t.allow_host != NULL && strcmp(hostnqn, t.allow_host) != 0) {
		fprintf(stderr, "softdoca-sta-target: Connect from host '%s', which is not allowed (--allow-host %s); "
			"refused\n",
			hostnqn, t.allow_host);
		respond(c, cmd, nud, 1, 0x84, 0, false); /* Invalid Host */
		return;
	}
	doca_error_t err = doca_sta_io_qp_connect_set_sq_size(c->io, c->qp, sqsize);

	if (err != DOCA_SUCCESS) {
		if (sqsize == 0)
			fprintf(stderr, "softdoca-sta-target: Connect with SQSIZE 0 (0's based) refused: a queue holds at "
				"least 2 entries\n");
		else
			fprintf(stderr, "softdoca-sta-target: Connect with SQSIZE %u (0's based) refused: the limit is %u "
				"entries (doca_sta_get_max_io_queue_size)\n",
				sqsize, t.max_qsize);
		respond(c, cmd, nud, 1, 0x82, (uint64_t)44 << 16, false); /* IATTR command, IPO sqsize */
		return;
	}
	pthread_mutex_lock(&t.lock);
	if (qid == 0) {
		ctrl = new_ctrl(discovery, hostnqn);
	} else if (cntlid >= 1 && cntlid <= MAX_CTRL && t.ctrls[cntlid - 1].used &&
		   strcmp(t.ctrls[cntlid - 1].hostnqn, hostnqn) == 0 && !t.ctrls[cntlid - 1].discovery) {
		ctrl = &t.ctrls[cntlid - 1];
	}
	pthread_mutex_unlock(&t.lock);
	if (ctrl == NULL) {
		fprintf(stderr, "softdoca-sta-target: Connect of queue %u names controller %u, which is not this host's; "
			"refused\n",
			qid, cntlid);
		respond(c, cmd, nud, 1, 0x82, (uint64_t)16 << 16 | 1, false);
		return;
	}
	c->ctrl = ctrl;
	c->ctrl_gen = ctrl->gen;
	if (qid == 0)
		ctrl->kato = get32(cmd + 48);
	if (!discovery)
		doca_sta_io_qp_add_subsystem(c->io, t.subs, c->qp);
	respond(c, cmd, nud, 0, 0, ctrl->cntlid, false);
}

/* The Connect data arrived (rdma-read task): the Connect goes on. */
static void read_done(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	struct pending *p = ud.ptr;

	__atomic_sub_fetch(&t.tasks_out, 1, __ATOMIC_RELAXED);
	p->c->reads--;
	doca_task_free(doca_sta_producer_send_task_as_task(task));
	fabrics_connect(p->c, p->cmd, p->payload, p->len, true, p->nud);
	free(p);
}

static void read_error(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	__atomic_sub_fetch(&t.tasks_out, 1, __ATOMIC_RELAXED);
	((struct pending *)ud.ptr)->c->reads--;
	fprintf(stderr, "softdoca-sta-target: reading a command's data from the host failed: %s\n",
		doca_error_get_descr(doca_task_get_status(doca_sta_producer_send_task_as_task(task))));
	doca_task_free(doca_sta_producer_send_task_as_task(task));
	free(ud.ptr);
}

static void property(struct conn *c, const uint8_t *cmd, union doca_data nud, bool set)
{
	uint32_t ofst = get32(cmd + 44);
	uint64_t v = 0;

	if (set) {
		uint32_t val = get32(cmd + 48);

		if (ofst != 0x14) {
			respond(c, cmd, nud, 1, 0x82, 0, false);
			return;
		}
		c->ctrl->cc = val;
		c->ctrl->csts = (val & 1) ? 1 : 0;          /* RDY follows EN */
		if ((val >> 14) & 3)
			c->ctrl->csts |= 2u << 2;           /* shutdown complete */
		respond(c, cmd, nud, 0, 0, 0, false);
		return;
	}
	switch (ofst) {
	case 0x00: /* CAP: MQES 127, CQR, TO 15 s, CSS NVM, MPSMIN 4 KiB */
		v = (uint64_t)(t.max_qsize - 1) | 1ull << 16 | 30ull << 24 | 1ull << 37;
		break;
	case 0x08: v = 0x00010400; break; /* 1.4 */
	case 0x14: v = c->ctrl->cc; break;
	case 0x1c: v = c->ctrl->csts; break;
	default:
		respond(c, cmd, nud, 1, 0x82, 0, false);
		return;
	}
	respond(c, cmd, nud, 0, 0, v, false);
}

static void pad(uint8_t *dst, const char *s, size_t n)
{
	memset(dst, ' ', n);
	memcpy(dst, s, strlen(s) < n ? strlen(s) : n);
}

static void identify_ctrl(struct conn *c, uint8_t *d)
{
	pad(d + 4, "SOFTDOCA0001", 20);
	pad(d + 24, "softdoca STA target", 40);
	pad(d + 64, "1.0", 8);
	d[77] = 5; /* MDTS 2^5 pages: 128 KiB */
	put16(d + 78, c->ctrl->cntlid);
	put32(d + 80, 0x00010400);
	d[96] = 0; /* CNTRLTYPE below */
	d[111] = c->ctrl->discovery ? 2 : 1; /* discovery / I/O controller */
	d[258] = 3;                          /* ACL */
	d[259] = 3;                          /* AERL */
	d[261] = 0x04;                       /* LPA: extended data for Get Log Page */
	put16(d + 320, 1);                   /* KAS: 100 ms units */
	d[512] = 0x66;                       /* SQES */
	d[513] = 0x44;                       /* CQES */
	put16(d + 514, (uint16_t)t.max_qsize);
	put32(d + 516, c->ctrl->discovery ? 0 : 1); /* NN */
	d[525] = 1;                                 /* VWC */
	put32(d + 536, 1u | 1u << 2 | 1u << 20);    /* SGLS: SGLs, keyed data block, in-capsule offsets */
	snprintf((char *)d + 768, 256, "%s", c->ctrl->discovery ? DISCOVERY_NQN : t.nqn);
	put32(d + 1792, (64 + 8192) / 16);          /* IOCCSZ */
	put32(d + 1796, 1);                         /* IORCSZ */
	d[1803] = 1;                                /* MSDBD */
}

static void identify(struct conn *c, const uint8_t *cmd, uint8_t *d, uint32_t len, union doca_data nud)
{
	uint8_t cns = cmd[40];
	uint32_t nsid = get32(cmd + 4);
	uint8_t buf[4096] = {0};

	memset(d, 0, len); /* the host's whole buffer goes back: past the 4096 bytes too */
	switch (cns) {
	case 0x01:
		identify_ctrl(c, buf);
		break;
	case 0x00:
		if (nsid != 1 || c->ctrl->discovery) {
			respond(c, cmd, nud, 0, 0x0b, 0, false);
			return;
		}
		put64(buf, t.info.num_blocks);
		put64(buf + 8, t.info.num_blocks);
		put64(buf + 16, t.info.num_blocks);
		buf[26] = 0;                              /* FLBAS: format 0 */
		buf[130] = (uint8_t)__builtin_ctz(t.block_size); /* LBAF0 LBADS */
		for (int i = 0; i < 16; i++)
			buf[104 + i] = (uint8_t)(0x5a ^ i); /* NGUID */
		break;
	case 0x02:
		if (!c->ctrl->discovery)
			put32(buf, 1);
		break;
	case 0x03:
		if (nsid != 1) {
			respond(c, cmd, nud, 0, 0x0b, 0, false);
			return;
		}
		buf[0] = 2; /* NGUID */
		buf[1] = 16;
		for (int i = 0; i < 16; i++)
			buf[4 + i] = (uint8_t)(0x5a ^ i);
		break;
	default:
		respond(c, cmd, nud, 0, 0x02, 0, false);
		return;
	}
	memcpy(d, buf, len < sizeof(buf) ? len : sizeof(buf));
	respond(c, cmd, nud, 0, 0, 0, len > 0);
}

static void log_page(struct conn *c, const uint8_t *cmd, uint8_t *d, uint32_t len, union doca_data nud)
{
	uint8_t lid = cmd[40];
	uint64_t off = get32(cmd + 48) | (uint64_t)get32(cmd + 52) << 32;

	memset(d, 0, len);
	if (lid == 0x70 && c->ctrl->discovery) {
		uint8_t page[2048] = {0};
		uint8_t *e = page + 1024;

		put64(page, 1);     /* GENCTR */
		put64(page + 8, 1); /* NUMREC */
		e[0] = 1;           /* RDMA */
		e[1] = 1;           /* IPv4 */
		e[2] = 2;           /* NVMe subsystem */
		put16(e + 4, 1);
		put16(e + 6, 0xffff);
		put16(e + 8, 32);
		snprintf((char *)e + 32, 32, "%s", t.port);
		snprintf((char *)e + 256, 256, "%s", t.nqn);
		snprintf((char *)e + 512, 256, "%s", t.addr);
		e[768] = 1; /* RC */
		e[769] = 1; /* no provider type */
		e[770] = 1; /* RDMA-CM */
		if (off < sizeof(page))
			memcpy(d, page + off, len < sizeof(page) - off ? len : sizeof(page) - off);
	} else if (lid != 0x01 && lid != 0x02 && lid != 0x03 && lid != 0x04 && lid != 0x05) {
		respond(c, cmd, nud, 1, 0x09, 0, false); /* Invalid Log Page */
		return;
	}
	respond(c, cmd, nud, 0, 0, 0, len > 0);
}

static void features(struct conn *c, const uint8_t *cmd, union doca_data nud, bool set)
{
	uint8_t fid = cmd[40];
	uint32_t v = get32(cmd + 44);

	switch (fid) {
	case 0x07: /* Number of Queues: one I/O queue per IO thread */
		respond(c, cmd, nud, 0, 0, (uint64_t)(t.io_threads * 4 - 1) * 0x10001ull, false);
		return;
	case 0x0f:
		if (set)
			c->ctrl->kato = v;
		respond(c, cmd, nud, 0, 0, c->ctrl->kato, false);
		return;
	case 0x0b: case 0x06: case 0x05: case 0x08: case 0x04: case 0x01: case 0x02: case 0x0a:
		respond(c, cmd, nud, 0, 0, fid == 0x06 ? 1 : 0, false);
		return;
	default:
		respond(c, cmd, nud, 0, 0x02, 0, false);
	}
}

static void non_offload(struct doca_sta_qp_handle *qp, union doca_data ud, const uint8_t *cmd, uint8_t *payload,
			uint32_t len, bool valid, union doca_data nud)
{
	union doca_data qud;
	struct conn *c;
	uint8_t opc = cmd[0];

	(void)ud;
	doca_sta_io_qp_get_user_data(qp, &qud);
	c = qud.ptr;
	if (opc == 0x7f) {
		uint8_t fctype = cmd[4];

		if (fctype == 0x01)
			fabrics_connect(c, cmd, payload, len, valid, nud);
		else if (c->ctrl == NULL)
			respond(c, cmd, nud, 0, 0x0c, 0, false); /* Command Sequence Error: no Connect yet */
		else if (c->qid != 0)
			/* Property Get / Set on the admin queue only (as Linux nvmet): an I/O queue's
			 * controller may be gone, its slot another host's, before this thread hears */
			respond(c, cmd, nud, 0, 0x01, 0, false);
		else if (fctype == 0x04 || fctype == 0x00)
			property(c, cmd, nud, fctype == 0x00);
		else
			respond(c, cmd, nud, 0, 0x01, 0, false);
		return;
	}
	if (c->ctrl == NULL) {
		respond(c, cmd, nud, 0, 0x0c, 0, false);
		return;
	}
	if (c->qid != 0) { /* I/O queue: what the offload did not take */
		if (opc == 0x00 && get32(cmd + 4) == 0xffffffffu)
			respond(c, cmd, nud, 0, 0, 0, false); /* Flush of every namespace: writes are on the disk */
		else {
			fprintf(stderr, "softdoca-sta-target: I/O opcode 0x%02x is not supported; Invalid Opcode\n", opc);
			respond(c, cmd, nud, 0, 0x01, 0, false);
		}
		return;
	}
	switch (opc) {
	case 0x06: identify(c, cmd, payload, len, nud); break;
	case 0x02: log_page(c, cmd, payload, len, nud); break;
	case 0x09: features(c, cmd, nud, true); break;
	case 0x0a: features(c, cmd, nud, false); break;
	case 0x18: respond(c, cmd, nud, 0, 0, 0, false); break; /* Keep Alive */
	case 0x0c: /* Async Event Request: held, no events are raised; AERL (3) + 1 of them at most */
		if (c->ctrl->aers >= 4)
			respond(c, cmd, nud, 1, 0x05, 0, false); /* Asynchronous Event Request Limit Exceeded */
		else
			c->ctrl->aers++;
		break;
	default:
		fprintf(stderr, "softdoca-sta-target: admin opcode 0x%02x is not supported; Invalid Opcode\n", opc);
		respond(c, cmd, nud, 0, 0x01, 0, false);
	}
}

/* ---- RDMA-CM ---- */

static void send_msg(uint32_t worker, int kind, struct conn *c)
{
	struct msg m = {.kind = kind, .c = c, .gen = 0};

	/* smaller than PIPE_BUF: written whole */
	if (write(t.pipes[worker][1], &m, sizeof(m)) != (ssize_t)sizeof(m))
		fprintf(stderr, "softdoca-sta-target: cannot reach IO thread %u: %s\n", worker, strerror(errno));
}

/* RDMA-CM thread: a new connection goes to the next IO thread, which makes its QP. */
static void connect_request(struct rdma_cm_event *ev)
{
	const uint8_t *pd = ev->param.conn.private_data;
	uint16_t hrqsize = ev->param.conn.private_data_len >= 8 ? get16(pd + 4) : (uint16_t)t.max_qsize;
	struct conn *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return;
	c->worker = t.next_io++ % t.io_threads;
	c->io = t.io[c->worker];
	c->id = ev->id;
	c->crqsize = (uint16_t)(hrqsize != 0 && hrqsize < t.max_qsize ? hrqsize : t.max_qsize);
	ev->id->context = c;
	conn_link(c);
	send_msg(c->worker, MSG_CONNECT, c);
}

/* IO thread: the QP of a connection request (STA accepts it). */
static void make_qp(struct conn *c)
{
	uint8_t accept[32] = {0};
	doca_error_t err;

	put16(accept + 2, c->crqsize); /* CRQSIZE */
	err = doca_sta_io_qp_connect(c->io, t.dev, c->id, accept, sizeof(accept), NULL, &c->qp);
	if (err != DOCA_SUCCESS) {
		uint8_t rej[4] = {0, 0, 6, 0}; /* NO_RESOURCES */
		bool ours;

		fprintf(stderr, "softdoca-sta-target: connect request refused: %s\n", doca_error_get_descr(err));
		rdma_reject(c->id, rej, sizeof(rej));
		c->qp = NULL;
		/*
		 * No event comes for a rejected id: its id and c go back to the RDMA-CM thread, which
		 * destroys the id between two events. Unless that thread took it already (an event of a
		 * host that left meanwhile): then its MSG_GONE ends it here (end_conn).
		 */
		pthread_mutex_lock(&t.lock);
		ours = c->id->context == c;
		if (ours)
			c->id->context = NULL;
		pthread_mutex_unlock(&t.lock);
		if (ours && write(t.refused[1], &c, sizeof(c)) != (ssize_t)sizeof(c))
			fprintf(stderr, "softdoca-sta-target: cannot hand a refused connection back: %s\n", strerror(errno));
		return;
	}
	doca_sta_io_qp_set_user_data(c->io, c->qp, (union doca_data){.ptr = c});
}

static void conn_gone(struct conn *c)
{
	struct doca_sta_producer_task_send *task;
	bool admin;

	if (c->gone)
		return;
	c->gone = true;
	if (doca_sta_io_task_disconnect_alloc_init(c->io, (union doca_data){0}, c->qp, &task) == DOCA_SUCCESS &&
	    doca_task_submit(doca_sta_producer_send_task_as_task(task)) == DOCA_SUCCESS)
		__atomic_add_fetch(&t.tasks_out, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&t.lock);
	admin = c->ctrl != NULL && c->qid == 0;
	if (admin)
		c->ctrl->used = false; /* the admin queue went: so did the controller */
	c->ctrl = NULL;
	pthread_mutex_unlock(&t.lock);
	/* and its I/O queues go (each on its IO thread), before its cntlid names another host's
	 * controller */
	if (admin) {
		struct msg m = {.kind = MSG_CTRL_GONE, .gen = c->ctrl_gen};

		for (uint32_t w = 0; w < t.io_threads; w++)
			if (write(t.pipes[w][1], &m, sizeof(m)) != (ssize_t)sizeof(m))
				fprintf(stderr, "softdoca-sta-target: cannot reach IO thread %u: %s\n", w, strerror(errno));
	}
}

/* IO thread w: the I/O queues (of this thread) of a controller whose admin queue went are disconnected. */
static void ctrl_gone(uint32_t w, uint64_t gen)
{
	for (;;) {
		struct conn *v = NULL;

		pthread_mutex_lock(&t.lock);
		for (struct conn *c = t.conns; c != NULL && v == NULL; c = c->next)
			if (c->worker == w && !c->gone && c->ctrl != NULL && c->ctrl_gen == gen)
				v = c;
		if (v != NULL)
			v->ctrl = NULL; /* its commands for the callback: Command Sequence Error from now */
		pthread_mutex_unlock(&t.lock);
		if (v == NULL)
			return;
		fprintf(stderr, "softdoca-sta-target: I/O queue %u disconnected: its controller's admin queue is gone\n",
			v->qid);
		conn_gone(v); /* (only this thread frees v) */
	}
}

/* One RDMA-CM event; false when none is waiting (the channel is non-blocking). */
static bool cm_event(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev;
	struct conn *c;

	if (rdma_get_cm_event(ch, &ev) != 0)
		return false;
	pthread_mutex_lock(&t.lock); /* (an IO thread hands refused ids back: make_qp) */
	c = ev->id->context;
	pthread_mutex_unlock(&t.lock);
	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		connect_request(ev);
		rdma_ack_cm_event(ev);
		return true;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (c != NULL)
			send_msg(c->worker, MSG_ESTABLISHED, c);
		rdma_ack_cm_event(ev);
		return true;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_CONNECT_ERROR:
		/* the connection is its IO thread's to end; this thread forgets it */
		pthread_mutex_lock(&t.lock);
		c = ev->id->context;
		ev->id->context = NULL;
		pthread_mutex_unlock(&t.lock);
		rdma_ack_cm_event(ev);
		if (c != NULL)
			send_msg(c->worker, MSG_GONE, c);
		return true;
	default:
		rdma_ack_cm_event(ev);
	}
	return true;
}

/* IO thread: the host is gone. STA's QP goes with its id; capsules on the disk are cleaned at completion. */
static void end_conn(struct doca_pe *pe, struct conn *c)
{
	if (c->qp != NULL) {
		conn_gone(c);
		for (int i = 0; i < 1000; i++)
			if (!doca_pe_progress(pe))
				break;
		doca_sta_io_qp_destroy(c->io, c->qp);
	}
	/*
	 * The disconnect task's callback comes after those of the READs before it; without one (no
	 * task to be had) the destroy ends them, and their callbacks, which name c, come at the next
	 * progress. Wait for them: freed earlier, c would be read by them.
	 */
	for (int i = 0; c->reads > 0 && i < 1000; i++)
		doca_pe_progress(pe);
	if (c->reads > 0) {
		fprintf(stderr, "softdoca-sta-target: %u reads of a gone connection never ended; it stays allocated\n",
			c->reads);
		return;
	}
	if (c->qp == NULL) /* refused: the id is still ours (a QP's goes with it) */
		rdma_destroy_id(c->id);
	conn_free(c);
}

/* One IO thread: its IO context's PE and the messages of the RDMA-CM thread. */
static void *io_thread(void *arg)
{
	uint32_t w = (uint32_t)(uintptr_t)arg;
	struct doca_pe *pe = t.io_pe[w];
	bool stop = false;
	enum doca_ctx_states st;

	while (!stop) {
		struct pollfd p[2] = {{.fd = t.pipes[w][0], .events = POLLIN}};
		struct msg m;

		while (doca_pe_progress(pe))
			;
		doca_pe_get_notification_handle(pe, &p[1].fd);
		p[1].events = POLLIN;
		doca_pe_request_notification(pe);
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		doca_pe_clear_notification(pe, 0);
		while (doca_pe_progress(pe))
			;
		while (read(t.pipes[w][0], &m, sizeof(m)) == (ssize_t)sizeof(m)) {
			switch (m.kind) {
			case MSG_CONNECT: make_qp(m.c); break;
			case MSG_ESTABLISHED:
				if (m.c->qp != NULL) {
					m.c->established = true;
					doca_sta_io_qp_connect_established(m.c->io, m.c->qp);
				}
				break;
			case MSG_GONE: end_conn(pe, m.c); break;
			case MSG_CTRL_GONE: ctrl_gone(w, m.gen); break;
			default: stop = true;
			}
		}
	}
	/* the IO context stops here, on its own thread; QPs of hosts still connected go with it */
	doca_ctx_stop(doca_sta_io_as_ctx(t.io[w]));
	for (int k = 0; k < 100000; k++) {
		doca_pe_progress(pe);
		doca_ctx_get_state(doca_sta_io_as_ctx(t.io[w]), &st);
		if (st == DOCA_CTX_STATE_IDLE)
			break;
	}
	return NULL;
}

/* ---- set-up ---- */

static struct doca_mmap *mmap_of(void *addr, size_t len)
{
	struct doca_mmap *m;

	TRY(doca_mmap_create(&m));
	TRY(doca_mmap_set_memrange(m, addr, len));
	TRY(doca_mmap_add_dev(m, t.dev));
	TRY(doca_mmap_start(m));
	return m;
}

static void open_dev(void)
{
	struct doca_devinfo **list;
	uint32_t n;

	TRY(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && t.dev == NULL; i++)
		if (doca_sta_cap_is_supported(list[i]) == DOCA_SUCCESS)
			TRY(doca_dev_open(list[i], &t.dev));
	doca_devinfo_destroy_list(list);
	if (t.dev == NULL)
		die("no device with STA (a BlueField-3)", DOCA_ERROR_NOT_FOUND);
}

static void wait_running(struct doca_pe *pe, struct doca_ctx *ctx)
{
	enum doca_ctx_states st;

	for (int i = 0; i < 100000; i++) {
		doca_pe_progress(pe);
		doca_ctx_get_state(ctx, &st);
		if (st == DOCA_CTX_STATE_RUNNING)
			return;
	}
	die("context did not reach RUNNING", DOCA_ERROR_TIME_OUT);
}

static void transport_err(const struct doca_sta_event_transport_err *ev, union doca_data ud)
{
	const struct doca_sta_qp_handle *qp = NULL;
	uint32_t syndrome = 0;

	(void)ud;
	doca_sta_event_transport_err_get_qp_handle(ev, &qp);
	doca_sta_event_transport_err_get_syndrome(ev, &syndrome);
	/* the QP was disconnected: its RDMA-CM DISCONNECTED event cleans it up */
	fprintf(stderr, "softdoca-sta-target: transport error on a QP (syndrome %u); the host is disconnected\n",
		syndrome);
}

/* What the offload refused or the disk failed (from doca_pe_progress of the STA context). */
static void cqe_notify(const struct doca_sta_event_cqe_notify *ev, union doca_data ud)
{
	enum doca_sta_cqe_notify_type type;
	doca_sta_nvme_completion_t cqe;
	uint8_t opc = 0;
	uint16_t cid = 0, nsid = 0, pel = 0;
	uint64_t lba = 0;

	(void)ud;
	doca_sta_event_cqe_notify_get_cqe_notify_type(ev, &type);
	doca_sta_event_cqe_notify_get_cqe(ev, cqe);
	doca_sta_event_cqe_notify_get_capsule_params(ev, &opc, &cid, &nsid, &lba);
	doca_sta_event_cqe_notify_get_param_err_location(ev, &pel);
	fprintf(stderr, "softdoca-sta-target: CQE notify: %s, opcode 0x%02x cid %u nsid %u lba %llu: SCT %u SC 0x%02x, "
			"error location %u\n",
		type == DOCA_STA_CQE_NOTIF_NVME_OF_VALIDATION_ERR ? "capsule refused" : "NVMe command failed", opc, cid,
		nsid, (unsigned long long)lba, (get16(cqe + 14) >> 9) & 7, (get16(cqe + 14) >> 1) & 0xff, pel);
}

/* A back-end queue that stopped answering, and an EU that failed (STA context's PE). */
static void be_timeout(const struct doca_sta_event_be_timeout *ev, union doca_data ud)
{
	(void)ev;
	(void)ud;
	fprintf(stderr, "softdoca-sta-target: back-end time-out: the disk has not completed a command in time\n");
}

static void eu_error(const struct doca_sta_event_eu_err *ev, union doca_data ud)
{
	const struct doca_sta_eu_handle *eu = NULL;
	const char *name = "?";
	bool fatal = false;

	(void)ud;
	doca_sta_event_eu_err_is_fatal_error(ev, &fatal);
	if (!fatal && doca_sta_event_eu_err_get_eu_handle(ev, &eu) == DOCA_SUCCESS && eu != NULL)
		doca_sta_get_eu_name(eu, &name);
	fprintf(stderr, "softdoca-sta-target: EU error%s%s\n", fatal ? " (fatal)" : " on EU ", fatal ? "" : name);
}

static void setup(void)
{
	struct softdoca_nvme_disk_attr a = {.path = t.path, .size = t.size, .block_size = t.block_size};
	void *db;
	size_t dbl;

	struct doca_log_backend *sdk_log;

	/* the SDK's warnings and errors (STA's refusals name the limit they hit) on stderr */
	TRY(doca_log_backend_create_standard());
	TRY(doca_log_backend_create_with_file_sdk(stderr, &sdk_log));
	TRY(doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING));
	open_dev();
	TRY(doca_sta_get_max_io_size(&t.max_io));
	TRY(doca_pe_create(&t.pe));
	TRY(doca_sta_create(t.dev, &t.sta));
	TRY(doca_pe_connect_ctx(t.pe, doca_sta_as_ctx(t.sta)));
	TRY(doca_sta_mem_allocator_register(t.sta, zmalloc_cb, free, vtophys_cb));
	TRY(doca_sta_set_max_sta_io(t.sta, (uint16_t)t.io_threads));
	TRY(doca_sta_event_cqe_notify_register_cb(t.sta, cqe_notify, (union doca_data){0}));
	TRY(doca_sta_event_be_timeout_register_cb(t.sta, be_timeout, (union doca_data){0}));
	TRY(doca_sta_event_eu_err_register_cb(t.sta, eu_error, (union doca_data){0}));
	doca_error_t e = doca_ctx_start(doca_sta_as_ctx(t.sta));

	if (e != DOCA_SUCCESS && e != DOCA_ERROR_IN_PROGRESS)
		die("doca_ctx_start(sta)", e);
	wait_running(t.pe, doca_sta_as_ctx(t.sta));
	TRY(doca_sta_get_max_io_queue_size(t.sta, &t.max_qsize));

	TRY(softdoca_nvme_open(&a, &t.disk));
	TRY(softdoca_nvme_get_info(t.disk, &t.info));
	TRY(softdoca_nvme_get_doorbells(t.disk, &db, &dbl));
	t.db_mmap = mmap_of(db, dbl);
	TRY(doca_sta_subsystem_create(t.sta, t.nqn, &t.subs));
	TRY(doca_sta_subsystem_add_dev(t.subs, t.dev));
	TRY(doca_sta_be_create(t.sta, &t.be));
	for (uint32_t i = 0; i < t.io_threads; i++) {
		/* one back-end queue per IO context: an EU drives its own queues */
		TRY(softdoca_nvme_qpair_create(t.disk, (uint16_t)(i + 1), 256, NULL, NULL, &t.nq[i]));
		t.mm[i][0] = mmap_of(t.nq[i].sq, (size_t)t.nq[i].depth * 64);
		t.mm[i][1] = mmap_of(t.nq[i].cq, (size_t)t.nq[i].depth * 16);
		TRY(doca_sta_be_add_queue(t.be, t.mm[i][0], t.db_mmap, (uint16_t)t.nq[i].sq_doorbell_offset, t.mm[i][1],
					  t.db_mmap, (uint16_t)t.nq[i].cq_doorbell_offset, &t.beq[i]));
	}
	TRY(doca_sta_subsystem_add_ns(t.subs, 1, t.block_size, 1, t.be, &t.ns));
	for (uint32_t i = 0; i < t.io_threads; i++) {
		TRY(doca_pe_create(&t.io_pe[i]));
		TRY(doca_sta_io_create(t.sta, &t.io[i]));
		TRY(doca_pe_connect_ctx(t.io_pe[i], doca_sta_io_as_ctx(t.io[i])));
		TRY(doca_sta_io_non_offload_register_cb(t.io[i], non_offload, (union doca_data){0}));
		TRY(doca_sta_io_event_transport_err_register_cb(t.io[i], transport_err, (union doca_data){0}));
		TRY(doca_sta_io_task_disconnect_set_conf(t.io[i], task_done, task_error));
		TRY(doca_sta_io_task_non_offload_set_rdma_write_send_conf(t.io[i], task_done, task_error));
		TRY(doca_sta_io_task_non_offload_set_rdma_read_conf(t.io[i], read_done, read_error));
		e = doca_ctx_start(doca_sta_io_as_ctx(t.io[i]));
		if (e != DOCA_SUCCESS && e != DOCA_ERROR_IN_PROGRESS)
			die("doca_ctx_start(sta_io)", e);
		wait_running(t.io_pe[i], doca_sta_io_as_ctx(t.io[i]));
	}
}

/* The QPs still connected (STA's per-EU lists), before the IO contexts stop. */
static void print_qps(void)
{
	struct doca_sta_eu_handle *eus[256];
	uint32_t n = 0, qps = 0, held = 0;

	if (doca_sta_get_eu_handle(t.sta, eus, &n) != DOCA_SUCCESS)
		return;
	for (uint32_t i = 0; i < n && i < 256; i++) {
		struct doca_sta_qp_handle *arr[256];
		enum dpa_sta_eu_type type;
		uint16_t k = 0;

		if (doca_sta_get_eu_type(eus[i], &type) == DOCA_SUCCESS && type == DOCA_STA_EU_COMP &&
		    doca_sta_get_eu_connect_qp_stats(eus[i], arr, &k) == DOCA_SUCCESS)
			qps += k;
	}
	fprintf(stderr, "softdoca-sta-target: %u QPs connected at stop\n", qps);
	pthread_mutex_lock(&t.lock);
	for (const struct conn *c = t.conns; c != NULL; c = c->next)
		held += c->qp == NULL;
	pthread_mutex_unlock(&t.lock);
	fprintf(stderr, "softdoca-sta-target: %u refused connections held at stop\n", held);
}

/* The EU counters, summed over the EUs (after the IO contexts stopped: nothing in flight). */
static void print_stats(void)
{
	struct doca_sta_eu_handle *eus[256];
	uint32_t n = 0;
	uint64_t sum[16] = {0};
	const char *names[16] = {0};
	uint16_t nc = 0;

	if (doca_sta_get_eu_handle(t.sta, eus, &n) != DOCA_SUCCESS)
		return;
	for (uint32_t i = 0; i < n && i < 256; i++) {
		const struct doca_sta_eu_ctr_entry *e;

		if (doca_sta_get_eu_stats(eus[i], &e, &nc) != DOCA_SUCCESS)
			continue;
		for (uint16_t k = 0; k < nc && k < 16; k++) {
			names[k] = e[k].name;
			sum[k] += *e[k].val;
		}
	}
	fprintf(stderr, "softdoca-sta-target: stats:");
	for (uint16_t k = 0; k < nc && k < 16; k++)
		fprintf(stderr, " %s %llu", names[k], (unsigned long long)sum[k]);
	fprintf(stderr, "\n");
}

static void teardown(void)
{
	enum doca_ctx_states st;

	print_qps();
	for (uint32_t i = 0; i < t.io_threads; i++) { /* each stops its IO context */
		send_msg(i, MSG_STOP, NULL);
		pthread_join(t.threads[i], NULL);
		doca_sta_io_destroy(t.io[i]);
		doca_pe_destroy(t.io_pe[i]);
		close(t.pipes[i][0]);
		close(t.pipes[i][1]);
	}
	/* the IO contexts destroyed the QPs of hosts still connected, and waited for the disk */
	print_stats();
	while (t.conns != NULL)
		conn_free(t.conns);
	doca_sta_subsystem_rm_ns(t.subs, t.ns);
	for (uint32_t i = 0; i < t.io_threads; i++) {
		softdoca_nvme_qpair_destroy(t.disk, &t.nq[i]);
		doca_mmap_destroy(t.mm[i][0]);
		doca_mmap_destroy(t.mm[i][1]);
	}
	doca_ctx_stop(doca_sta_as_ctx(t.sta));
	for (int k = 0; k < 100000; k++) {
		doca_pe_progress(t.pe);
		doca_ctx_get_state(doca_sta_as_ctx(t.sta), &st);
		if (st == DOCA_CTX_STATE_IDLE)
			break;
	}
	softdoca_nvme_close(t.disk);
	doca_mmap_destroy(t.db_mmap);
}

/* SIGUSR1: one line per namespace, its counters as STA keeps them (doca_sta_get_ns_stats). */
static void print_ns_stats(void)
{
	const struct doca_sta_eu_ctr_entry *e;
	uint16_t n;
	doca_error_t err = doca_sta_get_ns_stats(t.subs, t.ns, &e, &n);

	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "softdoca-sta-target: namespace statistics: %s\n", doca_error_get_descr(err));
		return;
	}
	printf("statistics: %s namespace 1:", t.nqn);
	for (uint16_t i = 0; i < n; i++)
		printf(" %s %llu", e[i].name, (unsigned long long)*e[i].val);
	printf("\n");
	fflush(stdout);
}

static void on_signal(int sig)
{
	int e = errno;

	if (sig == SIGUSR1)
		stats_wanted = 1;
	else
		stopping = 1;
	if (write(sig_pipe[1], "x", 1) < 0) {
		/* full (non-blocking): the flag is set, the loop sees it at its next wake-up */
	}
	errno = e;
}

static void usage(void)
{
	fprintf(stderr, "usage: softdoca-sta-target --addr IPV4 --port PORT --nqn NQN --backing-file PATH "
			"[--block-size 512|4096] [--io-threads N] [--size BYTES] [--allow-host NQN]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"addr", required_argument, NULL, 'a'},       {"port", required_argument, NULL, 'p'},
		{"nqn", required_argument, NULL, 'n'},        {"backing-file", required_argument, NULL, 'f'},
		{"block-size", required_argument, NULL, 'b'}, {"io-threads", required_argument, NULL, 't'},
		{"size", required_argument, NULL, 's'},       {"allow-host", required_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;
	struct addrinfo hints = {.ai_family = AF_INET, .ai_flags = AI_PASSIVE}, *res;
	int o;

	t.block_size = 512;
	t.io_threads = 1;
	t.size = 64ull << 20;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'a': t.addr = optarg; break;
		case 'p': t.port = optarg; break;
		case 'n': t.nqn = optarg; break;
		case 'f': t.path = optarg; break;
		case 'b': t.block_size = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 't': t.io_threads = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 's': t.size = strtoull(optarg, NULL, 0); break;
		case 'h': t.allow_host = optarg; break;
		default: usage();
		}
	}
	if (t.addr == NULL || t.port == NULL || t.nqn == NULL || t.path == NULL ||
	    (t.block_size != 512 && t.block_size != 4096) || t.io_threads == 0 || t.io_threads > MAX_IO)
		usage();
	pthread_mutex_init(&t.lock, NULL);
	/* the signals' pipe and handlers first: a SIGUSR1 during set-up must not end the target */
	if (pipe(sig_pipe) != 0 || fcntl(sig_pipe[0], F_SETFL, O_NONBLOCK) != 0 ||
	    fcntl(sig_pipe[1], F_SETFL, O_NONBLOCK) != 0)
		return 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);
	setup();
	for (uint32_t i = 0; i < t.io_threads; i++) {
		if (pipe(t.pipes[i]) != 0 || fcntl(t.pipes[i][0], F_SETFL, O_NONBLOCK) != 0 ||
		    pthread_create(&t.threads[i], NULL, io_thread, (void *)(uintptr_t)i) != 0) {
			fprintf(stderr, "softdoca-sta-target: cannot start IO thread %u\n", i);
			return 1;
		}
	}
	if (pipe(t.refused) != 0 || fcntl(t.refused[0], F_SETFL, O_NONBLOCK) != 0) {
		fprintf(stderr, "softdoca-sta-target: cannot make a pipe: %s\n", strerror(errno));
		return 1;
	}
	ch = rdma_create_event_channel();
	if (ch == NULL || fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK) != 0 ||
	    rdma_create_id(ch, &listen_id, NULL, RDMA_PS_TCP) != 0 ||
	    getaddrinfo(t.addr, t.port, &hints, &res) != 0 || rdma_bind_addr(listen_id, res->ai_addr) != 0 ||
	    rdma_listen(listen_id, 64) != 0) {
		fprintf(stderr, "softdoca-sta-target: cannot listen on %s:%s: %s\n", t.addr, t.port, strerror(errno));
		return 1;
	}
	freeaddrinfo(res);
	printf("listening on %s:%s nqn %s (%llu blocks of %u bytes, %u IO threads)\n", t.addr, t.port, t.nqn,
	       (unsigned long long)t.info.num_blocks, t.block_size, t.io_threads);
	fflush(stdout);
	while (!stopping) {
		struct pollfd p[4];
		nfds_t n = 0;
		struct conn *refused;

		p[n++] = (struct pollfd){.fd = sig_pipe[0], .events = POLLIN};
		p[n++] = (struct pollfd){.fd = ch->fd, .events = POLLIN};
		p[n++] = (struct pollfd){.fd = t.refused[0], .events = POLLIN};
		{ /* the STA context's PE: CQE-notify events */
			doca_notification_handle_t h;

			while (doca_pe_progress(t.pe))
				;
			doca_pe_get_notification_handle(t.pe, &h);
			doca_pe_request_notification(t.pe);
			p[n++] = (struct pollfd){.fd = h, .events = POLLIN};
		}
		if (poll(p, n, -1) < 0 && errno != EINTR)
			break;
		doca_pe_clear_notification(t.pe, 0);
		while (doca_pe_progress(t.pe))
			;
		if (p[1].revents & POLLIN)
			while (cm_event(ch))
				;
		/* refused connections: no event of theirs is un-acked here, between two */
		while (read(t.refused[0], &refused, sizeof(refused)) == (ssize_t)sizeof(refused)) {
			rdma_destroy_id(refused->id);
			conn_free(refused);
		}
		if (p[0].revents & POLLIN) {
			char b[16];

			while (read(sig_pipe[0], b, sizeof(b)) > 0)
				;
		}
		if (stats_wanted) {
			stats_wanted = 0;
			print_ns_stats();
		}
	}
	fprintf(stderr, "softdoca-sta-target: stopping\n");
	teardown();
	rdma_destroy_id(listen_id);
	rdma_destroy_event_channel(ch);
	return 0;
}
