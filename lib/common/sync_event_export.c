/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sync event export descriptors (remote PCI and remote net), their import, the remote-net
 * handle, and the DPA / GPU handles (not supported yet).
 *
 * A descriptor is one frame of export_desc.h (magic, version, kind, length, CRC-32) around
 * this payload, version 2 (160 bytes, little-endian):
 *
 *   offset  size  field
 *        0     4  exporter pid
 *        4     1  publisher locations (bits: cpu, dpa, gpu, remote pci, remote net)
 *        5     1  subscriber locations
 *        6     2  reserved, zero
 *        8     8  value id (unique within the exporting process)
 *       16     8  address of the 64-bit value in the exporter
 *       24    64  card name, NUL-terminated ("-" when unknown)
 *       88    64  card instance, NUL-terminated ("-" when unknown)
 *      152     8  token: remote PCI, the shared value's (0: the value is in the exporter's own
 *                 memory); remote net, the value's net token (random, never 0), which the soft
 *                 NIC's target checks as it checks an export's
 *
 * Kind 1 is a remote-PCI export (the peer must be on the same card), kind 2 a remote-net
 * export (any peer; RDMA reaches it). Within one process the id, address and token find the
 * exporter's value, so an import shares it. An event with a remote PCI location keeps its
 * value in a segment of the run directory named after the exporter's pid and the id; a
 * process on either side of the card maps it after checking the token, so both processes
 * share one 64-bit word (softhw/fabric/value.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "softhw/base/export_desc.h"
#include "sync_event_int.h"
#include "common/priv/dev_priv.h"
#include "common/priv/dpa_priv.h"
#include "softhw/dpa/dpa.h"
#include "softhw/base/sdk_log.h"
#include "common/priv/sync_event_priv.h"

SDK_LOG_REGISTER(SYNC_EVENT_EXPORT);

#define SE_DESC_MAGIC 0x56455353u /* "SSEV" */
#define SE_DESC_VERSION 2
#define SE_DESC_PAYLOAD_LEN 160
#define SE_DESC_LEN (SOFTDOCA_DESC_HEADER_LEN + SE_DESC_PAYLOAD_LEN + SOFTDOCA_DESC_TRAILER_LEN)
#define SE_NAME_UNKNOWN "-"

enum se_desc_kind {
	SE_DESC_REMOTE_PCI = 1,
	SE_DESC_REMOTE_NET = 2,
};

struct se_desc {
	enum se_desc_kind kind;
	int32_t pid;
	uint8_t pub;
	uint8_t sub;
	uint64_t id;
	uint64_t addr;
	char card[SOFTDOCA_SE_NAME_LEN];
	char instance[SOFTDOCA_SE_NAME_LEN];
	uint64_t token;
};

struct softdoca_se_export {
	struct softdoca_se_export *next;
	uint8_t bytes[SE_DESC_LEN];
};

/* ---- wire format ---- */

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void put_name(uint8_t *p, const char *s)
{
	size_t n = strnlen(s, SOFTDOCA_SE_NAME_LEN - 1);

	memset(p, 0, SOFTDOCA_SE_NAME_LEN);
	memcpy(p, s, n);
}

/* A name must be non-empty and NUL-terminated inside its field. */
static bool get_name(char *dst, const uint8_t *p)
{
	if (p[0] == '\0' || memchr(p, '\0', SOFTDOCA_SE_NAME_LEN) == NULL)
		return false;
	memcpy(dst, p, SOFTDOCA_SE_NAME_LEN);
	return true;
}

static void desc_encode(const struct se_desc *d, uint8_t out[SE_DESC_LEN])
{
	uint8_t *p = out + SOFTDOCA_DESC_HEADER_LEN;

	memset(out, 0, SE_DESC_LEN);
	put_le(p, (uint32_t)d->pid, 4);
	p[4] = d->pub;
	p[5] = d->sub;
	put_le(p + 8, d->id, 8);
	put_le(p + 16, d->addr, 8);
	put_name(p + 24, d->card);
	put_name(p + 88, d->instance);
	put_le(p + 152, d->token, 8);
	softdoca_desc_seal(out, SE_DESC_LEN, SE_DESC_MAGIC, SE_DESC_VERSION, (uint16_t)d->kind);
}

static doca_error_t desc_decode(const uint8_t *buf, size_t len, struct se_desc *d, const char **why)
{
	const uint8_t *p = buf + SOFTDOCA_DESC_HEADER_LEN;
	uint16_t kind;
	doca_error_t err;

	err = softdoca_desc_open(buf, len, SE_DESC_MAGIC, SE_DESC_VERSION, &kind, why);
	if (err != DOCA_SUCCESS)
		return err;
	if (len != SE_DESC_LEN) {
		*why = "descriptor length does not match its format version";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (kind != SE_DESC_REMOTE_PCI && kind != SE_DESC_REMOTE_NET) {
		*why = "unknown export kind (neither remote PCI nor remote net)";
		return DOCA_ERROR_INVALID_VALUE;
	}
	d->kind = (enum se_desc_kind)kind;
	d->pid = (int32_t)get_le(p, 4);
	d->pub = p[4];
	d->sub = p[5];
	d->id = get_le(p + 8, 8);
	d->addr = get_le(p + 16, 8);
	d->token = get_le(p + 152, 8);
	if (d->pid <= 0) {
		*why = "invalid exporter process id";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((d->pub | d->sub) & ~SE_LOC_ALL || get_le(p + 6, 2) != 0) {
		*why = "unknown location bits or non-zero reserved field";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (d->id == 0 || d->addr == 0 || d->addr % sizeof(uint64_t) != 0) {
		*why = "invalid value identity or address (zero or misaligned)";
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!get_name(d->card, p + 24) || !get_name(d->instance, p + 88)) {
		*why = "card name or instance is empty or not terminated";
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* ---- export ---- */

static void desc_fill(struct se_desc *d, const struct doca_sync_event *ev, enum se_desc_kind kind,
		      const struct doca_dev *dev)
{
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->pid = (int32_t)getpid();
	d->pub = (uint8_t)ev->pub;
	d->sub = (uint8_t)ev->sub;
	d->id = softhw_value_id(ev->cell);
	d->addr = (uint64_t)(uintptr_t)softhw_value_addr(ev->cell);
	/* a remote-net peer proves with a token of the value's own (the PCIe one is 0 or the segment's) */
	d->token = kind == SE_DESC_REMOTE_NET ? softhw_value_net_token(ev->cell) : softhw_value_token(ev->cell);
	strcpy(d->card, SE_NAME_UNKNOWN);
	strcpy(d->instance, SE_NAME_UNKNOWN);
	if (dev != NULL) {
		const struct softhw_card *card = dev->devinfo->fn->card;

		snprintf(d->card, sizeof(d->card), "%s", card->name);
		snprintf(d->instance, sizeof(d->instance), "%s", card->instance);
	}
}

/* The event owns its descriptors until destroyed; the same export gives the same bytes back. */
static doca_error_t hand_out(struct doca_sync_event *ev, const struct se_desc *d, const uint8_t **data, size_t *sz,
			     const char *what)
{
	uint8_t bytes[SE_DESC_LEN];
	struct softdoca_se_export *e;

	desc_encode(d, bytes);
	for (e = ev->exports; e != NULL; e = e->next)
		if (memcmp(e->bytes, bytes, SE_DESC_LEN) == 0)
			break;
	if (e == NULL) {
		e = malloc(sizeof(*e));
		if (e == NULL) {
			SDK_LOG_ERR("Failed to %s: out of memory", what);
			return DOCA_ERROR_NO_MEMORY;
		}
		memcpy(e->bytes, bytes, SE_DESC_LEN);
		e->next = ev->exports;
		ev->exports = e;
	}
	*data = e->bytes;
	*sz = SE_DESC_LEN;
	return DOCA_SUCCESS;
}

void softdoca_se_exports_free(struct doca_sync_event *ev)
{
	while (ev->exports != NULL) {
		struct softdoca_se_export *e = ev->exports;

		ev->exports = e->next;
		free(e);
	}
}

/* Checks shared by both exports: arguments, origin and state. */
static doca_error_t export_precheck(const struct doca_sync_event *ev, const uint8_t **data, size_t *sz,
				    const char *what)
{
	if (ev == NULL || data == NULL || sz == NULL) {
		SDK_LOG_ERR("Failed to %s: %s is NULL", what, ev == NULL ? "event" : data == NULL ? "data" : "sz");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ev->imported) {
		SDK_LOG_ERR("Failed to %s: the event was created from an export and cannot be exported again; "
			    "export the original event",
			    what);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	return DOCA_SUCCESS;
}

static doca_error_t export_active_check(const struct doca_sync_event *ev, const char *what)
{
	if (!softdoca_se_is_active(ev)) {
		SDK_LOG_ERR("Failed to %s: the event is not started; call doca_sync_event_start() (or "
			    "doca_ctx_start()) before exporting it",
			    what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event, struct doca_dev *dev,
						  const uint8_t **data, size_t *sz)
{
	static const char what[] = "export sync event to remote PCI";
	const uint32_t allowed = SE_LOC_CPU | SE_LOC_REMOTE_PCI;
	struct se_desc d;
	doca_error_t err;

	err = export_precheck(event, data, sz, what);
	if (err != DOCA_SUCCESS)
		return err;
	if (dev == NULL) {
		SDK_LOG_ERR("Failed to %s: dev is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->sync_event_export_remote_pci) {
		SDK_LOG_ERR("Failed to %s: device %s cannot export sync events over PCIe; check "
			    "doca_sync_event_cap_is_export_to_remote_pci_supported()",
			    what, dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if ((event->pub | event->sub) & ~allowed) {
		SDK_LOG_ERR("Failed to %s: the event has DPA, GPU or remote net locations; a PCIe export serves "
			    "only CPU and remote PCI publishers and subscribers",
			    what);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (event->pub == 0 || event->sub == 0 || !((event->pub | event->sub) & SE_LOC_REMOTE_PCI)) {
		SDK_LOG_ERR("Failed to %s: declare a publisher and a subscriber, one of them the PCIe peer "
			    "(doca_sync_event_add_{publisher,subscriber}_location_remote_pci), before start",
			    what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = export_active_check(event, what);
	if (err != DOCA_SUCCESS)
		return err;
	desc_fill(&d, event, SE_DESC_REMOTE_PCI, dev);
	return hand_out(event, &d, data, sz, what);
}

doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event, const uint8_t **data, size_t *sz)
{
	static const char what[] = "export sync event to remote net";
	struct se_desc d;
	doca_error_t err;

	err = export_precheck(event, data, sz, what);
	if (err != DOCA_SUCCESS)
		return err;
	if (!(event->pub & SE_LOC_REMOTE_NET)) {
		SDK_LOG_ERR("Failed to %s: the event has no remote net publisher; call "
			    "doca_sync_event_add_publisher_location_remote_net() before start",
			    what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (event->dev != NULL && !softdoca_dev_caps(event->dev)->sync_event_export_remote_net) {
		SDK_LOG_ERR("Failed to %s: device %s cannot export sync events to a remote peer; check "
			    "doca_sync_event_cap_is_export_to_remote_net_supported()",
			    what, event->dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = export_active_check(event, what);
	if (err != DOCA_SUCCESS)
		return err;
	desc_fill(&d, event, SE_DESC_REMOTE_NET, event->dev);
	err = hand_out(event, &d, data, sz, what);
	if (err == DOCA_SUCCESS)
		softhw_value_export_net(event->cell); /* now the soft NIC may reach it */
	return err;
}

/* ---- import ---- */

/* Decodes and checks the kind; logs why a descriptor is refused. */
static doca_error_t import_decode(const uint8_t *data, size_t sz, enum se_desc_kind want, struct se_desc *d,
				  const char *what)
{
	const char *why = "";
	doca_error_t err = desc_decode(data, sz, d, &why);

	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to %s: bad descriptor of %zu bytes: %s%s", what, sz, why,
			    err == DOCA_ERROR_INVALID_VALUE ? "; pass the bytes and size the export returned, unchanged" : "");
		return err;
	}
	if (d->kind != want) {
		SDK_LOG_ERR("Failed to %s: this is a %s descriptor; import it with %s", what,
			    d->kind == SE_DESC_REMOTE_NET ? "remote net" : "remote PCI",
			    d->kind == SE_DESC_REMOTE_NET ? "doca_sync_event_remote_net_create_from_export()"
							  : "doca_sync_event_create_from_export()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Binds to the value a PCIe descriptor names: this process's, or the peer process's shared one. */
static doca_error_t import_value(const struct se_desc *d, struct softhw_value **cell, const char *what)
{
	const char *why = "";
	doca_error_t err;

	if (d->pid == (int32_t)getpid()) {
		*cell = softhw_value_find(d->id, d->addr, d->token);
		if (*cell == NULL) {
			SDK_LOG_ERR("Failed to %s: %s", what, softhw_value_why_not(d->id, d->addr, d->token, false));
			return DOCA_ERROR_INVALID_VALUE;
		}
		return DOCA_SUCCESS;
	}
	if (d->token == 0) {
		SDK_LOG_ERR("Failed to %s: process %d exported an event whose value is in its own memory "
			    "(doca_sync_event_set_addr / set_doca_buf), which softdoca cannot share with another "
			    "process; let the exporting event hold its value (docs/compatibility.md)",
			    what, (int)d->pid);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = softhw_value_open_shared(d->pid, d->id, d->addr, d->token, cell, &why);
	if (err == DOCA_ERROR_INVALID_VALUE)
		SDK_LOG_ERR("Failed to %s of process %d: %s; pass the bytes the export returned, unchanged", what,
			    (int)d->pid, why);
	else if (err == DOCA_ERROR_NOT_FOUND)
		SDK_LOG_ERR("Failed to %s: the event process %d exported is gone: %s; import a descriptor of a live "
			    "event (export it again)",
			    what, (int)d->pid, why);
	else if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to %s: cannot map the value process %d shares: %s", what, (int)d->pid, why);
	return err;
}

doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
						struct doca_sync_event **event)
{
	static const char what[] = "create sync event from export";
	const struct softhw_card *card;
	struct softhw_value *cell;
	struct doca_sync_event *ev;
	struct se_desc d;
	doca_error_t err;

	if (dev == NULL || data == NULL || event == NULL) {
		SDK_LOG_ERR("Failed to %s: %s is NULL", what, dev == NULL ? "dev" : data == NULL ? "data" : "event");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->sync_event_create_from_export) {
		SDK_LOG_ERR("Failed to %s: device %s cannot import sync events; check "
			    "doca_sync_event_cap_is_create_from_export_supported()",
			    what, dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = import_decode(data, sz, SE_DESC_REMOTE_PCI, &d, what);
	if (err != DOCA_SUCCESS)
		return err;
	/* A PCIe export reaches only the other side of the same card. */
	card = dev->devinfo->fn->card;
	if (strcmp(d.card, card->name) != 0) {
		SDK_LOG_ERR("Failed to %s: descriptor was exported on card %s but dev is on card %s; import it with "
			    "a device of the exporting card",
			    what, d.card, card->name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (strcmp(d.instance, card->instance) != 0) {
		SDK_LOG_ERR("Failed to %s: descriptor was exported on another instance of card %s (%s, this is %s); "
			    "run both sides of the card with the same SOFTDOCA_RUN_DIR",
			    what, d.card, d.instance, card->instance);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = import_value(&d, &cell, what);
	if (err != DOCA_SUCCESS)
		return err;
	ev = calloc(1, sizeof(*ev));
	if (ev == NULL) {
		softhw_value_unbind(cell);
		SDK_LOG_ERR("Failed to %s: out of memory", what);
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_se_ctx_init(ev);
	ev->imported = true;
	ev->dev = dev;
	ev->cell = cell;
	*event = ev;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
							   struct doca_sync_event_remote_net **event)
{
	static const char what[] = "create remote net sync event from export";
	struct doca_sync_event_remote_net *rev;
	struct softhw_value *cell = NULL;
	struct se_desc d;
	doca_error_t err;

	if (dev == NULL || data == NULL || event == NULL) {
		SDK_LOG_ERR("Failed to %s: %s is NULL", what, dev == NULL ? "dev" : data == NULL ? "data" : "event");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->sync_event_remote_net_create_from_export) {
		SDK_LOG_ERR("Failed to %s: device %s cannot import remote sync events; check "
			    "doca_sync_event_cap_remote_net_is_create_from_export_supported()",
			    what, dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = import_decode(data, sz, SE_DESC_REMOTE_NET, &d, what);
	if (err != DOCA_SUCCESS)
		return err;
	/* A remote net export crosses cards and hosts: no card check. Same process: keep the value alive. */
	if (d.pid == (int32_t)getpid()) {
		cell = softhw_value_find_net(d.id, d.addr, d.token);
		if (cell == NULL) {
			SDK_LOG_ERR("Failed to %s: %s", what, softhw_value_why_not(d.id, d.addr, d.token, true));
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!softhw_value_net_exported(cell)) {
			softhw_value_unbind(cell);
			SDK_LOG_ERR("Failed to %s: forged descriptor: the event was exported to the remote PCI peer, "
				    "not to remote net; export it with doca_sync_event_export_to_remote_net()",
				    what);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	rev = calloc(1, sizeof(*rev));
	if (rev == NULL) {
		softhw_value_unbind(cell);
		SDK_LOG_ERR("Failed to %s: out of memory", what);
		return DOCA_ERROR_NO_MEMORY;
	}
	rev->dev = dev;
	rev->exporter_pid = d.pid;
	rev->value_id = d.id;
	rev->value_addr = d.addr;
	rev->token = d.token;
	memcpy(rev->card, d.card, sizeof(rev->card));
	memcpy(rev->instance, d.instance, sizeof(rev->instance));
	rev->local = cell;
	*event = rev;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event)
{
	if (event == NULL) {
		SDK_LOG_ERR("Failed to destroy remote net sync event: event is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	softhw_value_unbind(event->local);
	free(event);
	return DOCA_SUCCESS;
}

/* ---- DPA and GPU handles: not implemented yet ---- */

static doca_error_t no_handle(const void *event, const void *unit, const void *out, const char *what,
			      const char *unit_name, const char *why)
{
	if (event == NULL || unit == NULL || out == NULL) {
		SDK_LOG_ERR("Failed to get %s: %s is NULL", what,
			    event == NULL ? "event" : unit == NULL ? unit_name : "output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("Failed to get %s: %s", what, why);
	return DOCA_ERROR_NOT_SUPPORTED;
}

#define NO_GPU "softdoca emulates no GPU (docs/compatibility.md); use the event from the CPU"

/*
 * The handle device code names the event by: the event's value registered with the soft DPA
 * of that context (softhw/dpa/dpa.h), which looks every handle up before use.
 */
doca_error_t doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
					    doca_dpa_dev_sync_event_t *dpa_dev_se_handle)
{
	struct softdoca_dpa_base *base;
	doca_error_t err;

	if (event == NULL || dpa == NULL || dpa_dev_se_handle == NULL)
		return no_handle(event, dpa, dpa_dev_se_handle, "sync event DPA handle", "dpa", "");
	if (((event->pub | event->sub) & SE_LOC_DPA) == 0) {
		SDK_LOG_ERR("Failed to get sync event DPA handle: the event has no DPA location; add one with "
			    "doca_sync_event_add_publisher_location_dpa() or doca_sync_event_add_subscriber_location_dpa() "
			    "before starting it");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (!softdoca_se_is_active(event)) {
		SDK_LOG_ERR("Failed to get sync event DPA handle: the event is not started; call "
			    "doca_sync_event_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	base = softdoca_dpa_base(dpa);
	if (base->hw == NULL) {
		SDK_LOG_ERR("Failed to get sync event DPA handle: the DPA context is not started; call "
			    "doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	err = base->dev->dpa->value_handle(base->hw, event->cell, dpa_dev_se_handle);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to get sync event DPA handle: %s", doca_error_get_name(err));
	return err;
}

doca_error_t doca_sync_event_get_gpu_handle(struct doca_sync_event *event, struct doca_gpu *gpu,
					    doca_gpu_dev_sync_event_t **gpu_dev_se)
{
	return no_handle(event, gpu, gpu_dev_se, "sync event GPU handle", "gpu", NO_GPU);
}

/*
 * A peer's event for device code to signal by RDMA (doca_dpa_dev_rdma_signal_set / _add): the
 * soft DPA keeps a copy of its rkey for as long as the DPA context lives, so the handle never
 * outlives what it names; a signal after the exporter went fails at the target, as a stale
 * rkey does.
 */
doca_error_t doca_sync_event_remote_net_get_dpa_handle(struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
						       doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event)
{
	struct softdoca_dpa_base *base;
	doca_error_t err;

	if (event == NULL || dpa == NULL || dpa_remote_event == NULL)
		return no_handle(event, dpa, dpa_remote_event, "remote net sync event DPA handle", "dpa", "");
	base = softdoca_dpa_base(dpa);
	if (base->hw == NULL) {
		SDK_LOG_ERR("Failed to get remote net sync event DPA handle: the DPA context is not started; call "
			    "doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	err = base->dev->dpa->rkey_handle(base->hw, event->exporter_pid, event->value_id, event->token,
					  event->value_addr, dpa_remote_event);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to get remote net sync event DPA handle: %s", doca_error_get_name(err));
	return err;
}

doca_error_t doca_sync_event_remote_net_get_gpu_handle(struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
						       doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event)
{
	return no_handle(event, gpu, gpu_remote_event, "remote net sync event GPU handle", "gpu", NO_GPU);
}
