/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every exported DOCA function that takes arguments, called with all of them zero: NULL objects,
 * NULL out-pointers, 0 sizes. Each call runs in a child process of its own, so that one crash
 * cannot hide the next. What must hold for each:
 *   - the child ends by itself within CALL_TIMEOUT_S: no crash (signal), no hang;
 *   - a function that returns doca_error_t does not return DOCA_SUCCESS (a NULL object or a
 *     NULL out-pointer is never a valid call), unless null_ok names it with the reason;
 *   - an error comes with at least one log line on stderr (what was wrong, what to pass).
 * Then each function whose first argument is an object the test can make (a device, an RDMA
 * context, an mmap, a buf, ...), called with a fresh one and the other arguments zero, and
 * again with every number after it all ones: no crash, no hang, and an error with a line
 * (success may be right: a setter given 0). An object that needs a peer (a Comch connection
 * and its producers and consumers) gets one: this program again, in the other role, alive
 * while the call's process is.
 * The call table is generated from the version maps and softdoca's headers (gen_calls.py).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_argp.h"
#include "doca_buf.h"
#include "doca_buf_array.h"
#include "doca_buf_inventory.h"
#include "doca_buf_pool.h"
#include "doca_clock.h"
#include "doca_comch.h"
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_dpa.h"
#include "doca_graph.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_mmap_advise.h"
#include "doca_pe.h"
#include "doca_rdma.h"
#include "doca_sta.h"
#include "doca_sta_be.h"
#include "doca_sta_io.h"
#include "doca_sta_mem.h"
#include "doca_sta_subsystem.h"
#include "doca_sta_task.h"
#include "doca_sync_event.h"
#include "test.h"

extern struct doca_dpa_app *test_dpa_app; /* tests/unit/dpa/test_dpa_dev.c, built by dpacc */

struct null_call {
	const char *name;
	int (*call)(void); /* the doca_error_t it returned, or -1 (a function of another type) */
	bool returns_error;
	const char *obj_type;     /* the struct its first argument points to, or NULL */
	int (*obj_call)(void *o); /* the call with o first and the rest zero */
	int (*obj_max_call)(void *o); /* o first, every number after it all ones, pointers NULL */
};

#include "null_calls.h"

#define CALL_TIMEOUT_S 10

/*
 * Calls that may succeed with zero arguments, each with DOCA's reason. A zero there is a value,
 * not a missing object.
 */
static const char *const null_ok[] = {
	"doca_argp_init",  /* a NULL program name is argv[0]'s, and the program config is the program's */
	"doca_dev_close",  /* DOCA's samples close a device pointer they reset to NULL, and expect success */
	NULL,
};

/* Exported, and declared for Windows only (doca_pe.h: an I/O completion port binding). */
static const char *const windows_only[] = {
	"doca_pe_set_notification_handle",
	NULL,
};

static bool listed(const char *const *list, const char *name)
{
	for (size_t i = 0; list[i] != NULL; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

/* A capability query's DOCA_ERROR_NOT_SUPPORTED is its answer, not a refusal: no line is owed. */
static bool answers(const struct null_call *c, int status)
{
	return status == DOCA_ERROR_NOT_SUPPORTED && strstr(c->name, "_cap_") != NULL;
}

/*
 * A child writes MARK_CALL just before the call and MARK_RETURNED with the result after it, then
 * exits 0: an exit that is not 0 (a sanitizer's report, exit() from a library) or a missing
 * MARK_RETURNED is no return at all, whatever the status says.
 */
#define MARK_CALL "--- the call"
#define MARK_RETURNED "--- returned "

struct outcome {
	bool returned; /* the call returned, and its child exited 0 */
	int signal;    /* the signal that killed it, 0 if none */
	int exit;      /* its exit status otherwise */
	int status;    /* what the call returned: the doca_error_t, or -1 */
	size_t lines;  /* SDK lines the call logged (not the factory's) */
	char last[256];
};

static void take_line(struct outcome *o, const char *line, bool *in_call)
{
	if (line[0] == '\0')
		return; /* (the markers' own line breaks: `last` keeps the last words) */
	if (strcmp(line, MARK_CALL) == 0) {
		*in_call = true;
	} else if (strncmp(line, MARK_RETURNED, strlen(MARK_RETURNED)) == 0) {
		o->returned = true;
		o->status = atoi(line + strlen(MARK_RETURNED));
		*in_call = false;
	} else {
		/* an SDK line of the call, or the last words of whatever ended the child */
		if (*in_call && strstr(line, "][DOCA][") != NULL)
			o->lines++;
		snprintf(o->last, sizeof(o->last), "%s", line);
	}
}

/* Reads the child's stderr until it closes or the deadline passes. */
static void drain(int fd, struct outcome *o, const struct timespec *deadline)
{
	char buf[4096], line[256];
	bool in_call = false;
	size_t used = 0;

	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		struct timespec now;
		long left_ms;
		ssize_t n;
		int r;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left_ms = (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
		if (left_ms <= 0)
			return;
		r = poll(&p, 1, (int)left_ms);
		if (r < 0 && errno != EINTR)
			return;
		if (r <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				line[used] = '\0';
				take_line(o, line, &in_call);
				used = 0;
			} else if (used + 1 < sizeof(line)) {
				line[used++] = buf[i];
			}
		}
	}
}

/* ---- the objects of the second sweep, made in the child that uses one ---- */

static struct doca_devinfo *make_devinfo_(void)
{
	struct doca_devinfo **list;
	uint32_t n = 0;

	return doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS && n > 0 ? list[0] : NULL;
}

static struct doca_dev *make_dev_(void)
{
	struct doca_devinfo *info = make_devinfo_();
	struct doca_dev *dev = NULL;

	return info != NULL && doca_dev_open(info, &dev) == DOCA_SUCCESS ? dev : NULL;
}

/* An mmap over a page, started (with `access`) or not */
/* An mmap over len bytes at buf for dev, started with `access` */
static struct doca_mmap *mmap_over(struct doca_dev *dev, void *buf, size_t len, uint32_t access)
{
	struct doca_mmap *m = NULL;

	return dev != NULL && doca_mmap_create(&m) == DOCA_SUCCESS &&
			       doca_mmap_set_memrange(m, buf, len) == DOCA_SUCCESS &&
			       doca_mmap_set_permissions(m, access) == DOCA_SUCCESS &&
			       doca_mmap_add_dev(m, dev) == DOCA_SUCCESS && doca_mmap_start(m) == DOCA_SUCCESS
		       ? m
		       : NULL;
}

static struct doca_mmap *make_mmap_(bool started, uint32_t access)
{
	static char mem[4096];
	struct doca_mmap *m = NULL;

	if (started)
		return mmap_over(make_dev_(), mem, sizeof(mem), access);
	return make_dev_() != NULL && doca_mmap_create(&m) == DOCA_SUCCESS ? m : NULL;
}

static void *make_devinfo(void) { return make_devinfo_(); }
static void *make_dev(void) { return make_dev_(); }
static void *make_mmap(void) { return make_mmap_(false, 0); }

static void *make_rdma(void)
{
	struct doca_dev *dev = make_dev_();
	struct doca_rdma *r = NULL;

	return dev != NULL && doca_rdma_create(dev, &r) == DOCA_SUCCESS ? r : NULL;
}

static void *make_dma(void)
{
	struct doca_dev *dev = make_dev_();
	struct doca_dma *d = NULL;

	return dev != NULL && doca_dma_create(dev, &d) == DOCA_SUCCESS ? d : NULL;
}

static void *make_ctx(void)
{
	struct doca_rdma *r = make_rdma();

	return r != NULL ? doca_rdma_as_ctx(r) : NULL;
}

static void *make_dpa(void)
{
	struct doca_dev *dev = make_dev_();
	struct doca_dpa *d = NULL;

	return dev != NULL && doca_dpa_create(dev, &d) == DOCA_SUCCESS ? d : NULL;
}

static void *make_sta(void)
{
	struct doca_dev *dev = make_dev_();
	struct doca_sta *st = NULL;

	return dev != NULL && doca_sta_create(dev, &st) == DOCA_SUCCESS ? st : NULL;
}

static void *make_sync_event(void)
{
	struct doca_sync_event *e = NULL;

	return doca_sync_event_create(&e) == DOCA_SUCCESS ? e : NULL;
}

static void *make_pe(void)
{
	struct doca_pe *pe = NULL;

	return doca_pe_create(&pe) == DOCA_SUCCESS ? pe : NULL;
}

static void *make_graph(void)
{
	struct doca_pe *pe = make_pe();
	struct doca_graph *g = NULL;

	return pe != NULL && doca_graph_create(pe, &g) == DOCA_SUCCESS ? g : NULL;
}

static void *make_buf_inventory(void)
{
	struct doca_buf_inventory *inv = NULL;

	return doca_buf_inventory_create(4, &inv) == DOCA_SUCCESS ? inv : NULL;
}

/* A buf over the first 64 bytes of m, from an inventory of its own */
static struct doca_buf *buf_of(struct doca_mmap *m)
{
	struct doca_buf_inventory *inv = make_buf_inventory();
	struct doca_buf *b = NULL;
	void *addr = NULL;
	size_t len = 0;

	if (m == NULL || inv == NULL || doca_buf_inventory_start(inv) != DOCA_SUCCESS ||
	    doca_mmap_get_memrange(m, &addr, &len) != DOCA_SUCCESS)
		return NULL;
	return doca_buf_inventory_buf_get_by_addr(inv, m, addr, 64, &b) == DOCA_SUCCESS ? b : NULL;
}

static void *make_buf(void) { return buf_of(make_mmap_(true, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE)); }

static void *make_buf_pool(void)
{
	struct doca_mmap *m = make_mmap_(true, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_buf_pool *p = NULL;

	return m != NULL && doca_buf_pool_create(4, 64, m, &p) == DOCA_SUCCESS ? p : NULL;
}

static void *make_argp_param(void)
{
	struct doca_argp_param *p = NULL;

	if (doca_argp_init("test_null_args", NULL) != DOCA_SUCCESS)
		return NULL;
	return doca_argp_param_create(&p) == DOCA_SUCCESS ? p : NULL;
}

static void *make_argp_cmd(void)
{
	struct doca_argp_cmd *c = NULL;

	if (doca_argp_init("test_null_args", NULL) != DOCA_SUCCESS)
		return NULL;
	return doca_argp_cmd_create(&c) == DOCA_SUCCESS ? c : NULL;
}

static void *make_log_backend(void)
{
	struct doca_log_backend *b = NULL;

	return doca_log_backend_create_with_fd(STDERR_FILENO, &b) == DOCA_SUCCESS ? b : NULL;
}

/*
 * An RDMA context started with every task type configured, its PE, and a connection from
 * doca_rdma_export (exported, not connected): the tasks below are allocated on it with NULL
 * buffers, the state a program is in when it forgot to set them.
 */
#define RDMA_CB(x) \
	static void cb_##x(struct doca_rdma_task_##x *t, union doca_data a, union doca_data b) \
	{ \
		(void)t; \
		(void)a; \
		(void)b; \
	}
RDMA_CB(receive)
RDMA_CB(send)
RDMA_CB(send_imm)
RDMA_CB(read)
RDMA_CB(write)
RDMA_CB(write_imm)
RDMA_CB(atomic_cmp_swp)
RDMA_CB(atomic_fetch_add)
RDMA_CB(remote_net_sync_event_get)
RDMA_CB(remote_net_sync_event_notify_set)
RDMA_CB(remote_net_sync_event_notify_add)

static struct doca_rdma_connection *rdma_started(struct doca_rdma **out)
{
	struct doca_rdma *r = make_rdma();
	struct doca_rdma_connection *conn = NULL;
	struct doca_pe *pe = make_pe();
	const void *desc;
	size_t len;

	if (r == NULL || pe == NULL || doca_rdma_task_receive_set_conf(r, cb_receive, cb_receive, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_send_set_conf(r, cb_send, cb_send, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_send_imm_set_conf(r, cb_send_imm, cb_send_imm, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_read_set_conf(r, cb_read, cb_read, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_write_set_conf(r, cb_write, cb_write, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_write_imm_set_conf(r, cb_write_imm, cb_write_imm, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_atomic_cmp_swp_set_conf(r, cb_atomic_cmp_swp, cb_atomic_cmp_swp, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_atomic_fetch_add_set_conf(r, cb_atomic_fetch_add, cb_atomic_fetch_add, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_remote_net_sync_event_get_set_conf(r, cb_remote_net_sync_event_get,
							      cb_remote_net_sync_event_get, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_remote_net_sync_event_notify_set_set_conf(r, cb_remote_net_sync_event_notify_set,
								     cb_remote_net_sync_event_notify_set, 4) != DOCA_SUCCESS ||
	    doca_rdma_task_remote_net_sync_event_notify_add_set_conf(r, cb_remote_net_sync_event_notify_add,
								     cb_remote_net_sync_event_notify_add, 4) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(pe, doca_rdma_as_ctx(r)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_rdma_as_ctx(r)) != DOCA_SUCCESS ||
	    doca_rdma_export(r, &desc, &len, &conn) != DOCA_SUCCESS)
		return NULL;
	*out = r;
	return conn;
}

static void *make_rdma_connection(void)
{
	struct doca_rdma *r;

	return rdma_started(&r);
}

#define RDMA_TASK(x, ...) \
	static void *make_rdma_task_##x(void) \
	{ \
		struct doca_rdma_task_##x *t = NULL; \
		struct doca_rdma *r = NULL; \
		struct doca_rdma_connection *c = rdma_started(&r); \
		(void)c; \
		return r != NULL && doca_rdma_task_##x##_allocate_init(__VA_ARGS__, (union doca_data){0}, &t) == DOCA_SUCCESS \
			       ? t \
			       : NULL; \
	}
RDMA_TASK(receive, r, NULL)
RDMA_TASK(send, r, c, NULL)
RDMA_TASK(send_imm, r, c, NULL, 0)
RDMA_TASK(read, r, c, NULL, NULL)
RDMA_TASK(write, r, c, NULL, NULL)
RDMA_TASK(write_imm, r, c, NULL, NULL, 0)
RDMA_TASK(atomic_cmp_swp, r, c, NULL, NULL, 0, 0)
RDMA_TASK(atomic_fetch_add, r, c, NULL, NULL, 0)

/* doca_task_*: a write task without buffers (its submit must refuse it) */
static void *make_task(void)
{
	struct doca_rdma_task_write *t = make_rdma_task_write();

	return t != NULL ? doca_rdma_task_write_as_task(t) : NULL;
}

/* ---- objects made from a context or a device: Comch, DPA, STA, and the smaller ones ---- */

static bool role_dpu(void)
{
	const char *r = getenv("SOFTDOCA_ROLE");

	return r != NULL && strcmp(r, "dpu") == 0;
}

/* The first network representor of dev, or NULL */
static struct doca_devinfo_rep *first_rep(struct doca_dev *dev)
{
	struct doca_devinfo_rep **list;
	uint32_t n = 0;

	return dev != NULL && doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &n) == DOCA_SUCCESS &&
			       n > 0
		       ? list[0]
		       : NULL;
}

static struct doca_dev_rep *make_dev_rep_(struct doca_dev *dev)
{
	struct doca_devinfo_rep *info = first_rep(dev);
	struct doca_dev_rep *rep = NULL;

	return info != NULL && doca_dev_rep_open(info, &rep) == DOCA_SUCCESS ? rep : NULL;
}

static void *make_devinfo_rep(void) { return first_rep(make_dev_()); }

static void *make_dev_rep(void) { return make_dev_rep_(make_dev_()); }

/* A Comch server (the DPU side) and client (the host side), configured, not started */
static void *make_comch_server(void)
{
	struct doca_dev *dev = make_dev_();
	struct doca_comch_server *s = NULL;

	return doca_comch_server_create(dev, make_dev_rep_(dev), "null_args", &s) == DOCA_SUCCESS ? s : NULL;
}

static void *make_comch_client(void)
{
	struct doca_comch_client *c = NULL;

	return doca_comch_client_create(make_dev_(), "null_args", &c) == DOCA_SUCCESS ? c : NULL;
}

/*
 * A connected Comch connection: this process is one end (the client on the host side, the
 * server on the DPU side) and a peer process, this program again with the other role, is the
 * other. The peer leaves when its stdin closes: when the call's process ends, however it ends.
 */
static struct doca_comch_connection *peer_conn; /* the server's, from its connect callback */
static struct doca_comch_server *here_server;   /* this end's context (comch_end) */
static struct doca_comch_client *here_client;
static struct doca_pe *here_pe;                 /* its PE: the fast path's contexts join it */
static struct doca_mmap *here_consumer_mmap;    /* make_comch_consumer's */

static void comch_recv(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
		       struct doca_comch_connection *c)
{
	(void)ev, (void)buf, (void)len, (void)c;
}

static void comch_status(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
			 uint8_t ok)
{
	(void)ev;
	if (ok)
		peer_conn = c;
}

static void comch_gone(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *c,
		       uint8_t ok)
{
	(void)ev, (void)c, (void)ok;
}

static uint32_t remote_consumer_id; /* the peer's consumer, once it announced it */

static void comch_consumer_event(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev, (void)c, (void)id;
}

static void comch_consumer_new(struct doca_comch_event_consumer *ev, struct doca_comch_connection *c, uint32_t id)
{
	(void)ev, (void)c;
	remote_consumer_id = id;
}

static void comch_send_cb(struct doca_comch_task_send *t, union doca_data a, union doca_data b)
{
	(void)t, (void)a, (void)b;
}

/* This end's context, configured and started (the client's start completes in progress) */
static struct doca_ctx *comch_end(bool server, const char *name, struct doca_pe *pe, struct doca_comch_client **cl)
{
	struct doca_dev *dev = make_dev_();
	struct doca_comch_server *srv = NULL;
	struct doca_ctx *ctx;
	doca_error_t err;

	if (dev == NULL)
		return NULL;
	if (server) {
		if (doca_comch_server_create(dev, make_dev_rep_(dev), name, &srv) != DOCA_SUCCESS ||
		    doca_comch_server_task_send_set_conf(srv, comch_send_cb, comch_send_cb, 4) != DOCA_SUCCESS ||
		    doca_comch_server_event_msg_recv_register(srv, comch_recv) != DOCA_SUCCESS ||
		    doca_comch_server_event_connection_status_changed_register(srv, comch_status, comch_gone) !=
			    DOCA_SUCCESS ||
		    doca_comch_server_event_consumer_register(srv, comch_consumer_new, comch_consumer_event) !=
			    DOCA_SUCCESS)
			return NULL;
		ctx = doca_comch_server_as_ctx(srv);
		here_server = srv;
	} else {
		if (doca_comch_client_create(dev, name, cl) != DOCA_SUCCESS ||
		    doca_comch_client_task_send_set_conf(*cl, comch_send_cb, comch_send_cb, 4) != DOCA_SUCCESS ||
		    doca_comch_client_event_msg_recv_register(*cl, comch_recv) != DOCA_SUCCESS ||
		    doca_comch_client_event_consumer_register(*cl, comch_consumer_new, comch_consumer_event) !=
			    DOCA_SUCCESS)
			return NULL;
		ctx = doca_comch_client_as_ctx(*cl);
		here_client = *cl;
	}
	if (doca_pe_connect_ctx(pe, ctx) != DOCA_SUCCESS)
		return NULL;
	err = doca_ctx_start(ctx);
	return err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS ? ctx : NULL;
}

/* Progresses pe until done() or the deadline, asleep on its notification handle in between. */
static bool progress_until(struct doca_pe *pe, bool (*done)(void *), void *arg)
{
	struct timespec t0, t;
	doca_notification_handle_t h;

	if (doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = {.fd = h, .events = POLLIN};

		while (doca_pe_progress(pe))
			;
		if (done(arg))
			return true;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > CALL_TIMEOUT_S / 2 || doca_pe_request_notification(pe) != DOCA_SUCCESS)
			return false;
		poll(&p, 1, 100);
		doca_pe_clear_notification(pe, h);
	}
}

static bool ctx_running(void *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	return doca_ctx_get_state(ctx, &st) == DOCA_SUCCESS && st == DOCA_CTX_STATE_RUNNING;
}

static bool have_peer_conn(void *unused)
{
	(void)unused;
	return peer_conn != NULL;
}

static bool have_remote_consumer(void *unused)
{
	(void)unused;
	return remote_consumer_id != 0;
}

static void post_recv_cb(struct doca_comch_consumer_task_post_recv *t, union doca_data a, union doca_data b)
{
	(void)t, (void)a, (void)b;
}

/* The peer's consumer on its connection once there is one (for a producer's send task) */
static bool peer_consumer(struct doca_comch_client *cl, struct doca_pe *pe)
{
	struct doca_comch_connection *c = peer_conn;
	struct doca_mmap *m;
	struct doca_comch_consumer *cons = NULL;
	doca_error_t err;

	if (c == NULL && (cl == NULL || !ctx_running(doca_comch_client_as_ctx(cl)) ||
			  doca_comch_client_get_connection(cl, &c) != DOCA_SUCCESS))
		return false;
	m = make_mmap_(true, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	if (m == NULL || doca_comch_consumer_create(c, m, &cons) != DOCA_SUCCESS ||
	    doca_comch_consumer_task_post_recv_set_conf(cons, post_recv_cb, post_recv_cb, 4) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(pe, doca_comch_consumer_as_ctx(cons)) != DOCA_SUCCESS)
		_exit(1);
	err = doca_ctx_start(doca_comch_consumer_as_ctx(cons));
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_IN_PROGRESS)
		_exit(1);
	return true;
}

/*
 * The peer: `argv[0] comch-peer server|client NAME [consumer]`, until its stdin closes; with
 * `consumer`, it makes a consumer on the connection once connected.
 */
static int comch_peer(bool server, const char *name, bool consumer)
{
	struct doca_comch_client *cl = NULL;
	struct doca_pe *pe = make_pe();
	struct doca_ctx *ctx = pe != NULL ? comch_end(server, name, pe, &cl) : NULL;
	doca_notification_handle_t h;

	if (ctx == NULL || doca_pe_get_notification_handle(pe, &h) != DOCA_SUCCESS)
		return 1;
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct pollfd p[2] = {{.fd = h, .events = POLLIN}, {.fd = STDIN_FILENO, .events = POLLIN}};
		char c;

		while (doca_pe_progress(pe))
			;
		if (consumer && peer_consumer(cl, pe))
			consumer = false;
		if (doca_pe_request_notification(pe) != DOCA_SUCCESS)
			return 1;
		if (poll(p, 2, consumer ? 10 : -1) < 0 && errno != EINTR)
			return 1;
		if ((p[1].revents & (POLLIN | POLLHUP)) && read(STDIN_FILENO, &c, 1) <= 0)
			_exit(0); /* as the call's process ends: its objects stay */
		doca_pe_clear_notification(pe, h);
	}
}

/* Starts the peer process (the other role) for the Comch end `name`; waits for its "ready". */
static bool spawn_comch_peer(bool peer_server, const char *name, bool consumer)
{
	int in[2], out[2];
	char line[16] = "";
	pid_t pid;

	if (pipe(in) != 0 || pipe(out) != 0)
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		char *const args[] = {"test_null_args", "comch-peer", peer_server ? "server" : "client", (char *)name,
				      consumer ? "consumer" : NULL, NULL};

		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		setenv("SOFTDOCA_ROLE", peer_server ? "dpu" : "host", 1);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	close(in[0]); /* in[1] stays open (and is inherited by nothing else): the peer's life line */
	close(out[1]);
	if (read(out[0], line, sizeof(line) - 1) <= 0 || strncmp(line, "ready", 5) != 0)
		return false;
	close(out[0]);
	return true;
}

/* A connected connection; with peer_consumer, the peer makes a consumer on it too */
static struct doca_comch_connection *comch_connection(bool peer_consumer)
{
	const bool server = role_dpu();
	struct doca_comch_client *cl = NULL;
	struct doca_comch_connection *conn = NULL;
	struct doca_pe *pe = make_pe();
	struct doca_ctx *ctx;
	char name[64];

	snprintf(name, sizeof(name), "null_args_%d", (int)getpid());
	if (pe == NULL)
		return NULL;
	here_pe = pe;
	if (server) { /* ours first, then the client that dials it */
		if ((ctx = comch_end(true, name, pe, NULL)) == NULL || !spawn_comch_peer(false, name, peer_consumer) ||
		    !progress_until(pe, have_peer_conn, NULL))
			return NULL;
		return peer_conn;
	}
	if (!spawn_comch_peer(true, name, peer_consumer) || (ctx = comch_end(false, name, pe, &cl)) == NULL ||
	    !progress_until(pe, ctx_running, ctx) || doca_comch_client_get_connection(cl, &conn) != DOCA_SUCCESS)
		return NULL;
	return conn;
}

static void *make_comch_connection(void) { return comch_connection(false); }

static void *make_comch_producer(void)
{
	struct doca_comch_connection *c = make_comch_connection();
	struct doca_comch_producer *p = NULL;

	return c != NULL && doca_comch_producer_create(c, &p) == DOCA_SUCCESS ? p : NULL;
}

static void *make_comch_consumer(void)
{
	struct doca_comch_connection *c = make_comch_connection();
	struct doca_mmap *m = make_mmap_(true, DOCA_ACCESS_FLAG_PCI_READ_WRITE); /* producers write it */
	struct doca_comch_consumer *cons = NULL;

	here_consumer_mmap = m;
	return c != NULL && m != NULL && doca_comch_consumer_create(c, m, &cons) == DOCA_SUCCESS ? cons : NULL;
}

/* A send task on the connection, from this end's client (host side) or server (DPU side) */
static void *make_comch_task_send(void)
{
	struct doca_comch_connection *c = make_comch_connection();
	struct doca_comch_task_send *t = NULL;
	doca_error_t err;

	if (c == NULL)
		return NULL;
	err = here_server != NULL ? doca_comch_server_task_send_alloc_init(here_server, c, "x", 1, &t)
				  : doca_comch_client_task_send_alloc_init(here_client, c, "x", 1, &t);
	return err == DOCA_SUCCESS ? t : NULL;
}

static void producer_send_cb(struct doca_comch_producer_task_send *t, union doca_data a, union doca_data b)
{
	(void)t, (void)a, (void)b;
}

/* ctx connected to pe and started, once it is running (a fast-path context waits for its peer) */
static bool running_on(struct doca_pe *pe, struct doca_ctx *ctx)
{
	doca_error_t err;

	if (doca_pe_connect_ctx(pe, ctx) != DOCA_SUCCESS)
		return false;
	err = doca_ctx_start(ctx);
	return (err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS) && progress_until(pe, ctx_running, ctx);
}

/*
 * A producer's send task and a consumer's receive task (a buffer of its mmap), their contexts
 * running on the connection's PE: they start once the peer has registered them.
 */
static void *make_comch_producer_task_send(void)
{
	struct doca_comch_connection *c = comch_connection(true); /* the peer makes a consumer to send to */
	struct doca_comch_producer *p = NULL;
	struct doca_comch_producer_task_send *t = NULL;
	struct doca_pe *pe = here_pe;
	struct doca_buf *b = make_buf();

	if (c == NULL || pe == NULL || b == NULL || doca_comch_producer_create(c, &p) != DOCA_SUCCESS ||
	    doca_comch_producer_task_send_set_conf(p, producer_send_cb, producer_send_cb, 4) != DOCA_SUCCESS ||
	    !running_on(pe, doca_comch_producer_as_ctx(p)) || !progress_until(pe, have_remote_consumer, NULL))
		return NULL;
	return doca_comch_producer_task_send_alloc_init(p, b, NULL, 0, remote_consumer_id, &t) == DOCA_SUCCESS ? t
													  : NULL;
}

static void *make_comch_consumer_task_post_recv(void)
{
	struct doca_comch_consumer *cons = make_comch_consumer();
	struct doca_comch_consumer_task_post_recv *t = NULL;
	struct doca_pe *pe = here_pe;
	struct doca_buf *b = buf_of(here_consumer_mmap);

	if (cons == NULL || pe == NULL || b == NULL ||
	    doca_comch_consumer_task_post_recv_set_conf(cons, post_recv_cb, post_recv_cb, 4) != DOCA_SUCCESS ||
	    !running_on(pe, doca_comch_consumer_as_ctx(cons)))
		return NULL;
	return doca_comch_consumer_task_post_recv_alloc_init(cons, b, &t) == DOCA_SUCCESS ? t : NULL;
}

/* A DPA context started with the unit tests' device program (tests/unit/dpa) */
static struct doca_dpa *dpa_started(void)
{
	struct doca_dpa *d = make_dpa();

	return d != NULL && doca_dpa_set_app(d, test_dpa_app) == DOCA_SUCCESS && doca_dpa_start(d) == DOCA_SUCCESS
		       ? d
		       : NULL;
}

/* An object made on a started DPA context by `create` (d: the context, o: the object) */
#define ON_DPA(type, create) \
	static void *make_##type(void) \
	{ \
		struct doca_dpa *d = dpa_started(); \
		struct doca_##type *o = NULL; \
		return d != NULL && (create) == DOCA_SUCCESS ? o : NULL; \
	}
ON_DPA(dpa_thread, doca_dpa_thread_create(d, &o))
ON_DPA(dpa_tg, doca_dpa_thread_group_create(d, 2, &o))
ON_DPA(dpa_completion, doca_dpa_completion_create(d, 16, &o))
ON_DPA(dpa_async_ops, doca_dpa_async_ops_create(d, 16, 0, &o))
ON_DPA(dpa_eu_affinity, doca_dpa_eu_affinity_create(d, &o))
ON_DPA(dpa_hash_table, doca_dpa_hash_table_create(d, 16, &o))

static void *make_dpa_notification_completion(void)
{
	struct doca_dpa *d = dpa_started();
	struct doca_dpa_thread *t = NULL;
	struct doca_dpa_notification_completion *nc = NULL;

	return d != NULL && doca_dpa_thread_create(d, &t) == DOCA_SUCCESS &&
			       doca_dpa_notification_completion_create(d, t, &nc) == DOCA_SUCCESS
		       ? nc
		       : NULL;
}

static void *make_sta_io(void)
{
	struct doca_sta *st = make_sta();
	struct doca_sta_io *io = NULL;

	return st != NULL && doca_sta_io_create(st, &io) == DOCA_SUCCESS ? io : NULL;
}

static void *sta_zmalloc(size_t size, size_t align, uint64_t *phys)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	if (p != NULL)
		*phys = (uint64_t)(uintptr_t)p; /* identity "physical" address */
	return p;
}

static uint64_t sta_vtophys(const void *buf, uint32_t size)
{
	(void)size;
	return (uint64_t)(uintptr_t)buf;
}

static void sta_task_cb(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	(void)task;
	(void)ud;
}

/* An STA context configured as the reference describes and running (its PE progressed until then) */
static struct doca_dev *sta_dev; /* sta_running's device */

static struct doca_sta *sta_running(void)
{
	struct doca_dev *dev = sta_dev = make_dev_();
	struct doca_pe *pe = make_pe();
	struct doca_sta *st = NULL;

	if (dev == NULL || pe == NULL || doca_sta_create(dev, &st) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(pe, doca_sta_as_ctx(st)) != DOCA_SUCCESS || doca_sta_add_dev(st, dev) != DOCA_SUCCESS ||
	    doca_sta_mem_allocator_register(st, sta_zmalloc, free, sta_vtophys) != DOCA_SUCCESS ||
	    doca_sta_subsystem_task_rm_ns_set_conf(st, sta_task_cb, sta_task_cb) != DOCA_SUCCESS ||
	    doca_sta_be_task_destroy_queue_set_conf(st, sta_task_cb, sta_task_cb) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_sta_as_ctx(st)) != DOCA_ERROR_IN_PROGRESS)
		return NULL;
	return progress_until(pe, ctx_running, doca_sta_as_ctx(st)) ? st : NULL;
}

static void *make_sta_subs_handle(void)
{
	struct doca_sta *st = sta_running();
	struct doca_sta_subs_handle *h = NULL;

	return st != NULL && doca_sta_subsystem_create(st, "nqn.2026-12.io.softdoca:null-args", &h) == DOCA_SUCCESS ? h
															 : NULL;
}

static void *make_sta_be_handle(void)
{
	struct doca_sta *st = sta_running();
	struct doca_sta_be_handle *h = NULL;

	return st != NULL && doca_sta_be_create(st, &h) == DOCA_SUCCESS ? h : NULL;
}

/* A back end's NVMe queue pair (its rings and doorbells in this process's memory), and the task
 * that destroys it */
static void *make_sta_be_q_handle(void)
{
	static uint8_t sq[4096], cq[4096], db[4096];
	struct doca_sta *st = sta_running();
	struct doca_sta_be_handle *be = NULL;
	struct doca_sta_be_q_handle *q = NULL;
	struct doca_mmap *sq_m, *cq_m, *db_m;

	if (st == NULL || doca_sta_be_create(st, &be) != DOCA_SUCCESS)
		return NULL;
	sq_m = mmap_over(sta_dev, sq, sizeof(sq), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	cq_m = mmap_over(sta_dev, cq, sizeof(cq), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	db_m = mmap_over(sta_dev, db, sizeof(db), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return sq_m != NULL && cq_m != NULL && db_m != NULL &&
			       doca_sta_be_add_queue(be, sq_m, db_m, 8, cq_m, db_m, 12, &q) == DOCA_SUCCESS
		       ? q
		       : NULL;
}

static void *make_sta_producer_task_send(void)
{
	struct doca_sta_be_q_handle *q = make_sta_be_q_handle();
	struct doca_sta_producer_task_send *t = NULL;

	return q != NULL && doca_sta_be_destroy_queue_task_alloc_init(q, (union doca_data){0}, &t) == DOCA_SUCCESS ? t
															: NULL;
}

/* One of a running STA context's execution units */
static void *make_sta_eu_handle(void)
{
	static struct doca_sta_eu_handle *eus[256];
	struct doca_sta *st = sta_running();
	uint32_t max = 0, n = 0;

	return st != NULL && doca_sta_get_max_num_eus_available(st, &max) == DOCA_SUCCESS && max > 0 &&
			       max <= sizeof(eus) / sizeof(eus[0]) &&
			       doca_sta_get_eu_handle(st, eus, &n) == DOCA_SUCCESS && n > 0
		       ? eus[0]
		       : NULL;
}

static void *make_buf_arr(void)
{
	struct doca_buf_arr *a = NULL;

	return doca_buf_arr_create(4, &a) == DOCA_SUCCESS ? a : NULL;
}

static doca_error_t user_node(void *cookie)
{
	(void)cookie;
	return DOCA_SUCCESS;
}

static void graph_cb(struct doca_graph_instance *gi, union doca_data u, union doca_data g)
{
	(void)gi;
	(void)u;
	(void)g;
}

static void memcpy_cb(struct doca_dma_task_memcpy *t, union doca_data u, union doca_data c)
{
	(void)t;
	(void)u;
	(void)c;
}

/* An instance of a started graph: a DMA context's node, then a user node */
static void *make_graph_instance(void)
{
	struct doca_pe *pe = make_pe();
	struct doca_dma *dma = make_dma();
	struct doca_graph *g = NULL;
	struct doca_graph_node *n = NULL, *u = NULL;
	struct doca_graph_instance *gi = NULL;

	return pe != NULL && dma != NULL && doca_dma_task_memcpy_set_conf(dma, memcpy_cb, memcpy_cb, 2) == DOCA_SUCCESS &&
			       doca_pe_connect_ctx(pe, doca_dma_as_ctx(dma)) == DOCA_SUCCESS &&
			       doca_graph_create(pe, &g) == DOCA_SUCCESS &&
			       doca_graph_node_create_from_ctx(g, doca_dma_as_ctx(dma), &n) == DOCA_SUCCESS &&
			       doca_graph_node_create_from_user(g, user_node, &u) == DOCA_SUCCESS &&
			       doca_graph_add_dependency(g, n, u) == DOCA_SUCCESS &&
			       doca_graph_set_conf(g, graph_cb, graph_cb, 2) == DOCA_SUCCESS &&
			       doca_ctx_start(doca_dma_as_ctx(dma)) == DOCA_SUCCESS && doca_graph_start(g) == DOCA_SUCCESS &&
			       doca_graph_instance_create(g, &gi) == DOCA_SUCCESS
		       ? gi
		       : NULL;
}

static void *make_rdma_addr(void)
{
	struct doca_rdma_addr *a = NULL;

	return doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", 7471, &a) == DOCA_SUCCESS ? a : NULL;
}

static void *make_mmap_advise(void)
{
	struct doca_mmap_advise *a = NULL;

	return doca_mmap_advise_create(make_dev_(), &a) == DOCA_SUCCESS ? a : NULL;
}

static void *make_clock(void)
{
	struct doca_clock *c = NULL;

	return doca_clock_create(make_dev_(), &c) == DOCA_SUCCESS ? c : NULL;
}

static void *make_sync_event_remote_net(void)
{
	struct doca_dev *dev = make_dev_();
	struct doca_sync_event *e = make_sync_event();
	struct doca_sync_event_remote_net *rn = NULL;
	const uint8_t *data;
	size_t sz;

	return e != NULL && doca_sync_event_add_publisher_location_remote_net(e) == DOCA_SUCCESS &&
			       doca_sync_event_add_subscriber_location_cpu(e, dev) == DOCA_SUCCESS &&
			       doca_sync_event_start(e) == DOCA_SUCCESS &&
			       doca_sync_event_export_to_remote_net(e, &data, &sz) == DOCA_SUCCESS &&
			       doca_sync_event_remote_net_create_from_export(dev, data, sz, &rn) == DOCA_SUCCESS
		       ? rn
		       : NULL;
}

/* The tasks of the other contexts, allocated on a started one with valid arguments */
static void dma_cb(struct doca_dma_task_memcpy *t, union doca_data a, union doca_data b)
{
	(void)t, (void)a, (void)b;
}

static void *make_dma_task_memcpy(void)
{
	struct doca_dma *d = make_dma();
	struct doca_pe *pe = make_pe();
	struct doca_buf *src = make_buf(), *dst = make_buf();
	struct doca_dma_task_memcpy *t = NULL;

	return d != NULL && pe != NULL && src != NULL && dst != NULL &&
			       doca_dma_task_memcpy_set_conf(d, dma_cb, dma_cb, 4) == DOCA_SUCCESS &&
			       running_on(pe, doca_dma_as_ctx(d)) &&
			       doca_dma_task_memcpy_alloc_init(d, src, dst, (union doca_data){0}, &t) == DOCA_SUCCESS
		       ? t
		       : NULL;
}

#define SE_CB(x) \
	static void se_cb_##x(struct doca_sync_event_task_##x *t, union doca_data a, union doca_data b) \
	{ \
		(void)t, (void)a, (void)b; \
	}
SE_CB(get)
SE_CB(notify_set)
SE_CB(notify_add)
SE_CB(wait_eq)
SE_CB(wait_neq)

/* A sync event running as a context (CPU publisher and subscriber), every task type configured */
static struct doca_sync_event *sync_event_started(void)
{
	struct doca_dev *dev = make_dev_();
	struct doca_sync_event *e = make_sync_event();
	struct doca_pe *pe = make_pe();

	return dev != NULL && e != NULL && pe != NULL &&
			       doca_sync_event_add_publisher_location_cpu(e, dev) == DOCA_SUCCESS &&
			       doca_sync_event_add_subscriber_location_cpu(e, dev) == DOCA_SUCCESS &&
			       doca_sync_event_task_get_set_conf(e, se_cb_get, se_cb_get, 4) == DOCA_SUCCESS &&
			       doca_sync_event_task_notify_set_set_conf(e, se_cb_notify_set, se_cb_notify_set, 4) ==
				       DOCA_SUCCESS &&
			       doca_sync_event_task_notify_add_set_conf(e, se_cb_notify_add, se_cb_notify_add, 4) ==
				       DOCA_SUCCESS &&
			       doca_sync_event_task_wait_eq_set_conf(e, se_cb_wait_eq, se_cb_wait_eq, 4) == DOCA_SUCCESS &&
			       doca_sync_event_task_wait_neq_set_conf(e, se_cb_wait_neq, se_cb_wait_neq, 4) == DOCA_SUCCESS &&
			       running_on(pe, doca_sync_event_as_ctx(e))
		       ? e
		       : NULL;
}

static uint64_t se_word; /* where get and notify_add tasks put the value */

#define SE_TASK(x, ...) \
	static void *make_sync_event_task_##x(void) \
	{ \
		struct doca_sync_event *e = sync_event_started(); \
		struct doca_sync_event_task_##x *t = NULL; \
		return e != NULL && doca_sync_event_task_##x##_alloc_init(e, __VA_ARGS__, (union doca_data){0}, &t) == \
					    DOCA_SUCCESS \
			       ? t \
			       : NULL; \
	}
SE_TASK(get, &se_word)
SE_TASK(notify_set, 1)
SE_TASK(notify_add, 1, &se_word)
SE_TASK(wait_eq, 1, ~0ULL)
SE_TASK(wait_neq, 1, ~0ULL)

static void advise_cb(struct doca_mmap_advise_task_invalidate_cache *t, union doca_data a, union doca_data b)
{
	(void)t, (void)a, (void)b;
}

static void *make_mmap_advise_task_invalidate_cache(void)
{
	struct doca_mmap_advise *a = make_mmap_advise();
	struct doca_pe *pe = make_pe();
	struct doca_buf *b = make_buf();
	struct doca_mmap_advise_task_invalidate_cache *t = NULL;

	return a != NULL && pe != NULL && b != NULL &&
			       doca_mmap_advise_task_invalidate_cache_set_conf(a, advise_cb, advise_cb, 4) == DOCA_SUCCESS &&
			       running_on(pe, doca_mmap_advise_as_ctx(a)) &&
			       doca_mmap_advise_task_invalidate_cache_alloc_init(a, b, (union doca_data){0}, &t) ==
				       DOCA_SUCCESS
		       ? t
		       : NULL;
}

/* The remote sync event tasks of RDMA, on an exported connection, for an imported remote event */
#define RDMA_SE_TASK(x, ...) \
	static void *make_rdma_task_remote_net_sync_event_##x(void) \
	{ \
		struct doca_rdma *r = NULL; \
		struct doca_rdma_connection *c = rdma_started(&r); \
		struct doca_sync_event_remote_net *ev = make_sync_event_remote_net(); \
		struct doca_rdma_task_remote_net_sync_event_##x *t = NULL; \
		return c != NULL && ev != NULL && \
				       doca_rdma_task_remote_net_sync_event_##x##_allocate_init(r, c, ev, __VA_ARGS__, \
												(union doca_data){0}, &t) == \
					       DOCA_SUCCESS \
			       ? t \
			       : NULL; \
	}
RDMA_SE_TASK(get, make_buf())
RDMA_SE_TASK(notify_set, make_buf())
RDMA_SE_TASK(notify_add, make_buf(), 1)

enum role { ROLE_ANY, ROLE_HOST, ROLE_DPU }; /* the side of the card whose process can make the object */

static const struct factory {
	const char *type;
	void *(*make)(void);
	enum role role;
} factories[] = {
	{"doca_devinfo", make_devinfo},
	{"doca_dev", make_dev},
	{"doca_mmap", make_mmap},
	{"doca_rdma", make_rdma},
	{"doca_dma", make_dma},
	{"doca_ctx", make_ctx},
	{"doca_dpa", make_dpa},
	{"doca_sta", make_sta},
	{"doca_sync_event", make_sync_event},
	{"doca_pe", make_pe},
	{"doca_graph", make_graph},
	{"doca_buf_inventory", make_buf_inventory},
	{"doca_buf", make_buf},
	{"doca_buf_pool", make_buf_pool},
	{"doca_argp_param", make_argp_param},
	{"doca_argp_cmd", make_argp_cmd},
	{"doca_log_backend", make_log_backend},
	{"doca_rdma_connection", make_rdma_connection},
	{"doca_rdma_task_receive", make_rdma_task_receive},
	{"doca_rdma_task_send", make_rdma_task_send},
	{"doca_rdma_task_send_imm", make_rdma_task_send_imm},
	{"doca_rdma_task_read", make_rdma_task_read},
	{"doca_rdma_task_write", make_rdma_task_write},
	{"doca_rdma_task_write_imm", make_rdma_task_write_imm},
	{"doca_rdma_task_atomic_cmp_swp", make_rdma_task_atomic_cmp_swp},
	{"doca_rdma_task_atomic_fetch_add", make_rdma_task_atomic_fetch_add},
	{"doca_task", make_task},
	{"doca_devinfo_rep", make_devinfo_rep, ROLE_DPU},
	{"doca_dev_rep", make_dev_rep, ROLE_DPU},
	{"doca_comch_server", make_comch_server, ROLE_DPU},
	{"doca_comch_client", make_comch_client, ROLE_HOST},
	{"doca_comch_connection", make_comch_connection},
	{"doca_comch_producer", make_comch_producer},
	{"doca_comch_consumer", make_comch_consumer},
	{"doca_dpa_thread", make_dpa_thread},
	{"doca_dpa_tg", make_dpa_tg},
	{"doca_dpa_completion", make_dpa_completion},
	{"doca_dpa_async_ops", make_dpa_async_ops},
	{"doca_dpa_notification_completion", make_dpa_notification_completion},
	{"doca_dpa_eu_affinity", make_dpa_eu_affinity},
	{"doca_dpa_hash_table", make_dpa_hash_table},
	{"doca_sta_io", make_sta_io},
	{"doca_sta_subs_handle", make_sta_subs_handle},
	{"doca_sta_be_handle", make_sta_be_handle},
	{"doca_sta_eu_handle", make_sta_eu_handle},
	{"doca_sta_be_q_handle", make_sta_be_q_handle},
	{"doca_sta_producer_task_send", make_sta_producer_task_send},
	{"doca_buf_arr", make_buf_arr},
	{"doca_graph_instance", make_graph_instance},
	{"doca_rdma_addr", make_rdma_addr},
	{"doca_mmap_advise", make_mmap_advise},
	{"doca_clock", make_clock},
	{"doca_sync_event_remote_net", make_sync_event_remote_net},
	{"doca_dma_task_memcpy", make_dma_task_memcpy},
	{"doca_sync_event_task_get", make_sync_event_task_get},
	{"doca_sync_event_task_notify_set", make_sync_event_task_notify_set},
	{"doca_sync_event_task_notify_add", make_sync_event_task_notify_add},
	{"doca_sync_event_task_wait_eq", make_sync_event_task_wait_eq},
	{"doca_sync_event_task_wait_neq", make_sync_event_task_wait_neq},
	{"doca_mmap_advise_task_invalidate_cache", make_mmap_advise_task_invalidate_cache},
	{"doca_rdma_task_remote_net_sync_event_get", make_rdma_task_remote_net_sync_event_get},
	{"doca_rdma_task_remote_net_sync_event_notify_set", make_rdma_task_remote_net_sync_event_notify_set},
	{"doca_rdma_task_remote_net_sync_event_notify_add", make_rdma_task_remote_net_sync_event_notify_add},
	{"doca_comch_task_send", make_comch_task_send},
	{"doca_comch_producer_task_send", make_comch_producer_task_send},
	{"doca_comch_consumer_task_post_recv", make_comch_consumer_task_post_recv},
};

/* The type's factory on this side of the card; NULL: none (the call is left to the first sweep). */
static const struct factory *factory_of(const char *type)
{
	const enum role here = role_dpu() ? ROLE_DPU : ROLE_HOST;

	for (size_t i = 0; type != NULL && i < sizeof(factories) / sizeof(factories[0]); i++)
		if (strcmp(factories[i].type, type) == 0)
			return factories[i].role == ROLE_ANY || factories[i].role == here ? &factories[i] : NULL;
	return NULL;
}

#define NO_OBJECT 250 /* the child's exit status when its factory failed */

static struct outcome run_one(const struct null_call *c, const struct factory *f, bool most)
{
	struct outcome o = {.status = -1};
	struct timespec deadline;
	int err[2];
	pid_t pid;
	int st = 0;

	if (pipe(err) != 0) {
		perror("pipe");
		exit(EXIT_FAILURE);
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(EXIT_FAILURE);
	}
	if (pid == 0) {
		void *obj = NULL;
		int r;

		setpgid(0, 0); /* (what it may fork goes with it) */
		close(err[0]);
		dup2(err[1], STDERR_FILENO);
		close(err[1]);
		alarm(CALL_TIMEOUT_S);
		if (f != NULL && (obj = f->make()) == NULL)
			_exit(NO_OBJECT);
		fprintf(stderr, "\n" MARK_CALL "\n"); /* only the call's own lines count */
		r = f == NULL ? c->call() : most ? c->obj_max_call(obj) : c->obj_call(obj);
		fprintf(stderr, "\n" MARK_RETURNED "%d\n", r);
		_exit(0);
	}
	close(err[1]);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += CALL_TIMEOUT_S + 2;
	drain(err[0], &o, &deadline);
	close(err[0]);
	if (waitpid(pid, &st, WNOHANG) == 0) {
		kill(-pid, SIGKILL); /* (a child that kept stderr open past the deadline) */
		waitpid(pid, &st, 0);
	}
	if (WIFSIGNALED(st)) {
		o.signal = WTERMSIG(st);
		o.returned = false;
	} else {
		o.exit = WEXITSTATUS(st);
		o.returned = o.returned && o.exit == 0;
	}
	return o;
}

/* Checks that the call returned; says how it did not. */
static bool crashed_call(const struct null_call *c, const struct outcome *o, const char *args)
{
	char how[64];

	CHECK(o->returned);
	if (o->returned)
		return false;
	if (o->signal != 0)
		snprintf(how, sizeof(how), "%s",
			 o->signal == SIGALRM ? "no return within the timeout" : strsignal(o->signal));
	else
		snprintf(how, sizeof(how), "its process exited with status %d", o->exit);
	fprintf(stderr, "%s(%s, ...): %s%s\n", c->name, args, how, o->last[0] != '\0' ? "; its last line:" : "");
	if (o->last[0] != '\0')
		fprintf(stderr, "    %s\n", o->last);
	return true;
}

static void test_every_call(void)
{
	const size_t n = sizeof(null_calls) / sizeof(null_calls[0]);
	unsigned crashed = 0, succeeded = 0, silent = 0;

	for (size_t i = 0; i < n; i++) {
		const struct null_call *c = &null_calls[i];
		struct outcome o = run_one(c, NULL, false);

		if (crashed_call(c, &o, "0")) {
			crashed++;
			continue;
		}
		if (getenv("NULL_ARGS_SHOW") != NULL)
			fprintf(stderr, "%s: %s | %s\n", c->name,
				c->returns_error ? doca_error_get_name((doca_error_t)o.status) : "-", o.last);
		if (!c->returns_error)
			continue;
		CHECK(o.status != DOCA_SUCCESS || listed(null_ok, c->name));
		CHECK(o.status == DOCA_SUCCESS || o.lines > 0);
		if (o.status == DOCA_SUCCESS && !listed(null_ok, c->name)) {
			succeeded++;
			fprintf(stderr, "%s(0, ...): DOCA_SUCCESS with a NULL argument\n", c->name);
		} else if (o.status != DOCA_SUCCESS && o.lines == 0) {
			silent++;
			fprintf(stderr, "%s(0, ...): %s without a log line\n", c->name,
				doca_error_get_name((doca_error_t)o.status));
		}
	}
	fprintf(stderr, "%zu calls: %u crashed or hung, %u succeeded, %u failed silently\n", n, crashed, succeeded,
		silent);
	/* every exported function is called, takes nothing, is printf-like, or is Windows-only */
	{
		size_t unprototyped = 0;

		while (null_calls_unprototyped[unprototyped] != NULL)
			unprototyped++;
		fprintf(stderr, "%u exported: %zu called, %u without arguments, %u printf-like, %zu without a Linux "
			"prototype\n",
			null_calls_exported, n, null_calls_no_args, null_calls_printf_like, unprototyped);
		CHECK(n + null_calls_no_args + null_calls_printf_like + unprototyped == null_calls_exported);
	}
	CHECK(n > 500);
	/* an exported function without a Linux prototype is a header that lost one */
	for (size_t i = 0; null_calls_unprototyped[i] != NULL; i++) {
		if (!listed(windows_only, null_calls_unprototyped[i]))
			fprintf(stderr, "%s: exported, but no header declares it\n", null_calls_unprototyped[i]);
		CHECK(listed(windows_only, null_calls_unprototyped[i]));
	}
}

static void object_calls(bool most)
{
	const size_t n = sizeof(null_calls) / sizeof(null_calls[0]);
	const char *rest = most ? "all ones" : "0";
	unsigned calls = 0, crashed = 0, silent = 0, ok = 0;

	for (size_t i = 0; i < n; i++) {
		const struct null_call *c = &null_calls[i];
		const struct factory *f = factory_of(c->obj_type);
		struct outcome o;

		if (f == NULL)
			continue;
		calls++;
		o = run_one(c, f, most);
		CHECK(o.signal != 0 || o.exit != NO_OBJECT);
		if (o.signal == 0 && o.exit == NO_OBJECT) {
			fprintf(stderr, "%s: could not make a %s for it\n", c->name, c->obj_type);
			continue;
		}
		if (crashed_call(c, &o, most ? "a live object, all ones" : "a live object, 0")) {
			crashed++;
			continue;
		}
		if (getenv("NULL_ARGS_SHOW") != NULL)
			fprintf(stderr, "%s(a %s): %s | %s\n", c->name, c->obj_type,
				c->returns_error ? doca_error_get_name((doca_error_t)o.status) : "-", o.last);
		if (!c->returns_error)
			continue;
		if (o.status == DOCA_SUCCESS)
			ok++;
		CHECK(o.status == DOCA_SUCCESS || o.lines > 0 || answers(c, o.status));
		if (o.status != DOCA_SUCCESS && o.lines == 0 && !answers(c, o.status)) {
			silent++;
			fprintf(stderr, "%s(a %s, %s, ...): %s without a log line\n", c->name, c->obj_type, rest,
				doca_error_get_name((doca_error_t)o.status));
		}
	}
	fprintf(stderr, "%u calls on a live object, the rest %s: %u crashed or hung, %u succeeded, %u failed "
		"silently\n",
		calls, rest, crashed, ok, silent);
	CHECK(calls > 300);
}

static void test_every_object_call(void)
{
	object_calls(false);
}

/* Sizes, counts, levels and enums at their largest: a refusal with a line, or a value kept. */
static void test_every_object_call_most(void)
{
	object_calls(true);
}

int main(int argc, char **argv)
{
	struct doca_log_backend *sdk_log;

	if ((argc == 4 || argc == 5) && strcmp(argv[1], "comch-peer") == 0) { /* the other end of a Comch connection */
		TEST_ROLE();
		return comch_peer(strcmp(argv[2], "server") == 0, argv[3], argc == 5 && strcmp(argv[4], "consumer") == 0);
	}

	/* softdoca's own lines reach SDK backends only: one on stderr, which each child points at
	 * its pipe */
	CHECK_OK(doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &sdk_log));
	TEST_RUN(test_every_call);
	TEST_RUN(test_every_object_call);
	TEST_RUN(test_every_object_call_most);
	TEST_EXIT();
}
