/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A Comch test peer, built for both sides of the card (DPU flavour: server, host flavour:
 * client). The integration tests run several of them as real processes: many clients on one
 * server, a peer killed mid-stream, a client without a server, sleeping (epoll) peers.
 *
 *   comch_peer server [-p PCI] [-r REP] [-n NAME] [--clients N] [--event] [--queue N]
 *	echoes every message back; exits 0 once N clients came and went ("server done").
 *   comch_peer client [-p PCI] [-n NAME] [--messages M] [--size S] [--stream] [--event]
 *		      [--give-up MS] [--burst B]
 *	sends M messages of S bytes (B at a time) and checks each echo ("client done"); --stream
 *	goes on until the server goes away ("server gone", exit 0); --give-up stops a client
 *	still waiting for a server after MS milliseconds ("gave up", exit 2).
 *   --idle (either side; implies --event): once connected (a client: once its messages are
 *	echoed, "idle"), sleep on the PE's notification handle and on stdin; stdin closing stops
 *	the context, so the idle cost test can measure a connected pair that does nothing.
 * Every run is bounded by an alarm: a hang fails loudly instead of blocking the test suite.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_pe.h>

#define MAX_MSG 4080

struct peer {
	bool server;
	const char *pci;
	const char *rep;
	const char *name;
	uint32_t clients;  /* server: clients to serve before exiting */
	uint32_t messages; /* client: messages to exchange */
	uint32_t size;
	uint32_t burst;
	uint32_t queue;
	bool stream;
	bool event;
	bool idle;
	long give_up_ms;

	struct doca_dev *dev;
	struct doca_dev_rep *rep_dev;
	struct doca_pe *pe;
	struct doca_comch_server *srv;
	struct doca_comch_client *cl;
	struct doca_ctx *ctx;
	struct doca_comch_connection *conn;
	enum doca_ctx_states state;
	uint32_t connected, disconnected;
	uint64_t sent, echoed, received, failed;
	doca_error_t last_error;
	bool streaming_said;
	uint8_t msg[MAX_MSG];
};

static struct peer P = {.name = "comch_peer", .clients = 1, .messages = 100, .size = 64, .burst = 1, .queue = 16};

static void die(const char *what, doca_error_t err)
{
	printf("FAIL: %s: %s\n", what, doca_error_get_name(err));
	fflush(stdout);
	exit(1);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Message n carries its number in every byte, so an echo can be checked. */
static void fill(uint8_t *buf, uint32_t len, uint64_t n)
{
	memset(buf, (int)(n % 251) + 1, len);
}

static void send_msg(struct doca_comch_connection *conn, const uint8_t *buf, uint32_t len)
{
	struct doca_comch_task_send *task;
	doca_error_t err;

	err = P.server ? doca_comch_server_task_send_alloc_init(P.srv, conn, buf, len, &task)
		       : doca_comch_client_task_send_alloc_init(P.cl, conn, buf, len, &task);
	if (err != DOCA_SUCCESS)
		die("send alloc", err);
	err = doca_task_submit(doca_comch_task_send_as_task(task));
	if (err != DOCA_SUCCESS)
		die("send submit", err);
}

static void client_send_next(void)
{
	fill(P.msg, P.size, P.sent);
	send_msg(P.conn, P.msg, P.size);
	P.sent++;
}

static void send_ok(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	doca_task_free(doca_comch_task_send_as_task(task));
}

static void send_err(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	P.failed++;
	P.last_error = doca_task_get_status(doca_comch_task_send_as_task(task));
	doca_task_free(doca_comch_task_send_as_task(task));
}

/* The idle cost test measures from this line on. */
static void say_idle(void)
{
	printf("idle\n");
	fflush(stdout);
}

static void recv_cb(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
		    struct doca_comch_connection *conn)
{
	(void)ev;
	P.received++;
	if (P.server) {
		send_msg(conn, buf, len); /* echo */
		return;
	}
	fill(P.msg, P.size, P.echoed);
	if (len != P.size || memcmp(buf, P.msg, len) != 0) {
		printf("FAIL: echo %llu is wrong (%u bytes, first byte %u, expected %u)\n", (unsigned long long)P.echoed,
		       len, len ? buf[0] : 0, P.msg[0]);
		exit(1);
	}
	P.echoed++;
	if (P.stream && !P.streaming_said && P.echoed >= 10) {
		printf("streaming\n");
		fflush(stdout);
		P.streaming_said = true;
	}
	if (P.stream || P.sent < P.messages)
		client_send_next();
	else if (P.echoed == P.messages && P.idle)
		say_idle();
	else if (P.echoed == P.messages)
		(void)doca_ctx_stop(P.ctx);
}

static void connect_cb(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *conn,
		       uint8_t ok)
{
	(void)ev;
	(void)conn;
	P.connected += ok;
	printf("connected %u\n", P.connected);
	fflush(stdout);
}

static void disconnect_cb(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *conn,
			  uint8_t ok)
{
	(void)ev;
	(void)conn;
	P.disconnected += ok;
	printf("disconnected %u\n", P.disconnected);
	fflush(stdout);
	if (P.disconnected >= P.clients)
		(void)doca_ctx_stop(P.ctx);
}

static void state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	P.state = next;
	if (!P.server && next == DOCA_CTX_STATE_RUNNING) {
		doca_error_t err = doca_comch_client_get_connection(P.cl, &P.conn);

		if (err != DOCA_SUCCESS)
			die("get connection", err);
		printf("client running\n");
		fflush(stdout);
		for (uint32_t i = 0; i < P.burst && (P.stream || P.sent < P.messages); i++)
			client_send_next();
		if (P.idle && P.messages == 0)
			say_idle();
	}
	if (P.server && next == DOCA_CTX_STATE_RUNNING) {
		printf("server ready\n");
		fflush(stdout);
	}
}

static doca_error_t open_dev(void)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS)
		return err;
	err = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], P.pci, &eq) == DOCA_SUCCESS && eq) {
			err = doca_dev_open(list[i], &P.dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	if (err != DOCA_SUCCESS || !P.server)
		return err;
	{
		struct doca_devinfo_rep **reps;

		err = doca_devinfo_rep_create_list(P.dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n);
		if (err != DOCA_SUCCESS)
			return err;
		err = DOCA_ERROR_NOT_FOUND;
		for (uint32_t i = 0; i < n; i++) {
			uint8_t eq = 0;

			if (doca_devinfo_rep_is_equal_pci_addr(reps[i], P.rep, &eq) == DOCA_SUCCESS && eq) {
				err = doca_dev_rep_open(reps[i], &P.rep_dev);
				break;
			}
		}
		doca_devinfo_rep_destroy_list(reps);
	}
	return err;
}

static void setup(void)
{
	union doca_data ud = {.ptr = &P};
	doca_error_t err;

	err = open_dev();
	if (err != DOCA_SUCCESS)
		die("open device", err);
	err = doca_pe_create(&P.pe);
	if (err != DOCA_SUCCESS)
		die("pe create", err);
	if (P.server) {
		err = doca_comch_server_create(P.dev, P.rep_dev, P.name, &P.srv);
		if (err != DOCA_SUCCESS)
			die("server create", err);
		P.ctx = doca_comch_server_as_ctx(P.srv);
		doca_comch_server_task_send_set_conf(P.srv, send_ok, send_err, 1024);
		doca_comch_server_event_msg_recv_register(P.srv, recv_cb);
		doca_comch_server_event_connection_status_changed_register(P.srv, connect_cb, disconnect_cb);
		doca_comch_server_set_recv_queue_size(P.srv, P.queue);
	} else {
		err = doca_comch_client_create(P.dev, P.name, &P.cl);
		if (err != DOCA_SUCCESS)
			die("client create", err);
		P.ctx = doca_comch_client_as_ctx(P.cl);
		doca_comch_client_task_send_set_conf(P.cl, send_ok, send_err, 1024);
		doca_comch_client_event_msg_recv_register(P.cl, recv_cb);
		doca_comch_client_set_recv_queue_size(P.cl, P.queue);
	}
	doca_pe_connect_ctx(P.pe, P.ctx);
	doca_ctx_set_state_changed_cb(P.ctx, state_cb);
	doca_ctx_set_user_data(P.ctx, ud);
	err = doca_ctx_start(P.ctx);
	if (err != (P.server ? DOCA_SUCCESS : DOCA_ERROR_IN_PROGRESS))
		die("ctx start", err);
}

/* --idle: stdin closing (EOF) ends the idle wait; it is then no longer watched, as EOF stays
 * readable. */
static void idle_input(int ep)
{
	char buf[64];

	if (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
		return;
	epoll_ctl(ep, EPOLL_CTL_DEL, STDIN_FILENO, NULL);
	if (P.state == DOCA_CTX_STATE_RUNNING || P.state == DOCA_CTX_STATE_STARTING)
		(void)doca_ctx_stop(P.ctx);
}

/* Polling (sample style) or sleeping on the PE's notification handle. */
static void run_until_idle(void)
{
	struct timespec ts = {0, 10000};
	uint64_t start = now_ms();
	bool gave_up = false;
	int ep = -1, fd = -1;

	if (P.event) {
		struct epoll_event ev = {.events = EPOLLIN};

		doca_pe_get_notification_handle(P.pe, &fd);
		ep = epoll_create1(0);
		ev.data.fd = fd;
		epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
		if (P.idle) {
			ev.data.fd = STDIN_FILENO;
			if (epoll_ctl(ep, EPOLL_CTL_ADD, STDIN_FILENO, &ev) != 0) {
				printf("FAIL: --idle needs a pipe on stdin: %s\n", strerror(errno));
				exit(1);
			}
		}
	}
	while (P.state != DOCA_CTX_STATE_IDLE) {
		if (P.give_up_ms > 0 && !gave_up && P.state == DOCA_CTX_STATE_STARTING &&
		    now_ms() - start >= (uint64_t)P.give_up_ms) {
			doca_error_t err = doca_ctx_stop(P.ctx);

			printf("gave up waiting for the server (stop: %s)\n", doca_error_get_name(err));
			fflush(stdout);
			gave_up = true;
		}
		if (doca_pe_progress(P.pe))
			continue;
		if (!P.event) {
			nanosleep(&ts, NULL);
			continue;
		}
		/* Sleep until the PE has something (bounded only to honour --give-up). */
		doca_pe_request_notification(P.pe);
		{
			struct epoll_event ev;

			if (epoll_wait(ep, &ev, 1, P.give_up_ms > 0 ? 50 : -1) == 1 && ev.data.fd == STDIN_FILENO)
				idle_input(ep);
		}
		doca_pe_clear_notification(P.pe, fd);
	}
	if (ep >= 0)
		close(ep);
	if (gave_up) {
		printf("gave up: client stopped while starting\n");
		fflush(stdout);
	}
}

static void teardown(void)
{
	doca_error_t err = P.server ? doca_comch_server_destroy(P.srv) : doca_comch_client_destroy(P.cl);

	if (err != DOCA_SUCCESS)
		die("destroy", err);
	if (doca_pe_destroy(P.pe) != DOCA_SUCCESS)
		die("pe destroy", DOCA_ERROR_IN_USE);
	if (P.rep_dev != NULL)
		doca_dev_rep_close(P.rep_dev);
	doca_dev_close(P.dev);
}

static long arg_num(int *i, int argc, char **argv)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "%s needs a value\n", argv[*i]);
		exit(64);
	}
	return strtol(argv[++*i], NULL, 0);
}

int main(int argc, char **argv)
{
	struct doca_log_backend *sdk;

	if (argc < 2 || (strcmp(argv[1], "server") != 0 && strcmp(argv[1], "client") != 0)) {
		fprintf(stderr, "usage: comch_peer server|client [options]\n");
		return 64;
	}
	P.server = strcmp(argv[1], "server") == 0;
	P.pci = P.server ? "03:00.0" : "b1:00.0";
	P.rep = "b1:00.0";
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			P.pci = argv[++i];
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			P.rep = argv[++i];
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			P.name = argv[++i];
		else if (strcmp(argv[i], "--clients") == 0)
			P.clients = (uint32_t)arg_num(&i, argc, argv);
		else if (strcmp(argv[i], "--messages") == 0)
			P.messages = (uint32_t)arg_num(&i, argc, argv);
		else if (strcmp(argv[i], "--size") == 0)
			P.size = (uint32_t)arg_num(&i, argc, argv);
		else if (strcmp(argv[i], "--burst") == 0)
			P.burst = (uint32_t)arg_num(&i, argc, argv);
		else if (strcmp(argv[i], "--queue") == 0)
			P.queue = (uint32_t)arg_num(&i, argc, argv);
		else if (strcmp(argv[i], "--give-up") == 0)
			P.give_up_ms = arg_num(&i, argc, argv);
		else if (strcmp(argv[i], "--stream") == 0)
			P.stream = true;
		else if (strcmp(argv[i], "--event") == 0)
			P.event = true;
		else if (strcmp(argv[i], "--idle") == 0)
			P.idle = P.event = true;
		else {
			fprintf(stderr, "unknown option %s\n", argv[i]);
			return 64;
		}
	}
	if (P.size > MAX_MSG || P.size == 0)
		P.size = 64;
	alarm(40); /* below the test timeout: a hang dies with SIGALRM, not silently */
	doca_log_backend_create_standard();
	doca_log_backend_create_with_file_sdk(stderr, &sdk);
	doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_WARNING);

	setup();
	run_until_idle();
	if (P.server) {
		printf("server done: clients=%u disconnected=%u messages=%llu\n", P.connected, P.disconnected,
		       (unsigned long long)P.received);
	} else if (P.give_up_ms > 0 && P.connected == 0 && P.conn == NULL) {
		teardown();
		return 2;
	} else if (P.stream || P.echoed < P.messages) {
		printf("%sserver gone: echoes=%llu failed_sends=%llu last_error=%s\n", P.stream ? "" : "FAIL: ",
		       (unsigned long long)P.echoed, (unsigned long long)P.failed, doca_error_get_name(P.last_error));
		fflush(stdout);
		teardown();
		return P.stream ? 0 : 1;
	} else {
		printf("client done: %llu echoes\n", (unsigned long long)P.echoed);
	}
	fflush(stdout);
	teardown();
	return 0;
}
