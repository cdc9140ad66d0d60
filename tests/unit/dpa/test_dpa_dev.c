/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device code of test_dpa (built by dpacc): kernels and RPCs whose arguments cover the
 * promoted integers, floats, device pointers and structs by value, and device calls to check.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_buf.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>
#include <doca_dpa_dev_verbs.h>
#include <dpaintrin.h>
#include <stdbool.h>

#include "test_dpa_common.h"

/* The same name as a function of the host test: each side must see its own. */
uint64_t test_dpa_same_name(void)
{
	return 1111;
}

static uint64_t rpc_calls; /* device global: one per DPA context */

/* Each thread writes rank + 1 and the thread count into its slot of a device array. */
__dpa_global__ void fill_ranks(doca_dpa_dev_uintptr_t slots, uint64_t magic)
{
	uint64_t *s = (uint64_t *)slots;
	unsigned int rank = doca_dpa_dev_thread_rank();

	s[2 * rank] = rank + 1 + magic;
	s[2 * rank + 1] = doca_dpa_dev_num_threads();
}

/* A kernel that logs, for the log-routing check. */
__dpa_global__ void hello_kernel(void)
{
	DOCA_DPA_DEV_LOG_INFO("Hello from kernel rank %u\n", doca_dpa_dev_thread_rank());
}

/* Adds to a sync event from the device. */
__dpa_global__ void bump_event(doca_dpa_dev_sync_event_t event, uint64_t by)
{
	doca_dpa_dev_sync_event_update_add(event, by);
}

/* Every argument kind the host passes through varargs; returns a checksum of them all. */
__dpa_rpc__ uint64_t mixed_rpc(uint8_t u8, int16_t s16, _Bool flag, int32_t s32, uint64_t u64, float f, double d,
			       struct test_dpa_big big, struct test_dpa_small small, doca_dpa_dev_uintptr_t ptr)
{
	const uint64_t *p = (const uint64_t *)ptr;

	rpc_calls++;
	return test_dpa_checksum(u8, s16, flag, s32, u64, f, d, &big, &small) + p[0] * 1000000 + rpc_calls * 7;
}

/* The DPA timer, as NVIDIA's time_sync reads it (microseconds, correlated with DOCA_CLOCK_NIC_DPA_TIMER). */
__dpa_rpc__ uint64_t time_rpc(void)
{
	return __dpa_thread_time();
}

__dpa_rpc__ uint64_t same_name_rpc(void)
{
	return test_dpa_same_name();
}

/* Calls a device function softdoca does not implement: it must be reported, not ignored. */
__dpa_rpc__ uint64_t unsupported_rpc(uint64_t unused)
{
	(void)unused;
	return doca_dpa_dev_completion_element_get_swqe_opcode(0) + 5;
}

/* A log line and a trace record of five values (doca_dpa_log_file_set_path / _trace_file_). */
__dpa_rpc__ uint64_t log_trace_rpc(uint64_t tag)
{
	DOCA_DPA_DEV_LOG_INFO("log line %llu from the DPA\n", (unsigned long long)tag);
	doca_dpa_dev_trace(tag, 1, 2, 0xabc, ~0ULL);
	doca_dpa_dev_trace_flush();
	return tag;
}

/* Verbs work requests filled and read back: 1 when every field holds what was set. */
__dpa_rpc__ uint64_t verbs_wr_rpc(uint64_t seed)
{
	struct doca_dpa_dev_verbs_sge sge[2] = {{seed, 64, 7}, {seed + 64, 32, DOCA_DPA_DEV_VERBS_SGE_TERMINATING_LKEY}};
	struct doca_dpa_dev_verbs_send_wr s;
	struct doca_dpa_dev_verbs_recv_wr r;
	uint64_t ok = 1;

	doca_dpa_dev_verbs_send_wr_set_sg_list(&s, sge);
	doca_dpa_dev_verbs_send_wr_set_sg_num_sge(&s, 2);
	doca_dpa_dev_verbs_send_wr_set_opcode(&s, DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_ATOMIC_FETCH_ADD);
	doca_dpa_dev_verbs_send_wr_set_send_flags(&s, DOCA_DPA_DEV_VERBS_SEND_WR_FLAGS_SIGNALED);
	doca_dpa_dev_verbs_send_wr_set_fence_mode(&s, DOCA_DPA_DEV_VERBS_SEND_WR_FM_FENCE);
	doca_dpa_dev_verbs_send_wr_set_imm_data(&s, 0x1234);
	doca_dpa_dev_verbs_send_wr_set_atomic_remote_addr(&s, seed * 3);
	doca_dpa_dev_verbs_send_wr_set_atomic_rkey(&s, 99);
	doca_dpa_dev_verbs_send_wr_set_atomic_compare_add(&s, seed + 1);
	doca_dpa_dev_verbs_send_wr_set_atomic_swap(&s, seed + 2);
	ok &= doca_dpa_dev_verbs_send_wr_get_sg_list(&s) == sge && doca_dpa_dev_verbs_send_wr_get_sg_num_sge(&s) == 2;
	ok &= doca_dpa_dev_verbs_send_wr_get_opcode(&s) == DOCA_DPA_DEV_VERBS_SEND_WR_OPCODE_ATOMIC_FETCH_ADD;
	ok &= doca_dpa_dev_verbs_send_wr_get_send_flags(&s) == DOCA_DPA_DEV_VERBS_SEND_WR_FLAGS_SIGNALED;
	ok &= doca_dpa_dev_verbs_send_wr_get_fence_mode(&s) == DOCA_DPA_DEV_VERBS_SEND_WR_FM_FENCE;
	ok &= doca_dpa_dev_verbs_send_wr_get_imm_data(&s) == 0x1234;
	/* an atomic's remote address and rkey are the RDMA ones (one segment of the request) */
	ok &= doca_dpa_dev_verbs_send_wr_get_rdma_remote_addr(&s) == seed * 3 && doca_dpa_dev_verbs_send_wr_get_rdma_rkey(&s) == 99;
	ok &= doca_dpa_dev_verbs_send_wr_get_atomic_compare_add(&s) == seed + 1;
	ok &= doca_dpa_dev_verbs_send_wr_get_atomic_swap(&s) == seed + 2;
	doca_dpa_dev_verbs_send_wr_set_invalidate_rkey(&s, 42);
	ok &= doca_dpa_dev_verbs_send_wr_get_invalidate_rkey(&s) == 42;
	doca_dpa_dev_verbs_recv_wr_set_sg_list(&r, &sge[1]);
	doca_dpa_dev_verbs_recv_wr_set_sg_num_sge(&r, 1);
	ok &= doca_dpa_dev_verbs_recv_wr_get_sg_list(&r) == &sge[1] && doca_dpa_dev_verbs_recv_wr_get_sg_num_sge(&r) == 1;
	return ok;
}

/* A verbs queue call: the host's DOCA Verbs is not implemented, so no handle is real. */
__dpa_rpc__ uint64_t verbs_qp_rpc(doca_dpa_dev_verbs_qp_t qp)
{
	return doca_dpa_dev_verbs_qp_get_qpn(qp) + 10;
}

/* A device wait on an event the host releases. */
__dpa_global__ void wait_then_set(doca_dpa_dev_sync_event_t wait_ev, doca_dpa_dev_sync_event_t done_ev)
{
	uint64_t v = 0;

	doca_dpa_dev_sync_event_wait_gt(wait_ev, 2, ~0ULL);
	doca_dpa_dev_sync_event_get(wait_ev, &v);
	doca_dpa_dev_sync_event_update_set(done_ev, v * 10);
}

/* Tells the host it runs, then waits on an event nobody sets: the context's stop must end it. */
__dpa_global__ void signal_then_wait(doca_dpa_dev_sync_event_t started, doca_dpa_dev_sync_event_t never)
{
	doca_dpa_dev_sync_event_update_set(started, 1);
	doca_dpa_dev_sync_event_wait_gt(never, 0, ~0ULL);
}

/* A DPA thread: counts its activations, publishes the count, finishes at the limit. */
__dpa_global__ void counter_thread(uint64_t arg)
{
	struct test_dpa_counter *c = (struct test_dpa_counter *)arg;
	uint64_t *seen_storage = (uint64_t *)doca_dpa_dev_thread_get_local_storage();

	*seen_storage = 0x5704a9e;
	c->count++;
	doca_dpa_dev_sync_event_update_set(c->event, c->count);
	if (c->count >= c->finish_at)
		doca_dpa_dev_thread_finish();
	doca_dpa_dev_thread_reschedule();
	c->count += 1000; /* never reached: reschedule does not return */
}

/* Wakes a DPA thread through its notification completion. */
__dpa_rpc__ uint64_t notify_rpc(doca_dpa_dev_notification_completion_t handle)
{
	doca_dpa_dev_thread_notify(handle);
	return 1;
}

/* Each thread copies its chunk of host memory between two mmap handles. */
__dpa_global__ void copy_chunks(doca_dpa_dev_mmap_t dst, uint64_t dst_addr, doca_dpa_dev_mmap_t src,
				uint64_t src_addr, uint64_t chunk)
{
	uint64_t off = (uint64_t)doca_dpa_dev_thread_rank() * chunk;

	doca_dpa_dev_post_memcpy(0, dst, dst_addr + off, src, src_addr + off, chunk, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
}

/* One copy between mmap handles; returns 1 once the call returned. */
__dpa_rpc__ uint64_t copy_rpc(doca_dpa_dev_mmap_t dst, uint64_t dst_addr, doca_dpa_dev_mmap_t src, uint64_t src_addr,
			      uint64_t len)
{
	doca_dpa_dev_post_memcpy(0, dst, dst_addr, src, src_addr, len, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	return 1;
}

/* Reads a host word through an mmap handle's external pointer. */
__dpa_rpc__ uint64_t external_read_rpc(doca_dpa_dev_mmap_t mmap, uint64_t addr)
{
	doca_dpa_dev_uintptr_t p = doca_dpa_dev_mmap_get_external_ptr(mmap, addr);

	return p != 0 ? *(volatile const uint64_t *)p : 0;
}

/* Tells the host it runs, then spins on device memory without a DPA call: nothing can stop it. */
__dpa_global__ void spin_kernel(doca_dpa_dev_sync_event_t started, doca_dpa_dev_uintptr_t release)
{
	doca_dpa_dev_sync_event_update_set(started, 1);
	while (*(volatile const uint64_t *)release == 0)
		;
}

/* The same in an RPC. */
__dpa_rpc__ uint64_t spin_rpc(doca_dpa_dev_uintptr_t release)
{
	while (*(volatile const uint64_t *)release == 0)
		;
	return 3;
}

/* Polls an event nobody sets: each poll is a DPA call, where a stopped kernel ends. */
__dpa_global__ void poll_kernel(doca_dpa_dev_sync_event_t started, doca_dpa_dev_sync_event_t never)
{
	uint64_t v = 0;

	doca_dpa_dev_sync_event_update_set(started, 1);
	while (v == 0)
		doca_dpa_dev_sync_event_get(never, &v);
}

/* Names a context of the family (doca_dpa_dev_device_set), then reads a host word through an mmap handle. */
__dpa_rpc__ uint64_t device_set_read_rpc(doca_dpa_dev_t dpa_handle, doca_dpa_dev_mmap_t mmap, uint64_t addr)
{
	doca_dpa_dev_uintptr_t p;

	doca_dpa_dev_device_set(dpa_handle);
	p = doca_dpa_dev_mmap_get_external_ptr(mmap, addr);
	return p != 0 ? *(volatile const uint64_t *)p : 0;
}

/* A DPA thread: tells the host it runs, then waits (arg[1] nonzero: spins) forever. arg: 3 words
 * in device memory: started event, never event, spin release word address (0: wait instead). */
__dpa_global__ void stuck_thread(uint64_t arg)
{
	const uint64_t *a = (const uint64_t *)arg;

	doca_dpa_dev_sync_event_update_set(a[0], 1);
	if (a[2] != 0)
		while (*(volatile const uint64_t *)a[2] == 0)
			;
	else
		doca_dpa_dev_sync_event_wait_gt(a[1], 0, ~0ULL);
	doca_dpa_dev_thread_reschedule();
}

/* Yields until released: each yield is a DPA call, where a stopped kernel ends. */
__dpa_global__ void yield_kernel(doca_dpa_dev_sync_event_t started, doca_dpa_dev_uintptr_t release)
{
	doca_dpa_dev_sync_event_update_set(started, 1);
	while (*(volatile const uint64_t *)release == 0)
		doca_dpa_dev_yield();
}

/* ---- RDMA from the DPA and completion contexts (test_dpa_rdma.c) ---- */

__dpa_rpc__ uint64_t rdma_recv_rpc(doca_dpa_dev_rdma_t rdma, doca_dpa_dev_mmap_t mmap, uint64_t addr, uint64_t len)
{
	doca_dpa_dev_rdma_post_receive(rdma, mmap, addr, len);
	return 1;
}

__dpa_rpc__ uint64_t rdma_send_rpc(doca_dpa_dev_rdma_t rdma, uint32_t conn, doca_dpa_dev_mmap_t mmap, uint64_t addr,
				   uint64_t len, uint32_t flags)
{
	doca_dpa_dev_rdma_post_send(rdma, conn, mmap, addr, len, flags);
	return 1;
}

__dpa_rpc__ uint64_t rdma_send_imm_rpc(doca_dpa_dev_rdma_t rdma, uint32_t conn, doca_dpa_dev_mmap_t mmap,
				       uint64_t addr, uint64_t len, uint32_t imm)
{
	doca_dpa_dev_rdma_post_send_imm(rdma, conn, mmap, addr, len, imm, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	return 1;
}

/* One completion, if any, packed: 1 | type << 8 | user_data << 16 | imm << 32; 0 for none. */
__dpa_rpc__ uint64_t comp_take_rpc(doca_dpa_dev_completion_t comp)
{
	doca_dpa_dev_completion_element_t e;
	uint64_t packed;

	if (!doca_dpa_dev_get_completion(comp, &e))
		return 0;
	packed = 1 | ((uint64_t)doca_dpa_dev_get_completion_type(e) << 8) |
		 ((uint64_t)(doca_dpa_dev_get_completion_user_data(e) & 0xffff) << 16) |
		 ((uint64_t)doca_dpa_dev_get_completion_immediate(e) << 32);
	doca_dpa_dev_completion_ack(comp, 1);
	return packed;
}

__dpa_rpc__ uint64_t comp_ack_rpc(doca_dpa_dev_completion_t comp, uint64_t n)
{
	doca_dpa_dev_completion_ack(comp, n);
	return 1;
}

__dpa_rpc__ uint64_t comp_elem_rpc(uint64_t elem)
{
	return doca_dpa_dev_get_completion_type((doca_dpa_dev_completion_element_t)elem);
}

/* A DPA thread that polls a completion context (its handle at arg) for ever: only a stop ends it. */
__dpa_global__ void poll_forever(uint64_t arg)
{
	doca_dpa_dev_completion_t comp = *(volatile uint64_t *)arg;
	doca_dpa_dev_completion_element_t e;

	for (;;)
		if (doca_dpa_dev_get_completion(comp, &e))
			doca_dpa_dev_completion_ack(comp, 1);
}

/* One-sided: op 0 write, 1 write with immediate 99, 2 read, 3 fetch-and-add of len. */
__dpa_rpc__ uint64_t rdma_one_sided_rpc(doca_dpa_dev_rdma_t rdma, uint32_t conn, uint32_t op, doca_dpa_dev_mmap_t local,
					uint64_t local_addr, doca_dpa_dev_mmap_t remote, uint64_t remote_addr, uint64_t len)
{
	switch (op) {
	case 0:
		doca_dpa_dev_rdma_post_write(rdma, conn, remote, remote_addr, local, local_addr, len, 0);
		break;
	case 1:
		doca_dpa_dev_rdma_post_write_imm(rdma, conn, remote, remote_addr, local, local_addr, len, 99, 0);
		break;
	case 2:
		doca_dpa_dev_rdma_post_read(rdma, conn, local, local_addr, remote, remote_addr, len, 0);
		break;
	default:
		doca_dpa_dev_rdma_post_atomic_fetch_add(rdma, conn, remote, remote_addr, len, 0);
		break;
	}
	return 1;
}

/* ---- async ops ---- */

__dpa_rpc__ uint64_t async_copy_rpc(doca_dpa_dev_async_ops_t ops, doca_dpa_dev_mmap_t dst, uint64_t dst_addr,
				    doca_dpa_dev_mmap_t src, uint64_t src_addr, uint64_t len, uint32_t flags)
{
	doca_dpa_dev_post_memcpy(ops, dst, dst_addr, src, src_addr, len, flags);
	return 1;
}

__dpa_rpc__ uint64_t async_wait_rpc(doca_dpa_dev_async_ops_t ops, doca_dpa_dev_sync_event_t event, uint64_t value,
				    uint32_t not_equal)
{
	if (not_equal)
		doca_dpa_dev_sync_event_post_wait_ne(ops, event, value);
	else
		doca_dpa_dev_sync_event_post_wait_gt(ops, event, value);
	return 1;
}

__dpa_rpc__ uint64_t rdma_signal_rpc(doca_dpa_dev_rdma_t rdma, uint32_t conn, doca_dpa_dev_sync_event_remote_net_t ev,
				     uint64_t count, uint32_t add)
{
	if (add)
		doca_dpa_dev_rdma_signal_add(rdma, conn, ev, count);
	else
		doca_dpa_dev_rdma_signal_set(rdma, conn, ev, count);
	return 1;
}

/* ---- bufs of a doca_buf_arr with a DPA target ---- */

/* Copies buf src of the array into buf dst (no async ops); returns the word dst then holds. */
__dpa_rpc__ uint64_t buf_copy_rpc(doca_dpa_dev_buf_arr_t arr, uint64_t dst, uint64_t src)
{
	doca_dpa_dev_buf_t d = doca_dpa_dev_buf_array_get_buf(arr, dst), s = doca_dpa_dev_buf_array_get_buf(arr, src);

	doca_dpa_dev_post_buf_memcpy(0, d, s, 0);
	return *(volatile const uint64_t *)doca_dpa_dev_buf_get_external_ptr(d);
}

/* Sends buf i of the array on a connection. */
__dpa_rpc__ uint64_t buf_send_rpc(doca_dpa_dev_rdma_t rdma, uint32_t conn, doca_dpa_dev_buf_arr_t arr, uint64_t i)
{
	doca_dpa_dev_rdma_post_buf_send(rdma, conn, doca_dpa_dev_buf_array_get_buf(arr, i), DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	return doca_dpa_dev_buf_get_len(doca_dpa_dev_buf_array_get_buf(arr, i));
}

/* The timestamp of the next completion (acknowledged), or 0 when there is none. */
__dpa_rpc__ uint64_t comp_stamp_rpc(doca_dpa_dev_completion_t comp)
{
	doca_dpa_dev_completion_element_t e;
	uint64_t t;

	if (!doca_dpa_dev_get_completion(comp, &e))
		return 0;
	t = doca_dpa_dev_completion_element_get_timestamp(e);
	if (doca_dpa_dev_completion_element_get_srqn(e) != 0 ||
	    doca_dpa_dev_completion_element_get_vendor_error_syndrome(e) != 0)
		t = 1;
	doca_dpa_dev_completion_ack(comp, 1);
	return t;
}

/* A member of a thread group: writes its rank + 1 and the group's size into its slot, counts itself. */
__dpa_global__ void tg_member(uint64_t arg)
{
	const uint64_t *a = (const uint64_t *)arg; /* slots, sync event */
	uint64_t *s = (uint64_t *)a[0];
	unsigned int rank = doca_dpa_dev_thread_rank();

	s[2 * rank] = rank + 1;
	s[2 * rank + 1] = doca_dpa_dev_num_threads();
	doca_dpa_dev_sync_event_update_add(a[1], 1);
	doca_dpa_dev_thread_finish();
}

/* op 0 add (key, value), 1 remove (key), 2 find (key): value + 1 when found, else 0. */
__dpa_rpc__ uint64_t ht_rpc(doca_dpa_dev_hash_table_t ht, uint32_t op, uint32_t key, uint64_t value)
{
	uint64_t v = 0;

	if (op == 0)
		doca_dpa_dev_hash_table_add(ht, key, value);
	else if (op == 1)
		doca_dpa_dev_hash_table_remove(ht, key);
	else if (doca_dpa_dev_hash_table_find(ht, key, &v))
		return v + 1;
	return 0;
}

/*
 * A DPA thread that records each activation's entry and exit (and how many were inside at
 * once) in a block shared with other probe threads, stays inside for hold_ns of device
 * time, then reschedules.
 */
__dpa_global__ void eu_probe_thread(uint64_t arg)
{
	const struct test_dpa_probe_arg *a = (const struct test_dpa_probe_arg *)arg;
	struct test_dpa_probe *p = (struct test_dpa_probe *)a->block;
	uint64_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_SEQ_CST);
	uint64_t in = __atomic_add_fetch(&p->inside, 1, __ATOMIC_SEQ_CST);
	uint64_t max = __atomic_load_n(&p->max_inside, __ATOMIC_SEQ_CST);
	uint64_t enter = __dpa_thread_cycles();

	while (in > max && !__atomic_compare_exchange_n(&p->max_inside, &max, in, false, __ATOMIC_SEQ_CST,
							 __ATOMIC_SEQ_CST))
		;
	while (__dpa_thread_cycles() - enter < p->hold_ns)
		;
	__atomic_sub_fetch(&p->inside, 1, __ATOMIC_SEQ_CST);
	if (i < TEST_DPA_PROBE_RECS) {
		p->rec[i].who = a->who;
		p->rec[i].enter = enter;
		p->rec[i].leave = __dpa_thread_cycles();
	}
	doca_dpa_dev_sync_event_update_add(p->done_event, 1);
	doca_dpa_dev_thread_reschedule();
}

/* Wakes two DPA threads at once. */
__dpa_rpc__ uint64_t notify2_rpc(doca_dpa_dev_notification_completion_t a, doca_dpa_dev_notification_completion_t b)
{
	doca_dpa_dev_thread_notify(a);
	doca_dpa_dev_thread_notify(b);
	return 2;
}

/* Runs only while the other handshake thread runs too: says it runs, waits for the other. */
__dpa_global__ void handshake_thread(uint64_t arg)
{
	const struct test_dpa_handshake *h = (const struct test_dpa_handshake *)arg;

	doca_dpa_dev_sync_event_update_set(h->mine, 1);
	doca_dpa_dev_sync_event_wait_gt(h->other, 0, ~0ULL);
	doca_dpa_dev_sync_event_update_add(h->done, 1);
	doca_dpa_dev_thread_finish();
}
