/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softhw fabric shared memory: small segments that the processes of a soft card map together,
 * the way both sides of a BlueField reach one word of memory over PCIe. A segment is a file
 * <run_dir>/<kind>/<name> mapped MAP_SHARED, so atomics and futexes on it work across
 * processes. Names are the creator's business (make them unique, e.g. with its pid); a
 * segment lives until its creator unlinks it, and mappings stay valid after that.
 *
 * Nothing here logs: errors come back as DOCA errors with *why for the caller's line.
 */
#ifndef SOFTHW_FABRIC_SHM_H
#define SOFTHW_FABRIC_SHM_H

#include <stddef.h>

#include "doca_error.h"

/*
 * Creates segment kind/name of `len` bytes, zero-filled, and maps it. A file of that name
 * left by a process that died is replaced. OPERATING_SYSTEM when the run directory or the
 * file cannot be made, NO_MEMORY when it cannot be mapped.
 */
doca_error_t softhw_shm_create(const char *kind, const char *name, size_t len, void **addr, const char **why);

/* Maps an existing segment; NOT_FOUND if there is none of that name or it is shorter than `len`. */
doca_error_t softhw_shm_open(const char *kind, const char *name, size_t len, void **addr, const char **why);

void softhw_shm_unmap(void *addr, size_t len);

/* Removes the segment's name: nobody can open it any more; existing mappings are unaffected. */
void softhw_shm_unlink(const char *kind, const char *name);

#endif /* SOFTHW_FABRIC_SHM_H */
