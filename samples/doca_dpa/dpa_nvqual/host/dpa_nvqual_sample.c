/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dpa_nvqual (DOCA's name, flags and output; our own code): qualifies a DPA by keeping every
 * available HART (EU) busy for the test duration. One DPA thread per HART, bound to it with an
 * EU affinity, woken each iteration by an RPC that notifies them all; the first EUs of each core
 * stress memory, the others arithmetic. An iteration lasts a share (-user_fac) of the kernel
 * max run time, so no activation meets the watchdog. At the end, a JSON summary of the HARTs.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_log.h>
#include <doca_sync_event.h>

#include "common.h"
#include "dpa_nvqual.h"
#include "../common/dpa_nvqual_common_defs.h"

DOCA_LOG_REGISTER(DPA_NVQUAL);

/* The application dpacc built from the device code (--app-name=dpa_sample_app). */
extern struct doca_dpa_app *dpa_sample_app;
extern doca_dpa_func_t dpa_nvqual_memory_kernel, dpa_nvqual_arithmetic_kernel, dpa_nvqual_dispatch;

#define MEMORY_EUS_PER_CORE 3	  /* the first EUs of each core stress memory */
#define BUF_MAX (64 * 1024)	  /* per-thread buffer of the memory stress */
#define HEAP_SHARE (256ULL << 20) /* device memory the buffers may take in all */
#define JSON_MAX 8192

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct nvqual {
	struct dpa_nvqual_config *cfg;
	struct doca_dev *dev;
	struct doca_dpa *dpa;
	struct doca_sync_event *done;
	doca_dpa_dev_sync_event_t done_handle;
	struct doca_dpa_eu_affinity *affinity;
	unsigned int total_eus;
	bool available[DPA_NVQUAL_MAX_EUS];
	unsigned int num_threads;
	struct doca_dpa_thread *threads[DPA_NVQUAL_MAX_EUS];
	struct doca_dpa_notification_completion *notify[DPA_NVQUAL_MAX_EUS];
	doca_dpa_dev_uintptr_t tls[DPA_NVQUAL_MAX_EUS], bufs[DPA_NVQUAL_MAX_EUS];
	doca_dpa_dev_uintptr_t handles, results;
	uint64_t iteration_ns;
	uint64_t run_time_ns;
};

/* ---- flags ---- */

static doca_error_t dev_name_cb(void *param, void *config)
{
	struct dpa_nvqual_config *cfg = config;
	const char *name = param;

	if (strlen(name) >= sizeof(cfg->dev_name)) {
		DOCA_LOG_ERR("Entered device name exceeding the maximum size of %zu", sizeof(cfg->dev_name) - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(cfg->dev_name, name);
	return DOCA_SUCCESS;
}

static doca_error_t test_duration_cb(void *param, void *config)
{
	struct dpa_nvqual_config *cfg = config;
	const char *s = param;
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v == 0) {
		DOCA_LOG_ERR("Failed to convert ARGP param duration seconds to unsigned long: '%s' (give whole seconds > 0)",
			     s);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->test_duration_sec = v;
	return DOCA_SUCCESS;
}

static doca_error_t user_factor_cb(void *param, void *config)
{
	struct dpa_nvqual_config *cfg = config;
	const char *s = param;
	char *end;
	float v = strtof(s, &end);

	if (end == s || *end != '\0' || !(v > 0.0f && v <= 1.0f)) {
		DOCA_LOG_ERR("User factor parameter is out of range. Expected range: (0, 1]");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->user_factor = v;
	return DOCA_SUCCESS;
}

static doca_error_t excluded_eus_cb(void *param, void *config)
{
	struct dpa_nvqual_config *cfg = config;
	const char *p = param;

	while (*p != '\0') {
		char *end;
		unsigned long eu = strtoul(p, &end, 10);

		if (end == p || eu >= DPA_NVQUAL_MAX_EUS || (*end != ',' && *end != '\0')) {
			DOCA_LOG_ERR("Excluded EUs must be a comma-separated list of EU ids below %d: '%s'",
				     DPA_NVQUAL_MAX_EUS, (const char *)param);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!cfg->excluded_eus[eu])
			cfg->num_excluded++;
		cfg->excluded_eus[eu] = true;
		p = *end == ',' ? end + 1 : end;
	}
	return DOCA_SUCCESS;
}

static doca_error_t add_param(const char *short_name, const char *long_name, const char *arguments,
			      const char *description, doca_argp_param_cb_t cb, bool mandatory)
{
	struct doca_argp_param *param;
	doca_error_t err = doca_argp_param_create(&param);

	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create ARGP param: %s", doca_error_get_descr(err));
		return err;
	}
	doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	doca_argp_param_set_arguments(param, arguments);
	doca_argp_param_set_description(param, description);
	doca_argp_param_set_callback(param, cb);
	doca_argp_param_set_type(param, DOCA_ARGP_TYPE_STRING);
	if (mandatory)
		doca_argp_param_set_mandatory(param);
	err = doca_argp_register_param(param);
	if (err != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to register program param: %s", doca_error_get_descr(err));
	return err;
}

doca_error_t dpa_nvqual_register_params(void)
{
	doca_error_t err;

	err = add_param("pf_dev", "pf-device", "<PF DOCA device name>", "PF device with a DPA to qualify (mandatory)",
			dev_name_cb, true);
	if (err == DOCA_SUCCESS)
		err = add_param("test_dur", "test-duration-sec", "<test duration sec>",
				"How long to keep the HARTs busy, in seconds (mandatory)", test_duration_cb, true);
	if (err == DOCA_SUCCESS)
		err = add_param("user_fac", "user-factor", "[user factor]",
				"Share of the kernel max run time one iteration lasts, in (0, 1] (default 0.75)",
				user_factor_cb, false);
	if (err == DOCA_SUCCESS)
		err = add_param("ex_eu", "excluded-eus", "[excluded eus]",
				"Comma-separated EU (HART) ids to leave idle, e.g. 3,17", excluded_eus_cb, false);
	return err;
}

/* ---- setup ---- */

static doca_error_t dpa_supported(struct doca_devinfo *devinfo)
{
	return doca_dpa_cap_is_supported(devinfo);
}

/* A HART is available when a DPA thread bound to it starts. */
static void probe_harts(struct nvqual *q)
{
	for (unsigned int eu = 1; eu < q->total_eus && eu < DPA_NVQUAL_MAX_EUS; eu++) {
		struct doca_dpa_thread *t = NULL;

		if (doca_dpa_eu_affinity_set(q->affinity, eu) != DOCA_SUCCESS ||
		    doca_dpa_thread_create(q->dpa, &t) != DOCA_SUCCESS)
			continue;
		if (doca_dpa_thread_set_affinity(t, q->affinity) == DOCA_SUCCESS &&
		    doca_dpa_thread_set_func_arg(t, &dpa_nvqual_arithmetic_kernel, 0) == DOCA_SUCCESS &&
		    doca_dpa_thread_start(t) == DOCA_SUCCESS) {
			q->available[eu] = true;
			doca_dpa_thread_stop(t);
		}
		doca_dpa_thread_destroy(t);
	}
}

/* One DPA thread bound to `eu`, with its storage, buffer and notification completion; run. */
static doca_error_t setup_thread(struct nvqual *q, unsigned int eu, uint64_t buf_size)
{
	unsigned int i = q->num_threads;
	bool memory = eu % 16 < MEMORY_EUS_PER_CORE;
	struct dpa_nvqual_tls tls = {0};
	doca_dpa_dev_notification_completion_t handle;
	doca_error_t err;

	DOCA_LOG_INFO("Setting HART #%u", eu);
	err = doca_dpa_eu_affinity_set(q->affinity, eu);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_thread_create(q->dpa, &q->threads[i]);
	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create thread: %s", doca_error_get_name(err));
		return err;
	}
	q->num_threads++; /* torn down from here on */
	err = doca_dpa_thread_set_affinity(q->threads[i], q->affinity);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_mem_alloc(q->dpa, buf_size, &q->bufs[i]);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_mem_alloc(q->dpa, sizeof(tls), &q->tls[i]);
	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to prepare the thread of HART #%u: %s", eu, doca_error_get_name(err));
		return err;
	}
	tls.eu = eu;
	tls.result = q->results + i * sizeof(struct dpa_nvqual_result);
	tls.buf = q->bufs[i];
	tls.buf_size = buf_size;
	tls.budget = q->iteration_ns;
	tls.done_event = q->done_handle;
	err = doca_dpa_h2d_memcpy(q->dpa, q->tls[i], &tls, sizeof(tls));
	if (err == DOCA_SUCCESS)
		err = doca_dpa_thread_set_func_arg(q->threads[i],
						   memory ? &dpa_nvqual_memory_kernel : &dpa_nvqual_arithmetic_kernel, 0);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_thread_set_local_storage(q->threads[i], q->tls[i]);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_thread_start(q->threads[i]);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_notification_completion_create(q->dpa, q->threads[i], &q->notify[i]);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_notification_completion_start(q->notify[i]);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_notification_completion_get_dpa_handle(q->notify[i], &handle);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_h2d_memcpy(q->dpa, q->handles + i * sizeof(handle), &handle, sizeof(handle));
	if (err == DOCA_SUCCESS)
		err = doca_dpa_thread_run(q->threads[i]);
	if (err != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to set up the thread of HART #%u: %s", eu, doca_error_get_name(err));
	return err;
}

static doca_error_t setup(struct nvqual *q)
{
	unsigned long long max_run_time = 0;
	unsigned int used = 0;
	uint64_t buf_size;
	doca_error_t err;

	err = open_doca_device_with_ibdev_name((const uint8_t *)q->cfg->dev_name, strlen(q->cfg->dev_name),
					       dpa_supported, &q->dev);
	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("No device %s with DPA capabilities: %s", q->cfg->dev_name, doca_error_get_name(err));
		return err;
	}
	DOCA_LOG_INFO("Using device %s", q->cfg->dev_name);
	err = doca_dpa_create(q->dev, &q->dpa);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_set_app(q->dpa, dpa_sample_app);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_start(q->dpa);
	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start DOCA DPA context: %s", doca_error_get_name(err));
		return err;
	}
	err = doca_sync_event_create(&q->done);
	if (err == DOCA_SUCCESS)
		err = doca_sync_event_add_publisher_location_dpa(q->done, q->dpa);
	if (err == DOCA_SUCCESS)
		err = doca_sync_event_add_subscriber_location_cpu(q->done, q->dev);
	if (err == DOCA_SUCCESS)
		err = doca_sync_event_start(q->done);
	if (err == DOCA_SUCCESS)
		err = doca_sync_event_get_dpa_handle(q->done, q->dpa, &q->done_handle);
	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the Sync Event: %s", doca_error_get_name(err));
		return err;
	}
	err = doca_dpa_get_total_num_eus_available(q->dpa, &q->total_eus);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_get_kernel_max_run_time(q->dpa, &max_run_time);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_eu_affinity_create(q->dpa, &q->affinity);
	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the DPA's EUs: %s", doca_error_get_name(err));
		return err;
	}
	/* an iteration is a share of the watchdog's limit, and no longer than the whole test */
	q->iteration_ns = (uint64_t)((double)max_run_time * 1e9 * q->cfg->user_factor);
	if (q->iteration_ns > q->cfg->test_duration_sec * 1000000000ULL)
		q->iteration_ns = q->cfg->test_duration_sec * 1000000000ULL;
	probe_harts(q);
	for (unsigned int eu = 1; eu < q->total_eus && eu < DPA_NVQUAL_MAX_EUS; eu++)
		if (q->available[eu] && !q->cfg->excluded_eus[eu])
			used++;
	if (used == 0) {
		DOCA_LOG_ERR("Failed to find any available DPA EUs with the current excluded EUs configuration");
		return DOCA_ERROR_BAD_CONFIG;
	}
	buf_size = HEAP_SHARE / used / 2;
	if (buf_size > BUF_MAX)
		buf_size = BUF_MAX;
	err = doca_dpa_mem_alloc(q->dpa, used * sizeof(doca_dpa_dev_notification_completion_t), &q->handles);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_mem_alloc(q->dpa, used * sizeof(struct dpa_nvqual_result), &q->results);
	if (err != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate DPA memory: %s", doca_error_get_name(err));
		return err;
	}
	for (unsigned int eu = 1; eu < q->total_eus && eu < DPA_NVQUAL_MAX_EUS; eu++) {
		if (!q->available[eu]) {
			DOCA_LOG_WARN("Skipping unavailable HART #%u", eu);
			continue;
		}
		if (q->cfg->excluded_eus[eu]) {
			DOCA_LOG_INFO("Skipping excluded HART #%u", eu);
			continue;
		}
		err = setup_thread(q, eu, buf_size);
		if (err != DOCA_SUCCESS)
			return err;
	}
	return DOCA_SUCCESS;
}

static void tear_down(struct nvqual *q)
{
	for (unsigned int i = 0; i < q->num_threads; i++) {
		if (q->notify[i] != NULL) {
			doca_dpa_notification_completion_stop(q->notify[i]);
			doca_dpa_notification_completion_destroy(q->notify[i]);
		}
		doca_dpa_thread_stop(q->threads[i]);
		doca_dpa_thread_destroy(q->threads[i]);
		if (q->bufs[i] != 0)
			doca_dpa_mem_free(q->dpa, q->bufs[i]);
		if (q->tls[i] != 0)
			doca_dpa_mem_free(q->dpa, q->tls[i]);
	}
	if (q->handles != 0)
		doca_dpa_mem_free(q->dpa, q->handles);
	if (q->results != 0)
		doca_dpa_mem_free(q->dpa, q->results);
	if (q->affinity != NULL)
		doca_dpa_eu_affinity_destroy(q->affinity);
	if (q->done != NULL)
		doca_sync_event_destroy(q->done);
	if (q->dpa != NULL)
		doca_dpa_destroy(q->dpa);
	if (q->dev != NULL)
		doca_dev_close(q->dev);
}

/* ---- the run ---- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Every thread reports its own HART and some work done; a wrong report is an error of the DPA. */
static unsigned int check_results(struct nvqual *q, const struct dpa_nvqual_result *r)
{
	unsigned int errors = 0;

	for (unsigned int i = 0; i < q->num_threads; i++) {
		if (r[i].rounds == 0 || r[i].cycles == 0 || r[i].eu == 0 || r[i].eu >= q->total_eus) {
			DOCA_LOG_ERR("HART #%llu reported no work (%llu rounds in %llu cycles)",
				     (unsigned long long)r[i].eu, (unsigned long long)r[i].rounds,
				     (unsigned long long)r[i].cycles);
			errors++;
		}
	}
	return errors;
}

static doca_error_t run_flow(struct nvqual *q)
{
	int64_t time_left = (int64_t)(q->cfg->test_duration_sec * 1000000000ULL);
	struct dpa_nvqual_result *results = calloc(q->num_threads, sizeof(*results));
	doca_error_t err = DOCA_SUCCESS;
	unsigned int errors = 0;

	if (results == NULL)
		return DOCA_ERROR_NO_MEMORY;
	for (uint64_t iter = 1; time_left > 0; iter++) {
		uint64_t start = now_ns(), ret = 1, secs = (uint64_t)(time_left + 999999999) / 1000000000ULL, elapsed;

		if (interrupted) {
			DOCA_LOG_INFO("Terminating...");
			break;
		}
		DOCA_LOG_INFO("Estimated time left: %02llu:%02llu:%02llu", (unsigned long long)(secs / 3600),
			      (unsigned long long)(secs % 3600 / 60), (unsigned long long)(secs % 60));
		DOCA_LOG_INFO("Starting iteration #%llu", (unsigned long long)iter);
		DOCA_LOG_INFO("Dispatching kernel threads on all HARTs");
		err = doca_dpa_rpc(q->dpa, &dpa_nvqual_dispatch, &ret, q->handles, (uint64_t)q->num_threads);
		if (err != DOCA_SUCCESS || ret != 0) {
			DOCA_LOG_ERR("Failed to run RPC for waking up all threads: %s", doca_error_get_name(err));
			break;
		}
		DOCA_LOG_INFO("Waiting for all threads...");
		err = doca_sync_event_wait_gt(q->done, q->num_threads - 1, ~0ULL);
		if (err != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to wait for all threads: %s", doca_error_get_name(err));
			break;
		}
		elapsed = now_ns() - start;
		time_left -= (int64_t)elapsed;
		q->run_time_ns += elapsed;
		DOCA_LOG_INFO("Retrieving kernel returned values");
		err = doca_dpa_d2h_memcpy(q->dpa, results, q->results, q->num_threads * sizeof(*results));
		if (err != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to copy thread rets from DPA heap: %s", doca_error_get_name(err));
			break;
		}
		DOCA_LOG_INFO("Reporting iteration errs");
		errors += check_results(q, results);
		DOCA_LOG_INFO("Preparing for next iteration");
		err = doca_sync_event_update_set(q->done, 0);
		if (err != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to clear se: %s", doca_error_get_name(err));
			break;
		}
	}
	free(results);
	if (err == DOCA_SUCCESS && doca_dpa_peek_at_last_error(q->dpa) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("The DPA reported an error during the run");
		err = DOCA_ERROR_BAD_STATE;
	}
	if (err == DOCA_SUCCESS && errors > 0)
		err = DOCA_ERROR_UNEXPECTED;
	if (err == DOCA_SUCCESS)
		DOCA_LOG_INFO("DPA run has completed.");
	return err;
}

/* Appends "[a,b,c]" of the HARTs for which pick() holds. */
static void append_list(char *out, size_t len, const struct nvqual *q, bool (*pick)(const struct nvqual *, unsigned int))
{
	bool first = true;

	strncat(out, "[", len - strlen(out) - 1);
	for (unsigned int eu = 1; eu < q->total_eus && eu < DPA_NVQUAL_MAX_EUS; eu++) {
		if (!pick(q, eu))
			continue;
		snprintf(out + strlen(out), len - strlen(out), "%s%u", first ? "" : ",", eu);
		first = false;
	}
	strncat(out, "]", len - strlen(out) - 1);
}

static bool is_available(const struct nvqual *q, unsigned int eu)
{
	return q->available[eu];
}

static bool is_unreachable(const struct nvqual *q, unsigned int eu)
{
	return !q->available[eu];
}

static bool is_used(const struct nvqual *q, unsigned int eu)
{
	return q->available[eu] && !q->cfg->excluded_eus[eu];
}

static bool is_unused(const struct nvqual *q, unsigned int eu)
{
	return q->available[eu] && q->cfg->excluded_eus[eu];
}

static void print_summary(const struct nvqual *q)
{
	static char out[JSON_MAX];

	snprintf(out, sizeof(out), "{\"data\": {\n\t\"device\": \"%s\",\n\t\"total_harts\": %u,\n\t\"available_harts\": ",
		 q->cfg->dev_name, q->total_eus);
	append_list(out, sizeof(out), q, is_available);
	strncat(out, ",\n\t\"unreachable_harts\": ", sizeof(out) - strlen(out) - 1);
	append_list(out, sizeof(out), q, is_unreachable);
	strncat(out, ",\n\t\"used_harts\": ", sizeof(out) - strlen(out) - 1);
	append_list(out, sizeof(out), q, is_used);
	strncat(out, ",\n\t\"unused_harts\": ", sizeof(out) - strlen(out) - 1);
	append_list(out, sizeof(out), q, is_unused);
	snprintf(out + strlen(out), sizeof(out) - strlen(out), ",\n\t\"total_dpa_run_time\": \"%llu [sec]\"\n}}\n",
		 (unsigned long long)(q->run_time_ns / 1000000000ULL));
	DOCA_LOG_INFO("\n\n%s\n", out);
}

doca_error_t dpa_nvqual(void *config)
{
	static struct nvqual q;
	struct sigaction sa = {.sa_handler = on_sigint};
	doca_error_t err;

	memset(&q, 0, sizeof(q));
	q.cfg = config;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) != 0) {
		DOCA_LOG_ERR("Failed to set SIGINT handler: %s", strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	err = setup(&q);
	if (err == DOCA_SUCCESS)
		err = run_flow(&q);
	if (err == DOCA_SUCCESS)
		print_summary(&q);
	tear_down(&q);
	return err;
}
