/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sleeping on verbs completion channels (softdoca's libibverbs), two real processes (fork):
 *  1. 3000 SEND ping-pongs, each side asleep between messages. The server waits as the STA EU
 *     and most event loops do: arm, poll the channel's descriptor, then ibv_get_cq_event on the
 *     blocking channel (a readable descriptor must yield an event, never block); the client
 *     blocks in ibv_get_cq_event directly. The peer's doorbell wakes the sleeper itself
 *     (lib/ibverbs/cq.c); a lost wake-up fails the poll's 10 s bound.
 *     The server's event comes without a byte through the channel's pipe when its own
 *     ibv_get_cq_event made it (serving the doorbell that woke it), and an empty pipe is not
 *     read: on the ring, its thread's system calls inside that call (/proc/thread-self/io)
 *     stay below one write and at one read (its doorbell) per call.
 *  2. The server posts a receive and waits on something else, its CQ not armed: the client's
 *     SEND still completes (the server's soft NIC takes it without the application).
 *  3. The same with the server's CQ armed: it waits neither in ibv_get_cq_event nor on the
 *     channel's descriptor, so the doorbell that would wake it there rings for nobody; the
 *     client's SEND still completes within 10 s, and the server then finds its event.
 * argv: port. Every wait is bounded (poll time-outs, alarm()).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "check_exit.h"

#define ROUNDS 3000

static const char *port;
static pid_t server_pid; /* (the client ends it when it fails) */
static char ready[64], phase2[64], sent[64], phase3[64], sent3[64];

static struct rdma_addrinfo *addr(bool passive)
{
	struct rdma_addrinfo hints = {.ai_port_space = RDMA_PS_TCP, .ai_flags = passive ? RAI_PASSIVE : 0}, *res;

	CHECK(rdma_getaddrinfo(passive ? "0.0.0.0" : "127.0.0.1", port, &hints, &res) == 0);
	return res;
}

static struct ibv_qp_init_attr caps(void)
{
	return (struct ibv_qp_init_attr){.cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1,
						 .max_inline_data = 16},
					 .sq_sig_all = 1, .qp_type = IBV_QPT_RC};
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	fclose(f);
}

static void wait_file(const char *path)
{
	while (access(path, F_OK) != 0) /* bounded by alarm() */
		usleep(1000);
}

/*
 * This thread's read and write system calls so far (/proc/thread-self/io syscr / syscw, through
 * io_fd, opened by the thread: one pread, itself counted as a read). False if unreadable.
 */
static int io_fd = -1;

static bool thread_syscalls(long *reads, long *writes)
{
	char buf[512];
	ssize_t n = io_fd >= 0 ? pread(io_fd, buf, sizeof(buf) - 1, 0) : -1;
	const char *r, *w;

	if (n <= 0)
		return false;
	buf[n] = 0;
	r = strstr(buf, "syscr:");
	w = strstr(buf, "syscw:");
	if (r == NULL || w == NULL)
		return false;
	*reads = strtol(r + 6, NULL, 10);
	*writes = strtol(w + 6, NULL, 10);
	return true;
}

/* The server's ibv_get_cq_event calls and the write system calls its thread made inside them. */
static long gets, get_writes, get_reads;

/* The next receive completion, asleep on the receive CQ's channel between looks. */
static void wait_recv(struct rdma_cm_id *id, bool poll_first, struct ibv_wc *wc)
{
	for (;;) {
		struct ibv_cq *cq;
		void *ctx;
		int n = ibv_poll_cq(id->recv_cq, 1, wc);

		CHECK(n >= 0);
		if (n == 1)
			break;
		CHECK(ibv_req_notify_cq(id->recv_cq, 0) == 0);
		n = ibv_poll_cq(id->recv_cq, 1, wc); /* what came before the arm */
		CHECK(n >= 0);
		if (n == 1)
			break;
		if (poll_first) {
			struct pollfd p = {.fd = id->recv_cq_channel->fd, .events = POLLIN};

			CHECK(poll(&p, 1, 10000) == 1); /* else a wake-up was lost */
		}
		long r0 = 0, w0 = 0, r1 = 0, w1 = 0;
		bool counted = thread_syscalls(&r0, &w0);

		CHECK(ibv_get_cq_event(id->recv_cq_channel, &cq, &ctx) == 0);
		if (counted && thread_syscalls(&r1, &w1)) {
			gets++;
			get_writes += w1 - w0;
			get_reads += r1 - r0 - 1; /* (the second look) */
		}
		CHECK(cq == id->recv_cq);
		ibv_ack_cq_events(cq, 1);
	}
	CHECK(wc->status == IBV_WC_SUCCESS && wc->opcode == IBV_WC_RECV && wc->byte_len == sizeof(uint32_t));
}

static void send_u32(struct rdma_cm_id *id, uint32_t *msg, uint32_t v)
{
	struct ibv_wc wc;

	*msg = v;
	CHECK(rdma_post_send(id, NULL, msg, sizeof(*msg), NULL, IBV_SEND_INLINE) == 0);
	CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS);
}

/* A SEND whose completion must come within 10 s, looked for without sleeping on the channel. */
static void send_u32_bounded(struct rdma_cm_id *id, uint32_t *msg, uint32_t v)
{
	struct timespec t0, t;
	struct ibv_wc wc;
	int n;

	*msg = v;
	CHECK(rdma_post_send(id, NULL, msg, sizeof(*msg), NULL, IBV_SEND_INLINE) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((n = ibv_poll_cq(id->send_cq, 1, &wc)) == 0) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10) {
			fprintf(stderr, "client: the SEND to a server whose armed CQ nobody waits on did not complete in 10 s\n");
			kill(server_pid, SIGKILL);
			exit(1);
		}
		sched_yield();
	}
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS);
}

static int server(void)
{
	struct rdma_addrinfo *res = addr(true);
	struct ibv_qp_init_attr a = caps();
	struct rdma_cm_id *listen_id, *id;
	uint32_t in = 0, out = 0;
	struct ibv_mr *mr;
	struct ibv_wc wc;

	alarm(120);
	CHECK(rdma_create_ep(&listen_id, res, NULL, &a) == 0);
	CHECK(rdma_listen(listen_id, 0) == 0);
	touch(ready);
	CHECK(rdma_get_request(listen_id, &id) == 0);
	CHECK(id->recv_cq_channel != NULL && id->send_cq_channel != NULL);
	CHECK((mr = rdma_reg_msgs(id, &in, sizeof(in))) != NULL);
	CHECK(rdma_post_recv(id, NULL, &in, sizeof(in), mr) == 0);
	CHECK(rdma_accept(id, NULL) == 0);
	long r0 = 0, w0 = 0, r = 0, w = 0;

	io_fd = open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC);
	CHECK(thread_syscalls(&r0, &w0) || io_fd < 0);
	for (uint32_t i = 0; i < ROUNDS; i++) {
		wait_recv(id, true, &wc);
		CHECK(in == 2 * i);
		CHECK(rdma_post_recv(id, NULL, &in, sizeof(in), mr) == 0);
		send_u32(id, &out, 2 * i + 1);
	}
	const char *tr = getenv("SOFTDOCA_RDMA_TRANSPORT");

	if (thread_syscalls(&r, &w)) {
		r -= r0;
		w -= w0;
	}

	printf("server: %.2f write and %.2f read system calls per round; %ld ibv_get_cq_event, %.2f writes and %.2f reads in each\n",
	       (double)w / ROUNDS, (double)r / ROUNDS, gets, gets > 0 ? (double)get_writes / (double)gets : 0.0,
	       gets > 0 ? (double)get_reads / (double)gets : 0.0);
	/*
	 * On the ring the client's doorbell wakes us and ibv_get_cq_event serves it here. With a
	 * pipe write for its own event, read back at once, and a read of the empty pipe first, it
	 * made 1.2-1.3 writes and 2 reads per call; now 0.2-0.75 writes (the client's doorbell: it
	 * sleeps for its send's ACK) and 1 read (our doorbell). Over TCP no call of ours serves a
	 * doorbell: the service thread's byte is read once.
	 */
	if (gets > 0 && (tr == NULL || strcmp(tr, "unix") == 0)) {
		CHECK(get_writes <= gets); /* (a call consumes one message: one doorbell of the client's at most) */
		CHECK(get_reads <= gets * 11 / 10);
	}
	/* 2: a receive is posted, the CQ is not armed, the application looks elsewhere */
	touch(phase2);
	wait_file(sent);
	int n = ibv_poll_cq(id->recv_cq, 1, &wc);

	if (n != 1 || wc.status != IBV_WC_SUCCESS || in != 0x5eed)
		fprintf(stderr, "phase 2: %d completions, status %d, message %#x\n", n, n == 1 ? (int)wc.status : -1, in);
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS && in == 0x5eed);
	/* 3: a receive is posted, the CQ armed, and the application looks elsewhere */
	struct ibv_cq *ev_cq;
	void *ev_ctx;

	CHECK(rdma_post_recv(id, NULL, &in, sizeof(in), mr) == 0);
	CHECK(ibv_req_notify_cq(id->recv_cq, 0) == 0);
	touch(phase3);
	wait_file(sent3);
	n = ibv_poll_cq(id->recv_cq, 1, &wc);
	if (n != 1 || wc.status != IBV_WC_SUCCESS || in != 0x5eef)
		fprintf(stderr, "phase 3: %d completions, status %d, message %#x\n", n, n == 1 ? (int)wc.status : -1, in);
	CHECK(n == 1 && wc.status == IBV_WC_SUCCESS && in == 0x5eef);
	CHECK(ibv_get_cq_event(id->recv_cq_channel, &ev_cq, &ev_ctx) == 0 && ev_cq == id->recv_cq); /* (armed) */
	ibv_ack_cq_events(ev_cq, 1);
	CHECK(rdma_disconnect(id) == 0);
	CHECK(rdma_dereg_mr(mr) == 0);
	rdma_destroy_ep(id);
	rdma_destroy_ep(listen_id);
	rdma_freeaddrinfo(res);
	return 0;
}

static int client(void)
{
	struct rdma_addrinfo *res = addr(false);
	struct ibv_qp_init_attr a = caps();
	struct rdma_cm_id *id;
	uint32_t in = 0, out = 0;
	struct ibv_mr *mr;
	struct ibv_wc wc;

	CHECK(rdma_create_ep(&id, res, NULL, &a) == 0);
	CHECK((mr = rdma_reg_msgs(id, &in, sizeof(in))) != NULL);
	CHECK(rdma_connect(id, NULL) == 0);
	for (uint32_t i = 0; i < ROUNDS; i++) {
		CHECK(rdma_post_recv(id, NULL, &in, sizeof(in), mr) == 0);
		send_u32(id, &out, 2 * i);
		wait_recv(id, false, &wc);
		CHECK(in == 2 * i + 1);
	}
	wait_file(phase2);
	send_u32(id, &out, 0x5eed); /* completes only once the server's NIC took it */
	touch(sent);
	wait_file(phase3);
	send_u32_bounded(id, &out, 0x5eef);
	touch(sent3);
	CHECK(rdma_dereg_mr(mr) == 0);
	rdma_disconnect(id);
	rdma_destroy_ep(id);
	rdma_freeaddrinfo(res);
	return 0;
}

int main(int argc, char **argv)
{
	int status = 1;
	pid_t pid;

	port = argc > 1 ? argv[1] : "13910";
	snprintf(ready, sizeof(ready), "ibv_channel_ready.%s", port);
	snprintf(phase2, sizeof(phase2), "ibv_channel_phase2.%s", port);
	snprintf(sent, sizeof(sent), "ibv_channel_sent.%s", port);
	snprintf(phase3, sizeof(phase3), "ibv_channel_phase3.%s", port);
	snprintf(sent3, sizeof(sent3), "ibv_channel_sent3.%s", port);
	unlink(ready);
	unlink(phase2);
	unlink(sent);
	unlink(phase3);
	unlink(sent3);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		return server();
	server_pid = pid;
	alarm(120);
	wait_file(ready); /* the server listens */
	if (client() != 0)
		return 1;
	CHECK(waitpid(pid, &status, 0) == pid);
	unlink(ready);
	unlink(phase2);
	unlink(sent);
	unlink(phase3);
	unlink(sent3);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
