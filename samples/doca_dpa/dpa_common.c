/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_ctx.h>
#include <doca_log.h>

#include <libflexio/flexio_ver.h>
#define FLEXIO_VER_USED FLEXIO_VER(25, 4, 0)
#include <libflexio/flexio.h>

#include "common.h"
#include "dpa_common.h"

DOCA_LOG_REGISTER(DPA_COMMON);

/* Copies a string flag into dst (size bytes), refusing one that does not fit. */
static doca_error_t copy_flag(char *dst, size_t size, const char *value, const char *what)
{
	if (strnlen(value, size) >= size) {
		DOCA_LOG_ERR("Entered %s exceeding the maximum size of %zu", what, size - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(dst, value);
	return DOCA_SUCCESS;
}

static doca_error_t pf_device_param_callback(void *param, void *config)
{
	return copy_flag(((struct dpa_config *)config)->pf_device_name, DOCA_DEVINFO_IBDEV_NAME_SIZE, param,
			 "device name");
}

static doca_error_t rdma_device_param_callback(void *param, void *config)
{
	return copy_flag(((struct dpa_config *)config)->rdma_device_name, DOCA_DEVINFO_IBDEV_NAME_SIZE, param,
			 "device name");
}

static doca_error_t dpa_resources_param_callback(void *param, void *config)
{
	return copy_flag(((struct dpa_config *)config)->dpa_resources_file, DPA_RESOURCES_PATH_MAX_SIZE, param,
			 "DPA resources file path");
}

static doca_error_t dpa_app_key_param_callback(void *param, void *config)
{
	return copy_flag(((struct dpa_config *)config)->dpa_app_key, DPA_APP_KEY_MAX_SIZE, param,
			 "DPA application key");
}

static doca_error_t gid_index_param_callback(void *param, void *config)
{
	int value = *(int *)param;

	if (value < 0) {
		DOCA_LOG_ERR("GID index for DOCA RDMA must be non-negative");
		return DOCA_ERROR_INVALID_VALUE;
	}
	((struct dpa_config *)config)->gid_index = value;
	return DOCA_SUCCESS;
}

static doca_error_t register_one(const char *short_name, const char *long_name, const char *arguments,
				 const char *description, doca_argp_param_cb_t callback, enum doca_argp_type type)
{
	struct doca_argp_param *param;
	doca_error_t result = doca_argp_param_create(&param);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create ARGP param: %s", doca_error_get_descr(result));
		return result;
	}
	if (short_name != NULL)
		doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	if (arguments != NULL)
		doca_argp_param_set_arguments(param, arguments);
	doca_argp_param_set_description(param, description);
	doca_argp_param_set_callback(param, callback);
	doca_argp_param_set_type(param, type);
	result = doca_argp_register_param(param);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to register program param: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t register_dpa_params(void)
{
	doca_error_t result;

	result = register_one("pf_dev", "pf-device", "<PF DOCA device name>",
			      "PF device name that supports DPA (optional). If not provided then a random device will be "
			      "chosen",
			      pf_device_param_callback, DOCA_ARGP_TYPE_STRING);
	if (result == DOCA_SUCCESS)
		result = register_one(NULL, "dpa-resources", "<DPA resources file>",
				      "Path to a DPA resources .yaml file", dpa_resources_param_callback,
				      DOCA_ARGP_TYPE_STRING);
	if (result == DOCA_SUCCESS)
		result = register_one(NULL, "dpa-app-key", "<DPA application key>",
				      "Application key in specified DPA resources .yaml file", dpa_app_key_param_callback,
				      DOCA_ARGP_TYPE_STRING);
	if (result == DOCA_SUCCESS)
		result = register_one("rdma_dev", "rdma-device", "<RDMA DOCA device name>",
				      "device name that supports RDMA (optional), used only when the PF device must be "
				      "extended (running on the DPU)",
				      rdma_device_param_callback, DOCA_ARGP_TYPE_STRING);
	if (result == DOCA_SUCCESS)
		result = register_one("g", "gid-index", NULL, "GID index for DOCA RDMA (optional)",
				      gid_index_param_callback, DOCA_ARGP_TYPE_INT);
	return result;
}

/* The first DPA-capable PF, or the one named. */
/*
 * The first DPA-capable device of `name` (any, DEVICE_DEFAULT_NAME) that passes `fits`, other
 * than `not_this`; *pick is its devinfo (NULL if none).
 */
static struct doca_devinfo *find_device(struct doca_devinfo **list, uint32_t n, const char *name, const char *not_this,
					bool (*fits)(struct doca_devinfo *), char *found_name)
{
	bool any = strcmp(name, DEVICE_DEFAULT_NAME) == 0;

	for (uint32_t i = 0; i < n; i++) {
		if (doca_dpa_cap_is_supported(list[i]) != DOCA_SUCCESS || !fits(list[i]))
			continue;
		if (doca_devinfo_get_ibdev_name(list[i], found_name, DOCA_DEVINFO_IBDEV_NAME_SIZE) != DOCA_SUCCESS)
			continue;
		if (not_this != NULL && strcmp(found_name, not_this) == 0)
			continue;
		if (any || strcmp(found_name, name) == 0)
			return list[i];
	}
	return NULL;
}

static bool is_pf(struct doca_devinfo *info)
{
	enum doca_pci_func_type type;

	return doca_devinfo_get_pci_func_type(info, &type) == DOCA_SUCCESS && type == DOCA_PCI_FUNC_TYPE_PF;
}

static bool can_send(struct doca_devinfo *info)
{
	return doca_rdma_cap_task_send_is_supported(info) == DOCA_SUCCESS;
}

/*
 * Opens the PF with a DPA and the device the RDMA objects use: the PF itself, or, where the PF
 * has network representors (on the DPU), another DPA device able to send, which the PF's DPA
 * context is extended to (DOCA's dpa_common does the same).
 */
static doca_error_t open_dpa_device(const char *pf_device_name, const char *rdma_device_name,
				    struct doca_dev **pf_device, struct doca_dev **rdma_device)
{
	struct doca_devinfo **list = NULL, *pf, *rdma;
	char pf_name[DOCA_DEVINFO_IBDEV_NAME_SIZE] = {0}, rdma_name[DOCA_DEVINFO_IBDEV_NAME_SIZE] = {0};
	uint8_t must_extend = 0;
	doca_error_t result;
	uint32_t n = 0;

	*pf_device = NULL;
	*rdma_device = NULL;
	if (strcmp(pf_device_name, DEVICE_DEFAULT_NAME) != 0 && strcmp(pf_device_name, rdma_device_name) == 0) {
		DOCA_LOG_ERR("RDMA DOCA device must be different than PF DOCA device (%s)", pf_device_name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	result = doca_devinfo_create_list(&list, &n);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to load DOCA devices list: %s", doca_error_get_descr(result));
		return result;
	}
	pf = find_device(list, n, pf_device_name, NULL, is_pf, pf_name);
	if (pf == NULL) {
		DOCA_LOG_ERR("Couldn't find PF DOCA device");
		result = DOCA_ERROR_NOT_FOUND;
		goto out;
	}
	if (doca_devinfo_rep_cap_is_filter_net_supported(pf, &must_extend) != DOCA_SUCCESS)
		must_extend = 0;
	if (!must_extend && strcmp(rdma_device_name, DEVICE_DEFAULT_NAME) != 0) {
		DOCA_LOG_ERR("RDMA DOCA device is provided, but PF DOCA device is not extendable");
		result = DOCA_ERROR_BAD_CONFIG;
		goto out;
	}
	rdma = must_extend ? find_device(list, n, rdma_device_name, pf_name, can_send, rdma_name) : pf;
	if (rdma == NULL) {
		DOCA_LOG_ERR("Couldn't find RDMA DOCA device");
		result = DOCA_ERROR_NOT_FOUND;
		goto out;
	}
	result = doca_dev_open(pf, pf_device);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open DOCA device %s: %s", pf_name, doca_error_get_descr(result));
		goto out;
	}
	if (rdma == pf) {
		*rdma_device = *pf_device;
	} else {
		result = doca_dev_open(rdma, rdma_device);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to open DOCA device %s: %s", rdma_name, doca_error_get_descr(result));
			doca_dev_close(*pf_device);
			*pf_device = NULL;
			goto out;
		}
		DOCA_LOG_INFO("PF DOCA device %s has network representors: its DPA context is extended to RDMA DOCA "
			      "device %s",
			      pf_name, rdma_name);
	}
out:
	doca_devinfo_destroy_list(list);
	return result;
}

/* The whole of a small file, NUL-terminated; NULL (logged) when it cannot be read. */
static char *read_whole_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long size;

	if (f == NULL) {
		DOCA_LOG_ERR("Error: Failed to open DPA resources file %s", path);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size + 1)) != NULL) {
		*len = fread(buf, 1, (size_t)size, f);
		buf[*len] = '\0';
	} else {
		DOCA_LOG_ERR("Error: Failed to read DPA resources file %s", path);
	}
	fclose(f);
	return buf;
}

/* One EU affinity per EU the resources file gives the application (DOCA's samples do the same). */
static doca_error_t affinities_from_resources_file(struct dpa_config *cfg, struct dpa_resources *resources)
{
	struct flexio_resource *res = NULL;
	doca_error_t result = DOCA_SUCCESS;
	size_t len = 0;
	char *text = read_whole_file(cfg->dpa_resources_file, &len);
	uint32_t num_eus, *eus;

	if (text == NULL)
		return DOCA_ERROR_IO_FAILED;
	if (flexio_resources_create(cfg->dpa_app_key, text, len, &res) != FLEXIO_STATUS_SUCCESS) {
		DOCA_LOG_ERR("Error: Failed creating DPA resources object!");
		free(text);
		return DOCA_ERROR_BAD_CONFIG;
	}
	free(text);
	if (flexio_resources_get_eugs_num(res) > 0) {
		DOCA_LOG_ERR("Execution unit groups are currently unsupported!");
		flexio_resources_destroy(res);
		return DOCA_ERROR_BAD_CONFIG;
	}
	num_eus = flexio_resources_get_eus_num(res);
	eus = flexio_resources_get_eus(res);
	DOCA_LOG_INFO("Info: Found %u execution units in DPA resources file", num_eus);
	resources->affinities = calloc(num_eus > 0 ? num_eus : 1, sizeof(*resources->affinities));
	if (resources->affinities == NULL) {
		flexio_resources_destroy(res);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (uint32_t i = 0; i < num_eus && result == DOCA_SUCCESS; i++) {
		result = doca_dpa_eu_affinity_create(resources->rdma_dpa_ctx, &resources->affinities[i]);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Function doca_dpa_eu_affinity_create failed (%s)", doca_error_get_descr(result));
			break;
		}
		resources->num_affinities++;
		result = doca_dpa_eu_affinity_set(resources->affinities[i], eus[i]);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Function doca_dpa_eu_affinity_set failed (%s)", doca_error_get_descr(result));
	}
	flexio_resources_destroy(res);
	return result;
}

static void destroy_affinities(struct dpa_resources *resources)
{
	for (uint32_t i = 0; i < resources->num_affinities; i++)
		doca_dpa_eu_affinity_destroy(resources->affinities[i]);
	free(resources->affinities);
	resources->affinities = NULL;
	resources->num_affinities = 0;
}

doca_error_t allocate_dpa_resources(struct dpa_config *cfg, struct dpa_resources *resources)
{
	doca_error_t result;

	memset(resources, 0, sizeof(*resources));
	result = open_dpa_device(cfg->pf_device_name, cfg->rdma_device_name, &resources->pf_doca_device,
				 &resources->rdma_doca_device);
	if (result != DOCA_SUCCESS)
		return result;

	result = doca_dpa_create(resources->pf_doca_device, &resources->pf_dpa_ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA DPA context: %s", doca_error_get_descr(result));
		goto close_dev;
	}
	result = doca_dpa_set_app(resources->pf_dpa_ctx, dpa_sample_app);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set DOCA DPA app: %s", doca_error_get_descr(result));
		goto destroy_dpa;
	}
	result = doca_dpa_start(resources->pf_dpa_ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start DOCA DPA context: %s", doca_error_get_descr(result));
		goto destroy_dpa;
	}
	resources->rdma_dpa_ctx = resources->pf_dpa_ctx;
	if (resources->rdma_doca_device != resources->pf_doca_device) {
		/* the RDMA objects live on the other device: one DPA, reached through an extended context */
		result = doca_dpa_device_extend(resources->pf_dpa_ctx, resources->rdma_doca_device,
						&resources->rdma_dpa_ctx);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to extend DOCA DPA context: %s", doca_error_get_descr(result));
			resources->rdma_dpa_ctx = NULL;
			goto destroy_dpa;
		}
		result = doca_dpa_get_dpa_handle(resources->rdma_dpa_ctx, &resources->rdma_dpa_ctx_handle);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to get DOCA DPA context handle: %s", doca_error_get_descr(result));
			goto destroy_dpa;
		}
	}
	if (cfg->dpa_resources_file[0] != '\0') {
		result = affinities_from_resources_file(cfg, resources);
		if (result != DOCA_SUCCESS) {
			destroy_affinities(resources);
			goto destroy_dpa;
		}
	}
	return DOCA_SUCCESS;

destroy_dpa:
	if (resources->rdma_dpa_ctx != NULL && resources->rdma_dpa_ctx != resources->pf_dpa_ctx)
		doca_dpa_destroy(resources->rdma_dpa_ctx);
	resources->rdma_dpa_ctx = NULL;
	doca_dpa_destroy(resources->pf_dpa_ctx);
	resources->pf_dpa_ctx = NULL;
close_dev:
	if (resources->rdma_doca_device != resources->pf_doca_device)
		doca_dev_close(resources->rdma_doca_device);
	resources->rdma_doca_device = NULL;
	doca_dev_close(resources->pf_doca_device);
	resources->pf_doca_device = NULL;
	return result;
}

doca_error_t destroy_dpa_resources(struct dpa_resources *resources)
{
	doca_error_t result = DOCA_SUCCESS, tmp;

	destroy_affinities(resources);
	/* an extended context goes before the context it extends */
	if (resources->rdma_dpa_ctx != NULL && resources->rdma_dpa_ctx != resources->pf_dpa_ctx) {
		tmp = doca_dpa_destroy(resources->rdma_dpa_ctx);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Function doca_dpa_destroy() failed: %s", doca_error_get_descr(tmp));
			result = tmp;
		}
	}
	if (resources->pf_dpa_ctx != NULL) {
		tmp = doca_dpa_destroy(resources->pf_dpa_ctx);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Function doca_dpa_destroy() failed: %s", doca_error_get_descr(tmp));
			result = tmp;
		}
	}
	if (resources->rdma_doca_device != NULL && resources->rdma_doca_device != resources->pf_doca_device) {
		tmp = doca_dev_close(resources->rdma_doca_device);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Function doca_dev_close() failed: %s", doca_error_get_descr(tmp));
			result = tmp;
		}
	}
	if (resources->pf_doca_device != NULL) {
		tmp = doca_dev_close(resources->pf_doca_device);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Function doca_dev_close() failed: %s", doca_error_get_descr(tmp));
			result = tmp;
		}
	}
	memset(resources, 0, sizeof(*resources));
	return result;
}

/* A started event with the CPU and the DPA in the given roles. */
static doca_error_t create_event(struct doca_dpa *dpa, struct doca_dev *dev, bool cpu_publishes,
				 struct doca_sync_event **event)
{
	doca_error_t result = doca_sync_event_create(event);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA sync event: %s", doca_error_get_descr(result));
		return result;
	}
	if (cpu_publishes) {
		result = doca_sync_event_add_publisher_location_cpu(*event, dev);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to set CPU as publisher for DOCA sync event: %s",
				     doca_error_get_descr(result));
		else if ((result = doca_sync_event_add_subscriber_location_dpa(*event, dpa)) != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to set DPA as subscriber for DOCA sync event: %s",
				     doca_error_get_descr(result));
	} else {
		result = doca_sync_event_add_publisher_location_dpa(*event, dpa);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to set DPA as publisher for DOCA sync event: %s",
				     doca_error_get_descr(result));
		else if ((result = doca_sync_event_add_subscriber_location_cpu(*event, dev)) != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to set CPU as subscriber for DOCA sync event: %s",
				     doca_error_get_descr(result));
	}
	if (result == DOCA_SUCCESS && (result = doca_sync_event_start(*event)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to start DOCA sync event: %s", doca_error_get_descr(result));
	if (result != DOCA_SUCCESS) {
		doca_sync_event_destroy(*event);
		*event = NULL;
	}
	return result;
}

doca_error_t create_doca_dpa_wait_sync_event(struct doca_dpa *doca_dpa, struct doca_dev *doca_device,
					     struct doca_sync_event **wait_event)
{
	return create_event(doca_dpa, doca_device, true, wait_event);
}

doca_error_t create_doca_dpa_completion_sync_event(struct doca_dpa *doca_dpa, struct doca_dev *doca_device,
						   struct doca_sync_event **comp_event,
						   doca_dpa_dev_sync_event_t *handle)
{
	doca_error_t result = create_event(doca_dpa, doca_device, false, comp_event);

	if (result != DOCA_SUCCESS || handle == NULL)
		return result;
	result = doca_sync_event_get_dpa_handle(*comp_event, doca_dpa, handle);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export DOCA sync event to DPA: %s", doca_error_get_descr(result));
		doca_sync_event_destroy(*comp_event);
		*comp_event = NULL;
	}
	return result;
}

/* ---- the RDMA samples' objects ---- */

doca_error_t dpa_thread_setup(struct doca_dpa *dpa, doca_dpa_func_t *func, uint64_t arg, doca_dpa_dev_uintptr_t tls,
			      const struct doca_dpa_eu_affinity *affinity, struct doca_dpa_thread **thread)
{
	doca_error_t result = doca_dpa_thread_create(dpa, thread);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_thread_create failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = doca_dpa_thread_set_func_arg(*thread, func, arg);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_dpa_thread_set_func_arg failed (%s)", doca_error_get_descr(result));
	else if (tls != 0 && (result = doca_dpa_thread_set_local_storage(*thread, tls)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_dpa_thread_set_local_storage failed (%s)", doca_error_get_descr(result));
	else if (affinity != NULL && (result = doca_dpa_thread_set_affinity(*thread, affinity)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_dpa_thread_set_affinity failed (%s)", doca_error_get_descr(result));
	else if ((result = doca_dpa_thread_start(*thread)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_dpa_thread_start failed (%s)", doca_error_get_descr(result));
	if (result != DOCA_SUCCESS) {
		doca_dpa_thread_destroy(*thread);
		*thread = NULL;
	}
	return result;
}

void dpa_thread_teardown(struct doca_dpa_thread *thread)
{
	doca_error_t result;

	if (thread == NULL)
		return;
	result = doca_dpa_thread_stop(thread);
	if (result == DOCA_SUCCESS)
		result = doca_dpa_thread_destroy(thread);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to tear down DPA thread: %s", doca_error_get_descr(result));
}

doca_error_t dpa_completion_setup(struct doca_dpa *dpa, unsigned int queue_size, struct doca_dpa_thread *thread,
				  struct doca_dpa_completion **comp, doca_dpa_dev_completion_t *handle)
{
	doca_error_t result = doca_dpa_completion_create(dpa, queue_size, comp);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_completion_create failed (%s)", doca_error_get_descr(result));
		return result;
	}
	if (thread != NULL && (result = doca_dpa_completion_set_thread(*comp, thread)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_dpa_completion_set_thread failed (%s)", doca_error_get_descr(result));
	else if ((result = doca_dpa_completion_start(*comp)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_dpa_completion_start failed (%s)", doca_error_get_descr(result));
	else if ((result = doca_dpa_completion_get_dpa_handle(*comp, handle)) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_completion_get_dpa_handle failed (%s)", doca_error_get_descr(result));
		doca_dpa_completion_stop(*comp);
	}
	if (result != DOCA_SUCCESS) {
		doca_dpa_completion_destroy(*comp);
		*comp = NULL;
	}
	return result;
}

void dpa_mem_teardown(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t p)
{
	if (p != 0 && doca_dpa_mem_free(dpa, p) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_dpa_mem_free failed");
}

void dpa_completion_teardown(struct doca_dpa_completion *comp)
{
	doca_error_t result;

	if (comp == NULL)
		return;
	result = doca_dpa_completion_stop(comp);
	if (result == DOCA_SUCCESS)
		result = doca_dpa_completion_destroy(comp);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to tear down DPA completion context: %s", doca_error_get_descr(result));
}

doca_error_t dpa_notification_setup(struct doca_dpa *dpa, struct doca_dpa_thread *thread,
				    struct doca_dpa_notification_completion **notify,
				    doca_dpa_dev_notification_completion_t *handle)
{
	doca_error_t result = doca_dpa_notification_completion_create(dpa, thread, notify);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_notification_completion_create failed (%s)",
			     doca_error_get_descr(result));
		return result;
	}
	result = doca_dpa_notification_completion_start(*notify);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_notification_completion_start failed (%s)",
			     doca_error_get_descr(result));
	} else if ((result = doca_dpa_notification_completion_get_dpa_handle(*notify, handle)) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_dpa_notification_completion_get_dpa_handle failed (%s)",
			     doca_error_get_descr(result));
		doca_dpa_notification_completion_stop(*notify);
	}
	if (result != DOCA_SUCCESS) {
		doca_dpa_notification_completion_destroy(*notify);
		*notify = NULL;
	}
	return result;
}

void dpa_notification_teardown(struct doca_dpa_notification_completion *notify)
{
	doca_error_t result;

	if (notify == NULL)
		return;
	result = doca_dpa_notification_completion_stop(notify);
	if (result == DOCA_SUCCESS)
		result = doca_dpa_notification_completion_destroy(notify);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to tear down DPA notification completion: %s", doca_error_get_descr(result));
}

static doca_error_t rdma_configure(struct doca_rdma *rdma, struct doca_dpa *dpa, struct doca_dpa_completion *comp,
				   uint32_t recv_queue_size, uint32_t num_connections)
{
	doca_error_t result = doca_rdma_set_permissions(rdma, DPA_RDMA_PERMISSIONS);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_rdma_set_permissions failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_set_grh_enabled(rdma, true);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_rdma_set_grh_enabled failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(rdma), dpa);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_ctx_set_datapath_on_dpa failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_set_recv_queue_size(rdma, recv_queue_size);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_rdma_set_recv_queue_size failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_set_max_num_connections(rdma, (uint16_t)num_connections);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_rdma_set_max_num_connections failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_dpa_completion_attach(rdma, comp);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_rdma_dpa_completion_attach failed (%s)", doca_error_get_descr(result));
	return result;
}

doca_error_t dpa_rdma_setup(struct doca_dev *dev, struct doca_dpa *dpa, struct doca_dpa_completion *comp,
			    uint32_t recv_queue_size, uint32_t num_connections, struct dpa_rdma *r)
{
	doca_error_t result;

	memset(r, 0, sizeof(*r));
	result = doca_rdma_create(dev, &r->rdma);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("RDMA create failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = rdma_configure(r->rdma, dpa, comp, recv_queue_size, num_connections);
	if (result == DOCA_SUCCESS && (result = doca_ctx_start(doca_rdma_as_ctx(r->rdma))) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_ctx_start failed (%s)", doca_error_get_descr(result));
	if (result == DOCA_SUCCESS && (result = doca_rdma_get_dpa_handle(r->rdma, &r->handle)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_rdma_get_dpa_handle failed (%s)", doca_error_get_descr(result));
	for (uint32_t i = 0; result == DOCA_SUCCESS && i < num_connections; i++) {
		result = doca_rdma_export(r->rdma, &r->details[i], &r->details_len[i], &r->conn[i]);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Function doca_rdma_export failed (%s)", doca_error_get_descr(result));
		else if ((result = doca_rdma_connection_get_id(r->conn[i], &r->conn_id[i])) != DOCA_SUCCESS)
			DOCA_LOG_ERR("Function doca_rdma_connection_get_id failed (%s)", doca_error_get_descr(result));
		else
			r->num_connections++;
	}
	if (result != DOCA_SUCCESS)
		dpa_rdma_teardown(r);
	return result;
}

doca_error_t dpa_rdma_connect_pair(struct dpa_rdma *a, struct dpa_rdma *b)
{
	for (uint32_t i = 0; i < a->num_connections && i < b->num_connections; i++) {
		doca_error_t result = doca_rdma_connect(a->rdma, b->details[i], b->details_len[i], a->conn[i]);

		if (result == DOCA_SUCCESS)
			result = doca_rdma_connect(b->rdma, a->details[i], a->details_len[i], b->conn[i]);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Function doca_rdma_connect failed (%s)", doca_error_get_descr(result));
			return result;
		}
	}
	return DOCA_SUCCESS;
}

void dpa_rdma_teardown(struct dpa_rdma *r)
{
	doca_error_t result;

	if (r->rdma == NULL)
		return;
	result = doca_ctx_stop(doca_rdma_as_ctx(r->rdma));
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_ctx_stop failed (%s)", doca_error_get_descr(result));
	result = doca_rdma_destroy(r->rdma);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_rdma_destroy failed (%s)", doca_error_get_descr(result));
	memset(r, 0, sizeof(*r));
}

doca_error_t dpa_mmap_setup(struct doca_dpa *dpa, struct doca_dev *dev, uint64_t addr, size_t len,
			    struct doca_mmap **mmap, doca_dpa_dev_mmap_t *handle)
{
	doca_error_t result = doca_mmap_create(mmap);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_mmap_create failed (%s)", doca_error_get_descr(result));
		return result;
	}
	result = doca_mmap_set_permissions(*mmap, DPA_RDMA_PERMISSIONS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_mmap_set_permissions failed (%s)", doca_error_get_descr(result));
	} else if (dpa != NULL) {
		result = doca_mmap_set_dpa_memrange(*mmap, dpa, addr, len);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Function doca_mmap_set_dpa_memrange failed (%s)", doca_error_get_descr(result));
	} else if ((result = doca_mmap_set_memrange(*mmap, (void *)(uintptr_t)addr, len)) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_mmap_set_memrange failed (%s)", doca_error_get_descr(result));
	} else if ((result = doca_mmap_add_dev(*mmap, dev)) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Function doca_mmap_add_dev failed (%s)", doca_error_get_descr(result));
	}
	if (result == DOCA_SUCCESS && (result = doca_mmap_start(*mmap)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_mmap_start failed (%s)", doca_error_get_descr(result));
	if (result == DOCA_SUCCESS && (result = doca_mmap_dev_get_dpa_handle(*mmap, dev, handle)) != DOCA_SUCCESS)
		DOCA_LOG_ERR("Function doca_mmap_dev_get_dpa_handle failed (%s)", doca_error_get_descr(result));
	if (result != DOCA_SUCCESS) {
		doca_mmap_destroy(*mmap);
		*mmap = NULL;
	}
	return result;
}

/* The sample dpa_sample_main runs (one per process). */
static const char *sample_logic_name;
static doca_error_t (*sample_logic)(struct dpa_resources *);

static doca_error_t run_sample_logic(void *config)
{
	struct dpa_resources resources;
	doca_error_t result, tmp;

	result = allocate_dpa_resources(config, &resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to Allocate DPA Resources: %s", doca_error_get_descr(result));
		return result;
	}
	result = sample_logic(&resources);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("%s() encountered an error: %s", sample_logic_name, doca_error_get_descr(result));
	tmp = destroy_dpa_resources(&resources);
	if (tmp != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to destroy DOCA DPA resources: %s", doca_error_get_descr(tmp));
		DOCA_ERROR_PROPAGATE(result, tmp);
	}
	return result;
}

int dpa_sample_main(int argc, char **argv, const char *logic_name, doca_error_t (*logic)(struct dpa_resources *))
{
	static struct dpa_config cfg;
	struct sample_main_desc desc = {.config = &cfg,
					.register_params = register_dpa_params,
					.params_name = "sample",
					.run = run_sample_logic};

	sample_logic_name = logic_name;
	sample_logic = logic;
	strcpy(cfg.pf_device_name, DEVICE_DEFAULT_NAME);
	strcpy(cfg.rdma_device_name, DEVICE_DEFAULT_NAME);
	return sample_main(argc, argv, &desc);
}
