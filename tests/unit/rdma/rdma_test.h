/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the doca_rdma unit tests. */
#ifndef RDMA_TEST_H
#define RDMA_TEST_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "doca_rdma.h"
#include "doca_sync_event.h"
#include "test.h"

static inline struct doca_dev *open_rdma_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_rdma_cap_transport_type_is_supported(list[i], DOCA_RDMA_TRANSPORT_TYPE_RC) == DOCA_SUCCESS)
			CHECK_OK(doca_dev_open(list[i], &dev));
	CHECK(dev != NULL);
	CHECK_OK(doca_devinfo_destroy_list(list));
	return dev;
}

static inline struct doca_mmap *make_mmap(struct doca_dev *dev, void *addr, size_t len, uint32_t perm)
{
	struct doca_mmap *m;

	CHECK_OK(doca_mmap_create(&m));
	CHECK_OK(doca_mmap_set_memrange(m, addr, len));
	CHECK_OK(doca_mmap_set_permissions(m, perm));
	CHECK_OK(doca_mmap_add_dev(m, dev));
	CHECK_OK(doca_mmap_start(m));
	return m;
}

/* A port nobody listens on right now (the kernel picks it: parallel tests never collide). */
static inline uint16_t free_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	CHECK(fd >= 0);
	CHECK(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	CHECK(getsockname(fd, (struct sockaddr *)&sa, &sl) == 0);
	close(fd);
	return ntohs(sa.sin_port);
}

/*
 * Listens on a port that was free a moment ago; another test running in parallel may take it
 * meanwhile (its outgoing connection, its own listener): then another one. Returns the port.
 */
static inline uint16_t listen_on_free_port(struct doca_rdma *rdma)
{
	uint16_t port = free_port();
	doca_error_t err = doca_rdma_start_listen_to_port(rdma, port);

	for (int i = 0; i < 20 && err == DOCA_ERROR_CONNECTION_ABORTED; i++)
		err = doca_rdma_start_listen_to_port(rdma, port = free_port());
	CHECK_OK(err);
	return port;
}

static inline void nap(void)
{
	nanosleep(&(struct timespec){0, 20000}, NULL);
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define SIDE_MAX_ERRS 256

/* One RDMA context with its PE and local memory, and what its callbacks have seen. */
struct side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	struct doca_mmap *mmap;
	char *mem;
	size_t len;
	int ok, err;
	doca_error_t last;	     /* last error status (and DOCA_SUCCESS on success if success_clears_last) */
	bool success_clears_last;
	struct doca_task *last_task; /* the task of the last completion */
	doca_error_t errs[SIDE_MAX_ERRS]; /* status of every error completion, in order */
	int disc_at_err;		  /* disconnection callbacks seen when the first error completed */
	int fail_at_err;		  /* failure callbacks seen then */
	int est, fail, disc, req;
	uint64_t order[SIDE_MAX_ERRS]; /* user data (u64) of each successful completion, in order */
	int n_order;
};

static inline void side_task_ok(struct side *s, struct doca_task *task)
{
	if (s->n_order < SIDE_MAX_ERRS)
		s->order[s->n_order++] = doca_task_get_user_data(task).u64;
	s->ok++;
	if (s->success_clears_last)
		s->last = DOCA_SUCCESS;
	s->last_task = task;
}

static inline void side_task_err(struct side *s, struct doca_task *task)
{
	s->last = doca_task_get_status(task);
	s->last_task = task;
	if (s->err == 0) {
		s->disc_at_err = s->disc;
		s->fail_at_err = s->fail;
	}
	if (s->err < SIDE_MAX_ERRS)
		s->errs[s->err] = s->last;
	s->err++;
}

/* name_ok / name_err: the completion callbacks of task type, counted in the side (ctx user data). */
#define SIDE_CB(name, type) \
	static void name##_ok(struct doca_rdma_task_##type *t, union doca_data tu, union doca_data cu) \
	{ \
		(void)tu; \
		side_task_ok(cu.ptr, doca_rdma_task_##type##_as_task(t)); \
	} \
	static void name##_err(struct doca_rdma_task_##type *t, union doca_data tu, union doca_data cu) \
	{ \
		(void)tu; \
		side_task_err(cu.ptr, doca_rdma_task_##type##_as_task(t)); \
	}

/* Connection callbacks: a server accepts every request; the side counts what happens. */
static inline void c_req(struct doca_rdma_connection *c, union doca_data cu)
{
	struct side *s = cu.ptr;

	s->req++;
	s->conn = c;
	CHECK_OK(doca_rdma_connection_accept(c, NULL, 0));
}
static inline void c_est(struct doca_rdma_connection *c, union doca_data u, union doca_data cu)
{
	struct side *s = cu.ptr;

	(void)u;
	s->conn = c;
	s->est++;
}
static inline void c_fail(struct doca_rdma_connection *c, union doca_data u, union doca_data cu)
{
	(void)c;
	(void)u;
	((struct side *)cu.ptr)->fail++;
}
static inline void c_disc(struct doca_rdma_connection *c, union doca_data u, union doca_data cu)
{
	(void)c;
	(void)u;
	((struct side *)cu.ptr)->disc++;
}

/*
 * A side over dev: len zeroed bytes in an mmap with mmap_perms, a PE and an RDMA context with
 * perms, the connection callbacks above and the side as the ctx user data. Not started: the
 * caller sets its task confs and limits, then doca_ctx_start.
 */
static inline void side_create(struct side *s, struct doca_dev *dev, uint32_t perms, uint32_t mmap_perms, size_t len)
{
	struct doca_ctx *ctx;

	memset(s, 0, sizeof(*s));
	s->len = len;
	s->mem = calloc(1, len);
	CHECK(s->mem != NULL);
	s->mmap = make_mmap(dev, s->mem, len, mmap_perms);
	CHECK_OK(doca_pe_create(&s->pe));
	CHECK_OK(doca_rdma_create(dev, &s->rdma));
	ctx = doca_rdma_as_ctx(s->rdma);
	CHECK_OK(doca_rdma_set_permissions(s->rdma, perms));
	CHECK_OK(doca_rdma_set_connection_state_callbacks(s->rdma, c_req, c_est, c_fail, c_disc));
	CHECK_OK(doca_pe_connect_ctx(s->pe, ctx));
	CHECK_OK(doca_ctx_set_user_data(ctx, (union doca_data){.ptr = s}));
}

/*
 * Out of band across a fork: exports a connection of rdma and swaps descriptors with the other
 * process over two pipes, then connects. One side writes first (the child), the other reads
 * first, so a message the first side sends next never joins its descriptor in one read.
 */
static inline void connect_over_pipes(struct doca_rdma *rdma, struct doca_rdma_connection **conn, int in_fd,
				      int out_fd, bool write_first)
{
	const void *d;
	size_t l;
	char blob[1024];
	ssize_t n = 0;

	CHECK_OK(doca_rdma_export(rdma, &d, &l, conn));
	if (write_first)
		CHECK(write(out_fd, d, l) == (ssize_t)l);
	n = read(in_fd, blob, sizeof(blob));
	CHECK(n > 0);
	if (!write_first)
		CHECK(write(out_fd, d, l) == (ssize_t)l);
	CHECK_OK(doca_rdma_connect(rdma, blob, (size_t)n, *conn));
}

/* Progresses pe until ctx is IDLE; IDLE must come within 5 s. */
static inline void progress_until_idle(struct doca_pe *pe, struct doca_ctx *ctx)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	double end = now_s() + 5;

	CHECK_OK(doca_ctx_get_state(ctx, &st));
	while (st != DOCA_CTX_STATE_IDLE && now_s() < end) {
		if (doca_pe_progress(pe) == 0)
			nap();
		CHECK_OK(doca_ctx_get_state(ctx, &st));
	}
	CHECK(st == DOCA_CTX_STATE_IDLE);
}

/* Stop (flushing whatever is left; a connected context stops asynchronously) and destroy. */
static inline void side_down(struct side *s)
{
	doca_ctx_stop(doca_rdma_as_ctx(s->rdma));
	progress_until_idle(s->pe, doca_rdma_as_ctx(s->rdma));
	CHECK_OK(doca_rdma_destroy(s->rdma));
	CHECK_OK(doca_pe_destroy(s->pe));
	CHECK_OK(doca_mmap_destroy(s->mmap));
	free(s->mem);
}

/* Progresses s's PE until cond holds or `secs` pass. */
#define RUN_UNTIL_S(s, cond, secs) \
	do { \
		double end_ = now_s() + (secs); \
		while (!(cond) && now_s() < end_) \
			if (doca_pe_progress((s)->pe) == 0) \
				nap(); \
		CHECK(cond); \
	} while (0)

static inline struct doca_buf *side_buf(struct doca_buf_inventory *inv, struct doca_mmap *m, char *addr, size_t len,
					size_t data_len)
{
	struct doca_buf *b = NULL;

	CHECK_OK(doca_buf_inventory_buf_get_by_args(inv, m, addr, len, addr, data_len, &b));
	return b;
}

/*
 * A connection of s given its own export's descriptor (a loopback RC queue pair, as hardware
 * allows): a send to itself lands in s's receive, naming the same connection; a write and a
 * read reach s's own memory, and a fetch-add its own word. s is started, with RDMA read, write
 * and atomic rights on its mmap and its context, at least 4 KiB of memory, and counts its
 * completions in ok / err; dev is its device, inv a started inventory of 4 or more bufs.
 */
static inline void side_loopback_check(struct side *s, struct doca_dev *dev, struct doca_buf_inventory *inv)
{
	struct doca_rdma_task_receive *r;
	struct doca_rdma_task_send *snd;
	struct doca_rdma_task_write *w;
	struct doca_rdma_task_read *rd;
	struct doca_rdma_task_atomic_fetch_add *fa;
	struct doca_buf *src, *dst, *remote, *res;
	struct doca_mmap *rm = NULL;
	const void *d;
	size_t l, len = 0;
	uint64_t old = 0;
	int base = s->ok + s->err;

	CHECK_OK(doca_rdma_export(s->rdma, &d, &l, &s->conn));
	CHECK_OK(doca_rdma_connect(s->rdma, d, l, s->conn));
	CHECK_OK(doca_mmap_export_rdma(s->mmap, dev, &d, &l));
	CHECK_OK(doca_mmap_create_from_export(NULL, d, l, dev, &rm));

	strcpy(s->mem, "loop");
	src = side_buf(inv, s->mmap, s->mem, 4, 4);
	dst = side_buf(inv, s->mmap, s->mem + 1024, 64, 0);
	CHECK_OK(doca_rdma_task_receive_allocate_init(s->rdma, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	CHECK_OK(doca_rdma_task_send_allocate_init(s->rdma, s->conn, src, (union doca_data){0}, &snd));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(snd)));
	RUN_UNTIL_S(s, s->ok + s->err == base + 2, 10);
	CHECK(s->err == 0 && doca_rdma_task_receive_get_result_rdma_connection(r) == s->conn);
	CHECK_OK(doca_buf_get_data_len(dst, &len));
	CHECK(len == 4 && memcmp(s->mem + 1024, "loop", 4) == 0);

	remote = side_buf(inv, rm, s->mem + 2048, 64, 0);
	CHECK_OK(doca_rdma_task_write_allocate_init(s->rdma, s->conn, src, remote, (union doca_data){0}, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	RUN_UNTIL_S(s, s->ok + s->err == base + 3, 10);
	CHECK(s->err == 0 && memcmp(s->mem + 2048, "loop", 4) == 0);
	memset(s->mem + 1024, 0, 4);
	CHECK_OK(doca_buf_reset_data_len(dst));
	CHECK_OK(doca_rdma_task_read_allocate_init(s->rdma, s->conn, remote, dst, (union doca_data){0}, &rd));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(rd)));
	RUN_UNTIL_S(s, s->ok + s->err == base + 4, 10);
	CHECK(s->err == 0 && memcmp(s->mem + 1024, "loop", 4) == 0);

	memcpy(s->mem + 3072, &(uint64_t){40}, 8);
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	remote = side_buf(inv, rm, s->mem + 3072, 8, 8);
	res = side_buf(inv, s->mmap, s->mem + 3584, 8, 0);
	CHECK_OK(doca_rdma_task_atomic_fetch_add_allocate_init(s->rdma, s->conn, remote, res, 2, (union doca_data){0}, &fa));
	CHECK_OK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(fa)));
	RUN_UNTIL_S(s, s->ok + s->err == base + 5, 10);
	memcpy(&old, s->mem + 3584, 8);
	CHECK(s->err == 0 && old == 40 && *(uint64_t *)(void *)(s->mem + 3072) == 42);

	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(fa));
	doca_task_free(doca_rdma_task_read_as_task(rd));
	doca_task_free(doca_rdma_task_write_as_task(w));
	doca_task_free(doca_rdma_task_send_as_task(snd));
	doca_task_free(doca_rdma_task_receive_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(res, NULL));
	CHECK_OK(doca_buf_dec_refcount(remote, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_mmap_destroy(rm));
	CHECK(s->fail == 0 && s->disc == 0);
}

#endif /* RDMA_TEST_H */
