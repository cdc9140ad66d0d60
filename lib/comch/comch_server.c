/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch_server: the DPU side of Comch. It listens on the card's rendezvous point for its
 * (host function, name) pair, accepts clients up to the device's limit, creates one shared
 * channel per client and reports connections and disconnections through its callbacks.
 */
#include <stdlib.h>
#include <string.h>

#include "comch_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH_SERVER);

static struct doca_comch_server *srv_of(struct doca_ctx *ctx)
{
	return (struct doca_comch_server *)ctx;
}

/* ---- handshake ---- */

static void reject(struct doca_comch_connection *conn, doca_error_t why, const char *reason)
{
	struct comch_wire_reject r = {0};

	comch_wire_init(&r.hdr, COMCH_WIRE_REJECT);
	r.error = why;
	snprintf(r.reason, sizeof(r.reason), "%s", reason);
	(void)comch_conn_send_ctrl(conn, &r, sizeof(r), NULL, 0);
	comch_conn_peer_gone(conn, why); /* never reported: freed silently */
}

static void server_handshake(struct doca_comch_connection *conn, const union comch_wire_msg *m, size_t len,
			     const int *fds, int nfds)
{
	struct doca_comch_server *srv = (struct doca_comch_server *)conn->ep;
	struct comch_ep *ep = &srv->ep;
	const struct comch_wire_hello *h = &m->hello;
	struct comch_wire_welcome w = {0};
	char reason[COMCH_REASON_LEN];
	int memfd, send_fds[2];
	doca_error_t err;

	(void)len;
	if (m->hdr.type != COMCH_WIRE_HELLO || conn->state != COMCH_CONN_HANDSHAKE || nfds != 1) {
		comch_conn_close_fds(conn, fds, nfds);
		comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_ABORTED);
		return;
	}
	if (ep->ctx.state != DOCA_CTX_STATE_RUNNING) {
		comch_conn_close_fds(conn, fds, nfds);
		reject(conn, DOCA_ERROR_NOT_CONNECTED, "the server is stopping");
		return;
	}
	if (srv->num_conns >= ep->caps->comch_max_clients) {
		comch_conn_close_fds(conn, fds, nfds);
		snprintf(reason, sizeof(reason), "the server serves its maximum of %u clients "
			 "(doca_comch_cap_get_max_clients())", ep->caps->comch_max_clients);
		SDK_LOG_ERR("Comch server '%s' refused a client: it serves its maximum of %u clients", ep->name,
			    ep->caps->comch_max_clients);
		reject(conn, DOCA_ERROR_FULL, reason);
		return;
	}
	if (h->max_msg_size == 0 || h->recv_queue_size == 0 || h->recv_queue_size > ep->caps->comch_max_recv_queue_size) {
		comch_conn_close_fds(conn, fds, nfds);
		reject(conn, DOCA_ERROR_INVALID_VALUE, "the client asked for limits the device does not support");
		return;
	}
	conn->max_msg = h->max_msg_size < ep->max_msg_size ? h->max_msg_size : ep->max_msg_size;
	err = ep->hw->chan_geom(conn->max_msg, h->recv_queue_size, ep->recv_queue_size, &w.geom);
	if (err == DOCA_SUCCESS)
		err = ep->hw->chan_create(&w.geom, &conn->ch, &memfd);
	if (err != DOCA_SUCCESS) {
		comch_conn_close_fds(conn, fds, nfds);
		SDK_LOG_ERR("Comch server '%s' refused a client: cannot create its shared channel (%s)", ep->name,
			    doca_error_get_name(err));
		reject(conn, err, "the server could not create the shared channel");
		return;
	}
	comch_conn_take_bell(conn, &conn->ch, fds[0]);
	comch_wire_init(&w.hdr, COMCH_WIRE_WELCOME);
	conn->id = w.conn_id = srv->next_conn_id++;
	send_fds[0] = memfd;
	send_fds[1] = ep->hw->bell_ringer(&ep->ctx.pe->bell_name, ep->ctx.pe->share_fd); /* the client rings our PE when we sleep */
	err = send_fds[1] >= 0 ? comch_conn_send_ctrl(conn, &w, sizeof(w), send_fds, 2) : DOCA_ERROR_OPERATING_SYSTEM;
	ep->hw->close(memfd);
	ep->hw->close(send_fds[1]);
	if (err != DOCA_SUCCESS) {
		comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_RESET);
		return;
	}
	conn->state = COMCH_CONN_UP;
	if (conn->admitted)
		ep->hw->settle(ep->port, &conn->peer); /* a client now: max_clients bounds it */
	conn->report_connect = true;
	conn->report_disconnect = true;
	srv->num_conns++;
}

/* A client the port's guard refused (another user, too many connections) reads why before it closes. */
static size_t server_reject_msg(void *buf, size_t room, doca_error_t why, const char *reason)
{
	struct comch_wire_reject r = {0};

	if (room < sizeof(r))
		return 0;
	comch_wire_init(&r.hdr, COMCH_WIRE_REJECT);
	r.error = why;
	snprintf(r.reason, sizeof(r.reason), "%s", reason);
	memcpy(buf, &r, sizeof(r));
	return sizeof(r);
}

/*
 * Connections the server keeps at most: its clients and some still in their handshake; and
 * connections one client process may have in their handshake (it says HELLO at once).
 */
#define SERVER_PENDING_MAX 64
#define SERVER_PENDING_PER_PEER 32

/* New clients: accepted now (as many as the port's guard admits), clients once their HELLO arrives. */
static void server_accept(struct comch_ep *ep)
{
	for (;;) {
		struct doca_comch_connection *conn;
		struct softhw_peer peer;
		int s;

		if (ep->hw->accept(ep->port, &s, &peer) != DOCA_SUCCESS)
			return; /* none waits any more, or the port backs off (it logged why) */
		conn = malloc(sizeof(*conn));
		if (conn == NULL) {
			SDK_LOG_ERR("Comch server '%s' dropped a client: out of memory", ep->name);
			ep->hw->release(ep->port, &peer);
			ep->hw->close(s);
			continue;
		}
		comch_conn_init(conn, ep, s);
		conn->admitted = true;
		conn->peer = peer;
		conn->deadline_ns = comch_now_ns() + ep->hello_timeout_ns;
		comch_ep_timer_by(ep, conn->deadline_ns); /* (comch_ep_poll gives up on it then) */
		conn->next = ep->conns;
		ep->conns = conn;
		comch_ep_watch(ep, s, (uint64_t)(uintptr_t)conn);
		/* The client says HELLO right after connecting: admit it now if it did. */
		comch_conn_read(conn, server_handshake);
	}
}

static void close_listener(struct doca_comch_server *srv)
{
	if (srv->ep.port != NULL)
		srv->ep.hw->unlisten(srv->ep.port);
}

/* ---- context ops ---- */

static doca_error_t server_start(struct doca_ctx *ctx)
{
	struct doca_comch_server *srv = srv_of(ctx);
	struct comch_ep *ep = &srv->ep;
	doca_error_t err;

	err = comch_ep_open(ep);
	if (err != DOCA_SUCCESS)
		return err;
	{
		const char *ms = getenv("SOFTDOCA_COMCH_HELLO_MS");
		unsigned long v = ms != NULL ? strtoul(ms, NULL, 10) : 0;

		ep->hello_timeout_ns = v > 0 && v <= 600000 ? v * 1000000ull : COMCH_HELLO_TIMEOUT_NS;
	}
	srv->admission = (struct softhw_comch_admission){
		.max_pending_per_peer = SERVER_PENDING_PER_PEER,
		.max_links = ep->caps->comch_max_clients + SERVER_PENDING_MAX,
		.reject_msg = server_reject_msg,
	};
	err = ep->hw->listen(ep->port, ep->card, ep->rendezvous, &srv->admission);
	if (err != DOCA_SUCCESS)
		comch_ep_close(ep);
	if (err == DOCA_ERROR_ALREADY_EXIST) {
		SDK_LOG_ERR("Failed to start Comch server '%s': another server with this name already serves host "
			    "function %s of this card; choose another name or stop the other server",
			    ep->name, srv->rep->info.rep->pci_addr);
		return err;
	}
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start Comch server '%s': cannot listen on the card's rendezvous point (%s)",
			    ep->name, doca_error_get_name(err));
		return DOCA_ERROR_INITIALIZATION;
	}
	srv->num_conns = 0;
	return DOCA_SUCCESS;
}

static doca_error_t server_stop(struct doca_ctx *ctx)
{
	struct doca_comch_server *srv = srv_of(ctx);
	struct comch_ep *ep = &srv->ep;

	close_listener(srv);
	for (struct doca_comch_connection *c = ep->conns; c != NULL; c = c->next) {
		if (c->state == COMCH_CONN_UP)
			comch_conn_bye(c);
		else if (c->state == COMCH_CONN_HANDSHAKE)
			comch_conn_peer_gone(c, DOCA_ERROR_NOT_CONNECTED);
		c->drop_rx = true;
	}
	if (ep->conns != NULL)
		return DOCA_ERROR_IN_PROGRESS; /* disconnections are reported from progress */
	comch_ep_close(ep);
	return DOCA_SUCCESS;
}

/*
 * Connection and disconnection callbacks, one per call; frees what was reported gone. The
 * consumers the peer of a dead connection still had expire first, one callback per call.
 */
static bool server_report(struct doca_comch_server *srv)
{
	struct comch_ep *ep = &srv->ep;
	struct doca_comch_connection **pp = &ep->conns;

	while (*pp != NULL) {
		struct doca_comch_connection *c = *pp;
		bool report, fp_owned;

		if (c->report_connect) {
			c->report_connect = false;
			if (srv->connect_cb != NULL) {
				ep->callbacks++;
				srv->connect_cb(&ep->status_event, c, 1);
			}
			return true;
		}
		if (c->state != COMCH_CONN_DEAD) {
			pp = &c->next;
			continue;
		}
		/* Still linked, so the connection stays valid whatever the callback does. */
		if (comch_fp_report_gone(c))
			return true;
		/* Its queued sends all completed already: they are ready as soon as it is not UP. */
		report = c->report_disconnect;
		*pp = c->next;
		if (ep->cursor == c)
			ep->cursor = NULL;
		/*
		 * Settled before the callback, which may stop the server and destroy it from the IDLE
		 * state callback (refused while producers / consumers remain), or destroy the last
		 * producer / consumer (which then frees the connection).
		 */
		fp_owned = c->fp_refs > 0;
		if (fp_owned) {
			/* Producers / consumers still point at it: the last of them frees it. */
			c->orphan = true;
			ep->fp_orphans++;
		}
		if (report) {
			srv->num_conns--;
			if (srv->disconnect_cb != NULL) {
				ep->callbacks++;
				srv->disconnect_cb(&ep->status_event, c, 1);
			}
		}
		if (!fp_owned) {
			comch_fp_conn_release(c);
			free(c);
		}
		if (report)
			return true;
	}
	return false;
}

static bool server_step(struct doca_ctx *ctx)
{
	struct doca_comch_server *srv = srv_of(ctx);
	struct comch_ep *ep = &srv->ep;

	if (server_report(srv))
		return true;
	if (comch_conn_deliver(ep, server_handshake))
		return true;
	if (comch_ep_service_needed(ep)) {
		if (comch_ep_poll(ep, server_accept, server_handshake))
			return true;
	}
	if (comch_fp_progress(ep))
		return true;
	if (ctx->state == DOCA_CTX_STATE_STOPPING && ctx->lib_busy && ep->conns == NULL) {
		comch_ep_close(ep);
		ctx->lib_busy = false;
		return true;
	}
	return false;
}

static bool server_progress(struct doca_ctx *ctx)
{
	return comch_ep_progress(ctx, server_step);
}

static bool server_arm(struct doca_ctx *ctx)
{
	return comch_ep_arm(comch_ep_of(ctx));
}

const struct softdoca_ctx_ops comch_server_ops = {
	.name = "Comch server",
	.start = server_start,
	.stop = server_stop,
	.progress = server_progress,
	.arm = server_arm,
	.check = comch_send_check,
	.prepare = comch_send_prepare,
};

/* ---- public API ---- */

static bool name_ok(const char *who, const struct softhw_caps *caps, const char *name)
{
	size_t len;

	if (name == NULL) {
		SDK_LOG_ERR("Failed to create Comch %s: name is NULL", who);
		return false;
	}
	len = strnlen(name, caps->comch_max_name_len);
	if (len == 0 || len >= caps->comch_max_name_len) {
		SDK_LOG_ERR("Failed to create Comch %s: the server name is %s; it must have 1 to %u characters "
			    "(doca_comch_cap_get_max_name_len() counts the NUL too)",
			    who, len == 0 ? "empty" : "too long", caps->comch_max_name_len - 1);
		return false;
	}
	return true;
}

doca_error_t doca_comch_server_create(struct doca_dev *dev, struct doca_dev_rep *repr, const char *name,
				      struct doca_comch_server **comch_server)
{
	struct doca_comch_server *srv;

	if (dev == NULL || repr == NULL || comch_server == NULL) {
		SDK_LOG_ERR("Failed to create Comch server: %s is NULL",
			    dev == NULL ? "dev" : repr == NULL ? "repr" : "the server output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->comch_server) {
		SDK_LOG_ERR("Failed to create Comch server: device %s cannot host a server; servers run on the DPU "
			    "side of a BlueField (check doca_comch_cap_server_is_supported())",
			    dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (repr->info.parent != dev) {
		SDK_LOG_ERR("Failed to create Comch server: the representor does not belong to device %s; open it "
			    "from a representor list of that device",
			    dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!name_ok("server", softdoca_dev_caps(dev), name))
		return DOCA_ERROR_INVALID_VALUE;
	srv = calloc(1, sizeof(*srv));
	if (srv == NULL) {
		SDK_LOG_ERR("Failed to create Comch server: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	comch_ep_init(&srv->ep, dev, name, repr->info.rep->pci_addr, true, &comch_server_ops);
	srv->rep = repr;
	*comch_server = srv;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_destroy(struct doca_comch_server *comch_server)
{
	if (comch_server == NULL) {
		SDK_LOG_ERR("Failed to destroy Comch server: server is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (comch_server->ep.ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy Comch server '%s': it is not idle; call doca_ctx_stop() and progress "
			    "the PE until the context is IDLE",
			    comch_server->ep.name);
		return DOCA_ERROR_IN_USE;
	}
	if (comch_server->ep.fp_orphans > 0) {
		SDK_LOG_ERR("Failed to destroy Comch server '%s': producers or consumers of its connections still "
			    "exist; destroy them first",
			    comch_server->ep.name);
		return DOCA_ERROR_IN_USE;
	}
	comch_ep_fini(&comch_server->ep);
	comch_ep_free(&comch_server->ep); /* from a callback inside its progress: when that returns */
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_cap_server_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("Comch capability query: devinfo is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return softdoca_devinfo_caps(devinfo)->comch_server ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

/* Setters share their checks: the object, the state, the range. */
static doca_error_t server_settable(const struct doca_comch_server *srv, const char *what)
{
	if (srv == NULL) {
		SDK_LOG_ERR("Failed to set Comch server %s: server is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (srv->ep.ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to set Comch server %s: the context is started; set it before doca_ctx_start()",
			    what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_set_max_msg_size(struct doca_comch_server *comch_server, uint32_t size)
{
	doca_error_t err = server_settable(comch_server, "max message size");

	if (err != DOCA_SUCCESS)
		return err;
	if (size == 0 || size > comch_server->ep.caps->comch_max_msg_size) {
		SDK_LOG_ERR("Failed to set Comch server max message size %u: the device allows 1 to %u "
			    "(doca_comch_cap_get_max_msg_size())",
			    size, comch_server->ep.caps->comch_max_msg_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_server->ep.max_msg_size = size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_get_max_msg_size(const struct doca_comch_server *comch_server, uint32_t *size)
{
	if (comch_server == NULL || size == NULL) {
		SDK_LOG_ERR("Failed to get Comch server max message size: %s is NULL",
			    comch_server == NULL ? "server" : "size");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*size = comch_server->ep.max_msg_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_set_recv_queue_size(struct doca_comch_server *comch_server, uint32_t size)
{
	doca_error_t err = server_settable(comch_server, "receive queue size");

	if (err != DOCA_SUCCESS)
		return err;
	if (size == 0 || size > comch_server->ep.caps->comch_max_recv_queue_size) {
		SDK_LOG_ERR("Failed to set Comch server receive queue size %u: the device allows 1 to %u "
			    "(doca_comch_cap_get_max_recv_queue_size())",
			    size, comch_server->ep.caps->comch_max_recv_queue_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_server->ep.recv_queue_size = size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_get_recv_queue_size(const struct doca_comch_server *comch_server, uint32_t *size)
{
	if (comch_server == NULL || size == NULL) {
		SDK_LOG_ERR("Failed to get Comch server receive queue size: %s is NULL",
			    comch_server == NULL ? "server" : "size");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*size = comch_server->ep.recv_queue_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_get_device(const struct doca_comch_server *comch_server, struct doca_dev **dev)
{
	if (comch_server == NULL || dev == NULL) {
		SDK_LOG_ERR("Failed to get Comch server device: %s is NULL", comch_server == NULL ? "server" : "dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dev = comch_server->ep.dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_get_device_rep(const struct doca_comch_server *comch_server, struct doca_dev_rep **rep)
{
	if (comch_server == NULL || rep == NULL) {
		SDK_LOG_ERR("Failed to get Comch server representor: %s is NULL", comch_server == NULL ? "server" : "rep");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*rep = comch_server->rep;
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_comch_server_as_ctx(struct doca_comch_server *comch_server)
{
	return comch_server != NULL ? &comch_server->ep.ctx : NULL;
}

doca_error_t doca_comch_server_disconnect(struct doca_comch_server *comch_server,
					  struct doca_comch_connection *connection)
{
	struct doca_comch_connection *c;

	if (comch_server == NULL || connection == NULL) {
		SDK_LOG_ERR("Failed to disconnect Comch client: %s is NULL", comch_server == NULL ? "server" : "connection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (c = comch_server->ep.conns; c != NULL && c != connection; c = c->next)
		;
	if (c == NULL || c->state != COMCH_CONN_UP) {
		SDK_LOG_ERR("Failed to disconnect Comch client: the connection is not an established connection of "
			    "server '%s' (already disconnected?)",
			    comch_server->ep.name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (comch_fp_conn_busy(c)) {
		SDK_LOG_ERR("Failed to disconnect Comch client: producers or consumers still use the connection; "
			    "stop and destroy them first");
		return DOCA_ERROR_IN_USE;
	}
	comch_conn_bye(c);
	if (c->state == COMCH_CONN_PEER_GONE)
		return DOCA_SUCCESS; /* the peer was gone already: reported from progress */
	softdoca_pe_notify(comch_server->ep.ctx.pe);
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_task_send_set_conf(struct doca_comch_server *comch_server,
						  doca_comch_task_send_completion_cb_t task_completion_cb,
						  doca_comch_task_send_completion_cb_t task_error_cb, uint32_t num_send_tasks)
{
	if (comch_server == NULL) {
		SDK_LOG_ERR("Failed to configure Comch server send tasks: server is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return comch_send_set_conf(&comch_server->ep, task_completion_cb, task_error_cb, num_send_tasks);
}

doca_error_t doca_comch_server_task_send_alloc_init(struct doca_comch_server *comch_server,
						    struct doca_comch_connection *peer, const void *msg, uint32_t len,
						    struct doca_comch_task_send **task)
{
	if (comch_server == NULL) {
		SDK_LOG_ERR("Failed to allocate Comch server send task: server is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return comch_send_alloc(&comch_server->ep, peer, msg, len, task);
}

doca_error_t doca_comch_server_event_msg_recv_register(struct doca_comch_server *comch_server,
						       doca_comch_event_msg_recv_cb_t recv_event_cb)
{
	doca_error_t err = server_settable(comch_server, "receive callback");

	if (err != DOCA_SUCCESS)
		return err;
	if (recv_event_cb == NULL) {
		SDK_LOG_ERR("Failed to register Comch server receive callback: it is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_server->ep.recv_cb = recv_event_cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_event_connection_status_changed_register(
	struct doca_comch_server *comch_server, doca_comch_event_connection_status_changed_cb_t connect_event_cb,
	doca_comch_event_connection_status_changed_cb_t disconnect_event_cb)
{
	doca_error_t err = server_settable(comch_server, "connection callbacks");

	if (err != DOCA_SUCCESS)
		return err;
	if (connect_event_cb == NULL || disconnect_event_cb == NULL) {
		SDK_LOG_ERR("Failed to register Comch server connection callbacks: the %s callback is NULL",
			    connect_event_cb == NULL ? "connect" : "disconnect");
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_server->connect_cb = connect_event_cb;
	comch_server->disconnect_cb = disconnect_event_cb;
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_server_event_consumer_register(struct doca_comch_server *comch_server,
						       doca_comch_event_consumer_cb_t new_consumer_event_cb,
						       doca_comch_event_consumer_cb_t expired_consumer_event_cb)
{
	doca_error_t err = server_settable(comch_server, "consumer callbacks");

	if (err != DOCA_SUCCESS)
		return err;
	if (new_consumer_event_cb == NULL || expired_consumer_event_cb == NULL) {
		SDK_LOG_ERR("Failed to register Comch server consumer callbacks: the %s callback is NULL",
			    new_consumer_event_cb == NULL ? "new consumer" : "expired consumer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	comch_server->ep.new_consumer_cb = new_consumer_event_cb;
	comch_server->ep.expired_consumer_cb = expired_consumer_event_cb;
	return DOCA_SUCCESS;
}
