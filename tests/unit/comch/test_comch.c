/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch unit tests. The device model loads once per process with its role, so every scenario
 * runs in a child process of this program (re-executed with its role and configuration in the
 * environment); pair scenarios run a DPU-side server child and a host-side client child at
 * once. Children are bounded by alarm(): a hang fails, it never blocks the suite.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_comch.h"
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "comch/comch_priv.h" /* the wire, to speak it as a hostile peer would */
#include "softhw/fabric/channel.h"
#include "log_test.h"
#include "test.h"
#include "dev_test.h"

static FILE *sdk_log_file;
static char self_path[4096];
static char scratch[64];

/* ---- helpers for children ---- */

static void child_init(void)
{
	struct doca_log_backend *sdk;

	sdk_log_file = tmpfile();
	doca_log_backend_create_with_file_sdk(sdk_log_file, &sdk);
	doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_DEBUG);
	alarm(30);
}

/* True if an SDK line containing `text` was logged since the last call (then forgets them). */
static bool logged(const char *text)
{
	return log_take(sdk_log_file, text);
}

/* True if an SDK line containing `text` was logged since the last logged(); forgets nothing. */
static bool sdk_log_has(const char *text)
{
	return strstr(log_read(sdk_log_file), text) != NULL;
}

/* Progresses pe until ctx is in `want` (or the alarm fires). */
static void progress_until_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states want)
{
	while (state_of(ctx) != want)
		doca_pe_progress(pe);
}

static void progress_for_ms(struct doca_pe *pe, long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		doca_pe_progress(pe);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Connection attempts a client makes: its ops with connect counted */
static struct softhw_comch_ops counting_ops;
static doca_error_t (*real_connect)(const struct softhw_card *card, const char *name, int *link);
static int connects;

static doca_error_t counting_connect(const struct softhw_card *card, const char *name, int *link)
{
	connects++;
	return real_connect(card, name, link);
}

/* A PE asleep on its notification handle for ms, woken as often as its contexts ask. */
static void sleep_on_pe(struct doca_pe *pe, long ms)
{
	struct epoll_event ev = {.events = EPOLLIN};
	struct timespec t0, t;
	int fd, ep = epoll_create1(0);
	long left = ms;

	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (left > 0) {
		while (doca_pe_progress(pe))
			;
		CHECK_OK(doca_pe_request_notification(pe));
		(void)epoll_wait(ep, &ev, 1, (int)left);
		CHECK_OK(doca_pe_clear_notification(pe, fd));
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ms - ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
	}
	close(ep);
}

static void send_ok(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	doca_task_free(doca_comch_task_send_as_task(t));
}

static int send_errors;
static doca_error_t last_send_error;

static void send_err(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)a;
	(void)b;
	send_errors++;
	last_send_error = doca_task_get_status(doca_comch_task_send_as_task(t));
	doca_task_free(doca_comch_task_send_as_task(t));
}

static void recv_ignore(struct doca_comch_event_msg_recv *ev, uint8_t *b, uint32_t l, struct doca_comch_connection *c)
{
	(void)ev;
	(void)b;
	(void)l;
	(void)c;
}

/* ---- capabilities per profile and side ---- */

struct caps_want {
	doca_error_t server, client, limits;
	uint32_t name_len, msg, queue, clients, tasks;
	doca_error_t fast_path;
	uint32_t fp_buf;
};

static void check_caps(const struct caps_want *w)
{
	struct doca_devinfo **list;
	uint32_t n, v;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n > 0);
	for (uint32_t i = 0; i < n; i++) {
		const struct doca_devinfo *d = list[i];

		CHECK_ERR(doca_comch_cap_server_is_supported(d), w->server);
		CHECK_ERR(doca_comch_cap_client_is_supported(d), w->client);
		CHECK_ERR(doca_comch_cap_get_max_name_len(d, &v), w->limits);
		if (w->limits == DOCA_SUCCESS)
			CHECK(v == w->name_len);
		CHECK_ERR(doca_comch_cap_get_max_msg_size(d, &v), w->limits);
		if (w->limits == DOCA_SUCCESS)
			CHECK(v == w->msg);
		CHECK_ERR(doca_comch_cap_get_max_recv_queue_size(d, &v), w->limits);
		if (w->limits == DOCA_SUCCESS)
			CHECK(v == w->queue);
		CHECK_ERR(doca_comch_cap_get_max_clients(d, &v), w->limits);
		if (w->limits == DOCA_SUCCESS)
			CHECK(v == w->clients);
		CHECK_ERR(doca_comch_cap_get_max_send_tasks(d, &v), w->limits);
		if (w->limits == DOCA_SUCCESS)
			CHECK(v == w->tasks);
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct doca_devinfo *d = list[i];
		doca_error_t fp = w->fast_path;

		CHECK_ERR(doca_comch_producer_cap_is_supported(d), fp);
		CHECK_ERR(doca_comch_consumer_cap_is_supported(d), fp);
		CHECK_ERR(doca_comch_producer_cap_get_max_num_tasks(d, &v), fp);
		if (fp == DOCA_SUCCESS)
			CHECK(v == w->tasks);
		CHECK_ERR(doca_comch_consumer_cap_get_max_buf_size(d, &v), fp);
		if (fp == DOCA_SUCCESS)
			CHECK(v == w->fp_buf);
		CHECK_ERR(doca_comch_producer_cap_get_max_buf_size(d, &v), fp);
		CHECK_ERR(doca_comch_producer_cap_get_max_buf_list_len(d, &v), fp);
		if (fp == DOCA_SUCCESS)
			CHECK(v == 1);
		CHECK_ERR(doca_comch_producer_cap_get_max_producers(d, &v), fp);
		if (fp == DOCA_SUCCESS)
			CHECK(v == 64);
		CHECK_ERR(doca_comch_consumer_cap_get_max_consumers(d, &v), fp);
		CHECK_ERR(doca_comch_consumer_cap_get_max_imm_data_len(d, &v), fp);
		if (fp == DOCA_SUCCESS)
			CHECK(v == 32);
	}
	CHECK_ERR(doca_comch_consumer_cap_get_max_imm_data_len(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_get_max_msg_size(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_get_max_msg_size(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_server_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_cap_client_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	doca_devinfo_destroy_list(list);
}

static void child_caps_bf3_host(void)
{
	struct caps_want w = {DOCA_ERROR_NOT_SUPPORTED, DOCA_SUCCESS, DOCA_SUCCESS, 120, 4080, 8192, 512, 8192,
			      DOCA_SUCCESS, 32u << 20};

	check_caps(&w);
}

static void child_caps_bf3_dpu(void)
{
	struct caps_want w = {DOCA_SUCCESS, DOCA_ERROR_NOT_SUPPORTED, DOCA_SUCCESS, 120, 4080, 8192, 512, 8192,
			      DOCA_SUCCESS, 32u << 20};

	check_caps(&w);
}

static void child_caps_bf2_host(void)
{
	struct caps_want w = {DOCA_ERROR_NOT_SUPPORTED, DOCA_SUCCESS, DOCA_SUCCESS, 120, 4080, 4096, 256, 4096,
			      DOCA_SUCCESS, 16u << 20};

	check_caps(&w);
}

static void child_caps_bf2_dpu(void)
{
	struct caps_want w = {DOCA_SUCCESS, DOCA_ERROR_NOT_SUPPORTED, DOCA_SUCCESS, 120, 4080, 4096, 256, 4096,
			      DOCA_SUCCESS, 16u << 20};

	check_caps(&w);
}

static void child_caps_cx7(void)
{
	struct caps_want w = {DOCA_ERROR_NOT_SUPPORTED, DOCA_ERROR_NOT_SUPPORTED, DOCA_ERROR_NOT_SUPPORTED,
			      .fast_path = DOCA_ERROR_NOT_SUPPORTED};
	struct doca_comch_client *cl = NULL;
	struct doca_dev *dev = open_pci("c1:00.0");

	check_caps(&w);
	CHECK(dev != NULL);
	CHECK_ERR(doca_comch_client_create(dev, "x", &cl), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(logged("clients run on the host side of a BlueField"));
	doca_dev_close(dev);
}

/* ---- the client alone (host side) ---- */

static void child_client_api(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_comch_client *cl = NULL;
	struct doca_comch_connection *conn = NULL;
	struct doca_comch_task_send *task = NULL;
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;
	char name[200];
	uint32_t v;

	CHECK(dev != NULL);
	/* create: arguments and the name length (120 with the NUL) */
	CHECK_ERR(doca_comch_client_create(NULL, "x", &cl), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_create(dev, NULL, &cl), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_create(dev, "x", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_create(dev, "", &cl), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("the server name is empty"));
	memset(name, 'n', sizeof(name));
	name[120] = '\0';
	CHECK_ERR(doca_comch_client_create(dev, name, &cl), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("the server name is too long; it must have 1 to 119 characters"));
	name[119] = '\0';
	CHECK_OK(doca_comch_client_create(dev, name, &cl));
	CHECK_OK(doca_comch_client_destroy(cl));
	CHECK_OK(doca_comch_client_create(dev, "unit_no_server", &cl));
	ctx = doca_comch_client_as_ctx(cl);
	CHECK(ctx != NULL);
	CHECK(doca_comch_client_as_ctx(NULL) == NULL);

	/* limits before start: the device's range */
	CHECK_OK(doca_comch_client_get_max_msg_size(cl, &v));
	CHECK(v == 4080);
	CHECK_ERR(doca_comch_client_set_max_msg_size(cl, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_set_max_msg_size(cl, 4081), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("the device allows 1 to 4080"));
	CHECK_OK(doca_comch_client_set_max_msg_size(cl, 1000));
	CHECK_OK(doca_comch_client_get_max_msg_size(cl, &v));
	CHECK(v == 1000);
	CHECK_ERR(doca_comch_client_set_recv_queue_size(cl, 8193), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_client_set_recv_queue_size(cl, 16));
	CHECK_OK(doca_comch_client_get_recv_queue_size(cl, &v));
	CHECK(v == 16);
	{
		struct doca_dev *got = NULL;

		CHECK_OK(doca_comch_client_get_device(cl, &got));
		CHECK(got == dev);
	}
	CHECK_ERR(doca_comch_client_task_send_set_conf(cl, send_ok, send_err, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_task_send_set_conf(cl, send_ok, send_err, 8193), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_task_send_set_conf(cl, NULL, send_err, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_client_task_send_set_conf(cl, send_ok, send_err, 8));
	CHECK_ERR(doca_comch_client_event_msg_recv_register(cl, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_client_event_msg_recv_register(cl, recv_ignore));
	CHECK_ERR(doca_comch_client_get_connection(cl, &conn), DOCA_ERROR_BAD_STATE);

	/* no PE: the generic context refuses */
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_NOT_CONNECTED);
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));

	/* no server: IN_PROGRESS, then STARTING for as long as it takes */
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_STARTING);
	progress_for_ms(pe, 60);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_STARTING);
	CHECK_ERR(doca_comch_client_get_connection(cl, &conn), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_client_set_max_msg_size(cl, 10), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_client_set_recv_queue_size(cl, 10), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_client_task_send_set_conf(cl, send_ok, send_err, 8), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_client_event_msg_recv_register(cl, recv_ignore), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_client_task_send_alloc_init(cl, NULL, "x", 1, &task), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_client_destroy(cl), DOCA_ERROR_IN_USE);
	CHECK(logged("it is not idle"));

	/* a sleeping PE is not woken for nothing while the client waits (retries are internal) */
	{
		struct epoll_event ev = {.events = EPOLLIN};
		int fd, ep = epoll_create1(0), woke = 0;

		CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
		epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
		for (int i = 0; i < 3; i++) {
			while (doca_pe_progress(pe))
				;
			CHECK_OK(doca_pe_request_notification(pe));
			woke += epoll_wait(ep, &ev, 1, 30);
			CHECK_OK(doca_pe_clear_notification(pe, fd));
		}
		/* each wake-up is a retry tick (10 ms): a few, not a busy loop */
		CHECK(woke <= 3);
		close(ep);
	}
	CHECK(state_of(ctx) == DOCA_CTX_STATE_STARTING);

	/* stop: back to IDLE at once, with a line saying why it never connected */
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK(state_of(ctx) == DOCA_CTX_STATE_IDLE);
	CHECK(logged("stopped before it connected: no server 'unit_no_server'"));
	CHECK_OK(doca_ctx_stop(ctx));
	/* it can start again, and stop again */
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(doca_ctx_stop(ctx));
	/*
	 * A client started long before its server backs off: 10 ms after its first attempt, twice as
	 * long after each miss, up to 160 ms, so over 1.2 s of waiting about a dozen attempts (at a
	 * fixed 10 ms it was 120, each a wake-up of its process). It keeps trying all the same.
	 */
	counting_ops = *cl->ep.hw;
	real_connect = counting_ops.connect;
	counting_ops.connect = counting_connect;
	cl->ep.hw = &counting_ops;
	connects = 0;
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	sleep_on_pe(pe, 1200);
	fprintf(stderr, "  a client without a server: %d connection attempts in 1.2 s\n", connects);
	CHECK(connects >= 4 && connects <= 20);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_STARTING);
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK_OK(doca_comch_client_destroy(cl));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_ERR(doca_comch_client_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_dev_close(dev));
}

/* ---- the server alone (DPU side) ---- */

static void child_server_api(void)
{
	struct doca_dev *dev = open_pci("03:00.0"), *dev1 = open_pci("03:00.1");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0"), *rep1 = open_rep(dev1, "b1:00.1");
	struct doca_comch_server *srv = NULL, *twin = NULL;
	struct doca_comch_connection *bogus = (struct doca_comch_connection *)&srv;
	struct doca_pe *pe = NULL;
	struct doca_ctx *ctx;
	char name[200];
	uint32_t v;

	CHECK(dev != NULL && dev1 != NULL && rep != NULL && rep1 != NULL);
	CHECK_ERR(doca_comch_server_create(NULL, rep, "s", &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(dev, NULL, "s", &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(dev, rep, NULL, &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_create(dev, rep, "s", NULL), DOCA_ERROR_INVALID_VALUE);
	/* a representor of another device */
	CHECK_ERR(doca_comch_server_create(dev, rep1, "s", &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("the representor does not belong to device"));
	memset(name, 's', sizeof(name));
	name[120] = '\0';
	CHECK_ERR(doca_comch_server_create(dev, rep, name, &srv), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("too long"));

	CHECK_OK(doca_comch_server_create(dev, rep, "unit_server", &srv));
	ctx = doca_comch_server_as_ctx(srv);
	{
		struct doca_dev *d = NULL;
		struct doca_dev_rep *r = NULL;

		CHECK_OK(doca_comch_server_get_device(srv, &d));
		CHECK_OK(doca_comch_server_get_device_rep(srv, &r));
		CHECK(d == dev && r == rep);
	}
	CHECK_ERR(doca_comch_server_set_max_msg_size(srv, 5000), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_set_max_msg_size(srv, 512));
	CHECK_OK(doca_comch_server_get_max_msg_size(srv, &v));
	CHECK(v == 512);
	CHECK_ERR(doca_comch_server_set_recv_queue_size(srv, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_set_recv_queue_size(srv, 32));
	CHECK_OK(doca_comch_server_get_recv_queue_size(srv, &v));
	CHECK(v == 32);
	CHECK_ERR(doca_comch_server_event_connection_status_changed_register(srv, NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_server_task_send_set_conf(srv, send_ok, send_err, 4));
	CHECK_OK(doca_comch_server_event_msg_recv_register(srv, recv_ignore));
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));

	/* start: synchronous */
	CHECK_OK(doca_ctx_start(ctx));
	CHECK(state_of(ctx) == DOCA_CTX_STATE_RUNNING);
	CHECK_ERR(doca_comch_server_set_max_msg_size(srv, 100), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_server_event_msg_recv_register(srv, recv_ignore), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_server_disconnect(srv, bogus), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_disconnect(srv, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_server_destroy(srv), DOCA_ERROR_IN_USE);

	/* a second server of the same name for the same host function cannot start */
	CHECK_OK(doca_comch_server_create(dev, rep, "unit_server", &twin));
	{
		struct doca_pe *pe2 = NULL;

		CHECK_OK(doca_pe_create(&pe2));
		CHECK_OK(doca_pe_connect_ctx(pe2, doca_comch_server_as_ctx(twin)));
		CHECK_ERR(doca_ctx_start(doca_comch_server_as_ctx(twin)), DOCA_ERROR_ALREADY_EXIST);
		CHECK(logged("another server with this name already serves host function"));
		CHECK(state_of(doca_comch_server_as_ctx(twin)) == DOCA_CTX_STATE_IDLE);
		CHECK_OK(doca_comch_server_destroy(twin));
		CHECK_OK(doca_pe_destroy(pe2));
	}
	/* the same name behind the other host function is another rendezvous */
	CHECK_OK(doca_comch_server_create(dev1, rep1, "unit_server", &twin));
	{
		struct doca_pe *pe2 = NULL;

		CHECK_OK(doca_pe_create(&pe2));
		CHECK_OK(doca_pe_connect_ctx(pe2, doca_comch_server_as_ctx(twin)));
		CHECK_OK(doca_ctx_start(doca_comch_server_as_ctx(twin)));
		CHECK_OK(doca_ctx_stop(doca_comch_server_as_ctx(twin)));
		CHECK_OK(doca_comch_server_destroy(twin));
		CHECK_OK(doca_pe_destroy(pe2));
	}

	/* no clients: stop is immediate; the name is free again afterwards */
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK(state_of(ctx) == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_OK(doca_ctx_stop(ctx));
	CHECK_OK(doca_comch_server_destroy(srv));
	CHECK_OK(doca_pe_destroy(pe));
	/* a device that holds a server cannot close under it */
	doca_dev_rep_close(rep);
	doca_dev_rep_close(rep1);
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_dev_close(dev1));
}

/* ---- a server and a client in two processes ---- */

static struct {
	struct doca_comch_server *srv;
	struct doca_comch_client *cl;
	struct doca_comch_connection *conn;
	struct doca_pe *pe;
	int connects, disconnects;
	uint64_t echoes;
	uint32_t last_len;
	bool user_data_ok;
} pair;

static void srv_send(struct doca_comch_connection *c, const void *m, uint32_t len)
{
	struct doca_comch_task_send *t;

	CHECK_OK(doca_comch_server_task_send_alloc_init(pair.srv, c, m, len, &t));
	CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
}

static void srv_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len, struct doca_comch_connection *c)
{
	(void)ev;
	CHECK(doca_comch_server_get_server_ctx(c) == pair.srv);
	CHECK(doca_comch_client_get_client_ctx(c) == NULL);
	CHECK(doca_comch_connection_get_user_data(c).u64 == 0x5eed);
	if (len == 10 && memcmp(buf, "disconnect", 10) == 0) {
		CHECK_OK(doca_comch_server_disconnect(pair.srv, c));
		CHECK_ERR(doca_comch_server_disconnect(pair.srv, c), DOCA_ERROR_INVALID_VALUE);
		return;
	}
	srv_send(c, buf, len); /* echo */
}

static void srv_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			uint8_t ok)
{
	union doca_data ud = {.u64 = 0x5eed};

	(void)ev;
	CHECK(ok == 1);
	pair.connects++;
	CHECK_OK(doca_comch_connection_set_user_data(c, ud));
}

static void srv_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			   uint8_t ok)
{
	uint64_t v = 0;

	(void)ev;
	CHECK(ok == 1);
	pair.disconnects++;
	/* the counters of the connection as of now: the client sent 52 messages, we echoed 51 */
	CHECK_OK(doca_comch_connection_update_info(c));
	CHECK_OK(doca_comch_connection_get_counter(c, DOCA_COMCH_COUNTER_RECV_MESSAGES, &v));
	CHECK(v == 52);
	CHECK_OK(doca_comch_connection_get_counter(c, DOCA_COMCH_COUNTER_SENT_MESSAGES, &v));
	CHECK(v == 51);
	CHECK_OK(doca_comch_connection_get_counter(c, DOCA_COMCH_COUNTER_RECV_BYTES, &v));
	CHECK(v == 50 * 64 + 100 + 10);
	CHECK_ERR(doca_comch_connection_get_counter(c, (enum doca_comch_counter)9, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_ctx_stop(doca_comch_server_as_ctx(pair.srv)));
}

static void child_pair_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_server_create(dev, rep, "unit_pair", &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_task_send_set_conf(pair.srv, send_ok, send_err, 64));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, srv_recv));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(pair.srv, srv_connect, srv_disconnect));
	CHECK_OK(doca_comch_server_set_max_msg_size(pair.srv, 100)); /* the client asks for 4080 */
	CHECK_OK(doca_comch_server_set_recv_queue_size(pair.srv, 8));
	CHECK_OK(doca_ctx_start(ctx));
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(pair.connects == 1 && pair.disconnects == 1);
	CHECK(send_errors == 0);
	CHECK_OK(doca_comch_server_destroy(pair.srv));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void cl_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len, struct doca_comch_connection *c)
{
	(void)ev;
	(void)buf;
	CHECK(c == pair.conn);
	CHECK(doca_comch_client_get_client_ctx(c) == pair.cl);
	CHECK(doca_comch_server_get_server_ctx(c) == NULL);
	pair.user_data_ok = doca_comch_connection_get_user_data(c).u64 == 42;
	pair.echoes++;
	pair.last_len = len;
}

static void cl_send_on(struct doca_comch_client *cl, struct doca_comch_connection *conn, const void *m, uint32_t len)
{
	struct doca_comch_task_send *t;

	CHECK_OK(doca_comch_client_task_send_alloc_init(cl, conn, m, len, &t));
	CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
}

static void cl_send(const void *m, uint32_t len)
{
	cl_send_on(pair.cl, pair.conn, m, len);
}

static void child_pair_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_comch_task_send *t = NULL;
	union doca_data ud = {.u64 = 42};
	struct epoll_event ev = {.events = EPOLLIN};
	uint8_t msg[4080];
	struct doca_ctx *ctx;
	int fd, ep;

	memset(msg, 'm', sizeof(msg));
	CHECK_OK(doca_comch_client_create(dev, "unit_pair", &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(pair.cl, send_ok, send_err, 64));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, cl_recv));
	CHECK_OK(doca_comch_client_set_recv_queue_size(pair.cl, 4));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(pair.cl, &pair.conn));
	CHECK_OK(doca_comch_connection_set_user_data(pair.conn, ud));

	/* the connection's limit is the smaller of the two sides' (the server said 100) */
	CHECK_ERR(doca_comch_client_task_send_alloc_init(pair.cl, pair.conn, msg, 101, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("message of 101 bytes exceeds the connection's maximum of 100"));
	cl_send(msg, 100);
	while (pair.echoes < 1)
		doca_pe_progress(pair.pe);
	CHECK(pair.last_len == 100);
	CHECK(pair.user_data_ok);

	/* 50 messages at once: the server's queue of 8 holds them back, nothing is lost */
	for (int i = 0; i < 50; i++)
		cl_send(msg, 64);
	while (pair.echoes < 51)
		doca_pe_progress(pair.pe);

	/* asleep on the notification handle: the echo wakes us */
	CHECK_OK(doca_pe_get_notification_handle(pair.pe, &fd));
	ep = epoll_create1(0);
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	while (doca_pe_progress(pair.pe))
		;
	/* idle: no wake-up */
	CHECK_OK(doca_pe_request_notification(pair.pe));
	CHECK(epoll_wait(ep, &ev, 1, 100) == 0);
	CHECK_OK(doca_pe_clear_notification(pair.pe, fd));
	{
		uint64_t sent = 0;

		CHECK_OK(doca_comch_connection_update_info(pair.conn));
		CHECK_OK(doca_comch_connection_get_counter(pair.conn, DOCA_COMCH_COUNTER_SENT_MESSAGES, &sent));
		CHECK(sent == 51);
	}

	/* ask the server to disconnect us: our context stops by itself, saying why */
	cl_send("disconnect", 10);
	while (state_of(ctx) != DOCA_CTX_STATE_IDLE) {
		if (doca_pe_progress(pair.pe))
			continue;
		CHECK_OK(doca_pe_request_notification(pair.pe));
		CHECK(epoll_wait(ep, &ev, 1, 5000) == 1);
		CHECK_OK(doca_pe_clear_notification(pair.pe, fd));
	}
	close(ep);
	CHECK(logged("closed the connection"));
	CHECK_ERR(doca_comch_client_get_connection(pair.cl, &pair.conn), DOCA_ERROR_BAD_STATE);
	CHECK(pair.echoes == 51);
	CHECK(send_errors == 0);
	CHECK_OK(doca_comch_client_destroy(pair.cl));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_close(dev);
}

/* ---- the fast path: a consumer on the DPU side, a producer on the host side ---- */

#define FP_MSGS 100
#define FP_BUF 4096
#define FP_NBUF 4

static struct {
	struct doca_comch_server *srv;
	struct doca_comch_client *cl;
	struct doca_comch_connection *conn;
	struct doca_pe *pe, *fp_pe;
	struct doca_comch_consumer *cons;
	struct doca_comch_producer *prod;
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	uint8_t *mem;
	uint32_t remote_id, expired_id;
	uint32_t received, completed, failed;
	bool done_msg, disconnected;
} fp;

static void fp_ctrl_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			 struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	if (len == 4 && memcmp(buf, "done", 4) == 0)
		fp.done_msg = true;
}

static void fp_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
		       uint8_t ok)
{
	(void)ev;
	(void)ok;
	fp.conn = c;
}

static void fp_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			  uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
	fp.disconnected = true;
}

static void fp_new_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	CHECK(c == fp.conn);
	fp.remote_id = id;
}

static void fp_expired_consumer(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	fp.expired_id = id;
}

/* Message i: (i * 37) % FP_BUF + 1 bytes of (i % 251), immediate data = i as 8 bytes. */
static uint32_t fp_len(uint32_t i)
{
	return (i * 37) % FP_BUF + 1;
}

static void fp_mem(size_t len)
{
	fp.mem = calloc(1, len);
	CHECK_OK(doca_buf_inventory_create(2 * FP_NBUF, &fp.inv));
	CHECK_OK(doca_buf_inventory_start(fp.inv));
	CHECK_OK(doca_mmap_create(&fp.mmap));
	CHECK_OK(doca_mmap_set_memrange(fp.mmap, fp.mem, len));
}

static void fp_mem_free(void)
{
	CHECK_OK(doca_mmap_destroy(fp.mmap));
	CHECK_OK(doca_buf_inventory_destroy(fp.inv));
	free(fp.mem);
}

static void fp_post(uint32_t slot)
{
	struct doca_comch_consumer_task_post_recv *t;
	struct doca_buf *b;

	CHECK_OK(doca_buf_inventory_buf_get_by_addr(fp.inv, fp.mmap, fp.mem + (size_t)slot * FP_BUF, FP_BUF, &b));
	CHECK_OK(doca_comch_consumer_task_post_recv_alloc_init(fp.cons, b, &t));
	doca_task_set_user_data(doca_comch_consumer_task_post_recv_as_task(t), (union doca_data){.u64 = slot});
	CHECK_OK(doca_task_submit(doca_comch_consumer_task_post_recv_as_task(t)));
}

static void fp_recv_ok(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	struct doca_buf *b = doca_comch_consumer_task_post_recv_get_buf(t);
	uint32_t i = fp.received++;
	size_t len = 0;
	void *data = NULL;
	uint64_t imm = 0;

	(void)cud;
	doca_buf_get_data(b, &data);
	doca_buf_get_data_len(b, &len);
	CHECK(len == fp_len(i));
	CHECK(((uint8_t *)data)[0] == i % 251 && ((uint8_t *)data)[len - 1] == i % 251);
	CHECK(doca_comch_consumer_task_post_recv_get_imm_data_len(t) == 8);
	if (doca_comch_consumer_task_post_recv_get_imm_data(t) != NULL)
		memcpy(&imm, doca_comch_consumer_task_post_recv_get_imm_data(t), 8);
	CHECK(imm == i);
	CHECK(doca_comch_consumer_task_post_recv_get_producer_id(t) == 1);
	doca_buf_dec_refcount(b, NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
	if (fp.received + FP_NBUF - 1 < FP_MSGS)
		fp_post((uint32_t)tud.u64); /* the slot is free again */
}

static void fp_recv_err(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	fp.failed++;
	doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
}

static void child_fp_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_comch_consumer *c = NULL;
	struct doca_ctx *ctx, *cctx;
	uint32_t id = 0;

	CHECK_OK(doca_comch_server_create(dev, rep, "unit_fp", &fp.srv));
	ctx = doca_comch_server_as_ctx(fp.srv);
	CHECK_OK(doca_pe_create(&fp.pe));
	CHECK_OK(doca_pe_create(&fp.fp_pe));
	CHECK_OK(doca_pe_connect_ctx(fp.pe, ctx));
	CHECK_OK(doca_comch_server_task_send_set_conf(fp.srv, send_ok, send_err, 8));
	CHECK_OK(doca_comch_server_event_msg_recv_register(fp.srv, fp_ctrl_recv));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(fp.srv, fp_connect, fp_disconnect));
	CHECK_OK(doca_ctx_start(ctx));
	while (fp.conn == NULL)
		doca_pe_progress(fp.pe);

	/* consumer: arguments, mmap state and permissions */
	fp_mem(FP_NBUF * FP_BUF);
	CHECK_ERR(doca_comch_consumer_create(NULL, fp.mmap, &c), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_comch_consumer_create(fp.conn, fp.mmap, &c), DOCA_ERROR_BAD_STATE);
	CHECK(logged("DOCA_ACCESS_FLAG_PCI_READ_WRITE"));
	CHECK_OK(doca_mmap_set_permissions(fp.mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
	CHECK_OK(doca_mmap_start(fp.mmap));
	CHECK_ERR(doca_comch_consumer_create(fp.conn, fp.mmap, &c), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_stop(fp.mmap));
	CHECK_OK(doca_mmap_set_permissions(fp.mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_start(fp.mmap));
	CHECK_OK(doca_comch_consumer_create(fp.conn, fp.mmap, &fp.cons));
	CHECK_OK(doca_comch_consumer_get_id(fp.cons, &id));
	CHECK(id == 1);
	CHECK_ERR(doca_comch_consumer_set_imm_data_len(fp.cons, 33), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_comch_consumer_set_imm_data_len(fp.cons, 8));
	cctx = doca_comch_consumer_as_ctx(fp.cons);
	CHECK_OK(doca_pe_connect_ctx(fp.fp_pe, cctx));
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(fp.cons, fp_recv_ok, fp_recv_err, FP_NBUF));
	/* IN_PROGRESS, RUNNING once the client's side registered it (through the server's PE) */
	CHECK_ERR(doca_ctx_start(cctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(state_of(cctx) == DOCA_CTX_STATE_STARTING);
	while (state_of(cctx) != DOCA_CTX_STATE_RUNNING) {
		doca_pe_progress(fp.pe);
		doca_pe_progress(fp.fp_pe);
	}
	CHECK_ERR(doca_comch_consumer_set_imm_data_len(fp.cons, 4), DOCA_ERROR_BAD_STATE);
	/* the connection is in use */
	CHECK_ERR(doca_comch_server_disconnect(fp.srv, fp.conn), DOCA_ERROR_IN_USE);
	CHECK(logged("producers or consumers still use the connection"));
	{
		struct doca_buf *foreign;
		struct doca_comch_consumer_task_post_recv *t;
		struct doca_mmap *other;
		uint8_t mem2[64];

		CHECK_OK(doca_mmap_create(&other));
		CHECK_OK(doca_mmap_set_memrange(other, mem2, sizeof(mem2)));
		CHECK_OK(doca_mmap_start(other));
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(fp.inv, other, mem2, sizeof(mem2), &foreign));
		CHECK_ERR(doca_comch_consumer_task_post_recv_alloc_init(fp.cons, foreign, &t), DOCA_ERROR_INVALID_VALUE);
		CHECK(logged("not in the consumer's mmap"));
		doca_buf_dec_refcount(foreign, NULL);
		CHECK_OK(doca_mmap_destroy(other));
	}
	/* four buffers posted, a hundred messages: the producer waits for us */
	for (uint32_t i = 0; i < FP_NBUF; i++)
		fp_post(i);
	while (fp.received < FP_MSGS) {
		doca_pe_progress(fp.pe);
		doca_pe_progress(fp.fp_pe);
	}
	CHECK(fp.failed == 0);
	CHECK_OK(doca_ctx_stop(cctx));
	progress_until_state(fp.fp_pe, cctx, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_consumer_destroy(fp.cons));
	fp_mem_free();
	/* the client sees the consumer expire, then says it is done */
	while (!fp.done_msg)
		doca_pe_progress(fp.pe);
	CHECK_OK(doca_comch_server_disconnect(fp.srv, fp.conn));
	while (!fp.disconnected)
		doca_pe_progress(fp.pe);
	CHECK_OK(doca_ctx_stop(ctx));
	progress_until_state(fp.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_server_destroy(fp.srv));
	CHECK_OK(doca_pe_destroy(fp.fp_pe));
	CHECK_OK(doca_pe_destroy(fp.pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void fp_send_ok(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	fp.completed++;
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void fp_send_err(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	fp.failed++;
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

/* FP_NO_RINGER: the client makes its hello's doorbell end, then no more (out of descriptors) */
static struct softhw_comch_ops no_ringer_ops;
static int (*real_ringer)(const struct softhw_bell_name *name, int shared);

static int ringer_once(const struct softhw_bell_name *name, int shared)
{
	static int made;

	return made++ == 0 ? real_ringer(name, shared) : -1;
}

static void child_fp_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_comch_producer_task_send *t = NULL;
	uint64_t imm[FP_MSGS];
	struct doca_ctx *ctx, *pctx;
	struct doca_buf *b;
	uint32_t sent = 0, id = 0;

	CHECK_OK(doca_comch_client_create(dev, "unit_fp", &fp.cl));
	if (getenv("FP_NO_RINGER") != NULL) {
		no_ringer_ops = *fp.cl->ep.hw;
		real_ringer = no_ringer_ops.bell_ringer;
		no_ringer_ops.bell_ringer = ringer_once;
		fp.cl->ep.hw = &no_ringer_ops;
	}
	ctx = doca_comch_client_as_ctx(fp.cl);
	CHECK_OK(doca_pe_create(&fp.pe));
	CHECK_OK(doca_pe_create(&fp.fp_pe));
	CHECK_OK(doca_pe_connect_ctx(fp.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(fp.cl, send_ok, send_err, 8));
	CHECK_OK(doca_comch_client_event_msg_recv_register(fp.cl, fp_ctrl_recv));
	CHECK_OK(doca_comch_client_event_consumer_register(fp.cl, fp_new_consumer, fp_expired_consumer));
	CHECK_ERR(doca_comch_producer_create(NULL, &fp.prod), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(fp.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(fp.cl, &fp.conn));
	while (fp.remote_id == 0)
		doca_pe_progress(fp.pe);
	CHECK(fp.remote_id == 1);

	CHECK_OK(doca_comch_producer_create(fp.conn, &fp.prod));
	CHECK_OK(doca_comch_producer_get_id(fp.prod, &id));
	CHECK(id == 1);
	pctx = doca_comch_producer_as_ctx(fp.prod);
	CHECK_OK(doca_pe_connect_ctx(fp.fp_pe, pctx));
	CHECK_OK(doca_comch_producer_task_send_set_conf(fp.prod, fp_send_ok, fp_send_err, 8));
	CHECK_OK(doca_ctx_start(pctx)); /* synchronous */
	CHECK(state_of(pctx) == DOCA_CTX_STATE_RUNNING);
	CHECK_ERR(doca_comch_producer_destroy(fp.prod), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_comch_client_destroy(fp.cl), DOCA_ERROR_IN_USE);

	fp_mem(2 * 5 * FP_BUF);
	CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
	CHECK_OK(doca_mmap_start(fp.mmap));
	/* refused at alloc: an unknown consumer, too much immediate data, more than the consumer holds */
	CHECK_OK(doca_buf_inventory_buf_get_by_data(fp.inv, fp.mmap, fp.mem, 64, &b));
	CHECK_ERR(doca_comch_producer_task_send_alloc_init(fp.prod, b, NULL, 0, 999, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("no consumer 999 on the other side of the connection"));
	CHECK_ERR(doca_comch_producer_task_send_alloc_init(fp.prod, b, (uint8_t *)imm, 9, fp.remote_id, &t),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("9 bytes of immediate data, consumer 1 accepts 8"));
	doca_buf_dec_refcount(b, NULL);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(fp.inv, fp.mmap, fp.mem, 5 * FP_BUF, &b));
	CHECK_ERR(doca_comch_producer_task_send_alloc_init(fp.prod, b, NULL, 0, fp.remote_id, &t),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("exceeds what consumer 1 can receive"));
	doca_buf_dec_refcount(b, NULL);

	/* a hundred messages, at most eight in flight (the consumer holds four buffers) */
	while (fp.completed < FP_MSGS) {
		size_t inflight = 0;

		doca_ctx_get_num_inflight_tasks(pctx, &inflight);
		if (sent < FP_MSGS && inflight < 8) {
			uint8_t *m = fp.mem + (size_t)(sent % 8) * FP_BUF;

			memset(m, (int)(sent % 251), fp_len(sent));
			imm[sent] = sent;
			CHECK_OK(doca_buf_inventory_buf_get_by_data(fp.inv, fp.mmap, m, fp_len(sent), &b));
			CHECK_OK(doca_comch_producer_task_send_alloc_init(fp.prod, b, (uint8_t *)&imm[sent], 8, fp.remote_id,
									  &t));
			CHECK_OK(doca_task_submit(doca_comch_producer_task_send_as_task(t)));
			sent++;
		}
		doca_pe_progress(fp.fp_pe);
	}
	CHECK(fp.failed == 0);
	/* the consumer goes away: its id expires */
	while (fp.expired_id == 0)
		doca_pe_progress(fp.pe);
	CHECK(fp.expired_id == 1);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(fp.inv, fp.mmap, fp.mem, 64, &b));
	CHECK_ERR(doca_comch_producer_task_send_alloc_init(fp.prod, b, NULL, 0, 1, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK(logged("any more (it expired)"));
	doca_buf_dec_refcount(b, NULL);
	CHECK_OK(doca_ctx_stop(pctx));
	CHECK_OK(doca_comch_producer_destroy(fp.prod));
	fp_mem_free();
	/* done: the server disconnects us, our context stops by itself */
	cl_send_on(fp.cl, fp.conn, "done", 4);
	progress_until_state(fp.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_client_destroy(fp.cl));
	CHECK_OK(doca_pe_destroy(fp.fp_pe));
	CHECK_OK(doca_pe_destroy(fp.pe));
	doca_dev_close(dev);
}

/*
 * ---- the server dies while the client's producer sends from a thread of its own ----
 * DOCA lets a producer run on another PE (and thread) than its client, as NVIDIA's
 * secure_channel does: the client's thread learns of the death (and retires the remote
 * consumer) while the producer's thread is looking at the consumer's ring.
 */
#define FPK_KILL_AFTER 300

static void fpk_recv_ok(struct doca_comch_consumer_task_post_recv *t, union doca_data tud, union doca_data cud)
{
	(void)cud;
	doca_buf_dec_refcount(doca_comch_consumer_task_post_recv_get_buf(t), NULL);
	doca_task_free(doca_comch_consumer_task_post_recv_as_task(t));
	fp_post((uint32_t)tud.u64);
}

static void child_fpkill_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *cctx;

	CHECK_OK(doca_comch_server_create(dev, rep, "unit_fpkill", &fp.srv));
	CHECK_OK(doca_pe_create(&fp.pe));
	CHECK_OK(doca_pe_connect_ctx(fp.pe, doca_comch_server_as_ctx(fp.srv)));
	CHECK_OK(doca_comch_server_task_send_set_conf(fp.srv, send_ok, send_err, 8));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(fp.srv, fp_connect, fp_disconnect));
	CHECK_OK(doca_ctx_start(doca_comch_server_as_ctx(fp.srv)));
	while (fp.conn == NULL)
		doca_pe_progress(fp.pe);
	fp_mem(FP_NBUF * FP_BUF);
	CHECK_OK(doca_mmap_set_permissions(fp.mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
	CHECK_OK(doca_mmap_start(fp.mmap));
	CHECK_OK(doca_comch_consumer_create(fp.conn, fp.mmap, &fp.cons));
	cctx = doca_comch_consumer_as_ctx(fp.cons);
	CHECK_OK(doca_pe_connect_ctx(fp.pe, cctx));
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(fp.cons, fpk_recv_ok, fp_recv_err, FP_NBUF));
	CHECK_ERR(doca_ctx_start(cctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(fp.pe, cctx, DOCA_CTX_STATE_RUNNING);
	for (uint32_t i = 0; i < FP_NBUF; i++)
		fp_post(i);
	for (;;) /* until the test kills us */
		doca_pe_progress(fp.pe);
}

static struct {
	uint32_t completed, failed; /* atomic: the producer's thread counts, the client's reads */
	bool stop;
} fpk;

static void fpk_send_ok(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	__atomic_add_fetch(&fpk.completed, 1, __ATOMIC_RELAXED);
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

static void fpk_send_err(struct doca_comch_producer_task_send *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	__atomic_add_fetch(&fpk.failed, 1, __ATOMIC_RELAXED);
	doca_buf_dec_refcount((struct doca_buf *)doca_comch_producer_task_send_get_buf(t), NULL);
	doca_task_free(doca_comch_producer_task_send_as_task(t));
}

/* The producer's thread: keeps eight sends in flight until told to stop and all came back. */
static double fpk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *fpk_producer(void *arg)
{
	struct doca_ctx *pctx = arg;
	uint32_t sent = 0;
	size_t inflight;

	for (;;) {
		/* stop is read before the count: a send submitted after it was set cannot exist */
		bool stop = __atomic_load_n(&fpk.stop, __ATOMIC_ACQUIRE);

		doca_ctx_get_num_inflight_tasks(pctx, &inflight);
		if (stop && inflight == 0)
			break;
		if (!stop && __atomic_load_n(&fpk.failed, __ATOMIC_RELAXED) == 0 &&
		    inflight < 8) {
			struct doca_comch_producer_task_send *t;
			struct doca_buf *b;

			if (doca_buf_inventory_buf_get_by_data(fp.inv, fp.mmap, fp.mem + (size_t)(sent % 8) * FP_BUF, 64,
							       &b) == DOCA_SUCCESS) {
				if (doca_comch_producer_task_send_alloc_init(fp.prod, b, NULL, 0, fp.remote_id, &t) ==
					    DOCA_SUCCESS &&
				    doca_task_submit(doca_comch_producer_task_send_as_task(t)) == DOCA_SUCCESS)
					sent++;
				else
					doca_buf_dec_refcount(b, NULL); /* the consumer expired meanwhile: refused */
			}
		}
		doca_pe_progress(fp.fp_pe);
	}
	return NULL;
}

static void child_fpkill_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	int kill_fd = atoi(getenv("TEST_KILL_FD"));
	struct doca_ctx *ctx, *pctx;
	pthread_t th;
	char go = 'k';
	bool asked = false;
	doca_error_t err;
	double end;

	CHECK_OK(doca_comch_client_create(dev, "unit_fpkill", &fp.cl));
	ctx = doca_comch_client_as_ctx(fp.cl);
	CHECK_OK(doca_pe_create(&fp.pe));
	CHECK_OK(doca_pe_create(&fp.fp_pe));
	CHECK_OK(doca_pe_connect_ctx(fp.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(fp.cl, send_ok, send_err, 8));
	CHECK_OK(doca_comch_client_event_consumer_register(fp.cl, fp_new_consumer, fp_expired_consumer));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(fp.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(fp.cl, &fp.conn));
	while (fp.remote_id == 0)
		doca_pe_progress(fp.pe);
	CHECK_OK(doca_comch_producer_create(fp.conn, &fp.prod));
	pctx = doca_comch_producer_as_ctx(fp.prod);
	CHECK_OK(doca_pe_connect_ctx(fp.fp_pe, pctx));
	CHECK_OK(doca_comch_producer_task_send_set_conf(fp.prod, fpk_send_ok, fpk_send_err, 8));
	CHECK_OK(doca_ctx_start(pctx));
	fp_mem(8 * FP_BUF);
	CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
	CHECK_OK(doca_mmap_start(fp.mmap));
	CHECK(pthread_create(&th, NULL, fpk_producer, pctx) == 0);
	/* This thread progresses the client: it hears of the server's death and retires its consumer. */
	end = fpk_now() + 30;
	while (state_of(ctx) != DOCA_CTX_STATE_IDLE && fpk_now() < end) {
		if (!asked && __atomic_load_n(&fpk.completed, __ATOMIC_RELAXED) >= FPK_KILL_AFTER) {
			CHECK(write(kill_fd, &go, 1) == 1);
			asked = true;
		}
		doca_pe_progress(fp.pe);
	}
	CHECK(asked && state_of(ctx) == DOCA_CTX_STATE_IDLE); /* the client stopped by itself */
	__atomic_store_n(&fpk.stop, true, __ATOMIC_RELEASE);
	CHECK(pthread_join(th, NULL) == 0);
	CHECK(fpk.completed >= FPK_KILL_AFTER);
	/* Sends the producer thread submitted last may still be in flight: then the stop passes
	 * through STOPPING, and progress flushes them (with an error: the consumer is gone). */
	err = doca_ctx_stop(pctx);
	CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	progress_until_state(fp.fp_pe, pctx, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_producer_destroy(fp.prod));
	fp_mem_free();
	CHECK_OK(doca_comch_client_destroy(fp.cl));
	CHECK_OK(doca_pe_destroy(fp.fp_pe));
	CHECK_OK(doca_pe_destroy(fp.pe));
	doca_dev_close(dev);
}

/* ---- the server dies with sends of the client waiting for credits ---- */

static void child_stall_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx;

	close(atoi(getenv("TEST_KILL_FD"))); /* only the client writes: the parent then sees EOF if it dies */
	CHECK_OK(doca_comch_server_create(dev, rep, "unit_stall", &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, recv_ignore));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(pair.srv, srv_connect, srv_disconnect));
	CHECK_OK(doca_comch_server_set_recv_queue_size(pair.srv, 4));
	CHECK_OK(doca_ctx_start(ctx));
	while (pair.connects == 0)
		doca_pe_progress(pair.pe);
	/* never progress again: the client's messages stay unconsumed until we are killed */
	for (;;)
		pause();
}

static void child_stall_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	int kill_fd = atoi(getenv("TEST_KILL_FD"));
	struct timespec t0, t1;
	struct doca_ctx *ctx;
	char go = 'k';

	CHECK_OK(doca_comch_client_create(dev, "unit_stall", &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(pair.cl, send_ok, send_err, 16));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, recv_ignore));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(pair.cl, &pair.conn));
	/* 4 credits: 4 messages go out, 5 wait */
	for (int i = 0; i < 9; i++)
		cl_send("x", 1);
	{
		size_t inflight = 0;

		/* the four that went out complete one per progress call: wait for them (bounded),
		 * then the other five must still wait for credits */
		for (int i = 0; i < 1000; i++) {
			CHECK_OK(doca_ctx_get_num_inflight_tasks(ctx, &inflight));
			if (inflight <= 5)
				break;
			progress_for_ms(pair.pe, 10);
		}
		progress_for_ms(pair.pe, 20);
		CHECK_OK(doca_ctx_get_num_inflight_tasks(ctx, &inflight));
		CHECK(inflight == 5);
	}
	CHECK(send_errors == 0);
	/* the parent kills the server now */
	CHECK(write(kill_fd, &go, 1) == 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(send_errors == 5);
	CHECK(last_send_error == DOCA_ERROR_CONNECTION_RESET);
	CHECK(logged("closed the connection"));
	CHECK(t1.tv_sec - t0.tv_sec < 3); /* noticed within a few seconds */
	CHECK_OK(doca_comch_client_destroy(pair.cl));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_close(dev);
}

/* ---- one more client than the device allows (BlueField-2: 256 per server) ---- */

#define MANY 256

static int many_running, many_idle;

static void many_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		       enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	if (next == DOCA_CTX_STATE_RUNNING)
		many_running++;
	if (next == DOCA_CTX_STATE_IDLE)
		many_idle++;
}

static void many_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			    uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
	if (++pair.disconnects == MANY)
		CHECK_OK(doca_ctx_stop(doca_comch_server_as_ctx(pair.srv)));
}

static void child_many_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_server_create(dev, rep, "unit_many", &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, recv_ignore));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(pair.srv, srv_connect, many_disconnect));
	CHECK_OK(doca_comch_server_set_recv_queue_size(pair.srv, 2));
	CHECK_OK(doca_ctx_start(ctx));
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(pair.connects == MANY);
	CHECK(logged("it serves its maximum of 256 clients"));
	CHECK_OK(doca_comch_server_destroy(pair.srv));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void child_many_client(void)
{
	static struct doca_comch_client *cl[MANY + 1];
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_pe *pe = NULL;

	CHECK_OK(doca_pe_create(&pe));
	for (int i = 0; i <= MANY; i++) {
		struct doca_ctx *ctx;

		CHECK_OK(doca_comch_client_create(dev, "unit_many", &cl[i]));
		ctx = doca_comch_client_as_ctx(cl[i]);
		CHECK_OK(doca_pe_connect_ctx(pe, ctx));
		CHECK_OK(doca_ctx_set_state_changed_cb(ctx, many_state));
		CHECK_OK(doca_comch_client_set_recv_queue_size(cl[i], 2));
		CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	}
	/* 256 are admitted; the last one is refused and its context stops by itself */
	while (many_running + many_idle < MANY + 1)
		doca_pe_progress(pe);
	CHECK(many_running == MANY && many_idle == 1);
	CHECK(logged("refused the connection: the server serves its maximum of 256 clients"));
	for (int i = 0; i <= MANY; i++)
		doca_ctx_stop(doca_comch_client_as_ctx(cl[i]));
	while (many_idle < MANY + 1)
		doca_pe_progress(pe);
	for (int i = 0; i <= MANY; i++)
		CHECK_OK(doca_comch_client_destroy(cl[i]));
	CHECK_OK(doca_pe_destroy(pe));
	doca_dev_close(dev);
}

/* ---- the client stops from its receive callback after the server died ---- */

static int cbstop_sent;

static void cbstop_send_ok(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	cbstop_sent++;
	send_ok(t, a, b);
}

/* The client says it is RUNNING: answer, then leave. */
static void cbstop_srv_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			    struct doca_comch_connection *c)
{
	(void)ev;
	CHECK(len == 5 && memcmp(buf, "ready", 5) == 0);
	srv_send(c, "last words", 10);
}

static void child_cbstop_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx;

	close(atoi(getenv("TEST_DEATH_RFD"))); /* the client sees EOF on it once we are gone */
	CHECK_OK(doca_comch_server_create(dev, rep, "unit_cbstop", &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_task_send_set_conf(pair.srv, cbstop_send_ok, send_err, 4));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, cbstop_srv_recv));
	CHECK_OK(doca_ctx_start(ctx));
	while (cbstop_sent == 0)
		doca_pe_progress(pair.pe);
	/* the message is in the client's ring: leave without a word (as a killed process would) */
}

static void cbstop_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			struct doca_comch_connection *c)
{
	doca_error_t err;

	(void)ev;
	(void)c;
	CHECK(len == 10 && memcmp(buf, "last words", 10) == 0);
	pair.echoes++;
	/* as the DOCA client sample does: stop once the answer is in */
	err = doca_ctx_stop(doca_comch_client_as_ctx(pair.cl));
	CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
}

static void child_cbstop_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	int death_fd = atoi(getenv("TEST_DEATH_RFD"));
	struct doca_ctx *ctx;
	char c;

	close(atoi(getenv("TEST_DEATH_WFD")));
	CHECK_OK(doca_comch_client_create(dev, "unit_cbstop", &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(pair.cl, send_ok, send_err, 4));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, cbstop_recv));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(pair.cl, &pair.conn));
	cl_send("ready", 5); /* in the server's ring at once: no progress needed */
	/* the server's answer waits in our ring; the server process is gone before we read it */
	while (read(death_fd, &c, 1) > 0)
		;
	close(death_fd);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(pair.echoes == 1);
	CHECK_OK(doca_comch_client_destroy(pair.cl));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_close(dev);
}

/* ---- stopped and destroyed from inside their own callbacks (DOCA samples do this) ---- */

static struct {
	int mode;          /* which callback stops the context */
	bool destroyed;    /* the IDLE state callback destroyed it */
	bool pe_destroyed; /* ... and its PE */
	bool stopping_seen;
	doca_error_t stop_err, destroy_err;
	struct doca_comch_connection *conn;
} cbd;

enum { CBD_RECV = 1, CBD_SEND_DONE, CBD_DISCONNECT, CBD_SRV_RECV, CBD_DISCONNECT_FP };

/* IDLE: nothing refers to the context any more; destroy it (and its PE) right here. */
static void cbd_cl_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			 enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	if (next == DOCA_CTX_STATE_STOPPING)
		cbd.stopping_seen = true;
	if (next != DOCA_CTX_STATE_IDLE)
		return;
	cbd.destroy_err = doca_comch_client_destroy(pair.cl);
	cbd.destroyed = true;
	CHECK_OK(doca_pe_destroy(pair.pe)); /* from inside its own progress: freed on the way out */
	cbd.pe_destroyed = true;
}

static void cbd_srv_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			  enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	if (next != DOCA_CTX_STATE_IDLE)
		return;
	cbd.destroy_err = doca_comch_server_destroy(pair.srv);
	cbd.destroyed = true;
	if (cbd.destroy_err != DOCA_SUCCESS)
		return; /* a consumer of the gone connection still exists */
	CHECK_OK(doca_pe_destroy(pair.pe));
	cbd.pe_destroyed = true;
}

static void cbd_cl_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	CHECK(len == 10 && memcmp(buf, "last words", 10) == 0);
	pair.echoes++;
	/* the server is gone: no BYE to send, but the stop still passes through STOPPING (as
	 * DOCA's does, and as NVIDIA's sample prints); IDLE and the destroy come from progress */
	cbd.stop_err = doca_ctx_stop(doca_comch_client_as_ctx(pair.cl));
}

static void cbd_cl_send_ok(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	send_ok(t, a, b);
	if (cbd.mode == CBD_SEND_DONE)
		cbd.stop_err = doca_ctx_stop(doca_comch_client_as_ctx(pair.cl));
}

/* Against cbstop_server: its answer waits in our ring, then the server process exits. */
static void cbd_client(int mode)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	int death_fd = atoi(getenv("TEST_DEATH_RFD"));
	struct doca_ctx *ctx;
	char c;

	close(atoi(getenv("TEST_DEATH_WFD")));
	cbd.mode = mode;
	cbd.stop_err = DOCA_ERROR_UNKNOWN;
	CHECK_OK(doca_comch_client_create(dev, "unit_cbstop", &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(pair.cl, cbd_cl_send_ok, send_err, 4));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, mode == CBD_RECV ? cbd_cl_recv : recv_ignore));
	CHECK_OK(doca_ctx_set_state_changed_cb(ctx, cbd_cl_state));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(pair.cl, &pair.conn));
	cl_send("ready", 5); /* completes on our next progress */
	while (read(death_fd, &c, 1) > 0)
		;
	close(death_fd);
	while (!cbd.pe_destroyed)
		doca_pe_progress(pair.pe);
	CHECK_ERR(cbd.stop_err, DOCA_ERROR_IN_PROGRESS); /* STOPPING even though the server was gone */
	CHECK(cbd.stopping_seen);
	CHECK_OK(cbd.destroy_err);
	CHECK(pair.echoes == (mode == CBD_RECV ? 1u : 0u));
	doca_dev_close(dev);
}

static void child_cbd_recv_client(void)
{
	cbd_client(CBD_RECV);
}

static void child_cbd_send_client(void)
{
	cbd_client(CBD_SEND_DONE);
}

static void cbd_srv_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			    uint8_t ok)
{
	srv_connect(ev, c, ok);
	cbd.conn = c;
}

/* The server stops from its disconnection callback (IDLE at once) or its receive callback. */
static void cbd_srv_disconnect(struct doca_comch_event_connection_status_changed *ev,
			       struct doca_comch_connection *c, uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
	pair.disconnects++;
	if (cbd.mode == CBD_DISCONNECT || cbd.mode == CBD_DISCONNECT_FP)
		cbd.stop_err = doca_ctx_stop(doca_comch_server_as_ctx(pair.srv));
}

static void cbd_srv_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			 struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	CHECK(len == 4 && memcmp(buf, "stop", 4) == 0);
	pair.echoes++;
	if (cbd.mode == CBD_SRV_RECV)
		cbd.stop_err = doca_ctx_stop(doca_comch_server_as_ctx(pair.srv));
}

static void cbd_server(int mode, const char *name)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx;

	cbd.mode = mode;
	cbd.stop_err = DOCA_ERROR_UNKNOWN;
	CHECK_OK(doca_comch_server_create(dev, rep, name, &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, cbd_srv_recv));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(pair.srv, cbd_srv_connect, cbd_srv_disconnect));
	CHECK_OK(doca_ctx_set_state_changed_cb(ctx, cbd_srv_state));
	CHECK_OK(doca_ctx_start(ctx));
	if (mode == CBD_DISCONNECT_FP) {
		/* a consumer on the connection outlives it: the server cannot be destroyed before it */
		while (pair.connects == 0)
			doca_pe_progress(pair.pe);
		fp_mem(FP_NBUF * FP_BUF);
		CHECK_OK(doca_mmap_set_permissions(fp.mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
		CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
		CHECK_OK(doca_mmap_start(fp.mmap));
		CHECK_OK(doca_comch_consumer_create(cbd.conn, fp.mmap, &fp.cons));
		while (!cbd.destroyed)
			doca_pe_progress(pair.pe);
		CHECK_ERR(cbd.destroy_err, DOCA_ERROR_IN_USE);
		CHECK(logged("producers or consumers of its connections still exist"));
		CHECK_OK(doca_comch_consumer_destroy(fp.cons));
		fp_mem_free();
		CHECK_OK(doca_comch_server_destroy(pair.srv));
		CHECK_OK(doca_pe_destroy(pair.pe));
		cbd.destroy_err = DOCA_SUCCESS;
	} else {
		while (!cbd.pe_destroyed)
			doca_pe_progress(pair.pe);
	}
	/* from the disconnection callback: IDLE at once; from a receive callback: the client answers first */
	CHECK_ERR(cbd.stop_err, mode != CBD_SRV_RECV ? DOCA_SUCCESS : DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(cbd.destroy_err);
	CHECK(pair.connects == 1 && pair.disconnects == 1 && pair.echoes == 1);
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void child_cbd_disc_server(void)
{
	cbd_server(CBD_DISCONNECT, "unit_cbd_disc");
}

static void child_cbd_fp_server(void)
{
	cbd_server(CBD_DISCONNECT_FP, "unit_cbd_fp");
}

static void child_cbd_recv_server(void)
{
	cbd_server(CBD_SRV_RECV, "unit_cbd_recv");
}

/* Says "stop"; then leaves (disc) or waits for the server to disconnect it (recv). */
static void cbd_peer_client(const char *name, bool leave)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_client_create(dev, name, &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(pair.cl, send_ok, send_err, 4));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, recv_ignore));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(pair.cl, &pair.conn));
	cl_send("stop", 4);
	if (leave) {
		progress_for_ms(pair.pe, 20);
		CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	}
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(send_errors == 0);
	CHECK_OK(doca_comch_client_destroy(pair.cl));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_close(dev);
}

static void child_cbd_disc_client(void)
{
	cbd_peer_client("unit_cbd_disc", true);
}

static void child_cbd_fp_client(void)
{
	cbd_peer_client("unit_cbd_fp", true);
}

static void child_cbd_recv_peer(void)
{
	cbd_peer_client("unit_cbd_recv", false);
}

/* ---- a client dies with its consumers registered: each expires before the disconnection ---- */

#define FPEXP_IDS 8

static struct {
	struct doca_comch_connection *conn;
	char order[128];          /* "N1 E1 D": new, expired, disconnected, as the server saw them */
	bool announced[FPEXP_IDS];
	bool expired[FPEXP_IDS];
	bool disconnected, seen;
} fpexp;

static void fpexp_note(const char *what, uint32_t id)
{
	size_t len = strlen(fpexp.order);

	if (id != 0)
		snprintf(fpexp.order + len, sizeof(fpexp.order) - len, "%s%u ", what, id);
	else
		snprintf(fpexp.order + len, sizeof(fpexp.order) - len, "%s", what);
}

static void fpexp_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			  uint8_t ok)
{
	(void)ev;
	CHECK(ok == 1);
	fpexp.conn = c;
}

static void fpexp_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			     uint8_t ok)
{
	(void)ev;
	(void)ok;
	CHECK(c == fpexp.conn && !fpexp.disconnected);
	/* every consumer the server heard of expired already */
	for (uint32_t id = 1; id < FPEXP_IDS; id++)
		CHECK(fpexp.announced[id] == fpexp.expired[id]);
	fpexp_note("D", 0);
	fpexp.disconnected = true;
}

static void fpexp_new(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	CHECK(c == fpexp.conn && !fpexp.disconnected && id > 0 && id < FPEXP_IDS);
	if (id == 0 || id >= FPEXP_IDS)
		return;
	CHECK(!fpexp.announced[id]);
	fpexp.announced[id] = true;
	fpexp_note("N", id);
}

static void fpexp_expired(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	CHECK(c == fpexp.conn && !fpexp.disconnected && id > 0 && id < FPEXP_IDS);
	if (id == 0 || id >= FPEXP_IDS)
		return;
	/* never for a consumer whose arrival was not reported, never twice */
	CHECK(fpexp.announced[id] && !fpexp.expired[id]);
	fpexp.expired[id] = true;
	fpexp_note("E", id);
}

static void child_fpexp_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_server_create(dev, rep, "unit_fpexp", &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_task_send_set_conf(pair.srv, send_ok, send_err, 4));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, recv_ignore));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(pair.srv, fpexp_connect, fpexp_disconnect));
	CHECK_OK(doca_comch_server_event_consumer_register(pair.srv, fpexp_new, fpexp_expired));
	CHECK_OK(doca_ctx_start(ctx));
	while (!fpexp.announced[1])
		doca_pe_progress(pair.pe);
	srv_send(fpexp.conn, "seen", 4); /* the client dies once it has this */
	while (!fpexp.disconnected)
		doca_pe_progress(pair.pe);
	fprintf(stderr, "fpexp_server saw: %s\n", fpexp.order);
	/* consumer 1 was announced: its expiry comes after its arrival, before the disconnection */
	CHECK(strncmp(fpexp.order, "N1 ", 3) == 0);
	CHECK(strstr(fpexp.order, "E1 ") != NULL);
	CHECK(strcmp(fpexp.order + strlen(fpexp.order) - 1, "D") == 0);
	CHECK(fpexp.expired[1]);
	CHECK_OK(doca_ctx_stop(ctx));
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(send_errors == 0);
	CHECK_OK(doca_comch_server_destroy(pair.srv));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void fpexp_cl_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			  struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	if (len == 4 && memcmp(buf, "seen", 4) == 0)
		fpexp.seen = true;
}

static struct doca_comch_consumer *fpexp_consumer(void)
{
	struct doca_comch_consumer *cons = NULL;
	struct doca_ctx *cctx;

	CHECK_OK(doca_comch_consumer_create(pair.conn, fp.mmap, &cons));
	cctx = doca_comch_consumer_as_ctx(cons);
	CHECK_OK(doca_pe_connect_ctx(fp.fp_pe, cctx));
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(cons, fp_recv_ok, fp_recv_err, FP_NBUF));
	CHECK_ERR(doca_ctx_start(cctx), DOCA_ERROR_IN_PROGRESS);
	return cons;
}

/* Registers consumer 1 (the server reports it), starts consumer 2, then the process dies. */
static void child_fpexp_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_comch_consumer *c1;
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_client_create(dev, "unit_fpexp", &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_create(&fp.fp_pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(pair.cl, send_ok, send_err, 4));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, fpexp_cl_recv));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(pair.cl, &pair.conn));
	fp_mem(FP_NBUF * FP_BUF);
	CHECK_OK(doca_mmap_set_permissions(fp.mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
	CHECK_OK(doca_mmap_start(fp.mmap));
	c1 = fpexp_consumer();
	while (state_of(doca_comch_consumer_as_ctx(c1)) != DOCA_CTX_STATE_RUNNING) {
		doca_pe_progress(pair.pe);
		doca_pe_progress(fp.fp_pe);
	}
	while (!fpexp.seen)
		doca_pe_progress(pair.pe);
	(void)fpexp_consumer(); /* announced, maybe never reported: the server may see neither event */
	/* dies with both consumers registered: no stop, no BYE, the kernel closes the socket */
	fprintf(stderr, "child fpexp_client: %d checks, %d failed\n", test_checks, test_failures);
	fflush(NULL);
	_exit(test_failures ? 1 : 0);
}

/*
 * ---- consumer events come before the messages the peer sent after them ----
 *
 * The client registers a consumer, then sends a message; later it stops the consumer, then
 * sends another. The server does not progress meanwhile (it waits on a pipe), so both are
 * pending when it looks: it must report the new consumer before the first message and the
 * expiry before the second, as DOCA does (NVIDIA's storage application relies on the second).
 */
static struct {
	char order[64]; /* "N M1 E M2 ": new, message 1, expired, message 2, as the server saw them */
	bool connected, disconnected, done;
	int sent;
} ord;

static void ord_note(const char *what)
{
	size_t len = strlen(ord.order);

	snprintf(ord.order + len, sizeof(ord.order) - len, "%s ", what);
}

static void ord_srv_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			 struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	ord_note(len == 2 && buf[0] == 'M' ? (buf[1] == '1' ? "M1" : "M2") : "?");
}

static void ord_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			uint8_t ok)
{
	(void)ev;
	(void)ok;
	pair.conn = c;
	ord.connected = true;
}

static void ord_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			   uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
	ord.disconnected = true;
}

static void ord_new(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
	ord_note("N");
}

static void ord_expired(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev;
	(void)c;
	(void)id;
	ord_note("E");
}

/* Waits for the client's byte on the pipe, without progressing anything. */
static void ord_wait_client(char want)
{
	char c = 0;

	CHECK(read(atoi(getenv("TEST_ORDER_RFD")), &c, 1) == 1 && c == want);
}

static void child_fporder_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_server_create(dev, rep, "unit_fporder", &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_task_send_set_conf(pair.srv, send_ok, send_err, 4));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, ord_srv_recv));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(pair.srv, ord_connect, ord_disconnect));
	CHECK_OK(doca_comch_server_event_consumer_register(pair.srv, ord_new, ord_expired));
	CHECK_OK(doca_ctx_start(ctx));
	while (!ord.connected)
		doca_pe_progress(pair.pe);
	ord_wait_client('1'); /* consumer announced, then message 1 sent */
	while (strstr(ord.order, "M1") == NULL)
		doca_pe_progress(pair.pe);
	srv_send(pair.conn, "ok", 2); /* the client's consumer runs once we registered it */
	ord_wait_client('2'); /* consumer stopped, then message 2 sent */
	while (strstr(ord.order, "M2") == NULL)
		doca_pe_progress(pair.pe);
	fprintf(stderr, "fporder_server saw: %s\n", ord.order);
	CHECK(strcmp(ord.order, "N M1 E M2 ") == 0);
	srv_send(pair.conn, "ok", 2); /* the client may leave */
	while (!ord.disconnected)
		doca_pe_progress(pair.pe);
	CHECK_OK(doca_ctx_stop(ctx));
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(send_errors == 0);
	CHECK_OK(doca_comch_server_destroy(pair.srv));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void ord_cl_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
			struct doca_comch_connection *c)
{
	(void)ev;
	(void)buf;
	(void)len;
	(void)c;
	ord.done = true;
}

static void ord_send_ok(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	send_ok(t, a, b);
	ord.sent++;
}

/* Sends a 2-byte message and waits until it is on its way (the server does not progress). */
static void ord_cl_send(const char *m)
{
	struct doca_comch_task_send *t;
	int before = ord.sent;

	CHECK_OK(doca_comch_client_task_send_alloc_init(pair.cl, pair.conn, m, 2, &t));
	CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
	while (ord.sent == before && send_errors == 0)
		doca_pe_progress(pair.pe);
}

static void child_fporder_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	int go = atoi(getenv("TEST_ORDER_WFD"));
	struct doca_comch_consumer *cons;
	struct doca_ctx *ctx, *cctx;

	CHECK_OK(doca_comch_client_create(dev, "unit_fporder", &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_create(&fp.fp_pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(pair.cl, ord_send_ok, send_err, 4));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, ord_cl_recv));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(pair.cl, &pair.conn));
	fp_mem(FP_NBUF * FP_BUF);
	CHECK_OK(doca_mmap_set_permissions(fp.mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
	CHECK_OK(doca_mmap_start(fp.mmap));

	cons = fpexp_consumer(); /* announced to the server */
	cctx = doca_comch_consumer_as_ctx(cons);
	ord_cl_send("M1");
	CHECK(write(go, "1", 1) == 1);
	while (!ord.done || state_of(cctx) != DOCA_CTX_STATE_RUNNING) {
		doca_pe_progress(pair.pe);
		doca_pe_progress(fp.fp_pe);
	}
	ord.done = false;
	CHECK_OK(doca_ctx_stop(cctx)); /* retired: the server is told */
	progress_until_state(fp.fp_pe, cctx, DOCA_CTX_STATE_IDLE);
	ord_cl_send("M2");
	CHECK(write(go, "2", 1) == 1);
	while (!ord.done)
		doca_pe_progress(pair.pe);

	CHECK_OK(doca_comch_consumer_destroy(cons));
	CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(send_errors == 0);
	CHECK_OK(doca_comch_client_destroy(pair.cl));
	CHECK_OK(doca_pe_destroy(pair.pe));
	CHECK_OK(doca_pe_destroy(fp.fp_pe));
	fp_mem_free();
	doca_dev_close(dev);
}

/* ---- a peer sends a control message larger than any, with descriptors attached ---- */

/* The server's listening address, from /proc/net/unix (abstract: '@' stands for the NUL). */
static bool find_listener(const char *name, struct sockaddr_un *addr, socklen_t *len)
{
	FILE *f = fopen("/proc/net/unix", "r");
	char line[512];
	bool found = false;

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		char *p = strchr(line, '@');
		size_t n;

		if (p == NULL || strstr(p, "/comch/") == NULL || strstr(p, name) == NULL)
			continue;
		n = strcspn(p, "\n");
		memset(addr, 0, sizeof(*addr));
		addr->sun_family = AF_UNIX;
		memcpy(addr->sun_path + 1, p + 1, n - 1);
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
		found = true;
	}
	fclose(f);
	return found;
}

/*
 * A server in this process under a name of its own (find_listener must not find another run's),
 * started, for raw clients: its listening address in *addr.
 */
static void raw_server_up(const char *prefix, struct doca_dev *dev, struct doca_dev_rep *rep,
			  struct sockaddr_un *addr, socklen_t *alen)
{
	struct doca_ctx *ctx;
	char name[64];

	snprintf(name, sizeof(name), "%s_%ld", prefix, (long)getpid());
	CHECK_OK(doca_comch_server_create(dev, rep, name, &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, recv_ignore));
	CHECK_OK(doca_ctx_start(ctx));
	CHECK(find_listener(name, addr, alen));
}

/* Stops and destroys a server of this process, its PE, and the device and representor it used. */
static void server_down(struct doca_comch_server *srv, struct doca_pe *pe, struct doca_dev *dev, struct doca_dev_rep *rep)
{
	struct doca_ctx *ctx = doca_comch_server_as_ctx(srv);

	CHECK_OK(doca_ctx_stop(ctx));
	progress_until_state(pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_server_destroy(srv));
	CHECK_OK(doca_pe_destroy(pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void child_trunc_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	union {
		char buf[CMSG_SPACE(sizeof(int) * 3)];
		struct cmsghdr align;
	} ctl;
	char big[4096];
	struct iovec iov = {.iov_base = big, .iov_len = sizeof(big)};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf)};
	struct cmsghdr *cm;
	struct sockaddr_un addr;
	socklen_t alen = 0;
	int fds[3], s, before;

	raw_server_up("unit_trunc", dev, rep, &addr, &alen);
	before = test_fd_count();

	/* a hostile "client": 4 KiB (no control message is that long) and three descriptors */
	s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	CHECK(connect(s, (struct sockaddr *)&addr, alen) == 0);
	memset(big, 0x5a, sizeof(big));
	for (int i = 0; i < 3; i++)
		fds[i] = eventfd(0, 0);
	cm = CMSG_FIRSTHDR(&msg);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	CHECK(sendmsg(s, &msg, 0) == (ssize_t)sizeof(big));
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	/* Progress until the server has judged the message (bounded: a loaded machine is slow),
	 * then until it has let go of the socket and the descriptors. */
	for (int i = 0; i < 1000 && !sdk_log_has("malformed control message"); i++)
		progress_for_ms(pair.pe, 10);
	close(s);
	for (int i = 0; i < 1000 && test_fd_count() != before; i++)
		progress_for_ms(pair.pe, 10);
	/* the server hung up on it and kept none of its descriptors */
	CHECK(test_fd_count() == before);
	CHECK(logged("malformed control message"));
	server_down(pair.srv, pair.pe, dev, rep);
}

/* ---- a peer announces consumers without bound, or with rings larger than any consumer's ---- */

/* Sends one wire message with descriptors on the raw socket s. */
static bool raw_send(int s, const void *m, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 2)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {.iov_base = (void *)m, .iov_len = len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *cm;

	if (nfds > 0) {
		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
	}
	return sendmsg(s, &msg, MSG_NOSIGNAL) == (ssize_t)len;
}

static void wire_hdr(struct comch_wire_hdr *h, enum comch_wire_type type)
{
	*h = (struct comch_wire_hdr){.magic = COMCH_WIRE_MAGIC, .version = COMCH_WIRE_VERSION, .type = (uint16_t)type};
}

/* Announces consumer id with a ring of that geometry (a real, sealed segment) and a doorbell. */
static bool announce(int s, uint32_t id, uint32_t max_msg, uint32_t slots, int bell)
{
	struct comch_wire_consumer c = {.consumer_id = id};
	struct softhw_chan ch;
	int memfd = -1, fds[2];
	bool ok;

	wire_hdr(&c.hdr, COMCH_WIRE_CONSUMER_NEW);
	if (softhw_chan_geom_make(max_msg, 1, slots, &c.geom) != DOCA_SUCCESS ||
	    softhw_chan_create(&c.geom, &ch, &memfd) != DOCA_SUCCESS)
		return false;
	fds[0] = memfd;
	fds[1] = bell;
	ok = raw_send(s, &c, sizeof(c), fds, 2);
	close(memfd);
	softhw_chan_close(&ch);
	return ok;
}

static void child_fpnew_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct comch_wire_hello hello = {.max_msg_size = 4080, .recv_queue_size = 16, .pid = getpid()};
	union comch_wire_msg ans;
	struct sockaddr_un addr;
	socklen_t alen = 0;
	uint32_t fp_max = 0, consumers = 0, id = 1;
	int s, bell[2] = {-1, -1}, before;
	bool sent = true;

	CHECK_OK(doca_comch_producer_cap_get_max_buf_size(doca_dev_as_devinfo(dev), &fp_max));
	CHECK_OK(doca_comch_consumer_cap_get_max_consumers(doca_dev_as_devinfo(dev), &consumers));
	raw_server_up("unit_fpnew", dev, rep, &addr, &alen);
	CHECK(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, bell) == 0);
	before = test_fd_count();

	/* the hostile client: a proper HELLO, then the announcements */
	s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	CHECK(connect(s, (struct sockaddr *)&addr, alen) == 0);
	wire_hdr(&hello.hdr, COMCH_WIRE_HELLO);
	CHECK(raw_send(s, &hello, sizeof(hello), &bell[1], 1));
	for (int i = 0; i < 1000 && recv(s, &ans, sizeof(ans), MSG_DONTWAIT) < 0; i++)
		progress_for_ms(pair.pe, 10); /* (the WELCOME's descriptors are closed with the message) */
	CHECK(ans.hdr.type == COMCH_WIRE_WELCOME);
	/* a ring whose records are larger than a consumer of this device may ask for */
	CHECK(announce(s, id++, (uint32_t)sizeof(struct comch_fp_rec) + fp_max + 4096, 64, bell[1]));
	for (int i = 0; i < 1000 && !sdk_log_has("larger than a consumer may ask for"); i++)
		progress_for_ms(pair.pe, 10);
	CHECK(logged("larger than a consumer may ask for"));
	/* more consumers than a connection keeps: each one after the cap is refused */
	for (uint32_t i = 0; i < 4 * consumers + 3 && sent; i++) {
		sent = announce(s, id++, (uint32_t)sizeof(struct comch_fp_rec) + 64, 1, bell[1]);
		if ((i & 31) == 31)
			progress_for_ms(pair.pe, 1);
	}
	CHECK(sent);
	for (int i = 0; i < 1000 && !sdk_log_has("announced more than"); i++)
		progress_for_ms(pair.pe, 10);
	CHECK(logged("announced more than"));
	/* what it kept: a doorbell per consumer it took, no more (the rings are mapped, their fds closed) */
	CHECK(test_fd_count() - before <= (int)(4 * consumers) + 8);
	close(s);
	for (int i = 0; i < 1000 && test_fd_count() > before; i++)
		progress_for_ms(pair.pe, 10);
	CHECK(test_fd_count() <= before); /* all given back with the connection */
	close(bell[0]);
	close(bell[1]);
	server_down(pair.srv, pair.pe, dev, rep);
}

/*
 * ---- clients that connect and never say HELLO: closed after the server's HELLO timeout
 * (SOFTDOCA_COMCH_HELLO_MS, 300 ms here), so that they do not keep every other client out ----
 */

/* A raw connection's HELLO and the server's answer type (0: none within about 10 s). */
static uint16_t raw_hello(struct doca_pe *pe, const struct sockaddr_un *addr, socklen_t alen, int bell, int *sock)
{
	struct comch_wire_hello hello = {.max_msg_size = 4080, .recv_queue_size = 16, .pid = getpid()};
	union comch_wire_msg ans = {0};
	int s = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	*sock = s;
	if (s < 0 || connect(s, (const struct sockaddr *)addr, alen) != 0)
		return 0;
	wire_hdr(&hello.hdr, COMCH_WIRE_HELLO);
	if (!raw_send(s, &hello, sizeof(hello), &bell, 1))
		return 0;
	for (int i = 0; i < 1000 && recv(s, &ans, sizeof(ans), MSG_DONTWAIT) < 0; i++)
		progress_for_ms(pe, 10);
	return ans.hdr.type;
}

static void child_silent_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	enum { SILENT = 32 }; /* the places one client process may hold in the handshake */
	struct sockaddr_un addr;
	socklen_t alen = 0;
	int silent[SILENT], bell[2] = {-1, -1}, s = -1, ended = 0;
	char c;

	setenv("SOFTDOCA_COMCH_HELLO_MS", "300", 1);
	raw_server_up("unit_silent", dev, rep, &addr, &alen);
	CHECK(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, bell) == 0);
	for (int i = 0; i < SILENT; i++) {
		silent[i] = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		CHECK(connect(silent[i], (struct sockaddr *)&addr, alen) == 0);
	}
	progress_for_ms(pair.pe, 50);
	/* all its places taken: a client that does speak is refused meanwhile */
	CHECK(raw_hello(pair.pe, &addr, alen, bell[1], &s) == COMCH_WIRE_REJECT);
	close(s);
	/* the silent ones are closed once their time is up (EOF) ... */
	for (int i = 0; i < 1000 && ended < SILENT; i++) {
		progress_for_ms(pair.pe, 10);
		ended = 0;
		for (int k = 0; k < SILENT; k++)
			ended += recv(silent[k], &c, 1, MSG_DONTWAIT) == 0;
	}
	CHECK(ended == SILENT);
	CHECK(logged("did not say HELLO within 300 ms"));
	/* ... and a client that speaks gets in */
	CHECK(raw_hello(pair.pe, &addr, alen, bell[1], &s) == COMCH_WIRE_WELCOME);
	close(s);
	for (int i = 0; i < SILENT; i++)
		close(silent[i]);
	close(bell[0]);
	close(bell[1]);
	progress_for_ms(pair.pe, 50);
	server_down(pair.srv, pair.pe, dev, rep);
}

/*
 * A server asleep on its PE's handle while a client has yet to say HELLO wakes for the
 * connection and at its deadline, not on every retry tick (that was 100 wake-ups a second):
 * the silent client is closed (EOF) after a handful of wake-ups.
 */
static void child_asleep_hello_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct sockaddr_un addr;
	socklen_t alen = 0;
	doca_notification_handle_t h;
	int silent, wakes = 0, closed = 0;
	char c;

	setenv("SOFTDOCA_COMCH_HELLO_MS", "800", 1);
	raw_server_up("unit_asleep", dev, rep, &addr, &alen);
	CHECK_OK(doca_pe_get_notification_handle(pair.pe, &h));
	silent = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	CHECK(connect(silent, (struct sockaddr *)&addr, alen) == 0);
	while (!closed && wakes < 400) {
		struct pollfd p = {.fd = h, .events = POLLIN};

		while (doca_pe_progress(pair.pe))
			;
		closed = recv(silent, &c, 1, MSG_DONTWAIT) == 0;
		if (closed)
			break;
		CHECK_OK(doca_pe_request_notification(pair.pe));
		if (poll(&p, 1, 5000) != 1)
			break; /* nothing woke us: the deadline was missed */
		CHECK_OK(doca_pe_clear_notification(pair.pe, h));
		wakes++;
	}
	fprintf(stderr, "asleep_hello: the silent client closed after %d wake-ups\n", wakes);
	CHECK(closed);
	CHECK(wakes <= 6); /* the connection, the deadline, and a little slack */
	CHECK(logged("did not say HELLO within 800 ms"));
	close(silent);
	server_down(pair.srv, pair.pe, dev, rep);
}

/* ---- the producer side scribbles over a consumer's ring: posted receives fail, all of them ---- */

/* The ring of our consumer in our own mappings (the one with a single A->B credit), or NULL. */
static struct softhw_chan_shm *find_consumer_ring(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	struct softhw_chan_shm *found = NULL;
	char line[512];

	if (f == NULL)
		return NULL;
	while (found == NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long start;
		struct softhw_chan_shm *shm;

		if (strstr(line, "softdoca-channel") == NULL || sscanf(line, "%lx-", &start) != 1)
			continue;
		shm = (struct softhw_chan_shm *)start;
		if (shm->magic == SOFTHW_CHAN_MAGIC && shm->geom.limit[SOFTHW_CHAN_A_TO_B] == 1)
			found = shm;
	}
	fclose(f);
	return found;
}

/*
 * The producer's side scribbles over the ring it shares with our consumer (two receives posted):
 * a record's sequence from no lap fails both receives; or (hint) its control-hint counter,
 * which a consumer never takes, must not keep our PE from sleeping.
 */
static void fp_scribbled_server(const char *name, bool hint)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	struct softhw_chan_shm *shm;
	struct doca_ctx *ctx, *cctx;
	struct timespec t0, t;

	CHECK_OK(doca_comch_server_create(dev, rep, name, &fp.srv));
	ctx = doca_comch_server_as_ctx(fp.srv);
	CHECK_OK(doca_pe_create(&fp.pe));
	CHECK_OK(doca_pe_connect_ctx(fp.pe, ctx));
	CHECK_OK(doca_comch_server_event_msg_recv_register(fp.srv, recv_ignore));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(fp.srv, fp_connect, fp_disconnect));
	CHECK_OK(doca_ctx_start(ctx));
	while (fp.conn == NULL)
		doca_pe_progress(fp.pe);
	fp_mem(FP_NBUF * FP_BUF);
	CHECK_OK(doca_mmap_set_permissions(fp.mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(fp.mmap, dev));
	CHECK_OK(doca_mmap_start(fp.mmap));
	CHECK_OK(doca_comch_consumer_create(fp.conn, fp.mmap, &fp.cons));
	cctx = doca_comch_consumer_as_ctx(fp.cons);
	CHECK_OK(doca_pe_connect_ctx(fp.pe, cctx));
	CHECK_OK(doca_comch_consumer_task_post_recv_set_conf(fp.cons, fp_recv_ok, fp_recv_err, 2));
	CHECK_ERR(doca_ctx_start(cctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(fp.pe, cctx, DOCA_CTX_STATE_RUNNING);
	fp_post(0);
	fp_post(1);
	progress_for_ms(fp.pe, 20);
	CHECK(fp.failed == 0);
	shm = find_consumer_ring();
	CHECK(shm != NULL);
	if (shm != NULL && hint) {
		struct pollfd p;
		int h = -1;

		CHECK_OK(doca_pe_get_notification_handle(fp.pe, &h));
		p = (struct pollfd){.fd = h, .events = POLLIN};
		CHECK_OK(doca_pe_request_notification(fp.pe));
		CHECK(poll(&p, 1, 100) == 0); /* nothing waits: it sleeps */
		CHECK_OK(doca_pe_clear_notification(fp.pe, h));
		__atomic_fetch_add(&shm->ctl[SOFTHW_CHAN_B_TO_A].ctrl_seq, 1, __ATOMIC_RELEASE);
		CHECK_OK(doca_pe_request_notification(fp.pe));
		CHECK(poll(&p, 1, 200) == 0); /* still nothing: a hint is no record */
		CHECK_OK(doca_pe_clear_notification(fp.pe, h));
		CHECK(fp.failed == 0 && fp.received == 0);
		shm = NULL; /* the receives are flushed by the stop */
	}
	/* the first record's sequence from no lap of the ring, as a broken peer would write it */
	if (shm != NULL) {
		struct softhw_chan_rec *rec = (struct softhw_chan_rec *)(void *)((uint8_t *)shm +
			softhw_chan_ring_offset(&shm->geom, SOFTHW_CHAN_B_TO_A));

		__atomic_store_n(&rec->seq, 1000, __ATOMIC_RELEASE);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		doca_pe_progress(fp.pe);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (!hint && fp.failed < 2 && t.tv_sec - t0.tv_sec < 2);
	if (!hint) {
		CHECK(fp.failed == 2); /* both receives fail; none waits forever */
		CHECK(fp.received == 0);
		CHECK(logged("corrupted the shared ring"));
		CHECK_OK(doca_ctx_stop(cctx));
	} else {
		CHECK_ERR(doca_ctx_stop(cctx), DOCA_ERROR_IN_PROGRESS); /* its two receives are flushed */
	}
	progress_until_state(fp.pe, cctx, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_consumer_destroy(fp.cons));
	fp_mem_free();
	CHECK_OK(doca_comch_server_disconnect(fp.srv, fp.conn));
	while (!fp.disconnected)
		doca_pe_progress(fp.pe);
	server_down(fp.srv, fp.pe, dev, rep);
}

static void child_fpbad_server(void)
{
	fp_scribbled_server("unit_fpbad", false);
}

static void child_fphint_server(void)
{
	fp_scribbled_server("unit_fphint", true);
}

static void fp_scribbled_client(const char *name)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_client_create(dev, name, &fp.cl));
	ctx = doca_comch_client_as_ctx(fp.cl);
	CHECK_OK(doca_pe_create(&fp.pe));
	CHECK_OK(doca_pe_connect_ctx(fp.pe, ctx));
	CHECK_OK(doca_comch_client_event_msg_recv_register(fp.cl, recv_ignore));
	CHECK_OK(doca_comch_client_event_consumer_register(fp.cl, fp_new_consumer, fp_expired_consumer));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(fp.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_OK(doca_comch_client_get_connection(fp.cl, &fp.conn));
	/* the server disconnects us when it is done: our context stops by itself */
	progress_until_state(fp.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(fp.remote_id == 1);
	CHECK_OK(doca_comch_client_destroy(fp.cl));
	CHECK_OK(doca_pe_destroy(fp.pe));
	doca_dev_close(dev);
}

static void child_fpbad_client(void)
{
	fp_scribbled_client("unit_fpbad");
}

static void child_fphint_client(void)
{
	fp_scribbled_client("unit_fphint");
}

/*
 * A server that progresses rarely (NVIDIA's sync event samples: once a second until the client
 * is gone). Once the client's BYE is in its link, one doca_pe_progress must report the
 * disconnection: reading the link and retiring the connection are softdoca's own steps, and
 * before they ended the call it took three calls, three seconds, and the client gave up
 * waiting for the answer to its BYE.
 */
static void slowdisc_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
				uint8_t ok)
{
	(void)ev;
	(void)c;
	CHECK(ok == 1);
	pair.disconnects++;
}

static void slowdisc_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			     uint8_t ok)
{
	(void)ev;
	(void)c;
	CHECK(ok == 1);
	pair.connects++;
}

static void child_slowdisc_server(void)
{
	struct doca_dev *dev = open_pci("03:00.0");
	struct doca_dev_rep *rep = open_rep(dev, "b1:00.0");
	int stopped_fd = atoi(getenv("TEST_STOPPED_RFD"));
	doca_notification_handle_t h;
	struct pollfd p;
	struct doca_ctx *ctx;
	char c = 0;
	int calls = 0;

	int answered_fd = atoi(getenv("TEST_ANSWERED_WFD"));

	close(atoi(getenv("TEST_STOPPED_WFD")));
	close(atoi(getenv("TEST_ANSWERED_RFD")));
	CHECK_OK(doca_comch_server_create(dev, rep, "unit_slowdisc", &pair.srv));
	ctx = doca_comch_server_as_ctx(pair.srv);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_server_event_msg_recv_register(pair.srv, recv_ignore));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(pair.srv, slowdisc_connect,
									  slowdisc_disconnect));
	CHECK_OK(doca_ctx_start(ctx));
	while (pair.connects == 0)
		doca_pe_progress(pair.pe);
	/* the client has stopped: its BYE is in our link */
	CHECK(read(stopped_fd, &c, 1) == 1 && c == 's');
	/* the PE's handle is readable once the link is (the waker saw it) */
	CHECK_OK(doca_pe_get_notification_handle(pair.pe, &h));
	CHECK_OK(doca_pe_request_notification(pair.pe));
	p = (struct pollfd){.fd = h, .events = POLLIN};
	CHECK(poll(&p, 1, 10000) == 1);
	CHECK_OK(doca_pe_clear_notification(pair.pe, h));
	/* as DOCA's sample: one progress per look */
	while (pair.disconnects == 0 && calls < 8) {
		doca_pe_progress(pair.pe);
		calls++;
	}
	fprintf(stderr, "slowdisc: the disconnection came in progress call %d\n", calls);
	CHECK(pair.disconnects == 1 && calls == 1);
	CHECK(write(answered_fd, "a", 1) == 1); /* the client's link is closed: that EOF is the answer */
	CHECK_OK(doca_ctx_stop(ctx));
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_comch_server_destroy(pair.srv));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static void child_slowdisc_client(void)
{
	struct doca_dev *dev = open_pci("b1:00.0");
	int stopped_fd = atoi(getenv("TEST_STOPPED_WFD")), answered_fd = atoi(getenv("TEST_ANSWERED_RFD"));
	doca_notification_handle_t h;
	struct doca_ctx *ctx;
	struct pollfd p;
	char c = 0;

	close(atoi(getenv("TEST_STOPPED_RFD")));
	close(atoi(getenv("TEST_ANSWERED_WFD")));
	CHECK_OK(doca_comch_client_create(dev, "unit_slowdisc", &pair.cl));
	ctx = doca_comch_client_as_ctx(pair.cl);
	CHECK_OK(doca_pe_create(&pair.pe));
	CHECK_OK(doca_pe_connect_ctx(pair.pe, ctx));
	CHECK_OK(doca_comch_client_event_msg_recv_register(pair.cl, recv_ignore));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_RUNNING);
	CHECK_ERR(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS); /* the BYE is sent */
	CHECK(write(stopped_fd, "s", 1) == 1);
	/* the server answered (closed the link); the PE's handle is readable once we can see it */
	CHECK(read(answered_fd, &c, 1) == 1 && c == 'a');
	CHECK_OK(doca_pe_get_notification_handle(pair.pe, &h));
	CHECK_OK(doca_pe_request_notification(pair.pe));
	p = (struct pollfd){.fd = h, .events = POLLIN};
	CHECK(poll(&p, 1, 10000) == 1);
	CHECK_OK(doca_pe_clear_notification(pair.pe, h));
	/* one call reads the EOF, retires the connection, closes the endpoint and reaches IDLE */
	doca_pe_progress(pair.pe);
	CHECK(state_of(ctx) == DOCA_CTX_STATE_IDLE);
	progress_until_state(pair.pe, ctx, DOCA_CTX_STATE_IDLE);
	/* the server answered the BYE: no 2 s wait, no "closing anyway" */
	CHECK(!logged("did not acknowledge"));
	CHECK_OK(doca_comch_client_destroy(pair.cl));
	CHECK_OK(doca_pe_destroy(pair.pe));
	doca_dev_close(dev);
}

/* ---- the parent: runs every scenario in its own process(es) ---- */

struct scenario {
	const char *name;
	void (*fn)(void);
};

static const struct scenario scenarios[] = {
	{"caps_bf3_host", child_caps_bf3_host}, {"caps_bf3_dpu", child_caps_bf3_dpu},
	{"caps_bf2_host", child_caps_bf2_host}, {"caps_bf2_dpu", child_caps_bf2_dpu},
	{"caps_cx7", child_caps_cx7},		{"client_api", child_client_api},
	{"server_api", child_server_api},	{"pair_server", child_pair_server},
	{"pair_client", child_pair_client},	{"fp_server", child_fp_server},
	{"fp_client", child_fp_client},		{"stall_server", child_stall_server},
	{"stall_client", child_stall_client},	{"many_server", child_many_server},
	{"many_client", child_many_client},	{"cbstop_server", child_cbstop_server},
	{"cbstop_client", child_cbstop_client},	{"trunc_server", child_trunc_server},
	{"fpnew_server", child_fpnew_server},	{"silent_server", child_silent_server},
	{"asleep_hello_server", child_asleep_hello_server},
	{"fpbad_server", child_fpbad_server},	{"fpbad_client", child_fpbad_client},
	{"fphint_server", child_fphint_server},	{"fphint_client", child_fphint_client},
	{"cbd_recv_client", child_cbd_recv_client}, {"cbd_send_client", child_cbd_send_client},
	{"cbd_disc_server", child_cbd_disc_server}, {"cbd_disc_client", child_cbd_disc_client},
	{"cbd_recv_server", child_cbd_recv_server}, {"cbd_recv_peer", child_cbd_recv_peer},
	{"cbd_fp_server", child_cbd_fp_server},	{"cbd_fp_client", child_cbd_fp_client},
	{"fpexp_server", child_fpexp_server},	{"fpexp_client", child_fpexp_client},
	{"fpkill_server", child_fpkill_server},	{"fpkill_client", child_fpkill_client},
	{"fporder_server", child_fporder_server}, {"fporder_client", child_fporder_client},
	{"slowdisc_server", child_slowdisc_server}, {"slowdisc_client", child_slowdisc_client},
};

static pid_t spawn(const char *name, const char *role, const char *config)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("SOFTDOCA_ROLE", role, 1);
		setenv("SOFTDOCA_CONFIG", config, 1);
		execl(self_path, self_path, "child", name, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void wait_ok(pid_t pid, const char *name)
{
	int status = 0;

	waitpid(pid, &status, 0);
	test_checks++;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		test_failures++;
		fprintf(stderr, "scenario %s failed (status 0x%x)\n", name, status);
	} else {
		fprintf(stderr, "ok %s\n", name);
	}
}

/* A pipe whose ends are named in <env>_RFD / <env>_WFD for the children spawned next. */
static bool env_pipe(const char *env, int p[2])
{
	char key[64], buf[16];

	if (pipe(p) != 0)
		return false;
	snprintf(buf, sizeof(buf), "%d", p[0]);
	snprintf(key, sizeof(key), "%s_RFD", env);
	setenv(key, buf, 1);
	snprintf(buf, sizeof(buf), "%d", p[1]);
	snprintf(key, sizeof(key), "%s_WFD", env);
	setenv(key, buf, 1);
	return true;
}

/*
 * A server and a client child that share a pipe (and a second one if env2 is given); the parent
 * closes its own ends, so that a child sees EOF once the other is gone.
 */
static bool piped_pair(const char *env, const char *env2, const char *server_name, const char *client_name)
{
	int p[2], q[2] = {-1, -1};
	pid_t server, client;

	if (!env_pipe(env, p) || (env2 != NULL && !env_pipe(env2, q)))
		return false;
	server = spawn(server_name, "dpu", "builtin");
	client = spawn(client_name, "host", "builtin");
	close(p[0]);
	close(p[1]);
	if (env2 != NULL) {
		close(q[0]);
		close(q[1]);
	}
	wait_ok(server, server_name);
	wait_ok(client, client_name);
	return true;
}

static const char *write_config(const char *name, const char *text)
{
	static char path[3][128];
	static int next;
	char *p = path[next++ % 3];
	FILE *f;

	snprintf(p, 128, "%s/%s", scratch, name);
	f = fopen(p, "w");
	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(p);
		exit(1);
	}
	return p;
}

/*
 * A server and a client; the client writes a byte to TEST_KILL_FD when the server is to be
 * killed (SIGKILL). The server is killed then, or when the client exits without asking (so the
 * test never waits on it), and the client's checks decide.
 */
static bool killed_pair(const char *server_name, const char *client_name)
{
	int p[2];
	char buf[16], go;
	pid_t server, client;

	if (pipe(p) != 0)
		return false;
	snprintf(buf, sizeof(buf), "%d", p[1]);
	setenv("TEST_KILL_FD", buf, 1);
	server = spawn(server_name, "dpu", "builtin");
	client = spawn(client_name, "host", "builtin");
	close(p[1]);
	if (read(p[0], &go, 1) != 1)
		fprintf(stderr, "%s exited without asking for the kill\n", client_name);
	kill(server, SIGKILL);
	close(p[0]);
	waitpid(server, NULL, 0);
	wait_ok(client, client_name);
	return true;
}

int main(int argc, char **argv)
{
	const char *bf2, *cx7;
	ssize_t n;

	if (argc == 3 && strcmp(argv[1], "child") == 0) {
		TEST_ROLE();
		for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
			if (strcmp(scenarios[i].name, argv[2]) == 0) {
				child_init();
				scenarios[i].fn();
				fprintf(stderr, "child %s: %d checks, %d failed\n", argv[2], test_checks, test_failures);
				exit(test_failures ? 1 : test_checks ? 0 : 2);
			}
		}
		return 64;
	}
	n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	if (n <= 0)
		return 1;
	self_path[n] = '\0';
	strcpy(scratch, "/tmp/softdoca-comch-test-XXXXXX");
	if (mkdtemp(scratch) == NULL)
		return 1;
	bf2 = write_config("bf2.conf", "[card old]\nprofile = bf2\n");
	cx7 = write_config("cx7.conf", "[card nic]\nprofile = cx7\nhost.pci = 0000:c1:00.0\n");

	wait_ok(spawn("caps_bf3_host", "host", "builtin"), "caps_bf3_host");
	wait_ok(spawn("caps_bf3_dpu", "dpu", "builtin"), "caps_bf3_dpu");
	wait_ok(spawn("caps_bf2_host", "host", bf2), "caps_bf2_host");
	wait_ok(spawn("caps_bf2_dpu", "dpu", bf2), "caps_bf2_dpu");
	wait_ok(spawn("caps_cx7", "host", cx7), "caps_cx7");
	wait_ok(spawn("client_api", "host", "builtin"), "client_api");
	wait_ok(spawn("server_api", "dpu", "builtin"), "server_api");
	{
		/* the client may start first: it waits for the server */
		pid_t client = spawn("pair_client", "host", "builtin");
		pid_t server = spawn("pair_server", "dpu", "builtin");

		wait_ok(server, "pair_server");
		wait_ok(client, "pair_client");
	}
	{
		pid_t server = spawn("fp_server", "dpu", "builtin");
		pid_t client = spawn("fp_client", "host", "builtin");

		wait_ok(server, "fp_server");
		wait_ok(client, "fp_client");
	}
	{
		/* the client can make no doorbell end of its own for the consumer's ACK: the consumer
		 * still runs (it gets the client PE's shared one) */
		pid_t server, client;

		setenv("FP_NO_RINGER", "1", 1);
		server = spawn("fp_server", "dpu", "builtin");
		client = spawn("fp_client", "host", "builtin");
		unsetenv("FP_NO_RINGER");
		wait_ok(server, "fp_server (the client out of doorbell ends)");
		wait_ok(client, "fp_client (out of doorbell ends)");
	}
	/* consumer events before the messages sent after them: the client paces the server */
	if (!piped_pair("TEST_ORDER", NULL, "fporder_server", "fporder_client"))
		return 1;
	/* the client asks (through a pipe) for the server to be killed, then checks its tasks */
	if (!killed_pair("stall_server", "stall_client"))
		return 1;
	/* the server is killed while the client's producer sends from its own thread (a race: four rounds) */
	for (int round = 0; round < 4; round++)
		if (!killed_pair("fpkill_server", "fpkill_client"))
			return 1;
	/* the client reads the server's last message after the server process is gone */
	if (!piped_pair("TEST_DEATH", NULL, "cbstop_server", "cbstop_client"))
		return 1;
	/* stopped, then destroyed with their PE, from inside their own callbacks */
	if (!piped_pair("TEST_DEATH", NULL, "cbstop_server", "cbd_recv_client") ||
	    !piped_pair("TEST_DEATH", NULL, "cbstop_server", "cbd_send_client"))
		return 1;
	/* a server that progresses once a second sees the client's BYE in its first call */
	if (!piped_pair("TEST_STOPPED", "TEST_ANSWERED", "slowdisc_server", "slowdisc_client"))
		return 1;
	{
		pid_t server = spawn("cbd_disc_server", "dpu", "builtin");
		pid_t client = spawn("cbd_disc_client", "host", "builtin");

		wait_ok(server, "cbd_disc_server");
		wait_ok(client, "cbd_disc_client");
		server = spawn("cbd_recv_server", "dpu", "builtin");
		client = spawn("cbd_recv_peer", "host", "builtin");
		wait_ok(server, "cbd_recv_server");
		wait_ok(client, "cbd_recv_peer");
		server = spawn("cbd_fp_server", "dpu", "builtin");
		client = spawn("cbd_fp_client", "host", "builtin");
		wait_ok(server, "cbd_fp_server");
		wait_ok(client, "cbd_fp_client");
	}
	{
		/* a client dies with consumers registered: expired-consumer before disconnection */
		pid_t server = spawn("fpexp_server", "dpu", "builtin");
		pid_t client = spawn("fpexp_client", "host", "builtin");

		wait_ok(server, "fpexp_server");
		wait_ok(client, "fpexp_client");
	}
	wait_ok(spawn("trunc_server", "dpu", "builtin"), "trunc_server");
	wait_ok(spawn("fpnew_server", "dpu", "builtin"), "fpnew_server");
	wait_ok(spawn("silent_server", "dpu", "builtin"), "silent_server");
	wait_ok(spawn("asleep_hello_server", "dpu", "builtin"), "asleep_hello_server");
	{
		pid_t server = spawn("fpbad_server", "dpu", "builtin");
		pid_t client = spawn("fpbad_client", "host", "builtin");

		wait_ok(server, "fpbad_server");
		wait_ok(client, "fpbad_client");
	}
	{
		pid_t server = spawn("fphint_server", "dpu", "builtin");
		pid_t client = spawn("fphint_client", "host", "builtin");

		wait_ok(server, "fphint_server");
		wait_ok(client, "fphint_client");
	}
	{
		/* 257 clients hold about 1300 descriptors: raise the soft limit if the hard one allows */
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_max >= 2048) {
			pid_t server, client;

			if (rl.rlim_cur < 2048) {
				rl.rlim_cur = 2048;
				setrlimit(RLIMIT_NOFILE, &rl);
			}
			server = spawn("many_server", "dpu", bf2);
			client = spawn("many_client", "host", bf2);
			wait_ok(server, "many_server");
			wait_ok(client, "many_client");
		} else {
			fprintf(stderr, "skipped many clients: the descriptor limit is below 2048\n");
		}
	}
	unlink(bf2);
	unlink(cx7);
	rmdir(scratch);
	TEST_EXIT();
}
