/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Back-ends of an STA context (one NVMe PCIe disk each) and their NVMe queue pairs: the SQ
 * and CQ memory and the doorbell regions, as mmaps. This slice keeps them; nothing polls the
 * queues until the data path exists.
 */
#include "doca_mmap.h"
#include "sta_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_BE);

static const char *const beq_ctr_names[STA_BEQ_CTRS] = {"submitted", "completed", "timeouts"};

doca_error_t doca_sta_be_create(struct doca_sta *sta, struct doca_sta_be_handle **be_handle)
{
	struct doca_sta_be_handle *be;

	if (sta == NULL || be_handle == NULL) {
		SDK_LOG_ERR("Failed to create STA back-end: %s is NULL", sta == NULL ? "sta" : "be_handle output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sta_running(sta, "Failed to create STA back-end"))
		return DOCA_ERROR_BAD_STATE;
	if (sta->num_be >= sta->caps->sta_max_be) {
		SDK_LOG_ERR("Failed to create STA back-end: the STA context has its maximum of %u back-ends "
			    "(doca_sta_get_max_be())",
			    sta->caps->sta_max_be);
		return DOCA_ERROR_FULL;
	}
	be = calloc(1, sizeof(*be));
	if (be == NULL) {
		SDK_LOG_ERR("Failed to create STA back-end: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	be->sta = sta;
	be->next = sta->backends;
	sta->backends = be;
	sta->num_be++;
	*be_handle = be;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_be_destroy(struct doca_sta_be_handle *be_handle)
{
	struct doca_sta_be_handle **pp;
	uint32_t num_ns;

	if (be_handle == NULL) {
		SDK_LOG_ERR("Failed to destroy STA back-end: be_handle is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&be_handle->sta->leaf_lock);
	num_ns = be_handle->num_ns; /* a removed namespace counts until its last command in flight is done */
	pthread_mutex_unlock(&be_handle->sta->leaf_lock);
	if (be_handle->num_queues != 0 || num_ns != 0) {
		SDK_LOG_ERR("Failed to destroy STA back-end: it still has %u queues and %u namespaces; destroy the "
			    "queues (destroy-queue task) and remove the namespaces first (a removed namespace "
			    "counts until the commands in flight on it completed)",
			    be_handle->num_queues, num_ns);
		return DOCA_ERROR_IN_USE;
	}
	for (pp = &be_handle->sta->backends; *pp != NULL && *pp != be_handle; pp = &(*pp)->next)
		;
	if (*pp != NULL)
		*pp = be_handle->next;
	be_handle->sta->num_be--;
	free(be_handle);
	return DOCA_SUCCESS;
}

/* A 32-bit doorbell at `offset` must lie inside the doorbell region. */
static doca_error_t check_doorbell(struct doca_mmap *reg, uint16_t offset, const char *which)
{
	void *addr = NULL;
	size_t len = 0;
	doca_error_t err = doca_mmap_get_memrange(reg, &addr, &len);

	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to add STA back-end queue: the %s doorbell mmap has no memory range (%s); set it "
			    "with doca_mmap_set_memrange() and start the mmap",
			    which, doca_error_get_name(err));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((size_t)offset + sizeof(uint32_t) > len || offset % sizeof(uint32_t) != 0) {
		SDK_LOG_ERR("Failed to add STA back-end queue: %s doorbell offset %u is not a 4-byte aligned doorbell "
			    "inside its %zu-byte region",
			    which, offset, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_be_add_queue(struct doca_sta_be_handle *be_handle, struct doca_mmap *sq, struct doca_mmap *sq_db_reg,
				   uint16_t sq_db_offset, struct doca_mmap *cq, struct doca_mmap *cq_db_reg,
				   uint16_t cq_db_offset, struct doca_sta_be_q_handle **be_q_handle)
{
	struct doca_sta *sta;
	struct doca_sta_be_q_handle *q;
	doca_error_t err;

	if (be_handle == NULL || sq == NULL || sq_db_reg == NULL || cq == NULL || cq_db_reg == NULL ||
	    be_q_handle == NULL) {
		SDK_LOG_ERR("Failed to add STA back-end queue: %s is NULL",
			    be_handle == NULL	? "be_handle"
			    : sq == NULL	? "sq"
			    : sq_db_reg == NULL ? "sq_db_reg"
			    : cq == NULL	? "cq"
			    : cq_db_reg == NULL ? "cq_db_reg"
						: "be_q_handle output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	sta = be_handle->sta;
	if (!sta_running(sta, "Failed to add STA back-end queue"))
		return DOCA_ERROR_BAD_STATE;
	err = check_doorbell(sq_db_reg, sq_db_offset, "SQ");
	if (err == DOCA_SUCCESS)
		err = check_doorbell(cq_db_reg, cq_db_offset, "CQ");
	if (err != DOCA_SUCCESS)
		return err;
	if (be_handle->num_queues >= sta->caps->sta_max_qs_per_be) {
		SDK_LOG_ERR("Failed to add STA back-end queue: the back-end has its maximum of %u queues "
			    "(doca_sta_get_max_qs_per_be())",
			    sta->caps->sta_max_qs_per_be);
		return DOCA_ERROR_FULL;
	}
	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		SDK_LOG_ERR("Failed to add STA back-end queue: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	q->be = be_handle;
	q->sq = sq;
	q->sq_db = sq_db_reg;
	q->sq_db_offset = sq_db_offset;
	q->cq = cq;
	q->cq_db = cq_db_reg;
	q->cq_db_offset = cq_db_offset;
	sta_ctr_entries(q->entries, beq_ctr_names, q->ctr, STA_BEQ_CTRS);
	/* queues go round the BEQ EUs (ids 2, 5, 8, ...: one per IO thread) */
	q->eu_id = (be_handle->num_queues % sta->max_sta_io) * STA_EU_TYPES + 2;
	q->mapping = (struct doca_sta_eu_ctr_entry){.name = "eu_id", .val = &q->eu_id};
	q->next = be_handle->queues;
	be_handle->queues = q;
	be_handle->num_queues++;
	*be_q_handle = q;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_be_destroy_queue_task_alloc_init(struct doca_sta_be_q_handle *be_q_handle, union doca_data user_data,
						       struct doca_sta_producer_task_send **task)
{
	struct doca_sta *sta;
	struct doca_sta_producer_task_send *t;

	if (be_q_handle == NULL || task == NULL) {
		SDK_LOG_ERR("Failed to allocate destroy-queue task: %s is NULL",
			    be_q_handle == NULL ? "be_q_handle" : "task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	sta = be_q_handle->be->sta;
	if (!softdoca_ctx_tasks_configured(&sta->ctx, STA_TASK_DESTROY_BEQ)) {
		SDK_LOG_ERR("Failed to allocate destroy-queue task: the task is not configured; call "
			    "doca_sta_be_task_destroy_queue_set_conf() before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	t = (struct doca_sta_producer_task_send *)softdoca_task_alloc(&sta->ctx, STA_TASK_DESTROY_BEQ, user_data);
	if (t == NULL) {
		SDK_LOG_ERR("Failed to allocate destroy-queue task: all %u tasks are in use; free completed tasks with "
			    "doca_task_free()",
			    sta->ctx.pools[STA_TASK_DESTROY_BEQ].capacity);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->subs = NULL;
	t->ns = NULL;
	t->beq = be_q_handle;
	*task = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_be_queue_stats(struct doca_sta_be_handle *be_handle, struct doca_sta_be_q_handle *be_q_handle,
					 const struct doca_sta_eu_ctr_entry **entries, uint16_t *num_entries)
{
	if (be_handle == NULL || be_q_handle == NULL || entries == NULL || num_entries == NULL) {
		SDK_LOG_ERR("Failed to get STA back-end queue statistics: an argument is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (be_q_handle->be != be_handle) {
		SDK_LOG_ERR("Failed to get STA back-end queue statistics: the queue belongs to another back-end");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*entries = be_q_handle->entries;
	*num_entries = STA_BEQ_CTRS;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_be_queue_mapping_info(const struct doca_sta_be_q_handle *be_q_handle,
						const struct doca_sta_eu_ctr_entry **entries, uint16_t *num_entries)
{
	if (be_q_handle == NULL || entries == NULL || num_entries == NULL) {
		SDK_LOG_ERR("Failed to get STA back-end queue mapping: an argument is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*entries = &be_q_handle->mapping;
	*num_entries = 1;
	return DOCA_SUCCESS;
}
