/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device runtime (libdoca_dpa_dev_comm.a): RDMA from the DPA. Each post goes to the host
 * callbacks, which check the RDMA handle, the connection and the mmap range and hand the work
 * request to the soft NIC; its completion arrives in the completion context attached to the
 * RDMA context (doca_rdma_dpa_completion_attach).
 */
#include "doca_dpa_dev_rdma.h"
#include "dev_runtime.h"

void doca_dpa_dev_rdma_post_send(doca_dpa_dev_rdma_t rdma, uint32_t connection_id, doca_dpa_dev_mmap_t mmap_handle,
				 uint64_t addr, size_t length, uint32_t flags)
{
	softdoca_dpa_dev_host->rdma_post(rdma, SOFTDOCA_DPA_DEV_RDMA_SEND, connection_id, mmap_handle, addr, length, 0,
					 flags);
}

void doca_dpa_dev_rdma_post_send_imm(doca_dpa_dev_rdma_t rdma, uint32_t connection_id, doca_dpa_dev_mmap_t mmap_handle,
				     uint64_t addr, size_t length, uint32_t immediate, uint32_t flags)
{
	softdoca_dpa_dev_host->rdma_post(rdma, SOFTDOCA_DPA_DEV_RDMA_SEND_IMM, connection_id, mmap_handle, addr, length,
					 immediate, flags);
}

void doca_dpa_dev_rdma_post_receive(doca_dpa_dev_rdma_t rdma, doca_dpa_dev_mmap_t mmap_handle, uint64_t addr,
				    size_t length)
{
	softdoca_dpa_dev_host->rdma_post(rdma, SOFTDOCA_DPA_DEV_RDMA_RECV, 0, mmap_handle, addr, length, 0, 0);
}

void doca_dpa_dev_rdma_post_write(doca_dpa_dev_rdma_t rdma, uint32_t connection_id, doca_dpa_dev_mmap_t dst_mmap_handle,
				  uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap_handle, uint64_t src_addr, size_t length,
				  uint32_t flags)
{
	softdoca_dpa_dev_host->rdma_post_remote(rdma, SOFTDOCA_DPA_DEV_RDMA_WRITE, connection_id, src_mmap_handle,
						src_addr, dst_mmap_handle, dst_addr, length, 0, 0, flags);
}

void doca_dpa_dev_rdma_post_write_imm(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
				      doca_dpa_dev_mmap_t dst_mmap_handle, uint64_t dst_addr,
				      doca_dpa_dev_mmap_t src_mmap_handle, uint64_t src_addr, size_t length,
				      uint32_t immediate, uint32_t flags)
{
	softdoca_dpa_dev_host->rdma_post_remote(rdma, SOFTDOCA_DPA_DEV_RDMA_WRITE_IMM, connection_id, src_mmap_handle,
						src_addr, dst_mmap_handle, dst_addr, length, immediate, 0, flags);
}

/* Read: the destination is local, the source the peer's. */
void doca_dpa_dev_rdma_post_read(doca_dpa_dev_rdma_t rdma, uint32_t connection_id, doca_dpa_dev_mmap_t dst_mmap_handle,
				 uint64_t dst_addr, doca_dpa_dev_mmap_t src_mmap_handle, uint64_t src_addr, size_t length,
				 uint32_t flags)
{
	softdoca_dpa_dev_host->rdma_post_remote(rdma, SOFTDOCA_DPA_DEV_RDMA_READ, connection_id, dst_mmap_handle,
						dst_addr, src_mmap_handle, src_addr, length, 0, 0, flags);
}

/* The fetched value is not returned to the device (the call has no local buffer). */
void doca_dpa_dev_rdma_post_atomic_fetch_add(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
					     doca_dpa_dev_mmap_t dst_mmap_handle, uint64_t dst_addr, uint64_t value,
					     uint32_t flags)
{
	softdoca_dpa_dev_host->rdma_post_remote(rdma, SOFTDOCA_DPA_DEV_RDMA_FETCH_ADD, connection_id, 0, 0,
						dst_mmap_handle, dst_addr, 8, 0, value, flags);
}

void doca_dpa_dev_rdma_signal_set(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
				  doca_dpa_dev_sync_event_remote_net_t remote_sync_event, uint64_t count)
{
	softdoca_dpa_dev_host->rdma_signal(rdma, connection_id, remote_sync_event, count, 0);
}

void doca_dpa_dev_rdma_signal_add(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
				  doca_dpa_dev_sync_event_remote_net_t remote_sync_event, uint64_t count)
{
	softdoca_dpa_dev_host->rdma_signal(rdma, connection_id, remote_sync_event, count, 1);
}

/* ---- the same on bufs (doca_buf_arr with a DPA target): the data length is the source buf's ---- */

#define BUF_MMAP(b) doca_dpa_dev_buf_get_mmap(b)
#define BUF_ADDR(b) doca_dpa_dev_buf_get_addr(b)
#define BUF_LEN(b) doca_dpa_dev_buf_get_len(b)

void doca_dpa_dev_rdma_post_buf_read(doca_dpa_dev_rdma_t rdma, uint32_t connection_id, doca_dpa_dev_buf_t dst_buf_handle,
				     doca_dpa_dev_buf_t src_buf_handle, uint32_t flags)
{
	doca_dpa_dev_rdma_post_read(rdma, connection_id, BUF_MMAP(dst_buf_handle), BUF_ADDR(dst_buf_handle),
				    BUF_MMAP(src_buf_handle), BUF_ADDR(src_buf_handle), BUF_LEN(src_buf_handle), flags);
}

void doca_dpa_dev_rdma_post_buf_write(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
				      doca_dpa_dev_buf_t dst_buf_handle, doca_dpa_dev_buf_t src_buf_handle, uint32_t flags)
{
	doca_dpa_dev_rdma_post_write(rdma, connection_id, BUF_MMAP(dst_buf_handle), BUF_ADDR(dst_buf_handle),
				     BUF_MMAP(src_buf_handle), BUF_ADDR(src_buf_handle), BUF_LEN(src_buf_handle), flags);
}

void doca_dpa_dev_rdma_post_buf_write_imm(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
					  doca_dpa_dev_buf_t dst_buf_handle, doca_dpa_dev_buf_t src_buf_handle,
					  uint32_t immediate, uint32_t flags)
{
	doca_dpa_dev_rdma_post_write_imm(rdma, connection_id, BUF_MMAP(dst_buf_handle), BUF_ADDR(dst_buf_handle),
					 BUF_MMAP(src_buf_handle), BUF_ADDR(src_buf_handle), BUF_LEN(src_buf_handle),
					 immediate, flags);
}

void doca_dpa_dev_rdma_post_buf_send(doca_dpa_dev_rdma_t rdma, uint32_t connection_id, doca_dpa_dev_buf_t send_buf_handle,
				     uint32_t flags)
{
	doca_dpa_dev_rdma_post_send(rdma, connection_id, BUF_MMAP(send_buf_handle), BUF_ADDR(send_buf_handle),
				    BUF_LEN(send_buf_handle), flags);
}

void doca_dpa_dev_rdma_post_buf_send_imm(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
					 doca_dpa_dev_buf_t send_buf_handle, uint32_t immediate, uint32_t flags)
{
	doca_dpa_dev_rdma_post_send_imm(rdma, connection_id, BUF_MMAP(send_buf_handle), BUF_ADDR(send_buf_handle),
					BUF_LEN(send_buf_handle), immediate, flags);
}

void doca_dpa_dev_rdma_post_buf_receive(doca_dpa_dev_rdma_t rdma, doca_dpa_dev_buf_t receive_buf_handle)
{
	doca_dpa_dev_rdma_post_receive(rdma, BUF_MMAP(receive_buf_handle), BUF_ADDR(receive_buf_handle),
				       BUF_LEN(receive_buf_handle));
}

void doca_dpa_dev_rdma_post_buf_atomic_fetch_add(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
						 doca_dpa_dev_buf_t dst_buf_handle, uint64_t value, uint32_t flags)
{
	doca_dpa_dev_rdma_post_atomic_fetch_add(rdma, connection_id, BUF_MMAP(dst_buf_handle), BUF_ADDR(dst_buf_handle),
						value, flags);
}

/* Receives are posted one by one (doca_dpa_dev_rdma_post_receive): there is nothing to hand back. */
void doca_dpa_dev_rdma_receive_ack(doca_dpa_dev_rdma_t rdma, uint32_t num_acked)
{
	(void)rdma;
	(void)num_acked;
}

uint32_t doca_dpa_dev_rdma_completion_get_wr_index(doca_dpa_dev_completion_element_t comp_element)
{
	return (uint32_t)softdoca_dpa_dev_host->completion_field(comp_element, SOFTDOCA_DPA_FIELD_WR_INDEX);
}
