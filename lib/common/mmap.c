/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_mmap: a registered memory range, its devices, its export descriptors. */
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "doca_mmap.h"
#include "common/priv/dev_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/base/export_desc.h"
#include "softhw/fabric/mem.h"
#include "common/priv/dpa_priv.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DOCA_MMAP);

#define PCI_FLAGS (DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE)
#define RDMA_FLAGS (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)
#define ACCESS_FLAGS_ALL 0x7fu

/* One descriptor handed out by export_pci / export_rdma; the mmap owns it until stop. */
struct softdoca_mmap_export {
	struct softdoca_mmap_export *next;
	struct softdoca_mmap_export *next_all; /* registry of this process's live exports */
	struct softdoca_mmap_link *link;       /* shared with same-process imports */
	uint64_t id; /* registered with the fabric (softhw_mem_export_add) */
	uint64_t token;
	enum softdoca_mmap_desc_kind kind;
	const struct softhw_card *card;
	struct softdoca_mmap_desc desc; /* what was exported: imports are checked against it */
	bool reexport; /* of memory imported from another process: not this process's memory */
	uint8_t bytes[SOFTDOCA_MMAP_DESC_LEN];
};

/* What the peer of an export may do with the memory, and through what, from the access flags. */
static uint32_t export_rights(uint32_t access, enum softdoca_mmap_desc_kind kind)
{
	uint32_t rights = 0;

	if (kind == SOFTDOCA_MMAP_DESC_PCI) {
		rights |= SOFTHW_MEM_VIA_DMA;
		if (access & PCI_FLAGS)
			rights |= SOFTHW_MEM_READ;
		if (access & DOCA_ACCESS_FLAG_PCI_READ_WRITE)
			rights |= SOFTHW_MEM_WRITE;
	} else {
		rights |= SOFTHW_MEM_VIA_NIC;
		if (access & DOCA_ACCESS_FLAG_RDMA_READ)
			rights |= SOFTHW_MEM_READ;
		if (access & DOCA_ACCESS_FLAG_RDMA_WRITE)
			rights |= SOFTHW_MEM_WRITE;
		if (access & DOCA_ACCESS_FLAG_RDMA_ATOMIC)
			rights |= SOFTHW_MEM_ATOMIC;
	}
	return rights;
}

/*
 * Setters are allowed only on a local mmap that is not started. `code` is the error DOCA
 * documents for this setter (BAD_STATE or NOT_PERMITTED).
 */
static doca_error_t check_configurable(const struct doca_mmap *mmap, const char *what, doca_error_t code)
{
	if (mmap->from_export) {
		SDK_LOG_ERR("Failed to %s: mmap was created from an export and cannot be configured", what);
		return code;
	}
	if (mmap->started) {
		SDK_LOG_ERR("Failed to %s: mmap is started; call it before doca_mmap_start() or after doca_mmap_stop()",
			    what);
		return code;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_create(struct doca_mmap **mmap)
{
	struct doca_mmap *m;

	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to create mmap: mmap output pointer is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	m = calloc(1, sizeof(*m));
	if (m == NULL) {
		SDK_LOG_ERR("Failed to create mmap: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	m->access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	m->max_devs = SOFTDOCA_MMAP_DEFAULT_MAX_DEVS;
	*mmap = m;
	return DOCA_SUCCESS;
}

/*
 * Every live export of the process, so that a same-process import can share its export's
 * liveness link. Imports and exports may live on different threads: one lock.
 */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct softdoca_mmap_export *registry;

static void link_put(struct softdoca_mmap_link *link)
{
	if (link != NULL && --link->refs == 0)
		free(link);
}

static void registry_remove(struct softdoca_mmap_export *e)
{
	struct softdoca_mmap_export **pp;

	pthread_mutex_lock(&registry_lock);
	for (pp = &registry; *pp != NULL && *pp != e; pp = &(*pp)->next_all)
		;
	if (*pp == e)
		*pp = e->next_all;
	__atomic_store_n(&e->link->live, 0, __ATOMIC_RELEASE);
	link_put(e->link);
	pthread_mutex_unlock(&registry_lock);
}

/* The link of live export (id, token) with one more reference, and what it exported; or NULL. */
static struct softdoca_mmap_link *registry_link(uint64_t id, uint64_t token, struct softdoca_mmap_desc *real,
						bool *reexport)
{
	struct softdoca_mmap_link *link = NULL;

	pthread_mutex_lock(&registry_lock);
	for (struct softdoca_mmap_export *e = registry; e != NULL; e = e->next_all)
		if (e->id == id && e->token == token) {
			link = e->link;
			link->refs++;
			*real = e->desc;
			*reexport = e->reexport;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	return link;
}

/*
 * Capabilities an access mask gives an importer: PCI read and write, RDMA read, write and
 * atomic (the exporter's own LOCAL_READ_WRITE is no import's business).
 */
static uint32_t import_caps(uint32_t access)
{
	uint32_t caps = access & RDMA_FLAGS;

	if (access & PCI_FLAGS)
		caps |= DOCA_ACCESS_FLAG_PCI_READ_ONLY;
	if (access & DOCA_ACCESS_FLAG_PCI_READ_WRITE)
		caps |= DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	return caps;
}

/* The capabilities of import_caps() in words, for a log line. */
static const char *caps_names(uint32_t caps, char *buf, size_t size)
{
	static const struct {
		uint32_t cap;
		const char *name;
	} names[] = {
		{DOCA_ACCESS_FLAG_PCI_READ_ONLY, "PCI read"},   {DOCA_ACCESS_FLAG_PCI_READ_WRITE, "PCI write"},
		{DOCA_ACCESS_FLAG_RDMA_READ, "RDMA read"},      {DOCA_ACCESS_FLAG_RDMA_WRITE, "RDMA write"},
		{DOCA_ACCESS_FLAG_RDMA_ATOMIC, "RDMA atomic"},
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((caps & names[i].cap) && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", names[i].name);
	return buf;
}

static const char *kind_name(enum softdoca_mmap_desc_kind kind)
{
	return kind == SOFTDOCA_MMAP_DESC_PCI ? "PCI" : "RDMA";
}

/*
 * A descriptor of this process against the export it names: same kind and card, a range
 * inside the exported one, no right the export lacks. Logs what differs.
 */
static doca_error_t check_claims(const struct softdoca_mmap_desc *d, const struct softdoca_mmap_desc *real)
{
	static const char fix[] = "pass the bytes doca_mmap_export_pci/rdma() returned, unchanged";
	uint32_t extra = import_caps(d->access) & ~import_caps(real->access);

	if (d->kind != real->kind) {
		SDK_LOG_ERR("Failed to create mmap from export: forged descriptor: its kind is %s, but export %lu was made with doca_mmap_export_%s(); %s",
			    kind_name(d->kind), (unsigned long)d->export_id, real->kind == SOFTDOCA_MMAP_DESC_PCI ? "pci" : "rdma",
			    fix);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (strcmp(d->card, real->card) != 0 || strcmp(d->instance, real->instance) != 0) {
		SDK_LOG_ERR("Failed to create mmap from export: forged descriptor: it names card %s instance %s, but export %lu was made through card %s instance %s; %s",
			    d->card, d->instance, (unsigned long)d->export_id, real->card, real->instance, fix);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (d->addr < real->addr || d->len > real->len || d->addr - real->addr > real->len - d->len) {
		SDK_LOG_ERR("Failed to create mmap from export: forged descriptor: its range 0x%lx..0x%lx (%lu bytes) is not inside the exported range 0x%lx..0x%lx (%lu bytes); %s",
			    (unsigned long)d->addr, (unsigned long)(d->addr + d->len), (unsigned long)d->len,
			    (unsigned long)real->addr, (unsigned long)(real->addr + real->len), (unsigned long)real->len, fix);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (extra != 0) {
		char names[64];

		SDK_LOG_ERR("Failed to create mmap from export: forged descriptor: its access flags 0x%x claim %s, which the export (access flags 0x%x) does not grant; %s",
			    d->access, caps_names(extra, names, sizeof(names)), real->access, fix);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static void import_unlink(struct doca_mmap *m)
{
	if (m->link == NULL)
		return;
	pthread_mutex_lock(&registry_lock);
	link_put(m->link);
	pthread_mutex_unlock(&registry_lock);
	m->link = NULL;
}

static void free_exports(struct doca_mmap *m)
{
	while (m->exports != NULL) {
		struct softdoca_mmap_export *e = m->exports;

		m->exports = e->next;
		registry_remove(e); /* same-process imports end here */
		softhw_mem_export_remove(e->id);
		free(e);
	}
	m->export_pci_desc = NULL;
	m->export_pci_len = 0;
	m->export_rdma_desc = NULL;
	m->export_rdma_len = 0;
}

/* Why the mmap cannot stop or go away now, or SUCCESS. */
static doca_error_t check_unused(const struct doca_mmap *m, const char *what)
{
	uint32_t bufs = m->thread_safe ? __atomic_load_n(&m->num_bufs, __ATOMIC_RELAXED) : m->num_bufs;

	if (bufs != 0) {
		SDK_LOG_ERR("Failed to %s mmap: %u doca_bufs still point into it; release them with doca_buf_dec_refcount() first",
			    what, bufs);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (m->num_holders != 0) {
		SDK_LOG_ERR("Failed to %s mmap: %u started doca_buf_pool/doca_buf_arr use it; stop or destroy them first",
			    what, m->num_holders);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	return DOCA_SUCCESS;
}

/* The DPA handles of a stopping mmap: device code can no longer reach its memory. */
static void release_dpa_handles(struct doca_mmap *m)
{
	if (m->dpa_handles == NULL)
		return;
	for (uint32_t i = 0; i < m->num_devs; i++)
		if (m->dpa_handles[i] != 0) {
			m->devs[i]->dpa->mmap_unregister(m->dpa_handles[i]);
			m->dpa_handles[i] = 0;
		}
	free(m->dpa_handles); /* the devices may change before the next start */
	m->dpa_handles = NULL;
}

doca_error_t doca_mmap_destroy(struct doca_mmap *mmap)
{
	doca_error_t err;

	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to destroy mmap: mmap is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_unused(mmap, "destroy");
	if (err != DOCA_SUCCESS)
		return err;
	free_exports(mmap);
	softhw_mem_disconnect(mmap->remote);
	import_unlink(mmap);
	release_dpa_handles(mmap);
	/* The callback frees the user's range: only once the mmap owned it (was started). */
	if (mmap->free_cb != NULL && mmap->was_started)
		mmap->free_cb(mmap->addr, mmap->len, mmap->free_cb_opaque);
	free(mmap->devs);
	free(mmap);
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_start(struct doca_mmap *mmap)
{
	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to start mmap: mmap is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mmap->from_export) {
		SDK_LOG_ERR("Failed to start mmap: an mmap created from an export is usable without doca_mmap_start()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (mmap->started) {
		SDK_LOG_ERR("Failed to start mmap: already started; call doca_mmap_stop() first to reconfigure it");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (!mmap->range_set) {
		SDK_LOG_ERR("Failed to start mmap: no memory range; call doca_mmap_set_memrange() before doca_mmap_start()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	mmap->started = true;
	mmap->was_started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_stop(struct doca_mmap *mmap)
{
	doca_error_t err;

	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to stop mmap: mmap is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!mmap->started)
		return DOCA_SUCCESS;
	err = check_unused(mmap, "stop");
	if (err != DOCA_SUCCESS)
		return err;
	free_exports(mmap);
	release_dpa_handles(mmap);
	softhw_mem_disconnect(mmap->remote); /* an imported mmap cannot start again */
	mmap->remote = NULL;
	mmap->started = false;
	mmap->exported = false;
	return DOCA_SUCCESS;
}

static int find_dev(const struct doca_mmap *m, const struct doca_dev *dev)
{
	for (uint32_t i = 0; i < m->num_devs; i++)
		if (m->devs[i] == dev)
			return (int)i;
	return -1;
}

doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	doca_error_t err;

	if (mmap == NULL || dev == NULL) {
		SDK_LOG_ERR("Failed to add device to mmap: %s is NULL", mmap == NULL ? "mmap" : "dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(mmap, "add device to mmap", DOCA_ERROR_NOT_PERMITTED);
	if (err != DOCA_SUCCESS)
		return err;
	if (find_dev(mmap, dev) >= 0) {
		SDK_LOG_ERR("Failed to add device to mmap: device was already added");
		return DOCA_ERROR_ALREADY_EXIST;
	}
	if (mmap->num_devs >= mmap->max_devs) {
		SDK_LOG_ERR("Failed to add device to mmap: %u devices already added; raise the limit with doca_mmap_set_max_num_devices()",
			    mmap->num_devs);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (mmap->devs == NULL) {
		mmap->devs = calloc(mmap->max_devs, sizeof(*mmap->devs));
		if (mmap->devs == NULL) {
			SDK_LOG_ERR("Failed to add device to mmap: out of memory");
			return DOCA_ERROR_NO_MEMORY;
		}
	}
	mmap->devs[mmap->num_devs++] = dev;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	doca_error_t err;
	int i;

	if (mmap == NULL || dev == NULL) {
		SDK_LOG_ERR("Failed to remove device from mmap: %s is NULL", mmap == NULL ? "mmap" : "dev");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(mmap, "remove device from mmap", DOCA_ERROR_NOT_PERMITTED);
	if (err != DOCA_SUCCESS)
		return err;
	i = find_dev(mmap, dev);
	if (i < 0) {
		SDK_LOG_ERR("Failed to remove device from mmap: device was never added with doca_mmap_add_dev()");
		return DOCA_ERROR_NOT_FOUND;
	}
	mmap->devs[i] = mmap->devs[--mmap->num_devs];
	return DOCA_SUCCESS;
}

/* Common part of export_pci / export_rdma. */
static doca_error_t mmap_export(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				size_t *export_desc_len, enum softdoca_mmap_desc_kind kind)
{
	const bool pci = kind == SOFTDOCA_MMAP_DESC_PCI;
	const char *name = pci ? "doca_mmap_export_pci" : "doca_mmap_export_rdma";
	const struct softhw_card *card;
	struct softdoca_mmap_export *e;
	struct softdoca_mmap_desc d;
	const char *why = "";
	doca_error_t err;

	if (mmap == NULL || dev == NULL || export_desc == NULL || export_desc_len == NULL) {
		SDK_LOG_ERR("Failed to export mmap: %s got a NULL %s", name,
			    mmap == NULL ? "mmap" : dev == NULL ? "dev" : export_desc == NULL ? "export_desc"
											    : "export_desc_len");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/*
	 * DOCA lets a DPU re-export for RDMA the host memory it imported over PCI (NVIDIA's
	 * storage zero-copy application hands the initiator's memory to its target this way).
	 */
	if (mmap->from_export && (pci || !mmap->export_kind_pci)) {
		SDK_LOG_ERR("Failed to export mmap: an mmap created from an export can be exported again only with doca_mmap_export_rdma(), and only when it was imported from doca_mmap_export_pci()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (mmap->from_export && mmap->remote == NULL) {
		SDK_LOG_ERR("Failed to export mmap: it was imported from this process's own export; softdoca re-exports only another process's memory: export the original mmap with doca_mmap_export_rdma() instead");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!mmap->started) {
		SDK_LOG_ERR("Failed to export mmap: mmap is not started; call doca_mmap_start() before %s", name);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (find_dev(mmap, dev) < 0) {
		SDK_LOG_ERR("Failed to export mmap: device was not added; call doca_mmap_add_dev() before doca_mmap_start()");
		return DOCA_ERROR_NOT_FOUND;
	}
	if (pci ? !softdoca_dev_caps(dev)->mmap_export_pci : !softdoca_dev_caps(dev)->mmap_export_rdma) {
		SDK_LOG_ERR("Failed to export mmap: device %s cannot export memory over %s; check doca_mmap_cap_is_export_pci_supported()",
			    dev->devinfo->fn->pci_addr, pci ? "PCI" : "RDMA");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (pci && (mmap->access & PCI_FLAGS) == 0) {
		SDK_LOG_ERR("Failed to export mmap: PCI access not permitted; set DOCA_ACCESS_FLAG_PCI_READ_ONLY or DOCA_ACCESS_FLAG_PCI_READ_WRITE with doca_mmap_set_permissions() before doca_mmap_start()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (!pci && (mmap->access & RDMA_FLAGS) == 0) {
		SDK_LOG_ERR("Failed to export mmap: RDMA access not permitted; set DOCA_ACCESS_FLAG_RDMA_READ, DOCA_ACCESS_FLAG_RDMA_WRITE or DOCA_ACCESS_FLAG_RDMA_ATOMIC with doca_mmap_set_permissions() before doca_mmap_start()");
		return DOCA_ERROR_NOT_PERMITTED;
	}

	/* The same export through the same card gives the same descriptor back. */
	card = dev->devinfo->fn->card;
	for (e = mmap->exports; e != NULL; e = e->next)
		if (e->kind == kind && e->card == card)
			goto out;

	e = calloc(1, sizeof(*e));
	if (e != NULL)
		e->link = calloc(1, sizeof(*e->link));
	if (e == NULL || e->link == NULL) {
		free(e);
		SDK_LOG_ERR("Failed to export mmap: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(&d, 0, sizeof(d));
	card = dev->devinfo->fn->card;
	/* The fabric serves the range to the importing process from now on (a re-export: this
	 * process's soft NIC serves it, through the import, held to the original export's rights). */
	if (mmap->from_export)
		err = softhw_mem_export_add_proxy(card->instance, mmap->remote, (uint64_t)(uintptr_t)mmap->addr,
						  mmap->len, export_rights(mmap->access, kind), &d.export_id, &d.token,
						  &why);
	else
		err = softhw_mem_export_add(card->instance, mmap->addr, mmap->len, export_rights(mmap->access, kind),
					    &d.export_id, &d.token, &why);
	if (err != DOCA_SUCCESS) {
		free(e->link);
		free(e);
		SDK_LOG_ERR("Failed to export mmap: %s (%s); check the process's file descriptor and thread limits",
			    why, doca_error_get_name(err));
		return err;
	}
	d.kind = kind;
	/* a re-export grants the original's RDMA flags, not its PCI ones */
	d.access = mmap->from_export ? (mmap->access & RDMA_FLAGS) | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE : mmap->access;
	d.exporter_pid = (int32_t)getpid();
	d.addr = (uint64_t)(uintptr_t)mmap->addr;
	d.len = mmap->len;
	_Static_assert(sizeof(d.card) == sizeof(card->name) && sizeof(d.instance) == sizeof(card->instance),
		       "descriptor names and card names have the same size");
	memcpy(d.card, card->name, sizeof(d.card));
	memcpy(d.instance, card->instance, sizeof(d.instance));
	softdoca_mmap_desc_encode(&d, e->bytes);
	e->desc = d;
	e->id = d.export_id;
	e->token = d.token;
	e->kind = kind;
	e->card = card;
	e->reexport = mmap->from_export;
	e->next = mmap->exports;
	mmap->exports = e;
	e->link->refs = 1;
	e->link->live = 1;
	pthread_mutex_lock(&registry_lock);
	e->next_all = registry;
	registry = e;
	pthread_mutex_unlock(&registry_lock);
out:
	if (pci) {
		mmap->export_pci_desc = e->bytes;
		mmap->export_pci_len = sizeof(e->bytes);
	} else {
		mmap->export_rdma_desc = e->bytes;
		mmap->export_rdma_len = sizeof(e->bytes);
	}
	mmap->exported = true;
	*export_desc = e->bytes;
	*export_desc_len = sizeof(e->bytes);
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				  size_t *export_desc_len)
{
	return mmap_export(mmap, dev, export_desc, export_desc_len, SOFTDOCA_MMAP_DESC_PCI);
}

doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev, const void **export_desc,
				   size_t *export_desc_len)
{
	return mmap_export(mmap, dev, export_desc, export_desc_len, SOFTDOCA_MMAP_DESC_RDMA);
}

/*
 * The handle device code reaches the mmap's memory by, on the DPA of `dev`: registered with
 * the soft DPA (softhw/dpa/dpa.h), which checks every device access against the range and the
 * permission recorded here, and refuses it from the DPA of any other device.
 */
doca_error_t doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap, const struct doca_dev *dev,
					  doca_dpa_dev_mmap_t *dpa_mmap_handle)
{
	doca_error_t err;
	int i;

	if (mmap == NULL || dev == NULL || dpa_mmap_handle == NULL) {
		SDK_LOG_ERR("Failed to get DPA handle of mmap: %s is NULL",
			    mmap == NULL ? "mmap" : dev == NULL ? "dev" : "output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mmap->from_export && mmap->export_kind_pci) {
		SDK_LOG_ERR("Failed to get DPA handle of mmap: the mmap was created from a PCI export; softdoca's DPA "
			    "reaches local memory and, by RDMA, imported RDMA exports (docs/compatibility.md)");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!mmap->started) {
		SDK_LOG_ERR("Failed to get DPA handle of mmap: the mmap is not started; call doca_mmap_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	i = find_dev(mmap, dev);
	if (i < 0) {
		SDK_LOG_ERR("Failed to get DPA handle of mmap: the device was not added to the mmap; call "
			    "doca_mmap_add_dev() before doca_mmap_start()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (dev->dpa == NULL || !dev->dpa->caps(dev->devinfo->fn, &(struct softhw_dpa_caps){0})) {
		SDK_LOG_ERR("Failed to get DPA handle of mmap: the device (%s) has no DPA",
			    dev->dpa != NULL ? dev->dpa->profile_name(dev->devinfo->fn) : "no DPA support");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (mmap->dpa_handles == NULL) {
		mmap->dpa_handles = calloc(mmap->num_devs, sizeof(uint32_t));
		if (mmap->dpa_handles == NULL) {
			SDK_LOG_ERR("Failed to get DPA handle of mmap: out of memory");
			return DOCA_ERROR_NO_MEMORY;
		}
	}
	if (mmap->dpa_handles[i] == 0) {
		/* an imported RDMA export is the peer's memory: the handle carries its rkey for the NIC */
		if (mmap->from_export)
			err = dev->dpa->mmap_register_remote(dev->devinfo->fn, (uint64_t)(uintptr_t)mmap->addr,
							     mmap->len, mmap->exporter_pid, mmap->export_id,
							     mmap->export_token, &mmap->dpa_handles[i]);
		else
			err = dev->dpa->mmap_register(dev->devinfo->fn, mmap->addr, mmap->len,
						      (mmap->access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) != 0,
						      &mmap->dpa_handles[i]);
		if (err != DOCA_SUCCESS) {
			SDK_LOG_ERR("Failed to get DPA handle of mmap: %s", doca_error_get_name(err));
			return err;
		}
	}
	*dpa_mmap_handle = mmap->dpa_handles[i];
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_create_from_export(const union doca_data *user_data, const void *export_desc,
					  size_t export_desc_len, struct doca_dev *dev, struct doca_mmap **mmap)
{
	struct softhw_mem_remote *remote = NULL;
	struct softdoca_mmap_link *link = NULL;
	const struct softhw_card *card;
	struct softdoca_mmap_desc d;
	struct doca_mmap *m;
	const char *why = "";
	doca_error_t err;

	if (export_desc == NULL || dev == NULL || mmap == NULL) {
		SDK_LOG_ERR("Failed to create mmap from export: %s is NULL",
			    export_desc == NULL ? "export_desc" : dev == NULL ? "dev" : "mmap output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = softdoca_mmap_desc_decode(export_desc, export_desc_len, &d, &why);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to create mmap from export: bad descriptor of %zu bytes: %s; pass the bytes and length doca_mmap_export_pci/rdma() returned, unchanged",
			    export_desc_len, why);
		return err;
	}
	card = dev->devinfo->fn->card;
	if (d.kind == SOFTDOCA_MMAP_DESC_PCI) {
		if (!softdoca_dev_caps(dev)->mmap_create_from_export_pci) {
			SDK_LOG_ERR("Failed to create mmap from export: device %s cannot import a PCI export; check doca_mmap_cap_is_create_from_export_pci_supported()",
				    dev->devinfo->fn->pci_addr);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		/* A PCI export is reachable only from the same card (host <-> its DPU). */
		if (strcmp(d.card, card->name) != 0 || strcmp(d.instance, card->instance) != 0) {
			SDK_LOG_ERR("Failed to create mmap from export: descriptor was exported on card %s (instance %s) but dev is on card %s (instance %s); import it with a device of the exporting card",
				    d.card, d.instance, card->name, card->instance);
			return DOCA_ERROR_INVALID_VALUE;
		}
	}
	/* RDMA exports reach other cards through the fabric: no card check. */
	if (d.exporter_pid == (int32_t)getpid()) {
		/* This process exported it: the export is at hand to check the claims against. */
		struct softdoca_mmap_desc real;
		bool reexport = false;

		link = registry_link(d.export_id, d.token, &real, &reexport);
		err = link != NULL && softhw_mem_export_lookup(d.export_id, d.token) ? check_claims(&d, &real)
										     : DOCA_ERROR_NOT_FOUND;
		if (err == DOCA_SUCCESS && reexport) {
			/* its memory is another process's: only a peer's RDMA reaches it */
			SDK_LOG_ERR("Failed to create mmap from export: the descriptor is this process's own re-export of memory it imported; import it in the RDMA peer, and use the import itself here");
			pthread_mutex_lock(&registry_lock);
			link_put(link);
			pthread_mutex_unlock(&registry_lock);
			return DOCA_ERROR_NOT_SUPPORTED;
		}
		if (err != DOCA_SUCCESS) {
			if (link != NULL) {
				pthread_mutex_lock(&registry_lock);
				link_put(link);
				pthread_mutex_unlock(&registry_lock);
			}
			if (err == DOCA_ERROR_NOT_FOUND)
				SDK_LOG_ERR("Failed to create mmap from export: the exporting mmap was stopped or destroyed, which ends its descriptors; export it again after doca_mmap_start()");
			return DOCA_ERROR_INVALID_VALUE;
		}
	} else {
		/* Another process: its memory service says what it really exported. */
		struct softhw_mem_peer peer = {
			.instance = d.instance,
			.pid = d.exporter_pid,
			.id = d.export_id,
			.token = d.token,
			.addr = d.addr,
			.len = d.len,
			.rights = export_rights(d.access, d.kind),
		};

		/* PCI: prove the descriptor and set up the data path. RDMA: check it if its exporter
		 * runs on this host; else the target checks every access against its export. */
		if (d.kind == SOFTDOCA_MMAP_DESC_PCI)
			err = softhw_mem_connect(&peer, &remote, &why);
		else
			err = softhw_mem_verify(&peer, &why);
		if (err != DOCA_SUCCESS && (d.kind == SOFTDOCA_MMAP_DESC_PCI || err == DOCA_ERROR_INVALID_VALUE)) {
			SDK_LOG_ERR("Failed to create mmap from export of process %d: %s (the descriptor says %s export %lu of 0x%lx..0x%lx, access flags 0x%x)%s",
				    (int)d.exporter_pid, why, kind_name(d.kind), (unsigned long)d.export_id,
				    (unsigned long)d.addr, (unsigned long)(d.addr + d.len), d.access,
				    err == DOCA_ERROR_INVALID_VALUE ? "; pass the bytes the export returned, unchanged" : "");
			return err;
		}
		if (err != DOCA_SUCCESS)
			SDK_LOG_DBG("RDMA export %lu of process %d not checked at import (%s): its target checks every access",
				    (unsigned long)d.export_id, (int)d.exporter_pid, why);
	}

	m = calloc(1, sizeof(*m));
	if (m != NULL)
		m->devs = calloc(1, sizeof(*m->devs));
	if (m == NULL || m->devs == NULL) {
		free(m);
		softhw_mem_disconnect(remote);
		if (link != NULL) {
			pthread_mutex_lock(&registry_lock);
			link_put(link);
			pthread_mutex_unlock(&registry_lock);
		}
		SDK_LOG_ERR("Failed to create mmap from export: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	m->addr = (void *)(uintptr_t)d.addr;
	m->len = (size_t)d.len;
	m->range_set = true;
	m->access = d.access;
	m->started = true;
	m->from_export = true;
	m->export_kind_pci = d.kind == SOFTDOCA_MMAP_DESC_PCI;
	m->max_devs = 1;
	m->num_devs = 1;
	m->devs[0] = dev;
	if (user_data != NULL)
		m->user_data = *user_data;
	m->exporter_pid = d.exporter_pid;
	m->export_id = d.export_id;
	m->export_token = d.token;
	m->other_process = d.exporter_pid != (int32_t)getpid();
	m->remote = remote;
	m->link = link;
	*mmap = m;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len)
{
	if (mmap == NULL || addr == NULL || len == 0) {
		SDK_LOG_ERR("Failed to set mmap memory range: %s", mmap == NULL ? "mmap is NULL" :
			    addr == NULL ? "addr is NULL" : "len is 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((uintptr_t)addr > UINTPTR_MAX - len) {
		SDK_LOG_ERR("Failed to set mmap memory range: addr %p + len %zu wraps around the address space",
			    addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mmap->from_export) {
		SDK_LOG_ERR("Failed to set mmap memory range: mmap was created from an export and has the exporter's range");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (mmap->started) {
		SDK_LOG_ERR("Failed to set mmap memory range: mmap is started; call it before doca_mmap_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (mmap->range_set) {
		SDK_LOG_ERR("Failed to set mmap memory range: range already set; the range of an mmap is set once, use another mmap for other memory");
		return DOCA_ERROR_BAD_STATE;
	}
	mmap->addr = addr;
	mmap->len = len;
	mmap->range_set = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd, void *addr, size_t dmabuf_offset,
					   size_t len)
{
	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to set mmap dmabuf memory range: mmap is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("Failed to set mmap dmabuf memory range: softdoca has no dmabuf-exporting devices (GPUs); use doca_mmap_set_memrange() with host memory");
	return DOCA_ERROR_NOT_SUPPORTED;
}

/*
 * DPA memory: the soft DPA's device memory is a mapping of this process, and a device address
 * is its host address (softhw/dpa/dpa.h), so the range is an ordinary one after a check that
 * it lies inside one allocation of that started DPA context. The DPA's device is added to the
 * mmap: the RDMA exports and DPA handles of that device then name it.
 */
doca_error_t doca_mmap_set_dpa_memrange(struct doca_mmap *mmap, struct doca_dpa *dpa, uint64_t dpa_addr, size_t len)
{
	struct softdoca_dpa_base *base;
	doca_error_t err;

	if (mmap == NULL || dpa == NULL) {
		SDK_LOG_ERR("Failed to set mmap DPA memory range: %s is NULL", mmap == NULL ? "mmap" : "dpa");
		return DOCA_ERROR_INVALID_VALUE;
	}
	base = softdoca_dpa_base(dpa);
	if (base->hw == NULL) {
		SDK_LOG_ERR("Failed to set mmap DPA memory range: the DPA context is not started; call doca_dpa_start() "
			    "and allocate the memory with doca_dpa_mem_alloc() first");
		return DOCA_ERROR_BAD_STATE;
	}
	if (len == 0 || base->dev->dpa->mem_ptr(base->hw, dpa_addr, len) == NULL) {
		SDK_LOG_ERR("Failed to set mmap DPA memory range: [0x%llx, +%zu) is not inside one doca_dpa_mem_alloc() "
			    "allocation of this DPA context",
			    (unsigned long long)dpa_addr, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = doca_mmap_set_memrange(mmap, (void *)(uintptr_t)dpa_addr, len);
	if (err != DOCA_SUCCESS)
		return err;
	if (find_dev(mmap, base->dev) < 0) {
		err = doca_mmap_add_dev(mmap, base->dev);
		if (err != DOCA_SUCCESS) {
			mmap->range_set = false;
			mmap->addr = NULL;
			mmap->len = 0;
			return err;
		}
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr, size_t *len)
{
	if (mmap == NULL || addr == NULL || len == NULL) {
		SDK_LOG_ERR("Failed to get mmap memory range: %s is NULL",
			    mmap == NULL ? "mmap" : addr == NULL ? "addr" : "len");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!mmap->range_set) {
		SDK_LOG_ERR("Failed to get mmap memory range: no range set; call doca_mmap_set_memrange() first");
		return DOCA_ERROR_BAD_STATE;
	}
	*addr = mmap->addr;
	*len = mmap->len;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_set_free_cb(struct doca_mmap *mmap, doca_mmap_memrange_free_cb_t *free_cb, void *opaque)
{
	doca_error_t err;

	if (mmap == NULL || free_cb == NULL) {
		SDK_LOG_ERR("Failed to set mmap free callback: %s is NULL", mmap == NULL ? "mmap" : "free_cb");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(mmap, "set mmap free callback", DOCA_ERROR_BAD_STATE);
	if (err != DOCA_SUCCESS)
		return err;
	mmap->free_cb = free_cb;
	mmap->free_cb_opaque = opaque;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap, union doca_data *user_data)
{
	if (mmap == NULL || user_data == NULL) {
		SDK_LOG_ERR("Failed to get mmap user data: %s is NULL", mmap == NULL ? "mmap" : "user_data");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*user_data = mmap->user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_max_num_devices(const struct doca_mmap *mmap, uint32_t *max_num_devices)
{
	if (mmap == NULL || max_num_devices == NULL) {
		SDK_LOG_ERR("Failed to get mmap max number of devices: %s is NULL",
			    mmap == NULL ? "mmap" : "max_num_devices");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*max_num_devices = mmap->max_devs;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs)
{
	if (mmap == NULL || num_bufs == NULL) {
		SDK_LOG_ERR("Failed to get mmap number of bufs: %s is NULL", mmap == NULL ? "mmap" : "num_bufs");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*num_bufs = mmap->thread_safe ? __atomic_load_n(&mmap->num_bufs, __ATOMIC_RELAXED) : mmap->num_bufs;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_exported(const struct doca_mmap *mmap, uint8_t *exported)
{
	if (mmap == NULL || exported == NULL) {
		SDK_LOG_ERR("Failed to get mmap exported state: %s is NULL", mmap == NULL ? "mmap" : "exported");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*exported = mmap->exported;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_get_from_export(const struct doca_mmap *mmap, uint8_t *from_export)
{
	if (mmap == NULL || from_export == NULL) {
		SDK_LOG_ERR("Failed to get mmap from-export state: %s is NULL", mmap == NULL ? "mmap" : "from_export");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*from_export = mmap->from_export;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap, uint32_t max_num_devices)
{
	struct doca_dev **devs;
	doca_error_t err;

	if (mmap == NULL || max_num_devices == 0) {
		SDK_LOG_ERR("Failed to set mmap max number of devices: %s",
			    mmap == NULL ? "mmap is NULL" : "0 devices");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(mmap, "set mmap max number of devices", DOCA_ERROR_NOT_PERMITTED);
	if (err != DOCA_SUCCESS)
		return err;
	if (mmap->was_started) {
		SDK_LOG_ERR("Failed to set mmap max number of devices: allowed only before the first doca_mmap_start()");
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (max_num_devices < mmap->num_devs) {
		SDK_LOG_ERR("Failed to set mmap max number of devices: %u devices are already added; remove some with doca_mmap_rm_dev() first",
			    mmap->num_devs);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (mmap->devs != NULL) {
		devs = realloc(mmap->devs, max_num_devices * sizeof(*devs));
		if (devs == NULL) {
			SDK_LOG_ERR("Failed to set mmap max number of devices: out of memory");
			return DOCA_ERROR_NO_MEMORY;
		}
		mmap->devs = devs;
	}
	mmap->max_devs = max_num_devices;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask)
{
	doca_error_t err;

	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to set mmap permissions: mmap is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((access_mask & ~ACCESS_FLAGS_ALL) != 0) {
		SDK_LOG_ERR("Failed to set mmap permissions: unknown bits 0x%x; use only enum doca_access_flag values",
			    access_mask & ~ACCESS_FLAGS_ALL);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(mmap, "set mmap permissions", DOCA_ERROR_BAD_STATE);
	if (err != DOCA_SUCCESS)
		return err;
	mmap->access = access_mask;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data)
{
	doca_error_t err;

	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to set mmap user data: mmap is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_configurable(mmap, "set mmap user data", DOCA_ERROR_BAD_STATE);
	if (err != DOCA_SUCCESS)
		return err;
	mmap->user_data = user_data;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *mmap_export)
{
	if (devinfo == NULL || mmap_export == NULL) {
		SDK_LOG_ERR("Failed to query mmap PCI export capability: %s is NULL",
			    devinfo == NULL ? "devinfo" : "mmap_export");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*mmap_export = softdoca_devinfo_caps(devinfo)->mmap_export_pci;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(const struct doca_devinfo *devinfo, uint8_t *from_export)
{
	if (devinfo == NULL || from_export == NULL) {
		SDK_LOG_ERR("Failed to query mmap PCI import capability: %s is NULL",
			    devinfo == NULL ? "devinfo" : "from_export");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*from_export = softdoca_devinfo_caps(devinfo)->mmap_create_from_export_pci;
	return DOCA_SUCCESS;
}

doca_error_t doca_mmap_enable_thread_safety(struct doca_mmap *mmap)
{
	doca_error_t err;

	if (mmap == NULL) {
		SDK_LOG_ERR("Failed to enable mmap thread safety: mmap is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* An import may be made thread-safe too: it configures no range or device (NVIDIA's
	 * storage target does this to the initiator's memory it imports). */
	if (!mmap->from_export) {
		err = check_configurable(mmap, "enable mmap thread safety", DOCA_ERROR_NOT_PERMITTED);
		if (err != DOCA_SUCCESS)
			return err;
	}
	mmap->thread_safe = true;
	return DOCA_SUCCESS;
}
