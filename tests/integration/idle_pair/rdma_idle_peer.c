/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An RDMA peer for the idle cost test (host flavour, public DOCA API only). Two processes on
 * one host connect, pass 10 messages, then sleep with receives still posted:
 *
 *   rdma_idle_peer receiver oob	prints "desc HEX" (its connection descriptor), reads the
 *					sender's descriptor as one hex line on stdin, connects
 *   rdma_idle_peer sender oob		the same; the runner relays each side's line to the other
 *   rdma_idle_peer receiver cm PORT	listens on PORT (RDMA-CM), prints "listening"
 *   rdma_idle_peer sender cm PORT	connects to 127.0.0.1:PORT
 *
 * The receiver keeps 4 receive tasks posted (each resubmitted when it completes); the sender
 * sends 10 messages, one at a time (both progress their PE meanwhile). Then both print "idle" and sleep on their PE's notification
 * handle and on stdin (epoll); stdin closing stops the context (posted receives are flushed)
 * and the program ends with "done". The transport is the soft NIC's choice (same host: a
 * shared-memory ring) unless SOFTDOCA_RDMA_TRANSPORT says otherwise.
 *
 * Every run is bounded by an alarm: a wait that never wakes fails loudly instead of hanging.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#define RECEIVES 4
#define MESSAGES 10
#define MSG_LEN 64
#define DESC_MAX 4096

static struct {
	bool receiver, cm, idle, stopping, eof;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_ctx *ctx;
	struct doca_rdma_connection *conn;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	char mem[RECEIVES + 1][MSG_LEN];
	struct doca_buf *bufs[RECEIVES + 1];
	int received, sent, send_pending, receives_posted;
	bool established;
} S;

static void fail(const char *what, const char *why)
{
	printf("FAIL: %s: %s\n", what, why);
	fflush(stdout);
	exit(1);
}

static void check(doca_error_t err, const char *what)
{
	if (err != DOCA_SUCCESS)
		fail(what, doca_error_get_name(err));
}

static void say(const char *line)
{
	printf("%s\n", line);
	fflush(stdout);
}

static void open_dev(void)
{
	struct doca_devinfo **list;
	uint32_t n;

	check(doca_devinfo_create_list(&list, &n), "list devices");
	for (uint32_t i = 0; i < n && S.dev == NULL; i++)
		if (doca_rdma_cap_transport_type_is_supported(list[i], DOCA_RDMA_TRANSPORT_TYPE_RC) == DOCA_SUCCESS)
			check(doca_dev_open(list[i], &S.dev), "dev open");
	doca_devinfo_destroy_list(list);
	if (S.dev == NULL)
		fail("open device", "no device supports RDMA RC");
}

/* ---- tasks ---- */

static void recv_ok(struct doca_rdma_task_receive *t, union doca_data tud, union doca_data cud)
{
	struct doca_task *task = doca_rdma_task_receive_as_task(t);
	struct doca_buf *buf = doca_rdma_task_receive_get_dst_buf(t);

	(void)cud;
	S.received++;
	if (S.stopping) {
		doca_task_free(task);
		S.receives_posted--;
		return;
	}
	/* the same receive goes back, so RECEIVES stay posted */
	(void)tud;
	check(doca_buf_reset_data_len(buf), "reset data len");
	check(doca_task_submit(task), "receive resubmit");
}

static void recv_err(struct doca_rdma_task_receive *t, union doca_data tud, union doca_data cud)
{
	struct doca_task *task = doca_rdma_task_receive_as_task(t);

	(void)tud;
	(void)cud;
	if (!S.stopping) /* only a stop flushes the posted receives */
		fail("receive task", doca_error_get_name(doca_task_get_status(task)));
	doca_task_free(task);
	S.receives_posted--;
}

static void send_ok(struct doca_rdma_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	doca_task_free(doca_rdma_task_send_as_task(t));
	S.sent++;
	S.send_pending--;
}

static void send_err(struct doca_rdma_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	fail("send task", doca_error_get_name(doca_task_get_status(doca_rdma_task_send_as_task(t))));
}

/* ---- connection callbacks (RDMA-CM) ---- */

static void c_req(struct doca_rdma_connection *c, union doca_data cud)
{
	(void)cud;
	S.conn = c;
	check(doca_rdma_connection_accept(c, NULL, 0), "accept");
}

static void c_est(struct doca_rdma_connection *c, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	S.conn = c;
	S.established = true;
}

static void c_fail(struct doca_rdma_connection *c, union doca_data ud, union doca_data cud)
{
	(void)c;
	(void)ud;
	(void)cud;
	fail("connection", "failed");
}

static void c_disc(struct doca_rdma_connection *c, union doca_data ud, union doca_data cud)
{
	(void)c;
	(void)ud;
	(void)cud;
	if (!S.idle) /* once idle, the peer may end first */
		fail("connection", "disconnected while in use");
}

/* ---- set-up ---- */

static void ctx_start(void)
{
	check(doca_mmap_create(&S.mmap), "mmap create");
	check(doca_mmap_set_memrange(S.mmap, S.mem, sizeof(S.mem)), "mmap memrange");
	check(doca_mmap_set_permissions(S.mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), "mmap permissions");
	check(doca_mmap_add_dev(S.mmap, S.dev), "mmap add dev");
	check(doca_mmap_start(S.mmap), "mmap start");
	check(doca_buf_inventory_create(RECEIVES + 1, &S.inv), "inventory create");
	check(doca_buf_inventory_start(S.inv), "inventory start");
	for (int i = 0; i <= RECEIVES; i++)
		check(doca_buf_inventory_buf_get_by_addr(S.inv, S.mmap, S.mem[i], MSG_LEN, &S.bufs[i]), "buf get");

	check(doca_pe_create(&S.pe), "pe create");
	check(doca_rdma_create(S.dev, &S.rdma), "rdma create");
	S.ctx = doca_rdma_as_ctx(S.rdma);
	check(doca_rdma_set_permissions(S.rdma, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), "rdma permissions");
	check(doca_rdma_set_connection_state_callbacks(S.rdma, c_req, c_est, c_fail, c_disc), "conn callbacks");
	check(doca_rdma_task_receive_set_conf(S.rdma, recv_ok, recv_err, RECEIVES), "receive conf");
	check(doca_rdma_task_send_set_conf(S.rdma, send_ok, send_err, 2), "send conf");
	check(doca_pe_connect_ctx(S.pe, S.ctx), "pe connect");
	check(doca_ctx_start(S.ctx), "ctx start");
}

static void post_receives(void)
{
	for (int i = 0; i < RECEIVES; i++) {
		struct doca_rdma_task_receive *t;

		check(doca_rdma_task_receive_allocate_init(S.rdma, S.bufs[i], (union doca_data){.u64 = 0}, &t),
		      "receive alloc");
		check(doca_task_submit(doca_rdma_task_receive_as_task(t)), "receive submit");
		S.receives_posted++;
	}
}

static void send_one(void)
{
	struct doca_rdma_task_send *t;
	struct doca_buf *src = S.bufs[RECEIVES];

	snprintf(S.mem[RECEIVES], MSG_LEN, "idle pair message %d", S.sent);
	check(doca_buf_set_data(src, S.mem[RECEIVES], strlen(S.mem[RECEIVES]) + 1), "buf set data");
	check(doca_rdma_task_send_allocate_init(S.rdma, S.conn, src, (union doca_data){.u64 = 0}, &t), "send alloc");
	check(doca_task_submit(doca_rdma_task_send_as_task(t)), "send submit");
	S.send_pending++;
}

/* Reads one line from stdin (unbuffered: epoll watches the same descriptor later). */
static size_t read_line(char *line, size_t cap)
{
	size_t n = 0;

	while (n + 1 < cap) {
		ssize_t r = read(STDIN_FILENO, line + n, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			fail("stdin", "closed before the peer's descriptor came");
		if (line[n] == '\n')
			break;
		n++;
	}
	line[n] = '\0';
	return n;
}

static void connect_oob(void)
{
	const void *desc;
	size_t len;
	static char hex[2 * DESC_MAX + 2];
	static unsigned char blob[DESC_MAX];
	size_t n;

	check(doca_rdma_export(S.rdma, &desc, &len, &S.conn), "export");
	if (len > DESC_MAX)
		fail("export", "descriptor too large");
	printf("desc ");
	for (size_t i = 0; i < len; i++)
		printf("%02x", ((const unsigned char *)desc)[i]);
	printf("\n");
	fflush(stdout);

	n = read_line(hex, sizeof(hex));
	if (n % 2 != 0 || n == 0)
		fail("peer descriptor", "not hex");
	for (size_t i = 0; i < n / 2; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			fail("peer descriptor", "not hex");
		blob[i] = (unsigned char)b;
	}
	check(doca_rdma_connect(S.rdma, blob, n / 2, S.conn), "connect");
	S.established = true; /* out of band: no callback; work posted now waits for the connection */
}

/* ---- the PE ---- */

/* Sleeps on the PE's notification handle (and on stdin) until done() holds or stdin closes. */
static void pe_sleep(bool (*done)(void))
{
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t fd;
	int ep = epoll_create1(0);

	check(doca_pe_get_notification_handle(S.pe, &fd), "notification handle");
	ev.data.fd = fd;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0)
		fail("epoll add pe", strerror(errno));
	ev.data.fd = STDIN_FILENO;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, STDIN_FILENO, &ev) != 0)
		fail("epoll add stdin (must be a pipe)", strerror(errno));
	while (!done() && !S.eof) {
		char buf[64];

		if (doca_pe_progress(S.pe))
			continue;
		check(doca_pe_request_notification(S.pe), "request notification");
		if (epoll_wait(ep, &ev, 1, 30000) == 1 && ev.data.fd == STDIN_FILENO &&
		    read(STDIN_FILENO, buf, sizeof(buf)) <= 0)
			S.eof = true;
		check(doca_pe_clear_notification(S.pe, fd), "clear notification");
	}
	close(ep);
}

/*
 * Progresses the PE until done() holds (the exchange: a few messages, bounded by the alarm),
 * polling as DOCA's samples do. Only the idle phase, which is what the test measures, sleeps.
 * (A sender that sleeps from the start is covered by tests/unit/rnic.)
 */
static void pe_run(bool (*done)(void))
{
	while (!done())
		doca_pe_progress(S.pe);
}

static bool is_established(void)
{
	return S.established;
}

static bool all_exchanged(void)
{
	return S.receiver ? S.received >= MESSAGES : S.sent >= MESSAGES;
}

static bool never(void)
{
	return false;
}

/* The sender's loop: one message in flight at a time. */
static bool sender_done(void)
{
	if (S.send_pending == 0 && S.sent < MESSAGES)
		send_one();
	return S.sent >= MESSAGES;
}

static void ctx_stop(void)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
	doca_error_t err;

	S.stopping = true;
	err = doca_ctx_stop(S.ctx);
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		check(err, "ctx stop");
	while (doca_ctx_get_state(S.ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
		doca_pe_progress(S.pe);
	if (S.receives_posted != 0)
		fail("ctx stop", "receives left unflushed");
}

int main(int argc, char **argv)
{
	uint16_t port = 0;

	if (argc < 3 || (strcmp(argv[1], "receiver") != 0 && strcmp(argv[1], "sender") != 0) ||
	    (strcmp(argv[2], "oob") != 0 && strcmp(argv[2], "cm") != 0) ||
	    (strcmp(argv[2], "cm") == 0 && (argc != 4 || (port = (uint16_t)atoi(argv[3])) == 0)) ||
	    (strcmp(argv[2], "oob") == 0 && argc != 3)) {
		fprintf(stderr, "usage: rdma_idle_peer receiver|sender oob | receiver|sender cm PORT\n");
		return 64;
	}
	S.receiver = strcmp(argv[1], "receiver") == 0;
	S.cm = strcmp(argv[2], "cm") == 0;
	alarm(50); /* below the test timeout */
	doca_log_backend_create_standard();

	open_dev();
	ctx_start();
	if (S.receiver)
		post_receives();
	if (!S.cm) {
		connect_oob();
	} else if (S.receiver) {
		check(doca_rdma_start_listen_to_port(S.rdma, port), "listen");
		say("listening");
	} else {
		struct doca_rdma_addr *addr;

		check(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &addr), "addr create");
		check(doca_rdma_connect_to_addr(S.rdma, addr, (union doca_data){.u64 = 0}), "connect_to_addr");
		pe_sleep(is_established);
		check(doca_rdma_addr_destroy(addr), "addr destroy");
	}
	if (S.cm && S.receiver)
		pe_sleep(is_established);
	if (!S.established)
		fail("connection", "stdin closed before it was established");
	say("connected");

	pe_run(S.receiver ? all_exchanged : sender_done);
	printf(S.receiver ? "received %d\n" : "sent %d\n", MESSAGES);
	S.idle = true;
	say("idle");

	pe_sleep(never); /* until stdin closes; receives stay posted on the receiver */
	ctx_stop();

	check(doca_rdma_destroy(S.rdma), "rdma destroy");
	check(doca_pe_destroy(S.pe), "pe destroy");
	for (int i = 0; i <= RECEIVES; i++)
		check(doca_buf_dec_refcount(S.bufs[i], NULL), "buf release");
	check(doca_buf_inventory_destroy(S.inv), "inventory destroy");
	check(doca_mmap_destroy(S.mmap), "mmap destroy");
	check(doca_dev_close(S.dev), "dev close");
	say("done");
	return 0;
}
