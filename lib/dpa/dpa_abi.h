/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The contract between dpacc's output, the device runtime (lib/dpa/dev) and libdoca_dpa
 * (docs/dpa.md). Not installed: dpacc writes the same definitions into the code it
 * generates (tools/dpacc/dpacc, keep both in step and bump SOFTDOCA_DPA_ABI on any change).
 *
 * Host side: a dpacc archive defines `struct doca_dpa_app *<app-name>` pointing at a
 * struct softdoca_dpa_app, and one host stub function per kernel / RPC.
 * Device side: the image (a self-contained shared object) exports one symbol,
 * SOFTDOCA_DPA_IMAGE_SYMBOL, a struct softdoca_dpa_image.
 */
#ifndef SOFTDOCA_DPA_ABI_H
#define SOFTDOCA_DPA_ABI_H

#include <stdarg.h>
#include <stdint.h>

#define SOFTDOCA_DPA_ABI 1
#define SOFTDOCA_DPA_APP_MAGIC 0x7070614150446f53ULL   /* "SoDPApp" */
#define SOFTDOCA_DPA_IMAGE_MAGIC 0x676d4941504464f5ULL
#define SOFTDOCA_DPA_IMAGE_SYMBOL "__softdoca_dpa_image"

enum softdoca_dpa_entry_kind {
	SOFTDOCA_DPA_KERNEL = 1, /* __dpa_global__ */
	SOFTDOCA_DPA_RPC = 2,    /* __dpa_rpc__ */
};

/* The host callbacks the device runtime runs on; handed to the image's init(). */
struct softdoca_dpa_host_ops {
	uint32_t abi;
	uint32_t size; /* sizeof this table: later members are appended */
	unsigned int (*thread_rank)(void);
	unsigned int (*num_threads)(void);
	uint64_t (*thread_local_storage)(void);
	void (*log)(int level, const char *format, va_list ap);
	/* a device function softdoca does not implement was called: logged, the context turns fatal */
	void (*unsupported)(const char *function);
	void (*device_set)(uint64_t dpa_handle);
	void (*sync_event_get)(uint64_t handle, uint64_t *value);
	void (*sync_event_update_set)(uint64_t handle, uint64_t value);
	void (*sync_event_update_add)(uint64_t handle, uint64_t value);
	void (*sync_event_wait_gt)(uint64_t handle, uint64_t value, uint64_t mask);
	uint64_t (*cycles)(void);
	/* DPA threads: these two never return to the caller (they end the thread's activation) */
	void (*thread_reschedule)(void);
	void (*thread_finish)(void);
	void (*thread_notify)(uint64_t notification_completion_handle);
	/* host memory through mmap handles (checked: handle, range, permission) */
	void (*mmap_memcpy)(uint32_t dst_mmap, uint64_t dst_addr, uint32_t src_mmap, uint64_t src_addr, uint64_t length);
	uint64_t (*mmap_external_ptr)(uint32_t mmap, uint64_t addr);
	/* completion contexts (dpardma): get returns 1 and *elem, or 0; field reads one of an element */
	int (*completion_get)(uint64_t comp, uint64_t *elem);
	uint64_t (*completion_field)(uint64_t elem, uint32_t field); /* enum softdoca_dpa_comp_field */
	void (*completion_ack)(uint64_t comp, uint64_t num);
	void (*completion_request_notification)(uint64_t comp);
	/* RDMA contexts whose datapath is on the DPA: op is enum softdoca_dpa_dev_rdma_op */
	void (*rdma_post)(uint64_t rdma, uint32_t op, uint32_t connection_id, uint32_t mmap, uint64_t addr,
			  uint64_t length, uint32_t imm, uint32_t flags);
	/* one-sided: local (mmap, addr) and the peer's (remote_mmap, remote_addr); value for atomics */
	void (*rdma_post_remote)(uint64_t rdma, uint32_t op, uint32_t connection_id, uint32_t mmap, uint64_t addr,
				 uint32_t remote_mmap, uint64_t remote_addr, uint64_t length, uint32_t imm,
				 uint64_t value, uint32_t flags);
	/* async ops: a copy whose completion goes to the ops' completion context; waits on sync events */
	void (*async_memcpy)(uint64_t async_ops, uint32_t dst_mmap, uint64_t dst_addr, uint32_t src_mmap,
			     uint64_t src_addr, uint64_t length, uint32_t flags);
	void (*async_wait)(uint64_t async_ops, uint64_t sync_event, uint64_t value, int not_equal);
	/* a peer's sync event (remote net handle) set to / added count, by RDMA */
	void (*rdma_signal)(uint64_t rdma, uint32_t connection_id, uint64_t remote_event, uint64_t count, int add);
	/* hash tables: op is enum softdoca_dpa_ht_op; find returns 1 and *value when the key is there */
	int (*hash_table)(uint64_t table, uint32_t op, uint32_t key, uint64_t *value);
	/* doca_dpa_dev_trace: one record of five arguments to the context's trace file */
	void (*trace)(const uint64_t args[5]);
	/* dpaintrin.h's __dpa_thread_time(): the DPA timer (DOCA_CLOCK_NIC_DPA_TIMER) in microseconds */
	uint64_t (*timer_us)(void);
};

enum softdoca_dpa_ht_op {
	SOFTDOCA_DPA_HT_ADD = 1,
	SOFTDOCA_DPA_HT_REMOVE,
	SOFTDOCA_DPA_HT_FIND,
};

enum softdoca_dpa_comp_field {
	SOFTDOCA_DPA_FIELD_TYPE = 0,
	SOFTDOCA_DPA_FIELD_USER_DATA,
	SOFTDOCA_DPA_FIELD_IMM,
	SOFTDOCA_DPA_FIELD_WR_INDEX,
	SOFTDOCA_DPA_FIELD_BYTES,
	SOFTDOCA_DPA_FIELD_SYNDROME,
	SOFTDOCA_DPA_FIELD_QPN,
	SOFTDOCA_DPA_FIELD_OPCODE,
	SOFTDOCA_DPA_FIELD_TIMESTAMP,
};

/* The same numbers as enum softdoca_dpa_rdma_op (lib/common/priv/dpa_priv.h). */
enum softdoca_dpa_dev_rdma_op {
	SOFTDOCA_DPA_DEV_RDMA_SEND = 1,
	SOFTDOCA_DPA_DEV_RDMA_SEND_IMM,
	SOFTDOCA_DPA_DEV_RDMA_RECV,
	SOFTDOCA_DPA_DEV_RDMA_WRITE,
	SOFTDOCA_DPA_DEV_RDMA_WRITE_IMM,
	SOFTDOCA_DPA_DEV_RDMA_READ,
	SOFTDOCA_DPA_DEV_RDMA_FETCH_ADD,
	SOFTDOCA_DPA_DEV_RDMA_SIGNAL_SET,
	SOFTDOCA_DPA_DEV_RDMA_SIGNAL_ADD,
};

/* One kernel or RPC of the image. */
struct softdoca_dpa_entry {
	const char *name;
	uint32_t kind;       /* enum softdoca_dpa_entry_kind */
	uint32_t reserved;
	/*
	 * Reads the arguments from the host's varargs, each with its own type, into buf (at most
	 * `room` bytes: those that fit). Returns the bytes they need; when that is more than room,
	 * the caller packs again into a buffer that large.
	 */
	uint32_t (*pack)(va_list *ap, unsigned char *buf, uint32_t room);
	/* Calls the entry with the arguments in buf; an RPC's return value, 0 for a kernel. */
	uint64_t (*call)(const unsigned char *buf);
};

struct softdoca_dpa_image {
	uint64_t magic;
	uint32_t abi;
	uint32_t num_entries;
	const char *dpacc_version;
	const char *app_name;
	const struct softdoca_dpa_entry *entries;
	void (*init)(const struct softdoca_dpa_host_ops *ops);
};

/* What `struct doca_dpa_app *<app-name>` points at. */
struct softdoca_dpa_app_func {
	const char *name;
	void (*host_stub)(void); /* the address host code passes as doca_dpa_func_t * */
};

struct softdoca_dpa_app {
	uint64_t magic;
	uint32_t abi;
	uint32_t num_funcs;
	const char *dpacc_version;
	const char *name;
	const unsigned char *image;
	uint64_t image_size;
	const struct softdoca_dpa_app_func *funcs;
};

#endif /* SOFTDOCA_DPA_ABI_H */
