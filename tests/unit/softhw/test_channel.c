/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw channel (lib/softhw/fabric/channel.[ch]): the shared-memory rings under Comch and the
 * soft NIC's same-host path. Both sides in one process (the segment mapped twice), then across
 * a fork. Credits, doorbells, control hints, a corrupting peer and segments that must not be
 * mapped. Links softhw alone.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "softhw/fabric/channel.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

/* Side A creates, side B attaches the same segment. */
static bool pair(uint32_t max_msg, uint32_t a2b, uint32_t b2a, struct softhw_chan *a, struct softhw_chan *b)
{
	struct softhw_chan_geom g;
	int fd;
	bool ok;

	if (softhw_chan_geom_make(max_msg, a2b, b2a, &g) != DOCA_SUCCESS || softhw_chan_create(&g, a, &fd) != DOCA_SUCCESS)
		return false;
	ok = softhw_chan_attach(fd, &g, b) == DOCA_SUCCESS;
	close(fd);
	if (!ok)
		softhw_chan_close(a);
	return ok;
}

/* The rings a doorbell's receiving end took since the last look. */
static uint64_t bell_count(int fd)
{
	int n = softhw_bell_drain(fd, 1 << 20);

	return n > 0 ? (uint64_t)n : 0;
}

static void test_geometry(void)
{
	struct softhw_chan_geom g;

	CHECK_ERR(softhw_chan_geom_make(64, 0, 1, &g), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(softhw_chan_geom_make(SOFTHW_CHAN_MAX_MSG + 1, 1, 1, &g), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(softhw_chan_geom_make(64, SOFTHW_CHAN_MAX_SLOTS + 1, 1, &g), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(softhw_chan_geom_make(100, 5, 3, &g));
	CHECK(g.slots[SOFTHW_CHAN_A_TO_B] == 8 && g.slots[SOFTHW_CHAN_B_TO_A] == 4);
	CHECK(g.slot_size % SOFTHW_CHAN_LINE == 0 && g.slot_size >= 100 + sizeof(struct softhw_chan_rec));
}

/* Records arrive in order, both ways; a full ring refuses until the receiver consumes. */
static void test_order_and_credits(void)
{
	struct softhw_chan a, b;
	struct softhw_chan_msg m;

	CHECK(pair(32, 3, 2, &a, &b));
	if (!softhw_chan_mapped(&a))
		return;
	for (uint32_t i = 0; i < 3; i++) {
		CHECK(softhw_chan_can_send(&a));
		softhw_chan_send(&a, 7, i, &i, sizeof(i));
	}
	CHECK(!softhw_chan_can_send(&a)); /* three credits a->b */
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t v = ~0u;

		CHECK(softhw_chan_peek(&b, &m) == 1);
		memcpy(&v, m.data, sizeof(v));
		CHECK(m.tag == 7 && m.aux == i && m.len == sizeof(v) && v == i);
		softhw_chan_consume(&b);
		CHECK(softhw_chan_can_send(&a));
	}
	CHECK(softhw_chan_peek(&b, &m) == 0);
	softhw_chan_send(&b, 1, 2, "back", 4);
	CHECK(softhw_chan_peek(&a, &m) == 1 && m.len == 4 && memcmp(m.data, "back", 4) == 0);
	softhw_chan_consume(&a);
	softhw_chan_close(&a);
	softhw_chan_close(&b);
	CHECK(!softhw_chan_mapped(&a));
	softhw_chan_close(&a); /* closing twice is harmless */
}

/* A sleeping receiver gets one ring after the next record; a waiting sender one after a consume. */
static void test_doorbells(void)
{
	struct softhw_chan a, b;
	struct softhw_chan_msg m;
	int ba[2] = {-1, -1}, bb[2] = {-1, -1}, bell_a, bell_b;

	CHECK(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, ba) == 0 && socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, bb) == 0);
	bell_a = ba[0];
	bell_b = bb[0];
	CHECK(pair(16, 1, 1, &a, &b));
	if (!softhw_chan_mapped(&a))
		return;
	CHECK(softhw_chan_set_bell(&a, bb[1])); /* A rings B */
	CHECK(softhw_chan_set_bell(&b, ba[1]));
	softhw_chan_send(&a, 0, 0, "x", 1);
	CHECK(bell_count(bell_b) == 0); /* B polls: no system call for it */
	CHECK(softhw_chan_arm_rx(&b));  /* something waits already: do not sleep */
	softhw_chan_consume(&b);
	CHECK(!softhw_chan_arm_rx(&b)); /* nothing: B sleeps */
	CHECK(softhw_chan_arm_tx(&a)); /* the credit came back */
	softhw_chan_send(&a, 0, 0, "y", 1);
	CHECK(bell_count(bell_b) == 1);
	CHECK(!softhw_chan_arm_tx(&a)); /* no credit left: A sleeps */
	CHECK(softhw_chan_peek(&b, &m) == 1);
	softhw_chan_consume(&b);
	CHECK(bell_count(bell_a) >= 1);
	/* Control hints: one per message sent beside the ring, and they wake a sleeper too. */
	CHECK(!softhw_chan_ctrl_hinted(&b));
	softhw_chan_hint_ctrl(&a);
	CHECK(softhw_chan_arm_rx(&b));
	CHECK(softhw_chan_ctrl_hinted(&b) && !softhw_chan_ctrl_hinted(&b));
	softhw_chan_close(&a);
	softhw_chan_close(&b);
	close(bell_a);
	close(bell_b);
}

/*
 * The peer's hold on our doorbells cannot block us: the end it rings shares its file flags
 * with us, so it clears O_NONBLOCK and fills the queue, and our rings still return at once;
 * it never holds the end we drain. A doorbell that is not a socket (an eventfd, whose flags
 * and counter the peer would keep) is refused and never rung. (An alarm ends the test if a
 * call blocks.)
 */
static void test_doorbells_hostile_peer(void)
{
	struct softhw_chan a, b;
	int bell[2] = {-1, -1}, efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC), flags, filled = 0;
	const char one = 1;

	CHECK(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, bell) == 0 && efd >= 0);
	CHECK(pair(16, 1, 1, &a, &b));
	if (!softhw_chan_mapped(&a) || bell[0] < 0)
		return;
	CHECK(!softhw_chan_set_bell(&a, efd)); /* closed, not kept */
	CHECK(a.peer_bell < 0);
	CHECK(softhw_chan_set_bell(&a, dup(bell[1])));
	/* the peer: blocking from now on, and the queue full */
	flags = fcntl(bell[1], F_GETFL);
	CHECK(flags >= 0 && fcntl(bell[1], F_SETFL, flags & ~O_NONBLOCK) == 0);
	while (filled < 100000 && send(bell[1], &one, 1, MSG_DONTWAIT) == 1)
		filled++;
	CHECK(filled > 0 && filled < 100000);
	alarm(10);
	for (int i = 0; i < 1000; i++)
		softhw_bell_ring(a.peer_bell); /* returns: the queue is full, it is rung already */
	softhw_chan_send(&a, 0, 0, "x", 1);    /* (rings if B sleeps) */
	CHECK(softhw_chan_arm_rx(&b));
	CHECK(bell_count(bell[0]) >= (uint64_t)filled); /* and draining ends when it is empty */
	CHECK(bell_count(bell[0]) == 0);
	alarm(0);
	softhw_chan_close(&a);
	softhw_chan_close(&b);
	close(bell[0]);
	close(bell[1]);
}

/* Both ringing ends of a doorbell reach its receiving end; then all three are closed. */
static void rings_arrive_and_close(int rfd, int lfd, int sfd)
{
	softhw_bell_ring(lfd);
	softhw_bell_ring(sfd);
	CHECK(bell_count(rfd) == 2);
	close(rfd);
	close(lfd);
	close(sfd);
}

/*
 * Nobody but the two ringing ends softhw_bell_open made can reach its receiving end: its name
 * (in a 0700 directory) is gone once they are connected, so a third socket's sendto finds
 * nothing, and nothing lists it. Without a usable temporary directory it falls back to an
 * abstract name, and rings still arrive.
 */
static void test_bell_unreachable(void)
{
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	int rfd = -1, lfd = -1, sfd = -1, other = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	const char one = 1;
	char *saved = getenv("TMPDIR") != NULL ? strdup(getenv("TMPDIR")) : NULL;

	CHECK(other >= 0);
	CHECK(softhw_bell_open(&rfd, &lfd, &sfd) == 0);
	CHECK(getsockname(rfd, (struct sockaddr *)&a, &len) == 0);
	CHECK(len > sizeof(sa_family_t) && a.sun_path[0] == '/'); /* a path name, not an abstract one */
	CHECK(access(a.sun_path, F_OK) != 0 && errno == ENOENT);
	CHECK(sendto(other, &one, 1, MSG_DONTWAIT, (struct sockaddr *)&a, len) < 0 && errno == ENOENT);
	rings_arrive_and_close(rfd, lfd, sfd);

	CHECK(setenv("TMPDIR", "/nonexistent-softdoca-dir", 1) == 0);
	CHECK(softhw_bell_open(&rfd, &lfd, &sfd) == 0);
	len = sizeof(a);
	CHECK(getsockname(rfd, (struct sockaddr *)&a, &len) == 0 && len > sizeof(sa_family_t) && a.sun_path[0] == '\0');
	rings_arrive_and_close(rfd, lfd, sfd);
	if (saved != NULL)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	close(other);
}

/*
 * A named doorbell (a PE's): each peer gets a ringing end of its own, so one that shuts its
 * end down, or connects it elsewhere, silences nobody else. Its name stays in a 0700
 * directory until removed; then no new end can be made, and the directory is gone.
 */
static void test_bell_ringers(void)
{
	struct softhw_bell_name name;
	int rfd = -1, lfd = -1, a, b, c;

	CHECK(softhw_bell_open_named(&rfd, &lfd, &name) == 0);
	CHECK(name.dir[0] == '/' && access(name.addr.sun_path, F_OK) == 0);
	a = softhw_bell_ringer(&name);
	b = softhw_bell_ringer(&name);
	c = softhw_bell_ringer(&name);
	CHECK(a >= 0 && b >= 0 && c >= 0);
	CHECK(shutdown(a, SHUT_WR) == 0); /* a hostile peer's end */
	CHECK(connect(c, &(struct sockaddr){.sa_family = AF_UNSPEC}, sizeof(struct sockaddr)) == 0); /* another's: dissolved */
	softhw_bell_ring(a);
	softhw_bell_ring(c);
	CHECK(bell_count(rfd) == 0);
	softhw_bell_ring(b);
	softhw_bell_ring(lfd);
	CHECK(bell_count(rfd) == 2);
	softhw_bell_unname(&name);
	CHECK(softhw_bell_ringer(&name) < 0);
	softhw_bell_ring(b); /* (ends already made ring on) */
	CHECK(bell_count(rfd) == 1);
	close(a);
	close(b);
	close(c);
	close(lfd);
	close(rfd);
}

/* A child keeps a name (a PE's doorbell) and, with unname, removes it before it exits. */
static pid_t keep_name(int out, bool unname)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct softhw_bell_name n;
		int r, l;

		if (softhw_bell_open_named(&r, &l, &n) != 0 || write(out, n.dir, sizeof(n.dir)) != (ssize_t)sizeof(n.dir))
			_exit(1);
		if (unname)
			softhw_bell_unname(&n);
		_exit(0); /* (a process that never destroys its PE) */
	}
	return pid;
}

/*
 * The name a process kept stays behind when it ends without removing it (an exit without
 * doca_pe_destroy, a crash); the next process that keeps a name removes it, as nothing
 * receives there any more.
 */
static void test_bell_names_swept(void)
{
	char left[sizeof(((struct sockaddr_un *)0)->sun_path)] = "", other[sizeof(left)];
	int p[2], status;
	pid_t pid;

	CHECK(pipe(p) == 0);
	pid = keep_name(p[1], false);
	CHECK(pid > 0 && read(p[0], left, sizeof(left)) == (ssize_t)sizeof(left));
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(left[0] == '/' && access(left, F_OK) == 0);
	pid = keep_name(p[1], true);
	CHECK(pid > 0 && read(p[0], other, sizeof(other)) == (ssize_t)sizeof(other));
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(access(left, F_OK) != 0 && errno == ENOENT);
	CHECK(access(other, F_OK) != 0 && errno == ENOENT);
	close(p[0]);
	close(p[1]);
}

/* Connects to a path holding connect_watch are counted (test_bell_sweep_foreign). */
static const char *connect_watch;
static int connect_watched;

int connect(int fd, const struct sockaddr *a, socklen_t len)
{
	const size_t off = offsetof(struct sockaddr_un, sun_path);

	if (connect_watch != NULL && a->sa_family == AF_UNIX && len > off &&
	    memmem(((const struct sockaddr_un *)a)->sun_path, len - off, connect_watch, strlen(connect_watch)) != NULL)
		connect_watched++;
	return (int)syscall(SYS_connect, fd, a, len);
}

/* A pid that ran and is gone (reaped). */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	CHECK(pid > 0 && waitpid(pid, NULL, 0) == pid);
	return pid;
}

/*
 * Names in $TMPDIR shaped like a dead process's kept doorbell but another user's (anyone can
 * make them in /tmp): a directory, and a symlink to a directory of ours. The sweep leaves them,
 * without a connect through them (each would cost the sweep a kill and a connect, and a
 * symlink would have it resolve a path the other user chose); a dead name of ours goes.
 */
static void test_bell_sweep_foreign(void)
{
	char tmp[] = "/tmp/softdoca-sweep-XXXXXX", dir[sizeof(tmp) + 64], link[sizeof(dir)], ours[sizeof(dir)],
	     target[sizeof(dir)];
	const pid_t gone = dead_pid();
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int s, status;
	pid_t pid;

	if (geteuid() != 0) {
		fprintf(stderr, "  (not root: no other user to make the names)\n");
		return;
	}
	CHECK(mkdtemp(tmp) != NULL && chmod(tmp, 01777) == 0);
	snprintf(dir, sizeof(dir), "%s/.softdoca-bell-%d-foreign1", tmp, (int)gone);
	snprintf(link, sizeof(link), "%s/.softdoca-bell-%d-foreign2", tmp, (int)gone);
	snprintf(target, sizeof(target), "%s/target", tmp);
	snprintf(ours, sizeof(ours), "%s/.softdoca-bell-%d-ours", tmp, (int)gone);
	CHECK(mkdir(dir, 0755) == 0 && chown(dir, 65534, 65534) == 0);
	CHECK(mkdir(target, 0700) == 0 && symlink(target, link) == 0 && lchown(link, 65534, 65534) == 0);
	/* ours: a receiving end bound there, then closed (nothing receives) */
	CHECK(mkdir(ours, 0700) == 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s/b", ours);
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	CHECK(s >= 0 && bind(s, (struct sockaddr *)&a, sizeof(a)) == 0);
	close(s);
	pid = fork();
	if (pid == 0) { /* a fresh process: its first doorbell sweeps */
		struct softhw_bell_name n;
		int r, l;

		setenv("TMPDIR", tmp, 1);
		connect_watch = "foreign";
		if (softhw_bell_open_named(&r, &l, &n) != 0)
			_exit(2);
		softhw_bell_unname(&n);
		_exit(connect_watched == 0 ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status));
	CHECK(WEXITSTATUS(status) == 0);
	CHECK(access(dir, F_OK) == 0 && access(target, F_OK) == 0);
	CHECK(access(ours, F_OK) != 0 && errno == ENOENT);
	(void)unlink(a.sun_path);
	(void)rmdir(ours);
	(void)rmdir(dir);
	(void)unlink(link);
	(void)rmdir(target);
	CHECK(rmdir(tmp) == 0);
}

/* A peer that scribbles over the segment breaks only the channel: the receiver sees -1. */
static void test_corrupt_peer(void)
{
	struct softhw_chan a, b;
	struct softhw_chan_msg m;

	CHECK(pair(16, 4, 4, &a, &b));
	if (!softhw_chan_mapped(&a))
		return;
	/* a record's sequence from neither this lap nor the last one */
	__atomic_store_n(&softhw_ring_slot(&a.tx, a.tx.pos)->seq, a.tx.pos + 1000, __ATOMIC_RELEASE);
	CHECK(softhw_chan_peek(&b, &m) == -1);
	softhw_chan_close(&a);
	softhw_chan_close(&b);

	CHECK(pair(16, 4, 4, &a, &b));
	if (!softhw_chan_mapped(&a))
		return;
	softhw_chan_publish(&a, 0, 0, 0xfffffff0u); /* longer than a slot */
	CHECK(softhw_chan_peek(&b, &m) == -1);
	softhw_chan_close(&a);
	softhw_chan_close(&b);
}

/* Segments that are not what was agreed are refused before they are used. */
static void test_attach_refused(void)
{
	struct softhw_chan_geom g, other;
	struct softhw_chan a, b;
	int fd, plain;

	CHECK_OK(softhw_chan_geom_make(64, 2, 2, &g));
	CHECK_OK(softhw_chan_geom_make(64, 2, 4, &other));
	CHECK_OK(softhw_chan_create(&g, &a, &fd));
	CHECK_ERR(softhw_chan_attach(fd, &other, &b), DOCA_ERROR_INVALID_VALUE); /* another geometry */
	other = g;
	other.slot_size += SOFTHW_CHAN_LINE; /* not what geom_make makes */
	CHECK_ERR(softhw_chan_attach(fd, &other, &b), DOCA_ERROR_INVALID_VALUE);
	((struct softhw_chan_shm *)a.base)->magic = 0; /* not a channel */
	CHECK_ERR(softhw_chan_attach(fd, &g, &b), DOCA_ERROR_INVALID_VALUE);
	close(fd);
	softhw_chan_close(&a);
	/* A memfd whose size is not sealed could shrink under the mapping. */
	plain = memfd_create("unsealed", MFD_CLOEXEC);
	CHECK(plain >= 0 && ftruncate(plain, (off_t)g.size) == 0);
	CHECK_ERR(softhw_chan_attach(plain, &g, &b), DOCA_ERROR_INVALID_VALUE);
	close(plain);
}

/* Two processes: the child attaches the inherited segment and streams records; none is lost. */
static void test_across_fork(void)
{
	enum { N = 100000 };
	struct softhw_chan_geom g;
	struct softhw_chan a;
	uint64_t next = 0;
	int fd, status = -1;
	pid_t pid;

	CHECK_OK(softhw_chan_geom_make(8, 16, 16, &g));
	CHECK_OK(softhw_chan_create(&g, &a, &fd));
	pid = fork();
	if (pid == 0) {
		struct softhw_chan b;

		alarm(30);
		if (softhw_chan_attach(fd, &g, &b) != DOCA_SUCCESS)
			_exit(2);
		for (uint64_t i = 0; i < N; i++) {
			while (!softhw_chan_can_send(&b))
				;
			softhw_chan_send(&b, 0, i, &i, sizeof(i));
		}
		_exit(0);
	}
	alarm(30);
	while (next < N) {
		struct softhw_chan_msg m;
		int got = softhw_chan_peek(&a, &m);
		uint64_t v;

		if (got == 0)
			continue;
		if (got < 0)
			break;
		memcpy(&v, m.data, sizeof(v));
		if (m.aux != next || v != next)
			break;
		softhw_chan_consume(&a);
		next++;
	}
	alarm(0);
	CHECK(next == N);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
	softhw_chan_close(&a);
}

int main(void)
{
	TEST_RUN(test_geometry);
	TEST_RUN(test_order_and_credits);
	TEST_RUN(test_doorbells);
	TEST_RUN(test_doorbells_hostile_peer);
	TEST_RUN(test_bell_unreachable);
	TEST_RUN(test_bell_ringers);
	TEST_RUN(test_bell_names_swept);
	TEST_RUN(test_bell_sweep_foreign);
	TEST_RUN(test_corrupt_peer);
	TEST_RUN(test_attach_refused);
	TEST_RUN(test_across_fork);
	TEST_EXIT();
}
