/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_comch_msgq.h — Comch message queues. Only their DPA hooks are provided so
 * far (docs/compatibility.md): they return DOCA_ERROR_NOT_SUPPORTED.
 */
#ifndef SOFTDOCA_DOCA_COMCH_MSGQ_H
#define SOFTDOCA_DOCA_COMCH_MSGQ_H

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_comch_msgq;
struct doca_dpa;

DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_set_dpa_consumer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_set_dpa_producer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_COMCH_MSGQ_H */
