/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_cm_peer: a DOCA program for the interop check (tests/interop/run.sh, docs/interop.md).
 * Only the DOCA API: doca_rdma in RDMA-CM mode on the card the configuration names
 * (SOFTDOCA_CONFIG: `wire = rocev2`, host.ipv4 = the tap's address), so everything on the wire
 * is the soft NIC's RoCEv2 path: CM MADs on QP1, then RC.
 *
 * It plays the protocol of rdma-core's example pair, rdma_server / rdma_client (port 7471):
 * the client connects, posts a 16-byte receive, SENDs 16 bytes, gets the server's 16; the
 * server receives first, answers, and disconnects. Both programs' buffers are static, so the
 * 16 bytes the guest sends are zeros: checked, every byte.
 *
 *   --client ADDR   connect to rdma_server at ADDR, --rounds N times (a new context each round;
 *                   a request refused because the server is not listening yet is repeated)
 *   --server        listen; serve --rounds N connections of the guest's `rdma_client -s ...`;
 *                   --ready-file P: P.<i> is created once round i may start
 *
 * Prints a line per step and `summary: ...`; exit 0 only if every round completed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_error.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "doca_rdma.h"

#define MSG 16u
#define MEM 4096u
#define RECV_OFF 0u
#define SEND_OFF 1024u

static struct {
	const char *server, *ready;
	uint16_t port;
	unsigned rounds;
	double timeout_s;
} O = {.port = 7471, .rounds = 1, .timeout_s = 60};

/* What the callbacks saw (the context's user data points here). */
struct peer {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_rdma_connection *conn;
	char *mem;
	unsigned req, est, fail, disc, sent, recvd, errs;
	size_t recv_len;
	doca_error_t last_err;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double t0;
static unsigned acks_lost; /* SENDs flushed by the peer's disconnection (send_msg) */

static void say(const char *fmt, ...)
{
	va_list ap;

	printf("[%7.3f] ", now_s() - t0);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

#define TRY(call) \
	do { \
		doca_error_t e_ = (call); \
		if (e_ != DOCA_SUCCESS) { \
			say("FAIL: %s: %s", #call, doca_error_get_name(e_)); \
			return false; \
		} \
	} while (0)

static void nap(void)
{
	nanosleep(&(struct timespec){0, 50000}, NULL);
}

/* Progresses until *counter moves past `from` or `secs` pass; true if it moved. */
static bool run_until(struct peer *p, const unsigned *counter, unsigned from, double secs)
{
	double end = now_s() + secs;

	while (*counter <= from && now_s() < end)
		if (doca_pe_progress(p->pe) == 0)
			nap();
	return *counter > from;
}

static void send_ok(struct doca_rdma_task_send *t, union doca_data tu, union doca_data cu)
{
	(void)t, (void)tu;
	((struct peer *)cu.ptr)->sent++;
}

static void recv_ok(struct doca_rdma_task_receive *t, union doca_data tu, union doca_data cu)
{
	struct peer *p = cu.ptr;

	(void)tu;
	p->recv_len = doca_rdma_task_receive_get_result_len(t);
	p->recvd++;
}

static void task_err(struct doca_task *t, struct peer *p, const char *what)
{
	p->last_err = doca_task_get_status(t);
	p->errs++;
	say("%s completed in error: %s", what, doca_error_get_name(p->last_err));
}

static void send_err(struct doca_rdma_task_send *t, union doca_data tu, union doca_data cu)
{
	(void)tu;
	task_err(doca_rdma_task_send_as_task(t), cu.ptr, "SEND");
}

static void recv_err(struct doca_rdma_task_receive *t, union doca_data tu, union doca_data cu)
{
	(void)tu;
	task_err(doca_rdma_task_receive_as_task(t), cu.ptr, "receive");
}

static void c_req(struct doca_rdma_connection *c, union doca_data cu)
{
	struct peer *p = cu.ptr;
	doca_error_t e;

	p->req++;
	p->conn = c;
	e = doca_rdma_connection_accept(c, NULL, 0);
	say("connection request %u: accept: %s", p->req, doca_error_get_name(e));
}

static void c_est(struct doca_rdma_connection *c, union doca_data u, union doca_data cu)
{
	struct peer *p = cu.ptr;

	(void)u;
	p->conn = c;
	p->est++;
	say("connection established");
}

static void c_fail(struct doca_rdma_connection *c, union doca_data u, union doca_data cu)
{
	(void)c, (void)u;
	((struct peer *)cu.ptr)->fail++;
}

static void c_disc(struct doca_rdma_connection *c, union doca_data u, union doca_data cu)
{
	(void)c, (void)u;
	((struct peer *)cu.ptr)->disc++;
	say("disconnected by the peer");
}

static struct doca_dev *open_first_rdma_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_rdma_cap_transport_type_is_supported(list[i], DOCA_RDMA_TRANSPORT_TYPE_RC) == DOCA_SUCCESS &&
		    doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	doca_devinfo_destroy_list(list);
	return dev;
}

/* A context with its PE, 16-byte SEND and receive tasks, started. */
static bool peer_up(struct peer *p, struct doca_dev *dev, unsigned conns)
{
	struct doca_ctx *ctx;

	memset(p, 0, sizeof(*p));
	p->mem = calloc(1, MEM);
	if (p->mem == NULL)
		return false;
	TRY(doca_mmap_create(&p->mmap));
	TRY(doca_mmap_set_memrange(p->mmap, p->mem, MEM));
	TRY(doca_mmap_set_permissions(p->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	TRY(doca_mmap_add_dev(p->mmap, dev));
	TRY(doca_mmap_start(p->mmap));
	TRY(doca_buf_inventory_create(8, &p->inv));
	TRY(doca_buf_inventory_start(p->inv));
	TRY(doca_pe_create(&p->pe));
	TRY(doca_rdma_create(dev, &p->rdma));
	ctx = doca_rdma_as_ctx(p->rdma);
	TRY(doca_rdma_set_connection_state_callbacks(p->rdma, c_req, c_est, c_fail, c_disc));
	TRY(doca_rdma_set_max_num_connections(p->rdma, (uint16_t)conns));
	TRY(doca_rdma_set_connection_request_timeout(p->rdma, 20000));
	TRY(doca_rdma_task_send_set_conf(p->rdma, send_ok, send_err, 2));
	TRY(doca_rdma_task_receive_set_conf(p->rdma, recv_ok, recv_err, 2));
	TRY(doca_pe_connect_ctx(p->pe, ctx));
	TRY(doca_ctx_set_user_data(ctx, (union doca_data){.ptr = p}));
	TRY(doca_ctx_start(ctx));
	return true;
}

static void peer_down(struct peer *p)
{
	struct doca_ctx *ctx;
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	double end = now_s() + 5;

	if (p->rdma != NULL) {
		ctx = doca_rdma_as_ctx(p->rdma);
		doca_ctx_stop(ctx);
		while (st != DOCA_CTX_STATE_IDLE && now_s() < end &&
		       doca_ctx_get_state(ctx, &st) == DOCA_SUCCESS)
			if (doca_pe_progress(p->pe) == 0)
				nap();
		if (st != DOCA_CTX_STATE_IDLE)
			say("context did not stop within 5 s");
		doca_rdma_destroy(p->rdma);
	}
	if (p->pe != NULL)
		doca_pe_destroy(p->pe);
	if (p->inv != NULL)
		doca_buf_inventory_destroy(p->inv);
	if (p->mmap != NULL)
		doca_mmap_destroy(p->mmap);
	free(p->mem);
	memset(p, 0, sizeof(*p));
}

/* A receive of 16 bytes into mem + RECV_OFF, submitted. */
static bool post_recv(struct peer *p, struct doca_buf **b, struct doca_rdma_task_receive **t)
{
	memset(p->mem + RECV_OFF, 0xee, MSG); /* so that zeros must have come from the peer */
	TRY(doca_buf_inventory_buf_get_by_args(p->inv, p->mmap, p->mem + RECV_OFF, MSG, p->mem + RECV_OFF, 0, b));
	TRY(doca_rdma_task_receive_allocate_init(p->rdma, *b, (union doca_data){0}, t));
	TRY(doca_task_submit(doca_rdma_task_receive_as_task(*t)));
	return true;
}

/*
 * SENDs 16 bytes (0x40 + i) on the connection and waits for its completion. A SEND flushed
 * because the peer disconnected after it had all it waits for (rdma_server: our message;
 * rdma_client: its answer) counts as delivered: both programs disconnect as soon as they have
 * what they wait for, so when netem delays or drops rxe's ACK of our SEND, the DREQ overtakes
 * it and the QP is gone (docs/interop.md, "A race of rdma_server's protocol").
 * The guest's own verdict (its exit status) then says whether it arrived.
 */
static bool send_msg(struct peer *p)
{
	struct doca_buf *b = NULL;
	struct doca_rdma_task_send *t = NULL;
	unsigned sent = p->sent, errs = p->errs, disc = p->disc;
	bool ok;

	for (unsigned i = 0; i < MSG; i++)
		p->mem[SEND_OFF + i] = (char)(0x40 + i);
	TRY(doca_buf_inventory_buf_get_by_args(p->inv, p->mmap, p->mem + SEND_OFF, MSG, p->mem + SEND_OFF, MSG, &b));
	TRY(doca_rdma_task_send_allocate_init(p->rdma, p->conn, b, (union doca_data){0}, &t));
	TRY(doca_task_submit(doca_rdma_task_send_as_task(t)));
	/* done when it completes either way */
	for (double end = now_s() + O.timeout_s; p->sent == sent && p->errs == errs && now_s() < end;)
		if (doca_pe_progress(p->pe) == 0)
			nap();
	ok = p->sent > sent;
	if (!ok && p->errs > errs && p->disc == disc) /* the flush may come before the callback */
		run_until(p, &p->disc, disc, 5);
	if (!ok && p->errs > errs && p->disc > disc && p->last_err == DOCA_ERROR_CONNECTION_ABORTED) {
		/* the answer came first (client: checked by the caller), or the guest decides */
		say("SEND of 16 bytes: flushed by the peer's disconnection (its ACK late or lost): delivered "
		    "as far as the protocol tells, the guest's exit status decides");
		p->errs--;
		acks_lost++;
		ok = true;
	} else {
		say("SEND of 16 bytes: %s", ok ? "completed" : "FAILED");
	}
	doca_task_free(doca_rdma_task_send_as_task(t));
	doca_buf_dec_refcount(b, NULL);
	return ok;
}

/* The 16 bytes received must be rdma_client's / rdma_server's static buffer: zeros. */
static bool check_recv(struct peer *p)
{
	for (unsigned i = 0; i < MSG; i++)
		if (p->mem[RECV_OFF + i] != 0) {
			say("FAIL: byte %u received is 0x%02x, not 0", i, (unsigned)(uint8_t)p->mem[RECV_OFF + i]);
			return false;
		}
	if (p->recv_len != MSG) {
		say("FAIL: received %zu bytes, not 16", p->recv_len);
		return false;
	}
	say("received 16 bytes, all zero as rdma-core's example sends them");
	return true;
}

/* One connection to rdma_server: REQ (again after a REJ while it is not listening yet). */
static bool client_round(struct doca_dev *dev, unsigned round)
{
	struct peer p;
	struct doca_buf *rb = NULL;
	struct doca_rdma_task_receive *rt = NULL;
	double end = now_s() + O.timeout_s;
	bool ok = false;
	unsigned tries = 0;

	if (!peer_up(&p, dev, 1))
		goto out;
	if (!post_recv(&p, &rb, &rt))
		goto out;
	while (p.est == 0 && now_s() < end) {
		struct doca_rdma_addr *addr = NULL;
		unsigned fail = p.fail, est = p.est;

		doca_error_t e = doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, O.server, O.port, &addr);

		if (e == DOCA_SUCCESS)
			e = doca_rdma_connect_to_addr(p.rdma, addr, (union doca_data){.ptr = &p});
		if (e != DOCA_SUCCESS) {
			say("FAIL: connect to %s:%u (request %u): %s", O.server, O.port, tries + 1, doca_error_get_name(e));
			if (addr != NULL)
				doca_rdma_addr_destroy(addr);
			goto out;
		}
		tries++;
		while (p.fail == fail && p.est == est && now_s() < end)
			if (doca_pe_progress(p.pe) == 0)
				nap();
		doca_rdma_addr_destroy(addr);
		if (p.est == est && now_s() < end) {
			/* refused: rdma_server not listening yet; a fresh context (the failed
			 * connection keeps its slot) */
			if (rt != NULL)
				doca_task_free(doca_rdma_task_receive_as_task(rt));
			if (rb != NULL)
				doca_buf_dec_refcount(rb, NULL);
			rt = NULL;
			rb = NULL;
			peer_down(&p);
			nanosleep(&(struct timespec){0, 200000000}, NULL);
			if (!peer_up(&p, dev, 1) || !post_recv(&p, &rb, &rt))
				goto out;
		}
	}
	if (p.est == 0) {
		say("FAIL: round %u: not connected after %u requests", round, tries);
		goto out;
	}
	say("round %u: connected after %u request(s)", round, tries);
	if (!send_msg(&p))
		goto out;
	if (!run_until(&p, &p.recvd, 0, O.timeout_s) || !check_recv(&p))
		goto out;
	/* rdma_server disconnects once its SEND is acknowledged */
	if (!run_until(&p, &p.disc, 0, O.timeout_s)) {
		say("FAIL: no disconnection from the server");
		goto out;
	}
	ok = p.errs == 0;
out:
	if (rt != NULL)
		doca_task_free(doca_rdma_task_receive_as_task(rt));
	if (rb != NULL)
		doca_buf_dec_refcount(rb, NULL);
	peer_down(&p);
	return ok;
}

static bool ready(unsigned round)
{
	char path[4096];
	FILE *f;

	if (O.ready == NULL)
		return true;
	snprintf(path, sizeof(path), "%s.%u", O.ready, round);
	f = fopen(path, "w");
	if (f == NULL) {
		say("FAIL: cannot create %s: %s", path, strerror(errno));
		return false;
	}
	fclose(f);
	return true;
}

/* The guest's rdma_client connects O.rounds times: receive 16 bytes, answer 16. */
static unsigned serve(struct doca_dev *dev)
{
	struct peer p;
	unsigned good = 0;
	doca_error_t e;

	if (!peer_up(&p, dev, O.rounds))
		goto out;
	e = doca_rdma_start_listen_to_port(p.rdma, O.port);
	if (e != DOCA_SUCCESS) {
		say("FAIL: listen on %u: %s", O.port, doca_error_get_name(e));
		goto out;
	}
	say("listening on RDMA-CM port %u", O.port);
	for (unsigned i = 0; i < O.rounds; i++) {
		struct doca_buf *rb = NULL;
		struct doca_rdma_task_receive *rt = NULL;
		unsigned est = p.est, recvd = p.recvd, disc = p.disc, errs = p.errs;
		bool ok = false;

		if (!post_recv(&p, &rb, &rt) || !ready(i))
			goto round_out;
		if (!run_until(&p, &p.est, est, O.timeout_s)) {
			say("FAIL: round %u: no connection", i);
			goto round_out;
		}
		if (!run_until(&p, &p.recvd, recvd, O.timeout_s) || !check_recv(&p))
			goto round_out;
		if (!send_msg(&p))
			goto round_out;
		/* rdma_client disconnects once both completions are in */
		if (!run_until(&p, &p.disc, disc, O.timeout_s)) {
			say("FAIL: round %u: no disconnection from the client", i);
			goto round_out;
		}
		ok = p.errs == errs;
round_out:
		say("round %u: %s", i, ok ? "ok" : "FAILED");
		good += ok;
		if (rt != NULL)
			doca_task_free(doca_rdma_task_receive_as_task(rt));
		if (rb != NULL)
			doca_buf_dec_refcount(rb, NULL);
		if (!ok)
			break;
	}
out:
	peer_down(&p);
	return good;
}

int main(int argc, char **argv)
{
	struct doca_dev *dev;
	unsigned good = 0;
	bool server = false;

	t0 = now_s();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--server") == 0)
			server = true;
		else if (strcmp(a, "--client") == 0 && v)
			O.server = v, i++;
		else if (strcmp(a, "--port") == 0 && v)
			O.port = (uint16_t)atoi(v), i++;
		else if (strcmp(a, "--rounds") == 0 && v)
			O.rounds = (unsigned)atoi(v), i++;
		else if (strcmp(a, "--timeout") == 0 && v)
			O.timeout_s = atof(v), i++;
		else if (strcmp(a, "--ready-file") == 0 && v)
			O.ready = v, i++;
		else {
			fprintf(stderr, "usage: %s (--client ADDR | --server [--ready-file P]) [--port N] [--rounds N] [--timeout S]\n",
				argv[0]);
			return 2;
		}
	}
	if (server == (O.server != NULL) || O.rounds == 0) {
		fprintf(stderr, "%s: exactly one of --client ADDR and --server\n", argv[0]);
		return 2;
	}
	dev = open_first_rdma_dev();
	if (dev == NULL) {
		say("FAIL: no RDMA device (SOFTDOCA_CONFIG?)");
		return 1;
	}
	if (server) {
		good = serve(dev);
	} else {
		for (unsigned i = 0; i < O.rounds; i++) {
			double r0 = now_s();
			bool ok = client_round(dev, i);

			say("round %u: %s in %.2f s", i, ok ? "ok" : "FAILED", now_s() - r0);
			if (!ok)
				break;
			good++;
		}
	}
	doca_dev_close(dev);
	say("summary: %s, %u of %u rounds completed, %u SENDs flushed by the peer's disconnection", server ? "server" : "client",
	    good, O.rounds, acks_lost);
	return good == O.rounds ? 0 : 1;
}
