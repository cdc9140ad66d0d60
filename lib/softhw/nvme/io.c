/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw nvme I/O: the namespace's backing store (a file, a block device or a memfd), PRP
 * walking, and Read / Write / Flush / Write Zeroes / Dataset Management on the command's
 * io_uring: the controller's, or its SQ owner's (nvme_priv.h).
 *
 * Reads and writes whose buffers and offsets suit the store's direct-I/O alignment go to an
 * O_DIRECT descriptor, others to a buffered one (Linux keeps the two coherent: direct I/O
 * writes back and drops cached pages of its range first). Zeroing tries
 * FALLOC_FL_ZERO_RANGE, then FALLOC_FL_PUNCH_HOLE (a memfd has only that), then writes zeroes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <unistd.h>

#include "nvme_priv.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SOFTHW_NVME_IO);

#define SCT_G SOFTDOCA_NVME_SCT_GENERIC
#define SCT_M SOFTDOCA_NVME_SCT_MEDIA
#define DSM_MAX_RANGES 256

enum op_kind { OP_READ, OP_WRITE, OP_FLUSH, OP_ZERO };

/* Direct-I/O alignment of fd: statx's when the kernel reports it, else the logical block. */
static void dio_align(struct nvme_ctrl *c)
{
#ifdef STATX_DIOALIGN
	struct statx sx;

	if (statx(c->dfd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
	    sx.stx_dio_mem_align != 0) {
		c->dio_mem_align = sx.stx_dio_mem_align;
		c->dio_off_align = sx.stx_dio_offset_align;
		return;
	}
#endif
	c->dio_mem_align = c->dio_off_align = NVME_PAGE;
}

/*
 * A store in memory (a memory disk, a file on tmpfs): a Read or Write is a copy that never
 * waits for a device, yet io_uring cannot complete it inline (shmem takes no non-blocking
 * reads or writes) and hands every one to an io-wq worker, a thread hop and a wake-up per
 * command (3-4 us of CPU per 4 KiB command on the development VM). Such a store is read and
 * written with preadv2 / pwritev2 by the thread that submits (the controller thread, or an
 * owner's progress). SOFTDOCA_NVME_INLINE=0 keeps io_uring.
 */
#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif
static bool inline_store(const struct nvme_ctrl *c)
{
	const char *v = getenv("SOFTDOCA_NVME_INLINE");
	struct statfs sf;

	if (v != NULL && v[0] == '0')
		return false;
	return c->is_mem || (!c->is_bdev && fstatfs(c->fd, &sf) == 0 && sf.f_type == TMPFS_MAGIC);
}

doca_error_t nvme_backing_open(struct nvme_ctrl *c, const struct softdoca_nvme_disk_attr *attr)
{
	uint64_t size = attr->size;
	struct stat st;

	c->block_size = attr->block_size;
	c->lba_shift = attr->block_size == 512 ? 9 : 12;
	if (getrandom(c->nguid, sizeof(c->nguid), 0) != sizeof(c->nguid))
		memset(c->nguid, 0x5d, sizeof(c->nguid));
	if (attr->path == NULL) {
		c->is_mem = true;
		c->fd = memfd_create("softdoca-nvme", MFD_CLOEXEC);
		if (c->fd < 0 || size == 0 || ftruncate(c->fd, (off_t)size) != 0) {
			SDK_LOG_ERR("soft NVMe open: a memory disk of %llu bytes: %s", (unsigned long long)size,
				    size == 0 ? "size 0" : strerror(errno));
			return size == 0 ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_NO_MEMORY;
		}
	} else {
		c->fd = open(attr->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (c->fd < 0 || fstat(c->fd, &st) != 0) {
			SDK_LOG_ERR("soft NVMe open: %s: %s", attr->path, strerror(errno));
			return DOCA_ERROR_NOT_FOUND;
		}
		c->is_bdev = S_ISBLK(st.st_mode);
		if (c->is_bdev) {
			uint64_t bytes = 0;

			if (ioctl(c->fd, BLKGETSIZE64, &bytes) != 0) {
				SDK_LOG_ERR("soft NVMe open: %s: BLKGETSIZE64: %s", attr->path, strerror(errno));
				return DOCA_ERROR_OPERATING_SYSTEM;
			}
			if (size == 0 || size > bytes)
				size = bytes;
		} else if (size == 0) {
			size = (uint64_t)st.st_size;
		} else if ((uint64_t)st.st_size < size && ftruncate(c->fd, (off_t)size) != 0) {
			SDK_LOG_ERR("soft NVMe open: %s: cannot grow to %llu bytes: %s", attr->path,
				    (unsigned long long)size, strerror(errno));
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		c->dfd = open(attr->path, O_RDWR | O_DIRECT | O_CLOEXEC);
		if (c->dfd >= 0)
			dio_align(c);
		else
			SDK_LOG_INFO("soft NVMe open: %s: no O_DIRECT (%s); all I/O is buffered", attr->path,
				     strerror(errno));
	}
	c->inline_rw = inline_store(c);
	c->num_blocks = size >> c->lba_shift;
	if (c->num_blocks == 0) {
		SDK_LOG_ERR("soft NVMe open: %llu bytes hold no %u-byte block", (unsigned long long)size, c->block_size);
		return DOCA_ERROR_INVALID_VALUE;
	}
	nvme_map_open(c, attr->path);
	return DOCA_SUCCESS;
}

void nvme_backing_close(struct nvme_ctrl *c)
{
	nvme_map_close(c);
	if (c->dfd >= 0)
		close(c->dfd);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = c->dfd = -1;
}

/* Appends [addr, addr + len) to the command's iovec, merging with the last one when adjacent. */
static void iov_add(struct nvme_cmd *cmd, uint64_t addr, uint64_t len)
{
	struct iovec *last = cmd->niov > 0 ? &cmd->iov[cmd->niov - 1] : NULL;

	if (last != NULL && (uintptr_t)last->iov_base + last->iov_len == addr) {
		last->iov_len += len;
		return;
	}
	cmd->iov[cmd->niov].iov_base = (void *)(uintptr_t)addr;
	cmd->iov[cmd->niov].iov_len = len;
	cmd->niov++;
}

int nvme_prp_map(struct nvme_cmd *cmd, uint64_t len)
{
	uint64_t prp1 = cmd->sqe.prp1, prp2 = cmd->sqe.prp2;
	uint64_t first = NVME_PAGE - (prp1 & (NVME_PAGE - 1));
	const uint64_t *list;
	unsigned idx, per_page;

	cmd->niov = 0;
	if (len == 0)
		return 0;
	if (prp1 == 0 || (prp1 & 3) != 0) {
		SDK_LOG_ERR("NVMe cid %u: PRP1 0x%llx is null or not dword aligned", cmd->sqe.cid, (unsigned long long)prp1);
		return NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET);
	}
	if (len > NVME_MAX_XFER) {
		SDK_LOG_ERR("NVMe cid %u: %llu bytes exceed the %u-byte transfer limit (MDTS)", cmd->sqe.cid,
			    (unsigned long long)len, NVME_MAX_XFER);
		return NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
	}
	if (len <= first) {
		iov_add(cmd, prp1, len);
		return 0;
	}
	iov_add(cmd, prp1, first);
	len -= first;
	if (prp2 == 0) {
		SDK_LOG_ERR("NVMe cid %u: the transfer needs PRP2, which is null", cmd->sqe.cid);
		return NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_DATA_TRANSFER_ERROR);
	}
	if (len <= NVME_PAGE) {
		/* PRP2 is the second (last) page itself */
		if ((prp2 & (NVME_PAGE - 1)) != 0)
			goto bad_entry;
		iov_add(cmd, prp2, len);
		return 0;
	}
	/* PRP2 points into a list; the last entry of a list page chains to the next page */
	if ((prp2 & 7) != 0) {
		SDK_LOG_ERR("NVMe cid %u: PRP list pointer 0x%llx is not qword aligned", cmd->sqe.cid,
			    (unsigned long long)prp2);
		return NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET);
	}
	list = (const uint64_t *)(uintptr_t)prp2;
	per_page = (unsigned)((NVME_PAGE - (prp2 & (NVME_PAGE - 1))) / 8);
	idx = 0;
	while (len > 0) {
		uint64_t e = list[idx];

		if (idx == per_page - 1 && len > NVME_PAGE) {
			/*
			 * A list entry, so page aligned (only PRP2 has an offset): the next page holds a
			 * whole list. One at a page's last qword would be a chain alone, maybe to itself.
			 */
			if (e == 0 || (e & (NVME_PAGE - 1)) != 0)
				goto bad_list;
			list = (const uint64_t *)(uintptr_t)e;
			per_page = NVME_PAGE / 8;
			idx = 0;
			continue;
		}
		if (e == 0 || (e & (NVME_PAGE - 1)) != 0) {
			prp2 = e;
			goto bad_entry;
		}
		iov_add(cmd, e, len < NVME_PAGE ? len : NVME_PAGE);
		len -= len < NVME_PAGE ? len : NVME_PAGE;
		idx++;
	}
	return 0;
bad_entry:
	SDK_LOG_ERR("NVMe cid %u: PRP entry 0x%llx is null or not page aligned", cmd->sqe.cid, (unsigned long long)prp2);
	return NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET);
bad_list:
	SDK_LOG_ERR("NVMe cid %u: PRP list chain pointer is null or not page aligned", cmd->sqe.cid);
	return NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INVALID_PRP_OFFSET);
}

void nvme_iov_copy(struct nvme_cmd *cmd, void *buf, size_t len, bool to_host)
{
	uint8_t *p = buf;

	for (int i = 0; i < cmd->niov && len > 0; i++) {
		size_t n = cmd->iov[i].iov_len < len ? cmd->iov[i].iov_len : len;

		if (to_host)
			memcpy(cmd->iov[i].iov_base, p, n);
		else
			memcpy(p, cmd->iov[i].iov_base, n);
		p += n;
		len -= n;
	}
}

static bool direct_ok(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	if (c->dfd < 0 || (cmd->off % c->dio_off_align) != 0)
		return false;
	for (int i = 0; i < cmd->niov; i++)
		if (((uintptr_t)cmd->iov[i].iov_base % c->dio_mem_align) != 0 ||
		    (cmd->iov[i].iov_len % c->dio_off_align) != 0)
			return false;
	return true;
}

/* No submission slot for a command's only op (logged by nvme_get_sqe): Internal Error. */
static void no_sqe(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	if (cmd->status == 0)
		cmd->status = NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INTERNAL_ERROR);
	nvme_complete(c, cmd, SCT_G, 0);
}

static void rw_done(struct nvme_ctrl *c, struct nvme_cmd *cmd, int res);

static void submit_rw(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	struct io_uring_sqe *s;
	int fd = cmd->direct ? c->dfd : c->fd;

	if (c->map != NULL && nvme_map_rw(c, cmd, cmd->op.kind == OP_READ) >= 0) {
		rw_done(c, cmd, (int)cmd->len);
		return;
	}
	if (c->inline_rw) { /* a copy in memory: done here (inline_store); rw_done goes on with a short one */
		int flags = cmd->op.kind == OP_WRITE && (cmd->sqe.cdw12 & (1u << 30)) ? RWF_DSYNC : 0;
		ssize_t n = cmd->op.kind == OP_READ ? preadv2(fd, cmd->iov, cmd->niov, (off_t)cmd->off, 0)
						    : pwritev2(fd, cmd->iov, cmd->niov, (off_t)cmd->off, flags);

		rw_done(c, cmd, n < 0 ? -errno : (int)n);
		return;
	}
	s = nvme_get_sqe(c, cmd);
	if (s == NULL) {
		no_sqe(c, cmd);
		return;
	}
	if (cmd->op.kind == OP_READ)
		io_uring_prep_readv(s, fd, cmd->iov, (unsigned)cmd->niov, cmd->off);
	else
		io_uring_prep_writev(s, fd, cmd->iov, (unsigned)cmd->niov, cmd->off);
	/* FUA: the write is durable when it completes */
	if (cmd->op.kind == OP_WRITE && (cmd->sqe.cdw12 & (1u << 30)))
		s->rw_flags = RWF_DSYNC;
	io_uring_sqe_set_data(s, &cmd->op);
	cmd->pending++;
}

static const int zero_modes[] = {
	FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
	FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
};

static void zero_done(struct nvme_ctrl *c, struct nvme_op *op, int res);

static void submit_zero(struct nvme_ctrl *c, struct nvme_op *op)
{
	struct io_uring_sqe *s = nvme_get_sqe(c, op->cmd);

	if (s == NULL) { /* (DSM holds its command until every range is submitted) */
		if (op->cmd->status == 0)
			op->cmd->status = NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INTERNAL_ERROR);
		zero_done(c, op, -EBUSY);
		return;
	}
	io_uring_prep_fallocate(s, c->fd, zero_modes[op->step], op->off, op->len);
	io_uring_sqe_set_data(s, op);
}

/* The last resort of zeroing: plain writes of a zero buffer, on the thread that reaps the op. */
static int zero_fill(struct nvme_ctrl *c, uint64_t off, uint64_t len)
{
	static const uint8_t zeroes[65536];

	while (len > 0) {
		size_t n = len < sizeof(zeroes) ? len : sizeof(zeroes);
		ssize_t w = pwrite(c->fd, zeroes, n, (off_t)off);

		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		off += (uint64_t)w;
		len -= (uint64_t)w;
	}
	return 0;
}

static void start_zero(struct nvme_ctrl *c, struct nvme_cmd *cmd, struct nvme_op *op, uint64_t slba, uint64_t nlb)
{
	op->cmd = cmd;
	op->kind = OP_ZERO;
	op->step = 0;
	op->off = slba << c->lba_shift;
	op->len = nlb << c->lba_shift;
	cmd->pending++;
	submit_zero(c, op);
}

static bool lba_check(struct nvme_ctrl *c, struct nvme_cmd *cmd, uint64_t slba, uint64_t nlb)
{
	if (slba >= c->num_blocks || nlb > c->num_blocks - slba) {
		SDK_LOG_ERR("NVMe opcode 0x%02x cid %u: LBAs %llu + %llu are beyond the namespace's %llu",
			    cmd->sqe.opc, cmd->sqe.cid, (unsigned long long)slba, (unsigned long long)nlb,
			    (unsigned long long)c->num_blocks);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_LBA_OUT_OF_RANGE);
		return false;
	}
	return true;
}

static void dsm(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	unsigned nr = (cmd->sqe.cdw10 & 0xff) + 1;
	struct {
		uint32_t cattr;
		uint32_t nlb;
		uint64_t slba;
	} r[DSM_MAX_RANGES];
	int st = nvme_prp_map(cmd, nr * sizeof(r[0]));

	if (st != 0) {
		nvme_complete(c, cmd, st >> 8, st & 0xff);
		return;
	}
	nvme_iov_copy(cmd, r, nr * sizeof(r[0]), false);
	for (unsigned i = 0; i < nr; i++)
		if (!lba_check(c, cmd, r[i].slba, r[i].nlb))
			return;
	if (!(cmd->sqe.cdw11 & (1u << 2))) {
		/* attributes only (no Deallocate): hints we may ignore */
		nvme_complete(c, cmd, SCT_G, 0);
		return;
	}
	cmd->pending = 1; /* held until every range is submitted */
	for (unsigned i = 0; i < nr; i++) {
		struct nvme_op *op;

		if (r[i].nlb == 0)
			continue;
		op = calloc(1, sizeof(*op));
		if (op == NULL) {
			cmd->status = NVME_STATUS(SCT_G, SOFTDOCA_NVME_SC_INTERNAL_ERROR);
			break;
		}
		op->allocated = true;
		start_zero(c, cmd, op, r[i].slba, r[i].nlb);
	}
	if (--cmd->pending == 0)
		nvme_complete(c, cmd, SCT_G, 0);
}

void nvme_io_exec(struct nvme_ctrl *c, struct nvme_cmd *cmd)
{
	const struct softdoca_nvme_sqe *q = &cmd->sqe;
	uint64_t slba = ((uint64_t)q->cdw11 << 32) | q->cdw10;
	uint64_t nlb = (q->cdw12 & 0xffff) + 1ull;
	int st;

	if ((q->flags & 0xc3) != 0) {
		SDK_LOG_ERR("NVMe I/O opcode 0x%02x cid %u: fused commands and SGLs are not supported", q->opc, q->cid);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_FIELD);
		return;
	}
	if (q->opc != SOFTDOCA_NVME_IO_FLUSH && q->opc != SOFTDOCA_NVME_IO_WRITE && q->opc != SOFTDOCA_NVME_IO_READ &&
	    q->opc != SOFTDOCA_NVME_IO_WRITE_ZEROES && q->opc != SOFTDOCA_NVME_IO_DSM) {
		SDK_LOG_ERR("NVMe I/O opcode 0x%02x (cid %u, SQ %u) is not supported", q->opc, q->cid, cmd->sqid);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_OPCODE);
		return;
	}
	/* Flush may name every namespace */
	if (q->nsid != NVME_NSID && !(q->opc == SOFTDOCA_NVME_IO_FLUSH && q->nsid == 0xffffffffu)) {
		SDK_LOG_ERR("NVMe I/O opcode 0x%02x cid %u: no namespace %u", q->opc, q->cid, q->nsid);
		nvme_complete(c, cmd, SCT_G, SOFTDOCA_NVME_SC_INVALID_NAMESPACE);
		return;
	}
	switch (q->opc) {
	case SOFTDOCA_NVME_IO_READ:
	case SOFTDOCA_NVME_IO_WRITE:
		if (!lba_check(c, cmd, slba, nlb))
			return;
		st = nvme_prp_map(cmd, nlb << c->lba_shift);
		if (st != 0) {
			nvme_complete(c, cmd, st >> 8, st & 0xff);
			return;
		}
		cmd->op.kind = q->opc == SOFTDOCA_NVME_IO_READ ? OP_READ : OP_WRITE;
		cmd->off = slba << c->lba_shift;
		cmd->len = nlb << c->lba_shift;
		cmd->direct = direct_ok(c, cmd);
		if (cmd->op.kind == OP_READ)
			c->blocks_read += nlb;
		else
			c->blocks_written += nlb;
		submit_rw(c, cmd);
		break;
	case SOFTDOCA_NVME_IO_FLUSH: {
		struct io_uring_sqe *s = nvme_get_sqe(c, cmd);

		cmd->op.kind = OP_FLUSH;
		if (s == NULL) {
			no_sqe(c, cmd);
			break;
		}
		io_uring_prep_fsync(s, c->fd, IORING_FSYNC_DATASYNC);
		io_uring_sqe_set_data(s, &cmd->op);
		cmd->pending++;
		break;
	}
	case SOFTDOCA_NVME_IO_WRITE_ZEROES:
		if (!lba_check(c, cmd, slba, nlb))
			return;
		start_zero(c, cmd, &cmd->op, slba, nlb);
		break;
	case SOFTDOCA_NVME_IO_DSM:
		dsm(c, cmd);
		break;
	}
}

/* A short transfer: drops the bytes done from the front of the iovec and goes on. */
static void advance(struct nvme_cmd *cmd, uint64_t done)
{
	int i = 0;

	cmd->off += done;
	cmd->len -= done;
	while (done > 0 && done >= cmd->iov[i].iov_len)
		done -= cmd->iov[i++].iov_len;
	if (i < cmd->niov) {
		cmd->iov[i].iov_base = (uint8_t *)cmd->iov[i].iov_base + done;
		cmd->iov[i].iov_len -= done;
	}
	memmove(cmd->iov, cmd->iov + i, (size_t)(cmd->niov - i) * sizeof(cmd->iov[0]));
	cmd->niov -= i;
}

static void rw_done(struct nvme_ctrl *c, struct nvme_cmd *cmd, int res)
{
	if (res == -EINVAL && cmd->direct) {
		/* the store refused this direct I/O after all: buffered from now on */
		SDK_LOG_WARN("soft NVMe: O_DIRECT refused (%s); falling back to buffered I/O", strerror(-res));
		close(c->dfd);
		__atomic_store_n(&c->dfd, -1, __ATOMIC_RELAXED); /* softdoca_nvme_get_info reads it */
		cmd->direct = false;
		submit_rw(c, cmd);
		return;
	}
	if (res > 0 && (uint64_t)res < cmd->len) {
		advance(cmd, (uint64_t)res);
		cmd->direct = direct_ok(c, cmd);
		submit_rw(c, cmd);
		return;
	}
	if (res <= 0) {
		bool rd = cmd->op.kind == OP_READ;

		SDK_LOG_ERR("NVMe %s cid %u at byte %llu: %s", rd ? "Read" : "Write", cmd->sqe.cid,
			    (unsigned long long)cmd->off, res < 0 ? strerror(-res) : "end of the store");
		cmd->status = NVME_STATUS(SCT_M, rd ? SOFTDOCA_NVME_SC_UNRECOVERED_READ : SOFTDOCA_NVME_SC_WRITE_FAULT);
	}
	nvme_complete(c, cmd, SCT_G, 0);
}

static void zero_done(struct nvme_ctrl *c, struct nvme_op *op, int res)
{
	struct nvme_cmd *cmd = op->cmd;

	if ((res == -EOPNOTSUPP || res == -EINVAL) && ++op->step < (int)(sizeof(zero_modes) / sizeof(zero_modes[0]))) {
		submit_zero(c, op);
		return;
	}
	if (res == -EOPNOTSUPP || res == -EINVAL)
		res = zero_fill(c, op->off, op->len);
	if (res < 0) {
		SDK_LOG_ERR("NVMe opcode 0x%02x cid %u: zeroing %llu bytes at %llu: %s", cmd->sqe.opc, cmd->sqe.cid,
			    (unsigned long long)op->len, (unsigned long long)op->off, strerror(-res));
		if (cmd->status == 0)
			cmd->status = NVME_STATUS(SCT_M, SOFTDOCA_NVME_SC_WRITE_FAULT);
	}
	if (op->allocated)
		free(op);
	if (--cmd->pending == 0)
		nvme_complete(c, cmd, SCT_G, 0);
}

void nvme_io_done(struct nvme_ctrl *c, struct nvme_op *op, int res)
{
	struct nvme_cmd *cmd = op->cmd;

	cmd->ur->inflight--;
	switch (op->kind) {
	case OP_READ:
	case OP_WRITE:
		cmd->pending--;
		rw_done(c, cmd, res);
		break;
	case OP_FLUSH:
		cmd->pending--;
		if (res < 0) {
			SDK_LOG_ERR("NVMe Flush cid %u: %s", cmd->sqe.cid, strerror(-res));
			cmd->status = NVME_STATUS(SCT_M, SOFTDOCA_NVME_SC_WRITE_FAULT);
		}
		nvme_complete(c, cmd, SCT_G, 0);
		break;
	case OP_ZERO:
		zero_done(c, op, res);
		break;
	}
}
