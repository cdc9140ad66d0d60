/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sync_event within one process: stand-alone use (get, update, waits, with other
 * threads updating), backing memory, and the context use with every task type through a PE,
 * including a wait task completed by another thread while the PE thread sleeps in epoll.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doca_buf.h"
#include "doca_buf_inventory.h"
#include "doca_ctx.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_pe.h"
#include "doca_sync_event.h"
#include "se_test.h"
#include "test.h"

#define ALL UINT64_MAX
#define BOUND_SEC 5.0 /* no test waits longer than this for anything */

static struct doca_sync_event *started_event(uint64_t *addr)
{
	struct doca_sync_event *ev = NULL;

	CHECK_OK(doca_sync_event_create(&ev));
	if (addr != NULL)
		CHECK_OK(doca_sync_event_set_addr(ev, addr));
	CHECK_OK(doca_sync_event_start(ev));
	return ev;
}

/* ---- bad input on every entry point ---- */

static void test_null_arguments(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_sync_event *ev = NULL;
	union doca_data ud = {.u64 = 0};
	uint64_t v = 0, word = 0;
	const uint8_t *data;
	size_t sz;

	CHECK_ERR(doca_sync_event_create(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_cpu(NULL, dev), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_dpa(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_gpu(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_remote_pci(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_remote_net(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_cpu(NULL, dev), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_dpa(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_gpu(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_remote_pci(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_set_addr(NULL, &word), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_set_doca_buf(NULL, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_start(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_sync_event_as_ctx(NULL) == NULL);
	CHECK_ERR(doca_sync_event_get(NULL, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_update_add(NULL, 1, &v), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_update_set(NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_wait_gt(NULL, 0, ALL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_wait_gt_yield(NULL, 0, ALL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_wait_eq(NULL, 0, ALL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_wait_eq_yield(NULL, 0, ALL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_wait_neq(NULL, 0, ALL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_wait_neq_yield(NULL, 0, ALL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(NULL, dev, &data, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_export_to_remote_net(NULL, &data, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_set_conf(NULL, NULL, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_notify_set_set_conf(NULL, NULL, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_notify_add_set_conf(NULL, NULL, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_wait_eq_set_conf(NULL, NULL, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_wait_neq_set_conf(NULL, NULL, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_alloc_init(NULL, &v, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_notify_set_alloc_init(NULL, 1, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_notify_add_alloc_init(NULL, 1, &v, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_wait_eq_alloc_init(NULL, 1, ALL, ud, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_wait_neq_alloc_init(NULL, 1, ALL, ud, NULL), DOCA_ERROR_INVALID_VALUE);

	/* accessors are NULL-safe */
	CHECK(doca_sync_event_task_get_as_doca_task(NULL) == NULL);
	CHECK(doca_sync_event_task_notify_set_as_doca_task(NULL) == NULL);
	CHECK(doca_sync_event_task_notify_add_as_doca_task(NULL) == NULL);
	CHECK(doca_sync_event_task_wait_eq_as_doca_task(NULL) == NULL);
	CHECK(doca_sync_event_task_wait_neq_as_doca_task(NULL) == NULL);
	doca_sync_event_task_get_set_ret_val_ptr(NULL, &v);
	CHECK(doca_sync_event_task_get_get_ret_val_ptr(NULL) == NULL);
	doca_sync_event_task_notify_set_set_set_val(NULL, 1);
	CHECK(doca_sync_event_task_notify_set_get_set_val(NULL) == 0);
	doca_sync_event_task_notify_add_set_inc_val(NULL, 1);
	CHECK(doca_sync_event_task_notify_add_get_inc_val(NULL) == 0);
	doca_sync_event_task_notify_add_set_fetched_val_ptr(NULL, &v);
	CHECK(doca_sync_event_task_notify_add_get_fetched_val_ptr(NULL) == NULL);
	doca_sync_event_task_wait_eq_set_wait_val(NULL, 1);
	doca_sync_event_task_wait_eq_set_mask(NULL, 1);
	CHECK(doca_sync_event_task_wait_eq_get_wait_val(NULL) == 0 && doca_sync_event_task_wait_eq_get_mask(NULL) == 0);
	doca_sync_event_task_wait_neq_set_wait_val(NULL, 1);
	doca_sync_event_task_wait_neq_set_mask(NULL, 1);
	CHECK(doca_sync_event_task_wait_neq_get_wait_val(NULL) == 0 &&
	      doca_sync_event_task_wait_neq_get_mask(NULL) == 0);

	/* NULL second arguments on a real event */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_ERR(doca_sync_event_add_publisher_location_cpu(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_cpu(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_publisher_location_dpa(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_gpu(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_set_addr(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_set_doca_buf(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_get(ev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_update_add(ev, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

/* ---- stand-alone ---- */

static void test_standalone_state(void)
{
	struct fake_dev f;
	struct doca_dev *dev = fake_dev_init(&f, "bf3-0", "unit", true);
	struct doca_sync_event *ev;
	uint64_t v = 99, word = 0;

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	/* use before start */
	CHECK_ERR(doca_sync_event_get(ev, &v), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_update_set(ev, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_update_add(ev, 1, &v), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_wait_gt(ev, 0, ALL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_wait_eq_yield(ev, 0, ALL), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_stop(ev), DOCA_ERROR_BAD_STATE);

	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_start(ev), DOCA_ERROR_BAD_STATE);
	/* configuration after start */
	CHECK_ERR(doca_sync_event_add_publisher_location_remote_pci(ev), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_add_subscriber_location_cpu(ev, dev), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_set_addr(ev, &word), DOCA_ERROR_BAD_STATE);
	/* a started stand-alone event is no context */
	CHECK(doca_sync_event_as_ctx(ev) == NULL);

	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK(v == 0);
	CHECK_OK(doca_sync_event_update_set(ev, 7));
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK(v == 7);
	CHECK_OK(doca_sync_event_update_add(ev, 5, &v));
	CHECK(v == 7);
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK(v == 12);
	CHECK_OK(doca_sync_event_update_add(ev, UINT64_MAX, &v)); /* wraps, as an atomic add does */
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK(v == 11);

	/* conditions that already hold return at once, masks applied first */
	CHECK_OK(doca_sync_event_update_set(ev, 0x1234));
	CHECK_OK(doca_sync_event_wait_gt(ev, 0x1233, ALL));
	CHECK_OK(doca_sync_event_wait_gt_yield(ev, 0x33, 0xff));
	CHECK_OK(doca_sync_event_wait_eq(ev, 0x34, 0xff));
	CHECK_OK(doca_sync_event_wait_eq_yield(ev, 0x1200, 0xff00));
	CHECK_OK(doca_sync_event_wait_neq(ev, 0x1234, 0xff)); /* 0x34 != 0x1234 */
	CHECK_OK(doca_sync_event_wait_neq_yield(ev, 0, ALL));
	CHECK_OK(doca_sync_event_wait_eq(ev, 0, 0)); /* mask 0: everything compares as 0 */

	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_ERR(doca_sync_event_get(ev, &v), DOCA_ERROR_BAD_STATE);
	/* stopped: configurable again, and may become a context */
	CHECK_OK(doca_sync_event_set_addr(ev, &word));
	CHECK(doca_sync_event_as_ctx(ev) != NULL);
	CHECK(doca_sync_event_as_ctx(ev) == doca_sync_event_as_ctx(ev));
	CHECK_ERR(doca_sync_event_start(ev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_stop(ev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_sync_event_destroy(ev));

	/* a started event may be destroyed: it stops with it */
	ev = started_event(NULL);
	CHECK_OK(doca_sync_event_destroy(ev));
}

struct pingpong {
	struct doca_sync_event *ev;
	int rounds;
	int failures; /* written by the thread, read after join */
};

/* Odd values are the main thread's turn to answer, even ones the helper's. */
static void *pong_thread(void *arg)
{
	struct pingpong *p = arg;

	for (int i = 0; i < p->rounds; i++) {
		uint64_t v;

		if (doca_sync_event_wait_eq_yield(p->ev, 2 * (uint64_t)i + 1, ALL) != DOCA_SUCCESS ||
		    doca_sync_event_get(p->ev, &v) != DOCA_SUCCESS || v != 2 * (uint64_t)i + 1 ||
		    doca_sync_event_update_set(p->ev, 2 * (uint64_t)i + 2) != DOCA_SUCCESS)
			p->failures++;
	}
	return NULL;
}

static void test_standalone_pingpong(void)
{
	struct pingpong p = {.ev = started_event(NULL), .rounds = 2000};
	pthread_t th;
	uint64_t fetched;
	int bad = 0;

	CHECK(pthread_create(&th, NULL, pong_thread, &p) == 0);
	for (int i = 0; i < p.rounds; i++) {
		if (doca_sync_event_update_add(p.ev, 1, &fetched) != DOCA_SUCCESS || fetched != 2 * (uint64_t)i)
			bad++;
		if (doca_sync_event_wait_gt(p.ev, 2 * (uint64_t)i + 1, ALL) != DOCA_SUCCESS)
			bad++;
	}
	pthread_join(th, NULL);
	CHECK(bad == 0);
	CHECK(p.failures == 0);
	CHECK_OK(doca_sync_event_wait_eq(p.ev, 2 * (uint64_t)p.rounds, ALL));
	CHECK_OK(doca_sync_event_destroy(p.ev));
}

/* A waiter that has long gone to sleep must wake promptly when another thread updates. */
struct sleeper {
	struct doca_sync_event *ev;
	int variant;
	int about_to_wait; /* atomic */
	doca_error_t result;
	double woke_at;
};

static void *sleeper_thread(void *arg)
{
	struct sleeper *s = arg;

	__atomic_store_n(&s->about_to_wait, 1, __ATOMIC_RELEASE);
	switch (s->variant) {
	case 0:
		s->result = doca_sync_event_wait_gt(s->ev, 0x10, 0xff);
		break;
	case 1:
		s->result = doca_sync_event_wait_eq_yield(s->ev, 0xab00, 0xff00);
		break;
	case 2:
		s->result = doca_sync_event_wait_neq(s->ev, 0, 0xffffffff);
		break;
	default:
		s->result = doca_sync_event_wait_neq_yield(s->ev, 0x5, 0xf);
		break;
	}
	s->woke_at = now_sec();
	return NULL;
}

static void test_standalone_sleeper_wakes(void)
{
	/* value before / value that satisfies the variant */
	static const uint64_t before[] = {0xffff0010, 0x12ab, 0xffffffff00000000ull, 0x15};
	static const uint64_t after[] = {0x11, 0xab42, 0x100000000ull + 1, 0x16};

	for (int variant = 0; variant < 4; variant++) {
		struct sleeper s = {.variant = variant, .result = DOCA_ERROR_UNKNOWN};
		pthread_t th;
		double t0, updated_at;

		s.ev = started_event(NULL);
		CHECK_OK(doca_sync_event_update_set(s.ev, before[variant]));
		CHECK(pthread_create(&th, NULL, sleeper_thread, &s) == 0);
		t0 = now_sec();
		while (!__atomic_load_n(&s.about_to_wait, __ATOMIC_ACQUIRE) && now_sec() < t0 + BOUND_SEC)
			sched_yield();
		/* Give the waiter time to reach its sleeping phase; the wake-up must not depend on it. */
		while (now_sec() < t0 + 0.05)
			sched_yield();
		updated_at = now_sec();
		CHECK_OK(doca_sync_event_update_set(s.ev, after[variant]));
		pthread_join(th, NULL);
		CHECK_OK(s.result);
		CHECK(s.woke_at - updated_at < 0.5);
		CHECK_OK(doca_sync_event_destroy(s.ev));
	}
}

struct adder {
	struct doca_sync_event *ev;
	int n;
	int failures;
};

static void *adder_thread(void *arg)
{
	struct adder *a = arg;
	uint64_t fetched;

	for (int i = 0; i < a->n; i++)
		if (doca_sync_event_update_add(a->ev, 1, &fetched) != DOCA_SUCCESS)
			a->failures++;
	return NULL;
}

static void test_standalone_atomic_add(void)
{
	struct doca_sync_event *ev = started_event(NULL);
	struct adder a[4];
	pthread_t th[4];
	uint64_t v;

	for (int i = 0; i < 4; i++) {
		a[i] = (struct adder){.ev = ev, .n = 20000};
		CHECK(pthread_create(&th[i], NULL, adder_thread, &a[i]) == 0);
	}
	CHECK_OK(doca_sync_event_wait_eq_yield(ev, 80000, ALL));
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK(a[i].failures == 0);
	}
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK(v == 80000);
	CHECK_OK(doca_sync_event_destroy(ev));
}

/* ---- backing memory ---- */

static void test_backing_addr(void)
{
	uint64_t words[3] = {0, 0, 0};
	struct doca_sync_event *a, *b;
	uint64_t v;

	CHECK_OK(doca_sync_event_create(&a));
	CHECK_ERR(doca_sync_event_set_addr(a, (uint64_t *)((char *)&words[0] + 4)), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_set_addr(a, &words[1]));
	CHECK_OK(doca_sync_event_start(a));
	CHECK_OK(doca_sync_event_update_set(a, 0xfeed));
	CHECK(words[1] == 0xfeed && words[0] == 0 && words[2] == 0);
	/* the user's memory is the value: a direct write is seen */
	__atomic_store_n(&words[1], 77, __ATOMIC_SEQ_CST);
	CHECK_OK(doca_sync_event_get(a, &v));
	CHECK(v == 77);
	CHECK_OK(doca_sync_event_wait_eq(a, 77, ALL));

	/* a second event on the same memory shares the value */
	b = NULL;
	CHECK_OK(doca_sync_event_create(&b));
	CHECK_OK(doca_sync_event_set_addr(b, &words[1]));
	CHECK_OK(doca_sync_event_start(b));
	CHECK_OK(doca_sync_event_update_add(b, 3, &v));
	CHECK(v == 77);
	CHECK_OK(doca_sync_event_get(a, &v));
	CHECK(v == 80);

	/* re-pointed while stopped: the next start uses the new memory */
	CHECK_OK(doca_sync_event_stop(a));
	CHECK_OK(doca_sync_event_set_addr(a, &words[2]));
	CHECK_OK(doca_sync_event_start(a));
	CHECK_OK(doca_sync_event_update_set(a, 5));
	CHECK(words[2] == 5 && words[1] == 80);
	CHECK_OK(doca_sync_event_destroy(a));
	CHECK_OK(doca_sync_event_destroy(b));
}

static void test_backing_doca_buf(void)
{
	static uint64_t mem[4];
	const uint32_t full = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
			      DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	struct doca_mmap *good = NULL, *weak = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_buf *b8 = NULL, *b16 = NULL, *bweak = NULL, *b8b = NULL;
	struct doca_sync_event *ev = NULL;
	uint64_t v;

	CHECK_OK(doca_mmap_create(&good));
	CHECK_OK(doca_mmap_set_permissions(good, full));
	CHECK_OK(doca_mmap_set_memrange(good, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(good));
	CHECK_OK(doca_mmap_create(&weak));
	CHECK_OK(doca_mmap_set_permissions(weak, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK_OK(doca_mmap_set_memrange(weak, mem, sizeof(mem)));
	CHECK_OK(doca_mmap_start(weak));
	CHECK_OK(doca_buf_inventory_create(8, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, good, &mem[1], 8, &b8));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, good, &mem[2], 16, &b16));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, weak, &mem[1], 8, &bweak));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, good, &mem[3], 8, &b8b));

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_ERR(doca_sync_event_set_doca_buf(ev, b16), DOCA_ERROR_NOT_PERMITTED);   /* 16-byte data */
	CHECK_ERR(doca_sync_event_set_doca_buf(ev, bweak), DOCA_ERROR_NOT_PERMITTED); /* no RDMA/atomic */
	CHECK_OK(doca_buf_chain_list(b8b, b16));
	CHECK_ERR(doca_sync_event_set_doca_buf(ev, b8b), DOCA_ERROR_INVALID_VALUE); /* a list */
	CHECK_OK(doca_sync_event_set_doca_buf(ev, b8));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_set_doca_buf(ev, b8), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_update_set(ev, 0xabcdef));
	CHECK(mem[1] == 0xabcdef && mem[0] == 0 && mem[2] == 0);
	CHECK_OK(doca_sync_event_get(ev, &v));
	CHECK(v == 0xabcdef);
	CHECK_OK(doca_sync_event_destroy(ev));

	CHECK_OK(doca_buf_dec_refcount(b8b, NULL)); /* releases the b8b+b16 list */
	CHECK_OK(doca_buf_dec_refcount(b8, NULL));
	CHECK_OK(doca_buf_dec_refcount(bweak, NULL));
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_stop(good));
	CHECK_OK(doca_mmap_destroy(good));
	CHECK_OK(doca_mmap_stop(weak));
	CHECK_OK(doca_mmap_destroy(weak));
}

/* ---- as a context ---- */

static int n_get, n_set, n_add, n_eq, n_neq, n_err;
static doca_error_t last_err_status;
static int free_on_completion = 1;

#define COMPLETION_CB(type, counter) \
	static void type##_ok(struct doca_sync_event_task_##type *task, union doca_data tud, union doca_data cud) \
	{ \
		(void)tud; \
		(void)cud; \
		counter++; \
		if (free_on_completion) \
			doca_task_free(doca_sync_event_task_##type##_as_doca_task(task)); \
	} \
	static void type##_err(struct doca_sync_event_task_##type *task, union doca_data tud, union doca_data cud) \
	{ \
		(void)tud; \
		(void)cud; \
		n_err++; \
		last_err_status = doca_task_get_status(doca_sync_event_task_##type##_as_doca_task(task)); \
		doca_task_free(doca_sync_event_task_##type##_as_doca_task(task)); \
	}

COMPLETION_CB(get, n_get)
COMPLETION_CB(notify_set, n_set)
COMPLETION_CB(notify_add, n_add)
COMPLETION_CB(wait_eq, n_eq)
COMPLETION_CB(wait_neq, n_neq)

static void reset_counters(void)
{
	n_get = n_set = n_add = n_eq = n_neq = n_err = 0;
	last_err_status = DOCA_SUCCESS;
	free_on_completion = 1;
}

/* An event running as a context on its own PE, every task type configured with `num` tasks. */
struct se_ctx {
	struct doca_sync_event *ev;
	struct doca_ctx *ctx;
	struct doca_pe *pe;
};

static void se_ctx_setup(struct se_ctx *s, uint64_t *addr, uint32_t num)
{
	enum doca_ctx_states state;

	reset_counters();
	CHECK_OK(doca_sync_event_create(&s->ev));
	if (addr != NULL)
		CHECK_OK(doca_sync_event_set_addr(s->ev, addr));
	s->ctx = doca_sync_event_as_ctx(s->ev);
	CHECK(s->ctx != NULL);
	CHECK_OK(doca_pe_create(&s->pe));
	CHECK_OK(doca_pe_connect_ctx(s->pe, s->ctx));
	CHECK_OK(doca_sync_event_task_get_set_conf(s->ev, get_ok, get_err, num));
	CHECK_OK(doca_sync_event_task_notify_set_set_conf(s->ev, notify_set_ok, notify_set_err, num));
	CHECK_OK(doca_sync_event_task_notify_add_set_conf(s->ev, notify_add_ok, notify_add_err, num));
	CHECK_OK(doca_sync_event_task_wait_eq_set_conf(s->ev, wait_eq_ok, wait_eq_err, num));
	CHECK_OK(doca_sync_event_task_wait_neq_set_conf(s->ev, wait_neq_ok, wait_neq_err, num));
	CHECK_OK(doca_ctx_start(s->ctx));
	CHECK_OK(doca_ctx_get_state(s->ctx, &state));
	CHECK(state == DOCA_CTX_STATE_RUNNING);
}

static void se_ctx_teardown(struct se_ctx *s)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
	double end = now_sec() + BOUND_SEC;
	doca_error_t err = doca_ctx_stop(s->ctx);

	CHECK(err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS);
	while (doca_ctx_get_state(s->ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE && now_sec() < end)
		(void)doca_pe_progress(s->pe);
	CHECK(state == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_sync_event_destroy(s->ev));
	CHECK_OK(doca_pe_destroy(s->pe));
}

/* Runs progress a bounded number of times; returns how many calls made progress. */
static int drain(struct doca_pe *pe)
{
	int made = 0;

	for (int i = 0; i < 16; i++)
		made += doca_pe_progress(pe);
	return made;
}

static void test_ctx_every_task(void)
{
	union doca_data ud = {.u64 = 0x5e};
	struct doca_sync_event_task_notify_set *tset;
	struct doca_sync_event_task_notify_add *tadd;
	struct doca_sync_event_task_get *tget;
	struct doca_sync_event_task_wait_eq *teq;
	struct doca_sync_event_task_wait_neq *tneq;
	uint64_t got = 0, fetched = 0, other = 0, v;
	struct se_ctx s;

	se_ctx_setup(&s, NULL, 4);
	/* configuration refused once running */
	CHECK_ERR(doca_sync_event_task_get_set_conf(s.ev, get_ok, get_err, 4), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_task_wait_neq_set_conf(s.ev, wait_neq_ok, wait_neq_err, 4), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_add_publisher_location_remote_pci(s.ev), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_sync_event_start(s.ev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_destroy(s.ev), DOCA_ERROR_IN_USE);

	/* notify set: completes only inside progress */
	CHECK_OK(doca_sync_event_task_notify_set_alloc_init(s.ev, 10, ud, &tset));
	CHECK(doca_sync_event_task_notify_set_get_set_val(tset) == 10);
	doca_sync_event_task_notify_set_set_set_val(tset, 20);
	CHECK(doca_sync_event_task_notify_set_get_set_val(tset) == 20);
	CHECK(doca_task_get_ctx(doca_sync_event_task_notify_set_as_doca_task(tset)) == s.ctx);
	CHECK(doca_task_get_user_data(doca_sync_event_task_notify_set_as_doca_task(tset)).u64 == 0x5e);
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(tset)));
	CHECK(n_set == 0);
	CHECK_OK(doca_sync_event_get(s.ev, &v)); /* stand-alone reads work while the ctx runs */
	CHECK(v == 0);
	CHECK(doca_pe_progress(s.pe) == 1);
	CHECK(n_set == 1);
	CHECK_OK(doca_sync_event_get(s.ev, &v));
	CHECK(v == 20);

	/* get */
	CHECK_OK(doca_sync_event_task_get_alloc_init(s.ev, &other, ud, &tget));
	CHECK(doca_sync_event_task_get_get_ret_val_ptr(tget) == &other);
	doca_sync_event_task_get_set_ret_val_ptr(tget, &got);
	CHECK(doca_sync_event_task_get_get_ret_val_ptr(tget) == &got);
	CHECK_OK(doca_task_try_submit(doca_sync_event_task_get_as_doca_task(tget)));
	CHECK(drain(s.pe) == 1);
	CHECK(n_get == 1 && got == 20 && other == 0);

	/* notify add: previous value into fetched */
	CHECK_OK(doca_sync_event_task_notify_add_alloc_init(s.ev, 1, &other, ud, &tadd));
	doca_sync_event_task_notify_add_set_inc_val(tadd, 5);
	doca_sync_event_task_notify_add_set_fetched_val_ptr(tadd, &fetched);
	CHECK(doca_sync_event_task_notify_add_get_inc_val(tadd) == 5);
	CHECK(doca_sync_event_task_notify_add_get_fetched_val_ptr(tadd) == &fetched);
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_add_as_doca_task(tadd)));
	CHECK(drain(s.pe) == 1);
	CHECK(n_add == 1 && fetched == 20);
	CHECK_OK(doca_sync_event_get(s.ev, &v));
	CHECK(v == 25);

	/* wait eq that already holds */
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(s.ev, 1, 0xff, ud, &teq));
	doca_sync_event_task_wait_eq_set_wait_val(teq, 25);
	doca_sync_event_task_wait_eq_set_mask(teq, ALL);
	CHECK(doca_sync_event_task_wait_eq_get_wait_val(teq) == 25 && doca_sync_event_task_wait_eq_get_mask(teq) == ALL);
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(teq)));
	CHECK(drain(s.pe) == 1);
	CHECK(n_eq == 1);

	/* wait neq pending until a notify set from the same PE changes the value */
	CHECK_OK(doca_sync_event_task_wait_neq_alloc_init(s.ev, 0, 0xffff, ud, &tneq));
	doca_sync_event_task_wait_neq_set_wait_val(tneq, 25);
	doca_sync_event_task_wait_neq_set_mask(tneq, 0xff);
	CHECK(doca_sync_event_task_wait_neq_get_wait_val(tneq) == 25 && doca_sync_event_task_wait_neq_get_mask(tneq) == 0xff);
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_neq_as_doca_task(tneq)));
	CHECK(drain(s.pe) == 0);
	CHECK(n_neq == 0);
	CHECK_OK(doca_sync_event_task_notify_set_alloc_init(s.ev, 0x1019, ud, &tset)); /* low byte still 0x19 */
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(tset)));
	CHECK(drain(s.pe) == 1);
	CHECK(n_set == 2 && n_neq == 0);
	CHECK_OK(doca_sync_event_task_notify_set_alloc_init(s.ev, 0x101a, ud, &tset));
	CHECK_OK(doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(tset)));
	CHECK(drain(s.pe) == 2);
	CHECK(n_set == 3 && n_neq == 1 && n_err == 0);
	se_ctx_teardown(&s);
}

static void test_ctx_mode_rules(void)
{
	struct doca_sync_event *ev;
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_get *tget;
	struct doca_pe *pe;
	uint64_t v;

	/* tasks on an event that was never configured for them */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_ERR(doca_sync_event_task_get_alloc_init(ev, &v, ud, &tget), DOCA_ERROR_BAD_STATE);
	/* start without a PE */
	CHECK_ERR(doca_ctx_start(doca_sync_event_as_ctx(ev)), DOCA_ERROR_NOT_CONNECTED);
	CHECK_ERR(doca_sync_event_get(ev, &v), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_destroy(ev));

	/* task configuration refused on a stand-alone started event */
	ev = started_event(NULL);
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, get_ok, get_err, 1), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_sync_event_destroy(ev));

	/* callbacks are mandatory */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, NULL, get_err, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, get_ok, NULL, 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, get_ok, get_err, UINT32_MAX), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_task_get_set_conf(ev, get_ok, get_err, 1));
	CHECK_ERR(doca_sync_event_task_get_alloc_init(ev, NULL, ud, &tget), DOCA_ERROR_INVALID_VALUE);
	/* submit before start */
	CHECK_OK(doca_sync_event_task_get_alloc_init(ev, &v, ud, &tget));
	CHECK_ERR(doca_task_submit(doca_sync_event_task_get_as_doca_task(tget)), DOCA_ERROR_BAD_STATE);
	/* reconfiguring with a task out */
	CHECK_ERR(doca_sync_event_task_get_set_conf(ev, get_ok, get_err, 2), DOCA_ERROR_IN_USE);
	doca_task_free(doca_sync_event_task_get_as_doca_task(tget));
	CHECK_OK(doca_sync_event_task_get_set_conf(ev, get_ok, get_err, 2));
	/* get task whose pointer was cleared: refused by try_submit, failed by submit */
	CHECK_OK(doca_pe_create(&pe));
	CHECK(doca_sync_event_as_ctx(ev) != NULL);
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sync_event_as_ctx(ev)));
	CHECK_OK(doca_ctx_start(doca_sync_event_as_ctx(ev)));
	reset_counters();
	CHECK_OK(doca_sync_event_task_get_alloc_init(ev, &v, ud, &tget));
	doca_sync_event_task_get_set_ret_val_ptr(tget, NULL);
	CHECK_ERR(doca_task_try_submit(doca_sync_event_task_get_as_doca_task(tget)), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_task_submit(doca_sync_event_task_get_as_doca_task(tget)));
	CHECK(drain(pe) == 1);
	CHECK(n_err == 1 && n_get == 0 && last_err_status == DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_ctx_stop(doca_sync_event_as_ctx(ev)));
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_pe_destroy(pe));
}

static void test_ctx_pool_exhaustion(void)
{
	struct doca_sync_event_task_notify_add *t[3];
	union doca_data ud = {.u64 = 0};
	struct se_ctx s;
	uint64_t fetched;

	se_ctx_setup(&s, NULL, 2);
	CHECK_OK(doca_sync_event_task_notify_add_alloc_init(s.ev, 1, &fetched, ud, &t[0]));
	CHECK_OK(doca_sync_event_task_notify_add_alloc_init(s.ev, 1, &fetched, ud, &t[1]));
	CHECK_ERR(doca_sync_event_task_notify_add_alloc_init(s.ev, 1, &fetched, ud, &t[2]), DOCA_ERROR_NO_MEMORY);
	/* other types have their own pools */
	{
		struct doca_sync_event_task_get *g;
		uint64_t v;

		CHECK_OK(doca_sync_event_task_get_alloc_init(s.ev, &v, ud, &g));
		doca_task_free(doca_sync_event_task_get_as_doca_task(g));
	}
	doca_task_free(doca_sync_event_task_notify_add_as_doca_task(t[0]));
	CHECK_OK(doca_sync_event_task_notify_add_alloc_init(s.ev, 1, &fetched, ud, &t[2]));
	doca_task_free(doca_sync_event_task_notify_add_as_doca_task(t[1]));
	doca_task_free(doca_sync_event_task_notify_add_as_doca_task(t[2]));
	se_ctx_teardown(&s);
}

/* Tasks configured with num_tasks 0: allocation fails with NO_MEMORY and an error-level line
 * that names the call to fix. */
static void test_ctx_zero_tasks(void)
{
	struct doca_sync_event_task_notify_add *t;
	union doca_data ud = {.u64 = 0};
	struct doca_log_backend *be;
	FILE *log = tmpfile();
	char line[1024];
	bool named = false;
	struct se_ctx s;
	uint64_t fetched;

	CHECK(log != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(log, &be));
	CHECK_OK(doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_ERROR));
	se_ctx_setup(&s, NULL, 0);
	CHECK_ERR(doca_sync_event_task_notify_add_alloc_init(s.ev, 1, &fetched, ud, &t), DOCA_ERROR_NO_MEMORY);
	fflush(log);
	rewind(log);
	while (fgets(line, sizeof(line), log) != NULL)
		named |= strstr(line, "doca_sync_event_task_notify_add_set_conf()") != NULL &&
			 strstr(line, "num_tasks") != NULL;
	CHECK(named);
	(void)doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DISABLE);
	se_ctx_teardown(&s);
}

static void test_ctx_mask_rules(void)
{
	static const uint64_t good[] = {0, 0xff, 0xff00, 0xff00000000000000ull, 0xffff, 0xffff0000ull,
					0xffffffff, 0xffffffff00000000ull, 0x00ffffffff000000ull, ALL};
	static const uint64_t bad[] = {1, 0x7f, 0xfe, 0xffffff, 0xff00ff, 0xffffffffff, 0x0f0f,
				       0xffffffffffff, 0xffffffffffffff, 0xff000000000000ffull};
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_wait_eq *teq;
	struct doca_sync_event_task_wait_neq *tneq;
	struct se_ctx s;

	se_ctx_setup(&s, NULL, 2);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(s.ev, 0, good[i], ud, &teq));
		doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(teq));
		CHECK_OK(doca_sync_event_task_wait_neq_alloc_init(s.ev, 1, good[i], ud, &tneq));
		doca_task_free(doca_sync_event_task_wait_neq_as_doca_task(tneq));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ERR(doca_sync_event_task_wait_eq_alloc_init(s.ev, 0, bad[i], ud, &teq), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_sync_event_task_wait_neq_alloc_init(s.ev, 0, bad[i], ud, &tneq), DOCA_ERROR_INVALID_VALUE);
	}
	/* a bad mask set after allocation: try_submit refuses, submit fails the task */
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(s.ev, 0, ALL, ud, &teq));
	doca_sync_event_task_wait_eq_set_mask(teq, 0x1234);
	CHECK_ERR(doca_task_try_submit(doca_sync_event_task_wait_eq_as_doca_task(teq)), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(teq)));
	CHECK(drain(s.pe) == 1);
	CHECK(n_err == 1 && n_eq == 0 && last_err_status == DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_task_wait_neq_alloc_init(s.ev, 0, ALL, ud, &tneq));
	doca_sync_event_task_wait_neq_set_mask(tneq, 0xfff);
	CHECK_ERR(doca_task_try_submit(doca_sync_event_task_wait_neq_as_doca_task(tneq)), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_sync_event_task_wait_neq_as_doca_task(tneq));
	/* mask 0 compares 0: wait_eq(0) holds at once */
	CHECK_OK(doca_sync_event_update_set(s.ev, 0x1234));
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(s.ev, 0, 0, ud, &teq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(teq)));
	CHECK(drain(s.pe) == 1);
	CHECK(n_eq == 1);
	se_ctx_teardown(&s);
}

static void test_ctx_stop_flushes_wait(void)
{
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_wait_eq *teq;
	struct doca_sync_event_task_wait_neq *tneq;
	enum doca_ctx_states state;
	size_t inflight = 0;
	struct se_ctx s;

	se_ctx_setup(&s, NULL, 2);
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(s.ev, 1, ALL, ud, &teq));
	CHECK_OK(doca_sync_event_task_wait_neq_alloc_init(s.ev, 0, ALL, ud, &tneq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(teq)));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_neq_as_doca_task(tneq)));
	CHECK(drain(s.pe) == 0);
	CHECK_OK(doca_ctx_get_num_inflight_tasks(s.ctx, &inflight));
	CHECK(inflight == 2);
	CHECK_ERR(doca_ctx_stop(s.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_OK(doca_ctx_get_state(s.ctx, &state));
	CHECK(state == DOCA_CTX_STATE_STOPPING);
	/* the event's value is no longer usable once its context stops */
	CHECK_ERR(doca_sync_event_update_set(s.ev, 1), DOCA_ERROR_BAD_STATE);
	CHECK(drain(s.pe) >= 2);
	CHECK(n_err == 2 && n_eq == 0 && n_neq == 0);
	CHECK(last_err_status != DOCA_SUCCESS);
	CHECK_OK(doca_ctx_get_state(s.ctx, &state));
	CHECK(state == DOCA_CTX_STATE_IDLE);
	/* IDLE again: reconfigurable, restartable, and the value survived */
	CHECK_OK(doca_sync_event_task_wait_eq_set_conf(s.ev, wait_eq_ok, wait_eq_err, 1));
	CHECK_OK(doca_ctx_start(s.ctx));
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(s.ev, 0, ALL, ud, &teq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(teq)));
	CHECK(drain(s.pe) == 1);
	CHECK(n_eq == 1);
	se_ctx_teardown(&s);
}

/* ---- a wait task completed by another thread while the PE thread sleeps in epoll ---- */

struct updater {
	struct doca_sync_event *ev; /* the event the thread updates through */
	uint64_t value;
	int use_add;
	int pe_waiting; /* atomic: the PE thread is about to block */
	doca_error_t result;
};

static void *updater_thread(void *arg)
{
	struct updater *u = arg;
	double end = now_sec() + BOUND_SEC;
	uint64_t fetched;

	while (!__atomic_load_n(&u->pe_waiting, __ATOMIC_ACQUIRE) && now_sec() < end)
		sched_yield();
	/* Let the PE thread settle in epoll_wait; correctness does not depend on it. */
	end = now_sec() + 0.02;
	while (now_sec() < end)
		sched_yield();
	u->result = u->use_add ? doca_sync_event_update_add(u->ev, u->value, &fetched)
			       : doca_sync_event_update_set(u->ev, u->value);
	return NULL;
}

/*
 * The DOCA event loop (pe_event sample): request notification, epoll_wait, clear, progress.
 * Returns the number of epoll_wait calls that timed out (0 when the notification woke it).
 */
static int epoll_loop(struct doca_pe *pe, const volatile int *done, struct updater *u)
{
	doca_notification_handle_t fd;
	struct epoll_event e = {.events = EPOLLIN};
	double end = now_sec() + BOUND_SEC;
	int epfd, timeouts = 0, errors = 0, rounds = 0;

	CHECK_OK(doca_pe_get_notification_handle(pe, &fd));
	epfd = epoll_create1(0);
	CHECK(epfd >= 0);
	CHECK(epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &e) == 0);
	while (!*done && now_sec() < end) {
		errors += doca_pe_request_notification(pe) != DOCA_SUCCESS;
		__atomic_store_n(&u->pe_waiting, 1, __ATOMIC_RELEASE);
		if (epoll_wait(epfd, &e, 1, 3000) == 0)
			timeouts++;
		errors += doca_pe_clear_notification(pe, fd) != DOCA_SUCCESS;
		while (doca_pe_progress(pe))
			;
		rounds++;
	}
	CHECK(errors == 0);
	fprintf(stderr, "  epoll loop: %d wake-ups\n", rounds);
	CHECK(rounds <= 3); /* a pending, unready wait task must let the PE thread sleep */
	close(epfd);
	return timeouts;
}

static void run_epoll_wake(struct se_ctx *s, struct doca_sync_event *through, uint64_t value, int use_add,
			   uint64_t wait_val)
{
	union doca_data ud = {.u64 = 0};
	struct doca_sync_event_task_wait_eq *teq;
	struct updater u = {.ev = through, .value = value, .use_add = use_add, .result = DOCA_ERROR_UNKNOWN};
	pthread_t th;
	int timeouts;

	n_eq = 0;
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(s->ev, wait_val, ALL, ud, &teq));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(teq)));
	CHECK(drain(s->pe) == 0);
	CHECK(pthread_create(&th, NULL, updater_thread, &u) == 0);
	timeouts = epoll_loop(s->pe, &n_eq, &u);
	pthread_join(th, NULL);
	CHECK_OK(u.result);
	CHECK(n_eq == 1);
	CHECK(timeouts == 0);
}

static void test_ctx_wait_woken_by_other_thread(void)
{
	uint64_t shared = 0;
	struct doca_sync_event *other;
	struct se_ctx s;

	/* through the context's own event (stand-alone calls while the ctx runs) */
	se_ctx_setup(&s, NULL, 2);
	run_epoll_wake(&s, s.ev, 42, 0, 42);
	run_epoll_wake(&s, s.ev, 8, 1, 50);
	se_ctx_teardown(&s);

	/* through another event backed by the same memory */
	se_ctx_setup(&s, &shared, 2);
	other = started_event(&shared);
	run_epoll_wake(&s, other, 7, 0, 7);
	run_epoll_wake(&s, other, 3, 1, 10);
	CHECK(shared == 10);
	CHECK_OK(doca_sync_event_destroy(other));
	se_ctx_teardown(&s);
}

/* ---- fork while another thread updates a watched value ---- */

struct hammer {
	struct doca_sync_event *ev;
	int stop; /* atomic */
};

static void *hammer_thread(void *arg)
{
	struct hammer *h = arg;

	for (uint64_t i = 0; !__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE); i++)
		(void)doca_sync_event_update_set(h->ev, i);
	return NULL;
}

/*
 * A process forks while one of its threads updates a value a running context watches (the
 * update walks the watchers under the process-wide lock of the values). The child, which
 * has only the forking thread, must still be able to use sync events: a lock copied while
 * held would block it forever.
 */
static void test_fork_while_updating(void)
{
	struct hammer h = {0};
	struct se_ctx s;
	pthread_t th;
	int hung = 0, forks = 0;
	double end;

	se_ctx_setup(&s, NULL, 1);
	h.ev = s.ev;
	CHECK(pthread_create(&th, NULL, hammer_thread, &h) == 0);
	end = now_sec() + 2.0;
	while (forks < 300 && now_sec() < end && hung == 0) {
		pid_t pid = fork();
		int status = 0;

		if (pid == 0) {
			struct doca_sync_event *ev = NULL;

			alarm(5);
			if (doca_sync_event_create(&ev) != DOCA_SUCCESS || doca_sync_event_start(ev) != DOCA_SUCCESS ||
			    doca_sync_event_update_set(ev, 1) != DOCA_SUCCESS || doca_sync_event_destroy(ev) != DOCA_SUCCESS)
				_exit(2);
			_exit(0);
		}
		CHECK(pid > 0);
		if (pid < 0)
			break;
		forks++;
		CHECK(waitpid(pid, &status, 0) == pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			hung++;
			fprintf(stderr, "  child %d of %d: %s %d\n", forks, (int)pid,
				WIFSIGNALED(status) ? "killed by signal" : "exit", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		}
	}
	__atomic_store_n(&h.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	fprintf(stderr, "  %d forks\n", forks);
	CHECK(hung == 0);
	se_ctx_teardown(&s);
}

int main(void)
{
	struct doca_log_backend *sdk_log;

	/* SDK lines on stderr: every refusal below should print one line naming the fix. */
	if (doca_log_backend_create_with_file_sdk(stderr, &sdk_log) == DOCA_SUCCESS)
		(void)doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	TEST_RUN(test_null_arguments);
	TEST_RUN(test_standalone_state);
	TEST_RUN(test_standalone_pingpong);
	TEST_RUN(test_standalone_sleeper_wakes);
	TEST_RUN(test_standalone_atomic_add);
	TEST_RUN(test_backing_addr);
	TEST_RUN(test_backing_doca_buf);
	TEST_RUN(test_ctx_every_task);
	TEST_RUN(test_ctx_mode_rules);
	TEST_RUN(test_ctx_pool_exhaustion);
	TEST_RUN(test_ctx_zero_tasks);
	TEST_RUN(test_ctx_mask_rules);
	TEST_RUN(test_ctx_stop_flushes_wait);
	TEST_RUN(test_ctx_wait_woken_by_other_thread);
	TEST_RUN(test_fork_while_updating);
	TEST_EXIT();
}
