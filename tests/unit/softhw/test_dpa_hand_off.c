/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft DPA's hand_off jobs (lib/softhw/dpa): the first one-rank job a running hand_off job
 * submits is left for the hand_off job's own EU, which takes it when the job ends (no second
 * EU is woken or started for it); a second one gets an EU as any job does; chains through
 * jobs that are and are not hand_off all run. A fresh DPA has no EU until the first submit,
 * so "the same EU" is checked exactly where the pool holds one EU only. Links softhw alone.
 */
#include <pthread.h>
#include <stdint.h>

#include "softhw/dpa/dpa.h"
#include "softhw/softhw.h"
#include "support.h"
#include "test.h"

const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

struct tjob {
	struct softhw_dpa_job job; /* first */
	struct softhw_dpa *dpa;
	pthread_t ran_on;
	uint32_t done;             /* raised by done */
	struct tjob *children[2];  /* submitted by run */
	unsigned int num_children;
};

static void tjob_done(struct softhw_dpa_job *job, doca_error_t status)
{
	struct tjob *t = (struct tjob *)job;

	CHECK(status == DOCA_SUCCESS);
	softhw_dpa_ops.flag_raise(t->dpa, &t->done);
}

static void tjob_run(struct softhw_dpa_job *job, unsigned int rank)
{
	struct tjob *t = (struct tjob *)job;

	(void)rank;
	t->ran_on = pthread_self();
	for (unsigned int i = 0; i < t->num_children; i++)
		softhw_dpa_ops.submit(t->dpa, &t->children[i]->job);
}

static void tjob_init(struct tjob *t, struct softhw_dpa *dpa, bool hand_off)
{
	*t = (struct tjob){.dpa = dpa};
	t->job.run = tjob_run;
	t->job.done = tjob_done;
	t->job.num_ranks = 1;
	t->job.name = "hand_off test";
	t->job.hand_off = hand_off;
}

static void wait_done(struct tjob *t)
{
	CHECK(softhw_dpa_ops.flag_wait_for(t->dpa, &t->done, 10LL * 1000000000LL));
}

static struct softhw_dpa *open_dpa(void)
{
	const struct softhw_model *model;
	struct softhw_dpa *dpa = NULL;
	doca_error_t err = DOCA_SUCCESS;

	model = softhw_model_get(&err);
	CHECK(model != NULL);
	if (model == NULL)
		return NULL;
	for (uint32_t i = 0; i < softhw_model_num_functions(model) && dpa == NULL; i++)
		if (softhw_dpa_ops.open(softhw_model_function(model, i), &dpa) != DOCA_SUCCESS)
			dpa = NULL;
	CHECK(dpa != NULL);
	return dpa;
}

/* One child: it runs on the parent's EU, the only one the pool has. */
static void test_child_runs_on_parent_eu(void)
{
	struct softhw_dpa *dpa = open_dpa();
	struct tjob parent, child;

	if (dpa == NULL)
		return;
	tjob_init(&parent, dpa, true);
	tjob_init(&child, dpa, false);
	parent.children[parent.num_children++] = &child;
	softhw_dpa_ops.submit(dpa, &parent.job);
	wait_done(&parent);
	wait_done(&child);
	CHECK(pthread_equal(parent.ran_on, child.ran_on));
	CHECK(!softhw_dpa_ops.close(dpa));
}

/*
 * Two children: the first is promised to the parent's EU, the second gets an EU of its own
 * (which EU runs which is the pool's race: only that both run is checked).
 */
static void test_second_child_gets_an_eu(void)
{
	struct softhw_dpa *dpa = open_dpa();
	struct tjob parent, a, b;

	if (dpa == NULL)
		return;
	tjob_init(&parent, dpa, true);
	tjob_init(&a, dpa, false);
	tjob_init(&b, dpa, false);
	parent.children[parent.num_children++] = &a;
	parent.children[parent.num_children++] = &b;
	softhw_dpa_ops.submit(dpa, &parent.job);
	wait_done(&parent);
	wait_done(&a);
	wait_done(&b);
	CHECK(!softhw_dpa_ops.close(dpa));
}

/* A job that is not hand_off submits a hand_off one, which submits another: all run. */
static void test_plain_jobs_chain(void)
{
	struct softhw_dpa *dpa = open_dpa();
	struct tjob parent, child, grandchild;

	if (dpa == NULL)
		return;
	tjob_init(&parent, dpa, false);
	tjob_init(&child, dpa, true);
	tjob_init(&grandchild, dpa, false);
	parent.children[parent.num_children++] = &child;
	child.children[child.num_children++] = &grandchild;
	softhw_dpa_ops.submit(dpa, &parent.job);
	wait_done(&parent);
	wait_done(&child);
	wait_done(&grandchild);
	CHECK(!softhw_dpa_ops.close(dpa));
}

int main(void)
{
	TEST_RUN(test_child_runs_on_parent_eu);
	TEST_RUN(test_second_child_gets_an_eu);
	TEST_RUN(test_plain_jobs_chain);
	TEST_EXIT();
}
