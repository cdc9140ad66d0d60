/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw comch (lib/softhw/comch): the transport under libdoca_comch, through its ops table.
 * Rendezvous by name, links that carry control messages with descriptors, and the port a
 * sleeping PE is woken through: wake() runs on the waker thread, a known service thread (so a
 * process using Comch keeps its shared windows), for a message, a closed link or the tick.
 * Links softhw alone.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "softhw/comch/comch.h"
#include "softhw/fabric/threads.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

static const struct softhw_comch_ops *hw = &softhw_comch_ops;

struct waker_probe {
	int efd;
	int service; /* wake() ran on a known service thread */
};

static void wake(void *arg)
{
	struct waker_probe *p = arg;
	uint64_t one = 1;

	if (softhw_thread_is_service())
		__atomic_store_n(&p->service, 1, __ATOMIC_SEQ_CST);
	if (write(p->efd, &one, sizeof(one)) < 0) {
	}
}

static bool woken_within(struct waker_probe *p, int ms)
{
	struct pollfd pfd = {.fd = p->efd, .events = POLLIN};
	uint64_t v;

	return poll(&pfd, 1, ms) == 1 && read(p->efd, &v, sizeof(v)) == sizeof(v);
}

static const struct softhw_card *card(void)
{
	doca_error_t err;
	const struct softhw_model *m = softhw_model_get(&err);

	return m != NULL && softhw_model_num_functions(m) > 0 ? softhw_model_function(m, 0)->card : NULL;
}

/* Polls the port (bounded) until it reports `tag`. */
static bool polled(struct softhw_comch_port *port, uint64_t tag)
{
	for (int i = 0; i < 1000; i++) {
		uint64_t tags[8];
		int n = hw->port_poll(port, tags, 8);

		for (int j = 0; j < n; j++)
			if (tags[j] == tag)
				return true;
		usleep(1000);
	}
	return false;
}

static void test_rendezvous_and_links(void)
{
	const struct softhw_card *c = card();
	struct waker_probe probe = {.efd = eventfd(0, EFD_NONBLOCK)};
	struct softhw_comch_port *srv = NULL, *other = NULL;
	int cl = -1, s = -1, again = -1, fds[SOFTHW_COMCH_MAX_FDS], nfds = SOFTHW_COMCH_MAX_FDS;
	int bell = eventfd(0, EFD_NONBLOCK);
	char buf[64];
	struct softhw_peer peer;
	static const struct softhw_comch_admission adm = {.max_pending_per_peer = 4, .max_links = 8};

	CHECK(c != NULL);
	if (c == NULL)
		return;
	CHECK_OK(hw->port_open("test server", wake, &probe, &srv));
	CHECK_OK(hw->port_open("test other", wake, &probe, &other));
	if (srv == NULL || other == NULL)
		return;
	CHECK_ERR(hw->connect(c, "b1:00.0/transport", &cl), DOCA_ERROR_NOT_FOUND); /* nobody listens yet */
	CHECK_OK(hw->listen(srv, c, "b1:00.0/transport", &adm));
	CHECK_ERR(hw->listen(other, c, "b1:00.0/transport", &adm), DOCA_ERROR_ALREADY_EXIST);
	CHECK_ERR(hw->accept(srv, &s, &peer), DOCA_ERROR_AGAIN);
	CHECK_OK(hw->connect(c, "b1:00.0/transport", &cl));
	CHECK(polled(srv, SOFTHW_COMCH_TAG_LISTENER));
	CHECK_OK(hw->accept(srv, &s, &peer));
	CHECK(peer.uid == getuid() && peer.pid == getpid()); /* the kernel's word on who connected */
	CHECK_ERR(hw->accept(srv, &again, &peer), DOCA_ERROR_AGAIN);
	hw->port_watch(srv, s, 5);

	/* A control message with a descriptor attached. */
	CHECK(hw->send(cl, "hello", 5, &bell, 1) == 5);
	CHECK(polled(srv, 5));
	CHECK(hw->recv(s, buf, sizeof(buf), fds, &nfds) == 5 && memcmp(buf, "hello", 5) == 0 && nfds == 1);
	if (nfds == 1) {
		uint64_t one = 1, v = 0;

		CHECK(write(fds[0], &one, sizeof(one)) == sizeof(one) && read(bell, &v, sizeof(v)) == sizeof(v) && v == 1);
		hw->close(fds[0]);
	}
	nfds = SOFTHW_COMCH_MAX_FDS;
	CHECK(hw->recv(s, buf, sizeof(buf), fds, &nfds) == -EAGAIN && nfds == 0);
	/* Longer than the caller takes: dropped, with its descriptors. */
	memset(buf, 'x', sizeof(buf));
	CHECK(hw->send(cl, buf, sizeof(buf), &bell, 1) == sizeof(buf));
	nfds = SOFTHW_COMCH_MAX_FDS;
	CHECK(hw->recv(s, buf, 8, fds, &nfds) == -EMSGSIZE && nfds == 0);

	/* Asleep: a message wakes the port once, on the waker thread. */
	CHECK_OK(hw->port_arm(srv));
	CHECK(!woken_within(&probe, 50));
	CHECK(hw->send(cl, "wake", 4, NULL, 0) == 4);
	CHECK(woken_within(&probe, 5000));
	CHECK(probe.service);
	CHECK(softhw_threads_only_caller()); /* the waker does not cost this process its shared windows */
	nfds = SOFTHW_COMCH_MAX_FDS;
	CHECK(hw->recv(s, buf, sizeof(buf), fds, &nfds) == 4);

	/* The peer goes: its link reads EOF, and that wakes a sleeper too. */
	CHECK_OK(hw->port_arm(srv));
	hw->close(cl);
	CHECK(woken_within(&probe, 5000));
	CHECK(polled(srv, 5));
	nfds = SOFTHW_COMCH_MAX_FDS;
	CHECK(hw->recv(s, buf, sizeof(buf), fds, &nfds) == 0);
	hw->port_unwatch(srv, s);
	hw->release(srv, &peer);
	hw->close(s);

	/* After unlisten (a stopping server) nobody reaches the name; after close, another may listen. */
	hw->unlisten(srv);
	CHECK_ERR(hw->connect(c, "b1:00.0/transport", &cl), DOCA_ERROR_NOT_FOUND);
	hw->port_close(srv);
	CHECK_OK(hw->listen(other, c, "b1:00.0/transport", &adm));
	hw->port_close(other);
	close(bell);
	close(probe.efd);
}

/* The tick wakes a sleeping port (client retries, goodbye deadlines); polling eats its ticks. */
static void test_timer(void)
{
	struct waker_probe probe = {.efd = eventfd(0, EFD_NONBLOCK)};
	struct softhw_comch_port *port = NULL;
	uint64_t tags[4];

	CHECK_OK(hw->port_open("test timer", wake, &probe, &port));
	if (port == NULL)
		return;
	hw->port_timer(port, 10 * 1000 * 1000);
	CHECK_OK(hw->port_arm(port));
	CHECK(woken_within(&probe, 5000));
	CHECK(hw->port_poll(port, tags, 4) == 0);
	hw->port_timer(port, 0);
	hw->port_poll(port, tags, 4);
	CHECK_OK(hw->port_arm(port));
	CHECK(!woken_within(&probe, 100)); /* off: no more ticks */
	hw->port_close(port);
	close(probe.efd);
}

int main(void)
{
	alarm(60);
	TEST_RUN(test_rendezvous_and_links);
	TEST_RUN(test_timer);
	TEST_EXIT();
}
