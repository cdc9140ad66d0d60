/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPA completion contexts (docs/dpa.md). A completion context is a queue of elements that the
 * soft NIC (an RDMA context whose datapath is on this DPA) or async ops push, from any thread,
 * and that device code reads with doca_dpa_dev_get_completion / _ack. While armed (after
 * start, and again after doca_dpa_dev_completion_request_notification) the next element
 * activates the attached DPA thread once; elements that arrive while it is disarmed wait for
 * the device to look.
 *
 * A device loop that polls an empty queue sleeps up to POLL_WAIT_NS per poll on the queue's
 * condition (a push wakes it): the EU does not spin, and a thread being stopped leaves the
 * loop there (softdoca_dpa_thread_poll_point). The first time a DPA thread's activation finds
 * a queue empty the call returns at once: a thread that takes what is there and then asks for
 * a notification gives its EU back without waiting, and its next activation can run on the
 * EU that queued the element (softhw hand_off) instead of waking another.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA_COMPLETION);

#define POLL_WAIT_NS 1000000L

struct doca_dpa_completion {
	struct softdoca_dpa_comp_base base; /* first: other libraries push through it */
	struct doca_dpa *dpa;
	struct doca_dpa_thread *thread;     /* NULL: nobody is activated, the device polls */
	uint32_t queue_size;
	uint64_t handle;
	pthread_mutex_t lock;
	pthread_cond_t arrived;
	struct softdoca_dpa_comp_elem *ring;
	uint64_t produced;                  /* elements pushed */
	uint64_t read;                      /* elements handed to the device */
	uint64_t acked;                     /* elements the device gave back (free slots) */
	bool armed;
	bool overrun_told;
	struct doca_dpa_completion *next;   /* every started context: element lookups */
};

/* Started completion contexts of every DPA context: an element is checked against them. */
static pthread_mutex_t started_lock = PTHREAD_MUTEX_INITIALIZER;
static struct doca_dpa_completion *started;

static uint32_t round_pow2(uint32_t v)
{
	uint32_t p = 1;

	while (p < v && p < (1U << 31))
		p <<= 1;
	return p;
}

/* ---- pushing (any thread) ---- */

static bool comp_push(struct softdoca_dpa_comp_base *b, const struct softdoca_dpa_comp_elem *elem)
{
	struct doca_dpa_completion *c = (struct doca_dpa_completion *)b;
	struct doca_dpa_thread *wake = NULL;
	struct timespec ts;
	uint64_t now;
	bool told;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	pthread_mutex_lock(&c->lock);
	if (c->produced - c->acked >= c->queue_size) {
		told = c->overrun_told;
		c->overrun_told = true;
		pthread_mutex_unlock(&c->lock);
		if (!told)
			SDK_LOG_ERR("DPA completion context overrun: %u elements not acknowledged; the device must "
				    "call doca_dpa_dev_completion_ack() (or create it with a larger queue_size); the "
				    "element is dropped and the DPA context is now in error",
				    c->queue_size);
		softdoca_dpa_set_fatal(c->dpa, DOCA_ERROR_FULL);
		return false;
	}
	c->ring[c->produced % c->queue_size] = *elem;
	c->ring[c->produced % c->queue_size].timestamp = now;
	c->produced++;
	if (c->armed && c->thread != NULL) {
		c->armed = false;
		wake = c->thread;
	}
	pthread_cond_broadcast(&c->arrived);
	pthread_mutex_unlock(&c->lock);
	if (wake != NULL)
		softdoca_dpa_thread_activate(wake);
	return true;
}

/* ---- host API ---- */

doca_error_t doca_dpa_completion_create(struct doca_dpa *dpa, unsigned int queue_size,
					struct doca_dpa_completion **dpa_comp)
{
	struct doca_dpa_completion *c;
	pthread_condattr_t attr;

	if (dpa == NULL || dpa_comp == NULL) {
		SDK_LOG_ERR("Failed to create DPA completion context: %s is NULL", dpa == NULL ? "dpa" : "dpa_comp");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (queue_size == 0 || queue_size > (1U << 24)) {
		SDK_LOG_ERR("Failed to create DPA completion context: queue_size %u is not in [1, 2^24]", queue_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		SDK_LOG_ERR("Failed to create DPA completion context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	c->queue_size = round_pow2(queue_size);
	c->ring = calloc(c->queue_size, sizeof(*c->ring));
	if (c->ring == NULL) {
		free(c);
		SDK_LOG_ERR("Failed to create DPA completion context: out of memory for %u elements", queue_size);
		return DOCA_ERROR_NO_MEMORY;
	}
	c->dpa = dpa;
	c->base.dpa = dpa;
	c->base.push = comp_push;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&c->arrived, &attr);
	pthread_condattr_destroy(&attr);
	dpa->num_comps++;
	*dpa_comp = c;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_completion_destroy(struct doca_dpa_completion *dpa_comp)
{
	if (dpa_comp == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA completion context: dpa_comp is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (__atomic_load_n(&dpa_comp->base.users, __ATOMIC_ACQUIRE) != 0) {
		SDK_LOG_ERR("Failed to destroy DPA completion context: %u RDMA contexts or async ops are attached to "
			    "it; destroy them first",
			    dpa_comp->base.users);
		return DOCA_ERROR_IN_USE;
	}
	/* destroying a started one stops it first (NVIDIA's DPA samples destroy without a stop) */
	if (dpa_comp->base.started)
		doca_dpa_completion_stop(dpa_comp);
	dpa_comp->dpa->num_comps--;
	pthread_cond_destroy(&dpa_comp->arrived);
	pthread_mutex_destroy(&dpa_comp->lock);
	free(dpa_comp->ring);
	free(dpa_comp);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_completion_get_queue_size(struct doca_dpa_completion *dpa_comp, unsigned int *queue_size)
{
	if (dpa_comp == NULL || queue_size == NULL) {
		SDK_LOG_ERR("Failed to get DPA completion queue size: %s is NULL",
			    dpa_comp == NULL ? "dpa_comp" : "queue_size");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*queue_size = dpa_comp->queue_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_completion_set_thread(struct doca_dpa_completion *dpa_comp, struct doca_dpa_thread *dpa_thread)
{
	if (dpa_comp == NULL || dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to attach DPA thread to completion context: %s is NULL",
			    dpa_comp == NULL ? "dpa_comp" : "dpa_thread");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa_comp->base.started) {
		SDK_LOG_ERR("Failed to attach DPA thread to completion context: it is started; attach before "
			    "doca_dpa_completion_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (softdoca_dpa_thread_dpa(dpa_thread) != dpa_comp->dpa) {
		SDK_LOG_ERR("Failed to attach DPA thread to completion context: the thread belongs to another DPA "
			    "context; create both on the same doca_dpa");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa_comp->thread = dpa_thread;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_completion_get_thread(struct doca_dpa_completion *dpa_comp, struct doca_dpa_thread **dpa_thread)
{
	if (dpa_comp == NULL || dpa_thread == NULL) {
		SDK_LOG_ERR("Failed to get DPA thread of completion context: %s is NULL",
			    dpa_comp == NULL ? "dpa_comp" : "dpa_thread");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dpa_thread = dpa_comp->thread;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_completion_start(struct doca_dpa_completion *dpa_comp)
{
	struct doca_dpa *dpa;
	doca_error_t err;

	if (dpa_comp == NULL) {
		SDK_LOG_ERR("Failed to start DPA completion context: dpa_comp is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa = dpa_comp->dpa;
	if (dpa_comp->base.started) {
		SDK_LOG_ERR("Failed to start DPA completion context: it is already started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to start DPA completion context: its DPA context is not started; call "
			    "doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (dpa_comp->thread != NULL && !softdoca_dpa_thread_started(dpa_comp->thread)) {
		SDK_LOG_ERR("Failed to start DPA completion context: its thread is not started; call "
			    "doca_dpa_thread_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	err = dpa->base.dev->dpa->handle_add(dpa->base.hw, SOFTDOCA_DPA_HANDLE_COMP, dpa_comp, &dpa_comp->handle);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start DPA completion context: %s", doca_error_get_descr(err));
		return err;
	}
	pthread_mutex_lock(&dpa_comp->lock);
	dpa_comp->produced = dpa_comp->read = dpa_comp->acked = 0;
	dpa_comp->armed = true;
	dpa_comp->overrun_told = false;
	pthread_mutex_unlock(&dpa_comp->lock);
	pthread_mutex_lock(&started_lock);
	dpa_comp->next = started;
	started = dpa_comp;
	pthread_mutex_unlock(&started_lock);
	dpa_comp->base.started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_completion_stop(struct doca_dpa_completion *dpa_comp)
{
	struct doca_dpa_completion **pp;

	if (dpa_comp == NULL) {
		SDK_LOG_ERR("Failed to stop DPA completion context: dpa_comp is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa_comp->base.started) {
		SDK_LOG_ERR("Failed to stop DPA completion context: it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (__atomic_load_n(&dpa_comp->base.users, __ATOMIC_ACQUIRE) != 0) {
		SDK_LOG_ERR("Failed to stop DPA completion context: %u RDMA contexts or async ops are attached to it; "
			    "destroy them first",
			    dpa_comp->base.users);
		return DOCA_ERROR_IN_USE;
	}
	if (dpa_comp->dpa->base.hw != NULL)
		dpa_comp->dpa->base.dev->dpa->handle_remove(dpa_comp->dpa->base.hw, dpa_comp->handle);
	pthread_mutex_lock(&started_lock);
	for (pp = &started; *pp != NULL && *pp != dpa_comp; pp = &(*pp)->next)
		;
	if (*pp != NULL)
		*pp = dpa_comp->next;
	pthread_mutex_unlock(&started_lock);
	dpa_comp->base.started = false;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_completion_get_dpa_handle(struct doca_dpa_completion *dpa_comp,
						doca_dpa_dev_completion_t *handle)
{
	if (dpa_comp == NULL || handle == NULL) {
		SDK_LOG_ERR("Failed to get DPA handle of completion context: %s is NULL",
			    dpa_comp == NULL ? "dpa_comp" : "handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa_comp->base.started) {
		SDK_LOG_ERR("Failed to get DPA handle of completion context: it is not started; call "
			    "doca_dpa_completion_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	*handle = dpa_comp->handle;
	return DOCA_SUCCESS;
}

/* ---- device side (host callbacks, on an EU) ---- */

static struct doca_dpa_completion *lookup(struct doca_dpa *dpa, uint64_t handle, const char *call)
{
	struct doca_dpa_completion *c =
		dpa->base.dev->dpa->handle_lookup(dpa->base.hw, SOFTDOCA_DPA_HANDLE_COMP, handle);

	if (c == NULL) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to %s(): not a started completion context of this DPA "
			    "context (doca_dpa_completion_get_dpa_handle() of a completion created on the same "
			    "doca_dpa); the DPA context is now in error",
			    (unsigned long long)handle, call);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
	}
	return c;
}

int softdoca_dpa_completion_get(struct doca_dpa *dpa, uint64_t handle, uint64_t *elem)
{
	struct doca_dpa_completion *c = lookup(dpa, handle, "doca_dpa_dev_get_completion");
	int found = 0;

	if (c == NULL)
		return 0;
	pthread_mutex_lock(&c->lock);
	for (int pass = 0; pass < 2 && !found; pass++) {
		if (c->read < c->acked)
			c->read = c->acked;
		if (c->read < c->produced) {
			*elem = (uint64_t)(uintptr_t)&c->ring[c->read % c->queue_size];
			c->read++;
			found = 1;
		} else if (pass == 0 && softdoca_dpa_current_seen_empty(handle)) {
			/* nothing yet: a device loop polling here sleeps until a push or a short while */
			struct timespec until;

			clock_gettime(CLOCK_MONOTONIC, &until);
			until.tv_nsec += POLL_WAIT_NS;
			until.tv_sec += until.tv_nsec / 1000000000L;
			until.tv_nsec %= 1000000000L;
			pthread_cond_timedwait(&c->arrived, &c->lock, &until);
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (!found)
		softdoca_dpa_thread_poll_point();
	return found;
}

bool softdoca_dpa_completion_elem(struct doca_dpa *dpa, uint64_t elem, struct softdoca_dpa_comp_elem *out)
{
	const struct softdoca_dpa_comp_elem *e = (const struct softdoca_dpa_comp_elem *)(uintptr_t)elem;
	bool ok = false;

	pthread_mutex_lock(&started_lock);
	for (struct doca_dpa_completion *c = started; c != NULL && !ok; c = c->next) {
		if (c->dpa == dpa && e >= c->ring && e < c->ring + c->queue_size &&
		    ((uintptr_t)e - (uintptr_t)c->ring) % sizeof(*e) == 0) {
			*out = *e;
			ok = true;
		}
	}
	pthread_mutex_unlock(&started_lock);
	if (!ok) {
		SDK_LOG_ERR("DPA device code read completion element 0x%llx: not an element doca_dpa_dev_get_completion() "
			    "returned in this DPA context; the DPA context is now in error",
			    (unsigned long long)elem);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
	}
	return ok;
}

void softdoca_dpa_completion_ack(struct doca_dpa *dpa, uint64_t handle, uint64_t num)
{
	struct doca_dpa_completion *c = lookup(dpa, handle, "doca_dpa_dev_completion_ack");
	uint64_t unacked;

	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	unacked = c->produced - c->acked;
	if (num <= unacked) {
		c->acked += num;
		if (c->read < c->acked)
			c->read = c->acked;
	}
	pthread_mutex_unlock(&c->lock);
	if (num > unacked) {
		SDK_LOG_ERR("DPA device code acknowledged %llu completions but only %llu arrived unacknowledged; the DPA "
			    "context is now in error",
			    (unsigned long long)num, (unsigned long long)unacked);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
	}
}

void softdoca_dpa_completion_request_notification(struct doca_dpa *dpa, uint64_t handle)
{
	struct doca_dpa_completion *c = lookup(dpa, handle, "doca_dpa_dev_completion_request_notification");
	struct doca_dpa_thread *wake = NULL;

	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	/* elements not acknowledged yet: the thread runs again at once, as an armed CQ with CQEs would */
	if (c->produced > c->acked && c->thread != NULL)
		wake = c->thread;
	else
		c->armed = true;
	pthread_mutex_unlock(&c->lock);
	if (wake != NULL)
		softdoca_dpa_thread_activate(wake);
}
