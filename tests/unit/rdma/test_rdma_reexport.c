/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The zero-copy storage pattern with three real processes: a host process exports its memory
 * over PCI, the DPU process imports it and re-exports it for RDMA (doca_mmap_export_rdma on an
 * mmap created from a PCI export), and a target process reaches the host's memory with RDMA
 * write and read through the DPU's connection, never seeing the host itself.
 *
 * This program is the DPU (DPU flavour). It runs itself again as "exporter" and "target" with
 * SOFTDOCA_ROLE=host; each talks to it over pipes (stdin / stdout):
 *
 *   exporter: exports MEM bytes of pattern(i) (PCI read-write, RDMA read and write), sends the
 *             descriptor, then dumps its memory on 'd'.
 *   target:   connects to the DPU's RDMA context, imports the re-export, writes WLEN bytes of
 *             0xA5 at offset 0 and reads RLEN bytes at offset ROFF (checked against pattern),
 *             answers 'K'; on 'w' writes again and answers 'E' if the write failed.
 *
 * Checks: the write landed in the host's memory and nowhere else; what the target read is the
 * host's; a re-export is refused for PCI and for an import without RDMA rights; once the DPU
 * stops its import, the target's writes fail (no write lands in memory nobody exports).
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>

#include "rdma_test.h"

#define MEM (1u << 20)
#define WLEN 4096u
#define ROFF 8192u
#define RLEN (640u * 1024 + 123) /* three chunks of a re-export's READ answer on the stream (io.c) */

static struct doca_buf_inventory *inv;

SIDE_CB(rd, read)
SIDE_CB(wr, write)

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 7 + 3);
}

static bool read_full(int fd, void *buf, size_t len)
{
	for (char *p = buf; len > 0;) {
		ssize_t n = read(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool write_full(int fd, const void *buf, size_t len)
{
	for (const char *p = buf; len > 0;) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* A length-prefixed blob on a pipe. */
static bool send_blob(int fd, const void *b, size_t len)
{
	uint32_t l = (uint32_t)len;

	return write_full(fd, &l, sizeof(l)) && write_full(fd, b, len);
}

static size_t recv_blob(int fd, void *b, size_t cap)
{
	uint32_t l = 0;

	if (!read_full(fd, &l, sizeof(l)) || l > cap || !read_full(fd, b, l))
		return 0;
	return l;
}

/* A process of this program in `mode` on the host side; *to / *from are its stdin / stdout. */
static pid_t spawn(const char *mode, int *to, int *from)
{
	int in[2], out[2];
	pid_t pid;

	/* close-on-exec: the other child must not hold this one's stdin open */
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		setenv("SOFTDOCA_ROLE", "host", 1);
		execl("/proc/self/exe", "test_rdma_reexport", mode, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	*to = in[1];
	*from = out[0];
	return pid;
}

static struct doca_dev *open_dev_with(bool pci_import)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		uint8_t ok = 0;

		if (pci_import)
			(void)doca_mmap_cap_is_create_from_export_pci_supported(list[i], &ok);
		else
			(void)doca_mmap_cap_is_export_pci_supported(list[i], &ok);
		if (ok && doca_rdma_cap_transport_type_is_supported(list[i], DOCA_RDMA_TRANSPORT_TYPE_RC) == DOCA_SUCCESS &&
		    doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

/* ---- host side: the initiator's memory ---- */

static int exporter_main(void)
{
	struct doca_dev *dev = open_dev_with(false);
	uint8_t *mem = malloc(MEM);
	struct doca_mmap *m, *weak;
	const void *d, *wd;
	size_t dl, wdl;
	uint64_t addr = (uint64_t)(uintptr_t)mem;
	char c;

	if (dev == NULL || mem == NULL)
		return 3;
	for (size_t i = 0; i < MEM; i++)
		mem[i] = pattern(i);
	/* as NVIDIA's initiator: PCI for the DPU, RDMA rights for whoever the DPU hands it to */
	if (doca_mmap_create(&m) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE |
						 DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(m, mem, MEM) != DOCA_SUCCESS || doca_mmap_add_dev(m, dev) != DOCA_SUCCESS ||
	    doca_mmap_start(m) != DOCA_SUCCESS || doca_mmap_export_pci(m, dev, &d, &dl) != DOCA_SUCCESS)
		return 4;
	/* and one without RDMA rights, which must not be re-exported */
	if (doca_mmap_create(&weak) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(weak, DOCA_ACCESS_FLAG_PCI_READ_WRITE) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(weak, mem, MEM) != DOCA_SUCCESS || doca_mmap_add_dev(weak, dev) != DOCA_SUCCESS ||
	    doca_mmap_start(weak) != DOCA_SUCCESS || doca_mmap_export_pci(weak, dev, &wd, &wdl) != DOCA_SUCCESS)
		return 4;
	if (!send_blob(1, d, dl) || !send_blob(1, wd, wdl) || !write_full(1, &addr, sizeof(addr)))
		return 5;
	while (read(0, &c, 1) == 1)
		if (c == 'd' && !write_full(1, mem, MEM))
			return 6;
	doca_mmap_destroy(weak);
	doca_mmap_destroy(m);
	doca_dev_close(dev);
	return 0;
}

/* ---- host side: the storage target ---- */

static struct doca_dev *target_dev;

/* One RDMA write (WLEN bytes of `fill` to remote offset 0); its status. */
static doca_error_t target_write(struct side *s, struct doca_mmap *remote, char *raddr, int fill)
{
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_write *w;
	int before = s->ok + s->err;

	memset(s->mem, fill, WLEN);
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, s->mmap, s->mem, WLEN, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, remote, raddr, WLEN, &dst));
	CHECK_OK(doca_rdma_task_write_allocate_init(s->rdma, s->conn, src, dst, (union doca_data){0}, &w));
	CHECK_OK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	for (double end = now_s() + 10; s->ok + s->err == before && now_s() < end;)
		if (doca_pe_progress(s->pe) == 0)
			nap();
	CHECK(s->ok + s->err == before + 1);
	doca_task_free(doca_rdma_task_write_as_task(w));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	return s->ok + s->err == before + 1 && s->err == 0 ? DOCA_SUCCESS : s->last;
}

static int target_main(void)
{
	struct side s;
	char blob[1024], desc[1024];
	size_t bl, dlen;
	const void *mine;
	size_t ml;
	struct doca_mmap *remote;
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_read *r;
	uint64_t addr;
	char c;

	target_dev = open_dev_with(false);
	CHECK(target_dev != NULL);
	if (target_dev == NULL)
		return 3;
	CHECK_OK(doca_buf_inventory_create(8, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	side_create(&s, target_dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, MEM);
	CHECK_OK(doca_rdma_task_read_set_conf(s.rdma, rd_ok, rd_err, 4));
	CHECK_OK(doca_rdma_task_write_set_conf(s.rdma, wr_ok, wr_err, 4));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s.rdma)));
	CHECK_OK(doca_rdma_export(s.rdma, &mine, &ml, &s.conn));
	bl = recv_blob(0, blob, sizeof(blob));
	dlen = recv_blob(0, desc, sizeof(desc));
	CHECK(bl > 0 && dlen > 0 && read_full(0, &addr, sizeof(addr)));
	CHECK(send_blob(1, mine, ml));
	CHECK_OK(doca_rdma_connect(s.rdma, blob, bl, s.conn));
	/* the DPU's re-export of the host's memory, as any RDMA export */
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, dlen, target_dev, &remote));

	CHECK_OK(target_write(&s, remote, (char *)(uintptr_t)addr, 0xA5));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, s.mmap, s.mem + ROFF, RLEN, &dst));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(inv, remote, (char *)(uintptr_t)addr + ROFF, RLEN, &src));
	CHECK_OK(doca_rdma_task_read_allocate_init(s.rdma, s.conn, src, dst, (union doca_data){0}, &r));
	CHECK_OK(doca_task_submit(doca_rdma_task_read_as_task(r)));
	for (double end = now_s() + 10; s.ok + s.err < 2 && now_s() < end;)
		if (doca_pe_progress(s.pe) == 0)
			nap();
	CHECK(s.ok == 2 && s.err == 0);
	for (size_t i = 0; i < RLEN; i++)
		if ((uint8_t)s.mem[ROFF + i] != pattern(ROFF + i)) {
			CHECK(!"the read returned the host's bytes");
			break;
		}
	doca_task_free(doca_rdma_task_read_as_task(r));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK(write_full(1, test_failures == 0 ? "K" : "F", 1));

	/* the DPU stopped its import: the re-export ended with it */
	if (read(0, &c, 1) == 1 && c == 'w')
		CHECK(write_full(1, target_write(&s, remote, (char *)(uintptr_t)addr, 0x5A) != DOCA_SUCCESS ? "E" : "S", 1));
	CHECK_OK(doca_mmap_destroy(remote));
	side_down(&s);
	CHECK_OK(doca_buf_inventory_destroy(inv));
	return test_failures == 0 ? 0 : 1;
}

/* ---- the DPU ---- */

/* Progresses the DPU's RDMA context until a byte comes on fd (10 s at most). */
static char await_byte(struct side *s, int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	char c = 0;

	for (double end = now_s() + 10; now_s() < end;) {
		(void)doca_pe_progress(s->pe);
		if (poll(&p, 1, 1) == 1)
			return read(fd, &c, 1) == 1 ? c : 0;
	}
	return 0;
}

static void test_reexport(void)
{
	struct doca_dev *dev = open_dev_with(true);
	char desc[1024], weak[1024], tblob[1024];
	size_t dl, wl, tl;
	struct doca_mmap *imp, *wimp;
	const void *rdesc, *p;
	size_t rl, l;
	uint64_t addr = 0;
	int eto, efrom, tto, tfrom, status = 0;
	pid_t exporter, target;
	struct side s;
	uint8_t *dump = malloc(MEM);

	CHECK(dev != NULL && dump != NULL);
	exporter = spawn("exporter", &eto, &efrom);
	CHECK(exporter > 0);
	dl = recv_blob(efrom, desc, sizeof(desc));
	wl = recv_blob(efrom, weak, sizeof(weak));
	CHECK(dl > 0 && wl > 0 && read_full(efrom, &addr, sizeof(addr)));

	CHECK_OK(doca_mmap_create_from_export(NULL, desc, dl, dev, &imp));
	CHECK_ERR(doca_mmap_export_pci(imp, dev, &p, &l), DOCA_ERROR_NOT_PERMITTED); /* PCI: never again */
	CHECK_OK(doca_mmap_export_rdma(imp, dev, &rdesc, &rl));
	if (test_failures != 0) { /* nothing to hand to a target */
		kill(exporter, SIGKILL);
		waitpid(exporter, &status, 0);
		return;
	}
	/* the host granted no RDMA rights on this one */
	CHECK_OK(doca_mmap_create_from_export(NULL, weak, wl, dev, &wimp));
	CHECK_ERR(doca_mmap_export_rdma(wimp, dev, &p, &l), DOCA_ERROR_NOT_PERMITTED);
	CHECK_OK(doca_mmap_destroy(wimp));
	/* its own re-export is no memory of this process */
	CHECK_ERR(doca_mmap_create_from_export(NULL, rdesc, rl, dev, &wimp), DOCA_ERROR_NOT_SUPPORTED);

	/* the DPU's RDMA context grants the target what the storage relay needs */
	side_create(&s, dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE,
		    DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, 4096);
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(s.rdma)));
	CHECK_OK(doca_rdma_export(s.rdma, &p, &l, &s.conn));
	target = spawn("target", &tto, &tfrom);
	CHECK(target > 0);
	CHECK(send_blob(tto, p, l) && send_blob(tto, rdesc, rl) && write_full(tto, &addr, sizeof(addr)));
	tl = recv_blob(tfrom, tblob, sizeof(tblob));
	CHECK(tl > 0);
	CHECK_OK(doca_rdma_connect(s.rdma, tblob, tl, s.conn));
	CHECK(await_byte(&s, tfrom) == 'K');

	/* the write is in the host's memory, and nothing else changed */
	CHECK(write_full(eto, "d", 1) && read_full(efrom, dump, MEM));
	for (size_t i = 0; i < MEM; i++)
		if (dump[i] != (i < WLEN ? 0xA5 : pattern(i))) {
			fprintf(stderr, "host byte %zu is 0x%02x\n", i, dump[i]);
			CHECK(!"the host's memory holds the target's write and its own pattern");
			break;
		}

	/* the import stops: the re-export ends, the target's next write fails and lands nowhere */
	CHECK_OK(doca_mmap_stop(imp));
	CHECK(write_full(tto, "w", 1));
	CHECK(await_byte(&s, tfrom) == 'E');
	CHECK(write_full(eto, "d", 1) && read_full(efrom, dump, MEM));
	CHECK(dump[0] == 0xA5 && dump[WLEN - 1] == 0xA5); /* the first write's bytes, not the second's */

	close(tto);
	CHECK(waitpid(target, &status, 0) == target && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(eto);
	CHECK(waitpid(exporter, &status, 0) == exporter && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(tfrom);
	close(efrom);
	CHECK_OK(doca_mmap_destroy(imp));
	side_down(&s);
	doca_dev_close(dev);
	free(dump);
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN);
	if (argc > 1 && strcmp(argv[1], "exporter") == 0) {
		TEST_ROLE();
		return exporter_main();
	}
	if (argc > 1 && strcmp(argv[1], "target") == 0) {
		TEST_ROLE();
		return target_main();
	}
	TEST_RUN(test_reexport);
	TEST_EXIT();
}
