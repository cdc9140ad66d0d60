/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sync events across the host<->DPU link: this process plays one side of the soft card and a
 * child (this program re-executed with --child, by default as the DPU side) the other. The
 * child is an agent that runs commands received over a pipe and answers each one, so every
 * test reads as a dialogue. Covered: export on either side and import on the other (and on
 * the same side), set / add / get seen across, stand-alone waits and wait tasks (PE asleep in
 * epoll) woken by the other process, idle waits that cost (almost) no CPU, many round trips,
 * concurrent atomic adds, and the refusals: another card instance, a destroyed or dead
 * exporter, a forged token, value address or id, an event in user memory.
 *
 * Every wait is bounded (poll timeouts, epoll timeouts, alarm in the child): a bug fails a
 * check, it never hangs the suite.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_log.h"
#include "doca_pe.h"
#include "doca_sync_event.h"
#include "softhw/base/export_desc.h"
#include "se_test.h"
#include "test.h"

#define ALL UINT64_MAX
#define REPLY_MS 10000      /* longest wait for the other side's answer */
#define EPOLL_MS 5000       /* longest sleep of a PE waiting for the other side */
#define NUM_ADDS 200000     /* per process, in the concurrent adds test */
#define SE_VERSION 2        /* descriptor format (lib/common/sync_event_export.c) */
#define OFF_PID (SOFTDOCA_DESC_HEADER_LEN + 0)
#define OFF_ID (SOFTDOCA_DESC_HEADER_LEN + 8)
#define OFF_ADDR (SOFTDOCA_DESC_HEADER_LEN + 16)
#define OFF_TOKEN (SOFTDOCA_DESC_HEADER_LEN + 152)
#define SHM_SLEEPERS 28     /* offset of the sleeper count in a shared value's segment */

/* ---- the messages between the two sides ---- */

enum {
	CMD_EXPORT = 'X',   /* val: EXP_* flags; answer: the descriptor */
	CMD_IMPORT = 'I',   /* data: descriptor, val: EXP_CTX for a context; answer: status */
	CMD_GET = 'G',      /* answer val: the value */
	CMD_SET = 'S',      /* val: the value */
	CMD_ADD = 'A',      /* val: increment; answer val: the previous value */
	CMD_SET_TASK = 's', /* val: the value, set by a notify_set task of the context */
	CMD_SET_WHEN_ASLEEP = 'Z', /* val: set once the other side sleeps on the value */
	CMD_WAIT = 'W',     /* val: stand-alone wait_eq until the value equals val */
	CMD_WAIT_TASK = 'T', /* val: wait task in epoll; answers ARMED, then val: wake-ups */
	CMD_ADDS = 'N',     /* val: how many update_add(1) to do */
	CMD_PING_PONG = 'P', /* val: rounds of (wait for 2k+1, set 2k+2), with tasks in epoll */
	CMD_DESTROY = 'D',
	CMD_CRASH = 'K',    /* exit without cleaning up, as a crash would */
	ANS_ARMED = 'a',
};

enum {
	EXP_USER_MEM = 1, /* back the event with set_addr memory */
	EXP_CTX = 2,      /* use the event as a context (PE, tasks) rather than stand-alone */
};

struct msg {
	uint32_t tag;
	int32_t status;
	uint64_t val;
	uint32_t len;
	uint8_t data[256];
};

static bool msg_send(int fd, uint32_t tag, int32_t status, uint64_t val, const void *data, size_t len)
{
	struct msg m = {.tag = tag, .status = status, .val = val, .len = (uint32_t)len};

	if (len > sizeof(m.data))
		return false;
	if (len > 0)
		memcpy(m.data, data, len);
	return write(fd, &m, sizeof(m)) == (ssize_t)sizeof(m); /* < PIPE_BUF: one atomic write */
}

/* Reads one message within timeout_ms (-1: no limit); false on timeout, EOF or error. */
static bool msg_recv(int fd, struct msg *m, int timeout_ms)
{
	size_t got = 0;

	while (got < sizeof(*m)) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		ssize_t n;

		if (poll(&p, 1, timeout_ms) <= 0)
			return false;
		n = read(fd, (uint8_t *)m + got, sizeof(*m) - got);
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/* ---- one side of the card: a device, an event, and (context use) a PE ---- */

struct side {
	struct doca_dev *dev;
	struct doca_sync_event *ev;
	struct doca_pe *pe;
	uint8_t desc[256];   /* the descriptor exported or imported last */
	size_t desc_len;
	int done;            /* tasks completed successfully */
	int failed;
};

static uint64_t user_word;

static struct doca_dev *open_dev(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		if (doca_sync_event_cap_is_export_to_remote_pci_supported(list[i]) != DOCA_SUCCESS ||
		    doca_sync_event_cap_is_create_from_export_supported(list[i]) != DOCA_SUCCESS ||
		    doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

static void task_ok(struct doca_task *task, struct side *s)
{
	s->done++;
	doca_task_free(task);
}

static void task_err(struct doca_task *task, struct side *s)
{
	s->failed++;
	doca_task_free(task);
}

static void wait_ok(struct doca_sync_event_task_wait_eq *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	task_ok(doca_sync_event_task_wait_eq_as_doca_task(t), cud.ptr);
}

static void wait_err(struct doca_sync_event_task_wait_eq *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	task_err(doca_sync_event_task_wait_eq_as_doca_task(t), cud.ptr);
}

static void set_ok(struct doca_sync_event_task_notify_set *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	task_ok(doca_sync_event_task_notify_set_as_doca_task(t), cud.ptr);
}

static void set_err(struct doca_sync_event_task_notify_set *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	task_err(doca_sync_event_task_notify_set_as_doca_task(t), cud.ptr);
}

/* Starts s->ev stand-alone, or as a context on a new PE with wait_eq and notify_set tasks. */
static doca_error_t side_start(struct side *s, bool ctx)
{
	struct doca_ctx *c;
	union doca_data ud = {.ptr = s};
	doca_error_t err;

	if (!ctx)
		return doca_sync_event_start(s->ev);
	c = doca_sync_event_as_ctx(s->ev);
	err = doca_pe_create(&s->pe);
	if (err == DOCA_SUCCESS)
		err = doca_pe_connect_ctx(s->pe, c);
	if (err == DOCA_SUCCESS)
		err = doca_ctx_set_user_data(c, ud);
	if (err == DOCA_SUCCESS)
		err = doca_sync_event_task_wait_eq_set_conf(s->ev, wait_ok, wait_err, 4);
	if (err == DOCA_SUCCESS)
		err = doca_sync_event_task_notify_set_set_conf(s->ev, set_ok, set_err, 4);
	if (err == DOCA_SUCCESS)
		err = doca_ctx_start(c);
	return err;
}

static doca_error_t side_export(struct side *s, uint64_t flags)
{
	const uint8_t *data = NULL;
	size_t sz = 0;
	doca_error_t err;

	err = doca_sync_event_create(&s->ev);
	if (err != DOCA_SUCCESS)
		return err;
	(void)doca_sync_event_add_publisher_location_cpu(s->ev, s->dev);
	(void)doca_sync_event_add_subscriber_location_remote_pci(s->ev);
	(void)doca_sync_event_add_publisher_location_remote_pci(s->ev);
	if (flags & EXP_USER_MEM)
		(void)doca_sync_event_set_addr(s->ev, &user_word);
	err = side_start(s, flags & EXP_CTX);
	if (err == DOCA_SUCCESS)
		err = doca_sync_event_export_to_remote_pci(s->ev, s->dev, &data, &sz);
	if (err == DOCA_SUCCESS && sz <= sizeof(s->desc)) {
		memcpy(s->desc, data, sz);
		s->desc_len = sz;
	}
	return err;
}

static doca_error_t side_import(struct side *s, const uint8_t *desc, size_t len, uint64_t flags)
{
	doca_error_t err = doca_sync_event_create_from_export(s->dev, desc, len, &s->ev);

	if (err != DOCA_SUCCESS) {
		s->ev = NULL;
		return err;
	}
	memcpy(s->desc, desc, len);
	s->desc_len = len;
	return side_start(s, flags & EXP_CTX);
}

static doca_error_t side_destroy(struct side *s)
{
	doca_error_t err = DOCA_SUCCESS;

	if (s->ev == NULL)
		return DOCA_SUCCESS;
	if (s->pe != NULL) {
		struct doca_ctx *c = doca_sync_event_as_ctx(s->ev);
		enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
		double end = now_sec() + 5.0;

		(void)doca_ctx_stop(c);
		while (doca_ctx_get_state(c, &st) == DOCA_SUCCESS && st != DOCA_CTX_STATE_IDLE && now_sec() < end)
			(void)doca_pe_progress(s->pe);
	}
	err = doca_sync_event_destroy(s->ev);
	if (s->pe != NULL)
		(void)doca_pe_destroy(s->pe);
	s->ev = NULL;
	s->pe = NULL;
	return err;
}

/* Submits a notify_set task and progresses until it completes. */
static doca_error_t side_set_task(struct side *s, uint64_t v)
{
	struct doca_sync_event_task_notify_set *t;
	union doca_data ud = {.u64 = 0};
	int before = s->done;
	doca_error_t err;

	err = doca_sync_event_task_notify_set_alloc_init(s->ev, v, ud, &t);
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(t));
	for (double end = now_sec() + 5.0; err == DOCA_SUCCESS && s->done == before && s->failed == 0;) {
		(void)doca_pe_progress(s->pe);
		if (now_sec() > end)
			err = DOCA_ERROR_TIME_OUT;
	}
	return err == DOCA_SUCCESS && s->done == before + 1 ? DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED;
}

/*
 * A wait_eq task on `v`, the PE thread sleeping in epoll between progress calls (the
 * pe_event sample's loop). armed() runs once the PE is first armed, so the other side
 * updates while this one sleeps. *wakeups counts epoll returns; an epoll timeout fails.
 */
static doca_error_t side_wait_task(struct side *s, uint64_t v, void (*armed)(void *), void *arg, int *wakeups)
{
	struct doca_sync_event_task_wait_eq *t;
	union doca_data ud = {.u64 = 0};
	struct epoll_event ee = {.events = EPOLLIN}, out;
	doca_notification_handle_t h;
	int before = s->done, ep = -1;
	doca_error_t err;

	*wakeups = 0;
	err = doca_sync_event_task_wait_eq_alloc_init(s->ev, v, ALL, ud, &t);
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t));
	if (err == DOCA_SUCCESS)
		err = doca_pe_get_notification_handle(s->pe, &h);
	if (err != DOCA_SUCCESS)
		return err;
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, h, &ee) != 0) {
		if (ep >= 0)
			close(ep);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	while (doca_pe_progress(s->pe))
		;
	(void)doca_pe_request_notification(s->pe);
	if (armed != NULL)
		armed(arg);
	while (s->done == before && s->failed == 0) {
		if (epoll_wait(ep, &out, 1, EPOLL_MS) != 1) {
			err = DOCA_ERROR_TIME_OUT;
			break;
		}
		(*wakeups)++;
		(void)doca_pe_clear_notification(s->pe, h);
		while (doca_pe_progress(s->pe))
			;
		if (s->done == before)
			(void)doca_pe_request_notification(s->pe);
	}
	close(ep);
	if (err == DOCA_SUCCESS && s->failed != 0)
		err = DOCA_ERROR_UNEXPECTED;
	return err;
}

/* Is the other side asleep on the value? Its segment's sleeper count says (white box). */
static bool wait_for_sleeper(const struct side *s)
{
	const char *run_dir = getenv("SOFTDOCA_RUN_DIR");
	const uint8_t *p = s->desc + OFF_PID;
	char path[1024];
	uint64_t id = 0;
	uint32_t pid = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	bool seen = false;
	void *m;
	int fd;

	for (int i = 7; i >= 0; i--)
		id = id << 8 | s->desc[OFF_ID + i];
	snprintf(path, sizeof(path), "%s/sync_event/%u-%llu", run_dir != NULL ? run_dir : ".", pid,
		 (unsigned long long)id);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	m = mmap(NULL, 64, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return false;
	for (double end = now_sec() + 5.0; !seen && now_sec() < end; sched_yield())
		seen = __atomic_load_n((uint32_t *)((uint8_t *)m + SHM_SLEEPERS), __ATOMIC_SEQ_CST) > 0;
	munmap(m, 64);
	return seen;
}

/* ---- the child: an agent running the parent's commands ---- */

struct armed_arg {
	int fd;
};

static void tell_armed(void *arg)
{
	(void)msg_send(((struct armed_arg *)arg)->fd, ANS_ARMED, 0, 0, NULL, 0);
}

static int child_main(int rfd, int wfd)
{
	struct side s = {0};
	struct msg m;

	alarm(120); /* a stuck parent must not leave us behind */
	s.dev = open_dev();
	while (msg_recv(rfd, &m, -1)) {
		doca_error_t err = DOCA_ERROR_NOT_FOUND; /* no device */
		uint64_t val = 0;
		const void *data = NULL;
		size_t len = 0;

		if (s.dev != NULL) {
			switch (m.tag) {
			case CMD_EXPORT:
				err = side_export(&s, m.val);
				data = s.desc;
				len = err == DOCA_SUCCESS ? s.desc_len : 0;
				break;
			case CMD_IMPORT:
				err = side_import(&s, m.data, m.len, m.val);
				break;
			case CMD_GET:
				err = doca_sync_event_get(s.ev, &val);
				break;
			case CMD_SET:
				err = doca_sync_event_update_set(s.ev, m.val);
				break;
			case CMD_ADD:
				err = doca_sync_event_update_add(s.ev, m.val, &val);
				break;
			case CMD_SET_TASK:
				err = side_set_task(&s, m.val);
				break;
			case CMD_SET_WHEN_ASLEEP:
				err = wait_for_sleeper(&s) ? doca_sync_event_update_set(s.ev, m.val) : DOCA_ERROR_TIME_OUT;
				break;
			case CMD_WAIT:
				err = doca_sync_event_wait_eq(s.ev, m.val, ALL);
				break;
			case CMD_WAIT_TASK: {
				struct armed_arg a = {.fd = wfd};
				int w = 0;

				err = side_wait_task(&s, m.val, tell_armed, &a, &w);
				val = (uint64_t)w;
				break;
			}
			case CMD_ADDS:
				err = DOCA_SUCCESS;
				for (uint64_t i = 0; i < m.val && err == DOCA_SUCCESS; i++)
					err = doca_sync_event_update_add(s.ev, 1, &val);
				break;
			case CMD_PING_PONG:
				err = DOCA_SUCCESS;
				for (uint64_t k = 0; k < m.val && err == DOCA_SUCCESS; k++) {
					int w = 0;

					err = side_wait_task(&s, 2 * k + 1, NULL, NULL, &w);
					if (err == DOCA_SUCCESS)
						err = side_set_task(&s, 2 * k + 2);
				}
				break;
			case CMD_DESTROY:
				err = side_destroy(&s);
				break;
			case CMD_CRASH:
				_exit(0);
			default:
				err = DOCA_ERROR_INVALID_VALUE;
			}
		}
		if (!msg_send(wfd, m.tag, err, val, data, len))
			break;
	}
	(void)side_destroy(&s);
	if (s.dev != NULL)
		(void)doca_dev_close(s.dev);
	return 0;
}

/* ---- the parent's end of a child ---- */

struct peer {
	pid_t pid;
	int to, from;
};

static char self_path[4096];

/* Starts the other side: `role` "dpu" or "host", `run_dir` NULL for ours. */
static bool peer_start(struct peer *p, const char *role, const char *run_dir)
{
	int down[2], up[2];

	if (pipe(down) != 0)
		return false;
	if (pipe(up) != 0) {
		close(down[0]);
		close(down[1]);
		return false;
	}
	p->pid = fork();
	if (p->pid == 0) {
		char rfd[16], wfd[16];
		char *args[] = {self_path, "--child", rfd, wfd, NULL};

		close(down[1]);
		close(up[0]);
		snprintf(rfd, sizeof(rfd), "%d", down[0]);
		snprintf(wfd, sizeof(wfd), "%d", up[1]);
		setenv("SOFTDOCA_ROLE", role, 1);
		if (run_dir != NULL)
			setenv("SOFTDOCA_RUN_DIR", run_dir, 1);
		execv(self_path, args);
		_exit(127);
	}
	close(down[0]);
	close(up[1]);
	p->to = down[1];
	p->from = up[0];
	if (p->pid < 0) {
		close(p->to);
		close(p->from);
		return false;
	}
	return true;
}

/* Sends a command, waits for its answer; false (and a failed check) if none comes. */
static bool ask(struct peer *p, uint32_t tag, uint64_t val, const void *data, size_t len, struct msg *ans)
{
	bool ok = msg_send(p->to, tag, 0, val, data, len) && msg_recv(p->from, ans, REPLY_MS) && ans->tag == tag;

	CHECK(ok);
	return ok;
}

static doca_error_t ask_status(struct peer *p, uint32_t tag, uint64_t val)
{
	struct msg a;

	return ask(p, tag, val, NULL, 0, &a) ? (doca_error_t)a.status : DOCA_ERROR_TIME_OUT;
}

static int peer_end(struct peer *p)
{
	int status = -1;
	double end = now_sec() + 10.0;

	close(p->to); /* EOF: the agent cleans up and exits */
	close(p->from);
	while (waitpid(p->pid, &status, WNOHANG) == 0) {
		if (now_sec() > end) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, &status, 0);
			return -1;
		}
		sched_yield();
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The other side exports (flags EXP_*) and hands over its descriptor. */
static bool peer_export(struct peer *p, uint64_t flags, uint8_t *desc, size_t *len)
{
	struct msg a;

	if (!ask(p, CMD_EXPORT, flags, NULL, 0, &a))
		return false;
	CHECK_OK((doca_error_t)a.status);
	memcpy(desc, a.data, a.len);
	*len = a.len;
	return a.status == DOCA_SUCCESS && a.len > 0;
}

static struct doca_dev *dev;

/* Files of this process's shared values in the run directory (white box: they must go). */
static int shm_files_of(pid_t pid)
{
	const char *run_dir = getenv("SOFTDOCA_RUN_DIR");
	char path[1024], prefix[32];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/sync_event", run_dir != NULL ? run_dir : ".");
	snprintf(prefix, sizeof(prefix), "%d-", (int)pid);
	d = opendir(path);
	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

static int num_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Rewrites the header and checksum of an edited descriptor: well-formed, but changed. */
static void reseal(uint8_t *d, size_t len)
{
	uint32_t magic = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;

	softdoca_desc_seal(d, len, magic, SE_VERSION, (uint16_t)(d[6] | d[7] << 8));
}

/* ---- tests ---- */

/* Host exports, the DPU imports: set, add and get on either side are seen by the other. */
static void test_host_exports(void)
{
	struct side s = {.dev = dev};
	struct peer p;
	struct msg a;
	uint64_t v = 0;

	CHECK_OK(side_export(&s, 0));
	CHECK(shm_files_of(getpid()) == 1);
	CHECK_OK(doca_sync_event_update_set(s.ev, 7));
	if (!peer_start(&p, "dpu", NULL))
		return;
	if (ask(&p, CMD_IMPORT, 0, s.desc, s.desc_len, &a))
		CHECK_OK((doca_error_t)a.status);
	if (ask(&p, CMD_GET, 0, NULL, 0, &a))
		CHECK(a.status == DOCA_SUCCESS && a.val == 7);
	if (ask(&p, CMD_ADD, 5, NULL, 0, &a))
		CHECK(a.status == DOCA_SUCCESS && a.val == 7);
	CHECK_OK(doca_sync_event_get(s.ev, &v));
	CHECK(v == 12);
	CHECK_OK(ask_status(&p, CMD_SET, 100));
	CHECK_OK(doca_sync_event_get(s.ev, &v));
	CHECK(v == 100);
	CHECK_OK(doca_sync_event_update_add(s.ev, 1, &v));
	if (ask(&p, CMD_GET, 0, NULL, 0, &a))
		CHECK(a.status == DOCA_SUCCESS && a.val == 101);
	/* the importer outlives the exporter, keeping the value; the file goes with the exporter */
	CHECK_OK(side_destroy(&s));
	CHECK(shm_files_of(getpid()) == 0);
	CHECK_OK(ask_status(&p, CMD_SET, 5));
	if (ask(&p, CMD_GET, 0, NULL, 0, &a))
		CHECK(a.status == DOCA_SUCCESS && a.val == 5);
	CHECK_OK(ask_status(&p, CMD_DESTROY, 0));
	CHECK(peer_end(&p) == 0);
}

/* The DPU exports, the host imports; and an import on the exporter's own side (same role). */
static void test_dpu_exports(void)
{
	struct side s = {.dev = dev};
	struct peer p, q;
	struct msg a;
	uint64_t v = 0;
	uint8_t desc[256];
	size_t len = 0;

	if (!peer_start(&p, "dpu", NULL))
		return;
	if (peer_export(&p, 0, desc, &len)) {
		CHECK_OK(side_import(&s, desc, len, 0));
		CHECK_OK(doca_sync_event_update_set(s.ev, 0xd0ca));
		if (ask(&p, CMD_GET, 0, NULL, 0, &a))
			CHECK(a.status == DOCA_SUCCESS && a.val == 0xd0ca);
		/* a second process of the DPU side imports it too */
		if (peer_start(&q, "dpu", NULL)) {
			if (ask(&q, CMD_IMPORT, 0, desc, len, &a))
				CHECK_OK((doca_error_t)a.status);
			CHECK_OK(ask_status(&q, CMD_ADD, 0x10));
			CHECK(peer_end(&q) == 0);
		}
		CHECK_OK(doca_sync_event_get(s.ev, &v));
		CHECK(v == 0xd0da);
		/* two imports in one process share the value */
		{
			struct side s2 = {.dev = dev};

			CHECK_OK(side_import(&s2, desc, len, 0));
			CHECK_OK(doca_sync_event_update_add(s2.ev, 1, &v));
			CHECK_OK(doca_sync_event_get(s.ev, &v));
			CHECK(v == 0xd0db);
			CHECK_OK(side_destroy(&s2));
		}
		CHECK_OK(side_destroy(&s));
	}
	CHECK(peer_end(&p) == 0);
}

/* Stand-alone waits on either side are woken by the other process's update. */
static void test_standalone_waits(void)
{
	struct side s = {.dev = dev};
	struct peer p;
	struct msg a;
	double t0;

	CHECK_OK(side_export(&s, 0));
	if (!peer_start(&p, "dpu", NULL))
		return;
	if (ask(&p, CMD_IMPORT, 0, s.desc, s.desc_len, &a))
		CHECK_OK((doca_error_t)a.status);
	/* the child sets the value once this process sleeps on it */
	CHECK(msg_send(p.to, CMD_SET_WHEN_ASLEEP, 0, 42, NULL, 0));
	t0 = now_sec();
	CHECK_OK(doca_sync_event_wait_eq_yield(s.ev, 42, ALL));
	CHECK(now_sec() - t0 < 5.0);
	CHECK(msg_recv(p.from, &a, REPLY_MS) && a.tag == CMD_SET_WHEN_ASLEEP && a.status == DOCA_SUCCESS);
	/* the child waits, this process sets */
	CHECK(msg_send(p.to, CMD_WAIT, 0, 43, NULL, 0));
	CHECK_OK(doca_sync_event_update_set(s.ev, 43));
	CHECK(msg_recv(p.from, &a, REPLY_MS) && a.tag == CMD_WAIT && a.status == DOCA_SUCCESS);
	CHECK_OK(side_destroy(&s));
	CHECK(peer_end(&p) == 0);
}

struct idle_waiter {
	struct doca_sync_event *ev;
	doca_error_t result;
	double cpu_sec; /* the waiting thread's own CPU time */
};

static void *idle_wait(void *arg)
{
	struct idle_waiter *w = arg;
	struct timespec t0, t1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	w->result = doca_sync_event_wait_eq_yield(w->ev, 44, ALL);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	w->cpu_sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return NULL;
}

/* A stand-alone wait that nobody satisfies for a while costs (almost) nothing. */
static void test_idle_wait_is_cheap(void)
{
	struct side s = {.dev = dev};
	struct idle_waiter w = {.result = DOCA_ERROR_UNKNOWN};
	struct timespec idle = {.tv_sec = 0, .tv_nsec = 400 * 1000 * 1000}; /* the window measured */
	struct peer p;
	struct msg a;
	pthread_t th;

	CHECK_OK(side_export(&s, 0));
	if (!peer_start(&p, "dpu", NULL))
		return;
	if (ask(&p, CMD_IMPORT, 0, s.desc, s.desc_len, &a))
		CHECK_OK((doca_error_t)a.status);
	w.ev = s.ev;
	CHECK(pthread_create(&th, NULL, idle_wait, &w) == 0);
	nanosleep(&idle, NULL);
	CHECK_OK(ask_status(&p, CMD_SET, 44));
	pthread_join(th, NULL);
	CHECK_OK(w.result);
	fprintf(stderr, "idle wait: %.2f ms of CPU over %.0f ms\n", w.cpu_sec * 1e3, idle.tv_nsec / 1e6);
	CHECK(w.cpu_sec < 0.01 * 0.4); /* under 1% of a core */
	CHECK_OK(ask_status(&p, CMD_DESTROY, 0));
	CHECK_OK(side_destroy(&s));
	CHECK(peer_end(&p) == 0);
}

struct updater {
	struct peer *p;
	uint32_t tag;
	uint64_t val;
};

/* Runs once the PE is armed: the other process updates while this one sleeps in epoll. */
static void update_from_peer(void *arg)
{
	struct updater *u = arg;

	CHECK(msg_send(u->p->to, u->tag, 0, u->val, NULL, 0));
}

/* A wait task of this process's PE, asleep in epoll, completed by the other process. */
static void test_wait_task_woken_by_peer(void)
{
	struct side s = {.dev = dev};
	struct peer p;
	struct msg a;
	struct updater u;
	int wakeups = 0, during = 0;

	if (!peer_start(&p, "dpu", NULL))
		return;
	/* this process imports as a context; the exporter sets with update_set */
	uint8_t desc[256];
	size_t len = 0;

	if (peer_export(&p, 0, desc, &len)) {
		CHECK_OK(side_import(&s, desc, len, EXP_CTX));
		u = (struct updater){.p = &p, .tag = CMD_SET, .val = 77};
		CHECK_OK(side_wait_task(&s, 77, update_from_peer, &u, &wakeups));
		CHECK(wakeups >= 1 && wakeups <= 2);
		CHECK(msg_recv(p.from, &a, REPLY_MS) && a.tag == CMD_SET && a.status == DOCA_SUCCESS);
		/* a watcher thread woke the PE; it goes when the context stops */
		during = num_threads();
		/* armed with nothing to do, nobody updating: the PE stays asleep */
		{
			struct epoll_event ee = {.events = EPOLLIN}, out;
			doca_notification_handle_t h;
			int ep = epoll_create1(EPOLL_CLOEXEC);

			CHECK_OK(doca_pe_get_notification_handle(s.pe, &h));
			CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, h, &ee) == 0);
			CHECK_OK(doca_pe_request_notification(s.pe));
			CHECK(epoll_wait(ep, &out, 1, 200) == 0);
			CHECK_OK(doca_pe_clear_notification(s.pe, h));
			close(ep);
		}
		CHECK_OK(side_destroy(&s));
		CHECK(num_threads() == during - 1);
	}
	CHECK(peer_end(&p) == 0);
}

/* The other direction: this process exports as a context, the child's notify_set task wakes it. */
static void test_wait_task_exporter(void)
{
	struct side s = {.dev = dev};
	struct peer p;
	struct msg a;
	struct updater u;
	int wakeups = 0;

	CHECK_OK(side_export(&s, EXP_CTX));
	if (!peer_start(&p, "dpu", NULL))
		return;
	if (ask(&p, CMD_IMPORT, EXP_CTX, s.desc, s.desc_len, &a))
		CHECK_OK((doca_error_t)a.status);
	/* non-matching updates first: each may wake the PE, none completes the task */
	CHECK_OK(ask_status(&p, CMD_SET_TASK, 1));
	u = (struct updater){.p = &p, .tag = CMD_SET_TASK, .val = 0xfeed};
	CHECK_OK(side_wait_task(&s, 0xfeed, update_from_peer, &u, &wakeups));
	CHECK(wakeups >= 1 && wakeups <= 2);
	CHECK(msg_recv(p.from, &a, REPLY_MS) && a.tag == CMD_SET_TASK && a.status == DOCA_SUCCESS);

	/* and the child's PE, asleep in epoll, woken by this process's notify_set task */
	CHECK(msg_send(p.to, CMD_WAIT_TASK, 0, 0xbeef, NULL, 0));
	CHECK(msg_recv(p.from, &a, REPLY_MS) && a.tag == ANS_ARMED);
	CHECK_OK(side_set_task(&s, 0xbeef));
	CHECK(msg_recv(p.from, &a, REPLY_MS) && a.tag == CMD_WAIT_TASK);
	CHECK_OK((doca_error_t)a.status);
	CHECK(a.val >= 1 && a.val <= 2);
	CHECK_OK(ask_status(&p, CMD_DESTROY, 0));
	CHECK_OK(side_destroy(&s));
	CHECK(peer_end(&p) == 0);
}

/*
 * Many round trips, each side's PE asleep in epoll until the other side's notify_set: a
 * wake-up lost in any race between arming and updating would stall a round (epoll timeout).
 */
static void test_ping_pong(void)
{
	struct side s = {.dev = dev};
	struct peer p;
	struct msg a;
	doca_error_t err = DOCA_SUCCESS;
	int rounds = 2000, wakeups = 0, total = 0;
	double t0;

	CHECK_OK(side_export(&s, EXP_CTX));
	if (!peer_start(&p, "dpu", NULL))
		return;
	if (ask(&p, CMD_IMPORT, EXP_CTX, s.desc, s.desc_len, &a))
		CHECK_OK((doca_error_t)a.status);
	CHECK(msg_send(p.to, CMD_PING_PONG, 0, (uint64_t)rounds, NULL, 0));
	t0 = now_sec();
	for (int k = 0; k < rounds && err == DOCA_SUCCESS; k++) {
		err = side_set_task(&s, 2 * (uint64_t)k + 1);
		if (err == DOCA_SUCCESS)
			err = side_wait_task(&s, 2 * (uint64_t)k + 2, NULL, NULL, &wakeups);
		total += wakeups;
	}
	CHECK_OK(err);
	CHECK(msg_recv(p.from, &a, REPLY_MS) && a.tag == CMD_PING_PONG && a.status == DOCA_SUCCESS);
	fprintf(stderr, "ping-pong: %d round trips in %.3f s, %d epoll wake-ups here\n", rounds, now_sec() - t0,
		total);
	CHECK(total <= 2 * rounds);
	CHECK_OK(ask_status(&p, CMD_DESTROY, 0));
	CHECK_OK(side_destroy(&s));
	CHECK(peer_end(&p) == 0);
}

/* Adds from both processes at once: the sum is exact (one atomic word). */
static void test_concurrent_adds(void)
{
	struct side s = {.dev = dev};
	struct peer p;
	struct msg a;
	uint64_t v = 0;
	doca_error_t err = DOCA_SUCCESS;

	CHECK_OK(side_export(&s, 0));
	CHECK_OK(doca_sync_event_update_set(s.ev, 1000));
	if (!peer_start(&p, "dpu", NULL))
		return;
	if (ask(&p, CMD_IMPORT, 0, s.desc, s.desc_len, &a))
		CHECK_OK((doca_error_t)a.status);
	CHECK(msg_send(p.to, CMD_ADDS, 0, NUM_ADDS, NULL, 0));
	for (int i = 0; i < NUM_ADDS && err == DOCA_SUCCESS; i++)
		err = doca_sync_event_update_add(s.ev, 1, &v);
	CHECK_OK(err);
	CHECK(msg_recv(p.from, &a, 30000) && a.tag == CMD_ADDS && a.status == DOCA_SUCCESS);
	CHECK_OK(doca_sync_event_get(s.ev, &v));
	CHECK(v == 1000 + 2ull * NUM_ADDS);
	CHECK_OK(side_destroy(&s));
	CHECK(peer_end(&p) == 0);
}

/* Descriptors that must be refused, each for its own reason. */
static void test_refusals(void)
{
	const char *run_dir = getenv("SOFTDOCA_RUN_DIR");
	struct side s = {.dev = dev};
	struct doca_sync_event *im = NULL;
	struct peer p;
	uint8_t desc[256], copy[256];
	char other[1024];
	size_t len = 0;
	int status;

	/* another instance of the same card (another run directory) */
	snprintf(other, sizeof(other), "%s-other", run_dir != NULL ? run_dir : "/tmp/softdoca-unit-xproc");
	if (peer_start(&p, "dpu", other)) {
		if (peer_export(&p, 0, desc, &len))
			CHECK_ERR(doca_sync_event_create_from_export(dev, desc, len, &im), DOCA_ERROR_INVALID_VALUE);
		CHECK(peer_end(&p) == 0);
	}

	if (!peer_start(&p, "dpu", NULL))
		return;
	/* an event in the exporter's own memory cannot cross processes */
	if (peer_export(&p, EXP_USER_MEM, desc, &len))
		CHECK_ERR(doca_sync_event_create_from_export(dev, desc, len, &im), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(ask_status(&p, CMD_DESTROY, 0));
	/* forged descriptors of a live export (checksum recomputed): another token or value address
	 * is refused as forged, another id names no value (as if destroyed) */
	if (peer_export(&p, 0, desc, &len)) {
		memcpy(copy, desc, len);
		copy[OFF_TOKEN] ^= 0x01;
		reseal(copy, len);
		CHECK_ERR(doca_sync_event_create_from_export(dev, copy, len, &im), DOCA_ERROR_INVALID_VALUE);
		memcpy(copy, desc, len);
		copy[OFF_ADDR + 1] ^= 0x01;
		reseal(copy, len);
		CHECK_ERR(doca_sync_event_create_from_export(dev, copy, len, &im), DOCA_ERROR_INVALID_VALUE);
		memcpy(copy, desc, len);
		copy[OFF_ID] ^= 0x40;
		reseal(copy, len);
		CHECK_ERR(doca_sync_event_create_from_export(dev, copy, len, &im), DOCA_ERROR_NOT_FOUND);
		CHECK(im == NULL);
		/* the good one works, then the exporter destroys its event: refused, the value file is gone */
		CHECK_OK(side_import(&s, desc, len, 0));
		CHECK_OK(ask_status(&p, CMD_DESTROY, 0));
		CHECK(shm_files_of(p.pid) == 0);
		CHECK_ERR(doca_sync_event_create_from_export(dev, desc, len, &im), DOCA_ERROR_NOT_FOUND);
		/* the earlier import keeps working on the value */
		CHECK_OK(doca_sync_event_update_set(s.ev, 9));
		CHECK_OK(side_destroy(&s));
	}
	/* the exporting process dies without cleaning up: its leftover file is not importable */
	if (peer_export(&p, 0, desc, &len)) {
		CHECK(msg_send(p.to, CMD_CRASH, 0, 0, NULL, 0));
		CHECK(waitpid(p.pid, &status, 0) == p.pid);
		CHECK(shm_files_of(p.pid) == 1);
		CHECK_ERR(doca_sync_event_create_from_export(dev, desc, len, &im), DOCA_ERROR_NOT_FOUND);
		close(p.to);
		close(p.from);
	} else {
		(void)peer_end(&p);
	}
	/* ...and it does not disturb a later export */
	if (peer_start(&p, "dpu", NULL)) {
		if (peer_export(&p, 0, desc, &len)) {
			CHECK_OK(side_import(&s, desc, len, 0));
			CHECK_OK(side_destroy(&s));
		}
		CHECK(peer_end(&p) == 0);
	}
}

int main(int argc, char **argv)
{
	struct doca_log_backend *sdk_log = NULL;
	ssize_t n;

	if (argc == 4 && strcmp(argv[1], "--child") == 0) {
		TEST_ROLE();
		return child_main(atoi(argv[2]), atoi(argv[3]));
	}
	signal(SIGPIPE, SIG_IGN);
	n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);
	if (n <= 0)
		return EXIT_FAILURE;
	self_path[n] = '\0';
	if (doca_log_backend_create_with_file_sdk(stderr, &sdk_log) == DOCA_SUCCESS)
		(void)doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	setenv("SOFTDOCA_ROLE", "host", 1);
	dev = open_dev();
	CHECK(dev != NULL);
	if (dev == NULL)
		TEST_EXIT();
	TEST_RUN(test_host_exports);
	TEST_RUN(test_dpu_exports);
	TEST_RUN(test_standalone_waits);
	TEST_RUN(test_idle_wait_is_cheap);
	TEST_RUN(test_wait_task_woken_by_peer);
	TEST_RUN(test_wait_task_exporter);
	TEST_RUN(test_ping_pong);
	TEST_RUN(test_concurrent_adds);
	TEST_RUN(test_refusals);
	CHECK_OK(doca_dev_close(dev));
	TEST_EXIT();
}
