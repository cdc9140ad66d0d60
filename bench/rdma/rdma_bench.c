/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/rdma: DOCA RDMA between two processes (initiator and target), beside ucx_perftest.
 *
 * The bench (orchestrator) runs each transport of the soft NIC in turn: the same-host one
 * (default: abstract unix socket + cross-memory attach) and TCP (SOFTDOCA_RDMA_TRANSPORT=tcp).
 * For each it forks and re-executes itself twice, as the target and as the initiator, joined by
 * a socketpair that carries the out-of-band descriptors (doca_rdma_export / doca_mmap_export_rdma)
 * and the phase commands. Only the public DOCA API is used (doca_rdma_*, doca_mmap_*, doca_buf_*,
 * doca_pe_*). Measured by the initiator:
 *
 *   write / read bandwidth   64 KiB and 1 MiB, WINDOW tasks in flight, one local and one remote
 *                            buffer of that size (as ucx_perftest ucp_put_bw / ucp_get do)
 *   send/receive latency     8-byte ping-pong, half round trip, median (tag_lat); the initiator
 *                            takes turns with two send tasks and waits for a send's completion
 *                            only before its task goes again (as ib_send_lat), the target
 *                            submits its one echo task again (another while it is still out)
 *   write latency            8-byte write ping-pong: each side writes a sequence number into the
 *                            other's memory and polls its own memory for the answer; half round
 *                            trip, median. That is what ucp_put_lat (and perftest ib_write_lat)
 *                            measure, so it is the row compared. Each side submits one write
 *                            task again and again (as ucx_perftest keeps its buffers). Also
 *                            shown, without a peer: write + its completion, one at a time, with
 *                            two doca_bufs and a task allocated and freed per write.
 *   Latency rounds (these and the floors below) are timed with the invariant TSC on x86-64, as
 *   ucx_perftest times its own (lat_now): one clock read per round, 11 ns here instead of
 *   clock_gettime's 27 under kvm-clock, as on UCX's side of the row.
 *   (every row of the same-host and TCP tables compared with ucx_perftest: the median of 3
 *   runs per side, softdoca's pair and UCX's alternating; the rocev2 table: its latency rows;
 *   the CMA copy loops beside the same-host rows: one run)
 *   fetch-add rate           8-byte atomic fetch-add on the target, WINDOW in flight, beside
 *                            ucp_fadd's message rate (which ucx_perftest reaches its own way:
 *                            over shared memory UCX adds in the peer's mapped memory itself)
 *
 * The target's CPU takes part only in send/receive and the write ping-pong; during the one-sided
 * phases it sleeps in read() on the socketpair. Data are checked after the read and write phases
 * and the atomic counter after the fetch-add phase.
 *
 * Beside them, in the same run: ucx_perftest as two processes (server, then client
 * `ucx_perftest localhost -p PORT -t TEST`) on a free port, over shared memory with UCX's
 * defaults (no UCX_TLS: UCX picks its shared-memory transports posix/sysv + cma itself), and over
 * TCP (UCX_TLS=tcp,self UCX_NET_DEVICES=lo). Targets (issue 13 section 6, on every path): bandwidth
 * >= 1x UCX, latency <= 1x UCX (the older ones, >= 0.8x and <= 2x, are met when these are).
 *
 * Then the rocev2 transport (issue 13 section 5): the pair on two cards with `wire = rocev2`, in
 * two network namespaces the bench makes, joined by a veth pair (addresses only inside them;
 * without root, two loopback addresses 127.79.x.1, and the table says so), beside softdoca's TCP
 * path (two `wire = stream` cards on the same addresses) and ucx_perftest with UCX_TLS=tcp,self
 * over the same veth, in the same run. Goals: bandwidth >= 1x UCX, and section 6's latency <= 1x
 * for both latency rows (section 5 asked send/receive <= 1.5x).
 *
 * After the same-host table: a bare store ping-pong between two processes on one shared page, the
 * floor the write ping-pong cannot go under on this machine, with both sides' rows over it.
 *
 *   rdma_bench [-n latency_iterations] [-w window] [-t shm|tcp|rocev2] [--no-ucx] [--mtu veth_mtu]
 *       [--lat-only]: the latency rows only (quick A/B runs); the other rows are left out
 *   rdma_bench --cost [-n iterations] [-t shm|tcp] [--conns N]: one task at a time, the target
 *       asleep, on the first of N connections of the context (default 1; the rest exported only), ns per
 *       task and per idle progress; under valgrind --tool=callgrind --trace-children=yes
 *       --toggle-collect=cost_write (cost_fadd, cost_idle) its instructions. Also a send/receive
 *       round trip between two RDMA contexts of the initiator, one thread driving both, with 4 and
 *       with 128 receives posted per side (--toggle-collect=cost_sendrecv_4, cost_sendrecv_128)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#define MAX_SIZE (1u << 20)
#define PP_OFF MAX_SIZE		  /* ping-pong area: 128 bytes, two cache lines */
/*
 * The write ping-pong's source word, on a line of its own: the peer writes our word (PP_OFF + 16),
 * and a store of ours into that line would wait for the peer's copy to be invalidated before our
 * write into the peer could be seen (x86 keeps stores in order). ucx_perftest's put_lat keeps its
 * send buffer apart from its receive buffer the same way.
 */
#define PP_SRC_OFF (PP_OFF + 64)
#define AT_OFF (MAX_SIZE + 128)	  /* atomic counter (target) / results (initiator): 8 per task */
#define MEM_LEN (MAX_SIZE + 4096) /* AT_OFF + 8 * MAX_WINDOW fits */
#define MAX_WINDOW 256
#define RECV_POSTED 4 /* receives the target keeps posted */

#define TRY(expr) \
	do { \
		doca_error_t err_ = (expr); \
		if (err_ != DOCA_SUCCESS) \
			die(#expr, err_); \
	} while (0)

static struct {
	bool target;
	int oob;
	unsigned window;
	uint64_t iters;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_ctx *ctx;
	struct doca_rdma_connection *conn;
	struct doca_mmap *mmap, *remote;
	struct doca_buf_inventory *inv;
	uint8_t *mem;
	uint8_t *remote_addr;
	size_t remote_len;
	enum doca_ctx_states state;
	bool stopping;
	/* bandwidth / rate phases */
	uint64_t posted, completed, goal;
	/* ping-pong */
	uint64_t received, sends_done;
	struct doca_rdma_task_send *echo_task; /* the target's reply, submitted again (tag_lat's server keeps its buffers) */
	bool echo_busy;
	bool lat_only; /* the initiator measures the latency rows only (the orchestrator's repeats) */
	bool cost;     /* --cost: one task at a time, the target asleep (for callgrind) */
	unsigned conns; /* --cost --conns N: the measured connection is the first of N (the rest only exported) */
	bool recv_done;
	/* orchestrator: ucx_perftest runs beside softdoca */
	bool ucx;
	unsigned mtu; /* the rocev2 network's veth */
} S = {.window = 32, .iters = 20000, .mtu = 9000};

static void die(const char *what, doca_error_t err)
{
	fprintf(stderr, "rdma_bench (%s): %s: %s\n", S.target ? "target" : "initiator", what,
		doca_error_get_name(err));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The latency rounds' clock: the TSC where it is invariant (x86-64), as ucx_perftest times its
 * own rounds (ucs_get_time() reads rdtsc), so both sides of a row pay the same for their clock.
 * Each round holds about one read: 11 ns for rdtsc on the VMs here against 27 ns for
 * clock_gettime under kvm-clock. Elsewhere, clock_gettime. lat_clock_init() calibrates the TSC
 * against CLOCK_MONOTONIC for 20 ms, outside any timed loop.
 */
static double tsc_per_ns; /* 0: rounds are timed with clock_gettime */

static void lat_clock_init(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;
	uint64_t n0, t0, n1;

	if (tsc_per_ns > 0 || !__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8)))
		return; /* calibrated, or no invariant TSC */
	n0 = now_ns();
	t0 = __rdtsc();
	while ((n1 = now_ns()) - n0 < 20000000u)
		;
	tsc_per_ns = (double)(__rdtsc() - t0) / (double)(n1 - n0);
#endif
}

/* A latency round's time stamp, in the clock's own ticks. */
static inline uint64_t lat_now(void)
{
#if defined(__x86_64__)
	if (tsc_per_ns > 0)
		return __rdtsc();
#endif
	return now_ns();
}

/* Ticks of lat_now() in microseconds. */
static double lat_us(uint64_t ticks)
{
	return (tsc_per_ns > 0 ? (double)ticks / tsc_per_ns : (double)ticks) / 1000.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- out of band: length-prefixed blobs and 9-byte commands over the socketpair ---- */

static void oob_write(const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len > 0) {
		ssize_t n = write(S.oob, b, len);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			fprintf(stderr, "rdma_bench: out-of-band write: %s\n", strerror(errno));
			exit(1);
		}
		b += n;
		len -= (size_t)n;
	}
}

static void oob_read(void *p, size_t len)
{
	uint8_t *b = p;

	while (len > 0) {
		ssize_t n = read(S.oob, b, len);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			fprintf(stderr, "rdma_bench (%s): out-of-band peer gone\n", S.target ? "target" : "initiator");
			exit(1);
		}
		b += n;
		len -= (size_t)n;
	}
}

static void send_blob(const void *p, size_t len)
{
	uint64_t l = len;

	oob_write(&l, sizeof(l));
	oob_write(p, len);
}

static void *recv_blob(size_t *len)
{
	uint64_t l;
	void *p;

	oob_read(&l, sizeof(l));
	if (l > (1u << 20)) {
		fprintf(stderr, "rdma_bench: out-of-band blob of %llu bytes\n", (unsigned long long)l);
		exit(1);
	}
	p = malloc(l ? l : 1);
	oob_read(p, l);
	*len = l;
	return p;
}

static void send_cmd(char c, uint64_t arg)
{
	uint8_t m[9];

	m[0] = (uint8_t)c;
	memcpy(m + 1, &arg, sizeof(arg));
	oob_write(m, sizeof(m));
}

static char recv_cmd(uint64_t *arg)
{
	uint8_t m[9];

	oob_read(m, sizeof(m));
	memcpy(arg, m + 1, sizeof(*arg));
	return (char)m[0];
}

/* ---- buffers ---- */

static struct doca_buf *buf_data(struct doca_mmap *mm, void *addr, size_t len)
{
	struct doca_buf *b;

	TRY(doca_buf_inventory_buf_get_by_data(S.inv, mm, addr, len, &b));
	return b;
}

static struct doca_buf *buf_addr(struct doca_mmap *mm, void *addr, size_t len)
{
	struct doca_buf *b;

	TRY(doca_buf_inventory_buf_get_by_addr(S.inv, mm, addr, len, &b));
	return b;
}

/* ---- task callbacks ---- */

static void task_failed(struct doca_task *t, const char *what)
{
	if (S.stopping) { /* flushed by doca_ctx_stop */
		doca_task_free(t);
		return;
	}
	die(what, doca_task_get_status(t));
}

static void write_done(struct doca_rdma_task_write *t, union doca_data u, union doca_data c)
{
	(void)c;
	S.completed++;
	if (u.u64 == 1) { /* a bandwidth task: resubmit while the goal is not reached */
		if (S.posted < S.goal) {
			S.posted++;
			doca_buf_reset_data_len(doca_rdma_task_write_get_dst_buf(t));
			TRY(doca_task_submit(doca_rdma_task_write_as_task(t)));
		}
		return;
	}
	if (u.u64 == 2) /* a ping-pong task: its owner submits it again */
		return;
	/* a latency task (one at a time): freed here */
	doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_write_get_src_buf(t), NULL);
	doca_buf_dec_refcount(doca_rdma_task_write_get_dst_buf(t), NULL);
	doca_task_free(doca_rdma_task_write_as_task(t));
}

static void write_fail(struct doca_rdma_task_write *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	task_failed(doca_rdma_task_write_as_task(t), "write task");
}

static void read_done(struct doca_rdma_task_read *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	S.completed++;
	if (S.posted < S.goal) {
		S.posted++;
		doca_buf_reset_data_len(doca_rdma_task_read_get_dst_buf(t));
		TRY(doca_task_submit(doca_rdma_task_read_as_task(t)));
	}
}

static void read_fail(struct doca_rdma_task_read *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	task_failed(doca_rdma_task_read_as_task(t), "read task");
}

static void fadd_done(struct doca_rdma_task_atomic_fetch_add *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	S.completed++;
	if (S.posted < S.goal) {
		S.posted++;
		doca_buf_reset_data_len(doca_rdma_task_atomic_fetch_add_get_result_buf(t));
		TRY(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(t)));
	}
}

static void fadd_fail(struct doca_rdma_task_atomic_fetch_add *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	task_failed(doca_rdma_task_atomic_fetch_add_as_task(t), "fetch-add task");
}

static void send_done(struct doca_rdma_task_send *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	S.sends_done++;
	if (S.target && t == S.echo_task) {
		S.echo_busy = false;
	} else if (S.target) { /* an echo sent while the kept one was still out */
		doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(t), NULL);
		doca_task_free(doca_rdma_task_send_as_task(t));
	}
}

static void send_fail(struct doca_rdma_task_send *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	task_failed(doca_rdma_task_send_as_task(t), "send task");
}

static void echo(void);

static void recv_done(struct doca_rdma_task_receive *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	S.received++;
	if (S.target) {
		echo();
		/* the receive goes back to the queue at once */
		doca_buf_reset_data_len(doca_rdma_task_receive_get_dst_buf(t));
		TRY(doca_task_submit(doca_rdma_task_receive_as_task(t)));
	} else {
		S.recv_done = true;
	}
}

static void recv_fail(struct doca_rdma_task_receive *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	if (S.stopping) {
		doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(t), NULL);
		doca_task_free(doca_rdma_task_receive_as_task(t));
		return;
	}
	die("receive task", doca_task_get_status(doca_rdma_task_receive_as_task(t)));
}

static void state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	S.state = next;
}

/* ---- set-up: device, memory, context, connection ---- */

static void open_device(void)
{
	struct doca_devinfo **list;
	uint32_t n;

	TRY(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && S.dev == NULL; i++) {
		if (doca_rdma_cap_task_write_is_supported(list[i]) == DOCA_SUCCESS &&
		    doca_rdma_cap_task_read_is_supported(list[i]) == DOCA_SUCCESS &&
		    doca_rdma_cap_task_send_is_supported(list[i]) == DOCA_SUCCESS &&
		    doca_rdma_cap_task_receive_is_supported(list[i]) == DOCA_SUCCESS &&
		    doca_rdma_cap_task_atomic_fetch_add_is_supported(list[i]) == DOCA_SUCCESS)
			TRY(doca_dev_open(list[i], &S.dev));
	}
	doca_devinfo_destroy_list(list);
	if (S.dev == NULL)
		die("no device with RDMA write, read, send, receive and fetch-add", DOCA_ERROR_NOT_FOUND);
}

static void setup(void)
{
	const uint32_t perm = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
			      DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	const void *desc;
	size_t desc_len, peer_len;
	void *peer;
	unsigned tasks = S.window + 8;
	doca_error_t err;

	open_device();
	TRY(doca_pe_create(&S.pe));
	S.mem = aligned_alloc(4096, MEM_LEN);
	if (S.mem == NULL)
		die("memory", DOCA_ERROR_NO_MEMORY);
	memset(S.mem, S.target ? 0x5a : 0xa5, MEM_LEN);
	memset(S.mem + PP_OFF, 0, MEM_LEN - PP_OFF);
	TRY(doca_mmap_create(&S.mmap));
	TRY(doca_mmap_add_dev(S.mmap, S.dev));
	TRY(doca_mmap_set_memrange(S.mmap, S.mem, MEM_LEN));
	TRY(doca_mmap_set_permissions(S.mmap, perm));
	TRY(doca_mmap_start(S.mmap));
	TRY(doca_buf_inventory_create(4 * tasks + 16, &S.inv));
	TRY(doca_buf_inventory_start(S.inv));

	TRY(doca_rdma_create(S.dev, &S.rdma));
	S.ctx = doca_rdma_as_ctx(S.rdma);
	TRY(doca_rdma_set_permissions(S.rdma, perm));
	if (S.conns > 1)
		TRY(doca_rdma_set_max_num_connections(S.rdma, (uint16_t)S.conns));
	err = doca_rdma_set_send_queue_size(S.rdma, 2 * tasks);
	if (err != DOCA_SUCCESS)
		fprintf(stderr, "rdma_bench: doca_rdma_set_send_queue_size(%u): %s (kept the default)\n", 2 * tasks,
			doca_error_get_name(err));
	TRY(doca_rdma_task_write_set_conf(S.rdma, write_done, write_fail, tasks));
	TRY(doca_rdma_task_read_set_conf(S.rdma, read_done, read_fail, tasks));
	TRY(doca_rdma_task_send_set_conf(S.rdma, send_done, send_fail, tasks));
	TRY(doca_rdma_task_receive_set_conf(S.rdma, recv_done, recv_fail, tasks));
	TRY(doca_rdma_task_atomic_fetch_add_set_conf(S.rdma, fadd_done, fadd_fail, tasks));
	TRY(doca_pe_connect_ctx(S.pe, S.ctx));
	TRY(doca_ctx_set_state_changed_cb(S.ctx, state_cb));
	err = doca_ctx_start(S.ctx);
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		die("doca_ctx_start", err);
	while (S.state != DOCA_CTX_STATE_RUNNING)
		doca_pe_progress(S.pe);

	/* Connection: both export, swap descriptors, both connect */
	TRY(doca_rdma_export(S.rdma, &desc, &desc_len, &S.conn));
	send_blob(desc, desc_len);
	peer = recv_blob(&peer_len);
	TRY(doca_rdma_connect(S.rdma, peer, peer_len, S.conn));
	free(peer);
	for (unsigned i = 1; !S.target && i < S.conns; i++) { /* more connections of the context, never used */
		struct doca_rdma_connection *c;

		TRY(doca_rdma_export(S.rdma, &desc, &desc_len, &c));
	}

	/* Memory: both export theirs for RDMA (the initiator's is the write ping-pong's target) */
	TRY(doca_mmap_export_rdma(S.mmap, S.dev, &desc, &desc_len));
	send_blob(desc, desc_len);
	peer = recv_blob(&peer_len);
	TRY(doca_mmap_create_from_export(NULL, peer, peer_len, S.dev, &S.remote));
	free(peer);
	{
		void *addr;

		TRY(doca_mmap_get_memrange(S.remote, &addr, &S.remote_len));
		S.remote_addr = addr;
	}
	if (S.remote_len < MEM_LEN)
		die("the peer's exported memory is too short", DOCA_ERROR_INVALID_VALUE);
}

static void teardown(void)
{
	doca_error_t err;

	S.stopping = true;
	err = doca_ctx_stop(S.ctx);
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		die("doca_ctx_stop", err);
	while (S.state != DOCA_CTX_STATE_IDLE)
		doca_pe_progress(S.pe);
	TRY(doca_rdma_destroy(S.rdma));
	TRY(doca_mmap_destroy(S.remote));
	TRY(doca_buf_inventory_stop(S.inv));
	TRY(doca_buf_inventory_destroy(S.inv));
	TRY(doca_mmap_destroy(S.mmap));
	TRY(doca_pe_destroy(S.pe));
	TRY(doca_dev_close(S.dev));
	free(S.mem);
}

/* ---- target ---- */

static void echo(void)
{
	struct doca_rdma_task_send *t = S.echo_task;

	if (S.echo_busy) /* (its completion has not come back yet: another task) */
		TRY(doca_rdma_task_send_allocate_init(S.rdma, S.conn, buf_data(S.mmap, S.mem + PP_OFF + 8, 8),
						      (union doca_data){.u64 = 0}, &t));
	else
		S.echo_busy = true;
	TRY(doca_task_submit(doca_rdma_task_send_as_task(t)));
}

/*
 * One write task per side for the whole ping-pong, submitted again for each round, as
 * ucx_perftest keeps its buffers and needs no request per put. Returns it ready: the caller's
 * first submit waits for nothing.
 */
static struct doca_rdma_task_write *pingpong_task(void)
{
	struct doca_rdma_task_write *t;

	TRY(doca_rdma_task_write_allocate_init(S.rdma, S.conn, buf_data(S.mmap, S.mem + PP_SRC_OFF, 8),
					       buf_addr(S.remote, S.remote_addr + PP_OFF + 16, 8),
					       (union doca_data){.u64 = 2}, &t));
	return t;
}

/* Writes sequence number i into the peer's ping-pong word with the (completed) task t. */
static void pingpong_put(struct doca_rdma_task_write *t, uint64_t i)
{
	*(uint64_t *)(void *)(S.mem + PP_SRC_OFF) = i;
	doca_buf_reset_data_len(doca_rdma_task_write_get_dst_buf(t));
	TRY(doca_task_submit(doca_rdma_task_write_as_task(t)));
}

static void pingpong_task_free(struct doca_rdma_task_write *t)
{
	doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_write_get_src_buf(t), NULL);
	doca_buf_dec_refcount(doca_rdma_task_write_get_dst_buf(t), NULL);
	doca_task_free(doca_rdma_task_write_as_task(t));
}

/*
 * Write ping-pong, target side: wait for sequence i in our memory, write i into the initiator's.
 * `base` is our word as it was before we answered 'k': the initiator's first write may land
 * right after the 'k' (our service thread places it while we are descheduled).
 */
static void target_write_pingpong(uint64_t n, uint64_t base)
{
	volatile uint64_t *mine = (volatile uint64_t *)(void *)(S.mem + PP_OFF + 16);
	struct doca_rdma_task_write *t = pingpong_task();

	S.completed = 0;
	for (uint64_t i = base + 1; i <= base + n; i++) {
		/* our word, and our previous write's completion (the task is submitted again) */
		while (__atomic_load_n(mine, __ATOMIC_ACQUIRE) != i || S.completed < i - base - 1)
			doca_pe_progress(S.pe);
		pingpong_put(t, i);
	}
	while (S.completed < n)
		doca_pe_progress(S.pe);
	pingpong_task_free(t);
}

static int run_target(void)
{
	struct doca_rdma_task_receive *recv[RECV_POSTED];

	setup();
	for (int i = 0; i < RECV_POSTED; i++) {
		TRY(doca_rdma_task_receive_allocate_init(S.rdma, buf_addr(S.mmap, S.mem + PP_OFF + 32 + 8 * i, 8),
							 (union doca_data){.u64 = 0}, &recv[i]));
		TRY(doca_task_submit(doca_rdma_task_receive_as_task(recv[i])));
	}
	send_cmd('r', 0); /* receives posted */
	for (;;) {
		uint64_t arg, bad = 0;
		char c = recv_cmd(&arg);

		switch (c) {
		case 'P': /* send/receive ping-pong: echo `arg` messages */
			S.received = 0;
			S.sends_done = 0;
			TRY(doca_rdma_task_send_allocate_init(S.rdma, S.conn, buf_data(S.mmap, S.mem + PP_OFF + 8, 8),
							      (union doca_data){.u64 = 0}, &S.echo_task));
			send_cmd('k', 0);
			while (S.received < arg || S.sends_done < arg)
				doca_pe_progress(S.pe);
			doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(S.echo_task), NULL);
			doca_task_free(doca_rdma_task_send_as_task(S.echo_task));
			S.echo_task = NULL;
			break;
		case 'L': {
			uint64_t base = *(volatile uint64_t *)(void *)(S.mem + PP_OFF + 16);

			S.completed = 0;
			send_cmd('k', 0);
			target_write_pingpong(arg, base);
			break;
		}
		case 'V': /* the initiator wrote arg bytes of 0xa5 at offset 0 */
			for (uint64_t i = 0; i < arg; i++)
				bad += S.mem[i] != 0xa5;
			send_cmd('v', bad);
			break;
		case 'C': /* the fetch-add counter */
			send_cmd('c', __atomic_load_n((uint64_t *)(void *)(S.mem + AT_OFF), __ATOMIC_ACQUIRE));
			break;
		case 'Q': /* stop first: our posted receives are flushed by our own stop */
			teardown();
			send_cmd('q', 0);
			return 0;
		default:
			fprintf(stderr, "rdma_bench (target): unknown command %d\n", c);
			return 1;
		}
	}
}

/* ---- initiator ---- */

/*
 * Send/receive ping-pong: returns the median half round trip in us. Two send tasks take turns,
 * each with its own source word, and a send's completion (the peer's ACK) is waited for only
 * before its task goes again, two rounds later: as perftest's ib_send_lat, which signals one
 * send in cq_mod, and as ucx_perftest's tag_lat, whose 8-byte sends complete locally. The round
 * trip is the messages', not the ACKs'.
 */
static double __attribute__((noinline)) pingpong_send(uint64_t n)
{
	struct doca_rdma_task_send *st[2];
	struct doca_rdma_task_receive *rt;
	uint64_t *rtt = calloc(n, sizeof(*rtt)), warm = n / 10 + 1, arg;
	double med;

	lat_clock_init();
	send_cmd('P', n + warm);
	if (recv_cmd(&arg) != 'k')
		die("target did not start the ping-pong", DOCA_ERROR_UNEXPECTED);
	for (int k = 0; k < 2; k++)
		TRY(doca_rdma_task_send_allocate_init(S.rdma, S.conn, buf_data(S.mmap, S.mem + PP_OFF + 40 * k, 8),
						      (union doca_data){.u64 = 0}, &st[k]));
	TRY(doca_rdma_task_receive_allocate_init(S.rdma, buf_addr(S.mmap, S.mem + PP_OFF + 8, 8),
						 (union doca_data){.u64 = 0}, &rt));
	S.sends_done = 0;
	for (uint64_t i = 0; i < n + warm; i++) {
		uint64_t t0;

		while (S.sends_done + 2 <= i) /* the send of round i - 2, whose task goes again */
			doca_pe_progress(S.pe);
		S.recv_done = false;
		doca_buf_reset_data_len(doca_rdma_task_receive_get_dst_buf(rt));
		TRY(doca_task_submit(doca_rdma_task_receive_as_task(rt)));
		*(uint64_t *)(void *)(S.mem + PP_OFF + 40 * (i % 2)) = i;
		t0 = lat_now();
		TRY(doca_task_submit(doca_rdma_task_send_as_task(st[i % 2])));
		while (!S.recv_done)
			doca_pe_progress(S.pe);
		if (i >= warm)
			rtt[i - warm] = lat_now() - t0;
	}
	while (S.sends_done < n + warm)
		doca_pe_progress(S.pe);
	for (int k = 0; k < 2; k++) {
		doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(st[k]), NULL);
		doca_task_free(doca_rdma_task_send_as_task(st[k]));
	}
	doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(rt), NULL);
	doca_task_free(doca_rdma_task_receive_as_task(rt));
	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	med = lat_us(rtt[n / 2]) / 2;
	free(rtt);
	return med;
}

/* Write ping-pong (as ucp_put_lat): returns the median half round trip in us. */
static double __attribute__((noinline)) pingpong_write(uint64_t n)
{
	volatile uint64_t *mine = (volatile uint64_t *)(void *)(S.mem + PP_OFF + 16);
	uint64_t *rtt = calloc(n, sizeof(*rtt)), warm = n / 10 + 1, arg, base = *mine;
	struct doca_rdma_task_write *t;
	double med;

	lat_clock_init();
	send_cmd('L', n + warm);
	if (recv_cmd(&arg) != 'k')
		die("target did not start the write ping-pong", DOCA_ERROR_UNEXPECTED);
	t = pingpong_task();
	S.completed = 0;
	for (uint64_t i = base + 1; i <= base + n + warm; i++) {
		uint64_t t0;

		while (S.completed < i - base - 1) /* the task is submitted again */
			doca_pe_progress(S.pe);
		t0 = lat_now();
		pingpong_put(t, i);
		while (__atomic_load_n(mine, __ATOMIC_ACQUIRE) != i)
			doca_pe_progress(S.pe);
		if (i - base > warm)
			rtt[i - base - warm - 1] = lat_now() - t0;
	}
	while (S.completed < n + warm)
		doca_pe_progress(S.pe);
	pingpong_task_free(t);
	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	med = lat_us(rtt[n / 2]) / 2;
	free(rtt);
	return med;
}

/* One 8-byte write at a time, submit to completion: returns the median in us. */
static double write_completion(uint64_t n)
{
	uint64_t *lat = calloc(n, sizeof(*lat)), warm = n / 10 + 1;
	double med;

	lat_clock_init();
	S.completed = 0;
	for (uint64_t i = 0; i < n + warm; i++) {
		struct doca_rdma_task_write *t;
		uint64_t t0 = lat_now();

		TRY(doca_rdma_task_write_allocate_init(S.rdma, S.conn, buf_data(S.mmap, S.mem + PP_OFF + 32, 8),
						       buf_addr(S.remote, S.remote_addr + PP_OFF + 56, 8),
						       (union doca_data){.u64 = 0}, &t));
		TRY(doca_task_submit(doca_rdma_task_write_as_task(t)));
		while (S.completed <= i)
			doca_pe_progress(S.pe);
		if (i >= warm)
			lat[i - warm] = lat_now() - t0;
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	med = lat_us(lat[n / 2]);
	free(lat);
	return med;
}


enum bw_kind { BW_WRITE, BW_READ, BW_FADD };

/* Bytes per bandwidth case: iterations / 80 MiB (250 MiB by default), at least 16 MiB. */
static uint64_t bw_bytes(void)
{
	uint64_t mib = S.iters / 80;

	return (mib < 16 ? 16 : mib) << 20;
}

/* `n` operations of `size` bytes with the window kept full; returns operations per second. */
static double window_run(enum bw_kind kind, size_t size, uint64_t n)
{
	struct doca_rdma_task_write *wt[MAX_WINDOW];
	struct doca_rdma_task_read *rt[MAX_WINDOW];
	struct doca_rdma_task_atomic_fetch_add *ft[MAX_WINDOW];
	unsigned w = S.window;
	union doca_data ud = {.u64 = 1};
	uint64_t t0, t1;

	for (unsigned i = 0; i < w; i++) {
		if (kind == BW_WRITE)
			TRY(doca_rdma_task_write_allocate_init(S.rdma, S.conn, buf_data(S.mmap, S.mem, size),
							       buf_addr(S.remote, S.remote_addr, size), ud, &wt[i]));
		else if (kind == BW_READ)
			TRY(doca_rdma_task_read_allocate_init(S.rdma, S.conn, buf_data(S.remote, S.remote_addr, size),
							      buf_addr(S.mmap, S.mem, size), ud, &rt[i]));
		else
			TRY(doca_rdma_task_atomic_fetch_add_allocate_init(
				S.rdma, S.conn, buf_data(S.remote, S.remote_addr + AT_OFF, 8),
				buf_addr(S.mmap, S.mem + AT_OFF + 8 * i, 8), 1, ud, &ft[i]));
	}
	if (n < w)
		n = w;
	S.completed = 0;
	S.goal = n;
	S.posted = w;
	t0 = now_ns();
	for (unsigned i = 0; i < w; i++)
		TRY(doca_task_submit(kind == BW_WRITE  ? doca_rdma_task_write_as_task(wt[i])
				     : kind == BW_READ ? doca_rdma_task_read_as_task(rt[i])
						       : doca_rdma_task_atomic_fetch_add_as_task(ft[i])));
	while (S.completed < n)
		doca_pe_progress(S.pe);
	t1 = now_ns();
	for (unsigned i = 0; i < w; i++) {
		if (kind == BW_WRITE) {
			doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_write_get_src_buf(wt[i]), NULL);
			doca_buf_dec_refcount(doca_rdma_task_write_get_dst_buf(wt[i]), NULL);
			doca_task_free(doca_rdma_task_write_as_task(wt[i]));
		} else if (kind == BW_READ) {
			doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_read_get_src_buf(rt[i]), NULL);
			doca_buf_dec_refcount(doca_rdma_task_read_get_dst_buf(rt[i]), NULL);
			doca_task_free(doca_rdma_task_read_as_task(rt[i]));
		} else {
			doca_buf_dec_refcount(doca_rdma_task_atomic_fetch_add_get_dst_buf(ft[i]), NULL);
			doca_buf_dec_refcount(doca_rdma_task_atomic_fetch_add_get_result_buf(ft[i]), NULL);
			doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(ft[i]));
		}
	}
	return (double)n / ((double)(t1 - t0) / 1e9);
}

/* A warm-up tenth, then the measured run; returns MB/s (2^20 bytes, as ucx_perftest). */
static double bandwidth(enum bw_kind kind, size_t size, uint64_t bytes)
{
	uint64_t n = bytes / size;

	window_run(kind, size, n / 10);
	return window_run(kind, size, n) * (double)size / (1 << 20);
}

/*
 * --cost: the software around one task, without a peer's CPU in the loop. One write task (8
 * bytes) and one fetch-add task, each submitted again as soon as its completion came, n times,
 * while the target sleeps. Returns ns per submit + completion; under callgrind,
 * --toggle-collect=cost_write / cost_fadd / cost_idle counts the instructions of exactly these
 * loops (cost_idle: doca_pe_progress with nothing in flight).
 */
static double __attribute__((noinline)) cost_write(uint64_t n)
{
	struct doca_rdma_task_write *t = pingpong_task();
	uint64_t t0 = now_ns();

	S.completed = 0;
	for (uint64_t i = 0; i < n; i++) {
		pingpong_put(t, i);
		while (S.completed <= i)
			doca_pe_progress(S.pe);
	}
	t0 = now_ns() - t0;
	pingpong_task_free(t);
	return (double)t0 / (double)n;
}

static double __attribute__((noinline)) cost_fadd(uint64_t n)
{
	struct doca_rdma_task_atomic_fetch_add *t;
	uint64_t t0;

	TRY(doca_rdma_task_atomic_fetch_add_allocate_init(S.rdma, S.conn, buf_data(S.remote, S.remote_addr + AT_OFF, 8),
							  buf_addr(S.mmap, S.mem + AT_OFF, 8), 1,
							  (union doca_data){.u64 = 0}, &t));
	S.completed = 0;
	S.posted = S.goal = 0; /* fadd_done does not resubmit */
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		doca_buf_reset_data_len(doca_rdma_task_atomic_fetch_add_get_result_buf(t));
		TRY(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(t)));
		while (S.completed <= i)
			doca_pe_progress(S.pe);
	}
	t0 = now_ns() - t0;
	doca_buf_dec_refcount(doca_rdma_task_atomic_fetch_add_get_dst_buf(t), NULL);
	doca_buf_dec_refcount(doca_rdma_task_atomic_fetch_add_get_result_buf(t), NULL);
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(t));
	return (double)t0 / (double)n;
}

/* An idle doca_pe_progress (the connection up, nothing in flight): what a poller pays per look. */
static double __attribute__((noinline)) cost_idle(uint64_t n)
{
	uint64_t t0 = now_ns();

	for (uint64_t i = 0; i < n; i++)
		if (doca_pe_progress(S.pe) != 0)
			die("an idle progress made progress", DOCA_ERROR_UNEXPECTED);
	return (double)(now_ns() - t0) / (double)n;
}

/*
 * --cost, send/receive: a round trip between two RDMA contexts of this process (a and b, on the
 * bench's device), one thread driving both: a sends, b answers from its receive's callback, and
 * each progresses until its part is done. Each receive is posted again from its callback, so a
 * side always has `recvs` posted: what a completion costs with many receives waiting beside it.
 */
struct lb_side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	uint8_t *mem;
	struct doca_rdma_connection *conn;
	struct doca_rdma_task_send *send;
	enum doca_ctx_states state;
	uint64_t recvd, sent;
	bool echo, stopping;
};

static void lb_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ctx;
	(void)prev;
	((struct lb_side *)ud.ptr)->state = next;
}

static void lb_send_done(struct doca_rdma_task_send *t, union doca_data u, union doca_data c)
{
	(void)t;
	(void)u;
	((struct lb_side *)c.ptr)->sent++;
}

static void lb_send_fail(struct doca_rdma_task_send *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	task_failed(doca_rdma_task_send_as_task(t), "loopback send task");
}

static void lb_recv_done(struct doca_rdma_task_receive *t, union doca_data u, union doca_data c)
{
	struct lb_side *s = c.ptr;

	(void)u;
	s->recvd++;
	if (s->echo)
		TRY(doca_task_submit(doca_rdma_task_send_as_task(s->send)));
	doca_buf_reset_data_len(doca_rdma_task_receive_get_dst_buf(t));
	TRY(doca_task_submit(doca_rdma_task_receive_as_task(t)));
}

static void lb_recv_fail(struct doca_rdma_task_receive *t, union doca_data u, union doca_data c)
{
	(void)u;
	if (!((struct lb_side *)c.ptr)->stopping)
		task_failed(doca_rdma_task_receive_as_task(t), "loopback receive task");
	doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(t), NULL); /* flushed by the stop */
	doca_task_free(doca_rdma_task_receive_as_task(t));
}

static void lb_open(struct lb_side *s, unsigned recvs)
{
	const size_t len = 64 * ((size_t)recvs + 1);
	struct doca_ctx *ctx;
	doca_error_t err;

	memset(s, 0, sizeof(*s));
	s->mem = aligned_alloc(64, len);
	if (s->mem == NULL)
		die("memory", DOCA_ERROR_NO_MEMORY);
	memset(s->mem, 0, len);
	TRY(doca_pe_create(&s->pe));
	TRY(doca_mmap_create(&s->mmap));
	TRY(doca_mmap_add_dev(s->mmap, S.dev));
	TRY(doca_mmap_set_memrange(s->mmap, s->mem, len));
	TRY(doca_mmap_set_permissions(s->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	TRY(doca_mmap_start(s->mmap));
	TRY(doca_buf_inventory_create(recvs + 2, &s->inv));
	TRY(doca_buf_inventory_start(s->inv));
	TRY(doca_rdma_create(S.dev, &s->rdma));
	ctx = doca_rdma_as_ctx(s->rdma);
	err = doca_rdma_set_recv_queue_size(s->rdma, recvs);
	if (err != DOCA_SUCCESS)
		fprintf(stderr, "rdma_bench: doca_rdma_set_recv_queue_size(%u): %s (kept the default)\n", recvs,
			doca_error_get_name(err));
	TRY(doca_rdma_task_send_set_conf(s->rdma, lb_send_done, lb_send_fail, 1));
	TRY(doca_rdma_task_receive_set_conf(s->rdma, lb_recv_done, lb_recv_fail, recvs));
	TRY(doca_pe_connect_ctx(s->pe, ctx));
	TRY(doca_ctx_set_user_data(ctx, (union doca_data){.ptr = s}));
	TRY(doca_ctx_set_state_changed_cb(ctx, lb_state));
	err = doca_ctx_start(ctx);
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		die("doca_ctx_start (loopback pair)", err);
	while (s->state != DOCA_CTX_STATE_RUNNING)
		doca_pe_progress(s->pe);
}

/* Both exported and connected; receives posted, one send task each (8 bytes from offset 0). */
static void lb_connect(struct lb_side *a, struct lb_side *b, unsigned recvs)
{
	struct lb_side *side[2] = {a, b};
	const void *desc;
	size_t len[2];
	void *d[2];

	for (int i = 0; i < 2; i++) {
		TRY(doca_rdma_export(side[i]->rdma, &desc, &len[i], &side[i]->conn));
		d[i] = malloc(len[i]);
		if (d[i] == NULL)
			die("memory", DOCA_ERROR_NO_MEMORY);
		memcpy(d[i], desc, len[i]);
	}
	for (int i = 0; i < 2; i++) {
		struct lb_side *s = side[i];
		struct doca_buf *src;

		TRY(doca_rdma_connect(s->rdma, d[!i], len[!i], s->conn));
		free(d[!i]);
		for (unsigned k = 0; k < recvs; k++) {
			struct doca_rdma_task_receive *t;
			struct doca_buf *dst;

			TRY(doca_buf_inventory_buf_get_by_addr(s->inv, s->mmap, s->mem + 64 * (k + 1), 64, &dst));
			TRY(doca_rdma_task_receive_allocate_init(s->rdma, dst, (union doca_data){.u64 = 0}, &t));
			TRY(doca_task_submit(doca_rdma_task_receive_as_task(t)));
		}
		TRY(doca_buf_inventory_buf_get_by_data(s->inv, s->mmap, s->mem, 8, &src));
		TRY(doca_rdma_task_send_allocate_init(s->rdma, s->conn, src, (union doca_data){.u64 = 0}, &s->send));
	}
	b->echo = true;
}

static void lb_close(struct lb_side *s)
{
	doca_error_t err;

	doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(s->send), NULL);
	doca_task_free(doca_rdma_task_send_as_task(s->send));
	s->stopping = true;
	err = doca_ctx_stop(doca_rdma_as_ctx(s->rdma));
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		die("doca_ctx_stop (loopback pair)", err);
	while (s->state != DOCA_CTX_STATE_IDLE)
		doca_pe_progress(s->pe);
	TRY(doca_rdma_destroy(s->rdma));
	TRY(doca_buf_inventory_stop(s->inv));
	TRY(doca_buf_inventory_destroy(s->inv));
	TRY(doca_mmap_destroy(s->mmap));
	TRY(doca_pe_destroy(s->pe));
	free(s->mem);
}

/* n round trips; every task of a round is complete when it returns. */
static inline void lb_rounds(struct lb_side *a, struct lb_side *b, uint64_t n)
{
	a->recvd = a->sent = b->recvd = b->sent = 0;
	for (uint64_t i = 0; i < n; i++) {
		TRY(doca_task_submit(doca_rdma_task_send_as_task(a->send)));
		while (b->recvd <= i) /* b's answer leaves from this receive's callback */
			doca_pe_progress(b->pe);
		while (a->recvd <= i || a->sent <= i)
			doca_pe_progress(a->pe);
		while (b->sent <= i)
			doca_pe_progress(b->pe);
	}
}

/* (one function per case: callgrind's --toggle-collect counts exactly the measured rounds) */
static void __attribute__((noinline)) cost_sendrecv_4(struct lb_side *a, struct lb_side *b, uint64_t n)
{
	lb_rounds(a, b, n);
}

static void __attribute__((noinline)) cost_sendrecv_128(struct lb_side *a, struct lb_side *b, uint64_t n)
{
	lb_rounds(a, b, n);
}

/* ns per round trip, `recvs` (4 or 128) receives posted per side */
static double sendrecv_cost(unsigned recvs, uint64_t n)
{
	struct lb_side a, b;
	uint64_t t0;

	lb_open(&a, recvs);
	lb_open(&b, recvs);
	lb_connect(&a, &b, recvs);
	lb_rounds(&a, &b, n / 10 + 1);
	t0 = now_ns();
	(recvs == 4 ? cost_sendrecv_4 : cost_sendrecv_128)(&a, &b, n);
	t0 = now_ns() - t0;
	lb_close(&a);
	lb_close(&b);
	return (double)t0 / (double)n;
}

static int run_initiator(int res)
{
	FILE *out = fdopen(res, "w");
	uint64_t arg, bytes = bw_bytes(), fadd_n = S.iters * 10, total_fadd;
	double v;

	setup();
	if (recv_cmd(&arg) != 'r')
		die("target not ready", DOCA_ERROR_UNEXPECTED);

	if (S.cost) {
		fprintf(out, "write_cost %.2f\n", cost_write(S.iters));
		fprintf(out, "fadd_cost %.2f\n", cost_fadd(S.iters));
		fprintf(out, "idle_cost %.2f\n", cost_idle(S.iters));
		fprintf(out, "sendrecv_cost_4 %.2f\n", sendrecv_cost(4, S.iters));
		fprintf(out, "sendrecv_cost_128 %.2f\n", sendrecv_cost(128, S.iters));
		goto done;
	}
	fprintf(out, "send_lat %.4f\n", pingpong_send(S.iters));
	fprintf(out, "write_pp_lat %.4f\n", pingpong_write(S.iters));
	fprintf(out, "write_comp_lat %.4f\n", write_completion(S.iters));
	if (S.lat_only)
		goto done;

	/* read: the target's memory holds 0x5a; ours 0xa5 until the reads land */
	fprintf(out, "read_bw_65536 %.1f\n", bandwidth(BW_READ, 65536, bytes));
	fprintf(out, "read_bw_1048576 %.1f\n", bandwidth(BW_READ, MAX_SIZE, bytes));
	for (size_t i = 0; i < MAX_SIZE; i++)
		if (S.mem[i] != 0x5a)
			die("read: the local buffer does not hold the target's bytes", DOCA_ERROR_UNEXPECTED);
	memset(S.mem, 0xa5, MAX_SIZE);

	fprintf(out, "write_bw_65536 %.1f\n", bandwidth(BW_WRITE, 65536, bytes));
	fprintf(out, "write_bw_1048576 %.1f\n", bandwidth(BW_WRITE, MAX_SIZE, bytes));
	send_cmd('V', MAX_SIZE);
	if (recv_cmd(&arg) != 'v' || arg != 0)
		die("write: the target's buffer does not hold our bytes", DOCA_ERROR_UNEXPECTED);

	window_run(BW_FADD, 8, fadd_n / 10);
	v = window_run(BW_FADD, 8, fadd_n);
	total_fadd = (fadd_n / 10 < S.window ? S.window : fadd_n / 10) + fadd_n;
	send_cmd('C', 0);
	if (recv_cmd(&arg) != 'c' || arg != total_fadd) {
		fprintf(stderr, "rdma_bench: fetch-add counter %llu, expected %llu\n", (unsigned long long)arg,
			(unsigned long long)total_fadd);
		die("fetch-add", DOCA_ERROR_UNEXPECTED);
	}
	fprintf(out, "fadd_rate %.0f\n", v);
done:
	fflush(out);

	send_cmd('Q', 0);
	if (recv_cmd(&arg) != 'q')
		die("target did not stop", DOCA_ERROR_UNEXPECTED);
	teardown();
	fclose(out);
	return 0;
}

/* ---- orchestrator ---- */

struct figures {
	bool ok;
	double send_lat, write_pp_lat, write_comp_lat, read_bw[2], write_bw[2], fadd_rate;
	double write_cost, fadd_cost, idle_cost; /* --cost */
	double sendrecv_cost[2];                 /* --cost: 4 and 128 receives posted */
};

static const char *self_exe;

/*
 * ---- the rocev2 transport's network ----
 *
 * Two network namespaces (sd-rb-a-PID, sd-rb-b-PID) joined by a veth pair, 10.X.Y.1/24 and .2
 * inside them (nothing is added to the machine's own namespace), MTU 9000 (`--mtu`: RoCE networks
 * run jumbo frames, so the path MTU is 4096; UCX's TCP runs on the same veth); each side a config of one
 * ConnectX-7 card with that address, `wire = rocev2` (RoCEv2) or `wire = stream` (softdoca's
 * TCP), and its own run directory. Without namespaces (not root): two loopback addresses,
 * 127.79.1.1 and 127.79.2.1, the same way, in our namespace.
 */
static struct {
	bool up, netns;
	char ns[2][32], veth[2][16], ip[2][20];
	char dir[64];
} N;

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs a shell command (its output discarded); its exit status. */
static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " >/dev/null 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void net_close(void)
{
	if (!N.up)
		return;
	N.up = false;
	if (N.netns) /* deleting a namespace takes its end of the veth pair, and the pair with it */
		for (int i = 0; i < 2; i++)
			sh("ip netns del %s", N.ns[i]);
	sh("rm -rf '%s'", N.dir);
}

static bool net_conf(int side, const char *wire)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%c-%s.conf", N.dir, 'a' + side, wire);
	f = fopen(path, "w");
	if (f == NULL)
		return false;
	fprintf(f, "# rdma_bench, side %c\n[card bench-%c]\nprofile = connectx-7\nwire = %s\nhost.ipv4 = %s\n",
		'a' + side, 'a' + side, wire, N.ip[side]);
	fclose(f);
	snprintf(path, sizeof(path), "%s/run-%c", N.dir, 'a' + side);
	return mkdir(path, 0700) == 0 || errno == EEXIST;
}

/* Makes the network once; false if even the run directories could not be made. */
static bool net_open(void)
{
	pid_t pid = getpid();

	if (N.up)
		return true;
	snprintf(N.dir, sizeof(N.dir), "/tmp/rdma-bench-%d", (int)pid);
	if (mkdir(N.dir, 0700) != 0 && errno != EEXIST)
		return false;
	N.up = true;
	atexit(net_close);
	for (int i = 0; i < 2; i++) {
		snprintf(N.ns[i], sizeof(N.ns[i]), "sd-rb-%c-%d", 'a' + i, (int)pid);
		snprintf(N.veth[i], sizeof(N.veth[i]), "rb%c%d", 'a' + i, (int)pid % 10000000);
		snprintf(N.ip[i], sizeof(N.ip[i]), "10.%d.%d.%d", 150 + (pid >> 8) % 50, pid & 0xff, i + 1);
	}
	N.netns = geteuid() == 0 && sh("ip netns add %s", N.ns[0]) == 0;
	if (N.netns && (sh("ip netns add %s", N.ns[1]) != 0 ||
			sh("ip link add %s mtu %u type veth peer name %s mtu %u", N.veth[0], S.mtu, N.veth[1], S.mtu) != 0))
		N.netns = false;
	for (int i = 0; i < 2 && N.netns; i++)
		if (sh("ip link set %s netns %s", N.veth[i], N.ns[i]) != 0 ||
		    sh("ip -n %s addr add %s/24 dev %s", N.ns[i], N.ip[i], N.veth[i]) != 0 ||
		    sh("ip -n %s link set lo up", N.ns[i]) != 0 || sh("ip -n %s link set %s up", N.ns[i], N.veth[i]) != 0)
			N.netns = false;
	if (N.netns) { /* a veth is up at once; still, wait (bounded) for it to carry a ping */
		for (int k = 0; k < 50 && sh("command -v ping") == 0 &&
				sh("ip netns exec %s ping -c 1 -W 1 %s", N.ns[0], N.ip[1]) != 0;
		     k++)
			usleep(100000);
	} else {
		for (int i = 0; i < 2; i++) {
			sh("ip netns del %s", N.ns[i]);
			snprintf(N.ip[i], sizeof(N.ip[i]), "127.79.%d.1", i + 1);
		}
		sh("ip link del %s", N.veth[0]); /* if it was made before a later step failed */
	}
	for (int i = 0; i < 2; i++)
		if (!net_conf(i, "rocev2") || !net_conf(i, "stream"))
			return false;
	return true;
}

/* In a forked child of the pair: side 0 (initiator) or 1 (target) of the rocev2 / tcp-net pair. */
static void net_enter(int side, const char *transport)
{
	const char *wire = strcmp(transport, "rocev2") == 0 ? "rocev2" : strcmp(transport, "tcp-net") == 0 ? "stream" : NULL;
	char path[128];

	if (wire == NULL || !N.up)
		return;
	if (N.netns) {
		int fd;

		snprintf(path, sizeof(path), "/run/netns/%s", N.ns[side]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
			fprintf(stderr, "rdma_bench: entering %s: %s\n", N.ns[side], strerror(errno));
			_exit(1);
		}
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/%c-%s.conf", N.dir, 'a' + side, wire);
	setenv("SOFTDOCA_CONFIG", path, 1);
	snprintf(path, sizeof(path), "%s/run-%c", N.dir, 'a' + side);
	setenv("SOFTDOCA_RUN_DIR", path, 1);
}

/*
 * One initiator + target pair over `transport`: "shm" (the default), "tcp", "rocev2" (the
 * rocev2 cards of the bench's network) or "tcp-net" (softdoca's TCP between the stream cards of
 * the same network).
 */
static bool run_pair(const char *transport, bool lat_only, struct figures *f)
{
	int sv[2], res[2], status, ok = 1;
	char fd0[16], fd1[16], rfd[16], n[32], w[16], conns[16], line[256];
	pid_t target, initiator;
	FILE *in;

	memset(f, 0, sizeof(*f));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 || pipe(res) != 0)
		return false;
	snprintf(fd0, sizeof(fd0), "%d", sv[0]);
	snprintf(fd1, sizeof(fd1), "%d", sv[1]);
	snprintf(rfd, sizeof(rfd), "%d", res[1]);
	snprintf(n, sizeof(n), "%llu", (unsigned long long)S.iters);
	snprintf(w, sizeof(w), "%u", S.window);
	snprintf(conns, sizeof(conns), "%u", S.conns);
	if (strcmp(transport, "tcp") == 0 || strcmp(transport, "tcp-net") == 0)
		setenv("SOFTDOCA_RDMA_TRANSPORT", "tcp", 1);
	else
		unsetenv("SOFTDOCA_RDMA_TRANSPORT");
	target = fork();
	if (target == 0) {
		net_enter(1, transport);
		close(sv[0]);
		close(res[0]);
		close(res[1]);
		execl(self_exe, self_exe, "--target", fd1, "-n", n, "-w", w, (char *)NULL);
		_exit(127);
	}
	initiator = fork();
	if (initiator == 0) {
		net_enter(0, transport);
		close(sv[1]);
		close(res[0]);
		execl(self_exe, self_exe, "--initiator", fd0, rfd, "-n", n, "-w", w, "--conns", conns,
		      S.cost ? "--cost" : lat_only || S.lat_only ? "--lat-only" : NULL, (char *)NULL);
		_exit(127);
	}
	unsetenv("SOFTDOCA_RDMA_TRANSPORT");
	close(sv[0]);
	close(sv[1]);
	close(res[1]);
	/* The first to end decides: if it failed, the other (maybe polling for ever) is ended too. */
	for (int left = 2; left > 0; left--) {
		pid_t p = wait(&status);

		if (p < 0)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			ok = 0;
			kill(p == target ? initiator : target, SIGTERM);
		}
	}
	/* the results wait in the pipe (a few lines) */
	in = fdopen(res[0], "r");
	while (in != NULL && fgets(line, sizeof(line), in) != NULL) {
		char key[64];
		double v;

		if (sscanf(line, "%63s %lf", key, &v) != 2)
			continue;
		if (strcmp(key, "send_lat") == 0)
			f->send_lat = v;
		else if (strcmp(key, "write_pp_lat") == 0)
			f->write_pp_lat = v;
		else if (strcmp(key, "write_comp_lat") == 0)
			f->write_comp_lat = v;
		else if (strcmp(key, "read_bw_65536") == 0)
			f->read_bw[0] = v;
		else if (strcmp(key, "read_bw_1048576") == 0)
			f->read_bw[1] = v;
		else if (strcmp(key, "write_bw_65536") == 0)
			f->write_bw[0] = v;
		else if (strcmp(key, "write_bw_1048576") == 0)
			f->write_bw[1] = v;
		else if (strcmp(key, "fadd_rate") == 0)
			f->fadd_rate = v;
		else if (strcmp(key, "write_cost") == 0)
			f->write_cost = v;
		else if (strcmp(key, "fadd_cost") == 0)
			f->fadd_cost = v;
		else if (strcmp(key, "idle_cost") == 0)
			f->idle_cost = v;
		else if (strcmp(key, "sendrecv_cost_4") == 0)
			f->sendrecv_cost[0] = v;
		else if (strcmp(key, "sendrecv_cost_128") == 0)
			f->sendrecv_cost[1] = v;
	}
	if (in != NULL)
		fclose(in);
	f->ok = ok;
	return ok;
}

/* A free TCP port for ucx_perftest's control connection. */
static unsigned free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	unsigned port = 13377;

	if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(s, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (s >= 0)
		close(s);
	return port;
}

struct ucx {
	bool ok;
	double typical_us, bw_mbs, rate;
};

static bool have_ucx(void)
{
	return system("command -v ucx_perftest >/dev/null 2>&1") == 0;
}

enum ucx_where { UCX_SHM, UCX_LO, UCX_NET };

/*
 * ucx_perftest as server + client. UCX_SHM: UCX's defaults; UCX_LO: UCX_TLS=tcp,self
 * UCX_NET_DEVICES=lo; UCX_NET: UCX_TLS=tcp,self over the bench's veth, the server in side b's
 * namespace, the client in side a's (without namespaces: UCX_LO).
 */
static struct ucx ucx_run(int where, const char *test, unsigned size, uint64_t iters)
{
	struct ucx r = {0};
	char cmd[768], line[512], env[160];
	unsigned port = free_port();
	bool net = where == UCX_NET && N.netns;
	pid_t server;
	FILE *f;

	if (where == UCX_NET && !net)
		where = UCX_LO;
	if (net)
		snprintf(env, sizeof(env), "ip netns exec %s env UCX_TLS=tcp,self UCX_NET_DEVICES=%s ", N.ns[0],
			 N.veth[0]);
	else
		snprintf(env, sizeof(env), "%s", where == UCX_LO ? "UCX_TLS=tcp,self UCX_NET_DEVICES=lo " : "");
	server = fork();
	if (server == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		char p[16];

		dup2(devnull, 1);
		dup2(devnull, 2);
		if (where != UCX_SHM) {
			setenv("UCX_TLS", "tcp,self", 1);
			setenv("UCX_NET_DEVICES", net ? N.veth[1] : "lo", 1);
		}
		snprintf(p, sizeof(p), "%u", port);
		if (net) /* `ip netns exec` also mounts the namespace's /sys, where UCX finds the veth */
			execlp("ip", "ip", "netns", "exec", N.ns[1], "ucx_perftest", "-p", p, (char *)NULL);
		else
			execlp("ucx_perftest", "ucx_perftest", "-p", p, (char *)NULL);
		_exit(127);
	}
	/* The client retries until the server listens. */
	snprintf(cmd, sizeof(cmd),
		 "for i in $(seq 50); do %stimeout 120 ucx_perftest %s -p %u -t %s -s %u -n %llu 2>/dev/null "
		 "&& break; sleep 0.1; done",
		 env, net ? N.ip[1] : "localhost", port, test, size, (unsigned long long)iters);
	f = popen(cmd, "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long long it;
		double t50, tavg, tall, bwavg, bwall, mr, mrall;

		if (sscanf(line, "Final: %llu %lf %lf %lf %lf %lf %lf %lf", &it, &t50, &tavg, &tall, &bwavg, &bwall, &mr,
			   &mrall) == 8) {
			r.typical_us = t50;
			r.bw_mbs = bwall;
			r.rate = mrall;
			r.ok = true;
		}
	}
	if (f != NULL)
		pclose(f);
	kill(server, SIGTERM);
	waitpid(server, NULL, 0);
	return r;
}

/*
 * The kernel's cross-memory-attach copy, which the same-host transport uses for read/write
 * payloads: one process_vm_writev / process_vm_readv of `size` bytes per operation into (out of)
 * a child's buffer, one at a time. Returns MB/s (2^20), 0 if CMA is refused.
 */
static double cma_mbs(bool write, size_t size, uint64_t bytes)
{
	uint8_t *local = aligned_alloc(4096, MAX_SIZE), *remote = aligned_alloc(4096, MAX_SIZE);
	int p[2];
	pid_t child;
	uint64_t n = bytes / size, t0, t1;
	double r = 0;
	char c;

	if (local == NULL || remote == NULL || pipe(p) != 0)
		return 0;
	memset(local, 1, MAX_SIZE);
	memset(remote, 2, MAX_SIZE); /* the child's copy of `remote` is the target: same address */
	child = fork();
	if (child == 0) {
		close(p[1]);
		while (read(p[0], &c, 1) > 0) {
		}
		_exit(0);
	}
	close(p[0]);
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		struct iovec l = {.iov_base = local, .iov_len = size}, rm = {.iov_base = remote, .iov_len = size};
		ssize_t done = write ? process_vm_writev(child, &l, 1, &rm, 1, 0) : process_vm_readv(child, &l, 1, &rm, 1, 0);

		if (done != (ssize_t)size)
			goto out;
	}
	t1 = now_ns();
	r = (double)n * (double)size / (1 << 20) / ((double)(t1 - t0) / 1e9);
out:
	close(p[1]);
	waitpid(child, NULL, 0);
	free(local);
	free(remote);
	return r;
}

enum goal { GOAL_NONE, GOAL_BW, GOAL_LAT };

/* --lat-only measures the latency rows (unit us) only: the others are left out of the tables. */
static bool measured(const char *unit)
{
	return !S.lat_only || unit[0] == 'u';
}

static void row(const char *name, const char *unit, double ours, bool ours_ok, const char *ucx_name,
		const struct ucx *u, double ucx_val, enum goal g)
{
	char a[32] = "failed", b[64] = "-", r[16] = "-", t[24] = "-";

	if (!measured(unit))
		return;

	if (ours_ok)
		snprintf(a, sizeof(a), unit[0] == 'u' ? "%.2f %s" : "%.0f %s", ours, unit);
	if (u != NULL && u->ok && ucx_val > 0 && (S.ucx || ucx_name[0] == 'p')) {
		snprintf(b, sizeof(b), unit[0] == 'u' ? "%.2f %s (%s)" : "%.0f %s (%s)", ucx_val, unit, ucx_name);
		if (ours_ok)
			snprintf(r, sizeof(r), ours / ucx_val < 0.01 ? "%.4f" : "%.2f", ours / ucx_val);
	} else if (u != NULL && S.ucx) {
		snprintf(b, sizeof(b), "failed (%s)", ucx_name);
	}
	if (g == GOAL_BW)
		snprintf(t, sizeof(t), ">= 1 %s", r[0] == '-' ? "" : (ours / ucx_val >= 1.0 ? "met" : "MISSED"));
	else if (g == GOAL_LAT)
		snprintf(t, sizeof(t), "<= 1 %s", r[0] == '-' ? "" : (ours / ucx_val <= 1.0 ? "met" : "MISSED"));
	printf("| %-38s | %-16s | %-34s | %-6s | %-13s |\n", name, a, b, r, t);
}

/* Rounds per side (their median is shown), alternating softdoca and UCX: every same-host and TCP
 * row, the rocev2 table's latency rows. */
#define LAT_ROUNDS 3

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n figures (the mean of the middle two for even n: neither side's best); sorts them. */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return (v[(n - 1) / 2] + v[n / 2]) / 2;
}

/*
 * The same-host floor of the write ping-pong: two processes on one shared page, each storing a
 * sequence number into the other's word and spinning on its own, with no software between
 * (timed as the pair's rounds are, clock read included). Median half round trip in us, or -1.
 */
static double store_floor(uint64_t n)
{
	volatile uint64_t *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	volatile uint64_t *a, *b;
	uint64_t *rtt, warm = n / 10 + 1;
	double med = -1;
	pid_t pid;
	int st;

	if (m == MAP_FAILED)
		return -1;
	a = m;
	b = m + 512; /* another page: the two words share no cache line */
	rtt = calloc(n, sizeof(*rtt));
	pid = rtt != NULL ? fork() : -1;
	if (pid == 0) {
		alarm(60); /* a lost partner must not leave it spinning */
		for (uint64_t i = 1; i <= n + warm; i++) {
			while (*a != i)
				;
			*b = i;
		}
		_exit(0);
	}
	if (pid > 0) {
		bool gone = false;

		lat_clock_init();
		for (uint64_t i = 1; i <= n + warm && !gone; i++) {
			uint64_t t0 = lat_now();

			*a = i;
			/* now and then, whether the partner is still there (its alarm ends it) */
			for (uint64_t spins = 0; *b != i && !gone;)
				gone = (++spins & 0xfffff) == 0 && waitpid(pid, &st, WNOHANG) == pid;
			if (i > warm)
				rtt[i - warm - 1] = lat_now() - t0;
		}
		if (!gone && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			qsort(rtt, n, sizeof(*rtt), cmp_u64);
			med = lat_us(rtt[n / 2]) / 2;
		}
	}
	free(rtt);
	munmap((void *)m, 8192);
	return med;
}

static void report(const char *transport, struct figures *f, bool ucx, bool tcp, uint64_t iters)
{
	S.ucx = ucx;
	uint64_t bytes = bw_bytes();
	struct ucx pb[2], gb[2], tl, pl, fa = {0};
	const unsigned sizes[2] = {65536, MAX_SIZE};
	char name[64];

	for (int i = 0; i < 2; i++) {
		pb[i] = ucx && !S.lat_only ? ucx_run(tcp, "ucp_put_bw", sizes[i], bytes / sizes[i]) : (struct ucx){0};
		gb[i] = ucx && !S.lat_only ? ucx_run(tcp, "ucp_get", sizes[i], bytes / sizes[i]) : (struct ucx){0};
	}
	tl = ucx ? ucx_run(tcp, "tag_lat", 8, iters) : (struct ucx){0};
	pl = ucx ? ucx_run(tcp, "ucp_put_lat", 8, iters) : (struct ucx){0};
	fa = ucx && !S.lat_only ? ucx_run(tcp, "ucp_fadd", 8, iters * 10) : (struct ucx){0};
	/*
	 * Every row: the median of LAT_ROUNDS runs per side, softdoca's pair and UCX's
	 * alternating. This VM runs busy loops at two speeds for stretches of seconds, and each
	 * side has a rare mode of its own (UCX's tag_lat 0.07 us, softdoca's pair 2.5x slower):
	 * the median of three keeps the usual figure of each, a single run or the best of three
	 * would compare one side's usual mode with the other's rare one. On one host a bandwidth
	 * case lasts a few milliseconds, and single runs of a one-sided row spread as much
	 * (fetch-add 0.62x to 1.62x of ucp_fadd in seven runs).
	 */
	{
		enum { O_SEND, O_PP, O_COMP, O_W0, O_W1, O_R0, O_R1, O_FADD, O_N };
		enum { U_TAG, U_PUT, U_PB0, U_PB1, U_GB0, U_GB1, U_FA, U_N };
		struct ucx *us[U_N] = {&tl, &pl, &pb[0], &pb[1], &gb[0], &gb[1], &fa};
		double ours[O_N][LAT_ROUNDS], theirs[U_N][LAT_ROUNDS];
		int n_ours = 0, n_u[U_N] = {0};
		struct figures g = *f;

		for (int k = 0; k < LAT_ROUNDS; k++) {
			if (k > 0 && f->ok && !run_pair(tcp ? "tcp" : "shm", S.lat_only, &g))
				g.ok = false;
			if (f->ok && g.ok) {
				const double v[O_N] = {g.send_lat, g.write_pp_lat, g.write_comp_lat, g.write_bw[0],
						       g.write_bw[1], g.read_bw[0], g.read_bw[1], g.fadd_rate};

				for (int i = 0; i < O_N; i++)
					ours[i][n_ours] = v[i];
				n_ours++;
			}
			if (k > 0 && ucx) {
				tl = ucx_run(tcp, "tag_lat", 8, iters);
				pl = ucx_run(tcp, "ucp_put_lat", 8, iters);
				for (int i = 0; i < 2 && !S.lat_only; i++) {
					pb[i] = ucx_run(tcp, "ucp_put_bw", sizes[i], bytes / sizes[i]);
					gb[i] = ucx_run(tcp, "ucp_get", sizes[i], bytes / sizes[i]);
				}
				if (!S.lat_only)
					fa = ucx_run(tcp, "ucp_fadd", 8, iters * 10);
			}
			for (int i = 0; i < U_N; i++)
				if (us[i]->ok)
					theirs[i][n_u[i]++] = i == U_TAG || i == U_PUT ? us[i]->typical_us
							     : i == U_FA		 ? us[i]->rate
										 : us[i]->bw_mbs;
		}
		if (n_ours > 0) {
			double *const dst[O_N] = {&f->send_lat, &f->write_pp_lat, &f->write_comp_lat, &f->write_bw[0],
						  &f->write_bw[1], &f->read_bw[0], &f->read_bw[1], &f->fadd_rate};

			for (int i = 0; i < O_N; i++)
				*dst[i] = median(ours[i], n_ours);
		}
		for (int i = 0; i < U_N; i++) {
			double m = n_u[i] > 0 ? median(theirs[i], n_u[i]) : 0;

			us[i]->ok = n_u[i] > 0;
			if (i == U_TAG || i == U_PUT)
				us[i]->typical_us = m;
			else if (i == U_FA)
				us[i]->rate = m;
			else
				us[i]->bw_mbs = m;
		}
	}

	printf("\nsoftdoca transport: %s | UCX: %s\n", transport,
	       tcp ? "UCX_TLS=tcp,self UCX_NET_DEVICES=lo" : "defaults (no UCX_TLS: its shared-memory transports)");
	printf("| %-38s | %-16s | %-34s | %-6s | %-13s |\n", "case", "softdoca", "UCX (ucx_perftest)", "ratio",
	       "target");
	printf("|%s|%s|%s|%s|%s|\n", "----------------------------------------", "------------------",
	       "------------------------------------", "--------", "---------------");
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "write bandwidth %s, %u in flight", i ? "1 MiB" : "64 KiB", S.window);
		row(name, "MB/s", f->write_bw[i], f->ok, "ucp_put_bw", &pb[i], pb[i].bw_mbs, GOAL_BW);
	}
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "read bandwidth %s, %u in flight", i ? "1 MiB" : "64 KiB", S.window);
		row(name, "MB/s", f->read_bw[i], f->ok, "ucp_get", &gb[i], gb[i].bw_mbs, GOAL_BW);
	}
	row("send/recv 8 B latency (half RTT, med)", "us", f->send_lat, f->ok, "tag_lat", &tl, tl.typical_us, GOAL_LAT);
	row("write 8 B ping-pong (half RTT, med)", "us", f->write_pp_lat, f->ok, "ucp_put_lat", &pl, pl.typical_us,
	    GOAL_LAT);
	row("write 8 B + completion (med)", "us", f->write_comp_lat, f->ok, "", NULL, 0, GOAL_NONE);
	snprintf(name, sizeof(name), "fetch-add rate, %u in flight", S.window);
	row(name, "op/s", f->fadd_rate, f->ok, "ucp_fadd", &fa, fa.rate, GOAL_BW);
	if (!tcp) { /* the copy the same-host transport is built on, for reference */
		for (int i = 0; i < 2 && !S.lat_only; i++) {
			struct ucx k = {.ok = true};

			k.bw_mbs = cma_mbs(true, sizes[i], bytes);
			snprintf(name, sizeof(name), "  write %s vs a CMA copy loop", i ? "1 MiB" : "64 KiB");
			row(name, "MB/s", f->write_bw[i], f->ok, "process_vm_writev", &k, k.bw_mbs, GOAL_NONE);
		}
		for (int i = 0; i < 2 && !S.lat_only; i++) {
			struct ucx k = {.ok = true};

			k.bw_mbs = cma_mbs(false, sizes[i], bytes);
			snprintf(name, sizeof(name), "  read %s vs a CMA copy loop", i ? "1 MiB" : "64 KiB");
			row(name, "MB/s", f->read_bw[i], f->ok, "process_vm_readv", &k, k.bw_mbs, GOAL_NONE);
		}
		/* what the latency rows cannot go under here: a bare store each way */
		{
			double fl = store_floor(iters);

			if (fl > 0) {
				printf("\nStore ping-pong between two processes on one shared page (no software between, busy-polled, "
				       "same run), 8 B half round trip: %.3f us. Over it: softdoca write ping-pong %.2f",
				       fl, f->ok ? f->write_pp_lat / fl : 0);
				if (pl.ok)
					printf(", UCX ucp_put_lat %.2f", pl.typical_us / fl);
				printf("; softdoca send/recv %.2f", f->ok ? f->send_lat / fl : 0);
				if (tl.ok)
					printf(", UCX tag_lat %.2f", tl.typical_us / fl);
				printf(".\n");
			} else {
				printf("\nStore ping-pong floor: could not run\n");
			}
		}
	}
}

/* A cell: the figure, or "failed". */
static void cell(char *b, size_t len, double v, bool ok, const char *unit)
{
	if (!ok)
		snprintf(b, len, "failed");
	else
		snprintf(b, len, unit[0] == 'u' ? "%.2f %s" : "%.0f %s", v, unit);
}

/*
 * A row of the rocev2 table: softdoca over RoCEv2 and over its TCP path, UCX over TCP, the
 * ratios to UCX; `goal`: the ratio RoCEv2 must reach (bandwidth, >=) or stay under (latency,
 * <=), 0 for none.
 */
static void row_roce(const char *name, const char *unit, double roce, double tcp, const struct figures *r,
		     const struct figures *t, const char *ucx_name, const struct ucx *u, double ucx_val, double goal)
{
	char a[32], b[32], c[64] = "-", ra[16] = "-", rt[16] = "-", g[24] = "-";
	bool lat = unit[0] == 'u', have = u != NULL && u->ok && ucx_val > 0;

	if (!measured(unit))
		return;

	cell(a, sizeof(a), roce, r->ok, unit);
	cell(b, sizeof(b), tcp, t->ok, unit);
	if (have) {
		snprintf(c, sizeof(c), lat ? "%.2f %s (%s)" : "%.0f %s (%s)", ucx_val, unit, ucx_name);
		if (r->ok)
			snprintf(ra, sizeof(ra), "%.2f", roce / ucx_val);
		if (t->ok)
			snprintf(rt, sizeof(rt), "%.2f", tcp / ucx_val);
	} else if (u != NULL && S.ucx) {
		snprintf(c, sizeof(c), "failed (%s)", ucx_name);
	}
	if (goal > 0)
		snprintf(g, sizeof(g), "%s %g %s", lat ? "<=" : ">=", goal,
			 ra[0] == '-' ? "" : (lat ? roce / ucx_val <= goal : roce / ucx_val >= goal) ? "met" : "MISSED");
	printf("| %-38s | %-12s | %-12s | %-30s | %-6s | %-6s | %-12s |\n", name, a, b, c, ra, rt, g);
}

/*
 * The floor under RoCEv2's send/receive latency on this veth: a plain UDP ping-pong between
 * two processes in the bench's namespaces, busy-polling non-blocking sockets as our owners do.
 * Mode 1: one datagram each way per half round trip (what TCP's delayed, piggybacked ACKs give
 * UCX). Mode 2: a message and an RC ACK each way (RoCEv2's SEND and the ACK of the peer's last
 * one) sent as softdoca's RoCEv2 path sends them: one sendmmsg, the message first and the ACK
 * behind it as a datagram of its own; the receiver answers once it has the message and does
 * nothing with the ACK (softdoca checks and completes it: a floor, not a model of the rest).
 * Median half round trip in us of each, out[0] / out[1]; false if it could not run.
 */
#define FLOOR_PORT 47911
static void floor_fail(int side)
{
	fprintf(stderr, "rdma_bench: UDP floor, side %c: %s\n", 'a' + side, strerror(errno));
	_exit(1);
}

/* One half round trip: the message (a SEND's 24 bytes), then with mode 2 the ACK of the peer's (20). */
static void floor_half(int fd, int mode, int side)
{
	static char msg[24], ack[20];
	struct iovec v[2] = {{msg, sizeof(msg)}, {ack, sizeof(ack)}};
	struct mmsghdr m[2] = {{.msg_hdr = {.msg_iov = &v[0], .msg_iovlen = 1}},
			       {.msg_hdr = {.msg_iov = &v[1], .msg_iovlen = 1}}};

	if (sendmmsg(fd, m, mode == 2 ? 2 : 1, 0) != (mode == 2 ? 2 : 1))
		floor_fail(side);
}

static void floor_side(int side, int mode, uint64_t n, int ready, int res)
{
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(FLOOR_PORT)}, peer = me;
	uint64_t *lat = side == 0 ? calloc(n, sizeof(*lat)) : NULL, warm = n / 10 + 1;
	char in[64];
	double med = -1;
	int fd;

	if (N.netns) {
		char path[128];
		int nfd;

		snprintf(path, sizeof(path), "/run/netns/%s", N.ns[side]);
		nfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nfd < 0 || setns(nfd, CLONE_NEWNET) != 0)
			floor_fail(side);
		close(nfd);
	}
	inet_pton(AF_INET, N.ip[side], &me.sin_addr);
	inet_pton(AF_INET, N.ip[!side], &peer.sin_addr);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me)) != 0 ||
	    connect(fd, (struct sockaddr *)&peer, sizeof(peer)) != 0)
		floor_fail(side);
	lat_clock_init(); /* before the partner is told: its first round waits for nobody's calibration */
	if (write(ready, "r", 1) != 1)
		floor_fail(side);
	for (uint64_t i = 0; i < n + warm; i++) {
		uint64_t t0 = lat_now();

		for (int turn = side; turn < 2; turn++) {
			if (turn == 0) { /* our half */
				floor_half(fd, mode, side);
				continue;
			}
			/* the peer's message (mode 2: an ACK read here is passed over; ECONNREFUSED: our
			 * last ACK reached the peer's socket after it closed, its message is still here) */
			for (ssize_t r = 0; r != 24;) {
				r = recv(fd, in, sizeof(in), 0);
				if (r < 0 && errno != EAGAIN && errno != ECONNREFUSED)
					floor_fail(side);
			}
			if (side == 1)
				floor_half(fd, mode, side);
		}
		if (side == 0 && i >= warm)
			lat[i - warm] = lat_now() - t0;
	}
	if (side == 0) { /* the measuring side reports */
		qsort(lat, n, sizeof(*lat), cmp_u64);
		med = lat_us(lat[n / 2]) / 2;
		if (write(res, &med, sizeof(med)) != (ssize_t)sizeof(med))
			floor_fail(side);
	}
	_exit(0);
}

static bool udp_floor(uint64_t n, double out[2])
{
	for (int mode = 1; mode <= 2; mode++) {
		int rd[2], rs[2], st;
		pid_t pid[2] = {-1, -1};
		char c;
		double med = -1;
		bool ok = pipe(rd) == 0 && pipe(rs) == 0;

		for (int side = 1; ok && side >= 0; side--) { /* the answering side bound first */
			pid[side] = fork();
			if (pid[side] == 0)
				floor_side(side, mode, n, rd[1], rs[1]);
			ok = pid[side] > 0 && read(rd[0], &c, 1) == 1;
		}
		ok = ok && read(rs[0], &med, sizeof(med)) == (ssize_t)sizeof(med) && med > 0;
		for (int side = 0; side < 2; side++)
			if (pid[side] > 0) {
				if (!ok)
					kill(pid[side], SIGKILL);
				ok = waitpid(pid[side], &st, 0) == pid[side] && WIFEXITED(st) && WEXITSTATUS(st) == 0 && ok;
			}
		close(rd[0]);
		close(rd[1]);
		close(rs[0]);
		close(rs[1]);
		if (!ok)
			return false;
		out[mode - 1] = med;
	}
	return true;
}

/*
 * The rocev2 transport: softdoca's RoCEv2 path and its TCP path between the same two network
 * namespaces (or loopback addresses), beside ucx_perftest over TCP on the same veth; the latency
 * rows the median of LAT_ROUNDS runs of each, alternating.
 */
static void report_roce(bool ucx)
{
	struct figures r, t;
	struct ucx pb[2], gb[2], tl = {0}, pl = {0}, fa;
	const unsigned sizes[2] = {65536, MAX_SIZE};
	uint64_t bytes = bw_bytes();
	double lat[2][3][LAT_ROUNDS], ut[LAT_ROUNDS], up[LAT_ROUNDS]; /* [roce, tcp][send, pp, comp] */
	int n[2] = {0, 0}, n_ut = 0, n_up = 0;
	char name[64];
	double fl[2];

	S.ucx = ucx;
	if (!net_open()) {
		fprintf(stderr, "rdma_bench: rocev2: cannot make %s\n", N.dir);
		return;
	}
	if (!run_pair("rocev2", false, &r))
		fprintf(stderr, "rdma_bench: the rocev2 pair failed (see above)\n");
	if (!run_pair("tcp-net", false, &t))
		fprintf(stderr, "rdma_bench: the TCP pair on the rocev2 network failed (see above)\n");
	for (int i = 0; i < 2; i++) {
		pb[i] = ucx && !S.lat_only ? ucx_run(UCX_NET, "ucp_put_bw", sizes[i], bytes / sizes[i]) : (struct ucx){0};
		gb[i] = ucx && !S.lat_only ? ucx_run(UCX_NET, "ucp_get", sizes[i], bytes / sizes[i]) : (struct ucx){0};
	}
	fa = ucx && !S.lat_only ? ucx_run(UCX_NET, "ucp_fadd", 8, S.iters * 10) : (struct ucx){0};
	for (int k = 0; k < LAT_ROUNDS; k++) {
		for (int p = 0; p < 2; p++) {
			struct figures g, *f = p ? &t : &r;

			if (!f->ok)
				continue;
			if (k == 0)
				g = *f;
			else if (!run_pair(p ? "tcp-net" : "rocev2", true, &g))
				continue;
			lat[p][0][n[p]] = g.send_lat;
			lat[p][1][n[p]] = g.write_pp_lat;
			lat[p][2][n[p]++] = g.write_comp_lat;
		}
		if (ucx) {
			struct ucx a = ucx_run(UCX_NET, "tag_lat", 8, S.iters), b = ucx_run(UCX_NET, "ucp_put_lat", 8, S.iters);

			if (a.ok)
				ut[n_ut++] = a.typical_us;
			if (b.ok)
				up[n_up++] = b.typical_us;
		}
	}
	for (int p = 0; p < 2; p++) {
		struct figures *f = p ? &t : &r;

		if (n[p] == 0)
			continue;
		f->send_lat = median(lat[p][0], n[p]);
		f->write_pp_lat = median(lat[p][1], n[p]);
		f->write_comp_lat = median(lat[p][2], n[p]);
	}
	tl.ok = n_ut > 0;
	tl.typical_us = tl.ok ? median(ut, n_ut) : 0;
	pl.ok = n_up > 0;
	pl.typical_us = pl.ok ? median(up, n_up) : 0;

	if (N.netns)
		printf("\nsoftdoca transport: RoCEv2 (wire = rocev2) and TCP (wire = stream), between two network "
		       "namespaces joined by a veth (%s, %s, MTU %u) | UCX: UCX_TLS=tcp,self on the same veth\n",
		       N.ip[0], N.ip[1], S.mtu);
	else
		printf("\nsoftdoca transport: RoCEv2 (wire = rocev2) and TCP (wire = stream) | NO NAMESPACES (not root, "
		       "or `ip netns` failed): two loopback addresses %s and %s instead of a veth | UCX: "
		       "UCX_TLS=tcp,self UCX_NET_DEVICES=lo\n",
		       N.ip[0], N.ip[1]);
	printf("| %-38s | %-12s | %-12s | %-30s | %-6s | %-6s | %-12s |\n", "case", "RoCEv2", "TCP",
	       "UCX over TCP (ucx_perftest)", "RoCEv2", "TCP", "RoCEv2 goal");
	printf("| %-38s | %-12s | %-12s | %-30s | %-6s | %-6s | %-12s |\n", "", "(softdoca)", "(softdoca)", "",
	       "/UCX", "/UCX", "");
	printf("|%s|%s|%s|%s|%s|%s|%s|\n", "----------------------------------------", "--------------",
	       "--------------", "--------------------------------", "--------", "--------", "--------------");
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "write bandwidth %s, %u in flight", i ? "1 MiB" : "64 KiB", S.window);
		row_roce(name, "MB/s", r.write_bw[i], t.write_bw[i], &r, &t, "ucp_put_bw", &pb[i], pb[i].bw_mbs, 1);
	}
	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "read bandwidth %s, %u in flight", i ? "1 MiB" : "64 KiB", S.window);
		row_roce(name, "MB/s", r.read_bw[i], t.read_bw[i], &r, &t, "ucp_get", &gb[i], gb[i].bw_mbs, 1);
	}
	row_roce("send/recv 8 B latency (half RTT, med)", "us", r.send_lat, t.send_lat, &r, &t, "tag_lat", &tl,
		 tl.typical_us, 1);
	row_roce("write 8 B ping-pong (half RTT, med)", "us", r.write_pp_lat, t.write_pp_lat, &r, &t, "ucp_put_lat", &pl,
		 pl.typical_us, 1);
	row_roce("write 8 B + completion (med)", "us", r.write_comp_lat, t.write_comp_lat, &r, &t, "", NULL, 0, 0);
	snprintf(name, sizeof(name), "fetch-add rate, %u in flight", S.window);
	row_roce(name, "op/s", r.fadd_rate, t.fadd_rate, &r, &t, "ucp_fadd", &fa, fa.rate, 1);
	if (udp_floor(S.iters, fl)) {
		printf("\nUDP ping-pong on the same %s (plain sockets, busy-polled, same run), 8 B half round trip: one "
		       "datagram each way %.2f us; a message and its RC ACK, a datagram of its own behind it in one "
		       "sendmmsg (as softdoca's RoCEv2 send/receive) %.2f us. RoCEv2 send/recv over that floor: %.2f",
		       N.netns ? "veth" : "loopback", fl[0], fl[1], r.send_lat / fl[1]);
		if (tl.ok)
			printf("; UCX tag_lat over the one-datagram floor: %.2f; the two-datagram floor over UCX tag_lat: %.2f",
			       tl.typical_us / fl[0], fl[1] / tl.typical_us);
		printf(".\n");
	} else
		printf("\nUDP ping-pong floor: could not run\n");
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rdma_bench [-n latency_iterations] [-w window (1-%d)] [-t shm|tcp|rocev2] [--no-ucx] [--mtu veth_mtu]\n"
		"                  [--lat-only]   (the latency rows only)\n"
		"       rdma_bench --cost [-n iterations] [-t shm|tcp] [--conns N]   (ns per task; under callgrind: "
		"--toggle-collect=cost_write)\n",
		MAX_WINDOW);
	exit(64);
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	bool ucx = true;
	int role_fd = -1, res_fd = -1, i = 1;
	struct doca_log_backend *sdk;

	/* argv[0] when it is a path: under valgrind /proc/self/exe is valgrind's tool */
	self_exe = strchr(argv[0], '/') != NULL ? argv[0] : "/proc/self/exe";
	if (argc > 2 && strcmp(argv[1], "--target") == 0) {
		S.target = true;
		role_fd = atoi(argv[2]);
		i = 3;
	} else if (argc > 3 && strcmp(argv[1], "--initiator") == 0) {
		role_fd = atoi(argv[2]);
		res_fd = atoi(argv[3]);
		i = 4;
	}
	for (; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			S.iters = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
			S.window = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--no-ucx") == 0)
			ucx = false;
		else if (strcmp(argv[i], "--mtu") == 0 && i + 1 < argc)
			S.mtu = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--lat-only") == 0)
			S.lat_only = true;
		else if (strcmp(argv[i], "--cost") == 0)
			S.cost = true;
		else if (strcmp(argv[i], "--conns") == 0 && i + 1 < argc)
			S.conns = (unsigned)strtoul(argv[++i], NULL, 0);
		else
			usage();
	}
	if (S.iters < 100)
		S.iters = 100;
	if (S.conns == 0)
		S.conns = 1;
	if (S.mtu < 1280 || S.mtu > 65535 || S.window < 1 || S.window > MAX_WINDOW || S.conns > 1024 ||
	    (S.conns > 1 && !S.cost && role_fd < 0) ||
	    (only && strcmp(only, "shm") && strcmp(only, "tcp") && strcmp(only, "rocev2")))
		usage();

	if (role_fd >= 0) {
		alarm(600); /* a wedged peer must not hang the bench for ever */
		doca_log_backend_create_with_file_sdk(stderr, &sdk);
		doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_WARNING);
		S.oob = role_fd;
		return S.target ? run_target() : run_initiator(res_fd);
	}

	if (S.cost) { /* same host, no peer: the software around one task */
		struct figures f;

		if (!run_pair(only != NULL ? only : "shm", false, &f)) {
			fprintf(stderr, "rdma_bench: the pair failed (see above)\n");
			return 1;
		}
		printf("one task at a time, submitted again from its completion, %llu times, the target asleep, on the "
		       "first of %u connection(s): 8 B write %.1f ns, fetch-add %.1f ns per submit + completion; an idle "
		       "doca_pe_progress %.1f ns\n",
		       (unsigned long long)S.iters, S.conns, f.write_cost, f.fadd_cost, f.idle_cost);
		printf("send/receive round trip between two contexts of one process, one thread driving both: %.1f ns "
		       "with 4 receives posted per side, %.1f ns with 128\n",
		       f.sendrecv_cost[0], f.sendrecv_cost[1]);
		return 0;
	}
	if (ucx && !have_ucx()) {
		fprintf(stderr, "rdma_bench: ucx_perftest not installed (apt-get install ucx-utils): softdoca only\n");
		ucx = false;
	}
	printf("DOCA RDMA, initiator <-> target processes, connected out of band; %llu latency iterations "
	       "(rows beside UCX: median of %d runs per side, alternating; rocev2: its latency rows)",
	       (unsigned long long)S.iters, LAT_ROUNDS);
	if (S.lat_only)
		printf("; the latency rows only (--lat-only).\n");
	else
		printf(", %llu MiB per bandwidth case, window %u. MB = 2^20 bytes (as ucx_perftest).\n",
		       (unsigned long long)(bw_bytes() >> 20), S.window);
	for (int t = 0; t < 2; t++) {
		const char *transport = t ? "tcp" : "shm";
		struct figures f;

		if (only && strcmp(only, transport) != 0)
			continue;
		if (!run_pair(transport, false, &f))
			fprintf(stderr, "rdma_bench: the %s pair failed (see above)\n", transport);
		report(t ? "TCP (SOFTDOCA_RDMA_TRANSPORT=tcp)" : "same host (default: unix socket + cross-memory attach)",
		       &f, ucx, t == 1, S.iters);
		fflush(stdout);
	}
	if (only == NULL || strcmp(only, "rocev2") == 0) {
		report_roce(ucx);
		fflush(stdout);
	}
	return 0;
}
