/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who reaches a process's memory service and its soft RDMA NIC (lib/softhw/fabric/peer.h),
 * with real processes.
 *
 * `test_trust uid` (root: its children switch to uid 65534): a process of another user is
 * refused by the memory service and by the NIC's unix listener, logged once, served nothing;
 * the [access] keys (allow_uids, allow_group) let it in; a listener of another user that took
 * an exporter's or a NIC's name first is refused by the connector.
 *
 * `test_trust flood` (any uid): a flood of unproven connections from one process is capped
 * while a legitimate importer still gets in; an exporter out of descriptors under a flood does
 * not spin and logs a bounded number of lines; a hello over TCP with a wrong token gets
 * nothing (logged, rate-limited), the right token still works.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include "doca_dev.h"
#include "common/priv/dev_priv.h"
#include "softhw/fabric/fabric.h"
#include "softhw/fabric/mem.h"
#include "softhw/rnic/rnic.h"
#include "softhw/rnic/rnic_int.h" /* the wire, to speak it as an attacker would */
#include "softhw/softhw.h"
#include "trust.h"

/* Linked from the library archive without a flavour. */
const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

#define EXP_LEN 4096

static char instance[64]; /* the memory service's card instance: ours alone */

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 13 + 5);
}

/* ---- the memory service ---- */

struct exp_info {
	pid_t pid;
	uint64_t id;
	uint64_t token;
	uint64_t addr;
};

/* Exports a buffer, reports it; 'f' fills its descriptor table, 'F' empties it again. */
static void exporter_main(int in, int out)
{
	/* a whole page of anonymous memory: the export can get a shared window */
	uint8_t *mem = mmap(NULL, EXP_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static int fds[256];
	struct exp_info e = {.pid = getpid()};
	const char *why = "";
	int nfds = 0;
	char c;

	if (mem == MAP_FAILED)
		_exit(6);
	for (size_t i = 0; i < EXP_LEN; i++)
		mem[i] = pattern(i);
	CHECK_OK(softhw_mem_export_add(instance, mem, EXP_LEN, SOFTHW_MEM_READ | SOFTHW_MEM_WRITE, &e.id, &e.token, &why));
	e.addr = (uint64_t)(uintptr_t)mem;
	if (!put(out, &e, sizeof(e)))
		_exit(4);
	while (read(in, &c, 1) == 1) {
		if (c == 'f') {
			nfds = fill_fds(fds, 256);
			CHECK(nfds > 0);
		} else if (c == 'F') {
			while (nfds > 0)
				close(fds[--nfds]);
		}
		if (!put(out, "k", 1))
			_exit(5);
	}
}

/*
 * Imports what it is told (connect, read the first bytes) and reports the error, and whether
 * it reaches the memory directly, as often as told. Without cross-memory attach (off here), a
 * direct reach is the export's shared window.
 */
static void importer_main(int in, int out)
{
	struct exp_info e;

	setenv("SOFTDOCA_FABRIC_CMA", "0", 1);
	while (get(in, &e, sizeof(e))) {
		struct softhw_mem_peer peer = {.instance = instance, .pid = e.pid, .id = e.id, .token = e.token,
					       .addr = e.addr, .len = EXP_LEN,
					       .rights = SOFTHW_MEM_READ | SOFTHW_MEM_WRITE};
		struct softhw_mem_remote *r = NULL;
		const char *why = "";
		uint8_t buf[64];
		doca_error_t err = softhw_mem_connect(&peer, &r, &why);
		bool direct = false;

		if (err == DOCA_SUCCESS) {
			direct = softhw_mem_direct(r, e.addr, EXP_LEN);
			err = softhw_mem_read(r, buf, e.addr, sizeof(buf));
			for (size_t i = 0; err == DOCA_SUCCESS && i < sizeof(buf); i++)
				if (buf[i] != pattern(i))
					err = DOCA_ERROR_UNEXPECTED;
			softhw_mem_disconnect(r);
		} else {
			fprintf(stderr, "  import refused: %s\n", why);
		}
		if (!put(out, &err, sizeof(err)) || !put(out, &direct, sizeof(direct)))
			_exit(4);
	}
}

static doca_error_t import_direct(struct kid *imp, const struct exp_info *e, bool *direct)
{
	doca_error_t err = DOCA_ERROR_TIME_OUT;

	if (!put(imp->to, e, sizeof(*e)) || !get(imp->from, &err, sizeof(err)) || !get(imp->from, direct, sizeof(*direct)))
		return DOCA_ERROR_TIME_OUT;
	return err;
}

static doca_error_t import_once(struct kid *imp, const struct exp_info *e)
{
	bool direct;

	return import_direct(imp, e, &direct);
}

static bool exporter_start(struct kid *k, const char *name, const char *config, struct exp_info *e)
{
	return kid_start(k, name, config, false, exporter_main) && get(k->from, e, sizeof(*e));
}

static bool exporter_cmd(struct kid *k, char c)
{
	char ack;

	return put(k->to, &c, 1) && get(k->from, &ack, 1);
}

static void mem_addr(pid_t pid, struct sockaddr_un *addr, socklen_t *len)
{
	struct softhw_card card = {0};
	char name[24];

	snprintf(card.instance, sizeof(card.instance), "%s", instance);
	snprintf(name, sizeof(name), "%d", (int)pid);
	CHECK_OK(softhw_fabric_addr(&card, "mem", name, addr, len));
}

/* A process of another user is refused at once, served nothing, and logged once however often it tries. */
static void test_mem_other_uid_refused(void)
{
	const char *trusts_root = write_config("trusts-root.conf", "allow_uids = 0");
	struct kid exp, imp;
	struct exp_info e;
	char line[96];

	CHECK(exporter_start(&exp, "mem-exporter", NULL, &e));
	CHECK(kid_start(&imp, "mem-intruder", trusts_root, true, importer_main));
	for (int i = 0; i < 3; i++)
		CHECK_ERR(import_once(&imp, &e), DOCA_ERROR_NOT_PERMITTED);
	snprintf(line, sizeof(line), "refused process %d of uid %d", (int)imp.pid, OTHER_ID);
	kid_end(&imp);
	if (!uid_skipped) {
		CHECK(log_count(&exp, line) == 1);
		CHECK(log_count(&exp, "allow_uids = 65534") == 1);
	}
	kid_end(&exp);
}

/*
 * allow_uids and allow_group let the other user in: it reads the exported bytes, through the
 * exporter's memory service, never the export's shared window, which a process of our own user
 * gets (its descriptors would outlive the export in the other user's hands).
 */
static void test_mem_allowed(void)
{
	const char *trusts_root = write_config("trusts-root.conf", "allow_uids = 0");
	const char *keys[] = {"allow_uids = 1001, 65534", "allow_group = 65534"};

	for (int i = 0; i < 2; i++) {
		const char *conf = write_config(i == 0 ? "allow-uid.conf" : "allow-group.conf", keys[i]);
		struct kid exp, imp, own;
		struct exp_info e;
		bool direct = true, own_direct = false;

		CHECK(exporter_start(&exp, "mem-exporter-allowing", conf, &e));
		CHECK(kid_start(&imp, "mem-allowed", trusts_root, true, importer_main));
		doca_error_t err = import_direct(&imp, &e, &direct);
		kid_end(&imp);
		if (!uid_skipped) {
			CHECK_ERR(err, DOCA_SUCCESS);
			CHECK(!direct);
		}
		CHECK(kid_start(&own, "mem-own-user", NULL, false, importer_main));
		CHECK_ERR(import_direct(&own, &e, &own_direct), DOCA_SUCCESS);
		CHECK(own_direct); /* the window is there, for our own user */
		kid_end(&own);
		CHECK(log_count(&exp, "refused") == 0);
		kid_end(&exp);
	}
}

/*
 * Caps per process alone let a user with many processes fill a service: here the allowed
 * other user's processes each hold all the unproven connections one process may, more of them
 * than the service takes in all. One user's unproven connections stop at half of what the
 * service takes, so our own importer still gets in.
 */
static void test_mem_user_flood(void)
{
	enum { MAX_KIDS = 40 };
	const char *conf = write_config("allow-uid-flood.conf", "allow_uids = 65534");
	struct rlimit rl;
	unsigned total = 1024;
	const int per = pending_cap(32, 1024);
	struct kid exp, imp, flood[MAX_KIDS];
	struct sockaddr_un addr;
	struct exp_info e;
	socklen_t len;
	int kids = 0, held = 0, want;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < total)
		total = (unsigned)(rl.rlim_cur / 2);
	want = (int)total / per + 1; /* enough processes to fill the service, capped per process */
	if (want > MAX_KIDS) {
		printf("(skipped: %u connections would need %d processes)\n", total, want);
		return;
	}
	setenv("SOFTDOCA_MEM_HELLO_MS", "60000", 1); /* the flood stays for the test's length */
	CHECK(exporter_start(&exp, "mem-exporter-user-flood", conf, &e));
	unsetenv("SOFTDOCA_MEM_HELLO_MS");
	mem_addr(e.pid, &addr, &len);
	for (; kids < want; kids++) {
		int got;

		CHECK(kid_start(&flood[kids], "mem-user-flooder", NULL, true, flooder_main));
		got = flood_start(&flood[kids], (struct sockaddr *)&addr, len, SOCK_SEQPACKET, per);
		if (got < 0) { /* the child could not switch uid: skipped */
			kid_end(&flood[kids]);
			break;
		}
		CHECK(got == per);
	}
	if (kids == want) {
		CHECK(kid_start(&imp, "mem-own-importer", NULL, false, importer_main));
		CHECK_ERR(import_once(&imp, &e), DOCA_SUCCESS);
		kid_end(&imp);
		for (int i = 0; i < kids; i++)
			held += per - flood_refused(&flood[i]);
		CHECK(held <= (int)total / 2); /* the rest were refused */
		CHECK(log_count(&exp, "the processes of uid 65534 hold half") >= 1);
	}
	/* the newest first: each holds copies of the older ones' pipes, which keep them waiting */
	for (int i = (kids < want ? kids : want) - 1; i >= 0; i--)
		kid_end(&flood[i]);
	kid_end(&exp);
}

/* Imports the export as often as told, holding every import until the parent is done; reports
 * how many got in and how many the service refused as full. */
static void hoarder_main(int in, int out)
{
	static struct softhw_mem_remote *held[1024];
	struct {
		struct exp_info e;
		int n;
	} req;
	int got = 0, full = 0;
	char c;

	setenv("SOFTDOCA_FABRIC_CMA", "0", 1);
	if (!get(in, &req, sizeof(req)) || req.n > 1024)
		_exit(4);
	for (int i = 0; i < req.n; i++) {
		struct softhw_mem_peer peer = {.instance = instance, .pid = req.e.pid, .id = req.e.id, .token = req.e.token,
					       .addr = req.e.addr, .len = EXP_LEN, .rights = SOFTHW_MEM_READ};
		const char *why = "";
		doca_error_t err = softhw_mem_connect(&peer, &held[got], &why);

		if (err == DOCA_SUCCESS)
			got++;
		else if (err == DOCA_ERROR_FULL)
			full++;
		else
			break;
	}
	if (!put(out, &got, sizeof(got)) || !put(out, &full, sizeof(full)))
		_exit(5);
	while (read(in, &c, 1) == 1)
		;
	for (int i = 0; i < got; i++)
		softhw_mem_disconnect(held[i]);
}

/*
 * Proven connections have no cap per process: an allowed other user with a valid descriptor
 * imports again and again. Another user holds at most half of what the service takes, so our
 * own importer still gets in.
 */
static void test_mem_user_hoard(void)
{
	const char *conf = write_config("allow-uid-hoard.conf", "allow_uids = 65534");
	const char *trusts_root = write_config("trusts-root.conf", "allow_uids = 0");
	unsigned total = 1024;
	struct {
		struct exp_info e;
		int n;
	} req;
	struct kid exp, hoard, own;
	struct rlimit rl;
	int got = -1, full = -1;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < total)
		total = (unsigned)(rl.rlim_cur / 2);
	CHECK(exporter_start(&exp, "mem-exporter-hoard", conf, &req.e));
	CHECK(kid_start(&hoard, "mem-hoarder", trusts_root, true, hoarder_main));
	req.n = (int)total / 2 + 8;
	if (put(hoard.to, &req, sizeof(req)) && get(hoard.from, &got, sizeof(got)) && get(hoard.from, &full, sizeof(full))) {
		printf("  another user: %d imports held, %d refused as full (the service takes %u)\n", got, full, total);
		CHECK(got == (int)total / 2 && full == 8);
		CHECK(log_count(&exp, "the processes of uid 65534 hold") >= 1);
		CHECK(kid_start(&own, "mem-own-importer", NULL, false, importer_main));
		CHECK_ERR(import_once(&own, &req.e), DOCA_SUCCESS);
		kid_end(&own);
	}
	kid_end(&hoard); /* (no second uid here: it said nothing, and the test is skipped) */
	kid_end(&exp);
}

/* Binds a name (kind/<its pid>) as another user and listens: an impostor. */
static void impostor_main(int in, int out)
{
	struct {
		char kind[8];
		char instance[SOFTHW_MAX_STR];
		int type;
	} req;
	struct softhw_card card = {0};
	struct sockaddr_un addr;
	socklen_t len;
	char name[24], c;
	pid_t me = getpid();
	int s;

	if (!get(in, &req, sizeof(req)))
		_exit(4);
	snprintf(card.instance, sizeof(card.instance), "%s", req.instance);
	snprintf(name, sizeof(name), "%d", (int)me);
	CHECK_OK(softhw_fabric_addr(&card, req.kind, name, &addr, &len));
	s = socket(AF_UNIX, req.type | SOCK_CLOEXEC, 0);
	CHECK(s >= 0 && bind(s, (struct sockaddr *)&addr, len) == 0 && listen(s, 8) == 0);
	if (!put(out, &me, sizeof(me)) || read(in, &c, 1) < 0) /* listen until the parent is done */
		_exit(5);
	close(s);
}

static pid_t impostor_start(struct kid *k, const char *kind, const char *inst, int type)
{
	struct {
		char kind[8];
		char instance[SOFTHW_MAX_STR];
		int type;
	} req = {.type = type};
	pid_t pid = -1;

	snprintf(req.kind, sizeof(req.kind), "%s", kind);
	snprintf(req.instance, sizeof(req.instance), "%s", inst);
	if (!kid_start(k, "impostor", NULL, true, impostor_main) || !put(k->to, &req, sizeof(req)) ||
	    !get(k->from, &pid, sizeof(pid)))
		return -1;
	return pid;
}

/* An importer refuses an exporter's name held by another user's process. */
static void test_mem_impostor(void)
{
	struct kid imp, fake;
	pid_t pid = impostor_start(&fake, "mem", instance, SOCK_SEQPACKET);
	struct exp_info e = {.pid = pid, .id = 1, .token = 1};
	char line[128];

	if (pid > 0) {
		CHECK(kid_start(&imp, "mem-victim", NULL, false, importer_main));
		CHECK_ERR(import_once(&imp, &e), DOCA_ERROR_NOT_PERMITTED);
		kid_end(&imp);
		snprintf(line, sizeof(line), "is served by process %d of uid %d, not of this user", (int)pid, OTHER_ID);
		CHECK(log_count(&imp, line) == 1);
	}
	kid_end(&fake);
}

/* One process's unproven connections are capped; a legitimate importer still gets in. */
static void test_mem_flood(void)
{
	const int n = 100, cap = pending_cap(32, 1024);
	struct kid exp, imp, flood;
	struct sockaddr_un addr;
	struct exp_info e;
	socklen_t len;
	char line[96];

	CHECK(exporter_start(&exp, "mem-exporter", NULL, &e));
	CHECK(kid_start(&flood, "mem-flooder", NULL, false, flooder_main));
	CHECK(kid_start(&imp, "mem-importer", NULL, false, importer_main));
	mem_addr(e.pid, &addr, &len);
	CHECK(flood_start(&flood, (struct sockaddr *)&addr, len, SOCK_SEQPACKET, n) == n);
	/* Accepted after every flood connection: when it is served, they were all admitted or refused. */
	CHECK_ERR(import_once(&imp, &e), DOCA_SUCCESS);
	CHECK(flood_refused(&flood) == n - cap);
	CHECK_ERR(import_once(&imp, &e), DOCA_SUCCESS);
	snprintf(line, sizeof(line), "refused a connection of process %d", (int)flood.pid);
	CHECK(log_count(&exp, line) >= 1 && log_count(&exp, line) <= SOFTHW_RATELIMIT_BURST);
	CHECK(log_count(&exp, "refused") <= SOFTHW_RATELIMIT_BURST);
	kid_end(&imp);
	kid_end(&flood);
	kid_end(&exp);
}

/* Out of descriptors under a flood: the service thread backs off instead of spinning, and recovers. */
static void test_mem_emfile(void)
{
	struct kid exp, imp, flood;
	struct sockaddr_un addr;
	struct exp_info e;
	socklen_t len;
	long t0, used;
	int lines;

	CHECK(exporter_start(&exp, "mem-exporter-emfile", NULL, &e));
	CHECK(kid_start(&flood, "mem-flooder", NULL, false, flooder_main));
	CHECK(kid_start(&imp, "mem-importer", NULL, false, importer_main));
	CHECK(exporter_cmd(&exp, 'f'));
	mem_addr(e.pid, &addr, &len);
	CHECK(flood_start(&flood, (struct sockaddr *)&addr, len, SOCK_SEQPACKET, 8) == 8);
	t0 = proc_cpu_ticks(exp.pid);
	(void)poll(NULL, 0, 1500); /* the measurement window, not a synchronisation */
	used = proc_cpu_ticks(exp.pid) - t0;
	lines = log_count(&exp, "cannot accept connections");
	fprintf(stderr, "  exporter out of descriptors: %ld ticks of CPU in 1.5 s, %d log lines\n", used, lines);
	CHECK(used <= sysconf(_SC_CLK_TCK) / 10); /* spinning would take the whole 1.5 s */
	CHECK(lines >= 1 && lines <= SOFTHW_RATELIMIT_BURST);
	CHECK(exporter_cmd(&exp, 'F'));
	CHECK_ERR(import_once(&imp, &e), DOCA_SUCCESS); /* after the backoff (at most 1 s) */
	kid_end(&imp);
	kid_end(&flood);
	kid_end(&exp);
}

/* ---- the soft RDMA NIC ---- */

struct rdesc {
	uint32_t len;
	uint8_t bytes[RNIC_DESC_LEN];
};

static const struct softhw_rnic_ops *ops = &softhw_rnic_ops;

struct node {
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct softhw_rnic_ep *ep;
	int efd;
};

static void notify(void *arg)
{
	uint64_t one = 1;

	if (write(*(int *)arg, &one, sizeof(one)) < 0) {
	}
}

static bool node_open(struct node *n)
{
	struct softhw_rnic_ep_attr attr = {0};
	uint32_t nb = 0;

	memset(n, 0, sizeof(*n));
	n->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (doca_devinfo_create_list(&n->list, &nb) != DOCA_SUCCESS || nb == 0 ||
	    doca_dev_open(n->list[0], &n->dev) != DOCA_SUCCESS)
		return false;
	attr.fn = n->dev->devinfo->fn;
	attr.access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	attr.max_qps = 4;
	attr.max_recv_sge = 1;
	attr.max_send_sge = 1;
	attr.max_msg_size = 1u << 20;
	attr.cm_timeout_ms = 2000;
	attr.notify = notify;
	attr.notify_arg = &n->efd;
	return ops->ep_create(&attr, &n->ep) == DOCA_SUCCESS;
}

static void node_close(struct node *n)
{
	ops->ep_destroy(n->ep);
	doca_dev_close(n->dev);
	doca_devinfo_destroy_list(n->list);
	close(n->efd);
}

/* A CQE within WAIT_MS, sleeping on the notify eventfd. */
static bool wait_cqe(struct node *n, struct softhw_rnic_cqe *c)
{
	for (int rounds = 0; rounds < 100; rounds++) {
		struct pollfd p = {.fd = n->efd, .events = POLLIN};
		uint64_t v;

		if (ops->ep_poll(n->ep, c, 1) == 1)
			return true;
		if (ops->ep_arm(n->ep))
			continue;
		if (poll(&p, 1, WAIT_MS) <= 0)
			return ops->ep_poll(n->ep, c, 1) == 1;
		if (read(n->efd, &v, sizeof(v)) < 0) {
		}
	}
	return false;
}

/* The target: an ep with one qp waiting for a dialer; its descriptor goes to the parent. */
static void target_main(int in, int out)
{
	struct softhw_rnic_qp *qp;
	struct rdesc d = {0};
	struct node n;
	const void *blob;
	size_t len;
	char c;

	if (!node_open(&n) || ops->qp_create(n.ep, NULL, &qp) != DOCA_SUCCESS ||
	    ops->qp_export(qp, &blob, &len) != DOCA_SUCCESS || len != RNIC_DESC_LEN)
		_exit(4);
	memcpy(d.bytes, blob, len);
	d.len = (uint32_t)len;
	if (!put(out, &d, sizeof(d)) || read(in, &c, 1) < 0)
		_exit(5);
	ops->qp_destroy(qp);
	node_close(&n);
}

static bool target_start(struct kid *k, const char *name, const char *config, struct rnic_peer *peer)
{
	struct rdesc d;
	const char *why = "";

	return kid_start(k, name, config, false, target_main) && get(k->from, &d, sizeof(d)) &&
	       rnic_desc_decode(d.bytes, d.len, peer, &why) == DOCA_SUCCESS;
}

static void rnic_unix_addr(const struct rnic_peer *p, struct sockaddr_un *addr, socklen_t *len)
{
	struct softhw_card card = {0};
	char name[24];

	snprintf(card.instance, sizeof(card.instance), "%s", p->instance);
	snprintf(name, sizeof(name), "%d", (int)p->pid);
	CHECK_OK(softhw_fabric_addr(&card, "rnic", name, addr, len));
}

enum { HELLO_NOTHING = -1000 }; /* the connection closed without an answer */

/*
 * Says hello on a fresh connection to addr naming the peer's qp with `token` (flags:
 * RNIC_HF_MSOCK for a message socket) and returns the answer's status, or HELLO_NOTHING.
 */
static int raw_hello(const struct sockaddr *addr, socklen_t len, const struct rnic_peer *p, uint64_t token,
		     uint16_t flags)
{
	struct rnic_hdr h = {.type = F_HELLO, .flags = flags, .plen = sizeof(struct rnic_hello)};
	struct rnic_hello hello = {.magic = RNIC_HELLO_MAGIC, .version = RNIC_VERSION, .want_id = p->qp_id,
				   .want_token = token};
	struct {
		struct rnic_hdr h;
		struct rnic_hello hello;
	} ack;
	int s = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0), status = HELLO_NOTHING;

	if (s < 0 || connect(s, addr, len) != 0) {
		if (s >= 0)
			close(s);
		return -1;
	}
	/* A refusal may come before our hello is out (the write then fails): read the answer anyway. */
	if (put(s, &h, sizeof(h)) && put(s, &hello, sizeof(hello))) {
	}
	if (read_full_ms(s, &ack, sizeof(ack), WAIT_MS) && ack.h.type == F_HELLO_ACK)
		status = ack.h.status;
	close(s);
	return status;
}

/* The other user connects to the NIC's unix listener with the right token: refused, logged once. */
static void raw_rnic_main(int in, int out)
{
	struct rnic_peer p;
	struct sockaddr_un addr;
	socklen_t len;
	int status[2];

	if (!get(in, &p, sizeof(p)))
		_exit(4);
	rnic_unix_addr(&p, &addr, &len);
	for (int i = 0; i < 2; i++)
		status[i] = raw_hello((struct sockaddr *)&addr, len, &p, p.qp_token, 0);
	if (!put(out, status, sizeof(status)))
		_exit(5);
}

static void test_rnic_other_uid(bool allowed)
{
	const char *conf = allowed ? write_config("rnic-allow.conf", "allow_uids = 65534") : NULL;
	struct kid target, raw;
	struct rnic_peer p;
	int status[2] = {0, 0};
	char line[96];

	CHECK(target_start(&target, "rnic-target", conf, &p));
	CHECK(kid_start(&raw, "rnic-intruder", NULL, true, raw_rnic_main));
	CHECK(put(raw.to, &p, sizeof(p)));
	if (get(raw.from, status, sizeof(status))) {
		fprintf(stderr, "  hello statuses: %d %d\n", status[0], status[1]);
		if (allowed) {
			CHECK(status[0] == DOCA_SUCCESS); /* let in: the qp is its (the second finds it taken) */
		} else {
			CHECK(status[0] == DOCA_ERROR_NOT_PERMITTED && status[1] == DOCA_ERROR_NOT_PERMITTED);
			snprintf(line, sizeof(line), "refused process %d of uid %d", (int)raw.pid, OTHER_ID);
			CHECK(log_count(&target, line) == 1);
		}
	}
	kid_end(&raw);
	kid_end(&target);
	if (!allowed && test_failures)
		log_show(&target);
}

static void test_rnic_refused(void)
{
	test_rnic_other_uid(false);
}

static void test_rnic_allowed(void)
{
	test_rnic_other_uid(true);
}

/* A dialer whose peer's name is held by another user: the qp fails with NOT_PERMITTED. */
static void dialer_main(int in, int out)
{
	struct softhw_rnic_qp *qp;
	struct softhw_rnic_cqe cqe = {0};
	struct rnic_peer self, fake;
	struct node n;
	const void *blob;
	const char *why = "";
	uint8_t desc[RNIC_DESC_LEN];
	size_t len;
	pid_t pid;

	if (!node_open(&n) || ops->qp_create(n.ep, NULL, &qp) != DOCA_SUCCESS ||
	    ops->qp_export(qp, &blob, &len) != DOCA_SUCCESS || rnic_desc_decode(blob, len, &self, &why) != DOCA_SUCCESS)
		_exit(4);
	if (!put(out, self.instance, sizeof(self.instance)) || !get(in, &pid, sizeof(pid)))
		_exit(5);
	/* The impostor's "descriptor": this host, its pid; DC, so that we dial whatever the pids. */
	fake = self;
	fake.pid = pid;
	fake.qp_id = 1;
	fake.qp_token = 1;
	fake.dc = true;
	rnic_desc_encode(&fake, desc);
	CHECK_OK(ops->qp_connect(qp, desc, sizeof(desc)));
	CHECK(wait_cqe(&n, &cqe));
	CHECK(cqe.kind == SOFTHW_RNIC_CQE_FAILED && cqe.status == DOCA_ERROR_NOT_PERMITTED);
	ops->qp_destroy(qp);
	node_close(&n);
	if (!put(out, "k", 1))
		_exit(6);
}

static void test_rnic_impostor(void)
{
	char inst[SOFTHW_MAX_STR], line[128], c;
	struct kid dialer, fake;
	pid_t pid = -1;

	CHECK(kid_start(&dialer, "rnic-dialer", NULL, false, dialer_main));
	CHECK(get(dialer.from, inst, sizeof(inst)));
	pid = impostor_start(&fake, "rnic", inst, SOCK_STREAM);
	if (pid > 0) {
		CHECK(put(dialer.to, &pid, sizeof(pid)) && get(dialer.from, &c, 1));
		snprintf(line, sizeof(line), "The RDMA point of process %d is served by process %d of uid %d", (int)pid,
			 (int)pid, OTHER_ID);
		CHECK(log_count(&dialer, line) == 1);
	}
	kid_end(&fake);
	kid_end(&dialer);
}

/* Over TCP a hello with a wrong token gets nothing, is logged (rate-limited); the right token works. */
static void test_rnic_forged_tcp(void)
{
	struct sockaddr_in sin = {.sin_family = AF_INET};
	struct kid target;
	struct rnic_peer p;
	int lines;

	CHECK(target_start(&target, "rnic-target-tcp", NULL, &p));
	CHECK(p.family == AF_INET && p.tcp_port != 0);
	memcpy(&sin.sin_addr, p.tcp_ip, 4);
	sin.sin_port = htons(p.tcp_port);
	for (int i = 0; i < 20; i++) {
		int st = raw_hello((struct sockaddr *)&sin, sizeof(sin), &p, p.qp_token ^ (1ull << (i % 64)), 0);

		CHECK(st == DOCA_ERROR_NOT_PERMITTED || st == HELLO_NOTHING);
	}
	/* a message socket for the qp, with a wrong token: closed without a byte */
	CHECK(raw_hello((struct sockaddr *)&sin, sizeof(sin), &p, p.qp_token + 1, RNIC_HF_MSOCK) == HELLO_NOTHING);
	/* the forged ones took nothing: the holder of the descriptor is still let in */
	CHECK(raw_hello((struct sockaddr *)&sin, sizeof(sin), &p, p.qp_token, 0) == DOCA_SUCCESS);
	kid_end(&target);
	lines = log_count(&target, "with a wrong token (it does not hold");
	CHECK(lines >= 1 && lines <= SOFTHW_RATELIMIT_BURST); /* 20 forged hellos within the window */
	CHECK(log_count(&target, "message socket to queue pair") == 1);
	if (test_failures)
		log_show(&target);
}

/* Pending (no hello yet) sockets of one process are capped at the NIC's unix listener too. */
static void test_rnic_pending_flood(void)
{
	const int n = 100, cap = pending_cap(64, 512);
	struct sockaddr_un addr;
	struct kid target, flood;
	struct rnic_peer p;
	socklen_t len;

	CHECK(target_start(&target, "rnic-target", NULL, &p));
	CHECK(kid_start(&flood, "rnic-flooder", NULL, false, flooder_main));
	rnic_unix_addr(&p, &addr, &len);
	CHECK(flood_start(&flood, (struct sockaddr *)&addr, len, SOCK_STREAM, n) == n);
	CHECK(raw_hello((struct sockaddr *)&addr, len, &p, p.qp_token, 0) == DOCA_SUCCESS);
	CHECK(flood_refused(&flood) == n - cap);
	kid_end(&flood);
	kid_end(&target);
	CHECK(log_count(&target, "refused a connection") <= SOFTHW_RATELIMIT_BURST);
}

int main(int argc, char **argv)
{
	bool uid = argc == 2 && strcmp(argv[1], "uid") == 0;

	if (argc != 2 || (!uid && strcmp(argv[1], "flood") != 0)) {
		fprintf(stderr, "usage: %s uid|flood\n", argv[0]);
		return 2;
	}
	if (uid && geteuid() != 0) {
		printf("SKIP: the second-uid tests need root (children switch to uid %d); run as root\n", OTHER_ID);
		TEST_SKIP(); /* (EXIT_NO_UID) */
	}
	/* Our own instance name: parallel test runs never meet. */
	snprintf(instance, sizeof(instance), "trust-test@%d", (int)getpid());
	signal(SIGPIPE, SIG_IGN);
	alarm(240);
	scratch_make("trust");
	if (uid) {
		TEST_RUN(test_mem_other_uid_refused);
		TEST_RUN(test_mem_allowed);
		TEST_RUN(test_mem_user_flood);
		TEST_RUN(test_mem_user_hoard);
		TEST_RUN(test_mem_impostor);
		TEST_RUN(test_rnic_refused);
		TEST_RUN(test_rnic_allowed);
		TEST_RUN(test_rnic_impostor);
	} else {
		TEST_RUN(test_mem_flood);
		TEST_RUN(test_mem_emfile);
		TEST_RUN(test_rnic_forged_tcp);
		TEST_RUN(test_rnic_pending_flood);
	}
	scratch_remove();
	if (uid_skipped && test_failures == 0) {
		printf("SKIP: a child could not switch to uid %d (no CAP_SETUID here)\n", OTHER_ID);
		TEST_SKIP(); /* (EXIT_NO_UID) */
	}
	TEST_EXIT();
}
