/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw comch: the transport under libdoca_comch, the soft equivalent of the PCIe message
 * queues between the host and the DPU side of a BlueField.
 *
 * libdoca_comch reaches it through one ops table, `doca_dev->comch` (lib/common/priv/
 * dev_priv.h), as libdoca_rdma reaches the soft NIC through `doca_dev->rnic`. The code and
 * its state (the waker thread, the service-thread registry, the channels' set-up) live once
 * per process, inside libdoca_common, and no non-DOCA symbol crosses a library boundary.
 * libdoca_comch keeps the DOCA semantics: the handshake's admission rules, connection states,
 * tasks and callbacks.
 *
 * What it offers:
 *  - links: SOCK_SEQPACKET connections between the two sides, found at the card's rendezvous
 *    point for a name (fabric.h), that carry control messages with descriptors attached;
 *  - a port per started server or client: the links it watches, its listener, a periodic
 *    tick, and a waker registration that calls wake(arg) on a service thread when any of them
 *    becomes readable while the PE sleeps;
 *  - channels (fabric/channel.h): the shared-memory rings that carry the messages. Their set-up
 *    is here; the ring operations of the hot path are inline in channel.h (no call, no syscall).
 *
 * Threads: every call comes from the thread that progresses the server or client (its PE),
 * except wake(), which runs on the waker thread.
 */
#ifndef SOFTHW_COMCH_H
#define SOFTHW_COMCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "doca_error.h"
#include "softhw/fabric/channel.h"
#include "softhw/fabric/peer.h"

struct softhw_card;
struct softhw_comch_port;

/* Descriptors one control message carries at most. */
#define SOFTHW_COMCH_MAX_FDS 4
/* The tag port_poll reports for a listener with clients waiting; port_watch tags are >= 2. */
#define SOFTHW_COMCH_TAG_LISTENER 1

/*
 * How a server's listener admits clients (fabric/peer.h's guard): only processes the access
 * policy allows, capped per process and in all, backing off while descriptors run out.
 */
struct softhw_comch_admission {
	uint32_t max_pending_per_peer; /* links of one process that have not finished their handshake */
	uint32_t max_links;            /* all links of the listener */
	/* Writes what a refused client reads before its link closes; returns its length (0: nothing). */
	size_t (*reject_msg)(void *buf, size_t room, doca_error_t why, const char *reason);
};

struct softhw_comch_ops {
	/* ---- port (doca_ctx_start / stop of a server or client) ---- */
	/*
	 * An epoll set with a timer, registered with the waker. `label` ("Comch server 'name'")
	 * names the port in log lines. Failures are logged.
	 */
	doca_error_t (*port_open)(const char *label, void (*wake)(void *arg), void *arg,
				  struct softhw_comch_port **port);
	/* Closes the listener, the timer and the port (not the links); wake() does not run after. */
	void (*port_close)(struct softhw_comch_port *port);
	/* Reports `tag` (>= 2) from port_poll whenever `link` is readable (or closed by the peer). */
	void (*port_watch)(struct softhw_comch_port *port, int link, uint64_t tag);
	void (*port_unwatch)(struct softhw_comch_port *port, int link);
	/* A periodic tick every period_ns (0: off), so that a sleeping PE wakes for retries and deadlines. */
	void (*port_timer)(struct softhw_comch_port *port, uint64_t period_ns);
	/* Up to `max` tags of what is readable; the timer's ticks are consumed, not reported. Never blocks. */
	int (*port_poll)(struct softhw_comch_port *port, uint64_t *tags, int max);
	/* The PE is going to sleep: wake() runs once when something is readable. An error: poll instead. */
	doca_error_t (*port_arm)(struct softhw_comch_port *port);

	/* ---- rendezvous ---- */
	/*
	 * Listens at the card's point for `name` (reported as SOFTHW_COMCH_TAG_LISTENER), admitting
	 * clients as `adm` says (kept by reference). ALREADY_EXIST if taken.
	 */
	doca_error_t (*listen)(struct softhw_comch_port *port, const struct softhw_card *card, const char *name,
			       const struct softhw_comch_admission *adm);
	void (*unlisten)(struct softhw_comch_port *port);
	/*
	 * One waiting client's link, admitted for `peer` (refused ones are answered, closed and
	 * logged here); AGAIN when none waits, or while out of descriptors (the port then leaves
	 * the listener alone and reports it again when the backoff ends).
	 */
	doca_error_t (*accept)(struct softhw_comch_port *port, int *link, struct softhw_peer *peer);
	/* The client of an admitted link finished its handshake: it no longer counts as pending. */
	void (*settle)(struct softhw_comch_port *port, struct softhw_peer *peer);
	/* An admitted link closed. */
	void (*release)(struct softhw_comch_port *port, const struct softhw_peer *peer);
	/*
	 * A link to the listener of `name`; NOT_FOUND while nobody listens, NOT_PERMITTED when
	 * the listener is a process of another user (logged).
	 */
	doca_error_t (*connect)(const struct softhw_card *card, const char *name, int *link);

	/* ---- links ---- */
	/* One control message with up to SOFTHW_COMCH_MAX_FDS descriptors. Returns bytes or -errno. */
	ssize_t (*send)(int link, const void *msg, size_t len, const int *fds, int nfds);
	/*
	 * One message (never blocks); *nfds in: room, out: received. 0: the peer closed;
	 * -EAGAIN: none; -EMSGSIZE: longer than len (dropped with its descriptors).
	 */
	ssize_t (*recv)(int link, void *buf, size_t len, int *fds, int *nfds);
	/* Closes a link or a descriptor received from, or handed to, the peer. */
	void (*close)(int fd);
	/*
	 * A ringing end of a PE's doorbell (base/bell.h) for one peer alone, to hand it and then
	 * close: a peer can shut its end down or connect it elsewhere, which must silence no other
	 * peer's rings. When none can be made, a copy of `shared` (logged); -1 when not even that.
	 */
	int (*bell_ringer)(const struct softhw_bell_name *name, int shared);

	/* ---- channels (fabric/channel.h) ---- */
	doca_error_t (*chan_geom)(uint32_t max_msg, uint32_t limit_a2b, uint32_t limit_b2a,
				  struct softhw_chan_geom *geom);
	doca_error_t (*chan_create)(const struct softhw_chan_geom *geom, struct softhw_chan *ch, int *memfd);
	doca_error_t (*chan_attach)(int memfd, const struct softhw_chan_geom *geom, struct softhw_chan *ch);
	void (*chan_close)(struct softhw_chan *ch);
};

/* The Comch transport of every soft device (lib/softhw/comch/). */
extern const struct softhw_comch_ops softhw_comch_ops;

#endif /* SOFTHW_COMCH_H */
