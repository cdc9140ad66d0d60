/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_config.h — build configuration switches. */
#ifndef SOFTDOCA_DOCA_CONFIG_H
#define SOFTDOCA_DOCA_CONFIG_H

#include "doca_build_config.h"

#define DOCA_COMPAT_HELPERS

#ifdef DOCA_DPA_DEVICE
#undef DOCA_COMPAT_HELPERS
#endif

#endif /* SOFTDOCA_DOCA_CONFIG_H */
