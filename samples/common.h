/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers shared by softdoca's DOCA samples: opening a device, the core objects most samples
 * need, stopping a context, building buffer lists. Written against the public DOCA API only,
 * the way any DOCA program would.
 */
#ifndef SAMPLES_COMMON_H_
#define SAMPLES_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>

/* Capability check a device must pass to be chosen; DOCA_SUCCESS means "usable". */
typedef doca_error_t (*tasks_check)(struct doca_devinfo *devinfo);

/* The objects most samples create, in one place so they are destroyed in one place. */
struct program_core_objects {
	struct doca_dev *dev;
	struct doca_mmap *src_mmap;
	struct doca_mmap *dst_mmap;
	struct doca_buf_inventory *buf_inv;
	struct doca_ctx *ctx;
	struct doca_pe *pe;
};

/* Open the device at PCI address pci_addr ("BB:DD.F" or "DDDD:BB:DD.F") that passes func (may be NULL). */
doca_error_t open_doca_device_with_pci(const char *pci_addr, tasks_check func, struct doca_dev **retval);

/* Open the device whose IB device name is value[0..val_size) and that passes func (may be NULL). */
doca_error_t open_doca_device_with_ibdev_name(const uint8_t *value, size_t val_size, tasks_check func,
					      struct doca_dev **retval);

/* Open the representor of local, among those filter selects, whose PCI address is pci_addr. */
doca_error_t open_doca_device_rep_with_pci(struct doca_dev *local, enum doca_devinfo_rep_filter filter,
					   const char *pci_addr, struct doca_dev_rep **retval);

/* Open the first device that passes func. */
doca_error_t open_doca_device_with_capabilities(tasks_check func, struct doca_dev **retval);

/*
 * Create both mmaps (with state->dev added), a started inventory of max_bufs elements
 * (none if max_bufs is 0) and a PE. state->dev must be open. On failure nothing is left behind.
 */
doca_error_t create_core_objects(struct program_core_objects *state, uint32_t max_bufs);

/* Destroy what create_core_objects made and close state->dev; every pointer is NULL afterwards. */
doca_error_t destroy_core_objects(struct program_core_objects *state);

/* Stop ctx; if tasks are still in flight, progress pe until the ctx is IDLE. */
doca_error_t request_stop_ctx(struct doca_pe *pe, struct doca_ctx *ctx);

/* Hex + ASCII dump of data, one line per 16 bytes. Returns a malloc'ed string (NULL if out of memory). */
char *hex_dump(const void *data, size_t size);

/*
 * Split [addr, addr + len) of mmap into num_buf consecutive doca_bufs (the last takes the
 * remainder) and chain them into one list, returned in *dbuf (release it with
 * doca_buf_dec_refcount on the head). set_data_pos: the whole range is data (a source);
 * otherwise every buf starts empty (a destination).
 */
doca_error_t allocate_doca_buf_list(struct doca_buf_inventory *buf_inv, struct doca_mmap *mmap, void *addr,
				    size_t len, int num_buf, bool set_data_pos, struct doca_buf **dbuf);

/* What makes one sample's main different from another's; sample_main runs the rest. */
struct sample_main_desc {
	const char *cannot_run;		       /* non-NULL: why this build cannot run the sample */
	void *config;			       /* the flags' program config, handed to run */
	doca_error_t (*register_params)(void); /* NULL: the sample takes no flags (argp unused) */
	const char *params_name;	       /* "Failed to register <params_name> parameters" */
	doca_error_t (*run)(void *config);     /* the sample itself */
	const char *run_error;		       /* non-NULL: logged as "<run_error>: <error>" if run fails */
};

/*
 * The main every sample shares: log backends, "Starting the sample", flags, run, then
 * "Sample finished successfully" (returns EXIT_SUCCESS) or "... with errors" (EXIT_FAILURE).
 */
int sample_main(int argc, char **argv, const struct sample_main_desc *desc);

#endif /* SAMPLES_COMMON_H_ */
