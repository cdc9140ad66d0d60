/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A verbs owner that armed its CQ and then keeps polling it (two real processes, fork). Its
 * same-host ring doorbell rings for something that makes no completion: the peer's SEND that
 * waits for a receive we never post (RNR, retried for ever), and its nudges. (An owner that
 * polls without arming goes quiet instead, and the service thread then checks every 2 ms that
 * it still polls, by design: ring.c QUIET_MS.) The service thread watches that doorbell
 * once while the owner is armed and looks again 2 ms later (lib/softhw/rnic/ring.c, OWNER_MS);
 * finding the owner still there, it must take the doorbell itself, or it fires again at once
 * and the thread wakes every 2 ms for as long as the owner polls (97-766 a second, seen). The
 * other threads' voluntary context switches in a second of polling stay under 100.
 * argv: port. Every wait is bounded (alarm()).
 */
#include <dirent.h>
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

static const char *port;
static char ready[64], go[64], go2[64], done[64];

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
					 .sq_sig_all = 0, .qp_type = IBV_QPT_RC};
}
static void touch(const char *p)
{
	FILE *f = fopen(p, "w");

	CHECK(f != NULL);
	fclose(f);
}

static void wait_file(const char *p)
{
	while (access(p, F_OK) != 0) /* bounded by alarm() */
		usleep(1000);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}


/* The voluntary context switches of every thread but the main one (the soft NIC's service thread). */
static long others_switches(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	long sum = 0;

	CHECK(d != NULL);
	while ((e = readdir(d)) != NULL) {
		char path[512], buf[4096];
		FILE *f;
		if (e->d_name[0] == '.' || atoi(e->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(buf, sizeof(buf), f))
			if (strncmp(buf, "voluntary_ctxt_switches:", 24) == 0)
				sum += atol(buf + 24);
		fclose(f);
	}
	closedir(d);
	return sum;
}

static long busy_poll(struct rdma_cm_id *id, double secs)
{
	struct ibv_wc wc;
	long s0 = others_switches();
	double end = now() + secs;

	while (now() < end) {
		CHECK(ibv_poll_cq(id->send_cq, 1, &wc) == 0);
		CHECK(ibv_poll_cq(id->recv_cq, 1, &wc) == 0);
	}
	return others_switches() - s0;
}

static int server(void)
{
	struct rdma_addrinfo *res = addr(true);
	struct ibv_qp_init_attr a = caps();
	struct rdma_cm_id *listen_id, *id;
	long base, after;

	alarm(60);
	CHECK(rdma_create_ep(&listen_id, res, NULL, &a) == 0);
	CHECK(rdma_listen(listen_id, 0) == 0);
	touch(ready);
	CHECK(rdma_get_request(listen_id, &id) == 0);
	struct rdma_conn_param cp = {.rnr_retry_count = 7, .retry_count = 7};
	CHECK(rdma_accept(id, &cp) == 0);
	wait_file(go); /* the client posted its receive */
	CHECK(ibv_req_notify_cq(id->recv_cq, 0) == 0); /* armed: owner_waits; no receive posted */
	base = busy_poll(id, 1.0);
	touch(go2); /* the client sends: its message waits for our receive */
	(void)busy_poll(id, 0.1);
	after = busy_poll(id, 1.0);
	printf("server: the other threads' wake-ups in 1 s of polling: before the send %ld, after it %ld\n", base, after);
	touch(done);
	rdma_disconnect(id);
	rdma_destroy_ep(id);
	rdma_destroy_ep(listen_id);
	rdma_freeaddrinfo(res);
	return after > 100 ? 1 : 0;
}

static int client(void)
{
	struct rdma_addrinfo *res = addr(false);
	struct ibv_qp_init_attr a = caps();
	struct rdma_cm_id *id;
	uint32_t in = 0, out = 9;
	struct ibv_mr *mr;

	CHECK(rdma_create_ep(&id, res, NULL, &a) == 0);
	CHECK((mr = rdma_reg_msgs(id, &in, sizeof(in))) != NULL);
	CHECK(rdma_post_recv(id, NULL, &in, sizeof(in), mr) == 0);
	struct rdma_conn_param cp = {.rnr_retry_count = 7, .retry_count = 7};
	CHECK(rdma_connect(id, &cp) == 0);
	touch(go);
	wait_file(go2);
	CHECK(rdma_post_send(id, NULL, &out, sizeof(out), NULL, IBV_SEND_INLINE | IBV_SEND_SIGNALED) == 0);
	CHECK(ibv_req_notify_cq(id->send_cq, 0) == 0); /* asleep (elsewhere): rings the server */
	wait_file(done);
	rdma_dereg_mr(mr);
	rdma_disconnect(id);
	rdma_destroy_ep(id);
	rdma_freeaddrinfo(res);
	return 0;
}

int main(int argc, char **argv)
{
	int status = 1;
	pid_t pid;

	port = argc > 1 ? argv[1] : "13993";
	snprintf(ready, sizeof(ready), "armed_poll_ready.%s", port);
	snprintf(go, sizeof(go), "armed_poll_go.%s", port);
	snprintf(done, sizeof(done), "armed_poll_done.%s", port);
	snprintf(go2, sizeof(go2), "armed_poll_go2.%s", port);
	unlink(go2);
	unlink(ready);
	unlink(go);
	unlink(done);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		return server();
	alarm(60);
	wait_file(ready);
	if (client() != 0)
		return 1;
	CHECK(waitpid(pid, &status, 0) == pid);
	unlink(ready);
	unlink(go);
	unlink(go2);
	unlink(done);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
