/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rdma_cm_id life and addresses: create / destroy, bind, resolve_addr / resolve_route (local,
 * as Linux does on RoCE: no packet), listen, migrate_id, the port getters, and the device the
 * ids use (the first soft device with an RDMA NIC).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/priv/dev_priv.h"
#include "common/priv/soft_verbs.h"
#include "doca_dev.h"
#include "rdmacm_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMACM_ID);

/*
 * The device: the first soft device softdoca's libibverbs lists. id->verbs and id->pd are its
 * objects (real libibverbs objects, rocev2.md §6.6), so rdma_create_qp and the rdma_verbs.h
 * inlines work on them; the soft NIC endpoints of the ids use the same soft device.
 */
int cm_dev_get(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n = 0;

	if (g.nic != NULL)
		return 0;
	if (g.wake_fd < 0) {
		g.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (g.wake_fd < 0)
			return errno;
	}
	list = ibv_get_device_list(&n);
	if (list != NULL && n > 0)
		ctx = ibv_open_device(list[0]);
	ibv_free_device_list(list); /* the context keeps what it needs */
	if (ctx == NULL || soft_ibv_hooks_of(ctx) == NULL) {
		SDK_LOG_ERR("librdmacm: no soft device with an RDMA NIC (is the soft card configured, and is "
			    "libibverbs softdoca's?)");
		if (ctx != NULL)
			(void)ibv_close_device(ctx);
		return ENODEV;
	}
	g.pd = ibv_alloc_pd(ctx);
	if (g.pd == NULL) {
		(void)ibv_close_device(ctx);
		return ENOMEM;
	}
	g.verbs = ctx;
	g.ibv = soft_ibv_hooks_of(ctx);
	g.dev = g.ibv->dev_of(ctx);
	g.nic = g.dev->rnic;
	g.wire = cm_card_wire();
	return 0;
}

bool cm_valid_id(const struct cm_id *id)
{
	for (const struct cm_id *i = g.ids; i != NULL; i = i->next)
		if (i == id)
			return true;
	return false;
}

/* Looks an application's id up under g.lock; NULL (errno EINVAL) if it is not one of ours. */
static struct cm_id *id_lock(struct rdma_cm_id *pub)
{
	pthread_mutex_lock(&g.lock);
	if (pub == NULL || !cm_valid_id((struct cm_id *)pub)) {
		pthread_mutex_unlock(&g.lock);
		errno = EINVAL;
		return NULL;
	}
	return (struct cm_id *)pub;
}

static bool chan_valid(const struct rdma_event_channel *channel)
{
	for (const struct cm_chan *c = g.chans; c != NULL; c = c->next)
		if (&c->pub == channel)
			return true;
	return false;
}

int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **out, void *context,
		   enum rdma_port_space ps)
{
	struct cm_id *id;

	if (out == NULL)
		return cm_fail(EINVAL);
	if (ps != RDMA_PS_TCP) {
		SDK_LOG_ERR("rdma_create_id: port space 0x%x is not supported (only RDMA_PS_TCP, reliable connections)", ps);
		return cm_fail(EPROTONOSUPPORT);
	}
	if (channel == NULL) {
		/* synchronous: the id gets its own channel, and the calls that would queue an event wait for it */
		struct rdma_event_channel *own = rdma_create_event_channel();

		if (own == NULL)
			return -1;
		if (rdma_create_id(own, out, context, ps) != 0) {
			rdma_destroy_event_channel(own);
			return -1;
		}
		((struct cm_id *)*out)->sync_chan = own;
		return 0;
	}
	id = calloc(1, sizeof(*id));
	if (id == NULL)
		return cm_fail(ENOMEM);
	pthread_mutex_lock(&g.lock);
	if (!chan_valid(channel)) {
		pthread_mutex_unlock(&g.lock);
		free(id);
		return cm_fail(EINVAL);
	}
	id->pub.channel = channel;
	id->pub.context = context;
	id->pub.ps = ps;
	id->pub.qp_type = IBV_QPT_RC;
	id->state = ST_IDLE;
	id->next = g.ids;
	g.ids = id;
	pthread_mutex_unlock(&g.lock);
	*out = &id->pub;
	return 0;
}

/* Drops queued (not yet taken) events that name the id. */
void cm_drop_queued(struct cm_id *id)
{
	for (struct cm_chan *ch = g.chans; ch != NULL; ch = ch->next) {
		ch->tail = NULL;
		for (struct cm_event **pp = &ch->head; *pp != NULL;) {
			struct cm_event *ev = *pp;

			if (ev->counted == id || ev->pub.id == &id->pub) {
				*pp = ev->next;
				free(ev);
			} else {
				ch->tail = ev;
				pp = &ev->next;
			}
		}
	}
}

int rdma_destroy_id(struct rdma_cm_id *pub)
{
	struct cm_id *id = id_lock(pub);

	if (id == NULL)
		return -1;
	if (id->unacked > cm_sync_held(id)) {
		uint32_t n = id->unacked - cm_sync_held(id);

		pthread_mutex_unlock(&g.lock);
		SDK_LOG_ERR("rdma_destroy_id: %u event(s) of this id are not acked; ack them first (librdmacm would wait for ever)",
			    n);
		return cm_fail(EBUSY);
	}
	cm_sync_release(id); /* as librdmacm: the event a synchronous call left on id->event */
	if (id->state == ST_LISTEN)
		(void)g.nic->unlisten(id->ep->ep, id->nic_port);
	for (struct cm_id *c = g.ids; c != NULL; c = c->next)
		if (c->listener == id) {
			c->listener = NULL;
			if (!c->known) /* its request never reached the application: nobody will answer */
				c->orphan = true;
		}
	/* no event of its may be taken while cm_wait_sends lets go of the lock: it could not be acked */
	id->dying = true;
	cm_drop_queued(id);
	if (id->qp != NULL) {
		cm_wait_sends(id, 2000); /* a REP or RTU just posted reaches the peer */
		g.nic->qp_destroy(id->qp);
	}
	cm_drop_queued(id);
	for (struct cm_id **pp = &g.ids; *pp != NULL; pp = &(*pp)->next)
		if (*pp == id) {
			*pp = id->next;
			break;
		}
	if (id->ep != NULL)
		cm_ep_put(id->ep);
	free(id->pub.route.path_rec);
	free(id->req);
	free(id->peer_verbs);
	free(id->ep_qp_attr);
	cm_reap_orphans();
	pthread_mutex_unlock(&g.lock);
	if (id->sync_chan != NULL)
		rdma_destroy_event_channel(id->sync_chan);
	free(id);
	return 0;
}

uint16_t cm_port_of(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return 0;
}

void cm_set_port(struct sockaddr *sa, uint16_t port)
{
	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)sa)->sin_port = htons(port);
	else if (sa->sa_family == AF_INET6)
		((struct sockaddr_in6 *)sa)->sin6_port = htons(port);
}

static socklen_t sa_len(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET ? sizeof(struct sockaddr_in)
	       : sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : 0;
}

void cm_sockaddr_copy(struct sockaddr_storage *dst, const struct sockaddr *src)
{
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, sa_len(src));
}

/* A port for an active id's address (its RDMA-CM source port), as the kernel picks one. */
uint16_t cm_ephemeral_port(void)
{
	static uint32_t seed;

	if (seed == 0)
		seed = (uint32_t)getpid() * 2654435761u;
	seed = seed * 1103515245u + 12345u;
	return (uint16_t)(32768 + (seed >> 8) % 28232);
}

/* The id gets the device (verbs, pd) the first time it is bound or resolved. */
static int attach_dev(struct cm_id *id)
{
	int e = cm_dev_get();

	if (e != 0)
		return e;
	id->pub.verbs = g.verbs;
	id->pub.pd = g.pd;
	id->pub.port_num = 1;
	return 0;
}

int rdma_bind_addr(struct rdma_cm_id *pub, struct sockaddr *addr)
{
	struct cm_id *id;
	int e;

	if (addr == NULL || sa_len(addr) == 0)
		return cm_fail(addr == NULL ? EINVAL : EAFNOSUPPORT);
	id = id_lock(pub);
	if (id == NULL)
		return -1;
	if (id->state != ST_IDLE) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	e = attach_dev(id);
	if (e == 0) {
		cm_sockaddr_copy(&id->pub.route.addr.src_storage, addr);
		id->state = ST_BOUND;
	}
	pthread_mutex_unlock(&g.lock);
	return e == 0 ? 0 : cm_fail(e);
}

/* An IP address as the IPv4-mapped (or IPv6) RoCE v2 GID. */
static void gid_of(const struct sockaddr *sa, union ibv_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	if (sa->sa_family == AF_INET) {
		gid->raw[10] = 0xff;
		gid->raw[11] = 0xff;
		memcpy(&gid->raw[12], &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		memcpy(gid->raw, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
	}
}

/* The source address Linux would pick: the loopback address for a loopback peer, else the device's. */
static void pick_src(struct cm_id *id, const struct sockaddr *dst)
{
	struct sockaddr_storage *src = &id->pub.route.addr.src_storage;
	const struct softhw_function *fn = g.dev->devinfo->fn;

	memset(src, 0, sizeof(*src));
	src->ss_family = dst->sa_family;
	if (dst->sa_family == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)src;
		const struct sockaddr_in *d = (const struct sockaddr_in *)dst;

		if ((ntohl(d->sin_addr.s_addr) >> 24) == 127 || !fn->has_ipv4)
			s->sin_addr = d->sin_addr;
		else
			memcpy(&s->sin_addr, fn->ipv4, 4);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)src;
		const struct sockaddr_in6 *d = (const struct sockaddr_in6 *)dst;

		if (IN6_IS_ADDR_LOOPBACK(&d->sin6_addr) || !fn->has_ipv6)
			s->sin6_addr = d->sin6_addr;
		else
			memcpy(&s->sin6_addr, fn->ipv6, 16);
	}
}

int rdma_resolve_addr(struct rdma_cm_id *pub, struct sockaddr *src_addr, struct sockaddr *dst_addr, int timeout_ms)
{
	struct cm_event *ev;
	struct cm_id *id;
	int e;

	if (dst_addr == NULL || sa_len(dst_addr) == 0 || (src_addr != NULL && sa_len(src_addr) == 0))
		return cm_fail(dst_addr == NULL ? EINVAL : EAFNOSUPPORT);
	id = id_lock(pub);
	if (id == NULL)
		return -1;
	if (id->state != ST_IDLE && id->state != ST_BOUND) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	e = attach_dev(id);
	ev = e == 0 ? cm_event_new(id, RDMA_CM_EVENT_ADDR_RESOLVED, 0) : NULL;
	if (ev == NULL) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(e != 0 ? e : ENOMEM);
	}
	if (src_addr != NULL)
		cm_sockaddr_copy(&id->pub.route.addr.src_storage, src_addr);
	else if (id->state == ST_IDLE)
		pick_src(id, dst_addr);
	if (cm_port_of(&id->pub.route.addr.src_addr) == 0)
		cm_set_port(&id->pub.route.addr.src_addr, cm_ephemeral_port());
	cm_sockaddr_copy(&id->pub.route.addr.dst_storage, dst_addr);
	gid_of(&id->pub.route.addr.src_addr, &id->pub.route.addr.addr.ibaddr.sgid);
	gid_of(dst_addr, &id->pub.route.addr.addr.ibaddr.dgid);
	id->pub.route.addr.addr.ibaddr.pkey = htons(0xffff);
	id->state = ST_ADDR;
	cm_event_queue(ev);
	pthread_mutex_unlock(&g.lock);
	return id->sync_chan != NULL ? cm_sync_wait(id, RDMA_CM_EVENT_ADDR_RESOLVED) : 0;
}

int rdma_resolve_route(struct rdma_cm_id *pub, int timeout_ms)
{
	struct ibv_sa_path_rec *path;
	struct cm_event *ev;
	struct cm_id *id = id_lock(pub);

	if (id == NULL)
		return -1;
	if (id->state != ST_ADDR) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	path = calloc(1, sizeof(*path));
	ev = cm_event_new(id, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	if (path == NULL || ev == NULL) {
		pthread_mutex_unlock(&g.lock);
		free(path);
		free(ev);
		return cm_fail(ENOMEM);
	}
	/* Built locally, as Linux does on RoCE (rocev2.md §5.7). */
	path->sgid = id->pub.route.addr.addr.ibaddr.sgid;
	path->dgid = id->pub.route.addr.addr.ibaddr.dgid;
	path->pkey = htons(0xffff);
	path->hop_limit = 64;
	path->reversible = 1;
	path->numb_path = 1;
	path->mtu_selector = 2;
	path->mtu = IBV_MTU_1024;
	path->packet_life_time_selector = 2;
	path->packet_life_time = 16;
	free(id->pub.route.path_rec);
	id->pub.route.path_rec = path;
	id->pub.route.num_paths = 1;
	id->state = ST_ROUTE;
	cm_event_queue(ev);
	pthread_mutex_unlock(&g.lock);
	return id->sync_chan != NULL ? cm_sync_wait(id, RDMA_CM_EVENT_ROUTE_RESOLVED) : 0;
}

int rdma_listen(struct rdma_cm_id *pub, int backlog)
{
	struct cm_id *id = id_lock(pub);
	doca_error_t err = DOCA_ERROR_IN_USE;
	uint16_t port;
	int e;

	if (id == NULL)
		return -1;
	if (id->state == ST_IDLE) { /* Linux binds an unbound listener to the wildcard address */
		struct sockaddr_in any = {.sin_family = AF_INET};

		cm_sockaddr_copy(&id->pub.route.addr.src_storage, (struct sockaddr *)&any);
		id->state = ST_BOUND;
	}
	if (id->state != ST_BOUND) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	e = attach_dev(id);
	if (e == 0)
		e = cm_ep_get(id);
	if (e != 0) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(e);
	}
	port = cm_port_of(&id->pub.route.addr.src_addr);
	if (port != 0) {
		err = g.nic->listen(id->ep->ep, port);
	} else { /* port 0: one the NIC can have */
		for (int i = 0; i < 64 && err == DOCA_ERROR_IN_USE; i++) {
			port = cm_ephemeral_port();
			err = g.nic->listen(id->ep->ep, port);
		}
	}
	if (err != DOCA_SUCCESS) {
		cm_ep_put(id->ep);
		id->ep = NULL;
		pthread_mutex_unlock(&g.lock);
		if (err != DOCA_ERROR_IN_USE && err != DOCA_ERROR_ALREADY_EXIST)
			SDK_LOG_ERR("rdma_listen: the soft NIC cannot listen on port %u: %s", port, doca_error_get_descr(err));
		return cm_fail(err == DOCA_ERROR_IN_USE || err == DOCA_ERROR_ALREADY_EXIST ? EADDRINUSE
			       : err == DOCA_ERROR_NOT_PERMITTED                           ? EACCES
											   : EIO);
	}
	cm_set_port(&id->pub.route.addr.src_addr, port);
	id->nic_port = port;
	id->state = ST_LISTEN;
	pthread_mutex_unlock(&g.lock);
	return 0;
}

int rdma_migrate_id(struct rdma_cm_id *pub, struct rdma_event_channel *channel)
{
	struct cm_chan *to = (struct cm_chan *)channel;
	struct rdma_event_channel *sync_chan;
	struct cm_chan *from;
	struct cm_id *id;

	if (channel == NULL) { /* as librdmacm: the id becomes synchronous, on a channel of its own */
		struct rdma_event_channel *own;
		bool sync;

		id = id_lock(pub);
		if (id == NULL)
			return -1;
		sync = id->sync_chan != NULL;
		pthread_mutex_unlock(&g.lock);
		if (sync)
			return cm_fail(EINVAL);
		own = rdma_create_event_channel();
		if (own == NULL)
			return -1;
		if (rdma_migrate_id(pub, own) != 0) {
			int e = errno;

			rdma_destroy_event_channel(own);
			return cm_fail(e);
		}
		pthread_mutex_lock(&g.lock);
		id->sync_chan = own;
		pthread_mutex_unlock(&g.lock);
		return 0;
	}
	id = id_lock(pub);
	if (id == NULL)
		return -1;
	if (!chan_valid(channel)) {
		pthread_mutex_unlock(&g.lock);
		return cm_fail(EINVAL);
	}
	from = (struct cm_chan *)id->pub.channel;
	if (from == to) { /* (the loop below would lose the channel's queue) */
		pthread_mutex_unlock(&g.lock);
		return 0;
	}
	if (id->unacked > cm_sync_held(id)) {
		uint32_t n = id->unacked - cm_sync_held(id);

		pthread_mutex_unlock(&g.lock);
		SDK_LOG_ERR("rdma_migrate_id: %u event(s) of this id are not acked; ack them first", n);
		return cm_fail(EBUSY);
	}
	cm_sync_release(id); /* as librdmacm: the event a synchronous call left on id->event is acked */
	/* Its queued events move along, in order (none if its channel was destroyed under it). */
	if (from != NULL)
		from->tail = NULL;
	for (struct cm_event **pp = from != NULL ? &from->head : NULL; pp != NULL && *pp != NULL;) {
		struct cm_event *ev = *pp;

		if (ev->pub.id == &id->pub || ev->counted == id) {
			*pp = ev->next;
			ev->next = NULL;
			ev->pub.id->channel = channel; /* a listener's requests: their ids go along */
			if (to->tail != NULL)
				to->tail->next = ev;
			else
				to->head = ev;
			to->tail = ev;
			cm_ring(to);
		} else {
			from->tail = ev;
			pp = &ev->next;
		}
	}
	id->pub.channel = channel;
	/* as librdmacm: a synchronous id moved to a channel is asynchronous from now on */
	sync_chan = id->sync_chan;
	id->sync_chan = NULL;
	pthread_mutex_unlock(&g.lock);
	if (sync_chan != NULL)
		rdma_destroy_event_channel(sync_chan);
	return 0;
}

__be16 rdma_get_src_port(struct rdma_cm_id *id)
{
	return id == NULL ? 0 : htons(cm_port_of(&id->route.addr.src_addr));
}

__be16 rdma_get_dst_port(struct rdma_cm_id *id)
{
	return id == NULL ? 0 : htons(cm_port_of(&id->route.addr.dst_addr));
}

struct ibv_context **rdma_get_devices(int *num_devices)
{
	struct ibv_context **list = calloc(2, sizeof(*list));
	int e;

	if (list == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&g.lock);
	e = cm_dev_get();
	list[0] = e == 0 ? g.verbs : NULL;
	pthread_mutex_unlock(&g.lock);
	if (num_devices != NULL)
		*num_devices = e == 0 ? 1 : 0;
	return list;
}

void rdma_free_devices(struct ibv_context **list)
{
	free(list);
}
