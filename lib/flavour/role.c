/* SPDX-License-Identifier: BSD-3-Clause */
/* The side of the soft card this build of libdoca_common plays, fixed by its flavour. */
#include "softhw/softhw.h"

#ifndef SOFTDOCA_FLAVOUR_ROLE
#error "SOFTDOCA_FLAVOUR_ROLE must be defined by the flavour build"
#endif

__attribute__((visibility("hidden"))) const enum softhw_role softhw_flavour_role = SOFTDOCA_FLAVOUR_ROLE;
