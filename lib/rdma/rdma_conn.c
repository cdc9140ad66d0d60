/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma connections: out of band (export / connect), RDMA-CM (listen / accept / reject /
 * connect_to_addr / disconnect), the four connection-state callbacks, and RDMA-CM addresses.
 *
 * A connection object lives from its creation until the next doca_ctx_start or
 * doca_rdma_destroy (a rejected request: until the reject), so a pointer the user kept stays
 * safe to pass back after the context stopped. Its qp lives until the context stops.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "doca_rdma_bridge.h"
#include "rdma_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMA_CONN);

#define SET_EMPTY ((uintptr_t)0)
#define SET_REMOVED ((uintptr_t)1)

static uint32_t set_hash(uintptr_t p)
{
	return (uint32_t)(((uint64_t)p >> 4) * 0x9E3779B97F4A7C15ull >> 32); /* calloc'd: low bits equal */
}

bool drdma_conn_belongs(const struct doca_rdma *rdma, const struct doca_rdma_connection *conn)
{
	const struct drdma_conn_set *s = &rdma->conn_set;
	const uintptr_t p = (uintptr_t)conn;

	if (conn == rdma->conns && conn != NULL)
		return true; /* the newest, as with a context's only connection: no hash */
	if (s->slot == NULL || p <= SET_REMOVED)
		return false;
	for (uint32_t i = set_hash(p) & s->mask;; i = (i + 1) & s->mask) {
		if (s->slot[i] == p)
			return true;
		if (s->slot[i] == SET_EMPTY)
			return false;
	}
}

static void set_put(struct drdma_conn_set *s, uintptr_t p)
{
	uint32_t i = set_hash(p) & s->mask;

	while (s->slot[i] != SET_EMPTY && s->slot[i] != SET_REMOVED)
		i = (i + 1) & s->mask;
	if (s->slot[i] == SET_EMPTY)
		s->used++;
	s->slot[i] = p;
}

/* Room for one more, rebuilt without the removed slots when half full; false: out of memory. */
static bool set_reserve(struct drdma_conn_set *s, uint32_t live)
{
	struct drdma_conn_set n = {0};
	uint32_t cap = 16;

	if (s->slot != NULL && 2 * (s->used + 1) <= s->mask + 1)
		return true;
	while (cap < 4 * (live + 1))
		cap *= 2;
	n.slot = calloc(cap, sizeof(*n.slot));
	if (n.slot == NULL)
		return false;
	n.mask = cap - 1;
	for (uint32_t i = 0; s->slot != NULL && i <= s->mask; i++)
		if (s->slot[i] > SET_REMOVED)
			set_put(&n, s->slot[i]);
	free(s->slot);
	*s = n;
	return true;
}

static void set_remove(struct drdma_conn_set *s, uintptr_t p)
{
	if (s->slot == NULL)
		return;
	for (uint32_t i = set_hash(p) & s->mask; s->slot[i] != SET_EMPTY; i = (i + 1) & s->mask)
		if (s->slot[i] == p) {
			s->slot[i] = SET_REMOVED; /* keeps the probe chains of the others whole */
			return;
		}
}

static bool running(const struct doca_rdma *rdma, const char *call)
{
	if (rdma->ctx.state == DOCA_CTX_STATE_RUNNING && rdma->ep != NULL)
		return true;
	SDK_LOG_ERR("%s: the RDMA context is %s; call it once the context is RUNNING (from the state callback "
		    "after doca_ctx_start())",
		    call, softdoca_ctx_state_name(rdma->ctx.state));
	return false;
}

/* A new connection object counted against max_num_connections; FULL beyond it. */
static doca_error_t conn_new(struct doca_rdma *rdma, const char *call, struct doca_rdma_connection **out)
{
	struct doca_rdma_connection *c;

	if (rdma->num_conns >= rdma->max_num_connections) {
		SDK_LOG_ERR("%s: the context already has its %u connection(s); raise the limit with "
			    "doca_rdma_set_max_num_connections() before doca_ctx_start()",
			    call, rdma->max_num_connections);
		return DOCA_ERROR_FULL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL || !set_reserve(&rdma->conn_set, rdma->num_conns)) {
		free(c);
		SDK_LOG_ERR("%s: out of memory", call);
		return DOCA_ERROR_NO_MEMORY;
	}
	set_put(&rdma->conn_set, (uintptr_t)c);
	c->rdma = rdma;
	c->id = rdma->next_conn_id++;
	c->next = rdma->conns;
	rdma->conns = c;
	rdma->num_conns++;
	rdma->had_conns = true;
	*out = c;
	return DOCA_SUCCESS;
}

static void addr_release(struct doca_rdma_connection *c)
{
	if (c->addr != NULL) {
		c->addr->users--;
		c->addr = NULL;
	}
}

static void conn_unlink_free(struct doca_rdma *rdma, struct doca_rdma_connection *conn)
{
	for (struct doca_rdma_connection **pp = &rdma->conns; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == conn) {
			*pp = conn->next;
			rdma->num_conns--;
			set_remove(&rdma->conn_set, (uintptr_t)conn);
			break;
		}
	}
	/* an event held behind completions (drdma_progress) names it by address: it goes with it, or
	 * a connection made next with the same memory would hear it */
	if (rdma->event_held && rdma->held_event.qp_user == conn)
		rdma->event_held = false;
	addr_release(conn);
	free(conn->peer);
	free(conn);
}

void drdma_conns_close(struct doca_rdma *rdma)
{
	for (struct doca_rdma_connection *c = rdma->conns; c != NULL; c = c->next) {
		if (c->qp != NULL)
			drdma_nic(rdma)->qp_destroy(c->qp);
		c->qp = NULL;
		addr_release(c);
		if (c->state != DRDMA_CONN_FAILED)
			c->state = DRDMA_CONN_DISCONNECTED;
	}
}

void drdma_conns_free(struct doca_rdma *rdma)
{
	while (rdma->conns != NULL) {
		struct doca_rdma_connection *c = rdma->conns;

		if (c->qp != NULL)
			drdma_nic(rdma)->qp_destroy(c->qp);
		c->qp = NULL;
		conn_unlink_free(rdma, c);
	}
	free(rdma->conn_set.slot);
	rdma->conn_set = (struct drdma_conn_set){0};
	rdma->num_conns = 0;
	rdma->next_conn_id = 0;
}

/* ---- out-of-band: export / connect ---- */

static doca_error_t oob_export(struct doca_rdma *rdma, const void **local_rdma_conn_details,
			       size_t *local_rdma_conn_details_size, struct doca_rdma_connection **rdma_connection)
{
	struct doca_rdma_connection *c;
	doca_error_t err;

	if (rdma == NULL || local_rdma_conn_details == NULL || local_rdma_conn_details_size == NULL ||
	    rdma_connection == NULL) {
		SDK_LOG_ERR("doca_rdma_export: %s is NULL",
			    rdma == NULL ? "rdma" : rdma_connection == NULL ? "connection output" : "descriptor output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!running(rdma, "doca_rdma_export"))
		return DOCA_ERROR_BAD_STATE;
	err = conn_new(rdma, "doca_rdma_export", &c);
	if (err != DOCA_SUCCESS)
		return err;
	err = drdma_nic(rdma)->qp_create(rdma->ep, c, &c->qp);
	if (err == DOCA_SUCCESS) {
		err = drdma_nic(rdma)->qp_export(c->qp, local_rdma_conn_details, local_rdma_conn_details_size);
		if (err != DOCA_SUCCESS)
			drdma_nic(rdma)->qp_destroy(c->qp);
	}
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("doca_rdma_export: the NIC could not create the connection: %s",
			    doca_error_get_descr(err));
		c->qp = NULL;
		conn_unlink_free(rdma, c);
		return err == DOCA_ERROR_NO_MEMORY || err == DOCA_ERROR_FULL ? err : DOCA_ERROR_CONNECTION_ABORTED;
	}
	c->state = DRDMA_CONN_EXPORTED;
	*rdma_connection = c;
	return DOCA_SUCCESS;
}

static doca_error_t oob_connect(struct doca_rdma *rdma, const void *remote_rdma_conn_details,
				size_t remote_rdma_conn_details_size, struct doca_rdma_connection *rdma_connection)
{
	doca_error_t err;

	if (rdma == NULL || rdma_connection == NULL) {
		SDK_LOG_ERR("doca_rdma_connect: %s is NULL", rdma == NULL ? "rdma" : "rdma_connection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rdma->ctx.state != DOCA_CTX_STATE_RUNNING && rdma->ctx.state != DOCA_CTX_STATE_STARTING) {
		SDK_LOG_ERR("doca_rdma_connect: the RDMA context is %s; start it and connect the connection "
			    "doca_rdma_export() returned",
			    softdoca_ctx_state_name(rdma->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	if (!drdma_conn_belongs(rdma, rdma_connection) || rdma_connection->qp == NULL) {
		SDK_LOG_ERR("doca_rdma_connect: the connection is not one doca_rdma_export() returned on this "
			    "context since it started; export again after a stop/start");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rdma_connection->state != DRDMA_CONN_EXPORTED) {
		SDK_LOG_ERR("doca_rdma_connect: connection %u is already connected (or connecting, or failed); "
			    "each doca_rdma_export() connection connects once",
			    rdma_connection->id);
		return DOCA_ERROR_BAD_STATE;
	}
	if (remote_rdma_conn_details == NULL || remote_rdma_conn_details_size == 0) {
		SDK_LOG_ERR("doca_rdma_connect: the remote connection descriptor is %s; pass the peer's "
			    "doca_rdma_export() blob",
			    remote_rdma_conn_details == NULL ? "NULL" : "empty");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = drdma_nic(rdma)->qp_connect(rdma_connection->qp, remote_rdma_conn_details, remote_rdma_conn_details_size);
	if (err != DOCA_SUCCESS) {
		/* The NIC logged what is wrong with the blob. */
		SDK_LOG_ERR("doca_rdma_connect: connection %u: %s; pass the peer's doca_rdma_export() descriptor "
			    "unchanged (all %zu bytes)",
			    rdma_connection->id, doca_error_get_descr(err), remote_rdma_conn_details_size);
		return err;
	}
	rdma_connection->state = DRDMA_CONN_CONNECTING;
	return DOCA_SUCCESS;
}

/* A DPA datapath may post or poll meanwhile: the endpoint takes one caller at a time (rdma_dpa.c). */
doca_error_t doca_rdma_export(struct doca_rdma *rdma, const void **local_rdma_conn_details,
			      size_t *local_rdma_conn_details_size, struct doca_rdma_connection **rdma_connection)
{
	doca_error_t err;

	if (rdma != NULL)
		drdma_dpa_lock(rdma);
	err = oob_export(rdma, local_rdma_conn_details, local_rdma_conn_details_size, rdma_connection);
	if (rdma != NULL)
		drdma_dpa_unlock(rdma);
	return err;
}

doca_error_t doca_rdma_connect(struct doca_rdma *rdma, const void *remote_rdma_conn_details,
			       size_t remote_rdma_conn_details_size, struct doca_rdma_connection *rdma_connection)
{
	doca_error_t err;

	if (rdma != NULL)
		drdma_dpa_lock(rdma);
	err = oob_connect(rdma, remote_rdma_conn_details, remote_rdma_conn_details_size, rdma_connection);
	if (rdma != NULL)
		drdma_dpa_unlock(rdma);
	return err;
}

/* ---- RDMA-CM addresses ---- */

doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type, const char *address, uint16_t port,
				   struct doca_rdma_addr **addr)
{
	struct doca_rdma_addr *a;
	struct in6_addr in6;
	struct in_addr in4;

	if (address == NULL || addr == NULL) {
		SDK_LOG_ERR("doca_rdma_addr_create: %s is NULL", address == NULL ? "address" : "addr output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (strlen(address) >= DRDMA_ADDR_TEXT_LEN) {
		SDK_LOG_ERR("doca_rdma_addr_create: address \"%.16s...\" is too long", address);
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		SDK_LOG_ERR("doca_rdma_addr_create: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->type = addr_type;
	a->port = port;
	strcpy(a->text, address);
	switch (addr_type) {
	case DOCA_RDMA_ADDR_TYPE_IPv4:
		if (inet_pton(AF_INET, address, &in4) != 1)
			goto bad;
		break;
	case DOCA_RDMA_ADDR_TYPE_IPv6:
	case DOCA_RDMA_ADDR_TYPE_GID:
		/* A GID is written as an IPv6 address; an IPv4-mapped GID (RoCE v2) names an IPv4 peer. */
		if (inet_pton(AF_INET6, address, &in6) != 1)
			goto bad;
		if (IN6_IS_ADDR_V4MAPPED(&in6)) {
			memcpy(&in4, &in6.s6_addr[12], 4);
			addr_type = DOCA_RDMA_ADDR_TYPE_IPv4;
		}
		break;
	default:
		SDK_LOG_ERR("doca_rdma_addr_create: unknown address type %d; use DOCA_RDMA_ADDR_TYPE_IPv4, _IPv6 or "
			    "_GID",
			    (int)addr_type);
		free(a);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (addr_type == DOCA_RDMA_ADDR_TYPE_IPv4) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&a->sa;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		sin->sin_addr = in4;
		a->sa_len = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&a->sa;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		sin6->sin6_addr = in6;
		a->sa_len = sizeof(*sin6);
	}
	*addr = a;
	return DOCA_SUCCESS;
bad:
	SDK_LOG_ERR("doca_rdma_addr_create: \"%s\" is not %s address", address,
		    addr_type == DOCA_RDMA_ADDR_TYPE_IPv4   ? "an IPv4 (dotted quad)"
		    : addr_type == DOCA_RDMA_ADDR_TYPE_IPv6 ? "an IPv6"
							    : "a GID (IPv6 notation, e.g. ::ffff:10.0.0.1)");
	free(a);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr)
{
	if (addr == NULL) {
		SDK_LOG_ERR("doca_rdma_addr_destroy: addr is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (addr->owned) {
		SDK_LOG_ERR("doca_rdma_addr_destroy: this address belongs to a connection "
			    "(doca_rdma_connection_get_addr()); it goes with the connection");
		return DOCA_ERROR_BAD_STATE;
	}
	if (addr->users > 0) {
		SDK_LOG_ERR("doca_rdma_addr_destroy: a doca_rdma_connect_to_addr() with this address is still "
			    "connecting; destroy it after the established or failure callback");
		return DOCA_ERROR_BAD_STATE;
	}
	free(addr);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr, enum doca_rdma_addr_type *addr_type,
				       const char **address, uint16_t *port)
{
	if (addr == NULL || addr_type == NULL || address == NULL || port == NULL) {
		SDK_LOG_ERR("doca_rdma_addr_get_params: %s is NULL", addr == NULL ? "addr" : "an output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*addr_type = addr->type;
	*address = addr->text;
	*port = addr->port;
	return DOCA_SUCCESS;
}

/* ---- RDMA-CM server ---- */

doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	doca_error_t err;

	if (rdma == NULL) {
		SDK_LOG_ERR("doca_rdma_start_listen_to_port: rdma is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!running(rdma, "doca_rdma_start_listen_to_port"))
		return DOCA_ERROR_BAD_STATE;
	if (rdma->dpa != NULL) {
		SDK_LOG_ERR("doca_rdma_start_listen_to_port: RDMA-CM connections of a datapath on the DPA are not supported yet "
			    "(docs/compatibility.md); use doca_rdma_export() and doca_rdma_connect()");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (rdma->transport == DOCA_RDMA_TRANSPORT_TYPE_DC) {
		SDK_LOG_ERR("doca_rdma_start_listen_to_port: DC transport works with export/connect only; use RC "
			    "for RDMA-CM");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	for (uint32_t i = 0; i < rdma->num_ports; i++) {
		if (rdma->ports[i] == port) {
			SDK_LOG_ERR("doca_rdma_start_listen_to_port: the context already listens on port %u", port);
			return DOCA_ERROR_BAD_STATE;
		}
	}
	if (rdma->num_ports == DRDMA_MAX_LISTEN_PORTS) {
		SDK_LOG_ERR("doca_rdma_start_listen_to_port: the context listens on %u ports already",
			    DRDMA_MAX_LISTEN_PORTS);
		return DOCA_ERROR_FULL;
	}
	err = drdma_nic(rdma)->listen(rdma->ep, port);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("doca_rdma_start_listen_to_port: cannot listen on port %u: %s%s", port,
			    doca_error_get_descr(err),
			    err == DOCA_ERROR_IN_USE || err == DOCA_ERROR_ALREADY_EXIST
				    ? "; another process or context listens there, choose another port"
				    : "");
		/* NOT_SUPPORTED: the device's path has no RDMA-CM (a card with wire = rocev2, for now) */
		return err == DOCA_ERROR_NOT_SUPPORTED ? err : DOCA_ERROR_CONNECTION_ABORTED;
	}
	rdma->ports[rdma->num_ports++] = port;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	doca_error_t err;

	if (rdma == NULL) {
		SDK_LOG_ERR("doca_rdma_stop_listen_to_port: rdma is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!running(rdma, "doca_rdma_stop_listen_to_port"))
		return DOCA_ERROR_BAD_STATE;
	for (uint32_t i = 0; i < rdma->num_ports; i++) {
		if (rdma->ports[i] != port)
			continue;
		err = drdma_nic(rdma)->unlisten(rdma->ep, port);
		rdma->ports[i] = rdma->ports[--rdma->num_ports];
		if (err != DOCA_SUCCESS) {
			SDK_LOG_ERR("doca_rdma_stop_listen_to_port: port %u: %s", port, doca_error_get_descr(err));
			return DOCA_ERROR_CONNECTION_ABORTED;
		}
		return DOCA_SUCCESS;
	}
	SDK_LOG_ERR("doca_rdma_stop_listen_to_port: the context does not listen on port %u "
		    "(doca_rdma_start_listen_to_port())",
		    port);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *rdma_connection, void *private_data,
					 uint8_t private_data_len)
{
	struct doca_rdma_connection *c = rdma_connection;
	doca_error_t err;

	if (c == NULL || (private_data == NULL && private_data_len != 0)) {
		SDK_LOG_ERR("doca_rdma_connection_accept: %s",
			    c == NULL ? "rdma_connection is NULL" : "private_data is NULL but its length is not 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (c->state != DRDMA_CONN_REQUESTED || c->qp == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_accept: connection %u is not a pending request; accept it from "
			    "the connection request callback",
			    c->id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = drdma_nic(c->rdma)->qp_accept(c->qp, c, private_data, private_data_len);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("doca_rdma_connection_accept: connection %u: %s", c->id, doca_error_get_descr(err));
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_CONNECTION_ABORTED;
	}
	c->state = DRDMA_CONN_ACCEPTED;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *rdma_connection)
{
	struct doca_rdma_connection *c = rdma_connection;
	doca_error_t err;

	if (c == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_reject: rdma_connection is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (c->state != DRDMA_CONN_REQUESTED || c->qp == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_reject: connection %u is not a pending request; reject it from "
			    "the connection request callback",
			    c->id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = drdma_nic(c->rdma)->qp_reject(c->qp);
	drdma_nic(c->rdma)->qp_destroy(c->qp);
	c->qp = NULL;
	conn_unlink_free(c->rdma, c);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("doca_rdma_connection_reject: %s", doca_error_get_descr(err));
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	return DOCA_SUCCESS;
}

/* ---- RDMA-CM client ---- */

doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma, struct doca_rdma_addr *addr,
				       union doca_data connection_user_data)
{
	struct doca_rdma_connection *c;
	doca_error_t err;

	if (rdma == NULL || addr == NULL) {
		SDK_LOG_ERR("doca_rdma_connect_to_addr: %s is NULL", rdma == NULL ? "rdma" : "addr");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!running(rdma, "doca_rdma_connect_to_addr"))
		return DOCA_ERROR_BAD_STATE;
	if (rdma->dpa != NULL) {
		SDK_LOG_ERR("doca_rdma_connect_to_addr: RDMA-CM connections of a datapath on the DPA are not supported yet "
			    "(docs/compatibility.md); use doca_rdma_export() and doca_rdma_connect()");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (rdma->transport == DOCA_RDMA_TRANSPORT_TYPE_DC) {
		SDK_LOG_ERR("doca_rdma_connect_to_addr: DC transport works with export/connect only; use RC for "
			    "RDMA-CM");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (rdma->established_cb == NULL) {
		SDK_LOG_ERR("doca_rdma_connect_to_addr: no connection state callbacks; set them with "
			    "doca_rdma_set_connection_state_callbacks() before doca_ctx_start() to learn when the "
			    "connection is up");
		return DOCA_ERROR_BAD_STATE;
	}
	err = conn_new(rdma, "doca_rdma_connect_to_addr", &c);
	if (err != DOCA_SUCCESS)
		return err;
	c->cm = true;
	c->user_data = connection_user_data;
	err = drdma_nic(rdma)->connect_addr(rdma->ep, (const struct sockaddr *)&addr->sa, addr->sa_len, c, &c->qp);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("doca_rdma_connect_to_addr: cannot connect to %s port %u: %s", addr->text, addr->port,
			    doca_error_get_descr(err));
		c->qp = NULL;
		conn_unlink_free(rdma, c);
		return err == DOCA_ERROR_NO_MEMORY || err == DOCA_ERROR_FULL ? err : DOCA_ERROR_CONNECTION_ABORTED;
	}
	c->state = DRDMA_CONN_CONNECTING;
	c->addr = addr;
	addr->users++;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *rdma_connection)
{
	struct doca_rdma_connection *c = rdma_connection;
	doca_error_t err;

	if (c == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_disconnect: rdma_connection is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Already down (the peer left, it failed, or the context stopped): nothing more to do. */
	if (c->qp == NULL || c->state == DRDMA_CONN_DISCONNECTED || c->state == DRDMA_CONN_FAILED) {
		c->state = c->state == DRDMA_CONN_FAILED ? DRDMA_CONN_FAILED : DRDMA_CONN_DISCONNECTED;
		return DOCA_SUCCESS;
	}
	if (c->state == DRDMA_CONN_REQUESTED) {
		SDK_LOG_ERR("doca_rdma_connection_disconnect: connection %u is a pending request; use "
			    "doca_rdma_connection_reject()",
			    c->id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	drdma_dpa_lock(c->rdma);
	err = drdma_nic(c->rdma)->qp_disconnect(c->qp);
	drdma_dpa_unlock(c->rdma);
	c->state = DRDMA_CONN_DISCONNECTED;
	addr_release(c);
	if (err != DOCA_SUCCESS && err != DOCA_ERROR_NOT_CONNECTED) {
		SDK_LOG_ERR("doca_rdma_connection_disconnect: connection %u: %s", c->id, doca_error_get_descr(err));
		return DOCA_ERROR_CONNECTION_ABORTED;
	}
	return DOCA_SUCCESS;
}

/* ---- connection attributes ---- */

doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *rdma_connection,
						union doca_data connection_user_data)
{
	if (rdma_connection == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_set_user_data: rdma_connection is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma_connection->user_data = connection_user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_user_data(const struct doca_rdma_connection *rdma_connection,
						union doca_data *connection_user_data)
{
	if (rdma_connection == NULL || connection_user_data == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_get_user_data: %s is NULL",
			    rdma_connection == NULL ? "rdma_connection" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*connection_user_data = rdma_connection->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *rdma_connection, uint32_t *connection_id)
{
	if (rdma_connection == NULL || connection_id == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_get_id: %s is NULL", rdma_connection == NULL ? "rdma_connection" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*connection_id = rdma_connection->id;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_connection_get_addr(const struct doca_rdma_connection *rdma_connection,
					   struct doca_rdma_addr **addr)
{
	struct doca_rdma_connection *c = (struct doca_rdma_connection *)(uintptr_t)rdma_connection;
	struct sockaddr_storage ss;
	struct doca_rdma_addr *a;
	doca_error_t err;

	if (c == NULL || addr == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_get_addr: %s is NULL", c == NULL ? "rdma_connection" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (c->peer != NULL) {
		*addr = c->peer;
		return DOCA_SUCCESS;
	}
	if (!c->cm || c->qp == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_get_addr: connection %u %s; only live RDMA-CM connections have a "
			    "peer address",
			    c->id, c->cm ? "belongs to a stopped context" : "was made out of band (export/connect)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(&ss, 0, sizeof(ss));
	err = drdma_nic(c->rdma)->qp_peer_addr(c->qp, &ss);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("doca_rdma_connection_get_addr: connection %u: %s", c->id, doca_error_get_descr(err));
		return DOCA_ERROR_INVALID_VALUE;
	}
	a = calloc(1, sizeof(*a));
	if (a == NULL) {
		SDK_LOG_ERR("doca_rdma_connection_get_addr: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	a->owned = true;
	a->sa = ss;
	if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)&ss;

		a->type = DOCA_RDMA_ADDR_TYPE_IPv4;
		a->port = ntohs(sin->sin_port);
		a->sa_len = sizeof(*sin);
		inet_ntop(AF_INET, &sin->sin_addr, a->text, sizeof(a->text));
	} else {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)&ss;

		a->type = DOCA_RDMA_ADDR_TYPE_IPv6;
		a->port = ntohs(sin6->sin6_port);
		a->sa_len = sizeof(*sin6);
		inet_ntop(AF_INET6, &sin6->sin6_addr, a->text, sizeof(a->text));
	}
	c->peer = a;
	*addr = a;
	return DOCA_SUCCESS;
}

/* ---- connection events from the NIC ---- */

static const char *fail_hint(doca_error_t status, bool cm)
{
	switch (status) {
	case DOCA_ERROR_NOT_CONNECTED:
	case DOCA_ERROR_NOT_PERMITTED:
		return "the peer rejected it or nobody listens there: check the address, the port and that the "
		       "server called doca_rdma_start_listen_to_port()";
	case DOCA_ERROR_TIME_OUT:
		return cm ? "no answer in time: check the address, or raise doca_rdma_set_connection_request_timeout()"
			  : "the peer did not connect in time: it must call doca_rdma_connect() with this side's "
			    "doca_rdma_export() descriptor while its context runs";
	case DOCA_ERROR_CONNECTION_ABORTED:
	case DOCA_ERROR_CONNECTION_RESET:
		return "the peer went away: reconnect (export/connect or connect_to_addr again)";
	default:
		return "a task failed on it or the peer is unreachable; reconnect, and check the task's error";
	}
}

void drdma_conn_event(struct doca_rdma *rdma, const struct softhw_rnic_cqe *cqe)
{
	struct doca_rdma_connection *c = cqe->qp_user;
	union doca_data ctx_ud = rdma->ctx.user_data;
	doca_error_t err;

	if (cqe->kind == SOFTHW_RNIC_CQE_REQUEST) {
		err = conn_new(rdma, "RDMA-CM connection request", &c);
		if (err != DOCA_SUCCESS || rdma->request_cb == NULL) {
			if (err == DOCA_SUCCESS) {
				SDK_LOG_ERR("RDMA-CM connection request refused: no request callback; set one with "
					    "doca_rdma_set_connection_state_callbacks() to accept connections");
				conn_unlink_free(rdma, c);
			}
			drdma_nic(rdma)->qp_reject(cqe->qp);
			drdma_nic(rdma)->qp_destroy(cqe->qp);
			return;
		}
		c->cm = true;
		c->qp = cqe->qp;
		c->state = DRDMA_CONN_REQUESTED;
		rdma->request_cb(c, ctx_ud);
		return;
	}
	if (c == NULL || !drdma_conn_belongs(rdma, c))
		return; /* a qp already destroyed (rejected, stopped) */
	switch (cqe->kind) {
	case SOFTHW_RNIC_CQE_ESTABLISHED:
		if (c->state == DRDMA_CONN_DISCONNECTED || c->state == DRDMA_CONN_FAILED)
			return;
		c->state = DRDMA_CONN_ESTABLISHED;
		addr_release(c);
		if (rdma->established_cb != NULL)
			rdma->established_cb(c, c->user_data, ctx_ud);
		return;
	case SOFTHW_RNIC_CQE_FAILED:
		if (c->state == DRDMA_CONN_DISCONNECTED || c->state == DRDMA_CONN_FAILED)
			return;
		c->state = DRDMA_CONN_FAILED;
		addr_release(c);
		SDK_LOG_ERR("RDMA connection %u failed: %s; %s", c->id, doca_error_get_descr(cqe->status),
			    fail_hint(cqe->status, c->cm));
		if (rdma->failure_cb != NULL)
			rdma->failure_cb(c, c->user_data, ctx_ud);
		return;
	case SOFTHW_RNIC_CQE_DISCONNECTED:
		if (c->state == DRDMA_CONN_DISCONNECTED)
			return;
		c->state = DRDMA_CONN_DISCONNECTED;
		addr_release(c);
		if (rdma->disconnect_cb != NULL)
			rdma->disconnect_cb(c, c->user_data, ctx_ud);
		return;
	default:
		return;
	}
}

/* ---- bridge to an application's own rdma-core objects: not emulated ---- */

doca_error_t doca_rdma_bridge_prepare_connection(struct doca_rdma *rdma, struct rdma_cm_id *cm_id,
						 struct doca_rdma_connection **rdma_connection)
{
	(void)cm_id;
	if (rdma == NULL || rdma_connection == NULL) {
		SDK_LOG_ERR("doca_rdma_bridge_prepare_connection: %s is NULL", rdma == NULL ? "rdma" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_rdma_bridge_prepare_connection: softdoca has no rdma-core objects to bridge "
		    "(docs/compatibility.md); use doca_rdma_start_listen_to_port() / doca_rdma_connect_to_addr()");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_accept(struct doca_rdma *rdma, void *private_data, uint8_t private_data_len,
				     struct doca_rdma_connection *rdma_connection)
{
	(void)private_data;
	(void)private_data_len;
	if (rdma == NULL || rdma_connection == NULL) {
		SDK_LOG_ERR("doca_rdma_bridge_accept: %s is NULL", rdma == NULL ? "rdma" : "rdma_connection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_rdma_bridge_accept: softdoca has no rdma-core objects to bridge (docs/compatibility.md); "
		    "use doca_rdma_connection_accept()");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_established(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection)
{
	if (rdma == NULL || rdma_connection == NULL) {
		SDK_LOG_ERR("doca_rdma_bridge_established: %s is NULL", rdma == NULL ? "rdma" : "rdma_connection");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_rdma_bridge_established: softdoca has no rdma-core objects to bridge "
		    "(docs/compatibility.md)");
	return DOCA_ERROR_NOT_SUPPORTED;
}
