/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The STA data path on the soft card's EUs (dp.h): one job per running IO context waits on
 * the context's verbs completion channel, the interrupts of the back-end CQs it owns and the
 * io_urings it executes their commands on (beq.c), and moves each command capsule along: offloaded NVMe Read / Write / Flush to a back-end
 * queue and back (RDMA READ of write data, RDMA WRITE of read data, the response by SEND),
 * anything else to the application's non-offload callback.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "dp.h"
#include "softhw/base/sdk_log.h"
#include "softhw/nvme/nvme_ops.h"

SDK_LOG_REGISTER(STA_DP);

/* wr_id: QP id (32 bits) | slot index << 2 | kind */
enum { WR_RECV = 0, WR_READ = 1, WR_SEND = 2 };

static uint64_t wr_id(const struct sta_slot *s, int kind)
{
	return (uint64_t)s->qp->id << 32 | (uint64_t)s->index << 2 | (uint64_t)kind;
}

static void eu_count_n(struct doca_sta_io *io, int type, int ctr, uint64_t n)
{
	struct doca_sta *sta = io->sta;
	uint32_t i = io->index * STA_EU_TYPES + (uint32_t)type;

	if (i < sta->num_eus)
		sta->eus[i].ctr[ctr] += n;
}

static void eu_count(struct doca_sta_io *io, int type, int ctr)
{
	eu_count_n(io, type, ctr, 1);
}

/* The EU error event (non-fatal: the EU goes on) naming the IO context's EU of that type. */
static void eu_error(struct doca_sta_io *io, enum dpa_sta_eu_type type)
{
	struct doca_sta *sta = io->sta;
	uint32_t i = io->index * STA_EU_TYPES + (uint32_t)type - 1;

	sta_eu_error(sta, i < sta->num_eus ? &sta->eus[i] : NULL, false);
}

/* ---- buffers and verbs posts (dp lock held) ---- */

uint8_t *sta_dp_slot_data(struct sta_slot *s)
{
	struct doca_sta_io *io = s->qp->io;
	uint32_t max = io->sta->caps->sta_max_io_size;

	if (s->data == NULL) {
		uint8_t *data = aligned_alloc(4096, max);
		uint8_t *prp = data != NULL ? aligned_alloc(4096, 4096) : NULL;
		struct ibv_mr *mr = prp != NULL ? ibv_reg_mr(io->dp->pd, data, max, IBV_ACCESS_LOCAL_WRITE) : NULL;

		if (mr == NULL) { /* all three or none: a later command on the slot must not find half */
			free(prp);
			free(data);
			return NULL;
		}
		s->data = data;
		s->prp_list = prp;
		s->data_mr = mr;
	}
	return s->data;
}

void sta_dp_post_recv(struct doca_sta_qp_handle *qp, struct sta_slot *s)
{
	struct ibv_sge sge = {(uint64_t)(uintptr_t)s->capsule, qp->capsule_size, qp->capsule_mr->lkey};
	struct ibv_recv_wr wr = {.wr_id = wr_id(s, WR_RECV), .sg_list = &sge, .num_sge = 1}, *bad;

	s->state = SLOT_RECV;
	if (!qp->dead && ibv_post_recv(qp->cm_id->qp, &wr, &bad) != 0) {
		SDK_LOG_ERR("STA QP %u: cannot post a capsule receive (errno %d); the QP stops taking commands", qp->id,
			    errno);
		qp->dead = true;
	}
}

/* The response (16 bytes, inline) by SEND, after an RDMA WRITE of the read data when asked. */
int sta_dp_send_rsp(struct sta_slot *s, const uint8_t *cqe, bool write_data)
{
	struct doca_sta_qp_handle *qp = s->qp;
	struct ibv_sge dsge = {(uint64_t)(uintptr_t)s->data, s->len, s->data_mr != NULL ? s->data_mr->lkey : 0};
	struct ibv_sge rsge = {(uint64_t)(uintptr_t)s->rsp, STA_CQE, 0};
	struct ibv_send_wr send = {.wr_id = wr_id(s, WR_SEND), .sg_list = &rsge, .num_sge = 1, .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE};
	struct ibv_send_wr write = {.wr_id = wr_id(s, WR_READ), .sg_list = &dsge, .num_sge = 1,
				    .opcode = IBV_WR_RDMA_WRITE, .next = &send}, *bad;

	memcpy(s->rsp, cqe, STA_CQE);
	/* the SQ head is the offload's to know: it counts the capsules taken off this queue */
	s->rsp[8] = (uint8_t)qp->sqhd;
	s->rsp[9] = (uint8_t)(qp->sqhd >> 8);
	/* the host asked for its key to be invalidated (keyed SGL subtype 0xF): SEND with invalidate */
	if (s->keyed && s->inv) {
		send.opcode = IBV_WR_SEND_WITH_INV;
		send.invalidate_rkey = s->rkey;
	}
	write.wr.rdma.remote_addr = s->raddr;
	write.wr.rdma.rkey = s->rkey;
	s->state = SLOT_RESPOND;
	if (qp->dead || ibv_post_send(qp->cm_id->qp, write_data ? &write : &send, &bad) != 0) {
		if (!qp->dead)
			SDK_LOG_ERR("STA QP %u: cannot post the response of command %u (errno %d)", qp->id,
				    sta_le16(s->capsule + 2), errno);
		qp->dead = true;
		return -1;
	}
	if (write_data)
		eu_count(qp->io, DOCA_STA_EU_TX - 1, STA_EU_CTR_RDMA_WRITES);
	eu_count(qp->io, DOCA_STA_EU_TX - 1, STA_EU_CTR_TX_RESPONSES);
	return 0;
}

int sta_dp_rdma_read(struct sta_slot *s)
{
	struct doca_sta_qp_handle *qp = s->qp;
	struct ibv_sge sge = {(uint64_t)(uintptr_t)s->data, s->len, s->data_mr->lkey};
	struct ibv_send_wr wr = {.wr_id = wr_id(s, WR_READ), .sg_list = &sge, .num_sge = 1,
				 .opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED}, *bad;

	wr.wr.rdma.remote_addr = s->raddr;
	wr.wr.rdma.rkey = s->rkey;
	if (qp->dead || ibv_post_send(qp->cm_id->qp, &wr, &bad) != 0) {
		qp->dead = true;
		return -1;
	}
	eu_count(qp->io, DOCA_STA_EU_COMP - 1, STA_EU_CTR_RDMA_READS);
	return 0;
}

void sta_dp_app_response(struct sta_slot *s, const uint8_t *cqe)
{
	struct doca_sta_qp_handle *qp = s->qp;
	const uint8_t *c = s->capsule;

	/* status word: P bit 0, SC 8:1, SCT 11:9 */
	if (c[0] == STA_OPC_FABRICS && c[4] == 0x01 && !qp->connected && ((sta_le16(cqe + 14) >> 1) & 0x7ff) == 0) {
		qp->qid = sta_le16(c + 42);
		qp->connected = true;
	}
}

/* The slot's command is over: its receive goes back (or the QP goes, once it is idle). */
void sta_dp_slot_done(struct sta_slot *s)
{
	struct doca_sta_qp_handle *qp = s->qp;

	s->task = NULL;
	s->beq = NULL;
	if (s->ns != NULL) /* a namespace being removed waits for this */
		sta_ns_put(s->ns);
	s->ns = NULL;
	if (qp->busy > 0)
		qp->busy--;
	s->state = SLOT_RECV;
	if (qp->destroyed) {
		if (qp->busy == 0)
			sta_qp_free(qp);
		return;
	}
	sta_dp_post_recv(qp, s);
}

/*
 * The CQE-notify event of a refused capsule or a failed back-end command, with the response it
 * gets (status: SC | SCT << 8). Raised before the response goes: the slot is still the command's.
 */
static void notify(struct sta_slot *s, enum doca_sta_cqe_notify_type type, uint16_t pel, uint16_t status)
{
	struct doca_sta_event_cqe_notify ev = {.type = type, .subs = s->qp->subs, .qp = s->qp, .opcode = s->capsule[0],
					       .cid = sta_le16(s->capsule + 2), .nsid = (uint16_t)sta_le32(s->capsule + 4),
					       .pel = pel, .lba = sta_le64(s->capsule + 40)};
	uint16_t st = (uint16_t)(status << 1);

	ev.cqe[8] = (uint8_t)s->qp->sqhd;
	ev.cqe[9] = (uint8_t)(s->qp->sqhd >> 8);
	ev.cqe[10] = (uint8_t)s->qp->qid;
	ev.cqe[11] = (uint8_t)(s->qp->qid >> 8);
	ev.cqe[12] = s->capsule[2];
	ev.cqe[13] = s->capsule[3];
	ev.cqe[14] = (uint8_t)st;
	ev.cqe[15] = (uint8_t)(st >> 8);
	sta_cqe_notify(s->qp->io->sta, &ev);
}

/* A response made by the offload: status is SC | SCT << 8 (plus DNR). */
static void respond(struct sta_slot *s, uint16_t status, bool write_data)
{
	uint8_t cqe[STA_CQE] = {0};
	uint16_t st = (uint16_t)(status << 1);

	cqe[10] = (uint8_t)s->qp->qid;
	cqe[11] = (uint8_t)(s->qp->qid >> 8);
	cqe[12] = s->capsule[2];
	cqe[13] = s->capsule[3];
	cqe[14] = (uint8_t)st;
	cqe[15] = (uint8_t)(st >> 8);
	if (sta_dp_send_rsp(s, cqe, write_data) != 0)
		sta_dp_slot_done(s);
}

/* A capsule the offload refuses; pel: the byte of the SQE at fault (Parameter Error Location). */
static void fail_at(struct sta_slot *s, uint16_t status, uint16_t pel)
{
	if (s->ns != NULL)
		__atomic_fetch_add(&s->ns->ctr[STA_NS_CTR_ERRORS], 1, __ATOMIC_RELAXED);
	notify(s, DOCA_STA_CQE_NOTIF_NVME_OF_VALIDATION_ERR, pel, status | STA_DNR);
	respond(s, status | STA_DNR, false);
}

static void fail(struct sta_slot *s, uint16_t status)
{
	fail_at(s, status, 0xffff);
}

static void submit_nvme(struct sta_slot *s)
{
	struct doca_sta_io *io = s->qp->io;
	struct sta_beq *b = sta_beq_of(io, s->ns->be);

	s->state = SLOT_NVME;
	if (b == NULL) { /* the BEQ EU cannot drive a queue of that back-end (logged) */
		eu_error(io, DOCA_STA_EU_BEQ);
		fail(s, STA_SC_INTERNAL);
		return;
	}
	if (b->wait_head != NULL || !sta_beq_push(b, s)) {
		/* no room on the SQ: in order behind the others, retried as completions free slots */
		sta_beq_wait(b, s);
		return;
	}
	b->ring_pending = true; /* the doorbell goes once for the whole batch (drain_cq) */
	eu_count(io, DOCA_STA_EU_BEQ - 1, STA_EU_CTR_NVME_SUBMITTED);
}

static void nvme_done(struct sta_slot *s, uint16_t status)
{
	struct doca_sta_qp_handle *qp = s->qp;
	uint8_t opc = s->capsule[0];

	eu_count(qp->io, DOCA_STA_EU_BEQ - 1, STA_EU_CTR_NVME_COMPLETED);
	if (qp->dead || qp->destroyed) { /* the host is gone: clean up, nothing to tell */
		sta_dp_slot_done(s);
		return;
	}
	if (status != 0) {
		if (s->ns != NULL)
			__atomic_fetch_add(&s->ns->ctr[STA_NS_CTR_ERRORS], 1, __ATOMIC_RELAXED);
		notify(s, DOCA_STA_CQE_NOTIF_NVME_COMP_ERR, 0xffff, status);
		respond(s, status, false);
		return;
	}
	respond(s, 0, opc == STA_OPC_READ && s->len > 0);
}

static void drain_cq(struct doca_sta_io *io);

/*
 * The disk's completions, a few at a time with the NIC's between them: a disk that completes
 * its whole queue at once gets the commands that follow sooner (each answer leaves at once,
 * the host's next capsule goes to the disk before the rest of the batch is answered). io NULL:
 * the disk's only. Our own io_uring's completions become CQEs first (sta_beq_progress).
 */
#define BEQ_CHUNK 8
static void beq_drain(struct doca_sta_io *io, struct sta_beq *b)
{
	struct sta_slot *done[BEQ_CHUNK];
	uint16_t status[BEQ_CHUNK];
	int n;

	do {
		sta_beq_progress(b);
		if (b->eu_reaped > 0) {
			eu_count_n(b->owner, DOCA_STA_EU_BEQ - 1, STA_EU_CTR_NVME_EU_REAPED, b->eu_reaped);
			b->eu_reaped = 0;
		}
		n = sta_beq_reap(b, done, status, BEQ_CHUNK);
		for (int i = 0; i < n; i++)
			nvme_done(done[i], status[i]);
		sta_beq_push_waiting(b); /* commands that waited for room */
		if (n == BEQ_CHUNK && io != NULL)
			drain_cq(io);
	} while (n == BEQ_CHUNK);
}

/* ---- capsules ---- */

/* In-capsule data at off, len bytes, lies within what the capsule brought (off is the host's: no wrap). */
static bool icd_fits(const struct sta_slot *s, uint64_t off, uint32_t len)
{
	return off <= s->capsule_len - STA_SQE && len <= s->capsule_len - STA_SQE - off;
}

/* The capsule's SGL: keyed (RDMA), in-capsule data, or none. False: an answer was sent. */
static bool parse_sgl(struct sta_slot *s, uint32_t want, bool write)
{
	const uint8_t *c = s->capsule;
	uint8_t type = c[39] >> 4, sub = c[39] & 0xf;
	uint32_t max = s->qp->io->sta->caps->sta_max_io_size;

	s->keyed = false;
	s->inv = false;
	s->buf = s->data;
	if (type == 4 && (sub == 0 || sub == 0xf)) {
		uint32_t len = (uint32_t)c[32] | (uint32_t)c[33] << 8 | (uint32_t)c[34] << 16;

		s->inv = sub == 0xf; /* the response invalidates the key, whatever it says */
		if (len > max) {
			SDK_LOG_ERR("STA QP %u: command %u: keyed SGL of %u bytes is longer than the maximum I/O size of %u "
				    "bytes (MDTS)",
				    s->qp->id, sta_le16(c + 2), len, max);
			fail_at(s, STA_SC_SGL_LENGTH_INVALID, 32);
			return false;
		}
		if (len < want) {
			SDK_LOG_ERR("STA QP %u: command %u: keyed SGL of %u bytes is shorter than the %u bytes of the "
				    "command",
				    s->qp->id, sta_le16(c + 2), len, want);
			fail(s, STA_SC_SGL_LENGTH_INVALID);
			return false;
		}
		s->keyed = true;
		s->raddr = sta_le64(c + 24);
		s->rkey = sta_le32(c + 35);
		s->len = want != UINT32_MAX ? want : len;
		return true;
	}
	if (type == 0 && sub == 1 && write) {
		uint64_t off = sta_le64(c + 24);
		uint32_t len = sta_le32(c + 32);

		if (!icd_fits(s, off, len) || len < want || len > max) {
			SDK_LOG_ERR("STA QP %u: command %u: in-capsule data at offset %llu, %u bytes, does not fit the "
				    "%u bytes received or the command's %u bytes",
				    s->qp->id, sta_le16(c + 2), (unsigned long long)off, len, s->capsule_len - STA_SQE,
				    want);
			fail(s, STA_SC_SGL_LENGTH_INVALID);
			return false;
		}
		s->len = want != UINT32_MAX ? want : len;
		/* page-aligned in the receive buffer (qp.c lays capsules out so): the disk takes it there */
		if (((uintptr_t)(c + STA_SQE + off) & 4095) == 0)
			s->buf = s->capsule + STA_SQE + off;
		else
			memcpy(s->data, c + STA_SQE + off, s->len);
		return true;
	}
	SDK_LOG_ERR("STA QP %u: command %u: SGL type 0x%x subtype 0x%x is not one the offload takes (keyed data "
		    "block, or in-capsule data for writes)",
		    s->qp->id, sta_le16(c + 2), type, sub);
	fail_at(s, STA_SC_SGL_TYPE_INVALID, 39);
	return false;
}

static void to_app(struct sta_slot *s)
{
	struct doca_sta_io *io = s->qp->io;
	struct sta_nonoff *n = malloc(sizeof(*n));
	const uint8_t *c = s->capsule;
	uint8_t type = c[39] >> 4, sub = c[39] & 0xf;

	s->state = SLOT_APP;
	s->seq++; /* a task made for an earlier command of this slot no longer answers */
	s->len = 0;
	s->keyed = false;
	if (type == 4 && (sub == 0 || sub == 0xf)) {
		s->len = (uint32_t)c[32] | (uint32_t)c[33] << 8 | (uint32_t)c[34] << 16;
		s->keyed = true;
		s->inv = sub == 0xf;
		s->raddr = sta_le64(c + 24);
		s->rkey = sta_le32(c + 35);
	} else if (type == 0 && sub == 1) {
		uint64_t off = sta_le64(c + 24);
		uint32_t len = sta_le32(c + 32);

		if (icd_fits(s, off, len)) {
			s->len = len;
			memcpy(s->data, c + STA_SQE + off, len);
		}
	}
	if (s->len > io->sta->caps->sta_max_io_size)
		s->len = io->sta->caps->sta_max_io_size;
	/*
	 * A keyed SGL: the application's write-send answer sends all s->len bytes to the host,
	 * whatever it filled. The buffer is reused (and recycled heap when first made): what the
	 * application leaves is zeros, never an earlier command's or another host's data.
	 */
	if (s->keyed)
		memset(s->data, 0, s->len);
	if (n == NULL) {
		fail(s, STA_SC_INTERNAL);
		return;
	}
	n->slot = s;
	n->next = NULL;
	n->since_ms = sta_now_ms();
	n->warned = false;
	if (io->dp->nonoff_tail != NULL)
		io->dp->nonoff_tail->next = n;
	else
		io->dp->nonoff_head = n;
	io->dp->nonoff_tail = n;
	eu_count(io, DOCA_STA_EU_COMP - 1, STA_EU_CTR_NON_OFFLOAD);
	softdoca_pe_notify(io->ctx.pe);
}

static void capsule(struct sta_slot *s)
{
	struct doca_sta_qp_handle *qp = s->qp;
	const uint8_t *c = s->capsule;
	uint8_t opc = c[0];
	struct doca_sta_ns_handle *ns;

	qp->busy++;
	s->keyed = false; /* a response before the SGL is read (a Flush) names no key */
	s->inv = false;
	qp->sqhd = (uint16_t)((qp->sqhd + 1) % (qp->sq_size != 0 ? qp->sq_size : qp->depth));
	eu_count(qp->io, DOCA_STA_EU_COMP - 1, STA_EU_CTR_RX_CAPSULES);
	if (s->capsule_len < STA_SQE) {
		SDK_LOG_ERR("STA QP %u: a capsule of %u bytes, shorter than an SQE; dropped", qp->id, s->capsule_len);
		sta_dp_slot_done(s);
		return;
	}
	if (sta_dp_slot_data(s) == NULL) {
		SDK_LOG_ERR("STA QP %u: out of memory for a command's data buffer", qp->id);
		eu_error(qp->io, DOCA_STA_EU_COMP);
		fail(s, STA_SC_INTERNAL);
		return;
	}
	/*
	 * Connect: the application's to accept; the queue id counts only once it answered with
	 * success (sta_dp_app_response). A host it refused gets nothing offloaded, and a Connect on
	 * a connected queue changes nothing: Command Sequence Error.
	 */
	if (opc == STA_OPC_FABRICS && c[4] == 0x01) {
		if (qp->connected) {
			SDK_LOG_ERR("STA QP %u: command %u: Fabrics Connect on a queue already connected (queue %u); "
				    "Command Sequence Error",
				    qp->id, sta_le16(c + 2), qp->qid);
			fail(s, STA_SC_CMD_SEQ_ERROR);
			return;
		}
		to_app(s);
		return;
	}
	if (!qp->connected || qp->qid == 0 || qp->subs == NULL ||
	    (opc != STA_OPC_READ && opc != STA_OPC_WRITE && opc != STA_OPC_FLUSH)) {
		to_app(s);
		return;
	}
	uint32_t nsid = sta_le32(c + 4);

	ns = sta_ns_get(qp->subs, nsid); /* held until the command is over (sta_dp_slot_done) */
	if (ns == NULL) {
		if (opc == STA_OPC_FLUSH && nsid == 0xffffffffu) { /* every namespace: the application's */
			to_app(s);
			return;
		}
		SDK_LOG_ERR("STA QP %u: command %u (opcode 0x%02x) names namespace %u, which subsystem %s does not have",
			    qp->id, sta_le16(c + 2), opc, nsid, qp->subs->nqn);
		fail_at(s, STA_SC_INVALID_NS, 4);
		return;
	}
	s->ns = ns;
	if (opc == STA_OPC_FLUSH) {
		s->len = 0;
		submit_nvme(s);
		return;
	}
	uint64_t want = ((uint64_t)(sta_le32(c + 48) & 0xffff) + 1) * ns->block_size;

	if (want > qp->io->sta->caps->sta_max_io_size) {
		SDK_LOG_ERR("STA QP %u: command %u moves %llu bytes, more than the maximum I/O size of %u bytes (MDTS)",
			    qp->id, sta_le16(c + 2), (unsigned long long)want, qp->io->sta->caps->sta_max_io_size);
		fail_at(s, STA_SC_INVALID_FIELD, 48);
		return;
	}
	if (!parse_sgl(s, (uint32_t)want, opc == STA_OPC_WRITE))
		return;
	/* a namespace's counters are shared by every IO context's EU */
	__atomic_fetch_add(&ns->ctr[opc == STA_OPC_READ ? STA_NS_CTR_READS : STA_NS_CTR_WRITES], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ns->ctr[opc == STA_OPC_READ ? STA_NS_CTR_READ_BYTES : STA_NS_CTR_WRITE_BYTES], want,
			   __ATOMIC_RELAXED);
	if (opc == STA_OPC_WRITE && s->keyed) {
		s->state = SLOT_RDMA_READ;
		if (sta_dp_rdma_read(s) != 0)
			sta_dp_slot_done(s);
		return;
	}
	submit_nvme(s);
}

static struct doca_sta_qp_handle *qp_by_id(struct sta_io_dp *dp, uint32_t id)
{
	for (struct doca_sta_qp_handle *qp = dp->qps; qp != NULL; qp = qp->next)
		if (qp->id == id)
			return qp;
	return NULL;
}

static void task_finish(struct doca_sta_io *io, struct doca_sta_producer_task_send *t, doca_error_t status)
{
	t->status = status;
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	softdoca_pe_notify(io->ctx.pe);
}

/*
 * A work request of the QP failed (a bad rkey, the host gone): the RC QP is in error, as on
 * hardware. The host's side is told by a disconnect, the application by the transport-error
 * event (from doca_pe_progress); it then disconnects and destroys the QP.
 */
static void transport_error(struct doca_sta_qp_handle *qp, int kind, enum ibv_wc_status status)
{
	struct doca_sta_io *io = qp->io;
	struct sta_nonoff *n = calloc(1, sizeof(*n));

	SDK_LOG_ERR("STA QP %u: %s failed: %s; the QP is in error and is disconnected", qp->id,
		    kind == WR_RECV ? "a receive" : kind == WR_READ ? "an RDMA READ" : "a SEND", ibv_wc_status_str(status));
	if (qp->cm_id != NULL)
		rdma_disconnect(qp->cm_id);
	if (n == NULL)
		return;
	n->qp = qp;
	n->since_ms = sta_now_ms();
	n->err = (struct doca_sta_event_transport_err){
		.qp = qp, .operation = (uint32_t)kind, .syndrome = (uint32_t)status, .vendor_syndrome = 0};
	if (io->dp->nonoff_tail != NULL)
		io->dp->nonoff_tail->next = n;
	else
		io->dp->nonoff_head = n;
	io->dp->nonoff_tail = n;
	softdoca_pe_notify(io->ctx.pe);
}

static void completion(struct doca_sta_io *io, const struct ibv_wc *wc)
{
	struct doca_sta_qp_handle *qp = qp_by_id(io->dp, (uint32_t)(wc->wr_id >> 32));
	uint32_t idx = (uint32_t)(wc->wr_id & 0xffffffffu) >> 2;
	int kind = (int)(wc->wr_id & 3);
	struct sta_slot *s;

	if (qp == NULL || qp->destroyed || idx >= qp->nslots)
		return; /* a QP destroyed since: its slots were taken back then */
	s = &qp->slots[idx];
	if (wc->status != IBV_WC_SUCCESS) {
		if (!qp->dead && wc->status != IBV_WC_WR_FLUSH_ERR)
			transport_error(qp, kind, wc->status);
		qp->dead = true;
		/* one completion ends the slot's command: the pull of write data, the application's
		 * RDMA READ, or the response's SEND (a failed RDMA WRITE before it is not that one) */
		if (kind == WR_READ && s->state == SLOT_RDMA_READ) {
			sta_dp_slot_done(s);
		} else if (kind == WR_READ && s->state == SLOT_APP && s->task != NULL) {
			struct doca_sta_producer_task_send *t = s->task;

			s->task = NULL;
			task_finish(io, t, DOCA_ERROR_CONNECTION_ABORTED);
		} else if (kind == WR_SEND && s->state == SLOT_RESPOND) {
			if (s->task != NULL)
				task_finish(io, s->task, DOCA_ERROR_CONNECTION_ABORTED);
			sta_dp_slot_done(s);
		}
		return;
	}
	switch (kind) {
	case WR_RECV:
		s->capsule_len = wc->byte_len;
		capsule(s);
		break;
	case WR_READ:
		if (s->task != NULL) { /* the application's RDMA READ: its payload is there */
			struct doca_sta_producer_task_send *t = s->task;

			s->task = NULL;
			task_finish(io, t, DOCA_SUCCESS);
		} else if (s->state == SLOT_RDMA_READ) { /* the offload's pull of write data */
			submit_nvme(s);
		}
		/* else the application's READ whose task ended at the disconnect: nothing to do */
		break;
	default: /* the response went */
		if (s->task != NULL)
			task_finish(io, s->task, DOCA_SUCCESS);
		sta_dp_slot_done(s);
		break;
	}
}

/* ---- the EU job ---- */

/*
 * Back-end queues with commands and no completion for the STA context's time-out: the
 * back-end time-out event, once per silent spell. Returns ms until the next check is due
 * (or max_ms).
 */
static long beq_watch(struct sta_io_dp *dp, long max_ms)
{
	struct doca_sta *sta = dp->io->sta;
	uint64_t now = sta_now_ms();

	for (uint32_t i = 0; i < dp->num_beqs; i++) {
		struct sta_beq *b = dp->beqs[i];
		uint64_t quiet = now - b->busy_since_ms;

		if (b->inflight == 0 || b->timed_out)
			continue;
		if (quiet >= sta->be_timeout_ms) {
			b->timed_out = true;
			b->h->ctr[STA_BEQ_CTR_TIMEOUTS]++;
			SDK_LOG_ERR("STA IO context %u: back-end queue (CQ %u) has %u commands and no completion for %llu "
				    "ms: back-end time-out",
				    dp->io->index, b->cqid, b->inflight, (unsigned long long)quiet);
			sta_be_timeout(sta, b->h);
		} else if ((long)(sta->be_timeout_ms - quiet) < max_ms) {
			max_ms = (long)(sta->be_timeout_ms - quiet);
		}
	}
	return max_ms;
}

/*
 * The oldest capsule for the non-offload callback, waiting longer than the STA context's
 * watchdog: logged once, naming the call that delivers it (the host's Connect or Identify times
 * out meanwhile). Returns ms until the check is due (or max_ms). dp->lock held.
 */
static long nonoff_watch(struct sta_io_dp *dp, long max_ms)
{
	struct sta_nonoff *n = dp->nonoff_head;
	uint32_t warn_ms = dp->io->sta->nonoff_warn_ms;
	uint64_t age;

	if (n == NULL || n->warned)
		return max_ms;
	age = sta_now_ms() - n->since_ms;
	if (age < warn_ms)
		return (long)(warn_ms - age) < max_ms ? (long)(warn_ms - age) : max_ms;
	n->warned = true;
	if (n->slot != NULL)
		SDK_LOG_WARN("STA IO context %u: a capsule for the non-offload callback (opcode 0x%02x on QP %u) has "
			     "waited %llu ms: the callback runs only inside doca_pe_progress() of the PE this IO "
			     "context is connected to; progress it, or the host's command (Fabrics Connect, "
			     "Identify ...) times out",
			     dp->io->index, n->slot->capsule[0], n->slot->qp->id, (unsigned long long)age);
	else
		SDK_LOG_WARN("STA IO context %u: a transport-error event has waited %llu ms: it is delivered only "
			     "inside doca_pe_progress() of the PE this IO context is connected to",
			     dp->io->index, (unsigned long long)age);
	return max_ms;
}

static void drain_cq(struct doca_sta_io *io)
{
	struct ibv_wc wc[32];
	int n;

	while (io->dp->cq != NULL && (n = ibv_poll_cq(io->dp->cq, 32, wc)) > 0) {
		for (int i = 0; i < n; i++)
			completion(io, &wc[i]);
		for (uint32_t i = 0; i < io->dp->num_beqs; i++)
			if (io->dp->beqs[i]->ring_pending) {
				io->dp->beqs[i]->ring_pending = false;
				sta_beq_ring(io->dp->beqs[i]);
			}
	}
}

/*
 * Armed only on the way to sleep: responses sent with the CQ armed are taken for a sleeper's,
 * and the NIC rings the host for them (ring_post). (A CQ stays armed until a CQE fires: after a
 * wake-up by the disk alone the responses still go so.)
 */
static void eu_arm(struct sta_io_dp *dp)
{
	if (dp->cq != NULL) {
		dp->cq_armed = ibv_req_notify_cq(dp->cq, 0) == 0;
		drain_cq(dp->io); /* what came between the drain and the arm */
	}
}

static void eu_run(struct softhw_dpa_job *job, unsigned int rank)
{
	struct sta_io_dp *dp = (struct sta_io_dp *)((char *)job - offsetof(struct sta_io_dp, job));
	struct doca_sta_io *io = dp->io;
	/* the stop fd, the channel, and per back-end queue its interrupt and our io_uring */
	enum { FD_EVENT, FD_IRQ, FD_RING } kind[2 + 2 * 64];
	struct pollfd fds[2 + 2 * 64];
	struct timespec t0;

	(void)rank;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		nfds_t n = 0;
		struct timespec now;
		long left_ms;

		/* one slice at most: the job ends and eu_done submits it again, so it never runs
		 * long enough for the DPA's kernel run-time watchdog (whatever the load) */
		clock_gettime(CLOCK_MONOTONIC, &now);
		left_ms = (long)io->sta->eu_slice_ms - ((now.tv_sec - t0.tv_sec) * 1000L + (now.tv_nsec - t0.tv_nsec) / 1000000L);
		pthread_mutex_lock(&dp->lock);
		if (dp->stop || left_ms <= 0 || __atomic_load_n(&dp->overran, __ATOMIC_ACQUIRE)) {
			pthread_mutex_unlock(&dp->lock);
			return;
		}
		/*
		 * Never asleep with the CQ unarmed: nothing would wake us for the host's capsules (an
		 * event we took disarmed it; a slice may end before the arm below).
		 */
		if (dp->cq != NULL && !dp->cq_armed)
			eu_arm(dp);
		left_ms = beq_watch(dp, left_ms);
		left_ms = nonoff_watch(dp, left_ms);
		kind[n] = FD_EVENT;
		fds[n++] = (struct pollfd){.fd = dp->stop_fd, .events = POLLIN};
		if (dp->chan != NULL) {
			kind[n] = FD_EVENT;
			fds[n++] = (struct pollfd){.fd = dp->chan->fd, .events = POLLIN};
		}
		for (uint32_t i = 0; i < dp->num_beqs; i++) {
			/* the interrupt stays for completions the controller thread posts (a hold
			 * released, room in a full CQ) on a queue our ring executes too */
			if (dp->beqs[i]->irq_fd >= 0) {
				kind[n] = FD_IRQ;
				fds[n++] = (struct pollfd){.fd = dp->beqs[i]->irq_fd, .events = POLLIN};
			}
			/* readable while our ring holds completions (their task work wakes us too) */
			if (dp->beqs[i]->own != NULL) {
				kind[n] = FD_RING;
				fds[n++] = (struct pollfd){.fd = dp->beqs[i]->ring_fd, .events = POLLIN};
			}
			/* the disk interrupts only a sleeping EU; a completion already there: no sleep */
			if (sta_beq_arm(dp->beqs[i]))
				left_ms = 0;
		}
		pthread_mutex_unlock(&dp->lock);
		if (poll(fds, n, (int)left_ms) < 0 && errno != EINTR)
			SDK_LOG_ERR("STA EU: poll: %s", strerror(errno));
		pthread_mutex_lock(&dp->lock);
		for (uint32_t i = 0; i < dp->num_beqs; i++)
			__atomic_store_n(dp->beqs[i]->irq_gate, SOFTHW_NVME_IRQ_MASKED, __ATOMIC_RELAXED);
		for (nfds_t i = 0; i < n; i++) {
			uint64_t v;

			if (!(fds[i].revents & POLLIN) || kind[i] == FD_RING) /* (a ring is reaped by beq_drain) */
				continue;
			if (dp->chan != NULL && fds[i].fd == dp->chan->fd) {
				struct ibv_cq *cq;
				void *ctx;

				if (ibv_get_cq_event(dp->chan, &cq, &ctx) == 0) { /* (non-blocking: qp.c) */
					ibv_ack_cq_events(cq, 1);
					dp->cq_armed = false; /* an event disarms it */
				}
			} else if (read(fds[i].fd, &v, sizeof(v)) < 0) {
				/* an eventfd another reader emptied first: nothing to do */
			} else if (kind[i] == FD_IRQ) {
				eu_count(io, DOCA_STA_EU_BEQ - 1, STA_EU_CTR_NVME_IRQS);
			}
		}
		if (dp->cq != NULL)
			drain_cq(io);
		for (uint32_t i = 0; i < dp->num_beqs; i++)
			beq_drain(io, dp->beqs[i]);
		eu_arm(dp);
		pthread_mutex_unlock(&dp->lock);
	}
}

static void eu_done(struct softhw_dpa_job *job, doca_error_t status)
{
	struct sta_io_dp *dp = (struct sta_io_dp *)((char *)job - offsetof(struct sta_io_dp, job));

	struct doca_sta *sta = dp->io->sta;
	bool again;

	pthread_mutex_lock(&dp->lock);
	again = !dp->stop && status == DOCA_SUCCESS; /* AGAIN: the DPA is closing */
	pthread_mutex_unlock(&dp->lock);
	if (again) {
		sta->dev->dpa->submit(sta->dpa, &dp->job); /* the next slice */
		return;
	}
	if (status != DOCA_SUCCESS && status != DOCA_ERROR_AGAIN) {
		SDK_LOG_ERR("STA IO context %u: its EU job ended with %s; its QPs are not served any more",
			    dp->io->index, doca_error_get_name(status));
		sta_eu_error(sta, NULL, true); /* fatal: the job is gone */
	}
	sta->dev->dpa->flag_raise(sta->dpa, &dp->done_flag);
}

/*
 * The DPA's kernel watchdog: the job ran past the kernel max run time (its EU's CPU time within
 * one slice). As on a BlueField the kernel is stopped: the job ends at once, with TIME_OUT,
 * and eu_done reports the fatal EU error. Watchdog thread: no lock.
 */
static void eu_overrun(struct softhw_dpa_job *job)
{
	struct sta_io_dp *dp = (struct sta_io_dp *)((char *)job - offsetof(struct sta_io_dp, job));

	__atomic_store_n(&dp->overran, true, __ATOMIC_RELEASE);
	sta_dp_kick(dp);
}

void sta_dp_kick(struct sta_io_dp *dp)
{
	sta_wake(dp->stop_fd);
}

doca_error_t sta_dp_io_start(struct doca_sta_io *io)
{
	struct doca_sta *sta = io->sta;
	struct sta_io_dp *dp;

	if (sta->dpa == NULL) {
		SDK_LOG_ERR("Failed to start STA IO context: the STA context has no DPA to run its data path on (see the "
			    "log of its start)");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	dp = calloc(1, sizeof(*dp));
	if (dp == NULL)
		return DOCA_ERROR_NO_MEMORY;
	dp->io = io;
	pthread_mutex_init(&dp->lock, NULL);
	dp->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (dp->stop_fd < 0) {
		SDK_LOG_ERR("Failed to start STA IO context: eventfd: %s", strerror(errno));
		free(dp);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	/*
	 * Batch: the host's capsule wakes the EU, and a woken EU that preempted a busy-polling host
	 * on its vCPU answered that one capsule and slept again, two context switches per I/O
	 * whenever the two shared a vCPU. Now the host posts on until it yields, and the EU takes
	 * the whole batch.
	 */
	dp->job = (struct softhw_dpa_job){.run = eu_run, .done = eu_done, .overrun = eu_overrun, .name = "sta_io",
					  .num_ranks = 1, .batch = true};
	io->dp = dp;
	sta->dev->dpa->submit(sta->dpa, &dp->job);
	return DOCA_SUCCESS;
}

/* Waits (bounded) for the back-end commands in flight: their buffers are the disk's until then. */
static void drain_backends(struct doca_sta_io *io)
{
	struct sta_io_dp *dp = io->dp;

	for (int round = 0; round < 300; round++) {
		struct pollfd fds[2 * 64];
		bool ring[2 * 64];
		nfds_t n = 0;
		uint32_t inflight = 0;
		int wait_ms = 100;

		for (uint32_t i = 0; i < dp->num_beqs; i++) {
			struct sta_beq *b = dp->beqs[i];

			beq_drain(NULL, b); /* stopping: the NIC's CQ is not looked at */
			inflight += b->inflight;
			if (b->inflight == 0)
				continue;
			if (b->irq_fd >= 0) {
				ring[n] = false;
				fds[n++] = (struct pollfd){.fd = b->irq_fd, .events = POLLIN};
			}
			if (b->own != NULL) { /* our ring's completions, reaped here now */
				ring[n] = true;
				fds[n++] = (struct pollfd){.fd = b->ring_fd, .events = POLLIN};
			}
			if (sta_beq_arm(b))
				wait_ms = 0;
		}
		if (inflight == 0)
			return;
		pthread_mutex_unlock(&dp->lock);
		if (poll(fds, n, wait_ms) > 0)
			for (nfds_t i = 0; i < n; i++) {
				uint64_t v;

				if ((fds[i].revents & POLLIN) && !ring[i] && read(fds[i].fd, &v, sizeof(v)) < 0) {
					/* emptied by another reader: nothing to do */
				}
			}
		pthread_mutex_lock(&dp->lock);
	}
	SDK_LOG_ERR("STA IO context %u: back-end commands still in flight after 30 s at stop; their buffers are "
		    "leaked",
		    io->index);
}

void sta_dp_io_stop(struct doca_sta_io *io)
{
	struct sta_io_dp *dp = io->dp;
	struct doca_sta *sta = io->sta;

	if (dp == NULL)
		return;
	pthread_mutex_lock(&dp->lock);
	dp->stop = true;
	pthread_mutex_unlock(&dp->lock);
	sta_wake(dp->stop_fd);
	sta->dev->dpa->flag_wait(sta->dpa, &dp->done_flag);
	pthread_mutex_lock(&dp->lock);
	if (dp->qps != NULL)
		SDK_LOG_WARN("STA IO context %u stops with %u QPs; they are destroyed (call doca_sta_io_qp_destroy() "
			     "first)",
			     io->index, dp->num_qps);
	while (dp->qps != NULL) {
		struct doca_sta_qp_handle *qp = dp->qps;

		sta_qp_destroy_locked(qp);
		if (dp->qps == qp) { /* commands on the disk: wait for them, then it goes */
			drain_backends(io);
			if (dp->qps == qp)
				sta_qp_free(qp);
		}
	}
	drain_backends(io);
	for (uint32_t i = 0; i < dp->num_beqs; i++)
		sta_beq_release(dp->beqs[i]);
	while (dp->nonoff_head != NULL) {
		struct sta_nonoff *n = dp->nonoff_head;

		dp->nonoff_head = n->next;
		free(n);
	}
	if (dp->cq != NULL)
		ibv_destroy_cq(dp->cq);
	if (dp->chan != NULL)
		ibv_destroy_comp_channel(dp->chan);
	if (dp->pd != NULL)
		ibv_dealloc_pd(dp->pd);
	pthread_mutex_unlock(&dp->lock);
	/* statistics readers find the data path under the STA's io_lock */
	pthread_mutex_lock(&sta->io_lock);
	io->dp = NULL;
	pthread_mutex_unlock(&sta->io_lock);
	close(dp->stop_fd);
	pthread_mutex_destroy(&dp->lock);
	free(dp);
}
