/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw fabric memory: one process reads and writes memory another process exported, the
 * way a DPU's DMA engine reaches host memory over PCIe.
 *
 * Exporter: softhw_mem_export_add() registers a range and returns an id and a random token
 * for the descriptor. The first export opts the process into cross-memory attach
 * (PR_SET_PTRACER where Yama restricts ptrace) and starts the process's service thread, which
 * blocks in poll() on the rendezvous point "mem"/"<pid>" of the card instance. It answers
 * importers' handshakes, and serves reads and writes of exported ranges for importers that
 * cannot use cross-memory attach, so the exporter never has to progress anything. The whole
 * pages of an export may also be moved onto shared memory that importers map (share.h).
 *
 * Importer: softhw_mem_connect() reaches that service point, proves the descriptor is current
 * (id + token, and the peer's pid from the kernel) and learns the exporter's own view of the
 * range and rights, which the descriptor may not exceed and every access is held to. Data
 * then moves with memcpy inside the export's shared window if it has one, else by
 * process_vm_readv/writev (the fast path) or, when that is not permitted or
 * SOFTDOCA_FABRIC_CMA=0, through a shared bounce buffer (memfd passed with SCM_RIGHTS) that the
 * exporter's service thread fills or drains (checking each request against the export).
 *
 * A remote handle is safe to use from several threads. Everything returns a DOCA error; the
 * data path logs one SDK line when an exporter goes away, the rest is logged by the caller.
 */
#ifndef SOFTHW_FABRIC_MEM_H
#define SOFTHW_FABRIC_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "doca_error.h"

/* Rights the exporter grants on a range. */
#define SOFTHW_MEM_READ 0x1u
#define SOFTHW_MEM_WRITE 0x2u
#define SOFTHW_MEM_ATOMIC 0x4u /* RDMA atomics (the soft NIC's service thread executes them) */
/* Who may use them: a DMA engine (a PCI export), the soft NIC (an RDMA export's rkeys). */
#define SOFTHW_MEM_VIA_DMA 0x8u
#define SOFTHW_MEM_VIA_NIC 0x10u

/* Largest bounce buffer (and thus service-path chunk) the exporter accepts. */
#define SOFTHW_MEM_BOUNCE_LEN (1u << 20)

/* How long an importer waits for the exporter's service thread before giving up. */
#define SOFTHW_MEM_TIMEOUT_MS 5000

/* ---- exporter side ---- */

/*
 * Registers [addr, addr + len) with `rights`, reachable through card instance `instance`.
 * Returns the export's id (unique in this process) and token (random, never 0).
 * OPERATING_SYSTEM / ALREADY_EXIST when the service point cannot be set up (*why says so).
 */
doca_error_t softhw_mem_export_add(const char *instance, void *addr, uint64_t len, uint32_t rights, uint64_t *id,
				   uint64_t *token, const char **why);

/*
 * Ends an export: later requests fail and importers connected to it are told (their next
 * access fails). Waits for a service-path copy of this export that is running.
 */
void softhw_mem_export_remove(uint64_t id);

struct softhw_mem_remote;

/*
 * A re-export: a DPU process makes host memory it imported over PCI (`via`, from
 * softhw_mem_connect) reachable by RDMA, as DOCA's doca_mmap_export_rdma() does for an mmap
 * created from a PCI export. [addr, addr + len) is in the exporting process; `rights` must
 * include SOFTHW_MEM_VIA_NIC. Importers are told its range and rights as for any export, but
 * get no cross-memory attach or shared window: this process's soft NIC serves every access,
 * with softhw_mem_export_copy(), and `via` holds it to the original export's rights. The
 * caller keeps `via` connected until softhw_mem_export_remove() returned.
 */
doca_error_t softhw_mem_export_add_proxy(const char *instance, struct softhw_mem_remote *via, uint64_t addr,
					 uint64_t len, uint32_t rights, uint64_t *id, uint64_t *token, const char **why);

/* Is export `id` with `token` live in this process? (imports within one process) */
bool softhw_mem_export_lookup(uint64_t id, uint64_t token);

/*
 * RoCEv2 carries a 32-bit R_Key, not (id, token): the soft NIC's RoCEv2 path names an export by
 * its id (23 bits) and its token's low 8 bits, as an mlx5 mkey is an index and an 8-bit key;
 * the top bit is 0 (1: a sync event's value, softhw_value_rkey32). 0: the id does not fit.
 */
static inline uint32_t softhw_mem_rkey32(uint64_t id, uint64_t token)
{
	return id == 0 || id >= (1u << 23) ? 0 : (uint32_t)(id << 8) | (uint32_t)(token & 0xff);
}
/* The live export such an R_Key names: its id and token. False: none (or the key's 8 bits differ). */
bool softhw_mem_export_by_rkey32(uint32_t rkey, uint64_t *id, uint64_t *token);

/*
 * For a service thread that touches exported memory itself (the soft RDMA NIC): checks that
 * export `id` with `token` is live, is reachable by the NIC (SOFTHW_MEM_VIA_NIC) and covers
 * [addr, addr + len) with `right`, and keeps it from ending until softhw_mem_export_unpin().
 * INVALID_VALUE: unknown or ended export, one the NIC may not use, or a range outside it;
 * NOT_PERMITTED: the export lacks the right. While pinned, the caller must not block nor call
 * any other softhw_mem_* function. Nothing stays pinned on failure.
 */
doca_error_t softhw_mem_export_pin(uint64_t id, uint64_t token, uint64_t addr, uint64_t len, uint32_t right);
void softhw_mem_export_unpin(void);
/* softhw_mem_export_pin() of a re-export that passes every check returns NOT_SUPPORTED, pins
 * nothing: its memory is not in this process. The two calls below serve both kinds. */

/* The checks of softhw_mem_export_pin(), nothing kept pinned; a re-export passes them. */
doca_error_t softhw_mem_export_check(uint64_t id, uint64_t token, uint64_t addr, uint64_t len, uint32_t right);

/*
 * Copies between buf and export `id` (checked as by softhw_mem_export_pin, with
 * SOFTHW_MEM_WRITE or SOFTHW_MEM_READ): memcpy for this process's memory, through the import
 * for a re-export (which may wait for the other process, up to SOFTHW_MEM_TIMEOUT_MS). Memory
 * of a re-export that is gone gives INVALID_VALUE, as an export that ended.
 */
doca_error_t softhw_mem_export_copy(uint64_t id, uint64_t token, uint64_t addr, void *buf, uint64_t len, bool write);

/* ---- importer side ---- */

/*
 * What a descriptor says about the exporter. Its claims are checked against the export the
 * exporter's service reports, which is the truth: the range must lie inside the export's and
 * the rights (SOFTHW_MEM_VIA_* included) be a subset of its rights.
 */
struct softhw_mem_peer {
	const char *instance;
	pid_t pid;
	uint64_t id;
	uint64_t token;
	uint64_t addr;
	uint64_t len;
	uint32_t rights;
	/*
	 * The soft NIC's rkey names only id and token: take the export's own range and rights
	 * (it must be SOFTHW_MEM_VIA_NIC); range and rights above are not looked at.
	 */
	bool any_range;
	/* The caller never accesses through the remote from two threads at once (the soft NIC: its
	 * qp lock): window accesses may then be announced instead of counted (share.h). */
	bool serialised;
};

/*
 * Connects to the exporter of `peer` and checks the descriptor against the live export.
 * NOT_FOUND: no such exporter process (it exited, or never exported); INVALID_VALUE: the
 * export is not live any more, or the descriptor claims more than it (a wider or another
 * range, a right or a use it does not grant); TIME_OUT: no answer. *why says which, for the
 * caller's log line. Accesses through the remote are held to the export's own range and rights.
 */
doca_error_t softhw_mem_connect(const struct softhw_mem_peer *peer, struct softhw_mem_remote **remote,
				const char **why);

/*
 * Checks the claims of `peer` against its export as softhw_mem_connect does, without setting
 * up a data path. NOT_FOUND when nobody on this host answers for the export (a descriptor of
 * another host, or of an exporter that is gone): the caller cannot check it here.
 */
doca_error_t softhw_mem_verify(const struct softhw_mem_peer *peer, const char **why);

void softhw_mem_disconnect(struct softhw_mem_remote *remote);

/*
 * Copies between local memory and the remote range. The remote range must lie inside the
 * export (INVALID_VALUE) and have the right (NOT_PERMITTED). An exporter that exited gives
 * CONNECTION_ABORTED; an export that ended, or memory the exporter no longer maps, IO_FAILED.
 */
doca_error_t softhw_mem_read(struct softhw_mem_remote *remote, void *dst, uint64_t src_addr, uint64_t len);
doca_error_t softhw_mem_write(struct softhw_mem_remote *remote, uint64_t dst_addr, const void *src, uint64_t len);

/* Does this remote move data by cross-memory attach (else through the service thread)? */
bool softhw_mem_uses_cma(const struct softhw_mem_remote *remote);

/* Does its shared window announce each access instead of counting it (share.h)? */
bool softhw_mem_window_announced(const struct softhw_mem_remote *remote);

/*
 * Can it reach [addr, addr + len) without the exporter's service thread: by cross-memory
 * attach, or with plain loads and stores through the export's shared window (share.h)?
 */
bool softhw_mem_direct(const struct softhw_mem_remote *remote, uint64_t addr, uint64_t len);

/*
 * softhw_mem_read (write: softhw_mem_write) when the range is direct (softhw_mem_direct), in one
 * call; NOT_SUPPORTED, with nothing checked or done, when it is not. (A direct range never
 * answers NOT_SUPPORTED otherwise: only a re-export's service path does, and a re-export is
 * never granted cross-memory attach or a window.)
 */
doca_error_t softhw_mem_copy_direct(struct softhw_mem_remote *remote, uint64_t addr, void *local, uint64_t len,
				    bool write);

/*
 * An 8-byte atomic at addr (8-aligned) through the shared window: fetch-and-add of arg0, or
 * compare-and-swap (arg0 expected, arg1 new); *old gets the previous value. Needs
 * SOFTHW_MEM_ATOMIC. NOT_SUPPORTED when addr is outside the window (the caller then has the
 * exporter do it); otherwise as softhw_mem_write.
 */
doca_error_t softhw_mem_atomic(struct softhw_mem_remote *remote, uint64_t addr, bool cmp_swap, uint64_t arg0,
			       uint64_t arg1, uint64_t *old);

#endif /* SOFTHW_FABRIC_MEM_H */
