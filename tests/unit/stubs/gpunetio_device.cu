/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Compile check of doca-gpunetio's CUDA device headers (check_cuda_headers.sh builds it with
 * nvcc): one kernel per header calls every device function the way NVIDIA's 3.3 GPUNetIO samples
 * and applications do (template arguments given, defaulted, every execution scope), so a
 * declaration that does not fit those calls stops the build. Nothing runs: there is no GPU.
 */
#include <doca_gpunetio.h>
#include <doca_gpunetio_dev_buf.cuh>
#include <doca_gpunetio_dev_dma.cuh>
#include <doca_gpunetio_dev_rdma.cuh>
#include <doca_gpunetio_dev_sem.cuh>
#include <doca_gpunetio_dev_eth_rxq.cuh>
#include <doca_gpunetio_dev_eth_txq.cuh>
#include <doca_gpunetio_dev_verbs_qp.cuh>
#include <doca_gpunetio_dev_verbs_cq.cuh>
#include <doca_gpunetio_dev_verbs_onesided.cuh>
#include <doca_gpunetio_dev_verbs_twosided.cuh>
#include <doca_gpunetio_dev_verbs_counter.cuh>
#include <doca_gpunetio_dev_comch.cuh>

__global__ void buf_dma_rdma_sem(struct doca_gpu_buf_arr *arr, struct doca_gpu_dma *dma, struct doca_gpu_dev_rdma *rdma,
				 struct doca_gpu_semaphore_gpu *sem, uint32_t *out)
{
	struct doca_gpu_buf *a, *b;
	struct doca_gpu_dev_rdma_r *r;
	uintptr_t addr;
	uint32_t mkey, n, imm[2], conn[2];
	uint8_t inl[4] = {0};
	enum doca_gpu_semaphore_status st;
	void *info;
	doca_error_t e = DOCA_SUCCESS;

	e = (doca_error_t)(e | doca_gpu_dev_buf_get_buf(arr, threadIdx.x, &a));
	e = (doca_error_t)(e | doca_gpu_dev_buf_get_buf(arr, 0, &b));
	e = (doca_error_t)(e | doca_gpu_dev_buf_get_addr(a, &addr));
	e = (doca_error_t)(e | doca_gpu_dev_buf_get_mkey(a, &mkey));
	e = (doca_error_t)(e | doca_gpu_dev_dma_memcpy(dma, a, 0, b, 0, 64));
	e = (doca_error_t)(e | doca_gpu_dev_dma_commit(dma));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_write_strong(rdma, 0, b, 0, a, 0, 64, 1, DOCA_GPU_RDMA_WRITE_FLAG_IMM));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_send_strong(rdma, 0, a, 0, 64, 1, DOCA_GPU_RDMA_SEND_FLAG_IMM));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_write_inline_strong(rdma, 0, b, 0, inl, sizeof(inl), 0, DOCA_GPU_RDMA_WRITE_FLAG_NONE));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_write_inline_weak(rdma, 0, b, 0, inl, sizeof(inl), 0, DOCA_GPU_RDMA_WRITE_FLAG_NONE, 0));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_commit_strong(rdma, 0));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_commit_weak(rdma, 0, 1));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_wait_all(rdma, &n));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_get_recv(rdma, &r));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_recv_strong(r, NULL, 0, 0, 0));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_recv_commit_strong(r));
	e = (doca_error_t)(e | doca_gpu_dev_rdma_recv_wait_all(r, DOCA_GPU_RDMA_RECV_WAIT_FLAG_B, &n, imm, conn));
	e = (doca_error_t)(e | doca_gpu_dev_semaphore_get_status(sem, 0, &st));
	e = (doca_error_t)(e | doca_gpu_dev_semaphore_get_custom_info_addr(sem, 0, &info));
	e = (doca_error_t)(e | doca_gpu_dev_semaphore_set_status(sem, 0, DOCA_GPU_SEMAPHORE_STATUS_READY));
	*out = (uint32_t)e + mkey + (uint32_t)addr + n + (uint32_t)st;
}

__global__ void comch(struct doca_comch_gpu_consumer *consumer, struct doca_comch_gpu_producer *producer, uint64_t *out)
{
	uint32_t mkey = 0, len = 0;
	uintptr_t addr = 0;
	uint64_t id = 0;
	doca_error_t e;

	e = doca_dev_gpu_comch_consumer_post_recv(consumer, mkey, addr, 4096);
	e = doca_dev_gpu_comch_consumer_recv_wait(consumer, &mkey, &addr, &len, nullptr, nullptr, DOCA_GPU_COMCH_WAIT_FLAG_NB);
	e = doca_dev_gpu_comch_producer_send(producer, mkey, addr, len, nullptr, 0, 1, id);
	e = doca_dev_gpu_comch_producer_poll(producer, &id, DOCA_GPU_COMCH_WAIT_FLAG_NB);
	*out = e + id;
}

template <enum doca_gpu_dev_eth_exec_scope scope>
__global__ void eth(struct doca_gpu_eth_rxq *rxq, struct doca_gpu_eth_txq *txq, uint64_t *out)
{
	__shared__ struct doca_gpu_dev_eth_rxq_attr attr[32];
	__shared__ uint64_t first;
	__shared__ uint32_t num;
	doca_gpu_dev_eth_ticket_t ticket;
	struct doca_gpu_dev_eth_txq_wqe *wqe;
	uint32_t done;
	doca_error_t e;

	e = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_AUTO, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO,
				      DOCA_GPUNETIO_ETH_RX_ATTR_ALL>(rxq, 32, 1000, &first, &num, attr);
	e = doca_gpu_dev_eth_rxq_recv<scope, DOCA_GPUNETIO_ETH_MCST_AUTO, DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO>(
		rxq, 32, 1000, &first, &num, NULL);
	e = doca_gpu_dev_eth_txq_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_ETH_SYNC_SCOPE_GPU,
				      DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, scope>(
		txq, doca_gpu_dev_eth_rxq_get_pkt_addr(rxq, first), doca_gpu_dev_eth_rxq_get_pkt_mkey(rxq),
		attr[0].bytes, DOCA_GPUNETIO_ETH_SEND_FLAG_NOTIFY, &ticket);
	e = doca_gpu_dev_eth_txq_wait_send<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_CTA, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA,
					   DOCA_GPUNETIO_ETH_NIC_HANDLER_AUTO, scope>(
		txq, attr[0].timestamp_ns, 0, 0, 64, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE, &ticket);
	e = doca_gpu_dev_eth_txq_poll_completion<DOCA_GPUNETIO_ETH_CQ_POLL_LAST>(txq, 1, DOCA_GPUNETIO_ETH_WAIT_FLAG_B, &done);
	wqe = doca_gpu_dev_eth_txq_get_wqe_ptr(txq, threadIdx.x);
	e = doca_gpu_dev_eth_txq_wqe_prepare_send(txq, wqe, threadIdx.x, 0, 0, 64, DOCA_GPUNETIO_ETH_SEND_FLAG_NONE);
	doca_gpu_dev_eth_txq_submit(txq, threadIdx.x + 1);
	e = doca_gpu_dev_eth_txq_poll_completion_at<DOCA_GPUNETIO_ETH_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_ETH_SYNC_SCOPE_CTA>(
		txq, 0, DOCA_GPUNETIO_ETH_WAIT_FLAG_B);
	*out = ticket + done + e + doca_gpu_dev_eth_get_lane_id() + DOCA_GPUNETIO_VOLATILE(num);
}

template <enum doca_gpu_dev_verbs_exec_scope scope>
__global__ void verbs(struct doca_gpu_dev_verbs_qp *qp, struct doca_gpu_dev_verbs_qp *companion, uint64_t *flag, uint64_t *out)
{
	struct doca_gpu_dev_verbs_addr ra = {.addr = 0, .key = 0}, la = {.addr = 0, .key = 0};
	doca_gpu_dev_verbs_ticket_t ticket;
	struct doca_gpu_dev_verbs_cq *cq = doca_gpu_dev_verbs_qp_get_cq_sq(qp);
	struct doca_gpu_dev_verbs_wqe *wqe;
	struct mlx5_cqe64 *cqe;
	uint64_t idx;
	int r;

	doca_gpu_dev_verbs_put<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, scope>(
		qp, ra, la, 64, &ticket);
	doca_gpu_dev_verbs_put(qp, ra, la, 64);
	doca_gpu_dev_verbs_p<uint64_t>(qp, ra, (uint64_t)1);
	doca_gpu_dev_verbs_get<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, scope,
			       DOCA_GPUNETIO_VERBS_MCST_DISABLED>(qp, ra, la, 64, doca_gpu_dev_verbs_addr{.addr = 0, .key = 0}, &ticket);
	doca_gpu_dev_verbs_get_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
				    DOCA_GPUNETIO_VERBS_MCST_ENABLED>(qp, la);
	doca_gpu_dev_verbs_put_signal<DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU,
				      DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, scope>(qp, ra, la, (size_t)64, ra, la, (uint64_t)1);
	doca_gpu_dev_verbs_put_signal<DOCA_GPUNETIO_VERBS_SIGNAL_OP_ADD, DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_EXCLUSIVE,
				      DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>(qp, ra, la, (size_t)64, ra, la, (uint64_t)1, &ticket);
	doca_gpu_dev_verbs_put_counter<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, scope>(
		qp, ra, la, (size_t)64, companion, ra, la, (uint64_t)1);
	doca_gpu_dev_verbs_send<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, scope>(
		qp, la, 64, &ticket);
	doca_gpu_dev_verbs_recv<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, scope>(
		qp, la, 64, &ticket);
	doca_gpu_dev_verbs_recv_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
				     DOCA_GPUNETIO_VERBS_MCST_ENABLED>(qp, la, &cqe);
	doca_gpu_dev_verbs_recv_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO,
				     DOCA_GPUNETIO_VERBS_MCST_DISABLED>(qp, la, &ticket, &cqe);
	r = doca_gpu_dev_verbs_cqe_is_inline(cqe) + (int)doca_gpu_dev_verbs_cqe_get_bytes(cqe) +
	    doca_gpu_dev_verbs_cqe_get_inl_data(cqe)[0];
	idx = doca_gpu_dev_verbs_reserve_wq_slots(qp, 1);
	idx += doca_gpu_dev_verbs_atomic_read<uint64_t, DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(&qp->sq_wqe_pi);
	wqe = doca_gpu_dev_verbs_get_wqe_ptr(qp, idx & qp->sq_wqe_mask);
	doca_gpu_dev_verbs_wqe_prepare_write(qp, wqe, idx, DOCA_GPUNETIO_MLX5_OPCODE_RDMA_WRITE,
					     DOCA_GPUNETIO_MLX5_WQE_CTRL_CQ_UPDATE, 0, ra.addr, ra.key, la.addr, la.key, 64);
	doca_gpu_dev_verbs_mark_wqes_ready(qp, idx, idx);
	doca_gpu_dev_verbs_submit(qp, idx + 1);
	doca_gpu_dev_verbs_submit<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(qp, idx + 1);
	r += doca_gpu_dev_verbs_poll_cq_at<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU>(cq, ticket);
	r += doca_gpu_dev_verbs_poll_cq_at(cq, cq->cqe_ci & cq->cqe_mask);
	doca_gpu_dev_verbs_fence_acquire<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_SYS>();
	doca_gpu_dev_verbs_fence_release<DOCA_GPUNETIO_VERBS_SYNC_SCOPE_CTA>();
	r += doca_gpu_dev_verbs_wait<DOCA_GPUNETIO_VERBS_RESOURCE_SHARING_MODE_GPU, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO>(qp);
	r += doca_gpu_dev_verbs_wait(companion);
	*out = r + idx + DOCA_GPUNETIO_VOLATILE(flag[0]) + doca_gpu_dev_verbs_get_lane_id() +
	       doca_gpu_dev_verbs_query_globaltimer();
}

/* one instance per execution scope, as the samples launch them */
template __global__ void eth<DOCA_GPUNETIO_ETH_EXEC_SCOPE_THREAD>(struct doca_gpu_eth_rxq *, struct doca_gpu_eth_txq *, uint64_t *);
template __global__ void eth<DOCA_GPUNETIO_ETH_EXEC_SCOPE_WARP>(struct doca_gpu_eth_rxq *, struct doca_gpu_eth_txq *, uint64_t *);
template __global__ void eth<DOCA_GPUNETIO_ETH_EXEC_SCOPE_BLOCK>(struct doca_gpu_eth_rxq *, struct doca_gpu_eth_txq *, uint64_t *);
template __global__ void verbs<DOCA_GPUNETIO_VERBS_EXEC_SCOPE_THREAD>(struct doca_gpu_dev_verbs_qp *, struct doca_gpu_dev_verbs_qp *, uint64_t *, uint64_t *);
template __global__ void verbs<DOCA_GPUNETIO_VERBS_EXEC_SCOPE_WARP>(struct doca_gpu_dev_verbs_qp *, struct doca_gpu_dev_verbs_qp *, uint64_t *, uint64_t *);
