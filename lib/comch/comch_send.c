/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Comch send tasks (server and client variants share everything here).
 *
 * The message is copied into the task at alloc time. On submit it goes straight into the
 * peer's ring when the peer has a credit and no earlier send of the connection waits; the task
 * then completes with SOFTHW_OP_DONE on the next progress (successfully even if the context is
 * stopped meanwhile: the message went out). Otherwise the task waits in the context's queue
 * until the receiver frees a slot, or fails when the connection is gone.
 */
#include <stdlib.h>
#include <string.h>

#include "comch_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH_SEND);

static struct doca_comch_task_send *send_of(struct softhw_work *work)
{
	return (struct doca_comch_task_send *)(void *)work; /* work is first in doca_task, first in the task */
}

static bool conn_belongs(const struct comch_ep *ep, const struct doca_comch_connection *conn)
{
	for (const struct doca_comch_connection *c = ep->conns; c != NULL; c = c->next)
		if (c == conn)
			return true;
	return false;
}

static void send_now(struct doca_comch_task_send *t)
{
	struct doca_comch_connection *c = t->conn;

	/* the consumer messages sent before it are due first at the receiver */
	softhw_chan_send(&c->ch, 0, __atomic_load_n(&c->fp_ctrl_sent, __ATOMIC_ACQUIRE), t->msg, t->len);
	c->counters[DOCA_COMCH_COUNTER_SENT_MESSAGES]++;
	c->counters[DOCA_COMCH_COUNTER_SENT_BYTES] += t->len;
}

/*
 * Only the connection's oldest waiting send may go: the receiver frees slots concurrently, so
 * a younger send could otherwise see room its elders were refused a moment before.
 */
static bool send_ready(struct softhw_work *work)
{
	struct doca_comch_task_send *t = send_of(work);
	struct doca_comch_connection *c = t->conn;

	return c->wait_head == t && (c->state != COMCH_CONN_UP || softhw_chan_can_send(&c->ch));
}

static doca_error_t send_run(struct softhw_work *work)
{
	struct doca_comch_task_send *t = send_of(work);
	struct doca_comch_connection *c = t->conn;

	c->wait_head = t->wait_next;
	if (c->wait_head == NULL)
		c->wait_tail = NULL;
	c->tx_waiting--;
	if (c->state != COMCH_CONN_UP)
		return c->reset_status;
	send_now(t);
	return DOCA_SUCCESS;
}

doca_error_t comch_send_check(struct doca_task *task)
{
	struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;
	struct comch_ep *ep = comch_ep_of(task->ctx);

	if (t->conn == NULL || !conn_belongs(ep, t->conn)) {
		SDK_LOG_ERR("Comch %s send task: the connection is not one of this %s's (or it was disconnected "
			    "and released); send on a connection of the context the task was allocated from",
			    ep->kind, ep->kind);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (t->len > t->conn->max_msg) {
		SDK_LOG_ERR("Comch %s send task: message of %u bytes exceeds the connection's maximum of %u",
			    ep->kind, t->len, t->conn->max_msg);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t comch_send_prepare(struct doca_task *task)
{
	struct doca_comch_task_send *t = (struct doca_comch_task_send *)task;
	struct comch_ep *ep = comch_ep_of(task->ctx);
	struct doca_comch_connection *c = t->conn;
	doca_error_t err = comch_send_check(task);

	if (err != DOCA_SUCCESS)
		return err; /* nothing queued; the caller still owns the task */
	if (c->state != COMCH_CONN_UP) {
		SDK_LOG_ERR("Comch %s '%s': send on a connection that is %s; the task fails with %s",
			    ep->kind, ep->name, c->state == COMCH_CONN_CLOSING ? "being disconnected" : "gone",
			    doca_error_get_name(c->reset_status));
		task->work.op = SOFTHW_OP_FAIL;
		task->work.status = c->reset_status;
		return DOCA_SUCCESS;
	}
	if (c->tx_waiting == 0 && softhw_chan_can_send(&c->ch)) {
		send_now(t);
		task->work.op = SOFTHW_OP_DONE;
		task->work.status = DOCA_SUCCESS;
		return DOCA_SUCCESS;
	}
	/* The receiver holds recv_queue_size messages already: wait for a credit, in order. */
	t->wait_next = NULL;
	if (c->wait_tail != NULL)
		c->wait_tail->wait_next = t;
	else
		c->wait_head = t;
	c->wait_tail = t;
	c->tx_waiting++;
	task->work.op = SOFTHW_OP_CALL;
	task->work.call.ready = send_ready;
	task->work.call.run = send_run;
	return DOCA_SUCCESS;
}

/* Frees the message buffers the tasks grew; before the pool itself goes. */
void comch_send_pool_free(struct comch_ep *ep)
{
	struct softdoca_task_pool *pool = &ep->ctx.pools[COMCH_TASK_SEND];

	if (!softdoca_ctx_tasks_configured(&ep->ctx, COMCH_TASK_SEND))
		return;
	for (uint32_t i = 0; i < pool->capacity; i++) {
		struct doca_comch_task_send *t = (struct doca_comch_task_send *)(pool->mem + (size_t)i * pool->task_size);

		free(t->heap);
		t->heap = NULL;
		t->heap_cap = 0;
	}
}

doca_error_t comch_send_set_conf(struct comch_ep *ep, doca_comch_task_send_completion_cb_t ok_cb,
				 doca_comch_task_send_completion_cb_t err_cb, uint32_t num)
{
	doca_error_t err;

	if (ok_cb == NULL || err_cb == NULL) {
		SDK_LOG_ERR("Failed to configure Comch %s send tasks: the %s callback is NULL", ep->kind,
			    ok_cb == NULL ? "completion" : "error");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ep->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to configure Comch %s send tasks: the context is not idle; call "
			    "doca_comch_%s_task_send_set_conf() before doca_ctx_start()",
			    ep->kind, ep->kind);
		return DOCA_ERROR_BAD_STATE;
	}
	if (num == 0 || num > ep->caps->comch_max_send_tasks) {
		SDK_LOG_ERR("Failed to configure Comch %s send tasks: %u tasks requested, the device allows 1 to %u "
			    "(doca_comch_cap_get_max_send_tasks())",
			    ep->kind, num, ep->caps->comch_max_send_tasks);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_ctx_tasks_configured(&ep->ctx, COMCH_TASK_SEND) && ep->ctx.pools[COMCH_TASK_SEND].allocated) {
		SDK_LOG_ERR("Failed to configure Comch %s send tasks: tasks of the previous configuration are still "
			    "allocated; free them with doca_task_free() first",
			    ep->kind);
		return DOCA_ERROR_IN_USE;
	}
	comch_send_pool_free(ep);
	err = softdoca_ctx_conf_tasks(&ep->ctx, COMCH_TASK_SEND, "send", sizeof(struct doca_comch_task_send),
				      (doca_task_completion_cb_t)ok_cb, (doca_task_completion_cb_t)err_cb, num);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to configure Comch %s send tasks: out of memory for %u tasks", ep->kind, num);
	return err;
}

doca_error_t comch_send_alloc(struct comch_ep *ep, struct doca_comch_connection *peer, const void *msg, uint32_t len,
			      struct doca_comch_task_send **task)
{
	struct doca_comch_task_send *t;
	union doca_data none = {.u64 = 0};

	if (task == NULL || peer == NULL || (msg == NULL && len > 0)) {
		SDK_LOG_ERR("Failed to allocate Comch %s send task: %s is NULL", ep->kind,
			    task == NULL ? "the task output pointer" : peer == NULL ? "the connection" : "msg");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_ctx_tasks_configured(&ep->ctx, COMCH_TASK_SEND)) {
		SDK_LOG_ERR("Failed to allocate Comch %s send task: send tasks are not configured; call "
			    "doca_comch_%s_task_send_set_conf() before doca_ctx_start()",
			    ep->kind, ep->kind);
		return DOCA_ERROR_BAD_STATE;
	}
	if (!conn_belongs(ep, peer)) {
		SDK_LOG_ERR("Failed to allocate Comch %s send task: the connection is not one of this %s's (or it "
			    "was disconnected and released)",
			    ep->kind, ep->kind);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (peer->state == COMCH_CONN_HANDSHAKE) {
		SDK_LOG_ERR("Failed to allocate Comch %s send task: the connection is not established yet",
			    ep->kind);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (len > peer->max_msg) {
		SDK_LOG_ERR("Failed to allocate Comch %s send task: message of %u bytes exceeds the connection's "
			    "maximum of %u; split it, or raise both sides' limit with doca_comch_%s_set_max_msg_size() "
			    "(up to doca_comch_cap_get_max_msg_size())",
			    ep->kind, len, peer->max_msg, ep->kind);
		return DOCA_ERROR_INVALID_VALUE;
	}
	t = (struct doca_comch_task_send *)softdoca_task_alloc(&ep->ctx, COMCH_TASK_SEND, none);
	if (t == NULL) {
		SDK_LOG_DBG("Failed to allocate Comch %s send task: all %u tasks are in use; free tasks with "
			    "doca_task_free() or configure more with doca_comch_%s_task_send_set_conf()",
			    ep->kind, ep->ctx.pools[COMCH_TASK_SEND].capacity, ep->kind);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (len <= COMCH_INLINE_MSG) {
		t->msg = t->inline_msg;
	} else {
		if (t->heap_cap < len) {
			uint8_t *grown = realloc(t->heap, len);

			if (grown == NULL) {
				doca_task_free(&t->base);
				SDK_LOG_ERR("Failed to allocate Comch %s send task: out of memory for %u bytes", ep->kind,
					    len);
				return DOCA_ERROR_NO_MEMORY;
			}
			t->heap = grown;
			t->heap_cap = len;
		}
		t->msg = t->heap;
	}
	if (len > 0)
		memcpy(t->msg, msg, len);
	t->len = len;
	t->conn = peer;
	*task = t;
	return DOCA_SUCCESS;
}

struct doca_task *doca_comch_task_send_as_task(struct doca_comch_task_send *task)
{
	return task != NULL ? &task->base : NULL;
}
