/* SPDX-License-Identifier: BSD-3-Clause */
/* softdoca: doca_sta_handle.h, written from the DOCA STA interface facts (3.0 plus the newer additions):
 * the opaque handles STA hands out (QPs, subsystems, namespaces, EUs, back-ends, back-end queues). */
#ifndef SOFTDOCA_DOCA_STA_HANDLE_H
#define SOFTDOCA_DOCA_STA_HANDLE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct doca_sta_qp_handle;
struct doca_sta_subs_handle;
struct doca_sta_ns_handle;
struct doca_sta_eu_handle;
struct doca_sta_be_handle;
struct doca_sta_be_q_handle;
#define DOCA_STA_COMPLETION_SIZE (16)
typedef uint8_t doca_sta_nvme_completion_t[DOCA_STA_COMPLETION_SIZE];

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_STA_HANDLE_H */
