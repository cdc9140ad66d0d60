/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device runtime's internals (libdoca_dpa_dev*.a, linked into every device image by
 * dpacc). The runtime is freestanding: no libc, no symbol of the host process; it reaches the
 * soft card only through the host callbacks the image is given at load (dpa_abi.h).
 */
#ifndef SOFTDOCA_DPA_DEV_RUNTIME_H
#define SOFTDOCA_DPA_DEV_RUNTIME_H

#include "../dpa_abi.h"

#define DEV_HIDDEN __attribute__((visibility("hidden")))

/* Set by the image's init before any device code runs. */
extern DEV_HIDDEN const struct softdoca_dpa_host_ops *softdoca_dpa_dev_host;

/* A device function softdoca does not implement: the host logs it and the context turns fatal. */
DEV_HIDDEN void softdoca_dpa_dev_unsupported(const char *function);

#endif /* SOFTDOCA_DPA_DEV_RUNTIME_H */
