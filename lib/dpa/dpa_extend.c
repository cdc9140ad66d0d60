/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dpa_device_extend: a process (on the DPU, typically) extends its started DPA context to
 * a second device of the same card, e.g. the device its RDMA runs on. The extended context is
 * another handle on the same DPA process: the parent's soft DPA (EUs, memory, sync event
 * handles), image and device code, plus the second device's mmap handles. It is started on
 * creation and must be destroyed before its parent. Device code names it with
 * doca_dpa_dev_device_set(<its doca_dpa_get_dpa_handle>), which softdoca checks.
 */
#include <pthread.h>
#include <stdlib.h>

#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"
#include "softhw/softhw.h"

SDK_LOG_REGISTER(DPA_EXTEND);

/* Guards every parent's list of extended contexts (device code reads them in device_set). */
static pthread_mutex_t family_lock = PTHREAD_MUTEX_INITIALIZER;

doca_error_t doca_dpa_device_extend(struct doca_dpa *dpa, struct doca_dev *other_dev, struct doca_dpa **extended_dpa)
{
	const struct softhw_function *fn, *other;
	struct doca_dpa *ext;
	doca_error_t err;

	if (dpa == NULL || other_dev == NULL || extended_dpa == NULL) {
		SDK_LOG_ERR("Failed to extend DPA context: %s is NULL",
			    dpa == NULL ? "dpa" : other_dev == NULL ? "other_dev" : "extended_dpa");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started || dpa->parent != NULL) {
		SDK_LOG_ERR("Failed to extend DPA context: %s",
			    dpa->parent != NULL ? "it is itself an extended context; extend the context it came from"
						: "it is not started; call doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	fn = dpa->base.dev->devinfo->fn;
	other = other_dev->devinfo->fn;
	if (other == fn) {
		SDK_LOG_ERR("Failed to extend DPA context: %s is the context's own device; extend it to another "
			    "device of the same card",
			    fn->pci_addr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (other->card != fn->card) {
		SDK_LOG_ERR("Failed to extend DPA context of %s to %s: the two devices are on different cards, and a "
			    "DPA reaches only the functions of its own card",
			    fn->pci_addr, other->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	ext = calloc(1, sizeof(*ext));
	if (ext == NULL) {
		SDK_LOG_ERR("Failed to extend DPA context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	err = dpa->base.dev->dpa->extend(dpa->base.hw, other);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to extend DPA context: it is already extended to %d devices, softdoca's limit",
			    SOFTHW_DPA_MAX_EXTEND);
		free(ext);
		return err;
	}
	ext->base.dev = other_dev;
	ext->base.hw = dpa->base.hw;
	ext->app = dpa->app;
	ext->img = dpa->img;
	ext->log_level = dpa->log_level;
	ext->parent = dpa;
	ext->started = true;
	softdoca_dev_hold(other_dev);
	pthread_mutex_lock(&family_lock);
	ext->ext_next = dpa->extended;
	dpa->extended = ext;
	pthread_mutex_unlock(&family_lock);
	*extended_dpa = ext;
	return DOCA_SUCCESS;
}

bool softdoca_dpa_has_extended(struct doca_dpa *dpa)
{
	bool has;

	pthread_mutex_lock(&family_lock);
	has = dpa->extended != NULL;
	pthread_mutex_unlock(&family_lock);
	return has;
}

void softdoca_dpa_extended_destroy(struct doca_dpa *ext)
{
	struct doca_dpa *parent = ext->parent;

	pthread_mutex_lock(&family_lock);
	for (struct doca_dpa **pp = &parent->extended; *pp != NULL; pp = &(*pp)->ext_next) {
		if (*pp == ext) {
			*pp = ext->ext_next;
			break;
		}
	}
	pthread_mutex_unlock(&family_lock);
	parent->base.dev->dpa->unextend(parent->base.hw, ext->base.dev->devinfo->fn);
	softdoca_dev_release(ext->base.dev);
	free(ext);
}

bool softdoca_dpa_handle_in_family(struct doca_dpa *dpa, uint64_t handle)
{
	struct doca_dpa *root = dpa->parent != NULL ? dpa->parent : dpa;
	bool found = handle == (uint64_t)(uintptr_t)root;

	/* compared as numbers: a handle from device code is never dereferenced */
	pthread_mutex_lock(&family_lock);
	for (struct doca_dpa *e = root->extended; e != NULL && !found; e = e->ext_next)
		found = handle == (uint64_t)(uintptr_t)e;
	pthread_mutex_unlock(&family_lock);
	return found;
}
