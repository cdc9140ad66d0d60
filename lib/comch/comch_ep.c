/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The endpoint core shared by the Comch server and client: its sockets and timer, sleeping
 * with the PE, connections (control messages, liveness, teardown) and message delivery.
 *
 * Hot path: a message is a record in the connection's shared-memory ring; delivering it is a
 * few loads and stores inside doca_pe_progress. Sockets carry only set-up and control, and are
 * looked at no more than once per COMCH_SERVICE_NS while polling, at once when a peer hints
 * through the ring that it sent a control message, and through the waker thread while the PE
 * sleeps (a peer's death closes its socket, which wakes us).
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>

#include "comch_priv.h"
#include "common/priv/sdk_log.h"
#include "softhw/fabric/fabric.h"

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
	snprintf(ep->name, sizeof(ep->name), "%s", name);
	snprintf(ep->rendezvous, sizeof(ep->rendezvous), "%s/%s", host_pci, name);
	ep->max_msg_size = ep->caps->comch_max_msg_size;
	ep->recv_queue_size = ep->caps->comch_max_recv_queue_size < 64 ? ep->caps->comch_max_recv_queue_size : 64;
	ep->epfd = -1;
	ep->timer_fd = -1;
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

bool comch_ep_progress(struct doca_ctx *ctx, bool (*step)(struct doca_ctx *ctx))
{
	struct comch_ep *ep = comch_ep_of(ctx);
	bool did;

	ep->in_progress++;
	did = step(ctx);
	if (--ep->in_progress == 0 && ep->destroyed) {
		free(ep);
		return true; /* something happened, and the caller must not look at the context again */
	}
	return did;
}

/* Called by the waker thread when a socket or the timer of a sleeping endpoint is readable. */
static void ep_wake(void *arg)
{
	struct comch_ep *ep = arg;

	__atomic_store_n(&ep->service_due, 1, __ATOMIC_RELEASE);
	softdoca_pe_notify(ep->ctx.pe);
}

/* Resources of a started endpoint: the epoll set, the timer, the waker registration. */
doca_error_t comch_ep_open(struct comch_ep *ep)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 0};
	doca_error_t err;

	ep->epfd = epoll_create1(EPOLL_CLOEXEC);
	ep->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (ep->epfd < 0 || ep->timer_fd < 0 || epoll_ctl(ep->epfd, EPOLL_CTL_ADD, ep->timer_fd, &ev) != 0) {
		SDK_LOG_ERR("Failed to start Comch %s '%s': epoll/timerfd: %s", ep->kind, ep->name, strerror(errno));
		comch_ep_close(ep);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = softhw_waker_add(ep->epfd, ep_wake, ep, &ep->waker_id);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start Comch %s '%s': cannot start the wake-up thread", ep->kind, ep->name);
		comch_ep_close(ep);
		return err;
	}
	ep->waker_added = true;
	ep->timer_on = false;
	ep->service_due = 0;
	ep->next_service_ns = 0;
	ep->cursor = NULL;
	return DOCA_SUCCESS;
}

void comch_ep_close(struct comch_ep *ep)
{
	if (ep->waker_added)
		softhw_waker_del(ep->waker_id);
	ep->waker_added = false;
	if (ep->timer_fd >= 0)
		close(ep->timer_fd);
	if (ep->epfd >= 0)
		close(ep->epfd);
	ep->timer_fd = -1;
	ep->epfd = -1;
}

/* tag: 0 = timer, 1 = listener, else a connection pointer. */
void comch_ep_watch(struct comch_ep *ep, int fd, uint64_t tag)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = tag};

	if (epoll_ctl(ep->epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
		SDK_LOG_ERR("Comch %s '%s': cannot watch a socket (%s); a sleeping PE may miss its events", ep->kind,
			    ep->name, strerror(errno));
}

void comch_ep_unwatch(struct comch_ep *ep, int fd)
{
	if (ep->epfd >= 0 && fd >= 0)
		epoll_ctl(ep->epfd, EPOLL_CTL_DEL, fd, NULL);
}

/* A periodic tick while something waits on time (a retry, a deadline); off otherwise. */
void comch_ep_timer(struct comch_ep *ep, bool on)
{
	struct itimerspec its = {0};

	if (on == ep->timer_on || ep->timer_fd < 0)
		return;
	if (on) {
		its.it_value.tv_nsec = (long)COMCH_RETRY_NS;
		its.it_interval.tv_nsec = (long)COMCH_RETRY_NS;
	}
	timerfd_settime(ep->timer_fd, 0, &its, NULL);
	ep->timer_on = on;
}

/* True when sockets and timers should be looked at now (and books the next look). */
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
	if (ep->waker_added && softhw_waker_arm(ep->waker_id) != DOCA_SUCCESS)
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

void comch_conn_close_fds(const int *fds, int nfds)
{
	for (int i = 0; i < nfds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

doca_error_t comch_conn_send_ctrl(struct doca_comch_connection *conn, const void *msg, size_t len, const int *fds,
				  int nfds)
{
	ssize_t n;

	if (conn->sock < 0)
		return DOCA_ERROR_NOT_CONNECTED;
	n = softhw_fabric_send(conn->sock, msg, len, fds, nfds);
	if (n == (ssize_t)len) {
		/* The peer polls its ring, not its socket: tell it to look now. */
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
	comch_ep_timer(conn->ep, true);
}

/* The peer left (BYE), died (EOF) or misbehaved: what it sent before is still delivered. */
void comch_conn_peer_gone(struct doca_comch_connection *conn, doca_error_t why)
{
	comch_ep_unwatch(conn->ep, conn->sock);
	if (conn->state == COMCH_CONN_UP)
		conn->reset_status = why;
	if (conn->state != COMCH_CONN_DEAD)
		conn->state = COMCH_CONN_PEER_GONE;
}

/* Releases the socket and the channel; the connection is DEAD and reported next. */
void comch_conn_teardown(struct doca_comch_connection *conn)
{
	if (conn->sock >= 0) {
		comch_ep_unwatch(conn->ep, conn->sock);
		close(conn->sock);
		conn->sock = -1;
		if (conn->guard != NULL)
			softhw_guard_release(conn->guard, &conn->peer);
		conn->guard = NULL;
	}
	comch_fp_conn_gone(conn);
	softhw_chan_close(&conn->ch);
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
		comch_conn_close_fds(fds, nfds);
		comch_conn_peer_gone(conn, DOCA_ERROR_CONNECTION_RESET);
		return true;
	case COMCH_WIRE_CONSUMER_NEW:
	case COMCH_WIRE_CONSUMER_ACK:
	case COMCH_WIRE_CONSUMER_GONE:
		if (conn->state != COMCH_CONN_UP) {
			comch_conn_close_fds(fds, nfds);
			return true;
		}
		return comch_fp_handle_ctrl(conn, m, fds, nfds);
	default:
		comch_conn_close_fds(fds, nfds);
		return false;
	}
}

/*
 * Delivers one received message of any connection (round robin), or retires a connection whose
 * peer left once everything it sent was delivered. Returns true if it did something.
 */
bool comch_conn_deliver(struct comch_ep *ep)
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
				ep->cursor = next;
				c->counters[DOCA_COMCH_COUNTER_RECV_MESSAGES]++;
				c->counters[DOCA_COMCH_COUNTER_RECV_BYTES] += m.len;
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

/* Reads every control message waiting on the socket; false if there was none. */
bool comch_conn_read(struct doca_comch_connection *conn, comch_handshake_fn handshake)
{
	bool did = false;

	/* Bounded: a flood of control messages must not starve the data path. */
	for (int i = 0; i < 16 && conn->sock >= 0 && conn->state != COMCH_CONN_PEER_GONE &&
			conn->state != COMCH_CONN_DEAD;
	     i++) {
		union comch_wire_msg m;
		int fds[SOFTHW_FABRIC_MAX_FDS], nfds = SOFTHW_FABRIC_MAX_FDS;
		ssize_t n = softhw_fabric_recv(conn->sock, &m, sizeof(m), fds, &nfds);

		if (n == -ECONNRESET) {
			/* The peer closed with our message unread: its last one (a REJECT) may still wait. */
			nfds = SOFTHW_FABRIC_MAX_FDS;
			n = softhw_fabric_recv(conn->sock, &m, sizeof(m), fds, &nfds);
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
			comch_conn_close_fds(fds, nfds);
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
	struct epoll_event ev[32];
	bool did = false, closing = false;
	uint64_t now;
	int n;

	if (ep->epfd < 0)
		return false;
	n = epoll_wait(ep->epfd, ev, 32, 0);
	for (int i = 0; i < n; i++) {
		uint64_t tag = ev[i].data.u64;

		if (tag == COMCH_TAG_TIMER) {
			uint64_t ticks;

			if (read(ep->timer_fd, &ticks, sizeof(ticks)) < 0) {
				/* EAGAIN: already read */
			}
		} else if (tag == COMCH_TAG_LISTENER) {
			if (on_listen != NULL)
				on_listen(ep);
			did = true;
		} else {
			did |= comch_conn_read((struct doca_comch_connection *)(uintptr_t)tag, handshake);
		}
	}
	/* Deadlines: a peer that never answers our BYE is given up on. */
	now = comch_now_ns();
	for (struct doca_comch_connection *c = ep->conns; c != NULL; c = c->next) {
		if (c->state != COMCH_CONN_CLOSING)
			continue;
		if (now < c->deadline_ns) {
			closing = true;
			continue;
		}
		SDK_LOG_WARN("Comch %s '%s': the peer did not acknowledge the disconnection within %llu s; closing "
			     "anyway",
			     ep->kind, ep->name, (unsigned long long)(COMCH_BYE_TIMEOUT_NS / 1000000000ull));
		comch_conn_peer_gone(c, DOCA_ERROR_NOT_CONNECTED);
		did = true;
	}
	if (!closing && !ep->keep_timer)
		comch_ep_timer(ep, false);
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
