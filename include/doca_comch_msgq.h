/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_comch_msgq.h — Comch message queues between the host (or DPU) and the DPA.
 * Declared so that programs using them build and link; softdoca does not implement message
 * queues yet: every call returns DOCA_ERROR_NOT_SUPPORTED with a line (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_COMCH_MSGQ_H
#define SOFTDOCA_DOCA_COMCH_MSGQ_H

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct doca_comch_msgq;
struct doca_comch_producer;
struct doca_comch_consumer;
struct doca_dev;
struct doca_dpa;

DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_create(struct doca_dev *dev, struct doca_comch_msgq **msgq);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_destroy(struct doca_comch_msgq *msgq);
/* every consumer (producer) created on the msgq is then used by this DPA context; default: the CPU */
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_set_dpa_consumer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_set_max_num_consumers(struct doca_comch_msgq *msgq, uint32_t max_num_consumers);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_set_dpa_producer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_set_max_num_producers(struct doca_comch_msgq *msgq, uint32_t max_num_producers);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_start(struct doca_comch_msgq *msgq);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_stop(struct doca_comch_msgq *msgq);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_consumer_create(struct doca_comch_msgq *msgq, struct doca_comch_consumer **consumer);
DOCA_EXPERIMENTAL doca_error_t doca_comch_msgq_producer_create(struct doca_comch_msgq *msgq, struct doca_comch_producer **producer);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_COMCH_MSGQ_H */
