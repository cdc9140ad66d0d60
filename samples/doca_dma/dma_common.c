/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "dma_common.h"

DOCA_LOG_REGISTER(DMA_COMMON);

#define SLEEP_IN_NANOS (10 * 1000) /* idle wait between two empty progress calls */

/* Copy a string flag into dst (capacity cap, NUL included), refusing values that do not fit. */
static doca_error_t copy_string_arg(char *dst, size_t cap, const char *value, const char *what)
{
	size_t len = strnlen(value, cap);

	if (len >= cap) {
		DOCA_LOG_ERR("Entered %s is longer than the maximum of %zu characters", what, cap - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(dst, value, len + 1);
	return DOCA_SUCCESS;
}

static doca_error_t pci_callback(void *param, void *config)
{
	struct dma_config *conf = config;

	return copy_string_arg(conf->pci_address, sizeof(conf->pci_address), param, "device PCI address");
}

static doca_error_t text_callback(void *param, void *config)
{
	struct dma_config *conf = config;

	return copy_string_arg(conf->cpy_txt, sizeof(conf->cpy_txt), param, "text");
}

/* On the DPU the descriptor and buffer files are inputs, so they must already exist. */
static doca_error_t check_input_file(const char *path, const char *what)
{
#ifdef DOCA_ARCH_DPU
	if (access(path, R_OK) != 0) {
		DOCA_LOG_ERR("Cannot read the %s file %s: copy it from the host first", what, path);
		return DOCA_ERROR_INVALID_VALUE;
	}
#else
	(void)path;
	(void)what;
#endif
	return DOCA_SUCCESS;
}

static doca_error_t descriptor_path_callback(void *param, void *config)
{
	struct dma_config *conf = config;
	doca_error_t result;

	result = copy_string_arg(conf->export_desc_path, sizeof(conf->export_desc_path), param, "descriptor path");
	if (result != DOCA_SUCCESS)
		return result;
	return check_input_file(conf->export_desc_path, "export descriptor");
}

static doca_error_t buf_info_path_callback(void *param, void *config)
{
	struct dma_config *conf = config;
	doca_error_t result;

	result = copy_string_arg(conf->buf_info_path, sizeof(conf->buf_info_path), param, "buffer info path");
	if (result != DOCA_SUCCESS)
		return result;
	return check_input_file(conf->buf_info_path, "buffer information");
}

#ifdef DOCA_ARCH_DPU
/* A buf list needs at least one element. */
static doca_error_t check_num_buf(int num, const char *what)
{
	if (num < 1) {
		DOCA_LOG_ERR("Entered number of %s doca_bufs is %d; it must be at least 1", what, num);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t num_src_buf_callback(void *param, void *config)
{
	struct dma_config *conf = config;
	int num = *(int *)param;

	if (check_num_buf(num, "source") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	conf->num_src_buf = num;
	return DOCA_SUCCESS;
}

static doca_error_t num_dst_buf_callback(void *param, void *config)
{
	struct dma_config *conf = config;
	int num = *(int *)param;

	if (check_num_buf(num, "destination") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	conf->num_dst_buf = num;
	return DOCA_SUCCESS;
}
#endif /* DOCA_ARCH_DPU */

/* One flag of a DMA sample */
struct dma_flag {
	const char *short_name;
	const char *long_name;
	const char *arguments;
	const char *description;
	doca_argp_param_cb_t callback;
	enum doca_argp_type type;
	bool remote_only; /* only the host/DPU pair takes it */
};

static const struct dma_flag dma_flags[] = {
	{"p", "pci-addr", "<PCI address>", "DOCA DMA device PCI address", pci_callback, DOCA_ARGP_TYPE_STRING, false},
	{"t", "text", "<text>", "Text to DMA copy (at most 4096 characters)", text_callback, DOCA_ARGP_TYPE_STRING,
	 false},
	{"d", "descriptor-path", "<path>", "Exported descriptor file path to save (Host) or to read from (DPU)",
	 descriptor_path_callback, DOCA_ARGP_TYPE_STRING, true},
	{"b", "buffer-path", "<path>", "Buffer information file path to save (Host) or to read from (DPU)",
	 buf_info_path_callback, DOCA_ARGP_TYPE_STRING, true},
#ifdef DOCA_ARCH_DPU
	{"ns", "num-src-buf", "<num>", "Number of doca_bufs in the source list", num_src_buf_callback,
	 DOCA_ARGP_TYPE_INT, false},
	{"nd", "num-dst-buf", "<num>", "Number of doca_bufs in the destination list", num_dst_buf_callback,
	 DOCA_ARGP_TYPE_INT, false},
#endif
};

doca_error_t register_dma_params(bool is_remote)
{
	for (size_t i = 0; i < sizeof(dma_flags) / sizeof(dma_flags[0]); i++) {
		const struct dma_flag *flag = &dma_flags[i];
		struct doca_argp_param *param;
		doca_error_t result;

		if (flag->remote_only && !is_remote)
			continue;
		result = doca_argp_param_create(&param);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to create ARGP param: %s", doca_error_get_descr(result));
			return result;
		}
		doca_argp_param_set_short_name(param, flag->short_name);
		doca_argp_param_set_long_name(param, flag->long_name);
		doca_argp_param_set_arguments(param, flag->arguments);
		doca_argp_param_set_description(param, flag->description);
		doca_argp_param_set_callback(param, flag->callback);
		doca_argp_param_set_type(param, flag->type);
		result = doca_argp_register_param(param);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to register program param --%s: %s", flag->long_name,
				     doca_error_get_descr(result));
			return result;
		}
	}
	return DOCA_SUCCESS;
}

/* One task finished (either way): free it, and stop the ctx after the last one. */
static void dma_task_done(struct doca_dma_task_memcpy *dma_task, struct dma_resources *resources)
{
	doca_task_free(doca_dma_task_memcpy_as_task(dma_task));
	if (--resources->num_remaining_tasks == 0)
		(void)doca_ctx_stop(resources->state.ctx);
}

static void dma_memcpy_completed_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	doca_error_t *task_result = task_user_data.ptr;

	*task_result = DOCA_SUCCESS;
	DOCA_LOG_INFO("DMA task was completed successfully");
	dma_task_done(dma_task, ctx_user_data.ptr);
}

static void dma_memcpy_error_callback(struct doca_dma_task_memcpy *dma_task, union doca_data task_user_data,
				      union doca_data ctx_user_data)
{
	doca_error_t *task_result = task_user_data.ptr;

	*task_result = doca_task_get_status(doca_dma_task_memcpy_as_task(dma_task));
	DOCA_LOG_ERR("DMA task failed: %s", doca_error_get_descr(*task_result));
	dma_task_done(dma_task, ctx_user_data.ptr);
}

static void dma_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
				       enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct dma_resources *resources = user_data.ptr;

	(void)ctx;
	(void)prev_state;

	switch (next_state) {
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("DMA context has been stopped");
		resources->run_pe_progress = false;
		break;
	case DOCA_CTX_STATE_STARTING:
		/* DMA starts synchronously: STARTING would be a library bug */
		DOCA_LOG_ERR("DMA context entered into starting state. Unexpected transition");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("DMA context is running");
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("DMA context entered into stopping state. Any inflight tasks will be flushed");
		break;
	default:
		break;
	}
}

doca_error_t dma_task_is_supported(struct doca_devinfo *devinfo)
{
	return doca_dma_cap_task_memcpy_is_supported(devinfo);
}

doca_error_t allocate_dma_resources(const char *pcie_addr, int num_buf, struct dma_resources *resources)
{
	struct program_core_objects *state = &resources->state;
	union doca_data ctx_user_data = {.ptr = resources};
	uint32_t max_buf_list_len = 0;
	doca_error_t result;

	memset(resources, 0, sizeof(*resources));

	result = open_doca_device_with_pci(pcie_addr, dma_task_is_supported, &state->dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open DOCA device for DMA: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(state->dev), &max_buf_list_len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the memcpy task max_buf_list_len capability: %s",
			     doca_error_get_descr(result));
		goto fail;
	}
	/* num_buf is the total of both lists; checking it against the per-list limit is stricter, never wrong */
	if (num_buf < 1 || (uint32_t)num_buf > max_buf_list_len) {
		result = DOCA_ERROR_INVALID_VALUE;
		DOCA_LOG_ERR("Number of doca_bufs [%d] exceeds the device limit [%u]: use fewer with -ns/-nd", num_buf,
			     max_buf_list_len);
		goto fail;
	}

	result = create_core_objects(state, (uint32_t)num_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA core objects: %s", doca_error_get_descr(result));
		goto fail;
	}

	result = doca_dma_create(state->dev, &resources->dma_ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DMA context: %s", doca_error_get_descr(result));
		goto fail;
	}
	state->ctx = doca_dma_as_ctx(resources->dma_ctx);

	result = doca_ctx_set_state_changed_cb(state->ctx, dma_state_changed_callback);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set DMA state change callback: %s", doca_error_get_descr(result));
		goto fail;
	}

	result = doca_dma_task_memcpy_set_conf(resources->dma_ctx, dma_memcpy_completed_callback,
					       dma_memcpy_error_callback, NUM_DMA_TASKS);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set configurations for DMA memcpy task: %s", doca_error_get_descr(result));
		goto fail;
	}

	result = doca_ctx_set_user_data(state->ctx, ctx_user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set DMA context user data: %s", doca_error_get_descr(result));
		goto fail;
	}
	return DOCA_SUCCESS;

fail:
	(void)destroy_dma_resources(resources);
	return result;
}

doca_error_t destroy_dma_resources(struct dma_resources *resources)
{
	doca_error_t result = DOCA_SUCCESS, tmp;

	if (resources->dma_ctx != NULL) {
		result = doca_dma_destroy(resources->dma_ctx);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy DOCA DMA context: %s", doca_error_get_descr(result));
		resources->dma_ctx = NULL;
		resources->state.ctx = NULL;
	}

	tmp = destroy_core_objects(&resources->state);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA core objects: %s", doca_error_get_descr(tmp));
	}
	return result;
}

doca_error_t start_dma_resources(const char *pcie_addr, int num_buf, struct dma_resources *resources)
{
	struct program_core_objects *state = &resources->state;
	doca_error_t result, tmp;

	result = allocate_dma_resources(pcie_addr, num_buf, resources);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DMA resources: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_pe_connect_ctx(state->pe, state->ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to connect progress engine to context: %s", doca_error_get_descr(result));
		goto fail;
	}

	/* DMA starts synchronously: SUCCESS and RUNNING, nothing to wait for */
	result = doca_ctx_start(state->ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start context: %s", doca_error_get_descr(result));
		goto fail;
	}
	return DOCA_SUCCESS;

fail:
	tmp = destroy_dma_resources(resources);
	if (tmp != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to destroy DMA resources: %s", doca_error_get_descr(tmp));
	return result;
}

doca_error_t dma_memcpy_and_wait(struct dma_resources *resources, struct doca_buf *src, struct doca_buf *dst,
				 doca_error_t *task_result)
{
	union doca_data task_user_data = {.ptr = task_result};
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	struct doca_dma_task_memcpy *dma_task = NULL;
	struct doca_task *task;
	doca_error_t result;

	*task_result = DOCA_ERROR_UNKNOWN;
	result = doca_dma_task_memcpy_alloc_init(resources->dma_ctx, src, dst, task_user_data, &dma_task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DMA memcpy task: %s", doca_error_get_descr(result));
		return result;
	}
	resources->num_remaining_tasks = 1;

	task = doca_dma_task_memcpy_as_task(dma_task);
	result = doca_task_submit(task);
	if (result != DOCA_SUCCESS) {
		/* A task that was not submitted is still ours */
		DOCA_LOG_ERR("Failed to submit DMA task: %s", doca_error_get_descr(result));
		doca_task_free(task);
		return result;
	}

	/* The callbacks stop the ctx after the task; the state callback ends this loop at IDLE */
	resources->run_pe_progress = true;
	while (resources->run_pe_progress) {
		if (doca_pe_progress(resources->state.pe) == 0)
			nanosleep(&ts, NULL);
	}
	return DOCA_SUCCESS;
}

doca_error_t release_dma_buf_lists(struct doca_buf *src, struct doca_buf *dst, doca_error_t result)
{
	doca_error_t tmp;

	/* Releasing a list head releases the whole list */
	if (dst != NULL) {
		tmp = doca_buf_dec_refcount(dst, NULL);
		if (tmp != DOCA_SUCCESS) {
			DOCA_ERROR_PROPAGATE(result, tmp);
			DOCA_LOG_ERR("Failed to release destination buffer list: %s", doca_error_get_descr(tmp));
		}
	}
	if (src != NULL) {
		tmp = doca_buf_dec_refcount(src, NULL);
		if (tmp != DOCA_SUCCESS) {
			DOCA_ERROR_PROPAGATE(result, tmp);
			DOCA_LOG_ERR("Failed to release source buffer list: %s", doca_error_get_descr(tmp));
		}
	}
	return result;
}

doca_error_t stop_dma_resources(struct dma_resources *resources, doca_error_t result)
{
	doca_error_t tmp;

	/* Already IDLE after a completed task: stopping an IDLE ctx succeeds */
	tmp = request_stop_ctx(resources->state.pe, resources->state.ctx);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Unable to stop context: %s", doca_error_get_descr(tmp));
	}
	tmp = destroy_dma_resources(resources);
	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}

doca_error_t allocate_dma_host_resources(const char *pcie_addr, struct program_core_objects *state)
{
	doca_error_t result;

	memset(state, 0, sizeof(*state));
	result = open_doca_device_with_pci(pcie_addr, dma_task_is_supported, &state->dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open DOCA device for DMA: %s", doca_error_get_descr(result));
		return result;
	}

	result = doca_mmap_create(&state->src_mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create mmap: %s", doca_error_get_descr(result));
		goto fail;
	}

	result = doca_mmap_add_dev(state->src_mmap, state->dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to add device to mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	return DOCA_SUCCESS;

fail:
	(void)destroy_dma_host_resources(state);
	return result;
}

doca_error_t destroy_dma_host_resources(struct program_core_objects *state)
{
	doca_error_t result = DOCA_SUCCESS, tmp;

	if (state->src_mmap != NULL) {
		result = doca_mmap_destroy(state->src_mmap);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to destroy DOCA mmap: %s", doca_error_get_descr(result));
		state->src_mmap = NULL;
	}
	if (state->dev != NULL) {
		tmp = doca_dev_close(state->dev);
		if (tmp != DOCA_SUCCESS) {
			DOCA_ERROR_PROPAGATE(result, tmp);
			DOCA_LOG_ERR("Failed to close DOCA device: %s", doca_error_get_descr(tmp));
		}
		state->dev = NULL;
	}
	return result;
}
