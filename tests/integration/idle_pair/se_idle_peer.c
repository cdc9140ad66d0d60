/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A sync-event peer for the idle cost test, built for both sides of the card. The host side
 * exports an event over PCIe (through a file rather than Comch), the DPU side imports it; both
 * then wait on it and do nothing else until the test ends the wait:
 *
 *   se_idle_peer export FILE [--blocking]	(host flavour, b1:00.0)
 *	exports the event to FILE and prints "exported"; with a wait_eq(2) task pending, sleeps on
 *	the PE's notification handle and on stdin. When stdin closes it signals the DPU (sets 1)
 *	and ends once the DPU has answered ("woken by the DPU"). --blocking: no context; it blocks
 *	on stdin, then sets 1 and waits with doca_sync_event_wait_eq_yield.
 *   se_idle_peer import FILE [--blocking]	(DPU flavour, 03:00.0)
 *	creates the event from FILE, prints "waiting" and sleeps until the value leaves 0 (a
 *	wait_neq task, PE asleep in epoll; --blocking: doca_sync_event_wait_gt, as the
 *	sync_event_remote_pci sample does), then prints "woken by the host" and sets 2.
 *
 * Every run is bounded by an alarm: a wait that never wakes fails loudly instead of hanging.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#define ALL UINT64_MAX

static struct {
	bool exporter, blocking;
	struct doca_dev *dev;
	struct doca_sync_event *se;
	struct doca_ctx *ctx;
	struct doca_pe *pe;
	int tasks_left; /* tasks submitted and not yet completed */
	bool woken;	/* the wait task completed */
} S;

static void check(doca_error_t err, const char *what)
{
	if (err == DOCA_SUCCESS)
		return;
	printf("FAIL: %s: %s\n", what, doca_error_get_name(err));
	fflush(stdout);
	exit(1);
}

static void say(const char *line)
{
	printf("%s\n", line);
	fflush(stdout);
}

static void open_dev(const char *pci)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	check(doca_devinfo_create_list(&list, &n), "list devices");
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq) {
			err = doca_dev_open(list[i], &S.dev);
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	check(err, pci);
}

/* ---- the context and its tasks ---- */

static void task_end(struct doca_task *task, bool wait)
{
	check(doca_task_get_status(task), "sync event task");
	doca_task_free(task);
	S.tasks_left--;
	S.woken |= wait;
}

static void set_done(struct doca_sync_event_task_notify_set *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	task_end(doca_sync_event_task_notify_set_as_doca_task(t), false);
}

static void eq_done(struct doca_sync_event_task_wait_eq *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	task_end(doca_sync_event_task_wait_eq_as_doca_task(t), true);
}

static void neq_done(struct doca_sync_event_task_wait_neq *t, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	task_end(doca_sync_event_task_wait_neq_as_doca_task(t), true);
}

static void ctx_start(void)
{
	S.ctx = doca_sync_event_as_ctx(S.se);
	check(doca_pe_create(&S.pe), "pe create");
	check(doca_pe_connect_ctx(S.pe, S.ctx), "pe connect");
	check(doca_sync_event_task_notify_set_set_conf(S.se, set_done, set_done, 2), "notify_set conf");
	check(doca_sync_event_task_wait_eq_set_conf(S.se, eq_done, eq_done, 2), "wait_eq conf");
	check(doca_sync_event_task_wait_neq_set_conf(S.se, neq_done, neq_done, 2), "wait_neq conf");
	check(doca_ctx_start(S.ctx), "ctx start");
}

static void submit(struct doca_task *task)
{
	check(doca_task_submit(task), "task submit");
	S.tasks_left++;
}

static void submit_set(uint64_t v)
{
	struct doca_sync_event_task_notify_set *t;
	union doca_data ud = {.u64 = 0};

	check(doca_sync_event_task_notify_set_alloc_init(S.se, v, ud, &t), "notify_set alloc");
	submit(doca_sync_event_task_notify_set_as_doca_task(t));
}

/* Sleeps on the PE (and on stdin if watch_stdin) until no task is left; stdin closing calls
 * on_eof once. */
static void pe_sleep(bool watch_stdin, void (*on_eof)(void))
{
	struct epoll_event ev = {.events = EPOLLIN};
	doca_notification_handle_t fd;
	int ep = epoll_create1(0);

	check(doca_pe_get_notification_handle(S.pe, &fd), "notification handle");
	ev.data.fd = fd;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	ev.data.fd = STDIN_FILENO;
	if (watch_stdin && epoll_ctl(ep, EPOLL_CTL_ADD, STDIN_FILENO, &ev) != 0) {
		printf("FAIL: stdin must be a pipe: %s\n", strerror(errno));
		exit(1);
	}
	while (S.tasks_left > 0) {
		char buf[64];

		if (doca_pe_progress(S.pe))
			continue;
		doca_pe_request_notification(S.pe);
		if (epoll_wait(ep, &ev, 1, -1) == 1 && ev.data.fd == STDIN_FILENO &&
		    read(STDIN_FILENO, buf, sizeof(buf)) <= 0) {
			epoll_ctl(ep, EPOLL_CTL_DEL, STDIN_FILENO, NULL); /* EOF stays readable */
			on_eof();
		}
		doca_pe_clear_notification(S.pe, fd);
	}
	close(ep);
}

/* No task is left, so the context stops at once or after a few progress calls. */
static void ctx_stop(void)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;

	check(doca_ctx_stop(S.ctx), "ctx stop");
	while (doca_ctx_get_state(S.ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
		doca_pe_progress(S.pe);
}

/* ---- the two sides ---- */

static void signal_dpu(void)
{
	say("signaling the DPU");
	submit_set(1);
}

static void run_exporter(const char *file)
{
	const uint8_t *blob;
	size_t len;
	char tmp[4096];
	FILE *f;

	open_dev("b1:00.0");
	check(doca_sync_event_create(&S.se), "create");
	check(doca_sync_event_add_publisher_location_remote_pci(S.se), "publisher");
	check(doca_sync_event_add_subscriber_location_cpu(S.se, S.dev), "subscriber");
	if (S.blocking)
		check(doca_sync_event_start(S.se), "start");
	else
		ctx_start();
	check(doca_sync_event_export_to_remote_pci(S.se, S.dev, &blob, &len), "export");
	/* written whole, then renamed: the importer never reads half a descriptor */
	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "wb");
	if (f == NULL || fwrite(blob, 1, len, f) != len || fclose(f) != 0 || rename(tmp, file) != 0) {
		printf("FAIL: cannot write %s: %s\n", file, strerror(errno));
		exit(1);
	}
	say("exported");

	if (S.blocking) {
		while (read(STDIN_FILENO, tmp, sizeof(tmp)) > 0)
			;
		say("signaling the DPU");
		check(doca_sync_event_update_set(S.se, 1), "update_set");
		check(doca_sync_event_wait_eq_yield(S.se, 2, ALL), "wait_eq_yield");
	} else {
		struct doca_sync_event_task_wait_eq *t;
		union doca_data ud = {.u64 = 0};

		check(doca_sync_event_task_wait_eq_alloc_init(S.se, 2, ALL, ud, &t), "wait_eq alloc");
		submit(doca_sync_event_task_wait_eq_as_doca_task(t));
		pe_sleep(true, signal_dpu);
		ctx_stop();
	}
	say("woken by the DPU");
}

static void ignore_eof(void)
{
}

static void run_importer(const char *file)
{
	uint8_t blob[4096];
	size_t len;
	FILE *f = fopen(file, "rb");

	if (f == NULL) {
		printf("FAIL: cannot read %s: %s\n", file, strerror(errno));
		exit(1);
	}
	len = fread(blob, 1, sizeof(blob), f);
	fclose(f);
	open_dev("03:00.0");
	check(doca_sync_event_create_from_export(S.dev, blob, len, &S.se), "create_from_export");
	if (S.blocking) {
		check(doca_sync_event_start(S.se), "start");
		say("waiting");
		check(doca_sync_event_wait_gt(S.se, 0, ALL), "wait_gt");
		say("woken by the host");
		check(doca_sync_event_update_set(S.se, 2), "update_set");
	} else {
		struct doca_sync_event_task_wait_neq *t;
		union doca_data ud = {.u64 = 0};

		ctx_start();
		check(doca_sync_event_task_wait_neq_alloc_init(S.se, 0, ALL, ud, &t), "wait_neq alloc");
		submit(doca_sync_event_task_wait_neq_as_doca_task(t));
		say("waiting");
		pe_sleep(false, ignore_eof);
		say("woken by the host");
		submit_set(2);
		pe_sleep(false, ignore_eof);
		ctx_stop();
	}
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "export") != 0 && strcmp(argv[1], "import") != 0) ||
	    (argc == 4 && strcmp(argv[3], "--blocking") != 0) || argc > 4) {
		fprintf(stderr, "usage: se_idle_peer export|import FILE [--blocking]\n");
		return 64;
	}
	S.exporter = strcmp(argv[1], "export") == 0;
	S.blocking = argc == 4;
	alarm(40); /* below the test timeout */
	doca_log_backend_create_standard();

	if (S.exporter)
		run_exporter(argv[2]);
	else
		run_importer(argv[2]);
	check(doca_sync_event_destroy(S.se), "destroy");
	if (S.pe != NULL)
		check(doca_pe_destroy(S.pe), "pe destroy");
	check(doca_dev_close(S.dev), "dev close");
	say("done");
	return 0;
}
