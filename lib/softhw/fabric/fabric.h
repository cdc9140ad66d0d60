/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw fabric: how the processes that play the two sides of a soft card find and reach
 * each other. Rendezvous points are abstract unix sockets named after the card instance (which
 * encodes the run directory), so instances never collide and nothing is left on disk.
 * Everything above exchanges messages and file descriptors through these helpers; data moves
 * through shared memory or cross-memory attach (see the other headers of this folder).
 */
#ifndef SOFTHW_FABRIC_H
#define SOFTHW_FABRIC_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "doca_error.h"
#include "softhw/softhw.h"

#define SOFTHW_FABRIC_MAX_FDS 4

/* The address of rendezvous point `kind`/`name` of a card instance ("comch"/"server-name"). */
doca_error_t softhw_fabric_addr(const struct softhw_card *card, const char *kind, const char *name,
				struct sockaddr_un *addr, socklen_t *addr_len);

/* A non-blocking SOCK_SEQPACKET listener; ALREADY_EXIST if someone listens there already. */
doca_error_t softhw_fabric_listen(const struct softhw_card *card, const char *kind, const char *name, int *fd);

/*
 * A non-blocking connection to a listener; NOT_FOUND if nobody listens (yet), NOT_PERMITTED
 * (logged) if the process listening there is of a user card->access does not let in
 * (fabric/peer.h). Listeners check their side with a guard (softhw_guard_accept).
 */
doca_error_t softhw_fabric_connect(const struct softhw_card *card, const char *kind, const char *name, int *fd);

/* One message with up to SOFTHW_FABRIC_MAX_FDS descriptors attached. Returns bytes or -errno. */
ssize_t softhw_fabric_send(int sock, const void *buf, size_t len, const int *fds, int nfds);
/*
 * Receives one message (MSG_DONTWAIT); *nfds in: room, out: received. 0 = peer closed, -errno
 * (no descriptor is kept then: -EMSGSIZE for a message longer than len closed them).
 */
ssize_t softhw_fabric_recv(int sock, void *buf, size_t len, int *fds, int *nfds);

#endif /* SOFTHW_FABRIC_H */
