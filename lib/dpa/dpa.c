/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dpa: the context of one DPA application (create, set_app, start, stop, destroy), its
 * capabilities from the card's profile, and device memory. Launches and RPCs are in
 * dpa_launch.c, the callbacks device code runs on in dpa_device.c (docs/dpa.md).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "doca_buf.h"
#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA);

#ifndef SOFTDOCA_VERSION
#error "SOFTDOCA_VERSION must be defined (the dpacc version an image must come from)"
#endif

void softdoca_dpa_set_fatal(struct doca_dpa *dpa, doca_error_t err)
{
	doca_error_t none = DOCA_SUCCESS;

	__atomic_compare_exchange_n(&dpa->fatal, &none, err, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static const struct softhw_function *function_of(const struct doca_dev *dev)
{
	return dev->devinfo->fn;
}

doca_error_t doca_dpa_cap_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("DPA capability query: devinfo is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return softdoca_devinfo_caps(devinfo)->dpa ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_dpa_create(struct doca_dev *dev, struct doca_dpa **dpa)
{
	struct doca_dpa *d;

	if (dev == NULL || dpa == NULL) {
		SDK_LOG_ERR("Failed to create DPA context: %s is NULL", dev == NULL ? "dev" : "dpa");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->dpa) {
		SDK_LOG_ERR("Failed to create DPA context: device %s is a %s, which has no DPA; use a BlueField-3 or "
			    "ConnectX-7 device (doca_dpa_cap_is_supported() tells which)",
			    function_of(dev)->pci_addr, dev->dpa->profile_name(function_of(dev)));
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		SDK_LOG_ERR("Failed to create DPA context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	d->base.dev = dev;
	d->log_level = DOCA_DPA_DEV_LOG_LEVEL_INFO;
	softdoca_dev_hold(dev);
	*dpa = d;
	return DOCA_SUCCESS;
}

/* DOCA refuses to stop a context whose threads or notification completions still exist. */
static doca_error_t check_no_users(struct doca_dpa *dpa, const char *what)
{
	if (softdoca_dpa_has_extended(dpa)) {
		SDK_LOG_ERR("Failed to %s DPA context: contexts extended from it (doca_dpa_device_extend) still exist; "
			    "destroy them first",
			    what);
		return DOCA_ERROR_IN_USE;
	}
	if (dpa->num_threads == 0 && dpa->num_notify_comps == 0 && dpa->num_comps == 0)
		return DOCA_SUCCESS;
	SDK_LOG_ERR("Failed to %s DPA context: %u DPA threads, %u notification completions and %u completion "
		    "contexts, async ops or hash tables of it still exist; stop and destroy them first",
		    what, dpa->num_threads, dpa->num_notify_comps, dpa->num_comps);
	return DOCA_ERROR_IN_USE;
}

/* Images of contexts stopped with device code still running: kept loaded (and listed) for good. */
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static struct softhw_dpa_image **kept;
static size_t num_kept, cap_kept;

static void keep_image(struct softhw_dpa_image *image)
{
	pthread_mutex_lock(&kept_lock);
	if (num_kept == cap_kept) {
		size_t cap = cap_kept ? cap_kept * 2 : 4;
		struct softhw_dpa_image **k = realloc(kept, cap * sizeof(*k));

		if (k != NULL) {
			kept = k;
			cap_kept = cap;
		}
	}
	if (num_kept < cap_kept)
		kept[num_kept++] = image;
	pthread_mutex_unlock(&kept_lock);
}

static void stop_hw(struct doca_dpa *dpa)
{
	const struct softhw_dpa_ops *hw = dpa->base.dev->dpa;

	/* no EU runs device code once close returns, unless one was abandoned: its image stays */
	if (hw->close(dpa->base.hw)) {
		SDK_LOG_WARN("DPA context of application '%s' stopped with device code still running: its image stays "
			     "loaded until the process exits",
			     dpa->app->name);
		keep_image(dpa->image);
	} else
		hw->image_unload(dpa->image);
	dpa->base.hw = NULL;
	dpa->image = NULL;
	dpa->img = NULL;
	dpa->started = false;
}

doca_error_t doca_dpa_destroy(struct doca_dpa *dpa)
{
	if (dpa == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA context: dpa is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa->parent != NULL) {
		softdoca_dpa_extended_destroy(dpa);
		return DOCA_SUCCESS;
	}
	if (check_no_users(dpa, "destroy") != DOCA_SUCCESS)
		return DOCA_ERROR_IN_USE;
	/* a started context stops with its destruction, as on DOCA (the samples do not stop first) */
	if (dpa->started)
		stop_hw(dpa);
	softdoca_dpa_file_close(&dpa->log_file);
	softdoca_dpa_file_close(&dpa->trace_file);
	softdoca_dev_release(dpa->base.dev);
	free(dpa);
	return DOCA_SUCCESS;
}

/* ---- the application ---- */

doca_error_t doca_dpa_set_app(struct doca_dpa *dpa, struct doca_dpa_app *app)
{
	const struct softdoca_dpa_app *a = (const struct softdoca_dpa_app *)app;

	if (dpa == NULL || app == NULL) {
		SDK_LOG_ERR("Failed to set DPA application: %s is NULL", dpa == NULL ? "dpa" : "app");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa->started) {
		SDK_LOG_ERR("Failed to set DPA application: the context is started; set the application before "
			    "doca_dpa_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (a->magic != SOFTDOCA_DPA_APP_MAGIC) {
		SDK_LOG_ERR("Failed to set DPA application: %p is not a DPA application built by dpacc (pass the "
			    "struct doca_dpa_app * that dpacc --app-name=<name> defined)",
			    (void *)app);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->abi != SOFTDOCA_DPA_ABI || strcmp(a->dpacc_version, SOFTDOCA_VERSION) != 0) {
		SDK_LOG_ERR("Failed to set DPA application '%s': it was built by dpacc %s (image format %u), this "
			    "libdoca_dpa is %s (image format %u); rebuild the device code with this installation's dpacc",
			    a->name, a->dpacc_version, a->abi, SOFTDOCA_VERSION, SOFTDOCA_DPA_ABI);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	dpa->app = a;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_get_app(struct doca_dpa *dpa, struct doca_dpa_app **app)
{
	if (dpa == NULL || app == NULL) {
		SDK_LOG_ERR("Failed to get DPA application: %s is NULL", dpa == NULL ? "dpa" : "app");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa->app == NULL) {
		SDK_LOG_ERR("Failed to get DPA application: none was set; call doca_dpa_set_app() first");
		return DOCA_ERROR_BAD_STATE;
	}
	*app = (struct doca_dpa_app *)dpa->app;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_app_get_name(struct doca_dpa_app *app, char *app_name, uint32_t *app_name_len)
{
	const struct softdoca_dpa_app *a = (const struct softdoca_dpa_app *)app;
	size_t len;

	if (app == NULL || app_name == NULL || app_name_len == NULL) {
		SDK_LOG_ERR("Failed to get DPA application name: %s is NULL",
			    app == NULL ? "app" : app_name == NULL ? "app_name" : "app_name_len");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (a->magic != SOFTDOCA_DPA_APP_MAGIC) {
		SDK_LOG_ERR("Failed to get DPA application name: not a DPA application built by dpacc");
		return DOCA_ERROR_INVALID_VALUE;
	}
	len = strlen(a->name) + 1;
	if (*app_name_len < len) {
		SDK_LOG_ERR("Failed to get DPA application name: the buffer holds %u bytes, the name needs %zu",
			    *app_name_len, len);
		*app_name_len = (uint32_t)len;
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(app_name, a->name, len);
	*app_name_len = (uint32_t)len;
	return DOCA_SUCCESS;
}

/* ---- start / stop ---- */

doca_error_t doca_dpa_start(struct doca_dpa *dpa)
{
	const struct softhw_dpa_ops *hw;
	const struct softdoca_dpa_image *img;
	const char *why = "";
	doca_error_t err;

	if (dpa == NULL) {
		SDK_LOG_ERR("Failed to start DPA context: dpa is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa->started || dpa->parent != NULL) {
		SDK_LOG_ERR("Failed to start DPA context: it is %s", dpa->started ? "already started"
				: "an extended context (doca_dpa_device_extend), started by its extension only");
		return DOCA_ERROR_BAD_STATE;
	}
	if (dpa->app == NULL) {
		SDK_LOG_ERR("Failed to start DPA context: no application; call doca_dpa_set_app() with the "
			    "application dpacc built first");
		return DOCA_ERROR_BAD_STATE;
	}
	hw = dpa->base.dev->dpa;
	err = hw->image_load(dpa->app->image, dpa->app->image_size, dpa->app->name, &dpa->image, &why);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start DPA context: the device image of application '%s' does not load: %s",
			    dpa->app->name, why);
		return err;
	}
	img = hw->image_sym(dpa->image, SOFTDOCA_DPA_IMAGE_SYMBOL);
	if (img != NULL && img->magic == SOFTDOCA_DPA_IMAGE_MAGIC &&
	    (img->abi != SOFTDOCA_DPA_ABI || strcmp(img->dpacc_version, SOFTDOCA_VERSION) != 0)) {
		/* the image inside the application, not only its host descriptor, must be this dpacc's */
		SDK_LOG_ERR("Failed to start DPA context: the device image of application '%s' was built by dpacc %s "
			    "(image format %u), this libdoca_dpa is %s (image format %u); rebuild the device code with "
			    "this installation's dpacc",
			    dpa->app->name, img->dpacc_version, img->abi, SOFTDOCA_VERSION, SOFTDOCA_DPA_ABI);
		hw->image_unload(dpa->image);
		dpa->image = NULL;
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (img == NULL || img->magic != SOFTDOCA_DPA_IMAGE_MAGIC || img->abi != SOFTDOCA_DPA_ABI) {
		SDK_LOG_ERR("Failed to start DPA context: application '%s' carries no device image of format %u; "
			    "rebuild it with this installation's dpacc",
			    dpa->app->name, SOFTDOCA_DPA_ABI);
		hw->image_unload(dpa->image);
		dpa->image = NULL;
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	err = hw->open(function_of(dpa->base.dev), &dpa->base.hw);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to start DPA context: %s", doca_error_get_descr(err));
		hw->image_unload(dpa->image);
		dpa->image = NULL;
		return err;
	}
	img->init(&softdoca_dpa_host_ops);
	dpa->img = img;
	__atomic_store_n(&dpa->fatal, DOCA_SUCCESS, __ATOMIC_RELEASE);
	dpa->started = true;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_stop(struct doca_dpa *dpa)
{
	if (dpa == NULL) {
		SDK_LOG_ERR("Failed to stop DPA context: dpa is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to stop DPA context: it is not started");
		return DOCA_ERROR_BAD_STATE;
	}
	if (dpa->parent != NULL) {
		/* an extended context runs on its parent's DPA: only this handle on it stops */
		dpa->started = false;
		return DOCA_SUCCESS;
	}
	if (check_no_users(dpa, "stop") != DOCA_SUCCESS)
		return DOCA_ERROR_IN_USE;
	stop_hw(dpa);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_peek_at_last_error(const struct doca_dpa *dpa)
{
	if (dpa == NULL) {
		SDK_LOG_ERR("Failed to peek at DPA error: dpa is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (__atomic_load_n(&dpa->fatal, __ATOMIC_ACQUIRE) != DOCA_SUCCESS ||
	    (dpa->parent != NULL && __atomic_load_n(&dpa->parent->fatal, __ATOMIC_ACQUIRE) != DOCA_SUCCESS))
		return DOCA_ERROR_BAD_STATE;
	/* a kernel past its max run time (the watchdog logged it) is fatal, as on the DPA */
	if (dpa->started && dpa->base.dev->dpa->overruns(dpa->base.hw) > 0)
		return DOCA_ERROR_BAD_STATE;
	return DOCA_SUCCESS;
}

/* ---- logging of device code ---- */

doca_error_t doca_dpa_set_log_level(struct doca_dpa *dpa, doca_dpa_dev_log_level_t log_level)
{
	if (dpa == NULL) {
		SDK_LOG_ERR("Failed to set DPA log level: dpa is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	switch (log_level) {
	case DOCA_DPA_DEV_LOG_LEVEL_DISABLE:
	case DOCA_DPA_DEV_LOG_LEVEL_ERROR:
	case DOCA_DPA_DEV_LOG_LEVEL_WARNING:
	case DOCA_DPA_DEV_LOG_LEVEL_INFO:
	case DOCA_DPA_DEV_LOG_LEVEL_DEBUG:
		break;
	default:
		SDK_LOG_ERR("Failed to set DPA log level: %d is not a doca_dpa_dev_log_level_t", (int)log_level);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dpa->started) {
		SDK_LOG_ERR("Failed to set DPA log level: the context is started; set it before doca_dpa_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	dpa->log_level = log_level;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_get_log_level(struct doca_dpa *dpa, doca_dpa_dev_log_level_t *log_level)
{
	if (dpa == NULL || log_level == NULL) {
		SDK_LOG_ERR("Failed to get DPA log level: %s is NULL", dpa == NULL ? "dpa" : "log_level");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*log_level = dpa->log_level;
	return DOCA_SUCCESS;
}

/* ---- capabilities, from the card's profile ---- */

static doca_error_t caps_of(const struct doca_dpa *dpa, const void *out, const char *what,
			    struct softhw_dpa_caps *caps)
{
	if (dpa == NULL || out == NULL) {
		SDK_LOG_ERR("Failed to get DPA %s: %s is NULL", what, dpa == NULL ? "dpa" : "the output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	dpa->base.dev->dpa->caps(function_of(dpa->base.dev), caps);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_get_max_threads_per_kernel(const struct doca_dpa *dpa, unsigned int *value)
{
	struct softhw_dpa_caps caps;
	doca_error_t err = caps_of(dpa, value, "max threads per kernel", &caps);

	if (err == DOCA_SUCCESS)
		*value = caps.max_threads_per_kernel;
	return err;
}

doca_error_t doca_dpa_get_kernel_max_run_time(const struct doca_dpa *dpa, unsigned long long *value)
{
	struct softhw_dpa_caps caps;
	doca_error_t err = caps_of(dpa, value, "kernel max run time", &caps);

	if (err == DOCA_SUCCESS)
		*value = caps.kernel_max_run_time_sec;
	return err;
}

doca_error_t doca_dpa_get_core_num(struct doca_dpa *dpa, unsigned int *num_cores)
{
	struct softhw_dpa_caps caps;
	doca_error_t err = caps_of(dpa, num_cores, "core count", &caps);

	if (err == DOCA_SUCCESS)
		*num_cores = caps.num_cores;
	return err;
}

doca_error_t doca_dpa_get_num_eus_per_core(struct doca_dpa *dpa, unsigned int *eus_per_core)
{
	struct softhw_dpa_caps caps;
	doca_error_t err = caps_of(dpa, eus_per_core, "EUs per core", &caps);

	if (err == DOCA_SUCCESS)
		*eus_per_core = caps.eus_per_core;
	return err;
}

doca_error_t doca_dpa_get_total_num_eus_available(struct doca_dpa *dpa, unsigned int *total_num_eus)
{
	struct softhw_dpa_caps caps;
	doca_error_t err = caps_of(dpa, total_num_eus, "EUs available", &caps);

	if (err == DOCA_SUCCESS)
		*total_num_eus = caps.eus_available;
	return err;
}

doca_error_t doca_dpa_get_dpa_handle(struct doca_dpa *dpa, doca_dpa_dev_t *handle)
{
	if (dpa == NULL || handle == NULL) {
		SDK_LOG_ERR("Failed to get DPA handle: %s is NULL", dpa == NULL ? "dpa" : "handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to get DPA handle: the context is not started; call doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	*handle = (doca_dpa_dev_t)(uintptr_t)dpa;
	return DOCA_SUCCESS;
}

/*
 * The soft DPA has no user access region: the id is a number of the context's own, unique in
 * the process, that nothing else in softdoca takes (DOCA hands it to FlexIO / verbs objects).
 */
doca_error_t doca_dpa_get_uar_id(const struct doca_dpa *dpa, uint32_t *uar_id)
{
	static uint32_t next_uar_id;
	struct doca_dpa *d = (struct doca_dpa *)dpa;
	uint32_t id, none = 0;

	if (dpa == NULL || uar_id == NULL) {
		SDK_LOG_ERR("Failed to get DPA UAR id: %s is NULL", dpa == NULL ? "dpa" : "uar_id");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to get DPA UAR id: the context is not started; call doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	id = __atomic_load_n(&d->uar_id, __ATOMIC_ACQUIRE);
	if (id == 0) {
		id = __atomic_add_fetch(&next_uar_id, 1, __ATOMIC_RELAXED);
		if (!__atomic_compare_exchange_n(&d->uar_id, &none, id, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			id = none;
	}
	*uar_id = id;
	return DOCA_SUCCESS;
}

/* ---- device memory ---- */

static doca_error_t check_started(const struct doca_dpa *dpa, const char *what)
{
	if (dpa == NULL) {
		SDK_LOG_ERR("Failed to %s: dpa is NULL", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to %s: the DPA context is not started; call doca_dpa_start() first", what);
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_mem_alloc(struct doca_dpa *dpa, size_t size, doca_dpa_dev_uintptr_t *dev_ptr)
{
	doca_error_t err;

	if (dev_ptr == NULL) {
		SDK_LOG_ERR("Failed to allocate DPA memory: dev_ptr is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*dev_ptr = 0;
	err = check_started(dpa, "allocate DPA memory");
	if (err != DOCA_SUCCESS)
		return err;
	if (size == 0) {
		SDK_LOG_ERR("Failed to allocate DPA memory: size is 0");
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = dpa->base.dev->dpa->mem_alloc(dpa->base.hw, size, dev_ptr);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to allocate %zu bytes of DPA memory: the device memory (%llu MiB) is full; free "
			    "allocations with doca_dpa_mem_free()",
			    size, (unsigned long long)(softdoca_dev_caps(dpa->base.dev)->dpa_mem_size >> 20));
	return err;
}

doca_error_t doca_dpa_mem_free(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr)
{
	doca_error_t err = check_started(dpa, "free DPA memory");

	if (err != DOCA_SUCCESS)
		return err;
	err = dpa->base.dev->dpa->mem_free(dpa->base.hw, dev_ptr);
	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("Failed to free DPA memory: 0x%llx is not an allocation of this DPA context (pass what "
			    "doca_dpa_mem_alloc() returned, once)",
			    (unsigned long long)dev_ptr);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* The host address of a device range, or NULL (logged) when it is not inside one allocation. */
static void *device_range(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t addr, size_t size, const char *what)
{
	void *p = dpa->base.dev->dpa->mem_ptr(dpa->base.hw, addr, size);

	if (p == NULL)
		SDK_LOG_ERR("Failed to %s: device range 0x%llx + %zu is not inside one allocation of this DPA context "
			    "(device pointers come from doca_dpa_mem_alloc() of the same context)",
			    what, (unsigned long long)addr, size);
	return p;
}

/*
 * A device pointer of this context passed where host memory is expected: a DPA's memory is
 * not host memory (a real host would fault or read something else), so it is refused, logged.
 */
static bool is_device_pointer(struct doca_dpa *dpa, const void *host_ptr, size_t size, const char *what,
			      const char *name)
{
	if (size == 0 || dpa->base.dev->dpa->mem_ptr(dpa->base.hw, (uint64_t)(uintptr_t)host_ptr, 1) == NULL)
		return false;
	SDK_LOG_ERR("Failed to %s: %s %p is a device pointer of this DPA context (doca_dpa_mem_alloc()), not host "
		    "memory; the host reaches device memory only through doca_dpa_h2d_memcpy(), "
		    "doca_dpa_d2h_memcpy() and doca_dpa_memset() with it as the device argument",
		    what, name, host_ptr);
	return true;
}

doca_error_t doca_dpa_h2d_memcpy(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dst_ptr, void *src_ptr, size_t size)
{
	doca_error_t err = check_started(dpa, "copy host memory to DPA");
	void *dst;

	if (err != DOCA_SUCCESS)
		return err;
	if (src_ptr == NULL && size != 0) {
		SDK_LOG_ERR("Failed to copy host memory to DPA: src_ptr is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (is_device_pointer(dpa, src_ptr, size, "copy host memory to DPA", "src_ptr"))
		return DOCA_ERROR_INVALID_VALUE;
	dst = device_range(dpa, dst_ptr, size, "copy host memory to DPA");
	if (dst == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	memcpy(dst, src_ptr, size);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_d2h_memcpy(struct doca_dpa *dpa, void *dst_ptr, doca_dpa_dev_uintptr_t src_ptr, size_t size)
{
	doca_error_t err = check_started(dpa, "copy DPA memory to host");
	void *src;

	if (err != DOCA_SUCCESS)
		return err;
	if (dst_ptr == NULL && size != 0) {
		SDK_LOG_ERR("Failed to copy DPA memory to host: dst_ptr is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (is_device_pointer(dpa, dst_ptr, size, "copy DPA memory to host", "dst_ptr"))
		return DOCA_ERROR_INVALID_VALUE;
	src = device_range(dpa, src_ptr, size, "copy DPA memory to host");
	if (src == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	memcpy(dst_ptr, src, size);
	return DOCA_SUCCESS;
}

/*
 * The host side of a buffer copy: size bytes from the start of the buf's data, inside the
 * buffer (data to the end of the buf); NULL (logged) otherwise.
 */
static void *buf_range(struct doca_buf *buf, size_t size, const char *what)
{
	void *head = NULL, *data = NULL;
	size_t len = 0;

	if (buf == NULL) {
		SDK_LOG_ERR("Failed to %s: buf is NULL", what);
		return NULL;
	}
	if (doca_buf_get_head(buf, &head) != DOCA_SUCCESS || doca_buf_get_len(buf, &len) != DOCA_SUCCESS ||
	    doca_buf_get_data(buf, &data) != DOCA_SUCCESS)
		return NULL;
	if (size > len - (size_t)((uint8_t *)data - (uint8_t *)head)) {
		SDK_LOG_ERR("Failed to %s: %zu bytes do not fit in the buf (%zu bytes from its data to its end)", what,
			    size, len - (size_t)((uint8_t *)data - (uint8_t *)head));
		return NULL;
	}
	return data;
}

doca_error_t doca_dpa_h2d_buf_memcpy(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dst_ptr, struct doca_buf *buf,
				     size_t size)
{
	doca_error_t err = check_started(dpa, "copy a host buf to DPA");
	void *src;

	if (err != DOCA_SUCCESS)
		return err;
	src = buf_range(buf, size, "copy a host buf to DPA");
	if (src == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return doca_dpa_h2d_memcpy(dpa, dst_ptr, src, size);
}

doca_error_t doca_dpa_d2h_buf_memcpy(struct doca_dpa *dpa, struct doca_buf *buf, doca_dpa_dev_uintptr_t src_ptr,
				     size_t size)
{
	doca_error_t err = check_started(dpa, "copy DPA memory to a host buf");
	void *dst;

	if (err != DOCA_SUCCESS)
		return err;
	dst = buf_range(buf, size, "copy DPA memory to a host buf");
	if (dst == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	return doca_dpa_d2h_memcpy(dpa, dst, src_ptr, size);
}

doca_error_t doca_dpa_memset(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr, int value, size_t size)
{
	doca_error_t err = check_started(dpa, "set DPA memory");
	void *dst;

	if (err != DOCA_SUCCESS)
		return err;
	dst = device_range(dpa, dev_ptr, size, "set DPA memory");
	if (dst == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	memset(dst, value, size);
	return DOCA_SUCCESS;
}
