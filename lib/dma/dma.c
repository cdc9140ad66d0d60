/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dma: the DMA context and its memcpy task.
 *
 * The library checks and translates; softhw's engine copies. A memcpy gathers the source
 * data segments (a buf list) and appends them after the data segments of the destination
 * list, growing each destination's data_len. Faults a real DMA engine reports at completion
 * (a length of zero, a missing permission, too long a list, too large a buffer) complete the
 * task with an error, and the context then stops ("DMA shall stop in case of error");
 * doca_task_try_submit refuses the same tasks up front. A buffer in memory another process
 * exported carries that mmap's fabric handle in its segment: the engine reaches it from here.
 */
#include <string.h>

#include "doca_buf.h"
#include "doca_dma.h"
#include "common/priv/buf_priv.h"
#include "common/priv/ctx_priv.h"
#include "common/priv/dev_priv.h"
#include "common/priv/mmap_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DMA);

/* Upper bound of any profile's buf-list length; sizes the per-task scatter/gather arrays. */
#define DMA_MAX_SGE 32

enum { DMA_TASK_MEMCPY = 0 };

struct doca_dma {
	struct doca_ctx ctx; /* first: doca_dma_as_ctx and the ops receive it */
	struct doca_dev *dev;
	const struct softhw_caps *caps;
};

struct doca_dma_task_memcpy {
	struct doca_task base; /* first: doca_dma_task_memcpy_as_task */
	const struct doca_buf *src;
	struct doca_buf *dst;
	struct softhw_sge src_sge[DMA_MAX_SGE];
	struct softhw_sge dst_sge[DMA_MAX_SGE];
};

static inline struct doca_dma *ctx_to_dma(struct doca_ctx *ctx)
{
	return (struct doca_dma *)ctx;
}

static uint32_t max_list_len(const struct softhw_caps *caps)
{
	return caps->dma_max_buf_list_len < DMA_MAX_SGE ? caps->dma_max_buf_list_len : DMA_MAX_SGE;
}

/* ---- task checks: what the engine would fault on ---- */

/*
 * Memory of another process is reachable over PCI only (an export_pci descriptor), and an
 * import ends when its exporter stops (the exporter may free the memory then).
 */
static doca_error_t reachable(const struct doca_mmap *m, const char *what)
{
	if (!softdoca_mmap_import_live(m)) {
		SDK_LOG_ERR("DMA memcpy %s is in an imported mmap whose exporter stopped or destroyed its mmap; "
			    "export the memory again and import the new descriptor",
			    what);
		return DOCA_ERROR_IO_FAILED;
	}
	if (!m->other_process || m->remote != NULL)
		return DOCA_SUCCESS;
	SDK_LOG_ERR("DMA memcpy %s is memory of another process imported from an RDMA export; the DMA engine "
		    "reaches another process's memory over PCI only: export it with doca_mmap_export_pci()",
		    what);
	return DOCA_ERROR_NOT_SUPPORTED;
}

static doca_error_t check_memcpy(const struct doca_dma_task_memcpy *t, const struct doca_dma *dma)
{
	const struct softhw_caps *caps = dma->caps;
	uint32_t n = 0, limit = max_list_len(caps);
	uint64_t total = 0, room = 0;
	doca_error_t err;

	if (t->src == NULL || t->dst == NULL) {
		SDK_LOG_ERR("DMA memcpy task has no %s buffer; set it with doca_dma_task_memcpy_set_%s()",
			    t->src == NULL ? "source" : "destination", t->src == NULL ? "src" : "dst");
		return DOCA_ERROR_INVALID_VALUE;
	}
	for (const struct doca_buf *b = t->src; b != NULL; b = b->next) {
		if (++n > limit) {
			SDK_LOG_ERR("DMA memcpy source list is longer than the device's %u buffers (see "
				    "doca_dma_cap_task_memcpy_get_max_buf_list_len()); chain fewer buffers",
				    limit);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (b->data_len > caps->dma_max_buf_size) {
			SDK_LOG_ERR("DMA memcpy source buffer holds %zu bytes, more than the device's maximum of "
				    "%lu (see doca_dma_cap_task_memcpy_get_max_buf_size()); split the copy",
				    b->data_len, (unsigned long)caps->dma_max_buf_size);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!softdoca_mmap_local_readable(b->mmap)) {
			SDK_LOG_ERR("DMA memcpy source memory is not readable by the DMA engine; export it with "
				    "DOCA_ACCESS_FLAG_PCI_READ_ONLY or DOCA_ACCESS_FLAG_PCI_READ_WRITE");
			return DOCA_ERROR_NOT_PERMITTED;
		}
		err = reachable(b->mmap, "source");
		if (err != DOCA_SUCCESS)
			return err;
		total += b->data_len;
	}
	if (total == 0) {
		SDK_LOG_ERR("DMA memcpy source holds no data (data_len 0); set the data segment with "
			    "doca_buf_set_data() or take the buffer with doca_buf_inventory_buf_get_by_data()");
		return DOCA_ERROR_INVALID_VALUE;
	}
	n = 0;
	for (const struct doca_buf *b = t->dst; b != NULL; b = b->next) {
		if (++n > limit) {
			SDK_LOG_ERR("DMA memcpy destination list is longer than the device's %u buffers (see "
				    "doca_dma_cap_task_memcpy_get_max_buf_list_len()); chain fewer buffers",
				    limit);
			return DOCA_ERROR_INVALID_VALUE;
		}
		if (!softdoca_mmap_local_writable(b->mmap)) {
			SDK_LOG_ERR("DMA memcpy destination memory is not writable; give its mmap %s with "
				    "doca_mmap_set_permissions()",
				    b->mmap->from_export ? "DOCA_ACCESS_FLAG_PCI_READ_WRITE (exporter side)"
							 : "DOCA_ACCESS_FLAG_LOCAL_READ_WRITE or DOCA_ACCESS_FLAG_PCI_READ_WRITE");
			return DOCA_ERROR_NOT_PERMITTED;
		}
		err = reachable(b->mmap, "destination");
		if (err != DOCA_SUCCESS)
			return err;
		/* Saturate: huge (virtual) ranges must not wrap the sum and pass the size check. */
		room = room + softdoca_buf_tailroom(b) < room ? UINT64_MAX : room + softdoca_buf_tailroom(b);
	}
	if (total > room) {
		SDK_LOG_ERR("DMA memcpy destination has room for %lu bytes after its data, the source holds %lu; "
			    "use a larger destination or reset its data length with doca_buf_reset_data_len()",
			    (unsigned long)room, (unsigned long)total);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t dma_check(struct doca_task *task)
{
	return check_memcpy((struct doca_dma_task_memcpy *)task, ctx_to_dma(task->ctx));
}

/* Builds the engine's copy request: source data segments into destination tailrooms. */
static doca_error_t dma_prepare(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	doca_error_t fault = check_memcpy(t, ctx_to_dma(task->ctx));
	uint32_t ns = 0, nd = 0;

	if (fault != DOCA_SUCCESS) {
		task->work.op = SOFTHW_OP_FAIL; /* the engine reports it at completion */
		task->work.status = fault;
		return DOCA_SUCCESS;
	}
	for (const struct doca_buf *b = t->src; b != NULL; b = b->next)
		t->src_sge[ns++] = (struct softhw_sge){.addr = b->data, .len = b->data_len, .remote = b->mmap->remote};
	for (struct doca_buf *b = t->dst; b != NULL; b = b->next)
		t->dst_sge[nd++] = (struct softhw_sge){.addr = (char *)b->data + b->data_len,
						       .len = softdoca_buf_tailroom(b),
						       .remote = b->mmap->remote};
	task->work.op = SOFTHW_OP_COPY;
	task->work.copy.src = t->src_sge;
	task->work.copy.nsrc = ns;
	task->work.copy.dst = t->dst_sge;
	task->work.copy.ndst = nd;
	return DOCA_SUCCESS;
}

/* The copied bytes now belong to the destination data segments, filled in list order. */
static void dma_complete(struct doca_task *task)
{
	struct doca_dma_task_memcpy *t = (struct doca_dma_task_memcpy *)task;
	uint64_t left = task->work.result_len;

	for (struct doca_buf *b = t->dst; b != NULL && left > 0; b = b->next) {
		size_t room = softdoca_buf_tailroom(b);
		size_t take = left < room ? (size_t)left : room;

		b->data_len += take;
		left -= take;
	}
}

static const struct softdoca_ctx_ops dma_ops = {
	.name = "DMA",
	.check = dma_check,
	.prepare = dma_prepare,
	.complete = dma_complete,
	.stop_on_error = true,
};

/* ---- context ---- */

doca_error_t doca_dma_create(struct doca_dev *dev, struct doca_dma **dma)
{
	struct doca_dma *d;

	if (dev == NULL || dma == NULL) {
		SDK_LOG_ERR("Failed to create DMA context: %s is NULL", dev == NULL ? "dev" : "dma output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_dev_caps(dev)->dma_memcpy) {
		SDK_LOG_ERR("Failed to create DMA context: device %s has no DMA engine (check "
			    "doca_dma_cap_task_memcpy_is_supported() when choosing the device)",
			    dev->devinfo->fn->pci_addr);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		SDK_LOG_ERR("Failed to create DMA context: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	softdoca_ctx_init(&d->ctx, dev, &dma_ops);
	d->ctx.queue.faults = dev->devinfo->fn->card->faults; /* faults.dma_error, if the card has it */
	d->dev = dev;
	d->caps = softdoca_dev_caps(dev);
	*dma = d;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_destroy(struct doca_dma *dma)
{
	if (dma == NULL) {
		SDK_LOG_ERR("Failed to destroy DMA context: dma is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dma->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to destroy DMA context: it is not idle; call doca_ctx_stop() and progress "
			    "the PE until the context is IDLE");
		return DOCA_ERROR_IN_USE;
	}
	softdoca_ctx_fini(&dma->ctx);
	free(dma);
	return DOCA_SUCCESS;
}

struct doca_ctx *doca_dma_as_ctx(struct doca_dma *dma)
{
	return dma != NULL ? &dma->ctx : NULL;
}

doca_error_t doca_dma_cap_task_memcpy_is_supported(const struct doca_devinfo *devinfo)
{
	if (devinfo == NULL) {
		SDK_LOG_ERR("DMA capability query: devinfo is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return softdoca_devinfo_caps(devinfo)->dma_memcpy ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_dma_cap_get_max_num_tasks(struct doca_dma *dma, uint32_t *max_num_tasks)
{
	if (dma == NULL || max_num_tasks == NULL) {
		SDK_LOG_ERR("DMA capability query: %s is NULL", dma == NULL ? "dma" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*max_num_tasks = dma->caps->dma_max_num_tasks;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_cap_task_memcpy_get_max_buf_list_len(const struct doca_devinfo *devinfo,
							   uint32_t *max_buf_list_len)
{
	if (devinfo == NULL || max_buf_list_len == NULL) {
		SDK_LOG_ERR("DMA capability query: %s is NULL", devinfo == NULL ? "devinfo" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_devinfo_caps(devinfo)->dma_memcpy)
		return DOCA_ERROR_NOT_SUPPORTED;
	*max_buf_list_len = max_list_len(softdoca_devinfo_caps(devinfo));
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_cap_task_memcpy_get_max_buf_size(const struct doca_devinfo *devinfo, uint64_t *buf_size)
{
	if (devinfo == NULL || buf_size == NULL) {
		SDK_LOG_ERR("DMA capability query: %s is NULL", devinfo == NULL ? "devinfo" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_devinfo_caps(devinfo)->dma_memcpy)
		return DOCA_ERROR_NOT_SUPPORTED;
	*buf_size = softdoca_devinfo_caps(devinfo)->dma_max_buf_size;
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_task_memcpy_set_conf(struct doca_dma *dma, doca_dma_task_memcpy_completion_cb_t task_completion_cb,
					   doca_dma_task_memcpy_completion_cb_t task_error_cb, uint32_t num_memcpy_tasks)
{
	doca_error_t err;

	if (dma == NULL || task_completion_cb == NULL || task_error_cb == NULL) {
		SDK_LOG_ERR("Failed to configure DMA memcpy tasks: %s is NULL",
			    dma == NULL ? "dma" : (task_completion_cb == NULL ? "completion callback" : "error callback"));
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (dma->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDK_LOG_ERR("Failed to configure DMA memcpy tasks: context is not idle; call "
			    "doca_dma_task_memcpy_set_conf() before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	if (num_memcpy_tasks == 0 || num_memcpy_tasks > dma->caps->dma_max_num_tasks) {
		SDK_LOG_ERR("Failed to configure DMA memcpy tasks: %u tasks requested, the device allows 1 to %u "
			    "(doca_dma_cap_get_max_num_tasks())",
			    num_memcpy_tasks, dma->caps->dma_max_num_tasks);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (softdoca_ctx_tasks_configured(&dma->ctx, DMA_TASK_MEMCPY) && dma->ctx.pools[DMA_TASK_MEMCPY].allocated) {
		SDK_LOG_ERR("Failed to configure DMA memcpy tasks: tasks of the previous configuration are still "
			    "allocated; free them with doca_task_free() first");
		return DOCA_ERROR_IN_USE;
	}
	err = softdoca_ctx_conf_tasks(&dma->ctx, DMA_TASK_MEMCPY, "memcpy", sizeof(struct doca_dma_task_memcpy),
				      (doca_task_completion_cb_t)task_completion_cb,
				      (doca_task_completion_cb_t)task_error_cb, num_memcpy_tasks);
	if (err != DOCA_SUCCESS)
		SDK_LOG_ERR("Failed to configure DMA memcpy tasks: out of memory for %u tasks", num_memcpy_tasks);
	return err;
}

doca_error_t doca_dma_task_memcpy_alloc_init(struct doca_dma *dma, const struct doca_buf *src, struct doca_buf *dst,
					     union doca_data user_data, struct doca_dma_task_memcpy **task)
{
	struct doca_dma_task_memcpy *t;

	if (dma == NULL || task == NULL) {
		SDK_LOG_ERR("Failed to allocate DMA memcpy task: %s is NULL", dma == NULL ? "dma" : "task output pointer");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!softdoca_ctx_tasks_configured(&dma->ctx, DMA_TASK_MEMCPY)) {
		SDK_LOG_ERR("Failed to allocate DMA memcpy task: memcpy tasks are not configured; call "
			    "doca_dma_task_memcpy_set_conf() before doca_ctx_start()");
		return DOCA_ERROR_BAD_STATE;
	}
	t = (struct doca_dma_task_memcpy *)softdoca_task_alloc(&dma->ctx, DMA_TASK_MEMCPY, user_data);
	if (t == NULL) {
		SDK_LOG_DBG("Failed to allocate DMA memcpy task: all %u tasks are in use; free tasks with "
			    "doca_task_free() or configure more in doca_dma_task_memcpy_set_conf()",
			    dma->ctx.pools[DMA_TASK_MEMCPY].capacity);
		return DOCA_ERROR_NO_MEMORY;
	}
	t->src = src;
	t->dst = dst;
	*task = t;
	return DOCA_SUCCESS;
}

struct doca_task *doca_dma_task_memcpy_as_task(struct doca_dma_task_memcpy *task)
{
	return task != NULL ? &task->base : NULL;
}

void doca_dma_task_memcpy_set_src(struct doca_dma_task_memcpy *task, const struct doca_buf *src)
{
	if (task != NULL)
		task->src = src;
}

const struct doca_buf *doca_dma_task_memcpy_get_src(const struct doca_dma_task_memcpy *task)
{
	return task != NULL ? task->src : NULL;
}

void doca_dma_task_memcpy_set_dst(struct doca_dma_task_memcpy *task, struct doca_buf *dst)
{
	if (task != NULL)
		task->dst = dst;
}

struct doca_buf *doca_dma_task_memcpy_get_dst(const struct doca_dma_task_memcpy *task)
{
	return task != NULL ? task->dst : NULL;
}

/* The soft engine executes a context's copies one after the other and completes each before the
 * next, so completions always come in submission order: both settings hold without a change. */
doca_error_t doca_dma_set_ordered_completions(struct doca_dma *dma, uint8_t ordered)
{
	(void)ordered;
	if (dma == NULL) {
		SDK_LOG_ERR("Failed to set DMA ordered completions: dma is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t doca_dma_get_gpu_handle(struct doca_dma *dma, struct doca_gpu_dma **gpu_dma)
{
	(void)gpu_dma;
	if (dma == NULL) {
		SDK_LOG_ERR("Failed to get DMA GPU handle: dma is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("Failed to get DMA GPU handle: softdoca emulates no GPU (docs/compatibility.md)");
	return DOCA_ERROR_NOT_SUPPORTED;
}
