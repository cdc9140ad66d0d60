/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sta: the STA control context (one per NVMe-oF RDMA target).
 *
 * Call order (docs/sta.md): create on a device, connect to a PE, add the network devices,
 * register the pinned-memory allocator, set the IO thread count, events and task
 * configurations, then doca_ctx_start: STARTING, RUNNING at the next doca_pe_progress (the
 * start is asynchronous, as on BlueField-3). Subsystems, back-ends and namespaces are made
 * while RUNNING. The stop is asynchronous too: STOPPING until every IO context is IDLE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sta_priv.h"
#include "softhw/dpa/dpa.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(STA);

static const char *const eu_ctr_names[STA_EU_CTRS] = {
	"rx_capsules", "tx_responses", "rdma_reads", "rdma_writes", "nvme_submitted", "nvme_completed", "non_offload",
	"nvme_eu_reaped", "nvme_irqs",
};

static const struct softdoca_ctx_ops sta_ops;

static inline struct doca_sta *ctx_to_sta(struct doca_ctx *ctx)
{
	return (struct doca_sta *)ctx;
}

bool sta_running(const struct doca_sta *sta, const char *what)
{
	/* IO contexts ask from their own threads */
	enum doca_ctx_states state = __atomic_load_n(&sta->ctx.state, __ATOMIC_ACQUIRE);

	if (state == DOCA_CTX_STATE_RUNNING)
		return true;
	SDK_LOG_ERR("%s: the STA context is %s; start it with doca_ctx_start() and progress its PE until it is "
		    "RUNNING first",
		    what, softdoca_ctx_state_name(state));
	return false;
}

bool sta_has_dev(const struct doca_sta *sta, const struct doca_dev *dev)
{
	if (dev == sta->dev)
		return true;
	for (uint32_t i = 0; i < sta->num_devs; i++)
		if (sta->devs[i] == dev)
			return true;
	return false;
}

bool sta_owns_subs(const struct doca_sta *sta, const struct doca_sta_subs_handle *subs)
{
	pthread_mutex_t *lock = (pthread_mutex_t *)&sta->leaf_lock; /* IO threads ask too */
	bool owns = false;

	pthread_mutex_lock(lock);
	for (const struct doca_sta_subs_handle *s = sta->subsystems; s != NULL && !owns; s = s->next)
		owns = s == subs;
	pthread_mutex_unlock(lock);
	return owns;
}

bool sta_owns_be(const struct doca_sta *sta, const struct doca_sta_be_handle *be)
{
	for (const struct doca_sta_be_handle *b = sta->backends; b != NULL; b = b->next)
		if (b == be)
			return true;
	return false;
}

void sta_ctr_entries(struct doca_sta_eu_ctr_entry *e, const char *const *names, const uint64_t *vals, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		e[i] = (struct doca_sta_eu_ctr_entry){.name = names[i], .val = &vals[i]};
}

doca_error_t sta_data_path_missing(const char *call)
{
	SDK_LOG_ERR("%s: the STA data path is not implemented yet (QPs from RDMA-CM ids, capsules, NVMe queues); "
		    "see docs/sta.md",
		    call);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* ---- tasks: DOCA Core hands back (task, task user data, ctx user data) ---- */

static const struct sta_task_cbs *task_cbs(const struct doca_task *task)
{
	const struct doca_ctx *ctx = task->ctx;
	uint32_t type = (uint32_t)(task->pool - ctx->pools);

	if (ctx->ops == &sta_ops)
		return &((const struct doca_sta *)ctx)->task_cbs[type];
	return &((const struct doca_sta_io *)ctx)->task_cbs[type];
}

void sta_task_done(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	task_cbs(task)->done((struct doca_sta_producer_task_send *)task, task_ud);
}

void sta_task_error(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	task_cbs(task)->error((struct doca_sta_producer_task_send *)task, task_ud);
}

struct doca_task *doca_sta_producer_send_task_as_task(struct doca_sta_producer_task_send *task)
{
	return task != NULL ? &task->base : NULL;
}

/*
 * The removal tasks run when the PE executes them. A namespace leaves its subsystem at submit
 * (new commands get Invalid Namespace) and the task completes once the commands in flight on it
 * are done (ns_drained, polled by the PE; the last command notifies it).
 */
static bool ns_drained(struct softhw_work *work)
{
	struct doca_sta_producer_task_send *t = (struct doca_sta_producer_task_send *)work;

	return sta_ns_idle(ctx_to_sta(t->base.ctx), t->ns);
}

static doca_error_t sta_run_task(struct softhw_work *work)
{
	struct doca_sta_producer_task_send *t = (struct doca_sta_producer_task_send *)work;
	struct doca_sta *sta = ctx_to_sta(t->base.ctx);

	if (t->ns != NULL) {
		if (t->done == 0) /* not unlinked at submit (logged) */
			return DOCA_ERROR_NOT_FOUND;
		(void)sta_ns_free_when_idle(t->ns); /* (idle: the task ran once ns_drained) */
		return DOCA_SUCCESS;
	}
	for (struct doca_sta_be_handle *be = sta->backends; be != NULL; be = be->next) {
		for (struct doca_sta_be_q_handle **pp = &be->queues; *pp != NULL; pp = &(*pp)->next) {
			if (*pp == t->beq) {
				if (__atomic_load_n(&t->beq->owner, __ATOMIC_ACQUIRE) != NULL) {
					SDK_LOG_ERR("destroy-queue task: the back-end queue is driven by a running IO "
						    "context; stop that IO context first");
					return DOCA_ERROR_IN_USE;
				}
				*pp = t->beq->next;
				be->num_queues--;
				/* its time-out events not yet delivered would name the freed queue */
				if (sta_notes_drop_beq(sta, t->beq) != 0)
					SDK_LOG_INFO("destroy-queue task: the back-end queue's time-out events not yet "
						     "delivered are dropped");
				free(t->beq);
				return DOCA_SUCCESS;
			}
		}
	}
	SDK_LOG_ERR("destroy-queue task: the back-end queue was already destroyed");
	return DOCA_ERROR_NOT_FOUND;
}

static doca_error_t sta_prepare(struct doca_task *task)
{
	struct doca_sta_producer_task_send *t = (struct doca_sta_producer_task_send *)task;

	task->work.op = SOFTHW_OP_CALL;
	task->work.call.ready = NULL;
	task->work.call.run = sta_run_task;
	t->done = 0; /* a remove-namespace task: 1 once its namespace left the subsystem */
	if (t->ns != NULL && sta_ns_unlink(ctx_to_sta(task->ctx), t->subs, t->ns, "remove-namespace task")) {
		t->done = 1;
		task->work.call.ready = ns_drained;
	}
	return DOCA_SUCCESS;
}

/*
 * A stop flushed the task before it ran. A remove-namespace task had taken its namespace out
 * of the subsystem at submit: nothing else frees it now, so it goes here, or with its last
 * command still in flight (as doca_sta_subsystem_rm_ns does).
 */
static void sta_flushed(struct doca_task *task)
{
	struct doca_sta_producer_task_send *t = (struct doca_sta_producer_task_send *)task;

	if (t->ns == NULL || t->done == 0)
		return;
	(void)sta_ns_free_when_idle(t->ns);
	SDK_LOG_INFO("remove-namespace task flushed by the stop: the namespace had left its subsystem at submit, "
		     "and is freed");
}

/* ---- context states ---- */

static void free_eus(struct doca_sta *sta)
{
	if (sta->eu_ctr != NULL)
		sta->free(sta->eu_ctr);
	free(sta->eus);
	sta->eu_ctr = NULL;
	sta->eus = NULL;
	sta->num_eus = 0;
}

/* The EUs of the offload: a completion, a transmit and a back-end queue EU per IO thread. */
static doca_error_t make_eus(struct doca_sta *sta)
{
	static const char *const type_names[STA_EU_TYPES] = {"comp", "tx", "beq"};
	uint32_t n = (uint32_t)sta->max_sta_io * STA_EU_TYPES;
	uint64_t phys = 0;

	sta->eus = calloc(n, sizeof(*sta->eus));
	/* counters live where the DPA writes them: memory of the registered allocator */
	sta->eu_ctr = sta->zmalloc((size_t)n * STA_EU_CTRS * sizeof(uint64_t), 64, &phys);
	if (sta->eus == NULL || sta->eu_ctr == NULL) {
		free_eus(sta);
		SDK_LOG_ERR("Failed to start STA context: out of memory for %u EUs (the registered allocator returned "
			    "NULL or the process is out of memory)",
			    n);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (sta->vtophys(sta->eu_ctr, n * STA_EU_CTRS * sizeof(uint64_t)) == DOCA_STA_VTOPHYS_ERROR) {
		free_eus(sta);
		SDK_LOG_ERR("Failed to start STA context: the registered vtophys callback cannot translate memory its "
			    "allocator returned; register callbacks that work on the same memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct doca_sta_eu_handle *eu = &sta->eus[i];

		eu->sta = sta;
		eu->type = (enum dpa_sta_eu_type)(DOCA_STA_EU_COMP + i % STA_EU_TYPES);
		eu->id = (uint16_t)i;
		eu->port = 0;
		snprintf(eu->name, sizeof(eu->name), "%s_%u", type_names[i % STA_EU_TYPES], i / STA_EU_TYPES);
		eu->ctr = sta->eu_ctr + (size_t)i * STA_EU_CTRS;
		sta_ctr_entries(eu->entries, eu_ctr_names, eu->ctr, STA_EU_CTRS);
	}
	sta->num_eus = n;
	return DOCA_SUCCESS;
}

static doca_error_t sta_start(struct doca_ctx *ctx)
{
	struct doca_sta *sta = ctx_to_sta(ctx);
	doca_error_t err;

	if (sta->zmalloc == NULL) {
		SDK_LOG_ERR("Failed to start STA context: no memory allocator; call doca_sta_mem_allocator_register() "
			    "before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	err = make_eus(sta);
	if (err != DOCA_SUCCESS)
		return err;
	/* the data path's EUs: the device's soft DPA (BlueField-3 has one) */
	if (sta->dev->dpa == NULL || sta->dev->dpa->open(sta->dev->devinfo->fn, &sta->dpa) != DOCA_SUCCESS) {
		sta->dpa = NULL;
		SDK_LOG_WARN("STA context: the device's DPA cannot be opened; IO contexts will not start (no EUs for "
			     "the data path)");
	}
	softdoca_pe_notify(ctx->pe);
	return DOCA_ERROR_IN_PROGRESS; /* RUNNING at the next progress */
}

static bool ios_idle(struct doca_sta *sta)
{
	bool idle = true;

	pthread_mutex_lock(&sta->io_lock);
	for (const struct doca_sta_io *io = sta->ios; io != NULL && idle; io = io->next)
		idle = __atomic_load_n(&io->ctx.state, __ATOMIC_ACQUIRE) == DOCA_CTX_STATE_IDLE;
	pthread_mutex_unlock(&sta->io_lock);
	return idle;
}

static doca_error_t sta_stop(struct doca_ctx *ctx)
{
	ctx_to_sta(ctx)->told_waiting_io = false;
	softdoca_pe_notify(ctx->pe);
	return DOCA_ERROR_IN_PROGRESS; /* IDLE once the IO contexts are (sta_progress) */
}

static void note_post(struct doca_sta *sta, struct sta_cqe_note *n)
{
	bool drop = false, first = false;

	n->next = NULL;
	pthread_mutex_lock(&sta->leaf_lock);
	if (n->kind == STA_NOTE_CQE && sta->num_cqe_notes >= STA_CQE_NOTES_MAX) {
		drop = true;
		first = !sta->overflowing;
		sta->overflowing = true;
	} else {
		sta->num_cqe_notes += n->kind == STA_NOTE_CQE;
		if (sta->notes_tail != NULL)
			sta->notes_tail->next = n;
		else
			sta->notes = n;
		sta->notes_tail = n;
	}
	pthread_mutex_unlock(&sta->leaf_lock);
	if (drop) {
		if (first)
			SDK_LOG_WARN("STA: %u CQE-notify events wait for the STA context's PE; the next ones are dropped "
				     "until it takes some (progress the PE of the STA context: doca_pe_progress())",
				     STA_CQE_NOTES_MAX);
		free(n);
		return;
	}
	softdoca_pe_notify(sta->ctx.pe);
}

void sta_cqe_notify(struct doca_sta *sta, const struct doca_sta_event_cqe_notify *ev)
{
	struct sta_cqe_note *n;

	if (sta->cqe_notify_cb == NULL || (n = calloc(1, sizeof(*n))) == NULL)
		return;
	n->kind = STA_NOTE_CQE;
	n->ev = *ev;
	note_post(sta, n);
}

void sta_be_timeout(struct doca_sta *sta, const struct doca_sta_be_q_handle *beq)
{
	struct sta_cqe_note *n;

	if (sta->be_timeout_cb == NULL || (n = calloc(1, sizeof(*n))) == NULL)
		return;
	n->kind = STA_NOTE_BE_TIMEOUT;
	n->be = (struct doca_sta_event_be_timeout){.be = beq->be, .beq = beq};
	note_post(sta, n);
}

void sta_eu_error(struct doca_sta *sta, const struct doca_sta_eu_handle *eu, bool fatal)
{
	struct sta_cqe_note *n;

	if (sta->eu_err_cb == NULL || (n = calloc(1, sizeof(*n))) == NULL)
		return;
	n->kind = STA_NOTE_EU_ERR;
	n->eu = (struct doca_sta_event_eu_err){.eu = eu, .fatal = fatal};
	note_post(sta, n);
}

uint32_t sta_notes_forget_qp(struct doca_sta *sta, const struct doca_sta_qp_handle *qp)
{
	uint32_t forgot = 0;

	pthread_mutex_lock(&sta->leaf_lock);
	for (struct sta_cqe_note *n = sta->notes; n != NULL; n = n->next) {
		if (n->kind == STA_NOTE_CQE && n->ev.qp == qp) {
			n->ev.qp = NULL; /* what the event says is still true; the handle is gone */
			forgot++;
		}
	}
	pthread_mutex_unlock(&sta->leaf_lock);
	return forgot;
}

uint32_t sta_notes_drop_beq(struct doca_sta *sta, const struct doca_sta_be_q_handle *beq)
{
	uint32_t dropped = 0;

	pthread_mutex_lock(&sta->leaf_lock);
	sta->notes_tail = NULL;
	for (struct sta_cqe_note **pp = &sta->notes; *pp != NULL;) {
		struct sta_cqe_note *n = *pp;

		if (n->kind == STA_NOTE_BE_TIMEOUT && n->be.beq == beq) {
			*pp = n->next;
			free(n);
			dropped++;
		} else {
			sta->notes_tail = n;
			pp = &n->next;
		}
	}
	pthread_mutex_unlock(&sta->leaf_lock);
	return dropped;
}

void sta_notes_forget_subs(struct doca_sta *sta, const struct doca_sta_subs_handle *subs)
{
	pthread_mutex_lock(&sta->leaf_lock);
	for (struct sta_cqe_note *n = sta->notes; n != NULL; n = n->next)
		if (n->kind == STA_NOTE_CQE && n->ev.subs == subs)
			n->ev.subs = NULL; /* the QP is still there; its subsystem is not */
	pthread_mutex_unlock(&sta->leaf_lock);
}

bool sta_notes_keep_qp(struct doca_sta *sta, const struct doca_sta_qp_handle *qp)
{
	bool keep;

	pthread_mutex_lock(&sta->leaf_lock);
	keep = sta->delivering_qp == qp;
	if (keep)
		sta->free_delivered = true;
	pthread_mutex_unlock(&sta->leaf_lock);
	return keep;
}

/*
 * One event to the application, from doca_pe_progress of the STA context. A CQE-notify event's
 * QP may be destroyed by its IO thread while the callback runs: its memory stays until the
 * callback returned (sta_notes_keep_qp), then goes here.
 */
static bool deliver_note(struct doca_sta *sta)
{
	struct sta_cqe_note *n;
	void *gone = NULL;

	pthread_mutex_lock(&sta->leaf_lock);
	n = sta->notes;
	if (n != NULL) {
		sta->notes = n->next;
		if (sta->notes == NULL)
			sta->notes_tail = NULL;
		if (n->kind == STA_NOTE_CQE) {
			sta->delivering_qp = n->ev.qp;
			if (--sta->num_cqe_notes < STA_CQE_NOTES_MAX / 2)
				sta->overflowing = false; /* (the next overflow is logged again) */
		}
	}
	pthread_mutex_unlock(&sta->leaf_lock);
	if (n == NULL)
		return false;
	if (n->kind == STA_NOTE_BE_TIMEOUT)
		sta->be_timeout_cb(&n->be, sta->be_timeout_ud);
	else if (n->kind == STA_NOTE_EU_ERR)
		sta->eu_err_cb(&n->eu, sta->eu_err_ud);
	else
		sta->cqe_notify_cb(&n->ev, sta->cqe_notify_ud);
	pthread_mutex_lock(&sta->leaf_lock);
	if (sta->free_delivered)
		gone = (void *)sta->delivering_qp;
	sta->delivering_qp = NULL;
	sta->free_delivered = false;
	pthread_mutex_unlock(&sta->leaf_lock);
	free(gone);
	free(n);
	return true;
}

static bool sta_progress(struct doca_ctx *ctx)
{
	struct doca_sta *sta = ctx_to_sta(ctx);

	if (deliver_note(sta))
		return true;
	if (ctx->state == DOCA_CTX_STATE_STARTING) {
		softdoca_ctx_set_state(ctx, DOCA_CTX_STATE_RUNNING);
		return true;
	}
	if (ctx->state == DOCA_CTX_STATE_STOPPING && ctx->lib_busy && ctx->inflight == 0) {
		if (!ios_idle(sta)) {
			if (!sta->told_waiting_io)
				SDK_LOG_WARN("STA context stays STOPPING until its IO contexts are stopped; call "
					     "doca_ctx_stop() on each doca_sta_io_as_ctx()");
			sta->told_waiting_io = true;
			return false;
		}
		/* an event an EU posted before its IO context went IDLE, after the look above, names
		 * an EU: delivered before the EUs go (none comes once every IO context is IDLE) */
		pthread_mutex_lock(&sta->leaf_lock);
		bool late = sta->notes != NULL;
		pthread_mutex_unlock(&sta->leaf_lock);
		if (late)
			return true;
		free_eus(sta);
		if (sta->dpa != NULL)
			sta->dev->dpa->close(sta->dpa);
		sta->dpa = NULL;
		ctx->lib_busy = false;
		return true;
	}
	return false;
}

static bool sta_arm(struct doca_ctx *ctx)
{
	struct doca_sta *sta = ctx_to_sta(ctx);
	bool notes;

	pthread_mutex_lock(&sta->leaf_lock);
	notes = sta->notes != NULL;
	pthread_mutex_unlock(&sta->leaf_lock);
	return notes || ctx->state == DOCA_CTX_STATE_STARTING ||
	       (ctx->state == DOCA_CTX_STATE_STOPPING && ctx->lib_busy && ios_idle(ctx_to_sta(ctx)));
}

static const struct softdoca_ctx_ops sta_ops = {
	.name = "STA",
	.start = sta_start,
	.stop = sta_stop,
	.progress = sta_progress,
	.arm = sta_arm,
	.prepare = sta_prepare,
	.flushed = sta_flushed,
};

/* ---- creation ---- */

static const char *profile_of(const struct doca_devinfo *devinfo)
{
	return devinfo->fn->card->profile_name != NULL ? devinfo->fn->card->profile_name : "unknown";
}

doca_error_t doca_sta_cap_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("STA capability query: devinfo is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_devinfo_caps(devinfo)->sta) {
		SDK_LOG_INFO("STA is not supported on device %s: its card is a %s; STA needs a BlueField-3",
			     devinfo->fn->pci_addr, profile_of(devinfo));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

/* A duration in ms from the environment (1 ms to 1 h), else def. */
static uint32_t env_ms(const char *name, uint32_t def)
{
	const char *env = getenv(name);
	char *end;
	unsigned long v = env != NULL ? strtoul(env, &end, 10) : 0;

	return env != NULL && *env != 0 && *end == 0 && v > 0 && v <= 3600000 ? (uint32_t)v : def;
}

doca_error_t doca_sta_create(struct doca_dev *dev, struct doca_sta **sta)
{
	struct doca_sta *s;

	if (dev == NULL || sta == NULL) {
		SDK_LOG_ERR("Failed to create STA context: %s is NULL", dev == NULL ? "dev" : "sta output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->sta) {
		SDK_LOG_ERR("Failed to create STA context: device %s is on a %s, which has no STA; STA needs a "
			    "BlueField-3 (check doca_sta_cap_is_supported() when choosing the device)",
			    dev->devinfo->fn->pci_addr, profile_of(dev->devinfo));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		SDK_LOG_ERR("Failed to create STA context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&s->ctx, dev, &sta_ops);
	s->dev = dev;
	s->caps = softdoca_dev_caps(dev);
	s->max_sta_io = 1;
	s->be_timeout_ms = env_ms("SOFTDOCA_STA_BE_TIMEOUT_MS", STA_BE_TIMEOUT_MS); /* tests: a shorter wait */
	s->nonoff_warn_ms = env_ms("SOFTDOCA_STA_NONOFF_WARN_MS", STA_NONOFF_WARN_MS);
	s->eu_slice_ms = env_ms("SOFTDOCA_STA_EU_SLICE_MS", STA_EU_SLICE_MS);
	/* 0: the disk's controller thread executes the back-end queues (before 2026-12-03's issue 14) */
	s->eu_uring = getenv("SOFTDOCA_STA_EU_URING") == NULL || strcmp(getenv("SOFTDOCA_STA_EU_URING"), "0") != 0;
	pthread_mutex_init(&s->io_lock, NULL);
	pthread_mutex_init(&s->leaf_lock, NULL);
	*sta = s;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_destroy(struct doca_sta *sta)
{
	if (sta == NULL) {
		SDK_LOG_ERR("Failed to destroy STA context: sta is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (sta->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy STA context: it is %s; call doca_ctx_stop() and progress the PE until "
			    "it is IDLE",
			    softdoca_ctx_state_name(sta->ctx.state));
		return DOCA_ERROR_BAD_STATE;
	}
	if (sta->num_io != 0 || sta->num_subsys != 0 || sta->num_be != 0) {
		SDK_LOG_ERR("Failed to destroy STA context: it still has %u IO contexts, %u subsystems and %u "
			    "back-ends; destroy them first (doca_sta_io_destroy, doca_sta_subsystem_destroy, "
			    "doca_sta_be_destroy)",
			    sta->num_io, sta->num_subsys, sta->num_be);
		return DOCA_ERROR_IN_USE;
	}
	softdoca_ctx_fini(&sta->ctx);
	while (sta->notes != NULL) { /* events never progressed */
		struct sta_cqe_note *n = sta->notes;

		sta->notes = n->next;
		free(n);
	}
	pthread_mutex_destroy(&sta->io_lock);
	pthread_mutex_destroy(&sta->leaf_lock);
	free(sta);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_sta_as_ctx(struct doca_sta *sta)
{
	return sta != NULL ? &sta->ctx : NULL;
}

/* The configuration calls: before doca_ctx_start only. */
static bool idle(const struct doca_sta *sta, const char *what, const char *call)
{
	if (sta->ctx.state == DOCA_CTX_STATE_IDLE)
		return true;
	SDK_LOG_ERR("Failed to %s: the STA context is %s; call %s() before doca_ctx_start()", what,
		    softdoca_ctx_state_name(sta->ctx.state), call);
	return false;
}

doca_error_t doca_sta_add_dev(struct doca_sta *sta, struct doca_dev *dev)
{
	if (sta == NULL || dev == NULL) {
		SDK_LOG_ERR("Failed to add device to STA: %s is NULL", sta == NULL ? "sta" : "dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!idle(sta, "add device to STA", "doca_sta_add_dev"))
		return DOCA_ERROR_BAD_STATE;
	for (uint32_t i = 0; i < sta->num_devs; i++) {
		if (sta->devs[i] == dev) {
			SDK_LOG_ERR("Failed to add device %s to STA: it was already added", dev->devinfo->fn->pci_addr);
			return DOCA_ERROR_ALREADY_EXIST;
		}
	}
	if (!softdoca_dev_caps(dev)->sta) {
		SDK_LOG_ERR("Failed to add device %s to STA: it is on a %s, which has no STA; STA needs a BlueField-3",
			    dev->devinfo->fn->pci_addr, profile_of(dev->devinfo));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (sta->num_devs >= sta->caps->sta_max_devs || sta->num_devs >= STA_MAX_DEVS) {
		SDK_LOG_ERR("Failed to add device %s to STA: the STA context has its maximum of %u devices "
			    "(doca_sta_get_max_devs())",
			    dev->devinfo->fn->pci_addr, sta->caps->sta_max_devs);
		return DOCA_ERROR_FULL;
	}
	sta->devs[sta->num_devs++] = dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_set_max_sta_io(struct doca_sta *sta, uint16_t max_io_num)
{
	if (sta == NULL) {
		SDK_LOG_ERR("Failed to set STA IO thread count: sta is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!idle(sta, "set STA IO thread count", "doca_sta_set_max_sta_io"))
		return DOCA_ERROR_BAD_STATE;
	if (max_io_num < sta->num_io) {
		SDK_LOG_ERR("Failed to set STA IO thread count to %u: %u IO contexts exist; destroy some first",
			    max_io_num, sta->num_io);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (max_io_num == 0 || max_io_num > sta->caps->sta_max_io_threads) {
		SDK_LOG_ERR("Failed to set STA IO thread count to %u: the device allows 1 to %u "
			    "(doca_sta_get_max_io_threads())",
			    max_io_num, sta->caps->sta_max_io_threads);
		return DOCA_ERROR_INVALID_VALUE;
	}
	sta->max_sta_io = max_io_num;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_get_max_sta_io(const struct doca_sta *sta, uint16_t *max_io_num)
{
	if (sta == NULL || max_io_num == NULL) {
		SDK_LOG_ERR("Failed to get STA IO thread count: %s is NULL", sta == NULL ? "sta" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*max_io_num = sta->max_sta_io;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_mem_allocator_register(const struct doca_sta *sta, doca_sta_zmalloc_cb_t alloc_cb,
					     doca_sta_free_cb_t free_cb, doca_sta_vtophys_cb_t vtophys_cb)
{
	struct doca_sta *s = (struct doca_sta *)sta; /* DOCA declares it const; the context keeps them */

	if (sta == NULL || alloc_cb == NULL || free_cb == NULL || vtophys_cb == NULL) {
		SDK_LOG_ERR("Failed to register STA memory allocator: %s is NULL",
			    sta == NULL ? "sta" : alloc_cb == NULL ? "alloc_cb" : free_cb == NULL ? "free_cb" : "vtophys_cb");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!idle(sta, "register STA memory allocator", "doca_sta_mem_allocator_register"))
		return DOCA_ERROR_BAD_STATE;
	s->zmalloc = alloc_cb;
	s->free = free_cb;
	s->vtophys = vtophys_cb;
	return DOCA_SUCCESS;
}

/* ---- task configurations ---- */

static doca_error_t conf_task(struct doca_sta *sta, uint32_t type, const char *name, uint32_t num,
			      doca_sta_task_completion_cb_t done, doca_sta_task_completion_cb_t error, const char *call)
{
	doca_error_t err;

	if (sta == NULL || done == NULL || error == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call,
			    sta == NULL ? "sta" : done == NULL ? "completion callback" : "error callback");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!idle(sta, "configure STA tasks", call))
		return DOCA_ERROR_BAD_STATE;
	if (softdoca_ctx_tasks_configured(&sta->ctx, type) && sta->ctx.pools[type].allocated) {
		SDK_LOG_ERR("%s: tasks of the previous configuration are still allocated; free them with "
			    "doca_task_free() first",
			    call);
		return DOCA_ERROR_IN_USE;
	}
	err = softdoca_ctx_conf_tasks(&sta->ctx, type, name, sizeof(struct doca_sta_producer_task_send),
				      sta_task_done, sta_task_error, num);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("%s: out of memory for %u tasks", call, num);
		return err;
	}
	sta->task_cbs[type] = (struct sta_task_cbs){.done = done, .error = error, .set = true};
	return DOCA_SUCCESS;
}

/* One task per object it can remove: the pools never run dry. */
doca_error_t doca_sta_subsystem_task_rm_ns_set_conf(struct doca_sta *sta, doca_sta_task_completion_cb_t task_completion_cb,
						    doca_sta_task_completion_cb_t task_error_cb)
{
	return conf_task(sta, STA_TASK_RM_NS, "remove-namespace",
			 sta != NULL ? sta->caps->sta_max_subsys * sta->caps->sta_max_ns_per_subsys : 0,
			 task_completion_cb, task_error_cb, "doca_sta_subsystem_task_rm_ns_set_conf");
}

doca_error_t doca_sta_be_task_destroy_queue_set_conf(struct doca_sta *sta, doca_sta_task_completion_cb_t task_completion_cb,
						     doca_sta_task_completion_cb_t task_error_cb)
{
	return conf_task(sta, STA_TASK_DESTROY_BEQ, "destroy-queue",
			 sta != NULL ? sta->caps->sta_max_be * sta->caps->sta_max_qs_per_be : 0, task_completion_cb,
			 task_error_cb, "doca_sta_be_task_destroy_queue_set_conf");
}

/* ---- events of the control context ---- */

doca_error_t doca_sta_event_be_timeout_register_cb(struct doca_sta *sta, doca_sta_event_be_timeout_cb_t event_cb,
						   union doca_data user_data)
{
	if (sta == NULL || event_cb == NULL) {
		SDK_LOG_ERR("Failed to register back-end time-out event: %s is NULL", sta == NULL ? "sta" : "event_cb");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!idle(sta, "register back-end time-out event", "doca_sta_event_be_timeout_register_cb"))
		return DOCA_ERROR_BAD_STATE;
	sta->be_timeout_cb = event_cb;
	sta->be_timeout_ud = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_event_eu_err_register_cb(struct doca_sta *sta, doca_sta_event_eu_err_cb_t event_cb,
					       union doca_data user_data)
{
	if (sta == NULL || event_cb == NULL) {
		SDK_LOG_ERR("Failed to register EU error event: %s is NULL", sta == NULL ? "sta" : "event_cb");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!idle(sta, "register EU error event", "doca_sta_event_eu_err_register_cb"))
		return DOCA_ERROR_BAD_STATE;
	sta->eu_err_cb = event_cb;
	sta->eu_err_ud = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_sta_event_cqe_notify_register_cb(struct doca_sta *sta, doca_sta_event_cqe_notify_cb_t event_cb,
						   union doca_data user_data)
{
	if (sta == NULL || event_cb == NULL) {
		SDK_LOG_ERR("Failed to register CQE notify event: %s is NULL", sta == NULL ? "sta" : "event_cb");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!idle(sta, "register CQE notify event", "doca_sta_event_cqe_notify_register_cb"))
		return DOCA_ERROR_BAD_STATE;
	sta->cqe_notify_cb = event_cb;
	sta->cqe_notify_ud = user_data;
	return DOCA_SUCCESS;
}
