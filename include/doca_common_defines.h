/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_common_defines.h — branch-prediction hints. */
#ifndef SOFTDOCA_DOCA_COMMON_DEFINES_H
#define SOFTDOCA_DOCA_COMMON_DEFINES_H

#ifdef __GNUC__
#define doca_likely(x) __builtin_expect(!!(x), 1)
#define doca_unlikely(x) __builtin_expect(!!(x), 0)
#else
#define doca_likely(x) (x)
#define doca_unlikely(x) (x)
#endif

#endif /* SOFTDOCA_DOCA_COMMON_DEFINES_H */
