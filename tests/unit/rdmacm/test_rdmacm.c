/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca's librdmacm: the ABI it is built against (offsets of rocev2.md §6.2), the calls
 * alone (bad input, acks, getters, migrate_id), and two real processes: a listener on a
 * non-blocking channel that accepts one request and rejects another, and a connector that
 * also dials a port nobody listens on; and a waiter whose channel is destroyed under it.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#include "doca_dev.h"
#include "doca_rdma_bridge.h"
#include "../test.h"
#include "../thread_switches.h"

/* The layout applications are compiled against (x86_64 LP64, rocev2.md §6.2). */
#if defined(__x86_64__)
_Static_assert(sizeof(struct rdma_event_channel) == 4 && offsetof(struct rdma_event_channel, fd) == 0, "channel");
_Static_assert(sizeof(struct rdma_cm_id) == 416, "rdma_cm_id size");
_Static_assert(offsetof(struct rdma_cm_id, verbs) == 0, "verbs");
_Static_assert(offsetof(struct rdma_cm_id, channel) == 8, "channel");
_Static_assert(offsetof(struct rdma_cm_id, context) == 16, "context");
_Static_assert(offsetof(struct rdma_cm_id, qp) == 24, "qp");
_Static_assert(offsetof(struct rdma_cm_id, route) == 32, "route");
_Static_assert(offsetof(struct rdma_cm_id, ps) == 344, "ps");
_Static_assert(offsetof(struct rdma_cm_id, port_num) == 348, "port_num");
_Static_assert(offsetof(struct rdma_cm_id, event) == 352, "event");
_Static_assert(offsetof(struct rdma_cm_id, pd) == 400, "pd");
_Static_assert(offsetof(struct rdma_cm_id, qp_type) == 408, "qp_type");
_Static_assert(sizeof(struct rdma_route) == 312 && offsetof(struct rdma_route, path_rec) == 296 &&
		       offsetof(struct rdma_route, num_paths) == 304, "route");
_Static_assert(sizeof(struct rdma_addr) == 296 && offsetof(struct rdma_addr, dst_addr) == 128 &&
		       offsetof(struct rdma_addr, addr) == 256, "rdma_addr");
_Static_assert(sizeof(struct rdma_conn_param) == 24 && offsetof(struct rdma_conn_param, private_data_len) == 8 &&
		       offsetof(struct rdma_conn_param, responder_resources) == 9 &&
		       offsetof(struct rdma_conn_param, initiator_depth) == 10 &&
		       offsetof(struct rdma_conn_param, rnr_retry_count) == 13 &&
		       offsetof(struct rdma_conn_param, qp_num) == 16, "conn_param");
_Static_assert(sizeof(struct rdma_cm_event) == 80 && offsetof(struct rdma_cm_event, listen_id) == 8 &&
		       offsetof(struct rdma_cm_event, event) == 16 && offsetof(struct rdma_cm_event, status) == 20 &&
		       offsetof(struct rdma_cm_event, param) == 24, "rdma_cm_event");
#endif
_Static_assert(RDMA_CM_EVENT_CONNECT_REQUEST == 4 && RDMA_CM_EVENT_REJECTED == 8 &&
		       RDMA_CM_EVENT_DISCONNECTED == 10 && RDMA_CM_EVENT_TIMEWAIT_EXIT == 15, "event values");
_Static_assert(RDMA_PS_TCP == 0x0106 && RDMA_PS_UDP == 0x0111, "port spaces");

#define WAIT_MS 30000

#define TEST_RUN_PORT(fn, port) \
	do { \
		int before_ = test_failures; \
		fn(port); \
		fprintf(stderr, "%s %s\n", test_failures == before_ ? "ok" : "FAIL", #fn); \
	} while (0)

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* Next event of a non-blocking channel, polling its fd; NULL after WAIT_MS. */
static struct rdma_cm_event *next_event(struct rdma_event_channel *ch)
{
	long end = now_ms() + WAIT_MS;

	for (;;) {
		struct pollfd p = {.fd = ch->fd, .events = POLLIN};
		struct rdma_cm_event *ev;
		long left = end - now_ms();

		if (rdma_get_cm_event(ch, &ev) == 0)
			return ev;
		if (errno != EAGAIN || left <= 0) {
			fprintf(stderr, "next_event: %s\n", left <= 0 ? "timed out" : strerror(errno));
			return NULL;
		}
		(void)poll(&p, 1, (int)left);
	}
}

static struct rdma_cm_event *expect(struct rdma_event_channel *ch, enum rdma_cm_event_type type)
{
	struct rdma_cm_event *ev = next_event(ch);

	CHECK(ev != NULL);
	if (ev != NULL && ev->event != type)
		fprintf(stderr, "expected %s, got %s (status %d)\n", rdma_event_str(type), rdma_event_str(ev->event),
			ev->status);
	CHECK(ev != NULL && ev->event == type);
	return ev != NULL && ev->event == type ? ev : NULL;
}

static struct rdma_event_channel *nonblocking_channel(void)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();

	CHECK(ch != NULL);
	if (ch != NULL)
		CHECK(fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK) == 0);
	return ch;
}

/*
 * RDMACM_TEST_ADDR: the listener's address when it is not the loopback one: a rocev2 card's,
 * where the IB CM on the wire carries the messages (test rdmacm_roce).
 */
static const char *wire_addr(void)
{
	return getenv("RDMACM_TEST_ADDR");
}

static struct sockaddr_in loopback(uint16_t port)
{
	struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port)};

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (wire_addr() != NULL)
		CHECK(inet_pton(AF_INET, wire_addr(), &sin.sin_addr) == 1);
	return sin;
}

static bool is_loopback(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET && ((const struct sockaddr_in *)sa)->sin_addr.s_addr == loopback(0).sin_addr.s_addr;
}

/* ---- the listener process ---- */

static int server(uint16_t port, int ready_fd)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct rdma_cm_id *listener = NULL, *conn = NULL;
	struct sockaddr_in sin = loopback(port);
	bool accepted = false, rejected = false;
	int cookie;

	CHECK(rdma_create_id(ch, &listener, &cookie, RDMA_PS_TCP) == 0);
	CHECK(rdma_bind_addr(listener, (struct sockaddr *)&sin) == 0);
	CHECK(rdma_listen(listener, 8) == 0);
	CHECK(rdma_get_src_port(listener) == htons(port));
	CHECK(listener->verbs != NULL && listener->pd != NULL);
	(void)!write(ready_fd, "R", 1);
	close(ready_fd);
	while (!(accepted && rejected)) {
		struct rdma_cm_event *ev = next_event(ch);
		char pdata[56];

		CHECK(ev != NULL);
		if (ev == NULL)
			break;
		switch (ev->event) {
		case RDMA_CM_EVENT_CONNECT_REQUEST: {
			struct rdma_cm_id *id = ev->id;
			uint16_t peer_port;

			CHECK(ev->listen_id == listener);
			CHECK(id != listener && id->context == &cookie && id->ps == RDMA_PS_TCP);
			CHECK(ev->param.conn.private_data_len == 56); /* the REQ's field, past the IP CM header */
			CHECK(ev->param.conn.private_data != NULL);
			memcpy(pdata, ev->param.conn.private_data, sizeof(pdata));
			CHECK(ev->param.conn.responder_resources == 3 && ev->param.conn.initiator_depth == 5); /* swapped */
			CHECK(rdma_ack_cm_event(ev) == 0);
			memcpy(&peer_port, pdata + 8, 2);
			CHECK(rdma_get_src_port(id) == htons(port));
			CHECK(rdma_get_dst_port(id) == peer_port);
			CHECK(is_loopback(rdma_get_peer_addr(id)) && is_loopback(rdma_get_local_addr(id)));
			if (memcmp(pdata, "accept", 7) == 0) {
				struct rdma_conn_param p = {.private_data = "welcome", .private_data_len = 8, .qp_num = 0x1234,
							    .responder_resources = 1, .initiator_depth = 1, .rnr_retry_count = 7};

				CHECK(rdma_accept(id, &p) == 0);
				CHECK(rdma_accept(id, &p) == -1 && errno == EINVAL); /* once */
				conn = id;
			} else {
				CHECK(rdma_reject(id, "go away", 8) == 0);
				CHECK(rdma_destroy_id(id) == 0);
				rejected = true;
			}
			break;
		}
		case RDMA_CM_EVENT_ESTABLISHED:
			CHECK(ev->id == conn);
			CHECK(ev->param.conn.private_data_len == 0); /* RTU: nothing for the user */
			CHECK(rdma_ack_cm_event(ev) == 0);
			CHECK(rdma_disconnect(conn) == 0);
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
			CHECK(ev->id == conn && ev->status == 0);
			CHECK(rdma_ack_cm_event(ev) == 0);
			CHECK(rdma_destroy_id(conn) == 0);
			accepted = true;
			break;
		default:
			fprintf(stderr, "server: unexpected %s\n", rdma_event_str(ev->event));
			CHECK(0);
			rdma_ack_cm_event(ev);
			break;
		}
	}
	CHECK(rdma_destroy_id(listener) == 0);
	rdma_destroy_event_channel(ch);
	fprintf(stderr, "server: %d checks, %d failed\n", test_checks, test_failures);
	return test_failures == 0 ? 0 : 1;
}

/* A listener that dies on the first request, before answering it. */
static int vanishing_server(uint16_t port, int ready_fd)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct rdma_cm_id *listener = NULL;
	struct sockaddr_in sin = loopback(port);
	struct rdma_cm_event *ev;

	CHECK(rdma_create_id(ch, &listener, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_bind_addr(listener, (struct sockaddr *)&sin) == 0);
	CHECK(rdma_listen(listener, 8) == 0);
	(void)!write(ready_fd, "R", 1);
	close(ready_fd);
	ev = expect(ch, RDMA_CM_EVENT_CONNECT_REQUEST);
	_exit(ev != NULL && test_failures == 0 ? 0 : 1);
}

/* Runs this program as a listener process ("server" or "vanish") and waits until it listens. */
static pid_t spawn(const char *argv0, const char *mode, uint16_t port)
{
	int ready[2];
	char c = 0;
	pid_t pid;

	if (pipe(ready) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char fd[16], p[8];

		close(ready[0]);
		snprintf(fd, sizeof(fd), "%d", ready[1]);
		snprintf(p, sizeof(p), "%u", port);
		execl("/proc/self/exe", argv0, p, mode, fd, (char *)NULL);
		_exit(127);
	}
	close(ready[1]);
	CHECK(read(ready[0], &c, 1) == 1 && c == 'R');
	close(ready[0]);
	return pid;
}

static bool exited_ok(pid_t pid)
{
	int status = -1;

	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- the connector (this process) ---- */

static struct rdma_cm_id *resolved(struct rdma_event_channel *ch, uint16_t port)
{
	struct sockaddr_in dst = loopback(port);
	struct rdma_cm_id *id = NULL;
	struct rdma_cm_event *ev;

	CHECK(rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ev != NULL)
		CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(rdma_resolve_route(id, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ev != NULL)
		CHECK(rdma_ack_cm_event(ev) == 0);
	return id;
}

static void connect_with(struct rdma_cm_id *id, const char *word)
{
	char pdata[16] = {0};
	uint16_t src_port = rdma_get_src_port(id);
	struct rdma_conn_param p = {.private_data = pdata, .private_data_len = sizeof(pdata), .responder_resources = 5,
				    .initiator_depth = 3, .retry_count = 7, .rnr_retry_count = 7, .qp_num = 0x42};

	strcpy(pdata, word);
	memcpy(pdata + 8, &src_port, 2);
	CHECK(rdma_connect(id, &p) == 0);
}

static void test_accepted(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct rdma_event_channel *ch2 = rdma_create_event_channel(); /* blocking */
	struct sockaddr_in dst = loopback(port);
	struct rdma_cm_event *ev, *ev2;
	struct rdma_cm_id *id = NULL;
	int cookie;

	CHECK(rdma_create_id(ch, &id, &cookie, RDMA_PS_TCP) == 0);
	CHECK(id->verbs == NULL && id->context == &cookie && id->qp_type == IBV_QPT_RC && id->channel == ch);
	CHECK(rdma_resolve_route(id, 2000) == -1 && errno == EINVAL); /* before the address */
	CHECK(rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ev == NULL)
		return;
	CHECK(ev->id == id && ev->status == 0);
	CHECK(id->verbs != NULL && id->pd != NULL && id->pd->context == id->verbs);
	CHECK(id->verbs->device != NULL && id->verbs->device->name[0] != '\0');
	{ /* the id's pd leads DOCA back to the soft device */
		struct doca_dev *dev = NULL;
		char name[64] = "";

		CHECK(doca_rdma_bridge_open_dev_from_pd(id->pd, &dev) == DOCA_SUCCESS && dev != NULL);
		if (dev != NULL) {
			CHECK(doca_devinfo_get_ibdev_name(doca_dev_as_devinfo(dev), name, sizeof(name)) == DOCA_SUCCESS);
			CHECK(strcmp(name, id->verbs->device->name) == 0);
			CHECK(doca_dev_close(dev) == DOCA_SUCCESS);
		}
	}
	CHECK(rdma_get_dst_port(id) == htons(port) && rdma_get_src_port(id) != 0);
	CHECK(is_loopback(rdma_get_peer_addr(id)) && is_loopback(rdma_get_local_addr(id)));
	/* an id with an event not acked stays (librdmacm would block; we refuse) */
	CHECK(rdma_destroy_id(id) == -1 && errno == EBUSY);
	CHECK(rdma_migrate_id(id, ch2) == -1 && errno == EBUSY);
	CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(rdma_ack_cm_event(ev) == -1 && errno == EINVAL); /* twice */

	/* migrate: the route's event comes on the new (blocking) channel, none on the old one */
	CHECK(rdma_migrate_id(id, ch2) == 0 && id->channel == ch2);
	CHECK(rdma_resolve_route(id, 2000) == 0);
	CHECK(rdma_get_cm_event(ch, &ev) == -1 && errno == EAGAIN);
	CHECK(rdma_get_cm_event(ch2, &ev2) == 0 && ev2->event == RDMA_CM_EVENT_ROUTE_RESOLVED && ev2->id == id);
	CHECK(id->route.num_paths == 1 && id->route.path_rec != NULL);
	CHECK(rdma_ack_cm_event(ev2) == 0);
	CHECK(rdma_migrate_id(id, ch) == 0);

	connect_with(id, "accept");
	ev = expect(ch, RDMA_CM_EVENT_CONNECT_RESPONSE); /* no QP on the id: the application establishes */
	if (ev != NULL) {
		const char *pd = ev->param.conn.private_data;

		CHECK(ev->param.conn.private_data_len == 196); /* the whole REP field */
		CHECK(pd != NULL && strcmp(pd, "welcome") == 0 && pd[8] == 0 && pd[195] == 0);
		CHECK(ev->param.conn.qp_num == 0x1234);
		CHECK(rdma_ack_cm_event(ev) == 0);
		CHECK(rdma_establish(id) == 0);
		ev = expect(ch, RDMA_CM_EVENT_DISCONNECTED); /* the listener disconnects once established */
		if (ev != NULL) {
			CHECK(ev->id == id && ev->status == 0);
			CHECK(rdma_ack_cm_event(ev) == 0);
		}
		CHECK(rdma_disconnect(id) == 0);
	}
	CHECK(rdma_destroy_id(id) == 0);
	rdma_destroy_event_channel(ch2);
	rdma_destroy_event_channel(ch);
}

static void test_rejected(uint16_t port)
{
	struct rdma_event_channel *ch = rdma_create_event_channel(); /* blocking: get waits for the NIC */
	struct rdma_cm_id *id = resolved(ch, port);
	struct rdma_cm_event *ev = NULL;

	connect_with(id, "reject");
	CHECK(rdma_get_cm_event(ch, &ev) == 0 && ev != NULL && ev->event == RDMA_CM_EVENT_REJECTED);
	if (ev != NULL && ev->event == RDMA_CM_EVENT_REJECTED) {
		const char *pd = ev->param.conn.private_data;

		CHECK(ev->status == 28); /* consumer defined */
		CHECK(ev->param.conn.private_data_len == 148);
		CHECK(pd != NULL && strcmp(pd, "go away") == 0);
		CHECK(rdma_ack_cm_event(ev) == 0);
	}
	CHECK(rdma_destroy_id(id) == 0);
	rdma_destroy_event_channel(ch);
}

static void test_nobody_listens(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct rdma_cm_id *id = resolved(ch, port);
	struct rdma_cm_event *ev;

	connect_with(id, "accept");
	ev = expect(ch, RDMA_CM_EVENT_REJECTED); /* REJ 8: no listener for the service ID */
	if (ev != NULL) {
		CHECK(ev->status == 8);
		CHECK(ev->param.conn.private_data_len == 148);
		CHECK(rdma_ack_cm_event(ev) == 0);
	}
	CHECK(rdma_destroy_id(id) == 0);
	rdma_destroy_event_channel(ch);
}

static void test_peer_dies(uint16_t port, const char *argv0)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	pid_t pid = spawn(argv0, "vanish", port);
	struct rdma_cm_id *id = resolved(ch, port);
	struct rdma_cm_event *ev;

	connect_with(id, "accept");
	ev = expect(ch, RDMA_CM_EVENT_REJECTED); /* Linux: the dying side's CM rejects (28) */
	if (ev != NULL) {
		CHECK(ev->status == 28);
		CHECK(rdma_ack_cm_event(ev) == 0);
	}
	CHECK(rdma_get_cm_event(ch, &ev) == -1 && errno == EAGAIN); /* nothing more */
	CHECK(exited_ok(pid));
	CHECK(rdma_destroy_id(id) == 0);
	rdma_destroy_event_channel(ch);
}

/* One process, both ends: a connection, then a listener destroyed under a request nobody took. */
static void test_same_process(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct sockaddr_in sin = loopback(port);
	struct rdma_cm_id *l = NULL, *a, *b, *child = NULL;
	struct rdma_cm_event *ev;
	struct rdma_conn_param p = {.private_data = "hi", .private_data_len = 3, .responder_resources = 1,
				    .initiator_depth = 1};

	CHECK(rdma_create_id(ch, &l, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_bind_addr(l, (struct sockaddr *)&sin) == 0);
	CHECK(rdma_listen(l, 4) == 0);
	a = resolved(ch, port);
	CHECK(rdma_connect(a, &p) == 0);
	ev = expect(ch, RDMA_CM_EVENT_CONNECT_REQUEST);
	if (ev != NULL) {
		child = ev->id;
		CHECK(strcmp(ev->param.conn.private_data, "hi") == 0);
		CHECK(rdma_destroy_id(l) == -1 && errno == EBUSY); /* its request is not acked */
		CHECK(rdma_ack_cm_event(ev) == 0);
		CHECK(rdma_accept(child, &p) == 0);
	}
	ev = expect(ch, RDMA_CM_EVENT_CONNECT_RESPONSE);
	if (ev != NULL) {
		CHECK(ev->id == a && strcmp(ev->param.conn.private_data, "hi") == 0);
		CHECK(rdma_ack_cm_event(ev) == 0);
		CHECK(rdma_establish(a) == 0);
	}
	ev = expect(ch, RDMA_CM_EVENT_ESTABLISHED);
	if (ev != NULL) {
		CHECK(ev->id == child);
		CHECK(rdma_ack_cm_event(ev) == 0);
	}
	CHECK(rdma_disconnect(a) == 0);
	for (int seen = 0; seen < 2;) { /* both ends, in either order */
		ev = expect(ch, RDMA_CM_EVENT_DISCONNECTED);
		if (ev == NULL)
			break;
		CHECK(ev->id == a || ev->id == child);
		CHECK(rdma_ack_cm_event(ev) == 0);
		seen++;
	}
	CHECK(rdma_destroy_id(a) == 0);
	CHECK(rdma_destroy_id(child) == 0);

	/* a request arrives, its listener goes before anyone took it: the connector is refused */
	b = resolved(ch, port);
	CHECK(rdma_connect(b, &p) == 0);
	CHECK(rdma_destroy_id(l) == 0);
	ev = expect(ch, RDMA_CM_EVENT_REJECTED);
	if (ev != NULL) {
		CHECK(ev->id == b && (ev->status == 8 || ev->status == 28));
		CHECK(rdma_ack_cm_event(ev) == 0);
	}
	CHECK(rdma_destroy_id(b) == 0);
	rdma_destroy_event_channel(ch);
}

static void test_calls_alone(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct sockaddr_in sin = loopback(port);
	struct rdma_cm_id *a = NULL, *b = NULL;
	struct rdma_cm_event *ev;
	struct rdma_conn_param big = {.private_data = "x", .private_data_len = 57};
	struct ibv_context **devs;
	struct rdma_addrinfo hints = {.ai_flags = RAI_PASSIVE | RAI_NUMERICHOST}, *res = NULL;
	int n = 0;

	CHECK(strcmp(rdma_event_str(RDMA_CM_EVENT_ESTABLISHED), "RDMA_CM_EVENT_ESTABLISHED") == 0);
	CHECK(strcmp(rdma_event_str(RDMA_CM_EVENT_CONNECT_REQUEST), "RDMA_CM_EVENT_CONNECT_REQUEST") == 0);
	CHECK(strcmp(rdma_event_str((enum rdma_cm_event_type)99), "UNKNOWN EVENT") == 0);

	CHECK(rdma_create_id(ch, NULL, NULL, RDMA_PS_TCP) == -1 && errno == EINVAL);
	CHECK(rdma_destroy_id(NULL) == -1 && errno == EINVAL);
	CHECK(rdma_ack_cm_event(NULL) == -1 && errno == EINVAL);
	CHECK(rdma_get_cm_event(NULL, &ev) == -1 && errno == EINVAL);
	CHECK(rdma_get_cm_event(ch, &ev) == -1 && errno == EAGAIN); /* nothing yet, non-blocking */
	CHECK(rdma_connect(NULL, NULL) == -1 && errno == EINVAL);
	CHECK(rdma_accept(NULL, NULL) == -1 && errno == EINVAL);
	CHECK(rdma_reject(NULL, NULL, 0) == -1 && errno == EINVAL);
	CHECK(rdma_disconnect(NULL) == -1 && errno == EINVAL);
	CHECK(rdma_listen(NULL, 1) == -1 && errno == EINVAL);
	CHECK(rdma_resolve_addr(NULL, NULL, (struct sockaddr *)&sin, 1) == -1 && errno == EINVAL);
	CHECK(rdma_get_src_port(NULL) == 0);

	CHECK(rdma_create_id(ch, &a, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_create_id(ch, &b, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_connect(a, &big) == -1 && errno == EINVAL);  /* over 56 bytes */
	CHECK(rdma_connect(a, NULL) == -1 && errno == EINVAL);  /* no QP, no parameters */
	CHECK(rdma_connect(a, &(struct rdma_conn_param){0}) == -1 && errno == EINVAL); /* no route */
	CHECK(rdma_accept(a, &(struct rdma_conn_param){0}) == -1 && errno == EINVAL); /* not a request */
	CHECK(rdma_create_qp(a, NULL, NULL) == -1 && errno == EINVAL); /* no attributes */
	CHECK(rdma_bind_addr(a, (struct sockaddr *)&sin) == 0);
	CHECK(rdma_bind_addr(a, (struct sockaddr *)&sin) == -1 && errno == EINVAL);
	CHECK(rdma_listen(a, 1) == 0);
	CHECK(rdma_bind_addr(b, (struct sockaddr *)&sin) == 0);
	CHECK(rdma_listen(b, 1) == -1 && errno == EADDRINUSE);
	CHECK(rdma_destroy_id(b) == 0);
	CHECK(rdma_destroy_id(a) == 0);
	CHECK(rdma_destroy_id(a) == -1 && errno == EINVAL); /* gone */

	if (wire_addr() == NULL) { /* IPv6: addresses and ports where the inlines read them (a rocev2 card: IPv4 only) */
		struct sockaddr_in6 six = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
		struct rdma_cm_id *c = NULL;

		CHECK(rdma_create_id(ch, &c, NULL, RDMA_PS_TCP) == 0);
		CHECK(rdma_resolve_addr(c, NULL, (struct sockaddr *)&six, 2000) == 0);
		ev = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
		if (ev != NULL)
			CHECK(rdma_ack_cm_event(ev) == 0);
		CHECK(rdma_get_peer_addr(c)->sa_family == AF_INET6 && rdma_get_local_addr(c)->sa_family == AF_INET6);
		CHECK(memcmp(&((struct sockaddr_in6 *)rdma_get_peer_addr(c))->sin6_addr, &in6addr_loopback, 16) == 0);
		CHECK(rdma_get_dst_port(c) == htons(port) && rdma_get_src_port(c) != 0);
		CHECK(memcmp(c->route.addr.addr.ibaddr.dgid.raw, &in6addr_loopback, 16) == 0);
		CHECK(rdma_destroy_id(c) == 0);
	}
	devs = rdma_get_devices(&n);
	CHECK(devs != NULL && n == 1 && devs[0] != NULL && devs[1] == NULL);
	rdma_free_devices(devs);
	CHECK(rdma_getaddrinfo(wire_addr() != NULL ? wire_addr() : "127.0.0.1", "7471", &hints, &res) == 0);
	CHECK(res != NULL && res->ai_src_addr != NULL && is_loopback(res->ai_src_addr) && res->ai_port_space == RDMA_PS_TCP);
	rdma_freeaddrinfo(res);
	rdma_destroy_event_channel(ch);
}

struct waiter {
	struct rdma_event_channel *ch;
	_Atomic long tid;
	int rc, err;
	struct rdma_cm_event *ev;
	_Atomic bool back; /* rdma_get_cm_event returned */
};

static void *wait_event(void *arg)
{
	struct waiter *w = arg;

	w->tid = syscall(SYS_gettid);
	w->rc = rdma_get_cm_event(w->ch, &w->ev);
	w->err = errno;
	w->back = true;
	return NULL;
}

/* A live channel's waiter sleeps in read, as on Linux's rdma_cm fd (signals act alike). */
static bool asleep_in_read(long tid)
{
	return task_syscall(tid) == SYS_read;
}

/* A destroyed channel's waiter woken late (test_channel_destroyed_then_woken) sleeps in poll,
 * which any signal interrupts. */
static bool asleep_in_poll(long tid)
{
	long nr = task_syscall(tid);

#ifdef SYS_poll
	if (nr == SYS_poll)
		return true;
#endif
	return nr == SYS_ppoll;
}

static volatile sig_atomic_t usr1_count;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_count++;
}

/* Waits (bounded) until w's thread sleeps in read. */
static bool waiter_reading(struct waiter *w)
{
	long stop = now_ms() + 10000;

	while (now_ms() < stop && !w->back && !(w->tid != 0 && asleep_in_read(w->tid)))
		sched_yield();
	CHECK(w->tid != 0 && asleep_in_read(w->tid));
	return w->tid != 0 && asleep_in_read(w->tid);
}

/* Starts w's thread in rdma_get_cm_event and waits (bounded) until it sleeps in read. */
static bool waiter_asleep(struct waiter *w, pthread_t *t)
{
	CHECK(pthread_create(t, NULL, wait_event, w) == 0);
	return waiter_reading(w);
}

/* Installs on_usr1 for SIGUSR1 with sa_flags, then starts w's thread asleep in its read. */
static bool waiter_started(struct waiter *w, pthread_t *t, int sa_flags)
{
	struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = sa_flags};

	CHECK(w->ch != NULL);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	return w->ch != NULL && waiter_asleep(w, t);
}

/* Joins t within 10 s, or cancels it: false then. */
static bool joined(pthread_t t)
{
	struct timespec end;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += 10;
	if (pthread_timedjoin_np(t, NULL, &end) == 0)
		return true;
	pthread_cancel(t);
	pthread_join(t, NULL);
	return false;
}

/*
 * Signals the waiter of a destroyed channel, asleep where `asleep` says (its read goes on after
 * the destroy, as Linux's read of the closed fd): it must come back (bounded), failing with err.
 */
static void waiter_signalled(struct waiter *w, pthread_t t, bool (*asleep)(long), int err)
{
	long stop = now_ms() + 10000;

	while (now_ms() < stop && !w->back && !asleep(w->tid))
		sched_yield();
	CHECK(!w->back && asleep(w->tid));
	CHECK(pthread_kill(t, SIGUSR1) == 0);
	if (!joined(t)) {
		CHECK(!"the waiter did not come back from a destroyed channel on a signal");
		return;
	}
	CHECK(w->rc == -1 && w->err == err);
}

/*
 * rping's pattern: main destroys the channel while its cm thread still blocks in
 * rdma_get_cm_event on it, then exits. If a signal (SA_RESTART) then interrupts the wait, the
 * waiter must fail as Linux's read on the closed fd does once restarted (EBADF), without
 * touching the freed channel. (Without SA_RESTART: EINTR, test_channel_destroyed_interrupted.)
 */
static void test_channel_destroyed_under_waiter(void)
{
	int fds = test_fd_count();
	struct waiter w = {.ch = rdma_create_event_channel()};
	pthread_t t;

	/* SA_RESTART: Linux restarts the read, on the closed fd: EBADF */
	if (waiter_started(&w, &t, SA_RESTART)) {
		rdma_destroy_event_channel(w.ch);
		waiter_signalled(&w, t, asleep_in_read, EBADF);
	}
	signal(SIGUSR1, SIG_DFL);
	CHECK(test_fd_count() == fds); /* the unreadable descriptor went with the channel */
}

/* The same without SA_RESTART: Linux's read of the closed fd is interrupted, EINTR. */
static void test_channel_destroyed_interrupted(void)
{
	struct waiter w = {.ch = rdma_create_event_channel()};
	pthread_t t;

	if (waiter_started(&w, &t, 0)) {
		rdma_destroy_event_channel(w.ch);
		waiter_signalled(&w, t, asleep_in_read, EINTR);
	}
	signal(SIGUSR1, SIG_DFL);
}

/*
 * The race rping met under the sanitizers: the waiter's fd was made readable (a wake-up for the
 * whole library) just before main destroyed the channel, and the waiter ran only afterwards, so
 * it woke, with no signal, to a destroyed channel. Linux's read would not have returned (the
 * ids' events went with the ids): the waiter must go on blocking and fail only once a signal
 * restarts it. A write through a dup of the channel's fd, after the destroy, is that late wake.
 */
static void test_channel_destroyed_then_woken(void)
{
	struct waiter w = {.ch = rdma_create_event_channel()};
	uint64_t one = 1;
	pthread_t t;
	long stop;
	int fd;

	if (!waiter_started(&w, &t, SA_RESTART)) { /* as above */
		signal(SIGUSR1, SIG_DFL);
		return;
	}
	fd = dup(w.ch->fd);
	CHECK(fd >= 0);
	rdma_destroy_event_channel(w.ch);
	CHECK(write(fd, &one, sizeof(one)) == sizeof(one));
	/* it wakes and must block again, not return; no later wake-up ends that wait */
	stop = now_ms() + 10000;
	while (now_ms() < stop && !w.back && !asleep_in_poll(w.tid))
		sched_yield();
	CHECK(write(fd, &one, sizeof(one)) == sizeof(one));
	CHECK(!w.back && asleep_in_poll(w.tid));
	waiter_signalled(&w, t, asleep_in_poll, EBADF);
	close(fd);
	signal(SIGUSR1, SIG_DFL);
}

/*
 * A signal whose handler was installed without SA_RESTART interrupts rdma_get_cm_event, which
 * fails with EINTR, as librdmacm's read of the rdma_cm fd does: a program may stop its CM thread
 * that way. (The wait used to be a poll, restarted after any signal: such a thread never came back.)
 */
static void test_wait_interrupted(void)
{
	struct waiter w = {.ch = rdma_create_event_channel()};
	pthread_t t;

	if (waiter_started(&w, &t, 0)) { /* no SA_RESTART */
		CHECK(pthread_kill(t, SIGUSR1) == 0);
		CHECK(joined(t));
		CHECK(w.back && w.rc == -1 && w.err == EINTR);
	}
	signal(SIGUSR1, SIG_DFL);
	if (w.ch != NULL)
		rdma_destroy_event_channel(w.ch);
}

/*
 * With SA_RESTART the same signal is handled and the wait goes on, as Linux restarts the read:
 * the waiter is back asleep in its read, and the next event is what it returns.
 */
static void test_wait_restarted(uint16_t port)
{
	struct waiter w = {.ch = rdma_create_event_channel()};
	struct sockaddr_in dst = loopback(port);
	struct rdma_cm_id *id = NULL;
	sig_atomic_t before = usr1_count;
	long stop;
	pthread_t t;

	if (w.ch == NULL || rdma_create_id(w.ch, &id, NULL, RDMA_PS_TCP) != 0) {
		CHECK(!"a channel and an id on it");
		return;
	}
	if (waiter_started(&w, &t, SA_RESTART)) {
		CHECK(pthread_kill(t, SIGUSR1) == 0);
		stop = now_ms() + 10000;
		while (now_ms() < stop && usr1_count == before)
			sched_yield();
		CHECK(usr1_count == before + 1); /* handled: the read was interrupted, then restarted */
		CHECK(waiter_reading(&w) && !w.back);
		CHECK(rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, 2000) == 0);
		CHECK(joined(t));
		CHECK(w.back && w.rc == 0 && w.ev != NULL && w.ev->id == id &&
		      w.ev->event == RDMA_CM_EVENT_ADDR_RESOLVED);
		if (w.rc == 0 && w.ev != NULL)
			CHECK(rdma_ack_cm_event(w.ev) == 0);
	}
	signal(SIGUSR1, SIG_DFL);
	CHECK(id != NULL && rdma_destroy_id(id) == 0);
	rdma_destroy_event_channel(w.ch);
}

/*
 * Two threads waiting on the channel when it is destroyed: both stay in their read, and a signal
 * ends each wait (SA_RESTART: the restarted read fails, EBADF), the last one freeing the channel.
 */
static void test_channel_destroyed_under_two(void)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct waiter w1 = {.ch = ch}, w2 = {.ch = ch};
	pthread_t t1, t2;

	if (waiter_started(&w1, &t1, SA_RESTART)) {
		bool two = waiter_asleep(&w2, &t2);

		rdma_destroy_event_channel(ch);
		waiter_signalled(&w1, t1, asleep_in_read, EBADF);
		if (two) {
			waiter_signalled(&w2, t2, asleep_in_read, EBADF);
		} else { /* (the check failed already) */
			pthread_cancel(t2);
			pthread_join(t2, NULL);
		}
	}
	signal(SIGUSR1, SIG_DFL);
}

/* A waiter cancelled in its wait leaves nothing behind once the channel is destroyed: not the
 * channel (LeakSanitizer) nor its descriptors. */
static void test_waiter_cancelled(void)
{
	int before = test_fd_count();
	struct waiter w = {.ch = rdma_create_event_channel()};
	pthread_t t;

	CHECK(w.ch != NULL);
	if (w.ch == NULL || !waiter_asleep(&w, &t))
		return;
	CHECK(pthread_cancel(t) == 0);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(!w.back);
	rdma_destroy_event_channel(w.ch);
	CHECK(test_fd_count() == before);
}

/*
 * rdma_migrate_id to the channel the id is on already: its queued event and another id's queued
 * behind it both stay, in order (the move lost the channel's queue: the other id's event, and
 * every later one, never came).
 */
static void test_migrate_same_channel(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct sockaddr_in dst = loopback(port);
	struct rdma_cm_id *a = NULL, *b = NULL;
	struct rdma_cm_event *ev;

	CHECK(rdma_create_id(ch, &a, NULL, RDMA_PS_TCP) == 0 && rdma_create_id(ch, &b, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_resolve_addr(a, NULL, (struct sockaddr *)&dst, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ev == NULL)
		return;
	CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(rdma_resolve_route(a, 2000) == 0);                           /* a's event first */
	CHECK(rdma_resolve_addr(b, NULL, (struct sockaddr *)&dst, 2000) == 0); /* then b's */
	CHECK(rdma_migrate_id(a, ch) == 0 && a->channel == ch);
	ev = expect(ch, RDMA_CM_EVENT_ROUTE_RESOLVED);
	CHECK(ev != NULL && ev->id == a);
	if (ev != NULL)
		CHECK(rdma_ack_cm_event(ev) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
	CHECK(ev != NULL && ev->id == b);
	if (ev != NULL)
		CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(rdma_get_cm_event(ch, &ev) == -1 && errno == EAGAIN);
	CHECK(rdma_destroy_id(a) == 0 && rdma_destroy_id(b) == 0);
	rdma_destroy_event_channel(ch);
}

/*
 * rdma_migrate_id to NULL makes an id synchronous, on a channel of its own (twice: EINVAL). A
 * synchronous id leaves each event it waited for on id->event, as librdmacm does;
 * rdma_migrate_id to a channel acks it and makes the id asynchronous: its next event comes on
 * that channel.
 */
static void test_sync_id_migrated(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct sockaddr_in dst = loopback(port);
	struct rdma_cm_id *id = NULL;
	struct rdma_cm_event *ev;
	int fds = test_fd_count();

	CHECK(rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) == 0);
	if (id == NULL)
		return;
	CHECK(rdma_migrate_id(id, NULL) == 0 && id->channel != NULL && id->channel != ch);
	CHECK(rdma_migrate_id(id, NULL) == -1 && errno == EINVAL);
	CHECK(rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, 2000) == 0);
	CHECK(id->event != NULL && id->event->id == id && id->event->event == RDMA_CM_EVENT_ADDR_RESOLVED);
	CHECK(test_fd_count() == fds + 2); /* the synchronous id's own channel: its eventfd and dup */
	CHECK(rdma_migrate_id(id, ch) == 0 && id->channel == ch && id->event == NULL);
	CHECK(test_fd_count() == fds); /* that channel is gone */
	CHECK(rdma_resolve_route(id, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ROUTE_RESOLVED);
	CHECK(ev != NULL && ev->id == id && id->event == NULL);
	if (ev != NULL)
		CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(rdma_destroy_id(id) == 0);
	rdma_destroy_event_channel(ch);
}

/*
 * An event given and not acked when its channel is destroyed stays valid until it is acked, as
 * librdmacm's (its events are not the channel's): the program may still read it, and its ack
 * succeeds, once. Before, the destroy freed it: reading it was a use after free (ASan) and the
 * ack failed with EINVAL.
 */
static void test_event_outlives_channel(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct sockaddr_in dst = loopback(port);
	struct rdma_cm_id *id = NULL;
	struct rdma_cm_event *ev;

	CHECK(rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) == 0);
	if (id == NULL)
		return;
	CHECK(rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ev == NULL)
		return;
	rdma_destroy_event_channel(ch); /* (logs that an id and an event were left behind) */
	CHECK(ev->event == RDMA_CM_EVENT_ADDR_RESOLVED && ev->id == id && ev->status == 0);
	CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(rdma_ack_cm_event(ev) == -1 && errno == EINVAL); /* (only looked up, not read) */
	CHECK(rdma_destroy_id(id) == 0);
}

/*
 * rdma_connect's depths: at most the device's max_qp_rd_atom (responder resources) and
 * max_qp_init_rd_atom (initiator depth) that ibv_query_device reports, or RDMA_MAX_*, as
 * rdma-core's librdmacm checks; refused with EINVAL on an id whose route is resolved.
 */
static void test_connect_depths(uint16_t port)
{
	struct rdma_event_channel *ch = nonblocking_channel();
	struct sockaddr_in dst = loopback(port);
	struct ibv_device_attr da;
	struct rdma_cm_id *c = NULL;
	struct rdma_cm_event *ev;
	struct rdma_conn_param over = {.responder_resources = 1, .initiator_depth = 1};

	CHECK(rdma_create_id(ch, &c, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_resolve_addr(c, NULL, (struct sockaddr *)&dst, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (ev == NULL)
		return;
	CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(rdma_resolve_route(c, 2000) == 0);
	ev = expect(ch, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (ev == NULL)
		return;
	CHECK(rdma_ack_cm_event(ev) == 0);
	CHECK(ibv_query_device(c->verbs, &da) == 0 && da.max_qp_rd_atom > 0 && da.max_qp_rd_atom < 255 &&
	      da.max_qp_init_rd_atom > 0 && da.max_qp_init_rd_atom < 255);
	over.responder_resources = (uint8_t)(da.max_qp_rd_atom + 1);
	CHECK(rdma_connect(c, &over) == -1 && errno == EINVAL);
	over.responder_resources = 1;
	over.initiator_depth = (uint8_t)(da.max_qp_init_rd_atom + 1);
	CHECK(rdma_connect(c, &over) == -1 && errno == EINVAL);
	printf("rdma_connect: responder resources %d / initiator depth %d at most, as the device says\n",
	       da.max_qp_rd_atom, da.max_qp_init_rd_atom);
	CHECK(rdma_destroy_id(c) == 0);
	rdma_destroy_event_channel(ch);
}

int main(int argc, char **argv)
{
	uint16_t port = argc > 1 ? (uint16_t)atoi(argv[1]) : 13790;
	pid_t pid;

	if (argc > 3 && strcmp(argv[2], "server") == 0) {
		TEST_ROLE();
		return server(port, atoi(argv[3]));
	}
	if (argc > 3 && strcmp(argv[2], "vanish") == 0) {
		TEST_ROLE();
		return vanishing_server(port, atoi(argv[3]));
	}
	TEST_RUN(test_channel_destroyed_under_waiter);
	TEST_RUN(test_channel_destroyed_interrupted);
	TEST_RUN(test_channel_destroyed_then_woken);
	TEST_RUN(test_channel_destroyed_under_two);
	TEST_RUN(test_waiter_cancelled);
	TEST_RUN(test_wait_interrupted);
	TEST_RUN_PORT(test_wait_restarted, (uint16_t)(port + 7));
	TEST_RUN_PORT(test_calls_alone, (uint16_t)(port + 2));
	TEST_RUN_PORT(test_same_process, (uint16_t)(port + 4));
	TEST_RUN_PORT(test_migrate_same_channel, (uint16_t)(port + 5));
	TEST_RUN_PORT(test_sync_id_migrated, (uint16_t)(port + 8));
	TEST_RUN_PORT(test_connect_depths, (uint16_t)(port + 6));
	TEST_RUN_PORT(test_event_outlives_channel, (uint16_t)(port + 9));
	pid = spawn(argv[0], "server", port);
	TEST_RUN_PORT(test_accepted, port);
	TEST_RUN_PORT(test_rejected, port);
	TEST_RUN_PORT(test_nobody_listens, (uint16_t)(port + 1));
	CHECK(exited_ok(pid));
	/* on the wire nothing answers for a process that died: Linux's kernel CM would send REJ 28 */
	if (wire_addr() == NULL) {
		test_peer_dies((uint16_t)(port + 3), argv[0]);
		fprintf(stderr, "%s test_peer_dies\n", test_failures == 0 ? "ok" : "FAIL");
	}
	TEST_EXIT();
}
