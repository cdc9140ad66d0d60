/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_rdma capabilities: the device profile's RDMA section (lib/softhw/model/profiles.c). */
#include <string.h>

#include "rdma_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(RDMA_CAPS);

/* NULL (after logging) when the query cannot be answered. */
static const struct softhw_caps *caps_of(const struct doca_devinfo *devinfo, const void *out, const char *call)
{
	if (devinfo == NULL || out == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, devinfo == NULL ? "devinfo" : "output");
		return NULL;
	}
	return softdoca_devinfo_caps(devinfo);
}

#define U32_CAP(fn, field) \
	doca_error_t fn(const struct doca_devinfo *devinfo, uint32_t *out) \
	{ \
		const struct softhw_caps *caps = caps_of(devinfo, out, #fn); \
		if (caps == NULL) \
			return DOCA_ERROR_INVALID_VALUE; \
		if (!caps->rdma) \
			return DOCA_ERROR_NOT_SUPPORTED; \
		*out = caps->field; \
		return DOCA_SUCCESS; \
	}

U32_CAP(doca_rdma_cap_get_max_recv_queue_size, rdma_max_recv_queue_size)
U32_CAP(doca_rdma_cap_get_max_send_queue_size, rdma_max_send_queue_size)
U32_CAP(doca_rdma_cap_get_max_send_buf_list_len, rdma_max_send_buf_list_len)
U32_CAP(doca_rdma_cap_get_max_message_size, rdma_max_message_size)
U32_CAP(doca_rdma_cap_get_gid_table_size, rdma_gid_table_size)

/*
 * The GID table: entry 0 is the function's RoCE v2 GID (its IPv4-mapped address, or the one the
 * configuration gives), entry 1 its IPv6 address when it has one; the other entries are
 * unpopulated (zero), as on a port with one address.
 */
static void gid_entry(const struct softhw_function *fn, uint32_t index, struct doca_rdma_gid *gid)
{
	memset(gid->raw, 0, sizeof(gid->raw));
	if (index == 0)
		memcpy(gid->raw, fn->gid, sizeof(gid->raw));
	else if (index == 1 && fn->has_ipv6)
		memcpy(gid->raw, fn->ipv6, sizeof(gid->raw));
}

doca_error_t doca_rdma_cap_get_gid(const struct doca_devinfo *devinfo, uint32_t start_index, uint32_t num_entries,
				   struct doca_rdma_gid *gid_array)
{
	const struct softhw_caps *caps = caps_of(devinfo, gid_array, "doca_rdma_cap_get_gid");

	if (caps == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (!caps->rdma)
		return DOCA_ERROR_NOT_SUPPORTED;
	if (num_entries == 0 || start_index >= caps->rdma_gid_table_size ||
	    num_entries > caps->rdma_gid_table_size - start_index) {
		SDK_LOG_ERR("doca_rdma_cap_get_gid: entries %u to %u are outside the GID table of %u entries (see "
			    "doca_rdma_cap_get_gid_table_size())",
			    start_index, start_index + num_entries - 1, caps->rdma_gid_table_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (uint32_t i = 0; i < num_entries; i++)
		gid_entry(devinfo->fn, start_index + i, &gid_array[i]);
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_cap_transport_type_is_supported(const struct doca_devinfo *devinfo,
						       enum doca_rdma_transport_type transport_type)
{
	const struct softhw_caps *caps;

	if (devinfo == NULL) {
		SDK_LOG_ERR("doca_rdma_cap_transport_type_is_supported: devinfo is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	caps = softdoca_devinfo_caps(devinfo);
	switch (transport_type) {
	case DOCA_RDMA_TRANSPORT_TYPE_RC:
		return caps->rdma ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
	case DOCA_RDMA_TRANSPORT_TYPE_DC:
		return caps->rdma && caps->rdma_dc ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
	}
	SDK_LOG_ERR("doca_rdma_cap_transport_type_is_supported: unknown transport type %d", (int)transport_type);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t doca_rdma_cap_task_receive_get_max_dst_buf_list_len(const struct doca_devinfo *devinfo,
								 enum doca_rdma_transport_type transport_type,
								 uint32_t *max_buf_list_len)
{
	const struct softhw_caps *caps =
		caps_of(devinfo, max_buf_list_len, "doca_rdma_cap_task_receive_get_max_dst_buf_list_len");

	if (caps == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC && transport_type != DOCA_RDMA_TRANSPORT_TYPE_DC) {
		SDK_LOG_ERR("doca_rdma_cap_task_receive_get_max_dst_buf_list_len: unknown transport type %d",
			    (int)transport_type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!caps->rdma || (transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC && !caps->rdma_dc))
		return DOCA_ERROR_NOT_SUPPORTED;
	*max_buf_list_len = caps->rdma_max_recv_buf_list_len;
	return DOCA_SUCCESS;
}

#define TASK_CAP(fn, type) \
	doca_error_t fn(const struct doca_devinfo *devinfo) \
	{ \
		return drdma_task_cap(devinfo, type); \
	}

TASK_CAP(doca_rdma_cap_task_receive_is_supported, DRDMA_TASK_RECEIVE)
TASK_CAP(doca_rdma_cap_task_send_is_supported, DRDMA_TASK_SEND)
TASK_CAP(doca_rdma_cap_task_send_imm_is_supported, DRDMA_TASK_SEND_IMM)
TASK_CAP(doca_rdma_cap_task_read_is_supported, DRDMA_TASK_READ)
TASK_CAP(doca_rdma_cap_task_write_is_supported, DRDMA_TASK_WRITE)
TASK_CAP(doca_rdma_cap_task_write_imm_is_supported, DRDMA_TASK_WRITE_IMM)
TASK_CAP(doca_rdma_cap_task_atomic_cmp_swp_is_supported, DRDMA_TASK_CMP_SWP)
TASK_CAP(doca_rdma_cap_task_atomic_fetch_add_is_supported, DRDMA_TASK_FETCH_ADD)
TASK_CAP(doca_rdma_cap_task_remote_net_sync_event_get_is_supported, DRDMA_TASK_SE_GET)
TASK_CAP(doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported, DRDMA_TASK_SE_SET)
TASK_CAP(doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported, DRDMA_TASK_SE_ADD)
