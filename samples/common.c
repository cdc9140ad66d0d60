/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "common.h"

DOCA_LOG_REGISTER(COMMON);

#define SLEEP_IN_NANOS (10 * 1000) /* idle wait between two empty progress calls */

/* Does devinfo match what the caller asked for (address, name, ...)? */
typedef bool (*devinfo_match)(struct doca_devinfo *devinfo, const void *arg);

/* Walk the device list and open the first device that matches and passes func. */
static doca_error_t open_first_matching(devinfo_match match, const void *arg, tasks_check func,
					struct doca_dev **retval)
{
	struct doca_devinfo **list = NULL;
	uint32_t nb_devs = 0;
	doca_error_t result;

	if (retval == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*retval = NULL;

	result = doca_devinfo_create_list(&list, &nb_devs);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to load the DOCA device list: %s", doca_error_get_descr(result));
		return result;
	}

	result = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < nb_devs; i++) {
		if (match != NULL && !match(list[i], arg))
			continue;
		/* A device that fails the capability check is skipped, not an error */
		if (func != NULL && func(list[i]) != DOCA_SUCCESS)
			continue;
		result = doca_dev_open(list[i], retval);
		if (result == DOCA_SUCCESS)
			break;
		DOCA_LOG_WARN("Failed to open a matching DOCA device: %s", doca_error_get_descr(result));
	}

	(void)doca_devinfo_destroy_list(list);
	return result;
}

static bool match_pci(struct doca_devinfo *devinfo, const void *arg)
{
	uint8_t is_equal = 0;

	return doca_devinfo_is_equal_pci_addr(devinfo, arg, &is_equal) == DOCA_SUCCESS && is_equal;
}

/* The IB device name to match, as given by the caller (not NUL terminated). */
struct ibdev_name {
	const uint8_t *value;
	size_t size;
};

static bool match_ibdev_name(struct doca_devinfo *devinfo, const void *arg)
{
	const struct ibdev_name *wanted = arg;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE] = {0};

	if (doca_devinfo_get_ibdev_name(devinfo, name, sizeof(name)) != DOCA_SUCCESS)
		return false;
	return strlen(name) == wanted->size && memcmp(name, wanted->value, wanted->size) == 0;
}

doca_error_t open_doca_device_with_pci(const char *pci_addr, tasks_check func, struct doca_dev **retval)
{
	doca_error_t result;

	if (pci_addr == NULL)
		return DOCA_ERROR_INVALID_VALUE;

	result = open_first_matching(match_pci, pci_addr, func, retval);
	if (result == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("No DOCA device with PCI address %s and the required capabilities: "
			     "list the devices this process sees with doca_caps --list-devs",
			     pci_addr);
	return result;
}

doca_error_t open_doca_device_with_ibdev_name(const uint8_t *value, size_t val_size, tasks_check func,
					      struct doca_dev **retval)
{
	struct ibdev_name wanted = {.value = value, .size = strnlen((const char *)value, val_size)};
	doca_error_t result;

	if (value == NULL || wanted.size >= DOCA_DEVINFO_IBDEV_NAME_SIZE)
		return DOCA_ERROR_INVALID_VALUE;

	result = open_first_matching(match_ibdev_name, &wanted, func, retval);
	if (result == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("No DOCA device named %.*s with the required capabilities: "
			     "list the devices this process sees with doca_caps --list-devs",
			     (int)wanted.size, (const char *)value);
	return result;
}

doca_error_t open_doca_device_with_capabilities(tasks_check func, struct doca_dev **retval)
{
	doca_error_t result = open_first_matching(NULL, NULL, func, retval);

	if (result == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("No DOCA device with the required capabilities: "
			     "list the devices this process sees with doca_caps");
	return result;
}

doca_error_t open_doca_device_rep_with_pci(struct doca_dev *local, enum doca_devinfo_rep_filter filter,
					   const char *pci_addr, struct doca_dev_rep **retval)
{
	struct doca_devinfo_rep **list = NULL;
	uint32_t nb_reps = 0;
	doca_error_t result;

	if (local == NULL || pci_addr == NULL || retval == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	*retval = NULL;

	result = doca_devinfo_rep_create_list(local, filter, &list, &nb_reps);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to load the representor list: %s", doca_error_get_descr(result));
		return result;
	}

	result = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < nb_reps; i++) {
		uint8_t is_equal = 0;

		if (doca_devinfo_rep_is_equal_pci_addr(list[i], pci_addr, &is_equal) != DOCA_SUCCESS || !is_equal)
			continue;
		result = doca_dev_rep_open(list[i], retval);
		break;
	}

	(void)doca_devinfo_rep_destroy_list(list);
	if (result == DOCA_ERROR_NOT_FOUND)
		DOCA_LOG_ERR("No representor with PCI address %s on this device: list them with "
			     "doca_caps --list-rep-devs",
			     pci_addr);
	return result;
}

doca_error_t create_core_objects(struct program_core_objects *state, uint32_t max_bufs)
{
	doca_error_t result;

	result = doca_mmap_create(&state->src_mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to create source mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_mmap_add_dev(state->src_mmap, state->dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to add device to source mmap: %s", doca_error_get_descr(result));
		goto fail;
	}

	result = doca_mmap_create(&state->dst_mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to create destination mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_mmap_add_dev(state->dst_mmap, state->dev);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to add device to destination mmap: %s", doca_error_get_descr(result));
		goto fail;
	}

	if (max_bufs != 0) {
		result = doca_buf_inventory_create(max_bufs, &state->buf_inv);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Unable to create buffer inventory: %s", doca_error_get_descr(result));
			goto fail;
		}
		result = doca_buf_inventory_start(state->buf_inv);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Unable to start buffer inventory: %s", doca_error_get_descr(result));
			goto fail;
		}
	}

	result = doca_pe_create(&state->pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to create progress engine: %s", doca_error_get_descr(result));
		goto fail;
	}
	return DOCA_SUCCESS;

fail:
	/* Undo only what was made here: the device stays open for the caller to close */
	if (state->buf_inv != NULL)
		(void)doca_buf_inventory_destroy(state->buf_inv);
	if (state->dst_mmap != NULL)
		(void)doca_mmap_destroy(state->dst_mmap);
	if (state->src_mmap != NULL)
		(void)doca_mmap_destroy(state->src_mmap);
	state->buf_inv = NULL;
	state->dst_mmap = NULL;
	state->src_mmap = NULL;
	return result;
}

doca_error_t destroy_core_objects(struct program_core_objects *state)
{
	doca_error_t result = DOCA_SUCCESS, tmp;

	if (state->pe != NULL) {
		tmp = doca_pe_destroy(state->pe);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to destroy progress engine: %s", doca_error_get_descr(tmp));
			DOCA_ERROR_PROPAGATE(result, tmp);
		}
		state->pe = NULL;
	}
	if (state->buf_inv != NULL) {
		tmp = doca_buf_inventory_destroy(state->buf_inv);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to destroy buffer inventory: %s", doca_error_get_descr(tmp));
			DOCA_ERROR_PROPAGATE(result, tmp);
		}
		state->buf_inv = NULL;
	}
	if (state->dst_mmap != NULL) {
		tmp = doca_mmap_destroy(state->dst_mmap);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to destroy destination mmap: %s", doca_error_get_descr(tmp));
			DOCA_ERROR_PROPAGATE(result, tmp);
		}
		state->dst_mmap = NULL;
	}
	if (state->src_mmap != NULL) {
		tmp = doca_mmap_destroy(state->src_mmap);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to destroy source mmap: %s", doca_error_get_descr(tmp));
			DOCA_ERROR_PROPAGATE(result, tmp);
		}
		state->src_mmap = NULL;
	}
	if (state->dev != NULL) {
		tmp = doca_dev_close(state->dev);
		if (tmp != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to close device: %s", doca_error_get_descr(tmp));
			DOCA_ERROR_PROPAGATE(result, tmp);
		}
		state->dev = NULL;
	}
	return result;
}

doca_error_t request_stop_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	enum doca_ctx_states ctx_state;
	doca_error_t result;

	result = doca_ctx_stop(ctx);
	if (result != DOCA_ERROR_IN_PROGRESS) {
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to stop context: %s", doca_error_get_descr(result));
		return result;
	}

	/* In-flight tasks are being flushed; their callbacks run inside doca_pe_progress */
	for (;;) {
		result = doca_ctx_get_state(ctx, &ctx_state);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to get context state: %s", doca_error_get_descr(result));
			return result;
		}
		if (ctx_state == DOCA_CTX_STATE_IDLE)
			return DOCA_SUCCESS;
		if (doca_pe_progress(pe) == 0)
			nanosleep(&ts, NULL);
	}
}

char *hex_dump(const void *data, size_t size)
{
	/* "0x" + 8 offset digits + ": " + 16 * "xx " + " " + 16 chars + "\n" per line */
	enum { LINE_LEN = 2 + 8 + 2 + 16 * 3 + 1 + 16 + 1 };
	const unsigned char *bytes = data;
	size_t lines = (size + 15) / 16;
	char *out = malloc(lines * LINE_LEN + 1);
	char *pos = out;

	if (out == NULL)
		return NULL;
	*pos = '\0';
	for (size_t off = 0; off < size; off += 16) {
		pos += sprintf(pos, "0x%08zx: ", off);
		for (size_t i = 0; i < 16; i++)
			pos += off + i < size ? sprintf(pos, "%02x ", bytes[off + i]) : sprintf(pos, "   ");
		*pos++ = ' ';
		for (size_t i = 0; i < 16 && off + i < size; i++) {
			unsigned char c = bytes[off + i];

			*pos++ = (c >= 0x20 && c < 0x7f) ? (char)c : '.';
		}
		*pos++ = '\n';
		*pos = '\0';
	}
	return out;
}

doca_error_t allocate_doca_buf_list(struct doca_buf_inventory *buf_inv, struct doca_mmap *mmap, void *addr,
				    size_t len, int num_buf, bool set_data_pos, struct doca_buf **dbuf)
{
	struct doca_buf *head = NULL;
	size_t piece;
	doca_error_t result;

	if (dbuf == NULL || addr == NULL || num_buf < 1 || len < (size_t)num_buf) {
		DOCA_LOG_ERR("Cannot split %zu bytes into %d doca_bufs: every buf needs at least one byte", len,
			     num_buf);
		return DOCA_ERROR_INVALID_VALUE;
	}
	piece = len / (size_t)num_buf;

	for (int i = 0; i < num_buf; i++) {
		uint8_t *start = (uint8_t *)addr + (size_t)i * piece;
		size_t this_len = (i == num_buf - 1) ? len - (size_t)i * piece : piece;
		struct doca_buf *buf = NULL;

		result = doca_buf_inventory_buf_get_by_addr(buf_inv, mmap, start, this_len, &buf);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Unable to get doca_buf %d of %d: %s", i + 1, num_buf,
				     doca_error_get_descr(result));
			goto fail;
		}
		if (set_data_pos) {
			result = doca_buf_set_data(buf, start, this_len);
			if (result != DOCA_SUCCESS) {
				DOCA_LOG_ERR("Unable to set data of doca_buf %d: %s", i + 1,
					     doca_error_get_descr(result));
				(void)doca_buf_dec_refcount(buf, NULL);
				goto fail;
			}
		}
		if (head == NULL) {
			head = buf;
			continue;
		}
		result = doca_buf_chain_list(head, buf);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Unable to chain doca_buf %d to the list: %s", i + 1,
				     doca_error_get_descr(result));
			(void)doca_buf_dec_refcount(buf, NULL);
			goto fail;
		}
	}

	*dbuf = head;
	return DOCA_SUCCESS;

fail:
	/* Releasing the head releases every buf chained to it */
	if (head != NULL)
		(void)doca_buf_dec_refcount(head, NULL);
	return result;
}

static doca_error_t run_sample(const struct sample_main_desc *desc)
{
	doca_error_t result = desc->run(desc->config);

	if (result != DOCA_SUCCESS && desc->run_error != NULL)
		DOCA_LOG_ERR("%s: %s", desc->run_error, doca_error_get_descr(result));
	return result;
}

/* Flags then the sample, between argp's init and destroy. */
static doca_error_t parse_and_run(int argc, char **argv, const struct sample_main_desc *desc)
{
	doca_error_t result;

	result = doca_argp_init(NULL, desc->config);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to init ARGP resources: %s", doca_error_get_descr(result));
		return result;
	}
	result = desc->register_params();
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to register %s parameters: %s", desc->params_name, doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to parse sample input: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = run_sample(desc);

argp_cleanup:
	doca_argp_destroy();
	return result;
}

int sample_main(int argc, char **argv, const struct sample_main_desc *desc)
{
	struct doca_log_backend *sdk_log;
	doca_error_t result;

	/* Application messages: INFO and below on stdout, WARNING and above on stderr */
	result = doca_log_backend_create_standard();
	if (result != DOCA_SUCCESS)
		return EXIT_FAILURE;

	/* Library messages: warnings and errors on stderr */
	result = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (result == DOCA_SUCCESS)
		result = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (result != DOCA_SUCCESS)
		goto sample_exit;

	DOCA_LOG_INFO("Starting the sample");

	if (desc->cannot_run != NULL) {
		DOCA_LOG_ERR("%s", desc->cannot_run);
		result = DOCA_ERROR_NOT_SUPPORTED;
	} else if (desc->register_params == NULL) {
		result = run_sample(desc);
	} else {
		result = parse_and_run(argc, argv, desc);
	}

sample_exit:
	if (result == DOCA_SUCCESS) {
		DOCA_LOG_INFO("Sample finished successfully");
		return EXIT_SUCCESS;
	}
	DOCA_LOG_INFO("Sample finished with errors");
	return EXIT_FAILURE;
}
