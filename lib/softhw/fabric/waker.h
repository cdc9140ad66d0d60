/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw waker: one service thread per process that turns "this fd became readable" into a
 * call, for sleepers that must also wake on socket events (a peer connecting, leaving or
 * dying). It is started on first use and sleeps in epoll_wait otherwise: idle costs nothing.
 */
#ifndef SOFTHW_FABRIC_WAKER_H
#define SOFTHW_FABRIC_WAKER_H

#include <stdint.h>

#include "doca_error.h"

typedef void (*softhw_wake_fn)(void *arg);

/* Registers fd (not yet watched); *id names the registration. */
doca_error_t softhw_waker_add(int fd, softhw_wake_fn fn, void *arg, uint32_t *id);
/* One shot: fn(arg) runs once, on the service thread, when fd is (or becomes) readable. */
doca_error_t softhw_waker_arm(uint32_t id);
/* After it returns, fn(arg) of this registration neither runs nor will run. */
void softhw_waker_del(uint32_t id);

#endif /* SOFTHW_FABRIC_WAKER_H */
