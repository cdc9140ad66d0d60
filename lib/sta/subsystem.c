/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NVMe-oF subsystems of an STA context and their namespaces (front-end NSID -> back-end
 * NSID on a back-end disk). Made while the STA context is RUNNING; a subsystem is destroyed
 * only once it has no namespace and no QP.
 */
#include <string.h>

#include "sta_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA_SUBSYSTEM);

static const char *const ns_ctr_names[STA_NS_CTRS] = {"read_ops", "write_ops", "read_bytes", "write_bytes", "errors"};

doca_error_t doca_sta_subsystem_create(struct doca_sta *sta, const char *nqn, struct doca_sta_subs_handle **subs_handle)
{
	struct doca_sta_subs_handle *s;
	size_t len;

	if (sta == NULL || nqn == NULL || subs_handle == NULL) {
		SDK_LOG_ERR("Failed to create STA subsystem: %s is NULL",
			    sta == NULL ? "sta" : nqn == NULL ? "nqn" : "subs_handle output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sta_running(sta, "Failed to create STA subsystem"))
		return DOCA_ERROR_BAD_STATE;
	len = strnlen(nqn, STA_NQN_MAX + 1);
	if (len < STA_NQN_MIN || len > STA_NQN_MAX) {
		SDK_LOG_ERR("Failed to create STA subsystem: an NQN has %u to %u characters, '%.40s' has %zu%s",
			    STA_NQN_MIN, STA_NQN_MAX, nqn, len, len > STA_NQN_MAX ? " or more" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (s = sta->subsystems; s != NULL; s = s->next) {
		if (strcmp(s->nqn, nqn) == 0) {
			SDK_LOG_ERR("Failed to create STA subsystem %s: a subsystem with this NQN exists", nqn);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	if (sta->num_subsys >= sta->caps->sta_max_subsys) {
		SDK_LOG_ERR("Failed to create STA subsystem %s: the STA context has its maximum of %u subsystems "
			    "(doca_sta_get_max_subsys()); destroy one first",
			    nqn, sta->caps->sta_max_subsys);
		return DOCA_ERROR_FULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		SDK_LOG_ERR("Failed to create STA subsystem: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	s->sta = sta;
	memcpy(s->nqn, nqn, len + 1);
	pthread_mutex_lock(&sta->leaf_lock); /* IO threads look subsystems up (sta_qp_set_subs) */
	s->next = sta->subsystems;
	sta->subsystems = s;
	pthread_mutex_unlock(&sta->leaf_lock);
	sta->num_subsys++;
	*subs_handle = s;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_subsystem_add_dev(struct doca_sta_subs_handle *subs_handle, const struct doca_dev *dev)
{
	if (subs_handle == NULL || dev == NULL) {
		SDK_LOG_ERR("Failed to add device to STA subsystem: %s is NULL", subs_handle == NULL ? "subs_handle" : "dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!sta_has_dev(subs_handle->sta, dev)) {
		SDK_LOG_ERR("Failed to add device to STA subsystem %s: the STA context does not know the device; add it "
			    "with doca_sta_add_dev() before doca_ctx_start()",
			    subs_handle->nqn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (uint32_t i = 0; i < subs_handle->num_devs; i++) {
		if (subs_handle->devs[i] == dev) {
			SDK_LOG_ERR("Failed to add device to STA subsystem %s: it was already added", subs_handle->nqn);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	/* the STA context has at most STA_MAX_DEVS + 1 devices: room for all but a repeat */
	if (subs_handle->num_devs >= STA_MAX_DEVS) {
		SDK_LOG_ERR("Failed to add device to STA subsystem %s: it has all %u devices", subs_handle->nqn,
			    STA_MAX_DEVS);
		return DOCA_ERROR_FULL;
	}
	subs_handle->devs[subs_handle->num_devs++] = dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_subsystem_destroy(struct doca_sta_subs_handle *subs_handle)
{
	struct doca_sta *sta;
	struct doca_sta_subs_handle **pp;
	uint32_t qps;

	if (subs_handle == NULL) {
		SDK_LOG_ERR("Failed to destroy STA subsystem: subs_handle is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (subs_handle->num_ns != 0) {
		SDK_LOG_ERR("Failed to destroy STA subsystem %s: it still has %u namespaces; remove them first "
			    "(doca_sta_subsystem_rm_ns or the remove-namespace task)",
			    subs_handle->nqn, subs_handle->num_ns);
		return DOCA_ERROR_IN_USE;
	}
	sta = subs_handle->sta;
	/* the EUs read a QP's subsystem for every command: not freed under them */
	pthread_mutex_lock(&sta->leaf_lock);
	qps = subs_handle->num_qps;
	if (qps == 0) {
		for (pp = &sta->subsystems; *pp != NULL && *pp != subs_handle; pp = &(*pp)->next)
			;
		if (*pp != NULL)
			*pp = subs_handle->next;
	}
	pthread_mutex_unlock(&sta->leaf_lock);
	if (qps != 0) {
		SDK_LOG_ERR("Failed to destroy STA subsystem %s: %u QPs still serve it; disconnect and destroy them "
			    "first (doca_sta_io_qp_destroy(); a destroyed QP with commands on the disk goes when they "
			    "complete), or give them another subsystem (doca_sta_io_qp_add_subsystem())",
			    subs_handle->nqn, qps);
		return DOCA_ERROR_IN_USE;
	}
	sta_notes_forget_subs(sta, subs_handle);
	sta->num_subsys--;
	free(subs_handle);
	return DOCA_SUCCESS;
}

bool sta_qp_set_subs(struct doca_sta *sta, const struct doca_sta_subs_handle **qp_subs,
		     const struct doca_sta_subs_handle *subs)
{
	bool known = subs == NULL;

	pthread_mutex_lock(&sta->leaf_lock);
	for (struct doca_sta_subs_handle *s = sta->subsystems; s != NULL && !known; s = s->next) {
		if (s == subs) {
			s->num_qps++;
			known = true;
		}
	}
	if (known && *qp_subs != NULL)
		((struct doca_sta_subs_handle *)*qp_subs)->num_qps--;
	if (known)
		*qp_subs = subs;
	pthread_mutex_unlock(&sta->leaf_lock);
	return known;
}

doca_error_t doca_sta_subsystem_add_ns(struct doca_sta_subs_handle *subs_handle, uint32_t fe_ns_id, uint32_t ns_block_size,
				       uint32_t be_ns_id, struct doca_sta_be_handle *be_handle,
				       struct doca_sta_ns_handle **ns_handle)
{
	struct doca_sta *sta;
	struct doca_sta_ns_handle *ns;

	if (subs_handle == NULL || be_handle == NULL || ns_handle == NULL) {
		SDK_LOG_ERR("Failed to add namespace to STA subsystem: %s is NULL",
			    subs_handle == NULL ? "subs_handle" : be_handle == NULL ? "be_handle" : "ns_handle output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	sta = subs_handle->sta;
	if (!sta_running(sta, "Failed to add namespace to STA subsystem"))
		return DOCA_ERROR_BAD_STATE;
	if (!sta_owns_be(sta, be_handle)) {
		SDK_LOG_ERR("Failed to add namespace to STA subsystem %s: the back-end belongs to another STA context "
			    "or was destroyed; create it with doca_sta_be_create() on this context",
			    subs_handle->nqn);
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* NSID 0 is not a namespace and 0xFFFFFFFF means "all namespaces" (NVMe) */
	if (fe_ns_id == 0 || fe_ns_id == UINT32_MAX || be_ns_id == 0 || be_ns_id == UINT32_MAX) {
		SDK_LOG_ERR("Failed to add namespace to STA subsystem %s: NSIDs are 1 to 0xfffffffe (front-end %u, "
			    "back-end %u)",
			    subs_handle->nqn, fe_ns_id, be_ns_id);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!doca_sta_is_logical_block_size_supported(ns_block_size)) {
		SDK_LOG_ERR("Failed to add namespace %u to STA subsystem %s: block size %u is not supported "
			    "(doca_sta_is_logical_block_size_supported(): 512 or 4096)",
			    fe_ns_id, subs_handle->nqn, ns_block_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (ns = subs_handle->ns; ns != NULL; ns = ns->next) {
		if (ns->fe_ns_id == fe_ns_id) {
			SDK_LOG_ERR("Failed to add namespace %u to STA subsystem %s: the subsystem has a namespace with "
				    "this NSID",
				    fe_ns_id, subs_handle->nqn);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	if (subs_handle->num_ns >= sta->caps->sta_max_ns_per_subsys) {
		SDK_LOG_ERR("Failed to add namespace %u to STA subsystem %s: it has its maximum of %u namespaces "
			    "(doca_sta_get_max_ns_per_subs())",
			    fe_ns_id, subs_handle->nqn, sta->caps->sta_max_ns_per_subsys);
		return DOCA_ERROR_FULL;
	}
	ns = calloc(1, sizeof(*ns));
	if (ns == NULL) {
		SDK_LOG_ERR("Failed to add namespace to STA subsystem: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	ns->sta = sta;
	ns->subs = subs_handle;
	ns->be = be_handle;
	ns->fe_ns_id = fe_ns_id;
	ns->be_ns_id = be_ns_id;
	ns->block_size = ns_block_size;
	sta_ctr_entries(ns->entries, ns_ctr_names, ns->ctr, STA_NS_CTRS);
	pthread_mutex_lock(&sta->leaf_lock); /* the EUs look namespaces up (sta_ns_get) */
	ns->next = subs_handle->ns;
	subs_handle->ns = ns;
	be_handle->num_ns++;
	pthread_mutex_unlock(&sta->leaf_lock);
	subs_handle->num_ns++;
	*ns_handle = ns;
	return DOCA_SUCCESS;
}

/* The namespace's link in its subsystem; NULL (logged) if it is not there. */
static struct doca_sta_ns_handle **find_ns(struct doca_sta_subs_handle *subs, const struct doca_sta_ns_handle *ns,
					   const char *what)
{
	struct doca_sta_ns_handle **pp;

	for (pp = &subs->ns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ns)
			return pp;
	SDK_LOG_ERR("%s: the namespace is not in subsystem %s (removed already, or added to another subsystem)", what,
		    subs->nqn);
	return NULL;
}

struct doca_sta_ns_handle *sta_ns_get(const struct doca_sta_subs_handle *subs, uint32_t nsid)
{
	struct doca_sta_ns_handle *ns;

	pthread_mutex_lock(&subs->sta->leaf_lock);
	for (ns = subs->ns; ns != NULL && ns->fe_ns_id != nsid; ns = ns->next)
		;
	if (ns != NULL)
		ns->inflight++;
	pthread_mutex_unlock(&subs->sta->leaf_lock);
	return ns;
}

void sta_ns_put(struct doca_sta_ns_handle *ns)
{
	struct doca_sta *sta = ns->sta;
	bool last;

	pthread_mutex_lock(&sta->leaf_lock);
	last = --ns->inflight == 0 && ns->removed;
	if (last && ns->free_when_idle) {
		ns->be->num_ns--;
		pthread_mutex_unlock(&sta->leaf_lock);
		free(ns);
		return;
	}
	pthread_mutex_unlock(&sta->leaf_lock);
	if (last) /* a remove-namespace task waits for this */
		softdoca_pe_notify(sta->ctx.pe);
}

uint32_t sta_ns_free_when_idle(struct doca_sta_ns_handle *ns)
{
	struct doca_sta *sta = ns->sta;
	uint32_t inflight;

	pthread_mutex_lock(&sta->leaf_lock);
	inflight = ns->inflight;
	ns->free_when_idle = inflight != 0;
	if (inflight == 0)
		ns->be->num_ns--;
	pthread_mutex_unlock(&sta->leaf_lock);
	if (inflight == 0)
		free(ns);
	return inflight;
}

bool sta_ns_unlink(struct doca_sta *sta, struct doca_sta_subs_handle *subs, struct doca_sta_ns_handle *ns, const char *what)
{
	struct doca_sta_ns_handle **pp;

	if (!sta_owns_subs(sta, subs)) {
		SDK_LOG_ERR("%s: the subsystem was destroyed", what);
		return false;
	}
	pp = find_ns(subs, ns, what);
	if (pp == NULL)
		return false;
	pthread_mutex_lock(&sta->leaf_lock);
	*pp = ns->next;
	ns->removed = true;
	pthread_mutex_unlock(&sta->leaf_lock);
	subs->num_ns--; /* (its back-end counts it until it is freed: its commands in flight reach it) */
	return true;
}

bool sta_ns_idle(struct doca_sta *sta, struct doca_sta_ns_handle *ns)
{
	bool idle;

	pthread_mutex_lock(&sta->leaf_lock);
	idle = ns->inflight == 0;
	pthread_mutex_unlock(&sta->leaf_lock);
	return idle;
}

doca_error_t doca_sta_subsystem_rm_ns(struct doca_sta_subs_handle *subs_handle, struct doca_sta_ns_handle *ns_handle)
{
	struct doca_sta *sta;
	uint32_t inflight;

	if (subs_handle == NULL || ns_handle == NULL) {
		SDK_LOG_ERR("Failed to remove STA namespace: %s is NULL", subs_handle == NULL ? "subs_handle" : "ns_handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	sta = subs_handle->sta;
	if (!sta_ns_unlink(sta, subs_handle, ns_handle, "Failed to remove STA namespace"))
		return DOCA_ERROR_NOT_FOUND;
	/* new commands already get Invalid Namespace; the last one in flight frees it */
	inflight = sta_ns_free_when_idle(ns_handle);
	if (inflight != 0)
		SDK_LOG_INFO("STA namespace removed from subsystem %s with %u commands in flight: it goes when they "
			     "complete (the remove-namespace task completes only then)",
			     subs_handle->nqn, inflight);
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_subsystem_task_rm_ns_alloc_init(struct doca_sta_subs_handle *subs_handle,
						      struct doca_sta_ns_handle *ns_handle, union doca_data user_data,
						      struct doca_sta_producer_task_send **task)
{
	struct doca_sta *sta;
	struct doca_sta_producer_task_send *t;

	if (subs_handle == NULL || ns_handle == NULL || task == NULL) {
		SDK_LOG_ERR("Failed to allocate remove-namespace task: %s is NULL",
			    subs_handle == NULL ? "subs_handle" : ns_handle == NULL ? "ns_handle" : "task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	sta = subs_handle->sta;
	if (!softdoca_ctx_tasks_configured(&sta->ctx, STA_TASK_RM_NS)) {
		SDK_LOG_ERR("Failed to allocate remove-namespace task: the task is not configured; call "
			    "doca_sta_subsystem_task_rm_ns_set_conf() before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (find_ns(subs_handle, ns_handle, "Failed to allocate remove-namespace task") == NULL)
		return DOCA_ERROR_NOT_FOUND;
	t = (struct doca_sta_producer_task_send *)softdoca_task_alloc(&sta->ctx, STA_TASK_RM_NS, user_data);
	if (t == NULL) {
		SDK_LOG_ERR("Failed to allocate remove-namespace task: all %u tasks are in use; free completed tasks "
			    "with doca_task_free()",
			    sta->ctx.pools[STA_TASK_RM_NS].capacity);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->subs = subs_handle;
	t->ns = ns_handle;
	t->beq = NULL;
	*task = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_ns_stats(struct doca_sta_subs_handle *subs_handle, struct doca_sta_ns_handle *ns_handle,
				   const struct doca_sta_eu_ctr_entry **entries, uint16_t *num_entries)
{
	if (subs_handle == NULL || ns_handle == NULL || entries == NULL || num_entries == NULL) {
		SDK_LOG_ERR("Failed to get STA namespace statistics: an argument is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (find_ns(subs_handle, ns_handle, "Failed to get STA namespace statistics") == NULL)
		return DOCA_ERROR_NOT_FOUND;
	*entries = ns_handle->entries;
	*num_entries = STA_NS_CTRS;
	return DOCA_SUCCESS;
}
