/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw values (lib/softhw/fabric/value.[ch]): the 64-bit values behind sync events. One value
 * per memory address, atomic access, waiters woken by updates, watchers told of every change;
 * a shared value reached by another process, whose updates wake an armed watcher through a
 * service thread. Links softhw alone.
 */
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "softhw/fabric/threads.h"
#include "softhw/fabric/value.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

struct counter {
	struct softhw_value_watcher w; /* first */
	int efd;
	int notified;
	int on_service_thread;
};

static void count_notify(struct softhw_value_watcher *w)
{
	struct counter *c = (struct counter *)w;
	uint64_t one = 1;

	__atomic_add_fetch(&c->notified, 1, __ATOMIC_SEQ_CST);
	if (softhw_thread_is_service())
		__atomic_store_n(&c->on_service_thread, 1, __ATOMIC_SEQ_CST);
	if (write(c->efd, &one, sizeof(one)) < 0) {
	}
}

/* Bounded wait for a notification. */
static bool notified_within(struct counter *c, int ms)
{
	struct pollfd p = {.fd = c->efd, .events = POLLIN};
	uint64_t v;

	if (poll(&p, 1, ms) != 1)
		return false;
	return read(c->efd, &v, sizeof(v)) == sizeof(v);
}

static void test_one_value_per_address(void)
{
	uint64_t word = 5;
	struct softhw_value *a = softhw_value_bind(&word), *b = softhw_value_bind(&word), *own = softhw_value_bind(NULL);

	CHECK(a != NULL && a == b && own != NULL && own != a);
	if (a == NULL || own == NULL)
		return;
	CHECK(softhw_value_addr(a) == &word && !softhw_value_is_private(a) && softhw_value_is_private(own));
	CHECK(!softhw_value_is_shared(own) && softhw_value_token(own) == 0);
	CHECK(softhw_value_load(a) == 5);
	softhw_value_store(b, 7);
	CHECK(word == 7 && softhw_value_fetch_add(a, 3) == 7 && word == 10);
	/* a compare-and-swap (a verbs peer's RDMA atomic on an exported event): only when equal */
	CHECK(softhw_value_compare_swap(a, 9, 99) == 10 && word == 10);
	CHECK(softhw_value_compare_swap(b, 10, 42) == 10 && word == 42);
	word = 10;
	CHECK(softhw_value_holds(10, SOFTHW_VALUE_GT, 9, ~0ull) && !softhw_value_holds(10, SOFTHW_VALUE_EQ, 11, ~0ull));
	CHECK(softhw_value_holds(0x1ff, SOFTHW_VALUE_EQ, 0xff, 0xff) && softhw_value_holds(1, SOFTHW_VALUE_NEQ, 2, ~0ull));
	/* A descriptor of this process finds it by id, address and token, until it is retired. */
	CHECK(softhw_value_find(softhw_value_id(own), (uint64_t)(uintptr_t)softhw_value_addr(own), 0) == own);
	softhw_value_unbind(own);
	softhw_value_retire(own);
	CHECK(softhw_value_find(softhw_value_id(own), (uint64_t)(uintptr_t)softhw_value_addr(own), 0) == NULL);
	softhw_value_unbind(own);
	softhw_value_unbind(b);
	softhw_value_unbind(a);
}

struct waiter {
	struct softhw_value *v;
	int done;
};

static void *wait_for_42(void *arg)
{
	struct waiter *w = arg;

	softhw_value_wait(w->v, SOFTHW_VALUE_EQ, 42, ~0ull, true);
	__atomic_store_n(&w->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* A waiter asleep on the value wakes when an update makes its condition hold. */
static void test_wait_and_watch(void)
{
	struct waiter w = {.v = softhw_value_bind(NULL)};
	struct counter c = {.w.notify = count_notify, .efd = eventfd(0, EFD_NONBLOCK)};
	pthread_t t;

	CHECK(w.v != NULL);
	if (w.v == NULL)
		return;
	softhw_value_watch(w.v, &c.w);
	CHECK(pthread_create(&t, NULL, wait_for_42, &w) == 0);
	softhw_value_store(w.v, 41);
	CHECK(!__atomic_load_n(&w.done, __ATOMIC_SEQ_CST)); /* 41: the condition does not hold */
	softhw_value_store(w.v, 42);
	CHECK(pthread_join(t, NULL) == 0 && w.done);
	CHECK(c.notified == 2); /* every change tells the watchers */
	CHECK(!softhw_value_arm(w.v)); /* a local value needs no watcher thread */
	softhw_value_unwatch(w.v, &c.w);
	softhw_value_store(w.v, 1);
	CHECK(c.notified == 2);
	softhw_value_unbind(w.v);
	close(c.efd);
}

/*
 * A value shared with another process: the child opens it from (pid, id, token) and updates
 * it; the parent's armed watcher is told by the watcher thread, a known service thread.
 */
static void test_shared_across_processes(void)
{
	struct counter c = {.w.notify = count_notify, .efd = eventfd(0, EFD_NONBLOCK)};
	struct softhw_value *v = NULL, *again = NULL;
	const char *why = "";
	int go[2], status = -1;
	uint64_t token, id, addr;
	pid_t pid;
	char ch = 0;

	CHECK_OK(softhw_value_create_shared(3, &v, &why));
	if (v == NULL) {
		fprintf(stderr, "create_shared: %s\n", why);
		return;
	}
	token = softhw_value_token(v);
	id = softhw_value_id(v);
	addr = (uint64_t)(uintptr_t)softhw_value_addr(v);
	CHECK(softhw_value_is_shared(v) && token != 0 && softhw_value_load(v) == 3);
	/* a live value named with another token or address: a forged descriptor */
	CHECK_ERR(softhw_value_open_shared((int32_t)getpid(), id, addr, token + 1, &again, &why), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(softhw_value_open_shared((int32_t)getpid(), id, addr + 8, token, &again, &why), DOCA_ERROR_INVALID_VALUE);
	softhw_value_watch(v, &c.w);
	CHECK(!softhw_value_arm(v)); /* the watcher thread is started and registered */
	CHECK(softhw_threads_only_caller()); /* ... and it is a known service thread */
	CHECK(pipe(go) == 0);
	pid = fork();
	if (pid == 0) {
		struct softhw_value *mine;

		alarm(30);
		if (read(go[0], &ch, 1) != 1 ||
		    softhw_value_open_shared((int32_t)getppid(), id, addr, token, &mine, &why) != DOCA_SUCCESS)
			_exit(2);
		if (softhw_value_load(mine) != 3)
			_exit(3);
		softhw_value_store(mine, 100);
		if (softhw_value_fetch_add(mine, 1) != 100)
			_exit(4);
		softhw_value_unbind(mine);
		_exit(0);
	}
	CHECK(write(go[1], "g", 1) == 1);
	CHECK(notified_within(&c, 10000)); /* the child's update woke the armed watcher */
	CHECK(c.on_service_thread);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(softhw_value_load(v) == 101);
	softhw_value_unwatch(v, &c.w);
	/* Retired by its exporter: nobody can open it any more. */
	softhw_value_retire(v);
	CHECK_ERR(softhw_value_open_shared((int32_t)getpid(), id, addr, token, &again, &why), DOCA_ERROR_NOT_FOUND);
	softhw_value_unbind(v);
	close(go[0]);
	close(go[1]);
	close(c.efd);
}

/* This binary's own run directory (set before the model loads): the tests below change it. */
static char scratch[64], run_dir[128], kind_dir[160];

/* Opens this process's own shared value as another process would (an import is a cell of its own). */
static doca_error_t import_own(struct softhw_value *v, const char **why)
{
	struct softhw_value *mine = NULL;
	doca_error_t err;

	*why = "";
	err = softhw_value_open_shared((int32_t)getpid(), softhw_value_id(v), (uint64_t)(uintptr_t)softhw_value_addr(v),
				       softhw_value_token(v), &mine, why);
	if (err == DOCA_SUCCESS)
		softhw_value_unbind(mine);
	return err;
}

/* A refusal names the way out. */
static void check_refused(struct softhw_value *v)
{
	const char *why = "";

	CHECK_ERR(import_own(v, &why), DOCA_ERROR_NOT_PERMITTED);
	CHECK(strstr(why, "SOFTDOCA_RUN_DIR") != NULL);
}

/*
 * The run directory can be another user's making (/tmp/softdoca-<uid> by default): a value is
 * imported only from a file of this user's, in folders only this user can write, reached
 * through no symlink; the same folders are checked when a value is created.
 */
static void test_shared_needs_own_run_dir(void)
{
	struct softhw_value *v = NULL, *w = NULL;
	char file[256], moved[sizeof(file) + 8], real[256];
	const char *why = "";

	CHECK_OK(softhw_value_create_shared(7, &v, &why));
	if (v == NULL) {
		fprintf(stderr, "create_shared: %s\n", why);
		return;
	}
	snprintf(file, sizeof(file), "%s/%" PRId32 "-%" PRIu64, kind_dir, (int32_t)getpid(), softhw_value_id(v));
	CHECK_OK(import_own(v, &why));

	/* folders others can write */
	CHECK(chmod(run_dir, 0777) == 0);
	check_refused(v);
	CHECK(chmod(run_dir, 0770) == 0);
	check_refused(v);
	CHECK(chmod(run_dir, 0700) == 0);
	CHECK(chmod(kind_dir, 0757) == 0);
	check_refused(v);
	CHECK_ERR(softhw_value_create_shared(1, &w, &why), DOCA_ERROR_NOT_PERMITTED);
	CHECK(chmod(kind_dir, 0700) == 0);
	CHECK_OK(import_own(v, &why));

	/* a symlinked run directory, folder or file */
	snprintf(real, sizeof(real), "%s/real-run", scratch);
	CHECK(rename(run_dir, real) == 0 && symlink("real-run", run_dir) == 0);
	check_refused(v);
	CHECK(unlink(run_dir) == 0 && rename(real, run_dir) == 0);
	snprintf(real, sizeof(real), "%s/real-kind", run_dir);
	CHECK(rename(kind_dir, real) == 0 && symlink("real-kind", kind_dir) == 0);
	check_refused(v);
	CHECK_ERR(softhw_value_create_shared(1, &w, &why), DOCA_ERROR_NOT_PERMITTED);
	CHECK(unlink(kind_dir) == 0 && rename(real, kind_dir) == 0);
	snprintf(moved, sizeof(moved), "%s.real", file);
	CHECK(rename(file, moved) == 0 && symlink(moved, file) == 0);
	check_refused(v);
	CHECK(unlink(file) == 0 && rename(moved, file) == 0);
	CHECK_OK(import_own(v, &why));

	/* another user's folder or file (only root can make one here) */
	if (geteuid() == 0) {
		CHECK(chown(run_dir, 65534, 65534) == 0);
		check_refused(v);
		CHECK(chown(run_dir, 0, 0) == 0);
		CHECK(chown(kind_dir, 65534, 65534) == 0);
		check_refused(v);
		CHECK_ERR(softhw_value_create_shared(1, &w, &why), DOCA_ERROR_NOT_PERMITTED);
		CHECK(chown(kind_dir, 0, 0) == 0);
		CHECK(chown(file, 65534, 65534) == 0);
		check_refused(v);
		CHECK(chown(file, 0, 0) == 0);
		CHECK_OK(import_own(v, &why));
	}
	softhw_value_retire(v);
	softhw_value_unbind(v);
}

int main(void)
{
	alarm(60);
	snprintf(scratch, sizeof(scratch), "/tmp/softhw-test-value-XXXXXX");
	if (mkdtemp(scratch) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(run_dir, sizeof(run_dir), "%s/run", scratch);
	snprintf(kind_dir, sizeof(kind_dir), "%s/sync_event", run_dir);
	setenv("SOFTDOCA_RUN_DIR", run_dir, 1);
	TEST_RUN(test_one_value_per_address);
	TEST_RUN(test_wait_and_watch);
	TEST_RUN(test_shared_across_processes);
	TEST_RUN(test_shared_needs_own_run_dir);
	(void)rmdir(kind_dir);
	(void)rmdir(run_dir);
	(void)rmdir(scratch);
	TEST_EXIT();
}
