/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_sync_event: creation, configuration (locations, backing memory), the stand-alone use
 * (start/stop, get, update, wait) and the capability queries. The context use and its tasks
 * are in sync_event_task.c, export descriptors in sync_event_export.c, the value itself in
 * softhw/fabric/value.c.
 *
 * An event is used one way or the other: doca_sync_event_start makes it a stand-alone
 * object; doca_sync_event_as_ctx makes it a context for good. Either way the value is
 * usable ("active") only between start and stop.
 */
#include <stdio.h>
#include <stdlib.h>

#include "doca_buf.h"
#include "sync_event_int.h"
#include "common/priv/buf_priv.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/dev_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SYNC_EVENT);

/* What an mmap backing a sync event must allow (doca_sync_event_set_doca_buf). */
/* A host wait blocked this long looks at the PEs, and this long later names the stalled ones. */
#define STALL_NOTE_NS 1000000000LL
#define STALL_REPORT_NS 1000000000LL

#define BUF_ACCESS_NEEDED \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	 DOCA_ACCESS_FLAG_RDMA_ATOMIC)

doca_error_t doca_sync_event_create(struct doca_sync_event **event)
{
	struct doca_sync_event *ev;

	if (event == NULL) {
		SDK_LOG_ERR("Failed to create sync event: event output pointer is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	ev = calloc(1, sizeof(*ev));
	if (ev == NULL) {
		SDK_LOG_ERR("Failed to create sync event: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_se_ctx_init(ev);
	*event = ev;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_destroy(struct doca_sync_event *event)
{
	if (event == NULL) {
		SDK_LOG_ERR("Failed to destroy sync event: event is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (event->is_ctx && event->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy sync event: its context is not idle; call doca_ctx_stop() and "
			    "progress the PE until the context is IDLE");
		return DOCA_ERROR_IN_USE;
	}
	/* A started stand-alone event stops with its destruction. */
	__atomic_store_n(&event->active, false, __ATOMIC_RELEASE);
	softdoca_ctx_fini(&event->ctx);
	/* Its descriptors die with it, even while imports keep the value alive. */
	if (!event->imported && event->cell != NULL)
		softhw_value_retire(event->cell);
	softhw_value_unbind(event->cell);
	softdoca_se_exports_free(event);
	free(event);
	return DOCA_SUCCESS;
}

/* ---- configuration: only before start, never on an imported event ---- */

/* May `what` change the configuration now? Logs why not. */
static doca_error_t check_configurable(const struct doca_sync_event *ev, const char *what)
{
	if (ev->imported) {
		SDK_LOG_ERR("Failed to %s: the sync event was created from an export and cannot be configured; "
			    "configure the exporting event instead",
			    what);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (ev->started || (ev->is_ctx && ev->ctx.state != DOCA_CTX_STATE_IDLE)) {
		SDK_LOG_ERR("Failed to %s: the sync event is started; configure it before doca_sync_event_start() "
			    "or doca_ctx_start()",
			    what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t add_location(struct doca_sync_event *ev, bool publisher, uint32_t loc, const void *handle,
				 const char *what)
{
	/* CPU, DPA and GPU locations name their device; remote ones have nothing to name */
	bool needs_handle = (loc & (SE_LOC_REMOTE_PCI | SE_LOC_REMOTE_NET)) == 0;
	doca_error_t err;

	if (ev == NULL || (needs_handle && handle == NULL)) {
		SDK_LOG_ERR("Failed to %s: %s is NULL", what, ev == NULL ? "event" : "the location handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(ev, what);
	if (err != DOCA_SUCCESS)
		return err;
	if (publisher)
		ev->pub |= loc;
	else
		ev->sub |= loc;
	if (loc == SE_LOC_CPU)
		ev->dev = (struct doca_dev *)handle;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	return add_location(event, true, SE_LOC_CPU, dev, "add CPU publisher location");
}

doca_error_t doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	return add_location(event, true, SE_LOC_DPA, dpa, "add DPA publisher location");
}

doca_error_t doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	return add_location(event, true, SE_LOC_GPU, gpu, "add GPU publisher location");
}

doca_error_t doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event)
{
	return add_location(event, true, SE_LOC_REMOTE_PCI, NULL, "add remote PCI publisher location");
}

doca_error_t doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event)
{
	return add_location(event, true, SE_LOC_REMOTE_NET, NULL, "add remote net publisher location");
}

doca_error_t doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	return add_location(event, false, SE_LOC_CPU, dev, "add CPU subscriber location");
}

doca_error_t doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	return add_location(event, false, SE_LOC_DPA, dpa, "add DPA subscriber location");
}

doca_error_t doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	return add_location(event, false, SE_LOC_GPU, gpu, "add GPU subscriber location");
}

doca_error_t doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event)
{
	return add_location(event, false, SE_LOC_REMOTE_PCI, NULL, "add remote PCI subscriber location");
}

doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event, uint64_t *addr)
{
	doca_error_t err;

	if (event == NULL || addr == NULL) {
		SDK_LOG_ERR("Failed to set sync event address: %s is NULL", event == NULL ? "event" : "addr");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((uintptr_t)addr % sizeof(uint64_t) != 0) {
		SDK_LOG_ERR("Failed to set sync event address: %p is not 8-byte aligned; the value is updated "
			    "atomically, give an aligned uint64_t",
			    (void *)addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(event, "set sync event address");
	if (err != DOCA_SUCCESS)
		return err;
	event->user_addr = addr;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event, struct doca_buf *buf)
{
	const struct doca_mmap *m;
	doca_error_t err;

	if (event == NULL || buf == NULL) {
		SDK_LOG_ERR("Failed to set sync event buffer: %s is NULL", event == NULL ? "event" : "buf");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (buf->next != NULL || buf->list_head != buf) {
		SDK_LOG_ERR("Failed to set sync event buffer: buffer lists are not supported; pass a single "
			    "doca_buf whose data segment is the 8-byte value");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(event, "set sync event buffer");
	if (err != DOCA_SUCCESS)
		return err;
	if (buf->data_len != sizeof(uint64_t)) {
		SDK_LOG_ERR("Failed to set sync event buffer: its data segment is %zu bytes, it must be exactly 8; "
			    "set it with doca_buf_set_data()",
			    buf->data_len);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if ((uintptr_t)buf->data % sizeof(uint64_t) != 0) {
		SDK_LOG_ERR("Failed to set sync event buffer: the data segment at %p is not 8-byte aligned", buf->data);
		return DOCA_ERROR_INVALID_VALUE;
	}
	m = buf->mmap;
	if (m == NULL || m->from_export) {
		SDK_LOG_ERR("Failed to set sync event buffer: the buffer is in memory of another process (an mmap "
			    "created from an export); back the event with local memory");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((m->access & BUF_ACCESS_NEEDED) != BUF_ACCESS_NEEDED) {
		SDK_LOG_ERR("Failed to set sync event buffer: its mmap lacks permissions; give it "
			    "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE "
			    "| DOCA_ACCESS_FLAG_RDMA_ATOMIC with doca_mmap_set_permissions()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	event->user_addr = buf->data;
	return DOCA_SUCCESS;
}

/* ---- start / stop ---- */

/*
 * Binds the event to the cell of its backing memory (again, if that changed while stopped).
 * Without user memory the event holds its value; a remote PCI location puts it in memory the
 * other side of the card maps too. A value held by the event survives a change of backing.
 */
doca_error_t softdoca_se_bind(struct doca_sync_event *ev)
{
	bool shared = ev->user_addr == NULL && ((ev->pub | ev->sub) & SE_LOC_REMOTE_PCI);
	struct softhw_value *cell, *old = ev->cell;
	bool carry = old != NULL && softhw_value_is_private(old);

	if (ev->imported)
		return DOCA_SUCCESS; /* bound to the exporter's value for life */
	if (old != NULL && (ev->user_addr != NULL ? softhw_value_addr(old) == ev->user_addr
						  : carry && softhw_value_is_shared(old) == shared))
		return DOCA_SUCCESS;
	if (shared) {
		const char *why = "";
		doca_error_t err = softhw_value_create_shared(carry ? softhw_value_load(old) : 0, &cell, &why);

		if (err != DOCA_SUCCESS) {
			SDK_LOG_ERR("Failed to start sync event: its value cannot be placed where the PCIe peer reaches "
				    "it: %s",
				    why);
			return err;
		}
	} else {
		cell = softhw_value_bind(ev->user_addr);
		if (cell == NULL) {
			SDK_LOG_ERR("Failed to start sync event: out of memory");
			return DOCA_ERROR_NO_MEMORY;
		}
		if (carry && ev->user_addr == NULL)
			*softhw_value_addr(cell) = softhw_value_load(old); /* not published yet */
	}
	if (carry)
		softhw_value_retire(old);
	softhw_value_unbind(old);
	ev->cell = cell;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_start(struct doca_sync_event *event)
{
	doca_error_t err;

	if (event == NULL) {
		SDK_LOG_ERR("Failed to start sync event: event is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (event->is_ctx) {
		SDK_LOG_ERR("Failed to start sync event: it operates as a context (doca_sync_event_as_ctx was "
			    "called); start it with doca_ctx_start()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (event->started) {
		SDK_LOG_ERR("Failed to start sync event: it is already started; stop it first");
		return DOCA_ERROR_BAD_STATE;
	}
	err = softdoca_se_bind(event);
	if (err != DOCA_SUCCESS)
		return err;
	event->started = true;
	__atomic_store_n(&event->active, true, __ATOMIC_RELEASE);
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_stop(struct doca_sync_event *event)
{
	if (event == NULL) {
		SDK_LOG_ERR("Failed to stop sync event: event is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (event->is_ctx) {
		SDK_LOG_ERR("Failed to stop sync event: it operates as a context; stop it with doca_ctx_stop()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (!event->started) {
		SDK_LOG_ERR("Failed to stop sync event: it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	__atomic_store_n(&event->active, false, __ATOMIC_RELEASE);
	event->started = false;
	return DOCA_SUCCESS;
}

/* ---- stand-alone use: safe from any thread while the event is active ---- */

static doca_error_t check_usable(const struct doca_sync_event *ev, bool out_missing, const char *what)
{
	if (ev == NULL) {
		SDK_LOG_ERR("Failed to %s: event is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (out_missing) {
		SDK_LOG_ERR("Failed to %s: output pointer is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_se_is_active(ev)) {
		SDK_LOG_ERR("Failed to %s: the sync event is not started; call doca_sync_event_start() (or "
			    "doca_ctx_start() on doca_sync_event_as_ctx()) first",
			    what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value)
{
	doca_error_t err = check_usable(event, value == NULL, "get sync event value");

	if (err != DOCA_SUCCESS)
		return err;
	*value = softhw_value_load(event->cell);
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_update_add(struct doca_sync_event *event, uint64_t value, uint64_t *fetched)
{
	doca_error_t err = check_usable(event, fetched == NULL, "add to sync event");

	if (err != DOCA_SUCCESS)
		return err;
	*fetched = softhw_value_fetch_add(event->cell, value);
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_update_set(struct doca_sync_event *event, uint64_t value)
{
	doca_error_t err = check_usable(event, false, "set sync event");

	if (err != DOCA_SUCCESS)
		return err;
	softhw_value_store(event->cell, value);
	return DOCA_SUCCESS;
}

static doca_error_t wait_for(struct doca_sync_event *event, enum softhw_value_cmp cmp, uint64_t value, uint64_t mask,
			     bool yield)
{
	doca_error_t err = check_usable(event, false, "wait on sync event");

	struct softdoca_pe_stall *note;

	if (err != DOCA_SUCCESS)
		return err;
	if (softhw_value_wait_for(event->cell, cmp, value, mask, yield, STALL_NOTE_NS))
		return DOCA_SUCCESS;
	/* still blocked: name the PEs nobody progresses meanwhile, once, then wait on */
	note = softdoca_pe_stall_begin();
	if (!softhw_value_wait_for(event->cell, cmp, value, mask, yield, STALL_REPORT_NS)) {
		char waiter[160];

		snprintf(waiter, sizeof(waiter), "doca_sync_event_wait_%s() on sync event %p (for a value %s %llu)",
			 cmp == SOFTHW_VALUE_GT ? "gt" : cmp == SOFTHW_VALUE_EQ ? "eq" : "neq", (void *)event,
			 cmp == SOFTHW_VALUE_GT ? ">" : cmp == SOFTHW_VALUE_EQ ? "==" : "!=", (unsigned long long)value);
		softdoca_pe_stall_report(note, waiter);
		softhw_value_wait(event->cell, cmp, value, mask, yield);
	} else {
		free(note);
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return wait_for(event, SOFTHW_VALUE_GT, value, mask, false);
}

doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return wait_for(event, SOFTHW_VALUE_GT, value, mask, true);
}

doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return wait_for(event, SOFTHW_VALUE_EQ, value, mask, false);
}

doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return wait_for(event, SOFTHW_VALUE_EQ, value, mask, true);
}

doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return wait_for(event, SOFTHW_VALUE_NEQ, value, mask, false);
}

doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return wait_for(event, SOFTHW_VALUE_NEQ, value, mask, true);
}

/* ---- capabilities ---- */

static doca_error_t cap(const struct doca_devinfo *devinfo, bool supported, const char *what)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("Sync event capability query (%s): devinfo is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return supported ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

/* Answers from the device's profile; a NULL devinfo is refused by cap(). */
#define CAP(devinfo, field, what) cap(devinfo, (devinfo) != NULL && softdoca_devinfo_caps(devinfo)->field, what)

doca_error_t doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	return CAP(devinfo, sync_event_create_from_export, "create from export");
}

doca_error_t doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	return CAP(devinfo, sync_event_remote_net_create_from_export, "remote net create from export");
}

doca_error_t doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo)
{
	return CAP(devinfo, sync_event_export_remote_pci, "export to remote PCI");
}

doca_error_t doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo)
{
	return CAP(devinfo, sync_event_export_remote_net, "export to remote net");
}

/* Events reach the DPA where the profile has one; no GPU (docs/compatibility.md). */
doca_error_t doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	return CAP(devinfo, dpa, "export to DPA");
}

doca_error_t doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	return cap(devinfo, false, "export to GPU");
}

doca_error_t doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	return cap(devinfo, false, "remote net export to DPA");
}

doca_error_t doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	return cap(devinfo, false, "remote net export to GPU");
}

static doca_error_t cap_task(const struct doca_devinfo *devinfo, const char *what)
{
	return CAP(devinfo, sync_event_tasks, what);
}

doca_error_t doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_task(devinfo, "get task");
}

doca_error_t doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_task(devinfo, "notify set task");
}

doca_error_t doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_task(devinfo, "notify add task");
}

doca_error_t doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_task(devinfo, "wait eq task");
}

doca_error_t doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo)
{
	return cap_task(devinfo, "wait neq task");
}
