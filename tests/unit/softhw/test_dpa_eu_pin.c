/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft DPA's pinned jobs (lib/softhw/dpa): a job pinned to EU k runs on EU k's thread
 * (current_eu says k, and every job pinned there ran on one pthread), an unpinned one on some
 * EU; an EU id past the profile's EUs is refused; closing the context while a pinned job waits
 * in a device wait and others are queued behind it on its EU ends them all, without running
 * the queued ones and without abandoning an EU; a job pinned behind a rank told to stop that
 * still spins says so, and runs once it returns; a batch job's rank runs under SCHED_BATCH and
 * its EU is back under SCHED_OTHER for the next job. Links softhw alone.
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>

#include "softhw/dpa/dpa.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

#define NS 1000000000LL

struct tjob {
	struct softhw_dpa_job job; /* first */
	struct softhw_dpa *dpa;
	pthread_t ran_on;
	int eu;                    /* current_eu() inside run; -2 until it ran */
	uint32_t started;          /* raised by run */
	uint32_t done;             /* raised by done */
	doca_error_t status;
	struct softhw_value *wait; /* run waits until it exceeds 0 (NULL: returns at once) */
	uint32_t *spin;            /* run spins (no DPA call) until it is non-zero (NULL: does not) */
	int policy;                /* sched_getscheduler() inside run */
};

static void tjob_done(struct softhw_dpa_job *job, doca_error_t status)
{
	struct tjob *t = (struct tjob *)job;

	t->status = status;
	softhw_dpa_ops.flag_raise(t->dpa, &t->done);
}

static void tjob_run(struct softhw_dpa_job *job, unsigned int rank)
{
	struct tjob *t = (struct tjob *)job;

	(void)rank;
	t->ran_on = pthread_self();
	t->eu = softhw_dpa_ops.current_eu(t->dpa);
	t->policy = sched_getscheduler(0);
	softhw_dpa_ops.flag_raise(t->dpa, &t->started);
	if (t->wait != NULL)
		softhw_dpa_ops.value_wait_gt(t->dpa, t->wait, 0, ~0ULL);
	while (t->spin != NULL && __atomic_load_n(t->spin, __ATOMIC_ACQUIRE) == 0)
		;
}

static void tjob_init(struct tjob *t, struct softhw_dpa *dpa, int eu)
{
	*t = (struct tjob){.dpa = dpa, .eu = -2, .status = DOCA_ERROR_UNKNOWN};
	t->job.run = tjob_run;
	t->job.done = tjob_done;
	t->job.num_ranks = 1;
	t->job.name = "pin test";
	t->job.pinned = eu >= 0;
	t->job.eu = eu >= 0 ? (uint32_t)eu : 0;
}

static bool wait_done(struct tjob *t)
{
	return softhw_dpa_ops.flag_wait_for(t->dpa, &t->done, 10 * NS);
}

static struct softhw_dpa *open_dpa(struct softhw_dpa_caps *caps)
{
	const struct softhw_model *model;
	struct softhw_dpa *dpa = NULL;
	doca_error_t err = DOCA_SUCCESS;

	model = softhw_model_get(&err);
	CHECK(model != NULL);
	if (model == NULL)
		return NULL;
	for (uint32_t i = 0; i < softhw_model_num_functions(model) && dpa == NULL; i++) {
		const struct softhw_function *fn = softhw_model_function(model, i);

		if (softhw_dpa_ops.open(fn, &dpa) != DOCA_SUCCESS)
			dpa = NULL;
		else
			softhw_dpa_ops.caps(fn, caps);
	}
	CHECK(dpa != NULL);
	return dpa;
}

/* Jobs pinned to one EU run on its thread, which reports its id; unpinned ones on some EU. */
static void test_pinned_runs_on_its_eu(void)
{
	struct softhw_dpa_caps caps;
	struct softhw_dpa *dpa = open_dpa(&caps);
	struct tjob pinned[3], last, any;

	if (dpa == NULL)
		return;
	CHECK(softhw_dpa_ops.current_eu(dpa) == -1); /* not an EU */
	for (int i = 0; i < 3; i++) {
		tjob_init(&pinned[i], dpa, 7);
		softhw_dpa_ops.submit(dpa, &pinned[i].job);
	}
	tjob_init(&last, dpa, (int)caps.eus_available - 1);
	softhw_dpa_ops.submit(dpa, &last.job);
	tjob_init(&any, dpa, -1);
	softhw_dpa_ops.submit(dpa, &any.job);
	for (int i = 0; i < 3; i++) {
		CHECK(wait_done(&pinned[i]));
		CHECK(pinned[i].status == DOCA_SUCCESS && pinned[i].eu == 7);
		CHECK(pthread_equal(pinned[i].ran_on, pinned[0].ran_on));
	}
	CHECK(wait_done(&last));
	CHECK(last.status == DOCA_SUCCESS && last.eu == (int)caps.eus_available - 1);
	CHECK(!pthread_equal(last.ran_on, pinned[0].ran_on));
	CHECK(wait_done(&any));
	CHECK(any.status == DOCA_SUCCESS && any.eu >= 0 && any.eu < (int)caps.eus_available);
	CHECK(!softhw_dpa_ops.close(dpa));
}

/* An EU id past the profile's EUs: the job does not run, its done says INVALID_VALUE, a line names the limit. */
static void test_pinned_past_the_profile(void)
{
	struct softhw_dpa_caps caps;
	struct softhw_dpa *dpa = open_dpa(&caps);
	struct tjob t;

	if (dpa == NULL)
		return;
	tjob_init(&t, dpa, (int)caps.eus_available);
	softhw_dpa_ops.submit(dpa, &t.job);
	CHECK(wait_done(&t));
	CHECK(t.status == DOCA_ERROR_INVALID_VALUE && t.eu == -2);
	CHECK(softhw_test_logged("doca_dpa_get_total_num_eus_available()"));
	CHECK(!softhw_dpa_ops.close(dpa));
}

/*
 * One pinned job waits in a device wait nobody ends; two more are queued behind it on its EU.
 * Closing ends the wait, cancels the queued ones (they never run) and abandons nothing.
 */
static void test_close_with_pinned_waiting(void)
{
	struct softhw_dpa_caps caps;
	struct softhw_dpa *dpa = open_dpa(&caps);
	struct softhw_value *never = softhw_value_bind(NULL);
	struct tjob waiting, queued[2];

	if (dpa == NULL || never == NULL)
		return;
	tjob_init(&waiting, dpa, 2);
	waiting.wait = never;
	softhw_dpa_ops.submit(dpa, &waiting.job);
	CHECK(softhw_dpa_ops.flag_wait_for(dpa, &waiting.started, 10 * NS));
	for (int i = 0; i < 2; i++) {
		tjob_init(&queued[i], dpa, 2);
		softhw_dpa_ops.submit(dpa, &queued[i].job);
	}
	CHECK(!softhw_dpa_ops.close(dpa));
	/* close returned: every job is over */
	CHECK(__atomic_load_n(&waiting.done, __ATOMIC_ACQUIRE) == 1 && waiting.status == DOCA_ERROR_AGAIN);
	for (int i = 0; i < 2; i++) {
		CHECK(__atomic_load_n(&queued[i].done, __ATOMIC_ACQUIRE) == 1);
		CHECK(queued[i].status == DOCA_ERROR_AGAIN && queued[i].eu == -2);
	}
	softhw_value_unbind(never);
}

/* job_stop of a pinned job queued behind another: it ends without running, the other goes on. */
static void test_stop_queued_pinned(void)
{
	struct softhw_dpa_caps caps;
	struct softhw_dpa *dpa = open_dpa(&caps);
	struct softhw_value *release = softhw_value_bind(NULL);
	struct tjob waiting, queued;

	if (dpa == NULL || release == NULL)
		return;
	tjob_init(&waiting, dpa, 9);
	waiting.wait = release;
	softhw_dpa_ops.submit(dpa, &waiting.job);
	CHECK(softhw_dpa_ops.flag_wait_for(dpa, &waiting.started, 10 * NS));
	tjob_init(&queued, dpa, 9);
	softhw_dpa_ops.submit(dpa, &queued.job);
	softhw_dpa_ops.job_stop(dpa, &queued.job);
	CHECK(wait_done(&queued));
	CHECK(queued.status == DOCA_ERROR_AGAIN && queued.eu == -2);
	softhw_dpa_ops.value_store(release, 1);
	CHECK(wait_done(&waiting));
	CHECK(waiting.status == DOCA_SUCCESS && waiting.eu == 9);
	CHECK(!softhw_dpa_ops.close(dpa));
	softhw_value_unbind(release);
}

/*
 * A pinned job told to stop while it spins in code that makes no DPA call holds its EU: a job
 * pinned there after says so in a line, and runs once the spinning one returns.
 */
static void test_pinned_behind_stopped_spinner(void)
{
	struct softhw_dpa_caps caps;
	struct softhw_dpa *dpa = open_dpa(&caps);
	struct tjob spinner, next;
	uint32_t release = 0;

	if (dpa == NULL)
		return;
	tjob_init(&spinner, dpa, 11);
	spinner.spin = &release;
	spinner.job.name = "spinner";
	softhw_dpa_ops.submit(dpa, &spinner.job);
	CHECK(softhw_dpa_ops.flag_wait_for(dpa, &spinner.started, 10 * NS));
	softhw_dpa_ops.job_stop(dpa, &spinner.job);
	softhw_test_log_clear();
	tjob_init(&next, dpa, 11);
	next.job.name = "next";
	softhw_dpa_ops.submit(dpa, &next.job);
	CHECK(softhw_test_logged("'next' is pinned to EU 11, which 'spinner' still holds"));
	CHECK(__atomic_load_n(&next.started, __ATOMIC_ACQUIRE) == 0);
	__atomic_store_n(&release, 1, __ATOMIC_RELEASE);
	CHECK(wait_done(&spinner));
	CHECK(spinner.status == DOCA_ERROR_AGAIN);
	CHECK(wait_done(&next));
	CHECK(next.status == DOCA_SUCCESS && next.eu == 11);
	CHECK(!softhw_dpa_ops.close(dpa));
}

/* A batch job's rank runs under SCHED_BATCH; the next job on the same EU under SCHED_OTHER again. */
static void test_batch_job(void)
{
	struct softhw_dpa_caps caps;
	struct softhw_dpa *dpa = open_dpa(&caps);
	struct tjob batch, plain;

	if (dpa == NULL)
		return;
	tjob_init(&batch, dpa, 2);
	batch.job.batch = true;
	tjob_init(&plain, dpa, 2);
	softhw_dpa_ops.submit(dpa, &batch.job);
	softhw_dpa_ops.submit(dpa, &plain.job);
	CHECK(wait_done(&batch) && wait_done(&plain));
	CHECK(batch.status == DOCA_SUCCESS && batch.eu == 2 && batch.policy == SCHED_BATCH);
	CHECK(plain.status == DOCA_SUCCESS && plain.eu == 2 && plain.policy == SCHED_OTHER);
	CHECK(pthread_equal(batch.ran_on, plain.ran_on));
	CHECK(!softhw_dpa_ops.close(dpa));
}

int main(void)
{
	TEST_RUN(test_pinned_runs_on_its_eu);
	TEST_RUN(test_pinned_past_the_profile);
	TEST_RUN(test_close_with_pinned_waiting);
	TEST_RUN(test_stop_queued_pinned);
	TEST_RUN(test_pinned_behind_stopped_spinner);
	TEST_RUN(test_batch_job);
	TEST_EXIT();
}
