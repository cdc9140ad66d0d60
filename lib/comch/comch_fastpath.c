/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch fast path: consumers and producers on an established connection.
 *
 * A consumer owns a shared-memory ring (softhw channel, created at start and passed to the
 * peer with CONSUMER_NEW over the connection's socket); the peer's connection context maps
 * it, answers CONSUMER_ACK (the consumer becomes RUNNING) and reports the new consumer id to
 * its user. A producer send writes the buf's bytes (and the immediate data) into one slot of
 * that ring and completes once the consumer took the message, i.e. wrote it into a buffer it
 * posted; a post_recv task completes when it received a message. Producers, consumers and
 * their connection's server or client are used from one thread (each may have its own PE),
 * as in DOCA's samples.
 */
#include <string.h>

#include "comch_priv.h"
#include "common/priv/buf_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH_FASTPATH);

enum { FP_TASK = 0 };

static doca_error_t unsupported(const char *call, const char *what)
{
	SDK_LOG_ERR("%s: %s is not supported by softdoca (docs/compatibility.md)", call, what);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/*
 * The connection's thread adds consumers at the head; producers of other PEs look them up. The
 * newest with the id: a consumer stopped and started again is announced again with its id, and
 * its expired record stays behind it (a producer may still read its ring).
 */
static struct comch_remote_consumer *rc_find(struct doca_comch_connection *conn, uint32_t id)
{
	for (struct comch_remote_consumer *rc = __atomic_load_n(&conn->remote_consumers, __ATOMIC_ACQUIRE); rc != NULL;
	     rc = rc->next)
		if (rc->id == id)
			return rc;
	return NULL;
}

static bool rc_gone(const struct comch_remote_consumer *rc)
{
	return __atomic_load_n(&rc->gone, __ATOMIC_ACQUIRE);
}

/*
 * A consumer of the peer leaves (or the peer died): remember what it consumed. Its ring is
 * unmapped only when the connection is released: producers run on their own PEs, maybe other
 * threads, and may be reading it right now.
 */
static void rc_expire(struct doca_comch_connection *conn, struct comch_remote_consumer *rc)
{
	(void)conn;
	if (rc->gone)
		return;
	rc->final_head = softhw_chan_mapped(&rc->ch) ? __atomic_load_n(&rc->ch.tx.ctl->head, __ATOMIC_ACQUIRE) : 0;
	rc->final_posted = softhw_chan_mapped(&rc->ch) ? softhw_chan_posted(&rc->ch) : 0;
	__atomic_store_n(&rc->gone, true, __ATOMIC_RELEASE);
	rc->report_expired = true;
}

static bool conn_up(const struct doca_comch_connection *conn)
{
	return conn->state == COMCH_CONN_UP;
}

void comch_fp_conn_release(struct doca_comch_connection *conn)
{
	for (struct comch_remote_consumer *rc = conn->remote_consumers, *next; rc != NULL; rc = next) {
		next = rc->next;
		conn->ep->hw->chan_close(&rc->ch);
		free(rc);
	}
	conn->remote_consumers = NULL;
}

/* The last fast-path object of a connection the server already reported gone frees it. */
static void conn_unref(struct doca_comch_connection *conn)
{
	if (--conn->fp_refs > 0 || !conn->orphan)
		return;
	conn->ep->fp_orphans--;
	comch_fp_conn_release(conn);
	free(conn);
}

/* ---- control messages (called by the connection's server / client context) ---- */

static void send_consumer_msg(struct doca_comch_connection *conn, enum comch_wire_type type, uint32_t id,
			      uint32_t imm_len, const struct softhw_chan_geom *geom, const int *fds, int nfds)
{
	struct comch_wire_consumer m = {0};

	comch_wire_init(&m.hdr, type);
	m.consumer_id = id;
	m.imm_data_len = imm_len;
	if (geom != NULL)
		m.geom = *geom;
	if (comch_conn_send_ctrl(conn, &m, sizeof(m), fds, nfds) == DOCA_SUCCESS)
		__atomic_fetch_add(&conn->fp_ctrl_sent, 1, __ATOMIC_RELEASE); /* after: it is on the link */
}

/*
 * Remote consumers a connection keeps at most, expired ones included (their rings stay mapped
 * until the connection ends): what a peer announces beyond it is refused, so that it cannot
 * make us map and hold descriptors without bound.
 */
#define COMCH_FP_REMOTE_MAX(ep) (4u * (ep)->caps->comch_max_consumers)

static unsigned rc_count(const struct doca_comch_connection *conn)
{
	unsigned n = 0;

	for (const struct comch_remote_consumer *rc = conn->remote_consumers; rc != NULL; rc = rc->next)
		n++;
	return n;
}

/* A consumer's ring geometry within what our device lets a consumer ask for (consumer_start). */
static bool geom_within_caps(const struct comch_ep *ep, const struct softhw_chan_geom *g)
{
	return g->max_msg >= sizeof(struct comch_fp_rec) &&
	       g->max_msg - sizeof(struct comch_fp_rec) <= ep->caps->comch_fp_max_buf_size &&
	       g->limit[SOFTHW_CHAN_A_TO_B] <= COMCH_FP_MAX_SLOTS && g->limit[SOFTHW_CHAN_B_TO_A] <= COMCH_FP_MAX_SLOTS;
}

bool comch_fp_handle_ctrl(struct doca_comch_connection *conn, const union comch_wire_msg *m, const int *fds, int nfds)
{
	const struct comch_wire_consumer *c = &m->consumer;
	struct comch_remote_consumer *rc;

	switch (m->hdr.type) {
	case COMCH_WIRE_CONSUMER_NEW: {
		struct doca_pe *pe = conn->ep->ctx.pe;
		int bell;

		if (nfds != 2 || ((rc = rc_find(conn, c->consumer_id)) != NULL && !rc_gone(rc)) ||
		    c->imm_data_len > COMCH_FP_MAX_IMM ||
		    !geom_within_caps(conn->ep, &c->geom)) {
			comch_conn_close_fds(conn, fds, nfds);
			SDK_LOG_ERR("Comch %s '%s': malformed consumer announcement from the peer (the id of a "
				    "consumer that has not expired, or a ring larger than a consumer may ask for); ignored",
				    conn->ep->kind, conn->ep->name);
			return true;
		}
		if (rc_count(conn) >= COMCH_FP_REMOTE_MAX(conn->ep)) {
			comch_conn_close_fds(conn, fds, nfds);
			SDK_LOG_ERR("Comch %s '%s': the peer announced more than %u consumers on one connection (expired "
				    "ones count until the connection ends); consumer %u ignored",
				    conn->ep->kind, conn->ep->name, COMCH_FP_REMOTE_MAX(conn->ep), c->consumer_id);
			return true;
		}
		rc = calloc(1, sizeof(*rc));
		if (rc == NULL || conn->ep->hw->chan_attach(fds[0], &c->geom, &rc->ch) != DOCA_SUCCESS) {
			free(rc);
			comch_conn_close_fds(conn, fds, nfds);
			SDK_LOG_ERR("Comch %s '%s': cannot map the ring of remote consumer %u", conn->ep->kind,
				    conn->ep->name, c->consumer_id);
			return true;
		}
		conn->ep->hw->close(fds[0]);
		comch_conn_take_bell(conn, &rc->ch, fds[1]); /* the consumer's PE */
		rc->id = c->consumer_id;
		rc->imm_data_len = c->imm_data_len;
		rc->max_msg = c->geom.max_msg - (uint32_t)sizeof(struct comch_fp_rec);
		rc->report_new = true;
		rc->next = conn->remote_consumers;
		__atomic_store_n(&conn->remote_consumers, rc, __ATOMIC_RELEASE);
		/* Our PE is the one to ring when the consumer frees slots of producers waiting on it. */
		bell = conn->ep->hw->bell_ringer(&pe->bell_name, pe->share_fd);
		/* an ACK without a doorbell is ignored: the consumer would never run (the shared end: logged) */
		send_consumer_msg(conn, COMCH_WIRE_CONSUMER_ACK, rc->id, 0, NULL, bell >= 0 ? &bell : &pe->share_fd, 1);
		conn->ep->hw->close(bell);
		return true;
	}
	case COMCH_WIRE_CONSUMER_ACK:
		for (struct doca_comch_consumer *lc = conn->local_consumers; lc != NULL; lc = lc->next) {
			if (lc->id != c->consumer_id || !softhw_chan_mapped(&lc->ch) || nfds != 1)
				continue;
			comch_conn_take_bell(conn, &lc->ch, fds[0]);
			nfds = 0;
			__atomic_store_n(&lc->acked, 1, __ATOMIC_RELEASE);
			softdoca_pe_notify(lc->ctx.pe);
			break;
		}
		comch_conn_close_fds(conn, fds, nfds);
		return true;
	case COMCH_WIRE_CONSUMER_GONE:
		comch_conn_close_fds(conn, fds, nfds);
		rc = rc_find(conn, c->consumer_id);
		if (rc != NULL)
			rc_expire(conn, rc);
		return true;
	default:
		comch_conn_close_fds(conn, fds, nfds);
		return false;
	}
}

bool comch_fp_report_gone(struct doca_comch_connection *conn)
{
	struct comch_ep *ep = conn->ep;

	for (struct comch_remote_consumer *rc = conn->remote_consumers; rc != NULL; rc = rc->next) {
		if (rc->report_new) {
			/* Never announced to the user: it gets neither event. */
			rc->report_new = false;
			rc->report_expired = false;
			continue;
		}
		if (rc->report_expired) {
			rc->report_expired = false;
			if (ep->expired_consumer_cb != NULL) {
				ep->callbacks++;
				ep->expired_consumer_cb(&ep->consumer_event, conn, rc->id);
			}
			return true; /* the callback may have stopped or destroyed things: look no further */
		}
	}
	return false;
}

bool comch_fp_report_conn(struct doca_comch_connection *conn)
{
	struct comch_ep *ep = conn->ep;

	for (struct comch_remote_consumer *rc = conn->remote_consumers; rc != NULL; rc = rc->next) {
		if (rc->report_new) {
			rc->report_new = false;
			if (ep->new_consumer_cb != NULL) {
				ep->callbacks++;
				ep->new_consumer_cb(&ep->consumer_event, conn, rc->id);
			}
			return true;
		}
		if (rc->report_expired) {
			rc->report_expired = false;
			if (ep->expired_consumer_cb != NULL) {
				ep->callbacks++;
				ep->expired_consumer_cb(&ep->consumer_event, conn, rc->id);
			}
			return true;
		}
	}
	return false;
}

bool comch_fp_progress(struct comch_ep *ep)
{
	for (struct doca_comch_connection *conn = ep->conns; conn != NULL; conn = conn->next) {
		if (conn->state == COMCH_CONN_DEAD) {
			if (comch_fp_report_gone(conn))
				return true;
			continue;
		}
		if (comch_fp_report_conn(conn))
			return true;
	}
	return false;
}

bool comch_fp_arm(struct comch_ep *ep)
{
	for (struct doca_comch_connection *conn = ep->conns; conn != NULL; conn = conn->next)
		for (struct comch_remote_consumer *rc = conn->remote_consumers; rc != NULL; rc = rc->next)
			if (rc->report_new || rc->report_expired)
				return true;
	return false;
}

void comch_fp_conn_gone(struct doca_comch_connection *conn)
{
	for (struct comch_remote_consumer *rc = conn->remote_consumers; rc != NULL; rc = rc->next)
		rc_expire(conn, rc);
	/* Local consumers and producers see the connection's state and fail their tasks. */
	for (struct doca_comch_consumer *lc = conn->local_consumers; lc != NULL; lc = lc->next)
		softdoca_pe_notify(lc->ctx.pe);
}

bool comch_fp_conn_busy(const struct doca_comch_connection *conn)
{
	return conn->fp_refs > 0;
}

/* ---- consumer ---- */

static struct doca_comch_consumer *cons_of(struct doca_ctx *ctx)
{
	return (struct doca_comch_consumer *)ctx;
}

/*
 * The oldest posted receive goes next, once a message waits (or can never come: the connection
 * is gone, or the ring was dropped because the producer side corrupted it).
 */
static bool post_recv_ready(struct softhw_work *work)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)(void *)work;
	struct doca_comch_consumer *cons = (struct doca_comch_consumer *)t->base.ctx;
	struct softhw_chan_msg m;

	if (cons->wait_head != t)
		return false;
	if (!softhw_chan_mapped(&cons->ch))
		return true;
	return !conn_up(cons->conn) || softhw_chan_peek(&cons->ch, &m) != 0;
}

static doca_error_t post_recv_run(struct softhw_work *work)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)(void *)work;
	struct doca_comch_consumer *cons = (struct doca_comch_consumer *)t->base.ctx;
	struct doca_buf *b = t->buf;
	struct softhw_chan_msg m;
	struct comch_fp_rec hdr;
	uint32_t len;
	int got;

	cons->wait_head = t->wait_next;
	if (cons->wait_head == NULL)
		cons->wait_tail = NULL;
	if (!softhw_chan_mapped(&cons->ch))
		return DOCA_ERROR_CONNECTION_ABORTED; /* dropped after a corruption: nothing comes any more */
	got = softhw_chan_peek(&cons->ch, &m);
	if (got == 0)
		return DOCA_ERROR_CONNECTION_RESET; /* only ready without a message when the connection is gone */
	if (got < 0 || m.len < sizeof(hdr)) {
		SDK_LOG_ERR("Comch consumer %u: the producer side corrupted the shared ring", cons->id);
		cons->conn->ep->hw->chan_close(&cons->ch);
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	memcpy(&hdr, m.data, sizeof(hdr));
	len = m.len - (uint32_t)sizeof(hdr);
	if (len > softdoca_buf_tailroom(b)) {
		SDK_LOG_ERR("Comch consumer %u: a message of %u bytes does not fit the posted buffer (%zu bytes free after "
			    "its data); the message is dropped. Post larger buffers",
			    cons->id, len, softdoca_buf_tailroom(b));
		softhw_chan_consume(&cons->ch);
		return DOCA_ERROR_TOO_BIG;
	}
	/* As for every destination buffer: after its data segment, which grows by the message. */
	memcpy((char *)b->data + b->data_len, m.data + sizeof(hdr), len);
	b->data_len += len;
	t->producer_id = hdr.producer_id;
	t->imm_len = hdr.imm_len <= cons->imm_data_len ? hdr.imm_len : cons->imm_data_len;
	memcpy(t->imm, hdr.imm, t->imm_len);
	softhw_chan_consume(&cons->ch);
	return DOCA_SUCCESS;
}

static doca_error_t post_recv_prepare(struct doca_task *task)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;
	struct doca_comch_consumer *cons = cons_of(task->ctx);

	if (t->buf == NULL || t->buf->mmap != cons->mmap) {
		SDK_LOG_ERR("Comch consumer %u: post_recv task needs a buffer of the consumer's mmap", cons->id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	t->wait_next = NULL;
	t->producer_id = 0;
	t->imm_len = 0;
	if (cons->wait_tail != NULL)
		cons->wait_tail->wait_next = t;
	else
		cons->wait_head = t;
	cons->wait_tail = t;
	task->work.op = SOFTHW_OP_CALL;
	task->work.call.ready = post_recv_ready;
	task->work.call.run = post_recv_run;
	/* A buffer waits for the next message: the producer's send that fills it is placed (done). */
	if (softhw_chan_mapped(&cons->ch))
		softhw_chan_post(&cons->ch, 1);
	return DOCA_SUCCESS;
}

static doca_error_t post_recv_check(struct doca_task *task)
{
	struct doca_comch_consumer_task_post_recv *t = (struct doca_comch_consumer_task_post_recv *)task;

	if (t->buf == NULL || t->buf->mmap != cons_of(task->ctx)->mmap) {
		SDK_LOG_ERR("Comch consumer post_recv task: the buffer must belong to the consumer's mmap");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t consumer_start(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cons = cons_of(ctx);
	struct doca_comch_connection *conn = cons->conn;
	struct softhw_chan_geom geom;
	uint32_t slots = COMCH_FP_MIN_SLOTS, max = conn->ep->caps->comch_fp_max_buf_size;
	int fds[2], memfd;
	doca_error_t err;

	if (!conn_up(conn)) {
		SDK_LOG_ERR("Failed to start Comch consumer: its connection is not established any more");
		return DOCA_ERROR_NOT_CONNECTED;
	}
	/* Slots for the receives it may post (within bounds); each holds what its mmap can take. */
	while (slots < ctx->pools[FP_TASK].capacity && slots < COMCH_FP_MAX_SLOTS)
		slots <<= 1;
	if (cons->mmap->len < max)
		max = (uint32_t)cons->mmap->len;
	err = conn->ep->hw->chan_geom((uint32_t)sizeof(struct comch_fp_rec) + max, 1, slots, &geom);
	if (err == DOCA_SUCCESS)
		err = conn->ep->hw->chan_create(&geom, &cons->ch, &memfd);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start Comch consumer: cannot create its shared ring (%s)", doca_error_get_name(err));
		return err;
	}
	fds[0] = memfd;
	fds[1] = conn->ep->hw->bell_ringer(&ctx->pe->bell_name, ctx->pe->share_fd); /* producers ring our PE when we sleep */
	if (fds[1] < 0) {
		conn->ep->hw->close(memfd);
		conn->ep->hw->chan_close(&cons->ch);
		SDK_LOG_ERR("Failed to start Comch consumer: no doorbell for its producers (out of descriptors?)");
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	__atomic_store_n(&cons->acked, 0, __ATOMIC_RELAXED);
	send_consumer_msg(conn, COMCH_WIRE_CONSUMER_NEW, cons->id, cons->imm_data_len, &geom, fds, 2);
	conn->ep->hw->close(memfd);
	conn->ep->hw->close(fds[1]);
	return DOCA_ERROR_IN_PROGRESS; /* RUNNING once the peer registered us */
}

static doca_error_t consumer_stop(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cons = cons_of(ctx);
	struct softhw_chan_msg m;

	/*
	 * A message a posted receive waits for is placed: its producer's send completed. It is
	 * delivered into that receive before the ring goes, in order (done work keeps its outcome
	 * through the context's flush), as the buffer holds it on a BlueField.
	 */
	while (cons->wait_head != NULL && softhw_chan_mapped(&cons->ch) && softhw_chan_peek(&cons->ch, &m) == 1) {
		struct softhw_work *w = &cons->wait_head->base.work;

		w->status = post_recv_run(w);
		w->op = SOFTHW_OP_DONE;
	}
	/* The other posted receives are flushed by the context; none is "next" any more. */
	cons->wait_head = NULL;
	cons->wait_tail = NULL;
	if (conn_up(cons->conn))
		send_consumer_msg(cons->conn, COMCH_WIRE_CONSUMER_GONE, cons->id, 0, NULL, NULL, 0);
	cons->conn->ep->hw->chan_close(&cons->ch);
	return DOCA_SUCCESS;
}

static bool consumer_progress(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cons = cons_of(ctx);

	if (ctx->state != DOCA_CTX_STATE_STARTING)
		return false;
	if (__atomic_load_n(&cons->acked, __ATOMIC_ACQUIRE)) {
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_RUNNING);
		return true;
	}
	if (!conn_up(cons->conn)) {
		SDK_LOG_ERR("Comch consumer %u: the connection closed before the peer registered the consumer; it "
			    "stops",
			    cons->id);
		cons->conn->ep->hw->chan_close(&cons->ch);
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_STOPPING);
		return true;
	}
	return false;
}

static bool consumer_arm(struct doca_ctx *ctx)
{
	struct doca_comch_consumer *cons = cons_of(ctx);

	if (ctx->state == DOCA_CTX_STATE_STARTING)
		return __atomic_load_n(&cons->acked, __ATOMIC_ACQUIRE) || !conn_up(cons->conn);
	if (!softhw_chan_mapped(&cons->ch) || cons->wait_head == NULL)
		return false;
	/* records only: a consumer takes no control hints, so a producer's would keep it awake for ever */
	return softhw_chan_arm_rx_records(&cons->ch);
}

static const struct softdoca_ctx_ops consumer_ops = {
	.name = "Comch consumer",
	.start = consumer_start,
	.stop = consumer_stop,
	.progress = consumer_progress,
	.arm = consumer_arm,
	.check = post_recv_check,
	.prepare = post_recv_prepare,
};

doca_error_t doca_comch_consumer_create(struct doca_comch_connection *comch_connection, struct doca_mmap *buf_mmap,
					struct doca_comch_consumer **consumer)
{
	struct doca_comch_connection *conn = comch_connection;
	struct doca_comch_consumer *cons;

	if (conn == NULL || buf_mmap == NULL || consumer == NULL) {
		SDK_LOG_ERR("Failed to create Comch consumer: %s is NULL",
			    conn == NULL ? "the connection" : buf_mmap == NULL ? "buf_mmap" : "the consumer output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!conn_up(conn)) {
		SDK_LOG_ERR("Failed to create Comch consumer: the connection is not established");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!conn->ep->caps->comch_fast_path) {
		SDK_LOG_ERR("Failed to create Comch consumer: the device has no Comch fast path");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!buf_mmap->started || !(buf_mmap->access & DOCA_ACCESS_FLAG_PCI_READ_WRITE)) {
		SDK_LOG_ERR("Failed to create Comch consumer: the mmap must be started with "
			    "DOCA_ACCESS_FLAG_PCI_READ_WRITE (doca_mmap_set_permissions) so producers may write it");
		return buf_mmap->started ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_BAD_STATE;
	}
	if (conn->num_consumers >= conn->ep->caps->comch_max_consumers) {
		SDK_LOG_ERR("Failed to create Comch consumer: the connection has its maximum of %u consumers "
			    "(doca_comch_consumer_cap_get_max_consumers())",
			    conn->ep->caps->comch_max_consumers);
		return DOCA_ERROR_NO_MEMORY;
	}
	cons = calloc(1, sizeof(*cons));
	if (cons == NULL) {
		SDK_LOG_ERR("Failed to create Comch consumer: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&cons->ctx, conn->ep->dev, &consumer_ops);
	cons->conn = conn;
	cons->mmap = buf_mmap;
	cons->id = ++conn->next_consumer_id;
	cons->ch.peer_bell = -1;
	cons->next = conn->local_consumers;
	conn->local_consumers = cons;
	conn->num_consumers++;
	conn->fp_refs++;
	*consumer = cons;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_destroy(struct doca_comch_consumer *consumer)
{
	struct doca_comch_connection *conn;

	if (consumer == NULL) {
		SDK_LOG_ERR("Failed to destroy Comch consumer: consumer is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (consumer->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy Comch consumer %u: it is not idle; stop it and progress its PE first",
			    consumer->id);
		return DOCA_ERROR_BAD_STATE;
	}
	conn = consumer->conn;
	for (struct doca_comch_consumer **pp = &conn->local_consumers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == consumer) {
			*pp = consumer->next;
			break;
		}
	}
	conn->num_consumers--;
	conn->ep->hw->chan_close(&consumer->ch);
	softdoca_ctx_fini(&consumer->ctx);
	free(consumer);
	conn_unref(conn);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_consumer_as_ctx(struct doca_comch_consumer *consumer)
{
	return consumer != NULL ? &consumer->ctx : NULL;
}

doca_error_t doca_comch_consumer_get_id(const struct doca_comch_consumer *consumer, uint32_t *id)
{
	if (consumer == NULL || id == NULL) {
		SDK_LOG_ERR("Failed to get Comch consumer id: %s is NULL", consumer == NULL ? "consumer" : "id");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*id = consumer->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_get_imm_data_len(const struct doca_comch_consumer *consumer, uint32_t *imm_data_len)
{
	if (consumer == NULL || imm_data_len == NULL) {
		SDK_LOG_ERR("Failed to get Comch consumer immediate data length: %s is NULL",
			    consumer == NULL ? "consumer" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*imm_data_len = consumer->imm_data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_set_imm_data_len(struct doca_comch_consumer *consumer, uint32_t imm_data_len)
{
	if (consumer == NULL) {
		SDK_LOG_ERR("Failed to set Comch consumer immediate data length: consumer is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (consumer->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to set Comch consumer immediate data length: set it before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (imm_data_len > consumer->conn->ep->caps->comch_max_imm_data_len) {
		SDK_LOG_ERR("Failed to set Comch consumer immediate data length %u: the device allows up to %u "
			    "(doca_comch_consumer_cap_get_max_imm_data_len())",
			    imm_data_len, consumer->conn->ep->caps->comch_max_imm_data_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	consumer->imm_data_len = imm_data_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_consumer_task_post_recv_set_conf(struct doca_comch_consumer *consumer,
							 doca_comch_consumer_task_post_recv_completion_cb_t task_completion_cb,
							 doca_comch_consumer_task_post_recv_completion_cb_t task_error_cb,
							 uint32_t num_post_recv_tasks)
{
	doca_error_t err;

	if (consumer == NULL || task_completion_cb == NULL || task_error_cb == NULL) {
		SDK_LOG_ERR("Failed to configure Comch consumer post_recv tasks: %s is NULL",
			    consumer == NULL ? "consumer" : "a callback");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (consumer->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to configure Comch consumer post_recv tasks: configure them before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (num_post_recv_tasks == 0 || num_post_recv_tasks > consumer->conn->ep->caps->comch_fp_max_num_tasks) {
		SDK_LOG_ERR("Failed to configure Comch consumer post_recv tasks: %u requested, the device allows 1 to %u "
			    "(doca_comch_consumer_cap_get_max_num_tasks())",
			    num_post_recv_tasks, consumer->conn->ep->caps->comch_fp_max_num_tasks);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_ctx_tasks_configured(&consumer->ctx, FP_TASK) && consumer->ctx.pools[FP_TASK].allocated) {
		SDK_LOG_ERR("Failed to configure Comch consumer post_recv tasks: free the tasks of the previous "
			    "configuration first");
		return DOCA_ERROR_IN_USE;
	}
	err = softdoca_ctx_conf_tasks(&consumer->ctx, FP_TASK, "post_recv",
				      sizeof(struct doca_comch_consumer_task_post_recv),
				      (doca_task_completion_cb_t)task_completion_cb, (doca_task_completion_cb_t)task_error_cb,
				      num_post_recv_tasks);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to configure Comch consumer post_recv tasks: out of memory");
	return err;
}

doca_error_t doca_comch_consumer_task_post_recv_alloc_init(struct doca_comch_consumer *consumer, struct doca_buf *buf,
							   struct doca_comch_consumer_task_post_recv **task)
{
	union doca_data none = {.u64 = 0};
	struct doca_comch_consumer_task_post_recv *t;

	if (consumer == NULL || buf == NULL || task == NULL) {
		SDK_LOG_ERR("Failed to allocate Comch consumer post_recv task: %s is NULL",
			    consumer == NULL ? "consumer" : buf == NULL ? "buf" : "the task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_ctx_tasks_configured(&consumer->ctx, FP_TASK)) {
		SDK_LOG_ERR("Failed to allocate Comch consumer post_recv task: call "
			    "doca_comch_consumer_task_post_recv_set_conf() before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (buf->mmap != consumer->mmap) {
		SDK_LOG_ERR("Failed to allocate Comch consumer post_recv task: the buffer is not in the consumer's mmap "
			    "(the one given to doca_comch_consumer_create())");
		return DOCA_ERROR_INVALID_VALUE;
	}
	t = (struct doca_comch_consumer_task_post_recv *)softdoca_task_alloc(&consumer->ctx, FP_TASK, none);
	if (t == NULL) {
		SDK_LOG_DBG("Failed to allocate Comch consumer post_recv task: all %u are in use",
			    consumer->ctx.pools[FP_TASK].capacity);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->buf = buf;
	*task = t;
	return DOCA_SUCCESS;
}

struct doca_buf *doca_comch_consumer_task_post_recv_get_buf(const struct doca_comch_consumer_task_post_recv *task)
{
	return task != NULL ? task->buf : NULL;
}

void doca_comch_consumer_task_post_recv_set_buf(struct doca_comch_consumer_task_post_recv *task, struct doca_buf *buf)
{
	if (task != NULL)
		task->buf = buf;
}

uint32_t doca_comch_consumer_task_post_recv_get_producer_id(const struct doca_comch_consumer_task_post_recv *task)
{
	return task != NULL ? task->producer_id : 0;
}

const uint8_t *doca_comch_consumer_task_post_recv_get_imm_data(const struct doca_comch_consumer_task_post_recv *task)
{
	return task != NULL && task->imm_len > 0 ? task->imm : NULL;
}

uint32_t doca_comch_consumer_task_post_recv_get_imm_data_len(const struct doca_comch_consumer_task_post_recv *task)
{
	return task != NULL ? task->imm_len : 0;
}

struct doca_task *doca_comch_consumer_task_post_recv_as_task(struct doca_comch_consumer_task_post_recv *task)
{
	return task != NULL ? &task->base : NULL;
}

/* ---- producer ---- */

static struct doca_comch_producer *prod_of(struct doca_ctx *ctx)
{
	return (struct doca_comch_producer *)ctx;
}

/* Writes one message into its consumer's ring; the caller checked that a slot is free. */
static void producer_write(struct doca_comch_producer *prod, struct doca_comch_producer_task_send *t)
{
	struct comch_remote_consumer *rc = t->rc;
	struct comch_fp_rec *hdr = (struct comch_fp_rec *)softhw_chan_slot(&rc->ch);
	uint8_t *dst = (uint8_t *)(hdr + 1);
	uint32_t len = 0;

	/* Straight into the slot: header, immediate data, the buf list's data segments. */
	hdr->producer_id = prod->id;
	hdr->imm_len = t->imm_len;
	if (t->imm_len > 0)
		memcpy(hdr->imm, t->imm, t->imm_len);
	for (const struct doca_buf *e = t->buf; e != NULL; e = e->next) {
		memcpy(dst + len, e->data, e->data_len);
		len += (uint32_t)e->data_len;
	}
	t->rec_idx = rc->ch.tx.pos;
	softhw_chan_publish(&rc->ch, 1, 0, (uint32_t)sizeof(*hdr) + len);
	t->written = true;
	prod->unconsumed++;
}

static uint32_t buf_list_len_bytes(const struct doca_buf *b)
{
	uint64_t len = 0;

	for (; b != NULL; b = b->next)
		len += b->data_len;
	return len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
}

/*
 * Done once the message is placed: a receive the consumer posted waits for it (the k-th message
 * fills the k-th receive), or the consumer took it (or it never can). On a BlueField the NIC
 * writes it into that buffer whether or not the consumer's application progresses; here the
 * consumer's next progress copies it from the ring, which only it reads, and completes its
 * receive. The message left the producer's buffers at submission, so they are free either way.
 */
static bool producer_send_ready(struct softhw_work *work)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)(void *)work;

	if (t->fail != DOCA_SUCCESS)
		return true;
	if (!t->written)
		return false;
	if (rc_gone(t->rc))
		return true;
	return softhw_chan_posted(&t->rc->ch) > t->rec_idx ||
	       __atomic_load_n(&t->rc->ch.tx.ctl->head, __ATOMIC_ACQUIRE) > t->rec_idx;
}

static doca_error_t producer_send_run(struct softhw_work *work)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)(void *)work;
	struct doca_comch_producer *prod = prod_of(t->base.ctx);

	if (t->written)
		prod->unconsumed--;
	if (t->fail != DOCA_SUCCESS)
		return t->fail;
	if (rc_gone(t->rc) && t->rc->final_head <= t->rec_idx && t->rc->final_posted <= t->rec_idx)
		return DOCA_ERROR_NOT_CONNECTED; /* the consumer left with no receive for it */
	return DOCA_SUCCESS;
}

/* Checks that do not change while the task waits; the consumer is looked up again at submit. */
static doca_error_t producer_check_task(struct doca_comch_producer *prod, struct doca_comch_producer_task_send *t,
					struct comch_remote_consumer **out)
{
	struct comch_remote_consumer *rc = rc_find(prod->conn, t->consumer_id);
	uint32_t len;

	if (t->buf == NULL) {
		SDK_LOG_ERR("Comch producer %u send task: buf is NULL", prod->id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rc == NULL || rc_gone(rc)) {
		SDK_LOG_ERR("Comch producer %u: no consumer %u on the other side of the connection%s; use an id from the "
			    "new-consumer callback",
			    prod->id, t->consumer_id, rc != NULL ? " any more (it expired)" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->imm_len > rc->imm_data_len) {
		SDK_LOG_ERR("Comch producer %u: %u bytes of immediate data, consumer %u accepts %u "
			    "(doca_comch_consumer_set_imm_data_len())",
			    prod->id, t->imm_len, rc->id, rc->imm_data_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	len = buf_list_len_bytes(t->buf);
	if (len > rc->max_msg) {
		SDK_LOG_ERR("Comch producer %u: a message of %u bytes exceeds what consumer %u can receive (%u bytes: its "
			    "mmap, at most doca_comch_producer_cap_get_max_buf_size())",
			    prod->id, len, rc->id, rc->max_msg);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*out = rc;
	return DOCA_SUCCESS;
}

static doca_error_t producer_check(struct doca_task *task)
{
	struct comch_remote_consumer *rc;

	return producer_check_task(prod_of(task->ctx), (struct doca_comch_producer_task_send *)task, &rc);
}

static doca_error_t producer_prepare(struct doca_task *task)
{
	struct doca_comch_producer_task_send *t = (struct doca_comch_producer_task_send *)task;
	struct doca_comch_producer *prod = prod_of(task->ctx);
	doca_error_t err;

	t->written = false;
	t->fail = DOCA_SUCCESS;
	t->wait_next = NULL;
	task->work.op = SOFTHW_OP_CALL;
	task->work.call.ready = producer_send_ready;
	task->work.call.run = producer_send_run;
	if (!conn_up(prod->conn)) {
		t->fail = prod->conn->reset_status;
		return DOCA_SUCCESS;
	}
	err = producer_check_task(prod, t, &t->rc);
	if (err != DOCA_SUCCESS)
		return err;
	if (prod->wait_head == NULL && softhw_chan_can_send(&t->rc->ch)) {
		producer_write(prod, t);
		return DOCA_SUCCESS;
	}
	if (prod->wait_tail != NULL)
		prod->wait_tail->wait_next = t;
	else
		prod->wait_head = t;
	prod->wait_tail = t;
	return DOCA_SUCCESS;
}

/* Writes the waiting sends that now have a slot, oldest first. */
static bool producer_progress(struct doca_ctx *ctx)
{
	struct doca_comch_producer *prod = prod_of(ctx);
	bool did = false;

	while (prod->wait_head != NULL) {
		struct doca_comch_producer_task_send *t = prod->wait_head;

		if (!conn_up(prod->conn))
			t->fail = prod->conn->reset_status;
		else if (rc_gone(t->rc))
			t->fail = DOCA_ERROR_NOT_CONNECTED;
		else if (softhw_chan_can_send(&t->rc->ch))
			producer_write(prod, t);
		else
			break;
		prod->wait_head = t->wait_next;
		if (prod->wait_head == NULL)
			prod->wait_tail = NULL;
		did = true;
	}
	return did;
}

static doca_error_t producer_stop(struct doca_ctx *ctx)
{
	struct doca_comch_producer *prod = prod_of(ctx);

	prod->wait_head = NULL; /* the context flushes them */
	prod->wait_tail = NULL;
	prod->unconsumed = 0;
	return DOCA_SUCCESS;
}

/*
 * A producer sleeps only when nothing it wrote waits for its consumer, or when it shares the
 * PE of its connection's context: that PE is the one a consumer rings after taking messages or
 * posting receives (tx_armed). Sends waiting for a slot are pending once there is room; a
 * written send waiting for its receive is not work (the core looks at its readiness after this
 * arm: softhw_chan_posted, the head), or a consumer with no receive posted would keep the
 * producer's PE waking for nothing.
 */
static bool producer_arm(struct doca_ctx *ctx)
{
	struct doca_comch_producer *prod = prod_of(ctx);
	bool pending = prod->wait_head != NULL && !conn_up(prod->conn);

	if (prod->unconsumed == 0 && prod->wait_head == NULL)
		return pending;
	if (ctx->pe != prod->conn->ep->ctx.pe)
		return true;
	for (struct comch_remote_consumer *rc = prod->conn->remote_consumers; rc != NULL; rc = rc->next)
		if (!rc_gone(rc))
			(void)softhw_chan_arm_tx(&rc->ch);
	/* the oldest waiting send goes first, to its own consumer (producer_progress): its room counts */
	if (prod->wait_head != NULL && (rc_gone(prod->wait_head->rc) || softhw_chan_can_send(&prod->wait_head->rc->ch)))
		pending = true;
	/* pairs with the consumer's fence after its head or posted store: its ring, or our look */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return pending;
}

static const struct softdoca_ctx_ops producer_ops = {
	.name = "Comch producer",
	.stop = producer_stop,
	.progress = producer_progress,
	.arm = producer_arm,
	.check = producer_check,
	.prepare = producer_prepare,
};

doca_error_t doca_comch_producer_create(struct doca_comch_connection *comch_connection,
					struct doca_comch_producer **producer)
{
	struct doca_comch_connection *conn = comch_connection;
	struct doca_comch_producer *prod;

	if (conn == NULL || producer == NULL) {
		SDK_LOG_ERR("Failed to create Comch producer: %s is NULL",
			    conn == NULL ? "the connection" : "the producer output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!conn_up(conn)) {
		SDK_LOG_ERR("Failed to create Comch producer: the connection is not established");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!conn->ep->caps->comch_fast_path) {
		SDK_LOG_ERR("Failed to create Comch producer: the device has no Comch fast path");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (conn->num_producers >= conn->ep->caps->comch_max_producers) {
		SDK_LOG_ERR("Failed to create Comch producer: the connection has its maximum of %u producers "
			    "(doca_comch_producer_cap_get_max_producers())",
			    conn->ep->caps->comch_max_producers);
		return DOCA_ERROR_NO_MEMORY;
	}
	prod = calloc(1, sizeof(*prod));
	if (prod == NULL) {
		SDK_LOG_ERR("Failed to create Comch producer: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&prod->ctx, conn->ep->dev, &producer_ops);
	prod->conn = conn;
	prod->id = ++conn->next_producer_id;
	conn->num_producers++;
	conn->fp_refs++;
	*producer = prod;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_producer_destroy(struct doca_comch_producer *producer)
{
	struct doca_comch_connection *conn;

	if (producer == NULL) {
		SDK_LOG_ERR("Failed to destroy Comch producer: producer is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (producer->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy Comch producer %u: it is not idle; stop it and progress its PE first",
			    producer->id);
		return DOCA_ERROR_BAD_STATE;
	}
	conn = producer->conn;
	conn->num_producers--;
	softdoca_ctx_fini(&producer->ctx);
	free(producer);
	conn_unref(conn);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_producer_as_ctx(struct doca_comch_producer *producer)
{
	return producer != NULL ? &producer->ctx : NULL;
}

doca_error_t doca_comch_producer_get_id(const struct doca_comch_producer *producer, uint32_t *id)
{
	if (producer == NULL || id == NULL) {
		SDK_LOG_ERR("Failed to get Comch producer id: %s is NULL", producer == NULL ? "producer" : "id");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*id = producer->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_producer_task_send_set_conf(struct doca_comch_producer *producer,
						    doca_comch_producer_task_send_completion_cb_t task_completion_cb,
						    doca_comch_producer_task_send_completion_cb_t task_error_cb,
						    uint32_t num_send_tasks)
{
	doca_error_t err;

	if (producer == NULL || task_completion_cb == NULL || task_error_cb == NULL) {
		SDK_LOG_ERR("Failed to configure Comch producer send tasks: %s is NULL",
			    producer == NULL ? "producer" : "a callback");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (producer->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to configure Comch producer send tasks: configure them before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (num_send_tasks == 0 || num_send_tasks > producer->conn->ep->caps->comch_fp_max_num_tasks) {
		SDK_LOG_ERR("Failed to configure Comch producer send tasks: %u requested, the device allows 1 to %u "
			    "(doca_comch_producer_cap_get_max_num_tasks())",
			    num_send_tasks, producer->conn->ep->caps->comch_fp_max_num_tasks);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_ctx_tasks_configured(&producer->ctx, FP_TASK) && producer->ctx.pools[FP_TASK].allocated) {
		SDK_LOG_ERR("Failed to configure Comch producer send tasks: free the tasks of the previous "
			    "configuration first");
		return DOCA_ERROR_IN_USE;
	}
	err = softdoca_ctx_conf_tasks(&producer->ctx, FP_TASK, "send", sizeof(struct doca_comch_producer_task_send),
				      (doca_task_completion_cb_t)task_completion_cb, (doca_task_completion_cb_t)task_error_cb,
				      num_send_tasks);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to configure Comch producer send tasks: out of memory");
	return err;
}

doca_error_t doca_comch_producer_task_send_alloc_init(struct doca_comch_producer *producer, const struct doca_buf *buf,
						      uint8_t *imm_data, uint32_t imm_data_len, uint32_t consumer_id,
						      struct doca_comch_producer_task_send **task)
{
	union doca_data none = {.u64 = 0};
	struct doca_comch_producer_task_send *t, probe = {0};
	struct comch_remote_consumer *rc;
	doca_error_t err;

	if (producer == NULL || buf == NULL || task == NULL || (imm_data == NULL && imm_data_len > 0)) {
		SDK_LOG_ERR("Failed to allocate Comch producer send task: %s is NULL",
			    producer == NULL ? "producer" : buf == NULL ? "buf" : task == NULL ? "the task output pointer"
											: "imm_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_ctx_tasks_configured(&producer->ctx, FP_TASK)) {
		SDK_LOG_ERR("Failed to allocate Comch producer send task: call doca_comch_producer_task_send_set_conf() "
			    "before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	probe.buf = buf;
	probe.imm_len = imm_data_len;
	probe.consumer_id = consumer_id;
	err = producer_check_task(producer, &probe, &rc);
	if (err != DOCA_SUCCESS)
		return err;
	t = (struct doca_comch_producer_task_send *)softdoca_task_alloc(&producer->ctx, FP_TASK, none);
	if (t == NULL) {
		SDK_LOG_DBG("Failed to allocate Comch producer send task: all %u are in use",
			    producer->ctx.pools[FP_TASK].capacity);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->buf = buf;
	t->imm = imm_data;
	t->imm_len = imm_data_len;
	t->consumer_id = consumer_id;
	t->rc = rc;
	*task = t;
	return DOCA_SUCCESS;
}

const struct doca_buf *doca_comch_producer_task_send_get_buf(const struct doca_comch_producer_task_send *task)
{
	return task != NULL ? task->buf : NULL;
}

void doca_comch_producer_task_send_set_buf(struct doca_comch_producer_task_send *task, const struct doca_buf *buf)
{
	if (task != NULL)
		task->buf = buf;
}

uint32_t doca_comch_producer_task_send_get_consumer_id(const struct doca_comch_producer_task_send *task)
{
	return task != NULL ? task->consumer_id : 0;
}

void doca_comch_producer_task_send_set_consumer_id(struct doca_comch_producer_task_send *task, const uint32_t consumer_id)
{
	if (task != NULL)
		task->consumer_id = consumer_id;
}

uint8_t *doca_comch_producer_task_send_get_imm_data(const struct doca_comch_producer_task_send *task)
{
	return task != NULL ? task->imm : NULL;
}

uint32_t doca_comch_producer_task_send_get_imm_data_len(const struct doca_comch_producer_task_send *task)
{
	return task != NULL ? task->imm_len : 0;
}

void doca_comch_producer_task_send_set_imm_data(struct doca_comch_producer_task_send *task, uint8_t *imm_data,
						uint32_t imm_data_len)
{
	if (task != NULL) {
		task->imm = imm_data;
		task->imm_len = imm_data_len;
	}
}

struct doca_task *doca_comch_producer_task_send_as_task(struct doca_comch_producer_task_send *task)
{
	return task != NULL ? &task->base : NULL;
}

/* ---- capabilities ---- */

static doca_error_t fp_cap(const struct doca_devinfo *devinfo, uint32_t *out, uint32_t value, const char *what)
{
	if (devinfo == NULL || out == NULL) {
		SDK_LOG_ERR("Comch fast-path capability query (%s): %s is NULL", what, devinfo == NULL ? "devinfo" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_devinfo_caps(devinfo)->comch_fast_path)
		return DOCA_ERROR_NOT_SUPPORTED;
	*out = value;
	return DOCA_SUCCESS;
}

#define FP_CAP(devinfo, out, field) \
	fp_cap(devinfo, out, (devinfo) != NULL ? softdoca_devinfo_caps(devinfo)->field : 0, #field)

doca_error_t doca_comch_producer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	uint32_t unused;

	return FP_CAP(devinfo, &unused, comch_fast_path);
}

doca_error_t doca_comch_producer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks)
{
	return FP_CAP(devinfo, max_num_tasks, comch_fp_max_num_tasks);
}

doca_error_t doca_comch_producer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size)
{
	return FP_CAP(devinfo, max_buf_size, comch_fp_max_buf_size);
}

doca_error_t doca_comch_producer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_buf_list_len)
{
	return FP_CAP(devinfo, max_buf_list_len, comch_fp_max_buf_list_len);
}

doca_error_t doca_comch_producer_cap_get_max_producers(const struct doca_devinfo *devinfo, uint32_t *max_producers)
{
	return FP_CAP(devinfo, max_producers, comch_max_producers);
}

doca_error_t doca_comch_consumer_cap_is_supported(const struct doca_devinfo *devinfo)
{
	uint32_t unused;

	return FP_CAP(devinfo, &unused, comch_fast_path);
}

doca_error_t doca_comch_consumer_cap_get_max_num_tasks(const struct doca_devinfo *devinfo, uint32_t *max_num_tasks)
{
	return FP_CAP(devinfo, max_num_tasks, comch_fp_max_num_tasks);
}

doca_error_t doca_comch_consumer_cap_get_max_buf_size(const struct doca_devinfo *devinfo, uint32_t *max_buf_size)
{
	return FP_CAP(devinfo, max_buf_size, comch_fp_max_buf_size);
}

doca_error_t doca_comch_consumer_cap_get_max_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_buf_list_len)
{
	return FP_CAP(devinfo, max_buf_list_len, comch_fp_max_buf_list_len);
}

doca_error_t doca_comch_consumer_cap_get_max_consumers(const struct doca_devinfo *devinfo, uint32_t *max_consumers)
{
	return FP_CAP(devinfo, max_consumers, comch_max_consumers);
}

doca_error_t doca_comch_consumer_cap_get_max_imm_data_len(const struct doca_devinfo *devinfo, uint32_t *max_imm_data_len)
{
	return FP_CAP(devinfo, max_imm_data_len, comch_max_imm_data_len);
}

/* ---- DPA-side fast path: softdoca has no DPA yet ---- */

#define NO_DPA "the DPA fast path (DPA producers, consumers and consumer completions)"

doca_error_t doca_comch_producer_set_dev_max_num_send(struct doca_comch_producer *producer, uint32_t dev_num_send)
{
	(void)producer;
	(void)dev_num_send;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_producer_dpa_completion_attach(struct doca_comch_producer *producer,
						       struct doca_dpa_completion *dpa_comp)
{
	(void)producer;
	(void)dpa_comp;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_producer_get_dpa_handle(struct doca_comch_producer *producer,
						doca_dpa_dev_comch_producer_t *dpa_producer)
{
	(void)producer;
	(void)dpa_producer;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_create(struct doca_comch_consumer_completion **consumer_comp)
{
	(void)consumer_comp;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_set_dpa_thread(struct doca_comch_consumer_completion *consumer_comp,
							   struct doca_dpa_thread *dpa_thread)
{
	(void)consumer_comp;
	(void)dpa_thread;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_destroy(struct doca_comch_consumer_completion *consumer_comp)
{
	(void)consumer_comp;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_start(struct doca_comch_consumer_completion *consumer_comp)
{
	(void)consumer_comp;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_stop(struct doca_comch_consumer_completion *consumer_comp)
{
	(void)consumer_comp;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_get_dpa_handle(struct doca_comch_consumer_completion *consumer_comp,
							   doca_dpa_dev_comch_consumer_completion_t *consumer_comp_handle)
{
	(void)consumer_comp;
	(void)consumer_comp_handle;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_set_max_num_consumers(struct doca_comch_consumer_completion *consumer_comp,
								  uint32_t max_num_consumers)
{
	(void)consumer_comp;
	(void)max_num_consumers;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_get_max_num_consumers(
	const struct doca_comch_consumer_completion *consumer_comp, uint32_t *max_num_consumers)
{
	(void)consumer_comp;
	(void)max_num_consumers;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_set_max_num_recv(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t max_num_recv)
{
	(void)consumer_comp;
	(void)max_num_recv;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_get_max_num_recv(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *max_num_recv)
{
	(void)consumer_comp;
	(void)max_num_recv;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_set_imm_data_len(struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t imm_data_len)
{
	(void)consumer_comp;
	(void)imm_data_len;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_completion_get_imm_data_len(const struct doca_comch_consumer_completion *consumer_comp,
							     uint32_t *imm_data_len)
{
	(void)consumer_comp;
	(void)imm_data_len;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_set_dev_max_num_recv(struct doca_comch_consumer *consumer, uint32_t dev_num_recv)
{
	(void)consumer;
	(void)dev_num_recv;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_set_completion(struct doca_comch_consumer *consumer,
						struct doca_comch_consumer_completion *consumer_comp, uint32_t user_data)
{
	(void)consumer;
	(void)consumer_comp;
	(void)user_data;
	return unsupported(__func__, NO_DPA);
}

doca_error_t doca_comch_consumer_get_dpa_handle(struct doca_comch_consumer *consumer,
						doca_dpa_dev_comch_consumer_t *dpa_consumer)
{
	(void)consumer;
	(void)dpa_consumer;
	return unsupported(__func__, NO_DPA);
}
