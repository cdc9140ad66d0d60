/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host callbacks device code runs on (struct softdoca_dpa_host_ops, dpa_abi.h): the
 * device runtime (lib/dpa/dev) reaches the soft card only through them. They run on an EU,
 * inside a kernel or RPC, where the current context is known (set by dpa_launch.c).
 * Anything a device passes in (a handle) is looked up, never trusted.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA_DEVICE);

static __thread struct softdoca_dpa_current current;

void softdoca_dpa_set_current(const struct softdoca_dpa_current *cur)
{
	if (cur != NULL)
		current = *cur;
	else
		memset(&current, 0, sizeof(current));
}

const struct softdoca_dpa_current *softdoca_dpa_get_current(void)
{
	return current.dpa != NULL ? &current : NULL;
}

bool softdoca_dpa_current_seen_empty(uint64_t handle)
{
	if (current.dpa == NULL || current.thread == NULL)
		return true;
	for (unsigned int i = 0; i < current.num_empty_seen; i++)
		if (current.empty_seen[i] == handle)
			return true;
	if (current.num_empty_seen == sizeof(current.empty_seen) / sizeof(current.empty_seen[0]))
		return true;
	current.empty_seen[current.num_empty_seen++] = handle;
	return false;
}

/*
 * The rank was stopped (the watchdog found it past the kernel max run time, or the context
 * stops): it ends here, at a DPA call, as the DPA would kill it. Never returns.
 */
static void leave_rank(void)
{
	if (current.thread != NULL)
		softdoca_dpa_thread_end(true); /* a DPA thread is not activated again */
	longjmp(*(jmp_buf *)current.exit, 1);
}

/* Every DPA call of device code is a point where a stopped rank ends. */
static inline void stop_point(void)
{
	if (current.stop != NULL && __atomic_load_n(current.stop, __ATOMIC_ACQUIRE) && current.exit != NULL)
		leave_rank();
}

static unsigned int thread_rank(void)
{
	stop_point();
	return current.rank;
}

static unsigned int num_threads(void)
{
	stop_point();
	return current.num_threads;
}

static uint64_t thread_local_storage(void)
{
	stop_point();
	/* only DPA threads have local storage; a kernel launch's threads read 0 */
	return current.thread != NULL ? softdoca_dpa_thread_local_storage(current.thread) : 0;
}

static void thread_reschedule(void)
{
	softdoca_dpa_thread_end(false);
}

static void thread_finish(void)
{
	softdoca_dpa_thread_end(true);
}

static void thread_notify(uint64_t handle)
{
	stop_point();
	if (current.dpa != NULL)
		softdoca_dpa_thread_notify(current.dpa, handle);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A device log line goes to the context's log file (doca_dpa_log_file_set_path) or the host
 * process's stdout as the device formatted it, in one write, filtered by the context's level
 * (doca_dpa_set_log_level).
 */
static void device_log(int level, const char *format, va_list ap)
{
	struct doca_dpa *dpa = current.dpa;
	char line[1024];
	int n;

	stop_point();
	if (dpa != NULL && (dpa->log_level == DOCA_DPA_DEV_LOG_LEVEL_DISABLE || level > (int)dpa->log_level))
		return;
	n = vsnprintf(line, sizeof(line), format, ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	softdoca_dpa_file_write(dpa, false, line, (size_t)n);
}

/* doca_dpa_dev_trace: one record to the trace file (dpa_files.c); flushing has nothing to do. */
static void device_trace(const uint64_t args[5])
{
	stop_point();
	softdoca_dpa_trace(current.dpa, monotonic_ns(), current.rank, args);
}

static void unsupported(const char *function)
{
	SDK_LOG_ERR("DPA device code called %s(), which softdoca's DPA does not support yet "
		    "(docs/compatibility.md); the DPA context is now in error (doca_dpa_peek_at_last_error)",
		    function);
	if (current.dpa != NULL)
		softdoca_dpa_set_fatal(current.dpa, DOCA_ERROR_NOT_SUPPORTED);
}

static void device_set(uint64_t dpa_handle)
{
	stop_point();
	/* every context of the family runs on this DPA: the call only checks the handle */
	if (current.dpa != NULL && !softdoca_dpa_handle_in_family(current.dpa, dpa_handle)) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to doca_dpa_dev_device_set(): not the handle "
			    "(doca_dpa_get_dpa_handle) of this DPA context or of a context extended from it; the DPA "
			    "context is now in error",
			    (unsigned long long)dpa_handle);
		softdoca_dpa_set_fatal(current.dpa, DOCA_ERROR_INVALID_VALUE);
	}
}

/* The value of a device sync-event handle; NULL (logged, context in error) for a bad one. */
static struct softhw_value *event_value(uint64_t handle, const char *what)
{
	struct doca_dpa *dpa = current.dpa;
	struct softhw_value *v;

	stop_point();
	if (dpa == NULL)
		return NULL;
	v = dpa->base.dev->dpa->value_lookup(dpa->base.hw, handle);
	if (v == NULL) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to %s(): not a sync event handle of this DPA context (get "
			    "one with doca_sync_event_get_dpa_handle()); the DPA context is now in error",
			    (unsigned long long)handle, what);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
	}
	return v;
}

static void sync_event_get(uint64_t handle, uint64_t *value)
{
	struct softhw_value *v = event_value(handle, "doca_dpa_dev_sync_event_get");

	*value = v != NULL ? current.dpa->base.dev->dpa->value_load(v) : 0;
}

static void sync_event_update_set(uint64_t handle, uint64_t value)
{
	struct softhw_value *v = event_value(handle, "doca_dpa_dev_sync_event_update_set");

	if (v != NULL)
		current.dpa->base.dev->dpa->value_store(v, value);
}

static void sync_event_update_add(uint64_t handle, uint64_t value)
{
	struct softhw_value *v = event_value(handle, "doca_dpa_dev_sync_event_update_add");

	if (v != NULL)
		current.dpa->base.dev->dpa->value_fetch_add(v, value);
}

static void sync_event_wait_gt(uint64_t handle, uint64_t value, uint64_t mask)
{
	struct softhw_value *v = event_value(handle, "doca_dpa_dev_sync_event_wait_gt");
	struct doca_dpa *dpa = current.dpa;

	if (v != NULL && !dpa->base.dev->dpa->value_wait_gt(dpa->base.hw, v, value, mask)) {
		/* the watchdog logged its own line; a stop is worth one too */
		if (dpa->base.dev->dpa->overruns(dpa->base.hw) == 0)
			SDK_LOG_WARN("DPA device wait on sync event 0x%llx for a value > %llu abandoned: the DPA context "
				     "stops (or its DPA thread does)",
				     (unsigned long long)handle, (unsigned long long)value);
		leave_rank();
	}
}

/*
 * Device memcpy of host memory: done before the call returns (a copy that is posted and
 * complete at once). A bad handle, range or permission copies nothing, is logged and puts the
 * context in error, as a faulting DMA would.
 */
bool softdoca_dpa_mmap_memcpy(struct doca_dpa *dpa, uint32_t dst, uint64_t dst_addr, uint32_t src, uint64_t src_addr,
			      uint64_t length)
{
	char why[256];
	doca_error_t err;

	err = dpa->base.dev->dpa->mmap_copy(dpa->base.hw, dst, dst_addr, src, src_addr, length, why, sizeof(why));
	if (err == DOCA_SUCCESS)
		return true;
	SDK_LOG_ERR("DPA device code's doca_dpa_dev_post_memcpy() of %llu bytes refused: %s (get handles with "
		    "doca_mmap_dev_get_dpa_handle() for this DPA's device); nothing copied, the DPA context is "
		    "now in error",
		    (unsigned long long)length, why);
	softdoca_dpa_set_fatal(dpa, err);
	return false;
}

static void mmap_memcpy(uint32_t dst, uint64_t dst_addr, uint32_t src, uint64_t src_addr, uint64_t length)
{
	stop_point();
	if (current.dpa != NULL)
		softdoca_dpa_mmap_memcpy(current.dpa, dst, dst_addr, src, src_addr, length);
}

static uint64_t mmap_external_ptr(uint32_t handle, uint64_t addr)
{
	struct doca_dpa *dpa = current.dpa;
	char why[256];
	uint64_t p;

	stop_point();
	if (dpa == NULL)
		return 0;
	p = dpa->base.dev->dpa->mmap_external_ptr(dpa->base.hw, handle, addr, why, sizeof(why));
	if (p == 0) {
		SDK_LOG_ERR("DPA device code's doca_dpa_dev_mmap_get_external_ptr() refused: %s; the DPA context is "
			    "now in error",
			    why);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
	}
	return p;
}

/* ---- completion contexts (dpa_completion.c checks handles and elements) ---- */

static int completion_get(uint64_t comp, uint64_t *elem)
{
	*elem = 0;
	return current.dpa != NULL ? softdoca_dpa_completion_get(current.dpa, comp, elem) : 0;
}

static uint64_t completion_field(uint64_t elem, uint32_t field)
{
	struct softdoca_dpa_comp_elem e;

	if (current.dpa == NULL || !softdoca_dpa_completion_elem(current.dpa, elem, &e))
		return 0;
	switch (field) {
	case SOFTDOCA_DPA_FIELD_TYPE:
		return e.type;
	case SOFTDOCA_DPA_FIELD_USER_DATA:
		return e.user_data;
	case SOFTDOCA_DPA_FIELD_IMM:
		return e.imm;
	case SOFTDOCA_DPA_FIELD_WR_INDEX:
		return e.wr_index;
	case SOFTDOCA_DPA_FIELD_BYTES:
		return e.bytes;
	case SOFTDOCA_DPA_FIELD_SYNDROME:
		return e.syndrome;
	case SOFTDOCA_DPA_FIELD_QPN:
		return e.qpn;
	case SOFTDOCA_DPA_FIELD_OPCODE:
		return e.opcode;
	case SOFTDOCA_DPA_FIELD_TIMESTAMP:
		return e.timestamp;
	}
	return 0;
}

static void completion_ack(uint64_t comp, uint64_t num)
{
	if (current.dpa != NULL)
		softdoca_dpa_completion_ack(current.dpa, comp, num);
}

static void completion_request_notification(uint64_t comp)
{
	if (current.dpa != NULL)
		softdoca_dpa_completion_request_notification(current.dpa, comp);
}

/* ---- RDMA from the DPA: the RDMA context (libdoca_rdma) checks the connection and posts ---- */

static const char *rdma_call(uint32_t op)
{
	switch (op) {
	case SOFTDOCA_DPA_DEV_RDMA_SEND:
		return "doca_dpa_dev_rdma_post_send";
	case SOFTDOCA_DPA_DEV_RDMA_SEND_IMM:
		return "doca_dpa_dev_rdma_post_send_imm";
	case SOFTDOCA_DPA_DEV_RDMA_RECV:
		return "doca_dpa_dev_rdma_post_receive";
	case SOFTDOCA_DPA_DEV_RDMA_WRITE:
		return "doca_dpa_dev_rdma_post_write";
	case SOFTDOCA_DPA_DEV_RDMA_WRITE_IMM:
		return "doca_dpa_dev_rdma_post_write_imm";
	case SOFTDOCA_DPA_DEV_RDMA_READ:
		return "doca_dpa_dev_rdma_post_read";
	case SOFTDOCA_DPA_DEV_RDMA_FETCH_ADD:
		return "doca_dpa_dev_rdma_post_atomic_fetch_add";
	case SOFTDOCA_DPA_DEV_RDMA_SIGNAL_SET:
		return "doca_dpa_dev_rdma_signal_set";
	case SOFTDOCA_DPA_DEV_RDMA_SIGNAL_ADD:
		return "doca_dpa_dev_rdma_signal_add";
	}
	return "doca_dpa_dev_rdma_post_*";
}

/* The RDMA context behind a device handle; NULL (logged, context in error) for a bad one. */
static struct softdoca_dpa_rdma *rdma_lookup(struct doca_dpa *dpa, uint64_t rdma, uint32_t op)
{
	struct softdoca_dpa_rdma *r = dpa->base.dev->dpa->handle_lookup(dpa->base.hw, SOFTDOCA_DPA_HANDLE_RDMA, rdma);

	if (r == NULL) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to %s(): not the DPA handle of a started RDMA context whose "
			    "datapath is on this DPA context (doca_ctx_set_datapath_on_dpa() with this doca_dpa, then "
			    "doca_rdma_get_dpa_handle()); nothing posted, the DPA context is now in error",
			    (unsigned long long)rdma, rdma_call(op));
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
	}
	return r;
}

static void rdma_submit(struct doca_dpa *dpa, struct softdoca_dpa_rdma *r, const struct softdoca_dpa_rdma_wr *wr)
{
	char why[256];
	doca_error_t err = r->post(r, wr, why, sizeof(why));

	if (err != DOCA_SUCCESS) {
		SDK_LOG_ERR("DPA device code's %s() refused: %s; nothing posted, the DPA context is now in error",
			    rdma_call(wr->op), why);
		softdoca_dpa_set_fatal(dpa, err);
	}
}

static void rdma_post(uint64_t rdma, uint32_t op, uint32_t connection_id, uint32_t mmap, uint64_t addr,
		      uint64_t length, uint32_t imm, uint32_t flags)
{
	struct doca_dpa *dpa = current.dpa;
	struct softdoca_dpa_rdma *r;
	struct softdoca_dpa_rdma_wr wr;
	char why[256];

	if (dpa == NULL || (r = rdma_lookup(dpa, rdma, op)) == NULL)
		return;
	wr = (struct softdoca_dpa_rdma_wr){.op = op, .connection_id = connection_id, .flags = flags, .imm = imm,
					   .length = length};
	wr.local = dpa->base.dev->dpa->mmap_ptr(dpa->base.hw, mmap, addr, length, op == SOFTDOCA_DPA_DEV_RDMA_RECV,
						why, sizeof(why));
	if (wr.local == NULL) {
		SDK_LOG_ERR("DPA device code's %s() of %llu bytes refused: %s (get handles with "
			    "doca_mmap_dev_get_dpa_handle() for this DPA's device); nothing posted, the DPA context is "
			    "now in error",
			    rdma_call(op), (unsigned long long)length, why);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
		return;
	}
	rdma_submit(dpa, r, &wr);
}

/* One-sided operations: the local buffer (none for an atomic) and the peer's memory, both checked. */
static void rdma_post_remote(uint64_t rdma, uint32_t op, uint32_t connection_id, uint32_t mmap, uint64_t addr,
			     uint32_t remote_mmap, uint64_t remote_addr, uint64_t length, uint32_t imm, uint64_t value,
			     uint32_t flags)
{
	const struct softhw_dpa_ops *hw;
	struct doca_dpa *dpa = current.dpa;
	struct softdoca_dpa_rdma *r;
	struct softdoca_dpa_rdma_wr wr;
	char why[256];

	if (dpa == NULL || (r = rdma_lookup(dpa, rdma, op)) == NULL)
		return;
	hw = dpa->base.dev->dpa;
	wr = (struct softdoca_dpa_rdma_wr){.op = op, .connection_id = connection_id, .flags = flags, .imm = imm,
					   .length = length, .value = value, .remote_addr = remote_addr};
	if (op != SOFTDOCA_DPA_DEV_RDMA_FETCH_ADD) {
		wr.local = hw->mmap_ptr(dpa->base.hw, mmap, addr, length, op == SOFTDOCA_DPA_DEV_RDMA_READ, why,
					sizeof(why));
		if (wr.local == NULL)
			goto refused;
	}
	if (!hw->mmap_remote(dpa->base.hw, remote_mmap, remote_addr, length, &wr.remote_pid, &wr.remote_id,
			     &wr.remote_token, why, sizeof(why)))
		goto refused;
	rdma_submit(dpa, r, &wr);
	return;
refused:
	SDK_LOG_ERR("DPA device code's %s() of %llu bytes refused: %s; nothing posted, the DPA context is now in error",
		    rdma_call(op), (unsigned long long)length, why);
	softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
}

/* A peer's sync event set to / added count: the handle is a copy of its rkey (softhw rkey_handle). */
static void rdma_signal(uint64_t rdma, uint32_t connection_id, uint64_t remote_event, uint64_t count, int add)
{
	uint32_t op = add ? SOFTDOCA_DPA_DEV_RDMA_SIGNAL_ADD : SOFTDOCA_DPA_DEV_RDMA_SIGNAL_SET;
	struct doca_dpa *dpa = current.dpa;
	struct softdoca_dpa_rdma *r;
	struct softdoca_dpa_rdma_wr wr;

	if (dpa == NULL || (r = rdma_lookup(dpa, rdma, op)) == NULL)
		return;
	wr = (struct softdoca_dpa_rdma_wr){.op = op, .connection_id = connection_id, .length = 8, .value = count};
	if (!dpa->base.dev->dpa->rkey_lookup(dpa->base.hw, remote_event, &wr.remote_pid, &wr.remote_id,
					     &wr.remote_token, &wr.remote_addr)) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to %s(): not a remote net sync event handle of this DPA "
			    "context (doca_sync_event_remote_net_get_dpa_handle()); nothing posted, the DPA context is "
			    "now in error",
			    (unsigned long long)remote_event, rdma_call(op));
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
		return;
	}
	rdma_submit(dpa, r, &wr);
}

static int hash_table(uint64_t table, uint32_t op, uint32_t key, uint64_t *value)
{
	return current.dpa != NULL ? softdoca_dpa_hash_table_op(current.dpa, table, op, key, value) : 0;
}

/* ---- async ops (dpa_async.c) ---- */

static void async_memcpy(uint64_t ops, uint32_t dst, uint64_t dst_addr, uint32_t src, uint64_t src_addr,
			 uint64_t length, uint32_t flags)
{
	if (current.dpa != NULL)
		softdoca_dpa_async_memcpy(current.dpa, ops, dst, dst_addr, src, src_addr, length, flags);
}

static void async_wait(uint64_t ops, uint64_t sync_event, uint64_t value, int not_equal)
{
	struct softhw_value *v = event_value(sync_event, not_equal ? "doca_dpa_dev_sync_event_post_wait_ne" :
								     "doca_dpa_dev_sync_event_post_wait_gt");

	if (v != NULL)
		softdoca_dpa_async_wait(current.dpa, ops, v, value, not_equal != 0);
}

static uint64_t cycles(void)
{
	stop_point();
	return monotonic_ns();
}

/*
 * The soft card's DPA timer in µs: CLOCK_MONOTONIC_RAW, the clock doca_clock reads as
 * DOCA_CLOCK_NIC_DPA_TIMER (lib/softhw/engine/clock.c), so that a device time and a cross
 * timestamp of that clock agree.
 */
static uint64_t timer_us(void)
{
	struct timespec ts;

	stop_point();
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

const struct softdoca_dpa_host_ops softdoca_dpa_host_ops = {
	.abi = SOFTDOCA_DPA_ABI,
	.size = sizeof(struct softdoca_dpa_host_ops),
	.thread_rank = thread_rank,
	.num_threads = num_threads,
	.thread_local_storage = thread_local_storage,
	.log = device_log,
	.unsupported = unsupported,
	.device_set = device_set,
	.sync_event_get = sync_event_get,
	.sync_event_update_set = sync_event_update_set,
	.sync_event_update_add = sync_event_update_add,
	.sync_event_wait_gt = sync_event_wait_gt,
	.cycles = cycles,
	.timer_us = timer_us,
	.thread_reschedule = thread_reschedule,
	.thread_finish = thread_finish,
	.thread_notify = thread_notify,
	.mmap_memcpy = mmap_memcpy,
	.mmap_external_ptr = mmap_external_ptr,
	.completion_get = completion_get,
	.completion_field = completion_field,
	.completion_ack = completion_ack,
	.completion_request_notification = completion_request_notification,
	.rdma_post = rdma_post,
	.rdma_post_remote = rdma_post_remote,
	.async_memcpy = async_memcpy,
	.async_wait = async_wait,
	.rdma_signal = rdma_signal,
	.hash_table = hash_table,
	.trace = device_trace,
};
