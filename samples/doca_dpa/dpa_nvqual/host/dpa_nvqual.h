/* SPDX-License-Identifier: BSD-3-Clause */
/* dpa_nvqual's flags and entry points (host side). */
#ifndef DPA_NVQUAL_H_
#define DPA_NVQUAL_H_

#include <stdbool.h>

#include <doca_dev.h>
#include <doca_error.h>

#define DPA_NVQUAL_MAX_EUS 256

struct dpa_nvqual_config {
	char dev_name[DOCA_DEVINFO_IBDEV_NAME_SIZE]; /* -pf_dev */
	unsigned long test_duration_sec;             /* -test_dur */
	float user_factor;                           /* -user_fac: share of the kernel max run time per iteration */
	bool excluded_eus[DPA_NVQUAL_MAX_EUS];       /* -ex_eu */
	unsigned int num_excluded;
};

/* -pf_dev, -test_dur, -user_fac, -ex_eu */
doca_error_t dpa_nvqual_register_params(void);
/* The sample: stress every available HART for the test duration, then print the JSON summary. */
doca_error_t dpa_nvqual(void *config);

#endif /* DPA_NVQUAL_H_ */
