/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device runtime, DPA verbs (libdoca_dpa_dev_verbs.a). DOCA 3.2's doca_dpa_dev_verbs.h is
 * not provided yet (most of its prototypes are not public: docs/compatibility.md); the archive
 * exists so that dpacc command lines naming -ldoca_dpa_dev_verbs link.
 */
#include "dev_runtime.h"

DEV_HIDDEN int __softdoca_dpa_dev_verbs_placeholder;
