/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_comch_cap_*: what the device model says about Comch on this function (profiles.c). */
#include "comch_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(COMCH_CAPS);

/* The control-path limits exist where a server or a client can run (a BlueField). */
static doca_error_t comch_cap(const struct doca_devinfo *devinfo, uint32_t *out, const char *what, size_t offset)
{
	const struct softhw_caps *caps;

	if (devinfo == NULL || out == NULL) {
		SDK_LOG_ERR("Comch capability query (%s): %s is NULL", what, devinfo == NULL ? "devinfo" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	caps = softdoca_devinfo_caps(devinfo);
	if (!caps->comch_server && !caps->comch_client)
		return DOCA_ERROR_NOT_SUPPORTED;
	*out = *(const uint32_t *)((const char *)caps + offset);
	return DOCA_SUCCESS;
}

#define COMCH_CAP(devinfo, out, field) comch_cap(devinfo, out, #field, offsetof(struct softhw_caps, field))

doca_error_t doca_comch_cap_get_max_name_len(const struct doca_devinfo *devinfo, uint32_t *max_name_len)
{
	return COMCH_CAP(devinfo, max_name_len, comch_max_name_len);
}

doca_error_t doca_comch_cap_get_max_msg_size(const struct doca_devinfo *devinfo, uint32_t *size)
{
	return COMCH_CAP(devinfo, size, comch_max_msg_size);
}

doca_error_t doca_comch_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *size)
{
	return COMCH_CAP(devinfo, size, comch_max_recv_queue_size);
}

doca_error_t doca_comch_cap_get_max_clients(const struct doca_devinfo *devinfo, uint32_t *num_clients)
{
	return COMCH_CAP(devinfo, num_clients, comch_max_clients);
}

doca_error_t doca_comch_cap_get_max_send_tasks(const struct doca_devinfo *devinfo, uint32_t *max_send_tasks)
{
	return COMCH_CAP(devinfo, max_send_tasks, comch_max_send_tasks);
}
