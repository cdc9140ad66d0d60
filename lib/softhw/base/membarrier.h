/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The membarrier system call, which glibc does not wrap: one home for softhw's asymmetric
 * fences (the qp lock's revocation, the end of a shared export).
 */
#ifndef SOFTHW_BASE_MEMBARRIER_H
#define SOFTHW_BASE_MEMBARRIER_H

#include <linux/membarrier.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline long softhw_membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

/*
 * This process is registered for `reg` (MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED or
 * _PRIVATE_EXPEDITED): asked once per process, a fork child asks again; a refusal is
 * remembered alike (false).
 */
bool softhw_membarrier_registered(int reg);

/*
 * A barrier failed (a seccomp filter installed after the registration): gives a store still in
 * another CPU's store buffer a millisecond to show (far more than a store buffer holds one,
 * though no memory model promises it), between full fences of ours.
 */
void softhw_membarrier_settle(void);

#endif
