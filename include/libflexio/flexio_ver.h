/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: libflexio/flexio_ver.h — FlexIO version macros. A program sets FLEXIO_VER_USED
 * with FLEXIO_VER() before including libflexio/flexio.h, as DOCA's DPA samples do.
 */
#ifndef SOFTDOCA_FLEXIO_VER_H
#define SOFTDOCA_FLEXIO_VER_H

#define FLEXIO_VER(major, minor, patch) (((major) * 1000000) + ((minor) * 1000) + (patch))
/* The FlexIO API level softdoca's libflexio answers to (DOCA 3.3's samples ask for 25.4.0). */
#define FLEXIO_CURRENT_VERSION FLEXIO_VER(25, 4, 0)
#define FLEXIO_LAST_SUPPORTED_VERSION FLEXIO_VER(24, 10, 0)

#endif /* SOFTDOCA_FLEXIO_VER_H */
