/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who reaches a Comch server, through the DOCA API, with real processes (the DPU side serves,
 * the host side connects; the rendezvous address comes from softhw's fabric, compiled in).
 *
 * `test_trust_comch uid` (root: children switch to uid 65534): a client process of another
 * user is refused (REJECT, NOT_PERMITTED), logged once, never reported to the server; with
 * allow_uids it connects and its message arrives; a client refuses a server name held by
 * another user's process (its start fails, logged).
 *
 * `test_trust_comch flood` (any uid): connections that never say HELLO are capped per process
 * while a legitimate client still connects; a server out of descriptors under a flood logs a
 * bounded number of lines (it used to log every failed accept) and takes clients again
 * afterwards.
 */
#include <time.h>

#include "doca_comch.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_pe.h"
#include "common/priv/dev_priv.h"
#include "softhw/fabric/fabric.h"
#include "softhw/fabric/peer.h"
#include "trust.h"
#include "dev_test.h"

static char server_name[32]; /* "trust-<pid>": parallel runs share the run directory */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Progresses pe, sleeping on its notification handle, until ctx is in `want` (false after WAIT_MS). */
static bool progress_until(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states want)
{
	doca_notification_handle_t h;
	uint64_t end = now_ms() + WAIT_MS;

	if (doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS)
		return false;
	while (state_of(ctx) != want && now_ms() < end) {
		struct pollfd p = {.fd = (int)h, .events = POLLIN};

		if (doca_pe_progress(pe))
			continue;
		if (doca_pe_request_notification(pe) == DOCA_SUCCESS) {
			(void)poll(&p, 1, 50);
			(void)doca_pe_clear_notification(pe, h);
		}
	}
	return state_of(ctx) == want;
}

/* ---- the server (DPU side) ---- */

static int connects, messages;
/* The server sleeps on its handle alone (no timeout) and says 's' once this many clients are in: 0 for polls of 50 ms */
static int sleep_report;
static int report_out = -1; /* then each message is told as 'm' here */

static void srv_connect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
	connects++;
}

static void srv_disconnect(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			   uint8_t ok)
{
	(void)ev;
	(void)c;
	(void)ok;
}

static void srv_recv(struct doca_comch_event_msg_recv *ev, uint8_t *b, uint32_t l, struct doca_comch_connection *c)
{
	(void)ev;
	(void)c;
	if (l == 5 && memcmp(b, "hello", 5) == 0)
		messages++;
	if (report_out >= 0 && !put(report_out, "m", 1))
		_exit(7);
}

/*
 * Serves server_name behind host function b1:00.0; tells the parent its card instance, then
 * serves (sleeping on the PE's handle) while obeying commands: 'f' fill the descriptor
 * table, 'F' empty it, 'n' report connects and messages. EOF: stop.
 */
static void server_main(int in, int out)
{
	static int fds[256];
	struct doca_comch_server *srv;
	struct doca_dev_rep *rep;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_ctx *ctx;
	doca_notification_handle_t h;
	char inst[SOFTHW_MAX_STR];
	doca_error_t err;
	int nfds = 0;
	bool told = false;

	setenv("SOFTDOCA_ROLE", "dpu", 1);
	dev = open_pci("03:00.0");
	rep = dev != NULL ? open_rep(dev, "b1:00.0") : NULL;
	if (rep == NULL || doca_comch_server_create(dev, rep, server_name, &srv) != DOCA_SUCCESS ||
	    doca_pe_create(&pe) != DOCA_SUCCESS)
		_exit(4);
	ctx = doca_comch_server_as_ctx(srv);
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_OK(doca_comch_server_event_msg_recv_register(srv, srv_recv));
	CHECK_OK(doca_comch_server_event_connection_status_changed_register(srv, srv_connect, srv_disconnect));
	CHECK_OK(doca_ctx_start(ctx));
	CHECK(state_of(ctx) == DOCA_CTX_STATE_RUNNING);
	snprintf(inst, sizeof(inst), "%s", dev->devinfo->fn->card->instance);
	if (!put(out, inst, sizeof(inst)) || doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS)
		_exit(5);
	if (sleep_report > 0)
		report_out = out;
	for (;;) {
		struct pollfd p[2] = {{.fd = (int)h, .events = POLLIN}, {.fd = in, .events = POLLIN}};
		char c;

		while (doca_pe_progress(pe))
			;
		if (doca_pe_request_notification(pe) == DOCA_SUCCESS) {
			if (sleep_report > 0 && !told && connects == sleep_report) {
				told = true; /* armed: only a ring (or a command) wakes it now */
				if (!put(out, "s", 1))
					_exit(6);
			}
			(void)poll(p, 2, sleep_report > 0 ? -1 : 50);
			(void)doca_pe_clear_notification(pe, h);
		} else {
			(void)poll(&p[1], 1, 0);
		}
		if (!(p[1].revents & (POLLIN | POLLHUP)))
			continue;
		if (read(in, &c, 1) != 1)
			break;
		if (c == 'f') {
			nfds = fill_fds(fds, 256);
			CHECK(nfds > 0);
		} else if (c == 'F') {
			while (nfds > 0)
				close(fds[--nfds]);
		}
		if ((c == 'n' && (!put(out, &connects, sizeof(connects)) || !put(out, &messages, sizeof(messages)))) ||
		    (c != 'n' && !put(out, "k", 1)))
			_exit(6);
	}
	err = doca_ctx_stop(ctx); /* connections in their handshake (a flood's) end from progress */
	CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	CHECK(progress_until(pe, ctx, DOCA_CTX_STATE_IDLE));
	CHECK_OK(doca_comch_server_destroy(srv));
	CHECK_OK(doca_pe_destroy(pe));
	doca_dev_rep_close(rep);
	doca_dev_close(dev);
}

static bool server_start(struct kid *k, const char *name, const char *config, char inst[SOFTHW_MAX_STR])
{
	return kid_start(k, name, config, false, server_main) && get(k->from, inst, SOFTHW_MAX_STR);
}

static bool server_cmd(struct kid *k, char c)
{
	char ack;

	return put(k->to, &c, 1) && get(k->from, &ack, 1);
}

static void server_counts(struct kid *k, int *conns, int *msgs)
{
	*conns = *msgs = -1;
	CHECK(put(k->to, "n", 1) && get(k->from, conns, sizeof(*conns)) && get(k->from, msgs, sizeof(*msgs)));
}

static void server_addr(const char *inst, struct sockaddr_un *addr, socklen_t *len)
{
	struct softhw_card card = {0};
	char name[64];

	snprintf(card.instance, sizeof(card.instance), "%s", inst);
	snprintf(name, sizeof(name), "0000:b1:00.0/%s", server_name);
	CHECK_OK(softhw_fabric_addr(&card, "comch", name, addr, len));
}

/* ---- the client (host side) ---- */

static void send_done(struct doca_comch_task_send *t, union doca_data u, union doca_data c)
{
	(void)u;
	(void)c;
	doca_task_free(doca_comch_task_send_as_task(t));
}

/* A client started on pe: RUNNING once admitted (IDLE when refused), within WAIT_MS. */
static enum doca_ctx_states client_up(struct doca_dev *dev, struct doca_pe *pe, struct doca_comch_client **cl)
{
	struct doca_ctx *ctx;

	CHECK_OK(doca_comch_client_create(dev, server_name, cl));
	ctx = doca_comch_client_as_ctx(*cl);
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_OK(doca_comch_client_task_send_set_conf(*cl, send_done, send_done, 4));
	CHECK_ERR(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	for (uint64_t end = now_ms() + WAIT_MS; now_ms() < end;) {
		enum doca_ctx_states s = state_of(ctx);

		if (s == DOCA_CTX_STATE_RUNNING || s == DOCA_CTX_STATE_IDLE)
			break;
		doca_pe_progress(pe);
	}
	return state_of(ctx);
}

/*
 * Per byte read from the parent: starts a client of server_name, reports the state it reached
 * (RUNNING, or IDLE when refused); when running it sends "hello" and disconnects.
 */
static void client_main(int in, int out)
{
	struct doca_dev *dev;
	struct doca_pe *pe;
	char c;

	setenv("SOFTDOCA_ROLE", "host", 1);
	dev = open_pci("b1:00.0");
	if (dev == NULL || doca_pe_create(&pe) != DOCA_SUCCESS)
		_exit(4);
	while (read(in, &c, 1) == 1) {
		struct doca_comch_client *cl;
		struct doca_comch_connection *conn;
		struct doca_comch_task_send *t;
		struct doca_ctx *ctx;
		int reached = -1;

		/* RUNNING once admitted; a refusal stops the context by itself */
		reached = (int)client_up(dev, pe, &cl);
		ctx = doca_comch_client_as_ctx(cl);
		if (reached == DOCA_CTX_STATE_RUNNING) {
			CHECK_OK(doca_comch_client_get_connection(cl, &conn));
			CHECK_OK(doca_comch_client_task_send_alloc_init(cl, conn, "hello", 5, &t));
			CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
			for (int i = 0; i < 1000; i++)
				doca_pe_progress(pe);
			(void)doca_ctx_stop(ctx);
			CHECK(progress_until(pe, ctx, DOCA_CTX_STATE_IDLE));
		}
		CHECK_OK(doca_comch_client_destroy(cl));
		if (!put(out, &reached, sizeof(reached)))
			_exit(5);
	}
	CHECK_OK(doca_pe_destroy(pe));
	doca_dev_close(dev);
}

static void client_down(struct doca_pe *pe, struct doca_comch_client *cl)
{
	struct doca_ctx *ctx = doca_comch_client_as_ctx(cl);

	(void)doca_ctx_stop(ctx);
	CHECK(progress_until(pe, ctx, DOCA_CTX_STATE_IDLE));
	CHECK_OK(doca_comch_client_destroy(cl));
}

/*
 * A client let in (another user, allowed), hostile once in: the server's doorbell came with
 * its WELCOME, a datagram socket connected to the server's PE. It shuts down every such socket
 * it holds (those not connected to its own PE's handle) and tells how many, then stays.
 */
static void silencer_main(int in, int out)
{
	struct sockaddr_un own, peer;
	socklen_t len = sizeof(own);
	doca_notification_handle_t h;
	struct doca_comch_client *cl;
	struct doca_dev *dev;
	struct doca_pe *pe;
	int silenced = 0;
	char c;

	setenv("SOFTDOCA_ROLE", "host", 1);
	dev = open_pci("b1:00.0");
	if (dev == NULL || doca_pe_create(&pe) != DOCA_SUCCESS || doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS ||
	    getsockname((int)h, (struct sockaddr *)&own, &len) != 0)
		_exit(4);
	if (client_up(dev, pe, &cl) == DOCA_CTX_STATE_RUNNING) {
		for (int fd = 0; fd < 1024; fd++) {
			socklen_t plen = sizeof(peer), tlen = sizeof(int);
			int type = 0;

			if (fd == (int)h || getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) != 0 || type != SOCK_DGRAM ||
			    getpeername(fd, (struct sockaddr *)&peer, &plen) != 0 ||
			    (plen == len && memcmp(&peer, &own, len) == 0))
				continue;
			silenced += shutdown(fd, SHUT_WR) == 0;
		}
	}
	if (!put(out, &silenced, sizeof(silenced)))
		_exit(5);
	while (read(in, &c, 1) == 1) {
	}
	client_down(pe, cl);
	CHECK_OK(doca_pe_destroy(pe));
	doca_dev_close(dev);
}

/* A client that connects, says how far it got, and sends "hello" when told; stops at EOF. */
static void talker_main(int in, int out)
{
	struct doca_comch_connection *conn;
	struct doca_comch_task_send *t;
	struct doca_comch_client *cl;
	struct doca_dev *dev;
	struct doca_pe *pe;
	int reached;
	char c;

	setenv("SOFTDOCA_ROLE", "host", 1);
	dev = open_pci("b1:00.0");
	if (dev == NULL || doca_pe_create(&pe) != DOCA_SUCCESS)
		_exit(4);
	reached = (int)client_up(dev, pe, &cl);
	if (!put(out, &reached, sizeof(reached)))
		_exit(5);
	if (reached == DOCA_CTX_STATE_RUNNING && read(in, &c, 1) == 1) {
		CHECK_OK(doca_comch_client_get_connection(cl, &conn));
		CHECK_OK(doca_comch_client_task_send_alloc_init(cl, conn, "hello", 5, &t));
		CHECK_OK(doca_task_submit(doca_comch_task_send_as_task(t)));
		/* progressed until told to stop: the send completes, nothing else is asked of it */
		for (;;) {
			struct pollfd p = {.fd = in, .events = POLLIN};

			doca_pe_progress(pe);
			if (poll(&p, 1, 1) == 1)
				break;
		}
	}
	while (read(in, &c, 1) == 1) {
	}
	client_down(pe, cl);
	CHECK_OK(doca_pe_destroy(pe));
	doca_dev_close(dev);
}

static int client_try(struct kid *k)
{
	int reached = -1;

	if (!put(k->to, "c", 1) || !get(k->from, &reached, sizeof(reached)))
		return -1;
	return reached;
}

/* ---- second uid ---- */

static void test_other_uid_refused(void)
{
	const char *trusts_root = write_config("trusts-root.conf", "allow_uids = 0");
	char inst[SOFTHW_MAX_STR], line[96];
	struct kid srv, cl;
	int conns, msgs;

	CHECK(server_start(&srv, "comch-server", NULL, inst));
	CHECK(kid_start(&cl, "comch-intruder", trusts_root, true, client_main));
	for (int i = 0; i < 3 && !uid_skipped; i++) {
		int reached = client_try(&cl);

		if (reached == -1)
			break; /* the child could not switch uid */
		CHECK(reached == DOCA_CTX_STATE_IDLE);
	}
	snprintf(line, sizeof(line), "refused process %d of uid %d", (int)cl.pid, OTHER_ID);
	kid_end(&cl);
	if (!uid_skipped) {
		server_counts(&srv, &conns, &msgs);
		CHECK(conns == 0 && msgs == 0);
		CHECK(log_count(&srv, line) == 1);
		CHECK(log_count(&cl, "refused the connection: the process runs as another user") >= 1);
	}
	kid_end(&srv);
}

static void test_other_uid_allowed(void)
{
	const char *trusts_root = write_config("trusts-root.conf", "allow_uids = 0");
	const char *allows = write_config("comch-allow.conf", "allow_uids = 65534");
	char inst[SOFTHW_MAX_STR];
	struct kid srv, cl;
	int conns, msgs;

	CHECK(server_start(&srv, "comch-server-allowing", allows, inst));
	CHECK(kid_start(&cl, "comch-allowed", trusts_root, true, client_main));
	int reached = client_try(&cl);
	kid_end(&cl);
	if (!uid_skipped) {
		CHECK(reached == DOCA_CTX_STATE_RUNNING);
		server_counts(&srv, &conns, &msgs);
		CHECK(conns == 1 && msgs == 1);
	}
	kid_end(&srv);
}

/*
 * A client let in can silence the doorbell it was given, and no other: another client's
 * message still wakes the server asleep on its notification handle. (The server's PE once
 * gave every peer a copy of one socket, and one shutdown silenced them all: the server slept
 * on with their messages on its rings.)
 */
static void test_bell_not_shared(void)
{
	const char *trusts_root = write_config("trusts-root.conf", "allow_uids = 0");
	const char *allows = write_config("comch-allow.conf", "allow_uids = 65534");
	char inst[SOFTHW_MAX_STR], c = 0;
	struct kid srv, bad, good;
	int silenced = -1, reached = -1;

	sleep_report = 2;
	CHECK(server_start(&srv, "comch-server-bell", allows, inst));
	sleep_report = 0;
	CHECK(kid_start(&bad, "comch-silencer", trusts_root, true, silencer_main));
	if (!get(bad.from, &silenced, sizeof(silenced))) {
		kid_end(&bad); /* it could not switch uid: skipped */
		kid_end(&srv);
		return;
	}
	CHECK(silenced >= 1);
	CHECK(kid_start(&good, "comch-talker", NULL, false, talker_main));
	CHECK(get(good.from, &reached, sizeof(reached)) && reached == DOCA_CTX_STATE_RUNNING);
	CHECK(get(srv.from, &c, 1) && c == 's'); /* both in, the server asleep */
	CHECK(put(good.to, "s", 1));
	c = 0;
	CHECK(get(srv.from, &c, 1) && c == 'm'); /* woken by the message, within WAIT_MS */
	kid_end(&good);
	kid_end(&bad);
	kid_end(&srv);
}

/* Binds the server's name as another user and listens: an impostor. */
static void impostor_main(int in, int out)
{
	char inst[SOFTHW_MAX_STR], c;
	struct sockaddr_un addr;
	socklen_t len;
	int s;

	if (!get(in, inst, sizeof(inst)))
		_exit(4);
	server_addr(inst, &addr, &len);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	CHECK(s >= 0 && bind(s, (struct sockaddr *)&addr, len) == 0 && listen(s, 8) == 0);
	if (!put(out, "k", 1) || read(in, &c, 1) < 0)
		_exit(5);
	close(s);
}

/* The instance of the built-in card as the DPU side sees it (the same for both sides). */
static void instance_main(int in, int out)
{
	struct doca_dev *dev;

	(void)in;
	setenv("SOFTDOCA_ROLE", "dpu", 1);
	dev = open_pci("03:00.0");
	if (dev == NULL || !put(out, dev->devinfo->fn->card->instance, SOFTHW_MAX_STR))
		_exit(4);
	doca_dev_close(dev);
}

static void test_impostor(void)
{
	char inst[SOFTHW_MAX_STR], ok = 0, line[96];
	struct kid probe, fake, cl;

	CHECK(kid_start(&probe, "instance", NULL, false, instance_main) && get(probe.from, inst, sizeof(inst)));
	kid_end(&probe);
	CHECK(kid_start(&fake, "comch-impostor", NULL, true, impostor_main));
	if (put(fake.to, inst, sizeof(inst)) && get(fake.from, &ok, 1)) {
		CHECK(kid_start(&cl, "comch-victim", NULL, false, client_main));
		CHECK(client_try(&cl) == DOCA_CTX_STATE_IDLE); /* not connecting: its start fails */
		kid_end(&cl);
		snprintf(line, sizeof(line), "served by process %d of uid %d, not of this user", (int)fake.pid, OTHER_ID);
		CHECK(log_count(&cl, line) == 1);
	}
	kid_end(&fake);
}

/* ---- floods ---- */

static void test_flood(void)
{
	const int n = 100, cap = pending_cap(32, 256 + 64);
	char inst[SOFTHW_MAX_STR], line[96];
	struct kid srv, flood, cl;
	struct sockaddr_un addr;
	socklen_t len;
	int conns, msgs;

	CHECK(server_start(&srv, "comch-server", NULL, inst));
	CHECK(kid_start(&flood, "comch-flooder", NULL, false, flooder_main));
	CHECK(kid_start(&cl, "comch-client", NULL, false, client_main));
	server_addr(inst, &addr, &len);
	CHECK(flood_start(&flood, (struct sockaddr *)&addr, len, SOCK_SEQPACKET, n) == n);
	/* connected after the whole flood: when it runs, the flood was admitted or refused */
	CHECK(client_try(&cl) == DOCA_CTX_STATE_RUNNING);
	CHECK(flood_refused(&flood) == n - cap);
	server_counts(&srv, &conns, &msgs);
	CHECK(conns == 1 && msgs == 1); /* the flood never counts as clients */
	snprintf(line, sizeof(line), "refused a connection of process %d", (int)flood.pid);
	CHECK(log_count(&srv, line) >= 1 && log_count(&srv, line) <= SOFTHW_RATELIMIT_BURST);
	kid_end(&cl);
	kid_end(&flood);
	kid_end(&srv);
}

static void test_emfile(void)
{
	char inst[SOFTHW_MAX_STR];
	struct kid srv, flood, cl;
	struct sockaddr_un addr;
	socklen_t len;
	int lines;

	CHECK(server_start(&srv, "comch-server-emfile", NULL, inst));
	CHECK(kid_start(&flood, "comch-flooder", NULL, false, flooder_main));
	CHECK(kid_start(&cl, "comch-client", NULL, false, client_main));
	CHECK(server_cmd(&srv, 'f'));
	server_addr(inst, &addr, &len);
	CHECK(flood_start(&flood, (struct sockaddr *)&addr, len, SOCK_SEQPACKET, 8) == 8);
	(void)poll(NULL, 0, 1500); /* the server runs out of descriptors meanwhile: a measurement window */
	lines = log_count(&srv, "cannot accept connections");
	fprintf(stderr, "  server out of descriptors: %d log lines in 1.5 s\n", lines);
	CHECK(lines >= 1 && lines <= SOFTHW_RATELIMIT_BURST);
	CHECK(log_count(&srv, "accept") <= SOFTHW_RATELIMIT_BURST);
	CHECK(server_cmd(&srv, 'F'));
	CHECK(client_try(&cl) == DOCA_CTX_STATE_RUNNING); /* after the backoff (at most 1 s) */
	kid_end(&cl);
	kid_end(&flood);
	kid_end(&srv);
}

int main(int argc, char **argv)
{
	bool uid = argc == 2 && strcmp(argv[1], "uid") == 0;

	if (argc != 2 || (!uid && strcmp(argv[1], "flood") != 0)) {
		fprintf(stderr, "usage: %s uid|flood\n", argv[0]);
		return 2;
	}
	if (uid && geteuid() != 0) {
		printf("SKIP: the second-uid tests need root (children switch to uid %d); run as root\n", OTHER_ID);
		TEST_SKIP(); /* (EXIT_NO_UID) */
	}
	snprintf(server_name, sizeof(server_name), "trust-%d", (int)getpid());
	signal(SIGPIPE, SIG_IGN);
	alarm(240);
	scratch_make("trust-comch");
	if (uid) {
		TEST_RUN(test_other_uid_refused);
		TEST_RUN(test_other_uid_allowed);
		TEST_RUN(test_impostor);
		TEST_RUN(test_bell_not_shared);
	} else {
		TEST_RUN(test_flood);
		TEST_RUN(test_emfile);
	}
	scratch_remove();
	if (uid_skipped && test_failures == 0) {
		printf("SKIP: a child could not switch to uid %d (no CAP_SETUID here)\n", OTHER_ID);
		TEST_SKIP(); /* (EXIT_NO_UID) */
	}
	TEST_EXIT();
}
