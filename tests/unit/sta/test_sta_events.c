/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sta, data path faults and events. This process is the target (an STA context and one IO
 * context on one PE, a soft NVMe disk in memory) and a child process is the NVMe-oF RDMA host
 * (tools/nvmf/nvmf_host.c), driven line by line over two pipes. Checked:
 *  - SEND with invalidate: a keyed SGL of subtype Invalidate Key gets its response by SEND with
 *    invalidate naming the host's rkey (the host's work completion has IBV_WC_WITH_INV); a plain
 *    keyed SGL does not.
 *  - Who completes the disk's commands: 200 I/Os at queue depth 1. The EU executes its back-end
 *    queue on an io_uring of its own: it posts all 200 completions itself (EU counter
 *    nvme_eu_reaped), no disk interrupt wakes it (nvme_irqs), and the disk's controller thread
 *    sleeps through them (its voluntary context switches, /proc: fewer than 20). With
 *    SOFTDOCA_STA_EU_URING=0 (test sta_events_ctrl_thread) the controller thread executes the
 *    queue: it is woken for each I/O and its interrupt wakes the EU, which reaps nothing itself.
 *  - Removing a namespace under load: with the disk's completions held (softdoca_nvme's fault
 *    injection), 16 writes on the disk and the remove-namespace task submitted, new I/O gets
 *    Invalid Namespace and the task stays pending; it completes once the disk answers and the
 *    16 writes succeed.
 *    The synchronous doca_sta_subsystem_rm_ns under the same load returns at once; the
 *    namespace goes with its last command (ASan: no use after free, no leak).
 *  - Back-end time-out: the held disk raises the event (SOFTDOCA_STA_BE_TIMEOUT_MS, 1 s here)
 *    naming the back-end and its queue.
 *  - EU error: a namespace on a back-end whose queues are not a soft NVMe disk's: the BEQ EU
 *    cannot drive it, the command gets Internal Error and the (non-fatal) EU error event names
 *    the IO context's BEQ EU.
 *  - The watchdog: a capsule for the non-offload callback while nobody progresses the IO
 *    context's PE gets a warning that names doca_pe_progress() (SOFTDOCA_STA_NONOFF_WARN_MS,
 *    300 ms here); once progressed, the callback answers it.
 * argv: port [fatal]. "fatal" runs only this case:
 *  - Fatal EU error: the DPA's kernel max run time cut to 1 s (SOFTDOCA_DPA_KERNEL_MAX_RUN_TIME)
 *    and reads at queue depth 32 until the EU job has used a second of CPU in one slice: the
 *    watchdog stops it, the application gets the fatal EU error event, and the IO context's
 *    QPs are not served any more (a command gets no response); the contexts still stop.
 * argv: port disconnect. "disconnect" runs only this case:
 *  - The disconnect task comes after the QP's tasks: a capsule with a keyed SGL goes to the
 *    non-offload callback, the host is stopped (SIGSTOP: it answers no RDMA READ), the
 *    application's RDMA READ task is submitted, then the disconnect task. As an application
 *    does, the disconnect's callback destroys the QP and frees the connection the READ task's
 *    user data points at: the READ's callback (CONNECTION_ABORTED) must have come before it,
 *    never after (it used to come after, from the READ's late flush or from the destroy: a use
 *    after free in such an application; ASan sees it, the order check without it).
 * argv: port lifetime [case]. "lifetime" runs only these (or the one case named), with the STA
 * context on a PE of its own (as an application runs it on its main thread, the IO context on an
 * IO thread) and a CQE-notify callback that reads the QP's user data, as an application does:
 *  - notify_destroyed: a refused capsule's CQE-notify event waits for the STA context's PE while
 *    the QP is destroyed: it comes naming no QP (its getter: DOCA_ERROR_NOT_FOUND), never with
 *    the freed handle (ASan saw the callback's read of it; the handle check without it).
 *  - notify_delivering: the callback runs on another thread while the QP's thread destroys it: the
 *    handle stays valid until the callback returns (ASan: heap-use-after-free without it).
 *  - notify_io_destroyed: the same, and the QP's IO context is stopped and destroyed too before
 *    the callback asks the QP's group id (it read it from the freed IO context).
 *  - subs_in_use: a subsystem that QPs still serve is not destroyed (DOCA_ERROR_IN_USE and a log
 *    line; the EU went on reading it after its free); destroyed once its QP moved, the event
 *    waiting for the PE names no subsystem.
 *  - task_after_destroy: tasks allocated on a QP destroyed before their submission are refused
 *    (DOCA_ERROR_BAD_STATE and a log line); the submission read the freed QP.
 *  - stale_command: a response task allocated for a command that another task answered is
 *    submitted after each of the next 300 commands for the callback (its capsule buffer comes
 *    round again within them): refused every time (DOCA_ERROR_BAD_STATE); it used to answer the
 *    later command that had the same buffer, with the old command's completion.
 *  - beq_timeout: a back-end time-out event waits for the STA context's PE while its IO context
 *    stops and the destroy-queue task frees the queue: the event is dropped, never delivered with
 *    the freed handle (the task ran first and the event came after it).
 * Every wait is bounded; alarm() bounds the whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_log.h>
#include <doca_pe.h>
#include <doca_sta.h>
#include <doca_sta_be.h>
#include <doca_sta_event.h>
#include <doca_sta_io.h>
#include <doca_sta_io_non_offload.h>
#include <doca_sta_io_qp.h>
#include <doca_sta_mem.h>
#include <doca_sta_stats.h>
#include <doca_sta_subsystem.h>
#include <softdoca_nvme.h>

#include "nvmf_host.h"
#include "test.h"
#include "thread_switches.h"

#define NVME_THREAD "softdoca-nvme" /* the disk's controller thread (one disk open here) */

#define NQN "nqn.2026-12.io.softdoca:sta-events"
#define HOST "nqn.2014-08.io.softdoca:host1"
#define TMO 20000

#define REQUIRE(c)                                                                                                     \
	do {                                                                                                           \
		if (!(c)) {                                                                                            \
			fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #c);                        \
			exit(1);                                                                                       \
		}                                                                                                      \
	} while (0)
#define TRY(call) REQUIRE((call) == DOCA_SUCCESS)

static const char *port;

/* ---- the host (child process): one I/O queue, commands from a pipe, answers on another ---- */

static void host(int in, int out)
{
	struct nvmf_queue q;
	FILE *fin = fdopen(in, "r"), *fout = fdopen(out, "w");
	char line[128];

	setvbuf(fout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), fin) != NULL) {
		unsigned int n, nsid, opc, inv, lba, ms;
		int k;

		if (line[0] == 'D') { /* leave (the target's IO context is about to stop) */
			nvmf_disconnect(&q);
			fprintf(fout, "D\n");
		} else if (line[0] == 'C') {
			struct nvmf_cqe c;

			fprintf(fout, "C %d\n", nvmf_connect(&q, "127.0.0.1", port, 1, 64, 63, 1, NQN, HOST, &c));
		} else if (sscanf(line, "L %u", &n) == 1) {
			/* n more I/O queues of depth 2 at once: how many connected, how many the target
			 * rejected at RDMA-CM; then they all go */
			struct nvmf_queue *m = calloc(n, sizeof(*m));
			unsigned int connected = 0, rejected = 0;

			for (unsigned int i = 0; m != NULL && i < n; i++) {
				int rc = nvmf_connect(&m[i], "127.0.0.1", port, 1, 2, 1, 1, NQN, HOST, NULL);

				connected += rc == 0;
				rejected += rc != 0 && m[i].rejected != 0;
			}
			for (unsigned int i = 0; m != NULL && i < n; i++)
				nvmf_disconnect(&m[i]);
			free(m);
			fprintf(fout, "L %u %u\n", connected, rejected);
		} else if (line[0] == 'R') {
			/* a second queue whose Connect (queue 2) the target refuses; then a read and a
			 * write of 4 KiB on it anyway: the Connect's SC, the read's, the write's */
			struct nvmf_queue r;
			struct nvmf_cqe c;
			unsigned int csc = 0, rsc = 0xff, wsc = 0xff;
			int rc = nvmf_connect(&r, "127.0.0.1", port, 2, 8, 7, 1, NQN, HOST, &c);

			if (rc > 0)
				csc = NVMF_SC(&c);
			for (int opc = 2; rc > 0 && opc >= 1; opc--) {
				uint8_t sqe[64];

				nvmf_rw(sqe, (uint8_t)opc, 1, 0, 8);
				if (nvmf_cmd(&r, sqe, 4096, NULL, NULL, &c, TMO) == 0)
					*(opc == 2 ? &rsc : &wsc) = NVMF_SC(&c);
			}
			nvmf_disconnect(&r);
			fprintf(fout, "R %d 0x%02x 0x%02x 0x%02x\n", rc, csc, rsc, wsc);
		} else if (line[0] == 'X') {
			/* a second Connect (as an admin queue, queue 0) on the connected I/O queue; then a
			 * read of 4 KiB: the Connect's SC, the read's */
			struct nvmf_cqe c;
			unsigned int csc = 0xff, rsc = 0xff;
			int cid = nvmf_alloc_cid(&q);
			uint8_t *s = nvmf_capsule(&q, (uint16_t)cid), sqe[64];

			memset(s, 0, 64 + 1024);
			s[0] = 0x7f;
			s[4] = 0x01;
			s[44] = 31;
			s[64 + 16] = 0xff;
			s[64 + 17] = 0xff;
			snprintf((char *)s + 64 + 256, 256, "%s", NQN);
			snprintf((char *)s + 64 + 512, 256, "%s", HOST);
			nvmf_sgl_icd(s, 1024);
			if (nvmf_send(&q, (uint16_t)cid, 1024) == 0 && nvmf_wait(&q, &c, TMO) == 1)
				csc = NVMF_SC(&c);
			nvmf_rw(sqe, 2, 1, 0, 8);
			if (nvmf_cmd(&q, sqe, 4096, NULL, NULL, &c, TMO) == 0)
				rsc = NVMF_SC(&c);
			fprintf(fout, "X 0x%02x 0x%02x\n", csc, rsc);
		} else if (sscanf(line, "S %u %u %u %u %u", &n, &nsid, &lba, &opc, &inv) == 5) {
			/* n commands of 4 KiB (opcode 1 write, 2 read), not waited for */
			for (unsigned int i = 0; i < n; i++) {
				int cid = nvmf_alloc_cid(&q);
				uint8_t *s = nvmf_capsule(&q, (uint16_t)cid);

				nvmf_rw(s, (uint8_t)opc, nsid, lba + 8ull * i, 8);
				nvmf_sgl_keyed(&q, s, (uint16_t)cid, 4096);
				if (inv)
					nvmf_sgl_invalidate(s);
				memset(nvmf_data(&q, (uint16_t)cid), (int)(lba + i), 4096);
				if (nvmf_send(&q, (uint16_t)cid, 0) != 0)
					break;
			}
			fprintf(fout, "S %u\n", n);
		} else if ((k = sscanf(line, "A %u %u", &n, &ms)) >= 1) {
			/* n responses (waiting up to TMO, or the ms given): how many succeeded, the last
			 * failure's SC, how many invalidated our rkey */
			unsigned int got = 0, ok = 0, sc = 0, invs = 0;
			int tmo = k == 2 ? (int)ms : TMO;
			struct nvmf_cqe c;

			while (got < n && nvmf_wait(&q, &c, tmo) == 1) {
				got++;
				if ((c.status >> 1) == 0)
					ok++;
				else
					sc = NVMF_SC(&c);
				if (q.inv && q.inv_rkey == nvmf_rkey(&q))
					invs++;
			}
			fprintf(fout, "A %u %u 0x%02x %u\n", got, ok, sc, invs);
		} else {
			break;
		}
	}
	nvmf_disconnect(&q);
	_exit(0);
}

/* ---- the target: this process ---- */

/* Whether the file (a log backend's) holds every one of the strings, read from its start. */
/* Both strings in the log's last 64 KiB (the lines a case just made). */
static bool file_has(int fd, const char *a, const char *b)
{
	static char buf[65536];
	struct stat st;
	off_t from = fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(buf) ? st.st_size - (off_t)sizeof(buf) + 1 : 0;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, from);

	if (n <= 0)
		return false;
	buf[n] = 0;
	return strstr(buf, a) != NULL && strstr(buf, b) != NULL;
}

static struct {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_sta *sta;
	struct doca_sta_io *io;
	struct doca_sta_subs_handle *subs;
	struct doca_sta_be_handle *be, *bad_be;
	struct doca_sta_be_q_handle *beq, *bad_beq;
	struct doca_sta_ns_handle *ns1, *ns2;
	struct softdoca_nvme_disk *disk;
	struct softdoca_nvme_qpair nq;
	struct doca_mmap *mm[6];
	void *bad_mem[3];
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;
	struct doca_sta_qp_handle *qp;
	int to_host, from_host;
	char reply[256];
	size_t reply_len;
	/* what the events and tasks reported */
	int rm_done, beq_destroyed;
	doca_error_t rm_status;
	int be_timeouts;
	const struct doca_sta_be_handle *timeout_be;
	const struct doca_sta_be_q_handle *timeout_beq;
	int eu_errors;
	int qps_refused; /* connections doca_sta_io_qp_connect refused with DOCA_ERROR_FULL */
	bool quiet; /* ask() does not print the exchange */
	bool eu_fatal;
	enum dpa_sta_eu_type eu_type;
	/* the disconnect case: a capsule held for the application, the callbacks' order */
	bool hold;
	struct doca_sta_qp_handle *held_qp;
	union doca_data held_nud;
	uint16_t held_cid;
	int seq, read_seq, disc_seq;
	doca_error_t read_status;
	/* the lifetime cases: the STA context on a PE of its own, not progressed while sta_paused */
	struct doca_pe *sta_pe;
	bool sta_paused;
	int beq_want; /* destroy-queue tasks submitted */
	int cqe_events; /* (atomic: notify_delivering's callback runs on another thread) */
	const struct doca_sta_qp_handle *cqe_qp;
	doca_error_t cqe_qp_err; /* what its getter returned */
	uint16_t cqe_nsid;
	const struct doca_sta_subs_handle *cqe_subs;
	union doca_data cqe_qp_ud;
	uint16_t cqe_group; /* the QP's group id, asked in the callback */
	bool cqe_gated; /* the callback tells gate_in it runs and waits for gate_out */
	int gate_in[2], gate_out[2];
} t;

/* What an application's READ task points at (its connection): freed when the QP goes. */
struct test_conn {
	uint32_t magic;
	struct doca_sta_qp_handle *qp;
};
#define CONN_MAGIC 0x5eadc0de

static void *zmalloc_cb(size_t size, size_t align, uint64_t *phys)
{
	void *p = aligned_alloc(align, (size + align - 1) / align * align);

	if (p != NULL) {
		memset(p, 0, size);
		*phys = (uint64_t)(uintptr_t)p;
	}
	return p;
}

static uint64_t vtophys_cb(const void *buf, uint32_t size)
{
	(void)size;
	return (uint64_t)(uintptr_t)buf;
}

static void task_free(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	(void)ud;
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

/* The application's RDMA READ: its user data, when set, is the connection (test_conn). */
static void read_cb(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	struct test_conn *c = ud.ptr;

	if (c != NULL) {
		CHECK(c->magic == CONN_MAGIC); /* (after the free: ASan's heap-use-after-free) */
		t.read_status = doca_task_get_status(doca_sta_producer_send_task_as_task(task));
		t.read_seq = ++t.seq;
	}
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

/* The disconnect: when its user data is a connection, the QP is destroyed and the connection freed. */
static void disc_cb(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	struct test_conn *c = ud.ptr;

	doca_task_free(doca_sta_producer_send_task_as_task(task));
	if (c == NULL)
		return;
	t.disc_seq = ++t.seq;
	TRY(doca_sta_io_qp_destroy(t.io, c->qp));
	c->magic = 0;
	free(c);
}

static void rm_cb(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	(void)ud;
	t.rm_status = doca_task_get_status(doca_sta_producer_send_task_as_task(task));
	t.rm_done++;
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

static void beq_cb(struct doca_sta_producer_task_send *task, union doca_data ud)
{
	(void)ud;
	t.beq_destroyed++;
	doca_task_free(doca_sta_producer_send_task_as_task(task));
}

static void be_timeout(const struct doca_sta_event_be_timeout *ev, union doca_data ud)
{
	(void)ud;
	const struct doca_sta_eu_ctr_entry *e;
	uint16_t n;

	doca_sta_event_be_timeout_get_be_handle(ev, &t.timeout_be);
	doca_sta_event_be_timeout_get_be_queue_handle(ev, &t.timeout_beq);
	/* what an application does with the handles (a freed queue's: ASan's heap-use-after-free) */
	CHECK(doca_sta_get_be_queue_stats((struct doca_sta_be_handle *)t.timeout_be,
					  (struct doca_sta_be_q_handle *)t.timeout_beq, &e, &n) == DOCA_SUCCESS);
	t.be_timeouts++;
}

static void eu_err(const struct doca_sta_event_eu_err *ev, union doca_data ud)
{
	const struct doca_sta_eu_handle *eu = NULL;

	(void)ud;
	doca_sta_event_eu_err_is_fatal_error(ev, &t.eu_fatal);
	if (!t.eu_fatal && doca_sta_event_eu_err_get_eu_handle(ev, &eu) == DOCA_SUCCESS && eu != NULL)
		doca_sta_get_eu_type(eu, &t.eu_type);
	t.eu_errors++;
}

/* The CQE-notify event: the QP's user data read as an application does (see the top). */
static void cqe_notify(const struct doca_sta_event_cqe_notify *ev, union doca_data ud)
{
	const struct doca_sta_qp_handle *qp = NULL;
	char c = 1;
	uint8_t opc;
	uint16_t cid;
	uint64_t lba;

	(void)ud;
	t.cqe_qp_err = doca_sta_event_cqe_notify_get_qp_handle(ev, &qp);
	CHECK(doca_sta_event_cqe_notify_get_subsystem_handle(ev, &t.cqe_subs) == DOCA_SUCCESS);
	CHECK(doca_sta_event_cqe_notify_get_capsule_params(ev, &opc, &cid, &t.cqe_nsid, &lba) == DOCA_SUCCESS);
	t.cqe_qp = qp;
	if (t.cqe_gated) { /* the QP's thread destroys it now */
		struct pollfd p = {.fd = t.gate_out[0], .events = POLLIN};

		REQUIRE(write(t.gate_in[1], &c, 1) == 1);
		REQUIRE(poll(&p, 1, TMO) == 1 && read(t.gate_out[0], &c, 1) == 1);
	}
	if (qp != NULL) {
		CHECK(doca_sta_io_qp_get_user_data(qp, &t.cqe_qp_ud) == DOCA_SUCCESS);
		CHECK(doca_sta_io_qp_get_group_id((struct doca_sta_qp_handle *)qp, &t.cqe_group) == DOCA_SUCCESS);
	}
	__atomic_add_fetch(&t.cqe_events, 1, __ATOMIC_RELEASE);
}

/*
 * Only Fabrics Connect comes here in this test: accepted (any host), the QP joins the subsystem;
 * but a Connect of queue 2 is refused (Invalid Host).
 */
static void non_offload(struct doca_sta_qp_handle *qp, union doca_data ud, const uint8_t *cmd, uint8_t *payload,
			uint32_t len, bool valid, union doca_data nud)
{
	doca_sta_nvme_completion_t cqe = {0};
	struct doca_sta_producer_task_send *task;
	uint16_t sc = 0x01; /* Invalid Opcode */

	(void)ud;
	(void)payload;
	(void)len;
	(void)valid;
	if (t.hold && cmd[0] != 0x7f) { /* the disconnect case: the test answers it (or not) */
		t.held_qp = qp;
		t.held_nud = nud;
		t.held_cid = (uint16_t)(cmd[2] | cmd[3] << 8);
		return;
	}
	if (cmd[0] == 0x7f && cmd[4] == 0x01 && cmd[42] == 2) {
		sc = 0x184; /* queue 2: Invalid Host (SCT 1, SC 0x84) */
	} else if (cmd[0] == 0x7f && cmd[4] == 0x01) {
		sc = 0;
		TRY(doca_sta_io_qp_add_subsystem(t.io, t.subs, qp));
		TRY(doca_sta_io_qp_connect_set_sq_size(t.io, qp, (uint16_t)(cmd[44] | cmd[45] << 8)));
		cqe[0] = 1; /* cntlid */
	}
	cqe[10] = cmd[42];
	cqe[12] = cmd[2];
	cqe[13] = cmd[3];
	cqe[14] = (uint8_t)(sc << 1);
	cqe[15] = (uint8_t)(sc >> 7);
	TRY(doca_sta_io_task_non_offload_rdma_send_alloc_init(t.io, (union doca_data){0}, qp, cqe, nud, &task));
	TRY(doca_task_submit(doca_sta_producer_send_task_as_task(task)));
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void cm_events(void)
{
	struct rdma_cm_event *ev;

	while (rdma_get_cm_event(t.ch, &ev) == 0) {
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			const uint8_t *pd = ev->param.conn.private_data;
			uint8_t accept[32] = {0};
			doca_error_t e;

			accept[2] = 64; /* CRQSIZE: the host's HRQSIZE, up to 64 */
			if (ev->param.conn.private_data_len >= 8 && (pd[4] | pd[5] << 8) != 0 && (pd[4] | pd[5] << 8) < 64)
				accept[2] = pd[4];
			/* the subsystem at once (as an application may): only a Connect the application
			 * accepted lets the host's I/O be offloaded */
			e = doca_sta_io_qp_connect(t.io, t.dev, ev->id, accept, sizeof(accept), t.subs, &t.qp);
			if (e == DOCA_ERROR_FULL) { /* the QP limit: the host is told no */
				uint8_t rej[4] = {0, 0, 6, 0};

				t.qps_refused++;
				t.qp = NULL;
				rdma_reject(ev->id, rej, sizeof(rej));
			} else {
				TRY(e);
			}
		} else if (ev->event == RDMA_CM_EVENT_ESTABLISHED && t.qp != NULL) {
			TRY(doca_sta_io_qp_connect_established(t.io, t.qp));
		}
		rdma_ack_cm_event(ev);
	}
}

/* Runs the target (PE, RDMA-CM, the host's answers) until cond holds or timeout_ms passes. */
static bool run_until(bool (*cond)(void), long timeout_ms)
{
	long end = now_ms() + timeout_ms;

	for (;;) {
		struct pollfd p[2] = {{.fd = t.ch->fd, .events = POLLIN}, {.fd = t.from_host, .events = POLLIN}};
		ssize_t r;

		while (doca_pe_progress(t.pe))
			;
		while (t.sta_pe != NULL && !t.sta_paused && doca_pe_progress(t.sta_pe))
			;
		cm_events();
		if (poll(&p[1], 1, 0) == 1 && t.reply_len < sizeof(t.reply) - 1 &&
		    (r = read(t.from_host, t.reply + t.reply_len, sizeof(t.reply) - 1 - t.reply_len)) > 0)
			t.reply_len += (size_t)r;
		if (cond())
			return true;
		if (now_ms() >= end)
			return false;
		/* the EUs' work reaches the PE through its own wake-ups: look again soon */
		(void)poll(p, 2, 5);
	}
}

static bool have_line(void)
{
	return memchr(t.reply, '\n', t.reply_len) != NULL;
}

/* Sends one command line to the host and returns its answer line. */
static const char *ask(const char *cmd)
{
	static char line[256];
	char *nl;
	size_t n;

	REQUIRE(write(t.to_host, cmd, strlen(cmd)) == (ssize_t)strlen(cmd));
	REQUIRE(run_until(have_line, 3 * TMO));
	nl = memchr(t.reply, '\n', t.reply_len);
	n = (size_t)(nl - t.reply) + 1;
	memcpy(line, t.reply, n - 1);
	line[n - 1] = 0;
	memmove(t.reply, t.reply + n, t.reply_len - n);
	t.reply_len -= n;
	if (!t.quiet)
		fprintf(stderr, "  host: %.*s -> %s\n", (int)strcspn(cmd, "\n"), cmd, line);
	return line;
}

static uint64_t beq_submitted(void)
{
	const struct doca_sta_eu_ctr_entry *e;
	uint16_t n;

	TRY(doca_sta_get_be_queue_stats(t.be, t.beq, &e, &n));
	return *e[0].val; /* "submitted" */
}

/* An EU counter summed over the STA context's EUs. */
static uint64_t eu_ctr(const char *name)
{
	struct doca_sta_eu_handle *eus[64];
	uint32_t n = 0;
	uint64_t sum = 0;

	TRY(doca_sta_get_eu_handle(t.sta, eus, &n));
	for (uint32_t i = 0; i < n; i++) {
		const struct doca_sta_eu_ctr_entry *e;
		uint16_t k;

		TRY(doca_sta_get_eu_stats(eus[i], &e, &k));
		for (uint16_t j = 0; j < k; j++)
			if (strcmp(e[j].name, name) == 0)
				sum += __atomic_load_n(e[j].val, __ATOMIC_RELAXED);
	}
	return sum;
}

static uint64_t want_submitted;
static bool submitted_reached(void)
{
	return beq_submitted() >= want_submitted;
}
static bool timed_out(void)
{
	return t.be_timeouts > 0;
}
static bool removed(void)
{
	return t.rm_done > 0;
}
static bool eu_errored(void)
{
	return t.eu_errors > 0;
}
static bool beqs_gone(void)
{
	return t.beq_destroyed == t.beq_want;
}
static bool io_idle(void)
{
	enum doca_ctx_states st;

	doca_ctx_get_state(doca_sta_io_as_ctx(t.io), &st);
	return st == DOCA_CTX_STATE_IDLE;
}
static bool sta_idle(void)
{
	enum doca_ctx_states st;

	doca_ctx_get_state(doca_sta_as_ctx(t.sta), &st);
	return st == DOCA_CTX_STATE_IDLE;
}
static bool running(void)
{
	enum doca_ctx_states a, b;

	doca_ctx_get_state(doca_sta_as_ctx(t.sta), &a);
	b = a;
	if (t.io != NULL)
		doca_ctx_get_state(doca_sta_io_as_ctx(t.io), &b);
	return a == DOCA_CTX_STATE_RUNNING && b == DOCA_CTX_STATE_RUNNING;
}

static struct doca_mmap *mmap_of(void *addr, size_t len)
{
	struct doca_mmap *m;

	TRY(doca_mmap_create(&m));
	TRY(doca_mmap_set_memrange(m, addr, len));
	TRY(doca_mmap_add_dev(m, t.dev));
	TRY(doca_mmap_start(m));
	return m;
}

/* The IO context, running. */
static void io_setup(void)
{
	doca_error_t e;

	TRY(doca_sta_io_create(t.sta, &t.io));
	TRY(doca_pe_connect_ctx(t.pe, doca_sta_io_as_ctx(t.io)));
	TRY(doca_sta_io_non_offload_register_cb(t.io, non_offload, (union doca_data){0}));
	TRY(doca_sta_io_task_disconnect_set_conf(t.io, disc_cb, disc_cb));
	TRY(doca_sta_io_task_non_offload_set_rdma_write_send_conf(t.io, task_free, task_free));
	TRY(doca_sta_io_task_non_offload_set_rdma_read_conf(t.io, read_cb, read_cb));
	e = doca_ctx_start(doca_sta_io_as_ctx(t.io));
	REQUIRE(e == DOCA_ERROR_IN_PROGRESS || e == DOCA_SUCCESS);
	REQUIRE(run_until(running, TMO));
}

static void setup(void)
{
	struct softdoca_nvme_disk_attr a = {.path = NULL, .size = 8u << 20, .block_size = 512};
	struct doca_devinfo **list;
	struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
	uint32_t n;
	void *db;
	size_t dbl;
	doca_error_t e;

	t.ch = rdma_create_event_channel();
	REQUIRE(t.ch != NULL && fcntl(t.ch->fd, F_SETFL, fcntl(t.ch->fd, F_GETFL) | O_NONBLOCK) == 0);
	TRY(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && t.dev == NULL; i++)
		if (doca_sta_cap_is_supported(list[i]) == DOCA_SUCCESS)
			TRY(doca_dev_open(list[i], &t.dev));
	doca_devinfo_destroy_list(list);
	REQUIRE(t.dev != NULL);
	TRY(doca_pe_create(&t.pe));
	TRY(doca_sta_create(t.dev, &t.sta));
	if (t.sta_pe != NULL) { /* the lifetime cases: a PE of its own, and the CQE-notify event */
		TRY(doca_pe_connect_ctx(t.sta_pe, doca_sta_as_ctx(t.sta)));
		TRY(doca_sta_event_cqe_notify_register_cb(t.sta, cqe_notify, (union doca_data){0}));
	} else {
		TRY(doca_pe_connect_ctx(t.pe, doca_sta_as_ctx(t.sta)));
	}
	TRY(doca_sta_mem_allocator_register(t.sta, zmalloc_cb, free, vtophys_cb));
	TRY(doca_sta_event_be_timeout_register_cb(t.sta, be_timeout, (union doca_data){0}));
	TRY(doca_sta_event_eu_err_register_cb(t.sta, eu_err, (union doca_data){0}));
	TRY(doca_sta_subsystem_task_rm_ns_set_conf(t.sta, rm_cb, rm_cb));
	TRY(doca_sta_be_task_destroy_queue_set_conf(t.sta, beq_cb, beq_cb));
	e = doca_ctx_start(doca_sta_as_ctx(t.sta));
	REQUIRE(e == DOCA_ERROR_IN_PROGRESS || e == DOCA_SUCCESS);
	REQUIRE(run_until(running, TMO));

	/* back-end 1: a soft NVMe disk; back-end 2: queues in plain memory, which no EU can drive */
	TRY(softdoca_nvme_open(&a, &t.disk));
	TRY(softdoca_nvme_get_doorbells(t.disk, &db, &dbl));
	TRY(softdoca_nvme_qpair_create(t.disk, 1, 64, NULL, NULL, &t.nq));
	t.mm[0] = mmap_of(db, dbl);
	t.mm[1] = mmap_of(t.nq.sq, 64u * t.nq.depth);
	t.mm[2] = mmap_of(t.nq.cq, 16u * t.nq.depth);
	for (int i = 0; i < 3; i++) {
		t.bad_mem[i] = aligned_alloc(4096, 4096);
		REQUIRE(t.bad_mem[i] != NULL);
		memset(t.bad_mem[i], 0, 4096);
		t.mm[3 + i] = mmap_of(t.bad_mem[i], 4096);
	}
	TRY(doca_sta_subsystem_create(t.sta, NQN, &t.subs));
	TRY(doca_sta_subsystem_add_dev(t.subs, t.dev));
	TRY(doca_sta_be_create(t.sta, &t.be));
	TRY(doca_sta_be_add_queue(t.be, t.mm[1], t.mm[0], (uint16_t)t.nq.sq_doorbell_offset, t.mm[2], t.mm[0],
				  (uint16_t)t.nq.cq_doorbell_offset, &t.beq));
	TRY(doca_sta_be_create(t.sta, &t.bad_be));
	TRY(doca_sta_be_add_queue(t.bad_be, t.mm[4], t.mm[3], 8, t.mm[5], t.mm[3], 12, &t.bad_beq));
	TRY(doca_sta_subsystem_add_ns(t.subs, 1, 512, 1, t.be, &t.ns1));
	TRY(doca_sta_subsystem_add_ns(t.subs, 2, 512, 1, t.bad_be, &t.ns2));

	io_setup();

	REQUIRE(rdma_create_id(t.ch, &t.listen_id, NULL, RDMA_PS_TCP) == 0);
	REQUIRE(getaddrinfo("127.0.0.1", port, &hints, &res) == 0);
	REQUIRE(rdma_bind_addr(t.listen_id, res->ai_addr) == 0 && rdma_listen(t.listen_id, 8) == 0);
	freeaddrinfo(res);
}

static void teardown(void)
{
	struct doca_sta_producer_task_send *task;

	/* the host is gone; its QP goes with the IO context (if a case did not stop it already) */
	if (t.io != NULL) {
		doca_ctx_stop(doca_sta_io_as_ctx(t.io));
		REQUIRE(run_until(io_idle, TMO));
		TRY(doca_sta_io_destroy(t.io));
		t.io = NULL;
	}
	TRY(doca_sta_subsystem_rm_ns(t.subs, t.ns2));
	t.beq_want = t.beq_destroyed;
	for (int i = 0; i < 2; i++) {
		struct doca_sta_be_q_handle *q = i == 0 ? t.beq : t.bad_beq;

		if (q == NULL) /* (destroyed by a case) */
			continue;
		TRY(doca_sta_be_destroy_queue_task_alloc_init(q, (union doca_data){0}, &task));
		TRY(doca_task_submit(doca_sta_producer_send_task_as_task(task)));
		t.beq_want++;
	}
	REQUIRE(run_until(beqs_gone, TMO));
	TRY(doca_sta_be_destroy(t.be));
	TRY(doca_sta_be_destroy(t.bad_be));
	TRY(doca_sta_subsystem_destroy(t.subs));
	doca_ctx_stop(doca_sta_as_ctx(t.sta));
	REQUIRE(run_until(sta_idle, TMO));
	TRY(doca_sta_destroy(t.sta));
	TRY(doca_pe_destroy(t.pe));
	if (t.sta_pe != NULL)
		TRY(doca_pe_destroy(t.sta_pe));
	for (int i = 0; i < 6; i++)
		TRY(doca_mmap_destroy(t.mm[i]));
	for (int i = 0; i < 3; i++)
		free(t.bad_mem[i]);
	TRY(softdoca_nvme_qpair_destroy(t.disk, &t.nq));
	TRY(softdoca_nvme_close(t.disk));
	TRY(doca_dev_close(t.dev));
	rdma_destroy_id(t.listen_id);
	rdma_destroy_event_channel(t.ch);
}

/*
 * The end of a run: the host child told to quit and reaped, namespace 1 removed (rm_ns1: the
 * run left it there), the rest torn down.
 */
static void finish(pid_t child, bool rm_ns1)
{
	int st;

	REQUIRE(write(t.to_host, "Q\n", 2) == 2);
	REQUIRE(waitpid(child, &st, 0) == child);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (rm_ns1)
		TRY(doca_sta_subsystem_rm_ns(t.subs, t.ns1));
	teardown(); /* the IO context and the STA context still stop */
	fprintf(stderr, "%s\n", test_failures == 0 ? "PASS" : "FAIL");
}

/* The DPA's watchdog stops the EU job of a busy IO context: the fatal EU error (see the top). */
static int fatal_eu_error(pid_t child)
{
	unsigned int got, ok, sc, invs, rounds = 0;
	long end;

	FILE *log = tmpfile();
	struct doca_log_backend *lb;

	setenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_TIME", "1", 1); /* read at the DPA's first use, in setup() */
	setup();
	REQUIRE(log != NULL);
	TRY(doca_log_backend_create_with_fd_sdk(fileno(log), &lb));
	TRY(doca_log_backend_set_sdk_level(lb, DOCA_LOG_LEVEL_ERROR));
	REQUIRE(strcmp(ask("C\n"), "C 0") == 0);
	t.quiet = true;
	end = now_ms() + 3 * TMO;
	/* 32 reads at a time, each batch answered, until the event (the EU's CPU time grows by about
	 * a second per 3 s of this on the development VM; slower machines use more CPU per read) */
	while (t.eu_errors == 0 && now_ms() < end) {
		ask("S 32 1 0 2 0\n");
		REQUIRE(sscanf(ask("A 32 3000\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4);
		rounds++;
		(void)run_until(eu_errored, 0);
	}
	t.quiet = false;
	fprintf(stderr, "  %u rounds of 32 reads\n", rounds);
	CHECK(run_until(eu_errored, TMO));
	CHECK(t.eu_errors == 1 && t.eu_fatal);
	/* the log says why: the watchdog names the limit, STA what it means for the QPs */
	CHECK(file_has(fileno(log), "DPA watchdog: kernel 'sta_io'", "doca_dpa_get_kernel_max_run_time()"));
	CHECK(file_has(fileno(log), "its EU job ended with DOCA_ERROR_TIME_OUT", "its QPs are not served any more"));
	/* the IO context's QPs are not served any more: a command gets no response */
	ask("S 1 1 0 2 0\n");
	CHECK(sscanf(ask("A 1 1000\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 0);
	fprintf(stderr, "ok fatal EU error event; the IO context's QPs are not served\n");
	finish(child, true);
	TEST_EXIT();
}

static bool held(void)
{
	return t.held_qp != NULL;
}
static bool both_done(void)
{
	return t.read_seq != 0 && t.disc_seq != 0;
}

/* The disconnect task comes after the QP's tasks in flight (see the top). */
static int disconnect_with_read(pid_t child)
{
	struct doca_sta_producer_task_send *rd, *dc;
	struct test_conn *c = malloc(sizeof(*c));
	int st;

	REQUIRE(c != NULL);
	setup();
	REQUIRE(strcmp(ask("C\n"), "C 0") == 0);
	/* Write Uncorrectable (0x04) with a keyed SGL of 4 KiB: the non-offload callback's */
	t.hold = true;
	ask("S 1 1 0 4 0\n");
	REQUIRE(run_until(held, TMO));
	/* the host answers no RDMA READ from now on */
	REQUIRE(kill(child, SIGSTOP) == 0);
	REQUIRE(waitpid(child, &st, WUNTRACED) == child && WIFSTOPPED(st));
	*c = (struct test_conn){.magic = CONN_MAGIC, .qp = t.held_qp};
	TRY(doca_sta_io_task_non_offload_rdma_read_alloc_init(t.io, (union doca_data){.ptr = c}, t.held_qp, t.held_nud,
							      &rd));
	TRY(doca_task_submit(doca_sta_producer_send_task_as_task(rd)));
	TRY(doca_sta_io_task_disconnect_alloc_init(t.io, (union doca_data){.ptr = c}, t.held_qp, &dc));
	TRY(doca_task_submit(doca_sta_producer_send_task_as_task(dc)));
	CHECK(run_until(both_done, TMO));
	fprintf(stderr, "  READ callback #%d (%s), disconnect callback #%d\n", t.read_seq,
		doca_error_get_name(t.read_status), t.disc_seq);
	CHECK(t.read_seq != 0 && t.read_seq < t.disc_seq);
	CHECK(t.read_status == DOCA_ERROR_CONNECTION_ABORTED);
	fprintf(stderr, "ok the disconnect task's callback comes after its QP's READ task's\n");
	REQUIRE(kill(child, SIGCONT) == 0);
	finish(child, true);
	TEST_EXIT();
}

/* ---- the lifetime cases (see the top) ---- */

static bool cqe_seen(void)
{
	return __atomic_load_n(&t.cqe_events, __ATOMIC_ACQUIRE) > 0;
}
static bool beq_gone(void)
{
	return t.beq_destroyed == 1;
}
static uint64_t beq_timeouts_ctr(void)
{
	const struct doca_sta_eu_ctr_entry *e;
	uint16_t n;

	TRY(doca_sta_get_be_queue_stats(t.be, t.beq, &e, &n));
	return __atomic_load_n(e[2].val, __ATOMIC_RELAXED); /* "timeouts" */
}
static uint64_t want_timeouts;
static bool beq_timed_out(void)
{
	return beq_timeouts_ctr() >= want_timeouts;
}

/* One refused read (namespace 9: Invalid Namespace, and a CQE-notify event on the STA context). */
static void refused_read(void)
{
	unsigned int got, ok, sc, invs;

	ask("S 1 9 0 2 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && sc == 0x0b);
}

/* The host's queue again, its last QP destroyed by the case. */
static void reconnect(void)
{
	ask("D\n");
	REQUIRE(strcmp(ask("C\n"), "C 0") == 0);
}

/* The STA context's PE, on a thread of its own, until the CQE-notify callback ran (bounded). */
static void *sta_pe_thread(void *arg)
{
	long end = now_ms() + TMO;
	doca_notification_handle_t h;

	(void)arg;
	if (doca_pe_get_notification_handle(t.sta_pe, &h) != DOCA_SUCCESS)
		return NULL;
	while (!cqe_seen() && now_ms() < end) {
		struct pollfd p = {.fd = (int)h, .events = POLLIN};

		while (doca_pe_progress(t.sta_pe))
			;
		/* asleep until the EU's event rings the PE (an error: work waits, progress again) */
		if (!cqe_seen() && doca_pe_request_notification(t.sta_pe) == DOCA_SUCCESS) {
			(void)poll(&p, 1, (int)(end - now_ms()));
			(void)doca_pe_clear_notification(t.sta_pe, h);
		}
	}
	return NULL;
}

static void notify_destroyed(FILE *log)
{
	(void)log;
	TRY(doca_sta_io_qp_set_user_data(t.io, t.qp, (union doca_data){.u64 = 0x5157}));
	t.cqe_events = 0;
	refused_read();
	CHECK(run_until(cqe_seen, TMO));
	CHECK(t.cqe_qp == t.qp && t.cqe_qp_err == DOCA_SUCCESS && t.cqe_subs == t.subs && t.cqe_qp_ud.u64 == 0x5157);
	/* again, the STA context's PE not progressed: the event waits for it (it goes before the
	 * response), and the QP is destroyed meanwhile */
	t.cqe_events = 0;
	t.sta_paused = true;
	refused_read();
	TRY(doca_sta_io_qp_destroy(t.io, t.qp));
	t.qp = NULL;
	t.sta_paused = false;
	while (doca_pe_progress(t.sta_pe))
		;
	CHECK(t.cqe_events == 1 && t.cqe_qp == NULL && t.cqe_qp_err == DOCA_ERROR_NOT_FOUND);
	CHECK(t.cqe_subs == t.subs && t.cqe_nsid == 9); /* the rest of it as it was */
	fprintf(stderr, "ok a destroyed QP's CQE-notify event waiting for the PE comes naming no QP (%d delivered)\n",
		t.cqe_events);
	reconnect();
}

/* The callback runs on another thread while the QP is destroyed (and its IO context, io_too). */
static void delivering(bool io_too)
{
	pthread_t th;
	char c = 1;
	struct pollfd p;
	uint16_t group;

	TRY(doca_sta_io_qp_set_user_data(t.io, t.qp, (union doca_data){.u64 = 0x5158}));
	TRY(doca_sta_io_qp_get_group_id(t.qp, &group));
	t.cqe_group = 0xffff;
	REQUIRE(pipe(t.gate_in) == 0 && pipe(t.gate_out) == 0);
	t.cqe_events = 0;
	t.cqe_gated = true;
	t.sta_paused = true; /* the thread's from now on */
	REQUIRE(pthread_create(&th, NULL, sta_pe_thread, NULL) == 0);
	refused_read();
	/* the callback runs there and waits: the QP's thread (this one) destroys the QP */
	p = (struct pollfd){.fd = t.gate_in[0], .events = POLLIN};
	REQUIRE(poll(&p, 1, TMO) == 1 && read(t.gate_in[0], &c, 1) == 1);
	TRY(doca_sta_io_qp_destroy(t.io, t.qp));
	t.qp = NULL;
	if (io_too) {
		doca_ctx_stop(doca_sta_io_as_ctx(t.io));
		REQUIRE(run_until(io_idle, TMO));
		TRY(doca_sta_io_destroy(t.io));
		t.io = NULL;
	}
	REQUIRE(write(t.gate_out[1], &c, 1) == 1);
	REQUIRE(pthread_join(th, NULL) == 0);
	CHECK(t.cqe_events == 1 && t.cqe_qp_ud.u64 == 0x5158 && t.cqe_group == group);
	fprintf(stderr, "ok a QP destroyed while its CQE-notify callback runs stays valid until it returns%s\n",
		io_too ? " (its IO context destroyed too)" : "");
	t.cqe_gated = false;
	t.sta_paused = false;
	for (int i = 0; i < 2; i++) {
		close(t.gate_in[i]);
		close(t.gate_out[i]);
	}
	if (io_too)
		io_setup();
	reconnect();
}

static void notify_delivering(FILE *log)
{
	(void)log;
	delivering(false);
}

static void notify_io_destroyed(FILE *log)
{
	(void)log;
	delivering(true);
}

static void subs_in_use(FILE *log)
{
	struct doca_sta_subs_handle *empty;
	unsigned int got, ok, sc, invs;

	TRY(doca_sta_subsystem_create(t.sta, NQN "-empty", &empty));
	TRY(doca_sta_io_qp_add_subsystem(t.io, empty, t.qp));
	CHECK(doca_sta_subsystem_destroy(empty) == DOCA_ERROR_IN_USE);
	CHECK(file_has(fileno(log), "1 QPs still serve it", "doca_sta_io_qp_destroy()"));
	/* the EU still reads the subsystem: namespace 1 is not in it (Invalid Namespace), and the
	 * event waits for the STA context's PE while the subsystem goes */
	t.cqe_events = 0;
	t.sta_paused = true;
	ask("S 1 1 0 2 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && sc == 0x0b);
	TRY(doca_sta_io_qp_add_subsystem(t.io, t.subs, t.qp));
	TRY(doca_sta_subsystem_destroy(empty));
	t.sta_paused = false;
	CHECK(run_until(cqe_seen, TMO));
	CHECK(t.cqe_qp == t.qp && t.cqe_subs == NULL);
	ask("S 1 1 0 2 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && ok == 1);
	fprintf(stderr, "ok a subsystem its QPs serve is not destroyed; the event of a destroyed one names none\n");
}

static void task_after_destroy(FILE *log)
{
	struct doca_sta_producer_task_send *rsp, *dc;
	doca_sta_nvme_completion_t cqe = {0};

	t.hold = true;
	ask("S 1 1 0 4 0\n"); /* Write Uncorrectable: the callback's, held */
	REQUIRE(run_until(held, TMO));
	TRY(doca_sta_io_task_non_offload_rdma_send_alloc_init(t.io, (union doca_data){0}, t.held_qp, cqe, t.held_nud,
							      &rsp));
	TRY(doca_sta_io_task_disconnect_alloc_init(t.io, (union doca_data){0}, t.held_qp, &dc));
	TRY(doca_sta_io_qp_destroy(t.io, t.held_qp));
	t.qp = NULL;
	CHECK(doca_task_submit(doca_sta_producer_send_task_as_task(rsp)) == DOCA_ERROR_BAD_STATE);
	CHECK(doca_task_submit(doca_sta_producer_send_task_as_task(dc)) == DOCA_ERROR_BAD_STATE);
	CHECK(file_has(fileno(log), "its QP was destroyed", "doca_task_free()"));
	doca_task_free(doca_sta_producer_send_task_as_task(rsp));
	doca_task_free(doca_sta_producer_send_task_as_task(dc));
	t.hold = false;
	t.held_qp = NULL;
	fprintf(stderr, "ok tasks of a QP destroyed before their submission are refused\n");
	reconnect();
}

/* A response task for the held command: Invalid Opcode. */
static struct doca_sta_producer_task_send *held_response(void)
{
	struct doca_sta_producer_task_send *task;
	doca_sta_nvme_completion_t cqe = {0};

	cqe[12] = (uint8_t)t.held_cid;
	cqe[13] = (uint8_t)(t.held_cid >> 8);
	cqe[14] = 0x01 << 1;
	TRY(doca_sta_io_task_non_offload_rdma_send_alloc_init(t.io, (union doca_data){0}, t.held_qp, cqe, t.held_nud,
							      &task));
	return task;
}

static void stale_command(FILE *log)
{
	struct doca_sta_producer_task_send *stale;
	unsigned int got, ok, sc, invs;
	int refused = 0, tries = 0;

	t.hold = true;
	t.held_qp = NULL;
	ask("S 1 1 0 4 0\n"); /* Write Uncorrectable: the callback's, held */
	REQUIRE(run_until(held, TMO));
	stale = held_response(); /* one task too many for this command */
	TRY(doca_task_submit(doca_sta_producer_send_task_as_task(held_response())));
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && sc == 0x01);
	t.quiet = true;
	for (int i = 0; i < 300; i++) {
		t.held_qp = NULL;
		ask("S 1 1 0 4 0\n");
		REQUIRE(run_until(held, TMO));
		tries++;
		if (doca_task_submit(doca_sta_producer_send_task_as_task(stale)) != DOCA_ERROR_BAD_STATE)
			break; /* it answered this command */
		refused++;
		TRY(doca_task_submit(doca_sta_producer_send_task_as_task(held_response())));
		if (sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) != 4 || got != 1)
			break;
	}
	t.quiet = false;
	CHECK(refused == 300);
	CHECK(file_has(fileno(log), "already has its response", "doca_task_free()"));
	fprintf(stderr, "ok a task of a command answered already is refused (%d of %d times)\n", refused, tries);
	if (refused == 300)
		doca_task_free(doca_sta_producer_send_task_as_task(stale));
	t.hold = false;
	t.held_qp = NULL;
	reconnect();
}

static void beq_timeout(FILE *log)
{
	struct doca_sta_producer_task_send *task;
	unsigned int got, ok, sc, invs;

	(void)log;
	/* a write held on the disk past the time-out (1 s), the STA context's PE not progressed */
	want_timeouts = beq_timeouts_ctr() + 1;
	t.be_timeouts = 0;
	t.sta_paused = true;
	TRY(softdoca_nvme_hold_completions(t.disk, 1));
	ask("S 1 1 0 1 0\n");
	REQUIRE(run_until(beq_timed_out, TMO));
	TRY(softdoca_nvme_hold_completions(t.disk, 0));
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && ok == 1);
	/* the IO context stops (its queue is free), the destroy-queue task runs before the event */
	ask("D\n");
	TRY(doca_sta_io_qp_destroy(t.io, t.qp));
	t.qp = NULL;
	doca_ctx_stop(doca_sta_io_as_ctx(t.io));
	REQUIRE(run_until(io_idle, TMO));
	TRY(doca_sta_io_destroy(t.io));
	t.io = NULL;
	t.beq_destroyed = 0;
	TRY(doca_sta_be_destroy_queue_task_alloc_init(t.beq, (union doca_data){0}, &task));
	TRY(doca_task_submit(doca_sta_producer_send_task_as_task(task)));
	t.sta_paused = false;
	REQUIRE(run_until(beq_gone, TMO));
	t.beq = NULL;
	while (doca_pe_progress(t.sta_pe))
		;
	CHECK(t.be_timeouts == 0);
	fprintf(stderr, "ok a destroyed back-end queue's time-out event waiting for the PE is dropped (%d delivered)\n",
		t.be_timeouts);
}

/*
 * A removed namespace with a command in flight still holds its back-end: the command goes on to
 * the back-end's queue. doca_sta_be_destroy counts it (it used to count it out at the removal).
 */
static struct doca_sta_ns_handle *ns3;

static bool ns3_reading(void)
{
	const struct doca_sta_eu_ctr_entry *e;
	uint16_t n;

	return doca_sta_get_ns_stats(t.subs, ns3, &e, &n) == DOCA_SUCCESS && n > 0 &&
	       __atomic_load_n(e[0].val, __ATOMIC_RELAXED) >= 1; /* "reads" */
}

static void be_keeps_removed_ns(FILE *log)
{
	unsigned int got, ok, sc, invs;

	TRY(doca_sta_subsystem_add_ns(t.subs, 3, 512, 1, t.be, &ns3));
	TRY(softdoca_nvme_hold_completions(t.disk, 1));
	ask("S 1 3 0 2 0\n");
	REQUIRE(run_until(ns3_reading, TMO)); /* on the disk, which holds its completion */
	TRY(doca_sta_subsystem_rm_ns(t.subs, ns3)); /* at once: it goes with the read */
	CHECK(doca_sta_be_destroy(t.be) == DOCA_ERROR_IN_USE);
	/* namespaces 1 and 3 (removed, its read in flight) */
	CHECK(file_has(fileno(log), "1 queues and 2 namespaces", "counts until the commands in flight"));
	TRY(softdoca_nvme_hold_completions(t.disk, 0));
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && ok == 1);
	fprintf(stderr, "ok a removed namespace holds its back-end until its last command is done\n");
}

/*
 * A host's refused commands each make a CQE-notify event, faster than a PE that is not
 * progressed takes them: 4096 wait at most, the rest are dropped (memory stays bounded).
 */
static bool cqe_notes_all(void)
{
	return __atomic_load_n(&t.cqe_events, __ATOMIC_ACQUIRE) >= 4096;
}

static void cqe_notes_capped(FILE *log)
{
	unsigned int got, ok, sc, invs, refused = 0;

	(void)log;
	t.cqe_events = 0;
	t.sta_paused = true;
	for (int i = 0; i < 65; i++) { /* 4160 reads of namespace 9 */
		ask("S 64 9 0 2 0\n");
		CHECK(sscanf(ask("A 64\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 64 && sc == 0x0b);
		refused += got - ok;
	}
	t.sta_paused = false;
	CHECK(run_until(cqe_notes_all, TMO));
	while (doca_pe_progress(t.sta_pe)) /* (until none waits) */
		;
	CHECK(refused == 4160 && t.cqe_events == 4096);
	fprintf(stderr, "ok %u refused commands while the PE slept: %d CQE-notify events kept, the rest dropped\n", refused,
		t.cqe_events);
}

static int lifetime(pid_t child, const char *which)
{
	static const struct {
		const char *name;
		void (*run)(FILE *log);
	} cases[] = {
		{"notify_destroyed", notify_destroyed},
		{"notify_delivering", notify_delivering},
		{"notify_io_destroyed", notify_io_destroyed},
		{"subs_in_use", subs_in_use},
		{"task_after_destroy", task_after_destroy},
		{"stale_command", stale_command},
		{"be_keeps_removed_ns", be_keeps_removed_ns},
		{"cqe_notes_capped", cqe_notes_capped},
		{"beq_timeout", beq_timeout}, /* (last: its IO context is gone after it) */
	};
	FILE *log = tmpfile();
	struct doca_log_backend *lb;

	TRY(doca_pe_create(&t.sta_pe));
	setup();
	REQUIRE(log != NULL);
	TRY(doca_log_backend_create_with_fd_sdk(fileno(log), &lb));
	TRY(doca_log_backend_set_sdk_level(lb, DOCA_LOG_LEVEL_ERROR));
	REQUIRE(strcmp(ask("C\n"), "C 0") == 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (which != NULL && strcmp(which, cases[i].name) != 0)
			continue;
		fprintf(stderr, "case %s\n", cases[i].name);
		cases[i].run(log);
	}
	finish(child, true);
	TEST_EXIT();
}

static void on_alarm(int sig)
{
	(void)sig;
	_exit(3);
}

int main(int argc, char **argv)
{
	int down[2], up[2];
	unsigned int got, ok, sc, invs;
	struct doca_sta_producer_task_send *task;
	pid_t child;

	if (argc < 2) {
		fprintf(stderr, "usage: test_sta_events PORT\n");
		return 2;
	}
	port = argv[1];
	signal(SIGALRM, on_alarm);
	alarm(240);
	/* the host first, before this process has any thread */
	REQUIRE(pipe(down) == 0 && pipe(up) == 0);
	child = fork();
	REQUIRE(child >= 0);
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(down[1]);
		close(up[0]);
		host(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	t.to_host = down[1];
	t.from_host = up[0];
	setenv("SOFTDOCA_STA_BE_TIMEOUT_MS", "1000", 1);
	setenv("SOFTDOCA_STA_NONOFF_WARN_MS", "300", 1);
	if (argc > 2 && strcmp(argv[2], "fatal") == 0)
		return fatal_eu_error(child);
	if (argc > 2 && strcmp(argv[2], "disconnect") == 0)
		return disconnect_with_read(child);
	if (argc > 2 && strcmp(argv[2], "lifetime") == 0)
		return lifetime(child, argc > 3 ? argv[3] : NULL);
	setup();
	REQUIRE(strcmp(ask("C\n"), "C 0") == 0);

	/* SEND with invalidate, for a write and a read; a plain keyed SGL gets a plain SEND */
	ask("S 1 1 0 1 1\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 1 && invs == 1);
	ask("S 1 1 0 2 1\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 1 && invs == 1);
	ask("S 1 1 0 2 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 1 && invs == 0);
	fprintf(stderr, "ok SEND with invalidate\n");

	/*
	 * The QPs join the subsystem at accept. A host whose Connect was refused gets no I/O
	 * offloaded: its read and write go to the callback (Invalid Opcode here). A second Connect
	 * on a connected I/O queue, as an admin queue: Command Sequence Error, and the queue's I/O
	 * is still offloaded.
	 */
	{
		unsigned int csc, rsc, wsc;
		int rc;

		CHECK(sscanf(ask("R\n"), "R %d 0x%x 0x%x 0x%x", &rc, &csc, &rsc, &wsc) == 4 && rc > 0 && csc == 0x84 &&
		      rsc == 0x01 && wsc == 0x01);
		CHECK(sscanf(ask("X\n"), "X 0x%x 0x%x", &csc, &rsc) == 2 && csc == 0x0c && rsc == 0);
		ask("S 1 1 0 2 0\n");
		CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 1);
		fprintf(stderr, "ok a refused Connect offloads nothing; a second Connect changes nothing\n");
	}

	/* who completes the disk's commands (see the top): 200 I/Os at queue depth 1 */
	{
		bool eu_ring = getenv("SOFTDOCA_STA_EU_URING") == NULL || strcmp(getenv("SOFTDOCA_STA_EU_URING"), "0") != 0;
		uint64_t done0 = eu_ctr("nvme_completed"), reaped0 = eu_ctr("nvme_eu_reaped"), irqs0 = eu_ctr("nvme_irqs");
		long sw0 = thread_switches(NVME_THREAD), sw;
		unsigned int all = 0;

		REQUIRE(sw0 >= 0);
		t.quiet = true;
		for (int i = 0; i < 100; i++) {
			ask("S 1 1 500 1 0\n");
			if (sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 1)
				all++;
			ask("S 1 1 500 2 0\n");
			if (sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 1)
				all++;
		}
		t.quiet = false;
		sw = thread_switches(NVME_THREAD) - sw0;
		uint64_t done = eu_ctr("nvme_completed") - done0, reaped = eu_ctr("nvme_eu_reaped") - reaped0;
		uint64_t irqs = eu_ctr("nvme_irqs") - irqs0;

		fprintf(stderr,
			"  200 I/Os at QD 1 (%s): %llu completed, %llu posted by the EU from its io_uring, %llu disk "
			"interrupts taken by the EU, %ld wake-ups of the disk's controller thread\n",
			eu_ring ? "the EU's io_uring" : "SOFTDOCA_STA_EU_URING=0", (unsigned long long)done,
			(unsigned long long)reaped, (unsigned long long)irqs, sw);
		CHECK(all == 200 && done == 200);
		if (eu_ring) {
			CHECK(reaped == 200);
			CHECK(irqs == 0);
			CHECK(sw < 20);
		} else {
			/* (the EU takes only some by interrupt: it sees the others before it sleeps) */
			CHECK(reaped == 0);
			CHECK(irqs > 0);
			CHECK(sw >= 100);
		}
		fprintf(stderr, "ok the disk's completions: %s\n",
			eu_ring ? "the EU's own, the controller thread asleep" : "the controller thread's, by interrupt");
	}

	/*
	 * The IO context stopped and started again takes the same back-end queue, whose SQ and CQ
	 * are part-way round (203 commands on 64 entries): it goes on from there. (It used to start
	 * at entry 0, phase 1: the disk ran stale SQEs again and the EU misread the CQ.)
	 */
	{
		ask("D\n");
		doca_ctx_stop(doca_sta_io_as_ctx(t.io));
		REQUIRE(run_until(io_idle, TMO));
		doca_error_t e = doca_ctx_start(doca_sta_io_as_ctx(t.io));

		REQUIRE(e == DOCA_ERROR_IN_PROGRESS || e == DOCA_SUCCESS);
		REQUIRE(run_until(running, TMO));
		REQUIRE(strcmp(ask("C\n"), "C 0") == 0);
		for (int i = 0; i < 40; i++) {
			ask("S 1 1 700 1 0\n");
			CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && ok == 1);
			ask("S 1 1 700 2 0\n");
			CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && ok == 1);
		}
		fprintf(stderr, "ok the IO context restarted: its back-end queue goes on where it was\n");
	}

	/* the disk stops answering with 16 writes on it; the namespace is removed meanwhile */
	want_submitted = beq_submitted() + 16;
	TRY(softdoca_nvme_hold_completions(t.disk, 1));
	ask("S 16 1 1000 1 0\n");
	REQUIRE(run_until(submitted_reached, TMO));
	TRY(doca_sta_subsystem_task_rm_ns_alloc_init(t.subs, t.ns1, (union doca_data){0}, &task));
	TRY(doca_task_submit(doca_sta_producer_send_task_as_task(task)));
	ask("S 1 1 2000 1 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && ok == 0 &&
	      sc == 0x0b);
	CHECK(t.rm_done == 0);
	/* the back-end time-out (1 s here): the event names the disk's back-end and queue */
	CHECK(run_until(timed_out, TMO));
	CHECK(t.be_timeouts == 1 && t.timeout_be == t.be && t.timeout_beq == t.beq);
	CHECK(t.rm_done == 0);
	fprintf(stderr, "ok back-end time-out; the namespace removal waits for its 16 commands\n");
	TRY(softdoca_nvme_hold_completions(t.disk, 0));
	CHECK(run_until(removed, TMO));
	CHECK(t.rm_done == 1 && t.rm_status == DOCA_SUCCESS);
	CHECK(sscanf(ask("A 16\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 16 && ok == 16);
	ask("S 1 1 0 2 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 0 && sc == 0x0b);
	fprintf(stderr, "ok namespace removed after its commands drained\n");

	/* the synchronous removal under load: it returns at once, the last command frees it */
	TRY(doca_sta_subsystem_add_ns(t.subs, 3, 512, 1, t.be, &t.ns1));
	want_submitted = beq_submitted() + 16;
	TRY(softdoca_nvme_hold_completions(t.disk, 1));
	ask("S 16 3 3000 1 0\n");
	REQUIRE(run_until(submitted_reached, TMO));
	TRY(doca_sta_subsystem_rm_ns(t.subs, t.ns1));
	ask("S 1 3 4000 1 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 0 && sc == 0x0b);
	TRY(softdoca_nvme_hold_completions(t.disk, 0));
	CHECK(sscanf(ask("A 16\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 16 && ok == 16);
	fprintf(stderr, "ok namespace removed at once, freed with its last command\n");

	/* the watchdog: a command for the non-offload callback (Write Uncorrectable, 0x04) while
	 * this process does not progress the PE; the host's answer line comes straight from the
	 * pipe, and the warning is waited for (bounded) with no doca_pe_progress() */
	{
		FILE *log = tmpfile();
		struct doca_log_backend *lb;
		struct pollfd pf = {.fd = t.from_host, .events = POLLIN};
		char line[32] = {0};
		long end = now_ms() + TMO;
		bool warned = false;

		REQUIRE(log != NULL);
		TRY(doca_log_backend_create_with_fd_sdk(fileno(log), &lb));
		TRY(doca_log_backend_set_sdk_level(lb, DOCA_LOG_LEVEL_WARNING));
		REQUIRE(write(t.to_host, "S 1 1 0 4 0\n", 12) == 12);
		REQUIRE(poll(&pf, 1, TMO) == 1 && read(t.from_host, line, sizeof(line) - 1) > 0);
		CHECK(strncmp(line, "S 1", 3) == 0);
		while (!(warned = file_has(fileno(log), "non-offload callback (opcode 0x04", "doca_pe_progress()")) &&
		       now_ms() < end)
			(void)poll(NULL, 0, 20);
		CHECK(warned);
		CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && got == 1 && ok == 0 &&
		      sc == 0x01);
		fprintf(stderr, "ok the watchdog names doca_pe_progress() for a capsule nobody takes\n");
	}

	/* a back-end its EU cannot drive: Internal Error and the EU error event */
	ask("S 1 2 0 1 0\n");
	CHECK(sscanf(ask("A 1\n"), "A %u %u 0x%x %u", &got, &ok, &sc, &invs) == 4 && ok == 0 && sc == 0x06);
	CHECK(run_until(eu_errored, TMO));
	CHECK(!t.eu_fatal && t.eu_type == DOCA_STA_EU_BEQ);
	fprintf(stderr, "ok EU error event\n");

	/*
	 * The QP limit per EU (doca_sta_get_max_num_connected_qp_per_eu, 64): with the host's one
	 * queue connected, 63 more connect and the 64th is refused with DOCA_ERROR_FULL (the log
	 * names the limit); the host sees the reject.
	 */
	{
		FILE *log = tmpfile();
		struct doca_log_backend *lb;
		uint32_t max = 0;
		unsigned int connected = 0, rejected = 0;

		REQUIRE(log != NULL);
		TRY(doca_log_backend_create_with_fd_sdk(fileno(log), &lb));
		TRY(doca_log_backend_set_sdk_level(lb, DOCA_LOG_LEVEL_ERROR));
		TRY(doca_sta_get_max_num_connected_qp_per_eu(t.sta, &max));
		CHECK(max == 64);
		CHECK(sscanf(ask("L 64\n"), "L %u %u", &connected, &rejected) == 2 && connected == 63 && rejected == 1);
		CHECK(t.qps_refused == 1);
		CHECK(file_has(fileno(log), "the IO context has its 64 QPs", "doca_sta_get_max_num_connected_qp_per_eu()"));
		fprintf(stderr, "ok the QP limit per EU: %u connected, %u refused\n", connected, rejected);
	}

	finish(child, false);
	TEST_EXIT();
}
