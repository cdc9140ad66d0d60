/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A process holding RDMA-CM connections over RoCEv2 is SIGKILLed: its peer hears a DREQ sent
 * on its behalf by the process that reclaims it (docs/rocev2.md, "Crash tolerance"), as the
 * kernel's CM would send one when a dead process's cm_ids are destroyed. SOFTDOCA_ROCE_DEAD_MS
 * is 60 s here, so only that DREQ explains a disconnection within seconds. One scenario per run
 * (argv[1]), each forking its processes before it touches DOCA:
 *
 *   server: A (client, 127.77.1.1) is connected to B (server, 127.77.2.1); C, another process on
 *           B's address, only listens. B is killed; A's next send lands at C, which finds B dead,
 *           reclaims it and sends B's DREQ: A's disconnection callback, its send flushed.
 *           C's port counters (SOFTDOCA_ROCE_STATS) say one DREQ for the dead.
 *   client: the client D and the server A on one address (127.77.2.1); D is killed; A's next send
 *           comes back to A's own port, which reclaims D and sends D's DREQ to A itself.
 *   wire:   a hand-played Linux client (a plain UDP socket on 127.77.3.1, test_rdma_roce_cm_wire
 *           style) has one connection established with a DOCA server S and a second request
 *           the server has not answered; S is killed; the client's REQ retry reaches this
 *           process (also on S's address), which ends both on the wire: a DREQ (TID, comm IDs,
 *           our QPN, valid ICRC) and a REJ 28 with the REQ's TID; the DREQ is resent (same
 *           TID) until our DREP, which is answered by nothing; our own DREQ gets a DREP.
 *   req:    the same hand-played peer, passive: a DOCA client K (on 127.77.2.1, where this process
 *           also is) sends it a REQ; K is killed before the REP; the REP (as Linux's, K's comm ID
 *           and TID) reaches this process, which reclaims K and refuses it as Linux's
 *           cm_destroy_id would for an id in REQ_SENT: REJ "timeout" (4) of the REP, ARI = K's CA
 *           GUID (the REQ's), both comm IDs, the REQ's TID; the REP resent is refused again.
 * Everything is bounded by deadlines; nothing sleeps to synchronise.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "roce_wire_test.h"

#define PEER_IP 0x7f4d0301u /* 127.77.3.1: a stream card's address, no soft NIC holds its port 4791 */
#define SRV_IP 0x7f4d0201u  /* 127.77.2.1 */

SIDE_CB(send, send)

static struct doca_buf_inventory *inv;

/* A byte from fd within secs, progressing s meanwhile (s may be NULL); 0 if none came. */
static char wait_byte(struct side *s, int fd, double secs)
{
	double end = now_s() + secs;
	char c = 0;

	while (now_s() < end) {
		struct pollfd p = {.fd = fd, .events = POLLIN};

		if (poll(&p, 1, s == NULL ? 10 : 0) == 1)
			return read(fd, &c, 1) == 1 ? c : 0;
		if (s != NULL && doca_pe_progress(s->pe) == 0)
			nap();
	}
	return 0;
}

static void side_up(struct side *s, struct doca_dev *dev)
{
	side_create(s, dev, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
		    65536);
	CHECK_OK(doca_rdma_set_max_num_connections(s->rdma, 4));
	CHECK_OK(doca_rdma_set_connection_request_timeout(s->rdma, 20000));
	CHECK_OK(doca_rdma_task_send_set_conf(s->rdma, send_ok, send_err, 4));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
}

/* Progresses s until killed (secs at most); what a process does that is about to die. */
static int idle_until_killed(struct side *s, double secs)
{
	double end = now_s() + secs;

	while (now_s() < end)
		if (doca_pe_progress(s->pe) == 0)
			nap();
	return 1; /* not killed: the test failed */
}

/* Connects s to ip:port; established within 20 s. */
static void connect_to(struct side *s, const char *ip, uint16_t port)
{
	struct doca_rdma_addr *addr = NULL;

	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, ip, port, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(s->rdma, addr, (union doca_data){.ptr = s}));
	RUN_UNTIL_S(s, s->est == 1 || s->fail > 0, 20);
	CHECK(s->est == 1);
	CHECK_OK(doca_rdma_addr_destroy(addr));
}

/*
 * The peer is dead: a send on s's connection goes out (to the dead QPN), the reclaimer's DREQ
 * ends the connection within 5 s (the silence rule would take 60), the send is flushed.
 */
static void send_to_the_dead(struct side *s)
{
	struct doca_rdma_task_send *t = NULL;
	struct doca_buf *src = NULL;
	double t0 = now_s();

	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	memcpy(s->mem, "anyone there?", 13);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, s->mmap, s->mem, 13, &src));
	CHECK_OK(doca_rdma_task_send_allocate_init(s->rdma, s->conn, src, (union doca_data){0}, &t));
	if (t == NULL) { /* (failed above: the connection is not there) */
		if (src != NULL)
			(void)doca_buf_dec_refcount(src, NULL);
		(void)doca_buf_inventory_destroy(inv);
		return;
	}
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(t)));
	RUN_UNTIL_S(s, s->disc == 1 && s->ok + s->err == 1, 10);
	CHECK(now_s() - t0 < 5);
	CHECK(s->disc == 1 && s->err == 1 && s->ok == 0);
	doca_task_free(doca_rdma_task_send_as_task(t));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
}

static void kill_and_reap(pid_t pid)
{
	int status = 0;

	CHECK(kill(pid, SIGKILL) == 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static pid_t fork_child(int (*fn)(int in, int out), int *to_child, int *from_child)
{
	int a2c[2], c2a[2];
	pid_t pid;

	CHECK(pipe(a2c) == 0 && pipe(c2a) == 0);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(a2c[1]);
		close(c2a[0]);
		test_failures = 0;
		_exit(fn(a2c[0], c2a[1]));
	}
	close(a2c[0]);
	close(c2a[1]);
	*to_child = a2c[1];
	*from_child = c2a[0];
	return pid;
}

/* A counter of the port line SOFTDOCA_ROCE_STATS printed in text ("RoCEv2 port <ip> counters: ..."). */
static long long port_counter(const char *text, const char *ip, const char *name)
{
	char head[64], key[64];
	const char *line, *v;
	long long n = -1;

	snprintf(head, sizeof(head), "RoCEv2 port %s counters:", ip);
	snprintf(key, sizeof(key), " %s ", name);
	line = strstr(text, head);
	v = line != NULL ? strstr(line, key) : NULL;
	if (v != NULL && (strchr(line, '\n') == NULL || v < strchr(line, '\n')))
		(void)sscanf(v + strlen(key), "%lld", &n);
	return n;
}

/* Stops x (its NIC prints its port's counters, SOFTDOCA_ROCE_STATS) and puts what it printed in text. */
static void down_with_stats(struct side *x, struct doca_dev *dev, char *text, size_t len)
{
	char path[] = "/tmp/roce_cm_dead_XXXXXX";
	int fd = mkstemp(path), saved = dup(STDERR_FILENO);
	ssize_t n;

	CHECK(fd >= 0 && saved >= 0);
	setenv("SOFTDOCA_ROCE_STATS", "1", 1);
	dup2(fd, STDERR_FILENO);
	side_down(x);
	CHECK_OK(doca_dev_close(dev));
	dup2(saved, STDERR_FILENO);
	close(saved);
	unsetenv("SOFTDOCA_ROCE_STATS");
	n = pread(fd, text, len - 1, 0);
	CHECK(n > 0);
	text[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
}

/* ---- server: B killed, C (on B's address) notices ---- */

static int run_server_b(int in, int out)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct side b;
	uint16_t port;

	(void)in;
	side_up(&b, dev);
	port = listen_on_free_port(b.rdma);
	put_blob(out, &port, sizeof(port));
	return idle_until_killed(&b, 60);
}

static char stats_path[64];

static int run_bystander_c(int in, int out)
{
	struct doca_dev *dev;
	struct side c;
	int fd = open(stats_path, O_WRONLY | O_TRUNC);

	/* its port's counters, printed when its NIC stops, go to the file the parent reads */
	setenv("SOFTDOCA_ROCE_STATS", "1", 1);
	if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		return 1;
	close(fd);
	dev = open_ibdev("mlx5_1");
	side_up(&c, dev);
	(void)listen_on_free_port(c.rdma); /* its port on 127.77.2.1 is open: it is in the UDP 4791 group */
	CHECK(write(out, "u", 1) == 1);
	CHECK(wait_byte(&c, in, 60) == 'q');
	side_down(&c);
	CHECK_OK(doca_dev_close(dev));
	return test_failures == 0 ? 0 : 1;
}

static void test_server_killed(void)
{
	int b_in, b_out, c_in, c_out, fd, status = 0;
	pid_t b, c;
	struct doca_dev *dev;
	struct side a;
	uint16_t port = 0;
	char text[8192] = "";
	ssize_t n;

	snprintf(stats_path, sizeof(stats_path), "/tmp/roce_cm_dead_XXXXXX");
	fd = mkstemp(stats_path);
	CHECK(fd >= 0);
	b = fork_child(run_server_b, &b_in, &b_out);
	c = fork_child(run_bystander_c, &c_in, &c_out);
	CHECK(get_blob(b_out, &port, sizeof(port)) == sizeof(port));
	CHECK(wait_byte(NULL, c_out, 30) == 'u');

	dev = open_ibdev("mlx5_0");
	side_up(&a, dev);
	connect_to(&a, "127.77.2.1", port);
	kill_and_reap(b);
	send_to_the_dead(&a);

	CHECK(write(c_in, "q", 1) == 1);
	CHECK(waitpid(c, &status, 0) == c);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	n = pread(fd, text, sizeof(text) - 1, 0);
	CHECK(n > 0);
	/* C reclaimed B and sent its DREQ; A's DREP (and any retransmit) for B was dropped, counted */
	CHECK(port_counter(text, "127.77.2.1", "dreq_for_dead") == 1);
	CHECK(port_counter(text, "127.77.2.1", "reclaimed") == 1);
	CHECK(port_counter(text, "127.77.2.1", "dead_conn_bad") == 0);
	CHECK(port_counter(text, "127.77.2.1", "drop_no_owner") >= 1);
	if (test_failures > 0)
		fprintf(stderr, "C's stderr:\n%s\n", text);
	close(fd);
	unlink(stats_path);
	side_down(&a);
	CHECK_OK(doca_dev_close(dev));
	close(b_in);
	close(b_out);
	close(c_in);
	close(c_out);
}

/* ---- client: D killed, the server A on the same address notices itself ---- */

static int run_client_d(int in, int out)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct side d;
	uint16_t port = 0;

	CHECK(get_blob(in, &port, sizeof(port)) == sizeof(port));
	side_up(&d, dev);
	connect_to(&d, "127.77.2.1", port);
	CHECK(write(out, test_failures == 0 ? "e" : "n", 1) == 1);
	return idle_until_killed(&d, 60);
}

static void test_client_killed(void)
{
	int d_in, d_out;
	pid_t d = fork_child(run_client_d, &d_in, &d_out);
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct side a;
	uint16_t port;

	side_up(&a, dev);
	port = listen_on_free_port(a.rdma);
	put_blob(d_in, &port, sizeof(port));
	CHECK(wait_byte(&a, d_out, 30) == 'e');
	RUN_UNTIL_S(&a, a.est == 1, 10);
	kill_and_reap(d);
	send_to_the_dead(&a);
	side_down(&a);
	CHECK_OK(doca_dev_close(dev));
	close(d_in);
	close(d_out);
}

/* ---- wire: a hand-played Linux client, the DOCA server S killed ---- */

static int sock = -1;

static void send_mad(const uint8_t *mad)
{
	wire_send_mad(sock, PEER_IP, SRV_IP, ROCE_QP1_QKEY, mad);
}

/* The next CM MAD from SRV_IP within secs (progressing s if not NULL), its ICRC checked. */
static bool recv_mad(struct side *s, uint8_t *mad, struct roce_mad_hdr *hdr, double secs)
{
	uint16_t sport = 0, id = 1;

	if (!wire_recv_mad(s, sock, SRV_IP, PEER_IP, mad, hdr, secs, &sport, &id))
		return false;
	CHECK(sport == ROCE_UDP_PORT && id == 0);
	return true;
}

/* A REQ as Linux rdma_cm over rxe sends it, from QPN qpn, TID 0x0000000a << 32 | comm_id. */
static void linux_req(uint8_t *mad, uint32_t comm_id, uint32_t qpn, uint16_t port)
{
	wire_linux_req(mad, PEER_IP, SRV_IP, comm_id, qpn, port, NULL);
}

static int s_out = -1;

/* S's request callback: the first request is accepted, the next left unanswered. */
static void s_req(struct doca_rdma_connection *c, union doca_data cu)
{
	struct side *s = cu.ptr;

	if (++s->req == 1)
		CHECK_OK(doca_rdma_connection_accept(c, NULL, 0));
	else
		CHECK(write(s_out, "r", 1) == 1);
}

static int run_server_s(int in, int out)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct side s;
	uint16_t port;

	(void)in;
	s_out = out;
	side_create(&s, dev, DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(s.rdma, s_req, c_est, c_fail, c_disc));
	CHECK_OK(doca_rdma_set_max_num_connections(s.rdma, 4));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s.rdma)));
	port = listen_on_free_port(s.rdma);
	put_blob(out, &port, sizeof(port));
	return idle_until_killed(&s, 60);
}

static void test_wire(void)
{
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(PEER_IP)};
	int s_in, s_outp, seen_dreq = 0, seen_rej = 0;
	pid_t srv = fork_child(run_server_s, &s_in, &s_outp);
	uint8_t mad[ROCE_MAD_LEN], req2[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr, dreq_hdr = {0};
	struct roce_cm_rep rep;
	struct roce_cm_rtu rtu;
	struct roce_cm_dreq dreq = {0};
	struct doca_dev *dev;
	struct side x;
	uint16_t port = 0;

	sock = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(sock >= 0 && bind(sock, (struct sockaddr *)&me, sizeof(me)) == 0);
	CHECK(get_blob(s_outp, &port, sizeof(port)) == sizeof(port));
	/* this process is on S's address too (only listening): it is what will notice S's death */
	dev = open_ibdev("mlx5_1");
	side_up(&x, dev);
	(void)listen_on_free_port(x.rdma);

	/* connection 1: REQ, REP, RTU */
	linux_req(mad, 0x0dead001, 0x11, port);
	send_mad(mad);
	CHECK(recv_mad(&x, mad, &hdr, 10) && hdr.attr_id == ROCE_CM_REP);
	roce_cm_rep_get(mad, &rep);
	CHECK(rep.remote_comm_id == 0x0dead001 && rep.local_qpn > 1);
	rtu = (struct roce_cm_rtu){.local_comm_id = 0x0dead001, .remote_comm_id = rep.local_comm_id};
	roce_cm_rtu_put(mad, ROCE_CM_RTU, hdr.tid, &rtu);
	send_mad(mad);
	/* connection 2: a REQ S's application has not answered (its callback said so) */
	linux_req(req2, 0x0dead002, 0x12, port);
	send_mad(req2);
	CHECK(wait_byte(&x, s_outp, 10) == 'r');

	kill_and_reap(srv);
	/* Linux's CM resends the unanswered REQ: it reaches this process, which finds S dead */
	send_mad(req2);
	for (int i = 0; i < 2; i++) {
		if (!recv_mad(&x, mad, &hdr, 10)) {
			CHECK(!"a CM message on the dead server's behalf");
			break;
		}
		if (hdr.attr_id == ROCE_CM_DREQ) {
			roce_cm_dreq_get(mad, &dreq);
			dreq_hdr = hdr;
			CHECK(dreq.local_comm_id == rep.local_comm_id && dreq.remote_comm_id == 0x0dead001 &&
			      dreq.remote_qpn == 0x11);
			CHECK((uint32_t)hdr.tid == rep.local_comm_id); /* a new TID, in the server's style */
			seen_dreq++;
		} else {
			struct roce_cm_rej rej;

			CHECK(hdr.attr_id == ROCE_CM_REJ);
			roce_cm_rej_get(mad, &rej);
			CHECK(hdr.tid == 0x0000000a0dead002ull && rej.remote_comm_id == 0x0dead002 &&
			      rej.reason == ROCE_CM_REJ_CONSUMER && rej.msg_rejected == ROCE_CM_MSG_REQ);
			CHECK(roce_get32(mad + ROCE_MAD_HDR_LEN) >> 22 == rep.local_comm_id >> 22); /* S's comm ID */
			seen_rej++;
		}
	}
	CHECK(seen_dreq == 1 && seen_rej == 1);
	/* unanswered, the DREQ comes again (same TID) after 0.5 s; the REJ does not */
	CHECK(recv_mad(&x, mad, &hdr, 3) && hdr.attr_id == ROCE_CM_DREQ && hdr.tid == dreq_hdr.tid);
	/* our DREP stops it: nothing more comes (the next resend was due 0.5 s later) */
	rtu = (struct roce_cm_rtu){.local_comm_id = 0x0dead001, .remote_comm_id = rep.local_comm_id};
	roce_cm_rtu_put(mad, ROCE_CM_DREP, dreq_hdr.tid, &rtu);
	send_mad(mad);
	CHECK(!recv_mad(&x, mad, &hdr, 1));
	/* a DREQ of ours that crossed it is still answered: DREP with its TID */
	dreq = (struct roce_cm_dreq){.local_comm_id = 0x0dead001, .remote_comm_id = rep.local_comm_id,
				     .remote_qpn = rep.local_qpn};
	roce_cm_dreq_put(mad, 0x0000000b0dead001ull, &dreq);
	send_mad(mad);
	CHECK(recv_mad(&x, mad, &hdr, 3) && hdr.attr_id == ROCE_CM_DREP && hdr.tid == 0x0000000b0dead001ull);
	roce_cm_rtu_get(mad, &rtu);
	CHECK(rtu.local_comm_id == rep.local_comm_id && rtu.remote_comm_id == 0x0dead001);
	{
		char text[8192] = "";

		down_with_stats(&x, dev, text, sizeof(text));
		CHECK(port_counter(text, "127.77.2.1", "dreq_for_dead") == 2); /* the DREQ, the DREP */
		CHECK(port_counter(text, "127.77.2.1", "dead_resent") == 1);
		CHECK(port_counter(text, "127.77.2.1", "rej_for_dead") == 1);
		CHECK(port_counter(text, "127.77.2.1", "reclaimed") == 1);
		CHECK(port_counter(text, "127.77.2.1", "drop_no_owner") >= 2);
		if (test_failures > 0)
			fprintf(stderr, "the NIC's stop printed:\n%s\n", text);
	}
	close(sock);
	close(s_in);
	close(s_outp);
}

/* ---- req: a DOCA client K killed with its REQ out to a hand-played Linux server ---- */

#define REQ_PORT 7471

static int run_client_k(int in, int out)
{
	struct doca_dev *dev = open_ibdev("mlx5_1");
	struct doca_rdma_addr *addr = NULL;
	struct side k;

	(void)in;
	(void)out;
	side_up(&k, dev);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.77.3.1", REQ_PORT, &addr));
	CHECK_OK(doca_rdma_connect_to_addr(k.rdma, addr, (union doca_data){.ptr = &k}));
	return idle_until_killed(&k, 60);
}

/* The REJ Linux's cm_destroy_id sends for K's id in REQ_SENT, in answer to our REP. */
static void check_rej_timeout(const uint8_t *mad, const struct roce_mad_hdr *hdr, const struct roce_mad_hdr *req_hdr,
			      const struct roce_cm_req *req, uint32_t our_id)
{
	struct roce_cm_rej rej;

	CHECK(hdr->attr_id == ROCE_CM_REJ && hdr->tid == req_hdr->tid);
	roce_cm_rej_get(mad, &rej);
	CHECK(rej.msg_rejected == ROCE_CM_MSG_REP && rej.reason == ROCE_CM_REJ_TIMEOUT);
	CHECK(rej.local_comm_id == req->local_comm_id && rej.remote_comm_id == our_id);
	CHECK(rej.ari_len == 8 && roce_get64(rej.ari) == req->local_ca_guid); /* how Linux finds the id */
}

static void test_req(void)
{
	struct sockaddr_in me = {.sin_family = AF_INET, .sin_port = htons(ROCE_UDP_PORT), .sin_addr.s_addr = htonl(PEER_IP)};
	uint8_t mad[ROCE_MAD_LEN], rep_mad[ROCE_MAD_LEN];
	struct roce_mad_hdr hdr, req_hdr;
	struct roce_cm_req req;
	struct doca_dev *dev;
	struct side x;
	char text[8192] = "";
	int k_in, k_out;
	pid_t k;

	sock = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(sock >= 0 && bind(sock, (struct sockaddr *)&me, sizeof(me)) == 0);
	/* this process is on K's address (only listening): it is what will notice K's death */
	dev = open_ibdev("mlx5_1");
	side_up(&x, dev);
	(void)listen_on_free_port(x.rdma);
	k = fork_child(run_client_k, &k_in, &k_out);

	/* K's REQ reaches the hand-played server, which does not answer yet */
	CHECK(recv_mad(&x, mad, &req_hdr, 10) && req_hdr.attr_id == ROCE_CM_REQ);
	roce_cm_req_get(mad, &req);
	CHECK(req.service_id == roce_cm_service_id(ROCE_PS_TCP, REQ_PORT));
	CHECK(roce_get32(mad + ROCE_MAD_HDR_LEN) == req.local_comm_id && (uint32_t)req_hdr.tid == req.local_comm_id);
	kill_and_reap(k);

	/* the REP as Linux's CM sends it: the REQ's TID, K's comm ID as the remote one */
	wire_linux_rep(rep_mad, req_hdr.tid, 0x0dead101, req.local_comm_id, 0x13, 0x2b3c4d);
	/* then its resend (as if the REJ were lost): refused again; nothing else comes */
	for (int i = 0; i < 2; i++) {
		send_mad(rep_mad);
		if (recv_mad(&x, mad, &hdr, 5))
			check_rej_timeout(mad, &hdr, &req_hdr, &req, 0x0dead101);
		else
			CHECK(!"a REJ on the dead client's behalf");
	}
	CHECK(!recv_mad(&x, mad, &hdr, 1));

	down_with_stats(&x, dev, text, sizeof(text));
	CHECK(port_counter(text, "127.77.2.1", "rej_for_dead") == 2);
	CHECK(port_counter(text, "127.77.2.1", "dreq_for_dead") == 0);
	CHECK(port_counter(text, "127.77.2.1", "reclaimed") == 1);
	CHECK(port_counter(text, "127.77.2.1", "drop_dead") == 1);     /* the REP that found K dead */
	CHECK(port_counter(text, "127.77.2.1", "drop_no_owner") >= 1); /* its resend: K's id is free */
	CHECK(port_counter(text, "127.77.2.1", "dead_conn_bad") == 0);
	if (test_failures > 0)
		fprintf(stderr, "the NIC's stop printed:\n%s\n", text);
	close(sock);
	close(k_in);
	close(k_out);
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "server";

	signal(SIGPIPE, SIG_IGN);
	/* a disconnection must come from the DREQ, not from the silence rule */
	setenv("SOFTDOCA_ROCE_DEAD_MS", "60000", 1);
	if (strcmp(which, "server") == 0)
		TEST_RUN(test_server_killed);
	else if (strcmp(which, "client") == 0)
		TEST_RUN(test_client_killed);
	else if (strcmp(which, "wire") == 0)
		TEST_RUN(test_wire);
	else if (strcmp(which, "req") == 0)
		TEST_RUN(test_req);
	else
		CHECK(!"scenario: server, client, wire or req");
	TEST_EXIT();
}
