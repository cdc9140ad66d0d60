/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dev.h: devices and representors, answered from the soft device model. Every devinfo
 * is process-wide (see dev_priv.h); lists are arrays of pointers to them.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/comch/comch.h"
#include "softhw/dpa/dpa.h"
#include "softhw/nvme/nvme_ops.h"
#include "softhw/rnic/rnic.h"

SDK_LOG_REGISTER(DOCA_DEV);

#define DEVINFO_LIST_MAGIC 0x534f4644494e464fULL /* "SOFDINFO" */
#define REP_LIST_MAGIC 0x534f46445245504cULL     /* "SOFDREPL" */

/* A list handed to the application: a header in front of the pointer array it sees. */
struct dev_list {
	uint64_t magic;
	uint64_t count;
	void *items[]; /* count pointers, then NULL */
};

static struct {
	pthread_once_t once;
	pthread_mutex_t lock; /* open/close of devices and representors */
	const struct softhw_model *model;
	doca_error_t err;
	uint32_t count;
	struct doca_devinfo *infos;
} store = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

static void store_init(void)
{
	store.model = softhw_model_get(&store.err);
	if (store.model == NULL)
		return;
	store.count = softhw_model_num_functions(store.model);
	store.infos = calloc(store.count ? store.count : 1, sizeof(*store.infos));
	if (store.infos == NULL) {
		store.err = DOCA_ERROR_NO_MEMORY;
		store.model = NULL;
		return;
	}
	for (uint32_t i = 0; i < store.count; i++) {
		store.infos[i].fn = softhw_model_function(store.model, i);
		if (store.infos[i].fn->num_reps == 0)
			continue;
		store.infos[i].open_reps = calloc(store.infos[i].fn->num_reps, sizeof(struct doca_dev_rep *));
		if (store.infos[i].open_reps == NULL) {
			store.err = DOCA_ERROR_NO_MEMORY;
			store.model = NULL;
			return;
		}
	}
}

/* Only devinfos of the store are real; anything else is refused instead of dereferenced. */
static bool devinfo_ok(const struct doca_devinfo *devinfo)
{
	pthread_once(&store.once, store_init);
	return devinfo != NULL && store.model != NULL && devinfo >= store.infos && devinfo < store.infos + store.count;
}

static struct dev_list *list_of(void *items, uint64_t magic)
{
	struct dev_list *l;

	if (items == NULL)
		return NULL;
	l = (struct dev_list *)((char *)items - offsetof(struct dev_list, items));
	return l->magic == magic ? l : NULL;
}

/* ---- device lists ------------------------------------------------------------------------- */

doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list, uint32_t *nb_devs)
{
	struct dev_list *l;

	if (dev_list == NULL || nb_devs == NULL) {
		SDK_LOG_ERR("doca_devinfo_create_list: dev_list and nb_devs must point to variables that receive the list");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_once(&store.once, store_init);
	if (store.model == NULL) {
		SDK_LOG_ERR("doca_devinfo_create_list: no devices: the soft device model did not load (%s); fix the "
			    "error reported above (SOFTDOCA_CONFIG / SOFTDOCA_ROLE)", doca_error_get_name(store.err));
		return store.err;
	}
	l = malloc(sizeof(*l) + (store.count + 1) * sizeof(void *));
	if (l == NULL) {
		SDK_LOG_ERR("doca_devinfo_create_list: out of memory for a list of %u devices", store.count);
		return DOCA_ERROR_NO_MEMORY;
	}
	l->magic = DEVINFO_LIST_MAGIC;
	l->count = store.count;
	for (uint32_t i = 0; i < store.count; i++)
		l->items[i] = &store.infos[i];
	l->items[store.count] = NULL;
	*dev_list = (struct doca_devinfo **)l->items;
	*nb_devs = store.count;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list)
{
	struct dev_list *l = list_of(dev_list, DEVINFO_LIST_MAGIC);

	if (l == NULL) {
		SDK_LOG_ERR("doca_devinfo_destroy_list: not a list from doca_devinfo_create_list (NULL, already "
			    "destroyed, or a representor list: use doca_devinfo_rep_destroy_list)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* Opened devices keep their devinfo: it belongs to the process, not to the list. */
	l->magic = 0;
	free(l);
	return DOCA_SUCCESS;
}

/* ---- devices ------------------------------------------------------------------------------ */

doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev)
{
	struct doca_dev *d;

	if (!devinfo_ok(devinfo) || dev == NULL) {
		if (dev == NULL)
			SDK_LOG_ERR("doca_dev_open: dev must point to a variable that receives the device");
		else
			SDK_LOG_ERR("doca_dev_open: devinfo is %s; pass an entry of a doca_devinfo_create_list list",
				    devinfo == NULL ? "NULL" : "not a live devinfo");
		return DOCA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_lock(&store.lock);
	d = devinfo->open_dev;
	if (d != NULL) {
		d->refcount++;
	} else {
		d = calloc(1, sizeof(*d));
		if (d != NULL) {
			d->devinfo = devinfo;
			d->refcount = 1;
			d->rnic = &softhw_rnic_ops;
			d->comch = &softhw_comch_ops;
			d->dpa = &softhw_dpa_ops;
			d->nvme = &softhw_nvme_ops;
			devinfo->open_dev = d;
		}
	}
	pthread_mutex_unlock(&store.lock);
	if (d == NULL) {
		SDK_LOG_ERR("doca_dev_open: out of memory opening %s", devinfo->fn->pci_addr);
		return DOCA_ERROR_NO_MEMORY;
	}
	*dev = d;
	return DOCA_SUCCESS;
}

doca_error_t doca_dev_close(struct doca_dev *dev)
{
	doca_error_t err = DOCA_SUCCESS;

	/* DOCA samples close a device pointer they already reset to NULL and expect success. */
	if (dev == NULL)
		return DOCA_SUCCESS;
	pthread_mutex_lock(&store.lock);
	if (dev->refcount == 0 || dev->devinfo == NULL || dev->devinfo->open_dev != dev) {
		err = DOCA_ERROR_INVALID_VALUE;
	} else if (dev->refcount == 1 && __atomic_load_n(&dev->users, __ATOMIC_RELAXED) != 0) {
		err = DOCA_ERROR_IN_USE;
	} else if (--dev->refcount == 0) {
		dev->devinfo->open_dev = NULL;
		free(dev);
	}
	pthread_mutex_unlock(&store.lock);
	if (err == DOCA_ERROR_INVALID_VALUE)
		SDK_LOG_ERR("doca_dev_close: dev is not an open device (closed more often than opened?)");
	else if (err == DOCA_ERROR_IN_USE)
		SDK_LOG_ERR("doca_dev_close: the device is still used by an mmap or a context; destroy those first");
	return err;
}

doca_error_t doca_dev_accelerate_resource_reclaim(struct doca_dev *dev)
{
	if (dev == NULL) {
		SDK_LOG_ERR("doca_dev_accelerate_resource_reclaim: dev is NULL; pass an open device");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->accelerate_resource_reclaim) {
		SDK_LOG_ERR("doca_dev_accelerate_resource_reclaim: not supported by %s (%s); check "
			    "doca_devinfo_cap_is_accelerate_resource_reclaim_supported first",
			    dev->devinfo->fn->pci_addr, softhw_profile_name(dev->devinfo->fn->card->profile));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	/* Soft resources are released at once: nothing to accelerate. */
	return DOCA_SUCCESS;
}

struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev)
{
	if (dev == NULL) {
		SDK_LOG_ERR("doca_dev_as_devinfo: dev is NULL; pass an open device");
		return NULL;
	}
	return dev->devinfo;
}

/* ---- representors ------------------------------------------------------------------------- */

#define REP_FILTER_KNOWN (DOCA_DEVINFO_REP_FILTER_NET | DOCA_DEVINFO_REP_FILTER_EMULATED)

static bool rep_matches(const struct softhw_rep *rep, int filter)
{
	if (filter == DOCA_DEVINFO_REP_FILTER_ALL)
		return true;
	if (rep->emulated)
		return (filter & DOCA_DEVINFO_REP_FILTER_EMULATED) != 0;
	return (filter & DOCA_DEVINFO_REP_FILTER_NET) != 0;
}

/* Can this device list representors of the kinds in `filter`? Logs the reason if not. */
static doca_error_t rep_filter_check(const struct doca_dev *dev, int filter)
{
	const struct softhw_caps *caps = softdoca_dev_caps(dev);
	const char *pci = dev->devinfo->fn->pci_addr;

	if (filter & ~REP_FILTER_KNOWN) {
		SDK_LOG_ERR("doca_devinfo_rep_create_list: filter 0x%x has unknown bits; use DOCA_DEVINFO_REP_FILTER_ALL, "
			    "_NET and/or _EMULATED", (unsigned)filter);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!caps->rep_filter_all) {
		SDK_LOG_ERR("doca_devinfo_rep_create_list: %s lists no representors: representors are only visible on "
			    "the DPU side (build with the DPU flavour or run with SOFTDOCA_ROLE=dpu, on a BlueField card)",
			    pci);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (((filter & DOCA_DEVINFO_REP_FILTER_NET) && !caps->rep_filter_net) ||
	    ((filter & DOCA_DEVINFO_REP_FILTER_EMULATED) && !caps->rep_filter_emulated)) {
		SDK_LOG_ERR("doca_devinfo_rep_create_list: %s cannot filter representors by 0x%x; check "
			    "doca_devinfo_rep_cap_is_filter_*_supported first", pci, (unsigned)filter);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev, int filter, struct doca_devinfo_rep ***dev_list_rep,
					  uint32_t *nb_devs_rep)
{
	const struct softhw_function *fn;
	struct doca_devinfo_rep *entries;
	struct dev_list *l;
	uint32_t n = 0;
	doca_error_t err;

	if (dev == NULL || dev_list_rep == NULL || nb_devs_rep == NULL) {
		SDK_LOG_ERR("doca_devinfo_rep_create_list: %s", dev == NULL ? "dev is NULL; pass an open local device" :
			    "dev_list_rep and nb_devs_rep must point to variables that receive the list");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = rep_filter_check(dev, filter);
	if (err != DOCA_SUCCESS)
		return err;
	fn = dev->devinfo->fn;
	/* One block: header, NULL-terminated pointer array, then the entries it points to. */
	l = malloc(sizeof(*l) + (fn->num_reps + 1) * sizeof(void *) + fn->num_reps * sizeof(*entries));
	if (l == NULL) {
		SDK_LOG_ERR("doca_devinfo_rep_create_list: out of memory for %u representors", fn->num_reps);
		return DOCA_ERROR_NO_MEMORY;
	}
	entries = (struct doca_devinfo_rep *)&l->items[fn->num_reps + 1];
	for (uint32_t i = 0; i < fn->num_reps; i++) {
		if (!rep_matches(&fn->reps[i], filter))
			continue;
		entries[n] = (struct doca_devinfo_rep){
			.rep = &fn->reps[i], .parent = dev, .parent_info = dev->devinfo, .slot = i};
		l->items[n] = &entries[n];
		n++;
	}
	l->items[n] = NULL;
	l->magic = REP_LIST_MAGIC;
	l->count = n;
	*dev_list_rep = (struct doca_devinfo_rep **)l->items;
	*nb_devs_rep = n;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep)
{
	struct dev_list *l = list_of(dev_list_rep, REP_LIST_MAGIC);

	if (l == NULL) {
		SDK_LOG_ERR("doca_devinfo_rep_destroy_list: not a list from doca_devinfo_rep_create_list (NULL, already "
			    "destroyed, or a device list: use doca_devinfo_destroy_list)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	l->magic = 0;
	free(l);
	return DOCA_SUCCESS;
}

doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo, struct doca_dev_rep **dev_rep)
{
	struct doca_devinfo *parent;
	struct doca_dev_rep *r;
	doca_error_t err = DOCA_SUCCESS;

	if (devinfo == NULL || dev_rep == NULL || !devinfo_ok(devinfo->parent_info) ||
	    devinfo->slot >= devinfo->parent_info->fn->num_reps) {
		SDK_LOG_ERR("doca_dev_rep_open: %s", dev_rep == NULL ? "dev_rep must point to a variable that receives "
			    "the representor" : "devinfo is not an entry of a doca_devinfo_rep_create_list list");
		return DOCA_ERROR_INVALID_VALUE;
	}
	parent = devinfo->parent_info;
	pthread_mutex_lock(&store.lock);
	r = parent->open_reps[devinfo->slot];
	if (r != NULL) {
		r->refcount++;
	} else if (parent->open_dev == NULL) {
		err = DOCA_ERROR_BAD_STATE;
	} else {
		r = calloc(1, sizeof(*r));
		if (r == NULL) {
			err = DOCA_ERROR_NO_MEMORY;
		} else {
			r->info = *devinfo;
			r->info.parent = parent->open_dev;
			r->refcount = 1;
			parent->open_reps[devinfo->slot] = r;
		}
	}
	pthread_mutex_unlock(&store.lock);
	if (err == DOCA_ERROR_BAD_STATE)
		SDK_LOG_ERR("doca_dev_rep_open: the local device %s was closed; keep it open while using its "
			    "representors", parent->fn->pci_addr);
	else if (err == DOCA_ERROR_NO_MEMORY)
		SDK_LOG_ERR("doca_dev_rep_open: out of memory");
	if (err == DOCA_SUCCESS)
		*dev_rep = r;
	return err;
}

doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev)
{
	struct doca_devinfo *parent;
	doca_error_t err = DOCA_SUCCESS;

	if (dev == NULL || !devinfo_ok(dev->info.parent_info)) {
		SDK_LOG_ERR("doca_dev_rep_close: dev is not an open representor; pass one from doca_dev_rep_open");
		return DOCA_ERROR_INVALID_VALUE;
	}
	parent = dev->info.parent_info;
	pthread_mutex_lock(&store.lock);
	if (dev->refcount == 0 || dev->info.slot >= parent->fn->num_reps || parent->open_reps[dev->info.slot] != dev) {
		err = DOCA_ERROR_INVALID_VALUE;
	} else if (--dev->refcount == 0) {
		parent->open_reps[dev->info.slot] = NULL;
		free(dev);
	}
	pthread_mutex_unlock(&store.lock);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("doca_dev_rep_close: dev is not an open representor (closed more often than opened?)");
	return err;
}

struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep)
{
	if (dev_rep == NULL) {
		SDK_LOG_ERR("doca_dev_rep_as_devinfo: dev_rep is NULL; pass an open representor");
		return NULL;
	}
	return &dev_rep->info;
}

/* ---- getters ------------------------------------------------------------------------------ */

/* Argument checks shared by the getters: one log line naming the call and the fix. */
#define CHECK_DEVINFO(devinfo, out) \
	do { \
		if (!devinfo_ok(devinfo)) { \
			SDK_LOG_ERR("%s: devinfo is %s; pass an entry of a doca_devinfo_create_list list (or " \
				    "doca_dev_as_devinfo of an open device)", \
				    __func__, (devinfo) == NULL ? "NULL" : "not a live devinfo"); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
		if ((out) == NULL) { \
			SDK_LOG_ERR("%s: %s is NULL; pass a buffer for the result", __func__, #out); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
	} while (0)

#define CHECK_REP(info, out) \
	do { \
		if ((info) == NULL || (info)->rep == NULL) { \
			SDK_LOG_ERR("%s: devinfo_rep is NULL; pass an entry of a doca_devinfo_rep_create_list list", \
				    __func__); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
		if ((out) == NULL) { \
			SDK_LOG_ERR("%s: %s is NULL; pass a buffer for the result", __func__, #out); \
			return DOCA_ERROR_INVALID_VALUE; \
		} \
	} while (0)

/* Copies a fixed-size value into the caller's buffer of `size` bytes. */
static doca_error_t copy_bytes(const char *func, void *dst, uint32_t size, const void *src, uint32_t len)
{
	if (size < len) {
		SDK_LOG_ERR("%s: buffer of %u bytes is too small; it needs %u bytes", func, size, len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(dst, src, len);
	return DOCA_SUCCESS;
}

/* Copies a name with its NUL into the caller's buffer of `size` bytes. */
static doca_error_t copy_name(const char *func, char *dst, uint32_t size, const char *name)
{
	return copy_bytes(func, dst, size, name, (uint32_t)strlen(name) + 1);
}

static doca_error_t pci_equal(const char *func, const char *ours, const char *pci_addr_str, uint8_t *is_equal)
{
	char canon[SOFTHW_PCI_ADDR_LEN];

	if (!softhw_pci_addr_parse(pci_addr_str, canon)) {
		SDK_LOG_ERR("%s: '%s' is not a PCI address; write BB:DD.F or DDDD:BB:DD.F (e.g. b1:00.0)", func,
			    pci_addr_str);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*is_equal = strcmp(canon, ours) == 0;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo, char *pci_addr_str)
{
	CHECK_DEVINFO(devinfo, pci_addr_str);
	memcpy(pci_addr_str, devinfo->fn->pci_addr, SOFTHW_PCI_ADDR_LEN);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo, const char *pci_addr_str,
					    uint8_t *is_equal)
{
	CHECK_DEVINFO(devinfo, is_equal);
	if (pci_addr_str == NULL) {
		SDK_LOG_ERR("%s: pci_addr_str is NULL; pass an address such as \"b1:00.0\"", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return pci_equal(__func__, devinfo->fn->pci_addr, pci_addr_str, is_equal);
}

doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo, uint8_t *ipv4_addr, uint32_t size)
{
	CHECK_DEVINFO(devinfo, ipv4_addr);
	if (!devinfo->fn->has_ipv4) {
		SDK_LOG_ERR("%s: %s has no IPv4 address; give it one with ipv4 in the device configuration", __func__,
			    devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_FOUND;
	}
	return copy_bytes(__func__, ipv4_addr, size, devinfo->fn->ipv4, DOCA_DEVINFO_IPV4_ADDR_SIZE);
}

doca_error_t doca_devinfo_get_ipv6_addr(const struct doca_devinfo *devinfo, uint8_t *ipv6_addr, uint32_t size)
{
	CHECK_DEVINFO(devinfo, ipv6_addr);
	if (!devinfo->fn->has_ipv6) {
		SDK_LOG_ERR("%s: %s has no IPv6 address", __func__, devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_FOUND;
	}
	return copy_bytes(__func__, ipv6_addr, size, devinfo->fn->ipv6, DOCA_DEVINFO_IPV6_ADDR_SIZE);
}

doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo, uint8_t *mac_addr, uint32_t size)
{
	CHECK_DEVINFO(devinfo, mac_addr);
	return copy_bytes(__func__, mac_addr, size, devinfo->fn->mac, DOCA_DEVINFO_MAC_ADDR_SIZE);
}

doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo, char *iface_name, uint32_t size)
{
	CHECK_DEVINFO(devinfo, iface_name);
	return copy_name(__func__, iface_name, size, devinfo->fn->iface_name);
}

doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo, char *ibdev_name, uint32_t size)
{
	CHECK_DEVINFO(devinfo, ibdev_name);
	return copy_name(__func__, ibdev_name, size, devinfo->fn->ibdev_name);
}

doca_error_t doca_devinfo_get_lid(const struct doca_devinfo *devinfo, uint16_t *lid)
{
	CHECK_DEVINFO(devinfo, lid);
	SDK_LOG_ERR("%s: %s has a RoCE (Ethernet) link layer; LIDs exist only on InfiniBand ports, address it by "
		    "GID instead", __func__, devinfo->fn->pci_addr);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo, uint64_t *active_rate)
{
	CHECK_DEVINFO(devinfo, active_rate);
	*active_rate = devinfo->fn->active_rate;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_vhca_id(const struct doca_devinfo *devinfo, uint16_t *vhca_id)
{
	CHECK_DEVINFO(devinfo, vhca_id);
	*vhca_id = devinfo->fn->vhca_id;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_pci_func_type(const struct doca_devinfo *devinfo, enum doca_pci_func_type *pci_func_type)
{
	CHECK_DEVINFO(devinfo, pci_func_type);
	*pci_func_type = devinfo->fn->func_type;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo, uint32_t *sf_index)
{
	CHECK_DEVINFO(devinfo, sf_index);
	if (devinfo->fn->func_type != DOCA_PCI_FUNC_TYPE_SF) {
		SDK_LOG_ERR("%s: %s is not a scalable function (SF); check doca_devinfo_get_pci_func_type first",
			    __func__, devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*sf_index = devinfo->fn->sf_index;
	return DOCA_SUCCESS;
}

#define DEVINFO_CAP(name, field) \
	doca_error_t name(const struct doca_devinfo *devinfo, uint8_t *supported) \
	{ \
		CHECK_DEVINFO(devinfo, supported); \
		*supported = softdoca_devinfo_caps(devinfo)->field; \
		return DOCA_SUCCESS; \
	}

DEVINFO_CAP(doca_devinfo_cap_is_hotplug_manager_supported, hotplug_manager)
DEVINFO_CAP(doca_devinfo_cap_is_notification_moderation_supported, notification_moderation)
DEVINFO_CAP(doca_devinfo_rep_cap_is_filter_all_supported, rep_filter_all)
DEVINFO_CAP(doca_devinfo_rep_cap_is_filter_net_supported, rep_filter_net)
DEVINFO_CAP(doca_devinfo_rep_cap_is_filter_emulated_supported, rep_filter_emulated)
DEVINFO_CAP(doca_devinfo_cap_is_accelerate_resource_reclaim_supported, accelerate_resource_reclaim)

doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep, char *rep_vuid, uint32_t size)
{
	CHECK_REP(devinfo_rep, rep_vuid);
	return copy_name(__func__, rep_vuid, size, devinfo_rep->rep->vuid);
}

doca_error_t doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep, char *pci_addr_str)
{
	CHECK_REP(devinfo_rep, pci_addr_str);
	memcpy(pci_addr_str, devinfo_rep->rep->pci_addr, SOFTHW_PCI_ADDR_LEN);
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_pci_func_type(const struct doca_devinfo_rep *devinfo_rep,
						enum doca_pci_func_type *pci_func_type)
{
	CHECK_REP(devinfo_rep, pci_func_type);
	*pci_func_type = devinfo_rep->rep->func_type;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_is_hotplug(const struct doca_devinfo_rep *devinfo_rep, uint8_t *is_hotplug)
{
	CHECK_REP(devinfo_rep, is_hotplug);
	*is_hotplug = devinfo_rep->rep->is_hotplug;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_get_iface_name(const struct doca_devinfo_rep *devinfo_rep, char *iface_name,
					     uint32_t size)
{
	CHECK_REP(devinfo_rep, iface_name);
	return copy_name(__func__, iface_name, size, devinfo_rep->rep->iface_name);
}

doca_error_t doca_devinfo_rep_get_vhca_id(const struct doca_devinfo_rep *devinfo_rep, uint16_t *vhca_id)
{
	CHECK_REP(devinfo_rep, vhca_id);
	*vhca_id = devinfo_rep->rep->vhca_id;
	return DOCA_SUCCESS;
}

doca_error_t doca_devinfo_rep_is_equal_pci_addr(const struct doca_devinfo_rep *devinfo_rep, const char *pci_addr_str,
						uint8_t *is_equal)
{
	CHECK_REP(devinfo_rep, is_equal);
	if (pci_addr_str == NULL) {
		SDK_LOG_ERR("%s: pci_addr_str is NULL; pass an address such as \"b1:00.0\"", __func__);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return pci_equal(__func__, devinfo_rep->rep->pci_addr, pci_addr_str, is_equal);
}
