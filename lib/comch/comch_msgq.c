/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_comch_msgq: only its DPA hooks are declared so far (include/doca_comch_msgq.h); message
 * queues themselves do not exist yet, so no msgq can reach here. Both hooks refuse with a line
 * (docs/compatibility.md).
 */
#include "doca_comch_msgq.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH_MSGQ);

static doca_error_t no_msgq(const void *msgq, const void *dpa, const char *what)
{
	if (msgq == NULL || dpa == NULL) {
		SDK_LOG_ERR("Failed to %s: %s is NULL", what, msgq == NULL ? "msgq" : "dpa");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("Failed to %s: Comch message queues are not supported by softdoca yet (docs/compatibility.md)",
		    what);
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_comch_msgq_set_dpa_consumer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa)
{
	return no_msgq(msgq, dpa, "set DPA consumer of Comch msgq");
}

doca_error_t doca_comch_msgq_set_dpa_producer(struct doca_comch_msgq *msgq, struct doca_dpa *dpa)
{
	return no_msgq(msgq, dpa, "set DPA producer of Comch msgq");
}
