/* SPDX-License-Identifier: BSD-3-Clause */
/* An NVMe-oF RDMA host over librdmacm / libibverbs (nvmf_host.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#include "nvmf_host.h"

/* one slot: capsule (64 + ICD) | response (16) | data */
#define CAPSULE (NVMF_SQE + NVMF_ICD)
#define SLOT (CAPSULE + 64 + NVMF_DATA_MAX)

static uint8_t *slot(struct nvmf_queue *q, uint16_t cid)
{
	return q->mem + (size_t)cid * SLOT;
}

uint8_t *nvmf_capsule(struct nvmf_queue *q, uint16_t cid)
{
	return slot(q, cid);
}

static uint8_t *rsp(struct nvmf_queue *q, uint16_t cid)
{
	return slot(q, cid) + CAPSULE;
}

uint8_t *nvmf_data(struct nvmf_queue *q, uint16_t cid)
{
	return slot(q, cid) + CAPSULE + 64;
}

uint32_t nvmf_rkey(const struct nvmf_queue *q)
{
	return q->mr->rkey;
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static struct rdma_cm_event *cm_wait(struct nvmf_queue *q, enum rdma_cm_event_type want, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	struct rdma_cm_event *ev;

	for (;;) {
		struct pollfd p = {.fd = q->ch->fd, .events = POLLIN};
		long left = end - now_ms();

		/* the channel is non-blocking: a wake-up without an event is EAGAIN, not a hang */
		if (rdma_get_cm_event(q->ch, &ev) == 0)
			break;
		if (errno != EAGAIN || left <= 0 || poll(&p, 1, (int)left) < 0) {
			/* a test that fails here says which step of the connection never came */
			fprintf(stderr, "nvmf_host: no %s in %d ms (%s)\n", rdma_event_str(want), timeout_ms,
				errno == EAGAIN ? "timed out" : strerror(errno));
			return NULL;
		}
	}
	if (ev->event != want) {
		if (ev->event == RDMA_CM_EVENT_REJECTED)
			q->rejected = ev->status != 0 ? ev->status : -1;
		else
			fprintf(stderr, "nvmf_host: %s instead of %s (status %d)\n", rdma_event_str(ev->event),
				rdma_event_str(want), ev->status);
		rdma_ack_cm_event(ev);
		return NULL;
	}
	return ev;
}

static int post_recv(struct nvmf_queue *q, uint16_t i)
{
	struct ibv_sge sge = {(uint64_t)(uintptr_t)rsp(q, i), NVMF_CQE, q->mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = i, .sg_list = &sge, .num_sge = 1}, *bad;

	return ibv_post_recv(q->id->qp, &wr, &bad);
}

static void put_le16(uint8_t *p, uint16_t v)
{
	nvmf_put_le(p, v, 2);
}

static int transport_connect(struct nvmf_queue *q, const char *addr, const char *port, uint16_t qid, uint16_t depth)
{
	struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *res;
	struct rdma_cm_event *ev;
	struct ibv_qp_init_attr a = {.qp_type = IBV_QPT_RC, .sq_sig_all = 0,
				     .cap = {.max_send_wr = (uint32_t)depth * 2u, .max_recv_wr = depth, .max_send_sge = 1,
					     .max_recv_sge = 1, .max_inline_data = 64}};
	uint8_t priv[32] = {0};
	struct rdma_conn_param cp = {.private_data = priv, .private_data_len = 32, .responder_resources = 16,
				     .initiator_depth = 16, .retry_count = 7, .rnr_retry_count = 7};

	q->qid = qid;
	q->depth = depth;
	q->ch = rdma_create_event_channel();
	if (q->ch == NULL || fcntl(q->ch->fd, F_SETFL, fcntl(q->ch->fd, F_GETFL) | O_NONBLOCK) != 0 ||
	    rdma_create_id(q->ch, &q->id, q, RDMA_PS_TCP) != 0)
		return -1;
	if (getaddrinfo(addr, port, &hints, &res) != 0)
		return -1;
	int rc = rdma_resolve_addr(q->id, NULL, res->ai_addr, 5000);

	freeaddrinfo(res);
	if (rc != 0 || (ev = cm_wait(q, RDMA_CM_EVENT_ADDR_RESOLVED, 10000)) == NULL)
		return -1;
	rdma_ack_cm_event(ev);
	if (rdma_resolve_route(q->id, 5000) != 0 || (ev = cm_wait(q, RDMA_CM_EVENT_ROUTE_RESOLVED, 10000)) == NULL)
		return -1;
	rdma_ack_cm_event(ev);
	q->pd = ibv_alloc_pd(q->id->verbs);
	q->chan = q->pd != NULL ? ibv_create_comp_channel(q->id->verbs) : NULL;
	q->cq = q->chan != NULL ? ibv_create_cq(q->id->verbs, depth * 3 + 8, NULL, q->chan, 0) : NULL;
	if (q->cq == NULL)
		return -1;
	a.send_cq = a.recv_cq = q->cq;
	if (rdma_create_qp(q->id, q->pd, &a) != 0)
		return -1;
	/* every buffer is registered before the connection: the soft NIC hands the target our MRs then */
	size_t bytes = ((size_t)depth * SLOT + 4095) / 4096 * 4096; /* C11: a multiple of the alignment */

	q->mem = aligned_alloc(4096, bytes);
	if (q->mem == NULL)
		return -1;
	memset(q->mem, 0, bytes);
	q->mr = ibv_reg_mr(q->pd, q->mem, bytes,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	if (q->mr == NULL)
		return -1;
	for (uint16_t i = 0; i < depth; i++)
		if (post_recv(q, i) != 0)
			return -1;
	put_le16(priv + 2, qid);
	put_le16(priv + 4, depth);               /* HRQSIZE */
	put_le16(priv + 6, (uint16_t)(depth - 1)); /* HSQSIZE, 0's based */
	if (rdma_connect(q->id, &cp) != 0 || (ev = cm_wait(q, RDMA_CM_EVENT_ESTABLISHED, 10000)) == NULL)
		return -1;
	rdma_ack_cm_event(ev);
	return 0;
}

int nvmf_transport(struct nvmf_queue *q, const char *addr, const char *port, uint16_t qid, uint16_t depth)
{
	memset(q, 0, sizeof(*q));
	if (depth < 2 || depth > 1024 || transport_connect(q, addr, port, qid, depth) != 0)
		return -1;
	return 0;
}

uint32_t nvmf_connect_capsule(struct nvmf_queue *q, uint16_t cid, uint16_t sqsize, uint16_t cntlid,
			      const char *subnqn, const char *hostnqn)
{
	uint16_t qid = q->qid;
	uint8_t *s = nvmf_capsule(q, cid), *d;

	memset(s, 0, NVMF_SQE);
	s[0] = 0x7f; /* Fabrics */
	s[4] = 0x01; /* Connect */
	put_le16(s + 42, qid);
	put_le16(s + 44, sqsize);
	s[48] = 0xc0; /* KATO 120 s in ms, little endian: 120000 = 0x1d4c0 */
	s[49] = 0xd4;
	s[50] = 0x01;
	d = s + NVMF_SQE;
	memset(d, 0, 1024);
	for (int i = 0; i < 16; i++)
		d[i] = (uint8_t)(0x10 + i); /* host id */
	put_le16(d + 16, cntlid);
	snprintf((char *)d + 256, 256, "%s", subnqn);
	snprintf((char *)d + 512, 256, "%s", hostnqn);
	/* as Linux does: the admin queue's Connect data by keyed SGL (the target reads it), an I/O
	 * queue's in the capsule */
	if (qid == 0) {
		memcpy(nvmf_data(q, cid), d, 1024);
		nvmf_sgl_keyed(q, s, cid, 1024);
		return 0;
	}
	nvmf_sgl_icd(s, 1024);
	return 1024;
}

int nvmf_connect(struct nvmf_queue *q, const char *addr, const char *port, uint16_t qid, uint16_t depth,
		 uint16_t sqsize, uint16_t cntlid, const char *subnqn, const char *hostnqn, struct nvmf_cqe *cqe)
{
	struct nvmf_cqe c;
	uint32_t icd;
	int cid;

	if (nvmf_transport(q, addr, port, qid, depth) != 0)
		return -1;
	cid = nvmf_alloc_cid(q);
	icd = nvmf_connect_capsule(q, (uint16_t)cid, sqsize, cntlid, subnqn, hostnqn);
	if (nvmf_send(q, (uint16_t)cid, icd) != 0 || nvmf_wait(q, &c, 10000) != 1)
		return -1;
	if (cqe != NULL)
		*cqe = c;
	if ((c.status >> 1) != 0)
		return c.status;
	q->cntlid = (uint16_t)c.dw0;
	return 0;
}

void nvmf_disconnect(struct nvmf_queue *q)
{
	if (q->id != NULL) {
		rdma_disconnect(q->id);
		if (q->id->qp != NULL)
			rdma_destroy_qp(q->id);
	}
	if (q->mr != NULL)
		ibv_dereg_mr(q->mr);
	if (q->cq != NULL)
		ibv_destroy_cq(q->cq);
	if (q->chan != NULL)
		ibv_destroy_comp_channel(q->chan);
	if (q->pd != NULL)
		ibv_dealloc_pd(q->pd);
	if (q->id != NULL)
		rdma_destroy_id(q->id);
	if (q->ch != NULL)
		rdma_destroy_event_channel(q->ch);
	free(q->mem);
	memset(q, 0, sizeof(*q));
}

int nvmf_alloc_cid(struct nvmf_queue *q)
{
	for (uint16_t i = 0; i < q->depth; i++) {
		if (!q->in_use[i]) {
			q->in_use[i] = true;
			q->inflight++;
			return i;
		}
	}
	return -1;
}

int nvmf_send(struct nvmf_queue *q, uint16_t cid, uint32_t icd_len)
{
	uint8_t *s = nvmf_capsule(q, cid);
	struct ibv_sge sge = {(uint64_t)(uintptr_t)s, NVMF_SQE + icd_len, q->mr->lkey};
	struct ibv_send_wr wr = {.wr_id = cid, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND}, *bad;

	put_le16(s + 2, cid);
	return ibv_post_send(q->id->qp, &wr, &bad) == 0 ? 0 : -1;
}

/* A response arrived in receive wc: copy it out, give the receive back, free its CID. */
static int take_rsp(struct nvmf_queue *q, const struct ibv_wc *wc, struct nvmf_cqe *cqe)
{
	uint16_t i = (uint16_t)wc->wr_id;

	memcpy(cqe, rsp(q, i), sizeof(*cqe));
	q->inv = (wc->wc_flags & IBV_WC_WITH_INV) != 0;
	q->inv_rkey = q->inv ? wc->invalidated_rkey : 0;
	if (post_recv(q, i) != 0)
		return -1;
	q->sqhd = cqe->sqhd;
	if (cqe->cid < q->depth && q->in_use[cqe->cid]) {
		q->in_use[cqe->cid] = false;
		q->inflight--;
	}
	return 1;
}

/* The next completion of the batch, polling a new batch when it is used up: 1, 0 none, -1 error. */
static int next_wc(struct nvmf_queue *q, struct ibv_wc **wc)
{
	if (q->wc_i == q->wc_n) {
		int n = ibv_poll_cq(q->cq, (int)(sizeof(q->wc) / sizeof(q->wc[0])), q->wc);

		if (n <= 0)
			return n < 0 ? -1 : 0;
		q->wc_n = n;
		q->wc_i = 0;
	}
	*wc = &q->wc[q->wc_i++];
	return 1;
}

/* Takes the CM channel's event, if one waits: false when it ended the connection. */
static bool cm_alive(struct nvmf_queue *q)
{
	struct pollfd p = {.fd = q->ch->fd, .events = POLLIN};
	struct rdma_cm_event *ev;

	if (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN) || rdma_get_cm_event(q->ch, &ev) != 0)
		return true;
	if (ev->event == RDMA_CM_EVENT_DISCONNECTED) /* the target ended it: nothing more will come */
		q->disconnected = true;
	rdma_ack_cm_event(ev);
	return !q->disconnected;
}

int nvmf_wait(struct nvmf_queue *q, struct nvmf_cqe *cqe, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	struct ibv_wc *wc;
	bool armed = false;
	unsigned int spins = 0;

	for (;;) {
		int n = next_wc(q, &wc);

		if (n < 0)
			return -1;
		if (n == 1) {
			if (wc->status != IBV_WC_SUCCESS)
				return -1;
			if (wc->opcode == IBV_WC_RECV)
				return take_rsp(q, wc, cqe);
			continue;
		}
		/*
		 * Busy polling: the clock and the CM channel now and then. Each empty look yields, so a
		 * thread woken on this CPU (the target's, the kernel's direct-I/O completions) runs at
		 * once instead of after the poller's time slice.
		 */
		if (q->busy_poll) {
			sched_yield();
			if ((++spins & 1023) != 0)
				continue;
			if (!cm_alive(q))
				return -1;
			if (now_ms() >= end)
				return 0;
			continue;
		}
		/* nothing yet: arm, look once more (what came before the arm), then sleep on the channel */
		if (!armed) {
			if (ibv_req_notify_cq(q->cq, 0) != 0)
				return -1;
			armed = true;
			continue;
		}
		armed = false;
		long left = end - now_ms();
		struct pollfd p[2] = {{.fd = q->chan->fd, .events = POLLIN}, {.fd = q->ch->fd, .events = POLLIN}};

		if (left <= 0)
			return 0;
		if (poll(p, 2, (int)left) > 0) {
			struct ibv_cq *cq;
			void *ctx;

			if ((p[0].revents & POLLIN) && ibv_get_cq_event(q->chan, &cq, &ctx) == 0)
				ibv_ack_cq_events(cq, 1);
			if ((p[1].revents & POLLIN) && !cm_alive(q))
				return -1;
		}
	}
}

void nvmf_sgl_keyed(struct nvmf_queue *q, uint8_t *sqe, uint16_t cid, uint32_t len)
{
	uint64_t a = (uint64_t)(uintptr_t)nvmf_data(q, cid);
	uint32_t key = nvmf_rkey(q);

	memcpy(sqe + 24, &a, 8);
	sqe[32] = (uint8_t)len;
	sqe[33] = (uint8_t)(len >> 8);
	sqe[34] = (uint8_t)(len >> 16);
	memcpy(sqe + 35, &key, 4);
	sqe[39] = 0x40; /* keyed data block, address */
	sqe[1] = 0x40;  /* PSDT: SGL */
}

void nvmf_sgl_invalidate(uint8_t *sqe)
{
	sqe[39] = 0x4f; /* keyed data block, invalidate key */
}

void nvmf_sgl_icd(uint8_t *sqe, uint32_t len)
{
	memset(sqe + 24, 0, 16); /* offset 0 */
	memcpy(sqe + 32, &len, 4);
	sqe[39] = 0x01; /* data block, offset (in-capsule) */
	sqe[1] = 0x40;
}

void nvmf_rw(uint8_t *sqe, uint8_t opc, uint32_t nsid, uint64_t slba, uint32_t nblocks)
{
	uint32_t lo = (uint32_t)slba, hi = (uint32_t)(slba >> 32), nlb = nblocks - 1;

	memset(sqe, 0, NVMF_SQE);
	sqe[0] = opc;
	memcpy(sqe + 4, &nsid, 4);
	memcpy(sqe + 40, &lo, 4);
	memcpy(sqe + 44, &hi, 4);
	memcpy(sqe + 48, &nlb, 4);
}

int nvmf_cmd(struct nvmf_queue *q, const uint8_t *sqe, uint32_t len, const void *wdata, void *rdata,
	     struct nvmf_cqe *cqe, int timeout_ms)
{
	int cid = nvmf_alloc_cid(q);

	if (cid < 0)
		return -1;
	memcpy(nvmf_capsule(q, (uint16_t)cid), sqe, NVMF_SQE);
	if (len > 0)
		nvmf_sgl_keyed(q, nvmf_capsule(q, (uint16_t)cid), (uint16_t)cid, len);
	if (wdata != NULL)
		memcpy(nvmf_data(q, (uint16_t)cid), wdata, len);
	if (nvmf_send(q, (uint16_t)cid, 0) != 0 || nvmf_wait(q, cqe, timeout_ms) != 1)
		return -1;
	if (rdata != NULL)
		memcpy(rdata, nvmf_data(q, (uint16_t)cid), len);
	return 0;
}
