/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma tasks: what every task type shares. Configuration and allocation, the checks a
 * submission makes (doca_task_try_submit refuses the same tasks up front), the translation into
 * a work request posted on the connection's qp (receives: on the endpoint's shared receive
 * queue), and the completion: destination buffers get the bytes appended after their data
 * segment, as every DOCA task that writes into a local buffer does.
 *
 * Errors a submission reports at once (the caller keeps the task): a bad buffer, a list over its
 * limit, a missing local permission, an unaligned atomic, a connection that was never connected.
 * Errors reported through the error callback: a connection that failed or was disconnected
 * (NOT_CONNECTED), and everything the NIC or the remote side reports in a completion.
 */
#include <string.h>

#include "doca_buf.h"
#include "rdma_priv.h"
#include "common/priv/buf_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"
#include "common/priv/sync_event_priv.h"

SDK_LOG_REGISTER(RDMA_TASK);

struct task_kind {
	const char *name;
	const char *set_conf;
	uint32_t cap_bit;
	enum softhw_rnic_opcode op;
};

static const struct task_kind kinds[DRDMA_NUM_TASK_TYPES] = {
	[DRDMA_TASK_RECEIVE] = {"receive", "doca_rdma_task_receive_set_conf", SOFTHW_RDMA_TASK_RECEIVE, SOFTHW_RNIC_OP_RECV},
	[DRDMA_TASK_SEND] = {"send", "doca_rdma_task_send_set_conf", SOFTHW_RDMA_TASK_SEND, SOFTHW_RNIC_OP_SEND},
	[DRDMA_TASK_SEND_IMM] = {"send_imm", "doca_rdma_task_send_imm_set_conf", SOFTHW_RDMA_TASK_SEND_IMM,
				SOFTHW_RNIC_OP_SEND_IMM},
	[DRDMA_TASK_READ] = {"read", "doca_rdma_task_read_set_conf", SOFTHW_RDMA_TASK_READ, SOFTHW_RNIC_OP_READ},
	[DRDMA_TASK_WRITE] = {"write", "doca_rdma_task_write_set_conf", SOFTHW_RDMA_TASK_WRITE, SOFTHW_RNIC_OP_WRITE},
	[DRDMA_TASK_WRITE_IMM] = {"write_imm", "doca_rdma_task_write_imm_set_conf", SOFTHW_RDMA_TASK_WRITE_IMM,
				 SOFTHW_RNIC_OP_WRITE_IMM},
	[DRDMA_TASK_CMP_SWP] = {"atomic_cmp_swp", "doca_rdma_task_atomic_cmp_swp_set_conf",
			       SOFTHW_RDMA_TASK_ATOMIC_CMP_SWP, SOFTHW_RNIC_OP_CMP_SWP},
	[DRDMA_TASK_FETCH_ADD] = {"atomic_fetch_add", "doca_rdma_task_atomic_fetch_add_set_conf",
				 SOFTHW_RDMA_TASK_ATOMIC_FETCH_ADD, SOFTHW_RNIC_OP_FETCH_ADD},
	[DRDMA_TASK_SE_GET] = {"remote_net_sync_event_get", "doca_rdma_task_remote_net_sync_event_get_set_conf",
			      SOFTHW_RDMA_TASK_SE_GET, SOFTHW_RNIC_OP_SE_GET},
	[DRDMA_TASK_SE_SET] = {"remote_net_sync_event_notify_set",
			      "doca_rdma_task_remote_net_sync_event_notify_set_set_conf", SOFTHW_RDMA_TASK_SE_NOTIFY_SET,
			      SOFTHW_RNIC_OP_SE_SET},
	[DRDMA_TASK_SE_ADD] = {"remote_net_sync_event_notify_add",
			      "doca_rdma_task_remote_net_sync_event_notify_add_set_conf", SOFTHW_RDMA_TASK_SE_NOTIFY_ADD,
			      SOFTHW_RNIC_OP_SE_ADD},
};

static enum drdma_task_type type_of(const struct drdma_task *t)
{
	return (enum drdma_task_type)t->type;
}

/* ---- configuration and allocation ---- */

doca_error_t drdma_task_cap(const struct doca_devinfo *devinfo, enum drdma_task_type type)
{
	const struct softhw_caps *caps;

	if (devinfo == NULL) {
		SDK_LOG_ERR("doca_rdma_cap_task_%s_is_supported: devinfo is NULL", kinds[type].name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	caps = softdoca_devinfo_caps(devinfo);
	return caps->rdma && (caps->rdma_tasks & kinds[type].cap_bit) ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t drdma_task_set_conf(struct doca_rdma *rdma, enum drdma_task_type type, doca_task_completion_cb_t ok_cb,
				doca_task_completion_cb_t err_cb, uint32_t num_tasks, const char *call)
{
	doca_error_t err;

	if (rdma == NULL || ok_cb == NULL || err_cb == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call,
			    rdma == NULL ? "rdma" : ok_cb == NULL ? "the completion callback" : "the error callback");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (drdma_not_idle(rdma, call))
		return DOCA_ERROR_BAD_STATE;
	if (!(rdma->caps->rdma_tasks & kinds[type].cap_bit)) {
		SDK_LOG_ERR("%s: the device does not support RDMA %s tasks (doca_rdma_cap_task_%s_is_supported())",
			    call, kinds[type].name, kinds[type].name);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (num_tasks == 0 || num_tasks > rdma->caps->rdma_max_num_tasks) {
		SDK_LOG_ERR("%s: %u tasks requested; the device allows 1 to %u", call, num_tasks,
			    rdma->caps->rdma_max_num_tasks);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_ctx_tasks_configured(&rdma->ctx, type) && rdma->ctx.pools[type].allocated) {
		SDK_LOG_ERR("%s: tasks of the previous configuration are still allocated; free them with "
			    "doca_task_free() first",
			    call);
		return DOCA_ERROR_IN_USE;
	}
	err = softdoca_ctx_conf_tasks(&rdma->ctx, type, kinds[type].name, sizeof(struct drdma_task), ok_cb, err_cb,
				      num_tasks);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("%s: out of memory for %u tasks", call, num_tasks);
	return err;
}

doca_error_t drdma_task_alloc(struct doca_rdma *rdma, enum drdma_task_type type, struct doca_rdma_connection *conn,
			     union doca_data user_data, const char *call, struct drdma_task **task)
{
	struct drdma_task *t;

	if (rdma == NULL || task == NULL) {
		SDK_LOG_ERR("%s: %s is NULL", call, rdma == NULL ? "rdma" : "task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (type != DRDMA_TASK_RECEIVE && conn == NULL) {
		SDK_LOG_ERR("%s: rdma_connection is NULL; pass the connection from doca_rdma_export() or the "
			    "connection callbacks",
			    call);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_ctx_tasks_configured(&rdma->ctx, type)) {
		SDK_LOG_ERR("%s: RDMA %s tasks are not configured; call %s() before doca_ctx_start()", call,
			    kinds[type].name, kinds[type].set_conf);
		return DOCA_ERROR_BAD_STATE;
	}
	t = (struct drdma_task *)softdoca_task_alloc(&rdma->ctx, type, user_data);
	if (t == NULL) {
		SDK_LOG_DBG("%s: all %u tasks are in use; free tasks with doca_task_free() or configure more with "
			    "%s()",
			    call, rdma->ctx.pools[type].capacity, kinds[type].set_conf);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset((char *)t + sizeof(t->base), 0, sizeof(*t) - sizeof(t->base));
	t->conn = conn;
	t->type = (uint8_t)type;
	*task = t;
	return DOCA_SUCCESS;
}

/* ---- checks ---- */

static size_t room_from_data(const struct doca_buf *b)
{
	return (size_t)((const char *)b->head + b->len - (const char *)b->data);
}

/*
 * A local buffer list: no longer than `limit` (set with `setter`, device cap `cap`), local memory,
 * writable when the task writes into it. *bytes gets the data (sources) or the room after the
 * data (destinations).
 */
static doca_error_t check_local(const struct drdma_task *t, const struct doca_buf *head, const char *what, bool writes,
				uint32_t limit, const char *setter, uint32_t cap, uint64_t *bytes)
{
	const char *task = kinds[type_of(t)].name;
	uint32_t n = 0;

	*bytes = 0;
	for (const struct doca_buf *b = head; b != NULL; b = b->next) {
		if (++n > limit) {
			SDK_LOG_ERR("RDMA %s task: the %s list has %u buffers, more than the %u allowed; raise the limit "
				    "with %s() (the device allows up to %u) or chain fewer buffers",
				    task, what, head->list_head->list_len, limit, setter, cap);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (b->mmap->from_export) {
			SDK_LOG_ERR("RDMA %s task: the %s buffer is in an mmap imported from an export; it must be "
				    "local memory (an mmap of this process started with doca_mmap_start())",
				    task, what);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (writes && !softdoca_mmap_local_writable(b->mmap)) {
			SDK_LOG_ERR("RDMA %s task: the %s buffer's mmap is not writable; give it "
				    "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE with doca_mmap_set_permissions()",
				    task, what);
			return DOCA_ERROR_NOT_PERMITTED;
		}
		*bytes += writes ? softdoca_buf_tailroom(b) : b->data_len;
	}
	return DOCA_SUCCESS;
}

/* One buffer with 8 bytes of room after its data: an atomic's or a sync-event get's result. */
static doca_error_t check_result8(const struct drdma_task *t, const struct doca_buf *b, const char *what)
{
	const char *task = kinds[type_of(t)].name;
	uint64_t room;
	doca_error_t err;

	if (b == NULL) {
		SDK_LOG_ERR("RDMA %s task has no %s buffer; set one with 8 bytes of room", task, what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (b->next != NULL) {
		SDK_LOG_ERR("RDMA %s task: the %s buffer is a list; use a single buffer", task, what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = check_local(t, b, what, true, 1, "", 1, &room);
	if (err != DOCA_SUCCESS)
		return err;
	if (room < 8) {
		SDK_LOG_ERR("RDMA %s task: the %s buffer has %lu bytes of room after its data, 8 are needed; use a "
			    "larger buffer or reset its data length with doca_buf_reset_data_len()",
			    task, what, (unsigned long)room);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Remote memory: a single buffer of an mmap imported from an RDMA export, still exported. */
static doca_error_t check_remote(const struct drdma_task *t, const struct doca_buf *b, const char *what)
{
	const char *task = kinds[type_of(t)].name;

	if (b == NULL) {
		SDK_LOG_ERR("RDMA %s task has no %s buffer", task, what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!b->mmap->from_export || b->mmap->export_kind_pci) {
		SDK_LOG_ERR("RDMA %s task: the %s buffer must be remote memory: a buffer of an mmap created with "
			    "doca_mmap_create_from_export() from the peer's doca_mmap_export_rdma() descriptor%s",
			    task, what, b->mmap->from_export ? " (this one came from doca_mmap_export_pci())" : "");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (b->next != NULL) {
		SDK_LOG_ERR("RDMA %s task: the %s buffer is a list; remote memory is one contiguous buffer", task,
			    what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_mmap_import_live(b->mmap)) {
		SDK_LOG_ERR("RDMA %s task: the %s buffer's memory is no longer exported (its exporter stopped the "
			    "mmap); import a new descriptor",
			    task, what);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t check_atomic_target(const struct drdma_task *t)
{
	const char *task = kinds[type_of(t)].name;
	doca_error_t err = check_remote(t, t->dst, "destination");

	if (err != DOCA_SUCCESS)
		return err;
	if (((uintptr_t)t->dst->data & 7) != 0) {
		SDK_LOG_ERR("RDMA %s task: the remote address 0x%lx is not 8-byte aligned; atomics need an 8-byte "
			    "aligned remote data address",
			    task, (unsigned long)(uintptr_t)t->dst->data);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (room_from_data(t->dst) < 8) {
		SDK_LOG_ERR("RDMA %s task: the remote buffer holds fewer than 8 bytes from its data address", task);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return check_result8(t, t->result, "result");
}

static doca_error_t check_event(const struct drdma_task *t)
{
	if (t->event == NULL) {
		SDK_LOG_ERR("RDMA %s task has no remote sync event; create it with "
			    "doca_sync_event_remote_net_create_from_export()",
			    kinds[type_of(t)].name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t check_size(const struct drdma_task *t, const struct doca_rdma *rdma, uint64_t len)
{
	if (len <= rdma->caps->rdma_max_message_size)
		return DOCA_SUCCESS;
	SDK_LOG_ERR("RDMA %s task: %lu bytes is more than the device's maximum message of %u bytes (see "
		    "doca_rdma_cap_get_max_message_size()); split the transfer",
		    kinds[type_of(t)].name, (unsigned long)len, rdma->caps->rdma_max_message_size);
	return DOCA_ERROR_INVALID_VALUE;
}

/*
 * The checks below for the common case, one buffer per side, in straight line: true only when
 * every one of them passes (then check_task would return DOCA_SUCCESS). Anything else, a refusal
 * included, goes through check_task's own path, which finds the same answer and logs why. A
 * submit pays this instead of the general walk (a third of the instructions before the store of
 * a same-host write).
 */
static bool local_ok(const struct doca_buf *b, bool writes)
{
	return b->next == NULL && !b->mmap->from_export && (!writes || softdoca_mmap_local_writable(b->mmap));
}

static bool remote_ok(const struct doca_buf *b)
{
	return b != NULL && b->next == NULL && b->mmap->from_export && !b->mmap->export_kind_pci &&
	       softdoca_mmap_import_live(b->mmap);
}

static bool quick_ok(const struct drdma_task *t, const struct doca_rdma *rdma)
{
	const uint64_t max = rdma->caps->rdma_max_message_size;
	const struct doca_buf *src = t->src, *dst = t->dst;

	/* (max_send_buf_list_len and the receive's dst_buf_list_len are at least 1: their setters
	 * refuse 0, so one buffer is in the limit) */
	if (type_of(t) == DRDMA_TASK_RECEIVE) /* (names no connection) */
		return dst == NULL || local_ok(dst, true);
	if (t->conn == NULL || !drdma_conn_belongs(rdma, t->conn))
		return false;
	switch (type_of(t)) {
	case DRDMA_TASK_WRITE:
	case DRDMA_TASK_WRITE_IMM:
		return src != NULL && local_ok(src, false) && remote_ok(dst) && src->data_len <= max &&
		       src->data_len <= softdoca_buf_tailroom(dst);
	case DRDMA_TASK_READ:
		return remote_ok(src) && dst != NULL && local_ok(dst, true) && src->data_len <= max &&
		       src->data_len <= softdoca_buf_tailroom(dst);
	case DRDMA_TASK_CMP_SWP:
	case DRDMA_TASK_FETCH_ADD:
		return remote_ok(dst) && ((uintptr_t)dst->data & 7) == 0 && room_from_data(dst) >= 8 &&
		       t->result != NULL && local_ok(t->result, true) && softdoca_buf_tailroom(t->result) >= 8;
	case DRDMA_TASK_SEND:
	case DRDMA_TASK_SEND_IMM:
		return src == NULL || (local_ok(src, false) && src->data_len <= max);
	default:
		return false;
	}
}

/* Every check, with the log line that names the fix. */
static doca_error_t __attribute__((noinline)) check_task_all(struct drdma_task *t)
{
	struct doca_rdma *rdma = drdma_of(t->base.ctx);
	enum drdma_task_type type = type_of(t);
	const char *task = kinds[type].name;
	uint32_t slen = rdma->max_send_buf_list_len, scap = rdma->caps->rdma_max_send_buf_list_len;
	const char *sset = "doca_rdma_set_max_send_buf_list_len";
	uint64_t bytes = 0, room = 0;
	doca_error_t err;

	if (type != DRDMA_TASK_RECEIVE && (t->conn == NULL || !drdma_conn_belongs(rdma, t->conn))) {
		SDK_LOG_ERR("RDMA %s task: %s; use a connection of this context from this run (export/connect again "
			    "after a stop/start)",
			    task, t->conn == NULL ? "no connection" : "the connection is not one of this context's");
		return DOCA_ERROR_INVALID_VALUE;
	}
	switch (type) {
	case DRDMA_TASK_RECEIVE:
		if (t->dst == NULL)
			return DOCA_SUCCESS; /* empty messages (or immediates) only */
		return check_local(t, t->dst, "destination", true, rdma->recv_buf_list_len,
				   "doca_rdma_task_receive_set_dst_buf_list_len", rdma->caps->rdma_max_recv_buf_list_len,
				   &room);
	case DRDMA_TASK_SEND:
	case DRDMA_TASK_SEND_IMM:
		if (t->src == NULL)
			return DOCA_SUCCESS;
		err = check_local(t, t->src, "source", false, slen, sset, scap, &bytes);
		return err != DOCA_SUCCESS ? err : check_size(t, rdma, bytes);
	case DRDMA_TASK_READ:
		err = check_remote(t, t->src, "source");
		if (err == DOCA_SUCCESS && t->dst == NULL) {
			SDK_LOG_ERR("RDMA read task has no destination buffer; set one with "
				    "doca_rdma_task_read_set_dst_buf()");
			err = DOCA_ERROR_INVALID_VALUE;
		}
		if (err == DOCA_SUCCESS)
			err = check_local(t, t->dst, "destination", true, slen, sset, scap, &room);
		if (err == DOCA_SUCCESS)
			err = check_size(t, rdma, t->src->data_len);
		if (err == DOCA_SUCCESS && t->src->data_len > room) {
			SDK_LOG_ERR("RDMA read task: the destination has room for %lu bytes after its data, the remote "
				    "source holds %zu; use a larger destination or reset its data length with "
				    "doca_buf_reset_data_len()",
				    (unsigned long)room, t->src->data_len);
			err = DOCA_ERROR_INVALID_VALUE;
		}
		return err;
	case DRDMA_TASK_WRITE:
	case DRDMA_TASK_WRITE_IMM:
		if (t->src == NULL) {
			SDK_LOG_ERR("RDMA %s task has no source buffer; set one with doca_rdma_task_%s_set_src_buf()",
				    task, task);
			return DOCA_ERROR_INVALID_VALUE;
		}
		err = check_local(t, t->src, "source", false, slen, sset, scap, &bytes);
		if (err == DOCA_SUCCESS)
			err = check_remote(t, t->dst, "destination");
		if (err == DOCA_SUCCESS)
			err = check_size(t, rdma, bytes);
		if (err == DOCA_SUCCESS && bytes > softdoca_buf_tailroom(t->dst)) {
			SDK_LOG_ERR("RDMA %s task: the remote destination has room for %zu bytes after its data, the "
				    "source holds %lu",
				    task, softdoca_buf_tailroom(t->dst), (unsigned long)bytes);
			err = DOCA_ERROR_INVALID_VALUE;
		}
		return err;
	case DRDMA_TASK_CMP_SWP:
	case DRDMA_TASK_FETCH_ADD:
		return check_atomic_target(t);
	case DRDMA_TASK_SE_GET:
		err = check_event(t);
		return err != DOCA_SUCCESS ? err : check_result8(t, t->dst, "destination");
	case DRDMA_TASK_SE_SET:
		err = check_event(t);
		if (err != DOCA_SUCCESS)
			return err;
		if (t->src == NULL) {
			SDK_LOG_ERR("RDMA %s task has no source buffer; it holds the 64-bit value to set", task);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (t->src->next != NULL) {
			SDK_LOG_ERR("RDMA %s task: the source buffer is a list; use a single buffer", task);
			return DOCA_ERROR_INVALID_VALUE;
		}
		err = check_local(t, t->src, "source", false, 1, "", 1, &bytes);
		if (err == DOCA_SUCCESS && bytes < 8) {
			SDK_LOG_ERR("RDMA %s task: the source holds %lu bytes of data; it must hold the 64-bit value "
				    "(8 bytes)",
				    task, (unsigned long)bytes);
			err = DOCA_ERROR_INVALID_VALUE;
		}
		return err;
	case DRDMA_TASK_SE_ADD:
		err = check_event(t);
		return err != DOCA_SUCCESS ? err : check_result8(t, t->result, "result");
	case DRDMA_NUM_TASK_TYPES:
		break;
	}
	return DOCA_ERROR_INVALID_VALUE;
}

static doca_error_t check_task(struct drdma_task *t)
{
	return quick_ok(t, drdma_of(t->base.ctx)) ? DOCA_SUCCESS : check_task_all(t);
}

doca_error_t drdma_task_check(struct doca_task *task)
{
	struct doca_rdma *rdma = drdma_of(task->ctx);

	if (rdma->ctx.dpa != NULL) {
		SDK_LOG_ERR("Failed to submit RDMA task: the context's datapath is on a DPA "
			    "(doca_ctx_set_datapath_on_dpa); post from device code with doca_dpa_dev_rdma_post_*()");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return check_task((struct drdma_task *)task);
}

/* ---- submission ---- */

static uint32_t sgl_of(const struct doca_buf *head, bool tail, struct softhw_rnic_sge *sgl)
{
	uint32_t n = 0;

	for (const struct doca_buf *b = head; b != NULL && n < DRDMA_MAX_SGE; b = b->next) {
		if (tail)
			sgl[n++] = (struct softhw_rnic_sge){.addr = (char *)b->data + b->data_len,
							    .len = softdoca_buf_tailroom(b)};
		else
			sgl[n++] = (struct softhw_rnic_sge){.addr = b->data, .len = b->data_len};
	}
	return n;
}

static struct softhw_rnic_rkey rkey_of(const struct doca_buf *b, uint64_t addr, uint64_t len)
{
	const struct doca_mmap *m = b->mmap;

	return (struct softhw_rnic_rkey){
		.pid = m->exporter_pid, .id = m->export_id, .token = m->export_token, .addr = addr, .len = len};
}

static struct softhw_rnic_rkey rkey_of_event(const struct doca_sync_event_remote_net *ev)
{
	return (struct softhw_rnic_rkey){
		.pid = ev->exporter_pid, .id = ev->value_id, .token = ev->token, .addr = ev->value_addr, .len = 8};
}

static void fail_later(struct drdma_task *t, doca_error_t status)
{
	t->base.work.op = SOFTHW_OP_FAIL;
	t->base.work.status = status;
}

static const char *conn_state_name(enum drdma_conn_state s)
{
	switch (s) {
	case DRDMA_CONN_EXPORTED:
		return "exported but not connected";
	case DRDMA_CONN_CONNECTING:
		return "connecting";
	case DRDMA_CONN_REQUESTED:
		return "a pending request";
	case DRDMA_CONN_ACCEPTED:
		return "accepted";
	case DRDMA_CONN_ESTABLISHED:
		return "established";
	case DRDMA_CONN_FAILED:
		return "failed";
	case DRDMA_CONN_DISCONNECTED:
		return "disconnected";
	}
	return "unknown";
}

doca_error_t drdma_task_prepare(struct doca_task *task)
{
	struct drdma_task *t = (struct drdma_task *)task;
	struct doca_rdma *rdma = drdma_of(task->ctx);
	const struct softhw_rnic_ops *nic = drdma_nic(rdma);
	enum drdma_task_type type = type_of(t);
	struct softhw_rnic_sge sgl[DRDMA_MAX_SGE];
	struct softhw_rnic_wr wr;
	bool done = false;
	doca_error_t err = check_task(t);

	if (err != DOCA_SUCCESS)
		return err; /* nothing posted; the caller still owns the task */
	task->work.op = SOFTHW_OP_PARKED; /* until its completion is polled: drdma_task_cqe */
	/* field by field: an aggregate initializer becomes a rep stos, a fifth of a small write */
	_Static_assert(sizeof(wr) == 104, "struct softhw_rnic_wr changed: set its new fields here");
	wr.wr_id = (uint64_t)(uintptr_t)t;
	wr.op = kinds[type].op;
	wr.sgl = sgl;
	wr.num_sge = 0;
	wr.rkey.pid = 0;
	wr.rkey.id = wr.rkey.token = wr.rkey.addr = wr.rkey.len = 0;
	wr.imm = 0;
	wr.arg0 = wr.arg1 = 0;
	wr.done_at_post = NULL;
	wr.refuse_in_error = false; /* a failed connection completes it flushed, behind the failure */
	if (type == DRDMA_TASK_RECEIVE) {
		err = nic->ep_post_recv(rdma->ep, wr.wr_id, sgl, t->dst != NULL ? sgl_of(t->dst, true, sgl) : 0);
		if (err != DOCA_SUCCESS)
			SDK_LOG_ERR("RDMA receive task: the NIC refused the receive: %s; post fewer receives at once",
				    doca_error_get_descr(err));
		return err;
	}
	switch (t->conn->state) {
	case DRDMA_CONN_EXPORTED:
	case DRDMA_CONN_REQUESTED:
		SDK_LOG_ERR("RDMA %s task on connection %u, which is %s; %s first", kinds[type].name, t->conn->id,
			    conn_state_name(t->conn->state),
			    t->conn->state == DRDMA_CONN_EXPORTED ? "call doca_rdma_connect() with the peer's descriptor"
								 : "accept it with doca_rdma_connection_accept()");
		return DOCA_ERROR_NOT_CONNECTED;
	case DRDMA_CONN_FAILED:
	case DRDMA_CONN_DISCONNECTED:
		SDK_LOG_ERR("RDMA %s task on connection %u, which is %s: the task fails with NOT_CONNECTED; "
			    "reconnect (export/connect or connect_to_addr again) and watch the connection state "
			    "callbacks",
			    kinds[type].name, t->conn->id, conn_state_name(t->conn->state));
		fail_later(t, DOCA_ERROR_NOT_CONNECTED);
		return DOCA_SUCCESS;
	default:
		break;
	}
	switch (type) {
	case DRDMA_TASK_SEND_IMM:
	case DRDMA_TASK_SEND:
		wr.num_sge = t->src != NULL ? sgl_of(t->src, false, sgl) : 0;
		wr.imm = t->imm;
		break;
	case DRDMA_TASK_READ: {
		uint64_t want = t->src->data_len;

		/* Exactly the remote data: the scatter list stops where it ends. */
		wr.num_sge = sgl_of(t->dst, true, sgl);
		for (uint32_t i = 0; i < wr.num_sge; i++) {
			if (sgl[i].len >= want) {
				sgl[i].len = want;
				wr.num_sge = i + 1;
				break;
			}
			want -= sgl[i].len;
		}
		wr.rkey = rkey_of(t->src, (uint64_t)(uintptr_t)t->src->data, t->src->data_len);
		t->done_len = t->src->data_len;
		break;
	}
	case DRDMA_TASK_WRITE:
	case DRDMA_TASK_WRITE_IMM: {
		uint64_t total = 0;

		wr.num_sge = sgl_of(t->src, false, sgl);
		for (uint32_t i = 0; i < wr.num_sge; i++)
			total += sgl[i].len;
		wr.rkey = rkey_of(t->dst, (uint64_t)(uintptr_t)((char *)t->dst->data + t->dst->data_len), total);
		wr.imm = t->imm;
		t->done_len = total; /* appended to the remote buffer's data on success */
		break;
	}
	case DRDMA_TASK_CMP_SWP:
	case DRDMA_TASK_FETCH_ADD:
		wr.num_sge = sgl_of(t->result, true, sgl);
		sgl[0].len = 8;
		wr.rkey = rkey_of(t->dst, (uint64_t)(uintptr_t)t->dst->data, 8);
		wr.arg0 = t->arg0;
		wr.arg1 = t->arg1;
		break;
	case DRDMA_TASK_SE_GET:
		wr.num_sge = sgl_of(t->dst, true, sgl);
		sgl[0].len = 8;
		wr.rkey = rkey_of_event(t->event);
		break;
	case DRDMA_TASK_SE_SET:
		memcpy(&wr.arg0, t->src->data, sizeof(wr.arg0));
		wr.rkey = rkey_of_event(t->event);
		break;
	case DRDMA_TASK_SE_ADD:
		wr.num_sge = sgl_of(t->result, true, sgl);
		sgl[0].len = 8;
		wr.rkey = rkey_of_event(t->event);
		wr.arg0 = t->arg0;
		break;
	default:
		break;
	}
	wr.done_at_post = &done; /* done at once (a store into the peer's window): no CQE to wait for */
	err = nic->qp_post(t->conn->qp, &wr);
	if (err == DOCA_SUCCESS && done) {
		/* not queued yet: the core queues it done, behind every task submitted before it */
		task->work.op = SOFTHW_OP_DONE;
		task->work.status = DOCA_SUCCESS;
		return DOCA_SUCCESS;
	}
	if (err == DOCA_ERROR_NOT_CONNECTED) {
		SDK_LOG_ERR("RDMA %s task on connection %u, which is no longer connected: the task fails with "
			    "NOT_CONNECTED; reconnect and watch the connection state callbacks",
			    kinds[type].name, t->conn->id);
		t->conn->state = DRDMA_CONN_FAILED;
		fail_later(t, err);
		return DOCA_SUCCESS;
	}
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("RDMA %s task: the soft NIC could not queue it: %s", kinds[type].name,
			    doca_error_get_descr(err));
	return err;
}

/* ---- completion ---- */

static void append(struct doca_buf *head, uint64_t len)
{
	for (struct doca_buf *b = head; b != NULL && len > 0; b = b->next) {
		size_t room = softdoca_buf_tailroom(b);
		size_t take = len < room ? (size_t)len : room;

		b->data_len += take;
		len -= take;
	}
}

void drdma_task_complete(struct doca_task *task)
{
	struct drdma_task *t = (struct drdma_task *)task;

	switch (type_of(t)) {
	case DRDMA_TASK_RECEIVE:
	case DRDMA_TASK_READ:
	case DRDMA_TASK_WRITE:
	case DRDMA_TASK_WRITE_IMM:
		append(t->dst, t->done_len);
		break;
	case DRDMA_TASK_SE_GET:
		append(t->dst, 8);
		break;
	case DRDMA_TASK_CMP_SWP:
	case DRDMA_TASK_FETCH_ADD:
	case DRDMA_TASK_SE_ADD:
		append(t->result, 8);
		break;
	default:
		break;
	}
}

/* The fix for a completion error, by operation. */
static const char *hint(enum drdma_task_type type, doca_error_t status)
{
	switch (status) {
	case DOCA_ERROR_NOT_PERMITTED:
		switch (type) {
		case DRDMA_TASK_READ:
			return "remote mmap lacks DOCA_ACCESS_FLAG_RDMA_READ: the responder must set it with "
			       "doca_mmap_set_permissions() and doca_rdma_set_permissions()";
		case DRDMA_TASK_WRITE:
		case DRDMA_TASK_WRITE_IMM:
			return "remote mmap lacks DOCA_ACCESS_FLAG_RDMA_WRITE: the responder must set it with "
			       "doca_mmap_set_permissions() and doca_rdma_set_permissions()";
		case DRDMA_TASK_CMP_SWP:
		case DRDMA_TASK_FETCH_ADD:
			return "remote mmap lacks DOCA_ACCESS_FLAG_RDMA_ATOMIC: the responder must set it with "
			       "doca_mmap_set_permissions() and doca_rdma_set_permissions()";
		case DRDMA_TASK_SE_GET:
		case DRDMA_TASK_SE_SET:
		case DRDMA_TASK_SE_ADD:
			return "the remote sync event refuses it: the responder's RDMA context needs "
			       "DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE (doca_rdma_set_permissions()) "
			       "and the event must be exported with doca_sync_event_export_to_remote_net()";
		default:
			return "the peer refused it; check the permissions both sides set";
		}
	case DOCA_ERROR_INVALID_VALUE:
		return "the remote range is outside the exported memory, or its export is gone: check the remote "
		       "address and length, and import a fresh descriptor if the responder exported again";
	case DOCA_ERROR_CONNECTION_ABORTED:
		return "the peer went away or the connection broke; reconnect (export/connect or connect_to_addr) and "
		       "watch the connection state callbacks";
	case DOCA_ERROR_TOO_BIG:
		return type == DRDMA_TASK_RECEIVE
			       ? "the message is larger than this receive's destination room; post a larger buffer "
				 "(or reset its data length with doca_buf_reset_data_len())"
			       : "the receiver's posted receive is smaller than the message; the receiver must post "
				 "larger buffers";
	case DOCA_ERROR_AGAIN:
		return "the peer had no receive posted after the retries; the receiver must submit receive tasks "
		       "before the peer sends (or raise doca_rdma_set_rnr_retry_count(), 7 retries for ever)";
	case DOCA_ERROR_SHUTDOWN:
		return "the connection was disconnected while the task was in flight; reconnect to go on";
	case DOCA_ERROR_NOT_CONNECTED:
		return "the connection is down; reconnect and watch the connection state callbacks";
	default:
		return "see the NIC's log line above";
	}
}

static struct drdma_task *task_of_wr(struct doca_rdma *rdma, uint64_t wr_id)
{
	uintptr_t p = (uintptr_t)wr_id;

	for (uint32_t i = 0; i < rdma->ctx.num_pools; i++) {
		const struct softdoca_task_pool *pool = &rdma->ctx.pools[i];
		uintptr_t base = (uintptr_t)pool->mem;

		if (pool->mem == NULL || p < base || p >= base + (uintptr_t)pool->capacity * pool->task_size)
			continue;
		if ((p - base) % pool->task_size != 0)
			return NULL;
		return (struct drdma_task *)p;
	}
	return NULL;
}

void drdma_task_cqe(struct doca_rdma *rdma, const struct softhw_rnic_cqe *cqe)
{
	struct drdma_task *t = task_of_wr(rdma, cqe->wr_id);
	enum drdma_task_type type;

	if (t == NULL || t->base.state != SOFTDOCA_TASK_SUBMITTED || t->base.work.op != SOFTHW_OP_PARKED)
		return; /* not a task waiting for its completion */
	type = type_of(t);
	/* Only a receive learns its length from the completion; the others know it from the task. */
	if (type == DRDMA_TASK_SE_GET)
		t->done_len = 8;
	if (type == DRDMA_TASK_RECEIVE) {
		t->done_len = cqe->len;
		t->result_opcode = cqe->recv_op == SOFTHW_RNIC_OP_SEND_IMM    ? DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM
				   : cqe->recv_op == SOFTHW_RNIC_OP_WRITE_IMM ? DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM
									      : DOCA_RDMA_OPCODE_RECV_SEND;
		t->result_imm = cqe->imm;
		t->result_conn = cqe->qp_user != NULL && drdma_conn_belongs(rdma, cqe->qp_user) ? cqe->qp_user : NULL;
		/* A write with immediate places its bytes remotely; the receive itself carries none. */
		if (t->result_opcode == DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM)
			t->done_len = 0;
	}
	softhw_queue_done(&rdma->ctx.queue, &t->base.work, cqe->status);
	if (cqe->status != DOCA_SUCCESS)
		t->done_len = 0;
	if (cqe->status != DOCA_SUCCESS && rdma->ctx.state == DOCA_CTX_STATE_RUNNING && !rdma->stopping) {
		struct doca_rdma_connection *c = type == DRDMA_TASK_RECEIVE ? t->result_conn : t->conn;

		SDK_LOG_ERR("RDMA %s task failed on connection %d: %s; %s", kinds[type].name,
			    c != NULL ? (int)c->id : -1, doca_error_get_name(cqe->status), hint(type, cqe->status));
	}
}

/* ---- receive buf-list length (a context setting that belongs to receive tasks) ---- */

doca_error_t doca_rdma_task_receive_set_dst_buf_list_len(struct doca_rdma *rdma, uint32_t buf_list_len)
{
	SETTER_PRE("doca_rdma_task_receive_set_dst_buf_list_len");
	if (buf_list_len == 0 || buf_list_len > rdma->caps->rdma_max_recv_buf_list_len) {
		SDK_LOG_ERR("doca_rdma_task_receive_set_dst_buf_list_len: %u is out of range; the device allows 1 to "
			    "%u (see doca_rdma_cap_task_receive_get_max_dst_buf_list_len())",
			    buf_list_len, rdma->caps->rdma_max_recv_buf_list_len);
		return DOCA_ERROR_INVALID_VALUE;
	}
	rdma->recv_buf_list_len = buf_list_len;
	return DOCA_SUCCESS;
}

doca_error_t doca_rdma_task_receive_get_dst_buf_list_len(const struct doca_rdma *rdma, uint32_t *buf_list_len)
{
	GETTER("doca_rdma_task_receive_get_dst_buf_list_len", buf_list_len);
	*buf_list_len = rdma->recv_buf_list_len;
	return DOCA_SUCCESS;
}
