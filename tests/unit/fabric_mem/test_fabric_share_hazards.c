/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared windows (lib/softhw/fabric/share.h) against what can store into the pages behind the
 * exporter's back, each with the real mechanism, each in a process of its own (rings, AIO
 * contexts and clones die with it):
 *  - an io_uring read in flight, completed by the kernel's task_work in the middle of the move
 *    (a userfaultfd page halts the move's copy there, and its handler makes the read complete);
 *  - io_uring fixed buffers registered before the export (the ring keeps the old pages);
 *  - an AIO context with an operation in flight;
 *  - a process made by clone(CLONE_VM) without CLONE_THREAD (not in /proc/self/task), storing
 *    all the time;
 *  - a child of _Fork() (no atfork handler runs) and of fork(): neither side's stores reach the
 *    other, also for a window that outlived its exports.
 * Where a window would lose bytes the export keeps the pages private and says why in the log.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/aio_abi.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_log.h"
#include "softhw/fabric/mem.h"
#include "softhw/softhw.h"
#include "test.h"

/* Linked from the library archive without a flavour. */
const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

static char instance[64];
static size_t pg;
static FILE *sdk_log;

/* ---- helpers (run inside the scenario's process) ---- */

static void log_start(void)
{
	struct doca_log_backend *be;

	sdk_log = tmpfile();
	if (sdk_log == NULL || doca_log_backend_create_with_file_sdk(sdk_log, &be) != DOCA_SUCCESS)
		_exit(90);
	doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG);
}

/* Did the SDK log say `needle`? (echoes the log on a miss) */
static bool log_has(const char *needle)
{
	static char buf[16384];
	size_t n;

	fflush(sdk_log);
	rewind(sdk_log);
	n = fread(buf, 1, sizeof(buf) - 1, sdk_log);
	buf[n] = '\0';
	if (strstr(buf, needle) != NULL)
		return true;
	fprintf(stderr, "log has no \"%s\":\n%s", needle, buf);
	return false;
}

/* Does /proc/self/maps show addr on one of softdoca's export memfds? */
static bool on_window(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	bool found = false;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (uintptr_t)addr >= lo && (uintptr_t)addr < hi)
			found = strstr(line, "softdoca-export") != NULL;
	}
	if (f != NULL)
		fclose(f);
	return found;
}

static bool all_bytes(const uint8_t *p, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

static uint8_t *anon(size_t len)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return m == MAP_FAILED ? NULL : m;
}

static bool export(void *addr, size_t len, uint64_t *id)
{
	uint64_t token;
	const char *why = "";

	if (softhw_mem_export_add(instance, addr, len, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, id, &token, &why) ==
	    DOCA_SUCCESS)
		return true;
	fprintf(stderr, "export failed: %s\n", why);
	return false;
}

/* Per-scenario checks: print the failed condition, and count it in the exit status. */
static int scenario_failures;
#define EXPECT(cond) \
	do { \
		if (!(cond)) { \
			scenario_failures++; \
			fprintf(stderr, "%s:%d: expected: %s\n", __FILE__, __LINE__, #cond); \
		} \
	} while (0)

static int skipped;

/*
 * Runs a scenario in a child process of its own, bounded in time. A scenario that exits 77
 * could not set up its mechanism here: skipped, and said so.
 */
static void run_scenario(void (*scenario)(void), const char *name)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		alarm(30);
		log_start();
		scenario();
		_exit(scenario_failures == 0 ? 0 : 1);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		skipped++;
		test_checks--; /* (the wait above is no check of the scenario) */
		fprintf(stderr, "skip %s: its mechanism is not available on this machine\n", name);
		return;
	}
	if (WIFSIGNALED(status))
		fprintf(stderr, "%s killed by signal %d\n", name, WTERMSIG(status));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- an io_uring read completes in the middle of the move ---- */

/*
 * The userfaultfd handler, in its own process: at the first fault (the move copying the
 * halting page) it makes the pending read complete by writing its pipe, then lets the
 * faulting access go on. Exit 0: it did; 2: no fault came (the move never ran). It holds the
 * only descriptor of the userfaultfd: when it exits, the page is no longer watched, so that
 * nothing can stay halted on it.
 */
static void fault_handler(int uffd, int pipe_w, int hangup)
{
	struct pollfd p[2] = {{.fd = uffd, .events = POLLIN}, {.fd = hangup, .events = POLLIN}};
	struct uffd_msg msg;
	uint8_t bytes[64];

	memset(bytes, 0x5a, sizeof(bytes));
	do {
		if (poll(p, 2, 20000) <= 0 || (p[1].revents & (POLLIN | POLLHUP)))
			_exit(2);
	} while (read(uffd, &msg, sizeof(msg)) != sizeof(msg));
	if (msg.event != UFFD_EVENT_PAGEFAULT)
		_exit(3);
	if (write(pipe_w, bytes, sizeof(bytes)) != sizeof(bytes))
		_exit(4);
	/* (the kernel queued the read's completion on the exporter before this returns) */
	struct uffdio_zeropage z = {.range = {.start = msg.arg.pagefault.address & ~(uint64_t)(pg - 1), .len = pg}};
	_exit(ioctl(uffd, UFFDIO_ZEROPAGE, &z) == 0 ? 0 : 5);
}

static void scenario_uring_read_in_flight(void)
{
	/* page 0: the read's target; 1: zero (the move copies page 0 before it goes on); 2: halts */
	const size_t len = 16 * pg;
	uint8_t *m = anon(len), bytes[64];
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	struct uffdio_api api = {.api = UFFD_API};
	struct uffdio_register reg = {.range = {.start = (uintptr_t)m + 2 * pg, .len = pg},
				      .mode = UFFDIO_REGISTER_MODE_MISSING};
	struct io_uring ring;
	struct io_uring_cqe *cqe = NULL;
	struct __kernel_timespec ts = {.tv_sec = 10};
	int io[2], hangup[2], status = 0;
	uint64_t id = 0;
	pid_t handler;
	bool shared;

	if (m == NULL || uffd < 0 || ioctl(uffd, UFFDIO_API, &api) != 0 || ioctl(uffd, UFFDIO_REGISTER, &reg) != 0 ||
	    pipe(io) != 0 || pipe(hangup) != 0) {
		fprintf(stderr, "setup failed: %s\n", strerror(errno));
		_exit(77);
	}
	memset(m, 0x11, pg);
	memset(m + 3 * pg, 0x11, len - 3 * pg);
	handler = fork();
	if (handler == 0) {
		close(hangup[1]);
		fault_handler(uffd, io[1], hangup[0]);
	}
	close(hangup[0]);
	close(uffd);
	EXPECT(handler > 0 && io_uring_queue_init(4, &ring, 0) == 0);
	io_uring_prep_read(io_uring_get_sqe(&ring), io[0], m + 100, sizeof(bytes), 0);
	EXPECT(io_uring_submit(&ring) == 1);

	EXPECT(export(m, len, &id));
	shared = on_window(m);
	close(hangup[1]);
	EXPECT(waitpid(handler, &status, 0) == handler && WIFEXITED(status));
	if (WEXITSTATUS(status) == 2) { /* the move did not run: complete the read now */
		memset(bytes, 0x5a, sizeof(bytes));
		EXPECT(write(io[1], bytes, sizeof(bytes)) == sizeof(bytes));
	}
	EXPECT(io_uring_wait_cqe_timeout(&ring, &cqe, &ts) == 0 && cqe != NULL && cqe->res == sizeof(bytes));
	/* the read's bytes are in the exporter's memory */
	EXPECT(all_bytes(m + 100, sizeof(bytes), 0x5a));
	EXPECT(!shared);
	EXPECT(log_has("io_uring"));
	softhw_mem_export_remove(id);
	io_uring_queue_exit(&ring);
}

/* ---- io_uring fixed buffers registered before the export ---- */

static void scenario_uring_fixed_buffers(void)
{
	const size_t len = 16 * pg;
	uint8_t *m = anon(len), bytes[64];
	struct iovec iov = {.iov_base = m, .iov_len = len};
	struct io_uring ring;
	struct io_uring_cqe *cqe = NULL;
	int in[2], out[2];
	uint64_t id = 0;

	if (m == NULL || pipe(in) != 0 || pipe(out) != 0 || io_uring_queue_init(4, &ring, 0) != 0)
		_exit(77);
	memset(m, 0x11, len);
	EXPECT(io_uring_register_buffers(&ring, &iov, 1) == 0);
	EXPECT(export(m, len, &id));
	EXPECT(!on_window(m + pg));
	EXPECT(log_has("fixed buffer"));

	/* a fixed read lands where the application looks */
	memset(bytes, 0x5a, sizeof(bytes));
	EXPECT(write(in[1], bytes, sizeof(bytes)) == sizeof(bytes));
	io_uring_prep_read_fixed(io_uring_get_sqe(&ring), in[0], m + pg + 10, sizeof(bytes), 0, 0);
	EXPECT(io_uring_submit_and_wait(&ring, 1) == 1 && io_uring_peek_cqe(&ring, &cqe) == 0 &&
	       cqe->res == sizeof(bytes));
	io_uring_cqe_seen(&ring, cqe);
	EXPECT(all_bytes(m + pg + 10, sizeof(bytes), 0x5a));

	/* a fixed write sends what the application stored */
	memset(m + 2 * pg, 0x33, sizeof(bytes));
	io_uring_prep_write_fixed(io_uring_get_sqe(&ring), out[1], m + 2 * pg, sizeof(bytes), 0, 0);
	EXPECT(io_uring_submit_and_wait(&ring, 1) == 1 && io_uring_peek_cqe(&ring, &cqe) == 0 &&
	       cqe->res == sizeof(bytes));
	io_uring_cqe_seen(&ring, cqe);
	EXPECT(read(out[0], bytes, sizeof(bytes)) == sizeof(bytes) && all_bytes(bytes, sizeof(bytes), 0x33));
	softhw_mem_export_remove(id);
	io_uring_queue_exit(&ring);
}

/* ---- an AIO context with an operation in flight ---- */

static void scenario_aio_in_flight(void)
{
	const size_t len = 16 * pg;
	uint8_t *m = anon(len);
	aio_context_t ctx = 0;
	struct iocb cb = {.aio_lio_opcode = IOCB_CMD_POLL, .aio_buf = POLLIN};
	struct iocb *cbs[1] = {&cb};
	struct io_event ev;
	struct timespec ts = {.tv_sec = 10};
	int p[2];
	uint64_t id = 0;

	if (m == NULL || pipe(p) != 0 || syscall(SYS_io_setup, 4, &ctx) != 0)
		_exit(77);
	memset(m, 0x11, len);
	cb.aio_fildes = (uint32_t)p[0];
	EXPECT(syscall(SYS_io_submit, ctx, 1, cbs) == 1); /* in flight until the pipe is written */
	EXPECT(export(m, len, &id));
	EXPECT(!on_window(m + pg));
	EXPECT(log_has("AIO"));
	EXPECT(write(p[1], "x", 1) == 1);
	EXPECT(syscall(SYS_io_getevents, ctx, 1, 1, &ev, &ts) == 1);
	softhw_mem_export_remove(id);
	syscall(SYS_io_destroy, ctx);
}

/* ---- a process sharing our memory, made by clone(CLONE_VM) without CLONE_THREAD ---- */

static struct {
	uint32_t *words;
	size_t n;
	uint32_t passes; /* completed */
	uint32_t lost;   /* words that did not hold the previous pass's value */
	uint32_t stop;
} vm_sibling;

/*
 * Writes every word with the pass number, pass after pass, checking the previous pass's value
 * first. No libc call: it runs on our memory, TLS and all.
 */
__attribute__((no_sanitize("address", "undefined"))) static int vm_sibling_main(void *arg)
{
	(void)arg;
	for (uint32_t pass = 1;; pass++) {
		for (size_t i = 0; i < vm_sibling.n; i++) {
			if (pass > 1 && __atomic_load_n(&vm_sibling.words[i], __ATOMIC_RELAXED) != pass - 1)
				vm_sibling.lost++;
			__atomic_store_n(&vm_sibling.words[i], pass, __ATOMIC_RELAXED);
		}
		__atomic_store_n(&vm_sibling.passes, pass, __ATOMIC_RELEASE);
		if (__atomic_load_n(&vm_sibling.stop, __ATOMIC_ACQUIRE))
			break;
	}
	syscall(SYS_exit, 0); /* (not exit(): that would run our atexit handlers) */
	return 0;
}

static void scenario_clone_vm(void)
{
	const size_t len = 8u << 20, stack_len = 256 * 1024;
	uint8_t *m = anon(len), *stack = anon(stack_len);
	struct timespec t0, t;
	bool ever_shared = false;
	int status;
	pid_t kid;

	if (m == NULL || stack == NULL)
		_exit(77);
	vm_sibling.words = (uint32_t *)(void *)m;
	vm_sibling.n = len / sizeof(uint32_t);
	kid = clone(vm_sibling_main, stack + stack_len, CLONE_VM | SIGCHLD, NULL);
	EXPECT(kid > 0);
	if (kid <= 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do { /* it has written everything once */
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (__atomic_load_n(&vm_sibling.passes, __ATOMIC_ACQUIRE) == 0 && t.tv_sec - t0.tv_sec < 10);
	/* exports (each a move, if it were allowed) and their ends (a move back) while it stores */
	for (int i = 0; i < 10; i++) {
		uint64_t id;

		EXPECT(export(m, len, &id));
		ever_shared = ever_shared || on_window(m + pg);
		softhw_mem_export_remove(id);
	}
	__atomic_store_n(&vm_sibling.stop, 1, __ATOMIC_RELEASE);
	EXPECT(waitpid(kid, &status, 0) == kid && WIFEXITED(status));
	EXPECT(!ever_shared);
	EXPECT(vm_sibling.lost == 0);
	bool kept = true;
	for (size_t i = 0; i < vm_sibling.n; i++)
		kept = kept && vm_sibling.words[i] == vm_sibling.passes;
	EXPECT(kept);
	if (vm_sibling.lost != 0)
		fprintf(stderr, "%u stores lost in %u passes\n", vm_sibling.lost, vm_sibling.passes);
	EXPECT(log_has("CLONE_VM"));
}

/* ---- children of _Fork() and fork() ---- */

static void scenario_underscore_fork(void)
{
	const size_t len = 16 * pg;
	uint8_t *m = anon(len);
	int go[2], status;
	uint64_t id = 0;
	pid_t kid;

	if (m == NULL || pipe(go) != 0)
		_exit(77);
	memset(m, 0x11, len);
	EXPECT(export(m, len, &id));
	EXPECT(on_window(m + pg));

	/* the child's store does not reach us */
	kid = _Fork();
	if (kid == 0) {
		signal(SIGSEGV, SIG_DFL); /* (not a sanitizer's report) */
		m[5 * pg] = 0xcc;
		_exit(0);
	}
	EXPECT(kid > 0 && waitpid(kid, &status, 0) == kid);
	EXPECT(m[5 * pg] == 0x11);
	/* what it gets instead: no pages there (it never ran softdoca's fork handler) */
	EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);

	/* our store does not reach the child */
	kid = _Fork();
	if (kid == 0) {
		char c;

		signal(SIGSEGV, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(m[6 * pg] == 0x77 ? 3 : 0);
	}
	m[6 * pg] = 0x77;
	EXPECT(write(go[1], "g", 1) == 1);
	EXPECT(kid > 0 && waitpid(kid, &status, 0) == kid);
	EXPECT(!(WIFEXITED(status) && WEXITSTATUS(status) == 3));
	EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	softhw_mem_export_remove(id);
}

/* Is the page at addr mapped with these permissions ("r--p")? */
static bool page_perms(const void *addr, const char *perms)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512], p[5] = "";

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p) == 3 && (uintptr_t)addr >= lo && (uintptr_t)addr < hi)
			break;
		p[0] = '\0';
	}
	if (f != NULL)
		fclose(f);
	return strcmp(p, perms) == 0;
}

static void scenario_fork(void)
{
	const size_t len = 16 * pg;
	uint8_t *m = anon(len);
	int go[2], ready[2], status;
	uint64_t id = 0;
	pid_t kid;
	char c;

	if (m == NULL || pipe(go) != 0 || pipe(ready) != 0)
		_exit(77);
	memset(m, 0x11, len);
	EXPECT(export(m, len, &id));
	EXPECT(on_window(m + pg));
	EXPECT(mprotect(m + 7 * pg, pg, PROT_READ) == 0);
	kid = fork();
	if (kid == 0) {
		/* its own private pages, with our contents and protections */
		int bad = !all_bytes(m + pg, len - 2 * pg, 0x11) || on_window(m + pg) || !page_perms(m + 7 * pg, "r--p") ||
			  !page_perms(m + 6 * pg, "rw-p");
		m[5 * pg] = 0xcc;
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(bad ? 2 : m[6 * pg] == 0x77 ? 3 : 0);
	}
	EXPECT(kid > 0 && read(ready[0], &c, 1) == 1);
	EXPECT(m[5 * pg] == 0x11);
	m[6 * pg] = 0x77;
	EXPECT(write(go[1], "g", 1) == 1);
	EXPECT(kid > 0 && waitpid(kid, &status, 0) == kid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		fprintf(stderr, "fork child exited with %d\n", WEXITSTATUS(status));
	EXPECT(on_window(m + pg));
	softhw_mem_export_remove(id);
}

static void *idle_thread(void *arg)
{
	char c;

	return read(*(int *)arg, &c, 1) < 0 ? NULL : arg; /* until the pipe is written */
}

/*
 * The export ends while another thread runs: the window stays shared (no move back), and
 * goes back to fork children, which still get a private copy of it.
 */
static void scenario_window_outlives_export(void)
{
	const size_t len = 16 * pg;
	uint8_t *m = anon(len);
	static int stop[2];
	pthread_t t;
	uint64_t id = 0;
	int status;
	pid_t kid;

	if (m == NULL || pipe(stop) != 0)
		_exit(77);
	memset(m, 0x11, len);
	EXPECT(export(m, len, &id));
	EXPECT(pthread_create(&t, NULL, idle_thread, &stop[0]) == 0);
	softhw_mem_export_remove(id);
	EXPECT(on_window(m + pg));
	EXPECT(log_has("stays shared after its last export"));
	kid = fork();
	if (kid == 0) {
		int bad = !all_bytes(m + pg, len - 2 * pg, 0x11) || on_window(m + pg);

		m[5 * pg] = 0xcc;
		_exit(bad);
	}
	EXPECT(kid > 0 && waitpid(kid, &status, 0) == kid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT(m[5 * pg] == 0x11);
	EXPECT(write(stop[1], "s", 1) == 1 && pthread_join(t, NULL) == 0);
}

/* ---- the process running the scenarios ---- */

#define SCENARIO_TEST(name) \
	static void test_##name(void) \
	{ \
		run_scenario(scenario_##name, #name); \
	}
SCENARIO_TEST(uring_read_in_flight)
SCENARIO_TEST(uring_fixed_buffers)
SCENARIO_TEST(aio_in_flight)
SCENARIO_TEST(clone_vm)
SCENARIO_TEST(underscore_fork)
SCENARIO_TEST(fork)
SCENARIO_TEST(window_outlives_export)

int main(void)
{
	long v = sysconf(_SC_PAGESIZE);

	pg = v > 0 ? (size_t)v : 4096;
	snprintf(instance, sizeof(instance), "fabric-share-test@%d", (int)getpid());
	signal(SIGPIPE, SIG_IGN);
	unsetenv("SOFTDOCA_FABRIC_SHARE");
	TEST_RUN(test_uring_read_in_flight);
	TEST_RUN(test_uring_fixed_buffers);
	TEST_RUN(test_aio_in_flight);
	TEST_RUN(test_clone_vm);
	TEST_RUN(test_underscore_fork);
	TEST_RUN(test_fork);
	TEST_RUN(test_window_outlives_export);
	if (test_checks == 0 && skipped > 0)
		TEST_SKIP(); /* (meson: skipped) */
	TEST_EXIT();
}
