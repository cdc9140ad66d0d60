/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The eleven RDMA task types' public functions: set_conf, allocate_init, as_task and the field
 * accessors. They only fill struct drdma_task; rdma_task.c does the work.
 */
#include "rdma_priv.h"

#define T(task) (&(task)->t)

#define SET_CONF(name, type) \
	doca_error_t doca_rdma_task_##name##_set_conf(struct doca_rdma *rdma, \
						      doca_rdma_task_##name##_completion_cb_t successful_task_completion_cb, \
						      doca_rdma_task_##name##_completion_cb_t error_task_completion_cb, \
						      uint32_t num_tasks) \
	{ \
		return drdma_task_set_conf(rdma, type, (doca_task_completion_cb_t)successful_task_completion_cb, \
					  (doca_task_completion_cb_t)error_task_completion_cb, num_tasks, \
					  "doca_rdma_task_" #name "_set_conf"); \
	}

#define AS_TASK(name) \
	struct doca_task *doca_rdma_task_##name##_as_task(struct doca_rdma_task_##name *task) \
	{ \
		return task != NULL ? &task->t.base : NULL; \
	}

#define CONN_ACCESSORS(name) \
	void doca_rdma_task_##name##_set_rdma_connection(struct doca_rdma_task_##name *task, \
							 struct doca_rdma_connection *rdma_connection) \
	{ \
		if (task != NULL) \
			task->t.conn = rdma_connection; \
	} \
	const struct doca_rdma_connection *doca_rdma_task_##name##_get_rdma_connection( \
		const struct doca_rdma_task_##name *task) \
	{ \
		return task != NULL ? task->t.conn : NULL; \
	}

#define SRC_ACCESSORS(name) \
	void doca_rdma_task_##name##_set_src_buf(struct doca_rdma_task_##name *task, const struct doca_buf *src_buf) \
	{ \
		if (task != NULL) \
			task->t.src = src_buf; \
	} \
	const struct doca_buf *doca_rdma_task_##name##_get_src_buf(const struct doca_rdma_task_##name *task) \
	{ \
		return task != NULL ? task->t.src : NULL; \
	}

#define BUF_ACCESSORS(name, field, member) \
	void doca_rdma_task_##name##_set_##field(struct doca_rdma_task_##name *task, struct doca_buf *field) \
	{ \
		if (task != NULL) \
			task->t.member = field; \
	} \
	struct doca_buf *doca_rdma_task_##name##_get_##field(const struct doca_rdma_task_##name *task) \
	{ \
		return task != NULL ? task->t.member : NULL; \
	}

#define VALUE_ACCESSORS(name, field, member, ctype) \
	void doca_rdma_task_##name##_set_##field(struct doca_rdma_task_##name *task, ctype field) \
	{ \
		if (task != NULL) \
			task->t.member = field; \
	} \
	ctype doca_rdma_task_##name##_get_##field(const struct doca_rdma_task_##name *task) \
	{ \
		return task != NULL ? (ctype)task->t.member : (ctype)0; \
	}

#define EVENT_ACCESSORS(name, qual) \
	void doca_rdma_task_##name##_set_sync_event(struct doca_rdma_task_##name *task, \
						    qual struct doca_sync_event_remote_net *event) \
	{ \
		if (task != NULL) \
			task->t.event = (struct doca_sync_event_remote_net *)(uintptr_t)event; \
	} \
	qual struct doca_sync_event_remote_net *doca_rdma_task_##name##_get_sync_event( \
		const struct doca_rdma_task_##name *task) \
	{ \
		return task != NULL ? task->t.event : NULL; \
	}

#define ALLOC(name, type, conn) \
	struct drdma_task *t; \
	doca_error_t err = drdma_task_alloc(rdma, type, conn, user_data, "doca_rdma_task_" #name "_allocate_init", &t); \
	if (err != DOCA_SUCCESS) \
		return err; \
	*task = (struct doca_rdma_task_##name *)(void *)t

/*
 * Bytes a finished task moved; 0 after a failure, including a flush at stop or a failed
 * resubmission, which reach the task without a completion that would clear it.
 */
static uint32_t result_len(const struct drdma_task *t)
{
	return t->base.status == DOCA_SUCCESS ? (uint32_t)t->done_len : 0;
}

/* ---- receive ---- */

SET_CONF(receive, DRDMA_TASK_RECEIVE)
AS_TASK(receive)
BUF_ACCESSORS(receive, dst_buf, dst)

doca_error_t doca_rdma_task_receive_allocate_init(struct doca_rdma *rdma, struct doca_buf *dst_buf,
						  union doca_data user_data, struct doca_rdma_task_receive **task)
{
	ALLOC(receive, DRDMA_TASK_RECEIVE, NULL);
	t->dst = dst_buf;
	return DOCA_SUCCESS;
}

enum doca_rdma_opcode doca_rdma_task_receive_get_result_opcode(const struct doca_rdma_task_receive *task)
{
	return task != NULL ? task->t.result_opcode : DOCA_RDMA_OPCODE_RECV_SEND;
}

uint32_t doca_rdma_task_receive_get_result_len(const struct doca_rdma_task_receive *task)
{
	return task != NULL ? result_len(&task->t) : 0;
}

doca_be32_t doca_rdma_task_receive_get_result_immediate_data(const struct doca_rdma_task_receive *task)
{
	return task != NULL ? task->t.result_imm : 0;
}

const struct doca_rdma_connection *doca_rdma_task_receive_get_result_rdma_connection(
	const struct doca_rdma_task_receive *task)
{
	return task != NULL ? task->t.result_conn : NULL;
}

/* ---- send ---- */

SET_CONF(send, DRDMA_TASK_SEND)
AS_TASK(send)
SRC_ACCESSORS(send)
CONN_ACCESSORS(send)

doca_error_t doca_rdma_task_send_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
					       const struct doca_buf *src_buf, union doca_data user_data,
					       struct doca_rdma_task_send **task)
{
	ALLOC(send, DRDMA_TASK_SEND, rdma_connection);
	t->src = src_buf;
	return DOCA_SUCCESS;
}

/* ---- send with immediate ---- */

SET_CONF(send_imm, DRDMA_TASK_SEND_IMM)
AS_TASK(send_imm)
SRC_ACCESSORS(send_imm)
CONN_ACCESSORS(send_imm)
VALUE_ACCESSORS(send_imm, immediate_data, imm, doca_be32_t)

doca_error_t doca_rdma_task_send_imm_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
						   const struct doca_buf *src_buf, doca_be32_t immediate_data,
						   union doca_data user_data, struct doca_rdma_task_send_imm **task)
{
	ALLOC(send_imm, DRDMA_TASK_SEND_IMM, rdma_connection);
	t->src = src_buf;
	t->imm = immediate_data;
	return DOCA_SUCCESS;
}

/* ---- read ---- */

SET_CONF(read, DRDMA_TASK_READ)
AS_TASK(read)
SRC_ACCESSORS(read)
BUF_ACCESSORS(read, dst_buf, dst)
CONN_ACCESSORS(read)

doca_error_t doca_rdma_task_read_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
					       const struct doca_buf *src_buf, struct doca_buf *dst_buf,
					       union doca_data user_data, struct doca_rdma_task_read **task)
{
	ALLOC(read, DRDMA_TASK_READ, rdma_connection);
	t->src = src_buf;
	t->dst = dst_buf;
	return DOCA_SUCCESS;
}

uint32_t doca_rdma_task_read_get_result_len(const struct doca_rdma_task_read *task)
{
	return task != NULL ? result_len(&task->t) : 0;
}

/* ---- write ---- */

SET_CONF(write, DRDMA_TASK_WRITE)
AS_TASK(write)
SRC_ACCESSORS(write)
BUF_ACCESSORS(write, dst_buf, dst)
CONN_ACCESSORS(write)

doca_error_t doca_rdma_task_write_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
						const struct doca_buf *src_buf, struct doca_buf *dst_buf,
						union doca_data user_data, struct doca_rdma_task_write **task)
{
	ALLOC(write, DRDMA_TASK_WRITE, rdma_connection);
	t->src = src_buf;
	t->dst = dst_buf;
	return DOCA_SUCCESS;
}

/* ---- write with immediate ---- */

SET_CONF(write_imm, DRDMA_TASK_WRITE_IMM)
AS_TASK(write_imm)
SRC_ACCESSORS(write_imm)
BUF_ACCESSORS(write_imm, dst_buf, dst)
CONN_ACCESSORS(write_imm)
VALUE_ACCESSORS(write_imm, immediate_data, imm, doca_be32_t)

doca_error_t doca_rdma_task_write_imm_allocate_init(struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
						    const struct doca_buf *src_buf, struct doca_buf *dst_buf,
						    doca_be32_t immediate_data, union doca_data user_data,
						    struct doca_rdma_task_write_imm **task)
{
	ALLOC(write_imm, DRDMA_TASK_WRITE_IMM, rdma_connection);
	t->src = src_buf;
	t->dst = dst_buf;
	t->imm = immediate_data;
	return DOCA_SUCCESS;
}

/* ---- atomic compare and swap ---- */

SET_CONF(atomic_cmp_swp, DRDMA_TASK_CMP_SWP)
AS_TASK(atomic_cmp_swp)
BUF_ACCESSORS(atomic_cmp_swp, dst_buf, dst)
BUF_ACCESSORS(atomic_cmp_swp, result_buf, result)
VALUE_ACCESSORS(atomic_cmp_swp, cmp_data, arg0, uint64_t)
VALUE_ACCESSORS(atomic_cmp_swp, swap_data, arg1, uint64_t)
CONN_ACCESSORS(atomic_cmp_swp)

doca_error_t doca_rdma_task_atomic_cmp_swp_allocate_init(struct doca_rdma *rdma,
							 struct doca_rdma_connection *rdma_connection,
							 struct doca_buf *dst_buf, struct doca_buf *result_buf,
							 uint64_t cmp_data, uint64_t swap_data, union doca_data user_data,
							 struct doca_rdma_task_atomic_cmp_swp **task)
{
	ALLOC(atomic_cmp_swp, DRDMA_TASK_CMP_SWP, rdma_connection);
	t->dst = dst_buf;
	t->result = result_buf;
	t->arg0 = cmp_data;
	t->arg1 = swap_data;
	return DOCA_SUCCESS;
}

/* ---- atomic fetch and add ---- */

SET_CONF(atomic_fetch_add, DRDMA_TASK_FETCH_ADD)
AS_TASK(atomic_fetch_add)
BUF_ACCESSORS(atomic_fetch_add, dst_buf, dst)
BUF_ACCESSORS(atomic_fetch_add, result_buf, result)
VALUE_ACCESSORS(atomic_fetch_add, add_data, arg0, uint64_t)
CONN_ACCESSORS(atomic_fetch_add)

doca_error_t doca_rdma_task_atomic_fetch_add_allocate_init(struct doca_rdma *rdma,
							   struct doca_rdma_connection *rdma_connection,
							   struct doca_buf *dst_buf, struct doca_buf *result_buf,
							   uint64_t add_data, union doca_data user_data,
							   struct doca_rdma_task_atomic_fetch_add **task)
{
	ALLOC(atomic_fetch_add, DRDMA_TASK_FETCH_ADD, rdma_connection);
	t->dst = dst_buf;
	t->result = result_buf;
	t->arg0 = add_data;
	return DOCA_SUCCESS;
}

/* ---- remote net sync event get ---- */

SET_CONF(remote_net_sync_event_get, DRDMA_TASK_SE_GET)
AS_TASK(remote_net_sync_event_get)
EVENT_ACCESSORS(remote_net_sync_event_get, const)
BUF_ACCESSORS(remote_net_sync_event_get, dst_buf, dst)
CONN_ACCESSORS(remote_net_sync_event_get)

doca_error_t doca_rdma_task_remote_net_sync_event_get_allocate_init(
	struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection,
	const struct doca_sync_event_remote_net *event, struct doca_buf *dst_buf, union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_get **task)
{
	ALLOC(remote_net_sync_event_get, DRDMA_TASK_SE_GET, rdma_connection);
	t->event = (struct doca_sync_event_remote_net *)(uintptr_t)event;
	t->dst = dst_buf;
	return DOCA_SUCCESS;
}

uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_len(const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	return task != NULL ? result_len(&task->t) : 0;
}

/* ---- remote net sync event notify set ---- */

SET_CONF(remote_net_sync_event_notify_set, DRDMA_TASK_SE_SET)
AS_TASK(remote_net_sync_event_notify_set)
EVENT_ACCESSORS(remote_net_sync_event_notify_set, )
SRC_ACCESSORS(remote_net_sync_event_notify_set)
CONN_ACCESSORS(remote_net_sync_event_notify_set)

doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
	struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_sync_event_remote_net *event,
	const struct doca_buf *src_buf, union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_notify_set **task)
{
	ALLOC(remote_net_sync_event_notify_set, DRDMA_TASK_SE_SET, rdma_connection);
	t->event = event;
	t->src = src_buf;
	return DOCA_SUCCESS;
}

/* ---- remote net sync event notify add ---- */

SET_CONF(remote_net_sync_event_notify_add, DRDMA_TASK_SE_ADD)
AS_TASK(remote_net_sync_event_notify_add)
EVENT_ACCESSORS(remote_net_sync_event_notify_add, )
BUF_ACCESSORS(remote_net_sync_event_notify_add, result_buf, result)
VALUE_ACCESSORS(remote_net_sync_event_notify_add, add_data, arg0, uint64_t)
CONN_ACCESSORS(remote_net_sync_event_notify_add)

doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
	struct doca_rdma *rdma, struct doca_rdma_connection *rdma_connection, struct doca_sync_event_remote_net *event,
	struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
	struct doca_rdma_task_remote_net_sync_event_notify_add **task)
{
	ALLOC(remote_net_sync_event_notify_add, DRDMA_TASK_SE_ADD, rdma_connection);
	t->event = event;
	t->result = result_buf;
	t->arg0 = add_data;
	return DOCA_SUCCESS;
}
