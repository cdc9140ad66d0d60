/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch control path between two processes: a client (host side, this process) and a server
 * (DPU side: this program re-executed with SOFTDOCA_ROLE=dpu), both busy-polling their PE.
 *
 *   latency: 64 B ping-pong, one-way latency = round trip / 2 (as ucx_perftest reports it)
 *   rate:    64 B messages streamed client -> server with a window of credits
 *   fast path: 64 KiB producer (host) -> consumer (DPU) bandwidth, FP_WINDOW buffers posted
 *   idle:    CPU time of a connected, sleeping (epoll-armed) pair over a few seconds
 *
 * Beside them, from the same run: ucx_perftest ucp_am_lat / ucp_am_bw over shared memory on
 * this machine (skipped with a note when ucx_perftest is not installed), a plain memcpy of the
 * same size, and the ratios.
 *
 *   comch_bench [-n iterations] [-s size]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_mmap.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_pe.h>

#define NAME "comch_bench"
#define WINDOW 256 /* rate test: messages in flight (the server's receive queue) */
#define FP_SIZE (64 * 1024) /* fast-path message */
#define FP_WINDOW 64	    /* fast path: buffers the consumer keeps posted, sends in flight */

enum mode { MODE_LATENCY = 1, MODE_RATE = 2, MODE_IDLE = 3 };

static struct {
	bool server;
	uint32_t size;
	uint64_t iters;
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *srv;
	struct doca_comch_client *cl;
	struct doca_ctx *ctx;
	struct doca_comch_connection *conn;
	enum doca_ctx_states state;
	/* client side */
	enum mode mode;
	uint64_t received, sent;
	bool done;
	uint64_t *rtt;
	uint64_t t_send;
	/* server side */
	uint64_t srv_count, srv_expect;
	bool srv_sleep; /* idle phase: sleep on the notification handle instead of polling */
	/* fast path */
	struct doca_comch_consumer *cons;
	struct doca_comch_producer *prod;
	struct doca_mmap *fp_mmap;
	struct doca_buf_inventory *fp_inv;
	uint8_t *fp_mem;
	uint64_t fp_expect, fp_count, fp_done;
	uint32_t remote_consumer;
	bool fp_finished;
	uint8_t buf[4096];
} B = {.size = 64, .iters = 200000};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, doca_error_t err)
{
	fprintf(stderr, "comch_bench (%s): %s: %s\n", B.server ? "server" : "client", what, doca_error_get_name(err));
	exit(1);
}

static void send_buf(struct doca_comch_connection *conn, const void *buf, uint32_t len)
{
	struct doca_comch_task_send *t;
	doca_error_t err = B.server ? doca_comch_server_task_send_alloc_init(B.srv, conn, buf, len, &t)
				    : doca_comch_client_task_send_alloc_init(B.cl, conn, buf, len, &t);

	if (err != DOCA_SUCCESS)
		die("send alloc", err);
	err = doca_task_submit(doca_comch_task_send_as_task(t));
	if (err != DOCA_SUCCESS)
		die("send submit", err);
}

static void send_done(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	doca_task_free(doca_comch_task_send_as_task(t));
}

static void send_fail(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	die("send", doca_task_get_status(doca_comch_task_send_as_task(t)));
}

static void fp_consumer_start(struct doca_comch_connection *conn);

/*
 * Server: a message's first byte says what to do. 'L': echo it (latency). 'R': count it;
 * answer once the count announced by 'N' is reached (rate). 'N': expect that many 'R's.
 */
static void server_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			struct doca_comch_connection *conn)
{
	(void)ev;
	switch (buf[0]) {
	case 'L':
		send_buf(conn, buf, len);
		break;
	case 'N':
		memcpy(&B.srv_expect, buf + 1, sizeof(B.srv_expect));
		B.srv_count = 0;
		break;
	case 'R':
		if (++B.srv_count == B.srv_expect)
			send_buf(conn, "D", 1);
		break;
	case 'I':
		B.srv_sleep = true;
		break;
	case 'F':
		memcpy(&B.fp_expect, buf + 1, sizeof(B.fp_expect));
		B.conn = conn;
		fp_consumer_start(conn);
		break;
	default:
		break;
	}
}

static void client_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			struct doca_comch_connection *conn)
{
	uint64_t t = now_ns();

	(void)ev;
	(void)len;
	(void)conn;
	if (B.mode == MODE_LATENCY && buf[0] == 'L') {
		B.rtt[B.received++] = t - B.t_send;
		if (B.received == B.iters) {
			B.done = true;
			return;
		}
		B.t_send = now_ns();
		send_buf(B.conn, B.buf, B.size);
	} else if (B.mode == MODE_RATE && buf[0] == 'D') {
		B.done = true;
	}
}

static void server_connected(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			     uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
}

/* The client left: the server's work is done. */
static void server_disconnected(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
				uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
	doca_ctx_stop(B.ctx);
}

/* ---- fast path: a consumer on the server, a producer on the client ---- */

static void fp_memory(size_t len)
{
	B.fp_mem = calloc(1, len);
	if (B.fp_mem == NULL || doca_buf_inventory_create(2 * FP_WINDOW, &B.fp_inv) != DOCA_SUCCESS ||
	    doca_buf_inventory_start(B.fp_inv) != DOCA_SUCCESS || doca_mmap_create(&B.fp_mmap) != DOCA_SUCCESS ||
	    doca_mmap_add_dev(B.fp_mmap, B.dev) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(B.fp_mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(B.fp_mmap, B.fp_mem, len) != DOCA_SUCCESS || doca_mmap_start(B.fp_mmap) != DOCA_SUCCESS)
		die("fast-path memory", DOCA_ERROR_NO_MEMORY);
}

static void fp_post(struct doca_buf *b)
{
	struct doca_comch_consumer_task_post_recv *t;
	doca_error_t err = doca_comch_consumer_task_post_recv_alloc_init(B.cons, b, &t);

	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t));
	if (err != DOCA_SUCCESS)
		die("post_recv", err);
}

static void fp_recv_done(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	struct doca_buf *buf = doca_comch_consumer_task_post_recv_get_buf(t);

	(void)a;
	(void)b;
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
	if (++B.fp_count == B.fp_expect) {
		doca_buf_dec_refcount(buf, NULL);
		send_buf(B.conn, "D", 1);
		doca_ctx_stop(doca_comch_consumer_as_ctx(B.cons));
		return;
	}
	doca_buf_reset_data_len(buf);
	if (B.fp_count + FP_WINDOW <= B.fp_expect)
		fp_post(buf);
	else
		doca_buf_dec_refcount(buf, NULL);
}

static void fp_recv_fail(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static void fp_consumer_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			      enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	if (next == DOCA_CTX_STATE_RUNNING) {
		for (uint32_t i = 0; i < FP_WINDOW; i++) {
			struct doca_buf *b;

			if (doca_buf_inventory_buf_get_by_addr(B.fp_inv, B.fp_mmap, B.fp_mem + (size_t)i * FP_SIZE, FP_SIZE,
							       &b) != DOCA_SUCCESS)
				die("consumer buffers", DOCA_ERROR_NO_MEMORY);
			fp_post(b);
		}
	} else if (next == DOCA_CTX_STATE_IDLE) {
		B.fp_finished = true;
	}
}

static void fp_consumer_start(struct doca_comch_connection *conn)
{
	doca_error_t err;

	fp_memory((size_t)FP_WINDOW * FP_SIZE);
	err = doca_comch_consumer_create(conn, B.fp_mmap, &B.cons);
	if (err != DOCA_SUCCESS)
		die("consumer create", err);
	doca_pe_connect_ctx(B.pe, doca_comch_consumer_as_ctx(B.cons));
	doca_ctx_set_state_changed_cb(doca_comch_consumer_as_ctx(B.cons), fp_consumer_state);
	doca_comch_consumer_task_post_recv_set_conf(B.cons, fp_recv_done, fp_recv_fail, FP_WINDOW);
	err = doca_ctx_start(doca_comch_consumer_as_ctx(B.cons));
	if (err != DOCA_ERROR_IN_PROGRESS)
		die("consumer start", err);
}

/* The consumer's work is done: release it (outside its callbacks). */
static void fp_consumer_cleanup(void)
{
	if (B.cons == NULL || !B.fp_finished)
		return;
	doca_comch_consumer_destroy(B.cons);
	B.cons = NULL;
	doca_mmap_destroy(B.fp_mmap);
	doca_buf_inventory_destroy(B.fp_inv);
	free(B.fp_mem);
}

static void fp_send_done(struct doca_comch_producer_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	B.fp_done++;
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void fp_send_fail(struct doca_comch_producer_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	die("producer send", doca_task_get_status(doca_comch_producer_task_send_as_task(t)));
}

static void fp_new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	B.remote_consumer = id;
}

static void fp_expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
}

/* Client: N messages of FP_SIZE bytes to the server's consumer; returns MiB/s. */
static double fp_run(uint64_t n)
{
	uint8_t f[1 + sizeof(uint64_t)] = {'F'};
	uint64_t sent = 0, t0;
	doca_error_t err;

	memcpy(f + 1, &n, sizeof(n));
	send_buf(B.conn, f, sizeof(f));
	while (B.remote_consumer == 0)
		doca_pe_progress(B.pe);
	fp_memory(FP_SIZE);
	memset(B.fp_mem, 0x5a, FP_SIZE);
	err = doca_comch_producer_create(B.conn, &B.prod);
	if (err != DOCA_SUCCESS)
		die("producer create", err);
	doca_pe_connect_ctx(B.pe, doca_comch_producer_as_ctx(B.prod));
	doca_comch_producer_task_send_set_conf(B.prod, fp_send_done, fp_send_fail, 2 * FP_WINDOW);
	if (doca_ctx_start(doca_comch_producer_as_ctx(B.prod)) != DOCA_SUCCESS)
		die("producer start", DOCA_ERROR_BAD_STATE);
	B.mode = MODE_RATE;
	B.done = false;
	t0 = now_ns();
	while (!B.done) {
		if (sent < n && sent - B.fp_done < 2 * FP_WINDOW) {
			struct doca_comch_producer_task_send *t;
			struct doca_buf *b;

			if (doca_buf_inventory_buf_get_by_data(B.fp_inv, B.fp_mmap, B.fp_mem, FP_SIZE, &b) != DOCA_SUCCESS)
				die("producer buffer", DOCA_ERROR_NO_MEMORY);
			err = doca_comch_producer_task_send_alloc_init(B.prod, b, NULL, 0, B.remote_consumer, &t);
			if (err == DOCA_SUCCESS)
				err = doca_task_submit(doca_comch_producer_task_send_as_task(t));
			if (err != DOCA_SUCCESS)
				die("producer submit", err);
			sent++;
			continue;
		}
		doca_pe_progress(B.pe);
	}
	{
		double mib_s = (double)n * FP_SIZE / (1 << 20) / ((double)(now_ns() - t0) / 1e9);

		while (B.fp_done < n)
			doca_pe_progress(B.pe);
		doca_ctx_stop(doca_comch_producer_as_ctx(B.prod));
		doca_comch_producer_destroy(B.prod);
		doca_mmap_destroy(B.fp_mmap);
		doca_buf_inventory_destroy(B.fp_inv);
		free(B.fp_mem);
		return mib_s;
	}
}

/* The same bytes moved by one memcpy per message, in this process: the ceiling of a copy. */
static double memcpy_mib_s(uint64_t n)
{
	uint8_t *a = malloc(FP_SIZE), *b = malloc((size_t)FP_WINDOW * FP_SIZE);
	uint64_t t0;
	double r;

	memset(a, 1, FP_SIZE);
	memset(b, 0, (size_t)FP_WINDOW * FP_SIZE);
	t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		memcpy(b + (i % FP_WINDOW) * FP_SIZE, a, FP_SIZE);
		__asm__ __volatile__("" : : "r"(b) : "memory");
	}
	r = (double)n * FP_SIZE / (1 << 20) / ((double)(now_ns() - t0) / 1e9);
	free(a);
	free(b);
	return r;
}

static void state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	B.state = next;
}

static void open_devices(void)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t err = doca_devinfo_create_list(&list, &n);
	const char *pci = B.server ? "03:00.0" : "b1:00.0";

	if (err != DOCA_SUCCESS)
		die("device list", err);
	for (uint32_t i = 0; i < n && B.dev == NULL; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			doca_dev_open(list[i], &B.dev);
	}
	doca_devinfo_destroy_list(list);
	if (B.dev == NULL)
		die("no device", DOCA_ERROR_NOT_FOUND);
	if (B.server) {
		struct doca_devinfo_rep **reps;

		err = doca_devinfo_rep_create_list(B.dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n);
		if (err != DOCA_SUCCESS || n == 0)
			die("representors", err);
		err = doca_dev_rep_open(reps[0], &B.rep);
		doca_devinfo_rep_destroy_list(reps);
		if (err != DOCA_SUCCESS)
			die("representor open", err);
	}
}

static void start(void)
{
	doca_error_t err;

	open_devices();
	if (doca_pe_create(&B.pe) != DOCA_SUCCESS)
		die("pe", DOCA_ERROR_NO_MEMORY);
	if (B.server) {
		err = doca_comch_server_create(B.dev, B.rep, NAME, &B.srv);
		if (err != DOCA_SUCCESS)
			die("server create", err);
		B.ctx = doca_comch_server_as_ctx(B.srv);
		doca_comch_server_task_send_set_conf(B.srv, send_done, send_fail, 1024);
		doca_comch_server_event_msg_recv_register(B.srv, server_recv);
		doca_comch_server_set_recv_queue_size(B.srv, WINDOW);
		doca_comch_server_event_connection_status_changed_register(B.srv, server_connected, server_disconnected);
	} else {
		err = doca_comch_client_create(B.dev, NAME, &B.cl);
		if (err != DOCA_SUCCESS)
			die("client create", err);
		B.ctx = doca_comch_client_as_ctx(B.cl);
		doca_comch_client_task_send_set_conf(B.cl, send_done, send_fail, 4096);
		doca_comch_client_event_msg_recv_register(B.cl, client_recv);
		doca_comch_client_set_recv_queue_size(B.cl, WINDOW);
		doca_comch_client_event_consumer_register(B.cl, fp_new_consumer, fp_expired_consumer);
	}
	doca_pe_connect_ctx(B.pe, B.ctx);
	doca_ctx_set_state_changed_cb(B.ctx, state_cb);
	err = doca_ctx_start(B.ctx);
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		die("start", err);
}

/* Sleeps on the PE's notification handle until the context is IDLE (the server's idle phase too). */
static void sleep_until_idle(void)
{
	struct epoll_event ev = {.events = EPOLLIN};
	int fd, ep = epoll_create1(0);

	doca_pe_get_notification_handle(B.pe, &fd);
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	while (B.state != DOCA_CTX_STATE_IDLE) {
		if (doca_pe_progress(B.pe))
			continue;
		doca_pe_request_notification(B.pe);
		epoll_wait(ep, &ev, 1, -1);
		doca_pe_clear_notification(B.pe, fd);
	}
	close(ep);
}

static int run_server(void)
{
	B.server = true;
	start();
	/* Busy-poll while the client measures; sleep once it says the idle phase begins ('I') */
	while (B.state != DOCA_CTX_STATE_IDLE && !B.srv_sleep) {
		doca_pe_progress(B.pe);
		fp_consumer_cleanup();
	}
	sleep_until_idle();
	doca_comch_server_destroy(B.srv);
	doca_pe_destroy(B.pe);
	doca_dev_rep_close(B.rep);
	doca_dev_close(B.dev);
	return 0;
}

/* CPU time (user + system) a process used so far, from /proc. */
static double cpu_seconds(pid_t pid)
{
	unsigned long utime = 0, stime = 0;
	char path[64], buf[1024], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	p = p != NULL ? strrchr(buf, ')') : NULL; /* the command name may hold spaces */
	if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
		return 0;
	return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ucx_perftest's "Final:" line: iterations, typical latency, average latency, overall latency, ... */
static bool ucx_run(const char *test, unsigned size, double *typical, double *avg, double *msg_rate, double *bw)
{
	char cmd[256], line[512];
	bool found = false;
	pid_t pid;
	FILE *f;

	if (system("command -v ucx_perftest >/dev/null 2>&1") != 0)
		return false;
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 1);
		dup2(devnull, 2);
		char sz[16];

		snprintf(sz, sizeof(sz), "%u", size);
		execlp("ucx_perftest", "ucx_perftest", "-p", "13377", "-t", test, "-s", sz, (char *)NULL);
		_exit(127);
	}
	/* The ucx_perftest client retries its connection until the server listens. */
	snprintf(cmd, sizeof(cmd),
		 "for i in $(seq 50); do ucx_perftest 127.0.0.1 -p 13377 -t %s -s %u -n %llu 2>/dev/null && break; "
		 "sleep 0.1; done",
		 test, size, (unsigned long long)(size > 4096 ? B.iters / 10 : B.iters));
	f = popen(cmd, "r");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long long it;
		double t50, tavg, tall, bwavg, bwall, mr, mrall;

		if (sscanf(line, "Final: %llu %lf %lf %lf %lf %lf %lf %lf", &it, &t50, &tavg, &tall, &bwavg, &bwall, &mr,
			   &mrall) == 8) {
			*typical = t50;
			*avg = tall;
			*msg_rate = mrall;
			*bw = bwall;
			found = true;
		}
	}
	if (f != NULL)
		pclose(f);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	return found;
}

int main(int argc, char **argv)
{
	double lat_typ, lat_avg, rate, ucx_typ = 0, ucx_avg = 0, ucx_rate = 0, ucx_rate_typ, ucx_rate_avg;
	double cpu0, cpu1, srv0, srv1, t0, idle_s;
	bool have_ucx_lat, have_ucx_rate, have_ucx_bw;
	double fp_bw, ucx_bw = 0, ucx_bw_rate, copy;
	struct doca_log_backend *sdk;
	uint64_t start_ns, sum = 0;
	pid_t server;
	int opt;

	if (argc > 1 && strcmp(argv[1], "--server") == 0)
		return run_server();
	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			B.iters = strtoull(optarg, NULL, 0);
		else if (opt == 's')
			B.size = (uint32_t)strtoul(optarg, NULL, 0);
		else {
			fprintf(stderr, "usage: comch_bench [-n iterations] [-s size]\n");
			return 64;
		}
	}
	if (B.iters < 1000)
		B.iters = 1000;
	if (B.size < 2 || B.size > 4080)
		B.size = 64;
	doca_log_backend_create_with_file_sdk(stderr, &sdk);
	doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_WARNING);

	/* The DPU side: ourselves again, in the DPU role of the same soft card */
	server = fork();
	if (server == 0) {
		setenv("SOFTDOCA_ROLE", "dpu", 1);
		execl("/proc/self/exe", argv[0], "--server", (char *)NULL);
		_exit(127);
	}
	start();
	while (B.state != DOCA_CTX_STATE_RUNNING)
		doca_pe_progress(B.pe);
	doca_comch_client_get_connection(B.cl, &B.conn);

	/* Latency: ping-pong, busy polling on both sides */
	B.rtt = calloc(B.iters, sizeof(*B.rtt));
	memset(B.buf, 'L', sizeof(B.buf));
	for (int pass = 0; pass < 2; pass++) { /* a warm-up pass, then the measured one */
		B.mode = MODE_LATENCY;
		B.received = 0;
		B.done = false;
		B.t_send = now_ns();
		send_buf(B.conn, B.buf, B.size);
		while (!B.done)
			doca_pe_progress(B.pe);
	}
	for (uint64_t i = 0; i < B.iters; i++)
		sum += B.rtt[i];
	qsort(B.rtt, B.iters, sizeof(*B.rtt), cmp_u64);
	lat_typ = (double)B.rtt[B.iters / 2] / 2000.0;
	lat_avg = (double)sum / (double)B.iters / 2000.0;

	/* Message rate: a stream of messages, credits = the server's receive queue */
	{
		uint8_t n[1 + sizeof(uint64_t)] = {'N'};

		memcpy(n + 1, &B.iters, sizeof(B.iters));
		send_buf(B.conn, n, sizeof(n));
	}
	memset(B.buf, 'R', sizeof(B.buf));
	B.mode = MODE_RATE;
	B.done = false;
	start_ns = now_ns();
	for (uint64_t i = 0; i < B.iters; i++) {
		size_t inflight = 0;

		/* keep at most 2 windows queued locally; the rest of the pool stays free */
		while (doca_ctx_get_num_inflight_tasks(B.ctx, &inflight) == DOCA_SUCCESS && inflight >= 2 * WINDOW)
			doca_pe_progress(B.pe);
		send_buf(B.conn, B.buf, B.size);
	}
	while (!B.done)
		doca_pe_progress(B.pe);
	rate = (double)B.iters / ((double)(now_ns() - start_ns) / 1e9);

	/* Fast path: 64 KiB messages from a producer into the server's consumer */
	fp_bw = fp_run(B.iters / 10);

	/* Idle: both sides connected and sleeping on their notification handle for a few seconds */
	send_buf(B.conn, "I", 1);
	while (doca_pe_progress(B.pe))
		;
	{
		struct timespec settle = {0, 100000000};

		nanosleep(&settle, NULL); /* let the server reach its epoll_wait before we measure */
	}
	cpu0 = cpu_seconds(getpid());
	srv0 = cpu_seconds(server);
	t0 = (double)now_ns() / 1e9;
	{
		struct epoll_event ev = {.events = EPOLLIN};
		int fd, ep = epoll_create1(0);

		doca_pe_get_notification_handle(B.pe, &fd);
		epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
		while (doca_pe_progress(B.pe))
			;
		doca_pe_request_notification(B.pe);
		epoll_wait(ep, &ev, 1, 3000);
		doca_pe_clear_notification(B.pe, fd);
		close(ep);
	}
	idle_s = (double)now_ns() / 1e9 - t0;
	cpu1 = cpu_seconds(getpid());
	srv1 = cpu_seconds(server);

	doca_ctx_stop(B.ctx);
	sleep_until_idle();
	waitpid(server, NULL, 0);

	have_ucx_lat = ucx_run("ucp_am_lat", 64, &ucx_typ, &ucx_avg, &ucx_rate_typ, &ucx_bw);
	have_ucx_rate = ucx_run("ucp_am_bw", 64, &ucx_rate_typ, &ucx_rate_avg, &ucx_rate, &ucx_bw);
	have_ucx_bw = ucx_run("ucp_am_bw", FP_SIZE, &ucx_rate_typ, &ucx_rate_avg, &ucx_bw_rate, &ucx_bw);
	copy = memcpy_mib_s(B.iters / 10);

	printf("Comch control path, %u-byte messages, %llu iterations, client (host) <-> server (DPU) processes\n",
	       B.size, (unsigned long long)B.iters);
	printf("  one-way latency   softdoca: median %.3f us, average %.3f us", lat_typ, lat_avg);
	if (have_ucx_lat)
		printf(" | ucx_perftest ucp_am_lat: median %.3f us, average %.3f us | ratio (median) %.2fx, "
		       "(average) %.2fx",
		       ucx_typ, ucx_avg, lat_typ / ucx_typ, lat_avg / ucx_avg);
	else
		printf(" | ucx_perftest not installed (apt-get install ucx-utils)");
	printf("\n  message rate      softdoca: %.0f msg/s", rate);
	if (have_ucx_rate)
		printf(" | ucx_perftest ucp_am_bw: %.0f msg/s | ratio %.2fx", ucx_rate, rate / ucx_rate);
	printf("\n  fast path 64 KiB  softdoca producer->consumer: %.0f MiB/s", fp_bw);
	if (have_ucx_bw)
		printf(" | ucx_perftest ucp_am_bw 64 KiB: %.0f MiB/s | ratio %.2fx", ucx_bw, fp_bw / ucx_bw);
	printf(" | memcpy 64 KiB, one process: %.0f MiB/s", copy);
	printf("\n  idle pair (both sleeping on their PE's handle) over %.1f s: client %.2f%%, server %.2f%% of a core "
	       "(clock tick %ld Hz)\n",
	       idle_s, 100.0 * (cpu1 - cpu0) / idle_s, 100.0 * (srv1 - srv0) / idle_s, sysconf(_SC_CLK_TCK));
	free(B.rtt);
	doca_comch_client_destroy(B.cl);
	doca_pe_destroy(B.pe);
	doca_dev_close(B.dev);
	return 0;
}
