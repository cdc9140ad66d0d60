/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch_msgq: declared (include/doca_comch_msgq.h) so that programs using message queues
 * build and link, not implemented: no msgq can be created, so every call refuses with a line
 * (docs/compatibility.md says what is known of them and what is missing).
 */
#include "doca_comch_msgq.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH_MSGQ);

static doca_error_t not_supported(const char *what)
{
	SDK_LOG_ERR("%s: Comch message queues are not supported by softdoca yet (docs/compatibility.md)", what);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* NULL arguments are INVALID_VALUE as everywhere; anything else reaches the refusal. */
static doca_error_t refuse(const void *a, const void *b, const char *what)
{
	if (a == NULL || b == NULL) {
		SDK_LOG_ERR("%s: NULL argument", what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return not_supported(what);
}

doca_error_t doca_comch_msgq_create(struct doca_dev *dev, struct doca_comch_msgq **msgq)
{
	if (msgq != NULL)
		*msgq = NULL;
	return refuse(dev, msgq, "doca_comch_msgq_create");
}

doca_error_t doca_comch_msgq_destroy(struct doca_comch_msgq *msgq)
{
	return refuse(msgq, "", "doca_comch_msgq_destroy");
}

doca_error_t doca_comch_msgq_set_dpa_consumer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa)
{
	return refuse(msgq, dpa, "doca_comch_msgq_set_dpa_consumer");
}

doca_error_t doca_comch_msgq_set_max_num_consumers(struct doca_comch_msgq *msgq, uint32_t max_num_consumers)
{
	(void)max_num_consumers;
	return refuse(msgq, "", "doca_comch_msgq_set_max_num_consumers");
}

doca_error_t doca_comch_msgq_set_dpa_producer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa)
{
	return refuse(msgq, dpa, "doca_comch_msgq_set_dpa_producer");
}

doca_error_t doca_comch_msgq_set_max_num_producers(struct doca_comch_msgq *msgq, uint32_t max_num_producers)
{
	(void)max_num_producers;
	return refuse(msgq, "", "doca_comch_msgq_set_max_num_producers");
}

doca_error_t doca_comch_msgq_start(struct doca_comch_msgq *msgq)
{
	return refuse(msgq, "", "doca_comch_msgq_start");
}

doca_error_t doca_comch_msgq_stop(struct doca_comch_msgq *msgq)
{
	return refuse(msgq, "", "doca_comch_msgq_stop");
}

doca_error_t doca_comch_msgq_consumer_create(struct doca_comch_msgq *msgq, struct doca_comch_consumer **consumer)
{
	if (consumer != NULL)
		*consumer = NULL;
	return refuse(msgq, consumer, "doca_comch_msgq_consumer_create");
}

doca_error_t doca_comch_msgq_producer_create(struct doca_comch_msgq *msgq, struct doca_comch_producer **producer)
{
	if (producer != NULL)
		*producer = NULL;
	return refuse(msgq, producer, "doca_comch_msgq_producer_create");
}
