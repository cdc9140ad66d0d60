/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef CLOCK_CROSS_TIMESTAMP_SAMPLE_H_
#define CLOCK_CROSS_TIMESTAMP_SAMPLE_H_

#include <stdbool.h>
#include <stdint.h>

#include <doca_clock.h>
#include <doca_dev.h>
#include <doca_error.h>

/* The flags: a device, the clock to read, and optionally a NIC clock to pair it with. */
struct clock_cross_timestamp_cfg {
	bool pci_set;
	char pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint64_t primary_clock; /* DOCA_CLOCK_* */
	uint64_t nic_clock;	/* DOCA_CLOCK_NIC_*, 0: read the primary clock alone */
};

/* The clock's DOCA name, as the sample prints it. */
const char *clock_type_name(uint64_t clock_type);

doca_error_t run_clock_cross_timestamp_sample(const struct clock_cross_timestamp_cfg *cfg);

#endif /* CLOCK_CROSS_TIMESTAMP_SAMPLE_H_ */
