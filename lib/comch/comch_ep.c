/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The endpoint core shared by the Comch server and client: its port (links and timer of the
 * Comch transport, softhw/comch/comch.h), sleeping with the PE, connections (control messages,
 * liveness, teardown) and message delivery.
 *
 * Hot path: a message is a record in the connection's shared-memory ring; delivering it is a
 * few loads and stores inside doca_pe_progress. Links carry only set-up and control, and are
 * looked at no more than once per COMCH_SERVICE_NS while polling, at once when a peer hints
 * through the ring that it sent a control message, and through the waker thread while the PE
 * sleeps (a peer's death closes its link, which wakes us).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "comch_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH);

uint64_t comch_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A few nanoseconds (vDSO, no fence): good enough for throttling. */
uint64_t comch_coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void comch_wire_init(struct comch_wire_hdr *hdr, enum comch_wire_type type)
{
	hdr->magic = COMCH_WIRE_MAGIC;
	hdr->version = COMCH_WIRE_VERSION;
	hdr->type = (uint16_t)type;
}

/* Length and header of a received control message; the peer is another process. */
bool comch_wire_valid(const union comch_wire_msg *m, size_t len)
{
	size_t need;

	if (len < sizeof(m->hdr) || m->hdr.magic != COMCH_WIRE_MAGIC || m->hdr.version != COMCH_WIRE_VERSION)
		return false;
	switch (m->hdr.type) {
	case COMCH_WIRE_HELLO:
		need = sizeof(m->hello);
		break;
	case COMCH_WIRE_WELCOME:
		need = sizeof(m->welcome);
		break;
	case COMCH_WIRE_REJECT:
		need = sizeof(m->reject);
		break;
	case COMCH_WIRE_BYE:
		need = sizeof(m->hdr);
		break;
	case COMCH_WIRE_CONSUMER_NEW:
	case COMCH_WIRE_CONSUMER_ACK:
	case COMCH_WIRE_CONSUMER_GONE:
		need = sizeof(m->consumer);
		break;
	default:
		return false;
	}
	return len == need;
}

/* ---- endpoint lifetime ---- */

void comch_ep_init(struct comch_ep *ep, struct doca_dev *dev, const char *name, const char *host_pci, bool is_server,
		   const struct softdoca_ctx_ops *ops)
{
	softdoca_ctx_init(&ep->ctx, dev, ops);
	ep->is_server = is_server;
	ep->kind = is_server ? "server" : "client";
	ep->dev = dev;
	ep->caps = softdoca_dev_caps(dev);
	ep->card = dev->devinfo->fn->card;
	ep->hw = dev->comch;
	snprintf(ep->name, sizeof(ep->name), "%s", name);
	snprintf(ep->rendezvous, sizeof(ep->rendezvous), "%s/%s", host_pci, name);
	ep->max_msg_size = ep->caps->comch_max_msg_size;
	ep->recv_queue_size = ep->caps->comch_max_recv_queue_size < 64 ? ep->caps->comch_max_recv_queue_size : 64;
	ep->port = NULL;
	softdoca_dev_hold(dev);
}

void comch_ep_fini(struct comch_ep *ep)
{
	comch_send_pool_free(ep);
	softdoca_ctx_fini(&ep->ctx);
	softdoca_dev_release(ep->dev);
}

/*
 * DOCA code stops a context from its callbacks and destroys it from the IDLE state callback,
 * which doca_ctx_stop may run at once (a client whose server is gone, a server whose last
 * client left). Callbacks of the endpoint run inside its progress step, whose callers still
 * look at the endpoint and the connection when the callback returns: the memory is freed when
 * the step unwinds, as doca_pe_progress does for a PE destroyed inside its own callback.
 */
void comch_ep_free(struct comch_ep *ep)
{
	if (ep->in_progress > 0) {
		ep->destroyed = true;
		return;
	}
	free(ep);
}

/*
 * One doca_pe_progress of the endpoint: steps until one runs a callback of the program (an
 * event, a state change) or finds nothing to do, or a task waits in the context's queue. A step
 * that only moved things inside softdoca (read a link, retired a connection whose peer left,
 * closed the endpoint of a stopping context) ends no progress call and is no progress for the
 * program: a program that progresses once a second (DOCA's sync event samples wait for the
 * disconnection that way) would otherwise see its peer's BYE three seconds late, and a stopping
 * client reach IDLE a second after its last step. True when the program saw something (or
 * the context is gone, or eight steps were not enough: the caller comes back).
 */
#define COMCH_STEPS_PER_PROGRESS 8

bool comch_ep_progress(struct doca_ctx *ctx, bool (*step)(struct doca_ctx *ctx))
{
	struct comch_ep *ep = comch_ep_of(ctx);
	bool seen = true;

	ep->in_progress++;
	for (int i = 0; i < COMCH_STEPS_PER_PROGRESS; i++) {
		uint32_t callbacks = ep->callbacks;
		enum doca_ctx_states state = ctx->state;

		if (!step(ctx)) {
			seen = false;
			break;
		}
		/* (queued tasks go first, as they would have in the next call: a send that the step
		 * failed completes with its own status before a stop flushes the rest) */
		if (ep->destroyed || ep->callbacks != callbacks || ctx->state != state ||
		    ctx->queue.depth > ctx->queue.parked)
			break;
	}
	if (--ep->in_progress == 0 && ep->destroyed) {
		free(ep);
		return true; /* something happened, and the caller must not look at the context again */
	}
	return seen;
}

/* Called by the waker thread when a link or the timer of a sleeping endpoint is readable. */
static void ep_wake(void *arg)
{
	struct comch_ep *ep = arg;

	__atomic_store_n(&ep->service_due, 1, __ATOMIC_RELEASE);
	softdoca_pe_notify(ep->ctx.pe);
}

/* The port of a started endpoint: its links, its timer, its waker registration (failures are logged). */
doca_error_t comch_ep_open(struct comch_ep *ep)
{
	char label[200];
	doca_error_t err;

	snprintf(label, sizeof(label), "Comch %s '%s'", ep->kind, ep->name);
	err = ep->hw->port_open(label, ep_wake, ep, &ep->port);
	if (err != DOCA_SUCCESS) {
		ep->port = NULL;
		return err;
	}
	ep->service_due = 0;
	ep->next_service_ns = 0;
	ep->tick_ns = 0; /* a new port's timer is off */
	ep->cursor = NULL;
	return DOCA_SUCCESS;
}

void comch_ep_close(struct comch_ep *ep)
{
	if (ep->port != NULL)
		ep->hw->port_close(ep->port);
	ep->port = NULL;
}

/* tag: COMCH_TAG_LISTENER is the server's listener, else a connection pointer. */
void comch_ep_watch(struct comch_ep *ep, int fd, uint64_t tag)
{
	if (ep->port != NULL)
		ep->hw->port_watch(ep->port, fd, tag);
}

void comch_ep_unwatch(struct comch_ep *ep, int fd)
{
	if (ep->port != NULL && fd >= 0)
		ep->hw->port_unwatch(ep->port, fd);
}

static void tick_set(struct comch_ep *ep, uint64_t period_ns)
{
	ep->tick_ns = period_ns;
	if (ep->port != NULL)
		ep->hw->port_timer(ep->port, period_ns);
}

/* The client's retry tick, from COMCH_RETRY_NS while it has no server; off once it has one. */
void comch_ep_timer(struct comch_ep *ep, bool on)
{
	ep->retry_ns = on ? COMCH_RETRY_NS : 0;
	tick_set(ep, ep->retry_ns);
}

/* Until then from now, at least a millisecond (a tick due already comes at once). */
static uint64_t tick_until(uint64_t deadline_ns, uint64_t now)
{
	return deadline_ns > now + 1000000ull ? deadline_ns - now : 1000000ull;
}

/*
 * A connection's deadline (a HELLO due, a BYE's answer): the tick comes by then, so a sleeping
 * PE gets to comch_ep_poll, which gives up on it. The tick is periodic: as set, it comes
 * within its period from any moment, so one no longer than the time left is enough.
 */
void comch_ep_timer_by(struct comch_ep *ep, uint64_t deadline_ns)
{
	uint64_t until = tick_until(deadline_ns, comch_now_ns());

	if (ep->tick_ns == 0 || ep->tick_ns > until)
		tick_set(ep, until);
}

/* True when links and timers should be looked at now (and books the next look). */
bool comch_ep_service_needed(struct comch_ep *ep)
{
	uint64_t now;

	if (__atomic_load_n(&ep->service_due, __ATOMIC_RELAXED) &&
	    __atomic_exchange_n(&ep->service_due, 0, __ATOMIC_ACQ_REL)) {
		ep->next_service_ns = comch_coarse_ns() + COMCH_SERVICE_NS;
		return true;
	}
	for (struct doca_comch_connection *c = ep->conns; c != NULL; c = c->next)
		if (softhw_chan_mapped(&c->ch) && softhw_chan_ctrl_hinted(&c->ch))
			return true;
	now = comch_coarse_ns();
	if (now < ep->next_service_ns)
		return false;
	ep->next_service_ns = now + COMCH_SERVICE_NS;
	return true;
}

/* The PE is about to sleep: arm every ring and the waker; true if events already wait. */
bool comch_ep_arm(struct comch_ep *ep)
{
	bool pending = false;

	for (struct doca_comch_connection *c = ep->conns; c != NULL; c = c->next) {
		/* Callbacks to deliver, or a connection whose peer left, to retire. */
		if (c->report_connect || c->state == COMCH_CONN_PEER_GONE ||
		    (c->state == COMCH_CONN_DEAD && c->report_disconnect))
			pending = true;
		if (softhw_chan_mapped(&c->ch)) {
			if (softhw_chan_arm_rx(&c->ch))
				pending = true;
			if (c->tx_waiting > 0 && softhw_chan_arm_tx(&c->ch))
				pending = true;
		}
	}
	if (comch_fp_arm(ep))
		pending = true;
	if (ep->port != NULL && ep->hw->port_arm(ep->port) != DOCA_SUCCESS)
		pending = true; /* cannot sleep safely: keep the user polling */
	return pending;
}

/* ---- connections ---- */

void comch_conn_init(struct doca_comch_connection *conn, struct comch_ep *ep, int sock)
{
	*conn = (struct doca_comch_connection){0};
	conn->ep = ep;
	conn->sock = sock;
	conn->ch.peer_bell = -1;
	conn->state = COMCH_CONN_HANDSHAKE;
	conn->reset_status = DOCA_ERROR_CONNECTION_RESET;
}

void comch_conn_take_bell(struct doca_comch_connection *conn, struct softhw_chan *ch, int fd)
{
	if (!softhw_chan_set_bell(ch, fd))
		SDK_LOG_WARN("Comch %s '%s': the peer's doorbell is not a socket (an older softdoca?); it is never "
			     "rung, so a peer asleep on its notification handle is not woken by us",
			     conn->ep->kind, conn->ep->name);
}

void comch_conn_close_fds(struct doca_comch_connection *conn, const int *fds, int nfds)
{
	for (int i = 0; i < nfds; i++)
		conn->ep->hw->close(fds[i]);
}

doca_error_t comch_conn_send_ctrl(struct doca_comch_connection *conn, const void *msg, size_t len, const int *fds,
				  int nfds)
{
	ssize_t n;

	if (conn->sock < 0)
		return DOCA_ERROR_NOT_CONNECTED;
	n = conn->ep->hw->send(conn->sock, msg, len, fds, nfds);
	if (n == (ssize_t)len) {
		/* The peer polls its ring, not its link: tell it to look now. */
		if (softhw_chan_mapped(&conn->ch))
			softhw_chan_hint_ctrl(&conn->ch);
		return DOCA_SUCCESS;
	}
	return n == -EAGAIN ? DOCA_ERROR_AGAIN : DOCA_ERROR_CONNECTION_RESET;
}

/* Orderly disconnection from our side: tell the peer, then wait for its answer (or the deadline). */
void comch_conn_bye(struct doca_comch_connection *conn)
{
	struct comch_wire_hdr bye;

	if (conn->state != COMCH_CONN_UP)
		return;
	comch_wire_init(&bye, COMCH_WIRE_BYE);
	conn->drop_rx = true;
	conn->reset_status = DOCA_ERROR_NOT_CONNECTED;
	if (comch_conn_send_ctrl(conn, &bye, sizeof(bye), NULL, 0) != DOCA_SUCCESS) {
		conn->state = COMCH_CONN_PEER_GONE; /* nobody to wait for */
		return;
	}
	conn->state = COMCH_CONN_CLOSING;
	conn->deadline_ns = comch_now_ns() + COMCH_BYE_TIMEOUT_NS;
	comch_ep_timer_by(conn->ep, conn->deadline_ns);
}

/* Closes the link (the socket; the message channel stays): the peer reads EOF. */
static void link_close(struct doca_comch_connection *conn)
{
	if (conn->sock < 0)
		return;
	comch_ep_unwatch(conn->ep, conn->sock);
	conn->ep->hw->close(conn->sock);
	conn->sock = -1;
	if (conn->admitted && conn->ep->port != NULL)
		conn->ep->hw->release(conn->ep->port, &conn->peer);
	conn->admitted = false;
}

/*
 * The peer left (BYE), died (EOF) or misbehaved: what it sent before is still delivered (the
 * channel stays mapped until then). The link closes at once: that EOF is the answer a leaving
 * peer waits for, which must not wait for the messages still to deliver, or for this side to
 * progress again.
 */
void comch_conn_peer_gone(struct doca_comch_connection *conn, doca_error_t why)
{
	link_close(conn);
	if (conn->state == COMCH_CONN_UP)
		conn->reset_status = why;
	if (conn->state != COMCH_CONN_DEAD)
		conn->state = COMCH_CONN_PEER_GONE;
}

/* Releases the link and the channel; the connection is DEAD and reported next. */
void comch_conn_teardown(struct doca_comch_connection *conn)
{
	link_close(conn);
	comch_fp_conn_gone(conn);
	conn->ep->hw->chan_close(&conn->ch);
	conn->state = COMCH_CONN_DEAD;
}

bool comch_conn_has_rx(struct doca_comch_connection *conn)
{
	struct softhw_chan_msg m;

	return softhw_chan_mapped(&conn->ch) && softhw_chan_peek(&conn->ch, &m) != 0;
}

/* BYE and the fast-path messages; the handshake messages belong to the server / client. */
bool comch_conn_handle_ctrl(struct doca_comch_connection *conn, const union comch_wire_msg *m, size_t len,
			    const int *fds, int nfds)
{
	(void)len;
	switch (m->hdr.type) {
	case COMCH_WIRE_BYE:
		comch_conn_close_fds(conn, fds, nfds);
		comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_RESET);
		return true;
	case COMCH_WIRE_CONSUMER_NEW:
	case COMCH_WIRE_CONSUMER_ACK:
	case COMCH_WIRE_CONSUMER_GONE:
		conn->fp_ctrl_seen++; /* counted as the peer counted it, whatever becomes of it */
		if (conn->state != COMCH_CONN_UP) {
			comch_conn_close_fds(conn, fds, nfds);
			return true;
		}
		return comch_fp_handle_ctrl(conn, m, fds, nfds);
	default:
		comch_conn_close_fds(conn, fds, nfds);
		return false;
	}
}

/*
 * Delivers one received message of any connection (round robin), or retires a connection whose
 * peer left once everything it sent was delivered. Returns true if it did something.
 */
/*
 * Before message m of conn: the consumer messages its sender had sent first are read from the
 * link (they are there: counted once sent) and their events reported. True if it did one of
 * these (the message waits for the next call); the callback may have stopped things.
 */
static bool deliver_after_ctrl(struct doca_comch_connection *conn, const struct softhw_chan_msg *m,
			       comch_handshake_fn handshake)
{
	if (conn->state != COMCH_CONN_UP)
		return false; /* the link is gone: what is on the ring is still delivered */
	if (m->aux > conn->fp_ctrl_seen && comch_conn_read(conn, handshake))
		return true;
	return comch_fp_report_conn(conn);
}

bool comch_conn_deliver(struct comch_ep *ep, comch_handshake_fn handshake)
{
	struct doca_comch_connection *start = ep->cursor != NULL ? ep->cursor : ep->conns;
	struct doca_comch_connection *c = start;

	if (c == NULL)
		return false;
	do {
		struct doca_comch_connection *next = c->next != NULL ? c->next : ep->conns;
		struct softhw_chan_msg m;
		int got = 0;

		if (softhw_chan_mapped(&c->ch) && c->state != COMCH_CONN_DEAD) {
			/* Messages to drop (we are leaving, nobody listens) go without a callback. */
			while ((got = softhw_chan_peek(&c->ch, &m)) == 1 &&
			       (c->drop_rx || ep->ctx.state == DOCA_CTX_STATE_STOPPING || ep->recv_cb == NULL)) {
				if (ep->recv_cb == NULL && !ep->warned_no_recv_cb) {
					SDK_LOG_WARN("Comch %s '%s' dropped a message: no receive callback; register one "
						     "with doca_comch_%s_event_msg_recv_register()",
						     ep->kind, ep->name, ep->kind);
					ep->warned_no_recv_cb = true;
				}
				softhw_chan_consume(&c->ch);
			}
			if (got < 0) {
				SDK_LOG_ERR("Comch %s '%s': the peer corrupted the shared message ring; the connection "
					    "is closed (is the other process a softdoca of the same version?)",
					    ep->kind, ep->name);
				comch_conn_peer_gone(c, DOCA_ERROR_CONNECTION_ABORTED);
				c->drop_rx = true;
				comch_conn_teardown(c);
				ep->cursor = next;
				return true;
			}
			if (got == 1) {
				ep->cursor = c; /* its message is next (set first: a callback may remove c) */
				if (deliver_after_ctrl(c, &m, handshake))
					return true;
			}
			if (got == 1) {
				ep->cursor = next;
				c->counters[DOCA_COMCH_COUNTER_RECV_MESSAGES]++;
				c->counters[DOCA_COMCH_COUNTER_RECV_BYTES] += m.len;
				ep->callbacks++;
				ep->recv_cb(&ep->recv_event, m.data, m.len, c);
				/*
				 * The callback may disconnect or stop. A client whose server is gone (its
				 * BYE cannot be sent) tears the connection down inside doca_ctx_stop: the
				 * ring is unmapped then and there is no slot left to give back. It may
				 * even destroy the context from the IDLE state callback (freed once the
				 * progress step unwinds).
				 */
				if (!ep->destroyed && softhw_chan_mapped(&c->ch))
					softhw_chan_consume(&c->ch);
				return true;
			}
		}
		if (c->state == COMCH_CONN_PEER_GONE) {
			comch_conn_teardown(c);
			ep->cursor = next;
			return true;
		}
		c = next;
	} while (c != start);
	return false;
}

/* Reads every control message waiting on the link; false if there was none. */
bool comch_conn_read(struct doca_comch_connection *conn, comch_handshake_fn handshake)
{
	bool did = false;

	/* Bounded: a flood of control messages must not starve the data path. */
	for (int i = 0; i < 16 && conn->sock >= 0 && conn->state != COMCH_CONN_PEER_GONE &&
			conn->state != COMCH_CONN_DEAD;
	     i++) {
		union comch_wire_msg m;
		int fds[SOFTHW_COMCH_MAX_FDS], nfds = SOFTHW_COMCH_MAX_FDS;
		ssize_t n = conn->ep->hw->recv(conn->sock, &m, sizeof(m), fds, &nfds);

		if (n == -ECONNRESET) {
			/* The peer closed with our message unread: its last one (a REJECT) may still wait. */
			nfds = SOFTHW_COMCH_MAX_FDS;
			n = conn->ep->hw->recv(conn->sock, &m, sizeof(m), fds, &nfds);
			if (n == -EAGAIN)
				n = 0;
		}
		if (n == -EAGAIN || n == -EINTR)
			break;
		did = true;
		if (n <= 0 && n != -EMSGSIZE) { /* EOF: the peer closed or died; an error is the same for us */
			comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_RESET);
			break;
		}
		if (n < 0 || !comch_wire_valid(&m, (size_t)n)) { /* -EMSGSIZE: longer than any (fds closed) */
			comch_conn_close_fds(conn, fds, nfds);
			SDK_LOG_ERR("Comch %s '%s': malformed control message from the peer; the connection is closed",
				    conn->ep->kind, conn->ep->name);
			comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_ABORTED);
			conn->drop_rx = true;
			break;
		}
		switch (m.hdr.type) {
		case COMCH_WIRE_HELLO:
		case COMCH_WIRE_WELCOME:
		case COMCH_WIRE_REJECT:
			handshake(conn, &m, (size_t)n, fds, nfds);
			break;
		default:
			comch_conn_handle_ctrl(conn, &m, (size_t)n, fds, nfds);
			break;
		}
	}
	return did;
}

bool comch_ep_poll(struct comch_ep *ep, void (*on_listen)(struct comch_ep *ep), comch_handshake_fn handshake)
{
	uint64_t tags[32];
	bool did = false;
	uint64_t now, next = UINT64_MAX; /* the earliest deadline still ahead */
	int n;

	if (ep->port == NULL)
		return false;
	n = ep->hw->port_poll(ep->port, tags, 32);
	for (int i = 0; i < n; i++) {
		uint64_t tag = tags[i];

		if (tag == COMCH_TAG_LISTENER) {
			if (on_listen != NULL)
				on_listen(ep);
			did = true;
		} else {
			did |= comch_conn_read((struct doca_comch_connection *)(uintptr_t)tag, handshake);
		}
	}
	/* Deadlines: a peer that never answers our BYE is given up on, a client that never says HELLO too. */
	now = comch_now_ns();
	for (struct doca_comch_connection *c = ep->conns; c != NULL; c = c->next) {
		if (c->state == COMCH_CONN_HANDSHAKE && c->admitted) /* (admitted: accepted by a server, with its deadline) */ {
			if (now < c->deadline_ns) {
				next = c->deadline_ns < next ? c->deadline_ns : next;
				continue;
			}
			ep->hello_timeouts++;
			if (ep->hello_timeouts == 1 || (ep->hello_timeouts & (ep->hello_timeouts - 1)) == 0)
				SDK_LOG_WARN("Comch %s '%s': a client (pid %d) did not say HELLO within %llu ms of connecting; "
					     "closed (%llu such so far)",
					     ep->kind, ep->name, (int)c->peer.pid,
					     (unsigned long long)(ep->hello_timeout_ns / 1000000ull),
					     (unsigned long long)ep->hello_timeouts);
			comch_conn_peer_gone(c, DOCA_ERROR_TIME_OUT);
			did = true;
			continue;
		}
		if (c->state != COMCH_CONN_CLOSING)
			continue;
		if (now < c->deadline_ns) {
			next = c->deadline_ns < next ? c->deadline_ns : next;
			continue;
		}
		SDK_LOG_WARN("Comch %s '%s': the peer did not acknowledge the disconnection within %llu s; closing "
			     "anyway",
			     ep->kind, ep->name, (unsigned long long)(COMCH_BYE_TIMEOUT_NS / 1000000000ull));
		comch_conn_peer_gone(c, DOCA_ERROR_NOT_CONNECTED);
		did = true;
	}
	/* The tick, from now on: the retry's while a client retries, else by the next deadline (a
	 * server with clients yet to say HELLO wakes at their deadlines, not every retry tick). */
	if (ep->keep_timer && ep->retry_ns != 0)
		next = next == UINT64_MAX || tick_until(next, now) > ep->retry_ns ? now + ep->retry_ns : next;
	if (next == UINT64_MAX) {
		tick_set(ep, 0);
	} else {
		const uint64_t until = tick_until(next, now);

		if (ep->tick_ns == 0 || ep->tick_ns > until || ep->tick_ns < until / 2)
			tick_set(ep, until); /* (not on every poll: a tick a little early is fine) */
	}
	return did;
}

/* ---- connection accessors (doca_comch.h) ---- */

doca_error_t doca_comch_connection_set_user_data(struct doca_comch_connection *connection, union doca_data user_data)
{
	if (connection == NULL) {
		SDK_LOG_ERR("Failed to set Comch connection user data: connection is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	connection->user_data = user_data;
	return DOCA_SUCCESS;
}

union doca_data doca_comch_connection_get_user_data(const struct doca_comch_connection *connection)
{
	union doca_data none = {.u64 = 0};

	if (connection == NULL) {
		SDK_LOG_ERR("Failed to get Comch connection user data: connection is NULL");
		return none;
	}
	return connection->user_data;
}

struct doca_comch_server *doca_comch_server_get_server_ctx(const struct doca_comch_connection *connection)
{
	if (connection == NULL) {
		SDK_LOG_ERR("doca_comch_server_get_server_ctx: connection is NULL");
		return NULL;
	}
	return connection->ep->is_server ? (struct doca_comch_server *)connection->ep : NULL;
}

struct doca_comch_client *doca_comch_client_get_client_ctx(const struct doca_comch_connection *connection)
{
	if (connection == NULL) {
		SDK_LOG_ERR("doca_comch_client_get_client_ctx: connection is NULL");
		return NULL;
	}
	return connection->ep->is_server ? NULL : (struct doca_comch_client *)connection->ep;
}

doca_error_t doca_comch_connection_update_info(struct doca_comch_connection *comch_connection)
{
	if (comch_connection == NULL) {
		SDK_LOG_ERR("Failed to update Comch connection statistics: connection is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(comch_connection->saved, comch_connection->counters, sizeof(comch_connection->saved));
	return DOCA_SUCCESS;
}

doca_error_t doca_comch_connection_get_counter(const struct doca_comch_connection *comch_connection,
					       enum doca_comch_counter counter_type, uint64_t *counter_value)
{
	if (comch_connection == NULL || counter_value == NULL) {
		SDK_LOG_ERR("Failed to get Comch connection counter: %s is NULL",
			    comch_connection == NULL ? "connection" : "counter_value");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (counter_type < DOCA_COMCH_COUNTER_SENT_MESSAGES || counter_type > DOCA_COMCH_COUNTER_RECV_BYTES) {
		SDK_LOG_ERR("Failed to get Comch connection counter: unknown counter %d; use enum doca_comch_counter",
			    (int)counter_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*counter_value = comch_connection->saved[counter_type];
	return DOCA_SUCCESS;
}
