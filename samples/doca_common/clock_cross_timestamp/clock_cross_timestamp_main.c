/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_clock_cross_timestamp: -p <PCI address> (required), -c <clock> (required),
 * -n <NIC clock> (optional: read -c and -n together). Clock names: nic_fr, nic_rt, nic_dpa,
 * host_cycles, host_rt, host_mon, host_mon_raw.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "common.h"
#include "clock_cross_timestamp_sample.h"

DOCA_LOG_REGISTER(CLOCK_CROSS_TIMESTAMP::MAIN);

#define NIC_CLOCKS (DOCA_CLOCK_NIC_FREE_RUNNING | DOCA_CLOCK_NIC_REAL_TIME | DOCA_CLOCK_NIC_DPA_TIMER)

static const struct {
	const char *flag_value;
	uint64_t clock;
} clock_names[] = {
	{"nic_fr", DOCA_CLOCK_NIC_FREE_RUNNING},
	{"nic_rt", DOCA_CLOCK_NIC_REAL_TIME},
	{"nic_dpa", DOCA_CLOCK_NIC_DPA_TIMER},
	{"host_cycles", DOCA_CLOCK_HOST_COUNTER_CYCLES},
	{"host_rt", DOCA_CLOCK_HOST_REAL_TIME},
	{"host_mon", DOCA_CLOCK_HOST_MONOTONIC},
	{"host_mon_raw", DOCA_CLOCK_HOST_MONOTONIC_RAW},
};

/* The DOCA_CLOCK_* value of a flag's clock name; 0 for a name that is none. */
static uint64_t clock_from_flag(const char *value)
{
	for (size_t i = 0; i < sizeof(clock_names) / sizeof(clock_names[0]); i++)
		if (strcmp(value, clock_names[i].flag_value) == 0)
			return clock_names[i].clock;
	return 0;
}

static doca_error_t pci_callback(void *param, void *config)
{
	struct clock_cross_timestamp_cfg *cfg = config;
	const char *value = param;
	size_t len = strnlen(value, sizeof(cfg->pci_addr));

	if (len >= sizeof(cfg->pci_addr)) {
		DOCA_LOG_ERR("Entered device PCI address exceeding the maximum size of %zu", sizeof(cfg->pci_addr) - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(cfg->pci_addr, value, len + 1);
	cfg->pci_set = true;
	return DOCA_SUCCESS;
}

static doca_error_t primary_clock_callback(void *param, void *config)
{
	struct clock_cross_timestamp_cfg *cfg = config;

	cfg->primary_clock = clock_from_flag(param);
	if (cfg->primary_clock == 0) {
		DOCA_LOG_ERR("Unrecognised clock type: %s", (const char *)param);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t nic_clock_callback(void *param, void *config)
{
	struct clock_cross_timestamp_cfg *cfg = config;

	cfg->nic_clock = clock_from_flag(param);
	if (cfg->nic_clock == 0) {
		DOCA_LOG_ERR("Unrecognised clock type: %s", (const char *)param);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if ((cfg->nic_clock & NIC_CLOCKS) == 0) {
		DOCA_LOG_ERR("Input clock (%s) is not a NIC clock", (const char *)param);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t register_string_flag(const char *short_name, const char *long_name, const char *description,
					 doca_argp_param_cb_t callback, bool mandatory)
{
	struct doca_argp_param *param;
	doca_error_t result = doca_argp_param_create(&param);

	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create ARGP param: %s", doca_error_get_name(result));
		return result;
	}
	doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	doca_argp_param_set_description(param, description);
	doca_argp_param_set_callback(param, callback);
	doca_argp_param_set_type(param, DOCA_ARGP_TYPE_STRING);
	if (mandatory)
		doca_argp_param_set_mandatory(param);
	result = doca_argp_register_param(param);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to register program param: %s", doca_error_get_name(result));
	return result;
}

static doca_error_t register_params(void)
{
	doca_error_t result;

	result = register_string_flag("p", "pci-addr", "DOCA device PCI device address", pci_callback, false);
	if (result == DOCA_SUCCESS)
		result = register_string_flag(
			"c", "primary-clock",
			"'nic_fr', 'nic_rt', 'nic_dpa', 'host_cycles', 'host_rt', 'host_mon', or 'host_mon_raw'",
			primary_clock_callback, true);
	if (result == DOCA_SUCCESS)
		result = register_string_flag("n", "nic-clock", "'nic_fr', 'nic_rt', or 'nic_dpa'", nic_clock_callback,
					      false);
	return result;
}

static doca_error_t run(void *config)
{
	const struct clock_cross_timestamp_cfg *cfg = config;

	/* A NIC clock is a device's: the sample needs to know which */
	if (!cfg->pci_set) {
		DOCA_LOG_ERR("PCI address must be provided");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return run_clock_cross_timestamp_sample(cfg);
}

int main(int argc, char **argv)
{
	struct clock_cross_timestamp_cfg cfg = {0};
	const struct sample_main_desc desc = {.config = &cfg,
					      .register_params = register_params,
					      .params_name = "clock cross-timestamp",
					      .run = run,
					      .run_error = "run_clock_cross_timestamp_sample() encountered an error"};

	return sample_main(argc, argv, &desc);
}
