/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw engine (lib/softhw/engine): a context's work queue executes in order what is ready,
 * copies gather and scatter, library-defined work waits for its condition, and a flush keeps
 * the outcome of work that was already done; work parked at a device costs no walk, and its
 * completion takes its place in submission order. Links softhw alone.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "softhw/softhw.h"
#include "support.h"
#include "test.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

static void test_copy_in_order(void)
{
	uint8_t src[3][64], dst[3][64];
	struct softhw_sge s[3], d[3];
	struct softhw_work w[3];
	struct softhw_queue q;

	softhw_queue_init(&q);
	for (int i = 0; i < 3; i++) {
		memset(src[i], 'a' + i, sizeof(src[i]));
		memset(dst[i], 0, sizeof(dst[i]));
		s[i] = (struct softhw_sge){src[i], sizeof(src[i]), NULL};
		d[i] = (struct softhw_sge){dst[i], sizeof(dst[i]), NULL};
		w[i] = (struct softhw_work){.op = SOFTHW_OP_COPY, .copy = {&s[i], 1, &d[i], 1}};
		softhw_queue_post(&q, &w[i]);
	}
	CHECK(q.depth == 3 && softhw_queue_has_ready(&q));
	for (int i = 0; i < 3; i++) {
		struct softhw_work *done = softhw_queue_execute(&q);

		CHECK(done == &w[i]);
		CHECK(done != NULL && done->status == DOCA_SUCCESS && done->result_len == 64);
		CHECK(memcmp(dst[i], src[i], 64) == 0);
	}
	CHECK(softhw_queue_empty(&q) && q.depth == 0 && softhw_queue_execute(&q) == NULL);
}

/* Three source pieces into two destination pieces, in order; a destination too small fails. */
static void test_gather_scatter(void)
{
	uint8_t a[10], b[1], c[21], x[16], y[16];
	struct softhw_sge src[3] = {{a, sizeof(a), NULL}, {b, sizeof(b), NULL}, {c, sizeof(c), NULL}};
	struct softhw_sge dst[2] = {{x, sizeof(x), NULL}, {y, sizeof(y), NULL}};
	uint8_t want[32], got[32];
	struct softhw_work w = {.op = SOFTHW_OP_COPY, .copy = {src, 3, dst, 2}};
	struct softhw_queue q;

	for (int i = 0; i < 32; i++)
		want[i] = (uint8_t)(i * 7 + 1);
	memcpy(a, want, 10);
	memcpy(b, want + 10, 1);
	memcpy(c, want + 11, 21);
	softhw_queue_init(&q);
	softhw_queue_post(&q, &w);
	CHECK(softhw_queue_execute(&q) == &w);
	CHECK_OK(w.status);
	CHECK(w.result_len == 32);
	memcpy(got, x, 16);
	memcpy(got + 16, y, 16);
	CHECK(memcmp(got, want, 32) == 0);

	w = (struct softhw_work){.op = SOFTHW_OP_COPY, .copy = {src, 3, dst, 1}};
	softhw_queue_post(&q, &w);
	CHECK(softhw_queue_execute(&q) == &w);
	CHECK_ERR(w.status, DOCA_ERROR_TOO_BIG);
}

struct call {
	struct softhw_work work; /* first: the engine hands it back */
	bool ready;
	int runs;
	doca_error_t outcome;
};

static bool call_ready(struct softhw_work *w)
{
	return ((struct call *)w)->ready;
}

static doca_error_t call_run(struct softhw_work *w)
{
	struct call *c = (struct call *)w;

	c->runs++;
	return c->outcome;
}

/* Work that is not ready lets the work behind it go first, and runs once its condition holds. */
static void test_call_waits(void)
{
	struct call c = {.work = {.op = SOFTHW_OP_CALL, .call = {call_ready, call_run}},
			 .outcome = DOCA_ERROR_IO_FAILED};
	struct softhw_work fail = {.op = SOFTHW_OP_FAIL, .status = DOCA_ERROR_NOT_PERMITTED};
	struct softhw_queue q;

	softhw_queue_init(&q);
	softhw_queue_post(&q, &c.work);
	CHECK(!softhw_queue_has_ready(&q) && softhw_queue_execute(&q) == NULL && c.runs == 0);
	softhw_queue_post(&q, &fail);
	CHECK(softhw_queue_has_ready(&q));
	CHECK(softhw_queue_execute(&q) == &fail);
	CHECK_ERR(fail.status, DOCA_ERROR_NOT_PERMITTED); /* a fault keeps its preset status */
	CHECK(softhw_queue_execute(&q) == NULL);
	c.ready = true;
	CHECK(softhw_queue_execute(&q) == &c.work);
	CHECK(c.runs == 1);
	CHECK_ERR(c.work.status, DOCA_ERROR_IO_FAILED);
	CHECK(softhw_queue_empty(&q));
}

/* A flush (stopping context) fails what is queued, except work already done on the wire. */
static void test_flush(void)
{
	struct softhw_work done = {.op = SOFTHW_OP_DONE, .status = DOCA_SUCCESS};
	struct softhw_work copy = {.op = SOFTHW_OP_COPY};
	struct softhw_queue q;

	softhw_queue_init(&q);
	softhw_queue_post(&q, &done);
	softhw_queue_post(&q, &copy);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == &done);
	CHECK_OK(done.status);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == &copy);
	CHECK_ERR(copy.status, DOCA_ERROR_SHUTDOWN);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == NULL && q.depth == 0);
}

/* Work handed to a device waits, parked, until the library says its completion came; a flush
 * takes it out for good (a late completion must not count it out twice). */
static void test_parked(void)
{
	struct softhw_work p[3] = {{.op = SOFTHW_OP_PARKED}, {.op = SOFTHW_OP_PARKED}, {.op = SOFTHW_OP_PARKED}};
	struct softhw_queue q;

	softhw_queue_init(&q);
	for (int i = 0; i < 3; i++)
		softhw_queue_post(&q, &p[i]);
	CHECK(q.depth == 3 && q.parked == 3);
	CHECK(!softhw_queue_has_ready(&q) && softhw_queue_execute(&q) == NULL);
	softhw_queue_done(&q, &p[1], DOCA_ERROR_IO_FAILED); /* the second completes first */
	CHECK(q.parked == 2 && softhw_queue_has_ready(&q));
	CHECK(softhw_queue_execute(&q) == &p[1] && p[1].status == DOCA_ERROR_IO_FAILED);
	CHECK(q.depth == 2 && q.parked == 2 && softhw_queue_execute(&q) == NULL);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == &p[0] && p[0].status == DOCA_ERROR_SHUTDOWN);
	CHECK(p[0].op != SOFTHW_OP_PARKED && q.depth == 1 && q.parked == 1);
	softhw_queue_done(&q, &p[2], DOCA_SUCCESS);
	CHECK(q.parked == 0 && softhw_queue_execute(&q) == &p[2] && p[2].status == DOCA_SUCCESS);
	CHECK(softhw_queue_empty(&q) && q.depth == 0 && q.parked == 0);
}

/*
 * Parked work waits apart, yet the order is still submission order: a parked work whose
 * completion came executes before ready work submitted after it and after ready work submitted
 * before it; a flush takes the oldest whichever list it is in. A receive server's shape: many
 * parked receives, sends done in between.
 */
static void test_parked_order(void)
{
	struct softhw_work r[6], d[3];
	struct softhw_queue q;

	softhw_queue_init(&q);
	for (int i = 0; i < 6; i++)
		r[i] = (struct softhw_work){.op = SOFTHW_OP_PARKED};
	for (int i = 0; i < 3; i++)
		d[i] = (struct softhw_work){.op = SOFTHW_OP_DONE, .status = DOCA_SUCCESS};
	/* submitted: r0 d0 r1 r2 d1 r3 r4 d2 r5 */
	softhw_queue_post(&q, &r[0]);
	softhw_queue_post(&q, &d[0]);
	softhw_queue_post(&q, &r[1]);
	softhw_queue_post(&q, &r[2]);
	softhw_queue_post(&q, &d[1]);
	softhw_queue_post(&q, &r[3]);
	softhw_queue_post(&q, &r[4]);
	softhw_queue_post(&q, &d[2]);
	softhw_queue_post(&q, &r[5]);
	CHECK(q.depth == 9 && q.parked == 6);
	/* completions out of order: r4, then r1 (older), then r5 (the newest); r0 later */
	softhw_queue_done(&q, &r[4], DOCA_SUCCESS);
	softhw_queue_done(&q, &r[1], DOCA_ERROR_IO_FAILED);
	softhw_queue_done(&q, &r[5], DOCA_SUCCESS);
	CHECK(q.parked == 3 && q.depth == 9);
	CHECK(softhw_queue_execute(&q) == &d[0]);
	CHECK(softhw_queue_execute(&q) == &r[1] && r[1].status == DOCA_ERROR_IO_FAILED);
	CHECK(softhw_queue_execute(&q) == &d[1]);
	softhw_queue_done(&q, &r[0], DOCA_SUCCESS); /* older than everything left: first again */
	CHECK(softhw_queue_execute(&q) == &r[0]);
	CHECK(softhw_queue_execute(&q) == &r[4]);
	CHECK(softhw_queue_execute(&q) == &d[2]);
	CHECK(softhw_queue_execute(&q) == &r[5]);
	CHECK(softhw_queue_execute(&q) == NULL && !softhw_queue_has_ready(&q));
	CHECK(q.depth == 2 && q.parked == 2 && !softhw_queue_empty(&q));
	/* r2 and r3 left, both parked; a done one submitted after them, then the flush of a stop */
	struct softhw_work late = {.op = SOFTHW_OP_DONE, .status = DOCA_SUCCESS};

	softhw_queue_post(&q, &late);
	softhw_queue_done(&q, &r[3], DOCA_SUCCESS);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == &r[2] && r[2].status == DOCA_ERROR_SHUTDOWN &&
	      r[2].op == SOFTHW_OP_FAIL);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == &r[3] && r[3].status == DOCA_SUCCESS);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == &late && late.status == DOCA_SUCCESS);
	CHECK(softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == NULL && softhw_queue_empty(&q) && q.parked == 0);
}

/* A thousand receives posted: a completion in the middle leaves the list whole around it. */
static void test_parked_many(void)
{
	static struct softhw_work r[1000];
	struct softhw_queue q;
	unsigned n = 0;

	softhw_queue_init(&q);
	for (int i = 0; i < 1000; i++) {
		r[i] = (struct softhw_work){.op = SOFTHW_OP_PARKED};
		softhw_queue_post(&q, &r[i]);
	}
	for (int i = 999; i >= 0; i -= 2) /* every odd one, newest first */
		softhw_queue_done(&q, &r[i], DOCA_SUCCESS);
	for (struct softhw_work *w; (w = softhw_queue_execute(&q)) != NULL; n++)
		CHECK(w == &r[2 * n + 1]);
	CHECK(n == 500 && q.parked == 500 && q.depth == 500);
	for (n = 0; softhw_queue_flush(&q, DOCA_ERROR_SHUTDOWN) == &r[2 * n]; n++)
		;
	CHECK(n == 500 && softhw_queue_empty(&q) && q.parked == 0);
}

int main(void)
{
	TEST_RUN(test_copy_in_order);
	TEST_RUN(test_gather_scatter);
	TEST_RUN(test_call_waits);
	TEST_RUN(test_flush);
	TEST_RUN(test_parked);
	TEST_RUN(test_parked_order);
	TEST_RUN(test_parked_many);
	TEST_EXIT();
}
