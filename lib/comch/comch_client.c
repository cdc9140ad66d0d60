/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch_client: the host side of Comch. doca_ctx_start returns IN_PROGRESS; the client
 * connects to the server of its name behind its own host function (retrying while there is
 * none, from every COMCH_RETRY_NS to every COMCH_RETRY_MAX_NS) and becomes RUNNING inside
 * doca_pe_progress once the
 * server admitted it. If the server leaves, the client context stops by itself.
 */
#include <string.h>

#include "comch_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH_CLIENT);

static struct doca_comch_client *cl_of(struct doca_ctx *ctx)
{
	return (struct doca_comch_client *)ctx;
}

/* The next attempt after the retry period as it stands (it grows with each miss). */
static void retry_later(struct doca_comch_client *cl)
{
	cl->next_retry_ns = comch_coarse_ns() + (cl->ep.retry_ns != 0 ? cl->ep.retry_ns : COMCH_RETRY_NS);
}

/* Back to "not connected"; the next attempt comes after the retry period. */
static void client_reset(struct doca_comch_client *cl)
{
	struct comch_ep *ep = &cl->ep;

	if (cl->conn.state != COMCH_CONN_DEAD && (cl->conn.sock >= 0 || softhw_chan_mapped(&cl->conn.ch)))
		comch_conn_teardown(&cl->conn);
	comch_fp_conn_release(&cl->conn);
	comch_conn_init(&cl->conn, ep, -1);
	ep->conns = &cl->conn;
	ep->cursor = NULL;
	retry_later(cl);
}

/* One connection attempt: connect and say HELLO; the server answers from its progress. */
static bool client_try_connect(struct doca_comch_client *cl)
{
	struct comch_ep *ep = &cl->ep;
	struct comch_wire_hello h = {0};
	doca_error_t err;
	int s, bell;

	retry_later(cl);
	err = ep->hw->connect(ep->card, ep->rendezvous, &s);
	if (err == DOCA_ERROR_NOT_PERMITTED) { /* another user's process holds the name (logged): STARTING ends */
		cl->start_failure = err;
		comch_conn_peer_gone(&cl->conn, err);
		return false;
	}
	if (err != DOCA_SUCCESS) {
		if (!cl->announced_wait) {
			SDK_LOG_DBG("Comch client: no server '%s' yet behind host function %s; retrying from every %llu ms "
				    "to every %llu ms",
				    ep->name, ep->dev->devinfo->fn->pci_addr, (unsigned long long)(COMCH_RETRY_NS / 1000000ull),
				    (unsigned long long)(COMCH_RETRY_MAX_NS / 1000000ull));
			cl->announced_wait = true;
		}
		/* missed again: wait twice as long next time, up to the cap */
		if (ep->retry_ns != 0 && ep->retry_ns < COMCH_RETRY_MAX_NS)
			ep->retry_ns = ep->retry_ns * 2 < COMCH_RETRY_MAX_NS ? ep->retry_ns * 2 : COMCH_RETRY_MAX_NS;
		return false;
	}
	cl->conn.sock = s;
	comch_wire_init(&h.hdr, COMCH_WIRE_HELLO);
	h.max_msg_size = ep->max_msg_size;
	h.recv_queue_size = ep->recv_queue_size;
	h.pid = (int32_t)getpid();
	/* a ringing end of our PE's notification for this server alone (base/bell.h) */
	bell = ep->hw->bell_ringer(&ep->ctx.pe->bell_name, ep->ctx.pe->share_fd);
	err = bell >= 0 ? comch_conn_send_ctrl(&cl->conn, &h, sizeof(h), &bell, 1) : DOCA_ERROR_OPERATING_SYSTEM;
	ep->hw->close(bell);
	if (err != DOCA_SUCCESS) {
		ep->hw->close(s);
		cl->conn.sock = -1;
		return false;
	}
	comch_ep_watch(ep, s, (uint64_t)(uintptr_t)&cl->conn);
	return true;
}

static void client_handshake(struct doca_comch_connection *conn, const union comch_wire_msg *m, size_t len,
			     const int *fds, int nfds)
{
	struct doca_comch_client *cl = (struct doca_comch_client *)conn->ep;
	struct comch_ep *ep = &cl->ep;
	const struct softhw_chan_geom *g = &m->welcome.geom;
	doca_error_t err;

	(void)len;
	if (conn->state != COMCH_CONN_HANDSHAKE || m->hdr.type == COMCH_WIRE_HELLO) {
		comch_conn_close_fds(conn, fds, nfds);
		comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	if (m->hdr.type == COMCH_WIRE_REJECT) {
		comch_conn_close_fds(conn, fds, nfds);
		SDK_LOG_ERR("Comch client: server '%s' refused the connection: %.*s", ep->name,
			    (int)sizeof(m->reject.reason), m->reject.reason);
		cl->start_failure = m->reject.error != DOCA_SUCCESS ? (doca_error_t)m->reject.error
								    : DOCA_ERROR_CONNECTION_ABORTED;
		comch_conn_peer_gone(conn, cl->start_failure);
		return;
	}
	/* WELCOME: map the segment the server made for us, if it is what we asked for. */
	if (nfds != 2 || g->max_msg > ep->max_msg_size || g->limit[SOFTHW_CHAN_A_TO_B] != ep->recv_queue_size ||
	    g->limit[SOFTHW_CHAN_B_TO_A] > ep->caps->comch_max_recv_queue_size) {
		comch_conn_close_fds(conn, fds, nfds);
		SDK_LOG_ERR("Comch client: server '%s' answered with an unexpected channel; not connecting", ep->name);
		comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	err = ep->hw->chan_attach(fds[0], g, &conn->ch);
	ep->hw->close(fds[0]);
	if (err != DOCA_SUCCESS) {
		ep->hw->close(fds[1]);
		SDK_LOG_ERR("Comch client: cannot map the channel of server '%s' (%s)", ep->name, doca_error_get_name(err));
		comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	comch_conn_take_bell(conn, &conn->ch, fds[1]);
	conn->max_msg = g->max_msg;
	conn->id = m->welcome.conn_id;
	conn->state = COMCH_CONN_UP;
	comch_ep_timer(ep, false);
	ep->keep_timer = false;
}

/* ---- context ops ---- */

static doca_error_t client_start(struct doca_ctx *ctx)
{
	struct doca_comch_client *cl = cl_of(ctx);
	doca_error_t err;

	if (cl->conn.fp_refs > 0) {
		SDK_LOG_ERR("Failed to start Comch client '%s': producers or consumers of its previous connection still "
			    "exist; destroy them first",
			    cl->ep.name);
		return DOCA_ERROR_IN_USE;
	}
	err = comch_ep_open(&cl->ep);
	if (err != DOCA_SUCCESS)
		return err;
	client_reset(cl);
	cl->announced_wait = false;
	cl->start_failure = DOCA_SUCCESS;
	/* The tick keeps a sleeping PE retrying until a server answers. */
	cl->ep.keep_timer = true;
	comch_ep_timer(&cl->ep, true);
	client_try_connect(cl);
	return DOCA_ERROR_IN_PROGRESS;
}

static doca_error_t client_stop(struct doca_ctx *ctx)
{
	struct doca_comch_client *cl = cl_of(ctx);
	struct comch_ep *ep = &cl->ep;
	struct doca_comch_connection *c = &cl->conn;

	ep->keep_timer = false;
	switch (c->state) {
	case COMCH_CONN_HANDSHAKE:
		if (ctx->state == DOCA_CTX_STATE_STARTING)
			SDK_LOG_ERR("Comch client stopped before it connected: no server '%s' admitted it behind host "
				    "function %s; start the server (DPU side, same name and representor) first",
				    ep->name, ep->dev->devinfo->fn->pci_addr);
		comch_conn_teardown(c);
		break;
	case COMCH_CONN_UP:
		comch_conn_bye(c);
		if (c->state == COMCH_CONN_CLOSING)
			return DOCA_ERROR_IN_PROGRESS;
		comch_conn_teardown(c);
		break;
	case COMCH_CONN_CLOSING:
		return DOCA_ERROR_IN_PROGRESS;
	case COMCH_CONN_PEER_GONE:
		c->drop_rx = true;
		comch_conn_teardown(c);
		break;
	case COMCH_CONN_DEAD:
		break;
	}
	if (ctx->state == DOCA_CTX_STATE_STARTING) {
		comch_ep_close(ep);
		return DOCA_SUCCESS;
	}
	/* A connected client always passes through STOPPING, as on DOCA, even when the server
	 * left first: progress closes the endpoint and IDLE follows. */
	return DOCA_ERROR_IN_PROGRESS;
}

static bool client_step(struct doca_ctx *ctx)
{
	struct doca_comch_client *cl = cl_of(ctx);
	struct comch_ep *ep = &cl->ep;
	struct doca_comch_connection *c = &cl->conn;

	if (comch_conn_deliver(ep, client_handshake))
		return true;
	if (ctx->state == DOCA_CTX_STATE_STARTING) {
		if (c->state == COMCH_CONN_HANDSHAKE && c->sock < 0 && comch_coarse_ns() >= cl->next_retry_ns &&
		    client_try_connect(cl))
			return true;
		/* Waiting for WELCOME (the server answers from its own progress): look at every call,
		 * set-up is short; without a socket, only as often as the service period. */
		if ((c->sock >= 0 || comch_ep_service_needed(ep)) && comch_ep_poll(ep, NULL, client_handshake)) {
			if (c->state == COMCH_CONN_UP) {
				softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_RUNNING);
				return true;
			}
		}
		if (c->state == COMCH_CONN_PEER_GONE || c->state == COMCH_CONN_DEAD) {
			if (cl->start_failure != DOCA_SUCCESS) {
				/* Refused: STARTING ends; the context stops by itself. */
				comch_conn_teardown(c);
				comch_ep_close(ep);
				ctx->lib_busy = false;
				softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_STOPPING);
				return true;
			}
			client_reset(cl); /* the server went away mid-handshake: try again later */
		}
		return false;
	}
	if (comch_ep_service_needed(ep) && comch_ep_poll(ep, NULL, client_handshake))
		return true;
	if (comch_fp_progress(ep))
		return true;
	if (ctx->state == DOCA_CTX_STATE_RUNNING && c->state == COMCH_CONN_DEAD) {
		SDK_LOG_WARN("Comch client: server '%s' closed the connection (%s); the client context stops",
			     ep->name, doca_error_get_name(c->reset_status));
		comch_ep_close(ep);
		ctx->lib_busy = false;
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_STOPPING);
		return true;
	}
	if (ctx->state == DOCA_CTX_STATE_STOPPING && ctx->lib_busy && c->state == COMCH_CONN_DEAD) {
		comch_ep_close(ep);
		ctx->lib_busy = false;
		return true;
	}
	return false;
}

static bool client_progress(struct doca_ctx *ctx)
{
	return comch_ep_progress(ctx, client_step);
}

static bool client_arm(struct doca_ctx *ctx)
{
	return comch_ep_arm(comch_ep_of(ctx));
}

const struct softdoca_ctx_ops comch_client_ops = {
	.name = "Comch client",
	.start = client_start,
	.stop = client_stop,
	.progress = client_progress,
	.arm = client_arm,
	.check = comch_send_check,
	.prepare = comch_send_prepare,
};

/* ---- public API ---- */

doca_error_t doca_comch_client_create(struct doca_dev *dev, const char *name, struct doca_comch_client **comch_client)
{
	struct doca_comch_client *cl;
	const struct softhw_caps *caps;
	size_t len;

	if (dev == NULL || name == NULL || comch_client == NULL) {
		SDK_LOG_ERR("Failed to create Comch client: %s is NULL",
			    dev == NULL ? "dev" : name == NULL ? "name" : "the client output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	caps = softdoca_dev_caps(dev);
	if (!caps->comch_client) {
		SDK_LOG_ERR("Failed to create Comch client: device %s cannot run a client; clients run on the host "
			    "side of a BlueField (check doca_comch_cap_client_is_supported())",
			    dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	len = strnlen(name, caps->comch_max_name_len);
	if (len == 0 || len >= caps->comch_max_name_len) {
		SDK_LOG_ERR("Failed to create Comch client: the server name is %s; it must have 1 to %u characters "
			    "(doca_comch_cap_get_max_name_len() counts the NUL too)",
			    len == 0 ? "empty" : "too long", caps->comch_max_name_len - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cl = calloc(1, sizeof(*cl));
	if (cl == NULL) {
		SDK_LOG_ERR("Failed to create Comch client: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	comch_ep_init(&cl->ep, dev, name, dev->devinfo->fn->pci_addr, false, &comch_client_ops);
	comch_conn_init(&cl->conn, &cl->ep, -1);
	cl->conn.state = COMCH_CONN_DEAD; /* no connection before start */
	*comch_client = cl;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_destroy(struct doca_comch_client *comch_client)
{
	if (comch_client == NULL) {
		SDK_LOG_ERR("Failed to destroy Comch client: client is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (comch_client->ep.ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy Comch client '%s': it is not idle; call doca_ctx_stop() and progress "
			    "the PE until the context is IDLE",
			    comch_client->ep.name);
		return DOCA_ERROR_IN_USE;
	}
	if (comch_client->conn.fp_refs > 0) {
		SDK_LOG_ERR("Failed to destroy Comch client '%s': producers or consumers of its connection still "
			    "exist; destroy them first",
			    comch_client->ep.name);
		return DOCA_ERROR_IN_USE;
	}
	comch_fp_conn_release(&comch_client->conn);
	comch_ep_fini(&comch_client->ep);
	comch_ep_free(&comch_client->ep); /* from a callback inside its progress: when that returns */
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_cap_client_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("Comch capability query: devinfo is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return softdoca_devinfo_caps(devinfo)->comch_client ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

static doca_error_t client_settable(const struct doca_comch_client *cl, const char *what)
{
	if (cl == NULL) {
		SDK_LOG_ERR("Failed to set Comch client %s: client is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cl->ep.ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to set Comch client %s: the context is started; set it before doca_ctx_start()",
			    what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_set_max_msg_size(struct doca_comch_client *comch_client, uint32_t size)
{
	doca_error_t err = client_settable(comch_client, "max message size");

	if (err != DOCA_SUCCESS)
		return err;
	if (size == 0 || size > comch_client->ep.caps->comch_max_msg_size) {
		SDK_LOG_ERR("Failed to set Comch client max message size %u: the device allows 1 to %u "
			    "(doca_comch_cap_get_max_msg_size())",
			    size, comch_client->ep.caps->comch_max_msg_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_client->ep.max_msg_size = size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_get_max_msg_size(const struct doca_comch_client *comch_client, uint32_t *size)
{
	if (comch_client == NULL || size == NULL) {
		SDK_LOG_ERR("Failed to get Comch client max message size: %s is NULL",
			    comch_client == NULL ? "client" : "size");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*size = comch_client->ep.max_msg_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_set_recv_queue_size(struct doca_comch_client *comch_client, uint32_t size)
{
	doca_error_t err = client_settable(comch_client, "receive queue size");

	if (err != DOCA_SUCCESS)
		return err;
	if (size == 0 || size > comch_client->ep.caps->comch_max_recv_queue_size) {
		SDK_LOG_ERR("Failed to set Comch client receive queue size %u: the device allows 1 to %u "
			    "(doca_comch_cap_get_max_recv_queue_size())",
			    size, comch_client->ep.caps->comch_max_recv_queue_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_client->ep.recv_queue_size = size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_get_recv_queue_size(const struct doca_comch_client *comch_client, uint32_t *size)
{
	if (comch_client == NULL || size == NULL) {
		SDK_LOG_ERR("Failed to get Comch client receive queue size: %s is NULL",
			    comch_client == NULL ? "client" : "size");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*size = comch_client->ep.recv_queue_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_get_device(const struct doca_comch_client *comch_client, struct doca_dev **dev)
{
	if (comch_client == NULL || dev == NULL) {
		SDK_LOG_ERR("Failed to get Comch client device: %s is NULL", comch_client == NULL ? "client" : "dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dev = comch_client->ep.dev;
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_client_as_ctx(struct doca_comch_client *comch_client)
{
	return comch_client != NULL ? &comch_client->ep.ctx : NULL;
}

doca_error_t doca_comch_client_get_connection(const struct doca_comch_client *comch_client,
					      struct doca_comch_connection **connection)
{
	if (comch_client == NULL || connection == NULL) {
		SDK_LOG_ERR("Failed to get Comch client connection: %s is NULL",
			    comch_client == NULL ? "client" : "connection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (comch_client->ep.ctx.state != DOCA_CTX_STATE_RUNNING || comch_client->conn.state != COMCH_CONN_UP) {
		SDK_LOG_ERR("Failed to get Comch client connection: the client is not connected; wait for the "
			    "RUNNING state (doca_ctx_start() returns IN_PROGRESS, progress the PE)");
		return DOCA_ERROR_BAD_STATE;
	}
	*connection = (struct doca_comch_connection *)&comch_client->conn;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_task_send_set_conf(struct doca_comch_client *comch_client,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks)
{
	if (comch_client == NULL) {
		SDK_LOG_ERR("Failed to configure Comch client send tasks: client is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return comch_send_set_conf(&comch_client->ep, task_completion_cb, task_error_cb, num_send_tasks);
}

doca_error_t doca_comch_client_task_send_alloc_init(struct doca_comch_client *comch_client,
						    struct doca_comch_connection *peer, const void *msg, uint32_t len,
						    struct doca_comch_task_send **task)
{
	if (comch_client == NULL) {
		SDK_LOG_ERR("Failed to allocate Comch client send task: client is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return comch_send_alloc(&comch_client->ep, peer, msg, len, task);
}

doca_error_t doca_comch_client_event_msg_recv_register(struct doca_comch_client *comch_client,
						       doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	doca_error_t err = client_settable(comch_client, "receive callback");

	if (err != DOCA_SUCCESS)
		return err;
	if (recv_event_cb == NULL) {
		SDK_LOG_ERR("Failed to register Comch client receive callback: it is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_client->ep.recv_cb = recv_event_cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_client_event_consumer_register(struct doca_comch_client *comch_client,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	doca_error_t err = client_settable(comch_client, "consumer callbacks");

	if (err != DOCA_SUCCESS)
		return err;
	if (new_consumer_event_cb == NULL || expired_consumer_event_cb == NULL) {
		SDK_LOG_ERR("Failed to register Comch client consumer callbacks: the %s callback is NULL",
			    new_consumer_event_cb == NULL ? "new consumer" : "expired consumer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_client->ep.new_consumer_cb = new_consumer_event_cb;
	comch_client->ep.expired_consumer_cb = expired_consumer_event_cb;
	return DOCA_SUCCESS;
}
