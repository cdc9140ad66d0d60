/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw fabric shared memory: small segments that the processes of a soft card map together,
 * the way both sides of a BlueField reach one word of memory over PCIe. A segment is a file
 * <run_dir>/<kind>/<name> mapped MAP_SHARED, so atomics and futexes on it work across
 * processes. Names are the creator's business (make them unique, e.g. with its pid); a
 * segment lives until its creator unlinks it, and mappings stay valid after that.
 *
 * The run directory is trusted only if it is this user's alone: it and the <kind> folder must
 * be real directories (no symlinks) owned by the effective uid and writable by no one else
 * (softhw_private_dir_open), and a segment must be a regular file of this user's, opened
 * without following a symlink. Otherwise another user could hand us a segment (a default
 * /tmp/softdoca-<uid> can be made by anyone first), read and write it, or shorten it under
 * our mapping (SIGBUS): NOT_PERMITTED.
 *
 * Nothing here logs: errors come back as DOCA errors with *why for the caller's line (a *why
 * naming a path holds until this thread's next call here).
 */
#ifndef SOFTHW_FABRIC_SHM_H
#define SOFTHW_FABRIC_SHM_H

#include <stddef.h>

#include "doca_error.h"

/*
 * Creates segment kind/name of `len` bytes, zero-filled, and maps it. A file of that name
 * left by a process that died is replaced. OPERATING_SYSTEM when the run directory or the
 * file cannot be made, NOT_PERMITTED when the kind folder is not this user's alone,
 * NO_MEMORY when it cannot be mapped.
 */
doca_error_t softhw_shm_create(const char *kind, const char *name, size_t len, void **addr, const char **why);

/*
 * Maps an existing segment; NOT_FOUND if there is none of that name or it is shorter than `len`,
 * NOT_PERMITTED if it, its folder or the run directory is not this user's alone.
 */
doca_error_t softhw_shm_open(const char *kind, const char *name, size_t len, void **addr, const char **why);

void softhw_shm_unmap(void *addr, size_t len);

/* Removes the segment's name: nobody can open it any more; existing mappings are unaffected. */
void softhw_shm_unlink(const char *kind, const char *name);

#endif /* SOFTHW_FABRIC_SHM_H */
