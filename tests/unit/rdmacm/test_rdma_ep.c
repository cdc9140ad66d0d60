/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca's librdmacm + libibverbs with QPs, two real processes (fork):
 *  ep:    the call sequence of rdma-core's examples/rdma_server.c / rdma_client.c (our own code):
 *         rdma_create_ep, rdma_listen, rdma_get_request, rdma_reg_msgs, rdma_post_recv,
 *         rdma_accept / rdma_connect, rdma_post_send (16 bytes, inline), rdma_get_recv_comp,
 *         rdma_get_send_comp, rdma_disconnect, rdma_destroy_ep; 16 bytes each way.
 *  verbs: plain verbs on QPs librdmacm connected: the server sends its buffer's address and
 *         rkey; the client RDMA WRITEs into it, READs it back, and the server checks it.
 *  srq:   two connections whose server QPs share one SRQ: each message lands in a receive of
 *         the SRQ and completes on the CQ of the QP it came on.
 * argv: port [ep|verbs|srq [swap]]. Every wait is bounded by alarm().
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#include "check_exit.h"

static const char *port;
static char ready[64], done[64]; /* the server creates it once it listens */
static char sent[64];             /* srq: the client's message on connection 0 was taken */

/* The other process made the file (bounded by alarm()). */
static bool wait_file(const char *path)
{
	while (access(path, F_OK) != 0)
		usleep(1000);
	return true;
}

static struct rdma_addrinfo *addr(bool passive)
{
	struct rdma_addrinfo hints = {.ai_port_space = RDMA_PS_TCP, .ai_flags = passive ? RAI_PASSIVE : 0}, *res;

	/* RDMACM_TEST_ADDR: the server's address when it is not the loopback one (a rocev2 card's) */
	const char *to = getenv("RDMACM_TEST_ADDR") != NULL ? getenv("RDMACM_TEST_ADDR") : "127.0.0.1";

	CHECK(rdma_getaddrinfo(passive ? "0.0.0.0" : to, port, &hints, &res) == 0);
	return res;
}

static struct ibv_qp_init_attr caps(void *ctx)
{
	return (struct ibv_qp_init_attr){.cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1,
						 .max_inline_data = 16},
					 .qp_context = ctx, .sq_sig_all = 1, .qp_type = IBV_QPT_RC};
}

struct remote {
	uint64_t addr;
	uint32_t rkey;
};

static int server(bool verbs_mode)
{
	struct rdma_addrinfo *res = addr(true);
	struct ibv_qp_init_attr a = caps(NULL);
	struct rdma_cm_id *listen_id, *id;
	uint8_t recv_msg[16], send_msg[16];
	static uint8_t target[4096] __attribute__((aligned(64)));
	struct ibv_mr *rmr, *smr, *tmr = NULL;
	struct ibv_wc wc;

	alarm(60);
	CHECK(rdma_create_ep(&listen_id, res, NULL, &a) == 0);
	CHECK(rdma_listen(listen_id, 0) == 0);
	/* another id's event on the listener's channel, ahead of the request: as librdmacm,
	 * rdma_get_request fails with EINVAL and leaves it on listen_id->event */
	struct rdma_cm_id *other = NULL;
	struct sockaddr_in lo = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};

	CHECK(rdma_create_id(listen_id->channel, &other, NULL, RDMA_PS_TCP) == 0);
	CHECK(rdma_resolve_addr(other, NULL, (struct sockaddr *)&lo, 2000) == 0);
	/* the parent connects once this file exists: no sleep as synchronisation */
	FILE *f = fopen(ready, "w");
	CHECK(f != NULL);
	fclose(f);
	CHECK(rdma_get_request(listen_id, &id) == -1 && errno == EINVAL);
	CHECK(listen_id->event != NULL && listen_id->event->id == other &&
	      listen_id->event->event == RDMA_CM_EVENT_ADDR_RESOLVED);
	/* the next call acks it and takes the request, which stays on id->event with its data */
	CHECK(rdma_get_request(listen_id, &id) == 0);
	CHECK(listen_id->event == NULL && id->event != NULL && id->event->event == RDMA_CM_EVENT_CONNECT_REQUEST &&
	      id->event->listen_id == listen_id && id->event->param.conn.private_data_len >= 6 &&
	      memcmp(id->event->param.conn.private_data, "client", 6) == 0);
	CHECK(rdma_destroy_id(other) == 0);
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;
	CHECK(ibv_query_qp(id->qp, &qa, IBV_QP_CAP, &qi) == 0);
	CHECK(qi.cap.max_inline_data >= 16);
	CHECK((rmr = rdma_reg_msgs(id, recv_msg, 16)) != NULL);
	CHECK((smr = rdma_reg_msgs(id, send_msg, 16)) != NULL);
	if (verbs_mode) {
		memset(target, 0, sizeof(target));
		CHECK((tmr = ibv_reg_mr(id->pd, target, sizeof(target),
					IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
					IBV_ACCESS_REMOTE_ATOMIC)) != NULL);
	}
	CHECK(rdma_post_recv(id, NULL, recv_msg, 16, rmr) == 0);
	struct rdma_conn_param cp = {.private_data = "server", .private_data_len = 6,
				     .responder_resources = RDMA_MAX_RESP_RES, .initiator_depth = RDMA_MAX_INIT_DEPTH};

	CHECK(rdma_accept(id, &cp) == 0);
	CHECK(id->event != NULL && id->event->event == RDMA_CM_EVENT_ESTABLISHED); /* the request is acked */
	CHECK(rdma_get_recv_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.byte_len == 16);
	for (int i = 0; i < 16; i++)
		CHECK(recv_msg[i] == (uint8_t)(0xa0 + i));
	if (verbs_mode) {
		struct remote r = {(uint64_t)(uintptr_t)target, tmr->rkey};

		memcpy(send_msg, &r, sizeof(r));
	} else {
		for (int i = 0; i < 16; i++)
			send_msg[i] = (uint8_t)(0x50 + i);
	}
	if (verbs_mode) { /* by SEND with invalidate: the client's completion names the target's rkey */
		struct ibv_sge ss = {(uint64_t)(uintptr_t)send_msg, 16, 0};
		struct ibv_send_wr sw = {.wr_id = 9, .sg_list = &ss, .num_sge = 1, .opcode = IBV_WR_SEND_WITH_INV,
					 .send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED}, *bad;

		sw.invalidate_rkey = tmr->rkey;
		CHECK(ibv_post_send(id->qp, &sw, &bad) == 0);
	} else {
		CHECK(rdma_post_send(id, NULL, send_msg, 16, NULL, IBV_SEND_INLINE) == 0);
	}
	CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS);
	if (verbs_mode) { /* the client is done with its WRITE and READ */
		CHECK(wait_file(done));
		uint64_t last;

		for (int i = 0; i < 4088; i++)
			CHECK(target[i] == (uint8_t)(i * 7));
		memcpy(&last, target + 4088, 8);
		CHECK(last == 0x1122334455667788ull); /* the client's fetch-add, then compare-and-swap */
		CHECK(ibv_dereg_mr(tmr) == 0);
	}
	CHECK(rdma_disconnect(id) == 0);
	CHECK(id->event != NULL && id->event->event == RDMA_CM_EVENT_DISCONNECTED);
	CHECK(rdma_dereg_mr(rmr) == 0 && rdma_dereg_mr(smr) == 0);
	rdma_destroy_ep(id);
	rdma_destroy_ep(listen_id);
	rdma_freeaddrinfo(res);
	return 0;
}

static int client(bool verbs_mode)
{
	struct rdma_addrinfo *res = addr(false);
	struct ibv_qp_init_attr a = caps(NULL);
	uint8_t recv_msg[16], send_msg[16];
	static uint8_t src[4096], back[4096];
	struct ibv_mr *rmr, *smr, *bmr = NULL;
	struct rdma_cm_id *id;
	struct ibv_wc wc;

	alarm(60);
	CHECK(rdma_create_ep(&id, res, NULL, &a) == 0);
	CHECK(a.cap.max_inline_data >= 16);
	CHECK((rmr = rdma_reg_msgs(id, recv_msg, 16)) != NULL);
	CHECK((smr = rdma_reg_msgs(id, send_msg, 16)) != NULL);
	if (verbs_mode)
		CHECK((bmr = ibv_reg_mr(id->pd, src, sizeof(src), IBV_ACCESS_LOCAL_WRITE)) != NULL);
	CHECK(rdma_post_recv(id, NULL, recv_msg, 16, rmr) == 0);
	struct rdma_conn_param cp = {.private_data = "client", .private_data_len = 6,
				     .responder_resources = RDMA_MAX_RESP_RES, .initiator_depth = RDMA_MAX_INIT_DEPTH};

	CHECK(id->event != NULL && id->event->event == RDMA_CM_EVENT_ROUTE_RESOLVED); /* rdma_create_ep's */
	CHECK(rdma_connect(id, &cp) == 0);
	/* as librdmacm: the ESTABLISHED event stays on id->event, with the server's private data */
	CHECK(id->event != NULL && id->event->event == RDMA_CM_EVENT_ESTABLISHED &&
	      id->event->param.conn.private_data_len >= 6 &&
	      memcmp(id->event->param.conn.private_data, "server", 6) == 0);
	for (int i = 0; i < 16; i++)
		send_msg[i] = (uint8_t)(0xa0 + i);
	CHECK(rdma_post_send(id, NULL, send_msg, 16, NULL, IBV_SEND_INLINE) == 0);
	CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS);
	CHECK(rdma_get_recv_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.byte_len == 16);
	if (verbs_mode) {
		struct remote r;
		struct ibv_mr *bk;

		memcpy(&r, recv_msg, sizeof(r));
		CHECK((wc.wc_flags & IBV_WC_WITH_INV) && wc.invalidated_rkey == r.rkey);
		for (int i = 0; i < 4096; i++)
			src[i] = (uint8_t)(i * 7);
		CHECK((bk = ibv_reg_mr(id->pd, back, sizeof(back), IBV_ACCESS_LOCAL_WRITE)) != NULL);
		struct ibv_sge ws = {(uint64_t)(uintptr_t)src, 4096, bmr->lkey};
		struct ibv_send_wr w = {.wr_id = 1, .sg_list = &ws, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
					.send_flags = IBV_SEND_SIGNALED}, *bad;

		w.wr.rdma.remote_addr = r.addr;
		w.wr.rdma.rkey = r.rkey;
		CHECK(ibv_post_send(id->qp, &w, &bad) == 0);
		CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RDMA_WRITE &&
		      wc.wr_id == 1);
		struct ibv_sge rs = {(uint64_t)(uintptr_t)back, 4096, bk->lkey};

		w.wr_id = 2;
		w.sg_list = &rs;
		w.opcode = IBV_WR_RDMA_READ;
		CHECK(ibv_post_send(id->qp, &w, &bad) == 0);
		CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_RDMA_READ &&
		      wc.byte_len == 4096);
		CHECK(memcmp(src, back, 4096) == 0);
		/* atomics on the last 8 bytes: fetch-add 5, then compare-and-swap from the sum */
		uint64_t v0, *old = (uint64_t *)(void *)back;
		struct ibv_sge as = {(uint64_t)(uintptr_t)back, 8, bk->lkey};
		struct ibv_send_wr aw = {.wr_id = 4, .sg_list = &as, .num_sge = 1, .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
					 .send_flags = IBV_SEND_SIGNALED};

		memcpy(&v0, src + 4088, 8);
		aw.wr.atomic.remote_addr = r.addr + 4088;
		aw.wr.atomic.rkey = r.rkey;
		aw.wr.atomic.compare_add = 5;
		CHECK(ibv_post_send(id->qp, &aw, &bad) == 0);
		CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_FETCH_ADD);
		CHECK(*old == v0);
		aw.wr_id = 5;
		aw.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		aw.wr.atomic.compare_add = v0 + 5;
		aw.wr.atomic.swap = 0x1122334455667788ull;
		CHECK(ibv_post_send(id->qp, &aw, &bad) == 0);
		CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_COMP_SWAP);
		CHECK(*old == v0 + 5);
		/* an rkey the peer never announced: a remote access error, not memory */
		w.wr_id = 3;
		w.wr.rdma.rkey = r.rkey + 1000;
		CHECK(ibv_post_send(id->qp, &w, &bad) == 0);
		CHECK(rdma_get_send_comp(id, &wc) == 1 && wc.status == IBV_WC_REM_ACCESS_ERR && wc.wr_id == 3);
		printf("client: RDMA WRITE, READ of 4096 bytes and atomics ok, unknown rkey -> %s\n", ibv_wc_status_str(wc.status));
		/* the QP is in error now (as on hardware): tell the server out of band to check its buffer */
		FILE *f = fopen(done, "w");
		CHECK(f != NULL);
		fclose(f);
		CHECK(ibv_dereg_mr(bk) == 0 && ibv_dereg_mr(bmr) == 0);
	} else {
		for (int i = 0; i < 16; i++)
			CHECK(recv_msg[i] == (uint8_t)(0x50 + i));
		printf("client: 16 bytes each way ok\n");
	}
	CHECK(rdma_disconnect(id) == 0);
	CHECK(id->event != NULL && id->event->event == RDMA_CM_EVENT_DISCONNECTED);
	CHECK(rdma_dereg_mr(rmr) == 0 && rdma_dereg_mr(smr) == 0);
	rdma_destroy_ep(id);
	rdma_freeaddrinfo(res);
	return 0;
}

/* Two connections into one SRQ. */
static int srq_server(void)
{
	struct rdma_addrinfo *res = addr(true);
	struct ibv_qp_init_attr a = caps(NULL);
	struct ibv_context **devs = rdma_get_devices(NULL);
	struct ibv_srq_init_attr sa = {.attr = {.max_wr = 8, .max_sge = 1}};
	struct rdma_cm_id *listen_id, *ids[2];
	static uint8_t bufs[4][16];
	struct ibv_srq_attr qa;
	struct ibv_pd *pd;
	struct ibv_srq *srq;
	struct ibv_mr *mr;
	bool seen[4] = {false, false, false, false};
	struct ibv_wc wc;
	FILE *f;

	alarm(60);
	CHECK(devs != NULL && devs[0] != NULL && (pd = ibv_alloc_pd(devs[0])) != NULL);
	CHECK((srq = ibv_create_srq(pd, &sa)) != NULL);
	CHECK(ibv_query_srq(srq, &qa) == 0 && qa.max_wr == 8);
	CHECK((mr = ibv_reg_mr(pd, bufs, sizeof(bufs), IBV_ACCESS_LOCAL_WRITE)) != NULL);
	for (int k = 0; k < 4; k++) {
		struct ibv_sge sge = {(uint64_t)(uintptr_t)bufs[k], 16, mr->lkey};
		struct ibv_recv_wr wr = {.wr_id = (uint64_t)k, .sg_list = &sge, .num_sge = 1}, *bad;

		CHECK(ibv_post_srq_recv(srq, &wr, &bad) == 0);
	}
	a.srq = srq;
	CHECK(rdma_create_ep(&listen_id, res, pd, &a) == 0);
	CHECK(rdma_listen(listen_id, 0) == 0);
	f = fopen(ready, "w");
	CHECK(f != NULL);
	fclose(f);
	for (int k = 0; k < 2; k++) {
		CHECK(rdma_get_request(listen_id, &ids[k]) == 0);
		CHECK(ids[k]->qp != NULL && ids[k]->qp->srq == srq);
		CHECK(rdma_accept(ids[k], NULL) == 0);
	}
	CHECK(ibv_destroy_srq(srq) == EBUSY); /* QPs use it */
	for (int k = 0; k < 2; k++) {
		CHECK(rdma_get_recv_comp(ids[k], &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.byte_len == 16);
		CHECK(wc.qp_num == ids[k]->qp->qp_num && wc.wr_id < 4 && !seen[wc.wr_id]);
		seen[wc.wr_id] = true;
		CHECK(bufs[wc.wr_id][0] == (uint8_t)k); /* the client numbers its connections */
	}
	/*
	 * A QP destroyed with a receive completed but not polled: the completion goes with it (as
	 * mlx5 cleans its CQEs), and never shows on the other QP's CQ as that QP's.
	 */
	/* not polling, not armed: the soft NIC's thread completes the receive on the SRQ's endpoint */
	CHECK(wait_file(sent));
	rdma_destroy_qp(ids[0]);
	f = fopen(done, "w"); /* the client sends on the other connection now */
	CHECK(f != NULL);
	fclose(f);
	CHECK(rdma_get_recv_comp(ids[1], &wc) == 1 && wc.status == IBV_WC_SUCCESS && wc.qp_num == ids[1]->qp->qp_num);
	CHECK(wc.wr_id < 4 && !seen[wc.wr_id] && bufs[wc.wr_id][0] == 0x11);
	CHECK(ibv_poll_cq(ids[1]->recv_cq, 1, &wc) == 0);
	for (int k = 0; k < 2; k++) {
		CHECK(rdma_disconnect(ids[k]) == 0);
		rdma_destroy_ep(ids[k]);
	}
	rdma_destroy_ep(listen_id);
	CHECK(ibv_destroy_srq(srq) == 0);
	CHECK(ibv_dereg_mr(mr) == 0 && ibv_dealloc_pd(pd) == 0);
	rdma_free_devices(devs);
	rdma_freeaddrinfo(res);
	return 0;
}

static int srq_client(void)
{
	struct rdma_addrinfo *res = addr(false);
	struct rdma_cm_id *ids[2];
	uint8_t msg[2][16];

	alarm(60);
	for (int k = 0; k < 2; k++) {
		struct ibv_qp_init_attr a = caps(NULL);

		CHECK(rdma_create_ep(&ids[k], res, NULL, &a) == 0);
		CHECK(rdma_connect(ids[k], NULL) == 0);
	}
	for (int k = 0; k < 2; k++) {
		struct ibv_wc wc;

		memset(msg[k], k, 16);
		CHECK(rdma_post_send(ids[k], NULL, msg[k], 16, NULL, IBV_SEND_INLINE) == 0);
		CHECK(rdma_get_send_comp(ids[k], &wc) == 1 && wc.status == IBV_WC_SUCCESS);
	}
	/* the server destroys connection 0's QP before it polls, then waits for connection 1's */
	for (int k = 0; k < 2; k++) {
		struct ibv_wc wc;

		if (k == 1)
			CHECK(wait_file(done));
		memset(msg[k], 0x10 + k, 16);
		CHECK(rdma_post_send(ids[k], NULL, msg[k], 16, NULL, IBV_SEND_INLINE) == 0);
		CHECK(rdma_get_send_comp(ids[k], &wc) == 1 && wc.status == IBV_WC_SUCCESS);
		if (k == 0) {
			FILE *s = fopen(sent, "w");

			CHECK(s != NULL);
			fclose(s);
		}
	}
	for (int k = 0; k < 2; k++) {
		CHECK(rdma_disconnect(ids[k]) == 0);
		rdma_destroy_ep(ids[k]);
	}
	printf("client: two connections into one SRQ ok\n");
	rdma_freeaddrinfo(res);
	return 0;
}

int main(int argc, char **argv)
{
	bool verbs_mode = argc > 2 && strcmp(argv[2], "verbs") == 0;
	bool srq_mode = argc > 2 && strcmp(argv[2], "srq") == 0;
	int status = 1;
	pid_t pid;

	port = argc > 1 ? argv[1] : "13820";
	snprintf(ready, sizeof(ready), "rdma_ep_ready.%s", port);
	snprintf(done, sizeof(done), "rdma_ep_done.%s", port);
	snprintf(sent, sizeof(sent), "rdma_ep_sent.%s", port);
	unlink(done);
	unlink(sent);
	unlink(ready);
	/* "swap": the server is the parent (smaller pid), so the soft NIC dials the QPs' connection
	 * from the server's side, opposite to the RDMA-CM connection */
	bool swap = argc > 3 && strcmp(argv[3], "swap") == 0;

	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0 && !swap)
		return srq_mode ? srq_server() : server(verbs_mode);
	if (pid != 0 && swap) {
		if ((srq_mode ? srq_server() : server(verbs_mode)) != 0)
			return 1;
	} else {
		alarm(60);
		CHECK(wait_file(ready)); /* the server is up once it listens */
		if ((srq_mode ? srq_client() : client(verbs_mode)) != 0)
			return 1;
		if (swap)
			return 0;
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	unlink(ready);
	unlink(done);
	unlink(sent);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
