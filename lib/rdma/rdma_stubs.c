/* SPDX-License-Identifier: BSD-3-Clause */
/* First cut: every DOCA RDMA function exists and refuses (replaced file by file). */
#include "doca_rdma.h"
#include "doca_rdma_bridge.h"
#include "common/priv/sdk_log.h"

SDK_LOG_REGISTER(RDMA);

doca_error_t doca_rdma_create(struct doca_dev *dev, struct doca_rdma **rdma)
{
	(void)dev;
	(void)rdma;
	SDK_LOG_ERR("doca_rdma_create: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_destroy(struct doca_rdma *rdma)
{
	(void)rdma;
	SDK_LOG_ERR("doca_rdma_destroy: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_ctx *doca_rdma_as_ctx(struct doca_rdma *rdma)
{
	(void)rdma;
	return NULL;
}

doca_error_t doca_rdma_export(struct doca_rdma *rdma, const void **local_rdma_conn_details, size_t *local_rdma_conn_details_size, struct doca_rdma_connection **rdma_connection)
{
	(void)rdma;
	(void)local_rdma_conn_details;
	(void)local_rdma_conn_details_size;
	(void)rdma_connection;
	SDK_LOG_ERR("doca_rdma_export: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connect(struct doca_rdma *rdma, const void *remote_rdma_conn_details, size_t remote_rdma_conn_details_size, struct doca_rdma_connection *rdma_connection)
{
	(void)rdma;
	(void)remote_rdma_conn_details;
	(void)remote_rdma_conn_details_size;
	(void)rdma_connection;
	SDK_LOG_ERR("doca_rdma_connect: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type, const char *address, uint16_t port, struct doca_rdma_addr **addr)
{
	(void)addr_type;
	(void)address;
	(void)port;
	(void)addr;
	SDK_LOG_ERR("doca_rdma_addr_create: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr)
{
	(void)addr;
	SDK_LOG_ERR("doca_rdma_addr_destroy: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	(void)rdma;
	(void)port;
	SDK_LOG_ERR("doca_rdma_start_listen_to_port: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	(void)rdma;
	(void)port;
	SDK_LOG_ERR("doca_rdma_stop_listen_to_port: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *rdma_connection, void *private_data, uint8_t private_data_len)
{
	(void)rdma_connection;
	(void)private_data;
	(void)private_data_len;
	SDK_LOG_ERR("doca_rdma_connection_accept: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *rdma_connection)
{
	(void)rdma_connection;
	SDK_LOG_ERR("doca_rdma_connection_reject: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma, struct doca_rdma_addr *addr, union doca_data connection_user_data)
{
	(void)rdma;
	(void)addr;
	(void)connection_user_data;
	SDK_LOG_ERR("doca_rdma_connect_to_addr: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *rdma_connection)
{
	(void)rdma_connection;
	SDK_LOG_ERR("doca_rdma_connection_disconnect: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_prepare_connection(struct doca_rdma *rdma, struct rdma_cm_id *cm_id, struct doca_rdma_connection **rdma_connection)
{
	(void)rdma;
	(void)cm_id;
	(void)rdma_connection;
	SDK_LOG_ERR("doca_rdma_bridge_prepare_connection: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_accept(struct doca_rdma *rdma, void *private_data, uint8_t private_data_len, struct doca_rdma_connection *rdma_connection)
{
	(void)rdma;
	(void)private_data;
	(void)private_data_len;
	(void)rdma_connection;
	SDK_LOG_ERR("doca_rdma_bridge_accept: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_established(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection)
{
	(void)rdma;
	(void)rdma_connection;
	SDK_LOG_ERR("doca_rdma_bridge_established: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo, uint32_t *max_recv_queue_size)
{
	(void)devinfo;
	(void)max_recv_queue_size;
	SDK_LOG_ERR("doca_rdma_cap_get_max_recv_queue_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_get_max_send_queue_size(const struct doca_devinfo *devinfo, uint32_t *max_send_queue_size)
{
	(void)devinfo;
	(void)max_send_queue_size;
	SDK_LOG_ERR("doca_rdma_cap_get_max_send_queue_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_get_max_send_buf_list_len(const struct doca_devinfo *devinfo, uint32_t *max_send_buf_list_len)
{
	(void)devinfo;
	(void)max_send_buf_list_len;
	SDK_LOG_ERR("doca_rdma_cap_get_max_send_buf_list_len: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_get_max_message_size(const struct doca_devinfo *devinfo, uint32_t *max_message_size)
{
	(void)devinfo;
	(void)max_message_size;
	SDK_LOG_ERR("doca_rdma_cap_get_max_message_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_get_gid_table_size(const struct doca_devinfo *devinfo, uint32_t *gid_table_size)
{
	(void)devinfo;
	(void)gid_table_size;
	SDK_LOG_ERR("doca_rdma_cap_get_gid_table_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_get_gid(const struct doca_devinfo *devinfo, uint32_t start_index, uint32_t num_entries, struct doca_rdma_gid *gid_array)
{
	(void)devinfo;
	(void)start_index;
	(void)num_entries;
	(void)gid_array;
	SDK_LOG_ERR("doca_rdma_cap_get_gid: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_transport_type_is_supported(const struct doca_devinfo *devinfo, enum doca_rdma_transport_type transport_type)
{
	(void)devinfo;
	(void)transport_type;
	SDK_LOG_ERR("doca_rdma_cap_transport_type_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_send_queue_size(struct doca_rdma *rdma, uint32_t send_queue_size)
{
	(void)rdma;
	(void)send_queue_size;
	SDK_LOG_ERR("doca_rdma_set_send_queue_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_recv_queue_size(struct doca_rdma *rdma, uint32_t recv_queue_size)
{
	(void)rdma;
	(void)recv_queue_size;
	SDK_LOG_ERR("doca_rdma_set_recv_queue_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_max_send_buf_list_len(struct doca_rdma *rdma, uint32_t max_send_buf_list_len)
{
	(void)rdma;
	(void)max_send_buf_list_len;
	SDK_LOG_ERR("doca_rdma_set_max_send_buf_list_len: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_transport_type(struct doca_rdma *rdma, enum doca_rdma_transport_type transport_type)
{
	(void)rdma;
	(void)transport_type;
	SDK_LOG_ERR("doca_rdma_set_transport_type: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_mtu(struct doca_rdma *rdma, enum doca_mtu_size mtu)
{
	(void)rdma;
	(void)mtu;
	SDK_LOG_ERR("doca_rdma_set_mtu: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_permissions(struct doca_rdma *rdma, uint32_t permissions)
{
	(void)rdma;
	(void)permissions;
	SDK_LOG_ERR("doca_rdma_set_permissions: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_grh_enabled(struct doca_rdma *rdma, uint8_t grh_enabled)
{
	(void)rdma;
	(void)grh_enabled;
	SDK_LOG_ERR("doca_rdma_set_grh_enabled: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_gid_index(struct doca_rdma *rdma, uint32_t gid_index)
{
	(void)rdma;
	(void)gid_index;
	SDK_LOG_ERR("doca_rdma_set_gid_index: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_sl(struct doca_rdma *rdma, uint32_t sl)
{
	(void)rdma;
	(void)sl;
	SDK_LOG_ERR("doca_rdma_set_sl: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_connection_request_timeout(struct doca_rdma *rdma, uint16_t timeout)
{
	(void)rdma;
	(void)timeout;
	SDK_LOG_ERR("doca_rdma_set_connection_request_timeout: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *rdma_connection, union doca_data connection_user_data)
{
	(void)rdma_connection;
	(void)connection_user_data;
	SDK_LOG_ERR("doca_rdma_connection_set_user_data: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_max_num_connections(struct doca_rdma *rdma, uint16_t max_num_connections)
{
	(void)rdma;
	(void)max_num_connections;
	SDK_LOG_ERR("doca_rdma_set_max_num_connections: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_rnr_retry_count(struct doca_rdma *rdma, uint8_t rnr_retry_count)
{
	(void)rdma;
	(void)rnr_retry_count;
	SDK_LOG_ERR("doca_rdma_set_rnr_retry_count: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_send_queue_size(const struct doca_rdma *rdma, uint32_t *send_queue_size)
{
	(void)rdma;
	(void)send_queue_size;
	SDK_LOG_ERR("doca_rdma_get_send_queue_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_recv_queue_size(const struct doca_rdma *rdma, uint32_t *recv_queue_size)
{
	(void)rdma;
	(void)recv_queue_size;
	SDK_LOG_ERR("doca_rdma_get_recv_queue_size: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_max_send_buf_list_len(const struct doca_rdma *rdma, uint32_t *max_send_buf_list_len)
{
	(void)rdma;
	(void)max_send_buf_list_len;
	SDK_LOG_ERR("doca_rdma_get_max_send_buf_list_len: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_transport_type(const struct doca_rdma *rdma, enum doca_rdma_transport_type *transport_type)
{
	(void)rdma;
	(void)transport_type;
	SDK_LOG_ERR("doca_rdma_get_transport_type: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_mtu(const struct doca_rdma *rdma, enum doca_mtu_size *mtu)
{
	(void)rdma;
	(void)mtu;
	SDK_LOG_ERR("doca_rdma_get_mtu: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_permissions(struct doca_rdma *rdma, uint32_t *permissions)
{
	(void)rdma;
	(void)permissions;
	SDK_LOG_ERR("doca_rdma_get_permissions: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_grh_enabled(const struct doca_rdma *rdma, uint8_t *grh_enabled)
{
	(void)rdma;
	(void)grh_enabled;
	SDK_LOG_ERR("doca_rdma_get_grh_enabled: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_gid_index(const struct doca_rdma *rdma, uint32_t *gid_index)
{
	(void)rdma;
	(void)gid_index;
	SDK_LOG_ERR("doca_rdma_get_gid_index: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_sl(const struct doca_rdma *rdma, uint32_t *sl)
{
	(void)rdma;
	(void)sl;
	SDK_LOG_ERR("doca_rdma_get_sl: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_dpa_handle(struct doca_rdma *rdma, doca_dpa_dev_rdma_t *dpa_rdma)
{
	(void)rdma;
	(void)dpa_rdma;
	SDK_LOG_ERR("doca_rdma_get_dpa_handle: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_gpu_handle(struct doca_rdma *rdma, struct doca_gpu_dev_rdma **gpu_rdma)
{
	(void)rdma;
	(void)gpu_rdma;
	SDK_LOG_ERR("doca_rdma_get_gpu_handle: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_connection_request_timeout(const struct doca_rdma *rdma, uint16_t *timeout)
{
	(void)rdma;
	(void)timeout;
	SDK_LOG_ERR("doca_rdma_get_connection_request_timeout: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connection_get_addr(const struct doca_rdma_connection *rdma_connection, struct doca_rdma_addr **addr)
{
	(void)rdma_connection;
	(void)addr;
	SDK_LOG_ERR("doca_rdma_connection_get_addr: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr, enum doca_rdma_addr_type *addr_type, const char **address, uint16_t *port)
{
	(void)addr;
	(void)addr_type;
	(void)address;
	(void)port;
	SDK_LOG_ERR("doca_rdma_addr_get_params: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connection_get_user_data(const struct doca_rdma_connection *rdma_connection, union doca_data *connection_user_data)
{
	(void)rdma_connection;
	(void)connection_user_data;
	SDK_LOG_ERR("doca_rdma_connection_get_user_data: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *rdma_connection, uint32_t *connection_id)
{
	(void)rdma_connection;
	(void)connection_id;
	SDK_LOG_ERR("doca_rdma_connection_get_id: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_max_num_connections(struct doca_rdma *rdma, uint16_t *max_num_connections)
{
	(void)rdma;
	(void)max_num_connections;
	SDK_LOG_ERR("doca_rdma_get_max_num_connections: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_get_rnr_retry_count(const struct doca_rdma *rdma, uint8_t *rnr_retry_count)
{
	(void)rdma;
	(void)rnr_retry_count;
	SDK_LOG_ERR("doca_rdma_get_rnr_retry_count: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_set_connection_state_callbacks(struct doca_rdma *rdma, doca_rdma_connection_request_cb_t doca_rdma_connect_request_cb, doca_rdma_connection_established_cb_t doca_rdma_connect_established_cb, doca_rdma_connection_failure_cb_t doca_rdma_connect_failure_cb, doca_rdma_connection_disconnection_cb_t doca_rdma_disconnect_cb)
{
	(void)rdma;
	(void)doca_rdma_connect_request_cb;
	(void)doca_rdma_connect_established_cb;
	(void)doca_rdma_connect_failure_cb;
	(void)doca_rdma_disconnect_cb;
	SDK_LOG_ERR("doca_rdma_set_connection_state_callbacks: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_task_receive_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_receive_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_cap_task_receive_get_max_dst_buf_list_len(const struct doca_devinfo *devinfo, enum doca_rdma_transport_type transport_type, uint32_t *max_buf_list_len)
{
	(void)devinfo;
	(void)transport_type;
	(void)max_buf_list_len;
	SDK_LOG_ERR("doca_rdma_cap_task_receive_get_max_dst_buf_list_len: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_receive_set_conf(struct doca_rdma *rdma, doca_rdma_task_receive_completion_cb_t successful_task_completion_cb, doca_rdma_task_receive_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_receive_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_receive_set_dst_buf_list_len(struct doca_rdma *rdma, uint32_t buf_list_len)
{
	(void)rdma;
	(void)buf_list_len;
	SDK_LOG_ERR("doca_rdma_task_receive_set_dst_buf_list_len: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_receive_get_dst_buf_list_len(const struct doca_rdma *rdma, uint32_t *buf_list_len)
{
	(void)rdma;
	(void)buf_list_len;
	SDK_LOG_ERR("doca_rdma_task_receive_get_dst_buf_list_len: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_receive_allocate_init(struct doca_rdma *rdma, struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_receive **task)
{
	(void)rdma;
	(void)dst_buf;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_receive_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_receive_as_task(struct doca_rdma_task_receive *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_receive_set_dst_buf(struct doca_rdma_task_receive *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
}

struct doca_buf *doca_rdma_task_receive_get_dst_buf(const struct doca_rdma_task_receive *task)
{
	(void)task;
	return NULL;
}

enum doca_rdma_opcode doca_rdma_task_receive_get_result_opcode(const struct doca_rdma_task_receive *task)
{
	(void)task;
	return (enum doca_rdma_opcode)0;
}

uint32_t doca_rdma_task_receive_get_result_len(const struct doca_rdma_task_receive *task)
{
	(void)task;
	return 0;
}

doca_be32_t doca_rdma_task_receive_get_result_immediate_data(const struct doca_rdma_task_receive *task)
{
	(void)task;
	return 0;
}

const struct doca_rdma_connection *doca_rdma_task_receive_get_result_rdma_connection(const struct doca_rdma_task_receive *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_send_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_send_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_send_set_conf(struct doca_rdma *rdma, doca_rdma_task_send_completion_cb_t successful_task_completion_cb, doca_rdma_task_send_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_send_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_send_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, const struct doca_buf *src_buf, union doca_data user_data, struct doca_rdma_task_send **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)src_buf;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_send_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_send_as_task(struct doca_rdma_task_send *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_send_set_src_buf(struct doca_rdma_task_send *task, const struct doca_buf *src_buf)
{
	(void)task;
	(void)src_buf;
}

const struct doca_buf *doca_rdma_task_send_get_src_buf(const struct doca_rdma_task_send *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_send_set_rdma_connection(struct doca_rdma_task_send *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_send_get_rdma_connection(const struct doca_rdma_task_send *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_send_imm_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_send_imm_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_send_imm_set_conf(struct doca_rdma *rdma, doca_rdma_task_send_imm_completion_cb_t successful_task_completion_cb, doca_rdma_task_send_imm_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_send_imm_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_send_imm_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, const struct doca_buf *src_buf, doca_be32_t immediate_data, union doca_data user_data, struct doca_rdma_task_send_imm **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)src_buf;
	(void)immediate_data;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_send_imm_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_send_imm_as_task(struct doca_rdma_task_send_imm *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_send_imm_set_src_buf(struct doca_rdma_task_send_imm *task, const struct doca_buf *src_buf)
{
	(void)task;
	(void)src_buf;
}

const struct doca_buf *doca_rdma_task_send_imm_get_src_buf(const struct doca_rdma_task_send_imm *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_send_imm_set_immediate_data(struct doca_rdma_task_send_imm *task, doca_be32_t immediate_data)
{
	(void)task;
	(void)immediate_data;
}

doca_be32_t doca_rdma_task_send_imm_get_immediate_data(const struct doca_rdma_task_send_imm *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_send_imm_set_rdma_connection(struct doca_rdma_task_send_imm *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_send_imm_get_rdma_connection(const struct doca_rdma_task_send_imm *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_read_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_read_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_read_set_conf(struct doca_rdma *rdma, doca_rdma_task_read_completion_cb_t successful_task_completion_cb, doca_rdma_task_read_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_read_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_read_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, const struct doca_buf *src_buf, struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_read **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)src_buf;
	(void)dst_buf;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_read_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_read_as_task(struct doca_rdma_task_read *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_read_set_src_buf(struct doca_rdma_task_read *task, const struct doca_buf *src_buf)
{
	(void)task;
	(void)src_buf;
}

const struct doca_buf *doca_rdma_task_read_get_src_buf(const struct doca_rdma_task_read *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_read_set_dst_buf(struct doca_rdma_task_read *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
}

struct doca_buf *doca_rdma_task_read_get_dst_buf(const struct doca_rdma_task_read *task)
{
	(void)task;
	return NULL;
}

uint32_t doca_rdma_task_read_get_result_len(const struct doca_rdma_task_read *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_read_set_rdma_connection(struct doca_rdma_task_read *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_read_get_rdma_connection(const struct doca_rdma_task_read *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_write_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_write_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_write_set_conf(struct doca_rdma *rdma, doca_rdma_task_write_completion_cb_t successful_task_completion_cb, doca_rdma_task_write_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_write_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_write_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, const struct doca_buf *src_buf, struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_write **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)src_buf;
	(void)dst_buf;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_write_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_write_as_task(struct doca_rdma_task_write *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_write_set_src_buf(struct doca_rdma_task_write *task, const struct doca_buf *src_buf)
{
	(void)task;
	(void)src_buf;
}

const struct doca_buf *doca_rdma_task_write_get_src_buf(const struct doca_rdma_task_write *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_write_set_dst_buf(struct doca_rdma_task_write *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
}

struct doca_buf *doca_rdma_task_write_get_dst_buf(const struct doca_rdma_task_write *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_write_set_rdma_connection(struct doca_rdma_task_write *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_write_get_rdma_connection(const struct doca_rdma_task_write *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_write_imm_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_write_imm_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_write_imm_set_conf(struct doca_rdma *rdma, doca_rdma_task_write_imm_completion_cb_t successful_task_completion_cb, doca_rdma_task_write_imm_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_write_imm_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_write_imm_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, const struct doca_buf *src_buf, struct doca_buf *dst_buf, doca_be32_t immediate_data, union doca_data user_data, struct doca_rdma_task_write_imm **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)src_buf;
	(void)dst_buf;
	(void)immediate_data;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_write_imm_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_write_imm_as_task(struct doca_rdma_task_write_imm *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_write_imm_set_src_buf(struct doca_rdma_task_write_imm *task, const struct doca_buf *src_buf)
{
	(void)task;
	(void)src_buf;
}

const struct doca_buf *doca_rdma_task_write_imm_get_src_buf(const struct doca_rdma_task_write_imm *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_write_imm_set_dst_buf(struct doca_rdma_task_write_imm *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
}

struct doca_buf *doca_rdma_task_write_imm_get_dst_buf(const struct doca_rdma_task_write_imm *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_write_imm_set_immediate_data(struct doca_rdma_task_write_imm *task, doca_be32_t immediate_data)
{
	(void)task;
	(void)immediate_data;
}

doca_be32_t doca_rdma_task_write_imm_get_immediate_data(const struct doca_rdma_task_write_imm *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_write_imm_set_rdma_connection(struct doca_rdma_task_write_imm *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_write_imm_get_rdma_connection(const struct doca_rdma_task_write_imm *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_atomic_cmp_swp_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_atomic_cmp_swp_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_atomic_cmp_swp_set_conf(struct doca_rdma *rdma, doca_rdma_task_atomic_cmp_swp_completion_cb_t successful_task_completion_cb, doca_rdma_task_atomic_cmp_swp_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_atomic_cmp_swp_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_atomic_cmp_swp_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_buf *dst_buf, struct doca_buf *result_buf, uint64_t cmp_data, uint64_t swap_data, union doca_data user_data, struct doca_rdma_task_atomic_cmp_swp **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)dst_buf;
	(void)result_buf;
	(void)cmp_data;
	(void)swap_data;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_atomic_cmp_swp_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_atomic_cmp_swp_as_task(struct doca_rdma_task_atomic_cmp_swp *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_atomic_cmp_swp_set_dst_buf(struct doca_rdma_task_atomic_cmp_swp *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
}

struct doca_buf *doca_rdma_task_atomic_cmp_swp_get_dst_buf(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_atomic_cmp_swp_set_result_buf(struct doca_rdma_task_atomic_cmp_swp *task, struct doca_buf *result_buf)
{
	(void)task;
	(void)result_buf;
}

struct doca_buf *doca_rdma_task_atomic_cmp_swp_get_result_buf(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_atomic_cmp_swp_set_cmp_data(struct doca_rdma_task_atomic_cmp_swp *task, uint64_t cmp_data)
{
	(void)task;
	(void)cmp_data;
}

uint64_t doca_rdma_task_atomic_cmp_swp_get_cmp_data(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_atomic_cmp_swp_set_swap_data(struct doca_rdma_task_atomic_cmp_swp *task, uint64_t swap_data)
{
	(void)task;
	(void)swap_data;
}

uint64_t doca_rdma_task_atomic_cmp_swp_get_swap_data(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_atomic_cmp_swp_set_rdma_connection(struct doca_rdma_task_atomic_cmp_swp *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_atomic_cmp_swp_get_rdma_connection(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_atomic_fetch_add_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_atomic_fetch_add_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_atomic_fetch_add_set_conf(struct doca_rdma *rdma, doca_rdma_task_atomic_fetch_add_completion_cb_t successful_task_completion_cb, doca_rdma_task_atomic_fetch_add_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_atomic_fetch_add_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_atomic_fetch_add_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_buf *dst_buf, struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data, struct doca_rdma_task_atomic_fetch_add **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)dst_buf;
	(void)result_buf;
	(void)add_data;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_atomic_fetch_add_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_atomic_fetch_add_as_task(struct doca_rdma_task_atomic_fetch_add *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_atomic_fetch_add_set_dst_buf(struct doca_rdma_task_atomic_fetch_add *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
}

struct doca_buf *doca_rdma_task_atomic_fetch_add_get_dst_buf(const struct doca_rdma_task_atomic_fetch_add *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_atomic_fetch_add_set_result_buf(struct doca_rdma_task_atomic_fetch_add *task, struct doca_buf *result_buf)
{
	(void)task;
	(void)result_buf;
}

struct doca_buf *doca_rdma_task_atomic_fetch_add_get_result_buf(const struct doca_rdma_task_atomic_fetch_add *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_atomic_fetch_add_set_add_data(struct doca_rdma_task_atomic_fetch_add *task, uint64_t add_data)
{
	(void)task;
	(void)add_data;
}

uint64_t doca_rdma_task_atomic_fetch_add_get_add_data(const struct doca_rdma_task_atomic_fetch_add *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_atomic_fetch_add_set_rdma_connection(struct doca_rdma_task_atomic_fetch_add *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_atomic_fetch_add_get_rdma_connection(const struct doca_rdma_task_atomic_fetch_add *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_remote_net_sync_event_get_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_remote_net_sync_event_get_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_remote_net_sync_event_get_set_conf(struct doca_rdma *rdma, doca_rdma_task_remote_net_sync_event_get_completion_cb_t successful_task_completion_cb, doca_rdma_task_remote_net_sync_event_get_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_remote_net_sync_event_get_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_remote_net_sync_event_get_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, const struct doca_sync_event_remote_net *event, struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_get **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)event;
	(void)dst_buf;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_remote_net_sync_event_get_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_remote_net_sync_event_get_as_task(struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_get_set_sync_event(struct doca_rdma_task_remote_net_sync_event_get *task, const struct doca_sync_event_remote_net *event)
{
	(void)task;
	(void)event;
}

const struct doca_sync_event_remote_net *doca_rdma_task_remote_net_sync_event_get_get_sync_event(const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_get_set_dst_buf(struct doca_rdma_task_remote_net_sync_event_get *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
}

struct doca_buf *doca_rdma_task_remote_net_sync_event_get_get_dst_buf(const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	return NULL;
}

uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_len(const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_remote_net_sync_event_get_set_rdma_connection(struct doca_rdma_task_remote_net_sync_event_get *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_remote_net_sync_event_get_get_rdma_connection(const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_set_conf(struct doca_rdma *rdma, doca_rdma_task_remote_net_sync_event_notify_set_completion_cb_t successful_task_completion_cb, doca_rdma_task_remote_net_sync_event_notify_set_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_remote_net_sync_event_notify_set_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_sync_event_remote_net *event, const struct doca_buf *src_buf, union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_notify_set **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)event;
	(void)src_buf;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_remote_net_sync_event_notify_set_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_remote_net_sync_event_notify_set_as_task(struct doca_rdma_task_remote_net_sync_event_notify_set *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_notify_set_set_sync_event(struct doca_rdma_task_remote_net_sync_event_notify_set *task, struct doca_sync_event_remote_net *event)
{
	(void)task;
	(void)event;
}

struct doca_sync_event_remote_net *doca_rdma_task_remote_net_sync_event_notify_set_get_sync_event(const struct doca_rdma_task_remote_net_sync_event_notify_set *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_notify_set_set_rdma_connection(struct doca_rdma_task_remote_net_sync_event_notify_set *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_remote_net_sync_event_notify_set_get_rdma_connection(const struct doca_rdma_task_remote_net_sync_event_notify_set *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_notify_set_set_src_buf(struct doca_rdma_task_remote_net_sync_event_notify_set *task, const struct doca_buf *src_buf)
{
	(void)task;
	(void)src_buf;
}

const struct doca_buf *doca_rdma_task_remote_net_sync_event_notify_set_get_src_buf(const struct doca_rdma_task_remote_net_sync_event_notify_set *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported(const struct doca_devinfo *devinfo)
{
	(void)devinfo;
	SDK_LOG_ERR("doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_set_conf(struct doca_rdma *rdma, doca_rdma_task_remote_net_sync_event_notify_add_completion_cb_t successful_task_completion_cb, doca_rdma_task_remote_net_sync_event_notify_add_completion_cb_t error_task_completion_cb, uint32_t num_tasks)
{
	(void)rdma;
	(void)successful_task_completion_cb;
	(void)error_task_completion_cb;
	(void)num_tasks;
	SDK_LOG_ERR("doca_rdma_task_remote_net_sync_event_notify_add_set_conf: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_sync_event_remote_net *event, struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_notify_add **task)
{
	(void)rdma;
	(void)rdma_connection;
	(void)event;
	(void)result_buf;
	(void)add_data;
	(void)user_data;
	(void)task;
	SDK_LOG_ERR("doca_rdma_task_remote_net_sync_event_notify_add_allocate_init: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

struct doca_task *doca_rdma_task_remote_net_sync_event_notify_add_as_task(struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_notify_add_set_sync_event(struct doca_rdma_task_remote_net_sync_event_notify_add *task, struct doca_sync_event_remote_net *event)
{
	(void)task;
	(void)event;
}

struct doca_sync_event_remote_net *doca_rdma_task_remote_net_sync_event_notify_add_get_sync_event(const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_notify_add_set_result_buf(struct doca_rdma_task_remote_net_sync_event_notify_add *task, struct doca_buf *result_buf)
{
	(void)task;
	(void)result_buf;
}

struct doca_buf *doca_rdma_task_remote_net_sync_event_notify_add_get_result_buf(const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	return NULL;
}

void doca_rdma_task_remote_net_sync_event_notify_add_set_add_data(struct doca_rdma_task_remote_net_sync_event_notify_add *task, uint64_t add_data)
{
	(void)task;
	(void)add_data;
}

uint64_t doca_rdma_task_remote_net_sync_event_notify_add_get_add_data(const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	return 0;
}

void doca_rdma_task_remote_net_sync_event_notify_add_set_rdma_connection(struct doca_rdma_task_remote_net_sync_event_notify_add *task, struct doca_rdma_connection *rdma_connection)
{
	(void)task;
	(void)rdma_connection;
}

const struct doca_rdma_connection *doca_rdma_task_remote_net_sync_event_notify_add_get_rdma_connection(const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	return NULL;
}

doca_error_t doca_rdma_dpa_completion_attach(struct doca_rdma *rdma, struct doca_dpa_completion *dpa_comp)
{
	(void)rdma;
	(void)dpa_comp;
	SDK_LOG_ERR("doca_rdma_dpa_completion_attach: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_get_dev_pd(const struct doca_dev *dev, struct ibv_pd **pd)
{
	(void)dev;
	(void)pd;
	SDK_LOG_ERR("doca_rdma_bridge_get_dev_pd: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_open_dev_from_pd(struct ibv_pd *pd, struct doca_dev **dev)
{
	(void)pd;
	(void)dev;
	SDK_LOG_ERR("doca_rdma_bridge_open_dev_from_pd: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_get_buf_mkey(const struct doca_buf *buf, struct doca_dev *dev, uint32_t *mkey)
{
	(void)buf;
	(void)dev;
	(void)mkey;
	SDK_LOG_ERR("doca_rdma_bridge_get_buf_mkey: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_get_mmap_mkey_from_pd(const struct doca_mmap *mmap, struct ibv_pd *pd, uint32_t *mkey)
{
	(void)mmap;
	(void)pd;
	(void)mkey;
	SDK_LOG_ERR("doca_rdma_bridge_get_mmap_mkey_from_pd: not implemented yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}
