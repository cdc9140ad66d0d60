/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPA thread groups: num_threads DPA threads, each given a rank before it starts; once the
 * group is started, device code of each sees doca_dpa_dev_thread_rank() = its rank and
 * doca_dpa_dev_num_threads() = the group's size (docs/dpa.md). The threads are activated
 * one by one as before (each by its own completion or notification).
 */
#include <stdlib.h>

#include "dpa_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DPA_THREAD_GROUP);

struct doca_dpa_tg {
	struct doca_dpa *dpa;
	unsigned int num_threads;
	bool started;                     /* atomic: read by the EUs */
	struct doca_dpa_thread **threads; /* by rank; NULL: not set yet */
};

bool softdoca_dpa_thread_group_started(const struct doca_dpa_tg *group)
{
	return __atomic_load_n(&group->started, __ATOMIC_ACQUIRE);
}

unsigned int softdoca_dpa_thread_group_size(const struct doca_dpa_tg *group)
{
	return group->num_threads;
}

void softdoca_dpa_thread_group_forget(struct doca_dpa_tg *group, const struct doca_dpa_thread *thread)
{
	for (unsigned int i = 0; i < group->num_threads; i++)
		if (group->threads[i] == thread)
			group->threads[i] = NULL;
}

doca_error_t doca_dpa_thread_group_create(struct doca_dpa *dpa, unsigned int num_threads, struct doca_dpa_tg **tg)
{
	struct doca_dpa_tg *g;

	if (dpa == NULL || tg == NULL || num_threads == 0) {
		SDK_LOG_ERR("Failed to create DPA thread group: %s",
			    dpa == NULL ? "dpa is NULL" : tg == NULL ? "tg is NULL" : "num_threads is 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	g = calloc(1, sizeof(*g));
	if (g != NULL)
		g->threads = calloc(num_threads, sizeof(*g->threads));
	if (g == NULL || g->threads == NULL) {
		free(g);
		SDK_LOG_ERR("Failed to create DPA thread group: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	g->dpa = dpa;
	g->num_threads = num_threads;
	*tg = g;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_group_destroy(struct doca_dpa_tg *tg)
{
	if (tg == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA thread group: tg is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* its threads go on alone (rank 0 of 1) */
	for (unsigned int i = 0; i < tg->num_threads; i++)
		if (tg->threads[i] != NULL)
			softdoca_dpa_thread_leave_group(tg->threads[i], tg);
	free(tg->threads);
	free(tg);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_group_get_num_threads(struct doca_dpa_tg *tg, unsigned int *num_threads)
{
	if (tg == NULL || num_threads == NULL) {
		SDK_LOG_ERR("Failed to get DPA thread group size: %s is NULL", tg == NULL ? "tg" : "num_threads");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_threads = tg->num_threads;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_group_set_thread(struct doca_dpa_tg *tg, struct doca_dpa_thread *thread, unsigned int rank)
{
	doca_error_t err;

	if (tg == NULL || thread == NULL) {
		SDK_LOG_ERR("Failed to set DPA thread group member: %s is NULL", tg == NULL ? "tg" : "thread");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (rank >= tg->num_threads) {
		SDK_LOG_ERR("Failed to set DPA thread group member: rank %u is not below the group's %u threads", rank,
			    tg->num_threads);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_dpa_thread_dpa(thread) != tg->dpa) {
		SDK_LOG_ERR("Failed to set DPA thread group member: the thread belongs to another DPA context");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (tg->started) {
		SDK_LOG_ERR("Failed to set DPA thread group member: the group is started; set every rank before "
			    "doca_dpa_thread_group_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	for (unsigned int i = 0; i < tg->num_threads; i++) {
		if (tg->threads[i] == thread && i != rank) {
			SDK_LOG_ERR("Failed to set DPA thread group member: the thread is rank %u of this group already", i);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	err = softdoca_dpa_thread_join_group(thread, tg, rank);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to set DPA thread group member: the thread is started; set it before "
			    "doca_dpa_thread_start()");
		return err;
	}
	if (tg->threads[rank] != NULL && tg->threads[rank] != thread)
		softdoca_dpa_thread_leave_group(tg->threads[rank], tg);
	tg->threads[rank] = thread;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_group_start(struct doca_dpa_tg *tg)
{
	if (tg == NULL) {
		SDK_LOG_ERR("Failed to start DPA thread group: tg is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (tg->started) {
		SDK_LOG_ERR("Failed to start DPA thread group: already started");
		return DOCA_ERROR_BAD_STATE;
	}
	for (unsigned int i = 0; i < tg->num_threads; i++) {
		if (tg->threads[i] == NULL) {
			SDK_LOG_ERR("Failed to start DPA thread group: rank %u has no thread; call "
				    "doca_dpa_thread_group_set_thread() for every rank below %u",
				    i, tg->num_threads);
			return DOCA_ERROR_BAD_STATE;
		}
	}
	__atomic_store_n(&tg->started, true, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_thread_group_stop(struct doca_dpa_tg *tg)
{
	if (tg == NULL) {
		SDK_LOG_ERR("Failed to stop DPA thread group: tg is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!tg->started) {
		SDK_LOG_ERR("Failed to stop DPA thread group: not started");
		return DOCA_ERROR_BAD_STATE;
	}
	__atomic_store_n(&tg->started, false, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}
